/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Extension module _drp: Python bindings of DrpScenario and FabricScenario,
 * the one definitions of an experiment and of a fabric experiment. The
 * package drp (python/drp/) wraps it.
 *
 * Parameters keep their C++ meaning under snake_case names (lossModel is
 * loss_model). Every mistake raises a Python exception naming the parameter:
 * TypeError for an unknown parameter or a value of the wrong type,
 * ValueError for a value out of range (DrpScenario::Config::Validate()
 * throws std::invalid_argument, which pybind11 turns into ValueError;
 * it checks attribute-default strings before ns-3 parses them, since ns-3
 * ends the process on malformed ones).
 */

#include "ns3/attribute-defaults.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/drp-check.h"
#include "ns3/drp-scenario.h"
#include "ns3/fabric-ranks.h"
#include "ns3/fabric-scenario.h"
#include "ns3/hpcc-config.h"
#include "ns3/nic-profile.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/strict-options.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <iomanip>
#include <mutex>
#include <optional>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace py = pybind11;
using namespace ns3;

namespace
{

using ScenarioConfig = DrpScenario::Config;
using FabricConfig = FabricScenario::Config;

/// One simulation at a time per process: ns-3's simulator is a singleton.
std::mutex g_simulatorMutex;

/**
 * \param value a Python object
 * \return the name of its type
 */
std::string
TypeName(py::handle value)
{
    return Py_TYPE(value.ptr())->tp_name;
}

/**
 * Raises TypeError: a parameter got a value of the wrong type.
 * \param name the parameter
 * \param expected what it takes
 * \param value what it got
 */
[[noreturn]] void
WrongType(const std::string& name, const std::string& expected, py::handle value)
{
    throw py::type_error(name + " must be " + expected + ", not " + TypeName(value) + " (" +
                         py::repr(value).cast<std::string>() + ")");
}

/// Converts a Python value to a Config field's type, naming the parameter in errors.
template <typename T>
T FromPython(const std::string& name, py::handle value);

template <>
uint32_t
FromPython<uint32_t>(const std::string& name, py::handle value)
{
    if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr()))
    {
        WrongType(name, "an integer", value);
    }
    auto number = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
    if (overflow != 0 || n < 0 || n > UINT32_MAX)
    {
        throw py::value_error(name + " = " + py::repr(value).cast<std::string>() +
                              " is out of range [0, " + std::to_string(UINT32_MAX) + "]");
    }
    return static_cast<uint32_t>(n);
}

template <>
double
FromPython<double>(const std::string& name, py::handle value)
{
    if (PyBool_Check(value.ptr()) || !PyNumber_Check(value.ptr()))
    {
        WrongType(name, "a number", value);
    }
    double number = PyFloat_AsDouble(value.ptr());
    if (number == -1 && PyErr_Occurred())
    {
        PyErr_Clear();
        WrongType(name, "a number", value);
    }
    return number;
}

template <>
bool
FromPython<bool>(const std::string& name, py::handle value)
{
    py::detail::make_caster<bool> caster;
    if (!caster.load(value, false)) // True/False and numpy.bool_ only
    {
        WrongType(name, "True or False", value);
    }
    return py::detail::cast_op<bool>(caster);
}

template <>
std::string
FromPython<std::string>(const std::string& name, py::handle value)
{
    if (!py::isinstance<py::str>(value))
    {
        WrongType(name, "a string", value);
    }
    return value.cast<std::string>();
}

template <>
Time
FromPython<Time>(const std::string& name, py::handle value)
{
    if (py::isinstance<py::str>(value))
    {
        std::string text = value.cast<std::string>();
        if (!drp::ParseSeconds(text))
        {
            throw py::value_error(name + " = \"" + text +
                                  "\" is not a time (seconds, or a number with unit s, ms, "
                                  "us, ns, ps, fs, min, h, d or y, e.g. \"1ms\")");
        }
        return drp::RequireResolved(name, "\"" + text + "\"", Time(text), *drp::ParseSeconds(text));
    }
    double seconds = FromPython<double>(name, value);
    const std::string shown = py::repr(value).cast<std::string>();
    if (!std::isfinite(seconds) || std::abs(seconds) > 9e9)
    {
        throw py::value_error(name + " = " + shown + " is not a time in seconds");
    }
    return drp::RequireResolved(name, shown, Seconds(seconds), seconds);
}

template <>
DataRate
FromPython<DataRate>(const std::string& name, py::handle value)
{
    if (py::isinstance<py::str>(value))
    {
        try
        {
            return drp::ParseStrict<DataRate>(name, value.cast<std::string>());
        }
        catch (const std::invalid_argument& e)
        {
            throw py::value_error(e.what());
        }
    }
    // bit/s: an integer, or a float with a whole value (10e9).
    if (PyFloat_Check(value.ptr()))
    {
        double bps = value.cast<double>();
        if (!(bps >= 0 && bps < 18446744073709551616.0 && bps == std::floor(bps)))
        {
            throw py::value_error(name + " = " + py::repr(value).cast<std::string>() +
                                  " is not a whole number of bit/s");
        }
        return DataRate(static_cast<uint64_t>(bps));
    }
    if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr()))
    {
        WrongType(name, "bit/s (a number) or a string such as \"10Gbps\"", value);
    }
    auto number = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
    unsigned long long bps = PyLong_AsUnsignedLongLong(number.ptr());
    if (bps == static_cast<unsigned long long>(-1) && PyErr_Occurred())
    {
        PyErr_Clear();
        throw py::value_error(name + " = " + py::repr(value).cast<std::string>() +
                              " is not a number of bit/s in [0, 2^64)");
    }
    return DataRate(bps);
}

template <>
std::map<std::string, std::string>
FromPython<std::map<std::string, std::string>>(const std::string& name, py::handle value)
{
    if (!py::isinstance<py::dict>(value))
    {
        WrongType(name, "a dict of ns-3 attribute names to values", value);
    }
    std::map<std::string, std::string> defaults;
    for (auto [key, item] : value.cast<py::dict>())
    {
        std::string attribute = FromPython<std::string>(name + " key", key);
        std::string entry = name + "[\"" + attribute + "\"]";
        if (PyBool_Check(item.ptr()))
        {
            defaults[attribute] = item.cast<bool>() ? "true" : "false";
        }
        else if (py::isinstance<py::str>(item))
        {
            defaults[attribute] = item.cast<std::string>();
        }
        else if (PyNumber_Check(item.ptr()))
        {
            defaults[attribute] = py::str(item).cast<std::string>();
        }
        else
        {
            WrongType(entry, "a string, a number or a bool", item);
        }
    }
    return defaults;
}

/**
 * \param value a Config field
 * \return it as a Python object
 */
template <typename T>
py::object
ToPython(const T& value)
{
    return py::cast(value);
}

/// \return a Time as seconds
template <>
py::object
ToPython<Time>(const Time& value)
{
    return py::float_(value.GetSeconds());
}

/// \return a DataRate as bit/s
template <>
py::object
ToPython<DataRate>(const DataRate& value)
{
    return py::int_(value.GetBitRate());
}

/**
 * \param value a Config member
 * \return it as a program's option reads it back exactly: a time in steps
 *         of the resolution with its unit, a rate in bit/s, a bool as 1 or
 *         0, a double with every digit; "" for what is no option (a map)
 */
template <typename T>
std::string
ToText(const T& value)
{
    std::ostringstream os;
    if constexpr (std::is_same_v<T, bool>)
    {
        os << (value ? 1 : 0);
    }
    else if constexpr (std::is_same_v<T, Time>)
    {
        static const std::map<Time::Unit, const char*> units{{Time::S, "s"},
                                                             {Time::MS, "ms"},
                                                             {Time::US, "us"},
                                                             {Time::NS, "ns"},
                                                             {Time::PS, "ps"},
                                                             {Time::FS, "fs"}};
        os << value.GetTimeStep() << units.at(Time::GetResolution());
    }
    else if constexpr (std::is_same_v<T, DataRate>)
    {
        os << value.GetBitRate() << "bps";
    }
    else if constexpr (std::is_floating_point_v<T>)
    {
        os << std::setprecision(17) << value;
    }
    else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>)
    {
        os << value;
    }
    return os.str();
}

/// A field of a configuration (DrpScenario::Config or FabricScenario::Config) as Python sees it.
template <typename C>
struct Field
{
    const char* name;                          //!< Python name
    const char* cxxName;                       //!< name of the member, as Validate() reports it
    const char* doc;                           //!< meaning
    std::function<py::object(const C&)> get;   //!< read it
    std::function<void(C&, py::handle)> set;   //!< convert and write it
    std::function<std::string(const C&)> text; //!< as a program's option value (ToText())
};

/**
 * \param name Python name
 * \param cxxName C++ name
 * \param doc meaning
 * \param member the Config member
 * \return the field
 */
template <typename C, typename T>
Field<C>
MakeField(const char* name, const char* cxxName, const char* doc, T C::*member)
{
    return Field<C>{name,
                    cxxName,
                    doc,
                    [member](const C& config) { return ToPython(config.*member); },
                    [name, member](C& config, py::handle value) {
                        config.*member = FromPython<T>(name, value);
                    },
                    [member](const C& config) { return ToText(config.*member); }};
}

/// \return every field of a configuration type, in declaration order
template <typename C>
const std::vector<Field<C>>& Fields();

/// \return every field of DrpScenario::Config, in declaration order
template <>
const std::vector<Field<ScenarioConfig>>&
Fields<ScenarioConfig>()
{
    using C = ScenarioConfig;
    static const std::vector<Field<C>> fields{
        MakeField("method", "method", "RNIC method: \"traditional\" or \"dynamic\"", &C::method),
        MakeField("frp", "frp", "failed-registration probability, 0 to 1", &C::frp),
        MakeField("lfp", "lfp", "lost-frame probability, 0 to 0.99", &C::lfp),
        MakeField("loss_model",
                  "lossModel",
                  "ns-3 error model for LFP: \"rate\" (RateErrorModel, independent losses) or "
                  "\"burst\" (BurstErrorModel)",
                  &C::lossModel),
        MakeField("mean_burst",
                  "meanBurst",
                  "burst loss model: mean burst length, frames",
                  &C::meanBurst),
        MakeField("transfers", "transfers", "number of transfers", &C::transfers),
        MakeField("concurrency",
                  "concurrency",
                  "transfers in flight at once, 1 to 1024",
                  &C::concurrency),
        MakeField("size", "size", "bytes per transfer", &C::size),
        MakeField("payload", "payload", "payload bytes per data frame", &C::payload),
        MakeField("operation", "operation", "\"write\" or \"read\"", &C::operation),
        MakeField("topology",
                  "topology",
                  "\"p2p\" (one link) or \"line\" (of switches)",
                  &C::topology),
        MakeField("switches", "switches", "line topology: number of switches", &C::switches),
        MakeField("rate",
                  "rate",
                  "line rate of every link, 10 Mb/s to 800 Gb/s: bit/s, or a string such as "
                  "\"10Gbps\" (read back in bit/s)",
                  &C::rate),
        MakeField("pings",
                  "pings",
                  "three pings (256, 512, 1024 bytes) each way during the run",
                  &C::pings),
        MakeField("ping_interval",
                  "pingInterval",
                  "interval of each ping: seconds, or a string such as \"1ms\"",
                  &C::pingInterval),
        MakeField("seed", "seed", "ns-3 RNG seed", &C::seed),
        MakeField("run", "run", "ns-3 RNG run number", &C::run),
        MakeField("paired_streams",
                  "pairedStreams",
                  "fresh loss and registration streams per transfer (common random numbers), "
                  "so both methods of a run meet the same draws transfer by transfer",
                  &C::pairedStreams),
        MakeField("verify",
                  "verify",
                  "compare memory byte for byte after each transfer",
                  &C::verify),
        MakeField("defaults",
                  "defaults",
                  "ns-3 attribute defaults for the run, e.g. "
                  "{\"ns3::DrpTransport::HandshakeTimeout\": \"2ms\"}",
                  &C::defaults),
        MakeField("pcap",
                  "pcap",
                  "write PREFIX-NODE-DEVICE.pcap for both RNICs and every switch port "
                  "(\"\": none)",
                  &C::pcap),
        MakeField("ascii",
                  "ascii",
                  "write PREFIX-NODE-DEVICE.tr (ns-3 ascii traces) for the same devices "
                  "(\"\": none)",
                  &C::ascii),
        MakeField("nic",
                  "nic",
                  "the RNICs' NIC profile (NicProfile): \"paper-1g\" (the paper's card, the "
                  "defaults), \"paper-testbed\" (that card in the paper's hardware testbed, "
                  "with its host), \"25g-pcie3x8\", \"100g-pcie3x16\", \"200g-pcie4x16\", "
                  "\"400g-pcie5x16\" or \"auto\" (the card of rate; read back as its name); "
                  "rate sets the port's rate",
                  &C::nic),
        MakeField("mtu",
                  "mtu",
                  "every port's MTU, RNICs and switches, 46 to 9216 (9000: jumbo frames)",
                  &C::mtu),
    };
    return fields;
}

/// \return every field of FabricScenario::Config, in declaration order
template <>
const std::vector<Field<FabricConfig>>&
Fields<FabricConfig>()
{
    using C = FabricConfig;
    static const std::vector<Field<C>> fields{
        MakeField("topology",
                  "topology",
                  "\"star\", \"tree\", \"leaf-spine\" or \"fat-tree\"",
                  &C::topology),
        MakeField("hosts",
                  "hosts",
                  "star: hosts; tree: fan-out; leaf-spine: hosts per leaf",
                  &C::hosts),
        MakeField("leaves", "leaves", "leaf-spine: leaves", &C::leaves),
        MakeField("spines", "spines", "leaf-spine: spines", &C::spines),
        MakeField("levels", "levels", "tree: switch levels", &C::levels),
        MakeField("k", "k", "fat-tree: ports per switch (even)", &C::k),
        MakeField("workload",
                  "workload",
                  "\"incast\", \"permutation\", \"all-to-all\" or \"poisson\"",
                  &C::workload),
        MakeField("bytes", "bytes", "incast, permutation, all-to-all: bytes per flow", &C::bytes),
        MakeField("degree", "degree", "incast: senders (0: every other host)", &C::degree),
        MakeField("load", "load", "poisson: load of each host link, (0, 1]", &C::load),
        MakeField("cdf",
                  "cdf",
                  "poisson: flow sizes, \"web-search\", \"data-mining\" or a CDF file",
                  &C::cdf),
        MakeField("duration",
                  "duration",
                  "poisson: arrivals come this long: seconds, or a string such as \"10ms\"",
                  &C::duration),
        MakeField("method", "method", "RNIC method: \"traditional\" or \"dynamic\"", &C::method),
        MakeField("frp", "frp", "failed-registration probability, 0 to 1", &C::frp),
        MakeField("host_rate",
                  "hostRate",
                  "host links' rate: bit/s, or a string such as \"1Gbps\" (read back in bit/s)",
                  &C::hostRate),
        MakeField("fabric_rate",
                  "fabricRate",
                  "rate of the links between switches (as host_rate)",
                  &C::fabricRate),
        MakeField("queue",
                  "queue",
                  "every switch port's egress queue, an ns-3 QueueSize: \"100p\", \"64KiB\"",
                  &C::queue),
        MakeField("ecn",
                  "ecn",
                  "switch queues mark CE by the RED rule and RNICs send data ECN-capable, "
                  "answering marks with CNPs",
                  &C::ecn),
        MakeField("ecn_min",
                  "ecnMin",
                  "ecn: Kmin, marking starts above it (QueueSize: \"4KB\", \"5p\")",
                  &C::ecnMin),
        MakeField("ecn_max",
                  "ecnMax",
                  "ecn: Kmax, every frame marked from it (QueueSize, unit of ecn_min)",
                  &C::ecnMax),
        MakeField("ecn_pmax",
                  "ecnPmax",
                  "ecn: marking probability just below Kmax, 0 to 1",
                  &C::ecnPmax),
        MakeField("ecn_marking",
                  "ecnMarking",
                  "ecn: the marking rule, \"red\" (Kmin, Kmax, Pmax: DCQCN's) or \"step\" "
                  "(every frame above ecn_min: DCTCP's K)",
                  &C::ecnMarking),
        MakeField("cc",
                  "cc",
                  "the RNICs' congestion control: \"none\", \"dcqcn\" (rate, on CNPs) or "
                  "\"dctcp\" (window, every CE mark echoed); dcqcn and dctcp need ecn",
                  &C::cc),
        MakeField("rates", "rates", "record every change of a transfer's pacing rate", &C::rates),
        MakeField("seed", "seed", "ns-3 RNG seed", &C::seed),
        MakeField("run", "run", "ns-3 RNG run number", &C::run),
        MakeField("jitter",
                  "jitter",
                  "incast: each sender starts at an offset drawn uniformly from [0, jitter]: "
                  "seconds, or a string such as \"20us\" (0 to 1000 s)",
                  &C::jitter),
        MakeField("ecmp_seed",
                  "ecmpSeed",
                  "every switch's ECMP flow-hash seed (EcmpSwitchNetDevice::EcmpSeed)",
                  &C::ecmpSeed),
        MakeField("ecmp_per_run",
                  "ecmpPerRun",
                  "switches' ECMP seed = ecmp_seed + run, so that paths differ from run to run",
                  &C::ecmpPerRun),
        MakeField("timeout_mode",
                  "timeoutMode",
                  "the RNICs' retransmission timers: \"fixed\" (RetransmissionTimeout, the "
                  "published protocol) or \"adaptive\" (RFC 6298, estimated per peer)",
                  &C::timeoutMode),
        MakeField("pcap",
                  "pcap",
                  "write PREFIX-NODE-DEVICE.pcap for every RNIC and switch port (\"\": none)",
                  &C::pcap),
        MakeField("ascii",
                  "ascii",
                  "write PREFIX-NODE-DEVICE.tr (ns-3 ascii traces) for every RNIC and switch "
                  "port (\"\": none)",
                  &C::ascii),
        MakeField("lossless",
                  "lossless",
                  "a shared buffer (SwitchBuffer) in every switch, priority flow control on "
                  "every port, the RNICs' DRP class lossless",
                  &C::lossless),
        MakeField("buffer",
                  "buffer",
                  "lossless: each switch's buffer, a QueueSize in bytes: \"12MiB\", \"1MB\"",
                  &C::buffer),
        MakeField("threshold",
                  "threshold",
                  "lossless: the XOFF threshold, \"dynamic\" (1/8 of the free shared buffer) "
                  "or \"static\" (64 KiB per ingress queue)",
                  &C::threshold),
        MakeField("pfc_watchdog",
                  "pfcWatchdog",
                  "lossless: every switch port's PFC watchdog: a class paused this long with "
                  "frames waiting is in a pause storm and stops honouring pauses until none "
                  "has come for twice as long; seconds, or a string such as \"200ms\" (0: "
                  "no watchdog; up to 100 s)",
                  &C::pfcWatchdog),
        MakeField("pfc_watchdog_action",
                  "pfcWatchdogAction",
                  "lossless: what the PFC watchdog does in a storm, \"drop\" (the class's "
                  "frames) or \"forward\" (them, ignoring the pauses)",
                  &C::pfcWatchdogAction),
        MakeField("lossless_timers",
                  "losslessTimers",
                  "lossless: RNIC timers that count no time paused and wait at least the time "
                  "one switch buffer takes to drain at the host rate (False: the timers of "
                  "timeout_mode, the published protocol's)",
                  &C::losslessTimers),
        MakeField("pfc_storm",
                  "pfcStorm",
                  "lossless: hosts (\"3\" or \"3,7\") whose RNICs pause their DRP class from "
                  "the start and never stop, as a NIC whose receive path hangs (\"\": none)",
                  &C::pfcStorm),
        MakeField("receiver",
                  "receiver",
                  "incast: the host written to (its senders: the first degree other hosts)",
                  &C::receiver),
        MakeField("stagger",
                  "stagger",
                  "incast: source i (senders, then victims) starts i x stagger after the "
                  "first: seconds, or a string "
                  "such as \"5ms\" (0 to 1000 s)",
                  &C::stagger),
        MakeField("victims",
                  "victims",
                  "incast: flows beside it, victim k from the (degree + k)-th host other than "
                  "the receiver to host (receiver + 1 + k) mod hosts",
                  &C::victims),
        MakeField("victim_bytes", "victimBytes", "victims: bytes per victim flow", &C::victimBytes),
        MakeField("window",
                  "window",
                  "the transports' Window: data frames in flight per transfer (0: the "
                  "default, 8; at most 1024)",
                  &C::window),
        MakeField("queue_interval",
                  "queueInterval",
                  "sample every switch port's backlog at this interval into "
                  "FabricRunResult.queues: seconds, or a string such as \"10us\" (0: none)",
                  &C::queueInterval),
        MakeField("flow_rate_interval",
                  "flowRateInterval",
                  "count what every transfer sends per interval of this length into "
                  "FabricRunResult.flow_rates: seconds, or a string such as \"100us\" (0: none)",
                  &C::flowRateInterval),
        MakeField("ack_every",
                  "ackEvery",
                  "the transports' AckEvery: frames acknowledged at a time (1: each, the "
                  "published protocol; up to 65535)",
                  &C::ackEvery),
        MakeField("ack_delay",
                  "ackDelay",
                  "with ack_every above 1, the longest an owed acknowledgement waits: seconds, "
                  "or a string such as \"100us\" (0: the default, 50 us)",
                  &C::ackDelay),
        MakeField("nic",
                  "nic",
                  "the RNICs' NIC profile (NicProfile): \"auto\" (the default: the card of "
                  "host_rate, \"paper-1g\" up to 1 Gb/s; read back as its name), "
                  "\"paper-1g\" (the paper's card), \"25g-pcie3x8\", \"100g-pcie3x16\", "
                  "\"200g-pcie4x16\" or \"400g-pcie5x16\"; host_rate sets the port's rate",
                  &C::nic),
        MakeField("payload", "payload", "payload bytes per data frame, 1 to mtu - 32", &C::payload),
        MakeField("mtu",
                  "mtu",
                  "every port's MTU, RNICs and switches, 46 to 9216 (9000: jumbo frames)",
                  &C::mtu),
        MakeField("ecn_by_rate",
                  "ecnByRate",
                  "ecn: thresholds per port rate, \"RATE:KMIN:KMAX:PMAX,...\" (e.g. "
                  "\"25Gbps:100KB:400KB:0.2\"), in place of ecn_min, ecn_max and ecn_pmax, as "
                  "HPCC's KMIN_MAP, KMAX_MAP and PMAX_MAP (\"\": none)",
                  &C::ecnByRate),
        MakeField("topology_file",
                  "topologyFile",
                  "a topology file of HPCC's simulator (topology.txt), instead of topology, its "
                  "counts, host_rate and fabric_rate (\"\": none)",
                  &C::topologyFile),
        MakeField("flow_file",
                  "flowFile",
                  "a flow file of HPCC's simulator (flow.txt), instead of the workload (\"\": "
                  "none)",
                  &C::flowFile),
        MakeField("fct_file",
                  "fctFile",
                  "write the successful transfers here as HPCC's fct.txt (\"\": none)",
                  &C::fctFile),
        MakeField("pfc_file",
                  "pfcFile",
                  "write every pause and resume a port received here as HPCC's pfc.txt "
                  "(lossless; \"\": none)",
                  &C::pfcFile),
        MakeField("qlen_file",
                  "qlenFile",
                  "write the queue samples (queue_interval) here as HPCC's queue-length "
                  "histograms (\"\": none)",
                  &C::qlenFile),
        MakeField("defaults",
                  "defaults",
                  "ns-3 attribute defaults for the run, e.g. "
                  "{\"ns3::DrpDcqcn::RateAi\": \"10Mbps\"} (not those the scenario sets "
                  "itself)",
                  &C::defaults),
    };
    return fields;
}

/**
 * Sets fields from keyword arguments.
 * \param config the configuration
 * \param kwargs parameter names and values
 */
template <typename C>
void
Assign(C& config, const py::kwargs& kwargs)
{
    for (auto [key, value] : kwargs)
    {
        std::string name = py::cast<std::string>(key);
        const auto& fields = Fields<C>();
        auto field = std::find_if(fields.begin(), fields.end(), [&name](const Field<C>& f) {
            return name == f.name;
        });
        if (field == fields.end())
        {
            std::string valid;
            for (const auto& f : fields)
            {
                valid += (valid.empty() ? "" : ", ") + std::string(f.name);
            }
            throw py::type_error("unknown parameter '" + name + "'; valid: " + valid);
        }
        field->set(config, value);
    }
}

/**
 * \param config the configuration
 * \return its fields by Python name
 */
template <typename C>
py::dict
ToDict(const C& config)
{
    py::dict dict;
    for (const auto& field : Fields<C>())
    {
        dict[field.name] = field.get(config);
    }
    // The profile that runs, so that a run's identity names its card ("auto"
    // reads back as the card of the rate); an invalid name reads back as given.
    try
    {
        dict["nic"] = config.GetNic();
    }
    catch (const std::invalid_argument&)
    {
    }
    return dict;
}

/**
 * \param message a message of DrpScenario::Config::Validate()
 * \return the message with every parameter in its Python name (lossModel is
 * loss_model), wherever it names one as a whole word
 */
template <typename C>
std::string
PythonNames(std::string message)
{
    auto isWord = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (const auto& field : Fields<C>())
    {
        std::string cxx = field.cxxName;
        if (cxx == field.name)
        {
            continue;
        }
        for (auto at = message.find(cxx); at != std::string::npos; at = message.find(cxx, at))
        {
            bool whole = (at == 0 || !isWord(message[at - 1])) &&
                         (at + cxx.size() == message.size() || !isWord(message[at + cxx.size()]));
            if (whole)
            {
                message.replace(at, cxx.size(), field.name);
                at += std::string(field.name).size();
            }
            else
            {
                at += cxx.size();
            }
        }
    }
    return message;
}

/**
 * Validates a configuration: DrpScenario::Config::Validate() (which also
 * checks attribute defaults ns-3 would end the process on) with its message
 * in Python names. Call it
 * with g_simulatorMutex held: checking object-factory values creates objects.
 * \param config the configuration
 */
template <typename C>
void
Validate(const C& config)
{
    try
    {
        config.Validate();
    }
    catch (const std::invalid_argument& e)
    {
        throw py::value_error(PythonNames<C>(e.what()));
    }
}

/**
 * \param rows one value per row (transfer records, fabric transfers, ports, buckets)
 * \param value the column's value of a row
 * \return the column as an array
 */
template <typename T, typename V, typename F>
py::array_t<T>
NumberColumn(const std::vector<V>& rows, F value)
{
    py::array_t<T> column(rows.size());
    auto out = column.template mutable_unchecked<1>();
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        out(i) = value(rows[i]);
    }
    return column;
}

/**
 * \param rows one value per row
 * \param value the column's value of a row
 * \return the column as a list
 */
template <typename V, typename F>
py::list
StringColumn(const std::vector<V>& rows, F value)
{
    py::list column;
    for (const auto& row : rows)
    {
        column.append(value(row));
    }
    return column;
}

/**
 * \param time a time
 * \return it in microseconds, as the CSV of DrpScenario::WriteCsvRows has durations
 */
double
Microseconds(Time time)
{
    return time.GetNanoSeconds() / 1000.0;
}

/**
 * \param result an experiment's result
 * \return its records as columns, its counters, its configuration and the module version
 */
py::dict
ToDict(const DrpScenario::Result& result)
{
    using R = DrpTransferRecord;
    const auto& records = result.records;
    py::dict columns;
    columns["index"] = NumberColumn<uint32_t>(records, [](const R& r) { return r.index; });
    columns["tid"] = NumberColumn<uint16_t>(records, [](const R& r) { return r.tid; });
    columns["mode"] = StringColumn(records, [](const R& r) { return r.GetModeName(); });
    columns["status"] = StringColumn(records, [](const R& r) { return r.GetStatusName(); });
    columns["requests"] = NumberColumn<uint32_t>(records, [](const R& r) { return r.requests; });
    columns["invalid_replies"] =
        NumberColumn<uint32_t>(records, [](const R& r) { return r.invalidReplies; });
    columns["timeouts"] = NumberColumn<uint32_t>(records, [](const R& r) { return r.timeouts; });
    columns["retransmissions"] =
        NumberColumn<uint32_t>(records, [](const R& r) { return r.retransmissions; });
    columns["start_us"] =
        NumberColumn<double>(records, [](const R& r) { return Microseconds(r.start); });
    columns["end_us"] =
        NumberColumn<double>(records, [](const R& r) { return Microseconds(r.end); });
    columns["duration_us"] =
        NumberColumn<double>(records, [](const R& r) { return Microseconds(r.GetDuration()); });

    py::dict counters;
    counters["corrupt_transfers"] = result.corruptTransfers;
    counters["frames_lost"] = result.framesLost;
    counters["host_drops"] = result.hostDrops;
    counters["drp_drops"] = result.drpDrops;
    counters["buffer_overflows"] = result.bufferOverflows;
    counters["pcie_requests"] = result.pcieRequests;
    counters["ping_replies"] = result.pingReplies;
    counters["simulated_seconds"] = result.simulatedTime.GetSeconds();
    counters["wall_seconds"] = result.wallSeconds;

    py::dict dict;
    dict["params"] = ToDict(result.config);
    dict["columns"] = columns;
    dict["counters"] = counters;
    dict["version"] = DRP_VERSION;
    return dict;
}

/**
 * \param result a fabric experiment's result
 * \return its transfers and ports as columns, its counters, its configuration and the
 *         module version
 */
py::dict
ToDict(const FabricScenario::Result& result)
{
    using T = FabricScenario::Transfer;
    const auto& transfers = result.transfers;
    py::dict columns;
    columns["source"] = NumberColumn<uint32_t>(transfers, [](const T& t) { return t.source; });
    columns["destination"] =
        NumberColumn<uint32_t>(transfers, [](const T& t) { return t.destination; });
    columns["switches"] = NumberColumn<uint32_t>(transfers, [](const T& t) { return t.switches; });
    columns["size"] = NumberColumn<uint32_t>(transfers, [](const T& t) { return t.record.length; });
    columns["start_us"] =
        NumberColumn<double>(transfers, [](const T& t) { return Microseconds(t.record.start); });
    columns["fct_us"] = NumberColumn<double>(transfers, [](const T& t) {
        return Microseconds(t.record.GetDuration());
    });
    columns["ideal_us"] =
        NumberColumn<double>(transfers, [](const T& t) { return Microseconds(t.ideal); });
    columns["slowdown"] =
        NumberColumn<double>(transfers, [](const T& t) { return t.GetSlowdown(); });
    columns["status"] =
        StringColumn(transfers, [](const T& t) { return t.record.GetStatusName(); });
    columns["mode"] = StringColumn(transfers, [](const T& t) { return t.record.GetModeName(); });
    columns["requests"] =
        NumberColumn<uint32_t>(transfers, [](const T& t) { return t.record.requests; });
    columns["invalid_replies"] =
        NumberColumn<uint32_t>(transfers, [](const T& t) { return t.record.invalidReplies; });
    columns["timeouts"] =
        NumberColumn<uint32_t>(transfers, [](const T& t) { return t.record.timeouts; });
    columns["retransmissions"] =
        NumberColumn<uint32_t>(transfers, [](const T& t) { return t.record.retransmissions; });
    columns["cnps"] = NumberColumn<uint32_t>(transfers, [](const T& t) { return t.record.cnps; });

    // The ids HPCC's files give each transfer (FabricScenario::WriteHpccFct()).
    py::dict idColumns;
    idColumns["source_node"] =
        NumberColumn<uint32_t>(transfers, [](const T& t) { return t.sourceNode; });
    idColumns["destination_node"] =
        NumberColumn<uint32_t>(transfers, [](const T& t) { return t.destinationNode; });
    idColumns["source_port"] =
        NumberColumn<uint32_t>(transfers, [](const T& t) { return t.GetSourcePort(); });
    idColumns["flow_id"] = NumberColumn<uint32_t>(transfers, [](const T& t) { return t.flowId; });

    using P = FabricScenario::Port;
    const auto& ports = result.ports;
    py::dict portColumns;
    portColumns["switch"] = NumberColumn<uint32_t>(ports, [](const P& p) { return p.sw; });
    portColumns["port"] = NumberColumn<uint32_t>(ports, [](const P& p) { return p.port; });
    portColumns["frames_out"] =
        NumberColumn<uint64_t>(ports, [](const P& p) { return p.stats.framesOut; });
    portColumns["drops"] =
        NumberColumn<uint64_t>(ports, [](const P& p) { return p.stats.egressDrops; });
    portColumns["peak_frames"] =
        NumberColumn<uint32_t>(ports, [](const P& p) { return p.stats.peakFrames; });
    portColumns["peak_bytes"] =
        NumberColumn<uint64_t>(ports, [](const P& p) { return p.stats.peakBytes; });
    portColumns["ecn_marks"] = NumberColumn<uint64_t>(ports, [](const P& p) { return p.ecnMarks; });
    portColumns["pauses_sent"] =
        NumberColumn<uint64_t>(ports, [](const P& p) { return p.pausesSent; });
    portColumns["pauses_received"] =
        NumberColumn<uint64_t>(ports, [](const P& p) { return p.pausesReceived; });
    portColumns["time_paused_seconds"] =
        NumberColumn<double>(ports, [](const P& p) { return p.timePaused.GetSeconds(); });
    portColumns["headroom_frames"] =
        NumberColumn<uint64_t>(ports, [](const P& p) { return p.headroomFrames; });
    portColumns["peak_ingress_bytes"] =
        NumberColumn<uint32_t>(ports, [](const P& p) { return p.peakIngressBytes; });

    py::dict counters;
    counters["host_count"] = result.hosts;
    counters["switch_count"] = result.switchCount;
    counters["flows"] = result.flows;
    counters["drops"] = result.GetDrops();
    counters["link_drops"] = result.GetDropsIn("link");
    counters["rnic_drops"] = result.GetDropsIn("rnic");
    counters["host_drops"] = result.GetDropsIn("host");
    counters["ecn_marks"] = result.GetEcnMarks();
    counters["cnps"] = result.GetCnps();
    counters["simulated_seconds"] = result.simulatedTime.GetSeconds();
    counters["simulator_end_seconds"] = result.simulatorEnd.GetSeconds();
    counters["events"] = result.events;
    counters["wall_seconds"] = result.wallSeconds;
    counters["pauses_sent"] = result.GetPausesSent();
    counters["pauses_received"] = result.GetPausesReceived();
    counters["time_paused_seconds"] = result.GetTimePaused().GetSeconds();
    counters["rnic_pauses_received"] = result.rnicPausesReceived;
    counters["rnic_time_paused_seconds"] = result.rnicTimePaused.GetSeconds();
    counters["headroom_drops"] = 0;
    counters["shared_buffer_drops"] = 0;
    for (const auto& d : result.drops)
    {
        if (d.reason == "headroom-overflow" || d.reason == "shared-buffer-full")
        {
            counters[d.reason == "headroom-overflow" ? "headroom_drops" : "shared_buffer_drops"] =
                d.frames;
        }
    }
    counters["pfc_storms"] = result.GetPfcStorms();
    counters["peak_buffer_bytes"] = result.peakBufferBytes;

    using D = FabricScenario::DropCount;
    py::dict dropColumns;
    dropColumns["device"] = StringColumn(result.drops, [](const D& d) { return d.device; });
    dropColumns["reason"] = StringColumn(result.drops, [](const D& d) { return d.reason; });
    dropColumns["frames"] =
        NumberColumn<uint64_t>(result.drops, [](const D& d) { return d.frames; });

    using RC = FabricScenario::RateChange;
    py::dict rateColumns;
    rateColumns["time_s"] =
        NumberColumn<double>(result.rates, [](const RC& r) { return r.time.GetSeconds(); });
    rateColumns["source"] =
        NumberColumn<uint32_t>(result.rates, [](const RC& r) { return r.source; });
    rateColumns["tid"] = NumberColumn<uint16_t>(result.rates, [](const RC& r) { return r.tid; });
    rateColumns["rate_bps"] =
        NumberColumn<uint64_t>(result.rates, [](const RC& r) { return r.rate.GetBitRate(); });

    using QS = FabricScenario::QueueSample;
    const auto& samples = result.queues;
    py::dict queueColumns;
    queueColumns["time_s"] =
        NumberColumn<double>(samples, [](const QS& q) { return q.time.GetSeconds(); });
    queueColumns["switch"] = NumberColumn<uint32_t>(samples, [](const QS& q) { return q.sw; });
    queueColumns["port"] = NumberColumn<uint32_t>(samples, [](const QS& q) { return q.port; });
    queueColumns["frames"] = NumberColumn<uint32_t>(samples, [](const QS& q) { return q.frames; });
    queueColumns["bytes"] = NumberColumn<uint32_t>(samples, [](const QS& q) { return q.bytes; });
    queueColumns["busy"] = NumberColumn<bool>(samples, [](const QS& q) { return q.busy; });
    queueColumns["paused"] = NumberColumn<bool>(samples, [](const QS& q) { return q.paused; });

    using FR = FabricScenario::FlowRate;
    const auto& sent = result.flowRates;
    py::dict flowRateColumns;
    flowRateColumns["time_s"] =
        NumberColumn<double>(sent, [](const FR& r) { return r.time.GetSeconds(); });
    flowRateColumns["transfer"] =
        NumberColumn<uint32_t>(sent, [](const FR& r) { return r.transfer; });
    flowRateColumns["source"] = NumberColumn<uint32_t>(sent, [&result](const FR& r) {
        return result.transfers[r.transfer].source;
    });
    flowRateColumns["destination"] = NumberColumn<uint32_t>(sent, [&result](const FR& r) {
        return result.transfers[r.transfer].destination;
    });
    flowRateColumns["bytes"] = NumberColumn<uint64_t>(sent, [](const FR& r) { return r.bytes; });
    flowRateColumns["wire_bytes"] =
        NumberColumn<uint64_t>(sent, [](const FR& r) { return r.wireBytes; });
    const Time interval = result.config.flowRateInterval;
    flowRateColumns["rate_bps"] =
        NumberColumn<double>(sent, [interval](const FR& r) { return r.GetWireRate(interval); });

    using PE = FabricScenario::PfcEvent;
    const auto& events = result.pfcEvents;
    py::dict pfcColumns;
    pfcColumns["time_s"] =
        NumberColumn<double>(events, [](const PE& e) { return e.time.GetSeconds(); });
    pfcColumns["node"] = NumberColumn<uint32_t>(events, [](const PE& e) { return e.node; });
    pfcColumns["switch"] = NumberColumn<bool>(events, [](const PE& e) { return e.isSwitch; });
    pfcColumns["port"] = NumberColumn<uint32_t>(events, [](const PE& e) { return e.port; });
    pfcColumns["class"] = NumberColumn<uint32_t>(events, [](const PE& e) { return e.cls; });
    pfcColumns["pause"] = NumberColumn<bool>(events, [](const PE& e) { return e.pause; });

    py::dict dict;
    dict["params"] = ToDict(result.config);
    dict["columns"] = columns;
    dict["pfc_events"] = pfcColumns;
    dict["ids"] = idColumns;
    dict["ports"] = portColumns;
    dict["queues"] = queueColumns;
    dict["flow_rates"] = flowRateColumns;
    dict["queue_note"] = result.GetQueueNote();
    dict["flows_note"] = result.GetNoFlowsNote();
    dict["rates"] = rateColumns;
    dict["drops"] = dropColumns;
    dict["counters"] = counters;
    dict["version"] = DRP_VERSION;
    return dict;
}

/**
 * Runs one experiment of a scenario (DrpScenario or FabricScenario) in this process.
 * \param kwargs the parameters (the scenario's Config fields); the rest keep their defaults
 * \return ToDict() of the result
 */
template <typename Scenario>
py::dict
Run(const py::kwargs& kwargs)
{
    using C = typename Scenario::Config;
    C config;
    Assign(config, kwargs);
    typename Scenario::Result result;
    {
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(g_simulatorMutex);
        Validate(config);
        // Attribute defaults of an earlier run in this process must not leak into this one.
        ns3::Config::Reset();
        NicProfile::ForgetUserDefaults();
        try
        {
            result = Scenario::Run(config); // destroys the simulator if it throws
        }
        catch (const std::invalid_argument& e)
        {
            // A helper refused a value that Validate() leaves to it (a count, a load).
            throw py::value_error(PythonNames<C>(e.what()));
        }
    }
    return ToDict(result);
}

/**
 * \param config a fabric experiment
 * \return the options of rnic-fabric that run it (FabricConfig.arguments())
 */
std::vector<std::string>
ProgramArguments(const FabricConfig& config)
{
    const FabricConfig defaults;
    std::vector<std::string> arguments;
    for (const auto& field : Fields<FabricConfig>())
    {
        const std::string value = field.text(config);
        if (std::string(field.name) == "defaults" || value == field.text(defaults))
        {
            continue;
        }
        // The files of HPCC's simulator are spelled as its own options are (topology-file).
        std::string option = field.cxxName;
        if (option.size() > 4 && option.compare(option.size() - 4, 4, "File") == 0)
        {
            option = option.substr(0, option.size() - 4) + "-file";
        }
        arguments.push_back("--" + option + "=" + value);
    }
    for (const auto& [name, value] : config.defaults)
    {
        arguments.push_back("--" + name + "=" + value);
    }
    return arguments;
}

/**
 * Binds a configuration type: keyword construction, one property per field,
 * validate(), to_dict() and a repr.
 * \param m the module
 * \param name the Python class name
 * \param doc its documentation
 * \return the class, for methods of its own
 */
template <typename C>
py::class_<C>
BindConfig(py::module_& m, const char* name, const char* doc)
{
    py::class_<C> config(m, name, doc);
    config.def(py::init([](const py::kwargs& kwargs) {
        C c;
        Assign(c, kwargs);
        return c;
    }));
    for (const auto& field : Fields<C>())
    {
        config.def_property(
            field.name,
            py::cpp_function([&field](const C& c) { return field.get(c); }),
            py::cpp_function([&field](C& c, py::handle value) { field.set(c, value); }),
            field.doc);
    }
    config.def(
        "validate",
        [](const C& c) {
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> lock(g_simulatorMutex);
            Validate(c);
        },
        "Raises ValueError naming the first invalid parameter, its value and the valid "
        "range.");
    config.def(
        "to_dict",
        [](const C& c) { return ToDict(c); },
        "Every parameter by name (times in seconds, rates in bit/s).");
    config.def("__repr__", [name](const C& c) {
        std::string text;
        for (auto [key, value] : ToDict(c))
        {
            text += (text.empty() ? "" : ", ") + py::cast<std::string>(key) + "=" +
                    py::cast<std::string>(py::repr(value));
        }
        return std::string(name) + "(" + text + ")";
    });
    return config;
}

} // namespace

PYBIND11_MODULE(_drp, m)
{
    m.doc() = "Bindings of the drp ns-3 module (DrpScenario, FabricScenario); use the package drp.";
    m.attr("__version__") = DRP_VERSION;

    BindConfig<ScenarioConfig>(m,
                               "Config",
                               "DrpScenario::Config: everything an experiment can vary. "
                               "Config(**params) sets the given fields; the others keep the "
                               "paper's defaults.");
    BindConfig<FabricConfig>(m,
                             "FabricConfig",
                             "FabricScenario::Config: everything a fabric experiment can vary. "
                             "FabricConfig(**params) sets the given fields; the others keep "
                             "their defaults (a 9-host star, incast of 64 KiB).")
        .def(
            "host_limit_note",
            [](const FabricConfig& c) {
                py::gil_scoped_release release;
                std::lock_guard<std::mutex> lock(g_simulatorMutex);
                Validate(c);
                return c.GetHostLimitNote();
            },
            "What rnic-fabric says before a run when the RNICs, not the network, limit the "
            "flows (the payload rate they reach and what bounds it); \"\" when the port is the "
            "bound. Raises ValueError for an invalid configuration.")
        .def(
            "arguments",
            [](const FabricConfig& c) { return ProgramArguments(c); },
            "The options of the program rnic-fabric that run this configuration: --option=value "
            "for each parameter not at its default (times in steps of ns-3's resolution, rates "
            "in bit/s, exactly), then --NAME=VALUE for each of defaults.")
        .def(
            "require_carried",
            [](const FabricConfig& c, uint32_t ranks) {
                try
                {
                    if (ranks > 1)
                    {
                        FabricRanks::RequireSupported(c, ranks); // what is carried, too
                    }
                    else
                    {
                        FabricRanks::RequireCarried(c, " in a run by a program");
                    }
                }
                catch (const std::invalid_argument& e)
                {
                    throw py::value_error(PythonNames<FabricConfig>(e.what()));
                }
            },
            py::arg("ranks"),
            "Raises ValueError naming what a run by the program rnic-fabric (over ranks above 1) "
            "cannot do or bring back: topologies other than leaf-spine and fat-tree over ranks, "
            "and what records a run over time.");

    m.def("run",
          &Run<DrpScenario>,
          "run(**params) -> dict\n\n"
          "Runs one experiment (DrpScenario::Run) in this process and returns a dict: "
          "'params' (every parameter), 'columns' (one array or list per record field, one "
          "entry per transfer), 'counters' and 'version'. ns-3's attribute defaults are "
          "reset first, then params['defaults'] applied. Raises TypeError for an unknown "
          "parameter or a wrong type, ValueError for an invalid value.");

    m.def("run_fabric",
          &Run<FabricScenario>,
          "run_fabric(**params) -> dict\n\n"
          "Runs one fabric experiment (FabricScenario::Run) in this process and returns a dict: "
          "'params', 'columns' (one entry per transfer: source, destination, switches, bytes, "
          "start_us, fct_us, ideal_us, slowdown, status, mode, requests, invalid_replies, "
          "timeouts, retransmissions), 'ports' (one entry per switch port that carried "
          "traffic), 'counters' and 'version'. Raises TypeError for an unknown parameter or a "
          "wrong type, ValueError for an invalid value.");

    m.def(
        "read_fabric_result",
        [](const std::string& text, const py::kwargs& kwargs) {
            FabricConfig config;
            Assign(config, kwargs);
            Validate(config);
            FabricScenario::Result result;
            result.config = config;
            try
            {
                FabricRanks::Merge(text, result);
            }
            catch (const std::runtime_error& e)
            {
                throw py::value_error(e.what());
            }
            return ToDict(result);
        },
        py::arg("text"),
        "read_fabric_result(text, **params) -> dict\n\n"
        "The result of a fabric experiment that the program rnic-fabric ran with params "
        "(FabricConfig.arguments()) and wrote with --resultFile (FabricRanks::Pack), as "
        "run_fabric returns it. Raises ValueError for a malformed line.");

    m.def(
        "attribute_number",
        [](const std::string& name, const std::string& text) {
            const auto at = name.rfind("::");
            TypeId tid;
            TypeId::AttributeInformation info;
            if (at == std::string::npos ||
                !TypeId::LookupByNameFailSafe(name.substr(0, at), &tid) ||
                !tid.LookupAttributeByName(name.substr(at + 2), &info))
            {
                throw py::value_error(name + " is not an attribute (ns3::TYPE::NAME)");
            }
            const std::string value =
                text.empty() ? info.initialValue->SerializeToString(info.checker) : text;
            Ptr<AttributeValue> parsed = info.checker->Create();
            if (!parsed->DeserializeFromString(value, info.checker))
            {
                throw py::value_error(name + " = " + value + " is not a valid value");
            }
            if (const auto* rate = dynamic_cast<const DataRateValue*>(PeekPointer(parsed)))
            {
                return double(rate->Get().GetBitRate());
            }
            if (const auto* time = dynamic_cast<const TimeValue*>(PeekPointer(parsed)))
            {
                return time->Get().GetSeconds();
            }
            if (const auto* number = dynamic_cast<const DoubleValue*>(PeekPointer(parsed)))
            {
                return number->Get();
            }
            if (const auto* number = dynamic_cast<const UintegerValue*>(PeekPointer(parsed)))
            {
                return double(number->Get());
            }
            throw py::value_error(name + " is not a rate, time or number");
        },
        py::arg("name"),
        py::arg("text") = "",
        "attribute_number(name, text='') -> float\n\n"
        "An attribute's value as a number in SI units (a DataRate in bit/s, a Time in "
        "seconds, a number as it is): text if given, else the attribute's default.");
    m.def(
        "queue_bytes",
        [](const std::string& text, uint32_t frameBytes) {
            QueueSize size;
            std::istringstream in(text);
            if (!(in >> size))
            {
                throw py::value_error(text + " is not a QueueSize (\"5KB\", \"100p\")");
            }
            return size.GetUnit() == QueueSizeUnit::BYTES ? double(size.GetValue())
                                                          : double(size.GetValue()) * frameBytes;
        },
        py::arg("text"),
        py::arg("frame_bytes"),
        "queue_bytes(text, frame_bytes) -> float\n\n"
        "A QueueSize in bytes (one in packets counts frame_bytes each).");
    m.def(
        "read_hpcc_config",
        [](const std::string& path) {
            HpccConfig hpcc = [&path]() {
                try
                {
                    return HpccConfig::Read(path);
                }
                catch (const std::invalid_argument& e)
                {
                    throw py::value_error(e.what());
                }
            }();
            py::list mappings;
            for (const auto& m : hpcc.GetMappings())
            {
                py::dict row;
                row["key"] = m.key;
                row["value"] = m.value;
                row["line"] = m.line;
                row["drp"] = m.drp;
                mappings.append(row);
            }
            py::dict dict;
            dict["params"] = ToDict(hpcc.GetFabricConfig());
            dict["mappings"] = mappings;
            dict["notes"] = hpcc.GetNotes();
            return dict;
        },
        py::arg("path"),
        "read_hpcc_config(path) -> dict\n\n"
        "Reads a config.txt of HPCC's simulator (HpccConfig::Read) and returns 'params' (the "
        "fabric experiment it describes, run_fabric's parameters), 'mappings' (each key, its "
        "value, line and what it became) and 'notes' (the keys drp does not follow as HPCC's "
        "simulator does). Raises ValueError for a key or value it cannot run.");

    m.def(
        "slowdown_by_size",
        [](const std::vector<uint32_t>& bytes,
           const std::vector<double>& slowdown,
           uint32_t buckets) {
            py::dict columns;
            std::vector<FabricScenario::SizeBucket> rows;
            try
            {
                rows = FabricScenario::GetSlowdownBySize(bytes, slowdown, buckets);
            }
            catch (const std::invalid_argument& e)
            {
                throw py::value_error(e.what());
            }
            using B = FabricScenario::SizeBucket;
            columns["min_bytes"] =
                NumberColumn<uint32_t>(rows, [](const B& b) { return b.minBytes; });
            columns["max_bytes"] =
                NumberColumn<uint32_t>(rows, [](const B& b) { return b.maxBytes; });
            columns["count"] = NumberColumn<uint64_t>(rows, [](const B& b) { return b.count; });
            columns["p50"] = NumberColumn<double>(rows, [](const B& b) { return b.p50; });
            columns["p95"] = NumberColumn<double>(rows, [](const B& b) { return b.p95; });
            columns["p99"] = NumberColumn<double>(rows, [](const B& b) { return b.p99; });
            return columns;
        },
        py::arg("bytes"),
        py::arg("slowdown"),
        py::arg("buckets"),
        "Slowdown by flow size (FabricScenario::GetSlowdownBySize): the transfers sorted by "
        "size, cut into buckets of equal count (one size never in two), with the nearest-rank "
        "p50, p95 and p99 of each. Returns a dict of columns: min_bytes, max_bytes, count, p50, "
        "p95, p99.");

    py::class_<DrpMeanInterval>(m, "MeanInterval", "A sample's mean with its confidence interval.")
        .def_readonly("count", &DrpMeanInterval::count, "sample size")
        .def_readonly("mean", &DrpMeanInterval::mean, "sample mean")
        .def_readonly("stddev", &DrpMeanInterval::stddev, "sample standard deviation (n - 1)")
        .def_readonly("half_width",
                      &DrpMeanInterval::halfWidth,
                      "half width of the interval (0 if count < 2)")
        .def("__repr__", [](const DrpMeanInterval& i) {
            return "MeanInterval(count=" + std::to_string(i.count) +
                   ", mean=" + py::repr(py::float_(i.mean)).cast<std::string>() +
                   ", half_width=" + py::repr(py::float_(i.halfWidth)).cast<std::string>() + ")";
        });
    m.def(
        "mean_interval",
        [](const std::vector<double>& sample, double level) {
            if (!(level > 0 && level < 1))
            {
                throw py::value_error("level = " + std::to_string(level) +
                                      " is out of range (0, 1)");
            }
            return DrpMeanInterval::Compute(sample, level);
        },
        py::arg("sample"),
        py::arg("level") = 0.95,
        "Mean and Student-t confidence interval of a sample (DrpMeanInterval::Compute).");
}
