/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_ATTRIBUTE_DEFAULTS_H
#define DRP_ATTRIBUTE_DEFAULTS_H

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace drp
{

/**
 * \ingroup drp
 * Parses a time as ns-3's Time(std::string) does ("1ms", "2.5us", "3" for
 * seconds), but returns nothing where ns-3 would end the process.
 * \param text the time
 * \return the time in seconds, or nothing if malformed or not representable
 */
std::optional<double> ParseSeconds(const std::string& text);

/**
 * \ingroup drp
 * Finds the class that declares an attribute named as "ns3::Class::Attribute"
 * (the class itself or one of its parents).
 * \param name the attribute
 * \return the attribute as "ns3::Declaring::Attribute", or nothing if there
 * is no such class or attribute
 */
std::optional<std::string> FindDeclaredAttribute(const std::string& name);

/**
 * \ingroup drp
 * Checks ns-3 attribute defaults ("ns3::Class::Attribute" to value strings)
 * before Config::SetDefault sees them: unknown classes and attributes,
 * attributes named through a subclass (Config::SetDefault only sees a class's
 * own attributes), and values the attribute's checker refuses or ns-3 cannot
 * even parse (it would end the process). Throws std::invalid_argument naming
 * the attribute and the value.
 * \param defaults the defaults
 */
void CheckAttributeDefaults(const std::map<std::string, std::string>& defaults);

/**
 * \ingroup drp
 * The value of an attribute default as ns-3 parses it: a hexadecimal
 * number ("0x88B5", as users write EtherTypes and masks) for an integer
 * attribute becomes its decimal form, which ns-3's UintegerValue and
 * IntegerValue read (they refuse "0x"); anything else is returned as given.
 * \param name the attribute, "ns3::Class::Attribute" (also through a subclass)
 * \param value its value as given
 * \return the value to give ns-3
 */
std::string NormalizeAttributeValue(const std::string& name, const std::string& value);

/**
 * \ingroup drp
 * Sets a scenario's attribute defaults (already checked with
 * CheckAttributeDefaults()): each with Config::SetDefault, its value
 * normalized (NormalizeAttributeValue()), and noted as the user's, so that
 * it wins over every NIC profile (NicProfile::NoteUserDefault()).
 * \param defaults the defaults
 */
void ApplyAttributeDefaults(const std::map<std::string, std::string>& defaults);

/**
 * \ingroup drp
 * Refuses attribute defaults that a scenario sets itself on the objects it
 * builds (it would ignore them). Throws std::invalid_argument for the first
 * such default, naming it and what to use instead.
 * \param set the attributes a scenario sets (as their declaring class names
 *        them), each with the scenario parameters that set it, or, after '!',
 *        why no parameter does
 * \param defaults the defaults, "ns3::Class::Attribute" (also through a
 *        subclass) to value
 * \param options true: they came as --ns3:: options (the message names
 *        options, --rate); false: as the scenario's defaults parameter
 */
void RefuseAttributesSetBy(const std::map<std::string, std::vector<std::string>>& set,
                           const std::map<std::string, std::string>& defaults,
                           bool options);

/**
 * \ingroup drp
 * Checks a value for an ns-3 global value (RngRun, SchedulerType, ...) as
 * CheckAttributeDefaults() checks attribute defaults, before
 * Config::SetGlobal or a command line sees it. Does nothing if there is no
 * global value of that name. Throws std::invalid_argument naming the global
 * value and the value; also for SchedulerType = ns3::HeapScheduler, whose
 * Remove() leaves ns-3's heap out of order (drp's models remove events).
 * \param name the global value
 * \param value its value
 */
void CheckGlobalValue(const std::string& name, const std::string& value);

} // namespace drp
} // namespace ns3

#endif /* DRP_ATTRIBUTE_DEFAULTS_H */
