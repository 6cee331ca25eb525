/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FabricScenario's instruments and workloads for congestion experiments:
// the switch-port backlog sampled at an interval, incast senders that start
// one after another, victim flows beside an incast (head-of-line blocking
// under PFC), the transports' window, and the values each refuses.

#include "ns3/config.h"
#include "ns3/drp-compat.h"
#include "ns3/fabric-scenario.h"
#include "ns3/strict-options.h"
#include "ns3/test.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/**
 * \param config a configuration
 * \param name what its message must name
 * \return true if Validate() refuses it with a message naming \p name
 */
bool
RefusedNaming(const FabricScenario::Config& config, const std::string& name)
{
    try
    {
        config.Validate();
    }
    catch (const std::invalid_argument& e)
    {
        return std::string(e.what()).find(name) != std::string::npos;
    }
    return false;
}

/// \return a 2:1 incast of 256 KiB writes on a three-host star
FabricScenario::Config
SmallIncast()
{
    FabricScenario::Config config;
    config.hosts = 3;
    config.degree = 2;
    config.bytes = 256 * 1024;
    return config;
}

} // namespace

/**
 * \ingroup drp-tests
 * queueInterval samples every switch port at every tick while the run has
 * events, and changes nothing the run reports; off, there are no samples.
 */
class DrpQueueSamplingTestCase : public TestCase
{
  public:
    DrpQueueSamplingTestCase()
        : TestCase("queueInterval: every switch port sampled each tick; the results unchanged")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config = SmallIncast();
        const FabricScenario::Result plain = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(plain.queues.size(), 0, "off: no samples");
        config.queueInterval = MicroSeconds(10);
        const FabricScenario::Result sampled = FabricScenario::Run(config);
        NS_TEST_ASSERT_MSG_EQ(sampled.transfers.size(), plain.transfers.size(), "same transfers");
        for (std::size_t i = 0; i < plain.transfers.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sampled.transfers[i].record.end,
                                  plain.transfers[i].record.end,
                                  "same end for transfer " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(sampled.GetDrops(), plain.GetDrops(), "same drops");
        // One switch of three ports: three samples per tick, from time 0.
        NS_TEST_ASSERT_MSG_EQ(sampled.queues.size() % 3, 0, "whole ticks");
        const std::size_t ticks = sampled.queues.size() / 3;
        NS_TEST_EXPECT_MSG_GT(ticks, sampled.simulatedTime / MicroSeconds(10), "ticks to the end");
        uint32_t peak = 0;
        uint32_t peakFrames = 0;
        std::size_t busy = 0;
        for (std::size_t i = 0; i < sampled.queues.size(); ++i)
        {
            const FabricScenario::QueueSample& q = sampled.queues[i];
            NS_TEST_ASSERT_MSG_EQ(q.time, MicroSeconds(10) * int64_t(i / 3), "tick " << i / 3);
            NS_TEST_ASSERT_MSG_EQ(q.port, i % 3, "ports in order");
            if (q.port == 0) // the receiver's port
            {
                peak = std::max(peak, q.bytes);
                peakFrames = std::max(peakFrames, q.frames);
                busy += q.bytes > 0 && q.busy;
            }
            NS_TEST_EXPECT_MSG_EQ(q.paused, false, "no pause without lossless");
        }
        uint32_t portPeak = 0;
        for (const auto& p : sampled.ports)
        {
            portPeak = p.port == 0 ? p.stats.peakBytes : portPeak;
        }
        std::cout << ticks << " ticks; receiver's port: peak sampled " << peak << " bytes ("
                  << peakFrames << " frames), peak " << portPeak << " bytes" << std::endl;
        NS_TEST_EXPECT_MSG_GT(peak, 0, "the receiver's port builds a queue");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(peak, portPeak, "no sample above the port's peak");
        NS_TEST_EXPECT_MSG_GT(busy, 0, "busy while backlogged");
    }
};

/**
 * \ingroup drp-tests
 * The queue samples are bounded: a Poisson run whose arrivals alone would
 * pass FabricScenario::MAX_QUEUE_SAMPLES is refused before it runs, naming
 * queueInterval; a run that reaches the bound later stops sampling there,
 * whole ticks, and its note says where and names queueInterval; a
 * queueInterval below the simulator's resolution ("1fs") is refused rather
 * than read as 0 (no sampling).
 */
class DrpQueueSampleBoundTestCase : public TestCase
{
  public:
    DrpQueueSampleBoundTestCase()
        : TestCase("queueInterval: the samples a run may hold are bounded, and 1fs is refused")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config poisson;
        poisson.workload = "poisson";
        poisson.duration = MilliSeconds(10);
        poisson.queueInterval = NanoSeconds(1);
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(poisson, "queueInterval = +1ns would sample"),
                              true,
                              "1e7 ticks of the arrivals alone");
        poisson.queueInterval = NanoSeconds(3);
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(poisson, "queueInterval"), false, "3.3e6 ticks");

        FabricScenario::Config config = SmallIncast();
        config.queueInterval = NanoSeconds(1);
        const FabricScenario::Result result = FabricScenario::Run(config);
        const uint64_t most = FabricScenario::MAX_QUEUE_SAMPLES;
        NS_TEST_EXPECT_MSG_EQ(result.queues.size(), most / 3 * 3, "whole ticks up to the bound");
        NS_TEST_EXPECT_MSG_EQ(result.queueSamplesCut, NanoSeconds(most / 3), "cut at that tick");
        NS_TEST_EXPECT_MSG_LT(result.queueSamplesCut, result.simulatorEnd, "before the end");
        const std::string note = result.GetQueueNote();
        NS_TEST_EXPECT_MSG_NE(note.find("queueInterval = +1ns"), std::string::npos, note);
        NS_TEST_EXPECT_MSG_EQ(result.transfers.size(), 2, "the run itself goes on");
        config.queueInterval = MicroSeconds(10);
        NS_TEST_EXPECT_MSG_EQ(FabricScenario::Run(config).GetQueueNote(), "", "no note");

        std::string message;
        try
        {
            drp::ParseStrict<Time>("queueInterval", "1fs");
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(message,
                              "queueInterval = 1fs is below the simulator's time resolution "
                              "(+1ns): it would be 0",
                              "1fs refused");
        NS_TEST_EXPECT_MSG_EQ(drp::ParseStrict<Time>("queueInterval", "0"), Time(0), "0: none");
    }
};

/**
 * \ingroup drp-tests
 * Config::defaults: an ns-3 attribute default reaches the run (10 us
 * cables lengthen every flow) and is reset by Config::Reset() after; one
 * the scenario sets itself is refused naming the parameters that set it,
 * in the scenario's and in the options' spelling.
 */
class DrpFabricDefaultsTestCase : public TestCase
{
  public:
    DrpFabricDefaultsTestCase()
        : TestCase("defaults: attribute defaults reach a fabric run; the scenario's own refused")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config = SmallIncast();
        const FabricScenario::Result plain = FabricScenario::Run(config);
        config.defaults = {{"ns3::EthernetChannel::Delay", "10us"}};
        const FabricScenario::Result cabled = FabricScenario::Run(config);
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(cabled.transfers.size(), plain.transfers.size(), "same flows");
        for (std::size_t i = 0; i < plain.transfers.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_GT(cabled.transfers[i].record.GetDuration(),
                                  plain.transfers[i].record.GetDuration() + MicroSeconds(40),
                                  "flow " << i << " crosses 10 us cables");
        }
        std::string message;
        config.defaults = {{"ns3::EthernetNetDevice::DataRate", "10Gbps"}};
        try
        {
            config.Validate();
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(message,
                              "defaults: ns3::EthernetNetDevice::DataRate is set by the scenario "
                              "(it would ignore this default); use the scenario parameters "
                              "hostRate, fabricRate instead",
                              "refused, naming the parameters");
        message.clear();
        try
        {
            FabricScenario::RefuseScenarioAttributes({{"ns3::DrpTransport::Window", "4"}}, true);
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(message,
                              "ns3::DrpTransport::Window is set by the scenario (it would ignore "
                              "this value); use the option --window instead",
                              "as an option");
    }
};

/**
 * \ingroup drp-tests
 * stagger starts incast sender i at i x stagger; the window reaches the
 * transports.
 */
class DrpStaggerTestCase : public TestCase
{
  public:
    DrpStaggerTestCase()
        : TestCase("stagger: incast sender i starts at i x stagger; window sets the transports'")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config = SmallIncast();
        config.stagger = MilliSeconds(1);
        config.window = 2;
        const FabricScenario::Result result = FabricScenario::Run(config);
        NS_TEST_ASSERT_MSG_EQ(result.transfers.size(), 2, "two flows");
        for (const auto& t : result.transfers)
        {
            NS_TEST_EXPECT_MSG_EQ(t.destination, 0, "to the receiver");
            // Hosts 1 and 2 send; sender i (host i + 1) asks at i ms.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(t.record.start,
                                        MilliSeconds(t.source - 1),
                                        "host " << t.source << " starts after its offset");
            NS_TEST_EXPECT_MSG_LT(t.record.start,
                                  MilliSeconds(t.source - 1) + MicroSeconds(100),
                                  "host " << t.source << " starts at its offset");
        }
        // A window of 2 frames leaves the 1 Gb/s link idle between windows: slower.
        FabricScenario::Config full = config;
        full.window = 0;
        const FabricScenario::Result wide = FabricScenario::Run(full);
        NS_TEST_EXPECT_MSG_GT(result.transfers[0].record.GetDuration(),
                              wide.transfers[0].record.GetDuration(),
                              "window 2: the first flow takes longer than with 8");
    }
};

/**
 * \ingroup drp-tests
 * receiver and victims: on a leaf-spine the incast goes to a host of the
 * second leaf from the first leaf's hosts, and the victim from the first
 * leaf's last host to the second leaf's next host. Under PFC the victim,
 * which shares the first leaf's uplinks with the incast but not its
 * congested port, is held back by the incast's pauses.
 */
class DrpVictimTestCase : public TestCase
{
  public:
    DrpVictimTestCase()
        : TestCase("victims: the victim flow's hosts; under PFC an incast slows it")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.topology = "leaf-spine";
        config.leaves = 2;
        config.spines = 1;
        config.fabricRate = DataRate("10Gbps"); // uplinks no bottleneck
        config.hosts = 5;                       // hosts 0 to 4 on leaf 0, 5 to 9 on leaf 1
        config.receiver = 5;
        config.degree = 4;
        config.victims = 1;
        config.bytes = 128 * 1024;
        config.victimBytes = 128 * 1024;
        config.lossless = true;
        config.buffer = "300KB";
        const FabricScenario::Result lossless = FabricScenario::Run(config);
        NS_TEST_ASSERT_MSG_EQ(lossless.transfers.size(), 5, "four incast flows and the victim");
        const FabricScenario::Transfer* victim = nullptr;
        for (const auto& t : lossless.transfers)
        {
            NS_TEST_EXPECT_MSG_EQ(t.record.status, DrpTransferRecord::SUCCESS, "succeeds");
            if (t.destination != 5)
            {
                victim = &t;
            }
            else
            {
                NS_TEST_EXPECT_MSG_LT(t.source, 4, "incast senders: hosts 0 to 3");
            }
        }
        NS_TEST_ASSERT_MSG_NE(victim, nullptr, "a victim");
        NS_TEST_EXPECT_MSG_EQ(victim->source, 4, "from leaf 0's last host");
        NS_TEST_EXPECT_MSG_EQ(victim->destination, 6, "to the receiver's neighbour");
        NS_TEST_EXPECT_MSG_EQ(victim->record.length, 128 * 1024, "victimBytes");
        NS_TEST_EXPECT_MSG_EQ(lossless.GetDropsIn("switch"), 0, "lossless: no switch drop");
        NS_TEST_EXPECT_MSG_GT(lossless.GetPausesSent(), 0, "pauses");

        FabricScenario::Config lossy = config;
        lossy.lossless = false;
        lossy.buffer = FabricScenario::Config().buffer; // a lossy run has no shared buffer
        const FabricScenario::Result dropping = FabricScenario::Run(lossy);
        Time lossyFct;
        for (const auto& t : dropping.transfers)
        {
            lossyFct = t.destination == 6 ? t.record.GetDuration() : lossyFct;
        }
        const double slowdown = victim->GetSlowdown();
        std::cout << "victim: lossless FCT " << victim->record.GetDuration().GetMicroSeconds()
                  << " us (slowdown " << slowdown << "), lossy " << lossyFct.GetMicroSeconds()
                  << " us, ideal " << victim->ideal.GetMicroSeconds() << " us; pauses "
                  << lossless.GetPausesSent() << std::endl;
        NS_TEST_EXPECT_MSG_GT(victim->record.GetDuration(), lossyFct, "slower under PFC");
        NS_TEST_EXPECT_MSG_GT(slowdown, 2.0, "held back by the incast's pauses");
    }
};

/**
 * \ingroup drp-tests
 * The new options refuse what they cannot run, naming the option.
 */
class DrpIncastOptionsTestCase : public TestCase
{
  public:
    DrpIncastOptionsTestCase()
        : TestCase("receiver, stagger, victims, window, queueInterval, ackEvery, ackDelay: "
                   "invalid values refused")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config = SmallIncast();
        config.receiver = 3;
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "receiver = 3"), true, "no host 3");
        config = SmallIncast();
        config.victims = 1;
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "victims = 1"),
                              true,
                              "two senders and a victim need four hosts");
        config = SmallIncast();
        config.workload = "permutation";
        config.victims = 1;
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "incast workload only"), true, "incast only");
        config = SmallIncast();
        config.stagger = Seconds(1001);
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "stagger"), true, "stagger up to 1000 s");
        config = SmallIncast();
        config.window = 1025;
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "window"), true, "window up to 1024");
        config = SmallIncast();
        config.ackEvery = 0;
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "ackEvery = 0"), true, "a frame at least");
        config = SmallIncast();
        config.ackDelay = Seconds(2);
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "ackDelay"), true, "up to 1 s");
        config = SmallIncast();
        config.queueInterval = Seconds(2);
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "queueInterval"), true, "up to 1 s");
        config = SmallIncast();
        config.victimBytes = 0;
        NS_TEST_EXPECT_MSG_EQ(RefusedNaming(config, "victimBytes"), true, "a byte at least");
        config = SmallIncast();
        config.degree = 3; // of 3 hosts
        config.stagger = MilliSeconds(1);
        bool degreeRefused = false;
        try
        {
            FabricScenario::Run(config);
        }
        catch (const std::invalid_argument& e)
        {
            degreeRefused = std::string(e.what()).find("incast degree = 3") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(degreeRefused, true, "staggered: the degree checked as without");
        config = SmallIncast();
        config.hosts = 4;
        config.victims = 1;
        config.receiver = 3;
        config.stagger = MicroSeconds(5);
        config.queueInterval = MicroSeconds(1);
        config.window = 1024;
        config.ackEvery = 4;
        config.ackDelay = MicroSeconds(100);
        config.Validate(); // accepted
    }
};

/**
 * \ingroup drp-tests
 * FabricScenario's options for congestion experiments.
 */
class DrpIncastTestSuite : public TestSuite
{
  public:
    DrpIncastTestSuite()
        : TestSuite("drp-incast", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpQueueSamplingTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpQueueSampleBoundTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpFabricDefaultsTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpStaggerTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVictimTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpIncastOptionsTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpIncastTestSuite g_drpIncastTestSuite;
