/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-dctcp.h"

#include "ns3/double.h"
#include "ns3/log.h"

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
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

DrpDctcp::DrpDctcp() = default;

DrpDctcp::DrpDctcp(const DrpDctcp& other)
    : DrpCongestionOps(other),
      m_g(other.m_g),
      m_initialAlpha(other.m_initialAlpha)
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

void
DrpDctcp::DoStart()
{
    m_alpha = m_initialAlpha;
    m_cwnd = GetMaxWindow();
    m_acked = 0;
    m_marked = 0;
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
    if (m_acked >= uint32_t(std::floor(m_cwnd)))
    {
        EndObservation();
    }
}

void
DrpDctcp::EndObservation()
{
    const double fraction = double(m_marked) / double(m_acked);
    m_alpha = (1 - m_g) * m_alpha + m_g * fraction;
    if (m_marked > 0)
    {
        m_cwnd = std::max(1.0, m_cwnd * (1 - m_alpha / 2));
    }
    else
    {
        m_cwnd = std::min(double(GetMaxWindow()), m_cwnd + 1);
    }
    NS_LOG_LOGIC("F " << fraction << " alpha " << m_alpha << " window " << m_cwnd);
    m_acked = 0;
    m_marked = 0;
    SetOutputs(DataRate(0), uint32_t(std::floor(m_cwnd)));
}

} // namespace ns3
