/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FAT_TREE_FABRIC_HELPER_H
#define FAT_TREE_FABRIC_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief Hosts with RNICs on a k-ary fat-tree (Al-Fares et al., SIGCOMM 2008).
 *
 * k pods, each with k/2 edge and k/2 aggregation switches; every edge switch
 * has k/2 hosts and is linked to every aggregation switch of its pod;
 * aggregation switch j of every pod is linked to core switches j k/2 to
 * j k/2 + k/2 - 1; (k/2)^2 core switches. So k^3/4 hosts, 5 k^2/4 switches,
 * and (k/2)^2 equal-cost paths between hosts of different pods.
 *
 * Switches are numbered core first, then pod by pod its aggregation and then
 * its edge switches; hosts edge switch by edge switch, pod by pod. All links
 * between switches come from one EthernetHelper (a fat-tree has one link
 * rate: full bisection bandwidth). See FabricHelper.
 */
class FatTreeFabricHelper : public FabricHelper
{
  public:
    /**
     * Builds the fat-tree.
     * \param k ports per switch: even, 2 to 62 (k^3/4 hosts: at most 59,582;
     *        std::invalid_argument otherwise)
     * \param hostLinks makes the host links (RNIC on the host)
     * \param fabricLinks makes the links between switches and the switch
     *        ports' egress queues
     */
    FatTreeFabricHelper(uint32_t k, RnicHelper& hostLinks, EthernetHelper& fabricLinks);

    /// \param i core index, 0 to (k/2)^2 - 1 \return that core switch
    Ptr<EcmpSwitchNetDevice> GetCore(uint32_t i) const;
    /// \param pod a pod \param i 0 to k/2 - 1 \return that aggregation switch
    Ptr<EcmpSwitchNetDevice> GetAggregation(uint32_t pod, uint32_t i) const;
    /// \param pod a pod \param i 0 to k/2 - 1 \return that edge switch
    Ptr<EcmpSwitchNetDevice> GetEdge(uint32_t pod, uint32_t i) const;

  private:
    uint32_t m_half; //!< k/2
};

} // namespace ns3

#endif /* FAT_TREE_FABRIC_HELPER_H */
