/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-remote-channel.h"

#include "ethernet-arrival-event.h"
#include "ethernet-net-device.h"

#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(EthernetRemoteChannel);

TypeId
EthernetRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EthernetRemoteChannel")
                            .SetParent<EthernetChannel>()
                            .SetGroupName("Drp")
                            .AddConstructor<EthernetRemoteChannel>();
    return tid;
}

EthernetRemoteChannel::EthernetRemoteChannel()
{
    NS_LOG_FUNCTION(this);
    // A frame from another rank comes as bytes, its packet tags named by
    // their TypeId's hash: the receiving rank must know every tag a frame
    // can carry before the first arrives. A PFC class travels as a
    // SocketPriorityTag, which ns-3 (3.37, for one) does not register when
    // its library loads.
    SocketPriorityTag::GetTypeId();
}

bool
EthernetRemoteChannel::TransmitStart(Ptr<const Packet> frame,
                                     Ptr<EthernetNetDevice> src,
                                     Time txTime)
{
    NS_LOG_FUNCTION(this << frame << src << txTime);
    Ptr<EthernetNetDevice> dst = GetPeer(src);
    if (!dst)
    {
        NS_LOG_WARN("EthernetRemoteChannel " << GetId() << ": no device at the other end");
        return false;
    }
    Time transit = txTime + GetDelay();
    NotifyTransit(frame, src, dst, txTime, transit);
    MpiInterface::SendPacket(frame->Copy(),
                             Simulator::Now() + transit,
                             dst->GetNode()->GetId(),
                             dst->GetIfIndex());
    return true;
}

void
EthernetRemoteChannel::Deliver(Ptr<EthernetNetDevice> device, Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(device << frame);
    EthernetArrivalEvent::Schedule(device, frame, Seconds(0));
}

} // namespace ns3
