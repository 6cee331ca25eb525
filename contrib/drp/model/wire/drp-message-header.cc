/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-message-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpMessageHeader");

NS_OBJECT_ENSURE_REGISTERED(DrpMessageHeader);

DrpMessageHeader::DrpMessageHeader()
    : m_opcode(SEND),
      m_dqpn(0),
      m_flags(0),
      m_sqpn(0),
      m_imm(0),
      m_rkey(0),
      m_swapAdd(0),
      m_compare(0)
{
}

TypeId
DrpMessageHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DrpMessageHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<DrpMessageHeader>();
    return tid;
}

TypeId
DrpMessageHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
DrpMessageHeader::Print(std::ostream& os) const
{
    switch (m_opcode)
    {
    case SEND:
        os << "SEND";
        break;
    case SEND_WITH_IMM:
        os << "SEND_WITH_IMM";
        break;
    case WRITE_WITH_IMM:
        os << "WRITE_WITH_IMM";
        break;
    case COMPARE_SWAP:
        os << "COMPARE_SWAP";
        break;
    case FETCH_ADD:
        os << "FETCH_ADD";
        break;
    default:
        os << "opcode=0x" << std::hex << uint32_t(m_opcode) << std::dec;
        break;
    }
    os << " dqpn=" << m_dqpn << " sqpn=" << m_sqpn << (IsSolicited() ? " se" : "");
    if (HasImmediate())
    {
        os << " imm=0x" << std::hex << m_imm << std::dec;
    }
    if (m_opcode == WRITE_WITH_IMM || IsAtomic())
    {
        os << " rkey=0x" << std::hex << m_rkey << std::dec;
    }
    if (m_opcode == COMPARE_SWAP)
    {
        os << " compare=" << m_compare << " swap=" << m_swapAdd;
    }
    else if (m_opcode == FETCH_ADD)
    {
        os << " add=" << m_swapAdd;
    }
}

uint32_t
DrpMessageHeader::SizeOf(uint8_t opcode)
{
    return SIZE + ((opcode == COMPARE_SWAP || opcode == FETCH_ADD) ? ATOMIC_SIZE : 0);
}

uint32_t
DrpMessageHeader::GetSerializedSize() const
{
    return SizeOf(m_opcode);
}

void
DrpMessageHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32((uint32_t(m_opcode) << 24) | m_dqpn);
    start.WriteHtonU32((uint32_t(m_flags) << 24) | m_sqpn);
    start.WriteHtonU32(m_imm);
    start.WriteHtonU32(m_rkey);
    if (IsAtomic())
    {
        start.WriteHtonU64(m_swapAdd);
        start.WriteHtonU64(m_compare);
    }
}

uint32_t
DrpMessageHeader::Deserialize(Buffer::Iterator start)
{
    const uint32_t first = start.ReadNtohU32();
    const uint32_t second = start.ReadNtohU32();
    m_opcode = uint8_t(first >> 24);
    m_dqpn = first & MAX_QPN;
    m_flags = uint8_t(second >> 24);
    m_sqpn = second & MAX_QPN;
    m_imm = start.ReadNtohU32();
    m_rkey = start.ReadNtohU32();
    m_swapAdd = 0;
    m_compare = 0;
    if (IsAtomic())
    {
        m_swapAdd = start.ReadNtohU64();
        m_compare = start.ReadNtohU64();
    }
    return GetSerializedSize();
}

void
DrpMessageHeader::SetOpcode(Opcode opcode)
{
    m_opcode = opcode;
}

uint8_t
DrpMessageHeader::GetOpcode() const
{
    return m_opcode;
}

void
DrpMessageHeader::SetDestQpn(uint32_t qpn)
{
    m_dqpn = qpn & MAX_QPN;
}

uint32_t
DrpMessageHeader::GetDestQpn() const
{
    return m_dqpn;
}

void
DrpMessageHeader::SetSourceQpn(uint32_t qpn)
{
    m_sqpn = qpn & MAX_QPN;
}

uint32_t
DrpMessageHeader::GetSourceQpn() const
{
    return m_sqpn;
}

void
DrpMessageHeader::SetImmediate(uint32_t imm)
{
    m_imm = imm;
}

uint32_t
DrpMessageHeader::GetImmediate() const
{
    return m_imm;
}

void
DrpMessageHeader::SetSolicited(bool solicited)
{
    m_flags = solicited ? (m_flags | FLAG_SE) : (m_flags & ~FLAG_SE);
}

bool
DrpMessageHeader::IsSolicited() const
{
    return (m_flags & FLAG_SE) != 0;
}

void
DrpMessageHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
DrpMessageHeader::GetRkey() const
{
    return m_rkey;
}

void
DrpMessageHeader::SetSwapAdd(uint64_t value)
{
    m_swapAdd = value;
}

uint64_t
DrpMessageHeader::GetSwapAdd() const
{
    return m_swapAdd;
}

void
DrpMessageHeader::SetCompare(uint64_t value)
{
    m_compare = value;
}

uint64_t
DrpMessageHeader::GetCompare() const
{
    return m_compare;
}

bool
DrpMessageHeader::IsAtomic() const
{
    return m_opcode == COMPARE_SWAP || m_opcode == FETCH_ADD;
}

bool
DrpMessageHeader::IsSend() const
{
    return m_opcode == SEND || m_opcode == SEND_WITH_IMM;
}

bool
DrpMessageHeader::HasImmediate() const
{
    return m_opcode == SEND_WITH_IMM || m_opcode == WRITE_WITH_IMM;
}

bool
DrpMessageHeader::IsWellFormed() const
{
    if (m_opcode != SEND && m_opcode != SEND_WITH_IMM && m_opcode != WRITE_WITH_IMM && !IsAtomic())
    {
        return false;
    }
    // An atomic names no solicited event; COMPARE is FETCH_ADD's reserved field.
    return (m_flags & ~FLAG_SE) == 0 && (HasImmediate() || m_imm == 0) &&
           (m_opcode == WRITE_WITH_IMM || IsAtomic() || m_rkey == 0) &&
           (!IsAtomic() || m_flags == 0) && (m_opcode == COMPARE_SWAP || m_compare == 0) &&
           (IsAtomic() || m_swapAdd == 0);
}

bool
DrpMessageHeader::operator==(const DrpMessageHeader& other) const
{
    return m_opcode == other.m_opcode && m_dqpn == other.m_dqpn && m_flags == other.m_flags &&
           m_sqpn == other.m_sqpn && m_imm == other.m_imm && m_rkey == other.m_rkey &&
           m_swapAdd == other.m_swapAdd && m_compare == other.m_compare;
}

} // namespace ns3
