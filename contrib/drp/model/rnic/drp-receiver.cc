/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-receiver.h"

namespace ns3
{

bool
DrpReceiver::See(uint32_t sn, uint32_t bytes)
{
    if (boost::icl::contains(m_seen, sn))
    {
        return false;
    }
    m_seen.insert(sn);
    m_bytesSeen += bytes;
    return true;
}

void
DrpReceiver::Commit(uint32_t sn)
{
    m_committed.insert(sn);
}

bool
DrpReceiver::IsCommitted(uint32_t sn) const
{
    return boost::icl::contains(m_committed, sn);
}

uint32_t
DrpReceiver::GetAckNumber() const
{
    auto first = m_committed.begin();
    if (first == m_committed.end() || boost::icl::first(*first) != 0)
    {
        return 0;
    }
    return boost::icl::last(*first) + 1;
}

uint64_t
DrpReceiver::GetBytesSeen() const
{
    return m_bytesSeen;
}

uint32_t
DrpReceiver::GetPending() const
{
    return boost::icl::cardinality(m_seen) - boost::icl::cardinality(m_committed);
}

} // namespace ns3
