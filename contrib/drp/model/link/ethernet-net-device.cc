/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-net-device.h"

#include "ethernet-channel.h"

#include "ns3/boolean.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-header.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetNetDevice");

NS_OBJECT_ENSURE_REGISTERED(EthernetNetDevice);

TypeId
EthernetNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EthernetNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Drp")
            .AddConstructor<EthernetNetDevice>()
            .AddAttribute("Address",
                          "The MAC address of the device. If left at 00:00:00:00:00:00, "
                          "a fresh address is allocated when the device is added to a node.",
                          Mac48AddressValue(Mac48Address()),
                          MakeMac48AddressAccessor(&EthernetNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute(
                "Mtu",
                "The largest payload of a frame, in bytes (46 to 9216).",
                UintegerValue(DEFAULT_MTU),
                MakeUintegerAccessor(&EthernetNetDevice::SetMtuChecked, &EthernetNetDevice::GetMtu),
                MakeUintegerChecker<uint16_t>())
            .AddAttribute("DataRate",
                          "The line rate of the transmitter (1 bit/s to 1 Tbit/s).",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&EthernetNetDevice::SetDataRate,
                                               &EthernetNetDevice::GetDataRate),
                          MakeDataRateChecker())
            .AddAttribute("InterframeGap",
                          "The idle time the transmitter keeps after every frame, in byte "
                          "times at the DataRate (12 bytes = the standard 96 bit times; 0 to "
                          "1024).",
                          UintegerValue(12),
                          MakeUintegerAccessor(&EthernetNetDevice::SetInterframeGap,
                                               &EthernetNetDevice::GetInterframeGap),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SlotEndOnDemand",
                          "Schedule the end of a frame's slot only when a frame waits behind it "
                          "(or PhyTxEnd has a listener): one event fewer per frame sent alone, "
                          "the same frames at the same times, but ties of one nanosecond may "
                          "order differently (off: every slot's end is an event).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&EthernetNetDevice::SetSlotEndOnDemand,
                                              &EthernetNetDevice::GetSlotEndOnDemand),
                          MakeBooleanChecker())
            .AddAttribute(
                "TxQueue",
                "The queue of frames waiting for the transmitter. If none is set, "
                "a DropTailQueue<Packet> is created when the device is added "
                "to a node.",
                PointerValue(),
                MakePointerAccessor(&EthernetNetDevice::SetQueue, &EthernetNetDevice::GetQueue),
                MakePointerChecker<Queue<Packet>>())
            .AddAttribute("ComputeFcs",
                          "Put the CRC-32 of each frame sent in its trailer (the FCS); "
                          "false leaves it zero, which saves its cost per frame, unless "
                          "Node::ChecksumEnabled(). EthernetHelper's pcap and ascii tracing "
                          "turn it on.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&EthernetNetDevice::SetComputeFcs,
                                              &EthernetNetDevice::GetComputeFcs),
                          MakeBooleanChecker())
            .AddAttribute("ReceiveErrorModel",
                          "The error model applied to every received frame (none by default).",
                          PointerValue(),
                          MakePointerAccessor(&EthernetNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddAttribute("InbandTelemetry",
                          "Stamp a telemetry hop (line rate, time, bytes sent, bytes queued) "
                          "on each frame that carries telemetry (HPCC's INT) as it starts on "
                          "the wire; a switch port's setting.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&EthernetNetDevice::SetInbandTelemetry,
                                              &EthernetNetDevice::GetInbandTelemetry),
                          MakeBooleanChecker())
            .AddAttribute("PfcEnabled",
                          "IEEE 802.1Qbb priority flow control: eight classes with a transmit "
                          "queue each (class 0's is the TxQueue), strict priority, pause frames "
                          "honoured and sent. Off: the one TxQueue, MAC Control frames handed "
                          "up as any frame.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&EthernetNetDevice::SetPfcEnabled,
                                              &EthernetNetDevice::IsPfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PfcDefaultClass",
                          "With PFC on, the class of a frame without a SocketPriorityTag of "
                          "priority 0 to 7 (0 to 7).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EthernetNetDevice::SetPfcDefaultClass,
                                               &EthernetNetDevice::GetPfcDefaultClass),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("PfcPauseQuanta",
                          "With PFC on, the pause time SetClassPaused() sends for XOFF, in "
                          "quanta of 512 bit times (1 to 65535); refreshed at half of it.",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&EthernetNetDevice::SetPfcPauseQuanta,
                                               &EthernetNetDevice::GetPfcPauseQuanta),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("PfcWatchdogTime",
                          "With PFC on, the PFC watchdog's detection time: a class the peer "
                          "has held paused without a break this long, with frames waiting, is "
                          "in a pause storm and stops honouring pauses (0, the default: no "
                          "watchdog; 0 to 100 s).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&EthernetNetDevice::SetPfcWatchdogTime,
                                           &EthernetNetDevice::GetPfcWatchdogTime),
                          MakeTimeChecker())
            .AddAttribute("PfcWatchdogRestoreTime",
                          "With the PFC watchdog on, a class in a storm honours pauses again "
                          "once none has come for this long (0, the default: twice "
                          "PfcWatchdogTime; 0 to 100 s).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&EthernetNetDevice::SetPfcWatchdogRestoreTime,
                                           &EthernetNetDevice::GetPfcWatchdogRestoreTime),
                          MakeTimeChecker())
            .AddAttribute(
                "PfcWatchdogAction",
                "What the PFC watchdog does with a class in a storm: Drop (its frames "
                "are discarded, the default, as SONiC's) or Forward (they are sent "
                "regardless of the pauses).",
                EnumValue(EthernetNetDevice::PFC_WATCHDOG_DROP),
                DRP_ENUM_ACCESSOR(PfcWatchdogAction, &EthernetNetDevice::m_pfcWatchdogAction),
                MakeEnumChecker(EthernetNetDevice::PFC_WATCHDOG_DROP,
                                "Drop",
                                EthernetNetDevice::PFC_WATCHDOG_FORWARD,
                                "Forward"))
            .AddAttribute("PfcQueue",
                          "With PFC on, the factory of the transmit queues of classes 1 to 7 "
                          "(class 0 uses the TxQueue), made when first used.",
                          ObjectFactoryValue(ObjectFactory("ns3::DropTailQueue<Packet>")),
                          MakeObjectFactoryAccessor(&EthernetNetDevice::m_pfcQueueFactory),
                          MakeObjectFactoryChecker())
            .AddTraceSource("MacTx",
                            "A frame was accepted for transmission (header and trailer added).",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet was dropped before transmission: larger than the MTU, "
                            "device not attached, or TxQueue full.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacPromiscRx",
                            "A checked frame is handed up while a promiscuous receive "
                            "callback is set (every frame, whatever its destination).",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macPromiscRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A checked frame addressed to this device (unicast to its "
                            "address, broadcast or multicast) is handed up.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "The transmitter started a frame.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "The transmitter finished a frame and its inter-frame gap.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxDrop",
                            "A frame was lost because no device is at the other end.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "The last bit of a frame arrived.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A received frame was dropped by the error model or the FCS check.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "A non-promiscuous sniffer: frames sent, and frames received "
                            "that are addressed to this device.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "A promiscuous sniffer: every frame sent or received.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxPause",
                            "A pause frame started onto the wire: once per class it enables, "
                            "with the class and its pause time in quanta.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macTxPauseTrace),
                            "ns3::EthernetNetDevice::PauseTracedCallback")
            .AddTraceSource("MacRxPause",
                            "A well-formed pause frame arrived: once per class it enables, "
                            "with the class and its pause time in quanta.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macRxPauseTrace),
                            "ns3::EthernetNetDevice::PauseTracedCallback")
            .AddTraceSource("MacRxPauseDrop",
                            "A received MAC Control frame was dropped as malformed or foreign "
                            "(PFC on).",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macRxPauseDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcStorm",
                            "The PFC watchdog found a class in a pause storm (true) or "
                            "restored it (false).",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_pfcStormTrace),
                            "ns3::EthernetNetDevice::PfcStormTracedCallback");
    return tid;
}

EthernetNetDevice::EthernetNetDevice()
    : m_ifIndex(0),
      m_mtu(DEFAULT_MTU),
      m_ifgBytes(12),
      m_linkUp(false),
      m_txState(READY),
      m_receiveErrorDrops(0),
      m_checksumEnabled(-1),
      m_computeFcs(false)
{
    NS_LOG_FUNCTION(this);
}

EthernetNetDevice::~EthernetNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
EthernetNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_txComplete.Cancel(m_txCompleteEvent);
    if (m_arrivalEvent)
    {
        m_arrivalEvent->Cancel(); // frames on their way here are lost with the port
        m_arrivalEvent = nullptr;
    }
    m_arrivals.clear();
    SetPfcEnabled(false);
    m_node = nullptr;
    m_channel = nullptr;
    m_queue = nullptr;
    m_connectedQueue = nullptr;
    m_receiveErrorModel = nullptr;
    m_currentFrame = nullptr;
    m_padding.fill(nullptr);
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscRxCallback = NetDevice::PromiscReceiveCallback();
    NetDevice::DoDispose();
}

void
EthernetNetDevice::NotifyNewAggregate()
{
    NS_LOG_FUNCTION(this);
    ConnectQueueInterface();
    NetDevice::NotifyNewAggregate();
}

void
EthernetNetDevice::ConnectQueueInterface()
{
    if (!m_queue || m_queue == m_connectedQueue)
    {
        return;
    }
    Ptr<NetDeviceQueueInterface> ndqi = GetObject<NetDeviceQueueInterface>();
    if (!ndqi)
    {
        return;
    }
    NS_LOG_LOGIC("connecting the queue interface to " << m_queue);
    ndqi->GetTxQueue(0)->ConnectQueueTraces(m_queue);
    m_connectedQueue = m_queue;
}

bool
EthernetNetDevice::Attach(Ptr<EthernetChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    m_linkUp = true;
    m_linkChangeCallbacks();
    return true;
}

void
EthernetNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    NS_LOG_FUNCTION(this << queue);
    m_queue = queue;
    ConnectQueueInterface();
}

Ptr<Queue<Packet>>
EthernetNetDevice::GetQueue() const
{
    return m_queue;
}

void
EthernetNetDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    drp::RequireInRange<uint64_t>("EthernetNetDevice::DataRate (bit/s)",
                                  rate.GetBitRate(),
                                  1,
                                  1000000000000ULL);
    m_bps = rate;
    m_slotCarry = 0;
}

DataRate
EthernetNetDevice::GetDataRate() const
{
    return m_bps;
}

void
EthernetNetDevice::SetInterframeGap(uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    drp::RequireInRange<uint32_t>("EthernetNetDevice::InterframeGap (bytes)", bytes, 0, 1024);
    m_ifgBytes = bytes;
}

uint32_t
EthernetNetDevice::GetInterframeGap() const
{
    return m_ifgBytes;
}

void
EthernetNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> em)
{
    NS_LOG_FUNCTION(this << em);
    m_receiveErrorModel = em;
}

Ptr<ErrorModel>
EthernetNetDevice::GetReceiveErrorModel() const
{
    return m_receiveErrorModel;
}

uint32_t
EthernetNetDevice::GetWireSize(uint32_t frameSize) const
{
    return PREAMBLE_SFD_SIZE + std::max(MIN_FRAME_SIZE, frameSize) + m_ifgBytes;
}

Time
EthernetNetDevice::GetFrameTxTime(uint32_t frameSize) const
{
    return m_txTimes.Get(m_bps, PREAMBLE_SFD_SIZE + std::max(MIN_FRAME_SIZE, frameSize));
}

Time
EthernetNetDevice::GetSlotTime(uint32_t frameSize) const
{
    return m_txTimes.Get(m_bps, GetWireSize(frameSize));
}

Time
EthernetNetDevice::TakeSlotTime(uint32_t frameSize)
{
    return GetSlotTime(frameSize, m_slotCarry);
}

Time
EthernetNetDevice::GetSlotTime(uint32_t frameSize, uint64_t& carry) const
{
    // In integers: bits x 10^9 stays below 2^63 for any frame (bits < 2^20).
    const uint64_t bps = m_bps.GetBitRate();
    const uint64_t scaled = uint64_t(GetWireSize(frameSize)) * 8 * 1000000000ULL;
    uint64_t ns = scaled / bps;
    carry += scaled % bps;
    if (carry >= bps)
    {
        ++ns;
        carry -= bps;
    }
    return NanoSeconds(ns);
}

bool
EthernetNetDevice::IsTransmitting() const
{
    return m_txState == BUSY || (m_txState == MAY_END && Simulator::Now() < m_txEnd);
}

uint32_t
EthernetNetDevice::SumOverQueues(uint32_t (QueueBase::*count)() const) const
{
    uint32_t sum = m_queue ? (PeekPointer(m_queue)->*count)() : 0;
    for (uint8_t cls = 1; m_pfc && cls < PFC_CLASSES; ++cls)
    {
        const Ptr<Queue<Packet>>& queue = m_pfc->classes[cls].queue;
        sum += queue ? (PeekPointer(queue)->*count)() : 0;
    }
    return sum;
}

uint32_t
EthernetNetDevice::GetQueuedFrames() const
{
    return SumOverQueues(&QueueBase::GetNPackets);
}

uint32_t
EthernetNetDevice::GetQueuedBytes() const
{
    return SumOverQueues(&QueueBase::GetNBytes);
}

namespace
{
/// \return the telemetry stampers by EtherType
std::map<uint16_t, EthernetNetDevice::TelemetryStamper>&
TelemetryStampers()
{
    static std::map<uint16_t, EthernetNetDevice::TelemetryStamper> stampers;
    return stampers;
}
} // namespace

void
EthernetNetDevice::SetTelemetryStamper(uint16_t etherType, TelemetryStamper stamper)
{
    if (stamper.IsNull())
    {
        TelemetryStampers().erase(etherType);
        return;
    }
    TelemetryStampers()[etherType] = stamper;
}

void
EthernetNetDevice::SetInbandTelemetry(bool on)
{
    m_telemetry = on;
}

bool
EthernetNetDevice::GetInbandTelemetry() const
{
    return m_telemetry;
}

uint64_t
EthernetNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

Ptr<Packet>
EthernetNetDevice::StampTelemetry(Ptr<Packet> frame) const
{
    EthernetHeader ethernet(false);
    if (frame->PeekHeader(ethernet) == 0)
    {
        return frame;
    }
    auto it = TelemetryStampers().find(ethernet.GetLengthType());
    if (it == TelemetryStampers().end())
    {
        return frame;
    }
    Ptr<Packet> stamped = frame->Copy();
    EthernetTrailer trailer;
    stamped->RemoveTrailer(trailer);
    stamped->RemoveHeader(ethernet);
    if (!it->second(stamped, m_bps, Simulator::Now(), m_txBytes, GetQueuedBytes()))
    {
        return frame;
    }
    stamped->AddHeader(ethernet);
    if (trailer.GetFcs() != 0)
    {
        trailer.EnableFcs(true);
        trailer.CalcFcs(stamped);
    }
    stamped->AddTrailer(trailer);
    return stamped;
}

bool
EthernetNetDevice::IsAnyClassPaused() const
{
    for (uint8_t cls = 0; m_pfc && cls < PFC_CLASSES; ++cls)
    {
        if (m_pfc->classes[cls].paused)
        {
            return true;
        }
    }
    return false;
}

uint64_t
EthernetNetDevice::GetReceiveErrorDrops() const
{
    return m_receiveErrorDrops;
}

uint64_t
EthernetNetDevice::GetFcsErrorDrops() const
{
    return m_fcsErrorDrops;
}

int64_t
EthernetNetDevice::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    if (Ptr<RateErrorModel> rem = DynamicCast<RateErrorModel>(m_receiveErrorModel))
    {
        return rem->AssignStreams(stream);
    }
    if (Ptr<BurstErrorModel> bem = DynamicCast<BurstErrorModel>(m_receiveErrorModel))
    {
        return bem->AssignStreams(stream);
    }
    return 0;
}

// ---- transmission ----

bool
EthernetNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
EthernetNetDevice::SendFrom(Ptr<Packet> packet,
                            const Address& source,
                            const Address& dest,
                            uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    if (packet->GetSize() > m_mtu)
    {
        NS_LOG_WARN("payload of " << packet->GetSize() << " bytes exceeds the MTU " << m_mtu);
        m_macTxDropTrace(packet);
        return false;
    }
    if (!m_linkUp || !m_queue)
    {
        NS_LOG_WARN("device not attached to a channel, or without a queue");
        m_macTxDropTrace(packet);
        return false;
    }
    AddFraming(packet,
               Mac48Address::ConvertFrom(source),
               Mac48Address::ConvertFrom(dest),
               protocolNumber);
    m_macTxTrace(packet);
    const uint8_t cls = m_pfc ? GetFrameClass(packet) : 0;
    if (m_pfc && InStorm(cls) && m_pfcWatchdogAction == PFC_WATCHDOG_DROP)
    {
        NS_LOG_LOGIC("class " << unsigned(cls) << " in a pause storm: frame discarded");
        ++m_pfc->watchdogDrops;
        m_macTxDropTrace(packet);
        return false;
    }
    Ptr<Queue<Packet>> queue = m_pfc ? ClassQueue(cls) : m_queue;
    if (!queue->Enqueue(packet))
    {
        NS_LOG_LOGIC("TxQueue full, frame dropped");
        m_macTxDropTrace(packet);
        return false;
    }
    StartNextFrame();
    return true;
}

void
EthernetNetDevice::AddFraming(Ptr<Packet> packet,
                              Mac48Address source,
                              Mac48Address dest,
                              uint16_t protocolNumber) const
{
    EthernetHeader header(false);
    header.SetSource(source);
    header.SetDestination(dest);
    header.SetLengthType(protocolNumber);
    if (packet->GetSize() < MIN_PAYLOAD_SIZE)
    {
        // Zero bytes (Packet::AddPaddingAtEnd leaves them undefined), from a
        // packet made once per size: a new one per frame would cost more than
        // the rest of the framing.
        const uint32_t size = MIN_PAYLOAD_SIZE - packet->GetSize();
        Ptr<const Packet>& padding = m_padding[size];
        if (!padding)
        {
            padding = Create<Packet>(size);
        }
        packet->AddAtEnd(padding);
    }
    packet->AddHeader(header);

    EthernetTrailer trailer;
    trailer.EnableFcs(IsFcsComputed());
    trailer.CalcFcs(packet);
    packet->AddTrailer(trailer);
}

bool
EthernetNetDevice::IsChecksumEnabled() const
{
    if (m_checksumEnabled < 0)
    {
        m_checksumEnabled = Node::ChecksumEnabled() ? 1 : 0;
    }
    return m_checksumEnabled == 1;
}

void
EthernetNetDevice::SetComputeFcs(bool compute)
{
    NS_LOG_FUNCTION(this << compute);
    m_computeFcs = compute;
}

bool
EthernetNetDevice::GetComputeFcs() const
{
    return m_computeFcs;
}

bool
EthernetNetDevice::IsFcsComputed() const
{
    return m_computeFcs || IsChecksumEnabled();
}

void
EthernetNetDevice::FrameForTransmission(Ptr<Packet> packet,
                                        Mac48Address dest,
                                        uint16_t protocolNumber)
{
    AddFraming(packet, m_address, dest, protocolNumber);
    m_macTxTrace(packet);
}

Ptr<Packet>
EthernetNetDevice::DequeueFrame()
{
    if (m_pfc)
    {
        return DequeueClassFrame();
    }
    return m_queue->IsEmpty() ? nullptr : m_queue->Dequeue();
}

bool
EthernetNetDevice::HasQueuedFrame() const
{
    if (!m_pfc)
    {
        return !m_queue->IsEmpty();
    }
    for (uint8_t cls = 0; cls < PFC_CLASSES; ++cls)
    {
        const PfcClass& c = m_pfc->classes[cls];
        const Ptr<Queue<Packet>>& queue = GetMadeClassQueue(cls);
        if (!c.paused && queue && !queue->IsEmpty())
        {
            return true;
        }
    }
    return false;
}

void
EthernetNetDevice::SetSlotEndOnDemand(bool onDemand)
{
    m_slotEndOnDemand = onDemand;
}

bool
EthernetNetDevice::GetSlotEndOnDemand() const
{
    return m_slotEndOnDemand;
}

bool
EthernetNetDevice::HasFrameWaiting() const
{
    return (m_pfc && m_pfc->pendingMask) || HasQueuedFrame();
}

void
EthernetNetDevice::StartNextFrame()
{
    if (m_txState == MAY_END && !EndSlotOnDemand())
    {
        return;
    }
    if (m_txState != READY || !m_linkUp || !m_queue)
    {
        return;
    }
    Ptr<Packet> frame = (m_pfc && m_pfc->pendingMask) ? TakePauseFrame() : DequeueFrame();
    if (frame && m_telemetry)
    {
        frame = StampTelemetry(frame);
    }
    if (frame)
    {
        TransmitStart(frame);
    }
}

void
EthernetNetDevice::TransmitStart(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    NS_ASSERT_MSG(m_txState == READY, "the transmitter must be READY to start a frame");
    m_txState = BUSY;
    m_currentFrame = frame;
    m_promiscSnifferTrace(frame);
    m_snifferTrace(frame);
    m_phyTxBeginTrace(frame);

    const uint32_t size = frame->GetSize();
    m_txBytes += GetWireSize(size); // what the wire carried: preamble and gap too
    const Time slot = TakeSlotTime(size);
    m_txEnd = Simulator::Now() + slot;
    if (!m_slotEndOnDemand || HasFrameWaiting() || !m_phyTxEndTrace.IsEmpty())
    {
        m_txCompleteEvent = m_txComplete.Schedule(slot);
    }
    else
    {
        m_txState = MAY_END; // a frame that comes before m_txEnd schedules the end
    }
    if (!m_channel->TransmitStart(frame, this, GetFrameTxTime(size)))
    {
        m_phyTxDropTrace(frame);
    }
}

void
EthernetNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT_MSG(m_txState == BUSY, "the transmitter must be BUSY at the end of a frame");
    FinishFrame();
    StartNextFrame();
}

bool
EthernetNetDevice::EndSlotOnDemand()
{
    const Time now = Simulator::Now();
    if (now >= m_txEnd)
    {
        FinishFrame();
        return true;
    }
    if (HasFrameWaiting())
    {
        m_txState = BUSY;
        m_txCompleteEvent = m_txComplete.Schedule(m_txEnd - now);
    }
    return false;
}

void
EthernetNetDevice::FinishFrame()
{
    m_txState = READY;
    m_phyTxEndTrace(m_currentFrame);
    m_currentFrame = nullptr;
}

// ---- reception ----

void
EthernetNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    m_phyRxEndTrace(frame);
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame))
    {
        NS_LOG_LOGIC("frame " << frame->GetUid() << " dropped by the error model");
        ++m_receiveErrorDrops;
        m_phyRxDropTrace(frame);
        return;
    }

    // Traces see the whole frame; the stack gets the payload.
    Ptr<Packet> packet = frame->Copy();
    EthernetTrailer trailer;
    packet->RemoveTrailer(trailer);
    if (IsChecksumEnabled())
    {
        trailer.EnableFcs(true);
    }
    if (!trailer.CheckFcs(packet))
    {
        NS_LOG_INFO("FCS error on frame " << frame->GetUid());
        ++m_fcsErrorDrops;
        m_phyRxDropTrace(frame);
        return;
    }
    EthernetHeader header(false);
    packet->RemoveHeader(header);
    const Mac48Address from = header.GetSource();
    const Mac48Address to = header.GetDestination();
    const PacketType type = Classify(to);
    NS_LOG_LOGIC("frame " << from << " -> " << to << " type " << type);

    m_promiscSnifferTrace(frame);
    if (m_pfc && header.GetLengthType() == PfcHeader::ETHER_TYPE)
    {
        if (type != PACKET_OTHERHOST)
        {
            m_snifferTrace(frame);
        }
        ReceiveMacControl(frame, packet, to); // consumed by the port, never handed up
        return;
    }
    if (!m_promiscRxCallback.IsNull())
    {
        m_macPromiscRxTrace(frame);
    }
    if (type != PACKET_OTHERHOST)
    {
        m_snifferTrace(frame);
        m_macRxTrace(frame);
    }
    DeliverUp(packet, header.GetLengthType(), from, to, type);
}

void
EthernetNetDevice::ScheduleArrival(Ptr<Packet> frame, Time delay)
{
    NS_ASSERT_MSG(m_node, "EthernetNetDevice: a frame for a port on no node");
    if (!m_arrivalEvent)
    {
        m_arrivalEvent = Ptr<EthernetArrivalEvent>(new EthernetArrivalEvent(this), false);
    }
    m_arrivals.push_back(frame);
    m_arrivalEvent->Ref(); // the simulator's, released after the event ran
    Simulator::ScheduleWithContext(m_node->GetId(), delay, PeekPointer(m_arrivalEvent));
}

void
EthernetNetDevice::ReceiveArrival()
{
    Ptr<Packet> frame = std::move(m_arrivals.front());
    m_arrivals.pop_front();
    Receive(frame);
}

NetDevice::PacketType
EthernetNetDevice::Classify(Mac48Address dest) const
{
    // Most frames are for this port: one comparison (inline) before the
    // others (out of line). The port's own address is neither broadcast nor
    // a group address, so the order gives the same answers.
    if (dest == m_address)
    {
        return PACKET_HOST;
    }
    if (dest.IsBroadcast())
    {
        return PACKET_BROADCAST;
    }
    if (dest.IsGroup())
    {
        return PACKET_MULTICAST;
    }
    return PACKET_OTHERHOST;
}

void
EthernetNetDevice::DeliverUp(Ptr<Packet> packet,
                             uint16_t protocol,
                             Mac48Address from,
                             Mac48Address to,
                             PacketType type)
{
    NS_LOG_FUNCTION(this << packet << protocol << from << to << type);
    if (!m_promiscRxCallback.IsNull())
    {
        m_promiscRxCallback(this, packet, protocol, from, to, type);
    }
    if (type != PACKET_OTHERHOST && !m_rxCallback.IsNull())
    {
        m_rxCallback(this, packet, protocol, from);
    }
}

// ---- priority flow control ----

void
EthernetNetDevice::SetPfcEnabled(bool enabled)
{
    NS_LOG_FUNCTION(this << enabled);
    if (enabled && !m_pfc)
    {
        m_pfc = std::make_unique<PfcState>();
        return;
    }
    if (!enabled && m_pfc)
    {
        for (PfcClass& c : m_pfc->classes)
        {
            c.resume.Cancel();
            c.refresh.Cancel();
        }
        m_pfc.reset();
    }
}

bool
EthernetNetDevice::IsPfcEnabled() const
{
    return m_pfc != nullptr;
}

void
EthernetNetDevice::SetPfcDefaultClass(uint8_t cls)
{
    drp::RequireInRange<unsigned>("EthernetNetDevice::PfcDefaultClass", cls, 0, PFC_CLASSES - 1);
    m_pfcDefaultClass = cls;
}

uint8_t
EthernetNetDevice::GetPfcDefaultClass() const
{
    return m_pfcDefaultClass;
}

void
EthernetNetDevice::SetPfcPauseQuanta(uint16_t quanta)
{
    drp::RequireInRange<unsigned>("EthernetNetDevice::PfcPauseQuanta",
                                  quanta,
                                  1,
                                  PfcHeader::MAX_QUANTA);
    m_pfcPauseQuanta = quanta;
}

uint16_t
EthernetNetDevice::GetPfcPauseQuanta() const
{
    return m_pfcPauseQuanta;
}

EthernetNetDevice::PfcState&
EthernetNetDevice::CheckPfcClass(uint8_t cls, const std::string& what)
{
    drp::RequireInRange<unsigned>(what, cls, 0, PFC_CLASSES - 1);
    NS_ABORT_MSG_IF(!m_pfc, what << ": priority flow control is off (attribute PfcEnabled)");
    return *m_pfc;
}

Ptr<Queue<Packet>>
EthernetNetDevice::ClassQueue(uint8_t cls)
{
    if (cls == 0)
    {
        return m_queue;
    }
    Ptr<Queue<Packet>>& queue = m_pfc->classes[cls].queue;
    if (!queue)
    {
        queue = m_pfcQueueFactory.Create<Queue<Packet>>();
    }
    return queue;
}

const Ptr<Queue<Packet>>&
EthernetNetDevice::GetMadeClassQueue(uint8_t cls) const
{
    return cls == 0 ? m_queue : m_pfc->classes[cls].queue;
}

Ptr<Queue<Packet>>
EthernetNetDevice::GetClassQueue(uint8_t cls)
{
    if (!m_pfc || cls >= PFC_CLASSES)
    {
        return nullptr;
    }
    return ClassQueue(cls);
}

uint8_t
EthernetNetDevice::GetFrameClass(Ptr<const Packet> packet) const
{
    SocketPriorityTag tag;
    if (packet->PeekPacketTag(tag) && tag.GetPriority() < PFC_CLASSES)
    {
        return tag.GetPriority();
    }
    return m_pfcDefaultClass;
}

bool
EthernetNetDevice::IsClassPaused(uint8_t cls) const
{
    return m_pfc && cls < PFC_CLASSES && m_pfc->classes[cls].paused;
}

Ptr<Packet>
EthernetNetDevice::DequeueClassFrame()
{
    for (int cls = PFC_CLASSES - 1; cls >= 0; --cls) // strict priority: highest first
    {
        const PfcClass& c = m_pfc->classes[cls];
        const Ptr<Queue<Packet>>& queue = GetMadeClassQueue(cls);
        if (!c.paused && queue && !queue->IsEmpty())
        {
            return queue->Dequeue();
        }
    }
    return nullptr;
}

void
EthernetNetDevice::SetClassPaused(uint8_t cls, bool paused)
{
    NS_LOG_FUNCTION(this << unsigned(cls) << paused);
    PfcClass& c = CheckPfcClass(cls, "EthernetNetDevice::SetClassPaused class").classes[cls];
    if (c.pausing == paused)
    {
        return;
    }
    c.pausing = paused;
    c.refresh.Cancel();
    SendPause(cls, paused ? m_pfcPauseQuanta : 0);
}

bool
EthernetNetDevice::IsClassPausing(uint8_t cls) const
{
    return m_pfc && cls < PFC_CLASSES && m_pfc->classes[cls].pausing;
}

void
EthernetNetDevice::SendPause(uint8_t cls, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << unsigned(cls) << quanta);
    PfcState& pfc = CheckPfcClass(cls, "EthernetNetDevice::SendPause class");
    pfc.pendingMask |= uint8_t(1u << cls);
    pfc.pendingQuanta[cls] = quanta;
    StartNextFrame();
}

void
EthernetNetDevice::RefreshPause(uint8_t cls)
{
    NS_LOG_FUNCTION(this << unsigned(cls));
    SendPause(cls, m_pfcPauseQuanta);
}

Ptr<Packet>
EthernetNetDevice::TakePauseFrame()
{
    PfcState& pfc = *m_pfc;
    PfcHeader header;
    for (uint8_t cls = 0; cls < PFC_CLASSES; ++cls)
    {
        if (!(pfc.pendingMask & (1u << cls)))
        {
            continue;
        }
        const uint16_t quanta = pfc.pendingQuanta[cls];
        header.SetPause(cls, quanta);
        PfcClass& c = pfc.classes[cls];
        ++c.sent;
        m_macTxPauseTrace(cls, quanta);
        if (c.pausing && quanta > 0)
        {
            // Refreshed at half its time after this frame starts, while XOFF lasts.
            c.refresh.Cancel();
            c.refresh = Simulator::Schedule(PfcHeader::QuantaToTime(quanta, m_bps) / 2,
                                            &EthernetNetDevice::RefreshPause,
                                            this,
                                            cls);
        }
    }
    pfc.pendingMask = 0;
    NS_LOG_LOGIC("sending " << header);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(header);
    AddFraming(frame, m_address, PfcHeader::GetPfcDestination(), PfcHeader::ETHER_TYPE);
    return frame;
}

void
EthernetNetDevice::ReceiveMacControl(Ptr<const Packet> frame, Ptr<Packet> payload, Mac48Address to)
{
    PfcHeader header;
    payload->PeekHeader(header);
    if (!header.IsWellFormed() || !PfcHeader::IsPfcDestination(to))
    {
        NS_LOG_INFO("MAC Control frame " << frame->GetUid() << " dropped: " << header << " to "
                                         << to);
        ++m_pfc->malformedDrops;
        m_macRxPauseDropTrace(frame);
        return;
    }
    NS_LOG_LOGIC("received " << header);
    for (uint8_t cls = 0; cls < PFC_CLASSES; ++cls)
    {
        if (header.IsClassEnabled(cls))
        {
            ++m_pfc->classes[cls].received;
            m_macRxPauseTrace(cls, header.GetQuanta(cls));
            ApplyPause(cls, header.GetQuanta(cls));
        }
    }
    StartNextFrame(); // a class may have resumed
}

void
EthernetNetDevice::ApplyPause(uint8_t cls, uint16_t quanta)
{
    PfcClass& c = m_pfc->classes[cls];
    const bool storm = InStorm(cls); // judged on the pauses before this one
    if (quanta > 0)
    {
        c.lastPause = Simulator::Now();
        c.lastPauseEnd = c.lastPause + PfcHeader::QuantaToTime(quanta, m_bps);
    }
    if (storm)
    {
        return; // the watchdog ignores the peer's pauses during a storm
    }
    if (quanta == 0)
    {
        if (c.paused)
        {
            EndPause(cls);
        }
        return;
    }
    if (!c.paused)
    {
        c.paused = true;
        c.pausedSince = Simulator::Now();
    }
    else if (DetectStorm(cls))
    {
        return;
    }
    c.resume.Cancel(); // a newer pause replaces the rest of the older one
    c.resume = Simulator::Schedule(PfcHeader::QuantaToTime(quanta, m_bps),
                                   &EthernetNetDevice::PauseExpired,
                                   this,
                                   cls);
}

void
EthernetNetDevice::PauseExpired(uint8_t cls)
{
    EndPause(cls);
    StartNextFrame();
}

void
EthernetNetDevice::EndPause(uint8_t cls)
{
    PfcClass& c = m_pfc->classes[cls];
    NS_LOG_LOGIC("class " << unsigned(cls) << " resumes");
    c.resume.Cancel();
    c.paused = false;
    c.pausedTotal += Simulator::Now() - c.pausedSince;
}

bool
EthernetNetDevice::DetectStorm(uint8_t cls)
{
    PfcClass& c = m_pfc->classes[cls];
    const Ptr<Queue<Packet>>& queue = GetMadeClassQueue(cls);
    if (!m_pfcWatchdogTime.IsStrictlyPositive() ||
        Simulator::Now() - c.pausedSince < m_pfcWatchdogTime || !queue || queue->IsEmpty())
    {
        return false;
    }
    NS_LOG_INFO("class " << unsigned(cls) << " paused since " << c.pausedSince.As(Time::US)
                         << " with " << queue->GetNPackets() << " frames waiting: a pause storm");
    EndPause(cls);
    c.storm = true;
    ++m_pfc->storms;
    m_pfcStormTrace(cls, true);
    if (m_pfcWatchdogAction == PFC_WATCHDOG_DROP)
    {
        DiscardClassFrames(cls);
    }
    return true;
}

bool
EthernetNetDevice::InStorm(uint8_t cls)
{
    return m_pfc->classes[cls].storm && !StormOver(cls);
}

bool
EthernetNetDevice::StormOver(uint8_t cls)
{
    PfcClass& c = m_pfc->classes[cls];
    const Time restore = m_pfcWatchdogRestoreTime.IsStrictlyPositive() ? m_pfcWatchdogRestoreTime
                                                                       : 2 * m_pfcWatchdogTime;
    if (Simulator::Now() - c.lastPause < restore || Simulator::Now() < c.lastPauseEnd)
    {
        return false;
    }
    NS_LOG_INFO("class " << unsigned(cls) << ": no pause since " << c.lastPause.As(Time::US)
                         << ", the storm is over");
    c.storm = false;
    m_pfcStormTrace(cls, false);
    return true;
}

void
EthernetNetDevice::DiscardClassFrames(uint8_t cls)
{
    // Dequeued, not removed, so that whoever follows the queue's Dequeue
    // trace (a switch's buffer accounting) frees what each frame held.
    const Ptr<Queue<Packet>> queue = ClassQueue(cls);
    while (!queue->IsEmpty())
    {
        Ptr<Packet> frame = queue->Dequeue();
        ++m_pfc->watchdogDrops;
        m_macTxDropTrace(frame);
    }
}

bool
EthernetNetDevice::IsPfcWatchdogDropping(uint8_t cls) const
{
    return m_pfc && cls < PFC_CLASSES && m_pfc->classes[cls].storm &&
           m_pfcWatchdogAction == PFC_WATCHDOG_DROP;
}

uint64_t
EthernetNetDevice::GetPfcWatchdogDrops() const
{
    return m_pfc ? m_pfc->watchdogDrops : 0;
}

uint64_t
EthernetNetDevice::GetPfcStorms() const
{
    return m_pfc ? m_pfc->storms : 0;
}

void
EthernetNetDevice::SetPfcWatchdogTime(Time time)
{
    drp::RequireInRange<Time>("EthernetNetDevice::PfcWatchdogTime", time, Time(0), Seconds(100));
    m_pfcWatchdogTime = time;
}

void
EthernetNetDevice::SetPfcWatchdogRestoreTime(Time time)
{
    drp::RequireInRange<Time>("EthernetNetDevice::PfcWatchdogRestoreTime",
                              time,
                              Time(0),
                              Seconds(100));
    m_pfcWatchdogRestoreTime = time;
}

Time
EthernetNetDevice::GetPfcWatchdogTime() const
{
    return m_pfcWatchdogTime;
}

Time
EthernetNetDevice::GetPfcWatchdogRestoreTime() const
{
    return m_pfcWatchdogRestoreTime;
}

uint64_t
EthernetNetDevice::GetPausesSent(uint8_t cls) const
{
    return m_pfc && cls < PFC_CLASSES ? m_pfc->classes[cls].sent : 0;
}

uint64_t
EthernetNetDevice::GetPausesReceived(uint8_t cls) const
{
    return m_pfc && cls < PFC_CLASSES ? m_pfc->classes[cls].received : 0;
}

Time
EthernetNetDevice::GetTimePaused(uint8_t cls) const
{
    if (!m_pfc || cls >= PFC_CLASSES)
    {
        return Time(0);
    }
    const PfcClass& c = m_pfc->classes[cls];
    return c.pausedTotal + (c.paused ? Simulator::Now() - c.pausedSince : Time(0));
}

uint64_t
EthernetNetDevice::GetMalformedPauseDrops() const
{
    return m_pfc ? m_pfc->malformedDrops : 0;
}

// ---- NetDevice boilerplate ----

void
EthernetNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
EthernetNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
EthernetNetDevice::GetChannel() const
{
    return m_channel;
}

void
EthernetNetDevice::SetAddress(Address address)
{
    NS_LOG_FUNCTION(this << address);
    const Mac48Address mac = Mac48Address::ConvertFrom(address);
    NS_ABORT_MSG_IF(mac.IsGroup(),
                    "EthernetNetDevice: address " << mac
                                                  << " is a group (multicast or broadcast) "
                                                     "address; a port needs an individual one");
    m_address = mac;
}

Address
EthernetNetDevice::GetAddress() const
{
    return m_address;
}

void
EthernetNetDevice::SetMtuChecked(uint16_t mtu)
{
    drp::RequireInRange<uint16_t>("EthernetNetDevice::Mtu", mtu, MIN_MTU, MAX_MTU);
    SetMtu(mtu);
}

bool
EthernetNetDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    if (mtu < MIN_MTU || mtu > MAX_MTU)
    {
        NS_LOG_WARN("MTU " << mtu << " outside [" << MIN_MTU << ", " << MAX_MTU << "]");
        return false;
    }
    m_mtu = mtu;
    return true;
}

uint16_t
EthernetNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
EthernetNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
EthernetNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
EthernetNetDevice::IsBroadcast() const
{
    return true;
}

Address
EthernetNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
EthernetNetDevice::IsMulticast() const
{
    return true;
}

Address
EthernetNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
EthernetNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
EthernetNetDevice::IsPointToPoint() const
{
    // A cable joins exactly two ports. ns-3's distributed simulators take
    // their lookahead from the Delay of point-to-point devices' channels only.
    return true;
}

bool
EthernetNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
EthernetNetDevice::GetNode() const
{
    return m_node;
}

void
EthernetNetDevice::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
    if (m_address == Mac48Address())
    {
        m_address = Mac48Address::Allocate();
        NS_LOG_LOGIC("allocated address " << m_address);
    }
    if (!m_queue)
    {
        SetQueue(CreateObject<DropTailQueue<Packet>>());
    }
}

bool
EthernetNetDevice::NeedsArp() const
{
    return true;
}

void
EthernetNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
EthernetNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
EthernetNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
