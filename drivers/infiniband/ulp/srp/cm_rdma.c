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

static int srp_rdma_cm_handler(struct rdma_cm_id *id,
			       struct rdma_cm_event *ev)
{
	struct srp_channel *ch = id->context;
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
		srp_cm_login_reply(ch, ev->param.conn.private_data,
				   ev->param.conn.private_data_len);
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
		return 0;
	default:
		return 0;
	}
	complete(&ch->login_done);
	return 0;
}

static int srp_rdma_cm_wait(struct srp_channel *ch)
{
	unsigned long tmo = msecs_to_jiffies(SRP_RESOLVE_TIMEOUT_MS +
					     SRP_RESOLVE_EVENT_MS);

	if (!wait_for_completion_timeout(&ch->login_done, tmo))
		return -ETIMEDOUT;
	return ch->status;
}

static int srp_rdma_cm_init(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;
	struct srp_host *host = target->host;
	struct srp_target_opts *o = &target->opts;
	struct sockaddr *src = NULL;
	struct rdma_cm_id *id;
	int ret;

	id = rdma_create_id(&init_net, srp_rdma_cm_handler, ch, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	ch->rdma_id = id;

	if (srp_target_opts_has(o, SRP_OPT_SRC))
		src = (struct sockaddr *)&o->src;
	reinit_completion(&ch->login_done);
	ch->status = -ETIMEDOUT;
	ret = rdma_resolve_addr(id, src, (struct sockaddr *)&o->dest,
				SRP_RESOLVE_TIMEOUT_MS);
	if (!ret)
		ret = srp_rdma_cm_wait(ch);
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
	return rdi_queue_create(&ch->queue, ch->pd, ch->rdma_id, attr);
}

/*
 * Through the CM id while there is one, so that it forgets the QP; after
 * srp_ch_release() destroyed it, nothing of the RDMA/CM refers to the QP.
 */
static void srp_rdma_cm_destroy_qp(struct srp_channel *ch)
{
	rdi_queue_destroy(&ch->queue, ch->rdma_id);
}

static int srp_rdma_cm_connect(struct srp_channel *ch,
			       const struct srp_login_params *p)
{
	struct ib_device *dev = ch->target->host->sdev->ib_dev;
	struct srp_iu_login_req_rdma req;
	struct rdma_conn_param param = {};

	srp_build_login_req_rdma(&req, p);
	param.private_data = &req;
	param.private_data_len = sizeof(req);
	param.flow_control = 1;
	param.responder_resources = min_t(int, SRP_RESPONDER_RESOURCES,
					  dev->attrs.max_qp_rd_atom);
	param.initiator_depth = 0;
	param.retry_count = ch->target->opts.tl_retry_count;
	param.rnr_retry_count = SRP_RNR_RETRY_COUNT;
	return rdma_connect(ch->rdma_id, &param);
}

static void srp_rdma_cm_disconnect(struct srp_channel *ch)
{
	if (ch->rdma_id)
		rdma_disconnect(ch->rdma_id);
}

static void srp_rdma_cm_destroy(struct srp_channel *ch)
{
	if (!ch->rdma_id)
		return;
	rdma_destroy_id(ch->rdma_id);
	ch->rdma_id = NULL;
}

const struct srp_cm_ops srp_rdma_cm_ops = {
	.init		= srp_rdma_cm_init,
	.create_qp	= srp_rdma_cm_create_qp,
	.destroy_qp	= srp_rdma_cm_destroy_qp,
	.connect	= srp_rdma_cm_connect,
	.disconnect	= srp_rdma_cm_disconnect,
	.destroy	= srp_rdma_cm_destroy,
};
