/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_TX_SCHEDULER_H
#define DRP_TX_SCHEDULER_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/drp-header.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
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
 * frames to send (descriptors: header and host address), and the scheduler
 * gives the port one frame each time the port can start one (the port pulls,
 * see RnicNetDevice). So no DRP frame is ever dropped for want of queue
 * room, and a frame waits behind the frames of other transfers only as long
 * as the arbitration says.
 *
 * A data frame's payload is read from host memory (a DMA read) when the
 * arbitration picks it, a few frames ahead of the port: the owner (the
 * transport) takes the next descriptor with TakeNextData(), reads the
 * payload and hands the frame back with AddFetched(). The port's pick among
 * fetched frames follows the same arbitration (within a flow, in order). So
 * the arbitration, not the order in which transfers posted their windows or
 * their payloads came back, decides what the port sends. A flow may have at
 * most a few frames (the stage limit) read ahead: a transfer that starts
 * alone takes no more than that lead over those that start a moment later.
 *
 * Order:
 *
 * - control frames (REQ, REQ_ACK, ACK, REL, REL_ACK; no payload) go before
 *   any data frame, in the order they were made: a handshake or an
 *   acknowledgement never waits behind bulk data;
 * - data frames: one frame per flow in turn among the flows that have one
 *   ready (ROUND_ROBIN, the default), or the oldest flow with a frame ready
 *   first (FIFO: transfers served in posting order); within a flow, in the
 *   order the transfer made them. Round robin is start-time fair queuing
 *   with one frame as the unit (Goyal, Vin and Cheng, SIGCOMM 1996): each
 *   flow's turns are counted, a flow that has been served less since it
 *   became backlogged goes first (ties: the older flow), and a flow that
 *   was idle gets no credit for it. For flows that stay backlogged this is
 *   plain round robin; flows that start a moment apart still end together.
 *
 * A flow may be paced (SetFlowRate(), the rate its congestion control
 * allows): its data frames are then taken for reading no closer together
 * than their bytes on the wire (payload plus the pacing overhead) at that
 * rate, as an RNIC's rate limiter spaces a queue pair's work requests (in
 * whole nanoseconds, the remainder carried to the next frame, so that the
 * mean spacing is exact). A
 * paced flow whose next frame is not due yet is passed over by the
 * arbitration; when no flow's frame is due, the scheduler wakes its owner
 * (SetWakeCallback()) at the earliest time one is. Unpaced flows, the
 * default, cost nothing more.
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
        ROUND_ROBIN, //!< one frame per flow in turn (start-time fair queuing)
        FIFO,        //!< the oldest flow with a frame ready first (posting order)
    };

    /// Runs when a frame leaves onto the wire.
    typedef std::function<void()> SentCallback;

    /// A frame ready for the port: a control frame, or a data frame with its payload.
    struct Frame
    {
        Ptr<Packet> packet; //!< DRP header and payload
        Mac48Address to;    //!< destination
        uint64_t flow{0};   //!< its flow (0: none)
        SentCallback sent;  //!< runs when it leaves, if its flow is still open (may be empty)
    };

    /// A data frame to send: its payload is still in host memory.
    struct DataFrame
    {
        DrpHeader header;              //!< the frame's header (LEN: the payload's bytes)
        Mac48Address to;               //!< destination
        uint64_t localAddress{0};      //!< where the payload is in host memory
        uint64_t flow{0};              //!< its flow
        SentCallback sent;             //!< runs when it leaves, if its flow is still open
        std::function<bool()> mayRead; //!< checked before the payload is read (may be empty)
        SentCallback unsent;           //!< runs instead of sent if mayRead refuses (may be empty)
        uint64_t sourceEnd{0};         //!< one past its transfer's source (0: unknown)
    };

    DrpTxScheduler();
    /// Its wake-up, if any, will not run.
    ~DrpTxScheduler();

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
     * \return the fetched frames discarded (their room may be read ahead again)
     */
    uint64_t CloseFlow(uint64_t flow);
    /// \param flow a flow \return true if it is open
    bool IsOpen(uint64_t flow) const;

    /// \param frame a control frame (no payload), sent before any data frame
    void EnqueueControl(Frame frame);
    /**
     * \param frame a data frame of an open flow (a closed flow's is discarded)
     * \return false if it was discarded
     */
    bool EnqueueData(DataFrame&& frame);
    /**
     * EnqueueData() of a copy.
     * \param frame a data frame of an open flow
     * \return false if it was discarded
     */
    bool EnqueueData(const DataFrame& frame);
    /**
     * Paces a flow's data frames.
     * \param flow an open flow
     * \param rate its rate; 0 removes the pacing
     */
    void SetFlowRate(uint64_t flow, DataRate rate);
    /// \param flow a flow \return its rate (0: not paced)
    DataRate GetFlowRate(uint64_t flow) const;
    /// \param bytes added to a data frame's LEN for its time at the paced rate
    ///        (DRP and Ethernet framing, preamble and gap)
    void SetPacingOverhead(uint32_t bytes);
    /// \param wake runs when a paced flow's frame becomes due and none was (the
    ///        owner takes data again)
    void SetWakeCallback(Callback<void> wake);

    /// \param frames data frames a flow may have read ahead of the port (fetched or
    ///        being fetched), at most
    void SetStageLimit(uint32_t frames);
    /// \return data frames a flow may have read ahead of the port, at most
    uint32_t GetStageLimit() const;
    /**
     * Takes the data frame whose payload is read next, by the arbitration,
     * among the flows below the stage limit.
     * \param [out] frame the frame
     * \return false if none waits
     */
    bool TakeNextData(DataFrame& frame);
    /**
     * \param frame a data frame whose payload has been read: it waits for the port
     * \return false if it was discarded (its flow closed while the payload was
     *         read): the caller reads another payload in its place
     */
    bool AddFetched(Frame frame);
    /// \return fetched data frames waiting for the port
    uint64_t GetFetched() const;

    /// \param frame a data frame TakeNextData() gave that will not be fetched after all
    void Unfetched(const DataFrame& frame);

    /// Which kinds of frame the port may take now (PFC may hold one and not the other).
    enum Kinds : uint8_t
    {
        CONTROL = 1, //!< control frames
        DATA = 2,    //!< data frames
        ANY = 3,     //!< both
    };

    /**
     * \param kinds the kinds the port may take (CONTROL, DATA or ANY)
     * \return true if a frame of those kinds waits (a control frame or a fetched one)
     */
    bool HasFrame(uint8_t kinds = ANY) const;
    /**
     * Takes the next frame of the kinds allowed, control first: the port
     * starts it now. Runs its callback.
     * \param [out] to its destination
     * \param kinds the kinds the port may take (CONTROL, DATA or ANY)
     * \param [out] control if not null: whether the frame is a control frame
     * \return the frame (null if none of those kinds waits)
     */
    Ptr<Packet> Dequeue(Mac48Address& to, uint8_t kinds = ANY, bool* control = nullptr);

    /// \return frames waiting (control, data to fetch, fetched)
    uint64_t GetWaiting() const;
    /// \return data frames discarded because their flow closed
    uint64_t GetDiscarded() const;

  private:
    /**
     * Queues of frames per flow and the arbitration among the flows that
     * have one: used for the frames to fetch and for the fetched ones.
     * \tparam T the queued item
     */
    template <typename T>
    class FlowQueues
    {
      public:
        /**
         * \param flow an open flow
         * \param item its next item
         */
        void Push(uint64_t flow, T item);
        /**
         * \param arbitration the rule
         * \param [out] item the chosen flow's first item
         * \param eligible which flows may be chosen now (their turn waits)
         * \return false if no eligible flow has one
         */
        bool Pop(Arbitration arbitration,
                 T& item,
                 const std::function<bool(uint64_t)>& eligible = nullptr);
        /**
         * \param flow a flow whose items are dropped
         * \return how many there were
         */
        uint64_t Erase(uint64_t flow);
        /// \return items queued
        uint64_t GetSize() const;
        /// \param flow a flow \return true if it has an item queued
        bool Has(uint64_t flow) const;

      private:
        std::map<uint64_t, std::deque<T>> m_queues;     //!< flows with items (oldest first)
        std::set<std::pair<uint64_t, uint64_t>> m_fair; //!< ROUND_ROBIN: (finish tag, flow)
        std::map<uint64_t, uint64_t> m_finish;          //!< finish tag per flow
        uint64_t m_virtual{0};                          //!< the virtual time (frames)
        uint64_t m_size{0};                             //!< items queued
    };

    /// \param flow one of its staged frames left the stage
    void Unstage(uint64_t flow);
    /// \param flow a flow \return true unless it is paced and its next frame is not due
    bool IsDue(uint64_t flow) const;
    /// \param frame a paced flow's frame just taken: its flow's next frame is due later
    void Pace(const DataFrame& frame);
    /// Wakes the owner when the earliest paced frame is due (none is now).
    void ScheduleWake();

    /// A paced flow: its rate and when its next frame is due.
    struct Pacing
    {
        DataRate rate;        //!< the flow's rate
        Time next;            //!< its next frame is due
        uint64_t carry{0};    //!< the spacing's remainder below 1 ns, in 1/bps ns
        Time last;            //!< when the last frame's spacing started
        uint64_t lastBits{0}; //!< its bits at the paced rate

        /**
         * \param bits a frame's bits at the paced rate
         * \return the time they take at it, in whole nanoseconds; the
         *         remainder is kept in carry for the next frame's
         */
        Time Spacing(uint64_t bits);
    };

    Arbitration m_arbitration;             //!< data arbitration
    Callback<void> m_ready;                //!< a frame was queued
    uint64_t m_nextFlow{1};                //!< next flow id
    std::set<uint64_t> m_open;             //!< open flows
    std::deque<Frame> m_control;           //!< control frames, in order
    FlowQueues<DataFrame> m_toFetch;       //!< data frames whose payload is not read yet
    FlowQueues<Frame> m_fetched;           //!< data frames read, waiting for the port
    uint64_t m_discarded{0};               //!< data frames of closed flows
    uint32_t m_stageLimit{2};              //!< frames a flow may have read ahead, at most
    std::map<uint64_t, uint32_t> m_staged; //!< per flow: frames taken and not yet sent
    std::map<uint64_t, Pacing> m_pacing;   //!< paced flows
    uint32_t m_pacingOverhead{0};          //!< bytes added to LEN at the paced rate
    Callback<void> m_wake;                 //!< a paced frame became due
    EventId m_wakeEvent;                   //!< when
};

} // namespace ns3

#endif /* DRP_TX_SCHEDULER_H */
