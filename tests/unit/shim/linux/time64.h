/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: the parts of <linux/time64.h> pure driver files use. */
#ifndef SHIM_LINUX_TIME64_H
#define SHIM_LINUX_TIME64_H

#define NSEC_PER_MSEC	1000000L

#endif
