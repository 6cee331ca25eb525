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
 * each call. The cache returns exactly what DataRate returns.
 *
 * The times depend on the rate and the size alone, so every cache of one
 * rate reads one table, shared by the process (the hundreds of ports of a
 * large fabric then read the same few cache lines instead of one table
 * each, which a larger fabric's working set pushed out of the processor's
 * caches). A cache whose rate changes moves to that rate's table. Tables are
 * kept until the process exits (a few kilobytes per rate used).
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
        if (rate.GetBitRate() != m_bitRate || !m_table)
        {
            m_bitRate = rate.GetBitRate();
            m_table = &GetTable(m_bitRate);
        }
        // Frames and most bus transfers: an index, not a hash lookup (this
        // runs several times per frame and hop).
        if (bytes < SMALL)
        {
            std::vector<Time>& small = m_table->small;
            if (bytes >= small.size())
            {
                small.resize(bytes + 1, Time(-1));
            }
            Time& time = small[bytes];
            if (time.IsStrictlyNegative())
            {
                time = rate.CalculateBytesTxTime(bytes);
            }
            return time;
        }
        auto [it, inserted] = m_table->large.try_emplace(bytes);
        if (inserted)
        {
            it->second = rate.CalculateBytesTxTime(bytes);
        }
        return it->second;
    }

  private:
    /// Sizes below this are kept in Table::small.
    static constexpr uint32_t SMALL = 4097;

    /// The times of one rate.
    struct Table
    {
        std::vector<Time> small;                  //!< time per small size (negative: not known)
        std::unordered_map<uint32_t, Time> large; //!< time per larger size
    };

    /**
     * \param bitRate a rate, bits per second
     * \return the process's table of that rate (its address never changes)
     */
    static Table& GetTable(uint64_t bitRate)
    {
        static std::unordered_map<uint64_t, Table> tables; // nodes: stable addresses
        return tables[bitRate];
    }

    uint64_t m_bitRate{0};   //!< the rate m_table is for
    Table* m_table{nullptr}; //!< that rate's table
};

} // namespace ns3

#endif /* TX_TIME_CACHE_H */
