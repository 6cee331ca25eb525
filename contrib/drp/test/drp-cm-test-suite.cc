/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The connection manager: rdma_cm's calls and events, its messages on the
// wire as RoCEv2 CM MADs, their loss and retries, rejection and
// disconnection, and queue pairs connected by it moving data.

#include "drp-test-bed.h"

#include "ns3/config.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-verbs-provider.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/host-memory.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-cm-mad-header.h"
#include "ns3/ib-deth-header.h"
#include "ns3/leaf-spine-fabric-helper.h"
#include "ns3/packet.h"
#include "ns3/rdma-cm-id.h"
#include "ns3/rdma-connection-manager.h"
#include "ns3/rdma-context.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-v2-frame.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cerrno>
#include <list>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The server's port.
constexpr uint16_t PORT = 7471;
/// Where each host's buffer lies.
constexpr uint64_t BUFFER = 0x10000000;
/// Its bytes.
constexpr uint32_t LENGTH = 65536;

/// One event as a side saw it.
struct Seen
{
    Time at;                          //!< when
    RdmaCmEventType event;            //!< what
    int status;                       //!< its status
    std::vector<uint8_t> privateData; //!< the peer's bytes
};

/**
 * \ingroup drp-tests
 * A client (host 0) and a server (host 1) with RNICs on one link, each
 * with a context, a domain, a completion queue and a registered buffer;
 * the server listens on PORT and accepts (or rejects) what arrives, and
 * the client connects to it.
 */
struct CmBed
{
    /**
     * \param method the RNICs' method
     * \param serverLosses frames the server's RNIC loses, 0-based in arrival order
     * \param clientLosses frames the client's RNIC loses
     */
    CmBed(const std::string& method,
          const std::list<uint32_t>& serverLosses = {},
          const std::list<uint32_t>& clientLosses = {},
          bool leafSpine = false)
    {
        RnicHelper rnic;
        rnic.SetMethod(method);
        NetDeviceContainer devices;
        if (leafSpine)
        {
            // Two leaves of two hosts, two spines: host 0 and host 3 are on different leaves.
            EthernetHelper uplinks;
            fabric = std::make_unique<LeafSpineFabricHelper>(2, 2, 2, rnic, uplinks);
            devices.Add(fabric->GetRnic(0));
            devices.Add(fabric->GetRnic(3));
        }
        else
        {
            nodes.Create(2);
            devices = rnic.Install(nodes.Get(0), nodes.Get(1));
        }
        for (uint32_t i = 0; i < 2; ++i)
        {
            device[i] = DynamicCast<RnicNetDevice>(devices.Get(i));
            context[i] = CreateObject<RdmaContext>();
            context[i]->Open(device[i]);
            pd[i] = context[i]->AllocPd();
            int error = -1;
            cq[i] = context[i]->CreateCq(64, error);
            using namespace RdmaAccess;
            context[i]->RegMr(pd[i],
                              BUFFER,
                              LENGTH,
                              LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ,
                              drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                                  [this, i](Ptr<RdmaMemoryRegion> got, int) { mr[i] = got; }));
        }
        device[0]->GetHostMemory()->Fill(BUFFER, LENGTH, 42);
        Simulator::Run();
        Lose(1, serverLosses);
        Lose(0, clientLosses);
        server = RdmaCmId::Create(context[1], Handler(1));
        client = RdmaCmId::Create(context[0], Handler(0));
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

    /// \param i a host \return the callback that logs its events and answers them
    RdmaCmId::EventCallback Handler(uint32_t i)
    {
        return drp::FunctorCallback<void, Ptr<RdmaCmId>, RdmaCmEvent>(
            [this, i](Ptr<RdmaCmId> id, RdmaCmEvent e) { OnEvent(i, id, e); });
    }

    /// \return a queue-pair creation of a few requests on host i's queue
    RdmaQpInitAttr QpInit(uint32_t i) const
    {
        RdmaQpInitAttr init;
        init.sendCq = init.recvCq = cq[i];
        init.cap.maxSendWr = 8;
        init.cap.maxRecvWr = 8;
        init.sqSigAll = true;
        return init;
    }

    /**
     * What each side's application does with an event: the client connects
     * once the route is resolved; the server makes a queue pair and accepts
     * (or rejects) a request.
     * \param i the host
     * \param id the id
     * \param e the event
     */
    void OnEvent(uint32_t i, Ptr<RdmaCmId> id, RdmaCmEvent e)
    {
        seen[i].push_back({Simulator::Now(), e.event, e.status, e.param.privateData});
        int error = 0;
        switch (e.event)
        {
        case RdmaCmEventType::ADDR_RESOLVED:
            NS_ABORT_UNLESS(id->ResolveRoute(MilliSeconds(100)) == 0);
            break;
        case RdmaCmEventType::ROUTE_RESOLVED:
            qp[0] = id->CreateQp(pd[0], QpInit(0), error);
            NS_ABORT_UNLESS(error == 0);
            NS_ABORT_UNLESS(id->Connect(connect) == 0);
            break;
        case RdmaCmEventType::CONNECT_REQUEST:
            accepted = id;
            if (reject)
            {
                NS_ABORT_UNLESS(id->Reject({'n', 'o'}) == 0);
                break;
            }
            qp[1] = id->CreateQp(pd[1], QpInit(1), error);
            NS_ABORT_UNLESS(error == 0);
            NS_ABORT_UNLESS(id->Accept(accept) == 0);
            break;
        default:
            break;
        }
    }

    /// The server listens; the client resolves the server's RoCE address.
    void Start(uint16_t port = PORT)
    {
        NS_ABORT_UNLESS(server->BindAddr(PORT) == 0);
        NS_ABORT_UNLESS(server->Listen(4) == 0);
        NS_ABORT_UNLESS(client->ResolveAddr(device[1]->GetRoceAddress(), port, Seconds(1)) == 0);
    }

    /// \param i a host \return the events it saw, in order
    std::vector<RdmaCmEventType> Events(uint32_t i) const
    {
        std::vector<RdmaCmEventType> events;
        for (const Seen& s : seen[i])
        {
            events.push_back(s.event);
        }
        return events;
    }

    /// \param i a host \param event an event \return when it saw it last (-1 s: never)
    Time When(uint32_t i, RdmaCmEventType event) const
    {
        Time at = Seconds(-1);
        for (const Seen& s : seen[i])
        {
            at = s.event == event ? s.at : at;
        }
        return at;
    }

    NodeContainer nodes;                           //!< client, server (on one link)
    std::unique_ptr<LeafSpineFabricHelper> fabric; //!< or on a leaf-spine
    Ptr<RnicNetDevice> device[2];                  //!< their RNICs
    Ptr<RdmaContext> context[2];                   //!< their contexts
    Ptr<RdmaProtectionDomain> pd[2];               //!< their domains
    Ptr<RdmaCompletionQueue> cq[2];                //!< their completion queues
    Ptr<RdmaMemoryRegion> mr[2];                   //!< their buffers
    Ptr<RdmaQueuePair> qp[2];                      //!< the connected queue pairs
    Ptr<RdmaCmId> client;                          //!< the client's id
    Ptr<RdmaCmId> server;                          //!< the listener
    Ptr<RdmaCmId> accepted;                        //!< the server's id of the connection
    RdmaConnParam connect;                         //!< the client's parameters
    RdmaConnParam accept;                          //!< the server's
    bool reject{false};                            //!< the server rejects
    std::vector<Seen> seen[2];                     //!< each side's events
};

/// Sets the connection manager's timers short, for tests that lose messages.
void
ShortCmTimers(uint8_t retries = 15)
{
    Config::SetDefault("ns3::RdmaConnectionManager::CmResponseTimeout", UintegerValue(10));
    Config::SetDefault("ns3::RdmaConnectionManager::MaxCmRetries", UintegerValue(retries));
}

/// 4.096 us x 2^10.
const Time SHORT_TIMEOUT = NanoSeconds(4096 * 1024);

/**
 * \ingroup drp-tests
 * Connect, move data over the connected queue pairs, disconnect, on both
 * methods on one link and across a leaf-spine's spine: the events in rdma_cm's order at both sides,
 * the private data both ways, the queue pairs connected to each other (numbers, PSNs, limits) and
 * in ERR after the disconnection.
 */
class DrpCmConnectTestCase : public TestCase
{
  public:
    DrpCmConnectTestCase()
        : TestCase("connect, write over the connection, disconnect; on a link and a leaf-spine")
    {
    }

  private:
    void DoRun() override
    {
        using E = RdmaCmEventType;
        for (const std::string where :
             {"traditional", "dynamic", "roce", "dynamic, leaf-spine", "roce, leaf-spine"})
        {
            const bool leafSpine = where.find("leaf-spine") != std::string::npos;
            const std::string method = where.substr(0, where.find(','));
            CmBed bed(method, {}, {}, leafSpine);
            bed.connect.privateData = {'h', 'e', 'l', 'l', 'o'};
            bed.connect.initiatorDepth = 2;
            bed.connect.responderResources = 3;
            bed.accept.privateData = {'w', 'e', 'l', 'c', 'o', 'm', 'e'};
            bed.accept.responderResources = 2;
            bed.accept.initiatorDepth = 1;
            bed.accept.rnrRetryCount = 5;
            bed.connect.rnrRetryCount = 6;
            const Time start = Simulator::Now();
            bed.Start();
            Simulator::Run();
            const std::vector<E> client = {E::ADDR_RESOLVED, E::ROUTE_RESOLVED, E::ESTABLISHED};
            const std::vector<E> server = {E::CONNECT_REQUEST, E::ESTABLISHED};
            NS_TEST_ASSERT_MSG_EQ((bed.Events(0) == client), true, method << ": client's events");
            NS_TEST_ASSERT_MSG_EQ((bed.Events(1) == server), true, method << ": server's events");
            std::vector<uint8_t> req = bed.seen[1][0].privateData;
            NS_TEST_EXPECT_MSG_EQ(req.size(),
                                  56u,
                                  method << ": the REQ's room after librdmacm's header");
            req.resize(bed.connect.privateData.size());
            NS_TEST_EXPECT_MSG_EQ((req == bed.connect.privateData),
                                  true,
                                  method << ": the REQ's private data, past librdmacm's header");
            std::vector<uint8_t> rep = bed.seen[0][2].privateData;
            rep.resize(bed.accept.privateData.size());
            NS_TEST_EXPECT_MSG_EQ((rep == bed.accept.privateData),
                                  true,
                                  method << ": the REP's private data");
            NS_TEST_EXPECT_MSG_EQ(bed.seen[0][0].at, start, method << ": resolved at once");
            NS_TEST_EXPECT_MSG_GT(bed.When(0, E::ESTABLISHED),
                                  start + MicroSeconds(40),
                                  method << ": REQ and REP crossed the link and both hosts");
            NS_TEST_EXPECT_MSG_GT(bed.When(1, E::ESTABLISHED),
                                  bed.When(0, E::ESTABLISHED),
                                  method << ": the RTU after");

            RdmaQpAttr a[2];
            RdmaQpInitAttr init;
            for (uint32_t i = 0; i < 2; ++i)
            {
                bed.qp[i]->QueryQp(a[i], init);
                NS_TEST_EXPECT_MSG_EQ(bed.qp[i]->GetState(), RdmaQpState::RTS, method << ": RTS");
            }
            NS_TEST_EXPECT_MSG_EQ(a[0].destQpNum,
                                  bed.qp[1]->GetQpNum(),
                                  method << ": to the server's");
            NS_TEST_EXPECT_MSG_EQ(a[1].destQpNum,
                                  bed.qp[0]->GetQpNum(),
                                  method << ": to the client's");
            NS_TEST_EXPECT_MSG_EQ(a[0].rqPsn, a[1].sqPsn, method << ": the server's first PSN");
            NS_TEST_EXPECT_MSG_EQ(a[1].rqPsn, a[0].sqPsn, method << ": the client's first PSN");
            NS_TEST_EXPECT_MSG_EQ(unsigned(a[0].maxRdAtomic),
                                  2u,
                                  method << ": min(2, the REP's 2)");
            NS_TEST_EXPECT_MSG_EQ(unsigned(a[0].maxDestRdAtomic),
                                  1u,
                                  method << ": the server's depth");
            NS_TEST_EXPECT_MSG_EQ(unsigned(a[1].maxRdAtomic), 1u, method << ": its own depth");
            NS_TEST_EXPECT_MSG_EQ(unsigned(a[1].maxDestRdAtomic), 2u, method << ": its resources");
            NS_TEST_EXPECT_MSG_EQ(unsigned(a[0].rnrRetry),
                                  5u,
                                  method << ": the server's RNR retry");
            NS_TEST_EXPECT_MSG_EQ(unsigned(a[1].rnrRetry),
                                  6u,
                                  method << ": the client's RNR retry");
            NS_TEST_EXPECT_MSG_EQ(a[0].pathMtu, 1024u, method << ": 1500-byte port: 1024");
            NS_TEST_EXPECT_MSG_EQ(
                a[0].peer,
                DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(bed.device[1]->GetAddress())),
                method << ": the server's RNIC");
            NS_TEST_EXPECT_MSG_EQ(bed.client->GetRemotePort(), PORT, method << ": its port");
            NS_TEST_EXPECT_MSG_EQ(bed.accepted->GetRemotePort(),
                                  bed.client->GetLocalPort(),
                                  method << ": the client's port, from librdmacm's header");
            NS_TEST_EXPECT_MSG_EQ(bed.client->GetLocalPort(), 49152u, method << ": ephemeral");

            RdmaSendWr write;
            write.wrId = 1;
            write.opcode = RdmaWrOpcode::RDMA_WRITE;
            write.sgList.push_back({BUFFER, 20000, bed.mr[0]->GetLkey()});
            write.remoteAddr = BUFFER;
            write.rkey = bed.mr[1]->GetRkey();
            NS_TEST_ASSERT_MSG_EQ(bed.qp[0]->PostSend({write}), 0, method << ": posted");
            Simulator::Run();
            std::vector<RdmaWc> wcs = bed.cq[0]->Poll(4);
            NS_TEST_ASSERT_MSG_EQ(wcs.size(), 1u, method << ": the WRITE completes");
            NS_TEST_EXPECT_MSG_EQ(wcs[0].status, RdmaWcStatus::SUCCESS, method << ": success");
            NS_TEST_EXPECT_MSG_EQ(
                bed.device[0]->GetHostMemory()->CountDifferences(BUFFER,
                                                                 bed.device[1]->GetHostMemory(),
                                                                 BUFFER,
                                                                 20000),
                0u,
                method << ": byte for byte");

            NS_TEST_EXPECT_MSG_EQ(bed.client->Disconnect(), 0, method << ": disconnect");
            NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetState(),
                                  RdmaQpState::ERR,
                                  method << ": at once ERR");
            NS_TEST_EXPECT_MSG_EQ(bed.client->Disconnect(), EINVAL, method << ": not twice");
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(bed.When(0, E::DISCONNECTED).IsPositive(),
                                  true,
                                  method << ": client");
            NS_TEST_EXPECT_MSG_EQ(bed.When(1, E::DISCONNECTED).IsPositive(),
                                  true,
                                  method << ": server");
            NS_TEST_EXPECT_MSG_EQ(bed.qp[1]->GetState(),
                                  RdmaQpState::ERR,
                                  method << ": server ERR");
            Ptr<RdmaConnectionManager> cm[2] = {bed.device[0]->GetObject<RdmaConnectionManager>(),
                                                bed.device[1]->GetObject<RdmaConnectionManager>()};
            NS_TEST_EXPECT_MSG_EQ(cm[0]->GetDropped() + cm[1]->GetDropped(),
                                  0u,
                                  method << ": none dropped");
            NS_TEST_EXPECT_MSG_EQ(bed.client->GetRetransmissions(), 0u, method << ": no retries");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup drp-tests
 * Lost messages cost exactly one response timeout each: a lost REQ delays
 * both ESTABLISHED events by it, a lost RTU the server's (its REP is sent
 * again, and the client answers the repeat with the RTU again), a lost
 * DREP the client's DISCONNECTED (its DREQ again, answered again).
 */
class DrpCmLossTestCase : public TestCase
{
  public:
    DrpCmLossTestCase()
        : TestCase("a lost REQ, RTU or DREP costs one response timeout")
    {
    }

  private:
    /**
     * Connects and disconnects.
     * \param serverLosses the server RNIC's lost frames
     * \param clientLosses the client RNIC's
     * \param [out] established the ESTABLISHED times, client and server
     * \param [out] disconnected the client's DISCONNECTED, relative to its Disconnect
     * \param [out] retries messages sent again, client and server
     */
    void Run(const std::list<uint32_t>& serverLosses,
             const std::list<uint32_t>& clientLosses,
             Time established[2],
             Time& disconnected,
             uint32_t retries[2])
    {
        ShortCmTimers();
        CmBed bed("dynamic", serverLosses, clientLosses);
        const Time start = Simulator::Now();
        bed.Start();
        Simulator::Run();
        established[0] = bed.When(0, RdmaCmEventType::ESTABLISHED) - start;
        established[1] = bed.When(1, RdmaCmEventType::ESTABLISHED) - start;
        const Time stop = Simulator::Now();
        NS_ABORT_UNLESS(bed.client->Disconnect() == 0);
        Simulator::Run();
        disconnected = bed.When(0, RdmaCmEventType::DISCONNECTED) - stop;
        retries[0] = bed.client->GetRetransmissions();
        retries[1] = bed.accepted->GetRetransmissions();
        Simulator::Destroy();
        Config::Reset();
    }

    void DoRun() override
    {
        Time base[2];
        Time baseDown;
        uint32_t retries[2];
        Run({}, {}, base, baseDown, retries);
        NS_TEST_ASSERT_MSG_EQ(base[0].IsPositive() && base[1].IsPositive(), true, "connected");

        // The server's RNIC sees REQ (0), RTU (1), DREQ (2); the client's REP (0), DREP (1).
        Time t[2];
        Time down;
        Run({0}, {}, t, down, retries);
        NS_TEST_EXPECT_MSG_EQ(t[0],
                              base[0] + SHORT_TIMEOUT,
                              "lost REQ: the client one timeout later");
        NS_TEST_EXPECT_MSG_EQ(t[1], base[1] + SHORT_TIMEOUT, "and the server");
        NS_TEST_EXPECT_MSG_EQ(retries[0], 1u, "the REQ once again");

        Run({1}, {}, t, down, retries);
        NS_TEST_EXPECT_MSG_EQ(t[0], base[0], "lost RTU: the client is connected as before");
        NS_TEST_EXPECT_MSG_EQ(t[1], base[1] + SHORT_TIMEOUT, "the server one timeout later");
        NS_TEST_EXPECT_MSG_EQ(retries[1], 1u, "the REP once again");

        Run({}, {1}, t, down, retries);
        NS_TEST_EXPECT_MSG_EQ(down, baseDown + SHORT_TIMEOUT, "lost DREP: one timeout later");
        NS_TEST_EXPECT_MSG_EQ(retries[0], 1u, "the DREQ once again");
    }
};

/**
 * \ingroup drp-tests
 * The ends of a connection that is not made: no reply within the retries
 * (UNREACHABLE, -ETIMEDOUT, after exactly 1 + MaxCmRetries timeouts), the
 * server's rejection (REJECTED, reason 28, its private data), and a port
 * nobody listens on (REJECTED, reason 8); bad calls return EINVAL.
 */
class DrpCmRefusalTestCase : public TestCase
{
  public:
    DrpCmRefusalTestCase()
        : TestCase("unreachable, rejected, no listener; bad calls")
    {
    }

  private:
    void DoRun() override
    {
        using E = RdmaCmEventType;
        {
            ShortCmTimers(2);
            CmBed bed("traditional", {0, 1, 2});
            const Time start = Simulator::Now();
            bed.Start();
            Simulator::Run();
            const std::vector<E> client = {E::ADDR_RESOLVED, E::ROUTE_RESOLVED, E::UNREACHABLE};
            NS_TEST_ASSERT_MSG_EQ((bed.Events(0) == client), true, "unreachable");
            NS_TEST_EXPECT_MSG_EQ(bed.seen[0][2].status, -ETIMEDOUT, "-ETIMEDOUT");
            NS_TEST_EXPECT_MSG_EQ(bed.seen[0][2].at - start,
                                  3 * SHORT_TIMEOUT,
                                  "after three timeouts");
            NS_TEST_EXPECT_MSG_EQ(bed.client->GetRetransmissions(), 2u, "MaxCmRetries = 2");
            NS_TEST_EXPECT_MSG_EQ(bed.Events(1).size(), 0u, "the server saw nothing");
            NS_TEST_EXPECT_MSG_EQ(bed.qp[0]->GetState(), RdmaQpState::INIT, "the QP as it was");
            Simulator::Destroy();
            Config::Reset();
        }
        {
            CmBed bed("dynamic");
            bed.reject = true;
            bed.Start();
            Simulator::Run();
            const std::vector<E> client = {E::ADDR_RESOLVED, E::ROUTE_RESOLVED, E::REJECTED};
            NS_TEST_ASSERT_MSG_EQ((bed.Events(0) == client), true, "rejected");
            NS_TEST_EXPECT_MSG_EQ(bed.seen[0][2].status, 28, "consumer reject");
            std::vector<uint8_t> data = bed.seen[0][2].privateData;
            data.resize(2);
            NS_TEST_EXPECT_MSG_EQ((data == std::vector<uint8_t>{'n', 'o'}),
                                  true,
                                  "its private data");
            NS_TEST_EXPECT_MSG_EQ(bed.accepted->Accept(RdmaConnParam()), EINVAL, "no accept after");
            Simulator::Destroy();
        }
        {
            CmBed bed("dynamic");
            bed.Start(PORT + 1);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(bed.Events(0).size(), 3u, "three events");
            NS_TEST_EXPECT_MSG_EQ(bed.seen[0][2].event, E::REJECTED, "rejected");
            NS_TEST_EXPECT_MSG_EQ(bed.seen[0][2].status, 8, "invalid service ID");
            NS_TEST_EXPECT_MSG_EQ(bed.Events(1).size(), 0u, "the listener saw nothing");

            Ptr<RdmaCmId> id = RdmaCmId::Create(bed.context[0], RdmaCmId::EventCallback());
            NS_TEST_EXPECT_MSG_EQ(id->Listen(1), EINVAL, "listen before bind");
            NS_TEST_EXPECT_MSG_EQ(id->Connect(RdmaConnParam()), EINVAL, "connect before route");
            NS_TEST_EXPECT_MSG_EQ(id->Disconnect(), EINVAL, "disconnect unconnected");
            NS_TEST_EXPECT_MSG_EQ(id->BindAddr(PORT), 0, "bind a port");
            Ptr<RdmaCmId> other = RdmaCmId::Create(bed.context[0], RdmaCmId::EventCallback());
            NS_TEST_EXPECT_MSG_EQ(other->BindAddr(PORT), EADDRINUSE, "the same port");
            NS_TEST_EXPECT_MSG_EQ(other->ResolveAddr(Address(), 1, Seconds(1)),
                                  EINVAL,
                                  "no address");
            RdmaCmEventType got = E::ESTABLISHED;
            Ptr<RdmaCmId> lost =
                RdmaCmId::Create(bed.context[0],
                                 drp::FunctorCallback<void, Ptr<RdmaCmId>, RdmaCmEvent>(
                                     [&got](Ptr<RdmaCmId>, RdmaCmEvent e) { got = e.event; }));
            NS_TEST_EXPECT_MSG_EQ(lost->ResolveAddr(Ipv4Address("192.0.2.1"), PORT, Seconds(1)),
                                  0,
                                  "resolve an address no RNIC has");
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(got, E::ADDR_ERROR, "ADDR_ERROR");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup drp-tests
 * The CM's frames on the wire: Ethernet, IPv4 to the server's RoCE address,
 * UDP to 4791, BTH (UD SEND_ONLY to queue pair 1), DETH (the GSI Q_Key),
 * a 256-byte MAD with the REQ's fields; the ICRC verified (a byte changed in
 * the payload: dropped and counted; an ECN mark, a masked field: still valid).
 */
class DrpCmWireTestCase : public TestCase
{
  public:
    DrpCmWireTestCase()
        : TestCase("CM MADs in RoCEv2 frames; the ICRC")
    {
    }

  private:
    void DoRun() override
    {
        CmBed bed("dynamic");
        std::vector<Ptr<Packet>> frames;
        bed.device[1]->TraceConnectWithoutContext(
            "MacRx",
            drp::FunctorCallback<void, Ptr<const Packet>>([&frames](Ptr<const Packet> p) {
                Ptr<Packet> frame = p->Copy();
                EthernetHeader ethernet;
                frame->RemoveHeader(ethernet);
                EthernetTrailer fcs;
                frame->RemoveTrailer(fcs);
                if (ethernet.GetLengthType() == RnicNetDevice::IPV4_ETHER_TYPE)
                {
                    frames.push_back(frame);
                }
            }));
        bed.connect.privateData = {1, 2, 3};
        bed.Start();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(frames.size(), 0u, "the server's RNIC received frames");
        Ptr<Packet> req = frames[0]->Copy();
        NS_TEST_EXPECT_MSG_EQ(req->GetSize(),
                              20u + 8 + 12 + 8 + 256 + 4,
                              "IPv4, UDP, BTH, DETH, MAD, ICRC");
        NS_TEST_ASSERT_MSG_EQ(RoceV2Frame::IsRoceV2(req), true, "UDP to 4791");
        Ipv4Header ip;
        NS_TEST_ASSERT_MSG_EQ(RoceV2Frame::Decapsulate(req, ip), true, "a valid ICRC");
        NS_TEST_EXPECT_MSG_EQ(ip.GetDestination(),
                              bed.device[1]->GetRoceAddress(),
                              "to the server");
        NS_TEST_EXPECT_MSG_EQ(ip.GetSource(), bed.device[0]->GetRoceAddress(), "from the client");
        IbBthHeader bth;
        IbDethHeader deth;
        IbCmMadHeader mad;
        req->RemoveHeader(bth);
        req->RemoveHeader(deth);
        req->RemoveHeader(mad);
        NS_TEST_EXPECT_MSG_EQ(unsigned(bth.GetOpcode()), 0x64u, "UD SEND_ONLY");
        NS_TEST_EXPECT_MSG_EQ(bth.GetDestQp(), 1u, "to queue pair 1");
        NS_TEST_EXPECT_MSG_EQ(deth.GetQkey(), 0x80010000u, "the GSI Q_Key");
        NS_TEST_EXPECT_MSG_EQ(mad.GetAttribute(), IbCmMadHeader::REQ, "a REQ");
        NS_TEST_EXPECT_MSG_EQ(mad.IsWellFormed(), true, "CM class, Send");
        NS_TEST_EXPECT_MSG_EQ(mad.GetFields().serviceId,
                              (RdmaCmId::PS_TCP_SERVICE | PORT),
                              "service");
        NS_TEST_EXPECT_MSG_EQ(mad.GetFields().localQpn, bed.qp[0]->GetQpNum(), "the client's QP");
        NS_TEST_EXPECT_MSG_EQ(mad.GetFields().remoteAddress,
                              bed.device[1]->GetRoceAddress(),
                              "GID");
        NS_TEST_EXPECT_MSG_EQ(unsigned(mad.GetFields().privateData[36 + 2]), 3u, "private data");
        NS_TEST_EXPECT_MSG_EQ(req->GetSize(), 0u, "nothing else");

        // A copy marked CE by a switch stays valid; one with a payload byte changed does not.
        Ptr<Packet> marked = frames[0]->Copy();
        Ipv4Header header;
        marked->RemoveHeader(header);
        header.SetEcn(Ipv4Header::ECN_CE);
        header.SetTtl(63);
        header.EnableChecksum();
        marked->AddHeader(header);
        NS_TEST_EXPECT_MSG_EQ(RoceV2Frame::Decapsulate(marked, ip), true, "ECN and TTL are masked");
        uint8_t bytes[400];
        const uint32_t size = frames[0]->CopyData(bytes, sizeof(bytes));
        bytes[100] ^= 0x01;
        Ptr<Packet> corrupt = Create<Packet>(bytes, size);
        NS_TEST_EXPECT_MSG_EQ(RoceV2Frame::Decapsulate(corrupt, ip), false, "a changed byte");
        NS_TEST_EXPECT_MSG_EQ(corrupt->GetSize(), size, "left as it was");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * The connection manager.
 */
class DrpCmTestSuite : public TestSuite
{
  public:
    DrpCmTestSuite()
        : TestSuite("drp-cm", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpCmConnectTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCmLossTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCmRefusalTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpCmWireTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's instance.
static DrpCmTestSuite g_drpCmTestSuite;

} // namespace
