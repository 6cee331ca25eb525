/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_BTH_HEADER_H
#define IB_BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief InfiniBand's Base Transport Header (BTH), the first header of
 * every RoCEv2 packet after UDP (the InfiniBand Architecture
 * Specification, volume 1, 9.2; annex A17 for RoCEv2).
 *
 * Layout, network byte order (12 bytes):
 *
 * \verbatim
   bytes  field
   0      OpCode   bits 7-5 the transport service (RC 000, UD 011,
                   CNP 100), bits 4-0 the operation
   1      SE (bit 7), M (bit 6), PadCnt (bits 5-4), TVer (bits 3-0, 0)
   2-3    P_Key    the partition key (default partition 0xFFFF)
   4      FECN (bit 7), BECN (bit 6), reserved (bits 5-0, 0; RoCEv2 carries
                   ECN in the IP header instead)
   5-7    DestQP   the destination queue pair (24 bits)
   8      A (bit 7): acknowledge request; reserved (bits 6-0, 0)
   9-11   PSN      the packet sequence number (24 bits)
   \endverbatim
 */
class IbBthHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 12;
    /// The default partition's key, which every drp queue pair uses.
    static constexpr uint16_t DEFAULT_PKEY = 0xffff;
    /// The largest queue pair number or PSN (24 bits).
    static constexpr uint32_t MAX_24 = 0xffffff;
    /// The opcode of a UD SEND_ONLY (a management datagram's).
    static constexpr uint8_t UD_SEND_ONLY = 0x64;

    IbBthHeader();

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

    /// \param opcode OpCode
    void SetOpcode(uint8_t opcode);
    /// \return OpCode
    uint8_t GetOpcode() const;
    /// \param solicited SE
    void SetSolicited(bool solicited);
    /// \return SE
    bool IsSolicited() const;
    /// \param padCount PadCnt, the bytes (0 to 3) that pad the payload to 4
    void SetPadCount(uint8_t padCount);
    /// \return PadCnt
    uint8_t GetPadCount() const;
    /// \param pkey P_Key
    void SetPkey(uint16_t pkey);
    /// \return P_Key
    uint16_t GetPkey() const;
    /// \param qpn DestQP (24 bits; the rest is dropped)
    void SetDestQp(uint32_t qpn);
    /// \return DestQP
    uint32_t GetDestQp() const;
    /// \param ackRequest A
    void SetAckRequest(bool ackRequest);
    /// \return A
    bool GetAckRequest() const;
    /// \param psn PSN (24 bits; the rest is dropped)
    void SetPsn(uint32_t psn);
    /// \return PSN
    uint32_t GetPsn() const;
    /// \param becn BECN (byte 4, bit 6): set in a RoCEv2 CNP
    void SetBecn(bool becn);
    /// \return BECN
    bool GetBecn() const;

  private:
    uint8_t m_opcode;  //!< OpCode
    uint8_t m_flags;   //!< SE, M, PadCnt, TVer
    uint16_t m_pkey;   //!< P_Key
    uint32_t m_destQp; //!< DestQP
    bool m_ackRequest; //!< A
    bool m_becn;       //!< BECN
    uint32_t m_psn;    //!< PSN
};

} // namespace ns3

#endif /* IB_BTH_HEADER_H */
