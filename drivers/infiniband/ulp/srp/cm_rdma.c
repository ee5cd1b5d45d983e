// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: channel connection over RDMA/CM (RoCE, iWARP, IB with IPoIB).
 *
 * The login request travels as REQ private data in the 56-byte layout
 * ib_srpt parses for RDMA/CM; the SRP_LOGIN_RSP arrives as the private data
 * of the ESTABLISHED event and an SRP_LOGIN_REJ as consumer-defined reject
 * data. Addresses come from the dest= and src= keys and are resolved in the
 * initial network namespace.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <net/net_namespace.h>
#include <scsi/scsi_host.h>

#include "device.h"
#include "channel.h"
#include "login.h"
#include "cm.h"

enum {
	SRP_RESOLVE_TIMEOUT_MS	= 5000,
	/* beyond it, for the event of a resolution RDMA/CM timed out */
	SRP_RESOLVE_EVENT_MS	= 1000,
	SRP_RNR_RETRY_COUNT	= 7,
	SRP_RESPONDER_RESOURCES	= 4,
};

static void srp_rdma_cm_event(struct srp_channel *ch, struct rdma_cm_id *id,
			      struct rdma_cm_event *ev)
{
	struct Scsi_Host *shost = ch->target->shost;
	const void *data;
	u8 len;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		ch->status = 0;
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		shost_printk(KERN_WARNING, shost,
			     "channel %u: cannot resolve %pISpc: %d\n",
			     ch->idx, &ch->target->opts.dest, ev->status);
		ch->status = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		shost_printk(KERN_WARNING, shost,
			     "channel %u: no route to %pISpc: %d\n",
			     ch->idx, &ch->target->opts.dest, ev->status);
		ch->status = -ENETUNREACH;
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		shost_printk(KERN_WARNING, shost,
			     "channel %u: %s connecting to %pISpc: %d\n",
			     ch->idx, rdma_event_msg(ev->event),
			     &ch->target->opts.dest, ev->status);
		ch->status = -ECONNRESET;
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		/* publish the verdict: the waiter reads it with an acquire */
		smp_store_release(&ch->status,
				  srp_cm_login_reply(ch, ev->param.conn.private_data,
						     ev->param.conn.private_data_len));
		break;
	case RDMA_CM_EVENT_REJECTED:
		data = rdma_consumer_reject_data(id, ev, &len);
		if (data) {
			srp_cm_login_reject(ch, data, len);
		} else {
			shost_printk(KERN_WARNING, shost,
				     "channel %u: connection to %pISpc rejected: %s (%d)\n",
				     ch->idx, &ch->target->opts.dest,
				     rdma_reject_msg(id, ev->status),
				     ev->status);
			ch->status = -ECONNREFUSED;
		}
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		srp_cm_disconnected(ch);
		return;
	default:
		return;
	}
	complete(&ch->login_done);
}

/*
 * Events of an id the channel has let go of are dropped, but for the end
 * of a disconnect, which ends the id's linger (srp_cm_id_closed());
 * returning 0 keeps the id for srp_rdma_cm_destroy_work(), which may be
 * under way.
 */
static int srp_rdma_cm_handler(struct rdma_cm_id *id,
			       struct rdma_cm_event *ev)
{
	struct srp_cm_id *cid = id->context;

	mutex_lock(&cid->lock);
	if (ev->event == RDMA_CM_EVENT_ESTABLISHED)
		set_bit(SRP_CM_ID_ESTABLISHED, &cid->flags);
	if (cid->ch)
		srp_rdma_cm_event(cid->ch, id, ev);
	switch (ev->event) {
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		srp_cm_id_closed(cid);
		break;
	default:
		break;
	}
	mutex_unlock(&cid->lock);
	return 0;
}

static void srp_rdma_cm_destroy_work(struct work_struct *work)
{
	struct srp_cm_id *cid = container_of(to_delayed_work(work),
					     struct srp_cm_id, destroy);

	srp_cm_id_unlist(cid);
	rdma_destroy_id(cid->rdma);
	srp_cm_id_free(cid);
}

/*
 * Wait for a resolution's event, within the login's deadline; a login
 * abandoned meanwhile (srp_ch_login_abandon()) ends the wait.
 */
static int srp_rdma_cm_wait(struct srp_channel *ch)
{
	unsigned long tmo = msecs_to_jiffies(SRP_RESOLVE_TIMEOUT_MS +
					     SRP_RESOLVE_EVENT_MS);

	tmo = min(tmo, srp_ch_login_left(ch));
	if (!srp_ch_login_broken(ch) &&
	    !wait_for_completion_timeout(&ch->login_done, tmo))
		return -ETIMEDOUT;
	if (srp_ch_login_broken(ch))
		return -ECONNABORTED;
	return ch->status;
}

static int srp_rdma_cm_init(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;
	struct srp_host *host = target->host;
	struct srp_target_opts *o = &target->opts;
	struct sockaddr *src = NULL;
	struct srp_cm_id *cid;
	struct rdma_cm_id *id;
	int ret;

	cid = srp_cm_id_new(ch, srp_rdma_cm_destroy_work);
	if (!cid)
		return -ENOMEM;
	id = rdma_create_id(&init_net, srp_rdma_cm_handler, cid, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id)) {
		kfree(cid);
		return PTR_ERR(id);
	}
	cid->rdma = id;
	ch->cm_id = cid;

	if (srp_target_opts_has(o, SRP_OPT_SRC))
		src = (struct sockaddr *)&o->src;
	reinit_completion(&ch->login_done);
	ch->status = -ETIMEDOUT;
	ret = rdma_resolve_addr(id, src, (struct sockaddr *)&o->dest,
				SRP_RESOLVE_TIMEOUT_MS);
	if (!ret)
		ret = srp_rdma_cm_wait(ch);
	if (ret && src) {
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u: resolving %pISpc from src=%pISc failed: %d\n",
			     ch->idx, &o->dest, src, ret);
		return ret;
	}
	if (ret) {
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u: resolving %pISpc failed: %d\n",
			     ch->idx, &o->dest, ret);
		return ret;
	}

	if (id->device != host->sdev->ib_dev || id->port_num != host->port) {
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u: %pISpc is reached through %s port %u, not through %s port %u where add_target was written\n",
			     ch->idx, &o->dest, dev_name(&id->device->dev),
			     id->port_num, dev_name(&host->sdev->ib_dev->dev),
			     host->port);
		return -ENETUNREACH;
	}

	reinit_completion(&ch->login_done);
	ch->status = -ETIMEDOUT;
	ret = rdma_resolve_route(id, SRP_RESOLVE_TIMEOUT_MS);
	if (!ret)
		ret = srp_rdma_cm_wait(ch);
	if (ret) {
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u: route to %pISpc failed: %d\n",
			     ch->idx, &o->dest, ret);
		return ret;
	}

	return srp_ch_create_ib(ch);
}

static int srp_rdma_cm_create_qp(struct srp_channel *ch,
				 const struct rdi_queue_attr *attr)
{
	return rdi_queue_create(&ch->queue, ch->pd, ch->cm_id->rdma, attr);
}

/*
 * Through the CM id, so that it forgets the QP: srp_ch_release() destroys
 * the QP before it puts the id away.
 */
static void srp_rdma_cm_destroy_qp(struct srp_channel *ch)
{
	rdi_queue_destroy(&ch->queue, ch->cm_id ? ch->cm_id->rdma : NULL);
}

static int srp_rdma_cm_connect(struct srp_channel *ch,
			       const struct srp_login_params *p)
{
	const struct srp_host *host = ch->target->host;
	struct ib_device *dev = host->sdev->ib_dev;
	struct srp_iu_login_req_rdma req;
	struct rdma_conn_param param = {};

	srp_build_login_req_rdma(&req, p);
	param.private_data = &req;
	param.private_data_len = sizeof(req);
	param.flow_control = 1;
	param.responder_resources = min_t(int, SRP_RESPONDER_RESOURCES,
					  dev->attrs.max_qp_rd_atom);
	/* iWARP: one RDMA READ in flight, the keep-alive probe (keepalive.c) */
	param.initiator_depth = rdma_protocol_iwarp(dev, host->port) ?
				min_t(int, 1, dev->attrs.max_qp_init_rd_atom) : 0;
	param.retry_count = ch->target->opts.tl_retry_count;
	param.rnr_retry_count = SRP_RNR_RETRY_COUNT;
	return rdma_connect(ch->cm_id->rdma, &param);
}

/*
 * rdma_disconnect() returns 0 whether a DREQ went out or not (it answers
 * a DREQ received, and does nothing before the connection is up): only an
 * established connection's id waits for the DREQ's answer.
 */
static void srp_rdma_cm_disconnect(struct srp_channel *ch)
{
	struct srp_cm_id *cid = ch->cm_id;

	if (cid && !rdma_disconnect(cid->rdma) &&
	    test_bit(SRP_CM_ID_ESTABLISHED, &cid->flags))
		set_bit(SRP_CM_ID_DISCONNECTING, &cid->flags);
}

const struct srp_cm_ops srp_rdma_cm_ops = {
	.init		= srp_rdma_cm_init,
	.create_qp	= srp_rdma_cm_create_qp,
	.destroy_qp	= srp_rdma_cm_destroy_qp,
	.connect	= srp_rdma_cm_connect,
	.disconnect	= srp_rdma_cm_disconnect,
};
