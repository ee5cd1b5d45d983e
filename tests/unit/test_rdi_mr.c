// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core's fast registration (rdi/mr.c) and the SCSI host limits it
 * implies (rdi/scsi.c), compiled unchanged over a pool of the test's own
 * MRs and an ib_map_mr_sg() whose result each case chooses.
 *
 * What the stale-rkey guarantees rest on: every registration moves the
 * MR's key on by one in its low byte (ib_inc_rkey()), so a late access
 * through the old key fails; a registration that is never posted (map
 * failure, rdi_reg_cancel()) puts the key back, so the device's key is
 * always the one before the MR's current key, and the LOCAL_INV that
 * rdi_reg_inv_prev_wr() chains in front of a REG_MR names exactly that
 * key, across the wrap of the low byte too.
 */
#include <errno.h>
#include <limits.h>
#include <linux/kernel.h>
#include <rdma/mr_pool.h>
#include <rdi/core.h>
#include <rdi/scsi.h>
#include <scsi/scsi_host.h>

#include "rdi_test.h"

int shim_warnings;

/* ---- the MR pool (core/mr_pool.c), over the test's MRs ---- */

/* Puts of no MR or to another list than the QP's pool. */
static int bad_puts;

struct ib_mr *ib_mr_pool_get(struct ib_qp *qp, struct list_head *list)
{
	struct ib_mr *mr;

	if (list != &qp->rdma_mrs)
		return NULL;
	mr = list_first_entry_or_null(list, struct ib_mr, qp_entry);
	if (mr) {
		list_del(&mr->qp_entry);
		qp->mrs_used++;
	}
	return mr;
}

void ib_mr_pool_put(struct ib_qp *qp, struct list_head *list,
		    struct ib_mr *mr)
{
	if (!mr || list != &qp->rdma_mrs) {
		bad_puts++;
		return;
	}
	list_add(&mr->qp_entry, list);
	qp->mrs_used--;
}

static struct {
	int ret;		/* what ib_mr_pool_init() returns */
	int calls;
	struct ib_qp *qp;
	struct list_head *list;
	int nr;
	enum ib_mr_type type;
	u32 max_num_sg;
	u32 max_num_meta_sg;
} pool_init;

int ib_mr_pool_init(struct ib_qp *qp, struct list_head *list, int nr,
		    enum ib_mr_type type, u32 max_num_sg, u32 max_num_meta_sg)
{
	pool_init.calls++;
	pool_init.qp = qp;
	pool_init.list = list;
	pool_init.nr = nr;
	pool_init.type = type;
	pool_init.max_num_sg = max_num_sg;
	pool_init.max_num_meta_sg = max_num_meta_sg;
	return pool_init.ret;
}

static struct {
	int calls;
	struct ib_qp *qp;
	struct list_head *list;
} pool_destroy;

void ib_mr_pool_destroy(struct ib_qp *qp, struct list_head *list)
{
	pool_destroy.calls++;
	pool_destroy.qp = qp;
	pool_destroy.list = list;
}

/* ---- ib_map_mr_sg(): the result the case chose, its arguments kept ---- */

static struct {
	int ret;		/* elements mapped, or a negative errno */
	u64 length;		/* bytes the MR covers afterwards */
	int calls;
	struct ib_mr *mr;
	struct scatterlist *sg;
	int sg_nents;
	unsigned int *sg_offset;
	unsigned int page_size;
} map;

int ib_map_mr_sg(struct ib_mr *mr, struct scatterlist *sg, int sg_nents,
		 unsigned int *sg_offset, unsigned int page_size)
{
	map.calls++;
	map.mr = mr;
	map.sg = sg;
	map.sg_nents = sg_nents;
	map.sg_offset = sg_offset;
	map.page_size = page_size;
	mr->iova = sg->dma_address + (sg_offset ? *sg_offset : 0);
	mr->length = map.length;
	mr->page_size = page_size;
	return map.ret;
}

/* ---- rdi_wc_log() (rdi/wc.c): the last line logged ---- */

static struct {
	int calls;
	struct device *dev;
	char who[32];
	char what[64];
	enum ib_wc_status status;
} logged;

void rdi_wc_log(struct device *dev, const char *who, const char *what,
		const struct ib_wc *wc)
{
	logged.calls++;
	logged.dev = dev;
	snprintf(logged.who, sizeof(logged.who), "%s", who);
	snprintf(logged.what, sizeof(logged.what), "%s", what);
	logged.status = wc->status;
}

/* ---- fixture ---- */

#define NR_MRS	4
#define PAGE	4096

struct fix {
	struct ib_device ibdev;
	struct ib_qp qp;
	struct ib_mr mr[NR_MRS];
	struct scatterlist sg[4];
	struct rdi_reg reg;
	struct ib_cqe cqe;
};

/*
 * A QP with @nr MRs in its pool, mr[0] first; mr[i] has the key
 * @key + (i << 8), so each MR's upper bits are its own. ib_map_mr_sg()
 * maps one element of one page. The registration's work requests are
 * garbage, as in a reused request.
 */
static void fix_init(struct fix *f, int nr, u32 key)
{
	int i;

	memset(f, 0, sizeof(*f));
	memset(&map, 0, sizeof(map));
	memset(&logged, 0, sizeof(logged));
	memset(&pool_init, 0, sizeof(pool_init));
	memset(&pool_destroy, 0, sizeof(pool_destroy));
	map.ret = 1;
	map.length = PAGE;
	shim_warnings = 0;
	bad_puts = 0;

	f->qp.device = &f->ibdev;
	f->qp.qp_num = 17;
	INIT_LIST_HEAD(&f->qp.rdma_mrs);
	for (i = 0; i < nr; i++) {
		f->mr[i].rkey = key + ((u32)i << 8);
		f->mr[i].lkey = f->mr[i].rkey;
		list_add_tail(&f->mr[i].qp_entry, &f->qp.rdma_mrs);
	}
	for (i = 0; i < 4; i++) {
		f->sg[i].dma_address = 0x100000ULL * (i + 1);
		f->sg[i].length = PAGE;
		f->sg[i].dma_length = PAGE;
	}
	memset(&f->reg.reg_wr, 0xa5, sizeof(f->reg.reg_wr));
	memset(&f->reg.inv_wr, 0xa5, sizeof(f->reg.inv_wr));
}

static int reg(struct fix *f, int access)
{
	return rdi_reg_sg(&f->qp, &f->reg, f->sg, 2, NULL, PAGE, access);
}

static int in_pool(struct ib_qp *qp, struct ib_mr *mr)
{
	struct list_head *p;

	for (p = qp->rdma_mrs.next; p != &qp->rdma_mrs; p = p->next)
		if (p == &mr->qp_entry)
			return 1;
	return 0;
}

static int pool_size(struct ib_qp *qp)
{
	struct list_head *p;
	int n = 0;

	for (p = qp->rdma_mrs.next; p != &qp->rdma_mrs; p = p->next)
		n++;
	return n;
}

/* A registration that must work; the case stops if it does not. */
static bool reg_ok(struct fix *f, int *failed)
{
	int n = reg(f, 0);

	EXPECT_EQ(n, 1);
	return n == 1;
}

/* A completion of @cqe with @status on @f's QP. */
static void complete(struct fix *f, struct ib_cqe *cqe,
		     enum ib_wc_status status)
{
	struct ib_wc wc = { .wr_cqe = cqe, .status = status, .qp = &f->qp };

	cqe->done(NULL, &wc);
}

/* ---- rdi_reg_sg() ---- */

/* The first MR of the pool, its key's low byte moved on by one. */
RDI_TEST(reg_sg_takes_mr_and_moves_key_on)
{
	static struct fix f;
	unsigned int offset = 512;
	int n;

	fix_init(&f, 2, 0x12345678);
	map.ret = 2;
	n = rdi_reg_sg(&f.qp, &f.reg, f.sg, 3, &offset, PAGE,
		       IB_ACCESS_REMOTE_READ);
	EXPECT_EQ(n, 2);
	EXPECT(f.reg.mr == &f.mr[0]);
	EXPECT_EQ(f.mr[0].rkey, 0x12345679);
	EXPECT_EQ(f.mr[1].rkey, 0x12345778);
	EXPECT_EQ(f.qp.mrs_used, 1);
	EXPECT(!in_pool(&f.qp, &f.mr[0]));
	EXPECT(in_pool(&f.qp, &f.mr[1]));
	/* The scatterlist as given. */
	EXPECT_EQ(map.calls, 1);
	EXPECT(map.mr == &f.mr[0]);
	EXPECT(map.sg == f.sg);
	EXPECT_EQ(map.sg_nents, 3);
	EXPECT(map.sg_offset == &offset);
	EXPECT_EQ(map.page_size, PAGE);
	EXPECT_EQ(shim_warnings, 0);
}

/* Only the low byte counts: 0xff wraps to 0x00, the upper 24 bits stay. */
RDI_TEST(reg_sg_key_wraps_in_low_byte)
{
	static struct fix f;

	fix_init(&f, 1, 0x123456ff);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.mr[0].rkey, 0x12345600);

	fix_init(&f, 1, 0xffffffff);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.mr[0].rkey, 0xffffff00);

	fix_init(&f, 1, 0x00000000);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.mr[0].rkey, 0x00000001);
}

/* An unsignaled REG_MR of the new key, nothing chained, failures logged. */
RDI_TEST(reg_sg_builds_unsignaled_reg_mr)
{
	static struct fix f;
	int access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	int n;

	fix_init(&f, 1, 0xabcdef10);
	n = reg(&f, access);
	EXPECT_EQ(n, 1);
	if (n != 1)
		return;
	EXPECT_EQ(f.reg.reg_wr.wr.opcode, IB_WR_REG_MR);
	EXPECT_EQ(f.reg.reg_wr.wr.send_flags, 0);
	EXPECT(!f.reg.reg_wr.wr.next);
	EXPECT_EQ(f.reg.reg_wr.wr.num_sge, 0);
	EXPECT(f.reg.reg_wr.mr == &f.mr[0]);
	EXPECT_EQ(f.reg.reg_wr.key, 0xabcdef11);
	EXPECT_EQ(f.reg.reg_wr.key, f.mr[0].rkey);
	EXPECT_EQ(f.reg.reg_wr.access, access);
	EXPECT(f.reg.reg_wr.wr.wr_cqe && f.reg.reg_wr.wr.wr_cqe->done);
}

/* The REG_MR's catch-all logs a failure, not a success or a flush. */
RDI_TEST(reg_mr_cqe_logs_failures_only)
{
	static struct fix f;
	struct ib_cqe *cqe;

	fix_init(&f, 1, 0x100);
	if (!reg_ok(&f, failed))
		return;
	cqe = f.reg.reg_wr.wr.wr_cqe;
	complete(&f, cqe, IB_WC_SUCCESS);
	complete(&f, cqe, IB_WC_WR_FLUSH_ERR);
	EXPECT_EQ(logged.calls, 0);
	complete(&f, cqe, IB_WC_LOC_PROT_ERR);
	EXPECT_EQ(logged.calls, 1);
	EXPECT(logged.dev == &f.ibdev.dev);
	EXPECT(!strcmp(logged.who, "QP 17"));
	EXPECT(!strcmp(logged.what, "memory registration"));
	EXPECT_EQ(logged.status, IB_WC_LOC_PROT_ERR);
}

/* An empty pool: -EAGAIN, nothing held, nothing mapped. */
RDI_TEST(reg_sg_empty_pool_eagain)
{
	static struct fix f;

	fix_init(&f, 0, 0);
	EXPECT_EQ(reg(&f, 0), -EAGAIN);
	EXPECT(!f.reg.mr);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT_EQ(map.calls, 0);
}

/* A failed map: its errno, the key as it was (wrap undone), the MR back. */
RDI_TEST(reg_sg_map_error_gives_all_back)
{
	static struct fix f;

	fix_init(&f, 2, 0x123456ff);
	map.ret = -ENOMEM;
	EXPECT_EQ(reg(&f, IB_ACCESS_REMOTE_READ), -ENOMEM);
	EXPECT(!f.reg.mr);
	EXPECT_EQ(map.calls, 1);
	EXPECT_EQ(f.mr[0].rkey, 0x123456ff);
	EXPECT_EQ(f.mr[0].lkey, 0x123456ff);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT_EQ(pool_size(&f.qp), 2);
	EXPECT(in_pool(&f.qp, &f.mr[0]));
	EXPECT_EQ(bad_puts, 0);

	fix_init(&f, 1, 0x12345600);
	map.ret = -EINVAL;
	EXPECT_EQ(reg(&f, 0), -EINVAL);
	EXPECT_EQ(f.mr[0].rkey, 0x12345600);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT(in_pool(&f.qp, &f.mr[0]));
}

/* A map of nothing fails with -EINVAL, whatever the count, all given back. */
RDI_TEST(reg_sg_zero_length_gives_all_back)
{
	static struct fix f;

	fix_init(&f, 1, 0x77777777);
	map.ret = 0;
	map.length = 0;
	EXPECT_EQ(reg(&f, 0), -EINVAL);
	EXPECT(!f.reg.mr);
	EXPECT_EQ(f.mr[0].rkey, 0x77777777);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT(in_pool(&f.qp, &f.mr[0]));

	fix_init(&f, 1, 0x777777ff);
	map.ret = 1;
	map.length = 0;
	EXPECT_EQ(reg(&f, 0), -EINVAL);
	EXPECT(!f.reg.mr);
	EXPECT_EQ(f.mr[0].rkey, 0x777777ff);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT(in_pool(&f.qp, &f.mr[0]));
	EXPECT_EQ(bad_puts, 0);
}

/* No whole element but some bytes mapped is progress: the MR is kept. */
RDI_TEST(reg_sg_part_of_an_element_is_progress)
{
	static struct fix f;
	unsigned int offset = 0;

	fix_init(&f, 1, 0x200);
	map.ret = 0;
	map.length = 2 * PAGE;
	EXPECT_EQ(rdi_reg_sg(&f.qp, &f.reg, f.sg, 1, &offset, PAGE, 0), 0);
	EXPECT(f.reg.mr == &f.mr[0]);
	EXPECT_EQ(f.mr[0].rkey, 0x201);
	EXPECT_EQ(f.reg.reg_wr.key, 0x201);
	EXPECT_EQ(f.qp.mrs_used, 1);
}

/* A registration that still holds an MR: a warning, nothing touched. */
RDI_TEST(reg_sg_warns_when_mr_held)
{
	static struct fix f;
	struct ib_mr other = { .rkey = 0x999, .lkey = 0x999 };

	fix_init(&f, 1, 0x300);
	f.reg.mr = &other;
	EXPECT_EQ(reg(&f, 0), -EINVAL);
	EXPECT_EQ(shim_warnings, 1);
	EXPECT(f.reg.mr == &other);
	EXPECT_EQ(other.rkey, 0x999);
	EXPECT_EQ(f.mr[0].rkey, 0x300);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT(in_pool(&f.qp, &f.mr[0]));
	EXPECT_EQ(map.calls, 0);
}

/* ---- rdi_reg_inv_wr() ---- */

/* With a cqe: a signaled LOCAL_INV of the current key, to that cqe. */
RDI_TEST(inv_wr_signaled_current_key)
{
	static struct fix f;
	struct ib_send_wr *wr;

	fix_init(&f, 1, 0x445566ff);
	if (!reg_ok(&f, failed))
		return;
	wr = rdi_reg_inv_wr(&f.reg, &f.cqe);
	EXPECT(wr == &f.reg.inv_wr);
	EXPECT_EQ(wr->opcode, IB_WR_LOCAL_INV);
	EXPECT_EQ(wr->ex.invalidate_rkey, 0x44556600);
	EXPECT(wr->wr_cqe == &f.cqe);
	EXPECT_EQ(wr->send_flags, IB_SEND_SIGNALED);
	EXPECT(!wr->next);
	EXPECT_EQ(wr->num_sge, 0);
	/* The registration is left as it was. */
	EXPECT(f.reg.mr == &f.mr[0]);
	EXPECT_EQ(f.mr[0].rkey, 0x44556600);
}

/* Without: unsignaled, to rdi_core's catch-all, which logs failures only. */
RDI_TEST(inv_wr_unsignaled_catch_all)
{
	static struct fix f;
	struct ib_send_wr *wr;

	fix_init(&f, 1, 0x10203040);
	if (!reg_ok(&f, failed))
		return;
	wr = rdi_reg_inv_wr(&f.reg, NULL);
	EXPECT(wr == &f.reg.inv_wr);
	EXPECT_EQ(wr->opcode, IB_WR_LOCAL_INV);
	EXPECT_EQ(wr->ex.invalidate_rkey, 0x10203041);
	EXPECT_EQ(wr->send_flags, 0);
	EXPECT(!wr->next);
	EXPECT(wr->wr_cqe && wr->wr_cqe->done);
	if (!wr->wr_cqe || !wr->wr_cqe->done)
		return;
	EXPECT(wr->wr_cqe != f.reg.reg_wr.wr.wr_cqe);
	complete(&f, wr->wr_cqe, IB_WC_SUCCESS);
	complete(&f, wr->wr_cqe, IB_WC_WR_FLUSH_ERR);
	EXPECT_EQ(logged.calls, 0);
	complete(&f, wr->wr_cqe, IB_WC_LOC_QP_OP_ERR);
	EXPECT_EQ(logged.calls, 1);
	EXPECT(!strcmp(logged.who, "QP 17"));
	EXPECT(!strcmp(logged.what, "local invalidation"));
}

/* ---- rdi_reg_inv_prev_wr() ---- */

/* The key before the current one, chained in front of the REG_MR. */
RDI_TEST(inv_prev_wr_previous_key_chained)
{
	static struct fix f;
	struct ib_send_wr *wr;

	fix_init(&f, 1, 0x0a0b0c0d);
	if (!reg_ok(&f, failed))
		return;
	wr = rdi_reg_inv_prev_wr(&f.reg);
	EXPECT(wr == &f.reg.inv_wr);
	EXPECT_EQ(wr->opcode, IB_WR_LOCAL_INV);
	EXPECT_EQ(wr->ex.invalidate_rkey, 0x0a0b0c0d);
	EXPECT(wr->next == &f.reg.reg_wr.wr);
	EXPECT_EQ(wr->send_flags, 0);
	EXPECT_EQ(wr->num_sge, 0);
	EXPECT(wr->wr_cqe && wr->wr_cqe->done);
	/* The REG_MR behind it is unchanged. */
	EXPECT_EQ(f.reg.reg_wr.wr.opcode, IB_WR_REG_MR);
	EXPECT_EQ(f.reg.reg_wr.key, 0x0a0b0c0e);
	EXPECT_EQ(f.mr[0].rkey, 0x0a0b0c0e);
}

/* ib_inc_rkey() undone across the wrap: low byte 0x00 gives 0xff. */
RDI_TEST(inv_prev_wr_wraps_in_low_byte)
{
	static struct fix f;

	fix_init(&f, 1, 0xabcdefff);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.mr[0].rkey, 0xabcdef00);
	EXPECT_EQ(rdi_reg_inv_prev_wr(&f.reg)->ex.invalidate_rkey, 0xabcdefff);

	fix_init(&f, 1, 0xabcdef00);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(rdi_reg_inv_prev_wr(&f.reg)->ex.invalidate_rkey, 0xabcdef00);

	fix_init(&f, 1, 0x000000ff);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(rdi_reg_inv_prev_wr(&f.reg)->ex.invalidate_rkey, 0x000000ff);
}

/* ---- rdi_reg_cancel(), rdi_reg_release() ---- */

RDI_TEST(cancel_puts_key_back_and_mr)
{
	static struct fix f;

	fix_init(&f, 1, 0x5a5a5aff);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.mr[0].rkey, 0x5a5a5a00);
	rdi_reg_cancel(&f.qp, &f.reg);
	EXPECT(!f.reg.mr);
	EXPECT_EQ(f.mr[0].rkey, 0x5a5a5aff);
	EXPECT_EQ(f.mr[0].lkey, 0x5a5a5aff);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT(in_pool(&f.qp, &f.mr[0]));
	EXPECT_EQ(bad_puts, 0);
}

RDI_TEST(cancel_without_mr_does_nothing)
{
	static struct fix f;

	fix_init(&f, 1, 0x600);
	f.reg.mr = NULL;
	rdi_reg_cancel(&f.qp, &f.reg);
	EXPECT(!f.reg.mr);
	EXPECT_EQ(f.mr[0].rkey, 0x600);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT_EQ(pool_size(&f.qp), 1);
	EXPECT_EQ(bad_puts, 0);
}

RDI_TEST(release_puts_mr_back_keeps_key)
{
	static struct fix f;

	fix_init(&f, 2, 0x700);
	if (!reg_ok(&f, failed))
		return;
	rdi_reg_release(&f.qp, &f.reg);
	EXPECT(!f.reg.mr);
	EXPECT_EQ(f.mr[0].rkey, 0x701);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT_EQ(pool_size(&f.qp), 2);
	EXPECT(in_pool(&f.qp, &f.mr[0]));
	EXPECT_EQ(bad_puts, 0);
}

RDI_TEST(release_without_mr_does_nothing)
{
	static struct fix f;

	fix_init(&f, 1, 0x800);
	f.reg.mr = NULL;
	rdi_reg_release(&f.qp, &f.reg);
	EXPECT(!f.reg.mr);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT_EQ(pool_size(&f.qp), 1);
	EXPECT_EQ(bad_puts, 0);
}

/* ---- sequences ---- */

/* A cancelled registration's key is the next one's again. */
RDI_TEST(seq_register_cancel_register_same_key)
{
	static struct fix f;

	fix_init(&f, 1, 0x3c3c3cff);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.reg.reg_wr.key, 0x3c3c3c00);
	rdi_reg_cancel(&f.qp, &f.reg);
	if (!reg_ok(&f, failed))
		return;
	EXPECT(f.reg.mr == &f.mr[0]);
	EXPECT_EQ(f.reg.reg_wr.key, 0x3c3c3c00);
	EXPECT_EQ(f.mr[0].rkey, 0x3c3c3c00);
}

/* A released (posted) registration's key is never used again. */
RDI_TEST(seq_register_release_register_moves_on)
{
	static struct fix f;

	fix_init(&f, 1, 0x3c3c3cfe);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.reg.reg_wr.key, 0x3c3c3cff);
	rdi_reg_release(&f.qp, &f.reg);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.reg.reg_wr.key, 0x3c3c3c00);
	rdi_reg_release(&f.qp, &f.reg);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.reg.reg_wr.key, 0x3c3c3c01);
}

/* After a cancel, the prev-key LOCAL_INV names the key the device saw. */
RDI_TEST(seq_prev_inv_after_cancel_names_device_key)
{
	static struct fix f;
	u32 device_key;

	fix_init(&f, 1, 0x11223344);
	if (!reg_ok(&f, failed))
		return;
	device_key = f.reg.reg_wr.key;		/* posted */
	EXPECT_EQ(device_key, 0x11223345);
	rdi_reg_release(&f.qp, &f.reg);
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(f.reg.reg_wr.key, 0x11223346);
	rdi_reg_cancel(&f.qp, &f.reg);		/* never posted */
	if (!reg_ok(&f, failed))
		return;
	EXPECT_EQ(rdi_reg_inv_prev_wr(&f.reg)->ex.invalidate_rkey, device_key);
	EXPECT_EQ(f.reg.reg_wr.key, 0x11223346);
}

/*
 * Many uses of one MR, past two wraps of the key byte, mixing posted
 * registrations (invalidated locally or by the target), cancelled ones and
 * failed maps: the key before the MR's current one is always the device's,
 * each posted key is the one after the last posted, and the upper 24 bits
 * never change.
 */
RDI_TEST(seq_device_key_is_always_prev_across_wraps)
{
	static struct fix f;
	u32 device_key;
	int i, n, posts = 0;

	fix_init(&f, 1, 0x5a5a5afd);
	device_key = f.mr[0].rkey;	/* its first key */
	for (i = 0; i < 700 && !*failed; i++) {
		int what = i % 7;

		map.ret = what == 2 ? -EIO : 1;
		map.length = what == 5 ? 0 : PAGE;
		n = reg(&f, 0);
		if (what == 2 || what == 5) {
			EXPECT_EQ(n, what == 2 ? -EIO : -EINVAL);
			EXPECT(!f.reg.mr);
			EXPECT_EQ(f.mr[0].rkey, device_key);
			continue;
		}
		EXPECT_EQ(n, 1);
		if (n != 1)
			break;
		EXPECT_EQ(f.reg.reg_wr.key >> 8, 0x5a5a5a);
		EXPECT_EQ(rdi_reg_inv_prev_wr(&f.reg)->ex.invalidate_rkey,
			  device_key);
		if (what == 1 || what == 4) {
			rdi_reg_cancel(&f.qp, &f.reg);
			continue;
		}
		/* Posted. */
		posts++;
		device_key = f.reg.reg_wr.key;
		EXPECT_EQ(device_key, 0x5a5a5a00 | ((0xfd + posts) & 0xff));
		if (what == 0 || what == 6)
			EXPECT_EQ(rdi_reg_inv_wr(&f.reg, NULL)->ex.invalidate_rkey,
				  device_key);
		rdi_reg_release(&f.qp, &f.reg);
	}
	EXPECT_EQ(i, 700);
	EXPECT_EQ(posts, 300);
	EXPECT_EQ(device_key, 0x5a5a5a29);
	EXPECT_EQ(f.qp.mrs_used, 0);
	EXPECT_EQ(bad_puts, 0);
}

/* ---- rdi_mr_pool_init(), rdi_mr_pool_destroy() ---- */

static struct rdi_device fr_dev(bool sg_gaps)
{
	return (struct rdi_device){
		.mr_page_size = PAGE,
		.max_fr_pages = 256,
		.fr_supported = true,
		.sg_gaps = sg_gaps,
	};
}

RDI_TEST(pool_init_needs_fast_registration)
{
	static struct fix f;
	struct rdi_device dev = fr_dev(false);

	fix_init(&f, 0, 0);
	dev.fr_supported = false;
	EXPECT_EQ(rdi_mr_pool_init(&dev, &f.qp, 8, 16), -EOPNOTSUPP);
	EXPECT_EQ(pool_init.calls, 0);
}

RDI_TEST(pool_init_bounds)
{
	static struct fix f;
	struct rdi_device dev = fr_dev(false);

	fix_init(&f, 0, 0);
	EXPECT_EQ(rdi_mr_pool_init(&dev, &f.qp, 0, 16), -EINVAL);
	EXPECT_EQ(rdi_mr_pool_init(&dev, &f.qp, -1, 16), -EINVAL);
	EXPECT_EQ(rdi_mr_pool_init(&dev, &f.qp, 8, 0), -EINVAL);
	EXPECT_EQ(rdi_mr_pool_init(&dev, &f.qp, 8, 257), -EINVAL);
	EXPECT_EQ(pool_init.calls, 0);
	EXPECT_EQ(rdi_mr_pool_init(&dev, &f.qp, 8, 256), 0);
	EXPECT_EQ(pool_init.calls, 1);
	EXPECT(pool_init.qp == &f.qp);
	EXPECT(pool_init.list == &f.qp.rdma_mrs);
	EXPECT_EQ(pool_init.nr, 8);
	EXPECT_EQ(pool_init.max_num_sg, 256);
	EXPECT_EQ(pool_init.max_num_meta_sg, 0);
}

RDI_TEST(pool_init_mr_type_and_error)
{
	static struct fix f;
	struct rdi_device gaps = fr_dev(true), plain = fr_dev(false);

	fix_init(&f, 0, 0);
	EXPECT_EQ(rdi_mr_pool_init(&gaps, &f.qp, 4, 32), 0);
	EXPECT_EQ(pool_init.type, IB_MR_TYPE_SG_GAPS);
	EXPECT_EQ(rdi_mr_pool_init(&plain, &f.qp, 4, 32), 0);
	EXPECT_EQ(pool_init.type, IB_MR_TYPE_MEM_REG);
	pool_init.ret = -ENOMEM;
	EXPECT_EQ(rdi_mr_pool_init(&plain, &f.qp, 4, 32), -ENOMEM);
}

RDI_TEST(pool_destroy_frees_qp_pool)
{
	static struct fix f;

	fix_init(&f, 0, 0);
	rdi_mr_pool_destroy(&f.qp);
	EXPECT_EQ(pool_destroy.calls, 1);
	EXPECT(pool_destroy.qp == &f.qp);
	EXPECT(pool_destroy.list == &f.qp.rdma_mrs);
}

/* ---- rdi_reg_max_sectors() ---- */

static unsigned int max_sectors(unsigned int page_size, unsigned int pages)
{
	struct rdi_device dev = { .mr_page_size = page_size };

	return rdi_reg_max_sectors(&dev, pages);
}

/* All pages but the first are whole: (pages - 1) * page size in sectors. */
RDI_TEST(max_sectors_all_but_first_page)
{
	EXPECT_EQ(max_sectors(4096, 2), 8);
	EXPECT_EQ(max_sectors(4096, 256), 255 * 8);
	EXPECT_EQ(max_sectors(65536, 17), 16 * 128);
	EXPECT_EQ(max_sectors(4096, 1), 0);
}

/* Computed in 64 bits and clamped to UINT_MAX, exactly at the edge too. */
RDI_TEST(max_sectors_clamped_to_uint_max)
{
	EXPECT_EQ(max_sectors(4096, 0x1fffffff + 1), 0xfffffff8U);
	EXPECT_EQ(max_sectors(4096, 0x20000000 + 1), UINT_MAX);
	EXPECT_EQ(max_sectors(1024, 0x80000000U), 0xfffffffeU);
	EXPECT_EQ(max_sectors(4096, UINT_MAX), UINT_MAX);
	EXPECT_EQ(max_sectors(0x80000000U, 4097), UINT_MAX);
}

/* ---- rdi_scsi_host_reg_limits() ---- */

/* Without SG_GAPS: a virt boundary of the page size, the device's segments. */
RDI_TEST(host_limits_virt_boundary_without_sg_gaps)
{
	struct ib_device ibdev = { .max_seg_size = 0x7fff0000 };
	struct rdi_device dev = { .ib_dev = &ibdev, .mr_page_size = 4096 };
	struct Scsi_Host shost = { .max_segment_size = 65536 };

	rdi_scsi_host_reg_limits(&shost, &dev);
	EXPECT_EQ(shost.virt_boundary_mask, 4095);
	EXPECT_EQ(shost.max_segment_size, 0x7fff0000);

	dev.mr_page_size = 65536;
	ibdev.max_seg_size = UINT_MAX;
	rdi_scsi_host_reg_limits(&shost, &dev);
	EXPECT_EQ(shost.virt_boundary_mask, 65535);
	EXPECT_EQ(shost.max_segment_size, UINT_MAX);
}

/* With SG_GAPS: no virt boundary set, the device's segments still. */
RDI_TEST(host_limits_no_virt_boundary_with_sg_gaps)
{
	struct ib_device ibdev = { .max_seg_size = 0x10000000 };
	struct rdi_device dev = {
		.ib_dev = &ibdev, .mr_page_size = 4096, .sg_gaps = true,
	};
	struct Scsi_Host shost = { .max_segment_size = 65536 };

	rdi_scsi_host_reg_limits(&shost, &dev);
	EXPECT_EQ(shost.virt_boundary_mask, 0);
	EXPECT_EQ(shost.max_segment_size, 0x10000000);
}

RDI_TEST_MAIN()
