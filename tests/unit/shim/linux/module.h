/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: EXPORT_SYMBOL_GPL() only checks that the symbol exists. */
#ifndef SHIM_LINUX_MODULE_H
#define SHIM_LINUX_MODULE_H

#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/string.h>

#define EXPORT_SYMBOL_GPL(sym)	extern typeof(sym) sym

#endif
