/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Minimal host-side unit-test framework. Each test binary defines its cases
 * with RDI_TEST() and ends with RDI_TEST_MAIN(); every case prints one
 * "ok"/"not ok" line and the binary exits non-zero if any case failed.
 * tests/unit/Makefile sums the lines into "N passed, N failed".
 */
#ifndef RDI_TEST_H
#define RDI_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rdi_test_case {
	const char *name;
	void (*fn)(int *failed);
};

#define RDI_MAX_TESTS 512
extern struct rdi_test_case rdi_tests[RDI_MAX_TESTS];
extern int rdi_ntests;

#define RDI_TEST(tc)							\
	static void tc(int *failed);					\
	__attribute__((constructor)) static void reg_##tc(void)		\
	{								\
		rdi_tests[rdi_ntests].name = #tc;			\
		rdi_tests[rdi_ntests++].fn = tc;			\
	}								\
	static void tc(int *failed)

#define EXPECT(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "  %s:%d: expected %s\n",	\
				__FILE__, __LINE__, #cond);		\
			*failed = 1;					\
		}							\
	} while (0)

#define EXPECT_EQ(a, b)							\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b) {						\
			fprintf(stderr, "  %s:%d: %s == %lld, want %lld\n", \
				__FILE__, __LINE__, #a, _a, _b);	\
			*failed = 1;					\
		}							\
	} while (0)

#define EXPECT_MEM(a, b, n)						\
	do {								\
		if (memcmp((a), (b), (n))) {				\
			fprintf(stderr, "  %s:%d: %s differs from %s\n", \
				__FILE__, __LINE__, #a, #b);		\
			*failed = 1;					\
		}							\
	} while (0)

#define RDI_TEST_MAIN()							\
	struct rdi_test_case rdi_tests[RDI_MAX_TESTS];			\
	int rdi_ntests;							\
	int main(void)							\
	{								\
		int i, bad = 0;						\
		for (i = 0; i < rdi_ntests; i++) {			\
			int failed = 0;					\
			rdi_tests[i].fn(&failed);			\
			printf("%s %s\n", failed ? "not ok" : "ok",	\
			       rdi_tests[i].name);			\
			bad |= failed;					\
		}							\
		return bad;						\
	}

#endif /* RDI_TEST_H */
