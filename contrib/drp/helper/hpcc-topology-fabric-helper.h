/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_TOPOLOGY_FABRIC_HELPER_H
#define HPCC_TOPOLOGY_FABRIC_HELPER_H

#include "ns3/fabric-helper.h"
#include "ns3/hpcc-topology.h"

#include <map>

namespace ns3
{

/**
 * \ingroup drp
 * \brief Hosts with RNICs on the fabric a topology file of HPCC's simulator
 * describes (HpccTopology): any graph of switches, each link with its own
 * rate, delay and error rate.
 *
 * The links are built in file order, so each switch's ports are numbered in
 * the order of its links in the file (port p is HPCC's interface p + 1, its
 * device 0 being the loopback). Switches are numbered in the order of the
 * file's second line, hosts in the order of their links; GetHostNodeId(),
 * GetSwitchNodeId() and GetHostOfNode() translate to and from the file's
 * node ids.
 *
 * Each link's rate goes to both its devices (EthernetNetDevice::DataRate;
 * an RNIC's too) and its delay to its channel (EthernetChannel::Delay); an
 * error rate above 0 gives both devices a RateErrorModel with that rate per
 * frame (ErrorUnit packet) as their ReceiveErrorModel, as HPCC's simulator
 * does. The rest comes from the helpers: the RNICs and their parts from the
 * RnicHelper, the switch ports' queues from the EthernetHelper.
 *
 * Routing as in HPCC's simulator and FabricHelper: shortest paths in hops,
 * through switches only, with every equal-cost next hop (ECMP).
 */
class HpccTopologyFabricHelper : public FabricHelper
{
  public:
    /**
     * Builds the fabric.
     * \param topology the file, read (HpccTopology::Read())
     * \param hostLinks makes the host links (RNIC on the host)
     * \param fabricLinks makes the links between switches and the switch
     *        ports' egress queues
     */
    HpccTopologyFabricHelper(const HpccTopology& topology,
                             RnicHelper& hostLinks,
                             EthernetHelper& fabricLinks);

    /**
     * \param node a node id of the file
     * \return the host's index (std::invalid_argument if the node is not a host)
     */
    uint32_t GetHostOfNode(uint32_t node) const;

    /**
     * Fixes the streams of the links' error models, one per device in link
     * order.
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /**
     * Gives a link's devices its rate, delay and error rate.
     * \param devices the link's two devices
     * \param link the file's link
     */
    void Configure(const NetDeviceContainer& devices, const HpccTopology::Link& link);

    std::string m_path;                    //!< the file
    std::map<uint32_t, uint32_t> m_hostOf; //!< node id -> host index
    NetDeviceContainer m_lossy;            //!< devices with an error model
};

} // namespace ns3

#endif /* HPCC_TOPOLOGY_FABRIC_HELPER_H */
