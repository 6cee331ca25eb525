/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The MAC Control payload of an IEEE 802.1Qbb priority flow control
 * (PFC) frame: what follows the Ethernet header whose EtherType is 0x8808
 * (MAC Control), sent to the reserved multicast address 01:80:C2:00:00:01.
 *
 * Layout (IEEE 802.1Qbb clause 36.1.3, IEEE 802.3 Annex 31D), network byte
 * order, 20 bytes; the port pads the payload to Ethernet's minimum of 46
 * bytes with zeros as it pads any frame:
 *
 * | bytes | field               | meaning                                       |
 * |-------|---------------------|-----------------------------------------------|
 * | 0-1   | opcode              | 0x0101, "Class Based Flow Control [CBFC] Pause" |
 * | 2-3   | class-enable vector | bit i (i = 0..7) set: the time for class i counts; bits 8-15 zero
 * | | 4-19  | time[0] .. time[7]  | pause time of class i in quanta of 512 bit times at the
 * receiver's rate |
 *
 * A pause time of 0 with its enable bit set resumes the class at once; a
 * class whose enable bit is clear is not affected, whatever its time field
 * holds. Deserialize() reads whatever opcode and vector the bytes hold (a
 * foreign MAC Control frame, such as an IEEE 802.3x PAUSE with opcode
 * 0x0001, reads as one); IsWellFormed() tells whether the receiver may act on
 * it: the PFC opcode, the reserved upper byte of the vector zero, and all 20
 * bytes present. Wireshark's "MAC Control" dissector reports a clear reserved
 * byte and the destination address as expert errors; the port checks the
 * destination (IsPfcDestination()).
 */
class PfcHeader : public Header
{
  public:
    /// The MAC Control EtherType.
    static constexpr uint16_t ETHER_TYPE = 0x8808;
    /// The opcode of a PFC frame ("Class Based Flow Control [CBFC] Pause").
    static constexpr uint16_t OPCODE_PFC = 0x0101;
    /// The opcode of an IEEE 802.3x PAUSE frame (a foreign opcode to this model).
    static constexpr uint16_t OPCODE_PAUSE = 0x0001;
    /// The number of classes (priorities).
    static constexpr uint8_t CLASSES = 8;
    /// Bytes of the header on the wire (opcode, vector, eight times).
    static constexpr uint32_t SIZE = 20;
    /// Bit times per quantum of pause time.
    static constexpr uint32_t BITS_PER_QUANTUM = 512;
    /// The largest pause time, in quanta.
    static constexpr uint16_t MAX_QUANTA = 0xFFFF;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    /// Opcode 0x0101, no class enabled, every time zero.
    PfcHeader();

    /// Prints "MAC Control, Opcode: ..., CBFC Class Enable Vector: ..., CBFC Class Pause Times:
    /// ...", in Wireshark's words. \param os the stream
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * Reads the 20 bytes; fewer than that left in the buffer make the header
     * not well formed (and the missing fields zero).
     * \param start where the header begins
     * \return the bytes read
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \param opcode the MAC Control opcode (OPCODE_PFC for a PFC frame)
    void SetOpcode(uint16_t opcode);
    /// \return the MAC Control opcode
    uint16_t GetOpcode() const;
    /// \param vector the whole class-enable vector (bits 8-15 must stay zero to be well formed)
    void SetClassEnableVector(uint16_t vector);
    /// \return the whole class-enable vector
    uint16_t GetClassEnableVector() const;
    /**
     * Enables a class and sets its pause time.
     * \param cls the class, 0 to 7
     * \param quanta its pause time, in quanta of 512 bit times (0: resume)
     */
    void SetPause(uint8_t cls, uint16_t quanta);
    /// \param cls the class, 0 to 7 \return true if its enable bit is set
    bool IsClassEnabled(uint8_t cls) const;
    /// \param cls the class, 0 to 7 \param quanta its time field (the enable bit unchanged)
    void SetQuanta(uint8_t cls, uint16_t quanta);
    /// \param cls the class, 0 to 7 \return its time field, in quanta
    uint16_t GetQuanta(uint8_t cls) const;

    /**
     * \return true if a receiver may act on the frame: the PFC opcode, bits
     *         8-15 of the vector zero, and 20 bytes read
     */
    bool IsWellFormed() const;

    /// \return 01:80:C2:00:00:01, the destination of every PFC frame
    static Mac48Address GetPfcDestination();
    /// \param address a destination \return true if it is 01:80:C2:00:00:01
    static bool IsPfcDestination(const Mac48Address& address);

    /**
     * The time \p quanta x 512 bit times last at a rate, rounded up to the
     * next nanosecond (a pause never ends early).
     * \param quanta a pause time, in quanta
     * \param rate the line rate
     * \return the time
     */
    static Time QuantaToTime(uint16_t quanta, DataRate rate);
    /**
     * The fewest quanta that last at least \p time at a rate, at most MAX_QUANTA.
     * \param time a duration (negative counts as zero)
     * \param rate the line rate
     * \return the quanta
     */
    static uint16_t TimeToQuanta(Time time, DataRate rate);

  private:
    uint16_t m_opcode;                      //!< MAC Control opcode
    uint16_t m_vector;                      //!< class-enable vector
    std::array<uint16_t, CLASSES> m_quanta; //!< pause time per class
    bool m_complete;                        //!< all 20 bytes were read (or set locally)
};

} // namespace ns3

#endif /* PFC_HEADER_H */
