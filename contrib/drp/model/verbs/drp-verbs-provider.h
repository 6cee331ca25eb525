/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_VERBS_PROVIDER_H
#define DRP_VERBS_PROVIDER_H

#include "rdma-queue-pair.h"
#include "rdma-verbs-provider.h"

#include "ns3/drp-header.h"
#include "ns3/drp-message-header.h"
#include "ns3/drp-transfer-record.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <deque>
#include <functional>
#include <map>
#include <tuple>
#include <vector>

namespace ns3
{

class HostCpus;
class RdmaContext;
class RnicNetDevice;

/**
 * \ingroup drp
 * \brief The verbs over the DRP methods (traditional and dynamic): executes
 * queue pairs' requests as DRP transfers and answers the DRP responder's
 * registration requests from the verbs' memory regions.
 *
 * One per RNIC (aggregated to it), made by the first RdmaContext::Open()
 * on that RNIC and shared by every context opened on it. It is the host of
 * the RNIC's DrpTransport, as RdmaHostApplication is for workloads: an RNIC
 * serves one or the other.
 *
 * Requester: when a queue pair in RTS rings its doorbell, the provider takes
 * its send requests in order. Each request's SGEs are checked first, as the
 * RNIC checks them: the lkey must name a registered region of the queue
 * pair's protection domain that holds the SGE (else LOC_PROT_ERR), with
 * LOCAL_WRITE for a READ's destination (else LOC_ACCESS_ERR). An RDMA WRITE
 * is then one DRP write transfer per SGE, from the SGE to the peer's remote
 * address onwards; an RDMA READ one DRP read transfer per SGE into it.
 * The responder executes an RC queue pair's requests in order, and DRP's
 * transfers are independent, so a request waits for every earlier WRITE in
 * flight (a "payload, then flag" pair arrives in that order; a READ reads
 * what was written before it) and a WRITE for earlier READs of the same
 * bytes; READs run at once up to max_rd_atomic, and a request with the
 * fence flag waits for the READs before it. Requests
 * end in order: a request ends when its last transfer has, with
 * the first error among them. A DRP transfer's end maps to the completion
 * status: success; no valid reply within the retry limit after the
 * responder refused (an invalid reply) REM_ACCESS_ERR, after no reply at all
 * RETRY_EXC_ERR; data or release not acknowledged within the retry limit
 * RETRY_EXC_ERR. A zero-length request (no SGE bytes) ends at once. DRP has
 * no loopback: a queue pair whose address vector names its own RNIC ends
 * its requests with LOC_QP_OP_ERR.
 *
 * Responder: the DRP handshake asks the responder's host to register the
 * target of each transfer, which is where the paper's method registers
 * memory. The provider grants it only if a context on this RNIC has a queue
 * pair connected to the requesting RNIC (in RTR, RTS or SQD, its address
 * vector naming that RNIC) whose access flags allow the operation
 * (REMOTE_WRITE or REMOTE_READ), and a registered region of the same
 * protection domain that holds the whole target with that access; the
 * rkey is not on DRP's wire, so the region is found by address. A refusal
 * is an invalid reply after HandlerLatency; a grant is checked again when
 * the host's registration ends (the region, the queue pair or its access
 * may have gone meanwhile), and takes the host the
 * context's registration time (RegistrationFixedLatency and
 * RegistrationLatencyPerPage) and can fail as a registration does
 * (RegistrationFailureProbability, MaxRegisteredBytes): that per-transfer
 * registration is the DRP protocol's cost, beside the one an application
 * pays in RegMr. The target stays pinned until the transfer is released.
 *
 * Messages: a SEND, SEND with immediate or WRITE with immediate is one DRP
 * write transfer whose request carries the message extension
 * (DrpMessageHeader); it is gathered from one SGE (more non-empty SGEs, or
 * none, end the request with LOC_QP_OP_ERR). The responder finds the
 * destination queue pair (connected to the requester, its dest_qp_num the
 * source), claims the receive request at the head of its receive queue and
 * answers with where the data lands: a SEND in the receive's first SGE, a
 * WRITE with immediate at its own address if the rkey grants it. The
 * receive completes when the transfer is released. No receive: an RNR NAK,
 * which the requester retries after the NAK's RNR timer up to rnr_retry
 * times (RNR_RETRY_EXC_ERR then). A SEND longer than the receive's first
 * SGE: LOC_LEN_ERR at the receive, REM_INV_REQ_ERR at the sender.
 *
 * Atomics: a compare and swap or fetch and add is one DRP read of the 8
 * bytes at the remote address whose request carries the message extension
 * with the operands (an AtomicETH's); it orders, and counts against
 * max_rd_atomic, as a READ. Its local SGE must be one of 8 bytes
 * (LOC_LEN_ERR otherwise). The responder checks the queue pair's and the
 * rkey's REMOTE_ATOMIC (REM_ACCESS_ERR) and the alignment (a misaligned
 * address: REM_INV_REQ_ERR), registers the target as for a READ, then
 * executes the operation on host memory (64 bits, little-endian) and keeps
 * the value before it in its responder resources (ResponderResources: 8
 * bytes per atomic in flight, RESPONDER_SLOTS of them, host memory the
 * provider registers on first use, as an RNIC's driver gives it context
 * memory); the read's data is taken from there. The operation runs once
 * whatever is repeated: the transport answers a repeated REQ from its
 * record, and a data frame sent again reads the kept value.
 */
class DrpVerbsProvider : public RdmaVerbsProvider
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DrpVerbsProvider();

    /**
     * \param rnic an RNIC whose transport has no other host
     * \return the RNIC's provider, made and aggregated to it on first use
     */
    static Ptr<DrpVerbsProvider> Attach(Ptr<RnicNetDevice> rnic);
    void Bind(Ptr<RdmaQueuePair> qp) override;
    void Unbind(Ptr<RdmaQueuePair> qp) override;

    /// \param latency HandlerLatency (0 to 10 s)
    void SetHandlerLatency(Time latency);
    /// \return HandlerLatency
    Time GetHandlerLatency() const;
    /// \return registration requests refused (no queue pair, region or access)
    uint64_t GetRefusals() const;
    /// \return atomics executed here as responder
    uint64_t GetAtomics() const;
    /// \param address ResponderResources (the range may not pass 2^64)
    void SetResponderResources(uint64_t address);
    /// \return ResponderResources
    uint64_t GetResponderResources() const;

    /// Atomics in flight at once as responder (8 bytes of responder resources each).
    static constexpr uint32_t RESPONDER_SLOTS = 512;

    /// \param address a MAC address \return its 48 bits, as RdmaQpAttr::peer holds them
    static uint64_t ToPeer(Mac48Address address);
    /// \param peer 48 bits \return the MAC address
    static Mac48Address ToMac(uint64_t peer);

  protected:
    void DoDispose() override;

  private:
    /// A send request the transport took, until it ends.
    struct Request
    {
        uint64_t seq{0};                            //!< its number in the queue pair
        uint32_t pending{0};                        //!< DRP transfers not ended
        RdmaWcStatus status{RdmaWcStatus::SUCCESS}; //!< the first error, if any
        uint32_t bytes{0};                          //!< bytes moved
        bool read{false};                           //!< an RDMA READ
        uint64_t remote{0};                         //!< the peer's first byte
        uint64_t length{0};                         //!< bytes at the peer
    };

    /// What the provider keeps per queue pair.
    struct QpRequests
    {
        uint32_t epoch{0};         //!< the queue pair's epoch of these requests
        std::deque<Request> taken; //!< taken, in order
        uint32_t reads{0};         //!< READs not ended
        uint64_t nextSeq{0};       //!< the next request's number
    };

    /// One DRP transfer of a request: whose it is and what to post again.
    struct Transfer
    {
        Ptr<RdmaQueuePair> qp;    //!< the queue pair
        uint32_t epoch{0};        //!< its epoch when posted
        uint64_t seq{0};          //!< the request's number
        bool read{false};         //!< a read
        uint64_t sba{0};          //!< local address
        uint64_t dba{0};          //!< remote address (a SEND: 0)
        uint32_t length{0};       //!< bytes
        bool hasMessage{false};   //!< a message (SEND, or WRITE with immediate)
        DrpMessageHeader message; //!< its extension
        uint32_t rnrRetries{0};   //!< RNR NAKs it was posted again after
    };

    /// A message this RNIC responds to, from its acceptance to its release.
    struct Incoming
    {
        Ptr<RdmaQueuePair> qp;    //!< the destination queue pair
        uint32_t epoch{0};        //!< its epoch when the message claimed its receive
        uint32_t length{0};       //!< bytes
        DrpMessageHeader message; //!< the extension
    };

    /// \param qp a queue pair: take and start what it may
    void Kick(Ptr<RdmaQueuePair> qp);
    /**
     * RC's order at the responder: a request waits for every earlier WRITE
     * still in flight (of this epoch, or one before a reset), and a WRITE
     * for earlier READs of the same bytes.
     * \param qp the queue pair \param st its requests
     * \param write the next request is a WRITE
     * \param remote the peer's first byte \param length bytes
     * \return true if the next request must wait
     */
    bool MustWait(Ptr<RdmaQueuePair> qp,
                  const QpRequests& st,
                  bool write,
                  uint64_t remote,
                  uint64_t length) const;
    /**
     * One DRP transfer of a request ended (or could not start).
     * \param qp the queue pair \param epoch its epoch when posted
     * \param seq the request \param status how \param bytes moved
     */
    void EndTransfer(Ptr<RdmaQueuePair> qp,
                     uint32_t epoch,
                     uint64_t seq,
                     RdmaWcStatus status,
                     uint32_t bytes);
    /**
     * \param peer the requesting RNIC \param read a read \param address first
     *        byte \param length bytes
     * \return a context here that grants it, or null
     */
    Ptr<RdmaContext> FindGrant(Mac48Address peer,
                               bool read,
                               uint64_t address,
                               uint32_t length) const;
    /// \param qp a queue pair \param st its requests: end those done, in order
    void Drain(Ptr<RdmaQueuePair> qp, QpRequests& st);
    /// \param qp a queue pair \return its requests, forgotten if its epoch changed
    QpRequests& StateOf(Ptr<RdmaQueuePair> qp);
    /**
     * \param qp the queue pair
     * \param wr a send request
     * \return SUCCESS, or the local error of its SGEs
     */
    RdmaWcStatus CheckLocal(Ptr<RdmaQueuePair> qp, const RdmaSendWr& wr) const;
    /**
     * Refuses a request after HandlerLatency (counted in GetRefusals()).
     * \param peer the initiator \param tid its transfer \param nak why
     * \param rnrTimer RECEIVER_NOT_READY: the RNR timer code
     */
    void Refuse(Mac48Address peer, uint16_t tid, DrpHeader::Nak nak, uint8_t rnrTimer);
    /**
     * Posts one DRP transfer through the doorbell, when a TID is free.
     * \param transfer what to post (and whose it is)
     */
    void Post(const Transfer& transfer);
    /**
     * \param qp the requester \param wr a SEND, SEND with immediate or WRITE with immediate
     * \return the message extension its DRP request carries
     */
    static DrpMessageHeader MakeMessage(Ptr<RdmaQueuePair> qp, const RdmaSendWr& wr);
    /// Rings the doorbells of posts waiting for a TID, as far as TIDs allow.
    void PostWaiting();
    /// \param record a DRP transfer of this RNIC ended
    void OnCompletion(const DrpTransferRecord& record);
    /// \param tid a write's valid reply came: hand its data
    void OnReply(uint16_t tid);
    /**
     * The DRP responder asks to register a transfer's target.
     * \param peer the initiator \param tid its transfer \param read a read
     * \param address first byte \param length bytes
     */
    void OnRegistrationRequest(Mac48Address peer,
                               uint16_t tid,
                               bool read,
                               uint64_t address,
                               uint32_t length);
    /**
     * The DRP responder asks to place a message.
     * \param peer the initiator \param tid its transfer \param dba the
     *        request's DBA (a SEND's is 0) \param length bytes
     * \param message the extension
     */
    void OnMessageRequest(Mac48Address peer,
                          uint16_t tid,
                          uint64_t dba,
                          uint32_t length,
                          const DrpMessageHeader& message);
    /**
     * \param peer the initiator \param message a message's extension
     * \return the queue pair here it names, if connected to that peer
     *         (in RTR, RTS or SQD), or null
     */
    Ptr<RdmaQueuePair> FindDestination(Mac48Address peer, const DrpMessageHeader& message) const;
    /**
     * Checks a message against its destination queue pair's head receive
     * request and, for a WRITE with immediate, the rkey.
     * \param qp the destination \param dba the request's DBA \param length bytes
     * \param message the extension \param [out] placement where its data lands
     * \return REGISTRATION (0) if it may land, else the reason to refuse it
     */
    DrpHeader::Nak CheckMessage(Ptr<RdmaQueuePair> qp,
                                uint64_t dba,
                                uint32_t length,
                                const DrpMessageHeader& message,
                                uint64_t& placement);
    /**
     * A transfer the responder refused for good ended: post it again after
     * the RNR timer, or end it.
     * \param transfer the transfer \param record how it ended
     */
    void OnRefused(Transfer transfer, const DrpTransferRecord& record);
    /// \param peer the initiator \param tid the transfer \param released ended
    void OnResponderDone(Mac48Address peer, uint16_t tid, bool released);
    /// \param record an ended transfer \return its completion status
    static RdmaWcStatus MapStatus(const DrpTransferRecord& record);
    /// \param opcode a send opcode \return true for the two atomics
    static bool IsAtomic(RdmaWrOpcode opcode);
    /**
     * The responder's checks of an atomic: alignment, then the queue pair's
     * and the rkey's REMOTE_ATOMIC over the 8 bytes.
     * \param qp the destination \param dba the target \param message the extension
     * \return REGISTRATION (0) if it may run, else the reason to refuse it
     */
    DrpHeader::Nak CheckAtomic(Ptr<RdmaQueuePair> qp,
                               uint64_t dba,
                               const DrpMessageHeader& message) const;
    /**
     * The DRP responder asks to run an atomic.
     * \param peer the initiator \param tid its transfer \param dba the target
     * \param message the extension
     */
    void OnAtomicRequest(Mac48Address peer,
                         uint16_t tid,
                         uint64_t dba,
                         const DrpMessageHeader& message);
    /**
     * \param [out] slot 8 bytes of the responder resources
     * \return false if all RESPONDER_SLOTS are in use
     */
    bool TakeSlot(uint64_t& slot);
    /**
     * Runs an atomic on host memory.
     * \param dba the target \param slot where the target's value before it is kept
     * \param message the operation and its operands
     */
    void Execute(uint64_t dba, uint64_t slot, const DrpMessageHeader& message);
    /**
     * The responder's check of a peer's rkey: the queue pair allows the
     * access, and the rkey names a region of its domain that holds the bytes
     * with it.
     * \param qp the destination queue pair \param rkey the key
     * \param address first byte \param length bytes \param access RdmaAccess flag
     * \return true if granted
     */
    bool GrantsRkey(Ptr<RdmaQueuePair> qp,
                    uint32_t rkey,
                    uint64_t address,
                    uint32_t length,
                    uint32_t access) const;

    Ptr<RnicNetDevice> m_rnic;                           //!< the RNIC
    Ptr<HostCpus> m_cpus;                                //!< its host's CPUs
    Time m_handlerLatency;                               //!< attribute
    std::map<Ptr<RdmaQueuePair>, QpRequests> m_requests; //!< per queue pair
    std::map<uint16_t, Transfer> m_transfers;            //!< DRP transfers by TID
    std::deque<std::function<void()>> m_waiting;         //!< posts waiting for a TID
    uint32_t m_doorbells{0};                             //!< posts rung, not yet arrived
    EventId m_retry;                                     //!< a TID's hold ends
    /// Targets pinned for DRP transfers: (initiator, TID) -> (context, address, length).
    std::map<std::pair<Mac48Address, uint16_t>, std::tuple<Ptr<RdmaContext>, uint64_t, uint32_t>>
        m_pins;
    /// Messages accepted and not yet ended, by (initiator, TID).
    std::map<std::pair<Mac48Address, uint16_t>, Incoming> m_incoming;
    uint64_t m_refusals{0};            //!< registration requests refused
    uint64_t m_atomics{0};             //!< atomics executed as responder
    uint64_t m_responderResources{0};  //!< attribute: the responder resources' address
    bool m_slotsRegistered{false};     //!< the responder resources are registered
    std::vector<uint64_t> m_freeSlots; //!< responder resources free
    /// Atomics accepted and not yet released, by (initiator, TID): their slot.
    std::map<std::pair<Mac48Address, uint16_t>, uint64_t> m_atomicSlots;
};

} // namespace ns3

#endif /* DRP_VERBS_PROVIDER_H */
