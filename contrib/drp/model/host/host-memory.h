/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HOST_MEMORY_H
#define HOST_MEMORY_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <boost/icl/interval_map.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A host's memory: a byte store over a 64-bit address space, and the
 * regions its operating system has registered (pinned) for RDMA.
 *
 * Memory is kept in 4 KiB pages allocated on first write. A byte that was
 * never written reads as a fixed pseudo-random function of its address and
 * the memory's Seed: memory that "holds other data", so that a read transfer
 * moves non-trivial bytes that a test can compare. Reading allocates nothing,
 * and Fill() only notes the generator for the whole pages it covers: their
 * bytes are computed when read, and a page is allocated only when written,
 * so that a source buffer being sent takes no memory. A page written in
 * order up to its last byte whose bytes turn out to be such a stream (a
 * filled buffer that a transfer delivered) is noted the same way and its
 * bytes freed, so that a destination buffer takes a page only while it is
 * being written.
 *
 * Registration is counted per byte, so overlapping registrations of the same
 * region (two transfers into one buffer) nest: a byte stays registered until
 * every registration covering it is released.
 *
 * Regions are right-open ranges [address, address + length) that must not
 * pass the end of the 64-bit address space (IsValidRegion): every range test
 * here is written so that no sum can wrap around to low addresses.
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
     * TracedCallback signature for registrations.
     * \param address first byte
     * \param length bytes
     * \param registered true: registered; false: one registration released
     */
    typedef void (*RegistrationTracedCallback)(uint64_t address, uint32_t length, bool registered);
    /**
     * TracedCallback signature for writes.
     * \param address first byte
     * \param length bytes
     */
    typedef void (*WriteTracedCallback)(uint64_t address, uint32_t length);

    /**
     * \param address first byte
     * \param length bytes
     * \return true if [address, address + length) is not empty and ends at
     *         or before the last byte of the 64-bit address space
     */
    static bool IsValidRegion(uint64_t address, uint64_t length);
    /**
     * Overflow-safe containment of one range in another.
     * \param address first byte of the inner range
     * \param length its bytes
     * \param base first byte of the outer range
     * \param baseLength its bytes
     * \return true if [address, address + length) is not empty and lies in
     *         [base, base + baseLength), computed without any sum that could wrap
     */
    static bool IsWithin(uint64_t address, uint64_t length, uint64_t base, uint64_t baseLength);
    /**
     * Throws std::invalid_argument unless IsValidRegion(address, length).
     * \param what the operation, for the message
     * \param address first byte
     * \param length bytes
     */
    static void RequireValidRegion(const std::string& what, uint64_t address, uint64_t length);
    /**
     * The pages a region touches: a region that starts or ends inside a page
     * counts that whole page, as the operating system pins whole pages.
     * \param address first byte
     * \param length bytes
     * \return the number of PAGE_SIZE pages, aligned, that [address, address
     *         + length) touches (0 for an empty region; a region past the
     *         end of the address space counts up to the last page)
     */
    static uint64_t CountPages(uint64_t address, uint64_t length);
    /**
     * The host's time to register (pin) a region: a fixed part plus a part
     * per page it touches (CountPages), the cost model every registration
     * in the module uses (RdmaHostApplication's per transfer, RdmaContext's
     * RegMr and the DRP responder's per-transfer registration for verbs).
     * \param fixed the fixed part (at most 10 s)
     * \param perPage the time per page (at most 1 ms)
     * \param address first byte
     * \param length bytes
     * \return fixed + perPage x pages
     */
    static Time GetRegistrationTime(Time fixed, Time perPage, uint64_t address, uint64_t length);

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
     * Forgets the bytes of the pages that lie wholly in a range: they read as
     * untouched memory again (the background pattern) and take no memory
     * until written. A long simulation forgets the buffers of ended transfers
     * so that its memory stays bounded (RdmaHostApplication::ForgetData).
     * \param address first byte
     * \param length how many
     */
    void Forget(uint64_t address, uint64_t length);
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
     * Registers (pins) [address, address + length). Throws
     * std::invalid_argument unless IsValidRegion(address, length).
     * \param address first byte
     * \param length bytes, at least 1
     */
    void Register(uint64_t address, uint32_t length);
    /**
     * Releases one registration of [address, address + length) (nothing
     * for a range that is not a valid region).
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
    /// Registration count per byte: the registered regions, as ranges.
    typedef boost::icl::interval_map<uint64_t, uint32_t> Registrations;
    /// \return the registered regions now
    const Registrations& GetRegistrations() const;
    /**
     * \param registrations registered regions (a HostMemory's, or a copy)
     * \param address first byte
     * \param length bytes
     * \return true if every byte of [address, address + length) is in
     *         \p registrations; false for a range that is not a valid region
     */
    static bool Covers(const Registrations& registrations, uint64_t address, uint64_t length);
    /// \return the number of bytes registered now
    uint64_t GetRegisteredBytes() const;
    /// \return the number of pages allocated so far
    size_t GetPageCount() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * One page of the store. Its bytes from \c valid on are still those it
     * read as before it was allocated (the generator stream from \c state):
     * a page written in order from its start, as a transfer's data lands,
     * never computes the bytes that its writes replace.
     */
    struct Page
    {
        /// \param start generator state of the page's first byte
        explicit Page(uint64_t start);
        /// \return the page's bytes (all of them valid only after Complete())
        uint8_t* data();
        /// \return the page's bytes
        const uint8_t* data() const;
        /**
         * Computes the bytes [valid, end) not yet held.
         * \param end past the last byte wanted (at most PAGE_SIZE)
         */
        void Complete(uint32_t end);
        /**
         * Copies bytes out, computing those not yet held.
         * \param offset first byte
         * \param out where to copy
         * \param length how many
         */
        void CopyOut(uint32_t offset, uint8_t* out, uint32_t length) const;

        std::unique_ptr<uint8_t[]> bytes; //!< PAGE_SIZE bytes, [0, valid) held
        uint32_t valid;                   //!< bytes held from the start
        uint64_t state;                   //!< generator state of byte 0
    };

    /// Whole pages filled by Fill() and not allocated: pages [first, end).
    struct Filled
    {
        uint64_t end;   //!< past the last page
        uint64_t state; //!< generator state at the start of the first page
    };

    /**
     * \param number page number (address / PAGE_SIZE)
     * \return the page, allocated on first touch (its bytes computed as
     *         they are needed: Page::Complete())
     */
    Page& Touch(uint64_t number);
    /**
     * \param number a page that is not allocated
     * \return the generator state its bytes start from: of the Fill() that
     *         covered it, else of the background pattern
     */
    uint64_t GetPageState(uint64_t number) const;
    /**
     * Frees a page whose bytes are a generator stream, noting its state as
     * Fill() does (joined to the runs before and after it that it
     * continues); leaves any other page as it is.
     * \param number page number
     * \param page its bytes
     */
    void Compact(uint64_t number, const Page& page);
    /**
     * Forgets what Fill() noted for pages [first, end).
     * \param first first page
     * \param end past the last page
     */
    void Unfill(uint64_t first, uint64_t end);

    uint32_t m_seed;                                             //!< seed of the background pattern
    std::unordered_map<uint64_t, std::unique_ptr<Page>> m_pages; //!< allocated pages
    std::map<uint64_t, Filled> m_filled; //!< filled runs of unallocated pages, by first page
    Registrations m_registered;          //!< registration count per byte
    TracedCallback<uint64_t, uint32_t, bool> m_registrationTrace; //!< registrations
    TracedCallback<uint64_t, uint32_t> m_writeTrace;              //!< writes
};

} // namespace ns3

#endif /* HOST_MEMORY_H */
