/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-topology.h"

#include "hpcc-text-reader.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <set>
#include <utility>

namespace ns3
{

namespace
{
/// A link's index not (yet) known.
constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
} // namespace

HpccTopology
HpccTopology::Read(const std::string& path)
{
    HpccTextReader in(path, "topology file");
    HpccTopology t;
    t.m_path = path;
    t.m_nodes = in.Count("the node count", MAX_NODES);
    const auto switches = static_cast<uint32_t>(in.Count("the switch count", t.m_nodes));
    const auto links = in.Count("the link count", uint64_t(t.m_nodes) * t.m_nodes);
    if (switches == 0)
    {
        throw in.Error("the file names no switch (drp's hosts are linked to switches)");
    }
    t.m_isSwitch.assign(t.m_nodes, false);
    for (uint32_t i = 0; i < switches; ++i)
    {
        const auto id = static_cast<uint32_t>(in.Count("a switch id", t.m_nodes - 1));
        if (t.m_isSwitch[id])
        {
            throw in.Error("switch " + std::to_string(id) + " is named twice");
        }
        t.m_isSwitch[id] = true;
        t.m_switchIds.push_back(id);
    }
    t.m_hostLink.assign(t.m_nodes, NONE);
    std::set<std::pair<uint32_t, uint32_t>> seen;
    std::vector<std::vector<uint32_t>> neighbors(t.m_nodes);
    for (uint64_t i = 0; i < links; ++i)
    {
        Link link;
        link.a = static_cast<uint32_t>(in.Count("a link's first node", t.m_nodes - 1));
        link.line = in.GetLine();
        link.b = static_cast<uint32_t>(in.Count("a link's second node", t.m_nodes - 1));
        link.rate = in.Rate("the link's rate");
        link.delay = in.Delay("the link's delay", Seconds(1));
        link.errorRate = in.Number("the link's error rate", 0, 0.999999);
        const std::string pair = std::to_string(link.a) + " - " + std::to_string(link.b);
        if (link.a == link.b)
        {
            throw in.Error(link.line, "node " + std::to_string(link.a) + " is linked to itself");
        }
        if (!seen.insert(std::minmax(link.a, link.b)).second)
        {
            throw in.Error(link.line, "the link " + pair + " is named twice");
        }
        if (!t.m_isSwitch[link.a] && !t.m_isSwitch[link.b])
        {
            throw in.Error(link.line,
                           "the link " + pair +
                               " joins two hosts (drp's hosts are linked to switches)");
        }
        for (uint32_t host : {link.a, link.b})
        {
            if (t.m_isSwitch[host])
            {
                continue;
            }
            if (t.m_hostLink[host] != NONE)
            {
                throw in.Error(link.line,
                               "host " + std::to_string(host) + " has a second link (line " +
                                   std::to_string(t.m_links[t.m_hostLink[host]].line) +
                                   " is its first; drp's hosts have one RNIC port)");
            }
            t.m_hostLink[host] = static_cast<uint32_t>(t.m_links.size());
            t.m_hostIds.push_back(host);
        }
        if (t.m_isSwitch[link.a] && t.m_isSwitch[link.b])
        {
            neighbors[link.a].push_back(link.b);
            neighbors[link.b].push_back(link.a);
        }
        t.m_links.push_back(link);
    }
    if (!in.AtEnd())
    {
        in.Word("more");
        throw in.Error("more than the " + std::to_string(links) +
                       " links the first line announces");
    }
    for (uint32_t node = 0; node < t.m_nodes; ++node)
    {
        if (!t.m_isSwitch[node] && t.m_hostLink[node] == NONE)
        {
            throw in.Error(1, "host " + std::to_string(node) + " has no link");
        }
    }
    // Every switch reaches every other: routes exist between all hosts.
    std::vector<bool> reached(t.m_nodes, false);
    std::deque<uint32_t> frontier{t.m_switchIds.front()};
    reached[t.m_switchIds.front()] = true;
    while (!frontier.empty())
    {
        const uint32_t s = frontier.front();
        frontier.pop_front();
        for (uint32_t n : neighbors[s])
        {
            if (!reached[n])
            {
                reached[n] = true;
                frontier.push_back(n);
            }
        }
    }
    for (uint32_t s : t.m_switchIds)
    {
        if (!reached[s])
        {
            throw in.Error(2,
                           "switch " + std::to_string(s) + " cannot be reached from switch " +
                               std::to_string(t.m_switchIds.front()) +
                               ": the switches are not connected");
        }
    }
    return t;
}

const std::string&
HpccTopology::GetPath() const
{
    return m_path;
}

uint32_t
HpccTopology::GetNodeCount() const
{
    return m_nodes;
}

const std::vector<uint32_t>&
HpccTopology::GetSwitchIds() const
{
    return m_switchIds;
}

const std::vector<uint32_t>&
HpccTopology::GetHostIds() const
{
    return m_hostIds;
}

const std::vector<HpccTopology::Link>&
HpccTopology::GetLinks() const
{
    return m_links;
}

bool
HpccTopology::IsSwitch(uint32_t node) const
{
    return node < m_nodes && m_isSwitch[node];
}

const HpccTopology::Link&
HpccTopology::GetHostLink(uint32_t node) const
{
    if (node >= m_nodes || m_isSwitch[node])
    {
        throw std::invalid_argument(m_path + ": node " + std::to_string(node) + " is not a host");
    }
    return m_links[m_hostLink[node]];
}

} // namespace ns3
