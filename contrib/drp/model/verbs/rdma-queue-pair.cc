/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-queue-pair.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <cerrno>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");

NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{
using namespace RdmaQpAttrMask;

/// PSNs and queue-pair numbers are 24 bits.
constexpr uint32_t MAX_24_BITS = (1u << 24) - 1;
} // namespace

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaQueuePair")
                            .SetParent<Object>()
                            .SetGroupName("Drp")
                            .AddConstructor<RdmaQueuePair>()
                            .AddTraceSource("State",
                                            "The queue pair changed state (from, to).",
                                            MakeTraceSourceAccessor(&RdmaQueuePair::m_stateTrace),
                                            "ns3::RdmaQueuePair::StateTracedCallback");
    return tid;
}

RdmaQueuePair::RdmaQueuePair() = default;

void
RdmaQueuePair::DoDispose()
{
    m_pd = nullptr;
    m_init.sendCq = nullptr;
    m_init.recvCq = nullptr;
    m_doorbell = Callback<void, Ptr<RdmaQueuePair>>();
    m_sendQueue.clear();
    m_recvQueue.clear();
    Object::DoDispose();
}

void
RdmaQueuePair::Init(uint64_t context,
                    uint32_t qpNum,
                    Ptr<RdmaProtectionDomain> pd,
                    const RdmaQpInitAttr& init,
                    uint8_t maxRdAtomic)
{
    m_context = context;
    m_qpNum = qpNum;
    m_pd = pd;
    m_init = init;
    m_deviceMaxRdAtomic = maxRdAtomic;
    m_attr.cap = init.cap;
}

uint32_t
RdmaQueuePair::GetQpNum() const
{
    return m_qpNum;
}

uint64_t
RdmaQueuePair::GetContextId() const
{
    return m_context;
}

Ptr<RdmaProtectionDomain>
RdmaQueuePair::GetPd() const
{
    return m_pd;
}

RdmaQpState
RdmaQueuePair::GetState() const
{
    return m_state;
}

Ptr<RdmaCompletionQueue>
RdmaQueuePair::GetSendCq() const
{
    return m_init.sendCq;
}

Ptr<RdmaCompletionQueue>
RdmaQueuePair::GetRecvCq() const
{
    return m_init.recvCq;
}

const RdmaQueuePair::Transition*
RdmaQueuePair::FindTransition(RdmaQpState from, RdmaQpState to)
{
    using S = RdmaQpState;
    // Linux's qp_state_table (drivers/infiniband/core/verbs.c) for RC, less
    // the alternate path and path migration, which are not modelled.
    static const Transition table[] = {
        {S::RESET, S::INIT, PKEY_INDEX | PORT | ACCESS_FLAGS, 0},
        {S::INIT, S::INIT, 0, PKEY_INDEX | PORT | ACCESS_FLAGS},
        {S::INIT,
         S::RTR,
         AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER,
         ACCESS_FLAGS | PKEY_INDEX},
        {S::RTR,
         S::RTS,
         SQ_PSN | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC,
         CUR_STATE | ACCESS_FLAGS | MIN_RNR_TIMER},
        {S::RTS, S::RTS, 0, CUR_STATE | ACCESS_FLAGS | MIN_RNR_TIMER},
        {S::RTS, S::SQD, 0, EN_SQD_ASYNC_NOTIFY},
        {S::SQD, S::RTS, 0, CUR_STATE | ACCESS_FLAGS | MIN_RNR_TIMER},
        {S::SQD,
         S::SQD,
         0,
         PORT | AV | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC | MAX_DEST_RD_ATOMIC |
             ACCESS_FLAGS | PKEY_INDEX | MIN_RNR_TIMER},
    };
    for (const Transition& t : table)
    {
        if (t.from == from && t.to == to)
        {
            return &t;
        }
    }
    // From any state to RESET or ERR, with nothing but the state.
    static const Transition toReset{S::RESET, S::RESET, 0, 0};
    static const Transition toError{S::ERR, S::ERR, 0, 0};
    if (to == S::RESET)
    {
        return &toReset;
    }
    return to == S::ERR ? &toError : nullptr;
}

bool
RdmaQueuePair::AreValuesValid(const RdmaQpAttr& attr, uint32_t mask) const
{
    const uint32_t mtu = attr.pathMtu;
    return (!(mask & CUR_STATE) || attr.curQpState == m_state) &&
           (!(mask & ACCESS_FLAGS) || (attr.qpAccessFlags & ~uint32_t(RdmaAccess::ALL)) == 0) &&
           (!(mask & PKEY_INDEX) || attr.pkeyIndex == 0) && (!(mask & PORT) || attr.portNum == 1) &&
           (!(mask & PATH_MTU) ||
            (mtu == 256 || mtu == 512 || mtu == 1024 || mtu == 2048 || mtu == 4096)) &&
           (!(mask & TIMEOUT) || attr.timeout <= 31) &&
           (!(mask & RETRY_CNT) || attr.retryCnt <= 7) &&
           (!(mask & RNR_RETRY) || attr.rnrRetry <= 7) &&
           (!(mask & MIN_RNR_TIMER) || attr.minRnrTimer <= 31) &&
           (!(mask & RQ_PSN) || attr.rqPsn <= MAX_24_BITS) &&
           (!(mask & SQ_PSN) || attr.sqPsn <= MAX_24_BITS) &&
           (!(mask & DEST_QPN) || attr.destQpNum <= MAX_24_BITS) &&
           (!(mask & MAX_QP_RD_ATOMIC) || attr.maxRdAtomic <= m_deviceMaxRdAtomic) &&
           (!(mask & MAX_DEST_RD_ATOMIC) || attr.maxDestRdAtomic <= m_deviceMaxRdAtomic) &&
           (!(mask & AV) || attr.peer <= 0xffffffffffffULL);
}

int
RdmaQueuePair::ModifyQp(const RdmaQpAttr& attr, uint32_t mask)
{
    // Without STATE the attributes change within the current state, which
    // must then allow itself as a transition (INIT, RTS, SQD; RESET and ERR
    // with nothing else).
    const RdmaQpState to = (mask & STATE) ? attr.qpState : m_state;
    const Transition* t = FindTransition(m_state, to);
    const uint32_t given = mask & ~uint32_t(STATE);
    if (!t || (given & t->required) != t->required || (given & ~(t->required | t->optional)) ||
        !AreValuesValid(attr, given))
    {
        NS_LOG_LOGIC("QP " << m_qpNum << ": " << GetQpStateName(m_state) << " -> "
                           << GetQpStateName(to) << " with mask " << mask << " refused");
        return EINVAL;
    }
    Apply(attr, given);
    Enter(to);
    return 0;
}

void
RdmaQueuePair::Apply(const RdmaQpAttr& attr, uint32_t mask)
{
    m_attr.qpAccessFlags = (mask & ACCESS_FLAGS) ? attr.qpAccessFlags : m_attr.qpAccessFlags;
    m_attr.peer = (mask & AV) ? attr.peer : m_attr.peer;
    m_attr.pathMtu = (mask & PATH_MTU) ? attr.pathMtu : m_attr.pathMtu;
    m_attr.timeout = (mask & TIMEOUT) ? attr.timeout : m_attr.timeout;
    m_attr.retryCnt = (mask & RETRY_CNT) ? attr.retryCnt : m_attr.retryCnt;
    m_attr.rnrRetry = (mask & RNR_RETRY) ? attr.rnrRetry : m_attr.rnrRetry;
    m_attr.rqPsn = (mask & RQ_PSN) ? attr.rqPsn : m_attr.rqPsn;
    m_attr.sqPsn = (mask & SQ_PSN) ? attr.sqPsn : m_attr.sqPsn;
    m_attr.maxRdAtomic = (mask & MAX_QP_RD_ATOMIC) ? attr.maxRdAtomic : m_attr.maxRdAtomic;
    m_attr.maxDestRdAtomic =
        (mask & MAX_DEST_RD_ATOMIC) ? attr.maxDestRdAtomic : m_attr.maxDestRdAtomic;
    m_attr.minRnrTimer = (mask & MIN_RNR_TIMER) ? attr.minRnrTimer : m_attr.minRnrTimer;
    m_attr.destQpNum = (mask & DEST_QPN) ? attr.destQpNum : m_attr.destQpNum;
}

void
RdmaQueuePair::Enter(RdmaQpState to)
{
    const RdmaQpState from = m_state;
    m_state = to;
    if (from != to)
    {
        NS_LOG_INFO("QP " << m_qpNum << ": " << GetQpStateName(from) << " -> "
                          << GetQpStateName(to));
        m_stateTrace(from, to);
    }
    if (to == RdmaQpState::ERR || to == RdmaQpState::RESET)
    {
        ++m_epoch; // what the transport holds of the queues is void
        m_taken = 0;
    }
    if (to == RdmaQpState::ERR)
    {
        Flush();
    }
    else if (to == RdmaQpState::RESET)
    {
        // A reset queue pair forgets its requests without completions, and
        // its attributes return to those of a new one.
        m_sendQueue.clear();
        m_recvQueue.clear();
        const RdmaQpCap cap = m_attr.cap;
        m_attr = RdmaQpAttr();
        m_attr.cap = cap;
    }
    else if (from == RdmaQpState::SQD && to == RdmaQpState::RTS && !m_sendQueue.empty() &&
             !m_doorbell.IsNull())
    {
        m_doorbell(this); // requests posted in SQD go on
    }
}

int
RdmaQueuePair::ConnectRc(const RdmaQpAttr& attr)
{
    using namespace RdmaQpAttrMask;
    RdmaQpAttr a = attr;
    a.qpState = RdmaQpState::INIT;
    int error = ModifyQp(a, STATE | PKEY_INDEX | PORT | ACCESS_FLAGS);
    a.qpState = RdmaQpState::RTR;
    error = error ? error
                  : ModifyQp(a,
                             STATE | AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC |
                                 MIN_RNR_TIMER);
    a.qpState = RdmaQpState::RTS;
    return error ? error
                 : ModifyQp(a, STATE | SQ_PSN | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC);
}

RdmaWcOpcode
RdmaQueuePair::GetWcOpcode(RdmaWrOpcode wr)
{
    switch (wr)
    {
    case RdmaWrOpcode::RDMA_WRITE:
    case RdmaWrOpcode::RDMA_WRITE_WITH_IMM:
        return RdmaWcOpcode::RDMA_WRITE;
    case RdmaWrOpcode::SEND:
    case RdmaWrOpcode::SEND_WITH_IMM:
        return RdmaWcOpcode::SEND;
    case RdmaWrOpcode::RDMA_READ:
        return RdmaWcOpcode::RDMA_READ;
    case RdmaWrOpcode::ATOMIC_CMP_AND_SWP:
        return RdmaWcOpcode::COMP_SWAP;
    case RdmaWrOpcode::ATOMIC_FETCH_AND_ADD:
        return RdmaWcOpcode::FETCH_ADD;
    }
    return RdmaWcOpcode::SEND;
}

void
RdmaQueuePair::Flush()
{
    // Every outstanding request, signalled or not, completes in order with
    // WR_FLUSH_ERR (only wr_id, status and qp_num are defined in it).
    while (!m_sendQueue.empty())
    {
        RdmaWc wc;
        wc.wrId = m_sendQueue.front().wrId;
        wc.status = RdmaWcStatus::WR_FLUSH_ERR;
        wc.opcode = GetWcOpcode(m_sendQueue.front().opcode);
        wc.qpNum = m_qpNum;
        m_sendQueue.pop_front();
        m_init.sendCq->Push(wc);
    }
    while (!m_recvQueue.empty())
    {
        RdmaWc wc;
        wc.wrId = m_recvQueue.front().wrId;
        wc.status = RdmaWcStatus::WR_FLUSH_ERR;
        wc.opcode = RdmaWcOpcode::RECV;
        wc.qpNum = m_qpNum;
        m_recvQueue.pop_front();
        m_init.recvCq->Push(wc);
    }
}

int
RdmaQueuePair::QueryQp(RdmaQpAttr& attr, RdmaQpInitAttr& init) const
{
    attr = m_attr;
    attr.qpState = m_state;
    attr.curQpState = m_state;
    init = m_init;
    return 0;
}

int
RdmaQueuePair::PostSend(const std::vector<RdmaSendWr>& wrs, size_t* bad)
{
    const bool takes = m_state == RdmaQpState::RTS || m_state == RdmaQpState::SQD ||
                       m_state == RdmaQpState::SQE || m_state == RdmaQpState::ERR;
    for (size_t i = 0; i < wrs.size(); ++i)
    {
        const RdmaSendWr& wr = wrs[i];
        uint64_t inlineBytes = 0;
        for (const RdmaSge& sge : wr.sgList)
        {
            inlineBytes += sge.length;
        }
        const bool tooBig =
            (wr.sendFlags & RdmaSendFlags::INLINE) && inlineBytes > m_init.cap.maxInlineData;
        const auto opcode = static_cast<uint32_t>(wr.opcode);
        const bool executed = opcode < 32 && ((m_opcodes >> opcode) & 1);
        const int error = !takes || !executed || wr.sgList.size() > m_init.cap.maxSendSge || tooBig
                              ? EINVAL
                          : m_sendQueue.size() >= m_init.cap.maxSendWr ? ENOMEM
                                                                       : 0;
        if (error != 0)
        {
            NS_LOG_LOGIC("QP " << m_qpNum << ": send request " << wr.wrId << " refused (" << error
                               << ")");
            if (bad)
            {
                *bad = i;
            }
            return error;
        }
        m_sendQueue.push_back(wr);
    }
    if (m_state == RdmaQpState::ERR)
    {
        Flush();
    }
    else if (m_state == RdmaQpState::RTS && !wrs.empty() && !m_doorbell.IsNull())
    {
        m_doorbell(this);
    }
    return 0;
}

int
RdmaQueuePair::PostRecv(const std::vector<RdmaRecvWr>& wrs, size_t* bad)
{
    for (size_t i = 0; i < wrs.size(); ++i)
    {
        const int error =
            m_state == RdmaQpState::RESET || wrs[i].sgList.size() > m_init.cap.maxRecvSge ? EINVAL
            : m_recvQueue.size() >= m_init.cap.maxRecvWr                                  ? ENOMEM
                                                                                          : 0;
        if (error != 0)
        {
            if (bad)
            {
                *bad = i;
            }
            return error;
        }
        m_recvQueue.push_back(wrs[i]);
    }
    if (m_state == RdmaQpState::ERR)
    {
        Flush();
    }
    return 0;
}

uint32_t
RdmaQueuePair::GetSendQueueLength() const
{
    return uint32_t(m_sendQueue.size());
}

uint32_t
RdmaQueuePair::GetRecvQueueLength() const
{
    return uint32_t(m_recvQueue.size());
}

void
RdmaQueuePair::SetDoorbell(Callback<void, Ptr<RdmaQueuePair>> doorbell)
{
    m_doorbell = doorbell;
}

void
RdmaQueuePair::SetSupportedOpcodes(uint32_t opcodes)
{
    m_opcodes = opcodes;
}

const RdmaQpAttr&
RdmaQueuePair::GetAttr() const
{
    return m_attr;
}

const RdmaSendWr*
RdmaQueuePair::PeekUntaken() const
{
    return m_taken < m_sendQueue.size() ? &m_sendQueue[m_taken] : nullptr;
}

void
RdmaQueuePair::Take()
{
    NS_ASSERT(m_taken < m_sendQueue.size());
    ++m_taken;
}

uint32_t
RdmaQueuePair::GetTaken() const
{
    return m_taken;
}

uint32_t
RdmaQueuePair::GetEpoch() const
{
    return m_epoch;
}

void
RdmaQueuePair::EndSend(RdmaWcStatus status, uint32_t byteLen)
{
    NS_ASSERT(m_taken > 0 && !m_sendQueue.empty());
    const RdmaSendWr wr = m_sendQueue.front();
    m_sendQueue.pop_front();
    --m_taken;
    const bool signaled = m_init.sqSigAll || (wr.sendFlags & RdmaSendFlags::SIGNALED);
    if (status == RdmaWcStatus::SUCCESS && !signaled)
    {
        return;
    }
    RdmaWc wc;
    wc.wrId = wr.wrId;
    wc.status = status;
    wc.opcode = GetWcOpcode(wr.opcode);
    wc.byteLen = byteLen;
    wc.qpNum = m_qpNum;
    wc.srcQp = m_attr.destQpNum;
    // The solicited flag wakes the responder's receive queue, not this one.
    m_init.sendCq->Push(wc, false);
    if (status != RdmaWcStatus::SUCCESS)
    {
        NS_LOG_INFO("QP " << m_qpNum << ": request " << wr.wrId << " ended with " << status);
        EnterError();
    }
}

void
RdmaQueuePair::EnterError()
{
    RdmaQpAttr error;
    error.qpState = RdmaQpState::ERR;
    ModifyQp(error, RdmaQpAttrMask::STATE);
}

const RdmaRecvWr*
RdmaQueuePair::PeekRecv(uint32_t index) const
{
    return index < m_recvQueue.size() ? &m_recvQueue[index] : nullptr;
}

void
RdmaQueuePair::EndRecv(RdmaWcStatus status,
                       uint32_t byteLen,
                       RdmaWcOpcode opcode,
                       bool withImm,
                       uint32_t immData,
                       bool solicited)
{
    NS_ASSERT(!m_recvQueue.empty());
    const RdmaRecvWr wr = m_recvQueue.front();
    m_recvQueue.pop_front();
    RdmaWc wc;
    wc.wrId = wr.wrId;
    wc.status = status;
    wc.opcode = opcode;
    wc.byteLen = byteLen;
    wc.withImm = withImm;
    wc.immData = withImm ? immData : 0;
    wc.qpNum = m_qpNum;
    wc.srcQp = m_attr.destQpNum;
    m_init.recvCq->Push(wc, solicited);
    if (status != RdmaWcStatus::SUCCESS)
    {
        NS_LOG_INFO("QP " << m_qpNum << ": receive " << wr.wrId << " ended with " << status);
        EnterError();
    }
}

} // namespace ns3
