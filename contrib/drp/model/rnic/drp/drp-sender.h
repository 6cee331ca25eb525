/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_SENDER_H
#define DRP_SENDER_H

#include "drp-rtt-estimator.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <boost/container/flat_set.hpp>
#include <cstdint>
#include <vector>

namespace ns3
{

class DrpCongestionOps;
class DrpIntHeader;

/**
 * \ingroup drp
 * \brief The sending half of a transfer's data phase: a fixed window,
 * cumulative acknowledgements, retransmission timeout and fast retransmit.
 *
 * Frames are numbered 0 .. total-1. At most Window frames are unacknowledged
 * at once. An ACKN (the next SN the receiver expects) that advances frees the
 * window and restarts the timer. DupAckThreshold repeats of the same ACKN
 * trigger a fast retransmit of the first unacknowledged frame; until the
 * frames sent before it are acknowledged, each partial acknowledgement
 * retransmits the next hole at once (NewReno-style recovery, so several
 * losses in one window cost one round trip each rather than one timeout
 * each). A timer expiry retransmits the first unacknowledged frame; more than
 * MaxRetries expiries in a row without progress end the data phase with a
 * failure.
 *
 * The timer runs from transmission, as a real transport's does: the owner
 * calls OnSent() when a frame leaves onto the wire (it may wait in the
 * RNIC's transmit scheduler behind other transfers' frames first). The timer
 * guards the first unacknowledged frame: it starts when that frame leaves
 * (again), restarts on every acknowledgement that advances while the new
 * first unacknowledged frame is on the wire, and stops while that frame
 * still waits to leave (its departure starts it). A frame the owner will not
 * send (transmit returns false, or OnUnsent() later) starts it at once, so
 * that the retry limit still applies.
 *
 * A frame is never queued twice: while a copy of it waits in the RNIC (the
 * owner accepted it and it has not left yet), a retransmission of it sends
 * nothing and is not counted; the copy that waits is the retransmission.
 *
 * The timer doubles with each expiry in a row, up to maxBackoff
 * times the timeout, and returns to the timeout on progress: without it,
 * transfers that share a congested switch port would retransmit faster than
 * the port drains (maxBackoff 1: the fixed timer of the published protocol).
 *
 * With an RTT estimator (DrpTransport's Adaptive timeout mode) the timeout
 * is the estimator's RTO instead of the fixed one, backed off the same way
 * but never beyond the estimator's ceiling, and the sender feeds the
 * estimator: it notes when each frame in flight first leaves, and an
 * acknowledgement that advances gives a sample from the newest frame it
 * covers, from that frame's departure to now, once per round trip (the
 * frame must have been sent after the previous sample was taken, as the
 * RFC's constants assume about one sample per round trip). Karn's rule: a
 * frame sent again gives no sample. The backoff ends with the next valid
 * sample, not with progress (Karn's algorithm: the backed-off timer stays
 * until a frame sent once is acknowledged).
 *
 * Congestion control (optional, SetCongestionControl(); the published
 * protocol has none): the sender feeds the transfer's DrpCongestionOps its
 * events (Start, each departure with its bytes, each acknowledgement with
 * the frames it newly acknowledged and its CNP flag, and, for a scheme that
 * asks (TIMELY, HPCC), a round-trip sample per acknowledgement that
 * advances: the sender then notes each frame's first departure, as in
 * Adaptive mode, or, for a scheme that times from the handover (HPCC,
 * whose window must cover the RNIC's own transmit path), the moment it
 * hands the frame to the owner; the sample runs from the newest frame the
 * ACK covers, Karn's rule) and
 * sends at most min(its window, the configured window) frames in flight;
 * its rate goes to the owner's callback. Without it nothing of this runs.
 */
class DrpSender
{
  public:
    /// Configuration of a sender.
    struct Config
    {
        uint32_t window;          //!< frames in flight at most
        Time timeout;             //!< retransmission timeout
        uint32_t maxRetries;      //!< expiries in a row before failing
        uint32_t dupAckThreshold; //!< duplicate ACKs that trigger fast retransmit
        uint32_t maxBackoff;      //!< the timer doubles per expiry in a row, up to this factor
        /// adaptive timeout: the RTO and the samples (null: the fixed timeout)
        DrpRttEstimator* rtt{nullptr};
        /// the time the port has held the data class paused so far (PFC; null: the timer
        /// counts all time, as the published protocol's)
        Callback<Time> pausedTime{};
        /// the least wait of the timer, whatever the timeout and backoff (0: none)
        Time minWait{};
    };

    /**
     * \param total number of frames
     * \param config window and timers
     * \param transmit sends frame SN (first time or again); returns false if
     *        the frame will not leave (then OnSent() is never called for it)
     * \param failed runs once if the retry limit is exceeded
     */
    DrpSender(uint32_t total,
              const Config& config,
              Callback<bool, uint32_t> transmit,
              Callback<void> failed);
    ~DrpSender();

    /// Starts sending (idempotent).
    void Start();
    /// \return true once Start() was called
    bool IsStarted() const;
    /**
     * Handles a cumulative acknowledgement.
     * \param ackn the next SN the receiver expects
     * \param congestion it carried a congestion notification (CNP)
     * \param telemetry the in-band telemetry it echoes (null: none)
     */
    void OnAck(uint32_t ackn, bool congestion = false, const DrpIntHeader* telemetry = nullptr);
    /**
     * Puts the transfer under congestion control (before Start()).
     * \param cc the transfer's own object (a Fork())
     * \param lineRate the port's rate
     * \param frameBytes bytes of a data frame (the byte count per departure)
     * \param applyRate runs with each new rate (0: unpaced)
     */
    void SetCongestionControl(Ptr<DrpCongestionOps> cc,
                              DataRate lineRate,
                              uint32_t frameBytes,
                              Callback<void, DataRate> applyRate);
    /// \return frames in flight at most now (the configured window without congestion control)
    uint32_t GetWindow() const;
    /**
     * A frame left onto the wire: the timer runs from here.
     * \param sn the frame
     */
    void OnSent(uint32_t sn);
    /**
     * A frame the owner accepted will not leave after all: the timer runs
     * from now if it is not running.
     * \param sn the frame
     */
    void OnUnsent(uint32_t sn);
    /// \return true when every frame is acknowledged
    bool IsComplete() const;
    /// \return the next new SN: frames below it have been sent at least once
    uint32_t GetNextSequence() const;
    /// Cancels the timer; the sender does nothing more.
    void Stop();
    /**
     * \param active false: timer expiries retransmit but never end the data
     *        phase (the owner bounds the transfer another way)
     */
    void SetRetryLimitActive(bool active);
    /**
     * \param frames new frames (SN from 0) the sender may send at most until
     *        told otherwise (a larger value sends the frames it held back at
     *        once); UINT32_MAX: no limit, the default
     */
    void SetSendLimit(uint32_t frames);
    /// \return frames sent again
    uint32_t GetRetransmissions() const;
    /// \return timer expiries
    uint32_t GetTimeouts() const;

  private:
    /// Sends new frames while the window allows.
    void Pump();
    /// The congestion control's rate or window changed.
    void OnCongestionOutput();
    /// The timer event: an expiry if the deadline has passed.
    void OnTimer();
    /// Timer expiry.
    void OnTimeout();
    /**
     * Hands a frame to the owner and notes that it waits to leave.
     * \param sn the frame
     * \return false if it will not leave
     */
    bool Transmit(uint32_t sn);
    /**
     * Sends a frame again, unless a copy of it still waits to leave.
     * \param sn the frame
     * \return false if it will not leave
     */
    bool Retransmit(uint32_t sn);
    /// (Re)starts the timer.
    void ArmTimer();
    /// Sets the timer for the first unacknowledged frame after it changed.
    void GuardFirstUnacknowledged();
    /// \return the timer's current wait: the timeout (fixed or estimated) times the backoff
    Time GetTimerWait() const;
    /**
     * Adaptive timeout: a round-trip sample from the newest frame \p ackn
     * covers, if it was sent once and after the previous sample.
     * \param ackn a cumulative acknowledgement that advanced
     */
    void TakeSample(uint32_t ackn);
    /**
     * Congestion control that asks for them: a round-trip sample from the
     * newest frame \p ackn covers, if it was sent once.
     * \param ackn a cumulative acknowledgement that advances
     */
    void GiveSample(uint32_t ackn);
    /**
     * \param sn a frame in flight
     * \return where the congestion control's samples of it start: its handover
     *         (TimesFromHandover()) or its first departure (Time::Min(): sent again)
     */
    Time SampleStart(uint32_t sn);
    /// \return true if the departure of each frame in flight is noted (adaptive timeout, TIMELY)
    bool IsTimingFrames() const;
    /**
     * \param sn a frame in flight
     * \return its first departure (Time::Max(): not yet; Time::Min(): sent again)
     */
    Time& SentAt(uint32_t sn);

    uint32_t m_total;                    //!< frames in the transfer
    Config m_config;                     //!< window and timers
    Callback<bool, uint32_t> m_transmit; //!< sends one frame
    Callback<void> m_failed;             //!< retry limit exceeded
    bool m_started{false};               //!< Start() was called
    bool m_stopped{false};               //!< Stop() was called or failed
    uint32_t m_una{0};                   //!< first unacknowledged SN
    uint32_t m_departed{0};              //!< 1 + the highest frame on the wire
    uint32_t m_next{0};                  //!< next new SN
    uint32_t m_sendLimit{UINT32_MAX};    //!< new SNs below it may be sent (SetSendLimit)
    uint32_t m_dupAcks{0};               //!< repeats of the current ACKN
    bool m_recovering{false};            //!< in fast recovery
    uint32_t m_recover{0};               //!< recovery ends when this SN is acknowledged
    uint32_t m_expiriesInRow{0};         //!< expiries without progress
    uint32_t m_backoff{1};               //!< current timer multiplier
    bool m_limitActive{true};            //!< the retry limit applies
    uint32_t m_retransmissions{0};       //!< frames sent again
    uint32_t m_timeouts{0};              //!< all expiries
    /// Frames with a copy waiting to leave: a sorted vector, since they are
    /// few (at most a window) and leave nearly in order; no allocation per frame.
    boost::container::flat_set<uint32_t> m_waiting;
    EventId m_timer;                      //!< retransmission timer event
    Time m_deadline;                      //!< when the timer expires
    Time m_pausedAtArm;                   //!< pausedTime() when the deadline was last set
    std::vector<Time> m_sentAt;           //!< first departure of each frame in flight (if timed)
    std::vector<Time> m_handedAt;         //!< handover of each frame in flight (HPCC's samples)
    uint32_t m_sampleFrom{0};             //!< adaptive: the next sample from this frame on
    uint32_t m_window;                    //!< frames in flight at most now
    Ptr<DrpCongestionOps> m_cc;           //!< congestion control (null: none)
    DataRate m_lineRate;                  //!< congestion control: the port's rate
    uint32_t m_frameBytes{0};             //!< congestion control: bytes per departure
    Callback<void, DataRate> m_applyRate; //!< congestion control: paces the flow
    bool m_inAck{false};                  //!< congestion control: inside OnAck()
    bool m_ccSamples{false};              //!< congestion control: a sample per ACK
};

} // namespace ns3

#endif /* DRP_SENDER_H */
