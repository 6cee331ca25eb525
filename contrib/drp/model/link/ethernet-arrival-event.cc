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
      m_frame(frame)
{
}

void
EthernetArrivalEvent::Schedule(Ptr<EthernetNetDevice> device, Ptr<Packet> frame, Time delay)
{
    // The simulator takes the reference that new gives the event.
    Simulator::ScheduleWithContext(device->GetNode()->GetId(),
                                   delay,
                                   new EthernetArrivalEvent(device, frame));
}

uint32_t
EthernetArrivalEvent::GetNodeId() const
{
    return m_device->GetNode()->GetId();
}

uint32_t
EthernetArrivalEvent::GetIfIndex() const
{
    return m_device->GetIfIndex();
}

void
EthernetArrivalEvent::Notify()
{
    m_device->Receive(m_frame);
}

} // namespace ns3
