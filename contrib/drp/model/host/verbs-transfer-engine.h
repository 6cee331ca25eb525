/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VERBS_TRANSFER_ENGINE_H
#define VERBS_TRANSFER_ENGINE_H

#include "ns3/callback.h"
#include "ns3/drp-transfer-record.h"
#include "ns3/mac48-address.h"
#include "ns3/object.h"
#include "ns3/rdma-cm-types.h"
#include "ns3/rdma-verbs-types.h"

#include <cstdint>
#include <map>

namespace ns3
{

class RdmaCmId;
class RdmaCompletionQueue;
class RdmaContext;
class RdmaMemoryRegion;
class RdmaProtectionDomain;
class RdmaQueuePair;
class RnicNetDevice;

/**
 * \ingroup drp
 * \brief How RdmaHostApplication moves its transfers over the verbs, on an
 * RNIC whose method is roce: each transfer is one signalled RDMA WRITE or
 * READ on a reliable-connected queue pair of its own.
 *
 * A DRP transfer opens its connection and has the responder register its
 * region inside the transfer: that is the paper's protocol, and the host
 * application posts it to DrpTransport directly (the verbs over DRP map a
 * WRITE or READ to exactly that transfer, so a layer of verbs there would
 * add nothing). RoCE has no such handshake: its connections and memory
 * regions exist before data moves. This engine gives each transfer the
 * queue pair and the two memory regions a deployed RoCE application holds
 * before it starts: connected, and registered, at no cost in simulated
 * time (the long-lived connections and the buffer pools pinned at start-up
 * of RoCE programs; HPCC's simulator likewise gives each flow its own queue
 * pair, ready when the flow starts). One queue pair per transfer lets the
 * transfers between two hosts run side by side, each with its own PSNs and
 * congestion control, as DRP's transfers do.
 *
 * \par A connection per transfer
 * With Connection PerTransfer, a transfer pays what an application that
 * connects on demand pays (the paper's assumption for RDMA without the
 * dynamic method): the initiator resolves the peer and connects through
 * the connection manager (RdmaCmId: REQ, REP, RTU, each with the
 * manager's host time and the wire), its REQ's private data naming the
 * region; the responder's host registers the region (RdmaContext::RegMr:
 * its registration time, and failure with RegistrationFailureProbability,
 * as RdmaHostApplication configures it) and accepts with the R_Key in the
 * REP's private data, or rejects if the registration failed; the initiator
 * then posts the request. The transfer ends at the request's completion;
 * the initiator then disconnects, and each side releases its region and
 * queue pair when the disconnection is done. A rejected or unreachable
 * connection ends the transfer refused (handshake-failed when unreachable)
 * with no data moved.
 *
 * The queue pairs take their attributes from Timeout, RetryCount and
 * PathMtu (clamped to the port's active MTU by the transport). Post()
 * rings the queue pair's doorbell (the transport carries it over PCIe);
 * the completion is read from the completion queue when its event arrives
 * and reaches the host after the PCIe link's interrupt latency, as a DRP
 * completion interrupt does. The transfer's record (DrpTransferRecord) is
 * then direct, with its status from the work completion:
 * SUCCESS; DATA_FAILED for RETRY_EXC_ERR and RNR_RETRY_EXC_ERR (the retry
 * count ran out); REFUSED for every other error. Its retransmissions, CNPs
 * and timeouts (local ACK timeouts) are its queue pair's. Both queue pairs and regions are then
 * destroyed.
 */
class VerbsTransferEngine : public Object
{
  public:
    /// How a transfer's queue pair comes to be connected.
    enum Connection
    {
        PRE_ESTABLISHED, //!< before the transfer, at no cost (long-lived connections)
        PER_TRANSFER,    //!< by the connection manager, at the transfer's start
    };

    /// The connection manager's port of the engines' listeners (perftest's default).
    static constexpr uint16_t CM_PORT = 18515;

    /// What the engine hands the host when a transfer has ended: its number and record.
    typedef Callback<void, uint32_t, const DrpTransferRecord&> CompletionCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    VerbsTransferEngine();
    ~VerbsTransferEngine() override;

    /**
     * Opens the RNIC (a context, a protection domain, a completion queue).
     * \param rnic an RNIC whose method is roce, on a node with a HostMemory
     * \param completed gets each transfer's record when it has ended
     */
    void Open(Ptr<RnicNetDevice> rnic, CompletionCallback completed);

    /**
     * Starts a transfer: connects a queue pair of this RNIC to one of the
     * peer's, registers both regions and posts the request.
     * \param number the host's number for it (returned with its record)
     * \param peer the responder's engine
     * \param read true for an RDMA READ (peer to here), false for a WRITE
     * \param sba this host's region
     * \param dba the peer's region
     * \param length bytes, at least 1
     */
    void Post(uint32_t number,
              Ptr<VerbsTransferEngine> peer,
              bool read,
              uint64_t sba,
              uint64_t dba,
              uint32_t length);

    /// \return the RNIC opened (null before Open())
    Ptr<RnicNetDevice> GetRnic() const;
    /// \return the context opened on it (its registration attributes are the host's)
    Ptr<RdmaContext> GetContext() const;
    /// \return transfers posted and not yet ended
    uint32_t GetInFlight() const;

  protected:
    void DoDispose() override;

  private:
    /// One transfer's resources.
    struct Transfer
    {
        Ptr<RdmaQueuePair> qp;         //!< here
        Ptr<RdmaMemoryRegion> mr;      //!< this host's region
        Ptr<VerbsTransferEngine> peer; //!< the responder's engine
        Ptr<RdmaQueuePair> peerQp;     //!< there
        Ptr<RdmaMemoryRegion> peerMr;  //!< the peer's region
        DrpTransferRecord record;      //!< filled in as it goes
        Ptr<RdmaCmId> id;              //!< PerTransfer: the connection's id
    };

    /// PerTransfer, the responder's side of a connection.
    struct Accepted
    {
        Ptr<RdmaQueuePair> qp;    //!< its queue pair
        Ptr<RdmaMemoryRegion> mr; //!< the region registered for it
    };

    /**
     * The responder's side of a transfer: a queue pair and the region.
     * \param access what the initiator may do to the region
     * \param dba the region \param length its bytes
     * \param [out] mr the region registered
     * \return the queue pair, in RESET
     */
    Ptr<RdmaQueuePair> Accept(uint32_t access,
                              uint64_t dba,
                              uint32_t length,
                              Ptr<RdmaMemoryRegion>& mr);
    /**
     * \param address the first byte \param length bytes, at least 1
     * \param access RdmaAccess flags
     * \return a region registered at once (aborts with the error: a set-up fault)
     */
    Ptr<RdmaMemoryRegion> Register(uint64_t address, uint32_t length, uint32_t access);
    /// \return the creation attributes of every queue pair of the engine
    RdmaQpInitAttr GetInitAttr() const;
    /// \return a new queue pair on the completion queue, in RESET (aborts on error)
    Ptr<RdmaQueuePair> CreateQp();
    /**
     * Connects a queue pair (RESET to RTS) to the peer's.
     * \param qp here \param peer the peer RNIC \param peerQp there
     * \param access what the peer may do here
     */
    void Connect(Ptr<RdmaQueuePair> qp,
                 Ptr<RnicNetDevice> peer,
                 Ptr<RdmaQueuePair> peerQp,
                 uint32_t access);
    /**
     * PerTransfer: the initiator's connection events.
     * \param number the transfer \param id its id \param event what happened
     */
    void OnClientEvent(uint32_t number, Ptr<RdmaCmId> id, RdmaCmEvent event);
    /**
     * PerTransfer: the listener's events (connection requests, disconnections).
     * \param id the connection's id \param event what happened
     */
    void OnServerEvent(Ptr<RdmaCmId> id, RdmaCmEvent event);
    /**
     * Ends a transfer whose connection failed: no data moved.
     * \param number the transfer \param status its status
     */
    void Abandon(uint32_t number, DrpTransferRecord::Status status);
    /**
     * Posts a transfer's request on its connected queue pair.
     * \param t the transfer \param rkey the peer region's key
     */
    void Start(Transfer& t, uint32_t rkey);
    /**
     * Hands a record to the host after the PCIe interrupt.
     * \param record the ended transfer's
     */
    void Deliver(const DrpTransferRecord& record);
    /// The completion queue's event: polls it and re-arms.
    void OnEvent(Ptr<RdmaCompletionQueue> cq);
    /**
     * A work completion: the record, the host (after the interrupt), the teardown.
     * \param wc the completion
     */
    void End(const RdmaWc& wc);
    /**
     * Destroys a queue pair and deregisters a region of this context.
     * \param qp the queue pair \param mr the region
     */
    void Release(Ptr<RdmaQueuePair> qp, Ptr<RdmaMemoryRegion> mr);

    Ptr<RnicNetDevice> m_rnic;                    //!< the RNIC
    Ptr<RdmaContext> m_context;                   //!< opened on it
    Ptr<RdmaProtectionDomain> m_pd;               //!< every region and queue pair's
    Ptr<RdmaCompletionQueue> m_cq;                //!< every queue pair's two queues
    CompletionCallback m_completed;               //!< the host's
    std::map<uint32_t, Transfer> m_transfers;     //!< in flight, by the host's number
    std::map<Ptr<RdmaCmId>, Accepted> m_accepted; //!< PerTransfer: the responder's connections
    std::map<Ptr<RdmaCmId>, Ptr<RdmaQueuePair>> m_closing; //!< PerTransfer: disconnecting
    Ptr<RdmaCmId> m_listener;                              //!< PerTransfer: accepts connections
    Connection m_connection;                               //!< attribute
    uint8_t m_timeout;    //!< attribute: local ACK timeout (exponent)
    uint8_t m_retryCount; //!< attribute: transport retries
    uint32_t m_pathMtu;   //!< attribute: path MTU (bytes)
    uint32_t m_cqDepth;   //!< attribute: completion-queue entries
};

} // namespace ns3

#endif /* VERBS_TRANSFER_ENGINE_H */
