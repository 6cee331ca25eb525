/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_RATE_RECORDER_H
#define FLOW_RATE_RECORDER_H

#include "ns3/drp-transfer-record.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

class RnicNetDevice;

/**
 * \ingroup drp
 * \brief Counts what each write transfer sends, interval by interval: the
 * per-flow sending rate over time that congestion-control studies plot.
 *
 * Connected to the "Tx" trace of every RNIC's DrpTransport, it adds each
 * data frame of a write (re-sends included: what the sender puts on the
 * wire, not what arrives) to the interval [k T, (k + 1) T) in which the
 * RNIC took it for the wire. A transfer is told apart by its host, its TID
 * and how many transfers of that host had the TID before it (the
 * "InitiatorState" trace marks each start), so a TID used again later in
 * the run counts for the right transfer.
 *
 * GetSamples() gives, for each transfer, every interval from the one of
 * its first data frame to the one of its last, those in which it sent
 * nothing included (as 0): a rate series with no gaps to misread.
 */
class FlowRateRecorder
{
  public:
    /// What one transfer sent in one interval.
    struct Sample
    {
        Time time;             //!< the interval's start, k x interval
        uint32_t transfer{0};  //!< the transfer's position in GetSamples()' list
        uint64_t bytes{0};     //!< payload bytes of its data frames, re-sends included
        uint64_t wireBytes{0}; //!< their bytes on the wire (EthernetNetDevice::GetWireSize)

        /**
         * \param interval the interval's length
         * \return the wire bytes' rate, bit/s (comparable with the links' rates)
         */
        double GetWireRate(Time interval) const;
    };

    /// A transfer to give samples of: its host (as Connect() names it) and its record.
    using Transfer = std::pair<uint32_t, const DrpTransferRecord*>;

    /// \param interval the length of an interval (above 0)
    explicit FlowRateRecorder(Time interval);

    /**
     * Counts the data frames of the writes this RNIC initiates (the object
     * must outlive the simulation).
     * \param host the host's index, as the samples name it
     * \param rnic its RNIC
     */
    void Connect(uint32_t host, Ptr<RnicNetDevice> rnic);

    /**
     * \param transfers the transfers, as their applications recorded them
     * \return every transfer's intervals, in time order, then in the order
     *         of \p transfers (Sample::transfer: the position there)
     */
    std::vector<Sample> GetSamples(const std::vector<Transfer>& transfers) const;

  private:
    /// One transfer's counts from its first interval on.
    struct Series
    {
        int64_t first{-1};               //!< the first interval's number (-1: none yet)
        std::vector<uint64_t> bytes;     //!< payload bytes by interval
        std::vector<uint64_t> wireBytes; //!< wire bytes by interval
    };

    /// host, TID and how many transfers of the host had that TID before
    using Key = std::tuple<uint32_t, uint16_t, uint32_t>;

    /// A transfer of \p host left CLOSED: the next frames of \p tid are a new one's.
    void OnStart(uint32_t host, uint16_t tid);
    /// \p rnic of \p host sent \p packet.
    void OnTx(uint32_t host, const RnicNetDevice* rnic, Ptr<const Packet> packet);

    Time m_interval; //!< T
    std::map<std::pair<uint32_t, uint16_t>, uint32_t>
        m_starts;                   //!< transfers begun per host and TID
    std::map<Key, Series> m_series; //!< what each transfer sent
};

} // namespace ns3

#endif /* FLOW_RATE_RECORDER_H */
