/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_RTT_ESTIMATOR_H
#define DRP_RTT_ESTIMATOR_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The retransmission timeout of RFC 6298, as DrpTransport's Adaptive
 * timeout mode computes it for one peer.
 *
 * Before the first round-trip sample the timeout is the initial RTO. The
 * first sample R sets SRTT = R and RTTVAR = R / 2; each later sample R'
 * sets RTTVAR = (1 - beta) RTTVAR + beta |SRTT - R'| and then
 * SRTT = (1 - alpha) SRTT + alpha R', with alpha = 1/8 and beta = 1/4
 * (RFC 6298, section 2). The timeout is SRTT + max(G, K x RTTVAR) with K =
 * 4, G the clock granularity, plus the longest time the peer may hold an
 * acknowledgement (ackDelay: its AckDelay when it coalesces, else 0; as
 * RFC 9002, 6.2.1, adds max_ack_delay to its probe timeout), kept within
 * [floor, ceiling]; where the floor exceeds the ceiling, the ceiling wins.
 * The initial RTO gets the ackDelay too. The arithmetic is in integer steps
 * of ns-3's time resolution, each division rounding down (a nanosecond at
 * the default resolution).
 *
 * The estimator keeps no backoff: a timer that expired in a row multiplies
 * the timeout by its own factor (GetBackedOff()), up to the ceiling, as
 * RFC 6298 (5.5) allows ("the maximum value ... may be used to provide an
 * upper bound to this doubling operation"). Karn's rule, which samples are
 * valid, is the caller's (DrpSender takes samples only from frames sent
 * once).
 *
 * The shape follows ns-3's RttMeanDeviation (src/internet), without the
 * internet module: it is drp's own, with RFC 6298's floor, ceiling and
 * granularity in one place.
 */
class DrpRttEstimator
{
  public:
    /// The estimator's parameters.
    struct Config
    {
        Time initial;     //!< the RTO before any sample
        Time floor;       //!< the RTO never falls below this
        Time ceiling;     //!< the RTO, backed off included, never exceeds this
        Time granularity; //!< G: the clock granularity
        /// the longest the peer holds an acknowledgement (0: it acknowledges at once)
        Time ackDelay{0};
    };

    /// \param config initial RTO, floor, ceiling, granularity and the peer's acknowledgement delay
    explicit DrpRttEstimator(const Config& config);

    /**
     * Takes a round-trip sample (RFC 6298, 2.2 and 2.3).
     * \param rtt the time from a frame's (only) transmission to its acknowledgement
     */
    void Sample(Time rtt);
    /// \return the RTO: the initial one before any sample, else SRTT + max(G, 4 RTTVAR); plus
    ///         ackDelay; clamped
    Time GetRto() const;
    /**
     * \param factor the timer's backoff multiplier (1: none)
     * \return factor x the RTO, at most the ceiling
     */
    Time GetBackedOff(uint32_t factor) const;
    /// \return the smoothed round-trip time (0 before any sample)
    Time GetSrtt() const;
    /// \return the round-trip time variation (0 before any sample)
    Time GetRttVar() const;
    /// \return samples taken
    uint64_t GetSamples() const;
    /// \return the parameters
    const Config& GetConfig() const;

  private:
    /**
     * \param rto an RTO
     * \return it within [floor, ceiling] (the ceiling wins)
     */
    Time Clamp(Time rto) const;

    Config m_config;       //!< initial RTO, floor, ceiling, granularity
    int64_t m_srtt{0};     //!< SRTT, in time steps
    int64_t m_rttVar{0};   //!< RTTVAR, in time steps
    uint64_t m_samples{0}; //!< samples taken
};

} // namespace ns3

#endif /* DRP_RTT_ESTIMATOR_H */
