/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-scenario.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/double.h"
#include "ns3/drp-check.h"
#include "ns3/drp-ideal-fct.h"
#include "ns3/fabric-workload-helper.h"
#include "ns3/fat-tree-fabric-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/leaf-spine-fabric-helper.h"
#include "ns3/mode-policy.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/star-fabric-helper.h"
#include "ns3/strict-options.h"
#include "ns3/tree-fabric-helper.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <map>
#include <memory>
#include <numeric>
#include <regex>

namespace ns3
{

namespace
{

/**
 * \param text a queue size as the queue option gives it
 * \return it, checked (std::invalid_argument with a message otherwise:
 *         ns-3's QueueSize would end the process)
 */
QueueSize
ParseQueueSize(const std::string& text)
{
    static const std::regex valid("[1-9][0-9]{0,8}(k|K|Ki|M|Mi)?(p|B)");
    if (!std::regex_match(text, valid))
    {
        throw std::invalid_argument("queue = " + text +
                                    " is no queue size (a whole number from 1, then p for "
                                    "frames or B for bytes, optionally after k, K, Ki, M or Mi: "
                                    "100p, 64KiB)");
    }
    return QueueSize(text);
}

/**
 * \param config the experiment
 * \param rnic host links
 * \param links links between switches and switch queues
 * \return the topology the experiment names
 */
std::unique_ptr<FabricHelper>
BuildFabric(const FabricScenario::Config& config, RnicHelper& rnic, EthernetHelper& links)
{
    if (config.topology == "star")
    {
        return std::make_unique<StarFabricHelper>(config.hosts, rnic, links);
    }
    if (config.topology == "tree")
    {
        return std::make_unique<TreeFabricHelper>(config.levels, config.hosts, rnic, links);
    }
    if (config.topology == "leaf-spine")
    {
        return std::make_unique<LeafSpineFabricHelper>(config.leaves,
                                                       config.spines,
                                                       config.hosts,
                                                       rnic,
                                                       links);
    }
    return std::make_unique<FatTreeFabricHelper>(config.k, rnic, links);
}

/**
 * Adds the traffic matrix the experiment names.
 * \param config the experiment
 * \param fabric the fabric
 * \param workload the workload helper
 * \return flows added
 */
uint32_t
AddWorkload(const FabricScenario::Config& config,
            const FabricHelper& fabric,
            FabricWorkloadHelper& workload)
{
    if (config.workload == "incast")
    {
        const uint32_t degree = config.degree > 0 ? config.degree : fabric.GetHosts().GetN() - 1;
        return workload.AddIncastOfDegree(0, degree, config.bytes, Seconds(0));
    }
    if (config.workload == "permutation")
    {
        return workload.AddPermutation(config.bytes, Seconds(0));
    }
    if (config.workload == "all-to-all")
    {
        return workload.AddAllToAll(config.bytes, Seconds(0));
    }
    return workload.AddPoisson(FlowSizeCdf::Load(config.cdf),
                               config.load,
                               config.hostRate,
                               Seconds(0),
                               config.duration);
}

/**
 * \param values sorted values (not empty)
 * \param q a quantile in (0, 1]
 * \return the nearest-rank quantile
 */
double
NearestRank(const std::vector<double>& values, double q)
{
    const auto rank = static_cast<std::size_t>(std::ceil(q * values.size()));
    return values[std::min(std::max<std::size_t>(rank, 1), values.size()) - 1];
}

} // namespace

void
FabricScenario::Config::Validate() const
{
    drp::RequireOneOf("topology", topology, {"star", "tree", "leaf-spine", "fat-tree"});
    drp::RequireOneOf("workload", workload, {"incast", "permutation", "all-to-all", "poisson"});
    drp::RequireOneOf("method", method, {"traditional", "dynamic"});
    drp::RequireInRange("frp", frp, 0.0, 1.0);
    drp::RequireInRange<uint32_t>("bytes", bytes, 1, 1u << 31);
    drp::RequireInRange<Time>("duration", duration, NanoSeconds(1), Seconds(1000));
    drp::RequireInRange<uint32_t>("seed", seed, 1, UINT32_MAX);
    ParseQueueSize(queue);
    // The counts of each topology and the load are checked, with their
    // valid ranges, by the helper that takes them.
}

void
FabricScenario::Config::AddToCommandLine(CommandLine& cmd, drp::StrictOptions& strict)
{
    cmd.AddValue("topology", "star, tree, leaf-spine or fat-tree", topology);
    strict.AddValue(cmd, "hosts", "star: hosts; tree: fan-out; leaf-spine: hosts per leaf", hosts);
    strict.AddValue(cmd, "leaves", "leaf-spine: leaves", leaves);
    strict.AddValue(cmd, "spines", "leaf-spine: spines", spines);
    strict.AddValue(cmd, "levels", "tree: switch levels", levels);
    strict.AddValue(cmd, "k", "fat-tree: ports per switch (even)", k);
    cmd.AddValue("workload", "incast, permutation, all-to-all or poisson", workload);
    strict.AddValue(cmd, "bytes", "bytes per flow (incast, permutation, all-to-all)", bytes);
    strict.AddValue(cmd, "degree", "incast senders (0: every other host)", degree);
    strict.AddValue(cmd, "load", "poisson: load of each host link, (0, 1]", load);
    cmd.AddValue("cdf", "poisson: web-search, data-mining or a CDF file", cdf);
    strict.AddValue(cmd, "duration", "poisson: arrivals come this long", duration);
    cmd.AddValue("method", "traditional or dynamic", method);
    strict.AddValue(cmd, "frp", "probability that a registration fails (0 to 1)", frp);
    strict.AddValue(cmd, "hostRate", "rate of the host links", hostRate);
    strict.AddValue(cmd, "fabricRate", "rate of the links between switches", fabricRate);
    cmd.AddValue("queue", "every switch port's egress queue (ns-3 QueueSize: 100p, 64KiB)", queue);
    strict.AddValue(cmd, "seed", "ns-3 RNG seed", seed);
    strict.AddValue(cmd, "run", "ns-3 RNG run number", run);
}

double
FabricScenario::Transfer::GetSlowdown() const
{
    return record.GetDuration().GetDouble() / ideal.GetDouble();
}

std::vector<double>
FabricScenario::Result::GetFcts() const
{
    std::vector<double> fct;
    for (const auto& t : transfers)
    {
        if (t.record.status == DrpTransferRecord::SUCCESS)
        {
            fct.push_back(t.record.GetDuration().GetSeconds() * 1e6);
        }
    }
    return fct;
}

DrpMeanInterval
FabricScenario::Result::GetFct() const
{
    return DrpMeanInterval::Compute(GetFcts());
}

double
FabricScenario::Result::GetFctQuantile(double q) const
{
    std::vector<double> fct = GetFcts();
    if (fct.empty())
    {
        return 0;
    }
    std::sort(fct.begin(), fct.end());
    return NearestRank(fct, q);
}

std::vector<FabricScenario::SizeBucket>
FabricScenario::Result::GetSlowdownBySize(uint32_t buckets) const
{
    std::vector<uint32_t> bytes;
    std::vector<double> slowdown;
    for (const auto& t : transfers)
    {
        if (t.record.status == DrpTransferRecord::SUCCESS)
        {
            bytes.push_back(t.record.length);
            slowdown.push_back(t.GetSlowdown());
        }
    }
    return FabricScenario::GetSlowdownBySize(bytes, slowdown, buckets);
}

std::vector<FabricScenario::SizeBucket>
FabricScenario::GetSlowdownBySize(const std::vector<uint32_t>& bytes,
                                  const std::vector<double>& slowdown,
                                  uint32_t buckets)
{
    drp::RequireInRange<uint32_t>("buckets", buckets, 1, 1000);
    if (bytes.size() != slowdown.size())
    {
        throw std::invalid_argument("GetSlowdownBySize: " + std::to_string(bytes.size()) +
                                    " sizes but " + std::to_string(slowdown.size()) + " slowdowns");
    }
    std::vector<std::size_t> order(bytes.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&bytes](std::size_t a, std::size_t b) {
        return bytes[a] < bytes[b];
    });
    std::vector<SizeBucket> result;
    std::size_t first = 0;
    for (uint32_t b = 1; b <= buckets && first < order.size(); ++b)
    {
        std::size_t end = std::max(first + 1, order.size() * b / buckets);
        while (end < order.size() && bytes[order[end]] == bytes[order[end - 1]])
        {
            ++end; // one size, one bucket
        }
        std::vector<double> values;
        for (std::size_t i = first; i < end; ++i)
        {
            values.push_back(slowdown[order[i]]);
        }
        std::sort(values.begin(), values.end());
        SizeBucket bucket;
        bucket.minBytes = bytes[order[first]];
        bucket.maxBytes = bytes[order[end - 1]];
        bucket.count = values.size();
        bucket.p50 = NearestRank(values, 0.5);
        bucket.p95 = NearestRank(values, 0.95);
        bucket.p99 = NearestRank(values, 0.99);
        result.push_back(bucket);
        first = end;
    }
    return result;
}

uint64_t
FabricScenario::Result::GetDrops() const
{
    uint64_t drops = 0;
    for (const auto& p : ports)
    {
        drops += p.stats.egressDrops;
    }
    return drops;
}

uint32_t
FabricScenario::Result::Count(DrpTransferRecord::Status status) const
{
    return std::count_if(transfers.begin(), transfers.end(), [status](const Transfer& t) {
        return t.record.status == status;
    });
}

FabricScenario::Result
FabricScenario::Run(const Config& config)
{
    config.Validate();
    try
    {
        return RunValidated(config);
    }
    catch (...)
    {
        Simulator::Destroy(); // leave the simulator clean for the next run
        throw;
    }
}

FabricScenario::Result
FabricScenario::RunValidated(const Config& config)
{
    auto wallStart = std::chrono::steady_clock::now();
    RngSeedManager::SetSeed(config.seed);
    RngSeedManager::SetRun(config.run);

    RnicHelper rnic;
    rnic.SetMethod(config.method);
    rnic.SetDeviceAttribute("DataRate", DataRateValue(config.hostRate));
    EthernetHelper links;
    links.SetDeviceAttribute("DataRate", DataRateValue(config.fabricRate));
    links.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(ParseQueueSize(config.queue)));
    std::unique_ptr<FabricHelper> fabric = BuildFabric(config, rnic, links);

    FabricWorkloadHelper workload(*fabric);
    workload.AssignStreams(1);
    Result result;
    result.config = config;
    result.flows = AddWorkload(config, *fabric, workload);
    result.hosts = fabric->GetHosts().GetN();
    result.switchCount = fabric->GetSwitches().GetN();
    RdmaHostHelper host;
    host.SetAttribute("RegistrationFailureProbability", DoubleValue(config.frp));
    // Nothing here compares the bytes: forget each transfer's buffers once
    // it has ended, so that memory holds only what is in flight.
    host.SetAttribute("ForgetData", BooleanValue(true));
    ApplicationContainer apps = workload.Install(host);
    RdmaHostHelper::AssignStreams(apps, 100);
    apps.Start(Seconds(0));
    Simulator::Run();

    std::map<Mac48Address, uint32_t> hostOf;
    for (uint32_t h = 0; h < result.hosts; ++h)
    {
        hostOf[Mac48Address::ConvertFrom(fabric->GetRnic(h)->GetAddress())] = h;
    }
    // Every host is built alike and every path of one length alike (see
    // FabricHelper::GetPath()): one ideal per path length serves all pairs.
    std::map<uint32_t, DrpIdealFct> ideals;
    for (uint32_t h = 0; h < apps.GetN(); ++h)
    {
        auto app = DynamicCast<RdmaHostApplication>(apps.Get(h));
        for (const auto& record : app->GetRecords())
        {
            Transfer t;
            t.source = h;
            t.destination = hostOf.at(record.peer);
            t.switches = fabric->GetSwitchHops(h, t.destination);
            t.record = record;
            auto it = ideals.find(t.switches);
            if (it == ideals.end())
            {
                it = ideals
                         .emplace(
                             t.switches,
                             DrpIdealFct(app,
                                         DynamicCast<RdmaHostApplication>(apps.Get(t.destination)),
                                         fabric->GetPath(h, t.destination),
                                         fabric->GetPath(t.destination, h)))
                         .first;
            }
            t.ideal = it->second.GetWrite(record.length, record.dba);
            result.transfers.push_back(t);
        }
    }
    for (uint32_t s = 0; s < result.switchCount; ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            EcmpSwitchNetDevice::PortStats stats = sw->GetPortStats(p);
            if (stats.framesOut + stats.egressDrops > 0)
            {
                result.ports.push_back({s, p, stats});
            }
        }
    }
    result.simulatedTime = Simulator::Now();
    result.events = Simulator::GetEventCount();
    Simulator::Destroy();
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return result;
}

void
FabricScenario::WriteCsvHeader(std::ostream& os)
{
    os << "source,destination,switches,size,start_us,fct_us,ideal_us,slowdown,status,mode,"
          "requests,retransmissions\n";
}

void
FabricScenario::WriteCsvRows(std::ostream& os, const Result& result)
{
    for (const auto& t : result.transfers)
    {
        const DrpTransferRecord& r = t.record;
        os << t.source << "," << t.destination << "," << t.switches << "," << r.length << ","
           << std::setprecision(12) << r.start.GetSeconds() * 1e6 << ","
           << r.GetDuration().GetSeconds() * 1e6 << "," << t.ideal.GetSeconds() * 1e6 << ","
           << std::setprecision(6) << t.GetSlowdown() << "," << r.GetStatusName() << ","
           << r.GetModeName() << "," << r.requests << "," << r.retransmissions << "\n";
    }
}

void
FabricScenario::PrintSummary(std::ostream& os, const Result& result, uint32_t buckets)
{
    std::map<std::string, uint32_t> outcomes;
    uint32_t indirect = 0;
    uint64_t retransmissions = 0;
    for (const auto& t : result.transfers)
    {
        ++outcomes[t.record.GetStatusName()];
        indirect += t.record.mode == DrpTransferRecord::INDIRECT;
        retransmissions += t.record.retransmissions;
    }
    os << result.flows << " flows; ended:";
    for (const auto& [status, count] : outcomes)
    {
        os << " " << count << " " << status;
    }
    os << "; " << indirect << " indirect; " << retransmissions << " retransmissions\n";
    std::vector<double> fct = result.GetFcts();
    if (fct.empty())
    {
        return;
    }
    const double mean = DrpMeanInterval::Compute(fct).mean;
    std::sort(fct.begin(), fct.end()); // once, for every quantile
    os << std::fixed << std::setprecision(1) << "FCT of successful flows (us): mean " << mean
       << ", p50 " << NearestRank(fct, 0.5) << ", p95 " << NearestRank(fct, 0.95) << ", p99 "
       << NearestRank(fct, 0.99) << ", max " << fct.back() << "\n";
    os << "slowdown (FCT / ideal FCT) by flow size:\n";
    for (const auto& b : result.GetSlowdownBySize(buckets))
    {
        os << "  " << b.minBytes << " to " << b.maxBytes << " bytes, " << b.count << " flows: p50 "
           << std::setprecision(2) << b.p50 << ", p95 " << b.p95 << ", p99 " << b.p99 << "\n";
    }
    for (const auto& p : result.ports)
    {
        if (p.stats.egressDrops > 0)
        {
            os << "switch " << p.sw << " port " << p.port << ": " << p.stats.egressDrops
               << " frames dropped of " << p.stats.framesOut + p.stats.egressDrops
               << ", peak queue " << p.stats.peakFrames << " frames (" << p.stats.peakBytes
               << " bytes)\n";
        }
    }
    os.unsetf(std::ios::fixed);
}

} // namespace ns3
