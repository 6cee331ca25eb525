/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-tx-scheduler.h"

#include "ns3/drp-compat.h"
#include "ns3/drp-int-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpTxScheduler");

// ---------------------------------------------------------------------------
// Per-flow queues

template <typename T>
void
DrpTxScheduler::FlowQueues<T>::Push(uint64_t flow, T item)
{
    std::deque<T>& queue = m_queues[flow];
    queue.push_back(std::move(item));
    ++m_size;
    if (queue.size() == 1)
    {
        // The flow becomes backlogged: no credit for the time it was idle.
        uint64_t& finish = m_finish[flow];
        finish = std::max(finish, m_virtual);
        m_fair.emplace(finish, flow);
    }
}

template <typename T>
bool
DrpTxScheduler::FlowQueues<T>::Pop(Arbitration arbitration,
                                   T& item,
                                   const std::function<bool(uint64_t)>& eligible)
{
    uint64_t flow = 0;
    // The flow's place in the fair order, taken out and, if the flow has
    // more to send, put back with its next finish tag: the same tree node.
    typename decltype(m_fair)::node_type turn;
    if (arbitration == FIFO)
    {
        // Flow ids increase with age: the map holds the oldest flow first.
        auto chosen = m_queues.begin();
        while (chosen != m_queues.end() && eligible && !eligible(chosen->first))
        {
            ++chosen;
        }
        if (chosen == m_queues.end())
        {
            return false;
        }
        flow = chosen->first;
    }
    else
    {
        auto chosen = m_fair.begin();
        while (chosen != m_fair.end() && eligible && !eligible(chosen->second))
        {
            ++chosen;
        }
        if (chosen == m_fair.end())
        {
            return false;
        }
        flow = chosen->second;
        turn = m_fair.extract(chosen);
    }
    // Start-time fair queuing, one frame as the unit: the frame starts at
    // the later of the virtual time and its flow's finish tag.
    uint64_t& finish = m_finish[flow];
    if (arbitration == FIFO)
    {
        turn = m_fair.extract({finish, flow}); // the fair order is kept up to date under FIFO too
    }
    m_virtual = std::max(m_virtual, finish);
    finish = m_virtual + 1;
    auto it = m_queues.find(flow);
    item = std::move(it->second.front());
    it->second.pop_front();
    --m_size;
    if (it->second.empty())
    {
        m_queues.erase(it);
    }
    else
    {
        // A flow with frames always has its place in the fair order (Push
        // gives it one, Pop puts it back, Erase takes it with the frames).
        NS_ASSERT_MSG(turn, "flow " << flow << " had no place in the fair order");
        turn.value() = {finish, flow}; // its next turn
        m_fair.insert(std::move(turn));
    }
    return true;
}

template <typename T>
uint64_t
DrpTxScheduler::FlowQueues<T>::Erase(uint64_t flow)
{
    uint64_t finish = m_finish.count(flow) ? m_finish[flow] : 0;
    m_finish.erase(flow);
    auto it = m_queues.find(flow);
    if (it == m_queues.end())
    {
        return 0;
    }
    uint64_t count = it->second.size();
    m_size -= count;
    m_queues.erase(it);
    m_fair.erase({finish, flow});
    return count;
}

template <typename T>
uint64_t
DrpTxScheduler::FlowQueues<T>::GetSize() const
{
    return m_size;
}

template <typename T>
bool
DrpTxScheduler::FlowQueues<T>::Has(uint64_t flow) const
{
    return m_queues.count(flow) != 0;
}

// ---------------------------------------------------------------------------
// The scheduler

DrpTxScheduler::DrpTxScheduler()
    : m_arbitration(ROUND_ROBIN)
{
}

DrpTxScheduler::~DrpTxScheduler()
{
    Simulator::Remove(m_wakeEvent);
}

void
DrpTxScheduler::SetArbitration(Arbitration arbitration)
{
    m_arbitration = arbitration;
}

DrpTxScheduler::Arbitration
DrpTxScheduler::GetArbitration() const
{
    return m_arbitration;
}

void
DrpTxScheduler::SetReadyCallback(Callback<void> ready)
{
    m_ready = ready;
}

uint64_t
DrpTxScheduler::OpenFlow()
{
    uint64_t flow = m_nextFlow++;
    m_open.insert(flow);
    return flow;
}

uint64_t
DrpTxScheduler::CloseFlow(uint64_t flow)
{
    if (m_open.erase(flow) == 0)
    {
        return 0;
    }
    const uint64_t fetched = m_fetched.Erase(flow);
    const uint64_t discarded = m_toFetch.Erase(flow) + fetched;
    m_staged.erase(flow); // payloads still being read are discarded when they arrive
    m_pacing.erase(flow);
    NS_LOG_LOGIC("flow " << flow << " closed, " << discarded << " data frames discarded");
    m_discarded += discarded;
    return fetched;
}

bool
DrpTxScheduler::IsOpen(uint64_t flow) const
{
    return m_open.count(flow) != 0;
}

void
DrpTxScheduler::EnqueueControl(Frame frame)
{
    m_control.push_back(std::move(frame));
    if (!m_ready.IsNull())
    {
        m_ready();
    }
}

bool
DrpTxScheduler::EnqueueData(const DataFrame& frame)
{
    return EnqueueData(DataFrame(frame));
}

bool
DrpTxScheduler::EnqueueData(DataFrame&& frame)
{
    if (!IsOpen(frame.flow))
    {
        ++m_discarded;
        return false;
    }
    uint64_t flow = frame.flow;
    m_toFetch.Push(flow, std::move(frame));
    return true;
}

void
DrpTxScheduler::SetStageLimit(uint32_t frames)
{
    m_stageLimit = frames;
}

uint32_t
DrpTxScheduler::GetStageLimit() const
{
    return m_stageLimit;
}

bool
DrpTxScheduler::TakeNextData(DataFrame& frame)
{
    auto eligible = [this](uint64_t flow) {
        auto it = m_staged.find(flow);
        return (it == m_staged.end() || it->second < m_stageLimit) &&
               (m_pacing.empty() || IsDue(flow));
    };
    if (!m_toFetch.Pop(m_arbitration, frame, eligible))
    {
        if (!m_pacing.empty())
        {
            ScheduleWake();
        }
        return false;
    }
    ++m_staged[frame.flow];
    if (!m_pacing.empty())
    {
        Pace(frame);
    }
    return true;
}

void
DrpTxScheduler::SetFlowRate(uint64_t flow, DataRate rate)
{
    if (rate.GetBitRate() == 0 || !IsOpen(flow))
    {
        m_pacing.erase(flow);
        return;
    }
    auto it = m_pacing.find(flow);
    if (it == m_pacing.end())
    {
        m_pacing[flow] = {rate, Simulator::Now(), 0, Simulator::Now(), 0};
        return;
    }
    // The frame due next is due one spacing at the new rate after the last
    // one started (a rate limiter's tokens refill at the new rate; HPCC's
    // simulator moves m_nextAvail on every rate change the same way).
    Pacing& pacing = it->second;
    pacing.rate = rate;
    pacing.carry = 0;
    if (pacing.lastBits > 0 && pacing.next > Simulator::Now())
    {
        pacing.next = std::max(Simulator::Now(), pacing.last + pacing.Spacing(pacing.lastBits));
    }
}

Time
DrpTxScheduler::Pacing::Spacing(uint64_t bits)
{
    // In whole nanoseconds, the remainder carried to the next frame (as
    // EthernetNetDevice carries its slots'): the mean spacing is the bits'
    // time at the rate exactly, not rounded per frame, which would leave a
    // flow only the rates 8 x bytes / n ns apart and lock flows that share a
    // port into fixed unequal ratios.
    const uint64_t bps = rate.GetBitRate();
    const uint64_t scaled = bits * 1000000000ull + carry; // bits < 2^32: no overflow
    carry = scaled % bps;
    return NanoSeconds(int64_t(scaled / bps));
}

DataRate
DrpTxScheduler::GetFlowRate(uint64_t flow) const
{
    auto it = m_pacing.find(flow);
    return it == m_pacing.end() ? DataRate(0) : it->second.rate;
}

void
DrpTxScheduler::SetPacingOverhead(uint32_t bytes)
{
    m_pacingOverhead = bytes;
}

void
DrpTxScheduler::SetWakeCallback(Callback<void> wake)
{
    m_wake = wake;
}

bool
DrpTxScheduler::IsDue(uint64_t flow) const
{
    auto it = m_pacing.find(flow);
    return it == m_pacing.end() || it->second.next <= Simulator::Now();
}

void
DrpTxScheduler::Pace(const DataFrame& frame)
{
    auto it = m_pacing.find(frame.flow);
    if (it == m_pacing.end())
    {
        return;
    }
    Pacing& pacing = it->second;
    // A flow that waited longer than its spacing gets no credit for it.
    // HPCC's data frames carry the INT extension too: it takes the wire.
    const uint32_t extension = frame.header.HasTelemetry() ? DrpIntHeader::SIZE : 0;
    pacing.last = std::max(pacing.next, Simulator::Now());
    pacing.lastBits = 8ull * (frame.header.GetLength() + m_pacingOverhead + extension);
    pacing.next = pacing.last + pacing.Spacing(pacing.lastBits);
}

void
DrpTxScheduler::ScheduleWake()
{
    Time earliest = Time::Max();
    for (const auto& [flow, pacing] : m_pacing)
    {
        if (pacing.next > Simulator::Now() && m_toFetch.Has(flow))
        {
            earliest = std::min(earliest, pacing.next);
        }
    }
    if (earliest == Time::Max() ||
        (!m_wakeEvent.IsExpired() && m_wakeEvent.GetTs() <= uint64_t(earliest.GetTimeStep())))
    {
        return;
    }
    Simulator::Remove(m_wakeEvent);
    m_wakeEvent = drp::Schedule(earliest - Simulator::Now(), [this]() {
        if (!m_wake.IsNull())
        {
            m_wake();
        }
    });
}

void
DrpTxScheduler::Unstage(uint64_t flow)
{
    auto it = m_staged.find(flow);
    if (it != m_staged.end() && --it->second == 0)
    {
        m_staged.erase(it);
    }
}

bool
DrpTxScheduler::AddFetched(Frame frame)
{
    if (!IsOpen(frame.flow))
    {
        ++m_discarded; // its transfer ended while the payload was read
        Unstage(frame.flow);
        return false;
    }
    uint64_t flow = frame.flow;
    m_fetched.Push(flow, std::move(frame));
    if (!m_ready.IsNull())
    {
        m_ready();
    }
    return true;
}

void
DrpTxScheduler::Unfetched(const DataFrame& frame)
{
    Unstage(frame.flow);
}

uint64_t
DrpTxScheduler::GetFetched() const
{
    return m_fetched.GetSize();
}

bool
DrpTxScheduler::HasFrame(uint8_t kinds) const
{
    return ((kinds & CONTROL) && !m_control.empty()) ||
           ((kinds & DATA) && m_fetched.GetSize() != 0);
}

Ptr<Packet>
DrpTxScheduler::Dequeue(Mac48Address& to, uint8_t kinds, bool* control)
{
    Frame frame;
    const bool isControl = (kinds & CONTROL) && !m_control.empty();
    if (isControl)
    {
        frame = std::move(m_control.front());
        m_control.pop_front();
    }
    else if ((kinds & DATA) && m_fetched.Pop(m_arbitration, frame))
    {
        Unstage(frame.flow);
    }
    else
    {
        return nullptr;
    }
    if (control)
    {
        *control = isControl;
    }
    NS_LOG_LOGIC("frame of flow " << frame.flow << " leaves, " << GetWaiting() << " wait");
    to = frame.to;
    if (frame.sent && (frame.flow == 0 || IsOpen(frame.flow)))
    {
        frame.sent();
    }
    return frame.packet;
}

uint64_t
DrpTxScheduler::GetWaiting() const
{
    return m_control.size() + m_toFetch.GetSize() + m_fetched.GetSize();
}

uint64_t
DrpTxScheduler::GetDiscarded() const
{
    return m_discarded;
}

} // namespace ns3
