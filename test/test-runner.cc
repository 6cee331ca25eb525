/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ns-3's test runner, built out of tree: runs the TestSuites linked into it.

#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
