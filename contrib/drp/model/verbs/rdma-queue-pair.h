/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "rdma-completion-queue.h"
#include "rdma-protection-domain.h"
#include "rdma-verbs-types.h"

#include "ns3/callback.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstddef>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A reliable-connected queue pair (ibv_qp of type IBV_QPT_RC): its
 * state machine, its send and receive queues of work requests, and the
 * completions it writes.
 *
 * Made by RdmaContext::CreateQp() in RESET. ModifyQp() moves it as
 * ibv_modify_qp does, through the transitions the InfiniBand Architecture
 * Specification allows for RC, each with the attributes it requires and
 * may take (the table of Linux's ib_modify_qp_is_ok):
 *
 *     RESET -> INIT   PKEY_INDEX, PORT, ACCESS_FLAGS
 *     INIT  -> INIT   (PKEY_INDEX, PORT, ACCESS_FLAGS)
 *     INIT  -> RTR    AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC,
 *                     MIN_RNR_TIMER (ACCESS_FLAGS, PKEY_INDEX)
 *     RTR   -> RTS    SQ_PSN, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC
 *                     (CUR_STATE, ACCESS_FLAGS, MIN_RNR_TIMER)
 *     RTS   -> RTS    (CUR_STATE, ACCESS_FLAGS, MIN_RNR_TIMER)
 *     RTS   -> SQD    (EN_SQD_ASYNC_NOTIFY)
 *     SQD   -> RTS    (CUR_STATE, ACCESS_FLAGS, MIN_RNR_TIMER)
 *     SQD   -> SQD    (PORT, AV, TIMEOUT, RETRY_CNT, RNR_RETRY,
 *                     MAX_QP_RD_ATOMIC, MAX_DEST_RD_ATOMIC, ACCESS_FLAGS,
 *                     PKEY_INDEX, MIN_RNR_TIMER)
 *     any   -> RESET, any -> ERR   (nothing else)
 *
 * A transition that is not listed, a required attribute missing, one that
 * is neither required nor optional, or a value out of its range (path MTU
 * 256 to 4096 in powers of two, timeout and MIN_RNR_TIMER 0 to 31, retry
 * counts 0 to 7, PSNs and QP numbers 24 bits, one port and one partition)
 * returns EINVAL and changes nothing. The alternate path and path
 * migration are not modelled (refused).
 *
 * Posting follows ibv_post_send and ibv_post_recv: a list of requests, the
 * first that cannot be posted named through bad (the earlier ones are
 * posted), EINVAL for a queue pair whose state takes no such request (send:
 * RESET, INIT, RTR; receive: RESET) or for more SGEs or inline bytes than
 * its capacities, ENOMEM when the queue is full. In ERR every posted
 * request completes at once with WR_FLUSH_ERR. Moving to ERR flushes every
 * outstanding request of both queues the same way (signalled or not, as
 * the specification requires); moving to RESET empties them without
 * completions.
 *
 * Checks that need the request's data (lkeys, bounds, the peer's access)
 * happen when the request is executed, as on hardware, and end in an error
 * completion (LOC_PROT_ERR, REM_ACCESS_ERR, ...) that moves the queue pair
 * to ERR. Executing them is the method's transport's, which attaches
 * through SetDoorbell: the queue pair rings it whenever send requests are
 * posted in RTS. Until a transport is attached, requests posted in RTS wait
 * in the queue.
 */
class RdmaQueuePair : public Object
{
  public:
    /**
     * TracedCallback signature for state changes.
     * \param from the state left
     * \param to the state entered
     */
    typedef void (*StateTracedCallback)(RdmaQpState from, RdmaQpState to);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaQueuePair();

    /**
     * \param context the id of the RdmaContext that made it
     * \param qpNum its number (24 bits)
     * \param pd its protection domain
     * \param init its completion queues, capacities and sq_sig_all
     * \param maxRdAtomic the device's most outstanding READs and atomics per queue pair
     */
    void Init(uint64_t context,
              uint32_t qpNum,
              Ptr<RdmaProtectionDomain> pd,
              const RdmaQpInitAttr& init,
              uint8_t maxRdAtomic);

    /// \return its number (qp->qp_num)
    uint32_t GetQpNum() const;
    /// \return the id of the context that made it
    uint64_t GetContextId() const;
    /// \return its protection domain
    Ptr<RdmaProtectionDomain> GetPd() const;
    /// \return its state
    RdmaQpState GetState() const;
    /// \return its send completion queue
    Ptr<RdmaCompletionQueue> GetSendCq() const;
    /// \return its receive completion queue
    Ptr<RdmaCompletionQueue> GetRecvCq() const;

    /**
     * Changes its state and attributes (ibv_modify_qp).
     * \param attr the values
     * \param mask which of them (RdmaQpAttrMask bits)
     * \return 0, or EINVAL (nothing changed)
     */
    int ModifyQp(const RdmaQpAttr& attr, uint32_t mask);
    /**
     * Connects a queue pair in RESET or INIT: ModifyQp() to INIT, RTR and RTS, each
     * with the attributes the transition requires (qpAccessFlags; peer,
     * pathMtu, destQpNum, rqPsn, maxDestRdAtomic, minRnrTimer; sqPsn,
     * timeout, retryCnt, rnrRetry, maxRdAtomic), taken from \p attr: what
     * an application does with the peer's QP number and PSN once exchanged
     * (perftest's ctx_connect, rdma_cm's rdma_connect and rdma_accept).
     * \param attr the values (qpState is ignored)
     * \return 0, or the first transition's EINVAL (the queue pair stays in
     *         the state reached)
     */
    int ConnectRc(const RdmaQpAttr& attr);
    /**
     * Reads its attributes (ibv_query_qp).
     * \param [out] attr its state and every attribute, capacities included
     * \param [out] init its creation attributes
     * \return 0
     */
    int QueryQp(RdmaQpAttr& attr, RdmaQpInitAttr& init) const;

    /**
     * Posts send requests (ibv_post_send).
     * \param wrs the requests, in order
     * \param [out] bad if not null and the call fails: the index of the
     *        first request not posted
     * \return 0, EINVAL or ENOMEM
     */
    int PostSend(const std::vector<RdmaSendWr>& wrs, size_t* bad = nullptr);
    /**
     * Posts receive requests (ibv_post_recv).
     * \param wrs the requests, in order
     * \param [out] bad if not null and the call fails: the index of the
     *        first request not posted
     * \return 0, EINVAL or ENOMEM
     */
    int PostRecv(const std::vector<RdmaRecvWr>& wrs, size_t* bad = nullptr);

    /// \return send requests outstanding (posted, not completed)
    uint32_t GetSendQueueLength() const;
    /// \return receive requests outstanding
    uint32_t GetRecvQueueLength() const;

    /// \param doorbell runs when send requests are posted in RTS (the transport's)
    void SetDoorbell(Callback<void, Ptr<RdmaQueuePair>> doorbell);
    /**
     * \param opcodes the RdmaWrOpcode values the transport executes, as bits
     *        (1 << opcode); PostSend refuses the others with EINVAL
     */
    void SetSupportedOpcodes(uint32_t opcodes);

    // The transport's side: it takes send requests in order and ends them in order.

    /// \return the attributes the transport needs (peer, QP numbers, PSNs, limits)
    const RdmaQpAttr& GetAttr() const;
    /// \return the oldest send request not yet taken by the transport, or null
    const RdmaSendWr* PeekUntaken() const;
    /// The transport takes the request PeekUntaken() gave.
    void Take();
    /// \return send requests taken and not yet ended
    uint32_t GetTaken() const;
    /**
     * \return a number that changes whenever the queue pair enters ERR or
     *         RESET: a transport that finds it changed since it took a
     *         request knows that the request was flushed or forgotten
     */
    uint32_t GetEpoch() const;
    /**
     * The transport ends the oldest request it took. Success completes it
     * if it is signalled (IBV_SEND_SIGNALED or sq_sig_all); an error
     * completes it, signalled or not, and moves the queue pair to ERR,
     * which flushes the rest.
     * \param status how it ended
     * \param byteLen bytes it moved
     */
    void EndSend(RdmaWcStatus status, uint32_t byteLen);
    /**
     * \param index 0 for the oldest receive request, 1 for the next, ...
     * \return that receive request, or null
     */
    const RdmaRecvWr* PeekRecv(uint32_t index = 0) const;
    /**
     * The transport ends the oldest receive request: a message landed in it
     * (SEND) or consumed it (WRITE with immediate), or failed there. It
     * completes, always; an error moves the queue pair to ERR.
     * \param status how it ended
     * \param byteLen the message's bytes
     * \param opcode RECV or RECV_RDMA_WITH_IMM
     * \param withImm the message carried immediate data \param immData its value
     * \param solicited the sender asked for a solicited event
     */
    void EndRecv(RdmaWcStatus status,
                 uint32_t byteLen,
                 RdmaWcOpcode opcode,
                 bool withImm,
                 uint32_t immData,
                 bool solicited);

  protected:
    void DoDispose() override;

  private:
    /// One allowed transition: its required and optional attributes.
    struct Transition
    {
        RdmaQpState from;  //!< from this state
        RdmaQpState to;    //!< to this one
        uint32_t required; //!< RdmaQpAttrMask bits it needs
        uint32_t optional; //!< bits it may take besides
    };

    /**
     * \param from the current state
     * \param to the state asked for
     * \return the transition, or null if RC does not allow it
     */
    static const Transition* FindTransition(RdmaQpState from, RdmaQpState to);
    /**
     * \param attr values
     * \param mask the bits given
     * \return true if every value given is within its range
     */
    bool AreValuesValid(const RdmaQpAttr& attr, uint32_t mask) const;
    /// \param attr values \param mask the bits given: copy them in
    void Apply(const RdmaQpAttr& attr, uint32_t mask);
    /// \param to the new state (ERR flushes, RESET empties)
    void Enter(RdmaQpState to);
    /// Completes every outstanding request with WR_FLUSH_ERR.
    void Flush();
    /// An error completion moves the queue pair to ERR (as ModifyQp to ERR).
    void EnterError();
    /// \param wr a send request \return its completion's opcode
    static RdmaWcOpcode GetWcOpcode(RdmaWrOpcode wr);

    uint64_t m_context{0};                         //!< the context's id
    uint32_t m_qpNum{0};                           //!< qp_num
    Ptr<RdmaProtectionDomain> m_pd;                //!< its domain
    RdmaQpInitAttr m_init;                         //!< creation attributes
    uint8_t m_deviceMaxRdAtomic{1};                //!< the device's limit
    RdmaQpState m_state{RdmaQpState::RESET};       //!< state
    RdmaQpAttr m_attr;                             //!< current attributes
    std::deque<RdmaSendWr> m_sendQueue;            //!< outstanding send requests
    std::deque<RdmaRecvWr> m_recvQueue;            //!< outstanding receive requests
    uint32_t m_taken{0};                           //!< send requests the transport took
    uint32_t m_epoch{0};                           //!< changes on ERR and RESET
    uint32_t m_opcodes{0x7f};                      //!< opcodes the transport executes, as bits
    Callback<void, Ptr<RdmaQueuePair>> m_doorbell; //!< the transport's
    TracedCallback<RdmaQpState, RdmaQpState> m_stateTrace; //!< state changes
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
