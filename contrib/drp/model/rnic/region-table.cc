/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "region-table.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RegionTable");

NS_OBJECT_ENSURE_REGISTERED(RegionTable);

namespace
{
/// Right-open interval of addresses.
using Range = boost::icl::discrete_interval<uint64_t>;
} // namespace

TypeId
RegionTable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RegionTable")
                            .SetParent<Object>()
                            .SetGroupName("Drp")
                            .AddConstructor<RegionTable>();
    return tid;
}

RegionTable::RegionTable()
{
    NS_LOG_FUNCTION(this);
}

void
RegionTable::DoDispose()
{
    Attach(nullptr);
    Object::DoDispose();
}

void
RegionTable::Attach(Ptr<HostMemory> memory)
{
    NS_LOG_FUNCTION(this << memory);
    if (memory == m_memory)
    {
        return;
    }
    auto follow = MakeCallback(&RegionTable::OnRegistration, this);
    if (m_memory)
    {
        m_memory->TraceDisconnectWithoutContext("Registration", follow);
    }
    m_table.clear();
    m_memory = memory;
    if (m_memory)
    {
        m_table = m_memory->GetRegistrations();
        m_memory->TraceConnectWithoutContext("Registration", follow);
    }
}

bool
RegionTable::Contains(uint64_t address, uint64_t length) const
{
    return HostMemory::Covers(m_table, address, length);
}

uint64_t
RegionTable::GetRegisteredBytes() const
{
    return boost::icl::length(m_table);
}

void
RegionTable::OnRegistration(uint64_t address, uint32_t length, bool registered)
{
    NS_LOG_FUNCTION(this << address << length << registered);
    // HostMemory only reports valid regions.
    auto range = std::make_pair(Range::right_open(address, address + length), 1u);
    if (registered)
    {
        m_table += range;
    }
    else
    {
        m_table -= range;
    }
}

} // namespace ns3
