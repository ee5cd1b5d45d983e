// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: SCSI RDMA Protocol initiator - the transport template, init and
 * exit.
 *
 * Module parameters live in the file that reads them: the login defaults
 * in target.c, memory registration in client.c, and here the rport
 * timeouts that the transport template points at.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "cm.h"
#include "login.h"
#include "rport.h"
#include "target.h"
#include "client.h"
#include "stats.h"

/*
 * Defaults of the rport timeouts, in seconds or -1 for "off": the transport
 * class reads them when it adds an rport, so a write applies to the next
 * login.
 */
static int srp_reconnect_delay = 10;
static int srp_fast_io_fail_tmo = 15;
static int srp_dev_loss_tmo = 600;

static int srp_tmo_get(char *buffer, const struct kernel_param *kp)
{
	int tmo = *(int *)kp->arg;

	if (tmo >= 0)
		return sysfs_emit(buffer, "%d\n", tmo);
	return sysfs_emit(buffer, "off\n");
}

static int srp_tmo_set(const char *val, const struct kernel_param *kp)
{
	int tmo, ret;

	ret = srp_parse_tmo(&tmo, val);
	if (ret)
		return ret;

	if (kp->arg == &srp_reconnect_delay)
		ret = srp_tmo_valid(tmo, srp_fast_io_fail_tmo,
				    srp_dev_loss_tmo);
	else if (kp->arg == &srp_fast_io_fail_tmo)
		ret = srp_tmo_valid(srp_reconnect_delay, tmo,
				    srp_dev_loss_tmo);
	else
		ret = srp_tmo_valid(srp_reconnect_delay, srp_fast_io_fail_tmo,
				    tmo);
	if (ret)
		return ret;

	*(int *)kp->arg = tmo;
	return 0;
}

static const struct kernel_param_ops srp_tmo_ops = {
	.get = srp_tmo_get,
	.set = srp_tmo_set,
};

module_param_cb(reconnect_delay, &srp_tmo_ops, &srp_reconnect_delay, 0644);
MODULE_PARM_DESC(reconnect_delay,
		 "Seconds between reconnect attempts, or \"off\"");

module_param_cb(fast_io_fail_tmo, &srp_tmo_ops, &srp_fast_io_fail_tmo, 0644);
MODULE_PARM_DESC(fast_io_fail_tmo,
		 "Seconds from a transport error until I/O fails fast, or \"off\"");

module_param_cb(dev_loss_tmo, &srp_tmo_ops, &srp_dev_loss_tmo, 0644);
MODULE_PARM_DESC(dev_loss_tmo,
		 "Seconds from a transport error until the SCSI host is removed, or \"off\"");

static void srp_rport_delete(struct srp_rport *rport)
{
	srp_target_queue_remove(rport->lld_data);
}

/* scsi_transport_srp runs the rports: their timeouts and our callbacks. */
static struct srp_function_template srp_rport_ft = {
	.has_rport_state	= true,
	.reset_timer_if_blocked	= true,
	.reconnect_delay	= &srp_reconnect_delay,
	.fast_io_fail_tmo	= &srp_fast_io_fail_tmo,
	.dev_loss_tmo		= &srp_dev_loss_tmo,
	.reconnect		= srp_rport_reconnect,
	.terminate_rport_io	= srp_rport_terminate_io,
	.rport_delete		= srp_rport_delete,
};

static struct scsi_transport_template *srp_transport;

static int __init srp_init(void)
{
	int ret;

	srp_transport = srp_attach_transport(&srp_rport_ft);
	if (!srp_transport)
		return -ENOMEM;
	ret = srp_login_init();
	if (ret)
		goto err_release_transport;
	ret = srp_target_init(srp_transport);
	if (ret)
		goto err_login_exit;

	srp_debugfs_init();
	srp_ib_cm_register();
	ret = srp_client_register();
	if (ret)
		goto err_unregister_sa;
	return 0;

err_unregister_sa:
	srp_ib_cm_unregister();
	srp_debugfs_exit();
	srp_target_exit();
err_login_exit:
	srp_login_exit();
err_release_transport:
	srp_release_transport(srp_transport);
	return ret;
}

static void __exit srp_exit(void)
{
	srp_client_unregister();
	srp_ib_cm_unregister();
	srp_debugfs_exit();
	srp_target_exit();
	srp_login_exit();
	srp_release_transport(srp_transport);
}

module_init(srp_init);
module_exit(srp_exit);

MODULE_DESCRIPTION("SCSI RDMA Protocol initiator");
MODULE_AUTHOR("The rdma-initiators authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(RDI_VERSION);
