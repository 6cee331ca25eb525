/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_CM_MAD_HEADER_H
#define IB_CM_MAD_HEADER_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief A communication-management datagram (CM MAD): one message of
 * InfiniBand's connection protocol (the InfiniBand Architecture
 * Specification, volume 1, chapter 12), as the connection manager sends it
 * to queue pair 1 of the peer behind a BTH and a DETH.
 *
 * 256 bytes: the common MAD header (13.4.2: BaseVersion 1, MgmtClass 0x07,
 * ClassVersion 2, Method 0x03 Send, TransactionID, AttributeID) and 232
 * bytes of the message, laid out as 12.6 gives them, network byte order:
 *
 * \verbatim
   REQ  (0x0010) 0 LocalCommID, 8 ServiceID, 28 Local Q_Key, 32 LocalQPN |
                 ResponderResources, 36 InitiatorDepth (byte 39), 43 RemoteCM-
                 ResponseTimeout, 44 StartingPSN | LocalCMResponseTimeout |
                 RetryCount, 48 P_Key, 50 PathMTU | RNRRetryCount, 51 MaxCM-
                 Retries, 52 LIDs (0xFFFF: RoCE), 56 local and 72 remote GID
                 (IPv4-mapped), 92 TrafficClass, 93 HopLimit, 95 LocalACK-
                 Timeout, 140 PrivateData (92 bytes)
   REP  (0x0013) 0 LocalCommID, 4 RemoteCommID, 8 Local Q_Key, 12 LocalQPN,
                 20 StartingPSN, 24 ResponderResources, 25 InitiatorDepth,
                 27 RNRRetryCount, 36 PrivateData (196)
   RTU  (0x0014) 0 LocalCommID, 4 RemoteCommID, 8 PrivateData (224)
   REJ  (0x0012) 0 LocalCommID, 4 RemoteCommID, 8 MsgRejected, 10 Reason,
                 84 PrivateData (148)
   DREQ (0x0015) 0 LocalCommID, 4 RemoteCommID, 8 RemoteQPN, 12 PrivateData (220)
   DREP (0x0016) 0 LocalCommID, 4 RemoteCommID, 8 PrivateData (224)
   \endverbatim
 *
 * Fields a message does not have are written as 0 and read back as 0.
 */
class IbCmMadHeader : public Header
{
  public:
    /// Serialized size in bytes (every MAD is 256).
    static constexpr uint32_t SIZE = 256;
    /// The communication-management class.
    static constexpr uint8_t MGMT_CLASS_CM = 0x07;

    /// AttributeID: the message.
    enum Attribute : uint16_t
    {
        REQ = 0x0010,  //!< connection request
        MRA = 0x0011,  //!< message receipt acknowledgement (never sent here)
        REJ = 0x0012,  //!< reject
        REP = 0x0013,  //!< reply
        RTU = 0x0014,  //!< ready to use
        DREQ = 0x0015, //!< disconnection request
        DREP = 0x0016, //!< disconnection reply
    };

    /// REJ's Reason values the connection manager uses (12.6.7.2).
    enum RejectReason : uint16_t
    {
        REJECT_TIMEOUT = 1,           //!< the sender timed out waiting
        REJECT_INVALID_SERVICE = 8,   //!< nobody listens on the service ID
        REJECT_STALE_CONNECTION = 10, //!< a message for a connection the sender does not know
        REJECT_CONSUMER = 28,         //!< the consumer rejected it
    };

    /// The message's fields (those of the messages above; the rest 0).
    struct Fields
    {
        uint32_t localCommId{0};       //!< the sender's communication ID
        uint32_t remoteCommId{0};      //!< the receiver's (0 in a REQ)
        uint64_t serviceId{0};         //!< REQ: the service (rdma_cm: 0x0106 << 16 | port)
        uint32_t localQpn{0};          //!< REQ, REP: the sender's queue pair; DREQ: the receiver's
        uint32_t startingPsn{0};       //!< REQ, REP: the first PSN the sender sends
        uint8_t responderResources{0}; //!< REQ, REP: READs and atomics the sender serves
        uint8_t initiatorDepth{0};     //!< REQ, REP: READs and atomics the sender issues
        uint8_t cmResponseTimeout{0};  //!< REQ: 4.096 us x 2^value (5 bits), both fields
        uint8_t retryCount{0};         //!< REQ: transport retries (3 bits)
        uint8_t rnrRetryCount{0};      //!< REQ, REP: RNR retries (3 bits)
        uint8_t pathMtu{0};            //!< REQ: encoded 1 (256) to 5 (4096)
        uint8_t maxCmRetries{0};       //!< REQ: 4 bits
        uint8_t localAckTimeout{0};    //!< REQ: 5 bits
        Ipv4Address localAddress;      //!< REQ: the sender's GID (IPv4-mapped)
        Ipv4Address remoteAddress;     //!< REQ: the receiver's GID
        uint8_t messageRejected{0};    //!< REJ: 0 REQ, 1 REP, 2 other
        uint16_t rejectReason{0};      //!< REJ: RejectReason
        std::vector<uint8_t> privateData; //!< at most PrivateDataSize(attribute) bytes
    };

    IbCmMadHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \param attribute a message's AttributeID
     * \return its private data's room in bytes (0 for one drp does not know)
     */
    static uint32_t PrivateDataSize(uint16_t attribute);
    /// \param attribute a message's AttributeID \return "REQ", "REP", ... or "unknown"
    static const char* GetAttributeName(uint16_t attribute);

    /// \param attribute AttributeID
    void SetAttribute(Attribute attribute);
    /// \return AttributeID
    uint16_t GetAttribute() const;
    /// \param id TransactionID
    void SetTransactionId(uint64_t id);
    /// \return TransactionID
    uint64_t GetTransactionId() const;
    /// \param fields the message (private data beyond its room is dropped)
    void SetFields(const Fields& fields);
    /// \return the message (private data: all of its room)
    const Fields& GetFields() const;
    /// \return true if the common header is a CM Send of version 1/2 and the
    ///         attribute one drp knows (REQ, REP, RTU, REJ, DREQ, DREP)
    bool IsWellFormed() const;

  private:
    /// \param i at the message's first byte
    void SerializeReq(Buffer::Iterator i) const;
    /// \param i at the message's first byte
    void DeserializeReq(Buffer::Iterator i);
    /// \param i at the message's first byte
    void SerializeRep(Buffer::Iterator i) const;
    /// \param i at the message's first byte
    void DeserializeRep(Buffer::Iterator i);

    uint8_t m_baseVersion;    //!< BaseVersion
    uint8_t m_mgmtClass;      //!< MgmtClass
    uint8_t m_classVersion;   //!< ClassVersion
    uint8_t m_method;         //!< Method
    uint64_t m_transactionId; //!< TransactionID
    uint16_t m_attribute;     //!< AttributeID
    Fields m_fields;          //!< the message
};

} // namespace ns3

#endif /* IB_CM_MAD_HEADER_H */
