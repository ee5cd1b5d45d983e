/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: what kbuild force-includes into every kernel file. */
#ifndef SHIM_LINUX_COMPILER_TYPES_H
#define SHIM_LINUX_COMPILER_TYPES_H

#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __maybe_unused		__attribute__((__unused__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#endif
