/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A remote procedure call over verbs, connected by the connection manager
// as an rdma_cm program is: the server listens; the client resolves the
// server's address and route, creates its queue pair and connects; the
// server accepts. The client then SENDs --calls requests of --size bytes,
// one at a time, and the server answers each with a SEND of --reply bytes
// into a receive the client posted; the client disconnects. Printed: each
// connection-manager event with its time, the time to connect, and the
// calls' round-trip times.
//
//   ./rdma-cm-rpc --method=dynamic --calls=8 --size=64 --reply=4096 --pcap=rpc
//   tshark -r rpc-0-0.pcap -Y infiniband      (the CM's REQ, REP, RTU, DREQ, DREP)
//
// --dropAtServer and --dropAtClient lose chosen frames (ns-3's
// ReceiveListErrorModel), --lateReceive makes the server late with the
// second call's receive: over roce, go-back-N and RNR NAKs on the wire.

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <algorithm>
#include <iostream>
#include <list>
#include <numeric>

using namespace ns3;

namespace
{

constexpr uint16_t PORT = 18515;          //!< the server's port (perftest's)
constexpr uint64_t REQUESTS = 0x10000000; //!< requests: sent from, received into
constexpr uint64_t REPLIES = 0x10100000;  //!< replies: sent from, received into

/// One side: its RNIC, verbs resources and connection-manager id.
struct Side
{
    std::string name;             //!< "client" or "server"
    Ptr<RnicNetDevice> rnic;      //!< its RNIC
    Ptr<RdmaContext> context;     //!< the context opened on it
    Ptr<RdmaProtectionDomain> pd; //!< its domain
    Ptr<RdmaCompletionQueue> cq;  //!< sends and receives
    Ptr<RdmaMemoryRegion> mr;     //!< both buffers
    Ptr<RdmaCmId> id;             //!< the connection's id
    Ptr<RdmaQueuePair> qp;        //!< the connected queue pair
};

/// The program's state.
struct Rpc
{
    Side client;              //!< host 0
    Side server;              //!< host 1
    Ptr<RdmaCmId> listener;   //!< the server's listening id
    uint32_t calls{8};        //!< calls to make
    uint32_t size{64};        //!< request bytes
    uint32_t reply{4096};     //!< reply bytes
    Time lateReceive;         //!< the server posts the second call's receive this late
    uint32_t made{0};         //!< calls answered
    Time started;             //!< when the client began to connect
    Time sent;                //!< when the call in flight was posted
    std::vector<double> rtts; //!< microseconds
    bool disconnected{false}; //!< the client saw DISCONNECTED

    /// \param side a side \param wrId id \param base the buffer \param bytes its length
    void PostRecv(Side& side, uint64_t wrId, uint64_t base, uint32_t bytes)
    {
        RdmaRecvWr wr;
        wr.wrId = wrId;
        wr.sgList.push_back({base, bytes, side.mr->GetLkey()});
        NS_ABORT_MSG_IF(side.qp->PostRecv({wr}) != 0, side.name << ": PostRecv refused");
    }

    /// \param side a side \param wrId id \param base the buffer \param bytes its length
    void PostSend(Side& side, uint64_t wrId, uint64_t base, uint32_t bytes)
    {
        RdmaSendWr wr;
        wr.wrId = wrId;
        wr.opcode = RdmaWrOpcode::SEND;
        wr.sgList.push_back({base, bytes, side.mr->GetLkey()});
        NS_ABORT_MSG_IF(side.qp->PostSend({wr}) != 0, side.name << ": PostSend refused");
    }

    /// The client calls: one request, whose reply it has a receive for.
    void Call()
    {
        PostRecv(client, made, REPLIES, reply);
        sent = Simulator::Now();
        PostSend(client, made, REQUESTS, size);
    }

    /// \param side the side whose queue has completions
    void OnCompletions(Side& side)
    {
        for (const RdmaWc& wc : side.cq->Poll(16))
        {
            if (wc.status == RdmaWcStatus::WR_FLUSH_ERR)
            {
                continue; // the receive posted ahead, flushed by the disconnection
            }
            NS_ABORT_MSG_IF(wc.status != RdmaWcStatus::SUCCESS,
                            side.name << ": " << wc.status << " for wr_id " << wc.wrId);
            if (wc.opcode != RdmaWcOpcode::RECV)
            {
                continue;
            }
            if (&side == &server)
            {
                // The receive for the next call; the second call's --lateReceive later.
                const uint64_t next = wc.wrId + 1;
                if (next == 1 && lateReceive.IsStrictlyPositive())
                {
                    Simulator::Schedule(lateReceive,
                                        [this, next]() { PostRecv(server, next, REQUESTS, size); });
                }
                else
                {
                    PostRecv(server, next, REQUESTS, size);
                }
                PostSend(server, wc.wrId, REPLIES, reply);
                continue;
            }
            rtts.push_back((Simulator::Now() - sent).GetDouble() / 1000.0);
            if (++made < calls)
            {
                Call();
            }
            else
            {
                NS_ABORT_UNLESS(client.id->Disconnect() == 0);
            }
        }
        side.cq->ReqNotify(false);
    }

    /// \param side the side \param id its id \param e an event
    void OnEvent(Side& side, Ptr<RdmaCmId> id, RdmaCmEvent e)
    {
        std::cout << Simulator::Now().As(Time::US) << "  " << side.name << "  " << e.event;
        if (e.status != 0)
        {
            std::cout << " (status " << e.status << ")";
        }
        std::cout << std::endl;
        RdmaQpInitAttr init;
        init.sendCq = init.recvCq = side.cq;
        init.cap.maxSendWr = init.cap.maxRecvWr = 4;
        int error = 0;
        switch (e.event)
        {
        case RdmaCmEventType::ADDR_RESOLVED:
            NS_ABORT_UNLESS(id->ResolveRoute(MilliSeconds(2000)) == 0);
            break;
        case RdmaCmEventType::ROUTE_RESOLVED:
            side.qp = id->CreateQp(side.pd, init, error);
            NS_ABORT_MSG_IF(!side.qp, "client: no queue pair (" << error << ")");
            NS_ABORT_UNLESS(id->Connect(RdmaConnParam()) == 0);
            break;
        case RdmaCmEventType::CONNECT_REQUEST:
            side.id = id;
            side.qp = id->CreateQp(side.pd, init, error);
            NS_ABORT_MSG_IF(!side.qp, "server: no queue pair (" << error << ")");
            PostRecv(side, 0, REQUESTS, size);
            NS_ABORT_UNLESS(id->Accept(RdmaConnParam()) == 0);
            break;
        case RdmaCmEventType::ESTABLISHED:
            if (&side == &client)
            {
                std::cout << "connected after " << (Simulator::Now() - started).As(Time::US)
                          << std::endl;
                Call();
            }
            break;
        case RdmaCmEventType::DISCONNECTED:
            disconnected = disconnected || &side == &client;
            break;
        default:
            NS_ABORT_MSG(side.name << ": the connection failed");
        }
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string method = "dynamic";
    std::string pcap;
    Rpc rpc;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    strict.AddValue(cmd, "method", "the RNICs' method: traditional, dynamic or roce", method);
    strict.AddValue(cmd, "calls", "calls the client makes, one at a time (1 to 10000)", rpc.calls);
    strict.AddValue(cmd, "size", "request bytes (1 to 1048576)", rpc.size);
    strict.AddValue(cmd, "reply", "reply bytes (1 to 1048576)", rpc.reply);
    strict.AddValue(cmd,
                    "lateReceive",
                    "the server posts the receive for the second call this long after the first "
                    "arrives (0 to 1 s; 0: at once)",
                    rpc.lateReceive);
    std::string dropAtServer;
    std::string dropAtClient;
    strict.AddValue(cmd,
                    "dropAtServer",
                    "frames the server's RNIC loses, 0-based in arrival order (e.g. 0 or 3,9)",
                    dropAtServer);
    strict.AddValue(cmd,
                    "dropAtClient",
                    "frames the client's RNIC loses, 0-based in arrival order",
                    dropAtClient);
    cmd.AddValue("pcap", "write PREFIX-<node>-<device>.pcap for both RNICs (empty: none)", pcap);
    std::list<uint32_t> serverDrops;
    std::list<uint32_t> clientDrops;
    RnicHelper rnicHelper;
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange<uint32_t>("calls", rpc.calls, 1, 10000);
        drp::RequireInRange<uint32_t>("size", rpc.size, 1, 1 << 20);
        drp::RequireInRange<uint32_t>("reply", rpc.reply, 1, 1 << 20);
        drp::RequireCapturePrefix("pcap", pcap);
        drp::RequireInRange<Time>("lateReceive", rpc.lateReceive, Seconds(0), Seconds(1));
        serverDrops = drp::ParseFrameList("dropAtServer", dropAtServer);
        clientDrops = drp::ParseFrameList("dropAtClient", dropAtClient);
        rnicHelper.SetMethod(method);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devices = rnicHelper.Install(nodes.Get(0), nodes.Get(1));
    if (!pcap.empty())
    {
        rnicHelper.EnablePcapAll(pcap);
    }
    Side* sides[2] = {&rpc.client, &rpc.server};
    for (uint32_t i = 0; i < 2; ++i)
    {
        Side& s = *sides[i];
        s.name = i == 0 ? "client" : "server";
        s.rnic = DynamicCast<RnicNetDevice>(devices.Get(i));
        s.context = CreateObject<RdmaContext>();
        s.context->Open(s.rnic);
        s.pd = s.context->AllocPd();
        int error = 0;
        s.cq = s.context->CreateCq(16, error);
        s.cq->SetEventCallback(drp::FunctorCallback<void, Ptr<RdmaCompletionQueue>>(
            [&rpc, &s](Ptr<RdmaCompletionQueue>) { rpc.OnCompletions(s); }));
        s.cq->ReqNotify(false);
        s.context->RegMr(s.pd,
                         REQUESTS,
                         REPLIES - REQUESTS + (1 << 20),
                         RdmaAccess::LOCAL_WRITE,
                         drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                             [&s](Ptr<RdmaMemoryRegion> mr, int error) {
                                 NS_ABORT_MSG_IF(error, s.name << ": registration failed");
                                 s.mr = mr;
                             }));
    }
    Simulator::Run(); // the registrations
    for (auto [side, drops] :
         {std::make_pair(&rpc.client, clientDrops), std::make_pair(&rpc.server, serverDrops)})
    {
        if (!drops.empty())
        {
            Ptr<ReceiveListErrorModel> model = CreateObject<ReceiveListErrorModel>();
            model->SetList(drops);
            side->rnic->SetReceiveErrorModel(model);
        }
    }

    auto handler = [&rpc](Side& side) {
        return drp::FunctorCallback<void, Ptr<RdmaCmId>, RdmaCmEvent>(
            [&rpc, &side](Ptr<RdmaCmId> id, RdmaCmEvent e) { rpc.OnEvent(side, id, e); });
    };
    rpc.listener = RdmaCmId::Create(rpc.server.context, handler(rpc.server));
    NS_ABORT_UNLESS(rpc.listener->BindAddr(PORT) == 0 && rpc.listener->Listen(8) == 0);
    rpc.client.id = RdmaCmId::Create(rpc.client.context, handler(rpc.client));
    rpc.started = Simulator::Now();
    NS_ABORT_UNLESS(rpc.client.id->ResolveAddr(rpc.server.rnic->GetRoceAddress(),
                                               PORT,
                                               MilliSeconds(2000)) == 0);
    Simulator::Run();

    if (rpc.rtts.size() != rpc.calls || !rpc.disconnected)
    {
        std::cerr << "error: " << rpc.rtts.size() << " of " << rpc.calls << " calls answered"
                  << std::endl;
        return 1;
    }
    const auto [low, high] = std::minmax_element(rpc.rtts.begin(), rpc.rtts.end());
    const double mean = std::accumulate(rpc.rtts.begin(), rpc.rtts.end(), 0.0) / rpc.rtts.size();
    std::cout << rpc.calls << " calls of " << rpc.size << " bytes, replies of " << rpc.reply
              << " bytes: round trip min " << *low << " us, mean " << mean << " us, max " << *high
              << " us" << std::endl;
    Simulator::Destroy();
    return 0;
}
