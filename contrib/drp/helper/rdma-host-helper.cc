/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-host-helper.h"

#include "ns3/address.h"
#include "ns3/host-cpus.h"
#include "ns3/net-device.h"
#include "ns3/nic-profile.h"
#include "ns3/node.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rnic-net-device.h"
#include "ns3/string.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

RdmaHostHelper::RdmaHostHelper()
{
    m_factory.SetTypeId(RdmaHostApplication::GetTypeId());
    m_cpuFactory.SetTypeId(HostCpus::GetTypeId());
}

void
RdmaHostHelper::SetCpuAttribute(std::string name, const AttributeValue& value)
{
    m_cpuFactory.Set(name, value); // an unknown name, or a value of the wrong type, fails here
    m_cpuAttributes.emplace_back(name, value.Copy());
}

void
RdmaHostHelper::SetProfile(const std::string& name)
{
    for (const NicProfile::Setting& setting : NicProfile::Get(name).GetSettings())
    {
        if (setting.typeId == "ns3::RdmaHostApplication" && !NicProfile::IsDefaultChanged(setting))
        {
            SetAttribute(setting.attribute, StringValue(setting.value));
        }
    }
}

void
RdmaHostHelper::SetAttribute(std::string name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
RdmaHostHelper::Install(Ptr<Node> node) const
{
    Ptr<HostCpus> cpus = node->GetObject<HostCpus>();
    if (!cpus)
    {
        cpus = CreateObject<HostCpus>();
        node->AggregateObject(cpus);
    }
    for (const auto& attribute : m_cpuAttributes)
    {
        cpus->SetAttribute(attribute.first, *attribute.second);
    }
    Ptr<Application> app = m_factory.Create<RdmaHostApplication>();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

ApplicationContainer
RdmaHostHelper::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        apps.Add(Install(*it));
    }
    return apps;
}

void
RdmaHostHelper::SetWorkload(Ptr<Application> app, Ptr<NetDevice> peer)
{
    app->SetAttribute("Peer", AddressValue(peer->GetAddress()));
}

int64_t
RdmaHostHelper::AssignStreams(ApplicationContainer apps, int64_t stream)
{
    int64_t used = 0;
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        Ptr<RdmaHostApplication> host = DynamicCast<RdmaHostApplication>(*it);
        if (host)
        {
            used += host->AssignStreams(stream + used);
        }
    }
    return used;
}

void
RdmaHostHelper::RequireAllEnded(ApplicationContainer apps)
{
    std::ostringstream open;
    for (auto it = apps.Begin(); it != apps.End(); ++it)
    {
        Ptr<RdmaHostApplication> host = DynamicCast<RdmaHostApplication>(*it);
        if (host && host->GetOpenTransfers() > 0)
        {
            open << (open.str().empty() ? "" : ", ") << "node " << host->GetNode()->GetId() << ": "
                 << host->GetOpenTransfers() << " (" << host->GetInFlight() << " posted, "
                 << host->GetRnic()->GetTransport()->GetFramesWaiting()
                 << " frames waiting in its RNIC)";
        }
    }
    if (!open.str().empty())
    {
        throw std::logic_error("transfers still open when the simulator ran out of events, so "
                               "they would never end (a stall in the model): " +
                               open.str());
    }
}

} // namespace ns3
