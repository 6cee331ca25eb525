/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Frames as on a real wire: padding of short frames (in the packet and in
// time), the DRP length check with padding, the EtherType attribute and its
// validation, and the FCS.

#include "drp-test-bed.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-transport.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::drptest;

namespace
{

/// EtherType of plain test frames.
constexpr uint16_t TEST_ETHERTYPE = 0x88B6;

/**
 * The CRC-32 of IEEE 802.3, bit by bit (independent of ns-3's table).
 * \param data bytes
 * \param size how many
 * \return the CRC
 */
uint32_t
Crc32(const uint8_t* data, std::size_t size)
{
    uint32_t crc = 0xFFFFFFFF;
    for (std::size_t i = 0; i < size; ++i)
    {
        crc ^= data[i];
        for (int bit = 0; bit < 8; ++bit)
        {
            crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320 : crc >> 1;
        }
    }
    return ~crc;
}

/**
 * \param p a packet
 * \return its bytes
 */
std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/**
 * \param frame a whole frame, header to FCS
 * \return true if its last four bytes are the little-endian CRC-32 of the rest
 *         (the order in which Ethernet sends the FCS)
 */
bool
HasCorrectFcs(const std::vector<uint8_t>& frame)
{
    if (frame.size() < 4)
    {
        return false;
    }
    const std::size_t n = frame.size() - 4;
    const uint32_t crc = Crc32(frame.data(), n);
    return frame[n] == (crc & 0xFF) && frame[n + 1] == ((crc >> 8) & 0xFF) &&
           frame[n + 2] == ((crc >> 16) & 0xFF) && frame[n + 3] == (crc >> 24);
}

} // namespace

/**
 * \ingroup drp-tests
 * Short payloads are padded with zeros to 46 bytes: the frame on the wire (and
 * in the traces) is 64 bytes, it takes the time of 64 bytes, and the receiver
 * gets the padded payload; longer payloads are untouched.
 */
class DrpWirePaddingTestCase : public TestCase
{
  public:
    DrpWirePaddingTestCase()
        : TestCase("Wire: short frames padded to 64 bytes, in the packet and in time")
    {
    }

  private:
    /// A frame the receiver handed up.
    struct Arrival
    {
        Time at;                    //!< when
        std::vector<uint8_t> bytes; //!< the payload it handed up
    };

    void DoRun() override
    {
        const std::vector<uint32_t> sizes{0, 1, 28, 45, 46, 47, 1000};
        NodeContainer nodes;
        nodes.Create(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        NetDeviceContainer devs = eth.Install(nodes);
        Ptr<EthernetNetDevice> a = DynamicCast<EthernetNetDevice>(devs.Get(0));
        Ptr<EthernetNetDevice> b = DynamicCast<EthernetNetDevice>(devs.Get(1));

        std::vector<std::vector<uint8_t>> sent;
        a->TraceConnectWithoutContext(
            "PhyTxBegin",
            drp::FunctorCallback<void, Ptr<const Packet>>(
                [&sent](Ptr<const Packet> f) { sent.push_back(Bytes(f)); }));
        std::vector<Arrival> arrivals;
        b->SetReceiveCallback(
            drp::FunctorCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
                [&arrivals](Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&) {
                    arrivals.push_back({Simulator::Now(), Bytes(p)});
                    return true;
                }));
        // One frame at a time, 1 ms apart, each with 0xA5 payload bytes.
        for (std::size_t i = 0; i < sizes.size(); ++i)
        {
            const uint32_t size = sizes[i];
            const Address dest = b->GetAddress();
            drp::ScheduleWithContext(a->GetNode()->GetId(), MilliSeconds(i), [a, size, dest]() {
                std::vector<uint8_t> payload(size, 0xA5);
                a->Send(Create<Packet>(payload.data(), payload.size()), dest, TEST_ETHERTYPE);
            });
        }
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(sent.size(), sizes.size(), "every frame sent");
        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), sizes.size(), "every frame received");
        for (std::size_t i = 0; i < sizes.size(); ++i)
        {
            const uint32_t payload = std::max(sizes[i], EthernetNetDevice::MIN_PAYLOAD_SIZE);
            NS_TEST_EXPECT_MSG_EQ(sent[i].size(),
                                  14 + payload + 4,
                                  "frame of payload " << sizes[i]);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(sent[i].size(),
                                        EthernetNetDevice::MIN_FRAME_SIZE,
                                        "never below the minimum");
            NS_TEST_EXPECT_MSG_EQ(arrivals[i].bytes.size(), payload, "handed up with the padding");
            uint32_t wrong = 0;
            for (std::size_t k = 0; k < payload; ++k)
            {
                const uint8_t expected = k < sizes[i] ? 0xA5 : 0x00;
                wrong += sent[i][14 + k] != expected;
                wrong += arrivals[i].bytes[k] != expected;
            }
            NS_TEST_EXPECT_MSG_EQ(wrong, 0, "payload then zero padding, payload " << sizes[i]);
            // The last bit arrives (preamble 8 + frame) byte times after the first, 8 ns each.
            const Time expected = MilliSeconds(i) + NanoSeconds((8 + 14 + payload + 4) * 8);
            NS_TEST_EXPECT_MSG_EQ(arrivals[i].at,
                                  expected,
                                  "time on the wire, payload " << sizes[i]);
            NS_TEST_EXPECT_MSG_EQ(a->GetWireSize(sent[i].size()),
                                  8 + 14 + payload + 4 + 12,
                                  "wire size, payload " << sizes[i]);
        }
    }
};

/**
 * \ingroup drp-tests
 * DrpTransport's length check: exact lengths pass, Ethernet padding up to the
 * 46-byte minimum passes, anything else is BAD_LENGTH.
 */
class DrpWireLengthRuleTestCase : public TestCase
{
  public:
    DrpWireLengthRuleTestCase()
        : TestCase("Wire: the DRP length check accepts Ethernet padding, nothing else")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            uint8_t ctrl;    //!< CTRL
            uint32_t len;    //!< LEN
            uint32_t after;  //!< bytes after the header
            int32_t padding; //!< GetPadding's answer
        };

        const std::vector<Case> cases{
            {DrpHeader::REQ, 65536, 0, 0},     // unpadded control frame
            {DrpHeader::REQ, 65536, 14, 14},   // padded to 46
            {DrpHeader::REQ, 65536, 13, -1},   // neither
            {DrpHeader::REQ, 65536, 15, -1},   // more than padding
            {DrpHeader::ACK, 0, 14, 14},       // a padded pure ACK
            {DrpHeader::REL, 0, 20, -1},       // a control frame with a payload
            {DrpHeader::DATA, 1024, 1024, 0},  // a full data frame
            {DrpHeader::DATA, 1024, 1023, -1}, // one byte short
            {DrpHeader::DATA, 4, 4, 0},        // short payload, unpadded
            {DrpHeader::DATA, 4, 14, 10},      // short payload, padded
            {DrpHeader::DATA, 4, 13, -1},      // neither
            {DrpHeader::DATA, 13, 14, 1},      // one byte of padding
            {DrpHeader::DATA, 14, 14, 0},      // exactly the minimum: no padding
            {DrpHeader::DATA, 15, 14, -1},     // LEN above what came
            {DrpHeader::DATA, 0, 14, -1},      // LEN 0 is never valid
            {DrpHeader::DATA, 0, 0, -1},       // LEN 0 is never valid
        };
        for (const auto& c : cases)
        {
            DrpHeader h;
            h.SetControl(c.ctrl);
            h.SetLength(c.len);
            NS_TEST_EXPECT_MSG_EQ(DrpTransport::GetPadding(h, c.after),
                                  c.padding,
                                  "CTRL 0x" << std::hex << int(c.ctrl) << std::dec << " LEN "
                                            << c.len << ", " << c.after
                                            << " bytes after the header");
        }
    }
};

/**
 * \ingroup drp-tests
 * Hand-made frames through real ports: short frames arrive padded and pass
 * the length check (dropped, if at all, for what they say); frames with bytes
 * that no padding explains are counted BAD_LENGTH; honest transfers, whose
 * control frames are all padded, succeed.
 */
class DrpWireLengthCheckTestCase : public TestCase
{
  public:
    DrpWireLengthCheckTestCase()
        : TestCase("Wire: padded DRP frames pass the length check, others are BAD_LENGTH")
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod("traditional");
        PointToPointBed bed(rnic, MakeWorkload(2, 8192));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        std::vector<uint32_t> seenAtB;
        b->GetTransport()->TraceConnectWithoutContext(
            "Rx",
            drp::FunctorCallback<void, Ptr<const Packet>>(
                [&seenAtB](Ptr<const Packet> f) { seenAtB.push_back(f->GetSize()); }));

        const uint64_t far = 0x7000000000ULL;
        // Padded on the way, dropped for what they say (no such transfer).
        SendFrameAt(MilliSeconds(5), a, b, MakeDrpFrame(DrpHeader::REL, 999, 0, 0, 0));
        SendFrameAt(MilliSeconds(6), a, b, MakeDrpFrame(DrpHeader::REL_ACK, 998, 0, 0, 0));
        // Bytes that no padding explains.
        SendFrameAt(MilliSeconds(7), a, b, MakeDrpFrame(DrpHeader::REL, 997, 0, 0, 20));
        SendFrameAt(MilliSeconds(8), a, b, MakeDrpFrame(DrpHeader::DATA, 996, far, 4, 20));
        bed.Run();

        NS_TEST_EXPECT_MSG_EQ(bed.Records().size(), 2, "both transfers ended");
        for (const auto& r : bed.Records())
        {
            NS_TEST_EXPECT_MSG_EQ(r.GetStatusName(), "success", "transfer " << r.index);
        }
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "bytes identical");
        Ptr<DrpTransport> tb = b->GetTransport();
        NS_TEST_EXPECT_MSG_EQ(tb->GetDropCount(DrpTransport::BAD_LENGTH), 2, "BAD_LENGTH");
        NS_TEST_EXPECT_MSG_EQ(tb->GetDropCount(DrpTransport::MALFORMED), 0, "MALFORMED");
        NS_TEST_EXPECT_MSG_EQ(tb->GetDropCount(DrpTransport::UNKNOWN_TID), 2, "UNKNOWN_TID");
        NS_TEST_EXPECT_MSG_EQ(a->GetTransport()->GetDropCount(DrpTransport::BAD_LENGTH),
                              0,
                              "no honest frame is BAD_LENGTH");
        uint32_t shorter = 0;
        for (uint32_t size : seenAtB)
        {
            shorter += size < EthernetNetDevice::MIN_PAYLOAD_SIZE;
        }
        NS_TEST_EXPECT_MSG_EQ(shorter, 0, "every DRP frame arrives with at least 46 bytes");
    }
};

/**
 * \ingroup drp-tests
 * RnicNetDevice::EtherType: 0x01FF by default; a transfer over 0x88B5 puts
 * that type on every DRP frame and succeeds; invalid values are refused with
 * a message naming the value and the valid range.
 */
class DrpWireEtherTypeTestCase : public TestCase
{
  public:
    DrpWireEtherTypeTestCase()
        : TestCase("Wire: the EtherType attribute, its use and its validation")
    {
    }

  private:
    /**
     * \param set how to set the value
     * \param value the value
     * \param expected text the message must contain
     */
    void ExpectRefused(const std::function<void()>& set,
                       const std::string& value,
                       const std::string& expected)
    {
        std::string message;
        try
        {
            set();
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find(expected), std::string::npos, value << ": " << message);
        NS_TEST_EXPECT_MSG_NE(message.find("0x0101-0x01FF or 0x0600-0xFFFF"),
                              std::string::npos,
                              value << ": the valid range in " << message);
    }

    void DoRun() override
    {
        Ptr<RnicNetDevice> probe = CreateObject<RnicNetDevice>();
        UintegerValue value;
        probe->GetAttribute("EtherType", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 0x01FF, "the paper's EtherType by default");
        NS_TEST_EXPECT_MSG_EQ(probe->GetEtherType(), DrpHeader::PROT_NUMBER, "default");
        probe->SetAttribute("EtherType", UintegerValue(0x88B5));
        NS_TEST_EXPECT_MSG_EQ(probe->GetEtherType(), 0x88B5, "set through the attribute");

        for (uint32_t valid : {0x0101u, 0x01FFu, 0x0600u, 0x88B5u, 0xFFFFu})
        {
            NS_TEST_EXPECT_MSG_EQ(RnicNetDevice::IsValidEtherType(valid), true, valid);
        }
        for (uint32_t invalid :
             {0x0000u, 0x0100u, 0x0200u, 0x05FFu, 0x0800u, 0x0806u, 0x86DDu, 0x10000u})
        {
            NS_TEST_EXPECT_MSG_EQ(RnicNetDevice::IsValidEtherType(invalid), false, invalid);
        }
        ExpectRefused([probe]() { probe->SetAttribute("EtherType", UintegerValue(0x0800)); },
                      "0x0800",
                      "RnicNetDevice::EtherType = 0x0800 (2048)");
        ExpectRefused([probe]() { probe->SetAttribute("EtherType", UintegerValue(0x10000)); },
                      "0x10000",
                      "RnicNetDevice::EtherType = 0x10000 (65536)");
        ExpectRefused([probe]() { probe->SetAttribute("EtherType", UintegerValue(1500)); },
                      "1500",
                      "RnicNetDevice::EtherType = 0x05DC (1500)");
        ExpectRefused(
            []() {
                RnicHelper helper;
                helper.SetEtherType(0x0806);
            },
            "helper 0x0806",
            "RnicHelper::SetEtherType = 0x0806 (2054)");
        NS_TEST_EXPECT_MSG_EQ(probe->GetEtherType(), 0x88B5, "unchanged by refused values");
        probe->Dispose();

        // A default set through Config holds unless the helper is told otherwise.
        Config::SetDefault("ns3::RnicNetDevice::EtherType", UintegerValue(0x88B5));
        {
            RnicHelper plain;
            NS_TEST_EXPECT_MSG_EQ(plain.GetEtherType(), 0x88B5, "the attribute's default");
            NodeContainer nodes;
            nodes.Create(2);
            NetDeviceContainer made = plain.Install(nodes.Get(0), nodes.Get(1));
            NS_TEST_EXPECT_MSG_EQ(DynamicCast<RnicNetDevice>(made.Get(0))->GetEtherType(),
                                  0x88B5,
                                  "the default reaches the RNIC");
            RnicHelper told;
            told.SetEtherType(0x01FF);
            made = told.Install(nodes.Get(0), nodes.Get(1));
            NS_TEST_EXPECT_MSG_EQ(DynamicCast<RnicNetDevice>(made.Get(0))->GetEtherType(),
                                  0x01FF,
                                  "the helper's value wins");
            Simulator::Destroy();
        }
        Config::SetDefault("ns3::RnicNetDevice::EtherType", UintegerValue(DrpHeader::PROT_NUMBER));

        // A transfer over 0x88B5: every DRP frame on the wire carries it.
        RnicHelper rnic;
        rnic.SetEtherType(RnicNetDevice::LOCAL_EXPERIMENTAL_ETHER_TYPE);
        PointToPointBed bed(rnic, MakeWorkload(2, 16384));
        uint32_t frames = 0;
        uint32_t otherType = 0;
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(bed.Rnic(i)->GetEtherType(), 0x88B5, "set by the helper");
            bed.Rnic(i)->TraceConnectWithoutContext("PhyTxBegin",
                                                    drp::FunctorCallback<void, Ptr<const Packet>>(
                                                        [&frames, &otherType](Ptr<const Packet> f) {
                                                            EthernetHeader header(false);
                                                            f->PeekHeader(header);
                                                            ++frames;
                                                            otherType +=
                                                                header.GetLengthType() != 0x88B5;
                                                        }));
        }
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 2, "both transfers ended");
        for (const auto& r : bed.Records())
        {
            NS_TEST_EXPECT_MSG_EQ(r.GetStatusName(), "success", "transfer " << r.index);
        }
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "bytes identical");
        NS_TEST_EXPECT_MSG_GT(frames, 20, "frames sent");
        NS_TEST_EXPECT_MSG_EQ(otherType, 0, "every frame of type 0x88B5");
    }
};

/**
 * \ingroup drp-tests
 * The FCS: zero by default; the CRC-32 of the frame (little-endian, as sent)
 * with ComputeFcs, which EthernetHelper's pcap tracing turns on at both ends
 * of the cable, so the capture holds correct FCSs for frames sent and received.
 */
class DrpWireFcsTestCase : public TestCase
{
  public:
    DrpWireFcsTestCase()
        : TestCase("Wire: the FCS is a correct CRC-32 with ComputeFcs and in captures")
    {
    }

  private:
    /**
     * Sends frames of a few sizes both ways and returns the frames sent.
     * \param pcapFile "" for no capture, else the capture of device 0
     * \param computeFcs the ComputeFcs attribute of both devices
     * \return every frame sent, header to FCS
     */
    std::vector<std::vector<uint8_t>> Exchange(const std::string& pcapFile, bool computeFcs)
    {
        NodeContainer nodes;
        nodes.Create(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("ComputeFcs", BooleanValue(computeFcs));
        NetDeviceContainer devs = eth.Install(nodes);
        if (!pcapFile.empty())
        {
            eth.EnablePcap(pcapFile, devs.Get(0), false, true);
        }
        std::vector<std::vector<uint8_t>> sent;
        for (uint32_t i = 0; i < 2; ++i)
        {
            devs.Get(i)->TraceConnectWithoutContext(
                "PhyTxBegin",
                drp::FunctorCallback<void, Ptr<const Packet>>(
                    [&sent](Ptr<const Packet> f) { sent.push_back(Bytes(f)); }));
            const Address dest = devs.Get(1 - i)->GetAddress();
            Ptr<NetDevice> from = devs.Get(i);
            for (uint32_t size : {0u, 10u, 46u, 333u, 1500u})
            {
                drp::ScheduleWithContext(
                    from->GetNode()->GetId(),
                    MicroSeconds(size + 10 * i),
                    [from, size, dest]() {
                        std::vector<uint8_t> payload(size);
                        for (uint32_t k = 0; k < size; ++k)
                        {
                            payload[k] = uint8_t(k * 7 + size);
                        }
                        from->Send(Create<Packet>(payload.data(), size), dest, TEST_ETHERTYPE);
                    });
            }
        }
        Simulator::Run();
        Simulator::Destroy();
        return sent;
    }

    void DoRun() override
    {
        for (const auto& frame : Exchange("", false))
        {
            const std::size_t n = frame.size() - 4;
            const uint32_t fcs = frame[n] | frame[n + 1] | frame[n + 2] | frame[n + 3];
            NS_TEST_EXPECT_MSG_EQ(fcs, 0, "zero FCS by default");
        }
        std::vector<std::vector<uint8_t>> sent = Exchange("", true);
        NS_TEST_EXPECT_MSG_EQ(sent.size(), 10, "frames sent");
        for (const auto& frame : sent)
        {
            NS_TEST_EXPECT_MSG_EQ(HasCorrectFcs(frame),
                                  true,
                                  "FCS of a " << frame.size() << "-byte frame");
        }

        // A capture: frames sent and received, both with correct FCSs.
        const std::string file = CreateTempDirFilename("drp-wire-fcs.pcap");
        Exchange(file, false);
        const auto captured = drptest::ReadCapture(file);
        NS_TEST_ASSERT_MSG_EQ(captured.has_value(), true, "capture readable");
        uint32_t records = 0;
        uint32_t correct = 0;
        for (const auto& frame : *captured)
        {
            ++records;
            correct += HasCorrectFcs(frame);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(frame.size(), 64, "no frame below 64 bytes in the capture");
        }
        NS_TEST_EXPECT_MSG_EQ(records, 10, "frames sent and received by device 0");
        NS_TEST_EXPECT_MSG_EQ(correct, records, "every FCS in the capture correct");
    }
};

/**
 * \ingroup drp-tests
 * Frames as on a real wire.
 */
class DrpWireTestSuite : public TestSuite
{
  public:
    DrpWireTestSuite()
        : TestSuite("drp-wire", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpWirePaddingTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpWireLengthRuleTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpWireLengthCheckTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpWireEtherTypeTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpWireFcsTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpWireTestSuite g_drpWireTestSuite;
