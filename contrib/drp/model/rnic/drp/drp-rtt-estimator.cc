/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-rtt-estimator.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpRttEstimator");

namespace
{
/// RFC 6298: alpha = 1/ALPHA_DIVISOR, beta = 1/BETA_DIVISOR, K.
constexpr int64_t ALPHA_DIVISOR = 8;
constexpr int64_t BETA_DIVISOR = 4;
constexpr int64_t K = 4;
} // namespace

DrpRttEstimator::DrpRttEstimator(const Config& config)
    : m_config(config)
{
}

void
DrpRttEstimator::Sample(Time rtt)
{
    const int64_t r = std::max<int64_t>(rtt.GetTimeStep(), 0);
    if (m_samples++ == 0)
    {
        m_srtt = r; // (2.2)
        m_rttVar = r / 2;
    }
    else
    {
        // (2.3): RTTVAR first, with the SRTT from before this sample.
        const int64_t deviation = m_srtt > r ? m_srtt - r : r - m_srtt;
        m_rttVar = ((BETA_DIVISOR - 1) * m_rttVar + deviation) / BETA_DIVISOR;
        m_srtt = ((ALPHA_DIVISOR - 1) * m_srtt + r) / ALPHA_DIVISOR;
    }
    NS_LOG_LOGIC("sample " << rtt.As(Time::US) << ": SRTT " << GetSrtt().As(Time::US) << ", RTTVAR "
                           << GetRttVar().As(Time::US) << ", RTO " << GetRto().As(Time::US));
}

Time
DrpRttEstimator::Clamp(Time rto) const
{
    return std::min(std::max(rto, m_config.floor), m_config.ceiling);
}

Time
DrpRttEstimator::GetRto() const
{
    if (m_samples == 0)
    {
        return Clamp(m_config.initial + m_config.ackDelay);
    }
    const Time variation = Time::From(K * m_rttVar);
    return Clamp(Time::From(m_srtt) + std::max(m_config.granularity, variation) + // (2.3)
                 m_config.ackDelay);
}

Time
DrpRttEstimator::GetBackedOff(uint32_t factor) const
{
    const int64_t rto = GetRto().GetTimeStep();
    const int64_t ceiling = m_config.ceiling.GetTimeStep();
    factor = std::max<uint32_t>(factor, 1);
    // Compared before multiplying: a large factor cannot overflow.
    if (rto > ceiling / int64_t(factor))
    {
        return m_config.ceiling;
    }
    return Time::From(rto * int64_t(factor));
}

Time
DrpRttEstimator::GetSrtt() const
{
    return Time::From(m_srtt);
}

Time
DrpRttEstimator::GetRttVar() const
{
    return Time::From(m_rttVar);
}

uint64_t
DrpRttEstimator::GetSamples() const
{
    return m_samples;
}

const DrpRttEstimator::Config&
DrpRttEstimator::GetConfig() const
{
    return m_config;
}

} // namespace ns3
