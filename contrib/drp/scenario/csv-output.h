/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_CSV_OUTPUT_H
#define DRP_CSV_OUTPUT_H

#include <fstream>
#include <string>

namespace ns3
{
namespace drp
{

/**
 * \ingroup drp
 * \brief A program's CSV output file, with one rule for every program:
 * a path that cannot be written is refused before anything runs, and an
 * existing file is left alone until the first rows are ready.
 *
 * The constructor checks that the file can be written (without truncating
 * an existing file, and without leaving a new empty one behind) and throws
 * std::invalid_argument naming the option and the path otherwise (a missing
 * folder, a folder given as the file, no permission). Stream() truncates and
 * opens the file the first time it is called; Flush() and Close() throw
 * std::runtime_error if writing failed (a full disk). An empty path means no
 * output: IsEnabled() is false and nothing is checked.
 *
 * \code
 *   drp::CsvOutput csv("csv", path); // before the runs: refuses a bad path
 *   ...
 *   if (csv.IsEnabled()) { Write(csv.Stream()); csv.Flush(); }
 *   csv.Close();
 * \endcode
 */
class CsvOutput
{
  public:
    /**
     * \param option the option that named the file, as the user spells it
     * \param path the file (empty: no output)
     */
    CsvOutput(std::string option, std::string path);

    /// \return true if a file was named
    bool IsEnabled() const;
    /// \return true once Stream() has opened the file
    bool IsOpen() const;
    /// \return the stream, the file truncated and opened on the first call
    std::ostream& Stream();
    /// Flushes what was written; throws std::runtime_error if writing failed.
    void Flush();
    /// Closes the file if it was opened; throws std::runtime_error if writing failed.
    void Close();

  private:
    /// Throws std::runtime_error: writing failed.
    [[noreturn]] void Failed() const;

    std::string m_option; //!< the option's name
    std::string m_path;   //!< the file
    std::ofstream m_out;  //!< the stream, once opened
};

/**
 * \ingroup drp
 * Throws std::invalid_argument naming the option and its value if the
 * folder of a capture prefix (the part up to the last '/') is not a folder
 * that can be written; an empty prefix (no capture) passes.
 * \param option the option that names the prefix, as the user spells it
 * \param prefix the prefix
 */
void RequireCapturePrefix(const std::string& option, const std::string& prefix);

/**
 * \ingroup drp
 * Captures every Ethernet device (RNICs, switch ports, trunk links) of
 * every node, with the file names of ns-3's trace helpers
 * (EthernetHelper::EnablePcapAll(), EnableAsciiAll()): PREFIX-NODE-DEVICE.pcap
 * (promiscuous: every frame a switch port sends or receives) and
 * PREFIX-NODE-DEVICE.tr. Call it once the devices exist.
 * \param pcap pcap prefix (empty: none)
 * \param ascii ascii trace prefix (empty: none)
 */
void EnableCaptures(const std::string& pcap, const std::string& ascii);

} // namespace drp
} // namespace ns3

#endif /* DRP_CSV_OUTPUT_H */
