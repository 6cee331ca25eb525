/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-buffer.h"

#include "ns3/double.h"
#include "ns3/drp-compat.h"
#include "ns3/enum.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <bitset>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchBuffer");

NS_OBJECT_ENSURE_REGISTERED(SwitchBuffer);

TypeId
SwitchBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchBuffer")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<SwitchBuffer>()
            .AddAttribute("BufferSize",
                          "Bytes of the switch's packet memory (12 MiB: the HPCC simulator's "
                          "SwitchMmu default).",
                          UintegerValue(12 * 1024 * 1024),
                          MakeUintegerAccessor(&SwitchBuffer::m_bufferSize),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 40))
            .AddAttribute("ReservePerQueue",
                          "Bytes reserved for every (ingress port, class) (4 KB: the HPCC "
                          "simulator's).",
                          UintegerValue(4 * 1024),
                          MakeUintegerAccessor(&SwitchBuffer::m_reserve),
                          MakeUintegerChecker<uint32_t>(0, 1u << 30))
            .AddAttribute("ResumeOffset",
                          "XON threshold = XOFF threshold - ResumeOffset, bytes (3 KB: the HPCC "
                          "simulator's).",
                          UintegerValue(3 * 1024),
                          MakeUintegerAccessor(&SwitchBuffer::m_resumeOffset),
                          MakeUintegerChecker<uint32_t>(0, 1u << 30))
            .AddAttribute(
                "ThresholdMode",
                "XOFF threshold per queue: Dynamic (Alpha x free shared buffer) or "
                "Static (StaticXoff).",
                EnumValue(SwitchBuffer::DYNAMIC),
                DRP_ENUM_ACCESSOR(SwitchBuffer::ThresholdMode, &SwitchBuffer::m_mode),
                MakeEnumChecker(SwitchBuffer::DYNAMIC, "Dynamic", SwitchBuffer::STATIC, "Static"))
            .AddAttribute("Alpha",
                          "Dynamic threshold: a queue's shared bytes may reach Alpha x the "
                          "free shared buffer (1/8: the HPCC simulator's).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SwitchBuffer::m_alpha),
                          MakeDoubleChecker<double>(1.0 / 1024, 64))
            .AddAttribute("StaticXoff",
                          "Static threshold: shared bytes a queue may hold before XOFF.",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&SwitchBuffer::m_staticXoff),
                          MakeUintegerChecker<uint32_t>(1, 1u << 30))
            .AddAttribute("Headroom",
                          "Headroom of every (port, lossless class), bytes; 0: sized from the "
                          "port's link (2 x Delay x DataRate + 3 largest frames + a pause "
                          "frame).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SwitchBuffer::m_headroomAttr),
                          MakeUintegerChecker<uint32_t>(0, 1u << 30))
            .AddAttribute("LosslessClasses",
                          "Classes that are never dropped for want of shared buffer, one bit "
                          "per class (0x08: class 3, RnicNetDevice's DrpClass).",
                          UintegerValue(0x08),
                          MakeUintegerAccessor(&SwitchBuffer::m_lossless),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("Xoff",
                            "An ingress queue went XOFF: its port pauses the class.",
                            MakeTraceSourceAccessor(&SwitchBuffer::m_xoffTrace),
                            "ns3::SwitchBuffer::PauseTracedCallback")
            .AddTraceSource("Xon",
                            "An ingress queue went XON: its port resumes the class.",
                            MakeTraceSourceAccessor(&SwitchBuffer::m_xonTrace),
                            "ns3::SwitchBuffer::PauseTracedCallback")
            .AddTraceSource("Drop",
                            "A frame the buffer refused.",
                            MakeTraceSourceAccessor(&SwitchBuffer::m_dropTrace),
                            "ns3::SwitchBuffer::DropTracedCallback");
    return tid;
}

SwitchBuffer::SwitchBuffer()
{
    NS_LOG_FUNCTION(this);
}

SwitchBuffer::~SwitchBuffer()
{
    NS_LOG_FUNCTION(this);
}

void
SwitchBuffer::DoDispose()
{
    m_ports.clear();
    Object::DoDispose();
}

uint32_t
SwitchBuffer::ComputeHeadroom(Ptr<EthernetNetDevice> port)
{
    auto channel = DynamicCast<EthernetChannel>(port->GetChannel());
    const Time delay = channel ? channel->GetDelay() : Time(0);
    const double cableBytes = delay.GetSeconds() * port->GetDataRate().GetBitRate() / 8;
    const uint32_t largest = port->GetWireSize(port->GetMtu() + EthernetNetDevice::HEADER_SIZE +
                                               EthernetNetDevice::FCS_SIZE);
    const uint32_t pause = port->GetWireSize(EthernetNetDevice::MIN_FRAME_SIZE);
    return static_cast<uint32_t>(std::ceil(2 * cableBytes)) + 3 * largest + pause;
}

uint32_t
SwitchBuffer::GetHeadroomOf(Ptr<EthernetNetDevice> port) const
{
    return m_headroomAttr > 0 ? m_headroomAttr : ComputeHeadroom(port);
}

uint64_t
SwitchBuffer::GetCommittedSize(const std::vector<Ptr<EthernetNetDevice>>& ports) const
{
    const uint64_t lossless = std::bitset<CLASSES>(m_lossless).count();
    uint64_t committed = uint64_t(m_reserve) * CLASSES * ports.size();
    for (const auto& port : ports)
    {
        committed += lossless * GetHeadroomOf(port);
    }
    return committed;
}

void
SwitchBuffer::RequireRoomFor(const std::vector<Ptr<EthernetNetDevice>>& ports) const
{
    RequireRoomFor(GetCommittedSize(ports), ports.size());
}

void
SwitchBuffer::RequireRoomFor(uint64_t committed, std::size_t ports) const
{
    if (committed > m_bufferSize)
    {
        std::ostringstream os;
        os << "SwitchBuffer::BufferSize = " << m_bufferSize << " bytes is below the " << committed
           << " bytes that the reserves (" << m_reserve << " bytes x " << unsigned(CLASSES)
           << " classes per port) and headrooms (one per lossless class "
           << "per port) of the switch's " << ports << " ports take: give it at least " << committed
           << " bytes";
        throw std::invalid_argument(os.str());
    }
}

uint32_t
SwitchBuffer::AddPort(Ptr<EthernetNetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    const uint32_t headroom = GetHeadroomOf(port);
    const uint64_t lossless = std::bitset<CLASSES>(m_lossless).count();
    RequireRoomFor(uint64_t(m_reserve) * CLASSES * (m_ports.size() + 1) + m_totalHeadroom +
                       lossless * headroom,
                   m_ports.size() + 1);
    m_ports.push_back(port);
    m_headroom.push_back(headroom);
    m_queues.resize(m_ports.size() * CLASSES);
    m_totalHeadroom += lossless * headroom;
    return m_ports.size() - 1;
}

uint32_t
SwitchBuffer::GetNPorts() const
{
    return m_ports.size();
}

SwitchBuffer::QueueStats&
SwitchBuffer::At(uint32_t port, uint8_t cls)
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size() && cls < CLASSES,
                        "SwitchBuffer: no queue (" << port << ", " << unsigned(cls) << ")");
    return m_queues[port * CLASSES + cls];
}

bool
SwitchBuffer::IsLossless(uint8_t cls) const
{
    return cls < CLASSES && (m_lossless >> cls) & 1;
}

uint64_t
SwitchBuffer::GetSharedPoolSize() const
{
    return m_bufferSize - uint64_t(m_reserve) * CLASSES * m_ports.size() - m_totalHeadroom;
}

uint64_t
SwitchBuffer::GetXoffThreshold() const
{
    if (m_mode == STATIC)
    {
        return m_staticXoff;
    }
    return static_cast<uint64_t>(m_alpha * (GetSharedPoolSize() - m_sharedUsed));
}

SwitchBuffer::Placement
SwitchBuffer::Admit(uint32_t port, uint8_t cls, uint32_t bytes)
{
    QueueStats& q = At(port, cls);
    if (q.reserveBytes + bytes <= m_reserve)
    {
        return RESERVE;
    }
    if (q.sharedBytes + bytes <= GetXoffThreshold() && m_sharedUsed + bytes <= GetSharedPoolSize())
    {
        return SHARED;
    }
    if (!IsLossless(cls))
    {
        ++q.drops;
        ++m_sharedDrops;
        m_dropTrace(port, cls, bytes, SHARED_FULL);
        return SHARED_FULL;
    }
    if (q.headroomBytes + bytes <= m_headroom[port])
    {
        return HEADROOM;
    }
    NS_LOG_WARN("port " << port << " class " << unsigned(cls) << ": headroom of "
                        << m_headroom[port] << " bytes overflows (" << q.headroomBytes
                        << " held, frame of " << bytes << ")");
    ++q.drops;
    ++m_headroomDrops;
    m_dropTrace(port, cls, bytes, HEADROOM_OVERFLOW);
    return HEADROOM_OVERFLOW;
}

void
SwitchBuffer::Add(uint32_t port, uint8_t cls, uint32_t bytes, Placement placement)
{
    QueueStats& q = At(port, cls);
    switch (placement)
    {
    case RESERVE:
        q.reserveBytes += bytes;
        break;
    case SHARED:
        q.sharedBytes += bytes;
        m_sharedUsed += bytes;
        break;
    case HEADROOM:
        q.headroomBytes += bytes;
        ++q.headroomFrames;
        q.headroomAdmitted += bytes;
        break;
    default:
        NS_FATAL_ERROR("SwitchBuffer::Add: a dropped frame takes no bytes");
    }
    m_used += bytes;
    m_peakUsed = std::max(m_peakUsed, m_used);
    q.peakBytes = std::max(q.peakBytes, q.reserveBytes + q.sharedBytes + q.headroomBytes);
    if (IsLossless(cls))
    {
        CheckXoff(q, port, cls);
    }
}

void
SwitchBuffer::Remove(uint32_t port, uint8_t cls, uint32_t bytes)
{
    QueueStats& q = At(port, cls);
    NS_ABORT_MSG_IF(bytes > q.reserveBytes + q.sharedBytes + q.headroomBytes,
                    "SwitchBuffer: queue (" << port << ", " << unsigned(cls) << ") frees " << bytes
                                            << " bytes it does not hold");
    const uint32_t fromHeadroom = std::min(q.headroomBytes, bytes);
    const uint32_t fromShared = std::min(q.sharedBytes, bytes - fromHeadroom);
    q.headroomBytes -= fromHeadroom;
    q.sharedBytes -= fromShared;
    q.reserveBytes -= bytes - fromHeadroom - fromShared;
    m_sharedUsed -= fromShared;
    m_used -= bytes;
    if (IsLossless(cls))
    {
        CheckXon(q, port, cls);
    }
}

void
SwitchBuffer::CheckXoff(QueueStats& q, uint32_t port, uint8_t cls)
{
    if (!q.xoff && (q.headroomBytes > 0 || q.sharedBytes >= GetXoffThreshold()))
    {
        q.xoff = true;
        ++q.xoffs;
        SetPaused(port, cls, true);
        m_xoffTrace(port, cls);
    }
}

void
SwitchBuffer::CheckXon(QueueStats& q, uint32_t port, uint8_t cls)
{
    if (q.xoff && q.headroomBytes == 0 &&
        (q.sharedBytes == 0 || q.sharedBytes + uint64_t(m_resumeOffset) <= GetXoffThreshold()))
    {
        q.xoff = false;
        SetPaused(port, cls, false);
        m_xonTrace(port, cls);
    }
}

void
SwitchBuffer::SetPaused(uint32_t port, uint8_t cls, bool paused)
{
    NS_LOG_LOGIC("port " << port << " class " << unsigned(cls) << (paused ? " XOFF" : " XON"));
    Ptr<EthernetNetDevice> device = m_ports[port];
    if (device->IsPfcEnabled())
    {
        device->SetClassPaused(cls, paused);
    }
}

uint32_t
SwitchBuffer::GetHeadroom(uint32_t port) const
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(), "SwitchBuffer: no port " << port);
    return m_headroom[port];
}

SwitchBuffer::QueueStats
SwitchBuffer::GetQueueStats(uint32_t port, uint8_t cls) const
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size() && cls < CLASSES,
                        "SwitchBuffer: no queue (" << port << ", " << unsigned(cls) << ")");
    return m_queues[port * CLASSES + cls];
}

uint64_t
SwitchBuffer::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
SwitchBuffer::GetUsed() const
{
    return m_used;
}

uint64_t
SwitchBuffer::GetPeakUsed() const
{
    return m_peakUsed;
}

uint64_t
SwitchBuffer::GetHeadroomDrops() const
{
    return m_headroomDrops;
}

uint64_t
SwitchBuffer::GetSharedDrops() const
{
    return m_sharedDrops;
}

std::string
SwitchBuffer::GetPlacementName(Placement why)
{
    static const char* names[] = {"reserve",
                                  "shared",
                                  "headroom",
                                  "shared-buffer-full",
                                  "headroom-overflow"};
    return names[why];
}

} // namespace ns3
