// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Peer resolution with rdma-core's libraries:
 *  - librdmacm resolves an IP address to the local RDMA device and port
 *    (and, on InfiniBand, to a path record with the peer's LID and GID);
 *  - on RoCE, libibverbs' neighbour resolution gives the peer's MAC, whose
 *    link-local GID is the one the peer's MAD layer answers DM requests on
 *    (an IPv4-mapped GID as destination gets no usable reply);
 *  - the GID table says which local GID index is the link-local one.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "peer.h"

static bool gid_is_link_local(const union ibv_gid *gid)
{
	return gid->raw[0] == 0xfe && (gid->raw[1] & 0xc0) == 0x80;
}

/* The GID a RoCE port carries for IP address @sa. */
static void ip_to_gid(const struct sockaddr *sa, union ibv_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (sa->sa_family == AF_INET) {
		gid->raw[10] = 0xff;
		gid->raw[11] = 0xff;
		memcpy(&gid->raw[12],
		       &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else {
		memcpy(gid->raw, &((const struct sockaddr_in6 *)sa)->sin6_addr,
		       16);
	}
}

/* Index of the GID table entry equal to @gid, RoCE v2 preferred over v1. */
static int gid_index_of(struct ibv_context *ctx, int port, int tbl_len,
			const union ibv_gid *gid, struct ibv_gid_entry *found)
{
	struct ibv_gid_entry e;
	int i, best = -1;

	for (i = 0; i < tbl_len; i++) {
		if (ibv_query_gid_ex(ctx, port, i, &e, 0) ||
		    memcmp(&e.gid, gid, sizeof(*gid)))
			continue;
		if (best < 0 || e.gid_type == IBV_GID_TYPE_ROCE_V2) {
			best = i;
			*found = e;
		}
	}
	return best;
}

/*
 * Index of a link-local GID on netdev @ifindex (0: any), preferably of
 * @type, so that DM requests leave with the same RoCE version.
 */
static int link_local_index(struct ibv_context *ctx, int port, int tbl_len,
			    uint32_t ifindex, uint32_t type,
			    struct ibv_gid_entry *found)
{
	struct ibv_gid_entry e;
	int i, best = -1;

	for (i = 0; i < tbl_len; i++) {
		if (ibv_query_gid_ex(ctx, port, i, &e, 0) ||
		    !gid_is_link_local(&e.gid) ||
		    (ifindex && e.ndev_ifindex != ifindex))
			continue;
		if (best < 0 || (e.gid_type == type && found->gid_type != type)) {
			best = i;
			*found = e;
		}
	}
	return best;
}

static int cm_wait(struct rdma_event_channel *ch, enum rdma_cm_event_type want,
		   int *status)
{
	struct rdma_cm_event *ev;
	enum rdma_cm_event_type got;

	if (rdma_get_cm_event(ch, &ev))
		return -errno;
	got = ev->event;
	*status = ev->status;
	rdma_ack_cm_event(ev);
	return got == want ? 0 : -EHOSTUNREACH;
}

/* RoCE: DM to the peer's link-local GID from our link-local GID. */
static int resolve_roce(struct rdma_cm_id *id, const struct srp_peer *p,
			int tbl_len, struct srp_path *path,
			char *err, size_t errlen)
{
	struct ibv_gid_entry src_entry, ll_entry;
	struct ibv_ah_attr ah = { .is_global = 1, .port_num = id->port_num };
	union ibv_gid sgid;
	uint8_t mac[6];
	int idx, ret;

	ip_to_gid(rdma_get_local_addr(id), &sgid);
	idx = gid_index_of(id->verbs, id->port_num, tbl_len, &sgid, &src_entry);
	if (idx < 0) {
		snprintf(err, errlen, "%s port %d has no GID for the source address",
			 path->ibdev, path->port);
		return -EADDRNOTAVAIL;
	}
	if (link_local_index(id->verbs, id->port_num, tbl_len,
			     src_entry.ndev_ifindex, src_entry.gid_type,
			     &ll_entry) < 0) {
		snprintf(err, errlen, "%s port %d has no link-local GID",
			 path->ibdev, path->port);
		return -EADDRNOTAVAIL;
	}

	ah.grh.sgid_index = idx;
	ip_to_gid((const struct sockaddr *)&p->addr, &ah.grh.dgid);
	ret = ibv_resolve_eth_l2_from_gid(id->verbs, &ah, mac, NULL);
	if (ret) {
		snprintf(err, errlen, "%s: no MAC address for it (neighbour resolution failed)",
			 p->spec);
		return ret < 0 ? ret : -EHOSTUNREACH;
	}

	srp_mac_to_ll_gid(mac, path->dgid);
	path->pkey = 0xffff;
	path->dm.grh = true;
	path->dm.sgid_index = ll_entry.gid_index;
	memcpy(path->dm.dgid, path->dgid, 16);
	return 0;
}

/* InfiniBand (IPoIB address): the path record has the peer's LID and GID. */
static int resolve_ib(struct rdma_event_channel *ch, struct rdma_cm_id *id,
		      const struct srp_peer *p, int timeout_ms,
		      struct srp_path *path, char *err, size_t errlen)
{
	struct ibv_sa_path_rec *rec;
	int status, ret;

	if (rdma_resolve_route(id, timeout_ms))
		ret = -errno;
	else
		ret = cm_wait(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, &status);
	if (ret || !id->route.num_paths) {
		snprintf(err, errlen, "%s: no path record (is a subnet manager running?)",
			 p->spec);
		return ret ? ret : -EHOSTUNREACH;
	}
	rec = id->route.path_rec;
	path->dm.lid = be16toh(rec->dlid);
	path->pkey = be16toh(rec->pkey);
	memcpy(path->dgid, rec->dgid.raw, 16);
	ret = ibv_get_pkey_index(id->verbs, id->port_num, rec->pkey);
	path->dm.pkey_index = ret < 0 ? 0 : ret;
	return 0;
}

static int resolve_addr(const struct srp_peer *p, const char *ibdev, int port,
			const struct sockaddr *src, int timeout_ms,
			struct srp_path *path, char *err, size_t errlen)
{
	struct rdma_event_channel *ch;
	struct ibv_port_attr pattr;
	struct rdma_cm_id *id;
	int status = 0, ret;

	ch = rdma_create_event_channel();
	if (!ch) {
		snprintf(err, errlen, "%s: cannot open the RDMA CM (is rdma_ucm loaded?)",
			 p->spec);
		return -ENODEV;
	}
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		ret = -errno;
		snprintf(err, errlen, "rdma_create_id: %s", strerror(errno));
		goto err_destroy_channel;
	}
	if (rdma_resolve_addr(id, (struct sockaddr *)src,
			      (struct sockaddr *)&p->addr, timeout_ms))
		ret = -errno;
	else
		ret = cm_wait(ch, RDMA_CM_EVENT_ADDR_RESOLVED, &status);
	if (ret || !id->verbs) {
		snprintf(err, errlen, "%s: address resolution failed (%s); no RDMA port reaches it",
			 p->spec, strerror(status ? -status : ret ? -ret : ENODEV));
		ret = ret ? ret : -ENODEV;
		goto err_destroy_id;
	}

	snprintf(path->ibdev, sizeof(path->ibdev), "%s",
		 ibv_get_device_name(id->verbs->device));
	path->port = id->port_num;
	if ((ibdev && strcmp(ibdev, path->ibdev)) || (port && port != path->port)) {
		snprintf(err, errlen, "%s is reached through %s port %d, not %s port %d",
			 p->spec, path->ibdev, path->port, ibdev ? ibdev : "-",
			 port);
		ret = -EXDEV;
		goto err_destroy_id;
	}
	if (ibv_query_port(id->verbs, id->port_num, &pattr)) {
		ret = -errno;
		snprintf(err, errlen, "%s port %d: %s", path->ibdev, path->port,
			 strerror(errno));
		goto err_destroy_id;
	}
	path->roce = pattr.link_layer == IBV_LINK_LAYER_ETHERNET;
	ret = srp_format_dest((const struct sockaddr *)&p->addr, path->dest,
			      sizeof(path->dest));
	if (!ret && path->roce)
		ret = resolve_roce(id, p, pattr.gid_tbl_len, path, err, errlen);
	else if (!ret)
		ret = resolve_ib(ch, id, p, timeout_ms, path, err, errlen);

err_destroy_id:
	rdma_destroy_id(id);
err_destroy_channel:
	rdma_destroy_event_channel(ch);
	return ret;
}

static struct ibv_context *open_device(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int i, n;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (i = 0; i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

/*
 * A GID given by the user: DM goes to it from the port's link-local GID. On
 * RoCE the link-local GID is also the peer's IPv6 link-local address, so
 * RDMA/CM can log in to [GID%ifindex].
 */
static int resolve_gid(const struct srp_peer *p, const char *ibdev, int port,
		       struct srp_path *path, char *err, size_t errlen)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(p->cm_port),
	};
	struct ibv_port_attr pattr;
	struct ibv_gid_entry ll;
	struct ibv_context *ctx;
	int idx, ret = 0;

	if (!ibdev || !port) {
		snprintf(err, errlen, "%s: a GID needs the local port (--device DEV:PORT)",
			 p->spec);
		return -EINVAL;
	}
	ctx = open_device(ibdev);
	if (!ctx) {
		snprintf(err, errlen, "no RDMA device %s", ibdev);
		return -ENODEV;
	}
	if (ibv_query_port(ctx, port, &pattr)) {
		ret = -errno;
		snprintf(err, errlen, "%s port %d: %s", ibdev, port, strerror(errno));
		goto out_close;
	}
	snprintf(path->ibdev, sizeof(path->ibdev), "%s", ibdev);
	path->port = port;
	path->roce = pattr.link_layer == IBV_LINK_LAYER_ETHERNET;
	if (!path->roce) {
		snprintf(err, errlen, "%s: on InfiniBand, name the target by its IPoIB address or use --sa",
			 p->spec);
		ret = -EOPNOTSUPP;
		goto out_close;
	}
	idx = link_local_index(ctx, port, pattr.gid_tbl_len, 0,
			       IBV_GID_TYPE_ROCE_V2, &ll);
	if (idx < 0) {
		snprintf(err, errlen, "%s port %d has no link-local GID", ibdev, port);
		ret = -EADDRNOTAVAIL;
		goto out_close;
	}
	path->pkey = 0xffff;
	path->dm.grh = true;
	path->dm.sgid_index = idx;
	memcpy(path->dm.dgid, p->gid, 16);
	memcpy(path->dgid, p->gid, 16);
	memcpy(&sin6.sin6_addr, p->gid, 16);
	sin6.sin6_scope_id = ll.ndev_ifindex;
	ret = srp_format_dest((struct sockaddr *)&sin6, path->dest,
			      sizeof(path->dest));
out_close:
	ibv_close_device(ctx);
	return ret;
}

int srp_peer_resolve(const struct srp_peer *p, const char *ibdev, int port,
		     const struct sockaddr *src, int timeout_ms,
		     struct srp_path *path, char *err, size_t errlen)
{
	memset(path, 0, sizeof(*path));
	if (p->kind == SRP_PEER_GID)
		return resolve_gid(p, ibdev, port, path, err, errlen);
	return resolve_addr(p, ibdev, port, src, timeout_ms, path, err, errlen);
}
