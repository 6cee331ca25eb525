/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HeaderSerializationTestCase (ns-3.37 on, drp-compat.h's copy before).
#define DRP_COMPAT_TESTS
#include "ns3/drp-compat.h"
#include "ns3/drp-header.h"
#include "ns3/packet.h"
#include "ns3/test.h"

#include <sstream>

using namespace ns3;

/**
 * \ingroup drp-tests
 * Round trip of every field through the wire format, and its exact layout.
 */
class DrpHeaderRoundTripTestCase : public HeaderSerializationTestCase
{
  public:
    DrpHeaderRoundTripTestCase()
        : HeaderSerializationTestCase("DRP header: round trip and byte layout")
    {
    }

  private:
    void DoRun() override
    {
        DrpHeader h;
        h.SetFlag(DrpHeader::DATA | DrpHeader::INDIRECT);
        h.SetTid(0x1234);
        h.SetSba(0x0102030405060708ULL);
        h.SetDba(0x1112131415161718ULL);
        h.SetLength(1024);
        h.SetSequence(77);
        h.SetAckNumber(5);
        TestHeaderSerialization(h);

        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 32, "DRP header is 32 bytes");
        uint8_t b[32];
        p->CopyData(b, 32);
        const uint8_t ctrl = DrpHeader::DATA | DrpHeader::INDIRECT | DrpHeader::ACK;
        NS_TEST_ASSERT_MSG_EQ(b[0], ctrl, "CTRL");
        NS_TEST_ASSERT_MSG_EQ(b[1], 0, "STATUS");
        NS_TEST_ASSERT_MSG_EQ(b[2], 0x12, "TID high byte first");
        NS_TEST_ASSERT_MSG_EQ(b[3], 0x34, "TID low byte");
        NS_TEST_ASSERT_MSG_EQ(b[4], 0x01, "SBA first byte");
        NS_TEST_ASSERT_MSG_EQ(b[11], 0x08, "SBA last byte");
        NS_TEST_ASSERT_MSG_EQ(b[12], 0x11, "DBA first byte");
        NS_TEST_ASSERT_MSG_EQ(b[19], 0x18, "DBA last byte");
        NS_TEST_ASSERT_MSG_EQ(b[22], 0x04, "LEN 1024");
        NS_TEST_ASSERT_MSG_EQ(b[27], 77, "SN");
        NS_TEST_ASSERT_MSG_EQ(b[31], 5, "ACKN");

        DrpHeader reply;
        reply.SetFlag(DrpHeader::REQ_ACK);
        reply.SetStatus(DrpHeader::INVALID);
        TestHeaderSerialization(reply);
        std::ostringstream os;
        reply.Print(os);
        const std::string text = os.str();
        NS_TEST_ASSERT_MSG_NE(text.find("REQ_ACK"), std::string::npos, text);
        NS_TEST_ASSERT_MSG_NE(text.find("invalid"), std::string::npos, text);
    }
};

/**
 * \ingroup drp-tests
 * Direction and well-formedness, which the receiver uses to reject frames.
 */
class DrpHeaderClassifyTestCase : public TestCase
{
  public:
    DrpHeaderClassifyTestCase()
        : TestCase("DRP header: direction and well-formedness")
    {
    }

  private:
    static DrpHeader Make(uint8_t ctrl)
    {
        DrpHeader h;
        h.SetControl(ctrl);
        return h;
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::REQ).IsFromInitiator(), true, "REQ");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::REQ_ACK).IsFromInitiator(), false, "reply");
        NS_TEST_EXPECT_MSG_EQ(
            Make(DrpHeader::REQ_ACK | DrpHeader::ACK | DrpHeader::READ).IsFromInitiator(),
            true,
            "read confirmation");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::DATA).IsFromInitiator(), true, "write data");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::DATA | DrpHeader::READ).IsFromInitiator(),
                              false,
                              "read data");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::ACK).IsFromInitiator(), false, "write ack");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::ACK | DrpHeader::READ).IsFromInitiator(),
                              true,
                              "read ack");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::REL).IsFromInitiator(), true, "REL");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::REL_ACK).IsFromInitiator(), false, "REL_ACK");

        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::DATA).IsWellFormed(), true, "data");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::ACK).IsWellFormed(), true, "pure ack");
        NS_TEST_EXPECT_MSG_EQ(Make(0).IsWellFormed(), false, "no type");
        NS_TEST_EXPECT_MSG_EQ(Make(DrpHeader::REQ | DrpHeader::DATA).IsWellFormed(),
                              false,
                              "two types");
        DrpHeader badStatus = Make(DrpHeader::REQ_ACK);
        badStatus.SetStatus(7);
        NS_TEST_EXPECT_MSG_EQ(badStatus.IsWellFormed(), false, "unknown status");
        DrpHeader invalid = Make(DrpHeader::REQ_ACK);
        invalid.SetStatus(DrpHeader::INVALID);
        NS_TEST_EXPECT_MSG_EQ(invalid.IsWellFormed(), true, "an invalid reply");
        for (uint8_t ctrl :
             {uint8_t(DrpHeader::ACK), uint8_t(DrpHeader::DATA), uint8_t(DrpHeader::REQ)})
        {
            DrpHeader statusElsewhere = Make(ctrl);
            statusElsewhere.SetStatus(DrpHeader::INVALID);
            NS_TEST_EXPECT_MSG_EQ(statusElsewhere.IsWellFormed(),
                                  false,
                                  "STATUS set outside a reply (CTRL " << int(ctrl) << ")");
        }
    }
};

/**
 * \ingroup drp-tests
 * The DRP header test suite.
 */
class DrpHeaderTestSuite : public TestSuite
{
  public:
    DrpHeaderTestSuite()
        : TestSuite("drp-header", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpHeaderRoundTripTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHeaderClassifyTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpHeaderTestSuite g_drpHeaderTestSuite;
