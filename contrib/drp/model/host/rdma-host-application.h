/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HOST_APPLICATION_H
#define RDMA_HOST_APPLICATION_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/drp-transfer-record.h"
#include "ns3/event-id.h"
#include "ns3/host-cpus.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rnic-net-device.h"
#include "ns3/traced-callback.h"
#include "ns3/verbs-transfer-engine.h"

#include <boost/icl/interval_set.hpp>
#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The host behind an RNIC: the upper-layer protocol of DRP.
 *
 * As an initiator it runs a workload: Transfers transfers of TransferSize
 * bytes, Operation write or read, to the RNIC at Peer, Concurrency of them
 * at a time, each started Gap after the previous one in its slot ended.
 * Before a write it fills the source region with fresh random bytes, before
 * a read the destination region (so that a read that moves nothing cannot
 * pass a comparison of the two regions). It registers the transfer's own
 * buffer when it starts the transfer and releases that registration when the
 * transfer ends (a read's data may only land in registered memory). It
 * records every transfer (DrpTransferRecord: start when the workload asks for
 * it, end when the completion interrupt arrives, mode, retries, status).
 *
 * Admission: the host posts at most MaxInFlight transfers to its RNIC at once
 * (posted and not yet ended; the RNIC's limit on transfers in progress, as a
 * driver knows its adapter's queue-pair limit), and never one for which the
 * RNIC has no free transfer id (DrpTransport::GetTidsFreeAt). The others wait
 * in the host, first come first served, and are posted as transfers end (or
 * as held transfer ids come free). A transfer's start stays the time the
 * workload asked for it, so its wait shows in its duration.
 *
 * As a responder it answers its RNIC's registration requests: registering
 * takes RegistrationFixedLatency plus RegistrationLatencyPerPage for each
 * 4 KiB page the region touches; then it registers the region, or fails to
 * with probability RegistrationFailureProbability (a draw of
 * RegistrationRandomVariable below it fails), and rings the RNIC's doorbell
 * with the answer. It releases the registration when the RNIC reports the
 * transfer's end.
 *
 * It registers only what a peer may target (Grants): by default the region
 * the peer's own workload targets at this host, found from the peer's
 * RdmaHostApplication (the simulation's stand-in for the exchange of buffer
 * descriptors that RDMA applications do before their first request), plus
 * any region given to Grant(). It also limits the memory it pins for one peer
 * and in all (MaxRegisteredBytesPerPeer, MaxRegisteredBytes). A request it
 * refuses is answered invalid after HandlerLatency, counted per reason and
 * reported by the RequestRefused trace.
 *
 * Every interaction with the RNIC crosses the RNIC's PcieLink; the host
 * takes HandlerLatency to act on an interrupt that needs an answer (a
 * connection reply: hand the data; a refused request).
 *
 * Interrupt handling and registrations are jobs on the node's HostCpus
 * (created with its defaults when the node has none): with one CPU they run
 * one after the other, in arrival order.
 *
 * Memory layout: slot k of the workload uses [k * stride, k * stride + size)
 * in this host's memory and [(node id + 1) * 2^32 + k * stride, ...) in the
 * peer's (stride: TransferSize rounded up to 4 KiB), so that several
 * initiators can use one responder at once.
 *
 * \par Transfer lists
 * Instead of the Transfers workload, a host can run a list of transfers, each
 * with its own start, peer, size and operation (AddTransfer(); fabric
 * workloads such as incast, permutation, all-to-all and Poisson arrivals are
 * lists made by FabricWorkloadHelper). A listed transfer starts its delay
 * after the application starts, then goes through admission like any other
 * (MaxInFlight, free TIDs). Its record's index is its position in the list.
 * Listed transfers take their regions one after the other from a ring of
 * 2^32 bytes: [offset, offset + size) here and [(node id + 1) * 2^32 +
 * offset, ...) at the peer, so that transfers in flight never share bytes
 * (more than 4 GiB in flight from one host is a fatal error). A host runs
 * either the Transfers workload or a list, not both.
 */
class RdmaHostApplication : public Application
{
  public:
    /// Workload operation.
    enum Operation
    {
        WRITE, //!< RDMA write: the data goes to the peer
        READ,  //!< RDMA read: the data comes from the peer
    };

    /// Which regions a peer's request may name.
    enum GrantPolicy
    {
        WORKLOAD, //!< the region the peer's workload targets here, and Grant()'s
        EXPLICIT, //!< only Grant()'s
        ANY,      //!< every valid region
    };

    /// Why a registration request was refused.
    enum Refusal
    {
        NOT_GRANTED, //!< the region is not granted to the peer
        PEER_LIMIT,  //!< the peer's registered bytes would exceed MaxRegisteredBytesPerPeer
        HOST_LIMIT,  //!< all registered bytes would exceed MaxRegisteredBytes
        REFUSALS,    //!< number of reasons
    };

    /**
     * TracedCallback signature for refused requests.
     * \param peer the initiator
     * \param tid its transfer
     * \param address the region named
     * \param length its bytes
     * \param reason why it was refused
     */
    typedef void (*RefusalTracedCallback)(Mac48Address peer,
                                          uint16_t tid,
                                          uint64_t address,
                                          uint32_t length,
                                          Refusal reason);

    /**
     * TracedCallback signature for transfer starts.
     * \param index workload sequence number of the transfer (0, 1, ...)
     */
    typedef void (*TransferStartTracedCallback)(uint32_t index);
    /**
     * TracedCallback signature for transfer posts.
     * \param index workload sequence number of the transfer (0, 1, ...)
     * \param waited how long it waited in the host for admission
     */
    typedef void (*TransferPostTracedCallback)(uint32_t index, Time waited);
    /**
     * TracedCallback signature for transfer ends.
     * \param record what the transfer did
     */
    typedef void (*TransferTracedCallback)(const DrpTransferRecord& record);
    /**
     * TracedCallback signature for registration attempts.
     * \param peer the initiator
     * \param tid its transfer
     * \param success true if the region was registered
     */
    typedef void (*RegistrationTracedCallback)(Mac48Address peer, uint16_t tid, bool success);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaHostApplication();

    /// \return every transfer this host initiated that has ended, in end order
    const std::vector<DrpTransferRecord>& GetRecords() const;
    /// \return transfers this host has started
    uint32_t GetStarted() const;
    /// \return registration attempts that failed
    uint32_t GetFailedRegistrations() const;
    /// \return transfers posted to the RNIC and not yet ended
    uint32_t GetInFlight() const;
    /// \return transfers started and waiting in the host for admission
    uint32_t GetQueued() const;
    /**
     * \return transfers started and not ended: posted, waiting for admission,
     *         or (listed ones) waiting for room in the ring. When the
     *         simulator has run out of events, this is 0: anything else is a
     *         transfer that would never end (the scenarios check it).
     */
    uint32_t GetOpenTransfers() const;
    /**
     * \param address first byte of a region
     * \param length its bytes
     * \return the time this host takes to register it: RegistrationFixedLatency
     *         plus RegistrationLatencyPerPage per page it touches
     */
    Time GetRegistrationTime(uint64_t address, uint32_t length) const;
    /// \return the CPUs this host runs its jobs on (null before it starts)
    Ptr<HostCpus> GetCpus() const;
    /**
     * Lets a peer's requests name [address, address + length) of this host's memory.
     * \param peer the peer RNIC's address
     * \param address first byte
     * \param length bytes (a valid region: std::invalid_argument otherwise)
     */
    void Grant(Mac48Address peer, uint64_t address, uint64_t length);
    /**
     * \param peer a peer RNIC's address
     * \param address first byte
     * \param length bytes
     * \return true if the peer may name [address, address + length) under the GrantPolicy
     */
    bool IsGranted(Mac48Address peer, uint64_t address, uint64_t length) const;
    /**
     * \param reason a refusal reason
     * \return requests refused for it
     */
    uint64_t GetRefusedRequests(Refusal reason) const;
    /**
     * \param reason a refusal reason
     * \return its name
     */
    static std::string GetRefusalName(Refusal reason);
    /**
     * The region of a peer's memory this host's workload targets.
     * \param peer the peer RNIC's address
     * \return first byte and bytes; (0, 0) if the workload does not target \p peer
     */
    std::pair<uint64_t, uint64_t> GetWorkloadRegion(Mac48Address peer) const;
    /// \return the RNIC this host uses
    Ptr<RnicNetDevice> GetRnic() const;
    /**
     * \return the engine that moves this host's transfers over the verbs,
     *         opened on first use; only on an RNIC whose method is roce
     *         (aborts otherwise: every host of a run takes one method)
     */
    Ptr<VerbsTransferEngine> GetVerbsEngine();

    /**
     * Adds a transfer to this host's list (see "Transfer lists" above); call
     * before the application starts.
     * \param delay when it starts, after the application's start
     * \param peer the responder's RNIC address
     * \param bytes its size (1 to 4,294,967,295)
     * \param operation write or read
     */
    void AddTransfer(Time delay, Mac48Address peer, uint32_t bytes, Operation operation);
    /**
     * Lets \p peer's requests name this host's ring on it, as a transfer to
     * it in the list does (GetWorkloadRegion()), without a transfer to post.
     * For the copy of a host that another MPI rank runs in a distributed
     * simulation: the responders this rank runs check their grants against
     * it (FabricWorkloadHelper::Install()).
     * \param peer the responder's RNIC address
     */
    void AddWorkloadPeer(Mac48Address peer);
    /// \return the transfers added with AddTransfer()
    uint32_t GetListedTransfers() const;
    /**
     * Assigns fixed random variable streams.
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /// A transfer in flight, as the host knows it.
    struct Pending
    {
        uint32_t index;    //!< workload sequence number, or position in the list
        uint32_t slot;     //!< memory slot (Transfers workload)
        Time start;        //!< when the workload asked for it
        Mac48Address peer; //!< the responder
        bool read;         //!< read or write
        uint64_t sba;      //!< this host's region
        uint64_t dba;      //!< the peer's region
        uint32_t length;   //!< bytes
    };

    /// A transfer of the list (AddTransfer()).
    struct Listed
    {
        Time delay;          //!< after the application's start
        Mac48Address peer;   //!< the responder
        uint32_t bytes;      //!< size
        Operation operation; //!< write or read
    };

    void StartApplication() override;
    void StopApplication() override;
    /// Finds the node's RNIC (aborts if it has none).
    void FindRnic();

    // Attribute accessors; the setters check their values.
    void SetTransferSize(uint32_t bytes);      //!< \param bytes transfer size
    uint32_t GetTransferSize() const;          //!< \return transfer size
    void SetConcurrency(uint32_t transfers);   //!< \param transfers at once
    uint32_t GetConcurrency() const;           //!< \return transfers at once
    void SetFailureProbability(double p);      //!< \param p FRP
    double GetFailureProbability() const;      //!< \return FRP
    void SetGap(Time gap);                     //!< \param gap pause between transfers
    Time GetGap() const;                       //!< \return pause between transfers
    void SetRegistrationFixed(Time latency);   //!< \param latency fixed part of a registration
    Time GetRegistrationFixed() const;         //!< \return fixed part of a registration
    void SetRegistrationPerPage(Time latency); //!< \param latency registration time per page
    Time GetRegistrationPerPage() const;       //!< \return registration time per page
    /// \param latency whole registration time (deprecated alias; -1 ns: nothing)
    void SetRegistrationLatency(Time latency);
    /// \return the whole registration time if it does not depend on the region, else -1 ns
    Time GetRegistrationLatency() const;
    void SetMaxInFlight(uint32_t transfers); //!< \param transfers posted at once, at most
    uint32_t GetMaxInFlight() const;         //!< \return transfers posted at once, at most
    void SetHandlerLatency(Time latency);    //!< \param latency interrupt handling time
    Time GetHandlerLatency() const;          //!< \return interrupt handling time

    /// \return the distance between workload slots in memory
    uint64_t GetSlotStride() const;
    /**
     * \param peer a peer RNIC's address
     * \return the host application behind it, or null (looked up once per peer)
     */
    Ptr<RdmaHostApplication> FindHostOf(Mac48Address peer) const;
    /**
     * \param peer a peer RNIC's address
     * \return the host application behind it, or null. Through an index of
     *         every RNIC's address (node ids, checked on use), built again
     *         when it misses: one pass over the nodes, not one per lookup,
     *         which made a fabric's set-up quadratic in its hosts.
     */
    static Ptr<RdmaHostApplication> LookUpHostOf(Mac48Address peer);
    /**
     * \param node a node
     * \param peer an RNIC address
     * \return node's host application if one of its RnicNetDevices has that
     *         address (a node without one: null)
     * \param [out] found true if the node has that RNIC
     */
    static Ptr<RdmaHostApplication> HostOn(Ptr<Node> node, Mac48Address peer, bool& found);
    /**
     * \param peer the initiator
     * \param address the region named
     * \param length its bytes
     * \return REFUSALS if this host registers the region for the peer, else why not
     */
    Refusal Admit(Mac48Address peer, uint64_t address, uint32_t length) const;
    /**
     * Answers a registration request invalid, without registering.
     * \param peer the initiator
     * \param tid its transfer
     * \param address the region named
     * \param length its bytes
     * \param reason why
     */
    void Refuse(Mac48Address peer, uint16_t tid, uint64_t address, uint32_t length, Refusal reason);
    /**
     * Starts the next transfer of the workload in a slot: prepares its buffer
     * and queues it for admission.
     * \param slot memory slot
     */
    void StartTransfer(uint32_t slot);
    /**
     * Starts a transfer of the list: takes its region from the ring and
     * prepares it as StartTransfer() does; if the ring has no room, the
     * transfer waits for a listed transfer to end (first come, first served).
     * \param position its position in the list
     */
    void StartListed(uint32_t position);
    /**
     * Prepares the listed transfers that wait for ring room, in order, while
     * the ring has room for the first of them.
     */
    void StartRingWaiting();
    /**
     * Fills a transfer's buffer with fresh bytes, registers it and queues the
     * transfer for admission.
     * \param pending the transfer
     */
    void Prepare(const Pending& pending);
    /**
     * Takes a region of the ring: where the previous one ended (or at 0 if
     * it does not fit before the ring's end), else the first free gap large
     * enough. A region in use is never given again.
     * \param bytes a listed transfer's size
     * \param [out] offset the offset of its region in the ring
     * \return false if no free gap is large enough now
     */
    bool TakeRingRegion(uint32_t bytes, uint64_t& offset);
    /**
     * \param offset a region's start in the ring
     * \param bytes its length
     * \return true if no region in use overlaps it
     */
    bool IsRingFree(uint64_t offset, uint64_t bytes) const;
    /// Posts waiting transfers while MaxInFlight and the RNIC's free TIDs allow.
    void PostWaiting();
    /**
     * Rings the doorbell that posts a transfer to the RNIC.
     * \param pending the transfer
     */
    void Post(const Pending& pending);
    /**
     * RNIC interrupt: a connection reply for one of our transfers.
     * \param tid the transfer
     */
    void OnReply(uint16_t tid);
    /**
     * RNIC interrupt: register a region for a peer's transfer.
     * \param peer the initiator
     * \param tid its transfer
     * \param read true for a read
     * \param address region start
     * \param length region length
     */
    void OnRegistrationRequest(Mac48Address peer,
                               uint16_t tid,
                               bool read,
                               uint64_t address,
                               uint32_t length);
    /**
     * Registration done (or failed); answer the RNIC.
     * \param peer the initiator
     * \param tid its transfer
     * \param address region start
     * \param length region length
     */
    void FinishRegistration(Mac48Address peer, uint16_t tid, uint64_t address, uint32_t length);
    /**
     * RNIC interrupt: one of our transfers ended.
     * \param record what it did
     */
    void OnCompletion(const DrpTransferRecord& record);
    /**
     * The verbs engine: one of our transfers ended.
     * \param key its key in m_pending \param record what it did
     */
    void OnVerbsCompletion(uint32_t key, const DrpTransferRecord& record);
    /**
     * Ends one of our transfers: its record, its slot or ring region, the next.
     * \param key its key in m_pending (a DRP transfer's TID, or the verbs engine's number)
     * \param record what the RNIC reported
     */
    void Complete(uint32_t key, const DrpTransferRecord& record);
    /**
     * Forgets the bytes of an ended transfer's two regions (ForgetData).
     * \param record the transfer
     */
    void ForgetRegions(const DrpTransferRecord& record);
    /**
     * RNIC interrupt: a transfer we responded to ended.
     * \param peer the initiator
     * \param tid its transfer
     * \param released true if released normally
     */
    void OnResponderDone(Mac48Address peer, uint16_t tid, bool released);

    // Workload.
    Address m_peer;          //!< the responder's RNIC address
    uint32_t m_transfers;    //!< transfers to run
    uint32_t m_transferSize; //!< bytes per transfer
    Operation m_operation;   //!< write or read
    Time m_gap;              //!< pause in a slot between transfers
    uint32_t m_concurrency;  //!< transfers at once
    // Host behaviour.
    Time m_registrationFixed;                   //!< registration time, fixed part
    Time m_registrationPerPage;                 //!< registration time per page touched
    double m_failureProbability;                //!< FRP
    Ptr<RandomVariableStream> m_registrationRv; //!< registration outcomes
    Ptr<UniformRandomVariable> m_contentRv;     //!< seeds of written data
    Time m_handlerLatency;                      //!< host time to act on an interrupt
    GrantPolicy m_grantPolicy;                  //!< which regions peers may name
    uint64_t m_maxBytesPerPeer;                 //!< registered bytes per peer, at most
    uint64_t m_maxBytes;                        //!< registered bytes in all, at most
    std::map<Mac48Address, boost::icl::interval_set<uint64_t>> m_grants; //!< Grant()'s
    std::map<Mac48Address, uint64_t> m_registeredPerPeer; //!< registered bytes per peer
    uint64_t m_registeredTotal;                           //!< registered bytes for peers
    uint64_t m_refused[REFUSALS];                         //!< refused requests per reason
    mutable std::map<Mac48Address, Ptr<RdmaHostApplication>> m_peerHosts; //!< FindHostOf's

    Ptr<RnicNetDevice> m_rnic;                //!< our RNIC
    Ptr<HostCpus> m_cpus;                     //!< the node's CPUs
    uint32_t m_maxInFlight;                   //!< transfers posted at once, at most
    uint32_t m_inFlight;                      //!< transfers posted and not yet ended
    uint32_t m_doorbells;                     //!< posts rung and not yet at the RNIC
    std::deque<Pending> m_waiting;            //!< started transfers waiting for admission
    EventId m_retry;                          //!< PostWaiting when a held TID comes free
    uint32_t m_started;                       //!< transfers started
    std::vector<Listed> m_list;               //!< the transfer list
    std::set<Mac48Address> m_listPeers;       //!< peers the list targets
    std::map<uint64_t, uint64_t> m_ringInUse; //!< ring regions in flight: offset -> bytes
    uint64_t m_ringNext{0};                   //!< next ring offset to try
    std::deque<std::pair<uint32_t, Time>> m_ringWaiting; //!< listed transfers waiting for
                                                         //!< ring room: position, when asked
    uint32_t m_listStarted{0};                           //!< listed transfers started
    bool m_stopped{false};                               //!< StopApplication() ran
    bool m_forgetData{false};                            //!< ForgetData attribute
    uint32_t m_failedRegistrations;                      //!< registration attempts that failed
    std::map<uint32_t, Pending> m_pending; //!< our transfers in flight, by TID (DRP) or key (verbs)
    Ptr<VerbsTransferEngine> m_verbs;      //!< a roce RNIC's transfers, over the verbs
    uint32_t m_nextVerbsKey{0};            //!< the next verbs transfer's key
    std::map<std::pair<Mac48Address, uint16_t>, std::pair<uint64_t, uint32_t>>
        m_registrations;                                //!< regions registered for peers' transfers
    std::vector<DrpTransferRecord> m_records;           //!< ended transfers
    TracedCallback<uint32_t> m_transferStartTrace;      //!< transfer starts
    TracedCallback<uint32_t, Time> m_transferPostTrace; //!< transfer posts
    TracedCallback<const DrpTransferRecord&> m_transferTrace;         //!< transfer ends
    TracedCallback<Mac48Address, uint16_t, bool> m_registrationTrace; //!< registration attempts
    TracedCallback<Mac48Address, uint16_t, uint64_t, uint32_t, Refusal>
        m_refusalTrace; //!< refused requests
};

} // namespace ns3

#endif /* RDMA_HOST_APPLICATION_H */
