/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "strict-options.h"

#include "attribute-defaults.h"

#include "ns3/drp-check.h"
#include "ns3/drp-header.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/nic-profile.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace ns3
{
namespace drp
{

template <>
uint32_t
ParseStrict<uint32_t>(const std::string& name, const std::string& text)
{
    const uint64_t max = std::numeric_limits<uint32_t>::max();
    uint64_t value = 0;
    bool valid = !text.empty() && text.size() <= 10;
    for (char c : text)
    {
        valid = valid && std::isdigit(static_cast<unsigned char>(c));
        value = valid ? 10 * value + (c - '0') : 0;
    }
    if (!valid || value > max)
    {
        throw std::invalid_argument(name + " = \"" + text + "\" is not an integer in [0, " +
                                    std::to_string(max) + "]");
    }
    return static_cast<uint32_t>(value);
}

template <>
double
ParseStrict<double>(const std::string& name, const std::string& text)
{
    bool valid = !text.empty() && !std::isspace(static_cast<unsigned char>(text[0]));
    double value = 0;
    if (valid)
    {
        char* end = nullptr;
        value = std::strtod(text.c_str(), &end);
        valid = end == text.c_str() + text.size() && std::isfinite(value);
    }
    if (!valid)
    {
        throw std::invalid_argument(name + " = \"" + text + "\" is not a number");
    }
    return value;
}

template <>
Time
ParseStrict<Time>(const std::string& name, const std::string& text)
{
    if (!ParseSeconds(text))
    {
        throw std::invalid_argument(name + " = \"" + text +
                                    "\" is not a time (a number with unit s, ms, us, ns, ps, "
                                    "fs, min, h, d or y, e.g. 1ms)");
    }
    return RequireResolved(name, text, Time(text), *ParseSeconds(text));
}

std::optional<DataRate>
ParseDataRate(const std::string& text)
{
    static const std::map<std::string, uint64_t> prefixes{{"", 1},
                                                          {"k", 1000},
                                                          {"K", 1000},
                                                          {"Ki", 1024},
                                                          {"M", 1000000},
                                                          {"Mi", 1024 * 1024},
                                                          {"G", 1000000000},
                                                          {"Gi", 1024 * 1024 * 1024}};
    static const std::map<std::string, uint64_t> units{{"bps", 1},
                                                       {"b/s", 1},
                                                       {"Bps", 8},
                                                       {"B/s", 8}};
    const std::string::size_type split = text.find_first_not_of("0123456789.");
    const std::string number = text.substr(0, split);
    const std::string::size_type point = number.find('.');
    // Digits with at most one point, at least one digit, at most 19 digits
    // (so that they fit 64 bits).
    const std::size_t digits = number.size() - (point == std::string::npos ? 0 : 1);
    if (digits == 0 || digits > 19 ||
        (point != std::string::npos && number.find('.', point + 1) != std::string::npos))
    {
        return std::nullopt;
    }
    uint64_t multiplier = 1;
    if (split != std::string::npos)
    {
        const std::string unit = text.substr(split);
        bool known = false;
        for (const auto& [name, factor] : units)
        {
            const std::string::size_type length = unit.size() - std::min(unit.size(), name.size());
            auto prefix = prefixes.find(unit.substr(0, length));
            if (unit.size() >= name.size() && unit.substr(length) == name &&
                prefix != prefixes.end())
            {
                multiplier = factor * prefix->second;
                known = true;
            }
        }
        if (!known)
        {
            return std::nullopt;
        }
    }
    // Exactly: the digits as an integer (below 10^19 < 2^64), times the
    // unit, over 10^decimals, the common factors of the two taken out first.
    uint64_t value = 0;
    uint64_t scale = 1;
    for (std::size_t i = 0; i < number.size(); ++i)
    {
        if (number[i] != '.')
        {
            value = 10 * value + (number[i] - '0');
            scale *= (point != std::string::npos && i > point) ? 10 : 1;
        }
    }
    const uint64_t common = std::gcd(multiplier, scale);
    multiplier /= common;
    scale /= common;
    if (value % scale != 0 || value / scale > std::numeric_limits<uint64_t>::max() / multiplier)
    {
        return std::nullopt;
    }
    return DataRate(value / scale * multiplier);
}

std::string
ShowDataRate(DataRate rate)
{
    const uint64_t bps = rate.GetBitRate();
    for (const auto& [unit, factor] :
         {std::pair<const char*, uint64_t>{"Gbps", 1000000000}, {"Mbps", 1000000}, {"kbps", 1000}})
    {
        if (bps != 0 && bps % factor == 0)
        {
            return std::to_string(bps / factor) + unit;
        }
    }
    return std::to_string(bps) + "bps";
}

template <>
DataRate
ParseStrict<DataRate>(const std::string& name, const std::string& text)
{
    std::optional<DataRate> rate = ParseDataRate(text);
    if (!rate)
    {
        throw std::invalid_argument(name + " = \"" + text +
                                    "\" is not a data rate (a whole number of bit/s: a number, "
                                    "then bps, b/s, Bps or B/s with a prefix k, Ki, M, Mi, G or "
                                    "Gi, e.g. 10Gbps; bit/s without one)");
    }
    return *rate;
}

template <>
std::string
ParseStrict<std::string>(const std::string& /* name */, const std::string& text)
{
    return text;
}

void
StrictOptions::Apply() const
{
    for (const auto& option : m_options)
    {
        if (option.given)
        {
            option.assign(option.text);
        }
    }
}

bool
StrictOptions::IsGiven(const std::string& name) const
{
    for (const auto& option : m_options)
    {
        if (option.name == name)
        {
            return option.given;
        }
    }
    return false;
}

void
RequireMtuAndPayload(uint32_t mtu, uint32_t payload)
{
    RequireInRange<uint32_t>("mtu", mtu, EthernetNetDevice::MIN_MTU, EthernetNetDevice::MAX_MTU);
    RequireInRange<uint32_t>("payload (with mtu " + std::to_string(mtu) + ")",
                             payload,
                             1,
                             std::max(mtu, DrpHeader::SIZE + 1) - DrpHeader::SIZE);
}

std::map<std::string, std::string>
StrictOptions::CheckArguments(int argc, char* argv[])
{
    std::map<std::string, std::string> defaults;
    for (int i = 1; i < argc; ++i)
    {
        std::string argument = argv[i];
        std::string::size_type equal = argument.find('=');
        if (argument.compare(0, 2, "--") != 0 || equal == std::string::npos)
        {
            continue;
        }
        std::string name = argument.substr(2, equal - 2);
        std::string value = argument.substr(equal + 1);
        try
        {
            if (name.compare(0, 5, "ns3::") == 0)
            {
                CheckAttributeDefaults({{name, value}});
                defaults[name] = value;
                const std::string normalized = NormalizeAttributeValue(name, value);
                NicProfile::NoteUserDefault(name,
                                            normalized); // the user's, whatever a profile says
                if (normalized != value)
                {
                    // CommandLine::Parse() reads argv itself, and ns-3 would
                    // refuse "0x88B5": it reads the decimal form instead.
                    static std::deque<std::string> rewritten;
                    rewritten.push_back("--" + name + "=" + normalized);
                    argv[i] = rewritten.back().data();
                }
            }
            else
            {
                CheckGlobalValue(name, value);
            }
        }
        catch (const std::invalid_argument& e)
        {
            // "defaults: ns3::X = ..." as a configuration says it: here an option.
            std::string message = e.what();
            std::string prefix = "defaults: ";
            if (message.compare(0, prefix.size(), prefix) == 0)
            {
                message = message.substr(prefix.size());
            }
            throw std::invalid_argument(message);
        }
    }
    return defaults;
}

std::list<uint32_t>
ParseFrameList(const std::string& name, const std::string& text)
{
    std::list<uint32_t> frames;
    for (std::size_t start = 0; !text.empty();)
    {
        std::size_t comma = text.find(',', start);
        try
        {
            // Each number as the strict options read one: digits only, 0 to 2^32 - 1.
            frames.push_back(ParseStrict<uint32_t>(name, text.substr(start, comma - start)));
        }
        catch (const std::invalid_argument&)
        {
            throw std::invalid_argument(name + " = \"" + text +
                                        "\" is not a comma-separated list of frame numbers "
                                        "(0-based, e.g. 0 or 0,5,17)");
        }
        if (comma == std::string::npos)
        {
            break;
        }
        start = comma + 1;
    }
    return frames;
}

} // namespace drp
} // namespace ns3
