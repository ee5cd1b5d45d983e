// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: SCSI RDMA Protocol initiator - module parameters, init and exit.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/scatterlist.h>

#include "ib_srp.h"

#define SRP_DEF_CMD_SG_ENTRIES	12

static unsigned int srp_sg_tablesize;
module_param(srp_sg_tablesize, uint, 0444);
MODULE_PARM_DESC(srp_sg_tablesize, "Deprecated name for cmd_sg_entries");

unsigned int srp_cmd_sg_entries;
module_param_named(cmd_sg_entries, srp_cmd_sg_entries, uint, 0444);
MODULE_PARM_DESC(cmd_sg_entries,
		 "Descriptors inside an SRP_CMD (default 12, max 255)");

unsigned int srp_indirect_sg_entries;
module_param_named(indirect_sg_entries, srp_indirect_sg_entries, uint, 0444);
MODULE_PARM_DESC(indirect_sg_entries,
		 "Default SCSI sg_tablesize (default cmd_sg_entries, max "
		 __stringify(SG_MAX_SEGMENTS) ")");

bool srp_allow_ext_sg;
module_param_named(allow_ext_sg, srp_allow_ext_sg, bool, 0444);
MODULE_PARM_DESC(allow_ext_sg,
		 "Let the target fetch descriptors that do not fit in the SRP_CMD (default false)");

static int topspin_workarounds = 1;
module_param(topspin_workarounds, int, 0444);
MODULE_PARM_DESC(topspin_workarounds,
		 "Enable workarounds for Topspin/Cisco SRP targets if != 0");
bool srp_topspin_workarounds;

bool srp_register_always = true;
module_param_named(register_always, srp_register_always, bool, 0444);
MODULE_PARM_DESC(register_always,
		 "Register memory even for contiguous regions (default true; false uses an unsafe global rkey)");

bool srp_never_register;
module_param_named(never_register, srp_never_register, bool, 0444);
MODULE_PARM_DESC(never_register,
		 "Never register memory; uses an unsafe global rkey (default false)");

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

int srp_reconnect_delay = 10;
module_param_cb(reconnect_delay, &srp_tmo_ops, &srp_reconnect_delay, 0644);
MODULE_PARM_DESC(reconnect_delay,
		 "Seconds between reconnect attempts, or \"off\"");

int srp_fast_io_fail_tmo = 15;
module_param_cb(fast_io_fail_tmo, &srp_tmo_ops, &srp_fast_io_fail_tmo, 0644);
MODULE_PARM_DESC(fast_io_fail_tmo,
		 "Seconds from a transport error until I/O fails fast, or \"off\"");

int srp_dev_loss_tmo = 600;
module_param_cb(dev_loss_tmo, &srp_tmo_ops, &srp_dev_loss_tmo, 0644);
MODULE_PARM_DESC(dev_loss_tmo,
		 "Seconds from a transport error until the SCSI host is removed, or \"off\"");

bool srp_use_imm_data = true;
module_param_named(use_imm_data, srp_use_imm_data, bool, 0644);
MODULE_PARM_DESC(use_imm_data,
		 "Request immediate data at login (default true)");

unsigned int srp_max_imm_data = 8 * 1024;
module_param_named(max_imm_data, srp_max_imm_data, uint, 0644);
MODULE_PARM_DESC(max_imm_data, "Largest write sent as immediate data");

unsigned int srp_ch_count;
module_param_named(ch_count, srp_ch_count, uint, 0444);
MODULE_PARM_DESC(ch_count,
		 "RDMA channels per target (default: online CPUs, at most "
		 __stringify(SRP_DEFAULT_CH_CAP)
		 ", at most the device's completion vectors)");

unsigned int srp_keepalive = 5;
module_param_named(keepalive, srp_keepalive, uint, 0644);
MODULE_PARM_DESC(keepalive,
		 "Keep-alive period in seconds: a silent path fails after it; 0 for none (default 5, up to "
		 __stringify(SRP_MAX_KEEPALIVE) ")");

struct workqueue_struct *srp_remove_wq;
struct scsi_transport_template *srp_transport;

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

static void srp_fixup_params(void)
{
	if (srp_sg_tablesize) {
		pr_warn("srp_sg_tablesize is deprecated, use cmd_sg_entries\n");
		if (!srp_cmd_sg_entries)
			srp_cmd_sg_entries = srp_sg_tablesize;
	}
	if (!srp_cmd_sg_entries)
		srp_cmd_sg_entries = SRP_DEF_CMD_SG_ENTRIES;
	if (srp_cmd_sg_entries > 255) {
		pr_warn("clamping cmd_sg_entries to 255\n");
		srp_cmd_sg_entries = 255;
	}
	if (!srp_indirect_sg_entries) {
		srp_indirect_sg_entries = srp_cmd_sg_entries;
	} else if (srp_indirect_sg_entries < srp_cmd_sg_entries) {
		pr_warn("raising indirect_sg_entries to cmd_sg_entries (%u)\n",
			srp_cmd_sg_entries);
		srp_indirect_sg_entries = srp_cmd_sg_entries;
	}
	if (srp_indirect_sg_entries > SG_MAX_SEGMENTS) {
		pr_warn("clamping indirect_sg_entries to %u\n",
			SG_MAX_SEGMENTS);
		srp_indirect_sg_entries = SG_MAX_SEGMENTS;
	}
	srp_topspin_workarounds = topspin_workarounds != 0;

	/* Security note, once: see srp_setup_registration(). */
	if (srp_wants_global_rkey(srp_never_register, srp_register_always))
		pr_warn("%s: SRP uses a PD with an unsafe global rkey; SRP targets can read and write all memory of this host\n",
			srp_never_register ? "never_register=Y" :
			"register_always=N");
}

static int __init srp_init(void)
{
	int ret;

	srp_fixup_params();

	/*
	 * Not WQ_MEM_RECLAIM: removing a SCSI host flushes runtime-PM work of
	 * its devices, which runs on a workqueue without a rescuer.
	 */
	srp_remove_wq = alloc_workqueue("srp_remove", 0, 0);
	if (!srp_remove_wq)
		return -ENOMEM;

	srp_transport = srp_attach_transport(&srp_rport_ft);
	if (!srp_transport) {
		ret = -ENOMEM;
		goto err_destroy_wq;
	}

	srp_debugfs_init();
	srp_ib_cm_register();
	ret = srp_client_register();
	if (ret)
		goto err_unregister_sa;

	pr_info("SCSI RDMA Protocol initiator, version %s\n", RDI_VERSION);
	return 0;

err_unregister_sa:
	srp_ib_cm_unregister();
	srp_debugfs_exit();
	srp_release_transport(srp_transport);
err_destroy_wq:
	destroy_workqueue(srp_remove_wq);
	return ret;
}

static void __exit srp_exit(void)
{
	srp_client_unregister();
	srp_ib_cm_unregister();
	srp_debugfs_exit();
	srp_release_transport(srp_transport);
	destroy_workqueue(srp_remove_wq);
}

module_init(srp_init);
module_exit(srp_exit);

MODULE_DESCRIPTION("SCSI RDMA Protocol initiator");
MODULE_AUTHOR("The rdma-initiators authors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(RDI_VERSION);
