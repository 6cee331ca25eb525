/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_HELPER_H
#define ETHERNET_HELPER_H

#include "ns3/ethernet-net-device.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/queue.h"
#include "ns3/trace-helper.h"

#include <string>
#include <utility>

namespace ns3
{

/**
 * \ingroup drp
 * \brief Builds full-duplex Ethernet links: two EthernetNetDevice joined by
 * an EthernetChannel.
 *
 * Used like PointToPointHelper: set the queue, device and channel attributes,
 * then Install() one link per pair of nodes. Each device gets a fresh MAC
 * address (Mac48Address::Allocate(), in installation order; do not set the
 * Address attribute through SetDeviceAttribute()), a new transmit queue from
 * the queue factory (default DropTailQueue<Packet>, 100 packets) and, unless
 * DisableFlowControl() was called, an aggregated NetDeviceQueueInterface so
 * that the traffic control layer stops and wakes with the device queue.
 *
 * Switches are built from plain EthernetNetDevice ports and ns-3's
 * BridgeHelper on the switch node.
 *
 * \par Subclassing
 * A subclass can put another device (a subclass of EthernetNetDevice, e.g.
 * an RNIC) at one or both ends and reuse the queue, flow-control, channel and
 * tracing logic:
 * - override CreateDevice(Ptr<Node>) to choose the device for each end of
 *   every Install() (e.g. an RNIC on hosts, the default on switches), using
 *   CreateDeviceOfType() to apply the device attributes to a subclass; or
 * - create the two devices yourself and call Connect(), e.g. in an
 *   \c InstallHostLink(host, switch) method: <tt>Connect(host, rnic, sw,
 *   EthernetHelper::CreateDevice(sw))</tt>.
 *
 * Pcap traces are Ethernet (DLT_EN10MB), one record per frame as sent or
 * received, as on the wire from the destination address to the FCS: 14-byte
 * header, payload padded to 46 bytes, 4-byte FCS. Pcap and ascii tracing turn
 * EthernetNetDevice::ComputeFcs on for the traced device and the device at
 * the other end of its cable, so every frame in the capture carries a correct
 * FCS (read by Wireshark with "Validate the Ethernet checksum if possible",
 * eth.check_fcs). DRP frames decode with contrib/drp/wireshark/drp.lua.
 *
 * In a distributed simulation (ns-3 built with its mpi module,
 * MpiInterface enabled), a link whose two nodes have different system ids
 * gets an EthernetRemoteChannel with the same channel attributes, and each
 * of its devices an MpiReceiver, as PointToPointHelper does.
 */
class EthernetHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    /// Default device ns3::EthernetNetDevice, queue ns3::DropTailQueue<Packet>.
    EthernetHelper();
    ~EthernetHelper() override;

    /**
     * \brief Set the type and attributes of the transmit queue of every device.
     *
     * \tparam Ts \deduced argument types
     * \param type the queue type, e.g. "ns3::DropTailQueue" (the item type
     *        \<Packet\> is appended if missing)
     * \param [in] args name and AttributeValue pairs to set
     */
    template <typename... Ts>
    void SetQueue(std::string type, Ts&&... args);

    /**
     * \param name the name of an EthernetNetDevice attribute
     * \param value its value, for every device created from now on
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \param name the name of an EthernetChannel attribute
     * \param value its value, for every channel created from now on
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /// Do not aggregate a NetDeviceQueueInterface to the devices.
    void DisableFlowControl();

    /**
     * \brief A new queue from the queue factory (SetQueue()), as every device
     * this helper makes gets one; e.g. to give a port made elsewhere the same
     * kind of queue.
     * \return the queue
     */
    Ptr<Queue<Packet>> CreateQueue() const;

    /**
     * \brief Link the two nodes of a container.
     * \param c exactly two nodes (otherwise a fatal error)
     * \return the two devices, in the order of the nodes
     */
    NetDeviceContainer Install(NodeContainer c);

    /**
     * \brief Link two nodes.
     * \param a the first node
     * \param b the second node
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * \param a the first node
     * \param bName the name (Names) of the second node
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, std::string bName);

    /**
     * \param aName the name (Names) of the first node
     * \param b the second node
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(std::string aName, Ptr<Node> b);

    /**
     * \param aName the name (Names) of the first node
     * \param bName the name (Names) of the second node
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(std::string aName, std::string bName);

    /**
     * \brief Assign fixed random variable streams to the receive error models
     * of the given devices (see EthernetNetDevice::AssignStreams()).
     * \param c the devices (others than EthernetNetDevice are skipped)
     * \param stream the first stream index to use
     * \return the number of stream indices assigned
     */
    int64_t AssignStreams(NetDeviceContainer c, int64_t stream);

  protected:
    /**
     * \brief Create the device for one end of a link made by Install().
     *
     * The default makes the configured EthernetNetDevice. The device must
     * not have been added to a node yet; Connect() does that.
     * \param node the node that will hold the device
     * \return the new device
     */
    virtual Ptr<EthernetNetDevice> CreateDevice(Ptr<Node> node) const;

    /**
     * \brief Create a device of a given type with the attributes set through
     * SetDeviceAttribute().
     * \param tid ns3::EthernetNetDevice or a subclass of it
     * \return the new device
     */
    Ptr<EthernetNetDevice> CreateDeviceOfType(TypeId tid) const;

    /**
     * \brief Make a link of two devices.
     *
     * Gives each device a new transmit queue from the queue factory, adds it
     * to its node (unless it is there already), aggregates a
     * NetDeviceQueueInterface (unless flow control is disabled or one is
     * aggregated already) and attaches both to a new channel.
     * \param a the first node
     * \param devA the device for a
     * \param b the second node
     * \param devB the device for b
     * \return the two devices, devA first
     */
    NetDeviceContainer Connect(Ptr<Node> a,
                               Ptr<EthernetNetDevice> devA,
                               Ptr<Node> b,
                               Ptr<EthernetNetDevice> devB) const;

    /**
     * \brief As the four-argument Connect(), for devices already added to
     * their nodes (a fatal error otherwise).
     * \param devA the first device
     * \param devB the second device
     * \return the two devices, devA first
     */
    NetDeviceContainer Connect(Ptr<EthernetNetDevice> devA, Ptr<EthernetNetDevice> devB) const;

  private:
    /**
     * \brief The cable for two devices already on their nodes.
     *
     * An EthernetChannel from the channel factory; in a distributed
     * simulation (ns-3 built with its mpi module, MpiInterface enabled)
     * where the two nodes have different system ids (MPI ranks), an
     * EthernetRemoteChannel with the same attributes instead, and an
     * MpiReceiver aggregated to each device that hands what the other rank
     * sends to EthernetRemoteChannel::Deliver().
     * \param devA the first device
     * \param devB the second device
     * \return the channel, no device attached yet
     */
    Ptr<EthernetChannel> CreateChannel(Ptr<EthernetNetDevice> devA,
                                       Ptr<EthernetNetDevice> devB) const;
    /**
     * \brief Turn ComputeFcs on for a traced device and the other end of its cable.
     * \param device the traced device
     */
    static void ComputeFcsForCapture(Ptr<EthernetNetDevice> device);
    /**
     * \brief Give a device its queue, node and queue interface.
     * \param node the node
     * \param device the device
     */
    void Prepare(Ptr<Node> node, Ptr<EthernetNetDevice> device) const;

    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_queueFactory;   //!< transmit queues
    ObjectFactory m_deviceFactory;  //!< devices
    ObjectFactory m_channelFactory; //!< channels
    bool m_enableFlowControl;       //!< aggregate a NetDeviceQueueInterface
};

template <typename... Ts>
void
EthernetHelper::SetQueue(std::string type, Ts&&... args)
{
    QueueBase::AppendItemTypeIfNotPresent(type, "Packet");
    m_queueFactory.SetTypeId(type);
    m_queueFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* ETHERNET_HELPER_H */
