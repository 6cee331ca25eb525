/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-config.h"

#include "hpcc-flow-list.h"
#include "hpcc-text-reader.h"
#include "hpcc-topology.h"

#include "ns3/strict-options.h"

#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// What the handlers of the keys share while the file is read.
struct Reading
{
    HpccTextReader& in;                       //!< the file
    FabricScenario::Config& config;           //!< the run being made
    HpccConfig::Mapping* mapping{nullptr};    //!< the key being read
    std::vector<std::string>& notes;          //!< keys not followed as HPCC does
    std::map<std::string, std::string> given; //!< key -> value, as read
    /// KMIN_MAP, KMAX_MAP, PMAX_MAP: rate (bit/s) -> value, and the line of each map
    std::map<std::string, std::map<uint64_t, double>> ecnMaps;
    uint32_t ccMode{1};      //!< CC_MODE (HPCC's default 1, DCQCN)
    uint64_t ackInterval{1}; //!< L2_ACK_INTERVAL

    /// \param drp what the key became
    void Map(const std::string& drp) const
    {
        mapping->drp = drp;
    }

    /// \param why why drp does not follow the key as HPCC's simulator does
    void Note(const std::string& why)
    {
        notes.push_back(mapping->key + " (line " + std::to_string(mapping->line) + "): " + why);
    }

    /**
     * \param value what the reader made of the word it just read
     * \return it, the word recorded as (part of) the key's value
     */
    template <typename T>
    T Record(T value)
    {
        mapping->value += (mapping->value.empty() ? "" : " ") + in.GetWord();
        return value;
    }

    /// \param what the value expected \return the next word
    std::string Word(const std::string& what)
    {
        return Record(in.Word(mapping->key + "'s " + what));
    }

    /// \param max the largest valid value \return the next word as a count
    uint64_t Count(uint64_t max)
    {
        return Record(in.Count(mapping->key, max));
    }

    /// \return the next word as 0 or 1
    bool Flag()
    {
        return Count(1) == 1;
    }

    /// \param min smallest valid \param max largest valid \return the next word as a number
    double Number(double min, double max)
    {
        return Record(in.Number(mapping->key, min, max));
    }

    /// \return the next word as a data rate ("1000Mb/s")
    DataRate Rate()
    {
        return Record(in.Rate(mapping->key));
    }

    /// \param micro microseconds, as HPCC's timers take them \return them as a drp time
    static std::string Micro(double micro)
    {
        std::ostringstream os;
        os << std::llround(micro * 1000) << "ns";
        return os.str();
    }

    /// \param name an attribute \param value its default \return "name = value"
    std::string Default(const std::string& name, const std::string& value)
    {
        config.defaults[name] = value;
        return name + " = " + value;
    }
};

/// A key's handler: reads its value and maps it.
using Handler = std::function<void(Reading&)>;

/// \param why the note \return a handler that reads one word and notes why drp ignores it
Handler
NoteOnly(const std::string& why)
{
    return [why](Reading& r) {
        r.Word("value");
        r.Note(why);
    };
}

/**
 * \param file the option a file key sets
 * \param name its name, as the mapping shows it
 * \return a handler that reads the file's name into the option
 */
Handler
FileKey(std::string FabricScenario::Config::*file, const std::string& name)
{
    return [file, name](Reading& r) {
        r.config.*file = r.Word("file");
        r.Map(name);
    };
}

/// The mapping of a key that was given (by key).
using MappingOf = std::function<HpccConfig::Mapping&(const std::string&)>;

/**
 * The rate keys read into DCQCN's attributes (RATE_AI, MIN_RATE) are
 * another scheme's in HPCC's simulator: its additive step and its floor,
 * both absolute (the scheme's ReferenceRate 0).
 * \param r the reading, at the end of the file
 * \param mappingOf the mapping of a key that was given
 * \param scheme the scheme's TypeId name ("ns3::DrpTimely")
 * \param step the scheme's attribute that RATE_AI sets ("AdditiveStep")
 */
void
MapRateKeys(Reading& r,
            const MappingOf& mappingOf,
            const std::string& scheme,
            const std::string& step)
{
    FabricScenario::Config& config = r.config;
    config.defaults[scheme + "::ReferenceRate"] = "0bps"; // HPCC's rates are absolute
    const std::vector<std::tuple<std::string, std::string, std::string>> keys{
        {"MIN_RATE", "MinRate", "ns3::DrpDcqcn::MinRate"},
        {"RATE_AI", step, "ns3::DrpDcqcn::RateAi"}};
    for (const auto& [key, attribute, read] : keys)
    {
        const std::string name = scheme + "::" + attribute;
        if (key == "MIN_RATE" || r.given.count(key) != 0)
        {
            config.defaults[name] = config.defaults[read]; // MIN_RATE: HPCC's default too
        }
        if (r.given.count(key) != 0)
        {
            mappingOf(key).drp = name + " = " + config.defaults[name];
        }
    }
}

/**
 * CC_MODE 7: RATE_AI and MIN_RATE are TIMELY's step and floor; RATE_HAI is
 * noted (drp's TIMELY steps as the paper does).
 * \param r the reading, at the end of the file
 * \param mappingOf the mapping of a key that was given
 */
void
MapTimely(Reading& r, const MappingOf& mappingOf)
{
    MapRateKeys(r, mappingOf, "ns3::DrpTimely", "AdditiveStep");
    if (r.given.count("RATE_HAI") != 0)
    {
        mappingOf("RATE_HAI").drp = "";
        r.notes.push_back("RATE_HAI (line " + std::to_string(mappingOf("RATE_HAI").line) +
                          "): drp's TIMELY steps HaiThreshold x AdditiveStep in hyper increase, "
                          "as the TIMELY paper does (HPCC's simulator steps RATE_HAI)");
    }
    r.notes.push_back("CC_MODE 7: drp's TIMELY updates once per completion event (a 16 KB "
                      "segment, at most once per MinRtt) as the TIMELY paper does; HPCC's "
                      "simulator updates once per round trip");
}

/**
 * \param min the smallest valid value (a number)
 * \param max the largest valid value
 * \param count true: a whole number from 0 to max
 * \return a handler that reads a number of HPCC's rate control (CC_MODE 3),
 *         kept until the end of the file, when the scheme is known
 */
Handler
HpccKey(double min, double max, bool count)
{
    return [min, max, count](Reading& r) {
        std::ostringstream os;
        if (count)
        {
            os << r.Count(uint64_t(max));
        }
        else
        {
            os << r.Number(min, max);
        }
        r.given[r.mapping->key] = os.str();
    };
}

/**
 * CC_MODE 3: HPCC's keys to DrpHpcc's attributes; RATE_AI and MIN_RATE, read
 * into DCQCN's attributes, are HPCC's step and floor (absolute). With
 * another scheme, HPCC's keys are noted as having no effect.
 * \param r the reading, at the end of the file
 * \param mappingOf the mapping of a key that was given
 */
void
MapHpcc(Reading& r, const MappingOf& mappingOf)
{
    FabricScenario::Config& config = r.config;
    static const std::vector<std::pair<std::string, std::string>> keys{
        {"U_TARGET", "ns3::DrpHpcc::TargetUtilization"},
        {"MI_THRESH", "ns3::DrpHpcc::MaxStage"},
        {"FAST_REACT", "ns3::DrpHpcc::FastReact"}};
    for (const auto& [key, attribute] : keys)
    {
        if (r.given.count(key) == 0)
        {
            continue;
        }
        HpccConfig::Mapping& m = mappingOf(key);
        if (config.cc != "hpcc")
        {
            r.notes.push_back(key + " (line " + std::to_string(m.line) +
                              "): a parameter of HPCC (CC_MODE 3): no effect with CC_MODE " +
                              std::to_string(r.ccMode));
            continue;
        }
        std::string value = r.given[key];
        if (key == "FAST_REACT")
        {
            value = value == "0" ? "false" : "true";
        }
        config.defaults[attribute] = value;
        m.drp = attribute + " = " + value;
    }
    if (config.cc != "hpcc")
    {
        return;
    }
    MapRateKeys(r, mappingOf, "ns3::DrpHpcc", "RateAi");
    r.notes.push_back("CC_MODE 3: drp's HPCC learns each flow's base RTT T from its own "
                      "round trips; HPCC's simulator computes it from the topology");
}

/// \return every key HPCC's third.cc reads, with its handler
const std::map<std::string, Handler>&
Handlers()
{
    const std::string hpccOnly = "a parameter of HPCC's variants (MULTI_RATE, SAMPLE_FEEDBACK "
                                 "and HPCC-PINT's), which drp does not have: no effect here";
    const std::string intMulti = "drp's telemetry has HPCC's units (128-byte BYTES, 80-byte "
                                 "QLEN) whatever INT_MULTI says";
    const std::string trace = "HPCC's packet trace is not written: drp writes pcap files "
                              "(rnic-fabric --pcap=PREFIX)";
    const std::string unused =
        "not used by HPCC's simulator either: the topology file gives each link's";
    const std::string wholeRun =
        "drp samples the whole run, every queueInterval (drp-hpcc-config --queueInterval)";
    const std::string window = "HPCC's window of one bandwidth-delay product is not modelled: "
                               "drp's transports keep their Window (8 frames, "
                               "rnic-fabric --window)";
    static const std::map<std::string, Handler> handlers{
        {"ENABLE_QCN",
         [](Reading& r) {
             r.config.ecn = r.Flag();
             r.Map("ecn");
         }},
        {"USE_DYNAMIC_PFC_THRESHOLD",
         [](Reading& r) {
             r.config.threshold = r.Flag() ? "dynamic" : "static";
             r.Map("threshold = " + r.config.threshold);
         }},
        {"CLAMP_TARGET_RATE",
         [](Reading& r) {
             if (!r.Flag())
             {
                 r.Note("drp's DCQCN sets the target rate to the current rate at every cut, as "
                        "CLAMP_TARGET_RATE 1; 0 (only after an increase) is not modelled");
             }
             r.Map("DrpDcqcn's cut");
         }},
        {"PAUSE_TIME",
         NoteOnly("drp's ports pause for PfcPauseQuanta (65535 quanta, refreshed at half) and "
                  "resume with an XON, as HPCC's switches resume")},
        {"DATA_RATE", NoteOnly(unused)},
        {"LINK_DELAY", NoteOnly(unused)},
        {"PACKET_PAYLOAD_SIZE",
         [](Reading& r) {
             r.config.payload = static_cast<uint32_t>(r.Count(9184));
             r.Map("payload");
         }},
        {"L2_CHUNK_SIZE",
         NoteOnly("go-back-N in chunks is HPCC's NIC's: drp's transport re-sends what its "
                  "timers and acknowledgements say is lost")},
        {"L2_ACK_INTERVAL",
         [](Reading& r) {
             r.ackInterval = r.Count(UINT32_MAX);
             r.Map("ackEvery");
         }},
        {"L2_BACK_TO_ZERO",
         NoteOnly("go-back-N's restart from zero is HPCC's NIC's, not drp's transport's")},
        {"TOPOLOGY_FILE", FileKey(&FabricScenario::Config::topologyFile, "topologyFile")},
        {"FLOW_FILE", FileKey(&FabricScenario::Config::flowFile, "flowFile")},
        {"TRACE_FILE", NoteOnly(trace)},
        {"TRACE_OUTPUT_FILE", NoteOnly(trace)},
        {"ENABLE_TRACE", NoteOnly(trace)},
        {"SIMULATOR_STOP_TIME",
         [](Reading& r) {
             r.Number(0, 1e9);
             r.Note("drp runs until every flow has ended (transfers never hang): flows that "
                    "HPCC's run would cut off end here too, and appear in fct.txt");
         }},
        {"ALPHA_RESUME_INTERVAL",
         [](Reading& r) {
             r.Map(r.Default("ns3::DrpDcqcn::AlphaInterval", Reading::Micro(r.Number(0, 1e9))));
         }},
        {"RP_TIMER",
         [](Reading& r) {
             r.Map(r.Default("ns3::DrpDcqcn::IncreaseInterval", Reading::Micro(r.Number(0, 1e9))));
         }},
        {"EWMA_GAIN",
         [](Reading& r) {
             const double g = r.Number(0, 1);
             std::ostringstream os;
             os << g;
             // DCQCN's g, or DCTCP's: the scheme is known at the end (CC_MODE may come later).
             r.given["EWMA_GAIN"] = os.str();
             r.Map("G of the scheme (ns3::DrpDcqcn::G or ns3::DrpDctcp::G)");
         }},
        {"FAST_RECOVERY_TIMES",
         [](Reading& r) {
             r.Map(r.Default("ns3::DrpDcqcn::FastRecoverySteps", std::to_string(r.Count(1000))));
         }},
        {"RATE_AI",
         [](Reading& r) {
             r.Map(r.Default("ns3::DrpDcqcn::RateAi", drp::ShowDataRate(r.Rate())));
             r.given["RATE_AI"] = "1";
         }},
        {"RATE_HAI",
         [](Reading& r) {
             r.Map(r.Default("ns3::DrpDcqcn::RateHai", drp::ShowDataRate(r.Rate())));
             r.given["RATE_HAI"] = "1";
         }},
        {"MIN_RATE",
         [](Reading& r) {
             r.Map(r.Default("ns3::DrpDcqcn::MinRate", drp::ShowDataRate(r.Rate())));
             r.given["MIN_RATE"] = "1";
         }},
        {"RATE_DECREASE_INTERVAL",
         [](Reading& r) {
             r.Map(r.Default("ns3::DrpTransport::CnpInterval", Reading::Micro(r.Number(0, 1e6))));
             r.Note("HPCC's reaction point cuts at most once per interval; drp's notification "
                    "point sends at most one CNP per interval (DCQCN's own place for it), which "
                    "paces the cuts alike");
         }},
        {"ERROR_RATE_PER_LINK",
         [](Reading& r) {
             if (r.Number(0, 1) > 0)
             {
                 throw r.in.Error("ERROR_RATE_PER_LINK above 0 is not supported: give each "
                                  "link's error rate in the topology file");
             }
             r.Map("no loss on links whose error rate is 0");
         }},
        {"CC_MODE",
         [](Reading& r) {
             r.ccMode = static_cast<uint32_t>(r.Count(UINT32_MAX));
             if (r.ccMode == 10)
             {
                 throw r.in.Error("CC_MODE 10 is HPCC-PINT, which drp does not have yet (drp "
                                  "has 1, DCQCN, 3, HPCC, 7, TIMELY, and 8, DCTCP)");
             }
             static const std::map<uint32_t, std::string> schemes{{1, "dcqcn"},
                                                                  {3, "hpcc"},
                                                                  {7, "timely"},
                                                                  {8, "dctcp"}};
             auto scheme = schemes.find(r.ccMode);
             if (scheme == schemes.end())
             {
                 throw r.in.Error("CC_MODE " + std::to_string(r.ccMode) +
                                  " is no scheme of HPCC's simulator that drp has (1: DCQCN, "
                                  "3: HPCC, 7: TIMELY, 8: DCTCP)");
             }
             r.config.cc = scheme->second;
             r.Map("cc = " + r.config.cc);
         }},
        {"FCT_OUTPUT_FILE", FileKey(&FabricScenario::Config::fctFile, "fctFile")},
        {"PFC_OUTPUT_FILE", FileKey(&FabricScenario::Config::pfcFile, "pfcFile")},
        {"HAS_WIN", NoteOnly(window)},
        {"GLOBAL_T", NoteOnly(window)},
        {"VAR_WIN", NoteOnly(window)},
        {"MI_THRESH", HpccKey(0, 1000, true)},
        {"FAST_REACT", HpccKey(0, 1, true)},
        {"U_TARGET", HpccKey(0.01, 1, false)},
        {"INT_MULTI", NoteOnly(intMulti)},
        {"RATE_BOUND",
         NoteOnly("drp's senders always pace at their scheme's rate (HPCC's RATE_BOUND 1)")},
        {"MULTI_RATE", NoteOnly(hpccOnly)},
        {"SAMPLE_FEEDBACK", NoteOnly(hpccOnly)},
        {"PINT_LOG_BASE", NoteOnly(hpccOnly)},
        {"PINT_PROB", NoteOnly(hpccOnly)},
        {"ACK_HIGH_PRIO",
         [](Reading& r) {
             if (r.Flag())
             {
                 r.Map(r.Default("ns3::RnicNetDevice::DrpControlClass", "7"));
                 r.Note("acknowledgements go in class 7, served first (strict priority); unlike "
                        "HPCC's queue 0 they are lossless, paused with their class");
             }
             else
             {
                 r.Map("acknowledgements with the data (DrpControlClass 3)");
             }
         }},
        {"DCTCP_RATE_AI",
         NoteOnly("HPCC's DCTCP paces a rate; drp's DCTCP (cc = dctcp) is the window scheme of "
                  "the DCTCP paper")},
        {"LINK_DOWN",
         [](Reading& r) {
             const uint64_t time = r.Count(UINT64_MAX / 2);
             const uint64_t a = r.Count(UINT32_MAX);
             const uint64_t b = r.Count(UINT32_MAX);
             if (time != 0 || a != 0 || b != 0)
             {
                 throw r.in.Error("LINK_DOWN " + std::to_string(time) + " " + std::to_string(a) +
                                  " " + std::to_string(b) +
                                  ": link failures are not modelled (\"0 0 0\": none)");
             }
             r.Map("no link failure");
         }},
        {"KMAX_MAP", nullptr},
        {"KMIN_MAP", nullptr},
        {"PMAX_MAP", nullptr},
        {"BUFFER_SIZE",
         [](Reading& r) {
             const double mb = r.Number(0.001, 4000);
             r.config.buffer = std::to_string(std::llround(mb * 1024 * 1024)) + "B";
             r.Map("buffer = " + r.config.buffer);
         }},
        {"QLEN_MON_FILE", FileKey(&FabricScenario::Config::qlenFile, "qlenFile")},
        {"QLEN_MON_START", NoteOnly(wholeRun)},
        {"QLEN_MON_END", NoteOnly(wholeRun)},
    };
    return handlers;
}

/**
 * Reads a KMIN_MAP, KMAX_MAP or PMAX_MAP: N, then N pairs of a rate in bit/s and a value.
 * \param r the reading
 */
void
ReadEcnMap(Reading& r)
{
    auto& map = r.ecnMaps[r.mapping->key];
    const uint64_t n = r.Count(64);
    for (uint64_t i = 0; i < n; ++i)
    {
        const uint64_t rate = r.Count(1000000000000ULL);
        map[rate] = r.mapping->key == "PMAX_MAP" ? r.Number(0, 1) : double(r.Count(4000000));
    }
    r.Map("ecnByRate");
}

/**
 * \param r the reading, at its end
 * \return ecnByRate of the three maps (each rate in all three)
 */
std::string
EcnByRate(Reading& r)
{
    std::set<uint64_t> rates;
    for (const auto& [key, map] : r.ecnMaps)
    {
        for (const auto& [rate, value] : map)
        {
            rates.insert(rate);
        }
    }
    std::ostringstream os;
    for (uint64_t rate : rates)
    {
        for (const char* key : {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"})
        {
            if (r.ecnMaps[key].count(rate) == 0)
            {
                throw r.in.Error(1,
                                 std::string(key) + " has no value for " + std::to_string(rate) +
                                     " bit/s, which another map lists (HPCC's simulator needs "
                                     "all three for each port rate)");
            }
        }
        // HPCC's thresholds are in KB (1000 bytes); it marks above KMIN, always above
        // KMAX: with KMIN = KMAX (DCTCP's step), drp's KMAX one byte higher marks alike.
        const auto kmin = static_cast<uint64_t>(r.ecnMaps["KMIN_MAP"][rate]) * 1000;
        const auto kmax = static_cast<uint64_t>(r.ecnMaps["KMAX_MAP"][rate]) * 1000;
        if (kmin > kmax)
        {
            throw r.in.Error(1,
                             "KMIN_MAP " + std::to_string(kmin / 1000) + " above KMAX_MAP " +
                                 std::to_string(kmax / 1000) + " for " + std::to_string(rate) +
                                 " bit/s");
        }
        os << (os.tellp() > 0 ? "," : "") << drp::ShowDataRate(DataRate(rate)) << ":" << kmin
           << "B:" << std::max(kmax, kmin + 1) << "B:" << r.ecnMaps["PMAX_MAP"][rate];
    }
    return os.str();
}

} // namespace

HpccConfig
HpccConfig::Read(const std::string& path)
{
    HpccTextReader in(path, "config file");
    HpccConfig result;
    FabricScenario::Config& config = result.m_config;
    // HPCC's fabric: PFC everywhere; its defaults where drp's differ.
    config.lossless = true;
    config.ecn = true;
    config.cc = "dcqcn";
    config.payload = 1000;
    config.buffer = std::to_string(16 * 1024 * 1024) + "B";
    config.fctFile = "fct.txt";
    config.pfcFile = "pfc.txt";
    config.defaults["ns3::DrpDcqcn::ReferenceRate"] = "0bps"; // HPCC's rates are absolute
    config.defaults["ns3::DrpDcqcn::ByteCounter"] = "0";      // HPCC's DCQCN has none
    config.defaults["ns3::DrpDcqcn::MinRate"] = "100Mbps";    // HPCC's default
    Reading r{in, config, nullptr, result.m_notes, {}, {}};
    std::map<std::string, uint32_t> seen;
    while (!in.AtEnd())
    {
        const std::string key = in.Word("a key");
        const uint32_t line = in.GetLine();
        auto it = Handlers().find(key);
        if (it == Handlers().end())
        {
            throw in.Error("unknown key \"" + key +
                           "\" (HPCC's simulator would read its value as the next key)");
        }
        if (auto [at, first] = seen.emplace(key, line); !first)
        {
            throw in.Error(key + " is given twice (line " + std::to_string(at->second) +
                           " is the first)");
        }
        result.m_mappings.push_back(Mapping{key, "", line, ""});
        r.mapping = &result.m_mappings.back();
        if (it->second)
        {
            it->second(r);
        }
        else
        {
            ReadEcnMap(r);
        }
    }
    if (config.topologyFile.empty() || config.flowFile.empty())
    {
        throw in.Error(1, "the file names no TOPOLOGY_FILE or no FLOW_FILE");
    }
    if (config.cc == "dcqcn" && (r.given.count("RATE_AI") == 0 || r.given.count("RATE_HAI") == 0))
    {
        throw in.Error(1,
                       "CC_MODE 1 (DCQCN) needs RATE_AI and RATE_HAI, as HPCC's simulator "
                       "does");
    }
    auto mappingOf = [&result](const std::string& key) -> Mapping& {
        for (Mapping& m : result.m_mappings)
        {
            if (m.key == key)
            {
                return m;
            }
        }
        return result.m_mappings.front(); // not reached: only keys seen are asked for
    };
    if (r.given.count("EWMA_GAIN") != 0)
    {
        const std::string g = config.cc == "dcqcn" ? "ns3::DrpDcqcn::G" : "ns3::DrpDctcp::G";
        config.defaults[g] = r.given["EWMA_GAIN"];
        mappingOf("EWMA_GAIN").drp = g + " = " + r.given["EWMA_GAIN"];
    }
    if (config.cc == "dctcp")
    {
        r.notes.push_back("CC_MODE 8: HPCC's DCTCP paces a rate (DCTCP_RATE_AI); drp's is the "
                          "window scheme of the DCTCP paper");
    }
    if (config.cc == "timely")
    {
        MapTimely(r, mappingOf);
    }
    MapHpcc(r, mappingOf);
    // L2_ACK_INTERVAL is in bytes: an acknowledgement per that many in-order bytes.
    if (r.ackInterval > config.payload)
    {
        if (r.ackInterval % config.payload != 0)
        {
            throw in.Error(seen["L2_ACK_INTERVAL"],
                           "L2_ACK_INTERVAL " + std::to_string(r.ackInterval) +
                               " bytes is no whole number of frames of PACKET_PAYLOAD_SIZE " +
                               std::to_string(config.payload));
        }
        config.ackEvery = static_cast<uint32_t>(r.ackInterval / config.payload);
    }
    if (seen.count("L2_ACK_INTERVAL") != 0)
    {
        mappingOf("L2_ACK_INTERVAL").drp = "ackEvery = " + std::to_string(config.ackEvery);
    }
    if (config.ecn && r.ecnMaps.empty())
    {
        throw in.Error(1,
                       "ENABLE_QCN 1 needs KMIN_MAP, KMAX_MAP and PMAX_MAP, as HPCC's "
                       "simulator does");
    }
    if (!r.ecnMaps.empty())
    {
        config.ecnByRate = EcnByRate(r);
    }
    if (!config.qlenFile.empty() && !config.queueInterval.IsStrictlyPositive())
    {
        config.queueInterval = MicroSeconds(10);
    }
    config.Validate(); // the files it names, and the run as a whole
    return result;
}

const FabricScenario::Config&
HpccConfig::GetFabricConfig() const
{
    return m_config;
}

const std::vector<HpccConfig::Mapping>&
HpccConfig::GetMappings() const
{
    return m_mappings;
}

const std::vector<std::string>&
HpccConfig::GetNotes() const
{
    return m_notes;
}

} // namespace ns3
