// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: channel resources - CQ, QP, MR pool, IU rings and credits.
 *
 * A channel owns two CQs, one RC QP, the QP's FR MR pool, @queue_size send
 * IUs and, once the login response told us their size, as many receive IUs
 * as the target may fill.
 *
 * Receives complete on a CQ from the device's CQ pool, sends on a CQ of the
 * channel's own (RDI_CQ_POOL_RECV), both polled in softirq: a command
 * completes only once the LOCAL_INV of its MRs has completed
 * (srp_complete_cmd()), so that send completion must arrive without
 * waiting for the next sender.
 *
 * A polled channel (poll_queues) serves a HCTX_TYPE_POLL hardware queue: one
 * CQ of its own takes sends and receives, IB_POLL_DIRECT, without interrupt
 * or softirq; whoever waits for one of its completions reaps it with
 * srp_ch_poll() - the task that submitted polled I/O (through the host's
 * mq_poll), and the driver itself wherever it waits on such a channel
 * (srp_ch_wait(): task management, logout; the keep-alive watch; error
 * handling). Its completion handlers are the same and run in the caller's
 * context, possibly on several CPUs at once.
 *
 * The QP and its MRs live in a PD of the channel's own: an rkey the channel
 * handed to the target reaches memory through this QP only, so once the QP
 * is in the error state no rkey of the channel is of use to anyone, even
 * without its LOCAL_INV. Only never_register=Y / register_always=N, which
 * hand out a global rkey anyway, share the device's global-rkey PD.
 *
 * Credits (SRP r16a 5.6): @req_lim counts the requests the target can still
 * accept. A command needs a credit beyond the SRP_TSK_MGMT_SQ_SIZE kept back
 * for task management, so error handling never starves. Responses to target
 * requests (SRP_CRED_RSP, SRP_AER_RSP) are not requests: they take no
 * credit, and the credits a request grants count from its arrival. The
 * arithmetic is srp/proto.c's, unit-tested: srp_credit_take(),
 * srp_credit_refund(), srp_credit_update().
 *
 * Every target request is answered. SRP_RSP_SQ_SIZE sizes the send ring
 * for a target that keeps one request unanswered at a time; one that sends
 * more may find every send IU busy (its own answers among them, while they
 * wait for its receive buffers). Such a request keeps its receive buffer
 * until a send IU frees, and that IU answers it before anything else can
 * take it (srp_answer_target()). Nothing is allocated for this: a request
 * waits in the buffer it arrived in, so at most the receive ring waits, and
 * a target that floods further finds no buffer posted (receiver not ready)
 * and is held back by its own transport.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <scsi/scsi_host.h>

#include "device.h"
#include "channel.h"
#include "trace.h"

static struct ib_device *ch_ibdev(struct srp_channel *ch)
{
	return ch->target->host->sdev->ib_dev;
}

static struct srp_iu *srp_alloc_iu(struct ib_device *dev, u32 size,
				   enum dma_data_direction dir)
{
	struct srp_iu *iu;

	iu = kzalloc(sizeof(*iu), GFP_KERNEL);
	if (!iu)
		return NULL;
	if (rdi_buf_alloc(dev, &iu->buf, size, dir)) {
		kfree(iu);
		return NULL;
	}
	return iu;
}

static void srp_free_iu(struct ib_device *dev, struct srp_iu *iu)
{
	if (!iu)
		return;
	rdi_buf_free(dev, &iu->buf);
	kfree(iu);
}

static void srp_free_ring(struct ib_device *dev, struct srp_iu ***ring,
			  unsigned int n)
{
	unsigned int i;

	if (!*ring)
		return;
	for (i = 0; i < n; i++)
		srp_free_iu(dev, (*ring)[i]);
	kfree(*ring);
	*ring = NULL;
}

static struct srp_iu **srp_alloc_ring(struct ib_device *dev, unsigned int n,
				      u32 size, enum dma_data_direction dir,
				      void (*done)(struct ib_cq *, struct ib_wc *))
{
	struct srp_iu **ring;
	unsigned int i;

	ring = kcalloc(n, sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return NULL;
	for (i = 0; i < n; i++) {
		ring[i] = srp_alloc_iu(dev, size, dir);
		if (!ring[i]) {
			srp_free_ring(dev, &ring, n);
			return NULL;
		}
		ring[i]->cqe.done = done;
	}
	return ring;
}

static void srp_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srp_iu *iu = container_of(wc->wr_cqe, struct srp_iu, cqe);
	struct srp_channel *ch = wc->qp->qp_context;

	if (unlikely(wc->status != IB_WC_SUCCESS))
		srp_ch_error(ch, wc, "SEND");
	srp_tx_iu_sent(ch, iu, wc->status == IB_WC_SUCCESS);
}

/*
 * Asynchronous QP errors: the QP is in the error state and its posted work
 * requests flush, but a channel with nothing but receives posted would
 * otherwise only learn it from those flushes; say what happened and start
 * recovery right away (&srp_ch_ops.failed).
 *
 * Context: the device's event handler, possibly interrupt context.
 */
static void srp_qp_event(struct ib_event *ev, void *ctx)
{
	struct srp_channel *ch = ctx;

	switch (ev->event) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
		break;
	default:
		return;
	}
	if (!srp_ch_mark_down(ch))
		return;
	rdi_stat_add(&ch->stats, RDI_STAT_ERRORS, 1);
	shost_printk(KERN_ERR, ch->target->shost, "channel %u: %s\n",
		     ch->idx, ib_event_msg(ev->event));
	ch->target->ch_ops->failed(ch);
}

static void srp_ch_put_pd(struct srp_channel *ch)
{
	if (ch->pd && ch->pd != ch->target->host->sdev->pd)
		ib_dealloc_pd(ch->pd);
	ch->pd = NULL;
}

/**
 * srp_ch_poll() - reap the completions of a polled channel
 * @ch: the channel
 *
 * Runs the completion handlers of what @ch's CQ holds, in the caller's
 * context. Safe against the channel's release: a channel without a CQ
 * (down, logging in again) reaps nothing.
 *
 * Context: process context (a task polling for its I/O through mq_poll,
 * error handling, the keep-alive watch, a wait in srp_ch_wait()); takes
 * @ch->poll_lock.
 * Return: the completions reaped; 0 on an interrupt-driven channel.
 */
int srp_ch_poll(struct srp_channel *ch)
{
	int n = 0;

	if (!ch->polled)
		return 0;
	spin_lock(&ch->poll_lock);
	if (ch->poll_cq)
		n = ib_process_cq_direct(ch->poll_cq, ch->target->queue_size);
	spin_unlock(&ch->poll_lock);
	return n;
}

/**
 * srp_ch_wait() - wait for an event that a completion of @ch brings
 * @ch:      the channel
 * @done:    completed by a completion handler of @ch (or when @ch goes
 *           down)
 * @timeout: jiffies
 *
 * On a polled channel nobody else may be polling (no polled I/O in
 * flight), so the waiter reaps @ch's CQ itself, every jiffy.
 *
 * Context: process context, may sleep.
 * Return: true when @done completed, false after @timeout.
 */
bool srp_ch_wait(struct srp_channel *ch, struct completion *done,
		 unsigned long timeout)
{
	unsigned long deadline = jiffies + timeout;

	if (!ch->polled)
		return wait_for_completion_timeout(done, timeout);
	for (;;) {
		srp_ch_poll(ch);
		if (wait_for_completion_timeout(done, 1))
			return true;
		if (!time_before(jiffies, deadline))
			return false;
	}
}

/* Publish or hide the CQ of a polled channel for srp_ch_poll(). */
static void srp_ch_set_poll_cq(struct srp_channel *ch, struct ib_cq *cq)
{
	if (!ch->polled)
		return;
	spin_lock(&ch->poll_lock);
	ch->poll_cq = cq;
	spin_unlock(&ch->poll_lock);
}

/*
 * rdi_queue_create() adds the drain's work request to each queue; the
 * counts of proto.c include it, for the device checks of srp_target_add().
 */
static_assert(SRP_DRAIN_WRS == RDI_DRAIN_WRS);

/**
 * srp_ch_create_ib() - create the PD, CQs, QP, MR pool and send ring
 * @ch: channel whose CM id is bound to the target's device; send IUs are
 *      @ch->max_it_iu_len bytes, the IT IU length this login requests
 *
 * Called by the connection manager's ->init once it can create the QP.
 * Return: 0 or a negative errno; on error nothing is left allocated.
 */
int srp_ch_create_ib(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;
	struct srp_device *sdev = target->host->sdev;
	struct ib_device *dev = sdev->ib_dev;
	struct rdi_queue_attr attr = {};
	unsigned int i;
	int ret;

	ch->pd = sdev->pd ? sdev->pd : ib_alloc_pd(dev, 0);
	if (IS_ERR(ch->pd)) {
		ret = PTR_ERR(ch->pd);
		ch->pd = NULL;
		return ret;
	}

	/*
	 * Receives complete on a CQ from the pool, sends on one of the
	 * channel's own; a polled channel has one CQ of its own for both.
	 * Within the device's limits: srp_target_add() checked.
	 */
	attr.cq_mode = ch->polled ? RDI_CQ_DIRECT : RDI_CQ_POOL_RECV;
	attr.comp_vector = ch->comp_vector;
	attr.send_wrs = srp_send_wrs(target->queue_size, target->mr_per_cmd) -
			SRP_DRAIN_WRS;
	attr.recv_wrs = srp_recv_wrs(target->queue_size) - SRP_DRAIN_WRS;
	attr.max_send_sge = min_t(u32, sdev->rdi->max_sge,
				  SRP_MAX_IMM_SGE + 1);
	attr.max_recv_sge = 1;
	attr.port_num = target->host->port;
	attr.event_handler = srp_qp_event;
	attr.context = ch;
	ret = target->cm->create_qp(ch, &attr);
	if (ret)
		goto err_put_pd;
	srp_ch_set_poll_cq(ch, ch->queue.recv_cq);

	if (target->mr_per_cmd) {
		ret = rdi_mr_pool_init(sdev->rdi, ch->queue.qp,
				       target->queue_size * target->mr_per_cmd,
				       sdev->max_pages_per_mr);
		if (ret)
			goto err_destroy_qp;
	}

	ch->tx_ring = srp_alloc_ring(dev, target->queue_size,
				     ch->max_it_iu_len, DMA_TO_DEVICE,
				     srp_send_done);
	if (!ch->tx_ring) {
		ret = -ENOMEM;
		goto err_destroy_qp;
	}
	INIT_LIST_HEAD(&ch->free_tx);
	for (i = 0; i < target->queue_size; i++)
		list_add_tail(&ch->tx_ring[i]->list, &ch->free_tx);
	return 0;

err_destroy_qp:
	srp_ch_set_poll_cq(ch, NULL);
	target->cm->destroy_qp(ch);
err_put_pd:
	srp_ch_put_pd(ch);
	return ret;
}

/**
 * srp_ch_destroy_ib() - undo srp_ch_create_ib() and free the receive ring
 * @ch: channel; its QP must be disconnected (it is drained here)
 *
 * Idempotent.
 */
void srp_ch_destroy_ib(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;
	struct ib_device *dev = ch_ibdev(ch);

	rdi_queue_drain(&ch->queue);
	srp_ch_set_poll_cq(ch, NULL);
	target->cm->destroy_qp(ch);
	srp_ch_put_pd(ch);
	/* The requests held for an answer go with the connection. */
	spin_lock_irq(&ch->lock);
	INIT_LIST_HEAD(&ch->held_rx);
	spin_unlock_irq(&ch->lock);
	srp_free_ring(dev, &ch->tx_ring, target->queue_size);
	srp_free_ring(dev, &ch->rx_ring, ch->rx_count);
	ch->rx_count = 0;
}

static int srp_post_recv(struct srp_channel *ch, struct srp_iu *iu)
{
	struct ib_recv_wr wr = {};
	struct ib_sge sge;

	sge.addr = iu->buf.dma;
	sge.length = iu->buf.size;
	sge.lkey = ch->pd->local_dma_lkey;
	wr.wr_cqe = &iu->cqe;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	return ib_post_recv(ch->queue.qp, &wr, NULL);
}

/* A receive IU the layer above is done with goes back to the QP. */
static void srp_repost_recv(struct srp_channel *ch, struct srp_iu *iu)
{
	ib_dma_sync_single_for_device(ch_ibdev(ch), iu->buf.dma, iu->buf.size,
				      DMA_FROM_DEVICE);
	if (srp_post_recv(ch, iu))
		srp_printk_rl(KERN_ERR, ch->target->shost,
			      "channel %u: cannot repost a receive\n", ch->idx);
}

/*
 * A receive completed: the keep-alive notes the sign of life, the layer
 * above handles the IU (&srp_ch_ops.recv), and the IU goes back to the QP
 * unless it holds a request waiting for its answer (srp_answer_target()).
 */
static void srp_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srp_iu *iu = container_of(wc->wr_cqe, struct srp_iu, cqe);
	struct srp_channel *ch = wc->qp->qp_context;

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		srp_ch_error(ch, wc, "RECV");
		return;
	}
	srp_ka_seen(ch);

	ib_dma_sync_single_for_cpu(ch_ibdev(ch), iu->buf.dma, iu->buf.size,
				   DMA_FROM_DEVICE);
	if (ch->target->ch_ops->recv(ch, iu, wc->byte_len))
		return;	/* held: reposted once answered, maybe already */
	srp_repost_recv(ch, iu);
}

/**
 * srp_ch_start_recv() - allocate and post the receive ring after login
 * @ch: channel whose login response is in @ch->login_rsp
 *
 * Return: 0 or a negative errno.
 */
int srp_ch_start_recv(struct srp_channel *ch)
{
	unsigned int i;
	int ret;

	ch->rx_count = ch->target->queue_size;
	ch->rx_ring = srp_alloc_ring(ch_ibdev(ch), ch->rx_count,
				     ch->max_ti_iu_len, DMA_FROM_DEVICE,
				     srp_recv_done);
	if (!ch->rx_ring) {
		ch->rx_count = 0;
		return -ENOMEM;
	}
	for (i = 0; i < ch->rx_count; i++) {
		ret = srp_post_recv(ch, ch->rx_ring[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A send IU taken for @use: one SGE so far, and srp_send_done() as its
 * completion unless its user sets another before posting it.
 */
static void srp_tx_iu_use(struct srp_iu *iu, enum srp_tx_use use)
{
	iu->use = use;
	iu->num_sge = 1;
	iu->cqe.done = srp_send_done;
}

/* Take a free send IU for @use; the caller checked that there is one. */
static struct srp_iu *__srp_take_tx_iu(struct srp_channel *ch,
				       enum srp_tx_use use)
{
	struct srp_iu *iu;

	lockdep_assert_held(&ch->lock);
	iu = list_first_entry(&ch->free_tx, struct srp_iu, list);
	list_del(&iu->list);
	srp_tx_iu_use(iu, use);
	return iu;
}

/**
 * srp_get_tx_iu() - take a send IU and, if needed, a credit
 * @ch:  channel
 * @use: what the IU is for
 *
 * Context: any but hard interrupt; takes @ch->lock.
 * Return: the IU, or NULL when no IU or no credit is available.
 */
struct srp_iu *srp_get_tx_iu(struct srp_channel *ch, enum srp_tx_use use)
{
	struct srp_iu *iu = NULL;
	unsigned long flags;
	s32 left;

	spin_lock_irqsave(&ch->lock, flags);
	if (srp_credit_take(ch->req_lim, use, &left)) {
		atomic_inc(&ch->zero_req_lim);
		goto out;
	}
	if (list_empty(&ch->free_tx))
		goto out;
	iu = __srp_take_tx_iu(ch, use);
	ch->req_lim = left;
out:
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!iu && use == SRP_TX_CMD)
		rdi_stat_add(&ch->stats, RDI_STAT_CREDIT_STALLS, 1);
	return iu;
}

/*
 * Send the answer @op to the target request @tag in @iu, a send IU taken
 * for SRP_TX_RSP. Should the post fail - only a QP that is going away
 * refuses one - the request stays unanswered and @iu goes back.
 */
static void srp_send_answer(struct srp_channel *ch, struct srp_iu *iu, u8 op,
			    u64 tag)
{
	unsigned long flags;
	int ret;

	if (op == SRP_IU_CRED_RSP)
		srp_build_cred_rsp(iu->buf.addr, tag);
	else
		srp_build_aer_rsp(iu->buf.addr, tag);
	ret = srp_post_send(ch, iu, sizeof(struct srp_iu_cred_rsp), NULL);
	if (likely(!ret))
		return;
	srp_printk_rl(KERN_ERR, ch->target->shost,
		      "channel %u: cannot send the answer to target request %#llx: %d\n",
		      ch->idx, tag, ret);
	spin_lock_irqsave(&ch->lock, flags);
	list_add(&iu->list, &ch->free_tx);
	spin_unlock_irqrestore(&ch->lock, flags);
}

/*
 * @iu is free again: it answers the oldest request held for an answer, or
 * goes back to @ch->free_tx. With @refund it was never posted and its
 * credit goes back too; with !@answer (a failed send: the connection is
 * going) the held requests wait for the channel's teardown instead.
 */
static void srp_free_tx_iu(struct srp_channel *ch, struct srp_iu *iu,
			   bool refund, bool answer)
{
	struct srp_iu *rx = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	if (refund)
		ch->req_lim = srp_credit_refund(ch->req_lim, iu->use);
	if (answer && !list_empty(&ch->held_rx)) {
		rx = list_first_entry(&ch->held_rx, struct srp_iu, list);
		list_del(&rx->list);
		srp_tx_iu_use(iu, SRP_TX_RSP);
	} else {
		list_add(&iu->list, &ch->free_tx);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!rx)
		return;
	srp_send_answer(ch, iu, rx->answer_op, rx->answer_tag);
	srp_repost_recv(ch, rx);
}

/**
 * srp_put_tx_iu() - return an IU that was never posted, with its credit
 * @ch: channel
 * @iu: IU from srp_get_tx_iu()
 *
 * Context: any but hard interrupt; takes @ch->lock.
 */
void srp_put_tx_iu(struct srp_channel *ch, struct srp_iu *iu)
{
	srp_free_tx_iu(ch, iu, true, true);
}

/**
 * srp_tx_iu_sent() - the send of an IU completed: the IU is free again
 * @ch: channel
 * @iu: the IU
 * @ok: the send completed successfully; after a failure the connection is
 *      going and no request held for an answer is answered
 *
 * Context: send completion (softirq).
 */
void srp_tx_iu_sent(struct srp_channel *ch, struct srp_iu *iu, bool ok)
{
	srp_free_tx_iu(ch, iu, false, ok);
}

/**
 * srp_answer_target() - answer a target request now, or once a send IU frees
 * @ch:  channel the request arrived on
 * @rx:  the receive IU holding it
 * @op:  SRP_IU_CRED_RSP or SRP_IU_AER_RSP
 * @tag: the request's tag
 *
 * The answer takes no credit. With no send IU free, or older requests
 * still waiting, @rx joins @ch->held_rx and the next send IU that frees
 * answers it and reposts @rx (srp_free_tx_iu()) - possibly on another CPU
 * as soon as this returns, so the caller must be done with @rx's buffer
 * before calling this.
 *
 * Context: receive completion (softirq); takes @ch->lock.
 * Return: true when @rx is held: it must not be reposted by the caller.
 */
bool srp_answer_target(struct srp_channel *ch, struct srp_iu *rx, u8 op,
		       u64 tag)
{
	struct srp_iu *iu = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ch->lock, flags);
	if (list_empty(&ch->held_rx) && !list_empty(&ch->free_tx)) {
		iu = __srp_take_tx_iu(ch, SRP_TX_RSP);
	} else {
		rx->answer_op = op;
		rx->answer_tag = tag;
		list_add_tail(&rx->list, &ch->held_rx);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	if (!iu)
		return true;
	srp_send_answer(ch, iu, op, tag);
	return false;
}

/**
 * srp_add_credits() - account credits granted by the target
 * @ch:    channel
 * @delta: REQUEST LIMIT DELTA of the received IU
 * @iu:    name of that IU, for the log
 *
 * The count never wraps (srp_credit_update()). A grant beyond INT_MAX
 * saturates and is logged. A delta that takes back more credits than the
 * channel holds leaves both sides without an agreed count - and a channel
 * at zero credits with nothing outstanding would wait forever - so it is a
 * protocol error: the channel goes down and a new login starts from the
 * target's fresh grant.
 *
 * Context: receive completion; takes @ch->lock.
 */
void srp_add_credits(struct srp_channel *ch, s32 delta, const char *iu)
{
	struct srp_target *target = ch->target;
	unsigned long flags;
	s32 old;
	int ret;

	if (!delta)
		return;
	spin_lock_irqsave(&ch->lock, flags);
	old = ch->req_lim;
	ret = srp_credit_update(old, delta, &ch->req_lim);
	spin_unlock_irqrestore(&ch->lock, flags);
	if (likely(!ret))
		return;

	rdi_stat_add(&ch->stats, RDI_STAT_ERRORS, 1);
	if (ret == -EOVERFLOW) {
		srp_printk_rl(KERN_WARNING, target->shost,
			      "channel %u: %s request limit delta %d on %d credits overflows; credit count held at %d\n",
			      ch->idx, iu, delta, old, INT_MAX);
		return;
	}
	if (!srp_ch_mark_down(ch))
		return;
	shost_printk(KERN_ERR, target->shost,
		     "channel %u: %s request limit delta %d on %d credits leaves the credit count negative; reconnecting\n",
		     ch->idx, iu, delta, old);
	target->ch_ops->failed(ch);
}

/**
 * srp_post_send_regs() - post an IU, preceded by registration work requests
 * @ch:     channel
 * @iu:     send IU; @iu->sge[1..] may already describe immediate data, and
 *          @iu->cqe.done is its completion (srp_send_done() unless the
 *          user set another after taking it)
 * @len:    bytes of @iu->buf to send
 * @prefix: NULL or a NULL-terminated chain of REG_MR work requests
 * @regs_posted: set when the post failed after some of @prefix went out:
 *          the keys those registered are valid until invalidated
 *
 * Return: 0 or the error of ib_post_send(); @iu is never posted then.
 */
int srp_post_send_regs(struct srp_channel *ch, struct srp_iu *iu, u32 len,
		       struct ib_send_wr *prefix, bool *regs_posted)
{
	const struct ib_send_wr *bad = NULL;
	struct ib_send_wr wr = {}, *tail;
	int ret;

	iu->sge[0].addr = iu->buf.dma;
	iu->sge[0].length = len;
	iu->sge[0].lkey = ch->pd->local_dma_lkey;

	wr.wr_cqe = &iu->cqe;
	wr.sg_list = iu->sge;
	wr.num_sge = iu->num_sge;
	wr.opcode = IB_WR_SEND;
	wr.send_flags = IB_SEND_SIGNALED;

	ib_dma_sync_single_for_device(ch_ibdev(ch), iu->buf.dma, iu->buf.size,
				      DMA_TO_DEVICE);
	*regs_posted = false;
	if (!prefix)
		return ib_post_send(ch->queue.qp, &wr, NULL);
	for (tail = prefix; tail->next; tail = tail->next)
		;
	tail->next = &wr;
	ret = ib_post_send(ch->queue.qp, prefix, &bad);
	/* the SEND is last: a failure means it did not go out */
	if (ret)
		*regs_posted = bad != prefix;
	return ret;
}

/**
 * srp_post_send() - post an IU with no registration in front
 * @ch:  channel
 * @iu:  send IU (see srp_post_send_regs())
 * @len: bytes of @iu->buf to send
 * @prefix: NULL, or registrations the caller does not need to track
 *
 * Return: 0 or the error of ib_post_send().
 */
int srp_post_send(struct srp_channel *ch, struct srp_iu *iu, u32 len,
		  struct ib_send_wr *prefix)
{
	bool regs_posted;

	return srp_post_send_regs(ch, iu, len, prefix, &regs_posted);
}

/**
 * srp_ch_mark_down() - mark a channel disconnected
 * @ch: the channel
 *
 * A task management function waiting for its response on @ch ends at once
 * with -ENOTCONN: no response will come over a connection that is gone,
 * and a waiter left to time out could otherwise find the channel logged in
 * again by then and take its own timeout for a failure of the new
 * connection.
 *
 * A failure of a channel that is logging in breaks that login
 * (%SRP_CH_LOGIN_BROKEN): srp_ch_mark_up() then refuses to mark it
 * connected, so that a disconnect that arrives between the login response
 * and the end of the login is not lost.
 *
 * Return: whether @ch was connected, so that of several reporters of one
 * failure (a failed completion, a CM disconnect) only the first acts on it.
 * Context: any; takes @ch->lock.
 */
bool srp_ch_mark_down(struct srp_channel *ch)
{
	unsigned long flags;
	bool was_connected;

	spin_lock_irqsave(&ch->lock, flags);
	was_connected = srp_ch_state_down(&ch->connected, &ch->login);
	if (was_connected && ch->tmf_tag) {
		ch->tmf_status = -ENOTCONN;
		complete(&ch->tmf_done);
	}
	spin_unlock_irqrestore(&ch->lock, flags);
	return was_connected;
}

/**
 * srp_ch_login_start() - a login of @ch is about to send its request
 * @ch: channel, not connected
 *
 * From now until srp_ch_mark_up() or srp_ch_login_end(), a failure
 * reported on @ch breaks the login (srp_ch_mark_down()). On a port being
 * removed the login starts broken: srp_target_stop_adding() sets
 * &srp_host.removing before it takes @ch->lock to abandon the login, so
 * either it finds this login running or this finds the flag set.
 */
void srp_ch_login_start(struct srp_channel *ch)
{
	spin_lock_irq(&ch->lock);
	ch->login = READ_ONCE(ch->target->host->removing) ?
		    SRP_CH_LOGIN_BROKEN : SRP_CH_LOGIN_RUNNING;
	spin_unlock_irq(&ch->lock);
}

/**
 * srp_ch_login_abandon() - break off a login that cannot be of use
 * @ch:  channel
 * @why: for the log
 *
 * A channel logging in with MULTICHAN_MULTI joins the target's live
 * channels; once the last of them is down the login is moot, and its
 * waiter may hold the rport mutex that transport recovery needs for as
 * long as the target stays silent. A login on a port being removed holds
 * the removal (srp_target_stop_adding()). A login under way is broken
 * (%SRP_CH_LOGIN_BROKEN, so it fails) and its waiter woken.
 *
 * Context: any; takes @ch->lock.
 */
void srp_ch_login_abandon(struct srp_channel *ch, const char *why)
{
	unsigned long flags;
	bool running;

	spin_lock_irqsave(&ch->lock, flags);
	running = srp_ch_login_break(&ch->login);
	if (running)
		complete(&ch->login_done);
	spin_unlock_irqrestore(&ch->lock, flags);
	if (running)
		shost_printk(KERN_WARNING, ch->target->shost,
			     "channel %u: login abandoned: %s\n", ch->idx, why);
}

/**
 * srp_ch_live_irq() - an interrupt-driven channel of @target that is up
 * @target: target
 *
 * Polled channels do not count: they cannot carry what the others carry,
 * nor keep a nexus for another channel to join on their own.
 *
 * Context: any.
 * Return: the index of a connected interrupt-driven channel, or -ENOTCONN.
 */
int srp_ch_live_irq(struct srp_target *target)
{
	unsigned int i;

	for (i = 0; i < srp_irq_ch_count(target); i++)
		if (READ_ONCE(target->ch[i].connected))
			return i;
	return -ENOTCONN;
}

/**
 * srp_ch_login_broken() - did @ch fail during the login under way?
 * @ch: channel
 *
 * Context: any; takes @ch->lock.
 * Return: true when a failure was reported on @ch since its login started.
 */
bool srp_ch_login_broken(struct srp_channel *ch)
{
	unsigned long flags;
	bool broken;

	spin_lock_irqsave(&ch->lock, flags);
	broken = ch->login == SRP_CH_LOGIN_BROKEN;
	spin_unlock_irqrestore(&ch->lock, flags);
	return broken;
}

/**
 * srp_ch_mark_up() - end a successful login: mark @ch connected
 * @ch: channel whose login is under way
 *
 * Return: true, or false when @ch failed during the login: it stays
 * disconnected and the login must fail.
 */
bool srp_ch_mark_up(struct srp_channel *ch)
{
	bool up;

	spin_lock_irq(&ch->lock);
	up = srp_ch_state_up(&ch->connected, &ch->login);
	spin_unlock_irq(&ch->lock);
	return up;
}

/**
 * srp_ch_login_end() - end a failed login of @ch
 * @ch: channel, not connected
 *
 * Failures reported from now on are those of a channel that is down.
 */
void srp_ch_login_end(struct srp_channel *ch)
{
	spin_lock_irq(&ch->lock);
	ch->login = SRP_CH_LOGIN_NONE;
	spin_unlock_irq(&ch->lock);
}

/**
 * srp_ch_error() - the one place failed completions end up
 * @ch:   channel
 * @wc:   the failed work completion
 * @what: the kind of work request, for the log
 *
 * Logs the first failure of a connected channel, stops new commands on it
 * and has it recovered (&srp_ch_ops.failed), or the whole rport when the
 * transport gave up reaching the target (&srp_ch_ops.lost). Flushes after a
 * disconnect are expected and silent.
 */
void srp_ch_error(struct srp_channel *ch, struct ib_wc *wc, const char *what)
{
	struct srp_target *target = ch->target;
	char who[16];

	if (!srp_ch_mark_down(ch))
		return;

	rdi_stat_add(&ch->stats, RDI_STAT_ERRORS, 1);
	trace_srp_error(ch, wc->status);
	snprintf(who, sizeof(who), "channel %u", ch->idx);
	rdi_wc_log(&target->shost->shost_gendev, who, what, wc);
	/*
	 * Transport retries exhausted: the target is unreachable over the
	 * path every channel shares, so the others are as good as lost too
	 * and the rport is recovered (and fails fast) at once.
	 */
	if (wc->status == IB_WC_RETRY_EXC_ERR)
		target->ch_ops->lost(ch);
	else
		target->ch_ops->failed(ch);
}
