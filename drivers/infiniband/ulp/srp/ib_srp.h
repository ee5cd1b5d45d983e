/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: internal API between the files of the SRP initiator.
 *
 * Object model, outermost first:
 *
 *  srp_device   one per RDMA device (IB client data); holds the rdi_core
 *               device (PD, FR capabilities) and the list of its ports.
 *  srp_host     one per device port: the class device srp-<dev>-<port>
 *               whose add_target file creates targets.
 *  srp_target   one per successful add_target: a SCSI host, an rport and
 *               ch_count channels.
 *  srp_channel  one RC connection: QP, CQ, IU rings, credits; serves one
 *               blk-mq hardware queue.
 *  srp_request  per-command private data (scsi_cmd_priv()).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_IB_SRP_H
#define IB_SRP_IB_SRP_H

#include <linux/completion.h>
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
	SRP_RSP_SQ_SIZE		= 1,	/* IU kept for CRED/AER responses */
	SRP_TSK_MGMT_SQ_SIZE	= 1,	/* IU and credit kept for TMFs */
	SRP_MAX_IMM_SGE		= 2,
	SRP_MAX_PAGES_PER_MR	= 512,
	SRP_DEFAULT_CH_CAP	= 4,
	SRP_LOGIN_TIMEOUT_MS	= 20000,
	SRP_TMF_TIMEOUT_MS	= 5000,
	SRP_LOGOUT_TIMEOUT_MS	= 1000,
	SRP_LOGIN_ATTEMPTS	= 3,
};

/* SRP tags with this bit set belong to task management or logout IUs. */
#define SRP_TAG_TSK_MGMT	BIT_ULL(63)

/**
 * struct srp_device - per RDMA device state (IB client data)
 * @rdi:         rdi_core device: shared PD and memory-registration limits
 * @ib_dev:      the RDMA device
 * @pd:          only when never_register=Y or register_always=N asked for
 *               unregistered commands: a PD with an unsafe global rkey,
 *               shared by every SRP QP on this device (rdi_core's PD,
 *               iSER's too, never gets such a key); NULL otherwise, and
 *               each channel has a PD of its own (&srp_channel.pd)
 * @hosts:       srp_host of every port; written only by the IB client
 *               add/remove callbacks, which the IB core serialises
 * @use_fr:      commands register their data with fast registration
 * @register_always: register_always at load: false lets commands of one
 *               DMA segment use @global_rkey
 * @global_rkey: rkey covering all memory, 0 when @pd has none
 * @max_pages_per_mr: pages one FR MR maps for this driver
 *
 * All fields are constant between srp_add_one() and srp_remove_one().
 */
struct srp_device {
	struct rdi_device	*rdi;
	struct ib_device	*ib_dev;
	struct ib_pd		*pd;
	struct list_head	hosts;
	bool			use_fr;
	bool			register_always;
	u32			global_rkey;
	u32			max_pages_per_mr;
};

/**
 * struct srp_host - one port of an RDMA device
 * @sdev:        device this port belongs to
 * @port:        port number (1-based)
 * @dev:         class device srp-<ibdev>-<port>
 * @entry:       link in @sdev->hosts
 * @add_mutex:   serialises add_target writes on this port
 * @lock:        protects @targets
 * @targets:     srp_target logged in through this port
 * @released:    completed by the class device's release callback
 */
struct srp_host {
	struct srp_device	*sdev;
	u32			port;
	struct device		dev;
	struct list_head	entry;
	struct mutex		add_mutex;	/* one add_target at a time */
	spinlock_t		lock;		/* protects @targets */
	struct list_head	targets;
	struct completion	released;
};

/* What a send IU is taken for; decides the credits it needs. */
enum srp_tx_use {
	SRP_TX_CMD,	/* SRP_CMD: one credit, never the TMF one */
	SRP_TX_TMF,	/* SRP_TSK_MGMT: any credit, the kept one too */
	SRP_TX_RSP,	/* CRED/AER responses, SRP_I_LOGOUT: no credit */
};

/**
 * struct srp_iu - one information unit buffer
 * @list:   link in the channel's free send list
 * @buf:    kernel address of the buffer
 * @dma:    DMA address of @buf
 * @size:   size of @buf in bytes
 * @dir:    DMA direction of the mapping
 * @cqe:    completion entry of the work request using the IU
 * @sge:    SGEs of a send: the IU itself, then immediate data
 * @num_sge: SGEs in use in @sge
 * @use:    what the IU was taken for (credit accounting)
 */
struct srp_iu {
	struct list_head	list;
	void			*buf;
	u64			dma;
	u32			size;
	enum dma_data_direction	dir;
	struct ib_cqe		cqe;
	struct ib_sge		sge[SRP_MAX_IMM_SGE + 1];
	int			num_sge;
	enum srp_tx_use		use;
};

struct srp_channel;

/**
 * struct srp_cm_ops - connection manager of a target (RDMA/CM or IB CM)
 * @init:       create the CM id, resolve the route and create the QP
 *              through srp_ch_create_ib()
 * @create_qp:  create @ch->qp the way this CM needs it
 * @destroy_qp: destroy @ch->qp; no CM handler may touch it from then on
 * @connect:    send the login request as CM private data
 * @disconnect: start a disconnect (DREQ); may be called from any context
 *              except hard IRQ and more than once
 * @destroy:    destroy the CM id; waits for its handler to finish
 *
 * Everything after the CM exchange (QP use, IUs, credits) is common.
 */
struct srp_cm_ops {
	int (*init)(struct srp_channel *ch);
	int (*create_qp)(struct srp_channel *ch, struct ib_qp_init_attr *attr);
	void (*destroy_qp)(struct srp_channel *ch);
	int (*connect)(struct srp_channel *ch,
		       const struct srp_login_params *p);
	void (*disconnect)(struct srp_channel *ch);
	void (*destroy)(struct srp_channel *ch);
};

extern const struct srp_cm_ops srp_rdma_cm_ops;
extern const struct srp_cm_ops srp_ib_cm_ops;
void srp_ib_cm_register(void);
void srp_ib_cm_unregister(void);

/**
 * struct srp_ch_ops - how a channel reaches the layers above it
 * @recv:   a receive completed: handle the IU (the command layer,
 *          srp_cmd_recv()); the channel reposts the receive afterwards
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
	void (*recv)(struct srp_channel *ch, const void *buf, u32 len);
	void (*failed)(struct srp_channel *ch);
	void (*lost)(struct srp_channel *ch);
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
 * @comp_vector: completion vector of @cq
 * @rdma_id:     RDMA/CM id (RDMA/CM logins)
 * @ib_id:       IB CM id (IB CM logins)
 * @path:        path record (IB CM logins)
 * @pd:          PD of @qp and of its MRs: the channel's own, so that the
 *               rkeys it hands out reach memory through @qp alone and a
 *               QP in the error state ends them all; the device's
 *               global-rkey PD (&srp_device.pd) when there is one
 * @qp:          the RC queue pair
 * @cq:          receive completion queue from the CQ pool (softirq)
 * @cq_size:     entries requested for @cq
 * @send_cq:     send completion queue of the channel's own (softirq)
 * @lock:        protects @free_tx, @req_lim and @connected
 * @free_tx:     send IUs not in use
 * @req_lim:     credits granted by the target and not yet used
 * @connected:   the channel may carry new commands
 * @tx_ring:     all send IUs (@target->queue_size of them)
 * @rx_ring:     all receive IUs
 * @rx_count:    number of entries in @rx_ring
 * @max_ti_iu_len: largest IU the target sends (receive buffer size)
 * @max_it_iu_len: largest IU we send
 * @use_imm_data: target accepted immediate data on this channel
 * @buf_fmt:     SRP_BUF_FMT_DIRECT and/or _INDIRECT: the data descriptor
 *               formats the target accepts on this channel
 * @login_done:  completed by the CM handler when the CM exchange ends
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
 */
struct srp_channel {
	struct srp_target	*target;
	unsigned int		idx;
	int			comp_vector;
	struct rdma_cm_id	*rdma_id;
	struct ib_cm_id		*ib_id;
	struct sa_path_rec	path;
	struct ib_pd		*pd;
	struct ib_qp		*qp;
	struct ib_cq		*cq;
	unsigned int		cq_size;
	struct ib_cq		*send_cq;

	spinlock_t		lock;	/* free_tx, req_lim, connected, tmf */
	struct list_head	free_tx;
	s32			req_lim;
	bool			connected;

	struct srp_iu		**tx_ring;
	struct srp_iu		**rx_ring;
	unsigned int		rx_count;
	u32			max_ti_iu_len;
	u32			max_it_iu_len;
	bool			use_imm_data;
	u16			buf_fmt;

	struct completion	login_done;
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
 * @ch:          channels, @ch_count of them
 * @ch_count:    channels in use
 * @queue_size:  send IUs per channel (can_queue + RSP + TMF slots)
 * @cmd_sg_cnt:  descriptors that fit in an SRP_CMD
 * @max_desc:    descriptors one command may need; above @cmd_sg_cnt only
 *               with allow_ext_sg, the rest in an external table
 *               (ext_table.c)
 * @mr_per_cmd:  FR MRs one command may need (the table's own included)
 * @sizing:      the host may still be resized to what the target accepts:
 *               set from sizing until channel 0 has logged in
 *               (srp_target_connect()), before the SCSI host is added
 * @max_it_iu_len: IT IU length we request at login
 * @ka_refused:  the target refused the keep-alive probe at a login: no
 *               keep-alive for the rest of the target's life
 * @use_imm_data: use_imm_data at add_target: request immediate data
 * @max_imm_data: max_imm_data at add_target: largest immediate write
 * @topspin_workarounds: topspin_workarounds at load: Topspin/Cisco
 *               targets get a node-GUID initiator port identifier
 * @sgid:        GID 0 of the port: the source of IB CM paths and, with
 *               @opts.initiator_ext, the initiator port identifier
 * @dgid:        destination GID (IB CM) / GID resolved by RDMA/CM
 * @orig_dgid:   destination GID as given (before redirects)
 * @remove_work: removes the target (rport delete, device removal)
 * @tl_err_work: starts transport-layer recovery
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
	unsigned int		queue_size;
	unsigned int		cmd_sg_cnt;
	unsigned int		max_desc;
	unsigned int		mr_per_cmd;
	bool			sizing;
	u32			max_it_iu_len;
	bool			ka_refused;
	bool			use_imm_data;
	u32			max_imm_data;
	bool			topspin_workarounds;

	union ib_gid		sgid;
	union ib_gid		dgid;
	union ib_gid		orig_dgid;

	struct work_struct	remove_work;
	struct work_struct	tl_err_work;
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
};

static inline struct srp_target *host_to_target(struct Scsi_Host *shost)
{
	return (struct srp_target *)shost->hostdata;
}

/* client.c */
int srp_client_register(void);
void srp_client_unregister(void);

/* target.c */
int srp_target_init(struct scsi_transport_template *transport);
void srp_target_exit(void);
int srp_target_add(struct srp_host *host, struct srp_target_opts *opts);
void srp_target_queue_remove(struct srp_target *target);
void srp_target_remove_all(struct srp_host *host);

/* login.c */
int srp_ch_init(struct srp_target *target, unsigned int idx);
int srp_ch_login(struct srp_channel *ch, bool multich, unsigned long timeout);
void srp_ch_release(struct srp_channel *ch);
void srp_target_disconnect(struct srp_target *target);
void srp_cm_login_reply(struct srp_channel *ch, const void *data, u8 len);
void srp_cm_login_reject(struct srp_channel *ch, const void *data, u8 len);
void srp_cm_disconnected(struct srp_channel *ch);

/* channel.c */
int srp_ch_create_ib(struct srp_channel *ch);
void srp_ch_destroy_ib(struct srp_channel *ch);
int srp_ch_start_recv(struct srp_channel *ch);
void srp_add_credits(struct srp_channel *ch, s32 delta, const char *iu);
struct srp_iu *srp_get_tx_iu(struct srp_channel *ch, enum srp_tx_use use);
void srp_put_tx_iu(struct srp_channel *ch, struct srp_iu *iu);
int srp_post_send(struct srp_channel *ch, struct srp_iu *iu, u32 len,
		  struct ib_send_wr *prefix);
bool srp_ch_mark_down(struct srp_channel *ch);
void srp_ch_error(struct srp_channel *ch, struct ib_wc *wc, const char *what);

/* keepalive.c */
void srp_ka_init(struct srp_channel *ch);
int srp_ka_login_probe(struct srp_channel *ch);
void srp_ka_start(struct srp_channel *ch);
void srp_ka_stop(struct srp_channel *ch);

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

/* data.c */
int srp_map_data(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		 struct srp_request *req, struct srp_iu_cmd *cmd,
		 unsigned int desc_off, struct ib_send_wr **reg_wrs);
int srp_inv_data(struct srp_channel *ch, struct srp_request *req);
void srp_unmap_data(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		    struct srp_request *req);

/* ext_table.c */
int srp_ext_table_alloc(struct srp_target *target, struct srp_request *req);
void srp_ext_table_free(struct srp_target *target, struct srp_request *req);
int srp_ext_table_fill(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		       struct srp_request *req, struct srp_indirect_desc *ind,
		       int count, struct ib_send_wr **reg_wrs);

/* tmf.c */
int srp_send_tmf(struct srp_channel *ch, u64 task_tag, u64 lun, u8 func);
void srp_tmf_response(struct srp_channel *ch, const struct srp_rsp_info *rsp);

/* cmd.c */
int srp_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *scmnd);
void srp_cmd_recv(struct srp_channel *ch, const void *buf, u32 len);
int srp_init_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *scmnd);
int srp_exit_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *scmnd);
void srp_fail_outstanding(struct srp_target *target, struct scsi_device *sdev,
			  int result);
void srp_fail_channel(struct srp_channel *ch, int result);
struct scsi_cmnd *srp_claim_req(struct srp_channel *ch,
				struct srp_request *req);
void srp_complete_cmd(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		      int result);
bool srp_wait_completing(struct srp_target *target, struct scsi_device *sdev,
			 struct srp_request *req);

/* eh.c */
int srp_eh_abort(struct scsi_cmnd *scmnd);
int srp_eh_device_reset(struct scsi_cmnd *scmnd);
int srp_eh_host_reset(struct scsi_cmnd *scmnd);

/* sysfs.c */
extern const struct attribute_group *srp_host_groups[];

/* stats.c */
void srp_debugfs_add(struct srp_target *target);
void srp_debugfs_remove(struct srp_target *target);
void srp_debugfs_init(void);
void srp_debugfs_exit(void);

/* rport.c */
void srp_rport_init_target(struct srp_target *target);
int srp_rport_attach(struct srp_target *target);
int srp_rport_reconnect(struct srp_rport *rport);
void srp_rport_terminate_io(struct srp_rport *rport);
void srp_ch_failed(struct srp_channel *ch);
void srp_ch_lost(struct srp_channel *ch);

#endif /* IB_SRP_IB_SRP_H */
