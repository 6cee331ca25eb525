/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "drp-read-ahead.h"

#include <algorithm>

namespace ns3
{

Ptr<Packet>
DrpReadAhead::Chunk::Cut(uint64_t address, uint32_t length) const
{
    return data->CreateFragment(static_cast<uint32_t>(address - start), length);
}

void
DrpReadAhead::SetRequestBytes(uint32_t bytes)
{
    m_requestBytes = bytes; // DrpTransport::SetTxReadBytes checks the range
}

uint32_t
DrpReadAhead::GetRequestBytes() const
{
    return m_requestBytes;
}

bool
DrpReadAhead::IsOn() const
{
    return m_requestBytes != 0;
}

std::shared_ptr<DrpReadAhead::Chunk>
DrpReadAhead::Open(uint64_t start, uint32_t frameBytes, uint64_t sourceEnd)
{
    if (sourceEnd != 0 && start >= sourceEnd)
    {
        return nullptr;
    }
    // Whole frames, as many as fit (at least one), up to the source's end.
    uint64_t frames = std::max<uint64_t>(1, m_requestBytes / std::max<uint32_t>(frameBytes, 1));
    uint64_t end = start + frames * frameBytes;
    if (sourceEnd != 0)
    {
        end = std::min(end, sourceEnd);
    }
    auto chunk = std::make_shared<Chunk>();
    chunk->start = start;
    chunk->end = end;
    return chunk;
}

DrpReadAhead::Source
DrpReadAhead::Find(uint64_t flow, uint64_t address, uint32_t length, uint64_t sourceEnd)
{
    auto covers = [address, length](const std::shared_ptr<Chunk>& chunk) {
        return chunk && address >= chunk->start && address + length <= chunk->end;
    };
    Stream& stream = m_streams[flow];
    Source source;
    if (covers(stream.current))
    {
        source.chunk = stream.current;
    }
    else if (stream.current && address < stream.current->start)
    {
        return source; // a re-sent frame: the stream goes on from its chunks
    }
    else if (covers(stream.next))
    {
        // The frames reached the chunk read ahead: the one after it is read now.
        stream.current = stream.next;
        stream.next = nullptr;
        source.chunk = stream.current;
    }
    else
    {
        // The first frame, or one beyond both chunks: start over from it.
        stream.current = Open(address, length, sourceEnd ? sourceEnd : address + length);
        stream.next = nullptr;
        source.chunk = stream.current;
        source.opened.push_back(stream.current);
    }
    if (!stream.next)
    {
        stream.next =
            Open(stream.current->end, length, sourceEnd ? sourceEnd : stream.current->end);
        if (stream.next)
        {
            source.opened.push_back(stream.next);
        }
    }
    return source;
}

void
DrpReadAhead::Forget(uint64_t flow)
{
    m_streams.erase(flow);
}

} // namespace ns3
