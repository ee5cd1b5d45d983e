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
 * segment. It answers the login (one target, any name), serves LUN 0
 * (../rdma-target/scsi.c, writable here), reads by RDMA WRITE, writes by
 * immediate data, unsolicited Data-Out and RDMA READ, and answers NOP-Out,
 * task management and logout. A MODE lies in its answer to the first COUNT
 * (default 1, -1 for all) SCSI commands whose CDB opcode is OPCODE
 * (default 0xc0, vendor specific: the kernel never sends it on its own,
 * the lab sends it with sg_raw), or, for login modes, in the login.
 *
 * SIGUSR1 runs the stale-rkey probe (../rdma-target): an RDMA WRITE to the
 * read buffer (rkey and VA) of the last command lied about, whose
 * completion status is logged ("PROBE ... status=..."). A target must
 * never be able to do that once the command has completed. SIGUSR2 runs
 * it over the command's own connection while that is up, else over
 * another connection of the initiator (whose PD, on one device, may hold
 * the same rkey).
 *
 * Every event is one line on stdout, for the lab scenario to check. The
 * RDMA/CM and verbs plumbing is ../rdma-target/rdma-target.c.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma-target.h"
#include "scsi.h"

#define WINDOW		32		/* commands at once: MaxCmdSN - ExpCmdSN + 1 */
#define RX_EXTRA	16		/* receives beyond them: NOP-Out, TMF, ... */
#define NRECV		(WINDOW + RX_EXTRA)
#define ISER_HDR	28
#define BHS		48
#define HDRS		(ISER_HDR + BHS)
#define RECV_DATA	(16384 + 1024)	/* data segment + AHS we take */
#define RECV_SIZE	(HDRS + RECV_DATA)
#define FIRST_BURST	65536		/* FirstBurstLength we take at most */
/*
 * small-mrdsl: a target needs a receive buffer for every PDU the initiator
 * may send unasked, with InitialR2T=No every command of the window and its
 * FirstBurstLength of Data-Out PDUs. With fewer, RDMA's receiver-not-ready
 * retries (655 ms each with rdma_cm's default timer) throttle the
 * connection until NOP-Out pings time out, which would say nothing about
 * the initiator; and on soft-RoCE in 6.1 a receiver-not-ready retry
 * also runs again the fast registrations queued behind the SEND, which
 * breaks the QP (docs/lab.md). Login PDUs stay at most 8 KiB.
 */
#define SMALL_MRDSL	512
#define SMALL_NRECV	(WINDOW * (1 + FIRST_BURST / SMALL_MRDSL) + RX_EXTRA)
#define SMALL_RECV_SIZE	(HDRS + 8192 + 1024)
#define PINGS_MAX	8		/* *-stall: NOP-Ins unanswered at once */
#define NSEND		128
#define SEND_DATA	12288		/* room for an oversized login response */
#define SEND_SIZE	(HDRS + SEND_DATA)
#define SQ_DEPTH	1024
#define MAX_TASKS	128		/* writes collecting data at once */
#define WBUF		(256 * 1024)	/* largest write we take (MaxBurstLength) */
#define OUR_MRDSL	8192		/* MaxRecvDataSegmentLength we declare */
/*
 * sq-overflow: libiscsi's task tags are the index of the task in the
 * session's pool in the low bits (ISCSI_ITT_MASK) and the session's age
 * above; the pool hands out its free tasks first in, first out.
 */
#define ITT_INDEX	0x1fff
#define POOL_MAX	(ITT_INDEX + 1)
#define OVF_FORESEEN	512	/* allocations foreseen in a row before the stall */
#define OVF_ROUNDS	1000	/* rounds before giving up */

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
	M_SMALL_MRDSL, M_ABORT_STALL, M_LUN_RESET_STALL, M_TARGET_RESET_STALL,
	M_SQ_OVERFLOW, M_DUP_STATUS, M_XCONN, M_LOGIN_NOPIN, M_LOGIN_SILENT,
};

/* Task management functions (RFC 7143 section 11.5.1) */
enum { TMF_ABORT_TASK = 1, TMF_LUN_RESET = 5, TMF_TARGET_WARM_RESET = 6 };

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
	{ "abort-stall", M_ABORT_STALL, "hold the trigger; when an ABORT TASK names it, let the receive queue run empty (NOP-Ins the initiator answers use it up, one answer more waits), answer \"function complete\", repost the receives -s seconds later" },
	{ "lun-reset-stall", M_LUN_RESET_STALL, "as abort-stall, for the LOGICAL UNIT RESET that comes while the trigger is held" },
	{ "target-reset-stall", M_TARGET_RESET_STALL, "as abort-stall, for the TARGET WARM RESET that comes while the trigger is held" },
	{ "dup-status", M_DUP_STATUS, "as datain-status, and right behind the Data-In with status a SCSI Response for the same command: two PDUs that complete it, while the initiator's LOCAL_INV for the first waits in its send queue" },
	{ "xconn", M_XCONN, "hold the trigger, never answer it; SIGUSR2 probes its rkey over another connection of the initiator (another session's), whether or not the trigger's connection is up" },
	{ "login-nopin", M_LOGIN_NOPIN, "right behind the final login response, an unsolicited NOP-In that wants no answer (TTT 0xffffffff), as tgt's 5 s NOP-In timer may send one: it must find a receive posted (over iWARP a SEND that finds none ends the connection)" },
	{ "login-silent", M_LOGIN_SILENT, "never answer a login request: the initiator's session is created and bound, its login never ends" },
	{ "sq-overflow", M_SQ_OVERFLOW, "under a write load of -q commands at once, once it foresees which task the initiator uses next: let the receive queue run empty, then answer, -q at a time, the commands the initiator keeps posting behind the SEND that waits, without seeing them" },
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

/* A connection's iSCSI state (conn->priv). */
struct iconn {
	int		sinv;		/* initiator offered Send with Invalidate */
	uint32_t	statsn, exp_cmdsn;
	uint32_t	peer_mrdsl;	/* our receive segment length, as agreed */
	int		login_rsps;
	int		initial_r2t, immediate;
	uint32_t	first_burst;
	struct wtask	wt[MAX_TASKS];
	/*
	 * datain-status, *-stall: the receive buffers held back, the PDU
	 * to send once the receive queue is empty (Data-In, TMF Response)
	 */
	unsigned char	rx_held[NRECV];
	int		stall;		/* enum stall */
	long long	stall_t;	/* now_ms() */
	uint8_t		stall_rsp[HDRS];
	unsigned int	pings_out;	/* *-stall: NOP-Ins not answered */
	/* the command lied about: its read buffer, for the probe */
	struct rt_probe	lied;
	int		held;		/* inv-other, *-stall: a held trigger */
	uint32_t	held_itt, held_rkey;
	/*
	 * sq-overflow: the initiator's pool of free tasks as this
	 * connection saw it, oldest first (pool_free[pool_head], pool_n of
	 * them); tasks never used yet are not in it: pool_fresh is the
	 * index the next of those has
	 */
	uint32_t	pool_free[POOL_MAX];
	unsigned int	pool_head, pool_n;
	uint32_t	pool_fresh;
	int		pool_started, pool_wrapped;
	unsigned int	foreseen;	/* allocations foreseen in a row */
	unsigned int	rounds, unseen;	/* rounds of answers, commands answered */
	/*
	 * datain-status: the order check (enum order), the ExpStatSN the
	 * initiator must acknowledge at least once it has read the Async
	 * Message sent behind the Data-In with status, and the command whose
	 * answer waits for that check
	 */
	int		order;
	uint32_t	order_want;
	long long	order_t;
	uint32_t	order_itt;
	struct scsi_result order_rsp;
};

/*
 * datain-status, after the Data-In with status (StatSN N) and an Async
 * Message right behind it (N + 1): the initiator holds the Data-In until
 * its LOCAL_INV completes and delivers the Async Message at once, so it
 * reads them out of order. Once the target resumes (ORDER_ARMED), the
 * answer to the first command that comes is held (ORDER_HELD: the
 * Data-In's delivery has happened by then), 300 ms later a NOP-In asks
 * for a NOP-Out (ORDER_PING), and that NOP-Out must acknowledge
 * ExpStatSN N + 2: what the initiator had acknowledged must not go back
 * when the older PDU is delivered. Then the held answer goes out.
 */
enum order { ORDER_NONE, ORDER_ARMED, ORDER_HELD, ORDER_PING };
#define ORDER_TTT	0x3000

/*
 * The receive queue of datain-status and the *-stall modes: RUN_DRY,
 * buffers held back until the initiator's sends have used up the posted
 * ones (a TEST UNIT READY loop; the NOP-Ins of *-stall, DRAIN) and one
 * more SEND of the initiator waits (LAST_PING); then the PDU in stall_rsp
 * goes out (SENT) and -s seconds later the buffers are reposted.
 */
enum stall { STALL_NONE, STALL_RUN_DRY, STALL_DRAIN, STALL_LAST_PING,
	     STALL_SENT, STALL_OVF_DRY, STALL_OVF_ROUNDS, STALL_OVF_DONE };

static struct iconn *iser(const struct conn *c)
{
	return c->priv;
}

static enum mode mode;
static const char *mode_name;
static int lie_op = 0xc0;
static int lies_left = 1;
static int stall_secs = 5;
static unsigned int ovf_depth = 32;
static unsigned int ovf_round_ms = 400;	/* between two rounds of answers */
static int ovf_done;
static volatile sig_atomic_t probe_req;	/* 1: SIGUSR1, 2: SIGUSR2 */
/*
 * lun-reset-stall: the task tag of the LOGICAL UNIT RESET answered (1:
 * known), for a forged response naming it once that is over (2: sent), on
 * whatever connection of the session the next trigger comes (the probe
 * ends the reset's)
 */
static int stale;
static uint32_t stale_itt;
/* The last command lied about, on any connection: SIGUSR2's probe. */
static struct rt_probe last_lied;

/*
 * abort-stall, lun-reset-stall, target-reset-stall: the task management
 * function that, while the trigger is held, is answered "function
 * complete" with the receive queue empty. 0 in the other modes.
 */
static int stall_tmf(void)
{
	switch (mode) {
	case M_ABORT_STALL:
		return TMF_ABORT_TASK;
	case M_LUN_RESET_STALL:
		return TMF_LUN_RESET;
	case M_TARGET_RESET_STALL:
		return TMF_TARGET_WARM_RESET;
	default:
		return 0;
	}
}

/* ---- sq-overflow: the initiator's task pool ---- */

/* The pool hands out the task with tag ITT, which we received. */
static void pool_alloc(struct conn *c, uint32_t itt)
{
	struct iconn *ic = iser(c);
	uint32_t idx = itt & ITT_INDEX;
	unsigned int i, j;

	if (!ic->pool_started || (!ic->pool_wrapped && idx == ic->pool_fresh)) {
		/* never used: they come in the order of their index */
		ic->pool_started = 1;
		ic->pool_fresh = idx + 1;
		return;
	}
	if (!ic->pool_wrapped) {
		ic->pool_wrapped = 1;
		say("POOL conn=%d every task used once: %u of them", c->n,
		    ic->pool_fresh);
	}
	if (ic->pool_n && ic->pool_free[ic->pool_head] == itt) {
		ic->pool_head = (ic->pool_head + 1) % POOL_MAX;
		ic->pool_n--;
		ic->foreseen++;
		return;
	}
	/* not foreseen: forget it wherever it is, start counting again */
	ic->foreseen = 0;
	for (i = 0; i < ic->pool_n; i++) {
		if (ic->pool_free[(ic->pool_head + i) % POOL_MAX] != itt)
			continue;
		for (j = i; j + 1 < ic->pool_n; j++)
			ic->pool_free[(ic->pool_head + j) % POOL_MAX] =
				ic->pool_free[(ic->pool_head + j + 1) % POOL_MAX];
		ic->pool_n--;
		break;
	}
}

/* Our PDU frees the task with tag ITT once the initiator reads it. */
static void pool_free(struct conn *c, uint32_t itt)
{
	struct iconn *ic = iser(c);

	if (ic->pool_n == POOL_MAX)
		return;
	ic->pool_free[(ic->pool_head + ic->pool_n) % POOL_MAX] = itt;
	ic->pool_n++;
}

/* Does PDU (HDRS bytes) end the initiator task it names? */
static int pdu_frees_task(const uint8_t *pdu)
{
	const uint8_t *b = pdu + ISER_HDR;

	switch (b[0] & 0x3f) {
	case OP_SCSI_RSP:
	case OP_TMF_RSP:
	case OP_LOGOUT_RSP:
		return 1;
	case OP_DATA_IN:
		return b[1] & 0x01;		/* S: with the status */
	case OP_NOP_IN:
		return get_be32(b + 16) != 0xffffffff;
	default:
		return 0;
	}
}

/* ---- sending ---- */

/* Where a write's data is put together (rt_extra(): WBUF bytes). */
static uint8_t *write_buf(struct conn *c)
{
	return rt_extra(c);
}

/*
 * Send a PDU: iSER header + BHS (HDRS bytes at PDU) + LEN bytes of data
 * segment from DATA, padded to a multiple of 4. INV_RKEY: Send with
 * Invalidate of that rkey when non-zero.
 */
static int send_pdu_inv(struct conn *c, const uint8_t *pdu,
			const void *data, uint32_t len, uint32_t inv_rkey)
{
	uint32_t wire = (len + 3) & ~3U;
	unsigned int slot;
	uint8_t *buf;

	if (wire > SEND_DATA) {
		say("ERROR conn=%d a PDU with %u bytes of data does not fit a send slot",
		    c->n, len);
		return -1;
	}
	if (pdu_frees_task(pdu)) {
		uint32_t itt;

		memcpy(&itt, pdu + ISER_HDR + 16, 4);
		pool_free(c, itt);
	}
	slot = rt_next_slot(c);
	buf = rt_send_buf(c, slot);
	memcpy(buf, pdu, HDRS);
	buf[0] = ISER_CTRL;
	if (len)
		memcpy(buf + HDRS, data, len);
	memset(buf + HDRS + len, 0, wire - len);
	return rt_post_send(c, slot, HDRS + wire, inv_rkey);
}

static int send_pdu(struct conn *c, const uint8_t *pdu, const void *data,
		    uint32_t len)
{
	return send_pdu_inv(c, pdu, data, len, 0);
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
	struct iconn *ic = iser(c);

	put_be32(b + 24, status ? ic->statsn++ : ic->statsn);
	put_be32(b + 28, ic->exp_cmdsn);
	put_be32(b + 32, ic->exp_cmdsn + WINDOW - 1);
}

static void set_dsl(uint8_t *b, uint32_t len) { put_be24(b + 5, len); }

/* ---- responses ---- */

/*
 * The SCSI Response for ITT: STATUS, sense if CHECK CONDITION, residual
 * against EDTL for DONE bytes moved. INV_RKEY as in send_pdu_inv().
 */
static void scsi_rsp(struct conn *c, uint32_t itt, const struct scsi_result *r,
		     uint32_t edtl, uint32_t done, uint32_t inv_rkey)
{
	uint8_t out[HDRS], data[2 + SENSE_LEN];
	uint8_t *b = bhs_init(out, OP_SCSI_RSP, itt);
	uint32_t dlen = 0;

	b[3] = r->status;
	if (r->status == SAM_CHECK_CONDITION) {
		put_be16(data, SENSE_LEN);
		memcpy(data + 2, r->sense, SENSE_LEN);
		dlen = sizeof(data);
	} else if (edtl > done) {
		b[1] |= 0x02;			/* underflow */
		put_be32(b + 44, edtl - done);
	} else if (edtl < done) {
		b[1] |= 0x04;			/* overflow */
		put_be32(b + 44, done - edtl);
	}
	set_dsl(b, dlen);
	bhs_sn(c, b, 1);
	send_pdu_inv(c, out, data, dlen, inv_rkey);
}

/* Lie about the answer to ITT; return 1 when the normal answer follows. */
static int lie(struct conn *c, uint32_t itt, const struct scsi_result *r,
	       uint32_t edtl, uint32_t done, uint32_t rkey)
{
	struct iconn *ic = iser(c);
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
	case M_DUP_STATUS:
		/* sent by stall_send() once the receive queue is empty */
		b = bhs_init(ic->stall_rsp, OP_DATA_IN, itt);
		b[1] = 0x81;			/* F, S */
		b[3] = r->status;
		put_be32(b + 20, 0xffffffff);
		put_be32(b + 36, 0);		/* DataSN */
		put_be32(b + 40, 0);		/* buffer offset */
		if (edtl > done) {
			b[1] |= 0x02;
			put_be32(b + 44, edtl - done);
		}
		ic->stall = STALL_RUN_DRY;
		ic->stall_t = now_ms();
		say("STALL conn=%d receive queue held (%u posted)", c->n,
		    c->rx_posted);
		return 0;
	default:
		return 1;
	}
}

/* The data of a read: RDMA WRITE to the command's read buffer. */
static uint32_t data_in(struct conn *c, const uint8_t *ihdr,
			const struct scsi_result *r, uint32_t edtl)
{
	uint32_t len = r->data_len < edtl ? r->data_len : edtl;
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
		src = rt_slot_data(c, c->send_next);
		memcpy((uint8_t *)src, r->small, len);
		lkey = c->mr->lkey;
	}
	rt_rdma(c, IBV_WR_RDMA_WRITE, src, lkey, get_be64(ihdr + 20),
		get_be32(ihdr + 16), len);
	return len;
}

/* ---- writes ---- */

static struct wtask *wt_find(struct conn *c, uint32_t itt)
{
	struct iconn *ic = iser(c);
	int i;

	for (i = 0; i < MAX_TASKS; i++)
		if (ic->wt[i].used && ic->wt[i].itt == itt)
			return &ic->wt[i];
	return NULL;
}

/* All unsolicited data in: fetch the rest, store, answer. */
static void wt_finish(struct conn *c, struct wtask *t)
{
	struct scsi_result r = {};
	uint8_t *buf = write_buf(c);
	uint32_t rest = t->len - t->got;
	uint32_t rkey = 0;

	memcpy(buf, t->buf, t->got);
	if (rest && rt_rdma_read_wait(c, buf + t->got, t->wva, t->wstag, rest)) {
		say("ERROR conn=%d itt=%#x RDMA READ of %u bytes failed", c->n,
		    t->itt, rest);
		scsi_sense(&r, 0x0b, 0x47, 0);	/* aborted: data phase error */
	} else if (t->bad) {
		scsi_sense(&r, 0x0b, 0x0c, 0);	/* aborted: write error */
	} else {
		memcpy(lun_data + (size_t)t->lba * LUN_BLOCK, buf, t->len);
	}
	if (iser(c)->sinv && t->wstag)
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
	if (dlen > iser(c)->peer_mrdsl || (uint64_t)off + dlen > t->unsol) {
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
	struct iconn *ic = iser(c);
	uint32_t itt, edtl = get_be32(b + 20), done, rkey = 0, wn;
	const uint8_t *cdb = b + 32;
	struct scsi_result r = {};
	int trigger;

	memcpy(&itt, b + 16, 4);
	scsi_exec(b + 8, cdb, b[1] & 0x20 /* W */, &r);
	wn = r.write_blocks;
	trigger = lie_op < 0 || cdb[0] == lie_op;
	if (trigger && lie_op >= 0)
		say("TRIGGER conn=%d itt=%#x", c->n, itt);

	if (wn && r.status == SAM_GOOD) {
		struct wtask *t;
		int i;

		for (i = 0; i < MAX_TASKS && ic->wt[i].used; i++)
			;
		if (i == MAX_TASKS || edtl != wn * LUN_BLOCK || edtl > WBUF ||
		    dlen > edtl) {
			say("ERROR conn=%d write itt=%#x edtl=%u blocks=%u imm=%u not taken",
			    c->n, itt, edtl, wn, dlen);
			scsi_sense(&r, 0x05, 0x24, 0);	/* invalid field in CDB */
			scsi_rsp(c, itt, &r, edtl, 0, 0);
			return;
		}
		t = &ic->wt[i];
		memset(t, 0, sizeof(*t));
		t->used = 1;
		t->itt = itt;
		t->lba = r.write_lba;
		t->len = edtl;
		t->buf = malloc(edtl);
		/*
		 * Unsolicited: the immediate data, and with the F bit clear
		 * Data-Out PDUs up to FirstBurstLength.
		 */
		t->unsol = dlen;
		if (!(b[1] & 0x80))
			t->unsol = edtl < ic->first_burst ?
				   edtl : ic->first_burst;
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

	if (ic->order == ORDER_ARMED && !edtl && !trigger) {
		ic->order = ORDER_HELD;
		ic->order_t = now_ms();
		ic->order_itt = itt;
		ic->order_rsp = r;
		return;
	}

	done = r.status == SAM_GOOD ? data_in(c, ihdr, &r, edtl) : 0;
	if (ihdr[0] & ISER_RSV)
		rkey = get_be32(ihdr + 16);

	if (trigger && stale == 1 && !ic->stall) {
		/*
		 * lun-reset-stall, once the reset is over: a Task Management
		 * Response "function complete" with the reset's task tag,
		 * whose task is free again, and the trigger never answered
		 */
		uint8_t out[HDRS];

		stale = 2;
		bhs_init(out, OP_TMF_RSP, stale_itt);
		bhs_sn(c, out + ISER_HDR, 1);
		send_pdu(c, out, NULL, 0);
		say("LIE tmf-stale conn=%d itt=%#x rkey=%#x tmf_itt=%#x", c->n,
		    itt, (ihdr[0] & ISER_RSV) ? get_be32(ihdr + 16) : 0,
		    stale_itt);
		return;
	}
	if (trigger && lies_left) {
		if (lies_left > 0)
			lies_left--;
		say("LIE %s conn=%d itt=%#x cdb0=%#x rkey=%#x", mode_name, c->n,
		    itt, cdb[0], rkey);
		ic->lied = (struct rt_probe) {
			.conn = c->n,
			.tag = itt,
			.op = rkey ? PROBE_WRITE : PROBE_NONE,
			.va = rkey ? get_be64(ihdr + 20) : 0,
			.rkey = rkey,
			.len = edtl,
		};
		last_lied = ic->lied;
		if (stall_tmf()) {
			/* never answered: the task management for it comes */
			ic->held = 1;
			ic->held_itt = itt;
			ic->held_rkey = rkey;
			say("HELD conn=%d itt=%#x rkey=%#x", c->n, itt, rkey);
			return;
		}
		if (mode == M_XCONN) {
			/* never answered: SIGUSR2 probes it over another connection */
			say("HELD conn=%d itt=%#x rkey=%#x", c->n, itt, rkey);
			return;
		}
		if (mode == M_INV_OTHER) {
			if (!ic->held) {
				ic->held = 1;
				ic->held_itt = itt;
				ic->held_rkey = rkey;
				lies_left++;	/* the second one lies */
				say("HELD conn=%d itt=%#x rkey=%#x", c->n, itt,
				    rkey);
				return;
			}
			scsi_rsp(c, itt, &r, edtl, done, ic->held_rkey);
			return;
		}
		if (!lie(c, itt, &r, edtl, done, rkey))
			return;
	}
	scsi_rsp(c, itt, &r, edtl, done, ic->sinv ? rkey : 0);
}

/* A NOP-In asking for a NOP-Out (*-stall: it uses a receive buffer). */
static void nop_in(struct conn *c)
{
	uint8_t out[HDRS];
	uint8_t *b = bhs_init(out, OP_NOP_IN, 0xffffffff);

	put_be32(b + 20, 0x1000 + iser(c)->pings_out);	/* TTT */
	bhs_sn(c, b, 0);
	send_pdu(c, out, NULL, 0);
}

static void on_nop_out(struct conn *c, const uint8_t *b, const uint8_t *data,
		       uint32_t dlen)
{
	struct iconn *ic = iser(c);
	uint8_t out[HDRS];
	uint8_t *o;

	if (get_be32(b + 16) == 0xffffffff) {
		/* an answer to our NOP-In */
		if (get_be32(b + 20) == ORDER_TTT && ic->order == ORDER_PING) {
			uint32_t got = get_be32(b + 28);

			say("EXPSTATSN conn=%d got=%#x want>=%#x %s", c->n, got,
			    ic->order_want,
			    (int32_t)(got - ic->order_want) >= 0 ?
			    "ok" : "BACKWARDS");
			ic->order = ORDER_NONE;
			scsi_rsp(c, ic->order_itt, &ic->order_rsp, 0, 0, 0);
			return;
		}
		if (ic->pings_out)
			ic->pings_out--;
		return;
	}
	o = bhs_init(out, OP_NOP_IN, 0);
	memcpy(o + 16, b + 16, 4);
	put_be32(o + 20, 0xffffffff);
	memcpy(o + 8, b + 8, 8);
	set_dsl(o, dlen);
	bhs_sn(c, o, 1);
	send_pdu(c, out, data, dlen);
}

/* The Task Management Response "function complete" in OUT (HDRS bytes). */
static void tmf_rsp(uint8_t *out, const uint8_t *req)
{
	uint8_t *o = bhs_init(out, OP_TMF_RSP, 0);

	memcpy(o + 16, req + 16, 4);		/* the request's ITT */
	o[2] = 0;				/* function complete */
}

static void on_tmf(struct conn *c, const uint8_t *b)
{
	struct iconn *ic = iser(c);
	int func = b[1] & 0x7f;
	uint8_t out[HDRS];

	say("TMF conn=%d func=%u rtt=%#x", c->n, func, get_be32(b + 20));
	if (func == stall_tmf() && ic->held && !ic->stall &&
	    (func != TMF_ABORT_TASK || !memcmp(b + 20, &ic->held_itt, 4))) {
		/*
		 * ABORT TASK of the held trigger, or a reset of its LUN (the
		 * only one) or of the target: answered by stall_send()
		 */
		tmf_rsp(ic->stall_rsp, b);
		ic->stall = STALL_DRAIN;
		say("STALL conn=%d draining the receive queue (%u posted)",
		    c->n, c->rx_posted);
		return;
	}
	tmf_rsp(out, b);
	bhs_sn(c, out + ISER_HDR, 1);
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
	struct iconn *ic = iser(c);
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
		return ic->initial_r2t ? "Yes" : "No";
	if (!strcmp(key, "ImmediateData"))
		return ic->immediate ? "Yes" : "No";
	if (!strcmp(key, "DefaultTime2Wait") ||
	    !strcmp(key, "InitiatorRecvDataSegmentLength"))
		return val;
	if (!strcmp(key, "TargetRecvDataSegmentLength")) {
		unsigned long ours = mode == M_SMALL_MRDSL ? SMALL_MRDSL : OUR_MRDSL;

		ic->peer_mrdsl = v < ours ? v : ours;
		snprintf(num, 16, "%u", ic->peer_mrdsl);
		return num;
	}
	if (!strcmp(key, "MaxBurstLength")) {
		snprintf(num, 16, "%lu", v < WBUF ? v : WBUF);
		return num;
	}
	if (!strcmp(key, "FirstBurstLength")) {
		if (v > ic->first_burst)
			v = ic->first_burst;
		ic->first_burst = v;
		snprintf(num, 16, "%lu", v);
		return num;
	}
	return "NotUnderstood";
}

static void on_login(struct conn *c, const uint8_t *b, const uint8_t *data,
		     uint32_t dlen)
{
	struct iconn *ic = iser(c);
	static char text[SEND_DATA];
	uint8_t out[HDRS];
	uint8_t *o = bhs_init(out, OP_LOGIN_RSP, 0);
	uint32_t len = 0, pos = 0, cap = 8192;
	int csg = (b[1] >> 2) & 3, nsg = b[1] & 3, transit = b[1] & 0x80;
	char line[1024];
	uint32_t ll = 0;
	char num[16];

	ic->exp_cmdsn = get_be32(b + 24);
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
	if (mode == M_LOGIN_SILENT) {
		say("LIE login-silent conn=%d", c->n);
		return;
	}
	if (!ic->login_rsps++)
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
		say("LOGGED_IN conn=%d mrdsl=%u initial_r2t=%d immediate=%d first_burst=%u sinv=%d",
		    c->n, ic->peer_mrdsl, ic->initial_r2t, ic->immediate,
		    ic->first_burst, ic->sinv);
		if (mode == M_LOGIN_NOPIN) {
			/* full feature phase has begun for the target */
			o = bhs_init(out, OP_NOP_IN, 0xffffffff);
			put_be32(o + 20, 0xffffffff);	/* TTT: no answer */
			bhs_sn(c, o, 0);
			send_pdu(c, out, text, 0);
			say("LIE login-nopin conn=%d", c->n);
		}
	}
}

static void on_recv(struct conn *c, const uint8_t *pdu, uint32_t len)
{
	struct iconn *ic = iser(c);
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

		if ((int32_t)(sn + 1 - ic->exp_cmdsn) > 0)
			ic->exp_cmdsn = sn + 1;
	}
	if (op == OP_SCSI_CMD || op == OP_TMF || op == OP_LOGOUT ||
	    (op == OP_NOP_OUT && get_be32(b + 16) != 0xffffffff)) {
		uint32_t itt;

		memcpy(&itt, b + 16, 4);
		pool_alloc(c, itt);
		if (mode == M_SQ_OVERFLOW && !ovf_done &&
		    ic->foreseen >= OVF_FORESEEN) {
			ovf_done = 1;
			ic->stall = STALL_OVF_DRY;
			ic->stall_t = now_ms();
			say("STALL conn=%d receive queue running dry (%u posted), %u allocations foreseen",
			    c->n, c->rx_posted, ic->foreseen);
		}
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

/*
 * The receive that left the queue empty (datain-status, sq-overflow). The
 * initiator's SEND it took completes about now, and the next one finds no
 * receive: from here its send queue completes nothing. Also into the
 * kernel log (when /dev/kmsg can be written), so that the initiator's
 * reaction can be timed on the same clock.
 */
static void say_dry(struct conn *c)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	char line[64];
	int n;

	say("DRY conn=%d receive queue empty", c->n);
	if (fd < 0)
		return;
	/* one write(): dprintf() gives up on /dev/kmsg, which refuses SEEK_CUR */
	n = snprintf(line, sizeof(line),
		     "<6>rogue-iser: DRY conn=%d receive queue empty\n", c->n);
	if (write(fd, line, n) != n)
		say("ERROR conn=%d /dev/kmsg: %s", c->n, strerror(errno));
	close(fd);
}

/* A PDU in receive buffer IDX; held back while a stall runs. */
static int on_rx(struct conn *c, const uint8_t *buf, uint32_t len,
		 unsigned int idx)
{
	struct iconn *ic = iser(c);

	on_recv(c, buf, len);
	if (!ic->stall)
		return 1;
	ic->rx_held[idx] = 1;
	if ((ic->stall == STALL_RUN_DRY || ic->stall == STALL_OVF_DRY) &&
	    !c->rx_posted)
		say_dry(c);
	return 0;
}

/* The PDU held in stall_rsp goes out, with the receive queue empty. */
static void stall_send(struct conn *c)
{
	struct iconn *ic = iser(c);

	struct scsi_result good = {};

	bhs_sn(c, ic->stall_rsp + ISER_HDR, 1);
	send_pdu(c, ic->stall_rsp, NULL, 0);
	if (mode == M_DUP_STATUS) {
		/* no Send with Invalidate: the rkey stays valid */
		scsi_rsp(c, (uint32_t)ic->lied.tag, &good, 0, 0, 0);
		say("DUP_STATUS conn=%d itt=%#llx Data-In with status, then a SCSI Response, sent with the receive queue empty",
		    c->n, (unsigned long long)ic->lied.tag);
	} else if (mode == M_DATAIN_STATUS) {
		uint8_t out[HDRS], data[2 + SENSE_LEN] = {};
		uint8_t *b = bhs_init(out, OP_ASYNC, 0xffffffff);

		/* SCSI async event: unit attention, mode parameters changed */
		put_be16(data, SENSE_LEN);
		data[2] = 0x70;
		data[4] = 0x06;
		data[9] = 10;
		data[14] = 0x2a;
		data[15] = 0x01;
		b[36] = 0;
		set_dsl(b, sizeof(data));
		bhs_sn(c, b, 1);
		send_pdu(c, out, data, sizeof(data));
		ic->order_want = ic->statsn;
		say("DATAIN_STATUS conn=%d itt=%#llx sent with the receive queue empty, an Async Message (StatSN %#x) behind it",
		    c->n, (unsigned long long)ic->lied.tag, ic->statsn - 1);
	} else {
		say("TMF_RSP conn=%d function complete, sent with the receive queue empty",
		    c->n);
		if (mode == M_LUN_RESET_STALL) {
			memcpy(&stale_itt, ic->stall_rsp + ISER_HDR + 16, 4);
			stale = 1;
		}
	}
	ic->stall = STALL_SENT;
	ic->stall_t = now_ms();
}

/*
 * sq-overflow: the receive queue is empty and the initiator's next SEND
 * waits for receiver-not-ready retries, and with it everything it posts
 * behind. It still reads what we send: answer GOOD to the ovf_depth
 * commands it has posted since, unseen, which took the tasks at the head
 * of its pool; their tasks are free again, new commands take the next
 * ones, each one more work request on its send queue.
 */
static void ovf_round(struct conn *c)
{
	struct iconn *ic = iser(c);
	struct scsi_result good = {};
	unsigned int i;
	uint32_t itt;

	if (ic->rounds == OVF_ROUNDS || ic->pool_n < ovf_depth) {
		say("OVERFLOW conn=%d gave up after %u rounds, %u commands answered unseen (%u tasks free)",
		    c->n, ic->rounds, ic->unseen, ic->pool_n);
		ic->stall = STALL_OVF_DONE;
		return;
	}
	for (i = 0; i < ovf_depth; i++) {
		itt = ic->pool_free[ic->pool_head];
		ic->pool_head = (ic->pool_head + 1) % POOL_MAX;
		ic->pool_n--;
		ic->exp_cmdsn++;
		scsi_rsp(c, itt, &good, 0, 0, 0);
	}
	ic->unseen += ovf_depth;
	if (!(++ic->rounds % 16))
		say("OVERFLOW conn=%d round %u: %u commands answered unseen",
		    c->n, ic->rounds, ic->unseen);
}

/*
 * datain-status and the *-stall modes (enum stall): once every receive
 * buffer is used and the initiator's next SEND waits for receiver-not-ready
 * retries (and so does everything it posts behind it, a LOCAL_INV too),
 * and half a second has passed, the PDU in stall_rsp goes out; -s seconds
 * later the buffers are reposted.
 */
static void stall_tick(struct conn *c)
{
	struct iconn *ic = iser(c);
	long long now = now_ms();
	unsigned int i;

	switch (ic->stall) {
	case STALL_RUN_DRY:
		/* the half second starts once the last buffer is used */
		if (c->rx_posted)
			ic->stall_t = now;
		else if (now - ic->stall_t >= 500)
			stall_send(c);
		break;
	case STALL_DRAIN:
		/*
		 * Every NOP-In is answered with a NOP-Out, which uses one
		 * buffer; a few at a time (libiscsi has few tasks for them).
		 */
		while (ic->pings_out < PINGS_MAX && ic->pings_out < c->rx_posted) {
			nop_in(c);
			ic->pings_out++;
		}
		if (!c->rx_posted) {
			nop_in(c);		/* its answer waits */
			ic->stall = STALL_LAST_PING;
			ic->stall_t = now;
		}
		break;
	case STALL_LAST_PING:
		if (now - ic->stall_t >= 500)
			stall_send(c);
		break;
	case STALL_OVF_DRY:
		/* as RUN_DRY; our answers meanwhile are the usual ones */
		if (c->rx_posted) {
			ic->stall_t = now;
		} else if (now - ic->stall_t >= 500) {
			say("OVERFLOW conn=%d receive queue empty: answering %u commands at a time unseen",
			    c->n, ovf_depth);
			ic->stall = STALL_OVF_ROUNDS;
		}
		break;
	case STALL_OVF_ROUNDS:
		if (now - ic->stall_t >= ovf_round_ms) {
			ic->stall_t = now;
			ovf_round(c);
		}
		break;
	case STALL_OVF_DONE:
		break;
	case STALL_SENT:
		if (now - ic->stall_t < stall_secs * 1000LL)
			break;
		ic->stall = STALL_NONE;
		for (i = 0; i < NRECV; i++) {
			if (ic->rx_held[i]) {
				ic->rx_held[i] = 0;
				rt_post_recv(c, i);
			}
		}
		say("UNSTALL conn=%d %u receives posted", c->n, c->rx_posted);
		if (mode == M_DATAIN_STATUS)
			ic->order = ORDER_ARMED;
		break;
	}
}

/* datain-status: the NOP-In of the order check (enum order). */
static void order_tick(struct conn *c)
{
	struct iconn *ic = iser(c);
	uint8_t out[HDRS];
	uint8_t *b;

	if (ic->order != ORDER_HELD || now_ms() - ic->order_t < 300)
		return;
	b = bhs_init(out, OP_NOP_IN, 0xffffffff);
	put_be32(b + 20, ORDER_TTT);
	bhs_sn(c, b, 0);
	send_pdu(c, out, NULL, 0);
	ic->order = ORDER_PING;
}

/* Connection N is established and not disconnecting. */
static int conn_up(int n)
{
	unsigned int i;

	for (i = 0; i < RT_MAX_CONNS; i++)
		if (conns[i] && conns[i]->n == n)
			return conns[i]->established &&
			       !conns[i]->disconnecting;
	return 0;
}

/* Once a loop round: a probe asked for (SIGUSR1, SIGUSR2), stalls. */
static void tick(void)
{
	int probe = probe_req;
	unsigned int i;
	struct iconn *ic;

	probe_req = 0;
	if (probe == 2 && last_lied.conn)
		rt_probe(&last_lied,
			 mode == M_XCONN || !conn_up(last_lied.conn));
	for (i = 0; i < RT_MAX_CONNS; i++) {
		if (!conns[i])
			continue;
		ic = iser(conns[i]);
		if (probe == 1 && ic->lied.conn)	/* a command was lied about */
			rt_probe(&ic->lied, 0);
		if (ic->stall)
			stall_tick(conns[i]);
		if (ic->order)
			order_tick(conns[i]);
	}
}

/* A stall is timed in steps of 50 ms. */
static int wait_ms(int limit)
{
	unsigned int i;

	for (i = 0; i < RT_MAX_CONNS; i++)
		if (conns[i] && (iser(conns[i])->stall || iser(conns[i])->order) &&
		    limit > 50)
			limit = 50;
	return limit;
}

/* ---- connections ---- */

static void on_connect_request(struct rdma_cm_id *id, const uint8_t *priv,
			       unsigned int priv_len, uint8_t rd_depth)
{
	struct rdma_conn_param cp = {};
	uint8_t rep[4] = { CM_ZBVA_NOT_SUP };
	struct conn *c;
	struct iconn *ic;

	c = rt_conn_new(id, -1);
	if (!c)
		return;
	ic = iser(c);
	ic->sinv = priv_len >= 4 && !(priv[0] & CM_SINV_NOT_SUP);
	ic->initial_r2t = mode != M_SMALL_MRDSL;
	ic->immediate = 1;
	ic->first_burst = FIRST_BURST;
	ic->statsn = 0x1000;
	say("CONNECT conn=%d cm_flags=%#x send_inv=%s", c->n,
	    priv_len ? priv[0] : 0, ic->sinv ? "offered" : "not offered");
	/* we invalidate remotely whenever the initiator offers it */
	if (!ic->sinv)
		rep[0] |= CM_SINV_NOT_SUP;
	cp.private_data = rep;
	cp.private_data_len = sizeof(rep);
	cp.rnr_retry_count = 7;
	cp.initiator_depth = rd_depth ? rd_depth : 1;
	rt_accept(c, &cp, rd_depth);
}

/* Before a connection goes: the data of the writes it was collecting. */
static void conn_free(struct conn *c)
{
	struct iconn *ic = iser(c);
	unsigned int i;

	for (i = 0; i < MAX_TASKS; i++)
		if (ic->wt[i].used)
			free(ic->wt[i].buf);
}

/* small-mrdsl: more and smaller receive buffers (main()) */
static struct rt_target iser_target = {
	.nrecv		 = NRECV,
	.recv_size	 = RECV_SIZE,
	.nsend		 = NSEND,
	.send_size	 = SEND_SIZE,
	.sq_depth	 = SQ_DEPTH,
	.extra		 = WBUF,		/* write_buf() */
	.priv_size	 = sizeof(struct iconn),
	.connect_request = on_connect_request,
	.recv		 = on_rx,
	.conn_free	 = conn_free,
	.wait_ms	 = wait_ms,
	.tick		 = tick,
};

static void usage(void)
{
	unsigned int i;

	fprintf(stderr,
		"usage: rogue-iser [-a ADDR] [-p PORT] [-o OPCODE|any] [-n COUNT] [-s SECS] [-q DEPTH] [-r MS] MODE\n"
		"  -a ADDR    listen address (default 0.0.0.0)\n"
		"  -p PORT    RDMA/CM port (default 3261)\n"
		"  -o OPCODE  CDB opcode whose answer lies (default 0xc0; any: every one)\n"
		"  -n COUNT   lie to the first COUNT such commands, -1 all (default 1)\n"
		"  -s SECS    datain-status and the *-stall modes: hold the receive\n"
		"             queue empty this long (default 5)\n"
		"  -q DEPTH   sq-overflow: commands the initiator keeps posted at once\n"
		"             (default 32)\n"
		"  -r MS      sq-overflow: between two rounds of answers (default 400)\n"
		"SIGUSR1: the stale-rkey probe, an RDMA WRITE to the read buffer of the\n"
		"         last command lied about on each connection\n"
		"SIGUSR2: the probe of the last command lied about, over its own\n"
		"         connection while that is up, else over another one\n"
		"         (xconn: always over another one)\n"
		"modes:\n");
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(stderr, "  %-18s %s\n", modes[i].name, modes[i].help);
	exit(2);
}

static void on_usr(int sig)
{
	probe_req = sig == SIGUSR2 ? 2 : 1;
}

int main(int argc, char **argv)
{
	const char *addr = "0.0.0.0", *port = "3261";
	struct sigaction sa = { .sa_handler = on_usr };
	int opt, found = 0;
	char what[128];
	unsigned int i;

	while ((opt = getopt(argc, argv, "a:p:o:n:s:q:r:h")) != -1) {
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
		case 'q':
			ovf_depth = strtoul(optarg, NULL, 0);
			if (!ovf_depth || ovf_depth > POOL_MAX)
				usage();
			break;
		case 'r':
			ovf_round_ms = strtoul(optarg, NULL, 0);
			if (!ovf_round_ms)
				usage();
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
	scsi_disk = (struct scsi_disk) {
		.vendor = "ROGUE",
		.product = "ISER TARGET",
		.serial = "ROGUE001",
		.writable = 1,
	};
	if (mode == M_SMALL_MRDSL) {
		iser_target.nrecv = SMALL_NRECV;
		iser_target.recv_size = SMALL_RECV_SIZE;
	}
	scsi_fill();
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	snprintf(what, sizeof(what), "mode=%s lie_op=%#x count=%d", mode_name,
		 lie_op, lies_left);
	return rt_serve(&iser_target, addr, port, what);
}
