/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "verbs-transfer-engine.h"

#include "ns3/abort.h"
#include "ns3/drp-verbs-provider.h"
#include "ns3/log.h"
#include "ns3/pcie-link.h"
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
            .AddAttribute("CompletionQueueDepth",
                          "Entries of the completion queue all transfers share (1 to 4194303)",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&VerbsTransferEngine::m_cqDepth),
                          MakeUintegerChecker<uint32_t>(1, 4194303));
    return tid;
}

VerbsTransferEngine::VerbsTransferEngine()
    : m_timeout(14),
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
    m_transfers.clear();
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

Ptr<RdmaQueuePair>
VerbsTransferEngine::CreateQp()
{
    RdmaQpInitAttr init;
    init.sendCq = m_cq;
    init.recvCq = m_cq;
    init.cap.maxSendWr = 1;
    init.cap.maxRecvWr = 1;
    int error = 0;
    Ptr<RdmaQueuePair> qp = m_context->CreateQp(m_pd, init, error);
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
    t.qp = CreateQp();
    t.peerQp = peer->Accept(remote, dba, length, t.peerMr);
    Connect(t.qp, peer->m_rnic, t.peerQp, 0);
    peer->Connect(t.peerQp, m_rnic, t.qp, remote);

    t.record.tid = uint16_t(t.qp->GetQpNum());
    t.record.index = number;
    t.record.peer = Mac48Address::ConvertFrom(peer->m_rnic->GetAddress());
    t.record.read = read;
    t.record.sba = sba;
    t.record.dba = dba;
    t.record.length = length;
    t.record.mode = DrpTransferRecord::DIRECT;

    RdmaSendWr wr;
    wr.wrId = number;
    wr.opcode = read ? RdmaWrOpcode::RDMA_READ : RdmaWrOpcode::RDMA_WRITE;
    wr.sendFlags = RdmaSendFlags::SIGNALED;
    wr.sgList = {RdmaSge{sba, length, t.mr->GetLkey()}};
    wr.remoteAddr = dba;
    wr.rkey = t.peerMr->GetRkey();
    Ptr<RdmaQueuePair> qp = t.qp;
    m_transfers[qp->GetQpNum()] = t;
    const int error = qp->PostSend({wr});
    NS_ABORT_MSG_IF(error != 0,
                    "VerbsTransferEngine: posting transfer " << number << " failed: " << error);
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
    auto it = m_transfers.find(wc.qpNum);
    if (it == m_transfers.end())
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
    t.record.retransmissions = m_rnic->GetRoceTransport()->GetRetransmissions(t.qp);
    t.record.cnps = m_rnic->GetRoceTransport()->GetCnpsReceived(t.qp);
    t.record.timeouts = m_rnic->GetRoceTransport()->GetTimeouts(t.qp);
    NS_LOG_INFO("transfer " << t.record.index << " on queue pair " << wc.qpNum << ": "
                            << GetWcStatusName(wc.status));
    Release(t.qp, t.mr);
    t.peer->Release(t.peerQp, t.peerMr);
    const DrpTransferRecord record = t.record;
    Ptr<VerbsTransferEngine> self = this;
    m_rnic->GetPcieLink()->Interrupt([self, record]() {
        if (!self->m_completed.IsNull())
        {
            self->m_completed(record.index, record);
        }
    });
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
