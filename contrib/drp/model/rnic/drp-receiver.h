/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_RECEIVER_H
#define DRP_RECEIVER_H

#include "ns3/nstime.h"

#include <boost/icl/interval_set.hpp>
#include <cstdint>

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
 */
class DrpReceiver
{
  public:
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

    SnSet m_seen;                //!< frames seen
    SnSet m_committed;           //!< frames committed
    uint64_t m_bytesSeen{0};     //!< payload bytes seen
    bool m_cnpDue{false};        //!< the next ACK carries a CNP
    Time m_lastCnp{Time::Min()}; //!< when the last CNP left
    uint32_t m_cnps{0};          //!< CNPs sent
};

} // namespace ns3

#endif /* DRP_RECEIVER_H */
