/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-dctcp.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpDctcp");

NS_OBJECT_ENSURE_REGISTERED(DrpDctcp);

TypeId
DrpDctcp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DrpDctcp")
            .SetParent<DrpCongestionOps>()
            .SetGroupName("Drp")
            .AddConstructor<DrpDctcp>()
            .AddAttribute("G",
                          "Gain g of the alpha average (0 to 1; 1/16, DCTCP paper).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&DrpDctcp::m_g),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialAlpha",
                          "Alpha when the transfer starts (0 to 1; 1, as Linux's DCTCP).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DrpDctcp::m_initialAlpha),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("InitialWindow",
                          "The window when the transfer starts, frames (1 to 65535; 10, RFC "
                          "6928's initial window, as Linux's and ns-3's TcpSocket "
                          "InitialCwnd); at most the configured Window.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&DrpDctcp::m_initialWindow),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("Pacing",
                          "Pace the frames at PacingRatio (SlowStartPacingRatio below the "
                          "slow-start threshold) times W / srtt, as Linux paces TCP "
                          "(tcp_update_pacing_rate) and RNICs rate-limit each queue pair; "
                          "false: the window alone limits, and ACK-clocked flows keep their "
                          "frames in runs that only their own marks hit (unfair shares).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DrpDctcp::m_pacing),
                          MakeBooleanChecker())
            .AddAttribute("PacingRatio",
                          "Pacing rate over W / srtt at or above the slow-start threshold "
                          "(1 to 10; 1.2, Linux's tcp_pacing_ca_ratio 120).",
                          DoubleValue(1.2),
                          MakeDoubleAccessor(&DrpDctcp::m_pacingRatio),
                          MakeDoubleChecker<double>(1.0, 10.0))
            .AddAttribute("SlowStartPacingRatio",
                          "Pacing rate over W / srtt below the slow-start threshold (1 to 10; "
                          "2, Linux's tcp_pacing_ss_ratio 200).",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&DrpDctcp::m_slowStartRatio),
                          MakeDoubleChecker<double>(1.0, 10.0));
    return tid;
}

DrpDctcp::DrpDctcp() = default;

DrpDctcp::DrpDctcp(const DrpDctcp& other)
    : DrpCongestionOps(other),
      m_g(other.m_g),
      m_initialAlpha(other.m_initialAlpha),
      m_initialWindow(other.m_initialWindow),
      m_pacing(other.m_pacing),
      m_pacingRatio(other.m_pacingRatio),
      m_slowStartRatio(other.m_slowStartRatio)
{
}

DrpDctcp::~DrpDctcp() = default;

std::string
DrpDctcp::GetName() const
{
    return "dctcp";
}

Ptr<DrpCongestionOps>
DrpDctcp::Fork() const
{
    return CopyObject<DrpDctcp>(this);
}

double
DrpDctcp::GetAlpha() const
{
    return m_alpha;
}

double
DrpDctcp::GetCongestionWindow() const
{
    return m_cwnd;
}

double
DrpDctcp::GetSlowStartThreshold() const
{
    return m_ssthresh;
}

void
DrpDctcp::DoStart()
{
    m_alpha = m_initialAlpha;
    m_cwnd = std::min<double>(m_initialWindow, GetMaxWindow());
    m_ssthresh = GetMaxWindow();    // slow start until the first echo or the cap
    m_windowEnd = uint32_t(m_cwnd); // the first window of data: what W lets out
    m_cwrEnd = 0;
    m_acked = 0;
    m_marked = 0;
    m_srtt = Time(0);
    Apply();
}

void
DrpDctcp::OnSent(uint32_t bytes)
{
    m_frameBytes = bytes;
}

bool
DrpDctcp::NeedsRttSamples() const
{
    return m_pacing;
}

void
DrpDctcp::OnRttSample(Time rtt)
{
    // RFC 6298's smoothed round trip (gain 1/8), as TCP keeps srtt.
    m_srtt = m_srtt.IsZero() ? rtt : m_srtt + (rtt - m_srtt) / 8;
}

void
DrpDctcp::Apply()
{
    DataRate rate(0);
    if (m_pacing && !m_srtt.IsZero() && m_frameBytes > 0)
    {
        const double ratio = m_cwnd < m_ssthresh ? m_slowStartRatio : m_pacingRatio;
        // At or above the line rate SetOutputs leaves the frames unpaced.
        rate = DataRate(uint64_t(ratio * m_cwnd * m_frameBytes * 8 / m_srtt.GetSeconds()));
    }
    SetOutputs(rate, uint32_t(std::floor(m_cwnd)));
}

void
DrpDctcp::OnAck(uint32_t acked, bool congestion)
{
    if (acked == 0)
    {
        return; // a repeat acknowledges nothing: no frame to count
    }
    m_acked += acked;
    m_marked += congestion ? acked : 0;
    if (GetUna() >= m_windowEnd)
    {
        UpdateAlpha();
    }
    UpdateWindow(acked, congestion);
    Apply();
}

void
DrpDctcp::UpdateAlpha()
{
    const double fraction = double(m_marked) / double(m_acked);
    m_alpha = (1 - m_g) * m_alpha + m_g * fraction;
    NS_LOG_LOGIC("window of data ends at " << GetUna() << ": F " << fraction << " alpha "
                                           << m_alpha);
    m_acked = 0;
    m_marked = 0;
    m_windowEnd = GetNextSequence();
}

void
DrpDctcp::UpdateWindow(uint32_t acked, bool congestion)
{
    const bool recovering = GetUna() < m_cwrEnd;
    if (congestion && !recovering)
    {
        m_ssthresh = std::max(1.0, m_cwnd * (1 - m_alpha / 2));
        m_cwnd = m_ssthresh;
        m_cwrEnd = GetNextSequence(); // once per window of data
        NS_LOG_LOGIC("echo: window " << m_cwnd << " (alpha " << m_alpha << ")");
        return;
    }
    if (recovering)
    {
        return;
    }
    if (m_cwnd < m_ssthresh)
    {
        m_cwnd = std::min(m_cwnd + acked, m_ssthresh); // slow start
    }
    else
    {
        m_cwnd += double(acked) / m_cwnd; // one frame per round trip
    }
    m_cwnd = std::min(m_cwnd, double(GetMaxWindow()));
}

} // namespace ns3
