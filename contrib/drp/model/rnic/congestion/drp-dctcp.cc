/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-dctcp.h"

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
                          MakeUintegerChecker<uint32_t>(1, 65535));
    return tid;
}

DrpDctcp::DrpDctcp() = default;

DrpDctcp::DrpDctcp(const DrpDctcp& other)
    : DrpCongestionOps(other),
      m_g(other.m_g),
      m_initialAlpha(other.m_initialAlpha),
      m_initialWindow(other.m_initialWindow)
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
    SetOutputs(DataRate(0), uint32_t(m_cwnd));
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
    SetOutputs(DataRate(0), uint32_t(std::floor(m_cwnd)));
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
