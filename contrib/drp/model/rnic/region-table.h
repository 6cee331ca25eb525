/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REGION_TABLE_H
#define REGION_TABLE_H

#include "ns3/host-memory.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The RNIC's memory-region table: the host memory registered for
 * RDMA, as the RNIC sees it.
 *
 * A real RNIC keeps a table of the regions its driver has registered (pinned
 * and translated) and checks every DMA it performs on a peer's behalf against
 * it, not against the addresses a frame or a request names. DrpTransport
 * does the same: every direct write, every piece of an indirect flush, every
 * read-data frame a read initiator places, and every read of a read
 * responder's memory must lie in this table, or the frame is dropped.
 *
 * The table follows its host's HostMemory: Attach() copies the regions
 * registered so far and then follows the memory's Registration trace, as a
 * driver writes the RNIC's table in the same step as it pins the pages (the
 * way ibv_reg_mr and ibv_dereg_mr do before they return). Registrations nest
 * as in HostMemory: a byte stays in the table until every registration that
 * covers it is released.
 *
 * Every test is overflow-safe: an empty range, or one that passes the end of
 * the 64-bit address space, is never contained.
 */
class RegionTable : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RegionTable();

    /**
     * Follows a host's registrations from now on (and stops following the
     * previous host's, if any).
     * \param memory the host memory behind the RNIC (null: none, an empty table)
     */
    void Attach(Ptr<HostMemory> memory);
    /**
     * \param address first byte
     * \param length bytes
     * \return true if every byte of [address, address + length) is registered;
     *         false for an empty range or one that passes 2^64 - 1
     */
    bool Contains(uint64_t address, uint64_t length) const;
    /// \return the number of bytes in the table
    uint64_t GetRegisteredBytes() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * The host registered a region or released one registration of it.
     * \param address first byte
     * \param length bytes
     * \param registered true: registered; false: released
     */
    void OnRegistration(uint64_t address, uint32_t length, bool registered);

    Ptr<HostMemory> m_memory;          //!< the host memory followed
    HostMemory::Registrations m_table; //!< registrations per byte
};

} // namespace ns3

#endif /* REGION_TABLE_H */
