/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MEMORY_REGION_H
#define RDMA_MEMORY_REGION_H

#include "rdma-protection-domain.h"

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A registered memory region (ibv_mr): host memory pinned for the
 * RNIC, with its access flags and its keys.
 *
 * Made by RdmaContext::RegMr(), which pins the pages in the host's
 * HostMemory (the RNIC's RegionTable follows) after the host model's
 * registration time, and released by RdmaContext::DeregMr(). The local key
 * (lkey) names it in the scatter-gather lists of its own queue pairs, the
 * remote key (rkey) in a peer's RDMA and atomic requests; as on mlx5 cards
 * the two are equal. A key is never reused within a context, so that a
 * request with a stale key fails rather than reaching a newer region.
 */
class RdmaMemoryRegion : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaMemoryRegion();

    /**
     * \param pd its protection domain
     * \param address first byte
     * \param length bytes
     * \param access RdmaAccess flags
     * \param key its lkey and rkey
     */
    void Init(Ptr<RdmaProtectionDomain> pd,
              uint64_t address,
              uint64_t length,
              uint32_t access,
              uint32_t key);

    /// \return its protection domain
    Ptr<RdmaProtectionDomain> GetPd() const;
    /// \return first byte (mr->addr)
    uint64_t GetAddress() const;
    /// \return bytes (mr->length)
    uint64_t GetLength() const;
    /// \return RdmaAccess flags
    uint32_t GetAccess() const;
    /// \return the local key (mr->lkey)
    uint32_t GetLkey() const;
    /// \return the remote key (mr->rkey)
    uint32_t GetRkey() const;

    /**
     * \param address first byte
     * \param length bytes
     * \param access RdmaAccess flags all needed
     * \return true if [address, address + length) lies in the region (an
     *         empty range at its edges included) and it grants every flag
     */
    bool Allows(uint64_t address, uint64_t length, uint32_t access) const;

    /// \return true until deregistered
    bool IsValid() const;
    /// Deregistered: its keys name nothing any more.
    void Invalidate();

  protected:
    void DoDispose() override;

  private:
    Ptr<RdmaProtectionDomain> m_pd; //!< its domain
    uint64_t m_address{0};          //!< first byte
    uint64_t m_length{0};           //!< bytes
    uint32_t m_access{0};           //!< RdmaAccess flags
    uint32_t m_key{0};              //!< lkey = rkey
    bool m_valid{false};            //!< registered
};

} // namespace ns3

#endif /* RDMA_MEMORY_REGION_H */
