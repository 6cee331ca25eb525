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

} // namespace

/**
 * \ingroup drp-tests
 * What a profile sets: the paper's card is the defaults, value for value;
 * every profile's values are valid and reach the RNIC's port, PCIe link,
 * transport and indirect buffer; a later setting overrides the profile's;
 * an unknown name is refused with the valid ones.
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
            nodes.Create(2);
            Ptr<RnicNetDevice> rnic =
                DynamicCast<RnicNetDevice>(helper.Install(nodes.Get(0), nodes.Get(1)).Get(0));
            for (const NicProfile::Setting& s : profile.GetSettings())
            {
                NS_TEST_EXPECT_MSG_EQ(s.source.empty(), false, name << ": a source for each");
                StringValue value;
                Part(rnic, s.typeId)->GetAttribute(s.attribute, value);
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
        nodes.Create(2);
        Ptr<RnicNetDevice> rnic =
            DynamicCast<RnicNetDevice>(later.Install(nodes.Get(0), nodes.Get(1)).Get(0));
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
        userNodes.Create(2);
        Ptr<RnicNetDevice> userRnic =
            DynamicCast<RnicNetDevice>(user.Install(userNodes.Get(0), userNodes.Get(1)).Get(0));
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
        NS_TEST_EXPECT_MSG_EQ(NicProfile::GetNamesText(),
                              "paper-1g, 25g-pcie3x8, 100g-pcie3x16, 200g-pcie4x16, 400g-pcie5x16",
                              "the profiles");
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
                               double maxShare)
        : TestCase("a 4 MiB write with " + profile + " at " + rate + ": " +
                   std::to_string(minShare) + " to " + std::to_string(maxShare) +
                   " of the goodput ceiling"),
          m_profile(profile),
          m_rate(rate),
          m_minShare(minShare),
          m_maxShare(maxShare)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetProfile(m_profile);
        rnic.SetDeviceAttribute("DataRate", StringValue(m_rate));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        const uint32_t size = 4 << 20;
        RdmaHostHelper host = drptest::MakeWorkload(1, size);
        ApplicationContainer apps = host.Install(nodes);
        RdmaHostHelper::SetWorkload(apps.Get(0), devices.Get(1));
        apps.Get(1)->SetAttribute("Transfers", UintegerValue(0));

        Ptr<RnicNetDevice> initiator = DynamicCast<RnicNetDevice>(devices.Get(0));
        UintegerValue payload;
        initiator->GetTransport()->GetAttribute("PayloadSize", payload);
        initiator->TraceConnectWithoutContext(
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
    uint32_t m_payload{0};    //!< payload per data frame
    uint64_t m_dataFrames{0}; //!< data frames sent
    Time m_first;             //!< first data frame's start on the wire
    Time m_last;              //!< last data frame's start
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
    }
};

/// The suite's one instance
static DrpProfileTestSuite g_drpProfileTestSuite;
