/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_TIMEOUTS_H
#define DRP_TIMEOUTS_H

#include "drp-rtt-estimator.h"

#include "ns3/mac-address-hash.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup drp
 * \brief How long a DRP RNIC's timers wait: the handshake, data, release
 * and read-progress timers of its connections, their backoff, the retry
 * limit, and how long a responder keeps a transfer it hears nothing of.
 *
 * The data-phase timers (data, release, read progress) double with each
 * expiry in a row, up to MaxBackoff times, so that transfers sharing a
 * congested switch port do not retransmit faster than it drains.
 *
 * DrpTransport's TimeoutMode chooses where the timeouts come from. Fixed
 * (the default, the published protocol): RetransmissionTimeout for the data
 * phase and the release, HandshakeTimeout for the handshake. Adaptive: RFC
 * 6298's RTO, estimated per peer (DrpRttEstimator) from round-trip samples
 * of data frames sent once (Karn), RetransmissionTimeout before the first
 * sample, within [MinRto, MaxRto]. The estimate is kept per peer, as an RNIC
 * keeps it per queue pair (one QP carries every message between two hosts):
 * a new transfer to a peer starts from the peer's last estimate, and
 * concurrent transfers to one peer feed and read the same estimate; each
 * timer keeps its own backoff (MaxBackoff, never beyond MaxRto). The data,
 * release and read-progress timers wait the backed-off RTO; the handshake
 * timers (the request, a read's confirmation) wait the backed-off RTO plus
 * HandshakeTimeout, which then stands for the host's part of the exchange
 * (the responder host's registration, or the initiator host's handling of a
 * read's reply): that part is the host's, not the path's, so no round trip
 * measures it, and a handshake exchange gives no sample.
 *
 * Transfers never hang: each phase has a retry limit (MaxRetries), after
 * which the initiator ends the transfer with an error status; a responder
 * that hears nothing of a transfer for the idle time (MaxRetries + 2 times
 * the longest wait of any timer: in the Fixed mode the longer of
 * HandshakeTimeout and MaxBackoff x RetransmissionTimeout, in the Adaptive
 * mode HandshakeTimeout + MaxRto) drops it and tells its host.
 */
class DrpTimeouts
{
  public:
    /// The settings: DrpTransport's attributes of the same names.
    struct Config
    {
        Time handshake{MicroSeconds(1500)};     //!< HandshakeTimeout
        Time retransmission{MicroSeconds(120)}; //!< RetransmissionTimeout
        uint32_t maxRetries{16};                //!< MaxRetries
        uint32_t maxBackoff{64};                //!< MaxBackoff
        bool adaptive{false};                   //!< TimeoutMode Adaptive
        Time minRto{MicroSeconds(50)};          //!< MinRto
        Time maxRto{MilliSeconds(10)};          //!< MaxRto
        Time granularity{MicroSeconds(10)};     //!< ClockGranularity
    };

    /// \return the settings, to change
    Config& GetConfig();
    /// \return the settings
    const Config& GetConfig() const;

    /// \return how long a responder keeps a record it hears nothing of
    Time GetIdleTime() const;
    /**
     * \param expiries a timer's expiries in a row so far
     * \return 2^expiries, at most MaxBackoff
     */
    uint32_t BackoffFactor(uint32_t expiries) const;
    /**
     * \param timeout a data-phase timer
     * \param expiries its expiries in a row so far
     * \return the timer doubled per expiry, at most MaxBackoff times
     */
    Time BackedOff(Time timeout, uint32_t expiries) const;
    /**
     * The wait of a data-phase timer (data, release, read progress).
     * \param rtt the peer's round-trip estimate (null: Fixed mode)
     * \param expiries the timer's expiries in a row so far
     * \return Fixed: RetransmissionTimeout backed off (BackedOff()); Adaptive:
     *         the peer's RTO backed off likewise, at most MaxRto
     */
    Time GetDataWait(const DrpRttEstimator* rtt, uint32_t expiries) const;
    /**
     * The wait of a handshake timer (request, read confirmation).
     * \param rtt the peer's round-trip estimate (null: Fixed mode)
     * \param expiries the timer's expiries in a row so far
     * \return Fixed: HandshakeTimeout; Adaptive: HandshakeTimeout (the host's
     *         allowance) plus GetDataWait()
     */
    Time GetHandshakeWait(const DrpRttEstimator* rtt, uint32_t expiries) const;
    /**
     * A connection takes it when it opens, and keeps it: the estimates
     * live until ForgetEstimates().
     * \param peer a peer
     * \param ackDelay how long the peer may hold an acknowledgement
     *        (coalescing), which the timeout must allow
     * \return its round-trip estimate, made on first use (Adaptive mode), or
     *         null (Fixed mode)
     */
    DrpRttEstimator* GetRttEstimator(Mac48Address peer, Time ackDelay);
    /// \param peer a peer \return its round-trip estimate, or null if none was made
    const DrpRttEstimator* GetRttEstimate(Mac48Address peer) const;
    /// Forgets every estimate (no connection may hold one any more).
    void ForgetEstimates();

  private:
    Config m_config; //!< the settings
    std::unordered_map<Mac48Address, DrpRttEstimator, MacAddressHash>
        m_rtt; //!< adaptive: round-trip estimate per peer
};

} // namespace ns3

#endif /* DRP_TIMEOUTS_H */
