/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_TRANSFER_RECORD_H
#define DRP_TRANSFER_RECORD_H

#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup drp
 * \brief What one transfer did, as its initiator saw it.
 *
 * The RNIC fills in the protocol's part; the host application adds the
 * start (when the workload asked for the transfer, which may be before the
 * host posts it to the RNIC: see RdmaHostApplication's MaxInFlight) and the
 * end (when it handled the completion interrupt).
 */
struct DrpTransferRecord
{
    /// How the transfer moved its data.
    enum Mode
    {
        UNDECIDED, //!< no data moved (the transfer failed in its handshake)
        DIRECT,    //!< data after the connection was up
        INDIRECT,  //!< data before the connection was up (dynamic method)
    };

    /// How the transfer ended.
    enum Status
    {
        SUCCESS,          //!< all data placed and the connection released
        HANDSHAKE_FAILED, //!< no valid reply within the retry limit
        DATA_FAILED,      //!< a data frame was not acknowledged within the retry limit
        RELEASE_FAILED,   //!< all data acknowledged, but no release reply within the retry limit
        REFUSED,          //!< the responder refused it for good (a NAK other than
                          //!< REGISTRATION: see nak)
    };

    uint32_t index{0};           //!< the host's sequence number of the transfer
    uint16_t tid{0};             //!< transfer id
    Mac48Address peer;           //!< the responder
    bool read{false};            //!< read (true) or write
    uint64_t sba{0};             //!< initiator's region
    uint64_t dba{0};             //!< responder's region
    uint32_t length{0};          //!< bytes
    Mode mode{UNDECIDED};        //!< direct or indirect
    Status status{SUCCESS};      //!< outcome
    uint32_t requests{0};        //!< connection requests sent
    uint32_t invalidReplies{0};  //!< invalid replies received
    uint32_t timeouts{0};        //!< timer expiries of any kind
    uint32_t retransmissions{0}; //!< data frames sent again
    uint32_t cnps{0};            //!< congestion notifications (CNP) received (a write's)
    uint8_t nak{0};              //!< REFUSED: the responder's reason (DrpHeader::Nak)
    uint8_t rnrTimer{0};         //!< REFUSED for RECEIVER_NOT_READY: the RNR timer code
    Time start;                  //!< the workload asked for the transfer
    Time end;                    //!< host saw its completion

    /// \return end - start
    Time GetDuration() const
    {
        return end - start;
    }

    /// \return "direct", "indirect" or "undecided"
    std::string GetModeName() const
    {
        return mode == DIRECT ? "direct" : (mode == INDIRECT ? "indirect" : "undecided");
    }

    /// \return the status as a lower-case word
    std::string GetStatusName() const
    {
        switch (status)
        {
        case SUCCESS:
            return "success";
        case HANDSHAKE_FAILED:
            return "handshake-failed";
        case DATA_FAILED:
            return "data-failed";
        case RELEASE_FAILED:
            return "release-failed";
        case REFUSED:
            return "refused";
        }
        return "unknown";
    }
};

} // namespace ns3

#endif /* DRP_TRANSFER_RECORD_H */
