/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RESPONDER_TABLE_H
#define RESPONDER_TABLE_H

#include "responder-connection.h"

#include "ns3/mac-address-hash.h"
#include "ns3/mac48-address.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The records of the transfers a DRP RNIC responds to, keyed by the
 * initiator's address and its TID, with the limits that bound them.
 *
 * A responder keeps a record per transfer once it admits the transfer: at
 * most a number per initiator (DrpTransport::MaxTransfersPerPeer) and a
 * number in all (MaxTransfers). A released record stays (it answers a
 * repeated REL) until its initiator has been silent for the idle time or a
 * new transfer needs its room; the table keeps the released records in the
 * order of their release, so that the oldest give way first.
 *
 * The table only keeps and finds records; what a record's end means (the
 * host told, the indirect buffer emptied, the traces) is DrpTransport's.
 */
class ResponderTable
{
  public:
    /// A record's key: the initiator and its TID.
    typedef ResponderConnection::Key Key;

    /// \param records records per initiator, at most
    void SetMaxPerPeer(uint32_t records);
    /// \param records records in all, at most
    void SetMaxTotal(uint32_t records);
    /// \return records per initiator, at most
    uint32_t GetMaxPerPeer() const;
    /// \return records in all, at most
    uint32_t GetMaxTotal() const;

    /// \param key a record's key \return the record, or null
    ResponderConnection* Find(Key key) const;
    /**
     * Adds a record (the caller admitted it).
     * \param record the record, keyed by its GetKey()
     * \return the record, now the table's
     */
    ResponderConnection& Insert(std::unique_ptr<ResponderConnection> record);
    /// \param key a record's key \return the record, taken out of the table (null: none)
    std::unique_ptr<ResponderConnection> Erase(Key key);
    /**
     * \param peer an initiator
     * \return true if a new record of \p peer would exceed either limit
     */
    bool IsFull(Mac48Address peer) const;

    /// \param key a record just released: the newest in the order of release
    void NoteReleased(Key key);
    /**
     * \param oldestOnly stop at the first released record not yet expired
     *        (a cheap pass); false looks at every one (one heard from again
     *        expires later than those behind it)
     * \return released records whose initiator has been silent for the idle time
     */
    std::vector<Key> GetExpiredReleased(bool oldestOnly);
    /**
     * The released record to forget so that \p peer may have a new one: the
     * oldest released record, or, when \p peer is at its own limit, the
     * oldest of \p peer's; it leaves the order of release.
     * \param peer the initiator whose request needs room
     * \param [out] key its key
     * \return false if no released record can give way
     */
    bool TakeReleasedToEvict(Mac48Address peer, Key& key);
    /// Drops from the order of release the records forgotten meanwhile at its head.
    void TrimReleased();

    /// \return records kept (released ones included)
    size_t GetSize() const;
    /// \return records of transfers not yet released
    size_t GetActive() const;
    /// Forgets every record.
    void Clear();

  private:
    /**
     * \param key an entry of the order of release
     * \return its record if it is still released (not forgotten, nor a new
     *         record under the same key)
     */
    ResponderConnection* FindReleased(Key key) const;

    std::unordered_map<Key, std::unique_ptr<ResponderConnection>, MacAddressHash>
        m_records;                                                        //!< by key
    std::unordered_map<Mac48Address, uint32_t, MacAddressHash> m_perPeer; //!< records per initiator
    std::deque<Key> m_releasedOrder; //!< released records, oldest first (some stale)
    uint32_t m_maxPerPeer{1024};     //!< records per initiator, at most
    uint32_t m_maxTotal{16384};      //!< records in all, at most
};

} // namespace ns3

#endif /* RESPONDER_TABLE_H */
