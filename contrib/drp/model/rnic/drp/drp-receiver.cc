/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-receiver.h"

#include "ns3/simulator.h"

#include <algorithm>

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

DrpReceiver::~DrpReceiver()
{
    if (m_flush)
    {
        Simulator::Remove(m_ackTimer);
    }
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

bool
DrpReceiver::IsInOrder() const
{
    // Only seen frames are committed: a run of seen frames from SN 0 that
    // the committed run reaches is both sets whole.
    return m_seen.rest.empty() && m_committed.prefix == m_seen.prefix;
}

bool
DrpReceiver::DeferAck(uint32_t every, uint64_t length, Time delay, std::function<void()> flush)
{
    // Due at once (an acknowledgement that leaves resets the count): a
    // hole, or the frame that fills the hole the last one reported (as a
    // TCP receiver acknowledges a segment that fills a gap, RFC 5681); a
    // CNP to carry; the transfer's last bytes; the every-th frame.
    if (!IsInOrder() || !m_lastAckInOrder || m_cnpDue || m_bytesSeen >= length ||
        ++m_ackOwed >= every)
    {
        return false;
    }
    if (!m_flush)
    {
        m_flush = std::move(flush);
        m_ackTimer = Simulator::Schedule(delay, &DrpReceiver::FlushAck, this);
    }
    return true;
}

void
DrpReceiver::NoteAckSent()
{
    m_ackOwed = 0;
    m_lastAckInOrder = IsInOrder();
    if (m_flush) // set while the timer waits: no call into the simulator per frame otherwise
    {
        m_flush = nullptr;
        Simulator::Remove(m_ackTimer);
    }
}

void
DrpReceiver::FlushAck()
{
    std::function<void()> flush = std::move(m_flush);
    m_flush = nullptr;
    flush(); // sends the acknowledgement, which calls NoteAckSent()
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

void
DrpReceiver::NoteTelemetry(uint32_t sn, const DrpIntHeader& telemetry)
{
    if (!m_telemetry)
    {
        m_telemetry = std::make_unique<DrpIntHeader>();
    }
    *m_telemetry = telemetry;
    if (m_landing.size() == MAX_LANDING)
    {
        // Duplicates that are never written leave stamps behind; they go first.
        m_landing.erase(m_landing.begin());
    }
    m_landing.emplace_back(sn, telemetry);
}

void
DrpReceiver::EchoTelemetryOf(uint32_t sn)
{
    auto it = std::find_if(m_landing.begin(), m_landing.end(), [sn](const auto& noted) {
        return noted.first == sn;
    });
    if (it == m_landing.end())
    {
        return;
    }
    *m_telemetry = it->second;
    m_landing.erase(m_landing.begin(), it + 1);
}

const DrpIntHeader*
DrpReceiver::GetTelemetry() const
{
    return m_telemetry.get();
}

} // namespace ns3
