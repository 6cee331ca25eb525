/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_REQUESTER_H
#define ROCE_REQUESTER_H

#include "ns3/data-rate.h"
#include "ns3/drp-congestion-ops.h"
#include "ns3/event-id.h"
#include "ns3/ib-bth-header.h"
#include "ns3/packet.h"
#include "ns3/rdma-verbs-types.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <deque>
#include <map>

namespace ns3
{

class RdmaQueuePair;
class RoceTransport;

/**
 * \ingroup drp
 * \brief The send side of one RoCEv2 RC queue pair: its requests as
 * packets with PSNs, and what comes back for them.
 *
 * It takes the queue pair's send requests in order (RdmaQueuePair::
 * PeekUntaken) and gives each its PSNs: a SEND or RDMA WRITE one per path
 * MTU of payload (FIRST, MIDDLE..., LAST, or ONLY; at least one), an RDMA
 * READ one request whose responses take one PSN per path MTU, an atomic
 * one. A request whose SGEs fail the local checks (RdmaContext::
 * CheckLocal), or an atomic without one 8-byte SGE (LOC_LEN_ERR), ends with
 * that error in its turn and sends nothing. READs and atomics outstanding
 * are at most max_rd_atomic; a fenced request waits for them.
 *
 * Acknowledgements: an ACK for a PSN acknowledges every SEND and WRITE up
 * to it; READ responses and atomic acknowledgements end their requests
 * when their data is in host memory; requests end in order, and a READ not
 * yet answered holds the acknowledged PSN (the go-back point) at its
 * first missing response. The local ACK timeout (4.096 us x 2^timeout;
 * timeout 0: none) runs while PSNs are outstanding, from the last packet
 * sent or the last progress.
 *
 * Go-back-N: a PSN sequence NAK, a READ response after a missing one, or
 * the timeout sends again from the first PSN not acknowledged (a READ from
 * its first missing response, with the RETH moved on as the specification
 * allows); the packets not yet sent are discarded. After retry_cnt
 * timeouts without progress the request at the go-back point ends with
 * RETRY_EXC_ERR. An RNR NAK waits the timer it carries, then sends again
 * from its PSN; after rnr_retry of them (7: without end) the request ends
 * with RNR_RETRY_EXC_ERR. A NAK for an invalid request, a remote access
 * error or a remote operational error ends the request at its PSN with
 * REM_INV_REQ_ERR, REM_ACCESS_ERR or REM_OP_ERR. An error moves the queue
 * pair to ERR, which flushes the rest.
 */
class RoceRequester : public SimpleRefCount<RoceRequester>
{
  public:
    /**
     * \param transport the RNIC's transport (outlives this)
     * \param qp the queue pair
     * \param flow its data flow in the transport
     */
    RoceRequester(RoceTransport* transport, Ptr<RdmaQueuePair> qp, uint64_t flow);
    ~RoceRequester();

    /// The doorbell: take and send what the send queue has.
    void Kick();
    /**
     * A response for this queue pair: ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE or a
     * READ response.
     * \param bth its BTH
     * \param packet what follows the BTH (pad removed)
     */
    void Receive(const IbBthHeader& bth, Ptr<Packet> packet);
    /// Stops its timers and forgets everything (the queue pair is gone).
    void Stop();
    /// \return packets this requester sent again (go-back-N, timeouts, RNR)
    uint32_t GetRetransmissions() const;
    /// A CNP for this queue pair arrived: its congestion control reacts.
    void ReceiveCnp();
    /// \return CNPs this queue pair received
    uint32_t GetCnps() const;
    /// \return local ACK timeouts that expired
    uint32_t GetTimeouts() const;
    /// \return its congestion control (null: none)
    Ptr<DrpCongestionOps> GetCongestionControl() const;

  private:
    /// What a request is on the wire.
    enum Kind : uint8_t
    {
        SEND,   //!< SEND or SEND with immediate
        WRITE,  //!< RDMA WRITE or WRITE with immediate
        READ,   //!< RDMA READ
        ATOMIC, //!< compare and swap, fetch and add
    };

    /// A request taken from the send queue, until it ends.
    struct Message
    {
        uint64_t id{0};                             //!< its number (callbacks find it by it)
        RdmaSendWr wr;                              //!< the request
        Kind kind{SEND};                            //!< its kind
        uint32_t length{0};                         //!< its bytes
        uint32_t firstPsn{0};                       //!< its first PSN
        uint32_t packets{0};                        //!< PSNs it takes
        RdmaWcStatus status{RdmaWcStatus::SUCCESS}; //!< an error, once known
        bool acked{false};                          //!< SEND, WRITE: acknowledged
        uint32_t received{0}; //!< READ, atomic: responses placed or being placed
        uint32_t placing{0};  //!< DMA writes of its data in flight
    };

    /// A packet made and waiting for its payload's DMA read.
    struct Staged
    {
        IbBthHeader bth;     //!< its BTH
        Ptr<Packet> headers; //!< its extension headers (RETH, ImmDt, AtomicETH)
        Ptr<Packet> packet;  //!< the whole packet, once its payload is in
        uint32_t endPsn{0};  //!< one past the PSNs it accounts for (a READ: its responses')
    };

    /// Starts the congestion control, if the RNIC has one, with the first request.
    void StartCongestionControl();
    /// Gives the congestion control the sequence state (acknowledged, sent, next).
    void SetCcSequence();
    /// The congestion control's rate or window changed.
    void OnCongestionOutput();
    /// \return true if the rate limiter lets a packet be made now (else it wakes Pump())
    bool IsDue();
    /// Takes requests and makes packets while the stage has room.
    void Pump();
    /// \return true if a request was taken (or none could be: false)
    bool Take();
    /// \param psn a PSN \return the message it belongs to, or null
    Message* Find(uint32_t psn);
    /// \param m a message \return one past its last PSN
    uint32_t EndPsn(const Message& m) const;
    /**
     * Makes the packet for PSN m_sendPsn and moves the cursor past it.
     * \param m its message
     */
    void MakePacket(Message& m);
    /**
     * \param m a SEND or WRITE
     * \param k its packet's index
     * \return the opcode of that packet
     */
    uint8_t OpcodeOf(const Message& m, uint32_t k) const;
    /**
     * Reads a payload from the request's SGEs (one DMA read per piece).
     * \param m the message
     * \param offset the first byte in the message
     * \param size bytes
     * \param slot where the packet waits in m_staged
     */
    void ReadPayload(const Message& m, uint32_t offset, uint32_t size, uint64_t slot);
    /// Hands the staged packets whose payloads are in, in order, to the transport.
    void Release();
    /**
     * A packet left the port.
     * \param endPsn one past the PSNs it accounts for
     * \param psn its PSN
     * \param bytes its bytes (the IPv4 packet)
     */
    void Sent(uint32_t endPsn, uint32_t psn, uint32_t bytes);
    /// \param id a message's number \return the message, or null if it ended
    Message* FindId(uint64_t id);

    /// \param psn every SEND and WRITE through it is acknowledged
    void AckThrough(uint32_t psn);
    /// Moves the go-back point past what is acknowledged or answered.
    void AdvanceAcked();
    /**
     * \param bth a READ response's BTH
     * \param packet after the BTH
     */
    void ReceiveReadResponse(const IbBthHeader& bth, Ptr<Packet> packet);
    /**
     * \param bth an atomic acknowledgement's BTH
     * \param packet after the BTH
     */
    void ReceiveAtomicAck(const IbBthHeader& bth, Ptr<Packet> packet);
    /**
     * \param m a READ or atomic
     * \param offset the first byte in its local SGEs
     * \param data bytes to place there
     */
    void Place(Message& m, uint32_t offset, Ptr<Packet> data);
    /// Ends the oldest requests that are done, in order.
    void Complete();
    /**
     * \param psn the PSN a request fails at
     * \param status its error
     */
    void Fail(uint32_t psn, RdmaWcStatus status);
    /**
     * Go-back-N: sends again from a PSN.
     * \param psn the first PSN to send again
     */
    void GoBack(uint32_t psn);
    /// (Re)starts the local ACK timeout, or stops it when nothing is outstanding.
    void ArmTimer();
    /// The local ACK timeout expired.
    void Timeout();
    /// An RNR NAK's wait ended.
    void RnrWaitOver();
    /// \return true if the queue pair was flushed or reset since (state forgotten)
    bool Stale();

    RoceTransport* m_transport;     //!< the RNIC's
    Ptr<RdmaQueuePair> m_qp;        //!< the queue pair
    uint64_t m_flow;                //!< its data flow
    uint32_t m_epoch{0};            //!< the queue pair's epoch of this state
    bool m_started{false};          //!< PSNs set from sq_psn
    std::deque<Message> m_messages; //!< taken, in order
    uint32_t m_nextPsn{0};          //!< the next request's first PSN
    uint32_t m_sendPsn{0};          //!< the next PSN to send
    uint32_t m_ackPsn{0};           //!< the first PSN not acknowledged (go-back point)
    uint32_t m_ackedThrough{0};     //!< one past the highest PSN an ACK covered
    uint32_t m_highestSent{0};      //!< one past the highest PSN sent (for retransmission counts)
    uint32_t m_retransmissions{0};  //!< packets sent again
    uint32_t m_cnps{0};             //!< CNPs received
    uint32_t m_timeouts{0};         //!< local ACK timeouts expired
    uint32_t m_generation{0};       //!< changes on each go-back
    uint64_t m_nextId{0};           //!< the next message's number
    std::map<uint64_t, Staged> m_staged; //!< made, payload pending or ready, by slot
    uint64_t m_nextSlot{0};              //!< the next staged packet's slot
    uint32_t m_queued{0};                //!< packets in the transport's queue
    uint32_t m_retries{0};               //!< timeouts since the last progress
    uint32_t m_rnrRetries{0};            //!< RNR NAKs since the last progress
    bool m_rnrWait{false};               //!< waiting out an RNR NAK
    bool m_readGap{false};               //!< a missing READ response was asked for again
    bool m_pumping{false};               //!< Pump() is running
    EventId m_timer;                     //!< the local ACK timeout
    EventId m_rnrTimer;                  //!< the RNR wait
    Ptr<DrpCongestionOps> m_cc;          //!< its congestion control, or null
    DataRate m_rate;                     //!< the rate limiter's rate (0: unpaced)
    uint32_t m_ccWindow{0};              //!< packets outstanding at most (0: no limit)
    Time m_nextDue;                      //!< the rate limiter lets the next packet be made
    EventId m_paceTimer;                 //!< wakes Pump() when a packet is due
    std::map<uint32_t, Time> m_sentAt;   //!< first departures of outstanding PSNs (RTT samples)
};

} // namespace ns3

#endif /* ROCE_REQUESTER_H */
