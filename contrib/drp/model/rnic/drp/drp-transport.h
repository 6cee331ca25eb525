/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_TRANSPORT_H
#define DRP_TRANSPORT_H

#include "drp-receiver.h"
#include "drp-rtt-estimator.h"
#include "drp-sender.h"
#include "drp-timeouts.h"
#include "drp-tx-engine.h"
#include "indirect-buffer.h"
#include "initiator-connection.h"
#include "initiator-table.h"
#include "mode-policy.h"
#include "responder-connection.h"
#include "responder-table.h"

#include "ns3/data-rate.h"
#include "ns3/drp-header.h"
#include "ns3/drp-int-header.h"
#include "ns3/drp-message-header.h"
#include "ns3/drp-transfer-record.h"
#include "ns3/drp-tx-scheduler.h"
#include "ns3/event-id.h"
#include "ns3/mac-address-hash.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/pcie-link.h"
#include "ns3/recurring-event.h"
#include "ns3/region-table.h"
#include "ns3/rnic-transport.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"
#include "ns3/type-id.h"

#include <deque>
#include <map>
#include <memory>
#include <unordered_map>

namespace ns3
{

class DrpCongestionOps;

/**
 * \ingroup drp
 * \brief The RNIC's transport engine, shared by the traditional and the
 * dynamic RNIC: frame I/O, dispatch of every frame to its transfer, and the
 * resources the transfers share.
 *
 * A transfer is two connections, each a state machine with its own timers
 * and a traced state: an InitiatorConnection on the RNIC that started it
 * (from PostTransfer to release; keyed by TID) and a ResponderConnection on
 * its peer (registration, placement, read data, release; keyed by the
 * initiator's address and the TID). In short: the initiator sends a
 * request (REQ) until a valid reply arrives, its ModePolicy deciding when a
 * write may start before that (dynamic method only); the responder's host
 * registers memory and it answers valid or invalid; data moves under
 * DrpSender and DrpReceiver, placed directly once the region is registered
 * or, in the dynamic RNIC, held in the IndirectBuffer until then; a read
 * adds a confirmation (a three-way handshake); the initiator releases the
 * connection (REL / REL_ACK).
 *
 * This class keeps what the connections share:
 *
 * * frame I/O: the receive engine (RxProcessingCycles per frame, one frame
 *   at a time), the transmit pipeline (TxProcessingCycles), and the checks
 *   every received frame passes before dispatch (length, CTRL);
 * * dispatch by role (a frame from an initiator goes to a responder
 *   connection, and the other way round) and by TID, with the checks that
 *   need the table (unknown or foreign TID);
 * * TIDs: allocation, and those of failed transfers held back for the
 *   responder's idle time;
 * * responder admission and the end of responder records;
 * * the PcieLink, the ModePolicy, the IndirectBuffer (dynamic RNIC), the
 *   RegionTable, the attributes, drop counters, traces and host callbacks.
 *
 * Every host interaction crosses the PcieLink: the host posts a transfer and
 * hands its data with doorbells (the caller pays those), the transport raises
 * interrupts (it pays those) for registration requests, replies,
 * completions and the responder's end of a transfer.
 *
 * Its timers' waits, their backoff and the retry limits (TimeoutMode Fixed,
 * the published protocol, or Adaptive, RFC 6298's RTO per peer) are
 * DrpTimeouts'. Transfers never hang: after MaxRetries expiries in a row the
 * initiator ends a transfer with an error status, and a responder that
 * hears nothing of a transfer for the idle time drops it and tells its host.
 *
 * A responder keeps a record per transfer only once it admits the transfer:
 * at most MaxTransfersPerPeer records per initiator and MaxTransfers in
 * all, released records (kept to answer a repeated REL) giving way first.
 * A request beyond that is answered invalid and counted (NO_RESOURCES);
 * early write data makes a record only once the indirect buffer took it.
 *
 * Frames that fail a check (truncated, malformed CTRL, unknown or foreign
 * TID, address outside the transfer's region, LEN that disagrees with the
 * payload) are dropped, counted per reason, and reported by the Drop trace.
 *
 * Memory safety, as an RNIC enforces it: every byte this RNIC places in host
 * memory, or reads from it, on a peer's behalf (a direct write, each piece of
 * an indirect flush, a read initiator's placement of read data, a read
 * responder's data) must lie both in the transfer's own region and in the
 * RegionTable, the RNIC's view of the host's registered memory; every range
 * test is overflow-safe. A request that names an empty region, or one that
 * passes the end of the 64-bit address space, is answered invalid without
 * troubling the host.
 */
class DrpTransport : public Object, public RnicTransport
{
  public:
    /// Why a received frame was dropped.
    enum DropReason
    {
        MALFORMED,      //!< shorter than a DRP header, or CTRL names no single frame type
        BAD_LENGTH,     //!< LEN disagrees with the payload (Ethernet padding aside)
        UNKNOWN_TID,    //!< no such transfer (never existed, or already released)
        FOREIGN,        //!< a known TID, but from another peer than its transfer's
        OUT_OF_REGION,  //!< the frame's address range is outside the registered region
        NOT_REGISTERED, //!< data before registration, and no indirect buffer (traditional)
        BUFFER_FULL,    //!< the indirect buffer had no room
        BAD_REGION,     //!< a request names an empty region or one past 2^64 - 1 (answered invalid)
        UNREGISTERED,   //!< the range is not in the RNIC's region table (not registered now)
        BAD_SEQUENCE,   //!< SN past the frame count, or address/LEN not those of that SN
        NO_RESOURCES,   //!< no room for another transfer record (a request: answered invalid)
        DROP_REASONS,   //!< number of reasons
    };

    /// Where the timeouts come from.
    enum TimeoutMode
    {
        FIXED,    //!< RetransmissionTimeout and HandshakeTimeout (the published protocol)
        ADAPTIVE, //!< RFC 6298's RTO, estimated per peer
    };

    /// Host: a request arrived; register [dba, dba + length) and answer.
    typedef Callback<void, Mac48Address, uint16_t, bool, uint64_t, uint32_t>
        RegistrationRequestCallback;
    /**
     * Host: a message request arrived (a REQ with the message extension: a
     * SEND, or a WRITE with immediate data); place it and answer with
     * RingPlacement or RingRefusal. Arguments: the initiator, its TID, the
     * request's DBA (a SEND's counts from 0), its length, the extension.
     */
    typedef Callback<void, Mac48Address, uint16_t, uint64_t, uint32_t, const DrpMessageHeader&>
        MessageRequestCallback;
    /// Host: the connection reply (real or, dynamic method, synthetic) for a transfer.
    typedef Callback<void, uint16_t> ReplyCallback;
    /// Host: an initiated transfer ended.
    typedef Callback<void, const DrpTransferRecord&> CompletionCallback;
    /// Host: a transfer this RNIC responded to ended (true: released; false: abandoned).
    typedef Callback<void, Mac48Address, uint16_t, bool> ResponderDoneCallback;

    /**
     * TracedCallback signature for dropped frames.
     * \param packet the frame (DRP header and payload)
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, DropReason reason);
    /**
     * TracedCallback signature for mode decisions.
     * \param tid transfer id
     * \param mode the mode chosen
     */
    typedef void (*ModeTracedCallback)(uint16_t tid, DrpTransferRecord::Mode mode);
    /**
     * TracedCallback signature for an initiated transfer's state changes.
     * \param tid the transfer
     * \param oldState the state left
     * \param newState the state entered
     */
    typedef void (*InitiatorStateTracedCallback)(uint16_t tid,
                                                 InitiatorConnection::State oldState,
                                                 InitiatorConnection::State newState);
    /**
     * TracedCallback signature for a transfer's pacing rate (its congestion
     * control's output; 0: unpaced).
     * \param peer the data's receiver
     * \param tid the transfer
     * \param oldRate the rate before
     * \param newRate the rate now
     */
    typedef void (*RateTracedCallback)(Mac48Address peer,
                                       uint16_t tid,
                                       DataRate oldRate,
                                       DataRate newRate);
    /**
     * TracedCallback signature for the end of a transfer this RNIC responded to.
     * \param peer the initiator
     * \param tid its transfer
     * \param released true: released by the initiator; false: abandoned (the
     *        initiator fell silent for the idle time, or the read data's retry
     *        limit was reached)
     */
    typedef void (*ResponderEndTracedCallback)(Mac48Address peer, uint16_t tid, bool released);
    /**
     * TracedCallback signature for a responded transfer's state changes.
     * \param peer the initiator
     * \param tid its transfer
     * \param oldState the state left
     * \param newState the state entered
     */
    typedef void (*ResponderStateTracedCallback)(Mac48Address peer,
                                                 uint16_t tid,
                                                 ResponderConnection::State oldState,
                                                 ResponderConnection::State newState);
    /**
     * TracedCallback signature for a responded transfer's registration changes.
     * \param peer the initiator
     * \param tid its transfer
     * \param oldState the registration state left
     * \param newState the registration state entered
     */
    typedef void (*ResponderRegistrationTracedCallback)(Mac48Address peer,
                                                        uint16_t tid,
                                                        ResponderConnection::Registration oldState,
                                                        ResponderConnection::Registration newState);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DrpTransport();
    ~DrpTransport() override;

    /// \param device the Ethernet port that carries DRP frames
    void SetDevice(Ptr<NetDevice> device);
    /// \param pcie the PCIe link to the host
    void SetPcieLink(Ptr<PcieLink> pcie);
    /// \return the PCIe link to the host
    Ptr<PcieLink> GetPcieLink() const;
    /// \param policy when to go indirect
    void SetModePolicy(Ptr<ModePolicy> policy);
    /// \return the mode policy
    Ptr<ModePolicy> GetModePolicy() const;
    /// \param buffer the indirect buffer (null: traditional RNIC, none)
    void SetIndirectBuffer(Ptr<IndirectBuffer> buffer);
    /// \return the indirect buffer, or null
    Ptr<IndirectBuffer> GetIndirectBuffer() const;
    /// \return the RNIC's view of the host's registered memory
    Ptr<RegionTable> GetRegionTable() const;

    /**
     * Connects the host.
     * \param registration registration requests
     * \param reply connection replies
     * \param completion initiated transfers' ends
     * \param responderDone responded transfers' ends
     */
    void SetHostCallbacks(RegistrationRequestCallback registration,
                          ReplyCallback reply,
                          CompletionCallback completion,
                          ResponderDoneCallback responderDone);

    /**
     * Connects the host's handler of message requests (the verbs' SEND and
     * WRITE with immediate). Without one, the RNIC refuses them
     * (DrpHeader::INVALID_REQUEST).
     * \param message message requests
     */
    void SetMessageCallback(MessageRequestCallback message);

    /// \return true once a host has connected (SetHostCallbacks)
    bool HasHost() const;

    /**
     * \param ready runs whenever a frame joins the transmit scheduler (the
     *        port, if idle, pulls it at once)
     */
    void SetFrameReadyCallback(Callback<void> ready) override;
    /**
     * \param paused gives the time a PFC pause has held the port's DRP data
     *        class so far (RnicNetDevice sets it); with PauseAwareTimer and
     *        PFC on at the port, the data timer does not count that time
     */
    void SetPausedTimeCallback(Callback<Time> paused);
    /// \param timeout the least wait of the timers that take a frame for lost
    ///        (MinLossTimeout; 0 to 100 s)
    void SetMinLossTimeout(Time timeout);
    /// \return MinLossTimeout
    Time GetMinLossTimeout() const;
    /**
     * \param kinds the kinds of frame the port may take now (DrpTxScheduler::Kinds)
     * \return true if a DRP frame of those kinds waits for the port
     */
    bool HasFrameToSend(uint8_t kinds = DrpTxScheduler::ANY) const final;
    /**
     * The port starts the next DRP frame now: takes it from the transmit
     * scheduler (fires Tx, and starts the timers that run from transmission).
     * \param [out] to its destination
     * \param kinds the kinds of frame the port may take (DrpTxScheduler::Kinds)
     * \param [out] control if not null: whether it is a control frame
     * \return the frame (DRP header and payload), or null if none of those kinds waits
     */
    Ptr<Packet> DequeueFrame(Mac48Address& to,
                             uint8_t kinds = DrpTxScheduler::ANY,
                             bool* control = nullptr) final;
    /// \return the EtherType of DRP frames (the RNIC's EtherType attribute)
    uint16_t GetEtherType() const final;
    /// \param etherType the EtherType of DRP frames (the RNIC sets it)
    void SetEtherType(uint16_t etherType);
    /// \return DRP frames waiting for the port
    uint64_t GetFramesWaiting() const;

    /**
     * The host posts a transfer (it has rung the doorbell).
     * \param peer the responder's MAC address
     * \param read true for a read, false for a write
     * \param sba the initiator's region
     * \param dba the responder's region
     * \param length bytes, at least 1; neither region may pass the end of
     *        the 64-bit address space (std::invalid_argument otherwise)
     * \return the transfer id
     */
    uint16_t PostTransfer(Mac48Address peer,
                          bool read,
                          uint64_t sba,
                          uint64_t dba,
                          uint32_t length);
    /**
     * The host posts a message (it has rung the doorbell): a write transfer
     * whose REQ carries \p message (DrpMessageHeader), or, for an atomic,
     * a read of the 8 bytes at \p dba whose data is their value before the
     * responder's host applied the operation. A SEND's \p dba is 0: the
     * responder chooses where its data lands.
     * \param peer the responder's MAC address
     * \param sba the initiator's region
     * \param dba the responder's region (a SEND: 0)
     * \param length bytes, at least 1 (as PostTransfer; an atomic: ATOMIC_LENGTH)
     * \param message the extension
     * \return the transfer id
     */
    uint16_t PostMessage(Mac48Address peer,
                         uint64_t sba,
                         uint64_t dba,
                         uint32_t length,
                         const DrpMessageHeader& message);
    /**
     * The host hands a transfer's data after its reply (it has rung the doorbell).
     * \param tid the transfer
     */
    void StartData(uint16_t tid);
    /**
     * The host answers a registration request (it has rung the doorbell).
     * \param peer the initiator
     * \param tid the transfer
     * \param success true if the region is registered
     */
    void CompleteRegistration(Mac48Address peer, uint16_t tid, bool success);
    /**
     * The host rings the doorbell for StartData: it runs once the doorbell
     * has crossed the PCIe link (PcieLink::Doorbell).
     * \param tid the transfer
     */
    void RingStartData(uint16_t tid);
    /**
     * The host rings the doorbell with its answer to a registration request:
     * CompleteRegistration runs once the doorbell has crossed the PCIe link.
     * \param peer the initiator
     * \param tid the transfer
     * \param success true if the region is registered
     */
    void RingRegistrationDone(Mac48Address peer, uint16_t tid, bool success);
    /**
     * The host accepts a message request (its doorbell crosses the PCIe
     * link first): the transfer's data lands from \p placement on (a
     * SEND's receive buffer; a WRITE's own DBA), which the host has
     * registered.
     * \param peer the initiator
     * \param tid the transfer
     * \param placement where the byte at the request's DBA goes
     */
    void RingPlacement(Mac48Address peer, uint16_t tid, uint64_t placement);
    /**
     * The host refuses a request (its doorbell crosses the PCIe link
     * first): the reply is invalid with \p nak. REGISTRATION is the paper's
     * refusal (the initiator asks again, as after RingRegistrationDone
     * false); any other reason ends the transfer at both ends.
     * \param peer the initiator
     * \param tid the transfer
     * \param nak why
     * \param rnrTimer RECEIVER_NOT_READY: the RNR timer code (0-31) the initiator waits
     */
    void RingRefusal(Mac48Address peer, uint16_t tid, DrpHeader::Nak nak, uint8_t rnrTimer = 0);

    /**
     * A DRP frame arrived for this RNIC.
     * \param packet DRP header and payload
     * \param from the sender's MAC address
     */
    void Receive(Ptr<Packet> packet, Mac48Address from) override;

    /// \return the transmit processing of one frame: TxProcessingCycles at ClockFrequency
    Time GetTxDelay() const;
    /// \return the receive processing of one frame: RxProcessingCycles at ClockFrequency
    Time GetRxDelay() const;
    /// \return payload bytes per data frame
    uint32_t GetPayloadSize() const;
    /// \return TxPrefetchPerTransfer: payload reads ahead of the port per transfer (a flow)
    uint32_t GetTxPrefetchPerTransfer() const;
    /// Throws std::invalid_argument if a data frame (header and PayloadSize) exceeds the port's
    /// MTU.
    void CheckPayloadFitsMtu() const;
    /**
     * Throws std::invalid_argument unless a data frame with \p payload bytes fits \p mtu.
     * \param payload payload bytes per data frame
     * \param mtu the port's MTU
     */
    static void CheckPayloadFitsMtu(uint32_t payload, uint32_t mtu);
    /**
     * \brief The length check of a received frame.
     *
     * A DATA frame carries LEN bytes of payload (LEN > 0), any other frame
     * none. Ethernet pads a payload shorter than
     * EthernetNetDevice::MIN_PAYLOAD_SIZE (46 bytes: the DRP header and 14
     * bytes) with zeros up to it, so a frame whose header and payload come
     * to less than 46 bytes may arrive with exactly 46 (the padding's content
     * is ignored). Any other difference is BAD_LENGTH.
     * \param header the frame's DRP header
     * \param received the bytes that followed the header
     * \return the padding bytes to remove from what followed the header, or
     *         -1 if the lengths disagree (BAD_LENGTH)
     */
    static int32_t GetPadding(const DrpHeader& header, uint32_t received);
    /**
     * \param reason a drop reason
     * \return frames dropped for it
     */
    uint64_t GetDropCount(DropReason reason) const;
    /// \return frames dropped for any reason
    uint64_t GetTotalDrops() const;
    /// \return transfers this RNIC has initiated and not yet finished
    size_t GetActiveInitiated() const;
    /**
     * When PostTransfer can take \p count transfers, one after the other, if
     * no transfer starts or ends before (a TID is free unless in use or held
     * back after a failed transfer). A host asks before it posts.
     * \param count transfers to post
     * \return now if \p count TIDs are free now; else the end of the hold
     *         that frees the last one needed; Time::Max() if transfers in
     *         progress must end first
     */
    Time GetTidsFreeAt(uint32_t count) const;
    /// \return transfers this RNIC responds to now, not released yet (open or
    ///         draining; counts every record: for tests and diagnostics)
    size_t GetActiveResponded() const;
    /// \return responder records kept now: the active ones and the released
    ///         ones still kept to answer a repeated REL (what the admission limits count)
    size_t GetRespondedRecords() const;
    /// \return transfers this RNIC responded to that ended without a release (abandoned)
    uint64_t GetAbandonedResponses() const;
    /// \return data frames that passed every check but had arrived before
    ///         (retransmissions): acknowledged again where committed, never placed again
    uint64_t GetDuplicates() const;
    /// \return congestion notifications this RNIC sent (on its ACKs)
    uint64_t GetCnpsSent() const;
    /// \return congestion notifications this RNIC received (on ACKs of its data)
    uint64_t GetCnpsReceived() const;
    /**
     * Paces a transfer's data frames (its congestion control's rate): see
     * DrpTxScheduler::SetFlowRate().
     * \param flow the transfer's flow (OpenFlow())
     * \param rate its rate; 0: not paced (the port's rate)
     */
    void SetFlowRate(uint64_t flow, DataRate rate);
    /**
     * Puts a transfer's data sender under the CongestionControl attribute's
     * scheme: a Fork() of it, whose rate paces \p flow (traced as "Rate").
     * Does nothing with the base class (no congestion control).
     * \param sender the data sender (not started yet)
     * \param flow its flow in the transmit scheduler
     * \param peer the data's receiver
     * \param tid the transfer
     */
    void AttachCongestionControl(DrpSender& sender, uint64_t flow, Mac48Address peer, uint16_t tid);
    /**
     * \return a Fork() of the CongestionControl attribute's scheme, for a
     *         sender of another transport on this RNIC (a RoCE queue pair);
     *         null with the base class (no congestion control)
     */
    Ptr<DrpCongestionOps> ForkCongestionControl() const;
    /// \return EcnCapable: data frames leave ECT(0)
    bool IsEcnCapable() const;
    /// \param type CongestionControl (a DrpCongestionOps subclass)
    void SetCongestionControl(TypeId type);
    /// \return CongestionControl
    TypeId GetCongestionControl() const;
    /// \param interval CnpInterval (0 to 1 s; throws std::invalid_argument otherwise)
    void SetCnpInterval(Time interval);
    /// \return CnpInterval
    Time GetCnpInterval() const;
    /// The largest AckEvery.
    static constexpr uint32_t MAX_ACK_EVERY = 65535;
    /// An atomic's bytes (InfiniBand's 64-bit operands).
    static constexpr uint32_t ATOMIC_LENGTH = 8;
    /**
     * Bytes a data frame puts on the wire besides its payload, at a port's
     * default InterframeGap: DRP header, Ethernet header and FCS, preamble
     * and SFD, gap (70). Pacing counts them; a line's goodput ceiling is
     * payload / (payload + WIRE_OVERHEAD) of its rate.
     */
    static const uint32_t WIRE_OVERHEAD;
    /// \param frames AckEvery (1 to MAX_ACK_EVERY; throws std::invalid_argument otherwise)
    void SetAckEvery(uint32_t frames);
    /// \return AckEvery
    uint32_t GetAckEvery() const;
    /// \param delay AckDelay (1 ns to 1 s; throws std::invalid_argument otherwise)
    void SetAckDelay(Time delay);
    /// \return AckDelay
    Time GetAckDelay() const;
    /**
     * \param reason a drop reason
     * \return its name
     */
    static std::string GetDropReasonName(DropReason reason);
    /**
     * \param peer a peer
     * \return the round-trip estimate kept for it (Adaptive mode, once a
     *         transfer with it began), or null
     */
    const DrpRttEstimator* GetRttEstimate(Mac48Address peer) const;

  protected:
    void DoDispose() override;

  private:
    /// A responded transfer's key: the initiator and its TID.
    typedef ResponderConnection::Key ResponderKey;

    // The connections send, check and place through the helpers below, and
    // read the attributes and shared parts; nothing else reaches in.
    friend class InitiatorConnection;
    friend class ResponderConnection;

    // Attribute accessors; the setters check their values.
    void SetWindow(uint32_t window);               //!< \param window frames
    void SetMaxTransfersPerPeer(uint32_t records); //!< \param records MaxTransfersPerPeer
    uint32_t GetMaxTransfersPerPeer() const;       //!< \return MaxTransfersPerPeer
    void SetMaxTransfers(uint32_t records);        //!< \param records MaxTransfers
    uint32_t GetMaxTransfers() const;              //!< \return MaxTransfers
    uint32_t GetWindow() const;                    //!< \return frames
    /**
     * Shares IndirectLimit among this RNIC's writes to one responder that
     * send indirectly and have no valid reply yet: each may send
     * IndirectLimit / PayloadSize / (their number) new frames (at least one)
     * before its reply, so that together they do not overrun the responder's
     * IndirectBuffer. Nothing with IndirectLimit 0.
     * \param peer the responder
     */
    void ShareIndirectLimit(Mac48Address peer);
    /// \param bytes IndirectLimit (0 to 64 MiB; 0: no limit)
    void SetIndirectLimit(uint32_t bytes);
    /// \return IndirectLimit, bytes (0: no limit)
    uint32_t GetIndirectLimit() const;
    void SetPayloadSize(uint32_t bytes);         //!< \param bytes payload per frame
    void SetMaxRetries(uint32_t retries);        //!< \param retries retry limit
    uint32_t GetMaxRetries() const;              //!< \return retry limit
    void SetHandshakeTimeout(Time timeout);      //!< \param timeout handshake timer
    Time GetHandshakeTimeout() const;            //!< \return handshake timer
    void SetRetransmissionTimeout(Time timeout); //!< \param timeout data and release timer
    Time GetRetransmissionTimeout() const;       //!< \return data and release timer
    void SetMaxBackoff(uint32_t factor);         //!< \param factor largest timer multiplier
    uint32_t GetMaxBackoff() const;              //!< \return largest timer multiplier
    void SetTimeoutMode(TimeoutMode mode);       //!< \param mode fixed or adaptive timeouts
    TimeoutMode GetTimeoutMode() const;          //!< \return fixed or adaptive timeouts
    void SetMinRto(Time rto);                    //!< \param rto the adaptive RTO's floor
    Time GetMinRto() const;                      //!< \return the adaptive RTO's floor
    void SetMaxRto(Time rto);                    //!< \param rto the adaptive RTO's ceiling
    Time GetMaxRto() const;                      //!< \return the adaptive RTO's ceiling
    void SetClockGranularity(Time granularity);  //!< \param granularity the adaptive RTO's G
    Time GetClockGranularity() const;            //!< \return the adaptive RTO's G
    void SetDupAckThreshold(uint32_t count);     //!< \param count duplicate ACKs
    uint32_t GetDupAckThreshold() const;         //!< \return duplicate ACKs
    void SetClockFrequency(uint64_t hz);         //!< \param hz clock
    uint64_t GetClockFrequency() const;          //!< \return clock, Hz
    void SetTxProcessingCycles(uint32_t cycles); //!< \param cycles per frame sent
    uint32_t GetTxProcessingCycles() const;      //!< \return cycles per frame sent
    void SetRxProcessingCycles(uint32_t cycles); //!< \param cycles per frame received
    uint32_t GetRxProcessingCycles() const;      //!< \return cycles per frame received

    /// \param arbitration how data frames of different transfers share the port
    void SetTxArbitration(DrpTxScheduler::Arbitration arbitration);
    /// \return how data frames of different transfers share the port
    DrpTxScheduler::Arbitration GetTxArbitration() const;
    void SetTxPrefetchPerTransfer(uint32_t frames); //!< \param frames read ahead per transfer
    void SetTxReadBytes(uint32_t bytes);            //!< \param bytes one payload read, at most
    void SetTxPrefetch(uint32_t frames);            //!< \param frames read ahead of the port
    uint32_t GetTxPrefetch() const;                 //!< \return frames read ahead of the port
    uint32_t GetTxReadBytes() const;                //!< \return payload bytes one read fetches

    // Transmit path: every frame waits in the transmit scheduler until the port pulls it.
    /// \return a new transmit flow, for a new connection
    uint64_t OpenFlow();
    /// \param flow a connection's flow: it ended (its waiting data frames are discarded)
    void CloseFlow(uint64_t flow);
    /**
     * Sends a frame with no payload: after the transmit processing it joins
     * the scheduler's control queue.
     * \param header the header
     * \param to destination
     * \param flow the connection's flow (0: none)
     * \param sent runs when the frame leaves onto the wire, if the flow is still open
     * \param message the message extension a REQ with MSG carries, or null
     */
    void SendControl(const DrpHeader& header,
                     Mac48Address to,
                     uint64_t flow = 0,
                     DrpTxScheduler::SentCallback sent = nullptr,
                     const DrpMessageHeader* message = nullptr);
    /**
     * \param tid transfer id
     * \param read read transfer
     * \param ctrl flags besides READ
     * \return a header with CTRL, TID (and READ when \p read) filled in
     */
    static DrpHeader MakeHeader(uint16_t tid, bool read, uint8_t ctrl);
    /**
     * \param tid transfer id
     * \param read read transfer
     * \param valid valid (registered) or invalid reply
     * \param sba the initiator's region, as the request named it
     * \param dba the responder's region, as the request named it
     * \param length the request's LEN
     * \return a REQ_ACK that answers the request
     */
    static DrpHeader MakeReply(uint16_t tid,
                               bool read,
                               bool valid,
                               uint64_t sba,
                               uint64_t dba,
                               uint32_t length);
    /**
     * Queues a data frame in its flow; its payload is read from host memory
     * when the arbitration picks it (DrpTxEngine).
     * \param peer destination
     * \param header the data frame's header (addresses, LEN, SN filled in)
     * \param localAddress where the payload is in this host's memory
     * \param sourceEnd one past the last byte of the transfer's source in
     *        this host's memory (how far TxReadBytes may read ahead)
     * \param flow the connection's flow
     * \param sent runs when the frame leaves onto the wire, if the flow is still open
     * \param mayRead checked just before the payload is read (empty: always)
     * \param unsent runs instead of \p sent if \p mayRead refuses
     */
    void SendData(Mac48Address peer,
                  DrpHeader header,
                  uint64_t localAddress,
                  uint64_t sourceEnd,
                  uint64_t flow,
                  DrpTxScheduler::SentCallback sent,
                  std::function<bool()> mayRead = nullptr,
                  DrpTxScheduler::SentCallback unsent = nullptr);
    /// \return frames needed for \p length bytes
    uint32_t FrameCount(uint32_t length) const;
    /**
     * Fills in a data frame's addresses, LEN and SN.
     * \param header the header to fill
     * \param sn the frame
     * \param sba the initiator's region
     * \param dba the responder's region
     * \param length the transfer's length
     */
    void FillDataHeader(DrpHeader& header,
                        uint32_t sn,
                        uint64_t sba,
                        uint64_t dba,
                        uint32_t length) const;
    /// Processes the oldest frame in the receive pipeline (m_rxPipeline).
    void ProcessNext();
    /// Processes a received frame after the RNIC's receive processing.
    void Process(Ptr<Packet> packet, Mac48Address from);
    /**
     * Drops a frame.
     * \param packet the frame
     * \param reason why
     */
    void Drop(Ptr<const Packet> packet, DropReason reason);

    // Initiator: dispatch and the connections' end (the transfer itself is
    // InitiatorConnection's, the TIDs InitiatorTable's).
    /**
     * \param tid a transfer id
     * \return its connection, or null
     */
    InitiatorConnection* FindInitiator(uint16_t tid);
    /**
     * Checks a frame from a responder and hands it to its transfer.
     * \param header the frame's header
     * \param payload its payload
     * \param frame the frame
     * \param from the responder
     */
    void ReceiveAtInitiator(const DrpHeader& header,
                            Ptr<Packet> payload,
                            Ptr<Packet> frame,
                            Mac48Address from);
    /**
     * Gives the host a transfer's connection reply, by interrupt.
     * \param tid the transfer
     */
    void NotifyReply(uint16_t tid);
    /**
     * An initiated transfer ended: its connection leaves the table (and is
     * destroyed once the current event ends), a failed transfer's TID is
     * held back for the responder's idle time, and the host gets the record
     * by interrupt.
     * \param record the finished transfer's record
     */
    void RetireInitiator(const DrpTransferRecord& record);

    // Responder: admission, dispatch and the records' end.
    /**
     * \param peer the initiator
     * \param tid its transfer
     * \return the record, or null
     */
    ResponderConnection* FindResponder(Mac48Address peer, uint16_t tid);
    /**
     * Makes an admitted transfer's record and opens it.
     * \param peer the initiator
     * \param tid its transfer
     * \param read read transfer
     * \return the record
     */
    ResponderConnection& CreateResponder(Mac48Address peer, uint16_t tid, bool read);
    /**
     * Makes room for one more responder record of \p peer, if the limits
     * allow, by forgetting the oldest released record where needed.
     * \param peer the initiator
     * \return false if there is no room
     */
    bool AdmitResponder(Mac48Address peer);
    /**
     * Forgets released records whose idle time has passed (they run no timer).
     * \param oldestOnly stop at the first released record that has not expired
     *        (cheap; a full pass otherwise)
     */
    void ForgetExpiredResponders(bool oldestOnly);
    /**
     * Write data for a transfer with no record (its request was lost): the
     * dynamic RNIC keeps it in the indirect buffer, and only then makes a record.
     * \param header the data frame's header
     * \param payload its payload
     * \param frame the frame
     * \param from the initiator
     */
    void OnEarlyData(const DrpHeader& header,
                     Ptr<Packet> payload,
                     Ptr<Packet> frame,
                     Mac48Address from);
    /**
     * Checks a frame from an initiator, finds (or, for a new request, makes)
     * its record and hands the frame to it.
     * \param header the frame's header
     * \param payload its payload
     * \param frame the frame
     * \param from the initiator
     */
    void ReceiveAtResponder(const DrpHeader& header,
                            Ptr<Packet> payload,
                            Ptr<Packet> frame,
                            Mac48Address from);
    /**
     * Refuses a request (no valid region, or no room for its record): an
     * invalid reply, and no state kept.
     * \param header the request
     * \param frame the request frame (for the Drop trace)
     * \param from its sender
     * \param reason BAD_REGION or NO_RESOURCES
     */
    void RefuseRequest(const DrpHeader& header,
                       Ptr<Packet> frame,
                       Mac48Address from,
                       DropReason reason);
    /**
     * \param address first byte
     * \param length bytes
     * \param base the transfer's region
     * \param baseLength its length
     * \return OUT_OF_REGION or UNREGISTERED if this RNIC may not touch
     *         [address, address + length) for the transfer, DROP_REASONS if it may
     */
    DropReason CheckAccess(uint64_t address,
                           uint64_t length,
                           uint64_t base,
                           uint64_t baseLength) const;
    /**
     * A data frame was committed to host memory (its DMA write ended):
     * acknowledges it now, or, with AckEvery above 1, leaves the
     * acknowledgement owed while frames land in order (see AckEvery).
     * \param to destination
     * \param tid transfer
     * \param read read transfer
     * \param receiver the transfer's receiving half
     * \param length the transfer's bytes (once all are seen, no acknowledgement waits)
     * \param sn the frame (with HPCC, the acknowledgement echoes its telemetry)
     */
    void AcknowledgeLanded(Mac48Address to,
                           uint16_t tid,
                           bool read,
                           DrpReceiver& receiver,
                           uint64_t length,
                           uint32_t sn);
    /**
     * Sends an acknowledgement.
     * \param to destination
     * \param tid transfer
     * \param read read transfer
     * \param receiver the transfer's receiving half: the next SN it
     *        expects, and a CNP if one is due
     * \param processed true if the transmit processing was already paid
     */
    void SendAck(Mac48Address to,
                 uint16_t tid,
                 bool read,
                 DrpReceiver& receiver,
                 bool processed = false);
    /**
     * The congestion signals a data frame carries, for the receiver's next
     * acknowledgement: a CE mark makes it carry a CNP (the notification
     * point, at most one per CnpInterval), and the frame's telemetry (INT)
     * is what it echoes.
     * \param header a data frame's header, accepted for this transfer
     * \param receiver the transfer's receiving half
     */
    void NoteCongestion(const DrpHeader& header, DrpReceiver& receiver) const;
    /**
     * \return the telemetry (INT extension) of the frame being processed, or
     *         null if it carries none (valid during Process() only)
     */
    const DrpIntHeader* GetReceivedTelemetry() const;
    /**
     * Asks the host, by interrupt, to register a responded transfer's region.
     * \param peer the initiator
     * \param tid the transfer
     * \param read read transfer
     * \param dba the region
     * \param length its length
     */
    void RequestRegistration(Mac48Address peer,
                             uint16_t tid,
                             bool read,
                             uint64_t dba,
                             uint32_t length);
    /**
     * Asks the host, by interrupt, to place a message (or refuses it at
     * once if no host takes messages).
     * \param peer the initiator \param tid the transfer
     * \param dba the request's DBA \param length its length
     * \param message its extension
     */
    void RequestMessage(Mac48Address peer,
                        uint16_t tid,
                        uint64_t dba,
                        uint32_t length,
                        const DrpMessageHeader& message);
    /**
     * The host's acceptance of a message crossed the PCIe link.
     * \param peer the initiator \param tid the transfer
     * \param placement where the request's DBA lands
     */
    void CompletePlacement(Mac48Address peer, uint16_t tid, uint64_t placement);
    /**
     * The host's refusal crossed the PCIe link.
     * \param peer the initiator \param tid the transfer
     * \param nak why \param rnrTimer the RNR timer code of a RECEIVER_NOT_READY
     */
    void CompleteRefusal(Mac48Address peer, uint16_t tid, DrpHeader::Nak nak, uint8_t rnrTimer);
    /**
     * \param peer the initiator \param tid the transfer
     * \return the record waiting for its host's answer, or null (abandoned or
     *         released meanwhile: a grant of the host's is then let go)
     */
    ResponderConnection* FindPending(Mac48Address peer, uint16_t tid);
    /**
     * Posts a transfer: the part PostTransfer and PostMessage share.
     * \param peer the responder \param read a read \param sba initiator's region
     * \param dba responder's region \param length bytes
     * \param message the extension, or null
     * \return the transfer id
     */
    uint16_t Post(Mac48Address peer,
                  bool read,
                  uint64_t sba,
                  uint64_t dba,
                  uint32_t length,
                  const DrpMessageHeader* message);
    /**
     * A responded transfer answered its REL: its record is kept (for a
     * repeated REL) until admission needs the room.
     * \param key the record
     */
    void OnResponderReleased(ResponderKey key);
    /**
     * Tells the host, by interrupt, that a transfer it responded to ended.
     * \param peer the initiator
     * \param tid the transfer
     * \param released true if released normally, false if abandoned
     */
    void NotifyResponderDone(Mac48Address peer, uint16_t tid, bool released);
    /**
     * Ends and forgets a record: abandoned if it was not released.
     * \param key the record
     */
    void AbandonResponder(ResponderKey key);
    /**
     * \param address the address a data frame names (in the region whose base is \p base)
     * \param length the frame's LEN
     * \param sn the frame's SN
     * \param base the transfer's region
     * \param transferLength the transfer's length
     * \return true if \p sn is one of the transfer's frames and \p address
     *         and \p length are exactly that frame's (base + sn x PayloadSize)
     */
    bool IsFrameOf(uint64_t address,
                   uint32_t length,
                   uint32_t sn,
                   uint64_t base,
                   uint32_t transferLength) const;
    /// \return the timers' settings and waits
    const DrpTimeouts& GetTimeouts() const;
    /**
     * \param peer a responder
     * \return when a frame of one of this RNIC's transfers with it last arrived (0: never)
     */
    Time GetLastHeard(Mac48Address peer) const;
    /**
     * \param rtt the peer's round-trip estimate (null: Fixed mode)
     * \return the data phase's parameters, from the attributes
     */
    DrpSender::Config SenderConfig(DrpRttEstimator* rtt) const;
    /**
     * A connection takes it when it opens, and keeps it: the estimates
     * live as long as the transport.
     * \param peer a peer
     * \return its round-trip estimate, made on first use (Adaptive mode), or
     *         null (Fixed mode)
     */
    DrpRttEstimator* GetRttEstimator(Mac48Address peer);

    Ptr<NetDevice> m_device;      //!< the port
    uint16_t m_etherType;         //!< DRP frames' EtherType (the port's)
    Ptr<PcieLink> m_pcie;         //!< to the host
    Ptr<ModePolicy> m_policy;     //!< traditional or dynamic
    Ptr<IndirectBuffer> m_buffer; //!< dynamic RNIC only
    Ptr<RegionTable> m_regions;   //!< the host's registered memory, as this RNIC sees it
    DrpTxEngine m_tx;             //!< frames on their way to the port (outlives the connections)

    uint32_t m_window;      //!< data frames in flight
    uint32_t m_payloadSize; //!< payload bytes per data frame
    uint32_t m_indirectLimit{
        0}; //!< IndirectLimit: bytes sent indirectly before the reply (0: no limit)
    uint32_t m_dupAckThreshold;   //!< duplicate ACKs for a fast retransmit
    bool m_pauseAwareTimer{true}; //!< PauseAwareTimer
    Time m_minLossTimeout;        //!< MinLossTimeout
    Callback<Time> m_pausedTime;  //!< the data class's time paused (SetPausedTimeCallback)
    DrpTimeouts m_timeouts;       //!< the timers' settings, and the RTO estimates per peer
    uint64_t m_clockHz;           //!< RNIC clock
    uint32_t m_txCycles;          //!< transmit processing per frame, cycles
    uint32_t m_rxCycles;          //!< receive processing per frame, cycles
    Time m_rxFree;                //!< when the receive engine is free
    /// the frames in the receive processing, oldest first: each leaves at its
    /// ProcessNext() event, in the order they came (the engine is a pipeline)
    std::deque<std::pair<Ptr<Packet>, Mac48Address>> m_rxPipeline;
    /// ProcessNext, one event per frame without an allocation each
    RecurringEvent<DrpTransport> m_processNext{&DrpTransport::ProcessNext, this};
    DrpIntHeader m_rxTelemetry;   //!< the INT extension of the frame being processed
    bool m_rxHasTelemetry{false}; //!< the frame being processed carries one
    DrpMessageHeader m_rxMessage; //!< the message extension of the REQ being processed
    bool m_txTelemetry{false};    //!< data frames carry INT (the congestion control asks)

    std::unordered_map<Mac48Address, Time, MacAddressHash>
        m_lastHeard;                   //!< responders: last frame of one of our transfers
    InitiatorTable m_initiators;       //!< transfers initiated here, and the TIDs
    ResponderTable m_responders;       //!< transfers responded to here, within their limits
    uint64_t m_drops[DROP_REASONS];    //!< drops per reason
    uint64_t m_abandoned;              //!< responded transfers abandoned
    uint64_t m_duplicates;             //!< data frames received again
    bool m_ecnCapable{false};          //!< data frames leave ECT(0)
    Time m_cnpInterval;                //!< shortest time between a transfer's CNPs
    uint32_t m_ackEvery{1};            //!< coalescing: frames per acknowledgement
    Time m_ackDelay{MicroSeconds(50)}; //!< coalescing: an owed acknowledgement's wait
    uint64_t m_cnpsSent{0};            //!< CNPs sent
    uint64_t m_cnpsReceived{0};        //!< CNPs received

    RegistrationRequestCallback m_registrationCallback; //!< host upcall
    ReplyCallback m_replyCallback;                      //!< host upcall
    MessageRequestCallback m_messageCallback;           //!< host upcall (verbs' messages)
    CompletionCallback m_completionCallback;            //!< host upcall
    ResponderDoneCallback m_responderDoneCallback;      //!< host upcall

    TracedCallback<Ptr<const Packet>, DropReason> m_dropTrace;     //!< dropped frames
    TracedCallback<uint16_t, DrpTransferRecord::Mode> m_modeTrace; //!< mode decisions
    /// initiated transfers' state changes
    TracedCallback<uint16_t, InitiatorConnection::State, InitiatorConnection::State>
        m_initiatorStateTrace;
    TracedCallback<Mac48Address, uint16_t, bool> m_responderEndTrace; //!< responded transfers' ends
    /// responded transfers' state changes
    TracedCallback<Mac48Address, uint16_t, ResponderConnection::State, ResponderConnection::State>
        m_responderStateTrace;
    /// responded transfers' registration changes
    TracedCallback<Mac48Address,
                   uint16_t,
                   ResponderConnection::Registration,
                   ResponderConnection::Registration>
        m_responderRegistrationTrace;
    TracedCallback<Mac48Address, uint16_t, DataRate, DataRate> m_rateTrace; //!< pacing rates
    TypeId m_congestionControl;                                             //!< CongestionControl
    Ptr<DrpCongestionOps> m_congestionPrototype; //!< forked per transfer (made on first use)
    bool m_congestionActive{false};              //!< CongestionControl is not the base class
    TracedCallback<Ptr<const Packet>> m_txTrace; //!< DRP frames sent
    TracedCallback<Ptr<const Packet>> m_rxTrace; //!< DRP frames received
};

} // namespace ns3

#endif /* DRP_TRANSPORT_H */
