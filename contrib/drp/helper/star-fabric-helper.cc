/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "star-fabric-helper.h"

#include "ns3/drp-check.h"

namespace ns3
{

StarFabricHelper::StarFabricHelper(uint32_t hosts,
                                   RnicHelper& hostLinks,
                                   EthernetHelper& fabricLinks)
    : FabricHelper(hostLinks, fabricLinks)
{
    drp::RequireInRange<uint32_t>("StarFabricHelper hosts", hosts, 1, 65535);
    const uint32_t sw = CreateSwitches(1);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        AttachHost(sw);
    }
    Build();
}

} // namespace ns3
