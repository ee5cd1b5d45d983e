/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: the kernel's U*_MAX next to libc's INT_MAX (glibc includes
 * <linux/limits.h> itself, hence the include_next).
 */
#ifndef SHIM_LINUX_LIMITS_H
#define SHIM_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <limits.h>
#include <stdint.h>

#define U8_MAX		UINT8_MAX
#define U16_MAX		UINT16_MAX
#define U32_MAX		UINT32_MAX
#define U64_MAX		UINT64_MAX

#endif
