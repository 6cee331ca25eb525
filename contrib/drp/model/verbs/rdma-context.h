/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONTEXT_H
#define RDMA_CONTEXT_H

#include "rdma-completion-queue.h"
#include "rdma-memory-region.h"
#include "rdma-protection-domain.h"
#include "rdma-queue-pair.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <map>

namespace ns3
{

class RdmaVerbsProvider;
class HostCpus;
class HostMemory;
class RnicNetDevice;

/**
 * \ingroup drp
 * \brief A device context (ibv_context) on one RNIC: what an application
 * opens to use the RNIC through verbs, and where its protection domains,
 * memory regions, completion queues and queue pairs come from.
 *
 * Open() binds it to an RNIC on a host node. The calls follow libibverbs,
 * with its error numbers (EINVAL, ENOMEM, EBUSY) instead of aborts:
 *
 * * AllocPd / DeallocPd (ibv_alloc_pd, ibv_dealloc_pd: EBUSY while a
 *   region or queue pair uses it);
 * * RegMr / DeregMr (ibv_reg_mr, ibv_dereg_mr). Registration pins the
 *   region's pages and takes the host's time: it runs on the host's CPUs
 *   (HostCpus) for RegistrationFixedLatency plus RegistrationLatencyPerPage
 *   per 4 KiB page, the cost model of RdmaHostApplication, and then fails
 *   with probability RegistrationFailureProbability (an ns-3 random stream,
 *   AssignStreams) or when the host's pinned bytes would pass
 *   MaxRegisteredBytes. Since a simulation cannot block the caller as
 *   ibv_reg_mr does, RegMr returns at once (EINVAL for bad arguments) and
 *   gives the region, or null and the error (ENOMEM, as ibv_reg_mr returns
 *   NULL with errno), to a callback when the registration has ended. A
 *   region is pinned in the host's HostMemory, which the RNIC's RegionTable
 *   follows, until DeregMr. REMOTE_WRITE and REMOTE_ATOMIC need
 *   LOCAL_WRITE, as in libibverbs;
 * * CreateCq / DestroyCq (ibv_create_cq: depth 1 to MaxCqe;
 *   ibv_destroy_cq: EBUSY while a queue pair uses it);
 * * CreateQp / DestroyQp (ibv_create_qp for RC: capacities within MaxQpWr,
 *   MaxSge and MaxInlineData, both completion queues of this context; the
 *   queue pair starts in RESET with a 24-bit number unique in the context).
 *
 * The device limits (QueryDevice) default to a ConnectX-5's as ibv_devinfo
 * reports them, except MaxInlineData (ours).
 */
class RdmaContext : public Object
{
  public:
    /// Device limits (the fields of ibv_device_attr that drp checks).
    struct DeviceAttr
    {
        uint32_t maxQpWr;       //!< requests per queue
        uint32_t maxSge;        //!< SGEs per request
        uint32_t maxCqe;        //!< completions per completion queue
        uint32_t maxInlineData; //!< inline bytes per send request
        uint8_t maxQpRdAtom;    //!< READs and atomics outstanding per queue pair
    };

    /**
     * TracedCallback signature for registrations.
     * \param address first byte
     * \param length bytes
     * \param success registered (false: failed)
     */
    typedef void (*RegistrationTracedCallback)(uint64_t address, uint64_t length, bool success);

    /// What RegMr hands over when the registration ends: the region (null
    /// on failure) and 0 or the error (ENOMEM).
    typedef Callback<void, Ptr<RdmaMemoryRegion>, int> RegMrCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaContext();

    /**
     * Opens the RNIC (ibv_open_device): the context uses its host's memory
     * and CPUs (a HostCpus is aggregated to the node if it has none).
     * \param rnic an RNIC installed on a node with a HostMemory
     */
    void Open(Ptr<RnicNetDevice> rnic);
    /// \return the RNIC opened (null before Open)
    Ptr<RnicNetDevice> GetRnic() const;
    /// \return the device limits (ibv_query_device)
    DeviceAttr QueryDevice() const;

    /// \return a new protection domain (ibv_alloc_pd)
    Ptr<RdmaProtectionDomain> AllocPd();
    /**
     * \param pd a domain of this context
     * \return 0, EINVAL (not this context's) or EBUSY (in use)
     */
    int DeallocPd(Ptr<RdmaProtectionDomain> pd);

    /**
     * Registers a memory region (ibv_reg_mr).
     * \param pd its domain, of this context
     * \param address first byte
     * \param length bytes, at least 1, not past the end of the address space
     * \param access RdmaAccess flags
     * \param done gets the region, or null and ENOMEM, when the registration ends
     * \return 0 (done will run), or EINVAL (it will not)
     */
    int RegMr(Ptr<RdmaProtectionDomain> pd,
              uint64_t address,
              uint64_t length,
              uint32_t access,
              RegMrCallback done);
    /**
     * Registers a memory region at once: memory an application registered
     * before the simulated time it measures (a buffer pool pinned at
     * start-up, as RoCE programs and benchmarks do), so no host time passes
     * and no failure is drawn; MaxRegisteredBytes still holds.
     * \param pd its domain, of this context
     * \param address first byte
     * \param length bytes (as RegMr)
     * \param access RdmaAccess flags (as RegMr)
     * \param [out] error 0, EINVAL (bad arguments) or ENOMEM (over the limit)
     * \return the region, or null
     */
    Ptr<RdmaMemoryRegion> RegMrAtSetUp(Ptr<RdmaProtectionDomain> pd,
                                       uint64_t address,
                                       uint64_t length,
                                       uint32_t access,
                                       int& error);
    /**
     * \param mr a valid region of this context
     * \return 0, or EINVAL
     */
    int DeregMr(Ptr<RdmaMemoryRegion> mr);
    /**
     * \param lkey a local key
     * \return its region while registered, else null
     */
    Ptr<RdmaMemoryRegion> FindMrByLkey(uint32_t lkey) const;
    /**
     * \param rkey a remote key
     * \return its region while registered, else null
     */
    Ptr<RdmaMemoryRegion> FindMrByRkey(uint32_t rkey) const;

    /**
     * \param depth completions it holds, 1 to MaxCqe
     * \param [out] error 0, or EINVAL
     * \return the completion queue (ibv_create_cq), or null
     */
    Ptr<RdmaCompletionQueue> CreateCq(uint32_t depth, int& error);
    /**
     * \param cq a completion queue of this context
     * \return 0, EINVAL or EBUSY (a queue pair uses it)
     */
    int DestroyCq(Ptr<RdmaCompletionQueue> cq);

    /**
     * \param pd its domain, of this context
     * \param init completion queues of this context and capacities
     * \param [out] error 0, or EINVAL
     * \return the queue pair, in RESET (ibv_create_qp), or null
     */
    Ptr<RdmaQueuePair> CreateQp(Ptr<RdmaProtectionDomain> pd,
                                const RdmaQpInitAttr& init,
                                int& error);
    /**
     * \param qp a queue pair of this context
     * \return 0, or EINVAL
     */
    int DestroyQp(Ptr<RdmaQueuePair> qp);
    /**
     * \param qpNum a queue-pair number
     * \return the queue pair, or null
     */
    Ptr<RdmaQueuePair> FindQp(uint32_t qpNum) const;

    /// \return registrations that failed
    uint64_t GetFailedRegistrations() const;

    // For the transports.

    /**
     * Whether a peer's request may reach a range here: some queue pair of
     * this context connected to that peer (RTR, RTS or SQD, its address
     * vector naming it) allows the access, and a registered region of its
     * protection domain holds the whole range with that access.
     * \param peer the requesting RNIC's 48-bit address
     * \param address first byte
     * \param length bytes
     * \param access RdmaAccess::REMOTE_WRITE or REMOTE_READ
     * \return true if some queue pair and region grant it
     */
    bool Grants(uint64_t peer, uint64_t address, uint64_t length, uint32_t access) const;
    /**
     * \param pd the domain the region must be of
     * \param address first byte
     * \param length bytes
     * \param access RdmaAccess flags all needed
     * \return a registered region of that domain that allows it all, or null
     */
    Ptr<RdmaMemoryRegion> FindMrCovering(Ptr<RdmaProtectionDomain> pd,
                                         uint64_t address,
                                         uint64_t length,
                                         uint32_t access) const;
    /**
     * The RNIC's check of one local SGE (a request's or a receive's).
     * \param qp the queue pair \param sge the SGE \param length its bytes used
     * \param written the RNIC writes them
     * \return SUCCESS, LOC_PROT_ERR (no region of the queue pair's domain holds
     *         them) or LOC_ACCESS_ERR (written, and the region lacks LOCAL_WRITE)
     */
    RdmaWcStatus CheckSge(Ptr<RdmaQueuePair> qp,
                          const RdmaSge& sge,
                          uint32_t length,
                          bool written) const;
    /**
     * The RNIC's check of a send request's SGEs (inline data and empty SGEs
     * need none; a READ's and an atomic's are written).
     * \param qp the queue pair \param wr the request
     * \return SUCCESS, or the first SGE's error (CheckSge)
     */
    RdmaWcStatus CheckLocal(Ptr<RdmaQueuePair> qp, const RdmaSendWr& wr) const;
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
                    uint64_t length,
                    uint32_t access) const;
    /**
     * \param address first byte
     * \param length bytes
     * \return the host time registering the region takes (the cost model of RegMr)
     */
    Time GetRegistrationTime(uint64_t address, uint64_t length) const;
    /**
     * A transport's registration of a region, as RegMr's ends: it fails by
     * RegistrationFailureProbability or MaxRegisteredBytes, else pins.
     * \param address first byte
     * \param length bytes
     * \return true if pinned (release with Unpin)
     */
    bool Pin(uint64_t address, uint32_t length);
    /// \param address first byte \param length bytes: a Pin released
    void Unpin(uint64_t address, uint32_t length);

    /// \param latency RegistrationFixedLatency (0 to 10 s)
    void SetRegistrationFixed(Time latency);
    /// \return RegistrationFixedLatency
    Time GetRegistrationFixed() const;
    /// \param latency RegistrationLatencyPerPage (0 to 1 ms)
    void SetRegistrationPerPage(Time latency);
    /// \return RegistrationLatencyPerPage
    Time GetRegistrationPerPage() const;
    /// \param p RegistrationFailureProbability (0 to 1)
    void SetFailureProbability(double p);
    /// \return RegistrationFailureProbability
    double GetFailureProbability() const;

    /**
     * \param stream first stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /**
     * A registration's host time has passed: it succeeds or fails.
     * \param pd the domain
     * \param address first byte
     * \param length bytes
     * \param access flags
     * \param done the caller's callback
     */
    void FinishRegistration(Ptr<RdmaProtectionDomain> pd,
                            uint64_t address,
                            uint64_t length,
                            uint32_t access,
                            RegMrCallback done);
    /// \param pd a domain \return true if this context allocated it and has not freed it
    bool Owns(Ptr<RdmaProtectionDomain> pd) const;
    /**
     * RegMr's checks of its arguments.
     * \param pd the domain \param address first byte \param length bytes
     * \param access RdmaAccess flags
     * \return true if a registration may be tried
     */
    bool IsValidRegistration(Ptr<RdmaProtectionDomain> pd,
                             uint64_t address,
                             uint64_t length,
                             uint32_t access) const;
    /// \param cq a queue \return true if this context made it and has not destroyed it
    bool Owns(Ptr<RdmaCompletionQueue> cq) const;

    uint64_t m_id;                          //!< this context's id (unique in the simulation)
    Ptr<RdmaVerbsProvider> m_provider;      //!< executes its queue pairs' requests
    Ptr<RnicNetDevice> m_rnic;              //!< the RNIC opened
    Ptr<HostMemory> m_memory;               //!< its host's memory
    Ptr<HostCpus> m_cpus;                   //!< its host's CPUs
    Time m_registrationFixed;               //!< attribute
    Time m_registrationPerPage;             //!< attribute
    double m_failureProbability;            //!< attribute
    uint64_t m_maxRegistered;               //!< attribute: pinned bytes, at most
    uint32_t m_maxQpWr;                     //!< attribute: device limit
    uint32_t m_maxSge;                      //!< attribute: device limit
    uint32_t m_maxCqe;                      //!< attribute: device limit
    uint32_t m_maxInlineData;               //!< attribute: device limit
    uint32_t m_maxQpRdAtom;                 //!< attribute: device limit
    Ptr<UniformRandomVariable> m_failureRv; //!< registration failures
    uint32_t m_nextPd{1};                   //!< next domain handle
    uint32_t m_nextKey{0x100};              //!< next memory key
    uint32_t m_nextQpNum{0x100};            //!< next queue-pair number
    uint64_t m_registered{0};               //!< bytes pinned by this context
    uint64_t m_failed{0};                   //!< failed registrations
    std::map<uint32_t, Ptr<RdmaProtectionDomain>> m_pds;          //!< by handle
    std::map<uint32_t, Ptr<RdmaMemoryRegion>> m_mrs;              //!< by key
    std::map<uint32_t, Ptr<RdmaQueuePair>> m_qps;                 //!< by number
    std::map<Ptr<RdmaCompletionQueue>, uint32_t> m_cqs;           //!< queue -> users
    TracedCallback<uint64_t, uint64_t, bool> m_registrationTrace; //!< registrations
};

} // namespace ns3

#endif /* RDMA_CONTEXT_H */
