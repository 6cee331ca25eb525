/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-int-header.h"

#include "drp-header.h"

#include "ns3/log.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpIntHeader");

NS_OBJECT_ENSURE_REGISTERED(DrpIntHeader);

namespace
{
/// The line rates RATE carries, Gb/s, by code.
constexpr std::array<uint64_t, 8> RATES_GBPS{1, 10, 25, 40, 50, 100, 200, 400};

/// \param bits a field's width \return its mask
constexpr uint64_t
Mask(uint32_t bits)
{
    return (uint64_t(1) << bits) - 1;
}
} // namespace

uint64_t
DrpIntHeader::Hop::GetQueueBytes() const
{
    return uint64_t(qlen) * QLEN_UNIT;
}

uint32_t
DrpIntHeader::Hop::NanosecondsSince(const Hop& earlier) const
{
    return uint32_t((timeNs - earlier.timeNs) & Mask(TIME_BITS));
}

uint64_t
DrpIntHeader::Hop::BytesSince(const Hop& earlier) const
{
    return uint64_t((bytes - earlier.bytes) & Mask(BYTES_BITS)) * BYTES_UNIT;
}

DrpIntHeader::DrpIntHeader() = default;

TypeId
DrpIntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DrpIntHeader")
                            .SetParent<Header>()
                            .SetGroupName("Drp")
                            .AddConstructor<DrpIntHeader>();
    return tid;
}

TypeId
DrpIntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
DrpIntHeader::Print(std::ostream& os) const
{
    os << "INT hops=" << unsigned(m_hopCount);
    for (uint8_t i = 0; i < m_hopCount; ++i)
    {
        const Hop& h = m_hops[i];
        os << " [" << h.rateBps / 1000000000 << "Gbps t=" << h.timeNs
           << "ns tx=" << uint64_t(h.bytes) * BYTES_UNIT << "B q=" << h.GetQueueBytes() << "B]";
    }
}

uint32_t
DrpIntHeader::GetSerializedSize() const
{
    return SIZE;
}

void
DrpIntHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_hopCount);
    start.WriteU8(0);
    for (const Hop& h : m_hops)
    {
        const auto code =
            uint64_t(std::find(RATES_GBPS.begin(), RATES_GBPS.end(), h.rateBps / 1000000000) -
                     RATES_GBPS.begin());
        uint64_t word = (code & Mask(3)) << 61;
        word |= (uint64_t(h.timeNs) & Mask(TIME_BITS)) << 37;
        word |= (uint64_t(h.bytes) & Mask(BYTES_BITS)) << 17;
        word |= uint64_t(h.qlen) & Mask(QLEN_BITS);
        start.WriteHtonU64(word);
    }
}

uint32_t
DrpIntHeader::Deserialize(Buffer::Iterator start)
{
    m_hopCount = std::min<uint8_t>(start.ReadU8(), MAX_HOPS);
    start.ReadU8();
    for (Hop& h : m_hops)
    {
        const uint64_t word = start.ReadNtohU64();
        h.rateBps = RATES_GBPS[word >> 61] * 1000000000;
        h.timeNs = uint32_t((word >> 37) & Mask(TIME_BITS));
        h.bytes = uint32_t((word >> 17) & Mask(BYTES_BITS));
        h.qlen = uint32_t(word & Mask(QLEN_BITS));
    }
    return SIZE;
}

bool
DrpIntHeader::IsEncodable(DataRate rate)
{
    const uint64_t bps = rate.GetBitRate();
    return bps % 1000000000 == 0 &&
           std::find(RATES_GBPS.begin(), RATES_GBPS.end(), bps / 1000000000) != RATES_GBPS.end();
}

std::string
DrpIntHeader::GetEncodableRatesText()
{
    std::ostringstream os;
    for (size_t i = 0; i < RATES_GBPS.size(); ++i)
    {
        os << (i == 0 ? "" : ", ") << RATES_GBPS[i] << "Gbps";
    }
    return os.str();
}

void
DrpIntHeader::PushHop(DataRate rate, Time now, uint64_t txBytes, uint64_t queueBytes)
{
    if (m_hopCount >= MAX_HOPS)
    {
        return;
    }
    Hop& h = m_hops[m_hopCount++];
    h.rateBps = rate.GetBitRate();
    h.timeNs = uint32_t(uint64_t(now.GetNanoSeconds()) & Mask(TIME_BITS));
    h.bytes = uint32_t((txBytes / BYTES_UNIT) & Mask(BYTES_BITS));
    h.qlen = uint32_t(std::min<uint64_t>(queueBytes / QLEN_UNIT, Mask(QLEN_BITS)));
}

uint8_t
DrpIntHeader::GetHopCount() const
{
    return m_hopCount;
}

const DrpIntHeader::Hop&
DrpIntHeader::GetHop(uint8_t i) const
{
    return m_hops.at(i);
}

bool
DrpIntHeader::Stamp(Ptr<Packet> payload,
                    DataRate rate,
                    Time now,
                    uint64_t txBytes,
                    uint64_t queueBytes)
{
    DrpHeader header;
    if (payload->GetSize() < DrpHeader::SIZE + SIZE)
    {
        return false;
    }
    payload->PeekHeader(header);
    if (!header.HasTelemetry() || !header.HasFlag(DrpHeader::DATA))
    {
        return false; // an acknowledgement's echo tells of the data's path, not its own
    }
    NS_ABORT_MSG_UNLESS(IsEncodable(rate),
                        "a switch port with InbandTelemetry runs at "
                            << rate << ", which HPCC's telemetry cannot carry; valid port rates: "
                            << GetEncodableRatesText());
    DrpIntHeader telemetry;
    payload->RemoveHeader(header);
    payload->RemoveHeader(telemetry);
    telemetry.PushHop(rate, now, txBytes, queueBytes);
    payload->AddHeader(telemetry);
    payload->AddHeader(header);
    return true;
}

} // namespace ns3
