// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rogue-iser: an iSER target over RDMA/CM that misbehaves on purpose.
 *
 *   rogue-iser [-a ADDR] [-p PORT] [-o OPCODE|any] [-n COUNT] [-s SECS] MODE
 *
 * It listens with rdma_cm on ADDR:PORT (default 0.0.0.0:3261). The iSER CM
 * private data (RFC 7145 section 6) comes with the connect request and
 * goes back with the accept. Every iSCSI PDU, login included, travels as
 * an RDMA SEND of a 28-byte iSER header, the 48-byte BHS, AHS and data
 * segment. It answers the login (one target, any name), serves LUN 0, an
 * 8 MiB in-memory disk whose every 512-byte block starts with its LBA
 * (big-endian, 8 bytes), reads by RDMA WRITE, writes by immediate data,
 * unsolicited Data-Out and RDMA READ, and answers NOP-Out, task management
 * and logout. A MODE lies in its answer to the first COUNT (default 1, -1
 * for all) SCSI commands whose CDB opcode is OPCODE (default 0xc0, vendor
 * specific: the kernel never sends it on its own, the lab sends it with
 * sg_raw), or, for login modes, in the login.
 *
 * SIGUSR1 runs the stale-rkey probe: an RDMA WRITE of 8 bytes to the read
 * buffer (rkey and VA) of the last command lied about, whose completion
 * status is logged ("PROBE ... status=..."). A target must never be able
 * to do that once the command has completed.
 *
 * Every event is one line on stdout, for the lab scenario to check.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rdma/rdma_cma.h>

#define MAX_CONNS	4
#define NRECV		48		/* receive buffers posted */
#define ISER_HDR	28
#define BHS		48
#define HDRS		(ISER_HDR + BHS)
#define RECV_DATA	(16384 + 1024)	/* data segment + AHS we take */
#define RECV_SIZE	(HDRS + RECV_DATA)
#define NSEND		128
#define SEND_DATA	12288		/* room for an oversized login response */
#define SEND_SIZE	(HDRS + SEND_DATA)
#define SQ_DEPTH	1024
#define MAX_TASKS	128		/* writes collecting data at once */
#define WBUF		(256 * 1024)	/* largest write we take (MaxBurstLength) */
#define WBUFS		4		/* RDMA READ buffers, one per write at a time */
#define OUR_MRDSL	8192		/* MaxRecvDataSegmentLength we declare */

#define LUN_BLOCK	512
#define LUN_BLOCKS	16384
#define LUN_BYTES	(LUN_BLOCK * LUN_BLOCKS)

/* iSER header flags, CM private data flags (RFC 7145) */
#define ISER_CTRL	0x10
#define ISER_WSV	0x08
#define ISER_RSV	0x04
#define CM_ZBVA_NOT_SUP	0x80
#define CM_SINV_NOT_SUP	0x40

/* iSCSI opcodes (RFC 7143 section 11) */
enum {
	OP_NOP_OUT = 0x00, OP_SCSI_CMD = 0x01, OP_TMF = 0x02, OP_LOGIN = 0x03,
	OP_TEXT = 0x04, OP_DATA_OUT = 0x05, OP_LOGOUT = 0x06,
	OP_NOP_IN = 0x20, OP_SCSI_RSP = 0x21, OP_TMF_RSP = 0x22,
	OP_LOGIN_RSP = 0x23, OP_TEXT_RSP = 0x24, OP_DATA_IN = 0x25,
	OP_LOGOUT_RSP = 0x26, OP_ASYNC = 0x32, OP_REJECT = 0x3f,
};

enum mode {
	M_OK, M_DATAIN_STATUS, M_INV_OTHER, M_INV_UNOFFERED, M_DSL_OVER,
	M_AHS_OVERRUN, M_BAD_OPCODE, M_LOGIN_HUGE, M_NOPIN_DATA, M_ASYNC_BAD,
	M_SMALL_MRDSL,
};

static const struct {
	const char	*name;
	enum mode	mode;
	const char	*help;
} modes[] = {
	{ "ok", M_OK, "no lie: a correct target" },
	{ "datain-status", M_DATAIN_STATUS, "read data, then a final Data-In PDU carrying the status and no SCSI Response; the receive queue is left empty for -s seconds first, so the initiator's next SEND (and whatever it posts behind it) waits" },
	{ "inv-other", M_INV_OTHER, "hold the first trigger, answer the second with Send with Invalidate of the first one's rkey" },
	{ "inv-unoffered", M_INV_UNOFFERED, "answer with Send with Invalidate of the command's rkey although the initiator did not offer it" },
	{ "dsl-over", M_DSL_OVER, "SCSI Response whose data segment length is larger than the bytes sent" },
	{ "ahs-overrun", M_AHS_OVERRUN, "SCSI Response announcing an AHS longer than the bytes sent" },
	{ "bad-opcode", M_BAD_OPCODE, "a PDU with the unknown opcode 0x3b instead of the SCSI Response" },
	{ "login-huge", M_LOGIN_HUGE, "a login response with a 10000-byte data segment" },
	{ "nopin-data", M_NOPIN_DATA, "an unsolicited NOP-In (TTT set) with 100 bytes of data, then the SCSI Response" },
	{ "async-bad", M_ASYNC_BAD, "an async message whose data segment length runs past the bytes sent, then the SCSI Response" },
	{ "small-mrdsl", M_SMALL_MRDSL, "MaxRecvDataSegmentLength=512, InitialR2T=No, FirstBurstLength=65536: checks DataSN and buffer offset of every Data-Out" },
};

/* A write collecting its unsolicited data. */
struct wtask {
	int		used;
	uint32_t	itt;
	uint32_t	lba, len;	/* blocks written, bytes expected */
	uint32_t	unsol;		/* unsolicited bytes to wait for */
	uint32_t	got;		/* unsolicited bytes received */
	uint32_t	next_sn;	/* DataSN the next Data-Out must carry */
	uint32_t	next_off;	/* buffer offset it must carry */
	uint32_t	wstag;
	uint64_t	wva;
	uint8_t		*buf;
	int		bad;
};

struct conn {
	int			n;
	struct rdma_cm_id	*id;
	struct ibv_qp		*qp;
	struct ibv_pd		*pd;
	struct ibv_comp_channel	*cc;
	struct ibv_cq		*cq;		/* receives, with @cc */
	struct ibv_cq		*scq;		/* sends, polled */
	unsigned int		sq_inflight;
	uint8_t			*mem;
	struct ibv_mr		*mr;
	struct ibv_mr		*lun_mr;
	unsigned int		send_next;
	int			sinv;		/* initiator offered Send with Invalidate */
	int			ffp;		/* full feature phase */
	uint32_t		statsn, exp_cmdsn;
	uint32_t		peer_mrdsl;	/* our receive segment length, as agreed */
	int			login_rsps;
	int			initial_r2t, immediate;
	uint32_t		first_burst;
	struct wtask		wt[MAX_TASKS];
	/* receive queue state: posted buffers, and the ones held back */
	unsigned int		rx_posted;
	unsigned char		rx_held[NRECV];
	int			stall;		/* 1: holding, 2: lie sent */
	struct timespec		stall_t;
	uint8_t			stall_rsp[HDRS];
	/* the command lied about: its read buffer, for the probe */
	uint32_t		lie_itt, probe_rkey, probe_len;
	uint64_t		probe_va;
	int			held;		/* inv-other: a held trigger */
	uint32_t		held_itt, held_rkey, held_cmdsn;
};

static enum mode mode;
static const char *mode_name;
static int lie_op = 0xc0;
static int lies_left = 1;
static int stall_secs = 5;
static int conn_seq;
static struct conn *conns[MAX_CONNS];
static uint8_t lun_data[LUN_BYTES];
static volatile sig_atomic_t stop, probe_req;

static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static uint32_t get_be16(const uint8_t *p) { return p[0] << 8 | p[1]; }
static uint32_t get_be24(const uint8_t *p) { return p[0] << 16 | p[1] << 8 | p[2]; }
static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}
static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}
static void put_be16(uint8_t *p, uint32_t v) { p[0] = v >> 8; p[1] = v; }
static void put_be24(uint8_t *p, uint32_t v)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}
static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}
static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

/* ---- memory layout of a connection ---- */

static uint8_t *recv_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)i * RECV_SIZE;
}

static uint8_t *send_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)NRECV * RECV_SIZE + (size_t)i * SEND_SIZE;
}

static uint8_t *write_buf(struct conn *c, unsigned int i)
{
	return send_buf(c, NSEND) + (size_t)i * WBUF;
}

/* Short read data (INQUIRY, ...) goes out from one buffer per send slot. */
#define SMALL_MAX	512
static uint8_t *small_buf(struct conn *c, unsigned int i)
{
	return write_buf(c, WBUFS) + (size_t)i * SMALL_MAX;
}

#define MEM_SIZE ((size_t)NRECV * RECV_SIZE + (size_t)NSEND * SEND_SIZE + \
		  (size_t)WBUFS * WBUF + (size_t)NSEND * SMALL_MAX)

/* wr_id: kind in the high half, index in the low half. */
enum { WR_RECV = 1, WR_SEND, WR_WRITE, WR_READ, WR_PROBE };

static uint64_t wr_id(unsigned int kind, unsigned int i)
{
	return (uint64_t)kind << 32 | i;
}

/*
 * Poll the send CQ (every send-queue work request is signaled). Returns the
 * status of the completion with wr_id WAIT_ID if one was seen, else -1.
 */
static int poll_sends(struct conn *c, uint64_t wait_id)
{
	struct ibv_wc wc[16];
	int n, i, ret = -1;

	while ((n = ibv_poll_cq(c->scq, 16, wc)) > 0) {
		for (i = 0; i < n; i++) {
			unsigned int kind = wc[i].wr_id >> 32;

			c->sq_inflight--;
			if (wc[i].wr_id == wait_id)
				ret = wc[i].status;
			if (kind == WR_PROBE)
				say("PROBE conn=%d rkey=%#x va=%#llx status=%s",
				    c->n, c->probe_rkey,
				    (unsigned long long)c->probe_va,
				    wc[i].status == IBV_WC_SUCCESS ? "success" :
				    ibv_wc_status_str(wc[i].status));
			else if (wc[i].status != IBV_WC_SUCCESS &&
				 wc[i].status != IBV_WC_WR_FLUSH_ERR)
				say("WC_ERROR conn=%d kind=%u %s", c->n, kind,
				    ibv_wc_status_str(wc[i].status));
		}
	}
	return ret;
}

static int post_sq(struct conn *c, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	time_t end = time(NULL) + 10;
	int ret;

	while (c->sq_inflight >= SQ_DEPTH - 1) {
		poll_sends(c, 0);
		if (time(NULL) >= end) {
			say("ERROR conn=%d send queue stuck for 10 s", c->n);
			return ENOSPC;
		}
	}
	c->sq_inflight++;
	ret = ibv_post_send(c->qp, wr, &bad);
	if (ret) {
		c->sq_inflight--;
		say("ERROR conn=%d ibv_post_send: %s", c->n, strerror(ret));
	}
	return ret;
}

static int post_recv(struct conn *c, unsigned int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)recv_buf(c, i),
		.length = RECV_SIZE,
		.lkey = c->mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = wr_id(WR_RECV, i),
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;
	int ret;

	ret = ibv_post_recv(c->qp, &wr, &bad);
	if (ret)
		say("ERROR conn=%d ibv_post_recv: %s", c->n, strerror(ret));
	else
		c->rx_posted++;
	return ret;
}

/*
 * Send a PDU: iSER header + BHS (HDRS bytes at PDU) + WIRE_DATA bytes of
 * data segment at DATA. INV_RKEY: Send with Invalidate of that rkey when
 * non-zero.
 */
static int send_pdu_inv(struct conn *c, const uint8_t *pdu,
			const void *data, uint32_t wire_data, uint32_t inv_rkey)
{
	unsigned int slot = c->send_next;
	uint8_t *buf = send_buf(c, slot);
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf,
		.length = HDRS + wire_data,
		.lkey = c->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id(WR_SEND, slot),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = inv_rkey ? IBV_WR_SEND_WITH_INV : IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
		.invalidate_rkey = inv_rkey,
	};

	if (wire_data > SEND_DATA)
		return EINVAL;
	c->send_next = (c->send_next + 1) % NSEND;
	memcpy(buf, pdu, HDRS);
	buf[0] = ISER_CTRL;
	if (wire_data)
		memcpy(buf + HDRS, data, wire_data);
	return post_sq(c, &wr);
}

static int send_pdu(struct conn *c, const uint8_t *pdu, const void *data,
		    uint32_t dlen)
{
	uint8_t pad[SEND_DATA];
	uint32_t wire = (dlen + 3) & ~3U;

	if (wire > SEND_DATA)
		return EINVAL;
	memset(pad, 0, wire);
	if (dlen)
		memcpy(pad, data, dlen);
	return send_pdu_inv(c, pdu, pad, wire, 0);
}

static int rdma_op(struct conn *c, enum ibv_wr_opcode op, unsigned int kind,
		   void *local, uint32_t lkey, uint64_t va, uint32_t rkey,
		   uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)local,
		.length = len,
		.lkey = lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id(kind, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = va, .rkey = rkey },
	};

	return post_sq(c, &wr);
}

/* RDMA READ LEN bytes from VA/RKEY into DST and wait; 0 on success. */
static int rdma_read_wait(struct conn *c, uint8_t *dst, uint64_t va,
			  uint32_t rkey, uint32_t len)
{
	time_t end = time(NULL) + 10;
	int ret;

	if (rdma_op(c, IBV_WR_RDMA_READ, WR_READ, dst, c->mr->lkey, va, rkey,
		    len))
		return -1;
	while (time(NULL) < end) {
		ret = poll_sends(c, wr_id(WR_READ, 0));
		if (ret >= 0)
			return ret == IBV_WC_SUCCESS ? 0 : -1;
	}
	say("ERROR conn=%d RDMA READ did not complete within 10 s", c->n);
	return -1;
}

/* ---- PDU headers ---- */

/* A target PDU header in OUT (HDRS bytes, iSER header first). */
static uint8_t *bhs_init(uint8_t *out, uint8_t op, uint32_t itt)
{
	uint8_t *b = out + ISER_HDR;

	memset(out, 0, HDRS);
	b[0] = op;
	b[1] = 0x80;
	memcpy(b + 16, &itt, 4);	/* as received: initiator's byte order */
	return b;
}

/* StatSN, ExpCmdSN, MaxCmdSN at 24..35; STATUS: the PDU takes a StatSN. */
static void bhs_sn(struct conn *c, uint8_t *b, int status)
{
	put_be32(b + 24, status ? c->statsn++ : c->statsn);
	put_be32(b + 28, c->exp_cmdsn);
	put_be32(b + 32, c->exp_cmdsn + 31);
}

static void set_dsl(uint8_t *b, uint32_t len) { put_be24(b + 5, len); }

/* ---- SCSI: LUN 0 ---- */

struct result {
	uint8_t		status;
	uint8_t		sense[18];
	const uint8_t	*data;
	uint32_t	len;
	uint8_t		small[SMALL_MAX];
};

static void sense(struct result *r, uint8_t key, uint8_t asc)
{
	r->status = 2;
	memset(r->sense, 0, sizeof(r->sense));
	r->sense[0] = 0x70;
	r->sense[2] = key;
	r->sense[7] = 10;
	r->sense[12] = asc;
	r->len = 0;
}

static void small(struct result *r, uint32_t len, uint32_t alloc)
{
	r->data = r->small;
	r->len = len < alloc ? len : alloc;
}

static void pad_str(uint8_t *d, const char *s, size_t n)
{
	size_t l = strlen(s);

	memset(d, ' ', n);
	memcpy(d, s, l < n ? l : n);
}

/* Range check of a block access; fills the sense data when out of range. */
static int lba_ok(struct result *r, uint64_t lba, uint32_t n)
{
	if (lba + n > LUN_BLOCKS) {
		sense(r, 0x05, 0x21);
		return 0;
	}
	return 1;
}

/*
 * Execute CDB (everything but the data phase of a write). Reads point
 * @r->data into the LUN. WLBA/WN: the blocks a write covers.
 */
static void scsi_exec(const uint8_t *cdb, const uint8_t *lun, struct result *r,
		      uint64_t *wlba, uint32_t *wn)
{
	uint8_t *d = r->small;
	uint64_t lba;
	uint32_t n;

	memset(r, 0, sizeof(*r));
	*wn = 0;
	if (get_be64(lun) && cdb[0] != 0x12 && cdb[0] != 0xa0) {
		sense(r, 0x05, 0x25);		/* LUN not supported */
		return;
	}
	switch (cdb[0]) {
	case 0x00:				/* TEST UNIT READY */
	case 0x35:				/* SYNCHRONIZE CACHE (10) */
	case 0x91:				/* SYNCHRONIZE CACHE (16) */
		return;
	case 0x12:				/* INQUIRY */
		if (get_be64(lun)) {
			d[0] = 0x7f;
			small(r, 36, get_be16(cdb + 3));
			return;
		}
		if (!(cdb[1] & 1)) {
			d[2] = 0x06;
			d[3] = 0x02;
			d[4] = 31;
			d[7] = 0x02;
			pad_str(d + 8, "ROGUE", 8);
			pad_str(d + 16, "ISER TARGET", 16);
			pad_str(d + 32, "0001", 4);
			small(r, 36, get_be16(cdb + 3));
		} else if (cdb[2] == 0x00) {
			d[3] = 2;
			d[5] = 0x80;
			small(r, 6, get_be16(cdb + 3));
		} else if (cdb[2] == 0x80) {
			d[1] = 0x80;
			d[3] = 8;
			memcpy(d + 4, "ROGUE001", 8);
			small(r, 12, get_be16(cdb + 3));
		} else {
			sense(r, 0x05, 0x24);
		}
		return;
	case 0xa0:				/* REPORT LUNS */
		d[3] = 8;
		small(r, 16, get_be32(cdb + 6));
		return;
	case 0x25:				/* READ CAPACITY (10) */
		put_be32(d, LUN_BLOCKS - 1);
		put_be32(d + 4, LUN_BLOCK);
		small(r, 8, 8);
		return;
	case 0x9e:				/* READ CAPACITY (16) */
		if ((cdb[1] & 0x1f) != 0x10)
			break;
		put_be64(d, LUN_BLOCKS - 1);
		put_be32(d + 8, LUN_BLOCK);
		small(r, 32, get_be32(cdb + 10));
		return;
	case 0x1a:				/* MODE SENSE (6) */
		d[0] = 3;
		small(r, 4, cdb[4]);
		return;
	case 0x5a:				/* MODE SENSE (10) */
		d[1] = 6;
		small(r, 8, get_be16(cdb + 7));
		return;
	case 0x28:				/* READ (10) */
	case 0x88:				/* READ (16) */
		lba = cdb[0] == 0x28 ? get_be32(cdb + 2) : get_be64(cdb + 2);
		n = cdb[0] == 0x28 ? get_be16(cdb + 7) : get_be32(cdb + 10);
		if (!lba_ok(r, lba, n))
			return;
		r->data = lun_data + lba * LUN_BLOCK;
		r->len = n * LUN_BLOCK;
		return;
	case 0x2a:				/* WRITE (10) */
	case 0x8a:				/* WRITE (16) */
		lba = cdb[0] == 0x2a ? get_be32(cdb + 2) : get_be64(cdb + 2);
		n = cdb[0] == 0x2a ? get_be16(cdb + 7) : get_be32(cdb + 10);
		if (!lba_ok(r, lba, n))
			return;
		*wlba = lba;
		*wn = n;
		return;
	default:
		if (cdb[0] >= 0xc0)		/* vendor specific: trigger */
			return;
		break;
	}
	sense(r, 0x05, 0x20);			/* invalid opcode */
}

/* ---- responses ---- */

/*
 * The SCSI Response for ITT: STATUS, sense if CHECK CONDITION, residual
 * against EDTL for DONE bytes moved. INV_RKEY as in send_pdu_inv().
 */
static void scsi_rsp(struct conn *c, uint32_t itt, const struct result *r,
		     uint32_t edtl, uint32_t done, uint32_t inv_rkey)
{
	uint8_t out[HDRS], data[2 + sizeof(r->sense) + 2];
	uint8_t *b = bhs_init(out, OP_SCSI_RSP, itt);
	uint32_t dlen = 0;

	b[3] = r->status;
	if (r->status == 2) {
		put_be16(data, sizeof(r->sense));
		memcpy(data + 2, r->sense, sizeof(r->sense));
		dlen = 2 + sizeof(r->sense);
		memset(data + dlen, 0, sizeof(data) - dlen);
	} else if (edtl > done) {
		b[1] |= 0x02;			/* underflow */
		put_be32(b + 44, edtl - done);
	} else if (edtl < done) {
		b[1] |= 0x04;			/* overflow */
		put_be32(b + 44, done - edtl);
	}
	set_dsl(b, dlen);
	bhs_sn(c, b, 1);
	send_pdu_inv(c, out, data, (dlen + 3) & ~3U, inv_rkey);
}

/* Lie about the answer to ITT; return 1 when the normal answer follows. */
static int lie(struct conn *c, uint32_t itt, const struct result *r,
	       uint32_t edtl, uint32_t done, uint32_t rkey)
{
	uint8_t out[HDRS], data[128];
	uint8_t *b;

	switch (mode) {
	case M_DSL_OVER:
		b = bhs_init(out, OP_SCSI_RSP, itt);
		set_dsl(b, 4096);		/* none of it sent */
		bhs_sn(c, b, 1);
		send_pdu_inv(c, out, NULL, 0, 0);
		return 0;
	case M_AHS_OVERRUN:
		b = bhs_init(out, OP_SCSI_RSP, itt);
		b[4] = 64;			/* 256 bytes of AHS, none sent */
		bhs_sn(c, b, 1);
		send_pdu_inv(c, out, NULL, 0, 0);
		return 0;
	case M_BAD_OPCODE:
		b = bhs_init(out, 0x3b, itt);
		bhs_sn(c, b, 0);
		send_pdu_inv(c, out, NULL, 0, 0);
		return 0;
	case M_NOPIN_DATA:
		b = bhs_init(out, OP_NOP_IN, 0xffffffff);
		put_be32(b + 20, 0x1234);	/* TTT: asks for a NOP-Out */
		set_dsl(b, 100);
		bhs_sn(c, b, 0);
		memset(data, 'N', sizeof(data));
		send_pdu(c, out, data, 100);
		return 1;
	case M_ASYNC_BAD:
		b = bhs_init(out, OP_ASYNC, 0xffffffff);
		b[36] = 0;			/* SCSI async event: sense follows */
		set_dsl(b, 2000);		/* only 20 bytes sent */
		bhs_sn(c, b, 1);
		memset(data, 0, sizeof(data));
		put_be16(data, 18);
		send_pdu_inv(c, out, data, 20, 0);
		return 1;
	case M_INV_UNOFFERED:
		scsi_rsp(c, itt, r, edtl, done, rkey);
		return 0;
	case M_DATAIN_STATUS:
		/* sent by stall_tick() once the receive queue is empty */
		b = bhs_init(c->stall_rsp, OP_DATA_IN, itt);
		b[1] = 0x81;			/* F, S */
		b[3] = r->status;
		put_be32(b + 20, 0xffffffff);
		put_be32(b + 36, 0);		/* DataSN */
		put_be32(b + 40, 0);		/* buffer offset */
		if (edtl > done) {
			b[1] |= 0x02;
			put_be32(b + 44, edtl - done);
		}
		c->stall = 1;
		clock_gettime(CLOCK_MONOTONIC, &c->stall_t);
		say("STALL conn=%d receive queue held (%u posted)", c->n,
		    c->rx_posted);
		return 0;
	default:
		return 1;
	}
}

/* The data of a read: RDMA WRITE to the command's read buffer. */
static uint32_t data_in(struct conn *c, const uint8_t *ihdr,
			const struct result *r, uint32_t edtl)
{
	uint32_t len = r->len < edtl ? r->len : edtl;
	const uint8_t *src = r->data;
	uint32_t lkey = c->lun_mr->lkey;

	if (!len)
		return 0;
	if (!(ihdr[0] & ISER_RSV)) {
		say("ERROR conn=%d read without a read STag", c->n);
		return 0;
	}
	if (src == r->small) {
		/* the response that follows takes send slot send_next */
		src = small_buf(c, c->send_next);
		memcpy((uint8_t *)src, r->small, len);
		lkey = c->mr->lkey;
	}
	rdma_op(c, IBV_WR_RDMA_WRITE, WR_WRITE, (void *)src, lkey,
		get_be64(ihdr + 20), get_be32(ihdr + 16), len);
	return len;
}

/* ---- writes ---- */

static struct wtask *wt_find(struct conn *c, uint32_t itt)
{
	int i;

	for (i = 0; i < MAX_TASKS; i++)
		if (c->wt[i].used && c->wt[i].itt == itt)
			return &c->wt[i];
	return NULL;
}

/* All unsolicited data in: fetch the rest, store, answer. */
static void wt_finish(struct conn *c, struct wtask *t)
{
	struct result r = {};
	uint8_t *buf = write_buf(c, 0);
	uint32_t rest = t->len - t->got;
	uint32_t rkey = 0;

	memcpy(buf, t->buf, t->got);
	if (rest && rdma_read_wait(c, buf + t->got, t->wva, t->wstag, rest)) {
		say("ERROR conn=%d itt=%#x RDMA READ of %u bytes failed", c->n,
		    t->itt, rest);
		sense(&r, 0x0b, 0x47);
	} else if (t->bad) {
		sense(&r, 0x0b, 0x0c);		/* aborted: write error */
	} else {
		memcpy(lun_data + (size_t)t->lba * LUN_BLOCK, buf, t->len);
	}
	if (c->sinv && t->wstag)
		rkey = t->wstag;
	scsi_rsp(c, t->itt, &r, t->len, t->len, rkey);
	free(t->buf);
	t->used = 0;
}

static void on_data_out(struct conn *c, const uint8_t *b, const uint8_t *data,
			uint32_t dlen)
{
	uint32_t itt, sn = get_be32(b + 36), off = get_be32(b + 40);
	struct wtask *t;

	memcpy(&itt, b + 16, 4);
	t = wt_find(c, itt);
	if (!t) {
		say("ERROR conn=%d Data-Out for unknown itt %#x", c->n, itt);
		return;
	}
	if (sn != t->next_sn || off != t->next_off) {
		say("DATAOUT_GAP conn=%d itt=%#x datasn=%u want=%u offset=%u want=%u",
		    c->n, itt, sn, t->next_sn, off, t->next_off);
		t->bad = 1;
	}
	if (dlen > c->peer_mrdsl || (uint64_t)off + dlen > t->unsol) {
		say("DATAOUT_LEN conn=%d itt=%#x offset=%u len=%u", c->n, itt,
		    off, dlen);
		t->bad = 1;
	} else {
		memcpy(t->buf + off, data, dlen);
	}
	t->next_sn = sn + 1;
	t->next_off = off + dlen;
	t->got += dlen;
	if (b[1] & 0x80) {
		if (t->got != t->unsol) {
			say("DATAOUT_SHORT conn=%d itt=%#x got=%u want=%u",
			    c->n, itt, t->got, t->unsol);
			t->bad = 1;
		}
		t->got = t->unsol;
		wt_finish(c, t);
	}
}

/* ---- commands ---- */

static void on_scsi_cmd(struct conn *c, const uint8_t *ihdr, const uint8_t *b,
			const uint8_t *data, uint32_t dlen)
{
	uint32_t itt, edtl = get_be32(b + 20), done, rkey = 0;
	const uint8_t *cdb = b + 32;
	uint64_t wlba = 0;
	uint32_t wn;
	struct result r;
	int trigger;

	memcpy(&itt, b + 16, 4);
	scsi_exec(cdb, b + 8, &r, &wlba, &wn);
	trigger = lie_op < 0 || cdb[0] == lie_op;
	if (trigger && lie_op >= 0)
		say("TRIGGER conn=%d itt=%#x", c->n, itt);

	if (wn && r.status == 0) {
		struct wtask *t;
		int i;

		for (i = 0; i < MAX_TASKS && c->wt[i].used; i++)
			;
		if (i == MAX_TASKS || edtl != wn * LUN_BLOCK || edtl > WBUF ||
		    dlen > edtl) {
			say("ERROR conn=%d write itt=%#x edtl=%u blocks=%u imm=%u not taken",
			    c->n, itt, edtl, wn, dlen);
			sense(&r, 0x05, 0x24);
			scsi_rsp(c, itt, &r, edtl, 0, 0);
			return;
		}
		t = &c->wt[i];
		memset(t, 0, sizeof(*t));
		t->used = 1;
		t->itt = itt;
		t->lba = wlba;
		t->len = edtl;
		t->buf = malloc(edtl);
		/*
		 * Unsolicited: the immediate data, and with the F bit clear
		 * Data-Out PDUs up to FirstBurstLength.
		 */
		t->unsol = dlen;
		if (!(b[1] & 0x80))
			t->unsol = edtl < c->first_burst ? edtl : c->first_burst;
		t->got = dlen;
		t->next_off = dlen;
		memcpy(t->buf, data, dlen);
		if (ihdr[0] & ISER_WSV) {
			t->wstag = get_be32(ihdr + 4);
			t->wva = get_be64(ihdr + 8);
		}
		if (t->got >= t->unsol)
			wt_finish(c, t);
		return;
	}

	done = r.status == 0 ? data_in(c, ihdr, &r, edtl) : 0;
	if (ihdr[0] & ISER_RSV)
		rkey = get_be32(ihdr + 16);

	if (trigger && lies_left) {
		if (lies_left > 0)
			lies_left--;
		say("LIE %s conn=%d itt=%#x cdb0=%#x rkey=%#x", mode_name, c->n,
		    itt, cdb[0], rkey);
		c->lie_itt = itt;
		c->probe_rkey = rkey;
		c->probe_va = (ihdr[0] & ISER_RSV) ? get_be64(ihdr + 20) : 0;
		c->probe_len = done;
		if (mode == M_INV_OTHER) {
			if (!c->held) {
				c->held = 1;
				c->held_itt = itt;
				c->held_rkey = rkey;
				lies_left++;	/* the second one lies */
				say("HELD conn=%d itt=%#x rkey=%#x", c->n, itt,
				    rkey);
				return;
			}
			scsi_rsp(c, itt, &r, edtl, done, c->held_rkey);
			return;
		}
		if (!lie(c, itt, &r, edtl, done, rkey))
			return;
	}
	scsi_rsp(c, itt, &r, edtl, done, c->sinv ? rkey : 0);
}

static void on_nop_out(struct conn *c, const uint8_t *b, const uint8_t *data,
		       uint32_t dlen)
{
	uint8_t out[HDRS];
	uint8_t *o;

	if (get_be32(b + 16) == 0xffffffff)
		return;				/* an answer to our NOP-In */
	o = bhs_init(out, OP_NOP_IN, 0);
	memcpy(o + 16, b + 16, 4);
	put_be32(o + 20, 0xffffffff);
	memcpy(o + 8, b + 8, 8);
	set_dsl(o, dlen);
	bhs_sn(c, o, 1);
	send_pdu(c, out, data, dlen);
}

static void on_tmf(struct conn *c, const uint8_t *b)
{
	uint8_t out[HDRS];
	uint8_t *o = bhs_init(out, OP_TMF_RSP, 0);

	say("TMF conn=%d func=%u rtt=%#x", c->n, b[1] & 0x7f,
	    get_be32(b + 20));
	memcpy(o + 16, b + 16, 4);
	o[2] = 0;				/* function complete */
	bhs_sn(c, o, 1);
	send_pdu(c, out, NULL, 0);
}

static void on_logout(struct conn *c, const uint8_t *b)
{
	uint8_t out[HDRS];
	uint8_t *o = bhs_init(out, OP_LOGOUT_RSP, 0);

	say("LOGOUT conn=%d reason=%u", c->n, b[1] & 0x7f);
	memcpy(o + 16, b + 16, 4);
	bhs_sn(c, o, 1);
	send_pdu(c, out, NULL, 0);
}

/* ---- login ---- */

/* Append KEY=VALUE and its NUL to TEXT (length *LEN, room CAP). */
static void key_add(char *text, uint32_t *len, uint32_t cap, const char *key,
		    const char *val)
{
	int n = snprintf(text + *len, cap - *len, "%s=%s", key, val);

	if (n > 0 && *len + n + 1 <= cap)
		*len += n + 1;
}

/* Our answer to one key the initiator sent; NULL: declarative, none. */
static const char *key_answer(struct conn *c, const char *key, const char *val,
			      char *num)
{
	static const char *const decl[] = {
		"InitiatorName", "InitiatorAlias", "TargetName", "SessionType",
		"MaxRecvDataSegmentLength", NULL,
	};
	static const char *const fixed[][2] = {
		{ "AuthMethod", "None" }, { "HeaderDigest", "None" },
		{ "DataDigest", "None" }, { "MaxConnections", "1" },
		{ "DefaultTime2Retain", "0" }, { "MaxOutstandingR2T", "1" },
		{ "DataPDUInOrder", "Yes" }, { "DataSequenceInOrder", "Yes" },
		{ "ErrorRecoveryLevel", "0" }, { "IFMarker", "No" },
		{ "OFMarker", "No" }, { "RDMAExtensions", "Yes" },
		{ NULL, NULL },
	};
	unsigned long v = strtoul(val, NULL, 10);
	int i;

	for (i = 0; decl[i]; i++)
		if (!strcmp(key, decl[i]))
			return NULL;
	for (i = 0; fixed[i][0]; i++)
		if (!strcmp(key, fixed[i][0]))
			return fixed[i][1];
	if (!strcmp(key, "InitialR2T"))
		return c->initial_r2t ? "Yes" : "No";
	if (!strcmp(key, "ImmediateData"))
		return c->immediate ? "Yes" : "No";
	if (!strcmp(key, "DefaultTime2Wait") ||
	    !strcmp(key, "InitiatorRecvDataSegmentLength"))
		return val;
	if (!strcmp(key, "TargetRecvDataSegmentLength")) {
		unsigned long ours = mode == M_SMALL_MRDSL ? 512 : OUR_MRDSL;

		c->peer_mrdsl = v < ours ? v : ours;
		snprintf(num, 16, "%u", c->peer_mrdsl);
		return num;
	}
	if (!strcmp(key, "MaxBurstLength")) {
		snprintf(num, 16, "%lu", v < WBUF ? v : WBUF);
		return num;
	}
	if (!strcmp(key, "FirstBurstLength")) {
		if (v > c->first_burst)
			v = c->first_burst;
		c->first_burst = v;
		snprintf(num, 16, "%lu", v);
		return num;
	}
	return "NotUnderstood";
}

static void on_login(struct conn *c, const uint8_t *b, const uint8_t *data,
		     uint32_t dlen)
{
	static char text[SEND_DATA];
	uint8_t out[HDRS];
	uint8_t *o = bhs_init(out, OP_LOGIN_RSP, 0);
	uint32_t len = 0, pos = 0, cap = 8192;
	int csg = (b[1] >> 2) & 3, nsg = b[1] & 3, transit = b[1] & 0x80;
	char line[1024];
	uint32_t ll = 0;
	char num[16];

	c->exp_cmdsn = get_be32(b + 24);
	if (mode == M_LOGIN_HUGE)
		cap = sizeof(text);
	while (pos < dlen) {
		const char *kv = (const char *)data + pos;
		size_t kl = strnlen(kv, dlen - pos);
		char key[256];
		const char *eq = memchr(kv, '=', kl), *val;

		pos += kl + 1;
		if (!eq || (size_t)(eq - kv) >= sizeof(key))
			continue;
		memcpy(key, kv, eq - kv);
		key[eq - kv] = 0;
		val = eq + 1;
		if (ll < sizeof(line) - 1)
			ll += snprintf(line + ll, sizeof(line) - ll, " %.*s",
				       (int)kl, kv);
		val = key_answer(c, key, val, num);
		if (val)
			key_add(text, &len, cap, key, val);
	}
	say("LOGIN conn=%d csg=%d nsg=%d t=%d keys:%.900s", c->n, csg, nsg,
	    !!transit, line);
	if (!c->login_rsps++)
		key_add(text, &len, cap, "TargetPortalGroupTag", "1");
	if (mode == M_LOGIN_HUGE) {
		say("LIE login-huge conn=%d", c->n);
		while (len + 40 < 10000)
			key_add(text, &len, cap, "X-org.example.padding",
				"0123456789012345678901234567");
	}
	o[1] = b[1] & 0xcf;			/* T, C, CSG, NSG as asked */
	memcpy(o + 8, b + 8, 8);		/* ISID, TSIH */
	if (transit && nsg == 3)
		put_be16(o + 14, 1);
	memcpy(o + 16, b + 16, 4);
	set_dsl(o, len);
	bhs_sn(c, o, 1);
	send_pdu(c, out, text, len);
	if (transit && nsg == 3) {
		c->ffp = 1;
		say("LOGGED_IN conn=%d mrdsl=%u initial_r2t=%d immediate=%d first_burst=%u sinv=%d",
		    c->n, c->peer_mrdsl, c->initial_r2t, c->immediate,
		    c->first_burst, c->sinv);
	}
}

static void on_recv(struct conn *c, const uint8_t *pdu, uint32_t len)
{
	const uint8_t *b = pdu + ISER_HDR, *data = pdu + HDRS;
	uint32_t ahs, dlen;
	uint8_t op;

	if (len < HDRS) {
		say("ERROR conn=%d short PDU (%u bytes)", c->n, len);
		return;
	}
	op = b[0] & 0x3f;
	ahs = b[4] * 4;
	dlen = get_be24(b + 5);
	if (HDRS + ahs + dlen > len) {
		say("ERROR conn=%d PDU op=%#x announces %u bytes, %u sent",
		    c->n, op, ahs + dlen, len - HDRS);
		return;
	}
	data += ahs;
	if (!(b[0] & 0x40) && (op == OP_SCSI_CMD || op == OP_TMF ||
			       op == OP_LOGOUT || op == OP_TEXT ||
			       op == OP_NOP_OUT)) {
		uint32_t sn = get_be32(b + 24);

		if ((int32_t)(sn + 1 - c->exp_cmdsn) > 0)
			c->exp_cmdsn = sn + 1;
	}
	switch (op) {
	case OP_LOGIN:
		on_login(c, b, data, dlen);
		break;
	case OP_SCSI_CMD:
		on_scsi_cmd(c, pdu, b, data, dlen);
		break;
	case OP_DATA_OUT:
		on_data_out(c, b, data, dlen);
		break;
	case OP_NOP_OUT:
		on_nop_out(c, b, data, dlen);
		break;
	case OP_TMF:
		on_tmf(c, b);
		break;
	case OP_LOGOUT:
		on_logout(c, b);
		break;
	default:
		say("ERROR conn=%d unexpected opcode %#x", c->n, op);
		break;
	}
}

/* ---- the receive queue and the stall of datain-status ---- */

static void rx_done(struct conn *c, unsigned int idx)
{
	if (c->stall) {
		c->rx_held[idx] = 1;
		return;
	}
	post_recv(c, idx);
}

/*
 * datain-status: once every receive buffer is used (the initiator's next
 * SEND now waits for receiver-not-ready retries, and so does everything it
 * posts behind it) and half a second has passed, send the Data-In with
 * status; repost the buffers -s seconds later.
 */
static void stall_tick(struct conn *c)
{
	unsigned int i;

	if (c->stall == 1 && c->rx_posted == 0) {
		if (since(&c->stall_t) < 0.5)
			return;
		send_pdu_inv(c, c->stall_rsp, NULL, 0, 0);
		say("DATAIN_STATUS conn=%d itt=%#x sent with the receive queue empty",
		    c->n, c->lie_itt);
		c->stall = 2;
		clock_gettime(CLOCK_MONOTONIC, &c->stall_t);
		return;
	}
	if (c->stall == 1 && c->rx_posted) {
		/* restart the half second at exhaustion */
		clock_gettime(CLOCK_MONOTONIC, &c->stall_t);
		return;
	}
	if (c->stall == 2 && since(&c->stall_t) >= stall_secs) {
		c->stall = 0;
		for (i = 0; i < NRECV; i++) {
			if (c->rx_held[i]) {
				c->rx_held[i] = 0;
				post_recv(c, i);
			}
		}
		say("UNSTALL conn=%d %u receives posted", c->n, c->rx_posted);
	}
}

static void probe(struct conn *c)
{
	static const char canary[8] = "ROGUEPRB";
	uint8_t *src = write_buf(c, WBUFS - 1);

	if (!c->probe_rkey) {
		say("PROBE conn=%d nothing to probe", c->n);
		return;
	}
	memcpy(src, canary, sizeof(canary));
	say("PROBE_POST conn=%d rkey=%#x va=%#llx", c->n, c->probe_rkey,
	    (unsigned long long)c->probe_va);
	rdma_op(c, IBV_WR_RDMA_WRITE, WR_PROBE, src, c->mr->lkey, c->probe_va,
		c->probe_rkey, sizeof(canary));
}

static void poll_cq(struct conn *c)
{
	struct ibv_wc wc[16];
	struct ibv_cq *cq;
	void *ctx;
	int n, i;

	if (ibv_get_cq_event(c->cc, &cq, &ctx))
		return;
	ibv_ack_cq_events(cq, 1);
	ibv_req_notify_cq(cq, 0);
	while ((n = ibv_poll_cq(cq, 16, wc)) > 0) {
		for (i = 0; i < n; i++) {
			unsigned int idx = (uint32_t)wc[i].wr_id;

			c->rx_posted--;
			if (wc[i].status != IBV_WC_SUCCESS) {
				if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
					say("WC_ERROR conn=%d kind=1 %s", c->n,
					    ibv_wc_status_str(wc[i].status));
				continue;
			}
			on_recv(c, recv_buf(c, idx), wc[i].byte_len);
			rx_done(c, idx);
		}
	}
	poll_sends(c, 0);
}

/* ---- connections ---- */

static void conn_free(struct conn *c)
{
	int i;

	for (i = 0; i < MAX_CONNS; i++)
		if (conns[i] == c)
			conns[i] = NULL;
	for (i = 0; i < MAX_TASKS; i++)
		free(c->wt[i].used ? c->wt[i].buf : NULL);
	if (c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->lun_mr)
		ibv_dereg_mr(c->lun_mr);
	if (c->mr)
		ibv_dereg_mr(c->mr);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->scq)
		ibv_destroy_cq(c->scq);
	if (c->cc)
		ibv_destroy_comp_channel(c->cc);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	free(c->mem);
	rdma_destroy_id(c->id);
	free(c);
}

static struct conn *conn_find(struct rdma_cm_id *id)
{
	int i;

	for (i = 0; i < MAX_CONNS; i++)
		if (conns[i] && conns[i]->id == id)
			return conns[i];
	return NULL;
}

static void on_connect_request(struct rdma_cm_id *id, const uint8_t *priv,
			       unsigned int priv_len, uint8_t rd_depth)
{
	struct ibv_qp_init_attr qa = {};
	struct rdma_conn_param cp = {};
	uint8_t rep[4] = { CM_ZBVA_NOT_SUP };
	struct conn *c;
	unsigned int i;
	int slot;

	for (slot = 0; slot < MAX_CONNS && conns[slot]; slot++)
		;
	c = slot < MAX_CONNS ? calloc(1, sizeof(*c)) : NULL;
	if (!c) {
		say("ERROR too many connections");
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		return;
	}
	c->n = ++conn_seq;
	c->id = id;
	conns[slot] = c;
	c->sinv = priv_len >= 4 && !(priv[0] & CM_SINV_NOT_SUP);
	c->initial_r2t = mode != M_SMALL_MRDSL;
	c->immediate = 1;
	c->first_burst = 65536;
	c->peer_mrdsl = 0;
	c->statsn = 0x1000;
	say("CONNECT conn=%d cm_flags=%#x send_inv=%s", c->n,
	    priv_len ? priv[0] : 0, c->sinv ? "offered" : "not offered");

	c->pd = ibv_alloc_pd(id->verbs);
	c->cc = c->pd ? ibv_create_comp_channel(id->verbs) : NULL;
	c->cq = c->cc ? ibv_create_cq(id->verbs, NRECV, c, c->cc, 0) : NULL;
	c->scq = c->cq ? ibv_create_cq(id->verbs, SQ_DEPTH, c, NULL, 0) : NULL;
	c->mem = calloc(1, MEM_SIZE);
	if (!c->scq || !c->mem)
		goto err;
	c->mr = ibv_reg_mr(c->pd, c->mem, MEM_SIZE, IBV_ACCESS_LOCAL_WRITE);
	c->lun_mr = ibv_reg_mr(c->pd, lun_data, LUN_BYTES, 0);
	if (!c->mr || !c->lun_mr)
		goto err;
	fcntl(c->cc->fd, F_SETFL, fcntl(c->cc->fd, F_GETFL) | O_NONBLOCK);
	qa.send_cq = c->scq;
	qa.recv_cq = c->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = SQ_DEPTH;
	qa.cap.max_recv_wr = NRECV;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(id, c->pd, &qa))
		goto err;
	c->qp = id->qp;
	for (i = 0; i < NRECV; i++)
		if (post_recv(c, i))
			goto err;
	if (ibv_req_notify_cq(c->cq, 0))
		goto err;
	/* we invalidate remotely whenever the initiator offers it */
	if (!c->sinv)
		rep[0] |= CM_SINV_NOT_SUP;
	cp.private_data = rep;
	cp.private_data_len = sizeof(rep);
	cp.rnr_retry_count = 7;
	cp.responder_resources = 0;
	cp.initiator_depth = rd_depth ? rd_depth : 1;
	if (rdma_accept(id, &cp))
		goto err;
	return;
err:
	say("ERROR conn=%d cannot set up the connection: %s", c->n,
	    strerror(errno));
	rdma_reject(id, NULL, 0);
	conn_free(c);
}

static void on_cm_event(struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev, copy;
	uint8_t priv[64];
	unsigned int priv_len = 0;
	struct conn *c;

	if (rdma_get_cm_event(ch, &ev))
		return;
	copy = *ev;
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST &&
	    ev->param.conn.private_data) {
		priv_len = ev->param.conn.private_data_len;
		if (priv_len > sizeof(priv))
			priv_len = sizeof(priv);
		memcpy(priv, ev->param.conn.private_data, priv_len);
	}
	rdma_ack_cm_event(ev);
	if (copy.event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		on_connect_request(copy.id, priv, priv_len,
				   copy.param.conn.initiator_depth);
		return;
	}
	c = conn_find(copy.id);
	say("CM %s conn=%d", rdma_event_str(copy.event), c ? c->n : 0);
	if (!c)
		return;
	switch (copy.event) {
	case RDMA_CM_EVENT_DISCONNECTED:
		rdma_disconnect(c->id);
		conn_free(c);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		conn_free(c);
		break;
	default:
		break;
	}
}

static void usage(void)
{
	unsigned int i;

	fprintf(stderr,
		"usage: rogue-iser [-a ADDR] [-p PORT] [-o OPCODE|any] [-n COUNT] [-s SECS] MODE\n"
		"  -a ADDR    listen address (default 0.0.0.0)\n"
		"  -p PORT    RDMA/CM port (default 3261)\n"
		"  -o OPCODE  CDB opcode whose answer lies (default 0xc0; any: every one)\n"
		"  -n COUNT   lie to the first COUNT such commands, -1 all (default 1)\n"
		"  -s SECS    datain-status: hold the receive queue this long (default 5)\n"
		"SIGUSR1: RDMA WRITE 8 bytes to the read buffer of the last command lied about\n"
		"modes:\n");
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(stderr, "  %-14s %s\n", modes[i].name, modes[i].help);
	exit(2);
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		probe_req = 1;
	else
		stop = 1;
}

int main(int argc, char **argv)
{
	const char *addr = "0.0.0.0", *port = "3261";
	struct sigaction sa = { .sa_handler = on_signal };
	struct rdma_addrinfo hints = {}, *ai;
	struct pollfd pfd[1 + MAX_CONNS];
	struct conn *polled[1 + MAX_CONNS];
	struct rdma_event_channel *ech;
	struct rdma_cm_id *listen_id;
	int opt, n, found = 0;
	unsigned int i;

	while ((opt = getopt(argc, argv, "a:p:o:n:s:h")) != -1) {
		switch (opt) {
		case 'a':
			addr = optarg;
			break;
		case 'p':
			port = optarg;
			break;
		case 'o':
			lie_op = strcmp(optarg, "any") ?
				 strtol(optarg, NULL, 0) : -1;
			break;
		case 'n':
			lies_left = strtol(optarg, NULL, 0);
			break;
		case 's':
			stall_secs = strtol(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(argv[optind], modes[i].name)) {
			mode = modes[i].mode;
			mode_name = modes[i].name;
			found = 1;
		}
	}
	if (!found)
		usage();
	for (i = 0; i < LUN_BLOCKS; i++)
		put_be64(lun_data + (size_t)i * LUN_BLOCK, i);

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	ech = rdma_create_event_channel();
	if (!ech) {
		perror("rdma_create_event_channel");
		return 1;
	}
	fcntl(ech->fd, F_SETFL, fcntl(ech->fd, F_GETFL) | O_NONBLOCK);
	hints.ai_flags = RAI_PASSIVE;
	hints.ai_port_space = RDMA_PS_TCP;
	if (rdma_getaddrinfo(addr, port, &hints, &ai)) {
		perror("rdma_getaddrinfo");
		return 1;
	}
	if (rdma_create_id(ech, &listen_id, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(listen_id, ai->ai_src_addr) ||
	    rdma_listen(listen_id, 16)) {
		perror("listen");
		return 1;
	}
	rdma_freeaddrinfo(ai);
	say("LISTEN %s:%s mode=%s lie_op=%#x count=%d", addr, port, mode_name,
	    lie_op, lies_left);

	while (!stop) {
		n = 0;
		pfd[n].fd = ech->fd;
		pfd[n].events = POLLIN;
		polled[n++] = NULL;
		for (i = 0; i < MAX_CONNS; i++) {
			if (!conns[i])
				continue;
			pfd[n].fd = conns[i]->cc->fd;
			pfd[n].events = POLLIN;
			polled[n++] = conns[i];
		}
		if (probe_req) {
			probe_req = 0;
			for (i = 0; i < MAX_CONNS; i++)
				if (conns[i])
					probe(conns[i]);
		}
		for (i = 0; i < MAX_CONNS; i++) {
			if (conns[i]) {
				if (conns[i]->stall)
					stall_tick(conns[i]);
				poll_sends(conns[i], 0);
			}
		}
		if (poll(pfd, n, 50) <= 0)
			continue;
		for (i = 1; i < (unsigned int)n; i++)
			if (pfd[i].revents & POLLIN)
				poll_cq(polled[i]);
		if (pfd[0].revents & POLLIN)
			on_cm_event(ech);
	}
	say("EXIT");
	for (i = 0; i < MAX_CONNS; i++) {
		if (conns[i]) {
			rdma_disconnect(conns[i]->id);
			conn_free(conns[i]);
		}
	}
	rdma_destroy_id(listen_id);
	rdma_destroy_event_channel(ech);
	return 0;
}
