/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-host-application.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/enum.h"
#include "ns3/host-memory.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rdma-context.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <iterator>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHostApplication");

NS_OBJECT_ENSURE_REGISTERED(RdmaHostApplication);

TypeId
RdmaHostApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaHostApplication")
            .SetParent<Application>()
            .SetGroupName("Drp")
            .AddConstructor<RdmaHostApplication>()
            .AddAttribute("Peer",
                          "MAC address of the peer RNIC; unset: no workload (responder only).",
                          AddressValue(),
                          MakeAddressAccessor(&RdmaHostApplication::m_peer),
                          MakeAddressChecker())
            .AddAttribute("Transfers",
                          "Transfers to run.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaHostApplication::m_transfers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TransferSize",
                          "Bytes per transfer (1 to 2^31).",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&RdmaHostApplication::SetTransferSize,
                                               &RdmaHostApplication::GetTransferSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Operation",
                          "RDMA write or read.",
                          EnumValue(WRITE),
                          DRP_ENUM_ACCESSOR(RdmaHostApplication::Operation,
                                            &RdmaHostApplication::m_operation),
                          MakeEnumChecker(WRITE, "write", READ, "read"))
            .AddAttribute(
                "Gap",
                "Pause between the end of a transfer and the start of the next "
                "(0 to 1000 s).",
                TimeValue(Time(0)),
                MakeTimeAccessor(&RdmaHostApplication::SetGap, &RdmaHostApplication::GetGap),
                MakeTimeChecker())
            .AddAttribute("Concurrency",
                          "Transfers the workload runs at once (1 to 1024); MaxInFlight of "
                          "them are posted to the RNIC at once, the others wait in the host.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaHostApplication::SetConcurrency,
                                               &RdmaHostApplication::GetConcurrency),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxInFlight",
                          "Transfers posted to the RNIC and not yet ended, at most: the RNIC's "
                          "limit on transfers in progress, like its queue-pair limit (1 to "
                          "65535). Further transfers wait in the host, first come first served; "
                          "their wait counts in their duration. 64 by default: a peer's one CPU "
                          "registers 64 regions of 128 KiB (20 us each) in 1.28 ms, within the "
                          "1.5 ms handshake timer.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaHostApplication::SetMaxInFlight,
                                               &RdmaHostApplication::GetMaxInFlight),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RegistrationFixedLatency",
                          "Time the host takes to register (pin) a region, or to fail to, "
                          "besides RegistrationLatencyPerPage per page (0 to 10 s; 8 us: "
                          "with the default per page, 20 us for 128 KiB).",
                          TimeValue(MicroSeconds(8)),
                          MakeTimeAccessor(&RdmaHostApplication::SetRegistrationFixed,
                                           &RdmaHostApplication::GetRegistrationFixed),
                          MakeTimeChecker())
            .AddAttribute("RegistrationLatencyPerPage",
                          "Registration time per 4 KiB page the region touches (0 to 1 ms; "
                          "375 ns, measured: 500 GiB registered in 49.2 s).",
                          TimeValue(NanoSeconds(375)),
                          MakeTimeAccessor(&RdmaHostApplication::SetRegistrationPerPage,
                                           &RdmaHostApplication::GetRegistrationPerPage),
                          MakeTimeChecker())
            // After the two above: at construction, a value set here replaces theirs.
            .AddAttribute("RegistrationLatency",
                          "Deprecated: the whole time of any registration, whatever the region "
                          "spans. Setting it (0 to 10 s) sets RegistrationFixedLatency to it and "
                          "RegistrationLatencyPerPage to 0; -1ns (the default) sets nothing. "
                          "Reads -1ns unless RegistrationLatencyPerPage is 0.",
                          TimeValue(NanoSeconds(-1)),
                          MakeTimeAccessor(&RdmaHostApplication::SetRegistrationLatency,
                                           &RdmaHostApplication::GetRegistrationLatency),
                          MakeTimeChecker(),
                          DRP_SUPPORT_DEPRECATED,
                          "use RegistrationFixedLatency and RegistrationLatencyPerPage")
            .AddAttribute("RegistrationFailureProbability",
                          "FRP: probability that a registration attempt fails (0 to 1).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RdmaHostApplication::SetFailureProbability,
                                             &RdmaHostApplication::GetFailureProbability),
                          MakeDoubleChecker<double>())
            .AddAttribute("RegistrationRandomVariable",
                          "Draws that decide registrations: a draw below FRP fails.",
                          StringValue("ns3::UniformRandomVariable[Min=0.0|Max=1.0]"),
                          MakePointerAccessor(&RdmaHostApplication::m_registrationRv),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("HandlerLatency",
                          "Host time between an RNIC interrupt that needs an answer and "
                          "the answering doorbell (0 to 10 s).",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&RdmaHostApplication::SetHandlerLatency,
                                           &RdmaHostApplication::GetHandlerLatency),
                          MakeTimeChecker())
            .AddAttribute("Grants",
                          "Which regions of this host a peer's request may name: workload (the "
                          "region the peer's own workload targets here, and Grant()'s), explicit "
                          "(only Grant()'s) or any (every valid region).",
                          EnumValue(WORKLOAD),
                          DRP_ENUM_ACCESSOR(RdmaHostApplication::GrantPolicy,
                                            &RdmaHostApplication::m_grantPolicy),
                          MakeEnumChecker(WORKLOAD, "workload", EXPLICIT, "explicit", ANY, "any"))
            .AddAttribute("MaxRegisteredBytesPerPeer",
                          "Memory this host registers for one peer's transfers at once, at most "
                          "(1 to 2^63; 4 GiB: one workload window).",
                          UintegerValue(uint64_t(1) << 32),
                          MakeUintegerAccessor(&RdmaHostApplication::m_maxBytesPerPeer),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 63))
            .AddAttribute("ForgetData",
                          "Once a transfer of this host has ended and its TransferComplete "
                          "trace has run, forget the bytes of both its regions (HostMemory::"
                          "Forget), so that a long run's memory stays bounded (false: every "
                          "region keeps its bytes to the end of the run).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaHostApplication::m_forgetData),
                          MakeBooleanChecker())
            .AddAttribute("MaxRegisteredBytes",
                          "Memory this host registers for all peers' transfers at once, at most "
                          "(1 to 2^63; 64 GiB).",
                          UintegerValue(uint64_t(1) << 36),
                          MakeUintegerAccessor(&RdmaHostApplication::m_maxBytes),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 63))
            .AddTraceSource("RequestRefused",
                            "A registration request was refused (answered invalid without "
                            "registering): not granted, or over a limit.",
                            MakeTraceSourceAccessor(&RdmaHostApplication::m_refusalTrace),
                            "ns3::RdmaHostApplication::RefusalTracedCallback")
            .AddTraceSource("TransferStart",
                            "A transfer of the workload starts (before its data is written "
                            "and its doorbell rung).",
                            MakeTraceSourceAccessor(&RdmaHostApplication::m_transferStartTrace),
                            "ns3::RdmaHostApplication::TransferStartTracedCallback")
            .AddTraceSource("TransferPost",
                            "A transfer of the workload is posted: the host rings the doorbell "
                            "(after waiting for admission, if MaxInFlight or the RNIC's "
                            "transfer ids held it back).",
                            MakeTraceSourceAccessor(&RdmaHostApplication::m_transferPostTrace),
                            "ns3::RdmaHostApplication::TransferPostTracedCallback")
            .AddTraceSource("TransferComplete",
                            "A transfer this host initiated ended (successfully or not).",
                            MakeTraceSourceAccessor(&RdmaHostApplication::m_transferTrace),
                            "ns3::RdmaHostApplication::TransferTracedCallback")
            .AddTraceSource("Registration",
                            "A registration attempt for a peer's transfer finished.",
                            MakeTraceSourceAccessor(&RdmaHostApplication::m_registrationTrace),
                            "ns3::RdmaHostApplication::RegistrationTracedCallback");
    return tid;
}

RdmaHostApplication::RdmaHostApplication()
    : m_transfers(0),
      m_transferSize(131072),
      m_operation(WRITE),
      m_concurrency(1),
      m_registrationFixed(MicroSeconds(8)),
      m_registrationPerPage(NanoSeconds(375)),
      m_failureProbability(0),
      m_contentRv(CreateObject<UniformRandomVariable>()),
      m_grantPolicy(WORKLOAD),
      m_maxBytesPerPeer(uint64_t(1) << 32),
      m_maxBytes(uint64_t(1) << 36),
      m_registeredTotal(0),
      m_refused{},
      m_maxInFlight(64),
      m_inFlight(0),
      m_doorbells(0),
      m_started(0),
      m_failedRegistrations(0)
{
    NS_LOG_FUNCTION(this);
}

void
RdmaHostApplication::DoDispose()
{
    m_retry.Cancel();
    m_waiting.clear();
    m_rnic = nullptr;
    m_cpus = nullptr;
    m_peerHosts.clear();
    if (m_verbs)
    {
        m_verbs->Dispose();
        m_verbs = nullptr;
    }
    m_registrationRv = nullptr;
    m_contentRv = nullptr;
    Application::DoDispose();
}

void
RdmaHostApplication::SetTransferSize(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("RdmaHostApplication::TransferSize", bytes, 1, 1u << 31);
    m_transferSize = bytes;
}

void
RdmaHostApplication::SetConcurrency(uint32_t transfers)
{
    drp::RequireInRange<uint32_t>("RdmaHostApplication::Concurrency", transfers, 1, 1024);
    m_concurrency = transfers;
}

void
RdmaHostApplication::SetFailureProbability(double p)
{
    drp::RequireInRange<double>("RdmaHostApplication::RegistrationFailureProbability", p, 0, 1);
    m_failureProbability = p;
}

uint32_t
RdmaHostApplication::GetTransferSize() const
{
    return m_transferSize;
}

uint32_t
RdmaHostApplication::GetConcurrency() const
{
    return m_concurrency;
}

double
RdmaHostApplication::GetFailureProbability() const
{
    return m_failureProbability;
}

void
RdmaHostApplication::SetGap(Time gap)
{
    drp::RequireInRange<Time>("RdmaHostApplication::Gap", gap, Time(0), Seconds(1000));
    m_gap = gap;
}

Time
RdmaHostApplication::GetGap() const
{
    return m_gap;
}

void
RdmaHostApplication::SetRegistrationFixed(Time latency)
{
    drp::RequireInRange<Time>("RdmaHostApplication::RegistrationFixedLatency",
                              latency,
                              Time(0),
                              Seconds(10));
    m_registrationFixed = latency;
}

Time
RdmaHostApplication::GetRegistrationFixed() const
{
    return m_registrationFixed;
}

void
RdmaHostApplication::SetRegistrationPerPage(Time latency)
{
    drp::RequireInRange<Time>("RdmaHostApplication::RegistrationLatencyPerPage",
                              latency,
                              Time(0),
                              MilliSeconds(1));
    m_registrationPerPage = latency;
}

Time
RdmaHostApplication::GetRegistrationPerPage() const
{
    return m_registrationPerPage;
}

void
RdmaHostApplication::SetRegistrationLatency(Time latency)
{
    if (latency == NanoSeconds(-1))
    {
        return; // the default: not set
    }
    drp::RequireInRange<Time>("RdmaHostApplication::RegistrationLatency (deprecated)",
                              latency,
                              Time(0),
                              Seconds(10));
    m_registrationFixed = latency;
    m_registrationPerPage = Time(0);
}

Time
RdmaHostApplication::GetRegistrationLatency() const
{
    return m_registrationPerPage.IsZero() ? m_registrationFixed : NanoSeconds(-1);
}

Time
RdmaHostApplication::GetRegistrationTime(uint64_t address, uint32_t length) const
{
    return HostMemory::GetRegistrationTime(m_registrationFixed,
                                           m_registrationPerPage,
                                           address,
                                           length);
}

void
RdmaHostApplication::SetMaxInFlight(uint32_t transfers)
{
    drp::RequireInRange<uint32_t>("RdmaHostApplication::MaxInFlight", transfers, 1, 65535);
    m_maxInFlight = transfers;
}

uint32_t
RdmaHostApplication::GetMaxInFlight() const
{
    return m_maxInFlight;
}

void
RdmaHostApplication::SetHandlerLatency(Time latency)
{
    drp::RequireInRange<Time>("RdmaHostApplication::HandlerLatency", latency, Time(0), Seconds(10));
    m_handlerLatency = latency;
}

Time
RdmaHostApplication::GetHandlerLatency() const
{
    return m_handlerLatency;
}

int64_t
RdmaHostApplication::AssignStreams(int64_t stream)
{
    m_registrationRv->SetStream(stream);
    m_contentRv->SetStream(stream + 1);
    return 2;
}

const std::vector<DrpTransferRecord>&
RdmaHostApplication::GetRecords() const
{
    return m_records;
}

uint32_t
RdmaHostApplication::GetStarted() const
{
    return m_started;
}

uint32_t
RdmaHostApplication::GetFailedRegistrations() const
{
    return m_failedRegistrations;
}

uint32_t
RdmaHostApplication::GetInFlight() const
{
    return m_inFlight;
}

uint32_t
RdmaHostApplication::GetQueued() const
{
    return m_waiting.size();
}

uint32_t
RdmaHostApplication::GetOpenTransfers() const
{
    return m_inFlight + m_waiting.size() + m_ringWaiting.size();
}

Ptr<RnicNetDevice>
RdmaHostApplication::GetRnic() const
{
    return m_rnic;
}

Ptr<HostCpus>
RdmaHostApplication::GetCpus() const
{
    return m_cpus;
}

uint64_t
RdmaHostApplication::GetSlotStride() const
{
    uint64_t page = HostMemory::PAGE_SIZE;
    return (uint64_t(m_transferSize) + page - 1) / page * page;
}

void
RdmaHostApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    FindRnic();
    m_cpus = GetNode()->GetObject<HostCpus>();
    if (!m_cpus)
    {
        m_cpus = CreateObject<HostCpus>();
        GetNode()->AggregateObject(m_cpus);
    }
    if (m_rnic->GetMethod() == ModePolicy::ROCE)
    {
        GetVerbsEngine();
    }
    NS_ABORT_MSG_IF(m_rnic->GetTransport()->HasHost(),
                    "node " << GetNode()->GetId()
                            << ": the RNIC already serves another RdmaHostApplication (one host "
                               "application per RNIC)");
    m_rnic->GetTransport()->SetHostCallbacks(
        MakeCallback(&RdmaHostApplication::OnRegistrationRequest, this),
        MakeCallback(&RdmaHostApplication::OnReply, this),
        MakeCallback(&RdmaHostApplication::OnCompletion, this),
        MakeCallback(&RdmaHostApplication::OnResponderDone, this));
    NS_ABORT_MSG_IF(m_transfers > 0 && !m_list.empty(),
                    "RdmaHostApplication on node "
                        << GetNode()->GetId()
                        << " has both Transfers > 0 and a transfer list: use one of them");
    for (uint32_t position = 0; position < m_list.size(); ++position)
    {
        Simulator::Schedule(m_list[position].delay,
                            &RdmaHostApplication::StartListed,
                            this,
                            position);
    }
    if (m_transfers > 0)
    {
        NS_ABORT_MSG_UNLESS(Mac48Address::IsMatchingType(m_peer),
                            "RdmaHostApplication on node "
                                << GetNode()->GetId()
                                << " has Transfers > 0 but no Peer (a Mac48Address)");
        for (uint32_t slot = 0; slot < std::min(m_concurrency, m_transfers); ++slot)
        {
            StartTransfer(slot);
        }
    }
}

void
RdmaHostApplication::FindRnic()
{
    for (uint32_t i = 0; i < GetNode()->GetNDevices() && !m_rnic; ++i)
    {
        m_rnic = DynamicCast<RnicNetDevice>(GetNode()->GetDevice(i));
    }
    NS_ABORT_MSG_IF(!m_rnic,
                    "RdmaHostApplication on node " << GetNode()->GetId()
                                                   << " has no RnicNetDevice");
}

Ptr<VerbsTransferEngine>
RdmaHostApplication::GetVerbsEngine()
{
    if (!m_verbs)
    {
        FindRnic();
        NS_ABORT_MSG_IF(m_rnic->GetMethod() != ModePolicy::ROCE,
                        "node " << GetNode()->GetId()
                                << ": a roce RNIC's transfer reached an RNIC whose method is "
                                << ModePolicy::GetName(m_rnic->GetMethod())
                                << " (every host of a run takes one method)");
        m_verbs = CreateObject<VerbsTransferEngine>();
        m_verbs->Open(m_rnic, MakeCallback(&RdmaHostApplication::OnVerbsCompletion, this));
        // Registrations over the verbs (a connection per transfer's) cost
        // what this host's cost, and fail as they fail.
        Ptr<RdmaContext> context = m_verbs->GetContext();
        context->SetRegistrationFixed(m_registrationFixed);
        context->SetRegistrationPerPage(m_registrationPerPage);
        context->SetFailureProbability(m_failureProbability);
    }
    return m_verbs;
}

void
RdmaHostApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_transfers = m_started; // start nothing more
    m_stopped = true;
}

void
RdmaHostApplication::StartTransfer(uint32_t slot)
{
    if (m_started >= m_transfers)
    {
        return;
    }
    m_transferStartTrace(m_started);
    const uint64_t offset = slot * GetSlotStride();
    Prepare(Pending{m_started++,
                    slot,
                    Simulator::Now(),
                    Mac48Address::ConvertFrom(m_peer),
                    m_operation == READ,
                    offset,
                    (uint64_t(GetNode()->GetId() + 1) << 32) + offset,
                    m_transferSize});
}

void
RdmaHostApplication::StartListed(uint32_t position)
{
    if (m_stopped)
    {
        return;
    }
    m_transferStartTrace(position);
    ++m_listStarted;
    m_ringWaiting.emplace_back(position, Simulator::Now());
    StartRingWaiting();
}

void
RdmaHostApplication::StartRingWaiting()
{
    uint64_t offset = 0;
    while (!m_ringWaiting.empty() &&
           TakeRingRegion(m_list[m_ringWaiting.front().first].bytes, offset))
    {
        const auto [position, asked] = m_ringWaiting.front();
        m_ringWaiting.pop_front();
        const Listed& listed = m_list[position];
        Prepare(Pending{position,
                        0,
                        asked,
                        listed.peer,
                        listed.operation == READ,
                        offset,
                        (uint64_t(GetNode()->GetId() + 1) << 32) + offset,
                        listed.bytes});
    }
    if (!m_ringWaiting.empty())
    {
        NS_LOG_INFO(m_ringWaiting.size() << " listed transfers wait for room in the 4 GiB ring");
    }
}

bool
RdmaHostApplication::IsRingFree(uint64_t offset, uint64_t bytes) const
{
    auto next = m_ringInUse.lower_bound(offset);
    if (next != m_ringInUse.end() && next->first < offset + bytes)
    {
        return false;
    }
    return next == m_ringInUse.begin() ||
           std::prev(next)->first + std::prev(next)->second <= offset;
}

bool
RdmaHostApplication::TakeRingRegion(uint32_t bytes, uint64_t& offset)
{
    const uint64_t ring = uint64_t(1) << 32;
    const uint64_t page = HostMemory::PAGE_SIZE;
    const uint64_t stride = (uint64_t(bytes) + page - 1) / page * page;
    offset = m_ringNext + stride > ring ? 0 : m_ringNext;
    if (!IsRingFree(offset, stride))
    {
        // The next region is in use: the first free gap that is large enough.
        uint64_t gap = 0;
        for (const auto& [start, length] : m_ringInUse)
        {
            if (start >= gap + stride)
            {
                break;
            }
            gap = start + length;
        }
        if (gap + stride > ring)
        {
            return false;
        }
        offset = gap;
    }
    m_ringInUse[offset] = stride;
    m_ringNext = offset + stride;
    return true;
}

void
RdmaHostApplication::Prepare(const Pending& pending)
{
    // Fresh bytes in this host's buffer: a write's source, or a read's
    // destination, so that a read that moved nothing fails the comparison of
    // the two regions (the slot still held the previous read's data).
    uint64_t seed = (uint64_t(m_contentRv->GetInteger(0, UINT32_MAX)) << 32) |
                    m_contentRv->GetInteger(0, UINT32_MAX);
    m_rnic->GetHostMemory()->Fill(pending.sba, pending.length, seed);
    // The transfer's own buffer is registered before it is posted, as an
    // RDMA application registers its buffers (instantly here: the model's
    // registration cost is the responder's). Over the verbs, its memory
    // region is that registration.
    if (!m_verbs)
    {
        m_rnic->GetHostMemory()->Register(pending.sba, pending.length);
    }
    m_waiting.push_back(pending);
    PostWaiting();
}

void
RdmaHostApplication::AddTransfer(Time delay, Mac48Address peer, uint32_t bytes, Operation operation)
{
    NS_LOG_FUNCTION(this << delay << peer << bytes << operation);
    drp::RequireInRange<uint32_t>("RdmaHostApplication::AddTransfer bytes",
                                  bytes,
                                  1,
                                  std::numeric_limits<uint32_t>::max());
    drp::RequireInRange<int64_t>("RdmaHostApplication::AddTransfer delay (ns)",
                                 delay.GetNanoSeconds(),
                                 0,
                                 std::numeric_limits<int64_t>::max());
    m_list.push_back(Listed{delay, peer, bytes, operation});
    m_listPeers.insert(peer);
}

void
RdmaHostApplication::AddWorkloadPeer(Mac48Address peer)
{
    NS_LOG_FUNCTION(this << peer);
    m_listPeers.insert(peer);
}

uint32_t
RdmaHostApplication::GetListedTransfers() const
{
    return m_list.size();
}

void
RdmaHostApplication::PostWaiting()
{
    while (!m_waiting.empty() && m_inFlight < m_maxInFlight)
    {
        // The posts already rung take their TIDs first (a DRP transport's).
        Time freeAt =
            m_verbs ? Simulator::Now() : m_rnic->GetTransport()->GetTidsFreeAt(m_doorbells + 1);
        if (freeAt > Simulator::Now())
        {
            // Every TID is in use or held back. A transfer of ours that ends
            // calls again; a hold that ends is waited for here.
            NS_LOG_INFO(m_waiting.size() << " transfers wait for a free transfer id");
            Simulator::Remove(m_retry);
            if (freeAt != Time::Max())
            {
                m_retry = Simulator::Schedule(freeAt - Simulator::Now(),
                                              &RdmaHostApplication::PostWaiting,
                                              this);
            }
            return;
        }
        Pending pending = m_waiting.front();
        m_waiting.pop_front();
        Post(pending);
    }
}

void
RdmaHostApplication::Post(const Pending& pending)
{
    NS_LOG_FUNCTION(this << pending.index);
    ++m_inFlight;
    m_transferPostTrace(pending.index, Simulator::Now() - pending.start);
    if (m_verbs)
    {
        // The queue pair's doorbell crosses PCIe (the transport rings it).
        Ptr<RdmaHostApplication> peer = FindHostOf(pending.peer);
        NS_ABORT_MSG_IF(!peer,
                        "node " << GetNode()->GetId() << ": no RdmaHostApplication behind "
                                << pending.peer << " to take a roce transfer");
        const uint32_t key = m_nextVerbsKey++;
        m_pending[key] = pending;
        m_verbs->Post(key,
                      peer->GetVerbsEngine(),
                      pending.read,
                      pending.sba,
                      pending.dba,
                      pending.length);
        return;
    }
    ++m_doorbells;
    m_rnic->GetPcieLink()->Doorbell([this, pending]() {
        --m_doorbells;
        uint16_t tid = m_rnic->GetTransport()->PostTransfer(pending.peer,
                                                            pending.read,
                                                            pending.sba,
                                                            pending.dba,
                                                            pending.length);
        m_pending[tid] = pending;
    });
}

void
RdmaHostApplication::OnReply(uint16_t tid)
{
    NS_LOG_FUNCTION(this << tid);
    Ptr<DrpTransport> transport = m_rnic->GetTransport();
    m_cpus->Run(m_handlerLatency, [transport, tid]() { transport->RingStartData(tid); });
}

void
RdmaHostApplication::OnRegistrationRequest(Mac48Address peer,
                                           uint16_t tid,
                                           bool read,
                                           uint64_t address,
                                           uint32_t length)
{
    NS_LOG_FUNCTION(this << peer << tid << read << address << length);
    Refusal refusal = Admit(peer, address, length);
    if (refusal != REFUSALS)
    {
        m_cpus->Run(m_handlerLatency, [this, peer, tid, address, length, refusal]() {
            Refuse(peer, tid, address, length, refusal);
        });
        return;
    }
    m_cpus->Run(GetRegistrationTime(address, length), [this, peer, tid, address, length]() {
        FinishRegistration(peer, tid, address, length);
    });
}

void
RdmaHostApplication::FinishRegistration(Mac48Address peer,
                                        uint16_t tid,
                                        uint64_t address,
                                        uint32_t length)
{
    // The limits are checked again: other registrations may have finished meanwhile.
    Refusal refusal = Admit(peer, address, length);
    if (refusal != REFUSALS)
    {
        Refuse(peer, tid, address, length, refusal);
        return;
    }
    bool success = m_registrationRv->GetValue() >= m_failureProbability;
    NS_LOG_INFO("registration of " << length << " bytes for transfer " << tid << " of " << peer
                                   << (success ? " succeeded" : " failed"));
    if (success)
    {
        m_rnic->GetHostMemory()->Register(address, length);
        m_registrations[{peer, tid}] = {address, length};
        m_registeredPerPeer[peer] += length;
        m_registeredTotal += length;
    }
    else
    {
        ++m_failedRegistrations;
    }
    m_registrationTrace(peer, tid, success);
    m_rnic->GetTransport()->RingRegistrationDone(peer, tid, success);
}

void
RdmaHostApplication::Grant(Mac48Address peer, uint64_t address, uint64_t length)
{
    NS_LOG_FUNCTION(this << peer << address << length);
    HostMemory::RequireValidRegion("RdmaHostApplication::Grant", address, length);
    m_grants[peer].insert(
        boost::icl::discrete_interval<uint64_t>::right_open(address, address + length));
}

bool
RdmaHostApplication::IsGranted(Mac48Address peer, uint64_t address, uint64_t length) const
{
    if (!HostMemory::IsValidRegion(address, length))
    {
        return false;
    }
    if (m_grantPolicy == ANY)
    {
        return true;
    }
    auto grants = m_grants.find(peer);
    if (grants != m_grants.end() &&
        boost::icl::contains(
            grants->second,
            boost::icl::discrete_interval<uint64_t>::right_open(address, address + length)))
    {
        return true;
    }
    if (m_grantPolicy == WORKLOAD && m_rnic)
    {
        Ptr<RdmaHostApplication> initiator = FindHostOf(peer);
        if (initiator)
        {
            auto region =
                initiator->GetWorkloadRegion(Mac48Address::ConvertFrom(m_rnic->GetAddress()));
            return HostMemory::IsWithin(address, length, region.first, region.second);
        }
    }
    return false;
}

std::pair<uint64_t, uint64_t>
RdmaHostApplication::GetWorkloadRegion(Mac48Address peer) const
{
    uint64_t base = uint64_t(GetNode()->GetId() + 1) << 32;
    if (m_listPeers.count(peer) != 0)
    {
        return {base, uint64_t(1) << 32}; // the whole ring
    }
    if (m_transfers == 0 || !Mac48Address::IsMatchingType(m_peer) ||
        Mac48Address::ConvertFrom(m_peer) != peer)
    {
        return {0, 0};
    }
    return {base, uint64_t(std::min(m_concurrency, m_transfers)) * GetSlotStride()};
}

Ptr<RdmaHostApplication>
RdmaHostApplication::FindHostOf(Mac48Address peer) const
{
    auto known = m_peerHosts.find(peer);
    if (known != m_peerHosts.end())
    {
        return known->second;
    }
    Ptr<RdmaHostApplication> host = LookUpHostOf(peer);
    m_peerHosts[peer] = host;
    return host;
}

Ptr<RdmaHostApplication>
RdmaHostApplication::HostOn(Ptr<Node> node, Mac48Address peer, bool& found)
{
    found = false;
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<RnicNetDevice> rnic = DynamicCast<RnicNetDevice>(node->GetDevice(i));
        if (!rnic || Mac48Address::ConvertFrom(rnic->GetAddress()) != peer)
        {
            continue;
        }
        found = true;
        for (uint32_t j = 0; j < node->GetNApplications(); ++j)
        {
            auto host = DynamicCast<RdmaHostApplication>(node->GetApplication(j));
            if (host)
            {
                return host;
            }
        }
        return nullptr;
    }
    return nullptr;
}

Ptr<RdmaHostApplication>
RdmaHostApplication::LookUpHostOf(Mac48Address peer)
{
    // RNIC address -> node id. Ids, not pointers: the index holds no node
    // alive, and an entry is checked against the node before it is used, so
    // an index from an earlier simulation (NodeList starts again after
    // Simulator::Destroy) or from before an address changed is rebuilt.
    static std::map<Mac48Address, uint32_t> index;
    bool found = false;
    auto it = index.find(peer);
    if (it != index.end() && it->second < NodeList::GetNNodes())
    {
        Ptr<RdmaHostApplication> host = HostOn(NodeList::GetNode(it->second), peer, found);
        if (found)
        {
            return host;
        }
    }
    index.clear();
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
        {
            if (Ptr<RnicNetDevice> rnic = DynamicCast<RnicNetDevice>((*node)->GetDevice(i)))
            {
                // The first node with the address wins, as the search did.
                index.emplace(Mac48Address::ConvertFrom(rnic->GetAddress()), (*node)->GetId());
            }
        }
    }
    it = index.find(peer);
    return it == index.end() ? nullptr : HostOn(NodeList::GetNode(it->second), peer, found);
}

RdmaHostApplication::Refusal
RdmaHostApplication::Admit(Mac48Address peer, uint64_t address, uint32_t length) const
{
    if (!IsGranted(peer, address, length))
    {
        return NOT_GRANTED;
    }
    auto mine = m_registeredPerPeer.find(peer);
    uint64_t peerBytes = mine == m_registeredPerPeer.end() ? 0 : mine->second;
    if (length > m_maxBytesPerPeer || peerBytes > m_maxBytesPerPeer - length)
    {
        return PEER_LIMIT;
    }
    if (length > m_maxBytes || m_registeredTotal > m_maxBytes - length)
    {
        return HOST_LIMIT;
    }
    return REFUSALS;
}

void
RdmaHostApplication::Refuse(Mac48Address peer,
                            uint16_t tid,
                            uint64_t address,
                            uint32_t length,
                            Refusal reason)
{
    NS_LOG_INFO("refused registration of " << length << " bytes at " << address << " for transfer "
                                           << tid << " of " << peer << ": "
                                           << GetRefusalName(reason));
    ++m_refused[reason];
    m_refusalTrace(peer, tid, address, length, reason);
    m_rnic->GetTransport()->RingRegistrationDone(peer, tid, false);
}

uint64_t
RdmaHostApplication::GetRefusedRequests(Refusal reason) const
{
    return reason < REFUSALS ? m_refused[reason] : 0;
}

std::string
RdmaHostApplication::GetRefusalName(Refusal reason)
{
    static const char* names[] = {"not-granted", "peer-limit", "host-limit"};
    return reason < REFUSALS ? names[reason] : "unknown";
}

void
RdmaHostApplication::OnResponderDone(Mac48Address peer, uint16_t tid, bool released)
{
    NS_LOG_FUNCTION(this << peer << tid << released);
    auto it = m_registrations.find({peer, tid});
    if (it != m_registrations.end())
    {
        m_rnic->GetHostMemory()->Deregister(it->second.first, it->second.second);
        m_registeredPerPeer[peer] -= it->second.second;
        m_registeredTotal -= it->second.second;
        m_registrations.erase(it);
    }
}

void
RdmaHostApplication::ForgetRegions(const DrpTransferRecord& record)
{
    // Both regions start on a page and own their bytes up to the next page
    // (slots and ring regions are rounded up to pages): the partly used last
    // page is forgotten too, or every transfer would leave a page behind.
    const uint64_t page = HostMemory::PAGE_SIZE;
    const uint64_t owned = (uint64_t(record.length) + page - 1) / page * page;
    m_rnic->GetHostMemory()->Forget(record.sba, owned);
    Ptr<RdmaHostApplication> peer = FindHostOf(record.peer);
    if (peer && peer->GetRnic())
    {
        peer->GetRnic()->GetHostMemory()->Forget(record.dba, owned);
    }
}

void
RdmaHostApplication::OnCompletion(const DrpTransferRecord& completed)
{
    Complete(completed.tid, completed);
}

void
RdmaHostApplication::OnVerbsCompletion(uint32_t key, const DrpTransferRecord& completed)
{
    Complete(key, completed);
}

void
RdmaHostApplication::Complete(uint32_t key, const DrpTransferRecord& completed)
{
    auto it = m_pending.find(key);
    NS_ABORT_MSG_IF(it == m_pending.end(), "completion of unknown transfer " << key);
    DrpTransferRecord record = completed;
    record.index = it->second.index;
    record.start = it->second.start;
    record.end = Simulator::Now();
    uint32_t slot = it->second.slot;
    m_pending.erase(it);
    --m_inFlight;
    if (!m_verbs)
    {
        m_rnic->GetHostMemory()->Deregister(record.sba,
                                            record.length); // (the verbs' region is gone)
    }
    NS_LOG_INFO("transfer " << record.index << " (tid " << record.tid << ") "
                            << record.GetStatusName() << " in " << record.GetDuration().As(Time::US)
                            << ", " << record.GetModeName());
    if (!m_list.empty())
    {
        m_ringInUse.erase(record.sba);
    }
    m_records.push_back(record);
    m_transferTrace(record);
    if (m_forgetData)
    {
        ForgetRegions(record);
    }
    if (m_started < m_transfers)
    {
        Simulator::Schedule(m_gap, &RdmaHostApplication::StartTransfer, this, slot);
    }
    StartRingWaiting(); // its ring region is free again
    PostWaiting();
}

} // namespace ns3
