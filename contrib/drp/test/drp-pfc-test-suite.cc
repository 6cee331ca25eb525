/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// HeaderSerializationTestCase (ns-3.37 on, drp-compat.h's copy before).
#define DRP_COMPAT_TESTS
#include "drp-test-bed.h"

#include "ns3/boolean.h"
#include "ns3/drp-compat.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/queue.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/star-fabric-helper.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// EtherType of the test's data frames (IEEE 802 local experimental EtherType 1).
constexpr uint16_t TEST_ETHERTYPE = 0x88B5;

/**
 * \param frame a whole frame
 * \return its EtherType
 */
uint16_t
EtherTypeOf(Ptr<const Packet> frame)
{
    EthernetHeader header(false);
    frame->PeekHeader(header);
    return header.GetLengthType();
}

/**
 * \param packet a packet
 * \return the priority of its SocketPriorityTag, or -1 without one
 */
int
PriorityOf(Ptr<const Packet> packet)
{
    SocketPriorityTag tag;
    return packet->PeekPacketTag(tag) ? int(tag.GetPriority()) : -1;
}

/**
 * Send a data frame in a class.
 * \param dev the sending device
 * \param cls its class (a SocketPriorityTag)
 * \param size its payload
 */
void
SendInClass(Ptr<NetDevice> dev, uint8_t cls, uint32_t size)
{
    Ptr<Packet> p = Create<Packet>(size);
    SocketPriorityTag tag;
    tag.SetPriority(cls);
    p->AddPacketTag(tag);
    dev->Send(p, Mac48Address("02:00:00:00:00:99"), TEST_ETHERTYPE);
}

/**
 * \param dev a device
 * \param at when (in the device's node's context)
 * \param cls the class
 * \param size the payload
 */
void
ScheduleSendInClass(Ptr<NetDevice> dev, Time at, uint8_t cls, uint32_t size)
{
    Simulator::ScheduleWithContext(dev->GetNode()->GetId(), at, &SendInClass, dev, cls, size);
}

/**
 * \param dev a PFC port
 * \param at when (in its node's context)
 * \param cls the class
 * \param quanta the pause time
 */
void
ScheduleSendPause(Ptr<EthernetNetDevice> dev, Time at, uint8_t cls, uint16_t quanta)
{
    Simulator::ScheduleWithContext(dev->GetNode()->GetId(),
                                   at,
                                   &EthernetNetDevice::SendPause,
                                   dev,
                                   cls,
                                   quanta);
}

/**
 * \param dev a PFC port
 * \param at when (in its node's context)
 * \param cls the class
 * \param paused XOFF (true) or XON
 */
void
ScheduleSetClassPaused(Ptr<EthernetNetDevice> dev, Time at, uint8_t cls, bool paused)
{
    Simulator::ScheduleWithContext(dev->GetNode()->GetId(),
                                   at,
                                   &EthernetNetDevice::SetClassPaused,
                                   dev,
                                   cls,
                                   paused);
}

/// The 64 bytes of the PFC frame of PfcFrameBytesTestCase, written from IEEE
/// 802.1Qbb 36.1.3 / IEEE 802.3 Annex 31D.
const uint8_t GOLDEN_FRAME[64] = {
    0x01,
    0x80,
    0xC2,
    0x00,
    0x00,
    0x01, // destination: the PFC multicast address
    0x02,
    0x00,
    0x00,
    0x00,
    0x00,
    0x02, // source: the sending port
    0x88,
    0x08, // EtherType: MAC Control
    0x01,
    0x01, // opcode: PFC
    0x00,
    0x28, // class-enable vector: classes 3 and 5
    0x00,
    0x00, // time[0]
    0x00,
    0x00, // time[1]
    0x00,
    0x00, // time[2]
    0x01,
    0x02, // time[3] = 258 quanta
    0x00,
    0x00, // time[4]
    0xFF,
    0xFF, // time[5] = 65535 quanta
    0x00,
    0x00, // time[6]
    0x00,
    0x00, // time[7]
    // 26 bytes of padding to the 46-byte minimum payload
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x52,
    0x14,
    0x09,
    0xFC, // FCS: CRC-32 of the 60 bytes above, as ns-3's EthernetTrailer stores it
};

/**
 * \ingroup drp-tests
 * Two ports with PFC on, on one 1 Gbps cable without delay; logs of what
 * each transmitter starts and of the pause traces.
 */
class PfcLinkTestCase : public TestCase
{
  protected:
    /// A frame the transmitter started.
    struct Start
    {
        int64_t ns;         //!< when, in ns
        uint16_t etherType; //!< its EtherType
        int cls;            //!< its class tag (-1: none)
    };

    /// A pause trace call.
    struct PauseEvent
    {
        int64_t ns;      //!< when, in ns
        unsigned cls;    //!< the class
        uint16_t quanta; //!< its time
    };

    /// \param name the test case name
    explicit PfcLinkTestCase(std::string name)
        : TestCase(name)
    {
    }

    /**
     * Makes the link; port a is m_dev[0], port b m_dev[1].
     * \param pfcA PfcEnabled of port a
     * \param pfcB PfcEnabled of port b
     */
    void MakeLink(bool pfcA = true, bool pfcB = true)
    {
        m_starts[0].clear();
        m_starts[1].clear();
        m_txPause.clear();
        m_rxPause.clear();
        m_handedUp.clear();
        NodeContainer nodes;
        nodes.Create(2);
        EthernetHelper eth;
        eth.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        NetDeviceContainer devs = eth.Install(nodes);
        for (uint32_t i = 0; i < 2; ++i)
        {
            m_dev[i] = DynamicCast<EthernetNetDevice>(devs.Get(i));
            m_dev[i]->SetAttribute("PfcEnabled", BooleanValue(i == 0 ? pfcA : pfcB));
            m_dev[i]->SetAddress(Mac48Address(i == 0 ? "02:00:00:00:00:01" : "02:00:00:00:00:02"));
            m_dev[i]->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeCallback(i == 0 ? &PfcLinkTestCase::StartA : &PfcLinkTestCase::StartB, this));
            m_dev[i]->TraceConnectWithoutContext("MacTxPause",
                                                 MakeCallback(&PfcLinkTestCase::TxPause, this));
            m_dev[i]->TraceConnectWithoutContext("MacRxPause",
                                                 MakeCallback(&PfcLinkTestCase::RxPause, this));
            m_dev[i]->SetReceiveCallback(MakeCallback(&PfcLinkTestCase::Rx, this));
        }
    }

    /// \param frame a frame port a starts
    void StartA(Ptr<const Packet> frame)
    {
        m_starts[0].push_back(
            {Simulator::Now().GetNanoSeconds(), EtherTypeOf(frame), PriorityOf(frame)});
    }

    /// \param frame a frame port b starts
    void StartB(Ptr<const Packet> frame)
    {
        m_starts[1].push_back(
            {Simulator::Now().GetNanoSeconds(), EtherTypeOf(frame), PriorityOf(frame)});
    }

    /// \param cls class \param quanta time (a pause sent)
    void TxPause(uint8_t cls, uint16_t quanta)
    {
        m_txPause.push_back({Simulator::Now().GetNanoSeconds(), cls, quanta});
    }

    /// \param cls class \param quanta time (a pause received)
    void RxPause(uint8_t cls, uint16_t quanta)
    {
        m_rxPause.push_back({Simulator::Now().GetNanoSeconds(), cls, quanta});
    }

    /**
     * The receive callback of both ports.
     * \param protocol the EtherType handed up
     * \return true
     */
    bool Rx(Ptr<NetDevice>, Ptr<const Packet>, uint16_t protocol, const Address&)
    {
        m_handedUp.push_back(protocol);
        return true;
    }

    /**
     * \param got a log of starts
     * \param want the expected (ns, EtherType, class) triples
     * \param what which log
     */
    void CheckStarts(const std::vector<Start>& got,
                     const std::vector<std::tuple<int64_t, uint16_t, int>>& want,
                     const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(got.size(), want.size(), what << ": frames started");
        for (size_t i = 0; i < want.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(got[i].ns,
                                  std::get<0>(want[i]),
                                  what << " frame " << i << ": start");
            NS_TEST_EXPECT_MSG_EQ(got[i].etherType,
                                  std::get<1>(want[i]),
                                  what << " frame " << i << ": EtherType");
            NS_TEST_EXPECT_MSG_EQ(got[i].cls,
                                  std::get<2>(want[i]),
                                  what << " frame " << i << ": class");
        }
    }

    /**
     * \param got a log of pause traces
     * \param want the expected (ns, class, quanta) triples
     * \param what which log
     */
    void CheckPauses(const std::vector<PauseEvent>& got,
                     const std::vector<std::tuple<int64_t, unsigned, uint16_t>>& want,
                     const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(got.size(), want.size(), what << ": pause traces");
        for (size_t i = 0; i < want.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(got[i].ns, std::get<0>(want[i]), what << " " << i << ": time");
            NS_TEST_EXPECT_MSG_EQ(got[i].cls, std::get<1>(want[i]), what << " " << i << ": class");
            NS_TEST_EXPECT_MSG_EQ(got[i].quanta,
                                  std::get<2>(want[i]),
                                  what << " " << i << ": quanta");
        }
    }

    std::array<Ptr<EthernetNetDevice>, 2> m_dev; //!< port a, port b
    std::array<std::vector<Start>, 2> m_starts;  //!< frames each port started
    std::vector<PauseEvent> m_txPause;           //!< MacTxPause, both ports
    std::vector<PauseEvent> m_rxPause;           //!< MacRxPause, both ports
    std::vector<uint16_t> m_handedUp;            //!< EtherTypes handed up, both ports
};

} // namespace

/**
 * \ingroup drp-tests
 * The PFC header: round trip, exact bytes, Print, well-formedness and the
 * conversions between quanta and time.
 */
class PfcHeaderTestCase : public HeaderSerializationTestCase
{
  public:
    PfcHeaderTestCase()
        : HeaderSerializationTestCase("PFC header: round trip, bytes, Print, checks, quanta")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader h;
        h.SetPause(3, 258);
        h.SetPause(5, 0xFFFF);
        TestHeaderSerialization(h);
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), 20, "opcode, vector, eight times");

        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(h);
        uint8_t b[20];
        p->CopyData(b, 20);
        for (uint32_t i = 0; i < 20; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(unsigned(b[i]), unsigned(GOLDEN_FRAME[14 + i]), "byte " << i);
        }

        std::ostringstream os;
        h.Print(os);
        NS_TEST_EXPECT_MSG_EQ(os.str(),
                              "MAC Control, Opcode: Class Based Flow Control [CBFC] Pause "
                              "(0x0101), CBFC Class Enable Vector: 0x0028, C3, C5, CBFC Class "
                              "Pause Times: C0: 0 C1: 0 C2: 0 C3: 258 C4: 0 C5: 65535 C6: 0 C7: 0",
                              "Print, in Wireshark's words");

        NS_TEST_EXPECT_MSG_EQ(h.IsWellFormed(), true, "a PFC frame");
        PfcHeader pause;
        pause.SetOpcode(PfcHeader::OPCODE_PAUSE);
        NS_TEST_EXPECT_MSG_EQ(pause.IsWellFormed(), false, "802.3x PAUSE: foreign");
        PfcHeader reserved;
        reserved.SetClassEnableVector(0x0101);
        NS_TEST_EXPECT_MSG_EQ(reserved.IsWellFormed(), false, "bits 8-15 must be zero");
        PfcHeader runt;
        Ptr<Packet> short10 = Create<Packet>(10);
        short10->RemoveHeader(runt);
        NS_TEST_EXPECT_MSG_EQ(runt.IsWellFormed(), false, "fewer than 20 bytes");

        NS_TEST_EXPECT_MSG_EQ(PfcHeader::IsPfcDestination(Mac48Address("01:80:c2:00:00:01")),
                              true,
                              "the PFC address");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::IsPfcDestination(Mac48Address("01:80:c2:00:00:02")),
                              false,
                              "another reserved address");

        const DataRate g1("1Gbps");
        const DataRate g10("10Gbps");
        const DataRate g100("100Gbps");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(1, g1), NanoSeconds(512), "512 bits at 1G");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(0xFFFF, g1),
                              NanoSeconds(33553920),
                              "the largest time at 1G");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(10, g10), NanoSeconds(512), "at 10G");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(1, g10),
                              NanoSeconds(52),
                              "51.2 ns rounds up");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::QuantaToTime(0, g100), Time(0), "zero");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(512), g1), 1, "exact");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(513), g1), 2, "rounds up");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(5), g100),
                              977,
                              "5 us at 100G (976.56 quanta)");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(Seconds(1), g1), 0xFFFF, "capped");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(Time(0), g1), 0, "zero");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(-5), g1), 0, "negative");
        CheckTimeToQuantaAtTheExtremes();
    }

    /**
     * TimeToQuanta against the same formula in 128-bit integers
     * (Boost.Multiprecision), from 1 ns to the longest Time and from 1 b/s to
     * the largest rate, and around the cap, where the product ns x bps
     * overflows 64 bits or lands exactly on a quantum.
     */
    void CheckTimeToQuantaAtTheExtremes()
    {
        using boost::multiprecision::uint128_t;
        const uint64_t perQuantum = uint64_t(PfcHeader::BITS_PER_QUANTUM) * 1000000000ULL;
        auto expected = [perQuantum](uint64_t ns, uint64_t bps) {
            const uint128_t quanta = (uint128_t(ns) * bps + perQuantum - 1) / perQuantum;
            return quanta >= PfcHeader::MAX_QUANTA ? PfcHeader::MAX_QUANTA
                                                   : quanta.convert_to<uint16_t>();
        };
        const uint64_t maxNs = static_cast<uint64_t>(Time::Max().GetNanoSeconds());
        const uint64_t maxBps = std::numeric_limits<uint64_t>::max();
        const uint64_t capAt1G = uint64_t(PfcHeader::MAX_QUANTA) * PfcHeader::BITS_PER_QUANTUM;
        std::vector<uint64_t> times{1,
                                    2,
                                    511,
                                    512,
                                    513,
                                    1000,
                                    capAt1G - 513,
                                    capAt1G - 512,
                                    capAt1G - 511,
                                    capAt1G - 1,
                                    capAt1G,
                                    capAt1G + 1,
                                    1000000000ULL,
                                    maxNs / 2,
                                    maxNs - 1,
                                    maxNs};
        std::vector<uint64_t> rates{1,
                                    2,
                                    1000,
                                    1000000000ULL,
                                    10000000000ULL,
                                    25000000000ULL,
                                    400000000000ULL,
                                    1ULL << 32,
                                    (1ULL << 63) + 1,
                                    maxBps - 1,
                                    maxBps};
        for (uint64_t ns = 3; ns < maxNs / 7; ns = ns * 7 + 1)
        {
            times.push_back(ns);
        }
        for (uint64_t bps = 5; bps < maxBps / 11; bps = bps * 11 + 3)
        {
            rates.push_back(bps);
        }
        for (uint64_t ns : times)
        {
            for (uint64_t bps : rates)
            {
                const uint16_t got = PfcHeader::TimeToQuanta(NanoSeconds(ns), DataRate(bps));
                NS_TEST_EXPECT_MSG_EQ(got, expected(ns, bps), ns << " ns at " << bps << " b/s");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(
            PfcHeader::TimeToQuanta(NanoSeconds(capAt1G - 512), DataRate(1000000000ULL)),
            PfcHeader::MAX_QUANTA - 1,
            "one quantum below the cap at 1G");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(Time::Max(), DataRate(maxBps)),
                              PfcHeader::MAX_QUANTA,
                              "the longest time at the largest rate");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(1), DataRate(1)),
                              1,
                              "1 ns at 1 b/s: a part of a quantum rounds up");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::TimeToQuanta(Seconds(1), DataRate(0)), 0, "no rate");
    }
};

/**
 * \ingroup drp-tests
 * A whole PFC frame as a port sends it, byte for byte (golden bytes written
 * from the standard), and parsed back field by field; two pauses pending
 * while the transmitter is busy leave in one frame, ahead of queued frames.
 */
class PfcFrameBytesTestCase : public PfcLinkTestCase
{
  public:
    PfcFrameBytesTestCase()
        : PfcLinkTestCase("PFC frame: golden bytes, parsed back")
    {
    }

  private:
    /// \param frame a frame port b starts: kept if a MAC Control frame
    void Keep(Ptr<const Packet> frame)
    {
        if (EtherTypeOf(frame) == PfcHeader::ETHER_TYPE)
        {
            m_frames.push_back(frame->Copy());
        }
    }

    void DoRun() override
    {
        MakeLink();
        Ptr<EthernetNetDevice> b = m_dev[1];
        b->SetAttribute("ComputeFcs", BooleanValue(true));
        b->TraceConnectWithoutContext("PhyTxBegin",
                                      MakeCallback(&PfcFrameBytesTestCase::Keep, this));
        ScheduleSendInClass(b, Seconds(0), 0, 1000);
        ScheduleSendInClass(b, Seconds(0), 0, 1000);
        ScheduleSendPause(b, Seconds(0), 3, 258);
        ScheduleSendPause(b, Seconds(0), 5, 0xFFFF);
        Simulator::Run();

        // The pause leaves after the frame on the wire (a 1000-byte slot,
        // 8304 ns) and before the queued one.
        CheckStarts(m_starts[1],
                    {{0, TEST_ETHERTYPE, 0}, {8304, 0x8808, -1}, {8976, TEST_ETHERTYPE, 0}},
                    "port b");
        NS_TEST_ASSERT_MSG_EQ(m_frames.size(), 1, "one PFC frame for both classes");
        Ptr<Packet> frame = m_frames[0];
        NS_TEST_ASSERT_MSG_EQ(frame->GetSize(), 64, "a minimum-size frame");
        uint8_t bytes[64];
        frame->CopyData(bytes, 64);
        for (uint32_t i = 0; i < 64; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[i]), unsigned(GOLDEN_FRAME[i]), "byte " << i);
        }

        // Parsed back from the golden bytes.
        Ptr<Packet> golden = Create<Packet>(GOLDEN_FRAME, 64);
        EthernetTrailer trailer;
        golden->RemoveTrailer(trailer);
        trailer.EnableFcs(true);
        NS_TEST_EXPECT_MSG_EQ(trailer.CheckFcs(golden), true, "FCS");
        EthernetHeader eth(false);
        golden->RemoveHeader(eth);
        NS_TEST_EXPECT_MSG_EQ(eth.GetDestination(), PfcHeader::GetPfcDestination(), "DA");
        NS_TEST_EXPECT_MSG_EQ(eth.GetSource(), Mac48Address("02:00:00:00:00:02"), "SA");
        NS_TEST_EXPECT_MSG_EQ(eth.GetLengthType(), PfcHeader::ETHER_TYPE, "EtherType");
        PfcHeader pfc;
        golden->RemoveHeader(pfc);
        NS_TEST_EXPECT_MSG_EQ(pfc.IsWellFormed(), true, "well formed");
        NS_TEST_EXPECT_MSG_EQ(pfc.GetOpcode(), 0x0101, "opcode");
        NS_TEST_EXPECT_MSG_EQ(pfc.GetClassEnableVector(), 0x0028, "vector");
        for (uint8_t cls = 0; cls < 8; ++cls)
        {
            const bool enabled = cls == 3 || cls == 5;
            NS_TEST_EXPECT_MSG_EQ(pfc.IsClassEnabled(cls), enabled, "enable " << +cls);
            const uint16_t want = cls == 3 ? 258 : (cls == 5 ? 0xFFFF : 0);
            NS_TEST_EXPECT_MSG_EQ(pfc.GetQuanta(cls), want, "time " << +cls);
        }
        NS_TEST_EXPECT_MSG_EQ(golden->GetSize(), 26, "padding to 46 bytes");

        CheckPauses(m_txPause, {{8304, 3, 258}, {8304, 5, 0xFFFF}}, "MacTxPause");
        CheckPauses(m_rxPause, {{8880, 3, 258}, {8880, 5, 0xFFFF}}, "MacRxPause");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausesSent(3), 1, "sent, class 3");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausesSent(5), 1, "sent, class 5");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausesSent(0), 0, "sent, class 0");
        NS_TEST_EXPECT_MSG_EQ(m_dev[0]->GetPausesReceived(3), 1, "received, class 3");
        for (uint16_t type : m_handedUp)
        {
            NS_TEST_EXPECT_MSG_NE(type, PfcHeader::ETHER_TYPE, "pause frames are never handed up");
        }
        Simulator::Destroy();
    }

    std::vector<Ptr<Packet>> m_frames; //!< the MAC Control frames port b sent
};

/**
 * \ingroup drp-tests
 * A class paused for X quanta sends nothing for exactly X x 512 bit times
 * from the pause's arrival while another class goes on; time paused read
 * during the pause and after it.
 */
class PfcPauseTimingTestCase : public PfcLinkTestCase
{
  public:
    PfcPauseTimingTestCase()
        : PfcLinkTestCase("PFC: a pause holds its class for exactly its time")
    {
    }

  private:
    /// Reads the time paused during the pause.
    void Read()
    {
        m_during = m_dev[0]->GetTimePaused(1);
        m_pausedDuring = m_dev[0]->IsClassPaused(1);
    }

    void DoRun() override
    {
        MakeLink();
        Ptr<EthernetNetDevice> a = m_dev[0];
        // b pauses a's class 1 for 100 quanta (51.2 us at 1 Gbps); the frame
        // (64 bytes) arrives at 576 ns, so class 1 may go again at 51776 ns.
        ScheduleSendPause(m_dev[1], Seconds(0), 1, 100);
        ScheduleSendInClass(a, MicroSeconds(1), 1, 1000);
        for (int i = 0; i < 3; ++i)
        {
            ScheduleSendInClass(a, MicroSeconds(1), 2, 1000);
        }
        Simulator::ScheduleWithContext(a->GetNode()->GetId(),
                                       MicroSeconds(30),
                                       &PfcPauseTimingTestCase::Read,
                                       this);
        Simulator::Run();

        CheckStarts(m_starts[0],
                    {{1000, TEST_ETHERTYPE, 2},
                     {9304, TEST_ETHERTYPE, 2},
                     {17608, TEST_ETHERTYPE, 2},
                     {51776, TEST_ETHERTYPE, 1}},
                    "port a");
        NS_TEST_EXPECT_MSG_EQ(m_pausedDuring, true, "paused at 30 us");
        NS_TEST_EXPECT_MSG_EQ(m_during, NanoSeconds(30000 - 576), "time paused so far");
        NS_TEST_EXPECT_MSG_EQ(a->GetTimePaused(1), NanoSeconds(51200), "time paused in all");
        NS_TEST_EXPECT_MSG_EQ(a->GetTimePaused(2), Time(0), "class 2 never paused");
        NS_TEST_EXPECT_MSG_EQ(a->IsClassPaused(1), false, "resumed");
        NS_TEST_EXPECT_MSG_EQ(a->GetPausesReceived(1), 1, "received");
        NS_TEST_EXPECT_MSG_EQ(a->GetPausesReceived(2), 0, "received, class 2");
        NS_TEST_EXPECT_MSG_EQ(m_dev[1]->GetPausesSent(1), 1, "sent");
        NS_TEST_EXPECT_MSG_EQ(a->GetClassQueue(1)->GetTotalReceivedPackets(), 1, "class 1 queue");
        NS_TEST_EXPECT_MSG_EQ(a->GetClassQueue(2)->GetTotalReceivedPackets(), 3, "class 2 queue");
        NS_TEST_EXPECT_MSG_EQ(a->GetClassQueue(0), a->GetQueue(), "class 0 is the TxQueue");
        NS_TEST_EXPECT_MSG_EQ(a->GetQueue()->GetTotalReceivedPackets(), 0, "class 0 unused");
        CheckPauses(m_txPause, {{0, 1, 100}}, "MacTxPause");
        CheckPauses(m_rxPause, {{576, 1, 100}}, "MacRxPause");
        Simulator::Destroy();
    }

    Time m_during;              //!< GetTimePaused(1) at 30 us
    bool m_pausedDuring{false}; //!< IsClassPaused(1) at 30 us
};

/**
 * \ingroup drp-tests
 * Strict priority: the highest class with a frame goes first, whatever the
 * order the frames were queued in; a frame on the wire finishes.
 */
class PfcStrictPriorityTestCase : public PfcLinkTestCase
{
  public:
    PfcStrictPriorityTestCase()
        : PfcLinkTestCase("PFC: strict priority among the classes")
    {
    }

  private:
    void DoRun() override
    {
        MakeLink();
        Ptr<EthernetNetDevice> a = m_dev[0];
        for (uint8_t cls : {0, 2, 5, 0, 7})
        {
            ScheduleSendInClass(a, Seconds(0), cls, 1000);
        }
        Simulator::Run();
        const uint16_t data = TEST_ETHERTYPE;
        CheckStarts(
            m_starts[0],
            {{0, data, 0}, {8304, data, 7}, {16608, data, 5}, {24912, data, 2}, {33216, data, 0}},
            "port a");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * A zero time resumes at once; a newer pause replaces the rest of the older.
 */
class PfcResumeTestCase : public PfcLinkTestCase
{
  public:
    PfcResumeTestCase()
        : PfcLinkTestCase("PFC: zero time resumes at once, a newer pause replaces the rest")
    {
    }

  private:
    void DoRun() override
    {
        MakeLink();
        Ptr<EthernetNetDevice> a = m_dev[0];
        Ptr<EthernetNetDevice> b = m_dev[1];
        ScheduleSendPause(b, Seconds(0), 1, 1000); // 512 us
        ScheduleSendInClass(a, MicroSeconds(1), 1, 100);
        ScheduleSendPause(b, MicroSeconds(10), 1, 0);   // arrives 10.576 us: resumes
        ScheduleSendPause(b, MicroSeconds(20), 1, 100); // until 20.576 + 51.2 us
        ScheduleSendInClass(a, MicroSeconds(21), 1, 100);
        ScheduleSendPause(b, MicroSeconds(30), 1, 10); // replaced: until 30.576 + 5.12 us
        Simulator::Run();

        CheckStarts(m_starts[0],
                    {{10576, TEST_ETHERTYPE, 1}, {35696, TEST_ETHERTYPE, 1}},
                    "port a");
        NS_TEST_EXPECT_MSG_EQ(a->GetTimePaused(1),
                              NanoSeconds(10000 + (35696 - 20576)),
                              "time paused");
        NS_TEST_EXPECT_MSG_EQ(a->GetPausesReceived(1), 4, "received");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausesSent(1), 4, "sent");
        CheckPauses(m_rxPause,
                    {{576, 1, 1000}, {10576, 1, 0}, {20576, 1, 100}, {30576, 1, 10}},
                    "MacRxPause");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * XOFF / XON through the owner's API: a pause at once (after the frame on
 * the wire, ahead of queued frames), refreshed at half its time while XOFF
 * lasts, a zero-time pause at XON; the peer stays paused throughout.
 */
class PfcXonXoffTestCase : public PfcLinkTestCase
{
  public:
    PfcXonXoffTestCase()
        : PfcLinkTestCase("PFC: XOFF and XON send pause, refreshed, then resume")
    {
    }

  private:
    void DoRun() override
    {
        MakeLink();
        Ptr<EthernetNetDevice> a = m_dev[0];
        Ptr<EthernetNetDevice> b = m_dev[1];
        b->SetAttribute("PfcPauseQuanta", UintegerValue(100)); // 51.2 us, refreshed every 25.6
        for (int i = 0; i < 3; ++i)
        {
            ScheduleSendInClass(b, Seconds(0), 0, 1000);
        }
        ScheduleSetClassPaused(b, MicroSeconds(1), 3, true);
        ScheduleSetClassPaused(b, MicroSeconds(2), 3, true); // already XOFF: nothing
        ScheduleSendInClass(a, MicroSeconds(10), 3, 100);    // waits for XON
        ScheduleSendInClass(a, MicroSeconds(10), 0, 100);    // goes at once
        ScheduleSetClassPaused(b, MicroSeconds(70), 3, false);
        ScheduleSetClassPaused(b, MicroSeconds(80), 3, false); // already XON: nothing
        Simulator::Run();

        const uint16_t data = TEST_ETHERTYPE;
        CheckStarts(m_starts[1],
                    {{0, data, 0},
                     {8304, 0x8808, -1},
                     {8976, data, 0},
                     {17280, data, 0},
                     {33904, 0x8808, -1},
                     {59504, 0x8808, -1},
                     {70000, 0x8808, -1}},
                    "port b");
        CheckPauses(m_txPause,
                    {{8304, 3, 100}, {33904, 3, 100}, {59504, 3, 100}, {70000, 3, 0}},
                    "MacTxPause");
        CheckStarts(m_starts[0], {{10000, data, 0}, {70576, data, 3}}, "port a");
        NS_TEST_EXPECT_MSG_EQ(a->GetTimePaused(3), NanoSeconds(70576 - 8880), "time paused");
        NS_TEST_EXPECT_MSG_EQ(a->GetPausesReceived(3), 4, "received");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausesSent(3), 4, "sent");
        NS_TEST_EXPECT_MSG_EQ(b->IsClassPausing(3), false, "XON");
        Simulator::Destroy();
    }
};

/**
 * \ingroup drp-tests
 * Malformed and foreign MAC Control frames are dropped and counted, never
 * acted on nor handed up; with PFC off a MAC Control frame is an ordinary
 * frame, as before.
 */
class PfcMalformedTestCase : public PfcLinkTestCase
{
  public:
    PfcMalformedTestCase()
        : PfcLinkTestCase("PFC: malformed pause frames dropped and counted")
    {
    }

  private:
    /**
     * \param dev the sender
     * \param header the MAC Control payload
     * \param to its destination
     */
    static void SendControl(Ptr<EthernetNetDevice> dev, PfcHeader header, Mac48Address to)
    {
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(header);
        dev->Send(p, to, PfcHeader::ETHER_TYPE);
    }

    /// \param dev the receiver: a runt MAC Control frame (4 bytes of payload) arrives
    static void ReceiveRunt(Ptr<EthernetNetDevice> dev)
    {
        Ptr<Packet> frame = Create<Packet>(4);
        EthernetHeader header(false);
        header.SetSource(Mac48Address("02:00:00:00:00:02"));
        header.SetDestination(PfcHeader::GetPfcDestination());
        header.SetLengthType(PfcHeader::ETHER_TYPE);
        frame->AddHeader(header);
        EthernetTrailer trailer;
        frame->AddTrailer(trailer);
        dev->Receive(frame);
    }

    /// \param frame a dropped MAC Control frame
    void Dropped(Ptr<const Packet> /* frame */)
    {
        ++m_dropped;
    }

    void DoRun() override
    {
        // Port a with PFC on, port b (the sender of hand-made frames) off.
        MakeLink(true, false);
        Ptr<EthernetNetDevice> a = m_dev[0];
        Ptr<EthernetNetDevice> b = m_dev[1];
        a->TraceConnectWithoutContext("MacRxPauseDrop",
                                      MakeCallback(&PfcMalformedTestCase::Dropped, this));
        const Mac48Address pfc = PfcHeader::GetPfcDestination();
        const uint32_t node = b->GetNode()->GetId();
        PfcHeader pause; // IEEE 802.3x PAUSE: foreign
        pause.SetOpcode(PfcHeader::OPCODE_PAUSE);
        pause.SetPause(1, 100);
        PfcHeader reserved; // a reserved bit of the vector set
        reserved.SetPause(1, 100);
        reserved.SetClassEnableVector(0x0102);
        PfcHeader good;
        good.SetPause(1, 100);
        PfcHeader resume;
        resume.SetPause(1, 0);
        Simulator::ScheduleWithContext(node, MicroSeconds(1), &SendControl, b, pause, pfc);
        Simulator::ScheduleWithContext(node, MicroSeconds(2), &SendControl, b, reserved, pfc);
        Simulator::ScheduleWithContext(node,
                                       MicroSeconds(3),
                                       &SendControl,
                                       b,
                                       good,
                                       Mac48Address("02:00:00:00:00:01")); // not the PFC address
        Simulator::ScheduleWithContext(a->GetNode()->GetId(), MicroSeconds(4), &ReceiveRunt, a);
        Simulator::ScheduleWithContext(node, MicroSeconds(5), &SendControl, b, resume, pfc);
        // Port b (PFC off) receives a well-formed PFC frame from port a:
        // handed up as any frame, not acted on.
        ScheduleSendPause(a, MicroSeconds(6), 2, 100);
        ScheduleSendInClass(b, MicroSeconds(7), 2, 100);
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(a->GetMalformedPauseDrops(), 4, "dropped and counted");
        NS_TEST_EXPECT_MSG_EQ(m_dropped, 4, "MacRxPauseDrop");
        NS_TEST_EXPECT_MSG_EQ(a->GetPausesReceived(1), 1, "only the good one counted");
        NS_TEST_EXPECT_MSG_EQ(a->GetTimePaused(1), Time(0), "never paused");
        CheckPauses(m_rxPause, {{5576, 1, 0}}, "MacRxPause");
        CheckStarts(m_starts[1],
                    {{1000, 0x8808, -1},
                     {2000, 0x8808, -1},
                     {3000, 0x8808, -1},
                     {5000, 0x8808, -1},
                     {7000, TEST_ETHERTYPE, 2}},
                    "port b: PFC off, not paused");
        NS_TEST_ASSERT_MSG_EQ(m_handedUp.size(), 1, "one frame handed up");
        NS_TEST_EXPECT_MSG_EQ(m_handedUp[0], PfcHeader::ETHER_TYPE, "by port b, PFC off");
        NS_TEST_EXPECT_MSG_EQ(b->GetPausesReceived(2), 0, "PFC off: nothing counted");
        Simulator::Destroy();
    }

    uint32_t m_dropped{0}; //!< MacRxPauseDrop calls
};

/**
 * \ingroup drp-tests
 * The PFC watchdog: port b pauses class 3 of port a and never stops (XOFF
 * of 1000 quanta, 512 us at 1 Gbps, refreshed every 256 us: the pauses
 * arrive at 576 ns + k x 256 us); port a has a watchdog of 1 ms and three
 * frames waiting in class 3. The pause that arrives 1 ms or more after the
 * first (k = 4, at 1024576 ns) finds the storm: with Drop the three frames
 * are discarded, and so are the class 3 frames queued during the storm,
 * while class 1 goes on; with Forward they are sent at once. Port b sends
 * XON at 3 ms, which a storm ignores; the last pause came at 2816576 ns, so
 * with the restore time (2 ms, twice the detection time) the storm is over
 * from 4816576 ns: a frame at 4.5 ms is still discarded, one at 5 ms is sent.
 */
class PfcWatchdogTestCase : public PfcLinkTestCase
{
  public:
    /// \param forward true: action Forward; false: Drop
    explicit PfcWatchdogTestCase(bool forward)
        : PfcLinkTestCase(std::string("PFC: the watchdog ends a pause storm, action ") +
                          (forward ? "Forward" : "Drop")),
          m_forward(forward)
    {
    }

  private:
    /// \param cls class \param storm detected (true) or restored
    void Storm(uint8_t cls, bool storm)
    {
        m_storms.emplace_back(Simulator::Now().GetNanoSeconds(), cls, storm);
    }

    void DoRun() override
    {
        MakeLink();
        Ptr<EthernetNetDevice> a = m_dev[0];
        Ptr<EthernetNetDevice> b = m_dev[1];
        a->SetAttribute("PfcWatchdogTime", TimeValue(MilliSeconds(1)));
        a->SetAttribute("PfcWatchdogAction", StringValue(m_forward ? "Forward" : "Drop"));
        a->TraceConnectWithoutContext("PfcStorm", MakeCallback(&PfcWatchdogTestCase::Storm, this));
        b->SetAttribute("PfcPauseQuanta", UintegerValue(1000));
        ScheduleSetClassPaused(b, Seconds(0), 3, true);
        for (int i = 0; i < 3; ++i)
        {
            ScheduleSendInClass(a, MicroSeconds(1), 3, 1000);
        }
        ScheduleSendInClass(a, MicroSeconds(1500), 1, 1000);
        ScheduleSendInClass(a, MicroSeconds(1500), 3, 1000);
        ScheduleSetClassPaused(b, MilliSeconds(3), 3, false);
        ScheduleSendInClass(a, MicroSeconds(4500), 3, 1000);
        ScheduleSendInClass(a, MilliSeconds(5), 3, 1000);
        Simulator::Stop(MilliSeconds(6));
        Simulator::Run();

        using Starts = std::vector<std::tuple<int64_t, uint16_t, int>>;
        const Starts forward{{1024576, TEST_ETHERTYPE, 3},
                             {1032880, TEST_ETHERTYPE, 3},
                             {1041184, TEST_ETHERTYPE, 3},
                             {1500000, TEST_ETHERTYPE, 1},
                             {1508304, TEST_ETHERTYPE, 3},
                             {4500000, TEST_ETHERTYPE, 3},
                             {5000000, TEST_ETHERTYPE, 3}};
        const Starts drop{{1500000, TEST_ETHERTYPE, 1}, {5000000, TEST_ETHERTYPE, 3}};
        CheckStarts(m_starts[0], m_forward ? forward : drop, "port a");
        NS_TEST_EXPECT_MSG_EQ(a->GetPfcStorms(), 1, "one storm");
        NS_TEST_EXPECT_MSG_EQ(a->GetPfcWatchdogDrops(), m_forward ? 0 : 5, "frames discarded");
        NS_TEST_ASSERT_MSG_EQ(m_storms.size(), 2, "PfcStorm: detected, then restored");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_storms[0]), 1024576, "detected at the 5th pause");
        NS_TEST_EXPECT_MSG_EQ(std::get<1>(m_storms[0]), 3, "class 3");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_storms[0]), true, "a storm");
        NS_TEST_EXPECT_MSG_EQ(std::get<0>(m_storms[1]),
                              5000000,
                              "restored when a frame comes 2 ms or more after the last pause");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(m_storms[1]), false, "restored");
        NS_TEST_EXPECT_MSG_EQ(a->GetTimePaused(3), NanoSeconds(1024000), "paused until detected");
        NS_TEST_EXPECT_MSG_EQ(a->IsClassPaused(3), false, "not paused after");
        Simulator::Destroy();
    }

    bool m_forward;                                            //!< action Forward
    std::vector<std::tuple<int64_t, unsigned, bool>> m_storms; //!< PfcStorm calls
};

/**
 * \ingroup drp-tests
 * Invalid PFC values raise std::invalid_argument; PFC off keeps one queue.
 */
class PfcConfigTestCase : public TestCase
{
  public:
    PfcConfigTestCase()
        : TestCase("PFC: attribute ranges, off by default")
    {
    }

  private:
    /**
     * \param f an action
     * \param message the message it must throw
     */
    void ExpectThrow(const std::function<void()>& f, const std::string& message)
    {
        std::string got;
        try
        {
            f();
        }
        catch (const std::invalid_argument& e)
        {
            got = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(got, message, "message");
    }

    void DoRun() override
    {
        Ptr<EthernetNetDevice> dev = CreateObject<EthernetNetDevice>();
        NS_TEST_EXPECT_MSG_EQ(dev->IsPfcEnabled(), false, "off by default");
        NS_TEST_EXPECT_MSG_EQ(dev->GetClassQueue(0), nullptr, "no class queues when off");
        NS_TEST_EXPECT_MSG_EQ(dev->GetPausesSent(0), 0, "no counters when off");
        ExpectThrow([dev]() { dev->SetAttribute("PfcDefaultClass", UintegerValue(8)); },
                    "EthernetNetDevice::PfcDefaultClass = 8 is out of range [0, 7]");
        ExpectThrow([dev]() { dev->SetAttribute("PfcPauseQuanta", UintegerValue(0)); },
                    "EthernetNetDevice::PfcPauseQuanta = 0 is out of range [1, 65535]");
        dev->SetAttribute("PfcEnabled", BooleanValue(true));
        ExpectThrow([dev]() { dev->SetClassPaused(8, true); },
                    "EthernetNetDevice::SetClassPaused class = 8 is out of range [0, 7]");
        ExpectThrow([dev]() { dev->SendPause(9, 1); },
                    "EthernetNetDevice::SendPause class = 9 is out of range [0, 7]");
        Ptr<RnicNetDevice> rnic = CreateObject<RnicNetDevice>();
        ExpectThrow([rnic]() { rnic->SetAttribute("DrpClass", UintegerValue(8)); },
                    "RnicNetDevice::DrpClass = 8 is out of range [0, 7]");
        ExpectThrow([rnic]() { rnic->SetAttribute("DrpControlClass", UintegerValue(8)); },
                    "RnicNetDevice::DrpControlClass = 8 is out of range [0, 7]");

        // The class of a frame: its tag's priority if 0 to 7, else the default.
        dev->SetAttribute("PfcDefaultClass", UintegerValue(4));
        Ptr<Packet> p = Create<Packet>(10);
        NS_TEST_EXPECT_MSG_EQ(unsigned(dev->GetFrameClass(p)), 4, "no tag: default class");
        SocketPriorityTag tag;
        tag.SetPriority(6);
        p->AddPacketTag(tag);
        NS_TEST_EXPECT_MSG_EQ(unsigned(dev->GetFrameClass(p)), 6, "the tag's priority");
        tag.SetPriority(9);
        p->ReplacePacketTag(tag);
        NS_TEST_EXPECT_MSG_EQ(unsigned(dev->GetFrameClass(p)), 4, "priority above 7: default");
        dev->Dispose();
        rnic->Dispose();
    }
};

/**
 * \ingroup drp-tests
 * A frame keeps its class through a switch: a star fabric with PFC on at
 * every port; a tagged IP-like frame and a DRP transfer's frames go out of
 * the switch in their classes.
 */
class PfcSwitchClassTestCase : public TestCase
{
  public:
    PfcSwitchClassTestCase()
        : TestCase("PFC: the class survives the switch")
    {
    }

  private:
    /// \param frame a frame rnic 1 received
    void Rx(Ptr<const Packet> frame)
    {
        const uint16_t type = EtherTypeOf(frame);
        if (type == TEST_ETHERTYPE)
        {
            m_otherClasses.push_back(PriorityOf(frame));
        }
        else if (type == DrpHeader::PROT_NUMBER)
        {
            m_drpClasses.push_back(PriorityOf(frame));
        }
    }

    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        EthernetHelper eth;
        eth.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        StarFabricHelper star(2, rnic, eth);
        Ptr<RnicNetDevice> rnic0 = star.GetRnic(0);
        Ptr<RnicNetDevice> rnic1 = star.GetRnic(1);
        rnic1->TraceConnectWithoutContext("MacRx", MakeCallback(&PfcSwitchClassTestCase::Rx, this));

        RdmaHostHelper host = drptest::MakeWorkload(1, 8192);
        ApplicationContainer apps = host.Install(star.GetHost(0));
        host.SetAttribute("Transfers", UintegerValue(0));
        apps.Add(host.Install(star.GetHost(1)));
        RdmaHostHelper::SetWorkload(apps.Get(0), rnic1);
        apps.Start(Seconds(0));

        Ptr<Packet> p = Create<Packet>(100);
        SocketPriorityTag tag;
        tag.SetPriority(5);
        p->AddPacketTag(tag);
        Simulator::ScheduleWithContext(rnic0->GetNode()->GetId(),
                                       MicroSeconds(1),
                                       &SendPacket,
                                       rnic0,
                                       p,
                                       rnic1->GetAddress());
        Simulator::Run();

        Ptr<EthernetNetDevice> egress = star.GetPath(0, 1)[1];
        NS_TEST_EXPECT_MSG_EQ(egress->GetClassQueue(5)->GetTotalReceivedPackets(),
                              1,
                              "the tagged frame in class 5 at the switch");
        NS_TEST_EXPECT_MSG_GT(egress->GetClassQueue(3)->GetTotalReceivedPackets(),
                              8,
                              "8 DRP data frames and the REQ (at least) in class 3 at the switch");
        NS_TEST_EXPECT_MSG_EQ(egress->GetClassQueue(0)->GetTotalReceivedPackets(),
                              0,
                              "nothing in the default class");
        NS_TEST_ASSERT_MSG_EQ(m_otherClasses.size(), 1, "the tagged frame arrived");
        NS_TEST_EXPECT_MSG_EQ(m_otherClasses[0], 5, "with its class");
        NS_TEST_ASSERT_MSG_GT(m_drpClasses.size(), 0, "DRP frames arrived");
        for (int cls : m_drpClasses)
        {
            NS_TEST_EXPECT_MSG_EQ(cls, 3, "DRP frames in DrpClass");
        }
        Ptr<RdmaHostApplication> app = DynamicCast<RdmaHostApplication>(apps.Get(0));
        NS_TEST_ASSERT_MSG_EQ(app->GetRecords().size(), 1, "the transfer ended");
        NS_TEST_EXPECT_MSG_EQ(app->GetRecords()[0].status,
                              DrpTransferRecord::SUCCESS,
                              "successfully");
        Simulator::Destroy();
    }

    /**
     * \param dev the sender \param p the payload \param to the destination
     */
    static void SendPacket(Ptr<NetDevice> dev, Ptr<Packet> p, Address to)
    {
        dev->Send(p, to, TEST_ETHERTYPE);
    }

    std::vector<int> m_otherClasses; //!< class tags of the tagged frames rnic 1 received
    std::vector<int> m_drpClasses;   //!< class tags of the DRP frames rnic 1 received
};

/**
 * \ingroup drp-tests
 * The RNIC sends no DRP frame while a pause holds DrpClass, and resumes the
 * moment it ends; the transfer completes.
 */
class PfcRnicTestCase : public TestCase
{
  public:
    PfcRnicTestCase()
        : TestCase("PFC: the RNIC's DRP frames honour a pause of their class")
    {
    }

  private:
    /// \param frame a frame rnic 0 starts
    void Start(Ptr<const Packet> frame)
    {
        if (EtherTypeOf(frame) == DrpHeader::PROT_NUMBER)
        {
            m_drpStarts.push_back(Simulator::Now().GetNanoSeconds());
        }
    }

    /// \param cls class \param quanta time (a pause rnic 0 received)
    void RxPause(uint8_t cls, uint16_t quanta)
    {
        NS_TEST_EXPECT_MSG_EQ(unsigned(cls), 3, "DrpClass paused");
        (quanta ? m_pausedAt : m_resumedAt) = Simulator::Now().GetNanoSeconds();
    }

    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        drptest::PointToPointBed bed(rnic, drptest::MakeWorkload(1, 65536));
        Ptr<RnicNetDevice> rnic0 = bed.Rnic(0);
        Ptr<RnicNetDevice> rnic1 = bed.Rnic(1);
        rnic0->TraceConnectWithoutContext("PhyTxBegin",
                                          MakeCallback(&PfcRnicTestCase::Start, this));
        rnic0->TraceConnectWithoutContext("MacRxPause",
                                          MakeCallback(&PfcRnicTestCase::RxPause, this));
        // rnic 1 pauses class 3 (DrpClass) at 100 us and resumes it at 300 us
        // (each pause frame leaves after the frame rnic 1 may be sending).
        ScheduleSendPause(rnic1, MicroSeconds(100), 3, 0xFFFF);
        ScheduleSendPause(rnic1, MicroSeconds(300), 3, 0);
        bed.Run();

        const int64_t from = m_pausedAt;
        const int64_t to = m_resumedAt;
        NS_TEST_EXPECT_MSG_GT(from, 100000, "paused after 100 us");
        NS_TEST_EXPECT_MSG_GT(to, 300000, "resumed after 300 us");
        bool resumed = false;
        uint32_t before = 0;
        for (int64_t ns : m_drpStarts)
        {
            NS_TEST_EXPECT_MSG_EQ((ns >= from && ns < to), false, "a DRP frame at " << ns << " ns");
            before += ns < from;
            resumed = resumed || ns == to;
        }
        NS_TEST_EXPECT_MSG_GT(before, 0, "DRP frames before the pause");
        NS_TEST_EXPECT_MSG_EQ(resumed, true, "a DRP frame the moment the pause ends");
        NS_TEST_EXPECT_MSG_EQ(rnic0->GetTimePaused(3), NanoSeconds(to - from), "time paused");
        NS_TEST_EXPECT_MSG_EQ(rnic0->GetPausesReceived(3), 2, "received");
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].status, DrpTransferRecord::SUCCESS, "successfully");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "bytes intact");
        Simulator::Destroy();
    }

    std::vector<int64_t> m_drpStarts; //!< when rnic 0 started DRP frames, in ns
    int64_t m_pausedAt{0};            //!< when rnic 0 received the pause, in ns
    int64_t m_resumedAt{0};           //!< when rnic 0 received the resume, in ns
};

/**
 * \ingroup drp-tests
 * DRP control frames in a class of their own (DrpControlClass): a pause of
 * the data class holds no acknowledgement; with the default (both in
 * class 3) it holds them all.
 */
class PfcRnicControlClassTestCase : public TestCase
{
  public:
    /// \param controlClass the RNICs' DrpControlClass
    PfcRnicControlClassTestCase(uint8_t controlClass)
        : TestCase("PFC: DRP control frames in DrpControlClass " + std::to_string(controlClass) +
                   (controlClass == 3 ? ", with the data: a pause holds them"
                                      : ": a pause of the data class does not hold them")),
          m_controlClass(controlClass)
    {
    }

  private:
    /// \param frame a frame rnic 1 (the responder: control frames only) starts
    void Start(Ptr<const Packet> frame)
    {
        if (EtherTypeOf(frame) == DrpHeader::PROT_NUMBER)
        {
            m_starts.push_back(Simulator::Now().GetNanoSeconds());
            m_classes.push_back(PriorityOf(frame));
        }
    }

    /// \param quanta time (a pause rnic 1 received)
    void RxPause(uint8_t, uint16_t quanta)
    {
        (quanta ? m_pausedAt : m_resumedAt) = Simulator::Now().GetNanoSeconds();
    }

    void DoRun() override
    {
        RnicHelper rnic;
        rnic.SetDeviceAttribute("PfcEnabled", BooleanValue(true));
        drptest::PointToPointBed bed(rnic, drptest::MakeWorkload(1, 65536));
        bed.Rnic(0)->SetAttribute("DrpControlClass", UintegerValue(m_controlClass));
        bed.Rnic(1)->SetAttribute("DrpControlClass", UintegerValue(m_controlClass));
        Ptr<RnicNetDevice> rnic1 = bed.Rnic(1);
        rnic1->TraceConnectWithoutContext("PhyTxBegin",
                                          MakeCallback(&PfcRnicControlClassTestCase::Start, this));
        rnic1->TraceConnectWithoutContext(
            "MacRxPause",
            MakeCallback(&PfcRnicControlClassTestCase::RxPause, this));
        // rnic 0 pauses rnic 1's data class (3) from 100 us to 300 us.
        ScheduleSendPause(bed.Rnic(0), MicroSeconds(100), 3, 0xFFFF);
        ScheduleSendPause(bed.Rnic(0), MicroSeconds(300), 3, 0);
        bed.Run();

        NS_TEST_ASSERT_MSG_GT(m_pausedAt, 100000, "paused after 100 us");
        NS_TEST_ASSERT_MSG_GT(m_resumedAt, 300000, "resumed after 300 us");
        uint32_t during = 0;
        for (size_t i = 0; i < m_starts.size(); ++i)
        {
            during += m_starts[i] >= m_pausedAt && m_starts[i] < m_resumedAt;
            NS_TEST_EXPECT_MSG_EQ(m_classes[i], m_controlClass, "control frames in their class");
        }
        if (m_controlClass == 3)
        {
            NS_TEST_EXPECT_MSG_EQ(during, 0, "the pause holds the control frames too");
        }
        else
        {
            // The initiator's window of 8 frames goes on being acknowledged.
            NS_TEST_EXPECT_MSG_GT(during, 8, "acknowledgements go on during the pause");
        }
        NS_TEST_ASSERT_MSG_EQ(bed.Records().size(), 1, "the transfer ended");
        NS_TEST_EXPECT_MSG_EQ(bed.Records()[0].status, DrpTransferRecord::SUCCESS, "successfully");
        NS_TEST_EXPECT_MSG_EQ(bed.m_corrupt, 0, "bytes intact");
        Simulator::Destroy();
    }

    uint8_t m_controlClass;        //!< DrpControlClass of both RNICs
    std::vector<int64_t> m_starts; //!< when rnic 1 started DRP frames, in ns
    std::vector<int> m_classes;    //!< and their classes
    int64_t m_pausedAt{0};         //!< when rnic 1 received the pause, in ns
    int64_t m_resumedAt{0};        //!< when rnic 1 received the resume, in ns
};

/**
 * \ingroup drp-tests
 * IEEE 802.1Qbb priority flow control at the Ethernet port.
 */
class DrpPfcTestSuite : public TestSuite
{
  public:
    DrpPfcTestSuite()
        : TestSuite("drp-pfc", DRP_TEST_UNIT)
    {
        AddTestCase(new PfcHeaderTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcFrameBytesTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcPauseTimingTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcStrictPriorityTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcResumeTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcXonXoffTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcMalformedTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcWatchdogTestCase(false), DRP_TEST_QUICK);
        AddTestCase(new PfcWatchdogTestCase(true), DRP_TEST_QUICK);
        AddTestCase(new PfcConfigTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcSwitchClassTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcRnicTestCase, DRP_TEST_QUICK);
        AddTestCase(new PfcRnicControlClassTestCase(3), DRP_TEST_QUICK);
        AddTestCase(new PfcRnicControlClassTestCase(6), DRP_TEST_QUICK);
    }
};

/// The suite's one instance.
static DrpPfcTestSuite g_drpPfcTestSuite;
