/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Wall-clock cost per simulated data frame: drp against ns-3's own
 * PointToPointNetDevice moving the same number of frames of the same size.
 *
 * drp: one host writes to another over one loss-free Gigabit link
 * (DrpScenario, no memory check); every data frame also costs its DMA read,
 * its DMA write, its acknowledgement and the RNICs' processing. ns-3: a
 * PointToPointNetDevice pair at the same rate, fed one frame of the same
 * size (DRP header plus payload) per frame time. Both run on the default
 * scheduler, in this one process, one after the other, best of --repeat runs.
 *
 *     drp-frame-cost [--frames=256000] [--payload=1024] [--repeat=3]
 */

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// \return seconds since an arbitrary epoch
double
Now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// Feeds a device one frame per interval.
class Feeder
{
  public:
    /**
     * \param device the sending device
     * \param size bytes per frame (above the link layer)
     * \param frames frames to send
     * \param interval time between frames
     */
    Feeder(Ptr<NetDevice> device, uint32_t size, uint64_t frames, Time interval)
        : m_device(device),
          m_size(size),
          m_left(frames),
          m_interval(interval)
    {
    }

    /// Sends one frame and schedules the next.
    void Send()
    {
        m_device->Send(Create<Packet>(m_size), m_device->GetBroadcast(), 0x0800);
        if (--m_left > 0)
        {
            Simulator::Schedule(m_interval, &Feeder::Send, this);
        }
    }

  private:
    Ptr<NetDevice> m_device; //!< sender
    uint32_t m_size;         //!< frame size
    uint64_t m_left;         //!< frames still to send
    Time m_interval;         //!< pacing
};

/**
 * Runs the ns-3 point-to-point baseline.
 * \param frames frames to move
 * \param size bytes per frame above the link layer
 * \param[out] received frames that arrived
 * \return wall seconds
 */
double
RunPointToPoint(uint64_t frames, uint32_t size, uint64_t& received)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(1500));
    NetDeviceContainer devices = p2p.Install(nodes);
    received = 0;
    // Through drp::FunctorCallback: before ns-3.37, a Callback cannot hold a lambda.
    devices.Get(1)->SetReceiveCallback(
        drp::FunctorCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>(
            [&received](Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&) {
                ++received;
                return true;
            }));
    // The PPP frame carries 2 bytes of header; pace at its transmission time.
    Time interval = DataRate("1Gbps").CalculateBytesTxTime(size + 2);
    Feeder feeder(devices.Get(0), size, frames, interval);
    Simulator::ScheduleNow(&Feeder::Send, &feeder);
    double start = Now();
    Simulator::Run();
    double wall = Now() - start;
    Simulator::Destroy();
    return wall;
}

/**
 * Runs drp.
 * \param frames data frames to move (rounded up to whole transfers)
 * \param payload payload bytes per data frame
 * \param[out] moved data frames moved
 * \return wall seconds
 */
double
RunDrp(uint64_t frames, uint32_t payload, uint64_t& moved, uint64_t& events, const std::string& nic)
{
    DrpScenario::Config config;
    config.nic = nic;
    config.rate = NicProfile::Get(nic).GetLineRate();
    config.method = "dynamic";
    config.payload = payload;
    config.size = 128 * payload;
    config.transfers = (frames + 127) / 128;
    config.verify = false;
    DrpScenario::Result result = DrpScenario::Run(config);
    moved = uint64_t(config.transfers) * 128;
    events = result.events;
    NS_ABORT_MSG_IF(result.GetSuccesses() != config.transfers, "drp transfers failed");
    return result.wallSeconds;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t frames = 256000;
    uint32_t payload = 1024;
    uint32_t repeat = 3;
    CommandLine cmd(__FILE__);
    cmd.AddValue("frames", "data frames to move", frames);
    cmd.AddValue("payload", "payload bytes per data frame", payload);
    cmd.AddValue("repeat", "runs of each; the best counts", repeat);
    std::string nics;
    cmd.AddValue("nics",
                 "NIC profiles to measure beside the paper's card, comma-separated, each at its "
                 "own line rate (" +
                     NicProfile::GetNamesText() + ")",
                 nics);
    cmd.Parse(argc, argv);
    std::vector<std::string> others;
    for (std::istringstream list(nics); list.good();)
    {
        std::string name;
        std::getline(list, name, ',');
        if (!name.empty())
        {
            try
            {
                NicProfile::Get(name);
            }
            catch (const std::invalid_argument& e)
            {
                std::cerr << "error: " << e.what() << std::endl;
                return 2;
            }
            others.push_back(name);
        }
    }

    double drpBest = 1e99;
    double p2pBest = 1e99;
    uint64_t moved = 0;
    uint64_t received = 0;
    uint64_t events = 0;
    for (uint32_t i = 0; i < repeat; ++i)
    {
        drpBest =
            std::min(drpBest, RunDrp(frames, payload, moved, events, NicProfile::PAPER) / moved);
        p2pBest =
            std::min(p2pBest, RunPointToPoint(moved, payload + DrpHeader::SIZE, received) / moved);
        NS_ABORT_MSG_IF(received != moved, "point-to-point lost frames: " << received);
    }
    std::cout << std::fixed << std::setprecision(3) << "frames: " << moved << " of "
              << payload + DrpHeader::SIZE << " bytes (best of " << repeat << ")\n"
              << "drp:            " << drpBest * 1e6 << " us wall per data frame\n"
              << "point-to-point: " << p2pBest * 1e6 << " us wall per frame\n"
              << "ratio:          " << std::setprecision(2) << drpBest / p2pBest << std::endl;
    if (!others.empty())
    {
        // The same transfers through faster cards, each at its own line rate:
        // a faster profile must cost no more events per data frame.
        std::cout << std::setprecision(3) << "events per data frame, " << NicProfile::PAPER
                  << " at 1 Gb/s: " << double(events) / moved << "\n";
        for (const std::string& nic : others)
        {
            double best = 1e99;
            for (uint32_t i = 0; i < repeat; ++i)
            {
                best = std::min(best, RunDrp(frames, payload, moved, events, nic) / moved);
            }
            std::cout << nic << " at " << NicProfile::Get(nic).GetLineRate().GetBitRate() / 1e9
                      << " Gb/s: " << best * 1e6 << " us wall and " << double(events) / moved
                      << " events per data frame (ratio to point-to-point " << std::setprecision(2)
                      << best / p2pBest << std::setprecision(3) << ")\n";
        }
    }
    return 0;
}
