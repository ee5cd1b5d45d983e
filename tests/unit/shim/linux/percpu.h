/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: one CPU. */
#ifndef SHIM_LINUX_PERCPU_H
#define SHIM_LINUX_PERCPU_H

#define __percpu
#define this_cpu_add(pcp, val)	((pcp) += (val))

#endif
