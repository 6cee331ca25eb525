/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * A first drp script: two hosts with RNICs on one Gigabit link; host 0
 * writes a few 64 KiB transfers to host 1, whose memory registration fails
 * now and then. It prints each transfer's mode and time, and can write pcap
 * files of the link, frames as on the wire with correct FCSs (open them in
 * Wireshark with contrib/drp/wireshark/drp.lua, which decodes DRP frames of
 * EtherType 0x01FF, the default, and 0x88B5); with --pcap=PREFIX, IPv4 and ICMP
 * checksums are computed too. --ping adds IPv4 on both RNICs and pings from
 * host 0 to host 1 beside the transfers (ARP and ICMP in the capture).
 *
 * For labs, losses and failures can be placed exactly: --failRegistrations=N
 * makes host 1's first N registrations fail and every later one succeed
 * (instead of --frp's coin), and --dropAtResponder / --dropAtInitiator drop
 * the frames an RNIC receives with the numbers given (0-based, in arrival
 * order), with ns-3's ReceiveListErrorModel: a write's responder receives the
 * REQ (0), then the data frames and the REL; its initiator the REQ_ACK (0),
 * then an ACK per data frame and the REL_ACK.
 *
 *     rnic-first --method=traditional
 *     rnic-first --method=dynamic --frp=0.5 --pcap=rnic-first
 *     rnic-first --etherType=0x88B5 --lfp=0.05 --ping=1 --pcap=rnic-first
 *     rnic-first --transfers=1 --failRegistrations=1 --pcap=rnic-first
 *     rnic-first --transfers=1 --frp=0 --dropAtResponder=0
 *     tshark -X lua_script:contrib/drp/wireshark/drp.lua -r rnic-first-0-0.pcap
 *     rnic-first --PrintAttributes=ns3::DrpTransport
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/internet-apps-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <iostream>
#include <list>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("RnicFirst");

/**
 * Prints one finished transfer.
 * \param record what it did
 */
static void
PrintTransfer(const DrpTransferRecord& record)
{
    std::cout << "transfer " << record.index << ": " << record.GetStatusName() << ", "
              << record.GetModeName() << ", " << record.GetDuration().As(Time::US) << ", "
              << record.requests << " request(s), " << record.invalidReplies
              << " invalid reply(ies), " << record.retransmissions << " retransmission(s), "
              << record.timeouts << " timer expiry(ies)" << std::endl;
}

/**
 * \param frames frame numbers to drop (0-based, in arrival order)
 * \return ns-3's ReceiveListErrorModel dropping them
 */
static Ptr<ErrorModel>
DropFrames(const std::list<uint32_t>& frames)
{
    Ptr<ReceiveListErrorModel> model = CreateObject<ReceiveListErrorModel>();
    model->SetList(frames);
    return model;
}

/**
 * Reads an EtherType as C does: 0x01FF, 0x88b5 or decimal 511.
 * \param text the option's value
 * \return the number (checked by RnicHelper::SetEtherType)
 */
static uint32_t
ParseEtherType(const std::string& text)
{
    std::size_t end = 0;
    unsigned long value = 0;
    try
    {
        value = std::stoul(text, &end, 0);
    }
    catch (const std::exception&)
    {
        end = 0;
    }
    if (text.empty() || end != text.size() || text[0] == '-' || text[0] == '+' || value > 0xFFFF)
    {
        throw std::invalid_argument("etherType = \"" + text +
                                    "\" is not a 16-bit number (e.g. 0x01FF or 0x88B5)");
    }
    return static_cast<uint32_t>(value);
}

int
main(int argc, char* argv[])
{
    std::string method = "dynamic";
    double frp = 0.3;
    double lfp = 0.0;
    uint32_t transfers = 5;
    std::string pcap;
    bool ping = false;
    std::string etherType; // empty: RnicNetDevice::EtherType's default, 0x01FF
    uint32_t failRegistrations = 0;
    std::string dropAtResponder;
    std::string dropAtInitiator;
    std::string nic = NicProfile::PAPER;

    CommandLine cmd(__FILE__);
    cmd.AddValue("method", "traditional, dynamic or roce (RoCEv2 over the verbs)", method);
    cmd.AddValue("nic",
                 "the RNICs' NIC profile, the link at its rate: " + NicProfile::GetNamesText() +
                     " (paper-1g: the paper's Gigabit card)",
                 nic);
    // Numbers are read in full (--transfers=5x is an error, not 5 transfers).
    drp::StrictOptions strict;
    strict.AddValue(cmd, "frp", "probability that a memory registration fails (0 to 1)", frp);
    strict.AddValue(cmd,
                    "lfp",
                    "probability that a frame is lost (ns-3 RateErrorModel, 0 to 0.99)",
                    lfp);
    strict.AddValue(cmd, "transfers", "number of 64 KiB writes (1 to 10000)", transfers);
    cmd.AddValue("pcap",
                 "write PREFIX-<node>-<device>.pcap for both RNICs, e.g. --pcap=rnic-first "
                 "(empty: none)",
                 pcap);
    cmd.AddValue("ping", "IPv4 on both RNICs, and pings from host 0 to host 1", ping);
    cmd.AddValue("etherType",
                 "EtherType of DRP frames: 0x01FF (the paper's, the default) or 0x88B5 (IEEE "
                 "802 local experimental)",
                 etherType);
    strict.AddValue(cmd,
                    "failRegistrations",
                    "host 1's first N registrations fail, all later ones succeed (0: --frp "
                    "decides; 0 to 1000)",
                    failRegistrations);
    cmd.AddValue("dropAtResponder",
                 "frames host 1's RNIC drops, by number in arrival order from 0 (e.g. 0: the "
                 "REQ; 0,5)",
                 dropAtResponder);
    cmd.AddValue("dropAtInitiator",
                 "frames host 0's RNIC drops, by number in arrival order from 0 (e.g. 0: the "
                 "first REQ_ACK)",
                 dropAtInitiator);
    std::list<uint32_t> responderDrops;
    std::list<uint32_t> initiatorDrops;
    try
    {
        // ns-3 would end the process on a malformed --ns3::Class::Attribute=value.
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange("frp", frp, 0.0, 1.0);
        drp::RequireInRange("lfp", lfp, 0.0, 0.99);
        drp::RequireInRange<uint32_t>("transfers", transfers, 1, 10000);
        drp::RequireOneOf("method", method, {"traditional", "dynamic", "roce"});
        drp::RequireInRange<uint32_t>("failRegistrations", failRegistrations, 0, 1000);
        responderDrops = drp::ParseFrameList("dropAtResponder", dropAtResponder);
        initiatorDrops = drp::ParseFrameList("dropAtInitiator", dropAtInitiator);
        if (lfp > 0 && (!responderDrops.empty() || !initiatorDrops.empty()))
        {
            std::ostringstream message;
            message << "lfp = " << lfp
                    << " and dropAtResponder/dropAtInitiator both choose the losses; give one "
                       "of them (lfp=0 with a drop list)";
            throw std::invalid_argument(message.str());
        }
        if (!etherType.empty())
        {
            RnicNetDevice::CheckEtherType("etherType", ParseEtherType(etherType));
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    // A value that an attribute's setter refuses (--ns3::RnicNetDevice::EtherType=2054,
    // --ns3::DrpTransport::Window=0) surfaces when the objects are built.
    try
    {
        drp::RequireCapturePrefix("pcap", pcap);
        // Captures with correct IPv4 and ICMP checksums too (and FCSs checked on receipt).
        if (!pcap.empty())
        {
            GlobalValue::Bind("ChecksumEnabled", BooleanValue(true));
        }

        NodeContainer hosts;
        hosts.Create(2);

        // The link: an RNIC at each end of a Gigabit cable.
        RnicHelper rnic;
        rnic.SetProfile(nic); // its port rate is the link's (1 Gbps for the paper's card)
        rnic.SetMethod(method);
        if (!etherType.empty())
        {
            rnic.SetEtherType(static_cast<uint16_t>(ParseEtherType(etherType)));
        }
        rnic.SetTransportAttribute("PayloadSize", UintegerValue(1024));
        NetDeviceContainer devices = rnic.Install(hosts.Get(0), hosts.Get(1));

        // Frame loss comes from an ns-3 error model on each receiving RNIC.
        if (lfp > 0)
        {
            for (uint32_t i = 0; i < devices.GetN(); ++i)
            {
                Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
                loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
                loss->SetAttribute("ErrorRate", DoubleValue(lfp));
                devices.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
            }
        }
        // Or exactly the frames the lab asks for.
        if (!initiatorDrops.empty())
        {
            devices.Get(0)->SetAttribute("ReceiveErrorModel",
                                         PointerValue(DropFrames(initiatorDrops)));
        }
        if (!responderDrops.empty())
        {
            devices.Get(1)->SetAttribute("ReceiveErrorModel",
                                         PointerValue(DropFrames(responderDrops)));
        }

        // The hosts: host 0 writes to host 1; host 1 answers registration requests.
        RdmaHostHelper host;
        host.SetAttribute("RegistrationFailureProbability", DoubleValue(frp));
        host.SetAttribute("TransferSize", UintegerValue(65536));
        host.SetAttribute("Transfers", UintegerValue(transfers));
        ApplicationContainer initiator = host.Install(hosts.Get(0));
        RdmaHostHelper::SetWorkload(initiator.Get(0), devices.Get(1));
        host.SetAttribute("Transfers", UintegerValue(0));
        ApplicationContainer responder = host.Install(hosts.Get(1));
        if (failRegistrations > 0)
        {
            // A draw below RegistrationFailureProbability fails: N draws of 0, then 1s.
            std::vector<double> draws(failRegistrations, 0.0);
            draws.resize(failRegistrations + 4 * transfers + 64, 1.0);
            Ptr<DeterministicRandomVariable> coin = CreateObject<DeterministicRandomVariable>();
            coin->SetValueArray(draws.data(), draws.size());
            responder.Get(0)->SetAttribute("RegistrationFailureProbability", DoubleValue(0.5));
            responder.Get(0)->SetAttribute("RegistrationRandomVariable", PointerValue(coin));
        }

        // Other traffic beside DRP: IPv4 on both RNICs, pings from host 0 to host 1.
        if (ping)
        {
            InternetStackHelper internet;
            internet.Install(hosts);
            Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
            Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
            // 56 data bytes, as ping(8) sends.
            ApplicationContainer pings =
                drp::InstallPing(hosts.Get(0), interfaces.GetAddress(1), MilliSeconds(1), 56);
            // ns-3 delays each ARP request by up to 10 ms (ArpL3Protocol::RequestJitter).
            pings.Start(MicroSeconds(100));
            pings.Stop(MilliSeconds(15));
        }

        initiator.Get(0)->TraceConnectWithoutContext("TransferComplete",
                                                     MakeCallback(&PrintTransfer));
        if (!pcap.empty())
        {
            rnic.EnablePcapAll(pcap);
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        Simulator::Destroy();
        return 1;
    }

    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
