// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * iSER endpoints: the RDMA/CM connection iscsid asks for before it creates
 * a session (ep_connect), waits for (ep_poll) and tears down
 * (ep_disconnect).
 *
 * Unlike the in-tree driver, the connection is made in the network
 * namespace of the caller (iscsid) and, when iscsid connects through a host
 * whose iface names a network device, from that device's address (see
 * docs/iser.md for when iscsid does).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <net/addrconf.h>
#include <net/net_namespace.h>
#include <scsi/scsi_transport_iscsi.h>

#include "iser.h"

#define ISER_RESOLVE_TIMEOUT_MS	1000

static bool iser_remote_inv = true;
module_param_named(remote_invalidate, iser_remote_inv, bool, 0444);
MODULE_PARM_DESC(remote_invalidate,
		 "Offer the target Send with Invalidate (default Y)");

static void iser_cm_fail(struct iser_conn *ic, int err)
{
	ic->cm_error = err;
	iser_set_state(ic, ISER_CONN_FAILED);
	complete_all(&ic->established);
}

static void iser_route_resolved(struct iser_conn *ic)
{
	struct ib_device *ibdev = ic->cm_id->device;
	struct rdma_conn_param param = {};
	struct iser_cm_priv priv;
	int ret;

	ret = iser_conn_create_qp(ic);
	if (ret)
		goto fail;

	iser_cm_req_encode(&priv, iser_remote_inv);
	param.responder_resources = ibdev->attrs.max_qp_rd_atom;
	param.initiator_depth = 1;
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	param.private_data = &priv;
	param.private_data_len = sizeof(priv);
	ret = rdma_connect_locked(ic->cm_id, &param);
	if (ret) {
		pr_err("%pISpc: rdma_connect failed: %d\n",
		       &ic->cm_id->route.addr.dst_addr, ret);
		goto fail;
	}
	return;
fail:
	iser_cm_fail(ic, ret);
}

static void iser_established(struct iser_conn *ic,
			     const struct rdma_conn_param *param)
{
	ic->remote_inv = iser_remote_inv &&
			 iser_cm_rep_send_inv(param->private_data,
					      param->private_data_len);
	pr_info("%pISpc: connected from %pISc on %s, %s invalidation\n",
		&ic->cm_id->route.addr.dst_addr,
		&ic->cm_id->route.addr.src_addr,
		dev_name(&ic->dev->ib_dev->dev),
		ic->remote_inv ? "remote" : "local");
	iser_set_state(ic, ISER_CONN_UP);
	iser_sq_watchdog_start(ic);
	complete_all(&ic->established);
}

static int iser_cm_handler(struct rdma_cm_id *cm_id,
			   struct rdma_cm_event *ev)
{
	struct iser_conn *ic = cm_id->context;
	int ret;

	mutex_lock(&ic->state_mutex);
	pr_debug("%pISpc: %s (status %d), state %d\n",
		 &cm_id->route.addr.dst_addr, rdma_event_msg(ev->event),
		 ev->status, ic->state);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		if (ic->state != ISER_CONN_CONNECTING)
			break;
		ret = rdma_resolve_route(cm_id, ISER_RESOLVE_TIMEOUT_MS);
		if (ret)
			iser_cm_fail(ic, ret);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		if (ic->state == ISER_CONN_CONNECTING)
			iser_route_resolved(ic);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (ic->state == ISER_CONN_CONNECTING)
			iser_established(ic, &ev->param.conn);
		break;
	case RDMA_CM_EVENT_REJECTED:
		pr_info("%pISpc: connection rejected: %s\n",
			&cm_id->route.addr.dst_addr,
			rdma_reject_msg(cm_id, ev->status));
		fallthrough;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		if (ic->state == ISER_CONN_CONNECTING)
			iser_cm_fail(ic, -ECONNREFUSED);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		/* the CM is done: a released connection's cm_id may go */
		iser_conn_cm_closed(ic);
		fallthrough;
	case RDMA_CM_EVENT_ADDR_CHANGE:
		if (ic->state == ISER_CONN_UP) {
			iser_set_state(ic, ISER_CONN_TERMINATING);
			iser_conn_error(ic);
		} else if (ic->state == ISER_CONN_CONNECTING) {
			iser_cm_fail(ic, -ENOTCONN);
		}
		break;
	default:
		break;
	}
	mutex_unlock(&ic->state_mutex);
	return 0;
}

/**
 * iser_netdev_saddr6() - IPv6 source address of a network device
 * @net:  namespace of @ndev
 * @ndev: device to connect from
 * @dst:  destination
 * @src:  the address source address selection prefers on @ndev for @dst;
 *        a link-local one is scoped to @ndev
 *
 * Return: 0, or -EADDRNOTAVAIL when @ndev has no address for @dst.
 */
static int iser_netdev_saddr6(struct net *net, struct net_device *ndev,
			      const struct sockaddr_in6 *dst,
			      struct sockaddr_in6 *src)
{
	if (!IS_ENABLED(CONFIG_IPV6))
		return -EAFNOSUPPORT;
	/* selection may prefer another device's address: not a binding */
	if (ipv6_dev_get_saddr(net, ndev, &dst->sin6_addr, 0,
			       &src->sin6_addr) ||
	    !ipv6_chk_addr(net, &src->sin6_addr, ndev, 0))
		return -EADDRNOTAVAIL;
	src->sin6_family = AF_INET6;
	if (ipv6_addr_type(&src->sin6_addr) & IPV6_ADDR_LINKLOCAL)
		src->sin6_scope_id = ndev->ifindex;
	return 0;
}

/**
 * iser_src_addr() - source address of a connection bound to a netdev
 * @name: network device the connection is bound to, or NULL
 * @dst:  target portal
 * @src:  source address to bind, when 1 is returned
 *
 * A connection bound to a network device gets that device's address in
 * the caller's network namespace: for IPv4 its primary address (on @dst's
 * subnet if it has one there), for IPv6 the one source address selection
 * picks on it.
 *
 * Return: 1 with @src set, 0 when the connection is not bound, or a
 * negative errno when the device or a usable address on it is missing.
 */
static int iser_src_addr(const char *name, struct sockaddr *dst,
			 struct sockaddr_storage *src)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)src;
	struct net *net = current->nsproxy->net_ns;
	struct net_device *ndev;
	int ret = 1;

	if (!name)
		return 0;
	ndev = dev_get_by_name(net, name);
	if (!ndev) {
		pr_warn("%pISpc: iface netdev %s not found\n", dst, name);
		return -ENODEV;
	}
	memset(src, 0, sizeof(*src));
	switch (dst->sa_family) {
	case AF_INET:
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr =
			inet_select_addr(ndev,
					 ((struct sockaddr_in *)dst)->sin_addr.s_addr,
					 RT_SCOPE_UNIVERSE);
		if (!sin->sin_addr.s_addr)
			ret = -EADDRNOTAVAIL;
		break;
	case AF_INET6:
		ret = iser_netdev_saddr6(net, ndev, (struct sockaddr_in6 *)dst,
					 (struct sockaddr_in6 *)src) ?: 1;
		break;
	default:
		ret = -EAFNOSUPPORT;
		break;
	}
	if (ret < 0)
		pr_warn("%pISpc: no address on iface netdev %s: %d\n", dst,
			name, ret);
	dev_put(ndev);
	return ret;
}

/**
 * iser_ep_connect() - start connecting an endpoint
 * @netdev:       network device whose address the connection starts from
 *                (the iface of the host iscsid connects through), or NULL
 *                for the address the route picks; read only during the
 *                call
 * @dst_addr:     target portal
 * @non_blocking: return at once; iscsid polls with ep_poll
 *
 * The ep_connect of the iscsi_transport (iser_transport_ep_connect()).
 *
 * Return: the endpoint, or an ERR_PTR.
 */
struct iscsi_endpoint *iser_ep_connect(const char *netdev,
				       struct sockaddr *dst_addr,
				       int non_blocking)
{
	struct sockaddr_storage src;
	struct iscsi_endpoint *ep;
	struct iser_conn *ic;
	int has_src, ret;

	has_src = iser_src_addr(netdev, dst_addr, &src);
	if (has_src < 0)
		return ERR_PTR(has_src);

	ep = iscsi_create_endpoint(0);
	if (!ep)
		return ERR_PTR(-ENOMEM);
	ic = iser_conn_alloc();
	if (!ic) {
		ret = -ENOMEM;
		goto err_destroy_ep;
	}
	ic->ep = ep;
	ep->dd_data = ic;
	iser_stats_add(ic);

	ic->cm_id = rdma_create_id(current->nsproxy->net_ns, iser_cm_handler,
				   ic, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(ic->cm_id)) {
		ret = PTR_ERR(ic->cm_id);
		ic->cm_id = NULL;
		goto err_put_conn;
	}

	ret = rdma_resolve_addr(ic->cm_id,
				has_src ? (struct sockaddr *)&src : NULL,
				dst_addr, ISER_RESOLVE_TIMEOUT_MS);
	if (ret) {
		pr_err("%pISpc: address resolution failed: %d\n", dst_addr,
		       ret);
		goto err_put_conn;
	}

	if (!non_blocking) {
		ret = wait_for_completion_interruptible(&ic->established);
		if (!ret)
			ret = iser_ep_poll(ep, 0);
		if (ret < 0)
			goto err_terminate;
	}
	return ep;

err_terminate:
	mutex_lock(&ic->state_mutex);
	iser_conn_terminate(ic);
	mutex_unlock(&ic->state_mutex);
err_put_conn:
	/* the endpoint id, and so the debugfs name, may be reused now */
	iser_stats_remove(ic);
	iser_conn_put(ic);
err_destroy_ep:
	iscsi_destroy_endpoint(ep);
	return ERR_PTR(ret);
}

/**
 * iser_ep_poll() - wait for an endpoint to connect (iscsi_transport op)
 * @ep:         endpoint
 * @timeout_ms: how long to wait at most
 *
 * Return: 1 when connected, 0 when still connecting, a negative errno when
 * the attempt failed or the wait was interrupted.
 */
int iser_ep_poll(struct iscsi_endpoint *ep, int timeout_ms)
{
	struct iser_conn *ic = ep->dd_data;
	unsigned long tmo = msecs_to_jiffies(timeout_ms);
	long left;
	int ret;

	left = wait_for_completion_interruptible_timeout(&ic->established, tmo);
	if (left < 0)
		return left;

	mutex_lock(&ic->state_mutex);
	switch (ic->state) {
	case ISER_CONN_UP:
		ret = 1;
		break;
	case ISER_CONN_CONNECTING:
		ret = 0;
		break;
	default:
		ret = ic->cm_error ?: -ENOTCONN;
		break;
	}
	mutex_unlock(&ic->state_mutex);
	return ret;
}

/**
 * iser_ep_disconnect() - tear an endpoint down (iscsi_transport op)
 * @ep: endpoint; freed on return
 *
 * The RDMA connection is stopped here; its resources go, on a workqueue,
 * once the bound iscsi connection, if any, is stopped as well. Nothing
 * here waits for the peer or the fabric.
 */
void iser_ep_disconnect(struct iscsi_endpoint *ep)
{
	struct iser_conn *ic = ep->dd_data;

	mutex_lock(&ic->state_mutex);
	iser_conn_terminate(ic);
	ic->ep = NULL;
	mutex_unlock(&ic->state_mutex);

	/* the endpoint id, and so the debugfs name, may be reused now */
	iser_stats_remove(ic);
	iscsi_destroy_endpoint(ep);
	iser_conn_put(ic);
}

/**
 * iser_ep_disconnect_all() - disconnect the endpoints iscsid still holds
 *
 * At module unload, once the transport is unregistered, iscsid can no
 * longer disconnect an endpoint it got from ep_connect. A connection still
 * resolving its address or route, logging in, or connected but never
 * bound would keep a CM id whose next event runs this module's handler
 * after the module is gone. Each is disconnected as ep_disconnect does;
 * the CM ids go with the releases that iser_conn_wq_destroy() waits for.
 *
 * Context: process, module unload.
 */
void iser_ep_disconnect_all(void)
{
	struct iscsi_endpoint *ep;

	while ((ep = iser_conn_next_held())) {
		pr_warn("unloading: endpoint %d was not disconnected by iscsid; disconnecting it\n",
			ep->id);
		iser_ep_disconnect(ep);
	}
}

/**
 * iser_ep_get_param() - report endpoint addresses (iscsi_transport op)
 * @ep:    endpoint
 * @param: ISCSI_PARAM_CONN_ADDRESS or ISCSI_PARAM_CONN_PORT
 * @buf:   sysfs buffer
 *
 * Return: bytes written or a negative errno.
 */
int iser_ep_get_param(struct iscsi_endpoint *ep, enum iscsi_param param,
		      char *buf)
{
	struct iser_conn *ic = ep->dd_data;

	switch (param) {
	case ISCSI_PARAM_CONN_ADDRESS:
	case ISCSI_PARAM_CONN_PORT:
		if (!ic || !ic->cm_id)
			return -ENOTCONN;
		return iscsi_conn_get_addr_param((struct sockaddr_storage *)
				&ic->cm_id->route.addr.dst_addr, param, buf);
	default:
		return -EOPNOTSUPP;
	}
}
