/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-size-cdf.h"

// DRP_LIBDIR_TO_DATADIR, out of tree (drp-config.h).
#include "ns3/drp-compat.h"
#include "ns3/random-variable-stream.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#ifdef DRP_LIBDIR_TO_DATADIR
#include <dlfcn.h>
#include <filesystem>
#include <system_error>
#endif

#ifndef DRP_DATA_DIR
#error "DRP_DATA_DIR (the module's data folder) is defined by contrib/drp's build file"
#endif

namespace ns3
{

namespace
{
/// Largest flow size: a transfer's size is 32 bits.
constexpr double MAX_BYTES = std::numeric_limits<uint32_t>::max();

/**
 * Throws std::invalid_argument.
 * \param name the CDF's name
 * \param line its line (0: the whole file)
 * \param what what is wrong and what is valid
 */
[[noreturn]] void
Refuse(const std::string& name, uint32_t line, const std::string& what)
{
    std::ostringstream os;
    os << "flow-size CDF " << name;
    if (line > 0)
    {
        os << " line " << line;
    }
    os << ": " << what;
    throw std::invalid_argument(os.str());
}

/**
 * \param text a line of the file
 * \return it quoted for a message, if it is printable text of reasonable
 *         length; else a description (a binary file's bytes are not echoed)
 */
std::string
Quote(const std::string& text)
{
    const bool printable = std::all_of(text.begin(), text.end(), [](char c) {
        return std::isprint(static_cast<unsigned char>(c)) || c == '\t' || c == '\r';
    });
    if (!printable)
    {
        return "the line (not text: is this a CDF file?)";
    }
    if (text.size() > 80)
    {
        return "'" + text.substr(0, 77) + "...'";
    }
    return "'" + text + "'";
}

/**
 * \param text a line without its comment
 * \return true if it holds nothing but blanks
 */
bool
IsBlank(const std::string& text)
{
    return text.find_first_not_of(" \t\r") == std::string::npos;
}

/**
 * The module's data folder, in this order: the environment variable
 * DRP_DATA_DIR; out of tree, the folder installed with this library, if this
 * library is an installed one; the module's source folder (DRP_DATA_DIR as
 * the build defines it), where a build folder and an ns-3 source tree find
 * the files.
 * \return the folder
 */
std::string
GetDataDir()
{
    const char* variable = std::getenv("DRP_DATA_DIR");
    if (variable != nullptr && *variable != '\0')
    {
        return variable;
    }
#ifdef DRP_LIBDIR_TO_DATADIR
    // Found from the library's own file rather than from a path fixed at
    // configure time: a prefix given at install time moves the library and
    // its data together, and a build folder's library, which has no data
    // folder beside it, never reads an older installation's files.
    static const char anchor = 0;
    Dl_info info;
    if (dladdr(&anchor, &info) != 0 && info.dli_fname != nullptr)
    {
        const std::filesystem::path installed =
            (std::filesystem::path(info.dli_fname).parent_path() / DRP_LIBDIR_TO_DATADIR)
                .lexically_normal();
        std::error_code error;
        if (std::filesystem::is_directory(installed, error))
        {
            return installed.string();
        }
    }
#endif
    return DRP_DATA_DIR;
}
} // namespace

FlowSizeCdf::FlowSizeCdf(std::string name, std::vector<Point> points)
    : m_name(std::move(name)),
      m_points(std::move(points))
{
}

FlowSizeCdf
FlowSizeCdf::Load(const std::string& path)
{
    const std::string file =
        (path == "web-search" || path == "data-mining") ? GetShippedPath(path) : path;
    std::ifstream in(file);
    if (!in)
    {
        Refuse(file,
               0,
               "cannot be read (give a readable file, or web-search or data-mining for the "
               "shipped ones)");
    }
    return Parse(in, file);
}

std::string
FlowSizeCdf::GetShippedPath(const std::string& name)
{
    if (name != "web-search" && name != "data-mining")
    {
        throw std::invalid_argument("shipped flow-size CDF '" + name +
                                    "' does not exist (web-search or data-mining)");
    }
    return GetDataDir() + "/flow-sizes/" + name + ".cdf";
}

FlowSizeCdf
FlowSizeCdf::Parse(std::istream& in, const std::string& name)
{
    std::vector<Point> points;
    std::string text;
    uint32_t lastLine = 0;
    for (uint32_t line = 1; std::getline(in, text); ++line)
    {
        const std::string content = text.substr(0, text.find('#'));
        if (IsBlank(content))
        {
            continue;
        }
        std::istringstream fields(content);
        Point p{};
        std::string extra;
        if (!(fields >> p.bytes >> p.probability) || (fields >> extra) || !std::isfinite(p.bytes) ||
            !std::isfinite(p.probability))
        {
            Refuse(name, line, Quote(text) + " is not 'bytes probability' (two numbers)");
        }
        std::ostringstream what;
        if (p.bytes < 0 || p.bytes > MAX_BYTES)
        {
            what << "size " << p.bytes << " is out of range [0, 4294967295]";
        }
        else if (p.probability < 0 || p.probability > 1)
        {
            what << "probability " << p.probability << " is out of range [0, 1]";
        }
        else if (!points.empty() && p.bytes < points.back().bytes)
        {
            what << "size " << p.bytes << " is below the previous size " << points.back().bytes
                 << " (sizes must not decrease)";
        }
        else if (!points.empty() && p.probability <= points.back().probability)
        {
            what << "probability " << p.probability << " does not rise above the previous "
                 << points.back().probability
                 << " (probabilities must rise from point to point; leave out a point that "
                    "only repeats one)";
        }
        if (!what.str().empty())
        {
            Refuse(name, line, what.str());
        }
        points.push_back(p);
        lastLine = line;
    }
    if (points.empty())
    {
        Refuse(name, 0, "holds no points (expected lines 'bytes probability')");
    }
    if (points.back().probability != 1)
    {
        std::ostringstream what;
        what << "the last probability is " << points.back().probability
             << ", not 1 (a CDF ends at 1)";
        Refuse(name, 0, what.str());
    }
    if (points.back().bytes < 1)
    {
        // Every flow would be rounded up to one byte while the arrival rate
        // follows the mean below it: flows without end, none of them real.
        std::ostringstream what;
        what << "the largest size is " << points.back().bytes
             << " bytes (a flow has at least 1 byte: sizes are bytes, not kilobytes or packets)";
        Refuse(name, lastLine, what.str());
    }
    return FlowSizeCdf(name, std::move(points));
}

const std::string&
FlowSizeCdf::GetName() const
{
    return m_name;
}

const std::vector<FlowSizeCdf::Point>&
FlowSizeCdf::GetPoints() const
{
    return m_points;
}

double
FlowSizeCdf::GetMeanBytes() const
{
    // A point mass at the first size, then uniform between neighbouring points.
    double mean = m_points.front().bytes * m_points.front().probability;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const Point& a = m_points[i - 1];
        const Point& b = m_points[i];
        mean += (b.probability - a.probability) * (a.bytes + b.bytes) / 2;
    }
    return mean;
}

double
FlowSizeCdf::GetMaxBytes() const
{
    return m_points.back().bytes;
}

double
FlowSizeCdf::GetProbability(double bytes) const
{
    if (bytes < m_points.front().bytes)
    {
        return 0;
    }
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const Point& a = m_points[i - 1];
        const Point& b = m_points[i];
        if (bytes < b.bytes)
        {
            return a.probability +
                   (b.probability - a.probability) * (bytes - a.bytes) / (b.bytes - a.bytes);
        }
    }
    return 1;
}

Ptr<EmpiricalRandomVariable>
FlowSizeCdf::CreateRandomVariable() const
{
    Ptr<EmpiricalRandomVariable> rv = CreateObject<EmpiricalRandomVariable>();
    rv->SetInterpolate(true);
    for (const Point& p : m_points)
    {
        rv->CDF(p.bytes, p.probability);
    }
    return rv;
}

uint32_t
FlowSizeCdf::ToTransferSize(double draw)
{
    const double bytes = std::ceil(draw);
    if (bytes < 1)
    {
        return 1;
    }
    return bytes >= MAX_BYTES ? std::numeric_limits<uint32_t>::max() : static_cast<uint32_t>(bytes);
}

} // namespace ns3
