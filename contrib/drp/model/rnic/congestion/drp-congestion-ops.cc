/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-congestion-ops.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpCongestionOps");

NS_OBJECT_ENSURE_REGISTERED(DrpCongestionOps);

TypeId
DrpCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DrpCongestionOps")
                            .SetParent<Object>()
                            .SetGroupName("Drp")
                            .AddConstructor<DrpCongestionOps>();
    return tid;
}

DrpCongestionOps::DrpCongestionOps() = default;

DrpCongestionOps::DrpCongestionOps(const DrpCongestionOps& other)
    : Object(other),
      m_lineRate(other.m_lineRate),
      m_maxWindow(other.m_maxWindow),
      m_rate(other.m_rate),
      m_window(other.m_window)
{
}

DrpCongestionOps::~DrpCongestionOps() = default;

std::string
DrpCongestionOps::GetName() const
{
    return "none";
}

Ptr<DrpCongestionOps>
DrpCongestionOps::Fork() const
{
    return CopyObject<DrpCongestionOps>(this);
}

void
DrpCongestionOps::SetOutputCallback(Callback<void> changed)
{
    m_changed = changed;
}

void
DrpCongestionOps::Start(DataRate lineRate, uint32_t window)
{
    NS_LOG_FUNCTION(this << lineRate << window);
    m_lineRate = lineRate;
    m_maxWindow = std::max<uint32_t>(window, 1);
    m_rate = DataRate(0);
    m_window = m_maxWindow;
    m_una = 0;
    m_next = 0;
    DoStart();
}

void
DrpCongestionOps::Stop()
{
    DoStop();
}

void
DrpCongestionOps::DoStart()
{
}

void
DrpCongestionOps::DoStop()
{
}

void
DrpCongestionOps::OnSent(uint32_t /* bytes */)
{
}

void
DrpCongestionOps::OnAck(uint32_t /* acked */, bool /* congestion */)
{
}

void
DrpCongestionOps::OnRttSample(Time /* rtt */)
{
}

bool
DrpCongestionOps::NeedsRttSamples() const
{
    return false;
}

bool
DrpCongestionOps::TimesFromHandover() const
{
    return false;
}

bool
DrpCongestionOps::NeedsTelemetry() const
{
    return false;
}

void
DrpCongestionOps::OnTelemetry(const DrpIntHeader& /* telemetry */)
{
}

void
DrpCongestionOps::SetSequence(uint32_t una, uint32_t departed, uint32_t next)
{
    m_una = una;
    m_departed = departed;
    m_next = next;
}

uint32_t
DrpCongestionOps::GetUna() const
{
    return m_una;
}

uint32_t
DrpCongestionOps::GetDeparted() const
{
    return m_departed;
}

uint32_t
DrpCongestionOps::GetNextSequence() const
{
    return m_next;
}

DataRate
DrpCongestionOps::GetRate() const
{
    return m_rate;
}

uint32_t
DrpCongestionOps::GetWindow() const
{
    return m_window;
}

DataRate
DrpCongestionOps::GetLineRate() const
{
    return m_lineRate;
}

uint32_t
DrpCongestionOps::GetMaxWindow() const
{
    return m_maxWindow;
}

void
DrpCongestionOps::SetOutputs(DataRate rate, uint32_t window)
{
    if (rate >= m_lineRate)
    {
        rate = DataRate(0); // the line rate: unpaced
    }
    window = std::min(std::max<uint32_t>(window, 1), m_maxWindow);
    if (rate == m_rate && window == m_window)
    {
        return;
    }
    m_rate = rate;
    m_window = window;
    if (!m_changed.IsNull())
    {
        m_changed();
    }
}

} // namespace ns3
