/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host shim: kstrtou64()/kstrtouint() with the kernel's rules: optional '+',
 * base 0 picks 16 for "0x", 8 for a leading "0", else 10; base 16 skips an
 * optional "0x"; one trailing '\n' is allowed; nothing else may follow;
 * -EINVAL for no digits or junk, -ERANGE on overflow.
 */
#ifndef SHIM_LINUX_KSTRTOX_H
#define SHIM_LINUX_KSTRTOX_H

#include <ctype.h>
#include <errno.h>
#include <linux/types.h>
#include <linux/limits.h>

static inline int kstrtoull(const char *s, unsigned int base,
			    unsigned long long *res)
{
	unsigned long long v = 0;
	int digits = 0;

	if (*s == '+')
		s++;
	if (s[0] == '0' && tolower((unsigned char)s[1]) == 'x' &&
	    isxdigit((unsigned char)s[2]) && (base == 0 || base == 16)) {
		base = 16;
		s += 2;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}
	for (; *s; s++, digits++) {
		unsigned int d;

		if (isdigit((unsigned char)*s))
			d = *s - '0';
		else if (isxdigit((unsigned char)*s))
			d = tolower((unsigned char)*s) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!digits)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (!ret)
		*res = v;
	return ret;
}

static inline int kstrtouint(const char *s, unsigned int base,
			     unsigned int *res)
{
	unsigned long long v;
	int ret = kstrtoull(s, base, &v);

	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}

static inline int kstrtou32(const char *s, unsigned int base, u32 *res)
{
	return kstrtouint(s, base, res);
}

#endif
