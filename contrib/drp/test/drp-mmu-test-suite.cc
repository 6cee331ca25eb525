/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-test-bed.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/ecmp-switch-net-device.h"
#include "ns3/enum.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/fabric-scenario.h"
#include "ns3/fabric-workload-helper.h"
#include "ns3/leaf-spine-fabric-helper.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/star-fabric-helper.h"
#include "ns3/switch-buffer.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The lossless class (RnicNetDevice's DrpClass).
constexpr uint8_t LOSSLESS = 3;

/**
 * \ingroup drp-tests
 * SwitchBuffer's accounting, exact: reserve, shared pool, headroom, the
 * static XOFF threshold and XON below it, drops by reason, the pause sent
 * by the ingress port, the dynamic threshold and the headroom of a link.
 */
class MmuAccountingTestCase : public TestCase
{
  public:
    MmuAccountingTestCase()
        : TestCase("MMU: admission, XOFF at the threshold, XON below it, exact accounting")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes(2);
        EthernetHelper links;
        links.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        links.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        NetDeviceContainer devs = links.Install(nodes.Get(0), nodes.Get(1));
        Ptr<EthernetNetDevice> a = DynamicCast<EthernetNetDevice>(devs.Get(0));
        Ptr<EthernetNetDevice> b = DynamicCast<EthernetNetDevice>(devs.Get(1));

        // 1 Gbps, 1 us: 2 x 125 + 3 x (8 + 1518 + 12) + (8 + 64 + 12) bytes.
        NS_TEST_EXPECT_MSG_EQ(SwitchBuffer::ComputeHeadroom(a), 4948u, "headroom of the link");

        Ptr<SwitchBuffer> buffer = CreateObject<SwitchBuffer>();
        buffer->SetAttribute("BufferSize", UintegerValue(100000));
        buffer->SetAttribute("Headroom", UintegerValue(5000));
        buffer->SetAttribute("ThresholdMode", EnumValue(SwitchBuffer::STATIC));
        buffer->SetAttribute("StaticXoff", UintegerValue(10000));
        uint32_t xoffs = 0;
        uint32_t xons = 0;
        buffer->TraceConnectWithoutContext("Xoff", MakeBoundCallback(&Count, &xoffs));
        buffer->TraceConnectWithoutContext("Xon", MakeBoundCallback(&Count, &xons));
        buffer->AddPort(a);
        buffer->AddPort(b);
        NS_TEST_EXPECT_MSG_EQ(buffer->GetSharedPoolSize(),
                              100000u - 2 * 8 * 4096 - 2 * 5000,
                              "pool: buffer - reserves - headrooms of the lossless class");

        // Lossless class 3 on port 0, 1000-byte frames: 4 in the reserve,
        // 10 shared up to the threshold, then headroom (XOFF), 5 fit.
        std::vector<SwitchBuffer::Placement> got;
        for (int i = 0; i < 21; ++i)
        {
            SwitchBuffer::Placement p = buffer->Admit(0, LOSSLESS, 1000);
            got.push_back(p);
            if (p <= SwitchBuffer::HEADROOM)
            {
                buffer->Add(0, LOSSLESS, 1000, p);
            }
            if (i == 12)
            {
                NS_TEST_EXPECT_MSG_EQ(xoffs, 0u, "no XOFF 1000 bytes below the threshold");
            }
            if (i == 13)
            {
                NS_TEST_EXPECT_MSG_EQ(xoffs, 1u, "XOFF as shared bytes reach the threshold");
            }
        }
        for (int i = 0; i < 21; ++i)
        {
            const auto want = i < 4    ? SwitchBuffer::RESERVE
                              : i < 14 ? SwitchBuffer::SHARED
                              : i < 19 ? SwitchBuffer::HEADROOM
                                       : SwitchBuffer::HEADROOM_OVERFLOW;
            NS_TEST_EXPECT_MSG_EQ(got[i], want, "frame " << i);
        }
        SwitchBuffer::QueueStats q = buffer->GetQueueStats(0, LOSSLESS);
        NS_TEST_EXPECT_MSG_EQ(q.reserveBytes, 4000u, "reserve");
        NS_TEST_EXPECT_MSG_EQ(q.sharedBytes, 10000u, "shared");
        NS_TEST_EXPECT_MSG_EQ(q.headroomBytes, 5000u, "headroom");
        NS_TEST_EXPECT_MSG_EQ(q.headroomFrames, 5u, "frames in headroom");
        NS_TEST_EXPECT_MSG_EQ(q.drops, 2u, "two overflowed the headroom");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetHeadroomDrops(), 2u, "headroom drops");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetSharedDrops(), 0u, "no shared drops");
        NS_TEST_EXPECT_MSG_EQ(xoffs, 1u, "one XOFF, however many frames took headroom");
        NS_TEST_EXPECT_MSG_EQ(a->IsClassPausing(LOSSLESS), true, "port 0 pauses class 3");
        NS_TEST_EXPECT_MSG_EQ(b->IsClassPausing(LOSSLESS), false, "port 1 does not");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetUsed(), 19000u, "bytes held");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetSharedUsed(), 10000u, "shared bytes held");

        // A lossy class on port 1: reserve, shared, then dropped (no headroom).
        uint32_t lossyDrops = 0;
        for (int i = 0; i < 15; ++i)
        {
            SwitchBuffer::Placement p = buffer->Admit(1, 0, 1000);
            if (p <= SwitchBuffer::HEADROOM)
            {
                buffer->Add(1, 0, 1000, p);
            }
            lossyDrops += p == SwitchBuffer::SHARED_FULL;
            NS_TEST_EXPECT_MSG_NE(p, SwitchBuffer::HEADROOM, "a lossy class never takes headroom");
        }
        NS_TEST_EXPECT_MSG_EQ(lossyDrops, 1u, "the 15th lossy frame is dropped");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetSharedDrops(), 1u, "shared drops");
        NS_TEST_EXPECT_MSG_EQ(b->IsClassPausing(0), false, "a lossy class is never paused");

        // Frames leave: headroom first, then shared; XON once headroom is
        // empty and shared + ResumeOffset (3072) <= XOFF (10000).
        for (int i = 0; i < 8; ++i)
        {
            buffer->Remove(0, LOSSLESS, 1000);
            NS_TEST_EXPECT_MSG_EQ(xons, 0u, "still XOFF after " << i + 1 << " left");
        }
        q = buffer->GetQueueStats(0, LOSSLESS);
        NS_TEST_EXPECT_MSG_EQ(q.headroomBytes, 0u, "headroom freed first");
        NS_TEST_EXPECT_MSG_EQ(q.sharedBytes, 7000u, "then shared");
        buffer->Remove(0, LOSSLESS, 1000);
        NS_TEST_EXPECT_MSG_EQ(xons, 1u, "XON at 6000 shared bytes");
        NS_TEST_EXPECT_MSG_EQ(a->IsClassPausing(LOSSLESS), false, "port 0 resumed class 3");
        for (int i = 0; i < 10; ++i)
        {
            buffer->Remove(0, LOSSLESS, 1000);
        }
        q = buffer->GetQueueStats(0, LOSSLESS);
        NS_TEST_EXPECT_MSG_EQ(q.reserveBytes + q.sharedBytes + q.headroomBytes, 0u, "empty");
        NS_TEST_EXPECT_MSG_EQ(q.peakBytes, 19000u, "its peak");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetPeakUsed(), 19000u + 14000u, "the buffer's peak");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetSharedUsed(), 10000u, "port 1's shared bytes");
        Simulator::Run(); // the pause frames
        NS_TEST_EXPECT_MSG_EQ(a->GetPausesSent(LOSSLESS), 2u, "XOFF and XON on the wire");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausesReceived(LOSSLESS), 2u, "both reached the peer");

        // Dynamic: 1/8 of the free shared pool.
        Ptr<SwitchBuffer> dynamic = CreateObject<SwitchBuffer>();
        dynamic->SetAttribute("BufferSize", UintegerValue(100000));
        dynamic->SetAttribute("Headroom", UintegerValue(5000));
        dynamic->AddPort(a);
        dynamic->AddPort(b);
        NS_TEST_EXPECT_MSG_EQ(dynamic->GetXoffThreshold(), 24464u / 8, "alpha x free pool");
        for (int i = 0; i < 6; ++i)
        {
            dynamic->Add(1, 0, 1000, dynamic->Admit(1, 0, 1000));
        }
        NS_TEST_EXPECT_MSG_EQ(dynamic->GetSharedUsed(), 2000u, "2 frames past the reserve");
        NS_TEST_EXPECT_MSG_EQ(dynamic->GetXoffThreshold(), (24464u - 2000) / 8, "shrinks");
        NS_TEST_EXPECT_MSG_EQ(dynamic->Admit(1, 0, 1000),
                              SwitchBuffer::SHARED_FULL,
                              "above 1/8 of the free pool: dropped");

        // Too small a buffer for the reserves and headrooms.
        Ptr<SwitchBuffer> tiny = CreateObject<SwitchBuffer>();
        tiny->SetAttribute("BufferSize", UintegerValue(40000));
        bool threw = false;
        try
        {
            tiny->AddPort(a);
            tiny->AddPort(b);
        }
        catch (const std::invalid_argument& e)
        {
            threw = std::string(e.what()).find("BufferSize = 40000") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(threw, true, "a buffer below its reserves is refused, named");
        Simulator::Destroy();
    }

    /// \param count incremented
    static void Count(uint32_t* count, uint32_t, uint8_t)
    {
        ++*count;
    }
};

/// What the traces of one port saw.
struct PortCounts
{
    uint64_t txBegin{0};   //!< PhyTxBegin
    uint64_t rxEnd{0};     //!< PhyRxEnd
    uint64_t promiscRx{0}; //!< MacPromiscRx (frames handed to the switch)
    Time firstTx{-1};      //!< first PhyTxBegin
    Time lastTxEnd{0};     //!< end of the last slot
    Time busy{0};          //!< sum of its slots
};

/**
 * \param counts where
 * \param port the port
 * \param frame a frame it started
 */
void
TxBegin(PortCounts* counts, Ptr<EthernetNetDevice> port, Ptr<const Packet> frame)
{
    ++counts->txBegin;
    if (counts->firstTx.IsNegative())
    {
        counts->firstTx = Simulator::Now();
    }
    const Time slot = port->GetSlotTime(frame->GetSize());
    counts->busy += slot;
    counts->lastTxEnd = Simulator::Now() + slot;
}

/// \param count incremented
void
CountPause(uint32_t* count, uint32_t, uint8_t)
{
    ++*count;
}

/// \param count incremented
void
CountFrame(uint64_t* count, Ptr<const Packet>)
{
    ++*count;
}

/**
 * Sends hand-made frames in a lossy class from a host, one every slot.
 * \param rnic the host's RNIC
 * \param to the destination
 * \param frames how many
 * \param size payload
 */
void
SendLossyBurst(Ptr<RnicNetDevice> rnic, Mac48Address to, uint32_t frames, uint32_t size)
{
    const Time slot = rnic->GetSlotTime(size + 18);
    for (uint32_t i = 0; i < frames; ++i)
    {
        drp::ScheduleWithContext(rnic->GetNode()->GetId(), slot * i, [rnic, to, size]() {
            Ptr<Packet> p = Create<Packet>(size);
            SocketPriorityTag tag;
            tag.SetPriority(0);
            p->AddPacketTag(tag);
            rnic->Send(p, to, 0x88B6);
        });
    }
}

/**
 * \ingroup drp-tests
 * A 32:1 incast of 256 KiB writes (8 MiB in all) on a star whose switch has
 * a 1.5 MB buffer, lossless: no frame of the DRP class is dropped (the
 * senders' fixed timers still fire while their frames wait: retransmissions
 * are not losses here), every
 * frame is accounted for (per link, per port, per switch), the switch
 * pauses the senders (their RNICs receive the pauses), the port to the
 * receiver is busy while it has a backlog, and every write succeeds. With
 * lossy: hand-made frames of class 0 from eight hosts at once beside it are
 * dropped (the buffer's shared-buffer-full or the egress queue).
 */
class MmuIncastTestCase : public TestCase
{
  public:
    /// \param lossy add the class-0 burst
    explicit MmuIncastTestCase(bool lossy)
        : TestCase(std::string("MMU: a 32:1 incast on a star with a small buffer is lossless") +
                   (lossy ? ", lossy class-0 frames beside it drop" : "")),
          m_lossy(lossy)
    {
    }

  private:
    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetMethod("dynamic");
        rnic.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        EthernetHelper links;
        links.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        links.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("100p")));
        StarFabricHelper fabric(33, rnic, links);
        Ptr<EcmpSwitchNetDevice> sw = fabric.GetSwitch(0);
        ObjectFactory queues("ns3::DropTailQueue<Packet>");
        queues.Set("MaxSize", QueueSizeValue(QueueSize("1500000B")));
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            sw->GetPort(p)->SetAttribute("PfcQueue", ObjectFactoryValue(queues));
        }
        Ptr<SwitchBuffer> buffer = CreateObject<SwitchBuffer>();
        buffer->SetAttribute("BufferSize", UintegerValue(1500000));
        sw->SetBuffer(buffer);
        uint32_t xoffs = 0;
        uint32_t xons = 0;
        sw->TraceConnectWithoutContext("Xoff", MakeBoundCallback(&CountPause, &xoffs));
        sw->TraceConnectWithoutContext("Xon", MakeBoundCallback(&CountPause, &xons));

        FabricWorkloadHelper workload(fabric);
        workload.AssignStreams(3);
        workload.AddIncastOfDegree(0, 32, 262144, Seconds(0));
        RdmaHostHelper host;
        host.SetAttribute("ForgetData", BooleanValue(true));
        ApplicationContainer apps = workload.Install(host);
        RdmaHostHelper::AssignStreams(apps, 100);
        const Mac48Address receiver = Mac48Address::ConvertFrom(fabric.GetRnic(0)->GetAddress());
        if (m_lossy)
        {
            for (uint32_t h = 1; h <= 8; ++h)
            {
                SendLossyBurst(fabric.GetRnic(h), receiver, 400, 1000);
            }
        }

        std::map<Ptr<EthernetNetDevice>, PortCounts> counts;
        std::vector<Ptr<EthernetNetDevice>> ports;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            ports.push_back(sw->GetPort(p));
        }
        for (uint32_t h = 0; h < fabric.GetHosts().GetN(); ++h)
        {
            ports.push_back(fabric.GetRnic(h));
        }
        for (const auto& port : ports)
        {
            PortCounts& c = counts[port];
            port->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&TxBegin, &c, port));
            port->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&CountFrame, &c.rxEnd));
            port->TraceConnectWithoutContext("MacPromiscRx",
                                             MakeBoundCallback(&CountFrame, &c.promiscRx));
        }
        apps.Start(Seconds(0));
        Simulator::Run();
        RdmaHostHelper::RequireAllEnded(apps);

        for (uint32_t h = 0; h < apps.GetN(); ++h)
        {
            for (const auto& record : DynamicCast<RdmaHostApplication>(apps.Get(h))->GetRecords())
            {
                NS_TEST_EXPECT_MSG_EQ(record.status, DrpTransferRecord::SUCCESS, "write " << h);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(buffer->GetHeadroomDrops(), 0u, "no headroom overflow");
        uint64_t losslessDrops = 0;
        uint64_t pausesSent = 0;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            losslessDrops += buffer->GetQueueStats(p, LOSSLESS).drops;
            pausesSent += sw->GetPort(p)->GetPausesSent(LOSSLESS);
        }
        NS_TEST_EXPECT_MSG_EQ(losslessDrops, 0u, "no drop in the lossless class");
        NS_TEST_EXPECT_MSG_GT(pausesSent, 32u, "the switch paused the senders");
        NS_TEST_EXPECT_MSG_GT(xoffs, 32u, "every sender's queue went XOFF");
        NS_TEST_EXPECT_MSG_EQ(xons, xoffs, "and XON again (the switch's traces)");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetUsed(), 0u, "the buffer is empty at the end");
        NS_TEST_EXPECT_MSG_LT(buffer->GetPeakUsed(), 1500000u, "within the buffer");

        // Conservation: per link, per port, per switch.
        uint64_t in = 0;
        uint64_t out = 0;
        uint64_t rnicPauses = 0;
        for (const auto& port : ports)
        {
            const PortCounts& c = counts[port];
            Ptr<Channel> channel = port->GetChannel();
            Ptr<EthernetNetDevice> peer = DynamicCast<EthernetNetDevice>(
                channel->GetDevice(channel->GetDevice(0) == port ? 1 : 0));
            NS_TEST_EXPECT_MSG_EQ(c.txBegin, counts[peer].rxEnd, "link: sent = received");
            const uint64_t pausesIn = port->GetPausesReceived(LOSSLESS);
            if (DynamicCast<RnicNetDevice>(port))
            {
                rnicPauses += pausesIn;
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(c.rxEnd, c.promiscRx + pausesIn, "port: received = up + pauses");
            const uint32_t index = sw->GetPortIndex(port);
            const auto stats = sw->GetPortStats(index);
            NS_TEST_EXPECT_MSG_EQ(c.txBegin,
                                  stats.framesOut + port->GetPausesSent(LOSSLESS),
                                  "port: frames queued out and pauses left");
            in += c.promiscRx;
            out += stats.framesOut + stats.egressDrops;
        }
        NS_TEST_EXPECT_MSG_EQ(in,
                              out + buffer->GetSharedDrops() + buffer->GetHeadroomDrops(),
                              "switch: in = out + dropped");
        NS_TEST_EXPECT_MSG_GT(rnicPauses, 32u, "the senders' RNICs received the pauses");

        // The port to the receiver is busy from its first frame to its last.
        const uint32_t congested = sw->GetRoute(receiver).front();
        const PortCounts& c = counts[sw->GetPort(congested)];
        const double busy = c.busy.GetSeconds() / (c.lastTxEnd - c.firstTx).GetSeconds();
        NS_TEST_EXPECT_MSG_GT(busy, 0.99, "the congested port idles less than 1 %");

        const uint64_t lossyDrops = buffer->GetSharedDrops() + sw->GetEgressDrops();
        if (m_lossy)
        {
            NS_TEST_EXPECT_MSG_GT(lossyDrops, 0u, "the lossy class drops");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(lossyDrops, 0u, "nothing dropped");
        }
        Simulator::Destroy();
    }

    bool m_lossy; //!< add the class-0 burst
};

/**
 * \ingroup drp-tests
 * FabricScenario's lossless option on a leaf-spine: pauses go hop by hop
 * upstream (the leaf pauses the spines, the spines the other leaf, the
 * other leaf its hosts), no switch or link drops a frame (late duplicates
 * of retransmissions the RNICs discard are no loss); the same incast lossy drops;
 * invalid options are refused with their value.
 */
class MmuScenarioTestCase : public TestCase
{
  public:
    MmuScenarioTestCase()
        : TestCase("MMU: FabricScenario lossless, pauses hop by hop upstream")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.topology = "leaf-spine";
        config.leaves = 2;
        config.spines = 2;
        config.hosts = 8;
        config.bytes = 262144;
        config.queue = "100p";
        config.lossless = true;
        config.buffer = "400KB"; // 400 kB: a leaf's 10 ports leave ~30 kB shared
        config.window = 64;      // 64 kB in flight per sender: enough to fill it
        FabricScenario::Result lossless = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(lossless.Count(DrpTransferRecord::SUCCESS), 15u, "all succeed");
        NS_TEST_EXPECT_MSG_EQ(lossless.GetDropsIn("switch"), 0u, "no drop in the switches");
        NS_TEST_EXPECT_MSG_EQ(lossless.GetDropsIn("link"), 0u, "nor on the links");
        NS_TEST_EXPECT_MSG_GT(lossless.rnicPausesReceived, 0u, "hosts paused");
        // Switches 0, 1: leaves (receiver on leaf 0); 2, 3: spines.
        std::map<uint32_t, uint64_t> sent;
        std::map<uint32_t, uint64_t> received;
        for (const auto& p : lossless.ports)
        {
            sent[p.sw] += p.pausesSent;
            received[p.sw] += p.pausesReceived;
        }
        NS_TEST_EXPECT_MSG_GT(sent[0], 0u, "the receiver's leaf pauses");
        NS_TEST_EXPECT_MSG_GT(received[2] + received[3], 0u, "the spines are paused");
        NS_TEST_EXPECT_MSG_GT(sent[2] + sent[3], 0u, "and pause in turn");
        NS_TEST_EXPECT_MSG_GT(received[1], 0u, "the other leaf is paused");
        NS_TEST_EXPECT_MSG_GT(sent[1], 0u, "and pauses its hosts");
        NS_TEST_EXPECT_MSG_GT(lossless.GetTimePaused().GetSeconds(), 0, "time paused");

        config.lossless = false;
        config.buffer = FabricScenario::Config().buffer; // a lossy run has no shared buffer
        FabricScenario::Result lossy = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_GT(lossy.GetDrops(), 0u, "lossy, the same incast drops");
        NS_TEST_EXPECT_MSG_EQ(lossy.GetPausesSent(), 0u, "and sends no pause");

        for (const auto& [field, value, what] :
             std::vector<std::tuple<std::string, std::string, std::string>>{
                 {"buffer", "100p", "buffer = 100p must be in bytes"},
                 {"buffer", "12XB", "buffer = 12XB is no queue size"},
                 {"threshold", "adaptive", "threshold = \"adaptive\" is not valid"}})
        {
            FabricScenario::Config bad;
            bad.lossless = true;
            (field == "buffer" ? bad.buffer : bad.threshold) = value;
            std::string message;
            try
            {
                bad.Validate();
            }
            catch (const std::invalid_argument& e)
            {
                message = e.what();
            }
            NS_TEST_EXPECT_MSG_NE(message.find(what), std::string::npos, message);
        }
        FabricScenario::Config small;
        small.lossless = true;
        small.buffer = "64KB";
        std::string message;
        try
        {
            FabricScenario::Run(small);
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find("buffer = 64KB (64000 bytes) is below"),
                              std::string::npos,
                              message);
    }
};

/**
 * \ingroup drp-tests
 * FabricScenario lossless with ECN and DCQCN: the lossless switch ports'
 * queues are EcnMarkingQueues (the factory names its TypeId, whose name
 * ends in <Packet>), so the switches mark, the receivers send CNPs, the
 * senders slow down, and nothing is dropped; they mark from fixed streams,
 * so a run repeats whatever ran before it.
 */
class MmuEcnScenarioTestCase : public TestCase
{
  public:
    MmuEcnScenarioTestCase()
        : TestCase("MMU: FabricScenario lossless with ECN and DCQCN marks and drops nothing")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 9;
        config.bytes = 262144;
        config.lossless = true;
        config.buffer = "900KB"; // 9 ports x 100 frames x 1000 B
        config.ecn = true;
        config.cc = "dcqcn";
        config.timeoutMode = "adaptive";
        FabricScenario::Result result = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(result.Count(DrpTransferRecord::SUCCESS), 8u, "all succeed");
        NS_TEST_EXPECT_MSG_EQ(result.GetDrops(), 0u, "no drop in the switch");
        NS_TEST_EXPECT_MSG_GT(result.GetEcnMarks(), 0u, "the lossless queues mark");
        NS_TEST_EXPECT_MSG_GT(result.GetCnps(), 0u, "the receiver answers with CNPs");
        uint64_t marks = 0;
        for (const auto& p : result.ports)
        {
            marks += p.ecnMarks;
        }
        NS_TEST_EXPECT_MSG_EQ(marks, result.GetEcnMarks(), "the marks are the ports'");
        // The class queues mark from fixed streams: the same run after another
        // one in this process marks the same frames.
        FabricScenario::Config other = config;
        other.lossless = false;
        other.buffer = FabricScenario::Config().buffer;
        FabricScenario::Run(other);
        FabricScenario::Result again = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(again.GetEcnMarks(), result.GetEcnMarks(), "the same marks");
        NS_TEST_EXPECT_MSG_EQ(again.GetCnps(), result.GetCnps(), "the same CNPs");
        NS_TEST_EXPECT_MSG_EQ(again.simulatedTime, result.simulatedTime, "the same end");
    }
};

/**
 * \ingroup drp-tests
 * A pause storm (pfcStorm): host 8's RNIC pauses its class from the start
 * and never stops while four hosts write to it and three victim flows run
 * between others, through a 400 KB buffer. The storm fills the buffer and
 * the switch pauses every host (head-of-line blocking). The run ends when
 * the last transfer has (before, the refreshed pauses kept the simulator
 * running for ever). A 5 ms watchdog with Drop frees the victims while the
 * incast, whose frames it discards, fails; with Forward every transfer
 * succeeds; with the default 200 ms the victims' lossless timers outlast
 * the storm's hold, where the published timers fail them first.
 * A storm without a watchdog is refused, as are hosts out of range.
 */
class MmuPfcStormTestCase : public TestCase
{
  public:
    MmuPfcStormTestCase()
        : TestCase("MMU: a PFC storm, the watchdog, and the run's end")
    {
    }

  private:
    /// \return the storm's experiment
    static FabricScenario::Config Storm()
    {
        FabricScenario::Config config;
        config.hosts = 9;
        config.receiver = 8;
        config.degree = 4;
        config.victims = 3;
        config.bytes = 500000;
        config.victimBytes = 500000;
        config.lossless = true;
        config.buffer = "400KB";
        config.timeoutMode = "adaptive";
        config.pfcStorm = "8";
        return config;
    }

    /**
     * \param config an experiment
     * \return the message of the std::invalid_argument its Validate() throws ("" if none)
     */
    static std::string Refusal(const FabricScenario::Config& config)
    {
        return drptest::RefusalOf([&config]() { config.Validate(); });
    }

    /**
     * \param result a run
     * \param victims true: the victims' transfers, else the incast's
     * \return how many of them succeeded
     */
    static uint32_t Successes(const FabricScenario::Result& result, bool victims)
    {
        uint32_t n = 0;
        for (const auto& t : result.transfers)
        {
            n += (t.destination != 8) == victims && t.record.status == DrpTransferRecord::SUCCESS;
        }
        return n;
    }

    void DoRun() override
    {
        FabricScenario::Config config = Storm();
        config.pfcWatchdog = MilliSeconds(5);
        FabricScenario::Result drop = FabricScenario::Run(config);
        NS_TEST_ASSERT_MSG_EQ(drop.transfers.size(), 7u, "every transfer ended");
        NS_TEST_EXPECT_MSG_EQ(Successes(drop, true), 3u, "Drop: the victims succeed");
        NS_TEST_EXPECT_MSG_EQ(Successes(drop, false), 0u, "the storm's incast fails");
        NS_TEST_EXPECT_MSG_EQ(drop.GetPfcStorms(), 1u, "one storm, at the port to host 8");
        uint64_t discarded = 0;
        for (const auto& d : drop.drops)
        {
            discarded += d.reason == "pfc-watchdog" ? d.frames : 0;
        }
        NS_TEST_EXPECT_MSG_GT(discarded, 0u, "its frames discarded, counted as pfc-watchdog");
        NS_TEST_EXPECT_MSG_EQ(drop.GetDropsIn("switch"),
                              discarded,
                              "the switch drops nothing else");
        NS_TEST_EXPECT_MSG_EQ(drop.simulatorEnd,
                              drop.simulatedTime,
                              "ended with the last transfer");

        config.pfcWatchdogAction = "forward";
        FabricScenario::Result forward = FabricScenario::Run(config);
        NS_TEST_EXPECT_MSG_EQ(forward.Count(DrpTransferRecord::SUCCESS),
                              7u,
                              "Forward: all succeed");
        NS_TEST_EXPECT_MSG_EQ(forward.GetDrops(), 0u, "nothing dropped");

        FabricScenario::Result late = FabricScenario::Run(Storm());
        NS_TEST_ASSERT_MSG_EQ(late.transfers.size(), 7u, "every transfer ended");
        NS_TEST_EXPECT_MSG_EQ(Successes(late, true), 3u, "200 ms: the victims' timers outlast it");
        NS_TEST_EXPECT_MSG_EQ(Successes(late, false), 0u, "not the incast's");
        FabricScenario::Config published = Storm();
        published.losslessTimers = false;
        FabricScenario::Result early = FabricScenario::Run(published);
        NS_TEST_ASSERT_MSG_EQ(early.transfers.size(), 7u, "every transfer ended");
        NS_TEST_EXPECT_MSG_EQ(early.Count(DrpTransferRecord::SUCCESS),
                              0u,
                              "the published timers: all fail before the watchdog acts");
        NS_TEST_EXPECT_MSG_EQ(early.simulatorEnd, early.simulatedTime, "and the run ends then");

        FabricScenario::Config none = Storm();
        none.pfcWatchdog = Seconds(0);
        NS_TEST_EXPECT_MSG_EQ(Refusal(none),
                              "pfcStorm = 8 with pfcWatchdog = 0s would never end: the frames a "
                              "storm holds are never sent, so their transfers never fail; give "
                              "a pfcWatchdog",
                              "no storm without a watchdog");
        FabricScenario::Config outside = Storm();
        outside.pfcStorm = "3,9";
        NS_TEST_EXPECT_MSG_EQ(Refusal(outside),
                              "pfcStorm = 3,9 names host 9, out of range [0, 8]: the fabric has 9 "
                              "hosts",
                              "hosts out of range");
        outside.pfcStorm = "3,3";
        NS_TEST_EXPECT_MSG_EQ(Refusal(outside), "pfcStorm = 3,3 names host 3 twice", "twice");
        FabricScenario::Config action = Storm();
        action.pfcWatchdogAction = "alert";
        NS_TEST_EXPECT_MSG_EQ(Refusal(action).find("pfcWatchdogAction = \"alert\" is not valid"),
                              0u,
                              Refusal(action));
    }
};

/**
 * \ingroup drp-tests
 * A buffer too small for the reserves and headrooms is refused once, naming
 * the whole requirement of the switch that needs the most (a 17-port star:
 * every port's reserve and headroom), both from FabricScenario and from
 * EcmpSwitchNetDevice::SetBuffer(); the queue option, which lossless
 * queues do not follow, is refused with lossless.
 */
class MmuBufferRequirementTestCase : public TestCase
{
  public:
    MmuBufferRequirementTestCase()
        : TestCase("MMU: a buffer too small is refused naming the whole requirement")
    {
    }

  private:
    void DoRun() override
    {
        FabricScenario::Config config;
        config.hosts = 17;
        config.lossless = true;
        std::string need;
        for (const std::string buffer : {"200KB", "230KB", "600KB"})
        {
            config.buffer = buffer;
            const std::string message =
                drptest::RefusalOf([&config]() { FabricScenario::Run(config); });
            const std::string::size_type at = message.find(" bytes that");
            NS_TEST_ASSERT_MSG_NE(at, std::string::npos, message);
            NS_TEST_EXPECT_MSG_EQ(message.find("buffer = " + buffer), 0u, message);
            NS_TEST_EXPECT_MSG_NE(message.find("switch 0's 17 ports"), std::string::npos, message);
            const std::string bytes =
                message.substr(message.rfind(' ', at - 1) + 1, at - message.rfind(' ', at - 1) - 1);
            NS_TEST_EXPECT_MSG_EQ((need.empty() ? bytes : need), bytes, "the same need each time");
            need = bytes;
        }
        // 17 ports x (8 x 4096 reserve + one lossless class's headroom: two
        // cable delays at 1 Gbps, 0 here, + 3 x 1538 + 84 = 4698).
        NS_TEST_EXPECT_MSG_EQ(need, std::to_string(17 * (8 * 4096 + 4698)), "the whole need");
        config.buffer = need + "B";
        NS_TEST_EXPECT_MSG_EQ(drptest::RefusalOf([&config]() { config.Validate(); }),
                              "",
                              "the need suffices");

        // The switch itself names the whole requirement too.
        RnicHelper rnic;
        rnic.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        EthernetHelper links;
        links.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        StarFabricHelper star(17, rnic, links);
        Ptr<SwitchBuffer> mmu = CreateObject<SwitchBuffer>();
        mmu->SetAttribute("BufferSize", UintegerValue(200000));
        NS_TEST_EXPECT_MSG_EQ(drptest::RefusalOf([&]() { star.GetSwitch(0)->SetBuffer(mmu); }),
                              "SwitchBuffer::BufferSize = 200000 bytes is below the " + need +
                                  " bytes that the reserves (4096 bytes x 8 classes per port) "
                                  "and headrooms (one per lossless class per port) of the "
                                  "switch's 17 ports take: give it at least " +
                                  need + " bytes",
                              "SetBuffer");
        Simulator::Destroy();

        FabricScenario::Config queue;
        queue.lossless = true;
        queue.queue = "8p";
        NS_TEST_EXPECT_MSG_EQ(drptest::RefusalOf([&queue]() { queue.Validate(); }),
                              "queue has no effect here: it is for lossy fabrics (lossless: the "
                              "switch's buffer bounds every queue) (lossless = true); leave it "
                              "out, or give what it is for",
                              "queue with lossless");
    }
};

} // namespace

/**
 * \ingroup drp-tests
 * The switch's shared buffer and lossless Ethernet.
 */
class DrpMmuTestSuite : public TestSuite
{
  public:
    DrpMmuTestSuite()
        : TestSuite("drp-mmu", DRP_TEST_SYSTEM)
    {
        AddTestCase(new MmuAccountingTestCase, DRP_TEST_QUICK);
        AddTestCase(new MmuIncastTestCase(false), DRP_TEST_QUICK);
        AddTestCase(new MmuIncastTestCase(true), DRP_TEST_QUICK);
        AddTestCase(new MmuScenarioTestCase, DRP_TEST_QUICK);
        AddTestCase(new MmuEcnScenarioTestCase, DRP_TEST_QUICK);
        AddTestCase(new MmuPfcStormTestCase, DRP_TEST_QUICK);
        AddTestCase(new MmuBufferRequirementTestCase, DRP_TEST_QUICK);
    }
};

/// The suite's one instance.
static DrpMmuTestSuite g_drpMmuTestSuite;
