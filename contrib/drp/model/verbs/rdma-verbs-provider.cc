/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-verbs-provider.h"

#include "rdma-context.h"
#include "rdma-queue-pair.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaVerbsProvider);

TypeId
RdmaVerbsProvider::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaVerbsProvider").SetParent<Object>().SetGroupName("Drp");
    return tid;
}

const uint32_t RdmaVerbsProvider::ALL_OPCODES =
    (1u << uint32_t(RdmaWrOpcode::RDMA_WRITE)) |
    (1u << uint32_t(RdmaWrOpcode::RDMA_WRITE_WITH_IMM)) | (1u << uint32_t(RdmaWrOpcode::SEND)) |
    (1u << uint32_t(RdmaWrOpcode::SEND_WITH_IMM)) | (1u << uint32_t(RdmaWrOpcode::RDMA_READ)) |
    (1u << uint32_t(RdmaWrOpcode::ATOMIC_CMP_AND_SWP)) |
    (1u << uint32_t(RdmaWrOpcode::ATOMIC_FETCH_AND_ADD));

void
RdmaVerbsProvider::DoDispose()
{
    m_contexts.clear();
    Object::DoDispose();
}

void
RdmaVerbsProvider::AddContext(Ptr<RdmaContext> context)
{
    m_contexts.push_back(context);
}

void
RdmaVerbsProvider::RemoveContext(const RdmaContext* context)
{
    m_contexts.erase(
        std::remove_if(m_contexts.begin(),
                       m_contexts.end(),
                       [context](const Ptr<RdmaContext>& c) { return PeekPointer(c) == context; }),
        m_contexts.end());
}

Ptr<RdmaContext>
RdmaVerbsProvider::ContextOf(Ptr<RdmaQueuePair> qp) const
{
    for (const auto& context : m_contexts)
    {
        if (context->FindQp(qp->GetQpNum()) == qp)
        {
            return context;
        }
    }
    return nullptr;
}

} // namespace ns3
