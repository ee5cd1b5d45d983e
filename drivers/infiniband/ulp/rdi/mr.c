// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core: fast registration over the QP's own MR pool.
 *
 * MRs live in the ib_mr_pool list of the QP they are used on
 * (qp->rdma_mrs), created with the QP and destroyed before it.
 * A registration takes one MR from the pool, gives it a fresh key, maps a
 * scatterlist into it and prepares the IB_WR_REG_MR work request that the
 * caller chains in front of the SEND advertising the key. After the I/O the
 * caller posts rdi_reg_inv_wr() (or accepts the target's remote
 * invalidation) and returns the MR with rdi_reg_release().
 *
 * Locking: ib_mr_pool_get/put serialise on qp->mr_lock, so all helpers here
 * may be called from any context, concurrently for different &struct rdi_reg.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/module.h>
#include <rdma/mr_pool.h>
#include <rdi/core.h>

/*
 * A failed work request completes even when it was posted unsignaled, and
 * the CQ then calls its wr_cqe: never leave that NULL. These catch-alls log
 * the failure; the QP is in error by then and the owner's own completions
 * (flushed SENDs and RECVs) start its recovery.
 */
static void rdi_wr_failed(struct ib_wc *wc, const char *what)
{
	char who[16];

	if (wc->status == IB_WC_SUCCESS || wc->status == IB_WC_WR_FLUSH_ERR)
		return;
	snprintf(who, sizeof(who), "QP %u", wc->qp->qp_num);
	rdi_wc_log(&wc->qp->device->dev, who, what, wc);
}

static void rdi_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	rdi_wr_failed(wc, "memory registration");
}

static void rdi_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	rdi_wr_failed(wc, "local invalidation");
}

static struct ib_cqe rdi_reg_cqe = { .done = rdi_reg_done };
static struct ib_cqe rdi_inv_cqe = { .done = rdi_inv_done };

/* The key before @rkey: ib_inc_rkey() undone. */
static u32 rdi_prev_rkey(u32 rkey)
{
	return (rkey & 0xffffff00) | ((rkey - 1) & 0xff);
}

/**
 * rdi_mr_pool_init() - create the MRs a QP registers memory with
 * @dev:       device of @qp
 * @qp:        the QP; its pool lives as long as it does
 * @nr:        number of MRs
 * @max_pages: pages each MR maps, at most @dev->max_fr_pages
 *
 * The MRs are IB_MR_TYPE_SG_GAPS when @dev supports them, else
 * IB_MR_TYPE_MEM_REG. Call after creating @qp and before posting on it;
 * destroy with rdi_mr_pool_destroy() before destroying @qp. May sleep.
 *
 * Return: 0, -EOPNOTSUPP if @dev cannot do fast registration, -EINVAL for
 * a bad size, or the error of ib_mr_pool_init().
 */
int rdi_mr_pool_init(struct rdi_device *dev, struct ib_qp *qp, int nr,
		     u32 max_pages)
{
	if (!dev->fr_supported)
		return -EOPNOTSUPP;
	if (nr <= 0 || !max_pages || max_pages > dev->max_fr_pages)
		return -EINVAL;

	return ib_mr_pool_init(qp, &qp->rdma_mrs, nr,
			       dev->sg_gaps ? IB_MR_TYPE_SG_GAPS :
					      IB_MR_TYPE_MEM_REG,
			       max_pages, 0);
}
EXPORT_SYMBOL_GPL(rdi_mr_pool_init);

/**
 * rdi_mr_pool_destroy() - free the MRs created by rdi_mr_pool_init()
 * @qp: the QP, drained, with every MR returned to the pool
 *
 * Safe to call for a pool that was never created.
 */
void rdi_mr_pool_destroy(struct ib_qp *qp)
{
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
}
EXPORT_SYMBOL_GPL(rdi_mr_pool_destroy);

/**
 * rdi_reg_sg() - register (part of) a DMA-mapped scatterlist
 * @qp:        QP whose pool provides the MR
 * @reg:       registration state; @reg->mr must be NULL
 * @sg:        first element to map
 * @sg_nents:  elements from @sg on
 * @sg_offset: in: byte offset into @sg where mapping starts (NULL for 0);
 *             out: offset into the first element not mapped, see
 *             ib_map_mr_sg()
 * @page_size: registration page size, normally &rdi_device.mr_page_size
 * @access:    IB_ACCESS_* rights granted to the peer
 *
 * On success @reg->reg_wr is an unsignaled IB_WR_REG_MR with @next cleared
 * and a @wr_cqe that logs a failure (the caller may point it at its own
 * error handler): chain it before the SEND that carries @reg->mr->rkey,
 * @reg->mr->iova and @reg->mr->length.
 *
 * An MR maps at most its pool's page count and stops at a gap it cannot
 * span, so fewer than @sg_nents elements may be consumed: call again with a
 * new &struct rdi_reg from element @sg + return value, at the offset left
 * in *@sg_offset. Callers passing a NULL @sg_offset cannot resume and must
 * treat a short count as failure.
 *
 * Return: number of scatterlist elements mapped completely (>= 0: the MR
 * may also hold the leading part of the next element, up to the offset left
 * in *@sg_offset, so 0 is progress too), -EAGAIN when the pool is empty
 * (the caller should ask the SCSI midlayer to retry), or another negative
 * errno; on error no MR is held.
 */
int rdi_reg_sg(struct ib_qp *qp, struct rdi_reg *reg, struct scatterlist *sg,
	       int sg_nents, unsigned int *sg_offset, unsigned int page_size,
	       int access)
{
	struct ib_mr *mr;
	int n;

	if (WARN_ON_ONCE(reg->mr))
		return -EINVAL;

	mr = ib_mr_pool_get(qp, &qp->rdma_mrs);
	if (!mr)
		return -EAGAIN;

	/*
	 * A new key per use: a late access through the old one must fail.
	 * The key byte only ever moves on by one per registration posted, so
	 * the device's key is always the one before (rdi_reg_inv_prev_wr()).
	 */
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));

	n = ib_map_mr_sg(mr, sg, sg_nents, sg_offset, page_size);
	if (unlikely(n < 0 || !mr->length)) {
		ib_update_fast_reg_key(mr, rdi_prev_rkey(mr->rkey));
		ib_mr_pool_put(qp, &qp->rdma_mrs, mr);
		return n < 0 ? n : -EINVAL;
	}

	reg->mr = mr;
	memset(&reg->reg_wr, 0, sizeof(reg->reg_wr));
	reg->reg_wr.wr.opcode = IB_WR_REG_MR;
	reg->reg_wr.wr.wr_cqe = &rdi_reg_cqe;
	reg->reg_wr.mr = mr;
	reg->reg_wr.key = mr->rkey;
	reg->reg_wr.access = access;
	return n;
}
EXPORT_SYMBOL_GPL(rdi_reg_sg);

/**
 * rdi_reg_inv_wr() - build the local invalidation of a registration
 * @reg: registration holding an MR
 * @cqe: completion to signal, or NULL for an unsignaled work request
 *       whose failure is only logged (the caller may still point
 *       @wr_cqe at its own error handler)
 *
 * Return: @reg->inv_wr, an IB_WR_LOCAL_INV for @reg->mr->rkey with @next
 * cleared, ready to be chained or posted.
 */
struct ib_send_wr *rdi_reg_inv_wr(struct rdi_reg *reg, struct ib_cqe *cqe)
{
	struct ib_send_wr *wr = &reg->inv_wr;

	memset(wr, 0, sizeof(*wr));
	wr->opcode = IB_WR_LOCAL_INV;
	wr->ex.invalidate_rkey = reg->mr->rkey;
	wr->wr_cqe = cqe ? cqe : &rdi_inv_cqe;
	wr->send_flags = cqe ? IB_SEND_SIGNALED : 0;
	return wr;
}
EXPORT_SYMBOL_GPL(rdi_reg_inv_wr);

/**
 * rdi_reg_inv_prev_wr() - chain a local invalidation of the key an MR had
 *	before in front of its registration
 * @reg: registration rdi_reg_sg() prepared, not posted yet
 *
 * The LOCAL_INV names the key the device last registered the MR with (or
 * its first key): the MR is invalid by then, so it changes nothing but the
 * order. That order is what a device that replays local work requests
 * needs (&rdi_device.replays_local_wrs): soft-RoCE (6.1 and 6.12) rewinds
 * to the oldest work request not yet retired when it retransmits and
 * executes the local work requests (REG_MR, LOCAL_INV) from there again,
 * and a second REG_MR of a valid MR fails ("rxe_reg_fast_mr: ... not
 * free") and silently stops the send queue. It holds a LOCAL_INV back
 * until every earlier work request has completed, so a REG_MR behind one
 * is never behind an unacknowledged send. Each use costs the wait for
 * those acknowledgements: callers chain it only on such a device, and only
 * when a send may be unacknowledged ahead of the registration.
 *
 * Every registration of the MR rdi_reg_sg() prepared before must have been
 * posted or given back with rdi_reg_cancel(): the device's key is then the
 * one before @reg's.
 *
 * Return: @reg->inv_wr, unsignaled, its failure logged (the caller may
 * point @wr_cqe at its own error handler), with @next pointing to
 * @reg->reg_wr: post it instead of @reg->reg_wr.
 */
struct ib_send_wr *rdi_reg_inv_prev_wr(struct rdi_reg *reg)
{
	struct ib_send_wr *wr = &reg->inv_wr;

	memset(wr, 0, sizeof(*wr));
	wr->opcode = IB_WR_LOCAL_INV;
	wr->ex.invalidate_rkey = rdi_prev_rkey(reg->mr->rkey);
	wr->wr_cqe = &rdi_inv_cqe;
	wr->next = &reg->reg_wr.wr;
	return wr;
}
EXPORT_SYMBOL_GPL(rdi_reg_inv_prev_wr);

/**
 * rdi_reg_cancel() - give back a registration that was never posted
 * @qp:  QP the MR came from
 * @reg: registration rdi_reg_sg() prepared; does nothing if it holds no MR
 *
 * Puts the MR's key back to the one the device knows, then returns the
 * MR to its pool (rdi_reg_release()).
 */
void rdi_reg_cancel(struct ib_qp *qp, struct rdi_reg *reg)
{
	if (!reg->mr)
		return;
	ib_update_fast_reg_key(reg->mr, rdi_prev_rkey(reg->mr->rkey));
	rdi_reg_release(qp, reg);
}
EXPORT_SYMBOL_GPL(rdi_reg_cancel);

/**
 * rdi_reg_release() - return a registration's MR to its pool
 * @qp:  QP the MR came from
 * @reg: registration; does nothing if it holds no MR
 *
 * Call once the MR is invalid (local invalidation completed, remote
 * invalidation seen, or the QP is drained).
 */
void rdi_reg_release(struct ib_qp *qp, struct rdi_reg *reg)
{
	if (!reg->mr)
		return;
	ib_mr_pool_put(qp, &qp->rdma_mrs, reg->mr);
	reg->mr = NULL;
}
EXPORT_SYMBOL_GPL(rdi_reg_release);
