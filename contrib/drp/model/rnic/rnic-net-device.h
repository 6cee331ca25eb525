/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RNIC_NET_DEVICE_H
#define RNIC_NET_DEVICE_H

#include "ns3/drp-transport.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/ipv4-address.h"
#include "ns3/mode-policy.h"
#include "ns3/pcie-link.h"
#include "ns3/queue.h"

#include <functional>

namespace ns3
{

/**
 * \ingroup drp
 * \brief An RDMA NIC: a full-duplex Ethernet port plus the DRP engine.
 *
 * Frames with the DRP EtherType (attribute EtherType: by default the
 * paper's 0x01FF, or 0x88B5, IEEE 802's local experimental EtherType)
 * addressed to this port go to the DRP transport; everything else (ARP, IPv4,
 * ...) goes up the stack as from any EthernetNetDevice. Other traffic crosses the PCIe link too
 * (one DMA request per frame each way), so it loads the host interface as well as the link.
 *
 * \par Sharing the port
 * DRP frames wait in the transport's transmit scheduler (DrpTxScheduler), not
 * in the port's TxQueue, and the port pulls one whenever it can start a
 * frame: the RNIC never drops its own frames. Other traffic (and DRP frames a
 * program hands to Send() itself) keeps ns-3's queue behaviour in the
 * TxQueue. While both have frames waiting they share the port's bytes
 * equally: the one that has sent fewer wire bytes since both began to wait
 * goes next (DRP first on a tie), so neither starves the other and small
 * frames (pings, TCP ACKs) are not held to one per bulk DRP frame.
 *
 * \par Priority flow control
 * With the port's PfcEnabled on, every DRP data frame is sent in class
 * DrpClass and every control frame (REQ, REQ_ACK, ACK, REL, REL_ACK) in
 * DrpControlClass, both 3 by default (a frame carries a SocketPriorityTag
 * of that priority, so switches queue it in that class); the RNIC sends no
 * frame of a class while a pause from the peer holds it, and the other
 * kind goes on (control frames first, as always); other traffic takes
 * its class from its own SocketPriorityTag or the port's PfcDefaultClass and
 * waits in the port's class queues. DRP frames and the other traffic share
 * the port as above (equal bytes), whatever their classes; strict priority
 * orders the classes of the other traffic among themselves. Deployments
 * commonly give acknowledgements and congestion notifications a class of
 * their own, so that a pause of the data class does not hold them.
 *
 * \par Frames for the host
 * Other traffic for the host waits in RxQueue (an ns-3 Queue, by default a
 * DropTailQueue of 100 frames) while the PCIe write engine moves it to host
 * memory; a frame that finds it full is dropped.
 *
 * \par Host drops
 * Frames dropped inside the host or the RNIC for want of room are counted
 * per HostDropReason and reported by the HostDrop trace: the TxQueue full
 * (other traffic from the host), the RxQueue full, and the indirect buffer
 * full (a DRP data frame the dynamic RNIC could not keep).
 *
 * Method selects the RNIC: the traditional RNIC (no indirect buffer,
 * handshake first) or the dynamic RNIC (indirect buffer, ModePolicy
 * DYNAMIC). Both run one DrpTransport. The RNIC's PcieLink connects it to
 * the host memory aggregated to its node (a HostMemory is aggregated to the
 * node if there is none when the device is added).
 *
 * Configure the parts through the pointer attributes, e.g.
 * `/NodeList/0/DeviceList/0/$ns3::RnicNetDevice/Transport/Window`, or with
 * RnicHelper.
 */
class RoceTransport;
class RnicTransport;

class RnicNetDevice : public EthernetNetDevice
{
  public:
    /// Why a frame was dropped inside the host or the RNIC.
    enum HostDropReason
    {
        TX_QUEUE_FULL,     //!< the port's TxQueue had no room (traffic from the host)
        RX_QUEUE_FULL,     //!< the RxQueue had no room (traffic for the host)
        BUFFER_FULL,       //!< the indirect buffer had no room (a DRP data frame)
        HOST_DROP_REASONS, //!< number of reasons
    };

    /**
     * TracedCallback signature for host drops.
     * \param packet the frame (or its payload)
     * \param reason why
     */
    typedef void (*HostDropTracedCallback)(Ptr<const Packet> packet, HostDropReason reason);

    /// IEEE 802's local experimental EtherType, the alternative to DrpHeader::PROT_NUMBER.
    static constexpr uint16_t LOCAL_EXPERIMENTAL_ETHER_TYPE = 0x88B5;
    /// IPv4's EtherType, which RoCEv2 frames carry.
    static constexpr uint16_t IPV4_ETHER_TYPE = 0x0800;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RnicNetDevice();

    /**
     * \param etherType the EtherType of the DRP frames this RNIC sends and
     *        claims (throws std::invalid_argument unless IsValidEtherType())
     */
    void SetEtherType(uint16_t etherType);
    /// \return the EtherType of DRP frames
    uint16_t GetEtherType() const;
    /**
     * A DRP EtherType must lie in 0x0101-0x01FF (the range the paper takes
     * 0x01FF from) or 0x0600-0xFFFF (the Ethernet II types), and must not be
     * IPv4 (0x0800), ARP (0x0806) or IPv6 (0x86DD), which the RNIC passes to
     * the host.
     * \param etherType a value
     * \return true if it can be DRP's EtherType
     */
    static bool IsValidEtherType(uint32_t etherType);
    /**
     * Throws std::invalid_argument, naming the value and the valid range,
     * unless IsValidEtherType().
     * \param name the parameter, as the user spells it
     * \param etherType a value
     */
    static void CheckEtherType(const std::string& name, uint32_t etherType);

    /// \param method traditional or dynamic; (re)creates the indirect buffer as needed
    void SetMethod(ModePolicy::Method method);
    /// \return traditional or dynamic
    ModePolicy::Method GetMethod() const;
    /// \param transport the DRP transport (wired to this port, its PCIe link and policy)
    void SetTransport(Ptr<DrpTransport> transport);
    /// \return the DRP transport
    Ptr<DrpTransport> GetTransport() const;
    /// \param cls the PFC class of DRP data frames, 0 to 7 (throws std::invalid_argument
    /// otherwise)
    void SetDrpClass(uint8_t cls);
    /// \return the PFC class of DRP data frames
    uint8_t GetDrpClass() const;
    /// \param cls the PFC class of DRP control frames, 0 to 7 (throws std::invalid_argument
    /// otherwise)
    void SetDrpControlClass(uint8_t cls);
    /// \return the PFC class of DRP control frames
    uint8_t GetDrpControlClass() const;
    /// \param time HostPacketTime (0 to 1 s)
    void SetHostPacketTime(Time time);
    /// \return HostPacketTime: host CPU time per packet of other traffic
    Time GetHostPacketTime() const;
    /// \param pcie the PCIe link (wired to the transport and the node's memory)
    void SetPcieLink(Ptr<PcieLink> pcie);
    /// \return the PCIe link to the host
    Ptr<PcieLink> GetPcieLink() const;
    /// \return the host memory behind the PCIe link
    Ptr<HostMemory> GetHostMemory() const;

    /// What takes the RoCEv2 frames addressed to this port: the IPv4 packet
    /// (the Ethernet payload) and the sender's address.
    typedef Callback<void, Ptr<Packet>, Mac48Address> RoceHandler;
    /**
     * Claims the RoCEv2 frames (IPv4, UDP to port 4791) to queue pair 1
     * addressed to this port (the connection manager's datagrams): they go
     * to \p handler as they arrive from the wire, not up the host's stack,
     * as a RoCE NIC's queue pair 1 takes them. A null handler gives them
     * back to the stack.
     * \param handler the connection manager
     */
    void SetRoceHandler(RoceHandler handler);
    /**
     * The RNIC's RoCEv2 transport (method roce): it takes the RoCEv2 frames
     * addressed to this port for queue pairs other than 1, and the port
     * pulls its frames as it pulls DRP's (the same share of the port, the
     * same PFC classes: DrpClass for data, DrpControlClass for
     * acknowledgements).
     * \param transport the transport (null: none)
     */
    void SetRoceTransport(Ptr<RoceTransport> transport);
    /// \return the RoCEv2 transport, or null
    Ptr<RoceTransport> GetRoceTransport() const;
    /**
     * The port's RoCEv2 address (its GID, IPv4-mapped): the first address
     * of the node's IPv4 interface on this port if it has one, else
     * 10.x.y.z from the low 24 bits of the MAC address.
     * \return the address the RNIC's RoCEv2 frames carry
     */
    Ipv4Address GetRoceAddress() const;
    /**
     * The port's active MTU for RoCEv2 (ibv_query_port's active_mtu): the
     * largest InfiniBand MTU (256 to 4096) whose RoCEv2 frame, with the
     * largest transport headers, fits the port's MTU, as the kernel's
     * iboe_get_mtu computes it: 1024 on a 1500-byte port, 4096 on a
     * 9000-byte one.
     * \return bytes
     */
    uint32_t GetRoceActiveMtu() const;

    /// \param queue where frames for the host wait for the PCIe write engine
    void SetRxQueue(Ptr<Queue<Packet>> queue);
    /// \return where frames for the host wait for the PCIe write engine
    Ptr<Queue<Packet>> GetRxQueue() const;
    /**
     * \param reason a host drop reason
     * \return frames dropped for it
     */
    uint64_t GetHostDropCount(HostDropReason reason) const;
    /// \return frames dropped inside the host or the RNIC, all reasons
    uint64_t GetHostDrops() const;
    /**
     * \param reason a host drop reason
     * \return its name
     */
    static std::string GetHostDropReasonName(HostDropReason reason);

    void SetNode(Ptr<Node> node) override;
    /**
     * Sends a frame. A DRP frame goes straight to the port (the transport
     * already paid its DMA read); any other frame first crosses PCIe (one DMA
     * read of its bytes), so other traffic competes with DRP for the DMA
     * engines as on a real NIC.
     * \param packet the payload
     * \param source source address
     * \param dest destination address
     * \param protocolNumber EtherType
     * \return false if the port refuses the frame now (over the MTU)
     */
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SetMtu(const uint16_t mtu) override;

  protected:
    void DoDispose() override;
    void DoInitialize() override;
    /// The port can start a frame: a DRP frame or other traffic, in turn.
    Ptr<Packet> DequeueFrame() override;
    /// \return true if the TxQueue or the transport has a frame to send
    bool HasFrameWaiting() const override;
    void DeliverUp(Ptr<Packet> packet,
                   uint16_t protocol,
                   Mac48Address from,
                   Mac48Address to,
                   PacketType type) override;

  private:
    /**
     * Wires a transport to this port, its PCIe link and policy, without
     * checking its PayloadSize against the MTU (SetTransport does).
     * \param transport the DRP transport
     */
    void AttachTransport(Ptr<DrpTransport> transport);
    /**
     * \return the kinds of DRP frame (DrpTxScheduler::Kinds) no pause holds
     *         now: with PFC, data and control each by its class; without, any
     */
    uint8_t GetUnpausedDrpKinds() const;
    /**
     * \param kinds the kinds of frame the port may take now
     * \return the transport whose frame the port sends next (RoCEv2's,
     *         then DRP's engine), or null if none has one of those kinds
     */
    RnicTransport* FindFrameSource(uint8_t kinds) const;
    /// \return the time a pause has held the DRP data class so far (0 with PFC off)
    Time GetDataTimePaused() const;
    /**
     * The EtherType attribute's setter: takes any integer, so that a value
     * above 0xFFFF gets the same message as any other invalid one.
     * \param etherType a value
     */
    void SetEtherTypeChecked(uint32_t etherType);
    /**
     * Queues other traffic (or a DRP frame a program sends itself) in the
     * port's TxQueue; a full queue is a host drop.
     * \param packet the payload
     * \param source source address
     * \param dest destination address
     * \param protocolNumber EtherType
     * \return false if the port refused it
     */
    bool EnqueueOther(Ptr<Packet> packet,
                      const Address& source,
                      const Address& dest,
                      uint16_t protocolNumber);
    /**
     * Runs a job of the host's software for a packet of other traffic: on
     * the node's HostCpus for HostPacketTime, or at once (HostPacketTime 0,
     * or no HostCpus).
     * \param job what follows the host's work
     */
    void RunOnHost(std::function<void()> job);
    /**
     * Counts and reports a host drop.
     * \param packet the frame
     * \param reason why
     */
    void HostDrop(Ptr<const Packet> packet, HostDropReason reason);
    /**
     * The transport dropped a frame: the indirect buffer's refusals are host drops.
     * \param packet the frame
     * \param reason the transport's reason
     */
    void OnTransportDrop(Ptr<const Packet> packet, DrpTransport::DropReason reason);

    ModePolicy::Method m_method;   //!< traditional or dynamic
    uint16_t m_etherType;          //!< EtherType of DRP frames
    Ptr<PcieLink> m_pcie;          //!< host interface
    RoceHandler m_roceHandler;     //!< takes RoCEv2 frames to QP 1 (null: the stack does)
    Ptr<RoceTransport> m_roce;     //!< the RoCEv2 transport (method roce), or null
    Ptr<DrpTransport> m_transport; //!< the DRP engine
    /// m_transport is the constructor's own (no SetTransport() yet): SetMtu() leaves it unchecked
    bool m_constructorTransport{false};
    Ptr<Queue<Packet>> m_rxQueue; //!< frames for the host, before PCIe
    uint8_t m_drpClass{3};        //!< DrpClass: the PFC class of DRP data frames
    uint8_t m_drpControlClass{3}; //!< DrpControlClass: the PFC class of DRP control frames
    Time m_hostPacketTime;        //!< HostPacketTime: host CPU time per packet of other traffic
    /// wire bytes DRP frames sent beyond other traffic's, while both wait
    int64_t m_drpBytesAhead{0};
    uint64_t m_hostDrops[HOST_DROP_REASONS]{};                         //!< host drops per reason
    TracedCallback<Ptr<const Packet>, HostDropReason> m_hostDropTrace; //!< HostDrop
};

} // namespace ns3

#endif /* RNIC_NET_DEVICE_H */
