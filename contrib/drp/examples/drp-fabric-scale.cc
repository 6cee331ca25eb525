/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Scale of fabric runs: leaf-spine (or k-ary fat-tree) fabrics of several sizes running
 * open-loop Poisson traffic with web-search flow sizes at a load of the host
 * links, each a FabricScenario (what rnic-fabric and drp.run_fabric run). For each size it prints
 * wall and CPU time, simulated time, events, events per second, peak resident memory, data frames
 * moved, wall time per frame, events per frame, and the data frames sent again. Each size runs in
 * a child process of its own, so that its peak memory is its own.
 *
 * Defaults: 16 hosts per leaf (8 leaves for 128 hosts), 4 spines, 1 Gbps
 * host links, 10 Gbps uplinks, 50 % load, 10,000 flows for 128 hosts and
 * proportionally many for the other sizes (the arrivals window is chosen so
 * that the expected number of flows is that). --topology=fat-tree runs k-ary
 * fat-trees instead (--k, 16 by default: 1,024 hosts, 80,000 flows unless
 * --flows says fewer), every link at the host links' 1 Gbps (a fat-tree's
 * full bisection bandwidth comes from its one link rate; FatTreeFabricHelper).
 * A benchmark: it prints figures and checks nothing.
 *
 *     drp-fabric-scale [--topology=leaf-spine|fat-tree] [--hosts=16,32,64,128,256] [--k=16]
 *                      [--flows=10000] [--load=0.5]
 *                      [--cdf=web-search] [--method=dynamic] [--rto=TIME]
 *                      [--timeoutMode=fixed|adaptive] [--cc=none|dcqcn|dctcp|timely]
 *                      [--lossless] [--buffer=12MiB]
 *                      [--scheduler=map|calendar|priority-queue|arrivals-last]
 *
 * The timer of the data phase is fixed by default (RetransmissionTimeout);
 * queueing in a loaded fabric outlasts the default, so many retransmissions
 * are spurious, and every one is a frame to simulate. --rto shows what they
 * cost; --timeoutMode=adaptive estimates the timeout per peer instead (RFC
 * 6298; --rto is then the initial RTO). --cc turns on ECN marking in the
 * switch queues (FabricScenario's defaults) and that congestion control in
 * the RNICs; --lossless makes the fabric lossless (PFC and a shared buffer
 * per switch, FabricScenario's lossless). The last columns count the frames
 * marked CE and the pause frames the switch ports sent. --scheduler picks the
 * simulator's event queue (ns-3's MapScheduler by default): the same events in the same order,
 * at another cost per event; arrivals-last (ArrivalsLastScheduler) orders the events of one
 * nanosecond as a run split over MPI ranks needs, which changes results where they meet.
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

/// What one size is run with.
struct Settings
{
    std::string topology{"leaf-spine"}; //!< leaf-spine or fat-tree
    uint32_t flowsAt128{10000};         //!< flows for 128 hosts
    double load{0.5};                   //!< load of the host links
    std::string cdf{"web-search"};      //!< flow sizes
    std::string method{"dynamic"};      //!< RNIC method
    uint32_t spines{4};                 //!< spine switches
    DataRate hostRate{"1Gbps"};         //!< host links
    DataRate uplinkRate{"10Gbps"};      //!< leaf-spine links
    Time rto{DefaultRto()};             //!< the transports' RetransmissionTimeout
    std::string timeoutMode{"fixed"};   //!< the transports' TimeoutMode: fixed or adaptive
    std::string cc{"none"};       //!< congestion control: none, dcqcn, dctcp (with ECN), timely
    bool lossless{false};         //!< PFC and a shared buffer per switch
    std::string buffer{"12MiB"};  //!< lossless: each switch's buffer
    std::string scheduler{"map"}; //!< the event queue: map, calendar, priority-queue, ...
    std::string nic{"auto"};      //!< the RNICs' NIC profile (auto: the card of hostRate)

    /// \return DrpTransport's default RetransmissionTimeout
    static Time DefaultRto()
    {
        TypeId::AttributeInformation info;
        DrpTransport::GetTypeId().LookupAttributeByName("RetransmissionTimeout", &info);
        return DynamicCast<const TimeValue>(info.initialValue)->Get();
    }
};

/**
 * Runs one fabric size, a FabricScenario, and prints its line.
 * \param size leaf-spine: the hosts in the fabric; fat-tree: k, ports per switch
 * \param s the settings
 */
void
RunSize(uint32_t size, const Settings& s)
{
    FabricScenario::Config config;
    config.topology = s.topology;
    uint32_t hosts = size;
    if (s.topology == "fat-tree")
    {
        config.k = size;
        hosts = size * size * size / 4;
    }
    else
    {
        config.hosts = std::min<uint32_t>(16, std::max<uint32_t>(hosts / 2, 1)); // per leaf
        config.leaves = hosts / config.hosts;
        config.spines = s.spines;
    }
    config.workload = "poisson";
    config.nic = s.nic;
    config.load = s.load;
    config.cdf = s.cdf;
    config.method = s.method;
    config.hostRate = s.hostRate;
    // A fat-tree has full bisection bandwidth with one link rate: the host links'.
    config.fabricRate = s.topology == "fat-tree" ? s.hostRate : s.uplinkRate;
    config.timeoutMode = s.timeoutMode;
    config.cc = s.cc;
    config.ecn = FabricScenario::ReactsToEcn(s.cc);
    config.lossless = s.lossless;
    config.buffer = s.buffer;
    // The arrivals window in which the expected number of flows is the one asked for.
    const double flows = s.flowsAt128 * hosts / 128.0;
    const double perHostPerSecond =
        s.load * s.hostRate.GetBitRate() / (8 * FlowSizeCdf::Load(s.cdf).GetMeanBytes());
    config.duration = Seconds(flows / (hosts * perHostPerSecond));
    // This process runs one size only (see main): a default set here is its own.
    ns3::Config::SetDefault("ns3::DrpTransport::RetransmissionTimeout", TimeValue(s.rto));
    // calendar and priority-queue order events by time, then by the order
    // they were scheduled in: the same run, at another cost; arrivals-last
    // orders the arrivals of a nanosecond after its other events, by port
    // (ArrivalsLastScheduler). (ns-3.37's HeapScheduler
    // is left out: with it, the same run sent frames again that the others
    // did not, or aborted with a corrupted heap.) map: ns-3's SchedulerType
    // as it is (MapScheduler unless --SchedulerType says otherwise).
    if (s.scheduler != "map")
    {
        ObjectFactory scheduler;
        scheduler.SetTypeId(s.scheduler == "calendar"        ? "ns3::CalendarScheduler"
                            : s.scheduler == "arrivals-last" ? "ns3::ArrivalsLastScheduler"
                                                             : "ns3::PriorityQueueScheduler");
        Simulator::SetScheduler(scheduler);
    }
    const FabricScenario::Result result = FabricScenario::Run(config);

    uint64_t bytes = 0;
    uint64_t retransmissions = 0;
    for (const auto& t : result.transfers)
    {
        bytes += t.record.length;
        retransmissions += t.record.retransmissions;
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    const double cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                       (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
    const double wall = result.wallSeconds;
    const double frames = std::ceil(bytes / 1024.0);
    std::cout << std::fixed << std::setw(6) << result.hosts << std::setw(8) << result.flows
              << std::setw(8) << result.transfers.size() << std::setw(8)
              << result.Count(DrpTransferRecord::SUCCESS) << std::setprecision(1) << std::setw(10)
              << wall << std::setw(9) << cpu << std::setprecision(3) << std::setw(10)
              << result.simulatedTime.GetSeconds() << std::setw(13) << result.events
              << std::setprecision(0) << std::setw(11) << result.events / wall << std::setw(9)
              << usage.ru_maxrss / 1024 << std::setw(11) << frames << std::setprecision(2)
              << std::setw(10) << wall / frames * 1e6 << std::setw(10) << result.events / frames
              << std::setw(10) << retransmissions << std::setw(10) << result.GetEcnMarks()
              << std::setw(9) << result.GetPausesSent() << std::endl;
}

/**
 * Parses a comma-separated list of sizes.
 * \param option the option's name, for errors
 * \param list the list
 * \param check throws std::invalid_argument for a size it refuses
 * \return the sizes
 */
template <typename Check>
std::vector<uint32_t>
ParseSizes(const std::string& option, const std::string& list, Check check)
{
    std::vector<uint32_t> sizes;
    std::stringstream items(list);
    for (std::string item; std::getline(items, item, ',');)
    {
        const uint32_t n = drp::ParseStrict<uint32_t>(option, item);
        check(n);
        sizes.push_back(n);
    }
    return sizes;
}

/**
 * Checks a leaf-spine size.
 * \param n hosts; std::invalid_argument unless this benchmark can build exactly n
 */
void
CheckLeafSpineHosts(uint32_t n)
{
    drp::RequireInRange<uint32_t>("hosts", n, 2, 65535);
    // Two leaves of n / 2 hosts up to 32, else leaves of 16: what
    // RunSize() builds must be n hosts exactly.
    if (n % 2 != 0 || (n > 32 && n % 16 != 0))
    {
        throw std::invalid_argument(
            "hosts = " + std::to_string(n) +
            " cannot be built as this benchmark's leaf-spine (two leaves of hosts / 2 "
            "up to 32 hosts, leaves of 16 above): give an even number up to 32 or a "
            "multiple of 16");
    }
}

/**
 * Checks a fat-tree size.
 * \param k ports per switch; std::invalid_argument unless even, 2 to 62 (FatTreeFabricHelper)
 */
void
CheckFatTreeK(uint32_t k)
{
    drp::RequireInRange<uint32_t>("k", k, 2, 62);
    if (k % 2 != 0)
    {
        throw std::invalid_argument("k = " + std::to_string(k) +
                                    ": a fat-tree's switches have an even number of ports "
                                    "(valid: even, 2 to 62)");
    }
}

/**
 * \param s the settings
 * \return the first line: the fabric and the traffic
 */
std::string
Describe(const Settings& s)
{
    std::ostringstream os;
    if (s.topology == "fat-tree")
    {
        os << "fat-tree, links " << drp::ShowDataRate(s.hostRate);
    }
    else
    {
        os << "leaf-spine, " << s.spines << " spines, 16 hosts per leaf, host links "
           << drp::ShowDataRate(s.hostRate) << ", uplinks " << drp::ShowDataRate(s.uplinkRate);
    }
    os << "; Poisson " << s.cdf << " flows at load " << s.load << ", " << s.method
       << " RNICs, RetransmissionTimeout " << s.rto.As(Time::US)
       << (s.timeoutMode == "adaptive" ? " (initial), adaptive timeouts" : "")
       << (FabricScenario::ReactsToEcn(s.cc) ? ", ECN and " + s.cc
                                             : (s.cc != "none" ? ", " + s.cc : ""))
       << (s.lossless ? ", lossless (PFC), buffers of " + s.buffer : "")
       << (s.scheduler != "map" ? ", " + s.scheduler + " scheduler" : "");
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    Settings s;
    std::string sizes = "16,32,64,128,256";
    std::string ks = "16";
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    cmd.AddValue("topology", "leaf-spine or fat-tree", s.topology);
    cmd.AddValue("hosts",
                 "leaf-spine: fabric sizes, comma-separated (even up to 32: two leaves; above, "
                 "multiples of 16: 16 per leaf)",
                 sizes);
    cmd.AddValue("k",
                 "fat-tree: ports per switch, comma-separated (even, 2 to 62: k^3/4 hosts)",
                 ks);
    strict.AddValue(cmd, "flows", "flows for 128 hosts (others in proportion)", s.flowsAt128);
    strict.AddValue(cmd, "load", "load of the host links, (0, 1]", s.load);
    cmd.AddValue("cdf", "flow sizes: web-search, data-mining or a CDF file", s.cdf);
    cmd.AddValue("method", "traditional or dynamic", s.method);
    cmd.AddValue("nic",
                 "the RNICs' NIC profile: auto (the card of hostRate) or " +
                     NicProfile::GetNamesText(),
                 s.nic);
    strict.AddValue(cmd,
                    "rto",
                    "the transports' RetransmissionTimeout (adaptive: the initial RTO)",
                    s.rto);
    cmd.AddValue("timeoutMode", "the transports' timers: fixed or adaptive", s.timeoutMode);
    cmd.AddValue(
        "cc",
        "congestion control: none, dcqcn or dctcp (switch queues then mark ECN), or timely",
        s.cc);
    cmd.AddValue("lossless", "a lossless fabric: PFC and a shared buffer per switch", s.lossless);
    cmd.AddValue("buffer", "lossless: each switch's buffer (QueueSize in bytes)", s.buffer);
    cmd.AddValue("scheduler",
                 "the simulator's event queue: map (ns-3's default), calendar or "
                 "priority-queue (the same events in the same order), or arrivals-last "
                 "(ArrivalsLastScheduler: same-time events as a run over MPI ranks orders them)",
                 s.scheduler);
    std::vector<uint32_t> hosts;
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireOneOf("method", s.method, {"traditional", "dynamic"});
        NicProfile::Resolve(s.nic, s.hostRate); // an unknown name, with the valid ones
        drp::RequireOneOf("timeoutMode", s.timeoutMode, {"fixed", "adaptive"});
        drp::RequireOneOf("cc", s.cc, FabricScenario::GetCongestionControls());
        drp::RequireOneOf("scheduler",
                          s.scheduler,
                          {"map", "calendar", "priority-queue", "arrivals-last"});
        FabricScenario::Config buffer; // the buffer's option, checked as the scenario does
        buffer.lossless = true;
        buffer.buffer = s.buffer;
        buffer.Validate();
        CreateObject<DrpTransport>()->SetAttribute("RetransmissionTimeout", TimeValue(s.rto));
        drp::RequireOneOf("topology", s.topology, {"leaf-spine", "fat-tree"});
        hosts = s.topology == "fat-tree" ? ParseSizes("k", ks, CheckFatTreeK)
                                         : ParseSizes("hosts", sizes, CheckLeafSpineHosts);
        FlowSizeCdf::Load(s.cdf);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    std::cout << Describe(s) << "\n"
              << " hosts   flows   ended      ok  wall (s)  cpu (s)   sim (s)       events   "
                 "events/s  RSS MiB     frames  us/frame  ev/frame      retx     marks   pauses"
              << std::endl;
    for (uint32_t n : hosts)
    {
        // One child per size: its peak memory is its own.
        const pid_t child = fork();
        if (child == 0)
        {
            RunSize(n, s);
            std::fflush(stdout);
            _exit(0);
        }
        int status = 0;
        waitpid(child, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        {
            std::cerr << "error: the run with " << n << " hosts failed" << std::endl;
            return 1;
        }
    }
    return 0;
}
