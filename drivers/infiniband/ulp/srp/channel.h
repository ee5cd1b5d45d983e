/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: a channel's resources, credits and sends (channel.c), the
 * connection manager behind it and what it reports to the layers above.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_CHANNEL_H
#define IB_SRP_CHANNEL_H

#include "srp.h"

/**
 * struct srp_cm_ops - connection manager of a target (RDMA/CM or IB CM)
 * @init:       create the CM id, resolve the route and create the QP
 *              through srp_ch_create_ib()
 * @create_qp:  create @ch->queue (rdi_queue_create()) the way this CM
 *              needs it
 * @destroy_qp: destroy @ch->queue (rdi_queue_destroy()); idempotent:
 *              after @destroy (srp_ch_release()), or, when
 *              srp_ch_create_ib() fails, while the CM id is still there
 *              but no login request has gone out
 * @connect:    send the login request as CM private data
 * @disconnect: start a disconnect (DREQ); may be called from any context
 *              except hard IRQ and more than once
 *
 * Each login has a CM id of its own (struct srp_cm_id), which @init
 * creates and srp_ch_release() lets go of; its destroy work function is
 * the connection manager's. Everything after the CM exchange (QP use, IUs,
 * credits) is common.
 */
struct srp_cm_ops {
	int (*init)(struct srp_channel *ch);
	int (*create_qp)(struct srp_channel *ch,
			 const struct rdi_queue_attr *attr);
	void (*destroy_qp)(struct srp_channel *ch);
	int (*connect)(struct srp_channel *ch,
		       const struct srp_login_params *p);
	void (*disconnect)(struct srp_channel *ch);
};

/**
 * struct srp_ch_ops - how a channel reaches the layers above it
 * @recv:   a receive completed: handle the IU (the command layer,
 *          srp_cmd_recv()); the channel reposts the receive afterwards
 *          unless it returns true: the IU is held for an answer
 *          (srp_answer_target())
 * @failed: @ch went down on its own (QP error, failed completion, credit
 *          error, disconnect, target logout): recover it, alone while
 *          other channels carry I/O (srp_ch_failed())
 * @lost:   @ch went down and the target is unreachable with it (transport
 *          retries exhausted, keep-alive or task management function
 *          unanswered): recover the whole rport (srp_ch_lost())
 *
 * The target layer sets &srp_target.ch_ops when it creates a target; it is
 * constant for the target's life. The channel and command layers call
 * upwards only through it. @failed and @lost are called once per failure,
 * by whoever made srp_ch_mark_down() return true, in any context
 * (completion and CM handlers, QP events, process context).
 */
struct srp_ch_ops {
	bool (*recv)(struct srp_channel *ch, struct srp_iu *iu, u32 len);
	void (*failed)(struct srp_channel *ch);
	void (*lost)(struct srp_channel *ch);
};

int srp_ch_create_ib(struct srp_channel *ch);
void srp_ch_destroy_ib(struct srp_channel *ch);
int srp_ch_poll(struct srp_channel *ch);
bool srp_ch_wait(struct srp_channel *ch, struct completion *done,
		 unsigned long timeout);
int srp_ch_start_recv(struct srp_channel *ch);
void srp_add_credits(struct srp_channel *ch, s32 delta, const char *iu);
struct srp_iu *srp_get_tx_iu(struct srp_channel *ch, enum srp_tx_use use);
void srp_put_tx_iu(struct srp_channel *ch, struct srp_iu *iu);
void srp_tx_iu_sent(struct srp_channel *ch, struct srp_iu *iu, bool ok);
bool srp_answer_target(struct srp_channel *ch, struct srp_iu *rx, u8 op,
		       u64 tag);
int srp_post_send_regs(struct srp_channel *ch, struct srp_iu *iu, u32 len,
		       struct ib_send_wr *prefix, bool *regs_posted);
int srp_post_send(struct srp_channel *ch, struct srp_iu *iu, u32 len,
		  struct ib_send_wr *prefix);
bool srp_ch_mark_down(struct srp_channel *ch);
void srp_ch_login_start(struct srp_channel *ch);
bool srp_ch_login_broken(struct srp_channel *ch);
void srp_ch_login_abandon(struct srp_channel *ch, const char *why);
int srp_ch_live_irq(struct srp_target *target);
bool srp_ch_mark_up(struct srp_channel *ch);
void srp_ch_login_end(struct srp_channel *ch);
void srp_ch_error(struct srp_channel *ch, struct ib_wc *wc, const char *what);

/**
 * srp_ka_seen() - note a successful completion on a channel
 * @ch: the channel
 *
 * Context: completion handlers; lock-free, one store.
 */
static inline void srp_ka_seen(struct srp_channel *ch)
{
	WRITE_ONCE(ch->ka.last_seen, jiffies);
}

/**
 * srp_ch_login_left() - time left before the login under way times out
 * @ch: channel; &srp_channel.login_deadline is set for its login
 *
 * Return: jiffies, 0 once the deadline has passed.
 */
static inline unsigned long srp_ch_login_left(const struct srp_channel *ch)
{
	s64 ms = ktime_ms_delta(ch->login_deadline, ktime_get());

	return ms > 0 ? msecs_to_jiffies(ms) : 0;
}

#endif /* IB_SRP_CHANNEL_H */
