/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_FUZZ_H
#define DRP_FUZZ_H

/**
 * \file
 * The core of the structure-aware DRP fuzzer: one simulation run in which
 * three hosts share an Ethernet switch, host A runs an honest RDMA workload
 * to host B, and fuzzed DRP frames (built from the header's grammar, or
 * mutated from the honest frames on the wire) enter the switch from all
 * three ports, with real and forged source MAC addresses, while the
 * transfers are under way. After the run, FuzzRun checks:
 *
 * - memory: every byte of the watched ranges (every range a fuzzed frame
 *   names, the neighbourhoods of the workload's regions, the bottom and the
 *   top 64 KiB of the address space) that lies outside every region ever
 *   registered on its host is unchanged;
 * - end: the simulation finished by itself (no event left), every honest
 *   transfer ended, no RNIC still holds an initiated transfer;
 * - bytes: every successful honest transfer that no fuzzed frame could
 *   legitimately touch (see FuzzRun::IsTainted) has identical regions;
 * - accounting, per RNIC: every fuzzed frame handed up by the RNIC's port
 *   (MacRx, unicast to the RNIC) reached its transport (Rx) exactly once;
 *   each received frame is dropped at most once, on arrival or (buffered
 *   data only) later; the transport's drop counters equal the Drop trace per
 *   reason; frames the header grammar alone condemns are dropped for that
 *   reason (MALFORMED, BAD_LENGTH), and no honest frame is.
 *
 * Every random choice comes from one ns-3 UniformRandomVariable on a fixed
 * stream, so a run is replayed from its seed and run number.
 */

#include "ns3/double.h"
#include "ns3/drp-header.h"
#include "ns3/drp-int-header.h"
#include "ns3/drp-transport.h"
#include "ns3/ethernet-helper.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/host-memory.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-line-helper.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdint>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{
namespace drpfuzz
{

/// What one run does.
struct FuzzConfig
{
    std::string method{"dynamic"};     //!< traditional or dynamic RNICs
    std::string operation{"write"};    //!< the honest workload: write or read
    uint32_t frames{2000};             //!< fuzzed frames to inject
    Time simulationLimit{Seconds(30)}; //!< a run still busy then has hung
};

/// What one run found.
struct FuzzResult
{
    uint64_t injected{0};     //!< frames handed to a port
    uint64_t refused{0};      //!< frames a port refused (queue full, over the MTU)
    uint64_t reached{0};      //!< fuzzed frames that reached a transport (Rx)
    uint64_t taken{0};        //!< fuzzed frames a transport did not drop on arrival
    uint64_t fromMutation{0}; //!< fuzzed frames mutated from captured honest frames
    uint32_t transfers{0};    //!< honest transfers
    uint32_t succeeded{0};    //!< of which successful
    uint32_t compared{0};     //!< successful and untainted: regions compared
    uint32_t forged{0};       //!< successful, tainted, and different (forged peer frames)
    uint64_t watchedBytes{0}; //!< bytes of memory compared
    std::array<uint64_t, DrpTransport::DROP_REASONS> drops{}; //!< all RNICs, per reason
    std::vector<std::string> violations; //!< what failed (empty: the run passed)
};

/**
 * \return the frame's bytes as hex
 * \param bytes the frame
 */
inline std::string
Hex(const std::vector<uint8_t>& bytes)
{
    std::ostringstream os;
    os << std::hex << std::setfill('0');
    for (uint8_t b : bytes)
    {
        os << std::setw(2) << unsigned(b);
    }
    return os.str();
}

/**
 * One fuzzing run: builds the topology, injects the frames, runs the
 * simulation to its end, and checks the invariants. Construct, call Run()
 * once; the caller sets the seed and run number (RngSeedManager) before.
 */
class FuzzRun
{
  public:
    /// \param config what to do
    explicit FuzzRun(const FuzzConfig& config)
        : m_config(config)
    {
    }

    /// Builds, runs and checks. \return what it found
    FuzzResult Run()
    {
        Build();
        ScheduleInjections();
        Simulator::Stop(m_config.simulationLimit);
        Simulator::Run();
        // The stop event is the last one of a run that ended by itself.
        const bool finished = Simulator::IsFinished();
        Check(finished);
        Simulator::Destroy();
        return m_result;
    }

  private:
    /// Hosts: 0 = A (initiator), 1 = B (responder), 2 = C (third party).
    static constexpr uint32_t HOSTS = 3;
    /// Bytes of a range named by a frame that are watched, at most.
    static constexpr uint32_t WATCH_SPAN = 2048;
    /// Bytes watched around the workload's regions and at each end of memory.
    static constexpr uint64_t MARGIN = 65536;
    /// Captured honest frames kept for mutation.
    static constexpr size_t CAPTURED = 64;

    /// A fuzzed frame's record, by packet uid.
    struct Injected
    {
        uint32_t index{0};           //!< frame number in the run
        uint32_t port{0};            //!< the host whose port sent it
        Mac48Address source;         //!< source MAC address it carries
        uint32_t destination{HOSTS}; //!< host it is addressed to (HOSTS: none of them)
        int expected{-1};            //!< drop reason the grammar alone implies (-1: none)
        bool wellFormed{false};      //!< has a whole, well-formed header
        DrpHeader header;            //!< its header, if wellFormed
        std::vector<uint8_t> bytes;  //!< the frame (DRP header and payload)
    };

    /// The frame a transport received last, until its fate is known.
    struct Pending
    {
        Ptr<const Packet> frame;       //!< the frame
        const Injected* fuzz{nullptr}; //!< its record, if fuzzed
        Time at;                       //!< when it was received
        bool dropped{false};           //!< dropped on arrival
        int reason{-1};                //!< why
    };

    /// A saved copy of a range of one host's memory.
    struct Snapshot
    {
        uint32_t host;              //!< whose memory
        uint64_t address;           //!< first byte
        std::vector<uint8_t> bytes; //!< the bytes then
    };

    /// Per-RNIC counts.
    struct Counts
    {
        uint64_t macRxFuzz{0};    //!< fuzzed frames handed up by the port, unicast to it
        uint64_t rx{0};           //!< frames the transport received
        uint64_t rxFuzz{0};       //!< of which fuzzed
        uint64_t taken{0};        //!< not dropped on arrival
        uint64_t arrivalDrops{0}; //!< dropped on arrival
        uint64_t laterDrops{0};   //!< dropped later (buffered data)
        std::array<uint64_t, DrpTransport::DROP_REASONS> traced{}; //!< Drop trace per reason
    };

    /// Records a violation.
    void Fail(const std::string& what)
    {
        if (m_result.violations.size() < 20)
        {
            m_result.violations.push_back(what);
        }
    }

    /// \return a uniform integer in [lo, hi]
    uint64_t Pick(uint64_t lo, uint64_t hi)
    {
        if (hi - lo <= UINT32_MAX)
        {
            return lo + m_rv->GetInteger(0, uint32_t(hi - lo));
        }
        uint64_t v =
            (uint64_t(m_rv->GetInteger(0, UINT32_MAX)) << 32) | m_rv->GetInteger(0, UINT32_MAX);
        return hi - lo == UINT64_MAX ? v : lo + v % (hi - lo + 1);
    }

    /// \return true with probability \p p
    bool Chance(double p)
    {
        return m_rv->GetValue(0, 1) < p;
    }

    /**
     * \param bytes a frame
     * \param at offset of a big-endian field
     * \param size its bytes (at most 8)
     * \return its value
     */
    static uint64_t Field(const std::vector<uint8_t>& bytes, size_t at, size_t size)
    {
        uint64_t v = 0;
        for (size_t i = 0; i < size; ++i)
        {
            v = v << 8 | bytes[at + i];
        }
        return v;
    }

    /// Builds hosts, switch, workload and traces.
    void Build()
    {
        m_rv = CreateObject<UniformRandomVariable>();
        m_rv->SetStream(1000);
        // The honest workload of this run: its shape is drawn too.
        m_transfers = uint32_t(Pick(4, 16));
        m_size = uint32_t(Pick(1, 4)) == 1 ? uint32_t(Pick(1, 4096)) : uint32_t(Pick(4096, 65536));
        m_concurrency = uint32_t(Pick(1, 4));
        const double frp = Chance(0.3) ? 0.3 : 0.0;
        // In a third of the runs, frames that carry a peer's own address
        // spare the workload's TIDs and regions, so that every successful
        // honest transfer's bytes can be checked (within the trust model,
        // such a frame may write a live transfer's region or end it); the
        // other runs hammer the live transfers.
        m_spareLive = Chance(1.0 / 3);

        RnicHelper rnic;
        rnic.SetMethod(m_config.method);
        rnic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        EthernetHelper trunk;
        SwitchLineHelper line(1, HOSTS, rnic, trunk);
        RdmaHostHelper hostHelper;
        hostHelper.SetAttribute("TransferSize", UintegerValue(m_size));
        hostHelper.SetAttribute("Concurrency", UintegerValue(m_concurrency));
        hostHelper.SetAttribute("Operation", StringValue(m_config.operation));
        hostHelper.SetAttribute("RegistrationFailureProbability", DoubleValue(frp));
        ApplicationContainer apps;
        for (uint32_t h = 0; h < HOSTS; ++h)
        {
            m_rnics[h] = DynamicCast<RnicNetDevice>(line.GetRnics().Get(h));
            m_macs[h] = Mac48Address::ConvertFrom(m_rnics[h]->GetAddress());
            hostHelper.SetAttribute("Transfers", UintegerValue(h == 0 ? m_transfers : 0));
            apps.Add(hostHelper.Install(line.GetHost(0, h)));
            m_apps[h] = DynamicCast<RdmaHostApplication>(apps.Get(h));
        }
        RdmaHostHelper::SetWorkload(m_apps[0], m_rnics[1]);
        int64_t stream = 0;
        for (uint32_t h = 0; h < HOSTS; ++h)
        {
            stream += m_rnics[h]->AssignStreams(stream);
        }
        stream += RdmaHostHelper::AssignStreams(apps, stream);
        apps.Start(Seconds(0));

        // The workload's regions: slots of one stride at A from 0, at B from
        // (A's node id + 1) << 32 (RdmaHostApplication's memory layout).
        const uint64_t stride = (uint64_t(m_size) + 4095) / 4096 * 4096;
        m_span = stride * m_concurrency;
        m_base[0] = 0;
        m_base[1] = uint64_t(m_rnics[0]->GetNode()->GetId() + 1) << 32;
        // Where a workload of C's would write at a peer: watched as well.
        m_base[2] = uint64_t(m_rnics[2]->GetNode()->GetId() + 1) << 32;

        for (uint32_t h = 0; h < HOSTS; ++h)
        {
            Ptr<HostMemory> memory = m_rnics[h]->GetHostMemory();
            memory->TraceConnectWithoutContext(
                "Registration",
                Callback<void, uint64_t, uint32_t, bool>(
                    [this, h](uint64_t address, uint32_t length, bool registered) {
                        if (registered)
                        {
                            m_everRegistered[h].emplace_back(address, length);
                        }
                    }));
            // Bottom and top of the address space, and the workload's
            // neighbourhoods (at every host: a frame may name them anywhere).
            Watch(h, 0, m_span + MARGIN, true); // A's slots start at 0
            Watch(h, UINT64_MAX - MARGIN + 1, MARGIN, true);
            for (uint32_t b = 0; b < HOSTS; ++b)
            {
                if (m_base[b] >= MARGIN)
                {
                    Watch(h, m_base[b] - MARGIN, m_span + 2 * MARGIN, true);
                }
            }
            Ptr<DrpTransport> transport = m_rnics[h]->GetTransport();
            transport->TraceConnectWithoutContext(
                "Rx",
                Callback<void, Ptr<const Packet>>(
                    [this, h](Ptr<const Packet> frame) { OnRx(h, frame); }));
            transport->TraceConnectWithoutContext(
                "Drop",
                Callback<void, Ptr<const Packet>, DrpTransport::DropReason>(
                    [this, h](Ptr<const Packet> frame, DrpTransport::DropReason reason) {
                        OnDrop(h, frame, reason);
                    }));
            if (h < 2)
            {
                transport->TraceConnectWithoutContext(
                    "Tx",
                    Callback<void, Ptr<const Packet>>(
                        [this](Ptr<const Packet> frame) { Capture(frame); }));
            }
            m_rnics[h]->TraceConnectWithoutContext(
                "MacRx",
                Callback<void, Ptr<const Packet>>([this, h](Ptr<const Packet> frame) {
                    auto it = m_injected.find(frame->GetUid());
                    if (it != m_injected.end() && it->second.destination == h)
                    {
                        ++m_counts[h].macRxFuzz;
                    }
                }));
        }
        m_apps[0]->TraceConnectWithoutContext(
            "TransferComplete",
            Callback<void, const DrpTransferRecord&>([this](const DrpTransferRecord& r) {
                // Compared now: a later transfer in the same slot overwrites the bytes.
                m_records.push_back(r);
                m_differences.push_back(
                    r.status == DrpTransferRecord::SUCCESS
                        ? m_rnics[0]->GetHostMemory()->CountDifferences(r.sba,
                                                                        m_rnics[1]->GetHostMemory(),
                                                                        r.dba,
                                                                        r.length)
                        : 0);
            }));
    }

    /**
     * Saves a range of a host's memory for the comparison after the run.
     * \param host whose memory
     * \param address first byte
     * \param length bytes (the range must not pass 2^64 - 1)
     * \param fixed true for the ranges watched from the start
     */
    void Watch(uint32_t host, uint64_t address, uint64_t length, bool fixed)
    {
        if (!fixed)
        {
            // Watched from the start, or named before: nothing to add.
            for (size_t i = 0; i < m_fixedSnapshots; ++i)
            {
                const Snapshot& s = m_snapshots[i];
                if (s.host == host && address >= s.address &&
                    address - s.address <= s.bytes.size() &&
                    length <= s.bytes.size() - (address - s.address))
                {
                    return;
                }
            }
            if (!m_named.insert({host, address, length}).second)
            {
                return;
            }
        }
        Snapshot s{host, address, std::vector<uint8_t>(length)};
        m_rnics[host]->GetHostMemory()->Read(address, s.bytes.data(), uint32_t(length));
        m_snapshots.push_back(std::move(s));
        if (fixed)
        {
            ++m_fixedSnapshots;
        }
    }

    /**
     * Watches the range a frame names, clipped to WATCH_SPAN bytes and to
     * the end of the address space.
     * \param host whose memory
     * \param address first byte
     * \param length LEN
     */
    void WatchNamed(uint32_t host, uint64_t address, uint32_t length)
    {
        uint64_t span = std::max<uint32_t>(1, std::min<uint32_t>(length, WATCH_SPAN));
        if (UINT64_MAX - address < span - 1)
        {
            span = UINT64_MAX - address + 1; // up to the last byte of the address space
        }
        Watch(host, address, span, false);
    }

    /// Keeps a copy of an honest frame for mutation.
    void Capture(Ptr<const Packet> frame)
    {
        std::vector<uint8_t> bytes(frame->GetSize());
        frame->CopyData(bytes.data(), bytes.size());
        if (m_captured.size() < CAPTURED)
        {
            m_captured.push_back(std::move(bytes));
        }
        else
        {
            // Keeps the pool fresh without deciding anything by chance here:
            // the honest frames' order is itself reproducible.
            m_captured[m_captureNext++ % CAPTURED] = std::move(bytes);
        }
    }

    /// Schedules the injections at random times over the honest workload.
    void ScheduleInjections()
    {
        // About one fuzzed frame per 2 us: a third of the time a data frame
        // of the honest transfers, so that the ports mostly take them.
        const uint64_t window = uint64_t(m_config.frames) * 2000;
        for (uint32_t i = 0; i < m_config.frames; ++i)
        {
            Simulator::Schedule(NanoSeconds(Pick(1000, window)), &FuzzRun::Inject, this, i);
        }
    }

    /// \return a TID: mostly a live one or one of the workload's, sometimes any
    uint16_t PickTid()
    {
        if (!m_captured.empty() && Chance(0.4))
        {
            // The TID of a recent honest frame: most likely a live transfer's.
            const auto& frame = m_captured[Pick(0, m_captured.size() - 1)];
            if (frame.size() >= 4)
            {
                return uint16_t(frame[2] << 8 | frame[3]);
            }
        }
        switch (Pick(0, 9))
        {
        case 0:
            return 0;
        case 1:
            return uint16_t(Pick(0xFFF0, 0xFFFF));
        case 2:
            return uint16_t(Pick(0, 0xFFFF));
        default:
            return uint16_t(Pick(1, m_transfers + 2));
        }
    }

    /**
     * \param base a region's first byte
     * \param len the frame's length
     * \return an address in, at the edges of, outside or wrapping around the region
     */
    uint64_t PickAddress(uint64_t base, uint32_t len)
    {
        const uint64_t end = base + m_span;
        switch (Pick(0, 11))
        {
        case 0:
            return base + Pick(0, m_span);
        case 1:
            return end - std::min<uint64_t>(len, m_span);
        case 2:
            return end - std::min<uint64_t>(len, m_span) + 1;
        case 3:
            return end;
        case 4:
            return base - 1;
        case 5:
            return base - len;
        case 6:
            return UINT64_MAX - Pick(0, 2 * uint64_t(len)); // wraps past 2^64
        case 7:
            return Pick(0, 1 << 20); // bottom of memory
        case 8:
            return Pick(0, UINT64_MAX);
        case 9:
            return base + (uint64_t(Pick(0, 0xFFFF)) << 32);
        default:
            // A frame's own place in a slot: base + slot * stride + sn * 1024.
            return base + Pick(0, m_concurrency - 1) * (m_span / m_concurrency) +
                   Pick(0, (m_size + 1023) / 1024) * 1024;
        }
    }

    /// \return a LEN
    uint32_t PickLength(bool data)
    {
        switch (Pick(0, 9))
        {
        case 0:
            return 0;
        case 1:
            return uint32_t(Pick(0, UINT32_MAX));
        case 2:
            return UINT32_MAX - uint32_t(Pick(0, 2048));
        case 3:
            return m_size;
        case 4:
            return uint32_t(Pick(1, 1500));
        default:
            return data ? (Chance(0.5) ? 1024 : (m_size % 1024 ? m_size % 1024 : 1024)) : m_size;
        }
    }

    /**
     * \param toward the host the frame goes to (HOSTS: none of them)
     * \return a CTRL byte: mostly one a frame toward that end of the
     *         workload carries, sometimes any frame type, sometimes any byte
     */
    uint8_t PickControl(uint32_t toward)
    {
        static const uint8_t TYPES[] = {DrpHeader::REQ,
                                        DrpHeader::REQ_ACK,
                                        DrpHeader::DATA,
                                        DrpHeader::REL,
                                        DrpHeader::REL_ACK,
                                        0};
        const bool read = m_config.operation == "read";
        if (toward < 2 && Chance(0.7))
        {
            // What the workload's initiator (A) sends to B, or B to A.
            const uint8_t op = read ? DrpHeader::READ : 0;
            // [toward: 0 A, 1 B][read][choice]: the frame types each end sends.
            static const uint8_t TYPES[2][2][4] = {
                {{DrpHeader::REQ_ACK, DrpHeader::REL_ACK, DrpHeader::ACK, DrpHeader::ACK},
                 {DrpHeader::REQ_ACK, DrpHeader::REL_ACK, DrpHeader::DATA, DrpHeader::DATA}},
                {{DrpHeader::REQ, DrpHeader::REL, DrpHeader::DATA, DrpHeader::DATA},
                 {DrpHeader::REQ,
                  DrpHeader::REL,
                  DrpHeader::REQ_ACK | DrpHeader::ACK,
                  DrpHeader::ACK}}};
            const uint8_t ctrl = TYPES[toward][read][Pick(0, 3)] | op;
            return ctrl | (ctrl & DrpHeader::DATA && Chance(0.3) ? DrpHeader::INDIRECT : 0);
        }
        if (Chance(0.3))
        {
            return uint8_t(Pick(0, 255)); // any byte: mostly several types
        }
        uint8_t ctrl = TYPES[Pick(0, 5)];
        if (ctrl == 0 || Chance(0.3))
        {
            ctrl |= DrpHeader::ACK;
        }
        ctrl |= Chance(read ? 0.7 : 0.3) ? DrpHeader::READ : 0;
        ctrl |= Chance(0.2) ? DrpHeader::INDIRECT : 0;
        return ctrl;
    }

    /**
     * \param toward the host the frame goes to (HOSTS: none of them)
     * \return a frame from the header grammar
     */
    std::vector<uint8_t> Generate(uint32_t toward)
    {
        DrpHeader h;
        const uint8_t ctrl = PickControl(toward);
        h.SetControl(ctrl);
        h.SetStatus(Chance(0.9) ? 0 : (Chance(0.7) ? 1 : uint8_t(Pick(2, 255))));
        h.SetTid(PickTid());
        const bool data = ctrl & DrpHeader::DATA;
        const uint32_t len = PickLength(data);
        h.SetLength(len);
        h.SetSba(PickAddress(m_base[0], len));
        h.SetDba(PickAddress(m_base[1], len));
        const uint32_t frames = (m_size + 1023) / 1024;
        switch (Pick(0, 5))
        {
        case 0:
            h.SetSequence(uint32_t(Pick(frames, frames + 8)));
            break;
        case 1:
            h.SetSequence(uint32_t(Pick(0, UINT32_MAX)));
            break;
        default:
            h.SetSequence(uint32_t(Pick(0, frames - 1)));
        }
        if (data && Chance(0.4))
        {
            // Exactly where frame SN of one of the workload's slots goes
            // (SBA, DBA and LEN of that SN, PayloadSize 1024): passes every
            // check an RNIC can make without knowing the transfer.
            const uint32_t sn = uint32_t(Pick(0, frames - 1));
            const uint64_t offset =
                Pick(0, m_concurrency - 1) * (m_span / m_concurrency) + uint64_t(sn) * 1024;
            h.SetSequence(sn);
            h.SetSba(m_base[0] + offset);
            h.SetDba(m_base[1] + offset);
            h.SetLength(std::min<uint32_t>(1024, m_size - sn * 1024));
        }
        if (ctrl & DrpHeader::ACK)
        {
            h.SetAckNumber(Chance(0.8) ? uint32_t(Pick(0, frames + 1))
                                       : uint32_t(Pick(0, UINT32_MAX)));
        }
        uint32_t payload = 0;
        if (data)
        {
            const uint32_t length = h.GetLength();
            payload = Chance(0.85) && length <= 1500 ? length : uint32_t(Pick(0, 1500));
        }
        else if (Chance(0.05))
        {
            payload = uint32_t(Pick(1, 64));
        }
        Ptr<Packet> p = Create<Packet>(payload);
        p->AddHeader(h);
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        // Payload bytes that differ from the honest ones and from the background.
        const uint8_t fill = uint8_t(Pick(0, 255));
        for (size_t i = DrpHeader::SIZE; i < bytes.size(); ++i)
        {
            bytes[i] = uint8_t(fill + i * 7);
        }
        if (Chance(0.05))
        {
            bytes.resize(Pick(0, DrpHeader::SIZE - 1)); // truncated header
        }
        return bytes;
    }

    /// \return a frame mutated from captured honest frames
    std::vector<uint8_t> Mutate()
    {
        std::vector<uint8_t> bytes = m_captured[Pick(0, m_captured.size() - 1)];
        // Sometimes none: a replay (a duplicate, late or early) of an honest frame.
        const uint32_t ops = uint32_t(Pick(0, 4));
        for (uint32_t k = 0; k < ops; ++k)
        {
            switch (Pick(0, 7))
            {
            case 0:
            case 1: // a bit flip, mostly in the header
                if (!bytes.empty())
                {
                    size_t at = Chance(0.8)
                                    ? Pick(0, std::min<size_t>(bytes.size(), DrpHeader::SIZE) - 1)
                                    : Pick(0, bytes.size() - 1);
                    bytes[at] ^= uint8_t(1 << Pick(0, 7));
                }
                break;
            case 2: // an interesting byte
                if (!bytes.empty())
                {
                    static const uint8_t VALUES[] = {0x00, 0x01, 0x7F, 0x80, 0xFF};
                    bytes[Pick(0, bytes.size() - 1)] = VALUES[Pick(0, 4)];
                }
                break;
            case 3: // truncation
                bytes.resize(Pick(0, bytes.size()));
                break;
            case 4: // extension
                bytes.resize(bytes.size() + Pick(1, 256), uint8_t(Pick(0, 255)));
                break;
            case 5: { // splice: the head of this one, the tail of another
                const auto& other = m_captured[Pick(0, m_captured.size() - 1)];
                size_t cut = Pick(0, std::min(bytes.size(), other.size()));
                bytes.resize(cut);
                bytes.insert(bytes.end(), other.begin() + cut, other.end());
                break;
            }
            case 6: // another TID
                if (bytes.size() >= 4)
                {
                    uint16_t tid = PickTid();
                    bytes[2] = uint8_t(tid >> 8);
                    bytes[3] = uint8_t(tid);
                }
                break;
            default: // another address (SBA or DBA)
                if (bytes.size() >= 20)
                {
                    const bool sba = Chance(0.5);
                    uint64_t a = PickAddress(m_base[sba ? 0 : 1], 1024);
                    for (int i = 0; i < 8; ++i)
                    {
                        bytes[(sba ? 4 : 12) + i] = uint8_t(a >> (56 - 8 * i));
                    }
                }
            }
        }
        return bytes;
    }

    /**
     * Builds and sends fuzzed frame \p index.
     * \param index frame number in the run
     */
    void Inject(uint32_t index)
    {
        Injected in;
        in.index = index;

        // Where from, claiming to be whom, and to whom.
        Mac48Address to;
        switch (Pick(0, 9))
        {
        case 0: // A's own port, to B
        case 1:
            in.port = 0;
            in.source = m_macs[0];
            in.destination = 1;
            break;
        case 2: // B's own port, to A
        case 3:
            in.port = 1;
            in.source = m_macs[1];
            in.destination = 0;
            break;
        case 4: // C forges A's address
            in.port = 2;
            in.source = m_macs[0];
            in.destination = 1;
            break;
        case 5: // C forges B's address
            in.port = 2;
            in.source = m_macs[1];
            in.destination = 0;
            break;
        case 6: // C as itself
        case 7:
            in.port = 2;
            in.source = m_macs[2];
            in.destination = uint32_t(Pick(0, 1));
            break;
        case 8: { // C as a stranger (a unicast address)
            in.port = 2;
            uint8_t mac[6];
            for (auto& b : mac)
            {
                b = uint8_t(Pick(0, 255));
            }
            mac[0] &= 0xFE;
            in.source.CopyFrom(mac);
            in.destination = uint32_t(Pick(0, 1));
            break;
        }
        default: // A or B to C, or anyone to a stranger
            in.port = uint32_t(Pick(0, 1));
            in.source = m_macs[in.port];
            in.destination = Chance(0.5) ? 2 : HOSTS;
        }
        to = in.destination < HOSTS ? m_macs[in.destination] : Mac48Address("02:00:00:00:00:99");
        const bool mutate = !m_captured.empty() && Chance(0.4);
        in.bytes = mutate ? Mutate() : Generate(in.destination);
        m_result.fromMutation += mutate;
        const bool fromPeer = (in.source == m_macs[0] && in.destination == 1) ||
                              (in.source == m_macs[1] && in.destination == 0);
        if (m_spareLive && fromPeer && in.bytes.size() >= 4)
        {
            const uint16_t tid = uint16_t(in.bytes[2] << 8 | in.bytes[3]);
            if (tid >= 1 && tid <= m_transfers + 2)
            {
                const uint16_t spare = uint16_t(Pick(m_transfers + 3, 0xFFFF));
                in.bytes[2] = uint8_t(spare >> 8);
                in.bytes[3] = uint8_t(spare);
            }
            // Nor the workload's regions, with data under another TID.
            if (in.bytes.size() >= DrpHeader::SIZE && (in.bytes[0] & DrpHeader::DATA))
            {
                const uint32_t len = Field(in.bytes, 20, 4);
                for (uint32_t field = 0; field < 2; ++field)
                {
                    const uint64_t base = m_base[field];
                    const uint64_t a = Field(in.bytes, 4 + 8 * field, 8);
                    if (a >= base ? a - base < m_span : base - a < len)
                    {
                        const uint64_t away = base + m_span + 4096 * Pick(1, 256);
                        for (uint32_t i = 0; i < 8; ++i)
                        {
                            in.bytes[4 + 8 * field + i] = uint8_t(away >> (56 - 8 * i));
                        }
                    }
                }
            }
        }

        // What arrives: Ethernet pads a payload shorter than 46 bytes with
        // zeros (a truncated header arrives completed with zeros).
        if (in.bytes.size() < EthernetNetDevice::MIN_PAYLOAD_SIZE)
        {
            in.bytes.resize(EthernetNetDevice::MIN_PAYLOAD_SIZE, 0);
        }

        // What the header alone says (DrpTransport's first checks).
        if (in.bytes.size() < DrpHeader::SIZE)
        {
            in.expected = DrpTransport::MALFORMED;
        }
        else
        {
            Ptr<Packet> p = Create<Packet>(in.bytes.data(), in.bytes.size());
            p->RemoveHeader(in.header);
            const uint8_t types = in.header.GetControl() & 0x1F;
            const bool single = types != 0 && (types & (types - 1)) == 0;
            const bool pureAck = types == 0 && in.header.HasFlag(DrpHeader::ACK);
            // STATUS (the wire format): bit 0, the reply code, may be 1 in a
            // reply only; bit 1, INT, in a DATA frame or a pure ACK only, the
            // 42-byte extension then following; bits 2-4 are MSG (0b001) in
            // a REQ, a NAK (0-4) in an invalid reply, else 0; bit 5,
            // CNP, only with ACK; bits 7-6, the ECN field, anything.
            const uint8_t status = in.header.GetStatus();
            const bool reply = single && in.header.HasFlag(DrpHeader::REQ_ACK);
            const uint8_t context = status & 0x1c;
            const bool msg = context == 0x04 && single && in.header.HasFlag(DrpHeader::REQ);
            const bool nak = reply && (status & 0x01) != 0 && (context >> 2) <= 4;
            const bool telemetry = (status & 0x02) != 0;
            const bool telemetryOk =
                !telemetry || ((pureAck || (single && in.header.HasFlag(DrpHeader::DATA))) &&
                               p->GetSize() >= DrpIntHeader::SIZE);
            if (telemetry && telemetryOk)
            {
                p->RemoveAtStart(DrpIntHeader::SIZE);
            }
            const bool statusOk = telemetryOk && (context == 0 || msg || nak) &&
                                  (reply || (status & 0x01) == 0) &&
                                  ((status & 0x20) == 0 || in.header.HasFlag(DrpHeader::ACK));
            // The extension: 16 bytes, 32 with an atomic's operands (OPCODE
            // 0x13 or 0x14), which only a read's REQ of 8 bytes carries; the
            // three messages only a write's.
            DrpMessageHeader message;
            uint8_t opcode = 0;
            const bool atomic = p->GetSize() > 0 && p->CopyData(&opcode, 1) == 1 &&
                                (opcode == 0x13 || opcode == 0x14);
            const bool messageOk =
                !msg || (p->GetSize() >= (atomic ? 32u : 16u) && p->RemoveHeader(message) > 0 &&
                         message.IsWellFormed() && atomic == in.header.HasFlag(DrpHeader::READ) &&
                         (!atomic || in.header.GetLength() == 8));
            if (!((pureAck || single) && statusOk && messageOk))
            {
                in.expected = DrpTransport::MALFORMED;
            }
            else
            {
                in.wellFormed = true;
                const bool data = in.header.HasFlag(DrpHeader::DATA);
                const uint32_t payload = p->GetSize();
                const uint64_t expected = data ? in.header.GetLength() : 0;
                // The 14 bytes that complete a 32-byte header to Ethernet's
                // 46-byte minimum may be padding (a REQ with its message
                // extension is 48 bytes: never padded).
                const uint32_t padded = EthernetNetDevice::MIN_PAYLOAD_SIZE - DrpHeader::SIZE;
                // An INT frame is never padded (its extension fills the minimum).
                const bool padding = !msg && !telemetry && expected < padded && payload == padded;
                if ((data && in.header.GetLength() == 0) || (payload != expected && !padding))
                {
                    in.expected = DrpTransport::BAD_LENGTH;
                }
            }
            // Watch what it names, in the memory of the host it is sent to.
            if (in.destination < HOSTS)
            {
                WatchNamed(in.destination, in.header.GetSba(), in.header.GetLength());
                WatchNamed(in.destination, in.header.GetDba(), in.header.GetLength());
            }
        }

        Ptr<Packet> frame = Create<Packet>(in.bytes.data(), in.bytes.size());
        const uint64_t uid = frame->GetUid();
        m_injected[uid] = std::move(in);
        const Injected& rec = m_injected[uid];
        Ptr<EthernetNetDevice> port = m_rnics[rec.port];
        if (port->EthernetNetDevice::SendFrom(frame, rec.source, to, DrpHeader::PROT_NUMBER))
        {
            ++m_result.injected;
        }
        else
        {
            ++m_result.refused;
        }
    }

    /// Settles the fate of the frame transport \p host received last.
    void Settle(uint32_t host)
    {
        Pending& p = m_pending[host];
        if (!p.frame)
        {
            return;
        }
        m_counts[host].taken += !p.dropped;
        if (p.fuzz)
        {
            if (p.fuzz->expected >= 0 && (!p.dropped || p.reason != p.fuzz->expected))
            {
                std::ostringstream os;
                os << "host " << host << ": frame " << p.fuzz->index << " should be dropped as "
                   << DrpTransport::GetDropReasonName(DrpTransport::DropReason(p.fuzz->expected))
                   << " but was "
                   << (p.dropped
                           ? DrpTransport::GetDropReasonName(DrpTransport::DropReason(p.reason))
                           : std::string("taken"))
                   << "; bytes " << Hex(p.fuzz->bytes);
                Fail(os.str());
            }
            if (!p.dropped)
            {
                ++m_result.taken;
                if (p.fuzz->wellFormed)
                {
                    m_taken.push_back({host, p.fuzz, p.at});
                }
            }
        }
        else if (p.dropped &&
                 (p.reason == DrpTransport::MALFORMED || p.reason == DrpTransport::BAD_LENGTH))
        {
            std::ostringstream os;
            os << "host " << host << ": an honest frame was dropped as "
               << DrpTransport::GetDropReasonName(DrpTransport::DropReason(p.reason));
            Fail(os.str());
        }
        p = Pending();
    }

    /// The transport of \p host received \p frame.
    void OnRx(uint32_t host, Ptr<const Packet> frame)
    {
        Settle(host);
        Counts& c = m_counts[host];
        ++c.rx;
        Pending& p = m_pending[host];
        p.frame = frame;
        p.at = Simulator::Now();
        auto it = m_injected.find(frame->GetUid());
        if (it != m_injected.end())
        {
            ++c.rxFuzz;
            ++m_result.reached;
            p.fuzz = &it->second;
            if (it->second.destination != host)
            {
                Fail("host " + std::to_string(host) + ": frame " +
                     std::to_string(it->second.index) + " reached a transport it was not sent to");
            }
        }
    }

    /// The transport of \p host dropped \p frame.
    void OnDrop(uint32_t host, Ptr<const Packet> frame, DrpTransport::DropReason reason)
    {
        Counts& c = m_counts[host];
        ++c.traced[reason];
        Pending& p = m_pending[host];
        if (p.frame && frame == p.frame)
        {
            if (p.dropped)
            {
                Fail("host " + std::to_string(host) + ": a frame was dropped twice");
            }
            p.dropped = true;
            p.reason = reason;
            ++c.arrivalDrops;
            return;
        }
        // Only buffered data (a flush) and unsent read data are dropped later.
        ++c.laterDrops;
        if (reason != DrpTransport::OUT_OF_REGION && reason != DrpTransport::UNREGISTERED &&
            reason != DrpTransport::BAD_SEQUENCE)
        {
            Fail("host " + std::to_string(host) + ": a drop (" +
                 DrpTransport::GetDropReasonName(reason) + ") of a frame not just received");
        }
    }

    /**
     * A successful transfer is tainted if a fuzzed frame could have touched
     * it within the trust model (a host that forges a peer's address and
     * guesses a live TID can write the live region, or end the transfer):
     * a frame taken before the transfer ended that carries the peer's source
     * address and either is data whose range meets the transfer's region at
     * the receiving host (any TID: a forged request may have registered
     * that region too), or is a control frame with the transfer's TID.
     * \param r an honest transfer
     * \return true if tainted
     */
    bool IsTainted(const DrpTransferRecord& r) const
    {
        for (const auto& t : m_taken)
        {
            const bool toB = t.host == 1 && t.in->source == m_macs[0];
            const bool toA = t.host == 0 && t.in->source == m_macs[1];
            if ((!toA && !toB) || t.at > r.end)
            {
                continue;
            }
            const DrpHeader& h = t.in->header;
            if (!h.HasFlag(DrpHeader::DATA))
            {
                if (h.GetTid() == r.tid)
                {
                    return true;
                }
                continue;
            }
            const uint64_t a = toB ? h.GetDba() : h.GetSba();
            const uint64_t base = toB ? r.dba : r.sba;
            // Does [a, a + LEN) meet [base, base + length)? No sum that wraps.
            if (a >= base ? a - base < r.length : base - a < h.GetLength())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * \param host a host
     * \param address a byte
     * \return true if the byte was in a region registered on the host at some time
     */
    bool EverRegistered(uint32_t host, uint64_t address) const
    {
        for (const auto& [base, length] : m_everRegistered[host])
        {
            if (address >= base && address - base < length)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * \param host a host
     * \param address a byte of its memory
     * \return the first fuzzed frame sent to \p host whose SBA or DBA range
     *         holds \p address (number and bytes), or an empty string
     */
    std::string Suspect(uint32_t host, uint64_t address) const
    {
        const Injected* first = nullptr;
        for (const auto& [uid, in] : m_injected)
        {
            if (!in.wellFormed || in.destination != host || (first && first->index < in.index))
            {
                continue;
            }
            const uint64_t len = std::max<uint32_t>(1, in.header.GetLength());
            for (uint64_t base : {in.header.GetSba(), in.header.GetDba()})
            {
                if (address >= base && address - base < len)
                {
                    first = &in;
                }
            }
        }
        if (!first)
        {
            return "";
        }
        std::ostringstream os;
        os << "; first frame naming it: " << std::dec << first->index << ", bytes "
           << Hex(first->bytes);
        return os.str();
    }

    /**
     * \param r an honest transfer
     * \return the fuzzed frames with its TID and a peer's source address
     *         that a transport took before it ended (number and bytes)
     */
    std::string SameTid(const DrpTransferRecord& r) const
    {
        std::ostringstream os;
        for (const auto& t : m_taken)
        {
            if (t.at <= r.end && t.in->header.GetTid() == r.tid &&
                t.in->source == m_macs[1 - t.host])
            {
                os << "; frame " << t.in->index << " (to host " << t.host << " at "
                   << t.at.As(Time::US) << "): " << Hex(t.in->bytes);
            }
        }
        return os.str();
    }

    /// Checks every invariant after the run. \param finished no event was left
    void Check(bool finished)
    {
        for (uint32_t h = 0; h < HOSTS; ++h)
        {
            Settle(h);
        }
        if (!finished)
        {
            std::ostringstream os;
            os << "the simulation had not finished at " << m_config.simulationLimit.As(Time::S)
               << " (a hang)";
            Fail(os.str());
        }
        // Every honest transfer ended, and no RNIC holds one.
        m_result.transfers = m_transfers;
        if (m_records.size() != m_transfers)
        {
            Fail("honest transfers ended: " + std::to_string(m_records.size()) + " of " +
                 std::to_string(m_transfers));
        }
        for (uint32_t h = 0; h < HOSTS; ++h)
        {
            if (m_rnics[h]->GetTransport()->GetActiveInitiated() != 0)
            {
                Fail("host " + std::to_string(h) + " still holds an initiated transfer");
            }
        }
        // Bytes of every successful, untainted transfer (compared when it ended).
        for (size_t i = 0; i < m_records.size(); ++i)
        {
            const DrpTransferRecord& r = m_records[i];
            if (r.status != DrpTransferRecord::SUCCESS)
            {
                continue;
            }
            ++m_result.succeeded;
            if (IsTainted(r))
            {
                m_result.forged += m_differences[i] != 0;
                continue;
            }
            ++m_result.compared;
            if (m_differences[i] != 0)
            {
                Fail("honest transfer " + std::to_string(r.index) + " (TID " +
                     std::to_string(r.tid) + ") succeeded with " +
                     std::to_string(m_differences[i]) + " bytes different" + SameTid(r));
            }
        }
        // Memory outside every registered region is unchanged.
        for (const auto& s : m_snapshots)
        {
            std::vector<uint8_t> now(s.bytes.size());
            m_rnics[s.host]->GetHostMemory()->Read(s.address, now.data(), uint32_t(now.size()));
            m_result.watchedBytes += now.size();
            for (size_t i = 0; i < now.size(); ++i)
            {
                if (now[i] != s.bytes[i] && !EverRegistered(s.host, s.address + i))
                {
                    std::ostringstream os;
                    os << "host " << s.host << ": byte at 0x" << std::hex << s.address + i
                       << " changed outside every registered region"
                       << Suspect(s.host, s.address + i);
                    Fail(os.str());
                    break;
                }
            }
        }
        // Accounting.
        for (uint32_t h = 0; h < HOSTS; ++h)
        {
            const Counts& c = m_counts[h];
            Ptr<DrpTransport> t = m_rnics[h]->GetTransport();
            const std::string who = "host " + std::to_string(h) + ": ";
            if (c.macRxFuzz != c.rxFuzz)
            {
                Fail(who + std::to_string(c.macRxFuzz) + " fuzzed frames handed up, " +
                     std::to_string(c.rxFuzz) + " received by the transport");
            }
            uint64_t sum = 0;
            for (uint32_t reason = 0; reason < DrpTransport::DROP_REASONS; ++reason)
            {
                const uint64_t counted = t->GetDropCount(DrpTransport::DropReason(reason));
                sum += counted;
                m_result.drops[reason] += counted;
                if (counted != c.traced[reason])
                {
                    Fail(who + "drop counter " +
                         DrpTransport::GetDropReasonName(DrpTransport::DropReason(reason)) +
                         " differs from the Drop trace");
                }
            }
            if (sum != t->GetTotalDrops() || sum != c.arrivalDrops + c.laterDrops)
            {
                Fail(who + "drop total differs from the sum of drops on arrival and later");
            }
            // Rx = taken + dropped on arrival; the counters = dropped on arrival + later.
            if (c.rx != c.taken + c.arrivalDrops)
            {
                Fail(who + std::to_string(c.rx) + " frames received, " + std::to_string(c.taken) +
                     " taken, " + std::to_string(c.arrivalDrops) + " dropped on arrival");
            }
        }
    }

    FuzzConfig m_config;                                //!< what to do
    FuzzResult m_result;                                //!< what it found
    Ptr<UniformRandomVariable> m_rv;                    //!< every random choice
    uint32_t m_transfers{0};                            //!< honest transfers
    uint32_t m_size{0};                                 //!< bytes each
    uint32_t m_concurrency{1};                          //!< at once
    uint64_t m_span{0};                                 //!< bytes of the workload's slots
    std::array<uint64_t, HOSTS> m_base{};               //!< where each host's peer writes in it
    std::array<Ptr<RnicNetDevice>, HOSTS> m_rnics;      //!< the RNICs
    std::array<Mac48Address, HOSTS> m_macs;             //!< their addresses
    std::array<Ptr<RdmaHostApplication>, HOSTS> m_apps; //!< the hosts
    std::array<std::vector<std::pair<uint64_t, uint64_t>>, HOSTS>
        m_everRegistered;              //!< regions registered at some time
    std::vector<Snapshot> m_snapshots; //!< watched memory
    size_t m_fixedSnapshots{0};        //!< of which watched from the start (first)
    std::set<std::tuple<uint32_t, uint64_t, uint64_t>> m_named; //!< ranges frames named
    std::vector<std::vector<uint8_t>> m_captured;               //!< honest frames, for mutation
    uint64_t m_captureNext{0};                                  //!< next captured slot to replace
    std::unordered_map<uint64_t, Injected> m_injected;          //!< fuzzed frames by packet uid
    std::array<Pending, HOSTS> m_pending;                       //!< each transport's last frame
    std::array<Counts, HOSTS> m_counts;                         //!< per-RNIC counts

    /// A fuzzed frame a transport took.
    struct Taken
    {
        uint32_t host;      //!< which
        const Injected* in; //!< the frame
        Time at;            //!< when
    };

    std::vector<Taken> m_taken;               //!< taken well-formed fuzzed frames
    bool m_spareLive{false};                  //!< peers' addresses spare live TIDs
    std::vector<DrpTransferRecord> m_records; //!< honest transfers ended
    std::vector<uint64_t> m_differences;      //!< bytes that differed when each ended
};

} // namespace drpfuzz
} // namespace ns3

#endif /* DRP_FUZZ_H */
