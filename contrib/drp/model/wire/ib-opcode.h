/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_OPCODE_H
#define IB_OPCODE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The BTH opcodes of the reliable-connected service and RoCEv2's
 * congestion notification, and what each packet carries (the InfiniBand
 * Architecture Specification, volume 1, table 38; annex A17 for the CNP):
 * one table, which the transport and its tests read instead of spelling
 * the rules out again.
 *
 * \verbatim
   opcode  name                              extension headers  payload
   0x00    SEND_FIRST                        -                  yes
   0x01    SEND_MIDDLE                       -                  yes
   0x02    SEND_LAST                         -                  yes
   0x03    SEND_LAST_WITH_IMMEDIATE          ImmDt              yes
   0x04    SEND_ONLY                         -                  yes
   0x05    SEND_ONLY_WITH_IMMEDIATE          ImmDt              yes
   0x06    RDMA_WRITE_FIRST                  RETH               yes
   0x07    RDMA_WRITE_MIDDLE                 -                  yes
   0x08    RDMA_WRITE_LAST                   -                  yes
   0x09    RDMA_WRITE_LAST_WITH_IMMEDIATE    ImmDt              yes
   0x0A    RDMA_WRITE_ONLY                   RETH               yes
   0x0B    RDMA_WRITE_ONLY_WITH_IMMEDIATE    RETH, ImmDt        yes
   0x0C    RDMA_READ_REQUEST                 RETH               no
   0x0D    RDMA_READ_RESPONSE_FIRST          AETH               yes
   0x0E    RDMA_READ_RESPONSE_MIDDLE         -                  yes
   0x0F    RDMA_READ_RESPONSE_LAST           AETH               yes
   0x10    RDMA_READ_RESPONSE_ONLY           AETH               yes
   0x11    ACKNOWLEDGE                       AETH               no
   0x12    ATOMIC_ACKNOWLEDGE                AETH, AtomicAckETH no
   0x13    COMPARE_SWAP                      AtomicETH          no
   0x14    FETCH_ADD                         AtomicETH          no
   0x81    CNP                               16 reserved bytes  no
   \endverbatim
 */
class IbOpcode
{
  public:
    /// The opcodes.
    enum Value : uint8_t
    {
        SEND_FIRST = 0x00,                     //!< SEND, first packet
        SEND_MIDDLE = 0x01,                    //!< SEND, middle packet
        SEND_LAST = 0x02,                      //!< SEND, last packet
        SEND_LAST_WITH_IMMEDIATE = 0x03,       //!< SEND with immediate, last packet
        SEND_ONLY = 0x04,                      //!< SEND in one packet
        SEND_ONLY_WITH_IMMEDIATE = 0x05,       //!< SEND with immediate in one packet
        RDMA_WRITE_FIRST = 0x06,               //!< RDMA WRITE, first packet
        RDMA_WRITE_MIDDLE = 0x07,              //!< RDMA WRITE, middle packet
        RDMA_WRITE_LAST = 0x08,                //!< RDMA WRITE, last packet
        RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09, //!< WRITE with immediate, last packet
        RDMA_WRITE_ONLY = 0x0A,                //!< RDMA WRITE in one packet
        RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B, //!< WRITE with immediate in one packet
        RDMA_READ_REQUEST = 0x0C,              //!< RDMA READ request
        RDMA_READ_RESPONSE_FIRST = 0x0D,       //!< READ response, first packet
        RDMA_READ_RESPONSE_MIDDLE = 0x0E,      //!< READ response, middle packet
        RDMA_READ_RESPONSE_LAST = 0x0F,        //!< READ response, last packet
        RDMA_READ_RESPONSE_ONLY = 0x10,        //!< READ response in one packet
        ACKNOWLEDGE = 0x11,                    //!< ACK, RNR NAK or NAK
        ATOMIC_ACKNOWLEDGE = 0x12,             //!< an atomic's response
        COMPARE_SWAP = 0x13,                   //!< atomic compare and swap
        FETCH_ADD = 0x14,                      //!< atomic fetch and add
        CNP = 0x81,                            //!< RoCEv2 congestion notification
    };

    /// Bytes of a CNP's payload (reserved, 0).
    static constexpr uint32_t CNP_PAYLOAD = 16;

    /// \param opcode a BTH opcode \return true if it is one of the table's
    static bool IsKnown(uint8_t opcode);
    /// \param opcode a known opcode \return its name, as in the table ("?" otherwise)
    static std::string GetName(uint8_t opcode);
    /// \param opcode a known opcode \return bytes of its extension headers after the BTH
    static uint32_t GetExtensionSize(uint8_t opcode);
    /// \param opcode a known opcode \return true if it carries a RETH
    static bool HasReth(uint8_t opcode);
    /// \param opcode a known opcode \return true if it carries an AETH
    static bool HasAeth(uint8_t opcode);
    /// \param opcode a known opcode \return true if it carries an ImmDt
    static bool HasImmediate(uint8_t opcode);
    /// \param opcode a known opcode \return true if it carries an AtomicETH
    static bool HasAtomicEth(uint8_t opcode);
    /// \param opcode a known opcode \return true if it carries a payload
    static bool HasPayload(uint8_t opcode);
    /// \param opcode a known opcode \return true if a requester sends it (SEND, WRITE, READ
    /// request, atomics)
    static bool IsRequest(uint8_t opcode);
    /// \param opcode a known opcode \return true for a message's first packet (FIRST or ONLY, or a
    /// one-packet request)
    static bool StartsMessage(uint8_t opcode);
    /// \param opcode a known opcode \return true for a message's last packet (LAST or ONLY, or a
    /// one-packet request)
    static bool EndsMessage(uint8_t opcode);
};

} // namespace ns3

#endif /* IB_OPCODE_H */
