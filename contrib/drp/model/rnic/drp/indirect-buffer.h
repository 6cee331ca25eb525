/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INDIRECT_BUFFER_H
#define INDIRECT_BUFFER_H

#include "ns3/mac48-address.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The dynamic RNIC's on-NIC indirect buffer: payloads of data frames
 * that arrived before their transfer's memory was registered.
 *
 * Payloads are kept per transfer (peer, TID) and per sequence number, with
 * the host address the frame names. Capacity counts payload bytes; a frame
 * that does not fit is refused (the RNIC then drops it unacknowledged and the
 * sender's retransmission recovers it). When the host registers the
 * transfer's region the RNIC takes all of that transfer's payloads out at
 * once and writes them to host memory in one DMA request.
 *
 * Default capacity, 48 KiB (393,216 bits), is the block-memory difference
 * between the published dynamic and traditional RNIC prototypes.
 */
class IndirectBuffer : public Object
{
  public:
    /// One buffered payload.
    struct Entry
    {
        uint32_t sequence;         //!< data frame SN
        uint64_t address;          //!< host address named by the frame
        Ptr<const Packet> payload; //!< the bytes
    };

    /// TracedCallback signature for a transfer's flush.
    typedef void (*FlushTracedCallback)(Mac48Address peer, uint16_t tid, uint32_t bytes);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    IndirectBuffer();

    /**
     * Stores a payload unless it does not fit. Storing an SN that is already
     * held for the transfer succeeds without storing it twice.
     * \param peer the sender's address
     * \param tid transfer id
     * \param sequence data frame SN
     * \param address the host address the frame names
     * \param payload the bytes
     * \return false if the buffer has no room for it
     */
    bool Store(Mac48Address peer,
               uint16_t tid,
               uint32_t sequence,
               uint64_t address,
               Ptr<const Packet> payload);
    /**
     * Removes and returns all of a transfer's payloads, in SN order.
     * \param peer the sender's address
     * \param tid transfer id
     * \return the payloads
     */
    std::vector<Entry> Take(Mac48Address peer, uint16_t tid);
    /**
     * Discards a transfer's payloads (the transfer was aborted).
     * \param peer the sender's address
     * \param tid transfer id
     */
    void Discard(Mac48Address peer, uint16_t tid);
    /// \return the capacity in bytes
    uint32_t GetCapacity() const;
    /// \return the payload bytes held now
    uint32_t GetOccupancy() const;
    /// \return the number of payloads refused for lack of room
    uint64_t GetOverflowCount() const;
    /// \return the number of payloads discarded unplaced (their transfer was abandoned)
    uint64_t GetDiscardCount() const;

  protected:
    void DoDispose() override;

  private:
    /// A transfer, as the responder knows it.
    typedef std::pair<Mac48Address, uint16_t> Key;

    /**
     * Sets the capacity, checking it.
     * \param bytes capacity
     */
    void SetCapacity(uint32_t bytes);
    /**
     * Removes a transfer's payloads.
     * \param peer the sender's address
     * \param tid transfer id
     * \return the payloads, in SN order
     */
    std::vector<Entry> Remove(Mac48Address peer, uint16_t tid);

    uint32_t m_capacity;                                           //!< capacity, bytes
    TracedValue<uint32_t> m_occupancy;                             //!< bytes held
    uint64_t m_overflows;                                          //!< refused payloads
    uint64_t m_discards;                                           //!< payloads discarded
    std::map<Key, std::map<uint32_t, Entry>> m_transfers;          //!< payloads per transfer and SN
    TracedCallback<Ptr<const Packet>> m_overflowTrace;             //!< a payload was refused
    TracedCallback<Mac48Address, uint16_t, uint32_t> m_flushTrace; //!< a transfer was taken out
};

} // namespace ns3

#endif /* INDIRECT_BUFFER_H */
