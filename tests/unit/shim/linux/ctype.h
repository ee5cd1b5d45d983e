/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: libc's ctype (the kernel's is ASCII-only; so is "C" locale). */
#ifndef SHIM_LINUX_CTYPE_H
#define SHIM_LINUX_CTYPE_H

#include <ctype.h>

#endif
