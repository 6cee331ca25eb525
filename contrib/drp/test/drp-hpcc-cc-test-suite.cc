/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HPCC: the INT extension's wire format, the switch ports that stamp it and
// the acknowledgements that echo it (read back from captures), the window
// rule driven by explicit telemetry, and fabric runs.

#include "drp-test-bed.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/drp-header.h"
#include "ns3/drp-hpcc.h"
#include "ns3/drp-int-header.h"
#include "ns3/drp-receiver.h"
#include "ns3/fabric-scenario.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \param h a header \return its serialized bytes
std::vector<uint8_t>
Bytes(const DrpIntHeader& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/// \param rate a line rate \param ns the time \param tx bytes sent \param q bytes queued
/// \return a one-hop extension
DrpIntHeader
OneHop(DataRate rate, uint64_t ns, uint64_t tx, uint64_t q)
{
    DrpIntHeader h;
    h.PushHop(rate, NanoSeconds(ns), tx, q);
    return h;
}

} // namespace

/**
 * \ingroup drp-tests
 * The extension byte for byte: NHOP, then each hop's 64-bit word (RATE,
 * TIME, BYTES, QLEN); units, saturation, wrap-around and the hop limit.
 */
class DrpIntHeaderTestCase : public TestCase
{
  public:
    DrpIntHeaderTestCase()
        : TestCase("INT extension: layout, units, wrap-around, at most 5 hops")
    {
    }

  private:
    void DoRun() override
    {
        DrpIntHeader h;
        NS_TEST_EXPECT_MSG_EQ(h.GetSerializedSize(), 42, "2 + 5 x 8 bytes, as HPCC's");
        h.PushHop(DataRate("40Gbps"), NanoSeconds(1000), 128 * 5, 80 * 7);
        const std::vector<uint8_t> b = Bytes(h);
        NS_TEST_ASSERT_MSG_EQ(b.size(), 42, "its size");
        NS_TEST_EXPECT_MSG_EQ(int(b[0]), 1, "NHOP");
        uint64_t word = 0;
        for (int i = 2; i < 10; ++i)
        {
            word = (word << 8) | b[i];
        }
        NS_TEST_EXPECT_MSG_EQ(uint64_t(word >> 61), 3, "RATE: code 3 is 40 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(uint64_t((word >> 37) & 0xffffff), 1000, "TIME in ns");
        NS_TEST_EXPECT_MSG_EQ(uint64_t((word >> 17) & 0xfffff), 5, "BYTES in 128-byte units");
        NS_TEST_EXPECT_MSG_EQ(uint64_t(word & 0x1ffff), 7, "QLEN in 80-byte units");

        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        DrpIntHeader back;
        p->RemoveHeader(back);
        NS_TEST_ASSERT_MSG_EQ(int(back.GetHopCount()), 1, "read back");
        NS_TEST_EXPECT_MSG_EQ(back.GetHop(0).rateBps, 40000000000ULL, "the rate");
        NS_TEST_EXPECT_MSG_EQ(back.GetHop(0).GetQueueBytes(), 560, "7 x 80 bytes");

        // Differences wrap: TIME modulo 2^24 ns, BYTES modulo 2^20 x 128.
        const DrpIntHeader early = OneHop(DataRate("100Gbps"), (1 << 24) - 100, 0, 0);
        const DrpIntHeader late = OneHop(DataRate("100Gbps"), (1 << 24) + 400, 128 * 10, 0);
        NS_TEST_EXPECT_MSG_EQ(late.GetHop(0).NanosecondsSince(early.GetHop(0)), 500, "wraps");
        const DrpIntHeader before = OneHop(DataRate("100Gbps"), 0, 128 * ((1 << 20) - 2), 0);
        const DrpIntHeader after = OneHop(DataRate("100Gbps"), 0, 128 * ((1 << 20) + 3), 0);
        NS_TEST_EXPECT_MSG_EQ(after.GetHop(0).BytesSince(before.GetHop(0)), 5 * 128, "wraps");
        const DrpIntHeader full = OneHop(DataRate("10Gbps"), 0, 0, 100000000);
        NS_TEST_EXPECT_MSG_EQ(full.GetHop(0).qlen, (1 << 17) - 1, "QLEN saturates");

        DrpIntHeader six;
        for (int i = 0; i < 6; ++i)
        {
            six.PushHop(DataRate("25Gbps"), NanoSeconds(i), 0, 0);
        }
        NS_TEST_EXPECT_MSG_EQ(int(six.GetHopCount()), 5, "a sixth hop is not recorded");

        NS_TEST_EXPECT_MSG_EQ(DrpIntHeader::IsEncodable(DataRate("25Gbps")), true, "25G");
        NS_TEST_EXPECT_MSG_EQ(DrpIntHeader::IsEncodable(DataRate("2500Mbps")), false, "2.5G");

        // Stamp() adds a hop to a DRP frame that carries the extension only.
        DrpHeader data;
        data.SetFlag(DrpHeader::DATA);
        data.SetLength(8);
        Ptr<Packet> plain = Create<Packet>(8);
        plain->AddHeader(data);
        NS_TEST_EXPECT_MSG_EQ(DrpIntHeader::Stamp(plain, DataRate("40Gbps"), Seconds(0), 0, 0),
                              false,
                              "no INT flag: unchanged");
        data.SetTelemetry(true);
        Ptr<Packet> carrying = Create<Packet>(8);
        carrying->AddHeader(DrpIntHeader());
        carrying->AddHeader(data);
        NS_TEST_EXPECT_MSG_EQ(
            DrpIntHeader::Stamp(carrying, DataRate("40Gbps"), MicroSeconds(2), 1280, 160),
            true,
            "stamped");
        DrpHeader header;
        DrpIntHeader stamped;
        carrying->RemoveHeader(header);
        carrying->RemoveHeader(stamped);
        NS_TEST_EXPECT_MSG_EQ(int(stamped.GetHopCount()), 1, "one hop");
        NS_TEST_EXPECT_MSG_EQ(stamped.GetHop(0).timeNs, 2000, "its time");
        NS_TEST_EXPECT_MSG_EQ(stamped.GetHop(0).bytes, 10, "its bytes sent");
        NS_TEST_EXPECT_MSG_EQ(carrying->GetSize(), 8, "the payload follows");
    }
};

/**
 * \ingroup drp-tests
 * The window rule from explicit telemetry: a link used at 50 % with no
 * queue gives additive increases, then a multiplicative step towards eta
 * after MaxStage; a link at 100 % with a queue cuts R by U / eta.
 */
class DrpHpccRuleTestCase : public TestCase
{
  public:
    DrpHpccRuleTestCase()
        : TestCase("HPCC: U from the hops, additive increase, MaxStage, the cut by U over eta")
    {
    }

  private:
    /**
     * An acknowledgement of one more frame with one hop at \p ns.
     * \param cc the scheme
     * \param n its number (SetSequence: the ACK covers frame n; the eight
     *        frames after it are on the wire)
     * \param ns the hop's time
     * \param tx the hop's bytes sent
     * \param q the hop's queue
     */
    static void Ack(Ptr<DrpHpcc> cc, uint32_t n, uint64_t ns, uint64_t tx, uint64_t q)
    {
        cc->SetSequence(n, n + 8, n + 8);
        cc->OnTelemetry(OneHop(DataRate("100Gbps"), ns, tx, q));
        cc->OnAck(1, false);
    }

    void DoRun() override
    {
        Ptr<DrpHpcc> cc = CreateObject<DrpHpcc>();
        cc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
        cc->Start(DataRate("100Gbps"), 1024);
        cc->OnSent(1000);
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "starts at the line rate");
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 125, "R x T: 125,000 bytes in 1,000-byte frames");
        // 50 Gb/s through the hop (62,500 bytes per 10 us), no queue: u = 0.5.
        // Each acknowledgement covers the frame that was next at the one
        // before: one update (R_c, incStage) per round trip.
        uint32_t n = 1;
        auto next = [&n]() { return n += 9; };
        Ack(cc, n, 0, 0, 0); // the first stamps: recorded only
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "no change yet");
        // tau = T: U = u = 0.5 < eta; R_AI at 100 Gb/s = 10 Mb/s x 4 = 40 Mb/s.
        Ack(cc, next(), 10000, 62500, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetUtilization(), 0.5, 0.01, "U");
        NS_TEST_EXPECT_MSG_EQ(cc->GetIncreaseStage(), 1, "additive increase");
        for (uint32_t k = 2; k <= 5; ++k)
        {
            Ack(cc, next(), 10000 * k, 62500 * k, 0);
        }
        NS_TEST_EXPECT_MSG_EQ(cc->GetIncreaseStage(), 5, "five additive increases");
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "capped at the line rate");
        Ack(cc, next(), 60000, 62500 * 6, 0);
        NS_TEST_EXPECT_MSG_EQ(cc->GetIncreaseStage(), 0, "MaxStage: a multiplicative step");
        // Now 100 % through the hop: u = 1 (the queue counts its smaller stamp, 0),
        // U = 1 > eta: a cut.
        Ack(cc, next(), 70000, 62500 * 6 + 125000, 62500);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetUtilization(), 1.0, 0.01, "U");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetReferenceRate().GetBitRate()),
                                  100e9 / (cc->GetUtilization() / 0.95) + 40e6,
                                  1e3,
                                  "R_c / (U / eta) + R_AI");
        // And a 62,500-byte queue on both stamps: u = 1 + 62,480 / 125,000.
        const double reference = double(cc->GetReferenceRate().GetBitRate());
        Ack(cc, next(), 80000, 62500 * 6 + 250000, 62500);
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetUtilization(), 1.5, 0.01, "U");
        const double want = reference / (cc->GetUtilization() / 0.95) + 40e6;
        NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetCurrentRate().GetBitRate()),
                                  want,
                                  1e3,
                                  "the cut by U / eta, plus R_AI");
        NS_TEST_EXPECT_MSG_LT(cc->GetWindow(), 125, "the window follows R x T");
        cc->Stop();
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * cc = hpcc on a 40 Gb/s star: the data frames carry one hop stamped by the
 * switch, the acknowledgements echo it (read from the captures); the queue
 * stays near empty and nothing is dropped; port rates telemetry cannot
 * carry and payloads that leave no room for it are refused.
 */
class DrpHpccFabricTestCase : public TestCase
{
  public:
    DrpHpccFabricTestCase()
        : TestCase("cc = hpcc: switches stamp, receivers echo, the queue stays near empty")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 3;
        config.degree = 2;
        config.bytes = 2 * 1000 * 1000;
        config.hostRate = DataRate("40Gbps");
        config.window = 1024;
        config.queue = "8MB";
        config.cc = "hpcc";
        config.rates = true;
        config.queueInterval = MicroSeconds(1);
        const std::string prefix = CreateTempDirFilename("hpcc");
        config.pcap = prefix;
        const FabricScenario::Result result = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 2, "both succeed");
        NS_TEST_EXPECT_MSG_EQ(result.GetDrops(), 0, "no drop");
        NS_TEST_EXPECT_MSG_GT(result.rates.size(), 0, "the rates change");
        uint64_t peak = 0;
        for (const auto& p : result.ports)
        {
            peak = std::max<uint64_t>(peak, p.stats.peakBytes);
        }
        NS_TEST_EXPECT_MSG_LT(peak, 100000, "a queue far below the 8 MB the port has");

        std::set<int> dataHops;
        std::set<int> ackHops;
        uint32_t ackRateCode = 0;
        for (uint32_t node = 0; node < 8; ++node)
        {
            for (uint32_t device = 0; device < 8; ++device)
            {
                const std::string file =
                    prefix + "-" + std::to_string(node) + "-" + std::to_string(device) + ".pcap";
                if (!std::ifstream(file).good())
                {
                    continue;
                }
                CountHops(file, dataHops, ackHops, ackRateCode);
            }
        }
        NS_TEST_EXPECT_MSG_EQ((dataHops == std::set<int>{0, 1}),
                              true,
                              "data frames leave empty and arrive with the switch's hop");
        std::string seen;
        for (int h : ackHops)
        {
            seen += std::to_string(h) + " ";
        }
        NS_TEST_EXPECT_MSG_EQ((ackHops == std::set<int>{1}),
                              true,
                              "every acknowledgement echoes one hop; seen: " << seen);
        NS_TEST_EXPECT_MSG_EQ(ackRateCode, 3, "the hop's rate: 40 Gb/s");

        FabricScenario::Config slow = config;
        slow.pcap = "";
        slow.hostRate = DataRate("2500Mbps");
        const std::string rate = drptest::RefusalOf([&slow]() { FabricScenario::Run(slow); });
        NS_TEST_EXPECT_MSG_NE(rate.find("valid port rates: 1Gbps, 10Gbps"),
                              std::string::npos,
                              rate);
        FabricScenario::Config big = config;
        big.pcap = "";
        big.payload = 1440;
        const std::string room = drptest::RefusalOf([&big]() { big.Validate(); });
        NS_TEST_EXPECT_MSG_NE(room.find("at most mtu - 74 = 1426"), std::string::npos, room);
    }

    /**
     * \param file a capture
     * \param dataHops NHOP of every data frame with telemetry (out)
     * \param ackHops NHOP of every acknowledgement with telemetry (out)
     * \param ackRateCode RATE of an acknowledgement's first hop (out)
     */
    static void CountHops(const std::string& file,
                          std::set<int>& dataHops,
                          std::set<int>& ackHops,
                          uint32_t& ackRateCode)
    {
        for (const auto& data :
             drptest::ReadCapture(file).value_or(std::vector<std::vector<uint8_t>>{}))
        {
            // Ethernet (14), the DRP header (CTRL at 14, STATUS at 15), INT at 46.
            if (data.size() < 56 || data[12] != 0x01 || data[13] != 0xff || (data[15] & 0x02) == 0)
            {
                continue;
            }
            const uint8_t ctrl = data[14];
            if (ctrl & DrpHeader::DATA)
            {
                dataHops.insert(data[46]);
            }
            else if (ctrl == DrpHeader::ACK)
            {
                ackHops.insert(data[46]);
                ackRateCode = data[48] >> 5;
            }
        }
    }
};

/**
 * \ingroup drp-tests
 * A flow joins a running one on a 100 Gb/s star with cc = hpcc: within 1 ms
 * both hold half the line, within 10 % (HPCC's fast convergence). It
 * failed while an acknowledgement echoed the latest data frame's
 * telemetry instead of its own frame's (a frame that arrived while the one
 * before it was still written to host memory gave the sender one set of
 * stamps twice and none for the frame between: the flows locked at 36 and
 * 58 Gb/s), and while the pacer rounded each frame's spacing to a whole
 * nanosecond (63 and 31.5 Gb/s). The receiver's bookkeeping is checked
 * alone too.
 */
class DrpHpccJoinTestCase : public TestCase
{
  public:
    DrpHpccJoinTestCase()
        : TestCase("cc = hpcc: each ACK echoes its own frame's stamps; a joiner gets its share")
    {
    }

  private:
    void DoRun() override
    {
        DrpReceiver receiver;
        receiver.NoteTelemetry(0, OneHop(DataRate("100Gbps"), 100, 0, 0));
        receiver.NoteTelemetry(1, OneHop(DataRate("100Gbps"), 200, 0, 0));
        NS_TEST_EXPECT_MSG_EQ(receiver.GetTelemetry()->GetHop(0).timeNs,
                              200,
                              "an acknowledgement sent at once echoes the latest frame");
        receiver.EchoTelemetryOf(0);
        NS_TEST_EXPECT_MSG_EQ(receiver.GetTelemetry()->GetHop(0).timeNs,
                              100,
                              "frame 0 landed: its acknowledgement echoes its own stamps");
        receiver.EchoTelemetryOf(1);
        NS_TEST_EXPECT_MSG_EQ(receiver.GetTelemetry()->GetHop(0).timeNs, 200, "then frame 1's");

        Config::SetDefault("ns3::RdmaHostApplication::RegistrationFixedLatency",
                           TimeValue(Seconds(0)));
        Config::SetDefault("ns3::RdmaHostApplication::RegistrationLatencyPerPage",
                           TimeValue(Seconds(0)));
        FabricScenario::Config config;
        config.hosts = 3;
        config.degree = 2;
        config.bytes = 25 * 1000 * 1000;
        config.hostRate = DataRate("100Gbps");
        config.window = 1024;
        config.queue = "8MB";
        config.cc = "hpcc";
        config.method = "traditional";
        config.timeoutMode = "adaptive";
        config.stagger = MilliSeconds(1);
        config.flowRateInterval = MilliSeconds(1);
        const FabricScenario::Result result = FabricScenario::Run(config);
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 2, "both succeed");
        NS_TEST_EXPECT_MSG_EQ(result.GetDrops(), 0, "no drop");
        // The second millisecond after the join: [2, 3) ms.
        std::map<uint32_t, double> rates;
        for (const auto& sample : result.flowRates)
        {
            if (sample.time == MilliSeconds(2))
            {
                rates[sample.transfer] = sample.GetWireRate(config.flowRateInterval);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(rates.size(), 2, "both flows send from 2 to 3 ms");
        const double share = (rates[0] + rates[1]) / 2;
        NS_TEST_EXPECT_MSG_GT(share * 2, 0.9e11, "the line is used");
        for (const auto& [transfer, rate] : rates)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(rate / share,
                                      1.0,
                                      0.1,
                                      "flow " << transfer << ": " << rate / 1e9
                                              << " Gb/s, within 10 % of the fair share");
        }
    }
};

/**
 * \ingroup drp-tests
 * HPCC and its in-band telemetry.
 */
class DrpHpccCcTestSuite : public TestSuite
{
  public:
    DrpHpccCcTestSuite()
        : TestSuite("drp-hpcc-cc", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpIntHeaderTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHpccRuleTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHpccFabricTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHpccJoinTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpHpccCcTestSuite g_drpHpccCcTestSuite;
