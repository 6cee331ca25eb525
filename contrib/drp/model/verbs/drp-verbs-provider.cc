/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-verbs-provider.h"

#include "rdma-context.h"

#include "ns3/abort.h"
#include "ns3/drp-check.h"
#include "ns3/drp-transport.h"
#include "ns3/host-cpus.h"
#include "ns3/host-memory.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pcie-link.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpVerbsProvider");

NS_OBJECT_ENSURE_REGISTERED(DrpVerbsProvider);

TypeId
DrpVerbsProvider::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DrpVerbsProvider")
            .SetParent<RdmaVerbsProvider>()
            .SetGroupName("Drp")
            .AddConstructor<DrpVerbsProvider>()
            .AddAttribute("HandlerLatency",
                          "Host time between an RNIC interrupt that needs an answer and the "
                          "answering doorbell (0 to 10 s; 2 us, RdmaHostApplication's).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&DrpVerbsProvider::SetHandlerLatency,
                                           &DrpVerbsProvider::GetHandlerLatency),
                          MakeTimeChecker())
            .AddAttribute("ResponderResources",
                          "Host address of the responder resources: 8 bytes per atomic in "
                          "flight (RESPONDER_SLOTS of them) where the RNIC keeps each "
                          "atomic's original value, registered on first use. Keep it clear "
                          "of the application's buffers.",
                          UintegerValue(0xffffff0000000000ull),
                          MakeUintegerAccessor(&DrpVerbsProvider::SetResponderResources,
                                               &DrpVerbsProvider::GetResponderResources),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

DrpVerbsProvider::DrpVerbsProvider() = default;

void
DrpVerbsProvider::DoDispose()
{
    Simulator::Cancel(m_retry);
    m_requests.clear();
    m_transfers.clear();
    m_waiting.clear();
    m_pins.clear();
    m_incoming.clear();
    m_atomicSlots.clear();
    m_freeSlots.clear();
    m_rnic = nullptr;
    m_cpus = nullptr;
    RdmaVerbsProvider::DoDispose();
}

void
DrpVerbsProvider::SetHandlerLatency(Time latency)
{
    drp::RequireInRange<Time>("DrpVerbsProvider::HandlerLatency", latency, Time(0), Seconds(10));
    m_handlerLatency = latency;
}

Time
DrpVerbsProvider::GetHandlerLatency() const
{
    return m_handlerLatency;
}

uint64_t
DrpVerbsProvider::GetRefusals() const
{
    return m_refusals;
}

uint64_t
DrpVerbsProvider::GetAtomics() const
{
    return m_atomics;
}

void
DrpVerbsProvider::SetResponderResources(uint64_t address)
{
    HostMemory::RequireValidRegion("DrpVerbsProvider::ResponderResources",
                                   address,
                                   uint64_t(RESPONDER_SLOTS) * DrpTransport::ATOMIC_LENGTH);
    if (m_slotsRegistered)
    {
        throw std::invalid_argument("DrpVerbsProvider::ResponderResources: set before the "
                                    "first atomic, not after");
    }
    m_responderResources = address;
}

uint64_t
DrpVerbsProvider::GetResponderResources() const
{
    return m_responderResources;
}

uint64_t
DrpVerbsProvider::ToPeer(Mac48Address address)
{
    uint8_t bytes[6];
    address.CopyTo(bytes);
    uint64_t peer = 0;
    for (uint8_t b : bytes)
    {
        peer = (peer << 8) | b;
    }
    return peer;
}

Mac48Address
DrpVerbsProvider::ToMac(uint64_t peer)
{
    uint8_t bytes[6];
    for (int i = 5; i >= 0; --i)
    {
        bytes[i] = uint8_t(peer & 0xff);
        peer >>= 8;
    }
    Mac48Address address;
    address.CopyFrom(bytes);
    return address;
}

Ptr<DrpVerbsProvider>
DrpVerbsProvider::Attach(Ptr<RnicNetDevice> rnic)
{
    Ptr<DrpVerbsProvider> provider = rnic->GetObject<DrpVerbsProvider>();
    if (provider)
    {
        return provider;
    }
    Ptr<DrpTransport> transport = rnic->GetTransport();
    NS_ABORT_MSG_IF(transport->HasHost(),
                    "RdmaContext::Open: the RNIC on node "
                        << rnic->GetNode()->GetId()
                        << " already serves a host (an RdmaHostApplication): verbs need an RNIC "
                           "whose transport has no other host");
    provider = CreateObject<DrpVerbsProvider>();
    provider->m_rnic = rnic;
    provider->m_cpus = rnic->GetNode()->GetObject<HostCpus>();
    transport->SetHostCallbacks(MakeCallback(&DrpVerbsProvider::OnRegistrationRequest, provider),
                                MakeCallback(&DrpVerbsProvider::OnReply, provider),
                                MakeCallback(&DrpVerbsProvider::OnCompletion, provider),
                                MakeCallback(&DrpVerbsProvider::OnResponderDone, provider));
    transport->SetMessageCallback(MakeCallback(&DrpVerbsProvider::OnMessageRequest, provider));
    rnic->AggregateObject(provider);
    return provider;
}

void
DrpVerbsProvider::Bind(Ptr<RdmaQueuePair> qp)
{
    qp->SetSupportedOpcodes(ALL_OPCODES);
    qp->SetDoorbell(MakeCallback(&DrpVerbsProvider::Kick, this));
}

void
DrpVerbsProvider::Unbind(Ptr<RdmaQueuePair> qp)
{
    qp->SetDoorbell(Callback<void, Ptr<RdmaQueuePair>>());
    m_requests.erase(qp);
}

DrpVerbsProvider::QpRequests&
DrpVerbsProvider::StateOf(Ptr<RdmaQueuePair> qp)
{
    QpRequests& st = m_requests[qp];
    if (st.epoch != qp->GetEpoch())
    {
        // Flushed or reset since: what was taken is gone.
        st = QpRequests();
        st.epoch = qp->GetEpoch();
    }
    return st;
}

RdmaWcStatus
DrpVerbsProvider::CheckLocal(Ptr<RdmaQueuePair> qp, const RdmaSendWr& wr) const
{
    Ptr<RdmaContext> context = ContextOf(qp);
    return context ? context->CheckLocal(qp, wr) : RdmaWcStatus::LOC_PROT_ERR;
}

bool
DrpVerbsProvider::MustWait(Ptr<RdmaQueuePair> qp,
                           const QpRequests& st,
                           bool write,
                           uint64_t remote,
                           uint64_t length) const
{
    for (const Request& r : st.taken)
    {
        if (r.pending == 0)
        {
            continue;
        }
        // Both ranges are valid regions: no sum wraps.
        const bool overlap = length > 0 && r.length > 0 && remote < r.remote + r.length &&
                             r.remote < remote + length;
        if (!r.read || (write && overlap))
        {
            return true;
        }
    }
    for (const auto& [tid, transfer] : m_transfers)
    {
        if (transfer.qp == qp && transfer.epoch != st.epoch && !transfer.read)
        {
            return true; // a WRITE from before a reset still runs
        }
    }
    return false;
}

void
DrpVerbsProvider::Kick(Ptr<RdmaQueuePair> qp)
{
    QpRequests& st = StateOf(qp);
    const bool loopback =
        ToMac(qp->GetAttr().peer) == Mac48Address::ConvertFrom(m_rnic->GetAddress());
    while (qp->GetState() == RdmaQpState::RTS &&
           std::all_of(st.taken.begin(), st.taken.end(), [](const Request& r) {
               return r.status == RdmaWcStatus::SUCCESS; // after an error, nothing more
           }))
    {
        const RdmaSendWr* next = qp->PeekUntaken();
        if (!next)
        {
            break;
        }
        const RdmaSendWr wr = *next;
        // An atomic is a read of its 8 bytes (see the class doc): it orders,
        // and counts against max_rd_atomic, as a READ does.
        const bool atomic = IsAtomic(wr.opcode);
        const bool read = wr.opcode == RdmaWrOpcode::RDMA_READ || atomic;
        const bool send =
            wr.opcode == RdmaWrOpcode::SEND || wr.opcode == RdmaWrOpcode::SEND_WITH_IMM;
        const bool message = send || wr.opcode == RdmaWrOpcode::RDMA_WRITE_WITH_IMM || atomic;
        uint64_t total = 0;
        uint32_t pieces = 0;
        for (const RdmaSge& sge : wr.sgList)
        {
            total += sge.length;
            pieces += sge.length > 0 ? 1 : 0;
        }
        // A SEND names no remote bytes: its data lands where the peer's receive says.
        const uint64_t remoteAddr = send ? 0 : wr.remoteAddr;
        const uint64_t remoteLength = send ? 0 : total;
        const bool remoteValid =
            remoteLength == 0 || HostMemory::IsValidRegion(remoteAddr, remoteLength);
        const uint32_t maxReads = std::max<uint32_t>(1, qp->GetAttr().maxRdAtomic);
        if ((read && st.reads >= maxReads) ||
            ((wr.sendFlags & RdmaSendFlags::FENCE) && st.reads > 0) ||
            MustWait(qp, st, !read, remoteAddr, remoteValid ? remoteLength : 0))
        {
            break; // waits for requests in flight to end
        }
        qp->Take();
        Request request;
        request.seq = st.nextSeq++;
        request.read = read;
        request.remote = remoteAddr;
        request.length = remoteValid ? remoteLength : 0;
        request.status = CheckLocal(qp, wr);
        if (request.status == RdmaWcStatus::SUCCESS && !remoteValid)
        {
            request.status = RdmaWcStatus::REM_ACCESS_ERR; // no region can hold it
        }
        if (request.status == RdmaWcStatus::SUCCESS && loopback && (total > 0 || message))
        {
            // DRP has no loopback: a transfer to this RNIC itself is refused.
            request.status = RdmaWcStatus::LOC_QP_OP_ERR;
        }
        if (request.status == RdmaWcStatus::SUCCESS && atomic &&
            (pieces != 1 || total != DrpTransport::ATOMIC_LENGTH))
        {
            request.status = RdmaWcStatus::LOC_LEN_ERR; // one SGE of the 8 bytes
        }
        if (request.status == RdmaWcStatus::SUCCESS && message &&
            (pieces != 1 || total > UINT32_MAX))
        {
            // A message is one DRP transfer, gathered from one SGE (see the class doc).
            request.status = RdmaWcStatus::LOC_QP_OP_ERR;
        }
        if (request.status == RdmaWcStatus::SUCCESS)
        {
            Transfer transfer;
            transfer.qp = qp;
            transfer.epoch = st.epoch;
            transfer.seq = request.seq;
            transfer.read = read;
            if (message)
            {
                transfer.hasMessage = true;
                transfer.message = MakeMessage(qp, wr);
            }
            uint64_t offset = 0;
            for (const RdmaSge& sge : wr.sgList)
            {
                if (sge.length > 0)
                {
                    transfer.sba = sge.addr;
                    transfer.dba = remoteAddr + offset;
                    transfer.length = sge.length;
                    Post(transfer);
                    ++request.pending;
                    offset += sge.length;
                }
            }
            st.reads += (read && request.pending > 0) ? 1 : 0;
        }
        st.taken.push_back(request);
    }
    Drain(qp, st);
}

void
DrpVerbsProvider::Drain(Ptr<RdmaQueuePair> qp, QpRequests& st)
{
    while (!st.taken.empty() && st.taken.front().pending == 0)
    {
        const Request done = st.taken.front();
        st.taken.pop_front();
        qp->EndSend(done.status, done.bytes);
        if (done.status != RdmaWcStatus::SUCCESS)
        {
            return; // the queue pair is in ERR: StateOf forgets the rest
        }
    }
}

void
DrpVerbsProvider::Post(const Transfer& transfer)
{
    const Mac48Address peer = ToMac(transfer.qp->GetAttr().peer);
    m_waiting.push_back([this, transfer, peer]() {
        if (transfer.qp->GetEpoch() != transfer.epoch)
        {
            return; // flushed or reset while it waited for a TID: never posted
        }
        ++m_doorbells;
        Ptr<DrpVerbsProvider> self = this;
        m_rnic->GetPcieLink()->Doorbell([self, transfer, peer]() {
            --self->m_doorbells;
            if (transfer.qp->GetEpoch() != transfer.epoch)
            {
                return; // flushed or reset while the doorbell crossed PCIe
            }
            Ptr<DrpTransport> transport = self->m_rnic->GetTransport();
            try
            {
                const uint16_t tid = transfer.hasMessage ? transport->PostMessage(peer,
                                                                                  transfer.sba,
                                                                                  transfer.dba,
                                                                                  transfer.length,
                                                                                  transfer.message)
                                                         : transport->PostTransfer(peer,
                                                                                   transfer.read,
                                                                                   transfer.sba,
                                                                                   transfer.dba,
                                                                                   transfer.length);
                self->m_transfers[tid] = transfer;
            }
            catch (const std::invalid_argument& e)
            {
                NS_LOG_WARN("QP " << transfer.qp->GetQpNum() << ": transfer refused: " << e.what());
                self->EndTransfer(transfer.qp,
                                  transfer.epoch,
                                  transfer.seq,
                                  RdmaWcStatus::LOC_QP_OP_ERR,
                                  0);
            }
        });
    });
    PostWaiting();
}

DrpMessageHeader
DrpVerbsProvider::MakeMessage(Ptr<RdmaQueuePair> qp, const RdmaSendWr& wr)
{
    DrpMessageHeader message;
    switch (wr.opcode)
    {
    case RdmaWrOpcode::SEND_WITH_IMM:
        message.SetOpcode(DrpMessageHeader::SEND_WITH_IMM);
        message.SetImmediate(wr.immData);
        break;
    case RdmaWrOpcode::RDMA_WRITE_WITH_IMM:
        message.SetOpcode(DrpMessageHeader::WRITE_WITH_IMM);
        message.SetImmediate(wr.immData);
        message.SetRkey(wr.rkey);
        break;
    case RdmaWrOpcode::ATOMIC_CMP_AND_SWP:
        message.SetOpcode(DrpMessageHeader::COMPARE_SWAP);
        message.SetRkey(wr.rkey);
        message.SetCompare(wr.compareAdd);
        message.SetSwapAdd(wr.swap);
        break;
    case RdmaWrOpcode::ATOMIC_FETCH_AND_ADD:
        message.SetOpcode(DrpMessageHeader::FETCH_ADD);
        message.SetRkey(wr.rkey);
        message.SetSwapAdd(wr.compareAdd);
        break;
    default:
        message.SetOpcode(DrpMessageHeader::SEND);
        break;
    }
    message.SetDestQpn(qp->GetAttr().destQpNum);
    message.SetSourceQpn(qp->GetQpNum());
    message.SetSolicited(!message.IsAtomic() && (wr.sendFlags & RdmaSendFlags::SOLICITED) != 0);
    return message;
}

void
DrpVerbsProvider::PostWaiting()
{
    while (!m_waiting.empty())
    {
        // The posts already rung take their TIDs first.
        const Time freeAt = m_rnic->GetTransport()->GetTidsFreeAt(m_doorbells + 1);
        if (freeAt > Simulator::Now())
        {
            // A transfer of ours that ends calls again; a hold that ends is waited for.
            Simulator::Remove(m_retry);
            if (freeAt != Time::Max())
            {
                m_retry = Simulator::Schedule(freeAt - Simulator::Now(),
                                              &DrpVerbsProvider::PostWaiting,
                                              this);
            }
            return;
        }
        std::function<void()> post = m_waiting.front();
        m_waiting.pop_front();
        post();
    }
}

RdmaWcStatus
DrpVerbsProvider::MapStatus(const DrpTransferRecord& record)
{
    switch (record.status)
    {
    case DrpTransferRecord::SUCCESS:
        return RdmaWcStatus::SUCCESS;
    case DrpTransferRecord::HANDSHAKE_FAILED:
        return record.invalidReplies > 0 ? RdmaWcStatus::REM_ACCESS_ERR
                                         : RdmaWcStatus::RETRY_EXC_ERR;
    case DrpTransferRecord::DATA_FAILED:
    case DrpTransferRecord::RELEASE_FAILED:
        return RdmaWcStatus::RETRY_EXC_ERR;
    case DrpTransferRecord::REFUSED:
        switch (record.nak)
        {
        case DrpHeader::RECEIVER_NOT_READY:
            return RdmaWcStatus::RNR_RETRY_EXC_ERR;
        case DrpHeader::INVALID_REQUEST:
            return RdmaWcStatus::REM_INV_REQ_ERR;
        case DrpHeader::REMOTE_ACCESS:
            return RdmaWcStatus::REM_ACCESS_ERR;
        default:
            return RdmaWcStatus::REM_OP_ERR;
        }
    }
    return RdmaWcStatus::REM_OP_ERR;
}

void
DrpVerbsProvider::OnCompletion(const DrpTransferRecord& record)
{
    auto it = m_transfers.find(record.tid);
    if (it == m_transfers.end())
    {
        return;
    }
    const Transfer transfer = it->second;
    m_transfers.erase(it);
    PostWaiting(); // its TID may be free for a waiting post
    if (record.status == DrpTransferRecord::REFUSED && record.nak == DrpHeader::RECEIVER_NOT_READY)
    {
        OnRefused(transfer, record);
        return;
    }
    const RdmaWcStatus status = MapStatus(record);
    EndTransfer(transfer.qp,
                transfer.epoch,
                transfer.seq,
                status,
                status == RdmaWcStatus::SUCCESS ? record.length : 0);
    if (transfer.qp->GetEpoch() != transfer.epoch && m_requests.count(transfer.qp) > 0)
    {
        Kick(transfer.qp); // a WRITE from before a reset may have held later requests
    }
}

void
DrpVerbsProvider::EndTransfer(Ptr<RdmaQueuePair> qp,
                              uint32_t epoch,
                              uint64_t seq,
                              RdmaWcStatus status,
                              uint32_t bytes)
{
    if (qp->GetEpoch() != epoch)
    {
        return; // its request was flushed or forgotten
    }
    QpRequests& st = StateOf(qp);
    for (Request& request : st.taken)
    {
        if (request.seq != seq)
        {
            continue;
        }
        --request.pending;
        if (request.status == RdmaWcStatus::SUCCESS)
        {
            request.status = status;
        }
        request.bytes += bytes;
        st.reads -= (request.read && request.pending == 0) ? 1 : 0;
        break;
    }
    Drain(qp, st);
    Kick(qp);
}

void
DrpVerbsProvider::OnReply(uint16_t tid)
{
    Ptr<DrpTransport> transport = m_rnic->GetTransport();
    m_cpus->Run(m_handlerLatency, [transport, tid]() { transport->RingStartData(tid); });
}

void
DrpVerbsProvider::Refuse(Mac48Address peer, uint16_t tid, DrpHeader::Nak nak, uint8_t rnrTimer)
{
    ++m_refusals;
    Ptr<DrpVerbsProvider> self = this;
    m_cpus->Run(m_handlerLatency, [self, peer, tid, nak, rnrTimer]() {
        self->m_rnic->GetTransport()->RingRefusal(peer, tid, nak, rnrTimer);
    });
}

void
DrpVerbsProvider::OnRegistrationRequest(Mac48Address peer,
                                        uint16_t tid,
                                        bool read,
                                        uint64_t address,
                                        uint32_t length)
{
    Ptr<RdmaContext> granting = FindGrant(peer, read, address, length);
    if (!granting)
    {
        NS_LOG_INFO("transfer " << tid << " of " << peer << ": " << length << " bytes at "
                                << address << " refused (no queue pair, region or access)");
        Refuse(peer, tid, DrpHeader::REMOTE_ACCESS, 0);
        return;
    }
    Ptr<DrpVerbsProvider> self = this;
    m_cpus->Run(granting->GetRegistrationTime(address, length),
                [self, peer, tid, read, address, length]() {
                    // Asked again: the region, the queue pair or its access may
                    // have gone while the host registered.
                    Ptr<RdmaContext> still = self->FindGrant(peer, read, address, length);
                    Ptr<DrpTransport> transport = self->m_rnic->GetTransport();
                    if (!still)
                    {
                        transport->RingRefusal(peer, tid, DrpHeader::REMOTE_ACCESS);
                        return;
                    }
                    const bool pinned = still->Pin(address, length);
                    if (pinned)
                    {
                        self->OnResponderDone(peer, tid, false); // a pin of this TID before
                        self->m_pins[{peer, tid}] = {still, address, length};
                    }
                    transport->RingRegistrationDone(peer, tid, pinned);
                });
}

Ptr<RdmaContext>
DrpVerbsProvider::FindGrant(Mac48Address peer, bool read, uint64_t address, uint32_t length) const
{
    const uint32_t access = read ? RdmaAccess::REMOTE_READ : RdmaAccess::REMOTE_WRITE;
    for (const auto& context : m_contexts)
    {
        if (context->Grants(ToPeer(peer), address, length, access))
        {
            return context;
        }
    }
    return nullptr;
}

void
DrpVerbsProvider::OnResponderDone(Mac48Address peer, uint16_t tid, bool released)
{
    auto it = m_pins.find({peer, tid});
    if (it != m_pins.end())
    {
        const auto& [context, address, length] = it->second;
        context->Unpin(address, length);
        m_pins.erase(it);
    }
    auto atomic = m_atomicSlots.find({peer, tid});
    if (atomic != m_atomicSlots.end())
    {
        m_freeSlots.push_back(atomic->second); // its result is not asked for again
        m_atomicSlots.erase(atomic);
    }
    auto incoming = m_incoming.find({peer, tid});
    if (incoming == m_incoming.end())
    {
        return;
    }
    const Incoming done = incoming->second;
    m_incoming.erase(incoming);
    if (released && done.qp->GetEpoch() == done.epoch)
    {
        // The message is whole in host memory: its receive completes.
        const DrpMessageHeader& m = done.message;
        done.qp->EndRecv(RdmaWcStatus::SUCCESS,
                         done.length,
                         m.IsSend() ? RdmaWcOpcode::RECV : RdmaWcOpcode::RECV_RDMA_WITH_IMM,
                         m.HasImmediate(),
                         m.GetImmediate(),
                         m.IsSolicited());
    }
}

void
DrpVerbsProvider::OnRefused(Transfer transfer, const DrpTransferRecord& record)
{
    if (transfer.qp->GetEpoch() != transfer.epoch)
    {
        return; // its request was flushed or forgotten
    }
    const uint8_t limit = transfer.qp->GetAttr().rnrRetry;
    if (limit != 7 && transfer.rnrRetries >= limit) // 7: retry without end
    {
        EndTransfer(transfer.qp, transfer.epoch, transfer.seq, RdmaWcStatus::RNR_RETRY_EXC_ERR, 0);
        return;
    }
    ++transfer.rnrRetries;
    const Time wait =
        NanoSeconds(int64_t(std::llround(GetRnrTimerMicroseconds(record.rnrTimer) * 1000.0)));
    NS_LOG_INFO("QP " << transfer.qp->GetQpNum() << ": receiver not ready; again in " << wait);
    Ptr<DrpVerbsProvider> self = this;
    Simulator::Schedule(wait, [self, transfer]() { self->Post(transfer); });
}

Ptr<RdmaQueuePair>
DrpVerbsProvider::FindDestination(Mac48Address peer, const DrpMessageHeader& message) const
{
    for (const auto& context : m_contexts)
    {
        Ptr<RdmaQueuePair> qp = context->FindQp(message.GetDestQpn());
        if (!qp)
        {
            continue;
        }
        const RdmaQpState state = qp->GetState();
        const bool connected =
            state == RdmaQpState::RTR || state == RdmaQpState::RTS || state == RdmaQpState::SQD;
        if (connected && qp->GetAttr().peer == ToPeer(peer) &&
            qp->GetAttr().destQpNum == message.GetSourceQpn())
        {
            return qp;
        }
    }
    return nullptr;
}

DrpHeader::Nak
DrpVerbsProvider::CheckMessage(Ptr<RdmaQueuePair> qp,
                               uint64_t dba,
                               uint32_t length,
                               const DrpMessageHeader& message,
                               uint64_t& placement)
{
    // Messages accepted before this one hold the receives ahead of it.
    uint32_t claimed = 0;
    for (const auto& [key, incoming] : m_incoming)
    {
        claimed += (incoming.qp == qp && incoming.epoch == qp->GetEpoch()) ? 1 : 0;
    }
    const RdmaRecvWr* recv = qp->PeekRecv(claimed);
    if (!recv)
    {
        return DrpHeader::RECEIVER_NOT_READY;
    }
    Ptr<RdmaContext> context = ContextOf(qp);
    if (!message.IsSend())
    {
        // A WRITE with immediate: the rkey's region must hold the bytes.
        placement = dba;
        return GrantsRkey(qp, message.GetRkey(), dba, length, RdmaAccess::REMOTE_WRITE)
                   ? DrpHeader::REGISTRATION
                   : DrpHeader::REMOTE_ACCESS;
    }
    // A SEND lands in its receive's first SGE (see the class doc).
    RdmaWcStatus local = RdmaWcStatus::SUCCESS;
    const RdmaSge* sge = recv->sgList.empty() ? nullptr : &recv->sgList.front();
    if (length > 0 && (!sge || sge->length < length))
    {
        local = RdmaWcStatus::LOC_LEN_ERR;
    }
    else if (length > 0)
    {
        local = context ? context->CheckSge(qp, *sge, length, true) : RdmaWcStatus::LOC_PROT_ERR;
    }
    if (local == RdmaWcStatus::SUCCESS)
    {
        placement = sge ? sge->addr : 0;
        return DrpHeader::REGISTRATION;
    }
    if (claimed == 0)
    {
        // The receive ends in error, and its queue pair with it.
        qp->EndRecv(local,
                    length,
                    RdmaWcOpcode::RECV,
                    message.HasImmediate(),
                    message.GetImmediate(),
                    false);
    }
    return local == RdmaWcStatus::LOC_LEN_ERR ? DrpHeader::INVALID_REQUEST
                                              : DrpHeader::REMOTE_OPERATION;
}

void
DrpVerbsProvider::OnMessageRequest(Mac48Address peer,
                                   uint16_t tid,
                                   uint64_t dba,
                                   uint32_t length,
                                   const DrpMessageHeader& message)
{
    if (message.IsAtomic())
    {
        OnAtomicRequest(peer, tid, dba, message);
        return;
    }
    Ptr<DrpVerbsProvider> self = this;
    Ptr<RdmaQueuePair> qp = FindDestination(peer, message);
    uint64_t placement = dba;
    const DrpHeader::Nak nak =
        qp ? CheckMessage(qp, dba, length, message, placement) : DrpHeader::INVALID_REQUEST;
    if (nak != DrpHeader::REGISTRATION)
    {
        NS_LOG_INFO("message " << message << " (transfer " << tid << " of " << peer
                               << ") refused: NAK " << uint32_t(nak));
        Refuse(peer, tid, nak, qp ? qp->GetAttr().minRnrTimer : 0);
        return;
    }
    // The receive is this message's from now on; the host registers its
    // target as for a WRITE (the DRP method's cost).
    m_incoming[{peer, tid}] = {qp, qp->GetEpoch(), length, message};
    Ptr<RdmaContext> context = ContextOf(qp);
    m_cpus->Run(context->GetRegistrationTime(placement, length),
                [self, peer, tid, context, placement, length]() {
                    Ptr<DrpTransport> transport = self->m_rnic->GetTransport();
                    auto it = self->m_incoming.find({peer, tid});
                    const bool live = it != self->m_incoming.end() &&
                                      it->second.qp->GetEpoch() == it->second.epoch;
                    if (!live || (length > 0 && !context->Pin(placement, length)))
                    {
                        // Gone meanwhile, or the registration failed: refused
                        // (a failed registration is asked again, as for a WRITE).
                        if (it != self->m_incoming.end())
                        {
                            self->m_incoming.erase(it);
                        }
                        transport->RingRefusal(peer,
                                               tid,
                                               live ? DrpHeader::REGISTRATION
                                                    : DrpHeader::REMOTE_OPERATION);
                        return;
                    }
                    if (length > 0)
                    {
                        self->m_pins[{peer, tid}] = {context, placement, length};
                    }
                    transport->RingPlacement(peer, tid, placement);
                });
}

bool
DrpVerbsProvider::IsAtomic(RdmaWrOpcode opcode)
{
    return opcode == RdmaWrOpcode::ATOMIC_CMP_AND_SWP ||
           opcode == RdmaWrOpcode::ATOMIC_FETCH_AND_ADD;
}

DrpHeader::Nak
DrpVerbsProvider::CheckAtomic(Ptr<RdmaQueuePair> qp,
                              uint64_t dba,
                              const DrpMessageHeader& message) const
{
    if (dba % DrpTransport::ATOMIC_LENGTH != 0)
    {
        return DrpHeader::INVALID_REQUEST; // a misaligned atomic (IBA o9-21)
    }
    return GrantsRkey(qp,
                      message.GetRkey(),
                      dba,
                      DrpTransport::ATOMIC_LENGTH,
                      RdmaAccess::REMOTE_ATOMIC)
               ? DrpHeader::REGISTRATION
               : DrpHeader::REMOTE_ACCESS;
}

bool
DrpVerbsProvider::GrantsRkey(Ptr<RdmaQueuePair> qp,
                             uint32_t rkey,
                             uint64_t address,
                             uint32_t length,
                             uint32_t access) const
{
    Ptr<RdmaContext> context = ContextOf(qp);
    return context && context->GrantsRkey(qp, rkey, address, length, access);
}

bool
DrpVerbsProvider::TakeSlot(uint64_t& slot)
{
    if (!m_slotsRegistered)
    {
        // The responder resources: host memory the RNIC owns, as an RNIC's
        // driver gives it context memory, registered once.
        m_rnic->GetHostMemory()->Register(m_responderResources,
                                          RESPONDER_SLOTS * DrpTransport::ATOMIC_LENGTH);
        m_slotsRegistered = true;
        for (uint32_t i = RESPONDER_SLOTS; i > 0; --i)
        {
            m_freeSlots.push_back(m_responderResources +
                                  uint64_t(i - 1) * DrpTransport::ATOMIC_LENGTH);
        }
    }
    if (m_freeSlots.empty())
    {
        return false;
    }
    slot = m_freeSlots.back();
    m_freeSlots.pop_back();
    return true;
}

void
DrpVerbsProvider::Execute(uint64_t dba, uint64_t slot, const DrpMessageHeader& message)
{
    Ptr<HostMemory> memory = m_rnic->GetHostMemory();
    uint8_t bytes[DrpTransport::ATOMIC_LENGTH];
    memory->Read(dba, bytes, sizeof(bytes));
    memory->Write(slot, bytes, sizeof(bytes)); // the value before, kept
    uint64_t original = 0;
    for (int i = DrpTransport::ATOMIC_LENGTH - 1; i >= 0; --i)
    {
        original = (original << 8) | bytes[i]; // the host's byte order: little-endian
    }
    uint64_t result = original + message.GetSwapAdd(); // FETCH_ADD wraps modulo 2^64
    if (message.GetOpcode() == DrpMessageHeader::COMPARE_SWAP)
    {
        result = original == message.GetCompare() ? message.GetSwapAdd() : original;
    }
    for (uint32_t i = 0; i < DrpTransport::ATOMIC_LENGTH; ++i)
    {
        bytes[i] = uint8_t(result >> (8 * i));
    }
    memory->Write(dba, bytes, sizeof(bytes));
}

void
DrpVerbsProvider::OnAtomicRequest(Mac48Address peer,
                                  uint16_t tid,
                                  uint64_t dba,
                                  const DrpMessageHeader& message)
{
    Ptr<RdmaQueuePair> qp = FindDestination(peer, message);
    const DrpHeader::Nak nak = qp ? CheckAtomic(qp, dba, message) : DrpHeader::INVALID_REQUEST;
    if (nak != DrpHeader::REGISTRATION)
    {
        NS_LOG_INFO("atomic " << message << " (transfer " << tid << " of " << peer
                              << ") refused: NAK " << uint32_t(nak));
        Refuse(peer, tid, nak, 0);
        return;
    }
    // The host registers the target as for a READ (the DRP method's cost),
    // then the operation runs once: a repeated REQ is answered by the
    // transport from its record, and a data frame sent again reads the
    // result kept in the responder resources, not the target.
    Ptr<DrpVerbsProvider> self = this;
    Ptr<RdmaContext> context = ContextOf(qp);
    const uint32_t epoch = qp->GetEpoch();
    m_cpus->Run(context->GetRegistrationTime(dba, DrpTransport::ATOMIC_LENGTH),
                [self, peer, tid, qp, epoch, context, dba, message]() {
                    Ptr<DrpTransport> transport = self->m_rnic->GetTransport();
                    if (qp->GetEpoch() != epoch || self->FindDestination(peer, message) != qp ||
                        self->CheckAtomic(qp, dba, message) != DrpHeader::REGISTRATION)
                    {
                        transport->RingRefusal(peer, tid, DrpHeader::REMOTE_OPERATION);
                        return;
                    }
                    uint64_t slot = 0;
                    if (!self->TakeSlot(slot))
                    {
                        transport->RingRefusal(peer, tid, DrpHeader::REGISTRATION); // asked again
                        return;
                    }
                    if (!context->Pin(dba, DrpTransport::ATOMIC_LENGTH))
                    {
                        self->m_freeSlots.push_back(slot);
                        transport->RingRefusal(peer, tid, DrpHeader::REGISTRATION); // asked again
                        return;
                    }
                    self->OnResponderDone(peer, tid, false); // what this TID held before
                    self->m_pins[{peer, tid}] = {context, dba, DrpTransport::ATOMIC_LENGTH};
                    self->m_atomicSlots[{peer, tid}] = slot;
                    self->Execute(dba, slot, message);
                    ++self->m_atomics;
                    transport->RingPlacement(peer, tid, slot);
                });
}

} // namespace ns3
