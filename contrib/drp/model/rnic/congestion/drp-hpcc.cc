/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-hpcc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpHpcc");

NS_OBJECT_ENSURE_REGISTERED(DrpHpcc);

TypeId
DrpHpcc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DrpHpcc")
            .SetParent<DrpCongestionOps>()
            .SetGroupName("Drp")
            .AddConstructor<DrpHpcc>()
            .AddAttribute("TargetUtilization",
                          "eta: the utilisation HPCC holds the most loaded link at (0 to 1; "
                          "0.95, HPCC paper).",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&DrpHpcc::m_eta),
                          MakeDoubleChecker<double>(0.01, 1.0))
            .AddAttribute("MaxStage",
                          "Additive increases in a row before a multiplicative step towards "
                          "eta (5, HPCC paper; 0: every update multiplicative, as HPCC's "
                          "simulator's MI_THRESH 0).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DrpHpcc::m_maxStage),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("RateAi",
                          "R_AI, the additive increase at ReferenceRate (W_AI = R_AI x T; "
                          "10 Mb/s at 25 Gb/s, HPCC's simulator's run.py).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&DrpHpcc::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "The lowest rate (100 Mb/s, HPCC's simulator's default).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DrpHpcc::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("ReferenceRate",
                          "The line rate RateAi is given for: it scales by line rate / "
                          "ReferenceRate (25 Gb/s; 0: as given).",
                          DataRateValue(DataRate("25Gbps")),
                          MakeDataRateAccessor(&DrpHpcc::m_referenceRate),
                          MakeDataRateChecker())
            .AddAttribute("BaseRtt",
                          "T, the base round trip (0: the least RTT the transfer measures).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&DrpHpcc::m_baseRttAttribute),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FastReact",
                          "React to every acknowledgement (the reference rate still changes "
                          "once per round trip), as HPCC's simulator's FAST_REACT 1.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DrpHpcc::m_fastReact),
                          MakeBooleanChecker());
    return tid;
}

DrpHpcc::DrpHpcc() = default;

DrpHpcc::DrpHpcc(const DrpHpcc& other)
    : DrpCongestionOps(other),
      m_eta(other.m_eta),
      m_maxStage(other.m_maxStage),
      m_rateAi(other.m_rateAi),
      m_minRate(other.m_minRate),
      m_referenceRate(other.m_referenceRate),
      m_baseRttAttribute(other.m_baseRttAttribute),
      m_fastReact(other.m_fastReact)
{
}

DrpHpcc::~DrpHpcc() = default;

std::string
DrpHpcc::GetName() const
{
    return "hpcc";
}

Ptr<DrpCongestionOps>
DrpHpcc::Fork() const
{
    return CopyObject<DrpHpcc>(this);
}

bool
DrpHpcc::NeedsRttSamples() const
{
    return m_baseRttAttribute.IsZero(); // T is learned from the samples
}

bool
DrpHpcc::TimesFromHandover() const
{
    return true; // the window counts frames from their handover
}

bool
DrpHpcc::NeedsTelemetry() const
{
    return true;
}

double
DrpHpcc::GetUtilization() const
{
    return m_u;
}

DataRate
DrpHpcc::GetReferenceRate() const
{
    return DataRate(uint64_t(m_referenceBps + 0.5));
}

DataRate
DrpHpcc::GetCurrentRate() const
{
    return DataRate(uint64_t(m_rate + 0.5));
}

uint32_t
DrpHpcc::GetIncreaseStage() const
{
    return m_incStage;
}

Time
DrpHpcc::GetBaseRtt() const
{
    return m_baseRtt;
}

void
DrpHpcc::DoStart()
{
    m_baseRtt = m_baseRttAttribute;
    m_u = 1; // as HPCC's simulator starts a queue pair
    m_referenceBps = double(GetLineRate().GetBitRate());
    m_rate = m_referenceBps;
    m_incStage = 0;
    m_lastUpdate = 0;
    m_haveHops = false;
    Apply();
}

void
DrpHpcc::OnSent(uint32_t bytes)
{
    if (m_frameBytes != bytes)
    {
        m_frameBytes = bytes;
        Apply();
    }
}

void
DrpHpcc::OnRttSample(Time rtt)
{
    if (m_baseRtt.IsZero() || rtt < m_baseRtt)
    {
        m_baseRtt = rtt;
        Apply();
    }
}

double
DrpHpcc::MeasureLoad(const DrpIntHeader& telemetry, uint64_t& tauNs) const
{
    double most = 0;
    tauNs = 0;
    const double baseSeconds = m_baseRtt.GetSeconds();
    for (uint8_t j = 0; j < telemetry.GetHopCount(); ++j)
    {
        const DrpIntHeader::Hop& now = telemetry.GetHop(j);
        const DrpIntHeader::Hop& before = m_hops.GetHop(j);
        const uint32_t tau = now.NanosecondsSince(before);
        if (tau == 0 || now.rateBps == 0)
        {
            continue; // the same stamp again: no new information
        }
        const double line = double(now.rateBps);
        const double txRate = double(now.BytesSince(before)) * 8 / (tau * 1e-9);
        const double queue = double(std::min(now.GetQueueBytes(), before.GetQueueBytes()));
        const double u = queue * 8 / (line * baseSeconds) + txRate / line;
        if (u > most)
        {
            most = u;
            tauNs = tau;
        }
    }
    return most;
}

void
DrpHpcc::OnTelemetry(const DrpIntHeader& telemetry)
{
    if (!m_haveHops || telemetry.GetHopCount() != m_hops.GetHopCount() || m_baseRtt.IsZero())
    {
        // The first stamps of the path (or of a new path): nothing to compare.
        m_hops = telemetry;
        m_haveHops = true;
        m_lastUpdate = GetDeparted();
        return;
    }
    uint64_t tauNs = 0;
    const double u = MeasureLoad(telemetry, tauNs);
    m_hops = telemetry;
    if (tauNs == 0)
    {
        return; // no hop, or no hop stamped anew
    }
    const double base = double(m_baseRtt.GetNanoSeconds());
    const double dt = std::min(double(tauNs), base);
    m_u = (m_u * (base - dt) + u * dt) / base;
    const bool update = GetUna() > m_lastUpdate;
    if (!update && !m_fastReact)
    {
        return;
    }
    const double ai =
        double(m_rateAi.GetBitRate()) *
        (m_referenceRate.GetBitRate() == 0
             ? 1.0
             : double(GetLineRate().GetBitRate()) / double(m_referenceRate.GetBitRate()));
    double rate;
    uint32_t stage;
    const double load = std::max(m_u / m_eta, 1e-9);
    if (load >= 1 || m_incStage >= m_maxStage)
    {
        rate = m_referenceBps / load + ai; // towards eta: down, or up in one step
        stage = 0;
    }
    else
    {
        rate = m_referenceBps + ai;
        stage = m_incStage + 1;
    }
    const double line = double(GetLineRate().GetBitRate());
    m_rate = std::min(line, std::max(std::min(line, double(m_minRate.GetBitRate())), rate));
    NS_LOG_LOGIC("U " << m_u << " (u " << u << ", tau " << tauNs << " ns, T "
                      << m_baseRtt.As(Time::NS) << "): R " << m_rate
                      << (update ? " (update)" : ""));
    if (update)
    {
        m_referenceBps = m_rate;
        m_incStage = stage;
        // Once per round trip of what is on the wire (HPCC's snd_nxt,
        // rdma-hw.cc's m_lastUpdateSeq), not of what was handed to the RNIC:
        // a flow that has handed over a window ahead of its pacer would
        // otherwise keep its reference rate for many round trips.
        m_lastUpdate = GetDeparted();
    }
    Apply();
}

void
DrpHpcc::Apply()
{
    uint32_t window = GetMaxWindow();
    if (!m_baseRtt.IsZero() && m_frameBytes > 0)
    {
        const double bytes = m_rate / 8 * m_baseRtt.GetSeconds();
        window = uint32_t(std::min<double>(GetMaxWindow(), std::ceil(bytes / m_frameBytes)));
    }
    SetOutputs(GetCurrentRate(), window);
}

} // namespace ns3
