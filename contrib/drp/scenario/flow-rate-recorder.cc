/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-rate-recorder.h"

#include "ns3/abort.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-header.h"
#include "ns3/drp-transport.h"
#include "ns3/initiator-connection.h"
#include "ns3/log.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowRateRecorder");

FlowRateRecorder::FlowRateRecorder(Time interval)
    : m_interval(interval)
{
    NS_ABORT_MSG_IF(!interval.IsStrictlyPositive(),
                    "FlowRateRecorder: the interval must be above 0, not " << interval);
}

void
FlowRateRecorder::Connect(uint32_t host, Ptr<RnicNetDevice> rnic)
{
    Ptr<DrpTransport> transport = rnic->GetTransport();
    transport->TraceConnectWithoutContext(
        "InitiatorState",
        drp::
            FunctorCallback<void, uint16_t, InitiatorConnection::State, InitiatorConnection::State>(
                [this,
                 host](uint16_t tid, InitiatorConnection::State from, InitiatorConnection::State) {
                    if (from == InitiatorConnection::CLOSED)
                    {
                        OnStart(host, tid);
                    }
                }));
    const RnicNetDevice* device = PeekPointer(rnic);
    transport->TraceConnectWithoutContext(
        "Tx",
        drp::FunctorCallback<void, Ptr<const Packet>>(
            [this, host, device](Ptr<const Packet> packet) { OnTx(host, device, packet); }));
}

void
FlowRateRecorder::OnStart(uint32_t host, uint16_t tid)
{
    ++m_starts[{host, tid}];
}

void
FlowRateRecorder::OnTx(uint32_t host, const RnicNetDevice* rnic, Ptr<const Packet> packet)
{
    DrpHeader header;
    packet->PeekHeader(header);
    if (!header.HasFlag(DrpHeader::DATA) || header.IsRead())
    {
        return; // control frames, and a read's data (the responder's, not a write's)
    }
    auto started = m_starts.find({host, header.GetTid()});
    NS_ASSERT_MSG(started != m_starts.end(), "a data frame of a transfer that never started");
    Series& series = m_series[{host, header.GetTid(), started->second - 1}];
    const int64_t k = Simulator::Now().GetTimeStep() / m_interval.GetTimeStep();
    if (series.first < 0)
    {
        series.first = k;
    }
    const auto slot = static_cast<size_t>(k - series.first);
    if (slot >= series.bytes.size())
    {
        series.bytes.resize(slot + 1, 0);
        series.wireBytes.resize(slot + 1, 0);
    }
    series.bytes[slot] += header.GetLength();
    const uint32_t frame =
        EthernetNetDevice::HEADER_SIZE + packet->GetSize() + EthernetNetDevice::FCS_SIZE;
    series.wireBytes[slot] += rnic->GetWireSize(frame);
}

double
FlowRateRecorder::Sample::GetWireRate(Time interval) const
{
    return double(wireBytes) * 8 / interval.GetSeconds();
}

std::vector<FlowRateRecorder::Sample>
FlowRateRecorder::GetSamples(const std::vector<Transfer>& transfers) const
{
    // A host's transfers with one TID had it one after the other, in the
    // order they were posted (their index): the k-th of them is series k.
    std::vector<uint32_t> posted(transfers.size());
    std::iota(posted.begin(), posted.end(), 0);
    std::sort(posted.begin(), posted.end(), [&transfers](uint32_t a, uint32_t b) {
        return std::make_pair(transfers[a].first, transfers[a].second->index) <
               std::make_pair(transfers[b].first, transfers[b].second->index);
    });
    std::map<std::pair<uint32_t, uint16_t>, uint32_t> earlier; // per host and TID so far
    std::vector<Sample> samples;
    for (uint32_t position : posted)
    {
        const auto& [host, record] = transfers[position];
        auto it = m_series.find({host, record->tid, earlier[{host, record->tid}]++});
        if (it == m_series.end())
        {
            continue; // it sent no data frame
        }
        const Series& series = it->second;
        for (size_t slot = 0; slot < series.bytes.size(); ++slot)
        {
            samples.push_back({m_interval * int64_t(series.first + int64_t(slot)),
                               position,
                               series.bytes[slot],
                               series.wireBytes[slot]});
        }
    }
    std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) {
        return std::make_pair(a.time, a.transfer) < std::make_pair(b.time, b.transfer);
    });
    return samples;
}

} // namespace ns3
