/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-ranks.h"

#include "ns3/boolean.h"
#include "ns3/ecmp-switch-net-device.h"
#include "ns3/ethernet-channel.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"

#ifdef DRP_MPI
#include "ns3/ethernet-remote-channel.h"
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRanks");

void
FabricRanks::Enable(int* argc, char*** argv)
{
#ifdef DRP_MPI
    GlobalValue::Bind("SchedulerType", StringValue("ns3::ArrivalsLastScheduler"));
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(argc, argv);
#else
    (void)argc;
    (void)argv;
    throw std::invalid_argument(
        "sync = granted splits the fabric over MPI ranks: it needs ns-3's mpi module (an ns-3 "
        "source tree configured with --enable-mpi; Debian's ns-3 has none)");
#endif
}

void
FabricRanks::Disable()
{
#ifdef DRP_MPI
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
#endif
}

uint32_t
FabricRanks::GetCount()
{
#ifdef DRP_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

uint32_t
FabricRanks::GetRank()
{
    return FabricHelper::GetLocalSystemId();
}

void
FabricRanks::RequireSupported(const FabricScenario::Config& config, uint32_t ranks)
{
    const std::string over = " in a run over " + std::to_string(ranks) + " ranks";
    if (!config.topologyFile.empty())
    {
        throw std::invalid_argument("topologyFile = " + config.topologyFile + over +
                                    ": a split is defined for the built-in leaf-spine and "
                                    "fat-tree only");
    }
    if (config.topology != "leaf-spine" && config.topology != "fat-tree")
    {
        throw std::invalid_argument("topology = " + config.topology + over +
                                    ": a split is defined for leaf-spine (by leaf) and "
                                    "fat-tree (by pod) only");
    }
    RequireCarried(config, over);
}

void
FabricRanks::RequireCarried(const FabricScenario::Config& config, const std::string& where)
{
    const std::vector<std::pair<const char*, bool>> overTime{
        {"rates", config.rates},
        {"queueInterval", config.queueInterval.IsStrictlyPositive()},
        {"flowRateInterval", config.flowRateInterval.IsStrictlyPositive()},
        {"pfcFile", !config.pfcFile.empty()},
        {"qlenFile", !config.qlenFile.empty()}};
    for (const auto& [name, given] : overTime)
    {
        if (given)
        {
            throw std::invalid_argument(std::string(name) + where +
                                        ": what it records over time is not carried from "
                                        "process to process; run it in one process");
        }
    }
}

FabricHelper::SystemIdOf
FabricRanks::GetPlacement(const FabricScenario::Config& config, uint32_t ranks)
{
    if (config.topology == "leaf-spine")
    {
        // Leaves 0 .. leaves - 1, then the spines, each round-robin from rank 0.
        return FabricHelper::ByRoundRobin(ranks, config.leaves);
    }
    // A fat-tree: the core switches first, then pod by pod its k/2
    // aggregation and k/2 edge switches; a pod stays on one rank.
    const uint32_t cores = (config.k / 2) * (config.k / 2);
    const uint32_t k = config.k;
    return [cores, k, ranks](uint32_t sw) {
        return sw < cores ? sw % ranks : ((sw - cores) / k) % ranks;
    };
}

void
FabricRanks::RequireLookahead(const FabricHelper& fabric)
{
#ifdef DRP_MPI
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            auto cable = DynamicCast<EthernetRemoteChannel>(sw->GetPort(p)->GetChannel());
            if (cable && !cable->GetDelay().IsStrictlyPositive())
            {
                throw std::invalid_argument(
                    "a cable between two ranks has delay 0: ns-3's synchronisation of the ranks "
                    "needs a delay above 0 (its "
                    "lookahead); set ns3::EthernetChannel::Delay, e.g. "
                    "--ns3::EthernetChannel::Delay=1us");
            }
        }
    }
#else
    (void)fabric;
#endif
}

std::string
FabricRanks::Pack(const FabricScenario::Result& result)
{
    std::ostringstream os;
    // The run's shape, the same on every rank; doubles with every digit.
    os << "R " << result.hosts << ' ' << result.switchCount << ' ' << result.flows << ' '
       << std::setprecision(17) << result.expectedFlows << ' ' << result.wallSeconds << '\n';
    os << 'N';
    for (uint32_t node : result.switchNodes)
    {
        os << ' ' << node;
    }
    os << '\n';
    for (const auto& t : result.transfers)
    {
        const DrpTransferRecord& r = t.record;
        os << "T " << t.source << ' ' << t.destination << ' ' << t.switches << ' ' << t.sourceNode
           << ' ' << t.destinationNode << ' ' << t.flowId << ' ' << t.ideal.GetTimeStep() << ' '
           << r.index << ' ' << r.tid << ' ' << r.peer << ' ' << r.read << ' ' << r.sba << ' '
           << r.dba << ' ' << r.length << ' ' << r.mode << ' ' << r.status << ' ' << r.requests
           << ' ' << r.invalidReplies << ' ' << r.timeouts << ' ' << r.retransmissions << ' '
           << r.cnps << ' ' << unsigned(r.nak) << ' ' << unsigned(r.rnrTimer) << ' '
           << r.start.GetTimeStep() << ' ' << r.end.GetTimeStep() << '\n';
    }
    for (const auto& p : result.ports)
    {
        os << "P " << p.sw << ' ' << p.port << ' ' << p.stats.framesOut << ' '
           << p.stats.egressDrops << ' ' << p.stats.peakBytes << ' ' << p.stats.peakFrames << ' '
           << p.ecnMarks << ' ' << p.pausesSent << ' ' << p.pausesReceived << ' '
           << p.timePaused.GetTimeStep() << ' ' << p.pfcStorms << ' ' << p.headroomFrames << ' '
           << p.peakIngressBytes << '\n';
    }
    for (const auto& d : result.drops)
    {
        os << "D " << d.device << ' ' << d.reason << ' ' << d.frames << '\n';
    }
    os << "S " << result.events << ' ' << result.simulatedTime.GetTimeStep() << ' '
       << result.simulatorEnd.GetTimeStep() << ' ' << result.rnicPausesReceived << ' '
       << result.rnicTimePaused.GetTimeStep() << ' ' << result.peakBufferBytes << '\n';
    return os.str();
}

void
FabricRanks::Merge(const std::string& text, FabricScenario::Result& result)
{
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
    {
        std::istringstream is(line);
        char kind = 0;
        is >> kind;
        if (kind == 'T')
        {
            FabricScenario::Transfer t;
            DrpTransferRecord& r = t.record;
            int64_t ideal = 0;
            int64_t start = 0;
            int64_t end = 0;
            std::string peer;
            int mode = 0;
            int status = 0;
            unsigned nak = 0;
            unsigned rnrTimer = 0;
            is >> t.source >> t.destination >> t.switches >> t.sourceNode >> t.destinationNode >>
                t.flowId >> ideal >> r.index >> r.tid >> peer >> r.read >> r.sba >> r.dba >>
                r.length >> mode >> status >> r.requests >> r.invalidReplies >> r.timeouts >>
                r.retransmissions >> r.cnps >> nak >> rnrTimer >> start >> end;
            t.ideal = TimeStep(ideal);
            r.peer = Mac48Address(peer.c_str());
            r.mode = static_cast<DrpTransferRecord::Mode>(mode);
            r.status = static_cast<DrpTransferRecord::Status>(status);
            r.nak = static_cast<uint8_t>(nak);
            r.rnrTimer = static_cast<uint8_t>(rnrTimer);
            r.start = TimeStep(start);
            r.end = TimeStep(end);
            result.transfers.push_back(t);
        }
        else if (kind == 'P')
        {
            FabricScenario::Port p;
            int64_t paused = 0;
            is >> p.sw >> p.port >> p.stats.framesOut >> p.stats.egressDrops >> p.stats.peakBytes >>
                p.stats.peakFrames >> p.ecnMarks >> p.pausesSent >> p.pausesReceived >> paused >>
                p.pfcStorms >> p.headroomFrames >> p.peakIngressBytes;
            p.timePaused = TimeStep(paused);
            result.ports.push_back(p);
        }
        else if (kind == 'D')
        {
            FabricScenario::DropCount d;
            is >> d.device >> d.reason >> d.frames;
            auto it = std::find_if(result.drops.begin(), result.drops.end(), [&d](const auto& x) {
                return x.device == d.device && x.reason == d.reason;
            });
            if (it == result.drops.end())
            {
                result.drops.push_back(d);
            }
            else
            {
                it->frames += d.frames;
            }
        }
        else if (kind == 'R')
        {
            double wall = 0;
            is >> result.hosts >> result.switchCount >> result.flows >> result.expectedFlows >>
                wall;
            result.wallSeconds = std::max(result.wallSeconds, wall);
        }
        else if (kind == 'N')
        {
            result.switchNodes.clear();
            for (uint32_t node = 0; is >> node;)
            {
                result.switchNodes.push_back(node);
            }
            is.clear(); // the end of the list is no error
        }
        else if (kind == 'S')
        {
            uint64_t events = 0;
            int64_t simulated = 0;
            int64_t end = 0;
            uint64_t pauses = 0;
            int64_t paused = 0;
            uint64_t peak = 0;
            is >> events >> simulated >> end >> pauses >> paused >> peak;
            result.events += events;
            result.simulatedTime = std::max(result.simulatedTime, TimeStep(simulated));
            result.simulatorEnd = std::max(result.simulatorEnd, TimeStep(end));
            result.rnicPausesReceived += pauses;
            result.rnicTimePaused += TimeStep(paused);
            result.peakBufferBytes = std::max(result.peakBufferBytes, peak);
        }
        if (kind != 0 && is.fail())
        {
            throw std::runtime_error("FabricRanks: a malformed line from a rank: " + line);
        }
    }
}

void
FabricRanks::Sort(FabricScenario::Result& result)
{
    std::stable_sort(result.transfers.begin(),
                     result.transfers.end(),
                     [](const auto& a, const auto& b) { return a.source < b.source; });
    std::stable_sort(result.ports.begin(), result.ports.end(), [](const auto& a, const auto& b) {
        return std::make_pair(a.sw, a.port) < std::make_pair(b.sw, b.port);
    });
}

std::vector<std::string>
FabricRanks::GatherTexts(const std::string& text)
{
#ifdef DRP_MPI
    if (GetCount() < 2)
    {
        return {text};
    }
    MPI_Comm comm = MpiInterface::GetCommunicator();
    const int ranks = static_cast<int>(GetCount());
    const int rank = static_cast<int>(GetRank());
    int length = static_cast<int>(text.size());
    std::vector<int> lengths(ranks);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
    std::vector<int> offsets(ranks, 0);
    for (int r = 1; r < ranks; ++r)
    {
        offsets[r] = offsets[r - 1] + lengths[r - 1];
    }
    std::string all(rank == 0 ? offsets[ranks - 1] + lengths[ranks - 1] : 0, '\0');
    MPI_Gatherv(text.data(),
                length,
                MPI_CHAR,
                rank == 0 ? &all[0] : nullptr,
                lengths.data(),
                offsets.data(),
                MPI_CHAR,
                0,
                comm);
    std::vector<std::string> texts;
    for (int r = 0; r < ranks && rank == 0; ++r)
    {
        texts.push_back(all.substr(offsets[r], lengths[r]));
    }
    return texts;
#else
    return {text};
#endif
}

void
FabricRanks::Gather(FabricScenario::Result& result)
{
    if (GetCount() < 2)
    {
        return;
    }
    result.pfcEvents.clear(); // each rank's alone would mislead: not gathered
    const std::vector<std::string> texts = GatherTexts(Pack(result));
    if (texts.empty())
    {
        return; // not rank 0
    }
    // Rank 0's own part is in result already: add the others' (texts[0] is its own).
    for (size_t r = 1; r < texts.size(); ++r)
    {
        Merge(texts[r], result);
    }
    Sort(result);
}

} // namespace ns3
