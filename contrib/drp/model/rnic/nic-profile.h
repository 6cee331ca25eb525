/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_PROFILE_H
#define NIC_PROFILE_H

#include "ns3/data-rate.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A named RNIC: the attribute values of its port, its DRP engine and
 * its PCIe host interface, each with where the value comes from.
 *
 * drp's attribute defaults describe the paper's card: a Gigabit Ethernet
 * FPGA RNIC behind PCIe 2.0 x4, one frame processed at a time, which moves
 * at most about 7.7 Gb/s whatever its port's rate (its DMA engines spend
 * 500 ns of set-up and 560 ns of TLPs on every 1 KiB payload). A profile
 * names another card as a whole, so that a fabric at 25 to 400 Gb/s measures
 * the network and not that card:
 *
 * - "paper-1g": the paper's card, exactly the attribute defaults (applying it
 *   changes nothing; every published figure uses it);
 * - "paper-testbed": the same card in the paper's hardware testbed: its DMA
 *   crosses a PCIe-to-PCI bridge into an embedded PowerPC host (MPC5200B,
 *   32-bit PCI at 66 MHz) under VxWorks, whose interrupt and task costs are
 *   the host's (RdmaHostHelper::SetProfile applies those);
 * - "25g-pcie3x8", "100g-pcie3x16", "200g-pcie4x16", "400g-pcie5x16": server
 *   RNICs of those port rates behind the host interface such a card has.
 *
 * Profiles are named after what they describe (port rate, PCIe generation and
 * lanes), not after products. RnicHelper::SetProfile() applies one; a
 * setting made after it (SetDeviceAttribute, SetTransportAttribute, ...)
 * overrides that value, and so does an attribute default changed with
 * Config::SetDefault or --ns3::TYPE::NAME on a command line. The docs ("NIC profiles" in
 * drp-host.rst) list every value with its source.
 */
class NicProfile
{
  public:
    /// One attribute value of a profile.
    struct Setting
    {
        std::string typeId;    //!< the object's TypeId name, e.g. "ns3::PcieLink"
        std::string attribute; //!< the attribute's name
        std::string value;     //!< its value, as ns-3 parses it from a string
        std::string source;    //!< where the value comes from, or why it was chosen
    };

    /**
     * \param name a profile's name
     * \return that profile
     * \throws std::invalid_argument for an unknown name, naming the valid ones
     */
    static const NicProfile& Get(const std::string& name);
    /// \return every profile's name, the paper's card first, then by rate
    static std::vector<std::string> GetNames();
    /// \return the names, comma-separated (for help texts and messages)
    static std::string GetNamesText();
    /// The name of the paper's card, the profile of the attribute defaults.
    static const std::string PAPER;
    /// The name of the paper's hardware testbed (its card, host path and host).
    static const std::string TESTBED;
    /// The name that chooses the profile of the port's rate (ForRate()).
    static const std::string AUTO;

    /**
     * The profile that matches a port rate: the paper's card up to 1 Gb/s;
     * above, the slowest server RNIC whose port reaches the rate
     * ("25g-pcie3x8" from 1 to 25 Gb/s, "100g-pcie3x16" to 100 Gb/s, ...);
     * the fastest above 400 Gb/s.
     * \param rate the port's rate
     * \return that profile
     */
    static const NicProfile& ForRate(DataRate rate);
    /**
     * \param name a profile's name, or AUTO
     * \param rate the port's rate
     * \return \p name, or ForRate(rate)'s name for AUTO
     * \throws std::invalid_argument for an unknown name, naming the valid ones
     */
    static std::string Resolve(const std::string& name, DataRate rate);

    /// \return the profile's name
    const std::string& GetName() const;
    /// \return one line on what the profile describes
    const std::string& GetDescription() const;
    /// \return the port's line rate (the highest rate the card runs at)
    DataRate GetLineRate() const;
    /// \return every attribute value of the profile
    const std::vector<Setting>& GetSettings() const;
    /**
     * \param typeId a TypeId name
     * \param attribute an attribute of it
     * \return the profile's value of it, or "" if the profile leaves it at
     *         its default
     */
    std::string GetValue(const std::string& typeId, const std::string& attribute) const;
    /**
     * Whether a setting's attribute no longer has the paper card's value as
     * its default: Config::SetDefault (or --ns3::TYPE::NAME on a command
     * line) changed it, or the user named it (NoteUserDefault(): then also
     * when the value given is the paper card's). Such a default is the
     * user's and wins over every profile (RnicHelper::SetProfile leaves it).
     * \param setting a setting of any profile
     * \return whether its attribute's default was changed
     */
    static bool IsDefaultChanged(const Setting& setting);
    /**
     * Notes that the user set an attribute's default by name (a
     * --ns3::TYPE::NAME option, a scenario's defaults), so that it wins over
     * every profile whatever its value: --ns3::IndirectBuffer::Capacity=49152
     * keeps the paper card's buffer on a server card's profile.
     * \param name the attribute, "ns3::TYPE::NAME" as it is declared
     * \param value the value given (the note holds while the default is it:
     *        a later Config::Reset() ends it)
     */
    static void NoteUserDefault(const std::string& name, const std::string& value);
    /// Forgets every NoteUserDefault() (with Config::Reset(), between runs in one process).
    static void ForgetUserDefaults();
    /**
     * \param typeId a TypeId name
     * \param attribute one of its attributes
     * \param value a value of it, as a string
     * \return the value as the attribute's checker writes it, so that
     *         "1Gbps" and "1000000000bps" compare equal (aborts if the
     *         attribute does not exist or cannot take the value)
     */
    static std::string Canonical(const std::string& typeId,
                                 const std::string& attribute,
                                 const std::string& value);
    /**
     * \param typeId a TypeId name
     * \param attribute one of its attributes
     * \return its default now (Config::SetDefault changes it), as its checker
     *         writes it
     */
    static std::string GetDefault(const std::string& typeId, const std::string& attribute);
    /**
     * The most a DMA engine of the profile's PCIe link moves in payloads of
     * one size: payload / (DmaSetupTime + the payload's TLPs at Bandwidth).
     * The paper's card: 7.73 Gb/s with 1 KiB payloads, whatever its port's
     * rate.
     * \param payload bytes per DMA request
     * \return that rate
     */
    DataRate GetDmaRate(uint32_t payload) const;

    /// What bounds the payload rate of one transfer through a card.
    struct Limit
    {
        DataRate rate;     //!< the most payload per second
        std::string cause; //!< what bounds it: "port", "PCIe" or "processing"
        std::string why;   //!< one line that says how
    };

    /**
     * The most payload per second one RNIC of this profile sends or takes
     * in, and what bounds it: the least of its port (payload over the frame's
     * wire bytes, preamble, SFD and gap included), its PCIe link's DMA
     * engine (GetDmaRate()) and its processing (one frame per
     * TxProcessingCycles or RxProcessingCycles at ClockFrequency, the larger).
     * Attribute defaults changed with Config::SetDefault count as
     * RnicHelper::SetProfile() applies them (the user's value wins); the
     * window and the path's round trip are not part of it.
     * \param port the port's rate
     * \param payload bytes per data frame
     * \return the limit
     */
    Limit GetLimit(DataRate port, uint32_t payload) const;
    /**
     * \return the most frames per second the card's engines process: one per
     *         TxProcessingCycles or RxProcessingCycles (the larger) at
     *         ClockFrequency, the user's changed defaults as GetLimit() counts them
     */
    double GetFrameRate() const;
    /**
     * \param port a port's rate
     * \param payload bytes per data frame
     * \return the line's goodput ceiling: port x payload / GetWireBytes(payload)
     */
    static DataRate GetPortCeiling(DataRate port, uint32_t payload);
    /**
     * \param payload bytes per data frame
     * \return the bytes a DRP data frame takes on the wire: payload, DRP
     *         header (32), Ethernet header and FCS (18; padded to Ethernet's
     *         64-byte minimum), preamble and SFD (8), InterframeGap (12 by
     *         default): payload + 70 from 14 bytes on
     */
    static uint32_t GetWireBytes(uint32_t payload);
    /**
     * \param typeId a TypeId name
     * \param attribute an attribute of it
     * \return the value RnicHelper::SetProfile() gives it: the profile's,
     *         unless the user changed the default (then the default), or the
     *         default if the profile has none
     */
    std::string GetEffectiveValue(const std::string& typeId, const std::string& attribute) const;

  private:
    /// \return the larger of TxProcessingCycles and RxProcessingCycles, as GetLimit() counts them
    double GetProcessingCycles() const;
    /// \return every profile, the paper's card first
    static const std::vector<NicProfile>& All();

    std::string m_name;              //!< the name
    std::string m_description;       //!< what it describes
    DataRate m_lineRate;             //!< the port's rate
    std::vector<Setting> m_settings; //!< its attribute values
};

} // namespace ns3

#endif /* NIC_PROFILE_H */
