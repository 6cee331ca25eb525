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
 * prints the flows' completion times (mean, p50, p95, p99), their slowdown
 * (FCT over the ideal FCT of the size and path, DrpIdealFct) by flow-size
 * bucket, their outcome and modes, and the switch ports that dropped
 * frames, and every frame dropped anywhere (switch queues, links, RNICs,
 * hosts) by reason; --csv writes one line per transfer, --dropsCsv one line
 * per drop reason, --flowRatesCsv (with --flowRateInterval) what every
 * transfer sent per interval, its sending rate over time; --pcap=PREFIX writes
 * PREFIX-NODE-DEVICE.pcap for every RNIC and switch port (as ns-3's EnablePcapAll names them;
 * --ascii: .tr traces). The experiment itself is FabricScenario, which the Python package runs too.
 *
 *     rnic-fabric --topology=star --hosts=9 --workload=incast --bytes=65536
 *     rnic-fabric --topology=star --hosts=17 --workload=incast --queue=32p --method=traditional
 *     rnic-fabric --topology=leaf-spine --leaves=4 --spines=2 --hosts=8 --workload=poisson
 *                 --load=0.5 --cdf=web-search --duration=20ms --fabricRate=10Gbps
 *     rnic-fabric --topology=fat-tree --k=4 --workload=permutation --bytes=1000000
 *     rnic-fabric --topology=star --hosts=17 --workload=incast --jitter=20us --frp=0.05 --run=2
 *     rnic-fabric --topology=leaf-spine --workload=permutation --ecmpPerRun=1 --run=3
 *     rnic-fabric --topology=star --hosts=5 --workload=incast --pcap=incast
 *     tshark -X lua_script:contrib/drp/wireshark/drp.lua -r incast-0-0.pcap
 *     rnic-fabric --hosts=3 --workload=incast --bytes=2000000 --ecn=1 --cc=dcqcn
 *                 --flowRateInterval=100us --flowRatesCsv=rates.csv
 *     rnic-fabric --PrintAttributes=ns3::EcmpSwitchNetDevice
 *
 * From the files of HPCC's simulator (its topology.txt and flow.txt;
 * outputs in the layout of its fct.txt, pfc.txt and queue monitor):
 *
 *     rnic-fabric --topology-file=topology.txt --flow-file=flow.txt --fct-file=fct.txt
 *                 --lossless=1 --pfc-file=pfc.txt --queueInterval=10us --qlen-file=qlen.txt
 *
 * Over MPI ranks (ns-3 with its mpi module; FabricRanks): a leaf-spine by
 * leaf or a fat-tree by pod, each rank running its part, rank 0 printing
 * and writing the whole run's results, those of the sequential run with
 * --SchedulerType=ns3::ArrivalsLastScheduler; the cables need a delay:
 *
 *     mpirun -np 2 rnic-fabric --sync=granted --topology=leaf-spine --leaves=4
 *                 --workload=poisson --ns3::EthernetChannel::Delay=1us --csv=fct.csv
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"

#include <fstream>
#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    FabricScenario::Config config;
    std::string csv;
    uint32_t buckets = 4;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    config.AddToCommandLine(cmd, strict);
    strict.AddValue(cmd, "buckets", "flow-size buckets of the slowdown table (1 to 1000)", buckets);
    cmd.AddValue("csv", "write one line per transfer to this file", csv);
    std::string dropsCsv;
    cmd.AddValue("dropsCsv",
                 "write the frames dropped, per device kind and reason, to this file",
                 dropsCsv);
    std::string sync = "none";
    cmd.AddValue("sync",
                 "none (one process) or granted: the fabric split over the ranks of mpirun -np "
                 "N (ns-3's DistributedSimulatorImpl; needs ns-3's mpi module)",
                 sync);
    std::string resultFile;
    cmd.AddValue("resultFile",
                 "write the whole result as text (FabricRanks::Pack: transfers, ports, drops, "
                 "counters), which the Python package's run_fabric reads back",
                 resultFile);
    std::string flowRatesCsv;
    cmd.AddValue("flowRatesCsv",
                 "write what every transfer sent per interval (flowRateInterval) to this file",
                 flowRatesCsv);
    try
    {
        // Before Parse(): ns-3 ends the process on a malformed attribute value;
        // one the scenario sets itself (--ns3::EthernetNetDevice::DataRate,
        // --hostRate) is refused rather than ignored.
        config.defaults = drp::StrictOptions::CheckArguments(argc, argv);
        FabricScenario::RefuseScenarioAttributes(config.defaults, true);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange<uint32_t>("buckets", buckets, 1, 1000);
        drp::RequireOneOf("sync", sync, {"none", "granted"});
        config.Validate();
        if (sync == "granted")
        {
            FabricRanks::Enable(&argc, &argv);
        }
        // Over ranks, rank 0 has the results and writes them.
        const bool writes = FabricRanks::GetRank() == 0;
        if (!writes)
        {
            csv.clear();
            dropsCsv.clear();
            flowRatesCsv.clear();
            resultFile.clear();
        }
        if (!resultFile.empty())
        {
            FabricRanks::RequireCarried(config, " with resultFile");
        }
        drp::CsvOutput resultOut("resultFile", resultFile);
        drp::CsvOutput out("csv", csv); // refused now if it cannot be written
        drp::CsvOutput dropsOut("dropsCsv", dropsCsv);
        if (!flowRatesCsv.empty() && !config.flowRateInterval.IsStrictlyPositive())
        {
            throw std::invalid_argument("flowRatesCsv = " + flowRatesCsv +
                                        " writes what transfers sent per interval: it needs "
                                        "flowRateInterval above 0");
        }
        drp::CsvOutput flowRatesOut("flowRatesCsv", flowRatesCsv);
        if (const std::string note = config.GetHostLimitNote(); !note.empty())
        {
            std::cerr << note << std::endl;
        }
        const FabricScenario::Result result = FabricScenario::Run(config);
        FabricRanks::Disable();
        if (!writes)
        {
            return 0;
        }
        std::cout << config.GetTopologyName() << ": " << result.hosts << " hosts, "
                  << result.switchCount << " switches; " << config.GetWorkloadName() << ", "
                  << config.method << " RNICs\n"
                  << "last transfer ended at " << result.simulatedTime.As(Time::MS)
                  << " (simulated time)\n";
        FabricScenario::PrintSummary(std::cout, result, buckets);
        if (const std::string note = result.GetQueueNote(); !note.empty())
        {
            std::cerr << note << std::endl;
        }
        if (out.IsEnabled())
        {
            FabricScenario::WriteCsvHeader(out.Stream());
            FabricScenario::WriteCsvRows(out.Stream(), result);
            out.Close();
        }
        if (dropsOut.IsEnabled())
        {
            FabricScenario::WriteDropsCsv(dropsOut.Stream(), result);
            dropsOut.Close();
        }
        if (resultOut.IsEnabled())
        {
            resultOut.Stream() << FabricRanks::Pack(result);
            resultOut.Close();
        }
        if (flowRatesOut.IsEnabled())
        {
            FabricScenario::WriteFlowRatesCsv(flowRatesOut.Stream(), result);
            flowRatesOut.Close();
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        FabricRanks::Disable();
        return 1;
    }
    return 0;
}
