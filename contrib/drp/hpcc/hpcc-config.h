/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_CONFIG_H
#define HPCC_CONFIG_H

#include "ns3/fabric-scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A run's settings file of HPCC's simulator (config.txt, read by
 * scratch/third.cc), mapped to the drp fabric experiment that runs it
 * (FabricScenario::Config).
 *
 * The file is a sequence of KEY VALUE pairs (KMAX_MAP, KMIN_MAP and
 * PMAX_MAP: KEY N RATE VALUE ... with N pairs; LINK_DOWN: KEY TIME A B).
 * Each key is either mapped to an option or ns-3 attribute default of
 * the run (GetMappings() says to which), or, where drp has no equivalent,
 * refused or noted by name:
 *
 * - refused (std::invalid_argument with the file, the line and why): an
 *   unknown key (HPCC's simulator would read its value as the next key),
 *   a value that is not what the key takes, a CC_MODE that drp does not
 *   have (10 HPCC-PINT: named) or does not know, a
 *   LINK_DOWN other than "0 0 0", ERROR_RATE_PER_LINK above 0, a file
 *   without TOPOLOGY_FILE or FLOW_FILE;
 * - noted (GetNotes(), one line per key): keys whose settings drp does not
 *   model or models otherwise (the packet trace, the go-back-N chunking,
 *   the window keys, HPCC's scheme's parameters, ...), and
 *   keys that have no effect in HPCC's simulator either (DATA_RATE,
 *   LINK_DELAY).
 *
 * HPCC's fabric is always lossless (PFC on every port, a shared buffer in
 * every switch), so the run is: lossless = true. The doc's mapping table
 * ("Coming from HPCC's simulator") lists every key.
 */
class HpccConfig
{
  public:
    /// One key of the file and what it became.
    struct Mapping
    {
        std::string key;   //!< the key
        std::string value; //!< its value, as written
        uint32_t line{0};  //!< its line
        std::string drp;   //!< what it became in drp ("" when only noted)
    };

    /**
     * Reads and maps a config file. Its TOPOLOGY_FILE and FLOW_FILE are
     * read (and checked) as HPCC's simulator reads them: relative to the
     * current directory.
     * \param path the file
     * \return the mapped configuration
     */
    static HpccConfig Read(const std::string& path);

    /// \return the fabric experiment the file describes
    const FabricScenario::Config& GetFabricConfig() const;
    /// \return every key read, in file order, with what it became
    const std::vector<Mapping>& GetMappings() const;
    /// \return "KEY (line N): why" for every key drp does not follow as HPCC does
    const std::vector<std::string>& GetNotes() const;

  private:
    FabricScenario::Config m_config;  //!< the run
    std::vector<Mapping> m_mappings;  //!< the keys
    std::vector<std::string> m_notes; //!< keys not followed as HPCC does
};

} // namespace ns3

#endif /* HPCC_CONFIG_H */
