// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * One iSER RDMA connection: queue pair, completion queue, registration
 * pool, receive buffers, and the teardown state machine.
 *
 * Teardown is ordered and idempotent:
 *   1. iser_conn_terminate(): mark the connection failed so no completion
 *      reports a second error, disconnect, drain the QP. Afterwards no
 *      completion handler runs for this connection any more. Nothing here
 *      waits for the peer: rdma_disconnect() only sends a DREQ, and the
 *      drain completes locally once the QP is in the error state.
 *   2. iser_conn_put() drops a reference; the last one (endpoint
 *      disconnected and iscsi_conn unbound) queues the release on
 *      iser_conn_wq, which frees the MR pool, QP, CQ, buffers and the
 *      device, and keeps the cm_id.
 *   3. The cm_id is destroyed, and the connection freed, once the CM has
 *      finished the disconnect step 1 started: the DREQ was answered (or
 *      the CM gave up on it: RDMA_CM_EVENT_DISCONNECTED) or the time wait
 *      that follows ended (RDMA_CM_EVENT_TIMEWAIT_EXIT); at the latest
 *      ISER_CM_LINGER_SECS after the release (iser_conn_destroy_work()).
 *
 * Why the cm_id lingers: destroying an IB CM id whose DREQ is still
 * unanswered cancels the DREQ's retransmissions. When the connection
 * failed because the path stopped carrying packets, the first DREQ is
 * lost with everything else, and the target, which saw no error of its
 * own (its QP has nothing to send, or gets no retry-exceeded before the
 * path is back), never learns that the connection ended: tgt kept such a
 * connection, its QP in RTS and its I_T nexus, until it was killed (issue
 * 40). Kept alive, the id resends the DREQ until the path is back.
 * Nobody waits for that: the release is already done, and the linger is a
 * delayed work, so no worker sleeps through it either.
 *
 * The release and the destruction are asynchronous because
 * rdma_destroy_id() waits until the IB CM has dropped every reference on
 * its id, and a DREQ, REJ or MRA the CM has handed to the device keeps one
 * until the device completes that send; on a fabric that does not take
 * packets (soft-RoCE retries a send its netdev refuses until the netdev
 * takes it) that is as long as the fabric stays down. iscsid calls
 * ep_disconnect and stop_conn, and scsi_transport_iscsi's cleanup work
 * calls both under the connection's ep_mutex, so a release in their
 * context blocked iscsid (and anything reading the connection's address)
 * for as long. Until the cm_id is destroyed, a late CM event finds the
 * connection DOWN and at most ends the linger (iser_conn_cm_closed()).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <scsi/scsi_transport_iscsi.h>

#include "iser.h"
#include "trace.h"
#include "unsol.h"

/*
 * The numeric parameters are range-checked when set, at load or later
 * through sysfs, so a bad value fails modprobe or the write with -EINVAL.
 * Each connection reads them once, into &iser_conn.max_sectors and
 * &iser_conn.rx_data_max: a change applies to the next connection.
 */
static int iser_param_set_max_sectors(const char *val,
				      const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 8, UINT_MAX);
}

/*
 * Each connection takes one receive buffer of rx_data_max bytes from
 * kmalloc (iser_login_bufs_alloc()), which gives at most KMALLOC_MAX_SIZE
 * (4 MiB on x86-64): a larger value, allowed by iSCSI, could only fail
 * every login, with an allocation warning.
 */
static int iser_param_set_rx_data_max(const char *val,
				      const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, ISCSI_MIN_MAX_RECV_SEG_LEN,
				     min_t(unsigned long, KMALLOC_MAX_SIZE,
					   ISCSI_MAX_MAX_RECV_SEG_LEN));
}

static const struct kernel_param_ops iser_max_sectors_ops = {
	.set	= iser_param_set_max_sectors,
	.get	= param_get_uint,
};

static const struct kernel_param_ops iser_rx_data_max_ops = {
	.set	= iser_param_set_rx_data_max,
	.get	= param_get_uint,
};

static unsigned int iser_max_sectors = 1024;
module_param_cb(max_sectors, &iser_max_sectors_ops, &iser_max_sectors, 0644);
MODULE_PARM_DESC(max_sectors,
		 "Max sectors per SCSI command, >= 8 (default 1024); applies to new connections");

static unsigned int iser_rx_data_max = ISCSI_DEF_MAX_RECV_SEG_LEN;
module_param_cb(rx_data_max, &iser_rx_data_max_ops, &iser_rx_data_max, 0444);
MODULE_PARM_DESC(rx_data_max,
		 "Data bytes one receive buffer holds; logins declare no more (default 8192, 512 up to the largest kmalloc, 4194304 on x86-64)");

/*
 * How long a released connection keeps its cm_id for the CM to finish the
 * disconnect (see the top of this file). The CM bounds that itself: on
 * RoCE, Debian 12's RDMA/CM gives a DREQ 15 retries, each after about
 * 6.1 s (twice the packet lifetime of 2^18 * 4.096 us plus the response
 * timeout of 2^20 * 4.096 us), and reports RDMA_CM_EVENT_DISCONNECTED
 * after the last, about 98 s after the first. This is a backstop above
 * that, for a CM that reports nothing (a DREQ its device never sends), and
 * the replacement timeout open-iscsi gives a session by default: a path
 * back while iscsid still recovers the session carries the DREQ too.
 */
#define ISER_CM_LINGER_SECS	120

/*
 * A send queue that holds work and completes none of it for this long
 * fails its connection (iser_sq_watchdog(), which looks every
 * ISER_SQ_WATCH_MS): within 5 s of its last completion, timer slack
 * included. A correct target keeps a
 * receive posted for everything the initiator may send and its device
 * acknowledges each SEND at once, so a send that waits this long waits
 * for a target that stopped receiving (receiver-not-ready retries, which
 * an RNR retry count of 7 repeats for ever) or for a path that stopped
 * carrying packets (soft-RoCE retries for ever at a retry count of 7),
 * or it sits behind work the device will never execute (a send queue
 * stopped without an error completion, issue 40). libiscsi would notice
 * none of them while the target keeps sending: its NOP-In pings count
 * as traffic, so it sends no NOP-Out of its own, and one would wait in
 * the stopped queue anyway. 5 s is open-iscsi's default NOP-Out timeout,
 * what an administrator already accepts as the time to call a silent
 * connection dead; 4 s without a completion, looked at twice a second,
 * fails it 4 to 4.5 s after its last completion, under 5 s with the
 * timer wheel's rounding (a few jiffies at this period).
 */
#define ISER_SQ_STALL_MS	4000
#define ISER_SQ_WATCH_MS	500

/* All connections, for device removal. */
static LIST_HEAD(iser_conns);
static DEFINE_MUTEX(iser_conns_mutex);	/* protects iser_conns, iser_conn.removing */

/* Woken whenever a connection is unbound from its iscsi_conn. */
static DECLARE_WAIT_QUEUE_HEAD(iser_unbind_wq);

/*
 * Failure reports (iser_conn_error()) and releases of connections whose
 * last reference is gone (iser_conn_put()).
 */
static struct workqueue_struct *iser_conn_wq;

static void iser_err_done(struct ib_cq *cq, struct ib_wc *wc)
{
	if (unlikely(wc->status != IB_WC_SUCCESS))
		iser_wc_error(wc, "registration/invalidation");
}

/**
 * iser_set_state() - move a connection to a new state
 * @ic:    connection
 * @state: new state
 *
 * A change iser_conn_state_change_ok() does not allow is a bug: it is
 * refused, and the first one warned about.
 *
 * Context: @ic->state_mutex held.
 * Return: true when @ic is in @state now.
 */
bool iser_set_state(struct iser_conn *ic, enum iser_conn_state state)
{
	lockdep_assert_held(&ic->state_mutex);
	if (!iser_conn_state_change_ok(ic->state, state)) {
		WARN_ONCE(1, KBUILD_MODNAME ": %pISpc: connection state change %s -> %s refused\n",
			  ic->cm_id ? &ic->cm_id->route.addr.dst_addr : NULL,
			  iser_conn_state_name(ic->state),
			  iser_conn_state_name(state));
		return false;
	}
	trace_iser_conn_state(ic, ic->state, state);
	ic->state = state;
	return true;
}

/*
 * The release of a connection nobody references any more: endpoint
 * disconnected, iscsi_conn unbound, so no iscsi_transport op reaches it.
 * Frees its device resources and queues the destruction of its cm_id:
 * at once unless the CM still has to finish a disconnect we started,
 * which ends the linger (iser_conn_cm_closed()). Under state_mutex, which
 * the CM handler holds, so that a CM event either comes before and is
 * seen here, or after and finds ISER_CONN_F_RELEASED set.
 */
static void iser_conn_release_work(struct work_struct *work)
{
	struct iser_conn *ic = container_of(work, struct iser_conn,
					    release_work);
	unsigned long delay = 0;

	del_timer_sync(&ic->sq_timer);
	iser_conn_free_hw(ic);
	mutex_lock(&ic->state_mutex);
	if (ic->cm_id && test_bit(ISER_CONN_F_DISCONNECTING, &ic->flags) &&
	    !test_bit(ISER_CONN_F_CM_CLOSED, &ic->flags))
		delay = ISER_CM_LINGER_SECS * HZ;
	ic->released = jiffies;
	set_bit(ISER_CONN_F_RELEASED, &ic->flags);
	queue_delayed_work(iser_conn_wq, &ic->destroy_work, delay);
	mutex_unlock(&ic->state_mutex);
}

/*
 * The end of a released connection: its cm_id, then the struct. Runs once
 * the linger ended (iser_conn_cm_closed(), iser_conn_wq_destroy()) or
 * timed out. A kick that comes while this runs requeues the work: the
 * cancel after rdma_destroy_id(), when neither the CM handler nor
 * iser_conn_wq_destroy() can reach @ic any more, drops it again.
 */
static void iser_conn_destroy_work(struct work_struct *work)
{
	struct iser_conn *ic = container_of(to_delayed_work(work),
					    struct iser_conn, destroy_work);
	bool closed = test_bit(ISER_CONN_F_CM_CLOSED, &ic->flags);
	unsigned int ms = jiffies_to_msecs(jiffies - ic->released);

	mutex_lock(&iser_conns_mutex);
	list_del(&ic->entry);
	mutex_unlock(&iser_conns_mutex);
	if (ic->cm_id) {
		trace_iser_cm_id_destroy(ic, ms, closed);
		if (test_bit(ISER_CONN_F_DISCONNECTING, &ic->flags) && !closed &&
		    ms >= ISER_CM_LINGER_SECS * MSEC_PER_SEC)
			dev_warn(&ic->cm_id->device->dev,
				 "%pISpc: the disconnect was not completed in %u s; destroying the connection's CM id\n",
				 &ic->cm_id->route.addr.dst_addr, ms / 1000);
	}
	iser_conn_destroy_id(ic);
	cancel_delayed_work(&ic->destroy_work);
	rdi_stats_free(&ic->stats);
	kfree(ic);
}

/*
 * What iser_conn_error() and iser_conn_fence() asked for, in process
 * context: the QP to the error state, the failure to libiscsi. Under
 * state_mutex, against iser_conn_terminate() and the unbind, which clears
 * iscsi_conn under it before libiscsi may free the connection: a report
 * queued before either finds them done and has nothing left to do. The
 * reference taken when the work was queued keeps @ic.
 */
static void iser_conn_err_work(struct work_struct *work)
{
	struct iser_conn *ic = container_of(work, struct iser_conn, err_work);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	bool live;
	int ret;

	mutex_lock(&ic->state_mutex);
	live = ic->state == ISER_CONN_UP || ic->state == ISER_CONN_TERMINATING;
	if (test_and_clear_bit(ISER_CONN_F_FENCE, &ic->flags) && live &&
	    !test_bit(ISER_CONN_F_DRAINED, &ic->flags)) {
		ret = ib_modify_qp(ic->queue.qp, &attr, IB_QP_STATE);
		if (ret)
			dev_err(&ic->dev->ib_dev->dev,
				"%pISpc: moving the QP to the error state failed: %d\n",
				&ic->cm_id->route.addr.dst_addr, ret);
	}
	if (test_and_clear_bit(ISER_CONN_F_REPORT, &ic->flags) && live &&
	    ic->iscsi_conn)
		iscsi_conn_failure(ic->iscsi_conn, ISCSI_ERR_CONN_FAILED);
	mutex_unlock(&ic->state_mutex);
	iser_conn_put(ic);
}

/*
 * The send queue watchdog: every ISER_SQ_WATCH_MS while the connection is
 * up, a send queue holding signaled work requests that has completed none
 * of them for ISER_SQ_STALL_MS fails the connection (a failed completion
 * does so at once: iser_wc_error()). It stops once the connection has
 * failed; iser_conn_terminate() waits for a run in progress.
 */
static void iser_sq_watchdog(struct timer_list *t)
{
	struct iser_conn *ic = from_timer(ic, t, sq_timer);
	unsigned long since;
	int busy;

	if (test_bit(ISER_CONN_F_ERROR, &ic->flags))
		return;
	busy = atomic_read(&ic->sq_busy);
	smp_rmb();	/* sq_progress was written before sq_busy changed */
	since = READ_ONCE(ic->sq_progress);
	if (busy > 0 &&
	    time_after(jiffies, since + msecs_to_jiffies(ISER_SQ_STALL_MS))) {
		dev_err(&ic->dev->ib_dev->dev,
			"%pISpc: send queue completed none of its %d work requests in %u ms; failing the connection\n",
			&ic->cm_id->route.addr.dst_addr, busy,
			jiffies_to_msecs(jiffies - since));
		iser_conn_error(ic);
		return;
	}
	mod_timer(&ic->sq_timer, jiffies + msecs_to_jiffies(ISER_SQ_WATCH_MS));
}

/**
 * iser_conn_alloc() - allocate an unconnected iSER connection
 *
 * Return: the connection with one reference (the endpoint's), or NULL.
 */
struct iser_conn *iser_conn_alloc(void)
{
	struct iser_conn *ic;

	ic = kzalloc(sizeof(*ic), GFP_KERNEL);
	if (!ic)
		return NULL;
	if (rdi_stats_init(&ic->stats)) {
		kfree(ic);
		return NULL;
	}
	kref_init(&ic->ref);
	timer_setup(&ic->sq_timer, iser_sq_watchdog, 0);
	INIT_WORK(&ic->err_work, iser_conn_err_work);
	INIT_WORK(&ic->release_work, iser_conn_release_work);
	INIT_DELAYED_WORK(&ic->destroy_work, iser_conn_destroy_work);
	mutex_init(&ic->state_mutex);
	init_completion(&ic->established);
	ic->state = ISER_CONN_CONNECTING;
	ic->err_cqe.done = iser_err_done;
	ic->rx_data_max = iser_rx_data_max;
	mutex_lock(&iser_conns_mutex);
	list_add_tail(&ic->entry, &iser_conns);
	mutex_unlock(&iser_conns_mutex);
	return ic;
}

/**
 * iser_conn_next_on_device() - a connection that device removal takes down
 * @ibdev: the RDMA device going away
 *
 * Return: a connection on @ibdev not taken before, marked
 * &iser_conn.removing, with a reference for the caller; NULL when none is
 * left.
 */
struct iser_conn *iser_conn_next_on_device(struct ib_device *ibdev)
{
	struct iser_conn *ic;

	mutex_lock(&iser_conns_mutex);
	list_for_each_entry(ic, &iser_conns, entry) {
		if (ic->removing || !ic->dev || ic->dev->ib_dev != ibdev)
			continue;
		/* released already: its queued work frees the device part */
		if (!kref_get_unless_zero(&ic->ref))
			continue;
		ic->removing = true;
		mutex_unlock(&iser_conns_mutex);
		return ic;
	}
	mutex_unlock(&iser_conns_mutex);
	return NULL;
}

/**
 * iser_conn_next_held() - a connection whose endpoint iscsid still holds
 *
 * For module unload, once the transport is unregistered: no ep_connect or
 * ep_disconnect can come any more, so nothing but the caller changes
 * &iser_conn.ep, and the endpoint's reference keeps the connection until
 * the caller disconnects it.
 *
 * Return: the endpoint of a connection not yet disconnected, or NULL.
 */
struct iscsi_endpoint *iser_conn_next_held(void)
{
	struct iscsi_endpoint *ep = NULL;
	struct iser_conn *ic;

	mutex_lock(&iser_conns_mutex);
	list_for_each_entry(ic, &iser_conns, entry) {
		if (ic->ep) {
			ep = ic->ep;
			break;
		}
	}
	mutex_unlock(&iser_conns_mutex);
	return ep;
}

/**
 * iser_conn_unbound() - wake those waiting for a connection to be unbound
 * @ic: connection whose &iser_conn.iscsi_conn was just cleared
 */
void iser_conn_unbound(struct iser_conn *ic)
{
	wake_up(&iser_unbind_wq);
}

/**
 * iser_conn_wait_unbound() - wait for a connection to lose its iscsi_conn
 * @ic:      connection
 * @timeout: in jiffies
 *
 * Context: process context, may sleep.
 * Return: true when @ic is unbound, false when @timeout passed first.
 */
bool iser_conn_wait_unbound(struct iser_conn *ic, unsigned long timeout)
{
	return wait_event_timeout(iser_unbind_wq, !READ_ONCE(ic->iscsi_conn),
				  timeout);
}

/*
 * The login buffers, and the large buffer every receive continues in: as
 * large as a login PDU or as what a full-feature PDU may be
 * (&iser_conn.rx_data_max), whichever is larger.
 */
static int iser_login_bufs_alloc(struct iser_conn *ic)
{
	struct ib_device *ibdev = ic->dev->ib_dev;
	int ret;

	ret = rdi_buf_alloc(ibdev, &ic->login_tx, ISER_LOGIN_DLEN,
			    DMA_TO_DEVICE);
	if (ret)
		return ret;
	ret = rdi_buf_alloc(ibdev, &ic->rx_spill,
			    max_t(u32, ISER_LOGIN_DLEN, ic->rx_data_max),
			    DMA_FROM_DEVICE);
	if (ret)
		goto err_free_tx;
	ret = iser_rx_ring_alloc(ic, &ic->login_rx, 1, ISER_LOGIN_DLEN);
	if (ret)
		goto err_free_spill;
	return 0;

err_free_spill:
	rdi_buf_free(ibdev, &ic->rx_spill);
err_free_tx:
	rdi_buf_free(ibdev, &ic->login_tx);
	return ret;
}

static void iser_login_bufs_free(struct iser_conn *ic)
{
	iser_rx_ring_free(ic, &ic->login_rx);
	rdi_buf_free(ic->dev->ib_dev, &ic->rx_spill);
	rdi_buf_free(ic->dev->ib_dev, &ic->login_tx);
}

/**
 * iser_conn_create_qp() - create the RDMA resources of a connection
 * @ic: connection whose route was just resolved
 *
 * Context: rdma_cm handler, @ic->state_mutex held.
 * Return: 0 or a negative errno; on error nothing is left allocated.
 */
int iser_conn_create_qp(struct iser_conn *ic)
{
	struct ib_device *ibdev = ic->cm_id->device;
	struct rdi_queue_attr qattr = {};
	int ret;

	lockdep_assert_held(&ic->state_mutex);

	ic->dev = rdi_device_get(ibdev);
	if (IS_ERR(ic->dev)) {
		ret = PTR_ERR(ic->dev);
		ic->dev = NULL;
		return ret;
	}
	if (!ic->dev->fr_supported) {
		dev_err(&ibdev->dev, "iSER needs fast registration\n");
		ret = -EOPNOTSUPP;
		goto err_put_dev;
	}

	ic->max_cmds = iser_sq_cmds(ibdev->attrs.max_qp_wr,
				    ISER_DOUT_WRS + RDI_DRAIN_WRS,
				    ISER_WR_PER_CMD, ISER_MAX_CMDS);
	if (ic->max_cmds < ISCSI_TOTAL_CMDS_MIN) {
		dev_err(&ibdev->dev,
			"iSER: %d work requests per queue leave room for %u commands, fewer than %d\n",
			ibdev->attrs.max_qp_wr, ic->max_cmds,
			ISCSI_TOTAL_CMDS_MIN);
		ret = -EINVAL;
		goto err_put_dev;
	}
	/*
	 * A PD of the connection's own, not rdi_core's shared one: an rkey
	 * is checked against the PD of the QP the request arrives on, and
	 * on a shared PD an MR stays reachable over every QP on it until it
	 * is invalidated or deregistered. After a drain, commands complete
	 * with their LOCAL_INV never executed, and the MRs are deregistered
	 * only by the release work: on a shared PD the target could go on
	 * using their keys over the session's next connection or another
	 * session's. Here they are reachable only through this QP, which
	 * the drain left in the error state. ib_srp does the same per
	 * channel.
	 */
	ic->pd = ib_alloc_pd(ibdev, 0);
	if (IS_ERR(ic->pd)) {
		ret = PTR_ERR(ic->pd);
		ic->pd = NULL;
		goto err_put_dev;
	}
	qattr.cq_mode = RDI_CQ_POOL;
	qattr.comp_vector = -1;
	qattr.send_wrs = ic->max_cmds * ISER_WR_PER_CMD + ISER_DOUT_WRS;
	/* the login receive may still be posted when the ring is */
	qattr.recv_wrs = ic->max_cmds + ISER_RX_EXTRA + 1;
	ic->max_send_sge = min_t(u32, ic->dev->max_sge, 1 + ISER_INLINE_SGES);
	qattr.max_send_sge = ic->max_send_sge;
	qattr.max_recv_sge = 2;
	qattr.context = ic;
	ret = rdi_queue_create(&ic->queue, ic->pd, ic->cm_id, &qattr);
	if (ret)
		goto err_dealloc_pd;

	/* The MR pool waits for the session's size: iser_conn_start(). */
	ic->max_sectors = READ_ONCE(iser_max_sectors);
	ic->sg_tablesize = min_t(u64, ic->dev->max_fr_pages,
				 ((u64)ic->max_sectors << SECTOR_SHIFT) /
				 ic->dev->mr_page_size + 1);

	ret = iser_login_bufs_alloc(ic);
	if (ret)
		goto err_destroy_queue;
	return 0;

err_destroy_queue:
	rdi_queue_destroy(&ic->queue, ic->cm_id);
err_dealloc_pd:
	ib_dealloc_pd(ic->pd);
	ic->pd = NULL;
err_put_dev:
	rdi_device_put(ic->dev);
	ic->dev = NULL;
	return ret;
}

/**
 * iser_conn_terminate() - stop all traffic on a connection
 * @ic: connection
 *
 * Disconnects and drains the QP; a connection attempt still running is
 * failed instead (its CM events find the state changed and bail out).
 * Idempotent.
 *
 * Context: process, @ic->state_mutex held.
 */
void iser_conn_terminate(struct iser_conn *ic)
{
	lockdep_assert_held(&ic->state_mutex);

	set_bit(ISER_CONN_F_ERROR, &ic->flags);
	/* with ISER_CONN_F_ERROR set the watchdog does not come back */
	del_timer_sync(&ic->sq_timer);
	switch (ic->state) {
	case ISER_CONN_CONNECTING:
	case ISER_CONN_FAILED:
		iser_set_state(ic, ISER_CONN_FAILED);
		complete_all(&ic->established);
		break;
	case ISER_CONN_UP:
	case ISER_CONN_TERMINATING:
		/* Only a QP that reached RTS has work requests to flush. */
		if (!rdma_disconnect(ic->cm_id))
			set_bit(ISER_CONN_F_DISCONNECTING, &ic->flags);
		rdi_queue_drain(&ic->queue);
		break;
	case ISER_CONN_DOWN:
		return;
	}
	/*
	 * The QP is in the error state (drained) or never reached RTR with
	 * a command sent: no rkey of ours can be reached through it.
	 */
	set_bit(ISER_CONN_F_DRAINED, &ic->flags);
	iser_set_state(ic, ISER_CONN_DOWN);
}

/**
 * iser_conn_free_hw() - free everything a connection holds on its device
 * @ic: connection, terminated (QP drained)
 *
 * Frees the MR pool, QP and CQ (rdi_queue_destroy()), the buffers, the PD
 * and the device reference; the cm_id stays (iser_conn_destroy_id()), and
 * the CM forgets the QP. Called by the release of the last reference or,
 * earlier, by device removal; the connection object itself stays valid
 * and every user checks @ic->queue.qp before touching the device. A CM
 * event that runs meanwhile finds the connection DOWN and touches none of
 * this.
 *
 * Context: process.
 */
void iser_conn_free_hw(struct iser_conn *ic)
{
	if (!ic->queue.qp)
		return;
	rdi_queue_destroy(&ic->queue, ic->cm_id);
	iser_rx_ring_free(ic, &ic->rx);
	iser_login_bufs_free(ic);
	ib_dealloc_pd(ic->pd);
	ic->pd = NULL;
	rdi_device_put(ic->dev);
	ic->dev = NULL;
}

/**
 * iser_conn_destroy_id() - destroy a connection's cm_id
 * @ic: connection whose device resources are freed (iser_conn_free_hw())
 *
 * Once this returns no CM event runs for @ic any more. Idempotent.
 *
 * Context: process, not under @ic->state_mutex (the CM handler takes it);
 * may wait for the fabric (see the top of this file).
 */
void iser_conn_destroy_id(struct iser_conn *ic)
{
	if (!ic->cm_id)
		return;
	rdma_destroy_id(ic->cm_id);
	ic->cm_id = NULL;
}

/**
 * iser_conn_cm_closed() - the CM has finished with a connection
 * @ic: connection whose cm_id reported RDMA_CM_EVENT_DISCONNECTED,
 *      TIMEWAIT_EXIT or DEVICE_REMOVAL
 *
 * Ends the linger of a released connection (its cm_id is destroyed now);
 * before the release, it keeps the release from starting one.
 *
 * Context: the CM handler, @ic->state_mutex held.
 */
void iser_conn_cm_closed(struct iser_conn *ic)
{
	lockdep_assert_held(&ic->state_mutex);
	set_bit(ISER_CONN_F_CM_CLOSED, &ic->flags);
	if (test_bit(ISER_CONN_F_RELEASED, &ic->flags))
		mod_delayed_work(iser_conn_wq, &ic->destroy_work, 0);
}

static void iser_conn_release(struct kref *ref)
{
	struct iser_conn *ic = container_of(ref, struct iser_conn, ref);

	queue_work(iser_conn_wq, &ic->release_work);
}

/**
 * iser_conn_put() - drop a reference, releasing the connection on the last
 * @ic: connection, terminated if this may be the last reference
 *
 * The last reference queues the release (iser_conn_release_work()) and
 * returns: the caller never waits for the fabric.
 *
 * Context: any.
 */
void iser_conn_put(struct iser_conn *ic)
{
	kref_put(&ic->ref, iser_conn_release);
}

/**
 * iser_conn_flush_releases() - wait for every queued connection release
 *
 * Device removal calls it, after it has freed the device resources of the
 * connections it could still take a reference on, for those whose release
 * was already queued: they hold the device until their work has run. A
 * released connection whose cm_id lingers holds nothing of the device but
 * the id, and RDMA/CM's own removal, which comes after ours, ends that
 * linger with RDMA_CM_EVENT_DEVICE_REMOVAL and waits for the id.
 *
 * Context: process; may wait for the fabric (see the top of this file).
 */
void iser_conn_flush_releases(void)
{
	flush_workqueue(iser_conn_wq);
}

/**
 * iser_conn_wq_create() - create the workqueue of failure reports and
 *	connection releases
 *
 * Unbound, at the default concurrency (hundreds of works): a release
 * waiting for one fabric must not hold up the release of a connection on
 * another, nor a failure report.
 *
 * Return: 0 or -ENOMEM.
 */
int iser_conn_wq_create(void)
{
	iser_conn_wq = alloc_workqueue("ib_iser_conn",
				       WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	return iser_conn_wq ? 0 : -ENOMEM;
}

/**
 * iser_conn_wq_destroy() - run the reports and releases still queued, end
 *	every linger, then free the workqueue; undoes iser_conn_wq_create()
 *
 * At module unload no connection is referenced any more, but cm_ids may
 * still linger for the CM (see the top of this file): they are destroyed
 * now, not after ISER_CM_LINGER_SECS, and the DREQs they still resend go
 * with them. No delayed work may outlive the workqueue.
 *
 * Context: process; may wait for the fabric.
 */
void iser_conn_wq_destroy(void)
{
	struct iser_conn *ic;

	/* every release queued so far has queued its destruction */
	flush_workqueue(iser_conn_wq);
	mutex_lock(&iser_conns_mutex);
	list_for_each_entry(ic, &iser_conns, entry)
		if (test_bit(ISER_CONN_F_RELEASED, &ic->flags))
			mod_delayed_work(iser_conn_wq, &ic->destroy_work, 0);
	mutex_unlock(&iser_conns_mutex);
	destroy_workqueue(iser_conn_wq);
}

/* Run iser_conn_err_work() soon; it drops the reference taken here. */
static void iser_conn_err_queue(struct iser_conn *ic)
{
	kref_get(&ic->ref);
	if (!queue_work(iser_conn_wq, &ic->err_work))
		iser_conn_put(ic);
}

/**
 * iser_conn_error() - report a connection failure to libiscsi, once
 * @ic: connection that saw a failed completion, a failed post, a bad PDU
 *      or a CM disconnect
 *
 * Marks the connection failed at once: nothing more is posted or
 * delivered on it. The report itself, iscsi_conn_failure(), takes
 * libiscsi's forward lock, which the transmit path holds when a post
 * fails there, and which task cleanup may hold, or hold back_lock under
 * (libiscsi takes the forward lock first): so it is made by
 * iser_conn_err_work(), never by the caller.
 *
 * Context: any; the caller holds a reference on @ic, or @ic is bound, or
 * it was terminated (then this does nothing).
 */
void iser_conn_error(struct iser_conn *ic)
{
	if (test_and_set_bit(ISER_CONN_F_ERROR, &ic->flags))
		return;
	rdi_stat_add(&ic->stats, RDI_STAT_ERRORS, 1);
	set_bit(ISER_CONN_F_REPORT, &ic->flags);
	iser_conn_err_queue(ic);
}

/**
 * iser_conn_fence() - fail a connection that left an rkey valid
 * @ic: connection a LOCAL_INV could not be posted on, for a command that
 *      completes anyway
 *
 * The command's pages go back to their owner while the target may still
 * reach them through the rkey, until the QP leaves RTS. That cannot be
 * done here: ib_modify_qp() may sleep (mlx5 takes a mutex and waits for
 * the firmware) and rdma_disconnect() does, while task cleanup runs under
 * libiscsi's spinlocks. So iser_conn_err_work() moves the QP to the error
 * state first thing, before it reports the failure, rather than leaving
 * it to iscsid's disconnect; the window is that work's latency. A failed
 * post is not expected: the send queue has room for every work request
 * a task may have posted (iser_alloc_pdu()), so this is a QP the device
 * refuses posts on.
 *
 * Context: any, as iser_conn_error().
 */
void iser_conn_fence(struct iser_conn *ic)
{
	set_bit(ISER_CONN_F_FENCE, &ic->flags);
	iser_conn_err_queue(ic);
	iser_conn_error(ic);
}

/**
 * iser_post_send() - post send work requests, counted for the watchdog
 * @ic:        connection
 * @first:     the first work request of a chain
 * @signaled:  how many of the chain are signaled; each completion of
 *             theirs calls iser_sq_done()
 *
 * Context: any.
 * Return: the error of ib_post_send(), after which nothing is counted.
 */
int iser_post_send(struct iser_conn *ic, const struct ib_send_wr *first,
		   int signaled)
{
	int ret;

	/* the queue was idle: the wait for a completion starts now */
	if (!atomic_read(&ic->sq_busy))
		WRITE_ONCE(ic->sq_progress, jiffies);
	/* the watchdog reads sq_busy, then sq_progress */
	smp_mb__before_atomic();
	atomic_add(signaled, &ic->sq_busy);
	ret = ib_post_send(ic->queue.qp, first, NULL);
	if (unlikely(ret))
		atomic_sub(signaled, &ic->sq_busy);
	return ret;
}

/**
 * iser_sq_done() - a signaled send work request posted by
 *	iser_post_send() completed, successfully or not
 * @ic: connection
 *
 * Context: the completion handler.
 */
void iser_sq_done(struct iser_conn *ic)
{
	WRITE_ONCE(ic->sq_progress, jiffies);
	/* the watchdog reads sq_busy, then sq_progress */
	smp_mb__before_atomic();
	atomic_dec(&ic->sq_busy);
}

/**
 * iser_sq_watchdog_start() - start watching a connection's send queue
 * @ic: connection that just came up
 *
 * Context: rdma_cm handler, @ic->state_mutex held.
 */
void iser_sq_watchdog_start(struct iser_conn *ic)
{
	lockdep_assert_held(&ic->state_mutex);
	mod_timer(&ic->sq_timer, jiffies + msecs_to_jiffies(ISER_SQ_WATCH_MS));
}

/**
 * iser_wc_error() - the one funnel for failed work completions
 * @wc:   the completion; its QP context is the connection
 * @what: kind of work request, for the log
 */
void iser_wc_error(struct ib_wc *wc, const char *what)
{
	struct iser_conn *ic = wc->qp->qp_context;
	char who[ISER_ADDR_STRLEN];

	trace_iser_wc_error(ic, wc);
	if (wc->status != IB_WC_WR_FLUSH_ERR) {
		snprintf(who, sizeof(who), "%pISpc",
			 &ic->cm_id->route.addr.dst_addr);
		rdi_wc_log(&wc->qp->device->dev, who, what, wc);
	}
	iser_conn_error(ic);
}

/**
 * iser_rx_ring_alloc() - allocate and map receive buffers
 * @ic:       connection (device), with its &iser_conn.rx_spill
 * @ring:     ring to fill
 * @nr:       number of buffers
 * @data_len: AHS and data segment bytes each receive takes, more than
 *            ISER_RX_INLINE and at most the size of &iser_conn.rx_spill
 *
 * Each buffer is ISER_RX_HEAD bytes of its own, continued by the part of
 * &iser_conn.rx_spill past its first ISER_RX_INLINE bytes, which all of
 * them share: a SEND of the headers and @data_len bytes fits any of them.
 *
 * Return: 0, -EINVAL or -ENOMEM; on error @ring is left empty.
 */
int iser_rx_ring_alloc(struct iser_conn *ic, struct iser_rx_ring *ring,
		       unsigned int nr, u32 data_len)
{
	struct ib_device *ibdev = ic->dev->ib_dev;
	u32 lkey = ic->pd->local_dma_lkey;
	unsigned int i;

	if (WARN_ON_ONCE(data_len <= ISER_RX_INLINE ||
			 data_len > ic->rx_spill.size))
		return -EINVAL;
	ring->desc = kcalloc(nr, sizeof(*ring->desc), GFP_KERNEL);
	if (!ring->desc)
		return -ENOMEM;
	ring->nr = nr;

	for (i = 0; i < nr; i++) {
		struct iser_rx_desc *desc = &ring->desc[i];

		if (rdi_buf_alloc(ibdev, &desc->head, ISER_RX_HEAD,
				  DMA_FROM_DEVICE))
			goto err_free_ring;
		desc->sge[0].addr = desc->head.dma;
		desc->sge[0].length = ISER_RX_HEAD;
		desc->sge[0].lkey = lkey;
		desc->sge[1].addr = ic->rx_spill.dma + ISER_RX_INLINE;
		desc->sge[1].length = data_len - ISER_RX_INLINE;
		desc->sge[1].lkey = lkey;
		desc->conn = ic;
		desc->cqe.done = iser_rx_done;
		desc->wr.wr_cqe = &desc->cqe;
		desc->wr.sg_list = desc->sge;
		desc->wr.num_sge = 2;
	}
	return 0;

err_free_ring:
	iser_rx_ring_free(ic, ring);
	return -ENOMEM;
}

/**
 * iser_rx_ring_free() - unmap and free receive buffers
 * @ic:   connection, QP drained
 * @ring: ring, also one iser_rx_ring_alloc() filled only in part; empty
 *        rings are ignored
 */
void iser_rx_ring_free(struct iser_conn *ic, struct iser_rx_ring *ring)
{
	struct ib_device *ibdev = ic->dev->ib_dev;
	unsigned int i;

	if (!ring->desc)
		return;
	for (i = 0; i < ring->nr; i++)
		rdi_buf_free(ibdev, &ring->desc[i].head);
	kfree(ring->desc);
	ring->desc = NULL;
	ring->nr = 0;
}

/**
 * iser_rx_ring_post() - post the full-feature receive ring, once
 * @ic: connection, bound: its ring allocated (iser_conn_bind())
 *
 * Called with the final login request, before it is posted: the target
 * is in full feature phase once it has sent the final login response,
 * and may send unexpected PDUs right behind it, before iscsid has set
 * the session up and started the connection. tgt's iSER sends a NOP-In
 * to every full-feature connection every 5 s, discovery sessions
 * included. A SEND that finds no receive posted waits for
 * receiver-not-ready retries on InfiniBand and RoCE, and ends the
 * connection on iWARP, which has none (soft-iWARP: "got TERMINATE",
 * DDP untagged buffer, no buffer). The final login response still lands
 * in the login buffer, posted before the ring. Called again by
 * iser_conn_start() for a connection whose final login request did not
 * post it; the second call posts nothing.
 *
 * Context: any; under libiscsi's forward lock from iser_send_mgmt().
 * Return: 0, or the error of ib_post_recv(); buffers already posted stay
 * with the QP until it is drained.
 */
int iser_rx_ring_post(struct iser_conn *ic)
{
	unsigned int i;
	int ret;

	if (test_and_set_bit(ISER_CONN_F_FFP, &ic->flags))
		return 0;
	for (i = 0; i < ic->rx.nr; i++) {
		ret = iser_post_recv(&ic->rx.desc[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * iser_post_recv() - (re)post one receive buffer
 * @desc: buffer, owned by the caller until posted
 *
 * Syncs its own part for the device; the shared &iser_conn.rx_spill is
 * given back by whoever read it (rx.c).
 *
 * Return: 0 or the error of ib_post_recv().
 */
int iser_post_recv(struct iser_rx_desc *desc)
{
	struct iser_conn *ic = desc->conn;
	struct ib_device *ibdev = ic->dev->ib_dev;

	ib_dma_sync_single_for_device(ibdev, desc->head.dma, ISER_RX_HEAD,
				      DMA_FROM_DEVICE);
	return ib_post_recv(ic->queue.qp, &desc->wr, NULL);
}
