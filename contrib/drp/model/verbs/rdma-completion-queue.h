/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_COMPLETION_QUEUE_H
#define RDMA_COMPLETION_QUEUE_H

#include "rdma-verbs-types.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A completion queue (ibv_cq): work completions of the queue pairs
 * that post to it, in the order they complete, polled by the application.
 *
 * Created by RdmaContext::CreateCq() with a depth (cqe). Poll() takes up to
 * n completions, oldest first, as ibv_poll_cq does. Notification follows
 * ibv_req_notify_cq and a completion channel: ReqNotify() arms the queue
 * once; the next completion (with solicitedOnly, the next one of a request
 * that carried the solicited flag, or any error) makes the channel's
 * callback (SetEventCallback) run once, in an event of its own at the same
 * simulated time, and disarms it. An application that wants every event
 * arms again after each, as with ibv_get_cq_event.
 *
 * A completion that finds the queue full is lost and the queue is in error
 * from then on (IBV_EVENT_CQ_ERR in libibverbs): IsInError() says so, the
 * "Overrun" trace fires, and every later completion is lost and counted
 * (GetLost()). Size the queue for the requests outstanding on it.
 */
class RdmaCompletionQueue : public Object
{
  public:
    /**
     * TracedCallback signature for completions.
     * \param wc the completion
     */
    typedef void (*WcTracedCallback)(const RdmaWc& wc);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaCompletionQueue();

    /// \param depth completions it holds (1 or more; RdmaContext checks the device limit)
    void SetDepth(uint32_t depth);
    /// \return completions it holds
    uint32_t GetDepth() const;

    /**
     * Takes completions, oldest first (ibv_poll_cq).
     * \param n at most this many
     * \return the completions taken (none: empty)
     */
    std::vector<RdmaWc> Poll(uint32_t n);
    /// \return completions waiting to be polled
    uint32_t GetCount() const;

    /**
     * Arms the notification once (ibv_req_notify_cq).
     * \param solicitedOnly wake only for a solicited completion or an error
     */
    void ReqNotify(bool solicitedOnly);
    /// \param event runs once per armed notification (the completion channel)
    void SetEventCallback(Callback<void, Ptr<RdmaCompletionQueue>> event);

    /**
     * A queue pair adds a completion (the RNIC writes a CQE).
     * \param wc the completion
     * \param solicited its request carried the solicited flag
     * \return false if the queue was full or in error: the completion is lost
     */
    bool Push(const RdmaWc& wc, bool solicited = false);

    /// \return true after an overrun
    bool IsInError() const;
    /// \return completions lost to an overrun
    uint64_t GetLost() const;
    /// \return completions added since creation (lost ones excluded)
    uint64_t GetTotal() const;

  protected:
    void DoDispose() override;

  private:
    /// The notification fires: the channel's callback runs.
    void Notify();

    uint32_t m_depth{1};                              //!< capacity
    std::deque<RdmaWc> m_entries;                     //!< waiting completions
    bool m_armed{false};                              //!< ReqNotify since the last event
    bool m_solicitedOnly{false};                      //!< armed for solicited only
    EventId m_notify;                                 //!< the pending notification
    Callback<void, Ptr<RdmaCompletionQueue>> m_event; //!< the completion channel
    bool m_error{false};                              //!< overrun
    uint64_t m_lost{0};                               //!< completions lost
    uint64_t m_total{0};                              //!< completions added
    TracedCallback<const RdmaWc&> m_completionTrace;  //!< every completion added
    TracedCallback<const RdmaWc&> m_overrunTrace;     //!< a completion lost
};

} // namespace ns3

#endif /* RDMA_COMPLETION_QUEUE_H */
