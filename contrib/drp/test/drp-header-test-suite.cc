/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HeaderSerializationTestCase (ns-3.37 on, drp-compat.h's copy before).
#define DRP_COMPAT_TESTS
#include "ns3/drp-compat.h"
#include "ns3/drp-header.h"
#include "ns3/drp-message-header.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-atomic-ack-eth-header.h"
#include "ns3/ib-atomic-eth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-cm-mad-header.h"
#include "ns3/ib-deth-header.h"
#include "ns3/ib-immdt-header.h"
#include "ns3/ib-opcode.h"
#include "ns3/ib-reth-header.h"
#include "ns3/packet.h"
#include "ns3/test.h"

#include <sstream>
#include <vector>

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
 * The ECN field and the congestion notification in STATUS: where they sit
 * on the wire, that they leave the reply code alone, and which frames may
 * carry them.
 */
class DrpHeaderEcnTestCase : public HeaderSerializationTestCase
{
  public:
    DrpHeaderEcnTestCase()
        : HeaderSerializationTestCase("DRP header: ECN field and CNP in STATUS")
    {
    }

  private:
    void DoRun() override
    {
        DrpHeader data;
        data.SetFlag(DrpHeader::DATA);
        NS_TEST_EXPECT_MSG_EQ(data.GetEcn(), DrpHeader::NOT_ECT, "not ECN-capable by default");
        data.SetEcn(DrpHeader::ECT0);
        TestHeaderSerialization(data);
        NS_TEST_EXPECT_MSG_EQ(int(Byte1(data)), 0x80, "ECT(0) is STATUS bits 7-6 = 10");
        data.SetEcn(DrpHeader::CE);
        NS_TEST_EXPECT_MSG_EQ(int(Byte1(data)), 0xc0, "CE is 11");
        data.SetEcn(DrpHeader::ECT1);
        NS_TEST_EXPECT_MSG_EQ(int(Byte1(data)), 0x40, "ECT(1) is 01");
        NS_TEST_EXPECT_MSG_EQ(data.IsWellFormed(), true, "an ECN codepoint on data");

        DrpHeader reply;
        reply.SetFlag(DrpHeader::REQ_ACK);
        reply.SetStatus(DrpHeader::INVALID);
        reply.SetEcn(DrpHeader::CE);
        NS_TEST_EXPECT_MSG_EQ(int(reply.GetReplyStatus()), int(DrpHeader::INVALID), "code kept");
        NS_TEST_EXPECT_MSG_EQ(int(Byte1(reply)), 0xc1, "code and ECN side by side");
        NS_TEST_EXPECT_MSG_EQ(reply.IsWellFormed(), true, "an invalid reply, CE");
        reply.SetEcn(DrpHeader::NOT_ECT);
        NS_TEST_EXPECT_MSG_EQ(int(reply.GetStatus()), int(DrpHeader::INVALID), "ECN cleared");

        DrpHeader ack;
        ack.SetAckNumber(9);
        ack.SetCongestionNotification(true);
        TestHeaderSerialization(ack);
        NS_TEST_EXPECT_MSG_EQ(int(Byte1(ack)), 0x20, "CNP is STATUS bit 5");
        NS_TEST_EXPECT_MSG_EQ(ack.HasCongestionNotification(), true, "CNP read back");
        NS_TEST_EXPECT_MSG_EQ(ack.IsWellFormed(), true, "CNP on a pure ACK");
        DrpHeader cnpWithoutAck;
        cnpWithoutAck.SetFlag(DrpHeader::REL);
        cnpWithoutAck.SetCongestionNotification(true);
        NS_TEST_EXPECT_MSG_EQ(cnpWithoutAck.IsWellFormed(), false, "CNP without ACK");
        for (uint8_t bit = 2; bit <= 4; ++bit)
        {
            DrpHeader reserved;
            reserved.SetFlag(DrpHeader::DATA);
            reserved.SetStatus(1 << bit);
            NS_TEST_EXPECT_MSG_EQ(reserved.IsWellFormed(), false, "reserved bit " << int(bit));
        }
        // STATUS bit 1, INT: on data frames and pure acknowledgements only.
        DrpHeader telemetry;
        telemetry.SetFlag(DrpHeader::DATA);
        telemetry.SetTelemetry(true);
        NS_TEST_EXPECT_MSG_EQ(int(Byte1(telemetry)), 0x02, "INT is STATUS bit 1");
        NS_TEST_EXPECT_MSG_EQ(telemetry.IsWellFormed(), true, "INT on data");
        DrpHeader telemetryAck;
        telemetryAck.SetAckNumber(3);
        telemetryAck.SetTelemetry(true);
        NS_TEST_EXPECT_MSG_EQ(telemetryAck.IsWellFormed(), true, "INT on a pure ACK");
        DrpHeader telemetryReq;
        telemetryReq.SetFlag(DrpHeader::REQ);
        telemetryReq.SetTelemetry(true);
        NS_TEST_EXPECT_MSG_EQ(telemetryReq.IsWellFormed(), false, "INT on a request");
        std::ostringstream os;
        data.SetEcn(DrpHeader::CE);
        data.Print(os);
        NS_TEST_EXPECT_MSG_NE(os.str().find("ecn=CE"), std::string::npos, "Print shows CE");
    }

    /// \param h a header \return its STATUS byte as serialized
    static uint8_t Byte1(const DrpHeader& h)
    {
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        uint8_t b[DrpHeader::SIZE];
        p->CopyData(b, sizeof(b));
        return b[1];
    }
};

/**
 * \ingroup drp-tests
 * InfiniBand's transport headers as RoCEv2 carries them: each one's bytes
 * against the specification's layout, a round trip through the buffer, and
 * the opcode table's sizes.
 */
class DrpHeaderInfinibandTestCase : public HeaderSerializationTestCase
{
  public:
    DrpHeaderInfinibandTestCase()
        : HeaderSerializationTestCase("InfiniBand headers: layout, round trip, the opcode table")
    {
    }

  private:
    /**
     * \param headers a packet of headers
     * \param expected its bytes
     * \param what the check's name
     */
    void ExpectBytes(Ptr<Packet> headers,
                     const std::vector<uint8_t>& expected,
                     const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(headers->GetSize(), expected.size(), what << ": size");
        std::vector<uint8_t> b(expected.size());
        headers->CopyData(b.data(), b.size());
        for (size_t i = 0; i < b.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(b[i]), int(expected[i]), what << ": byte " << i);
        }
    }

    void DoRun() override
    {
        IbBthHeader bth;
        bth.SetOpcode(IbOpcode::RDMA_WRITE_ONLY_WITH_IMMEDIATE);
        bth.SetSolicited(true);
        bth.SetPadCount(2);
        bth.SetDestQp(0x123456);
        bth.SetAckRequest(true);
        bth.SetPsn(0xabcdef);
        IbRethHeader reth;
        reth.SetVirtualAddress(0x0102030405060708ull);
        reth.SetRkey(0x0a0b0c0d);
        reth.SetDmaLength(4096);
        IbImmDtHeader imm;
        imm.SetImmediate(0xdeadbeef);
        TestHeaderSerialization(bth);
        TestHeaderSerialization(reth);
        TestHeaderSerialization(imm);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(imm);
        p->AddHeader(reth);
        p->AddHeader(bth);
        ExpectBytes(p,
                    {0x0b, 0xa0, 0xff, 0xff, 0x00, 0x12, 0x34, 0x56, 0x80, 0xab, 0xcd,
                     0xef, 1,    2,    3,    4,    5,    6,    7,    8,    0x0a, 0x0b,
                     0x0c, 0x0d, 0,    0,    0x10, 0,    0xde, 0xad, 0xbe, 0xef},
                    "BTH, RETH, ImmDt");
        NS_TEST_EXPECT_MSG_EQ(IbOpcode::GetExtensionSize(bth.GetOpcode()), 20u, "RETH and ImmDt");

        // A CNP's BTH (annex A17): BECN is bit 6 of byte 4, kept by a round trip.
        IbBthHeader cnp;
        cnp.SetOpcode(IbOpcode::CNP);
        cnp.SetDestQp(0x000102);
        cnp.SetBecn(true);
        TestHeaderSerialization(cnp);
        Ptr<Packet> c = Create<Packet>();
        c->AddHeader(cnp);
        ExpectBytes(c, {0x81, 0, 0xff, 0xff, 0x40, 0, 1, 2, 0, 0, 0, 0}, "CNP's BTH");
        IbBthHeader cnpBack;
        c->RemoveHeader(cnpBack);
        NS_TEST_EXPECT_MSG_EQ(cnpBack.GetBecn(), true, "BECN read back");

        IbAethHeader aeth;
        aeth.SetSyndrome(IbAethHeader::NAK, IbAethHeader::REMOTE_ACCESS_ERROR);
        aeth.SetMsn(0x010203);
        IbAtomicAckEthHeader ack;
        ack.SetOriginal(0x1112131415161718ull);
        TestHeaderSerialization(aeth);
        TestHeaderSerialization(ack);
        Ptr<Packet> q = Create<Packet>();
        q->AddHeader(ack);
        q->AddHeader(aeth);
        ExpectBytes(q,
                    {0x62, 1, 2, 3, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18},
                    "AETH (NAK, remote access error), AtomicAckETH");
        aeth.SetSyndrome(IbAethHeader::RNR_NAK, 14);
        NS_TEST_EXPECT_MSG_EQ(unsigned(aeth.GetKind()), 1u, "an RNR NAK");
        NS_TEST_EXPECT_MSG_EQ(unsigned(aeth.GetValue()), 14u, "its timer");

        IbAtomicEthHeader atomic;
        atomic.SetVirtualAddress(8);
        atomic.SetRkey(0x100);
        atomic.SetSwapAdd(5);
        atomic.SetCompare(6);
        TestHeaderSerialization(atomic);
        Ptr<Packet> r = Create<Packet>();
        r->AddHeader(atomic);
        ExpectBytes(
            r,
            {0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 6},
            "AtomicETH");

        IbDethHeader deth;
        deth.SetSourceQp(1);
        TestHeaderSerialization(deth);
        Ptr<Packet> d = Create<Packet>();
        d->AddHeader(deth);
        ExpectBytes(d, {0x80, 0x01, 0, 0, 0, 0, 0, 1}, "DETH (the GSI Q_Key, QP 1)");

        IbCmMadHeader mad;
        mad.SetAttribute(IbCmMadHeader::REP);
        mad.SetTransactionId(7);
        IbCmMadHeader::Fields f;
        f.localCommId = 3;
        f.remoteCommId = 4;
        f.localQpn = 0x100;
        f.startingPsn = 0x123456;
        f.responderResources = 2;
        f.initiatorDepth = 1;
        f.rnrRetryCount = 7;
        f.privateData = {9, 9};
        mad.SetFields(f);
        TestHeaderSerialization(mad);
        Ptr<Packet> m = Create<Packet>();
        m->AddHeader(mad);
        std::vector<uint8_t> head(48);
        m->CopyData(head.data(), head.size());
        NS_TEST_EXPECT_MSG_EQ(m->GetSize(), 256u, "a MAD is 256 bytes");
        NS_TEST_EXPECT_MSG_EQ(int(head[1]), 0x07, "the CM class");
        NS_TEST_EXPECT_MSG_EQ(int(head[17]), 0x13, "attribute REP");
        NS_TEST_EXPECT_MSG_EQ(int(head[24 + 3]), 3, "LocalCommID");
        NS_TEST_EXPECT_MSG_EQ(int(head[24 + 7]), 4, "RemoteCommID");
        NS_TEST_EXPECT_MSG_EQ(int(head[24 + 13]), 0x01, "LocalQPN");
        NS_TEST_EXPECT_MSG_EQ(int(head[24 + 20]), 0x12, "StartingPSN");
        IbCmMadHeader back;
        m->RemoveHeader(back);
        NS_TEST_EXPECT_MSG_EQ(back.GetFields().startingPsn, 0x123456u, "read back");
        NS_TEST_EXPECT_MSG_EQ(unsigned(back.GetFields().rnrRetryCount), 7u, "RNR retry count");
        NS_TEST_EXPECT_MSG_EQ(back.GetFields().privateData.size(), 196u, "the REP's room");

        // Extension bytes per opcode (table 38), and the message boundaries.
        const std::vector<std::pair<uint8_t, uint32_t>> sizes = {
            {IbOpcode::SEND_MIDDLE, 0},
            {IbOpcode::SEND_LAST_WITH_IMMEDIATE, 4},
            {IbOpcode::RDMA_WRITE_FIRST, 16},
            {IbOpcode::RDMA_READ_REQUEST, 16},
            {IbOpcode::RDMA_READ_RESPONSE_FIRST, 4},
            {IbOpcode::RDMA_READ_RESPONSE_MIDDLE, 0},
            {IbOpcode::ACKNOWLEDGE, 4},
            {IbOpcode::ATOMIC_ACKNOWLEDGE, 12},
            {IbOpcode::FETCH_ADD, 28},
            {IbOpcode::CNP, 16}};
        for (const auto& [opcode, size] : sizes)
        {
            NS_TEST_EXPECT_MSG_EQ(IbOpcode::GetExtensionSize(opcode),
                                  size,
                                  IbOpcode::GetName(opcode));
        }
        NS_TEST_EXPECT_MSG_EQ(IbOpcode::HasPayload(IbOpcode::RDMA_READ_REQUEST), false, "none");
        NS_TEST_EXPECT_MSG_EQ(IbOpcode::StartsMessage(IbOpcode::RDMA_WRITE_MIDDLE),
                              false,
                              "middle");
        NS_TEST_EXPECT_MSG_EQ(IbOpcode::EndsMessage(IbOpcode::SEND_ONLY), true, "only");
        NS_TEST_EXPECT_MSG_EQ(IbOpcode::IsRequest(IbOpcode::ACKNOWLEDGE), false, "a response");
        NS_TEST_EXPECT_MSG_EQ(IbOpcode::IsKnown(0x15), false, "0x15 is not RC's");
    }
};

/**
 * \ingroup drp-tests
 * The verbs' message extension: its bytes (an atomic's too), its round
 * trip, and the STATUS bits that announce it (MSG in a REQ) and refuse it (the NAK in an
 * invalid REQ_ACK), each well formed only where it belongs.
 */
class DrpHeaderMessageTestCase : public HeaderSerializationTestCase
{
  public:
    DrpHeaderMessageTestCase()
        : HeaderSerializationTestCase("DRP header: the message extension, MSG and the NAKs")
    {
    }

  private:
    void DoRun() override
    {
        DrpMessageHeader m;
        m.SetOpcode(DrpMessageHeader::WRITE_WITH_IMM);
        m.SetDestQpn(0x123456);
        m.SetSourceQpn(0xabcdef);
        m.SetSolicited(true);
        m.SetImmediate(0x01020304);
        m.SetRkey(0x0a0b0c0d);
        TestHeaderSerialization(m);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(m);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 16u, "16 bytes");
        uint8_t b[16];
        p->CopyData(b, 16);
        const uint8_t expected[16] =
            {0x0b, 0x12, 0x34, 0x56, 0x01, 0xab, 0xcd, 0xef, 1, 2, 3, 4, 0x0a, 0x0b, 0x0c, 0x0d};
        for (int i = 0; i < 16; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(b[i]), int(expected[i]), "byte " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(m.IsWellFormed(), true, "a WRITE with immediate");
        DrpMessageHeader send;
        send.SetImmediate(5);
        NS_TEST_EXPECT_MSG_EQ(send.IsWellFormed(), false, "immediate data on a plain SEND");
        send.SetOpcode(DrpMessageHeader::SEND_WITH_IMM);
        NS_TEST_EXPECT_MSG_EQ(send.IsWellFormed(), true, "on a SEND with immediate");
        send.SetRkey(1);
        NS_TEST_EXPECT_MSG_EQ(send.IsWellFormed(), false, "an rkey on a SEND");

        // An atomic: the 16 bytes, then SWAP and COMPARE (32 bytes).
        DrpMessageHeader cas;
        cas.SetOpcode(DrpMessageHeader::COMPARE_SWAP);
        cas.SetDestQpn(7);
        cas.SetSourceQpn(9);
        cas.SetRkey(0x11223344);
        cas.SetSwapAdd(0x0102030405060708ull);
        cas.SetCompare(0x1112131415161718ull);
        TestHeaderSerialization(cas);
        Ptr<Packet> a = Create<Packet>();
        a->AddHeader(cas);
        NS_TEST_ASSERT_MSG_EQ(a->GetSize(), 32u, "32 bytes");
        NS_TEST_EXPECT_MSG_EQ(DrpMessageHeader::SizeOf(DrpMessageHeader::FETCH_ADD), 32u, "sized");
        uint8_t ab[32];
        a->CopyData(ab, 32);
        NS_TEST_EXPECT_MSG_EQ(int(ab[0]), 0x13, "OPCODE COMPARE_SWAP");
        NS_TEST_EXPECT_MSG_EQ(int(ab[12]), 0x11, "RKEY");
        for (int i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(ab[16 + i]), i + 1, "SWAP byte " << i);
            NS_TEST_EXPECT_MSG_EQ(int(ab[24 + i]), 0x11 + i, "COMPARE byte " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(cas.IsWellFormed(), true, "a compare and swap");
        DrpMessageHeader add = cas;
        add.SetOpcode(DrpMessageHeader::FETCH_ADD);
        NS_TEST_EXPECT_MSG_EQ(add.IsWellFormed(), false, "COMPARE is 0 in a FETCH_ADD");
        add.SetCompare(0);
        NS_TEST_EXPECT_MSG_EQ(add.IsWellFormed(), true, "a fetch and add");
        add.SetSolicited(true);
        NS_TEST_EXPECT_MSG_EQ(add.IsWellFormed(), false, "no solicited event on an atomic");
        DrpMessageHeader swapOnSend;
        swapOnSend.SetSwapAdd(1);
        NS_TEST_EXPECT_MSG_EQ(swapOnSend.IsWellFormed(), false, "no operand on a SEND");

        DrpHeader req;
        req.SetFlag(DrpHeader::REQ);
        req.SetMessage(true);
        NS_TEST_EXPECT_MSG_EQ(int(req.GetStatus()), 0x04, "MSG is STATUS bit 2");
        NS_TEST_EXPECT_MSG_EQ(req.HasMessage(), true, "announced");
        NS_TEST_EXPECT_MSG_EQ(req.IsWellFormed(), true, "in a write's REQ");
        req.SetFlag(DrpHeader::READ);
        NS_TEST_EXPECT_MSG_EQ(req.IsWellFormed(), true, "in a read's (an atomic)");
        DrpHeader data;
        data.SetFlag(DrpHeader::DATA);
        data.SetMessage(true);
        NS_TEST_EXPECT_MSG_EQ(data.IsWellFormed(), false, "not in DATA");

        DrpHeader nak;
        nak.SetFlag(DrpHeader::REQ_ACK);
        nak.SetStatus(DrpHeader::INVALID);
        nak.SetNak(DrpHeader::RECEIVER_NOT_READY);
        nak.SetSequence(12);
        TestHeaderSerialization(nak);
        NS_TEST_EXPECT_MSG_EQ(int(nak.GetStatus()), 0x05, "RNR is 1 in bits 2-4");
        NS_TEST_EXPECT_MSG_EQ(nak.GetNak(), DrpHeader::RECEIVER_NOT_READY, "read back");
        NS_TEST_EXPECT_MSG_EQ(nak.IsWellFormed(), true, "in an invalid REQ_ACK");
        nak.SetNak(DrpHeader::REMOTE_OPERATION);
        NS_TEST_EXPECT_MSG_EQ(nak.IsWellFormed(), true, "the last NAK");
        nak.SetStatus(0x01 | (5 << 2));
        NS_TEST_EXPECT_MSG_EQ(nak.IsWellFormed(), false, "NAK 5 is reserved");
        nak.SetStatus(0x00 | (1 << 2));
        NS_TEST_EXPECT_MSG_EQ(nak.IsWellFormed(), false, "no NAK in a valid reply");
        std::ostringstream os;
        DrpHeader rnr;
        rnr.SetFlag(DrpHeader::REQ_ACK);
        rnr.SetStatus(DrpHeader::INVALID);
        rnr.SetNak(DrpHeader::RECEIVER_NOT_READY);
        rnr.Print(os);
        NS_TEST_EXPECT_MSG_NE(os.str().find("nak=rnr"), std::string::npos, os.str());
    }
};

/**
 * \ingroup drp-tests
 * The headers on the wire: DRP's and InfiniBand's.
 */
class DrpHeaderTestSuite : public TestSuite
{
  public:
    DrpHeaderTestSuite()
        : TestSuite("drp-header", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpHeaderRoundTripTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHeaderClassifyTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHeaderEcnTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHeaderMessageTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpHeaderInfinibandTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpHeaderTestSuite g_drpHeaderTestSuite;
