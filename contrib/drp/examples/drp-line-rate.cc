/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Line rate, measured: what one RNIC of each NIC profile moves on one
 * point-to-point link, against the line's goodput ceiling.
 *
 * For every rate, payload, operation and profile (by default the profile of
 * each rate, NicProfile::ForRate()):
 *
 * - one long transfer (--size, 10 MB): its data phase (the data sender's
 *   first data frame onto the wire to the end of its last) and the goodput
 *   of that phase against the ceiling, payload / (payload + DRP header,
 *   Ethernet header and FCS, preamble and SFD, inter-frame gap); then the
 *   whole FCT part by part: the responder's registration of the region, the
 *   rest of the handshake (doorbells, interrupts, the request and reply on
 *   the wire, the first DMA read), the data phase, and the tail (the last
 *   acknowledgement, the release and the completion interrupt);
 * - many small transfers (--smallTransfers of --smallSize bytes,
 *   --concurrency at a time): transfers per second, against the profile's
 *   message-rate ceiling (one frame per processing time) and against what
 *   one transfer's host work allows (its registration, one region at a
 *   time).
 *
 * Payloads above 1468 bytes run in 9000-byte jumbo frames, the others in
 * the standard 1500. No loss, no failed registration, no memory check.
 *
 *     drp-line-rate [--rates=10Gbps,25Gbps,100Gbps,200Gbps,400Gbps]
 *                   [--payloads=1024,4096] [--operations=write,read]
 *                   [--nics=auto] [--size=10000000] [--smallSize=64]
 *                   [--smallTransfers=2000] [--concurrency=64] [--csv=FILE]
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param text a comma-separated list
 * \return its items
 */
std::vector<std::string>
Split(const std::string& text)
{
    std::vector<std::string> items;
    std::istringstream list(text);
    for (std::string item; std::getline(list, item, ',');)
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

/// One case: a rate, a payload, an operation, a profile.
struct Case
{
    DataRate rate;         //!< the link's rate
    uint32_t payload;      //!< payload bytes per data frame
    std::string operation; //!< write or read
    std::string nic;       //!< the NIC profile
};

/// What one long transfer showed.
struct LongResult
{
    Time fct;          //!< the whole transfer
    Time registration; //!< the responder's registration of the region
    Time handshake;    //!< start to the first data frame, registration excluded
    Time data;         //!< first data frame onto the wire to the end of the last
    Time tail;         //!< the end of the last data frame to the completion
    double goodput;    //!< bits per second in the data phase
    double ceiling;    //!< the line's goodput ceiling, bits per second
};

/// What many small transfers showed.
struct SmallResult
{
    double perSecond;     //!< transfers ended per second
    double hostCeiling;   //!< one registration at a time: transfers per second at most
    double engineCeiling; //!< one frame per processing time: frames per second at most
    double framesPerOne;  //!< frames on the wire per transfer, both directions
};

/**
 * Runs transfers between two RNICs of one profile on one link.
 * \param c the case
 * \param size bytes per transfer
 * \param transfers transfers
 * \param concurrency transfers in flight at once
 * \param onTx called with every DRP frame either RNIC puts on the wire
 * \return the initiator's application (its records) and the responder's
 */
std::pair<Ptr<RdmaHostApplication>, Ptr<RdmaHostApplication>>
Run(const Case& c,
    uint32_t size,
    uint32_t transfers,
    uint32_t concurrency,
    const std::function<void(bool fromInitiator, const DrpHeader&, uint32_t)>& onTx)
{
    RnicHelper rnic;
    rnic.SetProfile(c.nic);
    rnic.SetDeviceAttribute("DataRate", DataRateValue(c.rate));
    rnic.SetDeviceAttribute("Mtu", UintegerValue(c.payload > 1468 ? 9000 : 1500));
    rnic.SetTransportAttribute("PayloadSize", UintegerValue(c.payload));
    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
    RdmaHostHelper host;
    host.SetAttribute("Transfers", UintegerValue(transfers));
    host.SetAttribute("TransferSize", UintegerValue(size));
    host.SetAttribute("Operation", StringValue(c.operation));
    host.SetAttribute("Concurrency", UintegerValue(concurrency));
    host.SetAttribute("ForgetData", BooleanValue(true));
    ApplicationContainer apps = host.Install(nodes);
    RdmaHostHelper::SetWorkload(apps.Get(0), devices.Get(1));
    apps.Get(1)->SetAttribute("Transfers", UintegerValue(0));
    for (uint32_t i = 0; i < 2; ++i)
    {
        DynamicCast<RnicNetDevice>(devices.Get(i))
            ->GetTransport()
            ->TraceConnectWithoutContext(
                "Tx",
                drp::FunctorCallback<void, Ptr<const Packet>>([onTx, i](Ptr<const Packet> frame) {
                    DrpHeader header;
                    frame->PeekHeader(header);
                    onTx(i == 0, header, frame->GetSize());
                }));
    }
    Simulator::Run();
    return {DynamicCast<RdmaHostApplication>(apps.Get(0)),
            DynamicCast<RdmaHostApplication>(apps.Get(1))};
}

/**
 * \param c the case
 * \param size the transfer's bytes
 * \return what one long transfer showed
 */
LongResult
RunLong(const Case& c, uint32_t size)
{
    Time first = Time::Max();
    Time last;
    uint32_t lastBytes = 0;
    const bool write = c.operation == "write";
    auto [initiator, responder] =
        Run(c, size, 1, 1, [&](bool fromInitiator, const DrpHeader& header, uint32_t bytes) {
            if (fromInitiator == write && (header.GetControl() & DrpHeader::DATA))
            {
                first = std::min(first, Simulator::Now());
                last = Simulator::Now();
                lastBytes = bytes;
            }
        });
    const DrpTransferRecord record = initiator->GetRecords().at(0);
    if (record.status != DrpTransferRecord::SUCCESS)
    {
        throw std::runtime_error("the transfer did not succeed: " + record.GetStatusName());
    }
    LongResult r;
    r.fct = record.GetDuration();
    r.registration = responder->GetRegistrationTime(record.dba, record.length);
    // The last frame's own time on the wire: preamble and SFD, Ethernet
    // header, the DRP frame, FCS.
    const Time lastEnd = last + c.rate.CalculateBytesTxTime(8 + 14 + lastBytes + 4);
    r.data = lastEnd - first;
    r.handshake = first - record.start - r.registration;
    r.tail = record.end - lastEnd;
    r.goodput = size * 8.0 / r.data.GetSeconds();
    r.ceiling = NicProfile::GetPortCeiling(c.rate, c.payload).GetBitRate();
    Simulator::Destroy();
    return r;
}

/**
 * \param c the case
 * \param size bytes per transfer
 * \param transfers transfers
 * \param concurrency transfers in flight at once
 * \return what they showed
 */
SmallResult
RunSmall(const Case& c, uint32_t size, uint32_t transfers, uint32_t concurrency)
{
    uint64_t frames = 0;
    auto [initiator, responder] =
        Run(c, size, transfers, concurrency, [&frames](bool, const DrpHeader&, uint32_t) {
            ++frames;
        });
    Time start = Time::Max();
    Time end;
    for (const DrpTransferRecord& record : initiator->GetRecords())
    {
        start = std::min(start, record.start);
        end = std::max(end, record.end);
    }
    SmallResult r;
    r.perSecond = transfers / (end - start).GetSeconds();
    r.hostCeiling = 1.0 / responder->GetRegistrationTime(0, size).GetSeconds();
    r.engineCeiling = NicProfile::Get(c.nic).GetFrameRate();
    r.framesPerOne = double(frames) / transfers;
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string rates = "10Gbps,25Gbps,100Gbps,200Gbps,400Gbps";
    std::string payloads = "1024,4096";
    std::string operations = "write,read";
    std::string nics = NicProfile::AUTO;
    uint32_t size = 10000000;
    uint32_t smallSize = 64;
    uint32_t smallTransfers = 2000;
    uint32_t concurrency = 64;
    std::string csv;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    cmd.AddValue("rates", "link rates, comma-separated (10Mbps to 800Gbps)", rates);
    cmd.AddValue("payloads", "payload bytes per data frame, comma-separated (1 to 8968)", payloads);
    cmd.AddValue("operations", "write, read or both, comma-separated", operations);
    cmd.AddValue(
        "nics",
        "NIC profiles, comma-separated, each at every rate: " + NicProfile::GetNamesText() +
            ", or " + NicProfile::AUTO + " (the profile of each rate)",
        nics);
    strict.AddValue(cmd, "size", "bytes of the long transfer (1 to 2^31)", size);
    strict.AddValue(cmd, "smallSize", "bytes per small transfer (1 to 2^31)", smallSize);
    strict.AddValue(cmd, "smallTransfers", "small transfers (0: none; up to 10^6)", smallTransfers);
    strict.AddValue(cmd,
                    "concurrency",
                    "small transfers in flight at once (1 to 1024)",
                    concurrency);
    cmd.AddValue("csv", "also write the table to this file", csv);
    std::vector<Case> cases;
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange<uint32_t>("size", size, 1, 1u << 31);
        drp::RequireInRange<uint32_t>("smallSize", smallSize, 1, 1u << 31);
        drp::RequireInRange<uint32_t>("smallTransfers", smallTransfers, 0, 1000000);
        drp::RequireInRange<uint32_t>("concurrency", concurrency, 1, 1024);
        for (const std::string& rateText : Split(rates))
        {
            const auto rate = drp::ParseStrict<DataRate>("rates", rateText);
            drp::RequireInRange<uint64_t>("rates (bit/s)",
                                          rate.GetBitRate(),
                                          10000000,
                                          800000000000);
            for (const std::string& payloadText : Split(payloads))
            {
                const auto payload = drp::ParseStrict<uint32_t>("payloads", payloadText);
                drp::RequireInRange<uint32_t>("payloads", payload, 1, 9000 - DrpHeader::SIZE);
                for (const std::string& operation : Split(operations))
                {
                    drp::RequireOneOf("operations", operation, {"write", "read"});
                    for (const std::string& nic : Split(nics))
                    {
                        cases.push_back({rate, payload, operation, NicProfile::Resolve(nic, rate)});
                    }
                }
            }
        }
        if (cases.empty())
        {
            throw std::invalid_argument("no case: rates, payloads, operations and nics each need "
                                        "at least one value");
        }
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    std::ofstream file;
    if (!csv.empty())
    {
        file.open(csv);
        if (!file)
        {
            std::cerr << "error: csv = " << csv << " cannot be written" << std::endl;
            return 1;
        }
    }
    std::ostringstream table;
    table << "nic,rate_gbps,payload,operation,size,data_us,goodput_gbps,ceiling_gbps,share,"
             "fct_us,registration_us,handshake_us,tail_us,small_size,small_per_s,"
             "small_host_ceiling_per_s,frames_per_small,engine_ceiling_frames_per_s\n";
    std::cout << "long transfer of " << size << " bytes; " << smallTransfers << " small of "
              << smallSize << " bytes, " << concurrency << " at a time\n"
              << std::left << std::setw(14) << "nic" << std::right << std::setw(6) << "Gb/s"
              << std::setw(6) << "pay" << std::setw(6) << "op" << std::setw(11) << "data us"
              << std::setw(9) << "Gb/s" << std::setw(9) << "ceiling" << std::setw(8) << "share"
              << std::setw(11) << "FCT us" << std::setw(10) << "reg us" << std::setw(9) << "hs us"
              << std::setw(9) << "tail us" << std::setw(11) << "small/s" << std::setw(11)
              << "host max/s"
              << "\n";
    for (const Case& c : cases)
    {
        try
        {
            const LongResult l = RunLong(c, size);
            SmallResult s{0, 0, 0, 0};
            if (smallTransfers > 0)
            {
                s = RunSmall(c, smallSize, smallTransfers, concurrency);
            }
            const double gbps = c.rate.GetBitRate() / 1e9;
            auto us = [](Time t) { return t.GetSeconds() * 1e6; };
            std::cout << std::left << std::setw(14) << c.nic << std::right << std::fixed
                      << std::setprecision(0) << std::setw(6) << gbps << std::setw(6) << c.payload
                      << std::setw(6) << c.operation << std::setprecision(1) << std::setw(11)
                      << us(l.data) << std::setprecision(2) << std::setw(9) << l.goodput / 1e9
                      << std::setw(9) << l.ceiling / 1e9 << std::setprecision(1) << std::setw(7)
                      << 100 * l.goodput / l.ceiling << "%" << std::setw(11) << us(l.fct)
                      << std::setw(10) << us(l.registration) << std::setw(9) << us(l.handshake)
                      << std::setw(9) << us(l.tail) << std::setprecision(0) << std::setw(11)
                      << s.perSecond << std::setw(11) << s.hostCeiling << "\n";
            table << c.nic << "," << std::defaultfloat << std::setprecision(6) << gbps << ","
                  << c.payload << "," << c.operation << "," << size << "," << std::fixed
                  << std::setprecision(3) << us(l.data) << "," << std::setprecision(4)
                  << l.goodput / 1e9 << "," << l.ceiling / 1e9 << "," << std::setprecision(5)
                  << l.goodput / l.ceiling << "," << std::setprecision(3) << us(l.fct) << ","
                  << us(l.registration) << "," << us(l.handshake) << "," << us(l.tail) << ","
                  << smallSize << "," << std::setprecision(0) << s.perSecond << "," << s.hostCeiling
                  << "," << std::setprecision(2) << s.framesPerOne << "," << std::setprecision(0)
                  << s.engineCeiling << "\n";
            std::cout.unsetf(std::ios::fixed);
        }
        catch (const std::exception& e)
        {
            std::cerr << "error: " << c.nic << " at " << drp::ShowDataRate(c.rate) << ", payload "
                      << c.payload << ", " << c.operation << ": " << e.what() << std::endl;
            return 1;
        }
    }
    if (file.is_open())
    {
        file << table.str();
    }
    return 0;
}
