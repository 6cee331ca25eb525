/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RNIC_HELPER_H
#define RNIC_HELPER_H

#include "ns3/ethernet-helper.h"
#include "ns3/mode-policy.h"
#include "ns3/object-factory.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RnicNetDevice;

/**
 * \ingroup drp
 * \brief Builds RNICs (RnicNetDevice) on full-duplex Ethernet links.
 *
 * Used like PointToPointHelper. Everything EthernetHelper offers applies
 * (SetQueue, SetDeviceAttribute for the Ethernet port, SetChannelAttribute,
 * pcap and ascii tracing). In addition:
 *
 * - SetMethod() chooses the traditional or the dynamic RNIC;
 * - SetEtherType() the EtherType of DRP frames (0x01FF by default, or 0x88B5);
 * - SetTransportAttribute(), SetPcieAttribute(), SetIndirectBufferAttribute()
 *   and SetPolicyAttribute() configure the RNIC's parts, each made from an
 *   ObjectFactory;
 * - SetProfile() sets all of those for a named card (NicProfile): the
 *   paper's Gigabit card (the defaults), the paper's hardware testbed, or a
 *   25 to 400 Gb/s server RNIC.
 *
 * Install(a, b) puts an RNIC at both ends of one link (the paper's
 * point-to-point setup). InstallHostLink(host, sw) puts an RNIC on the host
 * and a plain EthernetNetDevice on the switch node, for SwitchLineHelper or
 * your own BridgeHelper topologies.
 *
 * \code
 *   RnicHelper rnic;
 *   rnic.SetMethod("dynamic");
 *   rnic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
 *   rnic.SetTransportAttribute("PayloadSize", UintegerValue(1024));
 *   NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
 * \endcode
 */
class RnicHelper : public EthernetHelper
{
  public:
    RnicHelper();

    /// \param method traditional or dynamic
    void SetMethod(ModePolicy::Method method);
    /// \param method "traditional" or "dynamic" (anything else throws std::invalid_argument)
    void SetMethod(const std::string& method);
    /// \return the method of the RNICs this helper makes
    ModePolicy::Method GetMethod() const;
    /**
     * \param etherType the EtherType of DRP frames (RnicNetDevice::EtherType):
     *        0x01FF (the default) or 0x88B5 (IEEE 802 local experimental); throws
     *        std::invalid_argument unless RnicNetDevice::IsValidEtherType().
     *        Unless called, the RNICs keep the attribute's default.
     */
    void SetEtherType(uint16_t etherType);
    /// \return the EtherType of the RNICs this helper makes
    uint16_t GetEtherType() const;
    /**
     * \param name a DrpTransport attribute
     * \param value its value
     */
    void SetTransportAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name a PcieLink attribute
     * \param value its value
     */
    void SetPcieAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name an IndirectBuffer attribute (dynamic RNIC only)
     * \param value its value
     */
    void SetIndirectBufferAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name a ModePolicy attribute
     * \param value its value
     */
    void SetPolicyAttribute(std::string name, const AttributeValue& value);
    /**
     * \param name an attribute of RnicNetDevice's own (HostPacketTime,
     *        DrpClass, ...: those it adds to EthernetNetDevice's, which
     *        SetDeviceAttribute() sets on the RNICs and the switch ports they
     *        plug into); throws std::invalid_argument for another name
     * \param value its value, set on every RNIC this helper makes
     */
    void SetRnicAttribute(std::string name, const AttributeValue& value);
    /**
     * Makes RNICs of a NicProfile: sets every attribute value of the profile
     * (port, PCIe link, transport, indirect buffer, the RnicNetDevice's own)
     * as the Set*Attribute calls would; the host's values of a profile
     * (RdmaHostApplication) are RdmaHostHelper::SetProfile's. A setting made after this call
     * overrides the profile's, and an attribute default changed with Config::SetDefault (or
     * --ns3::TYPE::NAME on a command line) is kept (NicProfile::IsDefaultChanged).
     * \param name a profile's name (NicProfile::GetNames()); anything else
     *        throws std::invalid_argument naming the valid ones
     */
    void SetProfile(const std::string& name);
    /// \return the profile last set (NicProfile::PAPER, the defaults, unless set)
    const std::string& GetProfile() const;

    /**
     * Links a host to a switch node: an RNIC on the host, a plain Ethernet
     * port on the switch (bridge it with BridgeHelper).
     * \param host the host
     * \param sw the switch node
     * \return the RNIC, then the switch port
     */
    NetDeviceContainer InstallHostLink(Ptr<Node> host, Ptr<Node> sw);

  protected:
    Ptr<EthernetNetDevice> CreateDevice(Ptr<Node> node) const override;

  private:
    /// \return a new RNIC with the configured method and parts
    Ptr<RnicNetDevice> CreateRnic() const;

    std::string m_profile;               //!< the NicProfile last set
    ModePolicy::Method m_method;         //!< traditional or dynamic
    std::optional<uint16_t> m_etherType; //!< EtherType of DRP frames, if set
    ObjectFactory m_transportFactory;    //!< DrpTransport
    ObjectFactory m_pcieFactory;         //!< PcieLink
    ObjectFactory m_bufferFactory;       //!< IndirectBuffer
    ObjectFactory m_policyFactory;       //!< ModePolicy
    /// RnicNetDevice's own attributes, set on every RNIC made (SetRnicAttribute)
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_rnicAttributes;
};

} // namespace ns3

#endif /* RNIC_HELPER_H */
