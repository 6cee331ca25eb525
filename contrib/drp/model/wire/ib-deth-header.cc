/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-deth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbDethHeader");

NS_OBJECT_ENSURE_REGISTERED(IbDethHeader);

IbDethHeader::IbDethHeader()
    : m_qkey(GSI_QKEY),
      m_sourceQp(0)
{
}

TypeId
IbDethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbDethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<IbDethHeader>();
    return tid;
}

TypeId
IbDethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbDethHeader::Print(std::ostream& os) const
{
    os << "DETH qkey=0x" << std::hex << m_qkey << std::dec << " sqp=" << m_sourceQp;
}

uint32_t
IbDethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbDethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(m_qkey);
    start.WriteU8(0);
    start.WriteU8((m_sourceQp >> 16) & 0xff);
    start.WriteHtonU16(m_sourceQp & 0xffff);
}

uint32_t
IbDethHeader::Deserialize(Buffer::Iterator start)
{
    m_qkey = start.ReadNtohU32();
    start.ReadU8();
    m_sourceQp = uint32_t(start.ReadU8()) << 16;
    m_sourceQp |= start.ReadNtohU16();
    return SIZE;
}

void
IbDethHeader::SetQkey(uint32_t qkey)
{
    m_qkey = qkey;
}

uint32_t
IbDethHeader::GetQkey() const
{
    return m_qkey;
}

void
IbDethHeader::SetSourceQp(uint32_t qpn)
{
    m_sourceQp = qpn & 0xffffff;
}

uint32_t
IbDethHeader::GetSourceQp() const
{
    return m_sourceQp;
}

} // namespace ns3
