// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * srp-fake-target: an SRP target over RDMA/CM that misbehaves on purpose.
 *
 *   srp-fake-target [-a ADDR] [-p PORT] [-o OPCODE] [-n COUNT] [-x]
 *                   [-I LEN] [-J N[,M...]] [-T | -t HOW] [-L MS]
 *                   [-P MS [-X] [-R]] MODE
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
 * another one of the same initiator, and logs the outcome ("PROBE ...");
 * with -R it probes again every MS ms for as long as the probes succeed.
 *
 * Every event is printed on stdout, one line each ("LOGIN_REQ ...",
 * "LIE ...", "AER_RSP tag=...", ...), for the lab scenario to check.
 * Several connections (channels, reconnects) are served at once.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdma-target.h"
#include "scsi.h"
#include "wire.h"

#define NCREDITS	32		/* initial req_lim granted */
#define NRECV		(NCREDITS + 16)	/* + room for CRED/AER_RSP, I_LOGOUT */
#define RECV_SIZE	16384		/* largest IT IU we accept */
#define NSEND		128
#define SEND_SIZE	1024
#define TI_IU_LEN	256		/* largest IU we announce we send */
#define SQ_DEPTH	4096		/* one command may RDMA WRITE this often */
#define MAX_TABLE	2048		/* external table entries we fetch */
#define TABLE_BYTES	(MAX_TABLE * DESC_LEN)
#define MAX_ACTIONS	16

enum mode {
	/* login phase */
	M_REJ, M_REJ_IU_ONCE, M_CM_REJECT, M_SILENT,
	M_RSP_OPCODE, M_RSP_EMPTY, M_RSP_REQLIM0, M_RSP_REQLIM_NEG,
	M_RSP_TI0, M_RSP_TI_HUGE, M_RSP_IT_TINY, M_RSP_IT_SMALL,
	M_RSP_BUFFMT0, M_RSP_DIRECT_ONLY, M_RSP_INDIRECT_ONLY,
	M_NO_REMOTE_WRITE, M_DREQ_EARLY,
	/* data phase */
	M_OK, M_DROP, M_SENSE_OVERFLOW, M_RESP_OVERFLOW, M_TAG_HIGH,
	M_TAG_OTHER, M_DUP, M_CREDIT_NEG, M_CREDIT_HUGE, M_BAD_OPCODE,
	M_TRUNCATED, M_OVERSIZE, M_T_LOGOUT, M_AER, M_AER_BAD, M_CRED_REQ,
	M_DISCONNECT, M_RESID_HUGE, M_TAG_XCHAN, M_T_LOGOUT_SHORT,
	M_ZERO_SEND, M_CRED_FLOOD, M_CRED_BURST, M_STALL,
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
	{ "silent",	    M_SILENT, 0, "never answer the CM REQ (with -L MS: accept it MS ms late)" },
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
	{ "dreq-early",	    M_DREQ_EARLY, 0, "accept with a QP that never answers, and disconnect once established" },
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
	{ "tag-xchan",	    M_TAG_XCHAN, 0, "the SRP_RSP over another connection of the initiator" },
	{ "t-logout-short", M_T_LOGOUT_SHORT, 0, "a 4-byte SRP_T_LOGOUT instead of the SRP_RSP" },
	{ "zero-send",	    M_ZERO_SEND, 0, "a SEND of zero bytes, then the SRP_RSP" },
	{ "cred-flood",	    M_CRED_FLOOD, 0, "1000 SRP_CRED_REQs (+1 credit each), then the SRP_RSP" },
	{ "cred-burst",	    M_CRED_BURST, 0, "128 SRP_CRED_REQs at once, none waiting for an answer, then the SRP_RSP" },
	{ "stall",	    M_STALL, 0, "never answer the command, and stall the connection: no receive buffer posted again" },
};

/* How task management functions are answered (-T, -t). */
enum tmf_lie { TMF_OK, TMF_SILENT, TMF_WRONG_TAG, TMF_NO_DATA, TMF_LATE };

static const char *const tmf_lies[] = {
	[TMF_OK]	= "ok",
	[TMF_SILENT]	= "silent",
	[TMF_WRONG_TAG]	= "wrong-tag",
	[TMF_NO_DATA]	= "no-data",
	[TMF_LATE]	= "late",
};

/*
 * A lied-about command, kept for a late answer (-L) or a stale-rkey probe
 * (-P): its connection, tag and first data descriptor with the operation a
 * probe of it uses (@probe), and its correct SRP_RSP.
 */
struct cmd_ref {
	struct rt_probe	probe;
	uint8_t		rsp[RSP_LEN + SENSE_LEN];
	uint32_t	rsp_len;
	long long	give_up;	/* -t late: now_ms() to stop waiting */
};

/*
 * What the LOGIN_RSP of a connection (conn->priv) announced, and whether
 * the initiator sent SRP_I_LOGOUT on it.
 */
struct srp_conn {
	uint32_t	max_it_iu_len;
	uint16_t	buf_fmt;
	int		logging_out;
	int		stalled;
};

static struct srp_conn *srp(const struct conn *c)
{
	return c->priv;
}

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
static enum tmf_lie tmf_lie;	/* -T, -t: how task management is answered */
static int late_ms = -1;	/* -L: answer a withheld response late */
static int probe_ms = -1;	/* -P: stale-rkey probe delay */
static int probe_cross;		/* -X: probe over another connection */
static int probe_repeat;	/* -R: probe again while the probes succeed */
static struct action actions[MAX_ACTIONS];

/* A login request held back by silent -L, to be accepted late. */
struct held_login {
	struct rdma_cm_id	*id;	/* NULL: slot free */
	long long		due;	/* now_ms() */
	int			n;	/* login number */
	uint8_t			req[LREQ_LEN];
	uint8_t			rd_depth;
};

static struct held_login held[RT_MAX_CONNS];

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

static void accept_login(struct rdma_cm_id *id, const uint8_t *req,
			 uint8_t rd_depth);

/* Hold a login request back, to accept it late_ms from now (silent -L). */
static void hold_login(struct rdma_cm_id *id, const uint8_t *req,
		       uint8_t rd_depth)
{
	unsigned int i;

	for (i = 0; i < RT_MAX_CONNS && held[i].id; i++)
		;
	if (i == RT_MAX_CONNS) {
		say("ERROR too many held logins");
		return;		/* keep the id; never answer */
	}
	held[i].id = id;
	held[i].due = now_ms() + late_ms;
	held[i].n = logins;
	held[i].rd_depth = rd_depth;
	memcpy(held[i].req, req, LREQ_LEN);
	say("SILENT held for %d ms", late_ms);
}

/*
 * A login request. Its event is acknowledged already (an id can only be
 * destroyed once its events are), so the private data comes as a copy.
 */
static void on_connect_request(struct rdma_cm_id *id, const uint8_t *req,
			       unsigned int req_len, uint8_t rd_depth)
{
	uint32_t it_iu_len;
	char nstr[16], ipi[33];
	unsigned int i;

	if (req_len < LREQ_LEN || req[LREQ_OPCODE] != IU_LOGIN_REQ) {
		say("ERROR connect request without an SRP_LOGIN_REQ (%u bytes)",
		    req_len);
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		return;
	}
	it_iu_len = get_be32(req + LREQ_IT_IU_LEN);
	logins++;
	for (i = 0; i < 16; i++)
		snprintf(ipi + 2 * i, 3, "%02x", req[LREQ_IPORT + i]);
	say("LOGIN_REQ n=%d it_iu_len=%u buf_fmt=%#x flags=%#x imm_off=%u ipi=%s",
	    logins, it_iu_len, get_be16(req + LREQ_BUF_FMT), req[LREQ_FLAGS],
	    get_be16(req + LREQ_IMM_OFF), ipi);

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
		if (late_ms >= 0) {
			hold_login(id, req, rd_depth);
			return;
		}
		say("SILENT");
		return;		/* keep the id; never answer */
	default:
		break;
	}
	accept_login(id, req, rd_depth);
}

/* Accept login request REQ on ID with an SRP_LOGIN_RSP (lying per mode). */
static void accept_login(struct rdma_cm_id *id, const uint8_t *req,
			 uint8_t rd_depth)
{
	uint32_t it_iu_len = get_be32(req + LREQ_IT_IU_LEN);
	struct rdma_conn_param cp = {};
	uint8_t rsp[LRSP_LEN];
	struct conn *c;
	int access = -1;

	/*
	 * no-remote-write: a QP of our own that grants no remote access
	 * (rdma_cm would grant remote write whenever it moves a QP);
	 * dreq-early: one of our own left in INIT, where it answers nothing
	 */
	if (mode == M_NO_REMOTE_WRITE)
		access = IBV_ACCESS_LOCAL_WRITE;
	else if (mode == M_DREQ_EARLY)
		access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	c = rt_conn_new(id, access);
	if (!c)
		return;
	build_login_rsp(rsp, req, it_iu_len < it_iu_cap ? it_iu_len : it_iu_cap);
	srp(c)->max_it_iu_len = get_be32(rsp + LRSP_MAX_IT);
	srp(c)->buf_fmt = get_be16(rsp + LRSP_BUF_FMT);
	if (mode != M_RSP_EMPTY) {
		cp.private_data = rsp;
		cp.private_data_len = sizeof(rsp);
	}
	cp.rnr_retry_count = 7;
	/* RDMA READs of external tables, as many as the initiator offers */
	cp.initiator_depth = rd_depth;
	say("ACCEPT conn=%d req_lim=%u max_it_iu_len=%u max_ti_iu_len=%u",
	    c->n, get_be32(rsp + LRSP_REQ_LIM), get_be32(rsp + LRSP_MAX_IT),
	    get_be32(rsp + LRSP_MAX_TI));
	if (mode != M_DREQ_EARLY) {
		rt_accept(c, &cp, rd_depth);
		return;
	}
	/* rt_accept() would move our QP to RTS */
	cp.qp_num = c->qp->qp_num;
	if (rdma_accept(c->id, &cp)) {
		say("ERROR conn=%d rdma_accept: %s", c->n, strerror(errno));
		rt_conn_free(c);
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
	if (rt_rdma_read_wait(c, rt_extra(c), get_be64(h), get_be32(h + 8),
			      tlen)) {
		say("ERROR conn=%d tag=%#llx RDMA READ of a %u-byte table failed",
		    c->n, tag, tlen);
		return -1;
	}
	if (memcmp(rt_extra(c), *d, in_iu * DESC_LEN)) {
		say("EXT_TABLE_MISMATCH conn=%d tag=%#llx: the IU's partial table differs from the fetched one",
		    c->n, tag);
		return -1;
	}
	say("EXT_TABLE conn=%d tag=%#llx entries=%u in_iu=%u bytes=%u", c->n,
	    tag, *n, in_iu, *want);
	*d = rt_extra(c);
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
		if (l && rt_rdma(c, IBV_WR_RDMA_WRITE, r->data + done, lkey,
				 get_be64(d), get_be32(d + 8), l))
			return -1;
		done += l;
	}
	return 0;
}

/* SRP_T_LOGOUT, its first LEN bytes. */
static void send_t_logout(struct conn *c, uint32_t len)
{
	uint8_t iu[TLO_LEN] = { IU_T_LOGOUT };

	put_be32(iu + TLO_REASON, 0x01);	/* inactive RDMA channel */
	rt_send(c, iu, len);
}

static void send_aer(struct conn *c, int bad)
{
	uint8_t iu[AER_LEN + SENSE_LEN] = { IU_AER_REQ };
	struct scsi_result r;

	put_be64(iu + AER_TAG, 0x4145520000000001ULL);	/* "AER" */
	put_be32(iu + AER_SENSE_LEN, bad ? 0x1000 : SENSE_LEN);
	scsi_sense(&r, 0x06, 0x2a, 0x09);	/* capacity data changed */
	memcpy(iu + AER_LEN, r.sense, SENSE_LEN);
	rt_send(c, iu, sizeof(iu));
}

/* SRP_CRED_REQ number N (from 1) granting one credit, tagged "CRED" + N. */
static int send_cred_req(struct conn *c, uint32_t n)
{
	uint8_t iu[CRQ_LEN] = { IU_CRED_REQ };

	put_be32(iu + CRQ_REQ_LIM, 1);
	put_be64(iu + CRQ_TAG, 0x4352454400000000ULL | n);	/* "CRED" */
	return rt_send(c, iu, sizeof(iu));
}

/*
 * CRED_FLOOD SRP_CRED_REQs in a row, as fast as the initiator answers
 * them: at most FLOOD_WINDOW unanswered at a time (fewer than our
 * receives, so the answers never meet a receive queue without a buffer,
 * and fewer than the initiator's send IUs). Before each, the initiator's
 * SRP_CRED_RSPs (and anything else) are received and handled.
 */
#define CRED_FLOOD	1000
#define FLOOD_WINDOW	16

static int flooding;
static uint32_t flood_answered;	/* SRP_CRED_RSPs seen while flooding */

static void send_cred_flood(struct conn *c)
{
	long long end = now_ms() + 20000;
	uint32_t n;

	if (flooding)
		return;
	flooding = 1;
	flood_answered = 0;
	for (n = 1; n <= CRED_FLOOD; n++) {
		do {
			rt_drain(c);
			rt_poll_sends(c, 0);
		} while ((c->sq_inflight >= NSEND / 4 ||
			  n - 1 - flood_answered >= FLOOD_WINDOW) &&
			 now_ms() < end);
		if (now_ms() >= end || send_cred_req(c, n)) {
			say("ERROR conn=%d CRED_REQ flood stuck after %u", c->n,
			    n - 1);
			break;
		}
	}
	say("CRED_FLOOD conn=%d sent=%u", c->n, n - 1);
	flooding = 0;
}

/*
 * CRED_BURST SRP_CRED_REQs at once, unpaced: none waits for an answer, and
 * our receive buffers are not reposted until every request has landed (its
 * send completed). So the initiator's first NRECV answers fill our receive
 * queue and the rest wait, receiver not ready, each holding one of the
 * initiator's send IUs. With the initiator's default queue_size (64 send
 * IUs, 64 receives) answers NRECV + 1 to NRECV + 64 take every send IU it
 * has, and at least the last 128 - 48 - 64 = 16 requests find none free:
 * they must still be answered, once our receives are back and IUs free
 * again. The requests beyond the initiator's 64 receives wait (receiver
 * not ready) for it to repost them; an initiator that keeps a request's
 * buffer until it can answer keeps only those few, far fewer than its
 * receives, so every request lands. Then the answers are taken in (up to
 * 10 s) and counted: CRED_BURST conn=N sent=S answered=A.
 */
#define CRED_BURST	128

static void send_cred_burst(struct conn *c)
{
	long long end = now_ms() + 20000;
	uint32_t n;

	if (flooding)
		return;
	flooding = 1;
	flood_answered = 0;
	for (n = 1; n <= CRED_BURST; n++)
		if (send_cred_req(c, n))
			break;
	while (c->sq_inflight && now_ms() < end) {
		rt_poll_sends(c, 0);
		usleep(200);
	}
	if (c->sq_inflight)
		say("ERROR conn=%d CRED_REQ burst: %u sends not completed in 20 s",
		    c->n, c->sq_inflight);
	end = now_ms() + 10000;
	while (flood_answered < n - 1 && now_ms() < end) {
		rt_drain(c);
		rt_poll_sends(c, 0);
		usleep(200);
	}
	say("CRED_BURST conn=%d sent=%u answered=%u", c->n, n - 1,
	    flood_answered);
	flooding = 0;
}

/*
 * stall: C's receive buffers are reposted no more, so that once the
 * initiator has filled those still posted its sends wait, receiver not
 * ready, for as long as its RNR retry count allows (7: for ever). To get
 * there at once, as many SRP_CRED_REQs (+1 credit each, tags "CRED" +
 * 1..N) go out as receives are still posted: the initiator's answers
 * take them. What arrives on a stalled connection is logged
 * ("STALL_RECV ...") and left unanswered; "STALL conn=N" says that no
 * receive is posted any more.
 */
static void stall_conn(struct conn *c)
{
	uint32_t n, want = c->rx_posted;

	srp(c)->stalled = 1;
	say("STALLING conn=%d receives=%u", c->n, want);
	for (n = 1; n <= want; n++)
		if (send_cred_req(c, n))
			break;
}

/* An IU on a stalled connection: logged, not answered, not reposted. */
static void stalled_recv(struct conn *c, const uint8_t *iu, uint32_t len)
{
	say("STALL_RECV conn=%d type=%#x len=%u receives=%u", c->n, iu[0], len,
	    c->rx_posted);
	if (!c->rx_posted)
		say("STALL conn=%d: no receive posted; the initiator's sends wait",
		    c->n);
}

static int conn_up(const struct conn *c)
{
	return c && c->established && !c->disconnecting;
}

/* A connection that is up, other than C. */
static struct conn *other_conn(const struct conn *c)
{
	unsigned int i;

	for (i = 0; i < RT_MAX_CONNS; i++)
		if (conns[i] != c && conn_up(conns[i]))
			return conns[i];
	return NULL;
}

/*
 * The lie told instead of (or around) the correct SRP_RSP in GOOD, whose
 * length is LEN. Returns 1 if the correct response must still be sent.
 */
static int lie(struct conn *c, uint8_t *good, uint32_t len)
{
	uint8_t iu[SEND_SIZE];
	uint64_t tag = get_be64(good + RSP_TAG);
	struct conn *other;

	memcpy(iu, good, len);
	switch (mode) {
	case M_DROP:
		return 0;
	case M_SENSE_OVERFLOW:
		iu[RSP_FLAGS] |= RSP_F_SNSVALID;
		put_be32(iu + RSP_SENSE_LEN, 0x1000);
		rt_send(c, iu, len);
		return 0;
	case M_RESP_OVERFLOW:
		iu[RSP_FLAGS] |= RSP_F_RSPVALID;
		put_be32(iu + RSP_RESP_LEN, 0x10000);
		rt_send(c, iu, len);
		return 0;
	case M_TAG_HIGH:
		put_be64(iu + RSP_TAG, tag | 0x0000dead00000000ULL);
		rt_send(c, iu, len);
		return 0;
	case M_TAG_OTHER:
		put_be64(iu + RSP_TAG, tag ^ 1);
		rt_send(c, iu, len);
		return 0;
	case M_DUP:
		rt_send(c, iu, len);
		return 1;
	case M_CREDIT_NEG:
		put_be32(iu + RSP_REQ_LIM, (uint32_t)-1000);
		rt_send(c, iu, len);
		return 0;
	case M_CREDIT_HUGE:
		put_be32(iu + RSP_REQ_LIM, 0x7fffffff);
		rt_send(c, iu, len);
		return 0;
	case M_RESID_HUGE:
		iu[RSP_FLAGS] = (iu[RSP_FLAGS] & ~RSP_F_DIOVER) | RSP_F_DIUNDER;
		put_be32(iu + RSP_DIN_RES, 0x80000000);
		rt_send(c, iu, len);
		return 0;
	case M_BAD_OPCODE:
		iu[0] = 0x55;
		rt_send(c, iu, len);
		return 1;
	case M_TRUNCATED:
		rt_send(c, iu, 20);
		return 0;
	case M_OVERSIZE:
		memset(iu + len, 0, TI_IU_LEN + 64 - len);
		rt_send(c, iu, TI_IU_LEN + 64);
		return 0;
	case M_T_LOGOUT:
		send_t_logout(c, TLO_LEN);
		return 0;
	case M_T_LOGOUT_SHORT:
		send_t_logout(c, 4);
		return 0;
	case M_ZERO_SEND:
		rt_send(c, iu, 0);
		return 1;
	case M_CRED_FLOOD:
		send_cred_flood(c);
		rt_send(c, iu, len);	/* GOOD's slot may be reused by now */
		return 0;
	case M_CRED_BURST:
		send_cred_burst(c);
		rt_send(c, iu, len);	/* GOOD's slot may be reused by now */
		return 0;
	case M_TAG_XCHAN:
		other = other_conn(c);
		if (!other) {
			say("ERROR conn=%d tag-xchan: no other connection", c->n);
			return 1;
		}
		say("XCHAN_RSP conn=%d via=%d tag=%#llx", c->n, other->n,
		    (unsigned long long)tag);
		rt_send(other, iu, len);
		return 0;
	case M_AER:
	case M_AER_BAD:
		send_aer(c, mode == M_AER_BAD);
		return 1;
	case M_CRED_REQ:
		send_cred_req(c, 1);
		return 1;
	case M_DISCONNECT:
		c->disconnecting = 1;
		rdma_disconnect(c->id);
		return 0;
	case M_STALL:
		stall_conn(c);
		return 0;
	default:
		return 1;
	}
}

/* ---- late answers and stale-rkey probes ---- */

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
	    r->probe.conn, (unsigned long long)r->probe.tag);
}

/*
 * The first data descriptor of an SRP_CMD, the one a probe uses: data-out
 * before data-in; of an indirect descriptor the first entry in the IU, or
 * the table itself when the IU carries none.
 */
static void cmd_first_desc(const uint8_t *iu, uint32_t len,
			   struct rt_probe *r)
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

/*
 * The newest connection after the one numbered N that is up and that the
 * initiator is not logging out.
 */
static struct conn *newer_conn(int n)
{
	struct conn *c = NULL;
	unsigned int i;

	for (i = 0; i < RT_MAX_CONNS; i++)
		if (conn_up(conns[i]) && conns[i]->n > n &&
		    !srp(conns[i])->logging_out && (!c || conns[i]->n > c->n))
			c = conns[i];
	return c;
}

/*
 * The answer to a task management function, late (-t late): over the
 * initiator's newest connection, which by then has replaced the one the
 * function came over. A reconnect may still be under way; the answer waits
 * for a connection that is up and not logging out, LATE_WAIT_MS at most,
 * so that it never goes out over a connection about to go.
 */
#define LATE_WAIT_MS	30000

static void late_tmf_rsp(struct cmd_ref *r)
{
	struct conn *c = newer_conn(r->probe.conn);
	long long now = now_ms();

	if (c) {
		say("LATE_RSP conn=%d via=%d tag=%#llx", r->probe.conn, c->n,
		    (unsigned long long)r->probe.tag);
		rt_send(c, r->rsp, r->rsp_len);
		return;
	}
	if (!r->give_up)
		r->give_up = now + LATE_WAIT_MS;
	if (now < r->give_up) {
		act_add(ACT_LATE_RSP, now + 20, r);
		return;
	}
	say("LATE_RSP conn=%d tag=%#llx not sent: no newer connection up in %d ms",
	    r->probe.conn, (unsigned long long)r->probe.tag, LATE_WAIT_MS);
}

/*
 * The withheld SRP_RSP of a lied-about command, late (-L), over its own
 * connection; or the answer to a task management function (-t late).
 */
static void late_rsp(struct cmd_ref *r)
{
	struct conn *c = rt_conn_by_n(r->probe.conn);

	if (tmf_lie == TMF_LATE && r->probe.tag >> 63) {
		late_tmf_rsp(r);
		return;
	}
	if (!conn_up(c)) {
		say("LATE_RSP conn=%d tag=%#llx not sent: connection gone",
		    r->probe.conn, (unsigned long long)r->probe.tag);
	} else {
		say("LATE_RSP conn=%d tag=%#llx", r->probe.conn,
		    (unsigned long long)r->probe.tag);
		rt_send(c, r->rsp, r->rsp_len);
	}
	if (probe_ms >= 0)
		act_add(ACT_PROBE, now_ms() + probe_ms, r);
}

/* Accept the held logins that are due (silent -L). */
static void run_held(long long now)
{
	struct rdma_cm_id *id;
	unsigned int i;

	for (i = 0; i < RT_MAX_CONNS; i++) {
		if (!held[i].id || held[i].due > now)
			continue;
		id = held[i].id;
		held[i].id = NULL;
		say("LATE_ACCEPT n=%d", held[i].n);
		accept_login(id, held[i].req, held[i].rd_depth);
	}
}

/*
 * dreq-early: disconnect every connection as soon as it is established,
 * while the initiator still waits for our QP (left in INIT) to answer.
 */
static void dreq_early(void)
{
	unsigned int i;

	for (i = 0; i < RT_MAX_CONNS; i++) {
		if (!conn_up(conns[i]))
			continue;
		say("DREQ_EARLY conn=%d", conns[i]->n);
		conns[i]->disconnecting = 1;
		rdma_disconnect(conns[i]->id);
	}
}

/*
 * The probe of a lied-about command; with -R it is repeated every probe_ms
 * for as long as the probes succeed (the command is still outstanding, or
 * its rkey was left valid): the first one that fails, or cannot run, ends
 * the series.
 */
static struct cmd_ref repeat_cmd;
static long long repeat_due = -1;	/* now_ms() of the next probe, or -1 */

static void probe(struct cmd_ref *r)
{
	if (probe_repeat)
		r->probe.seq++;
	if (rt_probe(&r->probe, probe_cross) || !probe_repeat)
		return;
	repeat_cmd = *r;
	repeat_due = 0;		/* once this one has ended */
}

static void probe_again(void)
{
	struct conn *c;

	if (repeat_due < 0)
		return;
	c = rt_conn_by_n(repeat_cmd.probe.conn);
	if (probe_cross || !c) {
		/*
		 * -X, or the connection went: the series ends. Left due, it
		 * would make actions_wait() return 0 for ever, a busy loop.
		 */
		repeat_due = -1;
		return;
	}
	if (c->probe_pending)
		return;
	if (c->probe_status != IBV_WC_SUCCESS) {
		repeat_due = -1;
		return;
	}
	if (repeat_due == 0) {
		repeat_due = now_ms() + probe_ms;
		return;
	}
	if (now_ms() < repeat_due)
		return;
	repeat_due = -1;
	probe(&repeat_cmd);
}

/* Once a loop round: the late answers, probes and accepts that are due. */
static void run_actions(void)
{
	long long now = now_ms();
	struct cmd_ref r;
	unsigned int i;
	int kind;

	if (mode == M_DREQ_EARLY)
		dreq_early();
	run_held(now);
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
	probe_again();
}

/* Milliseconds until the next timed action, at most LIMIT. */
static int actions_wait(int limit)
{
	long long now = now_ms(), d;
	struct conn *c;
	unsigned int i;

	for (i = 0; i < MAX_ACTIONS; i++) {
		if (actions[i].kind == ACT_PROBE ||
		    actions[i].kind == ACT_LATE_RSP) {
			d = actions[i].due - now;
			if (d < limit)
				limit = d < 0 ? 0 : (int)d;
		}
	}
	for (i = 0; i < RT_MAX_CONNS; i++) {
		if (!held[i].id)
			continue;
		d = held[i].due - now;
		if (d < limit)
			limit = d < 0 ? 0 : (int)d;
	}
	if (repeat_due > 0) {
		d = repeat_due - now;
		if (d < limit)
			limit = d < 0 ? 0 : (int)d;
	} else if (repeat_due == 0) {
		/* the probe has ended: schedule the next one now */
		c = rt_conn_by_n(repeat_cmd.probe.conn);
		if (!c || !c->probe_pending)
			limit = 0;
	}
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
		.probe.conn = c->n,
		.probe.tag = get_be64(iu + CMD_TAG),
		.rsp_len = good_len,
	};

	memcpy(r.rsp, good, good_len);
	cmd_first_desc(iu, len, &r.probe);
	if (late_ms >= 0 && mode == M_DROP && tmf_lie != TMF_LATE)
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
		    actions[i].cmd.probe.conn == c->n &&
		    actions[i].cmd.probe.tag == tag) {
			actions[i].kind = ACT_LATE_RSP;
			actions[i].due = now_ms() + late_ms;
		}
	}
}

/* Is descriptor format FMT one the LOGIN_RSP said the target supports? */
static int fmt_allowed(const struct conn *c, uint8_t fmt)
{
	if (fmt == DESC_DIRECT)
		return srp(c)->buf_fmt & 0x0002;
	if (fmt == DESC_INDIRECT)
		return srp(c)->buf_fmt & 0x0004;
	return 1;
}

static void on_cmd(struct conn *c, const uint8_t *iu, uint32_t len)
{
	uint8_t fmt = iu[CMD_BUF_FMT], flags = 0;
	unsigned int slot = rt_next_slot(c);
	uint8_t *out = rt_send_buf(c, slot);
	struct scsi_result r = {};
	uint32_t want = 0, lkey, resid = 0;

	if (len < CMD_LEN) {
		say("ERROR conn=%d SRP_CMD of %u bytes", c->n, len);
		return;
	}
	if (!fmt_allowed(c, fmt >> 4) || !fmt_allowed(c, fmt & 0xf))
		say("UNSUPPORTED_FMT conn=%d buf_fmt=%#x announced=%#x", c->n,
		    fmt, srp(c)->buf_fmt);
	scsi_exec(iu + CMD_LUN, iu + CMD_CDB, (fmt >> 4) != DESC_NONE, &r);
	if (r.data == r.small) {
		memcpy(rt_slot_data(c, slot), r.small, r.data_len);
		r.data = rt_slot_data(c, slot);
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
			rt_post_send(c, slot, rsp_len(out), 0);
		lie_followup(c, iu, len, out, rsp_len(out));
		return;
	}
	rt_post_send(c, slot, rsp_len(out), 0);
}

/*
 * A task management function: answered "complete", or as -T / -t say: not
 * at all, with another tag, without response data, or late_ms late.
 */
static void on_tsk_mgmt(struct conn *c, const uint8_t *iu, uint32_t len)
{
	static const char *const how[] = {
		[TMF_OK]	= "",
		[TMF_SILENT]	= " unanswered",
		[TMF_WRONG_TAG]	= " answered with another tag",
		[TMF_NO_DATA]	= " answered without response data",
		[TMF_LATE]	= " answered late",
	};
	struct cmd_ref r = {
		.probe.conn = c->n,
		.probe.tag = get_be64(iu + TMF_TAG),
		.rsp_len = RSP_LEN + 4,
	};
	uint8_t *out = r.rsp;

	if (len < TMF_LEN)
		return;
	say("TSK_MGMT conn=%d func=%#x task_tag=%#llx%s", c->n, iu[TMF_FUNC],
	    (unsigned long long)get_be64(iu + TMF_TASK_TAG), how[tmf_lie]);
	if (iu[TMF_FUNC] == 0x01)		/* ABORT TASK */
		abort_seen(c, get_be64(iu + TMF_TASK_TAG));
	if (tmf_lie == TMF_SILENT)
		return;
	build_rsp(out, iu + TMF_TAG, 1, NULL, RSP_F_RSPVALID, 0);
	put_be32(out + RSP_RESP_LEN, 4);
	memset(out + RSP_LEN, 0, 4);		/* TMF complete */
	switch (tmf_lie) {
	case TMF_WRONG_TAG:
		put_be64(out + RSP_TAG, r.probe.tag ^ 0x10000);
		break;
	case TMF_NO_DATA:
		out[RSP_FLAGS] = 0;
		put_be32(out + RSP_RESP_LEN, 0);
		r.rsp_len = RSP_LEN;
		break;
	case TMF_LATE:
		act_add(ACT_LATE_RSP, now_ms() + late_ms, &r);
		return;
	default:
		break;
	}
	rt_send(c, out, r.rsp_len);
}

/* An IU in receive buffer IDX; the buffer is reposted at once. */
static int on_recv(struct conn *c, const uint8_t *iu, uint32_t len,
		   unsigned int idx)
{
	if (srp(c)->stalled) {
		stalled_recv(c, iu, len);
		return 0;
	}
	if (!len) {
		say("ERROR conn=%d empty IU", c->n);
		return 1;
	}
	if (len > srp(c)->max_it_iu_len)
		say("OVERLONG_IU conn=%d type=%#x len=%u max_it_iu_len=%u",
		    c->n, iu[0], len, srp(c)->max_it_iu_len);
	switch (iu[0]) {
	case IU_CMD:
		on_cmd(c, iu, len);
		break;
	case IU_TSK_MGMT:
		on_tsk_mgmt(c, iu, len);
		break;
	case IU_I_LOGOUT:
		say("I_LOGOUT conn=%d", c->n);
		srp(c)->logging_out = 1;
		break;
	case IU_CRED_RSP:
		if (flooding)
			flood_answered++;
		/* fall through */
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
	/* stall: not even the buffer of the command that started it */
	return !srp(c)->stalled;
}

static void usage(void)
{
	unsigned int i;

	fprintf(stderr,
		"usage: srp-fake-target [-a ADDR] [-p PORT] [-o OPCODE] [-n COUNT] [-x] [-I LEN] [-J N[,M]]\n"
		"                       [-T | -t HOW] [-L MS] [-P MS [-X] [-R]] MODE\n"
		"  -a ADDR    listen address (default 0.0.0.0)\n"
		"  -p PORT    RDMA/CM port (default 5556)\n"
		"  -o OPCODE  CDB opcode whose answer lies (default 0xc0; any: every one)\n"
		"  -n COUNT   lie to the first COUNT such commands, -1 all (default 1)\n"
		"  -x         serve external descriptor tables (RDMA READ them);\n"
		"             without it they are refused, as ib_srpt does\n"
		"  -I LEN     announce at most LEN as max_it_iu_len (default %u)\n"
		"  -J N[,M]   reject the logins numbered N, M, ... (insufficient\n"
		"             resources), counting every LOGIN_REQ from 1\n"
		"  -T         leave task management functions unanswered (-t silent)\n"
		"  -t HOW     answer task management functions: ok, silent,\n"
		"             wrong-tag (another tag), no-data (no response data),\n"
		"             late (MS ms late, -L, over the newest connection)\n"
		"  -L MS      answer late: send the withheld SRP_RSP of t-logout\n"
		"             MS ms after the lie, of drop MS ms after the ABORT\n"
		"             TASK naming the command (unless -t late); with\n"
		"             silent, accept the login MS ms after its request\n"
		"  -P MS      stale-rkey probe: MS ms after the lied-about command's\n"
		"             response (or the lie, if none), RDMA WRITE (data-in)\n"
		"             or READ (data-out) its first data descriptor\n"
		"  -X         probe over another connection than the command's\n"
		"  -R         probe again every MS ms while the probes succeed\n"
		"             (PROBE_POST when each is posted, seq=N in both lines)\n"
		"modes:\n", RECV_SIZE);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(stderr, "  %-15s %s\n", modes[i].name, modes[i].help);
	exit(2);
}

static const struct rt_target srp_target = {
	.nrecv		 = NRECV,
	.recv_size	 = RECV_SIZE,
	.nsend		 = NSEND,
	.send_size	 = SEND_SIZE,
	.sq_depth	 = SQ_DEPTH,
	.extra		 = TABLE_BYTES,		/* external tables, fetched */
	.priv_size	 = sizeof(struct srp_conn),
	.connect_request = on_connect_request,
	.recv		 = on_recv,
	.wait_ms	 = actions_wait,
	.tick		 = run_actions,
};

int main(int argc, char **argv)
{
	const char *addr = "0.0.0.0", *port = "5556";
	unsigned int i;
	int opt, found = 0;
	char what[128];

	while ((opt = getopt(argc, argv, "a:p:o:n:xI:J:Tt:L:P:XRh")) != -1) {
		switch (opt) {
		case 'x':
			serve_ext = 1;
			break;
		case 'T':
			tmf_lie = TMF_SILENT;
			break;
		case 't':
			for (i = 0; i < sizeof(tmf_lies) / sizeof(tmf_lies[0]); i++)
				if (!strcmp(optarg, tmf_lies[i]))
					break;
			if (i == sizeof(tmf_lies) / sizeof(tmf_lies[0]))
				usage();
			tmf_lie = i;
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
		case 'R':
			probe_repeat = 1;
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
	scsi_fill();
	snprintf(what, sizeof(what), "mode=%s lie_op=%#x count=%d",
		 argv[optind], lie_op, lies_left);
	return rt_serve(&srp_target, addr, port, what);
}
