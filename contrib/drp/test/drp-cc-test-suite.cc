/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Congestion control at the RNIC: DCQCN's reaction point and a DCTCP-style
// window driven by explicit calls, the base class that changes nothing, and
// fabric runs (two flows on one bottleneck, an incast).

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-congestion-ops.h"
#include "ns3/drp-dcqcn.h"
#include "ns3/drp-dctcp.h"
#include "ns3/drp-transport.h"
#include "ns3/ecn-marking-queue.h"
#include "ns3/ethernet-helper.h"
#include "ns3/fabric-scenario.h"
#include "ns3/fabric-workload-helper.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rnic-helper.h"
#include "ns3/simulator.h"
#include "ns3/star-fabric-helper.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/// The paper's line rate: RateAi, RateHai and MinRate apply unscaled.
const DataRate LINE("40Gbps");

/**
 * \param attributes name/value pairs set on the object
 * \return a DrpDcqcn started at 40 Gb/s with a window of 8
 */
Ptr<DrpDcqcn>
MakeDcqcn(const std::map<std::string, Ptr<AttributeValue>>& attributes = {}, DataRate line = LINE)
{
    Ptr<DrpDcqcn> cc = CreateObject<DrpDcqcn>();
    for (const auto& [name, value] : attributes)
    {
        cc->SetAttribute(name, *value);
    }
    cc->Start(line, 8);
    return cc;
}

/// \param rate a rate \return it in Gb/s
double
Gbps(DataRate rate)
{
    return double(rate.GetBitRate()) / 1e9;
}

/// \param seen where alpha goes \param cc the object
void
LookAlpha(std::vector<double>* seen, Ptr<DrpDcqcn> cc)
{
    seen->push_back(cc->GetAlpha());
}

/// \param seen where (current, target) go, Gb/s \param cc the object
void
LookRates(std::vector<std::pair<double, double>>* seen, Ptr<DrpDcqcn> cc)
{
    seen->emplace_back(Gbps(cc->GetCurrentRate()), Gbps(cc->GetTargetRate()));
}

/// \param cc receives a CNP
void
Cnp(Ptr<DrpDcqcn> cc)
{
    cc->OnAck(1, true);
}

/// \param targets the target now, then after each of 7 byte stages \param cc the object
void
SendAndLook(std::vector<double>* targets, Ptr<DrpDcqcn> cc)
{
    targets->push_back(Gbps(cc->GetTargetRate()));
    for (int j = 1; j <= 7; ++j)
    {
        cc->OnSent(1000);
        targets->push_back(Gbps(cc->GetTargetRate()));
    }
}

} // namespace

/**
 * \ingroup drp-tests
 * A CNP: target = current, current x (1 - alpha/2), then alpha moves
 * towards 1 by g.
 */
class DrpDcqcnCutTestCase : public TestCase
{
  public:
    DrpDcqcnCutTestCase()
        : TestCase("DCQCN: a CNP cuts the current rate by half of alpha and raises alpha")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DrpDcqcn> cc = MakeDcqcn({{"InitialAlpha", Create<DoubleValue>(0.5)}});
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "starts at the line rate: unpaced");
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 8, "the configured window");
        cc->OnAck(1, false);
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "an ACK without CNP changes nothing");
        cc->OnAck(1, true);
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()), 40 * 0.75, 1e-9, "40 x (1 - 0.5/2)");
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetTargetRate()), 40, 1e-9, "target: the old rate");
        const double alpha = (1 - 1.0 / 256) * 0.5 + 1.0 / 256;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-12, "(1 - g) alpha + g");
        cc->OnAck(0, true); // a repeated ACKN with the CNP counts too
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()), 30 * (1 - alpha / 2), 1e-9, "cut again");
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetTargetRate()), 30, 1e-9, "target: 30");
        cc->Stop();
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Without CNPs alpha decays by (1 - g) per alpha timer K.
 */
class DrpDcqcnAlphaTestCase : public TestCase
{
  public:
    DrpDcqcnAlphaTestCase()
        : TestCase("DCQCN: alpha decays by (1 - g) per alpha timer without CNPs")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DrpDcqcn> cc = MakeDcqcn();
        cc->OnAck(1, true);
        const double alpha = cc->GetAlpha(); // 1: (1 - g) 1 + g
        NS_TEST_EXPECT_MSG_EQ_TOL(alpha, 1.0, 1e-12, "from 1");
        std::vector<double> seen;
        for (int k = 1; k <= 3; ++k)
        {
            Simulator::Schedule(MicroSeconds(55 * k) + NanoSeconds(1), &LookAlpha, &seen, cc);
        }
        // A CNP at 200 us restarts the alpha timer: no decay at 220 us.
        Simulator::Schedule(MicroSeconds(200), &Cnp, cc);
        Simulator::Schedule(MicroSeconds(254), &LookAlpha, &seen, cc);
        Simulator::Schedule(MicroSeconds(256), &LookAlpha, &seen, cc);
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();
        const double g = 1.0 / 256;
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 5, "five looks");
        for (int k = 1; k <= 3; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(seen[k - 1],
                                      std::pow(1 - g, k),
                                      1e-12,
                                      "after " << k << " K");
        }
        const double before = std::pow(1 - g, 3); // 165 us: three decays
        const double afterCnp = (1 - g) * before + g;
        NS_TEST_EXPECT_MSG_EQ_TOL(seen[3], afterCnp, 1e-12, "254 us: the CNP's update only");
        NS_TEST_EXPECT_MSG_EQ_TOL(seen[4], afterCnp * (1 - g), 1e-12, "255 us: K after the CNP");
        cc->Stop();
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Fast recovery halves the distance to the target per timer step, F steps;
 * then additive increase raises the target by R_AI per step.
 */
class DrpDcqcnRecoveryTestCase : public TestCase
{
  public:
    DrpDcqcnRecoveryTestCase()
        : TestCase("DCQCN: fast recovery halves the distance to the target for F steps, then "
                   "additive increase")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DrpDcqcn> cc = MakeDcqcn({{"ByteCounter", Create<UintegerValue>(0)}});
        cc->OnAck(1, true); // 20, target 40, alpha 1
        cc->OnAck(1, true); // 10, target 20
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()), 10, 1e-9, "two cuts: 10 Gb/s");
        std::vector<std::pair<double, double>> seen; // current, target
        for (int k = 1; k <= 7; ++k)
        {
            Simulator::Schedule(MicroSeconds(55 * k) + NanoSeconds(1), &LookRates, &seen, cc);
        }
        Simulator::Stop(MicroSeconds(400));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 7, "seven steps");
        for (int k = 1; k <= 5; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(seen[k - 1].first,
                                      20 - 10 / std::pow(2, k),
                                      1e-6,
                                      "fast recovery step " << k);
            NS_TEST_EXPECT_MSG_EQ_TOL(seen[k - 1].second, 20, 1e-9, "target kept");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(seen[5].second, 20.04, 1e-6, "step 6: target + R_AI");
        NS_TEST_EXPECT_MSG_EQ_TOL(seen[5].first, (20.04 + seen[4].first) / 2, 1e-6, "halfway");
        NS_TEST_EXPECT_MSG_EQ_TOL(seen[6].second, 20.08, 1e-6, "step 7: + R_AI again");
        NS_TEST_EXPECT_MSG_EQ(cc->GetTimerStages(), 7, "seven timer stages");
        cc->Stop();
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The byte counter: a stage per B bytes sent; both counters past F: hyper
 * increase by (min(i, j) - F) R_HAI.
 */
class DrpDcqcnByteCounterTestCase : public TestCase
{
  public:
    DrpDcqcnByteCounterTestCase()
        : TestCase("DCQCN: the byte counter makes increase stages; both counters past F: hyper "
                   "increase")
    {
    }

  private:
    void DoRun() override
    {
        // Byte counter alone (the timer far off).
        Ptr<DrpDcqcn> bytes = MakeDcqcn({{"ByteCounter", Create<UintegerValue>(10000)},
                                         {"IncreaseInterval", Create<TimeValue>(Seconds(1))}});
        bytes->OnAck(1, true); // 20, target 40
        bytes->OnSent(5000);
        NS_TEST_EXPECT_MSG_EQ(bytes->GetByteStages(), 0, "half a counter: no stage");
        bytes->OnSent(5000);
        NS_TEST_EXPECT_MSG_EQ(bytes->GetByteStages(), 1, "B bytes: a stage");
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(bytes->GetRate()), 30, 1e-9, "fast recovery: halfway");
        bytes->Stop();
        Simulator::Destroy();

        // Timer to i = 6, then byte stages: additive while j <= F, hyper from j = F + 1.
        Ptr<DrpDcqcn> cc = MakeDcqcn({{"ByteCounter", Create<UintegerValue>(1000)},
                                      {"IncreaseInterval", Create<TimeValue>(MicroSeconds(10))},
                                      {"AlphaInterval", Create<TimeValue>(Seconds(1))}});
        cc->OnAck(1, true);
        cc->OnAck(1, true); // 10, target 20
        std::vector<double> targets;
        Simulator::Schedule(MicroSeconds(65), &SendAndLook, &targets, cc); // i = 6
        Simulator::Stop(MicroSeconds(66));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(targets.size(), 8, "eight looks");
        NS_TEST_EXPECT_MSG_EQ_TOL(targets[0], 20.04, 1e-6, "i = 6: additive");
        for (int j = 1; j <= 5; ++j)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(targets[j] - targets[j - 1],
                                      0.04,
                                      1e-6,
                                      "j = " << j << ": additive (min(i, j) <= F)");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(targets[6] - targets[5], 0.2, 1e-6, "j = 6: hyper, 1 x R_HAI");
        NS_TEST_EXPECT_MSG_EQ_TOL(targets[7] - targets[6], 0.2, 1e-6, "j = 7: min(i, j) = 6");
        cc->Stop();
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The rate stays within [MinRate, line rate]; the steps scale with the line
 * rate.
 */
class DrpDcqcnBoundsTestCase : public TestCase
{
  public:
    DrpDcqcnBoundsTestCase()
        : TestCase("DCQCN: never below the minimum rate nor above the line rate; steps scaled "
                   "to the line rate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DrpDcqcn> cc = MakeDcqcn();
        for (int k = 0; k < 30; ++k)
        {
            cc->OnAck(1, true);
        }
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate("100Mbps"), "MinRate at 40 Gb/s");
        cc->Stop();
        Simulator::Destroy();

        // One cut, then a long recovery: the target stays at the line rate.
        Ptr<DrpDcqcn> up = MakeDcqcn({{"ByteCounter", Create<UintegerValue>(1000)}});
        up->OnAck(1, true);
        for (int k = 0; k < 200; ++k)
        {
            up->OnSent(1000);
        }
        NS_TEST_EXPECT_MSG_EQ(up->GetTargetRate(), LINE, "target at most the line rate");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(up->GetCurrentRate(), LINE, "current at most the line rate");
        NS_TEST_EXPECT_MSG_EQ(up->GetRate(), DataRate(0), "back at the line rate: unpaced");
        up->Stop();
        Simulator::Destroy();

        // At 1 Gb/s: MinRate 100 Mb/s x 1/40, R_AI 40 Mb/s x 1/40.
        Ptr<DrpDcqcn> slow =
            MakeDcqcn({{"ByteCounter", Create<UintegerValue>(0)}}, DataRate("1Gbps"));
        for (int k = 0; k < 30; ++k)
        {
            slow->OnAck(1, true);
        }
        NS_TEST_EXPECT_MSG_EQ(slow->GetRate(), DataRate("2.5Mbps"), "MinRate scaled");
        slow->Stop();
        Simulator::Destroy();
        Ptr<DrpDcqcn> ai =
            MakeDcqcn({{"ByteCounter", Create<UintegerValue>(0)}}, DataRate("1Gbps"));
        ai->OnAck(1, true);
        ai->OnAck(1, true); // 0.25, target 0.5
        Simulator::Stop(MicroSeconds(6 * 55 + 1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(ai->GetTargetRate(), DataRate("501Mbps"), "R_AI scaled: 1 Mb/s");
        ai->Stop();
        Simulator::Destroy();

        // The byte counter scales too: 10 MB at 40 Gb/s is 250 KB at 1 Gb/s, 25 MB at 100.
        for (const auto& [rate, threshold] :
             std::vector<std::pair<std::string, uint64_t>>{{"1Gbps", 250000},
                                                           {"10Gbps", 2500000},
                                                           {"40Gbps", 10000000},
                                                           {"100Gbps", 25000000},
                                                           {"400Gbps", 100000000}})
        {
            Ptr<DrpDcqcn> counted = MakeDcqcn({}, DataRate(rate));
            NS_TEST_EXPECT_MSG_EQ(counted->GetByteThreshold(), threshold, "B at " << rate);
            counted->OnAck(1, true);
            counted->OnSent(uint32_t(threshold - 1));
            NS_TEST_EXPECT_MSG_EQ(counted->GetByteStages(), 0, rate << ": a byte short");
            counted->OnSent(1);
            NS_TEST_EXPECT_MSG_EQ(counted->GetByteStages(), 1, rate << ": a stage at B");
            counted->Stop();
            Simulator::Destroy();
        }
        Ptr<DrpDcqcn> none = MakeDcqcn({{"ByteCounter", Create<UintegerValue>(0)}});
        NS_TEST_EXPECT_MSG_EQ(none->GetByteThreshold(), 0, "0: no byte counter");
        none->Stop();
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * DCTCP reacts at large windows: four 2 MB writes with Window 1024 into one
 * 200-frame queue that marks (adaptive timers). Without congestion control
 * the queue overflows (thousands of frames dropped); with DCTCP, which
 * starts at its initial window and cuts once per round trip, nothing is
 * dropped and the incast still ends within 2 % of the line's time for its
 * 8 MB. Before, both runs printed the same: DCTCP reacted only after 1,024
 * frames were acknowledged.
 */
class DrpDctcpLargeWindowTestCase : public TestCase
{
  public:
    DrpDctcpLargeWindowTestCase()
        : TestCase("DCTCP: a window of 1024 frames does not flood the queue")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 5;
        config.window = 1024;
        config.bytes = 2000000;
        config.queue = "200p";
        config.ecn = true;
        config.timeoutMode = "adaptive";
        const FabricScenario::Result none = FabricScenario::Run(config);
        config.cc = "dctcp";
        const FabricScenario::Result dctcp = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_GT(none.GetDrops(), 1000u, "without: the queue overflows");
        NS_TEST_EXPECT_MSG_EQ(dctcp.GetDrops(), 0u, "DCTCP: nothing dropped");
        NS_TEST_EXPECT_MSG_EQ(dctcp.Count(DrpTransferRecord::SUCCESS), 4u, "every write");
        // 8 MB of payload at 1 Gb/s, 1024 of each 1094 bytes on the wire.
        const double line = 8e6 * 8 / 1e9 * 1094 / 1024;
        NS_TEST_EXPECT_MSG_LT(dctcp.simulatedTime.GetSeconds(), line * 1.02, "near the line");
        // DCTCP's own marking: a step at K = 20 frames (its paper's K at 1 Gb/s).
        config.ecnMarking = "step";
        config.ecnMin = "20p";
        const FabricScenario::Result step = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(step.GetDrops(), 0u, "step marking: nothing dropped");
        NS_TEST_EXPECT_MSG_GT(step.GetEcnMarks(), 0u, "frames marked above K");
        NS_TEST_EXPECT_MSG_LT(step.simulatedTime.GetSeconds(), line * 1.02, "near the line");
    }
};

/**
 * \ingroup drp-tests
 * DCTCP: the initial window and slow start, alpha once per window of data,
 * at most one cut per window of data by alpha/2, then one frame per round
 * trip; the bounds. The test plays the sender: each acknowledgement covers
 * one frame, and before it the sender had filled the window it had.
 */
class DrpDctcpWindowTestCase : public TestCase
{
  public:
    DrpDctcpWindowTestCase()
        : TestCase("DCTCP: slow start, alpha per window of data, one cut per window")
    {
    }

  private:
    /**
     * One frame acknowledged, as DrpSender reports it.
     * \param cc the scheme
     * \param marked the ACK carried the echo
     */
    static void Ack(Ptr<DrpDctcp> cc, bool marked)
    {
        const uint32_t una = cc->GetUna();
        // The frames sent before this ACK: the window the sender had, filled.
        const uint32_t next = std::max(cc->GetNextSequence(), una + cc->GetWindow());
        cc->SetSequence(una + 1, next, next);
        cc->OnAck(1, marked);
    }

    void DoRun() override
    {
        Ptr<DrpDctcp> cc = CreateObject<DrpDctcp>(); // g = 1/16, alpha from 1
        cc->SetAttribute("InitialWindow", UintegerValue(8));
        cc->Start(DataRate("1Gbps"), 64);
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 8, "the initial window, not the configured 64");
        for (int f = 0; f < 8; ++f)
        {
            Ack(cc, false);
        }
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 16, "slow start: one frame per frame acknowledged");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), 15.0 / 16, 1e-12, "the first window: F = 0");
        // The next window of data: frames 8 to 22 (sent while the first was acknowledged).
        Ack(cc, true);
        const double cut = 16 * (1 - 15.0 / 32); // 8.5
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCongestionWindow(), cut, 1e-12, "W (1 - alpha/2)");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetSlowStartThreshold(), cut, 1e-12, "ssthresh too");
        for (int f = 0; f < 5; ++f)
        {
            Ack(cc, true);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCongestionWindow(),
                                  cut,
                                  1e-12,
                                  "one cut per window of data, however many echoes");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), 15.0 / 16, 1e-12, "alpha waits for the window");
        while (cc->GetUna() < 22)
        {
            Ack(cc, false); // the rest of frames 8 to 22, unmarked: 6 of 14 marked
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(),
                                  15.0 / 16 * 15 / 16 + 6.0 / 14 / 16,
                                  1e-12,
                                  "alpha once, from F = 6/14");
        NS_TEST_EXPECT_MSG_EQ_TOL(
            cc->GetCongestionWindow(),
            cut,
            1e-12,
            "no growth before the frames sent before the cut are acknowledged");
        // Past the cut's frames (sent up to 22 + 8), unmarked: + 1/W per frame.
        while (cc->GetUna() < 31)
        {
            Ack(cc, false);
        }
        NS_TEST_EXPECT_MSG_GT(cc->GetCongestionWindow(), cut, "congestion avoidance grows");
        NS_TEST_EXPECT_MSG_LT(cc->GetCongestionWindow(), cut + 1.01, "by about one per window");
        for (int k = 0; k < 400; ++k)
        {
            Ack(cc, true);
        }
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 1, "at least one frame");
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "no round-trip sample yet: unpaced");
        cc->OnAck(0, true);
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 1, "a repeat counts no frame");
        Ptr<DrpCongestionOps> fork = cc->Fork();
        fork->Start(DataRate("1Gbps"), 4);
        NS_TEST_EXPECT_MSG_EQ(fork->GetWindow(), 4, "a fork starts afresh, within the window");
        NS_TEST_EXPECT_MSG_EQ(fork->GetName(), "dctcp", "its name");
    }
};

/**
 * \ingroup drp-tests
 * DCTCP's pacing: PacingRatio (SlowStartPacingRatio in slow start) times
 * W / srtt, srtt RFC 6298's average of the samples; unpaced before the
 * first sample and with Pacing false.
 */
class DrpDctcpPacingTestCase : public TestCase
{
  public:
    DrpDctcpPacingTestCase()
        : TestCase("DCTCP: paced at 2 (slow start) or 1.2 times W over the smoothed round trip")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DrpDctcp> cc = CreateObject<DrpDctcp>();
        cc->SetAttribute("InitialWindow", UintegerValue(8));
        cc->Start(DataRate("10Gbps"), 64);
        NS_TEST_EXPECT_MSG_EQ(cc->NeedsRttSamples(), true, "pacing needs round-trip samples");
        cc->OnSent(1000);
        cc->SetSequence(1, 8, 8);
        cc->OnAck(1, false);
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "no sample yet: unpaced");
        cc->OnRttSample(MicroSeconds(40));
        cc->SetSequence(2, 9, 9);
        cc->OnAck(1, false); // slow start: W = 10
        NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate().GetBitRate()),
                                  2 * 10 * 8000 / 40e-6,
                                  1.0,
                                  "slow start: 2 x W / srtt");
        cc->OnRttSample(MicroSeconds(80)); // srtt 40 + (80 - 40) / 8 = 45 us
        cc->SetSequence(3, 11, 11);
        cc->OnAck(1, true); // the echo: W = ssthresh = 10 (1 - 1/2)
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCongestionWindow(), 5.0, 1e-12, "the cut");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(cc->GetRate().GetBitRate()),
                                  1.2 * 5 * 8000 / 45e-6,
                                  1.0,
                                  "at the threshold: 1.2 x W / srtt");

        Ptr<DrpDctcp> fast = CreateObject<DrpDctcp>();
        fast->Start(DataRate("1Gbps"), 64);
        fast->OnSent(1000);
        fast->OnRttSample(MicroSeconds(1));
        fast->SetSequence(1, 10, 10);
        fast->OnAck(1, false);
        NS_TEST_EXPECT_MSG_EQ(fast->GetRate(),
                              DataRate(0),
                              "144 Gb/s is above the line: unpaced, the line limits");

        Ptr<DrpDctcp> plain = CreateObject<DrpDctcp>();
        plain->SetAttribute("Pacing", BooleanValue(false));
        plain->Start(DataRate("10Gbps"), 64);
        NS_TEST_EXPECT_MSG_EQ(plain->NeedsRttSamples(), false, "Pacing false: no samples");
        plain->OnSent(1000);
        plain->OnRttSample(MicroSeconds(40));
        plain->SetSequence(1, 10, 10);
        plain->OnAck(1, false);
        NS_TEST_EXPECT_MSG_EQ(plain->GetRate(), DataRate(0), "Pacing false: the window alone");
    }
};

/**
 * \ingroup drp-tests
 * Two DCTCP flows of 10 MB start together into one 10 Gb/s port with step
 * marking at K = 65 frames (the DCTCP paper's K at 10 Gb/s). Paced, they
 * share the port evenly: they end within 3 % of each other, the last when
 * the line would have moved both. Clocked by their acknowledgements alone,
 * each flow's frames travel in runs that only its own marks hit and the
 * first ends about a quarter earlier: the reason pacing is on by default.
 */
class DrpDctcpFairnessTestCase : public TestCase
{
  public:
    DrpDctcpFairnessTestCase()
        : TestCase("DCTCP: two paced flows share a 10 Gbps port evenly, ACK-clocked ones do not")
    {
    }

  private:
    /**
     * \param pacing DrpDctcp's Pacing
     * \return the two flows' FCTs, the shorter first, seconds
     */
    static std::pair<double, double> Run(bool pacing)
    {
        Config::SetDefault("ns3::DrpDctcp::Pacing", BooleanValue(pacing));
        Config::SetDefault("ns3::RdmaHostApplication::RegistrationFixedLatency",
                           TimeValue(Seconds(0)));
        Config::SetDefault("ns3::RdmaHostApplication::RegistrationLatencyPerPage",
                           TimeValue(Seconds(0)));
        FabricScenario::Config config;
        config.hosts = 3;
        config.degree = 2;
        config.bytes = 10000000;
        config.hostRate = DataRate("10Gbps");
        config.window = 1024;
        config.queue = "4MB";
        config.ecn = true;
        config.ecnMarking = "step";
        config.ecnMin = "65p";
        config.cc = "dctcp";
        config.method = "traditional";
        config.timeoutMode = "adaptive";
        const FabricScenario::Result r = FabricScenario::Run(config);
        Config::Reset();
        NS_ABORT_MSG_UNLESS(r.Count(DrpTransferRecord::SUCCESS) == 2 && r.GetDrops() == 0,
                            "both flows end, nothing dropped");
        const double a = r.transfers[0].record.GetDuration().GetSeconds();
        const double b = r.transfers[1].record.GetDuration().GetSeconds();
        return {std::min(a, b), std::max(a, b)};
    }

    void DoRun() override
    {
        const auto [first, last] = Run(true);
        // 20 MB of payload at 10 Gb/s, 1024 of each 1094 bytes on the wire.
        const double line = 20e6 * 8 / 10e9 * 1094 / 1024;
        NS_TEST_EXPECT_MSG_LT(last, line * 1.02, "paced: the port stays full");
        NS_TEST_EXPECT_MSG_GT(first / last, 0.97, "paced: the flows end together");
        const auto [clockedFirst, clockedLast] = Run(false);
        NS_TEST_EXPECT_MSG_LT(clockedFirst / clockedLast, 0.85, "ACK-clocked: one flow ahead");
    }
};

/**
 * \ingroup drp-tests
 * The base class: nothing changes; the attribute refuses other types; a
 * fork keeps the attributes.
 */
class DrpCcNoneTestCase : public TestCase
{
  public:
    DrpCcNoneTestCase()
        : TestCase("The base class changes nothing: the same FCTs as without the attribute set")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 9;
        config.queue = "32p";
        const FabricScenario::Result plain = FabricScenario::Run(config);
        Config::SetDefault("ns3::DrpTransport::CongestionControl",
                           TypeIdValue(DrpCongestionOps::GetTypeId()));
        const FabricScenario::Result none = FabricScenario::Run(config);
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(none.transfers.size(), plain.transfers.size(), "the same transfers");
        for (size_t i = 0; i < plain.transfers.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(none.transfers[i].record.GetDuration(),
                                  plain.transfers[i].record.GetDuration(),
                                  "transfer " << i << ": the same FCT");
        }
        NS_TEST_EXPECT_MSG_EQ(none.events, plain.events, "the same events");
        NS_TEST_EXPECT_MSG_EQ(none.rates.size(), 0, "no rate changes");

        Ptr<DrpTransport> transport = CreateObject<DrpTransport>();
        bool refused = false;
        try
        {
            transport->SetCongestionControl(DrpTransport::GetTypeId());
        }
        catch (const std::invalid_argument&)
        {
            refused = true;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "not a DrpCongestionOps: refused");

        Ptr<DrpDcqcn> dcqcn = CreateObject<DrpDcqcn>();
        dcqcn->SetAttribute("G", DoubleValue(0.5));
        Ptr<DrpCongestionOps> fork = dcqcn->Fork();
        DoubleValue g;
        fork->GetAttribute("G", g);
        NS_TEST_EXPECT_MSG_EQ(g.Get(), 0.5, "a fork keeps the attributes");
        NS_TEST_EXPECT_MSG_EQ(fork->GetName(), "dcqcn", "its name");
        Ptr<DrpCongestionOps> base = CreateObject<DrpCongestionOps>();
        base->Start(DataRate("1Gbps"), 8);
        base->OnAck(1, true);
        NS_TEST_EXPECT_MSG_EQ(base->GetRate(), DataRate(0), "none: unpaced");
        NS_TEST_EXPECT_MSG_EQ(base->GetWindow(), 8, "none: the configured window");
    }
};

namespace
{

/**
 * Jain's fairness index of each flow's time-averaged pacing rate (0: the
 * line rate) over [from, to].
 * \param result a run with rates recorded
 * \param from start of the interval
 * \param to its end
 * \param line the line rate
 * \param means the flows' mean rates, bit/s (out)
 * \return the index
 */
double
JainOfRates(const FabricScenario::Result& result,
            Time from,
            Time to,
            DataRate line,
            std::vector<double>& means)
{
    std::map<std::pair<uint32_t, uint16_t>, std::vector<FabricScenario::RateChange>> byFlow;
    for (const auto& t : result.transfers)
    {
        byFlow[{t.source, t.record.tid}]; // every flow, changes or not
    }
    for (const auto& r : result.rates)
    {
        byFlow[{r.source, r.tid}].push_back(r);
    }
    means.clear();
    for (const auto& [flow, changes] : byFlow)
    {
        double rate = double(line.GetBitRate());
        double area = 0;
        Time at = from;
        for (const auto& c : changes)
        {
            if (c.time > from)
            {
                const Time until = std::min(c.time, to);
                if (until > at)
                {
                    area += rate * (until - at).GetSeconds();
                    at = until;
                }
            }
            rate =
                c.rate.GetBitRate() == 0 ? double(line.GetBitRate()) : double(c.rate.GetBitRate());
        }
        if (to > at)
        {
            area += rate * (to - at).GetSeconds();
        }
        means.push_back(area / (to - from).GetSeconds());
    }
    double sum = 0;
    double squares = 0;
    for (double m : means)
    {
        sum += m;
        squares += m * m;
    }
    return sum * sum / (means.size() * squares);
}

} // namespace

/**
 * \ingroup drp-tests
 * Two long DCQCN flows into one receiver share the bottleneck fairly and
 * keep its queue near the marking thresholds, with a window (64 frames
 * each) that overfills the queue without congestion control.
 */
class DrpDcqcnFairnessTestCase : public TestCase
{
  public:
    DrpDcqcnFairnessTestCase()
        : TestCase("DCQCN: two long flows on one bottleneck converge to a fair share, the queue "
                   "near the marking thresholds")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 3;
        config.degree = 2;
        config.bytes = 4 * 1000 * 1000;
        config.jitter = MicroSeconds(500); // the second flow starts later
        config.ecn = true;
        config.cc = "dcqcn";
        config.rates = true;
        // A window that lets the two flows overfill the queue: 2 x 64 frames.
        Config::SetDefault("ns3::DrpTransport::Window", UintegerValue(64));
        FabricScenario::Config plain = config;
        plain.cc = "none";
        const FabricScenario::Result without = FabricScenario::Run(plain);
        const FabricScenario::Result result = FabricScenario::Run(config);
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(result.transfers.size(), 2, "two flows");
        NS_TEST_EXPECT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 2, "both succeed");
        Time start = std::max(result.transfers[0].record.start, result.transfers[1].record.start);
        Time end = std::min(result.transfers[0].record.end, result.transfers[1].record.end);
        std::vector<double> means;
        const double jain =
            JainOfRates(result, start + (end - start) / 2, end, config.hostRate, means);
        uint32_t peak = 0;
        for (const auto& p : result.ports)
        {
            peak = std::max(peak, p.stats.peakFrames);
        }
        uint32_t peakWithout = 0;
        for (const auto& p : without.ports)
        {
            peakWithout = std::max(peakWithout, p.stats.peakFrames);
        }
        std::cout << "without congestion control: peak queue " << peakWithout << " frames, drops "
                  << without.GetDrops() << ", FCTs "
                  << without.transfers[0].record.GetDuration().GetMicroSeconds() << " / "
                  << without.transfers[1].record.GetDuration().GetMicroSeconds()
                  << " us; with: FCTs "
                  << result.transfers[0].record.GetDuration().GetMicroSeconds() << " / "
                  << result.transfers[1].record.GetDuration().GetMicroSeconds() << " us"
                  << std::endl;
        std::cout << "two DCQCN flows: Jain " << jain << ", rates " << means[0] / 1e6 << " / "
                  << means[1] / 1e6 << " Mb/s over ["
                  << (start + (end - start) / 2).GetMicroSeconds() << ", " << end.GetMicroSeconds()
                  << "] us, peak queue " << peak << " frames, drops " << result.GetDrops()
                  << ", CNPs " << result.GetCnps() << std::endl;
        NS_TEST_EXPECT_MSG_GT(without.GetDrops(), 0, "without: the window overfills the queue");
        NS_TEST_EXPECT_MSG_GT(jain, 0.95, "a fair share over the second half");
        NS_TEST_EXPECT_MSG_LT(peak, 50, "the queue stays well below its 100 frames");
        NS_TEST_EXPECT_MSG_EQ(result.GetDrops(), 0, "no drops");
    }
};

/**
 * \ingroup drp-tests
 * An 8:1 incast drops fewer frames with DCQCN than without; DCTCP too.
 */
class DrpCcIncastTestCase : public TestCase
{
  public:
    DrpCcIncastTestCase()
        : TestCase("8:1 incast: DCQCN and DCTCP drop fewer frames than no congestion control")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 9;
        config.bytes = 512 * 1024;
        config.queue = "32p";
        config.ecn = true;
        const FabricScenario::Result none = FabricScenario::Run(config);
        config.cc = "dcqcn";
        const FabricScenario::Result dcqcn = FabricScenario::Run(config);
        config.cc = "dctcp";
        const FabricScenario::Result dctcp = FabricScenario::Run(config);
        std::cout << "8:1 incast drops: none " << none.GetDrops() << ", dcqcn " << dcqcn.GetDrops()
                  << ", dctcp " << dctcp.GetDrops() << "; mean FCT " << none.GetFct().mean << " / "
                  << dcqcn.GetFct().mean << " / " << dctcp.GetFct().mean << " us" << std::endl;
        NS_TEST_EXPECT_MSG_EQ(none.Count(DrpTransferRecord::SUCCESS), 8, "all succeed");
        NS_TEST_EXPECT_MSG_EQ(dcqcn.Count(DrpTransferRecord::SUCCESS), 8, "all succeed");
        NS_TEST_EXPECT_MSG_EQ(dctcp.Count(DrpTransferRecord::SUCCESS), 8, "all succeed");
        NS_TEST_EXPECT_MSG_GT(none.GetDrops(), 0, "without: the queue overflows");
        NS_TEST_EXPECT_MSG_LT(dcqcn.GetDrops(), none.GetDrops(), "DCQCN: fewer drops");
        NS_TEST_EXPECT_MSG_LT(dctcp.GetDrops(), none.GetDrops(), "DCTCP: fewer drops");

        FabricScenario::Config refused;
        refused.cc = "dcqcn";
        bool thrown = false;
        try
        {
            refused.Validate();
        }
        catch (const std::invalid_argument& e)
        {
            thrown = std::string(e.what()).find("ecn") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "cc without ecn: refused, naming ecn");
    }
};

/**
 * \ingroup drp-tests
 * Reads under congestion control: the data sender is the read's
 * responder, so the responder's transport forks the scheme, the initiator
 * (the data's receiver) is the notification point, and its ACKs carry the
 * echo back. Host 0 reads from hosts 1 and 2 at once: their data meet at
 * the switch port towards host 0.
 */
class DrpCcReadTestCase : public TestCase
{
  public:
    DrpCcReadTestCase()
        : TestCase("Reads: the responder sends the data, reacts to the initiator's echoes, "
                   "and the read data arrive byte for byte")
    {
    }

  private:
    /// What one run of the two reads gave.
    struct Outcome
    {
        uint32_t succeeded{0};            //!< reads that succeeded
        uint32_t corrupt{0};              //!< successful reads whose regions differ
        uint64_t marks{0};                //!< frames the switch marked CE
        uint64_t drops{0};                //!< frames the switch dropped
        uint64_t echoesSent{0};           //!< CNPs the initiator (host 0) sent
        uint64_t echoesTaken{0};          //!< CNPs the responders (hosts 1, 2) received
        uint32_t rateChanges[3]{0, 0, 0}; //!< Rate trace calls per host
    };

    /**
     * \param cc the congestion control's TypeId (the base class: none)
     * \return what the run gave
     */
    static Outcome RunReads(TypeId cc)
    {
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        rnic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        rnic.SetTransportAttribute("EcnCapable", BooleanValue(true));
        rnic.SetTransportAttribute("Window", UintegerValue(64));
        rnic.SetTransportAttribute("CongestionControl", TypeIdValue(cc));
        if (cc == DrpDctcp::GetTypeId())
        {
            rnic.SetTransportAttribute("CnpInterval", TimeValue(Seconds(0)));
        }
        EthernetHelper links;
        links.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        links.SetQueue("ns3::EcnMarkingQueue", "MaxSize", QueueSizeValue(QueueSize("100p")));
        StarFabricHelper fabric(3, rnic, links);
        for (uint32_t p = 0; p < fabric.GetSwitch(0)->GetNPorts(); ++p)
        {
            DynamicCast<EcnMarkingQueue>(fabric.GetSwitch(0)->GetPort(p)->GetQueue())
                ->AssignStreams(100 + p);
        }
        FabricWorkloadHelper workload(fabric);
        workload.SetOperation(RdmaHostApplication::READ);
        workload.AddIncast(1, {0}, 2000000, Seconds(0)); // host 0 reads from host 1
        workload.AddIncast(2, {0}, 2000000, Seconds(0)); // and from host 2
        ApplicationContainer apps = workload.Install(RdmaHostHelper());
        Outcome out;
        for (uint32_t h = 0; h < 3; ++h)
        {
            uint32_t* changes = &out.rateChanges[h];
            fabric.GetRnic(h)->GetTransport()->TraceConnectWithoutContext(
                "Rate",
                drp::FunctorCallback<void, Mac48Address, uint16_t, DataRate, DataRate>(
                    [changes](Mac48Address, uint16_t, DataRate, DataRate) { ++*changes; }));
        }
        apps.Start(Seconds(0));
        Simulator::Run();
        auto initiator = DynamicCast<RdmaHostApplication>(apps.Get(0));
        for (const auto& r : initiator->GetRecords())
        {
            if (r.status != DrpTransferRecord::SUCCESS)
            {
                continue;
            }
            ++out.succeeded;
            const uint32_t peer =
                r.peer == Mac48Address::ConvertFrom(fabric.GetRnic(1)->GetAddress()) ? 1 : 2;
            out.corrupt += fabric.GetRnic(0)->GetHostMemory()->CountDifferences(
                               r.sba,
                               fabric.GetRnic(peer)->GetHostMemory(),
                               r.dba,
                               r.length) != 0;
        }
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(0);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            auto queue = DynamicCast<EcnMarkingQueue>(sw->GetPort(p)->GetQueue());
            out.marks += queue->GetMarks();
            out.drops += queue->GetTotalDroppedPackets();
        }
        out.echoesSent = fabric.GetRnic(0)->GetTransport()->GetCnpsSent();
        out.echoesTaken = fabric.GetRnic(1)->GetTransport()->GetCnpsReceived() +
                          fabric.GetRnic(2)->GetTransport()->GetCnpsReceived();
        Simulator::Destroy();
        return out;
    }

    void DoRun() override
    {
        const Outcome none = RunReads(DrpCongestionOps::GetTypeId());
        for (TypeId cc : {DrpDcqcn::GetTypeId(), DrpDctcp::GetTypeId()})
        {
            const Outcome out = RunReads(cc);
            std::cout << cc.GetName() << " reads: marks " << out.marks << ", echoes sent "
                      << out.echoesSent << ", received " << out.echoesTaken << ", drops "
                      << out.drops << " (none: " << none.drops << "), rate changes "
                      << out.rateChanges[0] << "/" << out.rateChanges[1] << "/"
                      << out.rateChanges[2] << std::endl;
            NS_TEST_EXPECT_MSG_EQ(out.succeeded, 2, cc.GetName() << ": both reads succeed");
            NS_TEST_EXPECT_MSG_EQ(out.corrupt, 0, cc.GetName() << ": the data byte for byte");
            NS_TEST_EXPECT_MSG_GT(out.marks, 0, cc.GetName() << ": the switch marks");
            NS_TEST_EXPECT_MSG_GT(out.echoesSent, 0, cc.GetName() << ": the initiator echoes");
            NS_TEST_EXPECT_MSG_EQ(out.echoesTaken,
                                  out.echoesSent,
                                  cc.GetName() << ": the responders receive every echo");
            NS_TEST_EXPECT_MSG_EQ(out.rateChanges[0],
                                  0,
                                  cc.GetName() << ": the initiator sends no data: no rate");
            // Both pace the responders: DCQCN its rate, DCTCP W / srtt.
            const bool responderRates = out.rateChanges[1] > 0 && out.rateChanges[2] > 0;
            NS_TEST_EXPECT_MSG_EQ(responderRates,
                                  true,
                                  cc.GetName() << ": the responders' rates change");
            NS_TEST_EXPECT_MSG_LT(out.drops,
                                  none.drops,
                                  cc.GetName() << ": fewer drops than without");
        }
        NS_TEST_EXPECT_MSG_EQ(none.succeeded, 2, "none: both reads succeed");
        NS_TEST_EXPECT_MSG_GT(none.drops, 0, "none: a window of 64 overfills the queue");
    }
};

/**
 * \ingroup drp-tests
 * ECN marking and DCQCN on a lossless fabric: the class queues that PFC
 * makes are marking queues too, so marks, echoes and pauses all happen and
 * nothing is dropped.
 */
class DrpCcLosslessTestCase : public TestCase
{
  public:
    DrpCcLosslessTestCase()
        : TestCase("Lossless with ECN and DCQCN: marks, echoes and pauses, no drop")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.topology = "leaf-spine";
        config.leaves = 2;
        config.hosts = 8;
        config.bytes = 256 * 1024;
        config.ecn = true;
        config.cc = "dcqcn";
        config.lossless = true;
        config.buffer = "500KB";
        config.timeoutMode = "adaptive";
        const FabricScenario::Result result = FabricScenario::Run(config);
        std::cout << "lossless 15:1 incast with DCQCN: marks " << result.GetEcnMarks() << ", CNPs "
                  << result.GetCnps() << ", pauses sent " << result.GetPausesSent() << ", drops "
                  << result.GetDropsIn("") << std::endl;
        NS_TEST_EXPECT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 15, "all succeed");
        NS_TEST_EXPECT_MSG_GT(result.GetEcnMarks(), 0, "the class queues mark");
        NS_TEST_EXPECT_MSG_GT(result.GetCnps(), 0, "the senders hear of it");
        NS_TEST_EXPECT_MSG_GT(result.GetPausesSent(), 0, "the small buffer pauses");
        NS_TEST_EXPECT_MSG_EQ(result.GetDropsIn(""), 0, "no frame dropped anywhere");
    }
};

/**
 * \ingroup drp-tests
 * Congestion control at the RNIC.
 */
class DrpCcTestSuite : public TestSuite
{
  public:
    DrpCcTestSuite()
        : TestSuite("drp-cc", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpDcqcnCutTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDcqcnAlphaTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDcqcnRecoveryTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDcqcnByteCounterTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDcqcnBoundsTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDctcpWindowTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDctcpLargeWindowTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDctcpPacingTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDctcpFairnessTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCcNoneTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpDcqcnFairnessTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCcIncastTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCcReadTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCcLosslessTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpCcTestSuite g_drpCcTestSuite;
