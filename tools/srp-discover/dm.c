// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * DM client over libibumad. The kernel's MAD layer does the resends and the
 * matching of answers to requests (by transaction id); a request that got no
 * answer comes back from umad_recv() with status ETIMEDOUT.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include <infiniband/umad.h>
#include <infiniband/umad_types.h>

#include "dm.h"

#define DM_MAD_SIZE	256

int dm_open(struct dm_client *dm, const char *ibdev, int port,
	    int timeout_ms, int retries)
{
	int err;

	memset(dm, 0, sizeof(*dm));
	dm->timeout_ms = timeout_ms;
	dm->retries = retries;
	if (umad_init() < 0)
		return -ENODEV;
	dm->fd = umad_open_port(ibdev, port);
	if (dm->fd < 0)
		return dm->fd;
	dm->agent = umad_register(dm->fd, UMAD_CLASS_DEVICE_MGMT,
				  DM_CLASS_VERSION, 0, NULL);
	if (dm->agent < 0) {
		err = dm->agent;
		goto err_close_port;
	}
	return 0;

err_close_port:
	umad_close_port(dm->fd);
	return err < 0 ? err : -EIO;
}

void dm_close(struct dm_client *dm)
{
	umad_unregister(dm->fd, dm->agent);
	umad_close_port(dm->fd);
}

static void dm_fill_request(const struct dm_client *dm, void *umad,
			    const struct dm_dest *dest, uint16_t attr_id,
			    uint32_t attr_mod, uint64_t tid)
{
	struct umad_dm_packet *mad = umad_get_mad(umad);
	ib_mad_addr_t *addr = umad_get_mad_addr(umad);

	memset(umad, 0, umad_size() + DM_MAD_SIZE);
	((struct ib_user_mad *)umad)->agent_id = dm->agent;
	umad_set_addr(umad, dest->lid, DM_QPN, 0, DM_QKEY);
	umad_set_pkey(umad, dest->pkey_index);
	if (dest->grh) {
		addr->grh_present = 1;
		addr->gid_index = dest->sgid_index;
		addr->hop_limit = DM_HOP_LIMIT;
		memcpy(addr->gid, dest->dgid, sizeof(addr->gid));
	}

	mad->mad_hdr.base_version = UMAD_BASE_VERSION;
	mad->mad_hdr.mgmt_class = UMAD_CLASS_DEVICE_MGMT;
	mad->mad_hdr.class_version = DM_CLASS_VERSION;
	mad->mad_hdr.method = UMAD_METHOD_GET;
	mad->mad_hdr.tid = htobe64(tid);
	mad->mad_hdr.attr_id = htobe16(attr_id);
	mad->mad_hdr.attr_mod = htobe32(attr_mod);
}

int dm_get(struct dm_client *dm, const struct dm_dest *dest, uint16_t attr_id,
	   uint32_t attr_mod, void *data, size_t len)
{
	static uint32_t last_tid;
	uint8_t buf[sizeof(struct ib_user_mad) + DM_MAD_SIZE];
	struct umad_dm_packet *mad = umad_get_mad(buf);
	int wait_ms = dm->timeout_ms * (dm->retries + 1) + 100;
	uint32_t tid = ++last_tid;
	int size, ret;

	if (len > sizeof(mad->data))
		return -EINVAL;
	dm_fill_request(dm, buf, dest, attr_id, attr_mod, tid);
	ret = umad_send(dm->fd, dm->agent, buf, DM_MAD_SIZE, dm->timeout_ms,
			dm->retries);
	if (ret < 0)
		return ret;

	for (;;) {
		size = DM_MAD_SIZE;
		ret = umad_recv(dm->fd, buf, &size, wait_ms);
		if (ret < 0)
			return ret;
		/* The kernel puts the agent's id into the upper 32 bits. */
		if (ret != dm->agent ||
		    (uint32_t)be64toh(mad->mad_hdr.tid) != (uint32_t)tid)
			continue;	/* a late answer to an earlier request */
		ret = umad_status(buf);
		if (ret)
			return ret == ETIMEDOUT ? -ETIMEDOUT : -EIO;
		break;
	}

	dm->status = be16toh(mad->mad_hdr.status);
	if (dm->status)
		return -EPROTO;
	memcpy(data, mad->data, len);
	return 0;
}

const char *dm_status_str(uint16_t status)
{
	if (status & 0x0001)
		return "busy";
	if (status & 0x0002)
		return "redirect required (not supported)";
	switch (status & 0x001c) {
	case 0x0004:
		return "class version not supported";
	case 0x0008:
		return "method not supported";
	case 0x000c:
		return "method/attribute not supported (no device manager at this port)";
	case 0x001c:
		return "invalid attribute or modifier";
	}
	if ((status >> 8) == 0x01)
		return "no I/O controller in this slot";
	if ((status >> 8) == 0x02)
		return "slot does not exist";
	return "unknown status";
}
