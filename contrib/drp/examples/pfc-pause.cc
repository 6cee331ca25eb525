/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Priority flow control (IEEE 802.1Qbb) on one Gigabit link: port 0 has
 * frames queued in classes 0 and 3; the owner of port 1 (what a switch's
 * buffer will be) holds class 3 XOFF from --xoff to --xon, so port 1 sends
 * pause frames for class 3 (--quanta each, refreshed at half that time) and
 * a zero-time pause at XON, while class 0 goes on. It prints, per class,
 * what port 0 sent and when it was paused; --pcap=PREFIX writes
 * PREFIX-<node>-<device>.pcap, which Wireshark decodes as MAC Control
 * "Class Based Flow Control [CBFC] Pause" frames.
 *
 *     pfc-pause
 *     pfc-pause --quanta=1000 --xon=500us --pcap=pfc-pause
 *     tshark -V -r pfc-pause-1-0.pcap -Y macc
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <iostream>
#include <map>
#include <string>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("PfcPause");

/// EtherType of the filler data frames: IEEE 802's local experimental EtherType 2
/// (0x88B6), not 1 (0x88B5, which DRP frames may use), so that nothing takes them
/// for DRP frames (the dissector decodes 0x88B5 and 0x01FF as DRP).
static const uint16_t DATA_ETHERTYPE = 0x88B6;

/**
 * Queues frames in a class.
 * \param dev the port
 * \param cls the class (a SocketPriorityTag)
 * \param frames how many
 * \param size payload bytes each
 */
static void
SendFrames(Ptr<NetDevice> dev, uint8_t cls, uint32_t frames, uint32_t size)
{
    for (uint32_t i = 0; i < frames; ++i)
    {
        Ptr<Packet> p = Create<Packet>(size);
        SocketPriorityTag tag;
        tag.SetPriority(cls);
        p->AddPacketTag(tag);
        dev->Send(p, Mac48Address("02:00:00:00:00:02"), DATA_ETHERTYPE);
    }
}

/// Frames port 0 started, per class, and the last start of each.
static std::map<int, std::pair<uint32_t, Time>> g_sent;

/**
 * Counts a frame port 0 starts.
 * \param frame the frame
 */
static void
CountStart(Ptr<const Packet> frame)
{
    SocketPriorityTag tag;
    const int cls = frame->PeekPacketTag(tag) ? tag.GetPriority() : -1;
    g_sent[cls].first += 1;
    g_sent[cls].second = Simulator::Now();
}

/**
 * Prints a pause port 1 sends.
 * \param cls the class
 * \param quanta its time
 */
static void
PrintPause(uint8_t cls, uint16_t quanta)
{
    std::cout << Simulator::Now().As(Time::US) << ": port 1 sends pause, class " << unsigned(cls)
              << ", " << quanta << " quanta" << std::endl;
}

int
main(int argc, char* argv[])
{
    uint32_t quanta = 100;
    Time xoff = MicroSeconds(20);
    Time xon = MicroSeconds(200);
    uint32_t frames = 30;
    std::string pcap;

    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    strict.AddValue(cmd,
                    "quanta",
                    "pause time of each XOFF pause frame, in quanta of 512 bit times (1 to 65535)",
                    quanta);
    strict.AddValue(cmd, "xoff", "when port 1's owner puts class 3 XOFF", xoff);
    strict.AddValue(cmd, "xon", "when it puts class 3 XON again (after xoff)", xon);
    strict.AddValue(cmd,
                    "frames",
                    "1000-byte frames queued in each class at 0 (1 to 10000)",
                    frames);
    cmd.AddValue("pcap",
                 "write PREFIX-<node>-<device>.pcap, e.g. --pcap=pfc-pause (empty: none)",
                 pcap);
    NodeContainer nodes;
    nodes.Create(2);
    EthernetHelper eth;
    NetDeviceContainer devices;
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange<uint32_t>("quanta", quanta, 1, 65535);
        drp::RequireInRange<uint32_t>("frames", frames, 1, 10000);
        drp::RequireInRange("xoff", xoff, Time(0), Seconds(1));
        drp::RequireInRange("xon", xon, xoff, Seconds(1));
        eth.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        eth.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        eth.SetDeviceAttribute("PfcPauseQuanta", UintegerValue(quanta));
        devices = eth.Install(nodes);
        drp::RequireCapturePrefix("pcap", pcap);
        if (!pcap.empty())
        {
            eth.EnablePcapAll(pcap);
        }
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        Simulator::Destroy();
        return 1;
    }
    Ptr<EthernetNetDevice> port0 = DynamicCast<EthernetNetDevice>(devices.Get(0));
    Ptr<EthernetNetDevice> port1 = DynamicCast<EthernetNetDevice>(devices.Get(1));
    port1->SetAddress(Mac48Address("02:00:00:00:00:02"));
    port0->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&CountStart));
    port1->TraceConnectWithoutContext("MacTxPause", MakeCallback(&PrintPause));

    Simulator::ScheduleWithContext(0, Seconds(0), &SendFrames, port0, 0, frames, 1000);
    Simulator::ScheduleWithContext(0, Seconds(0), &SendFrames, port0, 3, frames, 1000);
    Simulator::ScheduleWithContext(1, xoff, &EthernetNetDevice::SetClassPaused, port1, 3, true);
    Simulator::ScheduleWithContext(1, xon, &EthernetNetDevice::SetClassPaused, port1, 3, false);
    Simulator::Run();

    for (uint8_t cls : {0, 3})
    {
        std::cout << "class " << unsigned(cls) << ": " << g_sent[cls].first
                  << " frames sent, the last at " << g_sent[cls].second.As(Time::US) << "; "
                  << port0->GetPausesReceived(cls) << " pause(s) received, paused for "
                  << port0->GetTimePaused(cls).As(Time::US) << std::endl;
    }
    Simulator::Destroy();
    return 0;
}
