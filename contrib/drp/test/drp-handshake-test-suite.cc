/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Deterministic protocol cases on one point-to-point link: one transfer,
// exactly one chosen frame lost (or one registration failed), and the
// transfer's mode, counters and time checked against the loss-free time of
// the same configuration plus the extra time the timers and the link explain.

#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-header.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-channel.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <list>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Bytes of the one transfer of every case: 16 frames of the default 1024-byte payload.
const uint32_t TRANSFER_SIZE = 16384;

/**
 * \ingroup drp-tests
 * One run: one transfer between two RNICs on one link, with chosen frames lost.
 */
struct HandshakeRunSpec
{
    std::string method{"dynamic"};         //!< traditional or dynamic
    bool read{false};                      //!< read (true) or write
    std::list<uint32_t> responderLosses;   //!< frames the responder's RNIC loses (0-based)
    std::list<uint32_t> initiatorLosses;   //!< frames the initiator's RNIC loses (0-based)
    std::vector<double> registrationDraws; //!< responder's draws (empty: always succeeds)
};

/**
 * \ingroup drp-tests
 * The configured times that the expected results are made of, read back from
 * the installed objects' attributes.
 */
struct HandshakeTiming
{
    Time handshake;    //!< H: DrpTransport::HandshakeTimeout
    Time retransmit;   //!< R: DrpTransport::RetransmissionTimeout
    Time pcie;         //!< L: PcieLink::Latency
    Time registration; //!< the responder's registration time for the transfer's region
    Time handler;      //!< RdmaHostApplication::HandlerLatency
    Time controlHop;   //!< a control frame from one transport to the other
    Time dataSlot;     //!< time a full data frame occupies the transmitter
    /// the transport's transmit processing: a frame leaves (and the timers
    /// that run from transmission start) this long after it was made
    Time tx;

    /**
     * From the initiator's request to its transport receiving the reply:
     * two control hops, the registration interrupt and doorbell, and the
     * host's registration.
     * \return the handshake round trip
     */
    Time HandshakeRtt() const
    {
        return 2 * controlHop + 2 * pcie + registration;
    }
};

/**
 * \ingroup drp-tests
 * What one run produced.
 */
struct HandshakeRunResult
{
    std::vector<DrpTransferRecord> records; //!< the initiator's transfers
    uint32_t registrationsOk{0};            //!< responder host: successful registrations
    uint32_t registrationsFailed{0};        //!< responder host: failed registrations
    uint64_t initiatorLosses{0};            //!< frames the initiator's error model dropped
    uint64_t responderLosses{0};            //!< frames the responder's error model dropped
    uint64_t differences{0};                //!< bytes that differ between the two regions
    HandshakeTiming timing;                 //!< the configured times
};

/**
 * Reads an attribute back from the object itself.
 * \param object an object
 * \param name one of its attributes
 * \param value receives the value
 */
void
ReadAttribute(Ptr<Object> object, const std::string& name, AttributeValue& value)
{
    object->GetAttribute(name, value);
}

/**
 * \param object an object
 * \param name one of its Time attributes
 * \return the attribute's value
 */
Time
GetTimeAttribute(Ptr<Object> object, const std::string& name)
{
    TimeValue value;
    ReadAttribute(object, name, value);
    return value.Get();
}

/**
 * \param object an object
 * \param name one of its integer attributes
 * \return the attribute's value
 */
uint64_t
GetUintAttribute(Ptr<Object> object, const std::string& name)
{
    UintegerValue value;
    ReadAttribute(object, name, value);
    return value.Get();
}

/**
 * \param rnic an installed RNIC
 * \param app its host
 * \return the configured times
 */
HandshakeTiming
ReadTiming(Ptr<RnicNetDevice> rnic, Ptr<RdmaHostApplication> app)
{
    Ptr<DrpTransport> transport = rnic->GetTransport();
    HandshakeTiming t;
    t.handshake = GetTimeAttribute(transport, "HandshakeTimeout");
    t.retransmit = GetTimeAttribute(transport, "RetransmissionTimeout");
    t.pcie = rnic->GetPcieLink()->GetLatency();
    // The workload's regions are page-aligned: as many pages as at address 0.
    t.registration = app->GetRegistrationTime(0, TRANSFER_SIZE);
    t.handler = GetTimeAttribute(app, "HandlerLatency");
    uint64_t clock = GetUintAttribute(transport, "ClockFrequency");
    Time tx = NanoSeconds(GetUintAttribute(transport, "TxProcessingCycles") * 1000000000 / clock);
    Time rx = NanoSeconds(GetUintAttribute(transport, "RxProcessingCycles") * 1000000000 / clock);
    Time delay = DynamicCast<EthernetChannel>(rnic->GetChannel())->GetDelay();
    uint32_t control =
        EthernetNetDevice::HEADER_SIZE + DrpHeader::SIZE + EthernetNetDevice::FCS_SIZE;
    t.controlHop = tx + rnic->GetFrameTxTime(control) + delay + rx;
    t.dataSlot = rnic->GetSlotTime(control + transport->GetPayloadSize());
    t.tx = tx;
    return t;
}

/**
 * \param losses frames to lose, 0-based in arrival order
 * \return an error model that loses them (null if none)
 */
Ptr<ErrorModel>
MakeLosses(const std::list<uint32_t>& losses)
{
    if (losses.empty())
    {
        return nullptr;
    }
    Ptr<ReceiveListErrorModel> model = CreateObject<ReceiveListErrorModel>();
    model->SetList(losses);
    return model;
}

/**
 * Runs one transfer of TRANSFER_SIZE bytes from node 0 to node 1 (write) or
 * from node 1 to node 0 (read) over 1 Gbps, then destroys the simulator.
 * \param spec the run
 * \return what it produced
 */
HandshakeRunResult
RunHandshake(const HandshakeRunSpec& spec)
{
    NodeContainer nodes;
    nodes.Create(2);
    RnicHelper rnicHelper;
    rnicHelper.SetMethod(spec.method);
    rnicHelper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    NetDeviceContainer devices = rnicHelper.Install(nodes.Get(0), nodes.Get(1));
    Ptr<RnicNetDevice> initiator = DynamicCast<RnicNetDevice>(devices.Get(0));
    Ptr<RnicNetDevice> responder = DynamicCast<RnicNetDevice>(devices.Get(1));
    initiator->SetReceiveErrorModel(MakeLosses(spec.initiatorLosses));
    responder->SetReceiveErrorModel(MakeLosses(spec.responderLosses));

    RdmaHostHelper hostHelper;
    hostHelper.SetAttribute("Transfers", UintegerValue(1));
    hostHelper.SetAttribute("TransferSize", UintegerValue(TRANSFER_SIZE));
    hostHelper.SetAttribute("Operation", StringValue(spec.read ? "read" : "write"));
    Ptr<RdmaHostApplication> initiatorApp =
        DynamicCast<RdmaHostApplication>(hostHelper.Install(nodes.Get(0)).Get(0));
    RdmaHostHelper::SetWorkload(initiatorApp, responder);
    hostHelper.SetAttribute("Transfers", UintegerValue(0));
    Ptr<RdmaHostApplication> responderApp =
        DynamicCast<RdmaHostApplication>(hostHelper.Install(nodes.Get(1)).Get(0));
    std::vector<double> draws = spec.registrationDraws;
    if (!draws.empty())
    {
        // A draw below FRP fails: with FRP 0.5, 0.0 fails and 1.0 succeeds.
        Ptr<DeterministicRandomVariable> rv = CreateObject<DeterministicRandomVariable>();
        rv->SetValueArray(draws.data(), draws.size());
        responderApp->SetAttribute("RegistrationRandomVariable", PointerValue(rv));
        responderApp->SetAttribute("RegistrationFailureProbability", DoubleValue(0.5));
    }

    HandshakeRunResult result;
    responderApp->TraceConnectWithoutContext(
        "Registration",
        drp::FunctorCallback<void, Mac48Address, uint16_t, bool>(
            [&result](Mac48Address, uint16_t, bool success) {
                ++(success ? result.registrationsOk : result.registrationsFailed);
            }));
    Ptr<HostMemory> initiatorMemory = initiator->GetHostMemory();
    Ptr<HostMemory> responderMemory = responder->GetHostMemory();
    initiatorApp->TraceConnectWithoutContext(
        "TransferComplete",
        drp::FunctorCallback<void, const DrpTransferRecord&>([&](const DrpTransferRecord& r) {
            result.differences +=
                initiatorMemory->CountDifferences(r.sba, responderMemory, r.dba, r.length);
        }));

    initiatorApp->SetStartTime(Seconds(0));
    responderApp->SetStartTime(Seconds(0));
    Simulator::Run();
    result.records = initiatorApp->GetRecords();
    result.initiatorLosses = initiator->GetReceiveErrorDrops();
    result.responderLosses = responder->GetReceiveErrorDrops();
    result.timing = ReadTiming(initiator, responderApp);
    Simulator::Destroy();
    return result;
}

/// \return "read" or "write"
std::string
OperationName(bool read)
{
    return read ? "read" : "write";
}

} // namespace

/**
 * \ingroup drp-tests
 * Common part of the handshake cases: runs a case and its loss-free
 * baseline (T0) and checks what every case shares.
 */
class DrpHandshakeTestCase : public TestCase
{
  public:
    /**
     * \param name the case
     * \param method traditional or dynamic
     * \param read read (true) or write
     */
    DrpHandshakeTestCase(const std::string& name, const std::string& method, bool read = false)
        : TestCase(name + " (" + method + " " + OperationName(read) + ")"),
          m_method(method),
          m_read(read)
    {
    }

  protected:
    /// \return a spec of this case's method and operation, nothing lost
    HandshakeRunSpec Spec() const
    {
        HandshakeRunSpec spec;
        spec.method = m_method;
        spec.read = m_read;
        return spec;
    }

    /**
     * Runs the loss-free baseline and the case; checks that each ran one
     * successful transfer with identical bytes and that the chosen frames
     * were lost.
     * \param spec the case
     * \param lossesExpected frames the error models must have dropped
     * \return true if a check failed (the case then stops)
     */
    bool RunCase(const HandshakeRunSpec& spec, uint64_t lossesExpected)
    {
        HandshakeRunResult base = RunHandshake(Spec());
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(base.records.size(), 1, "baseline: one transfer ended");
        if (base.records.size() != 1)
        {
            return true;
        }
        const DrpTransferRecord& b = base.records[0];
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(b.GetStatusName(), "success", "baseline status");
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(b.GetModeName(), "direct", "baseline mode");
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(b.requests, 1, "baseline requests");
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(base.differences, 0, "baseline bytes identical");
        m_t0 = b.GetDuration();

        m_run = RunHandshake(spec);
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(m_run.records.size(), 1, "one transfer ended");
        if (m_run.records.size() != 1)
        {
            return true;
        }
        m_record = m_run.records[0];
        m_timing = m_run.timing;
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(m_run.initiatorLosses + m_run.responderLosses,
                                           lossesExpected,
                                           "frames the error models dropped");
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(m_record.GetStatusName(), "success", "status");
        NS_TEST_ASSERT_MSG_EQ_RETURNS_BOOL(m_run.differences, 0, "bytes identical at both ends");
        return IsStatusFailure();
    }

    /// \return the case's transfer time minus the loss-free time T0
    Time Extra() const
    {
        return m_record.GetDuration() - m_t0;
    }

    std::string m_method;       //!< traditional or dynamic
    bool m_read;                //!< read (true) or write
    Time m_t0;                  //!< the loss-free transfer time
    HandshakeRunResult m_run;   //!< the case's run
    DrpTransferRecord m_record; //!< the case's transfer
    HandshakeTiming m_timing;   //!< the configured times
};

/**
 * \ingroup drp-tests
 * The first request is lost: the initiator's handshake timer fires once and
 * the second request runs the loss-free handshake, H later (both methods:
 * the dynamic method waits for a second expiry before going indirect).
 */
class DrpRequestLostTestCase : public DrpHandshakeTestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpRequestLostTestCase(const std::string& method)
        : DrpHandshakeTestCase("REQ lost", method)
    {
    }

  private:
    void DoRun() override
    {
        HandshakeRunSpec spec = Spec();
        spec.responderLosses = {0}; // the REQ
        if (RunCase(spec, 1))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
        NS_TEST_ASSERT_MSG_EQ(m_record.requests, 2, "requests");
        NS_TEST_ASSERT_MSG_EQ(m_record.invalidReplies, 0, "invalid replies");
        NS_TEST_ASSERT_MSG_EQ(m_record.timeouts, 1, "timeouts (one handshake expiry)");
        NS_TEST_ASSERT_MSG_EQ(m_record.retransmissions, 0, "retransmissions");
        NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                  m_timing.handshake + m_timing.tx,
                                  NanoSeconds(1),
                                  "extra time = H + the REQ's transmit processing (the timer "
                                  "starts when the first REQ leaves; tolerance 1 ns)");
    }
};

/**
 * \ingroup drp-tests
 * The valid reply is lost: the initiator re-requests after H; the responder,
 * already registered, answers at once without registering again, which
 * saves the registration interrupt, the registration and the doorbell.
 */
class DrpValidReplyLostTestCase : public DrpHandshakeTestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpValidReplyLostTestCase(const std::string& method)
        : DrpHandshakeTestCase("valid REQ_ACK lost", method)
    {
    }

  private:
    void DoRun() override
    {
        HandshakeRunSpec spec = Spec();
        spec.initiatorLosses = {0}; // the valid REQ_ACK
        if (RunCase(spec, 1))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
        NS_TEST_ASSERT_MSG_EQ(m_record.requests, 2, "requests");
        NS_TEST_ASSERT_MSG_EQ(m_record.invalidReplies, 0, "invalid replies");
        NS_TEST_ASSERT_MSG_EQ(m_record.timeouts, 1, "timeouts (one handshake expiry)");
        NS_TEST_ASSERT_MSG_EQ(m_run.registrationsOk, 1, "the responder host registered once");
        NS_TEST_ASSERT_MSG_EQ(m_run.registrationsFailed, 0, "no failed registration");
        Time expected = m_timing.handshake + m_timing.tx -
                        (m_timing.pcie + m_timing.registration + m_timing.pcie);
        NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                  expected,
                                  NanoSeconds(1),
                                  "extra time = H + tx processing - (L + registration time + L) "
                                  "(tolerance 1 ns)");
    }
};

/**
 * \ingroup drp-tests
 * The responder's first registration fails and its invalid reply arrives.
 * Traditional: the initiator restarts its timer and asks again H later, so
 * the transfer takes a whole handshake round trip plus H longer. Dynamic:
 * the transfer goes indirect at once; the data moves as it would have after
 * a valid reply (into the indirect buffer), the request goes out again
 * after RequestEveryFrames data frames and the second registration succeeds
 * while data still flows.
 */
class DrpRegistrationFailsOnceTestCase : public DrpHandshakeTestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpRegistrationFailsOnceTestCase(const std::string& method)
        : DrpHandshakeTestCase("registration fails once, invalid REQ_ACK arrives", method)
    {
    }

  private:
    void DoRun() override
    {
        HandshakeRunSpec spec = Spec();
        spec.registrationDraws = {0.0, 1.0}; // fail, then succeed
        if (RunCase(spec, 0))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.invalidReplies, 1, "invalid replies");
        NS_TEST_ASSERT_MSG_EQ(m_run.registrationsFailed, 1, "failed registrations");
        NS_TEST_ASSERT_MSG_EQ(m_run.registrationsOk, 1, "successful registrations");
        if (m_method == "traditional")
        {
            NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
            NS_TEST_ASSERT_MSG_EQ(m_record.requests, 2, "requests");
            NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                      m_timing.HandshakeRtt() + m_timing.handshake,
                                      NanoSeconds(1),
                                      "extra time = handshake round trip (2 control hops + 2 L "
                                      "+ registration time) + H (tolerance 1 ns)");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "indirect", "mode");
        NS_TEST_ASSERT_MSG_EQ(m_record.requests, 2, "requests (the second after 8 data frames)");
        // The data starts exactly when it would after a valid reply. What
        // differs: the repeated request occupies the initiator's transmitter
        // for one control-frame slot between data frames, and buffered frames
        // are acknowledged without waiting for a DMA write. Neither can move
        // the end by more than one data-frame slot either way.
        NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                  Time(0),
                                  m_timing.dataSlot,
                                  "time close to T0 (tolerance: one data-frame slot, "
                                      << m_timing.dataSlot.As(Time::NS) << ")");
    }
};

/**
 * \ingroup drp-tests
 * The responder's registration fails and its invalid reply is lost: to the
 * responder this is a failure, to the initiator no reply at all. One
 * handshake expiry (not enough for the dynamic method to go indirect), then
 * the second request registers successfully: H extra.
 */
class DrpInvalidReplyLostTestCase : public DrpHandshakeTestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpInvalidReplyLostTestCase(const std::string& method)
        : DrpHandshakeTestCase("invalid REQ_ACK lost", method)
    {
    }

  private:
    void DoRun() override
    {
        HandshakeRunSpec spec = Spec();
        spec.registrationDraws = {0.0, 1.0};
        spec.initiatorLosses = {0}; // the invalid REQ_ACK
        if (RunCase(spec, 1))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
        NS_TEST_ASSERT_MSG_EQ(m_record.requests, 2, "requests");
        NS_TEST_ASSERT_MSG_EQ(m_record.invalidReplies, 0, "no invalid reply arrived");
        NS_TEST_ASSERT_MSG_EQ(m_record.timeouts, 1, "timeouts (one handshake expiry)");
        NS_TEST_ASSERT_MSG_EQ(m_run.registrationsFailed, 1, "failed registrations");
        NS_TEST_ASSERT_MSG_EQ(m_run.registrationsOk, 1, "successful registrations");
        NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                  m_timing.handshake + m_timing.tx,
                                  NanoSeconds(1),
                                  "extra time = H + the REQ's transmit processing (the timer "
                                  "starts when the first REQ leaves; tolerance 1 ns)");
    }
};

/**
 * \ingroup drp-tests
 * Two requests lost in a row. Traditional: two expiries, 2H extra. Dynamic:
 * on the second expiry with no reply at all the transfer goes indirect, so
 * the data no longer waits for the third request's handshake round trip.
 */
class DrpTwoRequestsLostTestCase : public DrpHandshakeTestCase
{
  public:
    DrpTwoRequestsLostTestCase()
        : DrpHandshakeTestCase("two REQs lost in a row", "both methods")
    {
    }

  private:
    void DoRun() override
    {
        Time duration[2];
        for (const std::string method : {"traditional", "dynamic"})
        {
            m_method = method;
            HandshakeRunSpec spec = Spec();
            spec.responderLosses = {0, 1}; // the first two REQs
            if (RunCase(spec, 2))
            {
                return;
            }
            // Dynamic: the third request goes with the switch to indirect, a
            // fourth after the first RequestEveryFrames (8) data frames,
            // which are handed out at once (window 8).
            NS_TEST_ASSERT_MSG_EQ(m_record.requests,
                                  (method == "traditional" ? 3 : 4),
                                  method << ": requests");
            NS_TEST_ASSERT_MSG_EQ(m_record.invalidReplies, 0, method << ": invalid replies");
            if (method == "traditional")
            {
                duration[0] = m_record.GetDuration();
                NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", method << ": mode");
                NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                          2 * (m_timing.handshake + m_timing.tx),
                                          NanoSeconds(1),
                                          method << ": extra time = 2 (H + tx processing) "
                                                    "(tolerance 1 ns)");
                continue;
            }
            duration[1] = m_record.GetDuration();
            NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "indirect", method << ": mode");
            // The data starts after the synthetic reply (interrupt, host,
            // doorbell) right at the second expiry, instead of a handshake
            // round trip later; the connection is up long before the data
            // ends. Tolerance: one data-frame slot (buffered frames are
            // acknowledged sooner, the first data frames wait for no DMA).
            NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                      2 * (m_timing.handshake + m_timing.tx) -
                                          m_timing.HandshakeRtt(),
                                      m_timing.dataSlot,
                                      method << ": extra time = 2 (H + tx) - handshake round trip "
                                             << "(tolerance one data-frame slot, "
                                             << m_timing.dataSlot.As(Time::NS) << ")");
        }
        NS_TEST_ASSERT_MSG_LT(duration[1], duration[0], "dynamic faster than traditional");
    }
};

/**
 * \ingroup drp-tests
 * A middle data frame is lost: three duplicate ACKs trigger a fast
 * retransmit; no timer expires. The retransmitted frame costs one more
 * data-frame slot on the wire.
 */
class DrpMiddleDataLostTestCase : public DrpHandshakeTestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpMiddleDataLostTestCase(const std::string& method)
        : DrpHandshakeTestCase("middle data frame lost", method)
    {
    }

  private:
    void DoRun() override
    {
        HandshakeRunSpec spec = Spec();
        spec.responderLosses = {1 + 7}; // after the REQ: data frame SN 7
        if (RunCase(spec, 1))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
        NS_TEST_ASSERT_MSG_EQ(m_record.retransmissions, 1, "one fast retransmit");
        NS_TEST_ASSERT_MSG_EQ(m_record.timeouts, 0, "no timer expiry");
        NS_TEST_ASSERT_MSG_GT(Extra(), Time(0), "the loss costs time");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(Extra(),
                                    2 * m_timing.dataSlot,
                                    "extra time at most two data-frame slots ("
                                        << (2 * m_timing.dataSlot).As(Time::NS) << ")");
    }
};

/**
 * \ingroup drp-tests
 * The last data frame is lost: no later frame makes duplicate ACKs, so the
 * retransmission timer recovers it, R after the last ACK that advanced.
 */
class DrpLastDataLostTestCase : public DrpHandshakeTestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpLastDataLostTestCase(const std::string& method)
        : DrpHandshakeTestCase("last data frame lost", method)
    {
    }

  private:
    void DoRun() override
    {
        uint32_t frames = TRANSFER_SIZE / 1024;
        HandshakeRunSpec spec = Spec();
        spec.responderLosses = {frames}; // after the REQ: the last data frame
        if (RunCase(spec, 1))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_record.timeouts, 1, "recovered by the timer");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_record.retransmissions, 1, "retransmissions");
        // The timer starts at the previous frame's ACK, about one slot before
        // the lost frame's ACK would have come; the retransmission then takes
        // a DMA read, a data frame and an ACK. Tolerance: two data-frame slots.
        NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                  m_timing.retransmit,
                                  2 * m_timing.dataSlot,
                                  "extra time = R (tolerance two data-frame slots, "
                                      << (2 * m_timing.dataSlot).As(Time::NS) << ")");
    }
};

/**
 * \ingroup drp-tests
 * ACKs lost. A middle one costs nothing: the next cumulative ACK covers it
 * and the window (8 frames) is never what holds the sender back. The last
 * one is recovered by the timer: the sender retransmits the last frame, the
 * responder acknowledges the duplicate at once.
 */
class DrpAckLostTestCase : public DrpHandshakeTestCase
{
  public:
    /**
     * \param method traditional or dynamic
     * \param last lose the last ACK (true) or a middle one
     */
    DrpAckLostTestCase(const std::string& method, bool last)
        : DrpHandshakeTestCase(last ? "last ACK lost" : "middle ACK lost", method),
          m_last(last)
    {
    }

  private:
    void DoRun() override
    {
        uint32_t frames = TRANSFER_SIZE / 1024;
        HandshakeRunSpec spec = Spec();
        // The initiator receives the REQ_ACK, then one ACK per data frame.
        spec.initiatorLosses = {m_last ? frames : frames / 2};
        if (RunCase(spec, 1))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
        if (!m_last)
        {
            NS_TEST_ASSERT_MSG_EQ(m_record.timeouts, 0, "no timer expiry");
            NS_TEST_ASSERT_MSG_EQ(m_record.retransmissions, 0, "no retransmission");
            NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                      Time(0),
                                      NanoSeconds(1),
                                      "extra time = 0 (tolerance 1 ns)");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.timeouts, 1, "one timer expiry");
        NS_TEST_ASSERT_MSG_EQ(m_record.retransmissions, 1, "the last frame again");
        NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                  m_timing.retransmit,
                                  2 * m_timing.dataSlot,
                                  "extra time = R (tolerance two data-frame slots, "
                                      << (2 * m_timing.dataSlot).As(Time::NS) << ")");
    }

    bool m_last; //!< lose the last ACK
};

/**
 * \ingroup drp-tests
 * The release request is lost: the release timer (started when the REL
 * left) sends it again R later,
 * and the second one runs exactly as the first would have.
 */
class DrpReleaseLostTestCase : public DrpHandshakeTestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpReleaseLostTestCase(const std::string& method)
        : DrpHandshakeTestCase("REL lost", method)
    {
    }

  private:
    void DoRun() override
    {
        uint32_t frames = TRANSFER_SIZE / 1024;
        HandshakeRunSpec spec = Spec();
        spec.responderLosses = {1 + frames}; // REQ, the data frames, then REL
        if (RunCase(spec, 1))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
        NS_TEST_ASSERT_MSG_EQ(m_record.timeouts, 1, "one release timer expiry");
        NS_TEST_ASSERT_MSG_EQ(m_record.retransmissions, 0, "no data retransmission");
        NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                  m_timing.retransmit + m_timing.tx,
                                  NanoSeconds(1),
                                  "extra time = R + the REL's transmit processing (the timer "
                                  "starts when the first REL leaves; tolerance 1 ns)");
    }
};

/**
 * \ingroup drp-tests
 * Read: the initiator's confirmation is lost. The responder's handshake
 * timer (armed when its valid reply left) fires first and re-sends the
 * reply; the initiator, already connected, confirms again at once, without
 * the interrupt, host handler and doorbell the first confirmation needed.
 * One expiry is not enough for the dynamic responder to go indirect.
 */
class DrpConfirmationLostTestCase : public DrpHandshakeTestCase
{
  public:
    /// \param method traditional or dynamic
    explicit DrpConfirmationLostTestCase(const std::string& method)
        : DrpHandshakeTestCase("confirmation lost", method, true)
    {
    }

  private:
    void DoRun() override
    {
        HandshakeRunSpec spec = Spec();
        spec.responderLosses = {1}; // after the REQ: the confirmation
        if (RunCase(spec, 1))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(m_record.GetModeName(), "direct", "mode");
        NS_TEST_ASSERT_MSG_EQ(m_record.requests, 1, "requests");
        NS_TEST_ASSERT_MSG_EQ(m_run.registrationsOk, 1, "the responder host registered once");
        Time expected =
            m_timing.handshake + m_timing.tx - (m_timing.pcie + m_timing.handler + m_timing.pcie);
        NS_TEST_ASSERT_MSG_EQ_TOL(Extra(),
                                  expected,
                                  NanoSeconds(1),
                                  "extra time = H + tx processing - (L + HandlerLatency + L), "
                                  "i.e. about H (the timer starts when the reply leaves; "
                                  "tolerance 1 ns)");
    }
};

/**
 * \ingroup drp-tests
 * Deterministic DRP protocol cases on one point-to-point link.
 */
class DrpHandshakeTestSuite : public TestSuite
{
  public:
    DrpHandshakeTestSuite()
        : TestSuite("drp-handshake", DRP_TEST_SYSTEM)
    {
        for (const std::string method : {"traditional", "dynamic"})
        {
            AddTestCase(new DrpRequestLostTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpValidReplyLostTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpRegistrationFailsOnceTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpInvalidReplyLostTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpMiddleDataLostTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpLastDataLostTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpAckLostTestCase(method, false), DRP_TEST_QUICK);
            AddTestCase(new DrpAckLostTestCase(method, true), DRP_TEST_QUICK);
            AddTestCase(new DrpReleaseLostTestCase(method), DRP_TEST_QUICK);
            AddTestCase(new DrpConfirmationLostTestCase(method), DRP_TEST_QUICK);
        }
        AddTestCase(new DrpTwoRequestsLostTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpHandshakeTestSuite g_drpHandshakeTestSuite;
