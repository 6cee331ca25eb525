/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-receiver.h"

namespace ns3
{

bool
DrpReceiver::SnSet::Contains(uint32_t sn) const
{
    return sn < prefix || boost::icl::contains(rest, sn);
}

void
DrpReceiver::SnSet::Insert(uint32_t sn)
{
    if (sn != prefix)
    {
        if (sn > prefix)
        {
            rest.insert(sn);
        }
        return;
    }
    ++prefix;
    auto first = rest.begin();
    if (first != rest.end() && boost::icl::first(*first) == prefix)
    {
        prefix = boost::icl::last(*first) + 1; // the hole is filled: the run takes what follows
        rest.erase(*first);
    }
}

uint64_t
DrpReceiver::SnSet::GetSize() const
{
    return prefix + boost::icl::cardinality(rest);
}

bool
DrpReceiver::See(uint32_t sn, uint32_t bytes)
{
    if (m_seen.Contains(sn))
    {
        return false;
    }
    m_seen.Insert(sn);
    m_bytesSeen += bytes;
    return true;
}

void
DrpReceiver::Commit(uint32_t sn)
{
    m_committed.Insert(sn);
}

bool
DrpReceiver::IsCommitted(uint32_t sn) const
{
    return m_committed.Contains(sn);
}

uint32_t
DrpReceiver::GetAckNumber() const
{
    return m_committed.prefix;
}

uint64_t
DrpReceiver::GetBytesSeen() const
{
    return m_bytesSeen;
}

uint32_t
DrpReceiver::GetPending() const
{
    return m_seen.GetSize() - m_committed.GetSize();
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
