/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-aeth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbAethHeader");

NS_OBJECT_ENSURE_REGISTERED(IbAethHeader);

IbAethHeader::IbAethHeader()
    : m_syndrome(NO_CREDITS),
      m_msn(0)
{
}

TypeId
IbAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<IbAethHeader>();
    return tid;
}

TypeId
IbAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbAethHeader::Print(std::ostream& os) const
{
    static const char* kinds[] = {"ACK", "RNR_NAK", "reserved", "NAK"};
    os << "AETH " << kinds[GetKind()] << " value=" << unsigned(GetValue()) << " msn=" << m_msn;
}

uint32_t
IbAethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbAethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_syndrome);
    start.WriteU8((m_msn >> 16) & 0xff);
    start.WriteHtonU16(m_msn & 0xffff);
}

uint32_t
IbAethHeader::Deserialize(Buffer::Iterator start)
{
    m_syndrome = start.ReadU8();
    m_msn = uint32_t(start.ReadU8()) << 16;
    m_msn |= start.ReadNtohU16();
    return SIZE;
}

void
IbAethHeader::SetSyndrome(Kind kind, uint8_t value)
{
    m_syndrome = ((kind & 0x3) << 5) | (value & 0x1f);
}

uint8_t
IbAethHeader::GetKind() const
{
    return (m_syndrome >> 5) & 0x3;
}

uint8_t
IbAethHeader::GetValue() const
{
    return m_syndrome & 0x1f;
}

void
IbAethHeader::SetMsn(uint32_t msn)
{
    m_msn = msn & 0xffffff;
}

uint32_t
IbAethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
