/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_RECEIVER_H
#define DRP_RECEIVER_H

#include "ns3/drp-int-header.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <boost/icl/interval_set.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The receiving half of a transfer's data phase: which frames have
 * arrived, which are committed, and the cumulative acknowledgement.
 *
 * A frame is *seen* when it arrives and is accepted for placement, and
 * *committed* once it is safe: in host memory (direct) or in the indirect
 * buffer. Only committed frames are acknowledged; a duplicate of a frame that
 * is seen but not yet committed is ignored (its commit will acknowledge it).
 * ACKN is the first SN not committed. Frames may arrive out of order: each
 * names its own address, so it is placed at once and the acknowledgement
 * catches up when the hole is filled.
 *
 * It is also the congestion notification point (DCQCN's NP): a data frame
 * that arrives marked CE makes the next acknowledgement carry a congestion
 * notification (CNP), at most one per CnpInterval for the transfer.
 *
 * And it keeps what acknowledgement coalescing needs (DrpTransport's AckEvery,
 * off by default): how many frames landed since the last acknowledgement
 * left, and the timer that sends an owed one at the latest.
 */
class DrpReceiver
{
  public:
    /// HPCC: frames whose telemetry waits for their landing, at most (a
    /// transmit prefetch's worth and more; beyond it the oldest go).
    static constexpr size_t MAX_LANDING = 256;

    DrpReceiver() = default;
    /// Removes a pending acknowledgement timer: its callback refers to this receiver.
    ~DrpReceiver();
    DrpReceiver(const DrpReceiver&) = delete;            //!< the timer refers to this object
    DrpReceiver& operator=(const DrpReceiver&) = delete; //!< the timer refers to this object

    /**
     * Marks a frame seen.
     * \param sn the frame
     * \param bytes its payload length
     * \return false if it was seen before (a duplicate)
     */
    bool See(uint32_t sn, uint32_t bytes);
    /**
     * Marks a seen frame committed.
     * \param sn the frame
     */
    void Commit(uint32_t sn);
    /**
     * \param sn a frame
     * \return true if it was committed
     */
    bool IsCommitted(uint32_t sn) const;
    /// \return the first SN not committed
    uint32_t GetAckNumber() const;
    /// \return payload bytes of all frames seen (each counted once)
    uint64_t GetBytesSeen() const;
    /// \return frames seen but not yet committed
    uint32_t GetPending() const;

    /**
     * Acknowledgement coalescing: one more frame was committed. Its
     * acknowledgement waits only if every frame seen is committed and they
     * run from SN 0 without a hole, the last acknowledgement left so too
     * (otherwise this frame filled the hole it reported), no CNP is due,
     * the transfer's \p length bytes have not all been seen, and fewer than
     * \p every frames have been committed since the last acknowledgement.
     * The first to wait starts a timer that calls \p flush after \p delay,
     * unless an acknowledgement leaves before (NoteAckSent()).
     * \param every frames per acknowledgement, 2 or more
     * \param length the transfer's bytes
     * \param delay the longest an owed acknowledgement waits
     * \param flush sends the owed acknowledgement
     * \return true if the acknowledgement waits; false if it is due now
     */
    bool DeferAck(uint32_t every, uint64_t length, Time delay, std::function<void()> flush);
    /// An acknowledgement of this transfer left: none is owed, the timer stops.
    void NoteAckSent();

    /**
     * A data frame arrived marked Congestion Experienced: the next
     * acknowledgement carries a CNP, unless one went out less than
     * \p interval ago.
     * \param now the time
     * \param interval the shortest time between two CNPs of this transfer
     */
    void NoteCongestion(Time now, Time interval);
    /**
     * \param now the time an acknowledgement leaves
     * \return true if it carries a CNP (then none is due until the next mark)
     */
    bool TakeCongestionNotification(Time now);

    /// \return true if the next acknowledgement carries a CNP (checked on the
    ///         per-frame path before the time is read)
    bool IsCongestionNotificationDue() const
    {
        return m_cnpDue;
    }

    /// \return CNPs taken (sent) for this transfer
    uint32_t GetCongestionNotifications() const;

    /**
     * A data frame with the INT extension arrived: the acknowledgements sent
     * at once (a duplicate, a frame the indirect buffer took) echo it, and
     * so does the one sent when this frame lands (EchoTelemetryOf()).
     * \param sn the frame's SN
     * \param telemetry its INT extension
     */
    void NoteTelemetry(uint32_t sn, const DrpIntHeader& telemetry);
    /**
     * A frame landed in host memory: the acknowledgement it sends echoes the
     * frame's own telemetry, as HPCC's receiver echoes the INT of the packet
     * it acknowledges, not that of a later frame that arrived while this one
     * was written (which would give the sender one set of stamps twice and
     * none for the frame between). Frames land in the order they arrived:
     * the stamps of those before it are dropped with it.
     * \param sn the frame that landed (no effect if none with this SN was noted)
     */
    void EchoTelemetryOf(uint32_t sn);
    /// \return the telemetry the next acknowledgement echoes (null: none, without HPCC)
    const DrpIntHeader* GetTelemetry() const;

  private:
    /**
     * A set of SNs: the run [0, prefix) and an interval set of the others.
     * Frames mostly arrive in order; extending the run costs no allocation,
     * where adding to an interval set and joining costs one per frame.
     */
    struct SnSet
    {
        /// \param sn an SN \return true if it is in the set
        bool Contains(uint32_t sn) const;
        /// \param sn an SN to add
        void Insert(uint32_t sn);
        /// \return how many SNs the set holds
        uint64_t GetSize() const;

        uint32_t prefix{0};                      //!< [0, prefix) are in the set
        boost::icl::interval_set<uint32_t> rest; //!< those above the run (none is prefix)
    };

    /// \return true if the frames seen are exactly those committed and run
    ///         from SN 0 without a hole
    bool IsInOrder() const;
    /// The acknowledgement timer expired: sends the owed acknowledgement.
    void FlushAck();

    SnSet m_seen;                              //!< frames seen
    SnSet m_committed;                         //!< frames committed
    uint64_t m_bytesSeen{0};                   //!< payload bytes seen
    bool m_cnpDue{false};                      //!< the next ACK carries a CNP
    std::unique_ptr<DrpIntHeader> m_telemetry; //!< echoed in ACKs (HPCC; null: none)
    /// HPCC: the telemetry of frames still being written to host memory, in arrival order.
    std::vector<std::pair<uint32_t, DrpIntHeader>> m_landing;
    Time m_lastCnp{Time::Min()};   //!< when the last CNP left
    uint32_t m_cnps{0};            //!< CNPs sent
    uint32_t m_ackOwed{0};         //!< coalescing: frames landed since the last acknowledgement
    bool m_lastAckInOrder{true};   //!< coalescing: the last acknowledgement left without a hole
    EventId m_ackTimer;            //!< coalescing: sends an owed acknowledgement at the latest
    std::function<void()> m_flush; //!< coalescing: what m_ackTimer calls (set while it waits)
};

} // namespace ns3

#endif /* DRP_RECEIVER_H */
