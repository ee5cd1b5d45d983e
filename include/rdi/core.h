/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdi_core: RDMA plumbing shared by the SRP and iSER initiators.
 *
 * This header is the RDMA half of the API between rdi_core.ko and its two
 * users (the SCSI half is <rdi/scsi.h>). It covers what both initiators
 * need identically and nothing else:
 *
 *  - a per-ib_device cache holding the protection domain and the device's
 *    memory-registration capabilities (struct rdi_device);
 *  - kernel buffers DMA-mapped once and reused for every work request
 *    (struct rdi_buf), the stuff of send and receive rings;
 *  - fast-registration helpers that turn a DMA-mapped scatterlist into a
 *    chained IB_WR_REG_MR work request using an MR from the QP's own
 *    ib_mr_pool, and the matching IB_WR_LOCAL_INV;
 *  - a queue pair with the completion queues it reports to, sized for the
 *    owner's work requests and the one ib_drain_qp() adds (struct
 *    rdi_queue), and its teardown;
 *  - the log line of a failed work completion (rdi_wc_log());
 *  - per-connection I/O counters (struct rdi_stats) with one debugfs
 *    file format, so the files look the same for SRP channels and iSER
 *    connections.
 *
 * Connections come from rdma_cm or ib_cm directly: the initiators use those
 * kernel APIs as they are.
 *
 * How an initiator uses it:
 *
 *  1. rdi_device_get() when it first needs a device (ib_client .add or a
 *     resolved rdma_cm_id), rdi_device_put() from .remove at the latest;
 *     QPs are created on &rdi_device.pd.
 *  2. Its queue pair: rdi_queue_create() (on &rdi_device.pd or a PD of its
 *     own); rdi_queue_drain() once the QP may hold work requests and no
 *     completion is wanted any more; rdi_queue_destroy(), which also frees
 *     the MR pool and puts the CQs.
 *  3. Its send and receive buffers: rdi_buf_alloc() .. rdi_buf_free(),
 *     the latter after the QP is drained.
 *  4. After creating a QP, rdi_mr_pool_init() sized for its queue depth;
 *     rdi_mr_pool_destroy() only on the way out of a failed setup of the
 *     QP's users: rdi_queue_destroy() frees the pool with the QP.
 *  5. Per I/O: rdi_reg_sg() (repeatedly, for lists longer than one MR
 *     maps), chain each &rdi_reg.reg_wr in front of the SEND; when the I/O
 *     is done, post rdi_reg_inv_wr() unless the target invalidated the key
 *     remotely, then rdi_reg_release().
 *  6. A completion with an error status: rdi_wc_log() says so, in the
 *     words every initiator uses; what follows (recovery) is the owner's.
 *  7. Per channel/connection: rdi_stats_init() .. rdi_stats_free(),
 *     rdi_stat_add() on the I/O path, rdi_stats_debugfs_create() to show
 *     them.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef RDI_CORE_H
#define RDI_CORE_H

#include <linux/percpu.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

struct dentry;
struct rdma_cm_id;
struct seq_file;

/**
 * struct rdi_device - per-ib_device state shared by every initiator user
 * @ib_dev:        the RDMA device; a reference is held through @pd
 * @pd:            protection domain for all QPs and MRs of this device
 * @mr_page_size:  page size used for fast registration (>= 4 KiB, a power
 *                 of two supported by the device)
 * @mr_page_mask:  ~(@mr_page_size - 1)
 * @max_fr_pages:  pages one fast-registration MR can map
 * @max_sge:       send SGEs per work request the device accepts
 * @fr_supported:  device has memory-management extensions (IB_WR_REG_MR)
 * @sg_gaps:       device supports IB_MR_TYPE_SG_GAPS MRs
 * @integrity:     device supports IB_MR_TYPE_INTEGRITY (T10-PI)
 * @replays_local_wrs: the device may execute a local work request (REG_MR,
 *                 LOCAL_INV) a second time when it retransmits a send
 *                 queued before it; see rdi_reg_inv_prev_wr()
 *
 * Lifetime: created by the first rdi_device_get() for an ib_device and freed
 * by the last rdi_device_put(). Users must drop their reference from their
 * ib_client .remove callback at the latest. Every field is constant after
 * creation; the reference count lives inside rdi_core.
 */
struct rdi_device {
	struct ib_device	*ib_dev;
	struct ib_pd		*pd;
	unsigned int		mr_page_size;
	u64			mr_page_mask;
	u32			max_fr_pages;
	u32			max_sge;
	bool			fr_supported;
	bool			sg_gaps;
	bool			integrity;
	bool			replays_local_wrs;
};

struct rdi_device *rdi_device_get(struct ib_device *ib_dev);
void rdi_device_put(struct rdi_device *dev);

/**
 * struct rdi_buf - a kernel buffer DMA-mapped on one RDMA device
 * @addr: kernel address; NULL while the buffer is not allocated
 * @dma:  DMA address of @addr
 * @size: bytes at @addr
 * @dir:  direction of the mapping
 *
 * The owner syncs it for the CPU after a receive completes and for the
 * device before it posts the buffer again.
 */
struct rdi_buf {
	void			*addr;
	u64			dma;
	u32			size;
	enum dma_data_direction	dir;
};

int rdi_buf_alloc(struct ib_device *dev, struct rdi_buf *buf, u32 size,
		  enum dma_data_direction dir);
void rdi_buf_free(struct ib_device *dev, struct rdi_buf *buf);

int rdi_mr_pool_init(struct rdi_device *dev, struct ib_qp *qp, int nr,
		     u32 max_pages);
void rdi_mr_pool_destroy(struct ib_qp *qp);

/**
 * struct rdi_reg - one fast registration of a scatterlist
 * @mr:     MR taken from the QP's pool, NULL when none is held
 * @reg_wr: IB_WR_REG_MR work request; chain it before the SEND that
 *          advertises @mr->rkey
 * @inv_wr: IB_WR_LOCAL_INV work request for @mr, built by rdi_reg_inv_wr()
 */
struct rdi_reg {
	struct ib_mr		*mr;
	struct ib_reg_wr	reg_wr;
	struct ib_send_wr	inv_wr;
};

int rdi_reg_sg(struct ib_qp *qp, struct rdi_reg *reg, struct scatterlist *sg,
	       int sg_nents, unsigned int *sg_offset, unsigned int page_size,
	       int access);
struct ib_send_wr *rdi_reg_inv_wr(struct rdi_reg *reg, struct ib_cqe *cqe);
struct ib_send_wr *rdi_reg_inv_prev_wr(struct rdi_reg *reg);
void rdi_reg_cancel(struct ib_qp *qp, struct rdi_reg *reg);
void rdi_reg_release(struct ib_qp *qp, struct rdi_reg *reg);

/* Work requests ib_drain_qp() posts to each queue of a QP. */
#define RDI_DRAIN_WRS	1

/**
 * enum rdi_cq_mode - where the completions of an rdi_queue go
 * @RDI_CQ_POOL:      one CQ from the device's pool for sends and receives,
 *                    IB_POLL_SOFTIRQ
 * @RDI_CQ_POOL_RECV: receives on a CQ from the pool, sends on a CQ of the
 *                    queue's own, both IB_POLL_SOFTIRQ: send completions
 *                    are not held up behind other QPs' receives
 * @RDI_CQ_DIRECT:    one CQ of the queue's own for sends and receives,
 *                    IB_POLL_DIRECT (the pool has none): no interrupt, the
 *                    owner reaps it with ib_process_cq_direct()
 */
enum rdi_cq_mode {
	RDI_CQ_POOL,
	RDI_CQ_POOL_RECV,
	RDI_CQ_DIRECT,
};

/**
 * struct rdi_queue_attr - what rdi_queue_create() builds
 * @cq_mode:       the CQs, see enum rdi_cq_mode
 * @comp_vector:   completion vector of the CQs; -1 lets the pool choose
 *                 (RDI_CQ_POOL only)
 * @send_wrs:      send work requests the owner may have posted at once
 * @recv_wrs:      receive work requests the owner may have posted at once
 * @max_send_sge:  SGEs per send work request
 * @max_recv_sge:  SGEs per receive work request
 * @port_num:      port of a QP created without an rdma_cm_id
 * @event_handler: the QP's asynchronous events, or NULL
 * @context:       &ib_qp.qp_context, and the context of a CQ of its own
 *
 * rdi_queue_create() adds RDI_DRAIN_WRS to each queue and makes every CQ
 * as large as the queues whose completions it takes.
 */
struct rdi_queue_attr {
	enum rdi_cq_mode	cq_mode;
	int			comp_vector;
	u32			send_wrs;
	u32			recv_wrs;
	u32			max_send_sge;
	u32			max_recv_sge;
	u32			port_num;
	void			(*event_handler)(struct ib_event *ev,
						 void *context);
	void			*context;
};

/**
 * struct rdi_queue - an RC queue pair and the CQs it completes on
 * @qp:       the QP; NULL before rdi_queue_create() succeeds and from the
 *            start of rdi_queue_destroy() (written with WRITE_ONCE(), so
 *            an owner may test it locklessly for "has a QP")
 * @send_cq:  CQ of the send queue
 * @recv_cq:  CQ of the receive queue; the same as @send_cq unless
 *            RDI_CQ_POOL_RECV
 * @pool_cqe: entries @recv_cq holds for this queue when it came from the
 *            pool, 0 when it is the queue's own
 *
 * The owner embeds it zeroed; it needs no other initialisation.
 */
struct rdi_queue {
	struct ib_qp		*qp;
	struct ib_cq		*send_cq;
	struct ib_cq		*recv_cq;
	u32			pool_cqe;
};

int rdi_queue_create(struct rdi_queue *q, struct ib_pd *pd,
		     struct rdma_cm_id *cm_id,
		     const struct rdi_queue_attr *attr);
void rdi_queue_drain(struct rdi_queue *q);
void rdi_queue_destroy(struct rdi_queue *q, struct rdma_cm_id *cm_id);

void rdi_wc_log(struct device *dev, const char *who, const char *what,
		const struct ib_wc *wc);

/**
 * enum rdi_stat - counters kept per SRP channel / iSER connection
 * @RDI_STAT_CMDS:          SCSI commands submitted
 * @RDI_STAT_CMDS_DONE:     SCSI commands completed
 * @RDI_STAT_READ_BYTES:    bytes read by completed commands
 * @RDI_STAT_WRITE_BYTES:   bytes written by completed commands
 * @RDI_STAT_REGS:          fast registrations posted
 * @RDI_STAT_INVS:          local invalidations posted
 * @RDI_STAT_REMOTE_INVS:   invalidations done by the target
 * @RDI_STAT_IMM:           writes sent as immediate data
 * @RDI_STAT_CREDIT_STALLS: submissions refused for lack of credit
 * @RDI_STAT_ERRORS:        failed completions and protocol errors
 * @RDI_STAT_KEEPALIVES:    keep-alive probes sent (SRP)
 * @RDI_STAT_NR:            number of counters
 */
enum rdi_stat {
	RDI_STAT_CMDS,
	RDI_STAT_CMDS_DONE,
	RDI_STAT_READ_BYTES,
	RDI_STAT_WRITE_BYTES,
	RDI_STAT_REGS,
	RDI_STAT_INVS,
	RDI_STAT_REMOTE_INVS,
	RDI_STAT_IMM,
	RDI_STAT_CREDIT_STALLS,
	RDI_STAT_ERRORS,
	RDI_STAT_KEEPALIVES,
	RDI_STAT_NR
};

/**
 * struct rdi_stats - per-CPU counters of one channel or connection
 * @pcpu:      one array of RDI_STAT_NR counters per CPU
 * @show_more: NULL, or what the debugfs file shows after the counters
 *             (rdi_stats_debugfs_create())
 *
 * Updated locklessly with rdi_stat_add() from any context; read by summing
 * over CPUs, so a read is not a snapshot. Reset by writing to the debugfs
 * file or the owner's reset attribute, which calls rdi_stats_reset().
 */
struct rdi_stats {
	u64 __percpu	*pcpu;
	void		(*show_more)(struct seq_file *m,
				     struct rdi_stats *stats);
};

int rdi_stats_init(struct rdi_stats *stats);
void rdi_stats_free(struct rdi_stats *stats);
void rdi_stats_reset(struct rdi_stats *stats);
u64 rdi_stats_read(const struct rdi_stats *stats, enum rdi_stat which);
struct dentry *rdi_stats_debugfs_create(const char *name,
					struct dentry *parent,
					struct rdi_stats *stats,
					void (*show_more)(struct seq_file *m,
							  struct rdi_stats *stats));

/**
 * rdi_stat_add() - add to one counter on the local CPU
 * @stats: counters set up by rdi_stats_init()
 * @which: the counter
 * @val:   amount
 *
 * Lockless and safe from any context, including hard interrupts.
 */
static inline void rdi_stat_add(struct rdi_stats *stats, enum rdi_stat which,
				u64 val)
{
	this_cpu_add(stats->pcpu[which], val);
}

const char *rdi_stat_name(enum rdi_stat which);

#endif /* RDI_CORE_H */
