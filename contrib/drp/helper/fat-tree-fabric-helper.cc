/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fat-tree-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/drp-check.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

FatTreeFabricHelper::FatTreeFabricHelper(uint32_t k,
                                         RnicHelper& hostLinks,
                                         EthernetHelper& fabricLinks)
    : FabricHelper(hostLinks, fabricLinks),
      m_half(k / 2)
{
    // At most 62: k = 64 would give 65,536 hosts, one more than a fabric's
    // workloads and the tree's hosts allow (65,535).
    drp::RequireInRange<uint32_t>("FatTreeFabricHelper k", k, 2, 62);
    if (k % 2 != 0)
    {
        std::ostringstream os;
        os << "FatTreeFabricHelper k = " << k << " must be even (2, 4, ..., 62)";
        throw std::invalid_argument(os.str());
    }
    const uint32_t firstCore = CreateSwitches(m_half * m_half);
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        const uint32_t firstAggregation = CreateSwitches(m_half);
        const uint32_t firstEdge = CreateSwitches(m_half);
        for (uint32_t a = 0; a < m_half; ++a)
        {
            for (uint32_t c = 0; c < m_half; ++c)
            {
                LinkSwitches(firstAggregation + a, firstCore + a * m_half + c);
            }
        }
        for (uint32_t e = 0; e < m_half; ++e)
        {
            for (uint32_t h = 0; h < m_half; ++h)
            {
                AttachHost(firstEdge + e);
            }
            for (uint32_t a = 0; a < m_half; ++a)
            {
                LinkSwitches(firstEdge + e, firstAggregation + a);
            }
        }
    }
    Build();
}

Ptr<EcmpSwitchNetDevice>
FatTreeFabricHelper::GetCore(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_half * m_half,
                        "FatTreeFabricHelper: core " << i << " out of range [0, " << m_half * m_half
                                                     << ")");
    return GetSwitch(i);
}

Ptr<EcmpSwitchNetDevice>
FatTreeFabricHelper::GetAggregation(uint32_t pod, uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(pod < 2 * m_half && i < m_half,
                        "FatTreeFabricHelper: aggregation switch (" << pod << ", " << i
                                                                    << ") out of range");
    return GetSwitch(m_half * m_half + pod * 2 * m_half + i);
}

Ptr<EcmpSwitchNetDevice>
FatTreeFabricHelper::GetEdge(uint32_t pod, uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(pod < 2 * m_half && i < m_half,
                        "FatTreeFabricHelper: edge switch (" << pod << ", " << i
                                                             << ") out of range");
    return GetSwitch(m_half * m_half + pod * 2 * m_half + m_half + i);
}

} // namespace ns3
