/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What a responder admits: only regions granted to the peer, a bounded number
// of transfer records per peer and in all, bounded registered memory, and no
// record for early data that the indirect buffer could not keep.

#include "drp-test-bed.h"

#include "ns3/drp-compat.h"
#include "ns3/enum.h"
#include "ns3/host-memory.h"
#include "ns3/indirect-buffer.h"
#include "ns3/pointer.h"
#include "ns3/test.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::drptest;

namespace
{

/**
 * \param tid transfer id
 * \param dba the region named
 * \param length its bytes
 * \return a write request
 */
Ptr<Packet>
MakeRequest(uint16_t tid, uint64_t dba, uint32_t length)
{
    return MakeDrpFrame(DrpHeader::REQ, tid, dba, length, 0);
}

} // namespace

/**
 * \ingroup drp-tests
 * Grants. Under the default policy (workload) a request from the initiator
 * for a region outside its own workload's is refused by the host: answered
 * invalid, counted and traced, never registered; the workload's transfer
 * succeeds. Under "explicit" the workload needs a Grant(); under "any" every
 * valid region is registered.
 */
class DrpGrantTestCase : public TestCase
{
  public:
    /// \param policy workload, explicit or any \param grant call Grant() for the workload
    DrpGrantTestCase(const std::string& policy, bool grant)
        : TestCase("grants: " + policy + (grant ? " with Grant()" : "")),
          m_policy(policy),
          m_grant(grant)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t size = 16384;
        RnicHelper rnic;
        RdmaHostHelper host = MakeWorkload(1, size);
        host.SetAttribute("Grants", StringValue(m_policy));
        PointToPointBed bed(rnic, host);
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        const uint64_t window = uint64_t(a->GetNode()->GetId() + 1) << 32;
        if (m_grant)
        {
            bed.App(1)->Grant(Mac48Address::ConvertFrom(a->GetAddress()), window, size);
        }
        // Another host's window, and the responder's own memory at 0.
        const uint64_t elsewhere = uint64_t(b->GetNode()->GetId() + 1) << 32;
        SendFrameAt(MicroSeconds(30), a, b, MakeRequest(0x200, elsewhere, 4096));
        SendFrameAt(MicroSeconds(40), a, b, MakeRequest(0x201, 0, 4096));
        uint32_t refusedTraced = 0;
        bed.App(1)->TraceConnectWithoutContext(
            "RequestRefused",
            MakeBoundCallback(&DrpGrantTestCase::OnRefused, &refusedTraced));
        std::vector<uint64_t> registeredAt; // registered bytes of b at each registration
        b->GetHostMemory()->TraceConnectWithoutContext(
            "Registration",
            MakeBoundCallback(&DrpGrantTestCase::OnRegistration, &registeredAt, b));
        bed.Run();

        bool any = m_policy == "any";
        bool workloadGranted = m_policy != "explicit" || m_grant;
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the workload's transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(),
                              std::string(workloadGranted ? "success" : "handshake-failed"),
                              "the workload's transfer");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        uint64_t refused = bed.App(1)->GetRefusedRequests(RdmaHostApplication::NOT_GRANTED);
        // Each forged request is sent once; the workload's is repeated on every expiry.
        uint32_t forgedRefused = any ? 0 : 2;
        if (workloadGranted)
        {
            NS_TEST_EXPECT_MSG_EQ(refused, forgedRefused, "requests refused as not granted");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(refused, forgedRefused, "the workload's requests refused too");
        }
        NS_TEST_EXPECT_MSG_EQ(refusedTraced, refused, "every refusal traced");
        NS_TEST_EXPECT_MSG_EQ(bed.m_registrationsOk,
                              (workloadGranted ? 1u : 0u) + (any ? 2u : 0u),
                              "registrations");
        uint64_t most =
            registeredAt.empty() ? 0 : *std::max_element(registeredAt.begin(), registeredAt.end());
        NS_TEST_EXPECT_MSG_LT_OR_EQ(most,
                                    (workloadGranted ? size : 0) + (any ? 8192 : 0),
                                    "nothing else was ever registered");
        Simulator::Destroy();
    }

    /// \param count refusals
    static void OnRefused(uint32_t* count,
                          Mac48Address,
                          uint16_t,
                          uint64_t,
                          uint32_t,
                          RdmaHostApplication::Refusal)
    {
        ++*count;
    }

    /**
     * \param registeredAt registered bytes after each change
     * \param rnic whose memory
     */
    static void OnRegistration(std::vector<uint64_t>* registeredAt,
                               Ptr<RnicNetDevice> rnic,
                               uint64_t,
                               uint32_t,
                               bool)
    {
        registeredAt->push_back(rnic->GetHostMemory()->GetRegisteredBytes());
    }

    std::string m_policy; //!< grant policy
    bool m_grant;         //!< Grant() the workload's region
};

/**
 * \ingroup drp-tests
 * 20,000 requests from one host, each for a new TID and a distinct 1 GiB
 * region (the responder grants any region; registering one takes 98 ms, less
 * than the responder's idle time): the responder keeps at most
 * MaxTransfersPerPeer records, registers at most MaxRegisteredBytesPerPeer
 * for the peer, and counts every request it turns away; the honest transfer
 * among them succeeds byte-exact.
 */
class DrpRequestFloodTestCase : public TestCase
{
  public:
    DrpRequestFloodTestCase()
        : TestCase("20,000 requests from one host: records and registered memory stay bounded")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t requests = 20000;
        const uint32_t regionBytes = 1u << 30;
        RnicHelper rnic;
        RdmaHostHelper host = MakeWorkload(1, 65536);
        host.SetAttribute("Grants", StringValue("any"));
        // As many CPUs as records: the admitted registrations run at once, so
        // that the limit on registered memory is what stops them.
        host.SetCpuAttribute("Count", UintegerValue(1024));
        PointToPointBed bed(rnic, host);
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        for (uint32_t i = 0; i < requests; ++i)
        {
            uint64_t dba = (uint64_t(1) << 40) + uint64_t(i) * regionBytes;
            SendFrameAt(MicroSeconds(20) + NanoSeconds(1500) * i,
                        a,
                        b,
                        MakeRequest(2 + i, dba, regionBytes));
        }
        Peak peak;
        b->GetTransport()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&DrpRequestFloodTestCase::OnRx, &peak, b));
        bed.Run();

        Ptr<DrpTransport> responder = b->GetTransport();
        UintegerValue perPeer;
        responder->GetAttribute("MaxTransfersPerPeer", perPeer);
        UintegerValue bytesPerPeer;
        bed.App(1)->GetAttribute("MaxRegisteredBytesPerPeer", bytesPerPeer);
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the honest transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "honest transfer");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(peak.requestsSeen, requests, "every request arrived");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(peak.records, perPeer.Get(), "records bounded per peer");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(peak.registered,
                                    bytesPerPeer.Get(),
                                    "registered bytes bounded");
        uint64_t turnedAway = responder->GetDropCount(DrpTransport::NO_RESOURCES);
        uint64_t refused = bed.App(1)->GetRefusedRequests(RdmaHostApplication::PEER_LIMIT);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(turnedAway,
                                    requests - perPeer.Get(),
                                    "records refused, counted");
        NS_TEST_EXPECT_MSG_GT(refused, 0, "registrations over the limit refused, counted");
        NS_TEST_EXPECT_MSG_EQ(responder->GetActiveResponded(), 0, "all forgotten in the end");
        NS_TEST_EXPECT_MSG_EQ(b->GetHostMemory()->GetRegisteredBytes(), 0, "all released");
        Simulator::Destroy();
    }

    /// The most the responder held at once.
    struct Peak
    {
        uint32_t requestsSeen{0}; //!< flood requests received
        size_t records{0};        //!< responder records
        uint64_t registered{0};   //!< registered bytes
    };

    /**
     * \param peak updated
     * \param b the responder's RNIC
     * \param frame a frame it received
     */
    static void OnRx(Peak* peak, Ptr<RnicNetDevice> b, Ptr<const Packet> frame)
    {
        DrpHeader h;
        frame->PeekHeader(h);
        peak->requestsSeen += h.HasFlag(DrpHeader::REQ) && h.GetTid() != 1; // not the honest one
        peak->records = std::max(peak->records, b->GetTransport()->GetActiveResponded());
        peak->registered = std::max(peak->registered, b->GetHostMemory()->GetRegisteredBytes());
    }
};

/**
 * \ingroup drp-tests
 * Write data for transfers nobody requested, at a dynamic RNIC whose
 * indirect buffer holds two frames: the first two are kept (and make a
 * record each), the rest are refused as buffer-full and leave no record.
 */
class DrpEarlyDataRecordTestCase : public TestCase
{
  public:
    DrpEarlyDataRecordTestCase()
        : TestCase("early data the indirect buffer refuses leaves no record")
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        rnic.SetIndirectBufferAttribute("Capacity", UintegerValue(2048));
        PointToPointBed bed(rnic, MakeWorkload(0, 16384));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        for (uint16_t i = 0; i < 10; ++i)
        {
            Ptr<Packet> frame =
                MakeDrpFrame(DrpHeader::DATA, 0x300 + i, 0x900000000ULL, 1024, 1024);
            SendFrameAt(MicroSeconds(10 + 10 * i), a, b, frame);
        }
        size_t records = 0;
        drp::Schedule(MicroSeconds(200),
                      [&records, b]() { records = b->GetTransport()->GetActiveResponded(); });
        bed.Run();

        NS_TEST_EXPECT_MSG_EQ(records, 2, "a record for each frame kept, none for the others");
        NS_TEST_EXPECT_MSG_EQ(b->GetTransport()->GetDropCount(DrpTransport::BUFFER_FULL),
                              8,
                              "the others refused");
        NS_TEST_EXPECT_MSG_EQ(b->GetTransport()->GetActiveResponded(), 0, "all forgotten");
        NS_TEST_EXPECT_MSG_EQ(b->GetTransport()->GetIndirectBuffer()->GetOccupancy(),
                              0,
                              "buffer empty in the end");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * What a responder admits.
 */
class DrpAdmissionTestSuite : public TestSuite
{
  public:
    DrpAdmissionTestSuite()
        : TestSuite("drp-admission", DRP_TEST_SYSTEM)
    {
        AddTestCase(new DrpGrantTestCase("workload", false), DRP_TEST_QUICK);
        AddTestCase(new DrpGrantTestCase("explicit", false), DRP_TEST_QUICK);
        AddTestCase(new DrpGrantTestCase("explicit", true), DRP_TEST_QUICK);
        AddTestCase(new DrpGrantTestCase("any", false), DRP_TEST_QUICK);
        AddTestCase(new DrpRequestFloodTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpEarlyDataRecordTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's one instance.
static DrpAdmissionTestSuite g_drpAdmissionTestSuite;
