/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_AETH_HEADER_H
#define IB_AETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief InfiniBand's ACK Extended Transport Header (AETH): the responder's
 * acknowledgement, RNR NAK or NAK, in an ACKNOWLEDGE packet, an atomic
 * acknowledgement and a READ response's first, last or only packet (the
 * InfiniBand Architecture Specification, volume 1, 9.3.5 and 9.7.5.1).
 *
 * Layout, network byte order (4 bytes):
 *
 * \verbatim
   bytes  field
   0      Syndrome  bit 7 reserved (0); bits 6-5 the kind: 00 ACK, 01 RNR NAK,
                    11 NAK; bits 4-0 its value: an ACK's credit count (31: no
                    end-to-end credits), an RNR NAK's timer (encoded as
                    MIN_RNR_TIMER), a NAK's code (0 PSN sequence error,
                    1 invalid request, 2 remote access error, 3 remote
                    operational error)
   1-3    MSN       the responder's message sequence number (24 bits)
   \endverbatim
 */
class IbAethHeader : public Header
{
  public:
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 4;
    /// An ACK's credit count when the responder gives no end-to-end credits.
    static constexpr uint8_t NO_CREDITS = 31;

    /// Syndrome bits 6-5.
    enum Kind : uint8_t
    {
        ACK = 0,     //!< acknowledgement
        RNR_NAK = 1, //!< receiver not ready
        NAK = 3,     //!< negative acknowledgement
    };

    /// A NAK's code (syndrome bits 4-0).
    enum NakCode : uint8_t
    {
        PSN_SEQUENCE_ERROR = 0,       //!< a PSN out of order: go back to the MSN's PSN
        INVALID_REQUEST = 1,          //!< an invalid request
        REMOTE_ACCESS_ERROR = 2,      //!< an R_Key, bounds or access check failed
        REMOTE_OPERATIONAL_ERROR = 3, //!< the responder could not complete it
    };

    IbAethHeader();

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

    /**
     * \param kind ACK, RNR NAK or NAK
     * \param value the credit count, the RNR timer or the NAK code (5 bits)
     */
    void SetSyndrome(Kind kind, uint8_t value);
    /// \return the syndrome's kind (bits 6-5; 2 is reserved)
    uint8_t GetKind() const;
    /// \return the syndrome's value (bits 4-0)
    uint8_t GetValue() const;
    /// \param msn MSN (24 bits; the rest is dropped)
    void SetMsn(uint32_t msn);
    /// \return MSN
    uint32_t GetMsn() const;

  private:
    uint8_t m_syndrome; //!< Syndrome
    uint32_t m_msn;     //!< MSN
};

} // namespace ns3

#endif /* IB_AETH_HEADER_H */
