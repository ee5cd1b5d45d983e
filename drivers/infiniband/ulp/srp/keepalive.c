// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: keep-alive - notice a silent path without waiting for the SCSI
 * command timeout.
 *
 * SRP has no ping of its own. A path whose packets vanish, with no link or
 * CM event, is otherwise noticed only when the RC transport's retries run
 * out (never with soft-RoCE at the default retry count, after a time set by
 * the fabric's packet lifetime on hardware) or when a SCSI command times
 * out. So each channel watches its own completions: when none has arrived
 * for half the keep-alive period, it posts a probe, and when neither the
 * probe nor anything else has completed after the other half, the channel
 * is failed the way a transport error fails it - its QP goes to the error
 * state and the rport is recovered (blocked, fast_io_fail_tmo,
 * reconnect_delay). A silent path is noticed within one keep-alive period
 * of the last sign of life, whether commands are outstanding or not. A
 * probe's answer counts from when the probe was posted: the path was known
 * to work only up to the post.
 *
 * The probe is a zero-length RDMA WRITE. The target's RC responder
 * acknowledges it in the transport: no rkey is checked for zero bytes, no
 * receive is consumed and every RC QP a CM connected grants remote write,
 * so it needs nothing from the target's software. It touches no memory,
 * takes no credit and no send IU. A responder that refuses it anyway (a
 * NAK) moves our QP to the error state; so that this costs at most one
 * reconnect, every login sends a probe before the channel carries anything
 * (srp_ka_login_probe()), and a refusal turns keep-alive off for the rest
 * of the target's life.
 *
 * On iWARP a WRITE's completion says nothing about the peer: it completes
 * once the local side is done with it, which for soft-iWARP is when TCP
 * has taken the bytes, so a probe into a silent path completed at once and
 * the path was never failed. An RDMA READ completes only with the peer's
 * READ response, so there the probe is a zero-length READ (one SGE of
 * length 0: iWARP reads into exactly one sink SGE), and the connection asks
 * for one outstanding READ (srp_rdma_cm_connect()). The target's RDMA
 * stack answers it, not its software, as with the WRITE.
 *
 * Cost on the wire: one probe and its acknowledgment per half keep-alive
 * period per idle channel, none while completions flow.
 *
 * The probe completes on the channel's send CQ like any send; on a polled
 * channel, whose CQ nobody may be polling while it is idle, the watch
 * reaps the CQ itself before it looks (srp_ch_poll()), and so does the
 * login's wait for the first probe. It is posted
 * under &srp_channel.lock only while the channel is connected, so it is
 * always ahead of the drain that comes before a channel's release; its
 * completion, even a late flush, touches nothing but the channel, whose
 * watch is cancelled before its resources go (srp_ka_stop()).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <scsi/scsi_host.h>

#include "channel.h"
#include "device.h"
#include "keepalive.h"

/* Half a keep-alive period: the idle time before a probe, and its limit. */
static unsigned long srp_ka_half(const struct srp_target *target)
{
	return msecs_to_jiffies(target->opts.keepalive * MSEC_PER_SEC / 2);
}

static bool srp_ka_enabled(const struct srp_target *target)
{
	return target->opts.keepalive && !READ_ONCE(target->ka_refused);
}

/*
 * Statuses of a probe the target's responder refused. Each moved our QP to
 * the error state: the probe will not work on this target.
 */
static bool srp_ka_refusal(enum ib_wc_status status)
{
	return status == IB_WC_REM_ACCESS_ERR ||
	       status == IB_WC_REM_INV_REQ_ERR ||
	       status == IB_WC_REM_OP_ERR;
}

static void srp_ka_probe_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srp_channel *ch = container_of(wc->wr_cqe, struct srp_channel,
					      ka.cqe);
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	ch->ka.probing = false;
	ch->ka.status = wc->status;
	if (wc->status == IB_WC_SUCCESS &&
	    time_after(ch->ka.sent, READ_ONCE(ch->ka.last_seen)))
		WRITE_ONCE(ch->ka.last_seen, ch->ka.sent);
	spin_unlock_irqrestore(&ch->lock, flags);

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		srp_ch_error(ch, wc, "keep-alive probe");
}

/* Post a probe. Caller holds @ch->lock; no probe may be in flight. */
static int srp_ka_post(struct srp_channel *ch)
{
	const struct srp_host *host = ch->target->host;
	struct ib_sge sge = { .lkey = ch->pd->local_dma_lkey };
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe		= &ch->ka.cqe,
			.opcode		= IB_WR_RDMA_WRITE,
			.send_flags	= IB_SEND_SIGNALED,
		},
	};
	int ret;

	lockdep_assert_held(&ch->lock);
	if (rdma_protocol_iwarp(host->sdev->ib_dev, host->port)) {
		wr.wr.opcode = IB_WR_RDMA_READ;
		wr.wr.sg_list = &sge;
		wr.wr.num_sge = 1;
	}
	ret = ib_post_send(ch->queue.qp, &wr.wr, NULL);
	if (ret)
		return ret;
	ch->ka.probing = true;
	ch->ka.sent = jiffies;
	rdi_stat_add(&ch->stats, RDI_STAT_KEEPALIVES, 1);
	return 0;
}

/*
 * The path is silent: fail the channel as a transport error would. Moving
 * the QP to the error state flushes its work requests and stops anything
 * the target might still send to it. @post_err: why a probe could not be
 * posted, or 0 when the probe went unanswered.
 */
static void srp_ka_expire(struct srp_channel *ch, int post_err)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct srp_target *target = ch->target;

	if (!srp_ch_mark_down(ch))
		return;
	rdi_stat_add(&ch->stats, RDI_STAT_ERRORS, 1);
	if (post_err)
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: cannot post a keep-alive probe (%d); failing the path\n",
			     ch->idx, post_err);
	else
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: keep-alive probe unanswered for %u ms; failing the path (nothing received for %u ms)\n",
			     ch->idx, jiffies_to_msecs(jiffies - ch->ka.sent),
			     jiffies_to_msecs(jiffies -
					      READ_ONCE(ch->ka.last_seen)));
	ib_modify_qp(ch->queue.qp, &attr, IB_QP_STATE);
	target->ch_ops->lost(ch);
}

static void srp_ka_work(struct work_struct *work)
{
	struct srp_channel *ch = container_of(to_delayed_work(work),
					      struct srp_channel, ka.work);
	unsigned long half = srp_ka_half(ch->target);
	unsigned long now, delay = 0;
	enum srp_ka_step step;
	bool expired;
	int ret = 0;

	srp_ch_poll(ch);
	spin_lock_irq(&ch->lock);
	if (!ch->connected) {
		spin_unlock_irq(&ch->lock);
		return;
	}
	now = jiffies;
	step = srp_ka_check(now, READ_ONCE(ch->ka.last_seen), ch->ka.sent,
			    ch->ka.probing, half, &delay);
	if (step == SRP_KA_PROBE)
		ret = srp_ka_post(ch);
	expired = step == SRP_KA_EXPIRE || ret;
	spin_unlock_irq(&ch->lock);

	if (expired)
		srp_ka_expire(ch, ret);
	else
		queue_delayed_work(system_long_wq, &ch->ka.work, delay);
}

/**
 * srp_ka_init() - set up the keep-alive watch of a channel
 * @ch: channel being initialised
 */
void srp_ka_init(struct srp_channel *ch)
{
	INIT_DELAYED_WORK(&ch->ka.work, srp_ka_work);
	ch->ka.cqe.done = srp_ka_probe_done;
}

/**
 * srp_ka_login_probe() - try the probe on a channel that just logged in
 * @ch: channel whose QP is ready to send and that is not connected yet
 *
 * Waits up to a keep-alive period for the probe, at most until the login's
 * deadline (srp_ch_login_left()), less if the channel fails meanwhile (a
 * disconnect from a target whose QP does not answer).
 * A target that refuses it has our QP in the error state now; keep-alive
 * is turned off for it, once, and the caller logs in again.
 *
 * Context: process context, may sleep.
 * Return: 0 when keep-alive is off or the probe was answered,
 * %SRP_CM_RETRY_NO_KA when the target refused it, -ECONNRESET when the
 * channel failed before the probe completed, or another negative errno.
 */
int srp_ka_login_probe(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;
	enum ib_wc_status status;
	unsigned long deadline;
	bool probing, broken;
	int ret;

	if (!srp_ka_enabled(target))
		return 0;

	spin_lock_irq(&ch->lock);
	ret = srp_ka_post(ch);
	spin_unlock_irq(&ch->lock);
	if (ret) {
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: cannot post the keep-alive probe: %d\n",
			     ch->idx, ret);
		return ret;
	}

	/* Within the login's own time: a reconnect holds the rport mutex. */
	deadline = jiffies + min(2 * srp_ka_half(target), srp_ch_login_left(ch));
	for (;;) {
		srp_ch_poll(ch);
		spin_lock_irq(&ch->lock);
		probing = ch->ka.probing;
		status = ch->ka.status;
		broken = ch->login == SRP_CH_LOGIN_BROKEN;
		spin_unlock_irq(&ch->lock);
		if (!probing)
			break;
		/* The channel failed meanwhile (a DREQ, say): no answer comes. */
		if (broken)
			return -ECONNRESET;
		if (time_after(jiffies, deadline)) {
			shost_printk(KERN_ERR, target->shost,
				     "channel %u: no answer to the keep-alive probe within %u ms of the login\n",
				     ch->idx, jiffies_to_msecs(jiffies - ch->ka.sent));
			return -ETIMEDOUT;
		}
		usleep_range(200, 1000);
	}

	if (status == IB_WC_SUCCESS)
		return 0;
	if (srp_ka_refusal(status)) {
		WRITE_ONCE(target->ka_refused, true);
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u: the target refused the keep-alive probe (%s); logging in again, without keep-alive from now on\n",
			     ch->idx, ib_wc_status_msg(status));
		return SRP_CM_RETRY_NO_KA;
	}
	shost_printk(KERN_ERR, target->shost,
		     "channel %u: the keep-alive probe after the login failed: %s (%d)\n",
		     ch->idx, ib_wc_status_msg(status), status);
	return -ECONNRESET;
}

/**
 * srp_ka_start() - start watching a channel that was just marked connected
 * @ch: the channel
 */
void srp_ka_start(struct srp_channel *ch)
{
	if (!srp_ka_enabled(ch->target))
		return;
	srp_ka_seen(ch);
	queue_delayed_work(system_long_wq, &ch->ka.work,
			   srp_ka_half(ch->target));
}

/**
 * srp_ka_stop() - stop watching a channel before its resources go
 * @ch: the channel; it is no longer connected, so the watch does not
 *      queue itself again
 *
 * Context: process context; waits for a running watch to finish.
 */
void srp_ka_stop(struct srp_channel *ch)
{
	cancel_delayed_work_sync(&ch->ka.work);
}
