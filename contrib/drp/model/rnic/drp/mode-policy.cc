/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mode-policy.h"

#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ModePolicy");

NS_OBJECT_ENSURE_REGISTERED(ModePolicy);

TypeId
ModePolicy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ModePolicy")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<ModePolicy>()
            .AddAttribute("Method",
                          "Traditional (handshake first) or dynamic (indirect while the "
                          "handshake completes).",
                          EnumValue(DYNAMIC),
                          DRP_ENUM_ACCESSOR(ModePolicy::Method, &ModePolicy::m_method),
                          MakeEnumChecker(TRADITIONAL, "traditional", DYNAMIC, "dynamic"))
            .AddAttribute("ExpiriesBeforeIndirect",
                          "Dynamic method: consecutive timer expiries with no answer at all "
                          "after which a transfer goes indirect (1 to 16; 2 in the published "
                          "method).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&ModePolicy::SetExpiriesBeforeIndirect,
                                               &ModePolicy::GetExpiriesBeforeIndirect),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RequestEveryFrames",
                          "Dynamic method: while a write is indirect and not connected, the "
                          "request goes out again after this many data frames (0: on the "
                          "timer only; at most 1024).",
                          UintegerValue(8),
                          MakeUintegerAccessor(&ModePolicy::SetRequestEveryFrames,
                                               &ModePolicy::GetRequestEveryFrames),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

ModePolicy::ModePolicy()
    : m_method(DYNAMIC),
      m_expiriesBeforeIndirect(2),
      m_requestEveryFrames(8)
{
}

ModePolicy::Method
ModePolicy::GetMethod() const
{
    return m_method;
}

void
ModePolicy::SetMethod(Method method)
{
    m_method = method;
}

std::string
ModePolicy::GetMethodName() const
{
    return GetName(m_method);
}

void
ModePolicy::SetExpiriesBeforeIndirect(uint32_t expiries)
{
    drp::RequireInRange<uint32_t>("ModePolicy::ExpiriesBeforeIndirect", expiries, 1, 16);
    m_expiriesBeforeIndirect = expiries;
}

uint32_t
ModePolicy::GetExpiriesBeforeIndirect() const
{
    return m_expiriesBeforeIndirect;
}

void
ModePolicy::SetRequestEveryFrames(uint32_t frames)
{
    drp::RequireInRange<uint32_t>("ModePolicy::RequestEveryFrames", frames, 0, 1024);
    m_requestEveryFrames = frames;
}

uint32_t
ModePolicy::GetRequestEveryFrames() const
{
    return m_requestEveryFrames;
}

bool
ModePolicy::IndirectOnInvalidReply() const
{
    return m_method == DYNAMIC;
}

bool
ModePolicy::IndirectAfterExpiries(uint32_t expiries) const
{
    return m_method == DYNAMIC && expiries >= m_expiriesBeforeIndirect;
}

bool
ModePolicy::RequestAgainDuringIndirect(uint32_t framesSent) const
{
    return m_method == DYNAMIC && m_requestEveryFrames > 0 && framesSent >= m_requestEveryFrames;
}

ModePolicy::Method
ModePolicy::ParseMethod(const std::string& name)
{
    if (name == "traditional")
    {
        return TRADITIONAL;
    }
    if (name == "dynamic")
    {
        return DYNAMIC;
    }
    if (name == "roce")
    {
        return ROCE;
    }
    throw std::invalid_argument("method = \"" + name +
                                "\" is not a method; valid: traditional, dynamic, roce");
}

std::string
ModePolicy::GetName(Method method)
{
    switch (method)
    {
    case TRADITIONAL:
        return "traditional";
    case DYNAMIC:
        return "dynamic";
    case ROCE:
        return "roce";
    }
    return "?";
}

} // namespace ns3
