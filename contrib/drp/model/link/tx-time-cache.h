/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TX_TIME_CACHE_H
#define TX_TIME_CACHE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief Remembers DataRate::CalculateBytesTxTime() per size.
 *
 * A link or bus moves frames of a handful of sizes millions of times; the
 * conversion from a double number of seconds to Time is the costly part of
 * each call. The cache returns exactly what DataRate returns, and forgets
 * everything when the rate changes.
 */
class TxTimeCache
{
  public:
    /**
     * \param rate the rate
     * \param bytes the size
     * \return rate.CalculateBytesTxTime(bytes)
     */
    Time Get(const DataRate& rate, uint32_t bytes)
    {
        if (rate.GetBitRate() != m_bitRate)
        {
            m_small.clear();
            m_times.clear();
            m_bitRate = rate.GetBitRate();
        }
        // Frames and most bus transfers: an index, not a hash lookup (this
        // runs several times per frame and hop).
        if (bytes < SMALL)
        {
            if (bytes >= m_small.size())
            {
                m_small.resize(bytes + 1, Time(-1));
            }
            Time& time = m_small[bytes];
            if (time.IsStrictlyNegative())
            {
                time = rate.CalculateBytesTxTime(bytes);
            }
            return time;
        }
        auto [it, inserted] = m_times.try_emplace(bytes);
        if (inserted)
        {
            it->second = rate.CalculateBytesTxTime(bytes);
        }
        return it->second;
    }

  private:
    /// Sizes below this are kept in m_small.
    static constexpr uint32_t SMALL = 4097;
    uint64_t m_bitRate{0};                      //!< the rate the entries are for
    std::vector<Time> m_small;                  //!< time per small size (negative: not known)
    std::unordered_map<uint32_t, Time> m_times; //!< time per larger size
};

} // namespace ns3

#endif /* TX_TIME_CACHE_H */
