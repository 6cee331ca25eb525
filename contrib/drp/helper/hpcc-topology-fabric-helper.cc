/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-topology-fabric-helper.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/log.h"
#include "ns3/pointer.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccTopologyFabricHelper");

HpccTopologyFabricHelper::HpccTopologyFabricHelper(const HpccTopology& topology,
                                                   RnicHelper& hostLinks,
                                                   EthernetHelper& fabricLinks)
    : FabricHelper(hostLinks, fabricLinks),
      m_path(topology.GetPath())
{
    std::map<uint32_t, uint32_t> switchOf;
    for (uint32_t id : topology.GetSwitchIds())
    {
        switchOf[id] = CreateSwitches(1);
    }
    for (const HpccTopology::Link& link : topology.GetLinks())
    {
        if (topology.IsSwitch(link.a) && topology.IsSwitch(link.b))
        {
            Configure(LinkSwitches(switchOf.at(link.a), switchOf.at(link.b)), link);
            continue;
        }
        const uint32_t node = topology.IsSwitch(link.a) ? link.b : link.a;
        const uint32_t host = AttachHost(switchOf.at(topology.IsSwitch(link.a) ? link.a : link.b));
        m_hostOf[node] = host;
        Configure(GetHostLink(host), link);
    }
    std::vector<uint32_t> hostIds(m_hostOf.size());
    for (const auto& [node, host] : m_hostOf)
    {
        hostIds[host] = node;
    }
    SetNodeIds(hostIds, topology.GetSwitchIds());
    NS_LOG_INFO(m_path << ": " << hostIds.size() << " hosts, " << switchOf.size() << " switches, "
                       << topology.GetLinks().size() << " links");
    Build();
}

void
HpccTopologyFabricHelper::Configure(const NetDeviceContainer& devices,
                                    const HpccTopology::Link& link)
{
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<EthernetNetDevice> device = DynamicCast<EthernetNetDevice>(devices.Get(i));
        device->SetDataRate(link.rate);
        if (link.errorRate > 0)
        {
            Ptr<RateErrorModel> errors = CreateObject<RateErrorModel>();
            errors->SetAttribute("ErrorRate", DoubleValue(link.errorRate));
            errors->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
            device->SetAttribute("ReceiveErrorModel", PointerValue(errors));
            m_lossy.Add(device);
        }
    }
    DynamicCast<EthernetChannel>(devices.Get(0)->GetChannel())->SetDelay(link.delay);
}

uint32_t
HpccTopologyFabricHelper::GetHostOfNode(uint32_t node) const
{
    auto it = m_hostOf.find(node);
    if (it == m_hostOf.end())
    {
        throw std::invalid_argument(m_path + ": node " + std::to_string(node) +
                                    " is not a host of the topology");
    }
    return it->second;
}

int64_t
HpccTopologyFabricHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (uint32_t i = 0; i < m_lossy.GetN(); ++i)
    {
        used += DynamicCast<EthernetNetDevice>(m_lossy.Get(i))->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
