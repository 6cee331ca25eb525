/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-atomic-ack-eth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbAtomicAckEthHeader");

NS_OBJECT_ENSURE_REGISTERED(IbAtomicAckEthHeader);

IbAtomicAckEthHeader::IbAtomicAckEthHeader()
    : m_original(0)
{
}

TypeId
IbAtomicAckEthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbAtomicAckEthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<IbAtomicAckEthHeader>();
    return tid;
}

TypeId
IbAtomicAckEthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbAtomicAckEthHeader::Print(std::ostream& os) const
{
    os << "AtomicAckETH original=" << m_original;
}

uint32_t
IbAtomicAckEthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbAtomicAckEthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_original);
}

uint32_t
IbAtomicAckEthHeader::Deserialize(Buffer::Iterator start)
{
    m_original = start.ReadNtohU64();
    return SIZE;
}

void
IbAtomicAckEthHeader::SetOriginal(uint64_t value)
{
    m_original = value;
}

uint64_t
IbAtomicAckEthHeader::GetOriginal() const
{
    return m_original;
}

} // namespace ns3
