/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: va_list. */
#ifndef SHIM_LINUX_STDARG_H
#define SHIM_LINUX_STDARG_H

#include <stdarg.h>

#endif
