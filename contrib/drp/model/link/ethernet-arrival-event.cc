/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-arrival-event.h"

#include "ethernet-net-device.h"

#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

EthernetArrivalEvent::EthernetArrivalEvent(Ptr<EthernetNetDevice> device, Ptr<Packet> frame)
    : m_device(device),
      m_frame(frame),
      m_nodeId(device->GetNode()->GetId()),
      m_ifIndex(device->GetIfIndex())
{
}

void
EthernetArrivalEvent::Schedule(Ptr<EthernetNetDevice> device, Ptr<Packet> frame, Time delay)
{
    auto event = new EthernetArrivalEvent(device, frame);
    // The simulator takes the reference that new gave the event.
    Simulator::ScheduleWithContext(event->m_nodeId, delay, event);
}

uint32_t
EthernetArrivalEvent::GetNodeId() const
{
    return m_nodeId;
}

uint32_t
EthernetArrivalEvent::GetIfIndex() const
{
    return m_ifIndex;
}

void
EthernetArrivalEvent::Notify()
{
    m_device->Receive(m_frame);
}

} // namespace ns3
