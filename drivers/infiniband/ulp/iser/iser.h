/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_iser internals: the objects shared by the files of the driver.
 *
 *  transport.c  iscsi_transport ops: session, connection and host glue
 *  ep.c         endpoint: rdma_cm connect, poll, disconnect
 *  conn.c       QP/CQ/MR pool of one RDMA connection, receive rings,
 *               teardown state machine, completion error funnel
 *  tx.c         sending iSCSI PDUs (commands, Data-Out, management)
 *  unsol.c      how many unsolicited Data-Out PDUs a write sends (pure,
 *               unit-tested)
 *  data.c       SCSI data mapping and fast registration via rdi_core
 *  rx.c         receive completions handed to libiscsi
 *  pdu.c        iSER wire formats (pure, unit-tested)
 *  state.c      legal connection state changes, the invalidation hold
 *               (pure, unit-tested)
 *
 * Object model: an iscsi_endpoint owns one struct iser_conn (the RDMA
 * connection). Binding an iscsi_conn to the endpoint takes a second
 * reference; the iser_conn is released when both the endpoint is
 * disconnected and the iscsi_conn is stopped or destroyed, whichever order
 * iscsid and scsi_transport_iscsi choose. The release runs on a workqueue:
 * destroying the RDMA/CM id may wait for the fabric, iscsid never does.
 * The RDMA/CM id, and the struct with it, outlive the release until the
 * CM has finished the disconnect (conn.c), so that the target learns that
 * the connection ended even when the DREQ had to wait for a path.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef ISER_H
#define ISER_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <scsi/iscsi_proto.h>
#include <scsi/libiscsi.h>
#include <rdi/core.h>

#include "pdu.h"
#include "state.h"

/* Commands one connection's QP is sized for (libiscsi cmds_max). */
#define ISER_MAX_CMDS		512
/* Receive buffers beyond one per command: NOP-In, async messages. */
#define ISER_RX_EXTRA		8
/*
 * Send queue entries per command: the LOCAL_INV chained in front of its
 * REG_MR (tx.c says why), the REG_MR, the SEND, the LOCAL_INV after it.
 */
#define ISER_WR_PER_CMD		4
/* Send queue entries for unsolicited Data-Out PDUs, all commands together. */
#define ISER_DOUT_WRS		1024
/* Login and text PDUs are at most this long (libiscsi's login buffer). */
#define ISER_LOGIN_DLEN		ISCSI_DEF_MAX_RECV_SEG_LEN
/* Scatter entries of an immediate-only write sent without registration. */
#define ISER_INLINE_SGES	4
/* "%pISpc" of an IPv6 address with scope and port, and its NUL. */
#define ISER_ADDR_STRLEN	64

/**
 * struct iser_rx_desc - one posted receive buffer
 * @conn:     owning connection
 * @head:     ISER_RX_HEAD bytes: the iSER header, the BHS, then the first
 *            ISER_RX_INLINE bytes of AHS and data segment
 * @sge:      @head, then the rest of the connection's &iser_conn.rx_spill
 * @wr:       the receive work request
 * @cqe:      completion, iser_rx_done()
 * @inv_cqe:  completion of the local invalidation a SCSI response waits
 *            for before it is handed to libiscsi
 * @inv_task: the task whose LOCAL_INV @inv_cqe completes, NULL when the PDU
 *            waits for a task management function's (iser_rx_inv_done())
 * @pdu:      the received PDU while it waits
 */
struct iser_rx_desc {
	struct iser_conn	*conn;
	struct rdi_buf		head;
	struct ib_sge		sge[2];
	struct ib_recv_wr	wr;
	struct ib_cqe		cqe;
	struct ib_cqe		inv_cqe;
	struct iser_task	*inv_task;
	struct iser_rx_pdu	pdu;
};

/**
 * struct iser_rx_ring - a set of receive buffers mapped on one device
 * @desc:      @nr descriptors
 * @nr:        descriptors in the ring
 */
struct iser_rx_ring {
	struct iser_rx_desc	*desc;
	unsigned int		nr;
};

/* Flags in &iser_conn.flags. */
enum {
	ISER_CONN_F_ERROR,	/* failure reported, or teardown started */
	ISER_CONN_F_FFP,	/* full-feature receive ring posted (or being) */
	ISER_CONN_F_RX_CAPPED,	/* a login declared @rx_data_max */
	ISER_CONN_F_DRAINED,	/* QP in the error state and drained */
	ISER_CONN_F_REPORT,	/* failure not yet reported to libiscsi */
	ISER_CONN_F_FENCE,	/* an rkey stayed valid: QP to the error state */
	ISER_CONN_F_DISCONNECTING, /* rdma_disconnect() sent a DREQ or DREP */
	ISER_CONN_F_CM_CLOSED,	/* the CM reported the connection closed */
	ISER_CONN_F_RELEASED,	/* @destroy_work queued: kicks may requeue it */
	ISER_CONN_F_STARTED,	/* start_conn's Data-Out descriptors, MR pool */
	ISER_CONN_F_HW_GONE,	/* tasks hold nothing on the device any more */
};

/**
 * struct iser_conn - one RDMA connection of an iSER endpoint
 * @ep:            endpoint owning this connection, NULL once disconnected
 * @cm_id:         rdma_cm identifier; its handler runs under @state_mutex.
 *                 Destroyed by @destroy_work, or by device removal
 * @dev:           rdi_core device (registration limits)
 * @pd:            protection domain of this connection alone: its QP, its
 *                 MRs and the local DMA lkey of its buffers. Another QP of
 *                 the host (the session's next connection, another
 *                 session's) cannot use an rkey handed out here, so once
 *                 the QP is drained no rkey of this connection is
 *                 reachable, deregistered yet or not (conn.c)
 * @queue:         queue pair and its one CQ from the pool; @queue.qp is
 *                 NULL until the route is resolved and again once the
 *                 device resources are freed (iser_conn_free_hw())
 * @ref:           one for the endpoint, one while bound to @iscsi_conn
 * @state_mutex:   protects @state, @iscsi_conn changes and @cm_error
 * @state:         see enum iser_conn_state
 * @established:   completed when @state leaves CONNECTING
 * @cm_error:      errno of a failed connection attempt
 * @flags:         ISER_CONN_F_*; atomic bit operations
 * @iscsi_conn:    bound libiscsi connection; set before any receive is
 *                 posted and cleared only after the QP is drained, so the
 *                 completion handlers may read it without locking
 * @remote_inv:    the target invalidates our rkeys with Send with Invalidate
 * @max_cmds:      commands the queues are sized for
 * @max_sectors:   the max_sectors parameter when the QP was created: the
 *                 session's limit, and what @sg_tablesize covers
 * @rx_data_max:   the rx_data_max parameter: data bytes a receive buffer
 *                 holds, and the most a login declares
 * @sg_tablesize:  scatter entries one command may have
 * @max_send_sge:  SGEs one SEND may carry (headers included)
 * @login_rx:      single receive buffer used during login
 * @login_tx:      login/text request data, ISER_LOGIN_DLEN bytes
 * @rx:            full-feature receive ring, allocated at conn start
 * @rx_spill:      where every receive buffer continues past its inline
 *                 part, shared by all (rx.c says why that is safe): the
 *                 first ISER_RX_INLINE bytes are the CPU's, for making a
 *                 long PDU contiguous, the rest the device's
 * @dout_posted:   unsolicited Data-Out SENDs posted, or about to be, and
 *                 not completed; at most ISER_DOUT_WRS (tx.c)
 * @sq_busy:       signaled send work requests posted and not completed
 *                 (iser_post_send(), iser_sq_done())
 * @sq_progress:   jiffies of the last send completion, or of the post that
 *                 found the send queue idle; written before @sq_busy
 *                 grows or shrinks, read after it
 * @sq_timer:      the send queue watchdog, twice a second while the
 *                 connection is up (iser_sq_watchdog())
 * @err_cqe:       completion of unsignaled or error-only work requests
 * @stats:         per-connection counters
 * @debugfs:       this connection's debugfs directory
 * @entry:         link in iser_conns, under iser_conns_mutex
 * @removing:      device removal is tearing this connection down; under
 *                 iser_conns_mutex
 * @err_work:      reports a failure to libiscsi, and moves the QP to the
 *                 error state when asked to, outside the locks the failure
 *                 was seen under (iser_conn_error()); on iser_conn_wq,
 *                 holding a reference while queued
 * @release_work:  frees the connection's device resources on
 *                 iser_conn_wq once the last reference is gone
 *                 (iser_conn_put()), then queues @destroy_work
 * @destroy_work:  destroys @cm_id and frees the connection, once the CM
 *                 has closed the connection it was asked to or after
 *                 ISER_CM_LINGER_SECS (conn.c)
 * @released:      jiffies when @release_work queued @destroy_work
 */
struct iser_conn {
	struct iscsi_endpoint	*ep;
	struct rdma_cm_id	*cm_id;
	struct rdi_device	*dev;
	struct ib_pd		*pd;
	struct rdi_queue	queue;
	struct kref		ref;
	struct mutex		state_mutex;	/* see above */
	enum iser_conn_state	state;
	struct completion	established;
	int			cm_error;
	unsigned long		flags;
	struct iscsi_conn	*iscsi_conn;
	bool			remote_inv;
	unsigned int		max_cmds;
	unsigned int		max_sectors;
	unsigned int		rx_data_max;
	unsigned int		sg_tablesize;
	unsigned int		max_send_sge;
	struct iser_rx_ring	login_rx;
	struct rdi_buf		login_tx;
	struct iser_rx_ring	rx;
	struct rdi_buf		rx_spill;
	atomic_t		dout_posted;
	atomic_t		sq_busy;
	unsigned long		sq_progress;
	struct timer_list	sq_timer;
	struct ib_cqe		err_cqe;
	struct rdi_stats	stats;
	struct dentry		*debugfs;
	struct list_head	entry;
	bool			removing;
	struct work_struct	err_work;
	struct work_struct	release_work;
	struct delayed_work	destroy_work;
	unsigned long		released;
};

/**
 * struct iser_tx_hdrs - the headers of an outgoing PDU, DMA-mapped together
 * @iser: iSER header
 * @bhs:  iSCSI basic header segment; &iscsi_task.hdr points here
 */
struct iser_tx_hdrs {
	struct iser_wire_hdr	iser;
	struct iscsi_hdr	bhs;
} __packed;
static_assert(sizeof(struct iser_tx_hdrs) == ISER_HDRS_LEN);

/**
 * struct iser_dout - one unsolicited Data-Out PDU of a command
 * @hdrs:     iSER header + Data-Out BHS
 * @hdrs_dma: DMA address of @hdrs
 * @sge:      headers, data
 * @wr:       the SEND
 * @cqe:      its completion
 * @it:       the task the PDU belongs to
 */
struct iser_dout {
	struct iser_tx_hdrs	hdrs;
	u64			hdrs_dma;
	struct ib_sge		sge[2];
	struct ib_send_wr	wr;
	struct ib_cqe		cqe;
	struct iser_task	*it;
};

/**
 * struct iser_task - per-task transport data (&iscsi_task.dd_data)
 * @hdrs:         headers of the command or management PDU
 * @nr_sge:       SGEs used in @sge
 * @inv:          enum iser_inv: whether @reg's rkey is invalid yet; the
 *                command's pages are given back only once it is, or once
 *                the QP is drained (iser_data_release())
 * @tmf_ended:    a task management function the target reported complete
 *                ended the command (iser_rx_tmf_invalidate())
 * @cmd_sent:     the SCSI command PDU is posted (set just before the post)
 * @hdrs_dma:     DMA address of @hdrs on the bound connection's device,
 *                0 while unbound
 * @conn:         connection the task was sent on
 * @sge:          headers, then immediate or login data
 * @send_wr:      the SEND of the PDU
 * @send_cqe:     its completion
 * @sg_nents:     DMA-mapped scatter entries, 0 when nothing is mapped
 * @dma_dir:      direction of that mapping
 * @reg:          fast registration of the data buffer
 * @inv_cqe:      completion of the LOCAL_INV iser_data_release() posts
 * @wrs:          signaled work requests of the task posted and not
 *                completed (its SEND, Data-Out SENDs, the LOCAL_INV of
 *                @inv_cqe); libiscsi may end a task before they complete,
 *                and it is not handed out again until they have
 *                (iser_alloc_pdu())
 * @nr_dout:      size of @dout, 0 when the session sends none
 * @dout:         unsolicited Data-Out PDUs, @nr_dout of them
 *
 * libiscsi allocates every task of a session as one object, its
 * &struct iscsi_task followed by this (iser_session_create()): members are
 * ordered so that nothing is padding and the pair fits a 512-byte slab
 * object, not a 1 KiB one (ISER_TASK_ALLOC).
 */
struct iser_task {
	struct iser_tx_hdrs	hdrs;
	u8			nr_sge;
	u8			inv;
	bool			tmf_ended;
	bool			cmd_sent;
	u64			hdrs_dma;
	struct iser_conn	*conn;
	struct ib_sge		sge[1 + ISER_INLINE_SGES];
	struct ib_send_wr	send_wr;
	struct ib_cqe		send_cqe;
	int			sg_nents;
	enum dma_data_direction	dma_dir;
	struct rdi_reg		reg;
	struct ib_cqe		inv_cqe;
	atomic_t		wrs;
	unsigned int		nr_dout;
	struct iser_dout	*dout;
};

/* What libiscsi allocates per task: at most a 512-byte slab object. */
#define ISER_TASK_ALLOC	(sizeof(struct iscsi_task) + sizeof(struct iser_task))
static_assert(ISER_TASK_ALLOC <= 512);

static inline struct iscsi_task *iser_task_to_iscsi(struct iser_task *it)
{
	/* libiscsi allocates dd_data right behind the iscsi_task */
	return (struct iscsi_task *)it - 1;
}

/* conn.c */
void iser_conn_free_hw(struct iser_conn *ic);
bool iser_set_state(struct iser_conn *ic, enum iser_conn_state state);
struct iser_conn *iser_conn_alloc(void);
int iser_conn_create_qp(struct iser_conn *ic);
void iser_conn_terminate(struct iser_conn *ic);
void iser_conn_put(struct iser_conn *ic);
struct iser_conn *iser_conn_next_on_device(struct ib_device *ibdev);
struct iscsi_endpoint *iser_conn_next_held(void);
void iser_conn_unbound(struct iser_conn *ic);
bool iser_conn_wait_unbound(struct iser_conn *ic, unsigned long timeout);
void iser_conn_destroy_id(struct iser_conn *ic);
void iser_conn_cm_closed(struct iser_conn *ic);
void iser_conn_flush_releases(void);
int iser_conn_wq_create(void);
void iser_conn_wq_destroy(void);
void iser_conn_error(struct iser_conn *ic);
void iser_conn_fence(struct iser_conn *ic);
void iser_wc_error(struct ib_wc *wc, const char *what);
int iser_post_send(struct iser_conn *ic, const struct ib_send_wr *first,
		   int signaled);
void iser_sq_done(struct iser_conn *ic);
void iser_sq_watchdog_start(struct iser_conn *ic);
int iser_rx_ring_alloc(struct iser_conn *ic, struct iser_rx_ring *ring,
		       unsigned int nr, u32 data_len);
void iser_rx_ring_free(struct iser_conn *ic, struct iser_rx_ring *ring);
int iser_post_recv(struct iser_rx_desc *desc);
int iser_rx_ring_post(struct iser_conn *ic);

/* device.c */
int iser_client_register(void);
void iser_client_unregister(void);

/* ep.c */
struct iscsi_endpoint *iser_ep_connect(const char *netdev,
				       struct sockaddr *dst_addr,
				       int non_blocking);
int iser_ep_poll(struct iscsi_endpoint *ep, int timeout_ms);
void iser_ep_disconnect(struct iscsi_endpoint *ep);
void iser_ep_disconnect_all(void);
int iser_ep_get_param(struct iscsi_endpoint *ep, enum iscsi_param param,
		      char *buf);

/* data.c */
int iser_data_map(struct iser_conn *ic, struct iser_task *it,
		  struct iser_hdr_args *args, unsigned int imm_len,
		  unsigned int unsol_len);
void iser_data_release(struct iser_conn *ic, struct iser_task *it);

/* stats.c */
void iser_stats_add(struct iser_conn *ic);
void iser_stats_remove(struct iser_conn *ic);
void iser_stats_init(void);
void iser_stats_exit(void);

/* transport.c */
void iser_conn_drop_tasks(struct iser_conn *ic);

/* tx.c */
int iser_xmit_task(struct iscsi_task *task);
int iser_dout_alloc(struct iser_conn *ic, struct iscsi_session *session);
void iser_dout_free(struct iser_conn *ic, struct iscsi_session *session);

/* rx.c */
void iser_rx_done(struct ib_cq *cq, struct ib_wc *wc);

#endif /* ISER_H */
