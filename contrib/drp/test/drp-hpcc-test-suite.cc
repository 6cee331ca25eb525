/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-test-bed.h"

#include "ns3/drp-compat.h"
#include "ns3/drp-ideal-fct.h"
#include "ns3/ecmp-switch-net-device.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-channel.h"
#include "ns3/fabric-scenario.h"
#include "ns3/fabric-workload-helper.h"
#include "ns3/hpcc-config.h"
#include "ns3/hpcc-flow-list.h"
#include "ns3/hpcc-topology-fabric-helper.h"
#include "ns3/hpcc-topology.h"
#include "ns3/pointer.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/system-path.h"
#include "ns3/test.h"

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup drp-tests
 * The files of HPCC's simulator: topology.txt and flow.txt read as that
 * simulator reads them (every refusal with the file, the line and the
 * reason), fabrics built from them with each link's rate, delay and error
 * rate, and runs that write fct.txt, pfc.txt and the queue monitor's file in
 * their published layouts.
 */

using namespace ns3;

namespace
{

/**
 * A leaf-spine of HPCC's shape, with the switches' ids between the hosts'
 * (nodes 0, 1 and 5, 6 hosts; 2, 3 leaves; 4, 7 spines): hosts at 10 Gb/s
 * and 1 us, trunks at 40 Gb/s and 2 us, the link 3 - 7 losing frames with
 * \p errorRate.
 */
std::string
LeafSpineText(const std::string& errorRate = "0")
{
    return "8 4 8\n"
           "2 3 4 7\n"
           "0 2 10Gbps 1000ns 0\n"
           "1 2 10Gbps 1000ns 0.000000\n"
           "5 3 10Gbps 1us 0\n"
           "3 6 10Gbps 0.001ms 0\n"
           "2 4 40Gbps 2us 0\n"
           "2 7 40Gbps 2us 0\n"
           "3 4 40Gbps 2us 0\n"
           "3 7 40Gbps 2us " +
           errorRate + "\n";
}

/**
 * \param path a file
 * \param text what it holds
 */
void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream(path) << text;
}

/**
 * \param path a file
 * \return its lines
 */
std::vector<std::string>
ReadLines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

using drptest::RefusalOf;

} // namespace

/**
 * \ingroup drp-tests
 * A topology file becomes the fabric it describes: node ids, per-link rates,
 * delays and error models, ECMP over the equal-cost paths.
 */
class DrpHpccTopologyTestCase : public TestCase
{
  public:
    DrpHpccTopologyTestCase()
        : TestCase("HPCC files: a topology file's nodes, links, rates, delays and routes")
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = CreateTempDirFilename("topology.txt");
        WriteFile(path, LeafSpineText("0.25"));
        const HpccTopology topology = HpccTopology::Read(path);
        NS_TEST_ASSERT_MSG_EQ(topology.GetNodeCount(), 8, "nodes");
        NS_TEST_EXPECT_MSG_EQ((topology.GetSwitchIds() == std::vector<uint32_t>{2, 3, 4, 7}),
                              true,
                              "switches, as the second line lists them");
        NS_TEST_EXPECT_MSG_EQ((topology.GetHostIds() == std::vector<uint32_t>{0, 1, 5, 6}),
                              true,
                              "hosts, in the order of their links");
        NS_TEST_EXPECT_MSG_EQ(topology.GetLinks().at(3).delay, MicroSeconds(1), "0.001ms");
        NS_TEST_EXPECT_MSG_EQ(topology.GetLinks().at(7).line, 10, "the last link's line");

        RnicHelper rnic;
        EthernetHelper links;
        HpccTopologyFabricHelper fabric(topology, rnic, links);
        NS_TEST_ASSERT_MSG_EQ(fabric.GetHosts().GetN(), 4, "four hosts");
        NS_TEST_ASSERT_MSG_EQ(fabric.GetSwitches().GetN(), 4, "four switches");
        for (uint32_t h = 0; h < 4; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(fabric.GetHostOfNode(fabric.GetHostNodeId(h)), h, "node ids");
            NS_TEST_EXPECT_MSG_EQ(fabric.GetRnic(h)->GetDataRate(),
                                  DataRate("10Gbps"),
                                  "the host link's rate, at the RNIC");
        }
        NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitchNodeId(3), 7, "switch 3 is node 7");
        // Leaf node 2 has its ports in file order: hosts 0 and 1, spines 4 and 7.
        Ptr<EcmpSwitchNetDevice> leaf = fabric.GetSwitch(0);
        NS_TEST_ASSERT_MSG_EQ(leaf->GetNPorts(), 4, "leaf 2's four links");
        NS_TEST_EXPECT_MSG_EQ(leaf->GetPort(1)->GetDataRate(), DataRate("10Gbps"), "host port");
        NS_TEST_EXPECT_MSG_EQ(leaf->GetPort(2)->GetDataRate(), DataRate("40Gbps"), "trunk");
        NS_TEST_EXPECT_MSG_EQ(
            DynamicCast<EthernetChannel>(leaf->GetPort(2)->GetChannel())->GetDelay(),
            MicroSeconds(2),
            "the trunk's delay");
        const Mac48Address far = Mac48Address::ConvertFrom(fabric.GetRnic(2)->GetAddress());
        NS_TEST_EXPECT_MSG_EQ((leaf->GetRoute(far) == std::vector<uint32_t>{2, 3}),
                              true,
                              "both spines: equal-cost next hops");
        NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitchHops(0, 2), 3, "leaf, spine, leaf");
        NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitchHops(0, 1), 1, "one leaf");

        // The lossy link's two ends, and no other port, lose frames.
        Ptr<EcmpSwitchNetDevice> spine7 = fabric.GetSwitch(3);
        PointerValue model;
        spine7->GetPort(1)->GetAttribute("ReceiveErrorModel", model);
        Ptr<RateErrorModel> errors = model.Get<RateErrorModel>();
        NS_TEST_ASSERT_MSG_NE(errors, nullptr, "the link 3 - 7 has an error model");
        NS_TEST_EXPECT_MSG_EQ(errors->GetRate(), 0.25, "its rate");
        NS_TEST_EXPECT_MSG_EQ(errors->GetUnit(), RateErrorModel::ERROR_UNIT_PACKET, "per frame");
        spine7->GetPort(0)->GetAttribute("ReceiveErrorModel", model);
        NS_TEST_EXPECT_MSG_EQ(model.Get<ErrorModel>(), nullptr, "the link 2 - 7 loses nothing");
        NS_TEST_EXPECT_MSG_EQ(fabric.AssignStreams(7), 2, "one stream per lossy device");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * One write across a topology file's links of different rates and delays
 * takes exactly its ideal FCT: the rates and delays are the file's, and the
 * ideal reads them off the path.
 */
class DrpHpccIdealTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpHpccIdealTestCase(const std::string& method)
        : TestCase("HPCC files: a lone write across 10 and 40 Gbps links takes its ideal FCT, " +
                   method),
          m_method(method)
    {
    }

  private:
    void DoRun() override
    {
        const std::string path = CreateTempDirFilename("topology.txt");
        WriteFile(path, LeafSpineText());
        const HpccTopology topology = HpccTopology::Read(path);
        for (uint32_t bytes : {1U, 1025U, 300000U})
        {
            RnicHelper rnic;
            rnic.SetMethod(m_method);
            EthernetHelper links;
            HpccTopologyFabricHelper fabric(topology, rnic, links);
            FabricWorkloadHelper workload(fabric);
            workload.AddFlow(0, 3, bytes, MicroSeconds(10));
            ApplicationContainer apps = workload.Install(RdmaHostHelper());
            Simulator::Run();
            auto initiator = DynamicCast<RdmaHostApplication>(apps.Get(0));
            NS_TEST_ASSERT_MSG_EQ(initiator->GetRecords().size(), 1, "the write ended");
            const DrpTransferRecord& r = initiator->GetRecords().front();
            NS_TEST_EXPECT_MSG_EQ(r.GetStatusName(), "success", "and succeeded");
            DrpIdealFct ideal(initiator,
                              DynamicCast<RdmaHostApplication>(apps.Get(3)),
                              fabric.GetPath(0, 3),
                              fabric.GetPath(3, 0));
            NS_TEST_EXPECT_MSG_EQ(r.GetDuration().GetNanoSeconds(),
                                  ideal.GetWrite(bytes, r.dba).GetNanoSeconds(),
                                  bytes << " bytes from node 0 to node 6");
            Simulator::Destroy();
        }
    }

    std::string m_method; //!< traditional or dynamic
};

/**
 * \ingroup drp-tests
 * Files that are not HPCC's format, or describe what drp cannot build, are
 * refused with the file, the line and the reason.
 */
class DrpHpccRefusalTestCase : public TestCase
{
  public:
    DrpHpccRefusalTestCase()
        : TestCase("HPCC files: bad topology and flow files are refused with file, line, reason")
    {
    }

  private:
    /**
     * \param read reads the file
     * \param text what the file holds
     * \param expected the message after "PATH:"
     */
    void Expect(const std::function<void(const std::string&)>& read,
                const std::string& text,
                const std::string& expected)
    {
        const std::string path = CreateTempDirFilename("bad.txt");
        WriteFile(path, text);
        NS_TEST_EXPECT_MSG_EQ(RefusalOf([&]() { read(path); }),
                              (expected.empty() ? "" : path + ":" + expected),
                              text);
    }

    void DoRun() override
    {
        auto topology = [](const std::string& path) { HpccTopology::Read(path); };
        const std::string head = "4 2 3\n2 3\n0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n";
        Expect(topology, head + "2 3 10Gbps 1us 0\n", "");
        Expect(
            topology,
            "4 2 4\n2 3\n0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n2 3 10Gbps 1us 0\n3 2 1Gbps 1us 0\n",
            "6: the link 3 - 2 is named twice");
        Expect(topology,
               "4 2 3\n2 3\n0 2 10Gbps 1us 0\n1 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n",
               "5: host 1 has a second link (line 4 is its first; drp's hosts have one RNIC "
               "port)");
        Expect(topology,
               head + "2 4 10Gbps 1us 0\n",
               "5: a link's second node \"4\" is not a whole number from 0 to 3");
        Expect(topology,
               "5 2 3\n2 3\n0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n2 3 10Gbps 1us 0\n",
               "1: host 4 has no link");
        Expect(topology,
               "4 2 2\n2 3\n0 2 10Gbps 1us 0\n1 3 10Gbps 1us 0\n",
               "2: switch 3 cannot be reached from switch 2: the switches are not connected");
        Expect(topology,
               head + "2 3 10Gbs 1us 0\n",
               "5: the link's rate \"10Gbs\" is not a data rate from 1bps to 1000Gbps (a number "
               "and a unit: 100Gbps, 25Gbps)");
        Expect(topology,
               head + "2 3 2000Gbps 1us 0\n",
               "5: the link's rate \"2000Gbps\" is not a data rate from 1bps to 1000Gbps (a "
               "number and a unit: 100Gbps, 25Gbps)");
        Expect(topology,
               head + "2 3 10Gbps 2s 0\n",
               "5: the link's delay \"2s\" is not from 0 to +1s");
        Expect(topology,
               head + "2 3 10Gbps 1us 1\n",
               "5: the link's error rate \"1\" is not a number from 0 to 0.999999");
        Expect(topology,
               "4 2 3\n2 3\n0 1 10Gbps 1us 0\n",
               "3: the link 0 - 1 joins two hosts (drp's hosts are linked to switches)");
        Expect(topology, "4 2 3\n2 2\n", "2: switch 2 is named twice");
        Expect(topology,
               head + "2 3 10Gbps 1us 0\n0 3 1Gbps",
               "6: more than the 3 links the "
               "first line announces");
        Expect(topology,
               head + "2 3 10Gbps",
               "5: the file ends where the link's delay should come");
        Expect(topology,
               "4 0 0\n",
               "1: the file names no switch (drp's hosts are linked to "
               "switches)");

        auto flows = [](const std::string& path) { HpccFlowList::Read(path); };
        Expect(flows, "1\n0 1 3 100 1000 2.0\n", "");
        Expect(flows,
               "1\n0 1 8 100 1000 2\n",
               "2: a flow's priority group \"8\" is not a whole "
               "number from 0 to 7");
        Expect(flows,
               "1\n0 1 3 65536 1000 2\n",
               "2: a flow's destination port \"65536\" is not "
               "a whole number from 0 to 65535");
        Expect(flows, "1\n0 1 3 100 0 2\n", "2: a flow's size is 0 (at least 1 byte)");
        Expect(flows,
               "1\n0 1 3 100 1e3 2\n",
               "2: a flow's size \"1e3\" is not a whole number "
               "from 0 to 4294967295");
        Expect(flows,
               "1\n0 1 3 100 1000 -1\n",
               "2: a flow's start time (seconds) \"-1\" is not "
               "a number from 0 to 1000");
        Expect(flows, "1\n1 1 3 100 1000 0\n", "2: the flow goes from node 1 to itself");
        Expect(flows,
               "2\n0 1 3 100 1000 0\n",
               "3: the file ends where a flow's source should "
               "come");
    }
};

/**
 * \ingroup drp-tests
 * A fabric run from a topology file and a flow file: each flow starts when
 * the file says, keeps its id, and comes out in fct.txt's layout; a lossless
 * incast writes pfc.txt's and the queue monitor's layouts.
 */
class DrpHpccScenarioTestCase : public TestCase
{
  public:
    DrpHpccScenarioTestCase()
        : TestCase("HPCC files: a fabric run from them writes fct.txt, pfc.txt and qlen layouts")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.topologyFile = CreateTempDirFilename("topology.txt");
        WriteFile(config.topologyFile, LeafSpineText());
        config.flowFile = CreateTempDirFilename("flow.txt");
        WriteFile(config.flowFile,
                  "4\n"
                  "0 6 3 100 100000 0.000002\n"
                  "1 6 3 200 50000 0\n"
                  "0 5 3 100 1000 0.00001\n"
                  "6 0 3 7 1 0.001\n");
        config.fctFile = CreateTempDirFilename("fct.txt");
        const FabricScenario::Result result = FabricScenario::Run(config);
        NS_TEST_ASSERT_MSG_EQ(result.hosts, 4, "the file's hosts");
        NS_TEST_ASSERT_MSG_EQ(result.transfers.size(), 4, "every flow ended");
        NS_TEST_EXPECT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 4, "and succeeded");
        NS_TEST_EXPECT_MSG_EQ(result.config.GetHostRate(), DataRate("10Gbps"), "the file's rate");

        // fct.txt, read with its published format.
        const std::vector<std::string> lines = ReadLines(config.fctFile);
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 4, "one line per flow");

        struct Expected
        {
            uint32_t sip, dip, sport, dport, size;
            uint64_t start;
        };

        // Host by host, each host's flows in the order they ended (its first
        // flow, port 10000, ends after its second).
        const std::vector<Expected> expected{{0x0b000001, 0x0b000501, 10001, 100, 1000, 10000},
                                             {0x0b000001, 0x0b000601, 10000, 100, 100000, 2000},
                                             {0x0b000101, 0x0b000601, 10000, 200, 50000, 0},
                                             {0x0b000601, 0x0b000001, 10000, 7, 1, 1000000}};
        for (size_t i = 0; i < lines.size(); ++i)
        {
            unsigned sip = 0;
            unsigned dip = 0;
            unsigned sport = 0;
            unsigned dport = 0;
            unsigned long size = 0;
            unsigned long start = 0;
            unsigned long fct = 0;
            unsigned long ideal = 0;
            NS_TEST_ASSERT_MSG_EQ(std::sscanf(lines[i].c_str(),
                                              "%x %x %u %u %lu %lu %lu %lu",
                                              &sip,
                                              &dip,
                                              &sport,
                                              &dport,
                                              &size,
                                              &start,
                                              &fct,
                                              &ideal),
                                  8,
                                  lines[i]);
            const FabricScenario::Transfer& t = result.transfers[i];
            NS_TEST_EXPECT_MSG_EQ(sip, expected[i].sip, lines[i]);
            NS_TEST_EXPECT_MSG_EQ(dip, expected[i].dip, lines[i]);
            NS_TEST_EXPECT_MSG_EQ(sport, expected[i].sport, lines[i]);
            NS_TEST_EXPECT_MSG_EQ(dport, expected[i].dport, lines[i]);
            NS_TEST_EXPECT_MSG_EQ(size, expected[i].size, lines[i]);
            NS_TEST_EXPECT_MSG_EQ(start, expected[i].start, lines[i]);
            NS_TEST_EXPECT_MSG_EQ(
                fct,
                static_cast<unsigned long>(t.record.GetDuration().GetNanoSeconds()),
                lines[i]);
            NS_TEST_EXPECT_MSG_EQ(ideal,
                                  static_cast<unsigned long>(t.ideal.GetNanoSeconds()),
                                  lines[i]);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(fct, ideal, "no flow beats its ideal");
        }
        // The one-byte flow alone in the fabric at 1 ms: its ideal exactly.
        NS_TEST_EXPECT_MSG_EQ(result.transfers[3].record.GetDuration(),
                              result.transfers[3].ideal,
                              "a lone flow takes its ideal FCT");

        // A lossless incast: pauses and resumes, and the queue monitor.
        config.flowFile = CreateTempDirFilename("incast.txt");
        WriteFile(config.flowFile,
                  "3\n0 6 3 200 1000000 0\n1 6 3 200 1000000 0\n5 6 3 200 1000000 0\n");
        config.lossless = true;
        config.buffer = "300KB";
        config.pfcFile = CreateTempDirFilename("pfc.txt");
        config.queueInterval = MicroSeconds(10);
        config.qlenFile = CreateTempDirFilename("qlen.txt");
        const FabricScenario::Result incast = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(incast.Count(DrpTransferRecord::SUCCESS), 3, "every flow succeeded");
        NS_TEST_EXPECT_MSG_EQ(incast.GetDrops(), 0, "nothing dropped");
        const std::vector<std::string> pfc = ReadLines(config.pfcFile);
        NS_TEST_ASSERT_MSG_EQ(pfc.size(), incast.pfcEvents.size(), "one line per event");
        NS_TEST_ASSERT_MSG_GT(pfc.size(), 0, "the incast paused its senders");
        uint64_t pauses = 0;
        uint64_t resumes = 0;
        uint64_t last = 0;
        for (const std::string& line : pfc)
        {
            unsigned long time = 0;
            unsigned node = 0;
            unsigned type = 0;
            unsigned port = 0;
            unsigned pause = 0;
            unsigned cls = 0;
            NS_TEST_ASSERT_MSG_EQ(std::sscanf(line.c_str(),
                                              "%lu %u %u %u %u %u",
                                              &time,
                                              &node,
                                              &type,
                                              &port,
                                              &pause,
                                              &cls),
                                  6,
                                  line);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(time, last, "in time order");
            last = time;
            NS_TEST_EXPECT_MSG_EQ(cls, 3, "the flows' priority group");
            const bool isSwitch = node == 2 || node == 3 || node == 4 || node == 7;
            // Named first: ns-3.35's macros warn on a conditional operand.
            const uint32_t nodeType = isSwitch ? 1U : 0U;
            const uint32_t lastPort = isSwitch ? 4U : 1U;
            NS_TEST_EXPECT_MSG_EQ(type, nodeType, "node type: " << line);
            NS_TEST_EXPECT_MSG_EQ((port >= 1 && port <= lastPort), true, line);
            (pause == 1 ? pauses : resumes) += 1;
        }
        NS_TEST_EXPECT_MSG_EQ(pauses + resumes, pfc.size(), "pause or resume");
        NS_TEST_EXPECT_MSG_GT(resumes, 0, "and resumed them");
        NS_TEST_EXPECT_MSG_EQ(incast.rnicPausesReceived + incast.GetPausesReceived(),
                              pauses + resumes,
                              "every pause frame's class received, at RNICs and switch ports");

        const std::vector<std::string> qlen = ReadLines(config.qlenFile);
        NS_TEST_ASSERT_MSG_EQ(qlen.size(), 1 + 12, "time, then the 12 switch ports");
        NS_TEST_EXPECT_MSG_EQ(qlen[0],
                              "time: " + std::to_string(incast.queues.back().time.GetNanoSeconds()),
                              "the last sample's time");
        const uint64_t ticks = incast.queues.size() / 12;
        for (size_t i = 1; i < qlen.size(); ++i)
        {
            std::istringstream in(qlen[i]);
            uint64_t node = 0;
            uint64_t port = 0;
            in >> node >> port;
            uint64_t samples = 0;
            for (uint64_t n = 0; in >> n;)
            {
                samples += n;
            }
            NS_TEST_EXPECT_MSG_EQ(samples, ticks, "every sample of " << qlen[i]);
        }
        NS_TEST_EXPECT_MSG_EQ(qlen[3].rfind("2 3 ", 0), 0, "node 2's third port");
    }
};

/**
 * \ingroup drp-tests
 * What the files replace cannot be given beside them, and outputs that
 * would stay empty are refused.
 */
class DrpHpccOptionsTestCase : public TestCase
{
  public:
    DrpHpccOptionsTestCase()
        : TestCase("HPCC files: options they replace, and outputs without content, refused")
    {
    }

  private:
    /// \param config a configuration \param expected Validate()'s message
    void Expect(const FabricScenario::Config& config, const std::string& expected)
    {
        NS_TEST_EXPECT_MSG_EQ(RefusalOf([&]() { config.Validate(); }), expected, "refused");
    }

    void DoRun() override
    {
        const std::string topology = CreateTempDirFilename("topology.txt");
        WriteFile(topology, LeafSpineText());
        FabricScenario::Config config;
        config.topologyFile = topology;
        config.hosts = 4;
        config.fabricRate = DataRate("10Gbps");
        Expect(config,
               "topologyFile = " + topology +
                   " replaces the built-in topologies: leave out hosts, fabricRate");
        config = FabricScenario::Config();
        config.flowFile = topology; // refused as a flow file before its content is read
        config.workload = "poisson";
        Expect(config, "flowFile = " + topology + " replaces the workload: leave out workload");
        config = FabricScenario::Config();
        config.pfcFile = "pfc.txt";
        Expect(config,
               "pfcFile = pfc.txt lists pause frames, which only lossless runs send: it needs "
               "lossless = true");
        config = FabricScenario::Config();
        config.qlenFile = "qlen.txt";
        Expect(config,
               "qlenFile = qlen.txt writes the queue samples: it needs queueInterval above 0");
        config = FabricScenario::Config();
        config.topologyFile = topology;
        const std::string mixed = CreateTempDirFilename("mixed.txt");
        std::string text = LeafSpineText();
        text.replace(text.find("5 3 10Gbps"), 10, "5 3 25Gbps");
        WriteFile(mixed, text);
        config.topologyFile = mixed;
        Expect(config,
               mixed +
                   ":5: a host link at 25Gbps, where line 3 has one at 10Gbps: the RNICs of a "
                   "fabric run share one NIC profile, so the hosts of a topology file share one "
                   "link rate");
    }
};

/**
 * \ingroup drp-tests
 * Flow ids of the built-in workloads, as HPCC's analysis scripts tell them
 * apart: an incast's senders 200, its victims (and every other flow) 100;
 * lossy links of a topology file drop frames, counted as link drops, and the
 * transfers recover.
 */
class DrpHpccIdsAndLossTestCase : public TestCase
{
  public:
    DrpHpccIdsAndLossTestCase()
        : TestCase("HPCC files: flow ids of the built-in workloads; a topology file's lossy link")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 5;
        config.degree = 2;
        config.victims = 1;
        const FabricScenario::Result incast = FabricScenario::Run(config);
        NS_TEST_ASSERT_MSG_EQ(incast.transfers.size(), 3, "two senders and a victim");
        for (const auto& t : incast.transfers)
        {
            NS_TEST_EXPECT_MSG_EQ(t.flowId,
                                  (t.destination == 0 ? 200 : 100),
                                  "host " << t.source << " to " << t.destination);
            NS_TEST_EXPECT_MSG_EQ(t.sourceNode, t.source, "built-in: node id = host index");
        }

        config = FabricScenario::Config();
        config.topologyFile = CreateTempDirFilename("topology.txt");
        std::string text = LeafSpineText();
        text.replace(text.find("3 6 10Gbps 0.001ms 0"), 20, "3 6 10Gbps 0.001ms 0.1");
        WriteFile(config.topologyFile, text);
        config.flowFile = CreateTempDirFilename("flow.txt");
        WriteFile(config.flowFile, "2\n0 6 3 100 200000 0\n1 5 3 100 200000 0\n");
        config.timeoutMode = "adaptive";
        config.ecmpSeed = 1;
        const FabricScenario::Result lossy = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_GT(lossy.GetDropsIn("link"), 0, "the lossy link dropped frames");
        NS_TEST_EXPECT_MSG_EQ(lossy.GetDrops(), 0, "no switch queue did");
        NS_TEST_EXPECT_MSG_EQ(lossy.Count(DrpTransferRecord::SUCCESS), 2, "both recovered");
    }
};

/**
 * \ingroup drp-tests
 * A config.txt of HPCC's shape: each key mapped to drp's option or
 * attribute, the rest noted by name; schemes drp does not have, unknown
 * keys and settings it cannot run refused with the line.
 */
class DrpHpccConfigTestCase : public TestCase
{
  public:
    DrpHpccConfigTestCase()
        : TestCase("HPCC files: config.txt mapped key by key, refused or noted by name")
    {
    }

  private:
    /**
     * \param extra keys beside the files' and DCQCN's
     * \return a config in the layout of HPCC's run.py
     */
    std::string Config(const std::string& extra) const
    {
        return "ENABLE_QCN 1\nUSE_DYNAMIC_PFC_THRESHOLD 0\n\nPACKET_PAYLOAD_SIZE 1000\n\n"
               "TOPOLOGY_FILE " +
               m_topology + "\nFLOW_FILE " + m_flows + "\nFCT_OUTPUT_FILE " + m_fct +
               "\n\nCC_MODE 1\nALPHA_RESUME_INTERVAL 1\nRATE_DECREASE_INTERVAL 4\nRP_TIMER "
               "300\nEWMA_GAIN 0.00390625\nFAST_RECOVERY_TIMES 1\nRATE_AI 5Mb/s\nRATE_HAI "
               "50Mb/s\nMIN_RATE 1000Mb/s\nL2_ACK_INTERVAL 1\nU_TARGET 0.95\n"
               "KMAX_MAP 2 10000000000 400 40000000000 1600\n"
               "KMIN_MAP 2 10000000000 100 40000000000 1600\n"
               "PMAX_MAP 2 10000000000 0.20 40000000000 0.5\nBUFFER_SIZE 2\n" +
               extra;
    }

    /**
     * \param text the config
     * \return what Read() refused it with after "PATH:", or "" if it did not
     */
    std::string Refusal(const std::string& text)
    {
        const std::string path = CreateTempDirFilename("config.txt");
        WriteFile(path, text);
        const std::string message = RefusalOf([&]() { HpccConfig::Read(path); });
        return message.rfind(path + ":", 0) == 0 ? message.substr(path.size() + 1) : message;
    }

    void DoRun() override
    {
        // A config names its files by words: a folder without spaces (the test's
        // own folder is named after the test in some ns-3 releases).
        const std::string folder = SystemPath::MakeTemporaryDirectoryName();
        SystemPath::MakeDirectories(folder);
        m_topology = folder + "/topology.txt";
        WriteFile(m_topology, LeafSpineText());
        m_flows = folder + "/flow.txt";
        WriteFile(m_flows, "2\n0 6 3 100 20000 0\n5 1 3 100 20000 0.000001\n");
        m_fct = folder + "/fct.txt";
        const std::string path = CreateTempDirFilename("config.txt");
        WriteFile(path, Config("ACK_HIGH_PRIO 1\nHAS_WIN 1\n"));
        const HpccConfig hpcc = HpccConfig::Read(path);
        const FabricScenario::Config& c = hpcc.GetFabricConfig();
        NS_TEST_EXPECT_MSG_EQ(c.lossless, true, "HPCC's fabric is lossless");
        NS_TEST_EXPECT_MSG_EQ(c.ecn, true, "ENABLE_QCN");
        NS_TEST_EXPECT_MSG_EQ(c.threshold, "static", "USE_DYNAMIC_PFC_THRESHOLD 0");
        NS_TEST_EXPECT_MSG_EQ(c.payload, 1000, "PACKET_PAYLOAD_SIZE");
        NS_TEST_EXPECT_MSG_EQ(c.cc, "dcqcn", "CC_MODE 1");
        NS_TEST_EXPECT_MSG_EQ(c.buffer, "2097152B", "BUFFER_SIZE, MB of 2^20 bytes");
        NS_TEST_EXPECT_MSG_EQ(c.ackEvery, 1, "L2_ACK_INTERVAL 1: every frame");
        NS_TEST_EXPECT_MSG_EQ(c.pfcFile, "pfc.txt", "HPCC's default PFC_OUTPUT_FILE");
        NS_TEST_EXPECT_MSG_EQ(c.ecnByRate,
                              "10Gbps:100000B:400000B:0.2,40Gbps:1600000B:1600001B:0.5",
                              "the maps in KB; KMIN = KMAX marks above it, as HPCC's step");
        const std::map<std::string, std::string> defaults{
            {"ns3::DrpDcqcn::AlphaInterval", "1000ns"},
            {"ns3::DrpDcqcn::IncreaseInterval", "300000ns"},
            {"ns3::DrpDcqcn::G", "0.00390625"},
            {"ns3::DrpDcqcn::FastRecoverySteps", "1"},
            {"ns3::DrpDcqcn::RateAi", "5Mbps"},
            {"ns3::DrpDcqcn::RateHai", "50Mbps"},
            {"ns3::DrpDcqcn::MinRate", "1Gbps"},
            {"ns3::DrpDcqcn::ReferenceRate", "0bps"},
            {"ns3::DrpDcqcn::ByteCounter", "0"},
            {"ns3::DrpTransport::CnpInterval", "4000ns"},
            {"ns3::RnicNetDevice::DrpControlClass", "7"}};
        NS_TEST_EXPECT_MSG_EQ((c.defaults == defaults), true, "the attributes the keys set");
        NS_TEST_ASSERT_MSG_EQ(hpcc.GetMappings().size(), 23, "every key, in file order");
        NS_TEST_EXPECT_MSG_EQ(hpcc.GetMappings()[0].drp, "ecn", "ENABLE_QCN");
        std::string notes;
        for (const auto& note : hpcc.GetNotes())
        {
            notes += note.substr(0, note.find(':')) + ";";
        }
        NS_TEST_EXPECT_MSG_EQ(notes,
                              "RATE_DECREASE_INTERVAL (line 12);ACK_HIGH_PRIO (line 25);HAS_WIN "
                              "(line 26);U_TARGET (line 20);",
                              "the keys drp does not follow as HPCC does, named");

        // It runs, and writes fct.txt where FCT_OUTPUT_FILE says.
        FabricScenario::Config run = c;
        run.pfcFile = CreateTempDirFilename("pfc.txt");
        const FabricScenario::Result result = FabricScenario::Run(run);
        NS_TEST_EXPECT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 2, "both flows");
        NS_TEST_EXPECT_MSG_EQ(ReadLines(m_fct).size(), 2, "fct.txt");

        NS_TEST_EXPECT_MSG_EQ(Refusal(Config("")), "", "the base config is valid");
        NS_TEST_EXPECT_MSG_EQ(Refusal(Config("CC_MODE 3\n")),
                              "25: CC_MODE is given twice (line 10 is the first)",
                              "a key twice");
        std::string hpccMode = Config("");
        hpccMode.replace(hpccMode.find("CC_MODE 1"), 9, "CC_MODE 10");
        NS_TEST_EXPECT_MSG_EQ(Refusal(hpccMode),
                              "10: CC_MODE 10 is HPCC-PINT, which drp does not have yet (drp has "
                              "1, DCQCN, 3, HPCC, 7, TIMELY, and 8, DCTCP)",
                              "HPCC-PINT, named");
        hpccMode.replace(hpccMode.find("CC_MODE 10"), 10, "CC_MODE 2");
        NS_TEST_EXPECT_MSG_EQ(Refusal(hpccMode),
                              "10: CC_MODE 2 is no scheme of HPCC's simulator that drp has (1: "
                              "DCQCN, 3: HPCC, 7: TIMELY, 8: DCTCP)",
                              "an unknown scheme");
        // HPCC: U_TARGET, MI_THRESH, FAST_REACT, RATE_AI and MIN_RATE are its own.
        std::string hpccConfig = Config("MI_THRESH 0\nFAST_REACT 0\n");
        hpccConfig.replace(hpccConfig.find("CC_MODE 1"), 9, "CC_MODE 3");
        WriteFile(path, hpccConfig);
        const FabricScenario::Config h = HpccConfig::Read(path).GetFabricConfig();
        NS_TEST_EXPECT_MSG_EQ(h.cc, "hpcc", "CC_MODE 3");
        NS_TEST_EXPECT_MSG_EQ(h.defaults.at("ns3::DrpHpcc::TargetUtilization"), "0.95", "U_TARGET");
        NS_TEST_EXPECT_MSG_EQ(h.defaults.at("ns3::DrpHpcc::MaxStage"), "0", "MI_THRESH");
        NS_TEST_EXPECT_MSG_EQ(h.defaults.at("ns3::DrpHpcc::FastReact"), "false", "FAST_REACT");
        NS_TEST_EXPECT_MSG_EQ(h.defaults.at("ns3::DrpHpcc::RateAi"), "5Mbps", "RATE_AI");
        NS_TEST_EXPECT_MSG_EQ(h.defaults.at("ns3::DrpHpcc::MinRate"), "1Gbps", "MIN_RATE");
        NS_TEST_EXPECT_MSG_EQ(h.defaults.at("ns3::DrpHpcc::ReferenceRate"), "0bps", "absolute");
        // TIMELY: RATE_AI is its step and MIN_RATE its floor, absolute.
        std::string timelyMode = Config("");
        timelyMode.replace(timelyMode.find("CC_MODE 1"), 9, "CC_MODE 7");
        WriteFile(path, timelyMode);
        const HpccConfig timely = HpccConfig::Read(path);
        const FabricScenario::Config& t = timely.GetFabricConfig();
        NS_TEST_EXPECT_MSG_EQ(t.cc, "timely", "CC_MODE 7");
        NS_TEST_EXPECT_MSG_EQ(t.defaults.at("ns3::DrpTimely::AdditiveStep"), "5Mbps", "RATE_AI");
        NS_TEST_EXPECT_MSG_EQ(t.defaults.at("ns3::DrpTimely::MinRate"), "1Gbps", "MIN_RATE");
        NS_TEST_EXPECT_MSG_EQ(t.defaults.at("ns3::DrpTimely::ReferenceRate"), "0bps", "absolute");
        std::string timelyNotes;
        for (const auto& note : timely.GetNotes())
        {
            timelyNotes += note.substr(0, note.find(':')) + ";";
        }
        NS_TEST_EXPECT_MSG_NE(timelyNotes.find("RATE_HAI (line 17);CC_MODE 7;"),
                              std::string::npos,
                              "the hyper step and the update interval noted: " << timelyNotes);
        NS_TEST_EXPECT_MSG_EQ(Refusal(Config("ENABLE_PFC 1\n")),
                              "25: unknown key \"ENABLE_PFC\" (HPCC's simulator would read its "
                              "value as the next key)",
                              "an unknown key");
        NS_TEST_EXPECT_MSG_EQ(Refusal(Config("LINK_DOWN 1000 320 340\n")),
                              "25: LINK_DOWN 1000 320 340: link failures are not modelled (\"0 "
                              "0 0\": none)",
                              "a link failure");
        NS_TEST_EXPECT_MSG_EQ(Refusal(Config("ERROR_RATE_PER_LINK 0.01\n")),
                              "25: ERROR_RATE_PER_LINK above 0 is not supported: give each "
                              "link's error rate in the topology file",
                              "a default error rate");
        std::string noAi = Config("");
        noAi.erase(noAi.find("RATE_AI 5Mb/s\n"), 14);
        NS_TEST_EXPECT_MSG_EQ(Refusal(noAi),
                              "1: CC_MODE 1 (DCQCN) needs RATE_AI and RATE_HAI, as HPCC's "
                              "simulator does",
                              "DCQCN without its steps");
        std::string ackInterval = Config("");
        ackInterval.replace(ackInterval.find("L2_ACK_INTERVAL 1"), 17, "L2_ACK_INTERVAL 1500");
        NS_TEST_EXPECT_MSG_EQ(Refusal(ackInterval),
                              "19: L2_ACK_INTERVAL 1500 bytes is no whole number of frames of "
                              "PACKET_PAYLOAD_SIZE 1000",
                              "an interval of part of a frame");
        std::string missingRate = Config("");
        missingRate.replace(missingRate.find("PMAX_MAP 2"), 10, "PMAX_MAP 1");
        missingRate.replace(missingRate.find(" 40000000000 0.5"), 16, "");
        NS_TEST_EXPECT_MSG_EQ(Refusal(missingRate),
                              "1: PMAX_MAP has no value for 40000000000 bit/s, which another map "
                              "lists (HPCC's simulator needs all three for each port rate)",
                              "a rate without all three thresholds");
        FabricScenario::Config noThresholds = c;
        noThresholds.pfcFile = CreateTempDirFilename("pfc.txt"); // not the working folder's
        noThresholds.ecnByRate = "40Gbps:1600000B:1600001B:0.5";
        NS_TEST_EXPECT_MSG_EQ(RefusalOf([&]() { FabricScenario::Run(noThresholds); }),
                              "ecnByRate = 40Gbps:1600000B:1600001B:0.5 has no thresholds for "
                              "10Gbps, the rate of port 0 of switch node 2: list every switch "
                              "port's rate",
                              "a port rate without thresholds, as HPCC's simulator asserts");
    }

    std::string m_topology; //!< the topology file
    std::string m_flows;    //!< the flow file
    std::string m_fct;      //!< the fct file
};

/**
 * \ingroup drp-tests
 * The files of HPCC's simulator.
 */
class DrpHpccTestSuite : public TestSuite
{
  public:
    DrpHpccTestSuite()
        : TestSuite("drp-hpcc", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpHpccTopologyTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHpccIdealTestCase("traditional"), DRP_TEST_QUICK);
        AddTestCase(new DrpHpccIdealTestCase("dynamic"), DRP_TEST_QUICK);
        AddTestCase(new DrpHpccRefusalTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHpccScenarioTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHpccOptionsTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHpccIdsAndLossTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHpccConfigTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's one instance.
static DrpHpccTestSuite g_drpHpccTestSuite;
