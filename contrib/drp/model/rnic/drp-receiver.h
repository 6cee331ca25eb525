/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_RECEIVER_H
#define DRP_RECEIVER_H

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

  private:
    boost::icl::interval_set<uint32_t> m_seen;      //!< frames seen
    boost::icl::interval_set<uint32_t> m_committed; //!< frames committed
    uint64_t m_bytesSeen{0};                        //!< payload bytes seen
};

} // namespace ns3

#endif /* DRP_RECEIVER_H */
