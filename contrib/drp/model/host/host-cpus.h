/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HOST_CPUS_H
#define HOST_CPUS_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <deque>
#include <functional>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The CPUs of a host: Count processors that run the host's jobs one
 * at a time each, the jobs waiting for a free CPU in arrival order (first
 * come, first served).
 *
 * A job is a stretch of host software of known length: the handling of an
 * RNIC interrupt that needs an answer, or the registration of a memory
 * region. Run() queues it; when a CPU is free the job holds it for its
 * duration and then calls its continuation (the doorbell that answers the
 * RNIC, for instance). A job is never interrupted, and jobs have no
 * priorities: an interrupt that arrives while every CPU registers memory
 * waits, as it does on a host whose interrupt handler hands its work to a
 * single worker.
 *
 * Aggregate one HostCpus to each host Node (RdmaHostHelper::Install does,
 * and RdmaHostApplication does when it starts on a node without one): every
 * application on the node shares it, as programs share a machine's
 * processors. It is an object of the node rather than of an application for
 * that reason, in the way HostMemory is.
 *
 * What it leaves out: CPU time of work that answers nothing (a completion
 * interrupt, the posting of a transfer, the release of a registration: all
 * instant in the model), caches, frequency scaling, and interrupt
 * coalescing.
 *
 * Count defaults to 1: the host of the published prototype is one embedded
 * processor core.
 */
class HostCpus : public Object
{
  public:
    /**
     * TracedCallback signature for job starts.
     * \param wait how long the job waited for a CPU
     * \param duration how long it holds the CPU
     */
    typedef void (*JobTracedCallback)(Time wait, Time duration);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    HostCpus();

    /**
     * Queues a job: it waits for a free CPU (first come, first served),
     * holds it for \p duration, then calls \p done.
     * \param duration CPU time the job takes (0 or more)
     * \param done what the host does when the job is finished
     */
    void Run(Time duration, std::function<void()> done);

    /// \return the number of CPUs
    uint32_t GetCount() const;
    /// \return CPUs running a job now
    uint32_t GetBusy() const;
    /// \return jobs waiting for a CPU now
    uint32_t GetQueueLength() const;
    /// \return jobs finished so far
    uint64_t GetJobs() const;
    /// \return CPU time of the jobs finished so far
    Time GetBusyTime() const;
    /// \return the longest time a job has waited for a CPU so far
    Time GetLongestWait() const;
    /// \return the time all jobs that got a CPU so far waited, summed
    Time GetTotalWait() const;

  protected:
    void DoDispose() override;

  private:
    /// A job waiting for a CPU.
    struct Job
    {
        Time duration;              //!< CPU time it takes
        Time arrival;               //!< when it was queued
        std::function<void()> done; //!< its continuation
    };

    /// \param count CPUs (1 to 1024)
    void SetCount(uint32_t count);
    /// Gives free CPUs to waiting jobs, in arrival order.
    void Dispatch();
    /**
     * A job's CPU time is over: frees its CPU, runs its continuation and
     * gives the CPU to the next job.
     * \param job the job
     */
    void Finish(const Job& job);

    uint32_t m_count;                           //!< CPUs
    std::deque<Job> m_waiting;                  //!< jobs waiting for a CPU, in arrival order
    TracedValue<uint32_t> m_busy;               //!< CPUs running a job
    TracedValue<uint32_t> m_queueLength;        //!< jobs waiting
    uint64_t m_jobs;                            //!< jobs finished
    Time m_busyTime;                            //!< CPU time of finished jobs
    Time m_longestWait;                         //!< longest wait so far
    Time m_totalWait;                           //!< waits summed
    TracedCallback<Time, Time> m_jobStartTrace; //!< a job got a CPU
};

} // namespace ns3

#endif /* HOST_CPUS_H */
