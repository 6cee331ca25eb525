/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-header.h"

#include "ns3/log.h"

#include <bitset>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpHeader");

NS_OBJECT_ENSURE_REGISTERED(DrpHeader);

namespace
{
/// Frame types: exactly one of these bits names what a frame is.
constexpr uint8_t TYPE_MASK =
    DrpHeader::REQ | DrpHeader::REQ_ACK | DrpHeader::DATA | DrpHeader::REL | DrpHeader::REL_ACK;
} // namespace

DrpHeader::DrpHeader()
    : m_ctrl(0),
      m_status(0),
      m_tid(0),
      m_sba(0),
      m_dba(0),
      m_len(0),
      m_sn(0),
      m_ackn(0)
{
}

TypeId
DrpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DrpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<DrpHeader>();
    return tid;
}

TypeId
DrpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
DrpHeader::Print(std::ostream& os) const
{
    static const char* names[] =
        {"REQ", "REQ_ACK", "DATA", "REL", "REL_ACK", "READ", "INDIRECT", "ACK"};
    os << "DRP [";
    bool first = true;
    for (int bit = 0; bit < 8; ++bit)
    {
        if (m_ctrl & (1 << bit))
        {
            os << (first ? "" : "|") << names[bit];
            first = false;
        }
    }
    os << "]";
    if (m_ctrl & REQ_ACK)
    {
        os << " status=" << (GetReplyStatus() == VALID ? "valid" : "invalid");
        if (GetReplyStatus() == INVALID && GetNak() != REGISTRATION)
        {
            static const char* naks[] = {"registration",
                                         "rnr",
                                         "invalid-request",
                                         "remote-access",
                                         "remote-operation"};
            const uint8_t nak = GetNak();
            os << " nak=" << (nak < NAK_COUNT ? naks[nak] : "reserved");
        }
    }
    if (HasMessage())
    {
        os << " msg";
    }
    if (IsEcnCapable())
    {
        static const char* ecn[] = {"Not-ECT", "ECT(1)", "ECT(0)", "CE"};
        os << " ecn=" << ecn[GetEcn()];
    }
    if (HasTelemetry())
    {
        os << " int";
    }
    if (HasCongestionNotification())
    {
        os << " cnp";
    }
    os << " tid=" << m_tid << " sba=0x" << std::hex << m_sba << " dba=0x" << m_dba << std::dec
       << " len=" << m_len << " sn=" << m_sn;
    if (m_ctrl & ACK)
    {
        os << " ackn=" << m_ackn;
    }
}

uint32_t
DrpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
DrpHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_ctrl);
    start.WriteU8(m_status);
    start.WriteHtonU16(m_tid);
    start.WriteHtonU64(m_sba);
    start.WriteHtonU64(m_dba);
    start.WriteHtonU32(m_len);
    start.WriteHtonU32(m_sn);
    start.WriteHtonU32(m_ackn);
}

uint32_t
DrpHeader::Deserialize(Buffer::Iterator start)
{
    m_ctrl = start.ReadU8();
    m_status = start.ReadU8();
    m_tid = start.ReadNtohU16();
    m_sba = start.ReadNtohU64();
    m_dba = start.ReadNtohU64();
    m_len = start.ReadNtohU32();
    m_sn = start.ReadNtohU32();
    m_ackn = start.ReadNtohU32();
    return SIZE;
}

void
DrpHeader::SetControl(uint8_t ctrl)
{
    m_ctrl = ctrl;
}

uint8_t
DrpHeader::GetControl() const
{
    return m_ctrl;
}

void
DrpHeader::SetFlag(uint8_t flag)
{
    m_ctrl |= flag;
}

bool
DrpHeader::HasFlag(Flag flag) const
{
    return (m_ctrl & flag) != 0;
}

void
DrpHeader::SetStatus(uint8_t status)
{
    m_status = status;
}

uint8_t
DrpHeader::GetStatus() const
{
    return m_status;
}

uint8_t
DrpHeader::GetReplyStatus() const
{
    return m_status & STATUS_REPLY_MASK;
}

void
DrpHeader::SetEcn(Ecn ecn)
{
    m_status = (m_status & ~STATUS_ECN_MASK) | (uint8_t(ecn) << STATUS_ECN_SHIFT);
}

DrpHeader::Ecn
DrpHeader::GetEcn() const
{
    return Ecn((m_status & STATUS_ECN_MASK) >> STATUS_ECN_SHIFT);
}

bool
DrpHeader::IsEcnCapable() const
{
    return GetEcn() != NOT_ECT;
}

void
DrpHeader::SetCongestionNotification(bool cnp)
{
    m_status = cnp ? (m_status | STATUS_CNP) : (m_status & ~STATUS_CNP);
}

bool
DrpHeader::HasCongestionNotification() const
{
    return (m_status & STATUS_CNP) != 0;
}

void
DrpHeader::SetTid(uint16_t tid)
{
    m_tid = tid;
}

uint16_t
DrpHeader::GetTid() const
{
    return m_tid;
}

void
DrpHeader::SetSba(uint64_t sba)
{
    m_sba = sba;
}

uint64_t
DrpHeader::GetSba() const
{
    return m_sba;
}

void
DrpHeader::SetDba(uint64_t dba)
{
    m_dba = dba;
}

uint64_t
DrpHeader::GetDba() const
{
    return m_dba;
}

void
DrpHeader::SetLength(uint32_t len)
{
    m_len = len;
}

uint32_t
DrpHeader::GetLength() const
{
    return m_len;
}

void
DrpHeader::SetSequence(uint32_t sn)
{
    m_sn = sn;
}

uint32_t
DrpHeader::GetSequence() const
{
    return m_sn;
}

void
DrpHeader::SetAckNumber(uint32_t ackn)
{
    m_ackn = ackn;
    m_ctrl |= ACK;
}

uint32_t
DrpHeader::GetAckNumber() const
{
    return m_ackn;
}

bool
DrpHeader::IsRead() const
{
    return HasFlag(READ);
}

bool
DrpHeader::IsFromInitiator() const
{
    if (m_ctrl & (REQ | REL))
    {
        return true;
    }
    if (m_ctrl & REQ_ACK)
    {
        // A REQ_ACK with ACK is the initiator's confirmation of a read.
        return HasFlag(ACK);
    }
    if (m_ctrl & REL_ACK)
    {
        return false;
    }
    // Data flows initiator->responder on a write and back on a read; pure
    // acknowledgements flow the other way.
    bool data = HasFlag(DATA);
    return data != IsRead();
}

bool
DrpHeader::MarkCongestion(Ptr<Packet> payload)
{
    DrpHeader header;
    if (payload->GetSize() < SIZE)
    {
        return false;
    }
    payload->PeekHeader(header);
    if (!header.IsEcnCapable())
    {
        return false;
    }
    payload->RemoveHeader(header);
    header.SetEcn(CE);
    payload->AddHeader(header);
    return true;
}

void
DrpHeader::SetTelemetry(bool telemetry)
{
    m_status = telemetry ? (m_status | STATUS_INT) : (m_status & ~STATUS_INT);
}

bool
DrpHeader::HasTelemetry() const
{
    return (m_status & STATUS_INT) != 0;
}

void
DrpHeader::SetMessage(bool message)
{
    m_status = (m_status & ~STATUS_CONTEXT_MASK) | (message ? STATUS_MSG : 0);
}

bool
DrpHeader::HasMessage() const
{
    return (m_ctrl & REQ) != 0 && (m_status & STATUS_CONTEXT_MASK) == STATUS_MSG;
}

void
DrpHeader::SetNak(Nak nak)
{
    m_status = (m_status & ~STATUS_CONTEXT_MASK) |
               ((uint8_t(nak) << STATUS_NAK_SHIFT) & STATUS_CONTEXT_MASK);
}

DrpHeader::Nak
DrpHeader::GetNak() const
{
    if ((m_ctrl & REQ_ACK) == 0 || GetReplyStatus() != INVALID)
    {
        return REGISTRATION;
    }
    return Nak((m_status & STATUS_CONTEXT_MASK) >> STATUS_NAK_SHIFT);
}

bool
DrpHeader::IsWellFormed() const
{
    if (HasCongestionNotification() && !HasFlag(ACK))
    {
        return false;
    }
    const uint8_t context = m_status & STATUS_CONTEXT_MASK;
    // MSG in any REQ: a write's carries a message, a read's an atomic (which
    // of the two the extension's OPCODE must match is the transport's check).
    const bool msg = context == STATUS_MSG && (m_ctrl & TYPE_MASK) == REQ;
    const bool nak = HasFlag(REQ_ACK) && GetReplyStatus() == INVALID && GetNak() < NAK_COUNT;
    if (context != 0 && !msg && !nak)
    {
        return false;
    }
    std::bitset<8> types(m_ctrl & TYPE_MASK);
    if (HasTelemetry() && !HasFlag(DATA) && !(types.count() == 0 && HasFlag(ACK)))
    {
        return false; // INT rides on data and on pure acknowledgements only
    }
    if (types.count() == 0)
    {
        return HasFlag(ACK) && GetReplyStatus() == VALID;
    }
    if (types.count() != 1)
    {
        return false;
    }
    // The reply code means something in a reply only; elsewhere it must be 0.
    return HasFlag(REQ_ACK) || GetReplyStatus() == VALID;
}

} // namespace ns3
