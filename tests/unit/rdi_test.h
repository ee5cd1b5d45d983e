/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Minimal host-side unit-test framework. Each test binary defines its cases
 * with RDI_TEST() and ends with RDI_TEST_MAIN(); it speaks TAP: a plan line
 * "1..N" (N registered cases) first, then one "ok N - case" / "not ok N - case"
 * line per case, and it exits non-zero if any case failed. tests/unit/run
 * turns the lines into PASS/FAIL and fails a binary whose results fall short
 * of its plan.
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
		/* A sanitizer ends the process without flushing	\
		 * stdio: each result must be out before the next case	\
		 * runs, in order with the diagnostics on stderr.	\
		 */							\
		setvbuf(stdout, NULL, _IOLBF, 0);			\
		printf("1..%d\n", rdi_ntests);				\
		for (i = 0; i < rdi_ntests; i++) {			\
			int failed = 0;					\
			rdi_tests[i].fn(&failed);			\
			printf("%s %d - %s\n",				\
			       failed ? "not ok" : "ok", i + 1,		\
			       rdi_tests[i].name);			\
			bad |= failed;					\
		}							\
		return bad;						\
	}

#endif /* RDI_TEST_H */
