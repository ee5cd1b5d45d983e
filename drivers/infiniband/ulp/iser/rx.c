// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Receive completions: every PDU the target sends arrives as a SEND into
 * one of our receive buffers and is handed to libiscsi as is. Login-phase
 * PDUs use the single login buffer; everything after the final login
 * response the ring, one buffer per command and a few for unexpected PDUs,
 * posted with the final login request (iser_rx_ring_post()).
 *
 * A SEND lands in the next receive posted, whatever its size, and one
 * longer than that receive is a local length error that fails the
 * connection: every receive must take the longest PDU the target may send
 * (the MaxRecvDataSegmentLength we declared), so a ring of small and large
 * buffers cannot be relied on. Each receive is instead a small buffer of
 * its own, the headers and ISER_RX_INLINE bytes, continued by one large
 * buffer that all of them share (&iser_conn.rx_spill). Nearly every PDU
 * fits the small one: a SCSI Response with any sense data SPC allows, a
 * Task Management or Logout Response, a Reject, a NOP-In. What goes on is
 * read only while its own completion runs: its inline bytes are copied in
 * front of the rest, and libiscsi copies the PDU before the buffer is
 * posted again. That is safe for every PDU a correct target sends, since
 * at most one long PDU that is read in full is outstanding at a time: the
 * answer to a Text Request, of which libiscsi allows one at a time per
 * connection (its login task). libiscsi refuses data on a NOP-In, Logout
 * or Task Management Response, and an Async Message carries sense data,
 * except for vendor-specific events. A PDU held back for an invalidation
 * (below) is delivered from its inline bytes alone, since by then the
 * shared buffer may hold another PDU: of those PDUs libiscsi reads the
 * sense data of a SCSI Response and nothing else. A target that sends
 * two long PDUs at once garbles only the bytes of its own PDUs: no SEND
 * is ever longer than the receive it lands in, and nothing is read or
 * written outside the buffers.
 *
 * A PDU that completes a command - a SCSI Response, or a final Data-In
 * carrying the status - whose task still holds a valid rkey (the target did
 * not invalidate it with Send with Invalidate) is held back until our
 * LOCAL_INV of that rkey completes: the command completes to libiscsi only
 * once the target can no longer reach its buffer.
 *
 * A Task Management Response saying the function is complete ends the
 * commands that function covers (libiscsi fails them as soon as it sees
 * it): it too waits for the LOCAL_INV of every rkey of theirs still valid.
 * A target that answers such a command afterwards has lied about the
 * function, and the connection fails.
 *
 * Send with Invalidate is accepted only when it was negotiated, on a PDU
 * that completes a command, of that command's rkey. Anything else is a
 * protocol error that fails the connection: the rkey the target
 * invalidated may belong to another command, whose buffer the driver would
 * otherwise still believe registered.
 *
 * Once the connection has failed, nothing more the target sends is
 * believed or delivered, as libiscsi stops receiving on a failed
 * connection (ISCSI_CONN_FLAG_SUSPEND_RX): the commands still outstanding
 * end with the connection, after its QP is drained, and are retried on
 * the next one.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/stringify.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_device.h>

#include "iser.h"
#include "trace.h"

static struct iscsi_hdr *iser_rx_bhs(struct iser_rx_desc *desc)
{
	return desc->head.addr + sizeof(struct iser_wire_hdr);
}

/**
 * iser_rx_data() - the data segment of a received PDU, for libiscsi
 * @ic:   connection
 * @desc: receive buffer of a PDU iser_rx_parse() accepted
 * @held: the PDU was held back for an invalidation
 * @len:  set to the data segment bytes to deliver
 *
 * A PDU that fits the inline part is read there. A longer one is made
 * contiguous in &iser_conn.rx_spill, its inline bytes copied in front of
 * the rest, unless it was held: then only what the inline part holds of
 * its data segment is delivered (see the top of this file).
 *
 * Context: the PDU's receive completion, or the completion of the
 * invalidation it waited for (@held).
 * Return: the data segment, behind the AHS.
 */
static void *iser_rx_data(struct iser_conn *ic, struct iser_rx_desc *desc,
			  bool held, u32 *len)
{
	struct iser_rx_pdu *pdu = &desc->pdu;
	void *seg = desc->head.addr + ISER_HDRS_LEN;

	if (!iser_rx_spills(pdu)) {
		*len = pdu->data_len;
		return seg + pdu->ahs_len;
	}
	if (held) {
		*len = iser_rx_inline_dlen(pdu);
		return seg + min_t(u32, pdu->ahs_len, ISER_RX_INLINE);
	}
	ib_dma_sync_single_for_cpu(ic->dev->ib_dev,
				   ic->rx_spill.dma + ISER_RX_INLINE,
				   pdu->ahs_len + pdu->data_len - ISER_RX_INLINE,
				   DMA_FROM_DEVICE);
	memcpy(ic->rx_spill.addr, seg, ISER_RX_INLINE);
	*len = pdu->data_len;
	return ic->rx_spill.addr + pdu->ahs_len;
}

/* Give the part of the shared buffer iser_rx_data() read back to the device. */
static void iser_rx_data_done(struct iser_conn *ic, struct iser_rx_desc *desc,
			      bool held)
{
	struct iser_rx_pdu *pdu = &desc->pdu;

	if (!iser_rx_spills(pdu) || held)
		return;
	ib_dma_sync_single_for_device(ic->dev->ib_dev,
				      ic->rx_spill.dma + ISER_RX_INLINE,
				      pdu->ahs_len + pdu->data_len - ISER_RX_INLINE,
				      DMA_FROM_DEVICE);
}

/* What libiscsi's errors mean, for the log. */
static const char *iser_rx_err_text(int err)
{
	switch (err) {
	case ISCSI_ERR_BAD_OPCODE:
		return "unknown opcode";
	case ISCSI_ERR_BAD_ITT:
		return "unknown task tag";
	case ISCSI_ERR_PROTO:
		return "protocol error";
	case ISCSI_ERR_DATALEN:
		return "bad data segment length";
	default:
		return "rejected";
	}
}

/* A failed receive into the login buffer (one cause: a longer login PDU). */
#define ISER_LOGIN_RX_WHAT \
	"receive into the " __stringify(ISER_LOGIN_DLEN) "-byte login buffer"

/* The connection failed, or is being torn down: receive nothing more. */
static bool iser_rx_stopped(struct iser_conn *ic, struct iscsi_conn *conn)
{
	return test_bit(ISER_CONN_F_ERROR, &ic->flags) ||
	       (conn && test_bit(ISCSI_CONN_FLAG_SUSPEND_RX, &conn->flags));
}

/**
 * iser_rx_complete_pdu() - hand a PDU to libiscsi
 * @conn: libiscsi connection
 * @hdr:  the PDU's BHS
 * @data: its data segment
 * @len:  bytes of @data
 * @held: the PDU was held back for an invalidation
 *
 * libiscsi takes the StatSN of every status PDU it is given as the next
 * ExpStatSN, so it relies on being given them in the order the target sent
 * them. A held PDU is delivered when its LOCAL_INV completes, possibly
 * after PDUs the target sent behind it were delivered at once: then its
 * StatSN is older than what libiscsi already acknowledges, and our next
 * PDUs would take ExpStatSN back. The ExpStatSN of a held PDU's delivery
 * therefore only ever moves forward (serial number arithmetic, RFC 1982).
 *
 * Context: softirq; takes the session's back_lock, as iscsi_complete_pdu().
 * Return: libiscsi's verdict, 0 or an ISCSI_ERR_* code.
 */
static int iser_rx_complete_pdu(struct iscsi_conn *conn, struct iscsi_hdr *hdr,
				void *data, u32 len, bool held)
{
	struct iscsi_session *session = conn->session;
	u32 exp_statsn;
	int ret;

	if (!held)
		return iscsi_complete_pdu(conn, hdr, data, len);

	spin_lock(&session->back_lock);
	exp_statsn = conn->exp_statsn;
	ret = __iscsi_complete_pdu(conn, hdr, data, len);
	if (iscsi_sna_lt(conn->exp_statsn, exp_statsn))
		conn->exp_statsn = exp_statsn;
	spin_unlock(&session->back_lock);
	return ret;
}

/* Hand a received PDU to libiscsi and recycle its buffer. */
static void iser_rx_deliver(struct iser_conn *ic, struct iscsi_conn *conn,
			    struct iser_rx_desc *desc, bool held)
{
	struct iser_rx_pdu *pdu = &desc->pdu;
	void *data;
	u32 len;
	int ret;

	if (unlikely(iser_rx_stopped(ic, conn)))
		return;

	if (pdu->opcode == ISCSI_OP_SCSI_CMD_RSP)
		rdi_stat_add(&ic->stats, RDI_STAT_CMDS_DONE, 1);
	data = iser_rx_data(ic, desc, held, &len);
	ret = iser_rx_complete_pdu(conn, iser_rx_bhs(desc), data, len, held);
	iser_rx_data_done(ic, desc, held);
	if (ret && ret != ISCSI_ERR_NO_SCSI_CMD) {
		pr_err_ratelimited("%pISpc: PDU opcode 0x%02x (itt 0x%x, %u data bytes) from the target: %s (libiscsi error %d); failing the connection\n",
				   &ic->cm_id->route.addr.dst_addr, pdu->opcode,
				   be32_to_cpu((__force __be32)iser_rx_bhs(desc)->itt),
				   pdu->data_len, iser_rx_err_text(ret), ret);
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

/*
 * The LOCAL_INV a held PDU waited for completed: the rkey is invalid now,
 * and only now may the PDU complete its command. A failed or flushed one
 * leaves the task's invalidation posted: the QP is failing, and only its
 * drain lets the command's pages go (iser_data_release()). The task is
 * not handed out again before this ran (&iser_task.wrs).
 */
static void iser_rx_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct iser_rx_desc *desc = container_of(wc->wr_cqe,
						 struct iser_rx_desc, inv_cqe);
	struct iser_conn *ic = desc->conn;
	struct iscsi_conn *conn = READ_ONCE(ic->iscsi_conn);
	struct iser_task *it = desc->inv_task;

	iser_sq_done(ic);
	desc->inv_task = NULL;
	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		iser_wc_error(wc, "local invalidation");
		goto out;
	}
	if (unlikely(!conn)) {
		iser_conn_error(ic);
		goto out;
	}
	if (it) {
		spin_lock(&conn->session->back_lock);
		it->inv = ISER_INV_DONE;
		spin_unlock(&conn->session->back_lock);
	}
	iser_rx_deliver(ic, conn, desc, true);
out:
	if (it)
		atomic_dec(&it->wrs);
}

/* The PDU completes a command: SCSI Response, or Data-In with status. */
static bool iser_rx_completes(struct iser_rx_desc *desc)
{
	struct iscsi_hdr *bhs = iser_rx_bhs(desc);

	return desc->pdu.opcode == ISCSI_OP_SCSI_CMD_RSP ||
	       (desc->pdu.opcode == ISCSI_OP_SCSI_DATA_IN &&
		(bhs->flags & ISCSI_FLAG_DATA_STATUS));
}

/**
 * iser_rx_invalidate() - make a command's rkey invalid before its
 *	completion is delivered
 * @ic:   connection
 * @conn: its libiscsi connection
 * @desc: receive buffer of a PDU that completes a command, or of any PDU
 *	  that came with Send with Invalidate
 * @wc:   the receive completion
 *
 * A remote invalidation is checked: negotiated, on a completing PDU, of
 * the rkey of the task it completes (iser_inv_check()). Otherwise, when
 * the task's rkey is still valid, a LOCAL_INV is posted whose completion
 * delivers the PDU (iser_rx_inv_done()).
 *
 * Context: softirq, receive completion.
 * Return: true when delivery must wait for a LOCAL_INV, or must not happen
 * at all (a bad remote invalidation, a failed post: the connection is
 * failed).
 */
static bool iser_rx_invalidate(struct iser_conn *ic, struct iscsi_conn *conn,
			       struct iser_rx_desc *desc, struct ib_wc *wc)
{
	bool remote = wc->wc_flags & IB_WC_WITH_INVALIDATE;
	struct iscsi_session *session = conn->session;
	u32 itt = be32_to_cpu((__force __be32)iser_rx_bhs(desc)->itt);
	u32 rkey = remote ? wc->ex.invalidate_rkey : 0;
	struct iser_inv_facts f = {
		.completes = iser_rx_completes(desc),
		.remote = remote,
		.negotiated = ic->remote_inv,
	};
	struct iscsi_task *task;
	struct ib_send_wr *wr;
	struct iser_task *it;
	enum iser_inv_step step;
	bool post_failed = false;
	u32 task_rkey = 0;

	spin_lock(&session->back_lock);
	task = iscsi_itt_to_task(conn, iser_rx_bhs(desc)->itt);
	it = task && task->sc ? task->dd_data : NULL;
	if (it) {
		f.task = true;
		f.registered = it->reg.mr;
		f.sent = it->cmd_sent;
		f.tmf_ended = it->tmf_ended;
		f.inv = it->inv;
		if (it->reg.mr)
			task_rkey = it->reg.mr->rkey;
		f.rkey_match = it->reg.mr && rkey == task_rkey;
	}
	step = iser_inv_check(&f);
	if (step == ISER_INV_REMOTE_DONE) {
		it->inv = ISER_INV_DONE;
		rdi_stat_add(&ic->stats, RDI_STAT_REMOTE_INVS, 1);
	} else if (step == ISER_INV_HOLD) {
		wr = rdi_reg_inv_wr(&it->reg, &desc->inv_cqe);
		desc->inv_task = it;
		/* the task waits for the completion (iser_alloc_pdu()) */
		atomic_inc(&it->wrs);
		if (iser_post_send(ic, wr, 1)) {
			atomic_dec(&it->wrs);
			desc->inv_task = NULL;
			post_failed = true;
		} else {
			it->inv = ISER_INV_POSTED;
			rdi_stat_add(&ic->stats, RDI_STAT_INVS, 1);
		}
	}
	spin_unlock(&session->back_lock);

	/* outside back_lock: libiscsi takes frwd_lock before back_lock */
	if (post_failed) {
		pr_err_ratelimited("%pISpc: posting the invalidation of rkey 0x%x failed; failing the connection\n",
				   &ic->cm_id->route.addr.dst_addr, task_rkey);
		iser_conn_error(ic);
		return true;
	}
	switch (step) {
	case ISER_INV_DELIVER:
	case ISER_INV_REMOTE_DONE:
		return false;
	case ISER_INV_HOLD:
		return true;
	case ISER_INV_NOT_NEGOTIATED:
		pr_err_ratelimited("%pISpc: target used Send with Invalidate (rkey 0x%x, itt 0x%x), which was not negotiated; failing the connection\n",
				   &ic->cm_id->route.addr.dst_addr, rkey, itt);
		break;
	case ISER_INV_WRONG_RKEY:
		pr_err_ratelimited("%pISpc: target invalidated rkey 0x%x, not rkey 0x%x of the command that PDU opcode 0x%02x (itt 0x%x) answers; failing the connection\n",
				   &ic->cm_id->route.addr.dst_addr, rkey,
				   task_rkey, desc->pdu.opcode, itt);
		break;
	case ISER_INV_AFTER_TMF:
		pr_err_ratelimited("%pISpc: PDU opcode 0x%02x answers itt 0x%x, a command the target's task management response said was ended; failing the connection\n",
				   &ic->cm_id->route.addr.dst_addr,
				   desc->pdu.opcode, itt);
		break;
	case ISER_INV_TWICE:
		pr_err_ratelimited("%pISpc: PDU opcode 0x%02x completes itt 0x%x a second time, while the first answer waits for the invalidation of rkey 0x%x; failing the connection\n",
				   &ic->cm_id->route.addr.dst_addr,
				   desc->pdu.opcode, itt, task_rkey);
		break;
	}
	iser_conn_error(ic);
	return true;
}

/* Does the task management function TM end TASK, a running command? */
static bool iser_tmf_covers(struct iscsi_tm *tm, struct iscsi_task *task)
{
	switch (tm->flags & ISCSI_FLAG_TM_FUNC_MASK) {
	case ISCSI_TM_FUNC_ABORT_TASK:
		return task->hdr->itt == tm->rtt;
	case ISCSI_TM_FUNC_ABORT_TASK_SET:
	case ISCSI_TM_FUNC_CLEAR_TASK_SET:
	case ISCSI_TM_FUNC_LOGICAL_UNIT_RESET:
		return task->sc->device->lun == scsilun_to_int(&tm->lun);
	case ISCSI_TM_FUNC_TARGET_WARM_RESET:
	case ISCSI_TM_FUNC_TARGET_COLD_RESET:
		return true;
	default:
		return false;
	}
}

/**
 * iser_rx_tmf_invalidate() - make the rkeys of the commands a completed
 *	task management function ended invalid before its response is
 *	delivered
 * @ic:   connection
 * @conn: its libiscsi connection
 * @desc: receive buffer of a Task Management Response, "function complete"
 *
 * libiscsi fails the commands the function covers (ABORT TASK: one; a LUN
 * or target reset: all of that LUN or target) as soon as it sees the
 * response, and their buffers go back to the block layer. So every one
 * sent on this connection whose rkey is still valid gets a LOCAL_INV here,
 * the last one signaled: its completion (send queue work requests complete
 * in order) delivers the response (iser_rx_inv_done()). They are marked
 * ended: a later answer to one of them is a lie (iser_rx_invalidate()).
 *
 * The response must name a task management function outstanding on this
 * connection: libiscsi accepts no other, and a task tag that names a
 * finished one (a free task, whose headers still hold that old request)
 * must not end the commands the old function covered. Nor may the tag's
 * task be handed out to a new function while the response waits for its
 * LOCAL_INVs, so that the response the wait ends answers the function the
 * commands were invalidated for: a running task stays allocated until
 * libiscsi is given its response, or the connection fails, after which
 * nothing is delivered.
 *
 * Context: softirq, receive completion.
 * Return: true when delivery must wait for the LOCAL_INVs, or must not
 * happen at all (a response that answers no function, a failed post: the
 * connection is failed).
 */
static bool iser_rx_tmf_invalidate(struct iser_conn *ic,
				   struct iscsi_conn *conn,
				   struct iser_rx_desc *desc)
{
	struct iscsi_session *session = conn->session;
	struct ib_send_wr *first = NULL, *last = NULL, *wr;
	struct iscsi_task *tmf, *task;
	unsigned int i, n = 0;
	bool stale = false;
	struct iser_task *it;
	int ret = 0;

	spin_lock(&session->back_lock);
	tmf = iscsi_itt_to_task(conn, iser_rx_bhs(desc)->itt);
	if (!tmf || tmf->state != ISCSI_TASK_RUNNING || tmf->sc ||
	    tmf->conn != conn ||
	    (tmf->hdr->opcode & ISCSI_OPCODE_MASK) != ISCSI_OP_SCSI_TMFUNC) {
		stale = true;
		goto out_unlock;
	}
	for (i = 0; i < session->cmds_max; i++) {
		task = session->cmds[i];
		it = task->dd_data;
		if (!task->sc || task->conn != conn ||
		    task->state != ISCSI_TASK_RUNNING || it->conn != ic ||
		    !it->reg.mr || !it->cmd_sent || it->inv != ISER_INV_NONE ||
		    !iser_tmf_covers((struct iscsi_tm *)tmf->hdr, task))
			continue;
		/* invalid before the response that ends it is delivered */
		it->inv = ISER_INV_DONE;
		it->tmf_ended = true;
		wr = rdi_reg_inv_wr(&it->reg, NULL);
		wr->wr_cqe = &ic->err_cqe;
		if (last)
			last->next = wr;
		else
			first = wr;
		last = wr;
		n++;
	}
	if (last) {
		last->wr_cqe = &desc->inv_cqe;
		last->send_flags = IB_SEND_SIGNALED;
		ret = iser_post_send(ic, first, 1);
	}
out_unlock:
	spin_unlock(&session->back_lock);

	if (unlikely(stale)) {
		pr_err_ratelimited("%pISpc: task management response (itt 0x%x) names no task management function outstanding on the connection; failing the connection\n",
				   &ic->cm_id->route.addr.dst_addr,
				   be32_to_cpu((__force __be32)iser_rx_bhs(desc)->itt));
		iser_conn_error(ic);
		return true;
	}
	if (unlikely(ret)) {
		pr_err_ratelimited("%pISpc: posting the invalidation of %u commands a task management function ended failed; failing the connection\n",
				   &ic->cm_id->route.addr.dst_addr, n);
		iser_conn_error(ic);
		return true;
	}
	rdi_stat_add(&ic->stats, RDI_STAT_INVS, n);
	return n > 0;
}

/* A Task Management Response saying the function is complete. */
static bool iser_rx_tmf_done(struct iser_rx_desc *desc)
{
	struct iscsi_tm_rsp *rsp = (struct iscsi_tm_rsp *)iser_rx_bhs(desc);

	return desc->pdu.opcode == ISCSI_OP_SCSI_TMFUNC_RSP &&
	       rsp->response == ISCSI_TMF_RSP_COMPLETE;
}

/* One log line for a PDU iser_rx_parse() refused, naming the target. */
static void iser_rx_malformed(struct iser_conn *ic, struct iser_rx_desc *desc,
			      u32 byte_len)
{
	struct iser_rx_pdu *pdu = &desc->pdu;
	const struct sockaddr *dst = (void *)&ic->cm_id->route.addr.dst_addr;

	if (byte_len < ISER_HDRS_LEN)
		pr_err_ratelimited("%pISpc: malformed PDU from the target: %u bytes, shorter than the headers; failing the connection\n",
				   dst, byte_len);
	else if ((pdu->iser_flags & ISER_OPCODE_MASK) != ISER_OPCODE_CTRL)
		pr_err_ratelimited("%pISpc: malformed PDU from the target: iSER header flags 0x%02x; failing the connection\n",
				   dst, pdu->iser_flags);
	else
		pr_err_ratelimited("%pISpc: malformed PDU from the target: opcode 0x%02x announces %u bytes of AHS and %u of data, %u received; failing the connection\n",
				   dst, pdu->opcode, pdu->ahs_len, pdu->data_len,
				   byte_len - (u32)ISER_HDRS_LEN);
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
		iser_wc_error(wc, desc == ic->login_rx.desc ? ISER_LOGIN_RX_WHAT :
							      "receive");
		return;
	}
	if (unlikely(iser_rx_stopped(ic, conn)))
		return;

	/* The headers, and what arrived of the inline part; the rest later. */
	ib_dma_sync_single_for_cpu(ibdev, desc->head.dma,
				   clamp_t(u32, wc->byte_len, ISER_HDRS_LEN,
					   ISER_RX_HEAD),
				   DMA_FROM_DEVICE);
	if (iser_rx_parse(desc->head.addr, wc->byte_len, pdu)) {
		iser_rx_malformed(ic, desc, wc->byte_len);
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
	desc->inv_task = NULL;
	if ((iser_rx_completes(desc) || (wc->wc_flags & IB_WC_WITH_INVALIDATE)) &&
	    iser_rx_invalidate(ic, conn, desc, wc))
		return;
	if (iser_rx_tmf_done(desc) && iser_rx_tmf_invalidate(ic, conn, desc))
		return;
	iser_rx_deliver(ic, conn, desc, false);
}
