/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_STATISTICS_H
#define DRP_STATISTICS_H

#include <cstddef>
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
};

} // namespace ns3

#endif /* DRP_STATISTICS_H */
