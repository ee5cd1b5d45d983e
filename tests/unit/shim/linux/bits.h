/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: BIT(). */
#ifndef SHIM_LINUX_BITS_H
#define SHIM_LINUX_BITS_H

#define BIT(nr)			(1UL << (nr))

#endif
