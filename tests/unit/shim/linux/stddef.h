/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: offsetof() and friends. */
#ifndef SHIM_LINUX_STDDEF_H
#define SHIM_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#endif
