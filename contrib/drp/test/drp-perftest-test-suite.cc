/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// perftest's tools checked against first principles: a large message moves
// at the line's goodput for the DRP frame, each frame a message grows by
// adds exactly one frame's wire time to its latency, and the report has
// perftest's lines.

#include "drp-test-bed.h"

#include "ns3/boolean.h"
#include "ns3/drp-header.h"
#include "ns3/drp-transport.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/rdma-perftest.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-v2-frame.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <functional>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/**
 * Runs one perftest between two RNICs joined by a cable.
 * \param test the test \param size bytes \param iterations messages
 * \param method the RNICs' method \param configure sets more attributes
 * \param [out] device the client's RNIC (for its rate and payload)
 * \return the perftest, run
 */
Ptr<RdmaPerftest>
RunPerftest(const std::string& test,
            uint32_t size,
            uint32_t iterations,
            const std::string& method,
            Ptr<RnicNetDevice>& device,
            std::function<void(Ptr<RdmaPerftest>)> configure = nullptr)
{
    NodeContainer nodes;
    nodes.Create(2);
    RnicHelper rnic;
    rnic.SetMethod(method);
    NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
    Ptr<RdmaPerftest> perftest = CreateObject<RdmaPerftest>();
    perftest->SetTest(test);
    perftest->SetSize(size);
    perftest->SetIterations(iterations);
    if (configure)
    {
        configure(perftest);
    }
    device = DynamicCast<RnicNetDevice>(devices.Get(0));
    perftest->Setup(device, DynamicCast<RnicNetDevice>(devices.Get(1)));
    Simulator::Run();
    return perftest;
}

/// \param device an RNIC \return a full data frame's time on the wire (preamble and gap included)
Time
FrameWireTime(Ptr<RnicNetDevice> device)
{
    const uint32_t frame = EthernetNetDevice::HEADER_SIZE + DrpHeader::SIZE +
                           device->GetTransport()->GetPayloadSize() + EthernetNetDevice::FCS_SIZE;
    return device->GetDataRate().CalculateBytesTxTime(device->GetWireSize(frame));
}

/// \param device an RNIC \return the goodput of back-to-back full data frames, Gb/s
double
GoodputGbps(Ptr<RnicNetDevice> device)
{
    const double payloadBits = 8.0 * device->GetTransport()->GetPayloadSize();
    return payloadBits / FrameWireTime(device).GetSeconds() / 1e9;
}

} // namespace

/**
 * \ingroup drp-tests
 * Options are checked, with the valid values named.
 */
class DrpPerftestOptionsTestCase : public TestCase
{
  public:
    DrpPerftestOptionsTestCase()
        : TestCase("perftest: bad options are refused with the valid values named")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaPerftest> p = CreateObject<RdmaPerftest>();
        NS_TEST_EXPECT_MSG_EQ(RdmaPerftest::ParseTest("read_lat"),
                              RdmaPerftest::READ_LAT,
                              "a name");
        NS_TEST_EXPECT_MSG_NE(drptest::RefusalOf([p]() { p->SetTest("atomic_bw"); }).find("valid:"),
                              std::string::npos,
                              "atomic_bw");
        NS_TEST_EXPECT_MSG_NE(drptest::RefusalOf([p]() {
                                  p->SetAttribute("Atomic", StringValue("XOR"));
                              }).find("FETCH_AND_ADD, CMP_AND_SWAP"),
                              std::string::npos,
                              "an unknown atomic");
        NS_TEST_EXPECT_MSG_NE(drptest::RefusalOf([p]() { p->SetSize(0); }).find("Size"),
                              std::string::npos,
                              "size 0");
        NS_TEST_EXPECT_MSG_NE(drptest::RefusalOf([p]() { p->SetSize(8388609); }).find("Size"),
                              std::string::npos,
                              "size 8 MiB + 1");
        NS_TEST_EXPECT_MSG_NE(drptest::RefusalOf([p]() { p->SetIterations(4); }).find("Iterations"),
                              std::string::npos,
                              "4 iterations");
        NS_TEST_EXPECT_MSG_NE(drptest::RefusalOf([p]() { p->SetQps(65); }).find("Qps"),
                              std::string::npos,
                              "65 QPs");
        NS_TEST_EXPECT_MSG_NE(drptest::RefusalOf([p]() { p->SetTxDepth(0); }).find("TxDepth"),
                              std::string::npos,
                              "tx depth 0");
    }
};

/**
 * \ingroup drp-tests
 * Bandwidth: 8 MiB messages move at the goodput of full data frames at the
 * line rate (payload / wire time of the frame) less the time of the
 * responder's per-message registrations that the data does not hide (every
 * one for WRITE and SEND, which move one at a time per queue pair; the
 * first for READ), within 0.1 %, never above; four queue
 * pairs share it; both ways at once more than one way, each at most the
 * goodput; peak at least the average.
 */
class DrpPerftestBandwidthTestCase : public TestCase
{
  public:
    DrpPerftestBandwidthTestCase()
        : TestCase("perftest: a large message's bandwidth is the line's goodput")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string method : {"dynamic", "traditional"})
        {
            for (const std::string test : {"write_bw", "read_bw", "send_bw"})
            {
                Ptr<RnicNetDevice> device;
                Ptr<RdmaPerftest> p = RunPerftest(test, 8388608, 5, method, device);
                const std::string what = method + " " + test;
                NS_TEST_ASSERT_MSG_EQ(p->IsDone(), true, what << ": ran");
                NS_TEST_ASSERT_MSG_EQ(p->GetBwResults().size(), 1u, what << ": one line");
                const RdmaPerftest::BwResult r = p->GetBwResults()[0];
                const double goodput = GoodputGbps(device);
                NS_TEST_EXPECT_MSG_EQ(r.iterations, 5u, what << ": iterations");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(r.averageGbps, goodput, what << ": at most goodput");
                // The responder's host registers each message's 2,048 pages
                // (8 us + 2,048 x 375 ns, RdmaContext's defaults) before the
                // data flows: WRITEs and SENDs of a queue pair move one at a
                // time, so each pays it; READs overlap (max_rd_atomic), so only
                // the first's shows.
                const Time registration =
                    MicroSeconds(8) + NanoSeconds(375) * int64_t(8388608 / 4096);
                const double exposed = test == "read_bw" ? 1 : 5;
                const double seconds = 5 * 8.0 * 8388608 / (goodput * 1e9);
                const double expected =
                    goodput * seconds / (seconds + exposed * registration.GetSeconds());
                NS_TEST_EXPECT_MSG_LT_OR_EQ(r.averageGbps, expected, what << ": at most");
                NS_TEST_EXPECT_MSG_GT(r.averageGbps,
                                      0.999 * expected,
                                      what << ": goodput less the registrations shown");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(r.peakGbps, r.averageGbps - 1e-9, what << ": peak");
                NS_TEST_EXPECT_MSG_EQ_TOL(r.msgRateMpps,
                                          r.averageGbps * 1e3 / (8.0 * 8388608),
                                          1e-9,
                                          what << ": message rate");
                Simulator::Destroy();
            }
        }
        Ptr<RnicNetDevice> device;
        Ptr<RdmaPerftest> four =
            RunPerftest("write_bw", 65536, 50, "dynamic", device, [](Ptr<RdmaPerftest> p) {
                p->SetQps(4);
            });
        const double goodput = GoodputGbps(device);
        NS_TEST_ASSERT_MSG_EQ(four->GetBwResults().size(), 1u, "four QPs: one line");
        NS_TEST_EXPECT_MSG_EQ(four->GetBwResults()[0].iterations, 200u, "50 per QP");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(four->GetBwResults()[0].averageGbps,
                                    goodput,
                                    "four QPs share the goodput");
        NS_TEST_EXPECT_MSG_GT(four->GetBwResults()[0].averageGbps, 0.95 * goodput, "and fill it");
        Simulator::Destroy();
        Ptr<RdmaPerftest> both =
            RunPerftest("write_bw", 1048576, 10, "dynamic", device, [](Ptr<RdmaPerftest> p) {
                p->SetAttribute("Bidirectional", BooleanValue(true));
            });
        NS_TEST_ASSERT_MSG_EQ(both->GetBwResults().size(), 1u, "bidirectional: one line");
        NS_TEST_EXPECT_MSG_EQ(both->GetBwResults()[0].iterations, 20u, "both ends' messages");
        NS_TEST_EXPECT_MSG_GT(both->GetBwResults()[0].averageGbps,
                              1.5 * goodput,
                              "both ways: more than one way (the ACKs share each line)");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(both->GetBwResults()[0].averageGbps,
                                    2 * goodput,
                                    "at most twice");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Latency: on a cable with no loss the samples settle at one value
 * (t_typical = t_max; t_min may be the first, which meets no earlier
 * transfer's release on the wire);
 * a message one full frame longer takes exactly one more frame's wire time,
 * two frames longer two, for WRITE, READ and SEND, on both methods.
 */
class DrpPerftestLatencyTestCase : public TestCase
{
  public:
    DrpPerftestLatencyTestCase()
        : TestCase("perftest: each frame more adds one frame's wire time to the latency")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string method : {"dynamic", "traditional"})
        {
            for (const std::string test : {"write_lat", "read_lat", "send_lat"})
            {
                const std::string what = method + " " + test;
                double typical[3];
                Time frame;
                for (uint32_t k = 0; k < 3; ++k)
                {
                    Ptr<RnicNetDevice> device;
                    const uint32_t payload = 1024; // the default card's PayloadSize
                    Ptr<RdmaPerftest> p = RunPerftest(test, payload << k, 20, method, device);
                    NS_TEST_ASSERT_MSG_EQ(device->GetTransport()->GetPayloadSize(),
                                          payload,
                                          what << ": the payload assumed");
                    frame = FrameWireTime(device);
                    NS_TEST_ASSERT_MSG_EQ(p->GetLatResults().size(), 1u, what << ": one line");
                    const RdmaPerftest::LatResult r = p->GetLatResults()[0];
                    // The first round trips meet no earlier transfer's release
                    // on the wire; from then on every one is the same.
                    NS_TEST_EXPECT_MSG_EQ_TOL(r.typical, r.max, 0.002, what << ": steady");
                    NS_TEST_EXPECT_MSG_LT_OR_EQ(r.min, r.typical, what << ": t_min");
                    NS_TEST_EXPECT_MSG_EQ(p->GetErrors(), 0u, what << ": no error");
                    typical[k] = r.typical;
                    Simulator::Destroy();
                }
                const double us = frame.GetSeconds() * 1e6;
                NS_TEST_EXPECT_MSG_EQ_TOL(typical[1] - typical[0],
                                          us,
                                          0.002,
                                          what << ": one frame more, one wire time more");
                NS_TEST_EXPECT_MSG_EQ_TOL(typical[2] - typical[1],
                                          2 * us,
                                          0.002,
                                          what << ": two frames more, two");
            }
        }
    }
};

/**
 * \ingroup drp-tests
 * perftest over RoCE: a large message moves at the line's goodput for a
 * RoCEv2 packet of the path MTU (1024 bytes: Ethernet, IPv4, UDP, BTH,
 * payload, ICRC, FCS, preamble and gap), with no registration per message;
 * a message one packet longer takes exactly one packet's wire time more
 * (on the 1 Gb/s card, 4 bytes more for a READ's LAST response, which
 * carries an AETH).
 */
class DrpPerftestRoceTestCase : public TestCase
{
  public:
    DrpPerftestRoceTestCase()
        : TestCase("perftest over roce: goodput for the path MTU, one packet's time per packet")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t mtu = 1024; // RdmaQpAttr's default path MTU
        for (const std::string test : {"write_bw", "read_bw", "send_bw"})
        {
            Ptr<RnicNetDevice> device;
            Ptr<RdmaPerftest> p = RunPerftest(test, 8388608, 5, "roce", device);
            NS_TEST_ASSERT_MSG_EQ(p->GetBwResults().size(), 1u, test << ": one line");
            const uint32_t packet = EthernetNetDevice::HEADER_SIZE + RoceV2Frame::OVERHEAD +
                                    IbBthHeader::SIZE + mtu + EthernetNetDevice::FCS_SIZE;
            const Time wire =
                device->GetDataRate().CalculateBytesTxTime(device->GetWireSize(packet));
            const double goodput = 8.0 * mtu / wire.GetSeconds() / 1e9;
            const double average = p->GetBwResults()[0].averageGbps;
            NS_TEST_EXPECT_MSG_LT_OR_EQ(average, goodput, test << ": at most goodput");
            NS_TEST_EXPECT_MSG_GT(average, 0.999 * goodput, test << ": the goodput");
            NS_TEST_EXPECT_MSG_EQ(p->GetErrors(), 0u, test << ": no error");
            Simulator::Destroy();
        }
        for (const std::string test : {"write_lat", "read_lat", "send_lat"})
        {
            double typical[3];
            Time wire;
            Time aethTime;
            for (uint32_t k = 0; k < 3; ++k)
            {
                Ptr<RnicNetDevice> device;
                Ptr<RdmaPerftest> p = RunPerftest(test, mtu << k, 20, "roce", device);
                aethTime = device->GetDataRate().CalculateBytesTxTime(IbAethHeader::SIZE);
                const uint32_t packet = EthernetNetDevice::HEADER_SIZE + RoceV2Frame::OVERHEAD +
                                        IbBthHeader::SIZE + mtu + EthernetNetDevice::FCS_SIZE;
                wire = device->GetDataRate().CalculateBytesTxTime(device->GetWireSize(packet));
                NS_TEST_ASSERT_MSG_EQ(p->GetLatResults().size(), 1u, test << ": one line");
                NS_TEST_EXPECT_MSG_EQ_TOL(p->GetLatResults()[0].typical,
                                          p->GetLatResults()[0].max,
                                          0.002,
                                          test << ": steady");
                typical[k] = p->GetLatResults()[0].typical;
                Simulator::Destroy();
            }
            const double us = wire.GetSeconds() * 1e6;
            // A READ of two responses (FIRST, LAST) against one (ONLY): the
            // extra packet carries an AETH, 4 bytes; two more are MIDDLEs.
            const double aeth = test == "read_lat" ? aethTime.GetSeconds() * 1e6 : 0;
            NS_TEST_EXPECT_MSG_EQ_TOL(typical[1] - typical[0],
                                      us + aeth,
                                      0.002,
                                      test << ": one packet more, one wire time more");
            NS_TEST_EXPECT_MSG_EQ_TOL(typical[2] - typical[1],
                                      2 * us,
                                      0.002,
                                      test << ": two packets more, two");
        }
    }
};

/**
 * \ingroup drp-tests
 * ib_atomic_lat: an atomic is an 8-byte read whose request carries the
 * 32-byte extension, so its latency is read_lat's at 8 bytes plus the
 * longer request's wire time (82 bytes against the 64 of a padded REQ),
 * for both operations and both methods.
 */
class DrpPerftestAtomicTestCase : public TestCase
{
  public:
    DrpPerftestAtomicTestCase()
        : TestCase("perftest: atomic_lat is read_lat at 8 bytes plus the longer request")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string method : {"dynamic", "traditional"})
        {
            Ptr<RnicNetDevice> device;
            Ptr<RdmaPerftest> read = RunPerftest("read_lat", 8, 20, method, device);
            NS_TEST_ASSERT_MSG_EQ(read->GetLatResults().size(), 1u, method << ": read_lat");
            const double readUs = read->GetLatResults()[0].typical;
            const DataRate rate = device->GetDataRate();
            Simulator::Destroy();
            // 14 + 32 + 32 + 4 bytes against 14 + 46 + 4 (preamble and gap in both).
            const double extraUs = rate.CalculateBytesTxTime(82 - 64).GetSeconds() * 1e6;
            for (const std::string operation : {"FETCH_AND_ADD", "CMP_AND_SWAP"})
            {
                const std::string what = method + " " + operation;
                Ptr<RdmaPerftest> atomic =
                    RunPerftest("atomic_lat", 8, 20, method, device, [&](Ptr<RdmaPerftest> p) {
                        p->SetAttribute("Atomic", StringValue(operation));
                    });
                NS_TEST_ASSERT_MSG_EQ(atomic->GetLatResults().size(), 1u, what << ": one line");
                NS_TEST_EXPECT_MSG_EQ(atomic->GetErrors(), 0u, what << ": no error");
                NS_TEST_EXPECT_MSG_EQ(atomic->GetLatResults()[0].bytes, 8u, what << ": 8 bytes");
                NS_TEST_EXPECT_MSG_EQ_TOL(atomic->GetLatResults()[0].typical,
                                          readUs + extraUs,
                                          0.002,
                                          what << ": read_lat plus the request's 18 bytes");
                Simulator::Destroy();
            }
        }
    }
};

/**
 * \ingroup drp-tests
 * -a runs every size from 2 bytes to 8 MiB, doubling, one line each, and
 * the report has perftest's header.
 */
class DrpPerftestReportTestCase : public TestCase
{
  public:
    DrpPerftestReportTestCase()
        : TestCase("perftest: all sizes, one line each, perftest's columns")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RnicNetDevice> device;
        Ptr<RdmaPerftest> p =
            RunPerftest("send_bw", 2, 5, "dynamic", device, [](Ptr<RdmaPerftest> p) {
                p->SetAttribute("AllSizes", BooleanValue(true));
            });
        NS_TEST_ASSERT_MSG_EQ(p->GetBwResults().size(), 23u, "2 B to 8 MiB");
        for (uint32_t i = 0; i < 23; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p->GetBwResults()[i].bytes, 2u << i, "doubling");
        }
        std::ostringstream os;
        p->Print(os);
        NS_TEST_EXPECT_MSG_NE(
            os.str().find(
                " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"),
            std::string::npos,
            "perftest's bandwidth columns");
        NS_TEST_EXPECT_MSG_NE(os.str().find(" 8388608    5 "), std::string::npos, os.str());
        Simulator::Destroy();
        p = RunPerftest("read_lat", 2, 10, "dynamic", device);
        std::ostringstream lat;
        p->Print(lat);
        NS_TEST_EXPECT_MSG_NE(lat.str().find("t_typical[usec]"), std::string::npos, lat.str());
        NS_TEST_EXPECT_MSG_NE(lat.str().find("99.9% percentile[usec]"),
                              std::string::npos,
                              lat.str());
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * perftest's tools.
 */
class DrpPerftestTestSuite : public TestSuite
{
  public:
    DrpPerftestTestSuite()
        : TestSuite("drp-perftest", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpPerftestOptionsTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPerftestBandwidthTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPerftestLatencyTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPerftestRoceTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPerftestAtomicTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPerftestReportTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's instance.
static DrpPerftestTestSuite g_drpPerftestTestSuite;
