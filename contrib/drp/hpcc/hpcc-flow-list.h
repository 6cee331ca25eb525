/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_FLOW_LIST_H
#define HPCC_FLOW_LIST_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A list of flows in the file format of HPCC's simulator
 * (simulation/mix/flow.txt, read by scratch/third.cc).
 *
 * The format, white-space separated: the number of flows, then one flow per
 * line,
 *
 *     SRC DST PG DPORT SIZE START_TIME
 *
 * source and destination node ids (of the topology), the priority group
 * (the PFC class, 0 to 7), the destination port (kept as the flow's id:
 * HPCC's traffic generator writes 100, its analysis scripts tell incast
 * flows, 200, from the others by it), the size in bytes (1 to 2^32 - 1) and
 * the start time in seconds. Flows may come in any order of start time.
 *
 * Refused, with the file, the line and the reason: a value that is not one
 * of these, a flow from a node to itself, more words than the count
 * announces. Whether the nodes are hosts of the fabric is checked where
 * the flows meet a fabric (FabricScenario).
 */
class HpccFlowList
{
  public:
    /// One flow of the file.
    struct Flow
    {
        uint32_t source{0};      //!< SRC, a node id
        uint32_t destination{0}; //!< DST, a node id
        uint8_t pg{0};           //!< PG, the priority group (PFC class)
        uint16_t dport{0};       //!< DPORT, the flow's id
        uint32_t bytes{0};       //!< SIZE
        Time start;              //!< START_TIME
        uint32_t line{0};        //!< its line in the file
    };

    /**
     * Reads and checks a flow file.
     * \param path the file
     * \return the flows
     */
    static HpccFlowList Read(const std::string& path);

    /// \return the file it was read from
    const std::string& GetPath() const;
    /// \return the flows, in file order
    const std::vector<Flow>& GetFlows() const;

    /// Flows a file may hold, at most (FabricWorkloadHelper::MAX_FLOWS).
    static constexpr uint64_t MAX_FLOWS = 10000000;
    /// The latest start time, seconds.
    static constexpr double MAX_START = 1000;

  private:
    std::string m_path;        //!< the file
    std::vector<Flow> m_flows; //!< the flows, file order
};

} // namespace ns3

#endif /* HPCC_FLOW_LIST_H */
