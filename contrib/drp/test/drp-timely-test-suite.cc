/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// TIMELY: the rate rules of the paper's Algorithm 1 driven by explicit
// calls, completion events (a segment, at most one per MinRtt), the
// sender's round-trip sample per acknowledgement, and fabric runs.

#include "drp-test-bed.h"

#include "ns3/data-rate.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-congestion-ops.h"
#include "ns3/drp-sender.h"
#include "ns3/drp-timely.h"
#include "ns3/fabric-scenario.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// TIMELY's reference line rate: AdditiveStep and MinRate apply unscaled.
const DataRate LINE("10Gbps");
/// Bytes per data frame given to OnSent().
const uint32_t FRAME = 1000;
/// Frames per completion: 17 x 1000 bytes reach the 16 KiB segment.
const uint32_t SEGMENT_FRAMES = 17;

/// \param rate a rate \return it in Gb/s
double
Gbps(DataRate rate)
{
    return double(rate.GetBitRate()) / 1e9;
}

/**
 * \param line the line rate
 * \return a DrpTimely with the paper's parameters, started with a window of 8
 */
Ptr<DrpTimely>
MakeTimely(DataRate line = LINE)
{
    Ptr<DrpTimely> cc = CreateObject<DrpTimely>();
    cc->Start(line, 8);
    cc->OnSent(FRAME);
    return cc;
}

/**
 * One acknowledgement of \p frames frames with a round-trip sample, at
 * \p at (the simulator runs to it).
 * \param cc the scheme
 * \param at when
 * \param frames frames it acknowledges
 * \param rtt its sample
 */
void
AckAt(Ptr<DrpTimely> cc, Time at, uint32_t frames, Time rtt)
{
    drp::Schedule(at - Simulator::Now(), [cc, frames, rtt]() {
        cc->OnAck(frames, false);
        cc->OnRttSample(rtt);
    });
    Simulator::Run();
}

} // namespace

/**
 * \ingroup drp-tests
 * Each branch of the paper's Algorithm 1, with values worked out by hand
 * (Alpha 0.875, Beta 0.8, delta 10 Mb/s, TLow 50 us, THigh 500 us, MinRtt
 * 20 us, N 5), one completion event every 20 us.
 */
class DrpTimelyRulesTestCase : public TestCase
{
  public:
    DrpTimelyRulesTestCase()
        : TestCase("TIMELY: gradient cut, THigh cut, TLow step, hyper increase after 5 events")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DrpTimely> cc = MakeTimely();
        auto event = [cc](int k, double rttUs) {
            AckAt(cc, MicroSeconds(20 * k), SEGMENT_FRAMES, NanoSeconds(int64_t(rttUs * 1000)));
        };
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "starts at the line rate: unpaced");
        event(1, 100);
        NS_TEST_EXPECT_MSG_EQ(cc->GetCompletions(), 1, "a completion event");
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate(0), "the first only records its RTT");
        NS_TEST_EXPECT_MSG_EQ(cc->GetPreviousRtt(), MicroSeconds(100), "prev_rtt");
        // +20 us: rtt_diff 0.875 x 20 = 17.5 us, gradient 0.875, x (1 - 0.8 x 0.875) = 0.3.
        event(2, 120);
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()), 3.0, 1e-9, "10 x 0.3");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetGradient(), 0.875, 1e-9, "17.5 us (the EWMA) / 20 us");
        // 600 us > THigh: x (1 - 0.8 (1 - 500/600)), whatever the gradient.
        event(3, 600);
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()), 3.0 * (1 - 0.8 / 6), 1e-9, "THigh cut");
        // 40 us < TLow: + delta, whatever the gradient.
        event(4, 40);
        const double low = 3.0 * (1 - 0.8 / 6) + 0.01;
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()), low, 1e-9, "TLow step");
        // 100 us from then on: the gradient stays negative (the EWMA of
        // +60, 0, 0, ... after -560 us); + delta four times, then 5 delta.
        std::vector<double> expected;
        double rate = low;
        for (int k = 5; k <= 11; ++k)
        {
            event(k, 100);
            rate += (k - 4 >= 5 ? 0.05 : 0.01);
            NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()), rate, 1e-9, "event " << k);
            NS_TEST_EXPECT_MSG_EQ(cc->GetNegativeGradients(), uint32_t(k - 4), "in a row");
        }
        NS_TEST_EXPECT_MSG_LT(cc->GetGradient(), 0.0, "a negative gradient");
        // A rise of 10 us: rtt_diff = 0.125 x (a small negative) + 8.75 us > 0:
        // x (1 - 0.8 x rtt_diff / 20 us), and the hyper increase ends.
        const double before = cc->GetGradient() * 20e-6; // rtt_diff, seconds
        event(12, 110);
        const double diff = 0.125 * before + 0.875 * 10e-6;
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()),
                                  rate * (1 - 0.8 * diff / 20e-6),
                                  1e-9,
                                  "gradient cut");
        NS_TEST_EXPECT_MSG_EQ(cc->GetNegativeGradients(), 0, "the run of increases ends");
        // A gradient above 1 / Beta: the rate falls to MinRate, never below.
        event(13, 400);
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(cc->GetRate()), 0.01, 1e-12, "MinRate, 10 Mb/s");
        cc->Stop();
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * A completion event needs Segment bytes acknowledged and MinRtt since the
 * previous one; the steps scale with the line rate.
 */
class DrpTimelyCompletionTestCase : public TestCase
{
  public:
    DrpTimelyCompletionTestCase()
        : TestCase("TIMELY: one completion event per segment, at most one per MinRtt; steps "
                   "scaled to the line rate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DrpTimely> cc = MakeTimely();
        AckAt(cc, MicroSeconds(20), 16, MicroSeconds(100)); // 16,000 bytes < 16,384
        NS_TEST_EXPECT_MSG_EQ(cc->GetCompletions(), 0, "less than a segment: no event");
        AckAt(cc, MicroSeconds(21), 1, MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(cc->GetCompletions(), 1, "the segment's last frame: an event");
        AckAt(cc, MicroSeconds(30), SEGMENT_FRAMES, MicroSeconds(40));
        NS_TEST_EXPECT_MSG_EQ(cc->GetCompletions(), 1, "9 us later: not yet MinRtt");
        AckAt(cc, MicroSeconds(41), 0, MicroSeconds(40));
        NS_TEST_EXPECT_MSG_EQ(cc->GetCompletions(), 2, "20 us later, a segment counted: an event");
        cc->Stop();
        Simulator::Destroy();

        // At 40 Gb/s delta is 40 Mb/s (x line rate / 10 Gb/s).
        Ptr<DrpTimely> fast = MakeTimely(DataRate("40Gbps"));
        AckAt(fast, MicroSeconds(20), SEGMENT_FRAMES, MicroSeconds(100));
        AckAt(fast, MicroSeconds(40), SEGMENT_FRAMES, MicroSeconds(120)); // x 0.3: 12 Gb/s
        AckAt(fast, MicroSeconds(60), SEGMENT_FRAMES, MicroSeconds(40));  // TLow: + delta
        NS_TEST_EXPECT_MSG_EQ_TOL(Gbps(fast->GetRate()), 12.04, 1e-9, "40 Mb/s at 40 Gb/s");
        fast->Stop();
        Simulator::Destroy();
    }
};

namespace
{

/// A scheme that records the round-trip samples it is given.
class RecordingCc : public DrpCongestionOps
{
  public:
    bool NeedsRttSamples() const override
    {
        return true;
    }

    void OnRttSample(Time rtt) override
    {
        samples.push_back(rtt);
    }

    std::vector<Time> samples; //!< every sample, in order
};

} // namespace

/**
 * \ingroup drp-tests
 * A scheme that asks for them gets a sample per acknowledgement that
 * advances, from the newest frame it covers, with no RTT estimator; none
 * from a frame sent again (Karn).
 */
class DrpTimelySamplesTestCase : public TestCase
{
  public:
    DrpTimelySamplesTestCase()
        : TestCase("sender: a round-trip sample per acknowledgement for TIMELY, Karn's rule, "
                   "without the adaptive timeout")
    {
    }

  private:
    /// \param sn a frame the sender transmits: it leaves sn x 1 us later \return true
    bool Transmit(uint32_t sn)
    {
        DrpSender* sender = m_sender.get();
        drp::Schedule(MicroSeconds(m_sends++ == sn ? sn : 0),
                      [sender, sn]() { sender->OnSent(sn); });
        return true;
    }

    void DoRun() override
    {
        DrpSender::Config config{4, MicroSeconds(200), 100, 3, 1, nullptr};
        m_sender =
            std::make_unique<DrpSender>(8,
                                        config,
                                        MakeCallback(&DrpTimelySamplesTestCase::Transmit, this),
                                        MakeNullCallback<void>());
        Ptr<RecordingCc> cc = CreateObject<RecordingCc>();
        m_sender->SetCongestionControl(cc, LINE, FRAME, MakeNullCallback<void, DataRate>());
        m_sender->Start(); // SN 0 to 3 leave at 0, 1, 2, 3 us
        DrpSender* s = m_sender.get();
        drp::Schedule(MicroSeconds(10), [s]() { s->OnAck(1); }); // SN 0: 10 us
        drp::Schedule(MicroSeconds(15), [s]() { s->OnAck(3); }); // SN 2: 13 us
        drp::Schedule(MicroSeconds(16), [s]() { s->OnAck(3); }); // a repeat: none
        // SN 3's acknowledgement is late: the timer (restarted by the ACK at
        // 15 us) sends it again at 215 us. The ACK at 230 us covers it and
        // SN 4 and 5, sent once: it gives no sample (Karn: it may answer
        // either copy of SN 3), and, a partial acknowledgement in
        // recovery, sends SN 6 again.
        drp::Schedule(MicroSeconds(230), [s]() { s->OnAck(6); });
        Simulator::Stop(MicroSeconds(240));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(s->GetRetransmissions(), 2, "SN 3 and SN 6 sent again");
        NS_TEST_ASSERT_MSG_EQ(cc->samples.size(), 2, "two samples");
        NS_TEST_EXPECT_MSG_EQ(cc->samples[0], MicroSeconds(10), "SN 0, sent at 0");
        NS_TEST_EXPECT_MSG_EQ(cc->samples[1], MicroSeconds(13), "SN 2, sent at 2 us");
        m_sender->Stop();
        m_sender.reset();
        Simulator::Destroy();
    }

    std::unique_ptr<DrpSender> m_sender; //!< the sender under test
    uint32_t m_sends{0};                 //!< transmissions so far
};

/**
 * \ingroup drp-tests
 * cc = timely on a fabric, without ECN: two flows share a 10 Gb/s port with
 * no drop, their rates follow the RTT, and the queue stays far below
 * THigh's worth of bytes; an unknown scheme names timely among the valid.
 */
class DrpTimelyFabricTestCase : public TestCase
{
  public:
    DrpTimelyFabricTestCase()
        : TestCase("cc = timely: two flows through one 10 Gbps port, no ECN, no drop")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 3;
        config.degree = 2;
        config.bytes = 4 * 1000 * 1000;
        config.hostRate = DataRate("10Gbps");
        config.window = 1024;
        config.queue = "8MB";
        config.stagger = MilliSeconds(1);
        config.cc = "timely";
        config.rates = true;
        config.queueInterval = MicroSeconds(10);
        const FabricScenario::Result result = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 2, "both succeed");
        NS_TEST_EXPECT_MSG_EQ(result.GetDrops(), 0, "no drop");
        NS_TEST_EXPECT_MSG_GT(result.rates.size(), 10, "the rates change");
        uint64_t peak = 0;
        for (const auto& p : result.ports)
        {
            peak = std::max<uint64_t>(peak, p.stats.peakBytes); // every switch port
        }
        // THigh's worth of queue at 10 Gb/s: 625 KB.
        NS_TEST_EXPECT_MSG_LT(peak, 625000, "the queue below THigh x line rate");

        FabricScenario::Config refused;
        refused.cc = "swift";
        const std::string message = drptest::RefusalOf([&refused]() { refused.Validate(); });
        NS_TEST_EXPECT_MSG_NE(message.find("timely"), std::string::npos, message);
    }
};

/**
 * \ingroup drp-tests
 * TIMELY.
 */
class DrpTimelyTestSuite : public TestSuite
{
  public:
    DrpTimelyTestSuite()
        : TestSuite("drp-timely", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpTimelyRulesTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpTimelyCompletionTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpTimelySamplesTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpTimelyFabricTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpTimelyTestSuite g_drpTimelyTestSuite;
