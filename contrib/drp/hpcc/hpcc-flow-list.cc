/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-flow-list.h"

#include "hpcc-text-reader.h"

#include <limits>

namespace ns3
{

HpccFlowList
HpccFlowList::Read(const std::string& path)
{
    HpccTextReader in(path, "flow file");
    HpccFlowList list;
    list.m_path = path;
    const uint64_t count = in.Count("the flow count", MAX_FLOWS);
    const uint64_t maxNode = std::numeric_limits<uint32_t>::max();
    list.m_flows.reserve(count);
    for (uint64_t i = 0; i < count; ++i)
    {
        Flow flow;
        flow.source = static_cast<uint32_t>(in.Count("a flow's source", maxNode));
        flow.line = in.GetLine();
        flow.destination = static_cast<uint32_t>(in.Count("a flow's destination", maxNode));
        flow.pg = static_cast<uint8_t>(in.Count("a flow's priority group", 7));
        flow.dport = static_cast<uint16_t>(in.Count("a flow's destination port", 65535));
        flow.bytes =
            static_cast<uint32_t>(in.Count("a flow's size", std::numeric_limits<uint32_t>::max()));
        flow.start = Seconds(in.Number("a flow's start time (seconds)", 0, MAX_START));
        if (flow.bytes == 0)
        {
            throw in.Error(flow.line, "a flow's size is 0 (at least 1 byte)");
        }
        if (flow.source == flow.destination)
        {
            throw in.Error(flow.line,
                           "the flow goes from node " + std::to_string(flow.source) + " to itself");
        }
        list.m_flows.push_back(flow);
    }
    if (!in.AtEnd())
    {
        in.Word("more");
        throw in.Error("more than the " + std::to_string(count) +
                       " flows the first line announces");
    }
    return list;
}

const std::string&
HpccFlowList::GetPath() const
{
    return m_path;
}

const std::vector<HpccFlowList::Flow>&
HpccFlowList::GetFlows() const
{
    return m_flows;
}

} // namespace ns3
