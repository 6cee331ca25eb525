/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Structure-aware fuzzer of the DRP transport: feeds fuzzed DRP frames
 * (generated from the header's grammar, or mutated from the honest frames on
 * the wire) from three ports, with real and forged source addresses, into
 * RNICs in the middle of honest transfers, and checks after each simulation
 * run that memory outside registered regions is unchanged, that the honest
 * transfers ended (byte-exact where successful), that every frame that
 * reached an RNIC is accounted for, and that the simulation finished (see
 * drp-fuzz.h). Build it with -DDRP_SANITIZE=address,undefined to run it
 * under the sanitizers.
 *
 *     drp-fuzz [--frames=1000000] [--batch=2000] [--seed=1] [--run=1]
 *              [--method=traditional|dynamic|both] [--operation=write|read|both]
 *
 * Frames are injected in simulation runs of --batch frames each, every run
 * with a fresh topology and workload and its own run number (--run, then
 * --run + 1, ...), cycling through the methods and operations chosen. A
 * failing run is replayed alone with its seed, method, operation and run
 * number and --frames equal to --batch. The last line is the verdict:
 * "drp-fuzz: PASS ..." (exit 0) or "drp-fuzz: FAIL ..." (exit 1).
 */

#include "drp-fuzz.h"

#include "ns3/command-line.h"
#include "ns3/rng-seed-manager.h"

#include <chrono>
#include <iostream>

using namespace ns3;

namespace
{

/**
 * \param choice "both" or one value
 * \param first one value
 * \param second the other
 * \return the values chosen (empty: \p choice is neither)
 */
std::vector<std::string>
Expand(const std::string& choice, const std::string& first, const std::string& second)
{
    if (choice == "both")
    {
        return {first, second};
    }
    if (choice == first || choice == second)
    {
        return {choice};
    }
    return {};
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t frames = 1000000;
    uint32_t batch = 2000;
    uint32_t seed = 1;
    uint64_t run = 1;
    std::string method = "both";
    std::string operation = "both";
    bool verbose = false;
    CommandLine cmd(__FILE__);
    cmd.AddValue("frames", "Fuzzed frames in all", frames);
    cmd.AddValue("batch", "Fuzzed frames per simulation run (1 to 100000)", batch);
    cmd.AddValue("seed", "Random seed (RngSeedManager)", seed);
    cmd.AddValue("run", "Run number of the first simulation run", run);
    cmd.AddValue("method", "RNICs: traditional, dynamic or both", method);
    cmd.AddValue("operation", "Honest workload: write, read or both", operation);
    cmd.AddValue("verbose", "Print one line per simulation run", verbose);
    cmd.Parse(argc, argv);

    const auto methods = Expand(method, "traditional", "dynamic");
    const auto operations = Expand(operation, "write", "read");
    if (methods.empty() || operations.empty() || batch == 0 || batch > 100000 || frames == 0 ||
        seed == 0)
    {
        std::cerr << "drp-fuzz: bad option (method " << method << ", operation " << operation
                  << ", batch " << batch << ", frames " << frames << ", seed " << seed << ")\n";
        return 2;
    }

    const auto start = std::chrono::steady_clock::now();
    drpfuzz::FuzzResult total;
    uint64_t runs = 0;
    uint64_t failedRuns = 0;
    uint64_t left = frames;
    RngSeedManager::SetSeed(seed);
    for (uint64_t r = run; left > 0; ++r, ++runs)
    {
        drpfuzz::FuzzConfig config;
        const uint64_t i = r - run;
        config.method = methods[i % methods.size()];
        config.operation = operations[(i / methods.size()) % operations.size()];
        config.frames = uint32_t(std::min<uint64_t>(batch, left));
        left -= config.frames;
        RngSeedManager::SetRun(r);
        drpfuzz::FuzzRun fuzz(config);
        drpfuzz::FuzzResult result = fuzz.Run();
        total.injected += result.injected;
        total.refused += result.refused;
        total.reached += result.reached;
        total.taken += result.taken;
        total.fromMutation += result.fromMutation;
        total.transfers += result.transfers;
        total.succeeded += result.succeeded;
        total.compared += result.compared;
        total.forged += result.forged;
        total.watchedBytes += result.watchedBytes;
        for (size_t k = 0; k < result.drops.size(); ++k)
        {
            total.drops[k] += result.drops[k];
        }
        if (verbose)
        {
            std::cout << "run " << r << " " << config.method << " " << config.operation << ": "
                      << result.injected << " injected, " << result.reached << " reached, "
                      << result.taken << " taken; transfers " << result.succeeded << "/"
                      << result.transfers << " succeeded, " << result.compared << " compared"
                      << (result.violations.empty() ? "" : "; FAILED") << std::endl;
        }
        if (!result.violations.empty())
        {
            ++failedRuns;
            std::cout << "drp-fuzz: violation in run " << r << " (replay: --seed=" << seed
                      << " --run=" << r << " --method=" << config.method
                      << " --operation=" << config.operation << " --frames=" << config.frames
                      << " --batch=" << config.frames << ")" << std::endl;
            for (const auto& v : result.violations)
            {
                std::cout << "  " << v << std::endl;
            }
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::cout << "frames: " << frames << " in " << runs << " runs of at most " << batch << " (seed "
              << seed << ", runs " << run << "-" << run + runs - 1 << ")\n"
              << "  handed to a port: " << total.injected
              << ", refused by a port: " << total.refused
              << ", mutated from honest frames: " << total.fromMutation << "\n"
              << "  reached a transport: " << total.reached
              << ", taken (not dropped on arrival): " << total.taken << "\n"
              << "  honest transfers: " << total.transfers << ", successful: " << total.succeeded
              << ", compared byte for byte: " << total.compared
              << ", changed by frames with a forged peer address and a live TID or region: "
              << total.forged << "\n"
              << "  memory bytes compared: " << total.watchedBytes << "\n"
              << "  drops (all frames, all RNICs):";
    for (uint32_t k = 0; k < DrpTransport::DROP_REASONS; ++k)
    {
        std::cout << " " << DrpTransport::GetDropReasonName(DrpTransport::DropReason(k)) << " "
                  << total.drops[k];
    }
    std::cout << "\n"
              << "wall clock: " << seconds << " s, " << uint64_t(frames / seconds)
              << " fuzzed frames per second\n";
    if (failedRuns > 0)
    {
        std::cout << "drp-fuzz: FAIL (" << failedRuns << " of " << runs
                  << " runs violated an invariant)" << std::endl;
        return 1;
    }
    std::cout << "drp-fuzz: PASS (" << frames << " frames, " << runs
              << " runs, every invariant held)" << std::endl;
    return 0;
}
