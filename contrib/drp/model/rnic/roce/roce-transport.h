/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_TRANSPORT_H
#define ROCE_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/drp-congestion-ops.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/rdma-verbs-provider.h"
#include "ns3/rnic-transport.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>
#include <map>
#include <vector>

namespace ns3
{

class PcieLink;
class RdmaContext;
class RdmaQueuePair;
class RnicNetDevice;
class RoceRequester;
class RoceResponder;
class IbBthHeader;

/**
 * \ingroup drp
 * \brief RoCEv2's reliable-connected transport: what a RoCE NIC runs under
 * its queue pairs (the InfiniBand Architecture Specification, volume 1,
 * chapter 9, and its annex A17), the method "roce" beside DRP's two.
 *
 * One per RNIC whose method is roce, aggregated to it by the first
 * RdmaContext::Open() there; it is the verbs' provider on that RNIC. Each
 * RC queue pair has a requester (RoceRequester: its send queue's messages
 * as packets with PSNs, acknowledgements, go-back-N, timers, RNR waits)
 * and a responder (RoceResponder: the expected PSN, placement, the receive
 * queue, READ responses, atomics, ACKs and NAKs). This class is what they
 * share: the port, PCIe, the frames' RoCEv2 encapsulation, and the demux of
 * arriving frames to queue pairs.
 *
 * Memory is registered before use (RdmaContext::RegMr): no handshake, no
 * per-operation registration; the responder checks the R_Key, bounds and
 * access of each request against the registered regions.
 *
 * \par Frames
 * Every packet is a RoCEv2 frame (RoceV2Frame): IPv4 between the RNICs'
 * RoCEv2 addresses, UDP to port 4791 from a source port hashed from the two queue
 * pairs' numbers as Linux does (ECMP entropy: GetUdpSourcePort), the BTH and the extension headers
 * its opcode carries (IbOpcode), the payload padded to 4 bytes (PadCnt), the ICRC. A frame that
 * fails RoCEv2's checks (IP checksum, ICRC), carries an unknown opcode, or is for no queue pair of
 * this RNIC connected to its sender (or one not in RTR, RTS or SQD) is dropped and counted (Drop).
 *
 * \par The port
 * The port pulls the transport's frames as it pulls DRP's: acknowledgements
 * and NAKs (control) first, in the order made; data packets (requests and
 * READ responses) one flow in turn, each queue pair's requester and
 * responder a flow. A flow has at most the RNIC's transmit engine's
 * TxPrefetchPerTransfer packets read ahead from host memory (a DMA read
 * per packet, issued when the packet is made; the NIC profiles set it); the
 * requester's timers start when its packets leave the port. With PFC, data
 * go in the RNIC's DrpClass and acknowledgements in DrpControlClass.
 */
class RoceTransport : public RdmaVerbsProvider, public RnicTransport
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RoceTransport();
    ~RoceTransport() override;

    /**
     * \param rnic an RNIC whose method is roce
     * \return its transport, made, aggregated and given the port on first use
     */
    static Ptr<RoceTransport> Attach(Ptr<RnicNetDevice> rnic);

    // RdmaVerbsProvider
    void Bind(Ptr<RdmaQueuePair> qp) override;
    void Unbind(Ptr<RdmaQueuePair> qp) override;

    // RnicTransport: the port's side. DequeueFrame gives the IPv4 packet;
    // control frames are acknowledgements, NAKs and CNPs. Receive takes a
    // RoCEv2 frame for a queue pair other than 1 (the GSI's are the
    // connection manager's).
    void SetFrameReadyCallback(Callback<void> ready) override;
    bool HasFrameToSend(uint8_t kinds = DrpTxScheduler::ANY) const final;
    Ptr<Packet> DequeueFrame(Mac48Address& to,
                             uint8_t kinds = DrpTxScheduler::ANY,
                             bool* control = nullptr) final;
    /// \return IPv4's EtherType
    uint16_t GetEtherType() const final;
    void Receive(Ptr<Packet> packet, Mac48Address from) override;

    // The requesters' and responders' side.

    /// Runs when a data packet leaves the port.
    typedef std::function<void()> SentCallback;
    /**
     * Wraps a transport packet in RoCEv2 and queues it for the port.
     * \param qp the queue pair that sends it
     * \param packet BTH onwards (no ICRC)
     * \param flow its flow (a data packet), or 0 (an acknowledgement: control)
     * \param sent runs when it leaves (data only; may be empty)
     */
    void Emit(Ptr<RdmaQueuePair> qp, Ptr<Packet> packet, uint64_t flow, SentCallback sent);
    /**
     * Puts a BTH for the queue pair's peer in front of a control packet
     * (an acknowledgement, an atomic acknowledgement, a CNP) and queues it
     * as control (Emit() with flow 0).
     * \param qp the queue pair that sends it
     * \param packet what follows the BTH
     * \param opcode its opcode
     * \param psn its PSN
     * \param becn BECN (a CNP's)
     */
    void EmitControl(Ptr<RdmaQueuePair> qp,
                     Ptr<Packet> packet,
                     uint8_t opcode,
                     uint32_t psn,
                     bool becn = false);
    /**
     * Discards a flow's data packets not yet sent (go-back-N).
     * \param flow the flow
     * \return packets discarded
     */
    uint32_t Discard(uint64_t flow);
    /// \return the RNIC's PCIe link
    Ptr<PcieLink> GetPcie() const;
    /**
     * The UDP source port of a queue pair's frames, its ECMP entropy, as
     * Linux computes it (rdma_calc_flow_label, rdma_flow_label_to_udp_sport):
     * a hash of the two queue pairs' numbers, in 0xc000 to 0xffff.
     * \param localQpn the sending queue pair \param remoteQpn its peer
     * \return the port
     */
    static uint16_t GetUdpSourcePort(uint32_t localQpn, uint32_t remoteQpn);
    /**
     * \param qp a queue pair
     * \return its path MTU, at most the port's active MTU
     *         (RnicNetDevice::GetRoceActiveMtu), as a RoCE NIC clamps it
     */
    uint32_t GetPathMtu(Ptr<RdmaQueuePair> qp) const;
    /// \return data packets a flow may have read ahead: the RNIC's
    ///         transmit engine's DrpTransport::TxPrefetchPerTransfer
    uint32_t GetStage() const;
    /// \return AckInterval: the responder acknowledges every this many packets
    uint32_t GetAckInterval() const;
    /// \return the port's line rate
    DataRate GetLineRate() const;
    /**
     * \return a Fork() of the RNIC's congestion control (its DRP engine's
     *         CongestionControl: one setting for both transports), or null
     */
    Ptr<DrpCongestionOps> ForkCongestionControl() const;
    /**
     * Counts and traces a packet dropped on arrival.
     * \param packet what was dropped
     * \param reason why
     */
    void Drop(Ptr<const Packet> packet, const std::string& reason);
    /// \param psn a retransmitted packet's PSN: counted and traced
    void CountRetransmission(uint32_t psn);
    /// \param rnr true for an RNR NAK: a NAK the responders sent, counted
    void CountNak(bool rnr);
    /// An atomic was executed here as responder: counted
    void CountAtomic();
    /// \return atomics executed here as responder
    uint64_t GetAtomics() const;

    /// \return frames dropped on arrival
    uint64_t GetDropped() const;
    /// \return packets sent again (go-back-N, timeouts, RNR)
    uint64_t GetRetransmissions() const;

    /// What one queue pair's requester counted.
    struct QpCounters
    {
        uint32_t retransmissions{0}; //!< packets sent again
        uint32_t cnps{0};            //!< CNPs received
        uint32_t timeouts{0};        //!< local ACK timeouts that expired
    };

    /**
     * \param qp a queue pair bound here
     * \return its requester's counters (all 0 for one not bound)
     */
    QpCounters GetCounters(Ptr<RdmaQueuePair> qp) const;
    /// \return NAKs the responders sent (sequence errors, invalid requests, access errors)
    uint64_t GetNaks() const;
    /// \return RNR NAKs the responders sent
    uint64_t GetRnrNaks() const;
    /// \return CNPs this RNIC sent (as notification point)
    uint64_t GetCnpsSent() const;
    /// \return CNPs this RNIC received (as reaction point)
    uint64_t GetCnpsReceived() const;

    /**
     * TracedCallback signature for drops.
     * \param packet the dropped packet
     * \param reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

  protected:
    void DoDispose() override;

  private:
    /// One queue pair's two halves.
    struct Qp
    {
        Ptr<RdmaQueuePair> qp;        //!< the queue pair
        Ptr<RoceRequester> requester; //!< its send side
        Ptr<RoceResponder> responder; //!< its receive side
        uint64_t flow{0};             //!< the requester's flow; the responder's is the next
        Time lastCnp{Time::Min()};    //!< when it last sent a CNP
    };

    /// A frame waiting for the port.
    struct Frame
    {
        Ptr<Packet> packet; //!< the IPv4 packet
        Mac48Address to;    //!< destination
        SentCallback sent;  //!< runs when it leaves (may be empty)
    };

    /// \param qp a queue pair \return its halves, or null
    Qp* Find(Ptr<RdmaQueuePair> qp);
    /**
     * \param qpn a queue-pair number
     * \param from the sender
     * \return the queue pair of this RNIC with that number connected to it, or null
     */
    Qp* FindConnected(uint32_t qpn, Mac48Address from);
    /// \param qp a queue pair whose send queue has new requests (its doorbell)
    void Kick(Ptr<RdmaQueuePair> qp);
    /**
     * A CE-marked packet arrived for a queue pair: it sends its peer a CNP,
     * at most one per the RNIC's CnpInterval.
     * \param halves the queue pair
     */
    void NotifyCongestion(Qp& halves);
    /**
     * A CNP arrived: the queue pair it names slows down (its requester's
     * congestion control).
     * \param bth its BTH \param packet what follows it \param from the sender
     */
    void ReceiveCnp(const IbBthHeader& bth, Ptr<Packet> packet, Mac48Address from);
    /// \param qp a queue pair \return its peer's RoCEv2 address (cached)
    Ipv4Address PeerAddress(Ptr<RdmaQueuePair> qp);

    Ptr<RnicNetDevice> m_rnic;                              //!< the RNIC
    Callback<void> m_frameReady;                            //!< the port's
    std::map<Ptr<RdmaQueuePair>, Qp> m_qps;                 //!< bound queue pairs
    std::multimap<uint32_t, Ptr<RdmaQueuePair>> m_byNumber; //!< bound queue pairs by number
    std::map<uint64_t, Ipv4Address> m_peers;                //!< RoCEv2 addresses by MAC
    std::deque<Frame> m_control;                            //!< acknowledgements
    std::map<uint64_t, std::deque<Frame>> m_data;           //!< data packets by flow
    uint64_t m_nextFlow{1};                                 //!< the next flow id
    uint64_t m_lastFlow{0};                                 //!< the flow served last (round robin)
    bool m_dequeuing{false};                                //!< the port is taking a frame
    uint32_t m_ackInterval;                                 //!< attribute
    uint64_t m_dropped{0};                                  //!< frames dropped
    uint64_t m_retransmissions{0};                          //!< packets sent again
    uint64_t m_naks{0};                                     //!< NAKs sent
    uint64_t m_rnrNaks{0};                                  //!< RNR NAKs sent
    uint64_t m_atomics{0};                                  //!< atomics executed as responder
    uint64_t m_cnpsSent{0};                                 //!< CNPs sent
    uint64_t m_cnpsReceived{0};                             //!< CNPs received
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace; //!< drops
    TracedCallback<uint32_t> m_retransmitTrace;                        //!< retransmitted PSNs
};

} // namespace ns3

#endif /* ROCE_TRANSPORT_H */
