/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-verbs-types.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

std::string
GetWcStatusName(RdmaWcStatus status)
{
    // ibv_wc_status_str()'s texts (rdma-core, libibverbs/verbs.c).
    static const char* const names[] = {"success",
                                        "local length error",
                                        "local QP operation error",
                                        "local EE context operation error",
                                        "local protection error",
                                        "Work Request Flushed Error",
                                        "memory management operation error",
                                        "bad response error",
                                        "local access error",
                                        "remote invalid request error",
                                        "remote access error",
                                        "remote operation error",
                                        "transport retry counter exceeded",
                                        "RNR retry counter exceeded"};
    const auto index = static_cast<size_t>(status);
    return index < sizeof(names) / sizeof(names[0]) ? names[index] : "unknown";
}

std::string
GetQpStateName(RdmaQpState state)
{
    static const char* const names[] = {"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"};
    const auto index = static_cast<size_t>(state);
    return index < sizeof(names) / sizeof(names[0]) ? names[index] : "unknown";
}

std::vector<RdmaSge>
SliceSges(const std::vector<RdmaSge>& sges, uint32_t offset, uint32_t size)
{
    std::vector<RdmaSge> pieces;
    uint64_t at = 0;
    for (const RdmaSge& sge : sges)
    {
        const uint64_t end = at + sge.length;
        if (size > 0 && offset < end)
        {
            const uint32_t skip = offset > at ? offset - at : 0;
            const uint32_t take = std::min<uint64_t>(size, sge.length - skip);
            pieces.push_back({sge.addr + skip, take, sge.lkey});
            offset += take;
            size -= take;
        }
        at = end;
    }
    return pieces;
}

Time
GetIbTimeout(uint8_t exponent)
{
    return NanoSeconds(int64_t(std::ldexp(4096.0, exponent)));
}

double
GetRnrTimerMicroseconds(uint8_t encoded)
{
    // The InfiniBand Architecture Specification, volume 1, "Encoding for RNR
    // NAK Timer Field" (the values ibv_modify_qp(3) lists for min_rnr_timer),
    // in milliseconds.
    static const double milliseconds[32] = {
        655.36, 0.01,  0.02,  0.03,  0.04,  0.06,   0.08,   0.12,   0.16,   0.24,  0.32,
        0.48,   0.64,  0.96,  1.28,  1.92,  2.56,   3.84,   5.12,   7.68,   10.24, 15.36,
        20.48,  30.72, 40.96, 61.44, 81.92, 122.88, 163.84, 245.76, 327.68, 491.52};
    return encoded < 32 ? milliseconds[encoded] * 1000 : 0;
}

std::ostream&
operator<<(std::ostream& os, RdmaWcStatus status)
{
    return os << GetWcStatusName(status);
}

std::ostream&
operator<<(std::ostream& os, RdmaQpState state)
{
    return os << GetQpStateName(state);
}

} // namespace ns3
