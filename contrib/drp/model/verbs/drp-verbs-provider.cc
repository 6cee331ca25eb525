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

#include <algorithm>
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
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<DrpVerbsProvider>()
            .AddAttribute("HandlerLatency",
                          "Host time between an RNIC interrupt that needs an answer and the "
                          "answering doorbell (0 to 10 s; 2 us, RdmaHostApplication's).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&DrpVerbsProvider::SetHandlerLatency,
                                           &DrpVerbsProvider::GetHandlerLatency),
                          MakeTimeChecker());
    return tid;
}

DrpVerbsProvider::DrpVerbsProvider() = default;

void
DrpVerbsProvider::DoDispose()
{
    Simulator::Cancel(m_retry);
    m_contexts.clear();
    m_requests.clear();
    m_transfers.clear();
    m_waiting.clear();
    m_pins.clear();
    m_rnic = nullptr;
    m_cpus = nullptr;
    Object::DoDispose();
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
    rnic->AggregateObject(provider);
    return provider;
}

void
DrpVerbsProvider::AddContext(Ptr<RdmaContext> context)
{
    m_contexts.push_back(context);
}

void
DrpVerbsProvider::Bind(Ptr<RdmaQueuePair> qp)
{
    const uint32_t executed =
        (1u << uint32_t(RdmaWrOpcode::RDMA_WRITE)) | (1u << uint32_t(RdmaWrOpcode::RDMA_READ));
    qp->SetSupportedOpcodes(executed);
    qp->SetDoorbell(MakeCallback(&DrpVerbsProvider::Kick, this));
}

void
DrpVerbsProvider::Unbind(Ptr<RdmaQueuePair> qp)
{
    qp->SetDoorbell(Callback<void, Ptr<RdmaQueuePair>>());
    m_requests.erase(qp);
}

void
DrpVerbsProvider::RemoveContext(const RdmaContext* context)
{
    m_contexts.erase(
        std::remove_if(m_contexts.begin(),
                       m_contexts.end(),
                       [context](const Ptr<RdmaContext>& c) { return PeekPointer(c) == context; }),
        m_contexts.end());
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

Ptr<RdmaContext>
DrpVerbsProvider::ContextOf(Ptr<RdmaQueuePair> qp) const
{
    for (const auto& context : m_contexts)
    {
        if (context->FindQp(qp->GetQpNum()) == qp)
        {
            return context;
        }
    }
    return nullptr;
}

RdmaWcStatus
DrpVerbsProvider::CheckLocal(Ptr<RdmaQueuePair> qp, const RdmaSendWr& wr) const
{
    const bool read = wr.opcode == RdmaWrOpcode::RDMA_READ;
    const bool inlined = !read && (wr.sendFlags & RdmaSendFlags::INLINE);
    Ptr<RdmaContext> context = ContextOf(qp);
    for (const RdmaSge& sge : wr.sgList)
    {
        if (inlined || sge.length == 0)
        {
            continue; // inline data was copied at post time; nothing to read
        }
        Ptr<RdmaMemoryRegion> mr = context ? context->FindMrByLkey(sge.lkey) : nullptr;
        if (!mr || mr->GetPd() != qp->GetPd() || !mr->Allows(sge.addr, sge.length, 0))
        {
            return RdmaWcStatus::LOC_PROT_ERR;
        }
        if (read && !mr->Allows(sge.addr, sge.length, RdmaAccess::LOCAL_WRITE))
        {
            return RdmaWcStatus::LOC_ACCESS_ERR;
        }
    }
    return RdmaWcStatus::SUCCESS;
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
        const bool read = wr.opcode == RdmaWrOpcode::RDMA_READ;
        uint64_t total = 0;
        for (const RdmaSge& sge : wr.sgList)
        {
            total += sge.length;
        }
        const bool remoteValid = total == 0 || HostMemory::IsValidRegion(wr.remoteAddr, total);
        const uint32_t maxReads = std::max<uint32_t>(1, qp->GetAttr().maxRdAtomic);
        if ((read && st.reads >= maxReads) ||
            ((wr.sendFlags & RdmaSendFlags::FENCE) && st.reads > 0) ||
            MustWait(qp, st, !read, wr.remoteAddr, remoteValid ? total : 0))
        {
            break; // waits for requests in flight to end
        }
        qp->Take();
        Request request;
        request.seq = st.nextSeq++;
        request.read = read;
        request.remote = wr.remoteAddr;
        request.length = remoteValid ? total : 0;
        request.status = CheckLocal(qp, wr);
        if (request.status == RdmaWcStatus::SUCCESS && !remoteValid)
        {
            request.status = RdmaWcStatus::REM_ACCESS_ERR; // no region can hold it
        }
        if (request.status == RdmaWcStatus::SUCCESS && loopback && total > 0)
        {
            // DRP has no loopback: a transfer to this RNIC itself is refused.
            request.status = RdmaWcStatus::LOC_QP_OP_ERR;
        }
        if (request.status == RdmaWcStatus::SUCCESS)
        {
            uint64_t offset = 0;
            for (const RdmaSge& sge : wr.sgList)
            {
                if (sge.length > 0)
                {
                    Post(qp,
                         st.epoch,
                         request.seq,
                         read,
                         sge.addr,
                         wr.remoteAddr + offset,
                         sge.length);
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
DrpVerbsProvider::Post(Ptr<RdmaQueuePair> qp,
                       uint32_t epoch,
                       uint64_t seq,
                       bool read,
                       uint64_t sba,
                       uint64_t dba,
                       uint32_t length)
{
    const Mac48Address peer = ToMac(qp->GetAttr().peer);
    m_waiting.push_back([this, qp, epoch, seq, read, sba, dba, length, peer]() {
        if (qp->GetEpoch() != epoch)
        {
            return; // flushed or reset while it waited for a TID: never posted
        }
        ++m_doorbells;
        Ptr<DrpVerbsProvider> self = this;
        m_rnic->GetPcieLink()->Doorbell([self, qp, epoch, seq, read, sba, dba, length, peer]() {
            --self->m_doorbells;
            if (qp->GetEpoch() != epoch)
            {
                return; // flushed or reset while the doorbell crossed PCIe
            }
            try
            {
                const uint16_t tid =
                    self->m_rnic->GetTransport()->PostTransfer(peer, read, sba, dba, length);
                self->m_transfers[tid] = {qp, epoch, seq, read};
            }
            catch (const std::invalid_argument& e)
            {
                NS_LOG_WARN("QP " << qp->GetQpNum() << ": transfer refused: " << e.what());
                self->EndTransfer(qp, epoch, seq, RdmaWcStatus::LOC_QP_OP_ERR, 0);
            }
        });
    });
    PostWaiting();
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
        ++m_refusals;
        Ptr<DrpVerbsProvider> self = this;
        m_cpus->Run(m_handlerLatency, [self, peer, tid]() {
            self->m_rnic->GetTransport()->RingRegistrationDone(peer, tid, false);
        });
        return;
    }
    Ptr<DrpVerbsProvider> self = this;
    m_cpus->Run(granting->GetRegistrationTime(address, length),
                [self, peer, tid, read, address, length]() {
                    // Asked again: the region, the queue pair or its access may
                    // have gone while the host registered.
                    Ptr<RdmaContext> still = self->FindGrant(peer, read, address, length);
                    const bool pinned = still && still->Pin(address, length);
                    if (pinned)
                    {
                        self->OnResponderDone(peer, tid, false); // a pin of this TID before
                        self->m_pins[{peer, tid}] = {still, address, length};
                    }
                    self->m_rnic->GetTransport()->RingRegistrationDone(peer, tid, pinned);
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
DrpVerbsProvider::OnResponderDone(Mac48Address peer, uint16_t tid, bool /* released */)
{
    auto it = m_pins.find({peer, tid});
    if (it != m_pins.end())
    {
        const auto& [context, address, length] = it->second;
        context->Unpin(address, length);
        m_pins.erase(it);
    }
}

} // namespace ns3
