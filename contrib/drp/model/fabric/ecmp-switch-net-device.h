/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECMP_SWITCH_NET_DEVICE_H
#define ECMP_SWITCH_NET_DEVICE_H

#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Channel;
class EthernetNetDevice;
class Node;
class Packet;
class SwitchBuffer;

/**
 * \ingroup drp
 * \brief An Ethernet switch for fabrics with more than one path: forwarding
 * from the topology, equal-cost multi-path (ECMP) by flow hash.
 *
 * ns-3's BridgeNetDevice learns addresses and floods, so a topology with
 * loops (leaf-spine, fat-tree) would circulate its frames forever. This
 * switch instead forwards from a table that whoever builds the topology fills
 * in (FabricHelper computes shortest paths over the switch graph when it
 * builds a fabric, as ns-3's global routing does for IPv4):
 *
 * - AddRoute(): a destination MAC address and the ports on a shortest path
 *   towards it (one or more: equal-cost next hops);
 * - SetRouteGroups() and AddGroupRoute(): the same for whole groups of
 *   destinations (FabricHelper: the hosts of one edge switch), so that a
 *   switch holds one route per group rather than one per host. The table
 *   that names each host's group is shared by every switch of a fabric, and
 *   a switch keeps each distinct set of next hops once, so a fabric's route
 *   memory grows with its hosts plus its switches times its edge switches,
 *   not with hosts times switches. A host's own route (AddRoute()) comes
 *   before its group's;
 * - SetFloodPort(): the ports on one spanning tree of the fabric, over which
 *   broadcast, multicast and unknown destinations are flooded, so that ARP,
 *   IPv4, ping and TCP work across the fabric next to DRP.
 *
 * \par ECMP
 * A frame whose destination has several next hops takes the port chosen by a
 * 32-bit hash (ns-3's Hash32, Murmur3) of its flow key modulo the number of
 * next hops. The key is the source and destination MAC, the EtherType, and
 * - for a DRP frame (EtherType 0x0101-0x01FF or 0x88B5): its TID, so that one
 *   transfer's frames in one direction take one path and stay in order, and
 *   different transfers between the same hosts spread;
 * - for IPv4: source and destination address, protocol and, for TCP and UDP,
 *   the two ports (the classic 5-tuple);
 * - otherwise nothing more (all such frames between two hosts take one path).
 *
 * The hash also covers the attribute EcmpSeed and the switch's node id: each
 * switch hashes differently (as HPCC's switches seed their hash with their
 * node id), so that the choices of successive switches are independent, and
 * a run can be repeated with other path choices by changing EcmpSeed alone.
 *
 * \par Timing and queues
 * The ports are EthernetNetDevice: a frame is handed to the switch when its
 * last bit has arrived (store and forward) and leaves through the egress
 * port's transmit queue (an ns-3 Queue, TxQueue of the port; FabricHelper
 * gives every switch port a DropTailQueue of 100 frames unless told
 * otherwise) at the port's rate. A frame the egress queue refuses is dropped
 * and counted at that port (GetPortStats(), trace source Drop); the peak
 * backlog of each egress queue (frames waiting behind the one on the wire) is
 * kept in bytes and in frames. A frame discarded by the port's PFC watchdog
 * (EthernetNetDevice, during a pause storm) is counted by the port alone. The queues' own trace
 * sources (Enqueue, Drop, PacketsInQueue, BytesInQueue) remain available for finer traces.
 *
 * A frame is never sent back out of the port it came in on: a route that
 * would do so drops the frame and counts it (GetHairpinDrops(); a correct
 * table never does). Frames addressed to the switch itself go up the node's
 * stack, as BridgeNetDevice does. Frames to the link-local group addresses
 * 01:80:C2:00:00:00 to 01:80:C2:00:00:0F (IEEE 802.1Q table 8-1: spanning
 * tree, MAC Control and its PFC pause frames, LLDP) are never forwarded, as
 * 802.1D bridges filter them: they go up the node's stack and are counted
 * (GetLinkLocalFrames()). A PFC pause frame that reaches a port without
 * PfcEnabled (a lossless RNIC on a lossy switch) thus ends at that port,
 * rather than being flooded to every host.
 *
 * \par Shared buffer and priority flow control
 * Off by default. With a SwitchBuffer (SetBuffer() or attribute Buffer;
 * every port should have PfcEnabled), a frame that comes in on a port is
 * first offered to the buffer: it is admitted into its ingress queue's
 * reserve, the shared pool or, for a lossless class, the headroom, or
 * dropped (SwitchBuffer::Admit(), counted by the buffer by reason); the
 * buffer pauses the ingress port's class (EthernetNetDevice::SetClassPaused())
 * when the queue crosses its XOFF threshold and resumes it below XON. The
 * switch remembers each admitted frame's ingress port, class and bytes in a
 * FIFO per egress port and class queue, next to the queue itself, and frees
 * the bytes when the queue's Dequeue trace source hands the frame to the
 * wire (the queues hold frames in order, so the first entry is the frame;
 * its packet uid checks this, and a queue that reorders is searched). This
 * costs no allocation per frame, which a packet tag would, and no hash
 * lookup, which a map keyed by uid would. A frame that goes through an idle
 * port (queued and dequeued at once) never takes buffer. Frames the switch
 * itself sends are not counted. Trace sources Xoff and Xon report each
 * pause and resume decision (ingress port, class). Without a buffer none of
 * this runs.
 */
class EcmpSwitchNetDevice : public NetDevice
{
  public:
    /// Counters of one port.
    struct PortStats
    {
        uint64_t framesOut{0};   //!< frames handed to the port's egress queue
        uint64_t egressDrops{0}; //!< frames its egress queue refused
        uint32_t peakBytes{0};   //!< most bytes waiting in one egress queue (PFC: one class)
        uint32_t peakFrames{0};  //!< most frames waiting in one egress queue (PFC: one class)
    };

    /// The queue of a frame the buffer holds (for its release).
    struct Pending
    {
        uint64_t uid{0};       //!< its packet uid
        uint32_t bytes{0};     //!< its bytes in the buffer
        uint32_t inPort{0};    //!< its ingress port
        uint8_t cls{0};        //!< its class at the ingress port
        bool committed{false}; //!< its bytes are counted in the buffer
    };

    /**
     * TracedCallback signature for forwarded frames.
     * \param packet the frame's payload (Ethernet header removed)
     * \param inPort index of the port it came in on
     * \param outPort index of the port it leaves by
     */
    typedef void (*ForwardTracedCallback)(Ptr<const Packet> packet,
                                          uint32_t inPort,
                                          uint32_t outPort);
    /**
     * TracedCallback signature for dropped frames.
     * \param packet the frame's payload (Ethernet header removed)
     * \param port index of the port whose egress queue refused it
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, uint32_t port);
    /**
     * TracedCallback signature for XOFF and XON of an ingress queue (with a buffer).
     * \param port the ingress port's index
     * \param cls the class it pauses or resumes
     */
    typedef void (*PauseTracedCallback)(uint32_t port, uint8_t cls);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EcmpSwitchNetDevice();
    ~EcmpSwitchNetDevice() override;

    // Delete copy constructor and assignment operator to avoid misuse
    EcmpSwitchNetDevice(const EcmpSwitchNetDevice&) = delete;
    EcmpSwitchNetDevice& operator=(const EcmpSwitchNetDevice&) = delete;

    /**
     * \brief Adds a port. The switch must be on its node already, and the
     * port an EthernetNetDevice on the same node.
     * \param port the port
     * \return its index (0, 1, ... in the order ports are added)
     */
    uint32_t AddPort(Ptr<EthernetNetDevice> port);
    /// \return the number of ports
    uint32_t GetNPorts() const;
    /// \param index a port index \return that port
    Ptr<EthernetNetDevice> GetPort(uint32_t index) const;
    /**
     * \param port a device of this node
     * \return its port index (a fatal error if it is no port of this switch)
     */
    uint32_t GetPortIndex(Ptr<const NetDevice> port) const;

    /**
     * \brief Sets the next hops towards a destination (replacing any).
     * \param destination a host's MAC address
     * \param ports indices of the ports on a shortest path towards it, in
     *        the order the ECMP hash indexes them (not empty)
     */
    void AddRoute(Mac48Address destination, const std::vector<uint32_t>& ports);
    /// \param destination a MAC address \return its next hops (empty: none)
    std::vector<uint32_t> GetRoute(Mac48Address destination) const;

    /// Destinations' groups: GetAddressKey() of a host's address -> its group.
    typedef std::unordered_map<uint64_t, uint32_t> RouteGroups;
    /**
     * \brief Names the group of each destination (shared by every switch that
     * routes by the same groups; replaces any groups set before).
     * \param groups address key -> group
     */
    void SetRouteGroups(std::shared_ptr<const RouteGroups> groups);
    /**
     * \brief Sets the next hops towards every destination of a group
     * (replacing any); a destination's own route, if it has one, comes first.
     * \param group a group of SetRouteGroups()
     * \param ports indices of the ports on a shortest path towards the group,
     *        in the order the ECMP hash indexes them (not empty)
     */
    void AddGroupRoute(uint32_t group, const std::vector<uint32_t>& ports);
    /// \return distinct next-hop sets this switch holds (its own routes and its groups')
    uint32_t GetRouteEntries() const;
    /**
     * \param address a MAC address
     * \return its 48 bits as an integer (the route tables' key)
     */
    static uint64_t GetAddressKey(Mac48Address address);
    /**
     * \param index a port index
     * \param flood true: broadcast and unknown destinations go out of this
     *        port (it is on the spanning tree); false: never
     */
    void SetFloodPort(uint32_t index, bool flood);
    /// \param index a port index \return true if it floods
    bool IsFloodPort(uint32_t index) const;

    /**
     * \brief The port a frame leaves by (what Forward() would choose).
     * \param packet the frame's payload (Ethernet header removed)
     * \param protocol its EtherType
     * \param source its source address
     * \param destination its destination address (one with a route)
     * \return the port index (a fatal error if the destination has no route)
     */
    uint32_t SelectPort(Ptr<const Packet> packet,
                        uint16_t protocol,
                        Mac48Address source,
                        Mac48Address destination) const;
    /**
     * \brief The flow hash of a frame (see the class documentation).
     * \param packet the frame's payload (Ethernet header removed)
     * \param protocol its EtherType
     * \param source its source address
     * \param destination its destination address
     * \return the hash
     */
    uint32_t GetFlowHash(Ptr<const Packet> packet,
                         uint16_t protocol,
                         Mac48Address source,
                         Mac48Address destination) const;

    /// \param index a port index \return its counters
    PortStats GetPortStats(uint32_t index) const;
    /// \return frames forwarded on a route (one per frame)
    uint64_t GetUnicastFrames() const;
    /// \return frames flooded (one per frame, however many ports it went out of)
    uint64_t GetFloodedFrames() const;
    /// \return frames dropped because their route led back out of their port
    uint64_t GetHairpinDrops() const;
    /// \return frames to a link-local group address (01:80:C2:00:00:0x), not forwarded
    uint64_t GetLinkLocalFrames() const;
    /**
     * \param address a MAC address
     * \return true for 01:80:C2:00:00:00 to 01:80:C2:00:00:0F, which bridges
     *         never forward (IEEE 802.1Q, 8.6.3)
     */
    static bool IsLinkLocal(Mac48Address address);
    /// \return frames refused by an egress queue, all ports together
    uint64_t GetEgressDrops() const;

    /**
     * \brief Gives the switch a shared buffer (null: none, the default).
     * Ports added before and after are its ingress ports, in port order.
     * Set it before the simulation runs.
     * \param buffer the buffer
     */
    void SetBuffer(Ptr<SwitchBuffer> buffer);
    /// \return the shared buffer (null: none)
    Ptr<SwitchBuffer> GetBuffer() const;

    // Inherited from NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /// One port and what the switch keeps about it.
    struct Port
    {
        Ptr<EthernetNetDevice> device; //!< the port
        bool flood{false};             //!< on the spanning tree
        PortStats stats;               //!< its counters
    };

    /**
     * A frame from a port (the node's promiscuous protocol handler).
     * \param incomingPort the port
     * \param packet the frame's payload
     * \param protocol its EtherType
     * \param source its source address
     * \param destination its destination address
     * \param packetType how the port classified it
     */
    void ReceiveFromPort(Ptr<NetDevice> incomingPort,
                         Ptr<const Packet> packet,
                         uint16_t protocol,
                         const Address& source,
                         const Address& destination,
                         PacketType packetType);
    /**
     * Sends a frame along its route.
     * \param inPort the port it came in on
     * \param packet the frame's payload
     * \param protocol its EtherType
     * \param source its source address
     * \param destination its destination address
     * \param route the destination's next hops
     */
    void ForwardUnicast(uint32_t inPort,
                        Ptr<const Packet> packet,
                        uint16_t protocol,
                        Mac48Address source,
                        Mac48Address destination,
                        const std::vector<uint32_t>& route);
    /**
     * Sends a frame out of every flooding port but the one it came in on.
     * \param inPort the port it came in on (GetNPorts(): none, sent by the node)
     * \param packet the frame's payload
     * \param protocol its EtherType
     * \param source its source address
     * \param destination its destination address
     */
    void Flood(uint32_t inPort,
               Ptr<const Packet> packet,
               uint16_t protocol,
               Mac48Address source,
               Mac48Address destination);
    /**
     * Hands a copy of a frame to a port's egress queue and counts it.
     * \param inPort the port it came in on (GetNPorts(): none)
     * \param outPort the port it leaves by
     * \param packet the frame's payload
     * \param protocol its EtherType
     * \param source its source address
     * \param destination its destination address
     */
    void SendOut(uint32_t inPort,
                 uint32_t outPort,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 Mac48Address source,
                 Mac48Address destination);
    /**
     * An egress port refused a frame: counted and traced as its drop.
     * \param outPort the port
     * \param packet the frame
     */
    void CountRefused(uint32_t outPort, Ptr<const Packet> packet);
    /**
     * An egress port took a frame: counted, traced, its peak queue updated.
     * \param inPort where it came in
     * \param outPort where it goes out
     * \param packet the frame
     */
    void CountForwarded(uint32_t inPort, uint32_t outPort, Ptr<const Packet> packet);
    /**
     * SendOut() through the shared buffer.
     * \param inPort the port it came in on
     * \param outPort the port it leaves by
     * \param packet the frame's payload
     * \param protocol its EtherType
     * \param source its source address
     * \param destination its destination address
     */
    void SendBuffered(uint32_t inPort,
                      uint32_t outPort,
                      Ptr<const Packet> packet,
                      uint16_t protocol,
                      Mac48Address source,
                      Mac48Address destination);
    /**
     * \param outPort an egress port
     * \param packet a frame for it
     * \return the index of the FIFO of its egress queue (hooked to its Dequeue)
     */
    uint32_t EgressFifo(uint32_t outPort, Ptr<const Packet> packet);
    /**
     * An egress queue handed a frame to the wire (its Dequeue trace).
     * \param sw the switch
     * \param fifo the FIFO of that queue
     * \param frame the frame
     */
    static void EgressDequeued(EcmpSwitchNetDevice* sw, uint32_t fifo, Ptr<const Packet> frame);
    /// \param port an ingress port \param cls its class, gone XOFF (the buffer's Xoff)
    void NotifyXoff(uint32_t port, uint8_t cls);
    /// \param port an ingress port \param cls its class, gone XON (the buffer's Xon)
    void NotifyXon(uint32_t port, uint8_t cls);
    /**
     * Counts a frame's bytes after a successful SendFrom().
     * \param fifo its FIFO
     * \param placement where the buffer admitted it
     */
    void CommitPending(uint32_t fifo, uint8_t placement);

    /**
     * The next hop of a frame: the route's only port, or the one its flow hash picks.
     * \param route the destination's next hops (not empty)
     * \param packet the frame's payload
     * \param protocol its EtherType
     * \param source its source address
     * \param destination its destination address
     * \return the port index
     */
    uint32_t PickPort(const std::vector<uint32_t>& route,
                      Ptr<const Packet> packet,
                      uint16_t protocol,
                      Mac48Address source,
                      Mac48Address destination) const;
    /**
     * \param destination a MAC address
     * \return its next hops (null: no route), its own route before its group's
     */
    const std::vector<uint32_t>* FindRoute(Mac48Address destination) const;
    /**
     * \param ports a set of next hops, checked (not empty, valid ports)
     * \param what the route's destination, for the message
     * \return its index in m_portSets (added if new)
     */
    uint32_t InternPorts(const std::vector<uint32_t>& ports, const std::string& what);

    Ptr<Node> m_node;                                         //!< the switch node
    Ptr<Channel> m_channel;                                   //!< the ports' channels
    Mac48Address m_address;                                   //!< the switch's own address
    uint32_t m_ifIndex{0};                                    //!< interface index
    uint16_t m_mtu{1500};                                     //!< MTU
    uint32_t m_ecmpSeed{0};                                   //!< EcmpSeed attribute
    std::vector<Port> m_ports;                                //!< ports, by index
    std::vector<std::vector<uint32_t>> m_portSets;            //!< distinct next-hop sets
    std::map<std::vector<uint32_t>, uint32_t> m_portSetIndex; //!< set -> its index
    std::unordered_map<uint64_t, uint32_t> m_routes;          //!< MAC -> next-hop set
    std::shared_ptr<const RouteGroups> m_groups;              //!< destination -> group
    std::vector<uint32_t> m_groupRoutes;                   //!< group -> next-hop set + 1 (0: none)
    uint64_t m_unicastFrames{0};                           //!< frames forwarded on a route
    uint64_t m_floodedFrames{0};                           //!< frames flooded
    uint64_t m_hairpinDrops{0};                            //!< routes back out of the in-port
    uint64_t m_linkLocalFrames{0};                         //!< link-local frames, not forwarded
    NetDevice::ReceiveCallback m_rxCallback;               //!< up the stack
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< up the stack, promiscuous
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t> m_forwardTrace; //!< Forward
    TracedCallback<Ptr<const Packet>, uint32_t> m_dropTrace;              //!< Drop
    Ptr<SwitchBuffer> m_buffer;                    //!< shared buffer (null: none)
    std::vector<std::deque<Pending>> m_pending;    //!< port x 8 + class queue: frames held
    std::vector<bool> m_hooked;                    //!< FIFO hooked to its queue's Dequeue
    TracedCallback<uint32_t, uint8_t> m_xoffTrace; //!< Xoff
    TracedCallback<uint32_t, uint8_t> m_xonTrace;  //!< Xon
    bool m_passedThrough{false};                   //!< the frame being queued left at once
};

} // namespace ns3

#endif /* ECMP_SWITCH_NET_DEVICE_H */
