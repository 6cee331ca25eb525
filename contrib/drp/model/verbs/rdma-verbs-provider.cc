/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-verbs-provider.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaVerbsProvider);

TypeId
RdmaVerbsProvider::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaVerbsProvider").SetParent<Object>().SetGroupName("Drp");
    return tid;
}

} // namespace ns3
