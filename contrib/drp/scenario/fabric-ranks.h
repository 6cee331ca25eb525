/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_RANKS_H
#define FABRIC_RANKS_H

#include "fabric-scenario.h"

#include "ns3/fabric-helper.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A FabricScenario split over MPI ranks (ns-3's distributed
 * simulation), with the sequential run's results.
 *
 * A program started as `mpirun -np N PROGRAM` calls Enable() once, before
 * its first FabricScenario::Run(), and Disable() at its end. Every rank then
 * runs the same Run(): each builds the fabric with its switches placed on
 * the ranks (GetPlacement(): a leaf-spine by leaf, a fat-tree by pod, the
 * spines and core switches round-robin; each host on its edge switch's
 * rank), every cable between ranks an EthernetRemoteChannel, and runs the
 * transfers of its own hosts. After the run, rank 0 gathers every rank's
 * transfers, switch ports, drops and counters (Gather()) and its Result is
 * the whole experiment's; another rank's Result holds its own part.
 *
 * The results are those of the sequential run with ns3::ArrivalsLastScheduler,
 * the event order a split run needs (Enable() sets it; see "Same-time events
 * and ArrivalsLastScheduler" in the documentation): every transfer's FCT to
 * the nanosecond and every counter. The cables between ranks need a delay
 * above 0, the lookahead of ns-3's synchronisation
 * (ns3::EthernetChannel::Delay in the run's defaults).
 *
 * Without ns-3's mpi module (Debian's ns-3, for one), GetCount() is 1 and
 * Enable() refuses with a message.
 */
class FabricRanks
{
  public:
    /**
     * Starts ns-3's distributed simulation (DistributedSimulatorImpl) with
     * ArrivalsLastScheduler. Throws std::invalid_argument where ns-3 has no
     * mpi module.
     * \param argc the program's argument count (MPI may consume some)
     * \param argv its arguments
     */
    static void Enable(int* argc, char*** argv);
    /// Ends it (after the last Run()); nothing when Enable() was not called.
    static void Disable();
    /// \return the number of ranks of this run (1: not distributed)
    static uint32_t GetCount();
    /// \return this process's rank (0 when not distributed)
    static uint32_t GetRank();

    /**
     * Throws std::invalid_argument naming the first option that a run over
     * several ranks does not support, and why: a topology other than
     * leaf-spine and fat-tree, a topology file, and the outputs that
     * follow every port or transfer over time (rates, queueInterval,
     * flowRateInterval and the files made of them, pfcFile).
     * \param config the experiment
     * \param ranks the ranks it runs on
     */
    static void RequireSupported(const FabricScenario::Config& config, uint32_t ranks);
    /**
     * Throws std::invalid_argument naming the first output that follows a
     * run over time (rates, queueInterval, flowRateInterval, pfcFile,
     * qlenFile): Pack() does not carry them from one process to another.
     * \param config the experiment
     * \param where what carries the results, for the message (" in a run
     *        over 2 ranks")
     */
    static void RequireCarried(const FabricScenario::Config& config, const std::string& where);
    /**
     * \param config the experiment (leaf-spine or fat-tree)
     * \param ranks the ranks
     * \return where its switches run (FabricHelper::SetSwitchSystemIds())
     */
    static FabricHelper::SystemIdOf GetPlacement(const FabricScenario::Config& config,
                                                 uint32_t ranks);
    /**
     * Throws std::invalid_argument when a cable between two ranks has no
     * delay (ns-3's synchronisation needs a lookahead above 0).
     * \param fabric the fabric built
     */
    static void RequireLookahead(const FabricHelper& fabric);

    /**
     * Gathers every rank's part of the results on rank 0, where \p result
     * becomes the whole run's: every transfer (host by host, each host's in
     * its own order, as a sequential run lists them), every switch port
     * (switch by switch), the drops and pauses summed, the peaks and ends
     * the largest, the events summed. On another rank \p result is left as
     * it is. Every rank must call it, after the run.
     * \param result this rank's part
     */
    static void Gather(FabricScenario::Result& result);
    /**
     * Gathers a text from every rank on rank 0 (one MPI_Gatherv). Every rank
     * must call it.
     * \param text this rank's
     * \return on rank 0 every rank's text, by rank; on another rank
     *         nothing; when not distributed, \p text alone
     */
    static std::vector<std::string> GatherTexts(const std::string& text);

    /**
     * The results as text, one line per record: the run's shape (hosts,
     * switches, flows asked for, the switches' node ids, the wall time),
     * every transfer, every switch port, the drops, and the counters. Not
     * what follows a run over time (RequireCarried()). Merge() into an
     * empty Result (with its config) gives back \p result; rnic-fabric
     * --resultFile writes it, and the Python package reads it back.
     * \param result a run or a rank's part of one
     * \return it as text (Merge() reads it)
     */
    static std::string Pack(const FabricScenario::Result& result);
    /**
     * Adds a part packed by Pack() to \p result (transfers and ports
     * appended, counters summed, the shape taken; Sort() puts them in
     * order). Throws std::runtime_error naming a malformed line.
     * \param text the part
     * \param result where it goes
     */
    static void Merge(const std::string& text, FabricScenario::Result& result);
    /**
     * Orders merged transfers host by host (each host's in the order it
     * listed them) and ports switch by switch.
     * \param result the merged results
     */
    static void Sort(FabricScenario::Result& result);
};

} // namespace ns3

#endif /* FABRIC_RANKS_H */
