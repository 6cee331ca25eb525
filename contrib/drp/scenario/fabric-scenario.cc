/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-scenario.h"

#include "csv-output.h"
#include "fabric-ranks.h"

#include "ns3/attribute-defaults.h"
#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/double.h"
#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-dcqcn.h"
#include "ns3/drp-dctcp.h"
#include "ns3/drp-header.h"
#include "ns3/drp-hpcc.h"
#include "ns3/drp-ideal-fct.h"
#include "ns3/drp-int-header.h"
#include "ns3/drp-timely.h"
#include "ns3/drp-transport.h"
#include "ns3/ecn-marking-queue.h"
#include "ns3/enum.h"
#include "ns3/ethernet-channel.h"
#include "ns3/fabric-workload-helper.h"
#include "ns3/fat-tree-fabric-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/hpcc-flow-list.h"
#include "ns3/hpcc-topology-fabric-helper.h"
#include "ns3/hpcc-topology.h"
#include "ns3/leaf-spine-fabric-helper.h"
#include "ns3/mode-policy.h"
#include "ns3/nic-profile.h"
#include "ns3/object-factory.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/star-fabric-helper.h"
#include "ns3/strict-options.h"
#include "ns3/string.h"
#include "ns3/switch-buffer.h"
#include "ns3/tree-fabric-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <regex>
#include <sstream>

namespace ns3
{

namespace
{

/**
 * \param text a queue size as the queue option gives it
 * \return it, checked (std::invalid_argument with a message otherwise:
 *         ns-3's QueueSize would end the process, or wrap a size beyond
 *         its 32 bits)
 */
QueueSize
ParseQueueSize(const std::string& text, const std::string& name = "queue")
{
    static const std::regex valid("([1-9][0-9]{0,9})(k|K|Ki|M|Mi)?(p|B)");
    std::smatch parts;
    if (!std::regex_match(text, parts, valid))
    {
        throw std::invalid_argument(name + " = " + text +
                                    " is no queue size (a whole number from 1, then p for "
                                    "frames or B for bytes, optionally after k, K, Ki, M or Mi: "
                                    "100p, 64KiB)");
    }
    // QueueSize's prefixes: k and K 10^3, Ki 2^10, M 10^6, Mi 2^20.
    static const std::map<std::string, uint64_t> prefixes{{"", 1},
                                                          {"k", 1000},
                                                          {"K", 1000},
                                                          {"Ki", 1024},
                                                          {"M", 1000000},
                                                          {"Mi", 1048576}};
    const uint64_t value = std::stoull(parts[1]) * prefixes.at(parts[2]);
    if (value > std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument(name + " = " + text + " is " + std::to_string(value) +
                                    (parts[3] == "p" ? " frames" : " bytes") +
                                    ", out of range [1, 4294967295] (ns-3's QueueSize holds "
                                    "32 bits)");
    }
    return QueueSize(text);
}

/**
 * \param config an experiment
 * \return the marking rule of its ECN queues (ecnMarking)
 */
EcnMarkingQueue::MarkingMode
GetMarkingMode(const FabricScenario::Config& config)
{
    return config.ecnMarking == "step" ? EcnMarkingQueue::STEP : EcnMarkingQueue::RED;
}

/**
 * \param text the pfcStorm option: host indices separated by commas ("": none)
 * \param hosts the fabric's hosts
 * \return the hosts, checked (std::invalid_argument naming the first bad one)
 */
std::vector<uint32_t>
ParseStormHosts(const std::string& text, uint32_t hosts)
{
    std::vector<uint32_t> storm;
    std::istringstream items(text);
    std::string item;
    while (!text.empty() && std::getline(items, item, ','))
    {
        const uint32_t host = drp::ParseStrict<uint32_t>("pfcStorm", item);
        if (host >= hosts)
        {
            throw std::invalid_argument("pfcStorm = " + text + " names host " + item +
                                        ", out of range [0, " + std::to_string(hosts - 1) +
                                        "]: the fabric has " + std::to_string(hosts) + " hosts");
        }
        if (std::find(storm.begin(), storm.end(), host) != storm.end())
        {
            throw std::invalid_argument("pfcStorm = " + text + " names host " + item + " twice");
        }
        storm.push_back(host);
    }
    if (!text.empty() && text.back() == ',')
    {
        throw std::invalid_argument("pfcStorm = " + text + " ends with a comma");
    }
    return storm;
}

/**
 * Records every pacing-rate change of every RNIC's transfers in
 * \p result.rates.
 * \param fabric the fabric
 * \param result where the changes go
 */
void
TraceRates(FabricHelper& fabric, FabricScenario::Result& result)
{
    for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
    {
        auto* rates = &result.rates;
        fabric.GetRnic(h)->GetTransport()->TraceConnectWithoutContext(
            "Rate",
            drp::FunctorCallback<void, Mac48Address, uint16_t, DataRate, DataRate>(
                [rates, h](Mac48Address, uint16_t tid, DataRate, DataRate rate) {
                    rates->push_back({Simulator::Now(), h, tid, rate});
                }));
    }
}

/// ECN thresholds of one port: Kmin, Kmax, Pmax.
struct EcnThresholds
{
    QueueSize kmin; //!< MinThreshold
    QueueSize kmax; //!< MaxThreshold
    double pmax{0}; //!< MaxProbability
};

/**
 * \param text ecnByRate, "RATE:KMIN:KMAX:PMAX,..." (commas or spaces between)
 * \return the thresholds by rate, bit/s (std::invalid_argument naming the
 *         entry and what is wrong with it)
 */
std::map<uint64_t, EcnThresholds>
ParseEcnByRate(const std::string& text)
{
    std::map<uint64_t, EcnThresholds> byRate;
    std::string entries = text;
    std::replace(entries.begin(), entries.end(), ',', ' ');
    std::istringstream in(entries);
    for (std::string entry; in >> entry;)
    {
        const std::string what = "ecnByRate entry \"" + entry + "\"";
        std::vector<std::string> parts;
        std::istringstream fields(entry);
        for (std::string part; std::getline(fields, part, ':');)
        {
            parts.push_back(part);
        }
        const std::optional<DataRate> rate =
            parts.size() == 4 ? drp::ParseDataRate(parts[0]) : std::nullopt;
        if (!rate)
        {
            throw std::invalid_argument(what + " is not RATE:KMIN:KMAX:PMAX (e.g. "
                                               "25Gbps:100KB:400KB:0.2)");
        }
        EcnThresholds t{ParseQueueSize(parts[1], what + " KMIN"),
                        ParseQueueSize(parts[2], what + " KMAX"),
                        drp::ParseStrict<double>(what + " PMAX", parts[3])};
        if (t.kmin.GetUnit() != t.kmax.GetUnit() || t.kmin.GetValue() >= t.kmax.GetValue())
        {
            throw std::invalid_argument(what + ": KMIN must be below KMAX, in the same unit");
        }
        drp::RequireInRange(what + " PMAX", t.pmax, 0.0, 1.0);
        if (!byRate.emplace(rate->GetBitRate(), t).second)
        {
            throw std::invalid_argument(what + ": its rate is listed twice");
        }
    }
    return byRate;
}

/**
 * \param config the experiment (ecn)
 * \param byRate ParseEcnByRate() of its ecnByRate
 * \param fabric the fabric
 * \param sw a switch index
 * \param port one of its ports
 * \return the port's thresholds: of its rate in ecnByRate, else ecnMin, ecnMax, ecnPmax
 */
EcnThresholds
GetEcnThresholds(const FabricScenario::Config& config,
                 const std::map<uint64_t, EcnThresholds>& byRate,
                 const FabricHelper& fabric,
                 uint32_t sw,
                 uint32_t port)
{
    if (byRate.empty())
    {
        return {QueueSize(config.ecnMin), QueueSize(config.ecnMax), config.ecnPmax};
    }
    const DataRate rate = fabric.GetSwitch(sw)->GetPort(port)->GetDataRate();
    auto it = byRate.find(rate.GetBitRate());
    if (it == byRate.end())
    {
        throw std::invalid_argument("ecnByRate = " + config.ecnByRate + " has no thresholds for " +
                                    drp::ShowDataRate(rate) + ", the rate of port " +
                                    std::to_string(port) + " of switch node " +
                                    std::to_string(fabric.GetSwitchNodeId(sw)) +
                                    ": list every switch port's rate");
    }
    return it->second;
}

/**
 * Gives every switch port's marking queue the thresholds of its rate
 * (ecnByRate; lossy fabrics: the lossless ones get theirs in MakeLossless()).
 * \param config the experiment (ecn, ecnByRate)
 * \param fabric the fabric
 */
void
ApplyEcnByRate(const FabricScenario::Config& config, const FabricHelper& fabric)
{
    const auto byRate = ParseEcnByRate(config.ecnByRate);
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const EcnThresholds t = GetEcnThresholds(config, byRate, fabric, s, p);
            Ptr<Queue<Packet>> queue = sw->GetPort(p)->GetQueue();
            queue->SetAttribute("MinThreshold", QueueSizeValue(t.kmin));
            queue->SetAttribute("MaxThreshold", QueueSizeValue(t.kmax));
            queue->SetAttribute("MaxProbability", DoubleValue(t.pmax));
        }
    }
}

/**
 * cc = hpcc: every switch port stamps in-band telemetry (INT) on the frames
 * that carry it.
 * \param fabric the fabric, built
 */
void
EnableTelemetry(const FabricHelper& fabric)
{
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<EthernetNetDevice> port = sw->GetPort(p);
            const DataRate rate = port->GetDataRate();
            if (!DrpIntHeader::IsEncodable(rate))
            {
                throw std::invalid_argument(
                    "cc = hpcc: switch " + std::to_string(s) + " port " + std::to_string(p) +
                    " runs at " + drp::ShowDataRate(rate) +
                    ", which HPCC's telemetry cannot carry; valid port rates: " +
                    DrpIntHeader::GetEncodableRatesText());
            }
            port->SetInbandTelemetry(true);
        }
    }
}

/**
 * \param port a switch port
 * \param classes with PFC: every class queue's too (made here if not yet)
 * \return the port's ECN-marking queues, class 0 (its TxQueue) first
 */
std::vector<Ptr<EcnMarkingQueue>>
MarkingQueues(Ptr<EthernetNetDevice> port, bool classes)
{
    std::vector<Ptr<EcnMarkingQueue>> queues;
    const uint8_t count = classes ? EthernetNetDevice::PFC_CLASSES : 1;
    for (uint8_t cls = 0; cls < count; ++cls)
    {
        auto queue =
            DynamicCast<EcnMarkingQueue>(cls == 0 ? port->GetQueue() : port->GetClassQueue(cls));
        if (queue)
        {
            queues.push_back(queue);
        }
    }
    return queues;
}

/**
 * Fixes the marking streams of the switches' ECN queues.
 * \param fabric the fabric
 * \param stream the first stream
 * \param classes with PFC: every class queue's too (made here if not yet)
 */
void
AssignQueueStreams(FabricHelper& fabric, int64_t stream, bool classes)
{
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (const auto& queue : MarkingQueues(sw->GetPort(p), classes))
            {
                stream += queue->AssignStreams(stream);
            }
        }
    }
}

/**
 * \param items a result's ports or transfers
 * \param value what one of them adds
 * \return the sum over all of them
 */
template <typename T, typename F>
auto
SumOf(const std::vector<T>& items, F value) -> decltype(value(items.front()))
{
    decltype(value(items.front())) sum{};
    for (const T& item : items)
    {
        sum += value(item);
    }
    return sum;
}

/**
 * Makes each switch's shared buffer, configured but not yet given to it, and
 * checks that the buffer size holds the reserves and headrooms of every
 * switch (std::invalid_argument naming the largest need once, otherwise).
 * \param config the experiment (buffer, threshold)
 * \param buffer its buffer, parsed
 * \param fabric the fabric
 * \param lossless the lossless classes' bits
 * \return one buffer per switch
 */
std::vector<Ptr<SwitchBuffer>>
MakeSwitchBuffers(const FabricScenario::Config& config,
                  QueueSize buffer,
                  const FabricHelper& fabric,
                  uint8_t lossless)
{
    std::vector<Ptr<SwitchBuffer>> mmus;
    uint64_t most = 0;
    uint32_t neediest = 0;
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<SwitchBuffer> mmu = CreateObject<SwitchBuffer>();
        mmu->SetAttribute("LosslessClasses", UintegerValue(lossless));
        mmu->SetAttribute("BufferSize", UintegerValue(buffer.GetValue()));
        mmu->SetAttribute(
            "ThresholdMode",
            EnumValue(config.threshold == "static" ? SwitchBuffer::STATIC : SwitchBuffer::DYNAMIC));
        std::vector<Ptr<EthernetNetDevice>> ports;
        for (uint32_t p = 0; p < fabric.GetSwitch(s)->GetNPorts(); ++p)
        {
            ports.push_back(fabric.GetSwitch(s)->GetPort(p));
        }
        const uint64_t committed = mmu->GetCommittedSize(ports);
        if (committed > most)
        {
            most = committed;
            neediest = s;
        }
        mmus.push_back(mmu);
    }
    if (most > buffer.GetValue())
    {
        throw std::invalid_argument(
            "buffer = " + config.buffer + " (" + std::to_string(buffer.GetValue()) +
            " bytes) is below the " + std::to_string(most) +
            " bytes that the reserves and PFC headrooms of switch " + std::to_string(neediest) +
            "'s " + std::to_string(fabric.GetSwitch(neediest)->GetNPorts()) +
            " ports take, the most of any switch of this fabric: give buffer of at least " +
            std::to_string(most) + "B (and more for a shared pool)");
    }
    return mmus;
}

/**
 * Makes a fabric lossless: a SwitchBuffer in every switch, every transmit
 * queue of every switch port (the class queues, made when first used, and
 * class 0's TxQueue) as big as the buffer, so that only the buffer drops.
 * \param config the experiment (lossless)
 * \param fabric the fabric, built with PFC on every port
 */
void
MakeLossless(const FabricScenario::Config& config, FabricHelper& fabric)
{
    const QueueSize buffer = ParseQueueSize(config.buffer, "buffer");
    // The RNICs' classes are the lossless ones (DrpClass may come from a flow file).
    const Ptr<RnicNetDevice> rnic = fabric.GetRnic(0);
    const uint8_t lossless = (1U << rnic->GetDrpClass()) | (1U << rnic->GetDrpControlClass());
    const std::vector<Ptr<SwitchBuffer>> mmus = MakeSwitchBuffers(config, buffer, fabric, lossless);
    const auto byRate = ParseEcnByRate(config.ecnByRate);
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            sw->GetPort(p)->GetQueue()->SetAttribute("MaxSize", QueueSizeValue(buffer));
            if (config.pfcWatchdog.IsStrictlyPositive())
            {
                sw->GetPort(p)->SetAttribute("PfcWatchdogTime", TimeValue(config.pfcWatchdog));
                sw->GetPort(p)->SetAttribute("PfcWatchdogAction",
                                             EnumValue(config.pfcWatchdogAction == "forward"
                                                           ? EthernetNetDevice::PFC_WATCHDOG_FORWARD
                                                           : EthernetNetDevice::PFC_WATCHDOG_DROP));
            }
            ObjectFactory queues;
            if (config.ecn)
            {
                const EcnThresholds t = GetEcnThresholds(config, byRate, fabric, s, p);
                queues.SetTypeId(EcnMarkingQueue::GetTypeId()); // its name ends in <Packet>
                queues.Set("MinThreshold", QueueSizeValue(t.kmin));
                queues.Set("MaxThreshold", QueueSizeValue(t.kmax));
                queues.Set("MaxProbability", DoubleValue(t.pmax));
                queues.Set("MarkingMode", EnumValue(GetMarkingMode(config)));
            }
            else
            {
                queues.SetTypeId("ns3::DropTailQueue<Packet>");
            }
            queues.Set("MaxSize", QueueSizeValue(buffer));
            sw->GetPort(p)->SetAttribute("PfcQueue", ObjectFactoryValue(queues));
        }
        sw->SetBuffer(mmus[s]);
    }
    // A frame here is late, never lost to congestion: no timer takes it for
    // lost before a full buffer could have drained at the host links' rate.
    const Time drain = NanoSeconds(static_cast<int64_t>(std::ceil(
        8e9 * buffer.GetValue() / static_cast<double>(rnic->GetDataRate().GetBitRate()))));
    for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
    {
        Ptr<DrpTransport> transport = fabric.GetRnic(h)->GetTransport();
        transport->SetAttribute("PauseAwareTimer", BooleanValue(config.losslessTimers));
        if (config.losslessTimers)
        {
            transport->SetAttribute("MinLossTimeout", TimeValue(drain));
        }
        // NICs guard against a link paused for ever as switches do (PFC
        // stall prevention): past the watchdog's time they send regardless,
        // so that a transfer held by a deadlock still ends, by its retries.
        fabric.GetRnic(h)->SetAttribute("PfcWatchdogTime", TimeValue(config.pfcWatchdog));
        fabric.GetRnic(h)->SetAttribute("PfcWatchdogAction",
                                        EnumValue(EthernetNetDevice::PFC_WATCHDOG_FORWARD));
    }
}

/**
 * \param config the experiment
 * \param file its topology file, read (nullptr: a built-in topology)
 * \param rnic host links
 * \param links links between switches and switch queues
 * \return the topology the experiment names
 */
std::unique_ptr<FabricHelper>
BuildFabric(const FabricScenario::Config& config,
            const HpccTopology* file,
            RnicHelper& rnic,
            EthernetHelper& links)
{
    if (file != nullptr)
    {
        auto fabric = std::make_unique<HpccTopologyFabricHelper>(*file, rnic, links);
        fabric->AssignStreams(3000000); // the links' error models
        return fabric;
    }
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

/// The id (HPCC's destination port) of an incast's flows: what HPCC's analysis
/// scripts (fct_analysis.py -t 1) take for incast flows.
constexpr uint16_t INCAST_FLOW_ID = 200;

/**
 * \param flows a flow file
 * \return the one priority group of its flows (3 for no flow), which the
 *         RNICs' DrpClass becomes (std::invalid_argument if they name two)
 */
uint8_t
GetFlowClass(const HpccFlowList& flows)
{
    const auto& all = flows.GetFlows();
    for (const auto& flow : all)
    {
        if (flow.pg != all.front().pg)
        {
            throw std::invalid_argument(
                flows.GetPath() + ":" + std::to_string(flow.line) + ": priority group " +
                std::to_string(flow.pg) + ", where line " + std::to_string(all.front().line) +
                " has " + std::to_string(all.front().pg) +
                ": drp's RNICs send all their data in one PFC class (RnicNetDevice::DrpClass), "
                "so one flow file names one priority group");
        }
    }
    return all.empty() ? 3 : all.front().pg;
}

/**
 * Adds the flows of a flow file.
 * \param flows the file
 * \param fabric the fabric, whose node ids the file names
 * \param workload the workload helper
 * \return flows added
 */
uint32_t
AddFlowFile(const HpccFlowList& flows, const FabricHelper& fabric, FabricWorkloadHelper& workload)
{
    std::map<uint32_t, uint32_t> hostOf;
    for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
    {
        hostOf[fabric.GetHostNodeId(h)] = h;
    }
    auto host = [&](uint32_t node, uint32_t line) {
        auto it = hostOf.find(node);
        if (it == hostOf.end())
        {
            throw std::invalid_argument(
                flows.GetPath() + ":" + std::to_string(line) + ": node " + std::to_string(node) +
                " is not a host of the fabric (its " + std::to_string(hostOf.size()) +
                " hosts have the node ids " + std::to_string(hostOf.begin()->first) + " to " +
                std::to_string(hostOf.rbegin()->first) +
                (hostOf.rbegin()->first - hostOf.begin()->first + 1 == hostOf.size()
                     ? ")"
                     : ", with switches between)"));
        }
        return it->second;
    };
    uint32_t added = 0;
    for (const auto& flow : flows.GetFlows())
    {
        workload.SetFlowId(flow.dport);
        added += workload.AddFlow(host(flow.source, flow.line),
                                  host(flow.destination, flow.line),
                                  flow.bytes,
                                  flow.start);
    }
    return added;
}

/**
 * \param config the experiment (incast)
 * \param hosts the hosts of the fabric
 * \return the incast's senders, the first degree hosts other than the
 *         receiver, then the victims' sources (the hosts after them)
 */
std::vector<uint32_t>
IncastSources(const FabricScenario::Config& config, uint32_t hosts)
{
    const uint32_t degree = config.degree > 0 ? config.degree : hosts - 1;
    std::vector<uint32_t> sources;
    for (uint32_t h = 0; h < hosts && sources.size() < degree + config.victims; ++h)
    {
        if (h != config.receiver)
        {
            sources.push_back(h);
        }
    }
    return sources;
}

/**
 * Adds the incast and its victim flows, source i of them (senders, then
 * victims) starting at i x config.stagger.
 * \param config the experiment (incast)
 * \param hosts the hosts of the fabric
 * \param workload the workload helper
 * \return flows added
 */
uint32_t
AddIncast(const FabricScenario::Config& config, uint32_t hosts, FabricWorkloadHelper& workload)
{
    const uint32_t degree = config.degree > 0 ? config.degree : hosts - 1;
    // The helper's own check, before the staggered path indexes the senders.
    drp::RequireInRange<uint32_t>("FabricWorkloadHelper incast degree",
                                  degree,
                                  1,
                                  std::max<uint32_t>(hosts, 2) - 1);
    if (config.receiver >= hosts || (config.victims > 0 && degree + config.victims > hosts - 1))
    {
        throw std::invalid_argument("receiver = " + std::to_string(config.receiver) +
                                    ", degree = " + std::to_string(degree) +
                                    " and victims = " + std::to_string(config.victims) +
                                    " need a receiver below the " + std::to_string(hosts) +
                                    " hosts and at most hosts - 1 senders and victims together");
    }
    uint32_t added = 0;
    workload.SetFlowId(INCAST_FLOW_ID);
    if (config.stagger.IsZero())
    {
        added = workload.AddIncastOfDegree(config.receiver,
                                           degree,
                                           config.bytes,
                                           Seconds(0),
                                           config.jitter);
    }
    const std::vector<uint32_t> sources = IncastSources(config, hosts);
    for (uint32_t i = 0; i < degree && !config.stagger.IsZero(); ++i)
    {
        added += workload.AddIncast(config.receiver,
                                    {sources[i]},
                                    config.bytes,
                                    config.stagger * int64_t(i),
                                    config.jitter);
    }
    workload.SetFlowId(FabricWorkloadHelper::DEFAULT_FLOW_ID);
    for (uint32_t k = 0; k < config.victims; ++k)
    {
        const uint32_t destination = (config.receiver + 1 + k) % hosts;
        if (destination == sources[degree + k])
        {
            throw std::invalid_argument("victims = " + std::to_string(config.victims) +
                                        ": victim " + std::to_string(k) + " would go from host " +
                                        std::to_string(destination) + " to itself");
        }
        added += workload.AddIncast(destination,
                                    {sources[degree + k]},
                                    config.victimBytes,
                                    config.stagger * int64_t(degree + k),
                                    Seconds(0));
    }
    return added;
}

/**
 * Samples every switch port's transmit side now and again after
 * \p interval, while the simulation has other events and the samples stay
 * within FabricScenario::MAX_QUEUE_SAMPLES (whole ticks: at the tick that
 * would pass it, sampling stops and Result::queueSamplesCut says when).
 * \param fabric the fabric
 * \param ports its switch ports, all switches together (the samples of a tick)
 * \param interval the sampling interval
 * \param result where the samples go (Result::queues)
 */
void
SampleQueues(const FabricHelper* fabric,
             uint64_t ports,
             Time interval,
             FabricScenario::Result* result)
{
    std::vector<FabricScenario::QueueSample>* samples = &result->queues;
    if (samples->size() + ports > FabricScenario::MAX_QUEUE_SAMPLES)
    {
        result->queueSamplesCut = Simulator::Now(); // and no more ticks
        return;
    }
    for (uint32_t s = 0; s < fabric->GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<EthernetNetDevice> port = sw->GetPort(p);
            samples->push_back({Simulator::Now(),
                                s,
                                p,
                                port->GetQueuedFrames(),
                                port->GetQueuedBytes(),
                                port->IsTransmitting(),
                                port->IsAnyClassPaused()});
        }
    }
    if (!Simulator::IsFinished()) // this event has left the queue: others remain
    {
        Simulator::Schedule(interval, &SampleQueues, fabric, ports, interval, result);
    }
}

/**
 * Stops the simulator when the last of the workload's transfers has ended,
 * successfully or not: whatever still has events then (a pause refreshed for
 * ever by a NIC in a pause storm, a responder waiting out a failed
 * transfer's idle time) belongs to no experiment.
 * \param apps the hosts' applications
 * \param transfers the transfers they start, all together
 */
void
StopWhenAllEnded(ApplicationContainer apps, std::size_t transfers)
{
    auto left = std::make_shared<std::size_t>(transfers);
    for (uint32_t a = 0; a < apps.GetN(); ++a)
    {
        apps.Get(a)->TraceConnectWithoutContext(
            "TransferComplete",
            drp::FunctorCallback<void, const DrpTransferRecord&>([left](const DrpTransferRecord&) {
                if (--*left == 0)
                {
                    Simulator::Stop();
                }
            }));
    }
}

/**
 * Adds the traffic matrix the experiment names.
 * \param config the experiment
 * \param fabric the fabric
 * \param workload the workload helper
 * \param flows a flow file, which replaces the workload (nullptr: none)
 * \param [out] expected flows the workload asks for on average
 * \return flows added
 */
uint32_t
AddWorkload(const FabricScenario::Config& config,
            const FabricHelper& fabric,
            FabricWorkloadHelper& workload,
            const HpccFlowList* flows,
            double& expected)
{
    if (flows != nullptr)
    {
        expected = AddFlowFile(*flows, fabric, workload);
        return static_cast<uint32_t>(expected);
    }
    const uint32_t hosts = fabric.GetHosts().GetN();
    if (hosts < 2)
    {
        throw std::invalid_argument("the " + config.GetTopologyName() + " fabric has " +
                                    std::to_string(hosts) +
                                    " host (hosts = " + std::to_string(config.hosts) +
                                    "); the workload " + config.workload + " needs at least 2");
    }
    uint32_t added = 0;
    if (config.workload == "incast")
    {
        added = AddIncast(config, hosts, workload);
    }
    else if (config.workload == "permutation")
    {
        added = workload.AddPermutation(config.bytes, Seconds(0));
    }
    else if (config.workload == "all-to-all")
    {
        added = workload.AddAllToAll(config.bytes, Seconds(0));
    }
    else
    {
        const FlowSizeCdf cdf = FlowSizeCdf::Load(config.cdf);
        expected = FabricWorkloadHelper::GetExpectedPoissonFlows(hosts,
                                                                 cdf,
                                                                 config.load,
                                                                 config.hostRate,
                                                                 config.duration);
        return workload.AddPoisson(cdf, config.load, config.hostRate, Seconds(0), config.duration);
    }
    expected = added;
    return added;
}

/**
 * \param there the devices a frame crosses one way (FabricHelper::GetPath())
 * \param back and the other way
 * \return what times a transfer on the path: each device's rate and its
 *         cable's delay, both ways
 */
std::vector<int64_t>
PathKey(const std::vector<Ptr<EthernetNetDevice>>& there,
        const std::vector<Ptr<EthernetNetDevice>>& back)
{
    std::vector<int64_t> key;
    for (const auto* path : {&there, &back})
    {
        key.push_back(static_cast<int64_t>(path->size()));
        for (const auto& device : *path)
        {
            key.push_back(static_cast<int64_t>(device->GetDataRate().GetBitRate()));
            key.push_back(
                DynamicCast<EthernetChannel>(device->GetChannel())->GetDelay().GetTimeStep());
        }
    }
    return key;
}

/**
 * Records every pause and resume the switch ports and RNICs receive
 * (Result::pfcEvents).
 * \param fabric the fabric (lossless)
 * \param result where the events go
 */
void
TracePfc(FabricHelper& fabric, FabricScenario::Result& result)
{
    auto* events = &result.pfcEvents;
    auto trace = [events](Ptr<EthernetNetDevice> device,
                          uint32_t node,
                          bool isSwitch,
                          uint32_t port) {
        device->TraceConnectWithoutContext(
            "MacRxPause",
            drp::FunctorCallback<void, uint8_t, uint16_t>(
                [events, node, isSwitch, port](uint8_t cls, uint16_t quanta) {
                    events->push_back({Simulator::Now(), node, isSwitch, port, cls, quanta > 0});
                }));
    };
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            trace(sw->GetPort(p), fabric.GetSwitchNodeId(s), true, p + 1);
        }
    }
    for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
    {
        trace(fabric.GetRnic(h), fabric.GetHostNodeId(h), false, 1);
    }
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

/**
 * Adds up a switch port's priority flow control and buffer counters.
 * \param sw the switch
 * \param index the port
 * \param [out] port its counters
 */
void
CountPfc(Ptr<EcmpSwitchNetDevice> sw, uint32_t index, FabricScenario::Port& port)
{
    Ptr<EthernetNetDevice> device = sw->GetPort(index);
    if (!device->IsPfcEnabled())
    {
        return;
    }
    Ptr<SwitchBuffer> buffer = sw->GetBuffer();
    port.pfcStorms = device->GetPfcStorms();
    for (uint8_t cls = 0; cls < EthernetNetDevice::PFC_CLASSES; ++cls)
    {
        port.pausesSent += device->GetPausesSent(cls);
        port.pausesReceived += device->GetPausesReceived(cls);
        port.timePaused += device->GetTimePaused(cls);
        if (buffer)
        {
            const SwitchBuffer::QueueStats q = buffer->GetQueueStats(index, cls);
            port.headroomFrames += q.headroomFrames;
            port.peakIngressBytes = std::max(port.peakIngressBytes, q.peakBytes);
        }
    }
}

/**
 * \param device a switch port
 * \return the frames its queues marked CE: with PFC, those of every class
 *         (a lossless fabric's DRP frames wait in class 3's queue; a class
 *         never used gets its empty queue here, after the run)
 */
uint64_t
CountMarks(Ptr<EthernetNetDevice> device)
{
    uint64_t marks = 0;
    for (const auto& queue : MarkingQueues(device, device->IsPfcEnabled()))
    {
        marks += queue->GetMarks();
    }
    return marks;
}

} // namespace

void
FabricScenario::Config::Validate() const
{
    drp::RequireOneOf("topology", topology, {"star", "tree", "leaf-spine", "fat-tree"});
    drp::RequireOneOf("workload", workload, {"incast", "permutation", "all-to-all", "poisson"});
    drp::RequireOneOf("method", method, {"traditional", "dynamic", "roce"});
    drp::RequireOneOf("timeoutMode", timeoutMode, {"fixed", "adaptive"});
    NicProfile::Resolve(nic, GetHostRate()); // throws for an unknown profile, naming the valid ones
    drp::RequireMtuAndPayload(mtu, payload);
    if (cc == "hpcc" && payload + DrpHeader::SIZE + DrpIntHeader::SIZE > mtu)
    {
        throw std::invalid_argument(
            "payload = " + std::to_string(payload) +
            " with cc = hpcc: its data frames carry 42 bytes of "
            "telemetry, so the payload is at most mtu - 74 = " +
            std::to_string(int64_t(mtu) - DrpHeader::SIZE - DrpIntHeader::SIZE));
    }
    drp::RequireInRange("frp", frp, 0.0, 1.0);
    drp::RequireInRange<uint32_t>("bytes", bytes, 1, 1u << 31);
    drp::RequireInRange<Time>("duration", duration, NanoSeconds(1), Seconds(1000));
    drp::RequireInRange<uint32_t>("seed", seed, 1, UINT32_MAX);
    drp::RequireInRange<Time>("jitter", jitter, Seconds(0), Seconds(1000));
    if (jitter.IsStrictlyPositive() && workload != "incast")
    {
        throw std::invalid_argument("jitter = " + drp::Show(jitter) +
                                    " is for the incast workload only (workload = " + workload +
                                    "): its senders start at offsets drawn from [0, jitter]");
    }
    drp::RequireCapturePrefix("pcap", pcap);
    drp::RequireCapturePrefix("ascii", ascii);
    ParseQueueSize(queue);
    drp::RequireOneOf("ecnMarking", ecnMarking, {"red", "step"});
    const QueueSize kmin = ParseQueueSize(ecnMin, "ecnMin");
    const QueueSize kmax = ParseQueueSize(ecnMax, "ecnMax");
    if (ecnMarking == "red" &&
        (kmin.GetUnit() != kmax.GetUnit() || kmin.GetValue() >= kmax.GetValue()))
    {
        throw std::invalid_argument("ecnMin = " + ecnMin + " must be below ecnMax = " + ecnMax +
                                    ", in the same unit (p or B)");
    }
    drp::RequireInRange("ecnPmax", ecnPmax, 0.0, 1.0);
    ParseEcnByRate(ecnByRate);
    if (!ecnByRate.empty() && !ecn)
    {
        throw std::invalid_argument("ecnByRate = " + ecnByRate +
                                    " gives marking thresholds: it needs ecn = true");
    }
    if (ParseQueueSize(buffer, "buffer").GetUnit() != QueueSizeUnit::BYTES)
    {
        throw std::invalid_argument("buffer = " + buffer +
                                    " must be in bytes (B: \"12MiB\", \"512KB\"), not frames");
    }
    drp::RequireOneOf("threshold", threshold, {"dynamic", "static"});
    drp::RequireInRange<Time>("pfcWatchdog", pfcWatchdog, Time(0), Seconds(100));
    drp::RequireOneOf("pfcWatchdogAction", pfcWatchdogAction, {"drop", "forward"});
    if (!pfcStorm.empty() && lossless && pfcWatchdog.IsZero())
    {
        throw std::invalid_argument("pfcStorm = " + pfcStorm +
                                    " with pfcWatchdog = 0s would never end: the frames a storm "
                                    "holds are never sent, so their transfers never fail; give "
                                    "a pfcWatchdog");
    }
    drp::RequireInRange<Time>("stagger", stagger, Seconds(0), Seconds(1000));
    drp::RequireInRange<uint32_t>("victimBytes", victimBytes, 1, 1u << 31);
    drp::RequireInRange<Time>("queueInterval", queueInterval, Seconds(0), Seconds(1));
    drp::RequireInRange<Time>("flowRateInterval", flowRateInterval, Seconds(0), Seconds(1));
    if (window > 0)
    {
        drp::RequireInRange<uint32_t>("window", window, 1, 1024);
    }
    drp::RequireInRange<uint32_t>("ackEvery", ackEvery, 1, DrpTransport::MAX_ACK_EVERY);
    drp::RequireInRange<Time>("ackDelay", ackDelay, Seconds(0), Seconds(1));
    if (workload != "incast" && (stagger.IsStrictlyPositive() || victims > 0 || receiver > 0))
    {
        throw std::invalid_argument(
            "receiver = " + std::to_string(receiver) + ", stagger = " + drp::Show(stagger) +
            " and victims = " + std::to_string(victims) +
            " are for the incast workload only (workload = " + workload + ")");
    }
    RefuseInapplicable();
    if (!pfcFile.empty() && !lossless)
    {
        throw std::invalid_argument("pfcFile = " + pfcFile +
                                    " lists pause frames, which only lossless runs send: it "
                                    "needs lossless = true");
    }
    if (!qlenFile.empty() && !queueInterval.IsStrictlyPositive())
    {
        throw std::invalid_argument("qlenFile = " + qlenFile +
                                    " writes the queue samples: it needs queueInterval above 0");
    }
    if (!flowFile.empty())
    {
        HpccFlowList::Read(flowFile); // refused here with its line, before anything runs
    }
    const double fabricHosts = GetHostCount();
    ParseStormHosts(pfcStorm, static_cast<uint32_t>(std::min(fabricHosts, 4294967295.0)));
    if (workload == "incast" && flowFile.empty() && fabricHosts >= 2 && fabricHosts <= 65535)
    {
        const auto hostCount = static_cast<uint32_t>(fabricHosts);
        const uint32_t senders = degree > 0 ? degree : hostCount - 1;
        if (receiver >= hostCount ||
            (victims > 0 && double(senders) + victims > double(hostCount) - 1))
        {
            throw std::invalid_argument(
                "receiver = " + std::to_string(receiver) + ", degree = " + std::to_string(degree) +
                ", victims = " + std::to_string(victims) + ": the " + topology + " has " +
                std::to_string(hostCount) + " hosts; the receiver must be one of them (0 to " +
                std::to_string(hostCount - 1) +
                ") and the senders and victims together at most hosts - 1");
        }
    }
    drp::RequireOneOf("cc", cc, GetCongestionControls());
    RefuseScenarioAttributes(defaults);
    drp::CheckAttributeDefaults(defaults);
    if (method == "roce" && cc != "none" && cc != "dcqcn" && cc != "timely")
    {
        throw std::invalid_argument(
            "cc = " + cc +
            " is not built for method = roce (use none, dcqcn or timely: RoCE frames carry "
            "no in-band telemetry for hpcc, and dctcp's window echo rides DRP's ACKs)");
    }
    if (ReactsToEcn(cc) && !ecn)
    {
        throw std::invalid_argument("cc = " + cc +
                                    " reacts to ECN marks: it needs ecn = true (switch queues "
                                    "that mark CE and ECN-capable data)");
    }
    // The counts of each topology are checked, with their valid ranges, by
    // the helper that takes them; the number of flows is bounded here,
    // before anything is built.
    if (workload == "poisson" && flowFile.empty() && queueInterval.IsStrictlyPositive() &&
        duration.GetSeconds() / queueInterval.GetSeconds() > double(MAX_QUEUE_SAMPLES))
    {
        std::ostringstream os;
        os << "queueInterval = " << drp::Show(queueInterval) << " would sample every switch port "
           << duration.GetSeconds() / queueInterval.GetSeconds()
           << " times during the arrivals alone (duration = " << drp::Show(duration)
           << "), more than the " << MAX_QUEUE_SAMPLES
           << " samples a run may hold: sample at least every "
           << drp::Show(duration / double(MAX_QUEUE_SAMPLES)) << ", or 0 for none";
        throw std::invalid_argument(os.str());
    }
    if (!flowFile.empty())
    {
        return;
    }
    if (workload == "poisson")
    {
        if (fabricHosts <= 65535)
        {
            FabricWorkloadHelper::GetExpectedPoissonFlows(fabricHosts,
                                                          FlowSizeCdf::Load(cdf),
                                                          load,
                                                          hostRate,
                                                          duration);
        }
    }
    else if (workload == "all-to-all" &&
             fabricHosts * (fabricHosts - 1) > FabricWorkloadHelper::MAX_FLOWS)
    {
        std::ostringstream os;
        os << "all-to-all among the " << fabricHosts << " hosts of this " << topology
           << " would give " << fabricHosts * (fabricHosts - 1) << " flows, more than the "
           << FabricWorkloadHelper::MAX_FLOWS << " one workload may hold";
        throw std::invalid_argument(os.str());
    }
}

std::string
FabricScenario::Result::GetNoFlowsNote() const
{
    if (flows != 0)
    {
        return "";
    }
    std::ostringstream os;
    if (config.workload == "poisson")
    {
        os << "no arrival within duration = " << config.duration.As(Time::MS) << ": "
           << std::setprecision(3) << expectedFlows << " flows expected in all at load "
           << config.load << "; give a longer duration or a higher load";
    }
    else
    {
        os << "the workload has no flow";
    }
    return os.str();
}

std::string
FabricScenario::Result::GetQueueNote() const
{
    if (!queueSamplesCut.IsStrictlyPositive())
    {
        return "";
    }
    std::ostringstream os;
    os << "note: the queue samples stop at " << queueSamplesCut.As(Time::MS) << ", of "
       << simulatorEnd.As(Time::MS) << ": queueInterval = " << drp::Show(config.queueInterval)
       << " reached the " << MAX_QUEUE_SAMPLES
       << " samples a run may hold; a longer interval samples the whole run";
    return os.str();
}

void
FabricScenario::Config::RefuseInapplicable() const
{
    const Config d;
    // What a file replaces.
    auto replaced = [](const std::string& file,
                       const std::string& what,
                       const std::vector<std::pair<const char*, bool>>& options) {
        std::string given;
        for (const auto& [name, changed] : options)
        {
            given += changed ? std::string(given.empty() ? "" : ", ") + name : "";
        }
        if (!given.empty())
        {
            throw std::invalid_argument(file + " replaces " + what + ": leave out " + given);
        }
    };
    if (!topologyFile.empty())
    {
        replaced("topologyFile = " + topologyFile,
                 "the built-in topologies",
                 {{"topology", topology != d.topology},
                  {"hosts", hosts != d.hosts},
                  {"leaves", leaves != d.leaves},
                  {"spines", spines != d.spines},
                  {"levels", levels != d.levels},
                  {"k", k != d.k},
                  {"hostRate", hostRate != d.hostRate},
                  {"fabricRate", fabricRate != d.fabricRate}});
    }
    if (!flowFile.empty())
    {
        replaced("flowFile = " + flowFile,
                 "the workload",
                 {{"workload", workload != d.workload},
                  {"bytes", bytes != d.bytes},
                  {"degree", degree != d.degree},
                  {"load", load != d.load},
                  {"cdf", cdf != d.cdf},
                  {"duration", duration != d.duration},
                  {"jitter", jitter != d.jitter},
                  {"receiver", receiver != d.receiver},
                  {"stagger", stagger != d.stagger},
                  {"victims", victims != d.victims},
                  {"victimBytes", victimBytes != d.victimBytes}});
    }

    // What the rest of the configuration leaves without effect: one rule, an
    // option given away from its default where it does nothing is refused
    // (a sweep over it would repeat one run under several names).
    struct Rule
    {
        const char* name; //!< the option
        bool given;       //!< away from its default
        bool applies;     //!< the configuration uses it
        const char* need; //!< what it is for
        std::string now;  //!< what the configuration is instead
    };

    const bool builtIn = topologyFile.empty();
    const bool builtInWorkload = flowFile.empty();
    const std::vector<Rule> rules{
        {"leaves",
         leaves != d.leaves,
         topology == "leaf-spine",
         "topology = leaf-spine",
         "topology = " + topology},
        {"spines",
         spines != d.spines,
         topology == "leaf-spine",
         "topology = leaf-spine",
         "topology = " + topology},
        {"levels",
         levels != d.levels,
         topology == "tree",
         "topology = tree",
         "topology = " + topology},
        {"k", k != d.k, topology == "fat-tree", "topology = fat-tree", "topology = " + topology},
        {"hosts",
         hosts != d.hosts,
         topology != "fat-tree",
         "star, tree and leaf-spine (a fat-tree's hosts follow from k)",
         "topology = fat-tree"},
        {"fabricRate",
         fabricRate != d.fabricRate,
         topology != "star" || !builtIn,
         "links between switches, which a star has none of",
         "topology = star"},
        {"degree",
         degree != d.degree,
         workload == "incast" || !builtInWorkload,
         "workload = incast",
         "workload = " + workload},
        {"bytes",
         bytes != d.bytes,
         workload != "poisson" || !builtInWorkload,
         "incast, permutation and all-to-all (Poisson sizes come from cdf)",
         "workload = poisson"},
        {"load",
         load != d.load,
         workload == "poisson" || !builtInWorkload,
         "workload = poisson",
         "workload = " + workload},
        {"cdf",
         cdf != d.cdf,
         workload == "poisson" || !builtInWorkload,
         "workload = poisson",
         "workload = " + workload},
        {"duration",
         duration != d.duration,
         workload == "poisson" || !builtInWorkload,
         "workload = poisson",
         "workload = " + workload},
        {"victimBytes",
         victimBytes != d.victimBytes,
         victims > 0,
         "victims above 0",
         "victims = 0"},
        {"ecnMin", ecnMin != d.ecnMin, ecn, "ecn = true", "ecn = false"},
        {"ecnMax", ecnMax != d.ecnMax, ecn, "ecn = true", "ecn = false"},
        {"ecnPmax", ecnPmax != d.ecnPmax, ecn, "ecn = true", "ecn = false"},
        {"ecnMarking", ecnMarking != d.ecnMarking, ecn, "ecn = true", "ecn = false"},
        {"ecnMax",
         ecnMax != d.ecnMax,
         ecnMarking == "red",
         "the red marking rule",
         "ecnMarking = step: every frame above ecnMin is marked"},
        {"ecnPmax",
         ecnPmax != d.ecnPmax,
         ecnMarking == "red",
         "the red marking rule",
         "ecnMarking = step: every frame above ecnMin is marked"},
        {"ecnByRate",
         !ecnByRate.empty(),
         ecnMarking == "red",
         "the red marking rule",
         "ecnMarking = step"},
        {"buffer", buffer != d.buffer, lossless, "lossless = true", "lossless = false"},
        {"threshold", threshold != d.threshold, lossless, "lossless = true", "lossless = false"},
        {"pfcWatchdog",
         pfcWatchdog != d.pfcWatchdog,
         lossless,
         "lossless = true",
         "lossless = false"},
        {"pfcWatchdogAction",
         pfcWatchdogAction != d.pfcWatchdogAction,
         lossless && pfcWatchdog.IsStrictlyPositive(),
         "lossless = true with a pfcWatchdog",
         lossless ? "pfcWatchdog = 0s" : "lossless = false"},
        {"pfcStorm", pfcStorm != d.pfcStorm, lossless, "lossless = true", "lossless = false"},
        {"losslessTimers",
         losslessTimers != d.losslessTimers,
         lossless,
         "lossless = true",
         "lossless = false"},
        {"queue",
         queue != d.queue,
         !lossless,
         "lossy fabrics (lossless: the switch's buffer bounds every queue)",
         "lossless = true"},
        {"ackDelay", ackDelay != d.ackDelay, ackEvery > 1, "ackEvery above 1", "ackEvery = 1"},
    };
    for (const Rule& rule : rules)
    {
        if (rule.given && !rule.applies)
        {
            throw std::invalid_argument(std::string(rule.name) + " has no effect here: it is for " +
                                        rule.need + " (" + rule.now +
                                        "); leave it out, or give what it is for");
        }
    }
}

std::string
FabricScenario::Config::GetTopologyName() const
{
    return topologyFile.empty() ? topology : "topology file " + topologyFile;
}

std::string
FabricScenario::Config::GetWorkloadName() const
{
    return flowFile.empty() ? workload : "flow file " + flowFile;
}

namespace
{
/**
 * \param file a topology file, read
 * \return the one rate of its host links (std::invalid_argument naming two lines if
 *         they differ)
 */
DataRate
GetFileHostRate(const HpccTopology& file)
{
    const HpccTopology::Link& first = file.GetHostLink(file.GetHostIds().front());
    for (uint32_t host : file.GetHostIds())
    {
        const HpccTopology::Link& link = file.GetHostLink(host);
        if (link.rate != first.rate)
        {
            throw std::invalid_argument(
                file.GetPath() + ":" + std::to_string(link.line) + ": a host link at " +
                drp::ShowDataRate(link.rate) + ", where line " + std::to_string(first.line) +
                " has one at " + drp::ShowDataRate(first.rate) +
                ": the RNICs of a fabric run share one NIC profile, so the hosts of a topology "
                "file share one link rate");
        }
    }
    return first.rate;
}
} // namespace

DataRate
FabricScenario::Config::GetHostRate() const
{
    return topologyFile.empty() ? hostRate : GetFileHostRate(HpccTopology::Read(topologyFile));
}

double
FabricScenario::Config::GetHostCount() const
{
    if (!topologyFile.empty())
    {
        return HpccTopology::Read(topologyFile).GetHostIds().size();
    }
    if (topology == "star")
    {
        return hosts;
    }
    if (topology == "tree")
    {
        return std::pow(double(hosts), double(levels));
    }
    if (topology == "leaf-spine")
    {
        return double(leaves) * hosts;
    }
    return double(k) * k * k / 4;
}

std::string
FabricScenario::Config::GetNic() const
{
    return NicProfile::Resolve(nic, GetHostRate());
}

std::string
FabricScenario::Config::GetHostLimitNote() const
{
    const DataRate hostRate = GetHostRate();
    const NicProfile& profile = NicProfile::Get(NicProfile::Resolve(nic, hostRate));
    const DataRate ceiling = NicProfile::GetPortCeiling(hostRate, payload);
    const NicProfile::Limit rnic = profile.GetLimit(hostRate, payload);
    std::ostringstream os;
    if (rnic.cause != "port")
    {
        os << "note: the RNICs (nic = " << profile.GetName() << ") move at most "
           << rnic.rate.GetBitRate() / 1e9 << " Gb/s of payload, limited by their " << rnic.cause
           << " (" << rnic.why << "), less than the " << ceiling.GetBitRate() / 1e9
           << " Gb/s that a " << hostRate.GetBitRate() / 1e9
           << " Gb/s host link carries: the hosts, not the network, limit the flows, and the "
              "ideal FCT includes that limit (nic = "
           << NicProfile::AUTO << " chooses the card of hostRate)";
    }
    else if (hostRate > profile.GetLineRate())
    {
        os << "note: hostRate " << hostRate.GetBitRate() / 1e9
           << " Gb/s is above the port rate of nic = " << profile.GetName() << " ("
           << profile.GetLineRate().GetBitRate() / 1e9 << " Gb/s)";
    }
    return os.str();
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
    cmd.AddValue("method",
                 "traditional, dynamic or roce (RoCEv2's reliable connection over the verbs)",
                 method);
    strict.AddValue(cmd, "frp", "probability that a registration fails (0 to 1)", frp);
    strict.AddValue(cmd, "hostRate", "rate of the host links", hostRate);
    strict.AddValue(cmd, "fabricRate", "rate of the links between switches", fabricRate);
    cmd.AddValue("queue", "every switch port's egress queue (ns-3 QueueSize: 100p, 64KiB)", queue);
    cmd.AddValue("ecn",
                 "switch queues mark CE by the RED rule (EcnMarkingQueue) and RNICs send "
                 "data ECN-capable, answering marks with CNPs",
                 ecn);
    cmd.AddValue("ecnMin", "ecn: Kmin, marking starts above it (QueueSize: 4KB, 5p)", ecnMin);
    cmd.AddValue("ecnMax", "ecn: Kmax, every frame marked from it (QueueSize)", ecnMax);
    strict.AddValue(cmd, "ecnPmax", "ecn: marking probability just below Kmax (0 to 1)", ecnPmax);
    cmd.AddValue("ecnMarking",
                 "ecn: the marking rule, red (Kmin, Kmax, Pmax: DCQCN's) or step (every frame "
                 "above ecnMin: DCTCP's K)",
                 ecnMarking);
    strict.AddValue(
        cmd,
        "ecnByRate",
        "ecn: thresholds per port rate, RATE:KMIN:KMAX:PMAX,... (25Gbps:100KB:400KB:0.2), "
        "in place of ecnMin, ecnMax and ecnPmax, as HPCC's KMIN_MAP, KMAX_MAP, PMAX_MAP",
        ecnByRate);
    cmd.AddValue("cc",
                 "the RNICs' congestion control: none, dcqcn (rate, on CNPs), dctcp (window, "
                 "every CE mark echoed), timely (rate, on RTT gradients) or hpcc (window and "
                 "rate, on in-band telemetry); dcqcn and dctcp need ecn",
                 cc);
    cmd.AddValue("rates", "record every change of a transfer's pacing rate", rates);
    strict.AddValue(cmd, "seed", "ns-3 RNG seed", seed);
    strict.AddValue(cmd, "run", "ns-3 RNG run number", run);
    strict.AddValue(cmd,
                    "jitter",
                    "incast: each sender starts at an offset drawn uniformly from [0, jitter] "
                    "(0 to 1000s)",
                    jitter);
    strict.AddValue(cmd,
                    "ecmpSeed",
                    "every switch's ECMP flow-hash seed (0 to 4294967295)",
                    ecmpSeed);
    cmd.AddValue("ecmpPerRun",
                 "switches' ECMP seed = ecmpSeed + run, so that paths differ from run to run",
                 ecmpPerRun);
    cmd.AddValue("timeoutMode",
                 "the RNICs' retransmission timers: fixed (RetransmissionTimeout, the "
                 "published protocol) or adaptive (RFC 6298, estimated per peer)",
                 timeoutMode);
    cmd.AddValue("pcap",
                 "write PREFIX-NODE-DEVICE.pcap for every RNIC and switch port (empty: none)",
                 pcap);
    cmd.AddValue("ascii",
                 "write PREFIX-NODE-DEVICE.tr (ns-3 ascii traces) for every RNIC and switch "
                 "port (empty: none)",
                 ascii);
    cmd.AddValue("lossless",
                 "lossless Ethernet: a shared buffer (SwitchBuffer) in every switch, priority "
                 "flow control on every port, the RNICs' DRP class lossless",
                 lossless);
    cmd.AddValue("buffer", "lossless: each switch's buffer (QueueSize in B: 12MiB, 1MB)", buffer);
    cmd.AddValue("threshold",
                 "lossless: the XOFF threshold, dynamic (1/8 of the free shared buffer) or "
                 "static (64 KiB per ingress queue)",
                 threshold);
    strict.AddValue(cmd,
                    "pfcWatchdog",
                    "lossless: every switch port's PFC watchdog: a class paused this long "
                    "with frames waiting is in a pause storm and stops honouring pauses "
                    "until none has come for twice as long (0: no watchdog; up to 100s)",
                    pfcWatchdog);
    cmd.AddValue("pfcWatchdogAction",
                 "lossless: what the PFC watchdog does in a storm, drop (the class's "
                 "frames) or forward (them, ignoring the pauses)",
                 pfcWatchdogAction);
    cmd.AddValue("losslessTimers",
                 "lossless: RNIC timers that count no time paused and wait at least the "
                 "time one switch buffer takes to drain at the host rate (0: the timers of "
                 "timeoutMode, the published protocol's)",
                 losslessTimers);
    strict.AddValue(cmd,
                    "pfcStorm",
                    "lossless: hosts (3 or 3,7) whose RNICs pause their DRP class from the "
                    "start and never stop, as a NIC whose receive path hangs (empty: none)",
                    pfcStorm);
    strict.AddValue(cmd,
                    "receiver",
                    "incast: the host written to (senders: the first degree other hosts)",
                    receiver);
    strict.AddValue(cmd,
                    "stagger",
                    "incast: source i (senders, then victims) starts i x stagger after the "
                    "first (0 to 1000s)",
                    stagger);
    strict.AddValue(cmd,
                    "victims",
                    "incast: flows beside it, victim k from the (degree + k)-th host other than "
                    "the receiver to host (receiver + 1 + k) mod hosts",
                    victims);
    strict.AddValue(cmd, "victimBytes", "victims: bytes per victim flow", victimBytes);
    strict.AddValue(cmd,
                    "window",
                    "the transports' Window: data frames in flight per transfer (0: the "
                    "default, 8; at most 1024)",
                    window);
    strict.AddValue(cmd,
                    "ackEvery",
                    "the transports' AckEvery: frames acknowledged at a time (1: each, the "
                    "published protocol; up to 65535)",
                    ackEvery);
    strict.AddValue(cmd,
                    "ackDelay",
                    "with ackEvery above 1, the longest an owed acknowledgement waits (0: the "
                    "default, 50us; up to 1s)",
                    ackDelay);
    strict.AddValue(cmd,
                    "queueInterval",
                    "sample every switch port's backlog at this interval (0: none; up to 1s)",
                    queueInterval);
    strict.AddValue(cmd,
                    "flowRateInterval",
                    "count what every transfer sends per interval of this length, its sending "
                    "rate over time (0: none; up to 1s)",
                    flowRateInterval);
    cmd.AddValue("nic",
                 "the RNICs' NIC profile: " + NicProfile::AUTO + " (the card of hostRate: " +
                     NicProfile::PAPER + " up to 1 Gb/s, then the slowest server RNIC that " +
                     "reaches it) or " + NicProfile::GetNamesText() +
                     " (paper-1g: the paper's Gigabit card, whose PCIe moves at most 7.7 Gb/s; "
                     "the others are server RNICs of that rate and PCIe); hostRate sets the "
                     "port's rate",
                 nic);
    strict.AddValue(cmd, "payload", "payload bytes per data frame (1 to mtu - 32)", payload);
    strict.AddValue(cmd,
                    "mtu",
                    "every port's MTU, RNICs and switches (46 to 9216; 9000: jumbo frames)",
                    mtu);
    strict.AddValue(cmd,
                    "topology-file",
                    "a topology file of HPCC's simulator (topology.txt), instead of topology, "
                    "its counts, hostRate and fabricRate",
                    topologyFile);
    strict.AddValue(cmd,
                    "flow-file",
                    "a flow file of HPCC's simulator (flow.txt), instead of the workload",
                    flowFile);
    strict.AddValue(cmd,
                    "fct-file",
                    "write the successful transfers here as HPCC's fct.txt",
                    fctFile);
    strict.AddValue(cmd,
                    "pfc-file",
                    "write every pause and resume a port received here as HPCC's pfc.txt "
                    "(lossless)",
                    pfcFile);
    strict.AddValue(cmd,
                    "qlen-file",
                    "write the queue samples (queueInterval) here as HPCC's queue-length "
                    "histograms",
                    qlenFile);
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
    return SumOf(ports, [](const Port& p) { return p.stats.egressDrops; });
}

uint64_t
FabricScenario::Result::GetEcnMarks() const
{
    return SumOf(ports, [](const Port& p) { return p.ecnMarks; });
}

uint64_t
FabricScenario::Result::GetCnps() const
{
    return SumOf(transfers, [](const Transfer& t) { return uint64_t(t.record.cnps); });
}

uint64_t
FabricScenario::Result::GetPausesSent() const
{
    return SumOf(ports, [](const Port& p) { return p.pausesSent; });
}

uint64_t
FabricScenario::Result::GetPausesReceived() const
{
    return SumOf(ports, [](const Port& p) { return p.pausesReceived; });
}

Time
FabricScenario::Result::GetTimePaused() const
{
    return SumOf(ports, [](const Port& p) { return p.timePaused; });
}

uint64_t
FabricScenario::Result::GetPfcStorms() const
{
    return SumOf(ports, [](const Port& p) { return p.pfcStorms; });
}

uint64_t
FabricScenario::Result::GetDropsIn(const std::string& device) const
{
    uint64_t frames = 0;
    for (const auto& d : drops)
    {
        frames += device.empty() || d.device == device ? d.frames : 0;
    }
    return frames;
}

std::vector<FabricScenario::DropCount>
FabricScenario::GetDropKinds()
{
    std::vector<DropCount> kinds{{"switch", "egress-queue-full"},
                                 {"switch", "hairpin"},
                                 {"link", "receive-error"},
                                 {"link", "fcs-error"}};
    for (uint32_t r = 0; r < DrpTransport::DROP_REASONS; ++r)
    {
        kinds.push_back(
            {"rnic", DrpTransport::GetDropReasonName(static_cast<DrpTransport::DropReason>(r))});
    }
    for (auto reason : {RnicNetDevice::TX_QUEUE_FULL, RnicNetDevice::RX_QUEUE_FULL})
    {
        kinds.push_back({"host", RnicNetDevice::GetHostDropReasonName(reason)});
    }
    for (auto reason : {SwitchBuffer::SHARED_FULL, SwitchBuffer::HEADROOM_OVERFLOW})
    {
        kinds.push_back({"switch", SwitchBuffer::GetPlacementName(reason)});
    }
    kinds.push_back({"switch", "link-local"});
    kinds.push_back({"switch", "pfc-watchdog"});
    kinds.push_back({"link", "malformed-pause"});
    return kinds;
}

std::vector<FabricScenario::DropCount>
FabricScenario::CountDrops(const FabricHelper& fabric)
{
    // Positions in GetDropKinds()'s order: switch, link, then one per
    // transport reason, the host's two, the buffer's two, then the kinds
    // added since (each appended, so that earlier positions keep theirs).
    constexpr std::size_t EGRESS = 0;
    constexpr std::size_t HAIRPIN = 1;
    constexpr std::size_t RECEIVE_ERROR = 2;
    constexpr std::size_t FCS_ERROR = 3;
    constexpr std::size_t RNIC = 4;
    constexpr std::size_t HOST = RNIC + std::size_t(DrpTransport::DROP_REASONS);
    constexpr std::size_t BUFFER = HOST + 2;
    constexpr std::size_t LINK_LOCAL = BUFFER + 2;
    constexpr std::size_t WATCHDOG = LINK_LOCAL + 1;
    constexpr std::size_t MALFORMED_PAUSE = WATCHDOG + 1;
    std::vector<DropCount> drops = GetDropKinds();
    auto addLink = [&drops](Ptr<EthernetNetDevice> port) {
        drops[RECEIVE_ERROR].frames += port->GetReceiveErrorDrops();
        drops[FCS_ERROR].frames += port->GetFcsErrorDrops();
        drops[MALFORMED_PAUSE].frames += port->GetMalformedPauseDrops();
    };
    for (uint32_t s = 0; s < fabric.GetSwitches().GetN(); ++s)
    {
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(s);
        drops[EGRESS].frames += sw->GetEgressDrops();
        drops[HAIRPIN].frames += sw->GetHairpinDrops();
        drops[LINK_LOCAL].frames += sw->GetLinkLocalFrames();
        if (Ptr<SwitchBuffer> buffer = sw->GetBuffer())
        {
            drops[BUFFER].frames += buffer->GetSharedDrops();
            drops[BUFFER + 1].frames += buffer->GetHeadroomDrops();
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            addLink(sw->GetPort(p));
            drops[WATCHDOG].frames += sw->GetPort(p)->GetPfcWatchdogDrops();
        }
    }
    for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
    {
        Ptr<RnicNetDevice> rnic = fabric.GetRnic(h);
        addLink(rnic);
        for (uint32_t r = 0; r < DrpTransport::DROP_REASONS; ++r)
        {
            drops[RNIC + r].frames +=
                rnic->GetTransport()->GetDropCount(static_cast<DrpTransport::DropReason>(r));
        }
        drops[HOST].frames += rnic->GetHostDropCount(RnicNetDevice::TX_QUEUE_FULL);
        drops[HOST + 1].frames += rnic->GetHostDropCount(RnicNetDevice::RX_QUEUE_FULL);
    }
    return drops;
}

void
FabricScenario::WriteDropsCsv(std::ostream& os, const Result& result)
{
    os << "device,reason,frames\n";
    for (const auto& d : result.drops)
    {
        os << d.device << "," << d.reason << "," << d.frames << "\n";
    }
}

uint32_t
FabricScenario::Result::Count(DrpTransferRecord::Status status) const
{
    return std::count_if(transfers.begin(), transfers.end(), [status](const Transfer& t) {
        return t.record.status == status;
    });
}

const std::vector<std::string>&
FabricScenario::GetCongestionControls()
{
    static const std::vector<std::string> names{"none", "dcqcn", "dctcp", "timely", "hpcc"};
    return names;
}

bool
FabricScenario::ReactsToEcn(const std::string& cc)
{
    return cc == "dcqcn" || cc == "dctcp"; // TIMELY reacts to delay alone
}

void
FabricScenario::RefuseScenarioAttributes(const std::map<std::string, std::string>& defaults,
                                         bool options)
{
    // The attribute (as its declaring class names it) and the scenario
    // parameters that set it, or, after '!', why no parameter does.
    static const std::map<std::string, std::vector<std::string>> set{
        {"ns3::EthernetNetDevice::DataRate", {"hostRate", "fabricRate"}},
        {"ns3::EthernetNetDevice::Mtu", {"mtu"}},
        {"ns3::EthernetNetDevice::PfcEnabled", {"lossless"}},
        {"ns3::EthernetNetDevice::PfcWatchdogTime", {"pfcWatchdog"}},
        {"ns3::EthernetNetDevice::PfcWatchdogAction", {"pfcWatchdogAction"}},
        {"ns3::EcmpSwitchNetDevice::Mtu", {"mtu"}},
        {"ns3::EcmpSwitchNetDevice::EcmpSeed", {"ecmpSeed", "ecmpPerRun"}},
        {"ns3::DropTailQueue<Packet>::MaxSize", {"queue", "buffer"}},
        {"ns3::EcnMarkingQueue<Packet>::MinThreshold", {"ecnMin"}},
        {"ns3::EcnMarkingQueue<Packet>::MaxThreshold", {"ecnMax"}},
        {"ns3::EcnMarkingQueue<Packet>::MaxProbability", {"ecnPmax"}},
        {"ns3::EcnMarkingQueue<Packet>::MarkingMode", {"ecnMarking"}},
        {"ns3::SwitchBuffer::BufferSize", {"buffer"}},
        {"ns3::SwitchBuffer::ThresholdMode", {"threshold"}},
        {"ns3::DrpTransport::PayloadSize", {"payload"}},
        {"ns3::DrpTransport::TimeoutMode", {"timeoutMode"}},
        {"ns3::DrpTransport::Window", {"window"}},
        {"ns3::DrpTransport::AckEvery", {"ackEvery"}},
        {"ns3::DrpTransport::AckDelay", {"ackDelay"}},
        {"ns3::DrpTransport::EcnCapable", {"ecn"}},
        {"ns3::DrpTransport::CongestionControl", {"cc"}},
        {"ns3::RnicNetDevice::Method", {"method"}},
        {"ns3::ModePolicy::Method", {"method"}},
        {"ns3::RdmaHostApplication::RegistrationFailureProbability", {"frp"}},
        {"ns3::RdmaHostApplication::ForgetData",
         {"!the fabric forgets each transfer's buffers once it has ended"}},
        {"ns3::RdmaHostApplication::Transfers", {"!the workload posts the transfers"}},
        {"ns3::RdmaHostApplication::TransferSize", {"!the workload posts the transfers"}},
        {"ns3::RdmaHostApplication::Peer", {"!the workload posts the transfers"}},
    };
    drp::RefuseAttributesSetBy(set, defaults, options);
}

FabricScenario::Result
FabricScenario::Run(const Config& config)
{
    config.Validate();
    // Each output file opened (and emptied) before the run, so that one
    // that cannot be written is refused before the simulation's time is spent.
    std::map<std::string, std::ofstream> outputs;
    const bool writes = FabricRanks::GetRank() == 0; // over MPI ranks, rank 0 has the results
    const std::vector<std::pair<std::string, const std::string*>> names{
        {"fctFile", &config.fctFile},
        {"pfcFile", &config.pfcFile},
        {"qlenFile", &config.qlenFile}};
    for (const auto& [name, path] : names)
    {
        if (path->empty() || !writes)
        {
            continue;
        }
        std::ofstream& out = outputs[name];
        out.open(*path);
        if (!out)
        {
            throw std::invalid_argument(name + " = " + *path + " cannot be written");
        }
    }
    try
    {
        Result result = RunValidated(config);
        const std::map<std::string, void (*)(std::ostream&, const Result&)> writers{
            {"fctFile", &WriteHpccFct},
            {"pfcFile", &WriteHpccPfc},
            {"qlenFile", &WriteHpccQlen}};
        for (auto& [name, out] : outputs)
        {
            writers.at(name)(out, result);
        }
        return result;
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
    drp::ApplyAttributeDefaults(config.defaults);
    RngSeedManager::SetSeed(config.seed);
    RngSeedManager::SetRun(config.run);

    // The topology file, read once: the host rate, the NIC profile and the fabric.
    std::optional<HpccTopology> topologyFile;
    if (!config.topologyFile.empty())
    {
        topologyFile = HpccTopology::Read(config.topologyFile);
    }
    const DataRate hostRate = topologyFile ? GetFileHostRate(*topologyFile) : config.hostRate;
    const std::string nic = NicProfile::Resolve(config.nic, hostRate);
    RnicHelper rnic;
    rnic.SetProfile(nic);
    rnic.SetMethod(config.method);
    rnic.SetDeviceAttribute("Mtu", UintegerValue(config.mtu)); // the switches' host ports too
    rnic.SetTransportAttribute("PayloadSize", UintegerValue(config.payload));
    rnic.SetTransportAttribute(
        "TimeoutMode",
        StringValue(config.timeoutMode == "adaptive" ? "Adaptive" : "Fixed"));
    rnic.SetDeviceAttribute("DataRate", DataRateValue(hostRate));
    std::optional<HpccFlowList> flowFile;
    if (!config.flowFile.empty())
    {
        flowFile = HpccFlowList::Read(config.flowFile);
        rnic.SetRnicAttribute("DrpClass", UintegerValue(GetFlowClass(*flowFile)));
    }
    if (config.window > 0)
    {
        rnic.SetTransportAttribute("Window", UintegerValue(config.window));
    }
    rnic.SetTransportAttribute("AckEvery", UintegerValue(config.ackEvery));
    if (config.ackDelay.IsStrictlyPositive())
    {
        rnic.SetTransportAttribute("AckDelay", TimeValue(config.ackDelay));
    }
    EthernetHelper links;
    links.SetDeviceAttribute("DataRate", DataRateValue(config.fabricRate));
    links.SetDeviceAttribute("Mtu", UintegerValue(config.mtu));
    if (config.ecn)
    {
        links.SetQueue("ns3::EcnMarkingQueue",
                       "MaxSize",
                       QueueSizeValue(ParseQueueSize(config.queue)),
                       "MinThreshold",
                       QueueSizeValue(QueueSize(config.ecnMin)),
                       "MaxThreshold",
                       QueueSizeValue(QueueSize(config.ecnMax)),
                       "MaxProbability",
                       DoubleValue(config.ecnPmax),
                       "MarkingMode",
                       EnumValue(GetMarkingMode(config)));
        rnic.SetTransportAttribute("EcnCapable", BooleanValue(true));
    }
    else
    {
        links.SetQueue("ns3::DropTailQueue",
                       "MaxSize",
                       QueueSizeValue(ParseQueueSize(config.queue)));
    }
    if (config.lossless)
    {
        rnic.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        links.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
    }
    if (config.cc == "dcqcn")
    {
        rnic.SetTransportAttribute("CongestionControl", TypeIdValue(DrpDcqcn::GetTypeId()));
    }
    else if (config.cc == "dctcp")
    {
        rnic.SetTransportAttribute("CongestionControl", TypeIdValue(DrpDctcp::GetTypeId()));
        rnic.SetTransportAttribute("CnpInterval", TimeValue(Seconds(0))); // an echo per mark
    }
    else if (config.cc == "timely")
    {
        rnic.SetTransportAttribute("CongestionControl", TypeIdValue(DrpTimely::GetTypeId()));
    }
    else if (config.cc == "hpcc")
    {
        rnic.SetTransportAttribute("CongestionControl", TypeIdValue(DrpHpcc::GetTypeId()));
    }
    // Over MPI ranks: each switch on its rank (each host on its edge
    // switch's), a cable between ranks an EthernetRemoteChannel.
    const uint32_t ranks = FabricRanks::GetCount();
    if (ranks > 1)
    {
        FabricRanks::RequireSupported(config, ranks);
        FabricHelper::SetSwitchSystemIds(FabricRanks::GetPlacement(config, ranks));
    }
    std::unique_ptr<FabricHelper> fabric;
    try
    {
        fabric = BuildFabric(config, topologyFile ? &*topologyFile : nullptr, rnic, links);
    }
    catch (...)
    {
        FabricHelper::SetSwitchSystemIds(nullptr);
        throw;
    }
    if (ranks > 1)
    {
        FabricHelper::SetSwitchSystemIds(nullptr); // for the fabrics built after this one
        FabricRanks::RequireLookahead(*fabric);
    }
    if (config.cc == "hpcc")
    {
        EnableTelemetry(*fabric);
    }
    if (config.ecn && !config.ecnByRate.empty())
    {
        ApplyEcnByRate(config, *fabric);
    }
    if (config.lossless)
    {
        MakeLossless(config, *fabric);
    }
    drp::EnableCaptures(config.pcap, config.ascii);
    const uint32_t ecmpSeed = config.ecmpSeed + (config.ecmpPerRun ? config.run : 0); // mod 2^32
    for (uint32_t s = 0; s < fabric->GetSwitches().GetN(); ++s)
    {
        fabric->GetSwitch(s)->SetAttribute("EcmpSeed", UintegerValue(ecmpSeed));
        fabric->GetSwitch(s)->SetAttribute("Mtu", UintegerValue(config.mtu));
    }

    FabricWorkloadHelper workload(*fabric);
    workload.AssignStreams(1);
    // Lossless with ECN: every class queue made now, so that each marks from
    // its own stream whatever ran in this process before.
    AssignQueueStreams(*fabric, 1000000, config.lossless && config.ecn);
    Result result;
    result.config = config;
    result.flows = AddWorkload(config,
                               *fabric,
                               workload,
                               flowFile ? &*flowFile : nullptr,
                               result.expectedFlows);
    // Each host's flow ids, in the order of its transfer list (record.index).
    std::vector<std::vector<uint16_t>> idsOf(fabric->GetHosts().GetN());
    for (const auto& flow : workload.GetFlows())
    {
        idsOf[flow.source].push_back(flow.id);
    }
    result.hosts = fabric->GetHosts().GetN();
    result.switchCount = fabric->GetSwitches().GetN();
    for (uint32_t s = 0; s < result.switchCount; ++s)
    {
        result.switchNodes.push_back(fabric->GetSwitchNodeId(s));
    }
    if (config.lossless)
    {
        TracePfc(*fabric, result);
    }
    RdmaHostHelper host;
    host.SetProfile(nic); // the host of the card's profile, if it names one
    host.SetAttribute("RegistrationFailureProbability", DoubleValue(config.frp));
    // Nothing here compares the bytes: forget each transfer's buffers once
    // it has ended, so that memory holds only what is in flight.
    host.SetAttribute("ForgetData", BooleanValue(true));
    ApplicationContainer apps = workload.Install(host);
    RdmaHostHelper::AssignStreams(apps, 100);
    apps.Start(Seconds(0));
    if (config.rates)
    {
        TraceRates(*fabric, result);
    }
    if (config.queueInterval.IsStrictlyPositive())
    {
        uint64_t ports = 0;
        for (uint32_t s = 0; s < fabric->GetSwitches().GetN(); ++s)
        {
            ports += fabric->GetSwitch(s)->GetNPorts();
        }
        Simulator::Schedule(Seconds(0),
                            &SampleQueues,
                            fabric.get(),
                            ports,
                            config.queueInterval,
                            &result);
    }
    for (uint32_t h : ParseStormHosts(config.pfcStorm, fabric->GetHosts().GetN()))
    {
        // A NIC whose receive path hangs: XOFF on its data class, refreshed for ever.
        Ptr<RnicNetDevice> rnic = fabric->GetRnic(h);
        Simulator::ScheduleWithContext(rnic->GetNode()->GetId(),
                                       Seconds(0),
                                       &EthernetNetDevice::SetClassPaused,
                                       rnic,
                                       rnic->GetDrpClass(),
                                       true);
    }
    std::optional<FlowRateRecorder> flowRates;
    if (config.flowRateInterval.IsStrictlyPositive())
    {
        flowRates.emplace(config.flowRateInterval);
        for (uint32_t h = 0; h < fabric->GetHosts().GetN(); ++h)
        {
            flowRates->Connect(h, fabric->GetRnic(h));
        }
    }
    if (ranks == 1)
    {
        // Over ranks no process sees every transfer end: each runs until
        // the events of all run out (the idle timers after the last end).
        StopWhenAllEnded(apps, workload.GetFlows().size());
    }
    Simulator::Run();
    RdmaHostHelper::RequireAllEnded(apps);

    std::map<Mac48Address, uint32_t> hostOf;
    for (uint32_t h = 0; h < result.hosts; ++h)
    {
        hostOf[Mac48Address::ConvertFrom(fabric->GetRnic(h)->GetAddress())] = h;
    }
    // Every host is built alike, and paths whose links have the same rates
    // and delays time a transfer alike: one ideal per such path serves all
    // its pairs (in the built-in topologies, one per path length).
    std::map<std::vector<int64_t>, DrpIdealFct> ideals;
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
            t.sourceNode = fabric->GetHostNodeId(h);
            t.destinationNode = fabric->GetHostNodeId(t.destination);
            t.flowId = record.index < idsOf[h].size() ? idsOf[h][record.index] : 0;
            const auto there = fabric->GetPath(h, t.destination);
            const auto back = fabric->GetPath(t.destination, h);
            const std::vector<int64_t> key = PathKey(there, back);
            auto it = ideals.find(key);
            if (it == ideals.end())
            {
                it = ideals
                         .emplace(
                             key,
                             DrpIdealFct(app,
                                         DynamicCast<RdmaHostApplication>(apps.Get(t.destination)),
                                         there,
                                         back))
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
            Port port;
            port.sw = s;
            port.port = p;
            port.stats = stats;
            CountPfc(sw, p, port);
            if (stats.framesOut + stats.egressDrops + port.pausesSent + port.pausesReceived > 0)
            {
                port.ecnMarks = config.ecn ? CountMarks(sw->GetPort(p)) : 0;
                result.ports.push_back(port);
            }
        }
        if (Ptr<SwitchBuffer> buffer = sw->GetBuffer())
        {
            result.peakBufferBytes = std::max(result.peakBufferBytes, buffer->GetPeakUsed());
        }
    }
    for (uint32_t h = 0; h < result.hosts && config.lossless; ++h)
    {
        Ptr<RnicNetDevice> r = fabric->GetRnic(h);
        for (uint8_t cls = 0; cls < EthernetNetDevice::PFC_CLASSES; ++cls)
        {
            result.rnicPausesReceived += r->GetPausesReceived(cls);
            result.rnicTimePaused += r->GetTimePaused(cls);
        }
    }
    if (flowRates)
    {
        std::vector<FlowRateRecorder::Transfer> sent;
        for (const auto& t : result.transfers)
        {
            sent.emplace_back(t.source, &t.record);
        }
        result.flowRates = flowRates->GetSamples(sent);
    }
    result.drops = CountDrops(*fabric);
    for (const auto& t : result.transfers)
    {
        result.simulatedTime = std::max(result.simulatedTime, t.record.end);
    }
    result.simulatorEnd = Simulator::Now();
    result.events = Simulator::GetEventCount();
    FabricRanks::Gather(result); // before Destroy(), which ends the ranks' use of MPI
    Simulator::Destroy();
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return result;
}

void
FabricScenario::WriteFlowRatesCsv(std::ostream& os, const Result& result)
{
    const std::streamsize precision = os.precision(12); // a microsecond's digits at 1000 s
    os << "time_s,transfer,source,destination,bytes,wire_bytes,rate_bps\n";
    for (const auto& r : result.flowRates)
    {
        const Transfer& t = result.transfers.at(r.transfer);
        os << r.time.GetSeconds() << "," << r.transfer << "," << t.source << "," << t.destination
           << "," << r.bytes << "," << r.wireBytes << ","
           << r.GetWireRate(result.config.flowRateInterval) << "\n";
    }
    os.precision(precision);
}

void
FabricScenario::WriteCsvHeader(std::ostream& os)
{
    os << "source,destination,switches,size,start_us,fct_us,ideal_us,slowdown,status,mode,"
          "requests,invalid_replies,timeouts,retransmissions,cnps\n";
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
           << r.GetModeName() << "," << r.requests << "," << r.invalidReplies << "," << r.timeouts
           << "," << r.retransmissions << "," << r.cnps << "\n";
    }
}

uint16_t
FabricScenario::Transfer::GetSourcePort() const
{
    return static_cast<uint16_t>(10000 + record.index);
}

namespace
{
/**
 * \param node a node id
 * \return its address as HPCC's simulator gives it (node_id_to_ip() in
 *         scratch/third.cc): 11.x.y.1
 */
uint32_t
HpccAddress(uint32_t node)
{
    return 0x0b000001 + (node / 256) * 0x10000 + (node % 256) * 0x100;
}
} // namespace

void
FabricScenario::WriteHpccFct(std::ostream& os, const Result& result)
{
    char line[160];
    for (const auto& t : result.transfers)
    {
        if (t.record.status != DrpTransferRecord::SUCCESS)
        {
            continue;
        }
        std::snprintf(line,
                      sizeof(line),
                      "%08x %08x %u %u %u %lld %lld %lld\n",
                      HpccAddress(t.sourceNode),
                      HpccAddress(t.destinationNode),
                      unsigned(t.GetSourcePort()),
                      unsigned(t.flowId),
                      t.record.length,
                      static_cast<long long>(t.record.start.GetNanoSeconds()),
                      static_cast<long long>(t.record.GetDuration().GetNanoSeconds()),
                      static_cast<long long>(t.ideal.GetNanoSeconds()));
        os << line;
    }
}

void
FabricScenario::WriteHpccPfc(std::ostream& os, const Result& result)
{
    for (const auto& e : result.pfcEvents)
    {
        os << e.time.GetNanoSeconds() << " " << e.node << " " << (e.isSwitch ? 1 : 0) << " "
           << e.port << " " << (e.pause ? 1 : 0) << " " << unsigned(e.cls) << "\n";
    }
}

void
FabricScenario::WriteHpccQlen(std::ostream& os, const Result& result)
{
    // (switch node id, interface index) -> samples per whole KB waiting
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> histograms;
    for (const auto& q : result.queues)
    {
        auto& counts = histograms[{result.switchNodes.at(q.sw), q.port + 1}];
        const uint32_t kb = q.bytes / 1000;
        if (counts.size() <= kb)
        {
            counts.resize(kb + 1);
        }
        ++counts[kb];
    }
    os << "time: " << (result.queues.empty() ? 0 : result.queues.back().time.GetNanoSeconds())
       << "\n";
    for (const auto& [port, counts] : histograms)
    {
        os << port.first << " " << port.second;
        for (uint64_t n : counts)
        {
            os << " " << n;
        }
        os << "\n";
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
    if (result.flows == 0)
    {
        os << " none (" << result.GetNoFlowsNote() << ")\n";
        return;
    }
    for (const auto& [status, count] : outcomes)
    {
        os << " " << count << " " << status;
    }
    os << "; " << indirect << " indirect; " << retransmissions << " retransmissions\n";
    if (result.config.ecn)
    {
        os << "ECN: " << result.GetEcnMarks() << " frames marked CE; " << result.GetCnps()
           << " congestion notifications (CNP) received\n";
    }
    os << "frames dropped:";
    if (result.GetDropsIn("") == 0)
    {
        os << " none";
    }
    const char* separator = " ";
    for (const auto& d : result.drops)
    {
        if (d.frames > 0)
        {
            os << separator << d.frames << " " << d.device << " " << d.reason;
            separator = ", ";
        }
    }
    os << "\n";
    if (result.config.lossless)
    {
        os << "PFC: " << result.GetPausesSent() << " pause frames sent by switch ports, "
           << result.GetPausesReceived() << " received by switch ports, "
           << result.rnicPausesReceived << " by RNICs; time paused: switch ports " << std::fixed
           << std::setprecision(1) << result.GetTimePaused().GetSeconds() * 1e6 << " us, RNICs "
           << result.rnicTimePaused.GetSeconds() * 1e6 << " us; peak buffer use "
           << result.peakBufferBytes << " bytes";
        if (result.GetPfcStorms() > 0)
        {
            os << "; " << result.GetPfcStorms() << " pause storms (PFC watchdog)";
        }
        os << "\n";
        os.unsetf(std::ios::fixed);
    }
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
