/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-cpus.h"

#include "ns3/abort.h"
#include "ns3/drp-check.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HostCpus");

NS_OBJECT_ENSURE_REGISTERED(HostCpus);

TypeId
HostCpus::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HostCpus")
            .SetParent<Object>()
            .SetGroupName("Drp")
            .AddConstructor<HostCpus>()
            .AddAttribute("Count",
                          "CPUs that run the host's interrupt handling and memory registration "
                          "(1 to 1024; 1: the published prototype's single embedded core).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&HostCpus::SetCount, &HostCpus::GetCount),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("JobStart",
                            "A job got a CPU: how long it waited, and how long it will run.",
                            MakeTraceSourceAccessor(&HostCpus::m_jobStartTrace),
                            "ns3::HostCpus::JobTracedCallback")
            .AddTraceSource("QueueLength",
                            "Jobs waiting for a CPU.",
                            MakeTraceSourceAccessor(&HostCpus::m_queueLength),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Busy",
                            "CPUs running a job.",
                            MakeTraceSourceAccessor(&HostCpus::m_busy),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

HostCpus::HostCpus()
    : m_count(1),
      m_busy(0),
      m_queueLength(0),
      m_jobs(0)
{
    NS_LOG_FUNCTION(this);
}

void
HostCpus::DoDispose()
{
    m_waiting.clear();
    Object::DoDispose();
}

void
HostCpus::SetCount(uint32_t count)
{
    drp::RequireInRange<uint32_t>("HostCpus::Count", count, 1, 1024);
    m_count = count;
    // More CPUs take waiting jobs at once; fewer let running jobs finish.
    Dispatch();
}

uint32_t
HostCpus::GetCount() const
{
    return m_count;
}

uint32_t
HostCpus::GetBusy() const
{
    return m_busy;
}

uint32_t
HostCpus::GetQueueLength() const
{
    return m_queueLength;
}

uint64_t
HostCpus::GetJobs() const
{
    return m_jobs;
}

Time
HostCpus::GetBusyTime() const
{
    return m_busyTime;
}

Time
HostCpus::GetLongestWait() const
{
    return m_longestWait;
}

Time
HostCpus::GetTotalWait() const
{
    return m_totalWait;
}

void
HostCpus::Run(Time duration, std::function<void()> done)
{
    NS_LOG_FUNCTION(this << duration);
    NS_ABORT_MSG_IF(duration.IsStrictlyNegative(), "HostCpus::Run: negative duration " << duration);
    m_waiting.push_back(Job{duration, Simulator::Now(), std::move(done)});
    m_queueLength = m_waiting.size();
    Dispatch();
}

void
HostCpus::Dispatch()
{
    while (m_busy < m_count && !m_waiting.empty())
    {
        Job job = std::move(m_waiting.front());
        m_waiting.pop_front();
        m_queueLength = m_waiting.size();
        m_busy = m_busy + 1;
        Time wait = Simulator::Now() - job.arrival;
        m_longestWait = Max(m_longestWait, wait);
        m_totalWait += wait;
        NS_LOG_INFO("job of " << job.duration.As(Time::US) << " starts after waiting "
                              << wait.As(Time::US) << "; " << m_busy << " of " << m_count
                              << " CPUs busy, " << m_waiting.size() << " jobs waiting");
        m_jobStartTrace(wait, job.duration);
        Time duration = job.duration;
        Simulator::Schedule(duration, &HostCpus::Finish, this, std::move(job));
    }
}

void
HostCpus::Finish(const Job& job)
{
    m_busy = m_busy - 1;
    ++m_jobs;
    m_busyTime += job.duration;
    job.done();
    Dispatch();
}

} // namespace ns3
