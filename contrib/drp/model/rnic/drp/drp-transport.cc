/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-transport.h"

#include "ns3/boolean.h"
#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-congestion-ops.h"
#include "ns3/enum.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpTransport");

namespace
{
/// Bytes of the gap after every frame at an Ethernet port's default InterframeGap.
constexpr uint32_t INTERFRAME_GAP = 12;
} // namespace

NS_OBJECT_ENSURE_REGISTERED(DrpTransport);

const uint32_t DrpTransport::WIRE_OVERHEAD = DrpHeader::SIZE + EthernetNetDevice::HEADER_SIZE +
                                             EthernetNetDevice::FCS_SIZE +
                                             EthernetNetDevice::PREAMBLE_SFD_SIZE + INTERFRAME_GAP;

TypeId
DrpTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DrpTransport")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<DrpTransport>()
            .AddAttribute("Window",
                          "Data frames in flight at most (1 to 1024; 8 in the published protocol).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&DrpTransport::SetWindow, &DrpTransport::GetWindow),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "PayloadSize",
                "Payload bytes per data frame (1 to the port's MTU minus the "
                "32-byte DRP header).",
                UintegerValue(1024),
                MakeUintegerAccessor(&DrpTransport::SetPayloadSize, &DrpTransport::GetPayloadSize),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("HandshakeTimeout",
                          "Timer of the connection handshake: the initiator re-sends its "
                          "request, a read responder its reply, on each expiry (Adaptive "
                          "mode: the host's allowance, added to the backed-off RTO).",
                          TimeValue(MicroSeconds(1500)),
                          MakeTimeAccessor(&DrpTransport::SetHandshakeTimeout,
                                           &DrpTransport::GetHandshakeTimeout),
                          MakeTimeChecker())
            .AddAttribute("RetransmissionTimeout",
                          "Timer of the data phase and of the release (Fixed mode); the "
                          "initial RTO, before any round-trip sample (Adaptive mode).",
                          TimeValue(MicroSeconds(120)),
                          MakeTimeAccessor(&DrpTransport::SetRetransmissionTimeout,
                                           &DrpTransport::GetRetransmissionTimeout),
                          MakeTimeChecker())
            .AddAttribute(
                "MaxRetries",
                "Expiries in a row, in any phase, after which a transfer ends "
                "with an error status (1 to 1000).",
                UintegerValue(16),
                MakeUintegerAccessor(&DrpTransport::SetMaxRetries, &DrpTransport::GetMaxRetries),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "MaxBackoff",
                "The data timer doubles with each expiry in a row, up to this factor "
                "(1 to 1024; 1: a fixed timer).",
                UintegerValue(64),
                MakeUintegerAccessor(&DrpTransport::SetMaxBackoff, &DrpTransport::GetMaxBackoff),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("PauseAwareTimer",
                          "With PFC on at the port: time in which a pause from the switch "
                          "held the DRP data class does not count toward the data timer, so "
                          "that frames held by the lossless fabric are not taken for lost "
                          "(false: the timer counts all time, as the published protocol's).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DrpTransport::m_pauseAwareTimer),
                          MakeBooleanChecker())
            .AddAttribute("MinLossTimeout",
                          "The least wait of the timers that take a frame for lost, whatever "
                          "the timeout mode and backoff: the data timer, the request's while "
                          "it has no answer, the release's (0 to 100 s; 0, the default: none). "
                          "A retry after a refused registration keeps its own wait. Lossless "
                          "fabric runs set it to a switch buffer's drain time (FabricScenario "
                          "losslessTimers).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&DrpTransport::SetMinLossTimeout,
                                           &DrpTransport::GetMinLossTimeout),
                          MakeTimeChecker())
            .AddAttribute(
                "TimeoutMode",
                "Where the timeouts come from: Fixed (RetransmissionTimeout and "
                "HandshakeTimeout, the published protocol) or Adaptive (RFC 6298's "
                "RTO, estimated per peer from data frames sent once).",
                EnumValue(DrpTransport::FIXED),
                DRP_ENUM_ACCESSOR(DrpTransport::TimeoutMode,
                                  &DrpTransport::SetTimeoutMode,
                                  &DrpTransport::GetTimeoutMode),
                MakeEnumChecker(DrpTransport::FIXED, "Fixed", DrpTransport::ADAPTIVE, "Adaptive"))
            .AddAttribute("MinRto",
                          "Adaptive mode: the RTO's floor (0 to 100 s; RFC 6298's 1 s is "
                          "for the Internet).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DrpTransport::SetMinRto, &DrpTransport::GetMinRto),
                          MakeTimeChecker())
            .AddAttribute("MaxRto",
                          "Adaptive mode: the RTO's ceiling, backed off included (1 ns to "
                          "100 s; the ceiling wins over MinRto).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&DrpTransport::SetMaxRto, &DrpTransport::GetMaxRto),
                          MakeTimeChecker())
            .AddAttribute("ClockGranularity",
                          "Adaptive mode: G of RFC 6298, the least margin of the RTO over "
                          "SRTT (0 to 1 s).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&DrpTransport::SetClockGranularity,
                                           &DrpTransport::GetClockGranularity),
                          MakeTimeChecker())
            .AddAttribute("DupAckThreshold",
                          "Duplicate acknowledgements that trigger a fast retransmit (1 to 64).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&DrpTransport::SetDupAckThreshold,
                                               &DrpTransport::GetDupAckThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ClockFrequency",
                          "RNIC clock in Hz, 1 MHz to 10 GHz (125 MHz: the GbE MAC's byte clock).",
                          UintegerValue(125000000),
                          MakeUintegerAccessor(&DrpTransport::SetClockFrequency,
                                               &DrpTransport::GetClockFrequency),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("TxProcessingCycles",
                          "Clock cycles the transport spends on each frame it sends (0 to 1e6).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&DrpTransport::SetTxProcessingCycles,
                                               &DrpTransport::GetTxProcessingCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxProcessingCycles",
                          "Clock cycles the transport spends on each frame it receives (0 to 1e6).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&DrpTransport::SetRxProcessingCycles,
                                               &DrpTransport::GetRxProcessingCycles),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxArbitration",
                          "How data frames of different transfers share the port: RoundRobin "
                          "(one frame per transfer in turn) or Fifo (posting order). Control "
                          "frames always go first.",
                          EnumValue(DrpTxScheduler::ROUND_ROBIN),
                          DRP_ENUM_ACCESSOR(DrpTxScheduler::Arbitration,
                                            &DrpTransport::SetTxArbitration,
                                            &DrpTransport::GetTxArbitration),
                          MakeEnumChecker(DrpTxScheduler::ROUND_ROBIN,
                                          "RoundRobin",
                                          DrpTxScheduler::FIFO,
                                          "Fifo"))
            .AddAttribute(
                "TxPrefetch",
                "Data frames whose payload the RNIC reads from host memory ahead of "
                "the port, in the arbitration's order (1 to 1024).",
                UintegerValue(8),
                MakeUintegerAccessor(&DrpTransport::SetTxPrefetch, &DrpTransport::GetTxPrefetch),
                MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("IndirectLimit",
                          "Payload bytes a write sends in indirect mode before its valid "
                          "reply, at most (0 to 64 MiB): it then holds its data, requesting, "
                          "until the reply (and goes on directly). 0, the default: no limit, "
                          "the published protocol (frames the responder's IndirectBuffer "
                          "cannot take are dropped unacknowledged and sent again). The "
                          "server NIC profiles set it to the responder's buffer Capacity, so "
                          "that one transfer never overruns it.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DrpTransport::SetIndirectLimit,
                                               &DrpTransport::GetIndirectLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxPrefetchPerTransfer",
                          "Of those, at most this many of one transfer (1 to 1024): a transfer "
                          "that starts alone leads those that start a moment later by no more.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&DrpTransport::SetTxPrefetchPerTransfer,
                                               &DrpTransport::GetTxPrefetchPerTransfer),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute(
                "TxReadBytes",
                "Payload bytes one DMA read request fetches ahead for a transfer's "
                "next data frames (0 to 65536). 0, the default (the paper's card): "
                "each frame's payload is read by a request of its own. Otherwise the "
                "transmit engine reads a transfer's source in requests of this size "
                "(as many whole frames as fit, at least one), as a DMA engine that "
                "divides a region into requests of its Max_Read_Request_Size does, "
                "and the frames take their payload from it as they are sent; a "
                "re-sent frame behind the read-ahead is read alone. The receive "
                "path writes each frame it places as one request whatever this "
                "says.",
                UintegerValue(0),
                MakeUintegerAccessor(&DrpTransport::SetTxReadBytes, &DrpTransport::GetTxReadBytes),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxTransfersPerPeer",
                          "Transfers one initiator may have this RNIC respond to at once "
                          "(records kept, released ones included; 1 to 65535).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&DrpTransport::SetMaxTransfersPerPeer,
                                               &DrpTransport::GetMaxTransfersPerPeer),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("MaxTransfers",
                          "Transfers this RNIC responds to at once, all initiators together "
                          "(1 to 2^20).",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&DrpTransport::SetMaxTransfers,
                                               &DrpTransport::GetMaxTransfers),
                          MakeUintegerChecker<uint32_t>(1, 1u << 20))
            .AddAttribute(
                "ModePolicy",
                "When transfers go indirect (traditional or dynamic method).",
                PointerValue(),
                MakePointerAccessor(&DrpTransport::SetModePolicy, &DrpTransport::GetModePolicy),
                MakePointerChecker<ModePolicy>())
            .AddAttribute("EcnCapable",
                          "Data frames leave ECN-capable, ECT(0) in DRP's STATUS, so that "
                          "switch queues that mark (EcnMarkingQueue) mark them CE rather than "
                          "leave them to be dropped; false sends the published frame.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DrpTransport::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute(
                "CnpInterval",
                "The notification point sends at most one congestion notification "
                "(CNP, on an ACK) per transfer in this time (0 to 1 s; DCQCN's 50 us).",
                TimeValue(MicroSeconds(50)),
                MakeTimeAccessor(&DrpTransport::SetCnpInterval, &DrpTransport::GetCnpInterval),
                MakeTimeChecker())
            .AddAttribute(
                "AckEvery",
                "Acknowledgement coalescing: a data frame that lands in order is "
                "acknowledged at once only if it is the AckEvery-th since the last "
                "acknowledgement of its transfer, or completes the transfer, or a CNP is "
                "due; the others wait at most AckDelay (1 to 65535; 1, every frame, is the "
                "published protocol).",
                UintegerValue(1),
                MakeUintegerAccessor(&DrpTransport::SetAckEvery, &DrpTransport::GetAckEvery),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("AckDelay",
                          "Acknowledgement coalescing (AckEvery above 1): the longest an "
                          "owed acknowledgement waits for more frames (1 ns to 1 s).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&DrpTransport::SetAckDelay, &DrpTransport::GetAckDelay),
                          MakeTimeChecker())
            .AddAttribute("CongestionControl",
                          "Rate control of each transfer's data sender: a DrpCongestionOps "
                          "subclass (ns3::DrpDcqcn, ns3::DrpDctcp, ns3::DrpTimely, ns3::DrpHpcc), "
                          "forked per "
                          "transfer; the "
                          "base class ns3::DrpCongestionOps is none (the published protocol).",
                          TypeIdValue(DrpCongestionOps::GetTypeId()),
                          MakeTypeIdAccessor(&DrpTransport::SetCongestionControl,
                                             &DrpTransport::GetCongestionControl),
                          MakeTypeIdChecker())
            .AddAttribute("IndirectBuffer",
                          "The indirect buffer (dynamic RNIC); null for the traditional RNIC.",
                          PointerValue(),
                          MakePointerAccessor(&DrpTransport::SetIndirectBuffer,
                                              &DrpTransport::GetIndirectBuffer),
                          MakePointerChecker<IndirectBuffer>())
            .AddTraceSource("Drop",
                            "A received DRP frame failed a check and was dropped (or a read "
                            "data frame was not sent: its memory is not registered).",
                            MakeTraceSourceAccessor(&DrpTransport::m_dropTrace),
                            "ns3::DrpTransport::DropTracedCallback")
            .AddTraceSource("ModeDecision",
                            "An initiated transfer's mode was decided.",
                            MakeTraceSourceAccessor(&DrpTransport::m_modeTrace),
                            "ns3::DrpTransport::ModeTracedCallback")
            .AddTraceSource("InitiatorState",
                            "A transfer this RNIC initiated changed state "
                            "(InitiatorConnection::State: CLOSED, REQUESTING, SENDING, "
                            "RECEIVING, RELEASING, DONE, FAILED).",
                            MakeTraceSourceAccessor(&DrpTransport::m_initiatorStateTrace),
                            "ns3::DrpTransport::InitiatorStateTracedCallback")
            .AddTraceSource("ResponderEnd",
                            "A transfer this RNIC responded to ended: released (true) or "
                            "abandoned (false).",
                            MakeTraceSourceAccessor(&DrpTransport::m_responderEndTrace),
                            "ns3::DrpTransport::ResponderEndTracedCallback")
            .AddTraceSource("ResponderState",
                            "A transfer this RNIC responds to changed state "
                            "(ResponderConnection::State: CLOSED, OPEN, DRAINING, RELEASED, "
                            "ABANDONED).",
                            MakeTraceSourceAccessor(&DrpTransport::m_responderStateTrace),
                            "ns3::DrpTransport::ResponderStateTracedCallback")
            .AddTraceSource("ResponderRegistration",
                            "The host's registration of a responded transfer's region changed "
                            "(ResponderConnection::Registration: NONE, PENDING, VALID, INVALID).",
                            MakeTraceSourceAccessor(&DrpTransport::m_responderRegistrationTrace),
                            "ns3::DrpTransport::ResponderRegistrationTracedCallback")
            .AddTraceSource("Rate",
                            "A transfer's congestion control changed its pacing rate "
                            "(peer, TID, old, new; 0: unpaced, the line rate).",
                            MakeTraceSourceAccessor(&DrpTransport::m_rateTrace),
                            "ns3::DrpTransport::RateTracedCallback")
            .AddTraceSource("Tx",
                            "A DRP frame left the RNIC onto the wire.",
                            MakeTraceSourceAccessor(&DrpTransport::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "A DRP frame arrived from the port.",
                            MakeTraceSourceAccessor(&DrpTransport::m_rxTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

DrpTransport::DrpTransport()
    : m_etherType(DrpHeader::PROT_NUMBER),
      m_regions(CreateObject<RegionTable>()),
      m_window(8),
      m_payloadSize(1024),
      m_dupAckThreshold(3),
      m_clockHz(125000000),
      m_txCycles(16),
      m_rxCycles(16),
      m_drops{},
      m_abandoned(0),
      m_duplicates(0)
{
    NS_LOG_FUNCTION(this);
    // A paced frame's time at its rate counts its bytes on the wire.
    m_tx.SetPacingOverhead(WIRE_OVERHEAD);
    m_tx.SetProcessingDelay(GetTxDelay());
}

DrpTransport::~DrpTransport()
{
    NS_LOG_FUNCTION(this);
}

void
DrpTransport::DoDispose()
{
    m_tx.Stop(); // the connections' ends below read nothing ahead
    m_rxPipeline.clear();
    m_initiators.Clear();
    m_responders.Clear();
    m_timeouts.ForgetEstimates(); // after the connections that point to the estimates
    m_device = nullptr;
    m_pcie = nullptr;
    m_tx.SetPcieLink(nullptr);
    m_policy = nullptr;
    m_buffer = nullptr;
    m_regions->Dispose();
    m_registrationCallback = RegistrationRequestCallback();
    m_messageCallback = MessageRequestCallback();
    m_replyCallback = ReplyCallback();
    m_completionCallback = CompletionCallback();
    m_responderDoneCallback = ResponderDoneCallback();
    Object::DoDispose();
}

// ---------------------------------------------------------------------------
// Configuration

void
DrpTransport::SetWindow(uint32_t window)
{
    drp::RequireInRange<uint32_t>("DrpTransport::Window", window, 1, 1024);
    m_window = window;
}

void
DrpTransport::ShareIndirectLimit(Mac48Address peer)
{
    if (m_indirectLimit == 0)
    {
        return;
    }
    std::vector<InitiatorConnection*> holding;
    for (const auto& [tid, connection] : m_initiators.GetAll())
    {
        if (connection && connection->GetPeer() == peer && connection->IsHoldingIndirect())
        {
            holding.push_back(connection.get());
        }
    }
    if (holding.empty())
    {
        return;
    }
    const uint32_t share =
        std::max<uint32_t>(1, m_indirectLimit / m_payloadSize / uint32_t(holding.size()));
    for (InitiatorConnection* connection : holding)
    {
        connection->SetIndirectShare(share);
    }
}

void
DrpTransport::SetIndirectLimit(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("DrpTransport::IndirectLimit", bytes, 0, 64 << 20);
    m_indirectLimit = bytes;
}

uint32_t
DrpTransport::GetIndirectLimit() const
{
    return m_indirectLimit;
}

void
DrpTransport::SetPayloadSize(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("DrpTransport::PayloadSize", bytes, 1, 65535 - DrpHeader::SIZE);
    if (m_device)
    {
        CheckPayloadFitsMtu(bytes, m_device->GetMtu());
    }
    m_payloadSize = bytes;
}

uint32_t
DrpTransport::GetPayloadSize() const
{
    return m_payloadSize;
}

void
DrpTransport::CheckPayloadFitsMtu() const
{
    if (m_device)
    {
        CheckPayloadFitsMtu(m_payloadSize, m_device->GetMtu());
    }
}

void
DrpTransport::CheckPayloadFitsMtu(uint32_t payload, uint32_t mtu)
{
    drp::RequireInRange<uint32_t>("DrpTransport::PayloadSize (with MTU " + std::to_string(mtu) +
                                      ")",
                                  payload,
                                  1,
                                  mtu > DrpHeader::SIZE ? mtu - DrpHeader::SIZE : 0);
}

void
DrpTransport::SetMaxRetries(uint32_t retries)
{
    drp::RequireInRange<uint32_t>("DrpTransport::MaxRetries", retries, 1, 1000);
    m_timeouts.GetConfig().maxRetries = retries;
}

void
DrpTransport::SetHandshakeTimeout(Time timeout)
{
    drp::RequireInRange<Time>("DrpTransport::HandshakeTimeout",
                              timeout,
                              NanoSeconds(1),
                              Seconds(100));
    m_timeouts.GetConfig().handshake = timeout;
}

void
DrpTransport::SetRetransmissionTimeout(Time timeout)
{
    drp::RequireInRange<Time>("DrpTransport::RetransmissionTimeout",
                              timeout,
                              NanoSeconds(1),
                              Seconds(100));
    m_timeouts.GetConfig().retransmission = timeout;
}

uint32_t
DrpTransport::GetWindow() const
{
    return m_window;
}

Time
DrpTransport::GetHandshakeTimeout() const
{
    return m_timeouts.GetConfig().handshake;
}

Time
DrpTransport::GetRetransmissionTimeout() const
{
    return m_timeouts.GetConfig().retransmission;
}

uint32_t
DrpTransport::GetMaxRetries() const
{
    return m_timeouts.GetConfig().maxRetries;
}

void
DrpTransport::SetMaxBackoff(uint32_t factor)
{
    drp::RequireInRange<uint32_t>("DrpTransport::MaxBackoff", factor, 1, 1024);
    m_timeouts.GetConfig().maxBackoff = factor;
}

uint32_t
DrpTransport::GetMaxBackoff() const
{
    return m_timeouts.GetConfig().maxBackoff;
}

void
DrpTransport::SetTimeoutMode(TimeoutMode mode)
{
    m_timeouts.GetConfig().adaptive = mode == ADAPTIVE;
}

DrpTransport::TimeoutMode
DrpTransport::GetTimeoutMode() const
{
    return m_timeouts.GetConfig().adaptive ? ADAPTIVE : FIXED;
}

void
DrpTransport::SetMinRto(Time rto)
{
    drp::RequireInRange<Time>("DrpTransport::MinRto", rto, Seconds(0), Seconds(100));
    m_timeouts.GetConfig().minRto = rto;
}

Time
DrpTransport::GetMinRto() const
{
    return m_timeouts.GetConfig().minRto;
}

void
DrpTransport::SetMaxRto(Time rto)
{
    drp::RequireInRange<Time>("DrpTransport::MaxRto", rto, NanoSeconds(1), Seconds(100));
    m_timeouts.GetConfig().maxRto = rto;
}

Time
DrpTransport::GetMaxRto() const
{
    return m_timeouts.GetConfig().maxRto;
}

void
DrpTransport::SetClockGranularity(Time granularity)
{
    drp::RequireInRange<Time>("DrpTransport::ClockGranularity",
                              granularity,
                              Seconds(0),
                              Seconds(1));
    m_timeouts.GetConfig().granularity = granularity;
}

Time
DrpTransport::GetClockGranularity() const
{
    return m_timeouts.GetConfig().granularity;
}

void
DrpTransport::SetDupAckThreshold(uint32_t count)
{
    drp::RequireInRange<uint32_t>("DrpTransport::DupAckThreshold", count, 1, 64);
    m_dupAckThreshold = count;
}

uint32_t
DrpTransport::GetDupAckThreshold() const
{
    return m_dupAckThreshold;
}

void
DrpTransport::SetClockFrequency(uint64_t hz)
{
    drp::RequireInRange<uint64_t>("DrpTransport::ClockFrequency (Hz)", hz, 1000000, 10000000000);
    m_clockHz = hz;
    m_tx.SetProcessingDelay(GetTxDelay());
}

uint64_t
DrpTransport::GetClockFrequency() const
{
    return m_clockHz;
}

void
DrpTransport::SetTxProcessingCycles(uint32_t cycles)
{
    drp::RequireInRange<uint32_t>("DrpTransport::TxProcessingCycles", cycles, 0, 1000000);
    m_txCycles = cycles;
    m_tx.SetProcessingDelay(GetTxDelay());
}

uint32_t
DrpTransport::GetTxProcessingCycles() const
{
    return m_txCycles;
}

void
DrpTransport::SetRxProcessingCycles(uint32_t cycles)
{
    drp::RequireInRange<uint32_t>("DrpTransport::RxProcessingCycles", cycles, 0, 1000000);
    m_rxCycles = cycles;
}

uint32_t
DrpTransport::GetRxProcessingCycles() const
{
    return m_rxCycles;
}

void
DrpTransport::SetDevice(Ptr<NetDevice> device)
{
    m_device = device;
}

uint16_t
DrpTransport::GetEtherType() const
{
    return m_etherType;
}

void
DrpTransport::SetEtherType(uint16_t etherType)
{
    m_etherType = etherType;
}

void
DrpTransport::SetPcieLink(Ptr<PcieLink> pcie)
{
    m_pcie = pcie;
    m_tx.SetPcieLink(pcie);
}

Ptr<PcieLink>
DrpTransport::GetPcieLink() const
{
    return m_pcie;
}

void
DrpTransport::SetModePolicy(Ptr<ModePolicy> policy)
{
    m_policy = policy;
}

Ptr<ModePolicy>
DrpTransport::GetModePolicy() const
{
    return m_policy;
}

void
DrpTransport::SetIndirectBuffer(Ptr<IndirectBuffer> buffer)
{
    m_buffer = buffer;
}

Ptr<IndirectBuffer>
DrpTransport::GetIndirectBuffer() const
{
    return m_buffer;
}

Ptr<RegionTable>
DrpTransport::GetRegionTable() const
{
    return m_regions;
}

void
DrpTransport::SetHostCallbacks(RegistrationRequestCallback registration,
                               ReplyCallback reply,
                               CompletionCallback completion,
                               ResponderDoneCallback responderDone)
{
    m_registrationCallback = registration;
    m_replyCallback = reply;
    m_completionCallback = completion;
    m_responderDoneCallback = responderDone;
}

bool
DrpTransport::HasHost() const
{
    return !m_completionCallback.IsNull();
}

uint64_t
DrpTransport::GetDropCount(DropReason reason) const
{
    return m_drops[reason];
}

uint64_t
DrpTransport::GetTotalDrops() const
{
    return std::accumulate(std::begin(m_drops), std::end(m_drops), uint64_t(0));
}

size_t
DrpTransport::GetActiveInitiated() const
{
    return m_initiators.GetSize();
}

size_t
DrpTransport::GetActiveResponded() const
{
    return m_responders.GetActive();
}

size_t
DrpTransport::GetRespondedRecords() const
{
    return m_responders.GetSize();
}

void
DrpTransport::SetMaxTransfersPerPeer(uint32_t records)
{
    m_responders.SetMaxPerPeer(records);
}

uint32_t
DrpTransport::GetMaxTransfersPerPeer() const
{
    return m_responders.GetMaxPerPeer();
}

void
DrpTransport::SetMaxTransfers(uint32_t records)
{
    m_responders.SetMaxTotal(records);
}

uint32_t
DrpTransport::GetMaxTransfers() const
{
    return m_responders.GetMaxTotal();
}

uint64_t
DrpTransport::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
DrpTransport::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

void
DrpTransport::SetCnpInterval(Time interval)
{
    drp::RequireInRange("DrpTransport::CnpInterval", interval, Time(0), Seconds(1));
    m_cnpInterval = interval;
}

Time
DrpTransport::GetCnpInterval() const
{
    return m_cnpInterval;
}

void
DrpTransport::SetAckEvery(uint32_t frames)
{
    drp::RequireInRange<uint32_t>("DrpTransport::AckEvery", frames, 1, MAX_ACK_EVERY);
    m_ackEvery = frames;
}

uint32_t
DrpTransport::GetAckEvery() const
{
    return m_ackEvery;
}

void
DrpTransport::SetAckDelay(Time delay)
{
    drp::RequireInRange("DrpTransport::AckDelay", delay, NanoSeconds(1), Seconds(1));
    m_ackDelay = delay;
}

Time
DrpTransport::GetAckDelay() const
{
    return m_ackDelay;
}

uint64_t
DrpTransport::GetDuplicates() const
{
    return m_duplicates;
}

uint64_t
DrpTransport::GetAbandonedResponses() const
{
    return m_abandoned;
}

std::string
DrpTransport::GetDropReasonName(DropReason reason)
{
    static const char* names[] = {"malformed",
                                  "bad-length",
                                  "unknown-tid",
                                  "foreign",
                                  "out-of-region",
                                  "not-registered",
                                  "buffer-full",
                                  "bad-region",
                                  "unregistered",
                                  "bad-sequence",
                                  "no-resources"};
    return reason < DROP_REASONS ? names[reason] : "unknown";
}

Time
DrpTransport::GetLastHeard(Mac48Address peer) const
{
    auto it = m_lastHeard.find(peer);
    return it == m_lastHeard.end() ? Time(0) : it->second;
}

DrpSender::Config
DrpTransport::SenderConfig(DrpRttEstimator* rtt) const
{
    // Read once per transfer: without PFC the timer calls nothing more.
    Ptr<EthernetNetDevice> port = DynamicCast<EthernetNetDevice>(m_device);
    const bool pauseAware = m_pauseAwareTimer && port && port->IsPfcEnabled();
    const DrpTimeouts::Config& timeouts = m_timeouts.GetConfig();
    return DrpSender::Config{m_window,
                             timeouts.retransmission,
                             timeouts.maxRetries,
                             m_dupAckThreshold,
                             timeouts.maxBackoff,
                             rtt,
                             pauseAware ? m_pausedTime : Callback<Time>(),
                             m_minLossTimeout};
}

DrpRttEstimator*
DrpTransport::GetRttEstimator(Mac48Address peer)
{
    // The peer coalesces as this RNIC does (both from one helper): an
    // acknowledgement may wait its AckDelay, which the timeout must allow.
    return m_timeouts.GetRttEstimator(peer, m_ackEvery > 1 ? m_ackDelay : Time(0));
}

const DrpRttEstimator*
DrpTransport::GetRttEstimate(Mac48Address peer) const
{
    return m_timeouts.GetRttEstimate(peer);
}

const DrpTimeouts&
DrpTransport::GetTimeouts() const
{
    return m_timeouts;
}

// ---------------------------------------------------------------------------
// Frames in and out

DrpHeader
DrpTransport::MakeHeader(uint16_t tid, bool read, uint8_t ctrl)
{
    DrpHeader header;
    header.SetControl(ctrl | (read ? DrpHeader::READ : 0));
    header.SetTid(tid);
    return header;
}

DrpHeader
DrpTransport::MakeReply(uint16_t tid,
                        bool read,
                        bool valid,
                        uint64_t sba,
                        uint64_t dba,
                        uint32_t length)
{
    DrpHeader header = MakeHeader(tid, read, DrpHeader::REQ_ACK);
    header.SetStatus(valid ? DrpHeader::VALID : DrpHeader::INVALID);
    header.SetSba(sba);
    header.SetDba(dba);
    header.SetLength(length);
    return header;
}

uint32_t
DrpTransport::FrameCount(uint32_t length) const
{
    return (length + m_payloadSize - 1) / m_payloadSize;
}

void
DrpTransport::FillDataHeader(DrpHeader& header,
                             uint32_t sn,
                             uint64_t sba,
                             uint64_t dba,
                             uint32_t length) const
{
    uint64_t offset = uint64_t(sn) * m_payloadSize;
    if (m_ecnCapable)
    {
        header.SetEcn(DrpHeader::ECT0);
    }
    if (m_txTelemetry)
    {
        header.SetTelemetry(true); // Fetched() adds the empty INT extension
    }
    header.SetSba(sba + offset);
    header.SetDba(dba + offset);
    header.SetLength(std::min<uint64_t>(m_payloadSize, length - offset));
    header.SetSequence(sn);
}

Time
DrpTransport::GetTxDelay() const
{
    return NanoSeconds(m_txCycles * 1000000000ULL / m_clockHz);
}

Time
DrpTransport::GetRxDelay() const
{
    return NanoSeconds(m_rxCycles * 1000000000ULL / m_clockHz);
}

void
DrpTransport::SetTxArbitration(DrpTxScheduler::Arbitration arbitration)
{
    m_tx.SetArbitration(arbitration);
}

DrpTxScheduler::Arbitration
DrpTransport::GetTxArbitration() const
{
    return m_tx.GetArbitration();
}

void
DrpTransport::SetTxPrefetchPerTransfer(uint32_t frames)
{
    m_tx.SetPrefetchPerFlow(frames);
}

uint32_t
DrpTransport::GetTxPrefetchPerTransfer() const
{
    return m_tx.GetPrefetchPerFlow();
}

void
DrpTransport::SetTxReadBytes(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("DrpTransport::TxReadBytes", bytes, 0, 65536);
    m_tx.SetReadBytes(bytes);
}

uint32_t
DrpTransport::GetTxReadBytes() const
{
    return m_tx.GetReadBytes();
}

void
DrpTransport::SetTxPrefetch(uint32_t frames)
{
    m_tx.SetPrefetch(frames);
}

uint32_t
DrpTransport::GetTxPrefetch() const
{
    return m_tx.GetPrefetch();
}

void
DrpTransport::SetFrameReadyCallback(Callback<void> ready)
{
    m_tx.SetReadyCallback(ready);
}

void
DrpTransport::SetPausedTimeCallback(Callback<Time> paused)
{
    m_pausedTime = paused;
}

void
DrpTransport::SetMinLossTimeout(Time timeout)
{
    drp::RequireInRange<Time>("DrpTransport::MinLossTimeout", timeout, Time(0), Seconds(100));
    m_minLossTimeout = timeout;
}

Time
DrpTransport::GetMinLossTimeout() const
{
    return m_minLossTimeout;
}

bool
DrpTransport::HasFrameToSend(uint8_t kinds) const
{
    return m_tx.HasFrame(kinds);
}

Ptr<Packet>
DrpTransport::DequeueFrame(Mac48Address& to, uint8_t kinds, bool* control)
{
    Ptr<Packet> packet = m_tx.Dequeue(to, kinds, control);
    if (packet)
    {
        m_txTrace(packet);
    }
    m_tx.FetchAhead();
    return packet;
}

uint64_t
DrpTransport::GetFramesWaiting() const
{
    return m_tx.GetWaiting();
}

uint64_t
DrpTransport::OpenFlow()
{
    return m_tx.OpenFlow();
}

void
DrpTransport::SetFlowRate(uint64_t flow, DataRate rate)
{
    m_tx.SetFlowRate(flow, rate);
}

void
DrpTransport::SetCongestionControl(TypeId type)
{
    const TypeId base = DrpCongestionOps::GetTypeId();
    if (type != base && !type.IsChildOf(base))
    {
        throw std::invalid_argument("DrpTransport::CongestionControl = " + type.GetName() +
                                    " is not a DrpCongestionOps (ns3::DrpCongestionOps, "
                                    "ns3::DrpDcqcn, ns3::DrpDctcp, ns3::DrpTimely, ns3::DrpHpcc)");
    }
    m_congestionControl = type;
    m_congestionActive = type != base;
    m_congestionPrototype = nullptr;
    m_txTelemetry = false;
}

TypeId
DrpTransport::GetCongestionControl() const
{
    return m_congestionControl;
}

Ptr<DrpCongestionOps>
DrpTransport::ForkCongestionControl() const
{
    if (!m_congestionActive)
    {
        return nullptr;
    }
    ObjectFactory factory;
    factory.SetTypeId(m_congestionControl);
    return factory.Create<DrpCongestionOps>()->Fork();
}

bool
DrpTransport::IsEcnCapable() const
{
    return m_ecnCapable;
}

void
DrpTransport::AttachCongestionControl(DrpSender& sender,
                                      uint64_t flow,
                                      Mac48Address peer,
                                      uint16_t tid)
{
    if (!m_congestionActive)
    {
        return; // none: no object, nothing per frame
    }
    if (!m_congestionPrototype)
    {
        ObjectFactory factory;
        factory.SetTypeId(m_congestionControl);
        m_congestionPrototype = factory.Create<DrpCongestionOps>();
        m_txTelemetry = m_congestionPrototype->NeedsTelemetry();
        NS_ABORT_MSG_IF(m_txTelemetry && m_device &&
                            m_payloadSize + DrpHeader::SIZE + DrpIntHeader::SIZE >
                                m_device->GetMtu(),
                        "DrpTransport::PayloadSize "
                            << m_payloadSize << " with " << m_congestionControl.GetName()
                            << "'s telemetry (42 bytes) exceeds the MTU " << m_device->GetMtu()
                            << ": at most MTU - 74");
    }
    DataRateValue lineRate;
    NS_ABORT_MSG_IF(!m_device || !m_device->GetAttributeFailSafe("DataRate", lineRate),
                    "DrpTransport::CongestionControl needs a port with a DataRate attribute");
    sender.SetCongestionControl(
        m_congestionPrototype->Fork(),
        lineRate.Get(),
        m_payloadSize + DrpHeader::SIZE + (m_txTelemetry ? DrpIntHeader::SIZE : 0),
        drp::FunctorCallback<void, DataRate>([this, flow, peer, tid](DataRate rate) {
            const DataRate old = m_tx.GetFlowRate(flow);
            if (old != rate)
            {
                SetFlowRate(flow, rate);
                m_rateTrace(peer, tid, old, rate);
            }
        }));
}

void
DrpTransport::CloseFlow(uint64_t flow)
{
    m_tx.CloseFlow(flow);
}

void
DrpTransport::SendControl(const DrpHeader& header,
                          Mac48Address to,
                          uint64_t flow,
                          DrpTxScheduler::SentCallback sent,
                          const DrpMessageHeader* message)
{
    NS_LOG_LOGIC("send " << header << " to " << to);
    Ptr<Packet> packet = Create<Packet>();
    if (message)
    {
        packet->AddHeader(*message);
    }
    packet->AddHeader(header);
    m_tx.SendControl(packet, to, flow, std::move(sent));
}

void
DrpTransport::SendData(Mac48Address peer,
                       DrpHeader header,
                       uint64_t localAddress,
                       uint64_t sourceEnd,
                       uint64_t flow,
                       DrpTxScheduler::SentCallback sent,
                       std::function<bool()> mayRead,
                       DrpTxScheduler::SentCallback unsent)
{
    m_tx.SendData({std::move(header),
                   peer,
                   localAddress,
                   flow,
                   std::move(sent),
                   std::move(mayRead),
                   std::move(unsent),
                   sourceEnd});
}

void
DrpTransport::AcknowledgeLanded(Mac48Address to,
                                uint16_t tid,
                                bool read,
                                DrpReceiver& receiver,
                                uint64_t length,
                                uint32_t sn)
{
    receiver.EchoTelemetryOf(sn);
    if (m_ackEvery > 1 &&
        receiver.DeferAck(m_ackEvery, length, m_ackDelay, [this, to, tid, read, &receiver]() {
            SendAck(to, tid, read, receiver);
        }))
    {
        return;
    }
    SendAck(to, tid, read, receiver, true);
}

void
DrpTransport::SendAck(Mac48Address to,
                      uint16_t tid,
                      bool read,
                      DrpReceiver& receiver,
                      bool processed)
{
    if (m_ackEvery > 1)
    {
        receiver.NoteAckSent(); // coalescing's bookkeeping: none on the default path
    }
    DrpHeader header = MakeHeader(tid, read, 0);
    header.SetAckNumber(receiver.GetAckNumber());
    if (receiver.IsCongestionNotificationDue() &&
        receiver.TakeCongestionNotification(Simulator::Now()))
    {
        header.SetCongestionNotification(true);
        ++m_cnpsSent;
    }
    Ptr<Packet> packet = Create<Packet>();
    if (const DrpIntHeader* telemetry = receiver.GetTelemetry())
    {
        // HPCC: the acknowledgement echoes the latest data frame's telemetry.
        header.SetTelemetry(true);
        packet->AddHeader(*telemetry);
    }
    packet->AddHeader(header);
    NS_LOG_LOGIC("send " << header << " to " << to);
    if (processed)
    {
        m_tx.SendProcessedControl(packet, to);
        return;
    }
    m_tx.SendControl(packet, to, 0, nullptr);
}

const DrpIntHeader*
DrpTransport::GetReceivedTelemetry() const
{
    return m_rxHasTelemetry ? &m_rxTelemetry : nullptr;
}

void
DrpTransport::NoteCongestion(const DrpHeader& header, DrpReceiver& receiver) const
{
    if (header.GetEcn() == DrpHeader::CE)
    {
        receiver.NoteCongestion(Simulator::Now(), m_cnpInterval);
    }
    if (m_rxHasTelemetry)
    {
        receiver.NoteTelemetry(header.GetSequence(), m_rxTelemetry);
    }
}

void
DrpTransport::Receive(Ptr<Packet> packet, Mac48Address from)
{
    Time now = Simulator::Now();
    Time ready = std::max(now, m_rxFree) + GetRxDelay();
    m_rxFree = ready;
    // Every frame waits the same processing after the one before, so they
    // leave in the order they came: the events, at non-decreasing times,
    // take them from the front.
    m_rxPipeline.emplace_back(packet, from);
    m_processNext.Schedule(ready - now);
}

void
DrpTransport::ProcessNext()
{
    if (m_rxPipeline.empty())
    {
        return; // disposed while frames were in the pipeline
    }
    auto [frame, from] = std::move(m_rxPipeline.front());
    m_rxPipeline.pop_front();
    Process(frame, from);
}

void
DrpTransport::Drop(Ptr<const Packet> packet, DropReason reason)
{
    NS_LOG_INFO("drop (" << GetDropReasonName(reason) << "): " << *packet);
    ++m_drops[reason];
    m_dropTrace(packet, reason);
}

int32_t
DrpTransport::GetPadding(const DrpHeader& header, uint32_t received)
{
    const bool data = header.HasFlag(DrpHeader::DATA);
    if (data && header.GetLength() == 0)
    {
        return -1;
    }
    const uint64_t expected = data ? header.GetLength() : 0;
    if (received == expected)
    {
        return 0;
    }
    // Ethernet's padding: header and payload below 46 bytes, padded to 46.
    const uint64_t minimum = EthernetNetDevice::MIN_PAYLOAD_SIZE - DrpHeader::SIZE;
    if (expected < minimum && received == minimum)
    {
        return static_cast<int32_t>(minimum - expected);
    }
    return -1;
}

void
DrpTransport::Process(Ptr<Packet> frame, Mac48Address from)
{
    m_rxHasTelemetry = false; // until this frame's header says otherwise
    m_rxTrace(frame);
    if (frame->GetSize() < DrpHeader::SIZE)
    {
        Drop(frame, MALFORMED);
        return;
    }
    Ptr<Packet> payload = frame->Copy();
    DrpHeader header;
    payload->RemoveHeader(header);
    NS_LOG_LOGIC("received " << header << " from " << from);
    if (!header.IsWellFormed())
    {
        Drop(frame, MALFORMED);
        return;
    }
    m_rxHasTelemetry = header.HasTelemetry();
    if (m_rxHasTelemetry)
    {
        if (payload->GetSize() < DrpIntHeader::SIZE)
        {
            Drop(frame, MALFORMED);
            return;
        }
        payload->RemoveHeader(m_rxTelemetry);
    }
    if (header.HasMessage())
    {
        uint8_t opcode = 0;
        if (payload->GetSize() < DrpMessageHeader::SIZE || payload->CopyData(&opcode, 1) != 1 ||
            payload->GetSize() < DrpMessageHeader::SizeOf(opcode))
        {
            Drop(frame, MALFORMED);
            return;
        }
        payload->RemoveHeader(m_rxMessage);
        // A write carries a message, a read an atomic, of exactly 8 bytes.
        if (!m_rxMessage.IsWellFormed() || m_rxMessage.IsAtomic() != header.IsRead() ||
            (m_rxMessage.IsAtomic() && header.GetLength() != ATOMIC_LENGTH))
        {
            Drop(frame, MALFORMED);
            return;
        }
    }
    const int32_t padding = GetPadding(header, payload->GetSize());
    if (padding < 0 || (padding > 0 && m_rxHasTelemetry)) // an INT frame is never padded
    {
        Drop(frame, BAD_LENGTH);
        return;
    }
    if (padding > 0)
    {
        payload->RemoveAtEnd(padding);
    }
    if (header.IsFromInitiator())
    {
        ReceiveAtResponder(header, payload, frame, from);
    }
    else
    {
        ReceiveAtInitiator(header, payload, frame, from);
    }
}

// ---------------------------------------------------------------------------
// Initiator: TIDs, dispatch, the connections' end (the transfer itself is
// InitiatorConnection's)

uint16_t
DrpTransport::PostTransfer(Mac48Address peer,
                           bool read,
                           uint64_t sba,
                           uint64_t dba,
                           uint32_t length)
{
    return Post(peer, read, sba, dba, length, nullptr);
}

uint16_t
DrpTransport::PostMessage(Mac48Address peer,
                          uint64_t sba,
                          uint64_t dba,
                          uint32_t length,
                          const DrpMessageHeader& message)
{
    if (!message.IsWellFormed())
    {
        std::ostringstream os;
        os << "message extension " << message << " is not well formed";
        throw std::invalid_argument(os.str());
    }
    if (message.IsAtomic() && length != ATOMIC_LENGTH)
    {
        std::ostringstream os;
        os << "an atomic's length is " << length << " bytes; it must be " << ATOMIC_LENGTH;
        throw std::invalid_argument(os.str());
    }
    return Post(peer, message.IsAtomic(), sba, dba, length, &message);
}

uint16_t
DrpTransport::Post(Mac48Address peer,
                   bool read,
                   uint64_t sba,
                   uint64_t dba,
                   uint32_t length,
                   const DrpMessageHeader* message)
{
    NS_LOG_FUNCTION(this << peer << read << sba << dba << length);
    drp::RequireInRange<uint32_t>("transfer length", length, 1, UINT32_MAX);
    HostMemory::RequireValidRegion("transfer's initiator region (SBA)", sba, length);
    HostMemory::RequireValidRegion("transfer's responder region (DBA)", dba, length);
    if (m_device && peer == Mac48Address::ConvertFrom(m_device->GetAddress()))
    {
        std::ostringstream os;
        os << "transfer peer " << peer << " is this RNIC itself";
        throw std::invalid_argument(os.str());
    }
    CheckPayloadFitsMtu();
    NS_ABORT_MSG_IF(!m_pcie || !m_policy || !m_device,
                    "DrpTransport used before RnicNetDevice connected it");
    DrpTransferRecord record;
    record.tid = m_initiators.Allocate();
    record.peer = peer;
    record.read = read;
    record.sba = sba;
    record.dba = dba;
    record.length = length;
    uint16_t tid = record.tid;
    InitiatorConnection& c =
        m_initiators.Insert(tid, std::make_unique<InitiatorConnection>(this, record));
    if (message)
    {
        c.SetMessage(*message);
    }
    c.ConnectTrace(
        drp::FunctorCallback<void, InitiatorConnection::State, InitiatorConnection::State>(
            [this, tid](InitiatorConnection::State from, InitiatorConnection::State to) {
                m_initiatorStateTrace(tid, from, to);
            }));
    c.Open();
    return tid;
}

Time
DrpTransport::GetTidsFreeAt(uint32_t count) const
{
    return m_initiators.GetFreeAt(count);
}

InitiatorConnection*
DrpTransport::FindInitiator(uint16_t tid)
{
    return m_initiators.Find(tid);
}

void
DrpTransport::StartData(uint16_t tid)
{
    NS_LOG_FUNCTION(this << tid);
    if (InitiatorConnection* c = FindInitiator(tid))
    {
        c->StartData();
    }
}

void
DrpTransport::ReceiveAtInitiator(const DrpHeader& header,
                                 Ptr<Packet> payload,
                                 Ptr<Packet> frame,
                                 Mac48Address from)
{
    InitiatorConnection* c = FindInitiator(header.GetTid());
    if (!c)
    {
        Drop(frame, UNKNOWN_TID);
        return;
    }
    if (c->GetPeer() != from || c->IsRead() != header.IsRead())
    {
        Drop(frame, FOREIGN);
        return;
    }
    m_lastHeard[from] = Simulator::Now();
    c->Receive(header, payload, frame);
}

void
DrpTransport::NotifyReply(uint16_t tid)
{
    m_pcie->Interrupt([this, tid]() {
        if (!m_replyCallback.IsNull())
        {
            m_replyCallback(tid);
        }
    });
}

void
DrpTransport::RetireInitiator(const DrpTransferRecord& record)
{
    // The connection is on the call stack (its sender's retry limit, maybe):
    // let it go once the current event ends.
    std::shared_ptr<InitiatorConnection> gone(m_initiators.Remove(record.tid));
    NS_ASSERT(gone);
    drp::ScheduleNow([gone]() {});
    if (record.mode == DrpTransferRecord::INDIRECT)
    {
        ShareIndirectLimit(record.peer); // a write that ended holding frees its share
    }
    if (record.status != DrpTransferRecord::SUCCESS)
    {
        // The responder may still hold this transfer's record, with frames it
        // committed, until it has heard nothing for its idle time: a new
        // transfer under this TID must not meet it.
        m_initiators.Hold(record.tid, Simulator::Now() + m_timeouts.GetIdleTime());
    }
    m_pcie->Interrupt([this, record]() {
        if (!m_completionCallback.IsNull())
        {
            m_completionCallback(record);
        }
    });
}

// ---------------------------------------------------------------------------
// Responder: admission, dispatch, the records' end (the transfer itself is
// ResponderConnection's)

ResponderConnection*
DrpTransport::FindResponder(Mac48Address peer, uint16_t tid)
{
    return m_responders.Find(ResponderKey(peer, tid));
}

ResponderConnection&
DrpTransport::CreateResponder(Mac48Address peer, uint16_t tid, bool read)
{
    ResponderConnection& record =
        m_responders.Insert(std::make_unique<ResponderConnection>(this, peer, tid, read));
    record.ConnectTraces(
        drp::FunctorCallback<void, ResponderConnection::State, ResponderConnection::State>(
            [this, peer, tid](ResponderConnection::State from, ResponderConnection::State to) {
                m_responderStateTrace(peer, tid, from, to);
            }),
        drp::FunctorCallback<void,
                             ResponderConnection::Registration,
                             ResponderConnection::Registration>(
            [this, peer, tid](ResponderConnection::Registration from,
                              ResponderConnection::Registration to) {
                m_responderRegistrationTrace(peer, tid, from, to);
            }));
    record.Open();
    return record;
}

bool
DrpTransport::AdmitResponder(Mac48Address peer)
{
    if (!m_responders.IsFull(peer))
    {
        return true;
    }
    // Expired records count as forgotten since their idle time passed.
    ForgetExpiredResponders(false);
    if (!m_responders.IsFull(peer))
    {
        return true;
    }
    ResponderKey key;
    if (!m_responders.TakeReleasedToEvict(peer, key))
    {
        return false;
    }
    AbandonResponder(key); // a released record: only a repeated REL still needed it
    return true;
}

void
DrpTransport::ForgetExpiredResponders(bool oldestOnly)
{
    for (const ResponderKey& key : m_responders.GetExpiredReleased(oldestOnly))
    {
        AbandonResponder(key); // released: only a repeated REL needed it
    }
}

void
DrpTransport::OnEarlyData(const DrpHeader& header,
                          Ptr<Packet> payload,
                          Ptr<Packet> frame,
                          Mac48Address from)
{
    if (!AdmitResponder(from))
    {
        Drop(frame, NO_RESOURCES);
        return;
    }
    if (!m_buffer->Store(from, header.GetTid(), header.GetSequence(), header.GetDba(), payload))
    {
        Drop(frame, BUFFER_FULL); // no record: nothing was kept
        return;
    }
    CreateResponder(from, header.GetTid(), false).CommitEarly(header);
}

void
DrpTransport::ReceiveAtResponder(const DrpHeader& header,
                                 Ptr<Packet> payload,
                                 Ptr<Packet> frame,
                                 Mac48Address from)
{
    uint16_t tid = header.GetTid();
    ResponderConnection* r = FindResponder(from, tid);
    if (r && r->IsExpired())
    {
        // Forgotten now, as if it had been when its idle time passed.
        AbandonResponder(ResponderKey(from, tid));
        r = nullptr;
    }
    if (header.HasFlag(DrpHeader::REQ))
    {
        if (!HostMemory::IsValidRegion(header.GetDba(), header.GetLength()))
        {
            RefuseRequest(header, frame, from, BAD_REGION);
            return;
        }
        if (r && !r->IsReleased() && r->IsOtherRequest(header))
        {
            // Not a repeat of the live request: a new transfer under the same
            // TID. The old one, which its initiator has given up, ends here.
            AbandonResponder(ResponderKey(from, tid));
            r = nullptr;
        }
        if (!r || r->IsReleased())
        {
            // A new transfer (an initiator reuses a TID only after its release
            // or, after a failure, the responder's idle time).
            if (r)
            {
                // Forgotten at once; a check it had pending runs on, by key.
                m_responders.Erase(ResponderKey(from, tid))->Forget();
            }
            if (!AdmitResponder(from))
            {
                RefuseRequest(header, frame, from, NO_RESOURCES);
                return;
            }
            r = &CreateResponder(from, tid, header.IsRead());
        }
    }
    else if (!r && header.HasFlag(DrpHeader::DATA) && !header.IsRead() && m_buffer)
    {
        OnEarlyData(header, payload, frame, from); // data before any request (section 4)
        return;
    }
    if (!r)
    {
        Drop(frame,
             header.HasFlag(DrpHeader::DATA) && !header.IsRead() ? NOT_REGISTERED : UNKNOWN_TID);
        return;
    }
    if (r->IsRead() != header.IsRead())
    {
        Drop(frame, FOREIGN);
        return;
    }
    r->Receive(header, payload, frame);
}

void
DrpTransport::RingStartData(uint16_t tid)
{
    Ptr<DrpTransport> self = this;
    m_pcie->Doorbell([self, tid]() { self->StartData(tid); });
}

void
DrpTransport::RingRegistrationDone(Mac48Address peer, uint16_t tid, bool success)
{
    Ptr<DrpTransport> self = this;
    m_pcie->Doorbell(
        [self, peer, tid, success]() { self->CompleteRegistration(peer, tid, success); });
}

void
DrpTransport::RingPlacement(Mac48Address peer, uint16_t tid, uint64_t placement)
{
    Ptr<DrpTransport> self = this;
    m_pcie->Doorbell(
        [self, peer, tid, placement]() { self->CompletePlacement(peer, tid, placement); });
}

void
DrpTransport::RingRefusal(Mac48Address peer, uint16_t tid, DrpHeader::Nak nak, uint8_t rnrTimer)
{
    Ptr<DrpTransport> self = this;
    m_pcie->Doorbell(
        [self, peer, tid, nak, rnrTimer]() { self->CompleteRefusal(peer, tid, nak, rnrTimer); });
}

ResponderConnection*
DrpTransport::FindPending(Mac48Address peer, uint16_t tid)
{
    ResponderConnection* r = FindResponder(peer, tid);
    if (!r || r->GetRegistration() != ResponderConnection::PENDING || r->IsReleased())
    {
        return nullptr;
    }
    return r;
}

void
DrpTransport::CompleteRegistration(Mac48Address peer, uint16_t tid, bool success)
{
    NS_LOG_FUNCTION(this << peer << tid << success);
    ResponderConnection* r = FindPending(peer, tid);
    if (!r)
    {
        if (success)
        {
            // The transfer was abandoned, or released, meanwhile: the host
            // must release the region, and nothing may use it.
            NotifyResponderDone(peer, tid, false);
        }
        return;
    }
    r->OnRegistered(success);
}

void
DrpTransport::CompletePlacement(Mac48Address peer, uint16_t tid, uint64_t placement)
{
    NS_LOG_FUNCTION(this << peer << tid << placement);
    ResponderConnection* r = FindPending(peer, tid);
    if (!r)
    {
        NotifyResponderDone(peer, tid, false); // as CompleteRegistration's success
        return;
    }
    r->OnPlaced(placement);
}

void
DrpTransport::CompleteRefusal(Mac48Address peer, uint16_t tid, DrpHeader::Nak nak, uint8_t rnrTimer)
{
    NS_LOG_FUNCTION(this << peer << tid << uint32_t(nak) << uint32_t(rnrTimer));
    if (ResponderConnection* r = FindPending(peer, tid))
    {
        r->OnRefused(nak, rnrTimer); // may end the record
    }
}

void
DrpTransport::SetMessageCallback(MessageRequestCallback message)
{
    m_messageCallback = message;
}

void
DrpTransport::RequestMessage(Mac48Address peer,
                             uint16_t tid,
                             uint64_t dba,
                             uint32_t length,
                             const DrpMessageHeader& message)
{
    if (m_messageCallback.IsNull())
    {
        // No host here takes messages: the RNIC refuses at once (after this event).
        drp::ScheduleNow(
            [this, peer, tid]() { CompleteRefusal(peer, tid, DrpHeader::INVALID_REQUEST, 0); });
        return;
    }
    m_pcie->Interrupt([this, peer, tid, dba, length, message]() {
        m_messageCallback(peer, tid, dba, length, message);
    });
}

void
DrpTransport::RequestRegistration(Mac48Address peer,
                                  uint16_t tid,
                                  bool read,
                                  uint64_t dba,
                                  uint32_t length)
{
    m_pcie->Interrupt([this, peer, tid, read, dba, length]() {
        if (!m_registrationCallback.IsNull())
        {
            m_registrationCallback(peer, tid, read, dba, length);
        }
    });
}

void
DrpTransport::RefuseRequest(const DrpHeader& header,
                            Ptr<Packet> frame,
                            Mac48Address from,
                            DropReason reason)
{
    Drop(frame, reason);
    SendControl(MakeReply(header.GetTid(),
                          header.IsRead(),
                          false,
                          header.GetSba(),
                          header.GetDba(),
                          header.GetLength()),
                from);
}

DrpTransport::DropReason
DrpTransport::CheckAccess(uint64_t address,
                          uint64_t length,
                          uint64_t base,
                          uint64_t baseLength) const
{
    if (!HostMemory::IsWithin(address, length, base, baseLength))
    {
        return OUT_OF_REGION;
    }
    if (!m_regions->Contains(address, length))
    {
        return UNREGISTERED;
    }
    return DROP_REASONS;
}

bool
DrpTransport::IsFrameOf(uint64_t address,
                        uint32_t length,
                        uint32_t sn,
                        uint64_t base,
                        uint32_t transferLength) const
{
    if (sn >= FrameCount(transferLength))
    {
        return false;
    }
    // The frame as this RNIC would send it, placed at 0: its offset and LEN.
    DrpHeader expected;
    FillDataHeader(expected, sn, 0, 0, transferLength);
    return address - base == expected.GetDba() && length == expected.GetLength();
}

void
DrpTransport::OnResponderReleased(ResponderKey key)
{
    m_responders.NoteReleased(key);
    ForgetExpiredResponders(true); // keeps the table from growing with released records
    m_responderEndTrace(key.first, key.second, true);
    NotifyResponderDone(key.first, key.second, true);
}

void
DrpTransport::NotifyResponderDone(Mac48Address peer, uint16_t tid, bool released)
{
    m_pcie->Interrupt([this, peer, tid, released]() {
        if (!m_responderDoneCallback.IsNull())
        {
            m_responderDoneCallback(peer, tid, released);
        }
    });
}

void
DrpTransport::AbandonResponder(ResponderKey key)
{
    ResponderConnection* r = FindResponder(key.first, key.second);
    if (!r)
    {
        return;
    }
    bool released = r->IsReleased();
    NS_LOG_INFO("forget transfer " << key.second << " of " << key.first
                                   << (released ? " (released)" : " (abandoned)"));
    bool tellHost = !released && r->GetRegistration() == ResponderConnection::VALID;
    r->Close();
    if (m_buffer)
    {
        m_buffer->Discard(key.first, key.second);
    }
    if (!released)
    {
        ++m_abandoned;
        m_responderEndTrace(key.first, key.second, false);
    }
    // The record (its sender: the retry limit) may be on the call stack: let it go afterwards.
    std::shared_ptr<ResponderConnection> gone(m_responders.Erase(key));
    drp::ScheduleNow([gone]() {});
    m_responders.TrimReleased();
    if (tellHost)
    {
        NotifyResponderDone(key.first, key.second, false);
    }
}

} // namespace ns3
