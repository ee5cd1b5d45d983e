/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: uapi errno values (glibc's <errno.h> includes this too). */
#ifndef SHIM_LINUX_ERRNO_H
#define SHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif
