// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Subnet administration queries through libibumad (the kernel reassembles
 * the RMPP answer of a GetTable): all PortInfoRecords, keeping the ports
 * whose capability mask has IsDM, then each one's NodeRecord for its port
 * GUID. The port GID is the PortInfo GID prefix plus that GUID.
 */
#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/umad.h>
#include <infiniband/umad_sa.h>
#include <infiniband/umad_types.h>
#include <infiniband/verbs.h>

#include "sa.h"

#define SA_QPN			1
#define SA_QKEY			0x80010000u
#define SA_MAD_SIZE		256
#define SA_HDR_SIZE		56	/* MAD + RMPP + SA headers */
#define PORT_CAP_IS_DM		(1u << 19)
#define NODE_REC_COMP_LID	(1ull << 0)

/* PortInfoRecord: the record key, then PortInfo (IBA 15.2.5.3, 14.2.5.6). */
struct sa_port_info_rec {
	__be16	lid;
	uint8_t	port_num;
	uint8_t	reserved;
	uint8_t	m_key[8];
	uint8_t	gid_prefix[8];
	__be16	base_lid;
	__be16	master_sm_lid;
	__be32	capability_mask;
} __attribute__((packed));

static_assert(sizeof(struct sa_port_info_rec) == 28, "PortInfoRecord head");

/* NodeRecord: the record key, then NodeInfo (IBA 15.2.5.2, 14.2.5.3). */
struct sa_node_rec {
	__be16	lid;
	__be16	reserved;
	uint8_t	base_version;
	uint8_t	class_version;
	uint8_t	node_type;
	uint8_t	num_ports;
	uint8_t	sys_image_guid[8];
	uint8_t	node_guid[8];
	uint8_t	port_guid[8];
} __attribute__((packed));

static_assert(sizeof(struct sa_node_rec) == 32, "NodeRecord head");

struct sa_client {
	int	fd;
	int	agent;
	int	timeout_ms;
	int	retries;
	uint16_t sm_lid;
	uint8_t	sm_sl;
};

/*
 * Send one SA request and return its answer in a malloc()ed buffer (the
 * ib_user_mad header, then *@len bytes of MAD). 0 or a negative errno.
 */
static int sa_query(struct sa_client *sa, uint8_t method, uint16_t attr_id,
		    uint64_t comp_mask, const void *rec, size_t rec_len,
		    void **answer, int *len)
{
	static uint32_t last_tid;
	uint8_t req[sizeof(struct ib_user_mad) + SA_MAD_SIZE] = { 0 };
	struct umad_sa_packet *mad = umad_get_mad(req);
	uint32_t tid = ++last_tid;
	int size = 4096, ret;
	void *buf = NULL, *bigger;

	((struct ib_user_mad *)req)->agent_id = sa->agent;
	umad_set_addr(req, sa->sm_lid, SA_QPN, sa->sm_sl, SA_QKEY);
	mad->mad_hdr.base_version = UMAD_BASE_VERSION;
	mad->mad_hdr.mgmt_class = UMAD_CLASS_SUBN_ADM;
	mad->mad_hdr.class_version = UMAD_SA_CLASS_VERSION;
	mad->mad_hdr.method = method;
	mad->mad_hdr.tid = htobe64(tid);
	mad->mad_hdr.attr_id = htobe16(attr_id);
	mad->comp_mask = htobe64(comp_mask);
	if (method == UMAD_SA_METHOD_GET_TABLE) {
		/* as srp_daemon: announce RMPP; the answer comes segmented */
		mad->rmpp_hdr.rmpp_version = UMAD_RMPP_VERSION;
		mad->rmpp_hdr.rmpp_type = 1;	/* DATA */
	}
	memcpy(mad->data, rec, rec_len);
	ret = umad_send(sa->fd, sa->agent, req, SA_MAD_SIZE, sa->timeout_ms,
			sa->retries);
	if (ret < 0)
		return ret;

	for (;;) {
		bigger = realloc(buf, sizeof(struct ib_user_mad) + size);
		if (!bigger) {
			ret = -ENOMEM;
			break;
		}
		buf = bigger;
		*len = size;
		ret = umad_recv(sa->fd, buf, len,
				sa->timeout_ms * (sa->retries + 1) + 100);
		if (ret == -ENOSPC && *len > size) {	/* *len is the size needed */
			size = *len;
			continue;
		}
		if (ret < 0)
			break;
		mad = umad_get_mad(buf);
		if (ret != sa->agent || (uint32_t)be64toh(mad->mad_hdr.tid) != tid)
			continue;
		ret = umad_status(buf);
		if (ret) {
			ret = ret == ETIMEDOUT ? -ETIMEDOUT : -EIO;
			break;
		}
		if (be16toh(mad->mad_hdr.status)) {
			ret = -EPROTO;
			break;
		}
		*answer = buf;
		return 0;
	}
	free(buf);
	return ret;
}

static int port_guid_of(struct sa_client *sa, uint16_t lid, uint8_t guid[8])
{
	struct sa_node_rec key = { .lid = htobe16(lid) };
	struct umad_sa_packet *mad;
	void *answer;
	int len, ret;

	ret = sa_query(sa, UMAD_METHOD_GET, UMAD_SA_ATTR_NODE_REC,
		       NODE_REC_COMP_LID, &key, sizeof(key), &answer, &len);
	if (ret)
		return ret;
	mad = umad_get_mad(answer);
	memcpy(guid, ((struct sa_node_rec *)mad->data)->port_guid, 8);
	free(answer);
	return 0;
}

/* Turn the IsDM records of a PortInfoRecord table into paths. */
static int paths_from_table(struct sa_client *sa, const char *ibdev, int port,
			    uint16_t pkey, const uint8_t *data, int n,
			    size_t rec_size, struct srp_path **paths, int *npaths)
{
	const struct sa_port_info_rec *r;
	struct srp_path *p, *out;
	int i, k, found = 0;
	uint16_t lid;

	out = calloc(n ? n : 1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		r = (const void *)(data + i * rec_size);
		lid = be16toh(r->lid);
		if (!(be32toh(r->capability_mask) & PORT_CAP_IS_DM))
			continue;
		for (k = 0; k < found && out[k].dm.lid != lid; k++)
			;
		if (k < found)
			continue;	/* a switch lists one record per port */
		p = &out[found];
		if (port_guid_of(sa, lid, p->dgid + 8))
			continue;
		memcpy(p->dgid, r->gid_prefix, 8);
		snprintf(p->ibdev, sizeof(p->ibdev), "%s", ibdev);
		p->port = port;
		p->pkey = pkey;
		p->dm.lid = lid;
		found++;
	}
	*paths = out;
	*npaths = found;
	return 0;
}

/* The port must be an active InfiniBand port: where is its SM, which P_Key. */
static int sa_port_info(struct sa_client *sa, const char *ibdev, int port,
			uint16_t *pkey, char *err, size_t errlen)
{
	struct ibv_device **list;
	struct ibv_port_attr attr;
	struct ibv_context *ctx = NULL;
	__be16 pk;
	int i, n, ret = 0;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), ibdev))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx) {
		snprintf(err, errlen, "no RDMA device %s", ibdev);
		return -ENODEV;
	}
	if (ibv_query_port(ctx, port, &attr) || ibv_query_pkey(ctx, port, 0, &pk)) {
		ret = -errno;
		snprintf(err, errlen, "%s port %d: %s", ibdev, port, strerror(errno));
	} else if (attr.link_layer != IBV_LINK_LAYER_INFINIBAND) {
		snprintf(err, errlen, "%s port %d is not InfiniBand: RoCE has no subnet administrator, name the targets by address",
			 ibdev, port);
		ret = -EOPNOTSUPP;
	} else if (attr.state != IBV_PORT_ACTIVE) {
		snprintf(err, errlen, "%s port %d is not active", ibdev, port);
		ret = -ENETDOWN;
	} else {
		sa->sm_lid = attr.sm_lid;
		sa->sm_sl = attr.sm_sl;
		*pkey = be16toh(pk);
	}
	ibv_close_device(ctx);
	return ret;
}

static int sa_open(struct sa_client *sa, const char *ibdev, int port,
		   char *err, size_t errlen)
{
	if (umad_init() < 0)
		return -ENODEV;
	sa->fd = umad_open_port(ibdev, port);
	if (sa->fd < 0) {
		snprintf(err, errlen, "%s port %d: cannot open its MAD interface%s",
			 ibdev, port, sa->fd == -EOPNOTSUPP ? " (modprobe ib_umad)" : "");
		return sa->fd;
	}
	sa->agent = umad_register(sa->fd, UMAD_CLASS_SUBN_ADM,
				  UMAD_SA_CLASS_VERSION, UMAD_RMPP_VERSION, NULL);
	if (sa->agent < 0) {
		snprintf(err, errlen, "%s port %d: cannot register an SA agent",
			 ibdev, port);
		umad_close_port(sa->fd);
		return sa->agent;
	}
	return 0;
}

int srp_sa_dm_ports(const char *ibdev, int port, int timeout_ms, int retries,
		    struct srp_path **paths, int *npaths,
		    char *err, size_t errlen)
{
	struct sa_client sa = { .timeout_ms = timeout_ms, .retries = retries };
	struct sa_port_info_rec any = { 0 };
	struct umad_sa_packet *mad;
	size_t rec_size;
	uint16_t pkey = 0xffff;
	void *answer;
	int len, n, ret;

	ret = sa_port_info(&sa, ibdev, port, &pkey, err, errlen);
	if (!ret)
		ret = sa_open(&sa, ibdev, port, err, errlen);
	if (ret)
		return ret;
	ret = sa_query(&sa, UMAD_SA_METHOD_GET_TABLE, UMAD_SA_ATTR_PORT_INFO_REC,
		       0, &any, sizeof(any), &answer, &len);
	if (ret) {
		snprintf(err, errlen, "PortInfoRecord table from the SA (LID %u): %s",
			 sa.sm_lid, ret == -ETIMEDOUT ? "no answer" :
			 ret == -EPROTO ? "error status" : strerror(-ret));
		goto out_close;
	}
	mad = umad_get_mad(answer);
	rec_size = be16toh(mad->attr_offset) * 8;
	n = rec_size && len > SA_HDR_SIZE ? (len - SA_HDR_SIZE) / rec_size : 0;
	ret = paths_from_table(&sa, ibdev, port, pkey, mad->data, n, rec_size,
			       paths, npaths);
	free(answer);
	if (!ret && !*npaths) {
		snprintf(err, errlen, "the SA knows no port with a device manager");
		free(*paths);
		ret = -ENOENT;
	}
out_close:
	umad_unregister(sa.fd, sa.agent);
	umad_close_port(sa.fd);
	return ret;
}
