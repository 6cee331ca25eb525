/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-tx-engine.h"

#include "ns3/drp-compat.h"
#include "ns3/drp-int-header.h"

namespace ns3
{

DrpTxEngine::DrpTxEngine()
{
    m_scheduler.SetWakeCallback(MakeCallback(&DrpTxEngine::FetchAhead, this));
}

void
DrpTxEngine::SetPcieLink(Ptr<PcieLink> pcie)
{
    m_pcie = pcie;
}

void
DrpTxEngine::SetProcessingDelay(Time delay)
{
    m_processing = delay;
}

void
DrpTxEngine::SetPacingOverhead(uint32_t bytes)
{
    m_scheduler.SetPacingOverhead(bytes);
}

void
DrpTxEngine::SetPrefetch(uint32_t frames)
{
    m_prefetch = frames;
}

uint32_t
DrpTxEngine::GetPrefetch() const
{
    return m_prefetch;
}

void
DrpTxEngine::SetArbitration(DrpTxScheduler::Arbitration arbitration)
{
    m_scheduler.SetArbitration(arbitration);
}

DrpTxScheduler::Arbitration
DrpTxEngine::GetArbitration() const
{
    return m_scheduler.GetArbitration();
}

void
DrpTxEngine::SetPrefetchPerFlow(uint32_t frames)
{
    m_scheduler.SetStageLimit(frames);
}

uint32_t
DrpTxEngine::GetPrefetchPerFlow() const
{
    return m_scheduler.GetStageLimit();
}

void
DrpTxEngine::SetReadBytes(uint32_t bytes)
{
    m_readAhead.SetRequestBytes(bytes);
}

uint32_t
DrpTxEngine::GetReadBytes() const
{
    return m_readAhead.GetRequestBytes();
}

void
DrpTxEngine::SetReadyCallback(Callback<void> ready)
{
    m_scheduler.SetReadyCallback(ready);
}

uint64_t
DrpTxEngine::OpenFlow()
{
    return m_scheduler.OpenFlow();
}

void
DrpTxEngine::CloseFlow(uint64_t flow)
{
    m_readAhead.Forget(flow);
    if (m_scheduler.CloseFlow(flow) > 0 && m_pcie && !m_stopped)
    {
        // Frames read ahead were discarded: their room is read ahead again
        // now, as when a frame leaves. Nothing else would ask (the port may
        // have nothing left to pull), and transfers would wait for good.
        FetchAhead();
    }
}

void
DrpTxEngine::SetFlowRate(uint64_t flow, DataRate rate)
{
    m_scheduler.SetFlowRate(flow, rate);
    FetchAhead(); // a higher rate may make a frame due now
}

DataRate
DrpTxEngine::GetFlowRate(uint64_t flow) const
{
    return m_scheduler.GetFlowRate(flow);
}

void
DrpTxEngine::SendControl(Ptr<Packet> packet, Mac48Address to, uint64_t flow, SentCallback&& sent)
{
    // The transmit processing, then the scheduler's control queue.
    drp::Schedule(m_processing, [this, packet, to, flow, sent = std::move(sent)]() {
        m_scheduler.EnqueueControl({packet, to, flow, sent});
    });
}

void
DrpTxEngine::SendProcessedControl(Ptr<Packet> packet, Mac48Address to)
{
    m_scheduler.EnqueueControl({packet, to, 0, nullptr});
}

void
DrpTxEngine::SendData(DrpTxScheduler::DataFrame&& frame)
{
    m_scheduler.EnqueueData(std::move(frame));
    FetchAhead();
}

bool
DrpTxEngine::MayReadAhead() const
{
    return m_fetching + m_scheduler.GetFetched() < m_prefetch;
}

void
DrpTxEngine::FetchAhead()
{
    if (!MayReadAhead())
    {
        return; // most calls: the reads ahead are all taken (no frame made and dropped)
    }
    DrpTxScheduler::DataFrame next;
    while (MayReadAhead() && m_scheduler.TakeNextData(next))
    {
        if (next.mayRead && !next.mayRead())
        {
            m_scheduler.Unfetched(next);
            if (next.unsent)
            {
                next.unsent();
            }
            continue;
        }
        ++m_fetching;
        // The frame waits for its payload on the heap, once: the event that
        // ends the read (and ns-3, which copies it) then copies a pointer,
        // not a header and the frame's callbacks.
        auto fetch = std::make_shared<DrpTxScheduler::DataFrame>(std::move(next));
        if (!m_readAhead.IsOn())
        {
            ReadPayload(fetch);
        }
        else
        {
            ReadAhead(fetch);
        }
    }
}

bool
DrpTxEngine::Fetched(DrpTxScheduler::DataFrame& frame, Ptr<Packet> payload)
{
    --m_fetching;
    if (frame.header.HasTelemetry())
    {
        payload->AddHeader(DrpIntHeader()); // the switches fill it on the way
    }
    payload->AddHeader(frame.header);
    return m_scheduler.AddFetched({payload, frame.to, frame.flow, std::move(frame.sent)});
}

void
DrpTxEngine::ReadPayload(std::shared_ptr<DrpTxScheduler::DataFrame> fetch)
{
    m_pcie->DmaRead(
        fetch->localAddress,
        fetch->header.GetLength(),
        [this, fetch](Ptr<Packet> payload) {
            if (!Fetched(*fetch, payload))
            {
                // Its flow closed while the payload was read: nothing waits
                // for the port, so no departure will read ahead again; this
                // read's place goes to the next frame now.
                FetchAhead();
            }
        },
        m_processing); // transmit processing, in the same event
}

void
DrpTxEngine::ReadAhead(std::shared_ptr<DrpTxScheduler::DataFrame> fetch)
{
    const uint64_t address = fetch->localAddress;
    const uint32_t length = fetch->header.GetLength();
    DrpReadAhead::Source source = m_readAhead.Find(fetch->flow, address, length, fetch->sourceEnd);
    if (!source.chunk)
    {
        ReadPayload(fetch); // a re-sent frame behind the chunks
        return;
    }
    std::shared_ptr<DrpReadAhead::Chunk> chunk = source.chunk;
    auto deliver = [this, fetch, chunk, address, length]() {
        if (!Fetched(*fetch, chunk->Cut(address, length)))
        {
            FetchAhead(); // as in ReadPayload
        }
    };
    if (chunk->data)
    {
        // Read already: only the frame's transmit processing remains.
        drp::Schedule(m_processing, deliver);
    }
    else
    {
        chunk->waiting.emplace_back(deliver);
    }
    for (const auto& opened : source.opened)
    {
        m_pcie->DmaRead(
            opened->start,
            static_cast<uint32_t>(opened->end - opened->start),
            [opened](Ptr<Packet> data) {
                opened->data = data;
                // Frames taken while these run find the data; those waiting go in order.
                auto waiting = std::move(opened->waiting);
                opened->waiting.clear();
                for (auto& frame : waiting)
                {
                    frame();
                }
            },
            m_processing); // the first frame's transmit processing, in the same event
    }
}

uint64_t
DrpTxEngine::GetWaiting() const
{
    return m_scheduler.GetWaiting();
}

void
DrpTxEngine::Stop()
{
    m_stopped = true;
}

} // namespace ns3
