/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DRP_COMPAT_H
#define DRP_COMPAT_H

/**
 * \file
 * \ingroup drp
 * The one place where drp hides differences between ns-3 releases (3.37 on).
 */

#include "ns3/version-defines.h"

#if NS3_VERSION_MINOR >= 41
/// ns-3.41 made the enum accessor a template on the enum type.
#define DRP_ENUM_ACCESSOR(type, ...) MakeEnumAccessor<type>(__VA_ARGS__)
#else
/// Before ns-3.41 the enum accessor deduces everything from the member.
#define DRP_ENUM_ACCESSOR(type, ...) MakeEnumAccessor(__VA_ARGS__)
#endif

#if NS3_VERSION_MINOR >= 42
/// ns-3.42 made the test suite type an enum class.
#define DRP_TEST_UNIT TestSuite::Type::UNIT
#define DRP_TEST_SYSTEM TestSuite::Type::SYSTEM
#define DRP_TEST_QUICK TestCase::Duration::QUICK
#define DRP_TEST_EXTENSIVE TestCase::Duration::EXTENSIVE
#else
#define DRP_TEST_UNIT TestSuite::UNIT
#define DRP_TEST_SYSTEM TestSuite::SYSTEM
#define DRP_TEST_QUICK TestCase::QUICK
#define DRP_TEST_EXTENSIVE TestCase::EXTENSIVE
#endif

#endif /* DRP_COMPAT_H */
