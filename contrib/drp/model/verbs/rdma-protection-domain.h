/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PROTECTION_DOMAIN_H
#define RDMA_PROTECTION_DOMAIN_H

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A protection domain (ibv_pd): the memory regions and queue pairs
 * that may be used together.
 *
 * Allocated by RdmaContext::AllocPd(). A queue pair may only use the memory
 * regions of its own domain: a work request whose SGE names a region of
 * another domain completes with LOC_PROT_ERR, and a peer's access through
 * a region of another domain than the queue pair's is refused
 * (REM_ACCESS_ERR), as the InfiniBand Architecture Specification requires.
 * The domain counts what uses it, so that deallocating one still in use
 * fails with EBUSY, as ibv_dealloc_pd does.
 */
class RdmaProtectionDomain : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaProtectionDomain();

    /**
     * \param context the id of the RdmaContext that allocated it
     * \param handle its number within that context
     */
    void Init(uint64_t context, uint32_t handle);
    /// \return the id of the context that allocated it
    uint64_t GetContextId() const;
    /// \return its number within the context (pd->handle)
    uint32_t GetHandle() const;

    /// A memory region or queue pair starts using it.
    void AddUser();
    /// A memory region or queue pair stops using it.
    void RemoveUser();
    /// \return memory regions and queue pairs using it
    uint32_t GetUsers() const;

  private:
    uint64_t m_context{0}; //!< the allocating context's id
    uint32_t m_handle{0};  //!< number within the context
    uint32_t m_users{0};   //!< regions and queue pairs using it
};

} // namespace ns3

#endif /* RDMA_PROTECTION_DOMAIN_H */
