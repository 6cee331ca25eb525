/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-header.h"

#include "ns3/abort.h"

#include <iomanip>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcHeader::PfcHeader()
    : m_opcode(OPCODE_PFC),
      m_vector(0),
      m_quanta{},
      m_complete(true)
{
}

void
PfcHeader::Print(std::ostream& os) const
{
    const std::ios::fmtflags flags = os.flags();
    const char fill = os.fill();
    os << "MAC Control, Opcode: ";
    if (m_opcode == OPCODE_PFC)
    {
        os << "Class Based Flow Control [CBFC] Pause";
    }
    else if (m_opcode == OPCODE_PAUSE)
    {
        os << "Pause";
    }
    else
    {
        os << "Unknown";
    }
    os << " (0x" << std::hex << std::setfill('0') << std::setw(4) << m_opcode
       << "), CBFC Class Enable Vector: 0x" << std::setw(4) << m_vector;
    os.flags(flags);
    os.fill(fill);
    for (uint8_t cls = 0; cls < CLASSES; ++cls)
    {
        if (IsClassEnabled(cls))
        {
            os << ", C" << unsigned(cls);
        }
    }
    os << ", CBFC Class Pause Times:";
    for (uint8_t cls = 0; cls < CLASSES; ++cls)
    {
        os << " C" << unsigned(cls) << ": " << m_quanta[cls];
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_opcode);
    start.WriteHtonU16(m_vector);
    for (uint16_t quanta : m_quanta)
    {
        start.WriteHtonU16(quanta);
    }
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = 0;
    m_vector = 0;
    m_quanta.fill(0);
    m_complete = start.GetRemainingSize() >= SIZE;
    if (!m_complete)
    {
        return 0; // a runt: nothing read, never acted on
    }
    m_opcode = start.ReadNtohU16();
    m_vector = start.ReadNtohU16();
    for (uint16_t& quanta : m_quanta)
    {
        quanta = start.ReadNtohU16();
    }
    return SIZE;
}

void
PfcHeader::SetOpcode(uint16_t opcode)
{
    m_opcode = opcode;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

void
PfcHeader::SetClassEnableVector(uint16_t vector)
{
    m_vector = vector;
}

uint16_t
PfcHeader::GetClassEnableVector() const
{
    return m_vector;
}

void
PfcHeader::SetPause(uint8_t cls, uint16_t quanta)
{
    NS_ABORT_MSG_IF(cls >= CLASSES, "PFC class " << unsigned(cls) << " is not in [0, 7]");
    m_vector |= uint16_t(1u << cls);
    m_quanta[cls] = quanta;
}

bool
PfcHeader::IsClassEnabled(uint8_t cls) const
{
    return cls < CLASSES && (m_vector & (1u << cls)) != 0;
}

void
PfcHeader::SetQuanta(uint8_t cls, uint16_t quanta)
{
    NS_ABORT_MSG_IF(cls >= CLASSES, "PFC class " << unsigned(cls) << " is not in [0, 7]");
    m_quanta[cls] = quanta;
}

uint16_t
PfcHeader::GetQuanta(uint8_t cls) const
{
    return cls < CLASSES ? m_quanta[cls] : 0;
}

bool
PfcHeader::IsWellFormed() const
{
    return m_complete && m_opcode == OPCODE_PFC && (m_vector & 0xFF00) == 0;
}

Mac48Address
PfcHeader::GetPfcDestination()
{
    return Mac48Address("01:80:c2:00:00:01");
}

bool
PfcHeader::IsPfcDestination(const Mac48Address& address)
{
    static const Mac48Address pfc = GetPfcDestination();
    return address == pfc;
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, DataRate rate)
{
    // quanta x 512 x 10^9 < 2^45: exact in integers.
    const uint64_t bps = rate.GetBitRate();
    const uint64_t scaled = uint64_t(quanta) * BITS_PER_QUANTUM * 1000000000ULL;
    return NanoSeconds((scaled + bps - 1) / bps);
}

uint16_t
PfcHeader::TimeToQuanta(Time time, DataRate rate)
{
    if (!time.IsStrictlyPositive())
    {
        return 0;
    }
    // quanta = ceil(ns x bps / perQuantum), capped at MAX_QUANTA, in standard
    // 64-bit integers (ns x bps may exceed 2^64). The cap applies exactly when
    // ns x bps > bound = (MAX_QUANTA - 1) x perQuantum, and, ns and bps being
    // integers, that is when ns > floor(bound / bps). Below it ns x bps <=
    // bound < 2^55: exact.
    const uint64_t ns = static_cast<uint64_t>(time.GetNanoSeconds());
    const uint64_t bps = rate.GetBitRate();
    const uint64_t perQuantum = uint64_t(BITS_PER_QUANTUM) * 1000000000ULL;
    const uint64_t bound = uint64_t(MAX_QUANTA - 1) * perQuantum;
    if (bps == 0)
    {
        return 0;
    }
    if (ns > bound / bps)
    {
        return MAX_QUANTA;
    }
    return static_cast<uint16_t>((ns * bps + perQuantum - 1) / perQuantum);
}

} // namespace ns3
