/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The verbs' resources: names and numbers as libibverbs has them, completion
// queues, memory registration through the host model, the RC queue pair's
// state machine, posting and flushing.

#include "drp-test-bed.h"

#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-transport.h"
#include "ns3/drp-verbs-provider.h"
#include "ns3/error-model.h"
#include "ns3/host-memory.h"
#include "ns3/rdma-context.h"
#include "ns3/region-table.h"
#include "ns3/responder-connection.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-transport.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cerrno>
#include <functional>
#include <list>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup drp-tests
 * Two hosts with RNICs on one link, a context opened on host 0's.
 */
struct VerbsBed
{
    VerbsBed()
    {
        nodes.Create(2);
        RnicHelper rnic;
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        device = DynamicCast<RnicNetDevice>(devices.Get(0));
        context = CreateObject<RdmaContext>();
        context->Open(device);
    }

    /**
     * \param pd the domain
     * \param address first byte
     * \param length bytes
     * \param access flags
     * \return the region registered (the simulation runs until it is)
     */
    Ptr<RdmaMemoryRegion> Register(Ptr<RdmaProtectionDomain> pd,
                                   uint64_t address,
                                   uint64_t length,
                                   uint32_t access)
    {
        Ptr<RdmaMemoryRegion> got;
        int error = -1;
        context->RegMr(pd,
                       address,
                       length,
                       access,
                       drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                           [&](Ptr<RdmaMemoryRegion> mr, int e) {
                               got = mr;
                               error = e;
                           }));
        Simulator::Run();
        return error == 0 ? got : nullptr;
    }

    NodeContainer nodes;       //!< the hosts
    Ptr<RnicNetDevice> device; //!< host 0's RNIC
    Ptr<RdmaContext> context;  //!< opened on it
};

/// \return capacities for a small queue pair
RdmaQpInitAttr
SmallQp(Ptr<RdmaCompletionQueue> scq, Ptr<RdmaCompletionQueue> rcq)
{
    RdmaQpInitAttr init;
    init.sendCq = scq;
    init.recvCq = rcq;
    init.cap.maxSendWr = 4;
    init.cap.maxRecvWr = 3;
    init.cap.maxSendSge = 2;
    init.cap.maxRecvSge = 1;
    init.cap.maxInlineData = 64;
    return init;
}

/// \param wrId id \param bytes one SGE of this many bytes \return an RDMA WRITE request
RdmaSendWr
Send(uint64_t wrId, uint32_t bytes = 100)
{
    RdmaSendWr wr;
    wr.wrId = wrId;
    wr.opcode = RdmaWrOpcode::RDMA_WRITE;
    wr.sgList.push_back({0x1000, bytes, 0x100});
    return wr;
}

/// \param wrId id \return a receive request of one SGE
RdmaRecvWr
Recv(uint64_t wrId)
{
    RdmaRecvWr wr;
    wr.wrId = wrId;
    wr.sgList.push_back({0x8000, 4096, 0x100});
    return wr;
}

/**
 * Moves a queue pair RESET -> INIT -> RTR -> RTS (RdmaQueuePair::ConnectRc)
 * with the tests' values.
 * \param qp the queue pair
 * \param peer the peer RNIC \param destQpNum its queue pair \param rnrRetry RNR retries
 * \param sqPsn its first PSN (the peer's rqPsn is 7)
 * \return the first non-zero result, or 0
 */
int
ToRts(Ptr<RdmaQueuePair> qp,
      uint64_t peer = 2,
      uint32_t destQpNum = 0x123,
      uint8_t rnrRetry = 7,
      uint32_t sqPsn = 9)
{
    RdmaQpAttr a;
    a.qpAccessFlags =
        RdmaAccess::REMOTE_WRITE | RdmaAccess::REMOTE_READ | RdmaAccess::REMOTE_ATOMIC;
    a.peer = peer;
    a.pathMtu = 4096;
    a.destQpNum = destQpNum;
    a.rqPsn = 7;
    a.maxDestRdAtomic = 4;
    a.minRnrTimer = 12;
    a.sqPsn = sqPsn;
    a.timeout = 14;
    a.retryCnt = 7;
    a.rnrRetry = rnrRetry;
    a.maxRdAtomic = 4;
    return qp->ConnectRc(a);
}

} // namespace

/**
 * \ingroup drp-tests
 * Values and names as libibverbs has them; the RNR timer table.
 */
class DrpVerbsNamesTestCase : public TestCase
{
  public:
    DrpVerbsNamesTestCase()
        : TestCase("Verbs: flags, opcodes, masks and statuses numbered and named as libibverbs")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(RdmaAccess::REMOTE_ATOMIC, 8u, "IBV_ACCESS_REMOTE_ATOMIC");
        NS_TEST_EXPECT_MSG_EQ(RdmaSendFlags::INLINE, 8u, "IBV_SEND_INLINE");
        NS_TEST_EXPECT_MSG_EQ(RdmaQpAttrMask::DEST_QPN, 1u << 20, "IBV_QP_DEST_QPN");
        NS_TEST_EXPECT_MSG_EQ(RdmaQpAttrMask::MAX_DEST_RD_ATOMIC,
                              1u << 17,
                              "IBV_QP_MAX_DEST_RD_ATOMIC");
        NS_TEST_EXPECT_MSG_EQ(int(RdmaWcOpcode::RECV_RDMA_WITH_IMM),
                              129,
                              "IBV_WC_RECV_RDMA_WITH_IMM");
        NS_TEST_EXPECT_MSG_EQ(int(RdmaWrOpcode::ATOMIC_FETCH_AND_ADD),
                              6,
                              "IBV_WR_ATOMIC_FETCH_AND_ADD");
        NS_TEST_EXPECT_MSG_EQ(int(RdmaWcStatus::RNR_RETRY_EXC_ERR), 13, "IBV_WC_RNR_RETRY_EXC_ERR");
        NS_TEST_EXPECT_MSG_EQ(GetWcStatusName(RdmaWcStatus::REM_ACCESS_ERR),
                              "remote access error",
                              "ibv_wc_status_str");
        NS_TEST_EXPECT_MSG_EQ(GetWcStatusName(RdmaWcStatus::RETRY_EXC_ERR),
                              "transport retry counter exceeded",
                              "ibv_wc_status_str");
        NS_TEST_EXPECT_MSG_EQ(GetWcStatusName(RdmaWcStatus::WR_FLUSH_ERR),
                              "Work Request Flushed Error",
                              "ibv_wc_status_str");
        NS_TEST_EXPECT_MSG_EQ(GetQpStateName(RdmaQpState::RTS), "RTS", "state name");
        NS_TEST_EXPECT_MSG_EQ_TOL(GetRnrTimerMicroseconds(0), 655360.0, 1e-6, "0: 655.36 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(GetRnrTimerMicroseconds(1), 10.0, 1e-9, "1: 0.01 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(GetRnrTimerMicroseconds(14), 1280.0, 1e-9, "14: 1.28 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(GetRnrTimerMicroseconds(31), 491520.0, 1e-6, "31: 491.52 ms");
    }
};

/**
 * \ingroup drp-tests
 * A completion queue: order, partial polls, one event per arming (solicited
 * only: solicited or error completions), the overrun.
 */
class DrpVerbsCqTestCase : public TestCase
{
  public:
    DrpVerbsCqTestCase()
        : TestCase("Verbs: completion queue order, notification once per arming, overrun")
    {
    }

  private:
    void DoRun() override
    {
        VerbsBed bed;
        int error = -1;
        NS_TEST_EXPECT_MSG_EQ(bed.context->CreateCq(0, error), nullptr, "depth 0");
        NS_TEST_EXPECT_MSG_EQ(error, EINVAL, "EINVAL");
        Ptr<RdmaCompletionQueue> cq = bed.context->CreateCq(3, error);
        NS_TEST_ASSERT_MSG_EQ(error, 0, "created");
        std::vector<Time> events;
        cq->SetEventCallback(drp::FunctorCallback<void, Ptr<RdmaCompletionQueue>>(
            [&events](Ptr<RdmaCompletionQueue>) { events.push_back(Simulator::Now()); }));
        auto wc = [](uint64_t id, RdmaWcStatus status) {
            RdmaWc c;
            c.wrId = id;
            c.status = status;
            return c;
        };
        cq->ReqNotify(false);
        Simulator::Schedule(MicroSeconds(1), [&]() {
            cq->Push(wc(1, RdmaWcStatus::SUCCESS));
            cq->Push(wc(2, RdmaWcStatus::SUCCESS)); // not armed any more: no event
        });
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(events.size(), 1u, "one event per arming");
        NS_TEST_EXPECT_MSG_EQ(events[0], MicroSeconds(1), "at the completion's time");
        std::vector<RdmaWc> got = cq->Poll(1);
        NS_TEST_ASSERT_MSG_EQ(got.size(), 1u, "one asked");
        NS_TEST_EXPECT_MSG_EQ(got[0].wrId, 1u, "oldest first");
        cq->ReqNotify(true); // solicited only
        cq->Push(wc(3, RdmaWcStatus::SUCCESS), false);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(events.size(), 1u, "not solicited: no event");
        got = cq->Poll(10);
        NS_TEST_ASSERT_MSG_EQ(got.size(), 2u, "the rest");
        NS_TEST_EXPECT_MSG_EQ(got[0].wrId + got[1].wrId, 5u, "2 then 3");
        cq->Push(wc(4, RdmaWcStatus::REM_ACCESS_ERR), false);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(events.size(), 2u, "an error wakes a solicited-only arming");
        NS_TEST_EXPECT_MSG_EQ(cq->Push(wc(5, RdmaWcStatus::SUCCESS)), true, "2 of 3");
        NS_TEST_EXPECT_MSG_EQ(cq->Push(wc(6, RdmaWcStatus::SUCCESS)), true, "3 of 3");
        NS_TEST_EXPECT_MSG_EQ(cq->Push(wc(7, RdmaWcStatus::SUCCESS)), false, "full: lost");
        NS_TEST_EXPECT_MSG_EQ(cq->IsInError(), true, "overrun: in error");
        cq->Poll(10);
        NS_TEST_EXPECT_MSG_EQ(cq->Push(wc(8, RdmaWcStatus::SUCCESS)), false, "in error: lost");
        NS_TEST_EXPECT_MSG_EQ(cq->GetLost(), 2u, "two lost");
        NS_TEST_EXPECT_MSG_EQ(cq->GetTotal(), 6u, "six added");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Memory registration: the host model's time, the pages pinned in the
 * host's memory and the RNIC's region table, keys, access checks, the
 * errors of bad calls and failed registrations, deregistration.
 */
class DrpVerbsMrTestCase : public TestCase
{
  public:
    DrpVerbsMrTestCase()
        : TestCase("Verbs: ibv_reg_mr takes the host's time, pins, can fail; bad calls EINVAL")
    {
    }

  private:
    void DoRun() override
    {
        using namespace RdmaAccess;
        VerbsBed bed;
        Ptr<RdmaProtectionDomain> pd = bed.context->AllocPd();
        const uint64_t base = 0x100000;
        Time at;
        Ptr<RdmaMemoryRegion> mr;
        int error = -1;
        NS_TEST_EXPECT_MSG_EQ(
            bed.context->RegMr(pd,
                               base,
                               128 * 1024,
                               LOCAL_WRITE | REMOTE_WRITE,
                               drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                                   [&](Ptr<RdmaMemoryRegion> m, int e) {
                                       at = Simulator::Now();
                                       mr = m;
                                       error = e;
                                   })),
            0,
            "accepted");
        Ptr<RegionTable> table = bed.device->GetTransport()->GetRegionTable();
        NS_TEST_EXPECT_MSG_EQ(table->Contains(base, 4096), false, "not pinned before its time");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(error, 0, "registered");
        NS_TEST_EXPECT_MSG_EQ(at, MicroSeconds(20), "8 us + 32 pages x 375 ns");
        NS_TEST_EXPECT_MSG_EQ(mr->GetLkey(), mr->GetRkey(), "lkey = rkey");
        NS_TEST_EXPECT_MSG_EQ(table->Contains(base, 128 * 1024),
                              true,
                              "pinned, in the RNIC's table");
        NS_TEST_EXPECT_MSG_EQ(mr->Allows(base + 100, 1000, REMOTE_WRITE), true, "inside, granted");
        NS_TEST_EXPECT_MSG_EQ(mr->Allows(base + 100, 1000, REMOTE_READ), false, "not granted");
        NS_TEST_EXPECT_MSG_EQ(mr->Allows(base + 128 * 1024 - 8, 9, REMOTE_WRITE),
                              false,
                              "past the end");
        NS_TEST_EXPECT_MSG_EQ(mr->Allows(base - 1, 2, REMOTE_WRITE), false, "before the start");
        NS_TEST_EXPECT_MSG_EQ(bed.context->FindMrByRkey(mr->GetRkey()), mr, "found by rkey");

        Ptr<RdmaMemoryRegion> second = bed.Register(pd, base, 4096, LOCAL_WRITE);
        NS_TEST_ASSERT_MSG_NE(second, nullptr, "a region may overlap another");
        NS_TEST_EXPECT_MSG_NE(second->GetLkey(), mr->GetLkey(), "its own key");

        auto refused = [&](Ptr<RdmaProtectionDomain> d, uint64_t a, uint64_t l, uint32_t f) {
            return bed.context->RegMr(d,
                                      a,
                                      l,
                                      f,
                                      drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                                          [](Ptr<RdmaMemoryRegion>, int) {}));
        };
        NS_TEST_EXPECT_MSG_EQ(refused(pd, base, 0, LOCAL_WRITE), EINVAL, "empty");
        NS_TEST_EXPECT_MSG_EQ(refused(pd, ~uint64_t(0) - 10, 100, 0), EINVAL, "past 2^64");
        NS_TEST_EXPECT_MSG_EQ(refused(pd, base, 100, REMOTE_WRITE),
                              EINVAL,
                              "remote write needs local write");
        NS_TEST_EXPECT_MSG_EQ(refused(pd, base, 100, LOCAL_WRITE | REMOTE_ATOMIC),
                              0,
                              "atomic with local write");
        NS_TEST_EXPECT_MSG_EQ(refused(pd, base, 100, 16), EINVAL, "an unknown flag");
        Ptr<RdmaContext> other = CreateObject<RdmaContext>();
        other->Open(bed.device);
        NS_TEST_EXPECT_MSG_EQ(refused(other->AllocPd(), base, 100, 0),
                              EINVAL,
                              "another context's domain");
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(bed.context->DeallocPd(pd), EBUSY, "regions use it");
        NS_TEST_EXPECT_MSG_EQ(bed.context->DeregMr(mr), 0, "deregistered");
        NS_TEST_EXPECT_MSG_EQ(bed.context->DeregMr(mr), EINVAL, "twice");
        NS_TEST_EXPECT_MSG_EQ(bed.context->FindMrByRkey(mr->GetRkey()),
                              nullptr,
                              "its key names nothing");
        NS_TEST_EXPECT_MSG_EQ(mr->Allows(base, 1, REMOTE_WRITE), false, "no access any more");
        NS_TEST_EXPECT_MSG_EQ(table->Contains(base + 8192, 4096), false, "unpinned");
        NS_TEST_EXPECT_MSG_EQ(table->Contains(base, 4096), true, "the other region's page stays");

        bed.context->SetAttribute("RegistrationFailureProbability", DoubleValue(1.0));
        error = -1;
        bed.context->RegMr(pd,
                           base,
                           100,
                           0,
                           drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                               [&](Ptr<RdmaMemoryRegion> m, int e) {
                                   mr = m;
                                   error = e;
                               }));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(error, ENOMEM, "failed: ENOMEM, as ibv_reg_mr's NULL");
        NS_TEST_EXPECT_MSG_EQ(mr, nullptr, "no region");
        NS_TEST_EXPECT_MSG_EQ(bed.context->GetFailedRegistrations(), 1u, "counted");
        bed.context->SetAttribute("RegistrationFailureProbability", DoubleValue(0.0));
        bed.context->SetAttribute("MaxRegisteredBytes", UintegerValue(4096 + 100 + 50));
        error = -1;
        bed.context->RegMr(pd,
                           base,
                           100,
                           0,
                           drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                               [&](Ptr<RdmaMemoryRegion>, int e) { error = e; }));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(error, ENOMEM, "past MaxRegisteredBytes: ENOMEM");
        bool thrown = false;
        try
        {
            bed.context->SetAttribute("RegistrationFailureProbability", DoubleValue(1.5));
        }
        catch (const std::invalid_argument& e)
        {
            thrown = std::string(e.what()).find("[0, 1]") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "an invalid probability names its range");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The RC state machine: each transition with its required attributes,
 * refusals that change nothing, attribute ranges, SQD, ERR and RESET.
 */
class DrpVerbsQpStateTestCase : public TestCase
{
  public:
    DrpVerbsQpStateTestCase()
        : TestCase("Verbs: the RC queue pair's transitions need their attributes, EINVAL otherwise")
    {
    }

  private:
    void DoRun() override
    {
        using namespace RdmaQpAttrMask;
        VerbsBed bed;
        Ptr<RdmaProtectionDomain> pd = bed.context->AllocPd();
        int error = -1;
        Ptr<RdmaCompletionQueue> cq = bed.context->CreateCq(16, error);
        RdmaQpInitAttr init = SmallQp(cq, cq);
        init.cap.maxSendWr = 40000;
        NS_TEST_EXPECT_MSG_EQ(bed.context->CreateQp(pd, init, error), nullptr, "above MaxQpWr");
        NS_TEST_EXPECT_MSG_EQ(error, EINVAL, "EINVAL");
        init = SmallQp(cq, cq);
        init.cap.maxInlineData = 1000;
        NS_TEST_EXPECT_MSG_EQ(bed.context->CreateQp(pd, init, error),
                              nullptr,
                              "above MaxInlineData");
        Ptr<RdmaQueuePair> qp = bed.context->CreateQp(pd, SmallQp(cq, cq), error);
        NS_TEST_ASSERT_MSG_EQ(error, 0, "created");
        NS_TEST_EXPECT_MSG_EQ(qp->GetState(), RdmaQpState::RESET, "in RESET");
        NS_TEST_EXPECT_MSG_LT(qp->GetQpNum(), 1u << 24, "24 bits");
        std::vector<std::pair<RdmaQpState, RdmaQpState>> moves;
        qp->TraceConnectWithoutContext(
            "State",
            drp::FunctorCallback<void, RdmaQpState, RdmaQpState>(
                [&moves](RdmaQpState from, RdmaQpState to) { moves.emplace_back(from, to); }));

        RdmaQpAttr a;
        a.qpState = RdmaQpState::RTS;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE), EINVAL, "RESET -> RTS is not a transition");
        a.qpState = RdmaQpState::INIT;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE | PKEY_INDEX | PORT),
                              EINVAL,
                              "ACCESS_FLAGS missing");
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE | PKEY_INDEX | PORT | ACCESS_FLAGS | SQ_PSN),
                              EINVAL,
                              "SQ_PSN is not an INIT attribute");
        a.portNum = 2;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE | PKEY_INDEX | PORT | ACCESS_FLAGS),
                              EINVAL,
                              "one port");
        a.portNum = 1;
        NS_TEST_EXPECT_MSG_EQ(moves.size(), 0u, "nothing changed");
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE | PKEY_INDEX | PORT | ACCESS_FLAGS), 0, "INIT");

        a.qpState = RdmaQpState::RTR;
        const uint32_t rtr =
            STATE | AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, rtr & ~uint32_t(DEST_QPN)),
                              EINVAL,
                              "DEST_QPN missing");
        a.pathMtu = 3000;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, rtr), EINVAL, "path MTU 3000");
        a.pathMtu = 4096;
        a.rqPsn = 1u << 24;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, rtr), EINVAL, "a 25-bit PSN");
        a.rqPsn = 5;
        a.maxDestRdAtomic = 17;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, rtr), EINVAL, "above MaxQpRdAtom");
        a.maxDestRdAtomic = 16;
        a.destQpNum = 0x4321;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, rtr), 0, "RTR");
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, MIN_RNR_TIMER),
                              EINVAL,
                              "RTR -> RTR is not a transition");

        a.qpState = RdmaQpState::RTS;
        const uint32_t rts = STATE | SQ_PSN | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC;
        a.retryCnt = 8;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, rts), EINVAL, "retry count 8");
        a.retryCnt = 7;
        a.curQpState = RdmaQpState::INIT;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, rts | CUR_STATE), EINVAL, "CUR_STATE not the state");
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, rts), 0, "RTS");
        a.minRnrTimer = 20;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, MIN_RNR_TIMER), 0, "attributes alone within RTS");
        RdmaQpAttr q;
        RdmaQpInitAttr qi;
        qp->QueryQp(q, qi);
        NS_TEST_EXPECT_MSG_EQ(q.destQpNum, 0x4321u, "DEST_QPN kept");
        NS_TEST_EXPECT_MSG_EQ(q.minRnrTimer, 20, "MIN_RNR_TIMER changed");
        NS_TEST_EXPECT_MSG_EQ(q.cap.maxSendWr, 4u, "capacities read back");

        a.qpState = RdmaQpState::SQD;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE), 0, "SQD");
        a.qpState = RdmaQpState::RTS;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE), 0, "back to RTS");
        a.qpState = RdmaQpState::ERR;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE | TIMEOUT), EINVAL, "ERR takes the state only");
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE), 0, "ERR");
        NS_TEST_EXPECT_MSG_EQ(ToRts(qp), EINVAL, "ConnectRc from ERR: INIT is no transition");
        NS_TEST_EXPECT_MSG_EQ(qp->GetState(), RdmaQpState::ERR, "and nothing changed");
        a.qpState = RdmaQpState::RTS;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE), EINVAL, "ERR -> RTS is not a transition");
        a.qpState = RdmaQpState::RESET;
        NS_TEST_EXPECT_MSG_EQ(qp->ModifyQp(a, STATE), 0, "RESET");
        qp->QueryQp(q, qi);
        NS_TEST_EXPECT_MSG_EQ(q.destQpNum, 0u, "a reset queue pair forgets its peer");
        NS_TEST_EXPECT_MSG_EQ(ToRts(qp), 0, "and goes to RTS again");
        NS_TEST_EXPECT_MSG_EQ(moves.size(), 10u, "every change traced");
        NS_TEST_EXPECT_MSG_EQ(bed.context->DestroyCq(cq), EBUSY, "a queue pair uses it");
        NS_TEST_EXPECT_MSG_EQ(bed.context->DestroyQp(qp), 0, "destroyed");
        NS_TEST_EXPECT_MSG_EQ(bed.context->DestroyCq(cq), 0, "then the queue");
        NS_TEST_EXPECT_MSG_EQ(bed.context->DeallocPd(pd), 0, "and the domain");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Posting: the states that take requests, capacities and full queues (the
 * first request not posted named), the doorbell, flushing on ERR and
 * emptying on RESET.
 */
class DrpVerbsPostTestCase : public TestCase
{
  public:
    DrpVerbsPostTestCase()
        : TestCase("Verbs: posting checks state and capacity; ERR flushes every request in order")
    {
    }

  private:
    void DoRun() override
    {
        using namespace RdmaQpAttrMask;
        VerbsBed bed;
        Ptr<RdmaProtectionDomain> pd = bed.context->AllocPd();
        int error = -1;
        Ptr<RdmaCompletionQueue> scq = bed.context->CreateCq(16, error);
        Ptr<RdmaCompletionQueue> rcq = bed.context->CreateCq(16, error);
        Ptr<RdmaQueuePair> qp = bed.context->CreateQp(pd, SmallQp(scq, rcq), error);
        uint32_t rung = 0;
        qp->SetDoorbell(drp::FunctorCallback<void, Ptr<RdmaQueuePair>>(
            [&rung](Ptr<RdmaQueuePair>) { ++rung; }));
        size_t bad = 99;
        NS_TEST_EXPECT_MSG_EQ(qp->PostSend({Send(1)}, &bad), EINVAL, "RESET takes no send");
        NS_TEST_EXPECT_MSG_EQ(bad, 0u, "the first request named");
        NS_TEST_EXPECT_MSG_EQ(qp->PostRecv({Recv(1)}), EINVAL, "RESET takes no receive");
        RdmaQpAttr a;
        a.qpState = RdmaQpState::INIT;
        qp->ModifyQp(a, STATE | PKEY_INDEX | PORT | ACCESS_FLAGS);
        NS_TEST_EXPECT_MSG_EQ(qp->PostSend({Send(1)}), EINVAL, "INIT takes no send");
        NS_TEST_EXPECT_MSG_EQ(qp->PostRecv({Recv(10), Recv(11)}), 0, "INIT takes receives");
        bad = 99;
        NS_TEST_EXPECT_MSG_EQ(qp->PostRecv({Recv(12), Recv(13)}, &bad),
                              ENOMEM,
                              "3 receives at most");
        NS_TEST_EXPECT_MSG_EQ(bad, 1u, "the second not posted");
        NS_TEST_EXPECT_MSG_EQ(qp->GetRecvQueueLength(), 3u, "the first was");
        qp->ModifyQp(a, STATE); // INIT -> INIT
        a.qpState = RdmaQpState::RESET;
        qp->ModifyQp(a, STATE);
        NS_TEST_EXPECT_MSG_EQ(qp->GetRecvQueueLength(), 0u, "RESET empties the queues");
        NS_TEST_EXPECT_MSG_EQ(rcq->GetCount(), 0u, "without completions");
        NS_TEST_ASSERT_MSG_EQ(ToRts(qp), 0, "RTS");
        qp->PostRecv({Recv(20), Recv(21)});

        RdmaSendWr threeSges = Send(5);
        threeSges.sgList.resize(3);
        RdmaSendWr inlineTooBig = Send(6, 65);
        inlineTooBig.sendFlags = RdmaSendFlags::INLINE;
        RdmaSendWr inlineFits = Send(7, 64);
        inlineFits.sendFlags = RdmaSendFlags::INLINE;
        bad = 99;
        NS_TEST_EXPECT_MSG_EQ(qp->PostSend({Send(1), Send(2), threeSges}, &bad),
                              EINVAL,
                              "3 SGEs, 2 at most");
        NS_TEST_EXPECT_MSG_EQ(bad, 2u, "the third named");
        NS_TEST_EXPECT_MSG_EQ(qp->GetSendQueueLength(), 2u, "the first two posted");
        NS_TEST_EXPECT_MSG_EQ(rung, 0u, "a failed call rings nothing");
        NS_TEST_EXPECT_MSG_EQ(qp->PostSend({inlineTooBig}), EINVAL, "65 inline bytes, 64 at most");
        NS_TEST_EXPECT_MSG_EQ(qp->PostSend({inlineFits}), 0, "64 inline bytes");
        NS_TEST_EXPECT_MSG_EQ(rung, 1u, "the doorbell rang");
        NS_TEST_EXPECT_MSG_EQ(qp->PostSend({Send(8), Send(9)}, &bad), ENOMEM, "4 sends at most");
        NS_TEST_EXPECT_MSG_EQ(bad, 1u, "the second not posted");

        a.qpState = RdmaQpState::ERR;
        qp->ModifyQp(a, STATE);
        std::vector<RdmaWc> sends = scq->Poll(16);
        std::vector<RdmaWc> recvs = rcq->Poll(16);
        NS_TEST_ASSERT_MSG_EQ(sends.size(), 4u, "every send flushed");
        NS_TEST_ASSERT_MSG_EQ(recvs.size(), 2u, "every receive flushed");
        const uint64_t order[] = {1, 2, 7, 8};
        for (size_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sends[i].wrId, order[i], "in posting order");
            NS_TEST_EXPECT_MSG_EQ(sends[i].status, RdmaWcStatus::WR_FLUSH_ERR, "WR_FLUSH_ERR");
            NS_TEST_EXPECT_MSG_EQ(sends[i].qpNum, qp->GetQpNum(), "its queue pair");
        }
        NS_TEST_EXPECT_MSG_EQ(recvs[0].wrId, 20u, "receives in order");
        NS_TEST_EXPECT_MSG_EQ(int(recvs[1].opcode), int(RdmaWcOpcode::RECV), "as receives");
        NS_TEST_EXPECT_MSG_EQ(qp->PostSend({Send(30)}), 0, "ERR takes a send");
        NS_TEST_EXPECT_MSG_EQ(qp->PostRecv({Recv(31)}), 0, "and a receive");
        NS_TEST_EXPECT_MSG_EQ(scq->Poll(1)[0].wrId, 30u, "flushed at once");
        NS_TEST_EXPECT_MSG_EQ(rcq->Poll(1)[0].status, RdmaWcStatus::WR_FLUSH_ERR, "flushed");
        NS_TEST_EXPECT_MSG_EQ(qp->GetSendQueueLength() + qp->GetRecvQueueLength(),
                              0u,
                              "nothing left");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Two hosts, a context on each RNIC, a connected RC queue pair on each, and
 * regions: host 0's source and read destination, host 1's target (remote
 * write and read) and a region without remote access.
 */
struct VerbsPairBed
{
    /**
     * \param method the RNICs' method
     * \param losses frames host 0's RNIC loses, 0-based in arrival order from
     *        the first request on (ReceiveListErrorModel)
     */
    explicit VerbsPairBed(const std::string& method, const std::list<uint32_t>& losses = {})
    {
        nodes.Create(2);
        RnicHelper rnic;
        rnic.SetMethod(method);
        NetDeviceContainer devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        for (uint32_t i = 0; i < 2; ++i)
        {
            device[i] = DynamicCast<RnicNetDevice>(devices.Get(i));
            context[i] = CreateObject<RdmaContext>();
            context[i]->Open(device[i]);
            pd[i] = context[i]->AllocPd();
            int error = -1;
            cq[i] = context[i]->CreateCq(64, error);
            RdmaQpInitAttr init = SmallQp(cq[i], cq[i]);
            init.cap.maxSendWr = 16;
            qp[i] = context[i]->CreateQp(pd[i], init, error);
        }
        for (uint32_t i = 0; i < 2; ++i)
        {
            const uint32_t other = 1 - i;
            const uint64_t peer =
                DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(device[other]->GetAddress()));
            // The peer expects PSN 7 first (rqPsn): RoCE's requester starts there.
            ToRts(qp[i], peer, qp[other]->GetQpNum(), 7, 7);
        }
        using namespace RdmaAccess;
        const uint32_t remote = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;
        Register(0, SOURCE, LENGTH, LOCAL_WRITE, source);
        Register(0, BACK, LENGTH, LOCAL_WRITE, back);
        Register(1, TARGET, LENGTH, remote, target);
        Register(1, CLOSED, LENGTH, LOCAL_WRITE, closed);
        Register(1, INBOX, LENGTH, LOCAL_WRITE, inbox);
        device[0]->GetHostMemory()->Fill(SOURCE, LENGTH, 42);
        Simulator::Run();
        if (!losses.empty())
        {
            Ptr<ReceiveListErrorModel> model = CreateObject<ReceiveListErrorModel>();
            model->SetList(losses);
            device[0]->SetReceiveErrorModel(model);
        }
    }

    /// \param i a host \param address 8 bytes there \return them, little-endian
    uint64_t ReadU64(uint32_t i, uint64_t address) const
    {
        uint8_t b[8];
        device[i]->GetHostMemory()->Read(address, b, 8);
        uint64_t v = 0;
        for (int k = 7; k >= 0; --k)
        {
            v = (v << 8) | b[k];
        }
        return v;
    }

    /// \param i a host \param address 8 bytes there \param v their value, little-endian
    void WriteU64(uint32_t i, uint64_t address, uint64_t v) const
    {
        uint8_t b[8];
        for (int k = 0; k < 8; ++k)
        {
            b[k] = uint8_t(v >> (8 * k));
        }
        device[i]->GetHostMemory()->Write(address, b, 8);
    }

    /// Registers a region of host i into out (run the simulator after).
    void Register(uint32_t i,
                  uint64_t address,
                  uint32_t length,
                  uint32_t access,
                  Ptr<RdmaMemoryRegion>& out)
    {
        context[i]->RegMr(pd[i],
                          address,
                          length,
                          access,
                          drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                              [&out](Ptr<RdmaMemoryRegion> mr, int) { out = mr; }));
    }

    /**
     * \param id wr_id \param opcode WRITE or READ \param local first local byte
     * \param lkey its key \param remote the peer's first byte \param bytes SGE lengths
     * \param flags send flags
     * \return the request
     */
    static RdmaSendWr Request(uint64_t id,
                              RdmaWrOpcode opcode,
                              uint64_t local,
                              uint32_t lkey,
                              uint64_t remote,
                              std::vector<uint32_t> bytes,
                              uint32_t flags = RdmaSendFlags::SIGNALED)
    {
        RdmaSendWr wr;
        wr.wrId = id;
        wr.opcode = opcode;
        wr.remoteAddr = remote;
        wr.sendFlags = flags;
        for (uint32_t b : bytes)
        {
            wr.sgList.push_back({local, b, lkey});
            local += b;
        }
        return wr;
    }

    /// Both queue pairs to RESET and back to RTS, their PSNs agreeing again.
    void Restart()
    {
        RdmaQpAttr reset;
        reset.qpState = RdmaQpState::RESET;
        for (uint32_t i = 0; i < 2; ++i)
        {
            qp[i]->ModifyQp(reset, RdmaQpAttrMask::STATE);
        }
        for (uint32_t i = 0; i < 2; ++i)
        {
            const uint32_t other = 1 - i;
            ToRts(qp[i],
                  DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(device[other]->GetAddress())),
                  qp[other]->GetQpNum(),
                  7,
                  7);
        }
    }

    /**
     * Gives each RDMA WRITE and READ the rkey of the region its remote
     * address lies in (RoCE checks it; DRP finds the region by address).
     * \param wrs requests
     * \return them, keyed
     */
    std::vector<RdmaSendWr> Keyed(std::vector<RdmaSendWr> wrs) const
    {
        for (RdmaSendWr& wr : wrs)
        {
            if (wr.remoteAddr >= CLOSED && wr.remoteAddr < CLOSED + LENGTH)
            {
                wr.rkey = closed->GetRkey();
            }
            else if (wr.remoteAddr >= TARGET && wr.remoteAddr < TARGET + LENGTH)
            {
                wr.rkey = target->GetRkey();
            }
        }
        return wrs;
    }

    static constexpr uint64_t SOURCE = 0x100000; //!< host 0: what is written
    static constexpr uint64_t BACK = 0x200000;   //!< host 0: where a read lands
    static constexpr uint64_t TARGET = 0x300000; //!< host 1: remote write and read
    static constexpr uint64_t CLOSED = 0x400000; //!< host 1: no remote access
    static constexpr uint64_t INBOX = 0x500000;  //!< host 1: receive buffers
    static constexpr uint32_t LENGTH = 65536;    //!< each region's bytes

    NodeContainer nodes;                  //!< the hosts
    Ptr<RnicNetDevice> device[2];         //!< their RNICs
    Ptr<RdmaContext> context[2];          //!< a context on each
    Ptr<RdmaProtectionDomain> pd[2];      //!< a domain each
    Ptr<RdmaCompletionQueue> cq[2];       //!< a queue each (send and receive)
    Ptr<RdmaQueuePair> qp[2];             //!< connected to each other
    Ptr<RdmaMemoryRegion> source, back;   //!< host 0's regions
    Ptr<RdmaMemoryRegion> target, closed; //!< host 1's regions
    Ptr<RdmaMemoryRegion> inbox;          //!< host 1's receive buffers
};

/**
 * \ingroup drp-tests
 * RDMA WRITE and READ over both DRP methods: the bytes arrive, requests
 * end in order, unsignalled ones complete nothing, the per-transfer
 * registration is the responder's.
 */
class DrpVerbsDataTestCase : public TestCase
{
  public:
    DrpVerbsDataTestCase()
        : TestCase("Verbs over DRP: RDMA WRITE and READ move the bytes and end in order")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string method : {"traditional", "dynamic", "roce"})
        {
            VerbsPairBed bed(method);
            using B = VerbsPairBed;
            const uint32_t lkey = bed.source->GetLkey();
            std::vector<RdmaSendWr> wrs = {
                B::Request(1, RdmaWrOpcode::RDMA_WRITE, B::SOURCE, lkey, B::TARGET, {10000, 6000}),
                B::Request(2,
                           RdmaWrOpcode::RDMA_READ,
                           B::BACK,
                           bed.back->GetLkey(),
                           B::TARGET,
                           {16000}),
                B::Request(3,
                           RdmaWrOpcode::RDMA_WRITE,
                           B::SOURCE,
                           lkey,
                           B::TARGET + 20000,
                           {100},
                           0),
                B::Request(4,
                           RdmaWrOpcode::RDMA_WRITE,
                           B::SOURCE + 100,
                           lkey,
                           B::TARGET + 20100,
                           {900}),
            };
            NS_TEST_ASSERT_MSG_EQ(bed.qp[0]->PostSend(bed.Keyed(wrs)), 0, method << ": posted");
            Simulator::Run();
            std::vector<RdmaWc> wcs = bed.cq[0]->Poll(16);
            NS_TEST_ASSERT_MSG_EQ(wcs.size(), 3u, method << ": three signalled requests");
            const uint64_t ids[] = {1, 2, 4};
            const uint32_t bytes[] = {16000, 16000, 900};
            for (size_t i = 0; i < 3; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(wcs[i].wrId, ids[i], method << ": in order");
                NS_TEST_EXPECT_MSG_EQ(wcs[i].status, RdmaWcStatus::SUCCESS, method << ": success");
                NS_TEST_EXPECT_MSG_EQ(wcs[i].byteLen, bytes[i], method << ": its bytes");
                NS_TEST_EXPECT_MSG_EQ(wcs[i].qpNum, bed.qp[0]->GetQpNum(), method << ": its QP");
            }
            NS_TEST_EXPECT_MSG_EQ(int(wcs[1].opcode),
                                  int(RdmaWcOpcode::RDMA_READ),
                                  method << ": READ");
            Ptr<HostMemory> mine = bed.device[0]->GetHostMemory();
            Ptr<HostMemory> peer = bed.device[1]->GetHostMemory();
            NS_TEST_EXPECT_MSG_EQ(mine->CountDifferences(B::SOURCE, peer, B::TARGET, 16000),
                                  0u,
                                  method << ": written byte for byte");
            NS_TEST_EXPECT_MSG_EQ(mine->CountDifferences(B::SOURCE, peer, B::TARGET + 20000, 1000),
                                  0u,
                                  method << ": the unsignalled write too");
            NS_TEST_EXPECT_MSG_EQ(mine->CountDifferences(B::SOURCE, mine, B::BACK, 16000),
                                  0u,
                                  method << ": read back after the write (in order at the peer)");
            NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetState(), RdmaQpState::RTS, method << ": still RTS");
            NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetSendQueueLength(), 0u, method << ": nothing left");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup drp-tests
 * Errors over DRP: a bad lkey ends the request with LOC_PROT_ERR, a target
 * without remote write with REM_ACCESS_ERR (nothing placed, with the
 * dynamic method's indirect data too), each moving the queue pair to ERR
 * and flushing what follows.
 */
class DrpVerbsErrorTestCase : public TestCase
{
  public:
    DrpVerbsErrorTestCase()
        : TestCase(
              "Verbs over DRP: a bad lkey and a closed target end in errors and flush the rest")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string method : {"traditional", "dynamic", "roce"})
        {
            VerbsPairBed bed(method);
            using B = VerbsPairBed;
            const uint32_t lkey = bed.source->GetLkey();
            Ptr<HostMemory> peer = bed.device[1]->GetHostMemory();
            const std::vector<uint8_t> before = drptest::Snapshot(peer, B::CLOSED, 4096);
            std::vector<RdmaSendWr> wrs = {
                B::Request(1, RdmaWrOpcode::RDMA_WRITE, B::SOURCE, lkey, B::CLOSED, {4096}),
                B::Request(2, RdmaWrOpcode::RDMA_WRITE, B::SOURCE, lkey, B::TARGET + 40000, {100}),
            };
            NS_TEST_ASSERT_MSG_EQ(bed.qp[0]->PostSend(bed.Keyed(wrs)), 0, method << ": posted");
            Simulator::Run();
            std::vector<RdmaWc> wcs = bed.cq[0]->Poll(16);
            NS_TEST_ASSERT_MSG_EQ(wcs.size(), 2u, method << ": both complete");
            NS_TEST_EXPECT_MSG_EQ(wcs[0].status,
                                  RdmaWcStatus::REM_ACCESS_ERR,
                                  method << ": refused");
            NS_TEST_EXPECT_MSG_EQ(wcs[1].status, RdmaWcStatus::WR_FLUSH_ERR, method << ": flushed");
            NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetState(), RdmaQpState::ERR, method << ": in ERR");
            NS_TEST_EXPECT_MSG_EQ((drptest::Snapshot(peer, B::CLOSED, 4096) == before),
                                  true,
                                  method << ": nothing placed in the closed region");
            if (method != "roce") // RoCE's responder refuses with a NAK, nothing to count
            {
                NS_TEST_EXPECT_MSG_GT(bed.device[1]->GetObject<DrpVerbsProvider>()->GetRefusals(),
                                      0u,
                                      method << ": the responder refused");
            }
            // A fresh start: RESET, back to RTS, then a request with a bad lkey.
            RdmaQpAttr reset;
            reset.qpState = RdmaQpState::RESET;
            bed.qp[0]->ModifyQp(reset, RdmaQpAttrMask::STATE);
            ToRts(bed.qp[0],
                  DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(bed.device[1]->GetAddress())),
                  bed.qp[1]->GetQpNum());
            wrs = {B::Request(3, RdmaWrOpcode::RDMA_WRITE, B::SOURCE, 0xdead, B::TARGET, {100}),
                   B::Request(4, RdmaWrOpcode::RDMA_WRITE, B::SOURCE, lkey, B::TARGET, {100})};
            bed.qp[0]->PostSend(bed.Keyed(wrs));
            Simulator::Run();
            wcs = bed.cq[0]->Poll(16);
            NS_TEST_ASSERT_MSG_EQ(wcs.size(), 2u, method << ": both complete");
            NS_TEST_EXPECT_MSG_EQ(wcs[0].status,
                                  RdmaWcStatus::LOC_PROT_ERR,
                                  method << ": bad lkey");
            NS_TEST_EXPECT_MSG_EQ(wcs[1].status, RdmaWcStatus::WR_FLUSH_ERR, method << ": flushed");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup drp-tests
 * Atomics over both DRP methods: fetch and add and compare and swap return
 * the value before them and leave the result, in order; a compare that
 * fails swaps nothing; a misaligned target ends REM_INV_REQ_ERR, a region
 * without REMOTE_ATOMIC REM_ACCESS_ERR, a local SGE other than 8 bytes
 * LOC_LEN_ERR. Each operation runs exactly once when the reply, the data
 * or the release's answer is lost on the way back (ReceiveListErrorModel
 * on the requester): the target gains the addend once and the requester
 * gets the value from before it.
 */
class DrpVerbsAtomicTestCase : public TestCase
{
  public:
    DrpVerbsAtomicTestCase()
        : TestCase("Verbs over DRP: atomics return the old value, check access, run exactly once")
    {
    }

  private:
    /// \param id wr_id \param opcode an atomic \param local where the old value lands
    /// \param lkey its key \param remote the target \param rkey its key
    /// \param compareAdd compare (CAS) or addend (FAA) \param swap CAS's new value
    /// \return the request
    static RdmaSendWr Atomic(uint64_t id,
                             RdmaWrOpcode opcode,
                             uint64_t local,
                             uint32_t lkey,
                             uint64_t remote,
                             uint32_t rkey,
                             uint64_t compareAdd,
                             uint64_t swap = 0)
    {
        RdmaSendWr wr = VerbsPairBed::Request(id, opcode, local, lkey, remote, {8});
        wr.rkey = rkey;
        wr.compareAdd = compareAdd;
        wr.swap = swap;
        return wr;
    }

    void DoRun() override
    {
        using B = VerbsPairBed;
        for (const std::string method : {"traditional", "dynamic", "roce"})
        {
            VerbsPairBed bed(method);
            const uint32_t lkey = bed.back->GetLkey();
            const uint32_t rkey = bed.target->GetRkey();
            const uint64_t word = B::TARGET + 64;
            bed.WriteU64(1, word, 10);
            std::vector<RdmaSendWr> wrs = {
                Atomic(1, RdmaWrOpcode::ATOMIC_FETCH_AND_ADD, B::BACK, lkey, word, rkey, 5),
                Atomic(2, RdmaWrOpcode::ATOMIC_FETCH_AND_ADD, B::BACK + 8, lkey, word, rkey, 7),
                Atomic(3,
                       RdmaWrOpcode::ATOMIC_CMP_AND_SWP,
                       B::BACK + 16,
                       lkey,
                       word,
                       rkey,
                       22,
                       100),
                Atomic(4, RdmaWrOpcode::ATOMIC_CMP_AND_SWP, B::BACK + 24, lkey, word, rkey, 1, 5),
            };
            NS_TEST_ASSERT_MSG_EQ(bed.qp[0]->PostSend(wrs), 0, method << ": posted");
            Simulator::Run();
            std::vector<RdmaWc> wcs = bed.cq[0]->Poll(16);
            NS_TEST_ASSERT_MSG_EQ(wcs.size(), 4u, method << ": four completions");
            const uint64_t before[] = {10, 15, 22, 100};
            for (size_t i = 0; i < 4; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(wcs[i].wrId, i + 1, method << ": in order");
                NS_TEST_EXPECT_MSG_EQ(wcs[i].status, RdmaWcStatus::SUCCESS, method << ": success");
                NS_TEST_EXPECT_MSG_EQ(wcs[i].byteLen, 8u, method << ": 8 bytes");
                NS_TEST_EXPECT_MSG_EQ(
                    int(wcs[i].opcode),
                    int(i < 2 ? RdmaWcOpcode::FETCH_ADD : RdmaWcOpcode::COMP_SWAP),
                    method << ": its opcode");
                NS_TEST_EXPECT_MSG_EQ(bed.ReadU64(0, B::BACK + 8 * i),
                                      before[i],
                                      method << ": request " << i + 1 << " got the old value");
            }
            NS_TEST_EXPECT_MSG_EQ(bed.ReadU64(1, word),
                                  100u,
                                  method << ": 10 + 5 + 7, swapped to 100, the failed compare "
                                            "left it");
            const uint64_t executed =
                method == "roce" ? bed.device[1]->GetObject<RoceTransport>()->GetAtomics()
                                 : bed.device[1]->GetObject<DrpVerbsProvider>()->GetAtomics();
            NS_TEST_EXPECT_MSG_EQ(executed, 4u, method << ": four executed");

            // Errors, each after a fresh start of the queue pair.
            const std::pair<RdmaSendWr, RdmaWcStatus> errors[] = {
                {Atomic(5, RdmaWrOpcode::ATOMIC_FETCH_AND_ADD, B::BACK, lkey, word + 4, rkey, 1),
                 RdmaWcStatus::REM_INV_REQ_ERR},
                {Atomic(6,
                        RdmaWrOpcode::ATOMIC_FETCH_AND_ADD,
                        B::BACK,
                        lkey,
                        B::CLOSED,
                        bed.closed->GetRkey(),
                        1),
                 RdmaWcStatus::REM_ACCESS_ERR},
                {B::Request(7, RdmaWrOpcode::ATOMIC_FETCH_AND_ADD, B::BACK, lkey, word, {4}),
                 RdmaWcStatus::LOC_LEN_ERR},
            };
            for (const auto& [wr, status] : errors)
            {
                bed.Restart();
                std::vector<RdmaSendWr> one = {wr};
                bed.qp[0]->PostSend(one);
                Simulator::Run();
                wcs = bed.cq[0]->Poll(16);
                NS_TEST_ASSERT_MSG_EQ(wcs.size(), 1u, method << ": request " << wr.wrId);
                NS_TEST_EXPECT_MSG_EQ(wcs[0].status, status, method << ": request " << wr.wrId);
                NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetState(), RdmaQpState::ERR, method << ": ERR");
            }
            NS_TEST_EXPECT_MSG_EQ(bed.ReadU64(1, word), 100u, method << ": untouched by them");
            Simulator::Destroy();

            // Exactly once: each of the first three frames back to the requester
            // lost (-1: none, the time a loss must add to). RoCE sends one: the
            // atomic acknowledgement.
            Time lossless;
            for (int lost = -1; lost < (method == "roce" ? 1 : 3); ++lost)
            {
                VerbsPairBed lossy(method,
                                   lost < 0 ? std::list<uint32_t>{}
                                            : std::list<uint32_t>{uint32_t(lost)});
                const Time start = Simulator::Now();
                lossy.WriteU64(1, word, 1000);
                std::vector<RdmaSendWr> add = {Atomic(8,
                                                      RdmaWrOpcode::ATOMIC_FETCH_AND_ADD,
                                                      B::BACK,
                                                      lossy.back->GetLkey(),
                                                      word,
                                                      lossy.target->GetRkey(),
                                                      1)};
                lossy.qp[0]->PostSend(add);
                Simulator::Run();
                wcs = lossy.cq[0]->Poll(16);
                NS_TEST_ASSERT_MSG_EQ(wcs.size(), 1u, method << ", frame " << lost << " lost");
                NS_TEST_EXPECT_MSG_EQ(wcs[0].status,
                                      RdmaWcStatus::SUCCESS,
                                      method << ", frame " << lost << " lost: success");
                NS_TEST_EXPECT_MSG_EQ(lossy.ReadU64(1, word),
                                      1001u,
                                      method << ", frame " << lost << " lost: added once");
                NS_TEST_EXPECT_MSG_EQ(lossy.ReadU64(0, B::BACK),
                                      1000u,
                                      method << ", frame " << lost << " lost: the value before");
                const Time took = Simulator::Now() - start;
                if (lost < 0)
                {
                    lossless = took;
                }
                else
                {
                    NS_TEST_EXPECT_MSG_GT(took,
                                          lossless,
                                          method << ", frame " << lost
                                                 << " lost: a loss, recovered by a timer");
                }
                Simulator::Destroy();
            }
        }
    }
};

/**
 * \ingroup drp-tests
 * SEND, SEND with immediate and WRITE with immediate over both DRP methods:
 * each message lands in the receive at the head of the peer's queue (a
 * WRITE with immediate at its rkey's bytes) and completes it with its
 * length and immediate data; the receiver-not-ready NAK is retried after
 * the RNR timer until a receive is posted, or ends the request with
 * RNR_RETRY_EXC_ERR after rnr_retry; a SEND above the receive's buffer
 * ends REM_INV_REQ_ERR at the sender and LOC_LEN_ERR at the receiver; a
 * wrong rkey REM_ACCESS_ERR, nothing written.
 */
class DrpVerbsMessageTestCase : public TestCase
{
  public:
    DrpVerbsMessageTestCase()
        : TestCase("Verbs over DRP: SEND, immediate data, RNR and a receive too small")
    {
    }

  private:
    /// \param bed a bed \param wrId id \param address first byte \param bytes its length
    static void PostRecv(VerbsPairBed& bed, uint64_t wrId, uint64_t address, uint32_t bytes)
    {
        RdmaRecvWr wr;
        wr.wrId = wrId;
        wr.sgList.push_back({address, bytes, bed.inbox->GetLkey()});
        bed.qp[1]->PostRecv({wr});
    }

    void Deliver(const std::string& method)
    {
        VerbsPairBed bed(method);
        using B = VerbsPairBed;
        const uint32_t lkey = bed.source->GetLkey();
        PostRecv(bed, 11, B::INBOX, 4096);
        PostRecv(bed, 12, B::INBOX + 4096, 4096);
        PostRecv(bed, 13, B::INBOX + 8192, 16);
        RdmaSendWr send = B::Request(1, RdmaWrOpcode::SEND, B::SOURCE, lkey, 0, {1000});
        RdmaSendWr imm = B::Request(2,
                                    RdmaWrOpcode::SEND_WITH_IMM,
                                    B::SOURCE + 1000,
                                    lkey,
                                    0,
                                    {500},
                                    RdmaSendFlags::SIGNALED | RdmaSendFlags::SOLICITED);
        imm.immData = 0xabcd;
        RdmaSendWr write =
            B::Request(3, RdmaWrOpcode::RDMA_WRITE_WITH_IMM, B::SOURCE, lkey, B::TARGET, {2000});
        write.immData = 7;
        write.rkey = bed.target->GetRkey();
        NS_TEST_ASSERT_MSG_EQ(bed.qp[0]->PostSend({send, imm, write}), 0, method << ": posted");
        Ptr<HostMemory> peer = bed.device[1]->GetHostMemory();
        const std::vector<uint8_t> third = drptest::Snapshot(peer, B::INBOX + 8192, 16);
        Simulator::Run();
        std::vector<RdmaWc> sent = bed.cq[0]->Poll(16);
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 3u, method << ": three sends complete");
        for (const RdmaWc& wc : sent)
        {
            NS_TEST_EXPECT_MSG_EQ(wc.status, RdmaWcStatus::SUCCESS, method << ": sent");
        }
        NS_TEST_EXPECT_MSG_EQ(int(sent[0].opcode), int(RdmaWcOpcode::SEND), method << ": SEND");
        NS_TEST_EXPECT_MSG_EQ(int(sent[2].opcode),
                              int(RdmaWcOpcode::RDMA_WRITE),
                              method << ": WRITE with immediate completes as a WRITE");
        std::vector<RdmaWc> got = bed.cq[1]->Poll(16);
        NS_TEST_ASSERT_MSG_EQ(got.size(), 3u, method << ": three receives complete");
        const uint64_t ids[] = {11, 12, 13};
        const uint32_t bytes[] = {1000, 500, 2000};
        const bool withImm[] = {false, true, true};
        const uint32_t imms[] = {0, 0xabcd, 7};
        for (size_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(got[i].wrId, ids[i], method << ": the receives in order");
            NS_TEST_EXPECT_MSG_EQ(got[i].status, RdmaWcStatus::SUCCESS, method << ": received");
            NS_TEST_EXPECT_MSG_EQ(got[i].byteLen, bytes[i], method << ": the message's length");
            NS_TEST_EXPECT_MSG_EQ(got[i].withImm, withImm[i], method << ": immediate or not");
            NS_TEST_EXPECT_MSG_EQ(got[i].immData, imms[i], method << ": the immediate data");
            NS_TEST_EXPECT_MSG_EQ(got[i].srcQp, bed.qp[0]->GetQpNum(), method << ": from");
        }
        NS_TEST_EXPECT_MSG_EQ(int(got[0].opcode), int(RdmaWcOpcode::RECV), method << ": RECV");
        NS_TEST_EXPECT_MSG_EQ(int(got[2].opcode),
                              int(RdmaWcOpcode::RECV_RDMA_WITH_IMM),
                              method << ": RECV_RDMA_WITH_IMM");
        Ptr<HostMemory> mine = bed.device[0]->GetHostMemory();
        NS_TEST_EXPECT_MSG_EQ(mine->CountDifferences(B::SOURCE, peer, B::INBOX, 1000),
                              0u,
                              method << ": the SEND in the first receive, byte for byte");
        NS_TEST_EXPECT_MSG_EQ(mine->CountDifferences(B::SOURCE + 1000, peer, B::INBOX + 4096, 500),
                              0u,
                              method << ": the second in the second");
        NS_TEST_EXPECT_MSG_EQ(mine->CountDifferences(B::SOURCE, peer, B::TARGET, 2000),
                              0u,
                              method << ": the WRITE at its address");
        NS_TEST_EXPECT_MSG_EQ((drptest::Snapshot(peer, B::INBOX + 8192, 16) == third),
                              true,
                              method << ": the WRITE's receive buffer untouched");
        Simulator::Destroy();
    }

    void ReceiverNotReady(const std::string& method)
    {
        VerbsPairBed bed(method);
        using B = VerbsPairBed;
        const uint32_t lkey = bed.source->GetLkey();
        // The receive comes 1 ms late: NAKs, retried every 0.64 ms (code 12), then success.
        Simulator::Schedule(MilliSeconds(1), [&bed]() { PostRecv(bed, 21, B::INBOX, 4096); });
        bed.qp[0]->PostSend({B::Request(1, RdmaWrOpcode::SEND, B::SOURCE, lkey, 0, {3000})});
        Simulator::Run();
        std::vector<RdmaWc> sent = bed.cq[0]->Poll(4);
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 1u, method << ": the SEND completes");
        NS_TEST_EXPECT_MSG_EQ(sent[0].status, RdmaWcStatus::SUCCESS, method << ": once received");
        const uint64_t naks = method == "roce"
                                  ? bed.device[1]->GetObject<RoceTransport>()->GetRnrNaks()
                                  : bed.device[1]->GetObject<DrpVerbsProvider>()->GetRefusals();
        NS_TEST_EXPECT_MSG_EQ(naks, 2u, method << ": NAKed at 0 and 0.64 ms, taken at 1.28 ms");
        std::vector<RdmaWc> got = bed.cq[1]->Poll(4);
        NS_TEST_ASSERT_MSG_EQ(got.size(), 1u, method << ": received");
        NS_TEST_EXPECT_MSG_EQ(got[0].byteLen, 3000u, method << ": whole");
        NS_TEST_EXPECT_MSG_EQ(
            bed.device[0]->GetHostMemory()->CountDifferences(B::SOURCE,
                                                             bed.device[1]->GetHostMemory(),
                                                             B::INBOX,
                                                             3000),
            0u,
            method << ": nothing from the NAKed tries, the bytes once");
        // rnr_retry 2 and no receive: two retries, then RNR_RETRY_EXC_ERR. Both
        // queue pairs start again, so that their PSNs agree.
        RdmaQpAttr reset;
        reset.qpState = RdmaQpState::RESET;
        bed.qp[0]->ModifyQp(reset, RdmaQpAttrMask::STATE);
        bed.qp[1]->ModifyQp(reset, RdmaQpAttrMask::STATE);
        ToRts(bed.qp[0],
              DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(bed.device[1]->GetAddress())),
              bed.qp[1]->GetQpNum(),
              2,
              7);
        ToRts(bed.qp[1],
              DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(bed.device[0]->GetAddress())),
              bed.qp[0]->GetQpNum(),
              7,
              7);
        const Time posted = Simulator::Now();
        bed.qp[0]->PostSend({B::Request(2, RdmaWrOpcode::SEND, B::SOURCE, lkey, 0, {100})});
        Simulator::Run();
        sent = bed.cq[0]->Poll(4);
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 1u, method << ": ends");
        NS_TEST_EXPECT_MSG_EQ(sent[0].status,
                              RdmaWcStatus::RNR_RETRY_EXC_ERR,
                              method << ": RNR retries exhausted");
        NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetState(), RdmaQpState::ERR, method << ": in ERR");
        NS_TEST_EXPECT_MSG_GT(Simulator::Now() - posted,
                              MicroSeconds(2 * 640),
                              method << ": after two RNR timers");
        NS_TEST_EXPECT_MSG_LT(Simulator::Now() - posted,
                              MicroSeconds(2 * 640 + 300),
                              method << ": and little more");
        Simulator::Destroy();
    }

    void Refused(const std::string& method)
    {
        VerbsPairBed bed(method);
        using B = VerbsPairBed;
        const uint32_t lkey = bed.source->GetLkey();
        PostRecv(bed, 31, B::INBOX, 100);
        bed.qp[0]->PostSend({B::Request(1, RdmaWrOpcode::SEND, B::SOURCE, lkey, 0, {1000})});
        Simulator::Run();
        std::vector<RdmaWc> sent = bed.cq[0]->Poll(4);
        std::vector<RdmaWc> got = bed.cq[1]->Poll(4);
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 1u, method << ": the SEND ends");
        NS_TEST_EXPECT_MSG_EQ(sent[0].status,
                              RdmaWcStatus::REM_INV_REQ_ERR,
                              method << ": too long for the receive");
        NS_TEST_ASSERT_MSG_EQ(got.size(), 1u, method << ": the receive ends");
        NS_TEST_EXPECT_MSG_EQ(got[0].status, RdmaWcStatus::LOC_LEN_ERR, method << ": LOC_LEN_ERR");
        NS_TEST_EXPECT_MSG_EQ(bed.qp[1]->GetState(), RdmaQpState::ERR, method << ": receiver ERR");
        Simulator::Destroy();
        // A WRITE with immediate under a wrong rkey: refused, nothing written.
        VerbsPairBed again(method);
        Ptr<HostMemory> peer = again.device[1]->GetHostMemory();
        const std::vector<uint8_t> before = drptest::Snapshot(peer, B::TARGET, 4096);
        PostRecv(again, 41, B::INBOX, 100);
        RdmaSendWr write = B::Request(1,
                                      RdmaWrOpcode::RDMA_WRITE_WITH_IMM,
                                      B::SOURCE,
                                      again.source->GetLkey(),
                                      B::TARGET,
                                      {4096});
        write.rkey = again.closed->GetRkey();
        again.qp[0]->PostSend({write});
        Simulator::Run();
        sent = again.cq[0]->Poll(4);
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 1u, method << ": the WRITE ends");
        NS_TEST_EXPECT_MSG_EQ(sent[0].status,
                              RdmaWcStatus::REM_ACCESS_ERR,
                              method << ": another region's rkey");
        NS_TEST_EXPECT_MSG_EQ((drptest::Snapshot(peer, B::TARGET, 4096) == before),
                              true,
                              method << ": nothing written, indirect data included");
        NS_TEST_EXPECT_MSG_EQ(again.qp[1]->GetRecvQueueLength(), 1u, method << ": receive kept");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        for (const std::string method : {"traditional", "dynamic", "roce"})
        {
            Deliver(method);
            ReceiverNotReady(method);
            Refused(method);
        }
    }
};

/**
 * \ingroup drp-tests
 * RC's guarantees over DRP where its transfers could break them: a WRITE
 * does not pass an earlier one at the peer ("payload, then flag"); a
 * queue pair destroyed with requests in flight ends them unseen; a region
 * deregistered while the responder's host registers the target is not
 * written; a loopback queue pair's request ends in an error, not an abort;
 * a second queue pair to the same peer grants what the first does not; a
 * solicited send does not wake the sender's solicited-only queue.
 */
class DrpVerbsRcTestCase : public TestCase
{
  public:
    DrpVerbsRcTestCase()
        : TestCase("Verbs over DRP: write order, destroy and deregistration in flight, loopback")
    {
    }

  private:
    /// \param bed the hosts \param i one \return its RNIC's 48-bit address
    static uint64_t PeerOf(VerbsPairBed& bed, int i)
    {
        return DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(bed.device[i]->GetAddress()));
    }

    void DoRun() override
    {
        using B = VerbsPairBed;
        for (const std::string method : {"traditional", "dynamic", "roce"})
        {
            VerbsPairBed bed(method);
            Ptr<HostMemory> mine = bed.device[0]->GetHostMemory();
            Ptr<HostMemory> peer = bed.device[1]->GetHostMemory();
            const uint32_t lkey = bed.source->GetLkey();
            bed.qp[0]->PostSend(bed.Keyed(
                {B::Request(1, RdmaWrOpcode::RDMA_WRITE, B::SOURCE, lkey, B::TARGET, {60000}, 0),
                 B::Request(2,
                            RdmaWrOpcode::RDMA_WRITE,
                            B::SOURCE + 60000,
                            lkey,
                            B::TARGET + 60000,
                            {8})}));
            Time flagAt = Time::Max();
            Time payloadAt = Time::Max();
            std::function<void()> watch = [&]() {
                if (flagAt == Time::Max() &&
                    mine->CountDifferences(B::SOURCE + 60000, peer, B::TARGET + 60000, 8) == 0)
                {
                    flagAt = Simulator::Now();
                }
                if (payloadAt == Time::Max() &&
                    mine->CountDifferences(B::SOURCE, peer, B::TARGET, 60000) == 0)
                {
                    payloadAt = Simulator::Now();
                }
                if (flagAt == Time::Max() || payloadAt == Time::Max())
                {
                    Simulator::Schedule(MicroSeconds(1), watch);
                }
            };
            Simulator::ScheduleNow(watch);
            Simulator::Run();
            NS_TEST_EXPECT_MSG_LT(payloadAt, Time::Max(), method << ": the payload arrived");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(flagAt, payloadAt, method << ": the flag not before it");
            Simulator::Destroy();
        }

        VerbsPairBed destroy("traditional");
        destroy.qp[0]->PostSend({B::Request(1,
                                            RdmaWrOpcode::RDMA_WRITE,
                                            B::SOURCE,
                                            destroy.source->GetLkey(),
                                            B::TARGET,
                                            {60000})});
        int destroyed = -1;
        Simulator::Schedule(MicroSeconds(1),
                            [&]() { destroyed = destroy.context[0]->DestroyQp(destroy.qp[0]); });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(destroyed, 0, "destroyed with a WRITE in flight");
        NS_TEST_EXPECT_MSG_EQ(destroy.cq[0]->GetCount(), 0u, "its request ended unseen");
        Simulator::Destroy();

        VerbsPairBed dereg("traditional");
        Ptr<HostMemory> peer = dereg.device[1]->GetHostMemory();
        const std::vector<uint8_t> before = drptest::Snapshot(peer, B::TARGET, 4096);
        int deregistered = -1;
        dereg.device[1]->GetTransport()->TraceConnectWithoutContext(
            "ResponderRegistration",
            drp::FunctorCallback<void,
                                 Mac48Address,
                                 uint16_t,
                                 ResponderConnection::Registration,
                                 ResponderConnection::Registration>(
                [&](Mac48Address,
                    uint16_t,
                    ResponderConnection::Registration,
                    ResponderConnection::Registration to) {
                    if (to == ResponderConnection::PENDING && deregistered == -1)
                    {
                        deregistered = dereg.context[1]->DeregMr(dereg.target);
                    }
                }));
        dereg.qp[0]->PostSend({B::Request(1,
                                          RdmaWrOpcode::RDMA_WRITE,
                                          B::SOURCE,
                                          dereg.source->GetLkey(),
                                          B::TARGET,
                                          {60000})});
        Simulator::Run();
        std::vector<RdmaWc> wcs = dereg.cq[0]->Poll(4);
        NS_TEST_EXPECT_MSG_EQ(deregistered, 0, "deregistered while the host registers");
        NS_TEST_ASSERT_MSG_EQ(wcs.size(), 1u, "the WRITE completes");
        NS_TEST_EXPECT_MSG_EQ(wcs[0].status, RdmaWcStatus::REM_ACCESS_ERR, "refused");
        NS_TEST_EXPECT_MSG_EQ((drptest::Snapshot(peer, B::TARGET, 4096) == before),
                              true,
                              "nothing placed in the deregistered region");
        Simulator::Destroy();

        VerbsPairBed loop("traditional");
        int error = -1;
        Ptr<RdmaQueuePair> self =
            loop.context[0]->CreateQp(loop.pd[0], SmallQp(loop.cq[0], loop.cq[0]), error);
        ToRts(self, PeerOf(loop, 0), self->GetQpNum());
        self->PostSend({B::Request(1,
                                   RdmaWrOpcode::RDMA_WRITE,
                                   B::SOURCE,
                                   loop.source->GetLkey(),
                                   B::BACK,
                                   {100})});
        Simulator::Run();
        wcs = loop.cq[0]->Poll(4);
        NS_TEST_ASSERT_MSG_EQ(wcs.size(), 1u, "the loopback WRITE completes");
        NS_TEST_EXPECT_MSG_EQ(wcs[0].status, RdmaWcStatus::LOC_QP_OP_ERR, "DRP has no loopback");
        Simulator::Destroy();

        VerbsPairBed two("traditional");
        RdmaQpAttr readOnly;
        readOnly.qpAccessFlags = RdmaAccess::REMOTE_READ;
        NS_TEST_ASSERT_MSG_EQ(two.qp[1]->ModifyQp(readOnly, RdmaQpAttrMask::ACCESS_FLAGS),
                              0,
                              "RTS -> RTS");
        Ptr<RdmaQueuePair> second =
            two.context[1]->CreateQp(two.pd[1], SmallQp(two.cq[1], two.cq[1]), error);
        ToRts(second, PeerOf(two, 0), 0x999); // remote write and read
        two.cq[0]->ReqNotify(true);
        uint32_t events = 0;
        two.cq[0]->SetEventCallback(drp::FunctorCallback<void, Ptr<RdmaCompletionQueue>>(
            [&events](Ptr<RdmaCompletionQueue>) { ++events; }));
        two.qp[0]->PostSend({B::Request(1,
                                        RdmaWrOpcode::RDMA_WRITE,
                                        B::SOURCE,
                                        two.source->GetLkey(),
                                        B::TARGET,
                                        {100},
                                        RdmaSendFlags::SIGNALED | RdmaSendFlags::SOLICITED)});
        Simulator::Run();
        wcs = two.cq[0]->Poll(4);
        NS_TEST_ASSERT_MSG_EQ(wcs.size(), 1u, "the WRITE completes");
        NS_TEST_EXPECT_MSG_EQ(wcs[0].status,
                              RdmaWcStatus::SUCCESS,
                              "the second queue pair grants it");
        NS_TEST_EXPECT_MSG_EQ(events, 0u, "a solicited send wakes no solicited-only arming here");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The verbs' resources.
 */
class DrpVerbsTestSuite : public TestSuite
{
  public:
    DrpVerbsTestSuite()
        : TestSuite("drp-verbs", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpVerbsNamesTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsCqTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsMrTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsQpStateTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsPostTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsDataTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsErrorTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsRcTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsMessageTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpVerbsAtomicTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's instance.
static DrpVerbsTestSuite g_drpVerbsTestSuite;
