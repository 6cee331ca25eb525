/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-workload-helper.h"

#include "ns3/double.h"
#include "ns3/drp-check.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricWorkloadHelper");

FabricWorkloadHelper::FabricWorkloadHelper(const FabricHelper& fabric)
    : m_fabric(fabric),
      m_hosts(fabric.GetHosts().GetN()),
      m_operation(RdmaHostApplication::WRITE),
      m_choice(CreateObject<UniformRandomVariable>()),
      m_gap(CreateObject<ExponentialRandomVariable>())
{
    m_gap->SetAttribute("Mean", DoubleValue(1.0));
}

void
FabricWorkloadHelper::SetOperation(RdmaHostApplication::Operation operation)
{
    m_operation = operation;
}

void
FabricWorkloadHelper::RequireHost(uint32_t host, const char* what) const
{
    if (host >= m_hosts)
    {
        std::ostringstream os;
        os << "FabricWorkloadHelper: " << what << " " << host << " is out of range [0, "
           << m_hosts - 1 << "] (the fabric's hosts)";
        throw std::invalid_argument(os.str());
    }
}

void
FabricWorkloadHelper::RequireBytes(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("FabricWorkloadHelper bytes",
                                  bytes,
                                  1,
                                  std::numeric_limits<uint32_t>::max());
}

void
FabricWorkloadHelper::RequireRoom(double more, const std::string& what) const
{
    if (m_flows.size() + more > MAX_FLOWS)
    {
        std::ostringstream os;
        os << "FabricWorkloadHelper: " << what << " would give " << std::setprecision(3) << more
           << " flows";
        if (!m_flows.empty())
        {
            os << " besides the " << m_flows.size() << " already added";
        }
        os << ", more than the " << MAX_FLOWS << " one workload may hold";
        throw std::invalid_argument(os.str());
    }
}

void
FabricWorkloadHelper::SetFlowId(uint16_t id)
{
    m_flowId = id;
}

uint32_t
FabricWorkloadHelper::AddFlow(uint32_t source, uint32_t destination, uint32_t bytes, Time start)
{
    RequireHost(source, "source");
    RequireHost(destination, "destination");
    RequireBytes(bytes);
    if (source == destination)
    {
        throw std::invalid_argument("FabricWorkloadHelper: a flow from host " +
                                    std::to_string(source) + " to itself");
    }
    drp::RequireInRange<Time>("FabricWorkloadHelper flow start", start, Seconds(0), Seconds(1000));
    RequireRoom(1, "a flow");
    m_flows.push_back(Flow{source, destination, bytes, start, m_operation, m_flowId});
    return 1;
}

uint32_t
FabricWorkloadHelper::AddIncast(uint32_t receiver,
                                const std::vector<uint32_t>& senders,
                                uint32_t bytes,
                                Time start,
                                Time jitter)
{
    RequireHost(receiver, "receiver");
    RequireBytes(bytes);
    drp::RequireInRange<Time>("FabricWorkloadHelper incast jitter",
                              jitter,
                              Seconds(0),
                              Seconds(1000));
    if (senders.empty())
    {
        throw std::invalid_argument("FabricWorkloadHelper: an incast needs at least one sender");
    }
    for (uint32_t s : senders)
    {
        RequireHost(s, "sender");
        if (s == receiver)
        {
            throw std::invalid_argument(
                "FabricWorkloadHelper: the incast receiver cannot be one of its senders");
        }
    }
    RequireRoom(senders.size(), "an incast of " + std::to_string(senders.size()) + " senders");
    for (uint32_t s : senders)
    {
        Time offset;
        if (jitter.IsStrictlyPositive())
        {
            offset =
                NanoSeconds(static_cast<int64_t>(m_choice->GetValue(0, jitter.GetNanoSeconds())));
        }
        m_flows.push_back(Flow{s, receiver, bytes, start + offset, m_operation, m_flowId});
    }
    return senders.size();
}

uint32_t
FabricWorkloadHelper::AddIncastOfDegree(uint32_t receiver,
                                        uint32_t degree,
                                        uint32_t bytes,
                                        Time start,
                                        Time jitter)
{
    RequireHost(receiver, "receiver");
    drp::RequireInRange<uint32_t>("FabricWorkloadHelper incast degree",
                                  degree,
                                  1,
                                  std::max<uint32_t>(m_hosts, 2) - 1);
    std::vector<uint32_t> senders;
    for (uint32_t h = 0; senders.size() < degree; ++h)
    {
        if (h != receiver)
        {
            senders.push_back(h);
        }
    }
    return AddIncast(receiver, senders, bytes, start, jitter);
}

uint32_t
FabricWorkloadHelper::AddPermutation(uint32_t bytes, Time start)
{
    RequireBytes(bytes);
    drp::RequireInRange<uint32_t>("FabricWorkloadHelper permutation hosts", m_hosts, 2, 65535);
    RequireRoom(m_hosts, "a permutation of " + std::to_string(m_hosts) + " hosts");
    // A uniform derangement: shuffle (Fisher-Yates) until no host is its own partner.
    std::vector<uint32_t> partner(m_hosts);
    bool fixedPoint = true;
    while (fixedPoint)
    {
        std::iota(partner.begin(), partner.end(), 0);
        for (uint32_t i = m_hosts - 1; i > 0; --i)
        {
            std::swap(partner[i], partner[m_choice->GetInteger(0, i)]);
        }
        fixedPoint = false;
        for (uint32_t h = 0; h < m_hosts; ++h)
        {
            fixedPoint |= partner[h] == h;
        }
    }
    for (uint32_t h = 0; h < m_hosts; ++h)
    {
        m_flows.push_back(Flow{h, partner[h], bytes, start, m_operation, m_flowId});
    }
    return m_hosts;
}

uint32_t
FabricWorkloadHelper::AddAllToAll(uint32_t bytes, Time start)
{
    RequireBytes(bytes);
    RequireRoom(double(m_hosts) * (m_hosts - 1),
                "all-to-all among " + std::to_string(m_hosts) + " hosts");
    uint32_t added = 0;
    for (uint32_t s = 0; s < m_hosts; ++s)
    {
        for (uint32_t d = 0; d < m_hosts; ++d)
        {
            if (s != d)
            {
                m_flows.push_back(Flow{s, d, bytes, start, m_operation, m_flowId});
                ++added;
            }
        }
    }
    return added;
}

uint32_t
FabricWorkloadHelper::DrawOtherHost(uint32_t source)
{
    // Uniform over the other hosts: draw among hosts - 1 and skip the source.
    uint32_t d = m_choice->GetInteger(0, m_hosts - 2);
    return d >= source ? d + 1 : d;
}

uint32_t
FabricWorkloadHelper::AddPoisson(const FlowSizeCdf& sizes,
                                 double load,
                                 DataRate hostRate,
                                 Time start,
                                 Time duration)
{
    drp::RequireInRange<uint32_t>("FabricWorkloadHelper Poisson hosts", m_hosts, 2, 65535);
    const double expected = GetExpectedPoissonFlows(m_hosts, sizes, load, hostRate, duration);
    const double meanGap = GetPoissonMeanGap(sizes, load, hostRate);
    std::ostringstream what;
    what << "Poisson arrivals at load " << load << " for duration " << duration.As(Time::S)
         << " (mean flow " << sizes.GetMeanBytes() << " B)";
    RequireRoom(expected, what.str()); // with the flows added before
    Ptr<EmpiricalRandomVariable> size = sizes.CreateRandomVariable();
    if (m_sizeStream >= 0)
    {
        size->SetStream(m_sizeStream++);
    }
    const Time end = start + duration;
    uint32_t added = 0;
    for (uint32_t s = 0; s < m_hosts; ++s)
    {
        Time t = start;
        for (;;)
        {
            // A gap far past the end ends the host's arrivals before it
            // becomes a Time, which it could overflow; any other is added as
            // a Time and compared as one.
            const double gap = meanGap * m_gap->GetValue();
            if (gap > (end - t).GetSeconds() + 1)
            {
                break;
            }
            t += Seconds(gap);
            if (t >= end)
            {
                break;
            }
            if (m_flows.size() >= MAX_FLOWS)
            {
                RequireRoom(added + 1, what.str() + ", as drawn,");
            }
            const uint32_t d = DrawOtherHost(s);
            m_flows.push_back(Flow{s,
                                   d,
                                   FlowSizeCdf::ToTransferSize(size->GetValue()),
                                   t,
                                   m_operation,
                                   m_flowId});
            ++added;
        }
    }
    NS_LOG_INFO(added << " Poisson flows, mean gap " << meanGap * 1e6 << " us per host");
    return added;
}

double
FabricWorkloadHelper::GetExpectedPoissonFlows(uint32_t hosts,
                                              const FlowSizeCdf& sizes,
                                              double load,
                                              DataRate hostRate,
                                              Time duration)
{
    if (!(load > 0 && load <= 1))
    {
        std::ostringstream os;
        os << "FabricWorkloadHelper load = " << load << " is out of range (0, 1]";
        throw std::invalid_argument(os.str());
    }
    if (!duration.IsStrictlyPositive())
    {
        std::ostringstream os;
        os << "FabricWorkloadHelper duration = " << duration.As(Time::S) << " must be positive";
        throw std::invalid_argument(os.str());
    }
    const double meanGap = GetPoissonMeanGap(sizes, load, hostRate);
    if (!(meanGap < Time::Max().GetSeconds()))
    {
        std::ostringstream os;
        os << "FabricWorkloadHelper load = " << load << " makes the mean gap between a host's "
           << "flows " << std::setprecision(4) << meanGap << " s (mean flow "
           << sizes.GetMeanBytes() << " B at " << hostRate.GetBitRate()
           << " bit/s), beyond ns-3's time range (" << Time::Max().GetSeconds()
           << " s): give a larger load";
        throw std::invalid_argument(os.str());
    }
    const double expected = hosts * (duration.GetSeconds() / meanGap);
    if (expected > MAX_FLOWS)
    {
        std::ostringstream os;
        os << "FabricWorkloadHelper: Poisson arrivals at load " << load << " for duration "
           << duration.As(Time::S) << " (mean flow " << std::setprecision(3) << sizes.GetMeanBytes()
           << " B) on " << hosts << " hosts would give " << expected << " flows, more than the "
           << MAX_FLOWS << " one workload may hold";
        throw std::invalid_argument(os.str());
    }
    return expected;
}

double
FabricWorkloadHelper::GetPoissonMeanGap(const FlowSizeCdf& sizes, double load, DataRate hostRate)
{
    // Mean gap of each source, in seconds: mean bits / (rate x load).
    return sizes.GetMeanBytes() * 8 / (static_cast<double>(hostRate.GetBitRate()) * load);
}

const std::vector<FabricWorkloadHelper::Flow>&
FabricWorkloadHelper::GetFlows() const
{
    return m_flows;
}

ApplicationContainer
FabricWorkloadHelper::Install(RdmaHostHelper host) const
{
    host.SetAttribute("Transfers", UintegerValue(0));
    ApplicationContainer apps = host.Install(m_fabric.GetHosts());
    for (const Flow& flow : m_flows)
    {
        Ptr<RdmaHostApplication> app = DynamicCast<RdmaHostApplication>(apps.Get(flow.source));
        if (!FabricHelper::IsLocal(m_fabric.GetHost(flow.source)))
        {
            // Another rank runs this host: its copy here posts nothing, but
            // the responders here check their grants against it.
            app->AddWorkloadPeer(
                Mac48Address::ConvertFrom(m_fabric.GetRnic(flow.destination)->GetAddress()));
            continue;
        }
        app->AddTransfer(
            flow.start,
            Mac48Address::ConvertFrom(m_fabric.GetRnic(flow.destination)->GetAddress()),
            flow.bytes,
            flow.operation);
    }
    return apps;
}

int64_t
FabricWorkloadHelper::AssignStreams(int64_t stream)
{
    m_choice->SetStream(stream);
    m_gap->SetStream(stream + 1);
    m_sizeStream = stream + 2;
    return 3;
}

} // namespace ns3
