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

void
DrpReceiver::NoteCongestion(Time now, Time interval)
{
    if (m_lastCnp == Time::Min() || now - m_lastCnp >= interval)
    {
        m_cnpDue = true;
    }
}

bool
DrpReceiver::TakeCongestionNotification(Time now)
{
    if (!m_cnpDue)
    {
        return false;
    }
    m_cnpDue = false;
    m_lastCnp = now;
    ++m_cnps;
    return true;
}

uint32_t
DrpReceiver::GetCongestionNotifications() const
{
    return m_cnps;
}

} // namespace ns3
