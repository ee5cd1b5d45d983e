// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Proves the harness itself: a passing case and the comparison helpers. */
#include "rdi_test.h"

RDI_TEST(harness_compares)
{
	static const unsigned char a[4] = { 1, 2, 3, 4 };
	unsigned char b[4] = { 1, 2, 3, 4 };

	EXPECT(1 + 1 == 2);
	EXPECT_EQ(sizeof(a), 4);
	EXPECT_MEM(a, b, sizeof(a));
}

RDI_TEST_MAIN()
