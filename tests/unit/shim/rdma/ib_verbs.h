/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host shim: the verbs types and helpers rdi_core's MR and SCSI-limit code
 * uses, with the kernel's field names, types and constant values. The key
 * helpers behave as the kernel's: ib_inc_rkey() moves the low byte of a key
 * on by one, wrapping within it; ib_update_fast_reg_key() replaces the low
 * byte of both keys of an MR. ib_map_mr_sg() is the test's to define.
 */
#ifndef SHIM_RDMA_IB_VERBS_H
#define SHIM_RDMA_IB_VERBS_H

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/scatterlist.h>

struct ib_cq;
struct ib_pd;
struct ib_event;

/*
 * @max_seg_size: what ib_dma_max_seg_size() reports (the kernel asks the
 * DMA device)
 */
struct ib_device {
	struct device	dev;
	unsigned int	max_seg_size;
};

struct ib_qp {
	struct ib_device	*device;
	u32			qp_num;
	struct list_head	rdma_mrs;
	int			mrs_used;
};

enum ib_mr_type {
	IB_MR_TYPE_MEM_REG,
	IB_MR_TYPE_SG_GAPS,
	IB_MR_TYPE_DM,
	IB_MR_TYPE_USER,
	IB_MR_TYPE_DMA,
	IB_MR_TYPE_INTEGRITY,
};

struct ib_mr {
	u32			lkey;
	u32			rkey;
	u64			iova;
	u64			length;
	unsigned int		page_size;
	enum ib_mr_type		type;
	struct list_head	qp_entry;
};

enum ib_access_flags {
	IB_ACCESS_LOCAL_WRITE = 1,
	IB_ACCESS_REMOTE_WRITE = 2,
	IB_ACCESS_REMOTE_READ = 4,
};

enum ib_wc_status {
	IB_WC_SUCCESS,
	IB_WC_LOC_LEN_ERR,
	IB_WC_LOC_QP_OP_ERR,
	IB_WC_LOC_EEC_OP_ERR,
	IB_WC_LOC_PROT_ERR,
	IB_WC_WR_FLUSH_ERR,
};

struct ib_wc;

struct ib_cqe {
	void (*done)(struct ib_cq *cq, struct ib_wc *wc);
};

struct ib_wc {
	union {
		u64		wr_id;
		struct ib_cqe	*wr_cqe;
	};
	enum ib_wc_status	status;
	u32			vendor_err;
	struct ib_qp		*qp;
};

enum ib_wr_opcode {
	IB_WR_RDMA_WRITE = 0,
	IB_WR_SEND = 2,
	IB_WR_LOCAL_INV = 7,
	IB_WR_REG_MR = 0x20,
};

enum ib_send_flags {
	IB_SEND_FENCE = 1 << 0,
	IB_SEND_SIGNALED = 1 << 1,
};

struct ib_send_wr {
	struct ib_send_wr	*next;
	union {
		u64		wr_id;
		struct ib_cqe	*wr_cqe;
	};
	int			num_sge;
	enum ib_wr_opcode	opcode;
	int			send_flags;
	union {
		__be32		imm_data;
		u32		invalidate_rkey;
	} ex;
};

struct ib_reg_wr {
	struct ib_send_wr	wr;
	struct ib_mr		*mr;
	u32			key;
	int			access;
};

int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size);

static inline u32 ib_inc_rkey(u32 rkey)
{
	return (rkey & ~0xffU) | ((rkey + 1) & 0xff);
}

static inline void ib_update_fast_reg_key(struct ib_mr *mr, u8 newkey)
{
	mr->lkey = (mr->lkey & ~0xffU) | newkey;
	mr->rkey = (mr->rkey & ~0xffU) | newkey;
}

static inline unsigned int ib_dma_max_seg_size(struct ib_device *dev)
{
	return dev->max_seg_size;
}

#endif
