/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_VERBS_PROVIDER_H
#define RDMA_VERBS_PROVIDER_H

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaContext;
class RdmaQueuePair;

/**
 * \ingroup drp
 * \brief What runs an RNIC's queue pairs: the one interface the verbs need
 * from a transport, whichever method the RNIC runs (libibverbs' provider,
 * in rdma-core's words).
 *
 * One per RNIC, aggregated to it: DrpVerbsProvider executes the queue
 * pairs' requests as DRP transfers (traditional and dynamic), RoceTransport
 * as RoCEv2's reliable-connected service (roce). RdmaContext::Open() takes
 * the RNIC's and hands it its queue pairs; the queue pair itself keeps the
 * verbs' semantics (states, queues, completions, the flush), the provider
 * executes what the queue pair hands over and ends it there.
 */
class RdmaVerbsProvider : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// The send opcodes both providers execute, as RdmaQueuePair::SetSupportedOpcodes
    /// takes them (every RdmaWrOpcode).
    static const uint32_t ALL_OPCODES;

    /// \param context a context opened on this provider's RNIC
    void AddContext(Ptr<RdmaContext> context);
    /// \param context a context being disposed (a raw pointer: its count
    ///        may be 0 already): its queue pairs and regions are gone
    void RemoveContext(const RdmaContext* context);
    /// \param qp a queue pair \return the context of this RNIC that made it, or null
    Ptr<RdmaContext> ContextOf(Ptr<RdmaQueuePair> qp) const;
    /// \param qp a queue pair of one of its contexts: its requests run here
    virtual void Bind(Ptr<RdmaQueuePair> qp) = 0;
    /// \param qp a queue pair being destroyed (reset before): forget it
    virtual void Unbind(Ptr<RdmaQueuePair> qp) = 0;

  protected:
    void DoDispose() override;

    std::vector<Ptr<RdmaContext>> m_contexts; //!< contexts opened on the RNIC
};

} // namespace ns3

#endif /* RDMA_VERBS_PROVIDER_H */
