/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Memory-region safety: overflow-safe range tests, the RNIC's region table
// following its host's registrations, frames whose addresses wrap around the
// end of the address space, requests that name no valid region, and a host
// that releases a region while a transfer still targets it.

#include "drp-test-bed.h"

#include "ns3/drp-compat.h"
#include "ns3/host-memory.h"
#include "ns3/region-table.h"
#include "ns3/test.h"

#include <limits>
#include <map>

using namespace ns3;
using namespace ns3::drptest;

namespace
{

/// The last address of the 64-bit address space.
const uint64_t TOP = std::numeric_limits<uint64_t>::max();

} // namespace

/**
 * \ingroup drp-tests
 * HostMemory's range arithmetic and the RegionTable that follows it: exact
 * edges, wrapping ranges, nested registrations, a table attached late.
 */
class DrpRegionTableTestCase : public TestCase
{
  public:
    DrpRegionTableTestCase()
        : TestCase("region arithmetic is overflow-safe; the region table follows the host")
    {
    }

  private:
    void DoRun() override
    {
        // Valid regions: not empty, and not past the last byte.
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsValidRegion(0, 0), false, "empty");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsValidRegion(TOP - 1, 1), true, "last byte but one");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsValidRegion(TOP, 1), false, "ends at 2^64");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsValidRegion(TOP - 511, 1024), false, "wraps");

        // Containment, at the edges and where a wrapping sum would have passed.
        const uint64_t base = uint64_t(1) << 32;
        const uint64_t size = 16384;
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsWithin(base, size, base, size), true, "whole");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsWithin(base + size - 1, 1, base, size), true, "last");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsWithin(base + size, 1, base, size), false, "past");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsWithin(base - 1, 1, base, size), false, "before");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsWithin(base, 0, base, size), false, "empty");
        // (TOP - 511) + 1024 wraps to 512, which is <= base + size.
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsWithin(TOP - 511, 1024, base, size),
                              false,
                              "a range that wraps past 2^64 is outside");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::IsWithin(TOP - 511, 1024, TOP - 4095, 4096),
                              false,
                              "a range that wraps is outside even a region at the top");

        Ptr<HostMemory> memory = CreateObject<HostMemory>();
        Ptr<RegionTable> table = CreateObject<RegionTable>();
        table->Attach(memory);
        memory->Register(100, 100);
        NS_TEST_EXPECT_MSG_EQ(table->Contains(100, 100), true, "registered");
        NS_TEST_EXPECT_MSG_EQ(table->Contains(150, 51), false, "one byte past");
        memory->Register(100, 100); // a second registration of the same region nests
        memory->Deregister(100, 100);
        NS_TEST_EXPECT_MSG_EQ(table->Contains(100, 100), true, "still registered once");
        memory->Deregister(100, 100);
        NS_TEST_EXPECT_MSG_EQ(table->Contains(100, 1), false, "released");
        NS_TEST_EXPECT_MSG_EQ(table->GetRegisteredBytes(), 0, "table empty");

        memory->Register(TOP - 4096, 4096); // the highest region there can be
        NS_TEST_EXPECT_MSG_EQ(table->Contains(TOP - 4096, 4096), true, "top region");
        NS_TEST_EXPECT_MSG_EQ(table->Contains(TOP - 100, 200), false, "wraps: never contained");
        bool refused = false;
        try
        {
            memory->Register(TOP - 511, 1024);
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("passes the end") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "registering a wrapping region is refused by name");

        Ptr<RegionTable> late = CreateObject<RegionTable>();
        late->Attach(memory);
        NS_TEST_EXPECT_MSG_EQ(late->Contains(TOP - 4096, 4096), true, "a late table copies");
        memory->Deregister(TOP - 4096, 4096);
        NS_TEST_EXPECT_MSG_EQ(late->Contains(TOP - 4096, 1), false, "and then follows");
        NS_TEST_EXPECT_MSG_EQ(memory->GetRegisteredBytes(), 0, "host memory agrees");
        late->Dispose();
        table->Dispose();
    }
};

/**
 * \ingroup drp-tests
 * A data frame of the live transfer whose DBA lies 512 bytes below 2^64:
 * a 64-bit sum DBA + LEN wraps to 512 and would have passed a naive region
 * check, placing the payload at both ends of the address space. It is
 * dropped as out of region; neither end of memory changes; the live transfer
 * ends byte-exact.
 */
class DrpWrappingDataTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpWrappingDataTestCase(const std::string& method)
        : TestCase("a data frame that wraps past 2^64 is dropped, memory unchanged (" + method +
                   ")"),
          m_method(method)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t size = 65536;
        const uint32_t payload = 1024;
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, size));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        const uint16_t liveTid = 1;
        const uint64_t wrapping = TOP - 511;
        Ptr<HostMemory> memory = b->GetHostMemory();
        std::vector<uint8_t> topBefore = Snapshot(memory, wrapping, 512);
        std::vector<uint8_t> bottomBefore = Snapshot(memory, 0, 512);
        // One before registration completes (the dynamic RNIC would buffer
        // it), one while the transfer places data directly. Far-future SNs,
        // so that no frame of the live transfer is taken for them.
        for (Time at : {MicroSeconds(5), MicroSeconds(200)})
        {
            Ptr<Packet> frame =
                MakeDrpFrame(DrpHeader::DATA, liveTid, wrapping, payload, payload, 1000);
            SendFrameAt(at, a, b, frame);
        }
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the live transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "live transfer");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "live transfer byte-exact");
        NS_TEST_EXPECT_MSG_EQ((Snapshot(memory, wrapping, 512) == topBefore),
                              true,
                              "the top of memory is unchanged");
        NS_TEST_EXPECT_MSG_EQ((Snapshot(memory, 0, 512) == bottomBefore),
                              true,
                              "the bottom of memory is unchanged");
        NS_TEST_EXPECT_MSG_EQ(b->GetTransport()->GetDropCount(DrpTransport::OUT_OF_REGION),
                              2,
                              "both frames dropped as out of region");
        NS_TEST_EXPECT_MSG_EQ(b->GetTransport()->GetTotalDrops(), 2, "and nothing else");
        Simulator::Destroy();
    }

    std::string m_method; //!< traditional or dynamic
};

/**
 * \ingroup drp-tests
 * Requests that name an empty region, or one that passes the end of the
 * address space, are answered invalid by the RNIC alone: the host is not
 * asked to register, no state is kept, the simulation goes on, and the live
 * transfer beside them succeeds.
 */
class DrpBadRegionRequestTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpBadRegionRequestTestCase(const std::string& method)
        : TestCase("requests for empty or wrapping regions are answered invalid (" + method + ")"),
          m_method(method)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, 16384));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);

        struct Bad
        {
            uint16_t tid;
            uint64_t dba;
            uint32_t length;
        };

        const std::vector<Bad> bad{{0x100, uint64_t(1) << 32, 0},
                                   {0x101, TOP - 511, 1024},
                                   {0x102, TOP, 1}};
        for (uint32_t i = 0; i < bad.size(); ++i)
        {
            Ptr<Packet> frame =
                MakeDrpFrame(DrpHeader::REQ, bad[i].tid, bad[i].dba, bad[i].length, 0);
            SendFrameAt(MicroSeconds(20 + 10 * i), a, b, frame);
        }
        std::map<uint16_t, uint32_t> invalidReplies;
        b->GetTransport()->TraceConnectWithoutContext(
            "Tx",
            MakeCallback(&DrpBadRegionRequestTestCase::OnTx, this));
        m_invalidReplies = &invalidReplies;
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the live transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "live transfer");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "live transfer byte-exact");
        NS_TEST_EXPECT_MSG_EQ(bed.m_registrationsOk + bed.m_registrationsBad,
                              1,
                              "the host was asked to register only the live transfer's region");
        NS_TEST_EXPECT_MSG_EQ(b->GetTransport()->GetDropCount(DrpTransport::BAD_REGION),
                              bad.size(),
                              "every bad request counted");
        for (const auto& request : bad)
        {
            NS_TEST_EXPECT_MSG_EQ(invalidReplies[request.tid],
                                  1,
                                  "one invalid reply to TID " << request.tid);
        }
        NS_TEST_EXPECT_MSG_EQ(a->GetTransport()->GetDropCount(DrpTransport::UNKNOWN_TID),
                              bad.size(),
                              "the replies reach a port that never asked, and are dropped");
        NS_TEST_EXPECT_MSG_EQ(b->GetTransport()->GetActiveResponded(), 0, "no state kept");
        Simulator::Destroy();
    }

    /// \param frame a DRP frame the responder sent: counts invalid replies
    void OnTx(Ptr<const Packet> frame)
    {
        DrpHeader h;
        frame->PeekHeader(h);
        if (h.HasFlag(DrpHeader::REQ_ACK) && h.GetStatus() == DrpHeader::INVALID)
        {
            ++(*m_invalidReplies)[h.GetTid()];
        }
    }

    std::string m_method;                                    //!< traditional or dynamic
    std::map<uint16_t, uint32_t>* m_invalidReplies{nullptr}; //!< per TID
};

/**
 * \ingroup drp-tests
 * A host releases a region while a transfer still targets it. The RNIC's
 * region table follows at once: later frames are dropped as unregistered,
 * the released memory changes no more, and the transfer ends with an error
 * status instead of writing (or reading) memory the host took back.
 */
class DrpReleasedRegionTestCase : public TestCase
{
  public:
    /// Whose region is released.
    enum Side
    {
        WRITE_RESPONDER, //!< a write's target, at the responder
        READ_INITIATOR,  //!< a read's target, at the initiator
        READ_RESPONDER,  //!< a read's source, at the responder
    };

    /// \param method traditional or dynamic \param side whose region is released
    DrpReleasedRegionTestCase(const std::string& method, Side side)
        : TestCase("a region released mid-transfer is touched no more (" + method + ", " +
                   SideName(side) + ")"),
          m_method(method),
          m_side(side)
    {
    }

  private:
    /// \param side a side \return its name
    static std::string SideName(Side side)
    {
        switch (side)
        {
        case WRITE_RESPONDER:
            return "write, responder's region";
        case READ_INITIATOR:
            return "read, initiator's region";
        default:
            return "read, responder's region";
        }
    }

    void DoRun() override
    {
        const uint32_t size = 262144; // 256 frames: about 2.2 ms on the wire
        bool read = m_side != WRITE_RESPONDER;
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, size, read ? "read" : "write"));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        Ptr<RnicNetDevice> owner = m_side == READ_INITIATOR ? a : b;
        const uint64_t address =
            m_side == READ_INITIATOR ? 0 : uint64_t(a->GetNode()->GetId() + 1) << 32;
        const Time release = MicroSeconds(600);
        std::vector<uint8_t> atRelease;
        // The host takes the region back; a PCIe write already under way may
        // still land, so the memory is compared from one PCIe write later.
        drp::Schedule(release, [owner, address, size]() {
            owner->GetHostMemory()->Deregister(address, size);
        });
        drp::Schedule(release + MicroSeconds(20), [&atRelease, owner, address, size]() {
            atRelease = Snapshot(owner->GetHostMemory(), address, size);
        });
        uint32_t dataAfter = 0;
        if (m_side == READ_RESPONDER)
        {
            // Frames read before the release may still leave: at most
            // TxPrefetch of them wait in the transmit scheduler.
            UintegerValue window;
            b->GetTransport()->GetAttribute("TxPrefetch", window);
            Time drained =
                release + MicroSeconds(20) +
                window.Get() * b->GetSlotTime(EthernetNetDevice::HEADER_SIZE + DrpHeader::SIZE +
                                              1024 + EthernetNetDevice::FCS_SIZE);
            b->GetTransport()->TraceConnectWithoutContext(
                "Tx",
                MakeBoundCallback(&DrpReleasedRegionTestCase::CountDataAfter, &dataAfter, drained));
        }
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        NS_TEST_EXPECT_MSG_NE(bed.Records()[0].GetStatusName(),
                              "success",
                              "it ended with an error status");
        NS_TEST_EXPECT_MSG_GT(bed.Records()[0].end, release, "after the release");
        NS_TEST_EXPECT_MSG_GT(owner->GetTransport()->GetDropCount(DrpTransport::UNREGISTERED),
                              0,
                              "frames refused as unregistered");
        NS_TEST_EXPECT_MSG_EQ((Snapshot(owner->GetHostMemory(), address, size) == atRelease),
                              true,
                              "the released region changed no more");
        NS_TEST_EXPECT_MSG_EQ(dataAfter, 0, "no data read from the released region was sent");
        NS_TEST_EXPECT_MSG_EQ(b->GetHostMemory()->GetRegisteredBytes(), 0, "responder: none left");
        NS_TEST_EXPECT_MSG_EQ(a->GetHostMemory()->GetRegisteredBytes(), 0, "initiator: none left");
        Simulator::Destroy();
    }

    /**
     * \param count data frames sent after \p from
     * \param from the time from which to count
     * \param frame a DRP frame sent
     */
    static void CountDataAfter(uint32_t* count, Time from, Ptr<const Packet> frame)
    {
        DrpHeader h;
        frame->PeekHeader(h);
        *count += Simulator::Now() > from && h.HasFlag(DrpHeader::DATA);
    }

    std::string m_method; //!< traditional or dynamic
    Side m_side;          //!< whose region is released
};

/**
 * \ingroup drp-tests
 * Memory-region safety.
 */
class DrpRegionTestSuite : public TestSuite
{
  public:
    DrpRegionTestSuite()
        : TestSuite("drp-region", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpRegionTableTestCase, DRP_TEST_QUICK);
        for (const std::string method : {"traditional", "dynamic"})
        {
            AddTestCase(new DrpWrappingDataTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpBadRegionRequestTestCase(method), DRP_TEST_QUICK);
            for (auto side : {DrpReleasedRegionTestCase::WRITE_RESPONDER,
                              DrpReleasedRegionTestCase::READ_INITIATOR,
                              DrpReleasedRegionTestCase::READ_RESPONDER})
            {
                AddTestCase(new DrpReleasedRegionTestCase(method, side), DRP_TEST_QUICK);
            }
        }
    }
};

/// The suite's one instance.
static DrpRegionTestSuite g_drpRegionTestSuite;
