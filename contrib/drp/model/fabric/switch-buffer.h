/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCH_BUFFER_H
#define SWITCH_BUFFER_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class EthernetNetDevice;

/**
 * \ingroup drp
 * \brief The shared buffer of a switch (its memory management unit): which
 * frames it admits, and when it pauses a class of an ingress port with IEEE
 * 802.1Qbb priority flow control, so that the lossless classes never lose a
 * frame to congestion.
 *
 * \par Accounting
 * Every frame a switch queues is counted against its ingress queue: the
 * pair (port it came in on, class), its class as the ingress port reads it
 * (EthernetNetDevice::GetFrameClass()). A frame counts its bytes in the
 * egress queue (payload padded to 46 bytes, plus header and FCS: 18). The
 * BufferSize bytes are split into
 * - a reserve of ReservePerQueue bytes for every (port, class), 8 per port;
 * - a headroom for every (port, lossless class): the bytes that may still
 *   arrive after the buffer asked the port's peer to pause (see Headroom);
 * - the shared pool: whatever is left, used by every queue.
 *
 * An arriving frame of b bytes goes, whole, into the first of these where
 * it fits: its queue's reserve (reserve bytes + b <= ReservePerQueue); the
 * shared pool (its queue's shared bytes + b <= the XOFF threshold, and the
 * pool has b bytes free); for a lossless class, its queue's headroom
 * (headroom bytes + b <= the headroom). A frame that fits nowhere is dropped
 * and counted: a lossy class's as SHARED_FULL ("shared-buffer-full"), a
 * lossless class's as HEADROOM_OVERFLOW ("headroom-overflow", with an
 * NS_LOG_WARN: the headroom was too small for the link, which a correct
 * configuration never lets happen). A frame leaving its egress queue frees
 * its bytes from its ingress queue's headroom first, then its shared bytes,
 * then its reserve (bytes are bytes: what is freed is the most recently
 * taken kind), as the HPCC simulator's switch MMU does.
 *
 * \par Thresholds
 * The XOFF threshold bounds a queue's shared bytes:
 * - DYNAMIC (the default): Alpha x (shared pool - shared bytes in use),
 *   the dynamic threshold of Choudhury and Hahne ("Dynamic queue length
 *   thresholds for shared-memory packet switches", IEEE/ACM ToN 1998) that
 *   switch ASICs (Broadcom's alpha, Mellanox's and Cisco's dynamic
 *   thresholds) use: a queue may grow while others leave memory free. Alpha
 *   1/8 is the HPCC simulator's (switch-mmu.cc, a shift of 3);
 * - STATIC: StaticXoff bytes for every queue.
 * A lossless queue goes XOFF (SetClassPaused(class, true) on its ingress
 * port, trace source Xoff) when a frame enters its headroom or its shared
 * bytes reach the threshold, and XON (SetClassPaused(class, false), trace
 * Xon) when, after a frame left, its headroom is empty and its shared bytes
 * are 0 or ResumeOffset below the threshold (XON = XOFF - ResumeOffset).
 * ReservePerQueue 4 KB and ResumeOffset 3 KB are the HPCC simulator's
 * (switch-mmu.cc), as is BufferSize 12 MiB (its SwitchMmu's default; its
 * mix/config.txt runs 32 MB).
 *
 * \par Headroom
 * Headroom 0 (the default) sizes each port's from its link: after the
 * buffer decides XOFF, the frame on the wire towards the peer finishes, the
 * pause frame goes out and crosses the cable, the peer finishes the frame
 * it is sending, and what it sent meanwhile crosses the cable back:
 * \verbatim
   2 x Delay x DataRate + 3 x (largest frame on the wire) + (pause frame on the wire)
 \endverbatim
 * bytes (the terms of IEEE 802.1Qbb's headroom, also in Cisco's "Priority
 * Flow Control: Build Reliable Layer 2 Infrastructure": MTU of both ends,
 * twice the cable, the pause frame; the third frame covers a frame whose
 * last bit arrives after the decision although most of it came before). The
 * ports act on a pause at once, so the interface and response delays of
 * the standard are 0 here. The HPCC simulator uses 3 x DataRate x Delay
 * (scratch/third.cc). A Headroom above 0 is used for every port instead.
 *
 * \par Not modelled
 * No egress accounting (the egress queues keep their own limits), no
 * priority groups (one headroom per (port, class)), no cells (bytes are
 * counted exactly), no PFC watchdog, no deadlock detection, no pause of
 * frames the switch itself sends.
 */
class SwitchBuffer : public Object
{
  public:
    /// How the XOFF threshold is set.
    enum ThresholdMode
    {
        STATIC,  //!< StaticXoff bytes of shared buffer per queue
        DYNAMIC, //!< Alpha x the free shared buffer
    };

    /// Where a frame went (or why not).
    enum Placement : uint8_t
    {
        RESERVE,           //!< its queue's reserve
        SHARED,            //!< the shared pool
        HEADROOM,          //!< its queue's headroom (lossless class, after XOFF)
        SHARED_FULL,       //!< dropped: a lossy class found no room
        HEADROOM_OVERFLOW, //!< dropped: a lossless class's headroom is full
    };

    /// The state and counters of one ingress queue (port, class).
    struct QueueStats
    {
        uint32_t reserveBytes{0};     //!< bytes in its reserve now
        uint32_t sharedBytes{0};      //!< bytes in the shared pool now
        uint32_t headroomBytes{0};    //!< bytes in its headroom now
        uint32_t peakBytes{0};        //!< most bytes it held
        uint64_t headroomFrames{0};   //!< frames admitted into its headroom
        uint64_t headroomAdmitted{0}; //!< bytes admitted into its headroom
        uint64_t drops{0};            //!< frames dropped (SHARED_FULL or HEADROOM_OVERFLOW)
        uint64_t xoffs{0};            //!< times it went XOFF
        bool xoff{false};             //!< XOFF now
    };

    /**
     * TracedCallback signature for XOFF and XON.
     * \param port the ingress port's index
     * \param cls the class
     */
    typedef void (*PauseTracedCallback)(uint32_t port, uint8_t cls);
    /**
     * TracedCallback signature for frames the buffer drops.
     * \param port the ingress port's index
     * \param cls the class
     * \param bytes the frame's bytes
     * \param why SHARED_FULL or HEADROOM_OVERFLOW
     */
    typedef void (*DropTracedCallback)(uint32_t port, uint8_t cls, uint32_t bytes, Placement why);

    /// Classes, as EthernetNetDevice::PFC_CLASSES.
    static constexpr uint8_t CLASSES = 8;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchBuffer();
    ~SwitchBuffer() override;

    /**
     * \brief Adds an ingress port (in the switch's port order) and sizes its
     * headroom (Headroom, or from its link's rate and delay). Set the
     * attributes before the first port: the split of the buffer is made here.
     * Throws std::invalid_argument, naming the sizes, if the reserves and
     * headrooms of the ports would exceed BufferSize.
     * \param port the port
     * \return its index
     */
    uint32_t AddPort(Ptr<EthernetNetDevice> port);
    /**
     * \brief The bytes that the reserves and headrooms of a switch's ports
     * take (as AddPort() would set them, from the attributes as they are
     * now): the smallest BufferSize that takes them all, with no shared pool.
     * \param ports the ports
     * \return the bytes
     */
    uint64_t GetCommittedSize(const std::vector<Ptr<EthernetNetDevice>>& ports) const;
    /**
     * \brief Throws std::invalid_argument, naming every size once, if the
     * reserves and headrooms of these ports exceed BufferSize.
     * \param ports all the ports of the switch
     */
    void RequireRoomFor(const std::vector<Ptr<EthernetNetDevice>>& ports) const;
    /// \return the ports added
    uint32_t GetNPorts() const;

    /**
     * \brief Decides where a frame goes; a drop is counted, traced and logged
     * here, an admission takes effect with Add().
     * \param port the ingress port's index
     * \param cls its class
     * \param bytes its bytes in the egress queue
     * \return RESERVE, SHARED or HEADROOM; SHARED_FULL or HEADROOM_OVERFLOW: dropped
     */
    Placement Admit(uint32_t port, uint8_t cls, uint32_t bytes);
    /**
     * \brief Takes the bytes of an admitted frame (its egress queue took it),
     * and pauses its ingress queue if it crossed the XOFF threshold.
     * \param port the ingress port's index
     * \param cls its class
     * \param bytes its bytes
     * \param placement what Admit() said
     */
    void Add(uint32_t port, uint8_t cls, uint32_t bytes, Placement placement);
    /**
     * \brief Frees the bytes of a frame that left its egress queue, and
     * resumes its ingress queue if it fell below the XON threshold.
     * \param port the ingress port's index
     * \param cls its class
     * \param bytes its bytes
     */
    void Remove(uint32_t port, uint8_t cls, uint32_t bytes);

    /// \param cls a class \return true if LosslessClasses names it
    bool IsLossless(uint8_t cls) const;
    /// \return the XOFF threshold now, bytes of shared buffer per queue
    uint64_t GetXoffThreshold() const;
    /// \return the shared pool: BufferSize - every reserve - every headroom
    uint64_t GetSharedPoolSize() const;
    /// \return shared bytes in use, every queue together
    uint64_t GetSharedUsed() const;
    /// \return bytes held, every queue together
    uint64_t GetUsed() const;
    /// \return the most bytes held at once
    uint64_t GetPeakUsed() const;
    /// \param port a port index \return the headroom of each of its lossless classes
    uint32_t GetHeadroom(uint32_t port) const;
    /**
     * \param port a port index
     * \param cls a class
     * \return its ingress queue's state and counters
     */
    QueueStats GetQueueStats(uint32_t port, uint8_t cls) const;
    /// \return frames dropped as HEADROOM_OVERFLOW, every queue together
    uint64_t GetHeadroomDrops() const;
    /// \return frames dropped as SHARED_FULL, every queue together
    uint64_t GetSharedDrops() const;
    /// \param why a drop placement \return its name ("shared-buffer-full", ...)
    static std::string GetPlacementName(Placement why);

    /**
     * \brief The headroom that absorbs what a link delivers after XOFF.
     * \param port a port on its link (its DataRate, InterframeGap, MTU and
     *        its channel's Delay)
     * \return bytes (see the class documentation)
     */
    static uint32_t ComputeHeadroom(Ptr<EthernetNetDevice> port);

  protected:
    void DoDispose() override;

  private:
    /// \param port a port \return its headroom per lossless class: Headroom, or
    ///         ComputeHeadroom() where that is 0
    uint32_t GetHeadroomOf(Ptr<EthernetNetDevice> port) const;
    /**
     * Throws std::invalid_argument, naming every size once, if \p committed
     * bytes exceed BufferSize.
     * \param committed the bytes the ports' reserves and headrooms take
     * \param ports the ports they are of
     */
    void RequireRoomFor(uint64_t committed, std::size_t ports) const;
    /// \param port a port index \param cls a class \return its queue (checked)
    QueueStats& At(uint32_t port, uint8_t cls);
    /// \param q a lossless queue \param port its port \param cls its class
    void CheckXoff(QueueStats& q, uint32_t port, uint8_t cls);
    /// \param q a lossless queue \param port its port \param cls its class
    void CheckXon(QueueStats& q, uint32_t port, uint8_t cls);
    /// \param port a port index \param cls a class \param paused XOFF or XON
    void SetPaused(uint32_t port, uint8_t cls, bool paused);

    uint64_t m_bufferSize{0};      //!< BufferSize
    uint32_t m_reserve{0};         //!< ReservePerQueue
    uint32_t m_resumeOffset{0};    //!< ResumeOffset
    ThresholdMode m_mode{DYNAMIC}; //!< ThresholdMode
    double m_alpha{0};             //!< Alpha
    uint32_t m_staticXoff{0};      //!< StaticXoff
    uint32_t m_headroomAttr{0};    //!< Headroom (0: from the link)
    uint8_t m_lossless{0};         //!< LosslessClasses, one bit per class

    std::vector<Ptr<EthernetNetDevice>> m_ports; //!< ingress ports, by index
    std::vector<uint32_t> m_headroom;            //!< headroom per port (each lossless class)
    std::vector<QueueStats> m_queues;            //!< port x CLASSES + class
    uint64_t m_totalHeadroom{0};                 //!< every lossless queue's headroom
    uint64_t m_sharedUsed{0};                    //!< shared bytes in use
    uint64_t m_used{0};                          //!< bytes held
    uint64_t m_peakUsed{0};                      //!< most bytes held
    uint64_t m_headroomDrops{0};                 //!< HEADROOM_OVERFLOW drops
    uint64_t m_sharedDrops{0};                   //!< SHARED_FULL drops

    TracedCallback<uint32_t, uint8_t> m_xoffTrace;                      //!< Xoff
    TracedCallback<uint32_t, uint8_t> m_xonTrace;                       //!< Xon
    TracedCallback<uint32_t, uint8_t, uint32_t, Placement> m_dropTrace; //!< Drop
};

} // namespace ns3

#endif /* SWITCH_BUFFER_H */
