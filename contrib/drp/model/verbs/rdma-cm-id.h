/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CM_ID_H
#define RDMA_CM_ID_H

#include "rdma-cm-types.h"
#include "rdma-queue-pair.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ib-cm-mad-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

class RdmaConnectionManager;
class RdmaContext;
class RdmaProtectionDomain;

/**
 * \ingroup drp
 * \brief A connection manager's identifier (struct rdma_cm_id): one end
 * of a connection, or a listener, in the manner of librdmacm.
 *
 * Its calls follow librdmacm and return its error numbers; what
 * librdmacm reports on the event channel arrives at the event callback:
 *
 * * Create (rdma_create_id, bound to a context's RNIC: drp's addresses
 *   are the RNICs'), BindAddr and Listen (rdma_bind_addr, rdma_listen) on a
 *   port of the RDMA_PS_TCP space;
 * * ResolveAddr and ResolveRoute (rdma_resolve_addr, rdma_resolve_route):
 *   the peer is named by its RNIC's RoCEv2 address (an Ipv4Address) or MAC
 *   address, and a port; both end with their event at once, as a
 *   neighbour-cache hit does (drp models no ARP: an address no RNIC in the
 *   simulation has gives ADDR_ERROR; a RoCE route is the local routing
 *   table's);
 * * CreateQp (rdma_create_qp: an RC queue pair on the id, moved to INIT
 *   so that receives can be posted before the connection is made);
 * * Connect (rdma_connect: a REQ), Accept (rdma_accept: a REP), Reject
 *   (rdma_reject: a REJ with reason 28) and Disconnect (rdma_disconnect: the
 *   queue pair to ERR, then a DREQ).
 *
 * The messages are InfiniBand CM MADs (IbCmMadHeader) that the
 * RdmaConnectionManager of each RNIC sends as RoCEv2 datagrams to queue
 * pair 1 (IbBthHeader, IbDethHeader, RoceV2Frame): they cross the fabric,
 * take the host's time and can be lost. The active side moves its queue pair to
 * RTR and RTS (RdmaQueuePair::ConnectRc) when the REP arrives and sends an
 * RTU; the passive side when the application accepts, before its REP, as
 * librdmacm does. REQ, REP and DREQ are sent again after the response
 * timeout (4.096 us x 2^CmResponseTimeout) up to MaxCmRetries times; then
 * the active side reports UNREACHABLE (a REQ), the passive side UNREACHABLE
 * with its queue pair in ERR (a REP; it sends a REJ), and a DREQ's side
 * DISCONNECTED. A repeated REQ is answered with the REP again, a repeated
 * REP with the RTU again, a repeated DREQ with the DREP again, so a lost RTU
 * or DREP costs one timeout. A REQ for a port nobody listens on is
 * rejected with reason 8 (invalid service ID).
 *
 * The queue pair's attributes come from the exchange as the kernel's CM
 * sets them: the peer's QP number and starting PSN, the path MTU from the
 * port's MTU (the largest InfiniBand MTU that fits a RoCEv2 frame),
 * max_rd_atomic and max_dest_rd_atomic from the responder resources and
 * initiator depths, the access flags LOCAL_WRITE and REMOTE_WRITE, plus
 * REMOTE_READ and REMOTE_ATOMIC when this side serves READs, the
 * retry count from the REQ and each side's RNR retry count from the other
 * side's message (it is the other side's receive queue that sends RNR NAKs).
 */
class RdmaCmId : public Object
{
  public:
    /// What the event channel delivers: the id the event is for and the event.
    typedef Callback<void, Ptr<RdmaCmId>, RdmaCmEvent> EventCallback;

    /// Where an id is in the connection protocol.
    enum State : uint8_t
    {
        IDLE,           //!< created, or bound
        ADDR_RESOLVED,  //!< the peer's address is known
        ROUTE_RESOLVED, //!< ready to connect
        LISTEN,         //!< listening
        REQ_SENT,       //!< active: waiting for the REP
        REQ_RCVD,       //!< passive: the application has not accepted yet
        REP_SENT,       //!< passive: waiting for the RTU
        ESTABLISHED,    //!< connected
        DREQ_SENT,      //!< waiting for the DREP
        DISCONNECTED,   //!< disconnected, rejected or unreachable: the end
    };

    /// The port space of rdma_cm's RDMA_PS_TCP, the high bits of a service ID.
    static constexpr uint64_t PS_TCP_SERVICE = 0x0000000001060000ULL;
    /// Private data an application may put in a REQ (92 bytes less librdmacm's 36-byte header).
    static constexpr uint32_t MAX_REQ_PRIVATE_DATA = 56;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaCmId();

    /**
     * Makes an id (rdma_create_id) on the RNIC a context has opened.
     * \param context an open context
     * \param handler gets the id's events (and, for a listener, those of
     *        the ids its connection requests make)
     * \return the id, in IDLE
     */
    static Ptr<RdmaCmId> Create(Ptr<RdmaContext> context, EventCallback handler);

    /**
     * \param port a port (0: the next free one from 49152)
     * \return 0, EINVAL (not IDLE or bound already) or EADDRINUSE
     */
    int BindAddr(uint16_t port);
    /**
     * \param backlog connection requests waiting for Accept or Reject at
     *        once (1 or more; more are rejected as the kernel does)
     * \return 0, or EINVAL (not bound, or backlog 0)
     */
    int Listen(uint32_t backlog);
    /**
     * \param destination the peer RNIC's RoCEv2 address (Ipv4Address) or
     *        MAC address (Mac48Address)
     * \param port the peer's port
     * \param timeout rdma_resolve_addr's timeout (no ARP is modelled: unused)
     * \return 0 (ADDR_RESOLVED, or ADDR_ERROR with -EHOSTUNREACH, follows),
     *         or EINVAL (not IDLE, or another kind of address)
     */
    int ResolveAddr(const Address& destination, uint16_t port, Time timeout);
    /**
     * \param timeout rdma_resolve_route's timeout (unused)
     * \return 0 (ROUTE_RESOLVED follows), or EINVAL (address not resolved)
     */
    int ResolveRoute(Time timeout);
    /**
     * \param pd a protection domain of the id's context
     * \param init the queue pair's completion queues and capacities
     * \param [out] error 0, EINVAL (a queue pair already, or as
     *        RdmaContext::CreateQp) or ENOMEM
     * \return the queue pair, in INIT, or null
     */
    Ptr<RdmaQueuePair> CreateQp(Ptr<RdmaProtectionDomain> pd,
                                const RdmaQpInitAttr& init,
                                int& error);
    /**
     * Sends a REQ (rdma_connect).
     * \param param the connection's parameters
     * \return 0, or EINVAL (route not resolved, no queue pair in INIT,
     *         private data over MAX_REQ_PRIVATE_DATA bytes)
     */
    int Connect(const RdmaConnParam& param);
    /**
     * Connects the queue pair and sends a REP (rdma_accept).
     * \param param the connection's parameters
     * \return 0, or EINVAL (not a connection request, no queue pair in
     *         INIT, private data over the REP's 196 bytes, or the queue
     *         pair refused the attributes)
     */
    int Accept(const RdmaConnParam& param);
    /**
     * Sends a REJ with reason 28 (rdma_reject).
     * \param privateData at most 148 bytes
     * \return 0, or EINVAL (not a connection request)
     */
    int Reject(const std::vector<uint8_t>& privateData);
    /**
     * Moves the queue pair to ERR and sends a DREQ (rdma_disconnect).
     * \return 0, or EINVAL (not connected)
     */
    int Disconnect();
    /// Forgets the id (rdma_destroy_id): no event follows.
    void Destroy();

    /// \return its state
    State GetState() const;
    /// \return its queue pair (null before CreateQp)
    Ptr<RdmaQueuePair> GetQp() const;
    /// \return its context
    Ptr<RdmaContext> GetContext() const;
    /// \return its port
    uint16_t GetLocalPort() const;
    /// \return the peer's port
    uint16_t GetRemotePort() const;
    /// \return the peer RNIC's address
    Mac48Address GetPeer() const;
    /// \return its communication ID
    uint32_t GetCommId() const;
    /// \return CM messages it sent again after a timeout
    uint32_t GetRetransmissions() const;

    // The connection manager's side.

    /**
     * \param manager the RNIC's connection manager
     * \param context the context
     * \param handler the application's callback
     * \param commId its communication ID
     */
    void Init(Ptr<RdmaConnectionManager> manager,
              Ptr<RdmaContext> context,
              EventCallback handler,
              uint32_t commId);
    /**
     * A REQ for a port this id listens on: makes the passive id (in
     * REQ_RCVD) and reports CONNECT_REQUEST on it.
     * \param mad the REQ
     * \param from the peer RNIC
     * \param remotePort the peer's port (from the private data's header)
     * \return the new id, or null if the backlog is full
     */
    Ptr<RdmaCmId> Incoming(const IbCmMadHeader& mad, Mac48Address from, uint16_t remotePort);
    /// \param mad a message for this id (its LocalCommID is the peer's)
    void Receive(const IbCmMadHeader& mad);

  protected:
    void DoDispose() override;

  private:
    /// \param mad a REQ repeated: the REP again if sent
    void ReceiveReq(const IbCmMadHeader& mad);
    /// \param mad a REP
    void ReceiveRep(const IbCmMadHeader& mad);
    /// \param mad an RTU
    void ReceiveRtu(const IbCmMadHeader& mad);
    /// \param mad a REJ
    void ReceiveRej(const IbCmMadHeader& mad);
    /// \param mad a DREQ
    void ReceiveDreq(const IbCmMadHeader& mad);
    /// \param mad a DREP
    void ReceiveDrep(const IbCmMadHeader& mad);

    /// \param attribute a message \return it, addressed to the peer, with both comm IDs
    IbCmMadHeader Message(IbCmMadHeader::Attribute attribute) const;
    /// Sends m_lastSent and arms the response timeout.
    void SendWithRetry();
    /// The response timeout has passed: send again or give up.
    void Timeout();
    /**
     * \param remoteQpn the peer's queue pair
     * \param remotePsn the peer's first PSN
     * \param maxRdAtomic READs and atomics this side issues
     * \param maxDestRdAtomic READs and atomics this side serves
     * \param retryCnt transport retries
     * \param rnrRetry RNR retries
     * \param timeout the local ACK timeout (encoded)
     * \return ConnectRc's result
     */
    int ConnectQp(uint32_t remoteQpn,
                  uint32_t remotePsn,
                  uint8_t maxRdAtomic,
                  uint8_t maxDestRdAtomic,
                  uint8_t retryCnt,
                  uint8_t rnrRetry,
                  uint8_t timeout);
    /// Moves the queue pair to ERR if it is not there.
    void ErrorQp();
    /**
     * \param event the event type
     * \param status its status
     * \param param its parameters
     */
    void Report(RdmaCmEventType event, int status, const RdmaConnParam& param = RdmaConnParam());
    /// \param state the new state
    void SetState(State state);

    Ptr<RdmaConnectionManager> m_manager; //!< the RNIC's
    Ptr<RdmaContext> m_context;           //!< the context
    EventCallback m_handler;              //!< the application's
    Ptr<RdmaCmId> m_listener;             //!< passive: the listening id
    Ptr<RdmaQueuePair> m_qp;              //!< the queue pair
    State m_state{IDLE};                  //!< where it is
    uint32_t m_commId{0};                 //!< local communication ID
    uint32_t m_remoteCommId{0};           //!< the peer's
    uint16_t m_localPort{0};              //!< bound port
    uint16_t m_remotePort{0};             //!< the peer's port
    Mac48Address m_peer;                  //!< the peer RNIC
    Ipv4Address m_peerAddress;            //!< the peer's RoCEv2 address
    uint32_t m_backlog{0};                //!< listener: requests waiting at most
    uint32_t m_pending{0};                //!< listener: requests waiting now
    uint32_t m_psn{0};                    //!< the first PSN this side sends
    uint32_t m_remoteQpn{0};              //!< the peer's queue pair, once connected
    RdmaConnParam m_param;                //!< this side's parameters
    IbCmMadHeader m_request;              //!< passive: the REQ
    IbCmMadHeader m_lastSent;             //!< the message a timeout sends again
    bool m_replyToRepeat{false};          //!< m_lastSent answers repeats (RTU, DREP)
    uint32_t m_tries{0};                  //!< sends of m_lastSent after the first
    uint32_t m_retransmissions{0};        //!< every send again
    EventId m_timer;                      //!< the response timeout
};

} // namespace ns3

#endif /* RDMA_CM_ID_H */
