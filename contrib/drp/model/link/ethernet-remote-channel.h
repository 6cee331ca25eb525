/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_REMOTE_CHANNEL_H
#define ETHERNET_REMOTE_CHANNEL_H

#include "ethernet-channel.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief An Ethernet cable whose two ends are on different MPI ranks of a
 * distributed simulation (ns-3's src/mpi).
 *
 * Every rank builds the whole topology; a node runs on the rank of its
 * system id (Node::GetSystemId()). Where a cable's two ends are on different
 * ranks, EthernetHelper makes this channel instead of an EthernetChannel and
 * aggregates an MpiReceiver to both ports, whose callback is Deliver().
 * TransmitStart() then hands a copy of the frame to
 * MpiInterface::SendPacket() with its arrival time, now + txTime + Delay,
 * and the far port's node and interface index, as ns-3's
 * PointToPointRemoteChannel does; the far rank schedules the MpiReceiver's
 * Receive() at that time in the node's context, and Deliver() schedules
 * the frame's EthernetArrivalEvent at once, where an EthernetChannel would
 * have scheduled that event when the frame left. With
 * ArrivalsLastScheduler, the difference does not change the order in
 * which the arrival runs. The frame's
 * bytes, packet tags and byte tags cross the ranks (Packet::Serialize); its
 * uid does not (the copy on the far rank has a new one).
 *
 * The Delay attribute (inherited) is the lookahead: the distributed
 * simulators (DistributedSimulatorImpl, NullMessageSimulatorImpl) take the
 * smallest Delay over the remote channels of the point-to-point devices
 * (EthernetNetDevice::IsPointToPoint() is true), so a remote cable needs a
 * Delay above 0.
 *
 * Built only when the ns-3 it builds against has its mpi module (CMake:
 * ENABLE_MPI); out of tree against Debian's packaged ns-3, which has none,
 * it is left out.
 */
class EthernetRemoteChannel : public EthernetChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EthernetRemoteChannel();
    ~EthernetRemoteChannel() override = default;

    /**
     * \brief Send a frame to the other end's rank.
     *
     * \param frame the frame (the other rank gets a serialized copy)
     * \param src the sending end
     * \param txTime the time from the frame's first bit to its last bit
     * \return false if no device is attached at the other end
     */
    bool TransmitStart(Ptr<const Packet> frame, Ptr<EthernetNetDevice> src, Time txTime) override;

    /**
     * \brief The MpiReceiver's callback at a port: the frame's arrival, now.
     *
     * The MpiReceiver runs at the frame's arrival time; this schedules the
     * EthernetArrivalEvent that calls EthernetNetDevice::Receive(), at the
     * same time, so that the scheduler can place it (ArrivalsLastScheduler).
     * \param device the receiving port
     * \param frame the frame from the other rank
     */
    static void Deliver(Ptr<EthernetNetDevice> device, Ptr<Packet> frame);
};

} // namespace ns3

#endif /* ETHERNET_REMOTE_CHANNEL_H */
