/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tree-fabric-helper.h"

#include "ns3/drp-check.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

TreeFabricHelper::TreeFabricHelper(uint32_t levels,
                                   uint32_t fanOut,
                                   RnicHelper& hostLinks,
                                   EthernetHelper& fabricLinks)
    : FabricHelper(hostLinks, fabricLinks)
{
    drp::RequireInRange<uint32_t>("TreeFabricHelper levels", levels, 1, 16);
    drp::RequireInRange<uint32_t>("TreeFabricHelper fanOut", fanOut, 1, 65535);
    uint64_t hosts = 1;
    for (uint32_t l = 0; l < levels; ++l)
    {
        hosts *= fanOut;
        if (hosts > 65535)
        {
            std::ostringstream os;
            os << "TreeFabricHelper: fanOut^levels = " << fanOut << "^" << levels
               << " hosts exceeds 65535";
            throw std::invalid_argument(os.str());
        }
    }
    uint32_t first = CreateSwitches(1); // the root: level 0
    uint32_t width = 1;
    for (uint32_t l = 1; l < levels; ++l)
    {
        const uint32_t next = CreateSwitches(width * fanOut);
        for (uint32_t child = 0; child < width * fanOut; ++child)
        {
            LinkSwitches(first + child / fanOut, next + child);
        }
        first = next;
        width *= fanOut;
    }
    for (uint32_t edge = 0; edge < width; ++edge)
    {
        for (uint32_t h = 0; h < fanOut; ++h)
        {
            AttachHost(first + edge);
        }
    }
    Build();
}

} // namespace ns3
