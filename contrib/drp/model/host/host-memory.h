/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HOST_MEMORY_H
#define HOST_MEMORY_H

#include "ns3/object.h"

#include <boost/icl/interval_map.hpp>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A host's memory: a byte store over a 64-bit address space, and the
 * regions its operating system has registered (pinned) for RDMA.
 *
 * Memory is kept in 4 KiB pages allocated on first touch. A byte that was
 * never written reads as a fixed pseudo-random function of its address and
 * the memory's Seed: memory that "holds other data", so that a read transfer
 * moves non-trivial bytes that a test can compare.
 *
 * Registration is counted per byte, so overlapping registrations of the same
 * region (two transfers into one buffer) nest: a byte stays registered until
 * every registration covering it is released.
 *
 * Aggregate one HostMemory to each host Node; the RNIC reaches it through its
 * PcieLink (DMA), the host application directly.
 */
class HostMemory : public Object
{
  public:
    /// Page size of the store, in bytes.
    static constexpr uint32_t PAGE_SIZE = 4096;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    HostMemory();

    /**
     * Writes bytes.
     * \param address first byte
     * \param data the bytes
     * \param length how many
     */
    void Write(uint64_t address, const uint8_t* data, uint32_t length);
    /**
     * Reads bytes.
     * \param address first byte
     * \param data where to copy them
     * \param length how many
     */
    void Read(uint64_t address, uint8_t* data, uint32_t length) const;
    /**
     * Fills a range with bytes of a fast generator seeded with \p seed.
     * \param address first byte
     * \param length how many
     * \param seed generator seed (draw it from an ns-3 random stream)
     */
    void Fill(uint64_t address, uint32_t length, uint64_t seed);
    /**
     * Compares a range of this memory with a range of another.
     * \param address first byte here
     * \param other the other memory (may be this one)
     * \param otherAddress first byte there
     * \param length how many bytes
     * \return the number of bytes that differ (0: identical)
     */
    uint64_t CountDifferences(uint64_t address,
                              Ptr<const HostMemory> other,
                              uint64_t otherAddress,
                              uint32_t length) const;

    /**
     * Registers (pins) [address, address + length).
     * \param address first byte
     * \param length bytes, at least 1
     */
    void Register(uint64_t address, uint32_t length);
    /**
     * Releases one registration of [address, address + length).
     * \param address first byte
     * \param length bytes
     */
    void Deregister(uint64_t address, uint32_t length);
    /**
     * \param address first byte
     * \param length bytes
     * \return true if every byte of [address, address + length) is registered
     */
    bool IsRegistered(uint64_t address, uint32_t length) const;
    /// \return the number of bytes registered now
    uint64_t GetRegisteredBytes() const;
    /// \return the number of pages allocated so far
    size_t GetPageCount() const;

  protected:
    void DoDispose() override;

  private:
    /// One page of the store.
    using Page = std::vector<uint8_t>;
    /**
     * \param number page number (address / PAGE_SIZE)
     * \return the page, allocated and filled with the background pattern on first touch
     */
    Page& Touch(uint64_t number) const;

    uint32_t m_seed; //!< seed of the background pattern of untouched memory
    mutable std::unordered_map<uint64_t, std::unique_ptr<Page>> m_pages; //!< allocated pages
    boost::icl::interval_map<uint64_t, uint32_t> m_registered; //!< registration count per byte
};

} // namespace ns3

#endif /* HOST_MEMORY_H */
