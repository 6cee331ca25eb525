/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "verbs-transfer-engine.h"

#include "ns3/abort.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-verbs-provider.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/pcie-link.h"
#include "ns3/rdma-cm-id.h"
#include "ns3/rdma-completion-queue.h"
#include "ns3/rdma-context.h"
#include "ns3/rdma-memory-region.h"
#include "ns3/rdma-protection-domain.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-transport.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VerbsTransferEngine");

namespace
{

/**
 * Writes the low \p bytes bytes of \p value, least significant first (the
 * private data's byte order between two engines).
 * \param out where \param value the value \param bytes how many
 */
void
PutLittleEndian(uint8_t* out, uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i)
    {
        out[i] = uint8_t(value >> (8 * i));
    }
}

/**
 * \param in where \param bytes how many
 * \return the value PutLittleEndian() wrote there
 */
uint64_t
GetLittleEndian(const uint8_t* in, int bytes)
{
    uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
    {
        value |= uint64_t(in[i]) << (8 * i);
    }
    return value;
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(VerbsTransferEngine);

TypeId
VerbsTransferEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::VerbsTransferEngine")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<VerbsTransferEngine>()
            .AddAttribute("Timeout",
                          "Each queue pair's local ACK timeout, 4.096 us x 2^Timeout (1 to 31; "
                          "14, perftest's default: 67 ms)",
                          UintegerValue(14),
                          MakeUintegerAccessor(&VerbsTransferEngine::m_timeout),
                          MakeUintegerChecker<uint8_t>(1, 31))
            .AddAttribute("RetryCount",
                          "Each queue pair's transport retries before RETRY_EXC_ERR (0 to 7)",
                          UintegerValue(7),
                          MakeUintegerAccessor(&VerbsTransferEngine::m_retryCount),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("PathMtu",
                          "Each queue pair's path MTU in bytes (256, 512, 1024, 2048 or 4096; "
                          "the transport uses at most the port's active MTU)",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&VerbsTransferEngine::m_pathMtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute(
                "Connection",
                "How each transfer's queue pair is connected: PreEstablished "
                "(before it, at no cost: long-lived connections and memory "
                "registered at start-up) or PerTransfer (by the connection "
                "manager at its start, the responder registering the region)",
                EnumValue(PRE_ESTABLISHED),
                DRP_ENUM_ACCESSOR(Connection, &VerbsTransferEngine::m_connection),
                MakeEnumChecker(PRE_ESTABLISHED, "PreEstablished", PER_TRANSFER, "PerTransfer"))
            .AddAttribute("CompletionQueueDepth",
                          "Entries of the completion queue all transfers share (1 to 4194303)",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&VerbsTransferEngine::m_cqDepth),
                          MakeUintegerChecker<uint32_t>(1, 4194303));
    return tid;
}

VerbsTransferEngine::VerbsTransferEngine()
    : m_connection(PRE_ESTABLISHED),
      m_timeout(14),
      m_retryCount(7),
      m_pathMtu(4096),
      m_cqDepth(65536)
{
}

VerbsTransferEngine::~VerbsTransferEngine()
{
}

void
VerbsTransferEngine::DoDispose()
{
    // No connection event may reach this engine once it is gone.
    for (auto& [number, t] : m_transfers)
    {
        if (t.id)
        {
            t.id->Destroy();
        }
    }
    for (auto& [id, accepted] : m_accepted)
    {
        id->Destroy();
    }
    for (auto& [id, qp] : m_closing)
    {
        id->Destroy();
    }
    m_transfers.clear();
    m_accepted.clear();
    m_closing.clear();
    if (m_listener)
    {
        m_listener->Destroy();
        m_listener = nullptr;
    }
    m_cq = nullptr;
    m_pd = nullptr;
    m_context = nullptr;
    m_rnic = nullptr;
    m_completed = CompletionCallback();
    Object::DoDispose();
}

void
VerbsTransferEngine::Open(Ptr<RnicNetDevice> rnic, CompletionCallback completed)
{
    NS_LOG_FUNCTION(this << rnic);
    NS_ABORT_MSG_IF(m_pathMtu != 256 && m_pathMtu != 512 && m_pathMtu != 1024 &&
                        m_pathMtu != 2048 && m_pathMtu != 4096,
                    "VerbsTransferEngine::PathMtu is " << m_pathMtu
                                                       << ": use 256, 512, 1024, 2048 or 4096");
    m_rnic = rnic;
    m_completed = completed;
    m_context = CreateObject<RdmaContext>();
    m_context->Open(rnic);
    m_pd = m_context->AllocPd();
    int error = 0;
    const uint32_t depth = std::min(m_cqDepth, m_context->QueryDevice().maxCqe);
    m_cq = m_context->CreateCq(depth, error);
    NS_ABORT_MSG_IF(!m_cq, "VerbsTransferEngine: no completion queue of " << depth << " entries");
    m_cq->SetEventCallback(MakeCallback(&VerbsTransferEngine::OnEvent, this));
    m_cq->ReqNotify(false);
    if (m_connection == PER_TRANSFER)
    {
        m_listener =
            RdmaCmId::Create(m_context, MakeCallback(&VerbsTransferEngine::OnServerEvent, this));
        NS_ABORT_MSG_IF(m_listener->BindAddr(CM_PORT) != 0 || m_listener->Listen(65535) != 0,
                        "VerbsTransferEngine: cannot listen on port " << CM_PORT);
    }
}

Ptr<RdmaContext>
VerbsTransferEngine::GetContext() const
{
    return m_context;
}

Ptr<RnicNetDevice>
VerbsTransferEngine::GetRnic() const
{
    return m_rnic;
}

uint32_t
VerbsTransferEngine::GetInFlight() const
{
    return m_transfers.size();
}

Ptr<RdmaMemoryRegion>
VerbsTransferEngine::Register(uint64_t address, uint32_t length, uint32_t access)
{
    int error = 0;
    Ptr<RdmaMemoryRegion> mr = m_context->RegMrAtSetUp(m_pd, address, length, access, error);
    NS_ABORT_MSG_IF(!mr,
                    "VerbsTransferEngine: registering " << length << " bytes at " << address
                                                        << " failed with error " << error
                                                        << " (MaxRegisteredBytes?)");
    return mr;
}

RdmaQpInitAttr
VerbsTransferEngine::GetInitAttr() const
{
    // One request at a time, and no receive: a WRITE or READ needs none.
    RdmaQpInitAttr init;
    init.sendCq = m_cq;
    init.recvCq = m_cq;
    init.cap.maxSendWr = 1;
    init.cap.maxRecvWr = 1;
    return init;
}

Ptr<RdmaQueuePair>
VerbsTransferEngine::CreateQp()
{
    int error = 0;
    Ptr<RdmaQueuePair> qp = m_context->CreateQp(m_pd, GetInitAttr(), error);
    NS_ABORT_MSG_IF(!qp, "VerbsTransferEngine: creating a queue pair failed with error " << error);
    return qp;
}

void
VerbsTransferEngine::Connect(Ptr<RdmaQueuePair> qp,
                             Ptr<RnicNetDevice> peer,
                             Ptr<RdmaQueuePair> peerQp,
                             uint32_t access)
{
    RdmaQpAttr attr;
    attr.qpAccessFlags = access;
    attr.peer = DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(peer->GetAddress()));
    attr.pathMtu = m_pathMtu;
    attr.destQpNum = peerQp->GetQpNum();
    // Both sides start at PSN 0: the set-up exchanged nothing else.
    attr.rqPsn = 0;
    attr.sqPsn = 0;
    attr.timeout = m_timeout;
    attr.retryCnt = m_retryCount;
    attr.rnrRetry = 7;
    attr.maxRdAtomic = 1;
    attr.maxDestRdAtomic = 1;
    const int error = qp->ConnectRc(attr);
    NS_ABORT_MSG_IF(error != 0, "VerbsTransferEngine: connecting a queue pair failed: " << error);
}

Ptr<RdmaQueuePair>
VerbsTransferEngine::Accept(uint32_t access,
                            uint64_t dba,
                            uint32_t length,
                            Ptr<RdmaMemoryRegion>& mr)
{
    mr = Register(dba, length, access | RdmaAccess::LOCAL_WRITE);
    return CreateQp();
}

void
VerbsTransferEngine::Post(uint32_t number,
                          Ptr<VerbsTransferEngine> peer,
                          bool read,
                          uint64_t sba,
                          uint64_t dba,
                          uint32_t length)
{
    NS_LOG_FUNCTION(this << number << read << sba << dba << length);
    NS_ABORT_MSG_IF(!m_context || !peer || !peer->m_context,
                    "VerbsTransferEngine: both hosts' engines must be open");
    const uint32_t remote = read ? RdmaAccess::REMOTE_READ : RdmaAccess::REMOTE_WRITE;
    Transfer t;
    t.peer = peer;
    t.mr = Register(sba, length, RdmaAccess::LOCAL_WRITE);
    t.record.index = number;
    t.record.peer = Mac48Address::ConvertFrom(peer->m_rnic->GetAddress());
    t.record.read = read;
    t.record.sba = sba;
    t.record.dba = dba;
    t.record.length = length;
    if (m_connection == PER_TRANSFER)
    {
        // rdma_resolve_addr, rdma_resolve_route, rdma_connect: OnClientEvent.
        t.id = RdmaCmId::Create(
            m_context,
            drp::FunctorCallback<void, Ptr<RdmaCmId>, RdmaCmEvent>(
                [this, number](Ptr<RdmaCmId> id, RdmaCmEvent e) { OnClientEvent(number, id, e); }));
        m_transfers[number] = t;
        t.id->ResolveAddr(peer->m_rnic->GetRoceAddress(), CM_PORT, Seconds(1));
        return;
    }
    t.qp = CreateQp();
    t.peerQp = peer->Accept(remote, dba, length, t.peerMr);
    Connect(t.qp, peer->m_rnic, t.peerQp, 0);
    peer->Connect(t.peerQp, m_rnic, t.qp, remote);
    Start(m_transfers[number] = t, t.peerMr->GetRkey());
}

void
VerbsTransferEngine::Start(Transfer& t, uint32_t rkey)
{
    t.record.tid = uint16_t(t.qp->GetQpNum());
    t.record.mode = DrpTransferRecord::DIRECT;
    RdmaSendWr wr;
    wr.wrId = t.record.index;
    wr.opcode = t.record.read ? RdmaWrOpcode::RDMA_READ : RdmaWrOpcode::RDMA_WRITE;
    wr.sendFlags = RdmaSendFlags::SIGNALED;
    wr.sgList = {RdmaSge{t.record.sba, t.record.length, t.mr->GetLkey()}};
    wr.remoteAddr = t.record.dba;
    wr.rkey = rkey;
    const int error = t.qp->PostSend({wr});
    NS_ABORT_MSG_IF(error != 0,
                    "VerbsTransferEngine: posting transfer " << t.record.index
                                                             << " failed: " << error);
}

void
VerbsTransferEngine::OnClientEvent(uint32_t number, Ptr<RdmaCmId> id, RdmaCmEvent event)
{
    if (event.event == RdmaCmEventType::DISCONNECTED)
    {
        // The transfer ended before: its queue pair and id go now.
        auto closing = m_closing.find(id);
        if (closing != m_closing.end())
        {
            m_context->DestroyQp(closing->second);
            m_closing.erase(closing);
        }
        id->Destroy();
        return;
    }
    auto it = m_transfers.find(number);
    if (it == m_transfers.end())
    {
        return;
    }
    Transfer& t = it->second;
    switch (event.event)
    {
    case RdmaCmEventType::ADDR_RESOLVED:
        id->ResolveRoute(Seconds(1));
        break;
    case RdmaCmEventType::ROUTE_RESOLVED: {
        int error = 0;
        t.qp = id->CreateQp(m_pd, GetInitAttr(), error);
        NS_ABORT_MSG_IF(!t.qp, "VerbsTransferEngine: no queue pair: error " << error);
        // The REQ's private data names the region: address, length, read.
        RdmaConnParam param;
        param.retryCount = m_retryCount;
        param.privateData.resize(13);
        PutLittleEndian(param.privateData.data(), t.record.dba, 8);
        PutLittleEndian(param.privateData.data() + 8, t.record.length, 4);
        param.privateData[12] = t.record.read ? 1 : 0;
        NS_ABORT_MSG_IF(id->Connect(param) != 0, "VerbsTransferEngine: rdma_connect failed");
        t.record.requests = 1;
        break;
    }
    case RdmaCmEventType::ESTABLISHED: {
        const std::vector<uint8_t>& data = event.param.privateData;
        Start(t, data.size() < 4 ? 0 : uint32_t(GetLittleEndian(data.data(), 4)));
        break;
    }
    case RdmaCmEventType::REJECTED:
        ++t.record.invalidReplies;
        Abandon(number, DrpTransferRecord::REFUSED);
        break;
    default: // unreachable, address, route or connection errors
        Abandon(number, DrpTransferRecord::HANDSHAKE_FAILED);
        break;
    }
}

void
VerbsTransferEngine::Abandon(uint32_t number, DrpTransferRecord::Status status)
{
    auto it = m_transfers.find(number);
    Transfer t = it->second;
    m_transfers.erase(it);
    NS_LOG_INFO("transfer " << number << ": its connection failed");
    t.record.status = status;
    t.record.mode = DrpTransferRecord::UNDECIDED;
    if (t.qp)
    {
        m_context->DestroyQp(t.qp);
    }
    m_context->DeregMr(t.mr);
    t.id->Destroy();
    Deliver(t.record);
}

void
VerbsTransferEngine::OnServerEvent(Ptr<RdmaCmId> id, RdmaCmEvent event)
{
    if (event.event == RdmaCmEventType::CONNECT_REQUEST)
    {
        const std::vector<uint8_t>& data = event.param.privateData;
        if (data.size() < 13)
        {
            id->Reject({});
            return;
        }
        const uint64_t dba = GetLittleEndian(data.data(), 8);
        const uint32_t length = uint32_t(GetLittleEndian(data.data() + 8, 4));
        const uint32_t access = RdmaAccess::LOCAL_WRITE |
                                (data[12] ? RdmaAccess::REMOTE_READ : RdmaAccess::REMOTE_WRITE);
        // The host registers the region (its time, its failures), then answers.
        Ptr<VerbsTransferEngine> self = this;
        const int error = m_context->RegMr(
            m_pd,
            dba,
            length,
            access,
            drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                [self, id](Ptr<RdmaMemoryRegion> mr, int) {
                    if (!self->m_context)
                    {
                        return;
                    }
                    if (!mr)
                    {
                        id->Reject({});
                        id->Destroy();
                        return;
                    }
                    int e = 0;
                    Ptr<RdmaQueuePair> qp = id->CreateQp(self->m_pd, self->GetInitAttr(), e);
                    NS_ABORT_MSG_IF(!qp, "VerbsTransferEngine: no queue pair: error " << e);
                    RdmaConnParam accept;
                    accept.privateData.resize(4);
                    PutLittleEndian(accept.privateData.data(), mr->GetRkey(), 4);
                    self->m_accepted[id] = Accepted{qp, mr};
                    NS_ABORT_MSG_IF(id->Accept(accept) != 0,
                                    "VerbsTransferEngine: rdma_accept failed");
                }));
        if (error != 0)
        {
            id->Reject({});
            id->Destroy();
        }
        return;
    }
    if (event.event == RdmaCmEventType::DISCONNECTED)
    {
        auto it = m_accepted.find(id);
        if (it != m_accepted.end())
        {
            m_context->DestroyQp(it->second.qp);
            m_context->DeregMr(it->second.mr);
            m_accepted.erase(it);
        }
        id->Destroy();
    }
}

void
VerbsTransferEngine::Deliver(const DrpTransferRecord& record)
{
    Ptr<VerbsTransferEngine> self = this;
    m_rnic->GetPcieLink()->Interrupt([self, record]() {
        if (!self->m_completed.IsNull())
        {
            self->m_completed(record.index, record);
        }
    });
}

void
VerbsTransferEngine::OnEvent(Ptr<RdmaCompletionQueue> cq)
{
    for (const RdmaWc& wc : cq->Poll(cq->GetCount()))
    {
        End(wc);
    }
    cq->ReqNotify(false);
}

void
VerbsTransferEngine::End(const RdmaWc& wc)
{
    auto it = m_transfers.find(uint32_t(wc.wrId));
    if (it == m_transfers.end() || !it->second.qp || it->second.qp->GetQpNum() != wc.qpNum)
    {
        return; // a flushed request of a queue pair already released
    }
    Transfer t = it->second;
    m_transfers.erase(it);
    switch (wc.status)
    {
    case RdmaWcStatus::SUCCESS:
        t.record.status = DrpTransferRecord::SUCCESS;
        break;
    case RdmaWcStatus::RETRY_EXC_ERR:
    case RdmaWcStatus::RNR_RETRY_EXC_ERR:
        t.record.status = DrpTransferRecord::DATA_FAILED;
        break;
    default:
        t.record.status = DrpTransferRecord::REFUSED;
        break;
    }
    const RoceTransport::QpCounters counters = m_rnic->GetRoceTransport()->GetCounters(t.qp);
    t.record.retransmissions = counters.retransmissions;
    t.record.cnps = counters.cnps;
    t.record.timeouts = counters.timeouts;
    NS_LOG_INFO("transfer " << t.record.index << " on queue pair " << wc.qpNum << ": "
                            << GetWcStatusName(wc.status));
    if (t.id)
    {
        // rdma_disconnect: the queue pair and the id go when it is done.
        m_context->DeregMr(t.mr);
        m_closing[t.id] = t.qp;
        t.id->Disconnect();
    }
    else
    {
        Release(t.qp, t.mr);
        t.peer->Release(t.peerQp, t.peerMr);
    }
    Deliver(t.record);
}

void
VerbsTransferEngine::Release(Ptr<RdmaQueuePair> qp, Ptr<RdmaMemoryRegion> mr)
{
    if (!m_context)
    {
        return;
    }
    m_context->DestroyQp(qp);
    m_context->DeregMr(mr);
}

} // namespace ns3
