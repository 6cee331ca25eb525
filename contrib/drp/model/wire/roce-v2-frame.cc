/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-v2-frame.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/udp-header.h"

#include <boost/crc.hpp>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceV2Frame");

namespace
{
constexpr uint8_t UDP_PROTOCOL = 17;
constexpr uint32_t IPV4_SIZE = 20;
constexpr uint32_t UDP_SIZE = 8;
constexpr uint32_t BTH_FECN_BYTE = IPV4_SIZE + UDP_SIZE + 4;

/// The four bytes of an ICRC, least significant first.
void
WriteIcrc(uint8_t* bytes, uint32_t icrc)
{
    for (uint32_t k = 0; k < RoceV2Frame::ICRC_SIZE; ++k)
    {
        bytes[k] = (icrc >> (8 * k)) & 0xff;
    }
}

uint32_t
ReadIcrc(const uint8_t* bytes)
{
    uint32_t icrc = 0;
    for (uint32_t k = 0; k < RoceV2Frame::ICRC_SIZE; ++k)
    {
        icrc |= uint32_t(bytes[k]) << (8 * k);
    }
    return icrc;
}
} // namespace

uint32_t
RoceV2Frame::ComputeIcrc(Ptr<const Packet> packet)
{
    uint32_t size = packet->GetSize();
    NS_ASSERT_MSG(size >= IPV4_SIZE + UDP_SIZE + 12 + ICRC_SIZE, "not a RoCEv2 packet");
    std::vector<uint8_t> bytes(8 + size - ICRC_SIZE, 0xff);
    uint8_t* ip = bytes.data() + 8;
    packet->CopyData(ip, size - ICRC_SIZE);
    ip[1] = 0xff;             // TOS (DSCP and ECN)
    ip[8] = 0xff;             // TTL
    ip[10] = ip[11] = 0xff;   // header checksum
    ip[IPV4_SIZE + 6] = 0xff; // UDP checksum
    ip[IPV4_SIZE + 7] = 0xff;
    ip[BTH_FECN_BYTE] = 0xff; // FECN, BECN, reserved
    boost::crc_32_type crc;
    crc.process_bytes(bytes.data(), bytes.size());
    return crc.checksum();
}

void
RoceV2Frame::Encapsulate(Ptr<Packet> packet, const Addressing& addressing)
{
    UdpHeader udp;
    udp.SetSourcePort(addressing.sourcePort);
    udp.SetDestinationPort(UDP_PORT);
    Ipv4Header ip;
    ip.SetSource(addressing.source);
    ip.SetDestination(addressing.destination);
    ip.SetProtocol(UDP_PROTOCOL);
    ip.SetPayloadSize(packet->GetSize() + UDP_SIZE + ICRC_SIZE);
    ip.SetTtl(addressing.ttl);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(addressing.dscp & 0x3f));
    ip.SetEcn(addressing.ecn);
    ip.SetDontFragment();
    ip.EnableChecksum();

    // The ICRC covers the headers, so they are laid out once to compute it.
    uint8_t icrc[ICRC_SIZE] = {0, 0, 0, 0};
    Ptr<Packet> draft = packet->Copy();
    draft->AddAtEnd(Create<Packet>(icrc, ICRC_SIZE));
    draft->AddHeader(udp);
    draft->AddHeader(ip);
    WriteIcrc(icrc, ComputeIcrc(draft));

    packet->AddAtEnd(Create<Packet>(icrc, ICRC_SIZE));
    packet->AddHeader(udp);
    packet->AddHeader(ip);
}

bool
RoceV2Frame::IsRoceV2(Ptr<const Packet> packet)
{
    if (packet->GetSize() < IPV4_SIZE + UDP_SIZE)
    {
        return false;
    }
    uint8_t head[IPV4_SIZE + UDP_SIZE];
    packet->CopyData(head, sizeof(head));
    uint32_t ihl = (head[0] & 0x0f) * 4;
    return (head[0] >> 4) == 4 && ihl == IPV4_SIZE && head[9] == UDP_PROTOCOL &&
           ((uint16_t(head[ihl + 2]) << 8) | head[ihl + 3]) == UDP_PORT;
}

uint32_t
RoceV2Frame::PeekDestQp(Ptr<const Packet> packet)
{
    uint8_t head[IPV4_SIZE + UDP_SIZE + 8];
    if (packet->CopyData(head, sizeof(head)) != sizeof(head))
    {
        return 0;
    }
    const uint8_t* qp = head + IPV4_SIZE + UDP_SIZE + 5;
    return (uint32_t(qp[0]) << 16) | (uint32_t(qp[1]) << 8) | qp[2];
}

bool
RoceV2Frame::Decapsulate(Ptr<Packet> packet, Ipv4Header& ip)
{
    if (!IsRoceV2(packet) || packet->GetSize() < IPV4_SIZE + UDP_SIZE + 12 + ICRC_SIZE)
    {
        return false;
    }
    Ipv4Header header;
    header.EnableChecksum();
    packet->PeekHeader(header);
    const uint32_t total = header.GetPayloadSize() + IPV4_SIZE;
    if (!header.IsChecksumOk() || total > packet->GetSize() ||
        total < IPV4_SIZE + UDP_SIZE + 12 + ICRC_SIZE)
    {
        return false;
    }
    if (total < packet->GetSize())
    {
        packet->RemoveAtEnd(packet->GetSize() - total); // Ethernet's padding, as IPv4 trims it
    }
    uint8_t tail[ICRC_SIZE];
    Ptr<Packet> end = packet->CreateFragment(packet->GetSize() - ICRC_SIZE, ICRC_SIZE);
    end->CopyData(tail, ICRC_SIZE);
    if (ReadIcrc(tail) != ComputeIcrc(packet))
    {
        NS_LOG_LOGIC("ICRC mismatch");
        return false;
    }
    packet->RemoveHeader(ip);
    UdpHeader udp;
    packet->RemoveHeader(udp);
    packet->RemoveAtEnd(ICRC_SIZE);
    return true;
}

} // namespace ns3
