/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-bth-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbBthHeader");

NS_OBJECT_ENSURE_REGISTERED(IbBthHeader);

namespace
{
constexpr uint8_t SE_BIT = 0x80;      // byte 1
constexpr uint8_t PAD_MASK = 0x30;    // byte 1
constexpr uint8_t ACK_REQUEST = 0x80; // byte 8
constexpr uint8_t BECN = 0x40;        // byte 4
} // namespace

IbBthHeader::IbBthHeader()
    : m_opcode(0),
      m_flags(0),
      m_pkey(DEFAULT_PKEY),
      m_destQp(0),
      m_ackRequest(false),
      m_becn(false),
      m_psn(0)
{
}

TypeId
IbBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<IbBthHeader>();
    return tid;
}

TypeId
IbBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbBthHeader::Print(std::ostream& os) const
{
    os << "BTH opcode=0x" << std::hex << unsigned(m_opcode) << std::dec << " dqp=" << m_destQp
       << " psn=" << m_psn << (m_ackRequest ? " A" : "") << (IsSolicited() ? " SE" : "")
       << (m_becn ? " BECN" : "");
}

uint32_t
IbBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbBthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_opcode);
    start.WriteU8(m_flags);
    start.WriteHtonU16(m_pkey);
    start.WriteU8(m_becn ? BECN : 0); // FECN, BECN, reserved
    start.WriteU8((m_destQp >> 16) & 0xff);
    start.WriteHtonU16(m_destQp & 0xffff);
    start.WriteU8(m_ackRequest ? ACK_REQUEST : 0);
    start.WriteU8((m_psn >> 16) & 0xff);
    start.WriteHtonU16(m_psn & 0xffff);
}

uint32_t
IbBthHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadU8();
    m_flags = start.ReadU8();
    m_pkey = start.ReadNtohU16();
    m_becn = (start.ReadU8() & BECN) != 0;
    m_destQp = uint32_t(start.ReadU8()) << 16;
    m_destQp |= start.ReadNtohU16();
    m_ackRequest = (start.ReadU8() & ACK_REQUEST) != 0;
    m_psn = uint32_t(start.ReadU8()) << 16;
    m_psn |= start.ReadNtohU16();
    return SIZE;
}

void
IbBthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
IbBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
IbBthHeader::SetSolicited(bool solicited)
{
    m_flags = solicited ? (m_flags | SE_BIT) : (m_flags & ~SE_BIT);
}

bool
IbBthHeader::IsSolicited() const
{
    return (m_flags & SE_BIT) != 0;
}

void
IbBthHeader::SetPadCount(uint8_t padCount)
{
    m_flags = (m_flags & ~PAD_MASK) | ((padCount & 0x3) << 4);
}

uint8_t
IbBthHeader::GetPadCount() const
{
    return (m_flags & PAD_MASK) >> 4;
}

void
IbBthHeader::SetPkey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
IbBthHeader::GetPkey() const
{
    return m_pkey;
}

void
IbBthHeader::SetDestQp(uint32_t qpn)
{
    m_destQp = qpn & MAX_24;
}

uint32_t
IbBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
IbBthHeader::SetAckRequest(bool ackRequest)
{
    m_ackRequest = ackRequest;
}

bool
IbBthHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
IbBthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & MAX_24;
}

uint32_t
IbBthHeader::GetPsn() const
{
    return m_psn;
}

void
IbBthHeader::SetBecn(bool becn)
{
    m_becn = becn;
}

bool
IbBthHeader::GetBecn() const
{
    return m_becn;
}

} // namespace ns3
