/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MAC_ADDRESS_HASH_H
#define MAC_ADDRESS_HASH_H

#include "ns3/mac48-address.h"

#include <cstdint>
#include <functional>
#include <utility>

namespace ns3
{

/**
 * \ingroup drp
 * \brief Hashes of MAC addresses, and of a MAC address with a 16-bit
 * number, for std::unordered_map.
 *
 * The tables a frame's path looks up (a responder's connections by
 * initiator and TID, the last time a peer was heard) were std::maps keyed by
 * Mac48Address, whose operator< compares with memcmp: a dozen calls per
 * lookup once a host holds hundreds of records. A hash of the address's 48
 * bits finds them in one probe. Only tables whose order nothing reads use
 * it: a std::map's order is part of a run's result wherever it is iterated.
 */
struct MacAddressHash
{
    /**
     * \param address a MAC address
     * \return its 48 bits as an integer, the most significant byte first
     */
    static uint64_t GetKey(Mac48Address address)
    {
        uint8_t mac[6];
        address.CopyTo(mac);
        uint64_t key = 0;
        for (uint8_t byte : mac)
        {
            key = (key << 8) | byte;
        }
        return key;
    }

    /**
     * \param address a MAC address
     * \return its hash
     */
    size_t operator()(Mac48Address address) const
    {
        return std::hash<uint64_t>()(GetKey(address));
    }

    /**
     * \param key a MAC address and a number (a TID, a port)
     * \return its hash
     */
    size_t operator()(const std::pair<Mac48Address, uint16_t>& key) const
    {
        return std::hash<uint64_t>()((GetKey(key.first) << 16) | key.second);
    }
};

} // namespace ns3

#endif /* MAC_ADDRESS_HASH_H */
