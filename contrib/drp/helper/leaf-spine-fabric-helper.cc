/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "leaf-spine-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/drp-check.h"

namespace ns3
{

LeafSpineFabricHelper::LeafSpineFabricHelper(uint32_t leaves,
                                             uint32_t spines,
                                             uint32_t hostsPerLeaf,
                                             RnicHelper& hostLinks,
                                             EthernetHelper& uplinks)
    : FabricHelper(hostLinks, uplinks),
      m_leaves(leaves),
      m_spines(spines)
{
    drp::RequireInRange<uint32_t>("LeafSpineFabricHelper leaves", leaves, 1, 65535);
    drp::RequireInRange<uint32_t>("LeafSpineFabricHelper spines", spines, 1, 65535);
    drp::RequireInRange<uint32_t>("LeafSpineFabricHelper hostsPerLeaf",
                                  hostsPerLeaf,
                                  1,
                                  65535 / leaves);
    const uint32_t firstLeaf = CreateSwitches(leaves);
    const uint32_t firstSpine = CreateSwitches(spines);
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t h = 0; h < hostsPerLeaf; ++h)
        {
            AttachHost(firstLeaf + l);
        }
        for (uint32_t s = 0; s < spines; ++s)
        {
            LinkSwitches(firstLeaf + l, firstSpine + s);
        }
    }
    Build();
}

Ptr<EcmpSwitchNetDevice>
LeafSpineFabricHelper::GetLeaf(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_leaves,
                        "LeafSpineFabricHelper: leaf " << i << " out of range [0, " << m_leaves
                                                       << ")");
    return GetSwitch(i);
}

Ptr<EcmpSwitchNetDevice>
LeafSpineFabricHelper::GetSpine(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_spines,
                        "LeafSpineFabricHelper: spine " << i << " out of range [0, " << m_spines
                                                        << ")");
    return GetSwitch(m_leaves + i);
}

} // namespace ns3
