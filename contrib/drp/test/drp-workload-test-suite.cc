/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Workloads: flow-size distributions read from CDF files.

#include "ns3/drp-compat.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/random-variable-stream.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;

/**
 * \ingroup drp-tests
 * The shipped distributions: their points and piecewise-linear means.
 */
class DrpFlowSizeShippedTestCase : public TestCase
{
  public:
    DrpFlowSizeShippedTestCase()
        : TestCase("Workload: the shipped web-search and data-mining CDFs")
    {
    }

  private:
    void DoRun() override
    {
        FlowSizeCdf web = FlowSizeCdf::Load("web-search");
        NS_TEST_EXPECT_MSG_EQ(web.GetPoints().size(), 12, "web search: 12 points");
        NS_TEST_EXPECT_MSG_EQ(web.GetMeanBytes(), 1711250, "web search mean (as HPCC's getAvg)");
        NS_TEST_EXPECT_MSG_EQ(web.GetMaxBytes(), 30e6, "web search: at most 30 MB");
        NS_TEST_EXPECT_MSG_EQ_TOL(web.GetProbability(65000), 0.465, 1e-12, "interpolated");
        FlowSizeCdf mining = FlowSizeCdf::Load(FlowSizeCdf::GetShippedPath("data-mining"));
        NS_TEST_EXPECT_MSG_EQ(mining.GetPoints().size(), 13, "data mining: 13 points");
        NS_TEST_EXPECT_MSG_EQ_TOL(mining.GetMeanBytes(), 12658198.6, 0.01, "data mining mean");
        NS_TEST_EXPECT_MSG_EQ(mining.GetMaxBytes(), 1e9, "data mining: at most 1 GB");
    }
};

/**
 * \ingroup drp-tests
 * Where the shipped CDFs are found: the folder named by the environment
 * variable DRP_DATA_DIR comes first (a file missing there is refused, not
 * looked for elsewhere), an empty one counts as unset, and without it a build
 * folder or an ns-3 source tree reads the module's own data folder. (The
 * installed library's data folder: CTest's drp-install.)
 */
class DrpFlowSizeDataDirTestCase : public TestCase
{
  public:
    DrpFlowSizeDataDirTestCase()
        : TestCase("Workload: the folder of the shipped CDFs")
    {
    }

  private:
    void DoRun() override
    {
        const char* given = std::getenv("DRP_DATA_DIR");
        const std::string saved = given != nullptr ? given : "";

        setenv("DRP_DATA_DIR", "/nonexistent/drp-data", 1);
        NS_TEST_EXPECT_MSG_EQ(FlowSizeCdf::GetShippedPath("web-search"),
                              "/nonexistent/drp-data/flow-sizes/web-search.cdf",
                              "the environment variable comes first");
        bool refused = false;
        try
        {
            FlowSizeCdf::Load("data-mining");
        }
        catch (const std::invalid_argument&)
        {
            refused = true;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "a file missing there is refused");

        setenv("DRP_DATA_DIR", "", 1);
        const std::string fallback = FlowSizeCdf::GetShippedPath("web-search");
        unsetenv("DRP_DATA_DIR");
        const std::string path = FlowSizeCdf::GetShippedPath("web-search");
        NS_TEST_EXPECT_MSG_EQ(fallback, path, "an empty variable counts as unset");
        NS_TEST_EXPECT_MSG_EQ(std::ifstream(path).good(), true, "the module's file " << path);

        if (given != nullptr)
        {
            setenv("DRP_DATA_DIR", saved.c_str(), 1);
        }
    }
};

/**
 * \ingroup drp-tests
 * Sizes drawn from the web-search CDF through ns-3's EmpiricalRandomVariable.
 * 100,000 draws: the sample mean lies within 3 % of the distribution's mean
 * (its standard error is about 0.7 %), the fraction at most 80 kB within 0.01
 * of 0.53 (standard error 0.0016).
 */
class DrpFlowSizeSamplingTestCase : public TestCase
{
  public:
    DrpFlowSizeSamplingTestCase()
        : TestCase("Workload: sizes drawn from the web-search CDF")
    {
    }

  private:
    void DoRun() override
    {
        FlowSizeCdf web = FlowSizeCdf::Load("web-search");
        Ptr<EmpiricalRandomVariable> rv = web.CreateRandomVariable();
        rv->SetStream(42);
        const uint32_t draws = 100000;
        double sum = 0;
        uint32_t small = 0;
        uint32_t smallest = UINT32_MAX;
        uint32_t largest = 0;
        for (uint32_t i = 0; i < draws; ++i)
        {
            const uint32_t size = FlowSizeCdf::ToTransferSize(rv->GetValue());
            sum += size;
            small += size <= 80000;
            smallest = std::min(smallest, size);
            largest = std::max(largest, size);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(sum / draws,
                                  web.GetMeanBytes(),
                                  0.03 * web.GetMeanBytes(),
                                  "mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(small) / draws,
                                  0.53,
                                  0.01,
                                  "P(size <= 80 kB)");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(smallest, 1, "at least one byte");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(largest, 30000000, "at most the largest size");
        NS_TEST_EXPECT_MSG_EQ(FlowSizeCdf::ToTransferSize(0), 1, "a zero draw is one byte");
        NS_TEST_EXPECT_MSG_EQ(FlowSizeCdf::ToTransferSize(1500.2), 1501, "rounded up");
    }
};

/**
 * \ingroup drp-tests
 * Files that are no flow-size CDF are refused with a message naming the
 * file, the line and what is valid.
 */
class DrpFlowSizeBadInputTestCase : public TestCase
{
  public:
    DrpFlowSizeBadInputTestCase()
        : TestCase("Workload: bad CDF files are refused with a clear message")
    {
    }

  private:
    /**
     * \param text a file's content
     * \param expected the message Parse() must throw
     */
    void ExpectRefused(const std::string& text, const std::string& expected)
    {
        std::istringstream in(text);
        std::string message;
        try
        {
            FlowSizeCdf::Parse(in, "f.cdf");
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(message, expected, "refused: " << text);
    }

    void DoRun() override
    {
        std::string message;
        try
        {
            FlowSizeCdf::Load("/nonexistent/sizes.cdf");
        }
        catch (const std::invalid_argument& e)
        {
            message = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(message,
                              "flow-size CDF /nonexistent/sizes.cdf: cannot be read (give a "
                              "readable file, or web-search or data-mining for the shipped ones)",
                              "missing file");
        ExpectRefused("",
                      "flow-size CDF f.cdf: holds no points (expected lines 'bytes probability')");
        ExpectRefused("# only a comment\n\n",
                      "flow-size CDF f.cdf: holds no points (expected lines 'bytes probability')");
        ExpectRefused("100 0.5\n50 1\n",
                      "flow-size CDF f.cdf line 2: size 50 is below the previous size 100 (sizes "
                      "must not decrease)");
        ExpectRefused("100 0.5\n200 0.4\n300 1\n",
                      "flow-size CDF f.cdf line 2: probability 0.4 does not rise above the "
                      "previous 0.5 (probabilities must rise from point to point; leave out a "
                      "point that only repeats one)");
        ExpectRefused("100 0.5\n200 0.5\n300 1\n",
                      "flow-size CDF f.cdf line 2: probability 0.5 does not rise above the "
                      "previous 0.5 (probabilities must rise from point to point; leave out a "
                      "point that only repeats one)");
        ExpectRefused("100 15\n200 100\n",
                      "flow-size CDF f.cdf line 1: probability 15 is out of range [0, 1]");
        ExpectRefused("100 0.2\n200 0.9\n",
                      "flow-size CDF f.cdf: the last probability is 0.9, not 1 (a CDF ends at 1)");
        ExpectRefused("100 0.2\n200 1 7\n",
                      "flow-size CDF f.cdf line 2: '200 1 7' is not 'bytes probability' (two "
                      "numbers)");
        ExpectRefused("-5 0.2\n200 1\n",
                      "flow-size CDF f.cdf line 1: size -5 is out of range [0, 4294967295]");
        // Sizes that make no flow of a byte: flows without end before.
        ExpectRefused("0 1\n",
                      "flow-size CDF f.cdf line 1: the largest size is 0 bytes (a flow has at "
                      "least 1 byte: sizes are bytes, not kilobytes or packets)");
        ExpectRefused("# sizes in kB\n0.1 0.5\n\n0.2 1\n",
                      "flow-size CDF f.cdf line 4: the largest size is 0.2 bytes (a flow has at "
                      "least 1 byte: sizes are bytes, not kilobytes or packets)");
        // A binary file's bytes are not echoed.
        ExpectRefused(std::string("\x7f"
                                  "ELF\x02\x01\x01\0\0\n",
                                  10),
                      "flow-size CDF f.cdf line 1: the line (not text: is this a CDF file?) is "
                      "not 'bytes probability' (two numbers)");
        ExpectRefused(std::string(100, 'x') + "\n",
                      "flow-size CDF f.cdf line 1: '" + std::string(77, 'x') +
                          "...' is not 'bytes probability' (two numbers)");
        std::istringstream steps("# a point mass at 1 byte, then up to 10 kB\n1 0.5\n1 0.6 # step\n"
                                 "10000 1\n");
        NS_TEST_EXPECT_MSG_EQ(FlowSizeCdf::Parse(steps, "steps").GetPoints().size(),
                              3,
                              "a repeated size is a step");
    }
};

/**
 * \ingroup drp-tests
 * The workload suite.
 */
class DrpWorkloadTestSuite : public TestSuite
{
  public:
    DrpWorkloadTestSuite()
        : TestSuite("drp-workload", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpFlowSizeShippedTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpFlowSizeDataDirTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpFlowSizeSamplingTestCase, DRP_TEST_QUICK);
        AddTestCase(new DrpFlowSizeBadInputTestCase, DRP_TEST_QUICK);
    }
};

/// Registers the suite.
static DrpWorkloadTestSuite g_drpWorkloadTestSuite;
