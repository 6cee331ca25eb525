/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "csv-output.h"

#include "ns3/ethernet-helper.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <unistd.h>

namespace ns3
{
namespace drp
{

CsvOutput::CsvOutput(std::string option, std::string path)
    : m_option(std::move(option)),
      m_path(std::move(path))
{
    if (m_path.empty())
    {
        return;
    }
    // Can it be written? Without truncating it, nor leaving a new one behind.
    const bool existed = std::ifstream(m_path).good();
    errno = 0;
    if (!std::ofstream(m_path, std::ios::app))
    {
        const std::string why = errno != 0 ? std::string(" (") + std::strerror(errno) + ")" : "";
        throw std::invalid_argument(m_option + " = \"" + m_path + "\" cannot be written" + why);
    }
    if (!existed)
    {
        std::remove(m_path.c_str());
    }
}

bool
CsvOutput::IsEnabled() const
{
    return !m_path.empty();
}

bool
CsvOutput::IsOpen() const
{
    return m_out.is_open();
}

std::ostream&
CsvOutput::Stream()
{
    if (!m_out.is_open())
    {
        m_out.open(m_path);
        if (!m_out)
        {
            Failed();
        }
    }
    return m_out;
}

void
CsvOutput::Flush()
{
    if (m_out.is_open())
    {
        m_out.flush();
        if (!m_out)
        {
            Failed();
        }
    }
}

void
CsvOutput::Close()
{
    if (m_out.is_open())
    {
        m_out.close();
        if (!m_out)
        {
            Failed();
        }
    }
}

void
CsvOutput::Failed() const
{
    throw std::runtime_error(m_option + " = \"" + m_path + "\": writing failed (" +
                             std::strerror(errno) + ")");
}

void
RequireCapturePrefix(const std::string& option, const std::string& prefix)
{
    if (prefix.empty())
    {
        return;
    }
    for (const char* yesOrNo : {"1", "0", "true", "false", "yes", "no", "on", "off"})
    {
        if (prefix == yesOrNo)
        {
            // One meaning in every program: a prefix, not a switch (the
            // files would be named after "1").
            throw std::invalid_argument(option + " = " + prefix + " reads as yes or no, but " +
                                        option +
                                        " takes a file prefix: PREFIX-NODE-DEVICE files, e.g. " +
                                        option + "=capture (empty: none)");
        }
    }
    const std::string::size_type slash = prefix.rfind('/');
    const std::string folder =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : prefix.substr(0, slash));
    if (slash == prefix.size() - 1)
    {
        throw std::invalid_argument(option + " = " + prefix +
                                    " names a folder, not a file prefix (the files are "
                                    "PREFIX-NODE-DEVICE.pcap)");
    }
    if (access(folder.c_str(), W_OK | X_OK) != 0)
    {
        throw std::invalid_argument(option + " = " + prefix + ": cannot write in the folder " +
                                    folder + " (" + std::strerror(errno) + ")");
    }
}

void
EnableCaptures(const std::string& pcap, const std::string& ascii)
{
    EthernetHelper ethernet; // its trace helpers serve every EthernetNetDevice
    if (!pcap.empty())
    {
        ethernet.EnablePcapAll(pcap, true);
    }
    if (!ascii.empty())
    {
        ethernet.EnableAsciiAll(ascii);
    }
}

} // namespace drp
} // namespace ns3
