/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// NIC profiles: the paper's card is exactly the attribute defaults; every
// profile's values reach the RNICs that RnicHelper makes; and a server
// RNIC's profile moves a long write at its port's rate, where the paper's
// card stays at its PCIe limit.

#include "drp-test-bed.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-transport.h"
#include "ns3/indirect-buffer.h"
#include "ns3/nic-profile.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pcie-link.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/strict-options.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

/**
 * \param rnic an RNIC
 * \param typeId the TypeId name of one of its parts
 * \return that part
 */
Ptr<Object>
Part(Ptr<RnicNetDevice> rnic, const std::string& typeId)
{
    if (typeId == "ns3::PcieLink")
    {
        return rnic->GetPcieLink();
    }
    if (typeId == "ns3::DrpTransport")
    {
        return rnic->GetTransport();
    }
    if (typeId == "ns3::IndirectBuffer")
    {
        return rnic->GetTransport()->GetIndirectBuffer();
    }
    return rnic;
}

/**
 * Links two new nodes with RNICs of a helper.
 * \param helper the RNIC helper (profile and settings chosen)
 * \param [out] nodes the two nodes
 * \return the first node's RNIC
 */
Ptr<RnicNetDevice>
InstallPair(RnicHelper& helper, NodeContainer& nodes)
{
    nodes.Create(2);
    return DynamicCast<RnicNetDevice>(helper.Install(nodes.Get(0), nodes.Get(1)).Get(0));
}

} // namespace

/**
 * \ingroup drp-tests
 * What a profile sets: the paper's card is the defaults, value for value;
 * every profile's values are valid and reach the RNIC's port, PCIe link,
 * transport, indirect buffer and device, and the host's application; a later setting overrides the
 * profile's; an unknown name is refused with the valid ones.
 */
class DrpProfileValuesTestCase : public TestCase
{
  public:
    DrpProfileValuesTestCase()
        : TestCase("every profile's values reach the RNIC; the paper's card is the defaults")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(NicProfile::GetNames().front(), NicProfile::PAPER, "paper first");
        for (const NicProfile::Setting& s : NicProfile::Get(NicProfile::PAPER).GetSettings())
        {
            NS_TEST_EXPECT_MSG_EQ(NicProfile::Canonical(s.typeId, s.attribute, s.value),
                                  NicProfile::GetDefault(s.typeId, s.attribute),
                                  "the paper's card is the default of " << s.typeId
                                                                        << "::" << s.attribute);
        }
        for (const std::string& name : NicProfile::GetNames())
        {
            const NicProfile& profile = NicProfile::Get(name);
            NS_TEST_EXPECT_MSG_EQ(profile.GetValue("ns3::EthernetNetDevice", "DataRate").empty(),
                                  false,
                                  name << " sets its port's rate");
            NS_TEST_EXPECT_MSG_EQ(
                NicProfile::Canonical("ns3::EthernetNetDevice",
                                      "DataRate",
                                      profile.GetValue("ns3::EthernetNetDevice", "DataRate")),
                NicProfile::Canonical("ns3::EthernetNetDevice",
                                      "DataRate",
                                      std::to_string(profile.GetLineRate().GetBitRate()) + "bps"),
                name << ": its line rate is its port's rate");
            RnicHelper helper;
            helper.SetProfile(name);
            NS_TEST_EXPECT_MSG_EQ(helper.GetProfile(), name, "the helper names it");
            NodeContainer nodes;
            Ptr<RnicNetDevice> rnic = InstallPair(helper, nodes);
            RdmaHostHelper hostHelper;
            hostHelper.SetProfile(name);
            Ptr<Application> host = hostHelper.Install(nodes.Get(0)).Get(0);
            for (const NicProfile::Setting& s : profile.GetSettings())
            {
                NS_TEST_EXPECT_MSG_EQ(s.source.empty(), false, name << ": a source for each");
                StringValue value;
                if (s.typeId == "ns3::RdmaHostApplication")
                {
                    host->GetAttribute(s.attribute, value);
                }
                else
                {
                    Part(rnic, s.typeId)->GetAttribute(s.attribute, value);
                }
                NS_TEST_EXPECT_MSG_EQ(NicProfile::Canonical(s.typeId, s.attribute, value.Get()),
                                      NicProfile::Canonical(s.typeId, s.attribute, s.value),
                                      name << " sets " << s.typeId << "::" << s.attribute);
            }
            Simulator::Destroy();
        }

        RnicHelper later;
        later.SetProfile("100g-pcie3x16");
        later.SetTransportAttribute("Window", UintegerValue(7));
        later.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
        NodeContainer nodes;
        Ptr<RnicNetDevice> rnic = InstallPair(later, nodes);
        UintegerValue window;
        rnic->GetTransport()->GetAttribute("Window", window);
        NS_TEST_EXPECT_MSG_EQ(window.Get(), 7, "a later setting overrides the profile's");
        NS_TEST_EXPECT_MSG_EQ(rnic->GetDataRate(), DataRate("40Gbps"), "the port's rate too");
        DataRateValue bandwidth;
        rnic->GetPcieLink()->GetAttribute("Bandwidth", bandwidth);
        NS_TEST_EXPECT_MSG_EQ(bandwidth.Get(),
                              DataRate("126030769231bps"),
                              "the rest of the profile stays");
        Simulator::Destroy();

        // A default the user changed (Config::SetDefault, --ns3::...) wins
        // over the profile; the profile's other values still apply.
        Config::SetDefault("ns3::DrpTransport::Window", UintegerValue(16));
        Config::SetDefault("ns3::PcieLink::DmaSetupTime", StringValue("100ns"));
        RnicHelper user;
        user.SetProfile("400g-pcie5x16");
        NodeContainer userNodes;
        Ptr<RnicNetDevice> userRnic = InstallPair(user, userNodes);
        userRnic->GetTransport()->GetAttribute("Window", window);
        NS_TEST_EXPECT_MSG_EQ(window.Get(), 16, "the user's default Window wins");
        TimeValue setup;
        userRnic->GetPcieLink()->GetAttribute("DmaSetupTime", setup);
        NS_TEST_EXPECT_MSG_EQ(setup.Get(), NanoSeconds(100), "so does the user's set-up time");
        UintegerValue prefetch;
        userRnic->GetTransport()->GetAttribute("TxPrefetch", prefetch);
        NS_TEST_EXPECT_MSG_EQ(prefetch.Get(), 128, "the profile's other values apply");
        Config::Reset();
        Simulator::Destroy();

        // A default the user names wins even at the paper card's value: a
        // --ns3:: option (StrictOptions::CheckArguments notes it) keeps the
        // paper's 48 KiB buffer on a server card; unnamed, the profile's.
        for (bool named : {false, true})
        {
            std::string option = "--ns3::IndirectBuffer::Capacity=49152";
            char program[] = "drp-profile";
            char* argv[] = {program, option.data()};
            Config::SetDefault("ns3::IndirectBuffer::Capacity", UintegerValue(49152));
            if (named)
            {
                drp::StrictOptions::CheckArguments(2, argv);
            }
            RnicHelper card;
            card.SetProfile("100g-pcie3x16");
            NodeContainer cardNodes;
            Ptr<RnicNetDevice> cardRnic = InstallPair(card, cardNodes);
            NS_TEST_EXPECT_MSG_EQ(cardRnic->GetTransport()->GetIndirectBuffer()->GetCapacity(),
                                  named ? 49152 : 4915200,
                                  (named ? "the named default wins" : "the profile's buffer"));
            NicProfile::ForgetUserDefaults();
            Config::Reset();
            Simulator::Destroy();
        }

        std::string message;
        try
        {
            RnicHelper().SetProfile("100g");
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(message,
                              "nic = \"100g\" is not a NIC profile; valid: " +
                                  NicProfile::GetNamesText(),
                              "an unknown profile is refused with the valid names");
        NS_TEST_EXPECT_MSG_EQ(
            NicProfile::GetNamesText(),
            "paper-1g, paper-testbed, 25g-pcie3x8, 100g-pcie3x16, 200g-pcie4x16, 400g-pcie5x16",
            "the profiles");
    }
};

/**
 * \ingroup drp-tests
 * The profile of a rate (what fabric runs take when none is named), and what
 * limits a card: the paper's card at 10 Gb/s its PCIe, a server card its
 * port, a processing time the user set its processing.
 */
class DrpProfileChoiceTestCase : public TestCase
{
  public:
    DrpProfileChoiceTestCase()
        : TestCase("the card of a rate; what limits a card")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cards{
            {"10Mbps", "paper-1g"},
            {"1Gbps", "paper-1g"},
            {"1000000001bps", "25g-pcie3x8"},
            {"10Gbps", "25g-pcie3x8"},
            {"25Gbps", "25g-pcie3x8"},
            {"40Gbps", "100g-pcie3x16"},
            {"100Gbps", "100g-pcie3x16"},
            {"200Gbps", "200g-pcie4x16"},
            {"400Gbps", "400g-pcie5x16"},
            {"800Gbps", "400g-pcie5x16"},
        };
        for (const auto& [rate, card] : cards)
        {
            NS_TEST_EXPECT_MSG_EQ(NicProfile::ForRate(DataRate(rate)).GetName(), card, rate);
            NS_TEST_EXPECT_MSG_EQ(NicProfile::Resolve(NicProfile::AUTO, DataRate(rate)),
                                  card,
                                  "auto at " << rate);
            NS_TEST_EXPECT_MSG_EQ(NicProfile::Resolve("paper-1g", DataRate(rate)),
                                  "paper-1g",
                                  "a name is kept at " << rate);
        }

        std::string resolved;
        try
        {
            NicProfile::Resolve("100g", DataRate("100Gbps"));
        }
        catch (const std::invalid_argument& e)
        {
            resolved = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(
            resolved,
            "nic = \"100g\" is not a NIC profile; valid: " + NicProfile::GetNamesText() +
                " (or auto: the profile of the rate)",
            "where auto is valid, the message says so");

        // Wire bytes of a data frame: payload + 70, padded below 14 bytes.
        NS_TEST_EXPECT_MSG_EQ(NicProfile::GetWireBytes(1024), 1094, "1 KiB");
        NS_TEST_EXPECT_MSG_EQ(NicProfile::GetWireBytes(4096), 4166, "4 KiB");
        NS_TEST_EXPECT_MSG_EQ(NicProfile::GetWireBytes(14), 84, "the least frame");
        NS_TEST_EXPECT_MSG_EQ(NicProfile::GetWireBytes(1), 84, "padded");

        // The paper's card at 10 Gb/s: 1024 bytes per 500 ns + 4 x 280 bytes
        // at 16 Gb/s (560 ns) = 7.7283 Gb/s, below 10 x 1024 / 1094 Gb/s.
        const NicProfile::Limit paper =
            NicProfile::Get(NicProfile::PAPER).GetLimit(DataRate("10Gbps"), 1024);
        NS_TEST_EXPECT_MSG_EQ(paper.cause, "PCIe", "the paper's card at 10 Gb/s");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(paper.rate.GetBitRate()),
                                  1024 * 8 / 1060e-9,
                                  1,
                                  "its rate");
        const NicProfile::Limit server =
            NicProfile::Get("100g-pcie3x16").GetLimit(DataRate("100Gbps"), 4096);
        NS_TEST_EXPECT_MSG_EQ(server.cause, "port", "a server card at its rate");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(server.rate.GetBitRate()),
                                  100e9 * 4096 / 4166,
                                  1,
                                  "the line's goodput ceiling");
        // 100 cycles at 1 GHz per frame: 1024 bytes per 100 ns = 81.92 Gb/s.
        Config::SetDefault("ns3::DrpTransport::TxProcessingCycles", UintegerValue(100));
        const NicProfile::Limit slowed =
            NicProfile::Get("100g-pcie3x16").GetLimit(DataRate("100Gbps"), 1024);
        NS_TEST_EXPECT_MSG_EQ(slowed.cause, "processing", "the user's processing time");
        NS_TEST_EXPECT_MSG_EQ(slowed.rate, DataRate("81.92Gbps"), "its rate");
        Config::Reset();
    }
};

/**
 * \ingroup drp-tests
 * One long write on a point-to-point link at a profile's line rate: the data
 * phase (the initiator's first data frame on the wire to its last) moves at
 * least 95 % of the line's goodput ceiling, payload / (payload + DRP header,
 * Ethernet header and FCS, preamble and SFD, inter-frame gap), with a server
 * RNIC's profile; the paper's card on the same link stays below its PCIe
 * limit (4 TLPs of 256 + 24 bytes at 16 Gb/s and 500 ns of set-up per 1 KiB:
 * 7.73 Gb/s).
 */
class DrpProfileLineRateTestCase : public TestCase
{
  public:
    /**
     * \param profile the NIC profile
     * \param rate the link's rate
     * \param minShare the data phase's least share of the goodput ceiling
     * \param maxShare its greatest
     */
    DrpProfileLineRateTestCase(std::string profile,
                               std::string rate,
                               double minShare,
                               double maxShare,
                               std::string operation = "write",
                               uint32_t payload = 0,
                               uint32_t mtu = 0)
        : TestCase("a 4 MiB " + operation + " with " + profile + " at " + rate +
                   (payload > 0 ? ", payload " + std::to_string(payload) : std::string()) +
                   (mtu > 0 ? ", MTU " + std::to_string(mtu) : std::string()) + ": " +
                   std::to_string(minShare) + " to " + std::to_string(maxShare) +
                   " of the goodput ceiling"),
          m_profile(profile),
          m_rate(rate),
          m_minShare(minShare),
          m_maxShare(maxShare),
          m_operation(operation),
          m_payloadSize(payload),
          m_mtu(mtu)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetProfile(m_profile);
        rnic.SetDeviceAttribute("DataRate", StringValue(m_rate));
        if (m_mtu > 0)
        {
            rnic.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
        }
        if (m_payloadSize > 0)
        {
            rnic.SetTransportAttribute("PayloadSize", UintegerValue(m_payloadSize));
        }
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        const uint32_t size = 4 << 20;
        RdmaHostHelper host = drptest::MakeWorkload(1, size, m_operation);
        ApplicationContainer apps = host.Install(nodes);
        RdmaHostHelper::SetWorkload(apps.Get(0), devices.Get(1));
        apps.Get(1)->SetAttribute("Transfers", UintegerValue(0));

        // The data's sender: the initiator of a write, the responder of a read.
        Ptr<RnicNetDevice> sender =
            DynamicCast<RnicNetDevice>(devices.Get(m_operation == "write" ? 0 : 1));
        UintegerValue payload;
        sender->GetTransport()->GetAttribute("PayloadSize", payload);
        sender->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeCallback(&DrpProfileLineRateTestCase::OnTxBegin, this));
        m_payload = payload.Get();
        Simulator::Run();

        auto app = DynamicCast<RdmaHostApplication>(apps.Get(0));
        NS_TEST_ASSERT_MSG_EQ(app->GetRecords().size(), 1, "one transfer");
        NS_TEST_ASSERT_MSG_EQ(app->GetRecords()[0].GetStatusName(), "success", "it ends well");
        NS_TEST_ASSERT_MSG_EQ(m_dataFrames, (size + m_payload - 1) / m_payload, "every frame once");
        const DataRate line(m_rate);
        // On the wire per data frame: preamble and SFD 8, Ethernet header
        // 14, DRP header 32, payload, FCS 4, inter-frame gap 12.
        const double wire = 8 + 14 + 32 + m_payload + 4 + 12;
        const double ceiling = line.GetBitRate() * m_payload / wire;
        // The last frame's own time on the wire ends the data phase.
        const Time lastFrame = line.CalculateBytesTxTime(wire - 12);
        const double seconds = (m_last + lastFrame - m_first).GetSeconds();
        const double goodput = size * 8.0 / seconds;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(goodput / ceiling,
                                    m_minShare,
                                    m_profile << " at " << m_rate << ": " << goodput / 1e9
                                              << " Gb/s of a ceiling of " << ceiling / 1e9);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(goodput / ceiling,
                                    m_maxShare,
                                    m_profile << " at " << m_rate << ": " << goodput / 1e9
                                              << " Gb/s of a ceiling of " << ceiling / 1e9);
        Simulator::Destroy();
    }

    /// \param packet a frame the initiator starts to send
    void OnTxBegin(Ptr<const Packet> packet)
    {
        if (packet->GetSize() < m_payload)
        {
            return; // handshake, release and acknowledgements
        }
        if (m_dataFrames++ == 0)
        {
            m_first = Simulator::Now();
        }
        m_last = Simulator::Now();
    }

    std::string m_profile;    //!< the NIC profile
    std::string m_rate;       //!< the link's rate
    double m_minShare;        //!< least share of the ceiling
    double m_maxShare;        //!< greatest share
    std::string m_operation;  //!< write or read
    uint32_t m_payloadSize;   //!< PayloadSize to set (0: the profile's)
    uint32_t m_mtu;           //!< Mtu to set (0: the default)
    uint32_t m_payload{0};    //!< payload per data frame
    uint64_t m_dataFrames{0}; //!< data frames sent
    Time m_first;             //!< first data frame's start on the wire
    Time m_last;              //!< last data frame's start
};

/**
 * \ingroup drp-tests
 * One frame through the 100 Gb/s profile, exactly: a 1024-byte write on one
 * 100 Gb/s link takes the sum of the documented parts (drp-fabrics.rst, "Ideal
 * FCT and slowdown"), each written out here from the profile's values.
 */
class DrpProfileOneFrameTestCase : public TestCase
{
  public:
    DrpProfileOneFrameTestCase()
        : TestCase("one 1 KiB write through 100g-pcie3x16 takes the sum of its parts")
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetProfile("100g-pcie3x16");
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        RdmaHostHelper host = drptest::MakeWorkload(1, 1024);
        ApplicationContainer apps = host.Install(nodes);
        RdmaHostHelper::SetWorkload(apps.Get(0), devices.Get(1));
        apps.Get(1)->SetAttribute("Transfers", UintegerValue(0));
        Simulator::Run();
        auto app = DynamicCast<RdmaHostApplication>(apps.Get(0));
        NS_TEST_ASSERT_MSG_EQ(app->GetRecords().size(), 1, "one transfer");
        const DrpTransferRecord& r = app->GetRecords()[0];
        NS_TEST_ASSERT_MSG_EQ(r.GetStatusName(), "success", "it ends well");

        const int64_t pcie = 250;     // PcieLink::Latency, one way
        const int64_t engine = 5;     // 5 cycles at 1 GHz, transmit and receive alike
        const int64_t handler = 2000; // RdmaHostApplication::HandlerLatency
        // Times on a wire or a bus are ns-3's DataRate::CalculateBytesTxTime,
        // whose rounding to the nanosecond differs between releases (5.76 ns
        // is 6 on ns-3.37 and 3.48, 5 on 3.35, which truncates).
        auto wire = [](const char* rate, uint32_t bytes) {
            return DataRate(rate).CalculateBytesTxTime(bytes).GetNanoSeconds();
        };
        // A control frame on the wire: preamble and SFD 8 + 64 bytes at
        // 100 Gb/s = 5.76 ns; no cable delay.
        const int64_t control = wire("100Gbps", 8 + 64);
        const int64_t crossing = engine + control + engine;
        // One page of 4 KiB: RegistrationFixedLatency 8 us + 375 ns.
        const int64_t registration = 8000 + 375;
        NS_TEST_ASSERT_MSG_EQ(
            DynamicCast<RdmaHostApplication>(apps.Get(1))->GetRegistrationTime(r.dba, 1024),
            NanoSeconds(registration),
            "the region spans one page");
        // The payload's TLPs: 4 x (256 + 24) bytes at 126.030769231 Gb/s
        // (PCIe 3.0 x16) = 71.09 ns; no DMA set-up.
        const int64_t tlps = wire("126030769231bps", 4 * (256 + 24));
        // The data frame: 8 + 14 + 32 + 1024 + 4 bytes at 100 Gb/s = 86.56 ns.
        const int64_t data = wire("100Gbps", 8 + 14 + 32 + 1024 + 4);
        const int64_t handshake =
            pcie + crossing + pcie + registration + pcie + crossing + pcie + handler + pcie;
        const int64_t frame = tlps + 2 * pcie + engine + data + engine + tlps + pcie + crossing;
        const int64_t release = crossing + crossing + pcie;
        NS_TEST_EXPECT_MSG_EQ(r.GetDuration().GetNanoSeconds(),
                              handshake + frame + release,
                              "handshake " << handshake << " ns, the frame " << frame
                                           << " ns, the release " << release << " ns");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * NIC profiles.
 */
class DrpProfileTestSuite : public TestSuite
{
  public:
    DrpProfileTestSuite()
        : TestSuite("drp-profile", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpProfileValuesTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpProfileChoiceTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpProfileOneFrameTestCase, DRP_TEST_QUICK);
        // The paper's card: 7.73 Gb/s of PCIe at most, 8.3 % of 100 Gb/s.
        AddTestCase(new DrpProfileLineRateTestCase(NicProfile::PAPER, "100Gbps", 0.07, 0.083),
                    DRP_TEST_QUICK);
        AddTestCase(new DrpProfileLineRateTestCase("25g-pcie3x8", "25Gbps", 0.95, 1.00001),
                    DRP_TEST_QUICK);
        AddTestCase(new DrpProfileLineRateTestCase("100g-pcie3x16", "100Gbps", 0.95, 1.00001),
                    DRP_TEST_QUICK);
        AddTestCase(new DrpProfileLineRateTestCase("200g-pcie4x16", "200Gbps", 0.95, 1.00001),
                    DRP_TEST_QUICK);
        AddTestCase(new DrpProfileLineRateTestCase("400g-pcie5x16", "400Gbps", 0.95, 1.00001),
                    DRP_TEST_QUICK);
        // Reads, 4 KiB payloads in jumbo frames.
        AddTestCase(
            new DrpProfileLineRateTestCase("100g-pcie3x16", "100Gbps", 0.95, 1.00001, "read"),
            DRP_TEST_QUICK);
        for (const char* rate : {"25Gbps", "100Gbps", "400Gbps"})
        {
            const std::string card = NicProfile::ForRate(DataRate(rate)).GetName();
            for (const char* operation : {"write", "read"})
            {
                AddTestCase(new DrpProfileLineRateTestCase(card,
                                                           rate,
                                                           0.95,
                                                           1.00001,
                                                           operation,
                                                           4096,
                                                           9000),
                            DRP_TEST_QUICK);
            }
        }
    }
};

/// The suite's one instance
static DrpProfileTestSuite g_drpProfileTestSuite;
