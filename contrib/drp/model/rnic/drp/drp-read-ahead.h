/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_READ_AHEAD_H
#define DRP_READ_AHEAD_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The transmit DMA engine's read-ahead of a transfer's source: one
 * DMA read request fetches the payload of several consecutive data frames.
 *
 * A transmit engine that is given a whole source region (an RDMA write's
 * source, a read's responder region) need not read it frame by frame: a DMA
 * engine divides a large read into requests of its own maximum size (a PCIe
 * Max_Read_Request_Size), whatever the frames that the payload later leaves
 * in. DrpTransport's TxReadBytes sets that size; 0 (the paper's card, and
 * this class's default) keeps one read per frame: the transport then does
 * not ask this class (IsOn()).
 *
 * Per transfer (transmit flow), the engine reads the source in *chunks*: as
 * many whole frames as fit in the request size (at least one), cut at the
 * source's end. It keeps one chunk ahead of the frames being sent (double
 * buffering): the frame that opens a chunk also has the next one read, and
 * the first frame that takes its payload from that next chunk has the one
 * after it read, so that the port does not wait for a whole request at each
 * chunk's start. A frame inside a chunk takes its payload from it once its
 * read completed; a frame beyond them opens a new chunk at its own address;
 * a frame before them (a re-sent one) is read alone and the chunks stay. The
 * receive path is not concerned: it writes each frame it places as one
 * request (the frames arrive one by one).
 */
class DrpReadAhead
{
  public:
    /// Bytes read ahead in one request, and the frames waiting for them.
    struct Chunk
    {
        uint64_t start{0}; //!< host address of its first byte
        uint64_t end{0};   //!< one past its last byte
        Ptr<Packet> data;  //!< the bytes, once the read completed (null until then)
        std::vector<std::function<void()>> waiting; //!< frames waiting for data, in order
        /**
         * \param address the first byte of a frame's payload inside the chunk
         * \param length its bytes
         * \return a copy of those bytes (the chunk's read has completed)
         */
        Ptr<Packet> Cut(uint64_t address, uint32_t length) const;
    };

    /// Where a frame's payload comes from.
    struct Source
    {
        std::shared_ptr<Chunk> chunk;               //!< its chunk (null: read the frame alone)
        std::vector<std::shared_ptr<Chunk>> opened; //!< chunks to read now, in order
    };

    /// \param bytes the most one request reads (0: off, every frame read alone)
    void SetRequestBytes(uint32_t bytes);
    /// \return the most one request reads (0: off)
    uint32_t GetRequestBytes() const;
    /// \return true if frames are read ahead (a request size is set)
    bool IsOn() const;

    /**
     * Finds the chunk of a frame's payload, opening the chunks that are to
     * be read now (the frame's own if it is beyond the flow's chunks, and the
     * one after the frame's chunk if it is not open yet).
     * \param flow the frame's transmit flow
     * \param address the host address of its payload
     * \param length its payload bytes
     * \param sourceEnd one past the last byte of the transfer's source (0:
     *        unknown, the chunk holds this frame only)
     * \return its chunk, or none if the frame is read alone
     */
    Source Find(uint64_t flow, uint64_t address, uint32_t length, uint64_t sourceEnd);
    /// \param flow a transmit flow that closed: its chunk is forgotten
    void Forget(uint64_t flow);

  private:
    uint32_t m_requestBytes{0}; //!< one request, at most (0: off)

    /// A flow's chunks: the one being sent from, and the one read ahead.
    struct Stream
    {
        std::shared_ptr<Chunk> current; //!< the frames being sent take their payload from it
        std::shared_ptr<Chunk> next;    //!< read ahead of them (null at the source's end)
    };

    /**
     * \param start its first byte
     * \param frameBytes the flow's payload per frame
     * \param sourceEnd one past the source's last byte (0: unknown)
     * \return a new chunk, or null if \p start is at the source's end
     */
    std::shared_ptr<Chunk> Open(uint64_t start, uint32_t frameBytes, uint64_t sourceEnd);

    std::unordered_map<uint64_t, Stream> m_streams; //!< per flow
};

} // namespace ns3

#endif /* DRP_READ_AHEAD_H */
