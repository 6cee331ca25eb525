/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-opcode.h"

#include "ib-aeth-header.h"
#include "ib-atomic-ack-eth-header.h"
#include "ib-atomic-eth-header.h"
#include "ib-immdt-header.h"
#include "ib-reth-header.h"

#include <array>

namespace ns3
{

namespace
{

/// What a packet of one opcode carries.
struct Row
{
    const char* name; //!< the specification's name
    bool reth;        //!< RETH
    bool aeth;        //!< AETH
    bool imm;         //!< ImmDt
    bool atomicEth;   //!< AtomicETH
    bool atomicAck;   //!< AtomicAckETH
    bool payload;     //!< a payload
    bool first;       //!< starts a message
    bool last;        //!< ends a message
};

/// Rows 0x00 to 0x14, as table 38 of the specification.
constexpr std::array<Row, 0x15> RC = {{
    {"SEND_FIRST", false, false, false, false, false, true, true, false},
    {"SEND_MIDDLE", false, false, false, false, false, true, false, false},
    {"SEND_LAST", false, false, false, false, false, true, false, true},
    {"SEND_LAST_WITH_IMMEDIATE", false, false, true, false, false, true, false, true},
    {"SEND_ONLY", false, false, false, false, false, true, true, true},
    {"SEND_ONLY_WITH_IMMEDIATE", false, false, true, false, false, true, true, true},
    {"RDMA_WRITE_FIRST", true, false, false, false, false, true, true, false},
    {"RDMA_WRITE_MIDDLE", false, false, false, false, false, true, false, false},
    {"RDMA_WRITE_LAST", false, false, false, false, false, true, false, true},
    {"RDMA_WRITE_LAST_WITH_IMMEDIATE", false, false, true, false, false, true, false, true},
    {"RDMA_WRITE_ONLY", true, false, false, false, false, true, true, true},
    {"RDMA_WRITE_ONLY_WITH_IMMEDIATE", true, false, true, false, false, true, true, true},
    {"RDMA_READ_REQUEST", true, false, false, false, false, false, true, true},
    {"RDMA_READ_RESPONSE_FIRST", false, true, false, false, false, true, true, false},
    {"RDMA_READ_RESPONSE_MIDDLE", false, false, false, false, false, true, false, false},
    {"RDMA_READ_RESPONSE_LAST", false, true, false, false, false, true, false, true},
    {"RDMA_READ_RESPONSE_ONLY", false, true, false, false, false, true, true, true},
    {"ACKNOWLEDGE", false, true, false, false, false, false, true, true},
    {"ATOMIC_ACKNOWLEDGE", false, true, false, false, true, false, true, true},
    {"COMPARE_SWAP", false, false, false, true, false, false, true, true},
    {"FETCH_ADD", false, false, false, true, false, false, true, true},
}};

/// \param opcode a known RC opcode \return its row
const Row&
RowOf(uint8_t opcode)
{
    return RC[opcode];
}

} // namespace

bool
IbOpcode::IsKnown(uint8_t opcode)
{
    return opcode < RC.size() || opcode == CNP;
}

std::string
IbOpcode::GetName(uint8_t opcode)
{
    if (opcode == CNP)
    {
        return "CNP";
    }
    return opcode < RC.size() ? RowOf(opcode).name : "?";
}

uint32_t
IbOpcode::GetExtensionSize(uint8_t opcode)
{
    if (opcode == CNP)
    {
        return CNP_PAYLOAD;
    }
    if (opcode >= RC.size())
    {
        return 0;
    }
    const Row& r = RowOf(opcode);
    return (r.reth ? IbRethHeader::SIZE : 0) + (r.aeth ? IbAethHeader::SIZE : 0) +
           (r.imm ? IbImmDtHeader::SIZE : 0) + (r.atomicEth ? IbAtomicEthHeader::SIZE : 0) +
           (r.atomicAck ? IbAtomicAckEthHeader::SIZE : 0);
}

bool
IbOpcode::HasReth(uint8_t opcode)
{
    return opcode < RC.size() && RowOf(opcode).reth;
}

bool
IbOpcode::HasAeth(uint8_t opcode)
{
    return opcode < RC.size() && RowOf(opcode).aeth;
}

bool
IbOpcode::HasImmediate(uint8_t opcode)
{
    return opcode < RC.size() && RowOf(opcode).imm;
}

bool
IbOpcode::HasAtomicEth(uint8_t opcode)
{
    return opcode < RC.size() && RowOf(opcode).atomicEth;
}

bool
IbOpcode::HasPayload(uint8_t opcode)
{
    return opcode < RC.size() && RowOf(opcode).payload;
}

bool
IbOpcode::IsRequest(uint8_t opcode)
{
    return opcode <= RDMA_READ_REQUEST || opcode == COMPARE_SWAP || opcode == FETCH_ADD;
}

bool
IbOpcode::StartsMessage(uint8_t opcode)
{
    return opcode < RC.size() && RowOf(opcode).first;
}

bool
IbOpcode::EndsMessage(uint8_t opcode)
{
    return opcode < RC.size() && RowOf(opcode).last;
}

} // namespace ns3
