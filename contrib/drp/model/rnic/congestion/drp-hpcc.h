/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_HPCC_H
#define DRP_HPCC_H

#include "drp-congestion-ops.h"

#include "ns3/drp-int-header.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief HPCC (Li et al., "HPCC: High Precision Congestion Control",
 * SIGCOMM 2019): the sender's window from the utilisation of the most
 * loaded link on its path, measured by in-band telemetry.
 *
 * The transfer's data frames carry the INT extension (DrpIntHeader); each
 * switch port with InbandTelemetry appends a hop (its line rate B, the
 * time, the bytes it had sent, its queue); the receiver echoes the hops in
 * the acknowledgement of that frame (DrpReceiver::EchoTelemetryOf()). On
 * each acknowledgement with telemetry, for each hop
 * j against the previous acknowledgement's stamp of it (the paper's
 * Algorithm 1, MeasureInflight):
 *
 *   txRate_j = (bytes_j - bytes_j') / (ts_j - ts_j')
 *   u_j = min(qlen_j, qlen_j') / (B_j T) + txRate_j / B_j
 *
 * u is the largest u_j and tau its time delta (at most T); the utilisation
 * estimate is U = (1 - tau / T) U + (tau / T) u. Then (ComputeWind, in its
 * rate form R = W / T, as HPCC's simulator runs it):
 *
 * * U >= eta (TargetUtilization) or incStage >= MaxStage: R = R_c / (U /
 *   eta) + R_AI, incStage = 0 (multiplicative decrease, or the periodic
 *   multiplicative increase towards eta);
 * * otherwise R = R_c + R_AI, incStage + 1 (additive increase).
 *
 * The reference rate R_c and incStage change once per round trip: when the
 * acknowledgement covers the frame that was next to leave on the wire when
 * they last changed (HPCC's simulator's snd_nxt; GetDeparted(), not the
 * frames handed to the RNIC, which run ahead of the pacer);
 * acknowledgements in between compute R from R_c and pace by it at once
 * (HPCC's fast reaction). R stays within [MinRate, line rate]; the window
 * is R x T in frames (at least 1, at most the configured Window), and the
 * sender paces at R.
 *
 * T is the base round trip: BaseRtt, or, with BaseRtt 0, the least RTT this
 * transfer has measured, which is the path's base RTT once a frame crosses
 * an empty queue. The sender times each frame from its handover to the
 * RNIC (TimesFromHandover()): the window counts the frames from there, so
 * T must cover the RNIC's payload read too, or R x T would hold the flow
 * below R (HPCC's simulator models no such read). Until the first sample
 * the transfer sends at the line rate with the configured window. The
 * first acknowledgement with telemetry only records the hops (a rate needs
 * two stamps).
 *
 * R_AI (RateAi) is given for ReferenceRate and scales with the line rate
 * (10 Mb/s at 25 Gb/s: HPCC's simulator's run.py, W_AI = R_AI x T).
 */
class DrpHpcc : public DrpCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DrpHpcc();
    /// \param other the object copied (attributes only)
    DrpHpcc(const DrpHpcc& other);
    ~DrpHpcc() override;

    std::string GetName() const override;
    Ptr<DrpCongestionOps> Fork() const override;
    bool NeedsRttSamples() const override;
    bool TimesFromHandover() const override;
    bool NeedsTelemetry() const override;
    void OnSent(uint32_t bytes) override;
    void OnTelemetry(const DrpIntHeader& telemetry) override;
    void OnRttSample(Time rtt) override;

    /// \return the utilisation estimate U
    double GetUtilization() const;
    /// \return the reference rate R_c
    DataRate GetReferenceRate() const;
    /// \return the rate in use (R)
    DataRate GetCurrentRate() const;
    /// \return additive-increase stages since the last multiplicative change
    uint32_t GetIncreaseStage() const;
    /// \return T, the base RTT in use (0: not known yet)
    Time GetBaseRtt() const;

  protected:
    void DoStart() override;

  private:
    /**
     * \param telemetry an acknowledgement's hops, against the stored ones
     * \return the largest u_j, and its time delta (ns) in \p tauNs
     */
    double MeasureLoad(const DrpIntHeader& telemetry, uint64_t& tauNs) const;
    /// Sets the outputs for rate m_rate: pace at it, window R x T.
    void Apply();

    // Attributes.
    double m_eta;             //!< TargetUtilization
    uint32_t m_maxStage;      //!< MaxStage
    DataRate m_rateAi;        //!< R_AI at the reference rate
    DataRate m_minRate;       //!< the lowest rate
    DataRate m_referenceRate; //!< the line rate RateAi is given for
    Time m_baseRttAttribute;  //!< BaseRtt (0: learned)
    bool m_fastReact;         //!< react on every ACK, not once per RTT

    // State.
    Time m_baseRtt;           //!< T in use (0: unknown)
    double m_u{0};            //!< U
    double m_referenceBps{0}; //!< R_c, bit/s
    double m_rate{0};         //!< R, bit/s
    uint32_t m_incStage{0};   //!< incStage
    uint32_t m_lastUpdate{0}; //!< R_c changes when the ACK passes this frame
    bool m_haveHops{false};   //!< m_hops holds an acknowledgement's stamps
    DrpIntHeader m_hops;      //!< the previous acknowledgement's stamps
    uint32_t m_frameBytes{0}; //!< bytes of a data frame (OnSent)
};

} // namespace ns3

#endif /* DRP_HPCC_H */
