/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_CHECK_H
#define DRP_CHECK_H

/**
 * \file
 * \ingroup drp
 * Validation of configuration values.
 *
 * Invalid attribute values and options raise std::invalid_argument with a
 * message that names the parameter, the value and the valid range. An
 * exception (rather than NS_FATAL_ERROR) lets a test, a script or a Python
 * binding catch the mistake; uncaught, it ends the program with the message.
 */

#include "ns3/nstime.h"

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace drp
{

/**
 * \param value a value
 * \return the value, as a message shows it
 */
template <typename T>
const T&
Show(const T& value)
{
    return value;
}

/**
 * \param value a time
 * \return the time in its natural unit (e.g. +1ms rather than +1e+06ns;
 *         -1ms too, where Time::AUTO alone picks femtoseconds; 0s)
 */
inline std::string
Show(const Time& value)
{
    if (value.IsZero())
    {
        return "0s"; // not "+0fs"
    }
    std::ostringstream os;
    os << Abs(value).As(Time::AUTO); // with its sign: "+1ms"
    std::string shown = os.str();
    if (value.IsStrictlyNegative() && !shown.empty() && shown[0] == '+')
    {
        shown[0] = '-';
    }
    return shown;
}

/**
 * Throws std::invalid_argument if a time given as nonzero became 0 in the
 * simulator's resolution ("1fs" with ns-3's default of nanoseconds), where
 * 0 would silently mean "none" or "off".
 * \param name the parameter, as the user spells it
 * \param text the value as given
 * \param value the Time it became
 * \param seconds the value as given, in seconds
 * \return value
 */
inline Time
RequireResolved(const std::string& name, const std::string& text, Time value, double seconds)
{
    if (seconds != 0 && value.IsZero())
    {
        throw std::invalid_argument(name + " = " + text +
                                    " is below the simulator's time resolution (" +
                                    Show(TimeStep(1)) + "): it would be 0");
    }
    return value;
}

/**
 * Throws std::invalid_argument unless min <= value <= max.
 * \param name the parameter, as the user spells it (e.g. "RnicNetDevice::Window")
 * \param value the value given
 * \param min smallest valid value
 * \param max largest valid value
 */
template <typename T>
void
RequireInRange(const std::string& name, T value, T min, T max)
{
    if (!(value >= min && value <= max))
    {
        std::ostringstream os;
        os << name << " = " << Show(value) << " is out of range [" << Show(min) << ", " << Show(max)
           << "]";
        throw std::invalid_argument(os.str());
    }
}

/**
 * Throws unless \p value is one of \p choices.
 * \param name option name
 * \param value its value
 * \param choices the valid values
 */
inline void
RequireOneOf(const std::string& name,
             const std::string& value,
             const std::vector<std::string>& choices)
{
    for (const auto& choice : choices)
    {
        if (value == choice)
        {
            return;
        }
    }
    std::string list;
    for (const auto& choice : choices)
    {
        list += (list.empty() ? "" : ", ") + choice;
    }
    throw std::invalid_argument(name + " = \"" + value + "\" is not valid; valid: " + list);
}

} // namespace drp
} // namespace ns3

#endif /* DRP_CHECK_H */
