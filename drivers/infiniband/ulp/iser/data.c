// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * SCSI data mapping for iSER, as an ordered ladder:
 *   1. no data: nothing to map;
 *   2. a write whose data all travels as immediate data and fits in a few
 *      SGEs: sent from the local DMA lkey, nothing registered;
 *   3. otherwise: one fast registration through rdi_core, chained before the
 *      SEND that advertises its rkey.
 *
 * Invalidation is never left for later: the target invalidates the rkey
 * with Send with Invalidate when it offered to; otherwise the PDU that
 * completes the command (SCSI Response, or Data-In with status) waits for
 * our LOCAL_INV to complete before libiscsi sees it, so no rkey is valid
 * once its command has completed.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <scsi/scsi_cmnd.h>

#include "iser.h"

static int iser_data_inline(struct iser_conn *ic, struct iser_task *it,
			    struct scatterlist *sgl)
{
	u32 lkey = ic->pd->local_dma_lkey;
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, it->sg_nents, i) {
		it->sge[1 + i].addr = sg_dma_address(sg);
		it->sge[1 + i].length = sg_dma_len(sg);
		it->sge[1 + i].lkey = lkey;
	}
	it->nr_sge = 1 + it->sg_nents;
	rdi_stat_add(&ic->stats, RDI_STAT_IMM, 1);
	return 0;
}

/**
 * iser_data_map() - map a SCSI command's data and describe it
 * @ic:      connection the command goes out on
 * @it:      task; @it->sge[0] (headers) is already set
 * @args:    filled with the buffers to advertise in the iSER header
 * @imm_len: bytes sent as immediate data with the command
 * @unsol_len: bytes sent unsolicited (immediate data plus Data-Out PDUs);
 *	       the target fetches the rest by RDMA READ from the advertised
 *	       write VA, which points right behind them
 *
 * On success @it->nr_sge covers the immediate data and, when a registration
 * was needed, @it->reg.reg_wr is ready to be chained before the SEND.
 *
 * Context: atomic (libiscsi transmit path).
 * Return: 0, -EAGAIN when no MR is free, or another negative errno.
 */
int iser_data_map(struct iser_conn *ic, struct iser_task *it,
		  struct iser_hdr_args *args, unsigned int imm_len,
		  unsigned int unsol_len)
{
	struct scsi_cmnd *sc = iser_task_to_iscsi(it)->sc;
	struct ib_device *ibdev = ic->dev->ib_dev;
	unsigned int len = scsi_bufflen(sc);
	bool write = sc->sc_data_direction == DMA_TO_DEVICE;
	struct ib_mr *mr;
	int n, nents;

	it->nr_sge = 1;
	if (!len || sc->sc_data_direction == DMA_NONE)
		return 0;

	it->dma_dir = sc->sc_data_direction;
	nents = ib_dma_map_sg(ibdev, scsi_sglist(sc), scsi_sg_count(sc),
			      it->dma_dir);
	if (unlikely(!nents))
		return -ENOMEM;
	it->sg_nents = nents;

	if (write && imm_len == len && nents <= ISER_INLINE_SGES &&
	    nents < ic->max_send_sge)
		return iser_data_inline(ic, it, scsi_sglist(sc));

	n = rdi_reg_sg(ic->queue.qp, &it->reg, scsi_sglist(sc), nents, NULL,
		       ic->dev->mr_page_size,
		       write ? IB_ACCESS_REMOTE_READ :
			       IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE);
	if (unlikely(n < 0)) {
		if (n == -EAGAIN)
			rdi_stat_add(&ic->stats, RDI_STAT_CREDIT_STALLS, 1);
		goto err_unmap;
	}
	if (unlikely(n < nents)) {
		/* sg_tablesize and the virt boundary make this impossible */
		pr_err_ratelimited("%u bytes in %d entries do not fit one MR\n",
				   len, nents);
		n = -EINVAL;
		goto err_release;
	}
	mr = it->reg.mr;
	rdi_stat_add(&ic->stats, RDI_STAT_REGS, 1);

	if (write) {
		args->write_stag = mr->rkey;
		args->write_va = mr->iova + unsol_len;
		args->write_len = len - unsol_len;
		if (imm_len) {
			it->sge[1].addr = mr->iova;
			it->sge[1].length = imm_len;
			it->sge[1].lkey = mr->lkey;
			it->nr_sge = 2;
			rdi_stat_add(&ic->stats, RDI_STAT_IMM, 1);
		}
	} else {
		args->read_stag = mr->rkey;
		args->read_va = mr->iova;
		args->read_len = len;
	}
	return 0;

err_release:
	rdi_reg_cancel(ic->queue.qp, &it->reg);
err_unmap:
	ib_dma_unmap_sg(ibdev, scsi_sglist(sc), scsi_sg_count(sc), it->dma_dir);
	it->sg_nents = 0;
	return n;
}

static void iser_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct iser_task *it = container_of(wc->wr_cqe, struct iser_task,
					    inv_cqe);

	iser_sq_done(wc->qp->qp_context);
	if (unlikely(wc->status != IB_WC_SUCCESS))
		iser_wc_error(wc, "registration/invalidation");
	atomic_dec(&it->wrs);
}

/**
 * iser_data_release() - invalidate and unmap a command's data
 * @ic: connection the command went out on
 * @it: task, completed or failed
 *
 * Normally the rkey is invalid by now (&iser_task.inv is ISER_INV_DONE):
 * the PDU that completed the command waited for its LOCAL_INV to complete
 * (see iser_rx_invalidate()). A task that ends otherwise gets its
 * LOCAL_INV here, on any connection whose QP has not been drained yet,
 * failed or not: a connection with ISER_CONN_F_ERROR set may still be in
 * RTS until iscsid's disconnect drains it. Only a drained QP, in the error
 * state, proves the rkey unreachable: the connection's MRs live in its own
 * PD (iser_conn_create_qp()), so no other QP can use the key either. A
 * task that ends while the LOCAL_INV a held PDU waits for is still
 * outstanding (ISER_INV_POSTED: something other than that PDU ended it)
 * has its rkey valid behind a send queue that may be stalled, so its
 * connection is fenced. The MR goes back to the pool at once: a LOCAL_INV
 * precedes any later REG_MR of it on the same send queue. If the LOCAL_INV
 * cannot be posted, the connection is fenced too (iser_conn_fence() says
 * how soon).
 *
 * Context: atomic, libiscsi task cleanup: under libiscsi's back_lock,
 * often its forward lock too.
 */
void iser_data_release(struct iser_conn *ic, struct iser_task *it)
{
	struct scsi_cmnd *sc = iser_task_to_iscsi(it)->sc;

	if (unlikely(test_bit(ISER_CONN_F_HW_GONE, &ic->flags) ||
		     !READ_ONCE(ic->queue.qp))) {
		/* device removal took them back (iser_conn_drop_tasks()) */
		it->reg.mr = NULL;
		it->sg_nents = 0;
		it->inv = ISER_INV_NONE;
		it->tmf_ended = false;
		return;
	}
	if (it->reg.mr && !it->cmd_sent) {
		/* never posted: nothing to invalidate, the device's key stays */
		rdi_reg_cancel(ic->queue.qp, &it->reg);
	} else if (it->reg.mr) {
		bool drained = test_bit(ISER_CONN_F_DRAINED, &ic->flags);

		if (it->inv == ISER_INV_POSTED && !drained) {
			pr_err_ratelimited("%pISpc: itt 0x%x ended before the invalidation of its rkey 0x%x completed; failing the connection\n",
					   &ic->cm_id->route.addr.dst_addr,
					   be32_to_cpu((__force __be32)it->hdrs.bhs.itt),
					   it->reg.mr->rkey);
			iser_conn_fence(ic);
		} else if (it->inv == ISER_INV_NONE && !drained) {
			struct ib_send_wr *wr;

			/* signaled: the task waits for it (iser_alloc_pdu()) */
			it->inv_cqe.done = iser_inv_done;
			wr = rdi_reg_inv_wr(&it->reg, &it->inv_cqe);
			atomic_inc(&it->wrs);
			if (unlikely(iser_post_send(ic, wr, 1))) {
				atomic_dec(&it->wrs);
				iser_conn_fence(ic);
			} else {
				rdi_stat_add(&ic->stats, RDI_STAT_INVS, 1);
			}
		}
		rdi_reg_release(ic->queue.qp, &it->reg);
	}
	if (it->sg_nents) {
		ib_dma_unmap_sg(ic->dev->ib_dev, scsi_sglist(sc),
				scsi_sg_count(sc), it->dma_dir);
		it->sg_nents = 0;
	}
	it->inv = ISER_INV_NONE;
	it->tmf_ended = false;
}
