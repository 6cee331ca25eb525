/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-timeouts.h"

#include <algorithm>

namespace ns3
{

DrpTimeouts::Config&
DrpTimeouts::GetConfig()
{
    return m_config;
}

const DrpTimeouts::Config&
DrpTimeouts::GetConfig() const
{
    return m_config;
}

Time
DrpTimeouts::GetIdleTime() const
{
    // Longer than any retry sequence of the initiator, backed-off periods
    // included, so that a live initiator is never forgotten: every wait is
    // at most the longest below (Adaptive: MaxRto bounds the backed-off RTO).
    const Time longest =
        m_config.adaptive
            ? m_config.handshake + m_config.maxRto
            : std::max(m_config.handshake, m_config.retransmission * m_config.maxBackoff);
    return (m_config.maxRetries + 2) * longest;
}

uint32_t
DrpTimeouts::BackoffFactor(uint32_t expiries) const
{
    uint32_t factor = 1;
    while (expiries-- > 0 && factor < m_config.maxBackoff)
    {
        factor *= 2;
    }
    return std::min(factor, m_config.maxBackoff);
}

Time
DrpTimeouts::BackedOff(Time timeout, uint32_t expiries) const
{
    return timeout * BackoffFactor(expiries);
}

Time
DrpTimeouts::GetDataWait(const DrpRttEstimator* rtt, uint32_t expiries) const
{
    return rtt ? rtt->GetBackedOff(BackoffFactor(expiries))
               : BackedOff(m_config.retransmission, expiries);
}

Time
DrpTimeouts::GetHandshakeWait(const DrpRttEstimator* rtt, uint32_t expiries) const
{
    return rtt ? m_config.handshake + GetDataWait(rtt, expiries) : m_config.handshake;
}

DrpRttEstimator*
DrpTimeouts::GetRttEstimator(Mac48Address peer, Time ackDelay)
{
    if (!m_config.adaptive)
    {
        return nullptr;
    }
    auto it = m_rtt.find(peer);
    if (it == m_rtt.end())
    {
        const DrpRttEstimator::Config config{m_config.retransmission,
                                             m_config.minRto,
                                             m_config.maxRto,
                                             m_config.granularity,
                                             ackDelay};
        it = m_rtt.emplace(peer, DrpRttEstimator(config)).first;
    }
    return &it->second;
}

const DrpRttEstimator*
DrpTimeouts::GetRttEstimate(Mac48Address peer) const
{
    auto it = m_rtt.find(peer);
    return it == m_rtt.end() ? nullptr : &it->second;
}

void
DrpTimeouts::ForgetEstimates()
{
    m_rtt.clear();
}

} // namespace ns3
