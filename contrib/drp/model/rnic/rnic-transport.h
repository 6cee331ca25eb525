/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RNIC_TRANSPORT_H
#define RNIC_TRANSPORT_H

#include "drp-tx-scheduler.h"

#include "ns3/callback.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief What the RNIC's port asks of a transport: the small interface both
 * of drp's transports implement (DrpTransport, the traditional and dynamic
 * methods' engine; RoceTransport, RoCEv2's reliable connection).
 *
 * The port (RnicNetDevice) owns the wire: it pulls the transports' frames
 * when it can send one, in the kinds PFC lets go, and hands each arriving
 * frame to the transport its EtherType (and, for RoCEv2, its UDP port)
 * names. A transport never calls the port to send: it queues a frame and
 * runs the frame-ready callback, and the port pulls when the wire is free.
 * The verbs (model/verbs) sit above the transports; the PCIe link, the host
 * model and the congestion control are shared below them (each transport
 * reaches them through the RNIC).
 *
 * It is a plain interface rather than an ns-3 Object so that a transport
 * can be an Object of its own kind (RoceTransport is the verbs' provider).
 */
class RnicTransport
{
  public:
    virtual ~RnicTransport() = default;

    /**
     * \param ready runs each time a frame is queued (the port may pull it at once)
     */
    virtual void SetFrameReadyCallback(Callback<void> ready) = 0;
    /**
     * \param kinds DrpTxScheduler::CONTROL and/or DATA: the kinds PFC lets go
     * \return true if a frame of those kinds waits
     */
    virtual bool HasFrameToSend(uint8_t kinds = DrpTxScheduler::ANY) const = 0;
    /**
     * Takes the next frame for the wire.
     * \param [out] to the frame's destination
     * \param kinds the kinds PFC lets go (HasFrameToSend() holds for them)
     * \param [out] control if not null, true for a control frame (acknowledgements,
     *        handshakes: the port's control class under PFC)
     * \return the Ethernet payload
     */
    virtual Ptr<Packet> DequeueFrame(Mac48Address& to,
                                     uint8_t kinds = DrpTxScheduler::ANY,
                                     bool* control = nullptr) = 0;
    /// \return the EtherType of the frames this transport sends
    virtual uint16_t GetEtherType() const = 0;
    /**
     * A frame for this transport arrived at the port.
     * \param packet the Ethernet payload
     * \param from the sending station
     */
    virtual void Receive(Ptr<Packet> packet, Mac48Address from) = 0;
};

} // namespace ns3

#endif /* RNIC_TRANSPORT_H */
