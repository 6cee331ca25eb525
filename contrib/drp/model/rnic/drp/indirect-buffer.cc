/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "indirect-buffer.h"

#include "ns3/drp-check.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IndirectBuffer");

NS_OBJECT_ENSURE_REGISTERED(IndirectBuffer);

TypeId
IndirectBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IndirectBuffer")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<IndirectBuffer>()
            .AddAttribute(
                "Capacity",
                "Payload bytes the buffer holds (1 to 64 MiB). Default 48 KiB: the "
                "block-memory difference of the published prototypes.",
                UintegerValue(49152),
                MakeUintegerAccessor(&IndirectBuffer::SetCapacity, &IndirectBuffer::GetCapacity),
                MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Occupancy",
                            "Payload bytes held.",
                            MakeTraceSourceAccessor(&IndirectBuffer::m_occupancy),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Overflow",
                            "A payload was refused: the buffer was full.",
                            MakeTraceSourceAccessor(&IndirectBuffer::m_overflowTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Flush",
                            "A transfer's payloads were taken out for host memory.",
                            MakeTraceSourceAccessor(&IndirectBuffer::m_flushTrace),
                            "ns3::IndirectBuffer::FlushTracedCallback");
    return tid;
}

IndirectBuffer::IndirectBuffer()
    : m_capacity(49152),
      m_occupancy(0),
      m_overflows(0),
      m_discards(0)
{
    NS_LOG_FUNCTION(this);
}

void
IndirectBuffer::DoDispose()
{
    m_transfers.clear();
    m_occupancy = 0;
    Object::DoDispose();
}

void
IndirectBuffer::SetCapacity(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("IndirectBuffer::Capacity", bytes, 1, 64 << 20);
    m_capacity = bytes;
}

uint32_t
IndirectBuffer::GetCapacity() const
{
    return m_capacity;
}

uint32_t
IndirectBuffer::GetOccupancy() const
{
    return m_occupancy;
}

uint64_t
IndirectBuffer::GetDiscardCount() const
{
    return m_discards;
}

uint64_t
IndirectBuffer::GetOverflowCount() const
{
    return m_overflows;
}

bool
IndirectBuffer::Store(Mac48Address peer,
                      uint16_t tid,
                      uint32_t sequence,
                      uint64_t address,
                      Ptr<const Packet> payload)
{
    NS_LOG_FUNCTION(this << peer << tid << sequence << address);
    auto& transfer = m_transfers[Key(peer, tid)];
    if (transfer.count(sequence))
    {
        return true;
    }
    if (m_occupancy + payload->GetSize() > m_capacity)
    {
        NS_LOG_LOGIC("full: " << m_occupancy << " of " << m_capacity << " bytes");
        if (transfer.empty())
        {
            m_transfers.erase(Key(peer, tid));
        }
        ++m_overflows;
        m_overflowTrace(payload);
        return false;
    }
    transfer[sequence] = Entry{sequence, address, payload};
    m_occupancy += payload->GetSize();
    return true;
}

std::vector<IndirectBuffer::Entry>
IndirectBuffer::Take(Mac48Address peer, uint16_t tid)
{
    NS_LOG_FUNCTION(this << peer << tid);
    std::vector<Entry> entries = Remove(peer, tid);
    uint32_t bytes = 0;
    for (const auto& entry : entries)
    {
        bytes += entry.payload->GetSize();
    }
    if (!entries.empty())
    {
        m_flushTrace(peer, tid, bytes);
    }
    return entries;
}

void
IndirectBuffer::Discard(Mac48Address peer, uint16_t tid)
{
    NS_LOG_FUNCTION(this << peer << tid);
    m_discards += Remove(peer, tid).size();
}

std::vector<IndirectBuffer::Entry>
IndirectBuffer::Remove(Mac48Address peer, uint16_t tid)
{
    std::vector<Entry> entries;
    auto it = m_transfers.find(Key(peer, tid));
    if (it == m_transfers.end())
    {
        return entries;
    }
    uint32_t bytes = 0;
    for (auto& [sequence, entry] : it->second)
    {
        bytes += entry.payload->GetSize();
        entries.push_back(entry);
    }
    m_transfers.erase(it);
    m_occupancy -= bytes;
    return entries;
}

} // namespace ns3
