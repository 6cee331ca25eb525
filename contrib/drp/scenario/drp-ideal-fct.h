/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_IDEAL_FCT_H
#define DRP_IDEAL_FCT_H

#include "ns3/ethernet-net-device.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class PcieLink;
class RdmaHostApplication;

/**
 * \ingroup drp
 * \brief The ideal flow-completion time of a write between two hosts: what
 * the transfer takes alone on the empty path, its first registration
 * succeeding. A transfer's slowdown is its FCT divided by this.
 *
 * The field's simulators compute the ideal from rates, framing and the
 * path's hops (HPCC: base RTT plus bytes at the bottleneck rate). A DRP
 * transfer also sets up and releases a connection, registers memory and
 * crosses PCIe, so its ideal adds those, each from the attribute of the part
 * that spends it. Alone on an empty path the traditional and the dynamic
 * RNIC take the same time (a valid reply arrives before any timer fires, so
 * both go direct), so one ideal serves both methods, and their slowdowns
 * compare like their FCTs. The critical path, in order:
 *
 * 1. doorbell: the initiator's PcieLink::Latency;
 * 2. the request crosses the path (see "crossing" below);
 * 3. the responder: interrupt (Latency), registration
 *    (RdmaHostApplication::GetRegistrationTime of the region), doorbell;
 * 4. the valid reply crosses back;
 * 5. the initiator: interrupt, HandlerLatency, doorbell;
 * 6. the data: n = ceil(bytes / PayloadSize) frames, the last one shorter
 *    if the size says so. Each is DMA-read (PcieLink: DmaSetupTime plus
 *    its TLPs' serialisation per request, one engine, plus twice Latency),
 *    processed (TxProcessingCycles), sent store-and-forward along the path
 *    (a port sends the next frame a slot after the last one, inter-frame
 *    gap included, the slot's rest below a nanosecond carried from frame
 *    to frame as the port carries it: EthernetNetDevice::GetSlotTime),
 *    received (RxProcessingCycles, one frame at a time) and DMA-written
 *    (DmaSetupTime plus serialisation, one engine, plus Latency); a frame
 *    is acknowledged when its write has landed (an acknowledgement, too,
 *    waits for the one before it at a busy port and in the initiator's
 *    receive engine, one frame at a time), and the sender reads a frame
 *    only once fewer than Window frames are unacknowledged;
 * 7. the last frame's acknowledgement crosses back, the release request
 *    crosses, the release reply crosses back;
 * 8. the completion interrupt (Latency).
 *
 * A crossing of a frame of s bytes is the sender's TxProcessingCycles, the
 * sum over the path's links of (preamble + s) byte times at the link's rate
 * (EthernetNetDevice::GetFrameTxTime) plus the cable's delay, and the
 * receiver's RxProcessingCycles. Control frames carry the DRP header alone
 * (padded to Ethernet's 64-byte minimum).
 *
 * The data phase (step 6) is computed frame by frame, as a recurrence over
 * the path's stages (the earliest time each frame can leave each stage), so
 * the bottleneck, be it a port, the DMA read engine, the receive engine or
 * the window, shows by itself; the full frames' times are kept once computed
 * (a long workload asks for many sizes over one path). The measured FCT of
 * a transfer alone on an empty fabric equals this to the nanosecond
 * (drp-fabric suite: 1 to 5 switches, 1 to 400 Gbps, the paper's card and
 * server profiles; the ports' carried rests start from those of the request
 * and the reply, as on ports that have carried nothing else); it does not
 * hold for reads (the
 * responder sends the data after a three-way handshake), which Get() refuses.
 * \par RoCE
 * When the initiator's RNIC runs the roce method, its transfers are RDMA
 * WRITEs on a queue pair connected, and memory registered, beforehand
 * (VerbsTransferEngine): no handshake, no registration, no release. The
 * ideal is then the queue pair's doorbell (PCIe Latency), the packets
 * (path MTU payloads, RoCEv2 framing: IPv4, UDP, BTH, the first packet's
 * RETH, the payload padded to 4 bytes, ICRC) through the same stages with
 * no processing time of the transport's own, a packet read only once the
 * one TxPrefetchPerTransfer before it has left the port (the transmit
 * engine's read-ahead, RoCE's only limit on packets in flight), each
 * acknowledged (an AETH) once its write has landed, and the completion's
 * interrupt (Latency) after the last acknowledgement.
 */
class DrpIdealFct
{
  public:
    /**
     * Reads the parameters of both hosts, their RNICs and the path now:
     * later changes of those attributes are not seen.
     * \param initiator the host that writes
     * \param responder the host written to
     * \param forward the devices that transmit a frame from initiator to
     *        responder, in order (the initiator's RNIC first;
     *        FabricHelper::GetPath())
     * \param backward the same from responder to initiator
     */
    DrpIdealFct(Ptr<RdmaHostApplication> initiator,
                Ptr<RdmaHostApplication> responder,
                std::vector<Ptr<EthernetNetDevice>> forward,
                std::vector<Ptr<EthernetNetDevice>> backward);

    /**
     * \param bytes the transfer's length (at least 1)
     * \param address the responder's region (its pages decide the
     *        registration time)
     * \return the ideal FCT of a write of \p bytes to \p address
     */
    Time GetWrite(uint32_t bytes, uint64_t address = 0) const;

  private:
    /// A frame's times on the devices of a path.
    struct PathTimes
    {
        std::vector<Time> departures; //!< it leaves each device
        std::vector<Time> free;       //!< each device may send the next frame
        /// each device's carried slot rest after it (EthernetNetDevice::GetSlotTime)
        std::vector<uint64_t> carries;
    };

    /// The earliest times one data frame leaves each stage (step 6).
    struct FrameTimes
    {
        PathTimes data;    //!< it on the forward path
        Time readDone;     //!< DMA read engine is done with it
        Time received;     //!< the responder's receive engine is done with it
        Time written;      //!< the responder's write engine is done with it
        PathTimes ack;     //!< its acknowledgement on the backward path
        Time acknowledged; //!< its acknowledgement reaches the initiator
    };

    /**
     * \param payload data bytes in the frame
     * \param previous the frame before it (null: the first)
     * \param windowOpen the earliest time the window lets it be read
     * \return its times, data starting at time 0
     */
    FrameTimes Next(uint32_t payload, const FrameTimes* previous, Time windowOpen) const;
    /**
     * \param index a frame index (0: the first), all frames before it full
     * \param payload data bytes in that frame
     * \return its times, data starting at time 0 (full frames are kept)
     */
    FrameTimes Frame(uint32_t index, uint32_t payload) const;
    /**
     * Passes a frame store and forward along a path: each device sends it
     * once it has arrived and the device has had the slot of the frame
     * before it (gap included, its nanoseconds' rest carried from frame to
     * frame as the device carries it).
     * \param forward true: the forward path; false: the backward one
     * \param size the frame's Ethernet size (header and FCS included)
     * \param ready when it is ready at the first device
     * \param previous the devices after the frame before it
     * \param times set to its times on the path
     * \return when its last bit reaches the end of the path
     */
    Time Pass(bool forward,
              uint32_t size,
              Time ready,
              const PathTimes& previous,
              PathTimes& times) const;
    /**
     * \param forward true: the forward path; false: the backward one
     * \return the devices of the path after a control frame alone (the
     *         request before the data, the reply before the
     *         acknowledgements): free, with that frame's carried rests
     */
    PathTimes AfterControl(bool forward) const;
    /**
     * \param forward true: the forward path; false: the backward one
     * \return its devices as they are before any frame: free, no rest carried
     */
    PathTimes Idle(bool forward) const;
    /**
     * \param forward true: the forward path; false: the backward one
     * \return the time a control frame alone takes along it, stage delays excluded
     */
    Time Crossing(bool forward) const;
    /**
     * \param path transmitting devices
     * \return their cables' delays (aborts if a cable is no EthernetChannel)
     */
    static std::vector<Time> Delays(const std::vector<Ptr<EthernetNetDevice>>& path);
    /**
     * \param payload data bytes (0: a control frame, or RoCE's acknowledgement)
     * \param first the message's first packet (RoCE: it carries the RETH)
     * \return the Ethernet frame size of a DRP frame, or a RoCEv2 one
     */
    uint32_t FrameSize(uint32_t payload, bool first = false) const;
    /**
     * \param earlier the frame a window's length before
     * \return when it lets the next frame be read: DRP, its acknowledgement
     *         reached the initiator; RoCE, it left the port (read-ahead)
     */
    Time WindowOpen(const FrameTimes& earlier) const;

    Ptr<RdmaHostApplication> m_responder;           //!< registers the region
    std::vector<Ptr<EthernetNetDevice>> m_forward;  //!< initiator to responder
    std::vector<Ptr<EthernetNetDevice>> m_backward; //!< responder to initiator
    std::vector<Time> m_forwardDelays;              //!< forward cables' delays
    std::vector<Time> m_backwardDelays;             //!< backward cables' delays
    bool m_roce;                                    //!< the RoCE method (no handshake)
    uint32_t m_payloadSize;                         //!< data bytes per full frame
    uint32_t m_window;                              //!< frames unacknowledged at most
    Time m_initiatorPcie;                           //!< initiator's PCIe latency
    Time m_responderPcie;                           //!< responder's PCIe latency
    Time m_handler;                                 //!< initiator's HandlerLatency
    Time m_initiatorTx;                             //!< initiator's transmit processing
    Time m_initiatorRx;                             //!< initiator's receive processing
    Time m_responderTx;                             //!< responder's transmit processing
    Time m_responderRx;                             //!< responder's receive processing
    Time m_readSetup;                               //!< initiator's DmaSetupTime
    Time m_writeSetup;                              //!< responder's DmaSetupTime
    Ptr<PcieLink> m_readLink;                       //!< initiator's PCIe link
    Ptr<PcieLink> m_writeLink;                      //!< responder's PCIe link
    PathTimes m_afterRequest;                       //!< forward path after the request
    PathTimes m_afterReply;                         //!< backward path after the reply
    mutable std::vector<FrameTimes> m_full;         //!< full frames' times, by index
};

} // namespace ns3

#endif /* DRP_IDEAL_FCT_H */
