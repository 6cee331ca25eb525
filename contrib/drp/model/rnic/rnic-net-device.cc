/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rnic-net-device.h"

#include "ns3/drop-tail-queue.h"
#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-int-header.h"
#include "ns3/ecn-marking-queue.h"
#include "ns3/enum.h"
#include "ns3/host-cpus.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/roce-transport.h"
#include "ns3/roce-v2-frame.h"
#include "ns3/socket.h"
#include "ns3/uinteger.h"

#include <iomanip>
#include <iterator>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RnicNetDevice");

NS_OBJECT_ENSURE_REGISTERED(RnicNetDevice);

TypeId
RnicNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RnicNetDevice")
            .SetParent<EthernetNetDevice>()
            .SetGroupName("Drp")
            .AddConstructor<RnicNetDevice>()
            .AddAttribute("Method",
                          "traditional: handshake first, no indirect buffer; dynamic: data "
                          "into the indirect buffer while the handshake completes; roce: "
                          "RoCEv2's reliable-connected transport runs the verbs (no DRP).",
                          EnumValue(ModePolicy::DYNAMIC),
                          DRP_ENUM_ACCESSOR(ModePolicy::Method,
                                            &RnicNetDevice::SetMethod,
                                            &RnicNetDevice::GetMethod),
                          MakeEnumChecker(ModePolicy::TRADITIONAL,
                                          "traditional",
                                          ModePolicy::DYNAMIC,
                                          "dynamic",
                                          ModePolicy::ROCE,
                                          "roce"))
            .AddAttribute("EtherType",
                          "The EtherType of DRP frames: 0x01FF (511, the paper's value; "
                          "Wireshark reads values up to 1500 as IEEE 802.3 lengths) or "
                          "0x88B5 (35509, IEEE 802 local experimental). Valid: 0x0101-0x01FF "
                          "or 0x0600-0xFFFF, other than IPv4, ARP and IPv6.",
                          UintegerValue(DrpHeader::PROT_NUMBER),
                          MakeUintegerAccessor(&RnicNetDevice::SetEtherTypeChecked,
                                               &RnicNetDevice::GetEtherType),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "Transport",
                "The DRP transport-control block.",
                PointerValue(),
                MakePointerAccessor(&RnicNetDevice::SetTransport, &RnicNetDevice::GetTransport),
                MakePointerChecker<DrpTransport>())
            .AddAttribute(
                "PcieLink",
                "The PCIe link to the host.",
                PointerValue(),
                MakePointerAccessor(&RnicNetDevice::SetPcieLink, &RnicNetDevice::GetPcieLink),
                MakePointerChecker<PcieLink>())
            .AddAttribute(
                "RxQueue",
                "Where frames of other traffic for the host wait while the PCIe "
                "write engine moves them (a DropTailQueue<Packet> of default size "
                "unless set).",
                PointerValue(),
                MakePointerAccessor(&RnicNetDevice::SetRxQueue, &RnicNetDevice::GetRxQueue),
                MakePointerChecker<Queue<Packet>>())
            .AddAttribute(
                "DrpClass",
                "With the port's PfcEnabled on, the PFC class (802.1Q priority) of "
                "DRP data frames (0 to 7): they carry it to the switches and wait "
                "while a pause holds it.",
                UintegerValue(3),
                MakeUintegerAccessor(&RnicNetDevice::SetDrpClass, &RnicNetDevice::GetDrpClass),
                MakeUintegerChecker<uint8_t>())
            .AddAttribute("DrpControlClass",
                          "With the port's PfcEnabled on, the PFC class of DRP control "
                          "frames (REQ, REQ_ACK, ACK, REL, REL_ACK; 0 to 7; 3: with the "
                          "data).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RnicNetDevice::SetDrpControlClass,
                                               &RnicNetDevice::GetDrpControlClass),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("HostPacketTime",
                          "Host CPU time of each packet of other traffic (IP, ARP) that the "
                          "host sends or receives through this RNIC: its interrupt, driver "
                          "and stack, run on the node's HostCpus in turn with the host's DRP "
                          "work (0 to 1 s; 0, the default: such packets cost the host nothing; "
                          "nothing either on a node without HostCpus).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RnicNetDevice::SetHostPacketTime,
                                           &RnicNetDevice::GetHostPacketTime),
                          MakeTimeChecker())
            .AddTraceSource("HostDrop",
                            "A frame was dropped inside the host or the RNIC for want of "
                            "room (TX_QUEUE_FULL, RX_QUEUE_FULL, BUFFER_FULL).",
                            MakeTraceSourceAccessor(&RnicNetDevice::m_hostDropTrace),
                            "ns3::RnicNetDevice::HostDropTracedCallback");
    return tid;
}

RnicNetDevice::RnicNetDevice()
    : m_method(ModePolicy::DYNAMIC),
      m_etherType(DrpHeader::PROT_NUMBER),
      m_pcie(CreateObject<PcieLink>()),
      m_rxQueue(CreateObject<DropTailQueue<Packet>>())
{
    NS_LOG_FUNCTION(this);
    // Not checked against the MTU yet: the device's attributes (Mtu among
    // them) are set after its constructor, and a PayloadSize default above
    // 1468 must be able to meet an Mtu default above 1500, and a helper's
    // Mtu below 1056 the PayloadSize of the transport it sets next. SetTransport
    // checks from then on, SetMtu once a transport has been set (and a transfer
    // posted to this one is checked, DrpTransport::Transfer).
    AttachTransport(CreateObject<DrpTransport>());
    m_constructorTransport = true;
    SetEtherType(m_etherType); // registers DRP's ECN marker for it
}

bool
RnicNetDevice::IsValidEtherType(uint32_t etherType)
{
    const bool inRange = (etherType >= 0x0101 && etherType <= 0x01FF) ||
                         (etherType >= 0x0600 && etherType <= 0xFFFF);
    return inRange && etherType != 0x0800 && etherType != 0x0806 && etherType != 0x86DD;
}

void
RnicNetDevice::CheckEtherType(const std::string& name, uint32_t etherType)
{
    if (IsValidEtherType(etherType))
    {
        return;
    }
    std::ostringstream message;
    message << name << " = 0x" << std::hex << std::uppercase << std::setw(4) << std::setfill('0')
            << etherType << std::dec << " (" << etherType
            << ") is not a valid DRP EtherType: use 0x0101-0x01FF or 0x0600-0xFFFF, other than "
               "IPv4 (0x0800), ARP (0x0806) and IPv6 (0x86DD); 0x01FF is the default, 0x88B5 "
               "(IEEE 802 local experimental) the alternative";
    throw std::invalid_argument(message.str());
}

void
RnicNetDevice::SetEtherTypeChecked(uint32_t etherType)
{
    CheckEtherType("RnicNetDevice::EtherType", etherType);
    SetEtherType(static_cast<uint16_t>(etherType));
}

void
RnicNetDevice::SetEtherType(uint16_t etherType)
{
    NS_LOG_FUNCTION(this << etherType);
    CheckEtherType("RnicNetDevice::EtherType", etherType);
    m_etherType = etherType;
    if (m_transport)
    {
        m_transport->SetEtherType(m_etherType);
    }
    // Switch queues that mark ECN find DRP's field through its EtherType.
    EcnMarkingQueue::SetMarker(m_etherType, MakeCallback(&DrpHeader::MarkCongestion));
    // Switch ports with in-band telemetry stamp DRP's INT extension (HPCC).
    EthernetNetDevice::SetTelemetryStamper(m_etherType, MakeCallback(&DrpIntHeader::Stamp));
}

uint16_t
RnicNetDevice::GetEtherType() const
{
    return m_etherType;
}

void
RnicNetDevice::SetTransport(Ptr<DrpTransport> transport)
{
    NS_LOG_FUNCTION(this << transport);
    NS_ABORT_MSG_IF(!transport, "RnicNetDevice needs a DrpTransport");
    // Refused before anything is wired: a transport half attached to this
    // device would hold it, and it the transport, for ever.
    DrpTransport::CheckPayloadFitsMtu(transport->GetPayloadSize(), GetMtu());
    AttachTransport(transport);
    m_constructorTransport = false;
}

void
RnicNetDevice::AttachTransport(Ptr<DrpTransport> transport)
{
    NS_ABORT_MSG_IF(!transport, "RnicNetDevice needs a DrpTransport");
    if (m_transport && m_transport != transport)
    {
        m_transport->Dispose();
    }
    m_transport = transport;
    m_transport->SetDevice(this);
    m_transport->SetEtherType(m_etherType);
    m_transport->SetFrameReadyCallback(MakeCallback(&RnicNetDevice::StartNextFrame, this));
    m_transport->SetPausedTimeCallback(MakeCallback(&RnicNetDevice::GetDataTimePaused, this));
    m_transport->TraceConnectWithoutContext("Drop",
                                            MakeCallback(&RnicNetDevice::OnTransportDrop, this));
    m_transport->SetPcieLink(m_pcie);
    m_transport->GetRegionTable()->Attach(m_pcie->GetHostMemory());
    if (!m_transport->GetModePolicy())
    {
        m_transport->SetModePolicy(CreateObject<ModePolicy>());
    }
    SetMethod(m_method);
}

void
RnicNetDevice::SetPcieLink(Ptr<PcieLink> pcie)
{
    NS_LOG_FUNCTION(this << pcie);
    NS_ABORT_MSG_IF(!pcie, "RnicNetDevice needs a PcieLink");
    if (m_pcie)
    {
        pcie->SetHostMemory(m_pcie->GetHostMemory());
    }
    m_pcie = pcie;
    m_transport->SetPcieLink(m_pcie);
}

void
RnicNetDevice::SetMethod(ModePolicy::Method method)
{
    NS_LOG_FUNCTION(this << method);
    m_method = method;
    if (!m_transport)
    {
        return; // during construction: SetTransport applies it
    }
    // A RoCE RNIC's DRP engine stays idle (no host uses it): a traditional one.
    m_transport->GetModePolicy()->SetMethod(method == ModePolicy::ROCE ? ModePolicy::TRADITIONAL
                                                                       : method);
    if (method == ModePolicy::DYNAMIC && !m_transport->GetIndirectBuffer())
    {
        m_transport->SetIndirectBuffer(CreateObject<IndirectBuffer>());
    }
    else if (method != ModePolicy::DYNAMIC)
    {
        m_transport->SetIndirectBuffer(nullptr); // the traditional RNIC has none
    }
}

ModePolicy::Method
RnicNetDevice::GetMethod() const
{
    return m_method;
}

Ptr<DrpTransport>
RnicNetDevice::GetTransport() const
{
    return m_transport;
}

void
RnicNetDevice::SetDrpClass(uint8_t cls)
{
    drp::RequireInRange<unsigned>("RnicNetDevice::DrpClass", cls, 0, PFC_CLASSES - 1);
    m_drpClass = cls;
}

uint8_t
RnicNetDevice::GetDrpClass() const
{
    return m_drpClass;
}

void
RnicNetDevice::SetDrpControlClass(uint8_t cls)
{
    drp::RequireInRange<unsigned>("RnicNetDevice::DrpControlClass", cls, 0, PFC_CLASSES - 1);
    m_drpControlClass = cls;
}

uint8_t
RnicNetDevice::GetDrpControlClass() const
{
    return m_drpControlClass;
}

Ptr<PcieLink>
RnicNetDevice::GetPcieLink() const
{
    return m_pcie;
}

Ptr<HostMemory>
RnicNetDevice::GetHostMemory() const
{
    return m_pcie->GetHostMemory();
}

void
RnicNetDevice::SetNode(Ptr<Node> node)
{
    EthernetNetDevice::SetNode(node);
    Ptr<HostMemory> memory = node->GetObject<HostMemory>();
    if (!memory)
    {
        memory = CreateObject<HostMemory>();
        memory->SetAttribute("Seed", UintegerValue(node->GetId() + 1));
        node->AggregateObject(memory);
    }
    m_pcie->SetHostMemory(memory);
    m_transport->GetRegionTable()->Attach(memory);
}

void
RnicNetDevice::SetRxQueue(Ptr<Queue<Packet>> queue)
{
    NS_ABORT_MSG_IF(!queue, "RnicNetDevice::RxQueue must be a queue");
    m_rxQueue = queue;
}

Ptr<Queue<Packet>>
RnicNetDevice::GetRxQueue() const
{
    return m_rxQueue;
}

uint64_t
RnicNetDevice::GetHostDropCount(HostDropReason reason) const
{
    return reason < HOST_DROP_REASONS ? m_hostDrops[reason] : 0;
}

uint64_t
RnicNetDevice::GetHostDrops() const
{
    return std::accumulate(std::begin(m_hostDrops), std::end(m_hostDrops), uint64_t(0));
}

std::string
RnicNetDevice::GetHostDropReasonName(HostDropReason reason)
{
    static const char* names[] = {"tx-queue-full", "rx-queue-full", "buffer-full"};
    return reason < HOST_DROP_REASONS ? names[reason] : "unknown";
}

void
RnicNetDevice::HostDrop(Ptr<const Packet> packet, HostDropReason reason)
{
    NS_LOG_LOGIC("host drop: " << GetHostDropReasonName(reason));
    ++m_hostDrops[reason];
    m_hostDropTrace(packet, reason);
}

void
RnicNetDevice::OnTransportDrop(Ptr<const Packet> packet, DrpTransport::DropReason reason)
{
    if (reason == DrpTransport::BUFFER_FULL)
    {
        HostDrop(packet, BUFFER_FULL);
    }
}

Time
RnicNetDevice::GetDataTimePaused() const
{
    return GetTimePaused(m_drpClass);
}

uint8_t
RnicNetDevice::GetUnpausedDrpKinds() const
{
    if (!IsPfcEnabled())
    {
        return DrpTxScheduler::ANY;
    }
    // A pause may hold DRP data and let control pass (or the reverse).
    return (IsClassPaused(m_drpControlClass) ? 0 : DrpTxScheduler::CONTROL) |
           (IsClassPaused(m_drpClass) ? 0 : DrpTxScheduler::DATA);
}

bool
RnicNetDevice::HasFrameWaiting() const
{
    return EthernetNetDevice::HasFrameWaiting() || FindFrameSource(GetUnpausedDrpKinds());
}

RnicTransport*
RnicNetDevice::FindFrameSource(uint8_t kinds) const
{
    if (kinds == 0)
    {
        return nullptr;
    }
    // RoCEv2's queue pairs first: on a roce RNIC, DRP's engine stays idle.
    if (m_roce && m_roce->HasFrameToSend(kinds))
    {
        return PeekPointer(m_roce);
    }
    return m_transport->HasFrameToSend(kinds) ? PeekPointer(m_transport) : nullptr;
}

Ptr<Packet>
RnicNetDevice::DequeueFrame()
{
    const uint8_t kinds = GetUnpausedDrpKinds();
    RnicTransport* source = FindFrameSource(kinds);
    bool drp = source != nullptr;
    bool other = HasQueuedFrame();
    if (!drp || !other)
    {
        m_drpBytesAhead = 0; // the shares count only while both wait
    }
    if (drp && (!other || m_drpBytesAhead <= 0))
    {
        Mac48Address to;
        bool control = false;
        Ptr<Packet> frame = source->DequeueFrame(to, kinds, &control);
        if (IsPfcEnabled())
        {
            SocketPriorityTag tag; // the class, for the switches on the way
            tag.SetPriority(control ? m_drpControlClass : m_drpClass);
            frame->ReplacePacketTag(tag);
        }
        FrameForTransmission(frame, to, source->GetEtherType());
        m_drpBytesAhead += other ? GetWireSize(frame->GetSize()) : 0;
        return frame;
    }
    Ptr<Packet> frame = EthernetNetDevice::DequeueFrame();
    if (frame && drp)
    {
        m_drpBytesAhead -= GetWireSize(frame->GetSize());
    }
    return frame;
}

bool
RnicNetDevice::SetMtu(const uint16_t mtu)
{
    // Refuse an MTU that data frames would not fit before changing anything.
    if (!m_constructorTransport)
    {
        DrpTransport::CheckPayloadFitsMtu(m_transport->GetPayloadSize(), mtu);
    }
    return EthernetNetDevice::SetMtu(mtu);
}

void
RnicNetDevice::DoInitialize()
{
    m_transport->Initialize();
    m_pcie->Initialize();
    EthernetNetDevice::DoInitialize();
}

void
RnicNetDevice::DoDispose()
{
    m_transport->Dispose();
    m_pcie->Dispose();
    m_transport = nullptr;
    m_pcie = nullptr;
    m_rxQueue = nullptr;
    EthernetNetDevice::DoDispose();
}

bool
RnicNetDevice::EnqueueOther(Ptr<Packet> packet,
                            const Address& source,
                            const Address& dest,
                            uint16_t protocolNumber)
{
    bool fits = packet->GetSize() <= GetMtu();
    if (EthernetNetDevice::SendFrom(packet, source, dest, protocolNumber))
    {
        return true;
    }
    if (fits && IsLinkUp())
    {
        HostDrop(packet, TX_QUEUE_FULL); // the TxQueue had no room
    }
    return false;
}

bool
RnicNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, GetAddress(), dest, protocolNumber);
}

bool
RnicNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    if (protocolNumber == m_etherType || packet->GetSize() > GetMtu())
    {
        return EnqueueOther(packet, source, dest, protocolNumber);
    }
    Ptr<RnicNetDevice> self = this;
    // The host's driver and stack first, then the RNIC reads the frame.
    RunOnHost([self, packet, source, dest, protocolNumber]() {
        self->m_pcie->DmaMove(false,
                              packet->GetSize(),
                              [self, packet, source, dest, protocolNumber]() {
                                  self->EnqueueOther(packet, source, dest, protocolNumber);
                              });
    });
    return true;
}

void
RnicNetDevice::SetRoceHandler(RoceHandler handler)
{
    m_roceHandler = handler;
}

void
RnicNetDevice::SetRoceTransport(Ptr<RoceTransport> transport)
{
    m_roce = transport;
    if (m_roce)
    {
        m_roce->SetFrameReadyCallback(MakeCallback(&RnicNetDevice::StartNextFrame, this));
    }
}

Ptr<RoceTransport>
RnicNetDevice::GetRoceTransport() const
{
    return m_roce;
}

Ipv4Address
RnicNetDevice::GetRoceAddress() const
{
    Ptr<Ipv4> ipv4 = GetNode() ? GetNode()->GetObject<Ipv4>() : nullptr;
    int32_t interface = ipv4 ? ipv4->GetInterfaceForDevice(this) : -1;
    if (interface >= 0 && ipv4->GetNAddresses(interface) > 0)
    {
        return ipv4->GetAddress(interface, 0).GetLocal();
    }
    uint8_t mac[6];
    Mac48Address::ConvertFrom(GetAddress()).CopyTo(mac);
    return Ipv4Address((10U << 24) | (uint32_t(mac[3]) << 16) | (uint32_t(mac[4]) << 8) | mac[5]);
}

uint32_t
RnicNetDevice::GetRoceActiveMtu() const
{
    // GRH, UDP, BTH, the XRC and AtomicETH extensions, ICRC.
    const uint32_t overhead = 40 + 8 + 12 + 4 + 28 + 4;
    const uint32_t room = GetMtu() > overhead ? GetMtu() - overhead : 0;
    uint32_t mtu = 4096;
    while (mtu > 256 && mtu > room)
    {
        mtu /= 2;
    }
    return mtu;
}

void
RnicNetDevice::SetHostPacketTime(Time time)
{
    drp::RequireInRange<Time>("RnicNetDevice::HostPacketTime", time, Seconds(0), Seconds(1));
    m_hostPacketTime = time;
}

Time
RnicNetDevice::GetHostPacketTime() const
{
    return m_hostPacketTime;
}

void
RnicNetDevice::RunOnHost(std::function<void()> job)
{
    Ptr<HostCpus> cpus = m_hostPacketTime.IsStrictlyPositive() && GetNode()
                             ? GetNode()->GetObject<HostCpus>()
                             : nullptr;
    if (!cpus)
    {
        job();
        return;
    }
    cpus->Run(m_hostPacketTime, std::move(job));
}

void
RnicNetDevice::DeliverUp(Ptr<Packet> packet,
                         uint16_t protocol,
                         Mac48Address from,
                         Mac48Address to,
                         PacketType type)
{
    if (protocol == m_etherType && type == PACKET_HOST)
    {
        m_transport->Receive(packet, from);
        return;
    }
    if (protocol == IPV4_ETHER_TYPE && type == PACKET_HOST && (!m_roceHandler.IsNull() || m_roce) &&
        RoceV2Frame::IsRoceV2(packet))
    {
        const bool gsi = RoceV2Frame::PeekDestQp(packet) == RoceV2Frame::GSI_QP;
        if (gsi && !m_roceHandler.IsNull())
        {
            m_roceHandler(packet, from);
            return;
        }
        if (!gsi && m_roce)
        {
            m_roce->Receive(packet, from);
            return;
        }
    }
    if (type == PACKET_OTHERHOST)
    {
        EthernetNetDevice::DeliverUp(packet, protocol, from, to, type);
        return;
    }
    if (!m_rxQueue->Enqueue(packet))
    {
        HostDrop(packet, RX_QUEUE_FULL);
        return;
    }
    // The write engine serves its requests in order: the frame whose write
    // completes is the queue's head.
    Ptr<RnicNetDevice> self = this;
    m_pcie->DmaMove(true, packet->GetSize(), [self, packet, protocol, from, to, type]() {
        Ptr<Packet> head = self->m_rxQueue->Dequeue();
        NS_ASSERT_MSG(head == packet, "host-bound frames must leave the RxQueue in order");
        // In host memory: the host's interrupt, driver and stack take it up.
        self->RunOnHost([self, packet, protocol, from, to, type]() {
            self->EthernetNetDevice::DeliverUp(packet, protocol, from, to, type);
        });
    });
}

} // namespace ns3
