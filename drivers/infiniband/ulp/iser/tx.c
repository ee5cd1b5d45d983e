// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Sending iSCSI PDUs as RDMA SENDs: SCSI commands (with their registration
 * chained in front and immediate data behind the headers), unsolicited
 * Data-Out PDUs, and management PDUs (login, text, NOP-Out, TMF, logout).
 *
 * libiscsi calls iser_xmit_task() with its forward lock held and bottom
 * halves off: nothing here sleeps or allocates.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <scsi/scsi_cmnd.h>

#include "iser.h"
#include "trace.h"
#include "unsol.h"

static void iser_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct iser_task *it = container_of(wc->wr_cqe, struct iser_task,
					    send_cqe);

	iser_sq_done(wc->qp->qp_context);
	if (unlikely(wc->status != IB_WC_SUCCESS))
		iser_wc_error(wc, "command send");
	atomic_dec(&it->wrs);
}

static void iser_mgmt_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct iser_task *it = container_of(wc->wr_cqe, struct iser_task,
					    send_cqe);
	struct iscsi_task *task = iser_task_to_iscsi(it);
	/* No response will free a PDU sent without an ITT: we do. */
	bool unanswered = task->hdr->itt == RESERVED_ITT;

	iser_sq_done(wc->qp->qp_context);
	if (unlikely(wc->status != IB_WC_SUCCESS))
		iser_wc_error(wc, "control send");
	/*
	 * A task answered already may be handed out again from here on
	 * (iser_alloc_pdu()), its headers rewritten: read before.
	 */
	smp_mb__before_atomic();
	atomic_dec(&it->wrs);
	if (unanswered)
		iscsi_put_task(task);
}

static void iser_dout_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct iser_dout *d = container_of(wc->wr_cqe, struct iser_dout, cqe);
	struct iser_conn *ic = wc->qp->qp_context;

	iser_sq_done(ic);
	if (unlikely(wc->status != IB_WC_SUCCESS))
		iser_wc_error(wc, "Data-Out send");
	atomic_dec(&ic->dout_posted);
	atomic_dec(&d->it->wrs);
}

/*
 * Post a task's signaled work request(s) from @first: counted in
 * &iser_task.wrs until completed (@n of them), uncounted if the post
 * fails.
 */
static int iser_post_counted(struct iser_conn *ic, struct iser_task *it,
			     const struct ib_send_wr *first, int n)
{
	int ret;

	atomic_add(n, &it->wrs);
	ret = iser_post_send(ic, first, n);
	if (unlikely(ret))
		atomic_sub(n, &it->wrs);
	return ret;
}

static void iser_prep_send(struct iser_conn *ic, struct iser_task *it,
			   void (*done)(struct ib_cq *cq, struct ib_wc *wc))
{
	it->sge[0].addr = it->hdrs_dma;
	it->sge[0].length = ISER_HDRS_LEN;
	it->sge[0].lkey = ic->pd->local_dma_lkey;
	it->nr_sge = 1;
	it->send_cqe.done = done;
	memset(&it->send_wr, 0, sizeof(it->send_wr));
	it->send_wr.wr_cqe = &it->send_cqe;
	it->send_wr.opcode = IB_WR_SEND;
	it->send_wr.send_flags = IB_SEND_SIGNALED;
	it->send_wr.sg_list = it->sge;
}

/*
 * iscsid declares the node's MaxRecvDataSegmentLength (262144 by default)
 * as what we receive, whatever the transport's buffers hold, and an RDMA
 * SEND larger than the posted receive buffer kills the connection. So a
 * login request declares at most &iser_conn.rx_data_max, the size of our
 * full-feature receive buffers: InitiatorRecvDataSegmentLength in an iSER
 * normal session, MaxRecvDataSegmentLength in a discovery session.
 * iser_conn_start() then holds the negotiated value to the same limit.
 *
 * task->data, libiscsi's ISCSI_DEF_MAX_RECV_SEG_LEN-byte login buffer,
 * holds task->data_count bytes: the header's DataSegmentLength and the pad
 * iscsid adds behind it. Only the former is text, and the header must
 * carry the new length (see iser_login_text_cap()). The task
 * is changed as a whole, data, DataSegmentLength and data_count, so that
 * it stays consistent should it ever be sent again: the rewrite then finds
 * nothing to lower.
 */
static void iser_login_cap_rx(struct iser_conn *ic, struct iscsi_task *task)
{
	u32 seg_len = min_t(u32, ntoh24(task->hdr->dlength), task->data_count);

	if ((task->hdr->opcode & ISCSI_OPCODE_MASK) != ISCSI_OP_LOGIN)
		return;
	if (!iser_login_text_cap(task->data, &seg_len, ic->rx_data_max))
		return;
	hton24(task->hdr->dlength, seg_len);
	task->data_count = iser_text_wire_len(seg_len);
	set_bit(ISER_CONN_F_RX_CAPPED, &ic->flags);
}

static int iser_send_mgmt(struct iser_conn *ic, struct iscsi_task *task)
{
	struct iser_task *it = task->dd_data;
	struct ib_device *ibdev = ic->dev->ib_dev;
	int ret;

	if (WARN_ON_ONCE(task->data_count > ISER_LOGIN_DLEN))
		return -EINVAL;
	/* before the headers are synced: it may change DataSegmentLength */
	if (task->data_count)
		iser_login_cap_rx(ic, task);

	iser_hdr_encode(&it->hdrs.iser, NULL);
	iser_prep_send(ic, it, iser_mgmt_done);
	ib_dma_sync_single_for_device(ibdev, it->hdrs_dma, ISER_HDRS_LEN,
				      DMA_TO_DEVICE);

	if (task->data_count) {
		ib_dma_sync_single_for_cpu(ibdev, ic->login_tx.dma,
					   ISER_LOGIN_DLEN, DMA_TO_DEVICE);
		memcpy(ic->login_tx.addr, task->data, task->data_count);
		ib_dma_sync_single_for_device(ibdev, ic->login_tx.dma,
					      ISER_LOGIN_DLEN, DMA_TO_DEVICE);
		it->sge[1].addr = ic->login_tx.dma;
		it->sge[1].length = task->data_count;
		it->sge[1].lkey = ic->pd->local_dma_lkey;
		it->nr_sge = 2;
	}
	it->send_wr.num_sge = it->nr_sge;

	/*
	 * Before full feature phase, each request gets the login buffer; the
	 * final one (T=1, NSG=FullFeaturePhase) the ring behind it too, so
	 * that what the target sends right after the final login response
	 * finds a receive (iser_rx_ring_post()). Once the ring is posted,
	 * every PDU lands there, a login response included should the
	 * target not make the transition.
	 */
	if (!test_bit(ISER_CONN_F_FFP, &ic->flags)) {
		ret = iser_post_recv(&ic->login_rx.desc[0]);
		if (ret)
			return ret;
		if ((task->hdr->opcode & ISCSI_OPCODE_MASK) == ISCSI_OP_LOGIN &&
		    (task->hdr->flags & ISCSI_FLAG_LOGIN_TRANSIT) &&
		    ISCSI_LOGIN_NEXT_STAGE(task->hdr->flags) ==
		    ISCSI_FULL_FEATURE_PHASE) {
			ret = iser_rx_ring_post(ic);
			if (ret)
				return ret;
		}
	}
	return iser_post_counted(ic, it, &it->send_wr, 1);
}

/*
 * Whether a command's registration must go behind a LOCAL_INV of the MR's
 * previous key: on a device that replays local work requests a REG_MR
 * queued behind an unacknowledged SEND runs twice and the second run stops
 * the send queue (rdi_reg_inv_prev_wr(); issue 40). The LOCAL_INV costs
 * the command a wait and a work request, so it goes there only while a
 * SEND may be unacknowledged. Every SEND of a connection is signaled,
 * counted in @ic->sq_busy until it completes (which on an RC QP means
 * acknowledged), and posted from this file under libiscsi's forward lock,
 * so none can slip in front of the registration between the test and the
 * post; what rx.c and data.c post is a LOCAL_INV, which no retransmission
 * involves. The command's own invalidation, before its completion, stays
 * where it is (rx.c).
 */
static bool iser_reg_needs_fence(struct iser_conn *ic)
{
	return ic->dev->replays_local_wrs && atomic_read(&ic->sq_busy);
}

static int iser_send_cmd(struct iser_conn *ic, struct iscsi_task *task)
{
	struct iser_task *it = task->dd_data;
	struct iser_hdr_args args = {};
	struct ib_send_wr *first;
	int ret;

	iser_prep_send(ic, it, iser_send_done);
	ret = iser_data_map(ic, it, &args, task->imm_count,
			    task->imm_count + task->unsol_r2t.data_length);
	if (ret)
		return ret;
	iser_hdr_encode(&it->hdrs.iser, &args);
	ib_dma_sync_single_for_device(ic->dev->ib_dev, it->hdrs_dma,
				      ISER_HDRS_LEN, DMA_TO_DEVICE);
	it->send_wr.num_sge = it->nr_sge;

	first = &it->send_wr;
	if (it->reg.mr) {
		it->reg.reg_wr.wr.wr_cqe = &ic->err_cqe;
		it->reg.reg_wr.wr.next = &it->send_wr;
		first = &it->reg.reg_wr.wr;
		if (iser_reg_needs_fence(ic)) {
			first = rdi_reg_inv_prev_wr(&it->reg);
			first->wr_cqe = &ic->err_cqe;
		}
	}
	trace_iser_cmd_send(ic, be32_to_cpu((__force __be32)task->hdr->itt),
			    scsi_bufflen(task->sc), task->imm_count,
			    it->hdrs.iser.flags,
			    it->reg.mr ? it->reg.mr->rkey : 0);
	/*
	 * Before the post: the response may be handled on another CPU before
	 * ib_post_send() returns, and it invalidates only a sent command's MR.
	 */
	it->cmd_sent = true;
	ret = iser_post_counted(ic, it, first, 1);
	if (unlikely(ret)) {
		/*
		 * The send queue has room for every work request of every
		 * task (iser_alloc_pdu()), so this is a broken QP; and the
		 * registration may have gone out without the command. A retry
		 * would map and register the data again: recover the
		 * connection instead, which releases both. Reported from a
		 * work item: libiscsi holds its forward lock here.
		 */
		iscsi_conn_printk(KERN_ERR, task->conn,
				  "posting a command failed: %d\n", ret);
		iser_conn_error(ic);
		return -ENOTCONN;
	}
	rdi_stat_add(&ic->stats, RDI_STAT_CMDS, 1);
	return 0;
}

static int iser_send_dout(struct iser_conn *ic, struct iscsi_task *task,
			  struct iser_dout *d)
{
	struct iser_task *it = task->dd_data;
	struct iscsi_r2t_info *r2t = &task->unsol_r2t;
	struct iscsi_data *bhs = (struct iscsi_data *)&d->hdrs.bhs;

	iscsi_prep_data_out_pdu(task, r2t, bhs);
	iser_hdr_encode(&d->hdrs.iser, NULL);
	ib_dma_sync_single_for_device(ic->dev->ib_dev, d->hdrs_dma,
				      ISER_HDRS_LEN, DMA_TO_DEVICE);

	d->sge[0].addr = d->hdrs_dma;
	d->sge[0].length = ISER_HDRS_LEN;
	d->sge[0].lkey = ic->pd->local_dma_lkey;
	d->sge[1].addr = it->reg.mr->iova + be32_to_cpu(bhs->offset);
	d->sge[1].length = r2t->data_count;
	d->sge[1].lkey = it->reg.mr->lkey;
	d->cqe.done = iser_dout_done;
	memset(&d->wr, 0, sizeof(d->wr));
	d->wr.wr_cqe = &d->cqe;
	d->wr.opcode = IB_WR_SEND;
	d->wr.send_flags = IB_SEND_SIGNALED;
	d->wr.sg_list = d->sge;
	d->wr.num_sge = 2;
	return iser_post_counted(ic, it, &d->wr, 1);
}

/*
 * Room on the send queue for the unsolicited Data-Out PDUs of a write
 * command, before the command is built: all of them (@ic->dout_posted
 * grows by their number, returned) or none (iser_unsol_plan()). With none,
 * the command announces no Data-Out - F bit set, as libiscsi sets it for a
 * command without unsolicited data - and iser_data_map() points the write
 * VA right behind the immediate data, from where the target reads the
 * rest by RDMA READ.
 */
static unsigned int iser_unsol_reserve(struct iser_conn *ic,
				       struct iscsi_task *task)
{
	struct iscsi_r2t_info *r2t = &task->unsol_r2t;
	struct iser_task *it = task->dd_data;
	int old = atomic_read(&ic->dout_posted);
	unsigned int n;

	if (!iscsi_task_has_unsol_data(task))
		return 0;
	do {
		n = iser_unsol_plan(r2t->data_length,
				    task->conn->max_xmit_dlength, it->nr_dout,
				    old, ISER_DOUT_WRS);
		if (!n) {
			r2t->data_length = 0;
			task->hdr->flags |= ISCSI_FLAG_CMD_FINAL;
			return 0;
		}
	} while (!atomic_try_cmpxchg(&ic->dout_posted, &old, old + n));
	return n;
}

/*
 * Post the @n unsolicited Data-Out PDUs reserved for the command just
 * posted. Their room is reserved, so a failed post is a broken QP; and
 * the burst cannot be finished later (see iser_unsol_plan()), so the
 * connection is recovered, as after a failed command post (and reported
 * from a work item, as there).
 */
static int iser_send_unsol(struct iser_conn *ic, struct iscsi_task *task,
			   unsigned int n)
{
	struct iser_task *it = task->dd_data;
	struct iscsi_r2t_info *r2t = &task->unsol_r2t;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = iser_send_dout(ic, task, &it->dout[i]);
		if (unlikely(ret)) {
			atomic_sub(n - i, &ic->dout_posted);
			iscsi_conn_printk(KERN_ERR, task->conn,
					  "posting Data-Out %u of %u failed: %d\n",
					  i + 1, n, ret);
			iser_conn_error(ic);
			return -ENOTCONN;
		}
		r2t->sent += r2t->data_count;
	}
	return 0;
}

/**
 * iser_xmit_task() - send a task's PDU(s) (iscsi_transport op)
 * @task: command or management task
 *
 * The host has no transmit workqueue: libiscsi calls this once per task,
 * from queuecommand or when it sends a management PDU, and takes an error
 * as "not sent": it gives the CmdSN back and requeues the SCSI command. A
 * command and its unsolicited Data-Out PDUs therefore go out together or
 * not at all.
 *
 * Context: libiscsi transmit, forward lock held, bottom halves disabled.
 * Return: 0, or a negative errno after which libiscsi requeues or fails
 * the task.
 */
int iser_xmit_task(struct iscsi_task *task)
{
	struct iscsi_conn *conn = task->conn;
	struct iser_conn *ic = conn->dd_data;
	struct iser_task *it = task->dd_data;
	unsigned int n;
	int ret;

	lockdep_assert_held(&conn->session->frwd_lock);

	if (unlikely(!ic || test_bit(ISER_CONN_F_ERROR, &ic->flags)))
		return -ENOTCONN;
	it->conn = ic;

	if (!task->sc)
		return iser_send_mgmt(ic, task);

	n = iser_unsol_reserve(ic, task);
	ret = iser_send_cmd(ic, task);
	if (ret) {
		atomic_sub(n, &ic->dout_posted);
		return ret;
	}
	return n ? iser_send_unsol(ic, task, n) : 0;
}

/**
 * iser_dout_alloc() - prepare unsolicited Data-Out descriptors
 * @ic:      connection being started, bound to a session
 * @session: its session, parameters negotiated
 *
 * A session with InitialR2T=No may send FirstBurstLength bytes, less the
 * immediate data, as Data-Out PDUs of at most MaxXmitDataSegmentLength
 * bytes right behind each write command. Their headers are allocated and
 * mapped once here, not per PDU.
 *
 * Context: process (conn start).
 * Return: 0 or -ENOMEM.
 */
int iser_dout_alloc(struct iser_conn *ic, struct iscsi_session *session)
{
	struct ib_device *ibdev = ic->dev->ib_dev;
	unsigned int nr, i, j;

	if (session->initial_r2t_en || !ic->iscsi_conn->max_xmit_dlength)
		return 0;
	nr = DIV_ROUND_UP(session->first_burst,
			  ic->iscsi_conn->max_xmit_dlength);
	for (i = 0; i < session->cmds_max; i++) {
		struct iser_task *it = session->cmds[i]->dd_data;

		it->dout = kcalloc(nr, sizeof(*it->dout), GFP_KERNEL);
		if (!it->dout)
			goto err_free;
		for (j = 0; j < nr; j++) {
			struct iser_dout *d = &it->dout[j];

			d->it = it;
			d->hdrs_dma = ib_dma_map_single(ibdev, &d->hdrs,
							ISER_HDRS_LEN,
							DMA_TO_DEVICE);
			if (ib_dma_mapping_error(ibdev, d->hdrs_dma)) {
				it->nr_dout = j;
				goto err_free;
			}
		}
		it->nr_dout = nr;
	}
	return 0;

err_free:
	iser_dout_free(ic, session);
	return -ENOMEM;
}

/**
 * iser_dout_free() - undo iser_dout_alloc()
 * @ic:      connection (device of the mappings)
 * @session: session whose tasks hold descriptors
 */
void iser_dout_free(struct iser_conn *ic, struct iscsi_session *session)
{
	unsigned int i, j;

	for (i = 0; i < session->cmds_max; i++) {
		struct iser_task *it = session->cmds[i]->dd_data;

		if (!it->dout)
			continue;
		for (j = 0; j < it->nr_dout; j++)
			ib_dma_unmap_single(ic->dev->ib_dev,
					    it->dout[j].hdrs_dma,
					    ISER_HDRS_LEN, DMA_TO_DEVICE);
		kfree(it->dout);
		it->dout = NULL;
		it->nr_dout = 0;
	}
}
