/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_COMPAT_H
#define DRP_COMPAT_H

/**
 * \file
 * \ingroup drp
 * The one place where drp hides differences between ns-3 releases (3.35 on).
 *
 * DRP_NS3_VERSION_MINOR names the ns-3 release drp is built against: ns-3's
 * own version-defines.h exists in a source tree only when ns-3 was configured
 * with --enable-build-version, and a stale copy of another release (an
 * installed libns3-dev) may be found on the include path instead. In an ns-3
 * source tree, contrib/drp/CMakeLists.txt (contrib/drp/wscript in a waf-era
 * tree) defines it for everything that uses the module. Out of tree the build
 * generates drp-config.h beside this header and installs the two together, so
 * that a program built against the installed headers needs no definition.
 */

#ifndef DRP_NS3_VERSION_MINOR
// By its bare name, which the compiler looks for first in this header's own
// folder: the drp-config.h of another drp installed elsewhere on the include
// path cannot take the place of this one. A source tree, which defines the
// release, never reads it.
#if __has_include("drp-config.h")
#include "drp-config.h"
#endif
#endif

#ifndef DRP_NS3_VERSION_MINOR
#error "DRP_NS3_VERSION_MINOR is undefined: build drp with its build files, or install it"
#endif

#include "ns3/application-container.h"
#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <string>
#include <type_traits>
#include <utility>

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

#if __has_include("ns3/iana-link-type-numbers.h")
// ns-3.49 (ns-3-dev after 3.48) names pcap link types in iana::linktype and
// deprecates PcapHelper's DataLinkType. Looked for by the header rather than
// by release: a development tree may come before or after the change.
#include "ns3/iana-link-type-numbers.h"
/// The pcap link type of Ethernet frames (LINKTYPE_ETHERNET, 1).
#define DRP_PCAP_LINKTYPE_ETHERNET ns3::iana::linktype::ETHERNET
#else
#include "ns3/trace-helper.h"
#define DRP_PCAP_LINKTYPE_ETHERNET ns3::PcapHelper::DLT_EN10MB
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

#if DRP_NS3_VERSION_MINOR < 37
/**
 * \ingroup drp
 * A function object that ns-3.36's and earlier Callbacks can hold: their
 * equality test compares the functors, which lambdas cannot do. Two copies
 * are equal only if they are the same object (as two lambdas never are).
 */
template <typename F>
class ComparableFunctor
{
  public:
    /// \param functor the function object to call
    explicit ComparableFunctor(F functor)
        : m_functor(std::move(functor))
    {
    }

    /**
     * Calls the function object.
     * \param args its arguments
     * \return its result
     */
    template <typename... A>
    decltype(auto) operator()(A&&... args)
    {
        return m_functor(std::forward<A>(args)...);
    }

    /// \param other another functor \return whether both are this one
    bool operator==(const ComparableFunctor& other) const
    {
        return this == &other;
    }

    /// \param other another functor \return whether other is another one
    bool operator!=(const ComparableFunctor& other) const
    {
        return this != &other;
    }

  private:
    F m_functor; //!< the function object
};
#endif

/**
 * \ingroup drp
 * A Callback that calls a lambda or other function object, on every release:
 * Callback has a constructor from any callable from ns-3.37 on; before, a
 * functor needed the two dummy arguments of Callback(functor, bool, bool) and
 * an equality operator (ComparableFunctor).
 *
 * \tparam R the return type of the callback
 * \tparam Args the argument types of the callback
 * \param functor the callable
 * \return the callback
 */
template <typename R, typename... Args, typename F>
Callback<R, Args...>
FunctorCallback(F&& functor)
{
#if DRP_NS3_VERSION_MINOR >= 37
    return Callback<R, Args...>(std::forward<F>(functor));
#else
    return Callback<R, Args...>(ComparableFunctor<std::decay_t<F>>(std::forward<F>(functor)),
                                true,
                                true);
#endif
}

#if DRP_NS3_VERSION_MINOR >= 38
/// The argument of a CommandLine::AddValue callback (a const reference from ns-3.38 on).
using CommandLineText = const std::string&;
#else
/// The argument of a CommandLine::AddValue callback (a copy before ns-3.38).
using CommandLineText = std::string;
#endif

#if DRP_NS3_VERSION_MINOR < 36
/**
 * \ingroup drp
 * An event that calls a function object: what ns-3.36's MakeEvent(T) makes
 * of a lambda, which ns-3.35's Simulator cannot schedule.
 */
template <typename F>
class FunctorEvent : public EventImpl
{
  public:
    /// \param functor the function object to call
    explicit FunctorEvent(F functor)
        : m_functor(std::move(functor))
    {
    }

  private:
    void Notify() override
    {
        m_functor();
    }

    F m_functor; //!< the function object
};
#endif

/**
 * \ingroup drp
 * Simulator::Schedule(delay, lambda) on every release (ns-3.36 on schedule
 * function objects themselves).
 * \param delay the time from now
 * \param functor the function object to call, without arguments
 * \return the event
 */
template <typename F>
EventId
Schedule(const Time& delay, F&& functor)
{
#if DRP_NS3_VERSION_MINOR >= 36
    return Simulator::Schedule(delay, std::forward<F>(functor));
#else
    return Simulator::Schedule(
        delay,
        Ptr<EventImpl>(new FunctorEvent<std::decay_t<F>>(std::forward<F>(functor)), false));
#endif
}

/**
 * \ingroup drp
 * Simulator::ScheduleNow(lambda) on every release.
 * \param functor the function object to call, without arguments
 * \return the event
 */
template <typename F>
EventId
ScheduleNow(F&& functor)
{
#if DRP_NS3_VERSION_MINOR >= 36
    return Simulator::ScheduleNow(std::forward<F>(functor));
#else
    return Simulator::ScheduleNow(
        Ptr<EventImpl>(new FunctorEvent<std::decay_t<F>>(std::forward<F>(functor)), false));
#endif
}

/**
 * \ingroup drp
 * Simulator::ScheduleWithContext(context, delay, lambda) on every release.
 * \param context the node of the event
 * \param delay the time from now
 * \param functor the function object to call, without arguments
 */
template <typename F>
void
ScheduleWithContext(uint32_t context, const Time& delay, F&& functor)
{
#if DRP_NS3_VERSION_MINOR >= 36
    Simulator::ScheduleWithContext(context, delay, std::forward<F>(functor));
#else
    // Takes the reference that `new` gives, as MakeEvent's events.
    Simulator::ScheduleWithContext(context,
                                   delay,
                                   new FunctorEvent<std::decay_t<F>>(std::forward<F>(functor)));
#endif
}

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
            FunctorCallback<void, uint16_t, Time>([rtt](uint16_t, Time delay) { rtt(delay); }));
#else
        app.Get(0)->TraceConnectWithoutContext("Rtt", rtt);
#endif
    }
    return app;
}

} // namespace drp
} // namespace ns3

#endif /* DRP_COMPAT_H */

/*
 * The part for test sources only (it includes ns3/test.h): a test source
 * defines DRP_COMPAT_TESTS before it includes this header. Outside the guard
 * above, so that an earlier inclusion without the definition does not hide it.
 */
#if defined(DRP_COMPAT_TESTS) && !defined(DRP_COMPAT_TESTS_H)
#define DRP_COMPAT_TESTS_H

#if DRP_NS3_VERSION_MINOR >= 37
#include "ns3/header-serialization-test.h"
#else
#include "ns3/buffer.h"
#include "ns3/test.h"

namespace ns3
{

/**
 * \ingroup drp-tests
 * ns-3.37's HeaderSerializationTestCase (src/network/test), which earlier
 * releases lack: serializes a header, deserializes a copy from the bytes,
 * serializes the copy and demands the same bytes.
 */
class HeaderSerializationTestCase : public TestCase
{
  protected:
    /// \param name the name of the test case
    HeaderSerializationTestCase(std::string name)
        : TestCase(name)
    {
    }

  public:
    /**
     * \tparam T the header type
     * \tparam Args the types of the arguments of the copy's constructor
     * \param hdr the header to test
     * \param args the arguments of the copy's constructor
     */
    template <typename T, typename... Args>
    void TestHeaderSerialization(const T& hdr, Args&&... args)
    {
        Buffer buffer;
        buffer.AddAtStart(hdr.GetSerializedSize());
        hdr.Serialize(buffer.Begin());

        T otherHdr(std::forward<Args>(args)...);
        otherHdr.Deserialize(buffer.Begin());
        Buffer otherBuffer;
        otherBuffer.AddAtStart(otherHdr.GetSerializedSize());
        otherHdr.Serialize(otherBuffer.Begin());

        NS_TEST_ASSERT_MSG_EQ(buffer.GetSize(), otherBuffer.GetSize(), "Size of buffers differs");
        Buffer::Iterator bufferIterator = buffer.Begin();
        Buffer::Iterator otherBufferIterator = otherBuffer.Begin();
        for (uint32_t j = 0; j < buffer.GetSize(); j++)
        {
            uint8_t bufferVal = bufferIterator.ReadU8();
            uint8_t otherBufferVal = otherBufferIterator.ReadU8();
            NS_TEST_EXPECT_MSG_EQ(+bufferVal,
                                  +otherBufferVal,
                                  "Serialization -> Deserialization -> Serialization "
                                      << "is different than Serialization at byte " << j);
        }
    }
};

} // namespace ns3
#endif

#endif /* DRP_COMPAT_TESTS */
