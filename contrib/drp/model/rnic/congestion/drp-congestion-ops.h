/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_CONGESTION_OPS_H
#define DRP_CONGESTION_OPS_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

class DrpIntHeader;

/**
 * \ingroup drp
 * \brief Rate control of one transfer's data sender, in the manner of
 * ns-3's TcpCongestionOps; this base class is "no congestion control".
 *
 * DrpTransport's CongestionControl attribute names the class (a TypeId).
 * The transport makes one object of it (with the attributes' defaults, see
 * Config::SetDefault) and gives the data sender of each transfer (the
 * initiator of a write, the responder of a read) a Fork(): a fresh copy with
 * the same attributes and no state. With the base class itself the transport
 * makes no object at all: no allocation, event or call per frame, the
 * published protocol.
 *
 * Events in (from the transfer's DrpSender):
 * * Start(): the data phase starts, with the port's line rate and the
 *   configured window (DrpTransport's Window);
 * * OnSent(): a data frame left onto the wire (first time or again), with
 *   its bytes;
 * * OnAck(): an acknowledgement arrived, with the frames it newly
 *   acknowledged (0 for a repeat) and whether it carried a congestion
 *   notification (CNP; with CnpInterval 0 it is the echo of every CE mark);
 * * OnRttSample(): a round-trip sample per acknowledgement that advances,
 *   from the newest frame it acknowledges (Karn's rule: none from a frame
 *   sent again), given only to a scheme whose NeedsRttSamples() is true
 *   (the sender then times every frame, from its departure onto the wire
 *   or, if TimesFromHandover(), from its handover; see DrpSender);
 * * OnTelemetry(): the in-band telemetry an acknowledgement echoes, given
 *   only to a scheme whose NeedsTelemetry() is true (HPCC): its data
 *   frames then carry the INT extension that switch ports stamp.
 * * timers of its own (Simulator events), removed by Stop().
 *
 * Outputs: GetRate() (the pacing rate; 0 is the line rate, unpaced) and
 * GetWindow() (frames in flight at most; the sender uses the smaller of it
 * and the configured Window). A subclass sets them with SetOutputs(), which
 * runs the owner's callback when either changes; the transfer's sender then
 * applies the window at once and the rate through
 * DrpTransport::SetFlowRate() (traced as the transport's "Rate").
 */
class DrpCongestionOps : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DrpCongestionOps();
    /// \param other the object copied (attributes; the state is reset by Start())
    DrpCongestionOps(const DrpCongestionOps& other);
    ~DrpCongestionOps() override;

    /// \return the scheme's name ("none" for this class)
    virtual std::string GetName() const;
    /// \return a fresh copy with the same attributes, for one transfer
    virtual Ptr<DrpCongestionOps> Fork() const;

    /// \param changed runs when the rate or the window changed
    void SetOutputCallback(Callback<void> changed);
    /**
     * The data phase starts.
     * \param lineRate the port's line rate
     * \param window the configured window (frames)
     */
    void Start(DataRate lineRate, uint32_t window);
    /// The transfer ends: its timers are removed (Simulator::Remove).
    void Stop();

    /// \param bytes a data frame of this many bytes left onto the wire
    virtual void OnSent(uint32_t bytes);
    /**
     * \param acked frames newly acknowledged (0: a repeated ACKN)
     * \param congestion the ACK carried a congestion notification (CNP)
     */
    virtual void OnAck(uint32_t acked, bool congestion);
    /// \param rtt a round-trip sample (only if NeedsRttSamples())
    virtual void OnRttSample(Time rtt);
    /// \return true if the scheme takes a round-trip sample per acknowledgement (TIMELY, HPCC)
    virtual bool NeedsRttSamples() const;
    /**
     * \return true if its samples run from the frame's handover to the RNIC
     *         (the sender's whole loop, the RNIC's payload read included),
     *         false (the default) from its departure onto the wire
     */
    virtual bool TimesFromHandover() const;
    /**
     * \return true if the scheme reads in-band telemetry (HPCC): the
     *         transfer's data frames then carry the INT extension
     *         (DrpIntHeader), switch ports with InbandTelemetry stamp it and
     *         the receiver echoes it in its acknowledgements
     */
    virtual bool NeedsTelemetry() const;
    /**
     * An acknowledgement carried telemetry (before its OnAck(), after
     * SetSequence()).
     * \param telemetry the hops of the data frame it echoes
     */
    virtual void OnTelemetry(const DrpIntHeader& telemetry);
    /**
     * The sender's sequence state, set by the sender before each OnSent()
     * and OnAck() (what schemes that act once per window of data need).
     * \param una the first frame not yet acknowledged (after the ACK, in OnAck())
     * \param departed 1 + the highest frame that has left on the wire: frames
     *        leave the port after the pacer, so this lags \p next
     * \param next the next new frame to send (handed to the RNIC's transmit path)
     */
    void SetSequence(uint32_t una, uint32_t departed, uint32_t next);
    /// \return 1 + the highest frame that has left on the wire (SetSequence())
    uint32_t GetDeparted() const;

    /// \return the pacing rate (0: the line rate, unpaced)
    DataRate GetRate() const;
    /// \return frames in flight at most
    uint32_t GetWindow() const;
    /// \return the line rate given to Start()
    DataRate GetLineRate() const;
    /// \return the configured window given to Start()
    uint32_t GetMaxWindow() const;
    /// \return the first frame not yet acknowledged (SetSequence())
    uint32_t GetUna() const;
    /// \return the next new frame the sender sends (SetSequence())
    uint32_t GetNextSequence() const;

  protected:
    /// Start(): the subclass sets its state (the outputs are line rate and the window).
    virtual void DoStart();
    /// Stop(): the subclass removes its timers.
    virtual void DoStop();
    /**
     * Sets the outputs and runs the owner's callback if either changed.
     * \param rate the rate (at or above the line rate: unpaced)
     * \param window frames in flight at most (at least 1, at most the configured window)
     */
    void SetOutputs(DataRate rate, uint32_t window);

  private:
    DataRate m_lineRate;      //!< the port's rate
    uint32_t m_maxWindow{1};  //!< the configured window
    uint32_t m_una{0};        //!< the sender's first unacknowledged frame
    uint32_t m_departed{0};   //!< 1 + the highest frame on the wire
    uint32_t m_next{0};       //!< the sender's next new frame
    DataRate m_rate;          //!< output: pacing rate (0: unpaced)
    uint32_t m_window{1};     //!< output: window
    Callback<void> m_changed; //!< the owner applies the outputs
};

} // namespace ns3

#endif /* DRP_CONGESTION_OPS_H */
