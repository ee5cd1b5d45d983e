// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: task management functions - one exchange at a time per target.
 *
 * A function goes out on a channel with the credit kept back for it, so it
 * is never stuck behind a full command window, and waits for the SRP_RSP
 * whose tag names it (srp_tmf_response(), from the receive dispatch of
 * cmd.c). One is in flight per target: each channel is an I_T nexus of its
 * own, and a LUN reset makes the target abort, unanswered, the functions of
 * the other nexuses it overlaps.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <scsi/scsi.h>

#include "channel.h"
#include "tmf.h"
#include "trace.h"

static atomic64_t srp_tmf_seq = ATOMIC64_INIT(0);

/**
 * srp_send_tmf() - send one task management function and wait for it
 * @ch:       channel to send it on
 * @task_tag: tag of the command to abort (ABORT TASK), else 0
 * @lun:      the LUN
 * @func:     SRP_TMF_*
 *
 * Waits for the response, or until the channel goes down
 * (srp_ch_mark_down() ends the wait with -ENOTCONN); on a polled channel
 * the wait reaps its CQ, where the response arrives (srp_ch_wait()). A channel that leaves
 * the function unanswered is marked down and the whole rport recovered
 * (&srp_ch_ops.lost).
 *
 * Context: process context, may sleep; takes the target's and the
 * channel's TMF mutexes.
 * Return: the TMF response code (SRP_TMF_RSP_*, >= 0) or a negative errno;
 * -ETIMEDOUT only when the connection the TMF went out on is still up.
 */
int srp_send_tmf(struct srp_channel *ch, u64 task_tag, u64 lun, u8 func)
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
	srp_build_tsk_mgmt(iu->buf.addr, tag, slun.scsi_lun, func, task_tag);

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
		srp_ch_wait(ch, &ch->tmf_done,
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
		target->ch_ops->lost(ch);
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

	if (!match) {
		srp_printk_rl(KERN_WARNING, ch->target->shost,
			      "channel %u: stale task management response %#llx\n",
			      ch->idx, rsp->tag);
		return;
	}
	if (code < 0)
		srp_printk_rl(KERN_ERR, ch->target->shost,
			      "channel %u: task management response %#llx without response data: the function failed\n",
			      ch->idx, rsp->tag);
	complete(&ch->tmf_done);
}
