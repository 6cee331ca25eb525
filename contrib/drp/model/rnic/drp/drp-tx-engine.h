/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_TX_ENGINE_H
#define DRP_TX_ENGINE_H

#include "drp-read-ahead.h"

#include "ns3/drp-tx-scheduler.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pcie-link.h"

#include <cstdint>
#include <memory>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The DRP RNIC's transmit engine: every frame the transport sends,
 * from the moment a connection hands it over to the moment the port pulls
 * it.
 *
 * A control frame (a handshake, an acknowledgement, a release) pays the
 * transmit processing and joins the scheduler's control queue. A data frame
 * joins its flow's queue in the DrpTxScheduler with its payload still in
 * host memory; the engine reads the payloads of the next frames the
 * arbitration picks, at most a number ahead of the port (DrpTransport's
 * TxPrefetch; TxPrefetchPerTransfer per flow, the scheduler's stage limit),
 * by one DMA read per frame or, with TxReadBytes, from read-ahead chunks
 * (DrpReadAhead); each read completes with the frame's transmit processing.
 * A frame whose payload has been read waits in the scheduler for the port.
 * The port's departures, a flow's end and a paced flow's frame falling due
 * each let the engine read ahead again.
 *
 * The engine knows frames and flows, not transfers: the transport builds
 * the headers, and its connections' callbacks say when a frame left.
 */
class DrpTxEngine
{
  public:
    /// Runs when a frame leaves onto the wire.
    typedef DrpTxScheduler::SentCallback SentCallback;

    DrpTxEngine();

    /// \param pcie the RNIC's PCIe link (payload reads)
    void SetPcieLink(Ptr<PcieLink> pcie);
    /// \param delay the transmit processing of one frame
    void SetProcessingDelay(Time delay);
    /// \param bytes added to a data frame's LEN for its time at a paced rate
    void SetPacingOverhead(uint32_t bytes);
    /// \param frames data frames read ahead of the port, at most (TxPrefetch)
    void SetPrefetch(uint32_t frames);
    /// \return data frames read ahead of the port, at most
    uint32_t GetPrefetch() const;
    /// \param arbitration how data frames of different flows share the port
    void SetArbitration(DrpTxScheduler::Arbitration arbitration);
    /// \return how data frames of different flows share the port
    DrpTxScheduler::Arbitration GetArbitration() const;
    /// \param frames data frames one flow may have read ahead of the port, at most
    void SetPrefetchPerFlow(uint32_t frames);
    /// \return data frames one flow may have read ahead of the port, at most
    uint32_t GetPrefetchPerFlow() const;
    /// \param bytes one payload read, at most (0: one read per frame)
    void SetReadBytes(uint32_t bytes);
    /// \return one payload read, at most (0: one read per frame)
    uint32_t GetReadBytes() const;
    /// \param ready runs whenever a frame joins the scheduler
    void SetReadyCallback(Callback<void> ready);

    /// \return a new flow, for a new connection
    uint64_t OpenFlow();
    /**
     * A connection ended: its flow's waiting data frames are discarded, and
     * their room is read ahead again (unless the engine is stopping).
     * \param flow its flow
     */
    void CloseFlow(uint64_t flow);
    /**
     * \param flow a flow
     * \param rate its pacing rate (0: unpaced)
     */
    void SetFlowRate(uint64_t flow, DataRate rate);
    /// \param flow a flow \return its pacing rate (0: unpaced)
    DataRate GetFlowRate(uint64_t flow) const;

    /**
     * Queues a control frame after its transmit processing.
     * \param packet the frame (DRP header first)
     * \param to destination
     * \param flow its connection's flow (0: none)
     * \param sent runs when it leaves, if the flow is still open (may be empty)
     */
    void SendControl(Ptr<Packet> packet, Mac48Address to, uint64_t flow, SentCallback&& sent);
    /**
     * Queues a control frame whose transmit processing was paid in the
     * event that built it.
     * \param packet the frame (DRP header first)
     * \param to destination
     */
    void SendProcessedControl(Ptr<Packet> packet, Mac48Address to);
    /**
     * Queues a data frame in its flow; its payload is read when the
     * arbitration picks it.
     * \param frame the frame
     */
    void SendData(DrpTxScheduler::DataFrame&& frame);
    /// Reads the payloads of the next data frames, up to the prefetch limit.
    void FetchAhead();

    /// \param kinds the kinds the port may take \return true if a frame of those kinds waits
    bool HasFrame(uint8_t kinds) const
    {
        return m_scheduler.HasFrame(kinds);
    }

    /**
     * \param [out] to the frame's destination
     * \param kinds the kinds the port may take
     * \param [out] control if not null: whether it is a control frame
     * \return the next frame for the port, or null (the caller reads ahead
     *         again after it: FetchAhead())
     */
    Ptr<Packet> Dequeue(Mac48Address& to, uint8_t kinds, bool* control)
    {
        return m_scheduler.Dequeue(to, kinds, control);
    }

    /// \return frames waiting (control, data to read, data read)
    uint64_t GetWaiting() const;
    /// The engine stops: flows closed from now on read nothing ahead.
    void Stop();

  private:
    /// \return true if the prefetch limit leaves room for one more payload read
    bool MayReadAhead() const;
    /**
     * Reads one frame's payload by a DMA request of its own.
     * \param frame a frame TakeNextData() gave, counted in m_fetching
     */
    void ReadPayload(std::shared_ptr<DrpTxScheduler::DataFrame> frame);
    /**
     * Takes one frame's payload from its flow's read-ahead chunk, reading the
     * chunk first if the frame opens it.
     * \param frame a frame TakeNextData() gave, counted in m_fetching
     */
    void ReadAhead(std::shared_ptr<DrpTxScheduler::DataFrame> frame);
    /**
     * Hands a frame whose payload was read to the scheduler.
     * \param frame the frame, counted in m_fetching
     * \param payload its payload
     * \return false if it was discarded (its flow closed meanwhile)
     */
    bool Fetched(DrpTxScheduler::DataFrame& frame, Ptr<Packet> payload);

    Ptr<PcieLink> m_pcie;       //!< payload reads
    Time m_processing;          //!< transmit processing per frame
    DrpTxScheduler m_scheduler; //!< frames waiting for the port
    DrpReadAhead m_readAhead;   //!< TxReadBytes and the read-ahead chunks (off: one read per frame)
    uint32_t m_prefetch{8};     //!< data frames read ahead of the port, at most
    uint32_t m_fetching{0};     //!< data frames whose payload is being read
    bool m_stopped{false};      //!< Stop() was called
};

} // namespace ns3

#endif /* DRP_TX_ENGINE_H */
