/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Link outages: both RNICs' receive error models are switched on (every
// frame lost) and off again on schedule. An outage shorter than the retry
// budget only delays a transfer; a longer one ends it with an error status
// at both ends, the responder reclaims its state and its indirect buffer,
// and the next transfer between the same hosts succeeds.

#include "drp-test-bed.h"

#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/error-model.h"
#include "ns3/indirect-buffer.h"
#include "ns3/pointer.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::drptest;

namespace
{

/**
 * \ingroup drp-tests
 * A link that goes down when the first data frame of the workload arrives
 * and comes back a given time later: an error model that loses every frame,
 * disabled until then, on both RNICs' receive side.
 */
class Outage
{
  public:
    /**
     * \param bed the hosts and their RNICs
     * \param read the workload reads (data arrives at the initiator)
     * \param duration how long the link stays down
     */
    Outage(PointToPointBed& bed, bool read, Time duration)
        : m_duration(duration)
    {
        Install(bed);
        bed.Rnic(read ? 0 : 1)
            ->GetTransport()
            ->TraceConnectWithoutContext("Rx", MakeCallback(&Outage::OnRx, this));
    }

    /**
     * \param bed the hosts and their RNICs
     * \param start when the link goes down
     * \param duration how long it stays down
     */
    Outage(PointToPointBed& bed, Time start, Time duration)
        : m_duration(duration)
    {
        Install(bed);
        Simulator::Schedule(start, &Outage::Start, this);
    }

    /// \return when the link went down (zero: it never did)
    Time GetStart() const
    {
        return m_start;
    }

  private:
    /// \param bed the hosts: gives both RNICs a disabled error model that loses every frame
    void Install(PointToPointBed& bed)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            Ptr<RateErrorModel> down = CreateObject<RateErrorModel>();
            down->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            down->SetRate(1.0);
            down->Disable();
            bed.Rnic(i)->SetReceiveErrorModel(down);
            m_models.push_back(down);
        }
    }

    /// \param frame a DRP frame that arrived: the first data frame starts the outage
    void OnRx(Ptr<const Packet> frame)
    {
        DrpHeader h;
        frame->PeekHeader(h);
        if (m_start.IsZero() && h.HasFlag(DrpHeader::DATA))
        {
            Start();
        }
    }

    /// The link goes down now, and comes back after the outage's duration.
    void Start()
    {
        m_start = Simulator::Now();
        for (const auto& model : m_models)
        {
            model->Enable();
            Simulator::Schedule(m_duration, &ErrorModel::Disable, model);
        }
    }

    Time m_duration;                       //!< how long the link stays down
    Time m_start;                          //!< when it went down
    std::vector<Ptr<ErrorModel>> m_models; //!< one per RNIC
};

} // namespace

/**
 * \ingroup drp-tests
 * A 10 ms outage in the data phase: well inside the retry budget (the data
 * timer backs off from 120 us, and gives up only after about 92 ms). The
 * transfer is delayed by timer expiries and completes byte-exact.
 */
class DrpShortOutageTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic \param operation write or read
    DrpShortOutageTestCase(const std::string& method, const std::string& operation)
        : TestCase("a 10 ms outage delays a transfer, which completes byte-exact (" + method + " " +
                   operation + ")"),
          m_method(method),
          m_operation(operation)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, 65536, m_operation));
        Outage outage(bed, m_operation == "read", MilliSeconds(10));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        const DrpTransferRecord& r = bed.Records()[0];
        NS_TEST_EXPECT_MSG_EQ(outage.GetStart().IsPositive(), true, "the link went down");
        NS_TEST_EXPECT_MSG_EQ(r.GetStatusName(), "success", "completed");
        NS_TEST_EXPECT_MSG_EQ(bed.m_compared, 1, "compared");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        NS_TEST_EXPECT_MSG_GT(r.end, outage.GetStart() + MilliSeconds(10), "after the outage");
        Simulator::Destroy();
    }

    std::string m_method;    //!< traditional or dynamic
    std::string m_operation; //!< write or read
};

/**
 * \ingroup drp-tests
 * A 400 ms outage: longer than the initiator's retry budget and the
 * responder's idle time (138 ms). The first two registrations fail, so the
 * dynamic RNIC's data goes indirect and the outage starts with data in the
 * responder's indirect buffer (the traditional RNIC's, once it is direct).
 * The first transfer ends with an error status at the initiator; the
 * responder abandons its side (counted, traced, the host told), empties the
 * buffer and forgets the transfer; the second transfer, 1 s later, succeeds.
 */
class DrpLongOutageTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic \param operation write or read
    DrpLongOutageTestCase(const std::string& method, const std::string& operation)
        : TestCase("a 400 ms outage fails a transfer at both ends, state reclaimed, the next "
                   "succeeds (" +
                   method + " " + operation + ")"),
          m_method(method),
          m_operation(operation)
    {
    }

  private:
    /// What the responder looked like when the second transfer started.
    struct Before
    {
        bool seen{false};            //!< the second transfer started
        size_t responded{0};         //!< responder records
        uint64_t bufferBytes{0};     //!< bytes in the indirect buffer
        uint64_t registeredBytes{0}; //!< responder's registered memory
    };

    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        RdmaHostHelper host = MakeWorkload(2, 65536, m_operation);
        host.SetAttribute("Gap", TimeValue(Seconds(1)));
        host.SetAttribute("RegistrationRandomVariable", PointerValue(MakeDraws({0, 0, 1})));
        host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.5));
        PointToPointBed bed(rnic, host);
        Outage outage(bed, m_operation == "read", MilliSeconds(400));
        Ptr<DrpTransport> responder = bed.Rnic(1)->GetTransport();
        Ptr<IndirectBuffer> buffer = responder->GetIndirectBuffer();

        uint64_t bufferedAtOutage = 0;
        drp::Schedule(MilliSeconds(5), [&bufferedAtOutage, buffer]() {
            bufferedAtOutage = buffer ? buffer->GetOccupancy() : 0;
        });
        std::vector<bool> ends;
        responder->TraceConnectWithoutContext(
            "ResponderEnd",
            MakeBoundCallback(&DrpLongOutageTestCase::OnEnd, &ends));
        Before before;
        bed.App(0)->TraceConnectWithoutContext(
            "TransferStart",
            MakeBoundCallback(&DrpLongOutageTestCase::OnStart, &before, bed.Rnic(1)));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 2, "both transfers ended");
        NS_TEST_EXPECT_MSG_EQ(outage.GetStart().IsPositive(), true, "the link went down");
        NS_TEST_EXPECT_MSG_LT(outage.GetStart(), MilliSeconds(5), "early in the first");
        NS_TEST_EXPECT_MSG_NE(bed.Records()[0].GetStatusName(),
                              "success",
                              "the first ends with an error status at the initiator");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[1].GetStatusName(), "success", "the next succeeds");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "byte-exact");
        NS_TEST_EXPECT_MSG_EQ(responder->GetAbandonedResponses(),
                              1,
                              "the responder abandoned the first");
        NS_TEST_ASSERT_MSG_EQ(ends.size(), 2, "two responder ends traced");
        NS_TEST_EXPECT_MSG_EQ(ends[0], false, "the first abandoned");
        NS_TEST_EXPECT_MSG_EQ(ends[1], true, "the second released");
        if (m_method == "dynamic" && m_operation == "write")
        {
            NS_TEST_EXPECT_MSG_GT(bufferedAtOutage, 0, "data was in the indirect buffer");
        }
        NS_TEST_EXPECT_MSG_EQ(before.seen, true, "the second started");
        NS_TEST_EXPECT_MSG_EQ(before.responded, 0, "the responder forgot the first");
        NS_TEST_EXPECT_MSG_EQ(before.bufferBytes, 0, "indirect buffer empty");
        NS_TEST_EXPECT_MSG_EQ(before.registeredBytes, 0, "the responder's host released it");
        Simulator::Destroy();
    }

    /// \param ends released flags, in order \param released this one's
    static void OnEnd(std::vector<bool>* ends, Mac48Address, uint16_t, bool released)
    {
        ends->push_back(released);
    }

    /**
     * \param before filled in when the second transfer starts
     * \param responder the responder's RNIC
     * \param index the transfer that starts
     */
    static void OnStart(Before* before, Ptr<RnicNetDevice> responder, uint32_t index)
    {
        if (index != 1)
        {
            return;
        }
        Ptr<IndirectBuffer> buffer = responder->GetTransport()->GetIndirectBuffer();
        before->seen = true;
        before->responded = responder->GetTransport()->GetActiveResponded();
        before->bufferBytes = buffer ? buffer->GetOccupancy() : 0;
        before->registeredBytes = responder->GetHostMemory()->GetRegisteredBytes();
    }

    std::string m_method;    //!< traditional or dynamic
    std::string m_operation; //!< write or read
};

/**
 * \ingroup drp-tests
 * An outage while transfer ids wrap: dynamic method, 80,000 transfers of
 * 1 KiB, 16 at a time, HandshakeTimeout 100 ms, the link down for 100 ms
 * from 75 ms (a start at which, without protection, two transfers that reuse
 * a failed transfer's TID report success with wrong bytes). The transfers in their data phase when
 * the link goes down fail after about 92 ms of backed-off retries, while their responder keeps
 * their records for its idle time (1.8 s with this HandshakeTimeout). The initiator's TIDs wrap
 * after 65,535 transfers, well within that time: a failed transfer's TID must not meet its stale
 * responder record, whose receiver already committed frames of the old transfer. Every transfer
 * that succeeds is byte-exact.
 */
class DrpStaleTidTestCase : public TestCase
{
  public:
    DrpStaleTidTestCase()
        : TestCase("an outage while transfer ids wrap: no stale responder state, every success "
                   "byte-exact")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t transfers = 80000;
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        rnic.SetTransportAttribute("HandshakeTimeout", TimeValue(MilliSeconds(100)));
        RdmaHostHelper host = MakeWorkload(transfers, 1024);
        host.SetAttribute("Concurrency", UintegerValue(16));
        // A CPU per transfer in flight: no host job waits, so that transfers
        // are in their data phase when the link goes down.
        host.SetCpuAttribute("Count", UintegerValue(16));
        PointToPointBed bed(rnic, host);
        Outage outage(bed, MilliSeconds(75), MilliSeconds(100));
        bed.Run();

        uint32_t failed = 0;
        for (const auto& r : bed.Records())
        {
            failed += r.status != DrpTransferRecord::SUCCESS;
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), transfers, "every transfer ended");
        NS_TEST_EXPECT_MSG_GT(failed, 0, "the outage failed some transfers");
        NS_TEST_EXPECT_MSG_EQ(bed.m_compared, transfers - failed, "every success compared");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "every success byte-exact");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Link outages.
 */
class DrpOutageTestSuite : public TestSuite
{
  public:
    DrpOutageTestSuite()
        : TestSuite("drp-outage", DRP_TEST_SYSTEM)
    {
        for (const std::string method : {"traditional", "dynamic"})
        {
            for (const std::string operation : {"write", "read"})
            {
                AddTestCase(new DrpShortOutageTestCase(method, operation), DRP_TEST_QUICK);
                AddTestCase(new DrpLongOutageTestCase(method, operation), DRP_TEST_QUICK);
            }
        }
        AddTestCase(new DrpStaleTidTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's one instance.
static DrpOutageTestSuite g_drpOutageTestSuite;
