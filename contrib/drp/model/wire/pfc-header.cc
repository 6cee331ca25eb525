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
    // bits = ns x bps / 10^9, in 128 bits: ns x bps may exceed 2^64.
    const unsigned __int128 bitsScaled =
        static_cast<unsigned __int128>(time.GetNanoSeconds()) * rate.GetBitRate();
    const unsigned __int128 perQuantum =
        static_cast<unsigned __int128>(BITS_PER_QUANTUM) * 1000000000ULL;
    const unsigned __int128 quanta = (bitsScaled + perQuantum - 1) / perQuantum;
    return quanta >= MAX_QUANTA ? MAX_QUANTA : static_cast<uint16_t>(quanta);
}

} // namespace ns3
