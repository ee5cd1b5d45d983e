// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_iser: iSER (iSCSI Extensions for RDMA) initiator, the "iser"
 * transport of open-iscsi. This file only wires module init/exit and holds
 * the module parameters.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "iser.h"
#include "transport.h"

/*
 * The numeric parameters are range-checked when set, at load or later
 * through sysfs, so a bad value fails modprobe or the write with -EINVAL.
 */
static int iser_param_set_max_sectors(const char *val,
				      const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 8, UINT_MAX);
}

static int iser_param_set_max_lun(const char *val,
				  const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, UINT_MAX);
}

static int iser_param_set_rx_data_max(const char *val,
				      const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, ISCSI_MIN_MAX_RECV_SEG_LEN,
				     ISCSI_MAX_MAX_RECV_SEG_LEN);
}

static const struct kernel_param_ops iser_max_sectors_ops = {
	.set	= iser_param_set_max_sectors,
	.get	= param_get_uint,
};

static const struct kernel_param_ops iser_max_lun_ops = {
	.set	= iser_param_set_max_lun,
	.get	= param_get_uint,
};

static const struct kernel_param_ops iser_rx_data_max_ops = {
	.set	= iser_param_set_rx_data_max,
	.get	= param_get_uint,
};

/* Read once per connection (READ_ONCE): a change applies to the next one. */
unsigned int iser_max_sectors = 1024;
module_param_cb(max_sectors, &iser_max_sectors_ops, &iser_max_sectors, 0644);
MODULE_PARM_DESC(max_sectors,
		 "Max sectors per SCSI command, >= 8 (default 1024); applies to new connections");

unsigned int iser_max_lun = 512;
module_param_cb(max_lun, &iser_max_lun_ops, &iser_max_lun, 0444);
MODULE_PARM_DESC(max_lun, "Max LUNs per session, > 0 (default 512)");

unsigned int iser_rx_data_max = ISCSI_DEF_MAX_RECV_SEG_LEN;
module_param_cb(rx_data_max, &iser_rx_data_max_ops, &iser_rx_data_max, 0444);
MODULE_PARM_DESC(rx_data_max,
		 "Data bytes one receive buffer holds; logins declare no more (default 8192, 512..16777215)");

bool iser_remote_inv = true;
module_param_named(remote_invalidate, iser_remote_inv, bool, 0444);
MODULE_PARM_DESC(remote_invalidate,
		 "Offer the target Send with Invalidate (default Y)");

bool iser_pi_enable;
module_param_named(pi_enable, iser_pi_enable, bool, 0444);
MODULE_PARM_DESC(pi_enable,
		 "Ask for T10-PI offload (default N); not offloaded by this driver: sessions log why and run without protection");

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
