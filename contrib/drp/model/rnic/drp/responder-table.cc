/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "responder-table.h"

namespace ns3
{

void
ResponderTable::SetMaxPerPeer(uint32_t records)
{
    m_maxPerPeer = records;
}

void
ResponderTable::SetMaxTotal(uint32_t records)
{
    m_maxTotal = records;
}

uint32_t
ResponderTable::GetMaxPerPeer() const
{
    return m_maxPerPeer;
}

uint32_t
ResponderTable::GetMaxTotal() const
{
    return m_maxTotal;
}

ResponderConnection*
ResponderTable::Find(Key key) const
{
    auto it = m_records.find(key);
    return it == m_records.end() ? nullptr : it->second.get();
}

ResponderConnection&
ResponderTable::Insert(std::unique_ptr<ResponderConnection> record)
{
    const Key key = record->GetKey();
    ++m_perPeer[key.first];
    auto& slot = m_records[key];
    slot = std::move(record);
    return *slot;
}

std::unique_ptr<ResponderConnection>
ResponderTable::Erase(Key key)
{
    auto it = m_records.find(key);
    if (it == m_records.end())
    {
        return nullptr;
    }
    std::unique_ptr<ResponderConnection> record = std::move(it->second);
    m_records.erase(it);
    if (--m_perPeer[key.first] == 0)
    {
        m_perPeer.erase(key.first);
    }
    return record;
}

bool
ResponderTable::IsFull(Mac48Address peer) const
{
    auto it = m_perPeer.find(peer);
    return (it != m_perPeer.end() && it->second >= m_maxPerPeer) || m_records.size() >= m_maxTotal;
}

void
ResponderTable::NoteReleased(Key key)
{
    m_releasedOrder.push_back(key);
}

ResponderConnection*
ResponderTable::FindReleased(Key key) const
{
    ResponderConnection* record = Find(key);
    return record && record->IsReleased() ? record : nullptr;
}

std::vector<ResponderTable::Key>
ResponderTable::GetExpiredReleased(bool oldestOnly)
{
    std::vector<Key> expired;
    for (auto it = m_releasedOrder.begin(); it != m_releasedOrder.end();)
    {
        ResponderConnection* record = FindReleased(*it);
        if (!record)
        {
            it = m_releasedOrder.erase(it); // forgotten, or the key's record is a new one
            continue;
        }
        if (record->IsExpired())
        {
            expired.push_back(*it);
        }
        else if (oldestOnly)
        {
            break;
        }
        ++it;
    }
    return expired;
}

bool
ResponderTable::TakeReleasedToEvict(Mac48Address peer, Key& key)
{
    auto own = m_perPeer.find(peer);
    const bool peerFull = own != m_perPeer.end() && own->second >= m_maxPerPeer;
    for (auto it = m_releasedOrder.begin(); it != m_releasedOrder.end();)
    {
        if (!FindReleased(*it))
        {
            it = m_releasedOrder.erase(it); // forgotten, or the key's record is a new one
            continue;
        }
        if (peerFull && it->first != peer)
        {
            ++it; // forgetting another initiator's record frees none of peer's room
            continue;
        }
        key = *it;
        m_releasedOrder.erase(it);
        return true;
    }
    return false;
}

void
ResponderTable::TrimReleased()
{
    while (!m_releasedOrder.empty() && !Find(m_releasedOrder.front()))
    {
        m_releasedOrder.pop_front(); // forgotten meanwhile
    }
}

size_t
ResponderTable::GetSize() const
{
    return m_records.size();
}

size_t
ResponderTable::GetActive() const
{
    size_t active = 0;
    for (const auto& record : m_records)
    {
        active += !record.second->IsReleased();
    }
    return active;
}

void
ResponderTable::Clear()
{
    m_records.clear();
    m_perPeer.clear();
    m_releasedOrder.clear();
}

} // namespace ns3
