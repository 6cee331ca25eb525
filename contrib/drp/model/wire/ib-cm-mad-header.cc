/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-cm-mad-header.h"

#include "ns3/log.h"

#include <algorithm>
#include <array>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbCmMadHeader");

NS_OBJECT_ENSURE_REGISTERED(IbCmMadHeader);

namespace
{
constexpr uint32_t COMMON_SIZE = 24;
constexpr uint32_t DATA_SIZE = IbCmMadHeader::SIZE - COMMON_SIZE;
constexpr uint8_t BASE_VERSION = 1;
constexpr uint8_t CLASS_VERSION = 2;
constexpr uint8_t METHOD_SEND = 0x03;
constexpr uint16_t LID_PERMISSIVE = 0xffff; // RoCE: no LIDs
constexpr uint8_t HOP_LIMIT = 64;

/// The message's 232 bytes, written and read at the specification's offsets.
using Data = std::array<uint8_t, DATA_SIZE>;

void
Put(Data& d, uint32_t offset, uint64_t value, uint32_t bytes)
{
    for (uint32_t k = 0; k < bytes; ++k)
    {
        d[offset + k] = (value >> (8 * (bytes - 1 - k))) & 0xff;
    }
}

uint64_t
Get(const Data& d, uint32_t offset, uint32_t bytes)
{
    uint64_t value = 0;
    for (uint32_t k = 0; k < bytes; ++k)
    {
        value = (value << 8) | d[offset + k];
    }
    return value;
}

/// An IPv4-mapped GID (::ffff:a.b.c.d), as RoCEv2 forms it.
void
PutGid(Data& d, uint32_t offset, Ipv4Address address)
{
    Put(d, offset + 10, 0xffff, 2);
    Put(d, offset + 12, address.Get(), 4);
}

Ipv4Address
GetGid(const Data& d, uint32_t offset)
{
    return Ipv4Address(static_cast<uint32_t>(Get(d, offset + 12, 4)));
}

/// Where a message's private data starts.
uint32_t
PrivateDataOffset(uint16_t attribute)
{
    switch (attribute)
    {
    case IbCmMadHeader::REQ:
        return 140;
    case IbCmMadHeader::REP:
        return 36;
    case IbCmMadHeader::REJ:
        return 84;
    case IbCmMadHeader::DREQ:
        return 12;
    case IbCmMadHeader::RTU:
    case IbCmMadHeader::DREP:
        return 8;
    default:
        return DATA_SIZE;
    }
}
} // namespace

IbCmMadHeader::IbCmMadHeader()
    : m_baseVersion(BASE_VERSION),
      m_mgmtClass(MGMT_CLASS_CM),
      m_classVersion(CLASS_VERSION),
      m_method(METHOD_SEND),
      m_transactionId(0),
      m_attribute(REQ)
{
}

TypeId
IbCmMadHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbCmMadHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<IbCmMadHeader>();
    return tid;
}

TypeId
IbCmMadHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbCmMadHeader::Print(std::ostream& os) const
{
    os << "CM " << GetAttributeName(m_attribute) << " tid=" << m_transactionId
       << " lcid=" << m_fields.localCommId << " rcid=" << m_fields.remoteCommId;
    if (m_attribute == REQ || m_attribute == REP)
    {
        os << " qpn=" << m_fields.localQpn << " psn=" << m_fields.startingPsn;
    }
    if (m_attribute == REJ)
    {
        os << " reason=" << m_fields.rejectReason;
    }
}

uint32_t
IbCmMadHeader::GetSerializedSize() const
{
    return SIZE;
}

uint32_t
IbCmMadHeader::PrivateDataSize(uint16_t attribute)
{
    return DATA_SIZE - PrivateDataOffset(attribute);
}

const char*
IbCmMadHeader::GetAttributeName(uint16_t attribute)
{
    switch (attribute)
    {
    case REQ:
        return "REQ";
    case MRA:
        return "MRA";
    case REJ:
        return "REJ";
    case REP:
        return "REP";
    case RTU:
        return "RTU";
    case DREQ:
        return "DREQ";
    case DREP:
        return "DREP";
    default:
        return "unknown";
    }
}

void
IbCmMadHeader::SerializeReq(Buffer::Iterator i) const
{
    const Fields& f = m_fields;
    Data d{};
    Put(d, 0, f.localCommId, 4);
    Put(d, 8, f.serviceId, 8);
    Put(d, 32, (uint32_t(f.localQpn & 0xffffff) << 8) | f.responderResources, 4);
    Put(d, 39, f.initiatorDepth, 1);
    Put(d, 43, (f.cmResponseTimeout & 0x1f) << 3, 1); // RC (0), no flow control
    Put(d,
        44,
        (uint32_t(f.startingPsn & 0xffffff) << 8) | ((f.cmResponseTimeout & 0x1f) << 3) |
            (f.retryCount & 0x7),
        4);
    Put(d, 48, 0xffff, 2); // the default partition
    Put(d, 50, ((f.pathMtu & 0xf) << 4) | (f.rnrRetryCount & 0x7), 1);
    Put(d, 51, (f.maxCmRetries & 0xf) << 4, 1);
    Put(d, 52, LID_PERMISSIVE, 2);
    Put(d, 54, LID_PERMISSIVE, 2);
    PutGid(d, 56, f.localAddress);
    PutGid(d, 72, f.remoteAddress);
    Put(d, 93, HOP_LIMIT, 1);
    Put(d, 95, (f.localAckTimeout & 0x1f) << 3, 1);
    std::copy(f.privateData.begin(), f.privateData.end(), d.begin() + PrivateDataOffset(REQ));
    i.Write(d.data(), d.size());
}

void
IbCmMadHeader::DeserializeReq(Buffer::Iterator i)
{
    Data d;
    i.Read(d.data(), d.size());
    Fields& f = m_fields;
    f.localCommId = Get(d, 0, 4);
    f.serviceId = Get(d, 8, 8);
    f.localQpn = Get(d, 32, 3);
    f.responderResources = Get(d, 35, 1);
    f.initiatorDepth = Get(d, 39, 1);
    f.startingPsn = Get(d, 44, 3);
    f.cmResponseTimeout = Get(d, 47, 1) >> 3;
    f.retryCount = Get(d, 47, 1) & 0x7;
    f.pathMtu = Get(d, 50, 1) >> 4;
    f.rnrRetryCount = Get(d, 50, 1) & 0x7;
    f.maxCmRetries = Get(d, 51, 1) >> 4;
    f.localAddress = GetGid(d, 56);
    f.remoteAddress = GetGid(d, 72);
    f.localAckTimeout = Get(d, 95, 1) >> 3;
    f.privateData.assign(d.begin() + PrivateDataOffset(REQ), d.end());
}

void
IbCmMadHeader::SerializeRep(Buffer::Iterator i) const
{
    const Fields& f = m_fields;
    Data d{};
    Put(d, 0, f.localCommId, 4);
    Put(d, 4, f.remoteCommId, 4);
    Put(d, 12, uint32_t(f.localQpn & 0xffffff) << 8, 4);
    Put(d, 20, uint32_t(f.startingPsn & 0xffffff) << 8, 4);
    Put(d, 24, f.responderResources, 1);
    Put(d, 25, f.initiatorDepth, 1);
    Put(d, 27, (f.rnrRetryCount & 0x7) << 5, 1);
    std::copy(f.privateData.begin(), f.privateData.end(), d.begin() + PrivateDataOffset(REP));
    i.Write(d.data(), d.size());
}

void
IbCmMadHeader::DeserializeRep(Buffer::Iterator i)
{
    Data d;
    i.Read(d.data(), d.size());
    Fields& f = m_fields;
    f.localCommId = Get(d, 0, 4);
    f.remoteCommId = Get(d, 4, 4);
    f.localQpn = Get(d, 12, 3);
    f.startingPsn = Get(d, 20, 3);
    f.responderResources = Get(d, 24, 1);
    f.initiatorDepth = Get(d, 25, 1);
    f.rnrRetryCount = Get(d, 27, 1) >> 5;
    f.privateData.assign(d.begin() + PrivateDataOffset(REP), d.end());
}

void
IbCmMadHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_baseVersion);
    start.WriteU8(m_mgmtClass);
    start.WriteU8(m_classVersion);
    start.WriteU8(m_method);
    start.WriteHtonU16(0); // Status
    start.WriteHtonU16(0); // ClassSpecific
    start.WriteHtonU64(m_transactionId);
    start.WriteHtonU16(m_attribute);
    start.WriteHtonU16(0); // reserved
    start.WriteHtonU32(0); // AttributeModifier
    if (m_attribute == REQ)
    {
        SerializeReq(start);
        return;
    }
    if (m_attribute == REP)
    {
        SerializeRep(start);
        return;
    }
    const Fields& f = m_fields;
    Data d{};
    Put(d, 0, f.localCommId, 4);
    Put(d, 4, f.remoteCommId, 4);
    if (m_attribute == REJ)
    {
        Put(d, 8, (f.messageRejected & 0x3) << 6, 1);
        Put(d, 10, f.rejectReason, 2);
    }
    if (m_attribute == DREQ)
    {
        Put(d, 8, uint32_t(f.localQpn & 0xffffff) << 8, 4);
    }
    std::copy(f.privateData.begin(),
              f.privateData.end(),
              d.begin() + PrivateDataOffset(m_attribute));
    start.Write(d.data(), d.size());
}

uint32_t
IbCmMadHeader::Deserialize(Buffer::Iterator start)
{
    m_baseVersion = start.ReadU8();
    m_mgmtClass = start.ReadU8();
    m_classVersion = start.ReadU8();
    m_method = start.ReadU8();
    start.Next(4); // Status, ClassSpecific
    m_transactionId = start.ReadNtohU64();
    m_attribute = start.ReadNtohU16();
    start.Next(6); // reserved, AttributeModifier
    m_fields = Fields();
    if (m_attribute == REQ)
    {
        DeserializeReq(start);
        return SIZE;
    }
    if (m_attribute == REP)
    {
        DeserializeRep(start);
        return SIZE;
    }
    Data d;
    start.Read(d.data(), d.size());
    m_fields.localCommId = Get(d, 0, 4);
    m_fields.remoteCommId = Get(d, 4, 4);
    if (m_attribute == REJ)
    {
        m_fields.messageRejected = Get(d, 8, 1) >> 6;
        m_fields.rejectReason = Get(d, 10, 2);
    }
    if (m_attribute == DREQ)
    {
        m_fields.localQpn = Get(d, 8, 3);
    }
    m_fields.privateData.assign(d.begin() + PrivateDataOffset(m_attribute), d.end());
    return SIZE;
}

void
IbCmMadHeader::SetAttribute(Attribute attribute)
{
    m_attribute = attribute;
    if (m_fields.privateData.size() > PrivateDataSize(attribute))
    {
        m_fields.privateData.resize(PrivateDataSize(attribute));
    }
}

uint16_t
IbCmMadHeader::GetAttribute() const
{
    return m_attribute;
}

void
IbCmMadHeader::SetTransactionId(uint64_t id)
{
    m_transactionId = id;
}

uint64_t
IbCmMadHeader::GetTransactionId() const
{
    return m_transactionId;
}

void
IbCmMadHeader::SetFields(const Fields& fields)
{
    m_fields = fields;
    if (m_fields.privateData.size() > PrivateDataSize(m_attribute))
    {
        m_fields.privateData.resize(PrivateDataSize(m_attribute));
    }
}

const IbCmMadHeader::Fields&
IbCmMadHeader::GetFields() const
{
    return m_fields;
}

bool
IbCmMadHeader::IsWellFormed() const
{
    return m_baseVersion == BASE_VERSION && m_mgmtClass == MGMT_CLASS_CM &&
           m_classVersion == CLASS_VERSION && m_method == METHOD_SEND &&
           PrivateDataOffset(m_attribute) < DATA_SIZE && m_attribute != MRA;
}

} // namespace ns3
