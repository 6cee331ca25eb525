/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The README's "A scenario in a few lines", as a user builds it against the
// installed module (test/install/check-install.sh), plus a shipped flow-size
// CDF: its path shows which data folder the installed library found.

#include "ns3/core-module.h"
#include "ns3/drp-module.h"
#include "ns3/network-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    NodeContainer hosts;
    hosts.Create(2);

    RnicHelper rnic; // an RNIC at each end of one link
    rnic.SetMethod("dynamic");
    rnic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    NetDeviceContainer rnics = rnic.Install(hosts.Get(0), hosts.Get(1));

    Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>(); // any ns-3 ErrorModel
    loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
    loss->SetAttribute("ErrorRate", DoubleValue(0.05));
    rnics.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));

    RdmaHostHelper host; // the upper-layer protocol
    host.SetAttribute("RegistrationFailureProbability", DoubleValue(0.05));
    host.SetAttribute("Transfers", UintegerValue(100));
    ApplicationContainer apps = host.Install(hosts);        // both answer requests
    RdmaHostHelper::SetWorkload(apps.Get(0), rnics.Get(1)); // host 0 writes to host 1
    apps.Get(1)->SetAttribute("Transfers", UintegerValue(0));

    Simulator::Run();
    for (const auto& r : DynamicCast<RdmaHostApplication>(apps.Get(0))->GetRecords())
    {
        std::cout << r.GetModeName() << " " << r.GetDuration().As(Time::US) << "\n";
    }
    Simulator::Destroy();

    FlowSizeCdf webSearch = FlowSizeCdf::Load("web-search");
    std::cout << "web-search " << FlowSizeCdf::GetShippedPath("web-search") << " mean "
              << webSearch.GetMeanBytes() << " bytes\n";
    return 0;
}
