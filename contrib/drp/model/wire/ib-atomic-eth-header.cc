/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-atomic-eth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbAtomicEthHeader");

NS_OBJECT_ENSURE_REGISTERED(IbAtomicEthHeader);

IbAtomicEthHeader::IbAtomicEthHeader()
    : m_va(0),
      m_rkey(0),
      m_swapAdd(0),
      m_compare(0)
{
}

TypeId
IbAtomicEthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbAtomicEthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<IbAtomicEthHeader>();
    return tid;
}

TypeId
IbAtomicEthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbAtomicEthHeader::Print(std::ostream& os) const
{
    os << "AtomicETH va=0x" << std::hex << m_va << " rkey=0x" << m_rkey << std::dec
       << " swap/add=" << m_swapAdd << " compare=" << m_compare;
}

uint32_t
IbAtomicEthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbAtomicEthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_va);
    start.WriteHtonU32(m_rkey);
    start.WriteHtonU64(m_swapAdd);
    start.WriteHtonU64(m_compare);
}

uint32_t
IbAtomicEthHeader::Deserialize(Buffer::Iterator start)
{
    m_va = start.ReadNtohU64();
    m_rkey = start.ReadNtohU32();
    m_swapAdd = start.ReadNtohU64();
    m_compare = start.ReadNtohU64();
    return SIZE;
}

void
IbAtomicEthHeader::SetVirtualAddress(uint64_t va)
{
    m_va = va;
}

uint64_t
IbAtomicEthHeader::GetVirtualAddress() const
{
    return m_va;
}

void
IbAtomicEthHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
IbAtomicEthHeader::GetRkey() const
{
    return m_rkey;
}

void
IbAtomicEthHeader::SetSwapAdd(uint64_t value)
{
    m_swapAdd = value;
}

uint64_t
IbAtomicEthHeader::GetSwapAdd() const
{
    return m_swapAdd;
}

void
IbAtomicEthHeader::SetCompare(uint64_t value)
{
    m_compare = value;
}

uint64_t
IbAtomicEthHeader::GetCompare() const
{
    return m_compare;
}

} // namespace ns3
