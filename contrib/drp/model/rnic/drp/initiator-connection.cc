/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "initiator-connection.h"

#include "drp-transport.h"

#include "ns3/drp-compat.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InitiatorConnection");

std::string
InitiatorConnection::GetStateName(State state)
{
    static const char* names[] =
        {"CLOSED", "REQUESTING", "SENDING", "RECEIVING", "RELEASING", "DONE", "FAILED"};
    return state < STATE_COUNT ? names[state] : "unknown";
}

InitiatorConnection::InitiatorConnection(DrpTransport* transport, const DrpTransferRecord& record)
    : m_transport(transport),
      m_flow(transport->OpenFlow()),
      m_record(record),
      m_state(CLOSED),
      m_rtt(transport->GetRttEstimator(record.peer))
{
}

InitiatorConnection::~InitiatorConnection()
{
    m_transport->CloseFlow(m_flow);
    Simulator::Remove(m_handshakeTimer);
    Simulator::Remove(m_releaseTimer);
    Simulator::Remove(m_readTimer);
}

void
InitiatorConnection::ConnectTrace(Callback<void, State, State> sink)
{
    m_state.ConnectWithoutContext(sink);
}

Mac48Address
InitiatorConnection::GetPeer() const
{
    return m_record.peer;
}

bool
InitiatorConnection::IsRead() const
{
    return m_record.read;
}

InitiatorConnection::State
InitiatorConnection::GetState() const
{
    return m_state;
}

void
InitiatorConnection::SetState(State next)
{
    NS_LOG_LOGIC("transfer " << m_record.tid << ": " << GetStateName(m_state) << " -> "
                             << GetStateName(next));
    m_state = next;
}

InitiatorConnection*
InitiatorConnection::Find(DrpTransport* transport, uint16_t tid)
{
    return transport->FindInitiator(tid);
}

// ---------------------------------------------------------------------------
// Post and handshake

void
InitiatorConnection::Open()
{
    if (!m_record.read)
    {
        DrpTransport* transport = m_transport;
        uint16_t tid = m_record.tid;
        m_sender = std::make_unique<DrpSender>(
            m_transport->FrameCount(m_record.length),
            m_transport->SenderConfig(m_rtt),
            drp::FunctorCallback<bool, uint32_t>([transport, tid](uint32_t sn) {
                InitiatorConnection* c = Find(transport, tid);
                return c && c->SendWriteData(sn);
            }),
            drp::FunctorCallback<void>([transport, tid]() {
                if (InitiatorConnection* c = Find(transport, tid))
                {
                    c->Finish(DrpTransferRecord::DATA_FAILED);
                }
            }));
        m_transport->AttachCongestionControl(*m_sender, m_flow, m_record.peer, m_record.tid);
    }
    SetState(REQUESTING);
    SendRequest(true);
}

void
InitiatorConnection::SetMessage(const DrpMessageHeader& message)
{
    m_hasMessage = true;
    m_message = message;
}

void
InitiatorConnection::SendRequest(bool armTimer)
{
    ++m_record.requests;
    m_framesSinceRequest = 0;
    DrpHeader header = DrpTransport::MakeHeader(m_record.tid, m_record.read, DrpHeader::REQ);
    header.SetSba(m_record.sba);
    header.SetDba(m_record.dba);
    header.SetLength(m_record.length);
    header.SetMessage(m_hasMessage);
    const DrpMessageHeader* message = m_hasMessage ? &m_message : nullptr;
    if (!armTimer)
    {
        m_transport->SendControl(header, m_record.peer, 0, nullptr, message);
        return;
    }
    // The timer runs from the moment the REQ leaves, not from when it joined
    // the transmit scheduler.
    m_transport->SendControl(
        header,
        m_record.peer,
        m_flow,
        [this]() {
            if (!IsEstablished())
            {
                ArmHandshakeTimer(true);
            }
        },
        message);
}

void
InitiatorConnection::ArmHandshakeTimer(bool unanswered)
{
    Simulator::Remove(m_handshakeTimer);
    Time wait = m_transport->GetTimeouts().GetHandshakeWait(m_rtt, m_handshakeExpiries);
    if (unanswered)
    {
        wait = std::max(wait, m_transport->GetMinLossTimeout());
    }
    m_handshakeTimer = Simulator::Schedule(wait, &InitiatorConnection::OnHandshakeTimeout, this);
}

bool
InitiatorConnection::IsHoldingIndirect() const
{
    return m_sender && m_record.mode == DrpTransferRecord::INDIRECT && !IsEstablished() &&
           m_state != DONE && m_state != FAILED;
}

void
InitiatorConnection::SetIndirectShare(uint32_t frames)
{
    m_sender->SetSendLimit(frames);
}

bool
InitiatorConnection::IsEstablished() const
{
    return m_state == SENDING || m_state == RECEIVING || m_state == RELEASING;
}

void
InitiatorConnection::OnHandshakeTimeout()
{
    if (IsEstablished())
    {
        return;
    }
    ++m_record.timeouts;
    if (!m_anyReply)
    {
        ++m_expiriesWithoutReply;
    }
    if (++m_handshakeExpiries > m_transport->GetTimeouts().GetConfig().maxRetries)
    {
        Finish(DrpTransferRecord::HANDSHAKE_FAILED);
        return;
    }
    SendRequest(true);
    if (!m_record.read && m_record.mode == DrpTransferRecord::UNDECIDED &&
        m_transport->m_policy->IndirectAfterExpiries(m_expiriesWithoutReply))
    {
        GoIndirect();
    }
}

void
InitiatorConnection::Receive(const DrpHeader& header, Ptr<Packet> payload, Ptr<Packet> frame)
{
    if (header.HasFlag(DrpHeader::REQ_ACK))
    {
        OnReply(header);
    }
    else if (header.HasFlag(DrpHeader::DATA))
    {
        OnReadData(payload, header, frame);
    }
    else if (header.HasFlag(DrpHeader::REL_ACK))
    {
        OnReleaseReply();
    }
    else if (m_sender)
    {
        OnAck(header, frame);
    }
}

void
InitiatorConnection::OnReply(const DrpHeader& header)
{
    m_anyReply = true;
    if (IsEstablished())
    {
        if (m_record.read && m_handed)
        {
            SendConfirmation(); // the responder missed the confirmation
        }
        return;
    }
    if (header.GetReplyStatus() == DrpHeader::INVALID)
    {
        ++m_record.invalidReplies;
        if (header.GetNak() != DrpHeader::REGISTRATION)
        {
            m_record.nak = header.GetNak();
            m_record.rnrTimer = uint8_t(header.GetSequence());
            Finish(DrpTransferRecord::REFUSED); // a NAK for good: no asking again
            return;
        }
        ArmHandshakeTimer(false); // ask again when the (restarted) timer fires
        if (!m_record.read && m_record.mode == DrpTransferRecord::UNDECIDED &&
            m_transport->m_policy->IndirectOnInvalidReply())
        {
            GoIndirect();
        }
        return;
    }
    SetState(m_record.read ? RECEIVING : SENDING);
    Simulator::Remove(m_handshakeTimer);
    if (m_sender)
    {
        m_sender->SetRetryLimitActive(true);
        m_sender->SetSendLimit(UINT32_MAX); // direct from here: what was held back goes now
    }
    if (m_record.mode == DrpTransferRecord::INDIRECT)
    {
        m_transport->ShareIndirectLimit(m_record.peer); // its share goes to the others
    }
    if (m_record.mode == DrpTransferRecord::UNDECIDED)
    {
        DecideMode(DrpTransferRecord::DIRECT);
    }
    if (!m_replied)
    {
        ReplyToHost();
    }
    // else: the host already had a synthetic reply; swallow this one.
    MaybeRelease();
}

// ---------------------------------------------------------------------------
// Mode (ModePolicy decides when; this carries it out)

void
InitiatorConnection::GoIndirect()
{
    DecideMode(DrpTransferRecord::INDIRECT);
    // A stall caused by a full indirect buffer is not the network's fault:
    // until the connection is up, the handshake's retry limit bounds the transfer.
    m_sender->SetRetryLimitActive(false);
    m_transport->ShareIndirectLimit(m_record.peer); // this write's share, and the others'

    ReplyToHost(); // synthetic reply: the host hands the data at once
}

void
InitiatorConnection::DecideMode(DrpTransferRecord::Mode mode)
{
    NS_LOG_INFO("transfer " << m_record.tid << " goes "
                            << (mode == DrpTransferRecord::INDIRECT ? "indirect" : "direct"));
    m_record.mode = mode;
    m_transport->m_modeTrace(m_record.tid, mode);
}

void
InitiatorConnection::ReplyToHost()
{
    m_replied = true;
    m_transport->NotifyReply(m_record.tid);
}

void
InitiatorConnection::StartData()
{
    if (m_handed)
    {
        return;
    }
    m_handed = true;
    if (m_record.read)
    {
        SendConfirmation();
        m_lastReadProgress = Simulator::Now();
        ArmReadTimer();
    }
    else
    {
        m_sender->Start();
    }
}

// ---------------------------------------------------------------------------
// Write data

bool
InitiatorConnection::SendWriteData(uint32_t sn)
{
    bool indirect = m_record.mode == DrpTransferRecord::INDIRECT && !IsEstablished();
    if (indirect && m_transport->m_policy->RequestAgainDuringIndirect(++m_framesSinceRequest))
    {
        SendRequest(false); // keep requesting during the indirect transfer
    }
    DrpHeader header =
        DrpTransport::MakeHeader(m_record.tid,
                                 false,
                                 DrpHeader::DATA | (indirect ? DrpHeader::INDIRECT : 0));
    m_transport->FillDataHeader(header, sn, m_record.sba, m_record.dba, m_record.length);
    m_transport->SendData(m_record.peer,
                          header,
                          header.GetSba(),
                          m_record.sba + m_record.length,
                          m_flow,
                          [this, sn]() { m_sender->OnSent(sn); });
    return true;
}

void
InitiatorConnection::OnAck(const DrpHeader& header, Ptr<Packet> frame)
{
    if (header.GetAckNumber() > m_sender->GetNextSequence())
    {
        m_transport->Drop(frame, DrpTransport::BAD_SEQUENCE); // acknowledges frames never sent
        return;
    }
    if (header.HasCongestionNotification())
    {
        ++m_record.cnps;
        ++m_transport->m_cnpsReceived;
    }
    m_sender->OnAck(header.GetAckNumber(),
                    header.HasCongestionNotification(),
                    m_transport->GetReceivedTelemetry());
    MaybeRelease();
}

// ---------------------------------------------------------------------------
// Read data

void
InitiatorConnection::SendConfirmation()
{
    DrpHeader header = DrpTransport::MakeHeader(m_record.tid, true, DrpHeader::REQ_ACK);
    header.SetAckNumber(m_receiver.GetAckNumber());
    m_transport->SendControl(header, m_record.peer);
}

void
InitiatorConnection::ArmReadTimer()
{
    // Before the first data frame the confirmation may be what was lost: wait
    // as long as the handshake does; afterwards, as long as the data phase.
    // Restarted on every new data frame: move the deadline and let the one
    // pending event re-check it.
    Time wait = m_receiver.GetBytesSeen() == 0
                    ? m_transport->GetTimeouts().GetHandshakeWait(m_rtt, m_readExpiries)
                    : m_transport->GetTimeouts().GetDataWait(m_rtt, m_readExpiries);
    m_readWait = wait;
    m_readDeadline = Simulator::Now() + wait;
    if (m_readTimer.IsExpired())
    {
        m_readTimer = Simulator::Schedule(wait, &InitiatorConnection::OnReadTimeout, this);
    }
}

void
InitiatorConnection::OnReadTimeout()
{
    if (m_state == RELEASING)
    {
        return;
    }
    Time now = Simulator::Now();
    // A responder that sent a frame of another of our transfers within the
    // wait is alive and busy: its port is shared, nothing was lost. The
    // watchdog waits on, for at most the idle time without progress of its own.
    Time heard = m_transport->GetLastHeard(m_record.peer);
    if (now >= m_readDeadline && heard + m_readWait > now &&
        now - m_lastReadProgress < m_transport->GetTimeouts().GetIdleTime())
    {
        // Each wait in a row doubles (up to MaxBackoff), as the data timers do.
        m_readWait =
            std::max(m_readWait, m_transport->GetTimeouts().GetDataWait(m_rtt, ++m_readDeferrals));
        m_readDeadline = heard + m_readWait;
    }
    if (now < m_readDeadline)
    {
        m_readTimer =
            Simulator::Schedule(m_readDeadline - now, &InitiatorConnection::OnReadTimeout, this);
        return;
    }
    ++m_record.timeouts;
    if (++m_readExpiries > m_transport->GetTimeouts().GetConfig().maxRetries)
    {
        Finish(DrpTransferRecord::DATA_FAILED);
        return;
    }
    if (m_receiver.GetBytesSeen() == 0)
    {
        SendConfirmation(); // no data yet: the confirmation may have been lost
    }
    else
    {
        // Repeat where we stand: lets a responder that lost our ACKs catch up.
        m_transport->SendAck(m_record.peer, m_record.tid, true, m_receiver);
    }
    ArmReadTimer();
}

void
InitiatorConnection::OnReadData(Ptr<Packet> payload, const DrpHeader& header, Ptr<Packet> frame)
{
    DrpTransport::DropReason refused = m_transport->CheckAccess(header.GetSba(),
                                                                header.GetLength(),
                                                                m_record.sba,
                                                                m_record.length);
    if (refused != DrpTransport::DROP_REASONS)
    {
        m_transport->Drop(frame, refused);
        return;
    }
    if (!m_transport->IsFrameOf(header.GetSba(),
                                header.GetLength(),
                                header.GetSequence(),
                                m_record.sba,
                                m_record.length))
    {
        m_transport->Drop(frame, DrpTransport::BAD_SEQUENCE);
        return;
    }
    m_transport->NoteCongestion(header, m_receiver);
    if (header.HasFlag(DrpHeader::INDIRECT) && m_record.mode != DrpTransferRecord::INDIRECT)
    {
        DecideMode(DrpTransferRecord::INDIRECT);
    }
    uint32_t sn = header.GetSequence();
    if (!m_receiver.See(sn, header.GetLength()))
    {
        ++m_transport->m_duplicates;
        if (m_receiver.IsCommitted(sn))
        {
            m_transport->SendAck(m_record.peer, m_record.tid, true, m_receiver);
        }
        return;
    }
    m_readExpiries = 0;
    m_readDeferrals = 0;
    m_lastReadProgress = Simulator::Now();
    if (m_handed)
    {
        ArmReadTimer(); // progress: the watchdog starts over
    }
    DrpTransport* transport = m_transport;
    uint16_t tid = m_record.tid;
    m_transport->m_pcie->DmaWrite(
        header.GetSba(),
        payload,
        [transport, tid, sn]() {
            if (InitiatorConnection* c = Find(transport, tid))
            {
                c->OnReadDataPlaced(sn);
            }
        },
        m_transport->GetTxDelay()); // the acknowledgement's processing, in the same event
}

void
InitiatorConnection::OnReadDataPlaced(uint32_t sn)
{
    m_receiver.Commit(sn);
    m_transport
        ->AcknowledgeLanded(m_record.peer, m_record.tid, true, m_receiver, m_record.length, sn);
    MaybeRelease();
}

// ---------------------------------------------------------------------------
// Release and end

void
InitiatorConnection::MaybeRelease()
{
    if (m_state != SENDING && m_state != RECEIVING)
    {
        return; // not up yet, or already releasing
    }
    bool complete = m_record.read
                        ? m_receiver.GetAckNumber() >= m_transport->FrameCount(m_record.length)
                        : m_sender->IsComplete();
    if (complete)
    {
        SetState(RELEASING);
        Simulator::Remove(m_readTimer);
        SendRelease();
    }
}

void
InitiatorConnection::SendRelease()
{
    m_transport->SendControl(
        DrpTransport::MakeHeader(m_record.tid, m_record.read, DrpHeader::REL),
        m_record.peer,
        m_flow,
        [this]() {
            Simulator::Remove(m_releaseTimer);
            m_releaseTimer = Simulator::Schedule(
                std::max(m_transport->GetTimeouts().GetDataWait(m_rtt, m_releaseExpiries),
                         m_transport->GetMinLossTimeout()),
                &InitiatorConnection::OnReleaseTimeout,
                this);
        });
}

void
InitiatorConnection::OnReleaseTimeout()
{
    ++m_record.timeouts;
    if (++m_releaseExpiries > m_transport->GetTimeouts().GetConfig().maxRetries)
    {
        Finish(DrpTransferRecord::RELEASE_FAILED);
        return;
    }
    SendRelease();
}

void
InitiatorConnection::OnReleaseReply()
{
    if (m_state == RELEASING)
    {
        Finish(DrpTransferRecord::SUCCESS);
    }
}

void
InitiatorConnection::Finish(DrpTransferRecord::Status status)
{
    NS_LOG_INFO("transfer " << m_record.tid << " ends: " << status);
    Simulator::Remove(m_handshakeTimer);
    Simulator::Remove(m_releaseTimer);
    Simulator::Remove(m_readTimer);
    DrpTransferRecord record = m_record;
    record.status = status;
    if (m_sender)
    {
        m_sender->Stop();
        record.retransmissions += m_sender->GetRetransmissions();
        record.timeouts += m_sender->GetTimeouts();
    }
    SetState(status == DrpTransferRecord::SUCCESS ? DONE : FAILED);
    m_transport->CloseFlow(m_flow); // its waiting frames will not leave
    // Gone from the transport's table at once; this object (on the call
    // stack, maybe under its sender's retry limit) lives until the current
    // event ends.
    m_transport->RetireInitiator(record);
}

} // namespace ns3
