/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_MESSAGE_HEADER_H
#define DRP_MESSAGE_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The message extension of a DRP request: what the verbs' SEND,
 * SEND with immediate, RDMA WRITE with immediate and the two atomics need
 * beyond the paper's transfer. It follows the DRP header of a REQ whose
 * STATUS bit 2 (MSG) is set: a write's REQ for the three messages, a read's
 * REQ of 8 bytes for an atomic.
 *
 * The paper's transfer names the responder's bytes (DBA); a SEND does not
 * know them: the responder places its data in the buffer of the receive
 * request at the head of the destination queue pair's receive queue, and
 * both kinds end in a receive completion that carries the immediate data.
 * So the request names the queue pairs and carries the immediate data and,
 * for a WRITE with immediate, the rkey the responder checks.
 *
 * Layout, network byte order (16 bytes, so that a REQ with it needs no
 * Ethernet padding; 32 for an atomic, whose operands follow, as in
 * InfiniBand's AtomicETH, whose VA is the REQ's DBA):
 *
 * \verbatim
   bytes  field
   0      OPCODE  InfiniBand's RC opcode of the message: 0x04 SEND_ONLY,
                  0x05 SEND_ONLY_WITH_IMMEDIATE, 0x0B RDMA_WRITE_ONLY_WITH_IMMEDIATE,
                  0x13 COMPARE_SWAP, 0x14 FETCH_ADD
   1-3    DQPN    destination queue pair number (24 bits)
   4      FLAGS   bit0 SE: solicited event (the sender's IBV_SEND_SOLICITED; 0 in
                  an atomic); bits 7-1 reserved, 0
   5-7    SQPN    source queue pair number (24 bits)
   8-11   IMM     immediate data (0 unless the opcode has it)
   12-15  RKEY    the responder's rkey (RDMA WRITE with immediate, atomics; else 0)
   16-23  SWAP    atomics only: the swap value (COMPARE_SWAP) or the addend (FETCH_ADD)
   24-31  COMPARE atomics only: the compare value (COMPARE_SWAP; FETCH_ADD: 0)
   \endverbatim
 *
 * For a SEND, the DBA of the request and of its data frames counts from
 * 0: the responder adds the receive buffer's address. An atomic is a read
 * of the 8 bytes at DBA whose data is their value before the operation.
 * A REQ_ACK that refuses a message carries the reason in STATUS bits 2-4
 * (DrpHeader::Nak).
 */
class DrpMessageHeader : public Header
{
  public:
    /// Serialized size in bytes (a SEND's, a WRITE with immediate's).
    static constexpr uint32_t SIZE = 16;
    /// An atomic's operands, after the 16 bytes.
    static constexpr uint32_t ATOMIC_SIZE = 16;
    /// FLAGS bit 0: solicited event.
    static constexpr uint8_t FLAG_SE = 0x01;
    /// The largest queue pair number (24 bits).
    static constexpr uint32_t MAX_QPN = 0xffffff;

    /// OPCODE: InfiniBand's RC opcodes of the three messages.
    enum Opcode : uint8_t
    {
        SEND = 0x04,           //!< SEND_ONLY
        SEND_WITH_IMM = 0x05,  //!< SEND_ONLY_WITH_IMMEDIATE
        WRITE_WITH_IMM = 0x0B, //!< RDMA_WRITE_ONLY_WITH_IMMEDIATE
        COMPARE_SWAP = 0x13,   //!< COMPARE_SWAP
        FETCH_ADD = 0x14,      //!< FETCH_ADD
    };

    DrpMessageHeader();

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
     * \param opcode an OPCODE byte
     * \return the extension's size with it (the reader checks the bytes are there)
     */
    static uint32_t SizeOf(uint8_t opcode);

    /// \param opcode the message's opcode
    void SetOpcode(Opcode opcode);
    /// \return OPCODE
    uint8_t GetOpcode() const;
    /// \param qpn the destination queue pair (24 bits; the rest is dropped)
    void SetDestQpn(uint32_t qpn);
    /// \return DQPN
    uint32_t GetDestQpn() const;
    /// \param qpn the source queue pair (24 bits; the rest is dropped)
    void SetSourceQpn(uint32_t qpn);
    /// \return SQPN
    uint32_t GetSourceQpn() const;
    /// \param imm the immediate data
    void SetImmediate(uint32_t imm);
    /// \return IMM
    uint32_t GetImmediate() const;
    /// \param solicited the sender asked for a solicited event (FLAGS bit 0)
    void SetSolicited(bool solicited);
    /// \return FLAGS bit 0 (SE)
    bool IsSolicited() const;
    /// \param rkey the responder's rkey
    void SetRkey(uint32_t rkey);
    /// \return RKEY
    uint32_t GetRkey() const;
    /// \param value an atomic's swap value (COMPARE_SWAP) or addend (FETCH_ADD)
    void SetSwapAdd(uint64_t value);
    /// \return SWAP
    uint64_t GetSwapAdd() const;
    /// \param value a COMPARE_SWAP's compare value
    void SetCompare(uint64_t value);
    /// \return COMPARE
    uint64_t GetCompare() const;
    /// \return true for COMPARE_SWAP and FETCH_ADD
    bool IsAtomic() const;

    /// \return true for SEND and SEND with immediate (placed in a receive buffer)
    bool IsSend() const;
    /// \return true if the opcode carries immediate data
    bool HasImmediate() const;
    /// \return true if OPCODE is one of the five, FLAGS' reserved bits are 0
    ///         (all of them in an atomic), and IMM, RKEY and COMPARE are 0 where
    ///         the opcode has none
    bool IsWellFormed() const;

    /// \return true if two extensions are the same bytes
    bool operator==(const DrpMessageHeader& other) const;

  private:
    uint8_t m_opcode;   //!< OPCODE
    uint32_t m_dqpn;    //!< DQPN
    uint8_t m_flags;    //!< FLAGS
    uint32_t m_sqpn;    //!< SQPN
    uint32_t m_imm;     //!< IMM
    uint32_t m_rkey;    //!< RKEY
    uint64_t m_swapAdd; //!< SWAP (atomics)
    uint64_t m_compare; //!< COMPARE (COMPARE_SWAP)
};

} // namespace ns3

#endif /* DRP_MESSAGE_HEADER_H */
