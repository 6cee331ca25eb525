/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-requester.h"

#include "roce-psn.h"
#include "roce-transport.h"

#include "ns3/ethernet-net-device.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-atomic-ack-eth-header.h"
#include "ns3/ib-atomic-eth-header.h"
#include "ns3/ib-immdt-header.h"
#include "ns3/ib-opcode.h"
#include "ns3/ib-reth-header.h"
#include "ns3/log.h"
#include "ns3/pcie-link.h"
#include "ns3/rdma-context.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-v2-frame.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceRequester");

using roce::PsnAdd;
using roce::PsnDiff;

namespace
{

/// \param opcode a send request's \return true for READ and the atomics
bool
IsReadLike(RdmaWrOpcode opcode)
{
    return opcode == RdmaWrOpcode::RDMA_READ || opcode == RdmaWrOpcode::ATOMIC_CMP_AND_SWP ||
           opcode == RdmaWrOpcode::ATOMIC_FETCH_AND_ADD;
}

/// \param code a NAK's code \return the requester's completion status for it
RdmaWcStatus
StatusOfNak(uint8_t code)
{
    switch (code)
    {
    case IbAethHeader::INVALID_REQUEST:
        return RdmaWcStatus::REM_INV_REQ_ERR;
    case IbAethHeader::REMOTE_ACCESS_ERROR:
        return RdmaWcStatus::REM_ACCESS_ERR;
    default:
        return RdmaWcStatus::REM_OP_ERR;
    }
}

} // namespace

RoceRequester::RoceRequester(RoceTransport* transport, Ptr<RdmaQueuePair> qp, uint64_t flow)
    : m_transport(transport),
      m_qp(qp),
      m_flow(flow),
      m_epoch(qp->GetEpoch())
{
}

RoceRequester::~RoceRequester()
{
    m_timer.Remove();
    m_rnrTimer.Remove();
    m_paceTimer.Remove();
    if (m_cc)
    {
        m_cc->Stop();
    }
}

void
RoceRequester::Stop()
{
    m_timer.Remove();
    m_rnrTimer.Remove();
    m_paceTimer.Remove();
    m_messages.clear();
    m_staged.clear();
    m_sentAt.clear();
    ++m_generation;
    if (m_cc)
    {
        m_cc->Stop(); // a new start (RTS again) starts it afresh
        m_cc = nullptr;
    }
}

bool
RoceRequester::Stale()
{
    if (m_qp->GetEpoch() == m_epoch)
    {
        return false;
    }
    // Flushed or reset since: what was taken is gone.
    NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": flushed, requester state forgotten");
    Stop();
    m_transport->Discard(m_flow);
    m_queued = 0;
    m_started = false;
    m_rnrWait = false;
    m_readGap = false;
    m_retries = 0;
    m_rnrRetries = 0;
    m_epoch = m_qp->GetEpoch();
    return true;
}

void
RoceRequester::Kick()
{
    Stale();
    Pump();
}

uint32_t
RoceRequester::EndPsn(const Message& m) const
{
    return PsnAdd(m.firstPsn, m.packets);
}

RoceRequester::Message*
RoceRequester::Find(uint32_t psn)
{
    for (Message& m : m_messages)
    {
        if (m.packets > 0 && PsnDiff(psn, m.firstPsn) >= 0 && PsnDiff(psn, EndPsn(m)) < 0)
        {
            return &m;
        }
    }
    return nullptr;
}

RoceRequester::Message*
RoceRequester::FindId(uint64_t id)
{
    for (Message& m : m_messages)
    {
        if (m.id == id)
        {
            return &m;
        }
    }
    return nullptr;
}

void
RoceRequester::Pump()
{
    if (m_pumping)
    {
        return; // Complete() from within: the loop goes on
    }
    m_pumping = true;
    while (
        !Stale() && m_qp->GetState() == RdmaQpState::RTS && !m_rnrWait &&
        m_staged.size() + m_queued < m_transport->GetStage() &&
        (m_ccWindow == 0 || !m_started ||
         PsnDiff(m_sendPsn, m_ackPsn) < int32_t(std::min(m_ccWindow, IbBthHeader::MAX_24 / 2))) &&
        IsDue())
    {
        if (m_started && PsnDiff(m_sendPsn, m_nextPsn) < 0)
        {
            if (PsnDiff(m_sendPsn, m_ackPsn) < 0)
            {
                m_sendPsn = m_ackPsn; // nothing to send again that is answered
            }
            Message* m = Find(m_sendPsn);
            if (!m || m->status != RdmaWcStatus::SUCCESS)
            {
                break; // nothing is sent past a request that failed
            }
            MakePacket(*m);
            continue;
        }
        if (!Take())
        {
            break;
        }
    }
    m_pumping = false;
    Complete();
}

bool
RoceRequester::Take()
{
    const RdmaSendWr* next = m_qp->PeekUntaken();
    if (!next)
    {
        return false;
    }
    uint32_t readsOutstanding = 0;
    for (const Message& m : m_messages)
    {
        if (m.status != RdmaWcStatus::SUCCESS)
        {
            return false; // the queue pair will go to ERR: nothing more
        }
        readsOutstanding += (m.kind == READ || m.kind == ATOMIC) ? 1 : 0;
    }
    const RdmaQpAttr& attr = m_qp->GetAttr();
    if ((next->sendFlags & RdmaSendFlags::FENCE) && readsOutstanding > 0)
    {
        return false;
    }
    if (IsReadLike(next->opcode) && readsOutstanding >= std::max<uint32_t>(1, attr.maxRdAtomic))
    {
        return false;
    }
    Message m;
    m.id = m_nextId++;
    m.wr = *next;
    m_qp->Take();
    switch (m.wr.opcode)
    {
    case RdmaWrOpcode::SEND:
    case RdmaWrOpcode::SEND_WITH_IMM:
        m.kind = SEND;
        break;
    case RdmaWrOpcode::RDMA_WRITE:
    case RdmaWrOpcode::RDMA_WRITE_WITH_IMM:
        m.kind = WRITE;
        break;
    case RdmaWrOpcode::RDMA_READ:
        m.kind = READ;
        break;
    default:
        m.kind = ATOMIC;
        break;
    }
    for (const RdmaSge& sge : m.wr.sgList)
    {
        m.length += sge.length;
    }
    if (!m_started)
    {
        m_nextPsn = m_sendPsn = m_ackPsn = m_highestSent = m_ackedThrough = attr.sqPsn;
        m_started = true;
        StartCongestionControl();
    }
    Ptr<RdmaContext> context = m_transport->ContextOf(m_qp);
    m.status = context ? context->CheckLocal(m_qp, m.wr) : RdmaWcStatus::LOC_PROT_ERR;
    if (m.status == RdmaWcStatus::SUCCESS && m.kind == ATOMIC && m.length != 8)
    {
        m.status = RdmaWcStatus::LOC_LEN_ERR; // an atomic moves 8 bytes
    }
    const uint32_t mtu = m_transport->GetPathMtu(m_qp);
    m.firstPsn = m_nextPsn;
    if (m.status == RdmaWcStatus::SUCCESS)
    {
        m.packets = m.kind == ATOMIC ? 1 : std::max<uint32_t>(1, (m.length + mtu - 1) / mtu);
    }
    m_nextPsn = PsnAdd(m_nextPsn, m.packets);
    NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": wr " << m.wr.wrId << " takes PSNs " << m.firstPsn
                       << "+" << m.packets << " (" << m.status << ")");
    m_messages.push_back(m);
    return true;
}

uint8_t
RoceRequester::OpcodeOf(const Message& m, uint32_t k) const
{
    const bool only = m.packets == 1;
    const bool last = k + 1 == m.packets;
    const bool imm = m.wr.opcode == RdmaWrOpcode::SEND_WITH_IMM ||
                     m.wr.opcode == RdmaWrOpcode::RDMA_WRITE_WITH_IMM;
    if (m.kind == SEND)
    {
        if (only)
        {
            return imm ? IbOpcode::SEND_ONLY_WITH_IMMEDIATE : IbOpcode::SEND_ONLY;
        }
        if (k == 0)
        {
            return IbOpcode::SEND_FIRST;
        }
        return last ? (imm ? IbOpcode::SEND_LAST_WITH_IMMEDIATE : IbOpcode::SEND_LAST)
                    : IbOpcode::SEND_MIDDLE;
    }
    if (only)
    {
        return imm ? IbOpcode::RDMA_WRITE_ONLY_WITH_IMMEDIATE : IbOpcode::RDMA_WRITE_ONLY;
    }
    if (k == 0)
    {
        return IbOpcode::RDMA_WRITE_FIRST;
    }
    return last ? (imm ? IbOpcode::RDMA_WRITE_LAST_WITH_IMMEDIATE : IbOpcode::RDMA_WRITE_LAST)
                : IbOpcode::RDMA_WRITE_MIDDLE;
}

uint32_t
RoceRequester::GetRetransmissions() const
{
    return m_retransmissions;
}

void
RoceRequester::MakePacket(Message& m)
{
    const RdmaQpAttr& attr = m_qp->GetAttr();
    const uint32_t mtu = m_transport->GetPathMtu(m_qp);
    const uint32_t psn = m_sendPsn;
    const uint32_t k = PsnDiff(psn, m.firstPsn);
    if (PsnDiff(psn, m_highestSent) < 0)
    {
        m_transport->CountRetransmission(psn);
        ++m_retransmissions;
        m_sentAt.erase(psn); // Karn: no round-trip sample from a packet sent again
    }
    Staged staged;
    staged.bth.SetDestQp(attr.destQpNum);
    staged.bth.SetPsn(psn);
    staged.headers = Create<Packet>();
    uint32_t offset = 0;
    uint32_t size = 0;
    if (m.kind == READ)
    {
        // Sent again from a missing response: the RETH moves on with it.
        IbRethHeader reth;
        reth.SetVirtualAddress(m.wr.remoteAddr + uint64_t(k) * mtu);
        reth.SetRkey(m.wr.rkey);
        reth.SetDmaLength(m.length - std::min(m.length, k * mtu));
        staged.headers->AddHeader(reth);
        staged.bth.SetOpcode(IbOpcode::RDMA_READ_REQUEST);
        staged.bth.SetAckRequest(true);
        staged.endPsn = EndPsn(m);
    }
    else if (m.kind == ATOMIC)
    {
        const bool cas = m.wr.opcode == RdmaWrOpcode::ATOMIC_CMP_AND_SWP;
        IbAtomicEthHeader atomic;
        atomic.SetVirtualAddress(m.wr.remoteAddr);
        atomic.SetRkey(m.wr.rkey);
        atomic.SetSwapAdd(cas ? m.wr.swap : m.wr.compareAdd);
        atomic.SetCompare(cas ? m.wr.compareAdd : 0);
        staged.headers->AddHeader(atomic);
        staged.bth.SetOpcode(cas ? IbOpcode::COMPARE_SWAP : IbOpcode::FETCH_ADD);
        staged.bth.SetAckRequest(true);
        staged.endPsn = PsnAdd(psn, 1);
    }
    else
    {
        offset = k * mtu;
        size = std::min(mtu, m.length - std::min(m.length, offset));
        const uint8_t opcode = OpcodeOf(m, k);
        if (IbOpcode::HasImmediate(opcode))
        {
            IbImmDtHeader imm;
            imm.SetImmediate(m.wr.immData);
            staged.headers->AddHeader(imm);
        }
        if (IbOpcode::HasReth(opcode))
        {
            IbRethHeader reth;
            reth.SetVirtualAddress(m.wr.remoteAddr);
            reth.SetRkey(m.wr.rkey);
            reth.SetDmaLength(m.length);
            staged.headers->AddHeader(reth);
        }
        const bool last = IbOpcode::EndsMessage(opcode);
        staged.bth.SetOpcode(opcode);
        staged.bth.SetAckRequest(last);
        staged.bth.SetSolicited(last && (m.wr.sendFlags & RdmaSendFlags::SOLICITED));
        staged.bth.SetPadCount((4 - size % 4) % 4);
        staged.endPsn = PsnAdd(psn, 1);
    }
    m_sendPsn = staged.endPsn;
    if (m_rate.GetBitRate() > 0)
    {
        // The rate limiter spaces the packets by their bytes on the wire.
        const uint32_t wire = size + (4 - size % 4) % 4 + staged.headers->GetSize() +
                              IbBthHeader::SIZE + RoceV2Frame::OVERHEAD +
                              EthernetNetDevice::HEADER_SIZE + EthernetNetDevice::FCS_SIZE +
                              EthernetNetDevice::PREAMBLE_SFD_SIZE + 12; // inter-frame gap
        m_nextDue = std::max(m_nextDue, Simulator::Now()) + m_rate.CalculateBytesTxTime(wire);
    }
    const uint64_t slot = m_nextSlot++;
    m_staged[slot] = staged;
    ReadPayload(m, offset, size, slot);
}

void
RoceRequester::ReadPayload(const Message& m, uint32_t offset, uint32_t size, uint64_t slot)
{
    std::vector<RdmaSge> pieces = SliceSges(m.wr.sgList, offset, size);
    auto parts = std::make_shared<std::vector<Ptr<Packet>>>(pieces.size());
    auto left = std::make_shared<uint32_t>(pieces.size());
    Ptr<RoceRequester> self = this;
    const uint32_t generation = m_generation;
    auto assemble = [self, slot, generation, parts]() {
        auto it = self->m_staged.find(slot);
        if (generation != self->m_generation || it == self->m_staged.end())
        {
            return; // discarded by a go-back meanwhile
        }
        Staged& staged = it->second;
        Ptr<Packet> packet = staged.headers->Copy();
        for (const Ptr<Packet>& part : *parts)
        {
            packet->AddAtEnd(part);
        }
        const uint8_t pad = staged.bth.GetPadCount();
        if (pad > 0)
        {
            packet->AddAtEnd(Create<Packet>(pad));
        }
        packet->AddHeader(staged.bth);
        staged.packet = packet;
        self->Release();
    };
    if (pieces.empty())
    {
        assemble();
        return;
    }
    Ptr<PcieLink> pcie = m_transport->GetPcie();
    for (size_t i = 0; i < pieces.size(); ++i)
    {
        pcie->DmaRead(pieces[i].addr,
                      pieces[i].length,
                      [parts, left, i, assemble](Ptr<Packet> bytes) {
                          (*parts)[i] = bytes;
                          if (--*left == 0)
                          {
                              assemble();
                          }
                      });
    }
}

void
RoceRequester::Release()
{
    while (!m_staged.empty() && m_staged.begin()->second.packet)
    {
        Staged staged = m_staged.begin()->second;
        m_staged.erase(m_staged.begin());
        ++m_queued;
        Ptr<RoceRequester> self = this;
        const uint32_t endPsn = staged.endPsn;
        const uint32_t psn = staged.bth.GetPsn();
        const uint32_t bytes = staged.packet->GetSize();
        const uint32_t generation = m_generation;
        m_transport->Emit(m_qp, staged.packet, m_flow, [self, endPsn, psn, bytes, generation]() {
            if (generation == self->m_generation)
            {
                self->Sent(endPsn, psn, bytes);
            }
        });
    }
}

void
RoceRequester::Sent(uint32_t endPsn, uint32_t psn, uint32_t bytes)
{
    m_queued = m_queued > 0 ? m_queued - 1 : 0;
    if (PsnDiff(endPsn, m_highestSent) > 0)
    {
        if (m_cc && m_cc->NeedsRttSamples())
        {
            m_sentAt[psn] = Simulator::Now(); // sent for the first time
        }
        m_highestSent = endPsn;
    }
    if (m_cc)
    {
        SetCcSequence();
        m_cc->OnSent(bytes);
    }
    if (m_timer.IsExpired())
    {
        ArmTimer();
    }
    Pump();
}

void
RoceRequester::ArmTimer()
{
    m_timer.Remove();
    const uint8_t timeout = m_qp->GetAttr().timeout;
    if (timeout == 0 || !m_started || m_rnrWait || PsnDiff(m_highestSent, m_ackPsn) <= 0)
    {
        return; // no timeout, or nothing outstanding
    }
    const Time wait = GetIbTimeout(timeout);
    m_timer = Simulator::Schedule(wait, &RoceRequester::Timeout, this);
}

void
RoceRequester::Timeout()
{
    if (Stale() || PsnDiff(m_highestSent, m_ackPsn) <= 0)
    {
        return;
    }
    ++m_timeouts;
    if (++m_retries > m_qp->GetAttr().retryCnt)
    {
        NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": retries exhausted at PSN " << m_ackPsn);
        Fail(m_ackPsn, RdmaWcStatus::RETRY_EXC_ERR);
        return;
    }
    NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": local ACK timeout, back to PSN " << m_ackPsn);
    GoBack(m_ackPsn);
}

void
RoceRequester::StartCongestionControl()
{
    m_cc = m_transport->ForkCongestionControl();
    if (!m_cc)
    {
        return;
    }
    NS_ABORT_MSG_IF(m_cc->NeedsTelemetry(),
                    "the roce method carries no in-band telemetry: "
                        << m_cc->GetName() << " needs it (use dcqcn or timely on roce)");
    m_cc->SetOutputCallback(MakeCallback(&RoceRequester::OnCongestionOutput, this));
    // RoCE has no window of its own: the scheme's window is the only one.
    m_cc->Start(m_transport->GetLineRate(), IbBthHeader::MAX_24 / 2);
    OnCongestionOutput();
}

void
RoceRequester::SetCcSequence()
{
    // In packets from the first PSN.
    const uint32_t first = m_qp->GetAttr().sqPsn;
    m_cc->SetSequence(PsnDiff(m_ackPsn, first),
                      PsnDiff(m_highestSent, first),
                      PsnDiff(m_sendPsn, first));
}

void
RoceRequester::OnCongestionOutput()
{
    const DataRate rate = m_cc->GetRate();
    m_rate = rate >= m_transport->GetLineRate() ? DataRate(0) : rate;
    m_ccWindow = std::max<uint32_t>(m_cc->GetWindow(), 1);
    if (!m_pumping && m_started)
    {
        // A higher rate or a wider window may let a packet go now.
        m_paceTimer.Remove();
        m_paceTimer = Simulator::ScheduleNow(&RoceRequester::Pump, this);
    }
}

bool
RoceRequester::IsDue()
{
    if (m_rate.GetBitRate() == 0 || Simulator::Now() >= m_nextDue)
    {
        return true;
    }
    if (m_paceTimer.IsExpired())
    {
        m_paceTimer = Simulator::Schedule(m_nextDue - Simulator::Now(), &RoceRequester::Pump, this);
    }
    return false;
}

uint32_t
RoceRequester::GetCnps() const
{
    return m_cnps;
}

uint32_t
RoceRequester::GetTimeouts() const
{
    return m_timeouts;
}

void
RoceRequester::ReceiveCnp()
{
    ++m_cnps;
    if (m_cc)
    {
        m_cc->OnAck(0, true);
    }
}

Ptr<DrpCongestionOps>
RoceRequester::GetCongestionControl() const
{
    return m_cc;
}

void
RoceRequester::GoBack(uint32_t psn)
{
    m_sendPsn = psn;
    ++m_generation;
    m_staged.clear();
    m_transport->Discard(m_flow);
    m_queued = 0;
    m_timer.Remove();
    Pump();
    if (m_timer.IsExpired())
    {
        ArmTimer(); // in case nothing could be sent again (the timer restarts on a send)
    }
}

void
RoceRequester::RnrWaitOver()
{
    m_rnrWait = false;
    Pump();
    if (m_timer.IsExpired())
    {
        ArmTimer();
    }
}

void
RoceRequester::Receive(const IbBthHeader& bth, Ptr<Packet> packet)
{
    if (Stale() || !m_started)
    {
        return;
    }
    const uint32_t psn = bth.GetPsn();
    if (PsnDiff(psn, m_highestSent) >= 0 || PsnDiff(psn, PsnAdd(m_ackPsn, IbBthHeader::MAX_24)) < 0)
    {
        m_transport->Drop(packet, "a response for a PSN not outstanding");
        return;
    }
    switch (bth.GetOpcode())
    {
    case IbOpcode::RDMA_READ_RESPONSE_FIRST:
    case IbOpcode::RDMA_READ_RESPONSE_MIDDLE:
    case IbOpcode::RDMA_READ_RESPONSE_LAST:
    case IbOpcode::RDMA_READ_RESPONSE_ONLY:
        ReceiveReadResponse(bth, packet);
        return;
    case IbOpcode::ATOMIC_ACKNOWLEDGE:
        ReceiveAtomicAck(bth, packet);
        return;
    default:
        break;
    }
    IbAethHeader aeth;
    packet->RemoveHeader(aeth);
    const uint32_t before = PsnAdd(psn, IbBthHeader::MAX_24); // psn - 1
    switch (aeth.GetKind())
    {
    case IbAethHeader::ACK:
        AckThrough(psn);
        return;
    case IbAethHeader::RNR_NAK: {
        if (PsnDiff(psn, m_ackPsn) < 0)
        {
            return; // for a PSN answered already
        }
        AckThrough(before);
        const uint8_t rnrRetry = m_qp->GetAttr().rnrRetry;
        if (rnrRetry != 7 && m_rnrRetries >= rnrRetry)
        {
            Fail(psn, RdmaWcStatus::RNR_RETRY_EXC_ERR);
            return;
        }
        ++m_rnrRetries;
        const Time wait = MicroSeconds(GetRnrTimerMicroseconds(aeth.GetValue()));
        NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": RNR NAK at PSN " << psn << ", wait "
                           << wait.As(Time::US));
        m_rnrWait = true;
        m_rnrTimer.Remove();
        m_rnrTimer = Simulator::Schedule(wait, &RoceRequester::RnrWaitOver, this);
        GoBack(psn);
        return;
    }
    case IbAethHeader::NAK:
        AckThrough(before);
        if (aeth.GetValue() == IbAethHeader::PSN_SEQUENCE_ERROR)
        {
            if (PsnDiff(psn, m_ackPsn) >= 0)
            {
                NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": sequence NAK, back to PSN " << psn);
                GoBack(psn);
            }
            return;
        }
        Fail(psn, StatusOfNak(aeth.GetValue()));
        return;
    default:
        m_transport->Drop(packet, "a reserved AETH syndrome");
        return;
    }
}

void
RoceRequester::AckThrough(uint32_t psn)
{
    const uint32_t through = PsnAdd(psn, 1);
    if (PsnDiff(through, m_ackedThrough) > 0)
    {
        m_ackedThrough = through;
    }
    for (Message& m : m_messages)
    {
        if ((m.kind == SEND || m.kind == WRITE) && m.packets > 0 &&
            PsnDiff(PsnAdd(EndPsn(m), IbBthHeader::MAX_24), psn) <= 0)
        {
            m.acked = true;
        }
    }
    AdvanceAcked();
    Complete();
}

void
RoceRequester::AdvanceAcked()
{
    uint32_t point = m_ackPsn;
    for (const Message& m : m_messages)
    {
        if (m.status != RdmaWcStatus::SUCCESS || m.packets == 0)
        {
            break;
        }
        const bool answered =
            (m.kind == SEND || m.kind == WRITE) ? m.acked : m.received == m.packets;
        if (!answered)
        {
            if (m.kind == READ)
            {
                point = PsnAdd(m.firstPsn, m.received); // its first missing response
            }
            else if ((m.kind == SEND || m.kind == WRITE) && PsnDiff(m_ackedThrough, m.firstPsn) > 0)
            {
                point = m_ackedThrough; // acknowledged part of the way
            }
            else
            {
                point = m.firstPsn;
            }
            break;
        }
        point = EndPsn(m);
    }
    if (m_messages.empty() && m_started)
    {
        point = m_nextPsn;
    }
    if (PsnDiff(point, m_ackPsn) > 0)
    {
        const uint32_t acked = PsnDiff(point, m_ackPsn);
        m_ackPsn = point;
        if (m_cc)
        {
            SetCcSequence();
            m_cc->OnAck(acked, false);
            // A sample from the newest packet acknowledged, if it was sent once.
            auto newest = m_sentAt.find(PsnAdd(point, IbBthHeader::MAX_24));
            if (newest != m_sentAt.end())
            {
                m_cc->OnRttSample(Simulator::Now() - newest->second);
            }
            for (auto it = m_sentAt.begin(); it != m_sentAt.end();)
            {
                it = PsnDiff(it->first, point) < 0 ? m_sentAt.erase(it) : std::next(it);
            }
        }
        m_retries = 0;
        m_rnrRetries = 0;
        if (PsnDiff(m_sendPsn, m_ackPsn) < 0)
        {
            m_sendPsn = m_ackPsn; // no need to send again what is answered
        }
        ArmTimer();
    }
}

void
RoceRequester::ReceiveReadResponse(const IbBthHeader& bth, Ptr<Packet> packet)
{
    const uint32_t psn = bth.GetPsn();
    Message* m = Find(psn);
    if (!m || m->kind != READ || m->status != RdmaWcStatus::SUCCESS)
    {
        m_transport->Drop(packet, "a READ response for no READ");
        return;
    }
    if (IbOpcode::HasAeth(bth.GetOpcode()))
    {
        IbAethHeader aeth;
        packet->RemoveHeader(aeth);
    }
    const uint32_t expected = PsnAdd(m->firstPsn, m->received);
    const int32_t gap = PsnDiff(psn, expected);
    if (gap < 0)
    {
        return; // a response again
    }
    if (gap > 0)
    {
        // A response is missing: ask again from it, once.
        if (!m_readGap)
        {
            m_readGap = true;
            NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": READ response " << expected
                               << " missing, back to it");
            GoBack(expected);
        }
        return;
    }
    m_readGap = false;
    const uint32_t mtu = m_transport->GetPathMtu(m_qp);
    const uint32_t offset = m->received * mtu;
    const uint32_t size = std::min(mtu, m->length - std::min(m->length, offset));
    if (packet->GetSize() != size)
    {
        m_transport->Drop(packet, "a READ response of the wrong size");
        return;
    }
    AckThrough(PsnAdd(m->firstPsn, IbBthHeader::MAX_24)); // what came before it
    m = Find(psn);
    if (!m)
    {
        return; // flushed meanwhile
    }
    ++m->received;
    Place(*m, offset, packet);
    AdvanceAcked();
}

void
RoceRequester::ReceiveAtomicAck(const IbBthHeader& bth, Ptr<Packet> packet)
{
    const uint32_t psn = bth.GetPsn();
    Message* m = Find(psn);
    if (!m || m->kind != ATOMIC || m->status != RdmaWcStatus::SUCCESS || m->received > 0)
    {
        return; // an acknowledgement again, or for nothing
    }
    IbAethHeader aeth;
    IbAtomicAckEthHeader ack;
    packet->RemoveHeader(aeth);
    packet->RemoveHeader(ack);
    AckThrough(PsnAdd(psn, IbBthHeader::MAX_24));
    m = Find(psn);
    if (!m)
    {
        return;
    }
    m->received = 1;
    uint8_t bytes[8];
    for (uint32_t i = 0; i < 8; ++i)
    {
        bytes[i] = (ack.GetOriginal() >> (8 * i)) & 0xff; // host memory is little-endian
    }
    Place(*m, 0, Create<Packet>(bytes, 8));
    AdvanceAcked();
}

void
RoceRequester::Place(Message& m, uint32_t offset, Ptr<Packet> data)
{
    std::vector<RdmaSge> pieces = SliceSges(m.wr.sgList, offset, data->GetSize());
    Ptr<PcieLink> pcie = m_transport->GetPcie();
    Ptr<RoceRequester> self = this;
    const uint64_t id = m.id;
    uint32_t at = 0;
    for (const RdmaSge& piece : pieces)
    {
        ++m.placing;
        pcie->DmaWrite(piece.addr, data->CreateFragment(at, piece.length), [self, id]() {
            Message* m = self->FindId(id);
            if (m)
            {
                --m->placing;
                self->Complete();
            }
        });
        at += piece.length;
    }
    Complete();
}

void
RoceRequester::Fail(uint32_t psn, RdmaWcStatus status)
{
    Message* m = Find(psn);
    if (!m && !m_messages.empty())
    {
        m = &m_messages.front();
    }
    if (m && m->status == RdmaWcStatus::SUCCESS)
    {
        NS_LOG_LOGIC("QP " << m_qp->GetQpNum() << ": wr " << m->wr.wrId << " fails: " << status);
        m->status = status;
        if (m->packets > 0 && PsnDiff(m->firstPsn, m_sendPsn) < 0)
        {
            m_sendPsn = m->firstPsn; // nothing past it is sent again
        }
    }
    ++m_generation;
    m_staged.clear();
    m_transport->Discard(m_flow);
    m_queued = 0;
    m_timer.Remove();
    Complete();
    if (!Stale())
    {
        // Earlier requests may still wait for READ responses: keep the timer.
        ArmTimer();
    }
}

void
RoceRequester::Complete()
{
    bool ended = false;
    while (!m_messages.empty() && m_qp->GetEpoch() == m_epoch)
    {
        Message& head = m_messages.front();
        if (head.placing > 0)
        {
            return;
        }
        if (head.status != RdmaWcStatus::SUCCESS)
        {
            const RdmaWcStatus status = head.status;
            m_messages.pop_front();
            m_qp->EndSend(status, 0); // the queue pair goes to ERR and flushes the rest
            Stale();
            return;
        }
        const bool done =
            (head.kind == SEND || head.kind == WRITE) ? head.acked : head.received == head.packets;
        if (!done)
        {
            return;
        }
        const uint32_t bytes = head.length;
        m_messages.pop_front();
        m_qp->EndSend(RdmaWcStatus::SUCCESS, bytes);
        ended = true;
    }
    if (ended)
    {
        Pump(); // a READ's or a fence's wait may be over
    }
}

} // namespace ns3
