/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_TEST_BED_H
#define DRP_TEST_BED_H

// Shared by the module's test suites: two hosts with RNICs on one link, a
// workload from host 0 to host 1, byte comparison of every ended transfer,
// and hand-made DRP frames.

#include "ns3/drp-compat.h"
#include "ns3/drp-header.h"
#include "ns3/error-model.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-host-application.h"
#include "ns3/rdma-host-helper.h"
#include "ns3/rnic-helper.h"
#include "ns3/rnic-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace drptest
{

/**
 * Reads an attribute back from the object itself.
 * \param object an object
 * \param name one of its attributes
 * \param value receives the value
 */
inline void
ReadAttribute(Ptr<Object> object, const std::string& name, AttributeValue& value)
{
    object->GetAttribute(name, value);
}

/**
 * \param draws the draws, cycled
 * \return a registration random variable that yields them (a draw below FRP fails)
 */
inline Ptr<RandomVariableStream>
MakeDraws(std::vector<double> draws)
{
    Ptr<DeterministicRandomVariable> rv = CreateObject<DeterministicRandomVariable>();
    rv->SetValueArray(draws.data(), draws.size());
    return rv;
}

/**
 * \ingroup drp-tests
 * Two hosts with RNICs on one 1 Gbps link; host 0 runs a workload to host 1.
 * Every ended transfer's regions are compared byte for byte.
 */
class PointToPointBed
{
  public:
    /**
     * Builds the link and the hosts.
     * \param rnic the RNIC helper (method and parts already chosen)
     * \param host the host helper (workload already chosen; it applies to host 0)
     * \param responderHost false: host 1 has no host application (nobody
     *        answers its RNIC's registration requests)
     */
    PointToPointBed(RnicHelper& rnic, RdmaHostHelper host, bool responderHost = true)
    {
        m_nodes.Create(2);
        rnic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        NetDeviceContainer devices = rnic.Install(m_nodes.Get(0), m_nodes.Get(1));
        for (uint32_t i = 0; i < 2; ++i)
        {
            m_rnics.push_back(DynamicCast<RnicNetDevice>(devices.Get(i)));
        }
        m_apps.push_back(DynamicCast<RdmaHostApplication>(host.Install(m_nodes.Get(0)).Get(0)));
        RdmaHostHelper::SetWorkload(m_apps[0], m_rnics[1]);
        m_apps[0]->TraceConnectWithoutContext(
            "TransferComplete",
            MakeCallback(&PointToPointBed::OnTransferComplete, this));
        if (responderHost)
        {
            host.SetAttribute("Transfers", UintegerValue(0));
            m_apps.push_back(DynamicCast<RdmaHostApplication>(host.Install(m_nodes.Get(1)).Get(0)));
            m_apps[1]->TraceConnectWithoutContext(
                "Registration",
                MakeCallback(&PointToPointBed::OnRegistration, this));
        }
    }

    /**
     * Puts an independent packet loss on both RNICs' receive side.
     * \param rate the probability that a frame is lost
     * \param stream first random stream
     */
    void SetLoss(double rate, int64_t stream)
    {
        for (const auto& rnic : m_rnics)
        {
            Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
            loss->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            loss->SetRate(rate);
            rnic->SetReceiveErrorModel(loss);
            stream += rnic->AssignStreams(stream);
        }
        for (const auto& app : m_apps)
        {
            stream += app->AssignStreams(stream);
        }
    }

    /// Runs until nothing is left to do.
    void Run()
    {
        for (const auto& app : m_apps)
        {
            app->SetStartTime(Seconds(0));
        }
        Simulator::Run();
    }

    /// \return the initiator's ended transfers
    const std::vector<DrpTransferRecord>& Records() const
    {
        return m_apps[0]->GetRecords();
    }

    /// \param i 0 (initiator) or 1 (responder) \return that host's RNIC
    Ptr<RnicNetDevice> Rnic(uint32_t i) const
    {
        return m_rnics[i];
    }

    /// \param i 0 (initiator) or 1 (responder) \return that host (null: none)
    Ptr<RdmaHostApplication> App(uint32_t i) const
    {
        return i < m_apps.size() ? m_apps[i] : nullptr;
    }

    uint32_t m_compared{0};         //!< transfers whose regions were compared
    uint32_t m_corrupt{0};          //!< successful transfers whose regions differ
    uint32_t m_registrationsOk{0};  //!< responder host: successful registrations
    uint32_t m_registrationsBad{0}; //!< responder host: failed registrations

  private:
    /// \param r an ended transfer: compares its two regions if it succeeded
    void OnTransferComplete(const DrpTransferRecord& r)
    {
        if (r.status != DrpTransferRecord::SUCCESS)
        {
            return;
        }
        ++m_compared;
        Ptr<HostMemory> mine = m_rnics[0]->GetHostMemory();
        m_corrupt +=
            mine->CountDifferences(r.sba, m_rnics[1]->GetHostMemory(), r.dba, r.length) != 0;
    }

    /// \param success whether a registration attempt succeeded
    void OnRegistration(Mac48Address, uint16_t, bool success)
    {
        ++(success ? m_registrationsOk : m_registrationsBad);
    }

    NodeContainer m_nodes;                        //!< the two hosts
    std::vector<Ptr<RnicNetDevice>> m_rnics;      //!< their RNICs
    std::vector<Ptr<RdmaHostApplication>> m_apps; //!< their host applications
};

/**
 * \param transfers transfers to run
 * \param size bytes each
 * \param operation write or read
 * \return a host helper with that workload
 */
inline RdmaHostHelper
MakeWorkload(uint32_t transfers, uint32_t size, const std::string& operation = "write")
{
    RdmaHostHelper host;
    host.SetAttribute("Transfers", UintegerValue(transfers));
    host.SetAttribute("TransferSize", UintegerValue(size));
    host.SetAttribute("Operation", StringValue(operation));
    return host;
}

/**
 * A hand-made DRP frame.
 * \param ctrl CTRL byte
 * \param tid transfer id
 * \param dba responder address (DATA: of the payload)
 * \param len LEN
 * \param payloadBytes payload actually attached (0xA5 bytes)
 * \param sn sequence number
 * \return the frame
 */
inline Ptr<Packet>
MakeDrpFrame(uint8_t ctrl,
             uint16_t tid,
             uint64_t dba,
             uint32_t len,
             uint32_t payloadBytes,
             uint32_t sn = 0)
{
    std::vector<uint8_t> bytes(payloadBytes, 0xA5);
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    DrpHeader h;
    h.SetControl(ctrl);
    h.SetTid(tid);
    h.SetDba(dba);
    h.SetLength(len);
    h.SetSequence(sn);
    p->AddHeader(h);
    return p;
}

/**
 * Sends a DRP frame from one RNIC's port to another's at a given time, past
 * the sender's transport (as a hand-made frame would come).
 * \param at when
 * \param from the sending RNIC
 * \param to the receiving RNIC
 * \param frame DRP header and payload
 */
inline void
SendFrameAt(Time at, Ptr<RnicNetDevice> from, Ptr<RnicNetDevice> to, Ptr<Packet> frame)
{
    Address dest = to->GetAddress();
    const uint16_t etherType = to->GetEtherType();
    drp::Schedule(at, [from, frame, dest, etherType]() {
        from->EthernetNetDevice::Send(frame, dest, etherType);
    });
}

/**
 * \param memory a host memory
 * \param address first byte
 * \param length bytes
 * \return a copy of [address, address + length)
 */
inline std::vector<uint8_t>
Snapshot(Ptr<const HostMemory> memory, uint64_t address, uint32_t length)
{
    std::vector<uint8_t> bytes(length);
    memory->Read(address, bytes.data(), length);
    return bytes;
}

/**
 * \param file a pcap capture
 * \return every frame in it, in order (nullopt: the file cannot be read as a capture)
 */
inline std::optional<std::vector<std::vector<uint8_t>>>
ReadCapture(const std::string& file)
{
    PcapFile pcap;
    pcap.Open(file, std::ios::in);
    if (pcap.Fail())
    {
        return std::nullopt;
    }
    std::vector<std::vector<uint8_t>> frames;
    std::vector<uint8_t> data(65536); // a pcap record holds at most 64 KiB here
    while (true)
    {
        uint32_t sec;
        uint32_t usec;
        uint32_t inclLen;
        uint32_t origLen;
        uint32_t readLen;
        pcap.Read(data.data(), data.size(), sec, usec, inclLen, origLen, readLen);
        if (pcap.Eof() || pcap.Fail())
        {
            break;
        }
        frames.emplace_back(data.begin(), data.begin() + readLen);
    }
    pcap.Close();
    return frames;
}

/**
 * \param call what may refuse
 * \return the message it refused with (std::invalid_argument), "" if it did not
 */
inline std::string
RefusalOf(const std::function<void()>& call)
{
    try
    {
        call();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

} // namespace drptest
} // namespace ns3

#endif /* DRP_TEST_BED_H */
