/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-sender.h"

#include "ns3/drp-congestion-ops.h"
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
      m_failed(failed),
      m_window(config.window)
{
    if (m_config.rtt)
    {
        m_sentAt.assign(std::max<uint32_t>(m_config.window, 1), Time::Max());
    }
}

DrpSender::~DrpSender()
{
    Simulator::Remove(m_timer);
    if (m_cc)
    {
        m_cc->Stop();
    }
}

void
DrpSender::SetCongestionControl(Ptr<DrpCongestionOps> cc,
                                DataRate lineRate,
                                uint32_t frameBytes,
                                Callback<void, DataRate> applyRate)
{
    m_cc = cc;
    m_ccSamples = cc && cc->NeedsRttSamples();
    if (m_ccSamples && cc->TimesFromHandover())
    {
        m_handedAt.assign(std::max<uint32_t>(m_config.window, 1), Time::Min());
    }
    else if (m_ccSamples && m_sentAt.empty())
    {
        m_sentAt.assign(std::max<uint32_t>(m_config.window, 1), Time::Max());
    }
    m_lineRate = lineRate;
    m_frameBytes = frameBytes;
    m_applyRate = applyRate;
}

uint32_t
DrpSender::GetWindow() const
{
    return m_window;
}

void
DrpSender::OnCongestionOutput()
{
    m_window = std::min(std::max<uint32_t>(m_cc->GetWindow(), 1), m_config.window);
    if (!m_applyRate.IsNull())
    {
        m_applyRate(m_cc->GetRate());
    }
    if (m_started && !m_stopped && !m_inAck)
    {
        Pump(); // a larger window sends at once (OnAck pumps after its update)
    }
}

void
DrpSender::Start()
{
    if (m_started || m_stopped)
    {
        return;
    }
    m_started = true;
    if (m_cc)
    {
        m_cc->SetOutputCallback(MakeCallback(&DrpSender::OnCongestionOutput, this));
        m_cc->Start(m_lineRate, m_config.window);
        OnCongestionOutput();
    }
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
    if (m_cc)
    {
        m_cc->Stop(); // its timers go with the transfer
    }
}

void
DrpSender::SetRetryLimitActive(bool active)
{
    m_limitActive = active;
    m_expiriesInRow = 0;
}

void
DrpSender::SetSendLimit(uint32_t frames)
{
    m_sendLimit = frames;
    if (IsStarted())
    {
        Pump();
    }
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
    Time timeout = GetTimerWait();
    m_deadline = Simulator::Now() + timeout;
    if (!m_config.pausedTime.IsNull())
    {
        m_pausedAtArm = m_config.pausedTime();
    }
    if (!m_timer.IsExpired() && m_timer.GetTs() > uint64_t(m_deadline.GetTimeStep()))
    {
        Simulator::Remove(m_timer); // the deadline moved earlier (the backoff ended)
    }
    if (m_timer.IsExpired())
    {
        m_timer = Simulator::Schedule(timeout, &DrpSender::OnTimer, this);
    }
}

Time
DrpSender::GetTimerWait() const
{
    const Time wait =
        m_config.rtt ? m_config.rtt->GetBackedOff(m_backoff) : m_config.timeout * m_backoff;
    return std::max(wait, m_config.minWait);
}

Time
DrpSender::SampleStart(uint32_t sn)
{
    return m_handedAt.empty() ? SentAt(sn) : m_handedAt[sn % m_handedAt.size()];
}

bool
DrpSender::IsTimingFrames() const
{
    return !m_sentAt.empty();
}

Time&
DrpSender::SentAt(uint32_t sn)
{
    // Frames in flight, [m_una, m_next), are fewer than Window: one slot each.
    return m_sentAt[sn % m_sentAt.size()];
}

void
DrpSender::TakeSample(uint32_t ackn)
{
    // The newest frame this acknowledgement covers, once per round trip:
    // a frame sent after the previous sample was taken.
    const uint32_t newest = ackn - 1;
    if (newest < m_sampleFrom)
    {
        return;
    }
    const Time sent = SentAt(newest);
    if (sent == Time::Min() || sent == Time::Max())
    {
        return; // Karn: it was sent again (or its departure was not seen)
    }
    m_config.rtt->Sample(Simulator::Now() - sent);
    m_sampleFrom = m_next;
    m_backoff = 1; // Karn's algorithm: a valid sample ends the backoff
}

void
DrpSender::GiveSample(uint32_t ackn)
{
    // Karn: an acknowledgement that covers a frame sent again (the first
    // it covers is the one every retransmission sends) may answer either
    // copy, so it gives no sample, even from a newer frame sent once.
    if (SampleStart(m_una) == Time::Min())
    {
        return;
    }
    const Time sent = SampleStart(ackn - 1);
    if (sent != Time::Min() && sent != Time::Max())
    {
        m_cc->OnRttSample(Simulator::Now() - sent); // Karn: none from a frame sent again
    }
}

void
DrpSender::OnTimer()
{
    Time now = Simulator::Now();
    if (!m_config.pausedTime.IsNull() && now >= m_deadline)
    {
        // Time in which a pause held the port counts for nothing: the
        // frames it guards could not leave (or their acknowledgement come
        // back past a fabric that paused the port) through no loss.
        const Time paused = m_config.pausedTime();
        m_deadline += paused - m_pausedAtArm;
        m_pausedAtArm = paused;
    }
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
    while (!m_stopped && m_next < m_total && m_next < m_una + m_window && m_next < m_sendLimit)
    {
        const uint32_t sn = m_next++;
        if (IsTimingFrames())
        {
            SentAt(sn) = Time::Max(); // its first transmission: timed from its departure
        }
        if (!m_handedAt.empty())
        {
            m_handedAt[sn % m_handedAt.size()] = Simulator::Now(); // timed from its handover
        }
        if (!Transmit(sn) && m_timer.IsExpired())
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
    if (IsTimingFrames())
    {
        SentAt(sn) = Time::Min(); // Karn: no sample from it
    }
    if (!m_handedAt.empty())
    {
        m_handedAt[sn % m_handedAt.size()] = Time::Min();
    }
    return Transmit(sn);
}

void
DrpSender::GuardFirstUnacknowledged()
{
    if (IsComplete() || m_waiting.count(m_una) != 0 || m_una == m_next)
    {
        // Done, or it starts when that frame leaves, or nothing is out (the
        // send limit holds the rest back: there is nothing to guard).
        Simulator::Remove(m_timer);
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
    if (m_cc)
    {
        m_departed = std::max(m_departed, sn + 1);
        m_cc->SetSequence(m_una, m_departed, m_next);
        m_cc->OnSent(m_frameBytes);
    }
    if (IsTimingFrames() && sn >= m_una && sn < m_next && SentAt(sn) == Time::Max())
    {
        SentAt(sn) = Simulator::Now(); // its first departure
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
DrpSender::OnAck(uint32_t ackn, bool congestion, const DrpIntHeader* telemetry)
{
    if (!m_started || m_stopped)
    {
        return;
    }
    ackn = std::min(ackn, m_next);
    if (m_cc)
    {
        m_inAck = true;
        m_cc->SetSequence(std::max(ackn, m_una), m_departed, m_next);
        if (telemetry)
        {
            m_cc->OnTelemetry(*telemetry);
        }
        m_cc->OnAck(ackn > m_una ? ackn - m_una : 0, congestion);
        if (m_ccSamples && ackn > m_una)
        {
            GiveSample(ackn);
        }
        m_inAck = false;
    }
    if (ackn > m_una)
    {
        if (m_config.rtt)
        {
            TakeSample(ackn); // the backoff ends with a valid sample only
        }
        else
        {
            m_backoff = 1;
        }
        m_una = ackn;
        m_dupAcks = 0;
        m_expiriesInRow = 0;
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
