/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CM_TYPES_H
#define RDMA_CM_TYPES_H

#include "ns3/ptr.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class RdmaCmId;

/**
 * \ingroup drp
 * The connection manager's events (enum rdma_cm_event_type), in librdmacm's order.
 */
enum class RdmaCmEventType : uint8_t
{
    ADDR_RESOLVED = 0,    //!< RDMA_CM_EVENT_ADDR_RESOLVED
    ADDR_ERROR = 1,       //!< RDMA_CM_EVENT_ADDR_ERROR
    ROUTE_RESOLVED = 2,   //!< RDMA_CM_EVENT_ROUTE_RESOLVED
    ROUTE_ERROR = 3,      //!< RDMA_CM_EVENT_ROUTE_ERROR
    CONNECT_REQUEST = 4,  //!< RDMA_CM_EVENT_CONNECT_REQUEST: a new id, passive side
    CONNECT_RESPONSE = 5, //!< RDMA_CM_EVENT_CONNECT_RESPONSE (ids without a queue pair: not made)
    CONNECT_ERROR = 6,    //!< RDMA_CM_EVENT_CONNECT_ERROR: the queue pair could not be connected
    UNREACHABLE = 7,      //!< RDMA_CM_EVENT_UNREACHABLE: no reply within the retries
    REJECTED = 8,         //!< RDMA_CM_EVENT_REJECTED: status is the REJ's reason
    ESTABLISHED = 9,      //!< RDMA_CM_EVENT_ESTABLISHED
    DISCONNECTED = 10,    //!< RDMA_CM_EVENT_DISCONNECTED
};

/**
 * \ingroup drp
 * Connection parameters (struct rdma_conn_param).
 */
struct RdmaConnParam
{
    std::vector<uint8_t> privateData; //!< the application's bytes in the REQ, REP or REJ
    uint8_t responderResources{1};    //!< READs and atomics this side serves at once
    uint8_t initiatorDepth{1};        //!< READs and atomics this side issues at once
    uint8_t retryCount{7};            //!< transport retries (0 to 7; REQ only)
    uint8_t rnrRetryCount{7};         //!< RNR retries the peer may make (0 to 7)
};

/**
 * \ingroup drp
 * One event (struct rdma_cm_event).
 */
struct RdmaCmEvent
{
    RdmaCmEventType event{RdmaCmEventType::ADDR_RESOLVED}; //!< what happened
    int status{0};          //!< 0; REJECTED: the reject reason; UNREACHABLE: -ETIMEDOUT
    Ptr<RdmaCmId> listenId; //!< CONNECT_REQUEST: the listening id
    RdmaConnParam param;    //!< CONNECT_REQUEST, ESTABLISHED (active), REJECTED: the peer's
};

/**
 * \param event an event type
 * \return the name rdma_event_str() gives it ("RDMA_CM_EVENT_ESTABLISHED", ...)
 */
std::string GetCmEventName(RdmaCmEventType event);

/**
 * \param os a stream
 * \param event an event type
 * \return os, with its name
 */
std::ostream& operator<<(std::ostream& os, RdmaCmEventType event);

} // namespace ns3

#endif /* RDMA_CM_TYPES_H */
