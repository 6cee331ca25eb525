/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-reth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbRethHeader");

NS_OBJECT_ENSURE_REGISTERED(IbRethHeader);

IbRethHeader::IbRethHeader()
    : m_va(0),
      m_rkey(0),
      m_length(0)
{
}

TypeId
IbRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbRethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<IbRethHeader>();
    return tid;
}

TypeId
IbRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbRethHeader::Print(std::ostream& os) const
{
    os << "RETH va=0x" << std::hex << m_va << " rkey=0x" << m_rkey << std::dec
       << " len=" << m_length;
}

uint32_t
IbRethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbRethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_va);
    start.WriteHtonU32(m_rkey);
    start.WriteHtonU32(m_length);
}

uint32_t
IbRethHeader::Deserialize(Buffer::Iterator start)
{
    m_va = start.ReadNtohU64();
    m_rkey = start.ReadNtohU32();
    m_length = start.ReadNtohU32();
    return SIZE;
}

void
IbRethHeader::SetVirtualAddress(uint64_t va)
{
    m_va = va;
}

uint64_t
IbRethHeader::GetVirtualAddress() const
{
    return m_va;
}

void
IbRethHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
IbRethHeader::GetRkey() const
{
    return m_rkey;
}

void
IbRethHeader::SetDmaLength(uint32_t length)
{
    m_length = length;
}

uint32_t
IbRethHeader::GetDmaLength() const
{
    return m_length;
}

} // namespace ns3
