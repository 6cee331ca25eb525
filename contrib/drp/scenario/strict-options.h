/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_STRICT_OPTIONS_H
#define DRP_STRICT_OPTIONS_H

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/drp-compat.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace ns3
{
namespace drp
{

/**
 * \ingroup drp
 * Parses a command-line value as a whole. Throws std::invalid_argument
 * naming the option, the value and what it must be, where ns-3's
 * CommandLine would read a prefix ("5x" as 5, "1e3" as 1, "0.1abc" as 0.1),
 * wrap ("-1" as 4294967295) or end the process (a malformed time).
 *
 * Defined for uint32_t (decimal digits only, 0 to 4294967295), double (a
 * finite number, as strtod reads it, no white space), Time (a number with
 * unit s, ms, us, ns, ps, fs, min, h, d or y; seconds without one), DataRate
 * (see ParseDataRate()) and std::string (the text as given, spaces
 * included, where CommandLine would keep only its first word).
 *
 * \param name the option, as the user spells it
 * \param text its value
 * \return the value
 */
template <typename T>
T ParseStrict(const std::string& name, const std::string& text);

/**
 * \ingroup drp
 * Parses a list of frame numbers, as the programs' --dropAt... options take
 * them: "0", "0,5,17" ("" is none), each number as ParseStrict<uint32_t>
 * reads it.
 * \param name the option
 * \param text its value
 * \return the numbers (throws std::invalid_argument with the option's name)
 */
std::list<uint32_t> ParseFrameList(const std::string& name, const std::string& text);

/**
 * \ingroup drp
 * Parses a data rate as ns-3's DataRate(std::string) does, but strictly and
 * exactly: a decimal number (digits with at most one point, no sign, no
 * exponent, no white space), then nothing (bit/s) or a unit, bps, b/s, Bps or
 * B/s (B: 8-bit bytes), with an optional prefix k or K (10^3), Ki (2^10), M
 * (10^6), Mi (2^20), G (10^9) or Gi (2^30). The rate must be a whole number
 * of bit/s ("2.5Gbps" is, "0.5bps" is not), below 2^64. ns-3 reads a prefix
 * of a malformed number ("1.5.3Gbps" as 1.5 Gbps), rounds through a double
 * and ends the process on an unknown unit.
 * \param text the rate
 * \return the rate, or nothing if \p text is not one
 */
std::optional<DataRate> ParseDataRate(const std::string& text);

/**
 * \ingroup drp
 * \param rate a data rate
 * \return it in the largest unit of bps, kbps, Mbps and Gbps in which it is a
 * whole number ("10Gbps", "1500Mbps"), as ParseDataRate() reads it back
 */
std::string ShowDataRate(DataRate rate);

/**
 * \ingroup drp
 * The scenarios' mtu and payload parameters: mtu within
 * EthernetNetDevice's MIN_MTU and MAX_MTU, payload from 1 to mtu less the
 * DRP header. Throws std::invalid_argument naming the first that is not.
 * \param mtu every port's MTU
 * \param payload payload bytes per data frame
 */
void RequireMtuAndPayload(uint32_t mtu, uint32_t payload);

/**
 * \ingroup drp
 * \brief Strict numeric options for ns-3's CommandLine.
 *
 * CommandLine reads a number with operator>>, which stops at the first
 * character that does not fit and lets the rest go: --transfers=5x runs 5
 * transfers, --transfers=1e3 one, --frp=0.1abc uses 0.1. StrictOptions binds
 * each of its options to the whole text given instead, and Apply() parses the
 * options that were given with ParseStrict() once CommandLine::Parse() is
 * done; options not given keep their values exactly.
 *
 * \code
 *   uint32_t transfers = 5;
 *   CommandLine cmd(__FILE__);
 *   drp::StrictOptions strict;
 *   strict.AddValue(cmd, "transfers", "number of transfers", transfers);
 *   drp::StrictOptions::CheckArguments(argc, argv); // before Parse(): see there
 *   cmd.Parse(argc, argv);
 *   strict.Apply(); // throws std::invalid_argument for --transfers=5x
 * \endcode
 *
 * The object must outlive cmd.Parse() and Apply().
 */
class StrictOptions
{
  public:
    /**
     * Adds an option (as CommandLine::AddValue does) that Apply() parses strictly.
     * \param cmd the command line
     * \param name the option
     * \param help its help text
     * \param value where the value goes (uint32_t, double, Time, DataRate or
     * std::string); its current value is the default shown by --PrintHelp
     */
    template <typename T>
    void AddValue(CommandLine& cmd, const std::string& name, const std::string& help, T& value);

    /**
     * Parses every option that the command line gave (after
     * CommandLine::Parse()) into its variable. Throws std::invalid_argument
     * for the first malformed one (see ParseStrict()).
     */
    void Apply() const;

    /**
     * \param name an option added with AddValue()
     * \return true if the command line gave it (after CommandLine::Parse())
     */
    bool IsGiven(const std::string& name) const;

    /**
     * Checks the ns-3 attribute defaults (--ns3::Class::Attribute=value) and
     * global values (--RngRun=value) that a command line gives, before
     * CommandLine::Parse() sets them: ns-3 would end the process (status
     * 134) on a malformed number or time, and print its help for an
     * attribute named through a subclass. Throws std::invalid_argument
     * naming the option and the value (see CheckAttributeDefaults()).
     * \param argc the argument count, as main() got it
     * \param argv the arguments
     * \return the attribute defaults given, name (without "--") to value
     */
    static std::map<std::string, std::string> CheckArguments(int argc, char* argv[]);

  private:
    /// An option bound to its text.
    struct Option
    {
        std::string name;                               //!< the option
        std::string text;                               //!< what the command line gave
        bool given;                                     //!< whether it gave one
        std::function<void(const std::string&)> assign; //!< parse text into the variable
    };

    std::list<Option> m_options; //!< stable addresses for the command line's callbacks
};

/**
 * \param value a default
 * \return it as --PrintHelp shows it
 */
template <typename T>
std::string
ShowDefault(const T& value)
{
    std::ostringstream os;
    os << value;
    return os.str();
}

/**
 * \param value a default string
 * \return it, as --PrintHelp shows it
 */
template <>
inline std::string
ShowDefault<std::string>(const std::string& value)
{
    return value;
}

/**
 * \param value a time
 * \return it in its natural unit (+1ms)
 */
template <>
inline std::string
ShowDefault<Time>(const Time& value)
{
    std::ostringstream os;
    os << value.As(Time::AUTO);
    return os.str();
}

/**
 * \param value a data rate
 * \return it in its natural unit (10Gbps)
 */
template <>
inline std::string
ShowDefault<DataRate>(const DataRate& value)
{
    return ShowDataRate(value);
}

template <typename T>
void
StrictOptions::AddValue(CommandLine& cmd,
                        const std::string& name,
                        const std::string& help,
                        T& value)
{
    T* target = &value;
    m_options.push_back(Option{name, "", false, [target, name](const std::string& text) {
                                   *target = ParseStrict<T>(name, text);
                               }});
    Option* option = &m_options.back();
    // A callback gets the whole text: a bound variable would get what
    // operator>> reads of it (up to the first space, even for a string).
    cmd.AddValue(name,
                 help,
                 drp::FunctorCallback<bool, CommandLineText>([option](const std::string& text) {
                     option->text = text;
                     option->given = true;
                     return true;
                 }),
                 ShowDefault(value));
}

} // namespace drp
} // namespace ns3

#endif /* DRP_STRICT_OPTIONS_H */
