// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: glue to scsi_transport_srp - rports, reconnect, fail-fast, delete.
 *
 * The transport class owns the rport state machine and its timers
 * (reconnect_delay, fast_io_fail_tmo, dev_loss_tmo) and calls back here:
 * ->reconnect with the rport mutex held, ->terminate_rport_io when I/O must
 * fail fast, ->rport_delete when "delete" is written or dev_loss_tmo fires.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <scsi/scsi_host.h>
#include <scsi/scsi_transport_srp.h>

#include "ib_srp.h"

/*
 * Tear every channel down and log in again. Commands still outstanding on
 * the old channels are completed with DID_RESET once their QPs are drained
 * and before their MRs go away, so the midlayer retries them. One channel
 * back is enough to resume I/O: the others are retried in the background
 * (srp_ch_retry_work()) while their hardware queues borrow a live channel.
 */
static int srp_rport_reconnect(struct srp_rport *rport)
{
	struct srp_target *target = rport->lld_data;
	unsigned int i, up = 0;
	int ret = 0, err;

	if (READ_ONCE(target->state) == SRP_TARGET_REMOVED)
		return -ENODEV;

	srp_target_disconnect(target);
	for (i = 0; i < target->ch_count; i++)
		if (target->ch[i].qp)
			ib_drain_qp(target->ch[i].qp);
	srp_fail_outstanding(target, NULL, DID_RESET << 16);
	for (i = 0; i < target->ch_count; i++)
		srp_ch_release(&target->ch[i]);

	/* Not _sync: the retry work may be waiting for the rport mutex. */
	cancel_delayed_work(&target->ch_retry_work);
	for (i = 0; i < target->ch_count; i++) {
		err = srp_ch_login(&target->ch[i], up > 0);
		if (err)
			ret = err;
		else
			up++;
	}

	if (!up) {
		shost_printk(KERN_WARNING, target->shost,
			     "reconnect failed (%d)\n", ret);
		return ret;
	}
	if (up < target->ch_count) {
		shost_printk(KERN_WARNING, target->shost,
			     "reconnected %u of %u channels (%d); retrying the others\n",
			     up, target->ch_count, ret);
		srp_schedule_ch_retry(target);
	} else {
		shost_printk(KERN_INFO, target->shost, "reconnected\n");
	}
	return 0;
}

/**
 * srp_schedule_ch_retry() - retry the channels that are down, later
 * @target: the target
 */
void srp_schedule_ch_retry(struct srp_target *target)
{
	int delay = READ_ONCE(target->rport->reconnect_delay);

	queue_delayed_work(system_long_wq, &target->ch_retry_work,
			   max(delay, 1) * HZ);
}

/**
 * srp_ch_retry_work() - log in again the channels a reconnect left down
 * @work: &srp_target.ch_retry_work
 *
 * Runs under the rport mutex so that it never overlaps a reconnect.
 */
void srp_ch_retry_work(struct work_struct *work)
{
	struct srp_target *target = container_of(to_delayed_work(work),
						 struct srp_target,
						 ch_retry_work);
	struct srp_rport *rport = target->rport;
	bool again = false;
	unsigned int i;

	mutex_lock(&rport->mutex);
	if (READ_ONCE(target->state) != SRP_TARGET_LIVE ||
	    rport->state != SRP_RPORT_RUNNING)
		goto out;
	for (i = 0; i < target->ch_count; i++) {
		struct srp_channel *ch = &target->ch[i];

		if (READ_ONCE(ch->connected) || ch->qp)
			continue;
		if (srp_ch_login(ch, true))
			again = true;
		else
			shost_printk(KERN_INFO, target->shost,
				     "channel %u back\n", i);
	}
	if (again)
		srp_schedule_ch_retry(target);
out:
	mutex_unlock(&rport->mutex);
}

static void srp_rport_terminate_io(struct srp_rport *rport)
{
	struct srp_target *target = rport->lld_data;

	srp_fail_outstanding(target, NULL, DID_TRANSPORT_FAILFAST << 16);
}

static void srp_rport_delete(struct srp_rport *rport)
{
	srp_target_queue_remove(rport->lld_data);
}

struct srp_function_template srp_rport_ft = {
	.has_rport_state	= true,
	.reset_timer_if_blocked	= true,
	.reconnect_delay	= &srp_reconnect_delay,
	.fast_io_fail_tmo	= &srp_fast_io_fail_tmo,
	.dev_loss_tmo		= &srp_dev_loss_tmo,
	.reconnect		= srp_rport_reconnect,
	.terminate_rport_io	= srp_rport_terminate_io,
	.rport_delete		= srp_rport_delete,
};

/**
 * srp_rport_attach() - create the rport port-<host>:1 of a target
 * @target: target whose SCSI host was added
 *
 * Return: 0 or a negative errno.
 */
int srp_rport_attach(struct srp_target *target)
{
	struct srp_rport_identifiers ids = { .roles = SRP_RPORT_ROLE_TARGET };
	__be64 id_ext = cpu_to_be64(target->opts.id_ext);
	__be64 ioc_guid = cpu_to_be64(target->opts.ioc_guid);
	struct srp_rport *rport;

	memcpy(ids.port_id, &id_ext, 8);
	memcpy(ids.port_id + 8, &ioc_guid, 8);
	rport = srp_rport_add(target->shost, &ids);
	if (IS_ERR(rport))
		return PTR_ERR(rport);
	rport->lld_data = target;
	target->rport = rport;
	return 0;
}
