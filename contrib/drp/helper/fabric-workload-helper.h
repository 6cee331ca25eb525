/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_WORKLOAD_HELPER_H
#define FABRIC_WORKLOAD_HELPER_H

#include "ns3/application-container.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief Traffic matrices for the hosts of a fabric: incast, permutation,
 * all-to-all and open-loop Poisson arrivals with flow sizes from a CDF.
 *
 * The helper collects transfers ("flows": source host, destination host,
 * bytes, start time, operation) from any number of Add calls, then Install()
 * puts one RdmaHostApplication on every host of the fabric and gives each
 * initiator its transfers as a transfer list (RdmaHostApplication::
 * AddTransfer()). Hosts are named by their index in the fabric
 * (FabricHelper::GetHost()).
 *
 * Random choices (permutation partners, Poisson arrival times, destinations
 * and sizes) are drawn when an Add call runs, from ns-3 random variables
 * owned by the helper: call AssignStreams() before the Add calls to fix
 * them. Flows within one Add call are in the order of their start times per
 * source; GetFlows() lists them all.
 *
 * \code
 *   LeafSpineFabricHelper fabric(2, 2, 4, rnic, uplinks);
 *   FabricWorkloadHelper workload(fabric);
 *   workload.AssignStreams(1);
 *   workload.AddPoisson(FlowSizeCdf::Load("web-search"), 0.5, DataRate("1Gbps"),
 *                       Seconds(0), MilliSeconds(100));
 *   ApplicationContainer apps = workload.Install(RdmaHostHelper());
 * \endcode
 */
class FabricWorkloadHelper
{
  public:
    /// One transfer of the workload.
    struct Flow
    {
        uint32_t source;                          //!< initiator host index
        uint32_t destination;                     //!< responder host index
        uint32_t bytes;                           //!< size
        Time start;                               //!< start, after the applications start
        RdmaHostApplication::Operation operation; //!< write or read
        /// its id, written as the destination port of HPCC's fct.txt (SetFlowId())
        uint16_t id{DEFAULT_FLOW_ID};
    };

    /// The id of flows by default: what HPCC's traffic generator writes as every
    /// flow's destination port (its analysis scripts give incast flows 200).
    static constexpr uint16_t DEFAULT_FLOW_ID = 100;

    /// \param fabric the fabric whose hosts exchange the flows
    explicit FabricWorkloadHelper(const FabricHelper& fabric);

    /// \param operation the operation of the flows added from now on (default write)
    void SetOperation(RdmaHostApplication::Operation operation);
    /**
     * \param id the id of the flows added from now on (default
     *        DEFAULT_FLOW_ID; HPCC's flow files give each flow its own,
     *        as its destination port)
     */
    void SetFlowId(uint16_t id);

    /**
     * One flow.
     * \param source host index
     * \param destination host index (not the source)
     * \param bytes its size
     * \param start when it starts
     * \return flows added (1)
     */
    uint32_t AddFlow(uint32_t source, uint32_t destination, uint32_t bytes, Time start);

    /**
     * Incast: every sender sends \p bytes to one receiver, all at \p start,
     * or, with a \p jitter, each at \p start plus an offset drawn uniformly
     * from [0, \p jitter] (from the stream of partners and destinations,
     * see AssignStreams(); a jitter of 0 draws nothing).
     * \param receiver host index
     * \param senders host indices (not the receiver; at least one)
     * \param bytes per sender
     * \param start when all start
     * \param jitter largest start offset of a sender (0 to 1000 s)
     * \return flows added
     */
    uint32_t AddIncast(uint32_t receiver,
                       const std::vector<uint32_t>& senders,
                       uint32_t bytes,
                       Time start,
                       Time jitter = Seconds(0));
    /**
     * Incast from the first \p degree hosts other than the receiver (a name
     * of its own: AddIncast(receiver, {2}, ...) is the sender list {2}).
     * \param receiver host index
     * \param degree senders (1 to hosts - 1)
     * \param bytes per sender
     * \param start when all start
     * \param jitter largest start offset of a sender (0 to 1000 s; see AddIncast())
     * \return flows added
     */
    uint32_t AddIncastOfDegree(uint32_t receiver,
                               uint32_t degree,
                               uint32_t bytes,
                               Time start,
                               Time jitter = Seconds(0));
    /**
     * Permutation: every host sends \p bytes to one other host and receives
     * from one (a random derangement), all at \p start.
     * \param bytes per host
     * \param start when all start
     * \return flows added (the number of hosts; at least 2 hosts)
     */
    uint32_t AddPermutation(uint32_t bytes, Time start);
    /**
     * All-to-all: every host sends \p bytes to every other host, all at \p start.
     * \param bytes per ordered pair
     * \param start when all start
     * \return flows added
     */
    uint32_t AddAllToAll(uint32_t bytes, Time start);
    /**
     * Open-loop Poisson arrivals, as the field's generators make them (HPCC's
     * traffic_gen.py): every host is an independent Poisson source whose
     * mean gap between flows is mean flow size x 8 / (hostRate x load), so
     * that it offers \p load of its link on average; each flow goes to a
     * host drawn uniformly among the others and has a size drawn from
     * \p sizes.
     * \param sizes the flow-size distribution
     * \param load offered load of each host link, in (0, 1]
     * \param hostRate the host link rate the load refers to
     * \param start the first arrivals may come from here on
     * \param duration arrivals come in [start, start + duration) (positive)
     * \return flows added (maybe 0, if the duration is short against the mean gap)
     *
     * Refused (std::invalid_argument naming the parameters): a load outside
     * (0, 1], a duration that is not positive, a mean gap beyond ns-3's
     * time range (a load near 0), and more flows than MAX_FLOWS expected.
     */
    uint32_t AddPoisson(const FlowSizeCdf& sizes,
                        double load,
                        DataRate hostRate,
                        Time start,
                        Time duration);

    /// \return every flow added, in the order added
    const std::vector<Flow>& GetFlows() const;

    /// Flows one helper may hold, at most: each costs memory in the helper,
    /// the hosts and the results (some hundred bytes), so a configuration
    /// that would add more is refused before the flows are made.
    static constexpr uint64_t MAX_FLOWS = 10000000;

    /**
     * The mean gap between one host's Poisson arrivals, as AddPoisson()
     * uses it: mean flow size x 8 / (hostRate x load).
     * \param sizes the flow-size distribution
     * \param load offered load of each host link, in (0, 1]
     * \param hostRate the host link rate the load refers to
     * \return the mean gap, seconds
     */
    static double GetPoissonMeanGap(const FlowSizeCdf& sizes, double load, DataRate hostRate);
    /**
     * Checks the parameters of Poisson arrivals before any flow is made, and
     * returns the number of flows they give on average.
     * Throws std::invalid_argument naming the parameter: a load outside
     * (0, 1], a duration that is not positive, a mean gap beyond ns-3's time
     * range (a load near 0), or more than MAX_FLOWS flows expected.
     * \param hosts the hosts, each a Poisson source
     * \param sizes the flow-size distribution
     * \param load offered load of each host link
     * \param hostRate the host link rate the load refers to
     * \param duration arrivals come this long
     * \return the expected number of flows, all hosts together
     */
    static double GetExpectedPoissonFlows(uint32_t hosts,
                                          const FlowSizeCdf& sizes,
                                          double load,
                                          DataRate hostRate,
                                          Time duration);

    /**
     * Installs an RdmaHostApplication on every host of the fabric (the
     * helper's attributes apply; Transfers is set to 0) and gives each host
     * its flows as a transfer list. In a distributed simulation every rank
     * installs every application (so that each draws from the same streams
     * on every rank), but only the hosts this rank runs
     * (FabricHelper::IsLocal()) get their flows; the others post nothing and
     * only know their flows' destinations (AddWorkloadPeer(), for the
     * responders' grants).
     * \param host the host helper (RdmaHostApplication and HostCpus attributes)
     * \return the applications, in host order
     */
    ApplicationContainer Install(RdmaHostHelper host) const;

    /**
     * Fixes the random streams of the helper's draws (call before Add calls):
     * \p stream for partners and destinations, \p stream + 1 for Poisson
     * gaps, and \p stream + 2 for the flow sizes of the first AddPoisson()
     * call; a second AddPoisson() call draws its sizes from \p stream + 3,
     * and so on.
     * \param stream first stream index
     * \return the number of streams used (3)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /// \param host a host index, checked against the fabric's hosts \param what its role
    void RequireHost(uint32_t host, const char* what) const;
    /// \param bytes a flow size, checked (at least 1)
    static void RequireBytes(uint32_t bytes);
    /**
     * Throws std::invalid_argument if \p more flows would take the helper
     * beyond MAX_FLOWS.
     * \param more flows an Add call would add (an estimate for Poisson arrivals)
     * \param what the call and the parameters that make the number
     */
    void RequireRoom(double more, const std::string& what) const;
    /**
     * \param source a host index
     * \return another host index, drawn uniformly
     */
    uint32_t DrawOtherHost(uint32_t source);

    const FabricHelper& m_fabric;               //!< the fabric
    uint32_t m_hosts;                           //!< its number of hosts
    RdmaHostApplication::Operation m_operation; //!< of new flows
    uint16_t m_flowId{DEFAULT_FLOW_ID};         //!< of new flows
    std::vector<Flow> m_flows;                  //!< flows added
    Ptr<UniformRandomVariable> m_choice;        //!< partners and destinations
    Ptr<ExponentialRandomVariable> m_gap;       //!< Poisson gaps (mean 1)
    int64_t m_sizeStream{-1}; //!< stream of the next AddPoisson()'s sizes (-1: automatic)
};

} // namespace ns3

#endif /* FABRIC_WORKLOAD_HELPER_H */
