/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: the objects of a login, which every layer reads: the target,
 * its channels, their information units and the per-command state. Only
 * types: each file's functions are declared in the header named after it,
 * the RDMA device and its ports in device.h.
 *
 *  srp_target   one per successful add_target: a SCSI host, an rport and
 *               ch_count channels.
 *  srp_channel  one RC connection: QP, CQ, IU rings, credits; serves one
 *               blk-mq hardware queue, interrupt-driven or polled.
 *  srp_request  per-command private data (scsi_cmd_priv()).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_SRP_H
#define IB_SRP_SRP_H

#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_transport_srp.h>
#include <rdi/core.h>

#include "proto.h"
#include "state.h"
#include "target_opts.h"

/* shost_printk(), rate limited per call site: for the I/O path. */
#define srp_printk_rl(level, shost, fmt, ...)				\
do {									\
	static DEFINE_RATELIMIT_STATE(_rs, DEFAULT_RATELIMIT_INTERVAL,	\
				      DEFAULT_RATELIMIT_BURST);		\
	if (__ratelimit(&_rs))						\
		shost_printk(level, shost, fmt, ##__VA_ARGS__);		\
} while (0)

enum {
	SRP_RSP_SQ_SIZE		= 1,	/* IU for CRED/AER responses (channel.c) */
	SRP_MAX_IMM_SGE		= 2,
	SRP_LOGIN_TIMEOUT_MS	= 20000,
	SRP_TMF_TIMEOUT_MS	= 5000,
};

/* SRP tags with this bit set belong to task management or logout IUs. */
#define SRP_TAG_TSK_MGMT	BIT_ULL(63)

/**
 * struct srp_iu - one information unit buffer
 * @list:   link in the channel's free send list
 * @buf:    the IU's buffer, mapped for sends or receives
 * @cqe:    completion entry of the work request using the IU
 * @sge:    SGEs of a send: the IU itself, then immediate data
 * @num_sge: SGEs in use in @sge
 * @use:    what the IU was taken for (credit accounting)
 * @answer_op:  receive IU held for an answer (&srp_channel.held_rx): the
 *          opcode of that answer, SRP_IU_CRED_RSP or SRP_IU_AER_RSP
 * @answer_tag: receive IU held for an answer: the tag of the request
 *
 * A receive IU is on a list (@list) only while it is held for an answer.
 */
struct srp_iu {
	struct list_head	list;
	struct rdi_buf		buf;
	struct ib_cqe		cqe;
	struct ib_sge		sge[SRP_MAX_IMM_SGE + 1];
	int			num_sge;
	enum srp_tx_use		use;
	u8			answer_op;
	u64			answer_tag;
};

struct srp_host;
struct srp_cm_ops;
struct srp_ch_ops;
struct srp_channel;

/**
 * struct srp_cm_id - the connection manager id of one channel login
 * @lock:    held by the id's CM handler while it acts on @ch, and by
 *           srp_cm_id_detach() while it clears @ch
 * @ch:      the channel the id's events are for; NULL once the channel
 *           has let go of the id: its events are then dropped
 * @rdma:    the RDMA/CM id, or
 * @ib:      the IB CM id
 * @flags:   SRP_CM_ID_* bits (enum srp_cm_id_flags)
 * @entry:   in the list of ids let go of, until destroyed (login.c,
 *           srp_cm_ids_lock)
 * @destroy: destroys the id and frees this (the connection manager's
 *           work function, on srp_cm_wq)
 *
 * Destroying a CM id waits for the connection manager's MADs still in
 * flight - a DREQ, a REQ - and a fabric that holds them holds the destroy
 * (rdma_destroy_id() waits as long as the device keeps them). So the
 * channel lets go of its id, which takes no longer than a running
 * handler, and the id is destroyed in the background: nothing the SCSI
 * transport's timers wait for waits for that, and a new login gets a new
 * id at once. An id whose DREQ is still unanswered is kept until the CM
 * has finished the disconnect, at most SRP_CM_LINGER_SECS (login.c):
 * destroying it would cancel the DREQ's resends, and a target whose first
 * DREQ was lost would keep the channel. The struct is the id's context
 * and lives until the id is destroyed; the channel may be gone by then.
 */
struct srp_cm_id {
	struct mutex		lock;	/* @ch */
	struct srp_channel	*ch;
	union {
		struct rdma_cm_id	*rdma;
		struct ib_cm_id		*ib;
	};
	unsigned long		flags;
	struct list_head	entry;
	struct delayed_work	destroy;
};

/**
 * enum srp_cm_id_flags - what a CM id has been through (&srp_cm_id.flags)
 * @SRP_CM_ID_ESTABLISHED:   the connection was established
 * @SRP_CM_ID_DISCONNECTING: our DREQ went out on the established connection
 * @SRP_CM_ID_CLOSED:        the CM has finished the disconnect (DREP, DREQ
 *                           timeout, the target's DREQ, time wait over) or
 *                           the device is going away
 * @SRP_CM_ID_PUT_AWAY:      the channel let go of the id; its destruction
 *                           is queued
 */
enum srp_cm_id_flags {
	SRP_CM_ID_ESTABLISHED,
	SRP_CM_ID_DISCONNECTING,
	SRP_CM_ID_CLOSED,
	SRP_CM_ID_PUT_AWAY,
};

/**
 * struct srp_keepalive - liveness watch of one channel (keepalive.c)
 * @work:      runs at the channel's next deadline while it is connected
 * @cqe:       completion entry of the probe
 * @last_seen: jiffies of the channel's last successful completion
 *             (receives and probes); written without a lock
 * @sent:      jiffies when the probe in flight was posted
 * @probing:   a probe is in flight
 * @status:    completion status of the last probe
 *
 * Locks: @sent, @probing and @status under &srp_channel.lock.
 */
struct srp_keepalive {
	struct delayed_work	work;
	struct ib_cqe		cqe;
	unsigned long		last_seen;
	unsigned long		sent;
	bool			probing;
	enum ib_wc_status	status;
};

/**
 * struct srp_channel - one RC connection to the target
 * @target:      owning target
 * @idx:         index in @target->ch, equal to the blk-mq hw queue index
 * @comp_vector: completion vector of the channel's CQs
 * @cm_id:       the CM id of the login under way or done; NULL between
 *               a release and the next login
 * @path:        path record (IB CM logins)
 * @pd:          PD of the QP and of its MRs: the channel's own, so that the
 *               rkeys it hands out reach memory through this QP alone and
 *               a QP in the error state ends them all; the device's
 *               global-rkey PD (&srp_device.pd) when there is one
 * @queue:       the RC queue pair and its CQs (rdi_queue_create()):
 *               receives on a CQ from the pool and sends on one of the
 *               channel's own, both softirq; of a polled channel one CQ of
 *               its own for both, IB_POLL_DIRECT
 * @polled:      the channel serves a polled hardware queue (poll_queues):
 *               its one CQ, @poll_cq, is reaped by srp_ch_poll() only;
 *               constant from srp_ch_init()
 * @poll_lock:   protects @poll_cq against the channel's release while
 *               srp_ch_poll() reaps it
 * @poll_cq:     the CQ of @queue on a polled channel while it may be
 *               reaped; NULL otherwise
 * @lock:        protects @free_tx, @held_rx, @req_lim, @connected and
 *               @login
 * @free_tx:     send IUs not in use
 * @held_rx:     receive IUs holding a target request (SRP_CRED_REQ,
 *               SRP_AER_REQ) that found no send IU free for its answer,
 *               oldest first. Such a buffer is reposted only once its
 *               request is answered, so the list never holds more than
 *               @rx_count entries and a target that keeps sending meets a
 *               receive queue without buffers (receiver not ready): it
 *               is held back by the transport, not queued by the host.
 *               A send IU that frees answers the oldest entry before
 *               anything else may take it, so @held_rx is empty whenever
 *               @free_tx is not (srp_answer_target())
 * @req_lim:     credits granted by the target and not yet used
 * @connected:   the channel may carry new commands
 * @login:       where a login of the channel stands (enum srp_ch_login)
 * @tx_ring:     all send IUs (@target->queue_size of them)
 * @rx_ring:     all receive IUs
 * @rx_count:    number of entries in @rx_ring
 * @max_ti_iu_len: largest IU the target sends (receive buffer size)
 * @max_it_iu_len: largest IU we send; the send IUs are this large
 * @use_imm_data: use_imm_data was set at this login and the target
 *               accepted immediate data
 * @max_imm_data: max_imm_data at this login: largest immediate write
 * @buf_fmt:     SRP_BUF_FMT_DIRECT and/or _INDIRECT: the data descriptor
 *               formats the target accepts on this channel
 * @login_done:  completed by the CM handler when the CM exchange ends
 * @path_done:   completed by the callback of an IB CM login's path query,
 *               which points at the channel: waited for whatever else
 *               ends the login (srp_ch_login_abandon())
 * @login_deadline: when the login in progress times out; a login response
 *               the CM handler sees later is refused (srp_cm_login_reply())
 * @status:      result of the CM exchange (0, -errno or SRP_CM_RETRY_*)
 * @login_rsp:   the decoded SRP_LOGIN_RSP
 * @logout_done: completed when the SRP_I_LOGOUT send completes
 * @tmf_done:    completed when a TMF response arrives
 * @tmf_mutex:   one TMF or logout in flight per channel
 * @tmf_tag:     tag of the TMF in flight
 * @tmf_status:  response code of the last TMF (or -errno)
 * @zero_req_lim: times a command found no credit
 * @ka:          keep-alive watch (keepalive.c)
 * @stats:       per-CPU counters
 * @unfenced:    commands whose LOCAL_INV could not be posted
 *               (&srp_request.fence_entry), under @lock: they complete once
 *               @fence_work has moved the QP to the error state
 * @fence_work:  srp_ch_fence_work(); ib_modify_qp() may sleep, and a
 *               command completes from the CQ's softirq
 */
struct srp_channel {
	struct srp_target	*target;
	unsigned int		idx;
	int			comp_vector;
	struct srp_cm_id	*cm_id;
	struct sa_path_rec	path;
	struct ib_pd		*pd;
	struct rdi_queue	queue;
	bool			polled;
	spinlock_t		poll_lock;	/* @poll_cq */
	struct ib_cq		*poll_cq;

	spinlock_t		lock;	/* free_tx, held_rx, req_lim, connected */
	struct list_head	free_tx;
	struct list_head	held_rx;
	s32			req_lim;
	bool			connected;
	enum srp_ch_login	login;

	struct srp_iu		**tx_ring;
	struct srp_iu		**rx_ring;
	unsigned int		rx_count;
	u32			max_ti_iu_len;
	u32			max_it_iu_len;
	bool			use_imm_data;
	u32			max_imm_data;
	u16			buf_fmt;

	struct completion	login_done;
	struct completion	path_done;
	ktime_t			login_deadline;
	int			status;
	struct srp_login_result	login_rsp;

	struct completion	logout_done;
	struct completion	tmf_done;
	struct mutex		tmf_mutex;	/* one TMF in flight */
	u64			tmf_tag;
	int			tmf_status;

	atomic_t		zero_req_lim;
	struct srp_keepalive	ka;
	struct rdi_stats	stats;
	struct list_head	unfenced;
	struct work_struct	fence_work;
};

/* srp_channel.status values that ask the login loop to try again. */
enum {
	SRP_CM_RETRY_IU_LEN	= 1,	/* target wants a smaller IT IU */
	SRP_CM_RETRY_REDIRECT	= 2,	/* IB CM redirect */
	SRP_CM_RETRY_STALE	= 3,	/* stale connection */
	SRP_CM_RETRY_NO_KA	= 4,	/* target refused the keep-alive probe */
};

/**
 * struct srp_tmo_watch - re-arms running transport timers after sysfs writes
 * @work:            runs every second while the rport is blocked or failing
 *                   fast (rport.c)
 * @active:          a recovery is being watched
 * @since:           when the rport was blocked (fast_io_fail_tmo and
 *                   dev_loss_tmo count from here)
 * @last_attempt:    end of the last reconnect attempt (reconnect_delay counts
 *                   from here)
 * @reconnect_delay: the value the reconnect timer runs with
 * @fast_io_fail_tmo: the value the fast I/O failure timer runs with
 * @dev_loss_tmo:    the value the device loss timer runs with
 *
 * Locks: everything but @work under the rport mutex.
 */
struct srp_tmo_watch {
	struct delayed_work	work;
	bool			active;
	unsigned long		since;
	unsigned long		last_attempt;
	int			reconnect_delay;
	int			fast_io_fail_tmo;
	int			dev_loss_tmo;
};

enum srp_target_state {
	SRP_TARGET_SCANNING,
	SRP_TARGET_LIVE,
	SRP_TARGET_REMOVED,
};

/**
 * struct srp_target - one logged-in SRP target port (one SCSI host)
 * @shost:       the SCSI host; the target lives in its hostdata
 * @host:        port we logged in through
 * @rport:       transport class remote port
 * @opts:        parsed add_target options (constant after login)
 * @cm:          connection manager operations
 * @ch_ops:      what the channels report upwards (target.c sets it)
 * @entry:       link in @host->targets
 * @lock:        protects @state
 * @state:       scanning, live or being removed
 * @tmf_mutex:   one task management function of the target in flight.
 *               Each channel is an I_T nexus of its own, and a LUN reset
 *               makes the target abort the TMFs of other nexuses it
 *               overlaps, without a response (LIO does: an ABORT TASK on
 *               one channel went unanswered during a LUN reset on
 *               another). Taken before a channel's &srp_channel.tmf_mutex.
 * @inv_wait:    error handlers wait here for commands whose MRs are being
 *               invalidated (srp_wait_completing())
 * @ch:          channels, @ch_count of them: the interrupt-driven ones
 *               first (HCTX_TYPE_DEFAULT), then the @poll_count polled
 *               ones (HCTX_TYPE_POLL); each is the hardware queue of its
 *               index
 * @ch_count:    channels in use, polled ones included
 * @poll_count:  polled channels among them (the poll_queues option)
 * @queue_size:  send IUs per channel (can_queue + RSP + TMF slots)
 * @cmd_sg_cnt:  descriptors that fit in an SRP_CMD
 * @max_desc:    descriptors one command may need; above @cmd_sg_cnt only
 *               with allow_ext_sg, the rest in an external table
 *               (ext_table.c)
 * @mr_per_cmd:  FR MRs one command may need (the table's own included)
 * @sizing:      the host may still be resized to what the target accepts:
 *               set from sizing until channel 0 has logged in
 *               (srp_target_connect()), before the SCSI host is added
 * @it_iu_shrunk: the target rejected the IT IU length once: later logins
 *               request srp_it_iu_len_fallback()
 * @ka_refused:  the target refused the keep-alive probe at a login: no
 *               keep-alive for the rest of the target's life
 * @topspin_workarounds: topspin_workarounds at load: Topspin/Cisco
 *               targets get a node-GUID initiator port identifier
 * @rc_give_up_ms: how long the RC transport of an IB CM login retries
 *               before it fails a send (srp_rc_give_up_ms()); 0 when not
 *               known (RDMA/CM). Written by the CM handlers, read when a
 *               disk is configured (READ_ONCE/WRITE_ONCE)
 * @sgid:        GID 0 of the port: the source of IB CM paths and, with
 *               @opts.initiator_ext, the initiator port identifier
 * @dgid:        destination GID (IB CM) / GID resolved by RDMA/CM
 * @orig_dgid:   destination GID as given (before redirects)
 * @remove_work: removes the target (rport delete, device removal)
 * @tl_err_work: starts transport-layer recovery
 * @removal_fail_work: fails the commands of the channels that are down
 *               while the target is being removed (rport.c)
 * @removal_lost: the path was found dead during the removal (keep-alive
 *               or task management function unanswered, transport retries
 *               exhausted): every channel is failed, not only those down.
 *               Set from any context, read by @removal_fail_work
 * @ch_retry_work: tears down channels that failed alone and logs in the
 *               channels that are down (rport.c)
 * @tmo:         applies timeout changes to the running transport timers
 * @debugfs:     debugfs directory host<N> (stats.c)
 */
struct srp_target {
	struct Scsi_Host	*shost;
	struct srp_host		*host;
	struct srp_rport	*rport;
	struct srp_target_opts	opts;
	const struct srp_cm_ops	*cm;
	const struct srp_ch_ops	*ch_ops;
	struct list_head	entry;

	spinlock_t		lock;	/* protects @state */
	enum srp_target_state	state;
	struct mutex		tmf_mutex;	/* one TMF in flight */
	wait_queue_head_t	inv_wait;

	struct srp_channel	*ch;
	unsigned int		ch_count;
	unsigned int		poll_count;
	unsigned int		queue_size;
	unsigned int		cmd_sg_cnt;
	unsigned int		max_desc;
	unsigned int		mr_per_cmd;
	bool			sizing;
	bool			it_iu_shrunk;
	bool			ka_refused;
	bool			topspin_workarounds;
	u32			rc_give_up_ms;

	union ib_gid		sgid;
	union ib_gid		dgid;
	union ib_gid		orig_dgid;

	struct work_struct	remove_work;
	struct work_struct	tl_err_work;
	struct work_struct	removal_fail_work;
	bool			removal_lost;
	struct delayed_work	ch_retry_work;
	struct srp_tmo_watch	tmo;
	struct dentry		*debugfs;
};

/**
 * struct srp_request - per SCSI command state (scsi_cmd_priv())
 * @scmnd:    the command while the driver owns it; cleared with xchg()
 *            by whoever completes it (response, abort, or transport
 *            failure, srp_claim_req()), so it completes exactly once
 * @ch:       channel the command was sent on
 * @iu:       send IU holding the SRP_CMD
 * @nregs:    FR registrations held in @regs
 * @regs:     FR registrations, @target->mr_per_cmd of them
 * @sg_count: DMA-mapped scatterlist entries
 * @inv_cqe:  completion entry of the last LOCAL_INV work request
 * @completing: non-zero from the claim of a command whose MRs are being
 *            invalidated until after its scsi_done() (srp_complete_cmd());
 *            a count, so a new use of the request never loses to the end
 *            of the old one
 * @ext_table: external descriptor table, @target->max_desc entries, or
 *            NULL when every command fits in the SRP_CMD
 * @ext_sg:   @ext_table as a one-entry scatterlist holding its DMA
 *            mapping (ib_dma_map_single()), for its fast registration
 * @fence_entry: in &srp_channel.unfenced while the command waits for its
 *            QP to be moved to the error state
 */
struct srp_request {
	struct scsi_cmnd	*scmnd;
	struct srp_channel	*ch;
	struct srp_iu		*iu;
	unsigned int		nregs;
	struct rdi_reg		*regs;
	int			sg_count;
	struct ib_cqe		inv_cqe;
	atomic_t		completing;
	struct srp_direct_desc	*ext_table;
	struct scatterlist	ext_sg;
	struct list_head	fence_entry;
};

static inline struct srp_target *host_to_target(struct Scsi_Host *shost)
{
	return (struct srp_target *)shost->hostdata;
}

/* Interrupt-driven channels of @target: &srp_target.ch[0] up to this. */
static inline unsigned int srp_irq_ch_count(const struct srp_target *target)
{
	return target->ch_count - target->poll_count;
}

#endif /* IB_SRP_SRP_H */
