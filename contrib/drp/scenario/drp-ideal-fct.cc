/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-ideal-fct.h"

#include "ns3/abort.h"
#include "ns3/drp-header.h"
#include "ns3/drp-transport.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/pcie-link.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-v2-frame.h"
#include "ns3/uinteger.h"
#include "ns3/verbs-transfer-engine.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

DrpIdealFct::DrpIdealFct(Ptr<RdmaHostApplication> initiator,
                         Ptr<RdmaHostApplication> responder,
                         std::vector<Ptr<EthernetNetDevice>> forward,
                         std::vector<Ptr<EthernetNetDevice>> backward)
    : m_responder(responder),
      m_forward(std::move(forward)),
      m_backward(std::move(backward))
{
    NS_ABORT_MSG_IF(!initiator || !responder || !initiator->GetRnic() || !responder->GetRnic(),
                    "DrpIdealFct: both hosts need an RNIC");
    NS_ABORT_MSG_IF(m_forward.empty() || m_backward.empty(), "DrpIdealFct: an empty path");
    m_forwardDelays = Delays(m_forward);
    m_backwardDelays = Delays(m_backward);
    Ptr<DrpTransport> sender = initiator->GetRnic()->GetTransport();
    Ptr<DrpTransport> receiver = responder->GetRnic()->GetTransport();
    m_readLink = initiator->GetRnic()->GetPcieLink();
    m_writeLink = responder->GetRnic()->GetPcieLink();
    m_roce = initiator->GetRnic()->GetMethod() == ModePolicy::ROCE;
    m_payloadSize = sender->GetPayloadSize();
    UintegerValue window;
    sender->GetAttribute("Window", window);
    m_window = window.Get();
    if (m_roce)
    {
        // A packet per path MTU; the transmit engine's read-ahead is the
        // only limit on packets in flight.
        UintegerValue mtu;
        initiator->GetVerbsEngine()->GetAttribute("PathMtu", mtu);
        m_payloadSize = std::min<uint32_t>(mtu.Get(), initiator->GetRnic()->GetRoceActiveMtu());
        m_window = sender->GetTxPrefetchPerTransfer();
    }
    m_initiatorPcie = m_readLink->GetLatency();
    m_responderPcie = m_writeLink->GetLatency();
    TimeValue handler;
    initiator->GetAttribute("HandlerLatency", handler);
    m_handler = handler.Get();
    // The RoCE transport spends no processing time of its own per packet.
    m_initiatorTx = m_roce ? Time() : sender->GetTxDelay();
    m_initiatorRx = m_roce ? Time() : sender->GetRxDelay();
    m_responderTx = m_roce ? Time() : receiver->GetTxDelay();
    m_responderRx = m_roce ? Time() : receiver->GetRxDelay();
    m_readSetup = m_readLink->GetDmaSetupTime();
    m_writeSetup = m_writeLink->GetDmaSetupTime();
    m_afterRequest = AfterControl(true);
    m_afterReply = AfterControl(false);
}

uint32_t
DrpIdealFct::FrameSize(uint32_t payload, bool first) const
{
    uint32_t header = DrpHeader::SIZE;
    if (m_roce)
    {
        // IPv4, UDP, BTH, the first packet's RETH, the payload padded to 4
        // bytes, ICRC; an acknowledgement (payload 0) carries an AETH.
        header = RoceV2Frame::OVERHEAD + IbBthHeader::SIZE +
                 (payload == 0 ? IbAethHeader::SIZE : (first ? IbRethHeader::SIZE : 0));
        payload = (payload + 3) / 4 * 4;
    }
    return EthernetNetDevice::HEADER_SIZE +
           std::max(EthernetNetDevice::MIN_PAYLOAD_SIZE, header + payload) +
           EthernetNetDevice::FCS_SIZE;
}

std::vector<Time>
DrpIdealFct::Delays(const std::vector<Ptr<EthernetNetDevice>>& path)
{
    std::vector<Time> delays;
    for (const auto& device : path)
    {
        Ptr<EthernetChannel> cable = DynamicCast<EthernetChannel>(device->GetChannel());
        NS_ABORT_MSG_IF(!cable, "DrpIdealFct: a device of the path has no EthernetChannel");
        delays.push_back(cable->GetDelay());
    }
    return delays;
}

Time
DrpIdealFct::Pass(bool forward,
                  uint32_t size,
                  Time ready,
                  const PathTimes& previous,
                  PathTimes& times) const
{
    const auto& path = forward ? m_forward : m_backward;
    const auto& delays = forward ? m_forwardDelays : m_backwardDelays;
    times.departures.resize(path.size());
    times.free.resize(path.size());
    times.carries = previous.carries;
    for (std::size_t k = 0; k < path.size(); ++k)
    {
        times.departures[k] = std::max(ready, previous.free[k]);
        times.free[k] = times.departures[k] + path[k]->GetSlotTime(size, times.carries[k]);
        ready = times.departures[k] + path[k]->GetFrameTxTime(size) + delays[k];
    }
    return ready;
}

DrpIdealFct::PathTimes
DrpIdealFct::Idle(bool forward) const
{
    const std::size_t devices = (forward ? m_forward : m_backward).size();
    return {{}, std::vector<Time>(devices), std::vector<uint64_t>(devices, 0)};
}

DrpIdealFct::PathTimes
DrpIdealFct::AfterControl(bool forward) const
{
    PathTimes after;
    Pass(forward, FrameSize(0), Time(), Idle(forward), after);
    std::fill(after.free.begin(), after.free.end(), Time());
    return after;
}

Time
DrpIdealFct::Crossing(bool forward) const
{
    PathTimes times;
    return Pass(forward, FrameSize(0), Time(), Idle(forward), times);
}

DrpIdealFct::FrameTimes
DrpIdealFct::Next(uint32_t payload, const FrameTimes* previous, Time windowOpen) const
{
    const uint32_t size = FrameSize(payload, !previous);
    FrameTimes t;
    // The frame is read once the window lets it go; the read engine takes
    // one request after the other, and the payload is back after the
    // request went up and the completions came down.
    t.readDone = std::max(previous ? previous->readDone : Time(), windowOpen) + m_readSetup +
                 m_readLink->GetSerializationTime(payload);
    // The first frame follows the request on every port (RoCE: none), the
    // others the frame before them.
    Time ready = Pass(true,
                      size,
                      t.readDone + 2 * m_initiatorPcie + m_initiatorTx,
                      previous ? previous->data : (m_roce ? Idle(true) : m_afterRequest),
                      t.data);
    t.received = std::max(ready, previous ? previous->received : Time()) + m_responderRx;
    t.written = std::max(t.received, previous ? previous->written : Time()) + m_writeSetup +
                m_writeLink->GetSerializationTime(payload);
    // Its acknowledgement leaves when the write has landed, and may wait
    // for the one before it (the first: the reply) at each port on the way back.
    ready = Pass(false,
                 FrameSize(0),
                 t.written + m_responderPcie + m_responderTx,
                 previous ? previous->ack : (m_roce ? Idle(false) : m_afterReply),
                 t.ack);
    // The initiator's receive engine takes one frame at a time, as the
    // responder's does.
    t.acknowledged = std::max(ready, previous ? previous->acknowledged : Time()) + m_initiatorRx;
    return t;
}

DrpIdealFct::FrameTimes
DrpIdealFct::Frame(uint32_t index, uint32_t payload) const
{
    while (m_full.size() < index + (payload == m_payloadSize ? 1 : 0))
    {
        const std::size_t i = m_full.size();
        const Time windowOpen = i >= m_window ? WindowOpen(m_full[i - m_window]) : Time();
        FrameTimes next = Next(m_payloadSize, i > 0 ? &m_full[i - 1] : nullptr, windowOpen);
        m_full.push_back(std::move(next));
    }
    if (payload == m_payloadSize)
    {
        return m_full[index];
    }
    const Time windowOpen = index >= m_window ? WindowOpen(m_full[index - m_window]) : Time();
    return Next(payload, index > 0 ? &m_full[index - 1] : nullptr, windowOpen);
}

Time
DrpIdealFct::WindowOpen(const FrameTimes& earlier) const
{
    // DRP: the window's first frame was acknowledged; RoCE: the read-ahead's
    // first packet left the port.
    return m_roce ? earlier.data.departures.front() : earlier.acknowledged;
}

Time
DrpIdealFct::GetWrite(uint32_t bytes, uint64_t address) const
{
    if (bytes == 0)
    {
        throw std::invalid_argument("DrpIdealFct: bytes = 0 is no transfer (1 or more)");
    }
    if (m_roce)
    {
        // The queue pair's doorbell, the packets, the last acknowledgement,
        // the completion's interrupt.
        const uint32_t packets = (bytes + m_payloadSize - 1) / m_payloadSize;
        const FrameTimes last = Frame(packets - 1, bytes - (packets - 1) * m_payloadSize);
        return m_initiatorPcie + last.acknowledged + m_initiatorPcie;
    }
    const Time forward = m_initiatorTx + Crossing(true) + m_responderRx;
    const Time backward = m_responderTx + Crossing(false) + m_initiatorRx;
    const Time handshake = m_initiatorPcie + forward + m_responderPcie +
                           m_responder->GetRegistrationTime(address, bytes) + m_responderPcie +
                           backward + m_initiatorPcie + m_handler + m_initiatorPcie;
    const uint32_t frames = (bytes + m_payloadSize - 1) / m_payloadSize;
    const FrameTimes last = Frame(frames - 1, bytes - (frames - 1) * m_payloadSize);
    // After the last acknowledgement: release request, release reply, interrupt.
    return handshake + last.acknowledged + forward + backward + m_initiatorPcie;
}

} // namespace ns3
