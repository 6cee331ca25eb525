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
 * \brief A DCTCP-style window (Alizadeh et al., "Data Center TCP",
 * SIGCOMM 2010) on DRP's frame window.
 *
 * The window W (frames) starts at the configured Window. ACKs are counted
 * in observation windows of W frames acknowledged. At the end of each:
 * F = marked / acknowledged frames (a frame counts as marked when the ACK
 * that acknowledged it carried the echo); alpha = (1 - g) alpha + g F;
 * then W = W (1 - alpha/2) if any frame was marked (once per window), else
 * W + 1 (additive increase, one frame per window). W stays within
 * [1, configured Window]. The rate is never paced (the window limits).
 *
 * DCTCP needs an echo per marked frame: DCQCN's notification point sends
 * at most one CNP per CnpInterval (50 us). Set DrpTransport's CnpInterval
 * to 0 with this scheme (FabricScenario's cc=dctcp does): every CE frame
 * then makes the next ACK carry the echo.
 *
 * Left out: slow start (the window starts full, as DRP's fixed window
 * does) and the reaction to loss (the sender's retransmission is unchanged).
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
    void OnAck(uint32_t acked, bool congestion) override;

    /// \return alpha
    double GetAlpha() const;
    /// \return the window, frames (fractional)
    double GetCongestionWindow() const;

  protected:
    void DoStart() override;

  private:
    /// The observation window ended: alpha, then cut or grow.
    void EndObservation();

    double m_g;            //!< attribute: alpha gain
    double m_initialAlpha; //!< attribute: alpha at the start
    double m_alpha{1};     //!< congestion estimate
    double m_cwnd{1};      //!< window, frames
    uint32_t m_acked{0};   //!< frames acknowledged in this observation window
    uint32_t m_marked{0};  //!< of them, acknowledged by an ACK with the echo
};

} // namespace ns3

#endif /* DRP_DCTCP_H */
