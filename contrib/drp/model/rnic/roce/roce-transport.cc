/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-transport.h"

#include "roce-requester.h"
#include "roce-responder.h"

#include "ns3/drp-transport.h"
#include "ns3/drp-tx-scheduler.h"
#include "ns3/drp-verbs-provider.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-opcode.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pcie-link.h"
#include "ns3/rdma-connection-manager.h"
#include "ns3/rdma-context.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-v2-frame.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceTransport");

NS_OBJECT_ENSURE_REGISTERED(RoceTransport);

TypeId
RoceTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceTransport")
            .SetParent<RdmaVerbsProvider>()
            .SetGroupName("Drp")
            .AddConstructor<RoceTransport>()
            .AddAttribute("AckInterval",
                          "The responder acknowledges every this many packets, besides each "
                          "packet with the A bit (each message's last): 1, every packet, as "
                          "drp's other methods; more coalesce acknowledgements (1 to 1024)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RoceTransport::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddTraceSource("Drop",
                            "A RoCEv2 frame dropped on arrival, and why",
                            MakeTraceSourceAccessor(&RoceTransport::m_dropTrace),
                            "ns3::RoceTransport::DropTracedCallback")
            .AddTraceSource("Retransmit",
                            "A packet sent again: its PSN",
                            MakeTraceSourceAccessor(&RoceTransport::m_retransmitTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RoceTransport::RoceTransport()
    : m_ackInterval(1)
{
}

RoceTransport::~RoceTransport()
{
}

void
RoceTransport::DoDispose()
{
    for (auto& [qp, halves] : m_qps)
    {
        halves.requester->Stop();
        halves.responder->Stop();
    }
    m_qps.clear();
    m_byNumber.clear();
    m_control.clear();
    m_data.clear();
    if (m_rnic)
    {
        m_rnic->SetRoceTransport(nullptr);
    }
    m_rnic = nullptr;
    m_frameReady = Callback<void>();
    RdmaVerbsProvider::DoDispose();
}

Ptr<RoceTransport>
RoceTransport::Attach(Ptr<RnicNetDevice> rnic)
{
    Ptr<RoceTransport> transport = rnic->GetObject<RoceTransport>();
    if (transport)
    {
        return transport;
    }
    transport = CreateObject<RoceTransport>();
    transport->m_rnic = rnic;
    rnic->AggregateObject(transport);
    rnic->SetRoceTransport(transport);
    return transport;
}

void
RoceTransport::SetFrameReadyCallback(Callback<void> ready)
{
    m_frameReady = ready;
}

void
RoceTransport::Bind(Ptr<RdmaQueuePair> qp)
{
    qp->SetSupportedOpcodes(ALL_OPCODES);
    qp->SetDoorbell(MakeCallback(&RoceTransport::Kick, this));
    Qp halves;
    halves.qp = qp;
    halves.flow = m_nextFlow;
    halves.requester = Create<RoceRequester>(this, qp, m_nextFlow++);
    halves.responder = Create<RoceResponder>(this, qp, m_nextFlow++);
    m_qps[qp] = halves;
    m_byNumber.emplace(qp->GetQpNum(), qp);
}

void
RoceTransport::Unbind(Ptr<RdmaQueuePair> qp)
{
    qp->SetDoorbell(Callback<void, Ptr<RdmaQueuePair>>());
    Qp* halves = Find(qp);
    if (halves)
    {
        halves->requester->Stop();
        halves->responder->Stop();
        Discard(halves->flow); // its packets not yet sent go with it
        Discard(halves->flow + 1);
        m_qps.erase(qp);
        auto [first, last] = m_byNumber.equal_range(qp->GetQpNum());
        for (auto it = first; it != last; ++it)
        {
            if (it->second == qp)
            {
                m_byNumber.erase(it);
                break;
            }
        }
    }
}

RoceTransport::Qp*
RoceTransport::Find(Ptr<RdmaQueuePair> qp)
{
    auto it = m_qps.find(qp);
    return it == m_qps.end() ? nullptr : &it->second;
}

RoceTransport::Qp*
RoceTransport::FindConnected(uint32_t qpn, Mac48Address from)
{
    // Numbers are unique in a context, not on the RNIC: the peer decides.
    const uint64_t peer = DrpVerbsProvider::ToPeer(from);
    auto [first, last] = m_byNumber.equal_range(qpn);
    for (auto it = first; it != last; ++it)
    {
        if (it->second->GetAttr().peer == peer)
        {
            return Find(it->second);
        }
    }
    return nullptr;
}

void
RoceTransport::Kick(Ptr<RdmaQueuePair> qp)
{
    Qp* halves = Find(qp);
    if (!halves)
    {
        return;
    }
    // The doorbell crosses PCIe; the RNIC then fetches the requests.
    Ptr<RoceRequester> requester = halves->requester;
    m_rnic->GetPcieLink()->Doorbell([requester]() { requester->Kick(); });
}

Ptr<PcieLink>
RoceTransport::GetPcie() const
{
    return m_rnic->GetPcieLink();
}

uint32_t
RoceTransport::GetPathMtu(Ptr<RdmaQueuePair> qp) const
{
    return std::min(qp->GetAttr().pathMtu, m_rnic->GetRoceActiveMtu());
}

uint32_t
RoceTransport::GetStage() const
{
    // The RNIC's transmit engine: its payload reads ahead per flow.
    return m_rnic->GetTransport()->GetTxPrefetchPerTransfer();
}

uint32_t
RoceTransport::GetAckInterval() const
{
    return m_ackInterval;
}

Ipv4Address
RoceTransport::PeerAddress(Ptr<RdmaQueuePair> qp)
{
    const uint64_t peer = qp->GetAttr().peer;
    auto it = m_peers.find(peer);
    if (it != m_peers.end())
    {
        return it->second;
    }
    Ptr<RnicNetDevice> rnic = RdmaConnectionManager::FindRnic(DrpVerbsProvider::ToMac(peer));
    Ipv4Address address = rnic ? rnic->GetRoceAddress() : Ipv4Address::GetAny();
    m_peers[peer] = address;
    return address;
}

uint16_t
RoceTransport::GetUdpSourcePort(uint32_t localQpn, uint32_t remoteQpn)
{
    // Linux's rdma_calc_flow_label() and rdma_flow_label_to_udp_sport():
    // the flow label hashes the product of the two numbers, and its 20
    // bits fold into the 14 low bits of a port from 0xc000.
    uint64_t v = uint64_t(localQpn) * remoteQpn;
    v ^= v >> 20;
    v ^= v >> 40;
    const uint32_t label = uint32_t(v) & 0xfffff;
    const uint32_t low = (label & 0x3fff) ^ ((label & 0xfc000) >> 14);
    return uint16_t(0xc000 | low);
}

void
RoceTransport::Emit(Ptr<RdmaQueuePair> qp, Ptr<Packet> packet, uint64_t flow, SentCallback sent)
{
    const RdmaQpAttr& attr = qp->GetAttr();
    RoceV2Frame::Addressing addressing;
    addressing.source = m_rnic->GetRoceAddress();
    addressing.destination = PeerAddress(qp);
    addressing.sourcePort = GetUdpSourcePort(qp->GetQpNum(), attr.destQpNum);
    if (flow != 0 && m_rnic->GetTransport()->IsEcnCapable())
    {
        addressing.ecn = Ipv4Header::ECN_ECT0; // data: switch queues mark it rather than drop it
    }
    RoceV2Frame::Encapsulate(packet, addressing);
    Frame frame{packet, DrpVerbsProvider::ToMac(attr.peer), std::move(sent)};
    if (flow == 0)
    {
        m_control.push_back(std::move(frame));
    }
    else
    {
        m_data[flow].push_back(std::move(frame));
    }
    // While the port takes a frame it asks again when that one is out: no
    // nested pull (which would send this frame before the one being taken).
    if (!m_dequeuing && !m_frameReady.IsNull())
    {
        m_frameReady();
    }
}

uint32_t
RoceTransport::Discard(uint64_t flow)
{
    auto it = m_data.find(flow);
    if (it == m_data.end())
    {
        return 0;
    }
    const uint32_t discarded = it->second.size();
    m_data.erase(it);
    return discarded;
}

bool
RoceTransport::HasFrameToSend(uint8_t kinds) const
{
    return ((kinds & DrpTxScheduler::CONTROL) && !m_control.empty()) ||
           ((kinds & DrpTxScheduler::DATA) && !m_data.empty());
}

Ptr<Packet>
RoceTransport::DequeueFrame(Mac48Address& to, uint8_t kinds, bool* control)
{
    Frame frame;
    const bool isControl = (kinds & DrpTxScheduler::CONTROL) && !m_control.empty();
    if (isControl)
    {
        frame = std::move(m_control.front());
        m_control.pop_front();
    }
    else
    {
        // One flow in turn: the first flow after the one served last.
        auto it = m_data.upper_bound(m_lastFlow);
        if (it == m_data.end())
        {
            it = m_data.begin();
        }
        m_lastFlow = it->first;
        frame = std::move(it->second.front());
        it->second.pop_front();
        if (it->second.empty())
        {
            m_data.erase(it);
        }
    }
    if (control)
    {
        *control = isControl;
    }
    to = frame.to;
    if (frame.sent)
    {
        m_dequeuing = true;
        frame.sent();
        m_dequeuing = false;
    }
    return frame.packet;
}

uint16_t
RoceTransport::GetEtherType() const
{
    return RnicNetDevice::IPV4_ETHER_TYPE;
}

void
RoceTransport::Receive(Ptr<Packet> packet, Mac48Address from)
{
    Ipv4Header ip;
    IbBthHeader bth;
    if (!RoceV2Frame::Decapsulate(packet, ip) || packet->GetSize() < IbBthHeader::SIZE)
    {
        Drop(packet, "not a valid RoCEv2 packet (checksum, ICRC or length)");
        return;
    }
    packet->RemoveHeader(bth);
    const uint8_t opcode = bth.GetOpcode();
    if (opcode == IbOpcode::CNP)
    {
        ReceiveCnp(bth, packet, from);
        return;
    }
    if (!IbOpcode::IsKnown(opcode) ||
        packet->GetSize() < IbOpcode::GetExtensionSize(opcode) + bth.GetPadCount())
    {
        Drop(packet, "an opcode drp does not take");
        return;
    }
    packet->RemoveAtEnd(bth.GetPadCount());
    if (!IbOpcode::HasPayload(opcode) && packet->GetSize() != IbOpcode::GetExtensionSize(opcode))
    {
        Drop(packet, "a payload where the opcode has none");
        return;
    }
    Qp* halves = FindConnected(bth.GetDestQp(), from);
    const RdmaQpState state = halves ? halves->qp->GetState() : RdmaQpState::RESET;
    if (!halves ||
        (state != RdmaQpState::RTR && state != RdmaQpState::RTS && state != RdmaQpState::SQD))
    {
        Drop(packet, "for no queue pair connected to its sender");
        return;
    }
    if (ip.GetEcn() == Ipv4Header::ECN_CE)
    {
        NotifyCongestion(*halves);
    }
    // Both halves may end the queue pair: keep them alive through the call.
    Ptr<RoceRequester> requester = halves->requester;
    Ptr<RoceResponder> responder = halves->responder;
    if (IbOpcode::IsRequest(opcode))
    {
        responder->Receive(bth, packet);
    }
    else
    {
        requester->Receive(bth, packet);
    }
}

void
RoceTransport::ReceiveCnp(const IbBthHeader& bth, Ptr<Packet> packet, Mac48Address from)
{
    if (packet->GetSize() != IbOpcode::CNP_PAYLOAD + bth.GetPadCount())
    {
        Drop(packet, "a CNP of the wrong length");
        return;
    }
    Qp* halves = FindConnected(bth.GetDestQp(), from);
    if (!halves)
    {
        Drop(packet, "a CNP for no queue pair connected to its sender");
        return;
    }
    ++m_cnpsReceived;
    Ptr<RoceRequester> requester = halves->requester;
    requester->ReceiveCnp();
}

void
RoceTransport::NotifyCongestion(Qp& halves)
{
    const Time interval = m_rnic->GetTransport()->GetCnpInterval();
    if (halves.lastCnp != Time::Min() && Simulator::Now() - halves.lastCnp < interval)
    {
        return;
    }
    halves.lastCnp = Simulator::Now();
    ++m_cnpsSent;
    // Annex A17: BTH with opcode CNP, the peer's queue pair, BECN set, then
    // 16 reserved bytes.
    EmitControl(halves.qp, Create<Packet>(IbOpcode::CNP_PAYLOAD), IbOpcode::CNP, 0, true);
}

void
RoceTransport::EmitControl(Ptr<RdmaQueuePair> qp,
                           Ptr<Packet> packet,
                           uint8_t opcode,
                           uint32_t psn,
                           bool becn)
{
    IbBthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(qp->GetAttr().destQpNum);
    bth.SetPsn(psn);
    bth.SetBecn(becn);
    packet->AddHeader(bth);
    Emit(qp, packet, 0, SentCallback());
}

DataRate
RoceTransport::GetLineRate() const
{
    DataRateValue rate;
    m_rnic->GetAttribute("DataRate", rate);
    return rate.Get();
}

Ptr<DrpCongestionOps>
RoceTransport::ForkCongestionControl() const
{
    return m_rnic->GetTransport()->ForkCongestionControl();
}

uint64_t
RoceTransport::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RoceTransport::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

void
RoceTransport::Drop(Ptr<const Packet> packet, const std::string& reason)
{
    NS_LOG_LOGIC("dropped: " << reason);
    ++m_dropped;
    m_dropTrace(packet, reason);
}

void
RoceTransport::CountRetransmission(uint32_t psn)
{
    ++m_retransmissions;
    m_retransmitTrace(psn);
}

void
RoceTransport::CountNak(bool rnr)
{
    ++(rnr ? m_rnrNaks : m_naks);
}

void
RoceTransport::CountAtomic()
{
    ++m_atomics;
}

uint64_t
RoceTransport::GetAtomics() const
{
    return m_atomics;
}

uint64_t
RoceTransport::GetNaks() const
{
    return m_naks;
}

uint64_t
RoceTransport::GetRnrNaks() const
{
    return m_rnrNaks;
}

uint64_t
RoceTransport::GetDropped() const
{
    return m_dropped;
}

RoceTransport::QpCounters
RoceTransport::GetCounters(Ptr<RdmaQueuePair> qp) const
{
    auto it = m_qps.find(qp);
    if (it == m_qps.end())
    {
        return QpCounters();
    }
    const Ptr<RoceRequester> requester = it->second.requester;
    return {requester->GetRetransmissions(), requester->GetCnps(), requester->GetTimeouts()};
}

uint64_t
RoceTransport::GetRetransmissions() const
{
    return m_retransmissions;
}

} // namespace ns3
