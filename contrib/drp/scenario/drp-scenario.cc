/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-scenario.h"

#include "csv-output.h"

#include "ns3/attribute-defaults.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-header.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/log.h"
#include "ns3/nic-profile.h"
#include "ns3/pointer.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/rnic-helper.h"
#include "ns3/simulator.h"
#include "ns3/strict-options.h"
#include "ns3/string.h"
#include "ns3/switch-line-helper.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DrpScenario");

namespace
{

/**
 * Makes the receive error model that applies LFP.
 * \param config the experiment
 * \return the error model, or null when LFP is 0
 */
Ptr<ErrorModel>
MakeLossModel(const DrpScenario::Config& config)
{
    if (config.lfp == 0)
    {
        return nullptr;
    }
    if (config.lossModel == "burst")
    {
        // Renewal argument: a burst (mean length B) starts at a frame with
        // probability p; the fraction of frames lost is pB / (pB + 1 - p).
        // Solve for p so that it equals LFP.
        double b = config.meanBurst;
        double p = config.lfp / (b * (1 - config.lfp) + config.lfp);
        Ptr<BurstErrorModel> model = CreateObject<BurstErrorModel>();
        model->SetAttribute("ErrorRate", DoubleValue(p));
        // BurstErrorModel draws burst lengths with GetInteger(), which for a
        // UniformRandomVariable includes Max: uniform on [1, 2B-1], mean B.
        std::ostringstream burst;
        burst << "ns3::UniformRandomVariable[Min=1|Max=" << 2 * b - 1 << "]";
        model->SetAttribute("BurstSize", StringValue(burst.str()));
        return model;
    }
    Ptr<RateErrorModel> model = CreateObject<RateErrorModel>();
    model->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    model->SetAttribute("ErrorRate", DoubleValue(config.lfp));
    return model;
}

/**
 * Throws unless the memory that \p config's transfers in flight register at
 * the responder at once fits its limits (RdmaHostApplication's
 * MaxRegisteredBytesPerPeer and MaxRegisteredBytes, as the defaults leave
 * them): it would refuse the transfers beyond them.
 * \param config the experiment, its defaults checked
 */
void
RequireRegistrableConcurrency(const DrpScenario::Config& config)
{
    const uint64_t bytes = uint64_t(std::min(config.concurrency, config.transfers)) * config.size;
    for (std::string attribute : {"MaxRegisteredBytesPerPeer", "MaxRegisteredBytes"})
    {
        const std::string name = "ns3::RdmaHostApplication::" + attribute;
        TypeId::AttributeInformation info;
        TypeId::LookupByName("ns3::RdmaHostApplication").LookupAttributeByName(attribute, &info);
        auto given = config.defaults.find(name);
        const uint64_t limit = given != config.defaults.end()
                                   ? std::stoull(given->second)
                                   : DynamicCast<const UintegerValue>(info.initialValue)->Get();
        if (bytes > limit)
        {
            throw std::invalid_argument(
                "concurrency = " + std::to_string(config.concurrency) +
                " with size = " + std::to_string(config.size) + ": the responder would register " +
                std::to_string(bytes) + " bytes at once, over " + name + " = " +
                std::to_string(limit) + " (it would refuse the transfers beyond it)");
        }
    }
}

} // namespace

void
DrpScenario::RefuseScenarioAttributes(const std::map<std::string, std::string>& defaults,
                                      bool options)
{
    // The attribute (as its declaring class names it) and the scenario
    // parameters that set it, or, after '!', why no parameter does.
    static const std::map<std::string, std::vector<std::string>> set{
        {"ns3::EthernetNetDevice::DataRate", {"rate"}},
        {"ns3::EthernetNetDevice::ReceiveErrorModel", {"lfp", "lossModel", "meanBurst"}},
        {"ns3::RateErrorModel::ErrorRate", {"lfp"}},
        {"ns3::RateErrorModel::ErrorUnit", {"!the scenario loses whole frames (lfp)"}},
        {"ns3::BurstErrorModel::ErrorRate", {"lfp", "meanBurst"}},
        {"ns3::BurstErrorModel::BurstSize", {"meanBurst"}},
        {"ns3::DrpTransport::PayloadSize", {"payload"}},
        {"ns3::EthernetNetDevice::Mtu", {"mtu"}},
        {"ns3::RnicNetDevice::Method", {"method"}},
        {"ns3::ModePolicy::Method", {"method"}},
        {"ns3::RdmaHostApplication::RegistrationFailureProbability", {"frp"}},
        {"ns3::RdmaHostApplication::Transfers", {"transfers"}},
        {"ns3::RdmaHostApplication::Concurrency", {"concurrency"}},
        {"ns3::RdmaHostApplication::TransferSize", {"size"}},
        {"ns3::RdmaHostApplication::Operation", {"operation"}},
        {"ns3::RdmaHostApplication::Peer", {"!the first host works with the second"}},
        {DRP_PING_TYPE_NAME "::Interval", {"pingInterval"}},
        {DRP_PING_TYPE_NAME "::Size", {"!the pings are 256, 512 and 1024 bytes"}},
        {DRP_PING_TYPE_NAME "::" DRP_PING_REMOTE_ATTRIBUTE, {"!each host pings the other"}},
        {DRP_PING_TYPE_NAME "::" DRP_PING_VERBOSE_ATTRIBUTE, {"!the pings print nothing"}},
    };
    drp::RefuseAttributesSetBy(set, defaults, options);
}

void
DrpScenario::Config::Validate() const
{
    drp::RequireOneOf("method", method, {"traditional", "dynamic", "roce"});
    drp::RequireInRange("frp", frp, 0.0, 1.0);
    drp::RequireInRange("lfp", lfp, 0.0, 0.99);
    drp::RequireOneOf("lossModel", lossModel, {"rate", "burst"});
    drp::RequireInRange("meanBurst", meanBurst, 1.0, 100.0);
    if (2 * meanBurst != std::floor(2 * meanBurst))
    {
        throw std::invalid_argument("meanBurst = " + std::to_string(meanBurst) +
                                    " is not a multiple of 0.5 in [1, 100] (bursts are uniform "
                                    "on [1, 2 meanBurst - 1])");
    }
    drp::RequireInRange<uint32_t>("transfers", transfers, 1, 10000000);
    drp::RequireInRange<uint32_t>("concurrency", concurrency, 1, 1024);
    drp::RequireInRange<uint32_t>("size", size, 1, 1u << 31);
    drp::RequireMtuAndPayload(mtu, payload);
    drp::RequireOneOf("operation", operation, {"write", "read"});
    drp::RequireOneOf("topology", topology, {"p2p", "line"});
    drp::RequireInRange<uint32_t>("switches", switches, 1, 64);
    const DataRate minRate(10000000);     // 10BASE-T
    const DataRate maxRate(800000000000); // 800GBASE
    if (!(rate >= minRate && rate <= maxRate))
    {
        throw std::invalid_argument("rate = " + drp::ShowDataRate(rate) + " is out of range [" +
                                    drp::ShowDataRate(minRate) + ", " + drp::ShowDataRate(maxRate) +
                                    "]");
    }
    drp::RequireInRange<Time>("pingInterval", pingInterval, MicroSeconds(1), Seconds(10));
    NicProfile::Resolve(nic, rate); // throws for an unknown profile, naming the valid ones
    drp::RequireInRange<uint32_t>("seed", seed, 1, UINT32_MAX);
    drp::RequireCapturePrefix("pcap", pcap);
    drp::RequireCapturePrefix("ascii", ascii);
    RefuseScenarioAttributes(defaults);
    drp::CheckAttributeDefaults(defaults);
    RequireRegistrableConcurrency(*this);
}

std::string
DrpScenario::Config::GetNic() const
{
    return NicProfile::Resolve(nic, rate);
}

void
DrpScenario::Config::AddToCommandLine(CommandLine& cmd, drp::StrictOptions& strict, bool withMethod)
{
    if (withMethod)
    {
        cmd.AddValue("method", "RNIC method: traditional or dynamic", method);
    }
    strict.AddValue(cmd, "frp", "failed-registration probability, 0 to 1", frp);
    strict.AddValue(cmd, "lfp", "lost-frame probability, 0 to 0.99", lfp);
    cmd.AddValue("lossModel", "ns-3 error model for LFP: rate (independent) or burst", lossModel);
    strict.AddValue(cmd, "meanBurst", "burst loss model: mean burst length in frames", meanBurst);
    strict.AddValue(cmd, "transfers", "number of transfers", transfers);
    strict.AddValue(cmd, "concurrency", "transfers in flight at once, 1 to 1024", concurrency);
    strict.AddValue(cmd, "size", "bytes per transfer", size);
    strict.AddValue(cmd, "payload", "payload bytes per data frame (1 to mtu - 32)", payload);
    strict.AddValue(cmd,
                    "mtu",
                    "every port's MTU, RNICs and switches (46 to 9216; 9000: jumbo frames)",
                    mtu);
    cmd.AddValue("operation", "write or read", operation);
    cmd.AddValue("topology", "p2p (one link) or line (of switches)", topology);
    strict.AddValue(cmd, "switches", "line topology: number of switches", switches);
    strict.AddValue(cmd, "rate", "line rate of every link, 10Mbps to 800Gbps (e.g. 10Gbps)", rate);
    cmd.AddValue("pings", "three pings (256, 512, 1024 bytes) each way during the run", pings);
    strict.AddValue(cmd, "pingInterval", "interval of each ping", pingInterval);
    strict.AddValue(cmd, "seed", "ns-3 RNG seed", seed);
    strict.AddValue(cmd, "run", "ns-3 RNG run number", run);
    cmd.AddValue("pairedStreams",
                 "fresh loss and registration streams per transfer (common random numbers)",
                 pairedStreams);
    cmd.AddValue("verify", "compare memory byte for byte after each transfer", verify);
    cmd.AddValue("pcap",
                 "write PREFIX-NODE-DEVICE.pcap for both RNICs and every switch port (empty: "
                 "none)",
                 pcap);
    cmd.AddValue("ascii",
                 "write PREFIX-NODE-DEVICE.tr (ns-3 ascii traces) for the same devices (empty: "
                 "none)",
                 ascii);
    cmd.AddValue("nic",
                 "the RNICs' NIC profile: " + NicProfile::GetNamesText() +
                     " (paper-1g: the paper's Gigabit card, the default) or " + NicProfile::AUTO +
                     " (the card of rate); rate sets the port's rate",
                 nic);
}

void
DrpScenario::Result::Merge(const Result& other)
{
    if (records.empty())
    {
        config = other.config;
    }
    records.insert(records.end(), other.records.begin(), other.records.end());
    corruptTransfers += other.corruptTransfers;
    framesLost += other.framesLost;
    hostDrops += other.hostDrops;
    drpDrops += other.drpDrops;
    bufferOverflows += other.bufferOverflows;
    pcieRequests += other.pcieRequests;
    pingReplies += other.pingReplies;
    pingMaxRtt = std::max(pingMaxRtt, other.pingMaxRtt);
    simulatedTime += other.simulatedTime;
    events += other.events;
    wallSeconds += other.wallSeconds;
}

uint32_t
DrpScenario::Result::GetSuccesses() const
{
    uint32_t n = 0;
    for (const auto& record : records)
    {
        n += record.status == DrpTransferRecord::SUCCESS;
    }
    return n;
}

uint32_t
DrpScenario::Result::GetIndirect() const
{
    uint32_t n = 0;
    for (const auto& record : records)
    {
        n += record.mode == DrpTransferRecord::INDIRECT;
    }
    return n;
}

DrpMeanInterval
DrpScenario::Result::GetTransferTime() const
{
    std::vector<double> times;
    for (const auto& record : records)
    {
        if (record.status == DrpTransferRecord::SUCCESS)
        {
            times.push_back(record.GetDuration().GetSeconds() * 1e6);
        }
    }
    return DrpMeanInterval::Compute(times, 0.95);
}

DrpScenario::Result
DrpScenario::Run(const Config& config)
{
    config.Validate();
    try
    {
        return RunValidated(config);
    }
    catch (...)
    {
        Simulator::Destroy(); // leave the simulator clean for the next run
        throw;
    }
}

DrpScenario::Result
DrpScenario::RunValidated(const Config& config)
{
    auto wallStart = std::chrono::steady_clock::now();
    drp::ApplyAttributeDefaults(config.defaults);
    RngSeedManager::SetSeed(config.seed);
    RngSeedManager::SetRun(config.run);

    RnicHelper rnic;
    rnic.SetProfile(config.GetNic());
    rnic.SetMethod(config.method);
    rnic.SetDeviceAttribute("DataRate", DataRateValue(config.rate));
    rnic.SetDeviceAttribute("Mtu", UintegerValue(config.mtu)); // the switches' host ports too
    rnic.SetTransportAttribute("PayloadSize", UintegerValue(config.payload));

    NodeContainer hosts;
    NetDeviceContainer rnics;
    if (config.topology == "p2p")
    {
        hosts.Create(2);
        rnics = rnic.Install(hosts.Get(0), hosts.Get(1));
    }
    else
    {
        EthernetHelper trunk;
        trunk.SetDeviceAttribute("DataRate", DataRateValue(config.rate));
        trunk.SetDeviceAttribute("Mtu", UintegerValue(config.mtu));
        // The two hosts sit at the ends of the line (both on the one switch
        // of a line of one).
        uint32_t perSwitch = config.switches == 1 ? 2 : 1;
        SwitchLineHelper line(config.switches, perSwitch, rnic, trunk);
        NetDeviceContainer all = line.GetRnics();
        hosts.Add(line.GetHosts().Get(0));
        hosts.Add(line.GetHosts().Get(line.GetHosts().GetN() - 1));
        rnics.Add(all.Get(0));
        rnics.Add(all.Get(all.GetN() - 1));
    }

    drp::EnableCaptures(config.pcap, config.ascii);

    Result result;
    result.config = config;
    int64_t stream = 0;
    std::vector<Ptr<RnicNetDevice>> devices;
    for (uint32_t i = 0; i < 2; ++i)
    {
        Ptr<RnicNetDevice> device = DynamicCast<RnicNetDevice>(rnics.Get(i));
        devices.push_back(device);
        Ptr<ErrorModel> loss = MakeLossModel(config);
        if (loss)
        {
            device->SetAttribute("ReceiveErrorModel", PointerValue(loss));
            device->TraceConnectWithoutContext(
                "PhyRxDrop",
                drp::FunctorCallback<void, Ptr<const Packet>>(
                    [&result](Ptr<const Packet>) { ++result.framesLost; }));
        }
        stream += device->AssignStreams(stream);
    }

    RdmaHostHelper hostHelper;
    hostHelper.SetProfile(config.GetNic()); // the host of the card's profile, if it names one
    hostHelper.SetAttribute("RegistrationFailureProbability", DoubleValue(config.frp));
    hostHelper.SetAttribute("Transfers", UintegerValue(config.transfers));
    hostHelper.SetAttribute("Concurrency", UintegerValue(config.concurrency));
    hostHelper.SetAttribute("TransferSize", UintegerValue(config.size));
    hostHelper.SetAttribute("Operation", StringValue(config.operation));
    ApplicationContainer apps = hostHelper.Install(hosts.Get(0));
    RdmaHostHelper::SetWorkload(apps.Get(0), devices[1]);
    hostHelper.SetAttribute("Transfers", UintegerValue(0));
    apps.Add(hostHelper.Install(hosts.Get(1)));
    stream += RdmaHostHelper::AssignStreams(apps, stream);

    Ptr<RdmaHostApplication> initiator = DynamicCast<RdmaHostApplication>(apps.Get(0));
    if (config.pairedStreams)
    {
        Ptr<RdmaHostApplication> responder = DynamicCast<RdmaHostApplication>(apps.Get(1));
        initiator->TraceConnectWithoutContext(
            "TransferStart",
            drp::FunctorCallback<void, uint32_t>([devices, responder](uint32_t index) {
                int64_t first = PAIRED_STREAM_BASE + index * PAIRED_STREAMS_PER_TRANSFER;
                devices[0]->AssignStreams(first);
                devices[1]->AssignStreams(first + 2);
                responder->AssignStreams(first + 4);
            }));
    }
    Ptr<HostMemory> source = devices[0]->GetHostMemory();
    Ptr<HostMemory> target = devices[1]->GetHostMemory();
    initiator->TraceConnectWithoutContext(
        "TransferComplete",
        drp::FunctorCallback<void, const DrpTransferRecord&>([&](const DrpTransferRecord& record) {
            if (config.verify && record.status == DrpTransferRecord::SUCCESS &&
                source->CountDifferences(record.sba, target, record.dba, record.length) != 0)
            {
                ++result.corruptTransfers;
            }
            if (initiator->GetRecords().size() == config.transfers)
            {
                Simulator::Stop(); // background traffic would run on
            }
        }));

    if (config.pings)
    {
        InternetStackHelper internet;
        internet.Install(hosts);
        stream += internet.AssignStreams(hosts, stream);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(rnics);
        for (uint32_t i = 0; i < 2; ++i)
        {
            for (uint32_t size : {256u, 512u, 1024u})
            {
                drp::InstallPing(hosts.Get(i),
                                 interfaces.GetAddress(1 - i),
                                 config.pingInterval,
                                 size,
                                 drp::FunctorCallback<void, Time>([&result](Time rtt) {
                                     ++result.pingReplies;
                                     result.pingMaxRtt = std::max(result.pingMaxRtt, rtt);
                                 }));
            }
        }
    }

    apps.Start(Seconds(0));
    Simulator::Run();
    RdmaHostHelper::RequireAllEnded(apps);

    result.records = initiator->GetRecords();
    for (const auto& device : devices)
    {
        Ptr<DrpTransport> transport = device->GetTransport();
        result.drpDrops += transport->GetTotalDrops();
        result.hostDrops += device->GetHostDrops();
        if (transport->GetIndirectBuffer())
        {
            result.bufferOverflows += transport->GetIndirectBuffer()->GetOverflowCount();
        }
        Ptr<PcieLink> pcie = device->GetPcieLink();
        result.pcieRequests += pcie->GetTransactionCount(PcieLink::DMA_READ) +
                               pcie->GetTransactionCount(PcieLink::DMA_WRITE);
    }
    result.simulatedTime = Simulator::Now();
    result.events = Simulator::GetEventCount();
    Simulator::Destroy();
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return result;
}

namespace
{
/**
 * Writes a time in microseconds with every nanosecond, exact at any
 * magnitude (a double printed with the stream's six significant digits
 * loses nanoseconds from 1 ms on, and microseconds from 1 s).
 * \param os the stream
 * \param t a time, at least 0
 */
void
WriteMicroseconds(std::ostream& os, Time t)
{
    const int64_t ns = t.GetNanoSeconds();
    const char fill = os.fill('0');
    os << ns / 1000 << '.' << std::setw(3) << ns % 1000;
    os.fill(fill);
}
} // namespace

void
DrpScenario::WriteCsvHeader(std::ostream& os)
{
    os << "method,frp,lfp,loss_model,operation,topology,size,payload,rate,concurrency,seed,run,"
          "index,tid,mode,status,requests,invalid_replies,timeouts,retransmissions,start_us,"
          "end_us,duration_us\n";
}

void
DrpScenario::WriteCsvRows(std::ostream& os, const Result& result)
{
    const Config& c = result.config;
    for (const auto& r : result.records)
    {
        os << c.method << ',' << c.frp << ',' << c.lfp << ',' << c.lossModel << ',' << c.operation
           << ',' << c.topology << ',' << c.size << ',' << c.payload << ',' << c.rate.GetBitRate()
           << ',' << c.concurrency << ',' << c.seed << ',' << c.run << ',' << r.index << ','
           << r.tid << ',' << r.GetModeName() << ',' << r.GetStatusName() << ',' << r.requests
           << ',' << r.invalidReplies << ',' << r.timeouts << ',' << r.retransmissions << ',';
        WriteMicroseconds(os, r.start);
        os << ',';
        WriteMicroseconds(os, r.end);
        os << ',';
        WriteMicroseconds(os, r.GetDuration());
        os << '\n';
    }
}

void
DrpScenario::PrintSummary(std::ostream& os, const Result& result)
{
    std::ostringstream line; // leaves the format of os alone
    DrpMeanInterval t = result.GetTransferTime();
    line << std::left << std::setw(12) << result.config.method << std::right << std::fixed
         << std::setprecision(1);
    if (t.count > 1)
    {
        line << std::setw(10) << t.mean << " us  +/- " << std::setw(7) << t.halfWidth
             << " us (95% CI)   ";
    }
    else if (t.count == 1)
    {
        // One transfer has a time but no spread: no interval to print.
        line << std::setw(10) << t.mean << " us  " << std::left << std::setw(26)
             << "(one success, no CI)" << std::right;
    }
    else
    {
        line << std::left << std::setw(41) << NO_SUCCESSES << std::right;
    }
    line << result.GetSuccesses() << "/" << result.records.size() << " ok, " << result.GetIndirect()
         << " indirect, " << result.corruptTransfers << " corrupt, " << result.framesLost
         << " frames lost, " << result.hostDrops << " host drops, " << std::setprecision(2)
         << result.wallSeconds << " s wall";
    if (!result.records.empty())
    {
        line << " (" << std::setprecision(0) << 1e6 * result.wallSeconds / result.records.size()
             << " us per transfer, " << result.events / result.records.size()
             << " events per transfer)";
    }
    os << line.str() << std::endl;
}

void
DrpScenario::PrintReduction(std::ostream& os, const Result& traditional, const Result& dynamic)
{
    std::ostringstream line;
    line << "dynamic reduction of the mean transfer time: ";
    DrpMeanInterval t = traditional.GetTransferTime();
    DrpMeanInterval d = dynamic.GetTransferTime();
    std::optional<double> reduction = DrpMeanInterval::GetReduction(t, d);
    if (reduction)
    {
        line << std::fixed << std::setprecision(2) << 100 * *reduction << " %";
    }
    else if (t.count == 0 && d.count == 0)
    {
        line << "none (" << NO_SUCCESSES << " with either method)";
    }
    else
    {
        line << "none (" << NO_SUCCESSES << " with the "
             << (t.count == 0 ? traditional : dynamic).config.method << " method)";
    }
    os << line.str() << std::endl;
}

} // namespace ns3
