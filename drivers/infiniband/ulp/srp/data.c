// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: data buffer mapping - the ladder from cheapest to most general.
 *
 *  1. no data:          no descriptor at all;
 *  2. immediate data:   small writes travel inside the SRP_CMD SEND, the
 *                       data as extra SGEs (no registration, no RDMA READ);
 *  3. single direct:    one contiguous buffer described with the PD's
 *                       global rkey (register_always=N);
 *  4. fast registration: one or more MRs from the QP's pool, the REG_MR
 *                       work requests chained in front of the SEND; one MR
 *                       gives a direct descriptor, several an indirect one;
 *  5. indirect table:   without registration (never_register=Y), one
 *                       descriptor per DMA segment under the global rkey.
 *
 * srp_map_via() picks between registration and the global rkey. The global
 * rkey belongs to a PD that SRP allocates only when never_register=Y or
 * register_always=N (client.c); otherwise it is 0 and every command that
 * does not fit in immediate data is registered.
 *
 * The host's limits (target.c) guarantee that every request fits in
 * @max_desc descriptors. Up to @cmd_sg_cnt of them the table lives inside
 * the SRP_CMD; beyond (allow_ext_sg only) the IU holds the first ones and
 * the target reads the rest from an external table (ext_table.c). Only
 * formats the target announced in SRP_LOGIN_RSP are used (@ch->buf_fmt):
 * one descriptor goes out direct, or as a one-entry indirect table to a
 * target that takes only indirect ones. A direct-only target gets a host
 * sized for one descriptor per command (srp_target_size_direct()); login
 * refuses any IT IU length that cannot hold @cmd_sg_cnt descriptors
 * (srp_check_login_rsp()).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/error-injection.h>
#include <linux/scatterlist.h>
#include <scsi/scsi_host.h>

#include "device.h"
#include "data.h"
#include "ext_table.h"

/*
 * What the target may do with a command's registered data: read what the
 * command writes, write what it reads, nothing more.
 */
static int srp_mr_access(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_TO_DEVICE:
		return IB_ACCESS_REMOTE_READ;
	case DMA_FROM_DEVICE:
		return IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	default:
		return IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
		       IB_ACCESS_REMOTE_WRITE;
	}
}

static void srp_set_fmt(struct srp_iu_cmd *cmd, enum dma_data_direction dir,
			u8 fmt, u8 count)
{
	if (dir == DMA_TO_DEVICE) {
		cmd->buf_fmt = fmt << 4;
		cmd->data_out_desc_cnt = count;
	} else {
		cmd->buf_fmt = fmt;
		cmd->data_in_desc_cnt = count;
	}
}

static bool srp_can_imm(struct srp_channel *ch, struct scsi_cmnd *scmnd,
			int count)
{
	u32 len = scsi_bufflen(scmnd);

	return scmnd->sc_data_direction == DMA_TO_DEVICE &&
	       ch->use_imm_data && len <= ch->max_imm_data &&
	       SRP_IMM_DATA_OFFSET + len <= ch->max_it_iu_len &&
	       count <= SRP_MAX_IMM_SGE &&
	       count + 1 <= ch->target->host->sdev->rdi->max_sge;
}

static int srp_map_imm(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		       struct srp_request *req, struct srp_iu_cmd *cmd,
		       unsigned int desc_off, int count)
{
	struct srp_iu *iu = req->iu;
	struct scatterlist *sg;
	int i;

	srp_set_imm((struct srp_imm_desc *)((u8 *)cmd + desc_off),
		    scsi_bufflen(scmnd));
	for_each_sg(scsi_sglist(scmnd), sg, count, i) {
		iu->sge[i + 1].addr = sg_dma_address(sg);
		iu->sge[i + 1].length = sg_dma_len(sg);
		iu->sge[i + 1].lkey = ch->pd->local_dma_lkey;
	}
	iu->num_sge = count + 1;
	srp_set_fmt(cmd, scmnd->sc_data_direction, SRP_DESC_IMM, 0);
	rdi_stat_add(&ch->stats, RDI_STAT_IMM, 1);
	return SRP_IMM_DATA_OFFSET;
}

/* Register the whole scatterlist with as few MRs as the pool allows. */
static int srp_map_fr(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		      struct srp_request *req, int count,
		      struct ib_send_wr **reg_wrs)
{
	struct srp_target *target = ch->target;
	unsigned int page_size = target->host->sdev->rdi->mr_page_size;
	struct scatterlist *sg = scsi_sglist(scmnd);
	unsigned int offset = 0;
	int left = count, n, i;

	while (left) {
		if (req->nregs == target->mr_per_cmd)
			return -EINVAL;
		n = rdi_reg_sg(ch->queue.qp, &req->regs[req->nregs], sg, left,
			       &offset, page_size,
			       srp_mr_access(scmnd->sc_data_direction));
		if (n < 0)
			return n;
		if (req->nregs)
			req->regs[req->nregs - 1].reg_wr.wr.next =
				&req->regs[req->nregs].reg_wr.wr;
		req->nregs++;
		left -= n;
		for (i = 0; i < n; i++)
			sg = sg_next(sg);
	}
	*reg_wrs = &req->regs[0].reg_wr.wr;
	rdi_stat_add(&ch->stats, RDI_STAT_REGS, req->nregs);
	return 0;
}

static int srp_write_descs(struct srp_channel *ch, struct scsi_cmnd *scmnd,
			   struct srp_request *req, struct srp_iu_cmd *cmd,
			   unsigned int desc_off, int count,
			   struct ib_send_wr **reg_wrs)
{
	enum dma_data_direction dir = scmnd->sc_data_direction;
	u32 rkey = ch->target->host->sdev->global_rkey;
	void *desc = (u8 *)cmd + desc_off;
	struct srp_indirect_desc *ind = desc;
	struct scatterlist *sg;
	unsigned int i, ndesc = req->nregs ? req->nregs : count;
	int ret;

	if (ndesc == 1 && ch->buf_fmt & SRP_BUF_FMT_DIRECT) {
		if (req->nregs)
			srp_set_direct(desc, req->regs[0].mr->iova,
				       req->regs[0].mr->rkey,
				       req->regs[0].mr->length);
		else
			srp_set_direct(desc, sg_dma_address(scsi_sglist(scmnd)),
				       rkey, sg_dma_len(scsi_sglist(scmnd)));
		srp_set_fmt(cmd, dir, SRP_DESC_DIRECT, 1);
		return desc_off + sizeof(struct srp_direct_desc);
	}

	if (ndesc > ch->target->cmd_sg_cnt) {
		ret = srp_ext_table_fill(ch, scmnd, req, ind, count, reg_wrs);
		if (ret < 0)
			return ret;
		srp_set_fmt(cmd, dir, SRP_DESC_INDIRECT, ret);
		return desc_off + sizeof(*ind) +
		       ret * sizeof(struct srp_direct_desc);
	}
	if (req->nregs) {
		for (i = 0; i < ndesc; i++)
			srp_set_direct(&ind->list[i], req->regs[i].mr->iova,
				       req->regs[i].mr->rkey,
				       req->regs[i].mr->length);
	} else {
		for_each_sg(scsi_sglist(scmnd), sg, count, i)
			srp_set_direct(&ind->list[i], sg_dma_address(sg), rkey,
				       sg_dma_len(sg));
	}
	srp_set_indirect(ind, req->iu->buf.dma + desc_off +
			 sizeof(struct srp_indirect_desc), rkey, ndesc,
			 scsi_bufflen(scmnd));
	srp_set_fmt(cmd, dir, SRP_DESC_INDIRECT, ndesc);
	return desc_off + sizeof(*ind) + ndesc * sizeof(struct srp_direct_desc);
}

/**
 * srp_map_data() - DMA-map a command's data and describe it in the SRP_CMD
 * @ch:       channel the command goes out on
 * @scmnd:    the command
 * @req:      its private data; @req->iu holds the SRP_CMD
 * @cmd:      the SRP_CMD header in @req->iu
 * @desc_off: offset in the IU where descriptors start
 * @reg_wrs:  set to the chain of work requests to post before the SEND,
 *            or NULL: the registrations, behind a LOCAL_INV of the first
 *            MR's previous key on a device that replays local work
 *            requests
 *
 * The LOCAL_INV in front costs a work request and a wait, and buys the
 * order a device that replays local work requests needs
 * (rdi_reg_inv_prev_wr()). Submitters of one channel post side by side,
 * so unlike ib_iser this cannot tell whether a SEND is unacknowledged
 * ahead of it, and on such a device always chains it.
 *
 * Return: the length of the IU to send (> 0), -EAGAIN when registration
 * resources are exhausted (retry later), or another negative errno. On
 * error nothing stays mapped and every MR's key is the one the device
 * knows.
 */
int srp_map_data(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		 struct srp_request *req, struct srp_iu_cmd *cmd,
		 unsigned int desc_off, struct ib_send_wr **reg_wrs)
{
	struct srp_target *target = ch->target;
	struct srp_device *sdev = target->host->sdev;
	enum dma_data_direction dir = scmnd->sc_data_direction;
	int count, ret;

	*reg_wrs = NULL;
	req->nregs = 0;
	req->sg_count = 0;
	if (!scsi_sglist(scmnd) || dir == DMA_NONE || !scsi_bufflen(scmnd))
		return desc_off;
	if (dir != DMA_TO_DEVICE && dir != DMA_FROM_DEVICE)
		return -EINVAL;

	count = ib_dma_map_sg(sdev->ib_dev, scsi_sglist(scmnd),
			      scsi_sg_count(scmnd), dir);
	if (unlikely(!count))
		return -EIO;
	req->sg_count = count;

	if (srp_can_imm(ch, scmnd, count))
		return srp_map_imm(ch, scmnd, req, cmd, desc_off, count);

	switch (srp_map_via(sdev->use_fr, sdev->register_always,
			    sdev->global_rkey, count)) {
	case SRP_MAP_VIA_FR:
		ret = srp_map_fr(ch, scmnd, req, count, reg_wrs);
		if (ret)
			goto err_unmap;
		break;
	case SRP_MAP_VIA_GLOBAL_RKEY:
		break;
	default:
		ret = -EINVAL;
		goto err_unmap;
	}

	ret = srp_write_descs(ch, scmnd, req, cmd, desc_off, count, reg_wrs);
	if (ret < 0)
		goto err_unmap;
	if (req->nregs && sdev->rdi->replays_local_wrs)
		*reg_wrs = rdi_reg_inv_prev_wr(&req->regs[0]);
	return ret;

err_unmap:
	srp_cancel_data(ch, scmnd, req);
	*reg_wrs = NULL;
	return ret;
}

/**
 * srp_inv_data() - invalidate the registrations of a command's data
 * @ch:  channel the command went out on; its QP exists
 * @req: the command's private data, holding @req->nregs > 0 registrations
 *
 * Posts one LOCAL_INV per MR in one chain; only the last is signaled, with
 * @req->inv_cqe: send queue work requests complete in order, and a failure
 * of an earlier one puts the QP in the error state, which flushes the last.
 * Either way, once @req->inv_cqe completes the target can no longer reach
 * the MRs (channel.c: the QP's PD is the channel's own).
 *
 * The debug lab makes it fail (fail_function; ALLOW_ERROR_INJECTION()),
 * as no device there refuses the post.
 *
 * Return: 0 when @req->inv_cqe will complete, or the error of
 * ib_post_send(), when nothing was posted.
 */
int srp_inv_data(struct srp_channel *ch, struct srp_request *req)
{
	struct ib_send_wr *first = NULL, *prev = NULL, *wr;
	unsigned int i;
	int ret;

	for (i = 0; i < req->nregs; i++) {
		wr = rdi_reg_inv_wr(&req->regs[i],
				    i + 1 == req->nregs ? &req->inv_cqe : NULL);
		if (prev)
			prev->next = wr;
		else
			first = wr;
		prev = wr;
	}
	ret = ib_post_send(ch->queue.qp, first, NULL);
	if (!ret)
		rdi_stat_add(&ch->stats, RDI_STAT_INVS, req->nregs);
	return ret;
}

ALLOW_ERROR_INJECTION(srp_inv_data, ERRNO);

static void srp_unmap_sg(struct srp_channel *ch, struct scsi_cmnd *scmnd,
			 struct srp_request *req)
{
	if (!req->sg_count)
		return;
	ib_dma_unmap_sg(ch->target->host->sdev->ib_dev, scsi_sglist(scmnd),
			scsi_sg_count(scmnd), scmnd->sc_data_direction);
	req->sg_count = 0;
}

/**
 * srp_cancel_data() - undo srp_map_data() for a command never posted
 * @ch:    channel the command was mapped for
 * @scmnd: the command
 * @req:   its private data
 *
 * Puts each MR's key back to the one the device knows (rdi_reg_cancel()),
 * so that the LOCAL_INV of the previous key in front of the MR's next
 * registration names it, and unmaps the data.
 */
void srp_cancel_data(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		     struct srp_request *req)
{
	unsigned int i;

	for (i = 0; i < req->nregs; i++)
		rdi_reg_cancel(ch->queue.qp, &req->regs[i]);
	req->nregs = 0;
	srp_unmap_sg(ch, scmnd, req);
}

/**
 * srp_unmap_data() - give back a command's MRs and unmap its data
 * @ch:    channel the command went out on
 * @scmnd: the command
 * @req:   its private data
 *
 * Only for data the target can no longer reach: registrations posted and
 * invalidated since (srp_inv_data()), or flushed with the QP.
 */
void srp_unmap_data(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		    struct srp_request *req)
{
	unsigned int i;

	for (i = 0; i < req->nregs; i++)
		rdi_reg_release(ch->queue.qp, &req->regs[i]);
	req->nregs = 0;
	srp_unmap_sg(ch, scmnd, req);
}
