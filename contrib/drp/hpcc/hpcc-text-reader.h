/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_TEXT_READER_H
#define HPCC_TEXT_READER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup drp
 * \brief Reads the text files of HPCC's simulator (topology.txt, flow.txt,
 * config.txt) as that simulator does, one white-space separated word after
 * another whatever the line breaks, but strictly: every value is checked
 * whole, and every refusal is a std::invalid_argument that names the file,
 * the line and the reason ("topology.txt:7: rate \"100Gbs\" is not a data
 * rate ...").
 */
class HpccTextReader
{
  public:
    /**
     * Opens a file (std::invalid_argument if it cannot be read).
     * \param path the file
     * \param what what the file should be, for the message ("topology file")
     */
    HpccTextReader(const std::string& path, const std::string& what);

    /// \return true when only white space is left
    bool AtEnd();
    /**
     * \param what the word expected, for the message if the file ends
     * \return the next word
     */
    std::string Word(const std::string& what);
    /**
     * \param what the number expected
     * \param max the largest valid value
     * \return the next word as a whole decimal number in [0, max]
     */
    uint64_t Count(const std::string& what, uint64_t max);
    /**
     * \param what the number expected
     * \param min the smallest valid value
     * \param max the largest valid value
     * \return the next word as a finite number in [min, max]
     */
    double Number(const std::string& what, double min, double max);
    /**
     * \param what the rate expected
     * \return the next word as a data rate (drp::ParseDataRate(): "100Gbps"),
     *         1 bit/s to 1 Tbit/s
     */
    DataRate Rate(const std::string& what);
    /**
     * \param what the time expected
     * \param max the longest valid time
     * \return the next word as a time with a unit ("1000ns", "0.001ms"), 0 to max
     */
    Time Delay(const std::string& what, Time max);

    /// \return the last word read
    const std::string& GetWord() const;
    /// \return the line of the last word read (1 = first)
    uint32_t GetLine() const;
    /// \return the file's path
    const std::string& GetPath() const;
    /**
     * \param line a line of the file
     * \param reason what is wrong there
     * \return the error to throw: "PATH:LINE: reason"
     */
    std::invalid_argument Error(uint32_t line, const std::string& reason) const;
    /// \param reason what is wrong on the last word's line \return the error to throw
    std::invalid_argument Error(const std::string& reason) const;

  private:
    /// Skips white space, counting lines.
    void SkipSpace();

    std::string m_path;     //!< the file
    std::ifstream m_in;     //!< its text
    uint32_t m_line{1};     //!< the line being read
    uint32_t m_wordLine{1}; //!< the line of the last word read
    std::string m_word;     //!< the last word read
};

} // namespace ns3

#endif /* HPCC_TEXT_READER_H */
