// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: SCSI RDMA Protocol initiator.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

static int __init srp_init(void)
{
	pr_info("SCSI RDMA Protocol initiator, version %s\n", RDI_VERSION);
	return 0;
}

static void __exit srp_exit(void)
{
	pr_info("unloaded\n");
}

module_init(srp_init);
module_exit(srp_exit);

MODULE_DESCRIPTION("SCSI RDMA Protocol initiator");
MODULE_AUTHOR("The rdma-initiators authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(RDI_VERSION);
