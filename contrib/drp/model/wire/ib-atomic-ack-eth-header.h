/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_ATOMIC_ACK_ETH_HEADER_H
#define IB_ATOMIC_ACK_ETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief InfiniBand's Atomic Acknowledge Extended Transport Header
 * (AtomicAckETH): the value an atomic found at the responder, after the
 * AETH of an ATOMIC_ACKNOWLEDGE (the InfiniBand Architecture
 * Specification, volume 1, 9.3.6). 8 bytes, network byte order: the
 * original remote data.
 */
class IbAtomicAckEthHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 8;

    IbAtomicAckEthHeader();

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

    /// \param value the original remote data
    void SetOriginal(uint64_t value);
    /// \return the original remote data
    uint64_t GetOriginal() const;

  private:
    uint64_t m_original; //!< the original remote data
};

} // namespace ns3

#endif /* IB_ATOMIC_ACK_ETH_HEADER_H */
