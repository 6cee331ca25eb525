/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RNIC's and the host's parts on their own: host memory, PCIe timing,
// the indirect buffer, and the data phase's sender and receiver.

#include "ns3/data-rate.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-receiver.h"
#include "ns3/drp-sender.h"
#include "ns3/drp-tx-scheduler.h"
#include "ns3/host-memory.h"
#include "ns3/indirect-buffer.h"
#include "ns3/lazy-event-heap.h"
#include "ns3/mac-address-hash.h"
#include "ns3/pcie-link.h"
#include "ns3/random-variable-stream.h"
#include "ns3/recurring-event.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/tx-time-cache.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <sys/resource.h>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param size bytes
 * \param first value of the first byte (the others count up from it)
 * \return a packet with those bytes
 */
Ptr<Packet>
MakeBytes(uint32_t size, uint8_t first = 0)
{
    std::vector<uint8_t> bytes(size);
    std::iota(bytes.begin(), bytes.end(), first);
    return Create<Packet>(bytes.data(), size);
}

/**
 * \param memory a host memory
 * \param address first byte
 * \param length bytes
 * \return the bytes
 */
std::vector<uint8_t>
ReadBytes(Ptr<const HostMemory> memory, uint64_t address, uint32_t length)
{
    std::vector<uint8_t> bytes(length);
    memory->Read(address, bytes.data(), length);
    return bytes;
}

} // namespace

/**
 * \ingroup drp-tests
 * HostMemory: bytes, the background pattern, Fill, comparison, and nested
 * registrations.
 */
class DrpHostMemoryTestCase : public TestCase
{
  public:
    DrpHostMemoryTestCase()
        : TestCase("HostMemory: bytes, pattern, Fill, CountDifferences, registration")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostMemory> memory = CreateObject<HostMemory>();
        // Round trip across a page boundary.
        std::vector<uint8_t> data{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        uint64_t address = HostMemory::PAGE_SIZE - 5;
        memory->Write(address, data.data(), data.size());
        NS_TEST_ASSERT_MSG_EQ((ReadBytes(memory, address, data.size()) == data),
                              true,
                              "write, then read across a page boundary");
        NS_TEST_ASSERT_MSG_EQ(memory->GetPageCount(), 2, "two pages touched");

        // Untouched memory reads as the same pattern every time.
        uint64_t far = 0x123456789ULL;
        std::vector<uint8_t> first = ReadBytes(memory, far, 256);
        NS_TEST_ASSERT_MSG_EQ((ReadBytes(memory, far, 256) == first), true, "same pattern twice");
        NS_TEST_ASSERT_MSG_EQ((first != std::vector<uint8_t>(256, 0)), true, "not all zero");
        Ptr<HostMemory> twin = CreateObject<HostMemory>();
        NS_TEST_ASSERT_MSG_EQ(memory->CountDifferences(far, twin, far, 256),
                              0,
                              "same seed, same pattern");
        Ptr<HostMemory> other = CreateObject<HostMemory>();
        other->SetAttribute("Seed", UintegerValue(2));
        NS_TEST_ASSERT_MSG_GT(memory->CountDifferences(far, other, far, 256),
                              200,
                              "another seed, another pattern");

        // Fill is a function of the seed; CountDifferences counts bytes.
        memory->Fill(0x10000, 5000, 42);
        other->Fill(0x20000, 5000, 42);
        NS_TEST_ASSERT_MSG_EQ(memory->CountDifferences(0x10000, other, 0x20000, 5000),
                              0,
                              "same seed, same bytes");
        uint8_t flipped[3];
        memory->Read(0x10000 + 100, flipped, 3);
        for (auto& b : flipped)
        {
            b = ~b;
        }
        memory->Write(0x10000 + 100, flipped, 3);
        NS_TEST_ASSERT_MSG_EQ(memory->CountDifferences(0x10000, other, 0x20000, 5000),
                              3,
                              "three bytes differ");
        other->Fill(0x20000, 5000, 43);
        NS_TEST_ASSERT_MSG_GT(memory->CountDifferences(0x10000, other, 0x20000, 5000),
                              4900,
                              "another seed, other bytes");

        // Registrations nest and count per byte.
        NS_TEST_ASSERT_MSG_EQ(memory->IsRegistered(0x1000, 100), false, "nothing registered");
        memory->Register(0x1000, 100);
        memory->Register(0x1000, 100);
        NS_TEST_ASSERT_MSG_EQ(memory->IsRegistered(0x1000, 100), true, "registered");
        NS_TEST_ASSERT_MSG_EQ(memory->IsRegistered(0x1010, 10), true, "part of it");
        NS_TEST_ASSERT_MSG_EQ(memory->IsRegistered(0x1000, 101), false, "one byte beyond");
        NS_TEST_ASSERT_MSG_EQ(memory->IsRegistered(0x1000, 0), false, "an empty range");
        NS_TEST_ASSERT_MSG_EQ(memory->GetRegisteredBytes(), 100, "100 bytes registered");
        memory->Deregister(0x1000, 100);
        NS_TEST_ASSERT_MSG_EQ(memory->IsRegistered(0x1000, 100), true, "still registered once");
        memory->Register(0x1050, 100); // overlaps the second half
        memory->Deregister(0x1000, 100);
        NS_TEST_ASSERT_MSG_EQ(memory->IsRegistered(0x1000, 100), false, "first half released");
        NS_TEST_ASSERT_MSG_EQ(memory->IsRegistered(0x1050, 100), true, "overlap still held");
        NS_TEST_ASSERT_MSG_EQ(memory->GetRegisteredBytes(), 100, "100 bytes registered");
        memory->Deregister(0x1050, 100);
        NS_TEST_ASSERT_MSG_EQ(memory->GetRegisteredBytes(), 0, "nothing registered");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Comparing two large ranges costs a page of scratch space each, not a copy
 * of each range: the peak resident set hardly grows.
 */
class DrpCompareMemoryTestCase : public TestCase
{
  public:
    DrpCompareMemoryTestCase()
        : TestCase("HostMemory::CountDifferences compares page by page, copying nothing whole")
    {
    }

  private:
    /// \return the process's peak resident set, in bytes
    static uint64_t PeakRss()
    {
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        return uint64_t(usage.ru_maxrss) * 1024; // Linux reports KiB
    }

    void DoRun() override
    {
        const uint32_t size = 128u << 20; // 128 MiB in each of two memories
        Ptr<HostMemory> one = CreateObject<HostMemory>();
        Ptr<HostMemory> two = CreateObject<HostMemory>();
        one->Fill(0, size, 7);
        two->Fill(0, size, 7);
        two->Fill(size / 2, 1, 8); // one byte differs (very likely)
        uint64_t before = PeakRss();
        uint64_t differences = one->CountDifferences(0, two, 0, size);
        uint64_t growth = PeakRss() - before;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(differences, 1, "at most the one byte differs");
        NS_TEST_EXPECT_MSG_GT(one->CountDifferences(0, one, 4096, size - 4096),
                              size / 2,
                              "shifted content differs");
        // A copy of both ranges would have raised the peak by 256 MiB.
        const uint64_t allowance = 16u << 20;
        NS_TEST_EXPECT_MSG_LT(growth, allowance, "the comparison's own memory");
    }
};

/**
 * \ingroup drp-tests
 * HostMemory::Fill notes the generator for whole pages and computes their
 * bytes when read: the bytes are those of the stream written page by page
 * (each page's piece starting on a fresh word), reading allocates nothing,
 * a write into a filled page keeps its other bytes, and Forget of pages
 * inside a filled run leaves the rest of the run as it was.
 */
class DrpLazyFillTestCase : public TestCase
{
  public:
    DrpLazyFillTestCase()
        : TestCase("HostMemory: Fill's bytes are computed when read, as if written")
    {
    }

  private:
    /**
     * Fill's bytes as an explicit stream: SplitMix64 words from \p seed, the
     * piece in each page starting on a new word.
     * \param address first byte
     * \param length bytes
     * \param seed generator seed
     * \return the bytes
     */
    static std::vector<uint8_t> Expected(uint64_t address, uint32_t length, uint64_t seed)
    {
        std::vector<uint8_t> bytes;
        uint64_t state = seed;
        while (bytes.size() < length)
        {
            uint32_t chunk = std::min<uint32_t>(length - bytes.size(),
                                                HostMemory::PAGE_SIZE - (address + bytes.size()) %
                                                                            HostMemory::PAGE_SIZE);
            for (uint32_t i = 0; i < chunk; i += 8)
            {
                uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
                z ^= z >> 31;
                for (uint32_t b = 0; b < 8 && i + b < chunk; ++b)
                {
                    bytes.push_back(uint8_t(z >> (8 * b))); // little-endian, as memcpy
                }
            }
        }
        return bytes;
    }

    void DoRun() override
    {
        const uint64_t page = HostMemory::PAGE_SIZE;
        const uint64_t address = 3 * page + 1001; // starts and ends inside a page
        const uint32_t length = 9 * page + 77;
        Ptr<HostMemory> memory = CreateObject<HostMemory>();
        memory->Fill(address, length, 42);
        NS_TEST_ASSERT_MSG_EQ(memory->GetPageCount(), 2, "only the two partly filled pages");
        NS_TEST_ASSERT_MSG_EQ((ReadBytes(memory, address, length) == Expected(address, length, 42)),
                              true,
                              "the bytes of the stream");
        std::vector<uint8_t> piece = ReadBytes(memory, address + 2 * page + 13, 1500);
        std::vector<uint8_t> all = Expected(address, length, 42);
        NS_TEST_ASSERT_MSG_EQ((piece == std::vector<uint8_t>(all.begin() + 2 * page + 13,
                                                             all.begin() + 2 * page + 13 + 1500)),
                              true,
                              "a piece read at an odd offset");
        NS_TEST_ASSERT_MSG_EQ(memory->GetPageCount(), 2, "reading allocates nothing");

        // A write allocates its page with the filled bytes around it.
        uint8_t byte = ~all[5 * page];
        memory->Write(address + 5 * page, &byte, 1);
        all[5 * page] = byte;
        NS_TEST_ASSERT_MSG_EQ((ReadBytes(memory, address, length) == all),
                              true,
                              "one byte written, the others as filled");

        // Forgetting two whole pages inside the run: they read as untouched
        // memory, the pages around them as filled.
        Ptr<HostMemory> untouched = CreateObject<HostMemory>();
        const uint64_t forgotten = 7 * page;
        memory->Forget(forgotten, 2 * page);
        NS_TEST_ASSERT_MSG_EQ(memory->CountDifferences(forgotten, untouched, forgotten, 2 * page),
                              0,
                              "forgotten pages read as untouched memory");
        const uint32_t before = forgotten - address;
        const uint32_t after = forgotten + 2 * page - address;
        NS_TEST_ASSERT_MSG_EQ((ReadBytes(memory, address, before) ==
                               std::vector<uint8_t>(all.begin(), all.begin() + before)),
                              true,
                              "the run before them");
        NS_TEST_ASSERT_MSG_EQ((ReadBytes(memory, forgotten + 2 * page, length - after) ==
                               std::vector<uint8_t>(all.begin() + after, all.end())),
                              true,
                              "the run after them");

        // A second fill over part of the first replaces its bytes there only.
        memory->Fill(address + page, 3 * page, 9);
        std::vector<uint8_t> second = Expected(address + page, 3 * page, 9);
        std::copy(second.begin(), second.end(), all.begin() + page);
        NS_TEST_ASSERT_MSG_EQ((ReadBytes(memory, address, before) ==
                               std::vector<uint8_t>(all.begin(), all.begin() + before)),
                              true,
                              "the second fill over the first");
    }
};

/**
 * \ingroup drp-tests
 * HostMemory: a filled buffer copied into another memory in order, a frame's
 * worth at a time as a transfer delivers it, takes pages only while they are
 * being written and reads back byte for byte; pages written out of order,
 * or with other bytes, stay as written.
 */
class DrpCompactPagesTestCase : public TestCase
{
  public:
    DrpCompactPagesTestCase()
        : TestCase("HostMemory: delivered filled pages are noted, not kept")
    {
    }

  private:
    /**
     * Copies [from, from + length) of \p source to \p to in \p destination,
     * in pieces of \p piece bytes taken in the order \p order gives.
     * \param source memory read
     * \param from first byte there
     * \param destination memory written
     * \param to first byte there
     * \param length bytes
     * \param piece bytes per write
     * \param order piece indices, in the order written
     */
    static void Copy(Ptr<const HostMemory> source,
                     uint64_t from,
                     Ptr<HostMemory> destination,
                     uint64_t to,
                     uint32_t length,
                     uint32_t piece,
                     const std::vector<uint32_t>& order)
    {
        for (uint32_t i : order)
        {
            const uint32_t n = std::min(piece, length - i * piece);
            std::vector<uint8_t> bytes = ReadBytes(source, from + i * piece, n);
            destination->Write(to + i * piece, bytes.data(), n);
        }
    }

    void DoRun() override
    {
        const uint32_t page = HostMemory::PAGE_SIZE;
        const uint32_t length = 40 * page + 300; // the last page partly written
        const uint64_t from = 7 * page;
        const uint64_t to = 1000 * page;
        Ptr<HostMemory> source = CreateObject<HostMemory>();
        source->Fill(from, length, 1234);
        Ptr<HostMemory> destination = CreateObject<HostMemory>();
        destination->SetAttribute("Seed", UintegerValue(5));
        const uint32_t pieces = (length + 1023) / 1024;
        std::vector<uint32_t> order(pieces);
        for (uint32_t i = 0; i < pieces; ++i)
        {
            order[i] = i;
        }
        Copy(source, from, destination, to, length, 1024, order);
        NS_TEST_ASSERT_MSG_EQ(destination->GetPageCount(), 1, "only the partly written last page");
        NS_TEST_ASSERT_MSG_EQ(destination->CountDifferences(to, source, from, length),
                              0,
                              "the copy reads as the source");
        Ptr<HostMemory> untouched = CreateObject<HostMemory>();
        untouched->SetAttribute("Seed", UintegerValue(5));
        NS_TEST_ASSERT_MSG_EQ(
            destination->CountDifferences(to + length, untouched, to + length, 500),
            0,
            "the rest of the last page as before");
        NS_TEST_ASSERT_MSG_EQ(destination->CountDifferences(to - 500, untouched, to - 500, 500),
                              0,
                              "the page before as before");

        // Pages written over again, in order, by other bytes: kept.
        std::vector<uint8_t> ones(2 * page, 1);
        destination->Write(to + 3 * page, ones.data(), ones.size());
        NS_TEST_ASSERT_MSG_EQ(destination->GetPageCount(), 3, "two pages of ones kept");
        NS_TEST_ASSERT_MSG_EQ((ReadBytes(destination, to + 3 * page, 2 * page) == ones),
                              true,
                              "the ones");
        NS_TEST_ASSERT_MSG_EQ(destination->CountDifferences(to, source, from, 3 * page),
                              0,
                              "the pages before the ones");
        NS_TEST_ASSERT_MSG_EQ(destination->CountDifferences(to + 5 * page,
                                                            source,
                                                            from + 5 * page,
                                                            length - 5 * page),
                              0,
                              "the pages after the ones");
        // ... and written back with the stream: noted again.
        Copy(source, from, destination, to, 5 * page, 1024, {12, 13, 14, 15, 16, 17, 18, 19});
        NS_TEST_ASSERT_MSG_EQ(destination->GetPageCount(), 1, "the stream back in place");
        NS_TEST_ASSERT_MSG_EQ(destination->CountDifferences(to, source, from, length),
                              0,
                              "the copy reads as the source again");

        // Out of order: the page whose last piece came first stays allocated,
        // its bytes right all the same.
        Ptr<HostMemory> shuffled = CreateObject<HostMemory>();
        Copy(source, from, shuffled, to, 2 * page, 1024, {3, 0, 1, 2, 4, 5, 6, 7});
        NS_TEST_ASSERT_MSG_EQ(shuffled->GetPageCount(), 1, "the page completed out of order");
        NS_TEST_ASSERT_MSG_EQ(shuffled->CountDifferences(to, source, from, 2 * page),
                              0,
                              "its bytes");
        // Whole pages written at once, shifted against the stream's pages: by
        // whole words they are a stream still (noted), by part of a word not.
        for (uint32_t shift : {8, 3})
        {
            Ptr<HostMemory> shifted = CreateObject<HostMemory>();
            std::vector<uint8_t> bytes = ReadBytes(source, from + shift, page);
            shifted->Write(to, bytes.data(), page);
            const size_t expected = shift % 8 == 0 ? 0 : 1;
            NS_TEST_ASSERT_MSG_EQ(shifted->GetPageCount(),
                                  expected,
                                  "a page shifted by " << shift << " bytes");
            NS_TEST_ASSERT_MSG_EQ((ReadBytes(shifted, to, page) == bytes),
                                  true,
                                  "it reads back, shifted by " << shift);
        }
    }
};

/**
 * \ingroup drp-tests
 * PcieLink timing, derived from its attributes: a DMA write lands after
 * DmaSetupTime, the serialisation of its bytes with TLP overhead, and
 * Latency; requests on one engine serialise; a batch pays one DmaSetupTime;
 * doorbells and interrupts take Latency; a DMA read's data comes back after
 * a round trip.
 */
class DrpPcieTimingTestCase : public TestCase
{
  public:
    DrpPcieTimingTestCase()
        : TestCase("PcieLink: DMA, batch, doorbell and interrupt timing")
    {
    }

  private:
    /// \param bytes payload bytes \return their serialisation as TLPs, from the attributes
    Time Serialization(uint32_t bytes) const
    {
        uint32_t tlps = (bytes + m_maxPayload - 1) / m_maxPayload;
        return m_bandwidth.CalculateBytesTxTime(bytes + tlps * m_overhead);
    }

    /// Reads the link's attributes (set-only ones from their TypeId defaults).
    void ReadAttributes(Ptr<PcieLink> pcie)
    {
        TypeId::AttributeInformation info;
        DataRateValue rate;
        if (!pcie->GetAttributeFailSafe("Bandwidth", rate))
        {
            PcieLink::GetTypeId().LookupAttributeByName("Bandwidth", &info);
            rate.DeserializeFromString(info.initialValue->SerializeToString(info.checker),
                                       info.checker);
        }
        m_bandwidth = rate.Get();
        UintegerValue value;
        if (!pcie->GetAttributeFailSafe("MaxPayloadSize", value))
        {
            PcieLink::GetTypeId().LookupAttributeByName("MaxPayloadSize", &info);
            value.DeserializeFromString(info.initialValue->SerializeToString(info.checker),
                                        info.checker);
        }
        m_maxPayload = value.Get();
        pcie->GetAttribute("TlpOverhead", value);
        m_overhead = value.Get();
        TimeValue time;
        pcie->GetAttribute("Latency", time);
        m_latency = time.Get();
        pcie->GetAttribute("DmaSetupTime", time);
        m_setup = time.Get();
    }

    void DoRun() override
    {
        Ptr<HostMemory> memory = CreateObject<HostMemory>();
        Ptr<PcieLink> pcie = CreateObject<PcieLink>();
        pcie->SetHostMemory(memory);
        ReadAttributes(pcie);
        NS_TEST_ASSERT_MSG_EQ(pcie->GetSerializationTime(1000),
                              Serialization(1000),
                              "serialisation: bytes plus TlpOverhead per MaxPayloadSize TLP");

        // One write, then back-to-back writes on the same engine.
        std::vector<Time> landed;
        auto record = [&landed]() { landed.push_back(Simulator::Now()); };
        bool bytesRight = false;
        pcie->DmaWrite(0x1000, MakeBytes(1000, 7), drp::FunctorCallback<void>([&]() {
                           record();
                           bytesRight = ReadBytes(memory, 0x1000, 1) == std::vector<uint8_t>{7};
                       }));
        pcie->DmaWrite(0x8000, MakeBytes(300), drp::FunctorCallback<void>(record));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(landed.size(), 2, "both writes landed");
        if (landed.size() != 2)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(bytesRight, true, "the bytes are in memory when the write lands");
        Time first = m_setup + Serialization(1000) + m_latency;
        NS_TEST_ASSERT_MSG_EQ(landed[0], first, "write lands at DmaSetupTime + ser(n) + Latency");
        NS_TEST_ASSERT_MSG_EQ(landed[1],
                              first + m_setup + Serialization(300),
                              "the second write waits for the engine");

        // A batch of k pieces: one request, one DmaSetupTime.
        const uint32_t k = 4;
        const uint32_t piece = 256;
        std::vector<PcieLink::WritePiece> pieces;
        for (uint32_t i = 0; i < k; ++i)
        {
            pieces.emplace_back(0x20000 + 4096 * i, MakeBytes(piece, i));
        }
        landed.clear();
        Time start = Simulator::Now();
        pcie->DmaWriteBatch(pieces, drp::FunctorCallback<void>(record));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(landed.size(), 1, "the batch landed");
        if (landed.size() != 1)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(landed[0] - start,
                              m_setup + Serialization(k * piece) + m_latency,
                              "batch: one DmaSetupTime for all pieces");
        NS_TEST_ASSERT_MSG_LT(landed[0] - start,
                              k * (m_setup + Serialization(piece)) + m_latency,
                              "a batch beats k separate writes");
        for (uint32_t i = 0; i < k; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(
                (ReadBytes(memory, 0x20000 + 4096 * i, 1) == std::vector<uint8_t>{uint8_t(i)}),
                true,
                "piece " << i << " in place");
        }

        // Doorbell, interrupt: Latency. DMA read: request and completions.
        landed.clear();
        start = Simulator::Now();
        pcie->Doorbell(drp::FunctorCallback<void>(record));
        pcie->Interrupt(drp::FunctorCallback<void>(record));
        Ptr<Packet> read;
        Time readAt;
        pcie->DmaRead(0x1000, 1000, drp::FunctorCallback<void, Ptr<Packet>>([&](Ptr<Packet> p) {
                          read = p;
                          readAt = Simulator::Now();
                      }));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(landed.size(), 2, "doorbell and interrupt handled");
        if (landed.size() != 2 || !read)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(landed[0] - start, m_latency, "doorbell after Latency");
        NS_TEST_ASSERT_MSG_EQ(landed[1] - start, m_latency, "interrupt after Latency");
        NS_TEST_ASSERT_MSG_EQ(readAt - start,
                              m_setup + Serialization(1000) + 2 * m_latency,
                              "read: DmaSetupTime + ser(n) + 2 Latency");
        NS_TEST_ASSERT_MSG_EQ(read->GetSize(), 1000, "read size");
        uint8_t firstByte = 0;
        read->CopyData(&firstByte, 1);
        NS_TEST_ASSERT_MSG_EQ(uint32_t(firstByte), 7, "read returns the written bytes");
        NS_TEST_ASSERT_MSG_EQ(pcie->GetTransactionCount(PcieLink::DMA_WRITE), 3, "DMA writes");
        NS_TEST_ASSERT_MSG_EQ(pcie->GetTransactionCount(PcieLink::DMA_READ), 1, "DMA reads");
        NS_TEST_ASSERT_MSG_EQ(pcie->GetTransactionCount(PcieLink::DOORBELL), 1, "doorbells");
        NS_TEST_ASSERT_MSG_EQ(pcie->GetTransactionCount(PcieLink::INTERRUPT), 1, "interrupts");
        Simulator::Destroy();
    }

    DataRate m_bandwidth;  //!< Bandwidth
    uint32_t m_maxPayload; //!< MaxPayloadSize
    uint32_t m_overhead;   //!< TlpOverhead
    Time m_latency;        //!< Latency
    Time m_setup;          //!< DmaSetupTime
};

/**
 * \ingroup drp-tests
 * IndirectBuffer: capacity, refusal when full, Take in SN order, Discard.
 */
class DrpIndirectBufferTestCase : public TestCase
{
  public:
    DrpIndirectBufferTestCase()
        : TestCase("IndirectBuffer: capacity, overflow, Take in SN order, Discard")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<IndirectBuffer> buffer = CreateObject<IndirectBuffer>();
        NS_TEST_ASSERT_MSG_EQ(buffer->GetCapacity(), 49152, "default: 48 KiB");
        buffer->SetAttribute("Capacity", UintegerValue(3000));
        NS_TEST_ASSERT_MSG_EQ(buffer->GetCapacity(), 3000, "capacity");
        Mac48Address a("00:00:00:00:00:01");
        Mac48Address b("00:00:00:00:00:02");
        uint32_t flushed = 0;
        buffer->TraceConnectWithoutContext(
            "Flush",
            drp::FunctorCallback<void, Mac48Address, uint16_t, uint32_t>(
                [&flushed](Mac48Address, uint16_t, uint32_t bytes) { flushed += bytes; }));

        // Out of order, one duplicate.
        NS_TEST_ASSERT_MSG_EQ(buffer->Store(a, 1, 2, 2000, MakeBytes(1000, 2)), true, "SN 2");
        NS_TEST_ASSERT_MSG_EQ(buffer->Store(a, 1, 0, 0, MakeBytes(1000, 0)), true, "SN 0");
        NS_TEST_ASSERT_MSG_EQ(buffer->Store(a, 1, 0, 0, MakeBytes(1000, 0)), true, "SN 0 again");
        NS_TEST_ASSERT_MSG_EQ(buffer->GetOccupancy(), 2000, "a duplicate is kept once");
        NS_TEST_ASSERT_MSG_EQ(buffer->Store(b, 1, 0, 0, MakeBytes(1000)), true, "other peer");
        NS_TEST_ASSERT_MSG_EQ(buffer->GetOccupancy(), 3000, "full");
        NS_TEST_ASSERT_MSG_EQ(buffer->Store(a, 1, 1, 1000, MakeBytes(1)),
                              false,
                              "refused when full");
        NS_TEST_ASSERT_MSG_EQ(buffer->Store(a, 7, 0, 0, MakeBytes(1)), false, "for any transfer");
        NS_TEST_ASSERT_MSG_EQ(buffer->GetOverflowCount(), 2, "overflows counted");
        NS_TEST_ASSERT_MSG_EQ(buffer->GetOccupancy(), 3000, "a refusal takes no room");

        std::vector<IndirectBuffer::Entry> entries = buffer->Take(a, 1);
        NS_TEST_ASSERT_MSG_EQ(entries.size(), 2, "two payloads of (a, 1)");
        if (entries.size() != 2)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(entries[0].sequence, 0, "SN order");
        NS_TEST_ASSERT_MSG_EQ(entries[1].sequence, 2, "SN order");
        NS_TEST_ASSERT_MSG_EQ(entries[1].address, 2000, "the address each frame named");
        uint8_t byte = 0;
        entries[1].payload->CopyData(&byte, 1);
        NS_TEST_ASSERT_MSG_EQ(uint32_t(byte), 2, "the payload's bytes");
        NS_TEST_ASSERT_MSG_EQ(flushed, 2000, "Flush trace");
        NS_TEST_ASSERT_MSG_EQ(buffer->GetOccupancy(), 1000, "Take frees the room");
        NS_TEST_ASSERT_MSG_EQ(buffer->Take(a, 1).size(), 0, "nothing left of (a, 1)");
        NS_TEST_ASSERT_MSG_EQ(buffer->Store(a, 1, 1, 1000, MakeBytes(1000)), true, "room again");

        buffer->Discard(b, 1);
        NS_TEST_ASSERT_MSG_EQ(buffer->GetOccupancy(), 1000, "Discard frees (b, 1)'s room");
        NS_TEST_ASSERT_MSG_EQ(buffer->Take(b, 1).size(), 0, "discarded payloads are gone");
        buffer->Discard(b, 9); // unknown: nothing happens
        NS_TEST_ASSERT_MSG_EQ(buffer->GetOccupancy(), 1000, "unknown transfer: no change");
        NS_TEST_ASSERT_MSG_EQ(flushed, 2000, "Discard is no flush");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * DrpSender with a fake transmit callback: the window, cumulative ACKs,
 * fast retransmit with NewReno-style partial ACKs, the timer, and the
 * retry limit.
 */
class DrpSenderTestCase : public TestCase
{
  public:
    DrpSenderTestCase()
        : TestCase("DrpSender: window, cumulative ACK, fast retransmit, timeout, retry limit")
    {
    }

  private:
    /**
     * \param sn a frame the sender transmits: it leaves m_leaveAfter later
     * \return true (it will leave)
     */
    bool Transmit(uint32_t sn)
    {
        m_sent.emplace_back(Simulator::Now(), sn);
        if (m_leaveAfter.IsZero())
        {
            m_current->OnSent(sn);
        }
        else
        {
            DrpSender* sender = m_current;
            m_departures.push_back(
                drp::Schedule(m_leaveAfter, [sender, sn]() { sender->OnSent(sn); }));
        }
        return true;
    }

    /// Frames still waiting to leave will not: their sender is about to go.
    void CancelDepartures()
    {
        for (EventId& departure : m_departures)
        {
            departure.Cancel();
        }
        m_departures.clear();
        m_leaveAfter = Time(0);
    }

    /**
     * Starts a case whose frames wait before they leave: drops what an
     * earlier case left (it may have stopped at a failed assertion).
     * \param wait how long each frame waits in the RNIC
     */
    void FramesWait(Time wait)
    {
        CancelDepartures();
        m_sent.clear();
        m_leaveAfter = wait;
    }

    /// \return the SNs sent so far, in order; clears the list
    std::vector<uint32_t> TakeSent()
    {
        std::vector<uint32_t> sns;
        for (const auto& [time, sn] : m_sent)
        {
            sns.push_back(sn);
        }
        m_sent.clear();
        return sns;
    }

    /**
     * \param total frames
     * \param maxBackoff largest timer multiplier (1: fixed timer)
     * \return a sender of \p total frames, window 4, timeout R, 2 retries, 3 dup ACKs
     */
    DrpSender* MakeSender(uint32_t total, uint32_t maxBackoff = 1)
    {
        DrpSender::Config config{4, m_timeout, 2, 3, maxBackoff};
        m_current = new DrpSender(
            total,
            config,
            MakeCallback(&DrpSenderTestCase::Transmit, this),
            drp::FunctorCallback<void>([this]() { m_failedAt.push_back(Simulator::Now()); }));
        return m_current;
    }

    using Sns = std::vector<uint32_t>; //!< a list of SNs

    void WindowAndAcks()
    {
        std::unique_ptr<DrpSender> s(MakeSender(10));
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{}), true, "nothing before Start");
        s->Start();
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{0, 1, 2, 3}), true, "a window of 4");
        s->OnAck(2);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{4, 5}), true, "ACKN 2 frees two");
        s->OnAck(1);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{}), true, "an old ACKN does nothing");
        s->OnAck(100);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{6, 7, 8, 9}),
                              true,
                              "ACKN beyond what was sent counts as all sent");
        NS_TEST_ASSERT_MSG_EQ(s->IsComplete(), false, "6 to 9 outstanding");
        s->OnAck(10);
        NS_TEST_ASSERT_MSG_EQ(s->IsComplete(), true, "all acknowledged");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 0, "no expiry after completion");
        NS_TEST_ASSERT_MSG_EQ(s->GetRetransmissions(), 0, "no retransmission");
    }

    void FastRetransmit()
    {
        std::unique_ptr<DrpSender> s(MakeSender(10));
        s->Start();
        s->OnAck(1);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{0, 1, 2, 3, 4}), true, "window after ACKN 1");
        s->OnAck(1);
        s->OnAck(1);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{}), true, "two duplicates: nothing yet");
        s->OnAck(1);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{1}), true, "third duplicate: SN 1 again");
        s->OnAck(1);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{}), true, "no second fast retransmit");
        s->OnAck(3);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{3, 5, 6}),
                              true,
                              "partial ACK: the next hole at once, then new frames");
        s->OnAck(7);
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{7, 8, 9}), true, "recovery over: new frames");
        NS_TEST_ASSERT_MSG_EQ(s->GetRetransmissions(), 2, "two retransmissions");
        s->OnAck(10);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 0, "no expiry");
    }

    void TimeoutAndRetryLimit()
    {
        Time t0 = Simulator::Now();
        std::unique_ptr<DrpSender> s(MakeSender(3));
        s->Start();
        TakeSent();
        // Progress at 1.5 R resets the count of expiries in a row.
        drp::Schedule(1.5 * m_timeout, [&s]() { s->OnAck(1); });
        Simulator::Run();
        std::vector<Time> times;
        for (const auto& [time, sn] : m_sent)
        {
            times.push_back(time - t0);
        }
        // R: expiry, SN 0 again (and recovery up to SN 3). 1.5 R: ACKN 1, a
        // partial ACK: SN 1 again at once, timer restarts. 2.5 R, 3.5 R:
        // expiries, SN 1 again. 4.5 R: third expiry in a row > MaxRetries (2).
        Sns sns = TakeSent();
        NS_TEST_ASSERT_MSG_EQ((sns == Sns{0, 1, 1, 1}), true, "retransmitted SNs");
        NS_TEST_ASSERT_MSG_EQ(times.size(), 4, "four retransmissions");
        if (times.size() != 4)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(times[0], m_timeout, "first expiry");
        NS_TEST_ASSERT_MSG_EQ(times[1], 1.5 * m_timeout, "partial ACK after the expiry");
        NS_TEST_ASSERT_MSG_EQ(times[2], 2.5 * m_timeout, "timer restarted by progress");
        NS_TEST_ASSERT_MSG_EQ(times[3], 3.5 * m_timeout, "second expiry in a row");
        NS_TEST_ASSERT_MSG_EQ(m_failedAt.size(), 1, "failed once");
        if (m_failedAt.size() != 1)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_failedAt[0] - t0, 4.5 * m_timeout, "after MaxRetries expiries");
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 4, "four expiries");
        NS_TEST_ASSERT_MSG_EQ(s->GetRetransmissions(), 4, "four retransmissions");
        s->OnAck(3);
        NS_TEST_ASSERT_MSG_EQ(s->IsComplete(), false, "a failed sender ignores ACKs");
    }

    void NoRetryLimit()
    {
        m_failedAt.clear();
        std::unique_ptr<DrpSender> s(MakeSender(1));
        s->SetRetryLimitActive(false);
        s->Start();
        TakeSent();
        Simulator::Stop(10.5 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(TakeSent().size(), 10, "retransmits on every expiry");
        NS_TEST_ASSERT_MSG_EQ(m_failedAt.size(), 0, "never fails without the limit");
        s->Stop();
    }

    void Backoff()
    {
        m_sent.clear();
        Time t0 = Simulator::Now();
        std::unique_ptr<DrpSender> s(MakeSender(2, 4));
        s->SetRetryLimitActive(false);
        s->Start();
        TakeSent();
        // No progress: expiries after R, 2R, 4R, 4R (doubling, capped at 4R).
        Simulator::Stop(11.5 * m_timeout);
        Simulator::Run();
        std::vector<Time> times;
        for (const auto& [time, sn] : m_sent)
        {
            times.push_back(time - t0);
        }
        NS_TEST_ASSERT_MSG_EQ(times.size(), 4, "four expiries by 11.5 R");
        if (times.size() != 4)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(times[0], m_timeout, "first expiry after R");
        NS_TEST_ASSERT_MSG_EQ(times[1], 3 * m_timeout, "then 2R later");
        NS_TEST_ASSERT_MSG_EQ(times[2], 7 * m_timeout, "then 4R later");
        NS_TEST_ASSERT_MSG_EQ(times[3], 11 * m_timeout, "capped at 4R");
        // Progress returns the timer to R.
        m_sent.clear();
        Time progress = Simulator::Now();
        s->OnAck(1);
        m_sent.clear(); // the partial ACK retransmits SN 1 at once
        Simulator::Stop(1.5 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_sent.size(), 1, "one expiry in 1.5 R after progress");
        if (!m_sent.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(m_sent[0].first - progress, m_timeout, "back to R");
        }
        s->Stop();
    }

    /// Frames that wait 3 R before they leave: the timer runs from their departure.
    void TimerFromTransmission()
    {
        FramesWait(3 * m_timeout);
        Time t0 = Simulator::Now();
        std::unique_ptr<DrpSender> s(MakeSender(4));
        s->Start();
        TakeSent();
        Simulator::Stop(4.5 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 1, "one expiry by 4.5 R");
        NS_TEST_ASSERT_MSG_EQ(m_sent.size(), 1, "SN 0 again");
        if (!m_sent.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(m_sent[0].first - t0,
                                  4 * m_timeout,
                                  "R after the frames left (3 R), not R after they were made");
        }
        // The retransmission (made at 4 R) leaves at 7 R: the next expiry is at 8 R.
        m_sent.clear();
        Simulator::Stop(3.4 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 1, "no expiry while the retransmission waits");
        Simulator::Stop(0.2 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 2, "R after the retransmission left");
        s->Stop();
        CancelDepartures();
    }

    /**
     * Frames that wait 3 R before they leave: a frame is never queued twice,
     * and an acknowledgement that makes a
     * waiting frame the first unacknowledged one stops the timer until it
     * leaves (later frames leaving do not start it).
     */
    void NeverQueuedTwice()
    {
        FramesWait(3 * m_timeout);
        Time t0 = Simulator::Now();
        std::unique_ptr<DrpSender> s(MakeSender(10));
        s->Start();
        TakeSent();
        // R: three duplicate ACKs while SN 0 still waits to leave.
        drp::Schedule(m_timeout, [&s]() {
            s->OnAck(0);
            s->OnAck(0);
            s->OnAck(0);
        });
        Simulator::Stop(1.5 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{}), true, "SN 0 waits: no second copy");
        NS_TEST_ASSERT_MSG_EQ(s->GetRetransmissions(), 0, "and none counted");
        // 3 R: 0 to 3 leave, the timer starts; 4 R: expiry, SN 0 again (it
        // waits until 7 R).
        Simulator::Stop(3 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 1, "one expiry, at 4 R");
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{0}), true, "SN 0 again");
        // 7.5 R: ACKN 2, a partial acknowledgement: SN 2 again (it waits
        // until 10.5 R) and 4, 5 new (they leave at 10.5 R too).
        drp::Schedule(3 * m_timeout, [&s]() { s->OnAck(2); });
        Simulator::Stop(5.9 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{2, 4, 5}), true, "the hole, then new frames");
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 1, "no expiry while SN 2's copy waits (to 10.4 R)");
        NS_TEST_ASSERT_MSG_EQ(s->GetRetransmissions(), 2, "SN 0 and SN 2");
        // 10.5 R: SN 2 leaves, the timer starts; 11.5 R: expiry.
        Simulator::Stop(1.2 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 2, "R after SN 2's copy left");
        NS_TEST_ASSERT_MSG_EQ(m_sent.size(), 1, "SN 2 once more");
        if (!m_sent.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(m_sent[0].first - t0, 11.5 * m_timeout, "at 11.5 R");
        }
        s->Stop();
        CancelDepartures();
    }

    /**
     * Frames that wait 3 R before they leave: an acknowledgement of every
     * frame sent makes the next window's first frame the one the timer
     * guards, and it starts only when that frame leaves.
     */
    void WindowAcknowledgedWhole()
    {
        FramesWait(3 * m_timeout);
        Time t0 = Simulator::Now();
        std::unique_ptr<DrpSender> s(MakeSender(8));
        s->Start();
        // 3 R: 0 to 3 leave; 3.5 R: all four acknowledged, 4 to 7 made (they leave at 6.5 R).
        drp::Schedule(3.5 * m_timeout, [&s]() { s->OnAck(4); });
        Simulator::Stop(7.4 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ((TakeSent() == Sns{0, 1, 2, 3, 4, 5, 6, 7}), true, "two windows");
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 0, "no expiry while 4 to 7 wait to leave");
        Simulator::Stop(0.2 * m_timeout);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s->GetTimeouts(), 1, "R after SN 4 left (6.5 R)");
        NS_TEST_ASSERT_MSG_EQ(m_sent.size(), 1, "SN 4 again");
        if (!m_sent.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(m_sent[0].first - t0, 7.5 * m_timeout, "at 7.5 R");
        }
        s->Stop();
        CancelDepartures();
    }

    void DoRun() override
    {
        WindowAndAcks();
        FastRetransmit();
        TimeoutAndRetryLimit();
        NoRetryLimit();
        Backoff();
        TimerFromTransmission();
        NeverQueuedTwice();
        WindowAcknowledgedWhole();
        CancelDepartures();
        Simulator::Destroy();
    }

    DrpSender* m_current{nullptr};                 //!< the sender under test
    Time m_leaveAfter;                             //!< how long a frame waits before it leaves
    Time m_timeout{MicroSeconds(100)};             //!< R of the senders under test
    std::vector<std::pair<Time, uint32_t>> m_sent; //!< (time, SN) of every transmission
    std::vector<EventId> m_departures;             //!< frames scheduled to leave
    std::vector<Time> m_failedAt;                  //!< when the failure callback ran
};

/**
 * \ingroup drp-tests
 * DrpTxScheduler's data order: round robin among flows, the oldest flow
 * first under FIFO, in order within a flow, the stage limit, and closing a
 * flow.
 */
class DrpTxSchedulerTestCase : public TestCase
{
  public:
    DrpTxSchedulerTestCase()
        : TestCase("DrpTxScheduler: round robin, FIFO, stage limit, closing a flow")
    {
    }

  private:
    /**
     * \param scheduler where \p sn is queued
     * \param flow its flow
     * \param sn the frame's SN
     */
    static void Post(DrpTxScheduler& scheduler, uint64_t flow, uint32_t sn)
    {
        DrpTxScheduler::DataFrame frame;
        frame.header.SetSequence(sn);
        frame.flow = flow;
        scheduler.EnqueueData(frame);
    }

    /**
     * \param scheduler takes frames until none is eligible
     * \return (flow, SN) in the order the payloads would be read
     */
    static std::vector<std::pair<uint64_t, uint32_t>> TakeAll(DrpTxScheduler& scheduler)
    {
        std::vector<std::pair<uint64_t, uint32_t>> order;
        DrpTxScheduler::DataFrame frame;
        while (scheduler.TakeNextData(frame))
        {
            order.emplace_back(frame.flow, frame.header.GetSequence());
        }
        return order;
    }

    using Order = std::vector<std::pair<uint64_t, uint32_t>>; //!< (flow, SN) list

    void DoRun() override
    {
        for (bool fifo : {false, true})
        {
            DrpTxScheduler scheduler;
            scheduler.SetArbitration(fifo ? DrpTxScheduler::FIFO : DrpTxScheduler::ROUND_ROBIN);
            scheduler.SetStageLimit(3);
            uint64_t a = scheduler.OpenFlow();
            uint64_t b = scheduler.OpenFlow();
            for (uint32_t sn : {0, 1, 2, 3, 4})
            {
                Post(scheduler, a, sn);
            }
            Post(scheduler, b, 0);
            Post(scheduler, b, 1);
            Order expected = fifo ? Order{{a, 0}, {a, 1}, {a, 2}, {b, 0}, {b, 1}}
                                  : Order{{a, 0}, {b, 0}, {a, 1}, {b, 1}, {a, 2}};
            NS_TEST_EXPECT_MSG_EQ((TakeAll(scheduler) == expected),
                                  true,
                                  (fifo ? "FIFO" : "round robin")
                                      << ": in order per flow, three staged per flow");
            NS_TEST_EXPECT_MSG_EQ(scheduler.GetWaiting(), 2, "SN 3 and 4 of flow a wait");
            scheduler.CloseFlow(a);
            NS_TEST_EXPECT_MSG_EQ(scheduler.GetDiscarded(), 2, "closing a discards them");
            NS_TEST_EXPECT_MSG_EQ(scheduler.GetWaiting(), 0, "nothing waits");
        }
    }
};

/**
 * \ingroup drp-tests
 * DrpReceiver: cumulative ACKN over holes, duplicates, frames seen but not
 * yet committed.
 */
class DrpReceiverTestCase : public TestCase
{
  public:
    DrpReceiverTestCase()
        : TestCase("DrpReceiver: ACKN with holes, duplicates, pending")
    {
    }

  private:
    void DoRun() override
    {
        DrpReceiver r;
        NS_TEST_ASSERT_MSG_EQ(r.GetAckNumber(), 0, "nothing yet");
        NS_TEST_ASSERT_MSG_EQ(r.See(1, 100), true, "SN 1 first");
        r.Commit(1);
        NS_TEST_ASSERT_MSG_EQ(r.GetAckNumber(), 0, "SN 0 missing: ACKN stays 0");
        NS_TEST_ASSERT_MSG_EQ(r.See(0, 100), true, "SN 0");
        NS_TEST_ASSERT_MSG_EQ(r.GetPending(), 1, "SN 0 seen, not committed");
        NS_TEST_ASSERT_MSG_EQ(r.See(0, 100), false, "SN 0 again: a duplicate");
        NS_TEST_ASSERT_MSG_EQ(r.GetAckNumber(), 0, "only committed frames count");
        r.Commit(0);
        NS_TEST_ASSERT_MSG_EQ(r.GetAckNumber(), 2, "0 and 1 committed");
        NS_TEST_ASSERT_MSG_EQ(r.GetPending(), 0, "nothing pending");
        NS_TEST_ASSERT_MSG_EQ(r.See(3, 50), true, "SN 3 (hole at 2)");
        r.Commit(3);
        NS_TEST_ASSERT_MSG_EQ(r.GetAckNumber(), 2, "hole at 2");
        NS_TEST_ASSERT_MSG_EQ(r.IsCommitted(3), true, "SN 3 committed");
        NS_TEST_ASSERT_MSG_EQ(r.IsCommitted(2), false, "SN 2 not");
        NS_TEST_ASSERT_MSG_EQ(r.See(2, 100), true, "SN 2");
        r.Commit(2);
        NS_TEST_ASSERT_MSG_EQ(r.GetAckNumber(), 4, "hole filled");
        NS_TEST_ASSERT_MSG_EQ(r.GetBytesSeen(), 350, "each frame's bytes counted once");
        CompareWithSets();
    }

    /**
     * Frames of 64 SNs arriving in a shuffled order with duplicates, each
     * committed some arrivals later, against plain sets of SNs: every
     * answer the same after every step (holes, runs joined when a hole
     * fills, duplicates of seen and of committed frames).
     */
    void CompareWithSets()
    {
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(7);
        DrpReceiver r;
        std::set<uint32_t> seen;
        std::set<uint32_t> committed;
        std::vector<uint32_t> toCommit;
        for (uint32_t step = 0; step < 400; ++step)
        {
            const uint32_t sn = u->GetInteger(0, 63);
            const bool fresh = seen.insert(sn).second;
            NS_TEST_ASSERT_MSG_EQ(r.See(sn, 1), fresh, "See(" << sn << ") at step " << step);
            if (fresh)
            {
                toCommit.push_back(sn);
            }
            if (!toCommit.empty() && u->GetValue() < 0.6)
            {
                const uint32_t i = u->GetInteger(0, toCommit.size() - 1);
                r.Commit(toCommit[i]);
                committed.insert(toCommit[i]);
                toCommit.erase(toCommit.begin() + i);
            }
            uint32_t ackn = 0;
            while (committed.count(ackn))
            {
                ++ackn;
            }
            NS_TEST_ASSERT_MSG_EQ(r.GetAckNumber(), ackn, "ACKN at step " << step);
            NS_TEST_ASSERT_MSG_EQ(r.GetPending(),
                                  seen.size() - committed.size(),
                                  "pending at step " << step);
            for (uint32_t k = 0; k < 66; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(r.IsCommitted(k),
                                      (committed.count(k) == 1),
                                      "IsCommitted(" << k << ") at step " << step);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(r.GetBytesSeen(), seen.size(), "each frame's byte counted once");
    }
};

/**
 * \ingroup drp-tests
 * TxTimeCache: exactly DataRate's times, small and large sizes, for caches
 * that share a rate's table and for a cache whose rate changes.
 */
class DrpTxTimeCacheTestCase : public TestCase
{
  public:
    DrpTxTimeCacheTestCase()
        : TestCase("TxTimeCache: DataRate's times, shared per rate, across rate changes")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate gbps("1Gbps");
        const DataRate odd("7Mbps"); // times that are not whole nanoseconds per byte
        TxTimeCache a;
        TxTimeCache b;
        for (uint32_t bytes : {0U, 1U, 64U, 1080U, 4096U, 4097U, 65536U, 1080U})
        {
            NS_TEST_ASSERT_MSG_EQ(a.Get(gbps, bytes),
                                  gbps.CalculateBytesTxTime(bytes),
                                  "1 Gbps, " << bytes << " bytes");
            NS_TEST_ASSERT_MSG_EQ(b.Get(odd, bytes),
                                  odd.CalculateBytesTxTime(bytes),
                                  "7 Mbps, " << bytes << " bytes");
            // a moves to b's rate and back: each reads its rate's times.
            NS_TEST_ASSERT_MSG_EQ(a.Get(odd, bytes),
                                  odd.CalculateBytesTxTime(bytes),
                                  "a at 7 Mbps, " << bytes << " bytes");
            NS_TEST_ASSERT_MSG_EQ(a.Get(gbps, bytes),
                                  gbps.CalculateBytesTxTime(bytes),
                                  "a at 1 Gbps again, " << bytes << " bytes");
        }
    }
};

/**
 * \ingroup drp-tests
 * RecurringEvent: one EventImpl, scheduled again and again, runs the method
 * once per scheduling, at its time and in the order ns-3 gives events of
 * one time; a cancelled one runs no more, and the events after it do.
 */
class DrpRecurringEventTestCase : public TestCase
{
  public:
    DrpRecurringEventTestCase()
        : TestCase("RecurringEvent: each scheduling runs once, in ns-3's order; Cancel renews")
    {
    }

  private:
    /// Notes the time and the tag of the next run.
    void Tick()
    {
        m_runs.emplace_back(Simulator::Now().GetNanoSeconds(), m_next++);
    }

    void DoRun() override
    {
        RecurringEvent<DrpRecurringEventTestCase> tick(&DrpRecurringEventTestCase::Tick, this);
        tick.Schedule(NanoSeconds(30));
        EventId second = tick.Schedule(NanoSeconds(10));
        tick.Schedule(NanoSeconds(10)); // the same time: after the one scheduled before it
        EventId cancelled = tick.Schedule(NanoSeconds(20));
        tick.Cancel(cancelled);
        NS_TEST_ASSERT_MSG_EQ(cancelled.IsExpired(), true, "a cancelled event is expired");
        NS_TEST_ASSERT_MSG_EQ(second.IsExpired(), true, "Cancel() silences the old EventImpl");
        EventId later = tick.Schedule(NanoSeconds(40)); // the renewed EventImpl
        NS_TEST_ASSERT_MSG_EQ(later.IsExpired(), false, "a new event after Cancel() is pending");
        // An event of the same time scheduled the ordinary way, in between.
        drp::Schedule(NanoSeconds(40), [this]() { m_runs.emplace_back(-40, 0); });
        tick.Schedule(NanoSeconds(40));
        Simulator::Run();
        Simulator::Destroy();
        // Cancel() cancelled every pending scheduling of the EventImpl it
        // renewed (ns-3 marks the EventImpl, not the scheduling): only the
        // events scheduled after it run.
        const std::vector<std::pair<int64_t, uint32_t>> expected{{40, 0}, {-40, 0}, {40, 1}};
        NS_TEST_ASSERT_MSG_EQ(m_runs.size(), expected.size(), "one run per live scheduling");
        for (size_t i = 0; i < expected.size() && i < m_runs.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m_runs[i].first, expected[i].first, "run " << i << "'s time");
            NS_TEST_ASSERT_MSG_EQ(m_runs[i].second, expected[i].second, "run " << i << "'s order");
        }
        // Without a Cancel(): every scheduling runs, by time, then in order.
        m_runs.clear();
        m_next = 0;
        RecurringEvent<DrpRecurringEventTestCase> again(&DrpRecurringEventTestCase::Tick, this);
        again.Schedule(NanoSeconds(30));
        again.Schedule(NanoSeconds(10));
        again.Schedule(NanoSeconds(10));
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<int64_t> times{10, 10, 30};
        NS_TEST_ASSERT_MSG_EQ(m_runs.size(), times.size(), "each scheduling runs once");
        for (size_t i = 0; i < times.size() && i < m_runs.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(m_runs[i].first, times[i], "run " << i << " at its time");
        }
    }

    std::vector<std::pair<int64_t, uint32_t>> m_runs; //!< (time in ns, tag) of each run
    uint32_t m_next{0};                               //!< the next run's tag
};

/**
 * \ingroup drp-tests
 * LazyEventHeap: events leave in the order of (time stamp, tie rank, uid),
 * as a std::map of that key gives them, whatever was removed before, the
 * first event or any other, so many that the heap is rebuilt; a removed
 * event never leaves.
 */
class DrpLazyEventHeapTestCase : public TestCase
{
  public:
    DrpLazyEventHeapTestCase()
        : TestCase("LazyEventHeap: std::map's order of (time, tie, uid); removed events never "
                   "leave")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<UniformRandomVariable> draw = CreateObject<UniformRandomVariable>();
        draw->SetStream(11);
        LazyEventHeap heap;
        std::map<std::tuple<uint64_t, uint64_t, uint32_t>, Scheduler::Event> expected;
        uint32_t uid = 0;
        uint32_t removed = 0;
        for (uint32_t round = 0; round < 2000; ++round)
        {
            // Few time stamps and tie ranks: many events share them.
            Scheduler::Event ev;
            ev.impl = nullptr;
            ev.key.m_ts = draw->GetInteger(0, 50);
            ev.key.m_uid = uid++;
            ev.key.m_context = 0;
            const uint64_t tie = draw->GetInteger(0, 2);
            heap.Push(ev, tie);
            expected[{ev.key.m_ts, tie, ev.key.m_uid}] = ev;
            // Remove the first event or another, pending one, now and then.
            const double r = draw->GetValue();
            if (r < 0.6 && !expected.empty())
            {
                auto victim = r < 0.05 ? expected.begin()
                                       : std::next(expected.begin(),
                                                   draw->GetInteger(0, expected.size() - 1));
                heap.Remove(victim->second);
                expected.erase(victim);
                ++removed;
            }
            NS_TEST_ASSERT_MSG_LT_OR_EQ(heap.GetHeld(),
                                        2 * expected.size() + 1,
                                        "removed events are dropped, round " << round);
            if (r > 0.9 && !expected.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(heap.Top().key.m_uid,
                                      expected.begin()->second.key.m_uid,
                                      "the first pending event, round " << round);
                heap.Pop();
                expected.erase(expected.begin());
            }
        }
        NS_TEST_ASSERT_MSG_GT(removed, 1000U, "more removals than pending events");
        while (!expected.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(heap.IsEmpty(), false, "pending events are left");
            NS_TEST_ASSERT_MSG_EQ(heap.Top().key.m_uid,
                                  expected.begin()->second.key.m_uid,
                                  "the events leave in the map's order");
            NS_TEST_ASSERT_MSG_EQ(heap.TopTie(),
                                  std::get<1>(expected.begin()->first),
                                  "with their tie rank");
            heap.Pop();
            expected.erase(expected.begin());
        }
        NS_TEST_ASSERT_MSG_EQ(heap.IsEmpty(), true, "no removed event is left");
    }
};

/**
 * \ingroup drp-tests
 * MacAddressHash: the key is the address's 48 bits, equal keys hash alike,
 * and a table of many (address, TID) records finds each one.
 */
class DrpMacAddressHashTestCase : public TestCase
{
  public:
    DrpMacAddressHashTestCase()
        : TestCase("MacAddressHash: 48-bit keys, and a table of (address, TID) records")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(MacAddressHash::GetKey(Mac48Address("00:00:00:00:01:02")),
                              0x0102U,
                              "the last byte is the least significant");
        NS_TEST_ASSERT_MSG_EQ(MacAddressHash::GetKey(Mac48Address("ff:ff:ff:ff:ff:ff")),
                              0xffffffffffffULL,
                              "48 bits, no more");
        NS_TEST_ASSERT_MSG_EQ(MacAddressHash::GetKey(Mac48Address("12:34:56:78:9a:bc")),
                              0x123456789abcULL,
                              "the first byte is the most significant");
        MacAddressHash hash;
        NS_TEST_ASSERT_MSG_EQ(hash(Mac48Address("00:00:00:00:00:07")),
                              hash(Mac48Address("00:00:00:00:00:07")),
                              "equal addresses hash alike");
        // Records of 64 initiators x 64 TIDs, as a responder holds them.
        std::unordered_map<std::pair<Mac48Address, uint16_t>, uint32_t, MacAddressHash> records;
        std::vector<Mac48Address> peers;
        for (uint32_t i = 0; i < 64; ++i)
        {
            peers.push_back(Mac48Address::Allocate());
            for (uint16_t tid = 0; tid < 64; ++tid)
            {
                records[{peers.back(), tid}] = i * 64 + tid;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(records.size(), 64U * 64U, "every record is its own");
        for (uint32_t i = 0; i < 64; ++i)
        {
            for (uint16_t tid = 0; tid < 64; ++tid)
            {
                auto it = records.find({peers[i], tid});
                NS_TEST_ASSERT_MSG_EQ((it != records.end()), true, "record " << i << "/" << tid);
                NS_TEST_ASSERT_MSG_EQ(it->second, i * 64 + tid, "its value");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(
            (records.find({Mac48Address("00:00:00:00:00:00"), 0}) == records.end()),
            true,
            "an address never added is not found");
    }
};

/**
 * \ingroup drp-tests
 * The parts of the RNIC and the host.
 */
class DrpPartsTestSuite : public TestSuite
{
  public:
    DrpPartsTestSuite()
        : TestSuite("drp-parts", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpHostMemoryTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCompareMemoryTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpLazyFillTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCompactPagesTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPcieTimingTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpIndirectBufferTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpSenderTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpTxSchedulerTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpReceiverTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpTxTimeCacheTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpMacAddressHashTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRecurringEventTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpLazyEventHeapTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpPartsTestSuite g_drpPartsTestSuite;
