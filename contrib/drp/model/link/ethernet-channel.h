/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_CHANNEL_H
#define ETHERNET_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstddef>

namespace ns3
{

class EthernetNetDevice;

/**
 * \ingroup drp
 * \brief A full-duplex Ethernet cable joining exactly two EthernetNetDevice.
 *
 * The cable carries the two directions independently (two fibres or
 * wire pairs): it has no state and never makes one end wait for the other.
 * A frame whose transmission starts at t arrives at the other end, as a
 * call of EthernetNetDevice::Receive() in the receiving node's context, at
 * t + txTime + Delay, where txTime is the time of its last bit given by the
 * sender. That call is an EthernetArrivalEvent, which ArrivalsLastScheduler
 * can tell from other events.
 */
class EthernetChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EthernetChannel();
    ~EthernetChannel() override = default;

    /**
     * \brief Plug a device into the next free end of the cable.
     *
     * Attaching a third device is a fatal error.
     * \param device the device
     */
    void Attach(Ptr<EthernetNetDevice> device);

    /**
     * \brief Start sending a frame from one end to the other.
     *
     * \param frame the frame (the receiver gets a copy)
     * \param src the sending end
     * \param txTime the time from the frame's first bit to its last bit
     * \return false if no device is attached at the other end
     *
     * Virtual: EthernetRemoteChannel hands the frame to another MPI rank.
     */
    virtual bool TransmitStart(Ptr<const Packet> frame, Ptr<EthernetNetDevice> src, Time txTime);

    /// \param delay the propagation delay of the cable
    void SetDelay(Time delay);
    /// \return the propagation delay of the cable
    Time GetDelay() const;

    /**
     * \param i the end, 0 or 1
     * \return the device at end i (null if none)
     */
    Ptr<EthernetNetDevice> GetEthernetDevice(std::size_t i) const;

    // Inherited from Channel
    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

    /**
     * TracedCallback signature for a frame's transit of the cable.
     *
     * \param [in] frame the frame
     * \param [in] txDevice the sending device
     * \param [in] rxDevice the receiving device
     * \param [in] duration the transmission time (first bit to last bit
     *             leaving the sender)
     * \param [in] lastBitTime the time from the first bit leaving to the last
     *             bit arriving (duration + Delay)
     *
     * The same signature as PointToPointChannel's TxRxPointToPoint.
     */
    typedef void (*TxRxAnimationCallback)(Ptr<const Packet> frame,
                                          Ptr<NetDevice> txDevice,
                                          Ptr<NetDevice> rxDevice,
                                          Time duration,
                                          Time lastBitTime);

  protected:
    void DoDispose() override;

    /**
     * \param src one end of the cable
     * \return the device at the other end, or null if none is attached yet
     */
    Ptr<EthernetNetDevice> GetPeer(Ptr<EthernetNetDevice> src) const;

    /**
     * \brief Fire the TxRxEthernet trace for a frame put on the cable.
     * \param frame the frame
     * \param src the sending device
     * \param dst the receiving device
     * \param txTime the transmission time
     * \param transit txTime + Delay
     */
    void NotifyTransit(Ptr<const Packet> frame,
                       Ptr<EthernetNetDevice> src,
                       Ptr<EthernetNetDevice> dst,
                       Time txTime,
                       Time transit);

  private:
    /// Number of ends of a cable.
    static constexpr std::size_t N_ENDS = 2;

    std::array<Ptr<EthernetNetDevice>, N_ENDS> m_ends; //!< the two ends
    std::size_t m_nDevices;                            //!< ends in use
    Time m_delay;                                      //!< propagation delay

    /// The TxRxEthernet trace source: every frame put on the cable.
    TracedCallback<Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time> m_txrxTrace;
};

} // namespace ns3

#endif /* ETHERNET_CHANNEL_H */
