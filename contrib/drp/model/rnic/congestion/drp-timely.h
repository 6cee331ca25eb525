/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_TIMELY_H
#define DRP_TIMELY_H

#include "drp-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief TIMELY (Mittal et al., "TIMELY: RTT-based Congestion Control for
 * the Datacenter", SIGCOMM 2015): a rate-based scheme driven by the
 * gradient of the round-trip time; it needs no ECN and no switch support.
 *
 * The sender times every data frame (DrpSender notes each frame's first
 * departure) and every acknowledgement that advances gives a sample: from
 * the departure of the newest frame it acknowledges to its arrival (Karn's
 * rule: a frame sent again gives none). An ACK carries no timestamp: its
 * ACKN names the frame, and the sender kept the time.
 *
 * A completion event, as the paper's, ends a segment: when at least
 * Segment bytes were acknowledged since the previous event and at least
 * MinRtt has passed, the newest sample is new_rtt. The update interval is
 * then max(Segment / rate, MinRtt), tau* of the fluid model in "ECN or
 * Delay" (Zhu et al., CoNEXT 2016). At each event (the paper's Algorithm 1):
 *
 * * new_rtt_diff = new_rtt - prev_rtt; prev_rtt = new_rtt;
 *   rtt_diff = (1 - Alpha) rtt_diff + Alpha new_rtt_diff;
 *   gradient = rtt_diff / MinRtt;
 * * new_rtt < TLow: rate += delta;
 * * new_rtt > THigh: rate *= 1 - Beta (1 - THigh / new_rtt);
 * * gradient <= 0: rate += N delta, where N is 1 until HaiThreshold (5)
 *   such events came in a row and HaiThreshold from then on (the paper's
 *   hyper additive increase, N = 5);
 * * otherwise: rate *= 1 - Beta gradient.
 *
 * The first event only records prev_rtt (a gradient needs two). The rate
 * starts at the line rate and stays within [MinRate, line rate]; the window
 * is the configured one (TIMELY paces; it has no window).
 *
 * delta (AdditiveStep) and MinRate are given for ReferenceRate, the
 * paper's 10 Gb/s NICs, and scale by line rate / ReferenceRate as DCQCN's
 * steps do (0: as given): 40 Mb/s per step at 40 Gb/s.
 *
 * Known property, reproduced by drp-figures cc-validation: wherever
 * TLow < RTT < THigh, any split of the line with a steady queue has a zero
 * gradient, so flows keep whatever unequal rates they reached (TIMELY has
 * no unique fixed point, "ECN or Delay", section 4).
 *
 * Left out: the NIC's per-segment timestamps (here, per frame: the sample
 * includes the one frame's serialisation, not the segment's) and the
 * paper's per-QP pacing engine granularity.
 */
class DrpTimely : public DrpCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DrpTimely();
    /// \param other the object copied (attributes only)
    DrpTimely(const DrpTimely& other);
    ~DrpTimely() override;

    std::string GetName() const override;
    Ptr<DrpCongestionOps> Fork() const override;
    bool NeedsRttSamples() const override;
    void OnSent(uint32_t bytes) override;
    void OnAck(uint32_t acked, bool congestion) override;
    void OnRttSample(Time rtt) override;

    /// \return the current rate
    DataRate GetCurrentRate() const;
    /// \return the normalised gradient, rtt_diff / MinRtt (0 before the second event)
    double GetGradient() const;
    /// \return the RTT of the last completion event (prev_rtt; 0: none yet)
    Time GetPreviousRtt() const;
    /// \return completion events with a non-positive gradient in a row
    uint32_t GetNegativeGradients() const;
    /// \return completion events so far
    uint32_t GetCompletions() const;

  protected:
    void DoStart() override;

  private:
    /// \param rtt the new_rtt of a completion event
    void Complete(Time rtt);
    /// \return the scale of AdditiveStep and MinRate
    double GetScale() const;
    /// \param bps a rate \return it within [MinRate, line rate]
    double Bound(double bps) const;

    // Attributes.
    double m_alpha;           //!< EWMA weight of the RTT difference
    double m_beta;            //!< multiplicative decrease factor
    DataRate m_step;          //!< delta at the reference rate
    uint32_t m_haiThreshold;  //!< N: events with gradient <= 0 in a row for hyper increase
    Time m_tLow;              //!< below: additive increase
    Time m_tHigh;             //!< above: decrease by THigh / RTT
    Time m_minRtt;            //!< the gradient's normalisation and the least update interval
    uint32_t m_segment;       //!< bytes acknowledged per completion event at least
    DataRate m_minRate;       //!< the lowest rate at the reference rate
    DataRate m_referenceRate; //!< the line rate AdditiveStep and MinRate are given for

    // State.
    double m_rate{0};                //!< the current rate, bit/s
    double m_rttDiff{0};             //!< smoothed RTT difference, seconds
    Time m_prevRtt;                  //!< new_rtt of the previous event (0: none yet)
    uint32_t m_negativeGradients{0}; //!< events with gradient <= 0 in a row
    uint32_t m_completions{0};       //!< completion events
    uint32_t m_frameBytes{0};        //!< bytes of a data frame (OnSent)
    uint64_t m_ackedBytes{0};        //!< bytes acknowledged since the last event
    Time m_lastEvent;                //!< when the last event was
};

} // namespace ns3

#endif /* DRP_TIMELY_H */
