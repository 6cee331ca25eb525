/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-memory.h"

#include "ns3/drp-check.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostMemory");

NS_OBJECT_ENSURE_REGISTERED(HostMemory);

namespace
{
/**
 * SplitMix64: a small, fast, well-mixed generator for bulk content. Seeds
 * come from ns-3 random streams, so runs stay reproducible and independent.
 * \param state generator state, advanced
 * \return the next 64 random bits
 */
uint64_t
SplitMix64(uint64_t& state)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/**
 * Fills bytes from a SplitMix64 state.
 * \param data first byte
 * \param length how many
 * \param state generator state
 */
void
FillRandom(uint8_t* data, uint32_t length, uint64_t& state)
{
    // A local copy: the bytes written could alias the caller's state, which
    // would make the compiler load and store it once per word.
    uint64_t s = state;
    uint32_t i = 0;
    for (; i + 8 <= length; i += 8)
    {
        uint64_t word = SplitMix64(s);
        std::memcpy(data + i, &word, 8); // a fixed size: one store
    }
    if (i < length)
    {
        uint64_t word = SplitMix64(s);
        std::memcpy(data + i, &word, length - i);
    }
    state = s;
}

/// What SplitMix64 adds to its state per word.
constexpr uint64_t SPLITMIX64_STEP = 0x9E3779B97F4A7C15ULL;
/// Generator words per page.
constexpr uint64_t WORDS_PER_PAGE = HostMemory::PAGE_SIZE / 8;

/**
 * Bytes [offset, offset + length) of what FillRandom writes from \p state,
 * computed without the bytes before them: word w of the stream is SplitMix64
 * of state + w * SPLITMIX64_STEP.
 * \param state generator state at byte 0
 * \param offset first byte wanted
 * \param data where to write them
 * \param length how many
 */
void
GenerateBytes(uint64_t state, uint32_t offset, uint8_t* data, uint32_t length)
{
    state += (offset / 8) * SPLITMIX64_STEP;
    uint32_t skip = offset % 8;
    if (skip == 0)
    {
        FillRandom(data, length, state); // aligned: whole words, as Fill wrote them
        return;
    }
    while (length > 0)
    {
        const uint64_t word = SplitMix64(state);
        const uint32_t n = std::min(8 - skip, length);
        std::memcpy(data, reinterpret_cast<const uint8_t*>(&word) + skip, n);
        data += n;
        length -= n;
        skip = 0;
    }
}

/**
 * Multiplicative inverse modulo 2^64 of an odd number (Newton's iteration:
 * each step doubles the correct low bits).
 * \param a odd multiplier
 * \return x with a * x = 1 modulo 2^64
 */
constexpr uint64_t
InverseModulo64(uint64_t a)
{
    uint64_t x = a; // correct to 3 bits for odd a
    for (int i = 0; i < 5; ++i)
    {
        x *= 2 - a * x;
    }
    return x;
}

/**
 * The SplitMix64 state that yields \p word as its next output: SplitMix64's
 * mixing is a bijection, so a stream's first word names its state.
 * \param word an output of SplitMix64
 * \return the state before the call that returned it
 */
uint64_t
SplitMix64StateOf(uint64_t word)
{
    constexpr uint64_t inverse1 = InverseModulo64(0xBF58476D1CE4E5B9ULL);
    constexpr uint64_t inverse2 = InverseModulo64(0x94D049BB133111EBULL);
    uint64_t z = word ^ (word >> 31) ^ (word >> 62);
    z *= inverse2;
    z ^= (z >> 27) ^ (z >> 54);
    z *= inverse1;
    z ^= (z >> 30) ^ (z >> 60);
    return z - SPLITMIX64_STEP;
}

/// Right-open interval of addresses.
using Range = boost::icl::discrete_interval<uint64_t>;

} // namespace

TypeId
HostMemory::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostMemory")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<HostMemory>()
            .AddAttribute("Seed",
                          "Seed of the pseudo-random content that never-written bytes read as.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&HostMemory::m_seed),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Registration",
                            "A region was registered (true) or one registration of it released "
                            "(false).",
                            MakeTraceSourceAccessor(&HostMemory::m_registrationTrace),
                            "ns3::HostMemory::RegistrationTracedCallback")
            .AddTraceSource("Write",
                            "Bytes were written (Write(): a DMA write landing, or the host's): "
                            "what a CPU polling the memory would see change.",
                            MakeTraceSourceAccessor(&HostMemory::m_writeTrace),
                            "ns3::HostMemory::WriteTracedCallback");
    return tid;
}

HostMemory::HostMemory()
    : m_seed(1)
{
    NS_LOG_FUNCTION(this);
}

void
HostMemory::DoDispose()
{
    m_pages.clear();
    m_filled.clear();
    m_registered.clear();
    Object::DoDispose();
}

HostMemory::Page::Page(uint64_t start)
    : bytes(new uint8_t[PAGE_SIZE]),
      valid(0),
      state(start)
{
}

uint8_t*
HostMemory::Page::data()
{
    return bytes.get();
}

const uint8_t*
HostMemory::Page::data() const
{
    return bytes.get();
}

void
HostMemory::Page::Complete(uint32_t end)
{
    if (end > valid)
    {
        GenerateBytes(state, valid, bytes.get() + valid, end - valid);
        valid = end;
    }
}

void
HostMemory::Page::CopyOut(uint32_t offset, uint8_t* out, uint32_t length) const
{
    const uint32_t held = offset < valid ? std::min(length, valid - offset) : 0;
    std::memcpy(out, bytes.get() + offset, held);
    if (held < length)
    {
        GenerateBytes(state, offset + held, out + held, length - held);
    }
}

HostMemory::Page&
HostMemory::Touch(uint64_t number)
{
    auto& slot = m_pages[number];
    if (!slot)
    {
        slot = std::make_unique<Page>(GetPageState(number));
    }
    return *slot;
}

uint64_t
HostMemory::GetPageState(uint64_t number) const
{
    auto run = m_filled.upper_bound(number);
    if (run != m_filled.begin() && number < std::prev(run)->second.end)
    {
        --run;
        return run->second.state + (number - run->first) * WORDS_PER_PAGE * SPLITMIX64_STEP;
    }
    return (uint64_t(m_seed) << 40) ^ number;
}

void
HostMemory::Unfill(uint64_t first, uint64_t end)
{
    auto run = m_filled.upper_bound(first);
    if (run != m_filled.begin() && std::prev(run)->second.end > first)
    {
        --run;
    }
    while (run != m_filled.end() && run->first < end)
    {
        const uint64_t start = run->first;
        const Filled filled = run->second;
        run = m_filled.erase(run);
        if (start < first)
        {
            m_filled[start] = Filled{first, filled.state};
        }
        if (filled.end > end)
        {
            m_filled[end] =
                Filled{filled.end, filled.state + (end - start) * WORDS_PER_PAGE * SPLITMIX64_STEP};
        }
    }
}

void
HostMemory::Compact(uint64_t number, const Page& page)
{
    // A page that holds a generator stream (a Fill()ed buffer delivered by
    // a transfer, page by page) is noted like a Fill(): its first word names
    // the state, and the other words must follow from it.
    const uint8_t* data = page.data(); // once: the loop reads 512 words
    uint64_t word;
    std::memcpy(&word, data, 8);
    const uint64_t start = SplitMix64StateOf(word);
    uint64_t state = start;
    for (uint32_t i = 0; i < PAGE_SIZE; i += 8)
    {
        std::memcpy(&word, data + i, 8);
        if (word != SplitMix64(state))
        {
            return;
        }
    }
    m_pages.erase(number); // page is gone from here on
    Unfill(number, number + 1);
    auto next = m_filled.find(number + 1);
    uint64_t end = number + 1;
    if (next != m_filled.end() && next->second.state == state)
    {
        end = next->second.end; // the run after it continues the stream
        m_filled.erase(next);
    }
    auto run = m_filled.lower_bound(number);
    if (run != m_filled.begin())
    {
        auto previous = std::prev(run);
        const uint64_t pages = number - previous->first;
        if (previous->second.end == number &&
            previous->second.state + pages * WORDS_PER_PAGE * SPLITMIX64_STEP == start)
        {
            previous->second.end = end; // it continues the stream before it
            return;
        }
    }
    m_filled[number] = Filled{end, start};
}

void
HostMemory::Write(uint64_t address, const uint8_t* data, uint32_t length)
{
    NS_LOG_FUNCTION(this << address << length);
    const uint64_t first = address;
    const uint32_t bytes = length;
    while (length > 0)
    {
        uint32_t offset = address % PAGE_SIZE;
        uint32_t chunk = std::min(length, PAGE_SIZE - offset);
        const uint64_t number = address / PAGE_SIZE;
        Page& page = Touch(number);
        page.Complete(offset); // the bytes before the write, if not held yet
        std::memcpy(page.data() + offset, data, chunk);
        page.valid = std::max(page.valid, offset + chunk);
        if (offset + chunk == PAGE_SIZE)
        {
            Compact(number, page); // the last piece of a page written in order
        }
        address += chunk;
        data += chunk;
        length -= chunk;
    }
    m_writeTrace(first, bytes);
}

void
HostMemory::Read(uint64_t address, uint8_t* data, uint32_t length) const
{
    NS_LOG_FUNCTION(this << address << length);
    while (length > 0)
    {
        uint32_t offset = address % PAGE_SIZE;
        uint32_t chunk = std::min(length, PAGE_SIZE - offset);
        const uint64_t number = address / PAGE_SIZE;
        auto page = m_pages.find(number);
        if (page != m_pages.end())
        {
            page->second->CopyOut(offset, data, chunk);
        }
        else
        {
            // Never written: computed, not allocated (a source being sent takes no memory).
            GenerateBytes(GetPageState(number), offset, data, chunk);
        }
        address += chunk;
        data += chunk;
        length -= chunk;
    }
}

void
HostMemory::Fill(uint64_t address, uint32_t length, uint64_t seed)
{
    NS_LOG_FUNCTION(this << address << length << seed);
    // One stream of bytes across the pages. Partly covered pages get their
    // bytes now; for the whole pages between them only the generator state
    // is noted (m_filled), and their bytes are computed when read.
    uint64_t state = seed;
    uint64_t first = 0; // first whole page
    uint64_t end = 0;   // past the last whole page
    uint64_t firstState = 0;
    while (length > 0)
    {
        uint32_t offset = address % PAGE_SIZE;
        uint32_t chunk = std::min(length, PAGE_SIZE - offset);
        const uint64_t number = address / PAGE_SIZE;
        if (chunk == PAGE_SIZE)
        {
            if (first == end)
            {
                first = number;
                firstState = state;
            }
            end = number + 1;
            m_pages.erase(number);
            state += WORDS_PER_PAGE * SPLITMIX64_STEP; // as FillRandom would advance it
        }
        else
        {
            Page& page = Touch(number);
            page.Complete(offset);
            FillRandom(page.data() + offset, chunk, state);
            page.valid = std::max(page.valid, offset + chunk);
        }
        address += chunk;
        length -= chunk;
    }
    if (first != end)
    {
        Unfill(first, end);
        m_filled[first] = Filled{end, firstState};
    }
}

void
HostMemory::Forget(uint64_t address, uint64_t length)
{
    NS_LOG_FUNCTION(this << address << length);
    if (!IsValidRegion(address, length))
    {
        return;
    }
    const uint64_t first = address / PAGE_SIZE + (address % PAGE_SIZE != 0); // first whole page
    const uint64_t end = (address + length) / PAGE_SIZE; // past the last whole page
    for (uint64_t page = first; page < end; ++page)
    {
        m_pages.erase(page);
    }
    if (first < end)
    {
        Unfill(first, end);
    }
}

uint64_t
HostMemory::CountDifferences(uint64_t address,
                             Ptr<const HostMemory> other,
                             uint64_t otherAddress,
                             uint32_t length) const
{
    // A page at a time: comparing a transfer of any size costs two pages of
    // scratch space, not two copies of the transfer.
    std::vector<uint8_t> mine(std::min(length, PAGE_SIZE));
    std::vector<uint8_t> theirs(mine.size());
    uint64_t differences = 0;
    while (length > 0)
    {
        uint32_t chunk = std::min(length, PAGE_SIZE);
        Read(address, mine.data(), chunk);
        other->Read(otherAddress, theirs.data(), chunk);
        for (uint32_t i = 0; i < chunk; ++i)
        {
            differences += (mine[i] != theirs[i]);
        }
        address += chunk;
        otherAddress += chunk;
        length -= chunk;
    }
    return differences;
}

bool
HostMemory::IsValidRegion(uint64_t address, uint64_t length)
{
    // [address, address + length) must be representable: the end may not
    // pass (or reach) 2^64, where 64-bit arithmetic would wrap to low addresses.
    return length > 0 && length <= UINT64_MAX - address;
}

uint64_t
HostMemory::CountPages(uint64_t address, uint64_t length)
{
    if (length == 0)
    {
        return 0;
    }
    // The last byte, without a sum that could wrap.
    uint64_t last = length - 1 > UINT64_MAX - address ? UINT64_MAX : address + (length - 1);
    return last / PAGE_SIZE - address / PAGE_SIZE + 1;
}

Time
HostMemory::GetRegistrationTime(Time fixed, Time perPage, uint64_t address, uint64_t length)
{
    // Registrations are below 4 GiB: at most 2^20 + 1 pages of at most 1 ms,
    // no overflow.
    const uint64_t pages = CountPages(address, length);
    return fixed + TimeStep(perPage.GetTimeStep() * int64_t(pages));
}

bool
HostMemory::IsWithin(uint64_t address, uint64_t length, uint64_t base, uint64_t baseLength)
{
    // No sum that could wrap: each difference below is known to be >= 0.
    return length > 0 && address >= base && length <= baseLength &&
           address - base <= baseLength - length;
}

void
HostMemory::RequireValidRegion(const std::string& what, uint64_t address, uint64_t length)
{
    if (!IsValidRegion(address, length))
    {
        std::ostringstream os;
        os << what << ": region of " << length << " bytes at 0x" << std::hex << address
           << " is empty or passes the end of the 64-bit address space (valid: 1 to 2^64 - 1 - "
              "address bytes)";
        throw std::invalid_argument(os.str());
    }
}

void
HostMemory::Register(uint64_t address, uint32_t length)
{
    NS_LOG_FUNCTION(this << address << length);
    RequireValidRegion("HostMemory::Register", address, length);
    m_registered += std::make_pair(Range::right_open(address, address + length), 1u);
    m_registrationTrace(address, length, true);
}

void
HostMemory::Deregister(uint64_t address, uint32_t length)
{
    NS_LOG_FUNCTION(this << address << length);
    if (IsValidRegion(address, length))
    {
        m_registered -= std::make_pair(Range::right_open(address, address + length), 1u);
        m_registrationTrace(address, length, false);
    }
}

bool
HostMemory::IsRegistered(uint64_t address, uint32_t length) const
{
    return Covers(m_registered, address, length);
}

bool
HostMemory::Covers(const Registrations& registrations, uint64_t address, uint64_t length)
{
    return IsValidRegion(address, length) &&
           boost::icl::contains(registrations, Range::right_open(address, address + length));
}

const HostMemory::Registrations&
HostMemory::GetRegistrations() const
{
    return m_registered;
}

uint64_t
HostMemory::GetRegisteredBytes() const
{
    return boost::icl::length(m_registered);
}

size_t
HostMemory::GetPageCount() const
{
    return m_pages.size();
}

} // namespace ns3
