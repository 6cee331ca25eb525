/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "csv-output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

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

} // namespace drp
} // namespace ns3
