/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_TX_SCHEDULER_H
#define DRP_TX_SCHEDULER_H

#include "ns3/callback.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <set>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The RNIC's transmit scheduler: the DRP frames waiting for the port,
 * and which of them the port gets next.
 *
 * An RNIC does not push its frames into the port's FIFO: each transfer (a
 * flow, one per connection, like a queue pair) keeps its own queue of data
 * frames whose payload has been read from host memory, and the scheduler
 * gives the port one frame each time the port can start one (the port pulls,
 * see RnicNetDevice). So no DRP frame is ever dropped for want of queue
 * room, and a frame waits behind the frames of other transfers only as long
 * as the arbitration says.
 *
 * Order:
 *
 * - control frames (REQ, REQ_ACK, ACK, REL, REL_ACK; no payload) go before
 *   any data frame, in the order they were made: a handshake or an
 *   acknowledgement never waits behind bulk data;
 * - data frames: one frame per flow in turn among the flows that have one
 *   ready (ROUND_ROBIN, the default), or the oldest flow with a frame ready
 *   first (FIFO: transfers served in posting order); within a flow, in the
 *   order the transfer made them.
 *
 * Each frame may carry a callback that runs when the frame leaves the RNIC
 * onto the wire: the transport's timers start there, not when the frame was
 * made. Closing a flow (its transfer ended) discards its waiting data frames
 * and silences the callbacks of its frames still waiting; its control frames
 * still leave.
 */
class DrpTxScheduler
{
  public:
    /// How data frames of different flows share the port.
    enum Arbitration
    {
        ROUND_ROBIN, //!< one frame per flow in turn
        FIFO,        //!< the oldest flow with a frame ready first (posting order)
    };

    /// Runs when a frame leaves onto the wire.
    typedef std::function<void()> SentCallback;

    /// A frame waiting for the port.
    struct Frame
    {
        Ptr<Packet> packet; //!< DRP header and payload
        Mac48Address to;    //!< destination
        uint64_t flow{0};   //!< its flow (0: none)
        SentCallback sent;  //!< runs when it leaves, if its flow is still open (may be empty)
    };

    DrpTxScheduler();

    /// \param arbitration how data frames of different flows share the port
    void SetArbitration(Arbitration arbitration);
    /// \return how data frames of different flows share the port
    Arbitration GetArbitration() const;
    /// \param ready runs each time a frame is queued (the port may pull it at once)
    void SetReadyCallback(Callback<void> ready);

    /// \return a new flow (ids increase: a lower id is an older flow)
    uint64_t OpenFlow();
    /**
     * Ends a flow: its waiting data frames are discarded, and no callback
     * of its frames runs any more.
     * \param flow the flow (0 or an unknown flow: nothing happens)
     */
    void CloseFlow(uint64_t flow);
    /// \param flow a flow \return true if it is open
    bool IsOpen(uint64_t flow) const;

    /// \param frame a control frame (no payload), sent before any data frame
    void EnqueueControl(Frame frame);
    /**
     * \param frame a data frame of an open flow (a closed flow's is discarded)
     * \return false if it was discarded
     */
    bool EnqueueData(Frame frame);

    /// \return true if a frame waits
    bool HasFrame() const;
    /**
     * Takes the next frame: the port starts it now. Runs its callback.
     * \param [out] to its destination
     * \return the frame (null if none waits)
     */
    Ptr<Packet> Dequeue(Mac48Address& to);

    /// \return frames waiting (control and data)
    uint64_t GetWaiting() const;
    /// \return data frames discarded because their flow closed
    uint64_t GetDiscarded() const;

  private:
    /**
     * \param flow a flow with a data frame ready, not yet in the arbitration
     */
    void MakeEligible(uint64_t flow);
    /// \return the flow whose data frame goes next (one must be eligible)
    uint64_t PickFlow();

    Arbitration m_arbitration;                     //!< data arbitration
    Callback<void> m_ready;                        //!< a frame was queued
    uint64_t m_nextFlow{1};                        //!< next flow id
    std::deque<Frame> m_control;                   //!< control frames, in order
    std::map<uint64_t, std::deque<Frame>> m_flows; //!< open flows and their data frames
    std::deque<uint64_t> m_ring;                   //!< ROUND_ROBIN: flows with a frame, in turn
    std::set<uint64_t> m_oldestFirst;              //!< FIFO: flows with a frame, oldest first
    uint64_t m_waitingData{0};                     //!< data frames waiting
    uint64_t m_discarded{0};                       //!< data frames of closed flows
};

} // namespace ns3

#endif /* DRP_TX_SCHEDULER_H */
