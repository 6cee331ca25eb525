/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-arrival-event.h"

#include "ethernet-net-device.h"

#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

EthernetArrivalEvent::EthernetArrivalEvent(EthernetNetDevice* device)
    : m_device(device)
{
}

void
EthernetArrivalEvent::Schedule(Ptr<EthernetNetDevice> device, Ptr<Packet> frame, Time delay)
{
    device->ScheduleArrival(frame, delay);
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
    m_device->ReceiveArrival();
}

} // namespace ns3
