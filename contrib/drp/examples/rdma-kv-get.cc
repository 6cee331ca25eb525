/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A key-value GET over one-sided RDMA READs: the server keeps a table of
// --slots fixed-size slots (a key and its value each) in a registered
// region and tells the client where it is (address and rkey) in the
// private data of the connection manager's REP, as key-value stores on
// RDMA do. The client then reads the slot of each key it looks up with
// one RDMA READ, without the server's CPU, and checks that the slot holds
// the key. Printed: the connection's time, each GET's latency and value.
//
//   ./rdma-kv-get --method=roce --gets=4
//   ./rdma-kv-get --method=dynamic --gets=4 --nic=100g-pcie3x16

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <iostream>

using namespace ns3;

namespace
{

constexpr uint16_t PORT = 11211;       //!< the server's port (memcached's)
constexpr uint64_t TABLE = 0x10000000; //!< the server's table
constexpr uint64_t LOCAL = 0x20000000; //!< where the client's READs land
constexpr uint32_t SLOT = 64;          //!< bytes per slot: an 8-byte key, then its value

/// \param key a key \param slots the table's slots \return the key's slot (keys below
///        slots never collide: the client needs no probing)
uint64_t
SlotOf(uint64_t key, uint32_t slots)
{
    return key % slots;
}

/// \param bytes 8 bytes, little-endian \return their value
uint64_t
ReadU64(const uint8_t* bytes)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
    {
        v = (v << 8) | bytes[i];
    }
    return v;
}

/// \param bytes 8 bytes, little-endian, written \param v their value
void
WriteU64(uint8_t* bytes, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
    {
        bytes[i] = (v >> (8 * i)) & 0xff;
    }
}

/// One host: its RNIC and verbs resources.
struct Host
{
    Ptr<RnicNetDevice> rnic;      //!< its RNIC
    Ptr<RdmaContext> context;     //!< the context opened on it
    Ptr<RdmaProtectionDomain> pd; //!< its domain
    Ptr<RdmaCompletionQueue> cq;  //!< its completion queue
    Ptr<RdmaMemoryRegion> mr;     //!< its region
    Ptr<RdmaCmId> id;             //!< the connection's id
    Ptr<RdmaQueuePair> qp;        //!< its queue pair
};

} // namespace

int
main(int argc, char* argv[])
{
    std::string method = "dynamic";
    std::string nic = "paper-1g";
    uint32_t slots = 1024;
    uint32_t gets = 4;
    CommandLine cmd(__FILE__);
    drp::StrictOptions strict;
    strict.AddValue(cmd, "method", "the RNICs' method: traditional, dynamic or roce", method);
    strict.AddValue(cmd, "nic", "the RNICs' profile (NicProfile)", nic);
    strict.AddValue(cmd, "slots", "slots of the server's table (1 to 65536)", slots);
    strict.AddValue(cmd, "gets", "keys the client looks up, one at a time (1 to 1000)", gets);
    RnicHelper rnicHelper;
    try
    {
        drp::StrictOptions::CheckArguments(argc, argv);
        cmd.Parse(argc, argv);
        strict.Apply();
        drp::RequireInRange<uint32_t>("slots", slots, 1, 65536);
        drp::RequireInRange<uint32_t>("gets", gets, 1, 1000);
        rnicHelper.SetMethod(method);
        rnicHelper.SetProfile(nic);
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }

    NodeContainer nodes;
    nodes.Create(2);
    NetDeviceContainer devices = rnicHelper.Install(nodes.Get(0), nodes.Get(1));
    Host client;
    Host server;
    Host* hosts[2] = {&client, &server};
    for (uint32_t i = 0; i < 2; ++i)
    {
        Host& h = *hosts[i];
        h.rnic = DynamicCast<RnicNetDevice>(devices.Get(i));
        h.context = CreateObject<RdmaContext>();
        h.context->Open(h.rnic);
        h.pd = h.context->AllocPd();
        int error = 0;
        h.cq = h.context->CreateCq(16, error);
        const uint64_t base = i == 0 ? LOCAL : TABLE;
        const uint32_t access =
            i == 0 ? RdmaAccess::LOCAL_WRITE : RdmaAccess::LOCAL_WRITE | RdmaAccess::REMOTE_READ;
        h.context->RegMr(h.pd,
                         base,
                         uint64_t(slots) * SLOT,
                         access,
                         drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                             [&h](Ptr<RdmaMemoryRegion> mr, int e) {
                                 NS_ABORT_MSG_IF(e, "registration failed");
                                 h.mr = mr;
                             }));
    }
    // The server's table: key k in its slot, its value 1000 * k.
    Ptr<HostMemory> table = server.rnic->GetHostMemory();
    for (uint64_t key = 0; key < slots; ++key)
    {
        uint8_t slot[16];
        WriteU64(slot, key);
        WriteU64(slot + 8, 1000 * key);
        table->Write(TABLE + SlotOf(key, slots) * SLOT, slot, sizeof(slot));
    }
    Simulator::Run(); // the registrations

    // What the client does once connected: one READ per key, the next when it completes.
    uint32_t done = 0;
    uint64_t remote = 0;
    uint32_t rkey = 0;
    Time posted;
    auto get = [&]() {
        const uint64_t key = (1 + 7 * uint64_t(done)) % slots;
        RdmaSendWr read;
        read.wrId = key;
        read.opcode = RdmaWrOpcode::RDMA_READ;
        read.sgList.push_back({LOCAL, SLOT, client.mr->GetLkey()});
        read.remoteAddr = remote + SlotOf(key, slots) * SLOT;
        read.rkey = rkey;
        read.sendFlags = RdmaSendFlags::SIGNALED;
        posted = Simulator::Now();
        NS_ABORT_UNLESS(client.qp->PostSend({read}) == 0);
    };
    client.cq->SetEventCallback(
        drp::FunctorCallback<void, Ptr<RdmaCompletionQueue>>([&](Ptr<RdmaCompletionQueue>) {
            for (const RdmaWc& wc : client.cq->Poll(4))
            {
                NS_ABORT_MSG_IF(wc.status != RdmaWcStatus::SUCCESS, "GET failed: " << wc.status);
                uint8_t slot[16];
                client.rnic->GetHostMemory()->Read(LOCAL, slot, sizeof(slot));
                const bool found = ReadU64(slot) == wc.wrId;
                std::cout << "GET " << wc.wrId << " -> "
                          << (found ? std::to_string(ReadU64(slot + 8)) : "(not found)") << " in "
                          << (Simulator::Now() - posted).As(Time::US) << std::endl;
                if (++done < gets)
                {
                    get();
                }
                else
                {
                    client.id->Disconnect();
                }
            }
            client.cq->ReqNotify(false);
        }));
    client.cq->ReqNotify(false);

    // The connection: the server's REP carries the table's address and rkey.
    RdmaQpInitAttr init;
    init.cap.maxSendWr = init.cap.maxRecvWr = 4;
    const Time start = Simulator::Now();
    auto onEvent = [&](Host& side, Ptr<RdmaCmId> id, RdmaCmEvent e) {
        int error = 0;
        init.sendCq = init.recvCq = side.cq;
        switch (e.event)
        {
        case RdmaCmEventType::ADDR_RESOLVED:
            id->ResolveRoute(Seconds(1));
            break;
        case RdmaCmEventType::ROUTE_RESOLVED:
            side.qp = id->CreateQp(side.pd, init, error);
            NS_ABORT_UNLESS(side.qp && id->Connect(RdmaConnParam()) == 0);
            break;
        case RdmaCmEventType::CONNECT_REQUEST: {
            side.qp = id->CreateQp(side.pd, init, error);
            RdmaConnParam accept; // private data: the table's address, then its rkey
            accept.privateData.resize(16);
            WriteU64(accept.privateData.data(), TABLE);
            WriteU64(accept.privateData.data() + 8, side.mr->GetRkey());
            NS_ABORT_UNLESS(side.qp && id->Accept(accept) == 0);
            break;
        }
        case RdmaCmEventType::ESTABLISHED:
            if (&side == &client)
            {
                remote = ReadU64(e.param.privateData.data());
                rkey = uint32_t(ReadU64(e.param.privateData.data() + 8));
                std::cout << "connected in " << (Simulator::Now() - start).As(Time::US)
                          << "; the table at 0x" << std::hex << remote << std::dec << ", rkey "
                          << rkey << std::endl;
                get();
            }
            break;
        case RdmaCmEventType::DISCONNECTED:
            break;
        default:
            NS_ABORT_MSG("the connection failed: " << e.event);
        }
    };
    Ptr<RdmaCmId> listener =
        RdmaCmId::Create(server.context,
                         drp::FunctorCallback<void, Ptr<RdmaCmId>, RdmaCmEvent>(
                             [&](Ptr<RdmaCmId> id, RdmaCmEvent e) { onEvent(server, id, e); }));
    NS_ABORT_UNLESS(listener->BindAddr(PORT) == 0 && listener->Listen(4) == 0);
    client.id =
        RdmaCmId::Create(client.context,
                         drp::FunctorCallback<void, Ptr<RdmaCmId>, RdmaCmEvent>(
                             [&](Ptr<RdmaCmId> id, RdmaCmEvent e) { onEvent(client, id, e); }));
    NS_ABORT_UNLESS(client.id->ResolveAddr(server.rnic->GetRoceAddress(), PORT, Seconds(1)) == 0);
    Simulator::Run();
    Simulator::Destroy();
    return done == gets ? 0 : 1;
}
