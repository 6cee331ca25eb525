/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_ARRIVAL_EVENT_H
#define ETHERNET_ARRIVAL_EVENT_H

#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class EthernetNetDevice;

/**
 * \ingroup drp
 * \brief The arrival of a frame's last bit at a port: the event that calls
 * EthernetNetDevice::Receive() at the end of a cable.
 *
 * EthernetChannel and EthernetRemoteChannel schedule this event, in the
 * receiving node's context, instead of an anonymous MakeEvent() of
 * Receive(): it does exactly what that did, and with ns-3's schedulers it
 * takes the same place among the events of its time stamp (the order they
 * were scheduled in). ArrivalsLastScheduler recognises it and orders the
 * arrivals of one time stamp by node and interface index, after every
 * other event of that time stamp, whenever they were scheduled: that makes
 * a run's results independent of when the arrivals were scheduled, which a
 * distributed run changes (see ArrivalsLastScheduler).
 *
 * Each port has one such event, made once and scheduled for every frame
 * that comes to it (the frames wait in the port, oldest first: one cable
 * brings them one after the other, so they arrive in the order they were
 * sent), rather than a new event per frame.
 */
class EthernetArrivalEvent : public EventImpl
{
  public:
    /**
     * \param device the receiving port, whose event this is (it outlives
     *        the event's use: the port cancels it when disposed)
     */
    explicit EthernetArrivalEvent(EthernetNetDevice* device);

    /**
     * \brief Schedule the arrival of a frame at a port, in the port's node's
     * context.
     * \param device the receiving port
     * \param frame the frame
     * \param delay the time from now to the arrival of its last bit
     */
    static void Schedule(Ptr<EthernetNetDevice> device, Ptr<Packet> frame, Time delay);

    /// \return the receiving port's node id (the event's context)
    uint32_t GetNodeId() const;
    /// \return the receiving port's interface index on its node
    uint32_t GetIfIndex() const;

  protected:
    /// Hands the port's oldest arriving frame to EthernetNetDevice::Receive().
    void Notify() override;

  private:
    EthernetNetDevice* m_device; //!< the receiving port (which holds this event)
};

} // namespace ns3

#endif /* ETHERNET_ARRIVAL_EVENT_H */
