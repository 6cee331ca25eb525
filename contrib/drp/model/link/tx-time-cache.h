/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TX_TIME_CACHE_H
#define TX_TIME_CACHE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <unordered_map>

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
            m_times.clear();
            m_bitRate = rate.GetBitRate();
        }
        auto [it, inserted] = m_times.try_emplace(bytes);
        if (inserted)
        {
            it->second = rate.CalculateBytesTxTime(bytes);
        }
        return it->second;
    }

  private:
    uint64_t m_bitRate{0};                      //!< the rate the entries are for
    std::unordered_map<uint32_t, Time> m_times; //!< time per size
};

} // namespace ns3

#endif /* TX_TIME_CACHE_H */
