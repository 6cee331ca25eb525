/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-text-reader.h"

#include "ns3/strict-options.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{

HpccTextReader::HpccTextReader(const std::string& path, const std::string& what)
    : m_path(path),
      m_in(path)
{
    if (!m_in)
    {
        throw std::invalid_argument(what + " \"" + path + "\" cannot be read");
    }
}

void
HpccTextReader::SkipSpace()
{
    while (m_in && std::isspace(m_in.peek()))
    {
        if (m_in.get() == '\n')
        {
            ++m_line;
        }
    }
}

bool
HpccTextReader::AtEnd()
{
    SkipSpace();
    return m_in.peek() == std::ifstream::traits_type::eof();
}

std::string
HpccTextReader::Word(const std::string& what)
{
    if (AtEnd())
    {
        throw Error(m_line, "the file ends where " + what + " should come");
    }
    m_wordLine = m_line;
    m_in >> m_word;
    return m_word;
}

uint64_t
HpccTextReader::Count(const std::string& what, uint64_t max)
{
    const std::string word = Word(what);
    const bool digits = !word.empty() && word.size() <= 19 &&
                        word.find_first_not_of("0123456789") == std::string::npos;
    const uint64_t value = digits ? std::strtoull(word.c_str(), nullptr, 10) : 0;
    if (!digits || value > max)
    {
        throw Error(what + " \"" + word + "\" is not a whole number from 0 to " +
                    std::to_string(max));
    }
    return value;
}

double
HpccTextReader::Number(const std::string& what, double min, double max)
{
    const std::string word = Word(what);
    char* end = nullptr;
    const double value = std::strtod(word.c_str(), &end);
    if (end != word.c_str() + word.size() || !std::isfinite(value) || value < min || value > max)
    {
        std::ostringstream os;
        os << what << " \"" << word << "\" is not a number from " << min << " to " << max;
        throw Error(os.str());
    }
    return value;
}

DataRate
HpccTextReader::Rate(const std::string& what)
{
    const std::string word = Word(what);
    const std::optional<DataRate> rate = drp::ParseDataRate(word);
    if (!rate || rate->GetBitRate() < 1 || rate->GetBitRate() > 1000000000000ULL)
    {
        throw Error(what + " \"" + word +
                    "\" is not a data rate from 1bps to 1000Gbps (a number and a unit: "
                    "100Gbps, 25Gbps)");
    }
    return *rate;
}

Time
HpccTextReader::Delay(const std::string& what, Time max)
{
    const std::string word = Word(what);
    Time delay;
    try
    {
        delay = drp::ParseStrict<Time>(what, word);
    }
    catch (const std::invalid_argument& e)
    {
        throw Error(e.what());
    }
    if (delay.IsNegative() || delay > max)
    {
        std::ostringstream os;
        os << what << " \"" << word << "\" is not from 0 to " << max.As(Time::S);
        throw Error(os.str());
    }
    return delay;
}

const std::string&
HpccTextReader::GetWord() const
{
    return m_word;
}

uint32_t
HpccTextReader::GetLine() const
{
    return m_wordLine;
}

const std::string&
HpccTextReader::GetPath() const
{
    return m_path;
}

std::invalid_argument
HpccTextReader::Error(uint32_t line, const std::string& reason) const
{
    return std::invalid_argument(m_path + ":" + std::to_string(line) + ": " + reason);
}

std::invalid_argument
HpccTextReader::Error(const std::string& reason) const
{
    return Error(m_wordLine, reason);
}

} // namespace ns3
