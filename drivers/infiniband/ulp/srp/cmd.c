// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: the command path - queuecommand, receive completions, SRP_RSP,
 * SRP_CRED_REQ, SRP_AER_REQ and SRP_T_LOGOUT.
 *
 * Every command is tagged with its blk-mq unique tag, which also names its
 * hardware queue and so its channel. The driver owns a command from
 * queuecommand until one of three parties claims it with one atomic exchange
 * (srp_claim_req()): the SRP_RSP handler, the abort handler, or transport
 * failure (srp_fail_outstanding()). Only the claimer completes it.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/blk-mq.h>
#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_eh.h>
#include <scsi/scsi_tcq.h>
#include <scsi/scsi_transport_srp.h>

#include "device.h"
#include "channel.h"
#include "login.h"
#include "data.h"
#include "ext_table.h"
#include "tmf.h"
#include "cmd.h"
#include "trace.h"

/* The end of every command srp_queuecommand() accepted. */
static void srp_finish_cmd(struct srp_channel *ch, struct scsi_cmnd *scmnd)
{
	srp_unmap_data(ch, scmnd, scsi_cmd_priv(scmnd));
	rdi_stat_add(&ch->stats, RDI_STAT_CMDS_DONE, 1);
	trace_srp_cmd_done(ch, scmnd, scmnd->result);
	scsi_done(scmnd);
}

static void srp_completing_end(struct srp_target *target,
			       struct srp_request *req)
{
	if (atomic_dec_and_test(&req->completing) &&
	    wq_has_sleeper(&target->inv_wait))
		wake_up_all(&target->inv_wait);
}

/*
 * The last LOCAL_INV of a command completed: successfully, or flushed by a
 * QP in the error state. Its MRs are out of the target's reach either way.
 */
static void srp_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srp_request *req = container_of(wc->wr_cqe, struct srp_request,
					       inv_cqe);
	struct srp_channel *ch = wc->qp->qp_context;

	if (unlikely(wc->status != IB_WC_SUCCESS))
		srp_ch_error(ch, wc, "LOCAL_INV");
	/* The command this request belongs to: see scsi_cmd_priv(). */
	srp_finish_cmd(ch, (struct scsi_cmnd *)req - 1);
	srp_completing_end(ch->target, req);
}

/**
 * srp_init_cmd_priv() - allocate the per-command registration slots and
 *                       external descriptor table
 * @shost: SCSI host
 * @scmnd: command whose private data to set up
 *
 * Return: 0 or -ENOMEM.
 */
int srp_init_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *scmnd)
{
	struct srp_target *target = host_to_target(shost);
	struct srp_request *req = scsi_cmd_priv(scmnd);

	req->inv_cqe.done = srp_inv_done;
	if (target->mr_per_cmd) {
		req->regs = kcalloc(target->mr_per_cmd, sizeof(*req->regs),
				    GFP_KERNEL);
		if (!req->regs)
			return -ENOMEM;
	}
	if (srp_ext_table_alloc(target, req)) {
		kfree(req->regs);
		req->regs = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * srp_exit_cmd_priv() - free what srp_init_cmd_priv() allocated
 * @shost: SCSI host
 * @scmnd: command
 *
 * Return: 0.
 */
int srp_exit_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *scmnd)
{
	struct srp_request *req = scsi_cmd_priv(scmnd);

	srp_ext_table_free(host_to_target(shost), req);
	kfree(req->regs);
	req->regs = NULL;
	return 0;
}

/**
 * srp_claim_req() - take ownership of a command still outstanding
 * @ch:  channel the command went out on
 * @req: its private data
 *
 * The exchange is atomic, so of the response, the abort handler and
 * transport failure exactly one gets the command; no lock is needed.
 *
 * Return: the command, or NULL if someone else completed it already.
 */
struct scsi_cmnd *srp_claim_req(struct srp_channel *ch,
				struct srp_request *req)
{
	return xchg(&req->scmnd, NULL);
}

/*
 * Move the channel's QP to the error state, which ends the target's access
 * to every MR of the channel, then complete the commands on
 * &srp_channel.unfenced. The channel's release flushes this work before it
 * destroys the QP (srp_ch_release()).
 */
static void srp_ch_fence_work(struct work_struct *work)
{
	struct srp_channel *ch = container_of(work, struct srp_channel,
					      fence_work);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct srp_request *req, *next;
	LIST_HEAD(reqs);
	int ret;

	spin_lock_irq(&ch->lock);
	list_splice_init(&ch->unfenced, &reqs);
	spin_unlock_irq(&ch->lock);
	if (list_empty(&reqs))
		return;
	ret = ib_modify_qp(ch->queue.qp, &attr, IB_QP_STATE);
	WARN_ONCE(ret, "ib_srp: QP %u not moved to the error state: %d\n",
		  ch->queue.qp->qp_num, ret);
	list_for_each_entry_safe(req, next, &reqs, fence_entry) {
		list_del(&req->fence_entry);
		/* The command this request belongs to: see scsi_cmd_priv(). */
		srp_finish_cmd(ch, (struct scsi_cmnd *)req - 1);
		srp_completing_end(ch->target, req);
	}
}

/**
 * srp_cmd_ch_init() - set up the command path's part of a new channel
 * @ch: channel, before its first login
 */
void srp_cmd_ch_init(struct srp_channel *ch)
{
	INIT_LIST_HEAD(&ch->unfenced);
	INIT_WORK(&ch->fence_work, srp_ch_fence_work);
}

/**
 * srp_complete_cmd() - complete a command the caller claimed, once the
 *                      target can no longer reach its data
 * @ch:    channel it went out on
 * @scmnd: the command, its result set
 *
 * Nothing the target sent or did ends its access to registered memory:
 * not a response, not a logout, not a broken credit count. So a command
 * with MRs is completed, and its pages unmapped, only when the LOCAL_INV
 * of its MRs has completed (srp_inv_done()), whether the QP executed it or
 * flushed it from the error state; until then it counts as completing for
 * error handling (srp_wait_completing()). Should the post fail, the QP is
 * moved to the error state first (srp_ch_fence_work()): its PD is the
 * channel's own, so no other QP can use the rkeys.
 *
 * Context: any but hard interrupt.
 */
void srp_complete_cmd(struct srp_channel *ch, struct scsi_cmnd *scmnd)
{
	struct srp_request *req = scsi_cmd_priv(scmnd);
	unsigned long flags;
	int ret;

	if (!req->nregs) {
		srp_finish_cmd(ch, scmnd);
		return;
	}

	atomic_inc(&req->completing);
	ret = srp_inv_data(ch, req);
	if (likely(!ret))
		return;
	shost_printk(KERN_ERR, ch->target->shost,
		     "channel %u: cannot invalidate the MRs of tag %#x (%d); disabling the QP\n",
		     ch->idx, blk_mq_unique_tag(scsi_cmd_to_rq(scmnd)), ret);
	spin_lock_irqsave(&ch->lock, flags);
	list_add_tail(&req->fence_entry, &ch->unfenced);
	spin_unlock_irqrestore(&ch->lock, flags);
	queue_work(system_wq, &ch->fence_work);
	if (srp_ch_mark_down(ch))
		ch->target->ch_ops->failed(ch);
}

struct srp_completing_ctx {
	struct scsi_device	*sdev;
	bool			found;
};

static bool srp_find_completing(struct scsi_cmnd *scmnd, void *data)
{
	struct srp_request *req = scsi_cmd_priv(scmnd);
	struct srp_completing_ctx *ctx = data;

	if (scmnd->device == ctx->sdev && atomic_read(&req->completing))
		ctx->found = true;
	return !ctx->found;
}

static bool srp_none_completing(struct srp_target *target,
				struct scsi_device *sdev,
				struct srp_request *req)
{
	struct srp_completing_ctx ctx = { .sdev = sdev };

	if (req)
		return !atomic_read(&req->completing);
	scsi_host_busy_iter(target->shost, srp_find_completing, &ctx);
	return !ctx.found;
}

/**
 * srp_wait_completing() - wait until commands claimed for completion are
 *                         completed
 * @target: the target
 * @sdev:   with @req NULL: every command of this LUN
 * @req:    this command, or NULL
 *
 * A claimed command with MRs is completed only after their invalidation
 * (srp_complete_cmd()); an error handler that reported it done before
 * would let the midlayer reuse or free its pages while the target can
 * still reach them. The invalidation is a local operation: it takes long
 * only when the QP is stuck, which a reconnect (host reset) resolves.
 *
 * Context: process, may sleep.
 * Return: true when none is left, false after SRP_TMF_TIMEOUT_MS.
 */
bool srp_wait_completing(struct srp_target *target, struct scsi_device *sdev,
			 struct srp_request *req)
{
	unsigned long timeout = msecs_to_jiffies(SRP_TMF_TIMEOUT_MS);
	unsigned long deadline = jiffies + timeout;
	unsigned int i;

	if (!target->poll_count)
		return wait_event_timeout(target->inv_wait,
					  srp_none_completing(target, sdev, req),
					  timeout) > 0;
	/* The LOCAL_INVs of polled channels complete when polled: poll. */
	for (;;) {
		for (i = srp_irq_ch_count(target); i < target->ch_count; i++)
			srp_ch_poll(&target->ch[i]);
		if (wait_event_timeout(target->inv_wait,
				       srp_none_completing(target, sdev, req),
				       1))
			return true;
		if (!time_before(jiffies, deadline))
			return false;
	}
}

/**
 * srp_mq_poll() - reap the completions of a polled hardware queue
 * @shost:     SCSI host
 * @queue_num: the hardware queue, one of HCTX_TYPE_POLL
 *
 * The host template's mq_poll, called by a task polling for its I/O
 * (io_uring with IORING_SETUP_IOPOLL, preadv2() with RWF_HIPRI).
 *
 * Return: the completions reaped.
 */
int srp_mq_poll(struct Scsi_Host *shost, unsigned int queue_num)
{
	return srp_ch_poll(&host_to_target(shost)->ch[queue_num]);
}

/*
 * The channel of hardware queue @hwq, or, while that one is down and being
 * logged in again in the background, the next connected interrupt-driven
 * one. The unique tag names the command whichever channel carries it. A
 * command of a polled queue that must borrow goes to an interrupt-driven
 * channel, which completes it without a poller, as do error handling's own
 * commands on a polled queue (nobody may be polling for them).
 */
static struct srp_channel *srp_pick_channel(struct srp_target *target,
					    struct scsi_cmnd *scmnd,
					    unsigned int hwq)
{
	unsigned int i, n = srp_irq_ch_count(target);
	struct srp_channel *ch = &target->ch[hwq];

	if (likely(READ_ONCE(ch->connected)) &&
	    (!ch->polled || scmnd->submitter == SUBMITTED_BY_BLOCK_LAYER))
		return ch;
	for (i = 1; i <= n; i++) {
		ch = &target->ch[(hwq + i) % n];
		if (likely(READ_ONCE(ch->connected)))
			return ch;
	}
	return NULL;
}

/**
 * srp_queuecommand() - send one SCSI command
 * @shost: SCSI host
 * @scmnd: command
 *
 * Return: 0, or SCSI_MLQUEUE_HOST_BUSY when the channel lacks credits,
 * send IUs or MRs (the midlayer retries).
 */
int srp_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *scmnd)
{
	struct srp_target *target = host_to_target(shost);
	struct srp_request *req = scsi_cmd_priv(scmnd);
	u32 tag = blk_mq_unique_tag(scsi_cmd_to_rq(scmnd));
	struct srp_cmd_params p = {};
	struct ib_send_wr *reg_wrs;
	struct srp_channel *ch;
	bool regs_posted;
	struct srp_iu *iu;
	int len, result;

	result = srp_chkready(target->rport);
	if (unlikely(result)) {
		scmnd->result = result;
		goto done;
	}

	ch = srp_pick_channel(target, scmnd, blk_mq_unique_tag_to_hwq(tag));
	if (unlikely(!ch)) {
		/* No recovery will come for a target on its way out. */
		if (READ_ONCE(target->state) != SRP_TARGET_REMOVED)
			return SCSI_MLQUEUE_HOST_BUSY;
		set_host_byte(scmnd, DID_NO_CONNECT);
		goto done;
	}

	iu = srp_get_tx_iu(ch, SRP_TX_CMD);
	if (!iu)
		return SCSI_MLQUEUE_HOST_BUSY;

	p.tag = tag;
	int_to_scsilun(scmnd->device->lun, (struct scsi_lun *)p.lun);
	p.cdb = scmnd->cmnd;
	p.cdb_len = scmnd->cmd_len;
	p.task_attr = SRP_TASK_SIMPLE;
	len = srp_build_cmd(iu->buf.addr, ch->max_it_iu_len, &p);
	if (unlikely(len < 0)) {
		srp_put_tx_iu(ch, iu);
		set_host_byte(scmnd, DID_ERROR);
		goto done;
	}

	req->iu = iu;
	req->ch = ch;
	len = srp_map_data(ch, scmnd, req, iu->buf.addr, len, &reg_wrs);
	if (unlikely(len < 0)) {
		srp_put_tx_iu(ch, iu);
		if (len == -EAGAIN || len == -ENOMEM)
			return SCSI_MLQUEUE_HOST_BUSY;
		srp_printk_rl(KERN_ERR, shost,
			      "cannot map %u bytes of data: %d\n",
			      scsi_bufflen(scmnd), len);
		set_host_byte(scmnd, DID_ERROR);
		goto done;
	}

	/* Published before the post: its response cannot come earlier. */
	WRITE_ONCE(req->scmnd, scmnd);

	rdi_stat_add(&ch->stats, RDI_STAT_CMDS, 1);
	trace_srp_cmd_submit(ch, scmnd, tag);
	if (unlikely(srp_post_send_regs(ch, iu, len, reg_wrs, &regs_posted))) {
		if (srp_claim_req(ch, req)) {
			srp_put_tx_iu(ch, iu);
			if (regs_posted) {
				/*
				 * Registrations went out without the command:
				 * their keys are valid. It completes, to be
				 * retried, once they are invalid or the QP is
				 * in the error state (srp_complete_cmd()).
				 */
				set_host_byte(scmnd, DID_IMM_RETRY);
				srp_complete_cmd(ch, scmnd);
				return 0;
			}
			srp_cancel_data(ch, scmnd, req);
			return SCSI_MLQUEUE_HOST_BUSY;
		}
	}
	return 0;

done:
	scsi_done(scmnd);
	return 0;
}

/*
 * The residual of an SRP_RSP: the part of the command's buffer the transfer
 * did not use. One larger than the buffer cannot be true, and the midlayer
 * would take the buffer length minus it, negative, for a huge count of good
 * bytes: such a response fails the command instead. Returns -EPROTO then.
 */
static int srp_set_resid(struct srp_channel *ch, struct scsi_cmnd *scmnd,
			 const struct srp_rsp_info *rsp)
{
	const char *dir;
	s64 resid;

	if (rsp->flags & (SRP_RSP_DIUNDER | SRP_RSP_DIOVER)) {
		resid = rsp->data_in_resid;
		dir = "data-in";
	} else if (rsp->flags & (SRP_RSP_DOUNDER | SRP_RSP_DOOVER)) {
		resid = rsp->data_out_resid;
		dir = "data-out";
	} else {
		return 0;
	}
	if (resid > scsi_bufflen(scmnd)) {
		srp_printk_rl(KERN_ERR, ch->target->shost,
			      "channel %u: SRP_RSP %s residual %lld for a %u-byte transfer (tag %#llx); failing the command\n",
			      ch->idx, dir, resid, scsi_bufflen(scmnd), rsp->tag);
		return -EPROTO;
	}
	scsi_set_resid(scmnd, resid);
	return 0;
}

static void srp_handle_rsp(struct srp_channel *ch, const void *buf, u32 len)
{
	struct srp_target *target = ch->target;
	struct srp_rsp_info rsp;
	struct srp_request *req;
	struct scsi_cmnd *scmnd;

	if (srp_parse_rsp(buf, len, &rsp)) {
		srp_printk_rl(KERN_ERR, target->shost,
			      "channel %u: malformed SRP_RSP (%u bytes)\n",
			      ch->idx, len);
		return;
	}
	srp_add_credits(ch, rsp.req_lim_delta, "SRP_RSP");

	if (rsp.tag & SRP_TAG_TSK_MGMT) {
		srp_tmf_response(ch, &rsp);
		return;
	}

	scmnd = NULL;
	if (!(rsp.tag >> 32))
		scmnd = scsi_host_find_tag(target->shost, (u32)rsp.tag);
	req = scmnd ? scsi_cmd_priv(scmnd) : NULL;
	if (!req || req->ch != ch || !srp_claim_req(ch, req)) {
		srp_printk_rl(KERN_WARNING, target->shost,
			      "channel %u: SRP_RSP for unknown or completed tag %#llx\n",
			      ch->idx, rsp.tag);
		return;
	}

	if (rsp.sense && rsp.sense_len)
		memcpy(scmnd->sense_buffer, rsp.sense,
		       min_t(u32, rsp.sense_len, SCSI_SENSE_BUFFERSIZE));
	if (srp_set_resid(ch, scmnd, &rsp)) {
		rdi_stat_add(&ch->stats, RDI_STAT_ERRORS, 1);
		set_host_byte(scmnd, DID_ERROR);
		srp_complete_cmd(ch, scmnd);
		return;
	}
	if (scmnd->sc_data_direction == DMA_FROM_DEVICE)
		rdi_stat_add(&ch->stats, RDI_STAT_READ_BYTES,
			     scsi_bufflen(scmnd) - scsi_get_resid(scmnd));
	else if (scmnd->sc_data_direction == DMA_TO_DEVICE)
		rdi_stat_add(&ch->stats, RDI_STAT_WRITE_BYTES,
			     scsi_bufflen(scmnd) - scsi_get_resid(scmnd));
	scmnd->result = rsp.status;
	srp_complete_cmd(ch, scmnd);
}

/*
 * A credit grant: account it and answer with SRP_CRED_RSP, now or once a
 * send IU frees (srp_answer_target()). An IU too short to carry its tag
 * cannot be answered; it is logged and dropped.
 *
 * Return: true when @rx is held for the answer.
 */
static bool srp_handle_cred_req(struct srp_channel *ch, struct srp_iu *rx,
				u32 len)
{
	s32 delta;
	u64 tag;

	if (srp_parse_cred_req(rx->buf.addr, len, &tag, &delta)) {
		srp_printk_rl(KERN_ERR, ch->target->shost,
			      "channel %u: malformed SRP_CRED_REQ (%u bytes, %zu expected): dropped unanswered\n",
			      ch->idx, len, sizeof(struct srp_iu_cred_req));
		return false;
	}
	srp_add_credits(ch, delta, "SRP_CRED_REQ");
	return srp_answer_target(ch, rx, SRP_IU_CRED_RSP, tag);
}

/* Unit attentions that the SCSI midlayer reports as uevents. */
static const struct {
	u8			asc;
	u8			ascq;
	enum scsi_device_event	evt;
} srp_ua_events[] = {
	{ 0x2a, 0x01, SDEV_EVT_MODE_PARAMETER_CHANGE_REPORTED },
	{ 0x2a, 0x06, SDEV_EVT_ALUA_STATE_CHANGE_REPORTED },
	{ 0x2a, 0x09, SDEV_EVT_CAPACITY_CHANGE_REPORTED },
	{ 0x38, 0x07, SDEV_EVT_SOFT_THRESHOLD_REACHED_REPORTED },
	{ 0x3f, 0x03, SDEV_EVT_INQUIRY_CHANGE_REPORTED },
	{ 0x3f, 0x0e, SDEV_EVT_LUN_CHANGE_REPORTED },
};

static void srp_report_ua(struct scsi_device *sdev,
			  const struct scsi_sense_hdr *sshdr)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(srp_ua_events); i++) {
		if (srp_ua_events[i].asc == sshdr->asc &&
		    srp_ua_events[i].ascq == sshdr->ascq) {
			sdev_evt_send_simple(sdev, srp_ua_events[i].evt,
					     GFP_ATOMIC);
			return;
		}
	}
}

/* Report the event of an SRP_AER_REQ whose sense data is in @aer. */
static void srp_report_aer(struct srp_channel *ch,
			   const struct srp_aer_info *aer, u64 lun)
{
	struct srp_target *target = ch->target;
	struct scsi_sense_hdr sshdr;
	struct scsi_device *sdev;

	if (!aer->sense_len ||
	    !scsi_normalize_sense(aer->sense, aer->sense_len, &sshdr))
		return;
	shost_printk(KERN_INFO, target->shost,
		     "asynchronous event for LUN %llu: sense %#x/%#x/%#x\n",
		     lun, sshdr.sense_key, sshdr.asc, sshdr.ascq);
	sdev = scsi_device_lookup(target->shost, 0, 0, lun);
	if (!sdev)
		return;
	if (sshdr.sense_key == UNIT_ATTENTION)
		srp_report_ua(sdev, &sshdr);
	scsi_device_put(sdev);
}

/*
 * An asynchronous event: account its credits, hand a unit attention in its
 * sense data to the SCSI midlayer of the LUN concerned, which turns it into
 * the same uevent a command's sense data would give (capacity change, LUN
 * inventory change, ...), and answer it. SRP r16a wants every SRP_AER_REQ
 * answered, so one with inconsistent lengths is still answered when its
 * tag arrived; only its event is ignored. The answer comes last: a request
 * held for it may be reposted, its buffer reused, as soon as it is queued.
 *
 * Return: true when @rx is held for the answer.
 */
static bool srp_handle_aer_req(struct srp_channel *ch, struct srp_iu *rx,
			       u32 len)
{
	struct srp_target *target = ch->target;
	struct srp_aer_info aer;
	u64 lun;
	int ret;

	ret = srp_parse_aer_req(rx->buf.addr, len, &aer);
	if (ret == -EPROTO) {
		srp_printk_rl(KERN_ERR, target->shost,
			      "channel %u: malformed SRP_AER_REQ (%u bytes, no tag): dropped unanswered\n",
			      ch->idx, len);
		return false;
	}
	lun = scsilun_to_int((struct scsi_lun *)aer.lun);
	if (ret)
		srp_printk_rl(KERN_ERR, target->shost,
			      "channel %u: malformed SRP_AER_REQ for LUN %llu (%u bytes, sense data length %u): answered, event ignored\n",
			      ch->idx, lun, len, aer.sense_len_field);
	srp_add_credits(ch, aer.req_lim_delta, "SRP_AER_REQ");
	srp_report_aer(ch, &aer, lun);
	return srp_answer_target(ch, rx, SRP_IU_AER_RSP, aer.tag);
}

/*
 * The target logs the channel out. One too short to carry a reason is
 * still a logout: the target will not serve the channel any longer.
 */
static void srp_handle_t_logout(struct srp_channel *ch, const void *buf,
				u32 len)
{
	u32 reason;
	u64 tag;

	if (srp_parse_t_logout(buf, len, &tag, &reason))
		shost_printk(KERN_WARNING, ch->target->shost,
			     "channel %u: target logged out with a malformed SRP_T_LOGOUT (%u bytes, %zu expected); reconnecting\n",
			     ch->idx, len, sizeof(struct srp_iu_t_logout));
	else
		shost_printk(KERN_WARNING, ch->target->shost,
			     "channel %u: target logged out: %s (%#x); reconnecting\n",
			     ch->idx, srp_t_logout_text(reason), reason);
	srp_cm_disconnected(ch);
}

/**
 * srp_cmd_recv() - handle an IU the target sent: dispatch on its type
 * @ch:  channel it arrived on
 * @rx:  the receive IU, synced for the CPU
 * @len: bytes received
 *
 * The channel's &srp_ch_ops.recv.
 *
 * Context: receive completion (softirq).
 * Return: true when @rx holds a target request waiting for a send IU to
 * answer it (srp_answer_target()); the channel reposts it then, not now.
 */
bool srp_cmd_recv(struct srp_channel *ch, struct srp_iu *rx, u32 len)
{
	const void *buf = rx->buf.addr;

	switch (srp_iu_opcode(buf, len)) {
	case SRP_IU_RSP:
		srp_handle_rsp(ch, buf, len);
		break;
	case SRP_IU_CRED_REQ:
		return srp_handle_cred_req(ch, rx, len);
	case SRP_IU_AER_REQ:
		return srp_handle_aer_req(ch, rx, len);
	case SRP_IU_T_LOGOUT:
		srp_handle_t_logout(ch, buf, len);
		break;
	case -EPROTO:
		srp_printk_rl(KERN_WARNING, ch->target->shost,
			      "channel %u: empty IU (a SEND of 0 bytes) ignored\n",
			      ch->idx);
		break;
	default:
		srp_printk_rl(KERN_WARNING, ch->target->shost,
			      "channel %u: unexpected IU type %#x (%u bytes)\n",
			      ch->idx, *(const u8 *)buf, len);
		break;
	}
	return false;
}

struct srp_fail_ctx {
	struct srp_target	*target;
	struct srp_channel	*ch;
	struct scsi_device	*sdev;
	u8			host_byte;
};

static bool srp_fail_one(struct scsi_cmnd *scmnd, void *data)
{
	struct srp_request *req = scsi_cmd_priv(scmnd);
	struct srp_fail_ctx *ctx = data;
	struct srp_channel *ch = req->ch;

	if (!ch || ch->target != ctx->target ||
	    (ctx->ch && ch != ctx->ch) ||
	    (ctx->sdev && scmnd->device != ctx->sdev) ||
	    !srp_claim_req(ch, req))
		return true;
	set_host_byte(scmnd, ctx->host_byte);
	srp_complete_cmd(ch, scmnd);
	return true;
}

/**
 * srp_fail_outstanding() - complete every command the driver still owns
 * @target:    the target
 * @sdev:      only the commands of this LUN, or NULL for all
 * @host_byte: DID_* those commands end with
 *
 * A response racing with us loses in srp_claim_req(): each command is
 * completed exactly once.
 */
void srp_fail_outstanding(struct srp_target *target, struct scsi_device *sdev,
			  u8 host_byte)
{
	struct srp_fail_ctx ctx = {
		.target = target, .sdev = sdev, .host_byte = host_byte,
	};

	scsi_host_busy_iter(target->shost, srp_fail_one, &ctx);
}

/**
 * srp_fail_channel() - complete every command outstanding on one channel
 * @ch:        the channel, down and drained
 * @host_byte: DID_* those commands end with
 */
void srp_fail_channel(struct srp_channel *ch, u8 host_byte)
{
	struct srp_fail_ctx ctx = {
		.target = ch->target, .ch = ch, .host_byte = host_byte,
	};

	scsi_host_busy_iter(ch->target->shost, srp_fail_one, &ctx);
}
