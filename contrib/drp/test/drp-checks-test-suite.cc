/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Frames tied to their transfer: a confirmation only for a read, sequence
// numbers within the transfer's frame count and at their own addresses, a
// read that completes on its frame count, and verification that can tell a
// read that moved nothing.

#include "drp-test-bed.h"

#include "ns3/drp-compat.h"
#include "ns3/host-memory.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::drptest;

namespace
{

/**
 * \param frame a DRP frame sent
 * \param count data frames among them
 */
void
CountData(uint32_t* count, Ptr<const Packet> frame)
{
    DrpHeader h;
    frame->PeekHeader(h);
    *count += h.HasFlag(DrpHeader::DATA);
}

} // namespace

/**
 * \ingroup drp-tests
 * A confirmation (REQ_ACK with ACK) is the read initiator's: sent for a live
 * write it would turn the write's responder into a read sender that sends
 * the region's contents out. It is dropped as foreign, and the responder
 * sends no data.
 */
class DrpConfirmationOfWriteTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpConfirmationOfWriteTestCase(const std::string& method)
        : TestCase("a confirmation for a write is dropped as foreign, no data sent (" + method +
                   ")"),
          m_method(method)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, 65536));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        // After the responder's valid reply (the write's region is registered).
        SendFrameAt(MicroSeconds(200),
                    a,
                    b,
                    MakeDrpFrame(DrpHeader::REQ_ACK | DrpHeader::ACK, 1, 0, 0, 0));
        uint32_t dataSent = 0;
        b->GetTransport()->TraceConnectWithoutContext("Tx",
                                                      MakeBoundCallback(&CountData, &dataSent));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the write ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "the write");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(b->GetTransport()->GetDropCount(DrpTransport::FOREIGN),
                              1,
                              "dropped as foreign");
        NS_TEST_EXPECT_MSG_EQ(dataSent, 0, "the write's responder sent no data");
        Simulator::Destroy();
    }

    std::string m_method; //!< traditional or dynamic
};

/**
 * \ingroup drp-tests
 * Data frames of a live transfer whose SN, address and LEN do not belong
 * together: an SN past the frame count at the region's base, an SN at
 * another frame's address, and the last frame's SN with a LEN shorter than
 * its own. Each lies inside the region; each is dropped as a bad sequence
 * (at the responder of a write, at the initiator of a read), and the
 * transfer ends byte-exact.
 */
class DrpBadSequenceTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic \param operation write or read
    DrpBadSequenceTestCase(const std::string& method, const std::string& operation)
        : TestCase("data frames with SN, address and LEN that disagree are dropped (" + method +
                   " " + operation + ")"),
          m_method(method),
          m_operation(operation)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t size = 65536;
        const uint32_t payload = 1024;
        const uint32_t frames = size / payload;
        bool read = m_operation == "read";
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, size, m_operation));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        Ptr<RnicNetDevice> receiver = read ? a : b;
        Ptr<RnicNetDevice> sender = read ? b : a;
        // The region the data lands in: the initiator's slot 0 for a read,
        // the initiator's region in the responder for a write.
        const uint64_t base = read ? 0 : uint64_t(a->GetNode()->GetId() + 1) << 32;
        const uint8_t ctrl = DrpHeader::DATA | (read ? DrpHeader::READ : 0);
        auto frame = [&](uint64_t address, uint32_t len, uint32_t sn) {
            Ptr<Packet> p = MakeDrpFrame(ctrl, 1, 0, len, len, sn);
            DrpHeader h;
            p->RemoveHeader(h);
            (read ? h.SetSba(address) : h.SetDba(address)); // where the receiver places it
            p->AddHeader(h);
            return p;
        };
        std::vector<Ptr<Packet>> bad{frame(base, payload, frames + 7),
                                     frame(base + 5 * payload, payload, 3),
                                     frame(base + (frames - 1) * payload, payload / 2, frames - 1)};
        for (uint32_t i = 0; i < bad.size(); ++i)
        {
            SendFrameAt(MicroSeconds(150 + 10 * i), sender, receiver, bad[i]);
        }
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "the transfer");
        NS_TEST_EXPECT_MSG_EQ(bed.m_compared, 1, "compared");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(receiver->GetTransport()->GetDropCount(DrpTransport::BAD_SEQUENCE),
                              bad.size(),
                              "every frame dropped as a bad sequence");
        Simulator::Destroy();
    }

    std::string m_method;    //!< traditional or dynamic
    std::string m_operation; //!< write or read
};

/**
 * \ingroup drp-tests
 * Early write data (before its request) is kept and acknowledged by the
 * dynamic RNIC before the region is known. A frame under the initiator's
 * address and the TID of its next transfer that turns out not to belong to
 * that transfer's region (outside it, or not at its SN's place) is refused
 * when the buffer is moved to host memory; since its SN was acknowledged,
 * the transfer cannot complete correctly any more: the responder abandons
 * it, and it ends with an error status, never as a success with wrong bytes.
 */
class DrpRefusedEarlyDataTestCase : public TestCase
{
  public:
    /// \param outside the frame lies outside the region (true) or at the wrong place in it
    explicit DrpRefusedEarlyDataTestCase(bool outside)
        : TestCase(std::string("early data refused at the flush fails its transfer (") +
                   (outside ? "outside the region" : "a bad sequence") + ")"),
          m_outside(outside)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t size = 215;
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        PointToPointBed bed(rnic, MakeWorkload(1, size));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        const uint64_t region = uint64_t(a->GetNode()->GetId() + 1) << 32;
        uint64_t dba = m_outside ? 0x900000000ULL : region;
        uint32_t len = m_outside ? size : 100; // SN 0 of 215 bytes carries all 215
        SendFrameAt(Seconds(0), a, b, MakeDrpFrame(DrpHeader::DATA, 1, dba, len, len, 0));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        NS_TEST_EXPECT_MSG_NE(bed.Records()[0].GetStatusName(),
                              "success",
                              "it ends with an error status");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "no success with wrong bytes");
        Ptr<DrpTransport> responder = b->GetTransport();
        NS_TEST_EXPECT_MSG_EQ(responder->GetDropCount(m_outside ? DrpTransport::OUT_OF_REGION
                                                                : DrpTransport::BAD_SEQUENCE),
                              1,
                              "refused when moved to host memory");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(responder->GetAbandonedResponses(), 1, "abandoned");
        NS_TEST_EXPECT_MSG_EQ(b->GetHostMemory()->GetRegisteredBytes(), 0, "region released");
        Simulator::Destroy();
    }

    bool m_outside; //!< outside the region, or a bad sequence inside it
};

/**
 * \ingroup drp-tests
 * Acknowledgements of frames never sent: an ACKN past the write initiator's
 * next SN (and past a read responder's) is dropped as a bad sequence, and
 * does not complete the transfer.
 */
class DrpAckBeyondSentTestCase : public TestCase
{
  public:
    /// \param operation write or read
    explicit DrpAckBeyondSentTestCase(const std::string& operation)
        : TestCase("an ACKN past the frames sent is dropped (" + operation + ")"),
          m_operation(operation)
    {
    }

  private:
    void DoRun() override
    {
        bool read = m_operation == "read";
        RnicHelper rnic;
        PointToPointBed bed(rnic, MakeWorkload(1, 262144, m_operation));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        // The data sender is A for a write, B for a read; the ACK comes from the other.
        Ptr<RnicNetDevice> sender = read ? b : a;
        Ptr<RnicNetDevice> receiver = read ? a : b;
        Ptr<Packet> ack = MakeDrpFrame(DrpHeader::ACK | (read ? DrpHeader::READ : 0), 1, 0, 0, 0);
        DrpHeader h;
        ack->RemoveHeader(h);
        h.SetAckNumber(250); // of 256 frames, while fewer than 100 have been sent
        ack->AddHeader(h);
        SendFrameAt(MicroSeconds(300), receiver, sender, ack);
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "the transfer");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(sender->GetTransport()->GetDropCount(DrpTransport::BAD_SEQUENCE),
                              1,
                              "dropped as a bad sequence");
        Simulator::Destroy();
    }

    std::string m_operation; //!< write or read
};

/**
 * \ingroup drp-tests
 * A read whose slot already holds the previous read's bytes: its
 * destination gets a fresh pattern before it starts, so that a read that
 * moved nothing could not pass the comparison. When its first data frame
 * arrives, the destination differs from the source.
 */
class DrpReadDestinationTestCase : public TestCase
{
  public:
    DrpReadDestinationTestCase()
        : TestCase("a read's destination is refilled before it starts")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t size = 16384;
        RnicHelper rnic;
        PointToPointBed bed(rnic, MakeWorkload(2, size, "read"));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        const uint64_t source = uint64_t(a->GetNode()->GetId() + 1) << 32;
        std::vector<uint64_t> differences; // at the first data frame of each read
        a->GetTransport()->TraceConnectWithoutContext(
            "Rx",
            drp::FunctorCallback<void, Ptr<const Packet>>(
                [&differences, a, b, source, size](Ptr<const Packet> p) {
                    OnRx(&differences, a, b, source, size, p);
                }));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 2, "both reads ended");
        NS_TEST_EXPECT_MSG_EQ(bed.m_compared, 2, "both compared");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "both byte-exact");
        NS_TEST_ASSERT_MSG_EQ(differences.size(), 2, "two first frames");
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_GT(differences[i],
                                  size / 2,
                                  "read " << i << ": destination and source differ before it");
        }
        Simulator::Destroy();
    }

    /**
     * At each read's first data frame, compares destination and source.
     * \param differences bytes that differ, per read
     * \param a the initiator's RNIC
     * \param b the responder's RNIC
     * \param source the read's source in b
     * \param size bytes
     * \param frame a frame that arrived at a
     */
    static void OnRx(std::vector<uint64_t>* differences,
                     Ptr<RnicNetDevice> a,
                     Ptr<RnicNetDevice> b,
                     uint64_t source,
                     uint32_t size,
                     Ptr<const Packet> frame)
    {
        DrpHeader h;
        frame->PeekHeader(h);
        if (h.HasFlag(DrpHeader::DATA) && h.GetSequence() == 0 && h.GetTid() > differences->size())
        {
            differences->push_back(
                a->GetHostMemory()->CountDifferences(0, b->GetHostMemory(), source, size));
        }
    }
};

/**
 * \ingroup drp-tests
 * Frames tied to their transfer.
 */
class DrpChecksTestSuite : public TestSuite
{
  public:
    DrpChecksTestSuite()
        : TestSuite("drp-checks", DRP_TEST_SYSTEM)
    {
        for (const std::string method : {"traditional", "dynamic"})
        {
            AddTestCase(new DrpConfirmationOfWriteTestCase(method), DRP_TEST_QUICK);
            for (const std::string operation : {"write", "read"})
            {
                AddTestCase(new DrpBadSequenceTestCase(method, operation), DRP_TEST_QUICK);
            }
        }
        AddTestCase(new DrpReadDestinationTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRefusedEarlyDataTestCase(true), DRP_TEST_QUICK);
        AddTestCase(new DrpRefusedEarlyDataTestCase(false), DRP_TEST_QUICK);
        AddTestCase(new DrpAckBeyondSentTestCase("write"), DRP_TEST_QUICK);
        AddTestCase(new DrpAckBeyondSentTestCase("read"), DRP_TEST_QUICK);
    }
};

/// The suite's one instance.
static DrpChecksTestSuite g_drpChecksTestSuite;
