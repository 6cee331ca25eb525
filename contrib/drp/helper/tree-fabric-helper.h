/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TREE_FABRIC_HELPER_H
#define TREE_FABRIC_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief Hosts with RNICs on a tree of EcmpSwitchNetDevice switches.
 *
 * \p levels levels of switches: switch 0 is the root; every switch above the
 * last level has \p fanOut child switches, every switch of the last level
 * (an edge switch) has \p fanOut hosts. So fanOut^levels hosts in all:
 *
 *                 S0                  levels = 2, fanOut = 2
 *               /    \
 *             S1      S2
 *            /  \    /  \
 *           h0  h1  h2  h3
 *
 * Switches are numbered level by level, left to right; hosts left to right.
 * A tree has one path between two hosts (no ECMP choice); its links towards
 * the root are the fabric's bottlenecks. See FabricHelper.
 */
class TreeFabricHelper : public FabricHelper
{
  public:
    /**
     * Builds the tree.
     * \param levels switch levels (at least 1)
     * \param fanOut children of every switch (at least 1); fanOut^levels hosts
     *        must not exceed 65535 (std::invalid_argument otherwise)
     * \param hostLinks makes the host links (RNIC on the host)
     * \param fabricLinks makes the links between switches and the switch
     *        ports' egress queues
     */
    TreeFabricHelper(uint32_t levels,
                     uint32_t fanOut,
                     RnicHelper& hostLinks,
                     EthernetHelper& fabricLinks);
};

} // namespace ns3

#endif /* TREE_FABRIC_HELPER_H */
