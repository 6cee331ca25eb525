/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef STAR_FABRIC_HELPER_H
#define STAR_FABRIC_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief Hosts with RNICs on one EcmpSwitchNetDevice switch (a star).
 *
 *       h0  h1 ... h(n-1)
 *         \  |   /
 *          switch 0
 *
 * Hosts are numbered in port order. See FabricHelper for queues, tracing and
 * attributes; with one switch every route has one port, so no hash is drawn.
 * The classic incast: every host but one sends to that one.
 */
class StarFabricHelper : public FabricHelper
{
  public:
    /**
     * Builds the star.
     * \param hosts number of hosts (1 to 65535; std::invalid_argument otherwise)
     * \param hostLinks makes the host links (RNIC on the host)
     * \param fabricLinks makes the switch ports' egress queues
     */
    StarFabricHelper(uint32_t hosts, RnicHelper& hostLinks, EthernetHelper& fabricLinks);
};

} // namespace ns3

#endif /* STAR_FABRIC_HELPER_H */
