/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LAZY_EVENT_HEAP_H
#define LAZY_EVENT_HEAP_H

#include "ns3/assert.h"
#include "ns3/scheduler.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The pending events of a Scheduler on a binary heap in one vector
 * (std::push_heap, std::pop_heap), in the order of time stamp, then a tie
 * rank, then uid, with removal by mark.
 *
 * ArrivalsLastScheduler's storage. A std::map (as MapScheduler's) allocates
 * a node per event and rebalances a red-black tree; a heap keeps the events
 * in one array and allocates only when it grows. In the 128-host fabric of
 * the speed chapter (18.6 million events, at most 1,592 pending at once) a
 * sequential run with ArrivalsLastScheduler took 16.55 s on this heap
 * against 17.14 s on a std::map, the same events in the same order.
 *
 * Remove() cannot find an event in a heap without a search: it marks the
 * event's uid instead (a hash set); a marked event leaves when it reaches
 * the top, so that the top is never a removed event, or when marked events
 * outnumber the pending ones, which rebuilds the heap without them (memory
 * stays within twice the pending events). Removals are rare in drp (4,026
 * in that run). The order is that of the key alone (time stamp, tie rank,
 * uid: unique per event), so the events run in the same order as in a
 * std::map of the same key. The simulator unrefs a removed event's
 * EventImpl at once: a marked entry's impl is never touched again.
 */
class LazyEventHeap
{
  public:
    /**
     * \param ev the event
     * \param tie its rank among the events of its time stamp, before its
     *        uid (0: by uid alone, ns-3's order)
     */
    void Push(const Scheduler::Event& ev, uint64_t tie = 0)
    {
        m_heap.push_back({ev, tie});
        std::push_heap(m_heap.begin(), m_heap.end(), Later());
    }

    /// \return true if no event is pending
    bool IsEmpty() const
    {
        return m_heap.empty();
    }

    /// \return the entries held, removed events included: at most twice the pending ones
    std::size_t GetHeld() const
    {
        return m_heap.size();
    }

    /// \return the first event (not IsEmpty())
    const Scheduler::Event& Top() const
    {
        NS_ASSERT(!m_heap.empty());
        return m_heap.front().ev;
    }

    /// \return the first event's tie rank (not IsEmpty())
    uint64_t TopTie() const
    {
        NS_ASSERT(!m_heap.empty());
        return m_heap.front().tie;
    }

    /// Removes the first event (not IsEmpty()).
    void Pop()
    {
        NS_ASSERT(!m_heap.empty());
        std::pop_heap(m_heap.begin(), m_heap.end(), Later());
        m_heap.pop_back();
        DropRemovedTop();
    }

    /**
     * Removes a pending event.
     * \param ev the event (its uid names it)
     */
    void Remove(const Scheduler::Event& ev)
    {
        NS_ASSERT(!m_heap.empty());
        if (m_heap.front().ev.key.m_uid == ev.key.m_uid)
        {
            Pop();
            return;
        }
        [[maybe_unused]] const bool marked = m_removed.insert(ev.key.m_uid).second;
        NS_ASSERT_MSG(marked, "LazyEventHeap: event uid " << ev.key.m_uid << " removed twice");
        if (2 * m_removed.size() > m_heap.size())
        {
            Compact();
        }
    }

  private:
    /// An event with its tie rank.
    struct Entry
    {
        Scheduler::Event ev; //!< the event
        uint64_t tie;        //!< its rank among its time stamp's events, before the uid
    };

    /// The heap's order: the smallest (time stamp, tie, uid) on top.
    struct Later
    {
        /**
         * \param a an entry
         * \param b another
         * \return true if \p a comes after \p b
         */
        bool operator()(const Entry& a, const Entry& b) const
        {
            if (a.ev.key.m_ts != b.ev.key.m_ts)
            {
                return a.ev.key.m_ts > b.ev.key.m_ts;
            }
            if (a.tie != b.tie)
            {
                return a.tie > b.tie;
            }
            return a.ev.key.m_uid > b.ev.key.m_uid;
        }
    };

    /// Pops removed events off the top, so that the top is a pending one.
    void DropRemovedTop()
    {
        while (!m_removed.empty() && !m_heap.empty() &&
               m_removed.erase(m_heap.front().ev.key.m_uid) == 1)
        {
            std::pop_heap(m_heap.begin(), m_heap.end(), Later());
            m_heap.pop_back();
        }
    }

    /// Rebuilds the heap of the pending events alone.
    void Compact()
    {
        auto removed = [this](const Entry& e) { return m_removed.count(e.ev.key.m_uid) == 1; };
        m_heap.erase(std::remove_if(m_heap.begin(), m_heap.end(), removed), m_heap.end());
        m_removed.clear();
        std::make_heap(m_heap.begin(), m_heap.end(), Later());
    }

    std::vector<Entry> m_heap;              //!< pending and removed events, a heap
    std::unordered_set<uint32_t> m_removed; //!< uids of removed events still in m_heap
};

} // namespace ns3

#endif /* LAZY_EVENT_HEAP_H */
