/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The RNIC's transmit scheduler under load: many transfers in flight on an
// idle, lossless link behave as on real hardware (no expiry, no
// retransmission, the link kept busy), the arbitration among transfers,
// control frames ahead of data, and the host-drop counters.

#include "drp-test-bed.h"

#include "ns3/drop-tail-queue.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-scenario.h"
#include "ns3/drp-tx-scheduler.h"
#include "ns3/enum.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/pointer.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::drptest;

namespace
{

/// Bytes of a full data frame (Ethernet header, DRP header, 1024 bytes, FCS).
constexpr uint32_t DATA_FRAME =
    EthernetNetDevice::HEADER_SIZE + DrpHeader::SIZE + 1024 + EthernetNetDevice::FCS_SIZE;

/**
 * \param packet a DRP frame as the transport's Tx and Rx traces see it
 * \return its header
 */
DrpHeader
PeekDrp(Ptr<const Packet> packet)
{
    DrpHeader header;
    packet->PeekHeader(header);
    return header;
}

/**
 * Adds a frame's slot (the time it keeps the transmitter busy) to a sum.
 * \param device the port
 * \param sum the sum
 * \param frame the frame that starts
 */
void
AddSlot(Ptr<EthernetNetDevice> device, Time* sum, Ptr<const Packet> frame)
{
    *sum += device->GetSlotTime(frame->GetSize());
}

} // namespace

/**
 * \ingroup drp-tests
 * What every lossless load case asserts of its run: every transfer ended
 * and succeeded byte-exact, none went indirect, no timer expired, no frame
 * was sent twice, and nothing was dropped inside a host.
 */
class DrpCleanLoadTestCase : public TestCase
{
  protected:
    /// \param name the test case's name
    explicit DrpCleanLoadTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * \param records the run's transfer records
     * \param transfers transfers the workload asked for
     * \param corrupt transfers whose bytes differ
     * \param hostDrops frames dropped inside the two hosts
     * \return false if not every transfer ended (the caller stops)
     */
    bool CheckClean(const std::vector<DrpTransferRecord>& records,
                    uint32_t transfers,
                    uint64_t corrupt,
                    uint64_t hostDrops)
    {
        NS_TEST_EXPECT_MSG_EQ(records.size(), transfers, "every transfer ended");
        if (records.size() != transfers)
        {
            return false;
        }
        uint32_t ok = 0;
        uint32_t indirect = 0;
        uint32_t timeouts = 0;
        uint32_t retransmissions = 0;
        for (const DrpTransferRecord& r : records)
        {
            ok += r.status == DrpTransferRecord::SUCCESS;
            indirect += r.mode == DrpTransferRecord::INDIRECT;
            timeouts += r.timeouts;
            retransmissions += r.retransmissions;
        }
        NS_TEST_EXPECT_MSG_EQ(ok, transfers, "all succeeded");
        NS_TEST_EXPECT_MSG_EQ(corrupt, 0, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(indirect, 0, "none went indirect");
        NS_TEST_EXPECT_MSG_EQ(timeouts, 0, "no timer expired");
        NS_TEST_EXPECT_MSG_EQ(retransmissions, 0, "no frame sent twice");
        NS_TEST_EXPECT_MSG_EQ(hostDrops, 0, "no host drop");
        return true;
    }
};

/**
 * \ingroup drp-tests
 * N transfers in flight on one lossless link: every transfer succeeds
 * byte-exact, none goes indirect, no timer expires and no frame is sent
 * twice; from N = 64 on, the run takes within 2 % of the wire time of the
 * busier direction's frames (the link is never idle for want of a frame).
 */
class DrpLoadTestCase : public DrpCleanLoadTestCase
{
  public:
    /**
     * \param method traditional or dynamic
     * \param operation write or read
     * \param inFlight N, the workload's concurrency
     * \param allPosted true: all N posted to the RNIC at once (MaxInFlight N,
     *        and a responder CPU per transfer, so that the registrations do not
     *        queue); false: the host's default admission
     */
    DrpLoadTestCase(const std::string& method,
                    const std::string& operation,
                    uint32_t inFlight,
                    bool allPosted = false)
        : DrpCleanLoadTestCase(method + " " + operation + "s, concurrency " +
                               std::to_string(inFlight) +
                               (allPosted ? ", all posted to the RNIC" : "") +
                               ", lossless: no expiry, the link kept busy"),
          m_method(method),
          m_operation(operation),
          m_inFlight(inFlight),
          m_allPosted(allPosted)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t transfers = std::max<uint32_t>(m_inFlight, 16);
        const uint32_t size = 16384;
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        RdmaHostHelper host = MakeWorkload(transfers, size, m_operation);
        host.SetAttribute("Concurrency", UintegerValue(m_inFlight));
        if (m_allPosted)
        {
            host.SetAttribute("MaxInFlight", UintegerValue(m_inFlight));
            host.SetCpuAttribute("Count", UintegerValue(m_inFlight));
        }
        PointToPointBed bed(rnic, host);
        Time wire[2];
        for (uint32_t i = 0; i < 2; ++i)
        {
            bed.Rnic(i)->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeBoundCallback(&AddSlot, Ptr<EthernetNetDevice>(bed.Rnic(i)), &wire[i]));
        }
        bed.Run();

        if (!CheckClean(bed.Records(),
                        transfers,
                        bed.m_corrupt,
                        bed.Rnic(0)->GetHostDrops() + bed.Rnic(1)->GetHostDrops()))
        {
            Simulator::Destroy();
            return;
        }
        Time first = Time::Max();
        Time last;
        for (const DrpTransferRecord& r : bed.Records())
        {
            first = std::min(first, r.start);
            last = std::max(last, r.end);
        }
        if (m_inFlight >= 64)
        {
            Time busiest = std::max(wire[0], wire[1]);
            double ratio = (last - first).GetSeconds() / busiest.GetSeconds();
            NS_TEST_EXPECT_MSG_LT_OR_EQ(ratio,
                                        1.02,
                                        "run time " << (last - first).As(Time::US)
                                                    << " within 2 % of the wire time "
                                                    << busiest.As(Time::US));
        }
        Simulator::Destroy();
    }

    std::string m_method;    //!< traditional or dynamic
    std::string m_operation; //!< write or read
    uint32_t m_inFlight;     //!< N
    bool m_allPosted;        //!< all N posted to the RNIC at once
};

/**
 * \ingroup drp-tests
 * The load case across a line of two switches (the scenario's line
 * topology): every transfer succeeds byte-exact, none goes indirect, no
 * timer expires, no frame is sent twice; from N = 64 on the run takes within
 * 2 % of the wire time of the busier direction's frames on one link.
 */
class DrpLineLoadTestCase : public DrpCleanLoadTestCase
{
  public:
    /**
     * \param method traditional or dynamic
     * \param operation write or read
     * \param concurrency N
     */
    DrpLineLoadTestCase(const std::string& method,
                        const std::string& operation,
                        uint32_t concurrency)
        : DrpCleanLoadTestCase(method + " " + operation + "s across two switches, concurrency " +
                               std::to_string(concurrency) + ", lossless"),
          m_method(method),
          m_operation(operation),
          m_concurrency(concurrency)
    {
    }

  private:
    void DoRun() override
    {
        DrpScenario::Config config;
        config.method = m_method;
        config.operation = m_operation;
        config.topology = "line";
        config.switches = 2;
        config.concurrency = m_concurrency;
        config.transfers = std::max<uint32_t>(m_concurrency, 16);
        config.size = 16384;
        DrpScenario::Result result = DrpScenario::Run(config);

        if (!CheckClean(result.records,
                        config.transfers,
                        result.corruptTransfers,
                        result.hostDrops) ||
            m_concurrency < 64)
        {
            return;
        }
        // The busier direction of a link carries each transfer's 16 data
        // frames and two control frames (write: REQ, REL; read: REQ_ACK,
        // REL_ACK); control frames are padded to the 64-byte minimum.
        Ptr<EthernetNetDevice> port = CreateObject<EthernetNetDevice>();
        port->SetDataRate(DataRate("1Gbps"));
        uint32_t control =
            EthernetNetDevice::HEADER_SIZE + DrpHeader::SIZE + EthernetNetDevice::FCS_SIZE;
        Time wire = config.transfers *
                    (16 * port->GetSlotTime(DATA_FRAME) + 2 * port->GetSlotTime(control));
        double ratio = result.simulatedTime.GetSeconds() / wire.GetSeconds();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(ratio,
                                    1.02,
                                    "run time " << result.simulatedTime.As(Time::US)
                                                << " within 2 % of the wire time "
                                                << wire.As(Time::US));
    }

    std::string m_method;    //!< traditional or dynamic
    std::string m_operation; //!< write or read
    uint32_t m_concurrency;  //!< N
};

/**
 * \ingroup drp-tests
 * Pings share the RNICs' ports with a workload of concurrency 1024 (16 KiB
 * writes keep the link busy for about 140 ms): every ping is answered, and
 * no round trip exceeds 100 us. Bound: each way a ping waits for at most one
 * DRP frame in the port (8.75 us; the port shares its bytes fairly between
 * DRP and other traffic), takes its own slot (at most 8.3 us for 1024
 * bytes), and crosses PCIe twice (each at most a few us behind the DMA
 * engine's current request), plus the host's stack.
 */
class DrpPingsUnderLoadTestCase : public TestCase
{
  public:
    DrpPingsUnderLoadTestCase()
        : TestCase("pings share the port with concurrency 1024: all answered, RTT <= 100 us")
    {
    }

  private:
    void DoRun() override
    {
        DrpScenario::Config config;
        config.method = "dynamic";
        config.concurrency = 1024;
        config.transfers = 2048;
        config.size = 16384;
        config.pings = true;
        // ARP resolves at once (ns-3 waits up to 10 ms before a request by
        // default, and its pending queue holds three packets meanwhile).
        config.defaults["ns3::ArpL3Protocol::RequestJitter"] =
            "ns3::ConstantRandomVariable[Constant=0.0]";
        DrpScenario::Result result = DrpScenario::Run(config);

        NS_TEST_EXPECT_MSG_EQ(result.GetSuccesses(), config.transfers, "all transfers succeeded");
        // Six pings (three sizes each way) every interval; the last round
        // may still be on its way when the workload ends.
        uint32_t rounds = result.simulatedTime.GetInteger() / config.pingInterval.GetInteger();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(result.pingReplies,
                                    6 * rounds,
                                    "every ping answered (" << rounds << " rounds)");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(result.pingMaxRtt,
                                    MicroSeconds(100),
                                    "longest round trip " << result.pingMaxRtt.As(Time::US));
        NS_TEST_EXPECT_MSG_EQ(result.hostDrops, 0, "no host drop");
    }
};

/**
 * \ingroup drp-tests
 * At FRP = LFP = 5 %, 512 writes at concurrency 256 all end, and the share
 * that fails is no higher than with one transfer at a time: at most the
 * N = 1 share plus three standard errors of the difference of two shares of
 * 512 (computed with a share of at least 1/512).
 */
class DrpLossyLoadTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpLossyLoadTestCase(const std::string& method)
        : TestCase(method + " writes at 5 % loss, concurrency 256: no more failures than one "
                            "at a time"),
          m_method(method)
    {
    }

  private:
    /**
     * \param concurrency N
     * \return the share of 512 transfers that failed
     */
    double FailedShare(uint32_t concurrency)
    {
        DrpScenario::Config config;
        config.method = m_method;
        config.frp = 0.05;
        config.lfp = 0.05;
        config.transfers = 512;
        config.size = 16384;
        config.concurrency = concurrency;
        DrpScenario::Result result = DrpScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(result.records.size(), config.transfers, "every transfer ended");
        NS_TEST_EXPECT_MSG_EQ(result.corruptTransfers, 0, "byte-exact");
        return 1.0 - double(result.GetSuccesses()) / config.transfers;
    }

    void DoRun() override
    {
        double one = FailedShare(1);
        double many = FailedShare(256);
        double p = std::max(one, 1.0 / 512);
        double tolerance = 3 * std::sqrt(2 * p * (1 - p) / 512);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(many,
                                    one + tolerance,
                                    "failed share at N = 256 (" << many << ") vs N = 1 (" << one
                                                                << ") + " << tolerance);
    }

    std::string m_method; //!< traditional or dynamic
};

/**
 * \ingroup drp-tests
 * Arbitration: N equal writes started together. Round robin: they end
 * within about N data-frame slots of each other. FIFO: they end in posting
 * order, each long before the next.
 */
class DrpArbitrationTestCase : public TestCase
{
  public:
    /// \param fifo FIFO arbitration (else round robin)
    explicit DrpArbitrationTestCase(bool fifo)
        : TestCase(fifo ? "FIFO arbitration: transfers end in posting order"
                        : "round robin: equal transfers started together end together"),
          m_fifo(fifo)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 16;
        RnicHelper rnic;
        rnic.SetTransportAttribute("TxArbitration", StringValue(m_fifo ? "Fifo" : "RoundRobin"));
        RdmaHostHelper host = MakeWorkload(n, 65536);
        host.SetAttribute("Concurrency", UintegerValue(n));
        // A CPU per transfer: the registrations end together, and so do the
        // handshakes (one CPU would start the data phases one registration
        // apart, and the arbitration is what is under test).
        host.SetCpuAttribute("Count", UintegerValue(n));
        PointToPointBed bed(rnic, host);
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), n, "every transfer ended");
        Time slot = bed.Rnic(0)->GetSlotTime(DATA_FRAME);
        std::vector<DrpTransferRecord> byIndex = bed.Records();
        std::sort(byIndex.begin(), byIndex.end(), [](const auto& a, const auto& b) {
            return a.index < b.index;
        });
        Time firstEnd = Time::Max();
        Time lastEnd;
        for (const DrpTransferRecord& r : byIndex)
        {
            NS_TEST_EXPECT_MSG_EQ(r.status, DrpTransferRecord::SUCCESS, "success");
            firstEnd = std::min(firstEnd, r.end);
            lastEnd = std::max(lastEnd, r.end);
        }
        if (!m_fifo)
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(lastEnd - firstEnd,
                                        (n + 2) * slot,
                                        "ends within N + 2 data-frame slots ("
                                            << ((n + 2) * slot).As(Time::US) << ")");
            Simulator::Destroy();
            return;
        }
        for (uint32_t i = 1; i < n; ++i)
        {
            // A 64-frame transfer alone on the link: the next one ends at
            // least about its length later.
            NS_TEST_EXPECT_MSG_GT(byIndex[i].end - byIndex[i - 1].end,
                                  32 * slot,
                                  "transfer " << i << " ends well after transfer " << i - 1);
        }
        Simulator::Destroy();
    }

    bool m_fifo; //!< FIFO arbitration
};

/**
 * \ingroup drp-tests
 * A paced flow's data frames are taken no closer together than their bytes
 * on the wire at its rate, the scheduler waking its owner when the next is
 * due; an unpaced flow beside it is not held back; a new rate applies from
 * the next frame; rate 0 ends the pacing.
 */
class DrpPacingTestCase : public TestCase
{
  public:
    DrpPacingTestCase()
        : TestCase("pacing: a flow's frames spaced by their time at its rate, others unpaced")
    {
    }

  private:
    void DoRun() override
    {
        DrpTxScheduler scheduler;
        scheduler.SetStageLimit(1000);
        scheduler.SetPacingOverhead(70);
        const uint64_t paced = scheduler.OpenFlow();
        const uint64_t free = scheduler.OpenFlow();
        std::vector<std::pair<Time, uint64_t>> taken;
        auto takeAll = [&scheduler, &taken]() {
            DrpTxScheduler::DataFrame frame;
            while (scheduler.TakeNextData(frame))
            {
                taken.emplace_back(Simulator::Now(), frame.flow);
            }
        };
        scheduler.SetWakeCallback(drp::FunctorCallback<void>(takeAll));
        scheduler.SetFlowRate(paced, DataRate("100Mbps"));
        NS_TEST_EXPECT_MSG_EQ(scheduler.GetFlowRate(paced), DataRate("100Mbps"), "read back");
        NS_TEST_EXPECT_MSG_EQ(scheduler.GetFlowRate(free).GetBitRate(), 0, "not paced");
        for (uint32_t sn = 0; sn < 5; ++sn)
        {
            for (uint64_t flow : {paced, free})
            {
                DrpTxScheduler::DataFrame frame;
                frame.header.SetFlag(DrpHeader::DATA);
                frame.header.SetSequence(sn);
                frame.header.SetLength(1000);
                frame.flow = flow;
                scheduler.EnqueueData(frame);
            }
        }
        // (1000 + 70) bytes at 100 Mb/s: 85.6 us apart. From 100 us on,
        // 200 Mb/s (42.8 us), from the frame after the next one due; from
        // 230 us on, no pacing.
        drp::Schedule(MicroSeconds(100),
                      [&scheduler, paced]() { scheduler.SetFlowRate(paced, DataRate("200Mbps")); });
        drp::Schedule(MicroSeconds(230), [&scheduler, paced, &takeAll]() {
            scheduler.SetFlowRate(paced, DataRate(0));
            takeAll();
        });
        drp::ScheduleNow(takeAll);
        Simulator::Run();
        Simulator::Destroy();

        std::vector<Time> pacedAt;
        uint32_t freeAtZero = 0;
        for (const auto& [at, flow] : taken)
        {
            if (flow == paced)
            {
                pacedAt.push_back(at);
            }
            else
            {
                freeAtZero += at.IsZero();
            }
        }
        NS_TEST_EXPECT_MSG_EQ(freeAtZero, 5, "the unpaced flow's frames all at once");
        NS_TEST_ASSERT_MSG_EQ(pacedAt.size(), 5, "every paced frame taken");
        NS_TEST_EXPECT_MSG_EQ(pacedAt[0], Time(0), "the first at once");
        NS_TEST_EXPECT_MSG_EQ(pacedAt[1], NanoSeconds(85600), "one frame time at 100 Mb/s");
        NS_TEST_EXPECT_MSG_EQ(pacedAt[2],
                              NanoSeconds(171200),
                              "due when the last frame at 100 Mb/s said");
        NS_TEST_EXPECT_MSG_EQ(pacedAt[3], NanoSeconds(214000), "then 200 Mb/s: 42.8 us");
        NS_TEST_EXPECT_MSG_EQ(pacedAt[4],
                              MicroSeconds(230),
                              "pacing removed at 230 us (due at 256.8 us): at once");
    }
};

/**
 * \ingroup drp-tests
 * The pacer's spacing is exact on average: at a rate whose frame time is
 * not a whole number of nanoseconds, the remainder is carried, so that the
 * k-th frame is due within 1 ns of k frame times, and the mean rate is the
 * rate set (a spacing rounded per frame would run 0.2 % fast here).
 */
class DrpPacingExactTestCase : public TestCase
{
  public:
    DrpPacingExactTestCase()
        : TestCase("pacing: the sub-nanosecond remainder is carried, the mean spacing exact")
    {
    }

  private:
    void DoRun() override
    {
        DrpTxScheduler scheduler;
        scheduler.SetStageLimit(1000);
        scheduler.SetPacingOverhead(70);
        const uint64_t paced = scheduler.OpenFlow();
        std::vector<Time> taken;
        auto takeAll = [&scheduler, &taken]() {
            DrpTxScheduler::DataFrame frame;
            while (scheduler.TakeNextData(frame))
            {
                taken.push_back(Simulator::Now());
            }
        };
        scheduler.SetWakeCallback(drp::FunctorCallback<void>(takeAll));
        // (1000 + 70) bytes at 36.3 Gb/s: 235.812... ns apart.
        const DataRate rate("36.3Gbps");
        scheduler.SetFlowRate(paced, rate);
        const uint32_t frames = 1000;
        for (uint32_t sn = 0; sn < frames; ++sn)
        {
            DrpTxScheduler::DataFrame frame;
            frame.header.SetFlag(DrpHeader::DATA);
            frame.header.SetSequence(sn);
            frame.header.SetLength(1000);
            frame.flow = paced;
            scheduler.EnqueueData(frame);
        }
        drp::ScheduleNow(takeAll);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(taken.size(), frames, "every frame taken");
        const double spacingNs = 8.0 * 1070 / 36.3;
        for (uint32_t k : {1u, 7u, 100u, 999u})
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(double(taken[k].GetNanoSeconds()),
                                      k * spacingNs,
                                      1.0,
                                      "frame " << k << " due at k frame times, to 1 ns");
        }
    }
};

/**
 * \ingroup drp-tests
 * Control frames go first. With 256 writes in flight, each with its window
 * of data frames ready, a REQ posted (when one of them ends and the next
 * starts) leaves within two data-frame slots.
 */
class DrpRequestAheadTestCase : public TestCase
{
  public:
    DrpRequestAheadTestCase()
        : TestCase("a REQ posted behind 255 full windows leaves within two frame slots")
    {
    }

  private:
    /**
     * \param posted when each transfer was posted
     * \param state the transfer's new state
     * \param tid the transfer
     */
    static void OnState(std::map<uint16_t, Time>* posted,
                        uint16_t tid,
                        InitiatorConnection::State,
                        InitiatorConnection::State state)
    {
        if (state == InitiatorConnection::REQUESTING)
        {
            (*posted)[tid] = Simulator::Now();
        }
    }

    /**
     * \param posted when each transfer was posted
     * \param waits how long the first REQ of each transfer posted after 1 ms waited
     * \param frame a frame that leaves
     */
    static void OnTx(std::map<uint16_t, Time>* posted,
                     std::vector<Time>* waits,
                     Ptr<const Packet> frame)
    {
        DrpHeader h = PeekDrp(frame);
        auto it = posted->find(h.GetTid());
        if (h.HasFlag(DrpHeader::REQ) && it != posted->end())
        {
            if (it->second > MilliSeconds(1))
            {
                waits->push_back(Simulator::Now() - it->second);
            }
            posted->erase(it);
        }
    }

    void DoRun() override
    {
        RnicHelper rnic;
        RdmaHostHelper host = MakeWorkload(512, 65536);
        host.SetAttribute("Concurrency", UintegerValue(256));
        host.SetAttribute("MaxInFlight", UintegerValue(256));
        // A CPU per transfer: every transfer is in its data phase at once.
        host.SetCpuAttribute("Count", UintegerValue(256));
        PointToPointBed bed(rnic, host);
        std::map<uint16_t, Time> posted;
        std::vector<Time> waits;
        Ptr<DrpTransport> transport = bed.Rnic(0)->GetTransport();
        transport->TraceConnectWithoutContext("InitiatorState",
                                              MakeBoundCallback(&OnState, &posted));
        transport->TraceConnectWithoutContext("Tx", MakeBoundCallback(&OnTx, &posted, &waits));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(waits.size(), 256, "the REQs of the second 256 transfers");
        Time slot = bed.Rnic(0)->GetSlotTime(DATA_FRAME);
        Time longest = *std::max_element(waits.begin(), waits.end());
        NS_TEST_EXPECT_MSG_LT_OR_EQ(longest,
                                    2 * slot,
                                    "on the wire within two data-frame slots ("
                                        << (2 * slot).As(Time::NS) << "); longest "
                                        << longest.As(Time::NS));
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * A responder's ACKs do not wait behind its own outgoing data: both hosts
 * write to each other at once, 32 transfers in flight each way, and every
 * data frame a host receives is acknowledged within one data-frame slot
 * (the frame the port is sending when the ACK is ready) plus the RNIC's
 * processing and the PCIe write of the frame.
 */
class DrpAckAheadTestCase : public TestCase
{
  public:
    DrpAckAheadTestCase()
        : TestCase("ACKs leave ahead of the responder's own data")
    {
    }

  private:
    /// Arrival times of data frames not yet acknowledged, per TID and SN.
    typedef std::map<std::pair<uint16_t, uint32_t>, Time> Arrivals;

    /**
     * \param arrivals data frames received
     * \param frame a frame received
     */
    static void OnRx(Arrivals* arrivals, Ptr<const Packet> frame)
    {
        DrpHeader h = PeekDrp(frame);
        if (h.HasFlag(DrpHeader::DATA) && !h.IsRead())
        {
            arrivals->emplace(std::make_pair(h.GetTid(), h.GetSequence()), Simulator::Now());
        }
    }

    /**
     * \param arrivals data frames received, not yet acknowledged
     * \param longest the longest wait from a frame's arrival to its ACK's departure
     * \param frame a frame that leaves
     */
    static void OnTx(Arrivals* arrivals, Time* longest, Ptr<const Packet> frame)
    {
        DrpHeader h = PeekDrp(frame);
        if (h.GetControl() != DrpHeader::ACK)
        {
            return; // not a write's acknowledgement
        }
        auto it = arrivals->lower_bound({h.GetTid(), 0});
        while (it != arrivals->end() && it->first.first == h.GetTid() &&
               it->first.second < h.GetAckNumber())
        {
            *longest = std::max(*longest, Simulator::Now() - it->second);
            it = arrivals->erase(it);
        }
    }

    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        RnicHelper rnic;
        rnic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        RdmaHostHelper host = MakeWorkload(64, 65536);
        host.SetAttribute("Concurrency", UintegerValue(32));
        std::vector<Ptr<RdmaHostApplication>> apps;
        for (uint32_t i = 0; i < 2; ++i)
        {
            apps.push_back(DynamicCast<RdmaHostApplication>(host.Install(nodes.Get(i)).Get(0)));
            apps[i]->SetStartTime(Seconds(0));
        }
        RdmaHostHelper::SetWorkload(apps[0], devices.Get(1));
        RdmaHostHelper::SetWorkload(apps[1], devices.Get(0));
        Ptr<RnicNetDevice> b = DynamicCast<RnicNetDevice>(devices.Get(1));
        Arrivals arrivals;
        Time longest;
        b->GetTransport()->TraceConnectWithoutContext("Rx", MakeBoundCallback(&OnRx, &arrivals));
        b->GetTransport()->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(&OnTx, &arrivals, &longest));
        Simulator::Run();

        for (uint32_t i = 0; i < 2; ++i)
        {
            uint32_t ok = 0;
            for (const DrpTransferRecord& r : apps[i]->GetRecords())
            {
                ok += r.status == DrpTransferRecord::SUCCESS && r.retransmissions == 0;
            }
            NS_TEST_EXPECT_MSG_EQ(ok, 64, "host " << i << ": all succeeded, none resent");
        }
        NS_TEST_EXPECT_MSG_EQ(arrivals.size(), 0, "every data frame acknowledged");
        // The ACK is made after the receive processing and the frame's PCIe
        // write (setup, serialisation, latency: about 1 us), then waits at
        // most for the data frame the port is sending.
        Time slot = b->GetSlotTime(DATA_FRAME);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(longest,
                                    slot + MicroSeconds(2),
                                    "ACK within one data-frame slot + 2 us ("
                                        << (slot + MicroSeconds(2)).As(Time::NS) << "); longest "
                                        << longest.As(Time::NS));
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * DRP and other traffic share the port and neither starves: host 0 offers
 * 1000-byte frames of other traffic at 1.6 Gb/s (more than the 1 Gb/s
 * link) during a 256 KiB write. The port gives each about half its bytes:
 * the write takes at most 2.2 times as long as alone, and the other traffic
 * gets at least 40 % of the link while the write runs.
 */
class DrpSharedPortTestCase : public TestCase
{
  public:
    DrpSharedPortTestCase()
        : TestCase("DRP and other traffic share the port's bytes: neither starves")
    {
    }

  private:
    /**
     * \param times when each frame was received
     * \return true
     */
    static bool OnReceive(std::vector<Time>* times,
                          Ptr<NetDevice>,
                          Ptr<const Packet>,
                          uint16_t,
                          const Address&)
    {
        times->push_back(Simulator::Now());
        return true;
    }

    /**
     * \param flood true: with the other traffic
     * \param [out] received frames of other traffic delivered to host 1 during the write
     * \return the write's duration
     */
    Time RunWrite(bool flood, uint32_t& received)
    {
        RnicHelper rnic;
        PointToPointBed bed(rnic, MakeWorkload(1, 262144));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        std::vector<Time> times;
        b->SetReceiveCallback(MakeBoundCallback(&OnReceive, &times));
        if (flood)
        {
            Address toB = b->GetAddress();
            for (uint32_t i = 0; i < 1000; ++i)
            {
                drp::Schedule(NanoSeconds(5000) * i,
                              [a, toB]() { a->Send(Create<Packet>(1000), toB, 0x88B6); });
            }
        }
        bed.Run();
        NS_TEST_EXPECT_MSG_EQ(bed.Records().size(), 1, "the write ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].status, DrpTransferRecord::SUCCESS, "success");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        Time duration = bed.Records()[0].GetDuration();
        Time end = bed.Records()[0].end;
        received = std::count_if(times.begin(), times.end(), [end](Time t) { return t <= end; });
        Simulator::Destroy();
        return duration;
    }

    void DoRun() override
    {
        uint32_t received = 0;
        Time alone = RunWrite(false, received);
        Time shared = RunWrite(true, received);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(shared.GetSeconds(),
                                    2.2 * alone.GetSeconds(),
                                    "write alone " << alone.As(Time::US) << ", beside the flood "
                                                   << shared.As(Time::US));
        // Frames of 1000 bytes take 1038 wire bytes: 8.304 us each at 1 Gb/s.
        double share = received * 8.304e-6 / shared.GetSeconds();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(share,
                                    0.4,
                                    "other traffic's share of the link during the write: "
                                        << share << " (" << received << " frames)");
    }
};

/**
 * \ingroup drp-tests
 * Host drops, each forced and counted under its reason, with its trace: the
 * TxQueue full (a burst of other traffic from the host), the RxQueue full
 * (other traffic for a host behind a slow PCIe link), and the indirect
 * buffer full (a dynamic write nobody registers).
 */
class DrpHostDropTestCase : public TestCase
{
  public:
    DrpHostDropTestCase()
        : TestCase("host drops: TxQueue, RxQueue and indirect buffer, counted and traced")
    {
    }

  private:
    /// Traced host drops per reason.
    typedef std::map<RnicNetDevice::HostDropReason, uint32_t> Traced;

    /**
     * \param traced drops per reason
     * \param reason why
     */
    static void OnHostDrop(Traced* traced, Ptr<const Packet>, RnicNetDevice::HostDropReason reason)
    {
        ++(*traced)[reason];
    }

    /**
     * Counts frames of other traffic the host receives.
     * \param count the count
     * \return true
     */
    static bool OnReceive(uint32_t* count,
                          Ptr<NetDevice>,
                          Ptr<const Packet>,
                          uint16_t,
                          const Address&)
    {
        ++*count;
        return true;
    }

    /// Other traffic: a burst of 150 frames from host 0, and 10 to a slow host 1.
    void OtherTraffic()
    {
        const uint16_t protocol = 0x88B6; // IEEE 802 local experimental EtherType 2
        RnicHelper rnic;
        PointToPointBed bed(rnic, MakeWorkload(0, 4096), false);
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        Traced traced;
        a->TraceConnectWithoutContext("HostDrop", MakeBoundCallback(&OnHostDrop, &traced));
        b->TraceConnectWithoutContext("HostDrop", MakeBoundCallback(&OnHostDrop, &traced));
        uint32_t atB = 0;
        b->SetReceiveCallback(MakeBoundCallback(&OnReceive, &atB));
        // TxQueue: 150 frames at once from host 0; the PCIe link brings them
        // far faster than the port sends them, and its queue holds 100.
        Address toB = b->GetAddress();
        drp::Schedule(MicroSeconds(1), [a, toB]() {
            for (uint32_t i = 0; i < 150; ++i)
            {
                a->Send(Create<Packet>(1000), toB, protocol);
            }
        });
        // RxQueue: host 1 takes frames from its RNIC at 10 Mbit/s through a
        // queue of 2: most of the burst cannot wait.
        b->GetPcieLink()->SetAttribute("Bandwidth", StringValue("10Mbps"));
        b->SetAttribute(
            "RxQueue",
            PointerValue(
                CreateObjectWithAttributes<DropTailQueue<Packet>>("MaxSize", StringValue("2p"))));
        Simulator::Run();

        uint64_t txFull = a->GetHostDropCount(RnicNetDevice::TX_QUEUE_FULL);
        uint64_t rxFull = b->GetHostDropCount(RnicNetDevice::RX_QUEUE_FULL);
        NS_TEST_EXPECT_MSG_GT(txFull, 0, "TxQueue overflowed");
        NS_TEST_EXPECT_MSG_GT(rxFull, 0, "RxQueue overflowed");
        NS_TEST_EXPECT_MSG_EQ(traced[RnicNetDevice::TX_QUEUE_FULL], txFull, "TxQueue drops traced");
        NS_TEST_EXPECT_MSG_EQ(traced[RnicNetDevice::RX_QUEUE_FULL], rxFull, "RxQueue drops traced");
        NS_TEST_EXPECT_MSG_EQ(txFull + rxFull + atB, 150, "every frame delivered or counted");
        NS_TEST_EXPECT_MSG_EQ(a->GetHostDrops(), txFull, "host 0: nothing else");
        Simulator::Destroy();
    }

    /// The indirect buffer: a dynamic write to a host that never registers.
    void IndirectBufferFull()
    {
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        PointToPointBed bed(rnic, MakeWorkload(1, 262144), false);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        Traced traced;
        b->TraceConnectWithoutContext("HostDrop", MakeBoundCallback(&OnHostDrop, &traced));
        bed.Run();

        uint64_t full = b->GetTransport()->GetDropCount(DrpTransport::BUFFER_FULL);
        NS_TEST_EXPECT_MSG_GT(full, 0, "the indirect buffer refused frames");
        NS_TEST_EXPECT_MSG_EQ(b->GetHostDropCount(RnicNetDevice::BUFFER_FULL),
                              full,
                              "counted as host drops");
        NS_TEST_EXPECT_MSG_EQ(traced[RnicNetDevice::BUFFER_FULL], full, "traced");
        NS_TEST_EXPECT_MSG_EQ(RnicNetDevice::GetHostDropReasonName(RnicNetDevice::BUFFER_FULL),
                              "buffer-full",
                              "reason name");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        OtherTraffic();
        IndirectBufferFull();
    }
};

/**
 * \ingroup drp-tests
 * More writes posted at once to one peer than it admits (2,000 and more,
 * MaxInFlight raised to 65,535; the responder takes 1,024 per initiator and
 * refuses the rest, which ask again): every transfer ends (the admitted
 * ones succeed, byte-exact; refused ones may fail at their retry limit), and
 * when the simulator runs out of events no RNIC holds a frame to send. A
 * payload read that finished for a transfer that had meanwhile ended once
 * stopped the reads ahead of the port for good: no frame was ready, the port
 * was idle and nothing was scheduled, so the simulator ran out of events with
 * a thousand transfers open.
 */
class DrpNoStallTestCase : public TestCase
{
  public:
    /**
     * \param method traditional or dynamic
     * \param transfers writes posted at once
     * \param size bytes each
     */
    DrpNoStallTestCase(const std::string& method, uint32_t transfers, uint32_t size)
        : TestCase(method + ": " + std::to_string(transfers) + " writes of " +
                   std::to_string(size) + " B posted at once to one peer all end"),
          m_method(method),
          m_transfers(transfers),
          m_size(size)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        RdmaHostHelper host = MakeWorkload(0, m_size);
        host.SetAttribute("MaxInFlight", UintegerValue(65535));
        PointToPointBed bed(rnic, host);
        const Mac48Address peer = Mac48Address::ConvertFrom(bed.Rnic(1)->GetAddress());
        for (uint32_t i = 0; i < m_transfers; ++i)
        {
            bed.App(0)->AddTransfer(Seconds(0), peer, m_size, RdmaHostApplication::WRITE);
        }
        bed.Run();

        NS_TEST_EXPECT_MSG_EQ(bed.Records().size(), m_transfers, "every transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.App(0)->GetOpenTransfers(), 0, "none is left open");
        uint32_t ok = 0;
        for (const DrpTransferRecord& r : bed.Records())
        {
            ok += r.status == DrpTransferRecord::SUCCESS;
        }
        // The responder admits 1,024 transfers of one initiator at once
        // (MaxTransfersPerPeer) and refuses the others, which ask again and
        // may reach their retry limit: a failure is an end, a hang is not.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(ok, 1024, "the admitted ones succeeded");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(bed.Rnic(i)->GetTransport()->GetFramesWaiting(),
                                  0,
                                  "RNIC " << i << ": no frame left waiting");
        }
        Simulator::Destroy();
    }

    std::string m_method; //!< traditional or dynamic
    uint32_t m_transfers; //!< writes posted at once
    uint32_t m_size;      //!< bytes each
};

/**
 * \ingroup drp-tests
 * The transmit scheduler and the RNIC under load.
 */
class DrpSchedulerTestSuite : public TestSuite
{
  public:
    DrpSchedulerTestSuite()
        : TestSuite("drp-scheduler", DRP_TEST_SYSTEM)
    {
        for (const std::string method : {"traditional", "dynamic"})
        {
            for (const std::string operation : {"write", "read"})
            {
                for (uint32_t n : {1, 4, 64, 256, 1024})
                {
                    AddTestCase(new DrpLoadTestCase(method, operation, n), DRP_TEST_QUICK);
                }
                AddTestCase(new DrpLoadTestCase(method, operation, 1024, true), DRP_TEST_QUICK);
            }
        }
        for (const std::string method : {"traditional", "dynamic"})
        {
            for (const std::string operation : {"write", "read"})
            {
                for (uint32_t n : {1, 4, 64, 256, 1024})
                {
                    AddTestCase(new DrpLineLoadTestCase(method, operation, n), DRP_TEST_QUICK);
                }
            }
            AddTestCase(new DrpLossyLoadTestCase(method), DRP_TEST_QUICK);
        }
        AddTestCase(new DrpPingsUnderLoadTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpArbitrationTestCase(false), DRP_TEST_QUICK);
        AddTestCase(new DrpArbitrationTestCase(true), DRP_TEST_QUICK);
        AddTestCase(new DrpRequestAheadTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPacingExactTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpPacingTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpAckAheadTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpSharedPortTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHostDropTestCase, DRP_TEST_QUICK);
        for (const std::string method : {"traditional", "dynamic"})
        {
            for (uint32_t size : {4096, 16384})
            {
                AddTestCase(new DrpNoStallTestCase(method, 2000, size), DRP_TEST_QUICK);
            }
        }
    }
};

/// The suite's one instance.
static DrpSchedulerTestSuite g_drpSchedulerTestSuite;
