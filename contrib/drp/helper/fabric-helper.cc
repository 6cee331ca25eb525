/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rnic-net-device.h"

#ifdef DRP_MPI
#include "ns3/mpi-interface.h"
#endif

#include <deque>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricHelper");

namespace
{
/// Distance of a switch not (yet) reached.
constexpr uint32_t UNREACHED = std::numeric_limits<uint32_t>::max();
} // namespace

FabricHelper::SystemIdOf FabricHelper::s_placement;

void
FabricHelper::SetSwitchSystemIds(SystemIdOf placement)
{
    s_placement = std::move(placement);
}

FabricHelper::SystemIdOf
FabricHelper::ByRoundRobin(uint32_t ranks, uint32_t restartAt)
{
    NS_ABORT_MSG_IF(ranks == 0, "FabricHelper::ByRoundRobin: ranks = 0, must be at least 1");
    return
        [ranks, restartAt](uint32_t sw) { return (sw < restartAt ? sw : sw - restartAt) % ranks; };
}

uint32_t
FabricHelper::GetLocalSystemId()
{
#ifdef DRP_MPI
    if (MpiInterface::IsEnabled())
    {
        return MpiInterface::GetSystemId();
    }
#endif
    return 0;
}

bool
FabricHelper::IsLocal([[maybe_unused]] Ptr<Node> node)
{
#ifdef DRP_MPI
    if (MpiInterface::IsEnabled())
    {
        return node->GetSystemId() == MpiInterface::GetSystemId();
    }
#endif
    return true;
}

FabricHelper::FabricHelper(RnicHelper& hostLinks, EthernetHelper& fabricLinks)
    : m_hostLinks(hostLinks),
      m_fabricLinks(fabricLinks)
{
}

uint32_t
FabricHelper::CreateSwitches(uint32_t n)
{
    const uint32_t first = m_switchNodes.GetN();
    for (uint32_t i = first; i < first + n; ++i)
    {
        m_switchNodes.Add(CreateObject<Node>(s_placement ? s_placement(i) : 0));
    }
    m_ports.resize(first + n);
    m_trunks.resize(first + n);
    return first;
}

uint32_t
FabricHelper::AttachHost(uint32_t sw)
{
    Ptr<Node> host = CreateObject<Node>(m_switchNodes.Get(sw)->GetSystemId());
    NetDeviceContainer link = m_hostLinks.InstallHostLink(host, m_switchNodes.Get(sw));
    // The switch end is a switch port: its buffer is the fabric's.
    DynamicCast<EthernetNetDevice>(link.Get(1))->SetQueue(m_fabricLinks.CreateQueue());
    m_hosts.Add(host);
    m_rnics.Add(link.Get(0));
    m_edge.push_back(sw);
    m_hostPort.push_back(m_ports[sw].GetN());
    m_ports[sw].Add(link.Get(1));
    return m_hosts.GetN() - 1;
}

NetDeviceContainer
FabricHelper::LinkSwitches(uint32_t a, uint32_t b)
{
    NS_ABORT_MSG_IF(a == b, "FabricHelper: a switch cannot be linked to itself");
    NetDeviceContainer link = m_fabricLinks.Install(m_switchNodes.Get(a), m_switchNodes.Get(b));
    m_trunks[a].push_back({m_ports[a].GetN(), b, m_ports[b].GetN()});
    m_trunks[b].push_back({m_ports[b].GetN(), a, m_ports[a].GetN()});
    m_ports[a].Add(link.Get(0));
    m_ports[b].Add(link.Get(1));
    return link;
}

NetDeviceContainer
FabricHelper::GetHostLink(uint32_t host) const
{
    GetHost(host);
    NetDeviceContainer link(m_rnics.Get(host));
    link.Add(m_ports[m_edge[host]].Get(m_hostPort[host]));
    return link;
}

void
FabricHelper::SetNodeIds(std::vector<uint32_t> hostIds, std::vector<uint32_t> switchIds)
{
    NS_ABORT_MSG_IF(hostIds.size() != m_hosts.GetN() || switchIds.size() != m_switchNodes.GetN(),
                    "FabricHelper::SetNodeIds: one id per host and per switch");
    m_hostIds = std::move(hostIds);
    m_switchIds = std::move(switchIds);
}

uint32_t
FabricHelper::GetHostNodeId(uint32_t host) const
{
    GetHost(host);
    return m_hostIds.empty() ? host : m_hostIds[host];
}

uint32_t
FabricHelper::GetSwitchNodeId(uint32_t sw) const
{
    NS_ABORT_MSG_UNLESS(sw < m_switchNodes.GetN(),
                        "FabricHelper: switch " << sw << " out of range [0, "
                                                << m_switchNodes.GetN() << ")");
    return m_switchIds.empty() ? m_hosts.GetN() + sw : m_switchIds[sw];
}

void
FabricHelper::Build()
{
    NS_ABORT_MSG_IF(!m_switches.empty(), "FabricHelper: Build() runs once");
    for (uint32_t s = 0; s < m_switchNodes.GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> device = CreateObject<EcmpSwitchNetDevice>();
        m_switchNodes.Get(s)->AddDevice(device);
        for (uint32_t p = 0; p < m_ports[s].GetN(); ++p)
        {
            device->AddPort(DynamicCast<EthernetNetDevice>(m_ports[s].Get(p)));
        }
        m_switches.push_back(device);
    }
    // Every host's group is its edge switch: one table for the whole fabric.
    auto groups = std::make_shared<EcmpSwitchNetDevice::RouteGroups>();
    for (uint32_t h = 0; h < m_hosts.GetN(); ++h)
    {
        const Mac48Address mac = Mac48Address::ConvertFrom(m_rnics.Get(h)->GetAddress());
        (*groups)[EcmpSwitchNetDevice::GetAddressKey(mac)] = m_edge[h];
    }
    for (const auto& sw : m_switches)
    {
        sw->SetRouteGroups(groups);
    }
    for (uint32_t s = 0; s < m_switchNodes.GetN(); ++s)
    {
        m_distance.push_back(Distances(s));
        AddRoutesTo(s, m_distance.back());
    }
    MarkSpanningTree();
}

std::vector<uint32_t>
FabricHelper::Distances(uint32_t from) const
{
    std::vector<uint32_t> distance(m_switchNodes.GetN(), UNREACHED);
    std::deque<uint32_t> frontier{from};
    distance[from] = 0;
    while (!frontier.empty())
    {
        const uint32_t s = frontier.front();
        frontier.pop_front();
        for (const Trunk& t : m_trunks[s])
        {
            if (distance[t.neighbor] == UNREACHED)
            {
                distance[t.neighbor] = distance[s] + 1;
                frontier.push_back(t.neighbor);
            }
        }
    }
    for (uint32_t s = 0; s < distance.size(); ++s)
    {
        if (distance[s] == UNREACHED)
        {
            std::ostringstream os;
            os << "FabricHelper: switch " << s << " cannot reach switch " << from
               << ": the fabric is not connected";
            throw std::invalid_argument(os.str());
        }
    }
    return distance;
}

void
FabricHelper::AddRoutesTo(uint32_t edge, const std::vector<uint32_t>& distance)
{
    bool hasHosts = false;
    for (uint32_t h = 0; h < m_hosts.GetN(); ++h)
    {
        if (m_edge[h] == edge)
        {
            // The edge switch itself: the host's own port.
            hasHosts = true;
            m_switches[edge]->AddRoute(Mac48Address::ConvertFrom(m_rnics.Get(h)->GetAddress()),
                                       {m_hostPort[h]});
        }
    }
    if (!hasHosts)
    {
        return;
    }
    // Every other switch: the next hops on a shortest path to the edge
    // switch, one route for all its hosts.
    for (uint32_t s = 0; s < m_switchNodes.GetN(); ++s)
    {
        if (s == edge)
        {
            continue;
        }
        std::vector<uint32_t> nextHops;
        for (const Trunk& t : m_trunks[s])
        {
            if (distance[t.neighbor] + 1 == distance[s])
            {
                nextHops.push_back(t.port);
            }
        }
        m_switches[s]->AddGroupRoute(edge, nextHops);
    }
}

void
FabricHelper::MarkSpanningTree()
{
    for (uint32_t h = 0; h < m_hosts.GetN(); ++h)
    {
        m_switches[m_edge[h]]->SetFloodPort(m_hostPort[h], true);
    }
    if (m_switchNodes.GetN() == 0)
    {
        return;
    }
    std::vector<bool> reached(m_switchNodes.GetN(), false);
    std::deque<uint32_t> frontier{0};
    reached[0] = true;
    while (!frontier.empty())
    {
        const uint32_t s = frontier.front();
        frontier.pop_front();
        for (const Trunk& t : m_trunks[s])
        {
            if (reached[t.neighbor])
            {
                continue;
            }
            reached[t.neighbor] = true;
            frontier.push_back(t.neighbor);
            m_switches[s]->SetFloodPort(t.port, true);
            m_switches[t.neighbor]->SetFloodPort(t.neighborPort, true);
        }
    }
}

NodeContainer
FabricHelper::GetHosts() const
{
    return m_hosts;
}

Ptr<Node>
FabricHelper::GetHost(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_hosts.GetN(),
                        "FabricHelper: host " << i << " out of range [0, " << m_hosts.GetN()
                                              << ")");
    return m_hosts.Get(i);
}

NetDeviceContainer
FabricHelper::GetRnics() const
{
    return m_rnics;
}

Ptr<RnicNetDevice>
FabricHelper::GetRnic(uint32_t i) const
{
    GetHost(i);
    return DynamicCast<RnicNetDevice>(m_rnics.Get(i));
}

NodeContainer
FabricHelper::GetSwitches() const
{
    return m_switchNodes;
}

Ptr<EcmpSwitchNetDevice>
FabricHelper::GetSwitch(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_switches.size(),
                        "FabricHelper: switch " << i << " out of range [0, " << m_switches.size()
                                                << ")");
    return m_switches[i];
}

NetDeviceContainer
FabricHelper::GetSwitchPorts() const
{
    NetDeviceContainer all;
    for (const auto& ports : m_ports)
    {
        all.Add(ports);
    }
    return all;
}

uint32_t
FabricHelper::GetEdgeSwitch(uint32_t host) const
{
    GetHost(host);
    return m_edge[host];
}

uint32_t
FabricHelper::GetSwitchHops(uint32_t a, uint32_t b) const
{
    NS_ABORT_MSG_IF(m_distance.empty(), "FabricHelper: the fabric is not built yet");
    return m_distance[GetEdgeSwitch(a)][GetEdgeSwitch(b)] + 1;
}

std::vector<Ptr<EthernetNetDevice>>
FabricHelper::GetPath(uint32_t a, uint32_t b) const
{
    NS_ABORT_MSG_IF(m_distance.empty(), "FabricHelper: the fabric is not built yet");
    NS_ABORT_MSG_IF(a == b, "FabricHelper::GetPath: host " << a << " to itself");
    std::vector<Ptr<EthernetNetDevice>> path{GetRnic(a)};
    const uint32_t last = GetEdgeSwitch(b);
    uint32_t sw = GetEdgeSwitch(a);
    while (sw != last)
    {
        for (const Trunk& trunk : m_trunks[sw])
        {
            if (m_distance[trunk.neighbor][last] + 1 == m_distance[sw][last])
            {
                path.push_back(DynamicCast<EthernetNetDevice>(m_ports[sw].Get(trunk.port)));
                sw = trunk.neighbor;
                break;
            }
        }
    }
    path.push_back(DynamicCast<EthernetNetDevice>(m_ports[last].Get(m_hostPort[b])));
    return path;
}

} // namespace ns3
