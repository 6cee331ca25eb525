/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-timely.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpTimely");

NS_OBJECT_ENSURE_REGISTERED(DrpTimely);

TypeId
DrpTimely::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DrpTimely")
            .SetParent<DrpCongestionOps>()
            .SetGroupName("Drp")
            .AddConstructor<DrpTimely>()
            .AddAttribute("Alpha",
                          "EWMA weight of a new RTT difference (0 to 1; 0.875, as HPCC's "
                          "simulator and the analysis in \"ECN or Delay\" use).",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&DrpTimely::m_alpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor (0 to 1; 0.8, TIMELY paper).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&DrpTimely::m_beta),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AdditiveStep",
                          "delta, the additive increase per completion event at ReferenceRate "
                          "(10 Mb/s at 10 Gb/s, TIMELY paper).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&DrpTimely::m_step),
                          MakeDataRateChecker())
            .AddAttribute("HaiThreshold",
                          "N: after this many completion events in a row with a non-positive "
                          "gradient the increase is N delta (hyper additive increase; 5, TIMELY "
                          "paper; 1: none).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DrpTimely::m_haiThreshold),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("TLow",
                          "Below this RTT the rate increases whatever the gradient (50 us, "
                          "TIMELY paper).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DrpTimely::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("THigh",
                          "Above this RTT the rate decreases by 1 - Beta (1 - THigh / RTT) "
                          "whatever the gradient (500 us, TIMELY paper).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&DrpTimely::m_tHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MinRtt",
                          "The fabric's least RTT: the gradient is the RTT difference over it, "
                          "and completion events come at most once per MinRtt (20 us, TIMELY "
                          "paper).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&DrpTimely::m_minRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("Segment",
                          "Bytes acknowledged per completion event at least (16 KB, the "
                          "smallest of the paper's 16 to 64 KB segments).",
                          UintegerValue(16 * 1024),
                          MakeUintegerAccessor(&DrpTimely::m_segment),
                          MakeUintegerChecker<uint32_t>(1, 1 << 30))
            .AddAttribute("MinRate",
                          "The lowest rate at ReferenceRate (10 Mb/s at 10 Gb/s: one step).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&DrpTimely::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ReferenceRate",
                          "The line rate AdditiveStep and MinRate are given for: they scale by "
                          "line rate / ReferenceRate (10 Gb/s, the paper's NICs; 0: as given).",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&DrpTimely::m_referenceRate),
                          MakeDataRateChecker());
    return tid;
}

DrpTimely::DrpTimely() = default;

DrpTimely::DrpTimely(const DrpTimely& other)
    : DrpCongestionOps(other),
      m_alpha(other.m_alpha),
      m_beta(other.m_beta),
      m_step(other.m_step),
      m_haiThreshold(other.m_haiThreshold),
      m_tLow(other.m_tLow),
      m_tHigh(other.m_tHigh),
      m_minRtt(other.m_minRtt),
      m_segment(other.m_segment),
      m_minRate(other.m_minRate),
      m_referenceRate(other.m_referenceRate)
{
}

DrpTimely::~DrpTimely() = default;

std::string
DrpTimely::GetName() const
{
    return "timely";
}

Ptr<DrpCongestionOps>
DrpTimely::Fork() const
{
    return CopyObject<DrpTimely>(this);
}

bool
DrpTimely::NeedsRttSamples() const
{
    return true;
}

DataRate
DrpTimely::GetCurrentRate() const
{
    return DataRate(uint64_t(m_rate + 0.5));
}

double
DrpTimely::GetGradient() const
{
    return m_rttDiff / m_minRtt.GetSeconds();
}

Time
DrpTimely::GetPreviousRtt() const
{
    return m_prevRtt;
}

uint32_t
DrpTimely::GetNegativeGradients() const
{
    return m_negativeGradients;
}

uint32_t
DrpTimely::GetCompletions() const
{
    return m_completions;
}

double
DrpTimely::GetScale() const
{
    if (m_referenceRate.GetBitRate() == 0)
    {
        return 1.0;
    }
    return double(GetLineRate().GetBitRate()) / double(m_referenceRate.GetBitRate());
}

double
DrpTimely::Bound(double bps) const
{
    const double line = double(GetLineRate().GetBitRate());
    const double low = std::min(line, double(m_minRate.GetBitRate()) * GetScale());
    return std::min(line, std::max(low, bps));
}

void
DrpTimely::DoStart()
{
    m_rate = double(GetLineRate().GetBitRate());
    m_rttDiff = 0;
    m_prevRtt = Time(0);
    m_negativeGradients = 0;
    m_completions = 0;
    m_ackedBytes = 0;
    m_lastEvent = Simulator::Now();
}

void
DrpTimely::OnSent(uint32_t bytes)
{
    m_frameBytes = bytes;
}

void
DrpTimely::OnAck(uint32_t acked, bool /* congestion */)
{
    m_ackedBytes += uint64_t(acked) * m_frameBytes;
}

void
DrpTimely::OnRttSample(Time rtt)
{
    // A completion event ends a segment, and comes at most once per MinRtt:
    // the update interval is max(Segment / rate, MinRtt).
    if (m_ackedBytes < m_segment || Simulator::Now() - m_lastEvent < m_minRtt)
    {
        return;
    }
    m_ackedBytes = 0;
    m_lastEvent = Simulator::Now();
    Complete(rtt);
}

void
DrpTimely::Complete(Time rtt)
{
    ++m_completions;
    if (m_prevRtt.IsZero())
    {
        m_prevRtt = rtt; // a gradient needs two events
        return;
    }
    // A negative Time must not reach Time::GetSeconds: ns-3's int64x64 left
    // shifts it (undefined behaviour before C++20). Its division is
    // sign-symmetric, so negating the positive difference is exact.
    const double newRttDiff =
        rtt < m_prevRtt ? -(m_prevRtt - rtt).GetSeconds() : (rtt - m_prevRtt).GetSeconds();
    m_prevRtt = rtt;
    m_rttDiff = (1 - m_alpha) * m_rttDiff + m_alpha * newRttDiff;
    const double gradient = m_rttDiff / m_minRtt.GetSeconds();
    const double step = double(m_step.GetBitRate()) * GetScale();
    if (rtt < m_tLow)
    {
        m_rate += step;
    }
    else if (rtt > m_tHigh)
    {
        m_negativeGradients = 0;
        m_rate *= 1 - m_beta * (1 - m_tHigh.GetSeconds() / rtt.GetSeconds());
    }
    else if (gradient <= 0)
    {
        ++m_negativeGradients;
        m_rate += (m_negativeGradients >= m_haiThreshold ? m_haiThreshold : 1) * step;
    }
    else
    {
        m_negativeGradients = 0;
        m_rate *= std::max(0.0, 1 - m_beta * gradient);
    }
    m_rate = Bound(m_rate);
    NS_LOG_LOGIC("rtt " << rtt.As(Time::US) << " gradient " << gradient << ": rate " << m_rate);
    SetOutputs(GetCurrentRate(), GetMaxWindow());
}

} // namespace ns3
