/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-sender.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpSender");

DrpSender::DrpSender(uint32_t total,
                     const Config& config,
                     Callback<bool, uint32_t> transmit,
                     Callback<void> failed)
    : m_total(total),
      m_config(config),
      m_transmit(transmit),
      m_failed(failed)
{
}

DrpSender::~DrpSender()
{
    Simulator::Remove(m_timer);
}

void
DrpSender::Start()
{
    if (m_started || m_stopped)
    {
        return;
    }
    m_started = true;
    Pump();
}

bool
DrpSender::IsStarted() const
{
    return m_started;
}

bool
DrpSender::IsComplete() const
{
    return m_una >= m_total;
}

void
DrpSender::Stop()
{
    m_stopped = true;
    Simulator::Remove(m_timer);
}

void
DrpSender::SetRetryLimitActive(bool active)
{
    m_limitActive = active;
    m_expiriesInRow = 0;
}

uint32_t
DrpSender::GetRetransmissions() const
{
    return m_retransmissions;
}

uint32_t
DrpSender::GetTimeouts() const
{
    return m_timeouts;
}

void
DrpSender::ArmTimer()
{
    // Restarted on every acknowledgement: move the deadline and let the one
    // pending event re-check it, rather than cancel and schedule each time.
    Time timeout = m_config.timeout * m_backoff;
    m_deadline = Simulator::Now() + timeout;
    if (!m_timer.IsExpired() && m_timer.GetTs() > uint64_t(m_deadline.GetTimeStep()))
    {
        Simulator::Remove(m_timer); // the deadline moved earlier (the backoff ended)
    }
    if (m_timer.IsExpired())
    {
        m_timer = Simulator::Schedule(timeout, &DrpSender::OnTimer, this);
    }
}

void
DrpSender::OnTimer()
{
    Time now = Simulator::Now();
    if (now < m_deadline)
    {
        m_timer = Simulator::Schedule(m_deadline - now, &DrpSender::OnTimer, this);
        return;
    }
    OnTimeout();
}

void
DrpSender::Pump()
{
    while (!m_stopped && m_next < m_total && m_next < m_una + m_config.window)
    {
        if (!Transmit(m_next++) && m_timer.IsExpired())
        {
            ArmTimer(); // it will not leave: the timer runs from now
        }
    }
}

bool
DrpSender::Transmit(uint32_t sn)
{
    m_waiting.insert(sn); // before: the owner may report the departure at once
    if (!m_transmit(sn))
    {
        m_waiting.erase(sn);
        return false;
    }
    return true;
}

bool
DrpSender::Retransmit(uint32_t sn)
{
    NS_LOG_FUNCTION(this << sn);
    if (m_waiting.count(sn) != 0)
    {
        return true; // a copy still waits to leave: that one is the retransmission
    }
    ++m_retransmissions;
    return Transmit(sn);
}

void
DrpSender::GuardFirstUnacknowledged()
{
    if (IsComplete() || m_waiting.count(m_una) != 0)
    {
        Simulator::Remove(m_timer); // done, or it starts when that frame leaves
        return;
    }
    ArmTimer(); // on the wire, or it will not leave: the timer runs from now
}

void
DrpSender::OnUnsent(uint32_t sn)
{
    m_waiting.erase(sn);
    if (m_started && !m_stopped && !IsComplete() && m_timer.IsExpired())
    {
        ArmTimer(); // it will not leave: the timer runs from now
    }
}

void
DrpSender::OnSent(uint32_t sn)
{
    m_waiting.erase(sn);
    if (!m_started || m_stopped || IsComplete())
    {
        return;
    }
    // The timer guards the first unacknowledged frame: it (re)starts when
    // that frame leaves. Later frames leaving do not touch it, or a frame
    // that waits behind other transfers would be declared lost unsent.
    if (sn == m_una)
    {
        ArmTimer();
    }
}

uint32_t
DrpSender::GetNextSequence() const
{
    return m_next;
}

void
DrpSender::OnAck(uint32_t ackn)
{
    if (!m_started || m_stopped)
    {
        return;
    }
    ackn = std::min(ackn, m_next);
    if (ackn > m_una)
    {
        m_una = ackn;
        m_dupAcks = 0;
        m_expiriesInRow = 0;
        m_backoff = 1;
        if (m_recovering && m_una < m_recover)
        {
            Retransmit(m_una); // partial acknowledgement: the next hole
        }
        else
        {
            m_recovering = false;
        }
        Pump(); // first: the new first unacknowledged frame may be one it sends
        GuardFirstUnacknowledged();
        return;
    }
    if (ackn == m_una && m_una < m_next && !m_recovering)
    {
        if (++m_dupAcks == m_config.dupAckThreshold)
        {
            m_recovering = true;
            m_recover = m_next;
            Retransmit(m_una);
            GuardFirstUnacknowledged(); // restarts when the retransmission leaves
        }
    }
}

void
DrpSender::OnTimeout()
{
    NS_LOG_FUNCTION(this << m_una);
    ++m_timeouts;
    if (m_limitActive && ++m_expiriesInRow > m_config.maxRetries)
    {
        Stop();
        m_failed();
        return;
    }
    m_recovering = true;
    m_recover = m_next;
    m_dupAcks = 0;
    m_backoff = std::min(2 * m_backoff, std::max<uint32_t>(1, m_config.maxBackoff));
    Retransmit(m_una);
    GuardFirstUnacknowledged(); // restarts when the retransmission leaves
}

} // namespace ns3
