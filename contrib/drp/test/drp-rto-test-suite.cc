/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The adaptive retransmission timeout (RFC 6298): DrpRttEstimator on given
// samples, DrpSender's sampling (Karn) and backoff, and DrpTransport's
// Adaptive mode on a link whose delay changes.

#include "drp-test-bed.h"

#include "ns3/channel.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-rtt-estimator.h"
#include "ns3/drp-sender.h"
#include "ns3/drp-transport.h"
#include "ns3/fabric-scenario.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <memory>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::drptest;

namespace
{

/**
 * \param floor the RTO's floor
 * \param ceiling the RTO's ceiling
 * \param granularity G
 * \return an estimator with initial RTO 120 us
 */
DrpRttEstimator
MakeEstimator(Time floor = Time(0),
              Time ceiling = MilliSeconds(10),
              Time granularity = NanoSeconds(8))
{
    return DrpRttEstimator(DrpRttEstimator::Config{MicroSeconds(120), floor, ceiling, granularity});
}

} // namespace

/**
 * \ingroup drp-tests
 * DrpRttEstimator on given samples: RFC 6298's SRTT, RTTVAR and RTO to the
 * nanosecond, the floor, the ceiling, the granularity and the backoff.
 */
class DrpRttEstimatorTestCase : public TestCase
{
  public:
    DrpRttEstimatorTestCase()
        : TestCase("estimator: RFC 6298 on given samples, floor, ceiling, G, backoff")
    {
    }

  private:
    void DoRun() override
    {
        DrpRttEstimator e = MakeEstimator();
        NS_TEST_EXPECT_MSG_EQ(e.GetRto(), MicroSeconds(120), "the initial RTO before a sample");
        NS_TEST_EXPECT_MSG_EQ(e.GetSamples(), 0, "no sample yet");
        e.Sample(MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(e.GetSrtt(), MicroSeconds(100), "first sample: SRTT = R");
        NS_TEST_EXPECT_MSG_EQ(e.GetRttVar(), MicroSeconds(50), "first sample: RTTVAR = R / 2");
        NS_TEST_EXPECT_MSG_EQ(e.GetRto(), MicroSeconds(300), "RTO = SRTT + 4 RTTVAR");
        e.Sample(MicroSeconds(200));
        // RTTVAR = 3/4 x 50 + 1/4 x |100 - 200| = 62.5; SRTT = 7/8 x 100 + 1/8 x 200 = 112.5.
        NS_TEST_EXPECT_MSG_EQ(e.GetRttVar(), NanoSeconds(62500), "RTTVAR, from the old SRTT");
        NS_TEST_EXPECT_MSG_EQ(e.GetSrtt(), NanoSeconds(112500), "SRTT");
        NS_TEST_EXPECT_MSG_EQ(e.GetRto(), NanoSeconds(362500), "RTO");
        e.Sample(MicroSeconds(40));
        // RTTVAR = (3 x 62.5 + 72.5) / 4 = 65; SRTT = (7 x 112.5 + 40) / 8 = 103.4375 (down).
        NS_TEST_EXPECT_MSG_EQ(e.GetRttVar(), MicroSeconds(65), "RTTVAR after a shorter sample");
        NS_TEST_EXPECT_MSG_EQ(e.GetSrtt(), NanoSeconds(103437), "SRTT rounds down");
        NS_TEST_EXPECT_MSG_EQ(e.GetRto(), NanoSeconds(363437), "RTO");
        NS_TEST_EXPECT_MSG_EQ(e.GetSamples(), 3, "three samples");

        // Backoff: doubling per factor, up to the ceiling, no overflow.
        NS_TEST_EXPECT_MSG_EQ(e.GetBackedOff(1), NanoSeconds(363437), "factor 1: the RTO");
        NS_TEST_EXPECT_MSG_EQ(e.GetBackedOff(4), NanoSeconds(4 * 363437), "factor 4");
        NS_TEST_EXPECT_MSG_EQ(e.GetBackedOff(64), MilliSeconds(10), "capped at the ceiling");
        NS_TEST_EXPECT_MSG_EQ(e.GetBackedOff(1u << 31), MilliSeconds(10), "no overflow");

        DrpRttEstimator floored = MakeEstimator(MicroSeconds(500));
        NS_TEST_EXPECT_MSG_EQ(floored.GetRto(), MicroSeconds(500), "the floor, before a sample");
        floored.Sample(MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(floored.GetRto(), MicroSeconds(500), "the floor");
        DrpRttEstimator ceiled = MakeEstimator(Time(0), MicroSeconds(200));
        ceiled.Sample(MicroSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(ceiled.GetRto(), MicroSeconds(200), "the ceiling");
        DrpRttEstimator crossed = MakeEstimator(MicroSeconds(500), MicroSeconds(200));
        NS_TEST_EXPECT_MSG_EQ(crossed.GetRto(), MicroSeconds(200), "the ceiling wins");

        // A steady RTT: RTTVAR falls until G takes over from 4 RTTVAR.
        DrpRttEstimator steady = MakeEstimator(Time(0), MilliSeconds(10), MicroSeconds(5));
        for (int i = 0; i < 40; ++i)
        {
            steady.Sample(MicroSeconds(100));
        }
        NS_TEST_EXPECT_MSG_EQ(steady.GetSrtt(), MicroSeconds(100), "a steady SRTT");
        NS_TEST_EXPECT_MSG_LT(4 * steady.GetRttVar(), MicroSeconds(5), "RTTVAR has decayed");
        NS_TEST_EXPECT_MSG_EQ(steady.GetRto(), MicroSeconds(105), "RTO = SRTT + G");
    }
};

/**
 * \ingroup drp-tests
 * DrpRttEstimator after a step of the RTT from 100 us to 1 ms: the RTO
 * covers the new RTT from the first sample at it on (no spurious expiry),
 * is SRTT + 4 RTTVAR after every sample, and is within 5 % of the new RTT
 * after 40 samples.
 */
class DrpRttStepTestCase : public TestCase
{
  public:
    DrpRttStepTestCase()
        : TestCase("estimator: follows a step of the RTT from 100 us to 1 ms")
    {
    }

  private:
    void DoRun() override
    {
        DrpRttEstimator e = MakeEstimator();
        for (int i = 0; i < 40; ++i)
        {
            e.Sample(MicroSeconds(100));
        }
        NS_TEST_EXPECT_MSG_LT(e.GetRto(), MicroSeconds(101), "settled at 100 us");
        for (int n = 1; n <= 40; ++n)
        {
            e.Sample(MilliSeconds(1));
            NS_TEST_EXPECT_MSG_EQ(e.GetRto(),
                                  e.GetSrtt() + 4 * e.GetRttVar(),
                                  "RTO = SRTT + 4 RTTVAR after sample " << n);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(e.GetRto(),
                                        MilliSeconds(1),
                                        "the RTO covers the new RTT after sample " << n);
        }
        NS_TEST_EXPECT_MSG_LT(e.GetRto(), MicroSeconds(1050), "within 5 % after 40 samples");
        NS_TEST_EXPECT_MSG_GT(e.GetSrtt(), MicroSeconds(990), "SRTT within 1 %");
    }
};

/**
 * \ingroup drp-tests
 * DrpSender with an estimator and a fake network (frames leave at once,
 * the test acknowledges): one sample per round trip, from the newest frame
 * an acknowledgement covers; no sample from a frame sent again (Karn); the
 * backoff doubling per expiry, kept through progress, and cleared by the
 * next valid sample.
 */
class DrpSenderSamplingTestCase : public TestCase
{
  public:
    DrpSenderSamplingTestCase()
        : TestCase("sender: one sample per round trip, Karn, backoff cleared by a sample")
    {
    }

  private:
    /**
     * \param sn a frame the sender transmits (it leaves at once)
     * \return true
     */
    bool Transmit(uint32_t sn)
    {
        m_sent.emplace_back(Simulator::Now() - m_t0, sn);
        m_current->OnSent(sn);
        return true;
    }

    /**
     * \param total frames
     * \param e the estimator
     * \return a sender of \p total frames, window 4, 100 retries, 3 dup ACKs, backoff up to 64
     */
    std::unique_ptr<DrpSender> MakeSender(uint32_t total, DrpRttEstimator& e)
    {
        DrpSender::Config config{4, MicroSeconds(999), 100, 3, 64, &e};
        m_sent.clear();
        m_t0 = Simulator::Now();
        auto sender =
            std::make_unique<DrpSender>(total,
                                        config,
                                        MakeCallback(&DrpSenderSamplingTestCase::Transmit, this),
                                        MakeNullCallback<void>());
        m_current = sender.get();
        return sender;
    }

    /**
     * \param delay after the sender's start
     * \param s the sender
     * \param ackn the ACKN
     */
    void AckAt(Time delay, DrpSender* s, uint32_t ackn)
    {
        drp::Schedule(m_t0 + delay - Simulator::Now(), [s, ackn]() { s->OnAck(ackn); });
    }

    /// A frame sent once gives a sample, one per round trip.
    void OneSamplePerRoundTrip()
    {
        DrpRttEstimator e = MakeEstimator();
        auto s = MakeSender(4, e);
        s->Start();
        AckAt(MicroSeconds(30), s.get(), 1);
        AckAt(MicroSeconds(40), s.get(), 4);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(e.GetSamples(), 1, "SN 1 to 3 left in the first round trip");
        NS_TEST_EXPECT_MSG_EQ(e.GetSrtt(), MicroSeconds(30), "sent at 0, acknowledged at 30 us");
        NS_TEST_EXPECT_MSG_EQ(e.GetRto(), MicroSeconds(90), "30 + 4 x 15");
        NS_TEST_EXPECT_MSG_EQ(s->GetRetransmissions(), 0, "nothing sent again");
    }

    /// The acknowledgement of a retransmitted frame gives no sample.
    void Karn()
    {
        DrpRttEstimator e = MakeEstimator();
        auto s = MakeSender(1, e);
        s->Start();
        AckAt(MicroSeconds(150), s.get(), 1); // after the expiry at 120 us
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(s->GetTimeouts(), 1, "one expiry, at the initial RTO");
        NS_TEST_EXPECT_MSG_EQ(m_sent.size(), 2, "SN 0, then SN 0 again");
        if (m_sent.size() == 2)
        {
            NS_TEST_EXPECT_MSG_EQ(m_sent[1].first, MicroSeconds(120), "the initial RTO");
        }
        NS_TEST_EXPECT_MSG_EQ(e.GetSamples(), 0, "no sample from a retransmitted frame");
        NS_TEST_EXPECT_MSG_EQ(e.GetRto(), MicroSeconds(120), "still the initial RTO");
    }

    /// Expiries double the timer; progress keeps it; a valid sample clears it.
    void BackoffClearedBySample()
    {
        DrpRttEstimator e = MakeEstimator();
        auto s = MakeSender(12, e);
        s->Start(); // SN 0 to 3 at 0
        // No acknowledgement: expiries at 120, 360 (+240) and 840 (+480) us,
        // each sending SN 0 again. At 900 us, ACKN 1: progress, but its
        // newest frame, SN 0, was sent again: no sample, and the timer stays
        // backed off (x 8). The partial ACK sends SN 1 again, and SN 4 leaves.
        AckAt(MicroSeconds(900), s.get(), 1);
        // At 910 us, ACKN 5: its newest frame, SN 4, was sent once, 10 us
        // ago: a valid sample that clears the backoff, RTO 10 + 4 x 5 = 30 us.
        // SN 5 to 8 leave; with no further acknowledgement the timer expires
        // 30 us later and doubles again from there: 60, 120, 240 us.
        AckAt(MicroSeconds(910), s.get(), 5);
        Simulator::Stop(MicroSeconds(1500));
        Simulator::Run();
        std::vector<std::pair<Time, uint32_t>> expected{{MicroSeconds(0), 0},
                                                        {MicroSeconds(0), 1},
                                                        {MicroSeconds(0), 2},
                                                        {MicroSeconds(0), 3},
                                                        {MicroSeconds(120), 0},
                                                        {MicroSeconds(360), 0},
                                                        {MicroSeconds(840), 0},
                                                        {MicroSeconds(900), 1},
                                                        {MicroSeconds(900), 4},
                                                        {MicroSeconds(910), 5},
                                                        {MicroSeconds(910), 6},
                                                        {MicroSeconds(910), 7},
                                                        {MicroSeconds(910), 8},
                                                        {MicroSeconds(940), 5},
                                                        {MicroSeconds(1000), 5},
                                                        {MicroSeconds(1120), 5},
                                                        {MicroSeconds(1360), 5}};
        NS_TEST_EXPECT_MSG_EQ(m_sent.size(), expected.size(), "frames sent by 1.5 ms");
        for (size_t i = 0; i < std::min(m_sent.size(), expected.size()); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_sent[i].first, expected[i].first, "time of send " << i);
            NS_TEST_EXPECT_MSG_EQ(m_sent[i].second, expected[i].second, "SN of send " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(e.GetSamples(), 1, "one valid sample (SN 4)");
        NS_TEST_EXPECT_MSG_EQ(e.GetSrtt(), MicroSeconds(10), "SN 4: 900 to 910 us");
        s->Stop();
    }

    void DoRun() override
    {
        OneSamplePerRoundTrip();
        Karn();
        BackoffClearedBySample();
        Simulator::Destroy();
    }

    DrpSender* m_current{nullptr};                 //!< the sender under test
    Time m_t0;                                     //!< its start
    std::vector<std::pair<Time, uint32_t>> m_sent; //!< (time since start, SN) of each send
};

/**
 * \ingroup drp-tests
 * Two RNICs in the Adaptive mode on one link whose delay rises from 0 to
 * 200 us (one way) after the first transfers: the initiator's estimate of
 * the responder follows (SRTT within 5 % of the new round trip, RTO =
 * SRTT + max(G, 4 RTTVAR)), and the transfers that start once it has
 * followed send nothing again; in the Fixed mode (RetransmissionTimeout
 * 120 us, shorter than the new round trip) they retransmit. Every transfer
 * succeeds with identical bytes.
 */
class DrpAdaptiveDelayStepTestCase : public TestCase
{
  public:
    /// \param adaptive Adaptive mode (else Fixed)
    explicit DrpAdaptiveDelayStepTestCase(bool adaptive)
        : TestCase(std::string("a link's delay rises mid-run (") +
                   (adaptive ? "Adaptive" : "Fixed") + ")"),
          m_adaptive(adaptive)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        rnic.SetTransportAttribute("TimeoutMode", StringValue(m_adaptive ? "Adaptive" : "Fixed"));
        PointToPointBed bed(rnic, MakeWorkload(60, 16384));
        Ptr<DrpTransport> transport = bed.Rnic(0)->GetTransport();
        const Mac48Address peer = Mac48Address::ConvertFrom(bed.Rnic(1)->GetAddress());
        Time before;
        // The first transfers run on the bare link; then the cable grows.
        drp::Schedule(MilliSeconds(2), [&bed, &before, transport, peer]() {
            if (const DrpRttEstimator* e = transport->GetRttEstimate(peer))
            {
                before = e->GetSrtt();
            }
            bed.Rnic(0)->GetChannel()->SetAttribute("Delay", TimeValue(MicroSeconds(200)));
        });
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 60, "every transfer ended");
        uint32_t ok = 0;
        uint32_t lateRetransmissions = 0;
        uint32_t late = 0;
        for (const auto& r : bed.Records())
        {
            ok += r.status == DrpTransferRecord::SUCCESS;
            if (r.start > MilliSeconds(20))
            {
                ++late;
                lateRetransmissions += r.retransmissions;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(ok, 60, "every transfer succeeded");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "identical bytes");
        NS_TEST_ASSERT_MSG_GT(late, 10, "transfers after the change settled");
        const DrpRttEstimator* e = transport->GetRttEstimate(peer);
        if (!m_adaptive)
        {
            NS_TEST_EXPECT_MSG_EQ(e, nullptr, "the Fixed mode keeps no estimate");
            NS_TEST_EXPECT_MSG_GT(lateRetransmissions, late, "a fixed timer below the RTT");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_NE(e, nullptr, "an estimate of the responder");
        NS_TEST_EXPECT_MSG_GT(before, Time(0), "samples before the change");
        NS_TEST_EXPECT_MSG_LT(before, MicroSeconds(100), "a bare link's round trip");
        const Time expected = before + MicroSeconds(400);
        NS_TEST_EXPECT_MSG_GT(e->GetSrtt(), 0.95 * expected, "SRTT followed the change");
        NS_TEST_EXPECT_MSG_LT(e->GetSrtt(), 1.05 * expected, "SRTT followed the change");
        NS_TEST_EXPECT_MSG_EQ(e->GetRto(),
                              e->GetSrtt() +
                                  std::max(e->GetConfig().granularity, 4 * e->GetRttVar()),
                              "RTO = SRTT + max(G, 4 RTTVAR)");
        NS_TEST_EXPECT_MSG_EQ(lateRetransmissions, 0, "nothing sent again once it followed");
        Simulator::Destroy();
    }

    bool m_adaptive; //!< Adaptive mode (else Fixed)
};

/**
 * \ingroup drp-tests
 * The Adaptive mode's idle time covers a backed-off initiator: the
 * responder drops the data frames it receives 1 to 6, the initiator (no
 * sample yet: the initial RTO) backs off up to 32 times; the transfer
 * still succeeds, and no frame is taken for one of a forgotten transfer.
 */
class DrpAdaptiveBackedOffTestCase : public TestCase
{
  public:
    DrpAdaptiveBackedOffTestCase()
        : TestCase("Adaptive: a responder waits for an initiator that backs off")
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        rnic.SetTransportAttribute("TimeoutMode", StringValue("Adaptive"));
        rnic.SetTransportAttribute("HandshakeTimeout", TimeValue(MicroSeconds(100)));
        PointToPointBed bed(rnic, MakeWorkload(1, 1024));
        Ptr<ReceiveListErrorModel> losses = CreateObject<ReceiveListErrorModel>();
        losses->SetList({1, 2, 3, 4, 5, 6});
        bed.Rnic(1)->SetReceiveErrorModel(losses);
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        const DrpTransferRecord& record = bed.Records()[0];
        NS_TEST_EXPECT_MSG_EQ(record.GetStatusName(), "success", "status");
        NS_TEST_EXPECT_MSG_EQ(record.retransmissions, 6, "six retransmissions");
        NS_TEST_EXPECT_MSG_GT(record.GetDuration(), 63 * MicroSeconds(120), "backed off");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "identical bytes");
        NS_TEST_EXPECT_MSG_EQ(bed.Rnic(1)->GetTransport()->GetDropCount(DrpTransport::UNKNOWN_TID),
                              0,
                              "no frame was taken for one of a forgotten transfer");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The attributes: Fixed by default; MinRto, MaxRto and ClockGranularity refuse values out of
 * range with a message naming the value and the range.
 */
class DrpRtoAttributesTestCase : public TestCase
{
  public:
    DrpRtoAttributesTestCase()
        : TestCase("attributes: Fixed by default, MinRto, MaxRto and ClockGranularity checked")
    {
    }

  private:
    /**
     * \param name an attribute
     * \param value a value out of its range
     * \param expected the start of the message
     */
    void ExpectRefused(const std::string& name, Time value, const std::string& expected)
    {
        Ptr<DrpTransport> t = CreateObject<DrpTransport>();
        std::string message;
        try
        {
            t->SetAttribute(name, TimeValue(value));
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(message.substr(0, expected.size()), expected, name << " refused");
    }

    void DoRun() override
    {
        Ptr<DrpTransport> t = CreateObject<DrpTransport>();
        StringValue mode;
        t->GetAttribute("TimeoutMode", mode);
        NS_TEST_EXPECT_MSG_EQ(mode.Get(), "Fixed", "Fixed by default");
        TimeValue minRto;
        t->GetAttribute("MinRto", minRto);
        NS_TEST_EXPECT_MSG_EQ(minRto.Get(), MicroSeconds(50), "MinRto default");
        TimeValue maxRto;
        t->GetAttribute("MaxRto", maxRto);
        NS_TEST_EXPECT_MSG_EQ(maxRto.Get(), MilliSeconds(10), "MaxRto default");
        TimeValue granularity;
        t->GetAttribute("ClockGranularity", granularity);
        NS_TEST_EXPECT_MSG_EQ(granularity.Get(), MicroSeconds(10), "ClockGranularity default");
        ExpectRefused("MinRto", NanoSeconds(-1), "DrpTransport::MinRto = ");
        ExpectRefused("MaxRto", Seconds(0), "DrpTransport::MaxRto = ");
        ExpectRefused("MaxRto", Seconds(101), "DrpTransport::MaxRto = ");
        ExpectRefused("ClockGranularity", NanoSeconds(-1), "DrpTransport::ClockGranularity = ");
    }
};

/**
 * \ingroup drp-tests
 * A peer that coalesces acknowledgements may hold one for its AckDelay: the
 * timeout allows for it (RFC 9002's max_ack_delay), so adaptive timers and
 * AckEvery above 1 together re-send nothing that was not lost.
 */
class DrpRtoAckDelayTestCase : public TestCase
{
  public:
    DrpRtoAckDelayTestCase()
        : TestCase("estimator: the peer's acknowledgement delay is part of the timeout")
    {
    }

  private:
    void DoRun() override
    {
        const DrpRttEstimator::Config config{MicroSeconds(120),
                                             MicroSeconds(50),
                                             MilliSeconds(100),
                                             NanoSeconds(1),
                                             MicroSeconds(40)};
        DrpRttEstimator estimator(config);
        NS_TEST_EXPECT_MSG_EQ(estimator.GetRto(), MicroSeconds(160), "initial RTO + AckDelay");
        estimator.Sample(MicroSeconds(20)); // SRTT 20 us, RTTVAR 10 us
        NS_TEST_EXPECT_MSG_EQ(estimator.GetRto(),
                              MicroSeconds(20 + 40 + 40),
                              "SRTT + 4 RTTVAR + AckDelay");
        DrpRttEstimator atOnce(DrpRttEstimator::Config{MicroSeconds(120),
                                                       MicroSeconds(50),
                                                       MilliSeconds(100),
                                                       NanoSeconds(1)});
        atOnce.Sample(MicroSeconds(20));
        NS_TEST_EXPECT_MSG_EQ(atOnce.GetRto(), MicroSeconds(60), "without: SRTT + 4 RTTVAR");

        // Three 1 MB flows, every frame's acknowledgement coalesced by 8:
        // nothing is lost, so nothing may be sent twice (708 frames before the
        // timeout allowed for AckDelay).
        FabricScenario::Config fabric;
        fabric.hosts = 3;
        fabric.workload = "permutation";
        fabric.bytes = 1000000;
        fabric.ackEvery = 8;
        fabric.timeoutMode = "adaptive";
        const FabricScenario::Result result = FabricScenario::Run(fabric);
        NS_TEST_EXPECT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 3, "every flow");
        NS_TEST_EXPECT_MSG_EQ(result.GetDrops() + result.GetDropsIn("rnic"), 0, "nothing lost");
        uint64_t resent = 0;
        for (const auto& t : result.transfers)
        {
            resent += t.record.retransmissions;
        }
        NS_TEST_EXPECT_MSG_EQ(resent, 0, "nothing sent twice");
    }
};

/**
 * \ingroup drp-tests
 * The data timer does not count time in which a pause held the port
 * (DrpSender::Config::pausedTime, DrpTransport's PauseAwareTimer): a frame
 * sent at 0 with a fixed 120 us timer, the port paused 30 us by 50 us and
 * 50 us more by 130 us; the expiry at 120 us finds 30 us paused (the
 * deadline becomes 150 us), the one at 150 us 50 us more (200 us), and the
 * frame is sent again at 200 us, not 120 us. Then, on lossless fabrics
 * (FabricScenario's losslessTimers), timers that also wait out a buffer's
 * drain re-send nothing in incasts that re-sent hundreds to thousands of
 * frames with the published timers, and finish sooner.
 */
class DrpPauseAwareTimerTestCase : public TestCase
{
  public:
    DrpPauseAwareTimerTestCase()
        : TestCase("sender: time the port was paused does not count toward the timer")
    {
    }

  private:
    /// \param sn a frame the sender transmits (it leaves at once) \return true
    bool Transmit(uint32_t sn)
    {
        m_sent.push_back(Simulator::Now());
        m_sender->OnSent(sn);
        return true;
    }

    /// \return the time the port has been paused so far
    Time Paused() const
    {
        return m_paused;
    }

    /**
     * \param aware true: the sender reads Paused()
     * \return when the frame was sent, first and again
     */
    std::vector<Time> Run(bool aware)
    {
        m_sent.clear();
        m_paused = Time(0);
        DrpSender::Config config{1, MicroSeconds(120), 100, 3, 1, nullptr};
        if (aware)
        {
            config.pausedTime = MakeCallback(&DrpPauseAwareTimerTestCase::Paused, this);
        }
        DrpSender sender(1,
                         config,
                         MakeCallback(&DrpPauseAwareTimerTestCase::Transmit, this),
                         MakeNullCallback<void>());
        m_sender = &sender;
        sender.Start();
        drp::Schedule(MicroSeconds(50), [this]() { m_paused = MicroSeconds(30); });
        drp::Schedule(MicroSeconds(130), [this]() { m_paused = MicroSeconds(80); });
        drp::Schedule(MicroSeconds(210), [&sender]() { sender.OnAck(1); });
        Simulator::Run();
        Simulator::Destroy();
        m_sender = nullptr;
        return m_sent;
    }

    /**
     * \param extra options of the run
     * \return the run's frames sent again, all transfers together
     */
    static uint64_t Resent(FabricScenario::Config config)
    {
        uint64_t resent = 0;
        for (const auto& t : FabricScenario::Run(config).transfers)
        {
            resent += t.record.retransmissions;
        }
        return resent;
    }

    void DoRun() override
    {
        const std::vector<Time> aware = Run(true);
        NS_TEST_ASSERT_MSG_EQ(aware.size(), 2, "sent, then sent again once");
        NS_TEST_EXPECT_MSG_EQ(aware[1], MicroSeconds(200), "120 us of unpaused time after 0");
        const std::vector<Time> plain = Run(false);
        NS_TEST_ASSERT_MSG_EQ(plain.size(), 2, "sent, then sent again once");
        NS_TEST_EXPECT_MSG_EQ(plain[1], MicroSeconds(120), "the published timer counts all");

        // 32:1 incast through a 1.5 MB buffer; a fat-tree's 15:1 incast.
        FabricScenario::Config star;
        star.hosts = 33;
        star.bytes = 262144;
        star.lossless = true;
        star.buffer = "1500KB";
        FabricScenario::Config fatTree;
        fatTree.topology = "fat-tree";
        fatTree.lossless = true;
        fatTree.timeoutMode = "adaptive";
        for (FabricScenario::Config* config : {&star, &fatTree})
        {
            NS_TEST_EXPECT_MSG_EQ(Resent(*config), 0, config->topology << ": nothing re-sent");
            config->losslessTimers = false;
            NS_TEST_EXPECT_MSG_GT(Resent(*config), 200, config->topology << ": published timers");
        }
    }

    DrpSender* m_sender{nullptr}; //!< the sender of the run
    std::vector<Time> m_sent;     //!< departures
    Time m_paused;                //!< the port's time paused so far
};

/**
 * \ingroup drp-tests
 * The adaptive retransmission timeout.
 */
class DrpRtoTestSuite : public TestSuite
{
  public:
    DrpRtoTestSuite()
        : TestSuite("drp-rto", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpRttEstimatorTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRttStepTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpSenderSamplingTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpAdaptiveDelayStepTestCase(false), DRP_TEST_QUICK);
        AddTestCase(new DrpAdaptiveDelayStepTestCase(true), DRP_TEST_QUICK);
        AddTestCase(new DrpAdaptiveBackedOffTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRtoAttributesTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPauseAwareTimerTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRtoAckDelayTestCase, DRP_TEST_QUICK);
    }
};

static DrpRtoTestSuite g_drpRtoTestSuite; //!< the suite's instance
