/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MODE_POLICY_H
#define MODE_POLICY_H

#include "ns3/object.h"

#include <string>

namespace ns3
{

/**
 * \ingroup drp
 * \brief When a transfer leaves the handshake and starts moving data before
 * the connection is up: the only place where the traditional and the
 * dynamic RNIC differ in behaviour.
 *
 * Write, decided by the initiator:
 *
 *     valid reply            -> direct (both methods)
 *     invalid reply          -> dynamic: indirect now; traditional: wait for the timer
 *     timer fires, no reply  -> resend the request; dynamic: on expiry number
 *                               ExpiriesBeforeIndirect with no reply at all, indirect
 *
 * Read, decided by the responder after its valid reply: if the initiator's
 * confirmation has not come after ExpiriesBeforeIndirect expiries, the
 * dynamic responder starts the data in indirect mode. A failed registration
 * on a read cannot be worked around (the responder cannot DMA-read
 * unregistered memory): both methods re-request.
 *
 * While indirect and not yet connected, the dynamic initiator keeps
 * requesting (the request itself may have been lost, or the responder's
 * registration may have failed): on its timer, and after every
 * RequestEveryFrames data frames it sends.
 *
 * The traditional method never goes indirect.
 */
class ModePolicy : public Object
{
  public:
    /// The two RNIC methods.
    enum Method
    {
        TRADITIONAL, //!< finish the handshake before any data
        DYNAMIC,     //!< send into the indirect buffer while the handshake completes
        ROCE,        //!< no DRP: RoCEv2's RC transport runs the verbs (RoceTransport)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    ModePolicy();

    /// \return the method
    Method GetMethod() const;
    /// \param method the method
    void SetMethod(Method method);
    /// \return "traditional" or "dynamic"
    std::string GetMethodName() const;

    /// \return true if a write goes indirect as soon as an invalid reply arrives
    bool IndirectOnInvalidReply() const;
    /**
     * \param expiries consecutive timer expiries with no reply (write) or no
     *        confirmation (read) at all
     * \return true if the transfer goes indirect now
     */
    bool IndirectAfterExpiries(uint32_t expiries) const;

    /**
     * While a write is indirect and its connection is not up, the dynamic
     * initiator keeps requesting: besides its timer, it re-sends the request
     * after every RequestEveryFrames data frames it sends.
     * \param framesSent data frames sent since the last request
     * \return true if the request goes out again now
     */
    bool RequestAgainDuringIndirect(uint32_t framesSent) const;

    /**
     * Parses a method name.
     * \param name "traditional", "dynamic" or "roce"
     * \return the method; throws std::invalid_argument on any other name
     */
    static Method ParseMethod(const std::string& name);
    /// \param method a method \return its name, as ParseMethod() reads it
    static std::string GetName(Method method);

  private:
    /**
     * Sets the expiry count, checking it.
     * \param expiries count, at least 1
     */
    void SetExpiriesBeforeIndirect(uint32_t expiries);
    /// \return the expiry count
    uint32_t GetExpiriesBeforeIndirect() const;
    /// \param frames data frames between requests while indirect (0: timer only)
    void SetRequestEveryFrames(uint32_t frames);
    /// \return data frames between requests while indirect
    uint32_t GetRequestEveryFrames() const;

    Method m_method;                   //!< traditional or dynamic
    uint32_t m_expiriesBeforeIndirect; //!< dynamic: expiries with no answer before going indirect
    uint32_t m_requestEveryFrames;     //!< dynamic: data frames between requests while indirect
};

} // namespace ns3

#endif /* MODE_POLICY_H */
