/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/arrivals-last-scheduler.h"
#include "ns3/boolean.h"
#include "ns3/bridge-helper.h"
#include "ns3/drp-compat.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-arrival-event.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/flow-monitor-helper.h"
#include "ns3/flow-monitor.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-flow-classifier.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/rnic-helper.h"
#include "ns3/simulator.h"
#include "ns3/star-fabric-helper.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/udp-client-server-helper.h"
#include "ns3/udp-server.h"
#include "ns3/uinteger.h"

#include <list>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// EtherType of the test frames (IEEE 802 local experimental EtherType 1).
constexpr uint16_t TEST_ETHERTYPE = 0x88B5;
/// Line rate of every test link.
const char* const RATE = "1Gbps";

/**
 * Send a frame of a given payload size.
 * \param dev the sending device
 * \param size the payload size
 * \param dest the destination address
 */
void
SendFrame(Ptr<NetDevice> dev, uint32_t size, Address dest)
{
    dev->Send(Create<Packet>(size), dest, TEST_ETHERTYPE);
}

/**
 * Send a given packet.
 * \param dev the sending device
 * \param p the payload
 * \param dest the destination address
 */
void
SendPacket(Ptr<NetDevice> dev, Ptr<Packet> p, Address dest)
{
    dev->Send(p, dest, TEST_ETHERTYPE);
}

/**
 * Schedule a send in the sender's context.
 * \param at when
 * \param dev the sending device
 * \param size the payload size
 * \param dest the destination address
 */
void
ScheduleSend(Time at, Ptr<NetDevice> dev, uint32_t size, Address dest)
{
    Simulator::ScheduleWithContext(dev->GetNode()->GetId(), at, &SendFrame, dev, size, dest);
}

/**
 * Count a traced packet.
 * \param counter the counter
 */
void
CountPacket(uint32_t* counter, Ptr<const Packet>)
{
    ++*counter;
}

/**
 * Read a pcap file.
 * \param filename the file
 * \param linkType set to the file's data link type
 * \return the original length of every record
 */
std::vector<uint32_t>
ReadPcap(const std::string& filename, uint32_t& linkType)
{
    std::vector<uint32_t> lengths;
    PcapFile file;
    file.Open(filename, std::ios::in);
    if (file.Fail())
    {
        linkType = 0;
        return lengths;
    }
    linkType = file.GetDataLinkType();
    uint8_t data[2048];
    while (true)
    {
        uint32_t tsSec;
        uint32_t tsUsec;
        uint32_t inclLen;
        uint32_t origLen;
        uint32_t readLen;
        file.Read(data, sizeof(data), tsSec, tsUsec, inclLen, origLen, readLen);
        if (file.Fail() || file.Eof())
        {
            break;
        }
        lengths.push_back(origLen);
    }
    file.Close();
    return lengths;
}

} // namespace

/**
 * \ingroup drp-tests
 * Base of the Ethernet test cases: a two-node link and a receive log.
 */
class EthernetTestCaseBase : public TestCase
{
  protected:
    /// One received frame.
    struct Arrival
    {
        Ptr<NetDevice> device; //!< the receiving device
        Time time;             //!< when
        uint32_t size;         //!< payload size
        uint64_t uid;          //!< packet uid
    };

    /// \param name the test case name
    explicit EthernetTestCaseBase(std::string name)
        : TestCase(name)
    {
    }

    /**
     * Make a two-node link and log every frame either device receives.
     * \param helper the helper to use
     * \return the two devices
     */
    NetDeviceContainer MakeLink(EthernetHelper& helper)
    {
        m_arrivals.clear();
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = helper.Install(nodes);
        for (uint32_t i = 0; i < devs.GetN(); ++i)
        {
            devs.Get(i)->SetReceiveCallback(MakeCallback(&EthernetTestCaseBase::Rx, this));
        }
        return devs;
    }

    /**
     * The receive callback.
     * \param dev the device
     * \param p the payload
     * \param protocol the EtherType
     * \return true
     */
    bool Rx(Ptr<NetDevice> dev, Ptr<const Packet> p, uint16_t protocol, const Address&)
    {
        NS_TEST_EXPECT_MSG_EQ(protocol, TEST_ETHERTYPE, "EtherType carried");
        m_arrivals.push_back({dev, Simulator::Now(), p->GetSize(), p->GetUid()});
        return true;
    }

    std::vector<Arrival> m_arrivals; //!< received frames, in order
};

/**
 * \ingroup drp-tests
 * Time on the wire: preamble, minimum frame size, inter-frame gap, delay.
 */
class EthernetTimingTestCase : public EthernetTestCaseBase
{
  public:
    EthernetTimingTestCase()
        : EthernetTestCaseBase("Ethernet: time on the wire")
    {
    }

  private:
    void DoRun() override
    {
        const Time delay = NanoSeconds(500);
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(RATE));
        eth.SetChannelAttribute("Delay", TimeValue(delay));
        NetDeviceContainer devs = MakeLink(eth);
        Ptr<EthernetNetDevice> a = DynamicCast<EthernetNetDevice>(devs.Get(0));

        NS_TEST_ASSERT_MSG_EQ(a->GetWireSize(14 + 1000 + 4), 8 + 1018 + 12, "wire bytes");
        NS_TEST_ASSERT_MSG_EQ(a->GetWireSize(14 + 10 + 4), 8 + 64 + 12, "padded wire bytes");
        NS_TEST_ASSERT_MSG_EQ(a->GetSlotTime(1018), NanoSeconds(1038 * 8), "slot");
        NS_TEST_ASSERT_MSG_EQ(a->GetFrameTxTime(1018), NanoSeconds(1026 * 8), "frame");

        // Two back-to-back 1000-byte frames, later a 10-byte one.
        const Address b = devs.Get(1)->GetAddress();
        ScheduleSend(Seconds(0), devs.Get(0), 1000, b);
        ScheduleSend(Seconds(0), devs.Get(0), 1000, b);
        ScheduleSend(MicroSeconds(100), devs.Get(0), 10, b);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_arrivals.size(), 3, "three frames");
        // Arrival = last bit: (preamble 8 + frame 1018) bytes at 8 ns + delay.
        const Time first = NanoSeconds((8 + 14 + 1000 + 4) * 8) + delay;
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[0].time, first, "first frame");
        // The next frame starts a full slot (gap included) later.
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[1].time,
                              first + NanoSeconds((8 + 14 + 1000 + 4 + 12) * 8),
                              "back-to-back frame");
        // A 10-byte payload is padded to 46: a 64-byte frame.
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[2].time,
                              MicroSeconds(100) + NanoSeconds((8 + 64) * 8) + delay,
                              "short frame");
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[0].size, 1000, "payload size");
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[2].size, 46, "the payload padded to 46 bytes");
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[0].device, devs.Get(1), "at the other end");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * A long run of back-to-back frames at a rate whose slots end inside a
 * nanosecond (1000-byte payloads: 8304 bits, 207.6 ns at 40 Gbps, 83.04 ns at
 * 100 Gbps) takes its nominal time on the wire to within 1 ns in all: the
 * port carries the fraction of a nanosecond from one slot to the next
 * instead of rounding every slot.
 */
class EthernetExactRateTestCase : public TestCase
{
  public:
    /// \param rate the link's rate \param frames how many frames to send
    EthernetExactRateTestCase(const std::string& rate, uint32_t frames)
        : TestCase("Ethernet: " + std::to_string(frames) + " frames at " + rate +
                   " take their nominal time to the nanosecond"),
          m_rate(rate),
          m_frames(frames)
    {
    }

  private:
    void DoRun() override
    {
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(m_rate));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = eth.Install(nodes);
        Ptr<EthernetNetDevice> a = DynamicCast<EthernetNetDevice>(devs.Get(0));
        m_to = devs.Get(1)->GetAddress();
        devs.Get(1)->SetReceiveCallback(MakeCallback(&EthernetExactRateTestCase::Rx));
        a->TraceConnectWithoutContext("PhyTxEnd",
                                      MakeCallback(&EthernetExactRateTestCase::OnTxEnd, this));
        m_device = a;
        // Two in the queue: each end of a frame puts one more in, so the
        // transmitter never waits.
        Simulator::Schedule(Seconds(0), &EthernetExactRateTestCase::SendOne, this);
        Simulator::Schedule(Seconds(0), &EthernetExactRateTestCase::SendOne, this);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_ended, m_frames, "every frame sent");
        const uint64_t bits = uint64_t(a->GetWireSize(14 + 1000 + 4)) * 8;
        const uint64_t bps = DataRate(m_rate).GetBitRate();
        // Nominal time in nanoseconds, as an exact fraction: numerator / bps.
        const uint64_t numerator = uint64_t(m_frames) * bits * 1000000000ULL;
        const int64_t nominal = numerator / bps; // whole ns (the rest is < 1 ns)
        const int64_t taken = m_lastEnd.GetNanoSeconds();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(std::abs(taken - nominal),
                                    1,
                                    "time on the wire of all frames, ns (nominal " << nominal
                                                                                   << ")");
        Simulator::Destroy();
    }

    /// Queues one more frame, until all are sent.
    void SendOne()
    {
        if (m_sent < m_frames)
        {
            ++m_sent;
            m_device->Send(Create<Packet>(1000), m_to, TEST_ETHERTYPE);
        }
    }

    /// Receive callback: takes every frame.
    /// \return true
    static bool Rx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
    {
        return true;
    }

    /// A frame's slot ended.
    void OnTxEnd(Ptr<const Packet>)
    {
        ++m_ended;
        m_lastEnd = Simulator::Now();
        SendOne();
    }

    std::string m_rate;      //!< the link's rate
    uint32_t m_frames;       //!< frames to send
    uint32_t m_sent{0};      //!< frames queued so far
    uint32_t m_ended{0};     //!< frames whose slot ended
    Time m_lastEnd;          //!< when the last slot ended
    Address m_to;            //!< the receiver
    Ptr<NetDevice> m_device; //!< the sender
};

/**
 * \ingroup drp-tests
 * Back-to-back frames of mixed sizes (payloads of 0 to 1500 bytes, the
 * shortest padded to the 64-byte minimum on the wire) keep the nominal rate
 * at every frame, not only over the whole run: the end of the k-th slot is
 * within 1 ns of the exact sum of the first k slots' times, whatever the
 * fractions of a nanosecond that each size leaves over.
 */
class EthernetExactRateEveryFrameTestCase : public TestCase
{
  public:
    /// \param rate the link's rate \param frames how many frames to send
    EthernetExactRateEveryFrameTestCase(const std::string& rate, uint32_t frames)
        : TestCase("Ethernet: " + std::to_string(frames) + " frames of mixed sizes at " + rate +
                   " end on time to the nanosecond, each"),
          m_rate(rate),
          m_frames(frames)
    {
    }

  private:
    /// Payload sizes, sent in turn.
    static constexpr uint32_t PAYLOADS[] = {0, 1000, 46, 1500, 333, 64, 777, 1};

    void DoRun() override
    {
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(m_rate));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devs = eth.Install(nodes);
        m_device = DynamicCast<EthernetNetDevice>(devs.Get(0));
        m_bps = DataRate(m_rate).GetBitRate();
        m_to = devs.Get(1)->GetAddress();
        devs.Get(1)->SetReceiveCallback(
            MakeCallback(&EthernetExactRateEveryFrameTestCase::Rx, this));
        m_device->TraceConnectWithoutContext(
            "PhyTxEnd",
            MakeCallback(&EthernetExactRateEveryFrameTestCase::OnTxEnd, this));
        Simulator::Schedule(Seconds(0), &EthernetExactRateEveryFrameTestCase::SendOne, this);
        Simulator::Schedule(Seconds(0), &EthernetExactRateEveryFrameTestCase::SendOne, this);
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_EXPECT_MSG_EQ(m_ended, m_frames, "every frame sent");
        NS_TEST_EXPECT_MSG_EQ(m_received, m_frames, "every frame received");
        NS_TEST_EXPECT_MSG_EQ(m_late, 0, "slots that ended off the exact time by 1 ns or more");
        NS_TEST_EXPECT_MSG_GT(m_inside, m_frames / 2, "most slots end inside a nanosecond");
    }

    /// Queues one more frame, until all are sent.
    void SendOne()
    {
        if (m_sent < m_frames)
        {
            const uint32_t payload = PAYLOADS[m_sent % std::size(PAYLOADS)];
            m_sizes.push_back(EthernetNetDevice::HEADER_SIZE + payload +
                              EthernetNetDevice::FCS_SIZE);
            ++m_sent;
            m_device->Send(Create<Packet>(payload), m_to, TEST_ETHERTYPE);
        }
    }

    /// Receive callback: counts every frame.
    /// \return true
    bool Rx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
    {
        ++m_received;
        return true;
    }

    /// A frame's slot ended: compare with the exact end of its slot.
    void OnTxEnd(Ptr<const Packet>)
    {
        // Exact end, ns: m_numerator / bps (bits x 10^9 stays below 2^63 here).
        m_numerator += uint64_t(m_device->GetWireSize(m_sizes.front())) * 8 * 1000000000ULL;
        m_sizes.pop_front();
        ++m_ended;
        const uint64_t whole = m_numerator / m_bps;
        const bool fraction = m_numerator % m_bps != 0;
        const uint64_t now = Simulator::Now().GetNanoSeconds();
        // Within 1 ns of whole + fraction: whole, or whole + 1 if there is a fraction.
        m_late += !(now == whole || (fraction && now == whole + 1));
        m_inside += fraction;
        SendOne();
    }

    std::string m_rate;              //!< the link's rate
    uint32_t m_frames;               //!< frames to send
    uint64_t m_bps{0};               //!< the rate, bit/s
    uint32_t m_sent{0};              //!< frames queued so far
    uint32_t m_ended{0};             //!< frames whose slot ended
    uint32_t m_received{0};          //!< frames received
    uint32_t m_late{0};              //!< slots that ended 1 ns or more off
    uint32_t m_inside{0};            //!< slots whose exact end is inside a nanosecond
    uint64_t m_numerator{0};         //!< exact end of the slots so far, ns x bps
    std::list<uint32_t> m_sizes;     //!< sizes of the frames queued, in order
    Address m_to;                    //!< the receiver
    Ptr<EthernetNetDevice> m_device; //!< the sender
};

/**
 * \ingroup drp-tests
 * Both directions at once, each at the single-direction time.
 */
class EthernetFullDuplexTestCase : public EthernetTestCaseBase
{
  public:
    EthernetFullDuplexTestCase()
        : EthernetTestCaseBase("Ethernet: full duplex")
    {
    }

  private:
    void DoRun() override
    {
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(RATE));
        eth.SetChannelAttribute("Delay", TimeValue(NanoSeconds(100)));
        NetDeviceContainer devs = MakeLink(eth);
        ScheduleSend(Seconds(0), devs.Get(0), 1000, devs.Get(1)->GetAddress());
        ScheduleSend(Seconds(0), devs.Get(1), 1000, devs.Get(0)->GetAddress());
        Simulator::Run();

        const Time expected = NanoSeconds((8 + 1018) * 8 + 100);
        NS_TEST_ASSERT_MSG_EQ(m_arrivals.size(), 2, "one frame each way");
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[0].time, expected, "first direction");
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[1].time, expected, "second direction");
        NS_TEST_EXPECT_MSG_NE(m_arrivals[0].device, m_arrivals[1].device, "two receivers");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * An ns-3 error model on the receiver drops exactly the chosen frame.
 */
class EthernetErrorModelTestCase : public EthernetTestCaseBase
{
  public:
    EthernetErrorModelTestCase()
        : EthernetTestCaseBase("Ethernet: receive error model")
    {
    }

  private:
    void DoRun() override
    {
        EthernetHelper eth;
        NetDeviceContainer devs = MakeLink(eth);
        Ptr<EthernetNetDevice> b = DynamicCast<EthernetNetDevice>(devs.Get(1));

        std::vector<Ptr<Packet>> packets;
        for (int i = 0; i < 3; ++i)
        {
            packets.push_back(Create<Packet>(500));
        }
        Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
        em->SetList({static_cast<uint32_t>(packets[1]->GetUid())});
        b->SetAttribute("ReceiveErrorModel", PointerValue(em));
        uint32_t drops = 0;
        b->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&CountPacket, &drops));

        for (const auto& p : packets)
        {
            Simulator::ScheduleWithContext(devs.Get(0)->GetNode()->GetId(),
                                           Seconds(0),
                                           &SendPacket,
                                           devs.Get(0),
                                           p,
                                           b->GetAddress());
        }
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_arrivals.size(), 2, "two frames arrive");
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[0].uid, packets[0]->GetUid(), "first arrives");
        NS_TEST_EXPECT_MSG_EQ(m_arrivals[1].uid, packets[2]->GetUid(), "third arrives");
        NS_TEST_EXPECT_MSG_EQ(drops, 1, "PhyRxDrop once");
        NS_TEST_EXPECT_MSG_EQ(b->GetReceiveErrorDrops(), 1, "drop counter");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Sends refused: payload over the MTU, full transmit queue.
 */
class EthernetDropTestCase : public EthernetTestCaseBase
{
  public:
    EthernetDropTestCase()
        : EthernetTestCaseBase("Ethernet: MTU and queue drops")
    {
    }

  private:
    /**
     * Send at time 0: one over-MTU packet, then four small ones.
     * \param dev the sender
     * \param dest the destination
     */
    void SendBurst(Ptr<NetDevice> dev, Address dest)
    {
        m_results.push_back(dev->Send(Create<Packet>(1501), dest, TEST_ETHERTYPE));
        for (int i = 0; i < 4; ++i)
        {
            m_results.push_back(dev->Send(Create<Packet>(100), dest, TEST_ETHERTYPE));
        }
        m_stoppedWhenFull = dev->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0)->IsStopped();
    }

    void DoRun() override
    {
        EthernetHelper eth;
        eth.SetQueue("ns3::DropTailQueue", "MaxSize", QueueSizeValue(QueueSize("2p")));
        NetDeviceContainer devs = MakeLink(eth);
        Ptr<EthernetNetDevice> a = DynamicCast<EthernetNetDevice>(devs.Get(0));
        NS_TEST_ASSERT_MSG_EQ(a->GetMtu(), 1500, "default MTU");
        NS_TEST_EXPECT_MSG_EQ(a->SetMtu(9217), false, "MTU above range");
        NS_TEST_EXPECT_MSG_EQ(a->SetMtu(45), false, "MTU below range");
        NS_TEST_EXPECT_MSG_EQ(a->GetMtu(), 1500, "MTU unchanged");
        NS_TEST_EXPECT_MSG_EQ(a->IsLinkUp(), true, "link up");
        NS_TEST_EXPECT_MSG_EQ(a->SupportsSendFrom(), true, "SendFrom");

        uint32_t macTxDrops = 0;
        uint32_t txBegins = 0;
        a->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&CountPacket, &macTxDrops));
        a->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&CountPacket, &txBegins));
        Simulator::ScheduleWithContext(a->GetNode()->GetId(),
                                       Seconds(0),
                                       &EthernetDropTestCase::SendBurst,
                                       this,
                                       devs.Get(0),
                                       devs.Get(1)->GetAddress());
        Simulator::Run();

        const std::vector<bool> expected{false, true, true, true, false};
        NS_TEST_ASSERT_MSG_EQ(m_results.size(), expected.size(), "five sends");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_results[i], expected[i], "Send result " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(macTxDrops, 2, "over-MTU and queue-full drops");
        NS_TEST_EXPECT_MSG_EQ(txBegins, 3, "one in the transmitter, two queued");
        NS_TEST_EXPECT_MSG_EQ(m_arrivals.size(), 3, "three arrive");
        NS_TEST_EXPECT_MSG_EQ(m_stoppedWhenFull, true, "flow control stops the full queue");
        NS_TEST_EXPECT_MSG_EQ(a->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0)->IsStopped(),
                              false,
                              "and wakes it when it drains");
        Simulator::Destroy();
    }

    std::vector<bool> m_results;   //!< Send() return values
    bool m_stoppedWhenFull{false}; //!< the device queue was stopped after the burst
};

/**
 * \ingroup drp-tests
 * Base of the IPv4 cases: counts ping replies.
 */
class EthernetPingTestCaseBase : public TestCase
{
  protected:
    /// \param name the test case name
    explicit EthernetPingTestCaseBase(std::string name)
        : TestCase(name)
    {
    }

    /**
     * Ping from one node to an address at 1, 2, 3 and 4 s.
     * \param from the pinging node
     * \param to the address pinged
     */
    void StartPing(Ptr<Node> from, Ipv4Address to)
    {
        ApplicationContainer apps =
            drp::InstallPing(from,
                             to,
                             Seconds(1),
                             56,
                             MakeCallback(&EthernetPingTestCaseBase::Rtt, this));
        apps.Start(Seconds(1));
        apps.Stop(Seconds(4.5));
    }

    /// \param rtt the round-trip time of one reply
    void Rtt(Time rtt)
    {
        m_rtts.push_back(rtt);
    }

    std::vector<Time> m_rtts; //!< one per reply
};

/**
 * \ingroup drp-tests
 * IPv4 and ARP over one link.
 */
class EthernetIpv4TestCase : public EthernetPingTestCaseBase
{
  public:
    EthernetIpv4TestCase()
        : EthernetPingTestCaseBase("Ethernet: IPv4 ping with ARP")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(RATE));
        NetDeviceContainer devs = eth.Install(nodes);
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addresses.Assign(devs);
        StartPing(nodes.Get(0), ifs.GetAddress(1));
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_rtts.size(), 4, "four replies");
        // 56-byte echo: IP 84 bytes, frame 102, (8 + 102) * 8 ns each way.
        for (std::size_t i = 1; i < m_rtts.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_rtts[i], NanoSeconds(2 * 110 * 8), "RTT once ARP is done");
        }
        NS_TEST_EXPECT_MSG_GT(m_rtts[0], m_rtts[1], "the first ping waits for ARP");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Two switches (BridgeNetDevice over Ethernet ports) with two hosts each.
 */
class EthernetSwitchTestCase : public EthernetPingTestCaseBase
{
  public:
    /// \param learning whether the bridges learn (otherwise they flood every frame)
    explicit EthernetSwitchTestCase(bool learning)
        : EthernetPingTestCaseBase(learning ? "Ethernet: two learning switches"
                                            : "Ethernet: two flooding switches"),
          m_learning(learning)
    {
    }

  private:
    /**
     * A frame arrived at the bystander host through MacRx.
     * \param frame the frame
     */
    void BystanderMacRx(Ptr<const Packet> frame)
    {
        ++m_macRx;
        EthernetHeader header;
        frame->PeekHeader(header);
        if (!header.GetDestination().IsGroup() && header.GetDestination() != m_bystander)
        {
            ++m_macRxOtherHost;
        }
    }

    /**
     * A frame arrived at (or left) the bystander host's port.
     * \param frame the frame
     */
    void BystanderSniff(Ptr<const Packet> frame)
    {
        EthernetHeader header;
        frame->PeekHeader(header);
        if (header.GetSource() != m_bystander && !header.GetDestination().IsGroup() &&
            header.GetDestination() != m_bystander)
        {
            ++m_sniffedOtherHost;
        }
    }

    /// An IPv4 packet reached the bystander's IP layer (the Ipv4L3Protocol Rx trace).
    void BystanderIpRx(Ptr<const Packet>, Ptr<Ipv4>, uint32_t)
    {
        ++m_ipRx;
    }

    void DoRun() override
    {
        NodeContainer hosts;
        hosts.Create(4);
        NodeContainer switches;
        switches.Create(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(RATE));
        NetDeviceContainer hostDevs;
        NetDeviceContainer ports[2];
        for (uint32_t i = 0; i < 4; ++i)
        {
            NetDeviceContainer link = eth.Install(hosts.Get(i), switches.Get(i / 2));
            hostDevs.Add(link.Get(0));
            ports[i / 2].Add(link.Get(1));
        }
        NetDeviceContainer trunk = eth.Install(switches);
        ports[0].Add(trunk.Get(0));
        ports[1].Add(trunk.Get(1));
        BridgeHelper bridge;
        bridge.SetDeviceAttribute("EnableLearning", BooleanValue(m_learning));
        bridge.Install(switches.Get(0), ports[0]);
        bridge.Install(switches.Get(1), ports[1]);

        InternetStackHelper stack;
        stack.Install(hosts);
        Ipv4AddressHelper addresses("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addresses.Assign(hostDevs);

        // Host 1 shares switch A with the pinging host 0.
        Ptr<NetDevice> bystander = hostDevs.Get(1);
        m_bystander = Mac48Address::ConvertFrom(bystander->GetAddress());
        bystander->TraceConnectWithoutContext(
            "MacRx",
            MakeCallback(&EthernetSwitchTestCase::BystanderMacRx, this));
        bystander->TraceConnectWithoutContext(
            "PromiscSniffer",
            MakeCallback(&EthernetSwitchTestCase::BystanderSniff, this));
        hosts.Get(1)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeCallback(&EthernetSwitchTestCase::BystanderIpRx, this));

        StartPing(hosts.Get(0), ifs.GetAddress(2));
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_rtts.size(), 4, "four replies across two switches");
        // Store and forward over three links each way, 880 ns per link.
        for (std::size_t i = 1; i < m_rtts.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_rtts[i], NanoSeconds(2 * 3 * 110 * 8), "RTT");
        }
        // ns-3's ARP does not learn from requests: host 0 and host 2 both ask.
        NS_TEST_EXPECT_MSG_EQ(m_macRx, 2, "the bystander gets the two ARP broadcasts");
        NS_TEST_EXPECT_MSG_EQ(m_macRxOtherHost, 0, "MacRx never sees OTHERHOST frames");
        NS_TEST_EXPECT_MSG_EQ(m_ipRx, 0, "no IPv4 packet reaches the bystander's stack");
        if (m_learning)
        {
            NS_TEST_EXPECT_MSG_EQ(m_sniffedOtherHost, 0, "learning switches do not flood");
        }
        else
        {
            // Flooded to the bystander: two ARP replies, four echo requests
            // and four echo replies.
            NS_TEST_EXPECT_MSG_EQ(m_sniffedOtherHost, 10, "flooded frames arrive");
        }
        Simulator::Destroy();
    }

    bool m_learning;                //!< bridges learn addresses
    Mac48Address m_bystander;       //!< the bystander host's address
    uint32_t m_macRx{0};            //!< MacRx at the bystander
    uint32_t m_macRxOtherHost{0};   //!< of which not for the bystander
    uint32_t m_sniffedOtherHost{0}; //!< frames for others at the bystander's port
    uint32_t m_ipRx{0};             //!< IPv4 packets at the bystander
};

/**
 * \ingroup drp-tests
 * ns-3's FlowMonitor over the module's devices: a UDP flow from host 0 to
 * host 1 through one switch, either a learning BridgeNetDevice over
 * EthernetNetDevice ports or a star fabric (RNICs on an
 * EcmpSwitchNetDevice). The devices keep the packet, and so the byte tag
 * Ipv4FlowProbe puts on it, from one IP layer to the other, so the monitor
 * pairs every packet sent with its arrival. Pings run beside the flow:
 * Ipv4FlowClassifier classifies TCP and UDP only, so ICMP is no flow. With
 * one frame dropped by a ListErrorModel at host 1's device (below the IP
 * layer, where no probe sees it) the monitor counts that packet as lost once
 * it is older than MaxPerHopDelay.
 */
class EthernetFlowMonitorTestCase : public TestCase
{
  public:
    /**
     * \param fabric true: a star fabric (RNICs, EcmpSwitchNetDevice); false:
     *        EthernetNetDevice hosts on a BridgeNetDevice
     * \param dropOne drop the frame of the fourth UDP packet at host 1
     */
    EthernetFlowMonitorTestCase(bool fabric, bool dropOne)
        : TestCase(std::string("Ethernet: FlowMonitor counts a UDP flow across ") +
                   (fabric ? "an ECMP switch between RNICs" : "a learning switch") +
                   (dropOne ? ", one frame lost" : "")),
          m_fabric(fabric),
          m_dropOne(dropOne)
    {
    }

  private:
    /// UDP packets the flow sends.
    static constexpr uint32_t PACKETS = 10;
    /// UDP payload of each, in bytes.
    static constexpr uint32_t PAYLOAD = 512;
    /// The UDP packet (0-based) whose frame host 1 drops.
    static constexpr uint32_t DROPPED = 3;

    /**
     * Host 0's IP layer sent a packet (Ipv4L3Protocol trace source Tx):
     * marks the frame of the DROPPED-th UDP packet for the error model.
     * \param packet the packet, IP header included
     */
    void IpTx(Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
    {
        Ipv4Header header;
        packet->PeekHeader(header);
        if (header.GetProtocol() == 17 && m_udpSent++ == DROPPED && m_errorModel)
        {
            m_errorModel->SetList({static_cast<uint32_t>(packet->GetUid())});
        }
    }

    void DoRun() override
    {
        NodeContainer hosts;
        NetDeviceContainer hostDevs;
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(RATE));
        RnicHelper rnic;
        std::unique_ptr<StarFabricHelper> star;
        if (m_fabric)
        {
            star = std::make_unique<StarFabricHelper>(2, rnic, eth);
            hosts = star->GetHosts();
            hostDevs = star->GetRnics();
        }
        else
        {
            hosts.Create(2);
            NodeContainer sw;
            sw.Create(1);
            NetDeviceContainer ports;
            for (uint32_t i = 0; i < 2; ++i)
            {
                NetDeviceContainer link = eth.Install(hosts.Get(i), sw.Get(0));
                hostDevs.Add(link.Get(0));
                ports.Add(link.Get(1));
            }
            BridgeHelper bridge;
            bridge.Install(sw.Get(0), ports);
        }
        InternetStackHelper stack;
        stack.Install(hosts);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addresses.Assign(hostDevs);

        if (m_dropOne)
        {
            m_errorModel = CreateObject<ListErrorModel>();
            hostDevs.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(m_errorModel));
        }
        hosts.Get(0)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Tx",
            MakeCallback(&EthernetFlowMonitorTestCase::IpTx, this));

        const uint16_t port = 9;
        UdpServerHelper serverHelper(port);
        ApplicationContainer server = serverHelper.Install(hosts.Get(1));
        server.Start(Seconds(0));
        // ns-3 delays an ARP request by up to 10 ms (ArpL3Protocol::RequestJitter)
        // and holds at most 3 packets meanwhile: 20 ms apart, none is lost there.
        UdpClientHelper clientHelper(ifs.GetAddress(1), port);
        clientHelper.SetAttribute("MaxPackets", UintegerValue(PACKETS));
        clientHelper.SetAttribute("Interval", TimeValue(MilliSeconds(20)));
        clientHelper.SetAttribute("PacketSize", UintegerValue(PAYLOAD));
        ApplicationContainer client = clientHelper.Install(hosts.Get(0));
        client.Start(Seconds(1));

        uint32_t replies = 0;
        ApplicationContainer ping =
            drp::InstallPing(hosts.Get(0),
                             ifs.GetAddress(1),
                             MilliSeconds(50),
                             56,
                             drp::FunctorCallback<void, Time>([&replies](Time) { ++replies; }));
        ping.Start(Seconds(1.01));
        ping.Stop(Seconds(1.19));

        FlowMonitorHelper flowmon;
        flowmon.SetMonitorAttribute("MaxPerHopDelay", TimeValue(MilliSeconds(100)));
        Ptr<FlowMonitor> monitor = flowmon.Install(hosts);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        monitor->CheckForLostPackets();

        const uint32_t received = m_dropOne ? PACKETS - 1 : PACKETS;
        NS_TEST_EXPECT_MSG_EQ(m_udpSent, PACKETS, "the client sent every packet");
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<UdpServer>(server.Get(0))->GetReceived(),
                              received,
                              "the server's count");
        NS_TEST_EXPECT_MSG_EQ(replies, 4, "the pings were answered");
        NS_TEST_EXPECT_MSG_EQ(
            DynamicCast<EthernetNetDevice>(hostDevs.Get(1))->GetReceiveErrorDrops(),
            (m_dropOne ? 1 : 0),
            "frames the error model dropped");

        const FlowMonitor::FlowStatsContainer stats = monitor->GetFlowStats();
        NS_TEST_ASSERT_MSG_EQ(stats.size(), 1, "one flow: the UDP one (ICMP is no flow)");
        const auto& [flowId, flow] = *stats.begin();
        Ptr<Ipv4FlowClassifier> classifier =
            DynamicCast<Ipv4FlowClassifier>(flowmon.GetClassifier());
        const Ipv4FlowClassifier::FiveTuple tuple = classifier->FindFlow(flowId);
        NS_TEST_EXPECT_MSG_EQ(tuple.sourceAddress, ifs.GetAddress(0), "from host 0");
        NS_TEST_EXPECT_MSG_EQ(tuple.destinationAddress, ifs.GetAddress(1), "to host 1");
        NS_TEST_EXPECT_MSG_EQ(uint32_t(tuple.protocol), 17, "UDP");
        NS_TEST_EXPECT_MSG_EQ(tuple.destinationPort, port, "to the server's port");

        const uint32_t ipBytes = PAYLOAD + 8 + 20;
        NS_TEST_EXPECT_MSG_EQ(flow.txPackets, PACKETS, "txPackets");
        NS_TEST_EXPECT_MSG_EQ(flow.txBytes, PACKETS * ipBytes, "txBytes");
        NS_TEST_EXPECT_MSG_EQ(flow.rxPackets, received, "rxPackets");
        NS_TEST_EXPECT_MSG_EQ(flow.rxBytes, received * ipBytes, "rxBytes");
        NS_TEST_EXPECT_MSG_EQ(flow.lostPackets, PACKETS - received, "lostPackets");
        NS_TEST_EXPECT_MSG_EQ(flow.timesForwarded, 0, "the switch forwards below IP");
        // A device's error model is below every probe: a loss, not a drop.
        NS_TEST_EXPECT_MSG_EQ(flow.packetsDropped.size(), 0, "no drop reported");
        // Two links, store and forward: (8 + 14 + 540 + 4) bytes at 1 Gb/s
        // each (the RNICs add their PCIe crossings).
        const Time twoLinks = NanoSeconds(2 * (8 + 14 + ipBytes + 4) * 8);
        if (m_fabric)
        {
            NS_TEST_EXPECT_MSG_GT(flow.lastDelay, twoLinks, "the last packet's delay");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(flow.lastDelay, twoLinks, "the last packet's delay");
        }
        Simulator::Destroy();
    }

    bool m_fabric;                    //!< star fabric, or a bridge
    bool m_dropOne;                   //!< drop one UDP frame at host 1
    Ptr<ListErrorModel> m_errorModel; //!< host 1's error model (m_dropOne)
    uint32_t m_udpSent{0};            //!< UDP packets host 0's IP layer sent
};

/**
 * \ingroup drp-tests
 * Pcap output: Ethernet link type, one record per frame, short frames padded
 * to 64 bytes.
 */
class EthernetPcapTestCase : public TestCase
{
  public:
    EthernetPcapTestCase()
        : TestCase("Ethernet: pcap")
    {
    }

  private:
    void DoRun() override
    {
        const std::string txFile = CreateTempDirFilename("ethernet-tx.pcap");
        const std::string rxFile = CreateTempDirFilename("ethernet-rx.pcap");
        const std::string promiscFile = CreateTempDirFilename("ethernet-promisc.pcap");
        {
            NodeContainer nodes;
            nodes.Create(2);
            EthernetHelper eth;
            NetDeviceContainer devs = eth.Install(nodes);
            eth.EnablePcap(txFile, devs.Get(0), false, true);
            eth.EnablePcap(rxFile, devs.Get(1), false, true);
            eth.EnablePcap(promiscFile, devs.Get(1), true, true);
            const Address b = devs.Get(1)->GetAddress();
            ScheduleSend(Seconds(0), devs.Get(0), 1000, b);
            ScheduleSend(Seconds(0), devs.Get(0), 10, b);
            ScheduleSend(Seconds(0), devs.Get(0), 1500, b);
            // Not for b: only its promiscuous sniffer sees it.
            ScheduleSend(Seconds(0), devs.Get(0), 100, Mac48Address("02:00:00:00:00:99"));
            Simulator::Run();
            Simulator::Destroy();
        } // the devices, and with them the pcap files, are closed here

        uint32_t linkType = 0;
        std::vector<uint32_t> tx = ReadPcap(txFile, linkType);
        NS_TEST_EXPECT_MSG_EQ(linkType, 1, "DLT_EN10MB");
        const std::vector<uint32_t> expectedTx{1018, 64, 1518, 118};
        NS_TEST_ASSERT_MSG_EQ(tx.size(), expectedTx.size(), "every frame sent");
        for (std::size_t i = 0; i < tx.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(tx[i], expectedTx[i], "frame length " << i);
        }
        std::vector<uint32_t> rx = ReadPcap(rxFile, linkType);
        NS_TEST_EXPECT_MSG_EQ(linkType, 1, "DLT_EN10MB");
        NS_TEST_EXPECT_MSG_EQ(rx.size(), 3, "frames for the receiver");
        std::vector<uint32_t> promisc = ReadPcap(promiscFile, linkType);
        NS_TEST_EXPECT_MSG_EQ(promisc.size(), 4, "every frame on the wire");
    }
};

/**
 * \ingroup drp-tests
 * A device that claims one EtherType, as an RNIC does.
 */
class EthernetTestClaimingDevice : public EthernetNetDevice
{
  public:
    /// The EtherType this device consumes itself.
    static constexpr uint16_t CLAIMED = 0x88B6;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DrpTestClaimingEthernetDevice")
                                .SetParent<EthernetNetDevice>()
                                .SetGroupName("Drp")
                                .AddConstructor<EthernetTestClaimingDevice>();
        return tid;
    }

    uint32_t m_claimed{0}; //!< frames consumed by the subclass
    uint32_t m_idle{0};    //!< pulls that found nothing to send

  protected:
    void DeliverUp(Ptr<Packet> packet,
                   uint16_t protocol,
                   Mac48Address from,
                   Mac48Address to,
                   PacketType type) override
    {
        if (protocol == CLAIMED && type == PACKET_HOST)
        {
            ++m_claimed;
            return;
        }
        EthernetNetDevice::DeliverUp(packet, protocol, from, to, type);
    }

    Ptr<Packet> DequeueFrame() override
    {
        Ptr<Packet> frame = EthernetNetDevice::DequeueFrame();
        if (!frame)
        {
            ++m_idle; // the transmitter is free and nothing waits
        }
        return frame;
    }
};

/**
 * \ingroup drp-tests
 * A helper that puts a subclass device at the host end of a link.
 */
class EthernetTestMixedHelper : public EthernetHelper
{
  public:
    /**
     * \param host gets an EthernetTestClaimingDevice
     * \param sw gets the default device
     * \return the two devices, the host's first
     */
    NetDeviceContainer InstallHostLink(Ptr<Node> host, Ptr<Node> sw)
    {
        Ptr<EthernetNetDevice> nic = CreateDeviceOfType(EthernetTestClaimingDevice::GetTypeId());
        return Connect(host, nic, sw, CreateDevice(sw));
    }
};

/**
 * \ingroup drp-tests
 * The subclass hooks: DeliverUp(), DequeueFrame(), mixed links.
 */
class EthernetSubclassTestCase : public TestCase
{
  public:
    EthernetSubclassTestCase()
        : TestCase("Ethernet: subclass hooks and mixed links")
    {
    }

  private:
    /**
     * Count what reaches the normal receive callback.
     * \return true
     */
    bool Rx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
    {
        ++m_rx;
        return true;
    }

    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        EthernetTestMixedHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        NetDeviceContainer devs = eth.InstallHostLink(nodes.Get(0), nodes.Get(1));
        Ptr<EthernetTestClaimingDevice> nic = DynamicCast<EthernetTestClaimingDevice>(devs.Get(0));
        NS_TEST_ASSERT_MSG_NE(nic, nullptr, "the host end is the subclass");
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<EthernetTestClaimingDevice>(devs.Get(1)),
                              nullptr,
                              "the other end is a plain port");
        NS_TEST_EXPECT_MSG_EQ(nic->GetDataRate(), DataRate("10Gbps"), "device attributes apply");
        NS_TEST_EXPECT_MSG_EQ(nic->GetNode(), nodes.Get(0), "on the host");
        NS_TEST_EXPECT_MSG_EQ(nic->GetChannel(), devs.Get(1)->GetChannel(), "one cable");
        nic->SetReceiveCallback(MakeCallback(&EthernetSubclassTestCase::Rx, this));
        uint32_t macRx = 0;
        nic->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&CountPacket, &macRx));

        Ptr<NetDevice> sw = devs.Get(1);
        const Address host = nic->GetAddress();
        drp::ScheduleWithContext(sw->GetNode()->GetId(), Seconds(0), [sw, host]() {
            sw->Send(Create<Packet>(100), host, EthernetTestClaimingDevice::CLAIMED);
            sw->Send(Create<Packet>(100), host, TEST_ETHERTYPE);
        });
        ScheduleSend(MicroSeconds(10), nic, 100, sw->GetAddress());
        ScheduleSend(MicroSeconds(10), nic, 100, sw->GetAddress());
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(nic->m_claimed, 1, "the subclass consumed its EtherType");
        NS_TEST_EXPECT_MSG_EQ(m_rx, 1, "the rest went up the normal path");
        NS_TEST_EXPECT_MSG_EQ(macRx, 2, "MacRx fires for both");
        NS_TEST_EXPECT_MSG_EQ(nic->m_idle, 1, "idle once, after the second frame");
        Simulator::Destroy();
    }

    uint32_t m_rx{0}; //!< frames at the normal receive callback
};

/**
 * \ingroup drp-tests
 * A cable whose far end gets each frame as from another MPI rank: its
 * arrival (EthernetArrivalEvent) is scheduled only at its arrival time, as
 * EthernetRemoteChannel::Deliver() does, not when it left. The same times
 * as EthernetChannel; only the moment the arrival is scheduled differs.
 */
class EthernetTestLateChannel : public EthernetChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DrpTestLateEthernetChannel")
                                .SetParent<EthernetChannel>()
                                .SetGroupName("Drp")
                                .AddConstructor<EthernetTestLateChannel>();
        return tid;
    }

    bool TransmitStart(Ptr<const Packet> frame, Ptr<EthernetNetDevice> src, Time txTime) override
    {
        Ptr<EthernetNetDevice> dst = GetPeer(src);
        const Time transit = txTime + GetDelay();
        NotifyTransit(frame, src, dst, txTime, transit);
        Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                       transit,
                                       &EthernetArrivalEvent::Schedule,
                                       dst,
                                       frame->Copy(),
                                       Seconds(0));
        return true;
    }
};

/**
 * \ingroup drp-tests
 * ArrivalsLastScheduler: at one time stamp, the other events in the order
 * scheduled, then the frame arrivals by node and port, each followed by the
 * events it schedules for that time; EventIds still tell what has run.
 * Against MapScheduler, which runs them all in the order scheduled.
 */
class EthernetArrivalsLastTestCase : public TestCase
{
  public:
    EthernetArrivalsLastTestCase()
        : TestCase("Ethernet: ArrivalsLastScheduler orders same-time arrivals by port, after "
                   "other events, and EventIds stay right")
    {
    }

  private:
    /**
     * Run the set-up: hosts A and B each send one frame to port 0 and port 1
     * of node H at time 0 (B's send scheduled first), so that both arrive at
     * the same time t; event X is scheduled for t before the sends, event Y
     * after the frames left.
     * \param scheduler the scheduler's TypeId name
     * \param at t (Seconds(0): only find it)
     * \return the log: "X", "Y", "Z" (scheduled by the first arrival for
     *         now), "port0", "port1"
     */
    std::vector<std::string> Run(std::string scheduler, Time at)
    {
        m_log.clear();
        m_arrivals = 0;
        m_x = EventId();
        m_z = EventId();
        m_arrivalsLast = scheduler == "ns3::ArrivalsLastScheduler";
        ObjectFactory factory;
        factory.SetTypeId(scheduler);
        Simulator::SetScheduler(factory);
        NodeContainer nodes;
        nodes.Create(3); // H, A, B
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(RATE));
        NetDeviceContainer fromA = eth.Install(nodes.Get(1), nodes.Get(0)); // H's port 0
        NetDeviceContainer fromB = eth.Install(nodes.Get(2), nodes.Get(0)); // H's port 1
        for (uint32_t port = 0; port < 2; ++port)
        {
            Ptr<NetDevice> dev = nodes.Get(0)->GetDevice(port);
            dev->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeCallback(&EthernetArrivalsLastTestCase::Arrived, this)
                    .Bind(std::string("port") + std::to_string(port)));
        }
        if (at.IsStrictlyPositive())
        {
            m_x = Simulator::Schedule(at, &EthernetArrivalsLastTestCase::Log, this, "X");
        }
        ScheduleSend(Seconds(0), fromB.Get(0), 100, fromB.Get(1)->GetAddress());
        ScheduleSend(Seconds(0), fromA.Get(0), 100, fromA.Get(1)->GetAddress());
        if (at.IsStrictlyPositive())
        {
            // After the frames left: Y's uid is larger than their arrivals'.
            drp::Schedule(NanoSeconds(1), [this, at]() {
                m_y = Simulator::Schedule(at - NanoSeconds(1),
                                          &EthernetArrivalsLastTestCase::Log,
                                          this,
                                          "Y");
            });
            m_later = Simulator::Schedule(at + NanoSeconds(5),
                                          &EthernetArrivalsLastTestCase::Log,
                                          this,
                                          "later");
        }
        Simulator::Run();
        Simulator::Destroy();
        return m_log;
    }

    /**
     * A frame's last bit arrived at one of H's ports.
     * \param port "port0" or "port1"
     */
    void Arrived(std::string port, Ptr<const Packet>)
    {
        m_arrivalTime = Simulator::Now();
        if (m_arrivals++ == 0 && m_x.IsExpired() && m_x != EventId())
        {
            // The first arrival at t: X has run; Y has run before it with
            // ArrivalsLastScheduler (whose uid is larger than the
            // arrival's own), not yet with MapScheduler.
            NS_TEST_EXPECT_MSG_EQ(m_y.IsExpired(), m_arrivalsLast, port << ": Y run");
            m_z = Simulator::ScheduleNow(&EthernetArrivalsLastTestCase::Log, this, "Z");
            NS_TEST_EXPECT_MSG_EQ(m_z.IsExpired(), false, port << ": Z pending");
            NS_TEST_EXPECT_MSG_EQ(m_later.IsExpired(), false, port << ": a later event pending");
            Simulator::Cancel(m_later);
        }
        else if (m_z != EventId())
        {
            // The second: Z ran before it with ArrivalsLastScheduler.
            NS_TEST_EXPECT_MSG_EQ(m_z.IsExpired(), m_arrivalsLast, port << ": Z run");
        }
        m_log.push_back(port);
    }

    /**
     * Log an event.
     * \param name its name
     */
    void Log(std::string name)
    {
        m_log.push_back(name);
    }

    void DoRun() override
    {
        // Find t, the time both frames arrive.
        std::vector<std::string> found = Run("ns3::MapScheduler", Seconds(0));
        NS_TEST_ASSERT_MSG_EQ(found.size(), 2, "two arrivals");
        const Time at = m_arrivalTime;
        NS_TEST_ASSERT_MSG_GT(at, Seconds(0), "t");

        const std::vector<std::string> map = Run("ns3::MapScheduler", at);
        // In the order scheduled: X, B's arrival, A's arrival, Y, and Z,
        // scheduled by the first arrival; the later event was cancelled.
        const std::vector<std::string> scheduled{"X", "port1", "port0", "Y", "Z"};
        NS_TEST_EXPECT_MSG_EQ(Join(map), Join(scheduled), "MapScheduler");

        const std::vector<std::string> arrivalsLast = Run("ns3::ArrivalsLastScheduler", at);
        // X and Y, then port 0 (it schedules Z, which runs before port 1);
        // "later" was cancelled.
        const std::vector<std::string> expected{"X", "Y", "port0", "Z", "port1"};
        NS_TEST_EXPECT_MSG_EQ(Join(arrivalsLast), Join(expected), "ArrivalsLastScheduler");
    }

    /**
     * \param log a log
     * \return its entries, space-separated
     */
    static std::string Join(const std::vector<std::string>& log)
    {
        std::string joined;
        for (const auto& entry : log)
        {
            joined += (joined.empty() ? "" : " ") + entry;
        }
        return joined;
    }

    std::vector<std::string> m_log; //!< what ran, in order
    Time m_arrivalTime;             //!< the last arrival's time
    EventId m_x;                    //!< scheduled for t before the frames left
    EventId m_y;                    //!< scheduled for t after they left
    EventId m_z;                    //!< scheduled by the first arrival for now
    EventId m_later;                //!< at t + 5 ns, cancelled by the first arrival
    uint32_t m_arrivals{0};         //!< arrivals at H so far
    bool m_arrivalsLast{false};     //!< this run uses ArrivalsLastScheduler
};

/**
 * \ingroup drp-tests
 * Two frames reach a switch (a learning BridgeNetDevice) in the same
 * nanosecond from hosts A and B, for host C. With MapScheduler the one
 * whose arrival was scheduled first leaves first, so a cable that
 * schedules arrivals late (EthernetTestLateChannel, as from another MPI
 * rank) changes the order C gets them in; with ArrivalsLastScheduler the
 * switch's port order decides, whichever cable is late.
 */
class EthernetArrivalsLastSwitchTestCase : public TestCase
{
  public:
    EthernetArrivalsLastSwitchTestCase()
        : TestCase("Ethernet: frames that meet at a switch leave in the same order whenever "
                   "their arrivals were scheduled, with ArrivalsLastScheduler")
    {
    }

  private:
    /**
     * \param scheduler the scheduler's TypeId name
     * \param lateCable which host's cable schedules arrivals late: -1 none,
     *        0 A's, 1 B's
     * \return the senders of the frames C got, in order ("A", "B")
     */
    std::string Run(std::string scheduler, int lateCable)
    {
        ObjectFactory factory;
        factory.SetTypeId(scheduler);
        Simulator::SetScheduler(factory);
        NodeContainer hosts;
        hosts.Create(3); // A, B, C
        Ptr<Node> sw = CreateObject<Node>();
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue(RATE));
        eth.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        NetDeviceContainer hostDevs;
        NetDeviceContainer ports;
        for (uint32_t i = 0; i < 3; ++i)
        {
            NetDeviceContainer link = eth.Install(hosts.Get(i), sw);
            if (int(i) == lateCable)
            {
                Ptr<EthernetChannel> late = CreateObject<EthernetTestLateChannel>();
                late->SetDelay(MicroSeconds(1));
                for (uint32_t end = 0; end < 2; ++end)
                {
                    DynamicCast<EthernetNetDevice>(link.Get(end))->Attach(late);
                }
            }
            hostDevs.Add(link.Get(0));
            ports.Add(link.Get(1));
        }
        BridgeHelper bridge;
        bridge.Install(sw, ports);
        m_senders.clear();
        m_a = hostDevs.Get(0)->GetAddress();
        hostDevs.Get(2)->SetReceiveCallback(
            MakeCallback(&EthernetArrivalsLastSwitchTestCase::ReceivedAtC, this));
        ScheduleSend(Seconds(0), hostDevs.Get(0), 100, hostDevs.Get(2)->GetAddress());
        ScheduleSend(Seconds(0), hostDevs.Get(1), 100, hostDevs.Get(2)->GetAddress());
        Simulator::Run();
        Simulator::Destroy();
        return m_senders;
    }

    /**
     * C's receive callback.
     * \param from the sender
     * \return true
     */
    bool ReceivedAtC(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address& from)
    {
        m_senders += (from == m_a) ? "A" : "B";
        return true;
    }

    void DoRun() override
    {
        // A's frame left first: its arrival was scheduled first.
        NS_TEST_EXPECT_MSG_EQ(Run("ns3::MapScheduler", -1), "AB", "map, every cable local");
        NS_TEST_EXPECT_MSG_EQ(Run("ns3::MapScheduler", 0), "BA", "map, A's cable late");
        for (int late : {-1, 0, 1})
        {
            NS_TEST_EXPECT_MSG_EQ(Run("ns3::ArrivalsLastScheduler", late),
                                  "AB",
                                  "arrivals last, late cable " << late << ": port 0 first");
        }
    }

    std::string m_senders; //!< who sent the frames C got, in order
    Address m_a;           //!< A's address
};

/**
 * \ingroup drp-tests
 * The full-duplex Ethernet test suite.
 */
class EthernetTestSuite : public TestSuite
{
  public:
    EthernetTestSuite()
        : TestSuite("drp-ethernet", DRP_TEST_UNIT)
    {
        AddTestCase(new EthernetTimingTestCase, DRP_TEST_QUICK);
        AddTestCase(new EthernetExactRateTestCase("40Gbps", 1000000), DRP_TEST_QUICK);
        AddTestCase(new EthernetExactRateTestCase("100Gbps", 1000000), DRP_TEST_QUICK);
        AddTestCase(new EthernetExactRateEveryFrameTestCase("40Gbps", 100000), DRP_TEST_QUICK);
        AddTestCase(new EthernetExactRateEveryFrameTestCase("100Gbps", 100000), DRP_TEST_QUICK);
        AddTestCase(new EthernetFullDuplexTestCase, DRP_TEST_QUICK);
        AddTestCase(new EthernetErrorModelTestCase, DRP_TEST_QUICK);
        AddTestCase(new EthernetDropTestCase, DRP_TEST_QUICK);
        AddTestCase(new EthernetIpv4TestCase, DRP_TEST_QUICK);
        AddTestCase(new EthernetSwitchTestCase(true), DRP_TEST_QUICK);
        AddTestCase(new EthernetSwitchTestCase(false), DRP_TEST_QUICK);
        AddTestCase(new EthernetFlowMonitorTestCase(false, false), DRP_TEST_QUICK);
        AddTestCase(new EthernetFlowMonitorTestCase(false, true), DRP_TEST_QUICK);
        AddTestCase(new EthernetFlowMonitorTestCase(true, false), DRP_TEST_QUICK);
        AddTestCase(new EthernetFlowMonitorTestCase(true, true), DRP_TEST_QUICK);
        AddTestCase(new EthernetPcapTestCase, DRP_TEST_QUICK);
        AddTestCase(new EthernetSubclassTestCase, DRP_TEST_QUICK);
        AddTestCase(new EthernetArrivalsLastTestCase, DRP_TEST_QUICK);
        AddTestCase(new EthernetArrivalsLastSwitchTestCase, DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static EthernetTestSuite g_ethernetTestSuite;
