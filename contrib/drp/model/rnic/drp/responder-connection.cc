/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "responder-connection.h"

#include "drp-transport.h"

#include "ns3/drp-compat.h"
#include "ns3/host-memory.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ResponderConnection");

std::string
ResponderConnection::GetStateName(State state)
{
    static const char* names[] = {"CLOSED", "OPEN", "DRAINING", "RELEASED", "ABANDONED"};
    return state < STATE_COUNT ? names[state] : "unknown";
}

std::string
ResponderConnection::GetRegistrationName(Registration registration)
{
    static const char* names[] = {"NONE", "PENDING", "VALID", "INVALID"};
    return registration < REGISTRATION_COUNT ? names[registration] : "unknown";
}

ResponderConnection::ResponderConnection(DrpTransport* transport,
                                         Mac48Address peer,
                                         uint16_t tid,
                                         bool read)
    : m_transport(transport),
      m_flow(transport->OpenFlow()),
      m_peer(peer),
      m_tid(tid),
      m_read(read),
      m_state(CLOSED),
      m_registration(NONE),
      m_rtt(transport->GetRttEstimator(peer))
{
}

ResponderConnection::~ResponderConnection()
{
    m_transport->CloseFlow(m_flow);
}

void
ResponderConnection::ConnectTraces(Callback<void, State, State> stateSink,
                                   Callback<void, Registration, Registration> registrationSink)
{
    m_state.ConnectWithoutContext(stateSink);
    m_registration.ConnectWithoutContext(registrationSink);
}

ResponderConnection::Key
ResponderConnection::GetKey() const
{
    return Key(m_peer, m_tid);
}

bool
ResponderConnection::IsRead() const
{
    return m_read;
}

ResponderConnection::State
ResponderConnection::GetState() const
{
    return m_state;
}

bool
ResponderConnection::IsReleased() const
{
    return m_state == RELEASED;
}

bool
ResponderConnection::IsExpired() const
{
    return IsReleased() &&
           Simulator::Now() - m_lastHeard >= m_transport->GetTimeouts().GetIdleTime();
}

ResponderConnection::Registration
ResponderConnection::GetRegistration() const
{
    return m_registration;
}

bool
ResponderConnection::IsOtherRequest(const DrpHeader& request) const
{
    return m_haveRequest &&
           (m_read != request.IsRead() || m_sba != request.GetSba() || m_dba != request.GetDba() ||
            m_length != request.GetLength() || m_hasMessage != request.HasMessage() ||
            (m_hasMessage && !(m_message == m_transport->m_rxMessage)));
}

void
ResponderConnection::SetState(State next)
{
    NS_LOG_LOGIC("transfer " << m_tid << " of " << m_peer << ": " << GetStateName(m_state) << " -> "
                             << GetStateName(next));
    m_state = next;
}

void
ResponderConnection::SetRegistration(Registration next)
{
    m_registration = next;
}

ResponderConnection*
ResponderConnection::Find(DrpTransport* transport, Key key)
{
    return transport->FindResponder(key.first, key.second);
}

void
ResponderConnection::Open()
{
    SetState(OPEN);
    m_lastHeard = Simulator::Now();
    ArmIdleTimer();
}

void
ResponderConnection::Close()
{
    m_transport->CloseFlow(m_flow); // its waiting data frames will not leave
    Simulator::Remove(m_confirmTimer);
    Simulator::Remove(m_idleTimer);
    if (m_sender)
    {
        m_sender->Stop();
    }
    SetState(m_state == RELEASED ? CLOSED : ABANDONED);
}

void
ResponderConnection::Forget()
{
    SetState(CLOSED);
}

// ---------------------------------------------------------------------------
// Frames in

void
ResponderConnection::Receive(const DrpHeader& header, Ptr<Packet> payload, Ptr<Packet> frame)
{
    m_lastHeard = Simulator::Now();
    if (header.HasFlag(DrpHeader::REQ))
    {
        OnRequest(header);
    }
    else if (header.HasFlag(DrpHeader::DATA))
    {
        OnWriteData(payload, header, frame);
    }
    else if (header.HasFlag(DrpHeader::REL))
    {
        if (m_registration != VALID)
        {
            // No valid reply went out for this record, so no initiator can
            // have finished it: a release would confirm data that never
            // reached host memory.
            m_transport->Drop(frame, DrpTransport::UNKNOWN_TID);
            return;
        }
        OnRelease();
    }
    else if (header.HasFlag(DrpHeader::REQ_ACK))
    {
        if (!m_read)
        {
            m_transport->Drop(frame, DrpTransport::FOREIGN); // a confirmation belongs to a read
            return;
        }
        OnConfirmation();
    }
    else
    {
        OnAck(header, frame);
    }
}

// ---------------------------------------------------------------------------
// Handshake: request, registration, reply

void
ResponderConnection::OnRequest(const DrpHeader& header)
{
    if (!m_haveRequest)
    {
        m_haveRequest = true;
        m_sba = header.GetSba();
        m_dba = header.GetDba();
        m_placement = m_dba;
        m_length = header.GetLength();
        m_hasMessage = header.HasMessage();
        if (m_hasMessage)
        {
            m_message = m_transport->m_rxMessage;
        }
    }
    switch (m_registration)
    {
    case PENDING:
        return; // the host is still registering
    case VALID:
        SendReply(true); // our reply was lost: answer again, no new registration
        return;
    case NONE:
    case INVALID:
    default:
        SetRegistration(PENDING);
        break;
    }
    if (m_hasMessage)
    {
        m_transport->RequestMessage(m_peer, m_tid, m_dba, m_length, m_message);
        return;
    }
    m_transport->RequestRegistration(m_peer, m_tid, m_read, m_dba, m_length);
}

void
ResponderConnection::OnRegistered(bool success)
{
    SetRegistration(success ? VALID : INVALID);
    SendReply(success);
    if (success && !m_read)
    {
        Flush();
    }
}

void
ResponderConnection::OnPlaced(uint64_t placement)
{
    m_placement = placement;
    OnRegistered(true);
}

void
ResponderConnection::OnRefused(DrpHeader::Nak nak, uint8_t rnrTimer)
{
    if (nak == DrpHeader::REGISTRATION)
    {
        OnRegistered(false);
        return;
    }
    SetRegistration(INVALID);
    DrpHeader reply = DrpTransport::MakeReply(m_tid, m_read, false, m_sba, m_dba, m_length);
    reply.SetNak(nak);
    reply.SetSequence(rnrTimer);
    m_transport->SendControl(reply, m_peer);
    // The initiator ends the transfer on this reply: what it sent early goes.
    m_transport->AbandonResponder(GetKey()); // this record is gone
}

void
ResponderConnection::SendReply(bool valid)
{
    DrpHeader reply = DrpTransport::MakeReply(m_tid, m_read, valid, m_sba, m_dba, m_length);
    if (!valid || !m_read)
    {
        m_transport->SendControl(reply, m_peer);
        return;
    }
    // A read waits for its confirmation from the moment the reply leaves.
    m_transport->SendControl(reply, m_peer, m_flow, [this]() {
        if (!m_confirmed && !IsReleased() && m_confirmTimer.IsExpired())
        {
            DrpTransport* transport = m_transport;
            Key key = GetKey();
            m_confirmTimer =
                drp::Schedule(m_transport->GetTimeouts().GetHandshakeWait(m_rtt, m_confirmExpiries),
                              [transport, key]() {
                                  if (ResponderConnection* r = Find(transport, key))
                                  {
                                      r->OnConfirmTimeout();
                                  }
                              });
        }
    });
}

void
ResponderConnection::OnConfirmation()
{
    if (m_registration != VALID || IsReleased())
    {
        return;
    }
    m_confirmed = true;
    Simulator::Remove(m_confirmTimer);
    StartReadData(false);
}

void
ResponderConnection::OnConfirmTimeout()
{
    if (m_confirmed || IsReleased())
    {
        return;
    }
    if (++m_confirmExpiries > m_transport->GetTimeouts().GetConfig().maxRetries)
    {
        m_transport->AbandonResponder(GetKey());
        return;
    }
    SendReply(true);
    if (m_transport->m_policy->IndirectAfterExpiries(m_confirmExpiries))
    {
        StartReadData(true);
    }
}

// ---------------------------------------------------------------------------
// Write data: direct placement or the indirect buffer

uint64_t
ResponderConnection::ToHost(uint64_t dba) const
{
    return m_placement + (dba - m_dba); // both in the region: no wrap
}

bool
ResponderConnection::InRegion(const DrpHeader& header) const
{
    return m_haveRequest &&
           HostMemory::IsWithin(header.GetDba(), header.GetLength(), m_dba, m_length);
}

void
ResponderConnection::OnWriteData(Ptr<Packet> payload, const DrpHeader& header, Ptr<Packet> frame)
{
    if (IsReleased())
    {
        m_transport->Drop(frame, DrpTransport::UNKNOWN_TID);
        return;
    }
    uint32_t sn = header.GetSequence();
    if (m_haveRequest && !InRegion(header))
    {
        m_transport->Drop(frame, DrpTransport::OUT_OF_REGION);
        return;
    }
    if (m_haveRequest &&
        !m_transport->IsFrameOf(header.GetDba(), header.GetLength(), sn, m_dba, m_length))
    {
        m_transport->Drop(frame, DrpTransport::BAD_SEQUENCE);
        return;
    }
    m_transport->NoteCongestion(header, m_receiver);
    if (m_receiver.IsCommitted(sn))
    {
        ++m_transport->m_duplicates;
        m_transport->SendAck(m_peer, m_tid, false, m_receiver); // duplicate
        return;
    }
    if (m_registration == VALID)
    {
        if (!m_transport->m_regions->Contains(ToHost(header.GetDba()), header.GetLength()))
        {
            m_transport->Drop(frame, DrpTransport::UNREGISTERED);
            return;
        }
        if (m_receiver.See(sn, header.GetLength()))
        {
            ++m_pendingWrites;
            DrpTransport* transport = m_transport;
            Key key = GetKey();
            m_transport->m_pcie->DmaWrite(
                ToHost(header.GetDba()),
                payload,
                [transport, key, sn]() {
                    if (ResponderConnection* r = Find(transport, key))
                    {
                        r->OnWriteDataPlaced(sn);
                    }
                },
                m_transport->GetTxDelay()); // the acknowledgement's processing
        }
        else
        {
            ++m_transport->m_duplicates; // its first copy is still on its way to host memory
        }
        return;
    }
    Ptr<IndirectBuffer> buffer = m_transport->m_buffer;
    if (!buffer)
    {
        m_transport->Drop(frame, DrpTransport::NOT_REGISTERED);
        return;
    }
    if (!buffer->Store(m_peer, m_tid, sn, header.GetDba(), payload))
    {
        m_transport->Drop(frame, DrpTransport::BUFFER_FULL); // unacknowledged: retransmitted
        return;
    }
    CommitBuffered(header);
}

void
ResponderConnection::CommitEarly(const DrpHeader& header)
{
    m_transport->NoteCongestion(header, m_receiver);
    CommitBuffered(header);
}

void
ResponderConnection::CommitBuffered(const DrpHeader& header)
{
    m_receiver.See(header.GetSequence(), header.GetLength());
    m_receiver.Commit(header.GetSequence());
    m_transport->SendAck(m_peer, m_tid, false, m_receiver);
}

void
ResponderConnection::OnWriteDataPlaced(uint32_t sn)
{
    m_receiver.Commit(sn);
    m_transport->AcknowledgeLanded(m_peer, m_tid, false, m_receiver, m_length, sn);
    OnWriteLanded();
}

void
ResponderConnection::OnWriteLanded()
{
    if (--m_pendingWrites == 0 && m_state == DRAINING)
    {
        CompleteRelease(); // the REL waited for this write
    }
}

void
ResponderConnection::Flush()
{
    Ptr<IndirectBuffer> buffer = m_transport->m_buffer;
    if (!buffer)
    {
        return;
    }
    std::vector<PcieLink::WritePiece> pieces;
    bool refusedAny = false;
    for (const auto& entry : buffer->Take(m_peer, m_tid))
    {
        DrpTransport::DropReason refused = m_transport->CheckAccess(ToHost(entry.address),
                                                                    entry.payload->GetSize(),
                                                                    m_placement,
                                                                    m_length);
        if (refused == DrpTransport::DROP_REASONS &&
            !m_transport->IsFrameOf(entry.address,
                                    entry.payload->GetSize(),
                                    entry.sequence,
                                    m_dba,
                                    m_length))
        {
            refused = DrpTransport::BAD_SEQUENCE;
        }
        if (refused != DrpTransport::DROP_REASONS)
        {
            m_transport->Drop(entry.payload, refused);
            refusedAny = true;
            continue;
        }
        pieces.emplace_back(ToHost(entry.address), entry.payload);
    }
    if (refusedAny)
    {
        // The refused data was acknowledged when it was buffered, before its
        // region was known, and an acknowledgement cannot be taken back: the
        // transfer can no longer complete with the right bytes. End it here,
        // so that it fails at its initiator instead of succeeding with a
        // frame that never reached host memory.
        m_transport->AbandonResponder(GetKey());
        return;
    }
    if (pieces.empty())
    {
        return;
    }
    ++m_pendingWrites;
    DrpTransport* transport = m_transport;
    Key key = GetKey();
    m_transport->m_pcie->DmaWriteBatch(pieces, drp::FunctorCallback<void>([transport, key]() {
                                           if (ResponderConnection* r = Find(transport, key))
                                           {
                                               r->OnWriteLanded();
                                           }
                                       }));
}

// ---------------------------------------------------------------------------
// Release

void
ResponderConnection::OnRelease()
{
    if (IsReleased())
    {
        // Ours was lost.
        m_transport->SendControl(DrpTransport::MakeHeader(m_tid, m_read, DrpHeader::REL_ACK),
                                 m_peer);
        return;
    }
    if (m_pendingWrites > 0)
    {
        SetState(DRAINING); // answer once all data is in host memory
        return;
    }
    CompleteRelease();
}

void
ResponderConnection::CompleteRelease()
{
    SetState(RELEASED);
    Simulator::Remove(m_confirmTimer);
    Simulator::Remove(m_idleTimer); // expiry is read when needed (IsExpired())
    if (m_sender)
    {
        m_sender->Stop();
    }
    m_transport->SendControl(DrpTransport::MakeHeader(m_tid, m_read, DrpHeader::REL_ACK), m_peer);
    m_transport->OnResponderReleased(GetKey());
}

// ---------------------------------------------------------------------------
// Read data

void
ResponderConnection::StartReadData(bool indirect)
{
    if (m_sender)
    {
        return;
    }
    DrpTransport* transport = m_transport;
    Key key = GetKey();
    m_indirect = indirect;
    m_sender = std::make_unique<DrpSender>(
        m_transport->FrameCount(m_length),
        m_transport->SenderConfig(m_rtt),
        drp::FunctorCallback<bool, uint32_t>([transport, key](uint32_t sn) {
            ResponderConnection* r = Find(transport, key);
            return r && r->SendReadData(sn);
        }),
        drp::FunctorCallback<void>([transport, key]() { transport->AbandonResponder(key); }));
    m_transport->AttachCongestionControl(*m_sender, m_flow, m_peer, m_tid);
    m_sender->Start();
}

bool
ResponderConnection::SendReadData(uint32_t sn)
{
    if (IsReleased())
    {
        return false;
    }
    bool indirect = m_indirect && !m_confirmed;
    DrpHeader header =
        DrpTransport::MakeHeader(m_tid,
                                 true,
                                 DrpHeader::DATA | (indirect ? DrpHeader::INDIRECT : 0));
    m_transport->FillDataHeader(header, sn, m_sba, m_dba, m_length);
    // The region is checked when the payload is read, not now: the host may
    // release it while the frame waits for its turn. The bytes are read where
    // the host placed them (an atomic's: the value before the operation, in
    // the host's responder resources); a plain read's placement is its DBA.
    m_transport->SendData(
        m_peer,
        header,
        ToHost(header.GetDba()),
        ToHost(m_dba) + m_length,
        m_flow,
        [this, sn]() { m_sender->OnSent(sn); },
        [this, header]() {
            if (m_transport->m_regions->Contains(ToHost(header.GetDba()), header.GetLength()))
            {
                return true;
            }
            // The host released the region: nothing of it may leave. Unsent,
            // the frame is never acknowledged, and the retry limit ends the
            // transfer.
            Ptr<Packet> unsent = Create<Packet>();
            unsent->AddHeader(header);
            m_transport->Drop(unsent, DrpTransport::UNREGISTERED);
            return false;
        },
        [this, sn]() { m_sender->OnUnsent(sn); });
    return true;
}

void
ResponderConnection::OnAck(const DrpHeader& header, Ptr<Packet> frame)
{
    if (header.GetAckNumber() > (m_sender ? m_sender->GetNextSequence() : 0))
    {
        m_transport->Drop(frame, DrpTransport::BAD_SEQUENCE); // acknowledges frames never sent
    }
    else if (m_sender)
    {
        m_transport->m_cnpsReceived += header.HasCongestionNotification();
        m_sender->OnAck(header.GetAckNumber(),
                        header.HasCongestionNotification(),
                        m_transport->GetReceivedTelemetry());
    }
}

// ---------------------------------------------------------------------------
// Idle

void
ResponderConnection::ArmIdleTimer()
{
    Simulator::Remove(m_idleTimer);
    ScheduleIdleCheck(m_transport->GetTimeouts().GetIdleTime());
}

void
ResponderConnection::ScheduleIdleCheck(Time delay)
{
    DrpTransport* transport = m_transport;
    Key key = GetKey();
    m_idleTimer = drp::Schedule(delay, [transport, key]() {
        if (ResponderConnection* r = Find(transport, key))
        {
            r->OnIdleTimeout();
        }
    });
}

void
ResponderConnection::OnIdleTimeout()
{
    Time quiet = Simulator::Now() - m_lastHeard;
    if (quiet < m_transport->GetTimeouts().GetIdleTime())
    {
        // Heard from meanwhile: check again when the idle time has passed
        // since then. No cancel: another check may be pending (see the class).
        ScheduleIdleCheck(m_transport->GetTimeouts().GetIdleTime() - quiet);
        return;
    }
    m_transport->AbandonResponder(GetKey());
}

} // namespace ns3
