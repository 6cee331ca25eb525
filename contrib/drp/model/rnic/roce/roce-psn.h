/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_PSN_H
#define ROCE_PSN_H

#include <cstdint>

namespace ns3
{
namespace roce
{

/// PSNs are 24 bits and wrap.
constexpr uint32_t PSN_MASK = 0xffffff;

/**
 * \param psn a PSN \param n packets
 * \return the PSN n packets later
 */
inline uint32_t
PsnAdd(uint32_t psn, uint32_t n)
{
    return (psn + n) & PSN_MASK;
}

/**
 * Serial-number arithmetic on 24 bits (the specification's comparison of
 * PSNs within half the space).
 * \param a a PSN \param b a PSN
 * \return a - b, in [-2^23, 2^23)
 */
inline int32_t
PsnDiff(uint32_t a, uint32_t b)
{
    const int32_t d = int32_t((a - b) & PSN_MASK);
    return d >= (1 << 23) ? d - (1 << 24) : d;
}

} // namespace roce
} // namespace ns3

#endif /* ROCE_PSN_H */
