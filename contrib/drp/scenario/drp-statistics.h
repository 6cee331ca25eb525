/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_STATISTICS_H
#define DRP_STATISTICS_H

#include <cstddef>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief Mean of a sample with its two-sided confidence interval.
 */
struct DrpMeanInterval
{
    size_t count{0};     //!< sample size
    double mean{0};      //!< sample mean
    double stddev{0};    //!< sample standard deviation (n - 1)
    double halfWidth{0}; //!< half width of the interval (0 if count < 2)

    /**
     * Computes the mean and the Student-t confidence interval of a sample.
     * \param sample the values
     * \param level confidence level, e.g. 0.95
     * \return mean and interval
     */
    static DrpMeanInterval Compute(const std::vector<double>& sample, double level = 0.95);

    /**
     * The relative reduction of a mean, (base - other) / base: 0.1 when
     * \p other is 10 % below \p base.
     * \param base the mean compared with
     * \param other the mean compared
     * \return the reduction, or nothing if either sample is empty (it has no
     * mean) or the base mean is 0, where it is undefined
     */
    static std::optional<double> GetReduction(const DrpMeanInterval& base,
                                              const DrpMeanInterval& other);
};

} // namespace ns3

#endif /* DRP_STATISTICS_H */
