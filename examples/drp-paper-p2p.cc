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
 *     drp-paper-p2p --rate=10Gbps --concurrency=4
 *     drp-paper-p2p --method=dynamic --transfers=5 --lfp=0.05 --pcap=p2p
 *
 * --pcap=PREFIX writes PREFIX-NODE-DEVICE.pcap for each RNIC (--ascii: .tr);
 * with both methods or several repetitions each run gets files of its own,
 * PREFIX-METHOD-runN-NODE-DEVICE.pcap (the method only with both, runN only
 * with repetitions).
 *
 * Every option of DrpScenario::Config is an option here (--PrintHelp).
 */

#include "ns3/command-line.h"
#include "ns3/csv-output.h"
#include "ns3/drp-check.h"
#include "ns3/drp-scenario.h"
#include "ns3/strict-options.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

using namespace ns3;

int
main(int argc, char* argv[])
{
    DrpScenario::Config config;
    config.method = "both";
    std::string csv;
    uint32_t repetitions = 1;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict; // numbers in full: --transfers=5x is an error, not 5
    config.AddToCommandLine(cmd, strict, false);
    cmd.AddValue("method", "RNIC method: traditional, dynamic or both", config.method);
    strict.AddValue(cmd,
                    "repetitions",
                    "independent runs per method (run numbers run, run+1, ...), pooled",
                    repetitions);
    strict.AddValue(cmd, "csv", "write one CSV row per transfer to this file", csv);

    try
    {
        // Before Parse(): ns-3 ends the process on a malformed attribute value.
        config.defaults = drp::StrictOptions::CheckArguments(argc, argv);
        // One the scenario sets itself, e.g. --ns3::EthernetNetDevice::DataRate
        // (--rate), before Parse() makes it a global default.
        DrpScenario::RefuseScenarioAttributes(config.defaults, true);
        for (int i = 1; i < argc; ++i)
        {
            std::string argument = argv[i];
            for (std::string global : {"RngRun", "RngSeed"})
            {
                if (argument.compare(0, global.size() + 3, "--" + global + "=") == 0)
                {
                    throw std::invalid_argument(global +
                                                " is set by the scenario (it would ignore this "
                                                "value); use the option " +
                                                (global == "RngRun" ? "--run" : "--seed") +
                                                " instead");
                }
            }
        }
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange<uint32_t>("repetitions", repetitions, 1, 1000);
        if (repetitions - 1 > UINT32_MAX - config.run)
        {
            throw std::invalid_argument("repetitions = " + std::to_string(repetitions) +
                                        " with run = " + std::to_string(config.run) +
                                        " would use run number " +
                                        std::to_string(uint64_t(config.run) + repetitions - 1) +
                                        ", out of range [0, " + std::to_string(UINT32_MAX) + "]");
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    std::vector<std::string> methods{config.method};
    if (config.method == "both")
    {
        methods = {"traditional", "dynamic"};
    }
    try
    {
        for (const auto& method : methods)
        {
            DrpScenario::Config one = config;
            one.method = method;
            one.Validate(); // every option, before anything is printed or written
        }
        // Refused now if it cannot be written; truncated only once the first
        // run has its rows, so that a command that fails leaves an existing
        // file alone.
        drp::CsvOutput out("csv", csv);
        auto write = [&out](const DrpScenario::Result& result) {
            if (!out.IsOpen())
            {
                DrpScenario::WriteCsvHeader(out.Stream());
            }
            DrpScenario::WriteCsvRows(out.Stream(), result);
            out.Flush();
        };
        std::cout << "drp " << config.topology << " at " << drp::ShowDataRate(config.rate) << ": "
                  << repetitions << " x " << config.transfers << " transfers of " << config.size
                  << " B (" << config.operation << ", " << config.concurrency
                  << " at a time), payload " << config.payload << " B, FRP " << config.frp
                  << ", LFP " << config.lfp << " (" << config.lossModel << " loss), runs "
                  << config.run << ".." << config.run + repetitions - 1 << std::endl;
        std::vector<DrpScenario::Result> results;
        for (const auto& method : methods)
        {
            DrpScenario::Result pooled;
            for (uint32_t r = 0; r < repetitions; ++r)
            {
                DrpScenario::Config one = config;
                one.method = method;
                one.run = config.run + r;
                // One set of capture files per run: PREFIX-METHOD-runN-NODE-DEVICE
                // when the command runs more than one.
                const std::string tag =
                    (methods.size() > 1 ? "-" + method : std::string()) +
                    (repetitions > 1 ? "-run" + std::to_string(one.run) : std::string());
                one.pcap = config.pcap.empty() ? "" : config.pcap + tag;
                one.ascii = config.ascii.empty() ? "" : config.ascii + tag;
                DrpScenario::Result result = DrpScenario::Run(one);
                if (out.IsEnabled())
                {
                    write(result);
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
        out.Close();
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
    catch (const std::exception& e) // invalid options, the CSV file
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
