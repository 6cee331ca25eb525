/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-cm-id.h"

#include "drp-verbs-provider.h"
#include "rdma-connection-manager.h"
#include "rdma-context.h"

#include "ns3/drp-compat.h"
#include "ns3/log.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cerrno>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCmId");

NS_OBJECT_ENSURE_REGISTERED(RdmaCmId);

namespace
{
/// librdmacm's header at the start of a REQ's private data (struct cma_hdr).
constexpr uint32_t CMA_HEADER_SIZE = 36;
constexpr uint8_t CMA_IPV4 = 4 << 4;

/// \param mtu 256 to 4096 \return its encoding in a REQ (1 to 5)
uint8_t
EncodeMtu(uint32_t mtu)
{
    uint8_t code = 1;
    for (uint32_t m = 256; m < mtu; m *= 2)
    {
        ++code;
    }
    return code;
}

void
PutIpv4(std::vector<uint8_t>& bytes, uint32_t offset, Ipv4Address address)
{
    uint32_t a = address.Get();
    for (uint32_t k = 0; k < 4; ++k)
    {
        bytes[offset + k] = (a >> (24 - 8 * k)) & 0xff;
    }
}
} // namespace

TypeId
RdmaCmId::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCmId").SetParent<Object>().SetGroupName("Drp").AddConstructor<RdmaCmId>();
    return tid;
}

RdmaCmId::RdmaCmId()
{
}

void
RdmaCmId::DoDispose()
{
    m_timer.Cancel();
    m_manager = nullptr;
    m_context = nullptr;
    m_listener = nullptr;
    m_qp = nullptr;
    m_handler = EventCallback();
    Object::DoDispose();
}

Ptr<RdmaCmId>
RdmaCmId::Create(Ptr<RdmaContext> context, EventCallback handler)
{
    if (!context || !context->GetRnic())
    {
        return nullptr;
    }
    Ptr<RdmaConnectionManager> manager = RdmaConnectionManager::Attach(context->GetRnic());
    Ptr<RdmaCmId> id = CreateObject<RdmaCmId>();
    id->Init(manager, context, handler, manager->AllocateCommId());
    return id;
}

void
RdmaCmId::Init(Ptr<RdmaConnectionManager> manager,
               Ptr<RdmaContext> context,
               EventCallback handler,
               uint32_t commId)
{
    m_manager = manager;
    m_context = context;
    m_handler = handler;
    m_commId = commId;
    m_manager->Add(this);
}

int
RdmaCmId::BindAddr(uint16_t port)
{
    if (!m_manager || m_state != IDLE || m_localPort != 0)
    {
        return EINVAL;
    }
    int error = m_manager->BindPort(this, port);
    if (error == 0)
    {
        m_localPort = port;
    }
    return error;
}

int
RdmaCmId::Listen(uint32_t backlog)
{
    if (!m_manager || m_state != IDLE || m_localPort == 0 || backlog == 0)
    {
        return EINVAL;
    }
    m_backlog = backlog;
    SetState(LISTEN);
    return 0;
}

int
RdmaCmId::ResolveAddr(const Address& destination, uint16_t port, Time /* timeout */)
{
    if (!m_manager || m_state != IDLE ||
        (!Mac48Address::IsMatchingType(destination) && !Ipv4Address::IsMatchingType(destination)))
    {
        return EINVAL;
    }
    if (m_localPort == 0 && BindAddr(0) != 0)
    {
        return EADDRINUSE;
    }
    Ptr<RnicNetDevice> peer = RdmaConnectionManager::FindRnic(destination);
    Ptr<RdmaCmId> self = this;
    drp::ScheduleNow([self, peer, port]() {
        if (!self->m_manager || self->m_state != IDLE)
        {
            return;
        }
        if (!peer)
        {
            self->Report(RdmaCmEventType::ADDR_ERROR, -EHOSTUNREACH);
            return;
        }
        self->m_peer = Mac48Address::ConvertFrom(peer->GetAddress());
        self->m_peerAddress = peer->GetRoceAddress();
        self->m_remotePort = port;
        self->SetState(ADDR_RESOLVED);
        self->Report(RdmaCmEventType::ADDR_RESOLVED, 0);
    });
    return 0;
}

int
RdmaCmId::ResolveRoute(Time /* timeout */)
{
    if (!m_manager || m_state != ADDR_RESOLVED)
    {
        return EINVAL;
    }
    Ptr<RdmaCmId> self = this;
    drp::ScheduleNow([self]() {
        if (!self->m_manager || self->m_state != ADDR_RESOLVED)
        {
            return;
        }
        self->SetState(ROUTE_RESOLVED);
        self->Report(RdmaCmEventType::ROUTE_RESOLVED, 0);
    });
    return 0;
}

Ptr<RdmaQueuePair>
RdmaCmId::CreateQp(Ptr<RdmaProtectionDomain> pd, const RdmaQpInitAttr& init, int& error)
{
    if (!m_context || m_qp)
    {
        error = EINVAL;
        return nullptr;
    }
    Ptr<RdmaQueuePair> qp = m_context->CreateQp(pd, init, error);
    if (!qp)
    {
        return nullptr;
    }
    // As librdmacm's rdma_create_qp: in INIT, so that receives can be posted
    // before the connection is made.
    RdmaQpAttr attr;
    attr.qpState = RdmaQpState::INIT;
    attr.qpAccessFlags = RdmaAccess::LOCAL_WRITE;
    using namespace RdmaQpAttrMask;
    error = qp->ModifyQp(attr, STATE | PKEY_INDEX | PORT | ACCESS_FLAGS);
    NS_ASSERT_MSG(error == 0, "a new queue pair moves to INIT");
    m_qp = qp;
    return m_qp;
}

int
RdmaCmId::Connect(const RdmaConnParam& param)
{
    if (!m_manager || m_state != ROUTE_RESOLVED || !m_qp || m_qp->GetState() != RdmaQpState::INIT ||
        param.privateData.size() > MAX_REQ_PRIVATE_DATA)
    {
        return EINVAL;
    }
    m_param = param;
    m_psn = m_manager->NewPsn();
    Ptr<RnicNetDevice> rnic = m_manager->GetRnic();
    RdmaQpAttr current;
    RdmaQpInitAttr init;
    m_qp->QueryQp(current, init);

    IbCmMadHeader::Fields req;
    req.localCommId = m_commId;
    req.serviceId = PS_TCP_SERVICE | m_remotePort;
    req.localQpn = m_qp->GetQpNum();
    req.startingPsn = m_psn;
    req.responderResources = param.responderResources;
    req.initiatorDepth = param.initiatorDepth;
    req.cmResponseTimeout = m_manager->GetResponseTimeoutExponent();
    req.retryCount = param.retryCount;
    req.rnrRetryCount = param.rnrRetryCount;
    req.pathMtu = EncodeMtu(rnic->GetRoceActiveMtu());
    req.maxCmRetries = m_manager->GetMaxRetries();
    req.localAckTimeout = current.timeout;
    req.localAddress = rnic->GetRoceAddress();
    req.remoteAddress = m_peerAddress;
    req.privateData.assign(CMA_HEADER_SIZE, 0);
    req.privateData[1] = CMA_IPV4;
    req.privateData[2] = m_localPort >> 8;
    req.privateData[3] = m_localPort & 0xff;
    PutIpv4(req.privateData, 16, req.localAddress);
    PutIpv4(req.privateData, 32, req.remoteAddress);
    req.privateData.insert(req.privateData.end(),
                           param.privateData.begin(),
                           param.privateData.end());

    m_lastSent = Message(IbCmMadHeader::REQ);
    m_lastSent.SetFields(req);
    m_tries = 0;
    SetState(REQ_SENT);
    SendWithRetry();
    return 0;
}

Ptr<RdmaCmId>
RdmaCmId::Incoming(const IbCmMadHeader& mad, Mac48Address from, uint16_t remotePort)
{
    if (m_pending >= m_backlog)
    {
        return nullptr;
    }
    const IbCmMadHeader::Fields& req = mad.GetFields();
    Ptr<RdmaCmId> id = CreateObject<RdmaCmId>();
    id->Init(m_manager, m_context, m_handler, m_manager->AllocateCommId());
    id->m_listener = this;
    id->m_peer = from;
    id->m_peerAddress = req.localAddress;
    id->m_localPort = m_localPort;
    id->m_remotePort = remotePort;
    id->m_remoteCommId = req.localCommId;
    id->m_request = mad;
    id->SetState(REQ_RCVD);
    m_manager->AddRequest(from, req.localCommId, id);
    ++m_pending;

    RdmaConnParam param;
    param.privateData.assign(req.privateData.begin() + CMA_HEADER_SIZE, req.privateData.end());
    param.responderResources = req.responderResources;
    param.initiatorDepth = req.initiatorDepth;
    param.retryCount = req.retryCount;
    param.rnrRetryCount = req.rnrRetryCount;
    RdmaCmEvent event;
    event.event = RdmaCmEventType::CONNECT_REQUEST;
    event.listenId = this;
    event.param = param;
    NS_LOG_LOGIC("connection request " << id->m_commId << " from " << from);
    if (!m_handler.IsNull())
    {
        m_handler(id, event);
    }
    return id;
}

int
RdmaCmId::Accept(const RdmaConnParam& param)
{
    if (!m_manager || m_state != REQ_RCVD || !m_qp || m_qp->GetState() != RdmaQpState::INIT ||
        param.privateData.size() > IbCmMadHeader::PrivateDataSize(IbCmMadHeader::REP))
    {
        return EINVAL;
    }
    const IbCmMadHeader::Fields& req = m_request.GetFields();
    m_param = param;
    m_psn = m_manager->NewPsn();
    if (ConnectQp(req.localQpn,
                  req.startingPsn,
                  param.initiatorDepth,
                  param.responderResources,
                  req.retryCount,
                  req.rnrRetryCount,
                  req.localAckTimeout) != 0)
    {
        return EINVAL;
    }
    if (m_listener && m_listener->m_pending > 0)
    {
        --m_listener->m_pending;
    }
    IbCmMadHeader::Fields rep;
    rep.localCommId = m_commId;
    rep.remoteCommId = m_remoteCommId;
    rep.localQpn = m_qp->GetQpNum();
    rep.startingPsn = m_psn;
    rep.responderResources = param.responderResources;
    rep.initiatorDepth = param.initiatorDepth;
    rep.rnrRetryCount = param.rnrRetryCount;
    rep.privateData = param.privateData;
    m_lastSent = Message(IbCmMadHeader::REP);
    m_lastSent.SetFields(rep);
    m_tries = 0;
    SetState(REP_SENT);
    SendWithRetry();
    return 0;
}

int
RdmaCmId::Reject(const std::vector<uint8_t>& privateData)
{
    if (!m_manager || m_state != REQ_RCVD ||
        privateData.size() > IbCmMadHeader::PrivateDataSize(IbCmMadHeader::REJ))
    {
        return EINVAL;
    }
    if (m_listener && m_listener->m_pending > 0)
    {
        --m_listener->m_pending;
    }
    IbCmMadHeader::Fields rej;
    rej.localCommId = m_commId;
    rej.remoteCommId = m_remoteCommId;
    rej.messageRejected = 0;
    rej.rejectReason = IbCmMadHeader::REJECT_CONSUMER;
    rej.privateData = privateData;
    m_lastSent = Message(IbCmMadHeader::REJ);
    m_lastSent.SetFields(rej);
    SetState(DISCONNECTED);
    m_manager->Send(m_lastSent, m_peer, m_peerAddress);
    return 0;
}

int
RdmaCmId::Disconnect()
{
    if (!m_manager || (m_state != ESTABLISHED && m_state != REP_SENT))
    {
        return EINVAL;
    }
    m_timer.Cancel();
    ErrorQp();
    IbCmMadHeader::Fields dreq;
    dreq.localCommId = m_commId;
    dreq.remoteCommId = m_remoteCommId;
    dreq.localQpn = m_remoteQpn; // DREQ's RemoteQPN: the receiver's queue pair
    m_lastSent = Message(IbCmMadHeader::DREQ);
    m_lastSent.SetFields(dreq);
    m_tries = 0;
    SetState(DREQ_SENT);
    SendWithRetry();
    return 0;
}

void
RdmaCmId::Destroy()
{
    m_timer.Cancel();
    if (m_listener && m_state == REQ_RCVD && m_listener->m_pending > 0)
    {
        --m_listener->m_pending;
    }
    if (m_manager)
    {
        m_manager->Remove(this);
    }
    m_manager = nullptr;
    m_handler = EventCallback();
    m_listener = nullptr;
    m_state = DISCONNECTED;
}

void
RdmaCmId::Receive(const IbCmMadHeader& mad)
{
    NS_LOG_FUNCTION(this << mad);
    switch (mad.GetAttribute())
    {
    case IbCmMadHeader::REQ:
        ReceiveReq(mad);
        break;
    case IbCmMadHeader::REP:
        ReceiveRep(mad);
        break;
    case IbCmMadHeader::RTU:
        ReceiveRtu(mad);
        break;
    case IbCmMadHeader::REJ:
        ReceiveRej(mad);
        break;
    case IbCmMadHeader::DREQ:
        ReceiveDreq(mad);
        break;
    case IbCmMadHeader::DREP:
        ReceiveDrep(mad);
        break;
    default:
        break;
    }
}

void
RdmaCmId::ReceiveReq(const IbCmMadHeader& /* mad */)
{
    // The REQ came again: its REP, or its REJ, was lost or is late.
    bool answered = (m_state == REP_SENT && m_lastSent.GetAttribute() == IbCmMadHeader::REP) ||
                    (m_state == DISCONNECTED && m_lastSent.GetAttribute() == IbCmMadHeader::REJ);
    if (answered)
    {
        m_manager->Send(m_lastSent, m_peer, m_peerAddress);
    }
}

void
RdmaCmId::ReceiveRep(const IbCmMadHeader& mad)
{
    const IbCmMadHeader::Fields& rep = mad.GetFields();
    if (m_state == ESTABLISHED && m_lastSent.GetAttribute() == IbCmMadHeader::RTU)
    {
        m_manager->Send(m_lastSent, m_peer, m_peerAddress); // the RTU was lost
        return;
    }
    if (m_state != REQ_SENT)
    {
        return;
    }
    m_timer.Cancel();
    m_remoteCommId = rep.localCommId;
    RdmaQpAttr current;
    RdmaQpInitAttr init;
    m_qp->QueryQp(current, init);
    int error = ConnectQp(rep.localQpn,
                          rep.startingPsn,
                          std::min(m_param.initiatorDepth, rep.responderResources),
                          rep.initiatorDepth,
                          m_param.retryCount,
                          rep.rnrRetryCount,
                          current.timeout);
    if (error != 0)
    {
        IbCmMadHeader::Fields rej;
        rej.localCommId = m_commId;
        rej.remoteCommId = m_remoteCommId;
        rej.messageRejected = 1;
        rej.rejectReason = IbCmMadHeader::REJECT_CONSUMER;
        m_lastSent = Message(IbCmMadHeader::REJ);
        m_lastSent.SetFields(rej);
        m_manager->Send(m_lastSent, m_peer, m_peerAddress);
        ErrorQp();
        SetState(DISCONNECTED);
        Report(RdmaCmEventType::CONNECT_ERROR, -error);
        return;
    }
    IbCmMadHeader::Fields rtu;
    rtu.localCommId = m_commId;
    rtu.remoteCommId = m_remoteCommId;
    m_lastSent = Message(IbCmMadHeader::RTU);
    m_lastSent.SetFields(rtu);
    m_manager->Send(m_lastSent, m_peer, m_peerAddress);
    SetState(ESTABLISHED);
    RdmaConnParam param;
    param.privateData = rep.privateData;
    param.responderResources = rep.responderResources;
    param.initiatorDepth = rep.initiatorDepth;
    param.rnrRetryCount = rep.rnrRetryCount;
    Report(RdmaCmEventType::ESTABLISHED, 0, param);
}

void
RdmaCmId::ReceiveRtu(const IbCmMadHeader& /* mad */)
{
    if (m_state != REP_SENT)
    {
        return;
    }
    m_timer.Cancel();
    SetState(ESTABLISHED);
    Report(RdmaCmEventType::ESTABLISHED, 0);
}

void
RdmaCmId::ReceiveRej(const IbCmMadHeader& mad)
{
    if (m_state != REQ_SENT && m_state != REP_SENT)
    {
        return;
    }
    m_timer.Cancel();
    if (m_state == REP_SENT)
    {
        ErrorQp();
    }
    SetState(DISCONNECTED);
    RdmaConnParam param;
    param.privateData = mad.GetFields().privateData;
    Report(RdmaCmEventType::REJECTED, mad.GetFields().rejectReason, param);
}

void
RdmaCmId::ReceiveDreq(const IbCmMadHeader& /* mad */)
{
    if (m_state == DISCONNECTED && m_lastSent.GetAttribute() == IbCmMadHeader::DREP)
    {
        m_manager->Send(m_lastSent, m_peer, m_peerAddress); // the DREP was lost
        return;
    }
    if (m_state != ESTABLISHED && m_state != DREQ_SENT && m_state != REP_SENT)
    {
        return;
    }
    m_timer.Cancel();
    ErrorQp();
    IbCmMadHeader::Fields drep;
    drep.localCommId = m_commId;
    drep.remoteCommId = m_remoteCommId;
    m_lastSent = Message(IbCmMadHeader::DREP);
    m_lastSent.SetFields(drep);
    m_manager->Send(m_lastSent, m_peer, m_peerAddress);
    SetState(DISCONNECTED);
    Report(RdmaCmEventType::DISCONNECTED, 0);
}

void
RdmaCmId::ReceiveDrep(const IbCmMadHeader& /* mad */)
{
    if (m_state != DREQ_SENT)
    {
        return;
    }
    m_timer.Cancel();
    SetState(DISCONNECTED);
    Report(RdmaCmEventType::DISCONNECTED, 0);
}

IbCmMadHeader
RdmaCmId::Message(IbCmMadHeader::Attribute attribute) const
{
    IbCmMadHeader mad;
    mad.SetAttribute(attribute);
    // A connection's messages carry the REQ's transaction ID.
    mad.SetTransactionId(m_listener ? m_request.GetTransactionId() : m_commId);
    return mad;
}

void
RdmaCmId::SendWithRetry()
{
    m_manager->Send(m_lastSent, m_peer, m_peerAddress);
    m_timer = Simulator::Schedule(m_manager->GetResponseTimeout(), &RdmaCmId::Timeout, this);
}

void
RdmaCmId::Timeout()
{
    if (!m_manager)
    {
        return;
    }
    if (m_tries < m_manager->GetMaxRetries())
    {
        ++m_tries;
        ++m_retransmissions;
        NS_LOG_LOGIC("response timeout: "
                     << IbCmMadHeader::GetAttributeName(m_lastSent.GetAttribute()) << " again ("
                     << m_tries << ")");
        SendWithRetry();
        return;
    }
    State state = m_state;
    SetState(DISCONNECTED);
    if (state == DREQ_SENT)
    {
        Report(RdmaCmEventType::DISCONNECTED, 0);
        return;
    }
    if (state == REP_SENT)
    {
        ErrorQp();
        IbCmMadHeader::Fields rej;
        rej.localCommId = m_commId;
        rej.remoteCommId = m_remoteCommId;
        rej.messageRejected = 1;
        rej.rejectReason = IbCmMadHeader::REJECT_TIMEOUT;
        m_lastSent = Message(IbCmMadHeader::REJ);
        m_lastSent.SetFields(rej);
        m_manager->Send(m_lastSent, m_peer, m_peerAddress);
    }
    Report(RdmaCmEventType::UNREACHABLE, -ETIMEDOUT);
}

int
RdmaCmId::ConnectQp(uint32_t remoteQpn,
                    uint32_t remotePsn,
                    uint8_t maxRdAtomic,
                    uint8_t maxDestRdAtomic,
                    uint8_t retryCnt,
                    uint8_t rnrRetry,
                    uint8_t timeout)
{
    RdmaQpAttr attr;
    attr.qpAccessFlags = RdmaAccess::LOCAL_WRITE | RdmaAccess::REMOTE_WRITE;
    if (maxDestRdAtomic > 0)
    {
        attr.qpAccessFlags |= RdmaAccess::REMOTE_READ | RdmaAccess::REMOTE_ATOMIC;
    }
    attr.peer = DrpVerbsProvider::ToPeer(m_peer);
    attr.pathMtu = m_manager->GetRnic()->GetRoceActiveMtu();
    attr.destQpNum = remoteQpn;
    attr.rqPsn = remotePsn;
    attr.sqPsn = m_psn;
    attr.maxRdAtomic = maxRdAtomic;
    attr.maxDestRdAtomic = maxDestRdAtomic;
    attr.retryCnt = retryCnt;
    attr.rnrRetry = rnrRetry;
    attr.timeout = timeout;
    m_remoteQpn = remoteQpn;
    return m_qp->ConnectRc(attr);
}

void
RdmaCmId::ErrorQp()
{
    if (m_qp && m_qp->GetState() != RdmaQpState::ERR && m_qp->GetState() != RdmaQpState::INIT)
    {
        RdmaQpAttr attr;
        attr.qpState = RdmaQpState::ERR;
        m_qp->ModifyQp(attr, RdmaQpAttrMask::STATE);
    }
}

void
RdmaCmId::Report(RdmaCmEventType event, int status, const RdmaConnParam& param)
{
    NS_LOG_LOGIC("id " << m_commId << ": " << event << " status " << status);
    RdmaCmEvent e;
    e.event = event;
    e.status = status;
    e.param = param;
    if (!m_handler.IsNull())
    {
        m_handler(this, e);
    }
}

void
RdmaCmId::SetState(State state)
{
    NS_LOG_LOGIC("id " << m_commId << ": state " << int(m_state) << " -> " << int(state));
    m_state = state;
}

RdmaCmId::State
RdmaCmId::GetState() const
{
    return m_state;
}

Ptr<RdmaQueuePair>
RdmaCmId::GetQp() const
{
    return m_qp;
}

Ptr<RdmaContext>
RdmaCmId::GetContext() const
{
    return m_context;
}

uint16_t
RdmaCmId::GetLocalPort() const
{
    return m_localPort;
}

uint16_t
RdmaCmId::GetRemotePort() const
{
    return m_remotePort;
}

Mac48Address
RdmaCmId::GetPeer() const
{
    return m_peer;
}

uint32_t
RdmaCmId::GetCommId() const
{
    return m_commId;
}

uint32_t
RdmaCmId::GetRetransmissions() const
{
    return m_retransmissions;
}

} // namespace ns3
