/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Hosts with RNICs on a switched fabric: a star, a tree, a leaf-spine or a
 * k-ary fat-tree of EcmpSwitchNetDevice switches, running one traffic
 * matrix: incast (N senders to host 0 at once), permutation, all-to-all, or
 * open-loop Poisson arrivals at a load of the host links with flow sizes
 * from a CDF file (web-search, data-mining, or a file of yours). Losses come
 * from full switch queues (--queue), registration failures from --frp. It
 * prints the flows' completion times (mean, p50, p95, p99), their outcome
 * and modes, and the switch ports that dropped frames; --csv writes one line
 * per transfer.
 *
 *     rnic-fabric --topology=star --hosts=9 --workload=incast --bytes=65536
 *     rnic-fabric --topology=star --hosts=17 --workload=incast --queue=32p --method=traditional
 *     rnic-fabric --topology=leaf-spine --leaves=4 --spines=2 --hosts=8 --workload=poisson
 *                 --load=0.5 --cdf=web-search --duration=20ms --fabricRate=10Gbps
 *     rnic-fabric --topology=fat-tree --k=4 --workload=permutation --bytes=1000000
 *     rnic-fabric --PrintAttributes=ns3::EcmpSwitchNetDevice
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("RnicFabric");

namespace
{

/// What the command line asks for.
struct Options
{
    std::string topology{"star"};    //!< star, tree, leaf-spine or fat-tree
    uint32_t hosts{9};               //!< star: hosts; leaf-spine: per leaf; tree: fan-out
    uint32_t leaves{2};              //!< leaf-spine leaves
    uint32_t spines{2};              //!< leaf-spine spines
    uint32_t levels{2};              //!< tree levels
    uint32_t k{4};                   //!< fat-tree ports per switch
    std::string workload{"incast"};  //!< incast, permutation, all-to-all or poisson
    uint32_t bytes{65536};           //!< incast, permutation, all-to-all: bytes per flow
    uint32_t degree{0};              //!< incast senders (0: every other host)
    double load{0.5};                //!< poisson: load of the host links
    std::string cdf{"web-search"};   //!< poisson: flow sizes
    Time duration{MilliSeconds(10)}; //!< poisson: arrivals window
    std::string method{"dynamic"};   //!< traditional or dynamic
    double frp{0};                   //!< registration failure probability
    DataRate hostRate{"1Gbps"};      //!< host links
    DataRate fabricRate{"1Gbps"};    //!< links between switches
    std::string queue{"100p"};       //!< every switch port's egress queue
    std::string csv;                 //!< per-transfer CSV file ("": none)
};

/**
 * \param values sorted values
 * \param q a quantile in [0, 1]
 * \return the nearest-rank quantile
 */
double
Quantile(const std::vector<double>& values, double q)
{
    const std::size_t rank = static_cast<std::size_t>(std::ceil(q * values.size()));
    return values[std::max<std::size_t>(rank, 1) - 1];
}

/**
 * \param text a queue size as the --queue option gives it
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
 * Builds the topology the options name.
 * \param o the options
 * \param rnic host links
 * \param links links between switches and switch queues
 * \return the fabric
 */
std::unique_ptr<FabricHelper>
BuildFabric(const Options& o, RnicHelper& rnic, EthernetHelper& links)
{
    if (o.topology == "star")
    {
        return std::make_unique<StarFabricHelper>(o.hosts, rnic, links);
    }
    if (o.topology == "tree")
    {
        return std::make_unique<TreeFabricHelper>(o.levels, o.hosts, rnic, links);
    }
    if (o.topology == "leaf-spine")
    {
        return std::make_unique<LeafSpineFabricHelper>(o.leaves, o.spines, o.hosts, rnic, links);
    }
    if (o.topology == "fat-tree")
    {
        return std::make_unique<FatTreeFabricHelper>(o.k, rnic, links);
    }
    throw std::invalid_argument("topology = " + o.topology +
                                " is none of star, tree, leaf-spine, fat-tree");
}

/**
 * Adds the traffic matrix the options name.
 * \param o the options
 * \param fabric the fabric
 * \param workload the workload helper
 * \return flows added
 */
uint32_t
AddWorkload(const Options& o, const FabricHelper& fabric, FabricWorkloadHelper& workload)
{
    if (o.workload == "incast")
    {
        const uint32_t degree = o.degree > 0 ? o.degree : fabric.GetHosts().GetN() - 1;
        return workload.AddIncastOfDegree(0, degree, o.bytes, Seconds(0));
    }
    if (o.workload == "permutation")
    {
        return workload.AddPermutation(o.bytes, Seconds(0));
    }
    if (o.workload == "all-to-all")
    {
        return workload.AddAllToAll(o.bytes, Seconds(0));
    }
    if (o.workload == "poisson")
    {
        return workload.AddPoisson(FlowSizeCdf::Load(o.cdf),
                                   o.load,
                                   o.hostRate,
                                   Seconds(0),
                                   o.duration);
    }
    throw std::invalid_argument("workload = " + o.workload +
                                " is none of incast, permutation, all-to-all, poisson");
}

/**
 * Prints the summary of every ended transfer and of the switches.
 * \param fabric the fabric
 * \param apps the hosts' applications
 * \param flows flows of the workload
 * \param csv per-transfer CSV file ("": none)
 */
void
Report(const FabricHelper& fabric,
       const ApplicationContainer& apps,
       uint32_t flows,
       const std::string& csv)
{
    std::vector<double> fct;
    std::map<std::string, uint32_t> outcomes;
    uint32_t indirect = 0;
    uint64_t retransmissions = 0;
    std::ofstream out;
    if (!csv.empty())
    {
        out.open(csv);
        out << "source,destination,bytes,start_us,fct_us,status,mode,requests,retransmissions\n";
    }
    std::map<Mac48Address, uint32_t> hostOf;
    for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
    {
        hostOf[Mac48Address::ConvertFrom(fabric.GetRnic(h)->GetAddress())] = h;
    }
    for (uint32_t h = 0; h < apps.GetN(); ++h)
    {
        for (const auto& r : DynamicCast<RdmaHostApplication>(apps.Get(h))->GetRecords())
        {
            ++outcomes[r.GetStatusName()];
            indirect += r.mode == DrpTransferRecord::INDIRECT;
            retransmissions += r.retransmissions;
            if (r.status == DrpTransferRecord::SUCCESS)
            {
                fct.push_back(r.GetDuration().GetMicroSeconds());
            }
            if (out.is_open())
            {
                out << h << "," << hostOf[r.peer] << "," << r.length << ","
                    << r.start.GetMicroSeconds() << "," << r.GetDuration().GetMicroSeconds() << ","
                    << r.GetStatusName() << "," << r.GetModeName() << "," << r.requests << ","
                    << r.retransmissions << "\n";
            }
        }
    }
    std::sort(fct.begin(), fct.end());
    std::cout << flows << " flows; ended:";
    for (const auto& [status, count] : outcomes)
    {
        std::cout << " " << count << " " << status;
    }
    std::cout << "; " << indirect << " indirect; " << retransmissions << " retransmissions\n";
    if (!fct.empty())
    {
        std::cout << std::fixed << std::setprecision(1) << "FCT of successful flows (us): mean "
                  << DrpMeanInterval::Compute(fct).mean << ", p50 " << Quantile(fct, 0.5)
                  << ", p95 " << Quantile(fct, 0.95) << ", p99 " << Quantile(fct, 0.99) << ", max "
                  << fct.back() << "\n";
    }
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            EcmpSwitchNetDevice::PortStats stats = sw->GetPortStats(p);
            if (stats.egressDrops > 0)
            {
                std::cout << "switch " << s << " port " << p << ": " << stats.egressDrops
                          << " frames dropped of " << stats.framesOut + stats.egressDrops
                          << ", peak queue " << stats.peakFrames << " frames (" << stats.peakBytes
                          << " bytes)\n";
            }
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    cmd.AddValue("topology", "star, tree, leaf-spine or fat-tree", o.topology);
    strict.AddValue(cmd,
                    "hosts",
                    "star: hosts; tree: fan-out; leaf-spine: hosts per leaf",
                    o.hosts);
    strict.AddValue(cmd, "leaves", "leaf-spine: leaves", o.leaves);
    strict.AddValue(cmd, "spines", "leaf-spine: spines", o.spines);
    strict.AddValue(cmd, "levels", "tree: switch levels", o.levels);
    strict.AddValue(cmd, "k", "fat-tree: ports per switch (even)", o.k);
    cmd.AddValue("workload", "incast, permutation, all-to-all or poisson", o.workload);
    strict.AddValue(cmd, "bytes", "bytes per flow (incast, permutation, all-to-all)", o.bytes);
    strict.AddValue(cmd, "degree", "incast senders (0: every other host)", o.degree);
    strict.AddValue(cmd, "load", "poisson: load of each host link, (0, 1]", o.load);
    cmd.AddValue("cdf", "poisson: web-search, data-mining or a CDF file", o.cdf);
    strict.AddValue(cmd, "duration", "poisson: arrivals come this long", o.duration);
    cmd.AddValue("method", "traditional or dynamic", o.method);
    strict.AddValue(cmd, "frp", "probability that a registration fails (0 to 1)", o.frp);
    strict.AddValue(cmd, "hostRate", "rate of the host links", o.hostRate);
    strict.AddValue(cmd, "fabricRate", "rate of the links between switches", o.fabricRate);
    cmd.AddValue("queue",
                 "every switch port's egress queue (ns-3 QueueSize: 100p, 64KiB)",
                 o.queue);
    cmd.AddValue("csv", "write one line per transfer to this file", o.csv);
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange("frp", o.frp, 0.0, 1.0);
        ModePolicy::ParseMethod(o.method);
        const QueueSize queue = ParseQueueSize(o.queue);

        RnicHelper rnic;
        rnic.SetMethod(o.method);
        rnic.SetDeviceAttribute("DataRate", DataRateValue(o.hostRate));
        EthernetHelper links;
        links.SetDeviceAttribute("DataRate", DataRateValue(o.fabricRate));
        links.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(queue));
        std::unique_ptr<FabricHelper> fabric = BuildFabric(o, rnic, links);

        FabricWorkloadHelper workload(*fabric);
        workload.AssignStreams(1);
        const uint32_t flows = AddWorkload(o, *fabric, workload);
        RdmaHostHelper host;
        host.SetAttribute("RegistrationFailureProbability", DoubleValue(o.frp));
        // Nothing here compares the bytes: forget each transfer's buffers once
        // it has ended, so that memory holds only what is in flight.
        host.SetAttribute("ForgetData", BooleanValue(true));
        ApplicationContainer apps = workload.Install(host);
        RdmaHostHelper::AssignStreams(apps, 100);
        apps.Start(Seconds(0));

        std::cout << o.topology << ": " << fabric->GetHosts().GetN() << " hosts, "
                  << fabric->GetSwitches().GetN() << " switches; " << o.workload << ", " << o.method
                  << " RNICs" << std::endl;
        Simulator::Run();
        std::cout << "simulated " << Simulator::Now().As(Time::MS) << std::endl;
        Report(*fabric, apps, flows, o.csv);
        Simulator::Destroy();
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
