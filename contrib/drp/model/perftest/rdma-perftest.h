/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_PERFTEST_H
#define RDMA_PERFTEST_H

#include "ns3/object.h"
#include "ns3/rdma-context.h"
#include "ns3/traced-callback.h"

#include <array>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class RnicNetDevice;

/**
 * \ingroup drp
 * \brief perftest's tools (ib_write_bw, ib_write_lat, ib_read_bw,
 * ib_read_lat, ib_send_bw, ib_send_lat) on two of drp's RNICs, through
 * the verbs, with perftest's options and its report.
 *
 * Setup() opens a context on each RNIC, registers one buffer per queue
 * pair on each (the largest size, LOCAL_WRITE, REMOTE_WRITE and
 * REMOTE_READ), creates a completion queue and Qps RC queue pairs on each
 * and connects them (the QP numbers exchanged out of band, as perftest does
 * over TCP: no simulated time), then runs each size in turn, 2 B to 8 MiB
 * doubling with AllSizes, else Size. Setup's registrations are not measured,
 * as perftest measures from its first post.
 *
 * Bandwidth tests (as perftest's): the client keeps TxDepth requests posted
 * per queue pair, Iterations per queue pair in all, every one signalled (the
 * simulated host polls for free: perftest's cq_mod changes nothing here);
 * SEND's server keeps RxDepth receives posted. BW average = bytes x
 * iterations x queue pairs / (last completion - first post); BW peak the
 * best of the same over every run of consecutive requests (perftest's
 * peak with cq_mod 1); MsgRate = requests / time. Bidirectional: both ends
 * are clients at once, and the report adds their bandwidths.
 *
 * Latency tests (one queue pair): READ posts one request at a time, the next
 * when the last completes; WRITE and SEND ping-pong, the server answering each
 * arrival (a WRITE's last byte landing in its buffer, which perftest's server
 * polls for; a SEND's receive completion) with its own. Each sample is the
 * time between two posts of the client, halved for WRITE and SEND (a round
 * trip); as perftest, the two largest of the Iterations - 1 samples are left
 * out, t_typical is the median, t_max the largest left and the 99 % and
 * 99.9 % percentiles perftest's indices; t_stdev is the standard deviation
 * (perftest truncates the deviations to integers first; drp does not).
 */
class RdmaPerftest : public Object
{
  public:
    /// The test (perftest's program).
    enum Test
    {
        WRITE_BW,   //!< ib_write_bw
        WRITE_LAT,  //!< ib_write_lat
        READ_BW,    //!< ib_read_bw
        READ_LAT,   //!< ib_read_lat
        SEND_BW,    //!< ib_send_bw
        SEND_LAT,   //!< ib_send_lat
        ATOMIC_LAT, //!< ib_atomic_lat
    };

    /// One line of a bandwidth report.
    struct BwResult
    {
        uint32_t bytes{0};      //!< #bytes
        uint64_t iterations{0}; //!< #iterations (all queue pairs)
        double peakGbps{0};     //!< BW peak[Gb/sec]
        double averageGbps{0};  //!< BW average[Gb/sec]
        double msgRateMpps{0};  //!< MsgRate[Mpps]
    };

    /// One line of a latency report (microseconds).
    struct LatResult
    {
        uint32_t bytes{0};      //!< #bytes
        uint64_t iterations{0}; //!< #iterations
        double min{0};          //!< t_min[usec]
        double max{0};          //!< t_max[usec]
        double typical{0};      //!< t_typical[usec] (the median)
        double average{0};      //!< t_avg[usec]
        double stdev{0};        //!< t_stdev[usec]
        double p99{0};          //!< 99% percentile[usec]
        double p999{0};         //!< 99.9% percentile[usec]
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    RdmaPerftest();

    /**
     * \param name "write_bw", "write_lat", "read_bw", "read_lat", "send_bw" or "send_lat"
     * \return the test (std::invalid_argument naming the valid ones otherwise)
     */
    static Test ParseTest(const std::string& name);
    /// \param test a test \return its name, as ParseTest takes it
    static std::string GetTestName(Test test);

    /**
     * Opens the verbs on both RNICs and starts the test once the buffers are
     * registered (each RNIC must have no other host).
     * \param client the RNIC of perftest's client (host 0)
     * \param server the RNIC of its server
     */
    void Setup(Ptr<RnicNetDevice> client, Ptr<RnicNetDevice> server);

    /// \return true once every size has run
    bool IsDone() const;
    /// \return a bandwidth test's lines, one per size run
    const std::vector<BwResult>& GetBwResults() const;
    /// \return a latency test's lines, one per size run
    const std::vector<LatResult>& GetLatResults() const;
    /// \return the requests that ended in an error (the test then stops)
    uint64_t GetErrors() const;
    /// \param os where to write the report as perftest prints it (Gb/s)
    void Print(std::ostream& os) const;

    // Attribute accessors; the setters check their values.
    void SetTest(const std::string& name); //!< \param name Test
    std::string GetTestAttribute() const;  //!< \return Test
    void SetSize(uint32_t bytes);          //!< \param bytes Size
    uint32_t GetSize() const;              //!< \return Size
    void SetIterations(uint32_t n);        //!< \param n Iterations
    uint32_t GetIterations() const;        //!< \return Iterations
    void SetTxDepth(uint32_t n);           //!< \param n TxDepth
    uint32_t GetTxDepth() const;           //!< \return TxDepth
    void SetRxDepth(uint32_t n);           //!< \param n RxDepth
    uint32_t GetRxDepth() const;           //!< \return RxDepth
    void SetQps(uint32_t n);               //!< \param n Qps
    uint32_t GetQps() const;               //!< \return Qps

  protected:
    void DoDispose() override;

  private:
    /// One end: host 0 is perftest's client, host 1 its server.
    struct End
    {
        Ptr<RnicNetDevice> rnic;                    //!< its RNIC
        Ptr<RdmaContext> context;                   //!< opened on it
        Ptr<RdmaProtectionDomain> pd;               //!< its domain
        Ptr<RdmaCompletionQueue> cq;                //!< sends and receives
        std::vector<Ptr<RdmaQueuePair>> qps;        //!< Qps queue pairs
        std::vector<Ptr<RdmaMemoryRegion>> buffers; //!< one per queue pair
        std::vector<uint32_t> posted;               //!< requests posted per queue pair
        std::vector<uint32_t> completed;            //!< requests completed per queue pair
        std::vector<Time> postTimes;                //!< every post of this size
        std::vector<Time> doneTimes;                //!< every completion of this size
        bool sending{false};                        //!< a client of this size
    };

    /// \return true for the latency tests
    bool IsLatency() const;
    /// \return true for read_lat and atomic_lat: the client's request is the round trip
    bool IsReadLike() const;
    /// \param operation Atomic: FETCH_AND_ADD or CMP_AND_SWAP (throws otherwise)
    void SetAtomic(const std::string& operation);
    /// \return Atomic
    std::string GetAtomic() const;
    /// \return the work-request opcode of the test
    RdmaWrOpcode GetOpcode() const;
    /// \param side 0 or 1 \param q a queue pair \return its buffer's first byte
    static uint64_t BufferAddress(uint32_t side, uint32_t q);
    /// \return the largest size run
    uint32_t GetLargestSize() const;
    /// \param side 0 or 1: open the verbs there
    void Open(uint32_t side);
    /// Connects every queue pair to its peer's.
    void Connect();
    /**
     * A buffer registration ended.
     * \param side the end \param mr the region \param error 0 or why not
     */
    void OnRegistered(uint32_t side, Ptr<RdmaMemoryRegion> mr, int error);
    /// Starts the next size, or ends.
    void StartSize();
    /// \param side an end \param q its queue pair: posts one request of the size
    void Post(uint32_t side, uint32_t q);
    /// \param side an end \param q its queue pair: posts one receive
    void PostReceive(uint32_t side, uint32_t q);
    /// \param cq a completion queue with completions
    void OnCompletions(Ptr<RdmaCompletionQueue> cq);
    /// \param side the end \param wc one of its completions
    void OnCompletion(uint32_t side, const RdmaWc& wc);
    /// \param side the end whose buffer was written \param address first byte \param length bytes
    void OnMemoryWritten(uint32_t side, uint64_t address, uint32_t length);
    /// The other end's message arrived at \p side: a ping-pong's turn.
    void OnArrival(uint32_t side);
    /// \return true when this size is over
    bool IsSizeDone() const;
    /// Records this size's line and starts the next.
    void FinishSize();
    /// \return the bandwidth line of the size just run
    BwResult MakeBwResult() const;
    /// \return the latency line of the size just run
    LatResult MakeLatResult() const;

    Test m_test{WRITE_BW};       //!< attribute
    uint32_t m_size{65536};      //!< attribute
    bool m_allSizes{false};      //!< attribute
    uint32_t m_iterations{1000}; //!< attribute
    uint32_t m_txDepth{128};     //!< attribute
    uint32_t m_rxDepth{512};     //!< attribute
    uint32_t m_qps{1};           //!< attribute
    bool m_bidirectional{false}; //!< attribute
    bool m_compareSwap{false};   //!< attribute Atomic: CMP_AND_SWAP

    std::array<End, 2> m_ends;           //!< client and server
    uint32_t m_registering{0};           //!< registrations not yet ended
    uint32_t m_currentSize{0};           //!< the size running (0: none yet)
    uint32_t m_pings{0};                 //!< latency: the client's turns so far
    uint64_t m_errors{0};                //!< requests ended in error
    bool m_done{false};                  //!< every size has run
    std::vector<BwResult> m_bwResults;   //!< bandwidth lines
    std::vector<LatResult> m_latResults; //!< latency lines
    TracedCallback<uint32_t> m_sizeDone; //!< a size's line is ready (its bytes)
};

} // namespace ns3

#endif /* RDMA_PERFTEST_H */
