/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "strict-options.h"

#include "attribute-defaults.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

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
    return Time(text);
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

} // namespace drp
} // namespace ns3
