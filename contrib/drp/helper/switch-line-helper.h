/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCH_LINE_HELPER_H
#define SWITCH_LINE_HELPER_H

#include "ns3/ethernet-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/rnic-helper.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief Hosts with RNICs on a line of Ethernet switches.
 *
 * A layout helper in the style of PointToPointDumbbellHelper: it makes
 * \p switches switch nodes in a line (switch i linked to switch i+1 by a
 * trunk link), attaches \p hostsPerSwitch new host nodes to each switch by
 * an RNIC link, and turns each switch node into a learning switch with
 * ns-3's BridgeNetDevice over its ports.
 *
 *     h h        h h        h h
 *      \|         \|         \|
 *      S0 ------- S1 ------- S2
 *
 * Host links come from an RnicHelper (method, RNIC parts, port and cable
 * attributes), trunk links from an EthernetHelper.
 */
class SwitchLineHelper
{
  public:
    /**
     * Builds the topology.
     * \param switches number of switches (at least 1)
     * \param hostsPerSwitch hosts on each switch (at least 1)
     * \param hostLinks makes the host links (RNIC on the host)
     * \param trunkLinks makes the links between switches
     */
    SwitchLineHelper(uint32_t switches,
                     uint32_t hostsPerSwitch,
                     RnicHelper& hostLinks,
                     EthernetHelper& trunkLinks);

    /// \return the switch nodes, in line order
    NodeContainer GetSwitches() const;
    /// \return all host nodes: those of switch 0 first
    NodeContainer GetHosts() const;
    /**
     * \param sw switch index
     * \param host host index on that switch
     * \return the host node
     */
    Ptr<Node> GetHost(uint32_t sw, uint32_t host) const;
    /// \return the hosts' RNICs, in the order of GetHosts()
    NetDeviceContainer GetRnics() const;
    /// \return the switches' ports (host and trunk ports)
    NetDeviceContainer GetSwitchPorts() const;

  private:
    uint32_t m_hostsPerSwitch;  //!< hosts on each switch
    NodeContainer m_switches;   //!< switch nodes
    NodeContainer m_hosts;      //!< host nodes
    NetDeviceContainer m_rnics; //!< hosts' RNICs
    NetDeviceContainer m_ports; //!< switch ports
};

} // namespace ns3

#endif /* SWITCH_LINE_HELPER_H */
