/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RESPONDER_CONNECTION_H
#define RESPONDER_CONNECTION_H

#include "drp-receiver.h"
#include "drp-rtt-estimator.h"
#include "drp-sender.h"

#include "ns3/drp-header.h"
#include "ns3/drp-message-header.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-value.h"

#include <memory>
#include <string>
#include <utility>

namespace ns3
{

class DrpTransport;

/**
 * \ingroup drp
 * \brief One transfer as its responder sees it: registration, placement of
 * write data, sending of read data, release.
 *
 * The DrpTransport makes a record when it admits a transfer (a request, or,
 * in the dynamic RNIC, early write data the indirect buffer took) and hands
 * it every later frame of the transfer; it keeps the records' number within
 * its limits and forgets them (Close()).
 *
 * Two traced states, because they move independently:
 *
 * * the connection's life (State): CLOSED -> OPEN on admission; a REL
 *   answers at once (OPEN -> RELEASED) or, with DMA writes still on their
 *   way to host memory, once the last one lands (OPEN -> DRAINING ->
 *   RELEASED); a released record is kept to answer a repeated REL until its
 *   initiator has been silent for the idle time (IsExpired()): the
 *   transport forgets it (RELEASED -> CLOSED) when it next looks the key
 *   up, when it needs the room, or when newer releases push it out; a new
 *   request under its key forgets it at once. A record the initiator fell silent on,
 *   or whose read data reached its retry limit, ends ABANDONED.
 * * the host's registration of the region (Registration): NONE -> PENDING
 *   (the host was interrupted) -> VALID | INVALID, and INVALID -> PENDING on
 *   a repeated request.
 *
 * Write: a data frame is placed directly (one PCIe DMA write) once the
 * region is VALID; before that, the dynamic RNIC keeps it in the indirect
 * buffer (committed at once, so acknowledged) and moves the transfer's
 * buffered data in one DMA write when the registration succeeds (Flush).
 * Every byte placed must lie in the transfer's region and in the RNIC's
 * region table.
 *
 * Read: a valid reply arms the confirmation timer (HandshakeTimeout); the
 * initiator's confirmation starts the data. In the dynamic RNIC,
 * ModePolicy::ExpiriesBeforeIndirect expiries without it start the data in
 * indirect mode; MaxRetries expiries abandon the transfer.
 *
 * The idle timer abandons a live record (OPEN or DRAINING) whose initiator
 * has not been heard of for the transport's idle time. A released record
 * runs no timer: nothing remains to check, so the simulation ends with the
 * last transfer; its expiry is read when needed (IsExpired()).
 *
 * Events that outlive a method (the two timers, PCIe completions, the read
 * sender's callbacks) look the record up again by its key, (initiator,
 * TID), as a new transfer may take over the key meanwhile: such an event
 * acts on whatever record holds the key when it runs.
 *
 * Left out: flow control, and any order among transfers (each record stands
 * alone; the transport's admission limits are the only coupling).
 */
class ResponderConnection
{
  public:
    /// The connection's life.
    enum State
    {
        CLOSED,    //!< not admitted yet, or forgotten after its release
        OPEN,      //!< admitted: handshake and data
        DRAINING,  //!< REL received; waits for DMA writes still on their way to host memory
        RELEASED,  //!< REL answered; kept to answer a repeated REL
        ABANDONED, //!< ended without a release (idle, or read data retry limit)
        STATE_COUNT,
    };

    /// The host's registration of the transfer's region.
    enum Registration
    {
        NONE,    //!< not asked yet (no request seen)
        PENDING, //!< the host is registering
        VALID,   //!< registered
        INVALID, //!< the last attempt failed
        REGISTRATION_COUNT,
    };

    /// A record's key: the initiator and its TID.
    typedef std::pair<Mac48Address, uint16_t> Key;

    /**
     * \param state a state
     * \return its name, as in the enum
     */
    static std::string GetStateName(State state);
    /**
     * \param registration a registration state
     * \return its name, as in the enum
     */
    static std::string GetRegistrationName(Registration registration);

    /**
     * \param transport the RNIC's transport (outlives the record)
     * \param peer the initiator
     * \param tid its transfer id
     * \param read read transfer
     */
    ResponderConnection(DrpTransport* transport, Mac48Address peer, uint16_t tid, bool read);
    /// Its waiting frames will not leave.
    ~ResponderConnection();

    /**
     * \param stateSink called on each change of State (old, new)
     * \param registrationSink called on each change of Registration (old, new)
     */
    void ConnectTraces(Callback<void, State, State> stateSink,
                       Callback<void, Registration, Registration> registrationSink);

    /// CLOSED -> OPEN: the record is admitted; its idle timer starts.
    void Open();
    /**
     * Handles a frame of this transfer (of its direction, read or write).
     * \param header its header
     * \param payload its payload
     * \param frame the whole frame (for the Drop trace)
     */
    void Receive(const DrpHeader& header, Ptr<Packet> payload, Ptr<Packet> frame);
    /**
     * The host answered the registration request (the record is PENDING).
     * \param success true if the region is registered
     */
    void OnRegistered(bool success);
    /**
     * The host accepted the message request (the record is PENDING): as a
     * successful registration, with the data landing from \p placement on.
     * \param placement where the byte at the request's DBA goes
     */
    void OnPlaced(uint64_t placement);
    /**
     * The host refused the request (the record is PENDING). REGISTRATION is
     * the paper's failed registration (OnRegistered(false)); any other
     * reason answers with it and ends the record (its buffered data goes).
     * \param nak why
     * \param rnrTimer RECEIVER_NOT_READY: the RNR timer code
     */
    void OnRefused(DrpHeader::Nak nak, uint8_t rnrTimer);
    /**
     * A write data frame is in the indirect buffer: it counts as committed.
     * \param header the frame's header
     */
    void CommitBuffered(const DrpHeader& header);
    /**
     * Early write data (no request yet) is in the indirect buffer: as
     * CommitBuffered(), and the frame's CE mark noted (OnWriteData() notes
     * it for every later frame).
     * \param header the frame's header
     */
    void CommitEarly(const DrpHeader& header);
    /// Ends the record: timers and sender stop; RELEASED -> CLOSED, else -> ABANDONED.
    void Close();
    /**
     * RELEASED -> CLOSED, and nothing else: a new request takes over the
     * key at once; a check this record had pending runs on, by key, on
     * the new one.
     */
    void Forget();

    /// \return (initiator, TID)
    Key GetKey() const;
    /// \return true if released and its initiator has been silent for the
    ///         transport's idle time: only a repeated REL needed it, and none can come
    bool IsExpired() const;
    /// \return read transfer
    bool IsRead() const;
    /// \return the current state
    State GetState() const;
    /// \return true once the REL was answered
    bool IsReleased() const;
    /// \return the registration state
    Registration GetRegistration() const;
    /**
     * \param request a request of this record's key
     * \return true if a request was seen and \p request names another
     *         transfer (direction, regions or length differ)
     */
    bool IsOtherRequest(const DrpHeader& request) const;

  private:
    // Frames, one handler each.
    /// \param header a request (REQ), first or repeated
    void OnRequest(const DrpHeader& header);
    /**
     * \param payload the data
     * \param header its header
     * \param frame the frame
     */
    void OnWriteData(Ptr<Packet> payload, const DrpHeader& header, Ptr<Packet> frame);
    /// A REL arrived.
    void OnRelease();
    /// Read: the initiator confirmed (REQ_ACK).
    void OnConfirmation();
    /**
     * Read: an acknowledgement of the data.
     * \param header the ACK
     * \param frame the frame
     */
    void OnAck(const DrpHeader& header, Ptr<Packet> frame);

    // Handshake.
    /// \param valid the reply's status
    void SendReply(bool valid);
    /// The confirmation timer expired.
    void OnConfirmTimeout();

    // Write placement.
    /// \param header a data frame's header \return true if inside the request's region
    bool InRegion(const DrpHeader& header) const;
    /// \param dba an address as the initiator names it \return where it lands in host memory
    uint64_t ToHost(uint64_t dba) const;
    /// \param sn a directly written frame reached host memory
    void OnWriteDataPlaced(uint32_t sn);
    /// A DMA write of the transfer's data reached host memory.
    void OnWriteLanded();
    /// Moves the transfer's buffered data to host memory (after registration).
    void Flush();
    /// Answers the REL, now that all data is in host memory.
    void CompleteRelease();

    // Read data.
    /// \param indirect true if started before the confirmation
    void StartReadData(bool indirect);
    /**
     * \param sn the frame to send
     * \return true: it will leave (and the sender hears when)
     */
    bool SendReadData(uint32_t sn);

    // Idle.
    /// (Re)starts the idle check.
    void ArmIdleTimer();
    /// \param delay when the idle check runs (the pending one, if any, is not cancelled)
    void ScheduleIdleCheck(Time delay);
    /// The idle check ran.
    void OnIdleTimeout();

    /**
     * \param next the new state
     */
    void SetState(State next);
    /**
     * \param next the new registration state
     */
    void SetRegistration(Registration next);
    /**
     * \param transport the transport
     * \param key a record's key
     * \return the record now under \p key, or null
     */
    static ResponderConnection* Find(DrpTransport* transport, Key key);

    DrpTransport* m_transport;                //!< frame I/O and shared resources
    uint64_t m_flow;                          //!< its flow in the transmit scheduler
    Mac48Address m_peer;                      //!< the initiator
    uint16_t m_tid;                           //!< transfer id
    bool m_read;                              //!< read transfer
    TracedValue<State> m_state;               //!< the connection's life
    TracedValue<Registration> m_registration; //!< the host's registration
    bool m_haveRequest{false};                //!< a request named the region
    uint64_t m_sba{0};                        //!< initiator's region
    uint64_t m_dba{0};                        //!< this host's region, as the request names it
    uint64_t m_placement{0};                  //!< where m_dba lands (a SEND's receive buffer)
    bool m_hasMessage{false};                 //!< the request carries a message extension
    DrpMessageHeader m_message;               //!< the extension
    uint32_t m_length{0};                     //!< bytes
    DrpReceiver m_receiver;                   //!< write: the data
    uint32_t m_pendingWrites{0};              //!< DMA writes in flight
    std::unique_ptr<DrpSender> m_sender;      //!< read: the data
    bool m_confirmed{false};                  //!< read: the initiator confirmed
    bool m_indirect{false};                   //!< read: data started before the confirmation
    uint32_t m_confirmExpiries{0};            //!< read: expiries without confirmation
    EventId m_confirmTimer;                   //!< read: confirmation timer
    Time m_lastHeard;                         //!< last frame from the initiator
    EventId m_idleTimer;                      //!< idle check
    DrpRttEstimator* m_rtt; //!< the peer's round-trip estimate (null: fixed timers)
};

} // namespace ns3

#endif /* RESPONDER_CONNECTION_H */
