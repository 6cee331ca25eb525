/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pcie-link.h"

#include "ns3/drp-check.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PcieLink");

NS_OBJECT_ENSURE_REGISTERED(PcieLink);

TypeId
PcieLink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PcieLink")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<PcieLink>()
            .AddAttribute("Bandwidth",
                          "TLP bandwidth per direction. Default: PCIe 2.0 x4 "
                          "(4 lanes x 5 GT/s x 8b/10b).",
                          DataRateValue(DataRate("16Gbps")),
                          MakeDataRateAccessor(&PcieLink::SetBandwidth, &PcieLink::GetBandwidth),
                          MakeDataRateChecker())
            .AddAttribute("Latency",
                          "One-way latency of a TLP between RNIC and host memory "
                          "(link, switch-free root complex, memory controller); 0 to 1 ms.",
                          TimeValue(NanoSeconds(250)),
                          MakeTimeAccessor(&PcieLink::SetLatency, &PcieLink::GetLatency),
                          MakeTimeChecker())
            .AddAttribute("DmaSetupTime",
                          "Time a DMA engine spends on each request besides moving its "
                          "data (descriptor handling, request issue). Paid once per request; "
                          "0 to 1 ms.",
                          TimeValue(NanoSeconds(500)),
                          MakeTimeAccessor(&PcieLink::SetDmaSetupTime, &PcieLink::GetDmaSetupTime),
                          MakeTimeChecker())
            .AddAttribute(
                "MaxPayloadSize",
                "Maximum TLP payload in bytes (128 to 4096).",
                UintegerValue(256),
                MakeUintegerAccessor(&PcieLink::SetMaxPayloadSize, &PcieLink::GetMaxPayloadSize),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "TlpOverhead",
                "Bytes each TLP adds to its payload: framing (2), sequence "
                "number (2), 16-byte header, LCRC (4); 0 to 64.",
                UintegerValue(24),
                MakeUintegerAccessor(&PcieLink::SetTlpOverhead, &PcieLink::GetTlpOverhead),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("HostMemory",
                          "The host memory that DMA requests reach.",
                          PointerValue(),
                          MakePointerAccessor(&PcieLink::m_memory),
                          MakePointerChecker<HostMemory>())
            .AddTraceSource("Transaction",
                            "A transaction crossed the link.",
                            MakeTraceSourceAccessor(&PcieLink::m_transactionTrace),
                            "ns3::PcieLink::TransactionTracedCallback");
    return tid;
}

PcieLink::PcieLink()
    : m_bandwidth("16Gbps"),
      m_maxPayload(256),
      m_tlpOverhead(24),
      m_count{0, 0, 0, 0}
{
    NS_LOG_FUNCTION(this);
}

void
PcieLink::DoDispose()
{
    m_memory = nullptr;
    Object::DoDispose();
}

void
PcieLink::SetBandwidth(DataRate rate)
{
    drp::RequireInRange<uint64_t>("PcieLink::Bandwidth (bit/s)",
                                  rate.GetBitRate(),
                                  1,
                                  std::numeric_limits<uint64_t>::max());
    m_bandwidth = rate;
}

void
PcieLink::SetMaxPayloadSize(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("PcieLink::MaxPayloadSize", bytes, 128, 4096);
    m_maxPayload = bytes;
}

DataRate
PcieLink::GetBandwidth() const
{
    return m_bandwidth;
}

uint32_t
PcieLink::GetMaxPayloadSize() const
{
    return m_maxPayload;
}

void
PcieLink::SetLatency(Time latency)
{
    drp::RequireInRange<Time>("PcieLink::Latency", latency, Time(0), MilliSeconds(1));
    m_latency = latency;
}

void
PcieLink::SetDmaSetupTime(Time time)
{
    drp::RequireInRange<Time>("PcieLink::DmaSetupTime", time, Time(0), MilliSeconds(1));
    m_dmaSetupTime = time;
}

void
PcieLink::SetTlpOverhead(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("PcieLink::TlpOverhead", bytes, 0, 64);
    m_tlpOverhead = bytes;
}

uint32_t
PcieLink::GetTlpOverhead() const
{
    return m_tlpOverhead;
}

void
PcieLink::SetHostMemory(Ptr<HostMemory> memory)
{
    m_memory = memory;
}

Ptr<HostMemory>
PcieLink::GetHostMemory() const
{
    return m_memory;
}

Time
PcieLink::GetSerializationTime(uint32_t bytes) const
{
    uint32_t tlps = std::max<uint32_t>(1, (bytes + m_maxPayload - 1) / m_maxPayload);
    return m_txTimes.Get(m_bandwidth, bytes + tlps * m_tlpOverhead);
}

DataRate
PcieLink::GetDmaRate(uint32_t bytes) const
{
    const Time perRequest = m_dmaSetupTime + GetSerializationTime(bytes);
    return DataRate(static_cast<uint64_t>(bytes * 8.0 / perRequest.GetSeconds()));
}

Time
PcieLink::GetLatency() const
{
    return m_latency;
}

Time
PcieLink::GetDmaSetupTime() const
{
    return m_dmaSetupTime;
}

uint64_t
PcieLink::GetTransactionCount(Kind kind) const
{
    return m_count[kind];
}

Time
PcieLink::BookEngine(Time& engineFree, uint32_t bytes)
{
    Time start = std::max(Simulator::Now(), engineFree);
    Time crossed = start + m_dmaSetupTime + GetSerializationTime(bytes);
    engineFree = crossed;
    return crossed;
}

void
PcieLink::Count(Kind kind, uint32_t bytes)
{
    ++m_count[kind];
    m_transactionTrace(kind, bytes);
}

Time
PcieLink::StartSignal(Kind kind)
{
    NS_LOG_FUNCTION(this << kind);
    Count(kind, 0);
    return m_latency;
}

Time
PcieLink::StartRead(uint64_t address, uint32_t length)
{
    NS_LOG_FUNCTION(this << address << length);
    Count(DMA_READ, length);
    // The request goes up (Latency) once the engine has set it up; the
    // completions come back (Latency) and take their serialisation time.
    Time crossed = BookEngine(m_readEngineFree, length);
    return crossed + 2 * m_latency - Simulator::Now();
}

Time
PcieLink::StartWrite(uint64_t address, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << address << bytes);
    Count(DMA_WRITE, bytes);
    return BookEngine(m_writeEngineFree, bytes) + m_latency - Simulator::Now();
}

Time
PcieLink::StartMove(bool toHost, uint32_t bytes)
{
    // Timed like any DMA request; the address is the host stack's business.
    return toHost ? StartWrite(0, bytes) : StartRead(0, bytes);
}

Ptr<Packet>
PcieLink::ReadMemory(uint64_t address, uint32_t length)
{
    NS_ASSERT_MSG(m_memory, "PcieLink has no HostMemory");
    m_scratch.resize(length);
    m_memory->Read(address, m_scratch.data(), length);
    return Create<Packet>(m_scratch.data(), length);
}

void
PcieLink::WriteMemory(uint64_t address, Ptr<const Packet> data)
{
    NS_ASSERT_MSG(m_memory, "PcieLink has no HostMemory");
    m_scratch.resize(data->GetSize());
    data->CopyData(m_scratch.data(), m_scratch.size());
    m_memory->Write(address, m_scratch.data(), m_scratch.size());
}

void
PcieLink::DmaWriteBatch(const std::vector<WritePiece>& pieces, Callback<void> done)
{
    uint32_t bytes = 0;
    for (const auto& piece : pieces)
    {
        bytes += piece.second->GetSize();
    }
    NS_LOG_FUNCTION(this << pieces.size() << bytes);
    Count(DMA_WRITE, bytes);
    Time landed = BookEngine(m_writeEngineFree, bytes) + m_latency;
    Simulator::Schedule(landed - Simulator::Now(), &PcieLink::CompleteWrite, this, pieces, done);
}

void
PcieLink::CompleteWrite(std::vector<WritePiece> pieces, Callback<void> done)
{
    for (const auto& [address, data] : pieces)
    {
        WriteMemory(address, data);
    }
    if (!done.IsNull())
    {
        done();
    }
}

} // namespace ns3
