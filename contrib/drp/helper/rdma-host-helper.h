/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HOST_HELPER_H
#define RDMA_HOST_HELPER_H

#include "ns3/application-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief Installs RdmaHostApplication on hosts, in the style of ns-3's
 * application helpers.
 *
 * \code
 *   RdmaHostHelper host;
 *   host.SetAttribute("Transfers", UintegerValue(800));
 *   host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.05));
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

  private:
    ObjectFactory m_factory; //!< RdmaHostApplication
};

} // namespace ns3

#endif /* RDMA_HOST_HELPER_H */
