/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_HELPER_H
#define FABRIC_HELPER_H

#include "ns3/ecmp-switch-net-device.h"
#include "ns3/ethernet-helper.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/rnic-helper.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace ns3
{

class RnicNetDevice;

/**
 * \ingroup drp
 * \brief Hosts with RNICs on a fabric of EcmpSwitchNetDevice switches: the
 * part every topology shares.
 *
 * A topology helper (StarFabricHelper, TreeFabricHelper,
 * LeafSpineFabricHelper, FatTreeFabricHelper) builds its shape in its
 * constructor with CreateSwitches(), AttachHost() and LinkSwitches(), then
 * calls Build(), which
 *
 * - puts an EcmpSwitchNetDevice on every switch node over all its ports;
 * - gives every switch port (towards hosts and towards switches) an egress
 *   queue from the fabric links' EthernetHelper (EthernetHelper::SetQueue;
 *   by default ns-3's DropTailQueue of 100 frames, the default of its MaxSize
 *   attribute in drop-tail-queue.h), so one setting sizes every switch
 *   buffer; the RNICs keep the queue of the RnicHelper;
 * - computes shortest paths over the switch graph (breadth first, every link
 *   one hop) and gives each switch, for each host, every port on a shortest
 *   path towards it: equal-cost next hops, among which the switch picks one
 *   per flow (ECMP);
 * - marks one spanning tree (breadth first from switch 0) as the flooding
 *   ports, for broadcast and unknown destinations.
 *
 * Host links come from an RnicHelper (method, RNIC parts, host link rate and
 * delay), links between switches from an EthernetHelper (their rate and
 * delay); both can enable pcap and ascii tracing on the devices this helper
 * returns. Switch attributes (e.g. EcmpSeed) are set with Config::SetDefault
 * before the helper runs, or on GetSwitch(i) afterwards.
 *
 * Hosts are numbered in the order the topology attaches them (documented by
 * each topology), RNICs in the same order.
 *
 * Distributed simulation (ns-3 built with its mpi module): every rank builds
 * the whole fabric; SetSwitchSystemIds() places each switch on a rank (its
 * node's system id) and each host on its edge switch's rank, and the
 * EthernetHelpers make an EthernetRemoteChannel for every cable whose ends
 * are on different ranks. IsLocal() tells whether this rank runs a node:
 * FabricWorkloadHelper gives transfers only to the hosts this rank runs, and
 * a program reads the counters of those hosts and switches only, gathering
 * them to rank 0 (examples/drp-fabric-mpi.cc).
 */
class FabricHelper
{
  public:
    virtual ~FabricHelper() = default;

    /// \return all host nodes, in host order
    NodeContainer GetHosts() const;
    /// \param i host index \return that host
    Ptr<Node> GetHost(uint32_t i) const;
    /// \return the hosts' RNICs, in host order
    NetDeviceContainer GetRnics() const;
    /// \param i host index \return its RNIC
    Ptr<RnicNetDevice> GetRnic(uint32_t i) const;
    /// \return the switch nodes, in switch order
    NodeContainer GetSwitches() const;
    /// \param i switch index \return its switch device
    Ptr<EcmpSwitchNetDevice> GetSwitch(uint32_t i) const;
    /// \return every switch port (EthernetNetDevice), switch by switch
    NetDeviceContainer GetSwitchPorts() const;
    /// \param host host index \return the index of the switch it is attached to
    uint32_t GetEdgeSwitch(uint32_t host) const;
    /**
     * \param a a host index
     * \param b another host index
     * \return the switches a frame from a to b crosses (1 on one switch)
     */
    uint32_t GetSwitchHops(uint32_t a, uint32_t b) const;
    /**
     * One shortest path, as the devices that transmit a frame along it: host
     * a's RNIC, then one switch port per switch. Where ECMP offers several
     * next hops this takes the first (lowest port); every built-in topology
     * gives equal-cost paths the same rates and delays, so any of them times
     * a frame alike (DrpIdealFct uses it so); in a topology file they may
     * differ, and this one stands for all (as the first path HPCC's
     * simulator finds gives its base RTT and ideal FCT).
     * \param a the sending host's index
     * \param b the receiving host's index (not a)
     * \return GetSwitchHops(a, b) + 1 transmitting devices, in path order
     */
    std::vector<Ptr<EthernetNetDevice>> GetPath(uint32_t a, uint32_t b) const;

    /**
     * The node id a host has in the files of HPCC's simulator (flow.txt,
     * fct.txt, pfc.txt): a topology file's own id (HpccTopologyFabricHelper);
     * in the built-in topologies the host index, as the topology files
     * HPCC's scripts generate number hosts first.
     * \param host host index
     * \return its node id
     */
    uint32_t GetHostNodeId(uint32_t host) const;
    /**
     * \param sw switch index
     * \return its node id in the files of HPCC's simulator: a topology
     *         file's own id; in the built-in topologies the number of hosts
     *         plus the switch index
     */
    uint32_t GetSwitchNodeId(uint32_t sw) const;

    /// A switch index -> the system id (MPI rank) of its node.
    using SystemIdOf = std::function<uint32_t(uint32_t)>;
    /**
     * Places the switches of every fabric built from now on (in this
     * process) on MPI ranks: switch i's node gets system id placement(i),
     * each host the system id of its edge switch. An empty function (the
     * default) puts every node on system id 0. The ids must be below the
     * number of ranks of a distributed run; a sequential run ignores them.
     * \param placement the placement
     */
    static void SetSwitchSystemIds(SystemIdOf placement);
    /**
     * A placement for SetSwitchSystemIds(): switches round-robin over the
     * ranks in index order, from a first index on; the switches before it
     * round-robin from rank 0 too. E.g. a leaf-spine fabric by leaf:
     * ByRoundRobin(ranks, leaves) puts leaf l (index l) on rank l mod ranks
     * and spine s (index leaves + s) on rank s mod ranks.
     * \param ranks the number of ranks (at least 1)
     * \param restartAt the index at which the round-robin starts again at 0
     * \return the placement
     */
    static SystemIdOf ByRoundRobin(uint32_t ranks, uint32_t restartAt = 0);
    /**
     * \param node a node
     * \return true unless this is a distributed simulation (MpiInterface
     *         enabled) in which another rank runs the node
     */
    static bool IsLocal(Ptr<Node> node);
    /// \return this process's rank (MpiInterface::GetSystemId()), 0 if not distributed
    static uint32_t GetLocalSystemId();

  protected:
    /**
     * \param hostLinks makes the host links (RNIC on the host)
     * \param fabricLinks makes the links between switches and the switch
     *        ports' egress queues
     */
    FabricHelper(RnicHelper& hostLinks, EthernetHelper& fabricLinks);

    /**
     * \param n switch nodes to add
     * \return the index of the first of them
     */
    uint32_t CreateSwitches(uint32_t n);
    /**
     * Adds a host node and links it to a switch.
     * \param sw switch index
     * \return the host's index
     */
    uint32_t AttachHost(uint32_t sw);
    /**
     * Links two switches.
     * \param a switch index
     * \param b another switch index
     * \return the link's devices: a's port, then b's
     */
    NetDeviceContainer LinkSwitches(uint32_t a, uint32_t b);
    /**
     * \param host host index
     * \return the devices of its link: its RNIC, then the switch's port
     */
    NetDeviceContainer GetHostLink(uint32_t host) const;
    /**
     * Gives the hosts and switches the node ids of a topology file
     * (GetHostNodeId(), GetSwitchNodeId()).
     * \param hostIds host index -> node id
     * \param switchIds switch index -> node id
     */
    void SetNodeIds(std::vector<uint32_t> hostIds, std::vector<uint32_t> switchIds);
    /// Installs the switches, their queues, routes and flooding tree (once, last).
    void Build();

  private:
    /// One end of a link between switches.
    struct Trunk
    {
        uint32_t port;         //!< the port's index on this switch
        uint32_t neighbor;     //!< the switch at the other end
        uint32_t neighborPort; //!< the port's index on that switch
    };

    /// \return hop distances from switch \p from to every switch (breadth first)
    std::vector<uint32_t> Distances(uint32_t from) const;
    /**
     * Gives every switch its routes to the hosts of one switch: the switch
     * itself a route per host (its port), every other switch one route for
     * the group of them (the next hops on its shortest paths to the switch).
     * \param edge the switch
     * \param distance hop distances from it to every switch
     */
    void AddRoutesTo(uint32_t edge, const std::vector<uint32_t>& distance);
    /// Marks the flooding ports: host ports and a breadth-first spanning tree.
    void MarkSpanningTree();

    static SystemIdOf s_placement; //!< SetSwitchSystemIds()

    RnicHelper& m_hostLinks;                          //!< host links
    EthernetHelper& m_fabricLinks;                    //!< switch links and queues
    NodeContainer m_switchNodes;                      //!< switch nodes
    NodeContainer m_hosts;                            //!< host nodes
    NetDeviceContainer m_rnics;                       //!< hosts' RNICs
    std::vector<uint32_t> m_edge;                     //!< host -> its switch
    std::vector<uint32_t> m_hostPort;                 //!< host -> its port on that switch
    std::vector<NetDeviceContainer> m_ports;          //!< switch -> its ports, by port index
    std::vector<std::vector<Trunk>> m_trunks;         //!< switch -> its links to switches
    std::vector<Ptr<EcmpSwitchNetDevice>> m_switches; //!< switch devices (after Build)
    std::vector<std::vector<uint32_t>> m_distance;    //!< switch hop distances (after Build)
    std::vector<uint32_t> m_hostIds;                  //!< SetNodeIds() (empty: built-in)
    std::vector<uint32_t> m_switchIds;                //!< SetNodeIds() (empty: built-in)
};

} // namespace ns3

#endif /* FABRIC_HELPER_H */
