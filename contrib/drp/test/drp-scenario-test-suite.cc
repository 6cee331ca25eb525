/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// DrpScenario's paired streams: both methods of one run meet the same losses
// and registration outcomes transfer by transfer.

#include "ns3/drp-compat.h"
#include "ns3/drp-scenario.h"
#include "ns3/test.h"

#include <sstream>
#include <string>

using namespace ns3;

/**
 * \ingroup drp-tests
 * With paired streams, a transfer in which the dynamic RNIC stays direct
 * takes exactly the same time under both methods, before and after
 * transfers in which they differ. Under frame loss, one stream per run would
 * instead let the methods part ways for good at the first such transfer (the
 * error models draw once per frame, and the methods send different frames);
 * registration draws, one per attempt, happen to stay aligned either way.
 */
class DrpScenarioPairedStreamsTestCase : public TestCase
{
  public:
    /**
     * \param frp failed-registration probability
     * \param lfp lost-frame probability
     */
    DrpScenarioPairedStreamsTestCase(double frp, double lfp)
        : TestCase(Name(frp, lfp)),
          m_frp(frp),
          m_lfp(lfp)
    {
    }

  private:
    /**
     * \param frp failed-registration probability
     * \param lfp lost-frame probability
     * \return the case's name
     */
    static std::string Name(double frp, double lfp)
    {
        std::ostringstream name;
        name << "paired streams, FRP " << frp << ", LFP " << lfp;
        return name.str();
    }

    /// Transfers compared per configuration.
    static constexpr uint32_t TRANSFERS = 200;

    /**
     * Runs both methods.
     * \param paired Config::pairedStreams
     * \param[out] same transfers that took the same time under both methods
     * \param[out] differ transfers in which the dynamic RNIC went indirect
     */
    void RunBoth(bool paired, uint32_t& same, uint32_t& differ)
    {
        DrpScenario::Config config;
        config.frp = m_frp;
        config.lfp = m_lfp;
        config.transfers = TRANSFERS;
        config.size = 16384;
        config.pairedStreams = paired;
        config.method = "traditional";
        DrpScenario::Result traditional = DrpScenario::Run(config);
        config.method = "dynamic";
        DrpScenario::Result dynamic = DrpScenario::Run(config);
        NS_TEST_ASSERT_MSG_EQ(traditional.records.size(), TRANSFERS, "traditional: every transfer");
        NS_TEST_ASSERT_MSG_EQ(dynamic.records.size(), TRANSFERS, "dynamic: every transfer");
        same = 0;
        differ = 0;
        for (uint32_t i = 0; i < TRANSFERS; ++i)
        {
            const DrpTransferRecord& t = traditional.records[i];
            const DrpTransferRecord& d = dynamic.records[i];
            NS_TEST_ASSERT_MSG_EQ(t.index, i, "records in workload order");
            NS_TEST_ASSERT_MSG_EQ(d.index, i, "records in workload order");
            same += t.GetDuration() == d.GetDuration();
            differ += d.mode == DrpTransferRecord::INDIRECT;
        }
    }

    void DoRun() override
    {
        uint32_t same = 0;
        uint32_t differ = 0;
        RunBoth(true, same, differ);
        NS_TEST_EXPECT_MSG_GT(differ, 0u, "some transfers went indirect (else nothing is tested)");
        // Every transfer in which the dynamic RNIC stayed direct is the
        // traditional one, frame for frame.
        NS_TEST_EXPECT_MSG_EQ(same, TRANSFERS - differ, "the other transfers are identical");

        if (m_lfp > 0)
        {
            uint32_t sameUnpaired = 0;
            uint32_t differUnpaired = 0;
            RunBoth(false, sameUnpaired, differUnpaired);
            NS_TEST_EXPECT_MSG_LT(sameUnpaired + differUnpaired,
                                  TRANSFERS,
                                  "one stream per run: the methods diverge after the first "
                                  "difference");
        }
    }

    double m_frp; //!< failed-registration probability
    double m_lfp; //!< lost-frame probability
};

/**
 * \ingroup drp-tests
 * DrpScenario as a measuring instrument.
 */
class DrpScenarioTestSuite : public TestSuite
{
  public:
    DrpScenarioTestSuite()
        : TestSuite("drp-scenario", DRP_TEST_UNIT)
    {
        AddTestCase(new DrpScenarioPairedStreamsTestCase(0.2, 0), DRP_TEST_QUICK);
        AddTestCase(new DrpScenarioPairedStreamsTestCase(0, 0.1), DRP_TEST_QUICK);
    }
};

/// Static instance that registers the suite with the runner.
static DrpScenarioTestSuite g_drpScenarioTestSuite;
