/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECN_MARKING_QUEUE_H
#define ECN_MARKING_QUEUE_H

#include "ns3/callback.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A switch port's egress queue of Ethernet frames that marks
 * Congestion Experienced (CE) on ECN-capable frames by the RED rule of
 * DCQCN and HPCC, and drops only when full.
 *
 * It is a DropTailQueue<Packet> (MaxSize, the same traces) that any
 * EthernetNetDevice takes as its TxQueue: through EthernetHelper::SetQueue,
 * the fabric helpers' uplink helper, or Config. Each frame that leaves
 * (Dequeue) is marked with a probability that depends on the backlog it
 * leaves behind, q, in the unit of the thresholds (bytes or frames):
 *
 * \verbatim
   q <= MinThreshold                 never
   MinThreshold < q < MaxThreshold   MaxProbability x (q - MinThreshold) / (MaxThreshold -
 MinThreshold) q >= MaxThreshold                 always \endverbatim
 *
 * The instantaneous backlog, not RED's moving average: DCQCN's switches
 * mark on it (Zhu et al., SIGCOMM 2015), as HPCC's simulator does.
 *
 * \par Step marking
 * With MarkingMode Step, DCTCP's rule (Alizadeh et al., SIGCOMM 2010): a
 * frame that leaves more than MinThreshold (DCTCP's K) behind is always
 * marked, any other never; MaxThreshold and MaxProbability play no part. It
 * is the RED rule with both thresholds at K and Pmax 1, which is how the
 * DCTCP paper sets up its switches' RED.
 *
 * \par Decided at dequeue
 * As HPCC's simulator does (its switch marks when a packet leaves the
 * egress queue): the mark then tells of the queue as it is when the frame
 * leaves, not as it was when the frame arrived, a queueing delay earlier,
 * so the congestion signal reaches the receiver that much fresher (the
 * argument of Wu et al., "Tuning ECN for data center networks", CoNEXT 2012,
 * for marking at dequeue).
 *
 * \par Which frames are ECN-capable
 * The queue knows Ethernet framing and nothing of the protocols above it:
 * it reads the frame's EtherType and asks that protocol's marker (a
 * function registered with SetMarker()) to mark the frame's payload. IPv4
 * (0x0800) is registered here: its ECN field (RFC 3168) is marked when it
 * is ECT(0) or ECT(1), and its header checksum is recomputed when the
 * header carried a valid one (as a router updates it, RFC 1624: RoCEv2's
 * packets) or Node::ChecksumEnabled(). RnicNetDevice registers DRP's EtherType
 * (DrpHeader's ECN field in STATUS). A frame of any other EtherType, or
 * whose field says Not-ECT, is never marked (it is counted, GetNotCapable(),
 * when it would have been). A marked frame's FCS is computed again when it
 * carried one (a real switch recomputes the FCS of a frame it changes).
 *
 * \par Defaults
 * MinThreshold 4 KB, MaxThreshold 16 KB, MaxProbability 0.2: the public
 * HPCC simulator's configuration (Kmin/Kmax 100/400 KB at 25 Gb/s, 200/800
 * at 50 Gb/s, 400/1600 at 100 Gb/s, Pmax 0.2, its mix/config.txt) is 4 and 16
 * KB per Gb/s; at drp's default 1 Gb/s that is 4 and 16 KB. Scale both
 * thresholds with the port's rate.
 *
 * Left out: RED's averaging and drops (this queue drops only when full),
 * per-class thresholds (one queue per port), and marking at enqueue.
 */
class EcnMarkingQueue : public DropTailQueue<Packet>
{
  public:
    /// How the backlog decides a mark.
    enum MarkingMode
    {
        RED, //!< probability rising from MinThreshold to MaxThreshold (DCQCN, HPCC)
        STEP //!< always above MinThreshold, never at or below it (DCTCP's K)
    };

    /**
     * Marks one protocol's frame: given the payload of an Ethernet frame
     * (the protocol's header first), sets CE if the payload is
     * ECN-capable; returns whether it is (false: left unchanged).
     */
    typedef Callback<bool, Ptr<Packet>> Marker;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    EcnMarkingQueue();
    ~EcnMarkingQueue() override;

    /// \return the next frame, marked CE if the rule says so
    Ptr<Packet> Dequeue() override;

    /**
     * Registers the marker of the protocol whose frames carry \p etherType,
     * for every EcnMarkingQueue (an EtherType names one protocol everywhere).
     * \param etherType the EtherType
     * \param marker its marker; a null callback removes it
     */
    static void SetMarker(uint16_t etherType, Marker marker);

    /**
     * IPv4's marker (RFC 3168: ECT(0) or ECT(1) becomes CE; the header
     * checksum is recomputed when the header carried a valid one or
     * Node::ChecksumEnabled()), registered for
     * EtherType 0x0800 from the start.
     * \param payload an IPv4 packet
     * \return true if ECN-capable (then marked CE)
     */
    static bool MarkIpv4(Ptr<Packet> payload);

    /**
     * \param backlog a backlog, in the thresholds' unit (bytes or frames)
     * \return the probability that a frame leaving it behind is marked
     */
    double GetMarkProbability(uint32_t backlog) const;

    /**
     * \param stream first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return frames marked CE
    uint64_t GetMarks() const;
    /// \return frames the rule picked that were not ECN-capable (left unmarked)
    uint64_t GetNotCapable() const;

  private:
    /// Throws std::invalid_argument, naming the values, unless the thresholds are usable.
    void CheckThresholds() const;
    /**
     * \param frame a whole Ethernet frame
     * \return a copy of it marked CE, or null if it is not ECN-capable
     */
    static Ptr<Packet> Mark(Ptr<const Packet> frame);

    MarkingMode m_mode{RED};                       //!< MarkingMode
    QueueSize m_minThreshold;                      //!< never marks at or below
    QueueSize m_maxThreshold;                      //!< always marks at or above
    double m_maxProbability;                       //!< marking probability just below MaxThreshold
    Ptr<UniformRandomVariable> m_u;                //!< the marking draws
    uint64_t m_marks{0};                           //!< frames marked
    uint64_t m_notCapable{0};                      //!< frames picked but not ECN-capable
    TracedCallback<Ptr<const Packet>> m_markTrace; //!< a frame marked CE (as it leaves)

    NS_LOG_TEMPLATE_DECLARE; //!< this class's log component (the base class has its own)
};

} // namespace ns3

#endif /* ECN_MARKING_QUEUE_H */
