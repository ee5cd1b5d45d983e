// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * srp-fake-target: an SRP target over RDMA/CM that misbehaves on purpose.
 *
 *   srp-fake-target [-a ADDR] [-p PORT] [-o OPCODE] [-n COUNT] [-x]
 *                   [-I LEN] [-J N[,M...]] [-T] [-L MS] [-P MS [-X]] MODE
 *
 * It listens with rdma_cm on ADDR:PORT (default 0.0.0.0:5556). A login
 * request arrives as the private data of the CM REQ in the 56-byte RDMA/CM
 * layout; the SRP_LOGIN_RSP goes back as the private data of the accept
 * (the initiator reads it from its ESTABLISHED event), an SRP_LOGIN_REJ as
 * the private data of a consumer-defined CM reject. Login-phase MODEs lie
 * there. Data-phase MODEs log in normally, serve a tiny read-only LUN 0
 * correctly (scsi.c) and lie only in their answer to the first COUNT
 * commands (default 1; -1 for all) whose CDB opcode is OPCODE (default
 * 0xc0, vendor specific, which the kernel never sends on its own; "any"
 * for every command).
 *
 * The stale-rkey probe (-P) checks what the initiator promises once a
 * command has completed: that its rkeys no longer reach memory. MS ms after
 * the lied-about command's response (or the lie itself, when none is sent)
 * it RDMA WRITEs (data-in) or RDMA READs (data-out) the command's first
 * data descriptor, over the command's own connection or, with -X, over
 * another one of the same initiator, and logs the outcome ("PROBE ...").
 *
 * Every event is printed on stdout, one line each ("LOGIN_REQ ...",
 * "LIE ...", "AER_RSP tag=...", ...), for the lab scenario to check.
 * Several connections (channels, reconnects) are served at once.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <rdma/rdma_cma.h>

#include "scsi.h"
#include "wire.h"

#define MAX_CONNS	8
#define NCREDITS	32		/* initial req_lim granted */
#define NRECV		(NCREDITS + 16)	/* + room for CRED/AER_RSP, I_LOGOUT */
#define RECV_SIZE	16384		/* largest IT IU we accept */
#define NSEND		128
#define SEND_SIZE	1024
#define TI_IU_LEN	256		/* largest IU we announce we send */
#define CQ_SIZE		NRECV
#define SQ_DEPTH	4096		/* one command may RDMA WRITE this often */
#define MAX_TABLE	2048		/* external table entries we fetch */
#define TABLE_BYTES	(MAX_TABLE * DESC_LEN)
#define PROBE_BYTES	64		/* at most this much per probe */
#define MAX_ACTIONS	16

enum mode {
	/* login phase */
	M_REJ, M_REJ_IU_ONCE, M_CM_REJECT, M_SILENT,
	M_RSP_OPCODE, M_RSP_EMPTY, M_RSP_REQLIM0, M_RSP_REQLIM_NEG,
	M_RSP_TI0, M_RSP_TI_HUGE, M_RSP_IT_TINY, M_RSP_IT_SMALL,
	M_RSP_BUFFMT0, M_RSP_DIRECT_ONLY, M_RSP_INDIRECT_ONLY,
	M_NO_REMOTE_WRITE,
	/* data phase */
	M_OK, M_DROP, M_SENSE_OVERFLOW, M_RESP_OVERFLOW, M_TAG_HIGH,
	M_TAG_OTHER, M_DUP, M_CREDIT_NEG, M_CREDIT_HUGE, M_BAD_OPCODE,
	M_TRUNCATED, M_OVERSIZE, M_T_LOGOUT, M_AER, M_AER_BAD, M_CRED_REQ,
	M_DISCONNECT, M_RESID_HUGE,
};

static const struct {
	const char	*name;
	enum mode	mode;
	uint32_t	reason;		/* SRP_LOGIN_REJ reason for M_REJ */
	const char	*help;
} modes[] = {
	{ "rej-unable",	    M_REJ, 0x00010000, "SRP_LOGIN_REJ: unable to establish RDMA channel" },
	{ "rej-resources",  M_REJ, 0x00010001, "SRP_LOGIN_REJ: insufficient resources" },
	{ "rej-iu",	    M_REJ, 0x00010002, "SRP_LOGIN_REJ: IT IU length too large, always" },
	{ "rej-associate",  M_REJ, 0x00010003, "SRP_LOGIN_REJ: unable to associate with I_T nexus" },
	{ "rej-fmt",	    M_REJ, 0x00010004, "SRP_LOGIN_REJ: unsupported descriptor format" },
	{ "rej-multichan",  M_REJ, 0x00010005, "SRP_LOGIN_REJ: multichannel unsupported" },
	{ "rej-chlimit",    M_REJ, 0x00010006, "SRP_LOGIN_REJ: channel limit reached" },
	{ "rej-unknown",    M_REJ, 0x0001abcd, "SRP_LOGIN_REJ with an undefined reason" },
	{ "rej-iu-once",    M_REJ_IU_ONCE, 0x00010002, "IT IU length too large once, then accept a smaller one" },
	{ "cm-reject",	    M_CM_REJECT, 0, "CM reject without SRP_LOGIN_REJ" },
	{ "silent",	    M_SILENT, 0, "never answer the CM REQ" },
	{ "rsp-opcode",	    M_RSP_OPCODE, 0, "accept; LOGIN_RSP with opcode SRP_RSP" },
	{ "rsp-empty",	    M_RSP_EMPTY, 0, "accept without private data" },
	{ "rsp-reqlim0",    M_RSP_REQLIM0, 0, "LOGIN_RSP granting 0 credits" },
	{ "rsp-reqlim-neg", M_RSP_REQLIM_NEG, 0, "LOGIN_RSP granting 0x80000000 credits" },
	{ "rsp-ti0",	    M_RSP_TI0, 0, "LOGIN_RSP with max_ti_iu_len 0" },
	{ "rsp-ti-huge",    M_RSP_TI_HUGE, 0, "LOGIN_RSP with max_ti_iu_len 0x7fffffff" },
	{ "rsp-it-tiny",    M_RSP_IT_TINY, 0, "LOGIN_RSP with max_it_iu_len 16" },
	{ "rsp-it-small",   M_RSP_IT_SMALL, 0, "LOGIN_RSP with max_it_iu_len 52 (SRP_CMD without room for a descriptor)" },
	{ "rsp-buffmt0",    M_RSP_BUFFMT0, 0, "LOGIN_RSP supporting no descriptor format" },
	{ "rsp-direct-only", M_RSP_DIRECT_ONLY, 0, "LOGIN_RSP supporting direct descriptors only" },
	{ "rsp-indirect-only", M_RSP_INDIRECT_ONLY, 0, "LOGIN_RSP supporting indirect descriptors only" },
	{ "no-remote-write", M_NO_REMOTE_WRITE, 0, "a correct target whose RC QP grants no remote access (RDMA WRITE to it is NAKed)" },
	{ "ok",		    M_OK, 0, "no lie: a correct target" },
	{ "drop",	    M_DROP, 0, "never answer the command" },
	{ "sense-overflow", M_SENSE_OVERFLOW, 0, "SRP_RSP whose sense length runs past the IU" },
	{ "resp-overflow",  M_RESP_OVERFLOW, 0, "SRP_RSP whose response data length runs past the IU" },
	{ "tag-high",	    M_TAG_HIGH, 0, "SRP_RSP with a tag the initiator never used (high bits)" },
	{ "tag-other",	    M_TAG_OTHER, 0, "SRP_RSP with the tag of an idle slot" },
	{ "dup",	    M_DUP, 0, "SRP_RSP twice for one command" },
	{ "credit-neg",	    M_CREDIT_NEG, 0, "SRP_RSP with req_lim_delta -1000" },
	{ "credit-huge",    M_CREDIT_HUGE, 0, "SRP_RSP with req_lim_delta 0x7fffffff" },
	{ "bad-opcode",	    M_BAD_OPCODE, 0, "an IU of unknown type 0x55, then the SRP_RSP" },
	{ "truncated",	    M_TRUNCATED, 0, "the first 20 bytes of the SRP_RSP only" },
	{ "oversize",	    M_OVERSIZE, 0, "an SRP_RSP longer than the max_ti_iu_len announced" },
	{ "t-logout",	    M_T_LOGOUT, 0, "SRP_T_LOGOUT instead of the SRP_RSP" },
	{ "aer",	    M_AER, 0, "SRP_AER_REQ (unit attention 2a/09), then the SRP_RSP" },
	{ "aer-bad",	    M_AER_BAD, 0, "SRP_AER_REQ whose sense length runs past the IU, then the SRP_RSP" },
	{ "cred-req",	    M_CRED_REQ, 0, "SRP_CRED_REQ (+1 credit), then the SRP_RSP" },
	{ "disconnect",	    M_DISCONNECT, 0, "disconnect instead of the SRP_RSP" },
	{ "resid-huge",	    M_RESID_HUGE, 0, "SRP_RSP with a data-in residual of 0x80000000, beyond any transfer" },
};

/* What a stale-rkey probe does to a command's first data descriptor. */
enum { PROBE_NONE, PROBE_WRITE, PROBE_READ };

/*
 * A lied-about command, kept for a late answer (-L) or a stale-rkey probe
 * (-P): its connection and tag, its correct SRP_RSP, and its first data
 * descriptor with the operation a probe of it uses.
 */
struct cmd_ref {
	int		conn;
	uint64_t	tag;
	uint8_t		rsp[RSP_LEN + SENSE_LEN];
	uint32_t	rsp_len;
	int		op;
	uint64_t	va;
	uint32_t	rkey;
	uint32_t	len;
};

struct conn {
	int			n;		/* for the log */
	struct rdma_cm_id	*id;
	struct ibv_qp		*qp;		/* @id's, or our own (own_qp) */
	int			own_qp;		/* made and moved here, not by rdma_cm */
	struct ibv_pd		*pd;
	struct ibv_comp_channel	*cc;
	struct ibv_cq		*cq;		/* receives, with @cc */
	struct ibv_cq		*scq;		/* sends, polled */
	unsigned int		sq_inflight;	/* signaled sends not polled */
	uint8_t			*mem;		/* recv, send, small data */
	struct ibv_mr		*mr;
	struct ibv_mr		*lun_mr;
	unsigned int		send_next;
	uint32_t		max_it_iu_len;	/* announced in LOGIN_RSP */
	uint16_t		buf_fmt;	/* announced in LOGIN_RSP */
	int			established;
	int			disconnecting;
	int			probe_pending;	/* a probe WR not completed */
	struct cmd_ref		probe;		/* ... of this command */
};

/*
 * Timed work: a withheld response waiting for an ABORT TASK naming its
 * command (ACT_WAIT_ABORT), a late response (ACT_LATE_RSP), a probe.
 */
enum { ACT_FREE, ACT_WAIT_ABORT, ACT_LATE_RSP, ACT_PROBE };

struct action {
	int		kind;
	long long	due;		/* now_ms() */
	struct cmd_ref	cmd;
};

static enum mode mode;
static const char *mode_name;
static uint32_t rej_reason;
static int lie_op = 0xc0;
static int lies_left = 1;
static int serve_ext;		/* -x: fetch external descriptor tables */
static uint32_t it_iu_cap = RECV_SIZE;	/* -I: max_it_iu_len announced */
static char reject_logins[64];	/* -J: ",N,M," logins to reject */
static int logins;
static int conn_seq;
static struct conn *conns[MAX_CONNS];
static int tmf_silent;		/* -T: leave task management unanswered */
static int late_ms = -1;	/* -L: answer a withheld response late */
static int probe_ms = -1;	/* -P: stale-rkey probe delay */
static int probe_cross;		/* -X: probe over another connection */
static struct action actions[MAX_ACTIONS];

static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static uint8_t *recv_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)i * RECV_SIZE;
}

static uint8_t *send_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)NRECV * RECV_SIZE + (size_t)i * SEND_SIZE;
}

static uint8_t *data_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)NRECV * RECV_SIZE + (size_t)NSEND * SEND_SIZE +
	       (size_t)i * SMALL_DATA_MAX;
}

/* Where an external descriptor table is fetched to. */
static uint8_t *table_buf(struct conn *c)
{
	return data_buf(c, NSEND);
}

/* What a probe writes from or reads into. */
static uint8_t *probe_buf(struct conn *c)
{
	return table_buf(c) + TABLE_BYTES;
}

#define MEM_SIZE ((size_t)NRECV * RECV_SIZE + (size_t)NSEND * SEND_SIZE + \
		  (size_t)NSEND * SMALL_DATA_MAX + TABLE_BYTES + PROBE_BYTES)

/* wr_id: kind in the high half, buffer index in the low half. */
enum { WR_RECV = 1, WR_SEND, WR_WRITE, WR_READ, WR_PROBE };

static const char *const probe_ops[] = { "none", "WRITE", "READ" };

static void probe_say(const struct cmd_ref *r, int via, const char *data,
		      const char *status)
{
	say("PROBE conn=%d via=%d tag=%#llx op=%s rkey=%#x va=%#llx len=%u%s status=%s",
	    r->conn, via, (unsigned long long)r->tag, probe_ops[r->op],
	    r->rkey, (unsigned long long)r->va, r->len, data, status);
}

/* A probe's work request completed with STATUS. */
static void probe_done(struct conn *c, enum ibv_wc_status status)
{
	char data[2 * 16 + 8] = "";
	unsigned int i;

	c->probe_pending = 0;
	if (status == IBV_WC_SUCCESS && c->probe.op == PROBE_READ) {
		strcpy(data, " data=");
		for (i = 0; i < 16 && i < c->probe.len; i++)
			sprintf(data + 6 + 2 * i, "%02x", probe_buf(c)[i]);
	}
	probe_say(&c->probe, c->n, data, ibv_wc_status_str(status));
}

/*
 * Every send-queue work request is signaled and completes on @c->scq, which
 * is polled here: before posting (so the queue never overflows) and after
 * each batch of receives. Returns the status of a completion with wr_id
 * WAIT_ID if one was seen, -1 otherwise. Failures other than flushes are
 * logged.
 */
static int poll_sends(struct conn *c, uint64_t wait_id)
{
	struct ibv_wc wc[16];
	int n, i, ret = -1;

	while ((n = ibv_poll_cq(c->scq, 16, wc)) > 0) {
		for (i = 0; i < n; i++) {
			c->sq_inflight--;
			if (wc[i].wr_id >> 32 == WR_PROBE) {
				probe_done(c, wc[i].status);
				continue;
			}
			if (wc[i].wr_id == wait_id)
				ret = wc[i].status;
			if (wc[i].status != IBV_WC_SUCCESS &&
			    wc[i].status != IBV_WC_WR_FLUSH_ERR)
				say("WC_ERROR conn=%d kind=%u %s", c->n,
				    (unsigned int)(wc[i].wr_id >> 32),
				    ibv_wc_status_str(wc[i].status));
		}
	}
	return ret;
}

/* Room for one more send-queue work request (waits for completions). */
static int sq_reserve(struct conn *c)
{
	time_t end = time(NULL) + 10;

	while (c->sq_inflight >= SQ_DEPTH - 1) {
		poll_sends(c, 0);
		if (time(NULL) >= end) {
			say("ERROR conn=%d send queue stuck for 10 s", c->n);
			return -1;
		}
	}
	c->sq_inflight++;
	return 0;
}

static int post_sq(struct conn *c, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int ret;

	if (sq_reserve(c))
		return ENOSPC;
	ret = ibv_post_send(c->qp, wr, &bad);
	if (ret)
		c->sq_inflight--;
	return ret;
}

static uint64_t wr_id(unsigned int kind, unsigned int i)
{
	return (uint64_t)kind << 32 | i;
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

	return ibv_post_recv(c->qp, &wr, &bad);
}

/* Take the next send slot; its small data buffer goes with it. */
static unsigned int next_slot(struct conn *c)
{
	unsigned int i = c->send_next;

	c->send_next = (c->send_next + 1) % NSEND;
	return i;
}

static int post_send(struct conn *c, unsigned int slot, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)send_buf(c, slot),
		.length = len,
		.lkey = c->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id(WR_SEND, slot),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	};
	int ret;

	ret = post_sq(c, &wr);
	if (ret)
		say("ERROR conn=%d post send: %s", c->n, strerror(ret));
	return ret;
}

/* Send LEN bytes of IU from SRC. */
static int send_iu(struct conn *c, const uint8_t *src, uint32_t len)
{
	unsigned int slot = next_slot(c);

	memcpy(send_buf(c, slot), src, len);
	return post_send(c, slot, len);
}

static int rdma_write(struct conn *c, const uint8_t *src, uint32_t lkey,
		      uint64_t va, uint32_t rkey, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)src,
		.length = len,
		.lkey = lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id(WR_WRITE, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = va, .rkey = rkey },
	};
	int ret;

	ret = post_sq(c, &wr);
	if (ret)
		say("ERROR conn=%d post RDMA WRITE: %s", c->n, strerror(ret));
	return ret;
}

/*
 * Fetch LEN bytes of an external descriptor table at VA/RKEY into
 * table_buf() with RDMA READ, and wait for it. Returns 0 on success.
 */
static int rdma_read_table(struct conn *c, uint64_t va, uint32_t rkey,
			   uint32_t len)
{
	uint64_t id = wr_id(WR_READ, 0);
	struct ibv_sge sge = {
		.addr = (uintptr_t)table_buf(c),
		.length = len,
		.lkey = c->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = id,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = va, .rkey = rkey },
	};
	time_t end = time(NULL) + 10;
	int ret;

	ret = post_sq(c, &wr);
	if (ret) {
		say("ERROR conn=%d post RDMA READ: %s", c->n, strerror(ret));
		return -1;
	}
	while (time(NULL) < end) {
		ret = poll_sends(c, id);
		if (ret >= 0)
			return ret == IBV_WC_SUCCESS ? 0 : -1;
	}
	say("ERROR conn=%d RDMA READ of the table did not complete within 10 s",
	    c->n);
	return -1;
}

static void conn_free(struct conn *c)
{
	int i;

	for (i = 0; i < MAX_CONNS; i++)
		if (conns[i] == c)
			conns[i] = NULL;
	if (c->probe_pending)
		poll_sends(c, 0);
	if (c->probe_pending)
		probe_say(&c->probe, c->n, "", "no completion before the connection closed");
	if (c->own_qp && c->qp)
		ibv_destroy_qp(c->qp);
	else if (c->id->qp)
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

/*
 * The access flags our RC QP grants the initiator: none but local write in
 * no-remote-write mode (so soft-RoCE's responder NAKs an RDMA WRITE to it
 * as an invalid request, even one of zero bytes), otherwise what rdma_cm
 * would grant.
 */
static unsigned int qp_access(unsigned int cm_flags)
{
	return mode == M_NO_REMOTE_WRITE ? IBV_ACCESS_LOCAL_WRITE : cm_flags;
}

/*
 * Move our own QP to STATE with the attributes rdma_cm computes for the
 * connection, except its access flags (qp_access()) and, as rdma_accept()
 * does, the RDMA READ depths we announce: none as responder, RD_DEPTH as
 * requester (our RDMA READs of external tables). rdma_accept() does not
 * touch a QP it did not create, and rdma_cm would grant remote write
 * whenever it moves one (ib_cm_init_qp_attr()).
 */
static int own_qp_move(struct conn *c, enum ibv_qp_state state,
		       uint8_t rd_depth)
{
	struct ibv_qp_attr attr = { .qp_state = state };
	int mask, ret;

	if (rdma_init_qp_attr(c->id, &attr, &mask))
		return -1;
	if (state == IBV_QPS_INIT) {
		attr.qp_access_flags = qp_access(attr.qp_access_flags);
		mask |= IBV_QP_ACCESS_FLAGS;
	} else if (state == IBV_QPS_RTR) {
		attr.max_dest_rd_atomic = 0;
	} else if (state == IBV_QPS_RTS) {
		attr.max_rd_atomic = rd_depth;
	}
	ret = ibv_modify_qp(c->qp, &attr, mask);
	if (ret) {
		errno = ret;
		return -1;
	}
	if (state == IBV_QPS_INIT)
		say("OWN_QP conn=%d qpn=%#x access=%#x", c->n, c->qp->qp_num,
		    attr.qp_access_flags);
	return 0;
}

/* Verbs resources for a connection request; on failure it is rejected. */
static struct conn *conn_new(struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr qa = {};
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
		return NULL;
	}
	c->n = ++conn_seq;
	c->id = id;
	conns[slot] = c;
	c->pd = ibv_alloc_pd(id->verbs);
	c->cc = c->pd ? ibv_create_comp_channel(id->verbs) : NULL;
	c->cq = c->cc ? ibv_create_cq(id->verbs, CQ_SIZE, c, c->cc, 0) : NULL;
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
	if (mode == M_NO_REMOTE_WRITE) {
		/* rdma_cm would grant remote write: our own QP, moved here */
		c->own_qp = 1;
		c->qp = ibv_create_qp(c->pd, &qa);
		if (!c->qp || own_qp_move(c, IBV_QPS_INIT, 0))
			goto err;
	} else {
		if (rdma_create_qp(id, c->pd, &qa))
			goto err;
		c->qp = id->qp;
	}
	for (i = 0; i < NRECV; i++)
		if (post_recv(c, i))
			goto err;
	if (ibv_req_notify_cq(c->cq, 0))
		goto err;
	return c;
err:
	say("ERROR conn=%d cannot set up verbs resources: %s", c->n,
	    strerror(errno));
	rdma_reject(id, NULL, 0);
	conn_free(c);
	return NULL;
}

/* ---- login ---- */

static void reject(struct rdma_cm_id *id, const uint8_t *req, uint32_t reason)
{
	uint8_t rej[LREJ_LEN] = { IU_LOGIN_REJ };

	put_be32(rej + LREJ_REASON, reason);
	copy_tag(rej + LREJ_TAG, req + LREQ_TAG);
	put_be16(rej + LREJ_BUF_FMT, 0x0006);
	say("LOGIN_REJ reason=%#010x", reason);
	rdma_reject(id, rej, sizeof(rej));
	rdma_destroy_id(id);
}

static void build_login_rsp(uint8_t *rsp, const uint8_t *req,
			    uint32_t max_it)
{
	memset(rsp, 0, LRSP_LEN);
	rsp[0] = IU_LOGIN_RSP;
	put_be32(rsp + LRSP_REQ_LIM, NCREDITS);
	copy_tag(rsp + LRSP_TAG, req + LREQ_TAG);
	put_be32(rsp + LRSP_MAX_IT, max_it);
	put_be32(rsp + LRSP_MAX_TI, TI_IU_LEN);
	put_be16(rsp + LRSP_BUF_FMT, 0x0006);	/* direct and indirect */
	rsp[LRSP_FLAGS] = (req[LREQ_FLAGS] & 3) ? 0x02 : 0x00;
	switch (mode) {
	case M_RSP_OPCODE:
		rsp[0] = IU_RSP;
		break;
	case M_RSP_REQLIM0:
		put_be32(rsp + LRSP_REQ_LIM, 0);
		break;
	case M_RSP_REQLIM_NEG:
		put_be32(rsp + LRSP_REQ_LIM, 0x80000000);
		break;
	case M_RSP_TI0:
		put_be32(rsp + LRSP_MAX_TI, 0);
		break;
	case M_RSP_TI_HUGE:
		put_be32(rsp + LRSP_MAX_TI, 0x7fffffff);
		break;
	case M_RSP_IT_TINY:
		put_be32(rsp + LRSP_MAX_IT, 16);
		break;
	case M_RSP_IT_SMALL:
		put_be32(rsp + LRSP_MAX_IT, 52);
		break;
	case M_RSP_BUFFMT0:
		put_be16(rsp + LRSP_BUF_FMT, 0);
		break;
	case M_RSP_DIRECT_ONLY:
		put_be16(rsp + LRSP_BUF_FMT, 0x0002);
		break;
	case M_RSP_INDIRECT_ONLY:
		put_be16(rsp + LRSP_BUF_FMT, 0x0004);
		break;
	default:
		break;
	}
}

/*
 * A login request. Its event is acknowledged already (an id can only be
 * destroyed once its events are), so the private data comes as a copy.
 */
static void on_connect_request(struct rdma_cm_id *id, const uint8_t *req,
			       unsigned int req_len, uint8_t rd_depth)
{
	struct rdma_conn_param cp = {};
	uint8_t rsp[LRSP_LEN];
	uint32_t it_iu_len;
	struct conn *c;
	char nstr[16];

	if (req_len < LREQ_LEN || req[LREQ_OPCODE] != IU_LOGIN_REQ) {
		say("ERROR connect request without an SRP_LOGIN_REQ (%u bytes)",
		    req_len);
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		return;
	}
	it_iu_len = get_be32(req + LREQ_IT_IU_LEN);
	logins++;
	say("LOGIN_REQ n=%d it_iu_len=%u buf_fmt=%#x flags=%#x imm_off=%u",
	    logins, it_iu_len, get_be16(req + LREQ_BUF_FMT), req[LREQ_FLAGS],
	    get_be16(req + LREQ_IMM_OFF));

	snprintf(nstr, sizeof(nstr), ",%d,", logins);
	if (strstr(reject_logins, nstr)) {
		reject(id, req, 0x00010001);	/* insufficient resources */
		return;
	}

	switch (mode) {
	case M_REJ:
		reject(id, req, rej_reason);
		return;
	case M_REJ_IU_ONCE:
		if (logins == 1) {
			reject(id, req, rej_reason);
			return;
		}
		break;
	case M_CM_REJECT:
		say("CM_REJECT");
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		return;
	case M_SILENT:
		say("SILENT");
		return;		/* keep the id; never answer */
	default:
		break;
	}

	c = conn_new(id);
	if (!c)
		return;
	c->max_it_iu_len = it_iu_len < it_iu_cap ? it_iu_len : it_iu_cap;
	build_login_rsp(rsp, req, c->max_it_iu_len);
	c->max_it_iu_len = get_be32(rsp + LRSP_MAX_IT);
	c->buf_fmt = get_be16(rsp + LRSP_BUF_FMT);
	if (mode != M_RSP_EMPTY) {
		cp.private_data = rsp;
		cp.private_data_len = sizeof(rsp);
	}
	cp.rnr_retry_count = 7;
	/* RDMA READs of external tables, as many as the initiator offers */
	cp.initiator_depth = rd_depth;
	if (c->own_qp) {
		if (own_qp_move(c, IBV_QPS_RTR, rd_depth) ||
		    own_qp_move(c, IBV_QPS_RTS, rd_depth)) {
			say("ERROR conn=%d cannot move our QP to RTS: %s", c->n,
			    strerror(errno));
			rdma_reject(id, NULL, 0);
			conn_free(c);
			return;
		}
		cp.qp_num = c->qp->qp_num;
	}
	say("ACCEPT conn=%d req_lim=%u max_it_iu_len=%u max_ti_iu_len=%u",
	    c->n, get_be32(rsp + LRSP_REQ_LIM), get_be32(rsp + LRSP_MAX_IT),
	    get_be32(rsp + LRSP_MAX_TI));
	if (rdma_accept(id, &cp)) {
		say("ERROR conn=%d rdma_accept: %s", c->n, strerror(errno));
		conn_free(c);
	}
}

/* ---- data phase ---- */

static void build_rsp(uint8_t *iu, const uint8_t *tag, int32_t delta,
		      const struct scsi_result *r, uint8_t flags,
		      uint32_t resid)
{
	memset(iu, 0, RSP_LEN + SENSE_LEN);
	iu[0] = IU_RSP;
	put_be32(iu + RSP_REQ_LIM, (uint32_t)delta);
	copy_tag(iu + RSP_TAG, tag);
	iu[RSP_STATUS] = r ? r->status : 0;
	iu[RSP_FLAGS] = flags;
	if (flags & (RSP_F_DIUNDER | RSP_F_DIOVER))
		put_be32(iu + RSP_DIN_RES, resid);
	if (r && r->status == SAM_CHECK_CONDITION) {
		iu[RSP_FLAGS] |= RSP_F_SNSVALID;
		put_be32(iu + RSP_SENSE_LEN, SENSE_LEN);
		memcpy(iu + RSP_LEN, r->sense, SENSE_LEN);
	}
}

static uint32_t rsp_len(const uint8_t *iu)
{
	return RSP_LEN + ((iu[RSP_FLAGS] & RSP_F_SNSVALID) ? SENSE_LEN : 0);
}

/*
 * The descriptors of an indirect data-in descriptor at OFF. SRP r16a 5.5.2:
 * the table descriptor names the whole table in initiator memory, the IU
 * carries the DATA-IN DESCRIPTOR COUNT first entries of it. When that is
 * less than the table, the table is external: with -x it is fetched with
 * RDMA READ, otherwise refused (as ib_srpt does). Returns 0 with *D, *N and
 * *WANT set, or -1.
 */
static int indirect_in(struct conn *c, const uint8_t *iu, uint32_t len,
		       uint32_t off, const uint8_t **d, uint32_t *n,
		       uint32_t *want)
{
	const uint8_t *h = iu + off;
	unsigned long long tag = get_be64(iu + CMD_TAG);
	uint32_t in_iu = iu[CMD_DIN_CNT], tlen;

	if (off + IDESC_HDR_LEN + in_iu * DESC_LEN > len)
		return -1;
	tlen = get_be32(h + 12);
	if (tlen % DESC_LEN || tlen < in_iu * DESC_LEN) {
		say("ERROR conn=%d tag=%#llx table length %u for %u descriptors in the IU",
		    c->n, tag, tlen, in_iu);
		return -1;
	}
	*n = tlen / DESC_LEN;
	*want = get_be32(h + 16);
	*d = h + IDESC_HDR_LEN;
	if (*n == in_iu)
		return 0;
	if (!serve_ext || *n > MAX_TABLE) {
		say("EXT_TABLE_REFUSED conn=%d tag=%#llx entries=%u in_iu=%u",
		    c->n, tag, *n, in_iu);
		return -1;
	}
	if (rdma_read_table(c, get_be64(h), get_be32(h + 8), tlen)) {
		say("ERROR conn=%d tag=%#llx RDMA READ of a %u-byte table failed",
		    c->n, tag, tlen);
		return -1;
	}
	if (memcmp(table_buf(c), *d, in_iu * DESC_LEN)) {
		say("EXT_TABLE_MISMATCH conn=%d tag=%#llx: the IU's partial table differs from the fetched one",
		    c->n, tag);
		return -1;
	}
	say("EXT_TABLE conn=%d tag=%#llx entries=%u in_iu=%u bytes=%u", c->n,
	    tag, *n, in_iu, *want);
	*d = table_buf(c);
	return 0;
}

/*
 * Write the data-in bytes to the initiator's buffer; returns how many bytes
 * its descriptors asked for in *want, or -1 if they cannot be used.
 */
static int data_in(struct conn *c, const uint8_t *iu, uint32_t len,
		   struct scsi_result *r, uint32_t lkey, uint32_t *want)
{
	uint8_t fmt_out = iu[CMD_BUF_FMT] >> 4, fmt_in = iu[CMD_BUF_FMT] & 0xf;
	uint32_t off = CMD_LEN + (iu[CMD_ADD_CDB] & 0xfc), n, i, done = 0;
	const uint8_t *d;

	*want = 0;
	if (fmt_out == DESC_DIRECT)
		off += DESC_LEN;
	else if (fmt_out == DESC_INDIRECT)
		off += IDESC_HDR_LEN + DESC_LEN * iu[CMD_DOUT_CNT];
	else if (fmt_out == DESC_IMM)
		off += 4;
	if (fmt_in == DESC_NONE) {
		if (r->fit)
			r->data_len = 0;
		return 0;
	}
	if (fmt_in == DESC_DIRECT) {
		n = 1;
		d = iu + off;
		if (off + DESC_LEN > len)
			return -1;
		*want = get_be32(d + 12);
	} else if (fmt_in == DESC_INDIRECT) {
		if (indirect_in(c, iu, len, off, &d, &n, want))
			return -1;
	} else {
		return -1;
	}
	if (r->fit && r->data_len > *want)
		r->data_len = *want;
	for (i = 0; i < n && done < r->data_len; i++, d += DESC_LEN) {
		uint32_t l = get_be32(d + 12);

		if (l > r->data_len - done)
			l = r->data_len - done;
		if (l && rdma_write(c, r->data + done, lkey, get_be64(d),
				    get_be32(d + 8), l))
			return -1;
		done += l;
	}
	return 0;
}

static void send_t_logout(struct conn *c)
{
	uint8_t iu[TLO_LEN] = { IU_T_LOGOUT };

	put_be32(iu + TLO_REASON, 0x01);	/* inactive RDMA channel */
	send_iu(c, iu, sizeof(iu));
}

static void send_aer(struct conn *c, int bad)
{
	uint8_t iu[AER_LEN + SENSE_LEN] = { IU_AER_REQ };
	struct scsi_result r;

	put_be64(iu + AER_TAG, 0x4145520000000001ULL);	/* "AER" */
	put_be32(iu + AER_SENSE_LEN, bad ? 0x1000 : SENSE_LEN);
	scsi_sense(&r, 0x06, 0x2a, 0x09);	/* capacity data changed */
	memcpy(iu + AER_LEN, r.sense, SENSE_LEN);
	send_iu(c, iu, sizeof(iu));
}

static void send_cred_req(struct conn *c)
{
	uint8_t iu[CRQ_LEN] = { IU_CRED_REQ };

	put_be32(iu + CRQ_REQ_LIM, 1);
	put_be64(iu + CRQ_TAG, 0x4352454400000001ULL);	/* "CRED" */
	send_iu(c, iu, sizeof(iu));
}

/*
 * The lie told instead of (or around) the correct SRP_RSP in GOOD, whose
 * length is LEN. Returns 1 if the correct response must still be sent.
 */
static int lie(struct conn *c, uint8_t *good, uint32_t len)
{
	uint8_t iu[SEND_SIZE];
	uint64_t tag = get_be64(good + RSP_TAG);

	memcpy(iu, good, len);
	switch (mode) {
	case M_DROP:
		return 0;
	case M_SENSE_OVERFLOW:
		iu[RSP_FLAGS] |= RSP_F_SNSVALID;
		put_be32(iu + RSP_SENSE_LEN, 0x1000);
		send_iu(c, iu, len);
		return 0;
	case M_RESP_OVERFLOW:
		iu[RSP_FLAGS] |= RSP_F_RSPVALID;
		put_be32(iu + RSP_RESP_LEN, 0x10000);
		send_iu(c, iu, len);
		return 0;
	case M_TAG_HIGH:
		put_be64(iu + RSP_TAG, tag | 0x0000dead00000000ULL);
		send_iu(c, iu, len);
		return 0;
	case M_TAG_OTHER:
		put_be64(iu + RSP_TAG, tag ^ 1);
		send_iu(c, iu, len);
		return 0;
	case M_DUP:
		send_iu(c, iu, len);
		return 1;
	case M_CREDIT_NEG:
		put_be32(iu + RSP_REQ_LIM, (uint32_t)-1000);
		send_iu(c, iu, len);
		return 0;
	case M_CREDIT_HUGE:
		put_be32(iu + RSP_REQ_LIM, 0x7fffffff);
		send_iu(c, iu, len);
		return 0;
	case M_RESID_HUGE:
		iu[RSP_FLAGS] = (iu[RSP_FLAGS] & ~RSP_F_DIOVER) | RSP_F_DIUNDER;
		put_be32(iu + RSP_DIN_RES, 0x80000000);
		send_iu(c, iu, len);
		return 0;
	case M_BAD_OPCODE:
		iu[0] = 0x55;
		send_iu(c, iu, len);
		return 1;
	case M_TRUNCATED:
		send_iu(c, iu, 20);
		return 0;
	case M_OVERSIZE:
		memset(iu + len, 0, TI_IU_LEN + 64 - len);
		send_iu(c, iu, TI_IU_LEN + 64);
		return 0;
	case M_T_LOGOUT:
		send_t_logout(c);
		return 0;
	case M_AER:
	case M_AER_BAD:
		send_aer(c, mode == M_AER_BAD);
		return 1;
	case M_CRED_REQ:
		send_cred_req(c);
		return 1;
	case M_DISCONNECT:
		c->disconnecting = 1;
		rdma_disconnect(c->id);
		return 0;
	default:
		return 1;
	}
}

/* ---- late answers and stale-rkey probes ---- */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void act_add(int kind, long long due, const struct cmd_ref *r)
{
	unsigned int i;

	for (i = 0; i < MAX_ACTIONS; i++) {
		if (actions[i].kind == ACT_FREE) {
			actions[i].kind = kind;
			actions[i].due = due;
			actions[i].cmd = *r;
			return;
		}
	}
	say("ERROR conn=%d tag=%#llx: too many pending late answers and probes",
	    r->conn, (unsigned long long)r->tag);
}

/*
 * The first data descriptor of an SRP_CMD, the one a probe uses: data-out
 * before data-in; of an indirect descriptor the first entry in the IU, or
 * the table itself when the IU carries none.
 */
static void cmd_first_desc(const uint8_t *iu, uint32_t len, struct cmd_ref *r)
{
	uint8_t fmt_out = iu[CMD_BUF_FMT] >> 4, fmt_in = iu[CMD_BUF_FMT] & 0xf;
	uint32_t off = CMD_LEN + (iu[CMD_ADD_CDB] & 0xfc);
	uint8_t fmt = fmt_in, cnt = iu[CMD_DIN_CNT];

	r->op = PROBE_WRITE;
	if (fmt_out == DESC_DIRECT || fmt_out == DESC_INDIRECT) {
		r->op = PROBE_READ;
		fmt = fmt_out;
		cnt = iu[CMD_DOUT_CNT];
	} else if (fmt_out == DESC_IMM) {
		off += 4;
	}
	if (fmt == DESC_INDIRECT && cnt)
		off += IDESC_HDR_LEN;
	if ((fmt != DESC_DIRECT && fmt != DESC_INDIRECT) ||
	    off + DESC_LEN > len) {
		r->op = PROBE_NONE;
		return;
	}
	r->va = get_be64(iu + off);
	r->rkey = get_be32(iu + off + 8);
	r->len = get_be32(iu + off + 12);
	if (!r->len)
		r->op = PROBE_NONE;
}

static struct conn *conn_by_n(int n)
{
	unsigned int i;

	for (i = 0; i < MAX_CONNS; i++)
		if (conns[i] && conns[i]->n == n)
			return conns[i];
	return NULL;
}

/*
 * The connection a probe of a command of connection N goes over: N itself
 * while it is up, or with -X the first other connection that is up.
 */
static struct conn *probe_conn(int n)
{
	unsigned int i;
	struct conn *c;

	for (i = 0; i < MAX_CONNS; i++) {
		c = conns[i];
		if (!c || !c->established || c->disconnecting)
			continue;
		if (probe_cross ? c->n != n : c->n == n)
			return c;
	}
	return NULL;
}

/*
 * RDMA WRITE a pattern to (data-in) or RDMA READ from (data-out) the first
 * PROBE_BYTES of the command's first data descriptor. The outcome is
 * logged when the work request completes (probe_done()), or now when it
 * cannot be posted.
 */
static void probe(const struct cmd_ref *r)
{
	static const char pattern[] = "STALE-RKEY-PROBE";
	struct conn *c = probe_conn(r->conn);
	struct ibv_sge sge = {
		.length = r->len < PROBE_BYTES ? r->len : PROBE_BYTES,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id(WR_PROBE, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = r->op == PROBE_READ ? IBV_WR_RDMA_READ :
						IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = r->va, .rkey = r->rkey },
	};
	char status[80];
	unsigned int i;
	int ret;

	if (r->op == PROBE_NONE) {
		probe_say(r, 0, "", "no data descriptor");
		return;
	}
	if (!c) {
		probe_say(r, 0, "", probe_cross ? "no other connection" :
						  "connection gone");
		return;
	}
	if (c->probe_pending) {
		probe_say(r, c->n, "", "another probe still pending");
		return;
	}
	for (i = 0; i < PROBE_BYTES; i++)
		probe_buf(c)[i] = r->op == PROBE_READ ? 0 :
				  pattern[i % (sizeof(pattern) - 1)];
	sge.addr = (uintptr_t)probe_buf(c);
	sge.lkey = c->mr->lkey;
	ret = post_sq(c, &wr);
	if (ret) {
		snprintf(status, sizeof(status), "post failed: %s",
			 strerror(ret));
		probe_say(r, c->n, "", status);
		return;
	}
	c->probe = *r;
	c->probe_pending = 1;
}

/* The withheld SRP_RSP of a lied-about command, late (-L). */
static void late_rsp(const struct cmd_ref *r)
{
	struct conn *c = conn_by_n(r->conn);

	if (!c || !c->established || c->disconnecting) {
		say("LATE_RSP conn=%d tag=%#llx not sent: connection gone",
		    r->conn, (unsigned long long)r->tag);
	} else {
		say("LATE_RSP conn=%d tag=%#llx", r->conn,
		    (unsigned long long)r->tag);
		send_iu(c, r->rsp, r->rsp_len);
	}
	if (probe_ms >= 0)
		act_add(ACT_PROBE, now_ms() + probe_ms, r);
}

/* Run the late answers and probes that are due. */
static void run_actions(void)
{
	long long now = now_ms();
	struct cmd_ref r;
	unsigned int i;
	int kind;

	for (i = 0; i < MAX_ACTIONS; i++) {
		kind = actions[i].kind;
		if ((kind != ACT_LATE_RSP && kind != ACT_PROBE) ||
		    actions[i].due > now)
			continue;
		r = actions[i].cmd;
		actions[i].kind = ACT_FREE;
		if (kind == ACT_LATE_RSP)
			late_rsp(&r);
		else
			probe(&r);
	}
	for (i = 0; i < MAX_CONNS; i++)
		if (conns[i] && conns[i]->probe_pending)
			poll_sends(conns[i], 0);
}

/* Milliseconds until the next timed action, at most LIMIT. */
static int actions_wait(int limit)
{
	long long now = now_ms(), d;
	unsigned int i;

	for (i = 0; i < MAX_ACTIONS; i++) {
		if (actions[i].kind == ACT_PROBE ||
		    actions[i].kind == ACT_LATE_RSP) {
			d = actions[i].due - now;
			if (d < limit)
				limit = d < 0 ? 0 : (int)d;
		}
	}
	for (i = 0; i < MAX_CONNS; i++)
		if (conns[i] && conns[i]->probe_pending && limit > 50)
			limit = 50;
	return limit;
}

/*
 * After the lie about the command in IU (correct response GOOD): with -L,
 * the withheld response of drop (after the ABORT TASK naming the command)
 * or t-logout (after the lie) is sent late; with -P, the probe follows the
 * command's response, or the lie when there is none.
 */
static void lie_followup(struct conn *c, const uint8_t *iu, uint32_t len,
			 const uint8_t *good, uint32_t good_len)
{
	struct cmd_ref r = {
		.conn = c->n,
		.tag = get_be64(iu + CMD_TAG),
		.rsp_len = good_len,
	};

	memcpy(r.rsp, good, good_len);
	cmd_first_desc(iu, len, &r);
	if (late_ms >= 0 && mode == M_DROP)
		act_add(ACT_WAIT_ABORT, 0, &r);
	else if (late_ms >= 0 && mode == M_T_LOGOUT)
		act_add(ACT_LATE_RSP, now_ms() + late_ms, &r);
	else if (probe_ms >= 0)
		act_add(ACT_PROBE, now_ms() + probe_ms, &r);
}

/* An ABORT TASK for TAG on C: a withheld response waiting for it is due. */
static void abort_seen(struct conn *c, uint64_t tag)
{
	unsigned int i;

	for (i = 0; i < MAX_ACTIONS; i++) {
		if (actions[i].kind == ACT_WAIT_ABORT &&
		    actions[i].cmd.conn == c->n && actions[i].cmd.tag == tag) {
			actions[i].kind = ACT_LATE_RSP;
			actions[i].due = now_ms() + late_ms;
		}
	}
}

/* Is descriptor format FMT one the LOGIN_RSP said the target supports? */
static int fmt_allowed(const struct conn *c, uint8_t fmt)
{
	if (fmt == DESC_DIRECT)
		return c->buf_fmt & 0x0002;
	if (fmt == DESC_INDIRECT)
		return c->buf_fmt & 0x0004;
	return 1;
}

static void on_cmd(struct conn *c, const uint8_t *iu, uint32_t len)
{
	uint8_t fmt = iu[CMD_BUF_FMT], flags = 0;
	unsigned int slot = next_slot(c);
	uint8_t *out = send_buf(c, slot);
	struct scsi_result r = {};
	uint32_t want = 0, lkey, resid = 0;

	if (len < CMD_LEN) {
		say("ERROR conn=%d SRP_CMD of %u bytes", c->n, len);
		return;
	}
	if (!fmt_allowed(c, fmt >> 4) || !fmt_allowed(c, fmt & 0xf))
		say("UNSUPPORTED_FMT conn=%d buf_fmt=%#x announced=%#x", c->n,
		    fmt, c->buf_fmt);
	scsi_exec(iu + CMD_LUN, iu + CMD_CDB, (fmt >> 4) != DESC_NONE, &r);
	if (r.data == r.small) {
		memcpy(data_buf(c, slot), r.small, r.data_len);
		r.data = data_buf(c, slot);
		lkey = c->mr->lkey;
	} else {
		lkey = c->lun_mr->lkey;
	}
	if (r.status == SAM_GOOD && data_in(c, iu, len, &r, lkey, &want)) {
		say("ERROR conn=%d cannot use the data-in descriptors (fmt %#x)",
		    c->n, fmt);
		scsi_sense(&r, 0x05, 0x24, 0);
	}
	if (r.status == SAM_GOOD && want > r.data_len) {
		flags = RSP_F_DIUNDER;
		resid = want - r.data_len;
	} else if (r.status == SAM_GOOD && want < r.data_len) {
		flags = RSP_F_DIOVER;
		resid = r.data_len - want;
	}
	build_rsp(out, iu + CMD_TAG, 1, &r, flags, resid);

	if (lie_op >= 0 && iu[CMD_CDB] == lie_op)
		say("TRIGGER conn=%d tag=%#llx", c->n,
		    (unsigned long long)get_be64(iu + CMD_TAG));
	if ((lie_op < 0 || iu[CMD_CDB] == lie_op) && lies_left) {
		if (lies_left > 0)
			lies_left--;
		say("LIE %s conn=%d tag=%#llx cdb0=%#x", mode_name, c->n,
		    (unsigned long long)get_be64(iu + CMD_TAG), iu[CMD_CDB]);
		if (lie(c, out, rsp_len(out)))
			post_send(c, slot, rsp_len(out));
		lie_followup(c, iu, len, out, rsp_len(out));
		return;
	}
	post_send(c, slot, rsp_len(out));
}

static void on_tsk_mgmt(struct conn *c, const uint8_t *iu, uint32_t len)
{
	unsigned int slot = next_slot(c);
	uint8_t *out = send_buf(c, slot);

	if (len < TMF_LEN)
		return;
	say("TSK_MGMT conn=%d func=%#x task_tag=%#llx%s", c->n, iu[TMF_FUNC],
	    (unsigned long long)get_be64(iu + TMF_TASK_TAG),
	    tmf_silent ? " unanswered" : "");
	if (iu[TMF_FUNC] == 0x01)		/* ABORT TASK */
		abort_seen(c, get_be64(iu + TMF_TASK_TAG));
	if (tmf_silent)
		return;
	build_rsp(out, iu + TMF_TAG, 1, NULL, RSP_F_RSPVALID, 0);
	put_be32(out + RSP_RESP_LEN, 4);
	memset(out + RSP_LEN, 0, 4);		/* TMF complete */
	post_send(c, slot, RSP_LEN + 4);
}

static void on_recv(struct conn *c, const uint8_t *iu, uint32_t len)
{
	if (!len) {
		say("ERROR conn=%d empty IU", c->n);
		return;
	}
	if (len > c->max_it_iu_len)
		say("OVERLONG_IU conn=%d type=%#x len=%u max_it_iu_len=%u",
		    c->n, iu[0], len, c->max_it_iu_len);
	switch (iu[0]) {
	case IU_CMD:
		on_cmd(c, iu, len);
		break;
	case IU_TSK_MGMT:
		on_tsk_mgmt(c, iu, len);
		break;
	case IU_I_LOGOUT:
		say("I_LOGOUT conn=%d", c->n);
		break;
	case IU_CRED_RSP:
	case IU_AER_RSP:
		say("%s conn=%d tag=%#llx",
		    iu[0] == IU_CRED_RSP ? "CRED_RSP" : "AER_RSP", c->n,
		    len >= 16 ? (unsigned long long)get_be64(iu + CRSP_TAG) : 0ULL);
		break;
	default:
		say("ERROR conn=%d unknown IU type %#x (%u bytes)", c->n, iu[0],
		    len);
		break;
	}
}

static void poll_cq(struct conn *c)
{
	struct ibv_cq *cq;
	struct ibv_wc wc[16];
	void *ctx;
	int n, i;

	if (ibv_get_cq_event(c->cc, &cq, &ctx))
		return;
	ibv_ack_cq_events(cq, 1);
	ibv_req_notify_cq(cq, 0);
	while ((n = ibv_poll_cq(cq, 16, wc)) > 0) {
		for (i = 0; i < n; i++) {
			unsigned int kind = wc[i].wr_id >> 32;
			unsigned int idx = (uint32_t)wc[i].wr_id;

			if (wc[i].status != IBV_WC_SUCCESS) {
				if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
					say("WC_ERROR conn=%d kind=%u %s", c->n,
					    kind, ibv_wc_status_str(wc[i].status));
				continue;
			}
			if (kind != WR_RECV)
				continue;
			on_recv(c, recv_buf(c, idx), wc[i].byte_len);
			if (post_recv(c, idx))
				say("ERROR conn=%d repost recv", c->n);
		}
	}
	poll_sends(c, 0);
}

/* ---- CM events ---- */

static void on_cm_event(struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev, copy;
	uint8_t req[256];
	unsigned int req_len = 0;
	struct conn *c;

	if (rdma_get_cm_event(ch, &ev))
		return;
	copy = *ev;
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		req_len = ev->param.conn.private_data_len;
		if (req_len > sizeof(req))
			req_len = sizeof(req);
		if (ev->param.conn.private_data)
			memcpy(req, ev->param.conn.private_data, req_len);
		else
			req_len = 0;
	}
	rdma_ack_cm_event(ev);
	if (copy.event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		/* already from our side: the initiator's responder resources */
		on_connect_request(copy.id, req, req_len,
				   copy.param.conn.initiator_depth);
		return;
	}
	c = conn_find(copy.id);
	say("CM %s conn=%d", rdma_event_str(copy.event), c ? c->n : 0);
	if (!c)
		return;
	switch (copy.event) {
	case RDMA_CM_EVENT_ESTABLISHED:
		c->established = 1;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		if (!c->disconnecting)
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
		"usage: srp-fake-target [-a ADDR] [-p PORT] [-o OPCODE] [-n COUNT] [-x] [-I LEN] [-J N[,M]]\n"
		"                       [-T] [-L MS] [-P MS [-X]] MODE\n"
		"  -a ADDR    listen address (default 0.0.0.0)\n"
		"  -p PORT    RDMA/CM port (default 5556)\n"
		"  -o OPCODE  CDB opcode whose answer lies (default 0xc0; any: every one)\n"
		"  -n COUNT   lie to the first COUNT such commands, -1 all (default 1)\n"
		"  -x         serve external descriptor tables (RDMA READ them);\n"
		"             without it they are refused, as ib_srpt does\n"
		"  -I LEN     announce at most LEN as max_it_iu_len (default %u)\n"
		"  -J N[,M]   reject the logins numbered N, M, ... (insufficient\n"
		"             resources), counting every LOGIN_REQ from 1\n"
		"  -T         leave task management functions unanswered\n"
		"  -L MS      answer late: send the withheld SRP_RSP of t-logout\n"
		"             MS ms after the lie, of drop MS ms after the ABORT\n"
		"             TASK naming the command\n"
		"  -P MS      stale-rkey probe: MS ms after the lied-about command's\n"
		"             response (or the lie, if none), RDMA WRITE (data-in)\n"
		"             or READ (data-out) its first data descriptor\n"
		"  -X         probe over another connection than the command's\n"
		"modes:\n", RECV_SIZE);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(stderr, "  %-15s %s\n", modes[i].name, modes[i].help);
	exit(2);
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	const char *addr = "0.0.0.0", *port = "5556";
	struct rdma_event_channel *ech;
	struct pollfd pfd[1 + MAX_CONNS];
	struct conn *polled[1 + MAX_CONNS];
	struct rdma_addrinfo hints = {}, *ai;
	struct rdma_cm_id *listen_id;
	unsigned int i;
	int opt, n, found = 0;
	struct sigaction sa = { .sa_handler = on_signal };

	while ((opt = getopt(argc, argv, "a:p:o:n:xI:J:TL:P:Xh")) != -1) {
		switch (opt) {
		case 'x':
			serve_ext = 1;
			break;
		case 'T':
			tmf_silent = 1;
			break;
		case 'L':
			late_ms = strtol(optarg, NULL, 0);
			if (late_ms < 0)
				usage();
			break;
		case 'P':
			probe_ms = strtol(optarg, NULL, 0);
			if (probe_ms < 0)
				usage();
			break;
		case 'X':
			probe_cross = 1;
			break;
		case 'I':
			it_iu_cap = strtoul(optarg, NULL, 0);
			if (!it_iu_cap || it_iu_cap > RECV_SIZE)
				usage();
			break;
		case 'J':
			snprintf(reject_logins, sizeof(reject_logins), ",%s,",
				 optarg);
			break;
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
			rej_reason = modes[i].reason;
			found = 1;
		}
	}
	if (!found)
		usage();
	for (i = 0; i < LUN_BLOCKS; i++)
		put_be64(lun_data + (size_t)i * LUN_BLOCK, i);

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
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
	say("LISTEN %s:%s mode=%s lie_op=%#x count=%d", addr, port,
	    argv[optind], lie_op, lies_left);

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
		if (poll(pfd, n, actions_wait(500)) > 0) {
			for (i = 1; i < (unsigned int)n; i++)
				if (pfd[i].revents & POLLIN)
					poll_cq(polled[i]);
			if (pfd[0].revents & POLLIN)
				on_cm_event(ech);
		}
		run_actions();
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
