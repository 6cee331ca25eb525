/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-statistics.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <numeric>

namespace ns3
{

DrpMeanInterval
DrpMeanInterval::Compute(const std::vector<double>& sample, double level)
{
    DrpMeanInterval result;
    result.count = sample.size();
    if (sample.empty())
    {
        return result;
    }
    result.mean = std::accumulate(sample.begin(), sample.end(), 0.0) / sample.size();
    if (sample.size() < 2)
    {
        return result;
    }
    double squares = 0;
    for (double x : sample)
    {
        squares += (x - result.mean) * (x - result.mean);
    }
    result.stddev = std::sqrt(squares / (sample.size() - 1));
    boost::math::students_t t(sample.size() - 1);
    double quantile = boost::math::quantile(boost::math::complement(t, (1 - level) / 2));
    result.halfWidth = quantile * result.stddev / std::sqrt(double(sample.size()));
    return result;
}

std::optional<double>
DrpMeanInterval::GetReduction(const DrpMeanInterval& base, const DrpMeanInterval& other)
{
    if (base.count == 0 || other.count == 0 || base.mean == 0)
    {
        return std::nullopt;
    }
    return (base.mean - other.mean) / base.mean;
}

} // namespace ns3
