/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-tx-scheduler.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpTxScheduler");

DrpTxScheduler::DrpTxScheduler()
    : m_arbitration(ROUND_ROBIN)
{
}

void
DrpTxScheduler::SetArbitration(Arbitration arbitration)
{
    m_arbitration = arbitration;
    // Re-file the flows that wait under the new rule.
    m_ring.clear();
    m_oldestFirst.clear();
    for (const auto& [flow, frames] : m_flows)
    {
        if (!frames.empty())
        {
            MakeEligible(flow);
        }
    }
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
    m_flows.emplace(flow, std::deque<Frame>());
    return flow;
}

void
DrpTxScheduler::CloseFlow(uint64_t flow)
{
    auto it = m_flows.find(flow);
    if (it == m_flows.end())
    {
        return;
    }
    NS_LOG_LOGIC("flow " << flow << " closed, " << it->second.size() << " data frames discarded");
    m_discarded += it->second.size();
    m_waitingData -= it->second.size();
    m_oldestFirst.erase(flow);
    m_flows.erase(it); // a stale entry in m_ring is skipped when its turn comes
}

bool
DrpTxScheduler::IsOpen(uint64_t flow) const
{
    return m_flows.count(flow) != 0;
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
DrpTxScheduler::EnqueueData(Frame frame)
{
    auto it = m_flows.find(frame.flow);
    if (it == m_flows.end())
    {
        ++m_discarded;
        return false;
    }
    bool wasEmpty = it->second.empty();
    it->second.push_back(std::move(frame));
    ++m_waitingData;
    if (wasEmpty)
    {
        MakeEligible(it->first);
    }
    if (!m_ready.IsNull())
    {
        m_ready();
    }
    return true;
}

void
DrpTxScheduler::MakeEligible(uint64_t flow)
{
    if (m_arbitration == ROUND_ROBIN)
    {
        m_ring.push_back(flow);
    }
    else
    {
        m_oldestFirst.insert(flow);
    }
}

bool
DrpTxScheduler::HasFrame() const
{
    return !m_control.empty() || m_waitingData != 0;
}

uint64_t
DrpTxScheduler::PickFlow()
{
    if (m_arbitration == FIFO)
    {
        return *m_oldestFirst.begin();
    }
    while (true)
    {
        uint64_t flow = m_ring.front();
        m_ring.pop_front();
        auto it = m_flows.find(flow);
        if (it != m_flows.end() && !it->second.empty())
        {
            return flow;
        }
    }
}

Ptr<Packet>
DrpTxScheduler::Dequeue(Mac48Address& to)
{
    Frame frame;
    if (!m_control.empty())
    {
        frame = std::move(m_control.front());
        m_control.pop_front();
    }
    else if (m_waitingData != 0)
    {
        uint64_t flow = PickFlow();
        std::deque<Frame>& frames = m_flows[flow];
        frame = std::move(frames.front());
        frames.pop_front();
        --m_waitingData;
        if (frames.empty())
        {
            m_oldestFirst.erase(flow);
        }
        else if (m_arbitration == ROUND_ROBIN)
        {
            m_ring.push_back(flow); // its next turn
        }
    }
    else
    {
        return nullptr;
    }
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
    return m_control.size() + m_waitingData;
}

uint64_t
DrpTxScheduler::GetDiscarded() const
{
    return m_discarded;
}

} // namespace ns3
