/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "initiator-table.h"

#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace ns3
{

uint16_t
InitiatorTable::Allocate()
{
    for (uint32_t tries = 0; m_next == 0 || m_connections.count(m_next) || IsHeld(m_next); ++tries)
    {
        if (tries > TIDS + 1)
        {
            throw std::runtime_error("DrpTransport: all 65535 transfer ids are in use or held "
                                     "back after failed transfers");
        }
        ++m_next;
    }
    return m_next++;
}

InitiatorConnection&
InitiatorTable::Insert(uint16_t tid, std::unique_ptr<InitiatorConnection> connection)
{
    auto& slot = m_connections[tid];
    slot = std::move(connection);
    return *slot;
}

InitiatorConnection*
InitiatorTable::Find(uint16_t tid) const
{
    auto it = m_connections.find(tid);
    return it == m_connections.end() ? nullptr : it->second.get();
}

std::unique_ptr<InitiatorConnection>
InitiatorTable::Remove(uint16_t tid)
{
    auto it = m_connections.find(tid);
    if (it == m_connections.end())
    {
        return nullptr;
    }
    std::unique_ptr<InitiatorConnection> connection = std::move(it->second);
    m_connections.erase(it);
    return connection;
}

void
InitiatorTable::Hold(uint16_t tid, Time until)
{
    m_held[tid] = until;
}

bool
InitiatorTable::IsHeld(uint16_t tid)
{
    auto it = m_held.find(tid);
    if (it == m_held.end())
    {
        return false;
    }
    if (it->second <= Simulator::Now())
    {
        m_held.erase(it);
        return false;
    }
    return true;
}

Time
InitiatorTable::GetFreeAt(uint32_t count) const
{
    // A TID is never both in use and held.
    Time now = Simulator::Now();
    if (m_connections.size() + m_held.size() + count <= TIDS)
    {
        return now; // free even if no hold has ended
    }
    std::vector<Time> holds; // holds not yet ended
    for (const auto& held : m_held)
    {
        if (held.second > now)
        {
            holds.push_back(held.second);
        }
    }
    size_t free = TIDS - m_connections.size() - holds.size();
    if (free >= count)
    {
        return now;
    }
    size_t missing = count - free;
    if (missing > holds.size())
    {
        return Time::Max();
    }
    std::nth_element(holds.begin(), holds.begin() + (missing - 1), holds.end());
    return holds[missing - 1];
}

size_t
InitiatorTable::GetSize() const
{
    return m_connections.size();
}

const InitiatorTable::Map&
InitiatorTable::GetAll() const
{
    return m_connections;
}

void
InitiatorTable::Clear()
{
    m_connections.clear();
}

} // namespace ns3
