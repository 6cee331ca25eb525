/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Whole transfers: failing registration, loss with byte-exact memory,
// indirect buffer overflow, transfers that cannot succeed, many concurrent
// transfers between several hosts, and frames that must never be placed.

#include "drp-test-bed.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-header.h"
#include "ns3/drp-transport.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/responder-connection.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-line-helper.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <list>
#include <map>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::drptest;

/**
 * \ingroup drp-tests
 * The responder's registration fails three times, then succeeds. The
 * traditional initiator waits H after each of the three invalid replies; the
 * dynamic one goes indirect on the first and keeps requesting while the
 * data flows into the indirect buffer.
 */
class DrpRegistrationFailsThriceTestCase : public TestCase
{
  public:
    DrpRegistrationFailsThriceTestCase()
        : TestCase("registration fails three times, then succeeds (both methods)")
    {
    }

  private:
    void DoRun() override
    {
        Time duration[2];
        int i = 0;
        for (const std::string method : {"traditional", "dynamic"})
        {
            RnicHelper rnic;
            rnic.SetMethod(method);
            RdmaHostHelper host = MakeWorkload(1, 32768);
            host.SetAttribute("RegistrationRandomVariable", PointerValue(MakeDraws({0, 0, 0, 1})));
            host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.5));
            PointToPointBed bed(rnic, host);
            Time firstInvalid;
            Time decided;
            uint32_t decisions = 0;
            bed.Rnic(0)->GetTransport()->TraceConnectWithoutContext(
                "Rx",
                drp::FunctorCallback<void, Ptr<const Packet>>([&firstInvalid](Ptr<const Packet> p) {
                    DrpHeader h;
                    p->PeekHeader(h);
                    if (h.HasFlag(DrpHeader::REQ_ACK) && h.GetStatus() == DrpHeader::INVALID &&
                        firstInvalid.IsZero())
                    {
                        firstInvalid = Simulator::Now();
                    }
                }));
            bed.Rnic(0)->GetTransport()->TraceConnectWithoutContext(
                "ModeDecision",
                drp::FunctorCallback<void, uint16_t, DrpTransferRecord::Mode>(
                    [&](uint16_t, DrpTransferRecord::Mode) {
                        decided = Simulator::Now();
                        ++decisions;
                    }));
            bed.Run();

            NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, method << ": one transfer");
            if (bed.Records().size() != 1)
            {
                return;
            }
            const DrpTransferRecord& r = bed.Records()[0];
            NS_TEST_ASSERT_MSG_EQ(r.GetStatusName(), "success", method << ": status");
            NS_TEST_ASSERT_MSG_EQ(bed.m_corrupt, 0, method << ": bytes identical");
            NS_TEST_ASSERT_MSG_EQ(r.invalidReplies, 3, method << ": one invalid reply per failure");
            NS_TEST_ASSERT_MSG_EQ(bed.m_registrationsBad, 3, method << ": failed registrations");
            NS_TEST_ASSERT_MSG_EQ(bed.App(1)->GetFailedRegistrations(),
                                  3,
                                  method << ": failed registrations (host counter)");
            NS_TEST_ASSERT_MSG_EQ(bed.m_registrationsOk, 1, method << ": successful registrations");
            NS_TEST_ASSERT_MSG_EQ(decisions, 1, method << ": one mode decision");
            duration[i++] = r.GetDuration();
            if (method == "traditional")
            {
                NS_TEST_ASSERT_MSG_EQ(r.GetModeName(), "direct", method << ": mode");
                NS_TEST_ASSERT_MSG_EQ(r.requests, 4, method << ": requests");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(r.GetModeName(), "indirect", method << ": mode");
                NS_TEST_ASSERT_MSG_EQ(firstInvalid.IsZero(), false, "an invalid reply arrived");
                NS_TEST_ASSERT_MSG_EQ(decided,
                                      firstInvalid,
                                      method << ": indirect when the first invalid reply arrived");
            }
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_LT(duration[1], duration[0], "dynamic faster than traditional");
    }
};

/**
 * \ingroup drp-tests
 * 10% frame loss on both RNICs and 10% failed registrations: every transfer
 * of a run succeeds and leaves identical bytes at both ends, for both
 * methods, write and read.
 */
class DrpLossyMemoryTestCase : public TestCase
{
  public:
    /**
     * \param method traditional or dynamic
     * \param operation write or read
     */
    DrpLossyMemoryTestCase(const std::string& method, const std::string& operation)
        : TestCase("LFP = FRP = 10%: every transfer byte-exact (" + method + " " + operation + ")"),
          m_method(method),
          m_operation(operation)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t transfers = 40;
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        RdmaHostHelper host = MakeWorkload(transfers, 16384, m_operation);
        host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.1));
        PointToPointBed bed(rnic, host);
        bed.SetLoss(0.1, 7);
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), transfers, "every transfer ended");
        uint32_t indirect = 0;
        for (const auto& r : bed.Records())
        {
            NS_TEST_ASSERT_MSG_EQ(r.GetStatusName(), "success", "transfer " << r.index);
            indirect += r.mode == DrpTransferRecord::INDIRECT;
        }
        NS_TEST_ASSERT_MSG_EQ(bed.m_compared, transfers, "every transfer compared");
        NS_TEST_ASSERT_MSG_EQ(bed.m_corrupt, 0, "bytes identical at both ends");
        uint64_t lost = bed.Rnic(0)->GetReceiveErrorDrops() + bed.Rnic(1)->GetReceiveErrorDrops();
        NS_TEST_ASSERT_MSG_GT(lost, 0, "frames were lost");
        NS_TEST_ASSERT_MSG_GT(bed.m_registrationsBad, 0, "registrations failed");
        if (m_method == "dynamic" && m_operation == "write")
        {
            NS_TEST_ASSERT_MSG_GT(indirect, 0, "some transfers went indirect");
        }
        if (m_method == "traditional")
        {
            NS_TEST_ASSERT_MSG_EQ(indirect, 0, "the traditional RNIC never goes indirect");
        }
        Simulator::Destroy();
    }

    std::string m_method;    //!< traditional or dynamic
    std::string m_operation; //!< write or read
};

/**
 * \ingroup drp-tests
 * A 4 KiB indirect buffer and a registration that fails twice, for a 32 KiB
 * write: the buffer overflows, the frames it refuses are dropped
 * unacknowledged (BUFFER_FULL), the sender retransmits them, and the
 * transfer ends with all data in place.
 */
class DrpBufferOverflowTestCase : public TestCase
{
  public:
    DrpBufferOverflowTestCase()
        : TestCase("indirect buffer overflow: recovered, data intact")
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        rnic.SetIndirectBufferAttribute("Capacity", UintegerValue(4096));
        RdmaHostHelper host = MakeWorkload(1, 32768);
        host.SetAttribute("RegistrationRandomVariable", PointerValue(MakeDraws({0, 0, 1})));
        host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.5));
        PointToPointBed bed(rnic, host);
        Ptr<IndirectBuffer> buffer = bed.Rnic(1)->GetTransport()->GetIndirectBuffer();
        NS_TEST_ASSERT_MSG_EQ(buffer->GetCapacity(), 4096, "capacity");
        uint32_t overflowTraces = 0;
        uint32_t peak = 0;
        buffer->TraceConnectWithoutContext(
            "Overflow",
            drp::FunctorCallback<void, Ptr<const Packet>>(
                [&overflowTraces](Ptr<const Packet>) { ++overflowTraces; }));
        buffer->TraceConnectWithoutContext(
            "Occupancy",
            drp::FunctorCallback<void, uint32_t, uint32_t>(
                [&peak](uint32_t, uint32_t now) { peak = std::max(peak, now); }));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "one transfer");
        if (bed.Records().size() != 1)
        {
            return;
        }
        const DrpTransferRecord& r = bed.Records()[0];
        NS_TEST_ASSERT_MSG_EQ(r.GetStatusName(), "success", "status");
        NS_TEST_ASSERT_MSG_EQ(r.GetModeName(), "indirect", "mode");
        NS_TEST_ASSERT_MSG_EQ(bed.m_corrupt, 0, "bytes identical at both ends");
        NS_TEST_ASSERT_MSG_GT(buffer->GetOverflowCount(), 0, "the buffer overflowed");
        NS_TEST_ASSERT_MSG_EQ(overflowTraces, buffer->GetOverflowCount(), "Overflow trace");
        NS_TEST_ASSERT_MSG_EQ(bed.Rnic(1)->GetTransport()->GetDropCount(DrpTransport::BUFFER_FULL),
                              buffer->GetOverflowCount(),
                              "every refused frame counted as a BUFFER_FULL drop");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(peak, buffer->GetCapacity(), "never above capacity");
        NS_TEST_ASSERT_MSG_GT(r.retransmissions, 0, "refused frames were sent again");
        NS_TEST_ASSERT_MSG_EQ(buffer->GetOccupancy(), 0, "buffer empty at the end");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The same write with IndirectLimit at the buffer's 4 KiB: before its valid
 * reply the initiator sends exactly the 4 frames the responder's buffer
 * takes, then holds the rest (requesting) until the reply; nothing
 * overflows, nothing is sent again, and the data are intact.
 */
class DrpIndirectLimitTestCase : public TestCase
{
  public:
    DrpIndirectLimitTestCase()
        : TestCase("IndirectLimit: no more indirect data than the buffer takes")
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        rnic.SetIndirectBufferAttribute("Capacity", UintegerValue(4096));
        rnic.SetTransportAttribute("IndirectLimit", UintegerValue(4096));
        RdmaHostHelper host = MakeWorkload(1, 32768);
        host.SetAttribute("RegistrationRandomVariable", PointerValue(MakeDraws({0, 0, 1})));
        host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.5));
        PointToPointBed bed(rnic, host);
        Ptr<IndirectBuffer> buffer = bed.Rnic(1)->GetTransport()->GetIndirectBuffer();
        uint32_t indirect = 0;
        uint32_t data = 0;
        bed.Rnic(0)->GetTransport()->TraceConnectWithoutContext(
            "Tx",
            drp::FunctorCallback<void, Ptr<const Packet>>([&](Ptr<const Packet> frame) {
                DrpHeader header;
                frame->PeekHeader(header);
                data += header.HasFlag(DrpHeader::DATA);
                indirect += header.HasFlag(DrpHeader::DATA) && header.HasFlag(DrpHeader::INDIRECT);
            }));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "one transfer");
        const DrpTransferRecord& r = bed.Records()[0];
        NS_TEST_EXPECT_MSG_EQ(r.GetStatusName(), "success", "status");
        NS_TEST_EXPECT_MSG_EQ(r.GetModeName(), "indirect", "mode");
        NS_TEST_EXPECT_MSG_EQ(r.invalidReplies, 2, "two failed registrations first");
        NS_TEST_EXPECT_MSG_EQ(indirect, 4, "4 KiB sent indirectly, the buffer's worth");
        NS_TEST_EXPECT_MSG_EQ(data, 32, "every frame once");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetOverflowCount(), 0, "no overflow");
        NS_TEST_EXPECT_MSG_EQ(bed.Rnic(1)->GetTransport()->GetDropCount(DrpTransport::BUFFER_FULL),
                              0,
                              "no BUFFER_FULL drop");
        NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0, "nothing sent again");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "bytes identical at both ends");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetOccupancy(), 0, "buffer empty at the end");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * TxReadBytes: the sender's DMA engine reads a transfer's source in requests
 * of whole frames up to that size, one chunk ahead of the frames it sends.
 * A 32 KiB transfer of 256-byte payloads (128 frames) with TxReadBytes 1000
 * reads 3 frames per request: 43 requests instead of 128 (the receiver
 * still writes each frame as one request), the bytes intact. With the
 * receiver's ReceiveListErrorModel dropping one data frame, the frame sent
 * again is behind the read-ahead and is read alone: one more request per
 * frame sent again.
 */
class DrpReadAheadTestCase : public TestCase
{
  public:
    /// \param operation write (the initiator sends) or read (the responder sends)
    explicit DrpReadAheadTestCase(const std::string& operation)
        : TestCase("TxReadBytes: a request reads several frames ahead (" + operation + ")"),
          m_operation(operation)
    {
    }

  private:
    /// What one run's PCIe links did.
    struct Counts
    {
        uint64_t reads{0};  //!< the sender's DMA reads
        uint64_t writes{0}; //!< the receiver's DMA writes
        uint32_t resent{0}; //!< data frames sent again
    };

    /**
     * \param readBytes TxReadBytes
     * \param drop a frame the receiver loses (its count among received frames), or -1
     * \return the counts
     */
    Counts Run(uint32_t readBytes, int32_t drop)
    {
        RnicHelper rnic;
        rnic.SetMethod("traditional");
        rnic.SetTransportAttribute("PayloadSize", UintegerValue(256));
        rnic.SetTransportAttribute("TxReadBytes", UintegerValue(readBytes));
        PointToPointBed bed(rnic, MakeWorkload(1, 32768, m_operation));
        const uint32_t sender = m_operation == "write" ? 0 : 1;
        if (drop >= 0)
        {
            Ptr<ReceiveListErrorModel> losses = CreateObject<ReceiveListErrorModel>();
            losses->SetList({static_cast<uint32_t>(drop)});
            bed.Rnic(1 - sender)->SetReceiveErrorModel(losses);
        }
        uint32_t dataFrames = 0;
        bed.Rnic(sender)->GetTransport()->TraceConnectWithoutContext(
            "Tx",
            drp::FunctorCallback<void, Ptr<const Packet>>([&dataFrames](Ptr<const Packet> frame) {
                DrpHeader header;
                frame->PeekHeader(header);
                dataFrames += header.HasFlag(DrpHeader::DATA);
            }));
        bed.Run();
        Counts counts;
        NS_TEST_EXPECT_MSG_EQ(bed.Records().size(), 1, "one transfer");
        if (bed.Records().size() != 1)
        {
            Simulator::Destroy();
            return counts;
        }
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "status");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "bytes identical at both ends");
        counts.reads = bed.Rnic(sender)->GetPcieLink()->GetTransactionCount(PcieLink::DMA_READ);
        counts.writes =
            bed.Rnic(1 - sender)->GetPcieLink()->GetTransactionCount(PcieLink::DMA_WRITE);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(dataFrames, 128, "every frame sent");
        counts.resent = dataFrames - 128;
        Simulator::Destroy();
        return counts;
    }

    void DoRun() override
    {
        const Counts frameByFrame = Run(0, -1);
        const Counts ahead = Run(1000, -1);
        NS_TEST_EXPECT_MSG_EQ(frameByFrame.resent + ahead.resent, 0, "nothing sent again");
        NS_TEST_EXPECT_MSG_EQ(frameByFrame.reads - ahead.reads,
                              128 - 43,
                              "43 requests of 3 frames read the 128 payloads");
        NS_TEST_EXPECT_MSG_EQ(ahead.writes, frameByFrame.writes, "the receiver writes each frame");
        const Counts lossy = Run(1000, 20);
        NS_TEST_EXPECT_MSG_GT(lossy.resent, 0, "the lost frame was sent again");
        NS_TEST_EXPECT_MSG_EQ(lossy.reads,
                              ahead.reads + lossy.resent,
                              "each frame sent again is read alone");
    }

    std::string m_operation; //!< write or read
};

/**
 * \ingroup drp-tests
 * Transfers that cannot succeed still end, with HANDSHAKE_FAILED, and the
 * simulation stops by itself: the initiator gives up after MaxRetries
 * handshake expiries, the responder forgets the transfer after its idle
 * time ((MaxRetries + 2) x max(H, MaxBackoff x R) without hearing from the
 * initiator).
 */
class DrpNeverHangsTestCase : public TestCase
{
  public:
    /// How the peer fails to answer.
    enum Peer
    {
        ALWAYS_FAILS, //!< every registration fails (FRP = 1)
        SILENT,       //!< the responder's RNIC loses every frame
        NO_HOST,      //!< the responder has no host to register anything
    };

    /**
     * \param method traditional or dynamic
     * \param peer how the peer fails
     */
    DrpNeverHangsTestCase(const std::string& method, Peer peer)
        : TestCase(std::string("never hangs: ") +
                   (peer == ALWAYS_FAILS
                        ? "registration always fails"
                        : (peer == SILENT ? "peer never answers" : "peer host never registers")) +
                   " (" + method + ")"),
          m_method(method),
          m_peer(peer)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t maxRetries = 4;
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        rnic.SetTransportAttribute("MaxRetries", UintegerValue(maxRetries));
        RdmaHostHelper host = MakeWorkload(1, 16384);
        host.SetAttribute("RegistrationFailureProbability",
                          DoubleValue(m_peer == ALWAYS_FAILS ? 1.0 : 0.0));
        PointToPointBed bed(rnic, host, m_peer != NO_HOST);
        Ptr<DrpTransport> responder = bed.Rnic(1)->GetTransport();
        if (m_peer == SILENT)
        {
            Ptr<RateErrorModel> all = CreateObject<RateErrorModel>();
            all->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            all->SetRate(1.0);
            bed.Rnic(1)->SetReceiveErrorModel(all);
        }
        TimeValue value;
        ReadAttribute(responder, "HandshakeTimeout", value);
        Time h = value.Get();
        ReadAttribute(responder, "RetransmissionTimeout", value);
        UintegerValue maxBackoff;
        ReadAttribute(responder, "MaxBackoff", maxBackoff);
        Time idle = (maxRetries + 2) * std::max(h, value.Get() * int64_t(maxBackoff.Get()));
        size_t respondedMax = 0;
        responder->TraceConnectWithoutContext(
            "Rx",
            drp::FunctorCallback<void, Ptr<const Packet>>([&](Ptr<const Packet>) {
                respondedMax = std::max(respondedMax, responder->GetActiveResponded());
            }));
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        if (bed.Records().size() != 1)
        {
            return;
        }
        const DrpTransferRecord& r = bed.Records()[0];
        NS_TEST_ASSERT_MSG_EQ(r.GetStatusName(), "handshake-failed", "status");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.timeouts, maxRetries + 1, "gave up after MaxRetries");
        // Each of the MaxRetries + 1 handshake periods is H plus at most a
        // handshake round trip (an invalid reply restarts the timer): well
        // under (MaxRetries + 2) H.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(r.end,
                                    (maxRetries + 2) * h,
                                    "the initiator gave up within (MaxRetries + 2) H");
        // The responder hears the last request before the initiator gives up
        // and forgets the transfer one idle time later.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(Simulator::Now(),
                                    (maxRetries + 2) * h + idle,
                                    "the simulation ended by itself within (MaxRetries + 2) H "
                                    "plus the responder's idle time");
        NS_TEST_ASSERT_MSG_EQ(bed.Rnic(0)->GetTransport()->GetActiveInitiated(), 0, "initiator");
        NS_TEST_ASSERT_MSG_EQ(responder->GetActiveResponded(), 0, "responder forgot it");
        if (m_peer != SILENT)
        {
            NS_TEST_ASSERT_MSG_EQ(respondedMax, 1, "the responder knew the transfer");
        }
        if (Ptr<IndirectBuffer> buffer = responder->GetIndirectBuffer())
        {
            NS_TEST_ASSERT_MSG_EQ(buffer->GetOccupancy(), 0, "buffered data discarded");
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Rnic(1)->GetHostMemory()->GetRegisteredBytes(),
                              0,
                              "nothing left registered");
        Simulator::Destroy();
    }

    std::string m_method; //!< traditional or dynamic
    Peer m_peer;          //!< how the peer fails
};

/**
 * \ingroup drp-tests
 * Three hosts on one switch, each running four transfers at a time to
 * another host, so that every RNIC is initiator and responder at once and
 * one RNIC serves two initiators. Two rounds cover every ordered pair of
 * hosts. With 2% frame loss and 5% failed registrations every transfer
 * succeeds with identical bytes at both ends.
 */
class DrpConcurrentTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpConcurrentTestCase(const std::string& method)
        : TestCase("three hosts on a switch, 4 concurrent transfers each (" + method + ")"),
          m_method(method)
    {
    }

  private:
    /// A workload: initiator host, responder host, operation.
    struct Workload
    {
        uint32_t initiator;    //!< host index
        uint32_t responder;    //!< host index
        std::string operation; //!< write or read
    };

    void DoRun() override
    {
        // Round 1: hosts 0 and 1 both to host 2, host 2 to host 1.
        // Round 2: hosts 0 and 1 to each other, host 2 to host 0.
        RunRound({{0, 2, "write"}, {1, 2, "read"}, {2, 1, "write"}});
        RunRound({{0, 1, "read"}, {1, 0, "write"}, {2, 0, "read"}});
    }

    /// \param workloads one per host
    void RunRound(const std::vector<Workload>& workloads)
    {
        const uint32_t transfers = 12;
        const uint32_t concurrency = 4;
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        EthernetHelper trunk;
        SwitchLineHelper line(1, 3, rnic, trunk);
        NetDeviceContainer rnics = line.GetRnics();
        int64_t stream = 11;
        for (uint32_t i = 0; i < rnics.GetN(); ++i)
        {
            Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
            loss->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            loss->SetRate(0.02);
            Ptr<RnicNetDevice> device = DynamicCast<RnicNetDevice>(rnics.Get(i));
            device->SetReceiveErrorModel(loss);
            stream += device->AssignStreams(stream);
        }
        RdmaHostHelper host = MakeWorkload(transfers, 16384);
        host.SetAttribute("Concurrency", UintegerValue(concurrency));
        host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.05));
        ApplicationContainer apps;
        for (const auto& w : workloads)
        {
            host.SetAttribute("Operation", StringValue(w.operation));
            apps.Add(host.Install(line.GetHost(0, w.initiator)));
        }
        stream += RdmaHostHelper::AssignStreams(apps, stream);

        uint32_t corrupt = 0;
        uint32_t compared = 0;
        std::vector<size_t> peak(workloads.size(), 0);
        for (uint32_t i = 0; i < workloads.size(); ++i)
        {
            const Workload& w = workloads[i];
            RdmaHostHelper::SetWorkload(apps.Get(i), rnics.Get(w.responder));
            Ptr<RnicNetDevice> mine = DynamicCast<RnicNetDevice>(rnics.Get(w.initiator));
            Ptr<HostMemory> peer =
                DynamicCast<RnicNetDevice>(rnics.Get(w.responder))->GetHostMemory();
            apps.Get(i)->TraceConnectWithoutContext(
                "TransferComplete",
                drp::FunctorCallback<void, const DrpTransferRecord&>(
                    [&, mine, peer](const DrpTransferRecord& r) {
                        if (r.status == DrpTransferRecord::SUCCESS)
                        {
                            ++compared;
                            corrupt += mine->GetHostMemory()->CountDifferences(r.sba,
                                                                               peer,
                                                                               r.dba,
                                                                               r.length) != 0;
                        }
                    }));
            Ptr<DrpTransport> transport = mine->GetTransport();
            transport->TraceConnectWithoutContext(
                "Tx",
                drp::FunctorCallback<void, Ptr<const Packet>>(
                    [&peak, i, transport](Ptr<const Packet>) {
                        peak[i] = std::max(peak[i], transport->GetActiveInitiated());
                    }));
        }
        apps.Start(Seconds(0));
        Simulator::Run();

        for (uint32_t i = 0; i < workloads.size(); ++i)
        {
            Ptr<RdmaHostApplication> app = DynamicCast<RdmaHostApplication>(apps.Get(i));
            NS_TEST_ASSERT_MSG_EQ(app->GetRecords().size(),
                                  transfers,
                                  "host " << i << " ended all");
            for (const auto& r : app->GetRecords())
            {
                NS_TEST_ASSERT_MSG_EQ(r.GetStatusName(),
                                      "success",
                                      "host " << i << " transfer " << r.index);
            }
            NS_TEST_ASSERT_MSG_EQ(peak[i], concurrency, "host " << i << " ran 4 at once");
        }
        NS_TEST_ASSERT_MSG_EQ(compared, transfers * workloads.size(), "every transfer compared");
        NS_TEST_ASSERT_MSG_EQ(corrupt, 0, "bytes identical at both ends of every transfer");
        Simulator::Destroy();
    }

    std::string m_method; //!< traditional or dynamic
};

/**
 * \ingroup drp-tests
 * Hand-made DRP frames sent from one RNIC's port to the other while a real
 * write runs between them: each is dropped for the right reason and counted,
 * and none changes a byte of the target's memory. The real transfer is
 * undisturbed.
 */
class DrpBadFramesTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpBadFramesTestCase(const std::string& method)
        : TestCase("malformed and foreign frames dropped, counted, never placed (" + method + ")"),
          m_method(method)
    {
    }

  private:
    /// A frame to inject and where its payload would land.
    struct Injection
    {
        Time at;               //!< when it is sent
        bool toResponder;      //!< sent to the responder (true) or the initiator
        Ptr<Packet> frame;     //!< DRP header (or less) and payload
        uint64_t target{0};    //!< address its payload names (0: none)
        uint32_t targetLen{0}; //!< bytes there
    };

    /// A base address far from every region of the workload.
    static const uint64_t FAR_AWAY = 0x900000000ULL;

    void DoRun() override
    {
        const uint32_t size = 65536;
        const uint32_t payload = 1024;
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, size));
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        // The workload's first transfer: TID 1, region at (node 0 + 1) << 32 in B.
        const uint16_t liveTid = 1;
        const uint64_t liveDba = uint64_t(a->GetNode()->GetId() + 1) << 32;
        const uint16_t unknownTid = 0x7777;
        const bool traditional = m_method == "traditional";

        std::vector<Injection> injections;
        // Shorter than a DRP header.
        injections.push_back({MicroSeconds(50), true, Create<Packet>(10)});
        // Two frame types in one CTRL.
        injections.push_back(
            {MicroSeconds(60),
             true,
             MakeDrpFrame(DrpHeader::REQ | DrpHeader::DATA, unknownTid, FAR_AWAY, payload, payload),
             FAR_AWAY,
             payload});
        // LEN says 1024, the payload has 512 bytes.
        injections.push_back(
            {MicroSeconds(70),
             true,
             MakeDrpFrame(DrpHeader::DATA, unknownTid, FAR_AWAY + 4096, payload, payload / 2),
             FAR_AWAY + 4096,
             payload});
        // Write data of the live transfer, but past the end of its region.
        injections.push_back({MicroSeconds(200),
                              true,
                              MakeDrpFrame(DrpHeader::DATA,
                                           liveTid,
                                           liveDba + size,
                                           payload,
                                           payload,
                                           size / payload),
                              liveDba + size,
                              payload});
        // A reply for the live TID that claims to be a read: foreign to the initiator.
        injections.push_back(
            {MicroSeconds(210),
             false,
             MakeDrpFrame(DrpHeader::REQ_ACK | DrpHeader::READ, liveTid, 0, 0, 0)});
        // A release reply for a transfer the initiator never had.
        injections.push_back(
            {MicroSeconds(220), false, MakeDrpFrame(DrpHeader::REL_ACK, unknownTid, 0, 0, 0)});
        // Write data for a TID nobody requested. The traditional RNIC has
        // nowhere to keep it; the dynamic one keeps (and acknowledges) it in
        // its indirect buffer, where it stays until the responder forgets
        // the unknown transfer, and the initiator drops that ACK.
        injections.push_back(
            {MicroSeconds(230),
             true,
             MakeDrpFrame(DrpHeader::DATA, unknownTid, FAR_AWAY + 8192, payload, payload),
             FAR_AWAY + 8192,
             payload});

        std::vector<std::vector<uint8_t>> before;
        for (const auto& injection : injections)
        {
            Ptr<RnicNetDevice> from = injection.toResponder ? a : b;
            Ptr<RnicNetDevice> to = injection.toResponder ? b : a;
            std::vector<uint8_t> bytes(injection.targetLen);
            to->GetHostMemory()->Read(injection.target, bytes.data(), bytes.size());
            before.push_back(bytes);
            Ptr<Packet> frame = injection.frame;
            Address dest = to->GetAddress();
            drp::Schedule(injection.at, [from, frame, dest]() {
                from->EthernetNetDevice::Send(frame, dest, DrpHeader::PROT_NUMBER);
            });
        }
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the live transfer ended");
        if (bed.Records().size() != 1)
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "live transfer");
        NS_TEST_ASSERT_MSG_EQ(bed.m_corrupt, 0, "live transfer's bytes identical");
        NS_TEST_ASSERT_MSG_GT(bed.Records()[0].end,
                              MicroSeconds(230),
                              "the frames came during the live transfer");

        Ptr<DrpTransport> responder = b->GetTransport();
        Ptr<DrpTransport> initiator = a->GetTransport();
        std::map<DrpTransport::DropReason, uint64_t> atResponder{
            {DrpTransport::MALFORMED, 2},
            {DrpTransport::BAD_LENGTH, 1},
            {DrpTransport::OUT_OF_REGION, 1},
            {DrpTransport::NOT_REGISTERED, traditional ? 1 : 0}};
        std::map<DrpTransport::DropReason, uint64_t> atInitiator{
            {DrpTransport::FOREIGN, 1},
            {DrpTransport::UNKNOWN_TID, traditional ? 1 : 2}};
        for (int i = 0; i < DrpTransport::DROP_REASONS; ++i)
        {
            auto reason = DrpTransport::DropReason(i);
            NS_TEST_EXPECT_MSG_EQ(responder->GetDropCount(reason),
                                  atResponder[reason],
                                  "responder drops for "
                                      << DrpTransport::GetDropReasonName(reason));
            NS_TEST_EXPECT_MSG_EQ(initiator->GetDropCount(reason),
                                  atInitiator[reason],
                                  "initiator drops for "
                                      << DrpTransport::GetDropReasonName(reason));
        }
        for (uint32_t i = 0; i < injections.size(); ++i)
        {
            const Injection& injection = injections[i];
            Ptr<RnicNetDevice> to = injection.toResponder ? b : a;
            std::vector<uint8_t> after(injection.targetLen);
            to->GetHostMemory()->Read(injection.target, after.data(), after.size());
            NS_TEST_EXPECT_MSG_EQ((after == before[i]),
                                  true,
                                  "frame " << i << ": memory unchanged");
        }
        NS_TEST_EXPECT_MSG_EQ(responder->GetActiveResponded(), 0, "the responder forgot all");
        if (Ptr<IndirectBuffer> buffer = responder->GetIndirectBuffer())
        {
            NS_TEST_EXPECT_MSG_EQ(buffer->GetOccupancy(), 0, "nothing left in the buffer");
        }
        Simulator::Destroy();
    }

    std::string m_method; //!< traditional or dynamic
};

/**
 * \ingroup drp-tests
 * A long transfer without loss or failure needs no timer: the data phase
 * lasts longer than H and many times R, and every timer that runs during it
 * is restarted by progress, so no expiry is counted and nothing is sent
 * again.
 */
class DrpLongTransferTestCase : public TestCase
{
  public:
    /**
     * \param method traditional or dynamic
     * \param operation write or read
     */
    DrpLongTransferTestCase(const std::string& method, const std::string& operation)
        : TestCase("512 KiB without loss: no timer expiry (" + method + " " + operation + ")"),
          m_method(method),
          m_operation(operation)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, 524288, m_operation));
        TimeValue h;
        ReadAttribute(bed.Rnic(0)->GetTransport(), "HandshakeTimeout", h);
        bed.Run();
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "one transfer");
        if (bed.Records().size() != 1)
        {
            return;
        }
        const DrpTransferRecord& r = bed.Records()[0];
        NS_TEST_ASSERT_MSG_EQ(r.GetStatusName(), "success", "status");
        NS_TEST_ASSERT_MSG_EQ(bed.m_corrupt, 0, "bytes identical");
        NS_TEST_ASSERT_MSG_GT(r.GetDuration(), 2 * h.Get(), "the data phase outlasts H");
        NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0, "no retransmission");
        NS_TEST_EXPECT_MSG_EQ(r.timeouts, 0, "no timer expiry");
        Simulator::Destroy();
    }

    std::string m_method;    //!< traditional or dynamic
    std::string m_operation; //!< write or read
};

/**
 * \ingroup drp-tests
 * A responder does not forget a live initiator whose retransmissions back
 * off. A one-frame write loses its data frame six times in a row (the
 * responder's ReceiveListErrorModel drops received frames 1 to 6; frame 0 is
 * the request), so the initiator retransmits after R, 2R, 4R, 8R, 16R and
 * 32R: 7.56 ms of silence at the responder, far longer than (MaxRetries + 2)
 * x max(H, R) with H = 100 us (2.16 ms). The transfer must still succeed,
 * with nothing dropped as a frame of an unknown transfer.
 */
class DrpBackedOffInitiatorTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpBackedOffInitiatorTestCase(const std::string& method)
        : TestCase("a responder waits for an initiator that backs off (" + method + ")"),
          m_method(method)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        rnic.SetTransportAttribute("HandshakeTimeout", TimeValue(MicroSeconds(100)));
        PointToPointBed bed(rnic, MakeWorkload(1, 1024));
        Ptr<ReceiveListErrorModel> losses = CreateObject<ReceiveListErrorModel>();
        losses->SetList({1, 2, 3, 4, 5, 6});
        bed.Rnic(1)->SetReceiveErrorModel(losses);
        TimeValue r;
        bed.Rnic(0)->GetTransport()->GetAttribute("RetransmissionTimeout", r);
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        const DrpTransferRecord& record = bed.Records()[0];
        NS_TEST_EXPECT_MSG_EQ(record.GetStatusName(), "success", "status");
        NS_TEST_EXPECT_MSG_EQ(record.retransmissions, 6, "six retransmissions");
        NS_TEST_EXPECT_MSG_GT(record.GetDuration(), 63 * r.Get(), "the timer backed off");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "identical bytes");
        NS_TEST_EXPECT_MSG_EQ(bed.Rnic(1)->GetTransport()->GetDropCount(DrpTransport::UNKNOWN_TID),
                              0,
                              "no frame of the transfer was taken for one of a forgotten transfer");
        Simulator::Destroy();
    }

    std::string m_method; //!< traditional or dynamic
};

/**
 * \ingroup drp-tests
 * Acknowledgement coalescing (DrpTransport's AckEvery, AckDelay): one
 * 16-frame transfer on the traditional RNIC, the ACKs its receiving RNIC
 * sends counted on its Tx trace.
 *
 * - AckEvery = 1 (the default): 16 ACKs.
 * - AckEvery = 4, AckDelay 1 ms, window 8: an ACK per 4 frames, 4 in all, the
 *   transfer no slower (the window never waits for them).
 * - AckEvery = 8, AckDelay 20 us, window 2: the window fills before 8
 *   frames land, so every ACK is the timer's: 8 ACKs (2 frames each), and
 *   each round of the window waits AckDelay longer than with AckEvery = 1.
 * - AckEvery = 4, the responder's ReceiveListErrorModel dropping data
 *   frame SN 5: the frames after the hole are acknowledged at once
 *   (duplicate ACKs), fast retransmission fills it, one retransmission,
 *   the bytes identical.
 */
class DrpAckCoalescingTestCase : public TestCase
{
  public:
    /// \param operation write or read
    explicit DrpAckCoalescingTestCase(const std::string& operation)
        : TestCase("acknowledgement coalescing: ACKs per frame, the timer, a hole (" + operation +
                   ")"),
          m_operation(operation)
    {
    }

  private:
    /// What one run gives.
    struct Outcome
    {
        std::string status;          //!< the transfer's status
        std::vector<uint32_t> acks;  //!< ACKN of each plain ACK the receiving RNIC sent
        uint32_t retransmissions{0}; //!< data frames sent again
        Time duration;               //!< the transfer's time
        uint32_t corrupt{0};         //!< 1 if the regions differ
    };

    /**
     * \param every AckEvery
     * \param delay AckDelay
     * \param window Window
     * \param lost the responder's received frames to drop (indices)
     * \return what the run gave
     */
    Outcome Run(uint32_t every, Time delay, uint32_t window, std::list<uint32_t> lost = {})
    {
        RnicHelper rnic;
        rnic.SetMethod("traditional");
        rnic.SetTransportAttribute("AckEvery", UintegerValue(every));
        rnic.SetTransportAttribute("AckDelay", TimeValue(delay));
        rnic.SetTransportAttribute("Window", UintegerValue(window));
        PointToPointBed bed(rnic, MakeWorkload(1, 16 * 1024, m_operation));
        if (!lost.empty())
        {
            Ptr<ReceiveListErrorModel> losses = CreateObject<ReceiveListErrorModel>();
            losses->SetList(lost);
            bed.Rnic(m_operation == "write" ? 1 : 0)->SetReceiveErrorModel(losses);
        }
        Outcome outcome;
        Ptr<DrpTransport> receiver = bed.Rnic(m_operation == "write" ? 1 : 0)->GetTransport();
        receiver->TraceConnectWithoutContext(
            "Tx",
            drp::FunctorCallback<void, Ptr<const Packet>>([&outcome](Ptr<const Packet> frame) {
                DrpHeader header;
                frame->PeekHeader(header);
                if ((header.GetControl() & ~DrpHeader::READ) == DrpHeader::ACK)
                {
                    outcome.acks.push_back(header.GetAckNumber());
                }
            }));
        bed.Run();
        if (bed.Records().size() == 1)
        {
            outcome.status = bed.Records()[0].GetStatusName();
            outcome.retransmissions = bed.Records()[0].retransmissions;
            outcome.duration = bed.Records()[0].GetDuration();
        }
        outcome.corrupt = bed.m_corrupt;
        Simulator::Destroy();
        return outcome;
    }

    /**
     * \param first the first ACKN
     * \param step between ACKNs
     * \return first, first + step, ... up to 16
     */
    static std::vector<uint32_t> Every(uint32_t first, uint32_t step)
    {
        std::vector<uint32_t> acks;
        for (uint32_t ackn = first; ackn <= 16; ackn += step)
        {
            acks.push_back(ackn);
        }
        return acks;
    }

    /**
     * \param outcome a run
     * \param acks the ACKNs expected, in order
     * \param what the run, for the messages
     */
    void ExpectRun(const Outcome& outcome,
                   const std::vector<uint32_t>& acks,
                   const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(outcome.status, "success", what << ": status");
        NS_TEST_EXPECT_MSG_EQ(outcome.corrupt, 0, what << ": identical bytes");
        NS_TEST_EXPECT_MSG_EQ(outcome.acks.size(), acks.size(), what << ": ACKs sent");
        NS_TEST_EXPECT_MSG_EQ((outcome.acks == acks), true, what << ": the ACKNs, in order");
    }

    void DoRun() override
    {
        const bool write = m_operation == "write";
        const Outcome each = Run(1, MicroSeconds(50), 8);
        ExpectRun(each, Every(1, 1), "AckEvery 1");

        const Outcome four = Run(4, MilliSeconds(1), 8);
        ExpectRun(four, Every(4, 4), "AckEvery 4");
        NS_TEST_EXPECT_MSG_EQ(four.duration, each.duration, "the window never waited for an ACK");

        // Window 2: two frames land, then the timer sends their ACK. A
        // round ends AckDelay after its first frame landed instead of when
        // the ACK of it left; the last round ends on the completing frame.
        const Time delay = MicroSeconds(20);
        const Time frameTime = DataRate("1Gbps").CalculateBytesTxTime(
            1024 + DrpHeader::SIZE + EthernetNetDevice::HEADER_SIZE + EthernetNetDevice::FCS_SIZE +
            EthernetNetDevice::PREAMBLE_SFD_SIZE + 12); // 12: the interframe gap
        const Outcome timer = Run(8, delay, 2);
        ExpectRun(timer, Every(2, 2), "AckEvery 8, window 2");
        const Time extra = timer.duration - each.duration;
        NS_TEST_EXPECT_MSG_GT(extra, 7 * (delay - frameTime), "seven rounds waited for the timer");
        NS_TEST_EXPECT_MSG_LT(extra, 8 * delay, "no round waited longer than AckDelay");

        // The hole: SN 5 of a write (the responder's received frame 6, after
        // the REQ), SN 2 of a read (the initiator's received frame 3). The
        // frames after it are acknowledged one by one (duplicate ACKs), the
        // frame that fills it at once, and the recovery is that of AckEvery 1.
        const std::list<uint32_t> lost = {write ? 6U : 3U};
        const Outcome holeEach = Run(1, MilliSeconds(1), 8, lost);
        const Outcome hole = Run(4, MilliSeconds(1), 8, lost);
        ExpectRun(hole,
                  write ? std::vector<uint32_t>{4, 5, 5, 5, 5, 5, 5, 5, 13, 16}
                        : std::vector<uint32_t>{2, 2, 2, 2, 2, 2, 2, 10, 14, 16},
                  "AckEvery 4, a frame lost");
        NS_TEST_EXPECT_MSG_EQ(hole.retransmissions,
                              holeEach.retransmissions,
                              "the same retransmissions as with AckEvery 1");
        NS_TEST_EXPECT_MSG_EQ(hole.duration,
                              holeEach.duration,
                              "the same recovery as with AckEvery 1");
    }

    std::string m_operation; //!< write or read
};

/**
 * \ingroup drp-tests
 * A released responder record runs no timer: it answers a repeated REL
 * while its initiator may still send one, and is forgotten when a frame
 * finds its idle time passed (as if a timer had forgotten it then).
 */
class DrpReleasedRecordTestCase : public TestCase
{
  public:
    /// \param method traditional or dynamic
    DrpReleasedRecordTestCase(const std::string& method)
        : TestCase("a released record answers a repeated REL until its idle time has passed (" +
                   method + ")"),
          m_method(method)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod(m_method);
        PointToPointBed bed(rnic, MakeWorkload(1, 4096));
        Ptr<DrpTransport> initiator = bed.Rnic(0)->GetTransport();
        Ptr<DrpTransport> responder = bed.Rnic(1)->GetTransport();
        TimeValue value;
        ReadAttribute(responder, "HandshakeTimeout", value);
        Time h = value.Get();
        ReadAttribute(responder, "RetransmissionTimeout", value);
        UintegerValue maxRetries;
        ReadAttribute(responder, "MaxRetries", maxRetries);
        UintegerValue maxBackoff;
        ReadAttribute(responder, "MaxBackoff", maxBackoff);
        Time idle = (maxRetries.Get() + 2) * std::max(h, value.Get() * int64_t(maxBackoff.Get()));

        Time closedAt = Time::Max();
        responder->TraceConnectWithoutContext("ResponderState",
                                              drp::FunctorCallback<void,
                                                                   Mac48Address,
                                                                   uint16_t,
                                                                   ResponderConnection::State,
                                                                   ResponderConnection::State>(
                                                  [&closedAt](Mac48Address,
                                                              uint16_t,
                                                              ResponderConnection::State from,
                                                              ResponderConnection::State to) {
                                                      if (from == ResponderConnection::RELEASED &&
                                                          to == ResponderConnection::CLOSED)
                                                      {
                                                          closedAt = Simulator::Now();
                                                      }
                                                  }));
        // A repeated REL (as if the REL_ACK had been lost) a little after the
        // transfer, and another one just after the idle time.
        const Time early = MilliSeconds(1);
        const Time late = MilliSeconds(1) + idle;
        Ptr<RnicNetDevice> a = bed.Rnic(0);
        Ptr<RnicNetDevice> b = bed.Rnic(1);
        uint64_t earlyRepliesDropped = 0;
        size_t recordsBeforeLate = 0;
        for (Time at : {early, late})
        {
            drp::Schedule(at, [&bed, a, b]() {
                SendFrameAt(Time(0),
                            a,
                            b,
                            MakeDrpFrame(DrpHeader::REL, bed.Records()[0].tid, 0, 0, 0));
            });
        }
        drp::Schedule(late - MicroSeconds(1), [&]() {
            earlyRepliesDropped = initiator->GetDropCount(DrpTransport::UNKNOWN_TID);
            recordsBeforeLate = responder->GetRespondedRecords();
        });
        bed.Run();

        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].GetStatusName(), "success", "status");
        NS_TEST_EXPECT_MSG_EQ(earlyRepliesDropped,
                              1,
                              "the early REL answered (the initiator, done, drops the REL_ACK)");
        NS_TEST_EXPECT_MSG_EQ(recordsBeforeLate, 1, "the released record kept until then");
        NS_TEST_EXPECT_MSG_EQ(responder->GetActiveResponded(), 0, "nothing active after release");
        NS_TEST_EXPECT_MSG_EQ(responder->GetDropCount(DrpTransport::UNKNOWN_TID),
                              1,
                              "the late REL finds no record");
        NS_TEST_EXPECT_MSG_EQ(initiator->GetDropCount(DrpTransport::UNKNOWN_TID),
                              1,
                              "and is not answered");
        NS_TEST_EXPECT_MSG_EQ(responder->GetRespondedRecords(), 0, "forgotten");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(closedAt, late, "forgotten when the late REL came");
        NS_TEST_EXPECT_MSG_LT(closedAt, late + MicroSeconds(100), "and no later");
        Simulator::Destroy();
    }

    std::string m_method; //!< traditional or dynamic
};

/**
 * \ingroup drp-tests
 * Whole transfers.
 */
class DrpTransferTestSuite : public TestSuite
{
  public:
    DrpTransferTestSuite()
        : TestSuite("drp-transfer", DRP_TEST_SYSTEM)
    {
        AddTestCase(new DrpRegistrationFailsThriceTestCase, DRP_TEST_QUICK);
        for (const std::string method : {"traditional", "dynamic"})
        {
            for (const std::string operation : {"write", "read"})
            {
                AddTestCase(new DrpLossyMemoryTestCase(method, operation), DRP_TEST_QUICK);
            }
        }
        AddTestCase(new DrpBufferOverflowTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpIndirectLimitTestCase, DRP_TEST_QUICK);
        for (const std::string method : {"traditional", "dynamic"})
        {
            AddTestCase(new DrpNeverHangsTestCase(method, DrpNeverHangsTestCase::ALWAYS_FAILS),
                        DRP_TEST_QUICK);
            AddTestCase(new DrpNeverHangsTestCase(method, DrpNeverHangsTestCase::SILENT),
                        DRP_TEST_QUICK);
            AddTestCase(new DrpNeverHangsTestCase(method, DrpNeverHangsTestCase::NO_HOST),
                        DRP_TEST_QUICK);
            AddTestCase(new DrpBackedOffInitiatorTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpReleasedRecordTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpConcurrentTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpBadFramesTestCase(method), DRP_TEST_QUICK);
        }
        for (const std::string operation : {"write", "read"})
        {
            AddTestCase(new DrpAckCoalescingTestCase(operation), DRP_TEST_QUICK);
            AddTestCase(new DrpReadAheadTestCase(operation), DRP_TEST_QUICK);
        }
        // Last: the runner stops a suite at its first failing case.
        for (const std::string operation : {"write", "read"})
        {
            for (const std::string method : {"traditional", "dynamic"})
            {
                AddTestCase(new DrpLongTransferTestCase(method, operation), DRP_TEST_QUICK);
            }
        }
    }
};

/// Static instance that registers the suite with the runner.
static DrpTransferTestSuite g_drpTransferTestSuite;
