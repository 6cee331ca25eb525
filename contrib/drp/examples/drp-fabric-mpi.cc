/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * A leaf-spine fabric split over MPI ranks (ns-3's distributed simulation),
 * printing every transfer's FCT and every port's counters so that runs on
 * different numbers of ranks can be compared line by line; built only when
 * ns-3 has its mpi module (a source tree configured with --enable-mpi).
 *
 * Leaf l and its hosts run on rank l mod N, spine s on rank s mod N
 * (FabricHelper::ByRoundRobin); every cable between a leaf and a spine on
 * different ranks is an EthernetRemoteChannel whose Delay (--delay) is the
 * lookahead. Every rank builds the whole fabric and the whole workload;
 * only the hosts a rank runs get their transfers. After the run each rank
 * writes the lines of the hosts and switches it runs, and rank 0 gathers
 * them, sorts them and prints them (or writes them to --out):
 *
 *     flow HOST INDEX DESTINATION BYTES STATUS START_NS END_NS FCT_NS RETRANSMISSIONS
 *     port SWITCH PORT FRAMES_OUT EGRESS_DROPS PEAK_BYTES PEAK_FRAMES PAUSES_SENT PAUSES_RECEIVED
 *     rnic HOST DROPS_RECEIVE_ERROR DROPS_FCS PAUSES_SENT PAUSES_RECEIVED
 *
 *     mpirun -np 2 drp-fabric-mpi --sync=granted     # DistributedSimulatorImpl
 *     mpirun -np 2 drp-fabric-mpi --sync=null        # NullMessageSimulatorImpl
 *     drp-fabric-mpi --sync=none                     # sequential, the reference
 *
 * --sync=null needs an end time (--stop, 100 ms: after the last transfer of
 * the default workload; the sequential run ends by itself when its events
 * run out), as ns-3's own null-message examples set one.
 *
 * --sync=none runs without MPI (every node on rank 0's default simulator);
 * the lines are the same, to the nanosecond, on any number of ranks
 * (scripts/check-mpi-ranks.sh compares them). That needs the event order
 * of ArrivalsLastScheduler, the default (--scheduler=arrivals-last): ns-3's
 * own schedulers run events of the same time in the order they were
 * scheduled, and a frame from another rank is scheduled when its message
 * arrives, not when it left, so where its arrival and another event of the
 * node fall on the same nanosecond the results depend on the ranks
 * (--scheduler=map shows it). --skew gives cable k the delay + k x skew
 * (default 0). With --timing it also prints, on rank 0, the wall-clock
 * seconds of Simulator::Run() (the slowest rank).
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/mpi-interface.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mpi.h>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Rank 0 gets every rank's lines (MPI_Gatherv of their text).
 * \param lines this rank's lines
 * \return on rank 0 every rank's lines, sorted; elsewhere nothing
 */
std::vector<std::string>
GatherLines(const std::vector<std::string>& lines)
{
    std::string text;
    for (const auto& line : lines)
    {
        text += line + "\n";
    }
    std::vector<std::string> result;
    for (const std::string& part : FabricRanks::GatherTexts(text))
    {
        std::istringstream is(part);
        for (std::string line; std::getline(is, line);)
        {
            result.push_back(line);
        }
    }
    std::sort(result.begin(), result.end());
    return result;
}

/**
 * A fixed-width number, so that sorted lines come in numeric order.
 * \param n the number
 * \return it, zero-padded to six digits
 */
std::string
Pad(uint64_t n)
{
    std::ostringstream os;
    os << std::setw(6) << std::setfill('0') << n;
    return os.str();
}

/**
 * \param port an Ethernet port (a switch's or an RNIC's)
 * \return the pause frames it sent and received over all classes, as "sent received"
 */
std::string
Pauses(Ptr<EthernetNetDevice> port)
{
    uint64_t sent = 0;
    uint64_t received = 0;
    for (uint8_t cls = 0; cls < EthernetNetDevice::PFC_CLASSES; ++cls)
    {
        sent += port->GetPausesSent(cls);
        received += port->GetPausesReceived(cls);
    }
    return std::to_string(sent) + " " + std::to_string(received);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t leaves = 4;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 4;
    std::string workload = "poisson";
    uint32_t bytes = 262144;
    double load = 0.5;
    Time duration = MilliSeconds(1);
    Time delay = MicroSeconds(1);
    std::string hostRate = "10Gbps";
    // The paper's card, as the figures of this program in drp.rst were made
    // (rnic-fabric takes the card of hostRate: --nic=auto).
    std::string nic = NicProfile::PAPER;
    std::string fabricRate = "10Gbps";
    std::string queue = "100p";
    std::string sync = "granted";
    std::string out;
    uint32_t run = 1;
    bool timing = false;
    Time stop = MilliSeconds(100);
    Time skew = NanoSeconds(0);
    std::string scheduler = "arrivals-last";

    CommandLine cmd(__FILE__);
    cmd.AddValue("leaves", "leaf switches", leaves);
    cmd.AddValue("spines", "spine switches", spines);
    cmd.AddValue("hosts", "hosts per leaf", hostsPerLeaf);
    cmd.AddValue("workload", "permutation, all-to-all or poisson (web-search sizes)", workload);
    cmd.AddValue("bytes", "permutation, all-to-all: bytes per flow", bytes);
    cmd.AddValue("load", "poisson: load of each host link", load);
    cmd.AddValue("duration", "poisson: arrivals come this long", duration);
    cmd.AddValue("delay", "every cable's Delay (the lookahead; above 0)", delay);
    cmd.AddValue("hostRate", "host links", hostRate);
    cmd.AddValue("nic",
                 "the RNICs' NIC profile: " + NicProfile::GetNamesText() +
                     " or auto (the card of hostRate, rnic-fabric's default)",
                 nic);
    cmd.AddValue("fabricRate", "leaf-spine links", fabricRate);
    cmd.AddValue("queue", "every switch port's egress queue", queue);
    cmd.AddValue("sync",
                 "none (sequential), granted (DistributedSimulatorImpl) or "
                 "null (NullMessageSimulatorImpl)",
                 sync);
    cmd.AddValue("out", "write the lines to this file (rank 0; default: standard output)", out);
    cmd.AddValue("run", "ns-3 RNG run number", run);
    cmd.AddValue("timing", "print the wall-clock seconds of the run (rank 0)", timing);
    cmd.AddValue("skew", "cable k (in the order of the switch ports) gets delay + k x skew", skew);
    cmd.AddValue("stop", "--sync=null: the simulation's end (after every transfer)", stop);
    cmd.AddValue("scheduler",
                 "arrivals-last (ArrivalsLastScheduler: the same results on any number of "
                 "ranks) or map (MapScheduler, ns-3's default)",
                 scheduler);
    cmd.Parse(argc, argv);
    try
    {
        drp::RequireOneOf("scheduler", scheduler, {"arrivals-last", "map"});
        drp::RequireOneOf("sync", sync, {"none", "granted", "null"});
        NicProfile::Resolve(nic, DataRate(hostRate)); // an unknown name, with the valid ones
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "drp-fabric-mpi: " << e.what() << "\n";
        return 2;
    }
    if (!delay.IsStrictlyPositive())
    {
        std::cerr << "drp-fabric-mpi: --delay=" << delay.As(Time::NS)
                  << ", must be above 0 (the lookahead)\n";
        return 2;
    }

    GlobalValue::Bind(
        "SchedulerType",
        StringValue(scheduler == "map" ? "ns3::MapScheduler" : "ns3::ArrivalsLastScheduler"));
    if (sync != "none")
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(sync == "null" ? "ns3::NullMessageSimulatorImpl"
                                                     : "ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(&argc, &argv);
    }
    const uint32_t ranks = MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
    const uint32_t rank = FabricHelper::GetLocalSystemId();
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);

    RnicHelper rnic;
    rnic.SetProfile(NicProfile::Resolve(nic, DataRate(hostRate)));
    rnic.SetDeviceAttribute("DataRate", DataRateValue(DataRate(hostRate)));
    rnic.SetChannelAttribute("Delay", TimeValue(delay));
    EthernetHelper links;
    links.SetDeviceAttribute("DataRate", DataRateValue(DataRate(fabricRate)));
    links.SetChannelAttribute("Delay", TimeValue(delay));
    links.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize(queue)));

    FabricHelper::SetSwitchSystemIds(FabricHelper::ByRoundRobin(ranks, leaves));
    LeafSpineFabricHelper fabric(leaves, spines, hostsPerLeaf, rnic, links);
    FabricHelper::SetSwitchSystemIds(nullptr);
    // Cables of slightly different lengths, so that frames from two cables
    // seldom reach a node on the same nanosecond (see the file's comment).
    std::set<Ptr<Channel>> cables;
    NetDeviceContainer ports = fabric.GetSwitchPorts();
    for (uint32_t i = 0; i < ports.GetN(); ++i)
    {
        Ptr<Channel> cable = ports.Get(i)->GetChannel();
        if (cables.insert(cable).second)
        {
            cable->SetAttribute("Delay", TimeValue(delay + skew * int64_t(cables.size() - 1)));
        }
    }

    FabricWorkloadHelper flows(fabric);
    flows.AssignStreams(1);
    if (workload == "permutation")
    {
        flows.AddPermutation(bytes, Seconds(0));
    }
    else if (workload == "all-to-all")
    {
        flows.AddAllToAll(bytes, Seconds(0));
    }
    else
    {
        flows.AddPoisson(FlowSizeCdf::Load("web-search"),
                         load,
                         DataRate(hostRate),
                         Seconds(0),
                         duration);
    }
    RdmaHostHelper host;
    host.SetAttribute("ForgetData", BooleanValue(true));
    ApplicationContainer apps = flows.Install(host);
    RdmaHostHelper::AssignStreams(apps, 100);
    apps.Start(Seconds(0));

    if (sync == "null")
    {
        // ns-3's null-message synchronizer needs an end: a rank whose own
        // events run out before the others' would fail an assertion.
        Simulator::Stop(stop);
    }
    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();

    std::map<Mac48Address, uint32_t> hostOf;
    for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
    {
        hostOf[Mac48Address::ConvertFrom(fabric.GetRnic(h)->GetAddress())] = h;
    }
    std::vector<std::string> lines;
    for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
    {
        if (!FabricHelper::IsLocal(fabric.GetHost(h)))
        {
            continue;
        }
        auto app = DynamicCast<RdmaHostApplication>(apps.Get(h));
        for (const auto& r : app->GetRecords())
        {
            std::ostringstream os;
            os << "flow " << Pad(h) << " " << Pad(r.index) << " " << hostOf.at(r.peer) << " "
               << r.length << " " << r.GetStatusName() << " " << r.start.GetNanoSeconds() << " "
               << r.end.GetNanoSeconds() << " " << (r.end - r.start).GetNanoSeconds() << " "
               << r.retransmissions;
            lines.push_back(os.str());
        }
        Ptr<RnicNetDevice> dev = fabric.GetRnic(h);
        std::ostringstream os;
        os << "rnic " << Pad(h) << " " << dev->GetReceiveErrorDrops() << " "
           << dev->GetFcsErrorDrops() << " " << Pauses(dev);
        lines.push_back(os.str());
    }
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        if (!FabricHelper::IsLocal(fabric.GetSwitches().Get(s)))
        {
            continue;
        }
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            EcmpSwitchNetDevice::PortStats stats = sw->GetPortStats(p);
            std::ostringstream os;
            os << "port " << Pad(s) << " " << Pad(p) << " " << stats.framesOut << " "
               << stats.egressDrops << " " << stats.peakBytes << " " << stats.peakFrames << " "
               << Pauses(sw->GetPort(p));
            lines.push_back(os.str());
        }
    }
    // Gathered before Simulator::Destroy(), which ends the distributed
    // simulator's use of MPI.
    std::vector<std::string> all = GatherLines(lines);
    double slowest = wall;
    if (MpiInterface::IsEnabled())
    {
        MPI_Reduce(&wall, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MpiInterface::GetCommunicator());
    }
    Simulator::Destroy();
    if (rank == 0)
    {
        std::ofstream file;
        if (!out.empty())
        {
            file.open(out);
        }
        std::ostream& os = out.empty() ? std::cout : file;
        for (const auto& line : all)
        {
            os << line << "\n";
        }
        if (timing)
        {
            std::cout << "ranks " << ranks << " sync " << sync << " lines " << all.size()
                      << " wall_s " << slowest << "\n";
        }
    }
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
    return 0;
}
