/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host shim: the parts of <linux/jiffies.h> pure driver files use. HZ is
 * that of the lab's Debian kernels; the comparisons are the kernel's, wrap
 * included.
 */
#ifndef SHIM_LINUX_JIFFIES_H
#define SHIM_LINUX_JIFFIES_H

#define HZ			250

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

#endif
