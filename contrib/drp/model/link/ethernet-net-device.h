/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_NET_DEVICE_H
#define ETHERNET_NET_DEVICE_H

#include "ethernet-arrival-event.h"
#include "recurring-event.h"
#include "tx-time-cache.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

namespace ns3
{

class EthernetChannel;
class ErrorModel;
class Node;

/**
 * \ingroup drp
 * \brief One port of a full-duplex, switched Ethernet link (Ethernet II framing).
 *
 * The device talks to exactly one peer through an EthernetChannel (a cable).
 * Each direction of the cable is independent: every device has its own
 * transmit state machine (READY / BUSY) and its own transmit queue
 * (attribute TxQueue), and never defers to the peer. There is no carrier
 * sense, no collision and no backoff.
 *
 * \par Framing
 * Send() and SendFrom() prepend an EthernetHeader (destination, source,
 * length/type), pad a payload shorter than MIN_PAYLOAD_SIZE (46 bytes) with
 * zero bytes up to it, as a real MAC does, and append an EthernetTrailer, so a
 * frame in the queue, on the channel and in a pcap file is 14 +
 * max(46, payload) + 4 bytes: never shorter than MIN_FRAME_SIZE (64). The
 * receiver hands the padding up with the payload, as a real NIC does: a
 * protocol that carries its own length (IPv4, DRP) ignores it. The FCS is a
 * real CRC-32 when ComputeFcs is true or Node::ChecksumEnabled() (read once,
 * at the device's first frame: set it before the simulation runs), and zero
 * otherwise, which saves its cost per frame; EthernetHelper's pcap and ascii
 * tracing turn ComputeFcs on, so captures carry correct FCSs. A received FCS is
 * checked only when Node::ChecksumEnabled() (ComputeFcs is about the frames a
 * device sends: a peer without it sends zero FCSs). The length/type field
 * always carries the EtherType given to Send() (Ethernet II / DIX framing),
 * also for values of 1500 and below such as DRP's 0x01FF: the device never
 * interprets the field as an IEEE 802.3 length and never adds or expects
 * LLC/SNAP. (A pcap dissector may nevertheless decode a frame whose type is <=
 * 1500 as 802.3; contrib/drp/wireshark/drp.lua decodes DRP frames.)
 *
 * \par Time on the wire
 * A frame of \c s = 14 + max(46, payload) + 4 bytes (so \c s >= 64) keeps the
 * transmitter busy for
 * \verbatim
   PREAMBLE_SFD_SIZE (8) + max(MIN_FRAME_SIZE (64), s) + InterframeGap (12 by default)
 \endverbatim
 * byte times at DataRate (see GetWireSize() and GetSlotTime()). The frame is
 * handed to the peer's Receive() when its last bit has arrived, i.e.
 * (8 + max(64, s)) byte times plus the channel's Delay after its first bit
 * left; the inter-frame gap is idle time on the wire that only delays the
 * next frame of the same transmitter (see GetFrameTxTime()). At 1 Gbps and a
 * zero Delay, a 1000-byte payload arrives 8208 ns after it starts and
 * back-to-back frames of that size start every 8304 ns.
 *
 * \par Reception
 * Receive() (called by the channel) fires PhyRxEnd, applies the
 * ReceiveErrorModel (a drop fires PhyRxDrop and counts in
 * GetReceiveErrorDrops()), checks the FCS (a wrong one fires PhyRxDrop and
 * counts in GetFcsErrorDrops()), removes header and trailer and
 * classifies the frame as NetDevice::PACKET_BROADCAST, PACKET_MULTICAST,
 * PACKET_HOST or PACKET_OTHERHOST exactly as CsmaNetDevice does. It then
 * fires the sniffer and MAC receive traces (so they see every frame,
 * whoever consumes it) and calls DeliverUp(), the hook through which a
 * subclass claims its own frames.
 *
 * \par Bridging
 * SupportsSendFrom() is true and the promiscuous callback sees every frame
 * with its PacketType while the normal receive callback only sees frames that
 * are not PACKET_OTHERHOST, so the device can be a port of ns-3's
 * BridgeNetDevice (an Ethernet switch).
 *
 * \par Traffic control
 * When a NetDeviceQueueInterface is aggregated to the device (EthernetHelper
 * does this unless its flow control is disabled), the device connects the
 * interface's transmit queue to the TxQueue's traces, so the queue disc
 * above is stopped when the TxQueue cannot take another MTU-sized frame and
 * woken when it can again (NotifyNewAggregate(), SetQueue()). The queue
 * holds whole frames (payload + 18 bytes): a queue limited in bytes counts
 * the header and FCS, while the interface's check uses the MTU alone.
 *
 * \par Priority flow control (IEEE 802.1Qbb)
 * Off by default (attribute PfcEnabled); off, the port has its one TxQueue
 * and treats a MAC Control frame (EtherType 0x8808) as any other frame. On:
 * - eight classes, each with its transmit queue: class 0's is the TxQueue
 *   (so the queue interface above watches class 0), classes 1 to 7 get
 *   theirs from the PfcQueue factory when first used;
 * - a frame's class is the priority of its SocketPriorityTag (ns-3's
 *   packet tag for a socket's priority, which stands for the 802.1Q PCP
 *   here: nothing changes on the wire) if it is 0 to 7, else
 *   PfcDefaultClass; packet tags survive copies, so a switch forwards a
 *   frame in the class it arrived in;
 * - the transmitter sends a pending pause frame first, then the highest
 *   class that is not paused and has a frame (strict priority); a frame
 *   already on the wire always finishes;
 * - a received PFC frame (PfcHeader, to 01:80:C2:00:00:01) pauses each
 *   class whose enable bit is set for its time x 512 bit times at DataRate
 *   from its arrival (0: resume at once; a newer time replaces the rest),
 *   is counted and never handed up; a malformed or foreign MAC Control
 *   frame is dropped and counted (GetMalformedPauseDrops());
 * - the owner of the port (a switch's buffer) pauses the peer through
 *   SetClassPaused() (XOFF: a pause of PfcPauseQuanta at once, refreshed
 *   at half its time while the condition lasts; XON: a zero time) or
 *   SendPause(). Pending pauses of several classes leave in one frame.
 *
 * \par In-band telemetry
 * Off by default (InbandTelemetry). On, a switch port appends a hop to each
 * frame that carries telemetry (HPCC's INT) as the frame starts on its
 * wire: its line rate, the time, the bytes it had put on the wire before
 * the frame (GetTxBytes(): preamble and gap included, so that a busy port
 * reads as fully used) and the bytes waiting in its queues after it left. The
 * port knows no protocol above Ethernet: the frame's EtherType names a
 * stamper registered with SetTelemetryStamper() (RnicNetDevice registers
 * DRP's, DrpIntHeader::Stamp). A stamped frame is a copy (the frame may be
 * held by a capture); its FCS is computed again when it carried one.
 * \par PFC watchdog
 * Off by default (PfcWatchdogTime 0). A peer that never stops pausing (a
 * NIC whose receive path hangs: a "pause storm") would hold the class, and
 * through the buffers behind it the whole fabric, for ever; switches guard
 * against it with a watchdog (SONiC's pfcwd; Guo et al., "RDMA over
 * Commodity Ethernet at Scale", SIGCOMM 2016), modelled here as they
 * describe it:
 * - detection: a class the peer has held paused without a break for
 *   PfcWatchdogTime while frames wait in its queue is in a storm (checked
 *   when a pause frame arrives, which a storm keeps doing: no event of its
 *   own);
 * - mitigation: from then the class ignores the peer's pauses; with
 *   PfcWatchdogAction DROP (SONiC's default) its waiting frames are discarded
 *   and so is every frame queued for it while the storm lasts (SendFrom()
 *   returns false); with FORWARD they are sent as if no pause had come;
 *   counted (GetPfcWatchdogDrops(), GetPfcStorms()) and traced (PfcStorm);
 * - restoration: once no pause has come for PfcWatchdogRestoreTime (0: twice
 *   PfcWatchdogTime, as SONiC's `config pfcwd start` defaults) and the last
 *   one would have run out (a peer that refreshes a long pause at half its
 *   time is still storming between refreshes), the class honours pauses
 *   again (checked when a pause arrives or a frame of the class is queued,
 *   the moments the difference shows).
 * Not modelled: IEEE 802.3x global PAUSE (opcode 0x0001 is dropped as
 * foreign), the delay a real MAC takes to act on a pause, any buffer
 * accounting (the owner decides when to pause).
 */
class EthernetNetDevice : public NetDevice
{
  public:
    /// Bytes of preamble and start-of-frame delimiter sent before every frame.
    static constexpr uint32_t PREAMBLE_SFD_SIZE = 8;
    /// Minimum frame size (header to FCS); shorter payloads are padded to reach it.
    static constexpr uint32_t MIN_FRAME_SIZE = 64;
    /// Bytes of the Ethernet II header (destination, source, type).
    static constexpr uint32_t HEADER_SIZE = 14;
    /// Bytes of the frame check sequence.
    static constexpr uint32_t FCS_SIZE = 4;
    /// Minimum payload (46 bytes): shorter payloads get zero padding up to it.
    static constexpr uint32_t MIN_PAYLOAD_SIZE = MIN_FRAME_SIZE - HEADER_SIZE - FCS_SIZE;
    /// Default MTU (largest payload), in bytes.
    static constexpr uint16_t DEFAULT_MTU = 1500;
    /// Smallest accepted MTU: the payload of a minimum-size frame.
    static constexpr uint16_t MIN_MTU = 46;
    /// Largest accepted MTU: the largest jumbo MTU common switches accept.
    static constexpr uint16_t MAX_MTU = 9216;
    /// Number of priority flow control classes.
    static constexpr uint8_t PFC_CLASSES = 8;

    /**
     * TracedCallback signature for pause frames sent or received, once per
     * class whose enable bit the frame sets.
     * \param cls the class, 0 to 7
     * \param quanta the pause time, in quanta of 512 bit times (0: resume)
     */
    typedef void (*PauseTracedCallback)(uint8_t cls, uint16_t quanta);

    /**
     * TracedCallback signature for the PFC watchdog.
     * \param cls the class, 0 to 7
     * \param storm true: a storm was detected; false: the class is restored
     */
    typedef void (*PfcStormTracedCallback)(uint8_t cls, bool storm);

    /// What the PFC watchdog does with a class in a pause storm.
    enum PfcWatchdogAction
    {
        PFC_WATCHDOG_DROP,   //!< discard its frames (SONiC's default)
        PFC_WATCHDOG_FORWARD //!< send them, ignoring the pauses
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EthernetNetDevice();
    ~EthernetNetDevice() override;

    // Delete copy constructor and assignment operator to avoid misuse
    EthernetNetDevice(const EthernetNetDevice&) = delete;
    EthernetNetDevice& operator=(const EthernetNetDevice&) = delete;

    /**
     * \brief Attach the device to a cable (one of its two ends).
     *
     * The link is reported up from then on.
     * \param channel the cable
     * \return true
     */
    bool Attach(Ptr<EthernetChannel> channel);

    /**
     * \brief Set the transmit queue.
     *
     * If a NetDeviceQueueInterface is already aggregated, its transmit
     * queue is connected to the new queue's traces.
     * \param queue the queue of frames waiting for the transmitter
     */
    void SetQueue(Ptr<Queue<Packet>> queue);
    /// \return the transmit queue (null before one is set)
    Ptr<Queue<Packet>> GetQueue() const;

    /// \param rate the line rate of the transmitter
    void SetDataRate(DataRate rate);
    /// \return the line rate of the transmitter
    DataRate GetDataRate() const;

    /// \param bytes the inter-frame gap, in byte times at the DataRate
    void SetInterframeGap(uint32_t bytes);
    /// \return the inter-frame gap, in byte times at the DataRate
    uint32_t GetInterframeGap() const;
    /**
     * \brief Lets the transmitter leave the end of a slot unscheduled when
     * nothing waits behind the frame (see TransmitStart()): the attribute
     * SlotEndOnDemand. Off by default: the same frames leave at the same
     * times, but an end scheduled when a frame is offered later runs after,
     * not before, the other events of its nanosecond that were scheduled in
     * between, so ties of one nanosecond (which frame a full queue drops,
     * which DMA request the PCIe engine takes first) may go the other way.
     * \param onDemand true to schedule the end only when needed
     */
    void SetSlotEndOnDemand(bool onDemand);
    /// \return true if the end of a slot is scheduled only when needed
    bool GetSlotEndOnDemand() const;

    /**
     * \param compute true: the trailer of every frame this device sends
     *        carries the CRC-32 of the frame (ComputeFcs); false: a zero FCS,
     *        unless Node::ChecksumEnabled()
     */
    void SetComputeFcs(bool compute);
    /// \return the ComputeFcs attribute
    bool GetComputeFcs() const;
    /// \return true if frames this device sends carry a computed FCS
    bool IsFcsComputed() const;

    /// \param em the error model applied to every received frame (null: none)
    void SetReceiveErrorModel(Ptr<ErrorModel> em);
    /// \return the receive error model (may be null)
    Ptr<ErrorModel> GetReceiveErrorModel() const;

    /**
     * \brief Bytes a frame occupies on the wire, gap included.
     * \param frameSize the frame size, header and FCS included (14 + payload + 4)
     * \return PREAMBLE_SFD_SIZE + max(MIN_FRAME_SIZE, frameSize) + InterframeGap
     */
    uint32_t GetWireSize(uint32_t frameSize) const;
    /**
     * \brief Time from a frame's first bit to its last bit (the gap excluded).
     * \param frameSize the frame size, header and FCS included (14 + payload + 4)
     * \return (PREAMBLE_SFD_SIZE + max(MIN_FRAME_SIZE, frameSize)) byte times
     */
    Time GetFrameTxTime(uint32_t frameSize) const;
    /**
     * \brief Time the transmitter is busy with one frame, the gap included.
     * \param frameSize the frame size, header and FCS included (14 + payload + 4)
     * \return GetWireSize(frameSize) byte times at the DataRate
     */
    Time GetSlotTime(uint32_t frameSize) const;
    /**
     * \brief The slot of the frame that starts now, exact over a run of frames.
     *
     * A Time holds whole nanoseconds, and a slot of b bits at a rate r lasts
     * b x 10^9 / r ns: at 10 Gbps and above most slots end inside a
     * nanosecond. This returns the whole nanoseconds and carries the rest to
     * the next slot, so that any number of frames sent back to back take
     * their nominal time on the wire to within 1 ns (GetSlotTime() rounds
     * each slot on its own, and the error would add up). At rates that divide
     * 8 x 10^9 bit/s (1 Gbps among them) every slot is a whole number of
     * nanoseconds and both agree.
     * \param frameSize the frame size, header and FCS included (14 + payload + 4)
     * \return the time until the transmitter is free again
     */
    Time TakeSlotTime(uint32_t frameSize);
    /**
     * \brief TakeSlotTime() of a frame after a run of frames whose carried
     * rest is \p carry, leaving the device as it is (DrpIdealFct follows a
     * port's slots frame by frame with it).
     * \param frameSize the frame size, header and FCS included
     * \param carry the rest carried from the frames before, in ns x bit/s
     *        (0 for a transmitter that has sent nothing); updated
     * \return the time until the transmitter is free again
     */
    Time GetSlotTime(uint32_t frameSize, uint64_t& carry) const;

    /// \return true while the transmitter sends a frame or its inter-frame gap
    bool IsTransmitting() const;
    /**
     * \return frames waiting in the transmit queues, every class (the frame
     *         on the wire excluded); creates no class queue
     */
    uint32_t GetQueuedFrames() const;
    /// \return bytes waiting in the transmit queues, every class (as GetQueuedFrames())
    uint32_t GetQueuedBytes() const;
    /// \return true if a pause from the peer holds any class now
    bool IsAnyClassPaused() const;

    /**
     * Adds one hop of in-band telemetry to a frame's payload as it starts
     * on a port's wire: given the payload (the protocol's header first),
     * the port's line rate, the time, the bytes the port sent before the
     * frame and the bytes waiting in its queues, stamps the payload if it
     * carries telemetry and returns whether it does (false: unchanged).
     */
    typedef Callback<bool, Ptr<Packet>, DataRate, Time, uint64_t, uint64_t> TelemetryStamper;
    /**
     * Registers the stamper of the protocol whose frames carry \p etherType,
     * for every port (an EtherType names one protocol everywhere), as
     * EcnMarkingQueue::SetMarker() does for ECN.
     * \param etherType the EtherType
     * \param stamper its stamper; a null callback removes it
     */
    static void SetTelemetryStamper(uint16_t etherType, TelemetryStamper stamper);
    /// \param on InbandTelemetry: stamp each frame that carries telemetry as it leaves
    void SetInbandTelemetry(bool on);
    /// \return InbandTelemetry
    bool GetInbandTelemetry() const;
    /**
     * \return bytes this port has put on the wire for the frames it started
     *         (GetWireSize(): preamble, frame and inter-frame gap), so that a
     *         port sending without a break sends GetTxBytes() at its DataRate
     */
    uint64_t GetTxBytes() const;

    /// \return the number of received frames the ReceiveErrorModel dropped
    uint64_t GetReceiveErrorDrops() const;
    /// \return the number of received frames dropped for a wrong FCS
    uint64_t GetFcsErrorDrops() const;

    /**
     * \brief Turn priority flow control on or off (attribute PfcEnabled).
     *
     * Set it before the simulation runs: turning it off discards the
     * classes' queues (frames waiting in classes 1 to 7 are lost) and
     * counters.
     * \param enabled true: eight classes, pause honoured and sent
     */
    void SetPfcEnabled(bool enabled);
    /// \return true if priority flow control is on
    bool IsPfcEnabled() const;
    /**
     * \param cls a class, 0 to 7
     * \return its transmit queue (class 0: the TxQueue); null while PFC is off
     */
    Ptr<Queue<Packet>> GetClassQueue(uint8_t cls);
    /**
     * \param packet a payload or frame
     * \return the class it is sent in: its SocketPriorityTag's priority if
     *         0 to 7, else PfcDefaultClass
     */
    uint8_t GetFrameClass(Ptr<const Packet> packet) const;
    /**
     * \param cls a class, 0 to 7
     * \return true if a pause received from the peer holds the class now
     */
    bool IsClassPaused(uint8_t cls) const;
    /**
     * \brief XOFF / XON for one class, from the port's owner (a switch buffer).
     *
     * XOFF (true, the class was not XOFF): a pause frame for the class with
     * PfcPauseQuanta leaves next (after the frame on the wire, before every
     * queued frame) and is sent again each time half its time has passed
     * since the last one started, while the class stays XOFF. XON (false,
     * the class was XOFF): the refresh stops and a zero-time pause leaves
     * next. Repeating the current state sends nothing. Needs PFC on.
     * \param cls the class, 0 to 7 (throws std::invalid_argument otherwise)
     * \param paused true: XOFF; false: XON
     */
    void SetClassPaused(uint8_t cls, bool paused);
    /// \param cls a class, 0 to 7 \return true while the owner holds it XOFF
    bool IsClassPausing(uint8_t cls) const;
    /**
     * \brief Send one pause frame for a class: it leaves next (after the
     * frame on the wire); pauses of other classes pending at that moment
     * leave in the same frame, and a later call for the same class before
     * it leaves replaces its time. Needs PFC on.
     * \param cls the class, 0 to 7 (throws std::invalid_argument otherwise)
     * \param quanta the pause time, in quanta of 512 bit times (0: resume)
     */
    void SendPause(uint8_t cls, uint16_t quanta);
    /// \param cls a class \return pause frames sent that enable it
    uint64_t GetPausesSent(uint8_t cls) const;
    /// \param cls a class \return well-formed pause frames received that enable it
    uint64_t GetPausesReceived(uint8_t cls) const;
    /**
     * \param cls a class
     * \return the time the class has been paused by the peer so far,
     *         including a pause still in force
     */
    Time GetTimePaused(uint8_t cls) const;
    /// \return received MAC Control frames dropped as malformed or foreign
    uint64_t GetMalformedPauseDrops() const;
    /// \return frames the PFC watchdog discarded (action DROP), every class together
    uint64_t GetPfcWatchdogDrops() const;
    /// \return pause storms the PFC watchdog detected, every class together
    uint64_t GetPfcStorms() const;
    /**
     * \param cls a class
     * \return true while the watchdog holds the class in a storm with action
     *         DROP (its frames are discarded)
     */
    bool IsPfcWatchdogDropping(uint8_t cls) const;

    /**
     * \brief Receive a frame from the channel.
     *
     * Called by EthernetChannel, in the receiving node's context, when the
     * frame's last bit has arrived.
     * \param frame the frame, Ethernet header and trailer included
     */
    void Receive(Ptr<Packet> frame);

    /**
     * \brief Schedule a frame's arrival: Receive() when its last bit has
     * arrived (EthernetArrivalEvent::Schedule(), which the channels call).
     * \param frame the frame
     * \param delay the time from now to the arrival of its last bit (no
     *        earlier than that of a frame already on its way here)
     */
    void ScheduleArrival(Ptr<Packet> frame, Time delay);

    /// Hands the oldest frame on its way here to Receive() (its arrival event's).
    void ReceiveArrival();

    /**
     * \brief Assign a fixed random variable stream number to the receive
     * error model, if it is a RateErrorModel or a BurstErrorModel.
     * \param stream first stream index to use
     * \return the number of stream indices assigned (0 for other models)
     */
    int64_t AssignStreams(int64_t stream);

    // Inherited from NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    /**
     * \param mtu the largest payload, MIN_MTU to MAX_MTU
     * \return false (and no change) if the value is out of range
     */
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    /**
     * \return true: the cable (EthernetChannel) joins exactly two ports.
     *
     * ns-3's distributed simulators (src/mpi) compute their lookahead over
     * point-to-point devices only; in ns-3 3.37 to 3.48 nothing else reads
     * this flag except global routing, which drp does not use.
     */
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    /**
     * \brief Queue a frame for transmission, with this device's address as source.
     *
     * \param packet the payload
     * \param dest the destination Mac48Address
     * \param protocolNumber the EtherType (any value; see the class description)
     * \return false (and MacTxDrop fires) if the payload exceeds the MTU, the
     *         device is not attached or the TxQueue is full
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    /**
     * \brief Queue a frame for transmission with a given source address.
     *
     * \param packet the payload
     * \param source the source Mac48Address
     * \param dest the destination Mac48Address
     * \param protocolNumber the EtherType
     * \return as Send()
     */
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    /**
     * \brief Set the node (Node::AddDevice() calls this).
     *
     * Allocates a fresh MAC address (Mac48Address::Allocate()) if the Address
     * attribute was left at 00:00:00:00:00:00, and creates a
     * DropTailQueue<Packet> of default size if no TxQueue was set.
     * \param node the node the device belongs to
     */
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

    /**
     * \brief Hands a received, checked frame up.
     *
     * Called by Receive() for every frame that passed the error model and the
     * FCS check, after the sniffer and MAC receive traces fired. The default
     * calls the promiscuous callback (if set) for every frame and the receive
     * callback for frames that are not PACKET_OTHERHOST, as CsmaNetDevice
     * does. A subclass (an RNIC) overrides it to consume its own EtherType and
     * calls EthernetNetDevice::DeliverUp() for everything else.
     *
     * \param packet the payload (Ethernet header and trailer removed)
     * \param protocol the EtherType
     * \param from the source address
     * \param to the destination address
     * \param type the classification of the destination address
     */
    virtual void DeliverUp(Ptr<Packet> packet,
                           uint16_t protocol,
                           Mac48Address from,
                           Mac48Address to,
                           PacketType type);

    /**
     * \brief The next frame to send: the transmitter is READY and starts it at once.
     *
     * The default takes the head of the TxQueue. A subclass with frames of
     * its own (an RNIC's transmit scheduler) overrides it to choose between
     * them and the queue, framing its own with FrameForTransmission(), so that
     * they wait in the subclass rather than in the TxQueue (a pull-driven
     * sender).
     * \return the frame (Ethernet header and trailer included), or null if none waits
     */
    virtual Ptr<Packet> DequeueFrame();
    /**
     * \brief Starts the next frame if the transmitter is READY: a pending
     * pause frame, else DequeueFrame(); a subclass calls it when a frame of
     * its own becomes ready.
     */
    void StartNextFrame();
    /**
     * \return true if the queues hold a frame the transmitter may send now:
     *         the TxQueue is not empty (PFC off), or a class that is not
     *         paused has a frame (PFC on)
     */
    bool HasQueuedFrame() const;
    /**
     * \return true if a frame waits that the transmitter would start at the
     *         end of the current one: a pause frame, or HasQueuedFrame(); a
     *         subclass with frames of its own (DequeueFrame()) adds them. It
     *         may say true for a frame that then does not go (its class
     *         paused): never false for one that would.
     */
    virtual bool HasFrameWaiting() const;
    /**
     * \brief Frames a payload for transmission, with this device's address as
     * source, and fires MacTx, as Send() does before queueing.
     * \param packet the payload, becomes the frame
     * \param dest the destination address
     * \param protocolNumber the EtherType
     */
    void FrameForTransmission(Ptr<Packet> packet, Mac48Address dest, uint16_t protocolNumber);

  private:
    /**
     * The Mtu attribute's setter: throws std::invalid_argument naming the
     * range, where SetMtu() only returns false.
     * \param mtu the largest payload
     */
    void SetMtuChecked(uint16_t mtu);

    /// The state of the transmitter.
    enum TxMachineState
    {
        READY,  //!< idle, may start a frame
        BUSY,   //!< sending a frame or its gap; TransmitComplete() is scheduled
        MAY_END //!< sending a frame or its gap until m_txEnd, nothing scheduled
    };

    /// \return Node::ChecksumEnabled(), read once
    bool IsChecksumEnabled() const;
    /**
     * \brief Add the Ethernet header, the padding of a payload shorter than
     * MIN_PAYLOAD_SIZE, and the trailer.
     * \param packet the payload, becomes the frame
     * \param source the source address
     * \param dest the destination address
     * \param protocolNumber the EtherType
     */
    void AddFraming(Ptr<Packet> packet,
                    Mac48Address source,
                    Mac48Address dest,
                    uint16_t protocolNumber) const;
    /**
     * \brief Start sending a frame; schedules TransmitComplete(), unless the
     * slot's end is on demand (SetSlotEndOnDemand()), no frame waits behind
     * this one and PhyTxEnd has no listener: then it leaves the transmitter
     * in MAY_END, and the end of the slot needs no event of its own (an
     * RNIC's acknowledgement, most often).
     * \param frame the frame
     */
    void TransmitStart(Ptr<Packet> frame);
    /// The frame and its gap are over: the transmitter is READY again.
    void TransmitComplete();
    /**
     * \brief In MAY_END, when a frame may now wait: the slot over, the
     * transmitter is READY (PhyTxEnd fires now); else TransmitComplete() is
     * scheduled for the slot's end if a frame waits.
     * \return true if the transmitter is READY
     */
    bool EndSlotOnDemand();
    /// The frame and its gap are over: the transmitter is READY; PhyTxEnd fires.
    void FinishFrame();
    /**
     * \param frame a whole Ethernet frame about to start on the wire
     * \return a copy with this port's telemetry hop, or \p frame itself if
     *         its protocol has no stamper or it carries no telemetry
     */
    Ptr<Packet> StampTelemetry(Ptr<Packet> frame) const;
    /// Connect the aggregated NetDeviceQueueInterface to the queue's traces, once.
    void ConnectQueueInterface();

    /// The state of one PFC class.
    struct PfcClass
    {
        Ptr<Queue<Packet>> queue; //!< transmit queue (classes 1 to 7; class 0 uses m_queue)
        bool paused{false};       //!< held by a pause from the peer
        Time pausedSince;         //!< when the current pause began
        Time pausedTotal;         //!< time paused by ended pauses
        EventId resume;           //!< end of the current pause
        bool pausing{false};      //!< XOFF from the owner
        EventId refresh;          //!< next refresh of the XOFF pause
        uint64_t sent{0};         //!< pause frames sent enabling it
        uint64_t received{0};     //!< pause frames received enabling it
        bool storm{false};        //!< the watchdog ignores the peer's pauses
        Time lastPause;           //!< when the last pause (not a resume) arrived
        Time lastPauseEnd;        //!< when that pause would have run out
    };

    /// Priority flow control: present only while PfcEnabled.
    struct PfcState
    {
        std::array<PfcClass, PFC_CLASSES> classes;         //!< per class
        uint8_t pendingMask{0};                            //!< classes of the pause to send next
        std::array<uint16_t, PFC_CLASSES> pendingQuanta{}; //!< their times
        uint64_t malformedDrops{0};                        //!< MAC Control frames dropped
        uint64_t watchdogDrops{0};                         //!< frames the watchdog discarded
        uint64_t storms{0};                                //!< storms detected
    };

    /**
     * \param cls a class
     * \param what the parameter, as the user spells it
     * \return the PFC state (throws std::invalid_argument if cls > 7, aborts if PFC is off)
     */
    PfcState& CheckPfcClass(uint8_t cls, const std::string& what);
    /// \param cls a class, 0 to 7 \return its queue, made from PfcQueue when first needed
    Ptr<Queue<Packet>> ClassQueue(uint8_t cls);
    /**
     * \param count what to add up: QueueBase::GetNPackets or GetNBytes
     * \return its sum over the transmit queues of every class (made ones only)
     */
    uint32_t SumOverQueues(uint32_t (QueueBase::*count)() const) const;
    /// \return the head of the highest class that is not paused, or null
    Ptr<Packet> DequeueClassFrame();
    /// \return the pending pause frame, framed; its classes' refreshes scheduled
    Ptr<Packet> TakePauseFrame();
    /// \param cls a class held XOFF: its pause is sent again
    void RefreshPause(uint8_t cls);
    /**
     * \brief A MAC Control frame arrived (PFC on): act on a well-formed PFC
     * frame, drop anything else.
     * \param frame the whole frame, for the drop trace
     * \param payload the MAC Control payload
     * \param to its destination
     */
    void ReceiveMacControl(Ptr<const Packet> frame, Ptr<Packet> payload, Mac48Address to);
    /**
     * \param cls a class
     * \param quanta the pause time received (0: resume)
     */
    void ApplyPause(uint8_t cls, uint16_t quanta);
    /// \param cls a paused class: its pause ends now
    void EndPause(uint8_t cls);
    /// \param cls a class whose pause time ran out: it ends, the transmitter may go on
    void PauseExpired(uint8_t cls);
    /**
     * \param cls a class the peer has just paused again
     * \return true if the watchdog finds it in a storm now (and starts its mitigation)
     */
    bool DetectStorm(uint8_t cls);
    /**
     * \param cls a class in a storm
     * \return true if no pause came for the restore time: the storm is over (and ended)
     */
    bool StormOver(uint8_t cls);
    /**
     * \param cls a class
     * \return true if the watchdog holds it in a storm now (a storm that is
     *         over ends here: StormOver())
     */
    bool InStorm(uint8_t cls);
    /// \param cls a class in a storm, action DROP: its waiting frames are discarded
    void DiscardClassFrames(uint8_t cls);
    /**
     * \param cls a class (PFC on)
     * \return its transmit queue if it has one yet (class 0: the TxQueue), else null;
     *         unlike ClassQueue(), makes none
     */
    const Ptr<Queue<Packet>>& GetMadeClassQueue(uint8_t cls) const;
    /// \param time the detection time (0: off; 0 to 100 s)
    void SetPfcWatchdogTime(Time time);
    /// \return PfcWatchdogTime
    Time GetPfcWatchdogTime() const;
    /// \param time the restoration time (0: twice the detection time; 0 to 100 s)
    void SetPfcWatchdogRestoreTime(Time time);
    /// \return PfcWatchdogRestoreTime
    Time GetPfcWatchdogRestoreTime() const;
    /// \param cls the class of frames without a class, 0 to 7 (throws otherwise)
    void SetPfcDefaultClass(uint8_t cls);
    /// \return PfcDefaultClass
    uint8_t GetPfcDefaultClass() const;
    /// \param quanta the pause time of an XOFF, 1 to 65535
    void SetPfcPauseQuanta(uint16_t quanta);
    /// \return PfcPauseQuanta
    uint16_t GetPfcPauseQuanta() const;
    /**
     * \brief Classify a destination address as CsmaNetDevice does.
     * \param dest the destination address of a received frame
     * \return the packet type
     */
    PacketType Classify(Mac48Address dest) const;

    Ptr<Node> m_node;                    //!< the node
    Ptr<EthernetChannel> m_channel;      //!< the cable
    uint32_t m_ifIndex;                  //!< interface index
    Mac48Address m_address;              //!< MAC address
    uint16_t m_mtu;                      //!< largest payload
    DataRate m_bps;                      //!< line rate
    mutable TxTimeCache m_txTimes;       //!< transmission times per size at m_bps
    uint64_t m_slotCarry{0};             //!< TakeSlotTime's carried rest, in ns x bit/s
    uint32_t m_ifgBytes;                 //!< inter-frame gap in byte times
    Ptr<Queue<Packet>> m_queue;          //!< transmit queue
    Ptr<ErrorModel> m_receiveErrorModel; //!< receive error model
    bool m_linkUp;                       //!< attached to a channel
    TxMachineState m_txState;            //!< transmitter state
    Ptr<Packet> m_currentFrame;          //!< the frame being sent
    EventId m_txCompleteEvent;           //!< end of the current slot
    /// frames on their way here (ScheduleArrival), oldest first
    std::deque<Ptr<Packet>> m_arrivals;
    /// the arrival event every frame here is scheduled with (made when first needed)
    Ptr<EthernetArrivalEvent> m_arrivalEvent;
    /// TransmitComplete, one event per slot without an allocation each
    RecurringEvent<EthernetNetDevice> m_txComplete{&EthernetNetDevice::TransmitComplete, this};
    Time m_txEnd;                        //!< when the current slot ends
    bool m_slotEndOnDemand{false};       //!< see SetSlotEndOnDemand()
    bool m_telemetry{false};             //!< InbandTelemetry
    uint64_t m_txBytes{0};               //!< wire bytes of the frames started
    Ptr<Queue<Packet>> m_connectedQueue; //!< the queue whose traces feed the queue interface
    uint64_t m_receiveErrorDrops;        //!< frames dropped by the error model
    uint64_t m_fcsErrorDrops{0};         //!< frames dropped for a wrong FCS
    /// Node::ChecksumEnabled() as read at the first frame (-1: not yet read;
    /// reading the global value costs more than the rest of the framing)
    mutable int8_t m_checksumEnabled;
    bool m_computeFcs; //!< ComputeFcs: a real FCS in the frames sent
    /// zero padding of each size up to MIN_PAYLOAD_SIZE, made when first needed
    mutable std::array<Ptr<const Packet>, MIN_PAYLOAD_SIZE + 1> m_padding;
    std::unique_ptr<PfcState> m_pfc;   //!< PFC state (null: PFC off, the one-queue path)
    uint8_t m_pfcDefaultClass{0};      //!< PfcDefaultClass
    uint16_t m_pfcPauseQuanta{0xFFFF}; //!< PfcPauseQuanta
    ObjectFactory m_pfcQueueFactory;   //!< PfcQueue: the queues of classes 1 to 7
    Time m_pfcWatchdogTime;            //!< PfcWatchdogTime (0: off)
    Time m_pfcWatchdogRestoreTime;     //!< PfcWatchdogRestoreTime (0: twice the detection)
    PfcWatchdogAction m_pfcWatchdogAction{PFC_WATCHDOG_DROP}; //!< PfcWatchdogAction

    NetDevice::ReceiveCallback m_rxCallback;               //!< normal receive callback
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< promiscuous receive callback
    TracedCallback<> m_linkChangeCallbacks;                //!< link change callbacks

    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< MacTx
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;      //!< MacTxDrop
    TracedCallback<Ptr<const Packet>> m_macPromiscRxTrace;   //!< MacPromiscRx
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< MacRx
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;     //!< PhyTxBegin
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;       //!< PhyTxEnd
    TracedCallback<Ptr<const Packet>> m_phyTxDropTrace;      //!< PhyTxDrop
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;       //!< PhyRxEnd
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;      //!< PhyRxDrop
    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< Sniffer
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< PromiscSniffer
    TracedCallback<uint8_t, uint16_t> m_macTxPauseTrace;     //!< MacTxPause
    TracedCallback<uint8_t, uint16_t> m_macRxPauseTrace;     //!< MacRxPause
    TracedCallback<Ptr<const Packet>> m_macRxPauseDropTrace; //!< MacRxPauseDrop
    TracedCallback<uint8_t, bool> m_pfcStormTrace;           //!< PfcStorm
};

} // namespace ns3

#endif /* ETHERNET_NET_DEVICE_H */
