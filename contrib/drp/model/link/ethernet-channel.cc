/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-channel.h"

#include "ethernet-arrival-event.h"
#include "ethernet-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetChannel");

NS_OBJECT_ENSURE_REGISTERED(EthernetChannel);

TypeId
EthernetChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EthernetChannel")
            .SetParent<Channel>()
            .SetGroupName("Drp")
            .AddConstructor<EthernetChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable, first bit out to first bit in. "
                          "The default, 0, models the short cables of a rack or a "
                          "test bench; signals travel about 5 ns per metre.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&EthernetChannel::SetDelay, &EthernetChannel::GetDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("TxRxEthernet",
                            "A frame was put on the cable: frame, sending device, "
                            "receiving device, transmission time, time until its last "
                            "bit arrives.",
                            MakeTraceSourceAccessor(&EthernetChannel::m_txrxTrace),
                            "ns3::EthernetChannel::TxRxAnimationCallback");
    return tid;
}

EthernetChannel::EthernetChannel()
    : m_nDevices(0)
{
    NS_LOG_FUNCTION(this);
}

void
EthernetChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& end : m_ends)
    {
        end = nullptr;
    }
    m_nDevices = 0;
    Channel::DoDispose();
}

void
EthernetChannel::Attach(Ptr<EthernetNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_UNLESS(device, "EthernetChannel::Attach: null device");
    if (m_nDevices >= N_ENDS)
    {
        NS_FATAL_ERROR("EthernetChannel " << GetId() << ": a cable has two ends, both in use; "
                                          << "cannot attach a third device (node "
                                          << (device->GetNode() ? device->GetNode()->GetId() : 0)
                                          << ")");
    }
    m_ends[m_nDevices++] = device;
}

bool
EthernetChannel::TransmitStart(Ptr<const Packet> frame, Ptr<EthernetNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << frame << src << txTime);
    if (m_nDevices < N_ENDS)
    {
        NS_LOG_WARN("EthernetChannel " << GetId() << ": no device at the other end");
        return false;
    }
    Ptr<EthernetNetDevice> dst = (m_ends[0] == src) ? m_ends[1] : m_ends[0];
    NS_ASSERT_MSG(m_ends[0] == src || m_ends[1] == src, "the sender is not on this cable");
    Time transit = txTime + m_delay;
    m_txrxTrace(frame, src, dst, txTime, transit);
    EthernetArrivalEvent::Schedule(dst, frame->Copy(), transit);
    return true;
}

Ptr<EthernetNetDevice>
EthernetChannel::GetPeer(Ptr<EthernetNetDevice> src) const
{
    if (m_nDevices < N_ENDS)
    {
        return nullptr;
    }
    NS_ASSERT_MSG(m_ends[0] == src || m_ends[1] == src, "the sender is not on this cable");
    return (m_ends[0] == src) ? m_ends[1] : m_ends[0];
}

void
EthernetChannel::NotifyTransit(Ptr<const Packet> frame,
                               Ptr<EthernetNetDevice> src,
                               Ptr<EthernetNetDevice> dst,
                               Time txTime,
                               Time transit)
{
    m_txrxTrace(frame, src, dst, txTime, transit);
}

void
EthernetChannel::SetDelay(Time delay)
{
    NS_LOG_FUNCTION(this << delay);
    m_delay = delay;
}

Time
EthernetChannel::GetDelay() const
{
    return m_delay;
}

Ptr<EthernetNetDevice>
EthernetChannel::GetEthernetDevice(std::size_t i) const
{
    NS_ASSERT_MSG(i < N_ENDS, "a cable has two ends");
    return m_ends[i];
}

std::size_t
EthernetChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
EthernetChannel::GetDevice(std::size_t i) const
{
    return GetEthernetDevice(i);
}

} // namespace ns3
