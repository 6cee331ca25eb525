/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_DCTCP_H
#define DRP_DCTCP_H

#include "drp-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup drp
 * \brief DCTCP (Alizadeh et al., "Data Center TCP", SIGCOMM 2010) on DRP's
 * frame window, with the window growth of the TCP it runs on (RFC 5681).
 *
 * The window W (frames) starts at InitialWindow (10: RFC 6928's initial
 * window, which Linux and ns-3's TcpSocket use) and grows as TCP's does:
 * by one frame per frame acknowledged below the slow-start threshold (slow
 * start), by 1/W per frame above it (one frame per round trip). A DCTCP
 * window never floods the path at the start: with Window 1024, the first
 * round trip sends 10 frames, not 1024.
 *
 * Once per window of data (one round trip: when every frame that had been
 * sent when the previous window ended is acknowledged, as Linux's
 * dctcp_update_alpha does with snd_nxt), alpha = (1 - g) alpha + g F, F the
 * fraction of the window's frames whose acknowledgement carried the echo.
 * An echo cuts the window at most once per window of data: W = ssthresh =
 * max(1, W (1 - alpha/2)), after which W does not grow until the frames
 * sent before the cut are acknowledged (TCP's CWR state). W stays within
 * [1, configured Window].
 *
 * The frames are paced (Pacing, on by default) at PacingRatio (1.2) times
 * W / srtt, SlowStartPacingRatio (2) below the slow-start threshold, srtt
 * the RFC 6298 average of the sender's round-trip samples: Linux's
 * tcp_update_pacing_rate, and what an RNIC's per-queue-pair rate limiter
 * does. Why it matters: without pacing, flows that share a FIFO and are
 * clocked by their acknowledgements keep their frames in runs that recur
 * every round trip in the same order, so the frames a window's growth
 * pushes above K are mostly the growing flow's own; each flow answers its
 * own marks, nothing moves the flows towards equal windows, and two flows
 * at 10 Gb/s with K = 65 split 8.7 / 1.3 Gb/s. Paced frames interleave and
 * every flow sees the marks in proportion to its frames, as DCTCP's
 * analysis assumes (the module documentation, "DCTCP", has the figures).
 *
 * DCTCP needs an echo per marked frame: DCQCN's notification point sends
 * at most one CNP per CnpInterval (50 us). Set DrpTransport's CnpInterval
 * to 0 with this scheme (FabricScenario's cc=dctcp does): every CE frame
 * then makes the next ACK carry the echo. Its switches mark by a step at K
 * (EcnMarkingQueue's MarkingMode Step).
 *
 * Left out: the reaction to loss (the sender's retransmission is
 * unchanged: a timeout does not reset W), delayed ACKs' effect on growth
 * (each ACK counts the frames it acknowledges), TCP's proportional rate
 * reduction during CWR (the cut is applied at once).
 */
class DrpDctcp : public DrpCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DrpDctcp();
    /// \param other the object copied (attributes only)
    DrpDctcp(const DrpDctcp& other);
    ~DrpDctcp() override;

    std::string GetName() const override;
    Ptr<DrpCongestionOps> Fork() const override;
    void OnSent(uint32_t bytes) override;
    void OnAck(uint32_t acked, bool congestion) override;
    void OnRttSample(Time rtt) override;
    bool NeedsRttSamples() const override;

    /// \return alpha
    double GetAlpha() const;
    /// \return the window, frames (fractional)
    double GetCongestionWindow() const;
    /// \return the slow-start threshold, frames
    double GetSlowStartThreshold() const;

  protected:
    void DoStart() override;

  private:
    /// A window of data ended: alpha from its fraction of marked frames.
    void UpdateAlpha();
    /**
     * \param acked frames newly acknowledged
     * \param congestion the acknowledgement carried the echo
     */
    void UpdateWindow(uint32_t acked, bool congestion);
    /// Hand the window, and the pacing rate from it, to the sender.
    void Apply();

    double m_g;               //!< attribute: alpha gain
    double m_initialAlpha;    //!< attribute: alpha at the start
    uint32_t m_initialWindow; //!< attribute: the window at the start, frames
    bool m_pacing;            //!< attribute: pace at a ratio of W / srtt
    double m_pacingRatio;     //!< attribute: the ratio above the slow-start threshold
    double m_slowStartRatio;  //!< attribute: the ratio below it
    Time m_srtt;              //!< smoothed round trip (zero until the first sample)
    uint32_t m_frameBytes{0}; //!< wire bytes of the last data frame sent
    double m_alpha{1};        //!< congestion estimate
    double m_cwnd{1};         //!< window, frames
    double m_ssthresh{1};     //!< slow-start threshold, frames
    uint32_t m_windowEnd{0};  //!< the window of data ends when this frame is acknowledged
    uint32_t m_cwrEnd{0};     //!< no cut, no growth until this frame is acknowledged
    uint32_t m_acked{0};      //!< frames acknowledged in this window of data
    uint32_t m_marked{0};     //!< of them, acknowledged by an ACK with the echo
};

} // namespace ns3

#endif /* DRP_DCTCP_H */
