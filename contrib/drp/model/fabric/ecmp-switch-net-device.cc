/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-switch-net-device.h"

#include "ns3/bridge-channel.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/hash.h"
#include "ns3/log.h"
#include "ns3/mac-address-hash.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/rnic-net-device.h"
#include "ns3/switch-buffer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpSwitchNetDevice");

NS_OBJECT_ENSURE_REGISTERED(EcmpSwitchNetDevice);

namespace
{
/// EtherType of IPv4.
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;
/// IPv4 protocol numbers whose first four payload bytes are the two ports.
constexpr uint8_t TCP_PROTOCOL = 6;
constexpr uint8_t UDP_PROTOCOL = 17; //!< see TCP_PROTOCOL

/// Builds a flow key byte by byte, for Hash32.
class FlowKey
{
  public:
    /// \param value appended in network byte order
    template <typename T>
    void Append(T value)
    {
        for (int shift = 8 * (sizeof(T) - 1); shift >= 0; shift -= 8)
        {
            m_bytes[m_size++] = static_cast<char>((value >> shift) & 0xff);
        }
    }

    /// \param bytes appended as they are \param n how many
    void Append(const uint8_t* bytes, uint32_t n)
    {
        std::copy(bytes, bytes + n, m_bytes.begin() + m_size);
        m_size += n;
    }

    /// \return the key's hash
    uint32_t Hash() const
    {
        return Hash32(m_bytes.data(), m_size);
    }

  private:
    std::array<char, 64> m_bytes{}; //!< the key
    std::size_t m_size{0};          //!< bytes used
};
} // namespace

TypeId
EcmpSwitchNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcmpSwitchNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Drp")
            .AddConstructor<EcmpSwitchNetDevice>()
            .AddAttribute(
                "Mtu",
                "The MAC-level MTU of the switch's own interface.",
                UintegerValue(1500),
                MakeUintegerAccessor(&EcmpSwitchNetDevice::SetMtu, &EcmpSwitchNetDevice::GetMtu),
                MakeUintegerChecker<uint16_t>())
            .AddAttribute("EcmpSeed",
                          "Seed of the ECMP flow hash (with the node id, part of every "
                          "key): another seed gives other path choices.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EcmpSwitchNetDevice::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Buffer",
                          "The shared buffer (SwitchBuffer) that admits frames and sends "
                          "priority pause; null (the default): none, frames are dropped only "
                          "by egress queues.",
                          PointerValue(),
                          MakePointerAccessor(&EcmpSwitchNetDevice::SetBuffer,
                                              &EcmpSwitchNetDevice::GetBuffer),
                          MakePointerChecker<SwitchBuffer>())
            .AddTraceSource("Forward",
                            "A frame left by a port (once per port when flooded).",
                            MakeTraceSourceAccessor(&EcmpSwitchNetDevice::m_forwardTrace),
                            "ns3::EcmpSwitchNetDevice::ForwardTracedCallback")
            .AddTraceSource("Drop",
                            "A frame an egress queue refused.",
                            MakeTraceSourceAccessor(&EcmpSwitchNetDevice::m_dropTrace),
                            "ns3::EcmpSwitchNetDevice::DropTracedCallback")
            .AddTraceSource("Xoff",
                            "With a buffer: an ingress port pauses a class of its peer.",
                            MakeTraceSourceAccessor(&EcmpSwitchNetDevice::m_xoffTrace),
                            "ns3::EcmpSwitchNetDevice::PauseTracedCallback")
            .AddTraceSource("Xon",
                            "With a buffer: an ingress port resumes a class of its peer.",
                            MakeTraceSourceAccessor(&EcmpSwitchNetDevice::m_xonTrace),
                            "ns3::EcmpSwitchNetDevice::PauseTracedCallback");
    return tid;
}

EcmpSwitchNetDevice::EcmpSwitchNetDevice()
    : m_channel(CreateObject<BridgeChannel>())
{
    NS_LOG_FUNCTION(this);
}

EcmpSwitchNetDevice::~EcmpSwitchNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
EcmpSwitchNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_routes.clear();
    m_groupRoutes.clear();
    m_groups = nullptr;
    m_portSets.clear();
    m_portSetIndex.clear();
    m_channel = nullptr;
    m_node = nullptr;
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscRxCallback = NetDevice::PromiscReceiveCallback();
    m_buffer = nullptr;
    m_pending.clear();
    NetDevice::DoDispose();
}

uint32_t
EcmpSwitchNetDevice::AddPort(Ptr<EthernetNetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_UNLESS(m_node, "EcmpSwitchNetDevice: add the switch to its node before its ports");
    NS_ABORT_MSG_UNLESS(port && port->GetNode() == m_node,
                        "EcmpSwitchNetDevice: a port must be a device of the switch's node");
    if (m_address == Mac48Address())
    {
        m_address = Mac48Address::ConvertFrom(port->GetAddress());
    }
    m_node->RegisterProtocolHandler(MakeCallback(&EcmpSwitchNetDevice::ReceiveFromPort, this),
                                    0,
                                    port,
                                    true);
    Port entry;
    entry.device = port;
    m_ports.push_back(entry);
    DynamicCast<BridgeChannel>(m_channel)->AddChannel(port->GetChannel());
    if (m_buffer)
    {
        m_buffer->AddPort(port);
        m_pending.resize(m_ports.size() * SwitchBuffer::CLASSES);
        m_hooked.resize(m_pending.size(), false);
    }
    return m_ports.size() - 1;
}

void
EcmpSwitchNetDevice::SetBuffer(Ptr<SwitchBuffer> buffer)
{
    NS_LOG_FUNCTION(this << buffer);
    NS_ABORT_MSG_IF(buffer && buffer->GetNPorts() > 0,
                    "EcmpSwitchNetDevice::SetBuffer: the buffer belongs to another switch");
    if (buffer)
    {
        // The whole requirement at once, rather than the port where it first fails.
        std::vector<Ptr<EthernetNetDevice>> ports;
        for (const auto& port : m_ports)
        {
            ports.push_back(port.device);
        }
        buffer->RequireRoomFor(ports);
    }
    m_buffer = buffer;
    m_pending.clear();
    m_hooked.clear();
    if (!m_buffer)
    {
        return;
    }
    for (const auto& port : m_ports)
    {
        m_buffer->AddPort(port.device);
    }
    m_buffer->TraceConnectWithoutContext("Xoff",
                                         MakeCallback(&EcmpSwitchNetDevice::NotifyXoff, this));
    m_buffer->TraceConnectWithoutContext("Xon",
                                         MakeCallback(&EcmpSwitchNetDevice::NotifyXon, this));
    m_pending.resize(m_ports.size() * SwitchBuffer::CLASSES);
    m_hooked.resize(m_pending.size(), false);
}

void
EcmpSwitchNetDevice::NotifyXoff(uint32_t port, uint8_t cls)
{
    m_xoffTrace(port, cls);
}

void
EcmpSwitchNetDevice::NotifyXon(uint32_t port, uint8_t cls)
{
    m_xonTrace(port, cls);
}

Ptr<SwitchBuffer>
EcmpSwitchNetDevice::GetBuffer() const
{
    return m_buffer;
}

uint32_t
EcmpSwitchNetDevice::GetNPorts() const
{
    return m_ports.size();
}

Ptr<EthernetNetDevice>
EcmpSwitchNetDevice::GetPort(uint32_t index) const
{
    NS_ABORT_MSG_UNLESS(index < m_ports.size(),
                        "EcmpSwitchNetDevice: port " << index << " out of range [0, "
                                                     << m_ports.size() << ")");
    return m_ports[index].device;
}

uint32_t
EcmpSwitchNetDevice::GetPortIndex(Ptr<const NetDevice> port) const
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (m_ports[i].device == port)
        {
            return i;
        }
    }
    NS_FATAL_ERROR("EcmpSwitchNetDevice: device " << port << " is no port of this switch");
    return 0;
}

uint32_t
EcmpSwitchNetDevice::InternPorts(const std::vector<uint32_t>& ports, const std::string& what)
{
    NS_ABORT_MSG_IF(ports.empty(), "EcmpSwitchNetDevice: a route to " << what << " needs a port");
    for (uint32_t p : ports)
    {
        GetPort(p); // checks the index
    }
    auto [it, added] = m_portSetIndex.emplace(ports, m_portSets.size());
    if (added)
    {
        m_portSets.push_back(ports);
    }
    return it->second;
}

void
EcmpSwitchNetDevice::AddRoute(Mac48Address destination, const std::vector<uint32_t>& ports)
{
    NS_LOG_FUNCTION(this << destination << ports.size());
    std::ostringstream what;
    what << destination;
    m_routes[GetAddressKey(destination)] = InternPorts(ports, what.str());
}

void
EcmpSwitchNetDevice::SetRouteGroups(std::shared_ptr<const RouteGroups> groups)
{
    m_groups = std::move(groups);
}

void
EcmpSwitchNetDevice::AddGroupRoute(uint32_t group, const std::vector<uint32_t>& ports)
{
    NS_LOG_FUNCTION(this << group << ports.size());
    const uint32_t set = InternPorts(ports, "group " + std::to_string(group));
    if (group >= m_groupRoutes.size())
    {
        m_groupRoutes.resize(group + 1, 0);
    }
    m_groupRoutes[group] = set + 1;
}

const std::vector<uint32_t>*
EcmpSwitchNetDevice::FindRoute(Mac48Address destination) const
{
    const uint64_t key = GetAddressKey(destination);
    auto own = m_routes.find(key);
    if (own != m_routes.end())
    {
        return &m_portSets[own->second];
    }
    if (m_groups)
    {
        auto group = m_groups->find(key);
        if (group != m_groups->end() && group->second < m_groupRoutes.size() &&
            m_groupRoutes[group->second] != 0)
        {
            return &m_portSets[m_groupRoutes[group->second] - 1];
        }
    }
    return nullptr;
}

std::vector<uint32_t>
EcmpSwitchNetDevice::GetRoute(Mac48Address destination) const
{
    const std::vector<uint32_t>* route = FindRoute(destination);
    return route ? *route : std::vector<uint32_t>{};
}

uint32_t
EcmpSwitchNetDevice::GetRouteEntries() const
{
    return m_portSets.size();
}

void
EcmpSwitchNetDevice::SetFloodPort(uint32_t index, bool flood)
{
    GetPort(index);
    m_ports[index].flood = flood;
}

bool
EcmpSwitchNetDevice::IsFloodPort(uint32_t index) const
{
    GetPort(index);
    return m_ports[index].flood;
}

uint32_t
EcmpSwitchNetDevice::GetFlowHash(Ptr<const Packet> packet,
                                 uint16_t protocol,
                                 Mac48Address source,
                                 Mac48Address destination) const
{
    FlowKey key;
    key.Append(m_ecmpSeed);
    key.Append(m_node ? m_node->GetId() : 0U);
    uint8_t mac[6];
    source.CopyTo(mac);
    key.Append(mac, 6);
    destination.CopyTo(mac);
    key.Append(mac, 6);
    key.Append(protocol);
    std::array<uint8_t, 64> head{};
    const uint32_t n = packet->CopyData(head.data(), head.size());
    if (RnicNetDevice::IsValidEtherType(protocol) && n >= 4)
    {
        key.Append(head.data() + 2, 2); // TID (DrpHeader: CTRL, STATUS, TID)
    }
    else if (protocol == IPV4_ETHERTYPE && n >= 20)
    {
        const uint32_t ihl = 4U * (head[0] & 0x0f);
        key.Append(head.data() + 9, 1);  // protocol
        key.Append(head.data() + 12, 8); // source and destination address
        if ((head[9] == TCP_PROTOCOL || head[9] == UDP_PROTOCOL) && ihl >= 20 && n >= ihl + 4)
        {
            key.Append(head.data() + ihl, 4); // source and destination port
        }
    }
    return key.Hash();
}

uint32_t
EcmpSwitchNetDevice::SelectPort(Ptr<const Packet> packet,
                                uint16_t protocol,
                                Mac48Address source,
                                Mac48Address destination) const
{
    const std::vector<uint32_t>* route = FindRoute(destination);
    NS_ABORT_MSG_IF(!route, "EcmpSwitchNetDevice: no route to " << destination);
    return PickPort(*route, packet, protocol, source, destination);
}

uint32_t
EcmpSwitchNetDevice::PickPort(const std::vector<uint32_t>& route,
                              Ptr<const Packet> packet,
                              uint16_t protocol,
                              Mac48Address source,
                              Mac48Address destination) const
{
    if (route.size() == 1)
    {
        return route.front(); // no hash where there is no choice: most frames
    }
    return route[GetFlowHash(packet, protocol, source, destination) % route.size()];
}

void
EcmpSwitchNetDevice::ReceiveFromPort(Ptr<NetDevice> incomingPort,
                                     Ptr<const Packet> packet,
                                     uint16_t protocol,
                                     const Address& source,
                                     const Address& destination,
                                     PacketType packetType)
{
    NS_LOG_FUNCTION(this << incomingPort << packet << protocol << source << destination
                         << packetType);
    const Mac48Address src = Mac48Address::ConvertFrom(source);
    const Mac48Address dst = Mac48Address::ConvertFrom(destination);
    const uint32_t inPort = GetPortIndex(incomingPort);
    if (!m_promiscRxCallback.IsNull())
    {
        m_promiscRxCallback(this, packet, protocol, source, destination, packetType);
    }
    if (dst == m_address)
    {
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, packet, protocol, source);
        }
        return;
    }
    if (packetType == PACKET_BROADCAST || packetType == PACKET_MULTICAST)
    {
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, packet, protocol, source);
        }
        if (IsLinkLocal(dst))
        {
            NS_LOG_LOGIC("link-local frame " << packet->GetUid() << " to " << dst
                                             << " stays at port " << inPort);
            ++m_linkLocalFrames;
            return;
        }
        Flood(inPort, packet, protocol, src, dst);
        return;
    }
    const std::vector<uint32_t>* route = FindRoute(dst);
    if (!route)
    {
        Flood(inPort, packet, protocol, src, dst);
        return;
    }
    ForwardUnicast(inPort, packet, protocol, src, dst, *route);
}

void
EcmpSwitchNetDevice::ForwardUnicast(uint32_t inPort,
                                    Ptr<const Packet> packet,
                                    uint16_t protocol,
                                    Mac48Address source,
                                    Mac48Address destination,
                                    const std::vector<uint32_t>& route)
{
    const uint32_t outPort = PickPort(route, packet, protocol, source, destination);
    ++m_unicastFrames;
    if (outPort == inPort)
    {
        NS_LOG_WARN("route to " << destination << " leads back out of port " << inPort);
        ++m_hairpinDrops;
        return;
    }
    SendOut(inPort, outPort, packet, protocol, source, destination);
}

void
EcmpSwitchNetDevice::Flood(uint32_t inPort,
                           Ptr<const Packet> packet,
                           uint16_t protocol,
                           Mac48Address source,
                           Mac48Address destination)
{
    ++m_floodedFrames;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        if (p != inPort && m_ports[p].flood)
        {
            SendOut(inPort, p, packet, protocol, source, destination);
        }
    }
}

void
EcmpSwitchNetDevice::SendOut(uint32_t inPort,
                             uint32_t outPort,
                             Ptr<const Packet> packet,
                             uint16_t protocol,
                             Mac48Address source,
                             Mac48Address destination)
{
    if (m_buffer && inPort < m_ports.size())
    {
        SendBuffered(inPort, outPort, packet, protocol, source, destination);
        return;
    }
    if (!m_ports[outPort].device->SendFrom(packet->Copy(), source, destination, protocol))
    {
        CountRefused(outPort, packet);
        return;
    }
    CountForwarded(inPort, outPort, packet);
}

void
EcmpSwitchNetDevice::CountRefused(uint32_t outPort, Ptr<const Packet> packet)
{
    NS_LOG_LOGIC("port " << outPort << " refused frame " << packet->GetUid());
    Ptr<EthernetNetDevice> device = m_ports[outPort].device;
    if (device->IsPfcWatchdogDropping(device->GetFrameClass(packet)))
    {
        return; // discarded by the port's PFC watchdog, which counts it
    }
    ++m_ports[outPort].stats.egressDrops;
    m_dropTrace(packet, outPort);
}

void
EcmpSwitchNetDevice::CountForwarded(uint32_t inPort, uint32_t outPort, Ptr<const Packet> packet)
{
    Port& port = m_ports[outPort];
    ++port.stats.framesOut;
    m_forwardTrace(packet, inPort, outPort);
    // With PFC the frame waits in its class's queue (class 0's is the TxQueue).
    Ptr<Queue<Packet>> queue = port.device->IsPfcEnabled()
                                   ? port.device->GetClassQueue(port.device->GetFrameClass(packet))
                                   : port.device->GetQueue();
    port.stats.peakBytes = std::max(port.stats.peakBytes, queue->GetNBytes());
    port.stats.peakFrames = std::max(port.stats.peakFrames, queue->GetNPackets());
}

void
EcmpSwitchNetDevice::SendBuffered(uint32_t inPort,
                                  uint32_t outPort,
                                  Ptr<const Packet> packet,
                                  uint16_t protocol,
                                  Mac48Address source,
                                  Mac48Address destination)
{
    const uint8_t cls = m_ports[inPort].device->GetFrameClass(packet);
    const uint32_t bytes = std::max(packet->GetSize(), EthernetNetDevice::MIN_PAYLOAD_SIZE) +
                           EthernetNetDevice::HEADER_SIZE + EthernetNetDevice::FCS_SIZE;
    const SwitchBuffer::Placement placement = m_buffer->Admit(inPort, cls, bytes);
    if (placement >= SwitchBuffer::SHARED_FULL)
    {
        NS_LOG_LOGIC("buffer refused frame " << packet->GetUid() << " from port " << inPort << ": "
                                             << SwitchBuffer::GetPlacementName(placement));
        return;
    }
    const uint32_t fifo = EgressFifo(outPort, packet);
    m_pending[fifo].push_back({packet->GetUid(), bytes, inPort, cls, false});
    m_passedThrough = false;
    if (!m_ports[outPort].device->SendFrom(packet->Copy(), source, destination, protocol))
    {
        m_pending[fifo].pop_back();
        CountRefused(outPort, packet);
        return;
    }
    if (!m_passedThrough)
    {
        CommitPending(fifo, placement);
    }
    CountForwarded(inPort, outPort, packet);
}

void
EcmpSwitchNetDevice::CommitPending(uint32_t fifo, uint8_t placement)
{
    Pending& entry = m_pending[fifo].back();
    entry.committed = true;
    m_buffer->Add(entry.inPort,
                  entry.cls,
                  entry.bytes,
                  static_cast<SwitchBuffer::Placement>(placement));
}

uint32_t
EcmpSwitchNetDevice::EgressFifo(uint32_t outPort, Ptr<const Packet> packet)
{
    Ptr<EthernetNetDevice> device = m_ports[outPort].device;
    const uint8_t cls = device->IsPfcEnabled() ? device->GetFrameClass(packet) : 0;
    const uint32_t fifo = outPort * SwitchBuffer::CLASSES + cls;
    if (!m_hooked[fifo])
    {
        Ptr<Queue<Packet>> queue = cls == 0 ? device->GetQueue() : device->GetClassQueue(cls);
        queue->TraceConnectWithoutContext(
            "Dequeue",
            MakeBoundCallback(&EcmpSwitchNetDevice::EgressDequeued, this, fifo));
        m_hooked[fifo] = true;
    }
    return fifo;
}

void
EcmpSwitchNetDevice::EgressDequeued(EcmpSwitchNetDevice* sw, uint32_t fifo, Ptr<const Packet> frame)
{
    std::deque<Pending>& pending = sw->m_pending[fifo];
    auto it = pending.begin();
    while (it != pending.end() && it->uid != frame->GetUid())
    {
        ++it; // only where the queue does not keep its order
    }
    if (it == pending.end())
    {
        return; // a frame the switch sent itself
    }
    const Pending entry = *it;
    pending.erase(it);
    if (!entry.committed)
    {
        sw->m_passedThrough = true; // queued and sent at once: it took no buffer
        return;
    }
    sw->m_buffer->Remove(entry.inPort, entry.cls, entry.bytes);
}

EcmpSwitchNetDevice::PortStats
EcmpSwitchNetDevice::GetPortStats(uint32_t index) const
{
    GetPort(index);
    return m_ports[index].stats;
}

uint64_t
EcmpSwitchNetDevice::GetUnicastFrames() const
{
    return m_unicastFrames;
}

uint64_t
EcmpSwitchNetDevice::GetLinkLocalFrames() const
{
    return m_linkLocalFrames;
}

bool
EcmpSwitchNetDevice::IsLinkLocal(Mac48Address address)
{
    uint8_t bytes[6];
    address.CopyTo(bytes);
    return bytes[0] == 0x01 && bytes[1] == 0x80 && bytes[2] == 0xC2 && bytes[3] == 0 &&
           bytes[4] == 0 && (bytes[5] & 0xF0) == 0;
}

uint64_t
EcmpSwitchNetDevice::GetFloodedFrames() const
{
    return m_floodedFrames;
}

uint64_t
EcmpSwitchNetDevice::GetHairpinDrops() const
{
    return m_hairpinDrops;
}

uint64_t
EcmpSwitchNetDevice::GetEgressDrops() const
{
    uint64_t drops = 0;
    for (const auto& port : m_ports)
    {
        drops += port.stats.egressDrops;
    }
    return drops;
}

uint64_t
EcmpSwitchNetDevice::GetAddressKey(Mac48Address address)
{
    return MacAddressHash::GetKey(address);
}

void
EcmpSwitchNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
EcmpSwitchNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
EcmpSwitchNetDevice::GetChannel() const
{
    return m_channel;
}

void
EcmpSwitchNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
EcmpSwitchNetDevice::GetAddress() const
{
    return m_address;
}

bool
EcmpSwitchNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
EcmpSwitchNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
EcmpSwitchNetDevice::IsLinkUp() const
{
    return true;
}

void
EcmpSwitchNetDevice::AddLinkChangeCallback(Callback<void> /* callback */)
{
    // The switch's own interface is always up.
}

bool
EcmpSwitchNetDevice::IsBroadcast() const
{
    return true;
}

Address
EcmpSwitchNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
EcmpSwitchNetDevice::IsMulticast() const
{
    return true;
}

Address
EcmpSwitchNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
EcmpSwitchNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
EcmpSwitchNetDevice::IsPointToPoint() const
{
    return false;
}

bool
EcmpSwitchNetDevice::IsBridge() const
{
    return true;
}

bool
EcmpSwitchNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
EcmpSwitchNetDevice::SendFrom(Ptr<Packet> packet,
                              const Address& source,
                              const Address& dest,
                              uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    const Mac48Address src = Mac48Address::ConvertFrom(source);
    const Mac48Address dst = Mac48Address::ConvertFrom(dest);
    const uint32_t none = m_ports.size();
    const std::vector<uint32_t>* route = FindRoute(dst);
    if (!route)
    {
        Flood(none, packet, protocolNumber, src, dst);
    }
    else
    {
        ForwardUnicast(none, packet, protocolNumber, src, dst, *route);
    }
    return true;
}

Ptr<Node>
EcmpSwitchNetDevice::GetNode() const
{
    return m_node;
}

void
EcmpSwitchNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
EcmpSwitchNetDevice::NeedsArp() const
{
    return true;
}

void
EcmpSwitchNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
EcmpSwitchNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
EcmpSwitchNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
