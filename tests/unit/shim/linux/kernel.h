/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: the parts of <linux/kernel.h> pure driver files use. */
#ifndef SHIM_LINUX_KERNEL_H
#define SHIM_LINUX_KERNEL_H

#include <stdio.h>
#include <linux/types.h>
#include <linux/kstrtox.h>
#include <linux/limits.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)		({ typeof(a) _a = (a); typeof(b) _b = (b); \
				   _a < _b ? _a : _b; })
#define max(a, b)		({ typeof(a) _a = (a); typeof(b) _b = (b); \
				   _a > _b ? _a : _b; })
#define min_t(t, a, b)		min((t)(a), (t)(b))
#define max_t(t, a, b)		max((t)(a), (t)(b))
#define DIV_ROUND_UP_ULL(n, d)	(((unsigned long long)(n) + (d) - 1) / (d))

static inline int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* 0, or -EINVAL if one of the 2 * @count characters is not a hex digit. */
static inline int hex2bin(u8 *dst, const char *src, size_t count)
{
	while (count--) {
		int hi = hex_to_bin(*src++), lo;

		if (hi < 0)
			return -EINVAL;
		lo = hex_to_bin(*src++);
		if (lo < 0)
			return -EINVAL;
		*dst++ = hi << 4 | lo;
	}
	return 0;
}

#endif
