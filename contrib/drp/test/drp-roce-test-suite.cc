/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// RoCEv2's reliable-connected transport (the method roce): go-back-N on a
// sequence NAK, the local ACK timeout, the retry limit, a lost READ
// response asked for again, PSNs that wrap; each loss placed exactly with
// ns-3's ReceiveListErrorModel.

#include "drp-test-bed.h"

#include "ns3/drp-compat.h"
#include "ns3/drp-verbs-provider.h"
#include "ns3/error-model.h"
#include "ns3/host-memory.h"
#include "ns3/rdma-context.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-transport.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cmath>
#include <list>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t SOURCE = 0x100000;      //!< host 0: what is written
constexpr uint32_t LENGTH = 65536;         //!< each buffer's bytes
constexpr uint64_t BACK = SOURCE + LENGTH; //!< host 0: where a read lands
constexpr uint64_t TARGET = 0x300000;      //!< host 1: written and read
/// The local ACK timeout's exponent the bed uses: 4.096 us x 2^10 = 4.19 ms.
constexpr uint8_t TIMEOUT = 10;

/**
 * \ingroup drp-tests
 * Two hosts with RoCE RNICs on one link, a queue pair each, connected with
 * a path MTU of 1024 bytes and agreeing PSNs.
 */
struct RoceBed
{
    /**
     * \param responderLosses frames host 1's RNIC loses (0-based, in arrival order)
     * \param requesterLosses frames host 0's RNIC loses
     * \param psn both queue pairs' first PSN
     * \param retryCnt the requester's retry count
     */
    RoceBed(const std::list<uint32_t>& responderLosses,
            const std::list<uint32_t>& requesterLosses,
            uint32_t psn = 0,
            uint8_t retryCnt = 7)
    {
        nodes.Create(2);
        RnicHelper rnic;
        rnic.SetMethod("roce");
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        for (uint32_t i = 0; i < 2; ++i)
        {
            device[i] = DynamicCast<RnicNetDevice>(devices.Get(i));
            context[i] = CreateObject<RdmaContext>();
            context[i]->Open(device[i]);
            pd[i] = context[i]->AllocPd();
            int error = -1;
            cq[i] = context[i]->CreateCq(64, error);
            RdmaQpInitAttr init;
            init.sendCq = init.recvCq = cq[i];
            init.cap.maxSendWr = 16;
            init.cap.maxRecvWr = 16;
            init.sqSigAll = true;
            qp[i] = context[i]->CreateQp(pd[i], init, error);
            using namespace RdmaAccess;
            const uint32_t access = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;
            context[i]->RegMr(pd[i],
                              i == 0 ? SOURCE : TARGET,
                              i == 0 ? 2 * LENGTH : LENGTH,
                              access,
                              drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                                  [this, i](Ptr<RdmaMemoryRegion> got, int) { mr[i] = got; }));
        }
        for (uint32_t i = 0; i < 2; ++i)
        {
            RdmaQpAttr a;
            a.qpAccessFlags =
                RdmaAccess::REMOTE_WRITE | RdmaAccess::REMOTE_READ | RdmaAccess::REMOTE_ATOMIC;
            a.peer =
                DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(device[1 - i]->GetAddress()));
            a.destQpNum = qp[1 - i]->GetQpNum();
            a.pathMtu = 1024;
            a.rqPsn = psn;
            a.sqPsn = psn;
            a.timeout = TIMEOUT;
            a.retryCnt = retryCnt;
            a.maxRdAtomic = 4;
            a.maxDestRdAtomic = 4;
            NS_ABORT_UNLESS(qp[i]->ConnectRc(a) == 0);
        }
        device[0]->GetHostMemory()->Fill(SOURCE, LENGTH, 42);
        device[1]->GetHostMemory()->Fill(TARGET, LENGTH, 7);
        Simulator::Run(); // the registrations
        Lose(1, responderLosses);
        Lose(0, requesterLosses);
        transport = device[0]->GetObject<RoceTransport>();
        device[1]->GetObject<RoceTransport>()->TraceConnectWithoutContext(
            "Retransmit",
            drp::FunctorCallback<void, uint32_t>(
                [this](uint32_t p) { resentByResponder.push_back(p); }));
        transport->TraceConnectWithoutContext(
            "Retransmit",
            drp::FunctorCallback<void, uint32_t>([this](uint32_t p) { resent.push_back(p); }));
    }

    /// \param i a host \param losses frames its RNIC loses from now on
    void Lose(uint32_t i, const std::list<uint32_t>& losses)
    {
        if (!losses.empty())
        {
            Ptr<ReceiveListErrorModel> model = CreateObject<ReceiveListErrorModel>();
            model->SetList(losses);
            device[i]->SetReceiveErrorModel(model);
        }
    }

    /**
     * Posts one request of host 0's and runs.
     * \param opcode RDMA_WRITE or RDMA_READ
     * \param bytes its length
     * \return its completion, and the time it took in \p took
     */
    RdmaWc Run(RdmaWrOpcode opcode, uint32_t bytes, Time& took)
    {
        RdmaSendWr wr;
        wr.wrId = 1;
        wr.opcode = opcode;
        wr.sgList.push_back(
            {opcode == RdmaWrOpcode::RDMA_READ ? BACK : SOURCE, bytes, mr[0]->GetLkey()});
        wr.remoteAddr = TARGET;
        wr.rkey = mr[1]->GetRkey();
        const Time start = Simulator::Now();
        Time end = start;
        cq[0]->SetEventCallback(drp::FunctorCallback<void, Ptr<RdmaCompletionQueue>>(
            [&end](Ptr<RdmaCompletionQueue>) { end = Simulator::Now(); }));
        cq[0]->ReqNotify(false);
        NS_ABORT_UNLESS(qp[0]->PostSend({wr}) == 0);
        Simulator::Run();
        took = end - start;
        std::vector<RdmaWc> wcs = cq[0]->Poll(4);
        NS_ABORT_UNLESS(!wcs.empty());
        later.assign(wcs.begin() + 1, wcs.end());
        return wcs[0];
    }

    /// \param bytes from the start \return bytes that differ between host 0's source and host 1's
    /// target
    uint64_t WriteDifferences(uint32_t bytes) const
    {
        return device[0]->GetHostMemory()->CountDifferences(SOURCE,
                                                            device[1]->GetHostMemory(),
                                                            TARGET,
                                                            bytes);
    }

    /// \param bytes from the start \return bytes that differ between host 1's target and host 0's
    /// read-back
    uint64_t ReadDifferences(uint32_t bytes) const
    {
        return device[1]->GetHostMemory()->CountDifferences(TARGET,
                                                            device[0]->GetHostMemory(),
                                                            BACK,
                                                            bytes);
    }

    NodeContainer nodes;                     //!< the hosts
    Ptr<RnicNetDevice> device[2];            //!< their RNICs
    Ptr<RdmaContext> context[2];             //!< their contexts
    Ptr<RdmaProtectionDomain> pd[2];         //!< their domains
    Ptr<RdmaCompletionQueue> cq[2];          //!< their completion queues
    Ptr<RdmaQueuePair> qp[2];                //!< connected to each other
    Ptr<RdmaMemoryRegion> mr[2];             //!< host 0's buffers, host 1's target
    Ptr<RoceTransport> transport;            //!< host 0's transport
    std::vector<uint32_t> resent;            //!< PSNs host 0 sent again
    std::vector<uint32_t> resentByResponder; //!< PSNs host 1 sent again
    std::vector<RdmaWc> later;               //!< completions after Run()'s first
};

/// \return the bed's local ACK timeout
Time
AckTimeout()
{
    return NanoSeconds(int64_t(std::ldexp(4096.0, TIMEOUT)));
}

/**
 * \ingroup drp-tests
 * Go-back-N: an 8-packet WRITE whose third packet (PSN 2) is lost gets one
 * sequence NAK from the responder when PSN 3 arrives; the requester sends
 * again from PSN 2, consecutively, and the WRITE ends successfully, byte
 * for byte, with the wire carrying exactly 8 packets plus those sent again.
 */
class DrpRoceGoBackNTestCase : public TestCase
{
  public:
    DrpRoceGoBackNTestCase()
        : TestCase("go-back-N: one sequence NAK, sent again from the lost PSN")
    {
    }

  private:
    void DoRun() override
    {
        RoceBed bed({2}, {});
        uint32_t sent = 0;
        bed.device[0]->TraceConnectWithoutContext(
            "MacTx",
            drp::FunctorCallback<void, Ptr<const Packet>>([&sent](Ptr<const Packet>) { ++sent; }));
        Time took;
        RdmaWc wc = bed.Run(RdmaWrOpcode::RDMA_WRITE, 8192, took);
        NS_TEST_EXPECT_MSG_EQ(wc.status, RdmaWcStatus::SUCCESS, "the WRITE succeeds");
        NS_TEST_EXPECT_MSG_EQ(bed.WriteDifferences(8192), 0u, "byte for byte");
        NS_TEST_EXPECT_MSG_EQ(bed.device[1]->GetObject<RoceTransport>()->GetNaks(),
                              1u,
                              "one sequence NAK");
        NS_TEST_ASSERT_MSG_GT(bed.resent.size(), 0u, "sent again");
        for (size_t k = 0; k < bed.resent.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(bed.resent[k], 2 + k, "from PSN 2, consecutively");
        }
        NS_TEST_EXPECT_MSG_LT_OR_EQ(bed.resent.back(), 7u, "within the WRITE");
        NS_TEST_EXPECT_MSG_EQ(sent, 8 + bed.resent.size(), "8 packets and those sent again");
        NS_TEST_EXPECT_MSG_LT(took, AckTimeout(), "recovered by the NAK, not the timer");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The local ACK timeout: the last packet of a WRITE lost, nothing follows
 * it to reveal the gap, so the requester sends PSN 7 again when the timer
 * (4.096 us x 2^timeout, restarted by the last ACK) expires: the WRITE
 * ends one timeout (and at most one packet's round trip) later than
 * without the loss. With every packet lost, the request ends with
 * RETRY_EXC_ERR after 1 + retry_cnt timeouts and the next is flushed.
 */
class DrpRoceTimeoutTestCase : public TestCase
{
  public:
    DrpRoceTimeoutTestCase()
        : TestCase("the local ACK timeout sends again; retries exhausted end the request")
    {
    }

  private:
    void DoRun() override
    {
        Time lossless;
        {
            RoceBed bed({}, {});
            bed.Run(RdmaWrOpcode::RDMA_WRITE, 8192, lossless);
            NS_TEST_EXPECT_MSG_EQ(bed.resent.size(), 0u, "nothing sent again without loss");
            Simulator::Destroy();
        }
        {
            RoceBed bed({7}, {});
            Time took;
            RdmaWc wc = bed.Run(RdmaWrOpcode::RDMA_WRITE, 8192, took);
            NS_TEST_EXPECT_MSG_EQ(wc.status, RdmaWcStatus::SUCCESS, "success");
            NS_TEST_EXPECT_MSG_EQ(bed.WriteDifferences(8192), 0u, "byte for byte");
            NS_TEST_ASSERT_MSG_EQ(bed.resent.size(), 1u, "one packet sent again");
            NS_TEST_EXPECT_MSG_EQ(bed.resent[0], 7u, "the last");
            NS_TEST_EXPECT_MSG_EQ(bed.device[1]->GetObject<RoceTransport>()->GetNaks(),
                                  0u,
                                  "no NAK: nothing came after it");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(took - lossless, AckTimeout(), "one timeout later");
            NS_TEST_EXPECT_MSG_LT(took - lossless,
                                  AckTimeout() + MicroSeconds(20),
                                  "and at most a round trip more");
            Simulator::Destroy();
        }
        {
            std::list<uint32_t> all;
            for (uint32_t i = 0; i < 64; ++i)
            {
                all.push_back(i);
            }
            RoceBed bed(all, {}, 0, 2);
            RdmaSendWr next;
            next.wrId = 2;
            next.opcode = RdmaWrOpcode::RDMA_WRITE;
            next.sgList.push_back({SOURCE, 100, bed.mr[0]->GetLkey()});
            next.remoteAddr = TARGET;
            next.rkey = bed.mr[1]->GetRkey();
            Time took;
            Simulator::Schedule(MicroSeconds(1), [&bed, next]() { bed.qp[0]->PostSend({next}); });
            RdmaWc wc = bed.Run(RdmaWrOpcode::RDMA_WRITE, 2048, took);
            NS_TEST_EXPECT_MSG_EQ(wc.status, RdmaWcStatus::RETRY_EXC_ERR, "retries exhausted");
            NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetState(), RdmaQpState::ERR, "in ERR");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(took, 3 * AckTimeout(), "after 1 + retry_cnt timeouts");
            NS_TEST_EXPECT_MSG_LT(took, 3 * AckTimeout() + MicroSeconds(50), "not more");
            NS_TEST_ASSERT_MSG_EQ(bed.later.size(), 1u, "the next request");
            NS_TEST_EXPECT_MSG_EQ(bed.later[0].status, RdmaWcStatus::WR_FLUSH_ERR, "flushed");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup drp-tests
 * READ: the fourth response of an 8-response READ lost; the next reveals
 * the gap, and the requester asks again from PSN 3 (a READ request whose
 * RETH starts 3 KiB on): the bytes land whole; the responder answers the
 * repeated request from memory.
 */
class DrpRoceReadTestCase : public TestCase
{
  public:
    DrpRoceReadTestCase()
        : TestCase("READ: a lost response asked for again from the middle")
    {
    }

  private:
    void DoRun() override
    {
        RoceBed bed({}, {3});
        Time took;
        RdmaWc wc = bed.Run(RdmaWrOpcode::RDMA_READ, 8192, took);
        NS_TEST_EXPECT_MSG_EQ(wc.status, RdmaWcStatus::SUCCESS, "success");
        NS_TEST_EXPECT_MSG_EQ(wc.byteLen, 8192u, "its bytes");
        NS_TEST_EXPECT_MSG_EQ(bed.ReadDifferences(8192), 0u, "byte for byte");
        NS_TEST_ASSERT_MSG_EQ(bed.resent.size(), 1u, "one request sent again");
        NS_TEST_EXPECT_MSG_EQ(bed.resent[0], 3u, "from the missing response's PSN");
        NS_TEST_EXPECT_MSG_LT(took, AckTimeout(), "recovered without the timer");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * PSNs are 24 bits: a WRITE from PSN 0xFFFFFD runs through the wrap (PSNs
 * 0xFFFFFD, 0xFFFFFE, 0xFFFFFF, 0, 1, ...), and a packet lost after it
 * (PSN 1) is recovered by go-back-N as any other.
 */
class DrpRocePsnWrapTestCase : public TestCase
{
  public:
    DrpRocePsnWrapTestCase()
        : TestCase("PSNs wrap at 2^24")
    {
    }

  private:
    void DoRun() override
    {
        RoceBed bed({4}, {}, 0xfffffd);
        Time took;
        RdmaWc wc = bed.Run(RdmaWrOpcode::RDMA_WRITE, 8192, took);
        NS_TEST_EXPECT_MSG_EQ(wc.status, RdmaWcStatus::SUCCESS, "success");
        NS_TEST_EXPECT_MSG_EQ(bed.WriteDifferences(8192), 0u, "byte for byte");
        NS_TEST_ASSERT_MSG_GT(bed.resent.size(), 0u, "sent again");
        NS_TEST_EXPECT_MSG_EQ(bed.resent[0], 1u, "from PSN 1, past the wrap");
        NS_TEST_EXPECT_MSG_LT(took, AckTimeout(), "by the NAK");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * What the responder orders and what waits: an RNR NAK on a WRITE with
 * immediate data, then success once a receive is posted; a zero-length
 * WRITE with immediate after a 64 KiB WRITE completes its receive only when
 * the WRITE's bytes are all in memory; a zero-length SEND after a longer
 * one ends the receives in order, each with its own length; a FETCH_ADD on
 * the bytes the WRITE before it wrote adds to them; a READ whose responses
 * are lost, followed by a WRITE the responder refuses, still completes
 * (the timer asks for it again) before the WRITE's error.
 */
class DrpRoceOrderTestCase : public TestCase
{
  public:
    DrpRoceOrderTestCase()
        : TestCase("responder order: RNR with immediate, zero-length messages, atomics, a READ "
                   "before an error")
    {
    }

  private:
    /// \param bed the bed \param opcode the request \param local its SGE's address
    /// \param bytes its length (0: no SGE) \param id its wr_id \return the request
    static RdmaSendWr Wr(const RoceBed& bed,
                         RdmaWrOpcode opcode,
                         uint64_t local,
                         uint32_t bytes,
                         uint64_t id)
    {
        RdmaSendWr wr;
        wr.wrId = id;
        wr.opcode = opcode;
        if (bytes > 0)
        {
            wr.sgList.push_back({local, bytes, bed.mr[0]->GetLkey()});
        }
        wr.remoteAddr = TARGET;
        wr.rkey = bed.mr[1]->GetRkey();
        return wr;
    }

    /// \param bed the bed \param id wr_id \param address where it lands (0: no SGE)
    static void Receive(const RoceBed& bed, uint64_t id, uint64_t address = 0)
    {
        RdmaRecvWr wr;
        wr.wrId = id;
        if (address != 0)
        {
            wr.sgList.push_back({address, 4096, bed.mr[1]->GetLkey()});
        }
        bed.qp[1]->PostRecv({wr});
    }

    void DoRun() override
    {
        {
            RoceBed bed({}, {});
            RdmaSendWr write = Wr(bed, RdmaWrOpcode::RDMA_WRITE_WITH_IMM, SOURCE, 100, 1);
            write.immData = 5;
            bed.qp[0]->PostSend({write});
            Simulator::Schedule(MicroSeconds(5), [&bed]() { Receive(bed, 77); });
            Simulator::Run();
            std::vector<RdmaWc> sent = bed.cq[0]->Poll(4);
            std::vector<RdmaWc> got = bed.cq[1]->Poll(4);
            NS_TEST_ASSERT_MSG_EQ(sent.size(), 1u, "RNR, then the WRITE ends");
            NS_TEST_EXPECT_MSG_EQ(sent[0].status, RdmaWcStatus::SUCCESS, "taken at the retry");
            NS_TEST_ASSERT_MSG_EQ(got.size(), 1u, "the receive ends");
            NS_TEST_EXPECT_MSG_EQ(got[0].immData, 5u, "with the immediate data");
            Ptr<RoceTransport> responder = bed.device[1]->GetObject<RoceTransport>();
            NS_TEST_EXPECT_MSG_EQ(responder->GetRnrNaks(), 1u, "one RNR NAK");
            NS_TEST_EXPECT_MSG_EQ(responder->GetNaks(), 0u, "and no other NAK");
            Simulator::Destroy();
        }
        {
            RoceBed bed({}, {});
            Receive(bed, 77);
            uint64_t missing = LENGTH;
            bed.cq[1]->SetEventCallback(drp::FunctorCallback<void, Ptr<RdmaCompletionQueue>>(
                [&bed, &missing](Ptr<RdmaCompletionQueue>) {
                    missing = bed.WriteDifferences(LENGTH);
                }));
            bed.cq[1]->ReqNotify(false);
            RdmaSendWr notify = Wr(bed, RdmaWrOpcode::RDMA_WRITE_WITH_IMM, SOURCE, 0, 2);
            bed.qp[0]->PostSend({Wr(bed, RdmaWrOpcode::RDMA_WRITE, SOURCE, LENGTH, 1), notify});
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(bed.cq[1]->Poll(4).size(), 1u, "the notification's receive");
            NS_TEST_EXPECT_MSG_EQ(missing, 0u, "completed once the WRITE's bytes were all there");
            Simulator::Destroy();
        }
        {
            RoceBed bed({}, {});
            Receive(bed, 10, TARGET);
            Receive(bed, 11, TARGET + 8192);
            RdmaSendWr empty = Wr(bed, RdmaWrOpcode::SEND_WITH_IMM, SOURCE, 0, 2);
            empty.immData = 3;
            bed.qp[0]->PostSend({Wr(bed, RdmaWrOpcode::SEND, SOURCE, 4000, 1), empty});
            Simulator::Run();
            std::vector<RdmaWc> got = bed.cq[1]->Poll(4);
            NS_TEST_ASSERT_MSG_EQ(got.size(), 2u, "two receives");
            NS_TEST_EXPECT_MSG_EQ(got[0].wrId, 10u, "in order");
            NS_TEST_EXPECT_MSG_EQ(got[0].byteLen, 4000u, "the first SEND's length");
            NS_TEST_EXPECT_MSG_EQ(got[1].byteLen, 0u, "the empty one's");
            NS_TEST_EXPECT_MSG_EQ(got[1].immData, 3u, "its immediate data");
            Simulator::Destroy();
        }
        {
            RoceBed bed({}, {});
            const uint64_t word = TARGET + LENGTH - 8;
            uint8_t hundred[8] = {100, 0, 0, 0, 0, 0, 0, 0};
            bed.device[0]->GetHostMemory()->Write(SOURCE + LENGTH - 8, hundred, 8);
            RdmaSendWr add = Wr(bed, RdmaWrOpcode::ATOMIC_FETCH_AND_ADD, BACK, 8, 2);
            add.remoteAddr = word;
            add.compareAdd = 1;
            bed.qp[0]->PostSend({Wr(bed, RdmaWrOpcode::RDMA_WRITE, SOURCE, LENGTH, 1), add});
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(bed.cq[0]->Poll(4).size(), 2u, "both end");
            uint8_t fetched[8];
            uint8_t now[8];
            bed.device[0]->GetHostMemory()->Read(BACK, fetched, 8);
            bed.device[1]->GetHostMemory()->Read(word, now, 8);
            NS_TEST_EXPECT_MSG_EQ(unsigned(fetched[0]), 100u, "the value the WRITE wrote");
            NS_TEST_EXPECT_MSG_EQ(unsigned(now[0]), 101u, "plus one, after the WRITE");
            Simulator::Destroy();
        }
        {
            // Host 0 loses the READ's responses (frames 0, 2, 3, 4: frame 1 is the NAK).
            RoceBed bed({}, {0, 2, 3, 4});
            RdmaSendWr bad = Wr(bed, RdmaWrOpcode::RDMA_WRITE, SOURCE, 100, 2);
            bad.rkey = 12345;
            bed.qp[0]->PostSend({Wr(bed, RdmaWrOpcode::RDMA_READ, BACK, 4096, 1), bad});
            Simulator::Stop(Seconds(1));
            Simulator::Run();
            std::vector<RdmaWc> wcs = bed.cq[0]->Poll(4);
            NS_TEST_ASSERT_MSG_EQ(wcs.size(), 2u, "both end");
            NS_TEST_EXPECT_MSG_EQ(wcs[0].status, RdmaWcStatus::SUCCESS, "the READ, asked again");
            NS_TEST_EXPECT_MSG_EQ(bed.ReadDifferences(4096), 0u, "its bytes");
            NS_TEST_EXPECT_MSG_EQ(wcs[1].status, RdmaWcStatus::REM_ACCESS_ERR, "then the error");
            NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetState(), RdmaQpState::ERR, "in ERR");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup drp-tests
 * RoCEv2's reliable-connected transport.
 */
class DrpRoceTestSuite : public TestSuite
{
  public:
    DrpRoceTestSuite()
        : TestSuite("drp-roce", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpRoceGoBackNTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRoceTimeoutTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRoceReadTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRocePsnWrapTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpRoceOrderTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's instance.
static DrpRoceTestSuite g_drpRoceTestSuite;

} // namespace
