// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core: RDMA plumbing shared by the SRP and iSER initiators.
 *
 * The API is include/rdi/core.h and include/rdi/scsi.h; each concern has
 * its own file: device.c (per-ib_device PD and capabilities), buf.c
 * (DMA-mapped buffers), mr.c (fast registration), queue.c (a QP and its
 * CQs), wc.c (the report of a failed completion), stats.c (per-CPU
 * counters and their debugfs files), scsi.c (SCSI host limits). This file
 * only loads and unloads the module.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/module.h>

#include "rdi.h"

static int __init rdi_init(void)
{
	rdi_stats_debugfs_init();
	return 0;
}

static void __exit rdi_exit(void)
{
	rdi_stats_debugfs_exit();
	rdi_device_cache_exit();
}

module_init(rdi_init);
module_exit(rdi_exit);

MODULE_DESCRIPTION("RDMA plumbing shared by the SRP and iSER initiators");
MODULE_AUTHOR("The rdma-initiators authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(RDI_VERSION);
