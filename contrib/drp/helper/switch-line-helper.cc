/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-line-helper.h"

#include "ns3/bridge-helper.h"
#include "ns3/drp-check.h"
#include "ns3/log.h"

#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchLineHelper");

SwitchLineHelper::SwitchLineHelper(uint32_t switches,
                                   uint32_t hostsPerSwitch,
                                   RnicHelper& hostLinks,
                                   EthernetHelper& trunkLinks)
    : m_hostsPerSwitch(hostsPerSwitch)
{
    drp::RequireInRange<uint32_t>("SwitchLineHelper switches", switches, 1, 65535);
    drp::RequireInRange<uint32_t>("SwitchLineHelper hostsPerSwitch", hostsPerSwitch, 1, 65535);
    m_switches.Create(switches);
    m_hosts.Create(switches * hostsPerSwitch);
    std::vector<NetDeviceContainer> ports(switches);
    for (uint32_t s = 0; s < switches; ++s)
    {
        for (uint32_t h = 0; h < hostsPerSwitch; ++h)
        {
            NetDeviceContainer link = hostLinks.InstallHostLink(GetHost(s, h), m_switches.Get(s));
            m_rnics.Add(link.Get(0));
            ports[s].Add(link.Get(1));
        }
        if (s > 0)
        {
            NetDeviceContainer trunk = trunkLinks.Install(m_switches.Get(s - 1), m_switches.Get(s));
            ports[s - 1].Add(trunk.Get(0));
            ports[s].Add(trunk.Get(1));
        }
    }
    BridgeHelper bridge;
    for (uint32_t s = 0; s < switches; ++s)
    {
        bridge.Install(m_switches.Get(s), ports[s]);
        m_ports.Add(ports[s]);
    }
}

NodeContainer
SwitchLineHelper::GetSwitches() const
{
    return m_switches;
}

NodeContainer
SwitchLineHelper::GetHosts() const
{
    return m_hosts;
}

Ptr<Node>
SwitchLineHelper::GetHost(uint32_t sw, uint32_t host) const
{
    return m_hosts.Get(sw * m_hostsPerSwitch + host);
}

NetDeviceContainer
SwitchLineHelper::GetRnics() const
{
    return m_rnics;
}

NetDeviceContainer
SwitchLineHelper::GetSwitchPorts() const
{
    return m_ports;
}

} // namespace ns3
