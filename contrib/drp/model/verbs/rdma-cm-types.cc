/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-cm-types.h"

#include "rdma-cm-id.h"

namespace ns3
{

std::string
GetCmEventName(RdmaCmEventType event)
{
    switch (event)
    {
    case RdmaCmEventType::ADDR_RESOLVED:
        return "RDMA_CM_EVENT_ADDR_RESOLVED";
    case RdmaCmEventType::ADDR_ERROR:
        return "RDMA_CM_EVENT_ADDR_ERROR";
    case RdmaCmEventType::ROUTE_RESOLVED:
        return "RDMA_CM_EVENT_ROUTE_RESOLVED";
    case RdmaCmEventType::ROUTE_ERROR:
        return "RDMA_CM_EVENT_ROUTE_ERROR";
    case RdmaCmEventType::CONNECT_REQUEST:
        return "RDMA_CM_EVENT_CONNECT_REQUEST";
    case RdmaCmEventType::CONNECT_RESPONSE:
        return "RDMA_CM_EVENT_CONNECT_RESPONSE";
    case RdmaCmEventType::CONNECT_ERROR:
        return "RDMA_CM_EVENT_CONNECT_ERROR";
    case RdmaCmEventType::UNREACHABLE:
        return "RDMA_CM_EVENT_UNREACHABLE";
    case RdmaCmEventType::REJECTED:
        return "RDMA_CM_EVENT_REJECTED";
    case RdmaCmEventType::ESTABLISHED:
        return "RDMA_CM_EVENT_ESTABLISHED";
    case RdmaCmEventType::DISCONNECTED:
        return "RDMA_CM_EVENT_DISCONNECTED";
    }
    return "UNKNOWN EVENT";
}

std::ostream&
operator<<(std::ostream& os, RdmaCmEventType event)
{
    return os << GetCmEventName(event);
}

} // namespace ns3
