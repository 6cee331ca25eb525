/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_HEADER_H
#define DRP_HEADER_H

#include "ns3/header.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The DRP header: the 32 bytes that follow the Ethernet header in
 * every DRP frame (EtherType 0x01FF by default; see RnicNetDevice::EtherType).
 *
 * Layout, network byte order:
 *
 * \verbatim
   bytes  field   meaning
   0      CTRL    bit0 REQ, bit1 REQ_ACK, bit2 DATA, bit3 REL, bit4 REL_ACK,
                  bit5 READ (0 = write), bit6 INDIRECT (0 = direct),
                  bit7 ACK (ACKN is meaningful)
   1      STATUS  bit0: in a REQ_ACK, 0 = valid, 1 = invalid (registration
                  failed), 0 elsewhere; bit1 INT: the in-band telemetry
                  extension (DrpIntHeader, 42 bytes) follows this header
                  (only in DATA frames and pure ACKs); bits 2-4: in a
                  REQ, bit2 MSG: the message extension (DrpMessageHeader,
                  16 bytes after a write's REQ, 32 after a read's: an
                  atomic) follows this header; in an
                  invalid REQ_ACK, the reason (Nak); 0 elsewhere; bit5 CNP:
                  congestion notification (only with ACK); bits 7-6: ECN
                  field, RFC 3168's codepoints (00 Not-ECT, 01 ECT(1),
                  10 ECT(0), 11 CE)
   2-3    TID     transfer id, chosen by the initiator
   4-11   SBA     initiator's address (region base; in DATA, this frame's
                  payload address)
   12-19  DBA     responder's address (region base; in DATA, this frame's
                  payload address)
   20-23  LEN     in REQ: transfer length; in DATA: this frame's payload length
   24-27  SN      data frame sequence number; in a REQ_ACK refusing with
                  RECEIVER_NOT_READY, the responder's RNR timer code (0-31)
   28-31  ACKN    cumulative acknowledgement: the next SN expected
   \endverbatim
 *
 * The ECN field and CNP use STATUS bits the published frame leaves at 0, so
 * a frame of an RNIC without ECN is the published frame bit for bit. A
 * sender that is ECN-capable sends its data frames ECT(0); a switch queue
 * (EcnMarkingQueue) may mark them CE; the receiver answers a CE-marked frame
 * with CNP on the acknowledgement it sends anyway, as some RNICs carry the
 * congestion notification on an ACK rather than in a frame of its own.
 *
 * Which end sent a frame follows from its CTRL bits alone (see
 * IsFromInitiator()), so one RNIC can be initiator and responder of
 * transfers with the same TID at once.
 */
class DrpHeader : public Header
{
  public:
    /// The paper's EtherType of DRP frames (in the range 0x0101-0x01FF), the default of
    /// RnicNetDevice::EtherType.
    static constexpr uint16_t PROT_NUMBER = 0x01FF;
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 32;

    /// CTRL flag bits.
    enum Flag : uint8_t
    {
        REQ = 1 << 0,      //!< connection request
        REQ_ACK = 1 << 1,  //!< connection reply (or, with ACK, a read confirmation)
        DATA = 1 << 2,     //!< data frame
        REL = 1 << 3,      //!< release request
        REL_ACK = 1 << 4,  //!< release reply
        READ = 1 << 5,     //!< the transfer is a read (0: write)
        INDIRECT = 1 << 6, //!< sent in indirect mode (0: direct)
        ACK = 1 << 7,      //!< ACKN is meaningful
    };

    /// STATUS values of a REQ_ACK (STATUS bit 0, the reply code).
    enum Status : uint8_t
    {
        VALID = 0,   //!< the responder registered the region
        INVALID = 1, //!< the responder's registration failed
    };

    /**
     * Why a responder refused a request: STATUS bits 2-4 of an invalid
     * REQ_ACK. The paper's refusal (a failed registration) is REGISTRATION,
     * and its initiator asks again; the others end the transfer at once,
     * as an InfiniBand NAK ends a request.
     */
    enum Nak : uint8_t
    {
        REGISTRATION = 0,       //!< the registration failed: ask again (the paper's)
        RECEIVER_NOT_READY = 1, //!< a message found no receive request (RNR NAK)
        INVALID_REQUEST = 2,    //!< the message does not fit the receive buffer, or no
                                //!< queue pair takes it (NAK invalid request)
        REMOTE_ACCESS = 3,      //!< no region, queue pair or access allows it
                                //!< (NAK remote access error)
        REMOTE_OPERATION = 4,   //!< the responder failed locally, e.g. its receive
                                //!< buffer's key (NAK remote operational error)
        NAK_COUNT,
    };

    /// The ECN codepoints of STATUS bits 7-6, with the values of RFC 3168's ECN field.
    enum Ecn : uint8_t
    {
        NOT_ECT = 0, //!< not ECN-capable: a switch queue drops it rather than mark it
        ECT1 = 1,    //!< ECN-capable transport, codepoint 1
        ECT0 = 2,    //!< ECN-capable transport, codepoint 0 (what DRP data frames carry)
        CE = 3,      //!< congestion experienced: marked by a switch queue
    };

    /// STATUS bit 0: the reply code (Status), meaningful in a REQ_ACK.
    static constexpr uint8_t STATUS_REPLY_MASK = 0x01;
    /// STATUS bit 1: the INT extension (DrpIntHeader) follows the header.
    static constexpr uint8_t STATUS_INT = 0x02;
    /// STATUS bits 2-4: MSG in a REQ, the Nak in an invalid REQ_ACK, else 0.
    static constexpr uint8_t STATUS_CONTEXT_MASK = 0x1c;
    /// STATUS bit 2 of a REQ: the message extension (DrpMessageHeader) follows.
    static constexpr uint8_t STATUS_MSG = 0x04;
    /// Position of the Nak in STATUS.
    static constexpr uint8_t STATUS_NAK_SHIFT = 2;
    /// STATUS bit 5: congestion notification (CNP), on a frame with the ACK flag.
    static constexpr uint8_t STATUS_CNP = 0x20;
    /// STATUS bits 7-6: the ECN field (Ecn).
    static constexpr uint8_t STATUS_ECN_MASK = 0xc0;
    /// Position of the ECN field in STATUS.
    static constexpr uint8_t STATUS_ECN_SHIFT = 6;

    DrpHeader();

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

    /// \param ctrl the whole CTRL byte
    void SetControl(uint8_t ctrl);
    /// \return the whole CTRL byte
    uint8_t GetControl() const;
    /// \param flag one or more Flag bits to set
    void SetFlag(uint8_t flag);
    /// \param flag one Flag bit \return true if it is set
    bool HasFlag(Flag flag) const;
    /// \param status the STATUS byte (reply code, CNP and ECN field together)
    void SetStatus(uint8_t status);
    /// \return the STATUS byte (reply code, CNP and ECN field together)
    uint8_t GetStatus() const;
    /// \return the reply code (STATUS bit 0): VALID or INVALID in a REQ_ACK
    uint8_t GetReplyStatus() const;
    /// \param ecn the ECN field (STATUS bits 7-6); the other bits are kept
    void SetEcn(Ecn ecn);
    /// \return the ECN field (STATUS bits 7-6)
    Ecn GetEcn() const;
    /// \return true if the ECN field is ECT(0), ECT(1) or CE
    bool IsEcnCapable() const;
    /// \param cnp true: the frame notifies its receiver of congestion (STATUS bit 5)
    void SetCongestionNotification(bool cnp);
    /// \return true if STATUS bit 5 (CNP) is set
    bool HasCongestionNotification() const;
    /// \param telemetry true: the INT extension follows the header (STATUS bit 1)
    void SetTelemetry(bool telemetry);
    /// \return true if STATUS bit 1 (INT) is set: the INT extension follows
    bool HasTelemetry() const;
    /// \param message true: the message extension follows this REQ (STATUS bit 2)
    void SetMessage(bool message);
    /// \return true if this is a REQ with STATUS bit 2 (MSG) set
    bool HasMessage() const;
    /// \param nak the reason of an invalid REQ_ACK (STATUS bits 2-4)
    void SetNak(Nak nak);
    /// \return the reason of an invalid REQ_ACK (REGISTRATION elsewhere)
    Nak GetNak() const;
    /// \param tid the transfer id
    void SetTid(uint16_t tid);
    /// \return the transfer id
    uint16_t GetTid() const;
    /// \param sba the initiator-side address
    void SetSba(uint64_t sba);
    /// \return the initiator-side address
    uint64_t GetSba() const;
    /// \param dba the responder-side address
    void SetDba(uint64_t dba);
    /// \return the responder-side address
    uint64_t GetDba() const;
    /// \param len LEN: transfer length (REQ) or payload length (DATA)
    void SetLength(uint32_t len);
    /// \return LEN
    uint32_t GetLength() const;
    /// \param sn the data sequence number
    void SetSequence(uint32_t sn);
    /// \return the data sequence number
    uint32_t GetSequence() const;
    /// \param ackn the cumulative acknowledgement number (also sets the ACK flag)
    void SetAckNumber(uint32_t ackn);
    /// \return the cumulative acknowledgement number
    uint32_t GetAckNumber() const;

    /// \return true for a read transfer
    bool IsRead() const;
    /**
     * Marks a DRP frame Congestion Experienced if it is ECN-capable (the
     * marker a switch queue, EcnMarkingQueue, uses for DRP's EtherType).
     * \param payload the frame's payload: the DRP header first
     * \return true if ECN-capable (now CE), false if left unchanged
     */
    static bool MarkCongestion(Ptr<Packet> payload);

    /// \return true if the frame travels from the transfer's initiator to its responder
    bool IsFromInitiator() const;
    /// \return true if exactly one of REQ, REQ_ACK, DATA, REL, REL_ACK is set,
    ///         or none is set and ACK is (a pure acknowledgement); and in STATUS
    ///         the reply code is VALID or INVALID in a REQ_ACK, VALID (0) in
    ///         every other frame, bits 2-4 are MSG only in a REQ
    ///         and a Nak only in an invalid REQ_ACK, CNP is set only
    ///         with ACK, and INT only in a DATA frame or a pure
    ///         acknowledgement (any ECN codepoint may be on any frame)
    bool IsWellFormed() const;

  private:
    uint8_t m_ctrl;   //!< CTRL
    uint8_t m_status; //!< STATUS
    uint16_t m_tid;   //!< TID
    uint64_t m_sba;   //!< SBA
    uint64_t m_dba;   //!< DBA
    uint32_t m_len;   //!< LEN
    uint32_t m_sn;    //!< SN
    uint32_t m_ackn;  //!< ACKN
};

} // namespace ns3

#endif /* DRP_HEADER_H */
