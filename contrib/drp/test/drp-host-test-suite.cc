/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The host's resources: CPUs that serve jobs first come first served, the
// registration time per page, the admission limit on transfers posted to
// the RNIC, and the host's wait for free transfer ids.

#include "drp-test-bed.h"

#include "ns3/drp-compat.h"
#include "ns3/host-cpus.h"
#include "ns3/host-memory.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/node.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::drptest;

namespace
{

/**
 * \param object an object
 * \param name one of its Time attributes
 * \return its value
 */
Time
GetTime(Ptr<Object> object, const std::string& name)
{
    TimeValue value;
    object->GetAttribute(name, value);
    return value.Get();
}

/**
 * \param object an object
 * \param name one of its integer attributes
 * \return its value
 */
uint64_t
GetUint(Ptr<Object> object, const std::string& name)
{
    UintegerValue value;
    object->GetAttribute(name, value);
    return value.Get();
}

} // namespace

/**
 * \ingroup drp-tests
 * HostCpus alone: 16 jobs of 1 ms queued at once end at exactly 1, 2, ...,
 * 16 ms on one CPU and at 1, 1, 2, 2, ..., 8, 8 ms on two, in the order they
 * were queued; the counters and traces say so.
 */
class DrpHostCpusTestCase : public TestCase
{
  public:
    /// \param count CPUs
    explicit DrpHostCpusTestCase(uint32_t count)
        : TestCase("HostCpus: 16 jobs of 1 ms on " + std::to_string(count) + " CPU(s)"),
          m_count(count)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t jobs = 16;
        Ptr<HostCpus> cpus = CreateObject<HostCpus>();
        cpus->SetAttribute("Count", UintegerValue(m_count));
        std::vector<Time> waits;
        cpus->TraceConnectWithoutContext("JobStart",
                                         drp::FunctorCallback<void, Time, Time>(
                                             [&waits](Time wait, Time) { waits.push_back(wait); }));
        uint32_t longestQueue = 0;
        cpus->TraceConnectWithoutContext("QueueLength",
                                         drp::FunctorCallback<void, uint32_t, uint32_t>(
                                             [&longestQueue](uint32_t, uint32_t length) {
                                                 longestQueue = std::max(longestQueue, length);
                                             }));
        std::vector<std::pair<uint32_t, Time>> ended;
        for (uint32_t i = 0; i < jobs; ++i)
        {
            cpus->Run(MilliSeconds(1), [&ended, i]() { ended.emplace_back(i, Simulator::Now()); });
        }
        NS_TEST_EXPECT_MSG_EQ(cpus->GetBusy(), m_count, "every CPU took a job at once");
        NS_TEST_EXPECT_MSG_EQ(cpus->GetQueueLength(), jobs - m_count, "the others wait");
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(ended.size(), jobs, "every job ended");
        for (uint32_t i = 0; i < jobs; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(ended[i].first, i, "jobs end in the order they were queued");
            NS_TEST_EXPECT_MSG_EQ(ended[i].second,
                                  MilliSeconds(i / m_count + 1),
                                  "job " << i << " ends when the jobs before it on its CPU did");
        }
        NS_TEST_EXPECT_MSG_EQ(cpus->GetJobs(), jobs, "jobs counted");
        NS_TEST_EXPECT_MSG_EQ(cpus->GetBusyTime(), MilliSeconds(jobs), "CPU time counted");
        Time longest = MilliSeconds(jobs / m_count - 1);
        NS_TEST_EXPECT_MSG_EQ(cpus->GetLongestWait(), longest, "longest wait");
        NS_TEST_ASSERT_MSG_EQ(waits.size(), jobs, "JobStart traced each job");
        NS_TEST_EXPECT_MSG_EQ(waits.back(), longest, "the last job waited longest");
        NS_TEST_EXPECT_MSG_EQ(longestQueue, jobs - m_count, "QueueLength traced");
        NS_TEST_EXPECT_MSG_EQ(cpus->GetBusy(), 0, "all CPUs free in the end");
        Simulator::Destroy();
    }

    uint32_t m_count; //!< CPUs
};

/**
 * \ingroup drp-tests
 * RnicNetDevice::HostPacketTime: every packet of other traffic the host sends
 * or receives takes that long on its HostCpus. A ping's round trip crosses
 * four times (request sent, received; reply sent, received): 10 us each add
 * exactly 40 us to it; 0, the default, adds nothing.
 */
class DrpHostPacketTimeTestCase : public TestCase
{
  public:
    DrpHostPacketTimeTestCase()
        : TestCase("HostPacketTime: a ping's round trip pays the host's CPU four times")
    {
    }

  private:
    /**
     * \param perPacket the RNICs' HostPacketTime
     * \return the round trip of the last ping (ARP long resolved)
     */
    Time LastRtt(Time perPacket)
    {
        NodeContainer nodes;
        nodes.Create(2);
        RnicHelper rnic;
        rnic.SetRnicAttribute("HostPacketTime", TimeValue(perPacket));
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        for (uint32_t i = 0; i < 2; ++i)
        {
            nodes.Get(i)->AggregateObject(CreateObject<HostCpus>());
        }
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        std::vector<Time> rtts;
        ApplicationContainer ping = drp::InstallPing(
            nodes.Get(0),
            interfaces.GetAddress(1),
            MilliSeconds(1),
            56,
            drp::FunctorCallback<void, Time>([&rtts](Time rtt) { rtts.push_back(rtt); }));
        // ns-3 delays an ARP request by up to 10 ms (ArpL3Protocol's
        // RequestJitter): the pings run long after it.
        ping.Start(MilliSeconds(1));
        ping.Stop(MilliSeconds(30.5));
        Simulator::Stop(MilliSeconds(40));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(rtts.size(), 2, "the pings after ARP answered");
        return rtts.empty() ? Time::Max() : rtts.back();
    }

    void DoRun() override
    {
        const Time free = LastRtt(Seconds(0));
        const Time paid = LastRtt(MicroSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(paid - free, MicroSeconds(40), "four crossings of the host");
        std::string message;
        try
        {
            CreateObject<RnicNetDevice>()->SetAttribute("HostPacketTime", TimeValue(Seconds(2)));
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find("RnicNetDevice::HostPacketTime = +2s is out of range"),
                              std::string::npos,
                              "a value out of range is refused: " << message);
        message.clear();
        try
        {
            RnicHelper().SetRnicAttribute("Mtu", UintegerValue(9000));
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find("Mtu is no attribute of RnicNetDevice's own"),
                              std::string::npos,
                              "SetRnicAttribute takes RnicNetDevice's own: " << message);
    }
};

/**
 * \ingroup drp-tests
 * HostCpus: a job queued while others wait goes behind them, also when a job
 * that ends queues it (first come, first served); a job of no length still
 * waits its turn.
 */
class DrpHostCpusFifoTestCase : public TestCase
{
  public:
    DrpHostCpusFifoTestCase()
        : TestCase("HostCpus: first come, first served, also for jobs queued by jobs")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<HostCpus> cpus = CreateObject<HostCpus>();
        std::vector<std::pair<std::string, Time>> ended;
        auto record = [&ended](const std::string& name) {
            ended.emplace_back(name, Simulator::Now());
        };
        cpus->Run(MicroSeconds(10), [&]() {
            record("a");
            cpus->Run(MicroSeconds(1), [&]() { record("c"); }); // behind b
        });
        cpus->Run(Time(0), [&]() { record("b"); });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(ended.size(), 3, "three jobs ended");
        NS_TEST_EXPECT_MSG_EQ(ended[0].first + ended[1].first + ended[2].first,
                              "abc",
                              "first come, first served");
        NS_TEST_EXPECT_MSG_EQ(ended[0].second, MicroSeconds(10), "a");
        NS_TEST_EXPECT_MSG_EQ(ended[1].second, MicroSeconds(10), "b: no length, after a");
        NS_TEST_EXPECT_MSG_EQ(ended[2].second, MicroSeconds(11), "c: after b");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The responder host registers on its CPUs: 16 transfers posted together ask
 * for 16 registrations of 1 ms (fixed part 1 ms, nothing per page). With one
 * CPU the k-th registration ends k ms after the first request reached the
 * host; with two, the first two requests are served at once and each CPU
 * then serves every other request. Every transfer succeeds, byte-exact.
 */
class DrpHostRegistrationQueueTestCase : public TestCase
{
  public:
    /// \param count the responder's CPUs
    explicit DrpHostRegistrationQueueTestCase(uint32_t count)
        : TestCase("16 registrations of 1 ms on " + std::to_string(count) +
                   " responder CPU(s) end one CPU-time apart"),
          m_count(count)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t transfers = 16;
        RnicHelper rnic;
        // Long enough that no request is repeated while the host is busy.
        rnic.SetTransportAttribute("HandshakeTimeout", TimeValue(MilliSeconds(100)));
        RdmaHostHelper host = MakeWorkload(transfers, 4096);
        host.SetAttribute("Concurrency", UintegerValue(transfers));
        host.SetAttribute("RegistrationFixedLatency", TimeValue(MilliSeconds(1)));
        host.SetAttribute("RegistrationLatencyPerPage", TimeValue(Time(0)));
        host.SetCpuAttribute("Count", UintegerValue(m_count));
        PointToPointBed bed(rnic, host);
        Ptr<HostCpus> cpus = bed.Rnic(1)->GetNode()->GetObject<HostCpus>();
        NS_TEST_ASSERT_MSG_NE(cpus, nullptr, "the helper gave the responder node its CPUs");
        NS_TEST_EXPECT_MSG_EQ(cpus->GetCount(), m_count, "with the helper's Count");
        std::vector<Time> arrivals; // when a job reached the CPUs
        cpus->TraceConnectWithoutContext(
            "JobStart",
            drp::FunctorCallback<void, Time, Time>(
                [&arrivals](Time wait, Time) { arrivals.push_back(Simulator::Now() - wait); }));
        std::vector<Time> registered;
        bed.App(1)->TraceConnectWithoutContext(
            "Registration",
            drp::FunctorCallback<void, Mac48Address, uint16_t, bool>(
                [&registered](Mac48Address, uint16_t, bool) {
                    registered.push_back(Simulator::Now());
                }));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(registered.size(), transfers, "one registration per transfer");
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), transfers, "one job per registration");
        NS_TEST_EXPECT_MSG_LT(arrivals.back() - arrivals.front(),
                              MilliSeconds(1),
                              "all requests reached the host before the first registration ended");
        for (uint32_t k = 0; k < transfers; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(registered[k],
                                  arrivals[k % m_count] + MilliSeconds(k / m_count + 1),
                                  "registration " << k);
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), transfers, "every transfer ended");
        for (const auto& r : bed.Records())
        {
            NS_TEST_EXPECT_MSG_EQ(r.GetStatusName(), "success", "transfer " << r.index);
        }
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        // Request k gets a CPU when request k mod Count's CPU has served k / Count before it.
        Time longest;
        for (uint32_t k = 0; k < transfers; ++k)
        {
            longest = Max(longest, arrivals[k % m_count] + MilliSeconds(k / m_count) - arrivals[k]);
        }
        NS_TEST_EXPECT_MSG_EQ(cpus->GetLongestWait(), longest, "longest wait for a CPU");
        Simulator::Destroy();
    }

    uint32_t m_count; //!< the responder's CPUs
};

/**
 * \ingroup drp-tests
 * Registration time per page: the pages a region touches, aligned; the
 * defaults give 20 us for a page-aligned 128 KiB region; a responder takes
 * longer to register 64 MiB than 64 KiB by exactly the pages between them
 * times RegistrationLatencyPerPage. The deprecated RegistrationLatency sets
 * one time for every region.
 */
class DrpHostRegistrationPagesTestCase : public TestCase
{
  public:
    DrpHostRegistrationPagesTestCase()
        : TestCase("registration time: fixed part plus a part per page touched")
    {
    }

  private:
    /**
     * Asks a responder with default attributes, or with \p configure applied,
     * to register 64 KiB and then 64 MiB (hand-made requests).
     * \param configure sets the responder host's attributes
     * \param app receives the responder host
     * \return the CPU time of the two registrations
     */
    std::vector<Time> Register(const std::function<void(RdmaHostHelper&)>& configure,
                               Ptr<RdmaHostApplication>* app)
    {
        RnicHelper rnic;
        RdmaHostHelper host = MakeWorkload(0, 4096);
        host.SetAttribute("Grants", StringValue("any"));
        configure(host);
        PointToPointBed bed(rnic, host);
        *app = bed.App(1);
        Ptr<HostCpus> cpus = bed.Rnic(1)->GetNode()->GetObject<HostCpus>();
        std::vector<Time> durations;
        cpus->TraceConnectWithoutContext(
            "JobStart",
            drp::FunctorCallback<void, Time, Time>(
                [&durations](Time, Time d) { durations.push_back(d); }));
        SendFrameAt(MicroSeconds(10),
                    bed.Rnic(0),
                    bed.Rnic(1),
                    MakeDrpFrame(DrpHeader::REQ, 0x10, uint64_t(1) << 32, 65536, 0));
        SendFrameAt(MicroSeconds(20),
                    bed.Rnic(0),
                    bed.Rnic(1),
                    MakeDrpFrame(DrpHeader::REQ, 0x11, uint64_t(2) << 32, 64u << 20, 0));
        Simulator::Stop(MilliSeconds(50)); // both registered, neither transfer goes on
        bed.Run();
        Simulator::Destroy();
        return durations;
    }

    void DoRun() override
    {
        // Pages touched.
        NS_TEST_EXPECT_MSG_EQ(HostMemory::CountPages(0, 0), 0, "empty region");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::CountPages(0, 1), 1, "one byte");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::CountPages(0, 4096), 1, "one aligned page");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::CountPages(1, 4096), 2, "one page, unaligned");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::CountPages(4095, 2), 2, "two bytes across a boundary");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::CountPages(0, 131072), 32, "128 KiB");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::CountPages(UINT64_MAX, 1), 1, "the last byte");
        NS_TEST_EXPECT_MSG_EQ(HostMemory::CountPages(UINT64_MAX - 4096, 10000),
                              2,
                              "a region past the end counts up to the last page");

        Ptr<RdmaHostApplication> app;
        std::vector<Time> durations = Register([](RdmaHostHelper&) {}, &app);
        Time fixed = GetTime(app, "RegistrationFixedLatency");
        Time perPage = GetTime(app, "RegistrationLatencyPerPage");
        NS_TEST_EXPECT_MSG_EQ(fixed, MicroSeconds(8), "default fixed part");
        NS_TEST_EXPECT_MSG_EQ(perPage, NanoSeconds(375), "default per page");
        NS_TEST_EXPECT_MSG_EQ(app->GetRegistrationTime(0, 131072),
                              MicroSeconds(20),
                              "defaults: 128 KiB, page-aligned, take 20 us");
        NS_TEST_EXPECT_MSG_EQ(app->GetRegistrationTime(4095, 2),
                              fixed + 2 * perPage,
                              "an unaligned region counts every page it touches");
        NS_TEST_EXPECT_MSG_EQ(GetTime(app, "RegistrationLatency"),
                              NanoSeconds(-1),
                              "the deprecated whole time reads -1ns when it depends on pages");
        NS_TEST_ASSERT_MSG_EQ(durations.size(), 2, "two registrations");
        NS_TEST_EXPECT_MSG_EQ(durations[0], fixed + 16 * perPage, "64 KiB: 16 pages");
        NS_TEST_EXPECT_MSG_EQ(durations[1], fixed + 16384 * perPage, "64 MiB: 16384 pages");
        NS_TEST_EXPECT_MSG_EQ(durations[1] - durations[0],
                              (16384 - 16) * perPage,
                              "the difference is the pages between them times the per-page time");

        // The deprecated attribute still works: one time, whatever the size.
        durations = Register(
            [](RdmaHostHelper& host) {
                host.SetAttribute("RegistrationLatency", TimeValue(MicroSeconds(50)));
            },
            &app);
        NS_TEST_ASSERT_MSG_EQ(durations.size(), 2, "two registrations");
        NS_TEST_EXPECT_MSG_EQ(durations[0], MicroSeconds(50), "64 KiB, deprecated attribute");
        NS_TEST_EXPECT_MSG_EQ(durations[1], MicroSeconds(50), "64 MiB, deprecated attribute");
        NS_TEST_EXPECT_MSG_EQ(GetTime(app, "RegistrationLatency"),
                              MicroSeconds(50),
                              "it reads back");
        NS_TEST_EXPECT_MSG_EQ(GetTime(app, "RegistrationLatencyPerPage"),
                              Time(0),
                              "it sets the per-page time to 0");
    }
};

/**
 * \ingroup drp-tests
 * The admission limit: with MaxInFlight 3 and Concurrency 8, the RNIC never
 * has more than 3 transfers initiated at once (and has 3); the other
 * transfers wait in the host and are posted in the order the workload
 * started them; every transfer succeeds, byte-exact; a transfer's start is
 * when the workload asked for it, so its wait is in its duration. At the
 * default limit nothing waits.
 */
class DrpHostAdmissionLimitTestCase : public TestCase
{
  public:
    /// \param limit MaxInFlight (0: the default)
    explicit DrpHostAdmissionLimitTestCase(uint32_t limit)
        : TestCase(limit ? "admission: at most " + std::to_string(limit) +
                               " transfers posted to the RNIC"
                         : "admission: the default limit holds nothing back"),
          m_limit(limit)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t transfers = 20;
        const uint32_t concurrency = 8;
        RnicHelper rnic;
        RdmaHostHelper host = MakeWorkload(transfers, 16384);
        host.SetAttribute("Concurrency", UintegerValue(concurrency));
        if (m_limit)
        {
            host.SetAttribute("MaxInFlight", UintegerValue(m_limit));
        }
        PointToPointBed bed(rnic, host);
        Ptr<RdmaHostApplication> app = bed.App(0);
        uint32_t limit = GetUint(app, "MaxInFlight");
        Ptr<DrpTransport> transport = bed.Rnic(0)->GetTransport();
        size_t mostActive = 0;
        transport->TraceConnectWithoutContext(
            "InitiatorState",
            drp::FunctorCallback<void,
                                 uint16_t,
                                 InitiatorConnection::State,
                                 InitiatorConnection::State>(
                [&](uint16_t, InitiatorConnection::State, InitiatorConnection::State) {
                    mostActive = std::max(mostActive, transport->GetActiveInitiated());
                }));
        std::vector<Time> asked(transfers);
        app->TraceConnectWithoutContext(
            "TransferStart",
            drp::FunctorCallback<void, uint32_t>(
                [&asked](uint32_t index) { asked[index] = Simulator::Now(); }));
        std::vector<uint32_t> posted;
        std::vector<Time> waited;
        uint32_t mostInFlight = 0;
        app->TraceConnectWithoutContext(
            "TransferPost",
            drp::FunctorCallback<void, uint32_t, Time>([&](uint32_t index, Time wait) {
                posted.push_back(index);
                waited.push_back(wait);
                mostInFlight = std::max(mostInFlight, app->GetInFlight());
            }));
        bed.Run();

        uint32_t expected = std::min(limit, concurrency);
        NS_TEST_EXPECT_MSG_EQ(mostActive, expected, "transfers initiated at once, at most");
        NS_TEST_EXPECT_MSG_EQ(mostInFlight, expected, "transfers posted at once, at most");
        NS_TEST_ASSERT_MSG_EQ(posted.size(), transfers, "every transfer posted");
        for (uint32_t i = 0; i < transfers; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(posted[i], i, "posted in the order the workload asked");
        }
        for (uint32_t i = 0; i < concurrency; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(asked[i], Time(0), "the workload asks for " << i << " at 0");
            if (i < expected)
            {
                NS_TEST_EXPECT_MSG_EQ(waited[i], Time(0), "transfer " << i << " posted at once");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(waited[i], Time(0), "transfer " << i << " waited");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), transfers, "every transfer ended");
        for (const auto& r : bed.Records())
        {
            NS_TEST_EXPECT_MSG_EQ(r.GetStatusName(), "success", "transfer " << r.index);
            NS_TEST_EXPECT_MSG_EQ(r.start, asked[r.index], "start: when the workload asked");
        }
        NS_TEST_EXPECT_MSG_EQ(bed.m_compared, transfers, "all compared");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(app->GetInFlight(), 0, "nothing in flight in the end");
        NS_TEST_EXPECT_MSG_EQ(app->GetQueued(), 0, "nothing queued in the end");
        Simulator::Destroy();
    }

    uint32_t m_limit; //!< MaxInFlight (0: the default)
};

/**
 * \ingroup drp-tests
 * The host waits for free transfer ids. Transfers to a host that never
 * answers fail fast (HandshakeTimeout 10 us, MaxRetries 1), and the RNIC
 * holds each failed transfer's TID for the responder's idle time (368.64 ms
 * here): 100 slots use up all 65535 TIDs long before the first hold ends.
 * The host then posts nothing (the RNIC would have no TID to give: it used to
 * throw) until the first hold ends, and posts at exactly that time; the
 * workload still runs to its end.
 */
class DrpHostTidWaitTestCase : public TestCase
{
  public:
    DrpHostTidWaitTestCase()
        : TestCase("admission: the host waits for free transfer ids")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t transfers = 66000; // more than there are TIDs
        RnicHelper rnic;
        rnic.SetMethod("traditional");
        rnic.SetTransportAttribute("HandshakeTimeout", TimeValue(MicroSeconds(10)));
        rnic.SetTransportAttribute("MaxRetries", UintegerValue(1));
        // Long holds: failed transfers' REQs take the wire one at a time
        // (two of 84 bytes each at 1 Gb/s), so using up the TIDs takes about
        // 90 ms of simulated time.
        rnic.SetTransportAttribute("MaxBackoff", UintegerValue(1024));
        RdmaHostHelper host = MakeWorkload(transfers, 64);
        host.SetAttribute("Concurrency", UintegerValue(100));
        host.SetAttribute("MaxInFlight", UintegerValue(100));
        PointToPointBed bed(rnic, host, false);
        Ptr<DrpTransport> transport = bed.Rnic(0)->GetTransport();
        Time firstFailure = Time::Max();
        transport->TraceConnectWithoutContext(
            "InitiatorState",
            drp::FunctorCallback<void,
                                 uint16_t,
                                 InitiatorConnection::State,
                                 InitiatorConnection::State>(
                [&](uint16_t, InitiatorConnection::State, InitiatorConnection::State to) {
                    if (to == InitiatorConnection::FAILED && firstFailure == Time::Max())
                    {
                        firstFailure = Simulator::Now();
                    }
                }));
        Time firstWait = Time::Max(); // the first post that had to wait
        Ptr<RdmaHostApplication> app = bed.App(0);
        app->TraceConnectWithoutContext(
            "TransferPost",
            drp::FunctorCallback<void, uint32_t, Time>([&](uint32_t, Time wait) {
                if (wait > Time(0) && firstWait == Time::Max())
                {
                    firstWait = Simulator::Now();
                }
            }));
        bool threw = false;
        try
        {
            bed.Run();
        }
        catch (const std::runtime_error&)
        {
            threw = true;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, false, "the host never asked for a TID when none was free");

        Time idle = 3 * std::max(GetTime(transport, "HandshakeTimeout"),
                                 GetTime(transport, "RetransmissionTimeout") *
                                     int64_t(GetUint(transport, "MaxBackoff")));
        NS_TEST_EXPECT_MSG_EQ(idle, MicroSeconds(368640), "the responder's idle time");
        NS_TEST_ASSERT_MSG_NE(firstWait, Time::Max(), "some transfer waited for a TID");
        NS_TEST_EXPECT_MSG_EQ(firstWait,
                              firstFailure + idle,
                              "posted when the first held TID came free");
        NS_TEST_EXPECT_MSG_EQ(bed.Records().size(), transfers, "the workload ran to its end");
        NS_TEST_EXPECT_MSG_EQ(app->GetQueued(), 0, "nothing left waiting");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Invalid host attribute values fail with std::invalid_argument naming the
 * attribute, the value and the valid range.
 */
class DrpHostInvalidValuesTestCase : public TestCase
{
  public:
    DrpHostInvalidValuesTestCase()
        : TestCase("invalid host CPU, registration and admission values fail clearly")
    {
    }

  private:
    /**
     * Runs \p action, which must throw std::invalid_argument whose message
     * names every one of \p parts.
     * \param action the mistake
     * \param parts what the message must name
     */
    void ExpectInvalid(const std::function<void()>& action, const std::vector<std::string>& parts)
    {
        std::string message;
        try
        {
            action();
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message, "", parts[0] << ": std::invalid_argument thrown");
        for (const auto& part : parts)
        {
            NS_TEST_EXPECT_MSG_NE(message.find(part),
                                  std::string::npos,
                                  "message \"" << message << "\" names \"" << part << "\"");
        }
    }

    void DoRun() override
    {
        Ptr<HostCpus> cpus = CreateObject<HostCpus>();
        ExpectInvalid([&]() { cpus->SetAttribute("Count", UintegerValue(0)); },
                      {"HostCpus::Count", "= 0", "[1, 1024]"});
        ExpectInvalid([&]() { cpus->SetAttribute("Count", UintegerValue(1025)); },
                      {"HostCpus::Count", "= 1025", "[1, 1024]"});
        NS_TEST_EXPECT_MSG_EQ(cpus->GetCount(), 1, "unchanged after a refused value");
        ExpectInvalid(
            [&]() {
                RdmaHostHelper helper;
                helper.SetCpuAttribute("Count", UintegerValue(0));
                helper.Install(CreateObject<Node>());
            },
            {"HostCpus::Count", "= 0", "[1, 1024]"});

        Ptr<RdmaHostApplication> app = CreateObject<RdmaHostApplication>();
        ExpectInvalid([&]() { app->SetAttribute("MaxInFlight", UintegerValue(0)); },
                      {"RdmaHostApplication::MaxInFlight", "= 0", "[1, 65535]"});
        ExpectInvalid([&]() { app->SetAttribute("MaxInFlight", UintegerValue(65536)); },
                      {"RdmaHostApplication::MaxInFlight", "= 65536", "[1, 65535]"});
        ExpectInvalid(
            [&]() { app->SetAttribute("RegistrationFixedLatency", TimeValue(MicroSeconds(-1))); },
            {"RdmaHostApplication::RegistrationFixedLatency", "out of range", "10s]"});
        ExpectInvalid(
            [&]() { app->SetAttribute("RegistrationFixedLatency", TimeValue(Seconds(11))); },
            {"RdmaHostApplication::RegistrationFixedLatency", "11s", "10s]"});
        ExpectInvalid(
            [&]() { app->SetAttribute("RegistrationLatencyPerPage", TimeValue(MilliSeconds(2))); },
            {"RdmaHostApplication::RegistrationLatencyPerPage", "2ms", "1ms]"});
        ExpectInvalid(
            [&]() { app->SetAttribute("RegistrationLatency", TimeValue(NanoSeconds(-2))); },
            {"RdmaHostApplication::RegistrationLatency", "deprecated", "out of range", "10s]"});
        NS_TEST_EXPECT_MSG_EQ(GetTime(app, "RegistrationFixedLatency"),
                              MicroSeconds(8),
                              "unchanged after refused values");
        NS_TEST_EXPECT_MSG_EQ(GetTime(app, "RegistrationLatencyPerPage"),
                              NanoSeconds(375),
                              "unchanged after refused values");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The host's CPUs, registration time and admission limit.
 */
class DrpHostTestSuite : public TestSuite
{
  public:
    DrpHostTestSuite()
        : TestSuite("drp-host", DRP_TEST_SYSTEM)
    {
        AddTestCase(new DrpHostCpusTestCase(1), DRP_TEST_QUICK);
        AddTestCase(new DrpHostCpusTestCase(2), DRP_TEST_QUICK);
        AddTestCase(new DrpHostCpusFifoTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHostPacketTimeTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHostRegistrationQueueTestCase(1), DRP_TEST_QUICK);
        AddTestCase(new DrpHostRegistrationQueueTestCase(2), DRP_TEST_QUICK);
        AddTestCase(new DrpHostRegistrationPagesTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHostAdmissionLimitTestCase(3), DRP_TEST_QUICK);
        AddTestCase(new DrpHostAdmissionLimitTestCase(0), DRP_TEST_QUICK);
        AddTestCase(new DrpHostTidWaitTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHostInvalidValuesTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's one instance.
static DrpHostTestSuite g_drpHostTestSuite;
