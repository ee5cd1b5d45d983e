/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The RDMA/CM and verbs plumbing the lab's lying targets share
 * (tests/fake-target for SRP, tests/rogue-iser for iSER): the event loop,
 * a connection's PD, CQs, QP and buffers, its receive and send rings,
 * RDMA READ/WRITE, the stale-rkey probe and the one-line log.
 *
 * A target describes itself in a struct rt_target (ring sizes, callbacks)
 * and calls rt_serve(). Its own per-connection state hangs off
 * conn->priv. Everything runs in one thread: no locking.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef RT_RDMA_TARGET_H
#define RT_RDMA_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/rdma_cma.h>

#include "bytes.h"

#define RT_MAX_CONNS	8	/* connections served at once */
#define RT_SLOT_DATA	512	/* short data-in bytes that go with a send slot */
#define RT_PROBE_BYTES	64	/* at most this much per probe */
#define RT_PROBE_WAIT_MS 5000	/* a probe with no completion by then ends */

/* wr_id: kind in the high half, buffer index in the low half. */
enum { WR_RECV = 1, WR_SEND, WR_WRITE, WR_READ, WR_PROBE };

static inline uint64_t wr_id(unsigned int kind, unsigned int i)
{
	return (uint64_t)kind << 32 | i;
}

/* What a stale-rkey probe does to a command's data buffer. */
enum { PROBE_NONE, PROBE_WRITE, PROBE_READ };

/**
 * struct rt_probe - a command's data buffer, for the stale-rkey probe
 * @conn: the command's connection (conn->n)
 * @tag:  its tag (SRP) or initiator task tag (iSCSI), for the log
 * @op:   PROBE_WRITE (data-in buffer), PROBE_READ (data-out), PROBE_NONE
 * @va:   its address, @rkey its key, @len its length
 * @seq:  0, or the number of a repeated probe (PROBE_POST and PROBE lines)
 */
struct rt_probe {
	int		conn;
	uint64_t	tag;
	int		op;
	uint64_t	va;
	uint32_t	rkey;
	uint32_t	len;
	int		seq;
};

/**
 * struct conn - one RC connection of a target
 * @n:             its number for the log, from 1 in order of requests
 * @id:            its rdma_cm id
 * @qp:            @id's QP, or our own one (@own_qp_access >= 0)
 * @own_qp_access: the access flags of a QP made and moved here rather than
 *                 by rdma_cm (which would grant remote write), else -1
 * @cq:            receive completions, with the channel @cc
 * @scq:           send-queue completions (every WR signaled), polled
 * @sq_inflight:   send-queue WRs not polled yet
 * @rx_posted:     receive WRs posted and not completed
 * @mem:           receive ring, send ring, slot data, probe buffer and
 *                 the target's own buffers (rt_extra()), under @mr
 * @lun_mr:        the LUN (lun_data), the source of RDMA WRITEs
 * @send_next:     the send slot rt_next_slot() hands out next
 * @established:   the ESTABLISHED event came
 * @disconnecting: we disconnected it
 * @probe_pending: a probe WR has not completed yet; @probe: of what;
 *                 @probe_since: when it was posted (now_ms())
 * @probe_status:  how the last probe on this connection ended: an
 *                 ibv_wc_status, or -1 (none, or no completion)
 * @priv:          the target's state (rt_target.priv_size bytes, zeroed)
 */
struct conn {
	int			n;
	struct rdma_cm_id	*id;
	struct ibv_qp		*qp;
	int			own_qp_access;
	struct ibv_pd		*pd;
	struct ibv_comp_channel	*cc;
	struct ibv_cq		*cq;
	struct ibv_cq		*scq;
	unsigned int		sq_inflight;
	unsigned int		rx_posted;
	uint8_t			*mem;
	struct ibv_mr		*mr;
	struct ibv_mr		*lun_mr;
	unsigned int		send_next;
	int			established;
	int			disconnecting;
	int			probe_pending;
	struct rt_probe		probe;
	long long		probe_since;
	int			probe_status;
	void			*priv;
};

/**
 * struct rt_target - what a target is made of
 * @nrecv, @recv_size: receive buffers posted, and their size
 * @nsend, @send_size: send slots, and their size
 * @sq_depth:          send queue depth
 * @extra:             bytes of the target's own buffers (rt_extra())
 * @priv_size:         bytes of its per-connection state (conn->priv)
 * @connect_request:   a connect request; its event is acknowledged already,
 *                     so PRIV (LEN bytes) is a copy; RD_DEPTH: the
 *                     initiator's responder resources. Must accept (after
 *                     rt_conn_new()) or reject and destroy @id.
 * @recv:              a message of LEN bytes in receive buffer IDX; returns
 *                     1 to repost the buffer now, 0 to keep it (the target
 *                     reposts it later with rt_post_recv())
 * @conn_free:         optional: C is about to be freed
 * @wait_ms:           optional: how long the loop may sleep, at most LIMIT
 * @tick:              optional: once a loop round, after the events
 */
struct rt_target {
	unsigned int	nrecv, recv_size;
	unsigned int	nsend, send_size;
	unsigned int	sq_depth;
	size_t		extra;
	size_t		priv_size;
	void		(*connect_request)(struct rdma_cm_id *id,
					   const uint8_t *priv,
					   unsigned int len, uint8_t rd_depth);
	int		(*recv)(struct conn *c, const uint8_t *buf,
				uint32_t len, unsigned int idx);
	void		(*conn_free)(struct conn *c);
	int		(*wait_ms)(int limit);
	void		(*tick)(void);
};

extern struct conn *conns[RT_MAX_CONNS];

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
long long now_ms(void);

uint8_t *rt_recv_buf(struct conn *c, unsigned int i);
uint8_t *rt_send_buf(struct conn *c, unsigned int i);
uint8_t *rt_slot_data(struct conn *c, unsigned int slot);
uint8_t *rt_extra(struct conn *c);

struct conn *rt_conn_new(struct rdma_cm_id *id, int own_qp_access);
int rt_accept(struct conn *c, struct rdma_conn_param *cp, uint8_t rd_depth);
void rt_conn_free(struct conn *c);
struct conn *rt_conn_find(struct rdma_cm_id *id);
struct conn *rt_conn_by_n(int n);

int rt_poll_sends(struct conn *c, uint64_t wait_id);
void rt_drain(struct conn *c);
int rt_post_sq(struct conn *c, struct ibv_send_wr *wr);
int rt_post_recv(struct conn *c, unsigned int i);
unsigned int rt_next_slot(struct conn *c);
int rt_post_send(struct conn *c, unsigned int slot, uint32_t len,
		 uint32_t inv_rkey);
int rt_send(struct conn *c, const uint8_t *src, uint32_t len);
int rt_rdma(struct conn *c, enum ibv_wr_opcode op, const void *local,
	    uint32_t lkey, uint64_t va, uint32_t rkey, uint32_t len);
int rt_rdma_read_wait(struct conn *c, void *dst, uint64_t va, uint32_t rkey,
		      uint32_t len);

int rt_probe(const struct rt_probe *p, int cross);

int rt_serve(const struct rt_target *t, const char *addr, const char *port,
	     const char *what);

#endif /* RT_RDMA_TARGET_H */
