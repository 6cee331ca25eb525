/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RNIC_NET_DEVICE_H
#define RNIC_NET_DEVICE_H

#include "drp-transport.h"
#include "mode-policy.h"

#include "ns3/ethernet-net-device.h"
#include "ns3/pcie-link.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief An RDMA NIC: a full-duplex Ethernet port plus the DRP engine.
 *
 * Frames with EtherType 0x01FF addressed to this port go to the DRP
 * transport; everything else (ARP, IPv4, ...) goes up the stack as from any
 * EthernetNetDevice, and shares the port's transmit queue with DRP frames.
 * Other traffic crosses the PCIe link too (one DMA request per frame each
 * way), so it loads the host interface as well as the link.
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
class RnicNetDevice : public EthernetNetDevice
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RnicNetDevice();

    /// \param method traditional or dynamic; (re)creates the indirect buffer as needed
    void SetMethod(ModePolicy::Method method);
    /// \return traditional or dynamic
    ModePolicy::Method GetMethod() const;
    /// \param transport the DRP transport (wired to this port, its PCIe link and policy)
    void SetTransport(Ptr<DrpTransport> transport);
    /// \return the DRP transport
    Ptr<DrpTransport> GetTransport() const;
    /// \param pcie the PCIe link (wired to the transport and the node's memory)
    void SetPcieLink(Ptr<PcieLink> pcie);
    /// \return the PCIe link to the host
    Ptr<PcieLink> GetPcieLink() const;
    /// \return the host memory behind the PCIe link
    Ptr<HostMemory> GetHostMemory() const;

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
    void DeliverUp(Ptr<Packet> packet,
                   uint16_t protocol,
                   Mac48Address from,
                   Mac48Address to,
                   PacketType type) override;

  private:
    ModePolicy::Method m_method;   //!< traditional or dynamic
    Ptr<PcieLink> m_pcie;          //!< host interface
    Ptr<DrpTransport> m_transport; //!< the DRP engine
};

} // namespace ns3

#endif /* RNIC_NET_DEVICE_H */
