/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: libc's string functions are the kernel's. */
#ifndef SHIM_LINUX_STRING_H
#define SHIM_LINUX_STRING_H

#include <string.h>

#endif
