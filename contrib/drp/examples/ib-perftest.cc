/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// perftest's tools on two of drp's RNICs joined by one cable: ib_write_bw,
// ib_write_lat, ib_read_bw, ib_read_lat, ib_send_bw, ib_send_lat and
// ib_atomic_lat, with perftest's options and its report (Gb/s), over the
// traditional or the dynamic method and any NIC profile.
//
//   ./ib-perftest --test=write_bw --size=65536 --iterations=1000
//   ./ib-perftest --test=send_lat --all --method=traditional
//   ./ib-perftest --test=read_bw --qps=4 --bidirectional --nic=100g-pcie3x16
//   ./ib-perftest --test=atomic_lat --atomic=CMP_AND_SWAP --pcap=atomic
//   tshark -X lua_script:contrib/drp/wireshark/drp.lua -r atomic-0-0.pcap

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string test = "write_bw";
    std::string method = "dynamic";
    std::string profile = "paper-1g";
    uint32_t size = 0;
    bool all = false;
    uint32_t iterations = 0;
    uint32_t txDepth = 128;
    uint32_t rxDepth = 512;
    uint32_t qps = 1;
    bool bidirectional = false;
    std::string atomic = "FETCH_AND_ADD";
    std::string pcap;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    strict.AddValue(cmd,
                    "test",
                    "write_bw, write_lat, read_bw, read_lat, send_bw, send_lat or atomic_lat",
                    test);
    strict.AddValue(cmd, "method", "the RNICs' method: traditional, dynamic or roce", method);
    strict.AddValue(cmd, "nic", "the RNICs' NIC profile (NicProfile's names)", profile);
    strict.AddValue(cmd,
                    "size",
                    "-s: bytes per message (1 to 8388608; 0: perftest's default, 65536 for "
                    "bandwidth, 2 for latency)",
                    size);
    cmd.AddValue("all", "-a: every size from 2 bytes to 8 MiB", all);
    strict.AddValue(cmd,
                    "iterations",
                    "-n: messages per size (5 to 10^7; 0: perftest's default, 5000 for "
                    "bandwidth, 1000 for latency)",
                    iterations);
    strict.AddValue(cmd, "txDepth", "-t: requests posted per queue pair (1 to 8192)", txDepth);
    strict.AddValue(cmd, "rxDepth", "-r: SEND's receives posted (1 to 8192)", rxDepth);
    strict.AddValue(cmd, "qps", "-q: queue pairs of a bandwidth test (1 to 64)", qps);
    cmd.AddValue("bidirectional", "-b: both ways at once", bidirectional);
    strict.AddValue(cmd,
                    "atomic",
                    "-A: atomic_lat's operation: FETCH_AND_ADD or CMP_AND_SWAP",
                    atomic);
    cmd.AddValue("pcap", "write PREFIX-<node>-<device>.pcap for both RNICs (empty: none)", pcap);
    RnicHelper rnicHelper;
    Ptr<RdmaPerftest> perftest = CreateObject<RdmaPerftest>();
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        rnicHelper.SetProfile(profile);
        rnicHelper.SetMethod(method);
        const bool latency = test.size() > 4 && test.substr(test.size() - 4) == "_lat";
        perftest->SetTest(test);
        perftest->SetSize(size != 0 ? size : (latency ? 2 : 65536));
        perftest->SetAttribute("AllSizes", BooleanValue(all));
        perftest->SetIterations(iterations != 0 ? iterations : (latency ? 1000 : 5000));
        perftest->SetTxDepth(txDepth);
        perftest->SetRxDepth(rxDepth);
        perftest->SetQps(qps);
        perftest->SetAttribute("Bidirectional", BooleanValue(bidirectional));
        perftest->SetAttribute("Atomic", StringValue(atomic));
        drp::RequireCapturePrefix("pcap", pcap);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devices = rnicHelper.Install(nodes.Get(0), nodes.Get(1));
    if (!pcap.empty())
    {
        rnicHelper.EnablePcapAll(pcap);
    }
    perftest->Setup(DynamicCast<RnicNetDevice>(devices.Get(0)),
                    DynamicCast<RnicNetDevice>(devices.Get(1)));
    Simulator::Run();
    std::cout << " " << test << (method == "roce" ? " over RoCEv2 (" : " over DRP (") << method
              << ", " << profile << ")\n";
    perftest->Print(std::cout);
    const bool ok = perftest->IsDone() && perftest->GetErrors() == 0;
    if (!ok)
    {
        std::cerr << "error: the test stopped: " << perftest->GetErrors()
                  << " requests ended in an error" << std::endl;
    }
    Simulator::Destroy();
    return ok ? 0 : 1;
}
