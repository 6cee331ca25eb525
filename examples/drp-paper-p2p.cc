/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * The published point-to-point experiment: two hosts with RNICs on one
 * Gigabit link, the first writing 128 KiB transfers (1024-byte frames) to the
 * second, with failing memory registration (FRP) and lost frames (LFP).
 *
 * By default it runs both methods with the same random streams and prints,
 * for each, the mean transfer time with its 95% confidence interval, then the
 * dynamic method's reduction of the mean.
 *
 *     drp-paper-p2p --frp=0.05 --lfp=0.05 --transfers=800
 *     drp-paper-p2p --method=dynamic --csv=transfers.csv
 *
 * Every option of DrpScenario::Config is an option here (--PrintHelp).
 */

#include "ns3/command-line.h"
#include "ns3/drp-check.h"
#include "ns3/drp-scenario.h"

#include <fstream>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    DrpScenario::Config config;
    config.method = "both";
    std::string csv;
    uint32_t repetitions = 1;
    CommandLine cmd(__FILE__);
    config.AddToCommandLine(cmd, false);
    cmd.AddValue("method", "RNIC method: traditional, dynamic or both", config.method);
    cmd.AddValue("repetitions",
                 "independent runs per method (run numbers run, run+1, ...), pooled",
                 repetitions);
    cmd.AddValue("csv", "write one CSV row per transfer to this file", csv);
    cmd.Parse(argc, argv);

    std::vector<std::string> methods{config.method};
    if (config.method == "both")
    {
        methods = {"traditional", "dynamic"};
    }
    try
    {
        std::ofstream out;
        if (!csv.empty())
        {
            out.open(csv);
            if (!out)
            {
                throw std::invalid_argument("csv = \"" + csv + "\" cannot be written");
            }
            DrpScenario::WriteCsvHeader(out);
        }
        drp::RequireInRange<uint32_t>("repetitions", repetitions, 1, 1000);
        std::cout << "drp " << config.topology << ": " << repetitions << " x " << config.transfers
                  << " transfers of " << config.size << " B (" << config.operation << "), payload "
                  << config.payload << " B, FRP " << config.frp << ", LFP " << config.lfp << " ("
                  << config.lossModel << " loss), runs " << config.run << ".."
                  << config.run + repetitions - 1 << std::endl;
        std::vector<DrpScenario::Result> results;
        for (const auto& method : methods)
        {
            DrpScenario::Result pooled;
            for (uint32_t r = 0; r < repetitions; ++r)
            {
                DrpScenario::Config one = config;
                one.method = method;
                one.run = config.run + r;
                DrpScenario::Result result = DrpScenario::Run(one);
                if (out.is_open())
                {
                    DrpScenario::WriteCsvRows(out, result);
                }
                pooled.Merge(result);
            }
            results.push_back(pooled);
            DrpScenario::PrintSummary(std::cout, results.back());
        }
        if (results.size() == 2)
        {
            DrpScenario::PrintReduction(std::cout, results[0], results[1]);
        }
        for (const auto& result : results)
        {
            if (result.corruptTransfers > 0)
            {
                std::cerr << "error: " << result.corruptTransfers
                          << " transfers delivered wrong bytes" << std::endl;
                return 2;
            }
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
