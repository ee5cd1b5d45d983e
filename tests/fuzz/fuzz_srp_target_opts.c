// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The add_target parser, srp_parse_target_opts() (srp/target_opts.c), and
 * what the driver builds on a string it accepts. The input is the bytes
 * written to add_target. A string that is refused must come with a reason;
 * one that is accepted must hold only what target_opts.h documents (each
 * key within its range, absent keys zero, a complete way to reach the
 * target), and the sizes derived from it must be safe (issue 16, findings
 * 4 and 5):
 *
 * - for every host srp_target_size() (srp/target.c) may size from these
 *   options and the module parameters, and every SRP_LOGIN_RSP of a
 *   target that grants the IT IU length requested, a login that
 *   srp_check_login_rsp() accepts must fit every SRP_CMD into the send IUs
 *   allocated with that length (srp_model.h);
 * - a queue that srp_check_queue() lets through must fit the device's
 *   work request and CQ limits in the unsigned int arithmetic of
 *   srp_ch_create_ib() (srp/channel.c).
 */
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/kernel.h>

#include "srp_model.h"
#include "../../drivers/infiniband/ulp/srp/target_opts.h"

/* Defaults of the driver (srp/main.c, srp/target.c). */
#define MAX_IMM_DATA		(8 * 1024)
#define QUEUE_SIZE		62
/* One IU for CRED/AER responses and one for TMFs (srp/srp.h). */
#define QUEUE_EXTRA		2

static bool has(const struct srp_target_opts *o, enum srp_opt opt)
{
	return srp_target_opts_has(o, opt);
}

/*
 * Module parameters that stand in for absent keys (srp_opts_defaults() in
 * srp/target.c, as srp_fixup_params() in srp/main.c left them): their
 * defaults, and external tables with the fewest and the most descriptors
 * in the IU.
 */
static const struct srp_params {
	unsigned int	cmd_sg_entries;
	unsigned int	indirect_sg_entries;
	bool		allow_ext_sg;
} params[] = {
	{ 12, 12, false },
	{ 1, 2048, true },
	{ 255, 2048, true },
};

/*
 * What srp_target_size() (srp/target.c) takes from the options: without
 * allow_ext_sg every command fits in the @cmd_sg_cnt descriptors of the
 * IU; with it, in up to the larger of that and sg_tablesize (else
 * indirect_sg_entries), the rest in an external table. How many a host
 * gets within @max_desc depends on the device and max_sect.
 */
struct host {
	unsigned int	cmd_sg_cnt;
	unsigned int	max_desc;
};

static struct host host_limits(const struct srp_target_opts *o,
			       const struct srp_params *p)
{
	unsigned int ind = has(o, SRP_OPT_SG_TABLESIZE) ? o->sg_tablesize :
			   p->indirect_sg_entries;
	bool ext_sg = has(o, SRP_OPT_ALLOW_EXT_SG) ? o->allow_ext_sg :
		      p->allow_ext_sg;
	struct host h = {
		.cmd_sg_cnt = has(o, SRP_OPT_CMD_SG_ENTRIES) ?
			      o->cmd_sg_entries : p->cmd_sg_entries,
	};

	h.max_desc = ext_sg && ind > h.cmd_sg_cnt ? ind : h.cmd_sg_cnt;
	return h;
}

struct bound {
	enum srp_opt	opt;
	size_t		off;
	u32		min;
	u32		max;
};

#define BOUND(opt, field, min, max) \
	{ opt, offsetof(struct srp_target_opts, field), min, max }

/* The ranges of the numeric keys, as target_opts.h documents them. */
static const struct bound bounds[] = {
	BOUND(SRP_OPT_MAX_SECT, max_sect, 1, INT_MAX),
	BOUND(SRP_OPT_MAX_CMD_PER_LUN, max_cmd_per_lun, 1, INT_MAX),
	BOUND(SRP_OPT_CMD_SG_ENTRIES, cmd_sg_entries, 1, 255),
	BOUND(SRP_OPT_SG_TABLESIZE, sg_tablesize, 1, 2048),
	BOUND(SRP_OPT_COMP_VECTOR, comp_vector, 0, INT_MAX),
	BOUND(SRP_OPT_TL_RETRY_COUNT, tl_retry_count, 2, 7),
	BOUND(SRP_OPT_QUEUE_SIZE, queue_size, 1, INT_MAX),
	BOUND(SRP_OPT_TARGET_CAN_QUEUE, target_can_queue, 1, INT_MAX),
	BOUND(SRP_OPT_MAX_IT_IU_SIZE, max_it_iu_size, 0, INT_MAX),
	BOUND(SRP_OPT_CH_COUNT, ch_count, 1, INT_MAX),
	BOUND(SRP_OPT_KEEPALIVE, keepalive, 0, SRP_MAX_KEEPALIVE),
	BOUND(SRP_OPT_POLL_QUEUES, poll_queues, 0, SRP_MAX_POLL_QUEUES),
};

static bool ip_family(sa_family_t family)
{
	return family == AF_INET || family == AF_INET6;
}

static u16 addr_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_port;
	return ((const struct sockaddr_in6 *)ss)->sin6_port;
}

static void check_documented(const struct srp_target_opts *o)
{
	unsigned int i;

	FUZZ_CHECK(!(o->mask >> SRP_OPT_NR));
	FUZZ_CHECK((o->mask & SRP_OPTS_REQUIRED) == SRP_OPTS_REQUIRED);
	FUZZ_CHECK((o->mask & SRP_OPTS_RDMA_CM) ||
		   (o->mask & SRP_OPTS_IB_CM) == SRP_OPTS_IB_CM);
	for (i = 0; i < ARRAY_SIZE(bounds); i++) {
		u32 v = *(const u32 *)((const u8 *)o + bounds[i].off);

		if (has(o, bounds[i].opt))
			FUZZ_CHECK(v >= bounds[i].min && v <= bounds[i].max);
		else
			FUZZ_CHECK(!v);
	}
	FUZZ_CHECK(has(o, SRP_OPT_IO_CLASS) ?
		   o->io_class == SRP_IO_CLASS_R16A ||
		   o->io_class == SRP_IO_CLASS_R10 : !o->io_class);
	FUZZ_CHECK(has(o, SRP_OPT_ALLOW_EXT_SG) || !o->allow_ext_sg);
	FUZZ_CHECK(has(o, SRP_OPT_PKEY) || !o->pkey);
	FUZZ_CHECK(has(o, SRP_OPT_DEST) ?
		   ip_family(o->dest.ss_family) && addr_port(&o->dest) :
		   !o->dest.ss_family);
	FUZZ_CHECK(has(o, SRP_OPT_SRC) ? ip_family(o->src.ss_family) :
		   !o->src.ss_family);
	if (has(o, SRP_OPT_DEST) && has(o, SRP_OPT_SRC))
		FUZZ_CHECK(o->src.ss_family == o->dest.ss_family);
}

/*
 * A login of channel 0 to a target that grants @it_iu_len and takes the
 * formats @fmt, for a host that srp_target_size() gave @max_desc
 * descriptors per command. A target without indirect descriptors is
 * checked for, and then gets, one descriptor per command
 * (srp_login_max_desc(), srp_target_size_direct()).
 */
static void check_login(unsigned int cmd_sg_cnt, unsigned int max_desc,
			u32 it_iu_len, u16 fmt)
{
	struct srp_login_result res = {
		.req_lim = 1,
		.max_it_iu_len = it_iu_len,
		.max_ti_iu_len = sizeof(struct srp_iu_rsp),
		.buf_fmt = fmt,
	};

	if (!(fmt & SRP_BUF_FMT_INDIRECT))
		max_desc = 1;
	if (srp_check_login_rsp(&res, cmd_sg_cnt, max_desc, it_iu_len) ==
	    SRP_LOGIN_OK)
		srp_model_check_accepted(&res, cmd_sg_cnt, max_desc,
					 it_iu_len);
}

/*
 * Hosts with one descriptor per command, the most, and the first that
 * needs an external table; IT IU lengths requested with and without
 * immediate data, and the fallback after a reject for a too large one.
 */
static void check_sizes(const struct srp_target_opts *o, struct host h)
{
	static const u16 fmts[] = {
		SRP_BUF_FMT_DIRECT, SRP_BUF_FMT_INDIRECT,
		SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT,
	};
	unsigned int descs[] = { 1, 2, h.cmd_sg_cnt, h.cmd_sg_cnt + 1,
				 h.max_desc };
	u32 it_iu_lens[] = {
		srp_it_iu_len(h.cmd_sg_cnt, false, MAX_IMM_DATA,
			      o->max_it_iu_size),
		srp_it_iu_len(h.cmd_sg_cnt, true, MAX_IMM_DATA,
			      o->max_it_iu_size),
		srp_it_iu_len_fallback(h.cmd_sg_cnt),
	};
	unsigned int d, l, f;

	for (d = 0; d < ARRAY_SIZE(descs); d++) {
		if (descs[d] > h.max_desc)
			continue;
		for (l = 0; l < ARRAY_SIZE(it_iu_lens); l++)
			for (f = 0; f < ARRAY_SIZE(fmts); f++)
				check_login(h.cmd_sg_cnt, descs[d],
					    it_iu_lens[l], fmts[f]);
	}
}

/*
 * srp_target_add() lets a queue through srp_check_queue() for the
 * device's limits; srp_ch_create_ib() then sizes the QP's queues, their
 * CQs and the MR pool in unsigned int, each queue with room for the work
 * request ib_drain_qp() posts. Registrations per command: none
 * (never_register), one, or one per descriptor and one for an external
 * table.
 */
static void check_queue(const struct srp_target_opts *o, struct host h)
{
	static const struct { u32 max_qp_wr, max_cqe; } devs[] = {
		{ 1 << 20, (1 << 15) - 1 },	/* rxe on 6.1 */
		{ 1 << 15, (1 << 22) - 1 },	/* fewer WRs than CQEs */
		{ INT_MAX, INT_MAX },
	};
	u32 qs = has(o, SRP_OPT_QUEUE_SIZE) ? o->queue_size : QUEUE_SIZE;
	u32 mrs[] = { 0, 1, h.max_desc + 1 };
	unsigned int d, m;

	FUZZ_CHECK(qs <= INT_MAX);
	qs += QUEUE_EXTRA;
	for (d = 0; d < ARRAY_SIZE(devs); d++) {
		for (m = 0; m < ARRAY_SIZE(mrs); m++) {
			unsigned int nsend, nrecv, pool;

			if (srp_check_queue(qs, mrs[m], devs[d].max_qp_wr,
					    devs[d].max_cqe))
				continue;
			/* SEND; LOCAL_INV of the previous key, REG, INV per MR */
			nsend = qs * (mrs[m] ? 2 + 2 * mrs[m] : 1) + 1 + 1;
			nrecv = qs + 1;
			pool = qs * mrs[m];
			FUZZ_CHECK(nsend == srp_send_wrs(qs, mrs[m]));
			FUZZ_CHECK(nrecv == srp_recv_wrs(qs));
			FUZZ_CHECK(pool == (u64)qs * mrs[m]);
			FUZZ_CHECK(nsend <= devs[d].max_qp_wr);
			FUZZ_CHECK(nrecv <= devs[d].max_qp_wr);
			FUZZ_CHECK(nsend <= devs[d].max_cqe);
			FUZZ_CHECK(nrecv <= devs[d].max_cqe);
		}
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	char why[SRP_OPTS_WHY_LEN];
	struct srp_target_opts o;
	unsigned int i;
	int ret;

	memset(why, 0xa5, sizeof(why));
	ret = srp_parse_target_opts(NULL, (const char *)data, size, &o, why,
				    sizeof(why));
	if (ret) {
		FUZZ_CHECK(ret == -EINVAL);
		FUZZ_CHECK(why[0] && memchr(why, '\0', sizeof(why)));
		return 0;
	}
	check_documented(&o);
	for (i = 0; i < ARRAY_SIZE(params); i++) {
		check_sizes(&o, host_limits(&o, &params[i]));
		check_queue(&o, host_limits(&o, &params[i]));
	}
	return 0;
}
