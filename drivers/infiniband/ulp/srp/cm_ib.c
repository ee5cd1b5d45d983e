// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: channel connection over the InfiniBand CM (srp_daemon logins).
 *
 * Only InfiniBand ports can do this: the path comes from the subnet
 * administrator, the 64-byte SRP_LOGIN_REQ travels as REQ private data,
 * the SRP_LOGIN_RSP as REP private data. A port redirect reject changes the
 * destination GID and the login is retried. Everything after the CM
 * exchange is shared with RDMA/CM (login.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_cache.h>
#include <scsi/scsi_host.h>
#include <rdi/compat.h>

#include "device.h"
#include "channel.h"
#include "login.h"
#include "cm.h"

enum {
	SRP_PATH_REC_TIMEOUT_MS	= 1000,
	SRP_CM_RESPONSE_TIMEOUT	= 20,	/* 4.096 us * 2^20 ~ 4 s */
	SRP_MAX_CM_RETRIES	= 15,
	SRP_IB_RNR_RETRY	= 7,
	SRP_IB_RESPONDER_RES	= 4,
	/* Offset of RedirectGID in the ClassPortInfo of a port redirect. */
	SRP_CPI_REDIRECT_GID	= 8,
};

static struct ib_sa_client srp_sa_client;

static void srp_path_done(int status, struct sa_path_rec *rec,
			  RDI_SA_NUM_PRS_TYPE num, void *context)
{
	struct srp_channel *ch = context;

	if (status || !rec || !num) {
		ch->status = status ? status : -ENOENT;
	} else {
		ch->path = *rec;
		ch->status = 0;
	}
	complete(&ch->path_done);
}

static int srp_ib_query_path(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;
	struct srp_host *host = target->host;
	struct ib_sa_query *query;
	int id;

	memset(&ch->path, 0, sizeof(ch->path));
	ch->path.rec_type = SA_PATH_REC_TYPE_IB;
	ch->path.sgid = target->sgid;
	ch->path.dgid = target->dgid;
	ch->path.pkey = cpu_to_be16(target->opts.pkey);
	ch->path.service_id = cpu_to_be64(target->opts.service_id);
	sa_path_set_dmac_zero(&ch->path);

	reinit_completion(&ch->path_done);
	ch->status = -ETIMEDOUT;
	id = ib_sa_path_rec_get(&srp_sa_client, host->sdev->ib_dev, host->port,
				&ch->path,
				IB_SA_PATH_REC_SERVICE_ID | IB_SA_PATH_REC_DGID |
				IB_SA_PATH_REC_SGID | IB_SA_PATH_REC_NUMB_PATH |
				IB_SA_PATH_REC_PKEY,
				SRP_PATH_REC_TIMEOUT_MS, GFP_KERNEL,
				srp_path_done, ch, &query);
	if (id < 0)
		return id;
	/* The SA calls back once, within its timeout, whatever happens. */
	wait_for_completion(&ch->path_done);
	if (ch->status)
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u: no path record to %pI6 (pkey %#06x): %d\n",
			     ch->idx, target->dgid.raw, target->opts.pkey,
			     ch->status);
	return ch->status;
}

static void srp_ib_cm_redirect(struct srp_channel *ch,
			       const struct ib_cm_event *ev)
{
	const struct ib_cm_rej_event_param *rej = &ev->param.rej_rcvd;
	struct srp_target *target = ch->target;

	if (rej->ari_length < SRP_CPI_REDIRECT_GID + sizeof(target->dgid)) {
		ch->status = -ECONNRESET;
		return;
	}
	memcpy(target->dgid.raw, (u8 *)rej->ari + SRP_CPI_REDIRECT_GID,
	       sizeof(target->dgid));
	shost_printk(KERN_INFO, target->shost,
		     "channel %u: redirected to %pI6\n", ch->idx,
		     target->dgid.raw);
	ch->status = SRP_CM_RETRY_REDIRECT;
}

static void srp_ib_cm_rej(struct srp_channel *ch, const struct ib_cm_event *ev)
{
	enum ib_cm_rej_reason reason = ev->param.rej_rcvd.reason;

	switch (reason) {
	case IB_CM_REJ_CONSUMER_DEFINED:
		srp_cm_login_reject(ch, ev->private_data,
				    IB_CM_REJ_PRIVATE_DATA_SIZE);
		return;
	case IB_CM_REJ_PORT_REDIRECT:
		srp_ib_cm_redirect(ch, ev);
		return;
	case IB_CM_REJ_STALE_CONN:
		ch->status = SRP_CM_RETRY_STALE;
		break;
	default:
		ch->status = -ECONNREFUSED;
		break;
	}
	shost_printk(KERN_WARNING, ch->target->shost,
		     "channel %u: IB CM reject: %s (%d)\n", ch->idx,
		     ibcm_reject_msg(reason), reason);
}

/* REP received: move the QP to RTR and RTS, then send the RTU. */
static void srp_ib_cm_rep(struct srp_channel *ch, struct ib_cm_id *id,
			  const struct ib_cm_event *ev)
{
	struct ib_qp_attr attr = {};
	int mask, ret;

	ret = srp_cm_login_reply(ch, ev->private_data,
				 IB_CM_REP_PRIVATE_DATA_SIZE);
	if (ret)
		goto err_status;

	attr.qp_state = IB_QPS_RTR;
	ret = ib_cm_init_qp_attr(id, &attr, &mask);
	if (!ret)
		ret = ib_modify_qp(ch->queue.qp, &attr, mask);
	if (ret)
		goto err_status;
	attr.qp_state = IB_QPS_RTS;
	ret = ib_cm_init_qp_attr(id, &attr, &mask);
	if (!ret)
		ret = ib_modify_qp(ch->queue.qp, &attr, mask);
	if (!ret)
		ret = ib_send_cm_rtu(id, NULL, 0);
	if (!ret) {
		/* The SCSI timeout must outlast the transport's retries. */
		if (mask & IB_QP_TIMEOUT && mask & IB_QP_RETRY_CNT)
			WRITE_ONCE(ch->target->rc_give_up_ms,
				   srp_rc_give_up_ms(attr.timeout,
						     attr.retry_cnt));
		/* the login is done: publish it (srp_cm_login_reply()) */
		smp_store_release(&ch->status, 0);
		return;
	}
err_status:
	ch->status = ret;
	ib_send_cm_rej(id, IB_CM_REJ_CONSUMER_DEFINED, NULL, 0, NULL, 0);
}

static void srp_ib_cm_event(struct srp_channel *ch, struct ib_cm_id *id,
			    const struct ib_cm_event *ev)
{
	switch (ev->event) {
	case IB_CM_REP_RECEIVED:
		srp_ib_cm_rep(ch, id, ev);
		break;
	case IB_CM_REJ_RECEIVED:
		srp_ib_cm_rej(ch, ev);
		break;
	case IB_CM_REQ_ERROR:
	case IB_CM_REP_ERROR:
		ch->status = -ECONNRESET;
		break;
	case IB_CM_DREQ_RECEIVED:
		ib_send_cm_drep(id, NULL, 0);
		srp_cm_disconnected(ch);
		return;
	default:
		return;
	}
	complete(&ch->login_done);
}

/*
 * Events of an id the channel has let go of are dropped, but for the end
 * of a disconnect, which ends the id's linger (srp_cm_id_closed()): a
 * DREQ from the target is answered then. Returning 0 keeps the id for
 * srp_ib_cm_destroy_work().
 */
static int srp_ib_cm_handler(struct ib_cm_id *id, const struct ib_cm_event *ev)
{
	struct srp_cm_id *cid = id->context;

	mutex_lock(&cid->lock);
	if (cid->ch)
		srp_ib_cm_event(cid->ch, id, ev);
	switch (ev->event) {
	case IB_CM_DREQ_RECEIVED:
		if (!cid->ch)
			ib_send_cm_drep(id, NULL, 0);
		fallthrough;
	case IB_CM_DREP_RECEIVED:
	case IB_CM_DREQ_ERROR:
	case IB_CM_TIMEWAIT_EXIT:
		srp_cm_id_closed(cid);
		break;
	default:
		break;
	}
	mutex_unlock(&cid->lock);
	return 0;
}

static void srp_ib_cm_destroy_work(struct work_struct *work)
{
	struct srp_cm_id *cid = container_of(to_delayed_work(work),
					     struct srp_cm_id, destroy);

	srp_cm_id_unlist(cid);
	ib_destroy_cm_id(cid->ib);
	srp_cm_id_free(cid);
}

static int srp_ib_cm_init(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;
	struct srp_host *host = target->host;
	struct srp_cm_id *cid;
	struct ib_cm_id *id;
	int ret;

	cid = srp_cm_id_new(ch, srp_ib_cm_destroy_work);
	if (!cid)
		return -ENOMEM;
	id = ib_create_cm_id(host->sdev->ib_dev, srp_ib_cm_handler, cid);
	if (IS_ERR(id)) {
		kfree(cid);
		return PTR_ERR(id);
	}
	cid->ib = id;
	ch->cm_id = cid;

	ret = srp_ib_query_path(ch);
	if (ret)
		return ret;
	return srp_ch_create_ib(ch);
}

static int srp_ib_cm_create_qp(struct srp_channel *ch,
			       const struct rdi_queue_attr *qattr)
{
	struct srp_target *target = ch->target;
	struct srp_host *host = target->host;
	struct ib_qp_attr attr = {};
	u16 pkey_index;
	int ret;

	ret = ib_find_cached_pkey(host->sdev->ib_dev, host->port,
				  target->opts.pkey, &pkey_index);
	if (ret)
		return ret;

	ret = rdi_queue_create(&ch->queue, ch->pd, NULL, qattr);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = pkey_index;
	attr.port_num = host->port;
	attr.qp_access_flags = IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE;
	ret = ib_modify_qp(ch->queue.qp, &attr, IB_QP_STATE |
			   IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		rdi_queue_destroy(&ch->queue, NULL);
	return ret;
}

/*
 * The REP handler moves the QP to RTR and RTS, and a REP can come long
 * after the login gave up: srp_ch_release() lets go of the CM id, waiting
 * for that handler, before the QP goes.
 */
static void srp_ib_cm_destroy_qp(struct srp_channel *ch)
{
	rdi_queue_destroy(&ch->queue, NULL);
}

static int srp_ib_cm_connect(struct srp_channel *ch,
			     const struct srp_login_params *p)
{
	struct srp_target *target = ch->target;
	struct srp_iu_login_req req;
	struct ib_cm_req_param param = {};

	srp_build_login_req(&req, p);
	param.primary_path = &ch->path;
	param.service_id = cpu_to_be64(target->opts.service_id);
	param.qp_num = ch->queue.qp->qp_num;
	param.qp_type = ch->queue.qp->qp_type;
	param.starting_psn = get_random_u32() & 0xffffff;
	param.private_data = &req;
	param.private_data_len = sizeof(req);
	param.responder_resources = SRP_IB_RESPONDER_RES;
	param.flow_control = 1;
	param.retry_count = target->opts.tl_retry_count;
	param.rnr_retry_count = SRP_IB_RNR_RETRY;
	param.max_cm_retries = SRP_MAX_CM_RETRIES;
	param.local_cm_response_timeout = SRP_CM_RESPONSE_TIMEOUT;
	param.remote_cm_response_timeout = SRP_CM_RESPONSE_TIMEOUT;
	return ib_send_cm_req(ch->cm_id->ib, &param);
}

/* A DREQ goes out only on an established connection: its id waits for it. */
static void srp_ib_cm_disconnect(struct srp_channel *ch)
{
	struct srp_cm_id *cid = ch->cm_id;

	if (cid && !ib_send_cm_dreq(cid->ib, NULL, 0))
		set_bit(SRP_CM_ID_DISCONNECTING, &cid->flags);
}

const struct srp_cm_ops srp_ib_cm_ops = {
	.init		= srp_ib_cm_init,
	.create_qp	= srp_ib_cm_create_qp,
	.destroy_qp	= srp_ib_cm_destroy_qp,
	.connect	= srp_ib_cm_connect,
	.disconnect	= srp_ib_cm_disconnect,
};

/** srp_ib_cm_register() - register with the subnet administrator client */
void srp_ib_cm_register(void)
{
	ib_sa_register_client(&srp_sa_client);
}

/** srp_ib_cm_unregister() - undo srp_ib_cm_register() */
void srp_ib_cm_unregister(void)
{
	ib_sa_unregister_client(&srp_sa_client);
}
