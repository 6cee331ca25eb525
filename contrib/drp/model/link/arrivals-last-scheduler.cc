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

ArrivalsLastScheduler::Key
ArrivalsLastScheduler::KeyOf(const Scheduler::Event& ev)
{
    if (const auto* arrival = dynamic_cast<const EthernetArrivalEvent*>(ev.impl))
    {
        return {ev.key.m_ts, 1, arrival->GetNodeId(), arrival->GetIfIndex(), ev.key.m_uid};
    }
    return {ev.key.m_ts, 0, 0, 0, ev.key.m_uid};
}

Scheduler::Event
ArrivalsLastScheduler::AsRun(const Key& key, const Scheduler::Event& ev) const
{
    Scheduler::Event asRun = ev;
    if (std::get<1>(key) == 1) // an arrival
    {
        asRun.key.m_uid = m_lastUid;
    }
    return asRun;
}

void
ArrivalsLastScheduler::Insert(const Scheduler::Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    [[maybe_unused]] const bool inserted = m_events.emplace(KeyOf(ev), ev).second;
    NS_ASSERT_MSG(inserted, "ArrivalsLastScheduler: event uid " << ev.key.m_uid << " twice");
    m_lastUid = std::max(m_lastUid, ev.key.m_uid);
}

bool
ArrivalsLastScheduler::IsEmpty() const
{
    return m_events.empty();
}

Scheduler::Event
ArrivalsLastScheduler::PeekNext() const
{
    NS_ASSERT(!m_events.empty());
    return AsRun(m_events.begin()->first, m_events.begin()->second);
}

Scheduler::Event
ArrivalsLastScheduler::RemoveNext()
{
    NS_ASSERT(!m_events.empty());
    auto next = m_events.begin();
    const Scheduler::Event ev = AsRun(next->first, next->second);
    m_events.erase(next);
    NS_LOG_DEBUG(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    return ev;
}

void
ArrivalsLastScheduler::Remove(const Scheduler::Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    auto it = m_events.find(KeyOf(ev));
    NS_ASSERT_MSG(it != m_events.end() && it->second.impl == ev.impl,
                  "ArrivalsLastScheduler: no such event, uid " << ev.key.m_uid);
    m_events.erase(it);
}

} // namespace ns3
