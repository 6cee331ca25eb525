/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_RESPONDER_H
#define ROCE_RESPONDER_H

#include "ns3/ib-aeth-header.h"
#include "ns3/ib-atomic-eth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/packet.h"
#include "ns3/rdma-verbs-types.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaQueuePair;
class RoceTransport;

/**
 * \ingroup drp
 * \brief The receive side of one RoCEv2 RC queue pair: the expected PSN,
 * the requests it executes, and what it answers.
 *
 * A request with the expected PSN is executed in order:
 *
 * * RDMA WRITE: the RETH of its first packet names the target, which the
 *   R_Key's region (of the queue pair's domain, with REMOTE_WRITE, the
 *   queue pair allowing it) must hold, else a NAK for a remote access
 *   error; each packet's payload is DMA-written there;
 * * SEND: its first packet claims the receive request at the head of the
 *   receive queue (none: an RNR NAK carrying min_rnr_timer, the PSN not
 *   consumed); the payload is scattered into the receive's SGEs, and a
 *   message longer than they hold ends the receive with LOC_LEN_ERR and is
 *   refused with a NAK for an invalid request; the last packet completes
 *   the receive (with its immediate data and solicited flag);
 * * RDMA WRITE with immediate: as a WRITE, and its last packet consumes a
 *   receive request (RECV_RDMA_WITH_IMM), RNR NAK if none;
 * * RDMA READ: checked as a WRITE (REMOTE_READ); its responses, one per
 *   path MTU (FIRST, MIDDLE..., LAST, or ONLY; AETH on the first and last),
 *   are read from host memory and sent in this responder's flow;
 * * atomics: 8-byte aligned (else a NAK for an invalid request) and
 *   REMOTE_ATOMIC; executed on host memory exactly once, behind the writes
 *   before it in the write engine: the original value is kept in the
 *   responder resources (the last MAX_ATOMIC_RESULTS, by PSN, the device's
 *   most READs and atomics outstanding) and sent in an
 *   ATOMIC_ACKNOWLEDGE, after a DMA write and read of the 8 bytes.
 *
 * Acknowledgements: an ACK for each packet with the A bit (the last of each
 * message) and every AckInterval packets (1, the default: every packet),
 * once its payload is in host memory. A PSN past the expected one gets one
 * sequence NAK (with the expected PSN) until the expected packet arrives;
 * a duplicate SEND or WRITE packet is acknowledged again (the last PSN
 * received), a duplicate READ is executed again from its RETH, a duplicate
 * atomic answered from the responder resources. A packet out of a
 * message's order (a MIDDLE without a FIRST, a new message inside one) gets
 * a NAK for an invalid request. The MSN counts the messages completed.
 */
class RoceResponder : public SimpleRefCount<RoceResponder>
{
  public:
    /// Atomic results kept for duplicates (the responder resources).
    static constexpr uint32_t MAX_ATOMIC_RESULTS = 255;

    /**
     * \param transport the RNIC's transport (outlives this)
     * \param qp the queue pair
     * \param flow its data flow (READ responses) in the transport
     */
    RoceResponder(RoceTransport* transport, Ptr<RdmaQueuePair> qp, uint64_t flow);

    /**
     * A request for this queue pair.
     * \param bth its BTH
     * \param packet what follows the BTH (pad removed)
     */
    void Receive(const IbBthHeader& bth, Ptr<Packet> packet);
    /// Forgets everything (the queue pair is gone).
    void Stop();

  private:
    /// The message being received, between its first and last packets.
    struct Current
    {
        bool active{false};        //!< a message is open
        bool send{false};          //!< a SEND (else a WRITE)
        uint64_t address{0};       //!< WRITE: the next byte's address
        uint32_t offset{0};        //!< bytes received so far
        uint32_t length{0};        //!< WRITE: the RETH's DMALength; SEND: the receive's room
        std::vector<RdmaSge> sges; //!< SEND: the receive's SGEs
    };

    /// A READ whose responses are being sent.
    struct ReadJob
    {
        uint32_t psn{0};     //!< the first response's PSN
        uint64_t address{0}; //!< the first byte
        uint32_t length{0};  //!< bytes
        uint32_t packets{0}; //!< responses
        uint32_t next{0};    //!< responses made
    };

    /// \return true if the queue pair was flushed or reset since (state forgotten)
    bool Stale();
    /**
     * \param bth a request with the expected PSN
     * \param packet after the BTH
     */
    void Execute(const IbBthHeader& bth, Ptr<Packet> packet);
    /**
     * \param bth a request with an earlier PSN
     * \param packet after the BTH
     */
    void Duplicate(const IbBthHeader& bth, Ptr<Packet> packet);
    /**
     * \param bth a SEND packet \param packet its payload (ImmDt first if any)
     */
    void ExecuteSend(const IbBthHeader& bth, Ptr<Packet> packet);
    /**
     * \param bth a WRITE packet \param packet RETH (first), ImmDt (last), payload
     */
    void ExecuteWrite(const IbBthHeader& bth, Ptr<Packet> packet);
    /**
     * \param bth a READ request \param packet its RETH
     * \param duplicate executed again
     */
    void ExecuteRead(const IbBthHeader& bth, Ptr<Packet> packet, bool duplicate);
    /**
     * \param bth an atomic \param packet its AtomicETH
     */
    void ExecuteAtomic(const IbBthHeader& bth, Ptr<Packet> packet);
    /**
     * Consumes the expected PSN(s): the request was executed (or is being).
     * \param packets PSNs it takes
     * \param ends it ends a message
     */
    void Advance(uint32_t packets, bool ends);
    /**
     * Writes bytes into the receive's SGEs or a WRITE's target, then runs
     * \p done.
     * \param pieces where the bytes go (address and length; lkey unused), in order
     * \param data the bytes
     * \param done runs when all are in host memory
     * \param ackRequest the packet's A bit: acknowledge it whatever the interval
     */
    void Place(const std::vector<RdmaSge>& pieces,
               Ptr<Packet> data,
               std::function<void()> done,
               bool ackRequest);
    /// \param psn an atomic's PSN: its ATOMIC_ACKNOWLEDGE from the responder resources
    void AnswerAtomic(uint32_t psn);
    /**
     * Runs an atomic on host memory and keeps the value before it.
     * \param atomic its AtomicETH \param cas compare and swap (else fetch and add)
     * \param psn its PSN
     */
    void Execute(const IbAtomicEthHeader& atomic, bool cas, uint32_t psn);
    /// \param epoch an epoch a callback was made in \return true if the queue pair is still in it
    bool IsCurrent(uint32_t epoch) const;
    /**
     * Sends an ACK, RNR NAK or NAK.
     * \param kind its kind \param value its value \param psn its PSN
     */
    void Acknowledge(IbAethHeader::Kind kind, uint8_t value, uint32_t psn);
    /**
     * \param psn the request's PSN
     * \param code the NAK's code
     * \param localError the receive request it had claimed ends with this (or SUCCESS: none)
     */
    void Refuse(uint32_t psn, uint8_t code, RdmaWcStatus localError = RdmaWcStatus::SUCCESS);
    /// Makes READ responses while the stage has room.
    void PumpReads();
    /// Hands the responses whose payloads are in, in order, to the transport.
    void ReleaseReads();

    RoceTransport* m_transport;               //!< the RNIC's
    Ptr<RdmaQueuePair> m_qp;                  //!< the queue pair
    uint64_t m_flow;                          //!< its data flow
    uint32_t m_epoch{0};                      //!< the queue pair's epoch of this state
    bool m_started{false};                    //!< the expected PSN set from rq_psn
    uint32_t m_epsn{0};                       //!< the expected PSN
    uint32_t m_msn{0};                        //!< messages completed
    bool m_nakSent{false};                    //!< a sequence NAK was sent for m_epsn
    uint32_t m_sinceAck{0};                   //!< packets since the last ACK
    uint32_t m_claimed{0};                    //!< receive requests claimed, not ended
    Current m_current;                        //!< the message being received
    std::deque<ReadJob> m_reads;              //!< READs to answer
    std::map<uint64_t, Ptr<Packet>> m_staged; //!< responses made, by slot (null: payload pending)
    uint64_t m_nextSlot{0};                   //!< the next response's slot
    uint32_t m_queued{0};                     //!< responses in the transport's queue
    std::map<uint32_t, uint64_t> m_atomics;   //!< original values, by PSN
    std::deque<uint32_t> m_atomicOrder;       //!< their PSNs, oldest first
};

} // namespace ns3

#endif /* ROCE_RESPONDER_H */
