/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-connection-manager.h"

#include "drp-verbs-provider.h"
#include "rdma-cm-id.h"
#include "rdma-verbs-types.h"

#include "ns3/drp-compat.h"
#include "ns3/host-cpus.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-deth-header.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pcie-link.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-v2-frame.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cerrno>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaConnectionManager");

NS_OBJECT_ENSURE_REGISTERED(RdmaConnectionManager);

namespace
{
/// The general services interface's queue pair, where CM MADs go.
constexpr uint32_t GSI_QP = RoceV2Frame::GSI_QP;
/// The first port rdma_bind_addr(port 0) hands out.
constexpr uint16_t FIRST_EPHEMERAL_PORT = 49152;
} // namespace

TypeId
RdmaConnectionManager::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaConnectionManager")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<RdmaConnectionManager>()
            .AddAttribute("MessageTime",
                          "Host CPU time the connection manager spends on each CM message it "
                          "sends or receives (the kernel's CM and the event to the application; "
                          "an assumption: measure it with librdmacm's cmtime), 0 to 1 s",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RdmaConnectionManager::m_messageTime),
                          MakeTimeChecker(Seconds(0), Seconds(1)))
            .AddAttribute("CmResponseTimeout",
                          "The response timeout, 4.096 us x 2^value, after which a REQ, REP or "
                          "DREQ is sent again (0 to 31; rdma_cm's CMA_CM_RESPONSE_TIMEOUT is 20, "
                          "4.3 s)",
                          UintegerValue(20),
                          MakeUintegerAccessor(&RdmaConnectionManager::m_responseTimeout),
                          MakeUintegerChecker<uint8_t>(0, 31))
            .AddAttribute("MaxCmRetries",
                          "Sends of a REQ, REP or DREQ after the first before the connection "
                          "manager gives up (0 to 15; rdma_cm's CMA_MAX_CM_RETRIES is 15)",
                          UintegerValue(15),
                          MakeUintegerAccessor(&RdmaConnectionManager::m_maxRetries),
                          MakeUintegerChecker<uint8_t>(0, 15))
            .AddTraceSource("Tx",
                            "A CM message leaves for a peer",
                            MakeTraceSourceAccessor(&RdmaConnectionManager::m_txTrace),
                            "ns3::RdmaConnectionManager::MessageTracedCallback")
            .AddTraceSource("Rx",
                            "A CM message reaches its id",
                            MakeTraceSourceAccessor(&RdmaConnectionManager::m_rxTrace),
                            "ns3::RdmaConnectionManager::MessageTracedCallback");
    return tid;
}

RdmaConnectionManager::RdmaConnectionManager()
    : m_messageTime(MicroSeconds(10)),
      m_responseTimeout(20),
      m_maxRetries(15),
      m_psnRv(CreateObject<UniformRandomVariable>())
{
}

void
RdmaConnectionManager::DoDispose()
{
    if (m_rnic)
    {
        m_rnic->SetRoceHandler(RnicNetDevice::RoceHandler());
    }
    m_rnic = nullptr;
    m_ids.clear();
    m_ports.clear();
    m_requests.clear();
    Object::DoDispose();
}

Ptr<RdmaConnectionManager>
RdmaConnectionManager::Attach(Ptr<RnicNetDevice> rnic)
{
    NS_ABORT_MSG_IF(!rnic, "RdmaConnectionManager::Attach: no RNIC");
    Ptr<RdmaConnectionManager> manager = rnic->GetObject<RdmaConnectionManager>();
    if (manager)
    {
        return manager;
    }
    manager = CreateObject<RdmaConnectionManager>();
    manager->m_rnic = rnic;
    rnic->AggregateObject(manager);
    rnic->SetRoceHandler(MakeCallback(&RdmaConnectionManager::Receive, manager));
    return manager;
}

Ptr<RnicNetDevice>
RdmaConnectionManager::FindRnic(const Address& address)
{
    bool mac = Mac48Address::IsMatchingType(address);
    if (!mac && !Ipv4Address::IsMatchingType(address))
    {
        return nullptr;
    }
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
        {
            Ptr<RnicNetDevice> rnic = DynamicCast<RnicNetDevice>((*node)->GetDevice(i));
            if (rnic && (mac ? rnic->GetAddress() == address
                             : rnic->GetRoceAddress() == Ipv4Address::ConvertFrom(address)))
            {
                return rnic;
            }
        }
    }
    return nullptr;
}

uint32_t
RdmaConnectionManager::AllocateCommId()
{
    return m_nextCommId++;
}

uint32_t
RdmaConnectionManager::NewPsn()
{
    return m_psnRv->GetInteger(0, IbBthHeader::MAX_24);
}

int
RdmaConnectionManager::BindPort(Ptr<RdmaCmId> id, uint16_t& port)
{
    if (port == 0)
    {
        for (uint32_t tries = 0; tries < 65536 - FIRST_EPHEMERAL_PORT; ++tries)
        {
            uint16_t candidate = m_nextPort;
            m_nextPort = m_nextPort == 65535 ? FIRST_EPHEMERAL_PORT : m_nextPort + 1;
            if (m_ports.find(candidate) == m_ports.end())
            {
                port = candidate;
                m_ports[port] = id;
                return 0;
            }
        }
        return EADDRINUSE;
    }
    if (m_ports.find(port) != m_ports.end())
    {
        return EADDRINUSE;
    }
    m_ports[port] = id;
    return 0;
}

Ptr<RdmaCmId>
RdmaConnectionManager::FindPort(uint16_t port) const
{
    auto it = m_ports.find(port);
    return it == m_ports.end() ? nullptr : it->second;
}

void
RdmaConnectionManager::Add(Ptr<RdmaCmId> id)
{
    m_ids[id->GetCommId()] = id;
}

void
RdmaConnectionManager::AddRequest(Mac48Address peer, uint32_t remoteCommId, Ptr<RdmaCmId> id)
{
    m_requests[{DrpVerbsProvider::ToPeer(peer), remoteCommId}] = id;
}

void
RdmaConnectionManager::Remove(Ptr<RdmaCmId> id)
{
    m_ids.erase(id->GetCommId());
    auto port = m_ports.find(id->GetLocalPort());
    if (port != m_ports.end() && port->second == id)
    {
        m_ports.erase(port);
    }
    for (auto it = m_requests.begin(); it != m_requests.end();)
    {
        it = it->second == id ? m_requests.erase(it) : std::next(it);
    }
}

void
RdmaConnectionManager::RunOnHost(std::function<void()> job)
{
    Ptr<Node> node = m_rnic->GetNode();
    Ptr<HostCpus> cpus = node ? node->GetObject<HostCpus>() : nullptr;
    if (cpus)
    {
        cpus->Run(m_messageTime, std::move(job));
        return;
    }
    drp::Schedule(m_messageTime, std::move(job));
}

void
RdmaConnectionManager::Send(const IbCmMadHeader& mad, Mac48Address peer, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << peer << mad);
    Ptr<RdmaConnectionManager> self = this;
    RunOnHost([self, mad, peer, address]() {
        if (!self->m_rnic)
        {
            return;
        }
        Ptr<Packet> packet = Create<Packet>();
        packet->AddHeader(mad);
        IbDethHeader deth;
        deth.SetQkey(IbDethHeader::GSI_QKEY);
        deth.SetSourceQp(GSI_QP);
        packet->AddHeader(deth);
        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::UD_SEND_ONLY);
        bth.SetDestQp(GSI_QP);
        bth.SetPsn(self->m_nextPsn);
        self->m_nextPsn = (self->m_nextPsn + 1) & IbBthHeader::MAX_24;
        packet->AddHeader(bth);
        RoceV2Frame::Addressing addressing;
        addressing.source = self->m_rnic->GetRoceAddress();
        addressing.destination = address;
        addressing.sourcePort = 0xc000 | (mad.GetFields().localCommId & 0x3fff);
        RoceV2Frame::Encapsulate(packet, addressing);
        self->m_txTrace(mad, peer);
        self->m_rnic->Send(packet, peer, RnicNetDevice::IPV4_ETHER_TYPE);
    });
}

void
RdmaConnectionManager::Receive(Ptr<Packet> packet, Mac48Address from)
{
    NS_LOG_FUNCTION(this << packet << from);
    Ptr<RdmaConnectionManager> self = this;
    // Queue pair 1's receive: the RNIC writes the datagram to host memory.
    m_rnic->GetPcieLink()->DmaMove(true, packet->GetSize(), [self, packet, from]() {
        self->RunOnHost([self, packet, from]() { self->Deliver(packet, from); });
    });
}

void
RdmaConnectionManager::Deliver(Ptr<Packet> packet, Mac48Address from)
{
    if (!m_rnic)
    {
        return;
    }
    Ipv4Header ip;
    IbBthHeader bth;
    IbDethHeader deth;
    IbCmMadHeader mad;
    bool valid = RoceV2Frame::Decapsulate(packet, ip) &&
                 packet->GetSize() ==
                     bth.GetSerializedSize() + deth.GetSerializedSize() + IbCmMadHeader::SIZE;
    if (valid)
    {
        packet->RemoveHeader(bth);
        packet->RemoveHeader(deth);
        packet->RemoveHeader(mad);
        valid = bth.GetOpcode() == IbBthHeader::UD_SEND_ONLY && bth.GetDestQp() == GSI_QP &&
                deth.GetQkey() == IbDethHeader::GSI_QKEY && mad.IsWellFormed() &&
                ip.GetDestination() == m_rnic->GetRoceAddress();
    }
    if (!valid)
    {
        NS_LOG_LOGIC("not a CM MAD for this RNIC: dropped");
        ++m_dropped;
        return;
    }
    m_rxTrace(mad, from);
    Dispatch(mad, from, ip.GetSource());
}

void
RdmaConnectionManager::Dispatch(const IbCmMadHeader& mad, Mac48Address from, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << mad << from);
    if (mad.GetAttribute() == IbCmMadHeader::REQ)
    {
        DispatchReq(mad, from, address);
        return;
    }
    auto it = m_ids.find(mad.GetFields().remoteCommId);
    if (it != m_ids.end() && it->second->GetPeer() == from)
    {
        it->second->Receive(mad);
        return;
    }
    if (mad.GetAttribute() == IbCmMadHeader::DREQ)
    {
        Answer(mad, from, address, IbCmMadHeader::DREP, 0); // the connection is gone already
        return;
    }
    NS_LOG_LOGIC("a " << IbCmMadHeader::GetAttributeName(mad.GetAttribute())
                      << " for no connection: dropped");
    ++m_dropped;
}

void
RdmaConnectionManager::DispatchReq(const IbCmMadHeader& mad, Mac48Address from, Ipv4Address address)
{
    const IbCmMadHeader::Fields& req = mad.GetFields();
    auto known = m_requests.find({DrpVerbsProvider::ToPeer(from), req.localCommId});
    if (known != m_requests.end())
    {
        known->second->Receive(mad); // a REQ sent again
        return;
    }
    uint16_t port = req.serviceId & 0xffff;
    Ptr<RdmaCmId> listener = FindPort(port);
    if ((req.serviceId & ~uint64_t(0xffff)) != RdmaCmId::PS_TCP_SERVICE || !listener ||
        listener->GetState() != RdmaCmId::LISTEN || req.privateData.size() < 4)
    {
        Answer(mad, from, address, IbCmMadHeader::REJ, IbCmMadHeader::REJECT_INVALID_SERVICE);
        return;
    }
    uint16_t remotePort = (uint16_t(req.privateData[2]) << 8) | req.privateData[3];
    if (!listener->Incoming(mad, from, remotePort))
    {
        // The backlog is full.
        Answer(mad, from, address, IbCmMadHeader::REJ, IbCmMadHeader::REJECT_CONSUMER);
    }
}

void
RdmaConnectionManager::Answer(const IbCmMadHeader& mad,
                              Mac48Address from,
                              Ipv4Address address,
                              IbCmMadHeader::Attribute attribute,
                              uint16_t reason)
{
    IbCmMadHeader answer;
    answer.SetAttribute(attribute);
    answer.SetTransactionId(mad.GetTransactionId());
    IbCmMadHeader::Fields fields;
    fields.remoteCommId = mad.GetFields().localCommId;
    fields.localCommId = mad.GetFields().remoteCommId;
    fields.rejectReason = reason;
    answer.SetFields(fields);
    Send(answer, from, address);
}

Ptr<RnicNetDevice>
RdmaConnectionManager::GetRnic() const
{
    return m_rnic;
}

Time
RdmaConnectionManager::GetResponseTimeout() const
{
    return GetIbTimeout(m_responseTimeout);
}

uint8_t
RdmaConnectionManager::GetResponseTimeoutExponent() const
{
    return m_responseTimeout;
}

uint8_t
RdmaConnectionManager::GetMaxRetries() const
{
    return m_maxRetries;
}

uint64_t
RdmaConnectionManager::GetDropped() const
{
    return m_dropped;
}

int64_t
RdmaConnectionManager::AssignStreams(int64_t stream)
{
    m_psnRv->SetStream(stream);
    return 1;
}

} // namespace ns3
