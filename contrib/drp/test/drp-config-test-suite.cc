/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Invalid configuration fails early with std::invalid_argument, and the
// message names the parameter, the value given and the valid range.

#include "ns3/attribute-defaults.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-scenario.h"
#include "ns3/drp-transport.h"
#include "ns3/indirect-buffer.h"
#include "ns3/mode-policy.h"
#include "ns3/nic-profile.h"
#include "ns3/pcie-link.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/strict-options.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

/**
 * \ingroup drp-tests
 * Common part of the configuration cases: run something that must throw
 * std::invalid_argument and check its message.
 */
class DrpConfigTestCase : public TestCase
{
  public:
    /// \param name the case
    explicit DrpConfigTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Runs \p action, which must throw std::invalid_argument whose what()
     * contains every one of \p parts.
     * \param what the configuration mistake, for the messages
     * \param action the mistake
     * \param parts what the message must name (parameter, value, range)
     */
    void ExpectInvalid(const std::string& what,
                       const std::function<void()>& action,
                       const std::vector<std::string>& parts)
    {
        std::string message;
        bool thrown = false;
        try
        {
            action();
        }
        catch (const std::invalid_argument& e)
        {
            thrown = true;
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, what << ": std::invalid_argument thrown");
        for (const auto& part : parts)
        {
            NS_TEST_EXPECT_MSG_NE(message.find(part),
                                  std::string::npos,
                                  what << ": message \"" << message << "\" names \"" << part
                                       << "\"");
        }
    }
};

/**
 * \ingroup drp-tests
 * The host's failed-registration probability must lie in [0, 1].
 */
class DrpConfigFailureProbabilityTestCase : public DrpConfigTestCase
{
  public:
    DrpConfigFailureProbabilityTestCase()
        : DrpConfigTestCase("RdmaHostApplication::RegistrationFailureProbability in [0, 1]")
    {
    }

  private:
    void DoRun() override
    {
        for (double p : {-0.1, 1.5})
        {
            Ptr<RdmaHostApplication> app = CreateObject<RdmaHostApplication>();
            std::ostringstream value;
            value << p;
            ExpectInvalid(
                "FRP " + value.str(),
                [app, p]() { app->SetAttribute("RegistrationFailureProbability", DoubleValue(p)); },
                {"RegistrationFailureProbability", value.str(), "[0, 1]"});
        }
        Ptr<RdmaHostApplication> app = CreateObject<RdmaHostApplication>();
        for (double p : {0.0, 0.5, 1.0})
        {
            app->SetAttribute("RegistrationFailureProbability", DoubleValue(p)); // valid: no throw
        }
        ExpectInvalid("Concurrency 0",
                      [app]() { app->SetAttribute("Concurrency", UintegerValue(0)); },
                      {"Concurrency", "= 0", "[1, 1024]"});
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * DrpTransport's window, retry limit and timers; the mode policy's expiry
 * count; the PCIe link's TLP payload.
 */
class DrpConfigTransportTestCase : public DrpConfigTestCase
{
  public:
    DrpConfigTransportTestCase()
        : DrpConfigTestCase("DrpTransport, ModePolicy and PcieLink ranges")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DrpTransport> transport = CreateObject<DrpTransport>();

        struct Refused
        {
            std::string name;  //!< an integer attribute
            uint32_t value;    //!< out of its range
            std::string range; //!< as the message gives it
        };

        for (const Refused& r : std::vector<Refused>{{"Window", 0, "[1, 1024]"},
                                                     {"Window", 1025, "[1, 1024]"},
                                                     {"MaxRetries", 0, "[1, 1000]"},
                                                     {"AckEvery", 0, "[1, 65535]"},
                                                     {"AckEvery", 65536, "[1, 65535]"},
                                                     {"TxReadBytes", 65537, "[0, 65536]"}})
        {
            ExpectInvalid(
                r.name + " " + std::to_string(r.value),
                [transport, r]() { transport->SetAttribute(r.name, UintegerValue(r.value)); },
                {r.name, "= " + std::to_string(r.value), r.range});
        }
        ExpectInvalid(
            "HandshakeTimeout 0",
            [transport]() { transport->SetAttribute("HandshakeTimeout", TimeValue(Time(0))); },
            {"HandshakeTimeout", "out of range"});
        ExpectInvalid(
            "RetransmissionTimeout 0",
            [transport]() { transport->SetAttribute("RetransmissionTimeout", TimeValue(Time(0))); },
            {"RetransmissionTimeout = 0s is out of range [+1ns, "});
        ExpectInvalid("RetransmissionTimeout -1ms",
                      [transport]() {
                          transport->SetAttribute("RetransmissionTimeout",
                                                  TimeValue(MilliSeconds(-1)));
                      },
                      {"RetransmissionTimeout = -1ms is out of range [+1ns, "});
        ExpectInvalid("AckDelay 0",
                      [transport]() { transport->SetAttribute("AckDelay", TimeValue(Time(0))); },
                      {"AckDelay = 0s is out of range [+1ns, "});
        Ptr<ModePolicy> policy = CreateObject<ModePolicy>();
        ExpectInvalid(
            "ExpiriesBeforeIndirect 0",
            [policy]() { policy->SetAttribute("ExpiriesBeforeIndirect", UintegerValue(0)); },
            {"ExpiriesBeforeIndirect", "= 0", "[1, 16]"});
        Ptr<PcieLink> pcie = CreateObject<PcieLink>();
        ExpectInvalid("MaxPayloadSize 64",
                      [pcie]() { pcie->SetAttribute("MaxPayloadSize", UintegerValue(64)); },
                      {"MaxPayloadSize", "= 64", "[128, 4096]"});
        ExpectInvalid("method name",
                      []() {
                          RnicHelper rnic;
                          rnic.SetMethod("fastest");
                      },
                      {"method", "fastest", "traditional", "dynamic"});
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * A data frame (32-byte DRP header and PayloadSize) must fit the port's MTU:
 * checked when an RNIC is built, when PayloadSize changes on an installed
 * RNIC, and when the port's MTU is lowered under it.
 */
class DrpConfigPayloadTestCase : public DrpConfigTestCase
{
  public:
    DrpConfigPayloadTestCase()
        : DrpConfigTestCase("PayloadSize must fit the MTU")
    {
    }

  private:
    void DoRun() override
    {
        // MTU 1500 leaves 1468 bytes after the 32-byte DRP header.
        NodeContainer nodes;
        nodes.Create(2);
        ExpectInvalid("RnicHelper with PayloadSize 1500",
                      [nodes]() {
                          RnicHelper rnic;
                          rnic.SetTransportAttribute("PayloadSize", UintegerValue(1500));
                          rnic.Install(nodes.Get(0), nodes.Get(1));
                      },
                      {"PayloadSize", "= 1500", "MTU 1500", "[1, 1468]"});

        RnicHelper rnic;
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        Ptr<RnicNetDevice> device = DynamicCast<RnicNetDevice>(devices.Get(0));
        NS_TEST_ASSERT_MSG_EQ(device->GetMtu(), 1500, "default MTU");
        Ptr<DrpTransport> transport = device->GetTransport();
        transport->SetAttribute("PayloadSize", UintegerValue(1468)); // the largest that fits
        transport->SetAttribute("PayloadSize", UintegerValue(1024));
        ExpectInvalid(
            "installed RNIC, PayloadSize 1500",
            [transport]() { transport->SetAttribute("PayloadSize", UintegerValue(1500)); },
            {"PayloadSize", "= 1500", "MTU 1500", "[1, 1468]"});
        ExpectInvalid("PayloadSize 0",
                      [transport]() { transport->SetAttribute("PayloadSize", UintegerValue(0)); },
                      {"PayloadSize", "= 0", "[1, "});

        Ptr<RnicNetDevice> other = DynamicCast<RnicNetDevice>(devices.Get(1));
        ExpectInvalid("MTU 1000 under PayloadSize 1024",
                      [other]() { other->SetAttribute("Mtu", UintegerValue(1000)); },
                      {"PayloadSize", "= 1024", "MTU 1000", "[1, 968]"});
        Simulator::Destroy();

        // Defaults (Config::SetDefault, --ns3::... on a command line): a
        // PayloadSize default above 1468 meets a jumbo Mtu default, whatever
        // the order in which the RNIC's parts are made; alone it is refused,
        // naming the MTU.
        Config::SetDefault("ns3::DrpTransport::PayloadSize", UintegerValue(4096));
        Config::SetDefault("ns3::EthernetNetDevice::Mtu", UintegerValue(9000));
        Ptr<RnicNetDevice> jumbo = CreateObject<RnicNetDevice>();
        NS_TEST_EXPECT_MSG_EQ(jumbo->GetMtu(), 9000, "the Mtu default");
        NS_TEST_EXPECT_MSG_EQ(jumbo->GetTransport()->GetPayloadSize(),
                              4096,
                              "the PayloadSize default, with it");
        NodeContainer jumboNodes;
        jumboNodes.Create(2);
        RnicHelper().Install(jumboNodes.Get(0), jumboNodes.Get(1));
        Config::SetDefault("ns3::EthernetNetDevice::Mtu", UintegerValue(1500));
        ExpectInvalid(
            "a PayloadSize default of 4096 under the default MTU",
            [&jumboNodes]() { RnicHelper().Install(jumboNodes.Get(0), jumboNodes.Get(1)); },
            {"PayloadSize", "= 4096", "MTU 1500", "[1, 1468]"});
        Config::Reset();
        Simulator::Destroy();

        // A helper's Mtu below the constructor's own transport's PayloadSize
        // (1024) meets the helper's smaller PayloadSize: the device is checked
        // with the transport it keeps.
        RnicHelper small;
        small.SetDeviceAttribute("Mtu", UintegerValue(576));
        small.SetTransportAttribute("PayloadSize", UintegerValue(544));
        NodeContainer smallNodes;
        smallNodes.Create(2);
        NetDeviceContainer smallDevices = small.Install(smallNodes.Get(0), smallNodes.Get(1));
        Ptr<RnicNetDevice> smallRnic = DynamicCast<RnicNetDevice>(smallDevices.Get(0));
        NS_TEST_EXPECT_MSG_EQ(smallRnic->GetMtu(), 576, "the helper's Mtu");
        NS_TEST_EXPECT_MSG_EQ(smallRnic->GetTransport()->GetPayloadSize(),
                              544,
                              "the helper's PayloadSize, with it");
        ExpectInvalid("then a PayloadSize that does not fit it",
                      [smallRnic]() {
                          smallRnic->GetTransport()->SetAttribute("PayloadSize",
                                                                  UintegerValue(545));
                      },
                      {"PayloadSize", "= 545", "MTU 576", "[1, 544]"});
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * A refused change leaves the previous, valid configuration in place, so a
 * caller that catches the exception goes on with a working RNIC (as
 * NetDevice::SetMtu documents for values out of range: no change).
 */
class DrpConfigRefusedChangeTestCase : public DrpConfigTestCase
{
  public:
    DrpConfigRefusedChangeTestCase()
        : DrpConfigTestCase("a refused PayloadSize or MTU change keeps the old value")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        RnicHelper rnic;
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        Ptr<RnicNetDevice> device = DynamicCast<RnicNetDevice>(devices.Get(0));
        Ptr<DrpTransport> transport = device->GetTransport();
        ExpectInvalid(
            "PayloadSize 1500",
            [transport]() { transport->SetAttribute("PayloadSize", UintegerValue(1500)); },
            {"PayloadSize"});
        NS_TEST_EXPECT_MSG_EQ(transport->GetPayloadSize(), 1024, "PayloadSize unchanged");
        ExpectInvalid("MTU 1000",
                      [device]() { device->SetAttribute("Mtu", UintegerValue(1000)); },
                      {"PayloadSize"});
        NS_TEST_EXPECT_MSG_EQ(device->GetMtu(), 1500, "MTU unchanged");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Transfers of zero bytes and an indirect buffer of zero bytes.
 */
class DrpConfigZeroTestCase : public DrpConfigTestCase
{
  public:
    DrpConfigZeroTestCase()
        : DrpConfigTestCase("zero-length transfer, zero-capacity indirect buffer")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RdmaHostApplication> app = CreateObject<RdmaHostApplication>();
        ExpectInvalid("TransferSize 0",
                      [app]() { app->SetAttribute("TransferSize", UintegerValue(0)); },
                      {"TransferSize", "= 0", "[1, 2147483648]"});

        NodeContainer nodes;
        nodes.Create(2);
        RnicHelper rnic;
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        Ptr<DrpTransport> transport = DynamicCast<RnicNetDevice>(devices.Get(0))->GetTransport();
        Mac48Address peer = Mac48Address::ConvertFrom(devices.Get(1)->GetAddress());
        ExpectInvalid("PostTransfer of 0 bytes",
                      [transport, peer]() { transport->PostTransfer(peer, false, 0, 0, 0); },
                      {"length", "= 0", "[1, 4294967295]"});
        NS_TEST_EXPECT_MSG_EQ(transport->GetActiveInitiated(), 0, "no transfer was started");

        Ptr<IndirectBuffer> buffer = CreateObject<IndirectBuffer>();
        ExpectInvalid("Capacity 0",
                      [buffer]() { buffer->SetAttribute("Capacity", UintegerValue(0)); },
                      {"IndirectBuffer::Capacity", "= 0", "[1, 67108864]"});
        ExpectInvalid("RnicHelper with Capacity 0",
                      [nodes]() {
                          RnicHelper dynamic;
                          dynamic.SetMethod("dynamic");
                          dynamic.SetIndirectBufferAttribute("Capacity", UintegerValue(0));
                          dynamic.Install(nodes.Get(0), nodes.Get(1));
                      },
                      {"IndirectBuffer::Capacity", "= 0", "[1, 67108864]"});
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * DrpScenario::Config: Validate() and Run() refuse bad options.
 */
class DrpConfigScenarioTestCase : public DrpConfigTestCase
{
  public:
    DrpConfigScenarioTestCase()
        : DrpConfigTestCase("DrpScenario::Config validation")
    {
    }

  private:
    /**
     * \param change a mistake to make in a valid configuration
     * \return the configuration with the mistake
     */
    static DrpScenario::Config Bad(const std::function<void(DrpScenario::Config&)>& change)
    {
        DrpScenario::Config config;
        change(config);
        return config;
    }

    void DoRun() override
    {
        DrpScenario::Config good;
        good.Validate(); // the defaults are valid: no throw

        struct Mistake
        {
            std::string what;               //!< description
            DrpScenario::Config config;     //!< the configuration
            std::vector<std::string> parts; //!< what the message names
        };

        std::vector<Mistake> mistakes{
            {"method",
             Bad([](auto& c) { c.method = "fastest"; }),
             {"method", "fastest", "dynamic"}},
            {"frp -0.1", Bad([](auto& c) { c.frp = -0.1; }), {"frp", "-0.1", "[0, 1]"}},
            {"frp 1.5", Bad([](auto& c) { c.frp = 1.5; }), {"frp", "1.5", "[0, 1]"}},
            {"lfp 1", Bad([](auto& c) { c.lfp = 1.0; }), {"lfp", "= 1", "[0, 0.99]"}},
            {"lfp -0.5", Bad([](auto& c) { c.lfp = -0.5; }), {"lfp", "-0.5", "[0, 0.99]"}},
            // Attribute defaults that ns-3 itself would end the process on.
            {"defaults: malformed number",
             Bad([](auto& c) { c.defaults["ns3::DrpTransport::Window"] = "x"; }),
             {"ns3::DrpTransport::Window", "\"x\"", "not a number"}},
            {"defaults: malformed time",
             Bad([](auto& c) { c.defaults["ns3::DrpTransport::HandshakeTimeout"] = "2xs"; }),
             {"HandshakeTimeout", "2xs", "not a time"}},
            {"defaults: inherited attribute",
             Bad([](auto& c) { c.defaults["ns3::RnicNetDevice::InterframeGap"] = "8"; }),
             {"ns3::RnicNetDevice::InterframeGap",
              "inherited",
              "ns3::EthernetNetDevice::InterframeGap"}},
            {"defaults: the MTU (a parameter)",
             Bad([](auto& c) { c.defaults["ns3::EthernetNetDevice::Mtu"] = "9000"; }),
             {"ns3::EthernetNetDevice::Mtu", "set by the scenario", "parameter mtu"}},
            {"defaults: unknown attribute",
             Bad([](auto& c) { c.defaults["ns3::Nope::X"] = "1"; }),
             {"ns3::Nope::X", "not an attribute"}},
            // Attribute defaults that the scenario sets itself (and would ignore).
            {"defaults: DataRate",
             Bad([](auto& c) { c.defaults["ns3::EthernetNetDevice::DataRate"] = "10Mbps"; }),
             {"ns3::EthernetNetDevice::DataRate", "set by the scenario", "parameter rate"}},
            {"defaults: DataRate through a subclass",
             Bad([](auto& c) { c.defaults["ns3::RnicNetDevice::DataRate"] = "10Mbps"; }),
             {"ns3::RnicNetDevice::DataRate", "set by the scenario"}},
            {"defaults: PayloadSize",
             Bad([](auto& c) { c.defaults["ns3::DrpTransport::PayloadSize"] = "512"; }),
             {"ns3::DrpTransport::PayloadSize", "set by the scenario", "parameter payload"}},
            {"defaults: TransferSize",
             Bad([](auto& c) { c.defaults["ns3::RdmaHostApplication::TransferSize"] = "4096"; }),
             {"TransferSize", "set by the scenario", "parameter size"}},
            {"defaults: RegistrationFailureProbability",
             Bad([](auto& c) {
                 c.defaults["ns3::RdmaHostApplication::RegistrationFailureProbability"] = "0.5";
             }),
             {"RegistrationFailureProbability", "set by the scenario", "parameter frp"}},
            {"defaults: Transfers",
             Bad([](auto& c) { c.defaults["ns3::RdmaHostApplication::Transfers"] = "5"; }),
             {"Transfers", "set by the scenario", "parameter transfers"}},
            {"defaults: BurstSize",
             Bad([](auto& c) {
                 c.defaults["ns3::BurstErrorModel::BurstSize"] =
                     "ns3::ConstantRandomVariable[Constant=3]";
             }),
             {"BurstSize", "set by the scenario", "parameter meanBurst"}},
            {"payload 0", Bad([](auto& c) { c.payload = 0; }), {"payload", "= 0", "[1, 1468]"}},
            {"payload 1469",
             Bad([](auto& c) { c.payload = 1469; }),
             {"payload", "1469", "[1, 1468]"}},
        };
        for (const auto& m : mistakes)
        {
            ExpectInvalid(
                "Validate(), " + m.what,
                [&m]() { m.config.Validate(); },
                m.parts);
        }
        // Run() validates before it builds anything.
        ExpectInvalid(
            "Run(), frp 1.5",
            [&mistakes]() { DrpScenario::Run(mistakes[2].config); },
            mistakes[2].parts);
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * drp::StrictOptions and drp::ParseStrict(): command-line numbers are read in
 * full, and attribute values are checked before ns-3 could end the process.
 */
class DrpConfigStrictOptionsTestCase : public DrpConfigTestCase
{
  public:
    DrpConfigStrictOptionsTestCase()
        : DrpConfigTestCase("strict command-line options")
    {
    }

  private:
    /**
     * Parses a command line.
     * \param cmd the command line
     * \param arguments its arguments, program name first
     */
    static void Parse(CommandLine& cmd, std::vector<std::string> arguments)
    {
        std::vector<char*> argv;
        for (auto& argument : arguments)
        {
            argv.push_back(argument.data());
        }
        cmd.Parse(static_cast<int>(argv.size()), argv.data());
    }

    /**
     * \param arguments a command line, program name first
     * \return drp::StrictOptions::CheckArguments() of it
     */
    static std::map<std::string, std::string> Check(std::vector<std::string> arguments)
    {
        std::vector<char*> argv;
        for (auto& argument : arguments)
        {
            argv.push_back(argument.data());
        }
        return drp::StrictOptions::CheckArguments(static_cast<int>(argv.size()), argv.data());
    }

    void DoRun() override
    {
        using drp::ParseStrict;
        NS_TEST_EXPECT_MSG_EQ(ParseStrict<uint32_t>("n", "5"), 5, "an integer");
        NS_TEST_EXPECT_MSG_EQ(ParseStrict<uint32_t>("n", "4294967295"), 4294967295u, "the largest");
        for (std::string bad : {"5x", "1e3", "-1", "+5", " 5", "5 ", "", "4294967296", "0x10"})
        {
            ExpectInvalid("integer \"" + bad + "\"",
                          [bad]() { ParseStrict<uint32_t>("transfers", bad); },
                          {"transfers = \"" + bad + "\"", "not an integer", "[0, 4294967295]"});
        }
        NS_TEST_EXPECT_MSG_EQ(ParseStrict<double>("x", "0.1"), 0.1, "a number");
        NS_TEST_EXPECT_MSG_EQ(ParseStrict<double>("x", "1e-3"), 1e-3, "an exponent");
        NS_TEST_EXPECT_MSG_EQ(ParseStrict<double>("x", "-2"), -2, "a sign");
        for (std::string bad : {"0.1abc", "abc", "", " 0.1", "0.1 ", "nan", "inf", "1e999", "1e"})
        {
            ExpectInvalid("number \"" + bad + "\"",
                          [bad]() { ParseStrict<double>("frp", bad); },
                          {"frp = \"" + bad + "\"", "not a number"});
        }
        NS_TEST_EXPECT_MSG_EQ(ParseStrict<Time>("t", "250us"), MicroSeconds(250), "a time");
        NS_TEST_EXPECT_MSG_EQ(ParseStrict<Time>("t", "2"), Seconds(2), "seconds");
        for (std::string bad : {"abc", "1xs", "", "1 ms"})
        {
            ExpectInvalid("time \"" + bad + "\"",
                          [bad]() { ParseStrict<Time>("pingInterval", bad); },
                          {"pingInterval = \"" + bad + "\"", "not a time"});
        }

        // Bound to a command line: what is given is parsed in full, the rest
        // keeps its value exactly.
        uint32_t transfers = 7;
        double frp = 0.123456789;
        double lfp = 0;
        Time interval = MilliSeconds(1);
        {
            CommandLine cmd;
            drp::StrictOptions strict;
            strict.AddValue(cmd, "transfers", "", transfers);
            strict.AddValue(cmd, "frp", "", frp);
            strict.AddValue(cmd, "lfp", "", lfp);
            strict.AddValue(cmd, "pingInterval", "", interval);
            Parse(cmd, {"program", "--lfp=0.25", "--pingInterval=3ms"});
            strict.Apply();
        }
        NS_TEST_EXPECT_MSG_EQ(transfers, 7, "not given: unchanged");
        NS_TEST_EXPECT_MSG_EQ(frp, 0.123456789, "not given: unchanged to the last digit");
        NS_TEST_EXPECT_MSG_EQ(lfp, 0.25, "given");
        NS_TEST_EXPECT_MSG_EQ(interval, MilliSeconds(3), "given");
        for (std::string bad : {"--transfers=5x", "--transfers=1e3", "--frp=0.1abc"})
        {
            CommandLine cmd;
            drp::StrictOptions strict;
            strict.AddValue(cmd, "transfers", "", transfers);
            strict.AddValue(cmd, "frp", "", frp);
            Parse(cmd, {"program", bad});
            std::string value = bad.substr(bad.find('=') + 1);
            ExpectInvalid(bad,
                          [&strict]() { strict.Apply(); },
                          {bad.substr(2, bad.find('=') - 2) + " = \"" + value + "\""});
        }
        NS_TEST_EXPECT_MSG_EQ(transfers, 7, "a refused value changes nothing");

        // Attribute defaults and global values, before CommandLine::Parse()
        // could end the process on them.
        auto given = Check({"program", "--transfers=3", "--ns3::DrpTransport::Window=4"});
        NS_TEST_EXPECT_MSG_EQ(given.size(), 1, "one attribute default");
        NS_TEST_EXPECT_MSG_EQ(given["ns3::DrpTransport::Window"], "4", "its value");
        ExpectInvalid("malformed attribute value",
                      []() {
                          Check({"program", "--ns3::DrpTransport::Window=abc"});
                      },
                      {"ns3::DrpTransport::Window = \"abc\" is not a number"});
        ExpectInvalid("malformed time attribute",
                      []() {
                          Check({"program", "--ns3::DrpTransport::HandshakeTimeout=2xs"});
                      },
                      {"ns3::DrpTransport::HandshakeTimeout = \"2xs\" is not a time"});
        ExpectInvalid("attribute through a subclass",
                      []() {
                          Check({"program", "--ns3::RnicNetDevice::Mtu=1400"});
                      },
                      {"ns3::RnicNetDevice::Mtu is inherited"});
        ExpectInvalid("malformed global value",
                      []() {
                          Check({"program", "--RngRun=abc"});
                      },
                      {"RngRun = \"abc\" is not a number"});
        Check({"program", "--RngRun=3", "--PrintHelp=no"}); // valid, or not a global: no throw
        ExpectInvalid(
            "ns-3's HeapScheduler, which mis-orders removed events",
            []() {
                Check({"program", "--SchedulerType=ns3::HeapScheduler"});
            },
            {"SchedulerType = ns3::HeapScheduler", "ns3::PriorityQueueScheduler (the same order"});
        Check({"program", "--SchedulerType=ns3::PriorityQueueScheduler"});

        // Hexadecimal for integer attributes, as users write EtherTypes: the
        // value ns-3 reads is the decimal form, on the command line too.
        NS_TEST_EXPECT_MSG_EQ(
            drp::NormalizeAttributeValue("ns3::RnicNetDevice::EtherType", "0x88B5"),
            "34997",
            "hexadecimal becomes decimal");
        NS_TEST_EXPECT_MSG_EQ(drp::NormalizeAttributeValue("ns3::DrpTransport::Window", "0X1f"),
                              "31",
                              "either case");
        NS_TEST_EXPECT_MSG_EQ(drp::NormalizeAttributeValue("ns3::PcieLink::Latency", "0x10"),
                              "0x10",
                              "not an integer attribute: as given");
        NS_TEST_EXPECT_MSG_EQ(drp::NormalizeAttributeValue("ns3::DrpTransport::Window", "16"),
                              "16",
                              "decimal: as given");
        std::vector<std::string> arguments{"program", "--ns3::RnicNetDevice::EtherType=0x88B5"};
        std::vector<char*> argv{arguments[0].data(), arguments[1].data()};
        auto hex = drp::StrictOptions::CheckArguments(2, argv.data());
        NS_TEST_EXPECT_MSG_EQ(hex["ns3::RnicNetDevice::EtherType"], "0x88B5", "as given");
        NS_TEST_EXPECT_MSG_EQ(std::string(argv[1]),
                              "--ns3::RnicNetDevice::EtherType=34997",
                              "what CommandLine::Parse() reads");
        CommandLine cmd;
        cmd.Parse(2, argv.data());
        UintegerValue etherType;
        CreateObject<RnicNetDevice>()->GetAttribute("EtherType", etherType);
        NS_TEST_EXPECT_MSG_EQ(etherType.Get(), 0x88B5, "the default is 0x88B5");
        Config::Reset();
        NicProfile::ForgetUserDefaults();
    }
};

/**
 * \ingroup drp-tests
 * Invalid configuration.
 */
class DrpConfigTestSuite : public TestSuite
{
  public:
    DrpConfigTestSuite()
        : TestSuite("drp-config", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpConfigFailureProbabilityTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpConfigTransportTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpConfigPayloadTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpConfigZeroTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpConfigScenarioTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpConfigStrictOptionsTestCase, DRP_TEST_QUICK);
        // Last: the runner stops a suite at its first failing case.
        AddTestCase(new DrpConfigRefusedChangeTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpConfigTestSuite g_drpConfigTestSuite;
