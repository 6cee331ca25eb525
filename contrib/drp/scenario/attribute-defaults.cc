/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-defaults.h"

#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/nic-profile.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <cmath>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace drp
{

/**
 * Parses a time as ns-3's Time(std::string) does ("1ms", "2.5us", "3" for
 * seconds), but returns nothing where ns-3 would end the process, and is
 * stricter: the whole number must parse, and no white space is allowed.
 * \param text the time
 * \return the time in seconds, or nothing if malformed or not representable
 */
std::optional<double>
ParseSeconds(const std::string& text)
{
    static const std::map<std::string, double> units{{"s", 1},
                                                     {"ms", 1e-3},
                                                     {"us", 1e-6},
                                                     {"ns", 1e-9},
                                                     {"ps", 1e-12},
                                                     {"fs", 1e-15},
                                                     {"min", 60},
                                                     {"h", 3600},
                                                     {"d", 86400},
                                                     {"y", 365 * 86400.0}};
    std::string::size_type split = text.find_first_not_of("+-0123456789.eE");
    std::string number = text.substr(0, split);
    auto unit = units.find(split == std::string::npos ? "s" : text.substr(split));
    if (number.empty() || unit == units.end())
    {
        return std::nullopt;
    }
    double value;
    std::size_t used = 0;
    try
    {
        value = std::stod(number, &used);
    }
    catch (const std::exception&)
    {
        return std::nullopt;
    }
    double seconds = value * unit->second;
    // ns-3 keeps a Time as 64-bit nanoseconds.
    if (used != number.size() || !std::isfinite(seconds) || std::abs(seconds) > 9e9)
    {
        return std::nullopt;
    }
    return seconds;
}

namespace
{

std::string FindFatalValue(Ptr<const AttributeChecker> checker, const std::string& value);

/**
 * Checks an object-factory string ("ns3::Type" or "ns3::Type[Name=value|...]",
 * as PointerValue attributes take) for what ns-3 would end the process on:
 * unknown types, unknown attributes, malformed nested values.
 * \param text the string
 * \return what is wrong, or "" if ns-3 can parse it without ending the process
 */
std::string
FindFatalFactory(const std::string& text)
{
    std::string::size_type open = text.find('[');
    std::string::size_type close = text.find(']');
    bool bare = open == std::string::npos && close == std::string::npos;
    if (!bare && (open == std::string::npos || close != text.size() - 1 || close < open))
    {
        return "\"" + text + "\" is not ns3::Type or ns3::Type[Name=value|...]";
    }
    std::string type = text.substr(0, open);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid))
    {
        return "\"" + text + "\": no type \"" + type + "\"";
    }
    if (bare)
    {
        return "";
    }
    std::string parameters = text.substr(open + 1, close - open - 1);
    std::string::size_type start = 0;
    while (start < parameters.size())
    {
        std::string::size_type bar = parameters.find('|', start);
        std::string parameter = parameters.substr(start, bar - start);
        start = bar == std::string::npos ? parameters.size() : bar + 1;
        std::string::size_type equal = parameter.find('=');
        TypeId::AttributeInformation info;
        if (equal == std::string::npos ||
            !tid.LookupAttributeByName(parameter.substr(0, equal), &info))
        {
            return "\"" + text + "\": " + type + " has no attribute \"" +
                   parameter.substr(0, equal) + "\"";
        }
        std::string problem = FindFatalValue(info.checker, parameter.substr(equal + 1));
        if (!problem.empty())
        {
            return "\"" + text + "\": " + parameter.substr(0, equal) + " = " + problem;
        }
    }
    return "";
}

/**
 * \param text a number
 * \return whether reading a T from it consumes it all, as the numeric attribute
 * values of ns-3 demand (they end the process otherwise)
 */
template <typename T>
bool
ReadsWhole(const std::string& text)
{
    std::istringstream stream(text);
    T value;
    stream >> value;
    return stream.eof();
}

/**
 * Checks an attribute value string for what would make ns-3 end the process
 * while parsing it (malformed numbers, times and object factories). Other
 * mistakes are left to the checker, which rejects them without ending anything.
 * \param checker the attribute's checker
 * \param value the string
 * \return what is wrong, or ""
 */
std::string
FindFatalValue(Ptr<const AttributeChecker> checker, const std::string& value)
{
    // The value types whose DeserializeFromString() aborts unless the stream is consumed.
    static const std::map<std::string, bool (*)(const std::string&)> numbers{
        {"ns3::UintegerValue", &ReadsWhole<uint64_t>},
        {"ns3::IntegerValue", &ReadsWhole<int64_t>},
        {"ns3::DoubleValue", &ReadsWhole<double>}};
    if (value.find_first_of(" \t\n") != std::string::npos)
    {
        return "\"" + value + "\" contains white space";
    }
    std::string type = checker->GetValueTypeName();
    auto number = numbers.find(type);
    if (number != numbers.end() && !number->second(value))
    {
        return "\"" + value + "\" is not a number";
    }
    if (type == "ns3::TimeValue" && !ParseSeconds(value))
    {
        return "\"" + value +
               "\" is not a time (a number with unit s, ms, us, ns, ps, fs, min, h, d or y)";
    }
    if (type == "ns3::PointerValue")
    {
        return FindFatalFactory(value);
    }
    return "";
}

/**
 * \param tid a type
 * \param name an attribute name
 * \return the attribute if the type itself (not a parent) declares it
 */
std::optional<TypeId::AttributeInformation>
FindOwnAttribute(TypeId tid, const std::string& name)
{
    for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        if (tid.GetAttribute(i).name == name)
        {
            return tid.GetAttribute(i);
        }
    }
    return std::nullopt;
}

/**
 * Checks one attribute default without letting ns-3 end the process.
 * \param name the attribute, as ns3::Class::Attribute
 * \param info the attribute
 * \param value its value
 */
void
CheckValue(const std::string& name, Ptr<const AttributeChecker> checker, const std::string& value)
{
    std::string problem = FindFatalValue(checker, value);
    if (!problem.empty())
    {
        throw std::invalid_argument(name + " = " + problem);
    }
    try
    {
        if (checker->CreateValidValue(StringValue(value)))
        {
            return;
        }
    }
    catch (const std::exception& e) // some parsers throw (Mac48Address: std::stoul)
    {
        problem = std::string(" (") + e.what() + ")";
    }
    if (checker->HasUnderlyingTypeInformation())
    {
        problem += "; valid: " + checker->GetUnderlyingTypeInformation();
    }
    throw std::invalid_argument(name + " = \"" + value + "\" is not a valid " +
                                checker->GetValueTypeName() + problem);
}

} // namespace

std::string
NormalizeAttributeValue(const std::string& name, const std::string& value)
{
    static const std::regex hex("[+]?0[xX][0-9a-fA-F]{1,16}");
    const std::optional<std::string> declared = FindDeclaredAttribute(name);
    if (!declared || !std::regex_match(value, hex))
    {
        return value;
    }
    const std::string::size_type colons = declared->rfind("::");
    const TypeId owner = TypeId::LookupByName(declared->substr(0, colons));
    const auto info = FindOwnAttribute(owner, declared->substr(colons + 2));
    const std::string type = info ? info->checker->GetValueTypeName() : "";
    if (type != "ns3::UintegerValue" && type != "ns3::IntegerValue")
    {
        return value;
    }
    return std::to_string(std::stoull(value.substr(value.find_first_of("xX") + 1), nullptr, 16));
}

std::optional<std::string>
FindDeclaredAttribute(const std::string& name)
{
    std::string::size_type colons = name.rfind("::");
    TypeId tid;
    if (colons == std::string::npos || !TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid))
    {
        return std::nullopt;
    }
    std::string attribute = name.substr(colons + 2);
    for (TypeId owner = tid;; owner = owner.GetParent())
    {
        if (FindOwnAttribute(owner, attribute))
        {
            return owner.GetName() + "::" + attribute;
        }
        if (owner == owner.GetParent())
        {
            return std::nullopt;
        }
    }
}

/**
 * Checks the attribute defaults of a configuration before Config::SetDefault
 * sees them (see the header): each name is looked up once, through the class
 * and its parents.
 * \param defaults the defaults
 */
void
CheckAttributeDefaults(const std::map<std::string, std::string>& defaults)
{
    for (const auto& [name, value] : defaults)
    {
        std::string::size_type colons = name.rfind("::");
        TypeId tid;
        if (colons == std::string::npos ||
            !TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid))
        {
            throw std::invalid_argument("defaults: \"" + name +
                                        "\" is not an attribute (ns3::Class::Attribute)");
        }
        std::string attribute = name.substr(colons + 2);
        for (TypeId owner = tid;; owner = owner.GetParent())
        {
            auto info = FindOwnAttribute(owner, attribute);
            if (info && owner != tid)
            {
                throw std::invalid_argument("defaults: " + name + " is inherited; set " +
                                            owner.GetName() + "::" + attribute + " instead");
            }
            if (info)
            {
                try
                {
                    CheckValue(name, info->checker, NormalizeAttributeValue(name, value));
                }
                catch (const std::invalid_argument& e)
                {
                    throw std::invalid_argument(std::string("defaults: ") + e.what());
                }
            }
            if (info)
            {
                break;
            }
            if (owner == owner.GetParent())
            {
                throw std::invalid_argument("defaults: " + tid.GetName() + " has no attribute \"" +
                                            attribute + "\"");
            }
        }
    }
}

void
RefuseAttributesSetBy(const std::map<std::string, std::vector<std::string>>& set,
                      const std::map<std::string, std::string>& defaults,
                      bool options)
{
    for (const auto& entry : defaults)
    {
        std::optional<std::string> declared = FindDeclaredAttribute(entry.first);
        auto found = declared ? set.find(*declared) : set.end();
        if (found == set.end())
        {
            continue;
        }
        std::string message = options
                                  ? entry.first + " is set by the scenario (it would ignore this "
                                                  "value); "
                                  : "defaults: " + entry.first +
                                        " is set by the scenario (it would ignore this "
                                        "default); ";
        const std::vector<std::string>& parameters = found->second;
        if (parameters[0][0] == '!')
        {
            throw std::invalid_argument(message + parameters[0].substr(1));
        }
        std::string list;
        for (const auto& parameter : parameters)
        {
            list += std::string(list.empty() ? "" : ", ") + (options ? "--" : "") + parameter;
        }
        throw std::invalid_argument(message + "use the " +
                                    (options ? "option" : "scenario parameter") +
                                    (parameters.size() > 1 ? "s " : " ") + list + " instead");
    }
}

void
ApplyAttributeDefaults(const std::map<std::string, std::string>& defaults)
{
    for (const auto& [name, value] : defaults)
    {
        const std::string normalized = NormalizeAttributeValue(name, value); // 0x88B5
        Config::SetDefault(name, StringValue(normalized));
        NicProfile::NoteUserDefault(name, normalized); // the user's, whatever the profile says
    }
}

void
CheckGlobalValue(const std::string& name, const std::string& value)
{
    if (name == "SchedulerType" && (value == "ns3::HeapScheduler" || value == "HeapScheduler"))
    {
        // ns-3's HeapScheduler::Remove() swaps the last event into the
        // removed one's place and sifts it down only; drp's models remove
        // events (Simulator::Remove), and a 128-host fabric crashed with a
        // corrupted heap (ns-3.37).
        throw std::invalid_argument(
            "SchedulerType = " + value +
            ": ns-3's HeapScheduler mis-orders its heap when an event is removed "
            "(Simulator::Remove(), which drp's timers use), and a fabric crashes with a "
            "corrupted heap; use ns3::MapScheduler (the default), ns3::PriorityQueueScheduler "
            "(the same order; faster with few events pending, slower with many, since its "
            "Remove() searches them all) or ns3::CalendarScheduler");
    }
    for (auto global = GlobalValue::Begin(); global != GlobalValue::End(); ++global)
    {
        if ((*global)->GetName() == name)
        {
            CheckValue(name, (*global)->GetChecker(), value);
            return;
        }
    }
}

} // namespace drp
} // namespace ns3
