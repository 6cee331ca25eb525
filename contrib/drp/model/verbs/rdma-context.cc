/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-context.h"

#include "drp-verbs-provider.h"

#include "ns3/double.h"
#include "ns3/drp-check.h"
#include "ns3/host-cpus.h"
#include "ns3/host-memory.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rnic-net-device.h"
#include "ns3/roce-transport.h"
#include "ns3/uinteger.h"

#include <cerrno>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaContext");

NS_OBJECT_ENSURE_REGISTERED(RdmaContext);

namespace
{
/// Contexts made so far: each gets its own id, so that objects of one
/// context are told from another's.
uint64_t g_contexts = 0;
} // namespace

TypeId
RdmaContext::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaContext")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<RdmaContext>()
            .AddAttribute("RegistrationFixedLatency",
                          "Host time a memory registration (ibv_reg_mr) takes, or takes to "
                          "fail, besides RegistrationLatencyPerPage per page (0 to 10 s; 8 us, "
                          "RdmaHostApplication's).",
                          TimeValue(MicroSeconds(8)),
                          MakeTimeAccessor(&RdmaContext::SetRegistrationFixed,
                                           &RdmaContext::GetRegistrationFixed),
                          MakeTimeChecker())
            .AddAttribute("RegistrationLatencyPerPage",
                          "Registration time per 4 KiB page the region touches (0 to 1 ms; "
                          "375 ns, RdmaHostApplication's, measured: 500 GiB in 49.2 s).",
                          TimeValue(NanoSeconds(375)),
                          MakeTimeAccessor(&RdmaContext::SetRegistrationPerPage,
                                           &RdmaContext::GetRegistrationPerPage),
                          MakeTimeChecker())
            .AddAttribute("RegistrationFailureProbability",
                          "Probability that a registration fails (0 to 1; 0).",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&RdmaContext::SetFailureProbability,
                                             &RdmaContext::GetFailureProbability),
                          MakeDoubleChecker<double>())
            .AddAttribute("MaxRegisteredBytes",
                          "Bytes this context keeps registered at once, at most: a registration "
                          "past it fails with ENOMEM (1 to 2^63; 64 GiB, as "
                          "RdmaHostApplication's).",
                          UintegerValue(uint64_t(1) << 36),
                          MakeUintegerAccessor(&RdmaContext::m_maxRegistered),
                          MakeUintegerChecker<uint64_t>(1, uint64_t(1) << 63))
            .AddAttribute("MaxQpWr",
                          "Device limit: requests per queue (1 to 2^24; 32768, a ConnectX-5's).",
                          UintegerValue(32768),
                          MakeUintegerAccessor(&RdmaContext::m_maxQpWr),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24))
            .AddAttribute("MaxSge",
                          "Device limit: SGEs per request (1 to 256; 30, a ConnectX-5's).",
                          UintegerValue(30),
                          MakeUintegerAccessor(&RdmaContext::m_maxSge),
                          MakeUintegerChecker<uint32_t>(1, 256))
            .AddAttribute("MaxCqe",
                          "Device limit: completions per completion queue (1 to 2^24; "
                          "4194303, a ConnectX-5's).",
                          UintegerValue(4194303),
                          MakeUintegerAccessor(&RdmaContext::m_maxCqe),
                          MakeUintegerChecker<uint32_t>(1, 1u << 24))
            .AddAttribute("MaxInlineData",
                          "Device limit: bytes a send request may carry inline (0 to 65536; "
                          "256, ours).",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RdmaContext::m_maxInlineData),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("MaxQpRdAtom",
                          "Device limit: READs and atomics outstanding per queue pair (1 to "
                          "255; 16, a ConnectX-5's).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaContext::m_maxQpRdAtom),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddTraceSource("Registration",
                            "A memory registration ended (address, length, success).",
                            MakeTraceSourceAccessor(&RdmaContext::m_registrationTrace),
                            "ns3::RdmaContext::RegistrationTracedCallback");
    return tid;
}

RdmaContext::RdmaContext()
    : m_id(++g_contexts),
      m_failureRv(CreateObject<UniformRandomVariable>())
{
}

void
RdmaContext::DoDispose()
{
    for (auto& [key, mr] : m_mrs)
    {
        if (m_memory && mr->IsValid())
        {
            Unpin(mr->GetAddress(), uint32_t(mr->GetLength())); // the process exits
        }
        mr->Dispose();
    }
    if (m_provider)
    {
        m_provider->RemoveContext(this);
    }
    for (auto& [number, qp] : m_qps)
    {
        qp->Dispose();
    }
    for (auto& [cq, users] : m_cqs)
    {
        cq->Dispose();
    }
    m_mrs.clear();
    m_qps.clear();
    m_cqs.clear();
    m_pds.clear();
    m_rnic = nullptr;
    m_provider = nullptr;
    m_memory = nullptr;
    m_cpus = nullptr;
    m_failureRv = nullptr;
    Object::DoDispose();
}

void
RdmaContext::SetRegistrationFixed(Time latency)
{
    drp::RequireInRange<Time>("RdmaContext::RegistrationFixedLatency",
                              latency,
                              Time(0),
                              Seconds(10));
    m_registrationFixed = latency;
}

Time
RdmaContext::GetRegistrationFixed() const
{
    return m_registrationFixed;
}

void
RdmaContext::SetRegistrationPerPage(Time latency)
{
    drp::RequireInRange<Time>("RdmaContext::RegistrationLatencyPerPage",
                              latency,
                              Time(0),
                              MilliSeconds(1));
    m_registrationPerPage = latency;
}

Time
RdmaContext::GetRegistrationPerPage() const
{
    return m_registrationPerPage;
}

void
RdmaContext::SetFailureProbability(double p)
{
    drp::RequireInRange<double>("RdmaContext::RegistrationFailureProbability", p, 0.0, 1.0);
    m_failureProbability = p;
}

double
RdmaContext::GetFailureProbability() const
{
    return m_failureProbability;
}

void
RdmaContext::Open(Ptr<RnicNetDevice> rnic)
{
    NS_ABORT_MSG_IF(!rnic || !rnic->GetNode() || !rnic->GetHostMemory(),
                    "RdmaContext::Open: the RNIC must be installed on a host node with a "
                    "HostMemory (RnicHelper and RdmaHostHelper install both)");
    m_rnic = rnic;
    m_memory = rnic->GetHostMemory();
    Ptr<Node> node = rnic->GetNode();
    m_cpus = node->GetObject<HostCpus>();
    if (!m_cpus)
    {
        m_cpus = CreateObject<HostCpus>();
        node->AggregateObject(m_cpus);
    }
    if (rnic->GetMethod() == ModePolicy::ROCE)
    {
        m_provider = RoceTransport::Attach(rnic);
    }
    else
    {
        m_provider = DrpVerbsProvider::Attach(rnic);
    }
    m_provider->AddContext(this);
}

Ptr<RnicNetDevice>
RdmaContext::GetRnic() const
{
    return m_rnic;
}

RdmaContext::DeviceAttr
RdmaContext::QueryDevice() const
{
    return {m_maxQpWr, m_maxSge, m_maxCqe, m_maxInlineData, uint8_t(m_maxQpRdAtom)};
}

Ptr<RdmaProtectionDomain>
RdmaContext::AllocPd()
{
    Ptr<RdmaProtectionDomain> pd = CreateObject<RdmaProtectionDomain>();
    pd->Init(m_id, m_nextPd++);
    m_pds[pd->GetHandle()] = pd;
    return pd;
}

bool
RdmaContext::Owns(Ptr<RdmaProtectionDomain> pd) const
{
    if (!pd)
    {
        return false;
    }
    auto it = m_pds.find(pd->GetHandle());
    return pd->GetContextId() == m_id && it != m_pds.end() && it->second == pd;
}

bool
RdmaContext::Owns(Ptr<RdmaCompletionQueue> cq) const
{
    return cq && m_cqs.count(cq) > 0;
}

int
RdmaContext::DeallocPd(Ptr<RdmaProtectionDomain> pd)
{
    if (!Owns(pd))
    {
        return EINVAL;
    }
    if (pd->GetUsers() > 0)
    {
        return EBUSY;
    }
    m_pds.erase(pd->GetHandle());
    return 0;
}

int
RdmaContext::RegMr(Ptr<RdmaProtectionDomain> pd,
                   uint64_t address,
                   uint64_t length,
                   uint32_t access,
                   RegMrCallback done)
{
    if (!IsValidRegistration(pd, address, length, access))
    {
        return EINVAL;
    }
    pd->AddUser(); // held from the call: a domain being registered into is in use
    const Time duration = GetRegistrationTime(address, length);
    Ptr<RdmaContext> self = this; // alive until the registration ends
    m_cpus->Run(duration, [self, pd, address, length, access, done]() {
        self->FinishRegistration(pd, address, length, access, done);
    });
    return 0;
}

bool
RdmaContext::IsValidRegistration(Ptr<RdmaProtectionDomain> pd,
                                 uint64_t address,
                                 uint64_t length,
                                 uint32_t access) const
{
    using namespace RdmaAccess;
    const bool remoteNeedsLocal =
        (access & (REMOTE_WRITE | REMOTE_ATOMIC)) && !(access & LOCAL_WRITE);
    return m_rnic && Owns(pd) && HostMemory::IsValidRegion(address, length) &&
           !(access & ~uint32_t(ALL)) && !remoteNeedsLocal && length <= (uint64_t(1) << 32) - 1;
}

Ptr<RdmaMemoryRegion>
RdmaContext::RegMrAtSetUp(Ptr<RdmaProtectionDomain> pd,
                          uint64_t address,
                          uint64_t length,
                          uint32_t access,
                          int& error)
{
    error = IsValidRegistration(pd, address, length, access) ? 0 : EINVAL;
    const bool room = length <= m_maxRegistered && m_registered <= m_maxRegistered - length;
    if (error == 0 && !room)
    {
        error = ENOMEM;
    }
    if (error != 0)
    {
        return nullptr;
    }
    m_registrationTrace(address, length, true);
    m_memory->Register(address, uint32_t(length));
    m_registered += length;
    pd->AddUser();
    Ptr<RdmaMemoryRegion> mr = CreateObject<RdmaMemoryRegion>();
    mr->Init(pd, address, length, access, m_nextKey++);
    m_mrs[mr->GetLkey()] = mr;
    return mr;
}

void
RdmaContext::FinishRegistration(Ptr<RdmaProtectionDomain> pd,
                                uint64_t address,
                                uint64_t length,
                                uint32_t access,
                                RegMrCallback done)
{
    if (!m_memory)
    {
        return; // the context was disposed meanwhile
    }
    // RegMr's limit keeps the length below 4 GiB, as HostMemory counts it.
    if (!Pin(address, uint32_t(length)))
    {
        pd->RemoveUser();
        done(nullptr, ENOMEM);
        return;
    }
    Ptr<RdmaMemoryRegion> mr = CreateObject<RdmaMemoryRegion>();
    mr->Init(pd, address, length, access, m_nextKey++);
    m_mrs[mr->GetLkey()] = mr;
    NS_LOG_INFO("registered " << length << " bytes at " << address << ": key " << mr->GetLkey());
    done(mr, 0);
}

int
RdmaContext::DeregMr(Ptr<RdmaMemoryRegion> mr)
{
    if (!mr || !mr->IsValid() || FindMrByLkey(mr->GetLkey()) != mr)
    {
        return EINVAL;
    }
    Unpin(mr->GetAddress(), uint32_t(mr->GetLength()));
    mr->GetPd()->RemoveUser();
    mr->Invalidate();
    m_mrs.erase(mr->GetLkey());
    return 0;
}

Ptr<RdmaMemoryRegion>
RdmaContext::FindMrByLkey(uint32_t lkey) const
{
    auto it = m_mrs.find(lkey);
    return it == m_mrs.end() ? nullptr : it->second;
}

Ptr<RdmaMemoryRegion>
RdmaContext::FindMrByRkey(uint32_t rkey) const
{
    return FindMrByLkey(rkey); // lkey = rkey
}

Ptr<RdmaCompletionQueue>
RdmaContext::CreateCq(uint32_t depth, int& error)
{
    if (depth == 0 || depth > m_maxCqe)
    {
        error = EINVAL;
        return nullptr;
    }
    Ptr<RdmaCompletionQueue> cq = CreateObject<RdmaCompletionQueue>();
    cq->SetDepth(depth);
    m_cqs[cq] = 0;
    error = 0;
    return cq;
}

int
RdmaContext::DestroyCq(Ptr<RdmaCompletionQueue> cq)
{
    if (!Owns(cq))
    {
        return EINVAL;
    }
    if (m_cqs[cq] > 0)
    {
        return EBUSY;
    }
    m_cqs.erase(cq);
    cq->Dispose();
    return 0;
}

Ptr<RdmaQueuePair>
RdmaContext::CreateQp(Ptr<RdmaProtectionDomain> pd, const RdmaQpInitAttr& init, int& error)
{
    const RdmaQpCap& cap = init.cap;
    if (!m_provider || !Owns(pd) || !Owns(init.sendCq) || !Owns(init.recvCq) ||
        cap.maxSendWr == 0 || cap.maxRecvWr == 0 || cap.maxSendWr > m_maxQpWr ||
        cap.maxRecvWr > m_maxQpWr || cap.maxSendSge == 0 || cap.maxRecvSge == 0 ||
        cap.maxSendSge > m_maxSge || cap.maxRecvSge > m_maxSge ||
        cap.maxInlineData > m_maxInlineData || m_nextQpNum > (1u << 24) - 1)
    {
        error = EINVAL;
        return nullptr;
    }
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->Init(m_id, m_nextQpNum++, pd, init, uint8_t(m_maxQpRdAtom));
    m_qps[qp->GetQpNum()] = qp;
    m_provider->Bind(qp);
    pd->AddUser();
    ++m_cqs[init.sendCq];
    ++m_cqs[init.recvCq];
    error = 0;
    return qp;
}

int
RdmaContext::DestroyQp(Ptr<RdmaQueuePair> qp)
{
    if (!qp || FindQp(qp->GetQpNum()) != qp)
    {
        return EINVAL;
    }
    // As ibv_destroy_qp: whatever the state, its requests are forgotten
    // without completions, and what the transport still runs of them ends
    // unseen (the reset changes the queue pair's epoch).
    RdmaQpAttr reset;
    reset.qpState = RdmaQpState::RESET;
    qp->ModifyQp(reset, RdmaQpAttrMask::STATE);
    m_provider->Unbind(qp);
    --m_cqs[qp->GetSendCq()];
    --m_cqs[qp->GetRecvCq()];
    qp->GetPd()->RemoveUser();
    m_qps.erase(qp->GetQpNum());
    qp->Dispose();
    return 0;
}

Ptr<RdmaQueuePair>
RdmaContext::FindQp(uint32_t qpNum) const
{
    auto it = m_qps.find(qpNum);
    return it == m_qps.end() ? nullptr : it->second;
}

bool
RdmaContext::Grants(uint64_t peer, uint64_t address, uint64_t length, uint32_t access) const
{
    for (const auto& [number, qp] : m_qps)
    {
        const RdmaQpState state = qp->GetState();
        const bool connected =
            state == RdmaQpState::RTR || state == RdmaQpState::RTS || state == RdmaQpState::SQD;
        if (connected && qp->GetAttr().peer == peer &&
            (qp->GetAttr().qpAccessFlags & access) == access &&
            FindMrCovering(qp->GetPd(), address, length, access))
        {
            return true;
        }
    }
    return false;
}

Ptr<RdmaMemoryRegion>
RdmaContext::FindMrCovering(Ptr<RdmaProtectionDomain> pd,
                            uint64_t address,
                            uint64_t length,
                            uint32_t access) const
{
    for (const auto& [key, mr] : m_mrs)
    {
        if (mr->GetPd() == pd && mr->Allows(address, length, access))
        {
            return mr;
        }
    }
    return nullptr;
}

RdmaWcStatus
RdmaContext::CheckSge(Ptr<RdmaQueuePair> qp,
                      const RdmaSge& sge,
                      uint32_t length,
                      bool written) const
{
    Ptr<RdmaMemoryRegion> mr = FindMrByLkey(sge.lkey);
    if (!mr || mr->GetPd() != qp->GetPd() || !mr->Allows(sge.addr, length, 0))
    {
        return RdmaWcStatus::LOC_PROT_ERR;
    }
    if (written && !mr->Allows(sge.addr, length, RdmaAccess::LOCAL_WRITE))
    {
        return RdmaWcStatus::LOC_ACCESS_ERR;
    }
    return RdmaWcStatus::SUCCESS;
}

RdmaWcStatus
RdmaContext::CheckLocal(Ptr<RdmaQueuePair> qp, const RdmaSendWr& wr) const
{
    const bool read = wr.opcode == RdmaWrOpcode::RDMA_READ ||
                      wr.opcode == RdmaWrOpcode::ATOMIC_CMP_AND_SWP ||
                      wr.opcode == RdmaWrOpcode::ATOMIC_FETCH_AND_ADD;
    const bool inlined = !read && (wr.sendFlags & RdmaSendFlags::INLINE);
    for (const RdmaSge& sge : wr.sgList)
    {
        if (inlined || sge.length == 0)
        {
            continue; // inline data was copied at post time; nothing to read
        }
        const RdmaWcStatus status = CheckSge(qp, sge, sge.length, read);
        if (status != RdmaWcStatus::SUCCESS)
        {
            return status;
        }
    }
    return RdmaWcStatus::SUCCESS;
}

bool
RdmaContext::GrantsRkey(Ptr<RdmaQueuePair> qp,
                        uint32_t rkey,
                        uint64_t address,
                        uint64_t length,
                        uint32_t access) const
{
    Ptr<RdmaMemoryRegion> mr = FindMrByRkey(rkey);
    return (qp->GetAttr().qpAccessFlags & access) && mr && mr->GetPd() == qp->GetPd() &&
           mr->Allows(address, length, access);
}

Time
RdmaContext::GetRegistrationTime(uint64_t address, uint64_t length) const
{
    return HostMemory::GetRegistrationTime(m_registrationFixed,
                                           m_registrationPerPage,
                                           address,
                                           length);
}

bool
RdmaContext::Pin(uint64_t address, uint32_t length)
{
    const bool room = length <= m_maxRegistered && m_registered <= m_maxRegistered - length;
    const bool success = room && m_failureRv->GetValue() >= m_failureProbability;
    m_registrationTrace(address, length, success);
    if (!success)
    {
        NS_LOG_INFO("registration of " << length << " bytes at " << address << " failed");
        ++m_failed;
        return false;
    }
    m_memory->Register(address, length);
    m_registered += length;
    return true;
}

void
RdmaContext::Unpin(uint64_t address, uint32_t length)
{
    m_memory->Deregister(address, length);
    m_registered -= length;
}

uint64_t
RdmaContext::GetFailedRegistrations() const
{
    return m_failed;
}

int64_t
RdmaContext::AssignStreams(int64_t stream)
{
    m_failureRv->SetStream(stream);
    return 1;
}

} // namespace ns3
