// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: SCSI error handling - ABORT TASK, LUN RESET and host reset.
 *
 * Task management functions go out on the channel of the command (or of
 * the LUN's last command), one at a time per target, and use the credit
 * kept back for them, so they are never stuck behind a full command
 * window. Their response code is checked: only a completed function counts
 * as success. Host reset is a reconnect through the transport class.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <scsi/scsi.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_transport_srp.h>

#include "ib_srp.h"
#include "ib_srp_trace.h"

static atomic64_t srp_tmf_seq = ATOMIC64_INIT(0);

/*
 * Send one task management function and wait for its response, or until
 * the channel goes down (srp_ch_mark_down() ends the wait with -ENOTCONN).
 * Return: the TMF response code (SRP_TMF_RSP_*, >= 0) or a negative errno;
 * -ETIMEDOUT only when the connection the TMF went out on is still up.
 */
static int srp_send_tmf(struct srp_channel *ch, u64 task_tag, u64 lun,
			u8 func)
{
	struct srp_target *target = ch->target;
	struct scsi_lun slun;
	struct srp_iu *iu;
	u64 tag;
	int ret;

	mutex_lock(&target->tmf_mutex);
	mutex_lock(&ch->tmf_mutex);
	if (!READ_ONCE(ch->connected)) {
		ret = -ENOTCONN;
		goto out;
	}
	iu = srp_get_tx_iu(ch, SRP_TX_TMF);
	if (!iu) {
		ret = -EBUSY;
		goto out;
	}

	tag = SRP_TAG_TSK_MGMT | atomic64_inc_return(&srp_tmf_seq);
	int_to_scsilun(lun, &slun);
	srp_build_tsk_mgmt(iu->buf, tag, slun.scsi_lun, func, task_tag);

	/* Connected and in flight under one lock: see srp_ch_mark_down(). */
	reinit_completion(&ch->tmf_done);
	spin_lock_irq(&ch->lock);
	if (!ch->connected) {
		spin_unlock_irq(&ch->lock);
		srp_put_tx_iu(ch, iu);
		ret = -ENOTCONN;
		goto out;
	}
	ch->tmf_tag = tag;
	ch->tmf_status = -ETIMEDOUT;
	spin_unlock_irq(&ch->lock);

	ret = srp_post_send(ch, iu, sizeof(struct srp_iu_tsk_mgmt), NULL);
	if (ret) {
		srp_put_tx_iu(ch, iu);
		ret = -EIO;
	} else {
		wait_for_completion_timeout(&ch->tmf_done,
					    msecs_to_jiffies(SRP_TMF_TIMEOUT_MS));
	}
	spin_lock_irq(&ch->lock);
	if (!ret)
		ret = ch->tmf_status;
	ch->tmf_tag = 0;
	spin_unlock_irq(&ch->lock);
	trace_srp_tmf(ch, func, task_tag, ret);
out:
	mutex_unlock(&ch->tmf_mutex);
	mutex_unlock(&target->tmf_mutex);
	if (ret)
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u: task management function %#x for LUN %llu: %s (%d)\n",
			     ch->idx, func, lun,
			     ret == -ETIMEDOUT ? "no response" : "failed",
			     ret);
	/*
	 * A channel that leaves a task management function unanswered is of
	 * no use to error handling: recover the rport now rather than after
	 * an ABORT TASK timeout for every outstanding command.
	 */
	if (ret == -ETIMEDOUT && srp_ch_mark_down(ch)) {
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: unresponsive; recovering\n", ch->idx);
		srp_target_start_recovery(target);
	}
	return ret;
}

/**
 * srp_tmf_response() - an SRP_RSP answering a task management function
 * @ch:  channel
 * @rsp: the decoded response
 *
 * Context: receive completion.
 */
void srp_tmf_response(struct srp_channel *ch, const struct srp_rsp_info *rsp)
{
	int code = srp_rsp_tmf_code(rsp);
	unsigned long flags;
	bool match;

	spin_lock_irqsave(&ch->lock, flags);
	match = ch->tmf_tag == rsp->tag;
	if (match)
		ch->tmf_status = code < 0 ? -EPROTO : code;
	spin_unlock_irqrestore(&ch->lock, flags);

	if (match)
		complete(&ch->tmf_done);
	else
		srp_printk_rl(KERN_WARNING, ch->target->shost,
			      "channel %u: stale task management response %#llx\n",
			      ch->idx, rsp->tag);
}

/*
 * SUCCESS for a command the driver no longer owns: claimed, and completed
 * once its MRs are invalid (srp_wait_completing()).
 */
static int srp_eh_claimed(struct srp_target *target, struct srp_request *req)
{
	return srp_wait_completing(target, NULL, req) ? SUCCESS : FAILED;
}

/**
 * srp_eh_abort() - ABORT TASK for one command, on its own channel
 * @scmnd: the command
 *
 * Return: SUCCESS when the command is no longer outstanding, FAST_IO_FAIL
 * when the rport is gone, FAILED otherwise.
 */
int srp_eh_abort(struct scsi_cmnd *scmnd)
{
	struct srp_target *target = host_to_target(scmnd->device->host);
	struct srp_request *req = scsi_cmd_priv(scmnd);
	struct srp_channel *ch = req->ch;
	u32 tag = blk_mq_unique_tag(scsi_cmd_to_rq(scmnd));
	int ret;

	if (!ch || READ_ONCE(req->scmnd) != scmnd)
		return srp_eh_claimed(target, req);

	shost_printk(KERN_WARNING, target->shost,
		     "aborting tag %#x on channel %u\n", tag, ch->idx);
	ret = srp_send_tmf(ch, tag, scmnd->device->lun, SRP_TMF_ABORT_TASK);
	if (ret == SRP_TMF_RSP_COMPLETE) {
		if (srp_claim_req(ch, req))
			srp_complete_cmd(ch, scmnd, DID_ABORT << 16);
		return srp_eh_claimed(target, req);
	}
	if (READ_ONCE(req->scmnd) != scmnd)
		return srp_eh_claimed(target, req);
	if (target->rport->state == SRP_RPORT_LOST)
		return FAST_IO_FAIL;
	return FAILED;
}

/**
 * srp_eh_device_reset() - LUN RESET on the channel of the failing command
 * @scmnd: a command of the LUN
 *
 * Return: SUCCESS or FAILED.
 */
int srp_eh_device_reset(struct scsi_cmnd *scmnd)
{
	struct scsi_device *sdev = scmnd->device;
	struct srp_target *target = host_to_target(sdev->host);
	struct srp_request *req = scsi_cmd_priv(scmnd);
	struct srp_channel *ch = req->ch ? req->ch : &target->ch[0];

	shost_printk(KERN_WARNING, target->shost,
		     "LUN reset for LUN %llu on channel %u\n", sdev->lun,
		     ch->idx);
	if (srp_send_tmf(ch, 0, sdev->lun, SRP_TMF_LUN_RESET) !=
	    SRP_TMF_RSP_COMPLETE)
		return FAILED;
	srp_fail_outstanding(target, sdev, DID_RESET << 16);
	return srp_wait_completing(target, sdev, NULL) ? SUCCESS : FAILED;
}

/**
 * srp_eh_host_reset() - reconnect every channel
 * @scmnd: a command of the host
 *
 * Return: SUCCESS or FAILED.
 */
int srp_eh_host_reset(struct scsi_cmnd *scmnd)
{
	struct srp_target *target = host_to_target(scmnd->device->host);

	shost_printk(KERN_WARNING, target->shost,
		     "host reset: reconnecting\n");
	return srp_reconnect_rport(target->rport) == 0 ? SUCCESS : FAILED;
}
