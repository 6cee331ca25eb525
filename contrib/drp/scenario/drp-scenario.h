/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_SCENARIO_H
#define DRP_SCENARIO_H

#include "drp-statistics.h"

#include "ns3/data-rate.h"
#include "ns3/drp-transfer-record.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class CommandLine;

namespace drp
{
class StrictOptions;
} // namespace drp

/**
 * \ingroup drp
 * \brief One experiment of the paper's kind, ready to run: two hosts with
 * RNICs, one writing to (or reading from) the other, over one link or a line
 * of switches, with frame loss from an ns-3 error model, failing memory
 * registration, and optional background pings.
 *
 * Scripts, tests and campaign tools share this one definition of "an
 * experiment", so a number printed by one is the number the others get.
 */
class DrpScenario
{
  public:
    /// Everything an experiment can vary. Defaults: the paper's simulation.
    struct Config
    {
        std::string method{"dynamic"};      //!< traditional or dynamic
        double frp{0};                      //!< failed-registration probability [0, 1]
        double lfp{0};                      //!< lost-frame probability [0, 1)
        std::string lossModel{"rate"};      //!< rate (independent) or burst losses
        double meanBurst{2.5};              //!< burst loss model: mean burst length, frames
        uint32_t transfers{800};            //!< transfers to run
        uint32_t concurrency{1};            //!< transfers in flight at once [1, 1024]
        uint32_t size{131072};              //!< bytes per transfer
        uint32_t payload{1024};             //!< payload bytes per data frame [1, mtu - 32]
        std::string operation{"write"};     //!< write or read
        std::string topology{"p2p"};        //!< p2p (one link) or line (of switches)
        uint32_t switches{2};               //!< line: number of switches
        DataRate rate{DataRate("1Gbps")};   //!< every link's line rate [10 Mb/s, 800 Gb/s]
        bool pings{false};                  //!< three pings each way (256, 512, 1024 bytes)
        Time pingInterval{MilliSeconds(1)}; //!< interval of each ping
        uint32_t seed{1};                   //!< ns-3 RNG seed
        uint32_t run{1};                    //!< ns-3 RNG run number
        /// common random numbers: every transfer starts the loss and
        /// registration draws afresh from streams of its own (see Run())
        bool pairedStreams{true};
        bool verify{true}; //!< compare memory byte for byte after each transfer
        /// ns-3 attribute defaults to set before the run, e.g.
        /// {"ns3::DrpTransport::HandshakeTimeout", "2ms"} (Config::SetDefault)
        std::map<std::string, std::string> defaults;
        /// pcap files of both RNICs (and, on a line, every switch port),
        /// PREFIX-NODE-DEVICE.pcap (empty: none)
        std::string pcap;
        /// ascii traces of the same devices, PREFIX-NODE-DEVICE.tr (empty: none)
        std::string ascii;
        /// the RNICs' NicProfile (paper-1g: the paper's card, the attribute defaults), or
        /// "auto" (the profile of rate, NicProfile::ForRate()); rate sets the port's rate,
        /// payload the transports' PayloadSize
        std::string nic{"paper-1g"};
        /// every port's MTU, RNICs and switches alike [46, 9216] (9000: jumbo frames)
        uint32_t mtu{1500};

        /**
         * Throws std::invalid_argument naming the first invalid option, its
         * value and the valid range.
         */
        void Validate() const;
        /// \return the NIC profile the RNICs get: nic, or the profile of rate for "auto"
        std::string GetNic() const;
        /**
         * Binds every field but defaults to a command-line option of the same
         * name. The numbers and the time are parsed strictly (see
         * drp::StrictOptions): call strict.Apply() after cmd.Parse().
         * \param cmd the command line
         * \param strict where the numeric options go
         * \param withMethod false: leave out "method" (a program that defines its own)
         */
        void AddToCommandLine(CommandLine& cmd, drp::StrictOptions& strict, bool withMethod = true);
    };

    /// What an experiment produced.
    struct Result
    {
        Config config;                          //!< what was run
        std::vector<DrpTransferRecord> records; //!< one per transfer, in end order
        uint32_t corruptTransfers{0};           //!< successful transfers whose bytes differ
        uint64_t framesLost{0};                 //!< frames the error models dropped (on the wire)
        uint64_t hostDrops{0};       //!< frames dropped inside the hosts and RNICs for want of room
        uint64_t drpDrops{0};        //!< DRP frames the RNICs dropped (checks, buffer)
        uint64_t bufferOverflows{0}; //!< indirect buffer refusals
        uint64_t pcieRequests{0};    //!< PCIe DMA requests of both hosts
        uint32_t pingReplies{0};     //!< ping replies received
        Time pingMaxRtt;             //!< the longest round trip of a ping
        Time simulatedTime;          //!< simulated time at the end
        uint64_t events{0};          //!< simulator events executed
        double wallSeconds{0};       //!< wall-clock time of the run

        /**
         * Adds another run's transfers and counters to this one (pooling
         * repetitions). The first merge into an empty result takes its config.
         * \param other a run of the same experiment
         */
        void Merge(const Result& other);
        /// \return transfers that ended successfully
        uint32_t GetSuccesses() const;
        /// \return transfers that went indirect
        uint32_t GetIndirect() const;
        /// \return mean and 95% interval of successful transfers' durations, microseconds
        DrpMeanInterval GetTransferTime() const;
    };

    /**
     * Runs an experiment (the simulator must be idle; it is destroyed after).
     *
     * With Config::pairedStreams (the default), the error models of both
     * RNICs and the responder's registration draws are given fresh streams
     * at the start of every transfer, numbered from PAIRED_STREAM_BASE by the
     * transfer's index. Each transfer's draws are still independent uniforms,
     * so either method's results are distributed as with one stream per run;
     * but both methods of one run now meet the same losses and registration
     * outcomes transfer by transfer (common random numbers), where one
     * stream per run would let the two diverge for the rest of the run after
     * the first transfer in which they behave differently. Their difference
     * is then measured with far less noise. With Config::concurrency above
     * 1, the transfers in flight share the streams of the one that started
     * last: the draws are still independent uniforms, but the two methods
     * meet the same ones only as far as their transfers overlap alike.
     *
     * \param config the experiment; validated first
     * \return what it produced
     */
    static Result Run(const Config& config);

    /// First stream of the per-transfer streams (above the run's own).
    static constexpr int64_t PAIRED_STREAM_BASE = 1000;
    /// Streams reserved per transfer: 2 per RNIC's error model, 2 for the responder.
    static constexpr int64_t PAIRED_STREAMS_PER_TRANSFER = 6;

    /**
     * Throws std::invalid_argument if an attribute default names an attribute
     * that Run() sets itself on the objects it builds (it would ignore the
     * default), naming the parameter that sets it, as
     * "ns3::EthernetNetDevice::DataRate is set by the scenario (it would
     * ignore this default); use the scenario parameter rate instead".
     * Config::Validate() calls it.
     * \param defaults the attribute defaults, "ns3::Class::Attribute" (also
     * through a subclass) to value
     * \param options true: a program's command line gave them, and the
     * message names the options of AddToCommandLine() ("use the option --rate
     * instead") rather than the parameters
     */
    static void RefuseScenarioAttributes(const std::map<std::string, std::string>& defaults,
                                         bool options = false);

  private:
    /**
     * Runs a validated experiment.
     * \param config the experiment
     * \return what it produced
     */
    static Result RunValidated(const Config& config);

  public:
    /**
     * Writes the CSV header matching WriteCsvRows().
     * \param os the stream
     */
    static void WriteCsvHeader(std::ostream& os);
    /**
     * Writes one CSV row per transfer.
     * \param os the stream
     * \param result an experiment's result
     */
    static void WriteCsvRows(std::ostream& os, const Result& result);

    /**
     * Writes one line that summarises a run (or pooled runs): the method, the
     * mean transfer time of the successful transfers with its 95 % interval
     * ("no successful transfers" instead if there are none), the counts of
     * successful, indirect and corrupt transfers and of lost frames, and the
     * wall-clock time.
     * \param os the stream
     * \param result the run
     */
    static void PrintSummary(std::ostream& os, const Result& result);
    /**
     * Writes one line with the dynamic method's reduction of the mean
     * transfer time in percent, or, if either method had no successful
     * transfer, a line that says so.
     * \param os the stream
     * \param traditional the traditional method's run
     * \param dynamic the dynamic method's run
     */
    static void PrintReduction(std::ostream& os, const Result& traditional, const Result& dynamic);

    /// What the summaries say instead of a mean when no transfer succeeded.
    static constexpr const char* NO_SUCCESSES = "no successful transfers";
};

} // namespace ns3

#endif /* DRP_SCENARIO_H */
