/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-responder.h"

#include "roce-psn.h"
#include "roce-transport.h"

#include "ns3/host-memory.h"
#include "ns3/ib-atomic-ack-eth-header.h"
#include "ns3/ib-atomic-eth-header.h"
#include "ns3/ib-immdt-header.h"
#include "ns3/ib-opcode.h"
#include "ns3/ib-reth-header.h"
#include "ns3/log.h"
#include "ns3/pcie-link.h"
#include "ns3/rdma-context.h"
#include "ns3/rdma-queue-pair.h"

#include <algorithm>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceResponder");

using roce::PsnAdd;
using roce::PsnDiff;

namespace
{
/// An atomic's operand width.
constexpr uint32_t ATOMIC_BYTES = 8;
} // namespace

RoceResponder::RoceResponder(RoceTransport* transport, Ptr<RdmaQueuePair> qp, uint64_t flow)
    : m_transport(transport),
      m_qp(qp),
      m_flow(flow),
      m_epoch(qp->GetEpoch())
{
}

void
RoceResponder::Stop()
{
    m_reads.clear();
    m_staged.clear();
    m_current = Current();
    ++m_epoch; // callbacks in flight find a different epoch
}

bool
RoceResponder::Stale()
{
    if (m_qp->GetEpoch() == m_epoch)
    {
        return false;
    }
    NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": flushed, responder state forgotten");
    m_reads.clear();
    m_staged.clear();
    m_transport->Discard(m_flow);
    m_queued = 0;
    m_current = Current();
    m_started = false;
    m_nakSent = false;
    m_claimed = 0;
    m_sinceAck = 0;
    m_atomics.clear();
    m_atomicOrder.clear();
    m_epoch = m_qp->GetEpoch();
    return true;
}

void
RoceResponder::Receive(const IbBthHeader& bth, Ptr<Packet> packet)
{
    Stale();
    if (!m_started)
    {
        m_epsn = m_qp->GetAttr().rqPsn;
        m_msn = 0;
        m_started = true;
    }
    const int32_t d = PsnDiff(bth.GetPsn(), m_epsn);
    if (d == 0)
    {
        Execute(bth, packet);
        return;
    }
    if (d < 0)
    {
        Duplicate(bth, packet);
        return;
    }
    // A gap: one sequence NAK, until the expected packet comes.
    if (!m_nakSent)
    {
        NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": PSN " << bth.GetPsn() << " past " << m_epsn
                           << ": sequence NAK");
        m_nakSent = true;
        Acknowledge(IbAethHeader::NAK, IbAethHeader::PSN_SEQUENCE_ERROR, m_epsn);
    }
}

void
RoceResponder::Execute(const IbBthHeader& bth, Ptr<Packet> packet)
{
    const uint8_t opcode = bth.GetOpcode();
    const bool starts = IbOpcode::StartsMessage(opcode);
    if (starts == m_current.active)
    {
        // A new message inside one, or a middle or last packet of none.
        Refuse(bth.GetPsn(), IbAethHeader::INVALID_REQUEST);
        return;
    }
    if (opcode <= IbOpcode::SEND_ONLY_WITH_IMMEDIATE)
    {
        if (m_current.active && !m_current.send)
        {
            Refuse(bth.GetPsn(), IbAethHeader::INVALID_REQUEST);
            return;
        }
        ExecuteSend(bth, packet);
        return;
    }
    if (opcode <= IbOpcode::RDMA_WRITE_ONLY_WITH_IMMEDIATE)
    {
        if (m_current.active && m_current.send)
        {
            Refuse(bth.GetPsn(), IbAethHeader::INVALID_REQUEST);
            return;
        }
        ExecuteWrite(bth, packet);
        return;
    }
    if (opcode == IbOpcode::RDMA_READ_REQUEST)
    {
        ExecuteRead(bth, packet, false);
        return;
    }
    ExecuteAtomic(bth, packet);
}

void
RoceResponder::ExecuteSend(const IbBthHeader& bth, Ptr<Packet> packet)
{
    const uint8_t opcode = bth.GetOpcode();
    const uint32_t psn = bth.GetPsn();
    IbImmDtHeader imm;
    const bool withImm = IbOpcode::HasImmediate(opcode);
    if (withImm)
    {
        packet->RemoveHeader(imm);
    }
    if (IbOpcode::StartsMessage(opcode))
    {
        const RdmaRecvWr* recv = m_qp->PeekRecv(m_claimed);
        if (!recv)
        {
            NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": no receive for PSN " << psn << ": RNR");
            Acknowledge(IbAethHeader::RNR_NAK, m_qp->GetAttr().minRnrTimer, psn);
            return;
        }
        m_current = Current();
        m_current.active = true;
        m_current.send = true;
        m_current.sges = recv->sgList;
        for (const RdmaSge& sge : recv->sgList)
        {
            m_current.length += sge.length;
        }
        ++m_claimed;
    }
    const uint32_t size = packet->GetSize();
    if (m_current.offset + size > m_current.length)
    {
        Refuse(psn, IbAethHeader::INVALID_REQUEST, RdmaWcStatus::LOC_LEN_ERR);
        return;
    }
    // Scatter into the receive's SGEs from the message's offset.
    const std::vector<RdmaSge> pieces = SliceSges(m_current.sges, m_current.offset, size);
    Ptr<RdmaContext> context = m_transport->ContextOf(m_qp);
    for (const RdmaSge& piece : pieces)
    {
        if (!context || context->CheckSge(m_qp, piece, piece.length, true) != RdmaWcStatus::SUCCESS)
        {
            Refuse(psn, IbAethHeader::REMOTE_OPERATIONAL_ERROR, RdmaWcStatus::LOC_PROT_ERR);
            return;
        }
    }
    m_current.offset += size;
    const bool ends = IbOpcode::EndsMessage(opcode);
    std::function<void()> done;
    if (ends)
    {
        Ptr<RdmaQueuePair> qp = m_qp;
        Ptr<RoceResponder> self = this;
        const uint32_t epoch = m_epoch;
        const uint32_t total = m_current.offset;
        const uint32_t value = imm.GetImmediate();
        const bool solicited = bth.IsSolicited();
        done = [self, qp, epoch, total, withImm, value, solicited]() {
            if (self->IsCurrent(epoch))
            {
                --self->m_claimed;
                qp->EndRecv(RdmaWcStatus::SUCCESS,
                            total,
                            RdmaWcOpcode::RECV,
                            withImm,
                            value,
                            solicited);
            }
        };
        m_current = Current();
    }
    Advance(1, ends);
    Place(pieces, packet, done, bth.GetAckRequest());
}

void
RoceResponder::ExecuteWrite(const IbBthHeader& bth, Ptr<Packet> packet)
{
    const uint8_t opcode = bth.GetOpcode();
    const uint32_t psn = bth.GetPsn();
    const bool withImm = IbOpcode::HasImmediate(opcode);
    if (withImm && !m_qp->PeekRecv(m_claimed))
    {
        // Checked before anything changes: the same PSN comes again after the RNR timer.
        Acknowledge(IbAethHeader::RNR_NAK, m_qp->GetAttr().minRnrTimer, psn);
        return;
    }
    if (IbOpcode::HasReth(opcode))
    {
        IbRethHeader reth;
        packet->RemoveHeader(reth);
        Ptr<RdmaContext> context = m_transport->ContextOf(m_qp);
        const bool empty = reth.GetDmaLength() == 0;
        if (!empty && (!context || !context->GrantsRkey(m_qp,
                                                        reth.GetRkey(),
                                                        reth.GetVirtualAddress(),
                                                        reth.GetDmaLength(),
                                                        RdmaAccess::REMOTE_WRITE)))
        {
            Refuse(psn, IbAethHeader::REMOTE_ACCESS_ERROR);
            return;
        }
        m_current = Current();
        m_current.active = true;
        m_current.address = reth.GetVirtualAddress();
        m_current.length = reth.GetDmaLength();
    }
    IbImmDtHeader imm;
    if (withImm)
    {
        packet->RemoveHeader(imm);
    }
    const uint32_t size = packet->GetSize();
    if (m_current.offset + size > m_current.length)
    {
        Refuse(psn, IbAethHeader::INVALID_REQUEST);
        return;
    }
    std::vector<RdmaSge> pieces;
    if (size > 0)
    {
        pieces.push_back({m_current.address + m_current.offset, size, 0});
    }
    m_current.offset += size;
    const bool ends = IbOpcode::EndsMessage(opcode);
    std::function<void()> done;
    if (ends && withImm)
    {
        ++m_claimed;
        Ptr<RdmaQueuePair> qp = m_qp;
        Ptr<RoceResponder> self = this;
        const uint32_t epoch = m_epoch;
        const uint32_t total = m_current.offset;
        const uint32_t value = imm.GetImmediate();
        const bool solicited = bth.IsSolicited();
        done = [self, qp, epoch, total, value, solicited]() {
            if (self->IsCurrent(epoch))
            {
                --self->m_claimed;
                qp->EndRecv(RdmaWcStatus::SUCCESS,
                            total,
                            RdmaWcOpcode::RECV_RDMA_WITH_IMM,
                            true,
                            value,
                            solicited);
            }
        };
    }
    if (ends)
    {
        m_current = Current();
    }
    Advance(1, ends);
    Place(pieces, packet, done, bth.GetAckRequest());
}

void
RoceResponder::ExecuteRead(const IbBthHeader& bth, Ptr<Packet> packet, bool duplicate)
{
    IbRethHeader reth;
    packet->RemoveHeader(reth);
    Ptr<RdmaContext> context = m_transport->ContextOf(m_qp);
    const uint32_t length = reth.GetDmaLength();
    if (length > 0 && (!context || !context->GrantsRkey(m_qp,
                                                        reth.GetRkey(),
                                                        reth.GetVirtualAddress(),
                                                        length,
                                                        RdmaAccess::REMOTE_READ)))
    {
        Refuse(bth.GetPsn(), IbAethHeader::REMOTE_ACCESS_ERROR);
        return;
    }
    const uint32_t mtu = m_transport->GetPathMtu(m_qp);
    ReadJob job;
    job.psn = bth.GetPsn();
    job.address = reth.GetVirtualAddress();
    job.length = length;
    job.packets = std::max<uint32_t>(1, (length + mtu - 1) / mtu);
    if (!duplicate)
    {
        Advance(job.packets, true);
    }
    m_reads.push_back(job);
    PumpReads();
}

void
RoceResponder::ExecuteAtomic(const IbBthHeader& bth, Ptr<Packet> packet)
{
    IbAtomicEthHeader atomic;
    packet->RemoveHeader(atomic);
    const uint32_t psn = bth.GetPsn();
    const uint64_t address = atomic.GetVirtualAddress();
    if (address % ATOMIC_BYTES != 0)
    {
        Refuse(psn, IbAethHeader::INVALID_REQUEST);
        return;
    }
    Ptr<RdmaContext> context = m_transport->ContextOf(m_qp);
    if (!context || !context->GrantsRkey(m_qp,
                                         atomic.GetRkey(),
                                         address,
                                         ATOMIC_BYTES,
                                         RdmaAccess::REMOTE_ATOMIC))
    {
        Refuse(psn, IbAethHeader::REMOTE_ACCESS_ERROR);
        return;
    }
    // Executed once, behind the writes before it in the write engine (their
    // data must be in memory first), then the 8 bytes' read and answer.
    Advance(1, true);
    Ptr<RoceResponder> self = this;
    const uint32_t epoch = m_epoch;
    Ptr<PcieLink> pcie = m_transport->GetPcie();
    const bool cas = bth.GetOpcode() == IbOpcode::COMPARE_SWAP;
    pcie->DmaMove(true, ATOMIC_BYTES, [self, epoch, psn, pcie, atomic, cas]() {
        if (!self->IsCurrent(epoch))
        {
            return;
        }
        self->Execute(atomic, cas, psn);
        pcie->DmaMove(false, ATOMIC_BYTES, [self, epoch, psn]() {
            if (self->IsCurrent(epoch))
            {
                self->AnswerAtomic(psn);
            }
        });
    });
}

void
RoceResponder::Execute(const IbAtomicEthHeader& atomic, bool cas, uint32_t psn)
{
    Ptr<HostMemory> memory = m_transport->GetPcie()->GetHostMemory();
    const uint64_t address = atomic.GetVirtualAddress();
    uint8_t bytes[ATOMIC_BYTES];
    memory->Read(address, bytes, ATOMIC_BYTES);
    uint64_t original = 0;
    for (int i = ATOMIC_BYTES - 1; i >= 0; --i)
    {
        original = (original << 8) | bytes[i];
    }
    const uint64_t result = cas ? (original == atomic.GetCompare() ? atomic.GetSwapAdd() : original)
                                : original + atomic.GetSwapAdd();
    for (uint32_t i = 0; i < ATOMIC_BYTES; ++i)
    {
        bytes[i] = (result >> (8 * i)) & 0xff;
    }
    memory->Write(address, bytes, ATOMIC_BYTES);
    m_transport->CountAtomic();
    m_atomics[psn] = original;
    m_atomicOrder.push_back(psn);
    if (m_atomicOrder.size() > MAX_ATOMIC_RESULTS)
    {
        m_atomics.erase(m_atomicOrder.front());
        m_atomicOrder.pop_front();
    }
}

bool
RoceResponder::IsCurrent(uint32_t epoch) const
{
    return m_epoch == epoch && m_qp->GetEpoch() == epoch;
}

void
RoceResponder::Duplicate(const IbBthHeader& bth, Ptr<Packet> packet)
{
    const uint8_t opcode = bth.GetOpcode();
    const uint32_t psn = bth.GetPsn();
    if (opcode == IbOpcode::RDMA_READ_REQUEST)
    {
        ExecuteRead(bth, packet, true); // answered again, from memory as it is
        return;
    }
    if (opcode == IbOpcode::COMPARE_SWAP || opcode == IbOpcode::FETCH_ADD)
    {
        AnswerAtomic(psn);
        return;
    }
    if (bth.GetAckRequest() || IbOpcode::EndsMessage(opcode))
    {
        // Everything before the expected PSN is here: say so again.
        Acknowledge(IbAethHeader::ACK,
                    IbAethHeader::NO_CREDITS,
                    PsnAdd(m_epsn, IbBthHeader::MAX_24));
    }
}

void
RoceResponder::AnswerAtomic(uint32_t psn)
{
    auto it = m_atomics.find(psn);
    if (it == m_atomics.end())
    {
        return; // older than the responder resources keep
    }
    Ptr<Packet> ack = Create<Packet>();
    IbAtomicAckEthHeader original;
    original.SetOriginal(it->second);
    ack->AddHeader(original);
    IbAethHeader aeth;
    aeth.SetSyndrome(IbAethHeader::ACK, IbAethHeader::NO_CREDITS);
    aeth.SetMsn(m_msn);
    ack->AddHeader(aeth);
    m_transport->EmitControl(m_qp, ack, IbOpcode::ATOMIC_ACKNOWLEDGE, psn);
}

void
RoceResponder::Advance(uint32_t packets, bool ends)
{
    m_epsn = PsnAdd(m_epsn, packets);
    m_nakSent = false;
    if (ends)
    {
        m_msn = (m_msn + 1) & IbBthHeader::MAX_24;
    }
}

void
RoceResponder::Place(const std::vector<RdmaSge>& pieces,
                     Ptr<Packet> data,
                     std::function<void()> done,
                     bool ackRequest)
{
    Ptr<RoceResponder> self = this;
    const uint32_t epoch = m_epoch;
    const uint32_t psn = PsnAdd(m_epsn, IbBthHeader::MAX_24); // the packet just executed
    const bool ack = ++m_sinceAck >= m_transport->GetAckInterval() || ackRequest;
    auto after = [self, epoch, psn, done, ack]() {
        if (done)
        {
            done();
        }
        if (ack && self->IsCurrent(epoch))
        {
            self->Acknowledge(IbAethHeader::ACK, IbAethHeader::NO_CREDITS, psn);
        }
    };
    if (ack)
    {
        m_sinceAck = 0;
    }
    Ptr<PcieLink> pcie = m_transport->GetPcie();
    if (pieces.empty())
    {
        // Nothing to write, but in the write engine's order: after the data before it.
        pcie->DmaMove(true, 0, after);
        return;
    }
    uint32_t at = 0;
    for (size_t i = 0; i < pieces.size(); ++i)
    {
        Ptr<Packet> part = data->CreateFragment(at, pieces[i].length);
        at += pieces[i].length;
        if (i + 1 < pieces.size())
        {
            pcie->DmaWrite(pieces[i].addr, part, []() {});
        }
        else
        {
            pcie->DmaWrite(pieces[i].addr, part, after);
        }
    }
}

void
RoceResponder::Acknowledge(IbAethHeader::Kind kind, uint8_t value, uint32_t psn)
{
    if (kind != IbAethHeader::ACK)
    {
        m_transport->CountNak(kind == IbAethHeader::RNR_NAK);
    }
    Ptr<Packet> packet = Create<Packet>();
    IbAethHeader aeth;
    aeth.SetSyndrome(kind, value);
    aeth.SetMsn(m_msn);
    packet->AddHeader(aeth);
    m_transport->EmitControl(m_qp, packet, IbOpcode::ACKNOWLEDGE, psn);
}

void
RoceResponder::Refuse(uint32_t psn, uint8_t code, RdmaWcStatus localError)
{
    NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": PSN " << psn << " refused, NAK code "
                       << unsigned(code));
    Acknowledge(IbAethHeader::NAK, code, psn);
    if (localError == RdmaWcStatus::SUCCESS && m_current.active && m_current.send)
    {
        localError = RdmaWcStatus::REM_INV_REQ_ERR; // the SEND it interrupts ends too
    }
    m_current = Current();
    if (localError != RdmaWcStatus::SUCCESS && m_claimed > 0)
    {
        // The receive it had claimed ends with the error (the queue pair goes to ERR).
        m_qp->EndRecv(localError, 0, RdmaWcOpcode::RECV, false, 0, false);
        Stale();
    }
}

void
RoceResponder::PumpReads()
{
    const uint32_t mtu = m_transport->GetPathMtu(m_qp);
    while (!m_reads.empty() && m_staged.size() + m_queued < m_transport->GetStage())
    {
        ReadJob& job = m_reads.front();
        const uint32_t k = job.next++;
        const uint32_t offset = k * mtu;
        const uint32_t size = std::min(mtu, job.length - std::min(job.length, offset));
        uint8_t opcode = IbOpcode::RDMA_READ_RESPONSE_MIDDLE;
        if (job.packets == 1)
        {
            opcode = IbOpcode::RDMA_READ_RESPONSE_ONLY;
        }
        else if (k == 0)
        {
            opcode = IbOpcode::RDMA_READ_RESPONSE_FIRST;
        }
        else if (k + 1 == job.packets)
        {
            opcode = IbOpcode::RDMA_READ_RESPONSE_LAST;
        }
        IbBthHeader bth;
        bth.SetOpcode(opcode);
        bth.SetDestQp(m_qp->GetAttr().destQpNum);
        bth.SetPsn(PsnAdd(job.psn, k));
        bth.SetPadCount((4 - size % 4) % 4);
        const uint64_t slot = m_nextSlot++;
        m_staged[slot] = nullptr;
        Ptr<RoceResponder> self = this;
        const uint32_t epoch = m_epoch;
        const uint32_t msn = m_msn;
        auto build = [self, slot, epoch, bth, opcode, msn](Ptr<Packet> payload) {
            if (!self->IsCurrent(epoch) || self->m_staged.find(slot) == self->m_staged.end())
            {
                return;
            }
            if (bth.GetPadCount() > 0)
            {
                payload->AddAtEnd(Create<Packet>(bth.GetPadCount()));
            }
            if (IbOpcode::HasAeth(opcode))
            {
                IbAethHeader aeth;
                aeth.SetSyndrome(IbAethHeader::ACK, IbAethHeader::NO_CREDITS);
                aeth.SetMsn(msn);
                payload->AddHeader(aeth);
            }
            payload->AddHeader(bth);
            self->m_staged[slot] = payload;
            self->ReleaseReads();
        };
        const uint64_t address = job.address + offset;
        if (job.next == job.packets)
        {
            m_reads.pop_front();
        }
        if (size == 0)
        {
            build(Create<Packet>());
            continue;
        }
        m_transport->GetPcie()->DmaRead(address, size, build);
    }
}

void
RoceResponder::ReleaseReads()
{
    while (!m_staged.empty() && m_staged.begin()->second)
    {
        Ptr<Packet> packet = m_staged.begin()->second;
        m_staged.erase(m_staged.begin());
        ++m_queued;
        Ptr<RoceResponder> self = this;
        const uint32_t epoch = m_epoch;
        m_transport->Emit(m_qp, packet, m_flow, [self, epoch]() {
            if (self->IsCurrent(epoch))
            {
                self->m_queued = self->m_queued > 0 ? self->m_queued - 1 : 0;
                self->PumpReads();
            }
        });
    }
}

} // namespace ns3
