/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_ATOMIC_ETH_HEADER_H
#define IB_ATOMIC_ETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief InfiniBand's Atomic Extended Transport Header (AtomicETH): the
 * target and operands of a COMPARE_SWAP or FETCH_ADD request (the
 * InfiniBand Architecture Specification, volume 1, 9.3.3.3).
 *
 * Layout, network byte order (28 bytes):
 *
 * \verbatim
   bytes  field
   0-7    VA           the responder's virtual address (8-byte aligned)
   8-11   R_Key        the remote key of its memory region
   12-19  Swap (Add)   the value swapped in, or added
   20-27  Compare      COMPARE_SWAP's compare value (FETCH_ADD: 0)
   \endverbatim
 */
class IbAtomicEthHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 28;

    IbAtomicEthHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param va VA
    void SetVirtualAddress(uint64_t va);
    /// \return VA
    uint64_t GetVirtualAddress() const;
    /// \param rkey R_Key
    void SetRkey(uint32_t rkey);
    /// \return R_Key
    uint32_t GetRkey() const;
    /// \param value Swap (Add)
    void SetSwapAdd(uint64_t value);
    /// \return Swap (Add)
    uint64_t GetSwapAdd() const;
    /// \param value Compare
    void SetCompare(uint64_t value);
    /// \return Compare
    uint64_t GetCompare() const;

  private:
    uint64_t m_va;      //!< VA
    uint32_t m_rkey;    //!< R_Key
    uint64_t m_swapAdd; //!< Swap (Add)
    uint64_t m_compare; //!< Compare
};

} // namespace ns3

#endif /* IB_ATOMIC_ETH_HEADER_H */
