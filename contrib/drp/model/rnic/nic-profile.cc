/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-profile.h"

#include "ns3/attribute.h"
#include "ns3/drp-header.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/fatal-error.h"
#include "ns3/pcie-link.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

const std::string NicProfile::PAPER = "paper-1g";
const std::string NicProfile::AUTO = "auto";
const std::string NicProfile::TESTBED = "paper-testbed";

namespace
{

// Owners of the settings, as RnicHelper::SetProfile sorts them.
const char* const PORT = "ns3::EthernetNetDevice";
const char* const PCIE = "ns3::PcieLink";
const char* const ENGINE = "ns3::DrpTransport";
const char* const BUFFER = "ns3::IndirectBuffer";
const char* const RNIC = "ns3::RnicNetDevice";
const char* const HOST = "ns3::RdmaHostApplication";

// Sources shared by the profiles of current server RNICs.
const char* const TLP_SOURCE =
    "PCIe Base Specification: a memory write or read completion TLP with a 4-DW header "
    "carries 24 bytes besides its payload (from 3.0 on a 4-byte STP token with the sequence "
    "number, before 3.0 1 + 2 framing and sequence bytes and a 1-byte END; 16-byte header; "
    "4-byte LCRC)";
const char* const MPS_SOURCE = "the Max_Payload_Size that server root complexes configure "
                               "(256 bytes, lspci's MaxPayload of Xeon and EPYC servers)";
const char* const LATENCY_SOURCE =
    "kept from the paper's card: a DMA read then takes 2 x 250 ns plus its transfer, the "
    "0.5 us class that Neugebauer et al. (SIGCOMM 2018, \"Understanding PCIe performance for "
    "end host networking\") measure for small DMA reads on Xeon servers";
const char* const SETUP_SOURCE =
    "0: a current RNIC's DMA engines keep many requests outstanding (PCIe tags: 256 with "
    "8-bit tags, 768 with the 10-bit tags of PCIe 4.0 on), so a request's set-up overlaps the "
    "transfers before it; what each request still costs is its TLP overhead";
const char* const CLOCK_SOURCE =
    "1 GHz: a unit of processing time of 1 ns, so that cycles read as nanoseconds (not a "
    "product's clock)";
const char* const CX5_CYCLES =
    "5 ns per frame: a message rate of 200 million per second, the ConnectX-5 class of "
    "25 and 100 Gb/s RNICs (NVIDIA ConnectX-5 product brief)";
const char* const CX6_CYCLES = "5 ns per frame: 215 million messages per second (4.65 ns, rounded "
                               "up), the ConnectX-6 class of 200 Gb/s RNICs on PCIe 4.0 x16 "
                               "(NVIDIA ConnectX-6 product brief)";
const char* const CX7_CYCLES = "3 ns per frame: 330 to 370 million messages per second, the "
                               "ConnectX-7 class of 400 Gb/s RNICs on PCIe 5.0 x16 (NVIDIA "
                               "ConnectX-7 product brief)";
const char* const WINDOW_SOURCE =
    "the bandwidth-delay product of a 10 us round trip (a three-tier fabric, with PCIe at both "
    "ends) at the line rate in 1 KiB payloads, rounded up to a power of two";
const char* const BUFFER_SOURCE =
    "the paper card's 48 KiB times the line rate in Gb/s: the same 393 us of line rate as "
    "the paper's buffer holds at 1 Gb/s, so that the dynamic method covers the same time of "
    "registration at every speed (decision of ours: no vendor publishes such a buffer; cards "
    "with on-board memory, DPUs among them, hold far more)";
const char* const LIMIT_SOURCE =
    "the responder's buffer Capacity: writes to one responder share it before their valid "
    "replies, so that they do not overrun it (decision of ours; the paper's card sends on, "
    "IndirectLimit 0)";
const char* const PREFETCH_SOURCE =
    "payload reads ahead of the port: a DMA read's round trip (about 0.55 us) at the line rate "
    "in 1 KiB payloads, doubled so that the port never waits for a read, per transfer; twice "
    "that for all transfers together";

/**
 * The settings of a current server RNIC.
 * \param rate the port's rate
 * \param pcie the PCIe link's TLP bandwidth per direction
 * \param pcieSource where that bandwidth comes from
 * \param cycles processing cycles per frame, at 1 GHz
 * \param cyclesSource where they come from
 * \param window data frames in flight per transfer
 * \param prefetchPerTransfer payload reads ahead of the port per transfer
 * \param gbps the port's rate in Gb/s (the indirect buffer's size follows it)
 * \return the settings
 */
std::vector<NicProfile::Setting>
ServerRnic(const std::string& rate,
           const std::string& pcie,
           const std::string& pcieSource,
           const std::string& cycles,
           const std::string& cyclesSource,
           uint32_t window,
           uint32_t prefetchPerTransfer,
           uint64_t gbps)
{
    const std::string buffer = std::to_string(49152 * gbps);
    return {
        {PORT, "DataRate", rate, "the card's port rate"},
        {PCIE, "Bandwidth", pcie, pcieSource},
        {PCIE, "Latency", "250ns", LATENCY_SOURCE},
        {PCIE, "DmaSetupTime", "0ns", SETUP_SOURCE},
        {PCIE, "MaxPayloadSize", "256", MPS_SOURCE},
        {PCIE, "TlpOverhead", "24", TLP_SOURCE},
        {ENGINE, "ClockFrequency", "1000000000", CLOCK_SOURCE},
        {ENGINE, "TxProcessingCycles", cycles, cyclesSource},
        {ENGINE, "RxProcessingCycles", cycles, cyclesSource},
        {ENGINE, "Window", std::to_string(window), WINDOW_SOURCE},
        {ENGINE, "TxPrefetchPerTransfer", std::to_string(prefetchPerTransfer), PREFETCH_SOURCE},
        {ENGINE, "TxPrefetch", std::to_string(2 * prefetchPerTransfer), PREFETCH_SOURCE},
        {BUFFER, "Capacity", buffer, BUFFER_SOURCE},
        {ENGINE, "IndirectLimit", buffer, LIMIT_SOURCE},
    };
}

/// VxWorks' costs on a PowerPC board, as measured for EPICS.
const char* const VXWORKS_SOURCE =
    "VxWorks 5.5 on a PowerPC board (MVME2100): 9 us of interrupt latency and 11 us of "
    "context switch, the medians of Xu and Kraimer, \"Real-time performance of EPICS "
    "IOCcore\" (ICALEPCS 2005); the host hears of it by an interrupt and handles it in a "
    "task. A floor (decision of ours: the stack's and driver's own work is not published for "
    "this board, and counts as nothing more)";

/**
 * The paper's card in the paper's hardware testbed: the card's own values,
 * with the host path and the host of the testbed.
 * \param paper the paper card's settings
 * \return the testbed's settings
 */
std::vector<NicProfile::Setting>
PaperTestbed(std::vector<NicProfile::Setting> settings)
{
    const std::vector<NicProfile::Setting> testbed = {
        {PCIE,
         "Bandwidth",
         "2112Mbps",
         "the host's PCI bus, the narrowest part of the path: 32 bits at 66 MHz (\"maximum "
         "theoretical bandwidth approaches 266 Megabytes per second for the 32-bit "
         "implementation running at 66MHz\", MPC5200B Users Guide Rev. 1, 10.4.1.1)"},
        {PCIE,
         "MaxPayloadSize",
         "128",
         "the Max_Payload_Size every PCIe function supports and the register's default (PCIe "
         "Base Specification, Device Control register): the root complex is a PCIe-to-PCI "
         "bridge, not a server's"},
        {PCIE,
         "TlpOverhead",
         "64",
         "128 bytes cross the PCI bus as four bursts into the MPC5200B target's 32-byte "
         "buffers (\"Three 32-byte buffers\", Users Guide 10.4.5), each with an address "
         "phase, medium DEVSEL decoding (2 clocks, 10.4.5) and a turnaround: 4 clocks of "
         "4 bytes each (decision of ours: the guide does not say that the target disconnects "
         "at each buffer)"},
        {PCIE,
         "Latency",
         "500ns",
         "the card's 250 ns plus a PCI target's initial latency at its limit of 16 clocks "
         "(PCI Local Bus Specification 2.2, 3.5.1.1), 242 ns at 66 MHz, rounded (decision of "
         "ours: the bridge's own latency is not published)"},
        {ENGINE,
         "TxReadBytes",
         "512",
         "a DMA engine reads a region in requests of the Max_Read_Request_Size (Intel's "
         "Avalon-MM DMA for Stratix V FPGAs, the card's, divides \"the original request into "
         "multiple requests ... equal to or smaller than the ... maximum read request size for "
         "read requests\", V-Series Avalon-MM DMA User Guide), 512 bytes by default (PCIe "
         "Base Specification, Device Control register)"},
        {RNIC, "HostPacketTime", "20us", VXWORKS_SOURCE},
        {HOST, "HandlerLatency", "20us", VXWORKS_SOURCE},
    };
    for (const NicProfile::Setting& change : testbed)
    {
        auto same = [&change](const NicProfile::Setting& setting) {
            return setting.typeId == change.typeId && setting.attribute == change.attribute;
        };
        auto it = std::find_if(settings.begin(), settings.end(), same);
        if (it == settings.end())
        {
            settings.push_back(change);
        }
        else
        {
            *it = change;
        }
    }
    return settings;
}

} // namespace

const std::vector<NicProfile>&
NicProfile::All()
{
    static const std::vector<NicProfile> profiles = [] {
        std::vector<NicProfile> all;
        NicProfile paper;
        paper.m_name = PAPER;
        paper.m_description =
            "the paper's card: a Gigabit Ethernet FPGA RNIC behind PCIe 2.0 x4 (the defaults)";
        paper.m_lineRate = DataRate("1Gbps");
        const char* spec =
            "the paper's prototype (drp-scope.rst, \"Modelling decisions and their sources\")";
        paper.m_settings = {
            {PORT, "DataRate", "1Gbps", "Gigabit Ethernet, full duplex: the paper's link"},
            {PCIE, "Bandwidth", "16Gbps", "PCIe 2.0 x4: 4 lanes x 5 GT/s x 8b/10b"},
            {PCIE, "Latency", "250ns", spec},
            {PCIE, "DmaSetupTime", "500ns", spec},
            {PCIE, "MaxPayloadSize", "256", spec},
            {PCIE, "TlpOverhead", "24", TLP_SOURCE},
            {ENGINE, "ClockFrequency", "125000000", "the prototype's 125 MHz system clock"},
            {ENGINE, "TxProcessingCycles", "16", spec},
            {ENGINE, "RxProcessingCycles", "16", spec},
            {ENGINE, "Window", "8", spec},
            {ENGINE, "TxPrefetchPerTransfer", "2", spec},
            {ENGINE, "TxPrefetch", "8", spec},
            {ENGINE, "PayloadSize", "1024", "the paper's experiments: 1024-byte payloads"},
            {BUFFER,
             "Capacity",
             "49152",
             "the dynamic prototype's extra block memory: 393,216 bits = 48 KiB"},
            {ENGINE,
             "IndirectLimit",
             "0",
             "the published protocol: a write sends on in indirect mode; frames the buffer "
             "cannot take are dropped and sent again"},
            {ENGINE,
             "TxReadBytes",
             "0",
             "the paper: the RNIC \"DMA-reads the payload\" of each frame it sends, one "
             "request per frame"},
            {RNIC,
             "HostPacketTime",
             "0ns",
             "the paper's simulation has no traffic but DRP's: other packets cost the host "
             "nothing"},
            {HOST, "HandlerLatency", "2us", spec},
        };
        all.push_back(paper);

        NicProfile testbed = paper;
        testbed.m_name = TESTBED;
        testbed.m_description =
            "the paper's card in its hardware testbed: DMA through a PCIe-to-PCI bridge into "
            "an MPC5200B host (PowerPC at 400 MHz, 32-bit PCI at 66 MHz) under VxWorks";
        testbed.m_settings = PaperTestbed(paper.m_settings);
        all.push_back(testbed);

        auto add = [&all](const std::string& name,
                          const std::string& description,
                          const std::string& rate,
                          std::vector<Setting> settings) {
            NicProfile profile;
            profile.m_name = name;
            profile.m_description = description;
            profile.m_lineRate = DataRate(rate);
            profile.m_settings = std::move(settings);
            all.push_back(profile);
        };
        // TLP bandwidth per direction: lanes x transfer rate x 128b/130b
        // (PCIe 3.0 on), in bit/s rounded to the nearest.
        add("25g-pcie3x8",
            "a 25 Gb/s server RNIC on PCIe 3.0 x8",
            "25Gbps",
            ServerRnic("25Gbps",
                       "63015384615bps",
                       "PCIe 3.0 x8: 8 lanes x 8 GT/s x 128b/130b",
                       "5",
                       CX5_CYCLES,
                       32,
                       4,
                       25));
        add("100g-pcie3x16",
            "a 100 Gb/s server RNIC on PCIe 3.0 x16",
            "100Gbps",
            ServerRnic("100Gbps",
                       "126030769231bps",
                       "PCIe 3.0 x16: 16 lanes x 8 GT/s x 128b/130b",
                       "5",
                       CX5_CYCLES,
                       128,
                       16,
                       100));
        add("200g-pcie4x16",
            "a 200 Gb/s server RNIC on PCIe 4.0 x16",
            "200Gbps",
            ServerRnic("200Gbps",
                       "252061538462bps",
                       "PCIe 4.0 x16: 16 lanes x 16 GT/s x 128b/130b",
                       "5",
                       CX6_CYCLES,
                       256,
                       32,
                       200));
        add("400g-pcie5x16",
            "a 400 Gb/s server RNIC on PCIe 5.0 x16",
            "400Gbps",
            ServerRnic("400Gbps",
                       "504123076923bps",
                       "PCIe 5.0 x16: 16 lanes x 32 GT/s x 128b/130b",
                       "3",
                       CX7_CYCLES,
                       512,
                       64,
                       400));
        return all;
    }();
    return profiles;
}

const NicProfile&
NicProfile::Get(const std::string& name)
{
    for (const NicProfile& profile : All())
    {
        if (profile.m_name == name)
        {
            return profile;
        }
    }
    throw std::invalid_argument("nic = \"" + name +
                                "\" is not a NIC profile; valid: " + GetNamesText());
}

std::vector<std::string>
NicProfile::GetNames()
{
    std::vector<std::string> names;
    for (const NicProfile& profile : All())
    {
        names.push_back(profile.m_name);
    }
    return names;
}

std::string
NicProfile::GetNamesText()
{
    std::string text;
    for (const std::string& name : GetNames())
    {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

const std::string&
NicProfile::GetName() const
{
    return m_name;
}

const std::string&
NicProfile::GetDescription() const
{
    return m_description;
}

DataRate
NicProfile::GetLineRate() const
{
    return m_lineRate;
}

const std::vector<NicProfile::Setting>&
NicProfile::GetSettings() const
{
    return m_settings;
}

std::string
NicProfile::GetValue(const std::string& typeId, const std::string& attribute) const
{
    for (const Setting& setting : m_settings)
    {
        if (setting.typeId == typeId && setting.attribute == attribute)
        {
            return setting.value;
        }
    }
    return "";
}

DataRate
NicProfile::GetDmaRate(uint32_t payload) const
{
    // A PcieLink with the attribute defaults, then the profile's values the
    // user left: the link's own arithmetic of set-up and TLPs.
    Ptr<PcieLink> pcie = CreateObject<PcieLink>();
    for (const Setting& setting : m_settings)
    {
        if (setting.typeId == PCIE && !IsDefaultChanged(setting))
        {
            pcie->SetAttribute(setting.attribute, StringValue(setting.value));
        }
    }
    return pcie->GetDmaRate(payload);
}

std::string
NicProfile::GetEffectiveValue(const std::string& typeId, const std::string& attribute) const
{
    for (const Setting& setting : m_settings)
    {
        if (setting.typeId == typeId && setting.attribute == attribute &&
            !IsDefaultChanged(setting))
        {
            return Canonical(typeId, attribute, setting.value);
        }
    }
    return GetDefault(typeId, attribute);
}

DataRate
NicProfile::GetPortCeiling(DataRate port, uint32_t payload)
{
    return DataRate(
        static_cast<uint64_t>(double(port.GetBitRate()) * payload / GetWireBytes(payload)));
}

uint32_t
NicProfile::GetWireBytes(uint32_t payload)
{
    // DRP header, Ethernet header and FCS (padded to Ethernet's minimum),
    // preamble and SFD, the gap (InterframeGap's default).
    return EthernetNetDevice::PREAMBLE_SFD_SIZE + EthernetNetDevice::HEADER_SIZE +
           std::max(EthernetNetDevice::MIN_PAYLOAD_SIZE, DrpHeader::SIZE + payload) +
           EthernetNetDevice::FCS_SIZE + std::stoul(GetDefault(PORT, "InterframeGap"));
}

NicProfile::Limit
NicProfile::GetLimit(DataRate port, uint32_t payload) const
{
    std::ostringstream os;
    os << port.GetBitRate() / 1e9 << " Gb/s port, " << payload << " payload bytes in "
       << GetWireBytes(payload) << " on the wire per frame";
    Limit limit{GetPortCeiling(port, payload), "port", os.str()};
    const DataRate dma = GetDmaRate(payload);
    if (dma < limit.rate)
    {
        os.str("");
        os << "DMA set-up " << Time(GetEffectiveValue(PCIE, "DmaSetupTime")).As(Time::NS)
           << " and TLPs of " << GetEffectiveValue(PCIE, "MaxPayloadSize") << " + "
           << GetEffectiveValue(PCIE, "TlpOverhead") << " bytes at "
           << DataRate(GetEffectiveValue(PCIE, "Bandwidth")).GetBitRate() / 1e9 << " Gb/s per "
           << payload << "-byte payload";
        limit = {dma, "PCIe", os.str()};
    }
    const DataRate processing(static_cast<uint64_t>(payload * 8.0 * GetFrameRate()));
    if (processing < limit.rate)
    {
        os.str("");
        os << GetProcessingCycles() << " cycles per frame at "
           << std::stod(GetEffectiveValue(ENGINE, "ClockFrequency")) / 1e6 << " MHz";
        limit = {processing, "processing", os.str()};
    }
    return limit;
}

double
NicProfile::GetProcessingCycles() const
{
    return std::max(std::stod(GetEffectiveValue(ENGINE, "TxProcessingCycles")),
                    std::stod(GetEffectiveValue(ENGINE, "RxProcessingCycles")));
}

double
NicProfile::GetFrameRate() const
{
    return std::stod(GetEffectiveValue(ENGINE, "ClockFrequency")) / GetProcessingCycles();
}

const NicProfile&
NicProfile::ForRate(DataRate rate)
{
    const std::vector<NicProfile>& all = All();
    if (rate <= all.front().GetLineRate())
    {
        return all.front();
    }
    for (const NicProfile& profile : all)
    {
        if (profile.GetLineRate() >= rate)
        {
            return profile;
        }
    }
    return all.back();
}

std::string
NicProfile::Resolve(const std::string& name, DataRate rate)
{
    if (name == AUTO)
    {
        return ForRate(rate).GetName();
    }
    try
    {
        return Get(name).GetName();
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(std::string(e.what()) + " (or " + AUTO +
                                    ": the profile of the rate)");
    }
}

namespace
{

/// \return the attribute defaults the user named, with the value given (NoteUserDefault)
std::map<std::string, std::string>&
UserDefaults()
{
    static std::map<std::string, std::string> named;
    return named;
}

} // namespace

void
NicProfile::NoteUserDefault(const std::string& name, const std::string& value)
{
    UserDefaults()[name] = value;
}

void
NicProfile::ForgetUserDefaults()
{
    UserDefaults().clear();
}

bool
NicProfile::IsDefaultChanged(const Setting& setting)
{
    // Named by the user, and still the value named (not reset since).
    auto named = UserDefaults().find(setting.typeId + "::" + setting.attribute);
    if (named != UserDefaults().end() &&
        Canonical(setting.typeId, setting.attribute, named->second) ==
            GetDefault(setting.typeId, setting.attribute))
    {
        return true;
    }
    const std::string paperValue = Get(PAPER).GetValue(setting.typeId, setting.attribute);
    NS_ABORT_MSG_IF(paperValue.empty(),
                    "the paper's card has no value of " << setting.typeId
                                                        << "::" << setting.attribute);
    return GetDefault(setting.typeId, setting.attribute) !=
           Canonical(setting.typeId, setting.attribute, paperValue);
}

namespace
{

/**
 * \param typeId a TypeId name
 * \param attribute one of its attributes
 * \return what TypeId knows of it (aborts if it does not exist)
 */
TypeId::AttributeInformation
Lookup(const std::string& typeId, const std::string& attribute)
{
    TypeId::AttributeInformation info;
    const bool found = TypeId::LookupByName(typeId).LookupAttributeByName(attribute, &info);
    NS_ABORT_MSG_UNLESS(found, typeId << " has no attribute " << attribute);
    return info;
}

} // namespace

std::string
NicProfile::Canonical(const std::string& typeId,
                      const std::string& attribute,
                      const std::string& value)
{
    const TypeId::AttributeInformation info = Lookup(typeId, attribute);
    Ptr<AttributeValue> parsed = info.checker->Create();
    NS_ABORT_MSG_UNLESS(parsed->DeserializeFromString(value, info.checker),
                        typeId << "::" << attribute << " cannot take " << value);
    return parsed->SerializeToString(info.checker);
}

std::string
NicProfile::GetDefault(const std::string& typeId, const std::string& attribute)
{
    const TypeId::AttributeInformation info = Lookup(typeId, attribute);
    return info.initialValue->SerializeToString(info.checker);
}

} // namespace ns3
