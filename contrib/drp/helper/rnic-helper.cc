/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rnic-helper.h"

#include "ns3/drp-transport.h"
#include "ns3/enum.h"
#include "ns3/fatal-error.h"
#include "ns3/indirect-buffer.h"
#include "ns3/log.h"
#include "ns3/nic-profile.h"
#include "ns3/pcie-link.h"
#include "ns3/pointer.h"
#include "ns3/rnic-net-device.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RnicHelper");

RnicHelper::RnicHelper()
    : m_profile(NicProfile::PAPER),
      m_method(ModePolicy::DYNAMIC)
{
    m_transportFactory.SetTypeId(DrpTransport::GetTypeId());
    m_pcieFactory.SetTypeId(PcieLink::GetTypeId());
    m_bufferFactory.SetTypeId(IndirectBuffer::GetTypeId());
    m_policyFactory.SetTypeId(ModePolicy::GetTypeId());
}

void
RnicHelper::SetMethod(ModePolicy::Method method)
{
    m_method = method;
}

void
RnicHelper::SetMethod(const std::string& method)
{
    m_method = ModePolicy::ParseMethod(method);
}

ModePolicy::Method
RnicHelper::GetMethod() const
{
    return m_method;
}

void
RnicHelper::SetEtherType(uint16_t etherType)
{
    RnicNetDevice::CheckEtherType("RnicHelper::SetEtherType", etherType);
    m_etherType = etherType;
}

uint16_t
RnicHelper::GetEtherType() const
{
    if (m_etherType)
    {
        return *m_etherType;
    }
    TypeId::AttributeInformation info;
    RnicNetDevice::GetTypeId().LookupAttributeByName("EtherType", &info);
    return static_cast<uint16_t>(DynamicCast<const UintegerValue>(info.initialValue)->Get());
}

void
RnicHelper::SetTransportAttribute(std::string name, const AttributeValue& value)
{
    m_transportFactory.Set(name, value);
}

void
RnicHelper::SetPcieAttribute(std::string name, const AttributeValue& value)
{
    m_pcieFactory.Set(name, value);
}

void
RnicHelper::SetIndirectBufferAttribute(std::string name, const AttributeValue& value)
{
    m_bufferFactory.Set(name, value);
}

void
RnicHelper::SetPolicyAttribute(std::string name, const AttributeValue& value)
{
    m_policyFactory.Set(name, value);
}

void
RnicHelper::SetRnicAttribute(std::string name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    if (!RnicNetDevice::GetTypeId().LookupAttributeByName(name, &info) ||
        EthernetNetDevice::GetTypeId().LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("RnicHelper::SetRnicAttribute: " + name +
                                    " is no attribute of RnicNetDevice's own (an "
                                    "EthernetNetDevice attribute goes to SetDeviceAttribute)");
    }
    m_rnicAttributes.emplace_back(name, value.Copy());
}

void
RnicHelper::SetProfile(const std::string& name)
{
    const NicProfile& profile = NicProfile::Get(name);
    for (const NicProfile::Setting& setting : profile.GetSettings())
    {
        if (NicProfile::IsDefaultChanged(setting))
        {
            NS_LOG_INFO("profile " << name << ": " << setting.typeId << "::" << setting.attribute
                                   << " keeps the default set with Config::SetDefault");
            continue;
        }
        const StringValue value(setting.value);
        if (setting.typeId == "ns3::EthernetNetDevice")
        {
            SetDeviceAttribute(setting.attribute, value);
        }
        else if (setting.typeId == "ns3::PcieLink")
        {
            SetPcieAttribute(setting.attribute, value);
        }
        else if (setting.typeId == "ns3::DrpTransport")
        {
            SetTransportAttribute(setting.attribute, value);
        }
        else if (setting.typeId == "ns3::IndirectBuffer")
        {
            SetIndirectBufferAttribute(setting.attribute, value);
        }
        else if (setting.typeId == "ns3::RnicNetDevice")
        {
            SetRnicAttribute(setting.attribute, value);
        }
        else if (setting.typeId == "ns3::RdmaHostApplication")
        {
            continue; // the host's: RdmaHostHelper::SetProfile
        }
        else
        {
            NS_FATAL_ERROR("NIC profile " << name << " sets " << setting.typeId
                                          << ", which RnicHelper does not make");
        }
    }
    m_profile = name;
}

const std::string&
RnicHelper::GetProfile() const
{
    return m_profile;
}

Ptr<RnicNetDevice>
RnicHelper::CreateRnic() const
{
    Ptr<RnicNetDevice> rnic =
        DynamicCast<RnicNetDevice>(CreateDeviceOfType(RnicNetDevice::GetTypeId()));
    rnic->SetPcieLink(m_pcieFactory.Create<PcieLink>());
    Ptr<DrpTransport> transport = m_transportFactory.Create<DrpTransport>();
    transport->SetModePolicy(m_policyFactory.Create<ModePolicy>());
    if (m_method == ModePolicy::DYNAMIC)
    {
        transport->SetIndirectBuffer(m_bufferFactory.Create<IndirectBuffer>());
    }
    rnic->SetTransport(transport);
    rnic->SetMethod(m_method);
    for (const auto& [name, value] : m_rnicAttributes)
    {
        rnic->SetAttribute(name, *value);
    }
    if (m_etherType)
    {
        rnic->SetEtherType(*m_etherType);
    }
    return rnic;
}

Ptr<EthernetNetDevice>
RnicHelper::CreateDevice(Ptr<Node> /* node */) const
{
    return CreateRnic();
}

NetDeviceContainer
RnicHelper::InstallHostLink(Ptr<Node> host, Ptr<Node> sw)
{
    return Connect(host, CreateRnic(), sw, EthernetHelper::CreateDevice(sw));
}

} // namespace ns3
