/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: the kernel's one-argument static_assert(). */
#ifndef SHIM_LINUX_BUILD_BUG_H
#define SHIM_LINUX_BUILD_BUG_H

#include <assert.h>
#undef static_assert
#define static_assert(expr, ...)	_Static_assert(expr, #expr)

#endif
