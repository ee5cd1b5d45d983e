/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host shim: WARN_ON_ONCE() is true iff @cond is, like the kernel's, and
 * counts every warning in shim_warnings, which a test using it defines
 * (the "once" is not modelled: each warning counts).
 */
#ifndef SHIM_LINUX_BUG_H
#define SHIM_LINUX_BUG_H

#include <stdio.h>

extern int shim_warnings;

#define WARN_ON_ONCE(cond)	({					\
	int _w = !!(cond);						\
	if (_w) {							\
		shim_warnings++;					\
		fprintf(stderr, "  WARNING at %s:%d: %s\n",		\
			__FILE__, __LINE__, #cond);			\
	}								\
	_w;								\
})

#endif
