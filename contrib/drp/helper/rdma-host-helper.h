/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HOST_HELPER_H
#define RDMA_HOST_HELPER_H

#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief Installs RdmaHostApplication on hosts, in the style of ns-3's
 * application helpers, and gives each host its HostCpus.
 *
 * \code
 *   RdmaHostHelper host;
 *   host.SetAttribute("Transfers", UintegerValue(800));
 *   host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.05));
 *   host.SetCpuAttribute("Count", UintegerValue(2));          // two host CPUs
 *   ApplicationContainer apps = host.Install(nodes);          // every node answers
 *   host.SetWorkload(apps.Get(0), devices.Get(1));            // node 0 writes to node 1
 * \endcode
 */
class RdmaHostHelper
{
  public:
    RdmaHostHelper();

    /**
     * \param name an RdmaHostApplication attribute
     * \param value its value, for every application installed from now on
     */
    void SetAttribute(std::string name, const AttributeValue& value);
    /**
     * Applies a NIC profile's host values (RdmaHostApplication's attributes
     * the profile names; most profiles name none): for every application
     * installed from now on. As in RnicHelper::SetProfile, a default the
     * user changed wins, and a later SetAttribute() overrides.
     * \param name a NicProfile's name
     * \throws std::invalid_argument for an unknown name, naming the valid ones
     */
    void SetProfile(const std::string& name);
    /**
     * \param name a HostCpus attribute
     * \param value its value, for the CPUs of every node installed on from now on
     */
    void SetCpuAttribute(std::string name, const AttributeValue& value);
    /**
     * Installs an application, and aggregates a HostCpus to the node if it
     * has none. The CPU attributes set with SetCpuAttribute() are applied to
     * the node's HostCpus, new or not (the applications of a node share it).
     * \param node a host with an RnicNetDevice
     * \return the application
     */
    ApplicationContainer Install(Ptr<Node> node) const;
    /**
     * \param nodes hosts with an RnicNetDevice each
     * \return the applications
     */
    ApplicationContainer Install(NodeContainer nodes) const;
    /**
     * Points an installed host's workload at a peer RNIC.
     * \param app an RdmaHostApplication
     * \param peer the peer's RnicNetDevice (its address becomes Peer)
     */
    static void SetWorkload(Ptr<Application> app, Ptr<NetDevice> peer);
    /**
     * Assigns fixed random variable streams to the applications.
     * \param apps RdmaHostApplications (others are skipped)
     * \param stream first stream index
     * \return the number of streams used
     */
    static int64_t AssignStreams(ApplicationContainer apps, int64_t stream);
    /**
     * Checks, after Simulator::Run() returned because no event was left,
     * that every transfer the hosts started has ended: a transfer still
     * open then would never end (the model stalled; the docs promise that
     * every transfer ends). Throws std::logic_error naming the hosts and
     * their open transfers.
     * \param apps RdmaHostApplications (others are skipped)
     */
    static void RequireAllEnded(ApplicationContainer apps);

  private:
    ObjectFactory m_factory;    //!< RdmaHostApplication
    ObjectFactory m_cpuFactory; //!< HostCpus (checks the CPU attributes when they are set)
    std::vector<std::pair<std::string, Ptr<AttributeValue>>>
        m_cpuAttributes; //!< the CPU attributes set, in order
};

} // namespace ns3

#endif /* RDMA_HOST_HELPER_H */
