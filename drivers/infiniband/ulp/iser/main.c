// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_iser: iSER (iSCSI Extensions for RDMA) initiator.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

static int __init iser_init(void)
{
	pr_info("iSER (iSCSI Extensions for RDMA) initiator, version %s\n", RDI_VERSION);
	return 0;
}

static void __exit iser_exit(void)
{
	pr_info("unloaded\n");
}

module_init(iser_init);
module_exit(iser_exit);

MODULE_DESCRIPTION("iSER (iSCSI Extensions for RDMA) initiator");
MODULE_AUTHOR("The rdma-initiators authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(RDI_VERSION);
