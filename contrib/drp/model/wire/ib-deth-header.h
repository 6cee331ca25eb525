/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_DETH_HEADER_H
#define IB_DETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief InfiniBand's Datagram Extended Transport Header (DETH), which
 * follows the BTH of an unreliable-datagram packet (the InfiniBand
 * Architecture Specification, volume 1, 9.3.3): management datagrams to
 * and from queue pair 1 carry it.
 *
 * Layout, network byte order (8 bytes):
 *
 * \verbatim
   bytes  field
   0-3    Q_Key    the queue key (GSI: 0x80010000)
   4      reserved, 0
   5-7    SrcQP    the sending queue pair (24 bits)
   \endverbatim
 */
class IbDethHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 8;
    /// The well-known Q_Key of the general services interface (queue pair 1).
    static constexpr uint32_t GSI_QKEY = 0x80010000;

    IbDethHeader();

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

    /// \param qkey Q_Key
    void SetQkey(uint32_t qkey);
    /// \return Q_Key
    uint32_t GetQkey() const;
    /// \param qpn SrcQP (24 bits; the rest is dropped)
    void SetSourceQp(uint32_t qpn);
    /// \return SrcQP
    uint32_t GetSourceQp() const;

  private:
    uint32_t m_qkey;     //!< Q_Key
    uint32_t m_sourceQp; //!< SrcQP
};

} // namespace ns3

#endif /* IB_DETH_HEADER_H */
