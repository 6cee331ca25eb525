/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_IMMDT_HEADER_H
#define IB_IMMDT_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief InfiniBand's Immediate Data Extended Transport Header (ImmDt):
 * the 4 bytes of immediate data of a SEND or RDMA WRITE with immediate,
 * in its last or only packet (the InfiniBand Architecture Specification,
 * volume 1, 9.3.4). Network byte order, as libibverbs' imm_data (__be32).
 */
class IbImmDtHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 4;

    IbImmDtHeader();

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

    /// \param imm the immediate data
    void SetImmediate(uint32_t imm);
    /// \return the immediate data
    uint32_t GetImmediate() const;

  private:
    uint32_t m_imm; //!< the immediate data
};

} // namespace ns3

#endif /* IB_IMMDT_HEADER_H */
