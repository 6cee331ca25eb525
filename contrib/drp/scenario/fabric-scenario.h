/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_SCENARIO_H
#define FABRIC_SCENARIO_H

#include "drp-statistics.h"
#include "flow-rate-recorder.h"

#include "ns3/data-rate.h"
#include "ns3/drp-transfer-record.h"
#include "ns3/ecmp-switch-net-device.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class CommandLine;
class FabricHelper;

namespace drp
{
class StrictOptions;
} // namespace drp

/**
 * \ingroup drp
 * \brief One fabric experiment, ready to run: hosts with RNICs on a star, a
 * tree, a leaf-spine or a k-ary fat-tree of EcmpSwitchNetDevice switches,
 * running one traffic matrix (incast, permutation, all-to-all, or open-loop
 * Poisson arrivals with flow sizes from a CDF). Frames are lost only where a
 * switch queue is full; registrations fail with probability frp.
 *
 * The fabric counterpart of DrpScenario: rnic-fabric, the tests and the
 * campaign tools share this one definition, so a number printed by one is
 * the number the others get. Every transfer is a write; its slowdown is its
 * FCT over DrpIdealFct's ideal for its size and path.
 */
class FabricScenario
{
  public:
    /**
     * The most queue samples (queueInterval) one run holds: about 130 MB.
     * A configuration that would pass it during its arrivals alone (Poisson:
     * duration / queueInterval ticks) is refused before the run; a run that
     * reaches it later stops sampling there, and says so
     * (Result::GetQueueNote()).
     */
    static constexpr uint64_t MAX_QUEUE_SAMPLES = 4000000;

    /// Everything a fabric experiment can vary.
    struct Config
    {
        std::string topology{"star"};    //!< star, tree, leaf-spine or fat-tree
        uint32_t hosts{9};               //!< star: hosts; tree: fan-out; leaf-spine: per leaf
        uint32_t leaves{2};              //!< leaf-spine: leaves
        uint32_t spines{2};              //!< leaf-spine: spines
        uint32_t levels{2};              //!< tree: switch levels
        uint32_t k{4};                   //!< fat-tree: ports per switch (even)
        std::string workload{"incast"};  //!< incast, permutation, all-to-all or poisson
        uint32_t bytes{65536};           //!< incast, permutation, all-to-all: bytes per flow
        uint32_t degree{0};              //!< incast: senders (0: every other host)
        double load{0.5};                //!< poisson: load of each host link, (0, 1]
        std::string cdf{"web-search"};   //!< poisson: web-search, data-mining or a file
        Time duration{MilliSeconds(10)}; //!< poisson: arrivals come this long
        std::string method{"dynamic"};   //!< traditional or dynamic
        double frp{0};                   //!< failed-registration probability [0, 1]
        DataRate hostRate{"1Gbps"};      //!< host links
        DataRate fabricRate{"1Gbps"};    //!< links between switches
        std::string queue{"100p"};       //!< every switch port's egress queue (QueueSize)
        /// switch queues mark CE (EcnMarkingQueue) and RNICs send data ECN-capable
        bool ecn{false};
        std::string ecnMin{"4KB"};  //!< ecn: Kmin, MinThreshold (QueueSize, unit of ecnMax)
        std::string ecnMax{"16KB"}; //!< ecn: Kmax, MaxThreshold (QueueSize, above ecnMin)
        double ecnPmax{0.2};        //!< ecn: Pmax, MaxProbability (0 to 1)
        /// ecn: the marking rule, red (Kmin, Kmax, Pmax) or step (every frame above
        /// ecnMin, DCTCP's K: EcnMarkingQueue's MarkingMode Step)
        std::string ecnMarking{"red"};
        /// ecn: thresholds per port rate, "RATE:KMIN:KMAX:PMAX,..." (e.g.
        /// "25Gbps:100KB:400KB:0.2,100Gbps:400KB:1600KB:0.2"), for every switch port in place
        /// of ecnMin, ecnMax and ecnPmax, as HPCC's KMIN_MAP, KMAX_MAP and PMAX_MAP give them
        /// (every switch port's rate must be listed; empty: ecnMin, ecnMax, ecnPmax everywhere)
        std::string ecnByRate;
        /// the RNICs' congestion control (GetCongestionControls()): none, dcqcn (DrpDcqcn),
        /// dctcp (DrpDctcp, with CnpInterval 0: every CE mark echoed), timely (DrpTimely,
        /// RTT gradients) or hpcc (DrpHpcc, every switch port with InbandTelemetry; port
        /// rates DrpIntHeader::IsEncodable(), payload at most mtu - 74); dcqcn and dctcp need
        /// ecn (ReactsToEcn())
        std::string cc{"none"};
        /// record every change of a transfer's pacing rate (Result::rates)
        bool rates{false};
        uint32_t seed{1}; //!< ns-3 RNG seed
        uint32_t run{1};  //!< ns-3 RNG run number
        /// incast: each sender starts at an offset drawn uniformly from [0, jitter]
        Time jitter{Seconds(0)};
        uint32_t ecmpSeed{0};   //!< every switch's EcmpSeed (with ecmpPerRun: plus run)
        bool ecmpPerRun{false}; //!< switches' EcmpSeed = ecmpSeed + run: paths differ by run
        /// the transports' TimeoutMode: fixed (the published timers) or adaptive (RFC 6298)
        std::string timeoutMode{"fixed"};
        /// pcap files of every RNIC and switch port, PREFIX-NODE-DEVICE.pcap (empty: none)
        std::string pcap;
        /// ascii traces of every RNIC and switch port, PREFIX-NODE-DEVICE.tr (empty: none)
        std::string ascii;
        /// every switch gets a SwitchBuffer, every port PFC, the RNICs' DRP class is lossless
        bool lossless{false};
        /// lossless: each switch's buffer, bytes (QueueSize in B: "12MiB", "1MB")
        std::string buffer{"12MiB"};
        /// lossless: the buffer's XOFF threshold, dynamic (Alpha 1/8) or static (64 KiB)
        std::string threshold{"dynamic"};
        /// lossless: every switch port's PFC watchdog detection time (EthernetNetDevice
        /// PfcWatchdogTime; restoration twice it; 0: none; up to 100 s), SONiC's default
        Time pfcWatchdog{MilliSeconds(200)};
        /// lossless: what the watchdog does with a class in a pause storm, drop or forward
        std::string pfcWatchdogAction{"drop"};
        /// lossless: hosts (indices, "3" or "3,7") whose RNICs pause their DRP class from
        /// the start and never stop, as a NIC whose receive path hangs (empty: none)
        std::string pfcStorm;
        /// lossless: the RNICs' timers for a fabric that loses nothing to congestion: no
        /// timer counts time in which a pause held the RNIC (DrpTransport PauseAwareTimer),
        /// and every timer that takes a frame for lost waits at least the time one switch
        /// buffer takes to drain at the host rate (DrpTransport MinLossTimeout); false: the
        /// timers of timeoutMode as on a lossy fabric, the published protocol's
        bool losslessTimers{true};
        /// incast: the host the senders write to (its senders: the first degree other hosts)
        uint32_t receiver{0};
        /// incast: source i (0, 1, ...: the senders, then the victims) starts i x stagger
        /// after the first (a sender then waits its jitter)
        Time stagger{Seconds(0)};
        /// incast: flows beside it, victim k from the (degree + k)-th host other than the
        /// receiver to host (receiver + 1 + k) mod hosts, starting at (degree + k) x stagger
        uint32_t victims{0};
        uint32_t victimBytes{65536}; //!< victims: bytes per victim flow
        /// the transports' Window, data frames in flight per transfer (0: DrpTransport's, 8)
        uint32_t window{0};
        /// the transports' AckEvery: frames acknowledged at a time (1: each, the published
        /// protocol; up to 65535)
        uint32_t ackEvery{1};
        /// with ackEvery above 1, the transports' AckDelay (0: DrpTransport's, 50 us; up to 1 s)
        Time ackDelay{Seconds(0)};
        /// sample every switch port's backlog at this interval into Result::queues (0: none)
        Time queueInterval{Seconds(0)};
        /// count every write's data frames by this interval into Result::flowRates, its
        /// sending rate over time (FlowRateRecorder; 0: none; up to 1 s)
        Time flowRateInterval{Seconds(0)};
        /// the RNICs' NicProfile, or "auto" (the profile of hostRate, NicProfile::ForRate():
        /// paper-1g, the paper's card, up to 1 Gb/s); hostRate sets the port's rate, window
        /// (if set) the transports' Window, payload their PayloadSize
        std::string nic{"auto"};
        /// payload bytes per data frame, the transports' PayloadSize (1 to mtu - 32)
        uint32_t payload{1024};
        /// every port's MTU, RNICs and switches alike (46 to 9216; 9000: jumbo frames)
        uint32_t mtu{1500};
        /// a topology file of HPCC's simulator (HpccTopology): its hosts, switches and links,
        /// each with its rate, delay and error rate, instead of topology and its counts,
        /// hostRate (its host links' one rate) and fabricRate (empty: none)
        std::string topologyFile;
        /// a flow file of HPCC's simulator (HpccFlowList): its flows, between the node ids
        /// of the topology (GetHostNodeId()), instead of the workload (empty: none)
        std::string flowFile;
        /// write the successful transfers in the layout of HPCC's fct.txt here (WriteHpccFct())
        std::string fctFile;
        /// write every pause and resume a port received, as HPCC's pfc.txt, here
        /// (WriteHpccPfc(); lossless)
        std::string pfcFile;
        /// write the queue samples (queueInterval) as HPCC's queue-length histograms here
        /// (WriteHpccQlen())
        std::string qlenFile;
        /// ns-3 attribute defaults to set before the run, e.g.
        /// {"ns3::DrpDcqcn::RateAi", "10Mbps"} (Config::SetDefault; not those the scenario
        /// sets itself, RefuseScenarioAttributes())
        std::map<std::string, std::string> defaults;

        /**
         * Throws std::invalid_argument naming the first invalid option, its
         * value and what is valid.
         */
        void Validate() const;
        /// \return the fabric's name: topology, or "topology file FILE"
        std::string GetTopologyName() const;
        /// \return the traffic's name: workload, or "flow file FILE"
        std::string GetWorkloadName() const;
        /// \return the hosts the topology has (its counts unchecked; a topology file's hosts)
        double GetHostCount() const;
        /// \return the host links' rate: hostRate, or the one rate of a topology file's
        ///         host links
        DataRate GetHostRate() const;
        /**
         * Throws std::invalid_argument for an option given away from its
         * default where it has no effect, naming it and what it is for: a
         * topology file's options beside it (topology, its counts, hostRate,
         * fabricRate), a flow file's beside it (the workload's), a
         * topology's counts on another topology (leaves, spines, levels, k;
         * hosts on a fat-tree; fabricRate on a star), a workload's on another
         * (degree; bytes with Poisson; load, cdf, duration without it),
         * victimBytes without victims, ecnMin, ecnMax and ecnPmax without
         * ecn, buffer, threshold, the PFC watchdog's options and pfcStorm
         * without lossless, queue with lossless, ackDelay with ackEvery
         * 1. (The incast's own, jitter, receiver, stagger and victims, are
         * refused by Validate() with their own message.)
         */
        void RefuseInapplicable() const;
        /// \return the NIC profile the RNICs get: nic, or the profile of hostRate for "auto"
        std::string GetNic() const;
        /**
         * \return a note, before the run, when the RNICs cannot fill their
         *         host links (NicProfile::GetLimit(): the payload rate they
         *         reach, what limits it, against the link's goodput ceiling);
         *         empty when the port is the limit
         */
        std::string GetHostLimitNote() const;
        /**
         * Binds every field but defaults to a command-line option of the same name (the
         * numbers, rates and times strictly: call strict.Apply() after
         * cmd.Parse()).
         * \param cmd the command line
         * \param strict where the numeric options go
         */
        void AddToCommandLine(CommandLine& cmd, drp::StrictOptions& strict);
    };

    /// One transfer of the workload, as it ended.
    struct Transfer
    {
        uint32_t source{0};          //!< the writing host's index
        uint32_t destination{0};     //!< the host written to
        uint32_t switches{0};        //!< switches on the path between them
        DrpTransferRecord record;    //!< how it went
        Time ideal;                  //!< DrpIdealFct of its size and path
        uint32_t sourceNode{0};      //!< the source's node id (FabricHelper::GetHostNodeId())
        uint32_t destinationNode{0}; //!< the destination's node id
        /// the flow's id (FabricWorkloadHelper::Flow::id: a flow file's destination port)
        uint16_t flowId{0};
        /// \return its source port as HPCC's simulator numbers them: 10000 + the
        ///         transfer's index on its host (mod 2^16)
        uint16_t GetSourcePort() const;
        /// \return FCT / ideal FCT
        double GetSlowdown() const;
    };

    /// One change of a transfer's pacing rate (its congestion control's output).
    struct RateChange
    {
        Time time;          //!< when
        uint32_t source{0}; //!< the sending host's index
        uint16_t tid{0};    //!< the transfer
        DataRate rate;      //!< the new rate (0: unpaced, the line rate)
    };

    /// What one transfer sent in one interval (flowRateInterval): its transfer is its
    /// position in Result::transfers.
    using FlowRate = FlowRateRecorder::Sample;

    /// One sample of one switch port's transmit side (queueInterval).
    struct QueueSample
    {
        Time time;          //!< when
        uint32_t sw{0};     //!< switch index
        uint32_t port{0};   //!< port index on that switch
        uint32_t frames{0}; //!< frames waiting, every class
        uint32_t bytes{0};  //!< bytes waiting, every class
        bool busy{false};   //!< a frame (or its gap) on the wire
        bool paused{false}; //!< a pause from the peer holds a class (lossless)
    };

    /// A pause frame's class taking effect at a port, or ending (lossless; as HPCC's pfc.txt).
    struct PfcEvent
    {
        Time time;            //!< when the port received it
        uint32_t node{0};     //!< the node's id (FabricHelper::GetHostNodeId(), GetSwitchNodeId())
        bool isSwitch{false}; //!< a switch port (true) or an RNIC
        /// the port as HPCC's interface index: a switch's port index + 1, an RNIC 1
        uint32_t port{0};
        uint8_t cls{0};    //!< the PFC class
        bool pause{false}; //!< a pause (quanta above 0) or a resume (0)
    };

    /// One switch port's counters.
    struct Port
    {
        uint32_t sw{0};                       //!< switch index
        uint32_t port{0};                     //!< port index on that switch
        EcmpSwitchNetDevice::PortStats stats; //!< frames out, drops, peak queue
        uint64_t ecnMarks{0};                 //!< frames its queue marked CE (ecn)
        uint64_t pausesSent{0};               //!< PFC frames it sent (lossless), every class
        uint64_t pausesReceived{0};           //!< PFC frames it received, every class
        Time timePaused;                      //!< time its peer held it paused, every class
        uint64_t pfcStorms{0};                //!< pause storms its PFC watchdog detected
        uint64_t headroomFrames{0};           //!< frames that came in and went to headroom
        uint32_t peakIngressBytes{0};         //!< most bytes of its ingress queues at once
    };

    /// Frames dropped for one reason in one kind of device, summed over the fabric.
    struct DropCount
    {
        std::string device; //!< switch, link, rnic or host
        std::string reason; //!< why, as the device names it
        uint64_t frames{0}; //!< frames dropped
    };

    /// Slowdowns of the successful transfers in one size bucket.
    struct SizeBucket
    {
        uint32_t minBytes{0}; //!< smallest transfer in it
        uint32_t maxBytes{0}; //!< largest transfer in it
        size_t count{0};      //!< transfers in it
        double p50{0};        //!< median slowdown
        double p95{0};        //!< 95th percentile
        double p99{0};        //!< 99th percentile
    };

    /// What a fabric experiment produced.
    struct Result
    {
        Config config;                   //!< what was run
        uint32_t hosts{0};               //!< hosts in the fabric
        uint32_t switchCount{0};         //!< switches in it
        uint32_t flows{0};               //!< transfers the workload asked for
        std::vector<Transfer> transfers; //!< every ended transfer, host by host
        std::vector<Port> ports;         //!< every switch port that sent or dropped a frame
        std::vector<RateChange> rates;   //!< rates: every pacing-rate change, in time order
        /// queueInterval: every switch port at every tick from 0 while events remain, in
        /// time order, then switch and port order
        std::vector<QueueSample> queues;
        /// flowRateInterval: every transfer's intervals from that of its first data frame
        /// to that of its last (0 where it sent nothing), in time order, then transfer order
        std::vector<FlowRate> flowRates;
        /// lossless: every pause and resume a port received, in time order
        std::vector<PfcEvent> pfcEvents;
        /// switch index -> its node id (FabricHelper::GetSwitchNodeId())
        std::vector<uint32_t> switchNodes;
        /// every drop reason of every kind of device, in a fixed order (zeros too):
        /// GetDropKinds()
        std::vector<DropCount> drops;
        double expectedFlows{0}; //!< flows the workload asks for on average (Poisson: the mean)
        Time simulatedTime;      //!< when the last transfer ended: the experiment's length
        Time simulatorEnd;       //!< when the simulator ran out of events (released
                                 //!< records are kept for the idle time after the last end)
        uint64_t events{0};      //!< simulator events executed
        uint64_t rnicPausesReceived{0}; //!< PFC frames the RNICs received (lossless)
        Time rnicTimePaused;            //!< time the RNICs were held paused, all together
        uint64_t peakBufferBytes{0};    //!< most bytes any switch's buffer held (lossless)
        double wallSeconds{0};          //!< wall-clock time of the run
        /// queueInterval: sampling stopped here, MAX_QUEUE_SAMPLES reached (0: it did not)
        Time queueSamplesCut;

        /// \return why the queue samples end before the run (empty: they do not)
        std::string GetQueueNote() const;
        /// \return why the workload asked for no flow (empty: it asked for some)
        std::string GetNoFlowsNote() const;

        /// \return the successful transfers' FCTs, microseconds, in transfer order
        std::vector<double> GetFcts() const;
        /// \return mean and 95 % interval of successful transfers' FCT, microseconds
        DrpMeanInterval GetFct() const;
        /**
         * \param q a quantile in (0, 1]
         * \return the nearest-rank quantile of successful transfers' FCT, microseconds
         */
        double GetFctQuantile(double q) const;
        /**
         * GetSlowdownBySize() of the successful transfers.
         * \param buckets the number of buckets (1 to 1000)
         * \return the non-empty buckets, smallest sizes first
         */
        std::vector<SizeBucket> GetSlowdownBySize(uint32_t buckets) const;
        /// \return frames the switch queues dropped (egress queue full)
        uint64_t GetDrops() const;
        /**
         * \param device switch, link, rnic or host (empty: every kind)
         * \return frames dropped in that kind of device, every reason
         */
        uint64_t GetDropsIn(const std::string& device) const;
        /// \return frames the switch queues marked CE (ecn)
        uint64_t GetEcnMarks() const;
        /// \return congestion notifications (CNP) the transfers' senders received
        uint64_t GetCnps() const;
        /// \return PFC frames the switch ports sent (lossless)
        uint64_t GetPausesSent() const;
        /// \return PFC frames the switch ports received (lossless)
        uint64_t GetPausesReceived() const;
        /// \return time the switch ports were held paused, all together
        Time GetTimePaused() const;
        /// \return pause storms the switch ports' PFC watchdogs detected (lossless)
        uint64_t GetPfcStorms() const;
        /// \return transfers that ended with \p status
        uint32_t Count(DrpTransferRecord::Status status) const;
    };

    /**
     * Runs a fabric experiment (the simulator must be idle; it is destroyed
     * after).
     * \param config the experiment; validated first
     * \return what it produced
     */
    static Result Run(const Config& config);
    /**
     * Throws std::invalid_argument for an attribute default that Run() sets
     * itself on the objects it builds (it would ignore the default), naming
     * the parameter that sets it, as "ns3::EthernetNetDevice::DataRate is set
     * by the scenario (it would ignore this default); use the scenario
     * parameters hostRate, fabricRate instead". Config::Validate() calls it.
     * \param defaults the attribute defaults, "ns3::Class::Attribute" (also
     *        through a subclass) to value
     * \param options true: a program's command line gave them (the message
     *        names options, --hostRate)
     */
    static void RefuseScenarioAttributes(const std::map<std::string, std::string>& defaults,
                                         bool options = false);
    /// \return the names Config::cc takes: none, dcqcn, dctcp, timely, hpcc
    static const std::vector<std::string>& GetCongestionControls();
    /**
     * \param cc one of GetCongestionControls()
     * \return true if the scheme reacts to ECN marks (it needs Config::ecn)
     */
    static bool ReactsToEcn(const std::string& cc);

    /**
     * Slowdown by flow size, as the field reports it (HPCC's
     * fct_analysis.py): transfers sorted by size and cut into \p buckets
     * buckets of (nearly) equal count, with the nearest-rank p50, p95 and
     * p99 of each; transfers of one size stay in one bucket. Pooled
     * repetitions (the Python package) come through here too.
     * \param bytes each transfer's size
     * \param slowdown each transfer's slowdown, in the same order
     * \param buckets the number of buckets (1 to 1000)
     * \return the non-empty buckets, smallest sizes first
     */
    static std::vector<SizeBucket> GetSlowdownBySize(const std::vector<uint32_t>& bytes,
                                                     const std::vector<double>& slowdown,
                                                     uint32_t buckets);

    /**
     * Every (device, reason) a fabric run counts drops under, in the order of
     * Result::drops: switch (egress-queue-full, hairpin), link
     * (receive-error: a port's ReceiveErrorModel; fcs-error), rnic (each
     * DrpTransport::DropReason, buffer-full among them) and host
     * (tx-queue-full, rx-queue-full: RnicNetDevice's host drops of other
     * traffic), then switch again (shared-buffer-full, headroom-overflow: a
     * SwitchBuffer refused the frame, lossless; link-local: a frame to
     * 01:80:C2:00:00:0x that a switch does not forward, such as a pause frame
     * at a port without PFC; pfc-watchdog: frames a port's PFC watchdog
     * discarded during a pause storm) and link again (malformed-pause: a MAC
     * Control frame a port with PFC dropped as malformed or foreign).
     * \return the kinds, frames 0
     */
    static std::vector<DropCount> GetDropKinds();
    /**
     * Adds up a fabric's drops, every reason of every kind of device.
     * \param fabric the fabric, after a run
     * \return GetDropKinds() with their frames
     */
    static std::vector<DropCount> CountDrops(const FabricHelper& fabric);
    /**
     * Writes one CSV row per drop reason (device,reason,frames).
     * \param os the stream
     * \param result an experiment's result
     */
    static void WriteDropsCsv(std::ostream& os, const Result& result);
    /**
     * Writes one CSV row per transfer and interval (flowRateInterval):
     * time_s,transfer,source,destination,bytes,wire_bytes,rate_bps, where
     * transfer is the row of WriteCsvRows() (0, 1, ...) and rate_bps the
     * wire bytes' rate, comparable with the links' rates.
     * \param os the stream
     * \param result an experiment's result
     */
    static void WriteFlowRatesCsv(std::ostream& os, const Result& result);

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
     * Writes the successful transfers as HPCC's simulator writes fct.txt,
     * one line per transfer, "%08x %08x %u %u %lu %lu %lu %lu": source and
     * destination as HPCC's IP addresses of their node ids (0x0b000001 +
     * (id / 256) x 0x10000 + (id % 256) x 0x100), source port
     * (GetSourcePort()), destination port (the flow's id), size in bytes,
     * start time, FCT and ideal FCT (DrpIdealFct, where HPCC writes its
     * "standalone FCT"), all three in ns. Failed transfers are left out, as
     * HPCC's simulator writes only completed flows.
     * \param os the stream
     * \param result an experiment's result
     */
    static void WriteHpccFct(std::ostream& os, const Result& result);
    /**
     * Writes Result::pfcEvents as HPCC's simulator writes pfc.txt, one line
     * per event, "time node node_type port type": time in ns, node id, 1 for
     * a switch and 0 for a host, the port's interface index, 1 for a pause
     * and 0 for a resume; then, a column HPCC's file lacks, the class.
     * \param os the stream
     * \param result an experiment's result
     */
    static void WriteHpccPfc(std::ostream& os, const Result& result);
    /**
     * Writes the queue samples as HPCC's simulator's queue monitor does
     * (QLEN_MON_FILE): "time: T" (ns, the last sample's time), then one
     * line per switch port, "node port n0 n1 n2 ...", where ni counts the
     * samples at which i KB (i x 1000 bytes up to the next) waited at the
     * port (its interface index).
     * \param os the stream
     * \param result an experiment's result (queueInterval above 0)
     */
    static void WriteHpccQlen(std::ostream& os, const Result& result);

    /**
     * Writes what rnic-fabric prints: outcomes, FCT mean and quantiles,
     * slowdown by size bucket, and the ports that dropped frames.
     * \param os the stream
     * \param result the run
     * \param buckets size buckets of the slowdown table
     */
    static void PrintSummary(std::ostream& os, const Result& result, uint32_t buckets);

  private:
    /**
     * Runs a validated experiment.
     * \param config the experiment
     * \return what it produced
     */
    static Result RunValidated(const Config& config);
};

} // namespace ns3

#endif /* FABRIC_SCENARIO_H */
