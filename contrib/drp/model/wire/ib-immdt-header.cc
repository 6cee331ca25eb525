/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-immdt-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbImmDtHeader");

NS_OBJECT_ENSURE_REGISTERED(IbImmDtHeader);

IbImmDtHeader::IbImmDtHeader()
    : m_imm(0)
{
}

TypeId
IbImmDtHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbImmDtHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<IbImmDtHeader>();
    return tid;
}

TypeId
IbImmDtHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbImmDtHeader::Print(std::ostream& os) const
{
    os << "ImmDt 0x" << std::hex << m_imm << std::dec;
}

uint32_t
IbImmDtHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbImmDtHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_imm);
}

uint32_t
IbImmDtHeader::Deserialize(Buffer::Iterator start)
{
    m_imm = start.ReadNtohU32();
    return SIZE;
}

void
IbImmDtHeader::SetImmediate(uint32_t imm)
{
    m_imm = imm;
}

uint32_t
IbImmDtHeader::GetImmediate() const
{
    return m_imm;
}

} // namespace ns3
