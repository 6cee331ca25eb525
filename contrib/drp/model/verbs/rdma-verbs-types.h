/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_VERBS_TYPES_H
#define RDMA_VERBS_TYPES_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class RdmaCompletionQueue;

/**
 * \ingroup drp
 * \file
 * The values an application passes to and gets from drp's verbs, named and
 * numbered as libibverbs (rdma-core's infiniband/verbs.h) names and numbers
 * them, so that a libibverbs user recognises each: IBV_ACCESS_LOCAL_WRITE is
 * RdmaAccess::LOCAL_WRITE with the same value, ibv_wc_status's
 * IBV_WC_REM_ACCESS_ERR is RdmaWcStatus::REM_ACCESS_ERR, and so on. The
 * semantics are those of the InfiniBand Architecture Specification, volume
 * 1, for the reliable-connected (RC) service.
 */

/// Memory-region and queue-pair access flags (enum ibv_access_flags).
namespace RdmaAccess
{
/// The flags' values, as libibverbs numbers them.
enum Flags : uint32_t
{
    LOCAL_WRITE = 1,   //!< IBV_ACCESS_LOCAL_WRITE: the RNIC may write it (receives, read results)
    REMOTE_WRITE = 2,  //!< IBV_ACCESS_REMOTE_WRITE: peers may RDMA WRITE it
    REMOTE_READ = 4,   //!< IBV_ACCESS_REMOTE_READ: peers may RDMA READ it
    REMOTE_ATOMIC = 8, //!< IBV_ACCESS_REMOTE_ATOMIC: peers may run atomics on it
};

/// Every flag drp models.
constexpr uint32_t ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;
} // namespace RdmaAccess

/// Work-request opcodes (enum ibv_wr_opcode).
enum class RdmaWrOpcode : uint8_t
{
    RDMA_WRITE = 0,           //!< IBV_WR_RDMA_WRITE
    RDMA_WRITE_WITH_IMM = 1,  //!< IBV_WR_RDMA_WRITE_WITH_IMM
    SEND = 2,                 //!< IBV_WR_SEND
    SEND_WITH_IMM = 3,        //!< IBV_WR_SEND_WITH_IMM
    RDMA_READ = 4,            //!< IBV_WR_RDMA_READ
    ATOMIC_CMP_AND_SWP = 5,   //!< IBV_WR_ATOMIC_CMP_AND_SWP
    ATOMIC_FETCH_AND_ADD = 6, //!< IBV_WR_ATOMIC_FETCH_AND_ADD
};

/// Send flags of a work request (enum ibv_send_flags).
namespace RdmaSendFlags
{
/// The flags' values, as libibverbs numbers them.
enum Flags : uint32_t
{
    FENCE = 1,     //!< IBV_SEND_FENCE: wait for earlier READs and atomics
    SIGNALED = 2,  //!< IBV_SEND_SIGNALED: a completion even on success
    SOLICITED = 4, //!< IBV_SEND_SOLICITED: wake the peer's solicited-only notification
    INLINE = 8,    //!< IBV_SEND_INLINE: the data is copied at post time, no lkey needed
};
} // namespace RdmaSendFlags

/// Work-completion status (enum ibv_wc_status, in its order and values).
enum class RdmaWcStatus : uint8_t
{
    SUCCESS = 0,            //!< IBV_WC_SUCCESS
    LOC_LEN_ERR = 1,        //!< IBV_WC_LOC_LEN_ERR: a received message longer than the buffer
    LOC_QP_OP_ERR = 2,      //!< IBV_WC_LOC_QP_OP_ERR: e.g. inline data above max_inline_data
    LOC_EEC_OP_ERR = 3,     //!< IBV_WC_LOC_EEC_OP_ERR (not used: no EE contexts)
    LOC_PROT_ERR = 4,       //!< IBV_WC_LOC_PROT_ERR: an SGE outside its lkey's region or PD
    WR_FLUSH_ERR = 5,       //!< IBV_WC_WR_FLUSH_ERR: flushed by the QP's error state
    MW_BIND_ERR = 6,        //!< IBV_WC_MW_BIND_ERR (not used: no memory windows)
    BAD_RESP_ERR = 7,       //!< IBV_WC_BAD_RESP_ERR
    LOC_ACCESS_ERR = 8,     //!< IBV_WC_LOC_ACCESS_ERR: a local region lacks LOCAL_WRITE
    REM_INV_REQ_ERR = 9,    //!< IBV_WC_REM_INV_REQ_ERR: e.g. a SEND above the posted receive
    REM_ACCESS_ERR = 10,    //!< IBV_WC_REM_ACCESS_ERR: rkey, bounds or access refused
    REM_OP_ERR = 11,        //!< IBV_WC_REM_OP_ERR
    RETRY_EXC_ERR = 12,     //!< IBV_WC_RETRY_EXC_ERR: the retry count ran out
    RNR_RETRY_EXC_ERR = 13, //!< IBV_WC_RNR_RETRY_EXC_ERR: the RNR retry count ran out
};

/// Work-completion opcodes (enum ibv_wc_opcode).
enum class RdmaWcOpcode : uint8_t
{
    SEND = 0,                 //!< IBV_WC_SEND
    RDMA_WRITE = 1,           //!< IBV_WC_RDMA_WRITE
    RDMA_READ = 2,            //!< IBV_WC_RDMA_READ
    COMP_SWAP = 3,            //!< IBV_WC_COMP_SWAP
    FETCH_ADD = 4,            //!< IBV_WC_FETCH_ADD
    RECV = 128,               //!< IBV_WC_RECV
    RECV_RDMA_WITH_IMM = 129, //!< IBV_WC_RECV_RDMA_WITH_IMM
};

/// Queue-pair states (enum ibv_qp_state).
enum class RdmaQpState : uint8_t
{
    RESET = 0, //!< IBV_QPS_RESET: just created, or reset
    INIT = 1,  //!< IBV_QPS_INIT: receives may be posted
    RTR = 2,   //!< IBV_QPS_RTR: ready to receive
    RTS = 3,   //!< IBV_QPS_RTS: ready to send
    SQD = 4,   //!< IBV_QPS_SQD: send queue drained
    SQE = 5,   //!< IBV_QPS_SQE: send queue error (not entered by RC)
    ERR = 6,   //!< IBV_QPS_ERR: every request flushed
};

/// Which fields of RdmaQpAttr a ModifyQp call sets (enum ibv_qp_attr_mask).
namespace RdmaQpAttrMask
{
/// The bits, as libibverbs numbers them.
enum Bits : uint32_t
{
    STATE = 1 << 0,               //!< IBV_QP_STATE
    CUR_STATE = 1 << 1,           //!< IBV_QP_CUR_STATE
    EN_SQD_ASYNC_NOTIFY = 1 << 2, //!< IBV_QP_EN_SQD_ASYNC_NOTIFY
    ACCESS_FLAGS = 1 << 3,        //!< IBV_QP_ACCESS_FLAGS
    PKEY_INDEX = 1 << 4,          //!< IBV_QP_PKEY_INDEX
    PORT = 1 << 5,                //!< IBV_QP_PORT
    QKEY = 1 << 6,                //!< IBV_QP_QKEY (UD only: refused for RC)
    AV = 1 << 7,                  //!< IBV_QP_AV: the peer's address
    PATH_MTU = 1 << 8,            //!< IBV_QP_PATH_MTU
    TIMEOUT = 1 << 9,             //!< IBV_QP_TIMEOUT: local ACK timeout
    RETRY_CNT = 1 << 10,          //!< IBV_QP_RETRY_CNT
    RNR_RETRY = 1 << 11,          //!< IBV_QP_RNR_RETRY
    RQ_PSN = 1 << 12,             //!< IBV_QP_RQ_PSN
    MAX_QP_RD_ATOMIC = 1 << 13,   //!< IBV_QP_MAX_QP_RD_ATOMIC
    ALT_PATH = 1 << 14,           //!< IBV_QP_ALT_PATH (not modelled: refused)
    MIN_RNR_TIMER = 1 << 15,      //!< IBV_QP_MIN_RNR_TIMER
    SQ_PSN = 1 << 16,             //!< IBV_QP_SQ_PSN
    MAX_DEST_RD_ATOMIC = 1 << 17, //!< IBV_QP_MAX_DEST_RD_ATOMIC
    PATH_MIG_STATE = 1 << 18,     //!< IBV_QP_PATH_MIG_STATE (not modelled: refused)
    CAP = 1 << 19,                //!< IBV_QP_CAP
    DEST_QPN = 1 << 20,           //!< IBV_QP_DEST_QPN
};
} // namespace RdmaQpAttrMask

/// One scatter-gather element (struct ibv_sge).
struct RdmaSge
{
    uint64_t addr{0};   //!< first byte, a host address
    uint32_t length{0}; //!< bytes
    uint32_t lkey{0};   //!< the local key of the memory region it lies in
};

/// A send-queue work request (struct ibv_send_wr, one request: post a vector for a list).
struct RdmaSendWr
{
    uint64_t wrId{0};                        //!< returned in its completion
    std::vector<RdmaSge> sgList;             //!< the local data
    RdmaWrOpcode opcode{RdmaWrOpcode::SEND}; //!< the operation
    uint32_t sendFlags{0};                   //!< RdmaSendFlags
    uint32_t immData{0};                     //!< immediate data (the *_WITH_IMM opcodes)
    uint64_t remoteAddr{0};                  //!< RDMA and atomics: the peer's address
    uint32_t rkey{0};                        //!< RDMA and atomics: the peer's remote key
    uint64_t compareAdd{0};                  //!< atomics: compare (CAS) or add (FAA)
    uint64_t swap{0};                        //!< compare-and-swap: the new value
};

/// A receive-queue work request (struct ibv_recv_wr).
struct RdmaRecvWr
{
    uint64_t wrId{0};            //!< returned in its completion
    std::vector<RdmaSge> sgList; //!< where an incoming SEND lands
};

/// A work completion (struct ibv_wc).
struct RdmaWc
{
    uint64_t wrId{0};                           //!< the request's id
    RdmaWcStatus status{RdmaWcStatus::SUCCESS}; //!< how it ended
    RdmaWcOpcode opcode{RdmaWcOpcode::SEND};    //!< what it was (valid on success)
    uint32_t byteLen{0};                        //!< bytes received (receives, READ)
    uint32_t immData{0};                        //!< immediate data, if withImm
    bool withImm{false};                        //!< IBV_WC_WITH_IMM
    uint32_t qpNum{0};                          //!< the local queue pair
    uint32_t srcQp{0};                          //!< the remote queue pair
};

/// A queue pair's capacities (struct ibv_qp_cap).
struct RdmaQpCap
{
    uint32_t maxSendWr{0};     //!< outstanding send requests
    uint32_t maxRecvWr{0};     //!< outstanding receive requests
    uint32_t maxSendSge{1};    //!< SGEs per send request
    uint32_t maxRecvSge{1};    //!< SGEs per receive request
    uint32_t maxInlineData{0}; //!< bytes a send request may carry inline
};

/// What CreateQp needs (struct ibv_qp_init_attr; RC only).
struct RdmaQpInitAttr
{
    Ptr<RdmaCompletionQueue> sendCq; //!< completions of send requests
    Ptr<RdmaCompletionQueue> recvCq; //!< completions of receive requests
    RdmaQpCap cap;                   //!< capacities
    bool sqSigAll{false};            //!< every send request signalled
};

/// A queue pair's attributes (struct ibv_qp_attr; the fields RC uses).
struct RdmaQpAttr
{
    RdmaQpState qpState{RdmaQpState::RESET};    //!< the state to move to
    RdmaQpState curQpState{RdmaQpState::RESET}; //!< the state the caller believes it is in
    uint32_t qpAccessFlags{0};                  //!< RdmaAccess: what peers may do via this QP
    uint16_t pkeyIndex{0};                      //!< partition key index (one partition)
    uint8_t portNum{1};                         //!< the port (one port: 1)
    uint64_t peer{0};           //!< the address vector: the peer RNIC's MAC address (48 bits)
    uint32_t pathMtu{1024};     //!< bytes: 256, 512, 1024, 2048 or 4096
    uint8_t timeout{14};        //!< local ACK timeout 4.096 us x 2^timeout (0: none)
    uint8_t retryCnt{7};        //!< transport retries (0 to 7)
    uint8_t rnrRetry{7};        //!< RNR retries (0 to 7; 7: without end)
    uint32_t rqPsn{0};          //!< first PSN expected (24 bits)
    uint32_t sqPsn{0};          //!< first PSN sent (24 bits)
    uint8_t maxRdAtomic{1};     //!< READs and atomics outstanding as requester
    uint8_t maxDestRdAtomic{1}; //!< as responder
    uint8_t minRnrTimer{12};    //!< the RNR NAK timer, encoded (0 to 31)
    uint32_t destQpNum{0};      //!< the peer's queue pair (24 bits)
    RdmaQpCap cap;              //!< capacities (read back by QueryQp)
};

/**
 * \param status a completion status
 * \return the text ibv_wc_status_str() gives for it ("success", "remote access error", ...)
 */
std::string GetWcStatusName(RdmaWcStatus status);

/**
 * \param state a queue-pair state
 * \return its name: "RESET", "INIT", "RTR", "RTS", "SQD", "SQE" or "ERR"
 */
std::string GetQpStateName(RdmaQpState state);

/**
 * Where bytes of a message lie in a scatter-gather list: the bytes from
 * \p offset on, \p size of them, as the SGEs' pieces that hold them.
 * \param sges the list, in order
 * \param offset the first byte, counted from the list's start
 * \param size bytes (fewer are returned if the list ends first)
 * \return the pieces, in order, each with its SGE's lkey
 */
std::vector<RdmaSge> SliceSges(const std::vector<RdmaSge>& sges, uint32_t offset, uint32_t size);

/**
 * The InfiniBand Architecture Specification's encoded timeouts, 4.096 us x
 * 2^exponent: a queue pair's local ACK timeout (``timeout``) and the
 * connection manager's response timeouts.
 * \param exponent 0 to 31
 * \return the time
 */
Time GetIbTimeout(uint8_t exponent);

/**
 * The RNR NAK timer that an encoded MIN_RNR_TIMER value stands for (the
 * InfiniBand Architecture Specification's table: 0 is 655.36 ms, 1 is
 * 0.01 ms, ..., 31 is 491.52 ms).
 * \param encoded 0 to 31
 * \return the time in microseconds
 */
double GetRnrTimerMicroseconds(uint8_t encoded);

/**
 * \param os a stream
 * \param status a completion status
 * \return os, with the status's name (GetWcStatusName)
 */
std::ostream& operator<<(std::ostream& os, RdmaWcStatus status);

/**
 * \param os a stream
 * \param state a queue-pair state
 * \return os, with the state's name (GetQpStateName)
 */
std::ostream& operator<<(std::ostream& os, RdmaQpState state);

} // namespace ns3

#endif /* RDMA_VERBS_TYPES_H */
