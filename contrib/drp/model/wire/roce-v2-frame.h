/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_V2_FRAME_H
#define ROCE_V2_FRAME_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class Packet;

/**
 * \ingroup drp
 * \brief RoCEv2's encapsulation (the InfiniBand Architecture
 * Specification, annex A17): an InfiniBand transport packet (BTH onwards)
 * in UDP to port 4791 in IPv4, followed by its invariant CRC.
 *
 * \verbatim
   IPv4 (20 bytes, ECN in the TOS byte) | UDP (8, checksum 0, destination
   port 4791, the source port the flow's entropy) | BTH ... payload | ICRC (4)
   \endverbatim
 *
 * The ICRC is the CRC-32 of Ethernet over eight bytes of 0xFF (the masked
 * local route header that InfiniBand would carry), the IPv4 header with its
 * TOS, TTL and checksum masked to ones, the UDP header with its checksum
 * masked, the BTH with its FECN, BECN and reserved byte masked, and the
 * rest of the packet; it is sent least significant byte first, as the
 * Linux soft-RoCE driver (rxe) and RoCE NICs do. Switches may rewrite the
 * masked fields (ECN marking, TTL) without invalidating it.
 */
class RoceV2Frame
{
  public:
    /// The UDP port IANA assigned to RoCEv2.
    static constexpr uint16_t UDP_PORT = 4791;
    /// The ICRC's bytes.
    static constexpr uint32_t ICRC_SIZE = 4;
    /// Bytes RoCEv2 adds to a transport packet: IPv4, UDP and the ICRC.
    static constexpr uint32_t OVERHEAD = 20 + 8 + ICRC_SIZE;
    /// The general services interface's queue pair (the CM's datagrams).
    static constexpr uint32_t GSI_QP = 1;

    /// The IP and UDP fields of one frame.
    struct Addressing
    {
        Ipv4Address source;                              //!< the sender's address (its GID)
        Ipv4Address destination;                         //!< the receiver's
        uint16_t sourcePort{0xc000};                     //!< the flow's entropy for ECMP
        uint8_t dscp{0};                                 //!< DSCP (6 bits)
        Ipv4Header::EcnType ecn{Ipv4Header::ECN_NotECT}; //!< ECN
        uint8_t ttl{64};                                 //!< TTL
    };

    /**
     * Wraps a transport packet (BTH onwards) into a RoCEv2 packet: appends
     * its ICRC and adds the UDP and IPv4 headers (the Ethernet header is
     * the port's).
     * \param packet the transport packet, changed in place
     * \param addressing the IP and UDP fields
     */
    static void Encapsulate(Ptr<Packet> packet, const Addressing& addressing);
    /**
     * Unwraps a RoCEv2 packet: checks that it is IPv4 carrying UDP to port
     * 4791 with a valid IP checksum and ICRC, and removes the IPv4 and UDP
     * headers and the ICRC (and the Ethernet padding after the IP packet,
     * as IPv4 trims it).
     * \param packet the IPv4 packet, changed in place (padding trimmed) even
     *        when it is refused
     * \param [out] ip its IPv4 header
     * \return true if it was a valid RoCEv2 packet (now the transport packet)
     */
    static bool Decapsulate(Ptr<Packet> packet, Ipv4Header& ip);
    /**
     * \param packet an IPv4 packet (the Ethernet payload)
     * \return true if it carries UDP to port 4791 (nothing else is checked)
     */
    static bool IsRoceV2(Ptr<const Packet> packet);
    /**
     * \param packet an IPv4 packet for which IsRoceV2() holds
     * \return its BTH's destination queue pair (0 if the packet is too short)
     */
    static uint32_t PeekDestQp(Ptr<const Packet> packet);
    /**
     * \param packet an IPv4 packet of RoCEv2 with room for its ICRC at the end
     * \return the ICRC its bytes before the last four call for, as a
     *         little-endian integer of the four bytes on the wire
     */
    static uint32_t ComputeIcrc(Ptr<const Packet> packet);
};

} // namespace ns3

#endif /* ROCE_V2_FRAME_H */
