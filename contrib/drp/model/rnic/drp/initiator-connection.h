/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INITIATOR_CONNECTION_H
#define INITIATOR_CONNECTION_H

#include "drp-receiver.h"
#include "drp-sender.h"

#include "ns3/drp-header.h"
#include "ns3/drp-message-header.h"
#include "ns3/drp-transfer-record.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-value.h"

#include <memory>
#include <string>

namespace ns3
{

class DrpTransport;

/**
 * \ingroup drp
 * \brief One transfer as its initiator sees it, from the host's post to
 * the release: handshake, mode, data (sent for a write, received for a
 * read), release.
 *
 * States (traced, see DrpTransport's "InitiatorState"):
 *
 * * CLOSED -> REQUESTING: the host posted the transfer; the request (REQ)
 *   goes out and is sent again on each expiry of HandshakeTimeout (an
 *   invalid reply restarts the timer). In the dynamic method the
 *   ModePolicy may decide, after expiries without any reply or on an
 *   invalid reply, that a write goes indirect: the host gets a synthetic
 *   reply and the data moves while the connection is still REQUESTING,
 *   with the request repeated now and then among the data frames.
 * * REQUESTING -> SENDING (write) or RECEIVING (read): a valid reply
 *   arrived; the mode is direct unless already decided. The host gets its
 *   reply (unless it had a synthetic one) and hands the data (StartData):
 *   a write's DrpSender starts; a read is confirmed (REQ_ACK with ACK) and
 *   its progress watchdog starts.
 * * SENDING | RECEIVING -> RELEASING: all data acknowledged (write) or
 *   placed in host memory (read); REL goes out and is repeated on the
 *   backed-off release timer.
 * * RELEASING -> DONE: the REL_ACK arrived.
 * * any -> FAILED: a phase reached its retry limit (MaxRetries expiries in
 *   a row: handshake, data, read progress, release).
 *
 * Independent facts stay flags: whether any reply (valid or not) arrived,
 * whether the host got its reply, whether it handed the data.
 *
 * The connection's own timers (handshake, read watchdog, release) are its
 * member events, cancelled when it ends. PCIe completions and the
 * DrpSender's callbacks outlive a method and look the connection up again
 * by TID: the transfer may have ended meanwhile.
 *
 * Congestion control, when DrpTransport's CongestionControl names one, is
 * the write data sender's (DrpSender::SetCongestionControl()). Left out:
 * flow control (the published protocol has none),
 * and any interplay among transfers other than the shared port and PCIe
 * link.
 */
class InitiatorConnection
{
  public:
    /// The connection's progress.
    enum State
    {
        CLOSED,     //!< not posted yet
        REQUESTING, //!< request sent, no valid reply yet (dynamic: data may flow, indirect)
        SENDING,    //!< write: connection up, data moves under the sender's window
        RECEIVING,  //!< read: connection up, data arrives from the responder
        RELEASING,  //!< all data done; REL sent, waiting for REL_ACK
        DONE,       //!< released
        FAILED,     //!< a retry limit was reached
        STATE_COUNT,
    };

    /**
     * \param state a state
     * \return its name, as in the enum
     */
    static std::string GetStateName(State state);

    /**
     * \param transport the RNIC's transport (outlives the connection)
     * \param record the transfer: TID, peer, direction, regions and length filled in
     */
    InitiatorConnection(DrpTransport* transport, const DrpTransferRecord& record);
    ~InitiatorConnection();

    /// \param sink called on each change of state (old, new)
    void ConnectTrace(Callback<void, State, State> sink);

    /// CLOSED -> REQUESTING: sends the request (a write gets its sender).
    void Open();
    /// \param message the message extension its REQ carries (before Open())
    void SetMessage(const DrpMessageHeader& message);
    /**
     * Handles a frame of this transfer from its responder.
     * \param header its header
     * \param payload its payload
     * \param frame the whole frame (for the Drop trace)
     */
    void Receive(const DrpHeader& header, Ptr<Packet> payload, Ptr<Packet> frame);
    /// The host hands the data (after its reply; repeated calls do nothing).
    void StartData();
    /**
     * Ends the transfer and hands its record to the host.
     * \param status how it ended
     */
    void Finish(DrpTransferRecord::Status status);

    /// \return the responder
    Mac48Address GetPeer() const;
    /// \return read transfer
    bool IsRead() const;
    /// \return the current state
    State GetState() const;
    /// \return true for a write sending indirectly, its valid reply not yet in
    bool IsHoldingIndirect() const;
    /**
     * \param frames new data frames this write may send before its valid
     *        reply (its share of the transport's IndirectLimit)
     */
    void SetIndirectShare(uint32_t frames);

  private:
    // Handshake.
    /// \param armTimer true to (re)start the handshake timer when the REQ leaves
    void SendRequest(bool armTimer);
    /**
     * (Re)starts the handshake timer.
     * \param unanswered true: the request left and has no answer (the timer
     *        takes it for lost, so MinLossTimeout applies); false: a retry
     *        after a refused registration (HandshakeTimeout's own wait)
     */
    void ArmHandshakeTimer(bool unanswered);
    /// The handshake timer expired.
    void OnHandshakeTimeout();
    /// \param header a reply (REQ_ACK), valid or invalid
    void OnReply(const DrpHeader& header);
    /// \return true once a valid reply arrived
    bool IsEstablished() const;

    // Mode.
    /// Dynamic method: the write goes indirect before the connection is up.
    void GoIndirect();
    /// \param mode the mode chosen
    void DecideMode(DrpTransferRecord::Mode mode);
    /// Gives the host its reply (real or synthetic), by interrupt.
    void ReplyToHost();

    // Write data.
    /**
     * \param sn the frame the sender sends (first time or again)
     * \return true: it will leave (and the sender hears when)
     */
    bool SendWriteData(uint32_t sn);
    /**
     * \param header an acknowledgement of the write data
     * \param frame the frame
     */
    void OnAck(const DrpHeader& header, Ptr<Packet> frame);

    // Read data.
    /// Confirms the read (REQ_ACK with the next SN expected).
    void SendConfirmation();
    /// (Re)starts the read progress watchdog. It waits on while the
    /// responder sends frames of other transfers (a busy shared port), for
    /// at most the idle time without progress of its own.
    void ArmReadTimer();
    /// The read progress watchdog ran.
    void OnReadTimeout();
    /**
     * \param payload the data
     * \param header its header
     * \param frame the frame
     */
    void OnReadData(Ptr<Packet> payload, const DrpHeader& header, Ptr<Packet> frame);
    /// \param sn a read data frame reached host memory
    void OnReadDataPlaced(uint32_t sn);

    // Release.
    /// Sends REL once the connection is up and all data is done.
    void MaybeRelease();
    /// Sends REL; the release timer starts when it leaves.
    void SendRelease();
    /// The release timer expired.
    void OnReleaseTimeout();
    /// The REL_ACK arrived.
    void OnReleaseReply();

    /// \param next the new state
    void SetState(State next);
    /**
     * \param transport the transport
     * \param tid a transfer id
     * \return the connection now under \p tid, or null
     */
    static InitiatorConnection* Find(DrpTransport* transport, uint16_t tid);

    DrpTransport* m_transport;           //!< frame I/O and shared resources
    uint64_t m_flow;                     //!< its flow in the transmit scheduler
    DrpTransferRecord m_record;          //!< what it did so far
    bool m_hasMessage{false};            //!< its REQ carries a message extension
    DrpMessageHeader m_message;          //!< the extension
    TracedValue<State> m_state;          //!< progress
    bool m_anyReply{false};              //!< some reply (valid or invalid) arrived
    bool m_replied{false};               //!< the host got its reply (real or synthetic)
    bool m_handed{false};                //!< the host handed the data (StartData)
    uint32_t m_expiriesWithoutReply{0};  //!< handshake expiries while no reply at all
    uint32_t m_framesSinceRequest{0};    //!< data frames sent since the last request
    uint32_t m_handshakeExpiries{0};     //!< handshake timer expiries
    EventId m_handshakeTimer;            //!< request timer
    std::unique_ptr<DrpSender> m_sender; //!< write: the data
    DrpReceiver m_receiver;              //!< read: the data
    uint32_t m_releaseExpiries{0};       //!< REL timer expiries
    EventId m_releaseTimer;              //!< REL timer
    uint32_t m_readExpiries{0};          //!< read: data timer expiries without progress
    EventId m_readTimer;                 //!< read: data progress watchdog event
    Time m_readDeadline;                 //!< read: when the watchdog expires
    Time m_readWait;                     //!< read: the watchdog's current wait
    Time m_lastReadProgress;             //!< read: data handed, or the last new data frame
    uint32_t m_readDeferrals{0};         //!< read: waits on for a busy responder, in a row
    DrpRttEstimator* m_rtt;              //!< the peer's round-trip estimate (null: fixed timers)
};

} // namespace ns3

#endif /* INITIATOR_CONNECTION_H */
