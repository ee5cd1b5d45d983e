/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host shim: the MR pool API (drivers/infiniband/core/mr_pool.c). A test
 * using it defines the functions, e.g. as a pool of its own MRs on
 * @qp->rdma_mrs that counts them in @qp->mrs_used like the kernel's.
 */
#ifndef SHIM_RDMA_MR_POOL_H
#define SHIM_RDMA_MR_POOL_H

#include <rdma/ib_verbs.h>

struct ib_mr *ib_mr_pool_get(struct ib_qp *qp, struct list_head *list);
void ib_mr_pool_put(struct ib_qp *qp, struct list_head *list,
		    struct ib_mr *mr);
int ib_mr_pool_init(struct ib_qp *qp, struct list_head *list, int nr,
		    enum ib_mr_type type, u32 max_num_sg, u32 max_num_meta_sg);
void ib_mr_pool_destroy(struct ib_qp *qp, struct list_head *list);

#endif
