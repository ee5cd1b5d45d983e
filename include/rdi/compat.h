/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdi compat: the only home of kernel-version differences.
 *
 * The modules are built out of tree against more than one kernel (Debian
 * bookworm's 6.1 first, trixie's 6.12 next). Whenever an API the drivers use
 * changes between those kernels, the difference is absorbed here, behind a
 * helper or macro named after the newest kernel's spelling, so that driver
 * code never tests LINUX_VERSION_CODE itself. Every entry says which kernel
 * introduced the change it papers over.
 *
 * Include it from any driver file that uses an API listed below; it is
 * harmless to include everywhere.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef RDI_COMPAT_H
#define RDI_COMPAT_H

#include <linux/version.h>

/*
 * v6.3 ("RDMA/cma: Refactor the inbound/outbound path records process flow")
 * made the record count passed to ib_sa_path_rec_get() callbacks unsigned.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define RDI_SA_NUM_PRS_TYPE unsigned int
#else
#define RDI_SA_NUM_PRS_TYPE int
#endif

#endif /* RDI_COMPAT_H */
