// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core: a queue pair and the completion queues it reports to.
 *
 * Both initiators build the same thing for every connection: CQs as large
 * as the queues whose completions they take, an RC QP whose queues have
 * room for the work request ib_drain_qp() adds, and a teardown in the
 * reverse order (drain, MR pool, QP, CQs) that error paths, reconnects and
 * removal share. What differs is where completions go (enum rdi_cq_mode)
 * and who creates the QP: rdma_create_qp() through an rdma_cm_id, which
 * then moves it through its states, or ib_create_qp() for an IB CM
 * connection, which the owner moves itself.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/module.h>
#include <rdma/rdma_cm.h>
#include <rdi/core.h>

/*
 * Does a queue of @attr fit @dev? The caller usually checked with words of
 * its own (which option to lower); this is the last line before the verbs
 * return a bare -EINVAL.
 */
static int rdi_queue_check(struct ib_device *dev,
			   const struct rdi_queue_attr *attr, u64 send_cqe,
			   u64 recv_cqe)
{
	u64 nsend = (u64)attr->send_wrs + RDI_DRAIN_WRS;
	u64 nrecv = (u64)attr->recv_wrs + RDI_DRAIN_WRS;

	if (nsend > dev->attrs.max_qp_wr || nrecv > dev->attrs.max_qp_wr) {
		dev_err(&dev->dev,
			"rdi: a QP of %llu send and %llu receive work requests exceeds the device's %d per queue\n",
			nsend, nrecv, dev->attrs.max_qp_wr);
		return -EINVAL;
	}
	if (send_cqe > dev->attrs.max_cqe || recv_cqe > dev->attrs.max_cqe) {
		dev_err(&dev->dev,
			"rdi: a CQ of %llu entries exceeds the device's %d per CQ\n",
			max(send_cqe, recv_cqe), dev->attrs.max_cqe);
		return -EINVAL;
	}
	return 0;
}

/* The CQs of @attr->cq_mode, each for @send_cqe or @recv_cqe entries. */
static int rdi_queue_alloc_cqs(struct rdi_queue *q, struct ib_device *dev,
			       const struct rdi_queue_attr *attr, u32 send_cqe,
			       u32 recv_cqe)
{
	struct ib_cq *cq;

	switch (attr->cq_mode) {
	case RDI_CQ_DIRECT:
		cq = ib_alloc_cq(dev, attr->context, send_cqe + recv_cqe,
				 attr->comp_vector, IB_POLL_DIRECT);
		if (IS_ERR(cq))
			return PTR_ERR(cq);
		q->send_cq = cq;
		q->recv_cq = cq;
		return 0;
	case RDI_CQ_POOL:
		recv_cqe += send_cqe;
		break;
	case RDI_CQ_POOL_RECV:
		break;
	}

	cq = ib_cq_pool_get(dev, recv_cqe, attr->comp_vector, IB_POLL_SOFTIRQ);
	if (IS_ERR(cq))
		return PTR_ERR(cq);
	q->recv_cq = cq;
	q->pool_cqe = recv_cqe;
	if (attr->cq_mode == RDI_CQ_POOL) {
		q->send_cq = cq;
		return 0;
	}

	cq = ib_alloc_cq(dev, attr->context, send_cqe, attr->comp_vector,
			 IB_POLL_SOFTIRQ);
	if (IS_ERR(cq)) {
		ib_cq_pool_put(q->recv_cq, q->pool_cqe);
		q->recv_cq = NULL;
		q->pool_cqe = 0;
		return PTR_ERR(cq);
	}
	q->send_cq = cq;
	return 0;
}

/* Undo rdi_queue_alloc_cqs(); idempotent. The QP must be gone. */
static void rdi_queue_free_cqs(struct rdi_queue *q)
{
	if (q->send_cq && q->send_cq != q->recv_cq)
		ib_free_cq(q->send_cq);
	q->send_cq = NULL;
	if (!q->recv_cq)
		return;
	if (q->pool_cqe)
		ib_cq_pool_put(q->recv_cq, q->pool_cqe);
	else
		ib_free_cq(q->recv_cq);
	q->recv_cq = NULL;
	q->pool_cqe = 0;
}

/**
 * rdi_queue_create() - create the CQs and the RC QP of a connection
 * @q:     zeroed, or left so by rdi_queue_destroy()
 * @pd:    protection domain of the QP; its device is the CQs' device
 * @cm_id: the connection's rdma_cm_id, bound to @pd's device, which
 *         creates the QP and moves it through its states; NULL creates it
 *         with ib_create_qp() in the RESET state for the caller to move
 * @attr:  the queues and their completions
 *
 * Each queue gets RDI_DRAIN_WRS entries more than @attr asks for, and
 * every CQ as many entries as the queues it serves, so that neither a full
 * queue nor a drain can overflow a CQ. Sizes beyond the device's limits
 * are refused with a log line naming both. May sleep.
 *
 * Return: 0, or a negative errno with nothing left allocated.
 */
int rdi_queue_create(struct rdi_queue *q, struct ib_pd *pd,
		     struct rdma_cm_id *cm_id,
		     const struct rdi_queue_attr *attr)
{
	struct ib_device *dev = pd->device;
	struct ib_qp_init_attr init = {};
	u64 send_cqe = (u64)attr->send_wrs + RDI_DRAIN_WRS;
	u64 recv_cqe = (u64)attr->recv_wrs + RDI_DRAIN_WRS;
	struct ib_qp *qp;
	int ret;

	if (attr->cq_mode != RDI_CQ_POOL_RECV) {
		/* one CQ takes the completions of both queues */
		send_cqe += recv_cqe;
		recv_cqe = send_cqe;
	}
	ret = rdi_queue_check(dev, attr, send_cqe, recv_cqe);
	if (ret)
		return ret;
	ret = rdi_queue_alloc_cqs(q, dev, attr, attr->send_wrs + RDI_DRAIN_WRS,
				  attr->recv_wrs + RDI_DRAIN_WRS);
	if (ret) {
		dev_err(&dev->dev, "rdi: cannot create the CQs of a QP: %d\n",
			ret);
		return ret;
	}

	init.event_handler = attr->event_handler;
	init.qp_context = attr->context;
	init.send_cq = q->send_cq;
	init.recv_cq = q->recv_cq;
	init.cap.max_send_wr = attr->send_wrs + RDI_DRAIN_WRS;
	init.cap.max_recv_wr = attr->recv_wrs + RDI_DRAIN_WRS;
	init.cap.max_send_sge = attr->max_send_sge;
	init.cap.max_recv_sge = attr->max_recv_sge;
	init.sq_sig_type = IB_SIGNAL_REQ_WR;
	init.qp_type = IB_QPT_RC;
	init.port_num = attr->port_num;
	if (cm_id) {
		ret = rdma_create_qp(cm_id, pd, &init);
		qp = ret ? NULL : cm_id->qp;
	} else {
		qp = ib_create_qp(pd, &init);
		ret = PTR_ERR_OR_ZERO(qp);
	}
	if (ret) {
		dev_err(&dev->dev, "rdi: cannot create a QP: %d\n", ret);
		goto err_free_cqs;
	}
	q->qp = qp;
	return 0;

err_free_cqs:
	rdi_queue_free_cqs(q);
	return ret;
}
EXPORT_SYMBOL_GPL(rdi_queue_create);

/**
 * rdi_queue_drain() - flush a QP's work requests and wait for them
 * @q: the queue; without a QP nothing happens
 *
 * Moves the QP to the error state and returns once every work request
 * posted before has completed, flushed, through its handler: afterwards
 * nothing of the QP's completions runs any more, and its buffers and
 * registrations are the owner's again. For a QP that may hold work
 * requests (one that reached RTS); safe to call again, each call waits
 * for what was posted since. May sleep; on an IB_POLL_DIRECT CQ it reaps
 * the CQ itself, so nobody else may poll it meanwhile.
 */
void rdi_queue_drain(struct rdi_queue *q)
{
	if (q->qp)
		ib_drain_qp(q->qp);
}
EXPORT_SYMBOL_GPL(rdi_queue_drain);

/**
 * rdi_queue_destroy() - free what rdi_queue_create() created
 * @q:     the queue; drained if its QP ever held work requests
 * @cm_id: the rdma_cm_id the QP was created through while it still exists
 *         (so that it forgets the QP), else NULL
 *
 * In this order: the MR pool of the QP (rdi_mr_pool_init()), the QP, its
 * CQs. Idempotent: a second call, or a call after a failed
 * rdi_queue_create(), finds nothing to free. May sleep.
 */
void rdi_queue_destroy(struct rdi_queue *q, struct rdma_cm_id *cm_id)
{
	struct ib_qp *qp = q->qp;

	if (qp) {
		WRITE_ONCE(q->qp, NULL);
		rdi_mr_pool_destroy(qp);
		if (cm_id)
			rdma_destroy_qp(cm_id);
		else
			ib_destroy_qp(qp);
	}
	rdi_queue_free_cqs(q);
}
EXPORT_SYMBOL_GPL(rdi_queue_destroy);
