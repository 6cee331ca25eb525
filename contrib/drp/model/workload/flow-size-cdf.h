/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_SIZE_CDF_H
#define FLOW_SIZE_CDF_H

#include "ns3/ptr.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

class EmpiricalRandomVariable;

/**
 * \ingroup drp
 * \brief An empirical flow-size distribution, read from a CDF file.
 *
 * The file holds one point per line, "bytes probability": the probability
 * that a flow is at most that many bytes. Blank lines and text after '#'
 * are ignored. Sizes never decrease, probabilities lie in [0, 1] and rise
 * strictly from point to point, the last probability is 1, and no size
 * exceeds 4,294,967,295 bytes (a transfer's size is 32 bits). Equal sizes
 * with rising probabilities are a point mass (a step). A repeated
 * probability is refused: ns-3 releases disagree on which of two such points
 * EmpiricalRandomVariable keeps (3.37 keeps both, 3.48 only the last), so the
 * same file would give other sizes on another release. Between points, sizes are
 * interpolated linearly, as the field's traffic generators do (HPCC's
 * custom_rand.py, the pFabric simulator's EmpiricalRandomVariable).
 *
 * Load() and Parse() check every rule and throw std::invalid_argument with a
 * message that names the file, the line and what is valid.
 *
 * The module ships the two distributions the field uses (GetShippedPath()):
 * "web-search" (DCTCP) and "data-mining" (VL2), in contrib/drp/data/flow-sizes,
 * each with its source in its header. They are found in the folder named by
 * the environment variable DRP_DATA_DIR if it is set; else, for an installed
 * library, in the data folder installed with it (share/drp); else in the
 * module's source folder.
 *
 * Sampling goes through ns-3's EmpiricalRandomVariable with Interpolate on
 * (CreateRandomVariable()), so streams are assigned as for any ns-3 random
 * variable; ToTransferSize() rounds a draw up to whole bytes, at least 1.
 */
class FlowSizeCdf
{
  public:
    /// One point of the CDF.
    struct Point
    {
        double bytes;       //!< flow size
        double probability; //!< probability that a flow is at most bytes
    };

    /**
     * Reads a CDF file.
     * \param path the file, or "web-search" / "data-mining" for a shipped one
     * \return the distribution
     */
    static FlowSizeCdf Load(const std::string& path);
    /**
     * Reads a CDF from a stream.
     * \param in the text
     * \param name what to call it in messages (e.g. the file's path)
     * \return the distribution
     */
    static FlowSizeCdf Parse(std::istream& in, const std::string& name);
    /**
     * \param name "web-search" or "data-mining"
     * \return the path of the shipped file (std::invalid_argument for other names), in
     *         the data folder found as the class documentation says
     */
    static std::string GetShippedPath(const std::string& name);

    /// \return the name given to Parse() or Load()
    const std::string& GetName() const;
    /// \return the points, in file order
    const std::vector<Point>& GetPoints() const;
    /// \return the mean flow size in bytes, of the piecewise-linear distribution
    double GetMeanBytes() const;
    /// \return the largest flow size
    double GetMaxBytes() const;
    /**
     * \param bytes a flow size
     * \return the probability that a flow is at most that size (interpolated)
     */
    double GetProbability(double bytes) const;
    /// \return a new interpolating EmpiricalRandomVariable of this distribution
    Ptr<EmpiricalRandomVariable> CreateRandomVariable() const;
    /**
     * \param draw a draw of CreateRandomVariable()
     * \return the transfer size: the draw rounded up, at least 1 byte
     */
    static uint32_t ToTransferSize(double draw);

  private:
    /**
     * \param name what to call it in messages
     * \param points checked points
     */
    FlowSizeCdf(std::string name, std::vector<Point> points);

    std::string m_name;          //!< file name or label
    std::vector<Point> m_points; //!< the CDF
};

} // namespace ns3

#endif /* FLOW_SIZE_CDF_H */
