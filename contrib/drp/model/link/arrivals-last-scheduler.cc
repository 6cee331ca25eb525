/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "arrivals-last-scheduler.h"

#include "ethernet-arrival-event.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ArrivalsLastScheduler");

NS_OBJECT_ENSURE_REGISTERED(ArrivalsLastScheduler);

TypeId
ArrivalsLastScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ArrivalsLastScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Drp")
                            .AddConstructor<ArrivalsLastScheduler>();
    return tid;
}

ArrivalsLastScheduler::ArrivalsLastScheduler()
    : m_lastUid(0)
{
    NS_LOG_FUNCTION(this);
}

ArrivalsLastScheduler::~ArrivalsLastScheduler()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
ArrivalsLastScheduler::TieOf(const Scheduler::Event& ev)
{
    if (const auto* arrival = dynamic_cast<const EthernetArrivalEvent*>(ev.impl))
    {
        const uint64_t port = (uint64_t{arrival->GetNodeId()} << 32) | arrival->GetIfIndex();
        NS_ASSERT_MSG(port != UINT64_MAX, "ArrivalsLastScheduler: node and interface out of range");
        return port + 1;
    }
    return 0;
}

Scheduler::Event
ArrivalsLastScheduler::AsRun(uint64_t tie, const Scheduler::Event& ev) const
{
    Scheduler::Event asRun = ev;
    if (tie != 0) // an arrival
    {
        asRun.key.m_uid = m_lastUid;
    }
    return asRun;
}

void
ArrivalsLastScheduler::Insert(const Scheduler::Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    m_events.Push(ev, TieOf(ev));
    m_lastUid = std::max(m_lastUid, ev.key.m_uid);
}

bool
ArrivalsLastScheduler::IsEmpty() const
{
    return m_events.IsEmpty();
}

Scheduler::Event
ArrivalsLastScheduler::PeekNext() const
{
    return AsRun(m_events.TopTie(), m_events.Top());
}

Scheduler::Event
ArrivalsLastScheduler::RemoveNext()
{
    const Scheduler::Event ev = AsRun(m_events.TopTie(), m_events.Top());
    m_events.Pop();
    NS_LOG_DEBUG(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    return ev;
}

void
ArrivalsLastScheduler::Remove(const Scheduler::Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    m_events.Remove(ev);
}

} // namespace ns3
