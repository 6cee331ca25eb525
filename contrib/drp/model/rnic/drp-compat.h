/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_COMPAT_H
#define DRP_COMPAT_H

/**
 * \file
 * \ingroup drp
 * The one place where drp hides differences between ns-3 releases (3.37 on).
 *
 * contrib/drp/CMakeLists.txt defines DRP_NS3_VERSION_MINOR from the ns-3 it
 * builds against: ns-3's own version-defines.h exists in a source tree only
 * when ns-3 was configured with --enable-build-version, and a stale copy of
 * another release (an installed libns3-dev) may be found on the include path
 * instead.
 */

#ifndef DRP_NS3_VERSION_MINOR
#error "DRP_NS3_VERSION_MINOR is undefined: build drp through contrib/drp/CMakeLists.txt"
#endif

#include "ns3/application-container.h"
#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <string>

#if DRP_NS3_VERSION_MINOR >= 38
#include "ns3/enum.h"
#include "ns3/ping-helper.h"
#include "ns3/ping.h"
#else
#include "ns3/boolean.h"
#include "ns3/v4ping-helper.h"
#endif

#if DRP_NS3_VERSION_MINOR >= 41
/// ns-3.41 made the enum accessor a template on the enum type.
#define DRP_ENUM_ACCESSOR(type, ...) MakeEnumAccessor<type>(__VA_ARGS__)
#else
/// Before ns-3.41 the enum accessor deduces everything from the member.
#define DRP_ENUM_ACCESSOR(type, ...) MakeEnumAccessor(__VA_ARGS__)
#endif

#if DRP_NS3_VERSION_MINOR >= 42
/// ns-3.42 made the test suite type an enum class.
#define DRP_TEST_UNIT TestSuite::Type::UNIT
#define DRP_TEST_SYSTEM TestSuite::Type::SYSTEM
#define DRP_TEST_QUICK TestCase::Duration::QUICK
#define DRP_TEST_EXTENSIVE TestCase::Duration::EXTENSIVE
#else
#define DRP_TEST_UNIT TestSuite::UNIT
#define DRP_TEST_SYSTEM TestSuite::SYSTEM
#define DRP_TEST_QUICK TestCase::QUICK
#define DRP_TEST_EXTENSIVE TestCase::EXTENSIVE
#endif

#if DRP_NS3_VERSION_MINOR >= 44
/// ns-3.44 made an attribute's support level an enum class.
#define DRP_SUPPORT_DEPRECATED TypeId::SupportLevel::DEPRECATED
#else
#define DRP_SUPPORT_DEPRECATED TypeId::DEPRECATED
#endif

#if DRP_NS3_VERSION_MINOR >= 38
/// The ICMP echo application (ns-3.38 replaced V4Ping, deprecated, by Ping).
#define DRP_PING_TYPE_NAME "ns3::Ping"
/// Its attribute naming the pinged address.
#define DRP_PING_REMOTE_ATTRIBUTE "Destination"
/// Its attribute that makes it print to standard output.
#define DRP_PING_VERBOSE_ATTRIBUTE "VerboseMode"
#else
#define DRP_PING_TYPE_NAME "ns3::V4Ping"
#define DRP_PING_REMOTE_ATTRIBUTE "Remote"
#define DRP_PING_VERBOSE_ATTRIBUTE "Verbose"
#endif

namespace ns3
{
namespace drp
{

#if DRP_NS3_VERSION_MINOR >= 38
/// The argument of a CommandLine::AddValue callback (a const reference from ns-3.38 on).
using CommandLineText = const std::string&;
#else
/// The argument of a CommandLine::AddValue callback (a copy before ns-3.38).
using CommandLineText = std::string;
#endif

/**
 * \ingroup drp
 * Installs one silent ICMP echo application on a node, the same on every
 * release: requests of \p size data bytes (ICMP and IPv4 headers come on top)
 * every \p interval from its start until its stop (no count limit).
 *
 * ns-3.48's Ping sizes its records from the application's stop time: give
 * the application a stop time when it starts after time zero.
 *
 * \param node the pinging node
 * \param remote the address pinged
 * \param interval the time between two requests
 * \param size the data bytes of each request (at least 16)
 * \param rtt called with the round-trip time of each matched reply; may be null
 * \return the application (not yet started or stopped)
 */
inline ApplicationContainer
InstallPing(Ptr<Node> node,
            Ipv4Address remote,
            Time interval,
            uint32_t size,
            Callback<void, Time> rtt = Callback<void, Time>())
{
#if DRP_NS3_VERSION_MINOR >= 38
    PingHelper helper(remote);
    helper.SetAttribute(DRP_PING_VERBOSE_ATTRIBUTE, EnumValue(Ping::VerboseMode::SILENT));
#else
    V4PingHelper helper(remote);
    helper.SetAttribute(DRP_PING_VERBOSE_ATTRIBUTE, BooleanValue(false));
#endif
    helper.SetAttribute("Interval", TimeValue(interval));
    helper.SetAttribute("Size", UintegerValue(size));
    ApplicationContainer app = helper.Install(node);
    if (!rtt.IsNull())
    {
#if DRP_NS3_VERSION_MINOR >= 38
        // Ping's trace adds the sequence number; V4Ping's passes the time only.
        app.Get(0)->TraceConnectWithoutContext(
            "Rtt",
            Callback<void, uint16_t, Time>([rtt](uint16_t, Time delay) { rtt(delay); }));
#else
        app.Get(0)->TraceConnectWithoutContext("Rtt", rtt);
#endif
    }
    return app;
}

} // namespace drp
} // namespace ns3

#endif /* DRP_COMPAT_H */
