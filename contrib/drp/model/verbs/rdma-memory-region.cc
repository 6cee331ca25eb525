/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-memory-region.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaMemoryRegion);

TypeId
RdmaMemoryRegion::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaMemoryRegion")
                            .SetParent<Object>()
                            .SetGroupName("Drp")
                            .AddConstructor<RdmaMemoryRegion>();
    return tid;
}

RdmaMemoryRegion::RdmaMemoryRegion() = default;

void
RdmaMemoryRegion::DoDispose()
{
    m_pd = nullptr;
    Object::DoDispose();
}

void
RdmaMemoryRegion::Init(Ptr<RdmaProtectionDomain> pd,
                       uint64_t address,
                       uint64_t length,
                       uint32_t access,
                       uint32_t key)
{
    m_pd = pd;
    m_address = address;
    m_length = length;
    m_access = access;
    m_key = key;
    m_valid = true;
}

Ptr<RdmaProtectionDomain>
RdmaMemoryRegion::GetPd() const
{
    return m_pd;
}

uint64_t
RdmaMemoryRegion::GetAddress() const
{
    return m_address;
}

uint64_t
RdmaMemoryRegion::GetLength() const
{
    return m_length;
}

uint32_t
RdmaMemoryRegion::GetAccess() const
{
    return m_access;
}

uint32_t
RdmaMemoryRegion::GetLkey() const
{
    return m_key;
}

uint32_t
RdmaMemoryRegion::GetRkey() const
{
    return m_key;
}

bool
RdmaMemoryRegion::Allows(uint64_t address, uint64_t length, uint32_t access) const
{
    if (!m_valid || (m_access & access) != access || address < m_address)
    {
        return false;
    }
    // Written without a sum that could wrap: the offset fits, then the length.
    const uint64_t offset = address - m_address;
    return offset <= m_length && length <= m_length - offset;
}

bool
RdmaMemoryRegion::IsValid() const
{
    return m_valid;
}

void
RdmaMemoryRegion::Invalidate()
{
    m_valid = false;
}

} // namespace ns3
