/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_TOPOLOGY_H
#define HPCC_TOPOLOGY_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A topology in the file format of HPCC's simulator
 * (alibaba-edu/High-Precision-Congestion-Control, the .txt files of simulation/mix, read
 * by scratch/third.cc), checked for what drp's fabrics can build.
 *
 * The format, white-space separated:
 *
 *     NODES SWITCHES LINKS
 *     SWITCH_ID ... (SWITCHES ids)
 *     SRC DST RATE DELAY ERROR_RATE (LINKS lines)
 *
 * Nodes are numbered 0 to NODES - 1; those the second line names are
 * switches, the others hosts. A link line names two nodes, the rate of both
 * its ends ("100Gbps"), the cable's delay ("1000ns", "0.001ms") and the
 * probability that a frame is lost on it, in each direction (HPCC's
 * simulator: a RateErrorModel per packet on both ends).
 *
 * Refused, each with the file, the line and the reason (std::invalid_argument):
 * a count, id, rate, delay (0 to 1 s) or error rate ([0, 1)) that is not
 * one; a node out of range; a switch named twice; a link of a node to
 * itself; a link named twice (either way round); a link between two hosts;
 * a host with no link or with more than one (drp's hosts have one RNIC
 * port); switches that not every other switch can reach; more words than
 * the counts announce.
 */
class HpccTopology
{
  public:
    /// One link of the file.
    struct Link
    {
        uint32_t a{0};       //!< one node (SRC)
        uint32_t b{0};       //!< the other (DST)
        DataRate rate;       //!< both ends' rate
        Time delay;          //!< the cable's propagation delay
        double errorRate{0}; //!< per-frame loss probability, each direction
        uint32_t line{0};    //!< its line in the file
    };

    /**
     * Reads and checks a topology file.
     * \param path the file
     * \return the topology
     */
    static HpccTopology Read(const std::string& path);

    /// \return the file it was read from
    const std::string& GetPath() const;
    /// \return the number of nodes, hosts and switches
    uint32_t GetNodeCount() const;
    /// \return the switches' node ids, in the order of the file's second line
    const std::vector<uint32_t>& GetSwitchIds() const;
    /// \return the hosts' node ids, in the order of their links in the file
    const std::vector<uint32_t>& GetHostIds() const;
    /// \return the links, in file order
    const std::vector<Link>& GetLinks() const;
    /// \param node a node id \return true if the file names it a switch
    bool IsSwitch(uint32_t node) const;
    /**
     * \param node a node id
     * \return the link of that host (it has exactly one)
     */
    const Link& GetHostLink(uint32_t node) const;

    /// Nodes a file may name, at most.
    static constexpr uint32_t MAX_NODES = 1000000;

  private:
    std::string m_path;                //!< the file
    uint32_t m_nodes{0};               //!< NODES
    std::vector<bool> m_isSwitch;      //!< node id -> named a switch
    std::vector<uint32_t> m_switchIds; //!< switches, file order
    std::vector<uint32_t> m_hostIds;   //!< hosts, in the order of their links
    std::vector<uint32_t> m_hostLink;  //!< node id -> its link's index (hosts)
    std::vector<Link> m_links;         //!< links, file order
};

} // namespace ns3

#endif /* HPCC_TOPOLOGY_H */
