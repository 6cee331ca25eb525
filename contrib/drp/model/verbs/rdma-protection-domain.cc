/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-protection-domain.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaProtectionDomain);

TypeId
RdmaProtectionDomain::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaProtectionDomain")
                            .SetParent<Object>()
                            .SetGroupName("Drp")
                            .AddConstructor<RdmaProtectionDomain>();
    return tid;
}

RdmaProtectionDomain::RdmaProtectionDomain() = default;

void
RdmaProtectionDomain::Init(uint64_t context, uint32_t handle)
{
    m_context = context;
    m_handle = handle;
}

uint64_t
RdmaProtectionDomain::GetContextId() const
{
    return m_context;
}

uint32_t
RdmaProtectionDomain::GetHandle() const
{
    return m_handle;
}

void
RdmaProtectionDomain::AddUser()
{
    ++m_users;
}

void
RdmaProtectionDomain::RemoveUser()
{
    if (m_users > 0)
    {
        --m_users;
    }
}

uint32_t
RdmaProtectionDomain::GetUsers() const
{
    return m_users;
}

} // namespace ns3
