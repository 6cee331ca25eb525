/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LEAF_SPINE_FABRIC_HELPER_H
#define LEAF_SPINE_FABRIC_HELPER_H

#include "ns3/fabric-helper.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief Hosts with RNICs on a two-level leaf-spine (Clos) fabric.
 *
 * \p leaves leaf switches with \p hostsPerLeaf hosts each, every leaf linked
 * to each of \p spines spine switches:
 *
 *          Sp0          Sp1               spines = 2
 *         /    \      /    \
 *       L0 ----------------- L1           (every leaf to every spine)
 *      / | \              / | \
 *     h0 h1 h2          h3 h4 h5         hostsPerLeaf = 3
 *
 * Switches 0 to leaves - 1 are the leaves, the spines follow; hosts are
 * numbered leaf by leaf. A frame between two leaves has \p spines equal-cost
 * paths; each switch picks one per flow (EcmpSwitchNetDevice). Host links
 * come from the RnicHelper (e.g. 1 Gbps), uplinks from the EthernetHelper
 * (e.g. 10 Gbps); the oversubscription of a leaf is
 * hostsPerLeaf x host rate / (spines x uplink rate). See FabricHelper.
 */
class LeafSpineFabricHelper : public FabricHelper
{
  public:
    /**
     * Builds the fabric.
     * \param leaves leaf switches (at least 1)
     * \param spines spine switches (at least 1)
     * \param hostsPerLeaf hosts on each leaf (at least 1; at most 65535 hosts
     *        in all, std::invalid_argument otherwise)
     * \param hostLinks makes the host links (RNIC on the host)
     * \param uplinks makes the leaf-spine links and the switch ports' egress queues
     */
    LeafSpineFabricHelper(uint32_t leaves,
                          uint32_t spines,
                          uint32_t hostsPerLeaf,
                          RnicHelper& hostLinks,
                          EthernetHelper& uplinks);

    /// \param i leaf index \return that leaf switch
    Ptr<EcmpSwitchNetDevice> GetLeaf(uint32_t i) const;
    /// \param i spine index \return that spine switch
    Ptr<EcmpSwitchNetDevice> GetSpine(uint32_t i) const;

  private:
    uint32_t m_leaves; //!< leaf switches
    uint32_t m_spines; //!< spine switches
};

} // namespace ns3

#endif /* LEAF_SPINE_FABRIC_HELPER_H */
