// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Receive completions: every PDU the target sends arrives as a SEND into
 * one of our receive buffers and is handed to libiscsi as is. Login-phase
 * PDUs use the single login buffer; full-feature PDUs the ring sized from
 * the negotiated MaxRecvDataSegmentLength.
 *
 * A SCSI response whose task still holds a valid rkey (the target did not
 * invalidate it with Send with Invalidate) is held back until our
 * LOCAL_INV of that rkey completes: the command completes to the midlayer
 * only once the target can no longer reach its buffer.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "iser.h"
#include "trace.h"

static struct iscsi_hdr *iser_rx_bhs(struct iser_rx_desc *desc)
{
	return desc->hdrs + sizeof(struct iser_wire_hdr);
}

/* Hand a received PDU to libiscsi and recycle its buffer. */
static void iser_rx_deliver(struct iser_conn *ic, struct iscsi_conn *conn,
			    struct iser_rx_desc *desc)
{
	struct iser_rx_pdu *pdu = &desc->pdu;
	int ret;

	if (pdu->opcode == ISCSI_OP_SCSI_CMD_RSP)
		rdi_stat_add(&ic->stats, RDI_STAT_CMDS_DONE, 1);
	ret = iscsi_complete_pdu(conn, iser_rx_bhs(desc),
				 desc->data + pdu->ahs_len, pdu->data_len);
	if (ret && ret != ISCSI_ERR_NO_SCSI_CMD) {
		pr_err_ratelimited("%s: PDU 0x%x rejected by libiscsi: %d\n",
				   dev_name(&ic->dev->ib_dev->dev), pdu->opcode,
				   ret);
		if (!test_and_set_bit(ISER_CONN_F_ERROR, &ic->flags))
			iscsi_conn_failure(conn, ret);
		return;
	}

	/* The login buffer is posted again with the next login request. */
	if (desc == ic->login_rx.desc)
		return;
	if (!test_bit(ISER_CONN_F_ERROR, &ic->flags) && iser_post_recv(desc))
		iser_conn_error(ic);
}

static void iser_rx_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct iser_rx_desc *desc = container_of(wc->wr_cqe,
						 struct iser_rx_desc, inv_cqe);
	struct iser_conn *ic = desc->conn;
	struct iscsi_conn *conn = READ_ONCE(ic->iscsi_conn);

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		iser_wc_error(wc, "local invalidation");
		return;
	}
	if (unlikely(!conn)) {
		iser_conn_error(ic);
		return;
	}
	iser_rx_deliver(ic, conn, desc);
}

/*
 * Make sure the rkey of the task a SCSI response completes is invalid
 * before the response is delivered.
 *
 * Return: true when delivery must wait for a LOCAL_INV, or must not happen
 * because it could not be posted.
 */
static bool iser_rx_invalidate(struct iser_conn *ic, struct iscsi_conn *conn,
			       struct iser_rx_desc *desc, struct ib_wc *wc)
{
	struct iscsi_session *session = conn->session;
	struct iscsi_task *task;
	struct ib_send_wr *wr;
	struct iser_task *it;
	bool wait = false, failed = false;

	spin_lock(&session->back_lock);
	task = iscsi_itt_to_task(conn, iser_rx_bhs(desc)->itt);
	if (!task || !task->sc)
		goto out_unlock;
	it = task->dd_data;
	if (!it->reg.mr || !it->cmd_sent || it->invalidated)
		goto out_unlock;
	it->invalidated = true;
	if ((wc->wc_flags & IB_WC_WITH_INVALIDATE) &&
	    wc->ex.invalidate_rkey == it->reg.mr->rkey) {
		rdi_stat_add(&ic->stats, RDI_STAT_REMOTE_INVS, 1);
		goto out_unlock;
	}
	wr = rdi_reg_inv_wr(&it->reg, &desc->inv_cqe);
	if (ib_post_send(ic->qp, wr, NULL)) {
		failed = true;
		goto out_unlock;
	}
	rdi_stat_add(&ic->stats, RDI_STAT_INVS, 1);
	wait = true;
out_unlock:
	spin_unlock(&session->back_lock);
	/* outside back_lock: libiscsi takes frwd_lock before back_lock */
	if (failed)
		iser_conn_error(ic);
	return wait || failed;
}

/**
 * iser_rx_done() - completion of a receive work request
 * @cq: completion queue
 * @wc: the completion
 *
 * Context: softirq (IB_POLL_SOFTIRQ).
 */
void iser_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct iser_rx_desc *desc = container_of(wc->wr_cqe,
						 struct iser_rx_desc, cqe);
	struct iser_conn *ic = desc->conn;
	struct ib_device *ibdev = ic->dev->ib_dev;
	struct iscsi_conn *conn = READ_ONCE(ic->iscsi_conn);
	struct iser_rx_pdu *pdu = &desc->pdu;

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		iser_wc_error(wc, "receive");
		return;
	}

	/* Only what arrived: most PDUs carry no data, the buffer is large. */
	ib_dma_sync_single_for_cpu(ibdev, desc->sge[0].addr, ISER_HDRS_LEN,
				   DMA_FROM_DEVICE);
	if (wc->byte_len > ISER_HDRS_LEN)
		ib_dma_sync_single_for_cpu(ibdev, desc->sge[1].addr,
					   min_t(u32, wc->byte_len - ISER_HDRS_LEN,
						 desc->data_len),
					   DMA_FROM_DEVICE);
	if (iser_rx_parse(desc->hdrs, wc->byte_len, pdu)) {
		pr_err_ratelimited("%s: malformed PDU (%u bytes, iSER flags 0x%x)\n",
				   dev_name(&ibdev->dev), wc->byte_len,
				   pdu->iser_flags);
		iser_conn_error(ic);
		return;
	}
	if (unlikely(!conn)) {
		iser_conn_error(ic);
		return;
	}
	trace_iser_rx_pdu(ic, pdu->opcode,
			  be32_to_cpu((__force __be32)iser_rx_bhs(desc)->itt),
			  pdu->data_len, wc->wc_flags & IB_WC_WITH_INVALIDATE);

	desc->inv_cqe.done = iser_rx_inv_done;
	if (pdu->opcode == ISCSI_OP_SCSI_CMD_RSP &&
	    iser_rx_invalidate(ic, conn, desc, wc))
		return;
	iser_rx_deliver(ic, conn, desc);
}
