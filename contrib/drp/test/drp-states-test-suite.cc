/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The connections' traced states: one transfer on one point-to-point link,
// and the transitions the transport's InitiatorState, ResponderState and
// ResponderRegistration trace sources report, in order.

#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-transport.h"
#include "ns3/error-model.h"
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

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Bytes of the one transfer: 4 frames of the default 1024-byte payload.
const uint32_t TRANSFER_SIZE = 4096;

/// One run's setup.
struct StatesRunSpec
{
    std::string method{"traditional"};     //!< traditional or dynamic
    bool read{false};                      //!< read (true) or write
    bool responderHost{true};              //!< false: nobody answers registration requests
    std::vector<double> registrationDraws; //!< empty: registration always succeeds
};

/// What one run's traces reported, each transition as "OLD>NEW".
struct StatesRunResult
{
    std::vector<std::string> initiator;     //!< InitiatorState
    std::vector<std::string> responder;     //!< ResponderState
    std::vector<std::string> registration;  //!< ResponderRegistration
    std::vector<DrpTransferRecord> records; //!< the initiator's ended transfers
    Time end;                               //!< when the simulator ran out of events
};

/**
 * Runs one transfer of TRANSFER_SIZE bytes initiated by node 0, then destroys
 * the simulator.
 * \param spec the run
 * \return the transitions seen
 */
StatesRunResult
RunStates(const StatesRunSpec& spec)
{
    NodeContainer nodes;
    nodes.Create(2);
    RnicHelper rnicHelper;
    rnicHelper.SetMethod(spec.method);
    rnicHelper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    NetDeviceContainer devices = rnicHelper.Install(nodes.Get(0), nodes.Get(1));
    Ptr<RnicNetDevice> initiator = DynamicCast<RnicNetDevice>(devices.Get(0));
    Ptr<RnicNetDevice> responder = DynamicCast<RnicNetDevice>(devices.Get(1));

    RdmaHostHelper hostHelper;
    hostHelper.SetAttribute("Transfers", UintegerValue(1));
    hostHelper.SetAttribute("TransferSize", UintegerValue(TRANSFER_SIZE));
    hostHelper.SetAttribute("Operation", StringValue(spec.read ? "read" : "write"));
    Ptr<RdmaHostApplication> initiatorApp =
        DynamicCast<RdmaHostApplication>(hostHelper.Install(nodes.Get(0)).Get(0));
    RdmaHostHelper::SetWorkload(initiatorApp, responder);
    initiatorApp->SetStartTime(Seconds(0));
    if (spec.responderHost)
    {
        hostHelper.SetAttribute("Transfers", UintegerValue(0));
        Ptr<RdmaHostApplication> responderApp =
            DynamicCast<RdmaHostApplication>(hostHelper.Install(nodes.Get(1)).Get(0));
        if (!spec.registrationDraws.empty())
        {
            // A draw below FRP fails: with FRP 0.5, 0.0 fails and 1.0 succeeds.
            std::vector<double> draws = spec.registrationDraws;
            Ptr<DeterministicRandomVariable> rv = CreateObject<DeterministicRandomVariable>();
            rv->SetValueArray(draws.data(), draws.size());
            responderApp->SetAttribute("RegistrationRandomVariable", PointerValue(rv));
            responderApp->SetAttribute("RegistrationFailureProbability", DoubleValue(0.5));
        }
        responderApp->SetStartTime(Seconds(0));
    }

    StatesRunResult result;
    initiator->GetTransport()->TraceConnectWithoutContext(
        "InitiatorState",
        drp::
            FunctorCallback<void, uint16_t, InitiatorConnection::State, InitiatorConnection::State>(
                [&result](uint16_t,
                          InitiatorConnection::State from,
                          InitiatorConnection::State to) {
                    result.initiator.push_back(InitiatorConnection::GetStateName(from) + ">" +
                                               InitiatorConnection::GetStateName(to));
                }));
    responder->GetTransport()->TraceConnectWithoutContext(
        "ResponderState",
        drp::FunctorCallback<void,
                             Mac48Address,
                             uint16_t,
                             ResponderConnection::State,
                             ResponderConnection::State>([&result](Mac48Address,
                                                                   uint16_t,
                                                                   ResponderConnection::State from,
                                                                   ResponderConnection::State to) {
            result.responder.push_back(ResponderConnection::GetStateName(from) + ">" +
                                       ResponderConnection::GetStateName(to));
        }));
    responder->GetTransport()->TraceConnectWithoutContext(
        "ResponderRegistration",
        drp::FunctorCallback<void,
                             Mac48Address,
                             uint16_t,
                             ResponderConnection::Registration,
                             ResponderConnection::Registration>(
            [&result](Mac48Address,
                      uint16_t,
                      ResponderConnection::Registration from,
                      ResponderConnection::Registration to) {
                result.registration.push_back(ResponderConnection::GetRegistrationName(from) + ">" +
                                              ResponderConnection::GetRegistrationName(to));
            }));

    Simulator::Run();
    result.end = Simulator::Now();
    result.records = initiatorApp->GetRecords();
    Simulator::Destroy();
    return result;
}

/**
 * \param transitions transitions seen
 * \return them joined by spaces (readable in a failure message)
 */
std::string
Join(const std::vector<std::string>& transitions)
{
    std::string joined;
    for (const std::string& t : transitions)
    {
        joined += (joined.empty() ? "" : " ") + t;
    }
    return joined;
}

} // namespace

/**
 * \ingroup drp-tests
 * One transfer and the transitions each traced state passes through.
 */
class DrpStatesTestCase : public TestCase
{
  public:
    /**
     * \param name the case
     * \param spec its run
     * \param initiator the initiator's transitions expected
     * \param responder the responder's transitions expected
     * \param registration the registration's transitions expected
     * \param status the transfer's status expected
     */
    DrpStatesTestCase(const std::string& name,
                      const StatesRunSpec& spec,
                      const std::string& initiator,
                      const std::string& responder,
                      const std::string& registration,
                      const std::string& status)
        : TestCase(name),
          m_spec(spec),
          m_initiator(initiator),
          m_responder(responder),
          m_registration(registration),
          m_status(status)
    {
    }

  private:
    void DoRun() override
    {
        StatesRunResult run = RunStates(m_spec);
        NS_TEST_ASSERT_MSG_EQ(run.records.size(), 1, "one transfer ended");
        if (run.records.size() == 1)
        {
            NS_TEST_EXPECT_MSG_EQ(run.records[0].GetStatusName(), m_status, "status");
            if (run.records[0].status == DrpTransferRecord::SUCCESS)
            {
                // Nothing is left to check once the transfer is released: no
                // timer, cancelled or not, keeps the simulator running.
                NS_TEST_EXPECT_MSG_EQ(run.end,
                                      run.records[0].end,
                                      "the simulation ends when the transfer does");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(Join(run.initiator), m_initiator, "initiator's states");
        NS_TEST_EXPECT_MSG_EQ(Join(run.responder), m_responder, "responder's states");
        NS_TEST_EXPECT_MSG_EQ(Join(run.registration), m_registration, "registration's states");
    }

    StatesRunSpec m_spec;       //!< the run
    std::string m_initiator;    //!< expected initiator transitions
    std::string m_responder;    //!< expected responder transitions
    std::string m_registration; //!< expected registration transitions
    std::string m_status;       //!< expected status
};

/**
 * \ingroup drp-tests
 * The connections' traced states.
 */
class DrpStatesTestSuite : public TestSuite
{
  public:
    DrpStatesTestSuite()
        : TestSuite("drp-states", DRP_TEST_UNIT)
    {
        // Released, and kept (to answer a repeated REL) until it is looked up
        // or its room is needed after the idle time (drp-transfer tests that).
        const std::string responderReleased = "CLOSED>OPEN OPEN>RELEASED";
        const std::string registered = "NONE>PENDING PENDING>VALID";
        for (const std::string method : {"traditional", "dynamic"})
        {
            StatesRunSpec write;
            write.method = method;
            AddTestCase(new DrpStatesTestCase(
                            "write, nothing lost (" + method + ")",
                            write,
                            "CLOSED>REQUESTING REQUESTING>SENDING SENDING>RELEASING RELEASING>DONE",
                            responderReleased,
                            registered,
                            "success"),
                        DRP_TEST_QUICK);

            StatesRunSpec read = write;
            read.read = true;
            AddTestCase(new DrpStatesTestCase("read, nothing lost (" + method + ")",
                                              read,
                                              "CLOSED>REQUESTING REQUESTING>RECEIVING "
                                              "RECEIVING>RELEASING RELEASING>DONE",
                                              responderReleased,
                                              registered,
                                              "success"),
                        DRP_TEST_QUICK);
        }

        // An invalid reply keeps the traditional initiator REQUESTING; the
        // next request registers again.
        StatesRunSpec failsOnce;
        failsOnce.registrationDraws = {0.0, 1.0};
        AddTestCase(new DrpStatesTestCase(
                        "write, registration fails once (traditional)",
                        failsOnce,
                        "CLOSED>REQUESTING REQUESTING>SENDING SENDING>RELEASING RELEASING>DONE",
                        responderReleased,
                        "NONE>PENDING PENDING>INVALID INVALID>PENDING PENDING>VALID",
                        "success"),
                    DRP_TEST_QUICK);

        // Nobody registers: the initiator gives up after its handshake retry
        // limit, the responder when its idle time has passed.
        StatesRunSpec noHost;
        noHost.responderHost = false;
        AddTestCase(new DrpStatesTestCase("write, no responder host (traditional)",
                                          noHost,
                                          "CLOSED>REQUESTING REQUESTING>FAILED",
                                          "CLOSED>OPEN OPEN>ABANDONED",
                                          "NONE>PENDING",
                                          "handshake-failed"),
                    DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpStatesTestSuite g_drpStatesTestSuite;
