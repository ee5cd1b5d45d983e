// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: external indirect descriptor tables (allow_ext_sg).
 *
 * An SRP_CMD has room for @cmd_sg_cnt data descriptors. A command that
 * needs more - many DMA segments without registration (never_register=Y),
 * or more fast-registration MRs than that (large max_sect) - is described
 * by an indirect descriptor whose table lives in initiator memory: the IU
 * carries only the first @cmd_sg_cnt entries and the target reads the whole
 * table with RDMA READ (SRP r16a 5.5.2). The table needs an R_Key: the
 * global rkey when SRP has one (never_register=Y, register_always=N),
 * otherwise one more fast registration, of the table itself, read-only.
 *
 * Every command owns a table of @max_desc entries, allocated and DMA-mapped
 * with its private data, only when the host was sized for external tables
 * (@max_desc > @cmd_sg_cnt, target.c). Without allow_ext_sg the host is
 * sized so that every command fits in the IU and this file is not used.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <scsi/scsi_cmnd.h>

#include "device.h"
#include "ext_table.h"

/**
 * srp_ext_table_alloc() - allocate and map a command's external table
 * @target: target the command belongs to
 * @req:    the command's private data
 *
 * Context: process context (init_cmd_priv).
 * Return: 0 or -ENOMEM.
 */
int srp_ext_table_alloc(struct srp_target *target, struct srp_request *req)
{
	struct ib_device *dev = target->host->sdev->ib_dev;
	u32 len = target->max_desc * sizeof(struct srp_direct_desc);
	u64 dma;

	if (target->max_desc <= target->cmd_sg_cnt)
		return 0;
	req->ext_table = kzalloc(len, GFP_KERNEL);
	if (!req->ext_table)
		return -ENOMEM;
	dma = ib_dma_map_single(dev, req->ext_table, len, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, dma)) {
		kfree(req->ext_table);
		req->ext_table = NULL;
		return -ENOMEM;
	}
	/* For fast registration of the table (ib_map_mr_sg() reads these). */
	sg_init_one(&req->ext_sg, req->ext_table, len);
	sg_dma_address(&req->ext_sg) = dma;
	sg_dma_len(&req->ext_sg) = len;
	return 0;
}

/**
 * srp_ext_table_free() - undo srp_ext_table_alloc()
 * @target: target the command belongs to
 * @req:    the command's private data
 */
void srp_ext_table_free(struct srp_target *target, struct srp_request *req)
{
	if (!req->ext_table)
		return;
	ib_dma_unmap_single(target->host->sdev->ib_dev,
			    sg_dma_address(&req->ext_sg),
			    sg_dma_len(&req->ext_sg), DMA_TO_DEVICE);
	kfree(req->ext_table);
	req->ext_table = NULL;
}

/*
 * Register the table for the target's RDMA READ, in the registration slot
 * after the data's MRs, chained behind their REG_MR work requests.
 */
static int srp_ext_table_reg(struct srp_channel *ch, struct srp_request *req,
			     struct ib_send_wr **reg_wrs)
{
	struct srp_target *target = ch->target;
	struct rdi_reg *reg;
	unsigned int offset = 0;
	int n;

	if (req->nregs >= target->mr_per_cmd)
		return -EINVAL;
	reg = &req->regs[req->nregs];
	n = rdi_reg_sg(ch->queue.qp, reg, &req->ext_sg, 1, &offset,
		       target->host->sdev->rdi->mr_page_size,
		       IB_ACCESS_REMOTE_READ);
	if (n < 0)
		return n;
	if (req->nregs)
		req->regs[req->nregs - 1].reg_wr.wr.next = &reg->reg_wr.wr;
	else
		*reg_wrs = &reg->reg_wr.wr;
	req->nregs++;
	rdi_stat_add(&ch->stats, RDI_STAT_REGS, 1);
	return 0;
}

/**
 * srp_ext_table_fill() - describe a command's data with an external table
 * @ch:      channel the command goes out on
 * @scmnd:   the command
 * @req:     its private data: @req->nregs data MRs, or none when the
 *           @count DMA segments go out under the global rkey
 * @ind:     the indirect descriptor in the SRP_CMD
 * @count:   DMA-mapped scatterlist entries
 * @reg_wrs: chain of REG_MR work requests, extended by the table's own
 *
 * Return: the number of descriptors copied into the IU (> 0), or a
 * negative errno (-EAGAIN when no MR is left for the table).
 */
int srp_ext_table_fill(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		       struct srp_request *req, struct srp_indirect_desc *ind,
		       int count, struct ib_send_wr **reg_wrs)
{
	struct srp_target *target = ch->target;
	struct srp_device *sdev = target->host->sdev;
	struct srp_direct_desc *table = req->ext_table;
	unsigned int i, ndesc = req->nregs ? req->nregs : count;
	u32 key = sdev->global_rkey;
	struct scatterlist *sg;
	u64 va;
	int ret;

	if (!table || ndesc > target->max_desc)
		return -EINVAL;
	va = sg_dma_address(&req->ext_sg);

	if (req->nregs) {
		for (i = 0; i < ndesc; i++)
			srp_set_direct(&table[i], req->regs[i].mr->iova,
				       req->regs[i].mr->rkey,
				       req->regs[i].mr->length);
	} else {
		for_each_sg(scsi_sglist(scmnd), sg, count, i)
			srp_set_direct(&table[i], sg_dma_address(sg), key,
				       sg_dma_len(sg));
	}
	ib_dma_sync_single_for_device(sdev->ib_dev, va,
				      ndesc * sizeof(*table), DMA_TO_DEVICE);

	if (!key) {
		ret = srp_ext_table_reg(ch, req, reg_wrs);
		if (ret)
			return ret;
		key = req->regs[req->nregs - 1].mr->rkey;
		va = req->regs[req->nregs - 1].mr->iova;
	}
	return srp_build_indirect(ind, table, ndesc, target->cmd_sg_cnt, va,
				  key, scsi_bufflen(scmnd));
}
