/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Verbs on drp's RNICs, as a libibverbs program uses them: two hosts open a
// context each, register memory, create a completion queue and an RC queue
// pair, connect the queue pairs (the QP numbers exchanged out of band, as
// before ibv_modify_qp to RTR), and host 0 posts RDMA WRITEs of --bytes to
// host 1 and reads them back. Each completion is printed with its time; at
// the end the bytes are compared at both ends.
//
//   ./rdma-verbs --method=dynamic --bytes=65536 --writes=4 --frp=0.3

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <iostream>

using namespace ns3;

namespace
{

/// What one host has.
struct Host
{
    Ptr<RnicNetDevice> rnic;      //!< its RNIC
    Ptr<RdmaContext> context;     //!< the context opened on it
    Ptr<RdmaProtectionDomain> pd; //!< its domain
    Ptr<RdmaCompletionQueue> cq;  //!< one queue for sends and receives
    Ptr<RdmaQueuePair> qp;        //!< connected to the other host's
    Ptr<RdmaMemoryRegion> mr;     //!< its buffer
};

constexpr uint64_t BUFFER = 0x10000000; //!< both hosts' buffer

/**
 * Moves a queue pair to RTS, connected to the peer.
 * \param qp the queue pair
 * \param peer the other RNIC
 * \param destQpNum the other queue pair's number
 */
void
Connect(Ptr<RdmaQueuePair> qp, Ptr<RnicNetDevice> peer, uint32_t destQpNum)
{
    RdmaQpAttr a;
    a.qpAccessFlags = RdmaAccess::REMOTE_WRITE | RdmaAccess::REMOTE_READ;
    a.peer = DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(peer->GetAddress()));
    a.destQpNum = destQpNum;
    NS_ABORT_UNLESS(qp->ConnectRc(a) == 0);
}

/// Prints every completion the queue holds, and arms it again.
void
OnCompletions(Ptr<RdmaCompletionQueue> cq)
{
    for (const RdmaWc& wc : cq->Poll(16))
    {
        std::cout << Simulator::Now().As(Time::US) << "  wr_id " << wc.wrId << " "
                  << (wc.opcode == RdmaWcOpcode::RDMA_READ ? "RDMA_READ " : "RDMA_WRITE") << "  "
                  << wc.byteLen << " bytes  " << wc.status << std::endl;
    }
    cq->ReqNotify(false);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string method = "dynamic";
    uint32_t bytes = 65536;
    uint32_t writes = 4;
    double frp = 0;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    strict.AddValue(cmd, "method", "the RNICs' method: traditional, dynamic or roce", method);
    strict.AddValue(cmd, "bytes", "bytes per RDMA WRITE (1 to 16777216)", bytes);
    strict.AddValue(cmd,
                    "writes",
                    "RDMA WRITEs host 0 posts, each then read back (1 to 16)",
                    writes);
    strict.AddValue(cmd,
                    "frp",
                    "probability that host 1's per-transfer registration fails (0 to 1)",
                    frp);
    RnicHelper rnicHelper;
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange<uint32_t>("bytes", bytes, 1, 1 << 24);
        drp::RequireInRange<uint32_t>("writes", writes, 1, 16);
        drp::RequireInRange<double>("frp", frp, 0.0, 1.0);
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
    Host host[2];
    for (uint32_t i = 0; i < 2; ++i)
    {
        Host& h = host[i];
        h.rnic = DynamicCast<RnicNetDevice>(devices.Get(i));
        h.context = CreateObject<RdmaContext>();
        h.context->Open(h.rnic);
        h.context->AssignStreams(10 * i);
        h.pd = h.context->AllocPd();
        int error = 0;
        h.cq = h.context->CreateCq(64, error);
        h.cq->SetEventCallback(MakeCallback(&OnCompletions));
        h.cq->ReqNotify(false);
        RdmaQpInitAttr init;
        init.sendCq = init.recvCq = h.cq;
        init.cap.maxSendWr = 32;
        init.cap.maxRecvWr = 1;
        init.sqSigAll = true;
        h.qp = h.context->CreateQp(h.pd, init, error);
    }
    Connect(host[0].qp, host[1].rnic, host[1].qp->GetQpNum());
    Connect(host[1].qp, host[0].rnic, host[0].qp->GetQpNum());
    host[0].rnic->GetHostMemory()->Fill(BUFFER, bytes * writes, 7);

    // Register each host's buffer (host 0's twice as long: the reads land in
    // its second half), then post. The FRP applies to host 1's registrations
    // from then on: those DRP's handshake makes for each transfer.
    const uint32_t span = bytes * writes;
    const uint64_t back = BUFFER + span;
    host[1].context->RegMr(
        host[1].pd,
        BUFFER,
        span,
        RdmaAccess::LOCAL_WRITE | RdmaAccess::REMOTE_WRITE | RdmaAccess::REMOTE_READ,
        drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
            [&host, frp](Ptr<RdmaMemoryRegion> mr, int error) {
                NS_ABORT_MSG_IF(error, "host 1: registration failed");
                host[1].mr = mr;
                host[1].context->SetAttribute("RegistrationFailureProbability", DoubleValue(frp));
            }));
    host[0].context->RegMr(
        host[0].pd,
        BUFFER,
        2 * uint64_t(span),
        RdmaAccess::LOCAL_WRITE,
        drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
            [&host, bytes, writes, back](Ptr<RdmaMemoryRegion> mr, int error) {
                NS_ABORT_MSG_IF(error, "host 0: registration failed");
                std::cout << Simulator::Now().As(Time::US) << "  host 0 registered, key "
                          << mr->GetLkey() << std::endl;
                std::vector<RdmaSendWr> wrs;
                for (uint32_t w = 0; w < writes; ++w)
                {
                    RdmaSendWr write;
                    write.wrId = w;
                    write.opcode = RdmaWrOpcode::RDMA_WRITE;
                    write.sgList.push_back({BUFFER + w * bytes, bytes, mr->GetLkey()});
                    write.remoteAddr = BUFFER + w * bytes;
                    write.rkey = host[1].mr->GetRkey();
                    RdmaSendWr read = write;
                    read.wrId = 100 + w;
                    read.opcode = RdmaWrOpcode::RDMA_READ;
                    read.sgList[0].addr = back + w * bytes;
                    wrs.push_back(write);
                    wrs.push_back(read);
                }
                size_t bad = 0;
                NS_ABORT_MSG_IF(host[0].qp->PostSend(wrs, &bad) != 0,
                                "PostSend refused request " << bad);
            }));
    Simulator::Run();
    Ptr<HostMemory> mine = host[0].rnic->GetHostMemory();
    const uint64_t written =
        mine->CountDifferences(BUFFER, host[1].rnic->GetHostMemory(), BUFFER, span);
    const uint64_t readBack = mine->CountDifferences(BUFFER, mine, back, span);
    std::cout << "bytes that differ: written " << written << ", read back " << readBack
              << "; registrations failed at host 1: " << host[1].context->GetFailedRegistrations()
              << std::endl;
    Simulator::Destroy();
    return written == 0 && readBack == 0 ? 0 : 1;
}
