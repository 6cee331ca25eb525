/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INITIATOR_TABLE_H
#define INITIATOR_TABLE_H

#include "initiator-connection.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <memory>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The transfers a DRP RNIC initiated, keyed by their transfer ids
 * (TIDs), and the allocation of those ids.
 *
 * TIDs are 1 to 65535, given in turn. The TID of a transfer that failed is
 * held back until its responder has surely forgotten the transfer (the
 * responder keeps its record, with frames it committed, until it has heard
 * nothing for its idle time): a new transfer under that TID must not meet
 * the old record.
 */
class InitiatorTable
{
  public:
    /// TIDs there are (1 to 65535; 0 is none)
    static constexpr size_t TIDS = 65535;
    /// The transfers, by TID.
    typedef std::map<uint16_t, std::unique_ptr<InitiatorConnection>> Map;

    /**
     * \return the next TID neither in use nor held back
     * \throws std::runtime_error if every TID is in use or held back
     */
    uint16_t Allocate();
    /**
     * Adds a transfer under the TID that Allocate() gave.
     * \param tid its TID
     * \param connection the transfer
     * \return the transfer, now the table's
     */
    InitiatorConnection& Insert(uint16_t tid, std::unique_ptr<InitiatorConnection> connection);
    /// \param tid a TID \return its transfer, or null
    InitiatorConnection* Find(uint16_t tid) const;
    /// \param tid a TID in use \return its transfer, taken out of the table
    std::unique_ptr<InitiatorConnection> Remove(uint16_t tid);
    /**
     * \param tid a TID no longer in use
     * \param until when it may be given again
     */
    void Hold(uint16_t tid, Time until);
    /**
     * \param count TIDs wanted
     * \return the earliest time at which that many are free (now, if they
     *         are; Time::Max() if they never will be without transfers ending)
     */
    Time GetFreeAt(uint32_t count) const;

    /// \return transfers in progress
    size_t GetSize() const;
    /// \return the transfers, by TID
    const Map& GetAll() const;
    /// Forgets every transfer.
    void Clear();

  private:
    /// \param tid a TID \return true if it is held back now (a hold that ended is forgotten)
    bool IsHeld(uint16_t tid);

    Map m_connections;               //!< transfers in progress
    std::map<uint16_t, Time> m_held; //!< failed transfers' TIDs, held until then
    uint16_t m_next{1};              //!< the next TID to try
};

} // namespace ns3

#endif /* INITIATOR_TABLE_H */
