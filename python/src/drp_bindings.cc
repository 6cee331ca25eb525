/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Extension module _drp: Python bindings of DrpScenario, the one definition
 * of an experiment. The package drp (python/drp/) wraps it.
 *
 * Parameters keep their C++ meaning under snake_case names (lossModel is
 * loss_model). Every mistake raises a Python exception naming the parameter:
 * TypeError for an unknown parameter or a value of the wrong type,
 * ValueError for a value out of range (DrpScenario::Config::Validate()
 * throws std::invalid_argument, which pybind11 turns into ValueError). Time
 * and object-factory strings are checked here before ns-3 parses them, since
 * ns-3 ends the process on malformed ones.
 */

#include "ns3/config.h"
#include "ns3/drp-scenario.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <mutex>
#include <optional>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sstream>
#include <stdexcept>

namespace py = pybind11;
using namespace ns3;

namespace
{

using ScenarioConfig = DrpScenario::Config;

/// One simulation at a time per process: ns-3's simulator is a singleton.
std::mutex g_simulatorMutex;

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
CheckValue(const std::string& name,
           const TypeId::AttributeInformation& info,
           const std::string& value)
{
    std::string problem = FindFatalValue(info.checker, value);
    if (!problem.empty())
    {
        throw py::value_error("defaults: " + name + " = " + problem);
    }
    try
    {
        if (info.checker->CreateValidValue(StringValue(value)))
        {
            return;
        }
    }
    catch (const std::exception& e) // some parsers throw (Mac48Address: std::stoul)
    {
        problem = std::string(" (") + e.what() + ")";
    }
    if (info.checker->HasUnderlyingTypeInformation())
    {
        problem += "; valid: " + info.checker->GetUnderlyingTypeInformation();
    }
    throw py::value_error("defaults: " + name + " = \"" + value + "\" is not a valid " +
                          info.checker->GetValueTypeName() + problem);
}

/**
 * Checks the attribute defaults of a configuration where ns-3 would end the
 * process rather than throw: values it cannot parse, and attributes named
 * through a subclass (Config::SetDefault, unlike attribute lookup, only sees a
 * class's own attributes). Unknown names are left to
 * DrpScenario::Config::Validate().
 * \param defaults the defaults
 */
void
CheckDefaults(const std::map<std::string, std::string>& defaults)
{
    for (const auto& [name, value] : defaults)
    {
        std::string::size_type colons = name.rfind("::");
        TypeId tid;
        if (colons == std::string::npos ||
            !TypeId::LookupByNameFailSafe(name.substr(0, colons), &tid))
        {
            continue;
        }
        std::string attribute = name.substr(colons + 2);
        for (TypeId owner = tid;; owner = owner.GetParent())
        {
            auto info = FindOwnAttribute(owner, attribute);
            if (info && owner != tid)
            {
                throw py::value_error("defaults: " + name + " is inherited; set " +
                                      owner.GetName() + "::" + attribute + " instead");
            }
            if (info)
            {
                CheckValue(name, *info, value);
            }
            if (info || owner == owner.GetParent())
            {
                break; // found, or not there at all: Validate() says so
            }
        }
    }
}

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
        if (!ParseSeconds(text))
        {
            throw py::value_error(name + " = \"" + text +
                                  "\" is not a time (seconds, or a number with unit s, ms, "
                                  "us, ns, ps, fs, min, h, d or y, e.g. \"1ms\")");
        }
        return Time(text);
    }
    double seconds = FromPython<double>(name, value);
    if (!std::isfinite(seconds) || std::abs(seconds) > 9e9)
    {
        throw py::value_error(name + " = " + py::repr(value).cast<std::string>() +
                              " is not a time in seconds");
    }
    return Seconds(seconds);
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

/// A Config field as Python sees it.
struct Field
{
    const char* name;    //!< Python name
    const char* cxxName; //!< name of the Config member, as Validate() reports it
    const char* doc;     //!< meaning
    std::function<py::object(const ScenarioConfig&)> get; //!< read it
    std::function<void(ScenarioConfig&, py::handle)> set; //!< convert and write it
};

/**
 * \param name Python name
 * \param cxxName C++ name
 * \param doc meaning
 * \param member the Config member
 * \return the field
 */
template <typename T>
Field
MakeField(const char* name, const char* cxxName, const char* doc, T ScenarioConfig::*member)
{
    return Field{name,
                 cxxName,
                 doc,
                 [member](const ScenarioConfig& config) { return ToPython(config.*member); },
                 [name, member](ScenarioConfig& config, py::handle value) {
                     config.*member = FromPython<T>(name, value);
                 }};
}

/// \return every field of DrpScenario::Config, in declaration order
const std::vector<Field>&
Fields()
{
    using C = ScenarioConfig;
    static const std::vector<Field> fields{
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
        MakeField("size", "size", "bytes per transfer", &C::size),
        MakeField("payload", "payload", "payload bytes per data frame", &C::payload),
        MakeField("operation", "operation", "\"write\" or \"read\"", &C::operation),
        MakeField("topology",
                  "topology",
                  "\"p2p\" (one link) or \"line\" (of switches)",
                  &C::topology),
        MakeField("switches", "switches", "line topology: number of switches", &C::switches),
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
        MakeField("verify",
                  "verify",
                  "compare memory byte for byte after each transfer",
                  &C::verify),
        MakeField("defaults",
                  "defaults",
                  "ns-3 attribute defaults for the run, e.g. "
                  "{\"ns3::DrpTransport::HandshakeTimeout\": \"2ms\"}",
                  &C::defaults),
    };
    return fields;
}

/**
 * Sets fields from keyword arguments.
 * \param config the configuration
 * \param kwargs parameter names and values
 */
void
Assign(ScenarioConfig& config, const py::kwargs& kwargs)
{
    for (auto [key, value] : kwargs)
    {
        std::string name = key.cast<std::string>();
        const auto& fields = Fields();
        auto field = std::find_if(fields.begin(), fields.end(), [&name](const Field& f) {
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
py::dict
ToDict(const ScenarioConfig& config)
{
    py::dict dict;
    for (const auto& field : Fields())
    {
        dict[field.name] = field.get(config);
    }
    return dict;
}

/**
 * Validates a configuration: CheckDefaults(), then
 * DrpScenario::Config::Validate() with its message in Python names. Call it
 * with g_simulatorMutex held: checking object-factory values creates objects.
 * \param config the configuration
 */
void
Validate(const ScenarioConfig& config)
{
    CheckDefaults(config.defaults);
    try
    {
        config.Validate();
    }
    catch (const std::invalid_argument& e)
    {
        std::string message = e.what();
        for (const auto& field : Fields())
        {
            std::string prefix = std::string(field.cxxName) + " ";
            if (message.compare(0, prefix.size(), prefix) == 0)
            {
                message = field.name + message.substr(prefix.size() - 1);
                break;
            }
        }
        throw py::value_error(message);
    }
}

/**
 * \param records transfer records
 * \param value the column's value in a record
 * \return the column as an array
 */
template <typename T, typename F>
py::array_t<T>
NumberColumn(const std::vector<DrpTransferRecord>& records, F value)
{
    py::array_t<T> column(records.size());
    auto out = column.template mutable_unchecked<1>();
    for (std::size_t i = 0; i < records.size(); ++i)
    {
        out(i) = value(records[i]);
    }
    return column;
}

/**
 * \param records transfer records
 * \param value the column's value in a record
 * \return the column as a list
 */
template <typename F>
py::list
StringColumn(const std::vector<DrpTransferRecord>& records, F value)
{
    py::list column;
    for (const auto& record : records)
    {
        column.append(value(record));
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
 * Runs one experiment in this process.
 * \param kwargs the parameters (DrpScenario::Config fields); the rest keep their defaults
 * \return ToDict() of the result
 */
py::dict
Run(const py::kwargs& kwargs)
{
    ScenarioConfig config;
    Assign(config, kwargs);
    DrpScenario::Result result;
    {
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(g_simulatorMutex);
        Validate(config);
        // Attribute defaults of an earlier run in this process must not leak into this one.
        ns3::Config::Reset();
        try
        {
            result = DrpScenario::Run(config);
        }
        catch (...)
        {
            Simulator::Destroy(); // leave the simulator clean for the next run
            throw;
        }
    }
    return ToDict(result);
}

} // namespace

PYBIND11_MODULE(_drp, m)
{
    m.doc() = "Bindings of the drp ns-3 module (DrpScenario); use the package drp.";
    m.attr("__version__") = DRP_VERSION;

    py::class_<ScenarioConfig> config(m,
                                      "Config",
                                      "DrpScenario::Config: everything an experiment can vary. "
                                      "Config(**params) sets the given fields; the others keep "
                                      "the paper's defaults.");
    config.def(py::init([](const py::kwargs& kwargs) {
        ScenarioConfig c;
        Assign(c, kwargs);
        return c;
    }));
    for (const auto& field : Fields())
    {
        config.def_property(
            field.name,
            py::cpp_function([&field](const ScenarioConfig& c) { return field.get(c); }),
            py::cpp_function(
                [&field](ScenarioConfig& c, py::handle value) { field.set(c, value); }),
            field.doc);
    }
    config.def(
        "validate",
        [](const ScenarioConfig& c) {
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> lock(g_simulatorMutex);
            Validate(c);
        },
        "Raises ValueError naming the first invalid parameter, its value and the valid "
        "range.");
    config.def(
        "to_dict",
        [](const ScenarioConfig& c) { return ToDict(c); },
        "Every parameter by name (ping_interval in seconds).");
    config.def("__repr__", [](const ScenarioConfig& c) {
        std::string text;
        for (auto [key, value] : ToDict(c))
        {
            text += (text.empty() ? "" : ", ") + key.cast<std::string>() + "=" +
                    py::repr(value).cast<std::string>();
        }
        return "Config(" + text + ")";
    });

    m.def("run",
          &Run,
          "run(**params) -> dict\n\n"
          "Runs one experiment (DrpScenario::Run) in this process and returns a dict: "
          "'params' (every parameter), 'columns' (one array or list per record field, one "
          "entry per transfer), 'counters' and 'version'. ns-3's attribute defaults are "
          "reset first, then params['defaults'] applied. Raises TypeError for an unknown "
          "parameter or a wrong type, ValueError for an invalid value.");

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
