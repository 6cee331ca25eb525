/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_INT_HEADER_H
#define DRP_INT_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief In-band network telemetry (INT) for HPCC: the DRP header
 * extension that follows the DRP header when its STATUS bit 1 (INT) is set.
 *
 * A sender whose congestion control needs it (HPCC, Li et al., SIGCOMM
 * 2019) sends its data frames with an empty extension; every switch port
 * with InbandTelemetry on appends one hop as the frame starts on its wire;
 * the receiver copies the extension of the latest data frame into its
 * acknowledgement, and the sender's scheme reads it there. The extension
 * has room for MAX_HOPS hops and a fixed size (42 bytes), as HPCC's: a
 * frame's size does not change along its path.
 *
 * Layout, network byte order (the field widths and units of HPCC's
 * simulator, its int-header.h):
 *
 * \verbatim
   bytes  field
   0      NHOP    hops filled (0 to 5)
   1      reserved, 0
   2-41   HOP[5]  8 bytes each, a 64-bit word:
                  bits 63-61  RATE   the port's line rate, a code of
                                     RATES (1, 10, 25, 40, 50, 100, 200,
                                     400 Gb/s)
                  bits 60-37  TIME   when the frame started on the port's
                                     wire, ns, modulo 2^24
                  bits 36-17  BYTES  bytes the port had put on the wire
                                     before the frame (preamble and gap
                                     included), in units of 128, modulo 2^20
                  bits 16-0   QLEN   bytes waiting in the port's queues as
                                     the frame left, in units of 80,
                                     at most 2^17 - 1
   \endverbatim
 *
 * TIME and BYTES wrap: a reader takes differences between two stamps of
 * the same hop modulo 2^24 ns (16.8 ms) and 2^20 x 128 bytes (134 MB), as
 * HPCC does. A hop beyond the fifth is not recorded (NHOP stays 5).
 */
class DrpIntHeader : public Header
{
  public:
    /// Hops the extension holds.
    static constexpr uint8_t MAX_HOPS = 5;
    /// Serialized size in bytes.
    static constexpr uint32_t SIZE = 2 + 8 * MAX_HOPS;
    /// Bytes per unit of BYTES.
    static constexpr uint32_t BYTES_UNIT = 128;
    /// Bytes per unit of QLEN.
    static constexpr uint32_t QLEN_UNIT = 80;
    /// Bits of TIME, BYTES and QLEN.
    static constexpr uint32_t TIME_BITS = 24;
    static constexpr uint32_t BYTES_BITS = 20; //!< bits of BYTES
    static constexpr uint32_t QLEN_BITS = 17;  //!< bits of QLEN

    /// One hop, as a switch port stamps it (decoded to whole units).
    struct Hop
    {
        uint64_t rateBps{0}; //!< the port's line rate, bit/s
        uint32_t timeNs{0};  //!< TIME: ns modulo 2^24
        uint32_t bytes{0};   //!< BYTES: units of 128 bytes modulo 2^20
        uint32_t qlen{0};    //!< QLEN: units of 80 bytes

        /// \return the queue in bytes (QLEN x 80)
        uint64_t GetQueueBytes() const;
        /**
         * \param earlier a stamp of the same hop, earlier
         * \return the time between them, ns (modulo 2^24)
         */
        uint32_t NanosecondsSince(const Hop& earlier) const;
        /**
         * \param earlier a stamp of the same hop, earlier
         * \return the bytes the port sent between them (modulo 2^20 x 128)
         */
        uint64_t BytesSince(const Hop& earlier) const;
    };

    DrpIntHeader();

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
     * \param rate a line rate
     * \return true if RATE can carry it (one of RATES)
     */
    static bool IsEncodable(DataRate rate);
    /// \return the rates RATE can carry, as text ("1Gbps, 10Gbps, ...")
    static std::string GetEncodableRatesText();

    /**
     * Appends a hop (nothing past MAX_HOPS).
     * \param rate the port's line rate (IsEncodable())
     * \param now the time the frame starts on the wire
     * \param txBytes bytes the port sent before the frame
     * \param queueBytes bytes waiting in the port's queues
     */
    void PushHop(DataRate rate, Time now, uint64_t txBytes, uint64_t queueBytes);
    /// \return hops filled
    uint8_t GetHopCount() const;
    /// \param i a hop below GetHopCount() \return it
    const Hop& GetHop(uint8_t i) const;

    /**
     * Appends a hop to a DRP data frame's extension, if it has one (the
     * stamper a switch port with InbandTelemetry uses for DRP's EtherType);
     * an acknowledgement's echo is left as it is, as HPCC's switches stamp
     * data packets only.
     * \param payload the frame's payload: the DRP header first
     * \param rate the port's line rate
     * \param now the time the frame starts on the wire
     * \param txBytes bytes the port sent before the frame
     * \param queueBytes bytes waiting in the port's queues
     * \return true if the frame carries the extension (now with the hop)
     */
    static bool Stamp(Ptr<Packet> payload,
                      DataRate rate,
                      Time now,
                      uint64_t txBytes,
                      uint64_t queueBytes);

  private:
    uint8_t m_hopCount{0};              //!< NHOP
    std::array<Hop, MAX_HOPS> m_hops{}; //!< HOP[]
};

} // namespace ns3

#endif /* DRP_INT_HEADER_H */
