/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONNECTION_MANAGER_H
#define RDMA_CONNECTION_MANAGER_H

#include "ns3/ib-cm-mad-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <utility>

namespace ns3
{

class Packet;
class RdmaCmId;
class RnicNetDevice;

/**
 * \ingroup drp
 * \brief The connection manager of one RNIC's host (the kernel's rdma_cm and
 * ib_cm): it sends and receives the CM messages of its RdmaCmId objects
 * and finds the id each arriving message is for.
 *
 * One per RNIC, aggregated to it by the first RdmaCmId::Create() there. Its
 * messages are InfiniBand CM MADs to queue pair 1 in RoCEv2 frames (BTH,
 * DETH, MAD, ICRC in UDP to port 4791 in IPv4, from the RNIC's
 * RnicNetDevice::GetRoceAddress()) on every method, so that Wireshark's
 * InfiniBand dissector reads them: the connection manager is host
 * software, whatever the transport under the queue pairs it connects.
 *
 * Time: sending a message takes the host MessageTime on its CPUs
 * (HostCpus), then the RNIC's path for the host's frames (HostPacketTime,
 * a PCIe read, the port's queue); a received one crosses PCIe to host
 * memory and takes MessageTime on the CPUs before its id sees it. Frames
 * that are not a well-formed CM MAD to queue pair 1 (wrong opcode, Q_Key,
 * ICRC, class or attribute), and messages for no id, are dropped and
 * counted (GetDropped).
 */
class RdmaConnectionManager : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaConnectionManager();

    /**
     * \param rnic an RNIC on a node
     * \return its connection manager, made, aggregated and given the RNIC's
     *         RoCEv2 frames on first use
     */
    static Ptr<RdmaConnectionManager> Attach(Ptr<RnicNetDevice> rnic);

    /**
     * Address resolution as a neighbour-cache hit: the RNIC in the
     * simulation with that MAC address or RoCEv2 address.
     * \param address a Mac48Address or an Ipv4Address
     * \return the RNIC, or null if no RNIC has it
     */
    static Ptr<RnicNetDevice> FindRnic(const Address& address);

    /// \return a communication ID not used on this RNIC before
    uint32_t AllocateCommId();
    /// \return a random first PSN (24 bits), as the kernel draws one per connection
    uint32_t NewPsn();
    /**
     * \param id an id
     * \param [in,out] port the port (0: the next free one from 49152)
     * \return 0, or EADDRINUSE
     */
    int BindPort(Ptr<RdmaCmId> id, uint16_t& port);
    /// \param port a port \return the id bound to it, or null
    Ptr<RdmaCmId> FindPort(uint16_t port) const;
    /// \param id an id to find by its communication ID
    void Add(Ptr<RdmaCmId> id);
    /// \param id an id to forget (its port, its communication ID, its REQ)
    void Remove(Ptr<RdmaCmId> id);
    /**
     * \param peer the RNIC that sent a REQ
     * \param remoteCommId the REQ's LocalCommID
     * \param id the passive id it made
     */
    void AddRequest(Mac48Address peer, uint32_t remoteCommId, Ptr<RdmaCmId> id);

    /**
     * Sends a message to a peer's queue pair 1.
     * \param mad the message
     * \param peer the peer RNIC
     * \param address its RoCEv2 address
     */
    void Send(const IbCmMadHeader& mad, Mac48Address peer, Ipv4Address address);

    /// \return the RNIC
    Ptr<RnicNetDevice> GetRnic() const;
    /// \return the response timeout, 4.096 us x 2^CmResponseTimeout
    Time GetResponseTimeout() const;
    /// \return CmResponseTimeout (the exponent the REQ carries)
    uint8_t GetResponseTimeoutExponent() const;
    /// \return MaxCmRetries
    uint8_t GetMaxRetries() const;
    /// \return CM frames dropped (malformed, or for no id)
    uint64_t GetDropped() const;

    /**
     * \param stream first stream index
     * \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for CM messages.
     * \param mad the message
     * \param peer the other RNIC
     */
    typedef void (*MessageTracedCallback)(const IbCmMadHeader& mad, Mac48Address peer);

  protected:
    void DoDispose() override;

  private:
    /**
     * A RoCEv2 frame from the port: to host memory, then the host's time.
     * \param packet the IPv4 packet
     * \param from the sending RNIC
     */
    void Receive(Ptr<Packet> packet, Mac48Address from);
    /**
     * The host takes a frame up: checks it and gives it to its id.
     * \param packet the IPv4 packet
     * \param from the sending RNIC
     */
    void Deliver(Ptr<Packet> packet, Mac48Address from);
    /**
     * \param mad a well-formed message
     * \param from the sending RNIC
     * \param address its RoCEv2 address
     */
    void Dispatch(const IbCmMadHeader& mad, Mac48Address from, Ipv4Address address);
    /**
     * \param mad a REQ
     * \param from the sending RNIC
     * \param address its RoCEv2 address
     */
    void DispatchReq(const IbCmMadHeader& mad, Mac48Address from, Ipv4Address address);
    /**
     * Answers a message no id takes (REJ for a REQ nobody listens for,
     * DREP for a DREQ of a connection gone).
     * \param mad the message
     * \param from the sending RNIC
     * \param address its RoCEv2 address
     * \param attribute the answer
     * \param reason a REJ's reason
     */
    void Answer(const IbCmMadHeader& mad,
                Mac48Address from,
                Ipv4Address address,
                IbCmMadHeader::Attribute attribute,
                uint16_t reason);
    /// \param job runs on the host's CPUs after MessageTime
    void RunOnHost(std::function<void()> job);

    Ptr<RnicNetDevice> m_rnic;                 //!< the RNIC
    Time m_messageTime;                        //!< attribute
    uint8_t m_responseTimeout;                 //!< attribute: the exponent
    uint8_t m_maxRetries;                      //!< attribute
    uint32_t m_nextCommId{1};                  //!< the next communication ID
    uint16_t m_nextPort{49152};                //!< the next ephemeral port
    uint32_t m_nextPsn{0};                     //!< queue pair 1's next PSN
    uint64_t m_dropped{0};                     //!< frames dropped
    Ptr<UniformRandomVariable> m_psnRv;        //!< first PSNs
    std::map<uint32_t, Ptr<RdmaCmId>> m_ids;   //!< by communication ID
    std::map<uint16_t, Ptr<RdmaCmId>> m_ports; //!< by port
    std::map<std::pair<uint64_t, uint32_t>, Ptr<RdmaCmId>> m_requests; //!< passive ids by REQ
    TracedCallback<const IbCmMadHeader&, Mac48Address> m_txTrace;      //!< messages sent
    TracedCallback<const IbCmMadHeader&, Mac48Address> m_rxTrace;      //!< messages taken
};

} // namespace ns3

#endif /* RDMA_CONNECTION_MANAGER_H */
