/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-perftest.h"

#include "ns3/boolean.h"
#include "ns3/drp-check.h"
#include "ns3/drp-compat.h"
#include "ns3/drp-verbs-provider.h"
#include "ns3/host-memory.h"
#include "ns3/log.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPerftest");

NS_OBJECT_ENSURE_REGISTERED(RdmaPerftest);

namespace
{
/// perftest's MAX_SIZE: the largest message of -a.
constexpr uint32_t MAX_SIZE = 8388608;
/// perftest's LAT_MEASURE_TAIL: the largest samples left out.
constexpr uint32_t LAT_MEASURE_TAIL = 2;
/// perftest's MIN_ITER.
constexpr uint32_t MIN_ITER = 5;
/// Buffers lie this far apart (the largest message, rounded to a page).
constexpr uint64_t BUFFER_STRIDE = 16 * 1024 * 1024;
/// The first buffer.
constexpr uint64_t BUFFER_BASE = 0x40000000;
/// The tests' names, in Test's order.
const char* const TEST_NAMES[] =
    {"write_bw", "write_lat", "read_bw", "read_lat", "send_bw", "send_lat", "atomic_lat"};
/// atomic_lat's bytes (ib_atomic_lat's: a 64-bit operand).
constexpr uint32_t ATOMIC_SIZE = 8;
/// The tests.
constexpr uint32_t TEST_COUNT = sizeof(TEST_NAMES) / sizeof(TEST_NAMES[0]);
} // namespace

TypeId
RdmaPerftest::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaPerftest")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<RdmaPerftest>()
            .AddAttribute(
                "Test",
                "perftest's program: write_bw, write_lat, read_bw, read_lat, send_bw, "
                "send_lat or atomic_lat (8-byte atomics; Size and AllSizes do not apply).",
                StringValue("write_bw"),
                MakeStringAccessor(&RdmaPerftest::SetTest, &RdmaPerftest::GetTestAttribute),
                MakeStringChecker())
            .AddAttribute("Size",
                          "-s: bytes per message (1 to 8388608; perftest's default 65536 for "
                          "bandwidth, 2 for latency).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&RdmaPerftest::SetSize, &RdmaPerftest::GetSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AllSizes",
                          "-a: every size from 2 bytes to 8 MiB, doubling (Size is ignored).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaPerftest::m_allSizes),
                          MakeBooleanChecker())
            .AddAttribute(
                "Iterations",
                "-n: messages per size, per queue pair (5 to 10^7; perftest's 1000).",
                UintegerValue(1000),
                MakeUintegerAccessor(&RdmaPerftest::SetIterations, &RdmaPerftest::GetIterations),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "TxDepth",
                "-t: bandwidth tests' requests posted per queue pair (1 to 8192; "
                "perftest's 128).",
                UintegerValue(128),
                MakeUintegerAccessor(&RdmaPerftest::SetTxDepth, &RdmaPerftest::GetTxDepth),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "RxDepth",
                "-r: SEND's receives posted per queue pair (1 to 8192; perftest's 512).",
                UintegerValue(512),
                MakeUintegerAccessor(&RdmaPerftest::SetRxDepth, &RdmaPerftest::GetRxDepth),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("Qps",
                          "-q: queue pairs of a bandwidth test (1 to 64; latency tests use 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaPerftest::SetQps, &RdmaPerftest::GetQps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Atomic",
                          "-A: atomic_lat's operation: FETCH_AND_ADD (perftest's default) or "
                          "CMP_AND_SWAP.",
                          StringValue("FETCH_AND_ADD"),
                          MakeStringAccessor(&RdmaPerftest::SetAtomic, &RdmaPerftest::GetAtomic),
                          MakeStringChecker())
            .AddAttribute("Bidirectional",
                          "-b: a bandwidth test runs both ways at once and reports the sum.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaPerftest::m_bidirectional),
                          MakeBooleanChecker())
            .AddTraceSource("SizeDone",
                            "A size's report line is ready (its bytes).",
                            MakeTraceSourceAccessor(&RdmaPerftest::m_sizeDone),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RdmaPerftest::RdmaPerftest() = default;

void
RdmaPerftest::DoDispose()
{
    for (End& end : m_ends)
    {
        end = End();
    }
    Object::DoDispose();
}

RdmaPerftest::Test
RdmaPerftest::ParseTest(const std::string& name)
{
    for (uint32_t i = 0; i < TEST_COUNT; ++i)
    {
        if (name == TEST_NAMES[i])
        {
            return Test(i);
        }
    }
    throw std::invalid_argument("RdmaPerftest::Test \"" + name +
                                "\" is not valid; valid: write_bw, write_lat, read_bw, "
                                "read_lat, send_bw, send_lat, atomic_lat");
}

std::string
RdmaPerftest::GetTestName(Test test)
{
    return TEST_NAMES[test];
}

void
RdmaPerftest::SetTest(const std::string& name)
{
    m_test = ParseTest(name);
}

std::string
RdmaPerftest::GetTestAttribute() const
{
    return GetTestName(m_test);
}

void
RdmaPerftest::SetSize(uint32_t bytes)
{
    drp::RequireInRange<uint32_t>("RdmaPerftest::Size", bytes, 1, MAX_SIZE);
    m_size = bytes;
}

uint32_t
RdmaPerftest::GetSize() const
{
    return m_size;
}

void
RdmaPerftest::SetIterations(uint32_t n)
{
    drp::RequireInRange<uint32_t>("RdmaPerftest::Iterations", n, MIN_ITER, 10000000);
    m_iterations = n;
}

uint32_t
RdmaPerftest::GetIterations() const
{
    return m_iterations;
}

void
RdmaPerftest::SetTxDepth(uint32_t n)
{
    drp::RequireInRange<uint32_t>("RdmaPerftest::TxDepth", n, 1, 8192);
    m_txDepth = n;
}

uint32_t
RdmaPerftest::GetTxDepth() const
{
    return m_txDepth;
}

void
RdmaPerftest::SetRxDepth(uint32_t n)
{
    drp::RequireInRange<uint32_t>("RdmaPerftest::RxDepth", n, 1, 8192);
    m_rxDepth = n;
}

uint32_t
RdmaPerftest::GetRxDepth() const
{
    return m_rxDepth;
}

void
RdmaPerftest::SetQps(uint32_t n)
{
    drp::RequireInRange<uint32_t>("RdmaPerftest::Qps", n, 1, 64);
    m_qps = n;
}

uint32_t
RdmaPerftest::GetQps() const
{
    return m_qps;
}

bool
RdmaPerftest::IsLatency() const
{
    return m_test == WRITE_LAT || m_test == READ_LAT || m_test == SEND_LAT || m_test == ATOMIC_LAT;
}

bool
RdmaPerftest::IsReadLike() const
{
    return m_test == READ_LAT || m_test == ATOMIC_LAT;
}

void
RdmaPerftest::SetAtomic(const std::string& operation)
{
    if (operation != "FETCH_AND_ADD" && operation != "CMP_AND_SWAP")
    {
        throw std::invalid_argument("RdmaPerftest::Atomic \"" + operation +
                                    "\" is not valid; valid: FETCH_AND_ADD, CMP_AND_SWAP");
    }
    m_compareSwap = operation == "CMP_AND_SWAP";
}

std::string
RdmaPerftest::GetAtomic() const
{
    return m_compareSwap ? "CMP_AND_SWAP" : "FETCH_AND_ADD";
}

RdmaWrOpcode
RdmaPerftest::GetOpcode() const
{
    switch (m_test)
    {
    case READ_BW:
    case READ_LAT:
        return RdmaWrOpcode::RDMA_READ;
    case SEND_BW:
    case SEND_LAT:
        return RdmaWrOpcode::SEND;
    case ATOMIC_LAT:
        return m_compareSwap ? RdmaWrOpcode::ATOMIC_CMP_AND_SWP
                             : RdmaWrOpcode::ATOMIC_FETCH_AND_ADD;
    default:
        return RdmaWrOpcode::RDMA_WRITE;
    }
}

uint64_t
RdmaPerftest::BufferAddress(uint32_t side, uint32_t q)
{
    return BUFFER_BASE + (uint64_t(side) * 64 + q) * BUFFER_STRIDE;
}

uint32_t
RdmaPerftest::GetLargestSize() const
{
    if (m_test == ATOMIC_LAT)
    {
        return ATOMIC_SIZE;
    }
    return m_allSizes ? MAX_SIZE : m_size;
}

bool
RdmaPerftest::IsDone() const
{
    return m_done;
}

const std::vector<RdmaPerftest::BwResult>&
RdmaPerftest::GetBwResults() const
{
    return m_bwResults;
}

const std::vector<RdmaPerftest::LatResult>&
RdmaPerftest::GetLatResults() const
{
    return m_latResults;
}

uint64_t
RdmaPerftest::GetErrors() const
{
    return m_errors;
}

// ---------------------------------------------------------------------------
// Setup: contexts, buffers, queue pairs

void
RdmaPerftest::Setup(Ptr<RnicNetDevice> client, Ptr<RnicNetDevice> server)
{
    m_ends[0].rnic = client;
    m_ends[1].rnic = server;
    for (uint32_t side = 0; side < 2; ++side)
    {
        Open(side);
        End& end = m_ends[side];
        for (uint32_t q = 0; q < end.qps.size(); ++q) // a buffer per queue pair
        {
            using namespace RdmaAccess;
            ++m_registering;
            const int error = end.context->RegMr(
                end.pd,
                BufferAddress(side, q),
                GetLargestSize(),
                LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC,
                drp::FunctorCallback<void, Ptr<RdmaMemoryRegion>, int>(
                    [this, side](Ptr<RdmaMemoryRegion> mr, int e) { OnRegistered(side, mr, e); }));
            NS_ABORT_MSG_IF(error != 0, "RdmaPerftest: RegMr failed (" << error << ")");
        }
        end.rnic->GetHostMemory()->TraceConnectWithoutContext(
            "Write",
            drp::FunctorCallback<void, uint64_t, uint32_t>(
                [this, side](uint64_t address, uint32_t length) {
                    OnMemoryWritten(side, address, length);
                }));
    }
    Connect();
}

void
RdmaPerftest::Open(uint32_t side)
{
    End& end = m_ends[side];
    end.context = CreateObject<RdmaContext>();
    end.context->Open(end.rnic);
    end.pd = end.context->AllocPd();
    const uint32_t qps = IsLatency() ? 1 : m_qps;
    int error = 0;
    const uint32_t depth =
        std::min<uint32_t>(end.context->QueryDevice().maxCqe, qps * (m_txDepth + m_rxDepth) + 16);
    end.cq = end.context->CreateCq(depth, error);
    NS_ABORT_MSG_IF(!end.cq, "RdmaPerftest: CreateCq failed (" << error << ")");
    end.cq->SetEventCallback(MakeCallback(&RdmaPerftest::OnCompletions, this));
    end.cq->ReqNotify(false);
    for (uint32_t q = 0; q < qps; ++q)
    {
        RdmaQpInitAttr init;
        init.sendCq = end.cq;
        init.recvCq = end.cq;
        init.cap.maxSendWr = std::max<uint32_t>(m_txDepth, 2);
        init.cap.maxRecvWr = m_rxDepth;
        init.cap.maxSendSge = 1;
        init.cap.maxRecvSge = 1;
        Ptr<RdmaQueuePair> qp = end.context->CreateQp(end.pd, init, error);
        NS_ABORT_MSG_IF(!qp, "RdmaPerftest: CreateQp failed (" << error << ")");
        end.qps.push_back(qp);
    }
}

void
RdmaPerftest::Connect()
{
    const uint8_t maxRd = m_ends[0].context->QueryDevice().maxQpRdAtom;
    for (uint32_t side = 0; side < 2; ++side)
    {
        const End& peer = m_ends[1 - side];
        for (uint32_t q = 0; q < m_ends[side].qps.size(); ++q)
        {
            RdmaQpAttr a;
            a.qpAccessFlags =
                RdmaAccess::REMOTE_WRITE | RdmaAccess::REMOTE_READ | RdmaAccess::REMOTE_ATOMIC;
            a.peer = DrpVerbsProvider::ToPeer(Mac48Address::ConvertFrom(peer.rnic->GetAddress()));
            a.destQpNum = peer.qps[q]->GetQpNum();
            a.maxDestRdAtomic = maxRd;
            a.maxRdAtomic = maxRd;
            const int r = m_ends[side].qps[q]->ConnectRc(a);
            NS_ABORT_MSG_IF(r != 0, "RdmaPerftest: connecting a queue pair failed (" << r << ")");
        }
    }
}

void
RdmaPerftest::OnRegistered(uint32_t side, Ptr<RdmaMemoryRegion> mr, int error)
{
    NS_ABORT_MSG_IF(!mr, "RdmaPerftest: a buffer's registration failed (" << error << ")");
    m_ends[side].buffers.push_back(mr);
    if (--m_registering == 0)
    {
        for (End& end : m_ends)
        {
            std::sort(end.buffers.begin(), end.buffers.end(), [](const auto& a, const auto& b) {
                return a->GetAddress() < b->GetAddress();
            });
        }
        StartSize();
    }
}

// ---------------------------------------------------------------------------
// Running a size

void
RdmaPerftest::StartSize()
{
    if (m_currentSize == 0)
    {
        m_currentSize = m_test == ATOMIC_LAT ? ATOMIC_SIZE : (m_allSizes ? 2 : m_size);
    }
    else if (m_allSizes && m_test != ATOMIC_LAT && m_currentSize < MAX_SIZE)
    {
        m_currentSize *= 2;
    }
    else
    {
        m_done = true;
        return;
    }
    NS_LOG_INFO(GetTestName(m_test) << ": " << m_currentSize << " bytes");
    m_pings = 0;
    const bool send = GetOpcode() == RdmaWrOpcode::SEND;
    for (uint32_t side = 0; side < 2; ++side)
    {
        End& end = m_ends[side];
        const size_t qps = end.qps.size();
        end.posted.assign(qps, 0);
        end.completed.assign(qps, 0);
        end.postTimes.clear();
        end.doneTimes.clear();
        end.sending =
            side == 0 || (m_bidirectional && !IsLatency()) || (IsLatency() && !IsReadLike());
        // Receives for whatever SENDs will come: the latency test's one at a
        // time, the bandwidth test's RxDepth (reposted as they complete).
        const bool receives = send && (IsLatency() || side == 1 || m_bidirectional);
        for (uint32_t q = 0; q < qps && receives; ++q)
        {
            const uint32_t n = IsLatency() ? 1 : m_rxDepth;
            for (uint32_t i = 0; i < n && end.qps[q]->GetRecvQueueLength() < n; ++i)
            {
                PostReceive(side, q);
            }
        }
    }
    if (IsLatency())
    {
        Post(0, 0); // the client's first ping
        return;
    }
    for (uint32_t side = 0; side < 2; ++side)
    {
        End& end = m_ends[side];
        for (uint32_t q = 0; end.sending && q < end.qps.size(); ++q)
        {
            while (end.posted[q] < m_iterations && end.posted[q] - end.completed[q] < m_txDepth)
            {
                Post(side, q);
            }
        }
    }
}

void
RdmaPerftest::Post(uint32_t side, uint32_t q)
{
    End& end = m_ends[side];
    const End& peer = m_ends[1 - side];
    RdmaSendWr wr;
    wr.wrId = end.posted[q];
    wr.opcode = GetOpcode();
    wr.sendFlags = RdmaSendFlags::SIGNALED;
    wr.sgList.push_back({end.buffers[q]->GetAddress(), m_currentSize, end.buffers[q]->GetLkey()});
    wr.remoteAddr = peer.buffers[q]->GetAddress();
    wr.rkey = peer.buffers[q]->GetRkey();
    // atomic_lat, as perftest: add 1, or swap 1 for 0 and back by turns.
    wr.compareAdd = m_compareSwap ? (end.posted[q] % 2) : 1;
    wr.swap = 1 - end.posted[q] % 2;
    const int error = end.qps[q]->PostSend({wr});
    NS_ABORT_MSG_IF(error != 0, "RdmaPerftest: PostSend failed (" << error << ")");
    ++end.posted[q];
    end.postTimes.push_back(Simulator::Now());
}

void
RdmaPerftest::PostReceive(uint32_t side, uint32_t q)
{
    End& end = m_ends[side];
    RdmaRecvWr wr;
    // The whole buffer: a receive left from a smaller size takes a larger message.
    wr.sgList.push_back(
        {end.buffers[q]->GetAddress(), GetLargestSize(), end.buffers[q]->GetLkey()});
    const int error = end.qps[q]->PostRecv({wr});
    NS_ABORT_MSG_IF(error != 0, "RdmaPerftest: PostRecv failed (" << error << ")");
}

void
RdmaPerftest::OnCompletions(Ptr<RdmaCompletionQueue> cq)
{
    const uint32_t side = cq == m_ends[0].cq ? 0 : 1;
    for (std::vector<RdmaWc> wcs = cq->Poll(64); !wcs.empty(); wcs = cq->Poll(64))
    {
        for (const RdmaWc& wc : wcs)
        {
            OnCompletion(side, wc);
        }
    }
    cq->ReqNotify(false);
}

void
RdmaPerftest::OnCompletion(uint32_t side, const RdmaWc& wc)
{
    End& end = m_ends[side];
    if (wc.status != RdmaWcStatus::SUCCESS)
    {
        if (wc.status != RdmaWcStatus::WR_FLUSH_ERR)
        {
            NS_LOG_WARN(GetTestName(m_test) << ": a request ended with " << wc.status);
            ++m_errors;
        }
        return; // the queue pair is in ERR: the test stops here
    }
    uint32_t q = 0;
    while (q < end.qps.size() && end.qps[q]->GetQpNum() != wc.qpNum)
    {
        ++q;
    }
    if (wc.opcode == RdmaWcOpcode::RECV)
    {
        if (IsLatency())
        {
            PostReceive(side, q); // for the next ping (or pong)
            OnArrival(side);
        }
        else
        {
            PostReceive(side, q);
            if (m_ends[1 - side].completed[q] >= m_iterations && IsSizeDone())
            {
                FinishSize();
            }
        }
        return;
    }
    ++end.completed[q];
    end.doneTimes.push_back(Simulator::Now());
    if (IsLatency())
    {
        if (IsReadLike())
        {
            OnArrival(0); // the data is back: the next read or atomic
        }
        return;
    }
    if (end.posted[q] < m_iterations)
    {
        Post(side, q);
    }
    if (IsSizeDone())
    {
        FinishSize();
    }
}

void
RdmaPerftest::OnMemoryWritten(uint32_t side, uint64_t address, uint32_t length)
{
    if (m_test != WRITE_LAT || m_currentSize == 0 || m_done)
    {
        return;
    }
    // perftest's write_lat polls the last byte of its buffer.
    const uint64_t last = m_ends[side].buffers[0]->GetAddress() + m_currentSize - 1;
    if (address <= last && last - address < length)
    {
        OnArrival(side);
    }
}

void
RdmaPerftest::OnArrival(uint32_t side)
{
    if (side == 1)
    {
        Post(1, 0); // the server's pong
        return;
    }
    ++m_pings;
    if (m_pings < m_iterations)
    {
        Post(0, 0);
        return;
    }
    FinishSize();
}

bool
RdmaPerftest::IsSizeDone() const
{
    for (const End& end : m_ends)
    {
        for (size_t q = 0; end.sending && q < end.qps.size(); ++q)
        {
            if (end.completed[q] < m_iterations)
            {
                return false;
            }
        }
    }
    return true;
}

void
RdmaPerftest::FinishSize()
{
    if (IsLatency())
    {
        m_latResults.push_back(MakeLatResult());
    }
    else
    {
        m_bwResults.push_back(MakeBwResult());
    }
    m_sizeDone(m_currentSize);
    // The next size once this event is over (the last completions are polled).
    drp::ScheduleNow([this]() { StartSize(); });
}

RdmaPerftest::BwResult
RdmaPerftest::MakeBwResult() const
{
    BwResult r;
    r.bytes = m_currentSize;
    for (const End& end : m_ends)
    {
        if (!end.sending || end.postTimes.empty())
        {
            continue;
        }
        std::vector<Time> posts = end.postTimes;
        std::vector<Time> dones = end.doneTimes;
        std::sort(posts.begin(), posts.end());
        std::sort(dones.begin(), dones.end());
        const uint64_t n = std::min(posts.size(), dones.size());
        const double seconds = (dones[n - 1] - posts[0]).GetSeconds();
        // Peak: the best run of consecutive requests, i to j (perftest's opt_delta).
        double best = seconds / double(n);
        for (uint64_t i = 0; i < n; ++i)
        {
            for (uint64_t j = i; j < n; ++j)
            {
                best = std::min(best, (dones[j] - posts[i]).GetSeconds() / double(j - i + 1));
            }
        }
        const double bits = 8.0 * m_currentSize;
        r.iterations += n;
        r.averageGbps += bits * double(n) / seconds / 1e9;
        r.peakGbps += bits / best / 1e9;
        r.msgRateMpps += double(n) / seconds / 1e6;
    }
    return r;
}

RdmaPerftest::LatResult
RdmaPerftest::MakeLatResult() const
{
    LatResult r;
    r.bytes = m_currentSize;
    r.iterations = m_iterations;
    const std::vector<Time>& posts = m_ends[0].postTimes;
    // The client's posts: each sample is the time between two, a round trip
    // for WRITE and SEND (halved) and the READ itself.
    const double factor = IsReadLike() ? 1.0 : 2.0;
    std::vector<double> delta;
    for (size_t i = 0; i + 1 < posts.size(); ++i)
    {
        delta.push_back(double((posts[i + 1] - posts[i]).GetNanoSeconds()) / 1000.0 / factor);
    }
    std::sort(delta.begin(), delta.end());
    if (delta.size() <= LAT_MEASURE_TAIL)
    {
        return r;
    }
    const size_t count = delta.size() - LAT_MEASURE_TAIL;
    // perftest's get_median(count, delta).
    r.typical = (count - 1) % 2 ? (delta[count / 2] + delta[count / 2 - 1]) / 2 : delta[count / 2];
    double sum = 0;
    for (size_t i = 0; i < count; ++i)
    {
        sum += delta[i];
    }
    r.average = sum / double(count);
    double squares = 0;
    for (size_t i = 0; i < count; ++i)
    {
        squares += (delta[i] - r.average) * (delta[i] - r.average);
    }
    r.stdev = std::sqrt(squares / double(count));
    r.min = delta[0];
    // perftest's indices: delta[count], delta[ceil(count x 0.99)], ... (the
    // tail left out lies beyond them).
    const auto at = [&delta](size_t i) { return delta[std::min(i, delta.size() - 1)]; };
    r.max = at(count);
    r.p99 = at(size_t(std::ceil(double(count) * 0.99)));
    r.p999 = at(size_t(std::ceil(double(count) * 0.999)));
    return r;
}

// ---------------------------------------------------------------------------
// The report

void
RdmaPerftest::Print(std::ostream& os) const
{
    const char* line =
        "---------------------------------------------------------------------------------------\n";
    char buffer[512];
    os << line;
    if (IsLatency())
    {
        os << " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]   "
              " "
              "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n";
        for (const LatResult& r : m_latResults)
        {
            std::snprintf(buffer,
                          sizeof(buffer),
                          " %-7u %-10llu          %-7.2f        %-7.2f      %-7.2f  \t       "
                          "%-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f\n",
                          r.bytes,
                          static_cast<unsigned long long>(r.iterations),
                          r.min,
                          r.max,
                          r.typical,
                          r.average,
                          r.stdev,
                          r.p99,
                          r.p999);
            os << buffer;
        }
    }
    else
    {
        os << " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n";
        for (const BwResult& r : m_bwResults)
        {
            std::snprintf(buffer,
                          sizeof(buffer),
                          " %-7u    %-10llu       %-7.2f            %-7.2f\t\t     %-7.6f\n",
                          r.bytes,
                          static_cast<unsigned long long>(r.iterations),
                          r.peakGbps,
                          r.averageGbps,
                          r.msgRateMpps);
            os << buffer;
        }
    }
    os << line;
}

} // namespace ns3
