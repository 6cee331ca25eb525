/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_RETH_HEADER_H
#define IB_RETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief InfiniBand's RDMA Extended Transport Header (RETH): where an RDMA
 * WRITE (its first or only packet) or an RDMA READ request goes at the
 * responder (the InfiniBand Architecture Specification, volume 1, 9.3.3).
 *
 * Layout, network byte order (16 bytes):
 *
 * \verbatim
   bytes  field
   0-7    VA          the responder's virtual address
   8-11   R_Key       the remote key of its memory region
   12-15  DMALength   the message's bytes
   \endverbatim
 */
class IbRethHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 16;

    IbRethHeader();

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
    /// \param length DMALength
    void SetDmaLength(uint32_t length);
    /// \return DMALength
    uint32_t GetDmaLength() const;

  private:
    uint64_t m_va;     //!< VA
    uint32_t m_rkey;   //!< R_Key
    uint32_t m_length; //!< DMALength
};

} // namespace ns3

#endif /* IB_RETH_HEADER_H */
