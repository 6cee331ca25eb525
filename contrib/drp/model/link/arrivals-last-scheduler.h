/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ARRIVALS_LAST_SCHEDULER_H
#define ARRIVALS_LAST_SCHEDULER_H

#include "lazy-event-heap.h"

#include "ns3/scheduler.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief An event scheduler whose order of same-time events does not depend
 * on when frame arrivals were scheduled: the order that makes a distributed
 * (MPI) run give the results of the sequential run to the nanosecond.
 *
 * ns-3's schedulers run the events of one time stamp in the order they were
 * scheduled (the event uid). In a distributed simulation a frame from
 * another rank is scheduled when its message arrives, at a synchronization,
 * not when it left as on a local cable; where its arrival and another event
 * of the node fall on the same nanosecond, their order, and what follows
 * from it (which of two frames a switch queues first, whether a timer or an
 * acknowledgement comes first), depends on how the simulation is split
 * over ranks.
 *
 * This scheduler orders the events of one time stamp as follows:
 *
 * 1. every event other than a frame arrival (EthernetArrivalEvent), in the
 *    order scheduled, as ns-3's schedulers do;
 * 2. then the arrivals, by the receiving node's id and the port's interface
 *    index (one cable delivers one frame at a time, so this is a total
 *    order), whenever they were scheduled; the events an arrival schedules
 *    for the same time stamp run before the next arrival.
 *
 * Both are the same on every rank and in a sequential run: the events of a
 * node other than arrivals are scheduled by the node's own events, in an
 * order that, by induction over the run, is the same however the nodes are
 * placed. The order is a different one from that of ns-3's schedulers
 * (there, an arrival runs before the same-time events scheduled after the
 * frame left and after those scheduled before), so results can differ from
 * a run with MapScheduler where same-time events meet; they are the same
 * for any placement on ranks.
 *
 * ns-3's simulators tell whether an event of the current time stamp has
 * run (EventId::IsExpired(), IsPending(), Cancel()) by comparing its uid
 * with the running event's, so they rely on the events of a time stamp
 * running in uid order. An arrival may run after events with larger uids;
 * this scheduler therefore hands an arrival to the simulator with the
 * largest uid scheduled so far (its own stays in its EventId, which no one
 * keeps): every event that already ran counts as expired, and every event
 * scheduled from then on has a larger uid and counts as pending. Because
 * arrivals come last in their time stamp, no other event of that time
 * stamp is pending while one runs.
 *
 * Select it with ns-3's SchedulerType (e.g.
 * --SchedulerType=ns3::ArrivalsLastScheduler, or Simulator::SetScheduler())
 * in the sequential and the distributed runs alike. Storage is a
 * LazyEventHeap: logarithmic Insert() and RemoveNext(), constant Remove().
 */
class ArrivalsLastScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ArrivalsLastScheduler();
    ~ArrivalsLastScheduler() override;

    // Inherited from Scheduler
    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

  private:
    /**
     * \param ev an event
     * \return its rank among the events of its time stamp, before its uid:
     *         0 for an event other than an arrival; for an arrival, 1 plus
     *         its node id and interface index (node id in the upper 32 bits)
     */
    static uint64_t TieOf(const Scheduler::Event& ev);
    /**
     * \param tie the next event's rank (TieOf())
     * \param ev the next event
     * \return the event as the simulator gets it (an arrival with the
     *         largest uid scheduled so far)
     */
    Scheduler::Event AsRun(uint64_t tie, const Scheduler::Event& ev) const;

    LazyEventHeap m_events; //!< the pending events, in order
    uint32_t m_lastUid;     //!< the largest uid scheduled so far
};

} // namespace ns3

#endif /* ARRIVALS_LAST_SCHEDULER_H */
