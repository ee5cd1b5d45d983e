// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_iser: iSER (iSCSI Extensions for RDMA) initiator, the "iser"
 * transport of open-iscsi. This file only wires module init/exit; each
 * module parameter lives in the file that reads it.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "iser.h"
#include "transport.h"

static int __init iser_init(void)
{
	int ret;

	iser_stats_init();
	ret = iser_conn_wq_create();
	if (ret)
		goto err_stats_exit;
	ret = iser_client_register();
	if (ret)
		goto err_destroy_wq;
	ret = iser_transport_register();
	if (ret) {
		pr_err("cannot register the iser transport: %d\n", ret);
		goto err_unregister_client;
	}
	return 0;

err_unregister_client:
	iser_client_unregister();
err_destroy_wq:
	iser_conn_wq_destroy();
err_stats_exit:
	iser_stats_exit();
	return ret;
}

static void __exit iser_exit(void)
{
	iser_transport_unregister();
	/* no ep_disconnect can come now: do what it would have done */
	iser_ep_disconnect_all();
	/* runs iser_remove_one() on every device: it flushes the releases */
	iser_client_unregister();
	iser_conn_wq_destroy();
	iser_stats_exit();
}

module_init(iser_init);
module_exit(iser_exit);

MODULE_DESCRIPTION("iSER (iSCSI Extensions for RDMA) initiator");
MODULE_AUTHOR("The rdma-initiators authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(RDI_VERSION);
