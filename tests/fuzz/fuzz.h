/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What every fuzz target shares: a check of an invariant the driver relies
 * on, which stops the run so that libFuzzer keeps the input as a crash file,
 * and a read of every byte a consumer of a parse result would read, so that
 * AddressSanitizer checks the bounds the parser handed back.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>

#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant broken: %s\n",\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* Read @len bytes at @p as their consumer would. */
static inline void fuzz_read(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	/* The sum goes nowhere the compiler can see: the reads stay. */
	asm volatile("" : : "r"(sum));
}

#endif /* FUZZ_H */
