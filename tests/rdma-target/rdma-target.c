// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The RDMA/CM and verbs plumbing of the lab's lying targets: see
 * rdma-target.h.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdma-target.h"
#include "scsi.h"

struct conn *conns[RT_MAX_CONNS];

static const struct rt_target *rt;
static int conn_seq;
static volatile sig_atomic_t stop;

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* ---- memory of a connection: receive ring, send ring, slot data, ... ---- */

uint8_t *rt_recv_buf(struct conn *c, unsigned int i)
{
	return c->mem + (size_t)i * rt->recv_size;
}

uint8_t *rt_send_buf(struct conn *c, unsigned int i)
{
	return rt_recv_buf(c, rt->nrecv) + (size_t)i * rt->send_size;
}

/* Short data-in (INQUIRY, ...) goes out from the buffer of its send slot. */
uint8_t *rt_slot_data(struct conn *c, unsigned int slot)
{
	return rt_send_buf(c, rt->nsend) + (size_t)slot * RT_SLOT_DATA;
}

/* What a probe writes from or reads into. */
static uint8_t *probe_buf(struct conn *c)
{
	return rt_slot_data(c, rt->nsend);
}

uint8_t *rt_extra(struct conn *c)
{
	return probe_buf(c) + RT_PROBE_BYTES;
}

static size_t mem_size(void)
{
	return (size_t)rt->nrecv * rt->recv_size +
	       (size_t)rt->nsend * (rt->send_size + RT_SLOT_DATA) +
	       RT_PROBE_BYTES + rt->extra;
}

/* ---- the stale-rkey probe ---- */

static const char *const probe_ops[] = { "none", "WRITE", "READ" };

static void probe_say(const struct rt_probe *p, int via, const char *data,
		      const char *status)
{
	char seq[24] = "";

	if (p->seq)
		snprintf(seq, sizeof(seq), " seq=%d", p->seq);
	say("PROBE conn=%d via=%d tag=%#llx op=%s rkey=%#x va=%#llx len=%u%s%s status=%s",
	    p->conn, via, (unsigned long long)p->tag, probe_ops[p->op],
	    p->rkey, (unsigned long long)p->va, p->len, data, seq, status);
}

/* A probe's work request completed with STATUS. */
static void probe_done(struct conn *c, enum ibv_wc_status status)
{
	char data[2 * 16 + 8] = "";
	unsigned int i;

	c->probe_pending = 0;
	c->probe_status = status;
	if (status == IBV_WC_SUCCESS && c->probe.op == PROBE_READ) {
		strcpy(data, " data=");
		for (i = 0; i < 16 && i < c->probe.len; i++)
			sprintf(data + 6 + 2 * i, "%02x", probe_buf(c)[i]);
	}
	probe_say(&c->probe, c->n, data, ibv_wc_status_str(status));
}

/*
 * The connection a probe of a command of connection N goes over: N itself
 * while it is up, or with CROSS the first other connection that is up.
 */
static struct conn *probe_conn(int n, int cross)
{
	unsigned int i;
	struct conn *c;

	for (i = 0; i < RT_MAX_CONNS; i++) {
		c = conns[i];
		if (!c || !c->established || c->disconnecting)
			continue;
		if (cross ? c->n != n : c->n == n)
			return c;
	}
	return NULL;
}

/**
 * rt_probe() - the stale-rkey probe of a command's data buffer
 * @p:     the buffer
 * @cross: over another connection of the initiator than the command's
 *
 * RDMA WRITE a pattern to (data-in) or RDMA READ from (data-out) the first
 * RT_PROBE_BYTES of the buffer. The outcome is logged when the work request
 * completes, or now when it cannot be posted: "PROBE conn=N via=M ...
 * status=...". A repeated probe (@p->seq) says "PROBE_POST conn=N via=M
 * seq=S" when it is posted, so that its start can be ordered against
 * what else the log holds. One that has not completed RT_PROBE_WAIT_MS
 * later ends as "no completion within ... ms" (rt_probe_expire()): a
 * peer QP in the error state answers nothing, and the target's QP may
 * have no transport timeout to end the work request.
 *
 * Return: 0 when the probe was posted, else -1 (its line is logged).
 */
int rt_probe(const struct rt_probe *p, int cross)
{
	static const char pattern[] = "STALE-RKEY-PROBE";
	struct conn *c = probe_conn(p->conn, cross);
	struct ibv_sge sge = {
		.length = p->len < RT_PROBE_BYTES ? p->len : RT_PROBE_BYTES,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id(WR_PROBE, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = p->op == PROBE_READ ? IBV_WR_RDMA_READ :
						IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = p->va, .rkey = p->rkey },
	};
	char status[80];
	unsigned int i;
	int ret;

	if (p->op == PROBE_NONE) {
		probe_say(p, 0, "", "no data descriptor");
		return -1;
	}
	if (!c) {
		probe_say(p, 0, "", cross ? "no other connection" :
					    "connection gone");
		return -1;
	}
	if (c->probe_pending) {
		probe_say(p, c->n, "", "another probe still pending");
		return -1;
	}
	for (i = 0; i < RT_PROBE_BYTES; i++)
		probe_buf(c)[i] = p->op == PROBE_READ ? 0 :
				  pattern[i % (sizeof(pattern) - 1)];
	sge.addr = (uintptr_t)probe_buf(c);
	sge.lkey = c->mr->lkey;
	ret = rt_post_sq(c, &wr);
	if (ret) {
		snprintf(status, sizeof(status), "post failed: %s",
			 strerror(ret));
		probe_say(p, c->n, "", status);
		return -1;
	}
	if (p->seq)
		say("PROBE_POST conn=%d via=%d seq=%d", p->conn, c->n, p->seq);
	c->probe = *p;
	c->probe_pending = 1;
	c->probe_since = now_ms();
	c->probe_status = -1;
	return 0;
}

/* Probes pending for RT_PROBE_WAIT_MS end; a late completion is logged. */
static void rt_probe_expire(void)
{
	char status[48];
	unsigned int i;
	struct conn *c;

	for (i = 0; i < RT_MAX_CONNS; i++) {
		c = conns[i];
		if (!c || !c->probe_pending ||
		    now_ms() - c->probe_since < RT_PROBE_WAIT_MS)
			continue;
		snprintf(status, sizeof(status), "no completion within %d ms",
			 RT_PROBE_WAIT_MS);
		probe_say(&c->probe, c->n, "", status);
		c->probe_pending = 0;
		c->probe_status = -1;
	}
}

/* ---- work requests ---- */

/**
 * rt_poll_sends() - reap send-queue completions
 * @c:       the connection
 * @wait_id: the wr_id of a completion the caller waits for
 *
 * Every send-queue work request is signaled and completes on @c->scq, which
 * is polled here: before posting (so the queue never overflows), after each
 * batch of receives and once a loop round. Failures other than flushes are
 * logged.
 *
 * Return: the status of the completion with @wait_id if one was seen, else -1.
 */
int rt_poll_sends(struct conn *c, uint64_t wait_id)
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

/* Post WR on the send queue once there is room (waits up to 10 s). */
int rt_post_sq(struct conn *c, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	time_t end = time(NULL) + 10;
	int ret;

	while (c->sq_inflight >= rt->sq_depth - 1) {
		rt_poll_sends(c, 0);
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

int rt_post_recv(struct conn *c, unsigned int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)rt_recv_buf(c, i),
		.length = rt->recv_size,
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

/* Take the next send slot; its slot data buffer goes with it. */
unsigned int rt_next_slot(struct conn *c)
{
	unsigned int i = c->send_next;

	c->send_next = (c->send_next + 1) % rt->nsend;
	return i;
}

static int slot_fits(struct conn *c, uint32_t len)
{
	if (len <= rt->send_size)
		return 1;
	say("ERROR conn=%d a %u-byte SEND does not fit a send slot", c->n, len);
	return 0;
}

/* SEND LEN bytes of send slot SLOT; with Invalidate of INV_RKEY if not 0. */
int rt_post_send(struct conn *c, unsigned int slot, uint32_t len,
		 uint32_t inv_rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)rt_send_buf(c, slot),
		.length = len,
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

	if (!slot_fits(c, len))
		return EINVAL;
	return rt_post_sq(c, &wr);
}

/* SEND LEN bytes from SRC. */
int rt_send(struct conn *c, const uint8_t *src, uint32_t len)
{
	unsigned int slot;

	if (!slot_fits(c, len))
		return EINVAL;
	slot = rt_next_slot(c);
	memcpy(rt_send_buf(c, slot), src, len);
	return rt_post_send(c, slot, len, 0);
}

/* RDMA WRITE (from) or READ (into) LOCAL/LKEY, at VA/RKEY, LEN bytes. */
int rt_rdma(struct conn *c, enum ibv_wr_opcode op, const void *local,
	    uint32_t lkey, uint64_t va, uint32_t rkey, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)local,
		.length = len,
		.lkey = lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id(op == IBV_WR_RDMA_READ ? WR_READ : WR_WRITE, 0),
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = va, .rkey = rkey },
	};

	return rt_post_sq(c, &wr);
}

/*
 * RDMA READ LEN bytes at VA/RKEY into DST (in the connection's memory) and
 * wait up to 10 s for it. Returns 0 on success.
 */
int rt_rdma_read_wait(struct conn *c, void *dst, uint64_t va, uint32_t rkey,
		      uint32_t len)
{
	time_t end = time(NULL) + 10;
	int ret;

	if (rt_rdma(c, IBV_WR_RDMA_READ, dst, c->mr->lkey, va, rkey, len))
		return -1;
	while (time(NULL) < end) {
		ret = rt_poll_sends(c, wr_id(WR_READ, 0));
		if (ret >= 0)
			return ret == IBV_WC_SUCCESS ? 0 : -1;
	}
	say("ERROR conn=%d RDMA READ of %u bytes did not complete within 10 s",
	    c->n, len);
	return -1;
}

/* ---- connections ---- */

void rt_conn_free(struct conn *c)
{
	int i;

	if (rt->conn_free && c->priv)
		rt->conn_free(c);
	for (i = 0; i < RT_MAX_CONNS; i++)
		if (conns[i] == c)
			conns[i] = NULL;
	if (c->probe_pending)
		rt_poll_sends(c, 0);
	if (c->probe_pending)
		probe_say(&c->probe, c->n, "",
			  "no completion before the connection closed");
	if (c->own_qp_access >= 0 && c->qp)
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
	free(c->priv);
	rdma_destroy_id(c->id);
	free(c);
}

struct conn *rt_conn_find(struct rdma_cm_id *id)
{
	int i;

	for (i = 0; i < RT_MAX_CONNS; i++)
		if (conns[i] && conns[i]->id == id)
			return conns[i];
	return NULL;
}

struct conn *rt_conn_by_n(int n)
{
	int i;

	for (i = 0; i < RT_MAX_CONNS; i++)
		if (conns[i] && conns[i]->n == n)
			return conns[i];
	return NULL;
}

/*
 * Move our own QP to STATE with the attributes rdma_cm computes for the
 * connection, except its access flags (@c->own_qp_access) and, as
 * rdma_accept() does, the RDMA READ depths we announce: none as responder,
 * RD_DEPTH as requester. rdma_accept() does not touch a QP it did not
 * create, and rdma_cm would grant remote write whenever it moves one
 * (ib_cm_init_qp_attr()).
 */
static int own_qp_move(struct conn *c, enum ibv_qp_state state,
		       uint8_t rd_depth)
{
	struct ibv_qp_attr attr = { .qp_state = state };
	int mask, ret;

	if (rdma_init_qp_attr(c->id, &attr, &mask))
		return -1;
	if (state == IBV_QPS_INIT) {
		attr.qp_access_flags = c->own_qp_access;
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

/**
 * rt_conn_new() - the verbs resources of a connection request
 * @id:            the request's rdma_cm id
 * @own_qp_access: -1: rdma_cm's QP; else a QP of our own granting these
 *                 access flags
 *
 * A PD, a receive CQ with a completion channel, a polled send CQ, the
 * connection's memory and the LUN registered, the QP, every receive buffer
 * posted.
 *
 * Return: the connection, or NULL after rejecting the request.
 */
struct conn *rt_conn_new(struct rdma_cm_id *id, int own_qp_access)
{
	struct ibv_qp_init_attr qa = {};
	struct conn *c;
	unsigned int i;
	int slot;

	for (slot = 0; slot < RT_MAX_CONNS && conns[slot]; slot++)
		;
	c = slot < RT_MAX_CONNS ? calloc(1, sizeof(*c)) : NULL;
	if (!c) {
		say("ERROR too many connections");
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		return NULL;
	}
	c->n = ++conn_seq;
	c->id = id;
	c->own_qp_access = own_qp_access;
	conns[slot] = c;
	c->priv = calloc(1, rt->priv_size ? rt->priv_size : 1);
	c->pd = ibv_alloc_pd(id->verbs);
	c->cc = c->pd ? ibv_create_comp_channel(id->verbs) : NULL;
	c->cq = c->cc ? ibv_create_cq(id->verbs, rt->nrecv, c, c->cc, 0) : NULL;
	c->scq = c->cq ? ibv_create_cq(id->verbs, rt->sq_depth, c, NULL, 0) :
			 NULL;
	c->mem = calloc(1, mem_size());
	if (!c->scq || !c->mem || !c->priv)
		goto err;
	c->mr = ibv_reg_mr(c->pd, c->mem, mem_size(), IBV_ACCESS_LOCAL_WRITE);
	c->lun_mr = ibv_reg_mr(c->pd, lun_data, LUN_BYTES, 0);
	if (!c->mr || !c->lun_mr)
		goto err;
	fcntl(c->cc->fd, F_SETFL, fcntl(c->cc->fd, F_GETFL) | O_NONBLOCK);
	qa.send_cq = c->scq;
	qa.recv_cq = c->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = rt->sq_depth;
	qa.cap.max_recv_wr = rt->nrecv;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	if (own_qp_access >= 0) {
		c->qp = ibv_create_qp(c->pd, &qa);
		if (!c->qp || own_qp_move(c, IBV_QPS_INIT, 0))
			goto err;
	} else {
		if (rdma_create_qp(id, c->pd, &qa))
			goto err;
		c->qp = id->qp;
	}
	for (i = 0; i < rt->nrecv; i++)
		if (rt_post_recv(c, i))
			goto err;
	if (ibv_req_notify_cq(c->cq, 0))
		goto err;
	return c;
err:
	say("ERROR conn=%d cannot set up verbs resources: %s", c->n,
	    strerror(errno));
	rdma_reject(id, NULL, 0);
	rt_conn_free(c);
	return NULL;
}

/*
 * Accept with CP (private data, depths); our own QP is moved to RTS first.
 * Returns 0, or -1 after rejecting the request and freeing C.
 */
int rt_accept(struct conn *c, struct rdma_conn_param *cp, uint8_t rd_depth)
{
	if (c->own_qp_access >= 0) {
		if (own_qp_move(c, IBV_QPS_RTR, rd_depth) ||
		    own_qp_move(c, IBV_QPS_RTS, rd_depth)) {
			say("ERROR conn=%d cannot move our QP to RTS: %s", c->n,
			    strerror(errno));
			rdma_reject(c->id, NULL, 0);
			rt_conn_free(c);
			return -1;
		}
		cp->qp_num = c->qp->qp_num;
	}
	if (rdma_accept(c->id, cp)) {
		say("ERROR conn=%d rdma_accept: %s", c->n, strerror(errno));
		rt_conn_free(c);
		return -1;
	}
	return 0;
}

/* ---- the event loop ---- */

/**
 * rt_drain() - handle the receives that completed on C (rt_target.recv)
 * @c: the connection
 *
 * The event loop calls it on a completion event; a target may call it
 * too, to take in what the initiator sends while it sends a long burst
 * itself. Does not poll the send queue.
 */
void rt_drain(struct conn *c)
{
	struct ibv_wc wc[16];
	int n, i;

	while ((n = ibv_poll_cq(c->cq, 16, wc)) > 0) {
		for (i = 0; i < n; i++) {
			unsigned int idx = (uint32_t)wc[i].wr_id;

			c->rx_posted--;
			if (wc[i].status != IBV_WC_SUCCESS) {
				if (wc[i].status != IBV_WC_WR_FLUSH_ERR)
					say("WC_ERROR conn=%d kind=%u %s", c->n,
					    WR_RECV,
					    ibv_wc_status_str(wc[i].status));
				continue;
			}
			if (rt->recv(c, rt_recv_buf(c, idx), wc[i].byte_len,
				     idx))
				rt_post_recv(c, idx);
		}
	}
}

static void poll_cq(struct conn *c)
{
	struct ibv_cq *cq;
	void *ctx;

	if (ibv_get_cq_event(c->cc, &cq, &ctx))
		return;
	ibv_ack_cq_events(cq, 1);
	ibv_req_notify_cq(cq, 0);
	rt_drain(c);
	rt_poll_sends(c, 0);
}

static void on_cm_event(struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev, copy;
	uint8_t priv[256];
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
		/* already from our side: the initiator's responder resources */
		rt->connect_request(copy.id, priv, priv_len,
				    copy.param.conn.initiator_depth);
		return;
	}
	c = rt_conn_find(copy.id);
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
		rt_conn_free(c);
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		rt_conn_free(c);
		break;
	default:
		break;
	}
}

static void on_signal(int sig)
{
	stop = 1;
}

/*
 * How long the loop may sleep: a pending probe is polled every ms, so
 * that its line follows its completion closely and a repeated one
 * follows at once (repeated probes are ordered against the scenario's
 * own lines in the log).
 */
static int loop_wait(void)
{
	int limit = 500;
	unsigned int i;

	if (rt->wait_ms)
		limit = rt->wait_ms(limit);
	for (i = 0; i < RT_MAX_CONNS; i++)
		if (conns[i] && conns[i]->probe_pending && limit > 1)
			limit = 1;
	return limit;
}

/**
 * rt_serve() - listen and serve until SIGTERM or SIGINT
 * @t:    the target
 * @addr: address to listen on, @port its RDMA/CM port
 * @what: the rest of the LISTEN line (mode, options)
 *
 * Logs "LISTEN ADDR:PORT WHAT" once listening and "EXIT" at the end.
 *
 * Return: the process's exit status.
 */
int rt_serve(const struct rt_target *t, const char *addr, const char *port,
	     const char *what)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct rdma_addrinfo hints = {}, *ai;
	struct pollfd pfd[1 + RT_MAX_CONNS];
	struct conn *polled[1 + RT_MAX_CONNS];
	struct rdma_event_channel *ech;
	struct rdma_cm_id *listen_id;
	unsigned int i;
	int n;

	rt = t;
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
	say("LISTEN %s:%s %s", addr, port, what);

	while (!stop) {
		n = 0;
		pfd[n].fd = ech->fd;
		pfd[n].events = POLLIN;
		polled[n++] = NULL;
		for (i = 0; i < RT_MAX_CONNS; i++) {
			if (!conns[i])
				continue;
			pfd[n].fd = conns[i]->cc->fd;
			pfd[n].events = POLLIN;
			polled[n++] = conns[i];
		}
		if (poll(pfd, n, loop_wait()) > 0) {
			for (i = 1; i < (unsigned int)n; i++)
				if (pfd[i].revents & POLLIN)
					poll_cq(polled[i]);
			if (pfd[0].revents & POLLIN)
				on_cm_event(ech);
		}
		rt_probe_expire();
		if (rt->tick)
			rt->tick();
		for (i = 0; i < RT_MAX_CONNS; i++)
			if (conns[i])
				rt_poll_sends(conns[i], 0);
	}
	say("EXIT");
	for (i = 0; i < RT_MAX_CONNS; i++) {
		if (conns[i]) {
			rdma_disconnect(conns[i]->id);
			rt_conn_free(conns[i]);
		}
	}
	rdma_destroy_id(listen_id);
	rdma_destroy_event_channel(ech);
	return 0;
}
