// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The "iser" iscsi_transport: session, connection and host glue between
 * scsi_transport_iscsi/libiscsi (driven by iscsid over netlink) and our
 * RDMA connections.
 *
 * Connection life as iscsid drives it:
 *   ep_connect/ep_poll -> create_session(ep) -> create_conn -> bind_conn
 *   -> login PDUs (send_pdu) -> set_param... -> start_conn
 *   ... -> stop_conn and ep_disconnect, in either order -> destroy_conn
 *   -> destroy_session.
 * bind_conn takes a reference on the iser_conn for the iscsi_conn; it is
 * dropped by stop_conn (or destroy_conn if stop never came) once libiscsi
 * has cleaned up every task, so task cleanup can still reach the QP's MR
 * pool after the endpoint is gone.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_transport_iscsi.h>
#include <rdi/scsi.h>

#include "iser.h"
#include "transport.h"

static int iser_param_set_max_lun(const char *val,
				  const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, UINT_MAX);
}

static const struct kernel_param_ops iser_max_lun_ops = {
	.set	= iser_param_set_max_lun,
	.get	= param_get_uint,
};

static unsigned int iser_max_lun = 512;
module_param_cb(max_lun, &iser_max_lun_ops, &iser_max_lun, 0444);
MODULE_PARM_DESC(max_lun, "Max LUNs per session, > 0 (default 512)");

static bool iser_pi_enable;
module_param_named(pi_enable, iser_pi_enable, bool, 0444);
MODULE_PARM_DESC(pi_enable,
		 "Ask for T10-PI offload (default N); not offloaded by this driver: sessions log why and run without protection");

static struct scsi_transport_template *iser_scsi_transport;
static struct iscsi_transport iser_transport;

/**
 * struct iser_host - our part of an iSCSI host (one host per session)
 * @lock: protects @src
 * @src:  local address of the connection last bound to the session, shown
 *        as the host's ipaddress; ss_family 0 until the first bind. It is
 *        kept while the session recovers and replaced by the next bind.
 */
struct iser_host {
	spinlock_t lock;	/* protects @src */
	struct sockaddr_storage src;
};

static struct scsi_host_template iser_sht = {
	.module			= THIS_MODULE,
	.name			= "iSCSI Initiator over iSER",
	.queuecommand		= iscsi_queuecommand,
	.change_queue_depth	= scsi_change_queue_depth,
	.sg_tablesize		= SG_MAX_SEGMENTS,
	.cmd_per_lun		= ISER_MAX_CMDS,
	.eh_timed_out		= iscsi_eh_cmd_timed_out,
	.eh_abort_handler	= iscsi_eh_abort,
	.eh_device_reset_handler = iscsi_eh_device_reset,
	.eh_target_reset_handler = iscsi_eh_recover_target,
	.target_alloc		= iscsi_target_alloc,
	.proc_name		= "iscsi_iser",
	.this_id		= -1,
	.track_queue_depth	= 1,
	.cmd_size		= sizeof(struct iscsi_cmd),
};

static struct iscsi_cls_session *
iser_session_create(struct iscsi_endpoint *ep, u16 cmds_max, u16 qdepth,
		    u32 initial_cmdsn)
{
	struct iscsi_cls_session *cls_session;
	struct Scsi_Host *shost;
	struct iser_conn *ic;
	struct rdi_device *dev;

	if (!ep) {
		pr_err("session without an endpoint: iscsid too old\n");
		return NULL;
	}
	ic = ep->dd_data;

	shost = iscsi_host_alloc(&iser_sht, sizeof(struct iser_host), false);
	if (!shost)
		return NULL;
	spin_lock_init(&((struct iser_host *)iscsi_host_priv(shost))->lock);
	shost->transportt = iser_scsi_transport;
	shost->max_lun = iser_max_lun;
	shost->max_id = 0;
	shost->max_channel = 0;
	shost->max_cmd_len = 16;
	shost->cmd_per_lun = qdepth;

	mutex_lock(&ic->state_mutex);
	if (ic->state != ISER_CONN_UP) {
		mutex_unlock(&ic->state_mutex);
		goto err_free_host;
	}
	dev = ic->dev;
	shost->can_queue = min_t(u16, cmds_max, ic->max_cmds);
	shost->sg_tablesize = ic->sg_tablesize;
	shost->max_sectors = min(ic->max_sectors,
				 rdi_reg_max_sectors(dev, ic->sg_tablesize));
	rdi_scsi_host_reg_limits(shost, dev);
	/*
	 * T10-PI is not offloaded: the host advertises no protection, so PI
	 * I/O never reaches us. Someone who asked for it learns why.
	 */
	if (iser_pi_enable)
		dev_warn(&dev->ib_dev->dev,
			 "T10-PI requested but %s; session continues without protection information\n",
			 dev->integrity ? "ib_iser does not offload it" :
			 "the device has no integrity offload");
	if (iscsi_host_add(shost, dev->ib_dev->dev.parent)) {
		mutex_unlock(&ic->state_mutex);
		goto err_free_host;
	}
	mutex_unlock(&ic->state_mutex);

	cls_session = iscsi_session_setup(&iser_transport, shost,
					  shost->can_queue, 0,
					  sizeof(struct iser_task),
					  initial_cmdsn, 0);
	if (!cls_session)
		goto err_remove_host;
	return cls_session;

err_remove_host:
	iscsi_host_remove(shost, false);
err_free_host:
	iscsi_host_free(shost);
	return NULL;
}

static void iser_session_destroy(struct iscsi_cls_session *cls_session)
{
	struct Scsi_Host *shost = iscsi_session_to_shost(cls_session);

	iscsi_session_teardown(cls_session);
	iscsi_host_remove(shost, false);
	iscsi_host_free(shost);
}

static struct iscsi_cls_conn *
iser_conn_create(struct iscsi_cls_session *cls_session, u32 conn_idx)
{
	return iscsi_conn_setup(cls_session, 0, conn_idx);
}

/* Map the headers of every task of @session on @ic's device. */
static int iser_map_tasks(struct iser_conn *ic, struct iscsi_session *session)
{
	struct ib_device *ibdev = ic->dev->ib_dev;
	int i;

	for (i = 0; i < session->cmds_max; i++) {
		struct iser_task *it = session->cmds[i]->dd_data;
		u64 dma;

		dma = ib_dma_map_single(ibdev, &it->hdrs, ISER_HDRS_LEN,
					DMA_TO_DEVICE);
		if (ib_dma_mapping_error(ibdev, dma))
			goto err_unmap;
		it->hdrs_dma = dma;
	}
	return 0;

err_unmap:
	while (i--) {
		struct iser_task *it = session->cmds[i]->dd_data;

		ib_dma_unmap_single(ibdev, it->hdrs_dma, ISER_HDRS_LEN,
				    DMA_TO_DEVICE);
		it->hdrs_dma = 0;
	}
	return -ENOMEM;
}

static void iser_unmap_tasks(struct iser_conn *ic,
			     struct iscsi_session *session)
{
	int i;

	for (i = 0; i < session->cmds_max; i++) {
		struct iser_task *it = session->cmds[i]->dd_data;

		ib_dma_unmap_single(ic->dev->ib_dev, it->hdrs_dma,
				    ISER_HDRS_LEN, DMA_TO_DEVICE);
		it->hdrs_dma = 0;
	}
}

/**
 * iser_conn_drop_tasks() - take back what a session's tasks hold on a
 *	connection's device before the device goes
 * @ic: connection still bound once device removal stopped waiting for its
 *      unbind; QP drained
 *
 * Device removal frees a connection's device resources after waiting for
 * libiscsi to unbind it (device.c). If that wait ran out, tasks still hold
 * an MR of the connection's pool and a DMA mapping of their data, every
 * task's headers are mapped, and the pool, the PD and the device are about
 * to be freed under them. Under the session's forward lock (the transmit
 * path) and back lock (libiscsi's task cleanup, iser_data_release()),
 * each task gives its MR back and its data is unmapped now, and
 * ISER_CONN_F_HW_GONE tells the cleanup still to come that nothing is left
 * on the device; then the headers and Data-Out descriptors are unmapped.
 * The connection failed before the wait began, so nothing is transmitted
 * on it any more.
 *
 * Context: process, @ic->state_mutex held.
 */
void iser_conn_drop_tasks(struct iser_conn *ic)
{
	struct iscsi_conn *conn = ic->iscsi_conn;
	struct iscsi_session *session;
	int i;

	lockdep_assert_held(&ic->state_mutex);
	if (!conn || !ic->queue.qp)
		return;
	session = conn->session;
	spin_lock_bh(&session->frwd_lock);
	spin_lock_bh(&session->back_lock);
	for (i = 0; i < session->cmds_max; i++)
		iser_data_release(ic, session->cmds[i]->dd_data);
	set_bit(ISER_CONN_F_HW_GONE, &ic->flags);
	spin_unlock_bh(&session->back_lock);
	spin_unlock_bh(&session->frwd_lock);
	iser_dout_free(ic, session);
	iser_unmap_tasks(ic, session);
}

static void iser_host_set_src(struct Scsi_Host *shost,
			      const struct sockaddr_storage *src)
{
	struct iser_host *ih = iscsi_host_priv(shost);

	spin_lock(&ih->lock);
	ih->src = *src;
	spin_unlock(&ih->lock);
}

/*
 * The network device the iface of @shost (NULL when iscsid connects
 * without a host) is bound to: the netdev name iscsid set on it, or NULL
 * when @shost is not an iSER host or names none ("default" is iscsid's
 * word for none). The name is replaced by iscsid's set_host_param: use it
 * only under scsi_transport_iscsi's netlink mutex, as iscsi_transport ops
 * run.
 */
static const char *iser_host_netdev(struct Scsi_Host *shost)
{
	struct iscsi_host *ihost;

	if (!shost || shost->hostt != &iser_sht)
		return NULL;
	ihost = shost_priv(shost);
	if (!ihost->netdev || !*ihost->netdev ||
	    !strcmp(ihost->netdev, "default"))
		return NULL;
	return ihost->netdev;
}

/*
 * ep_connect: iscsid connects through @shost (EP_CONNECT_THROUGH_HOST) on
 * reconnects and when its iface names a network device; the endpoint
 * starts from that device's address (iser_ep_connect()).
 */
static struct iscsi_endpoint *
iser_transport_ep_connect(struct Scsi_Host *shost, struct sockaddr *dst_addr,
			  int non_blocking)
{
	return iser_ep_connect(iser_host_netdev(shost), dst_addr, non_blocking);
}

static int iser_get_host_param(struct Scsi_Host *shost,
			       enum iscsi_host_param param, char *buf)
{
	struct iser_host *ih = iscsi_host_priv(shost);
	struct sockaddr_storage src;

	if (param != ISCSI_HOST_PARAM_IPADDRESS)
		return iscsi_host_get_param(shost, param, buf);
	spin_lock(&ih->lock);
	src = ih->src;
	spin_unlock(&ih->lock);
	if (!src.ss_family)
		return -ENOTCONN;
	return iscsi_conn_get_addr_param(&src,
					 (enum iscsi_param)ISCSI_HOST_PARAM_IPADDRESS,
					 buf);
}

static int iser_conn_bind(struct iscsi_cls_session *cls_session,
			  struct iscsi_cls_conn *cls_conn, u64 ep_handle,
			  int is_leading)
{
	struct iscsi_conn *conn = cls_conn->dd_data;
	struct iscsi_endpoint *ep;
	struct iser_conn *ic;
	int ret;

	ep = iscsi_lookup_endpoint(ep_handle);
	if (!ep) {
		pr_err("bind to unknown endpoint %llu\n", ep_handle);
		return -EINVAL;
	}
	ic = ep->dd_data;

	mutex_lock(&ic->state_mutex);
	if (ic->state != ISER_CONN_UP || ic->iscsi_conn) {
		ret = -EINVAL;
		goto out_unlock;
	}
	ret = iser_map_tasks(ic, conn->session);
	if (ret)
		goto out_unlock;
	/*
	 * The full-feature receive ring goes out with the final login
	 * request (iser_send_mgmt()), under libiscsi's forward lock: it is
	 * allocated here. One buffer per task and ISER_RX_EXTRA for
	 * unexpected PDUs, each taking as much as the shared buffer holds:
	 * a login response too, should the target not make the transition.
	 */
	ret = iser_rx_ring_alloc(ic, &ic->rx,
				 conn->session->cmds_max + ISER_RX_EXTRA,
				 ic->rx_spill.size);
	if (ret)
		goto err_unmap;
	ret = iscsi_conn_bind(cls_session, cls_conn, is_leading);
	if (ret)
		goto err_free_ring;
	kref_get(&ic->ref);
	conn->dd_data = ic;
	WRITE_ONCE(ic->iscsi_conn, conn);
	if (is_leading)
		iser_host_set_src(iscsi_session_to_shost(cls_session),
				  &ic->cm_id->route.addr.src_addr);

out_unlock:
	mutex_unlock(&ic->state_mutex);
	iscsi_put_endpoint(ep);
	return ret;

err_free_ring:
	/* nothing of it was posted: the connection had no login yet */
	iser_rx_ring_free(ic, &ic->rx);
err_unmap:
	iser_unmap_tasks(ic, conn->session);
	goto out_unlock;
}

static int iser_conn_start(struct iscsi_cls_conn *cls_conn)
{
	struct iscsi_conn *conn = cls_conn->dd_data;
	struct iser_conn *ic = conn->dd_data;
	struct iscsi_session *session = conn->session;
	u32 dlen;
	int ret;

	if (!ic)
		return -EINVAL;

	mutex_lock(&ic->state_mutex);
	if (ic->state != ISER_CONN_UP) {
		ret = -ENOTCONN;
		goto out_unlock;
	}

	/*
	 * Every receive takes the largest data segment the target may send:
	 * its own inline part, then the shared rx_spill, sized for
	 * ic->rx_data_max (rx.c). The login declared at most that (see
	 * iser_login_cap_rx()); iscsid may still hand down its own, larger
	 * value when the target does not echo the key: the declaration is
	 * what binds the target, so hold to it and show it in sysfs. If no
	 * declaration could be lowered, a larger value cannot be honoured:
	 * refuse the connection instead of failing on the first large PDU.
	 */
	dlen = max_t(u32, conn->max_recv_dlength, ISCSI_MIN_MAX_RECV_SEG_LEN);
	if (dlen > ic->rx_data_max) {
		if (!test_bit(ISER_CONN_F_RX_CAPPED, &ic->flags)) {
			iscsi_conn_printk(KERN_ERR, conn,
					  "MaxRecvDataSegmentLength %u exceeds the receive buffers (rx_data_max %u)\n",
					  conn->max_recv_dlength,
					  ic->rx_data_max);
			ret = -EINVAL;
			goto out_unlock;
		}
		dlen = ic->rx_data_max;
		conn->max_recv_dlength = dlen;
	}
	/*
	 * What a start allocates, it allocates once per connection: a start
	 * that failed past this point (the ring's post, iscsi_conn_start())
	 * keeps it, and a start of the same connection again must neither
	 * leak the Data-Out descriptors nor add a second set of MRs to the
	 * QP's pool. They are given back at unbind and with the QP.
	 */
	if (!test_bit(ISER_CONN_F_STARTED, &ic->flags)) {
		ret = iser_dout_alloc(ic, session);
		if (ret)
			goto out_unlock;
		/*
		 * One MR per task: only SCSI commands register memory, one MR
		 * each (iser_data_map()), and libiscsi never has more than
		 * cmds_max tasks.
		 */
		ret = rdi_mr_pool_init(ic->dev, ic->queue.qp,
				       session->cmds_max, ic->sg_tablesize);
		if (ret) {
			iscsi_conn_printk(KERN_ERR, conn,
					  "MR pool of %d creation failed: %d\n",
					  session->cmds_max, ret);
			goto err_free_dout;
		}
		set_bit(ISER_CONN_F_STARTED, &ic->flags);
	}
	/* posted with the final login request, unless none went through us */
	ret = iser_rx_ring_post(ic);
	if (ret)
		goto err_unlock_posted;
	mutex_unlock(&ic->state_mutex);

	return iscsi_conn_start(cls_conn);

err_free_dout:
	iser_dout_free(ic, session);
out_unlock:
	mutex_unlock(&ic->state_mutex);
	return ret;

err_unlock_posted:
	/* posted buffers stay with the QP until it is drained and freed */
	mutex_unlock(&ic->state_mutex);
	return ret;
}

/*
 * Drop the iscsi_conn's hold on its RDMA connection once libiscsi no longer
 * uses any task mapped on it.
 */
static void iser_conn_unbind(struct iscsi_conn *conn)
{
	struct iser_conn *ic = conn->dd_data;

	if (!ic)
		return;
	mutex_lock(&ic->state_mutex);
	/* after device removal, iser_conn_drop_tasks() unmapped them */
	if (ic->queue.qp) {
		iser_dout_free(ic, conn->session);
		iser_unmap_tasks(ic, conn->session);
	}
	WRITE_ONCE(ic->iscsi_conn, NULL);
	/* under the forward lock for iser_get_stats() */
	spin_lock_bh(&conn->session->frwd_lock);
	conn->dd_data = NULL;
	spin_unlock_bh(&conn->session->frwd_lock);
	mutex_unlock(&ic->state_mutex);
	iser_conn_unbound(ic);
	iser_conn_put(ic);
}

static void iser_conn_stop(struct iscsi_cls_conn *cls_conn, int flag)
{
	struct iscsi_conn *conn = cls_conn->dd_data;
	struct iser_conn *ic = conn->dd_data;

	if (ic) {
		mutex_lock(&ic->state_mutex);
		iser_conn_terminate(ic);
		mutex_unlock(&ic->state_mutex);
	}
	/* With the QP drained, this cleans up every task. */
	iscsi_conn_stop(cls_conn, flag);
	iser_conn_unbind(conn);
}

static void iser_conn_destroy(struct iscsi_cls_conn *cls_conn)
{
	struct iscsi_conn *conn = cls_conn->dd_data;

	if (conn->dd_data)
		iser_conn_stop(cls_conn, STOP_CONN_TERM);
	iscsi_conn_teardown(cls_conn);
}

static int iser_set_param(struct iscsi_cls_conn *cls_conn,
			  enum iscsi_param param, char *buf, int buflen)
{
	int value;

	switch (param) {
	case ISCSI_PARAM_HDRDGST_EN:
	case ISCSI_PARAM_DATADGST_EN:
	case ISCSI_PARAM_IFMARKER_EN:
	case ISCSI_PARAM_OFMARKER_EN:
		if (kstrtoint(buf, 10, &value))
			return -EINVAL;
		if (value) {
			iscsi_conn_printk(KERN_ERR, cls_conn->dd_data,
					  "iSER carries no digests or markers (param %d)\n",
					  param);
			return -EPROTO;
		}
		return 0;
	default:
		return iscsi_set_param(cls_conn, param, buf, buflen);
	}
}

static int iser_init_task(struct iscsi_task *task)
{
	struct iser_task *it = task->dd_data;

	it->conn = NULL;
	it->cmd_sent = false;
	it->inv = ISER_INV_NONE;
	it->tmf_ended = false;
	it->sg_nents = 0;
	it->reg.mr = NULL;
	return 0;
}

static void iser_cleanup_task(struct iscsi_task *task)
{
	struct iser_task *it = task->dd_data;

	struct scsi_cmnd *sc = task->sc;
	enum rdi_stat dir;

	if (!sc || !it->conn)
		return;
	if (it->cmd_sent && sc->sc_data_direction != DMA_NONE) {
		dir = sc->sc_data_direction == DMA_TO_DEVICE ?
		      RDI_STAT_WRITE_BYTES : RDI_STAT_READ_BYTES;
		rdi_stat_add(&it->conn->stats, dir,
			     scsi_bufflen(sc) - scsi_get_resid(sc));
	}
	iser_data_release(it->conn, it);
	it->cmd_sent = false;
}

/*
 * libiscsi calls this first whenever it hands out a task, for a SCSI
 * command or a management PDU. A task it ended may still have work
 * requests on the send queue: a target may answer a command whose SEND
 * waits behind another one, and the LOCAL_INV of a command ended without
 * an answer is posted as it ends. Handed out again, the task would
 * rewrite headers a SEND still reads, and would post its next work
 * requests beside those: a target that keeps answering commands it has
 * not received while our send queue waits for it would overflow the
 * queue. So the task waits: -ENOMEM makes libiscsi requeue a SCSI
 * command and fail a management PDU. Then a task never has more work
 * requests posted than ISER_WR_PER_CMD (plus its Data-Out PDUs, which
 * have room of their own), and the send queue has room for all of them.
 */
static int iser_alloc_pdu(struct iscsi_task *task, u8 opcode)
{
	struct iser_task *it = task->dd_data;

	/* the last use's connection, which task cleanup must not see again */
	it->conn = NULL;
	if (atomic_read(&it->wrs))
		return -ENOMEM;
	task->hdr = &it->hdrs.bhs;
	task->hdr_max = sizeof(it->hdrs.bhs);
	return 0;
}

static void iser_get_stats(struct iscsi_cls_conn *cls_conn,
			   struct iscsi_stats *stats)
{
	struct iscsi_conn *conn = cls_conn->dd_data;
	struct iser_conn *ic;
	int i;

	stats->txdata_octets = conn->txdata_octets;
	stats->rxdata_octets = conn->rxdata_octets;
	stats->scsicmd_pdus = conn->scsicmd_pdus_cnt;
	stats->dataout_pdus = conn->dataout_pdus_cnt;
	stats->scsirsp_pdus = conn->scsirsp_pdus_cnt;
	stats->datain_pdus = conn->datain_pdus_cnt;
	stats->r2t_pdus = conn->r2t_pdus_cnt;
	stats->tmfcmd_pdus = conn->tmfcmd_pdus_cnt;
	stats->tmfrsp_pdus = conn->tmfrsp_pdus_cnt;
	stats->custom_length = 0;
	/*
	 * A failing connection is unbound (iser_conn_unbind()) by
	 * scsi_transport_iscsi's cleanup work, which nothing serialises with
	 * this netlink request: the unbind clears conn->dd_data under the
	 * forward lock before it drops its reference, so under that lock a
	 * connection seen here is still allocated.
	 */
	spin_lock_bh(&conn->session->frwd_lock);
	ic = conn->dd_data;
	if (ic) {
		for (i = 0; i < RDI_STAT_NR; i++) {
			strscpy(stats->custom[i].desc, rdi_stat_name(i),
				sizeof(stats->custom[i].desc));
			stats->custom[i].value = rdi_stats_read(&ic->stats, i);
		}
		stats->custom_length = RDI_STAT_NR;
	}
	spin_unlock_bh(&conn->session->frwd_lock);
}

static umode_t iser_attr_is_visible(int param_type, int param)
{
	switch (param_type) {
	case ISCSI_HOST_PARAM:
		switch (param) {
		case ISCSI_HOST_PARAM_NETDEV_NAME:
		case ISCSI_HOST_PARAM_HWADDRESS:
		case ISCSI_HOST_PARAM_IPADDRESS:
		case ISCSI_HOST_PARAM_INITIATOR_NAME:
			return 0444;
		default:
			return 0;
		}
	case ISCSI_PARAM:
		switch (param) {
		case ISCSI_PARAM_MAX_RECV_DLENGTH:
		case ISCSI_PARAM_MAX_XMIT_DLENGTH:
		case ISCSI_PARAM_HDRDGST_EN:
		case ISCSI_PARAM_DATADGST_EN:
		case ISCSI_PARAM_CONN_ADDRESS:
		case ISCSI_PARAM_CONN_PORT:
		case ISCSI_PARAM_EXP_STATSN:
		case ISCSI_PARAM_PERSISTENT_ADDRESS:
		case ISCSI_PARAM_PERSISTENT_PORT:
		case ISCSI_PARAM_PING_TMO:
		case ISCSI_PARAM_RECV_TMO:
		case ISCSI_PARAM_INITIAL_R2T_EN:
		case ISCSI_PARAM_MAX_R2T:
		case ISCSI_PARAM_IMM_DATA_EN:
		case ISCSI_PARAM_FIRST_BURST:
		case ISCSI_PARAM_MAX_BURST:
		case ISCSI_PARAM_PDU_INORDER_EN:
		case ISCSI_PARAM_DATASEQ_INORDER_EN:
		case ISCSI_PARAM_TARGET_NAME:
		case ISCSI_PARAM_TPGT:
		case ISCSI_PARAM_USERNAME:
		case ISCSI_PARAM_PASSWORD:
		case ISCSI_PARAM_USERNAME_IN:
		case ISCSI_PARAM_PASSWORD_IN:
		case ISCSI_PARAM_FAST_ABORT:
		case ISCSI_PARAM_ABORT_TMO:
		case ISCSI_PARAM_LU_RESET_TMO:
		case ISCSI_PARAM_TGT_RESET_TMO:
		case ISCSI_PARAM_IFACE_NAME:
		case ISCSI_PARAM_INITIATOR_NAME:
		case ISCSI_PARAM_DISCOVERY_SESS:
			return 0444;
		default:
			return 0;
		}
	}
	return 0;
}

static struct iscsi_transport iser_transport = {
	.owner			= THIS_MODULE,
	.name			= "iser",
	.caps			= CAP_RECOVERY_L0 | CAP_MULTI_R2T |
				  CAP_TEXT_NEGO,
	.create_session		= iser_session_create,
	.destroy_session	= iser_session_destroy,
	.create_conn		= iser_conn_create,
	.bind_conn		= iser_conn_bind,
	.unbind_conn		= iscsi_conn_unbind,
	.destroy_conn		= iser_conn_destroy,
	.attr_is_visible	= iser_attr_is_visible,
	.set_param		= iser_set_param,
	.get_conn_param		= iscsi_conn_get_param,
	.get_ep_param		= iser_ep_get_param,
	.get_session_param	= iscsi_session_get_param,
	.start_conn		= iser_conn_start,
	.stop_conn		= iser_conn_stop,
	.get_host_param		= iser_get_host_param,
	.set_host_param		= iscsi_host_set_param,
	.send_pdu		= iscsi_conn_send_pdu,
	.get_stats		= iser_get_stats,
	.init_task		= iser_init_task,
	.xmit_task		= iser_xmit_task,
	.cleanup_task		= iser_cleanup_task,
	.alloc_pdu		= iser_alloc_pdu,
	.session_recovery_timedout = iscsi_session_recovery_timedout,
	.ep_connect		= iser_transport_ep_connect,
	.ep_poll		= iser_ep_poll,
	.ep_disconnect		= iser_ep_disconnect,
};

/**
 * iser_transport_register() - register the "iser" transport
 *
 * Return: 0 or a negative errno.
 */
int iser_transport_register(void)
{
	iser_scsi_transport = iscsi_register_transport(&iser_transport);
	return iser_scsi_transport ? 0 : -ENODEV;
}

/**
 * iser_transport_unregister() - undo iser_transport_register()
 */
void iser_transport_unregister(void)
{
	iscsi_unregister_transport(&iser_transport);
}
