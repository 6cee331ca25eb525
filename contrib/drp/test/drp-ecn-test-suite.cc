/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ECN marking in a switch port's egress queue (EcnMarkingQueue): the RED
// rule on the backlog a frame leaves behind, which frames are ECN-capable
// (DRP's field in STATUS, IPv4's in its header), and what a marked frame
// looks like on the wire.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-header.h"
#include "ns3/drp-receiver.h"
#include "ns3/ecn-marking-queue.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/fabric-scenario.h"
#include "ns3/global-value.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"
#include "ns3/rnic-net-device.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>

using namespace ns3;

namespace
{

/// Bytes of every test frame in the queue: Ethernet header, 1000 bytes, FCS.
const uint32_t FRAME_SIZE = 14 + 1000 + 4;

/**
 * \param etherType the frame's EtherType
 * \param payload its payload (protocol header first)
 * \param fcs true: a real CRC-32, false: a zero FCS
 * \return a whole Ethernet frame as a queue holds it
 */
Ptr<Packet>
MakeFrame(uint16_t etherType, Ptr<Packet> payload, bool fcs = false)
{
    Ptr<Packet> frame = payload->Copy();
    EthernetHeader ethernet(false);
    ethernet.SetSource(Mac48Address("00:00:00:00:00:01"));
    ethernet.SetDestination(Mac48Address("00:00:00:00:00:02"));
    ethernet.SetLengthType(etherType);
    frame->AddHeader(ethernet);
    EthernetTrailer trailer;
    trailer.EnableFcs(fcs);
    trailer.CalcFcs(frame);
    frame->AddTrailer(trailer);
    return frame;
}

/**
 * \param ecn the ECN field
 * \return a DRP data frame of FRAME_SIZE bytes
 */
Ptr<Packet>
MakeDrpFrame(DrpHeader::Ecn ecn, bool fcs = false)
{
    DrpHeader header;
    header.SetFlag(DrpHeader::DATA);
    header.SetTid(7);
    header.SetLength(1000 - DrpHeader::SIZE);
    header.SetEcn(ecn);
    Ptr<Packet> payload = Create<Packet>(1000 - DrpHeader::SIZE);
    payload->AddHeader(header);
    return MakeFrame(DrpHeader::PROT_NUMBER, payload, fcs);
}

/**
 * \param frame a DRP frame as MakeDrpFrame makes it
 * \return its ECN field
 */
DrpHeader::Ecn
DrpEcnOf(Ptr<const Packet> frame)
{
    Ptr<Packet> copy = frame->Copy();
    EthernetHeader ethernet(false);
    copy->RemoveHeader(ethernet);
    DrpHeader header;
    copy->PeekHeader(header);
    return header.GetEcn();
}

/**
 * \param minBytes Kmin
 * \param maxBytes Kmax
 * \param pmax Pmax
 * \return a marking queue with room for 1000 frames, its random stream fixed
 */
Ptr<EcnMarkingQueue>
MakeQueue(uint32_t minBytes, uint32_t maxBytes, double pmax)
{
    // DRP's marker is registered by the RNIC, as in any scenario with RNICs.
    CreateObject<RnicNetDevice>();
    Ptr<EcnMarkingQueue> queue = CreateObject<EcnMarkingQueue>();
    queue->SetAttribute("MaxSize", QueueSizeValue(QueueSize("1000p")));
    queue->SetAttribute("MinThreshold", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, minBytes)));
    queue->SetAttribute("MaxThreshold", QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, maxBytes)));
    queue->SetAttribute("MaxProbability", DoubleValue(pmax));
    queue->AssignStreams(11);
    return queue;
}

/**
 * Holds a queue at \p frames frames behind every departure: \p frames are
 * queued first, then each of \p departures frames leaves after one more
 * came.
 * \param queue the queue
 * \param frames backlog each departure leaves behind
 * \param departures frames that leave
 * \param ecn the frames' ECN field
 * \return the frames that left marked CE
 */
uint32_t
RunAtBacklog(Ptr<EcnMarkingQueue> queue, uint32_t frames, uint32_t departures, DrpHeader::Ecn ecn)
{
    for (uint32_t i = 0; i < frames; ++i)
    {
        queue->Enqueue(MakeDrpFrame(ecn));
    }
    uint32_t marked = 0;
    for (uint32_t i = 0; i < departures; ++i)
    {
        queue->Enqueue(MakeDrpFrame(ecn));
        marked += DrpEcnOf(queue->Dequeue()) == DrpHeader::CE;
    }
    return marked;
}

} // namespace

/**
 * \ingroup drp-tests
 * The marking probability as a function of the backlog, exactly.
 */
class DrpEcnRuleTestCase : public TestCase
{
  public:
    DrpEcnRuleTestCase()
        : TestCase("RED rule: 0 up to Kmin, linear to Pmax, 1 from Kmax")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<EcnMarkingQueue> queue = MakeQueue(10000, 50000, 0.2);
        NS_TEST_EXPECT_MSG_EQ(queue->GetMarkProbability(0), 0.0, "empty");
        NS_TEST_EXPECT_MSG_EQ(queue->GetMarkProbability(10000), 0.0, "at Kmin");
        NS_TEST_EXPECT_MSG_EQ_TOL(queue->GetMarkProbability(30000), 0.1, 1e-12, "halfway");
        NS_TEST_EXPECT_MSG_EQ_TOL(queue->GetMarkProbability(49999),
                                  0.2 * 39999 / 40000,
                                  1e-12,
                                  "just below Kmax");
        NS_TEST_EXPECT_MSG_EQ(queue->GetMarkProbability(50000), 1.0, "at Kmax");
        NS_TEST_EXPECT_MSG_EQ(queue->GetMarkProbability(1u << 30), 1.0, "far above");

        // Step (DCTCP's K = MinThreshold): all or nothing, MaxThreshold ignored.
        Ptr<EcnMarkingQueue> step = MakeQueue(10000, 50000, 0.2);
        step->SetAttribute("MarkingMode", StringValue("Step"));
        NS_TEST_EXPECT_MSG_EQ(step->GetMarkProbability(10000), 0.0, "Step: at K, never");
        NS_TEST_EXPECT_MSG_EQ(step->GetMarkProbability(10001), 1.0, "Step: above K, always");
        NS_TEST_EXPECT_MSG_EQ(step->GetMarkProbability(30000), 1.0, "Step: no ramp");

        queue->SetAttribute("MaxThreshold", QueueSizeValue(QueueSize("20p")));
        bool refused = false;
        try
        {
            queue->GetMarkProbability(1);
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("MinThreshold = 10000B") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "thresholds in two units refused, naming them");
    }
};

/**
 * \ingroup drp-tests
 * Frames leaving a held backlog are marked at the rule's rate; never at or
 * below Kmin; always at or above Kmax; never when not ECN-capable.
 */
class DrpEcnRateTestCase : public TestCase
{
  public:
    DrpEcnRateTestCase()
        : TestCase("frames through a held backlog: marked at the RED rate, never below Kmin, "
                   "always above Kmax, never when not ECN-capable")
    {
    }

  private:
    void DoRun() override
    {
        // Kmin 10 frames, Kmax 50 frames (of FRAME_SIZE bytes), Pmax 0.2.
        const uint32_t kmin = 10 * FRAME_SIZE;
        const uint32_t kmax = 50 * FRAME_SIZE;
        const uint32_t n = 20000;

        Ptr<EcnMarkingQueue> below = MakeQueue(kmin, kmax, 0.2);
        NS_TEST_EXPECT_MSG_EQ(RunAtBacklog(below, 10, n, DrpHeader::ECT0), 0, "never at Kmin");
        NS_TEST_EXPECT_MSG_EQ(below->GetMarks(), 0, "none counted");

        Ptr<EcnMarkingQueue> above = MakeQueue(kmin, kmax, 0.2);
        NS_TEST_EXPECT_MSG_EQ(RunAtBacklog(above, 50, n, DrpHeader::ECT0), n, "always at Kmax");
        NS_TEST_EXPECT_MSG_EQ(above->GetMarks(), n, "every one counted");

        // Backlog 30 frames: p = 0.2 x 20 / 40 = 0.1. The count is binomial:
        // within 4 standard deviations (sqrt(n p (1 - p)) = 42.4), a bound a
        // correct queue misses with probability 6e-5 (the stream is fixed,
        // so the run is deterministic).
        Ptr<EcnMarkingQueue> middle = MakeQueue(kmin, kmax, 0.2);
        const double p = 0.1;
        const double sigma = std::sqrt(n * p * (1 - p));
        uint32_t marked = RunAtBacklog(middle, 30, n, DrpHeader::ECT0);
        NS_TEST_EXPECT_MSG_EQ_TOL(double(marked), n * p, 4 * sigma, "marked at the RED rate");
        NS_TEST_EXPECT_MSG_EQ(middle->GetMarks(), marked, "counted");

        Ptr<EcnMarkingQueue> plain = MakeQueue(kmin, kmax, 0.2);
        NS_TEST_EXPECT_MSG_EQ(RunAtBacklog(plain, 50, 1000, DrpHeader::NOT_ECT),
                              0,
                              "Not-ECT frames never marked");
        NS_TEST_EXPECT_MSG_EQ(plain->GetNotCapable(), 1000, "each one the rule picked, counted");
        NS_TEST_EXPECT_MSG_EQ(plain->GetMarks(), 0, "no mark counted");

        // A frame already CE stays CE and counts as marked.
        Ptr<EcnMarkingQueue> ce = MakeQueue(kmin, kmax, 0.2);
        NS_TEST_EXPECT_MSG_EQ(RunAtBacklog(ce, 50, 10, DrpHeader::CE), 10, "CE stays CE");
    }
};

/**
 * \ingroup drp-tests
 * A marked frame on the wire: DRP's STATUS and IPv4's ECN field set to CE,
 * everything else as it was, checksums and FCS correct; other protocols
 * never marked.
 */
class DrpEcnWireTestCase : public TestCase
{
  public:
    DrpEcnWireTestCase()
        : TestCase("a marked frame: CE in DRP's STATUS or IPv4's header, FCS and IPv4 "
                   "checksum recomputed, other EtherTypes left alone")
    {
    }

  private:
    void DoRun() override
    {
        BooleanValue checksums;
        GlobalValue::GetValueByName("ChecksumEnabled", checksums);
        GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));

        // Each frame leaves one frame behind (above Kmax, so it is picked),
        // and that one leaves an empty queue (not picked).
        Ptr<EcnMarkingQueue> queue = MakeQueue(0, 1, 1.0);
        auto pass = [queue](Ptr<Packet> frame) {
            queue->Enqueue(frame);
            queue->Enqueue(MakeFrame(0x88b6, Create<Packet>(100)));
            Ptr<Packet> out = queue->Dequeue();
            queue->Dequeue();
            return out;
        };

        // DRP, with a real FCS: only STATUS bits 7-6 change, and the FCS.
        Ptr<Packet> drp = MakeDrpFrame(DrpHeader::ECT0, true);
        std::vector<uint8_t> before(drp->GetSize());
        drp->CopyData(before.data(), before.size());
        Ptr<Packet> out = pass(drp);
        std::vector<uint8_t> after(out->GetSize());
        out->CopyData(after.data(), after.size());
        NS_TEST_ASSERT_MSG_EQ(after.size(), before.size(), "same size");
        NS_TEST_EXPECT_MSG_EQ(int(after[14 + 1]), 0xc0, "STATUS: CE");
        uint32_t differ = 0;
        for (size_t i = 0; i < after.size() - 4; ++i)
        {
            differ += (i != 14 + 1) && after[i] != before[i];
        }
        NS_TEST_EXPECT_MSG_EQ(differ, 0, "nothing else changed before the FCS");
        NS_TEST_EXPECT_MSG_EQ(FcsGood(out), true, "FCS recomputed");
        NS_TEST_EXPECT_MSG_EQ(FcsGood(drp), true, "the queued frame itself untouched");

        // IPv4, ECT(0): CE, with a good header checksum.
        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.1"));
        ip.SetDestination(Ipv4Address("10.0.0.2"));
        ip.SetProtocol(17);
        ip.SetPayloadSize(100);
        ip.SetTtl(64);
        ip.SetEcn(Ipv4Header::ECN_ECT0);
        ip.EnableChecksum();
        Ptr<Packet> payload = Create<Packet>(100);
        payload->AddHeader(ip);
        Ptr<Packet> ipOut = pass(MakeFrame(0x0800, payload));
        EthernetHeader ethernet(false);
        ipOut->RemoveHeader(ethernet);
        Ipv4Header seen;
        seen.EnableChecksum();
        ipOut->PeekHeader(seen);
        NS_TEST_EXPECT_MSG_EQ(seen.GetEcn(), Ipv4Header::ECN_CE, "IPv4 marked CE");
        NS_TEST_EXPECT_MSG_EQ(seen.IsChecksumOk(), true, "IPv4 checksum recomputed");

        // IPv4 Not-ECT, and an EtherType nobody registered: left alone.
        ip.SetEcn(Ipv4Header::ECN_NotECT);
        Ptr<Packet> plain = Create<Packet>(100);
        plain->AddHeader(ip);
        pass(MakeFrame(0x0800, plain));
        pass(MakeFrame(0x88b5, Create<Packet>(100)));
        NS_TEST_EXPECT_MSG_EQ(queue->GetMarks(), 2, "the DRP and the ECT IPv4 frame");
        NS_TEST_EXPECT_MSG_EQ(queue->GetNotCapable(), 2, "the other two");

        GlobalValue::Bind("ChecksumEnabled", checksums);
    }

    /// \param frame a whole frame \return true if its FCS is right
    static bool FcsGood(Ptr<const Packet> frame)
    {
        Ptr<Packet> copy = frame->Copy();
        EthernetTrailer trailer;
        copy->RemoveTrailer(trailer);
        trailer.EnableFcs(true);
        return trailer.CheckFcs(copy);
    }
};

/**
 * \ingroup drp-tests
 * The notification point: a CE mark makes the next ACK carry a CNP, at most
 * one per CnpInterval per transfer.
 */
class DrpEcnNotificationPointTestCase : public TestCase
{
  public:
    DrpEcnNotificationPointTestCase()
        : TestCase("notification point: at most one CNP per interval per transfer")
    {
    }

  private:
    void DoRun() override
    {
        const Time interval = MicroSeconds(50);
        DrpReceiver receiver;
        NS_TEST_EXPECT_MSG_EQ(receiver.TakeCongestionNotification(Time(0)), false, "no mark yet");
        receiver.NoteCongestion(MicroSeconds(1), interval);
        NS_TEST_EXPECT_MSG_EQ(receiver.TakeCongestionNotification(MicroSeconds(2)),
                              true,
                              "the first mark: the next ACK carries a CNP");
        NS_TEST_EXPECT_MSG_EQ(receiver.TakeCongestionNotification(MicroSeconds(3)),
                              false,
                              "one CNP per mark");
        receiver.NoteCongestion(MicroSeconds(51), interval);
        NS_TEST_EXPECT_MSG_EQ(receiver.TakeCongestionNotification(MicroSeconds(51)),
                              false,
                              "49 us after the last CNP: none");
        receiver.NoteCongestion(MicroSeconds(52), interval);
        NS_TEST_EXPECT_MSG_EQ(receiver.TakeCongestionNotification(MicroSeconds(53)),
                              true,
                              "50 us after it: the next");
        NS_TEST_EXPECT_MSG_EQ(receiver.GetCongestionNotifications(), 2, "two sent");
    }
};

/**
 * \ingroup drp-tests
 * An incast whose switch queue marks: CE marks on the bottleneck port, CNPs
 * back to the senders (at most one per CnpInterval per transfer), and,
 * without rate control, every FCT as without ECN.
 */
class DrpEcnFabricTestCase : public TestCase
{
  public:
    DrpEcnFabricTestCase()
        : TestCase("8:1 incast with ECN: marks on the bottleneck, CNPs to the senders, FCTs "
                   "unchanged without rate control")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config plain;
        plain.hosts = 9;
        FabricScenario::Config ecn = plain;
        ecn.ecn = true;
        FabricScenario::Result without = FabricScenario::Run(plain);
        FabricScenario::Result with = FabricScenario::Run(ecn);

        NS_TEST_EXPECT_MSG_EQ(without.GetEcnMarks(), 0, "no marks without ECN");
        NS_TEST_EXPECT_MSG_EQ(without.GetCnps(), 0, "no CNPs without ECN");
        NS_TEST_EXPECT_MSG_GT(with.GetEcnMarks(), 0, "the bottleneck marks");
        uint64_t bottleneckMarks = 0;
        for (const auto& port : with.ports)
        {
            bottleneckMarks = std::max(bottleneckMarks, port.ecnMarks);
        }
        NS_TEST_EXPECT_MSG_EQ(bottleneckMarks, with.GetEcnMarks(), "all on one port");
        NS_TEST_EXPECT_MSG_GT(with.GetCnps(), 0, "the senders hear of it");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(with.GetCnps(), with.GetEcnMarks(), "at most one per mark");
        NS_TEST_ASSERT_MSG_EQ(with.transfers.size(), without.transfers.size(), "same flows");
        for (size_t i = 0; i < with.transfers.size(); ++i)
        {
            const DrpTransferRecord& r = with.transfers[i].record;
            const int64_t periods = r.GetDuration().GetNanoSeconds() / 50000;
            NS_TEST_EXPECT_MSG_LT_OR_EQ(int64_t(r.cnps),
                                        periods + 1,
                                        "transfer " << i << ": one CNP per 50 us at most");
            NS_TEST_EXPECT_MSG_EQ(r.GetDuration(),
                                  without.transfers[i].record.GetDuration(),
                                  "transfer " << i << ": the same FCT");
        }
    }
};

/**
 * \ingroup drp-tests
 * ECN marking in switch queues.
 */
class DrpEcnTestSuite : public TestSuite
{
  public:
    DrpEcnTestSuite()
        : TestSuite("drp-ecn", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpEcnRuleTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpEcnRateTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpEcnWireTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpEcnNotificationPointTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpEcnFabricTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpEcnTestSuite g_drpEcnTestSuite;
