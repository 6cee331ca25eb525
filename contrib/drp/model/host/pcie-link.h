/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PCIE_LINK_H
#define PCIE_LINK_H

#include "host-memory.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/drp-compat.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/traced-callback.h"
#include "ns3/tx-time-cache.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup drp
 * \brief The PCIe connection between a host and its RNIC: the timing of every
 * host/RNIC interaction, and the RNIC's DMA access to host memory.
 *
 * Four kinds of transaction cross it:
 *
 * - **Doorbell** (host -> RNIC MMIO write) and **Interrupt** (RNIC -> host
 *   MSI): one posted TLP each; they arrive after Latency.
 * - **DMA read** (RNIC reads host memory, e.g. a payload to transmit): the
 *   RNIC's read DMA engine spends DmaSetupTime on the request (descriptor
 *   handling), the request crosses the link (Latency), the completions come
 *   back (Latency plus their serialisation). The engine can start the next
 *   request after DmaSetupTime plus the serialisation of this one, so reads
 *   pipeline.
 * - **DMA write** (RNIC writes host memory, e.g. a received payload): the
 *   write DMA engine spends DmaSetupTime plus the serialisation of the data;
 *   the data is in memory Latency later. A batched write (the indirect
 *   buffer's flush) is one request for all its pieces: one DmaSetupTime.
 *
 * Serialisation counts TLP framing: a transfer of n bytes is split into
 * ceil(n / MaxPayloadSize) TLPs, each carrying TlpOverhead extra bytes, at
 * Bandwidth. Each DMA engine serves one request at a time (first come, first
 * served), so a stream of small requests pays DmaSetupTime per request: this
 * per-request cost is what makes small frames slower on the direct receive
 * path, which issues one write per frame, than on the indirect path, which
 * writes the whole buffered transfer in one request.
 *
 * Defaults describe a PCIe 2.0 x4 link, the host interface of a Broadcom
 * BCM5718-class GbE controller (5 GT/s per lane, 8b/10b coding: 16 Gbit/s of
 * TLP bandwidth per direction; 256-byte maximum payload; 24 bytes of TLP
 * framing, sequence number, header and LCRC per TLP). See the module
 * documentation for sources.
 */
class PcieLink : public Object
{
  public:
    /// Kinds of PCIe transaction, for the Transaction trace.
    enum Kind
    {
        DOORBELL,  //!< host -> RNIC register write
        INTERRUPT, //!< RNIC -> host MSI
        DMA_READ,  //!< RNIC reads host memory
        DMA_WRITE, //!< RNIC writes host memory
    };

    /// Called with the bytes a DMA read returned.
    typedef Callback<void, Ptr<Packet>> ReadCallback;
    /// One piece of a batched DMA write: host address and bytes.
    typedef std::pair<uint64_t, Ptr<const Packet>> WritePiece;

    /**
     * TracedCallback signature for transactions.
     * \param kind the kind of transaction
     * \param bytes the payload bytes it moved (0 for doorbells and interrupts)
     */
    typedef void (*TransactionTracedCallback)(Kind kind, uint32_t bytes);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    PcieLink();

    /// \param memory the host memory DMA requests reach
    void SetHostMemory(Ptr<HostMemory> memory);
    /// \return the host memory DMA requests reach
    Ptr<HostMemory> GetHostMemory() const;

    // The handlers below may be anything callable: an ns-3 Callback, or a
    // lambda. A lambda travels inside the one simulator event that carries
    // it, with no Callback to build, which matters on the per-frame paths.

    /**
     * The host rings an RNIC doorbell; \p handler runs on the RNIC side.
     * \tparam F callable with no arguments
     * \param handler what the RNIC does on the doorbell
     */
    template <typename F>
    void Doorbell(F handler);
    /**
     * The RNIC raises an interrupt; \p handler runs on the host side.
     * \tparam F callable with no arguments
     * \param handler what the host does on the interrupt
     */
    template <typename F>
    void Interrupt(F handler);
    /**
     * The RNIC DMA-reads host memory.
     * \tparam F callable with a Ptr<Packet>, e.g. a ReadCallback
     * \param address first byte
     * \param length bytes
     * \param done receives the bytes when the completions have arrived
     * \param then extra time before \p done runs: the RNIC's own processing
     *        of the result, in the same simulator event
     */
    template <typename F>
    void DmaRead(uint64_t address, uint32_t length, F done, Time then = Time(0));
    /**
     * The RNIC DMA-writes host memory (one request).
     * \tparam F callable with no arguments
     * \param address first byte
     * \param data the bytes
     * \param done runs when the bytes are in host memory
     * \param then extra time before \p done runs (as for DmaRead())
     */
    template <typename F>
    void DmaWrite(uint64_t address, Ptr<const Packet> data, F done, Time then = Time(0));
    /**
     * The RNIC DMA-writes several pieces in one request.
     * \param pieces address and bytes of each piece
     * \param done runs when all bytes are in host memory
     */
    void DmaWriteBatch(const std::vector<WritePiece>& pieces, Callback<void> done);

    /**
     * A DMA request whose bytes the model does not keep: a frame of other
     * traffic (IP, ARP) that the RNIC moves between the wire and the host's
     * network stack. It costs what any DMA request costs.
     * \tparam F callable with no arguments
     * \param toHost true: a write to host memory (receive); false: a read (transmit)
     * \param bytes bytes moved
     * \param done runs when the bytes have arrived
     */
    template <typename F>
    void DmaMove(bool toHost, uint32_t bytes, F done);

    /**
     * \param bytes payload bytes
     * \return the time to serialise them as TLPs at Bandwidth
     */
    Time GetSerializationTime(uint32_t bytes) const;
    /// \return the one-way latency of a TLP
    Time GetLatency() const;
    /// \return the DMA engines' per-request set-up time
    Time GetDmaSetupTime() const;
    /**
     * \param bytes payload bytes per request
     * \return the most one DMA engine moves in requests of that size:
     *         bytes / (DmaSetupTime + GetSerializationTime(bytes)), whatever
     *         the Latency (requests pipeline)
     */
    DataRate GetDmaRate(uint32_t bytes) const;
    /**
     * \param kind a kind of transaction
     * \return how many of that kind this link has carried
     */
    uint64_t GetTransactionCount(Kind kind) const;

  protected:
    void DoDispose() override;

  private:
    /**
     * Counts and traces a transaction.
     * \param kind its kind
     * \param bytes the payload bytes it moves
     */
    void Count(Kind kind, uint32_t bytes);
    /**
     * Books a DMA engine for one request.
     * \param engineFree when the engine is free; advanced past this request
     * \param bytes payload bytes of the request
     * \return when the request's data has crossed the link
     */
    Time BookEngine(Time& engineFree, uint32_t bytes);
    /**
     * Counts a doorbell or an interrupt.
     * \param kind DOORBELL or INTERRUPT
     * \return the delay until it arrives
     */
    Time StartSignal(Kind kind);
    /**
     * Counts a DMA read and books the read engine.
     * \param address first byte
     * \param length bytes
     * \return the delay until the completions have arrived
     */
    Time StartRead(uint64_t address, uint32_t length);
    /**
     * Counts a DMA write and books the write engine.
     * \param address first byte
     * \param bytes bytes
     * \return the delay until the bytes are in host memory
     */
    Time StartWrite(uint64_t address, uint32_t bytes);
    /**
     * Counts a DMA request of other traffic and books its engine.
     * \param toHost true: a write; false: a read
     * \param bytes bytes
     * \return the delay until the bytes have arrived
     */
    Time StartMove(bool toHost, uint32_t bytes);
    /**
     * \param address first byte
     * \param length bytes
     * \return the bytes of host memory
     */
    Ptr<Packet> ReadMemory(uint64_t address, uint32_t length);
    /**
     * \param address first byte
     * \param data bytes to store in host memory
     */
    void WriteMemory(uint64_t address, Ptr<const Packet> data);
    /// Writes each piece to host memory, then runs \p done.
    void CompleteWrite(std::vector<WritePiece> pieces, Callback<void> done);
    /**
     * Sets the bandwidth, checking it.
     * \param rate TLP bandwidth per direction
     */
    void SetBandwidth(DataRate rate);
    /**
     * Sets the maximum TLP payload, checking it.
     * \param bytes maximum payload size
     */
    void SetMaxPayloadSize(uint32_t bytes);
    DataRate GetBandwidth() const;       //!< \return TLP bandwidth per direction
    uint32_t GetMaxPayloadSize() const;  //!< \return maximum TLP payload
    void SetLatency(Time latency);       //!< \param latency one-way TLP latency
    void SetDmaSetupTime(Time time);     //!< \param time per-request DMA time
    void SetTlpOverhead(uint32_t bytes); //!< \param bytes per-TLP overhead
    uint32_t GetTlpOverhead() const;     //!< \return per-TLP overhead

    Ptr<HostMemory> m_memory;       //!< host memory behind the root complex
    DataRate m_bandwidth;           //!< TLP bandwidth per direction
    mutable TxTimeCache m_txTimes;  //!< serialisation times per size at m_bandwidth
    Time m_latency;                 //!< one-way latency of a TLP through link and root complex
    Time m_dmaSetupTime;            //!< per-request time of a DMA engine
    uint32_t m_maxPayload;          //!< maximum TLP payload, bytes
    uint32_t m_tlpOverhead;         //!< framing, header and LCRC bytes per TLP
    Time m_readEngineFree;          //!< when the read DMA engine can take a request
    Time m_writeEngineFree;         //!< when the write DMA engine can take a request
    uint64_t m_count[4];            //!< transactions per Kind
    std::vector<uint8_t> m_scratch; //!< bytes between host memory and packets
    TracedCallback<Kind, uint32_t> m_transactionTrace; //!< every transaction
};

template <typename F>
void
PcieLink::Doorbell(F handler)
{
    drp::Schedule(StartSignal(DOORBELL), handler);
}

template <typename F>
void
PcieLink::Interrupt(F handler)
{
    drp::Schedule(StartSignal(INTERRUPT), handler);
}

template <typename F>
void
PcieLink::DmaRead(uint64_t address, uint32_t length, F done, Time then)
{
    drp::Schedule(
        StartRead(address, length) + then,
        [this, address, length, done = std::move(done)]() { done(ReadMemory(address, length)); });
}

template <typename F>
void
PcieLink::DmaWrite(uint64_t address, Ptr<const Packet> data, F done, Time then)
{
    drp::Schedule(StartWrite(address, data->GetSize()) + then,
                  [this, address, data, done = std::move(done)]() {
                      WriteMemory(address, data);
                      done();
                  });
}

template <typename F>
void
PcieLink::DmaMove(bool toHost, uint32_t bytes, F done)
{
    drp::Schedule(StartMove(toHost, bytes), done);
}

} // namespace ns3

#endif /* PCIE_LINK_H */
