/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Runs the fabric experiment a config.txt of HPCC's simulator describes:
 * its topology and flow files, its congestion control and ECN thresholds,
 * its buffer, and its outputs (fct.txt, pfc.txt, the queue monitor's file),
 * every key mapped to drp's option or attribute (HpccConfig). Keys drp does
 * not follow as HPCC's simulator does are noted on stderr, by name; keys it
 * cannot run (CC_MODE 3, HPCC; 7, TIMELY; an unknown key) are refused. As
 * HPCC's simulator, it reads the files the config names relative to the
 * current directory.
 *
 *     cd simulation && drp-hpcc-config mix/config.txt
 *     drp-hpcc-config config.txt --show          # the mapping, key by key, then the run
 *     drp-hpcc-config config.txt --method=traditional --timeoutMode=adaptive
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"

#include <iomanip>
#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string method;
    std::string timeoutMode;
    Time queueInterval;
    uint32_t run = 1;
    bool show = false;
    std::string config;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    cmd.AddNonOption("config", "HPCC's config.txt", config);
    cmd.AddValue("method", "the RNICs' method: traditional or dynamic (default dynamic)", method);
    cmd.AddValue("timeoutMode",
                 "the RNICs' retransmission timers: fixed or adaptive (default fixed)",
                 timeoutMode);
    strict.AddValue(cmd,
                    "queueInterval",
                    "with QLEN_MON_FILE: sample every switch port at this interval (default "
                    "10us)",
                    queueInterval);
    strict.AddValue(cmd, "run", "ns-3 RNG run number", run);
    cmd.AddValue("show", "print each key of the file and what it became", show);
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        if (config.empty())
        {
            throw std::invalid_argument("give HPCC's config.txt: drp-hpcc-config CONFIG");
        }
        const HpccConfig hpcc = HpccConfig::Read(config);
        FabricScenario::Config fabric = hpcc.GetFabricConfig();
        fabric.method = method.empty() ? fabric.method : method;
        fabric.timeoutMode = timeoutMode.empty() ? fabric.timeoutMode : timeoutMode;
        fabric.run = run;
        if (queueInterval.IsStrictlyPositive() && !fabric.qlenFile.empty())
        {
            fabric.queueInterval = queueInterval;
        }
        fabric.Validate();
        if (show)
        {
            for (const auto& m : hpcc.GetMappings())
            {
                std::cout << std::left << std::setw(26) << m.key << " " << std::setw(24) << m.value
                          << " " << (m.drp.empty() ? "(noted)" : m.drp) << "\n";
            }
        }
        for (const std::string& note : hpcc.GetNotes())
        {
            std::cerr << "note: " << note << std::endl;
        }
        if (const std::string note = fabric.GetHostLimitNote(); !note.empty())
        {
            std::cerr << note << std::endl;
        }
        const FabricScenario::Result result = FabricScenario::Run(fabric);
        std::cout << fabric.GetTopologyName() << ": " << result.hosts << " hosts, "
                  << result.switchCount << " switches; " << fabric.GetWorkloadName() << ", "
                  << fabric.method << " RNICs, cc " << fabric.cc << "\n"
                  << "last transfer ended at " << result.simulatedTime.As(Time::MS)
                  << " (simulated time)\n";
        FabricScenario::PrintSummary(std::cout, result, 4);
        if (const std::string note = result.GetQueueNote(); !note.empty())
        {
            std::cerr << note << std::endl;
        }
        std::cout << "wrote " << fabric.fctFile << ", " << fabric.pfcFile
                  << (fabric.qlenFile.empty() ? "" : ", " + fabric.qlenFile) << "\n";
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
