/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-dcqcn.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpDcqcn");

NS_OBJECT_ENSURE_REGISTERED(DrpDcqcn);

TypeId
DrpDcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DrpDcqcn")
            .SetParent<DrpCongestionOps>()
            .SetGroupName("Drp")
            .AddConstructor<DrpDcqcn>()
            .AddAttribute("G",
                          "Gain g of the alpha average (0 to 1; 1/256, DCQCN paper).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DrpDcqcn::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialAlpha",
                          "Alpha when the transfer starts (0 to 1; 1, DCQCN paper).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DrpDcqcn::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AlphaInterval",
                          "K: alpha decays by (1 - g) when no CNP came for this long "
                          "(55 us, DCQCN paper).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DrpDcqcn::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IncreaseInterval",
                          "T: the rate-increase timer (55 us, DCQCN paper; "
                          "ns3-rdma's config uses 60 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DrpDcqcn::m_increaseInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "B at ReferenceRate: a rate-increase event per this many bytes sent, "
                          "scaled by line rate / ReferenceRate as RateAi is (10 MB at 40 Gb/s, "
                          "DCQCN paper; 0: no byte counter, as HPCC's simulator).",
                          UintegerValue(10 * 1000 * 1000),
                          MakeUintegerAccessor(&DrpDcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps",
                          "F: increase events of fast recovery after a cut (5, DCQCN paper).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DrpDcqcn::m_fastRecovery),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("RateAi",
                          "R_AI, additive increase step at ReferenceRate (40 Mb/s at 40 Gb/s, "
                          "DCQCN paper and ns3-rdma's config).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DrpDcqcn::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "R_HAI, hyper increase step at ReferenceRate (200 Mb/s at 40 Gb/s, "
                          "ns3-rdma's config; the paper gives no value).",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&DrpDcqcn::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "The lowest rate at ReferenceRate (100 Mb/s, HPCC's simulator's "
                          "config; the paper gives none).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DrpDcqcn::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ReferenceRate",
                          "The line rate ByteCounter, RateAi, RateHai and MinRate are given "
                          "for: they scale by line rate / ReferenceRate (40 Gb/s, the paper's; "
                          "0: as given).",
                          DataRateValue(DataRate("40Gbps")),
                          MakeDataRateAccessor(&DrpDcqcn::m_referenceRate),
                          MakeDataRateChecker());
    return tid;
}

DrpDcqcn::DrpDcqcn() = default;

DrpDcqcn::DrpDcqcn(const DrpDcqcn& other)
    : DrpCongestionOps(other),
      m_g(other.m_g),
      m_initialAlpha(other.m_initialAlpha),
      m_alphaInterval(other.m_alphaInterval),
      m_increaseInterval(other.m_increaseInterval),
      m_byteCounter(other.m_byteCounter),
      m_fastRecovery(other.m_fastRecovery),
      m_rateAi(other.m_rateAi),
      m_rateHai(other.m_rateHai),
      m_minRate(other.m_minRate),
      m_referenceRate(other.m_referenceRate)
{
}

DrpDcqcn::~DrpDcqcn()
{
    DoStop();
}

std::string
DrpDcqcn::GetName() const
{
    return "dcqcn";
}

Ptr<DrpCongestionOps>
DrpDcqcn::Fork() const
{
    return CopyObject<DrpDcqcn>(this);
}

double
DrpDcqcn::GetAlpha() const
{
    return m_alpha;
}

DataRate
DrpDcqcn::GetCurrentRate() const
{
    return DataRate(uint64_t(m_current + 0.5));
}

DataRate
DrpDcqcn::GetTargetRate() const
{
    return DataRate(uint64_t(m_target + 0.5));
}

uint32_t
DrpDcqcn::GetTimerStages() const
{
    return m_timerStages;
}

uint32_t
DrpDcqcn::GetByteStages() const
{
    return m_byteStages;
}

uint64_t
DrpDcqcn::GetByteThreshold() const
{
    return m_byteThreshold;
}

double
DrpDcqcn::GetScale() const
{
    if (m_referenceRate.GetBitRate() == 0)
    {
        return 1.0;
    }
    return double(GetLineRate().GetBitRate()) / double(m_referenceRate.GetBitRate());
}

double
DrpDcqcn::Bound(double bps) const
{
    const double line = double(GetLineRate().GetBitRate());
    const double low = std::min(line, double(m_minRate.GetBitRate()) * GetScale());
    return std::min(line, std::max(low, bps));
}

void
DrpDcqcn::DoStart()
{
    m_alpha = m_initialAlpha;
    m_current = double(GetLineRate().GetBitRate());
    m_target = m_current;
    m_timerStages = 0;
    m_byteStages = 0;
    m_bytes = 0;
    m_reacting = false;
    m_byteThreshold =
        m_byteCounter == 0
            ? 0
            : std::max<uint64_t>(1, uint64_t(std::llround(double(m_byteCounter) * GetScale())));
}

void
DrpDcqcn::DoStop()
{
    Simulator::Remove(m_alphaTimer);
    Simulator::Remove(m_increaseTimer);
    m_reacting = false;
}

void
DrpDcqcn::OnSent(uint32_t bytes)
{
    if (!m_reacting || m_byteThreshold == 0)
    {
        return;
    }
    m_bytes += bytes;
    while (m_bytes >= m_byteThreshold)
    {
        m_bytes -= m_byteThreshold;
        ++m_byteStages;
        Increase();
    }
}

void
DrpDcqcn::OnAck(uint32_t /* acked */, bool congestion)
{
    if (congestion)
    {
        OnCnp();
    }
}

void
DrpDcqcn::OnCnp()
{
    NS_LOG_FUNCTION(this << m_current << m_alpha);
    m_target = m_current;
    m_current = Bound(m_current * (1 - m_alpha / 2));
    m_alpha = (1 - m_g) * m_alpha + m_g;
    m_timerStages = 0;
    m_byteStages = 0;
    m_bytes = 0;
    m_reacting = true;
    Simulator::Remove(m_alphaTimer);
    Simulator::Remove(m_increaseTimer);
    m_alphaTimer = Simulator::Schedule(m_alphaInterval, &DrpDcqcn::OnAlphaTimer, this);
    m_increaseTimer = Simulator::Schedule(m_increaseInterval, &DrpDcqcn::OnIncreaseTimer, this);
    Apply();
}

void
DrpDcqcn::OnAlphaTimer()
{
    m_alpha *= 1 - m_g;
    m_alphaTimer = Simulator::Schedule(m_alphaInterval, &DrpDcqcn::OnAlphaTimer, this);
}

void
DrpDcqcn::OnIncreaseTimer()
{
    ++m_timerStages;
    Increase();
    m_increaseTimer = Simulator::Schedule(m_increaseInterval, &DrpDcqcn::OnIncreaseTimer, this);
}

void
DrpDcqcn::Increase()
{
    const uint32_t most = std::max(m_timerStages, m_byteStages);
    const uint32_t least = std::min(m_timerStages, m_byteStages);
    if (least > m_fastRecovery)
    {
        m_target += double(least - m_fastRecovery) * double(m_rateHai.GetBitRate()) * GetScale();
    }
    else if (most > m_fastRecovery)
    {
        m_target += double(m_rateAi.GetBitRate()) * GetScale();
    }
    m_target = Bound(m_target);
    m_current = Bound((m_target + m_current) / 2);
    NS_LOG_LOGIC("stages " << m_timerStages << "/" << m_byteStages << ": R_C " << m_current
                           << " R_T " << m_target);
    Apply();
}

void
DrpDcqcn::Apply()
{
    SetOutputs(GetCurrentRate(), GetMaxWindow());
}

} // namespace ns3
