/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-completion-queue.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCompletionQueue");

NS_OBJECT_ENSURE_REGISTERED(RdmaCompletionQueue);

TypeId
RdmaCompletionQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCompletionQueue")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<RdmaCompletionQueue>()
            .AddTraceSource("Completion",
                            "A work completion was added.",
                            MakeTraceSourceAccessor(&RdmaCompletionQueue::m_completionTrace),
                            "ns3::RdmaCompletionQueue::WcTracedCallback")
            .AddTraceSource("Overrun",
                            "A work completion found the queue full or in error and was lost.",
                            MakeTraceSourceAccessor(&RdmaCompletionQueue::m_overrunTrace),
                            "ns3::RdmaCompletionQueue::WcTracedCallback");
    return tid;
}

RdmaCompletionQueue::RdmaCompletionQueue() = default;

void
RdmaCompletionQueue::DoDispose()
{
    Simulator::Cancel(m_notify);
    m_event = Callback<void, Ptr<RdmaCompletionQueue>>();
    m_entries.clear();
    Object::DoDispose();
}

void
RdmaCompletionQueue::SetDepth(uint32_t depth)
{
    NS_ABORT_MSG_IF(depth == 0, "RdmaCompletionQueue: a depth of 0 holds nothing");
    m_depth = depth;
}

uint32_t
RdmaCompletionQueue::GetDepth() const
{
    return m_depth;
}

std::vector<RdmaWc>
RdmaCompletionQueue::Poll(uint32_t n)
{
    const size_t count = std::min<size_t>(n, m_entries.size());
    std::vector<RdmaWc> taken(m_entries.begin(), m_entries.begin() + count);
    m_entries.erase(m_entries.begin(), m_entries.begin() + count);
    return taken;
}

uint32_t
RdmaCompletionQueue::GetCount() const
{
    return uint32_t(m_entries.size());
}

void
RdmaCompletionQueue::ReqNotify(bool solicitedOnly)
{
    m_armed = true;
    m_solicitedOnly = solicitedOnly;
}

void
RdmaCompletionQueue::SetEventCallback(Callback<void, Ptr<RdmaCompletionQueue>> event)
{
    m_event = event;
}

bool
RdmaCompletionQueue::Push(const RdmaWc& wc, bool solicited)
{
    if (m_error || m_entries.size() >= m_depth)
    {
        NS_LOG_WARN("completion queue full (" << m_depth << "): completion of request " << wc.wrId
                                              << " lost");
        m_error = true;
        ++m_lost;
        m_overrunTrace(wc);
        return false;
    }
    m_entries.push_back(wc);
    ++m_total;
    m_completionTrace(wc);
    const bool wakes = !m_solicitedOnly || solicited || wc.status != RdmaWcStatus::SUCCESS;
    if (m_armed && wakes)
    {
        // One event per arming, delivered as ibv_get_cq_event returns it:
        // after the completion is in the queue, not inside the caller. An
        // arming made while the previous event is still on its way is
        // served by that event (one pending at most: DoDispose cancels it).
        m_armed = false;
        if (!m_notify.IsExpired())
        {
            return true;
        }
        m_notify = Simulator::ScheduleNow(&RdmaCompletionQueue::Notify, this);
    }
    return true;
}

void
RdmaCompletionQueue::Notify()
{
    if (!m_event.IsNull())
    {
        m_event(this);
    }
}

bool
RdmaCompletionQueue::IsInError() const
{
    return m_error;
}

uint64_t
RdmaCompletionQueue::GetLost() const
{
    return m_lost;
}

uint64_t
RdmaCompletionQueue::GetTotal() const
{
    return m_total;
}

} // namespace ns3
