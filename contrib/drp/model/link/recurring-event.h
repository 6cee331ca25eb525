/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RECURRING_EVENT_H
#define RECURRING_EVENT_H

#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief One member function that a model schedules again and again, each
 * time through the same EventImpl.
 *
 * Simulator::Schedule(delay, &T::Method, object) makes a new EventImpl per
 * call, and ns-3 frees it after it ran: an allocation and a free per event,
 * several times per frame on a port's and a transport's per-frame paths.
 * A RecurringEvent makes its EventImpl once and hands the simulator a
 * reference to it at each Schedule(): the same time, the same place among the
 * events of that time (ns-3 orders them by when they were scheduled), the
 * same EventId semantics, without the allocation. Several may be pending at
 * once; each runs the method once.
 *
 * ns-3 marks an EventImpl cancelled for good when one of its events is
 * cancelled or removed, so Cancel() here cancels the event given and gives
 * this RecurringEvent a fresh EventImpl for what comes after. Never call
 * EventId::Cancel() or Simulator::Remove() on its events directly: that
 * would silence every later one.
 *
 * \tparam T the class whose method runs
 */
template <typename T>
class RecurringEvent
{
  public:
    /// The method that runs.
    using Method = void (T::*)();

    /**
     * \param method the method
     * \param object the object it runs on (outlives every pending event)
     */
    RecurringEvent(Method method, T* object)
        : m_method(method),
          m_object(object)
    {
        Renew();
    }

    /**
     * Schedules the method to run after \p delay.
     * \param delay the delay
     * \return the event, as Simulator::Schedule() returns it
     */
    EventId Schedule(const Time& delay)
    {
        // Simulator::Schedule takes its own reference (GetPointer), and
        // releases it after the event ran or was dropped.
        return Simulator::Schedule(delay, m_impl);
    }

    /**
     * Cancels \p id, one of this RecurringEvent's events, and makes the
     * next Schedule() use a new EventImpl (the old one stays cancelled).
     * \param id the event (an expired one is left as it is)
     */
    void Cancel(EventId& id)
    {
        if (!id.IsExpired())
        {
            id.Cancel();
            Renew();
        }
    }

  private:
    /// The EventImpl: runs the method unless cancelled.
    class Impl : public EventImpl
    {
      public:
        /**
         * \param method the method
         * \param object the object
         */
        Impl(Method method, T* object)
            : m_method(method),
              m_object(object)
        {
        }

      private:
        void Notify() override
        {
            (m_object->*m_method)();
        }

        Method m_method; //!< the method
        T* m_object;     //!< its object
    };

    /// Makes a new EventImpl for the events to come.
    void Renew()
    {
        m_impl = Ptr<EventImpl>(new Impl(m_method, m_object), false);
    }

    Method m_method;       //!< the method
    T* m_object;           //!< its object
    Ptr<EventImpl> m_impl; //!< the EventImpl every Schedule() uses, until a Cancel()
};

} // namespace ns3

#endif /* RECURRING_EVENT_H */
