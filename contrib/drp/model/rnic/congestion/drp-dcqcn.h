/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_DCQCN_H
#define DRP_DCQCN_H

#include "drp-congestion-ops.h"

#include "ns3/event-id.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief DCQCN's reaction point (Zhu et al., "Congestion Control for
 * Large-Scale RDMA Deployments", SIGCOMM 2015): a rate-based
 * scheme that reacts to congestion notifications (CNPs).
 *
 * The rate starts at the line rate. Rates are the current rate R_C and the
 * target rate R_T; alpha estimates the congestion (initially 1).
 *
 * * A CNP (an ACK with the CNP bit): R_T = R_C; R_C = R_C (1 - alpha/2);
 *   alpha = (1 - g) alpha + g; the increase stages, the byte counter and
 *   both timers start again.
 * * The alpha timer: alpha = (1 - g) alpha when no CNP came for K (the
 *   timer restarts with every CNP and after every expiry).
 * * Rate increase: an event each time the rate-increase timer T expires
 *   (timer stage i + 1) and each time the byte counter counts B bytes sent
 *   (byte stage j + 1). At each event: while max(i, j) <= F, fast recovery
 *   (R_T unchanged); when min(i, j) > F, hyper increase
 *   (R_T += (min(i, j) - F) R_HAI); otherwise additive increase
 *   (R_T += R_AI); then R_C = (R_T + R_C) / 2.
 * * R_C and R_T stay within [MinRate, line rate].
 *
 * The timers start with the first CNP: a transfer that never sees one
 * schedules no event. The notification point (one CNP per CnpInterval per
 * transfer, 50 us) is the receiver's (DrpReceiver); the congestion point is
 * the switch queue (EcnMarkingQueue).
 *
 * The byte counter (ByteCounter), the increase steps (RateAi, RateHai) and
 * MinRate are given for a reference line rate (the paper's 40 Gb/s) and
 * scaled by line rate / ReferenceRate (ReferenceRate 0: used as given). At
 * DRP's 1 Gb/s the paper's 40 Mb/s additive step becomes 1 Mb/s and its
 * 10 MB byte counter 250 KB; at 100 Gb/s 100 Mb/s and 25 MB: the same
 * fraction of the line per step, and a byte stage after the same time at
 * the same share of the line, so that a flow recovers, and reaches hyper
 * increase, in the same time at every rate, as in the paper at 40 Gb/s.
 * (Unscaled, a 10 MB counter at 10 Gb/s took four times the paper's time
 * per stage, and hyper increase, which needs F + 1 byte stages, practically
 * never started.)
 *
 * Left out: the hardware's rate limiter granularity, the separate CNP
 * packet (DRP carries the CNP as an ACK flag, as HPCC's simulator does),
 * and per-QP state beyond one transfer.
 */
class DrpDcqcn : public DrpCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DrpDcqcn();
    /// \param other the object copied (attributes only)
    DrpDcqcn(const DrpDcqcn& other);
    ~DrpDcqcn() override;

    std::string GetName() const override;
    Ptr<DrpCongestionOps> Fork() const override;
    void OnSent(uint32_t bytes) override;
    void OnAck(uint32_t acked, bool congestion) override;

    /// \return alpha
    double GetAlpha() const;
    /// \return the current rate R_C
    DataRate GetCurrentRate() const;
    /// \return the target rate R_T
    DataRate GetTargetRate() const;
    /// \return timer stages since the last CNP
    uint32_t GetTimerStages() const;
    /// \return byte-counter stages since the last CNP
    uint32_t GetByteStages() const;
    /// \return the bytes of one byte stage at this line rate (ByteCounter scaled; 0: none)
    uint64_t GetByteThreshold() const;

  protected:
    void DoStart() override;
    void DoStop() override;

  private:
    /// A CNP arrived.
    void OnCnp();
    /// The alpha timer expired.
    void OnAlphaTimer();
    /// The rate-increase timer expired.
    void OnIncreaseTimer();
    /// One increase event (timer or byte counter).
    void Increase();
    /// \return the scale of RateAi, RateHai and MinRate
    double GetScale() const;
    /// \param bps a rate \return it within [MinRate, line rate]
    double Bound(double bps) const;
    /// Hands the current rate to the sender.
    void Apply();

    // Attributes.
    double m_g;               //!< alpha gain
    double m_initialAlpha;    //!< alpha at the start
    Time m_alphaInterval;     //!< K
    Time m_increaseInterval;  //!< T
    uint64_t m_byteCounter;   //!< B (0: no byte counter)
    uint32_t m_fastRecovery;  //!< F
    DataRate m_rateAi;        //!< R_AI at the reference rate
    DataRate m_rateHai;       //!< R_HAI at the reference rate
    DataRate m_minRate;       //!< the lowest rate at the reference rate
    DataRate m_referenceRate; //!< the line rate the three above are given for

    // State.
    double m_alpha{1};           //!< congestion estimate
    double m_current{0};         //!< R_C, bit/s
    double m_target{0};          //!< R_T, bit/s
    uint32_t m_timerStages{0};   //!< i
    uint32_t m_byteStages{0};    //!< j
    uint64_t m_bytes{0};         //!< bytes counted towards the next byte stage
    uint64_t m_byteThreshold{0}; //!< B scaled to the line rate (0: no byte counter)
    bool m_reacting{false};      //!< a CNP came: the timers run
    EventId m_alphaTimer;        //!< alpha timer
    EventId m_increaseTimer;     //!< rate-increase timer
};

} // namespace ns3

#endif /* DRP_DCQCN_H */
