/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecn-marking-queue.h"

#include "ns3/double.h"
#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"

#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcnMarkingQueue");

NS_OBJECT_ENSURE_REGISTERED(EcnMarkingQueue);

namespace
{

/// EtherType of IPv4.
constexpr uint16_t IPV4_ETHERTYPE = 0x0800;

/// \return the markers by EtherType (IPv4's from the start)
std::map<uint16_t, EcnMarkingQueue::Marker>&
Markers()
{
    static std::map<uint16_t, EcnMarkingQueue::Marker> markers{
        {IPV4_ETHERTYPE, MakeCallback(&EcnMarkingQueue::MarkIpv4)}};
    return markers;
}

} // namespace

TypeId
EcnMarkingQueue::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcnMarkingQueue<Packet>") // helpers append <Packet>, as to DropTailQueue
            .SetParent<DropTailQueue<Packet>>()
            .SetGroupName("Drp")
            .AddConstructor<EcnMarkingQueue>()
            .AddAttribute(
                "MarkingMode",
                "Red: the marking probability rises from MinThreshold to "
                "MaxThreshold (DCQCN's and HPCC's switches); Step: every frame that "
                "leaves more than MinThreshold behind is marked (DCTCP's K).",
                EnumValue(EcnMarkingQueue::RED),
                DRP_ENUM_ACCESSOR(MarkingMode, &EcnMarkingQueue::m_mode),
                MakeEnumChecker(EcnMarkingQueue::RED, "Red", EcnMarkingQueue::STEP, "Step"))
            .AddAttribute("MinThreshold",
                          "Kmin: frames leaving a backlog this large or smaller are never "
                          "marked (bytes or frames, the unit of MaxThreshold).",
                          QueueSizeValue(QueueSize("4KB")),
                          MakeQueueSizeAccessor(&EcnMarkingQueue::m_minThreshold),
                          MakeQueueSizeChecker())
            .AddAttribute("MaxThreshold",
                          "Kmax: frames leaving a backlog this large or larger are always "
                          "marked (bytes or frames, the unit of MinThreshold; above it).",
                          QueueSizeValue(QueueSize("16KB")),
                          MakeQueueSizeAccessor(&EcnMarkingQueue::m_maxThreshold),
                          MakeQueueSizeChecker())
            .AddAttribute("MaxProbability",
                          "Pmax: the marking probability as the backlog reaches MaxThreshold "
                          "(0 to 1).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&EcnMarkingQueue::m_maxProbability),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddTraceSource("Mark",
                            "A frame leaves marked Congestion Experienced (the marked frame).",
                            MakeTraceSourceAccessor(&EcnMarkingQueue::m_markTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

EcnMarkingQueue::EcnMarkingQueue()
    : m_u(CreateObject<UniformRandomVariable>()),
      NS_LOG_TEMPLATE_DEFINE("EcnMarkingQueue")
{
    NS_LOG_FUNCTION(this);
}

EcnMarkingQueue::~EcnMarkingQueue()
{
    NS_LOG_FUNCTION(this);
}

void
EcnMarkingQueue::SetMarker(uint16_t etherType, Marker marker)
{
    if (marker.IsNull())
    {
        Markers().erase(etherType);
        return;
    }
    Markers()[etherType] = marker;
}

int64_t
EcnMarkingQueue::AssignStreams(int64_t stream)
{
    m_u->SetStream(stream);
    return 1;
}

uint64_t
EcnMarkingQueue::GetMarks() const
{
    return m_marks;
}

uint64_t
EcnMarkingQueue::GetNotCapable() const
{
    return m_notCapable;
}

void
EcnMarkingQueue::CheckThresholds() const
{
    if (m_minThreshold.GetUnit() != m_maxThreshold.GetUnit() ||
        m_minThreshold.GetValue() >= m_maxThreshold.GetValue())
    {
        std::ostringstream os;
        os << "EcnMarkingQueue: MinThreshold = " << m_minThreshold
           << " must be below MaxThreshold = " << m_maxThreshold << ", in the same unit";
        throw std::invalid_argument(os.str());
    }
}

double
EcnMarkingQueue::GetMarkProbability(uint32_t backlog) const
{
    if (m_mode == STEP)
    {
        return backlog > m_minThreshold.GetValue() ? 1.0 : 0.0;
    }
    CheckThresholds();
    const uint32_t kmin = m_minThreshold.GetValue();
    const uint32_t kmax = m_maxThreshold.GetValue();
    if (backlog <= kmin)
    {
        return 0.0;
    }
    if (backlog >= kmax)
    {
        return 1.0;
    }
    return m_maxProbability * (backlog - kmin) / double(kmax - kmin);
}

Ptr<Packet>
EcnMarkingQueue::Dequeue()
{
    Ptr<Packet> frame = DropTailQueue<Packet>::Dequeue();
    if (!frame)
    {
        return frame;
    }
    uint32_t backlog =
        m_minThreshold.GetUnit() == QueueSizeUnit::BYTES ? GetNBytes() : GetNPackets();
    double p = GetMarkProbability(backlog);
    if (p == 0.0 || (p < 1.0 && m_u->GetValue() >= p))
    {
        return frame;
    }
    Ptr<Packet> marked = Mark(frame);
    if (!marked)
    {
        ++m_notCapable;
        return frame;
    }
    ++m_marks;
    m_markTrace(marked);
    frame = marked; // one Ptr to return: GCC 12 sees a use after free in two (a false warning)
    return frame;
}

Ptr<Packet>
EcnMarkingQueue::Mark(Ptr<const Packet> frame)
{
    EthernetHeader ethernet(false);
    if (frame->PeekHeader(ethernet) == 0)
    {
        return nullptr;
    }
    auto it = Markers().find(ethernet.GetLengthType());
    if (it == Markers().end())
    {
        return nullptr;
    }
    // The queue's frame may be held elsewhere too (a capture, the sender):
    // mark a copy.
    Ptr<Packet> marked = frame->Copy();
    EthernetTrailer trailer;
    marked->RemoveTrailer(trailer);
    marked->RemoveHeader(ethernet);
    if (!it->second(marked))
    {
        return nullptr;
    }
    marked->AddHeader(ethernet);
    if (trailer.GetFcs() != 0)
    {
        trailer.EnableFcs(true);
        trailer.CalcFcs(marked);
    }
    marked->AddTrailer(trailer);
    return marked;
}

bool
EcnMarkingQueue::MarkIpv4(Ptr<Packet> payload)
{
    Ipv4Header checked;
    checked.EnableChecksum(); // to learn whether the header carries a valid checksum
    if (payload->PeekHeader(checked) == 0 || checked.GetEcn() == Ipv4Header::ECN_NotECT)
    {
        return false;
    }
    // A router that changes a header updates its checksum (RFC 1624): a
    // header that carried a valid one (RoCEv2's always do) gets one again,
    // as does every header where ns-3 computes them.
    Ipv4Header ip;
    if (checked.IsChecksumOk() || Node::ChecksumEnabled())
    {
        ip.EnableChecksum();
    }
    payload->RemoveHeader(ip);
    ip.SetEcn(Ipv4Header::ECN_CE);
    payload->AddHeader(ip);
    return true;
}

} // namespace ns3
