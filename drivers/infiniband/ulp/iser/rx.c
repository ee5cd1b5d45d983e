// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Receive completions: every PDU the target sends arrives as a SEND into
 * one of our receive buffers and is handed to libiscsi as is. Login-phase
 * PDUs use the single login buffer; full-feature PDUs the ring sized from
 * the negotiated MaxRecvDataSegmentLength.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "iser.h"
#include "trace.h"

/*
 * A response carrying Send with Invalidate invalidated the rkey of its
 * task: remember it so that the task's cleanup does not invalidate again.
 */
static void iser_rx_remote_inv(struct iscsi_conn *conn, struct iscsi_hdr *hdr,
			       u32 rkey)
{
	struct iscsi_session *session = conn->session;
	struct iscsi_task *task;
	struct iser_task *it;

	spin_lock(&session->back_lock);
	task = iscsi_itt_to_task(conn, hdr->itt);
	if (task && task->sc) {
		it = task->dd_data;
		if (it->reg.mr && it->reg.mr->rkey == rkey)
			it->remote_inv = true;
	}
	spin_unlock(&session->back_lock);
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
	struct iscsi_hdr *hdr;
	struct iser_rx_pdu pdu;
	int ret;

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		iser_wc_error(wc, "receive");
		return;
	}

	ib_dma_sync_single_for_cpu(ibdev, desc->sge[0].addr, ISER_HDRS_LEN,
				   DMA_FROM_DEVICE);
	ib_dma_sync_single_for_cpu(ibdev, desc->sge[1].addr, desc->data_len,
				   DMA_FROM_DEVICE);
	if (iser_rx_parse(desc->hdrs, wc->byte_len, &pdu)) {
		pr_err_ratelimited("%s: malformed PDU (%u bytes, iSER flags 0x%x)\n",
				   dev_name(&ibdev->dev), wc->byte_len,
				   pdu.iser_flags);
		iser_conn_error(ic);
		return;
	}
	if (unlikely(!conn)) {
		iser_conn_error(ic);
		return;
	}
	hdr = desc->hdrs + sizeof(struct iser_wire_hdr);
	trace_iser_rx_pdu(ic, pdu.opcode, be32_to_cpu((__force __be32)hdr->itt),
			  pdu.data_len, wc->wc_flags & IB_WC_WITH_INVALIDATE);

	if (wc->wc_flags & IB_WC_WITH_INVALIDATE)
		iser_rx_remote_inv(conn, hdr, wc->ex.invalidate_rkey);
	if (pdu.opcode == ISCSI_OP_SCSI_CMD_RSP)
		rdi_stat_add(&ic->stats, RDI_STAT_CMDS_DONE, 1);

	ret = iscsi_complete_pdu(conn, hdr, desc->data + pdu.ahs_len,
				 pdu.data_len);
	if (ret && ret != ISCSI_ERR_NO_SCSI_CMD) {
		pr_err_ratelimited("%s: PDU 0x%x rejected by libiscsi: %d\n",
				   dev_name(&ibdev->dev), pdu.opcode, ret);
		iscsi_conn_failure(conn, ret);
		return;
	}

	/* The login buffer is posted again with the next login request. */
	if (desc == ic->login_rx.desc)
		return;
	if (!test_bit(ISER_CONN_F_ERROR, &ic->flags) && iser_post_recv(desc))
		iser_conn_error(ic);
}
