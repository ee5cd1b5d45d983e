// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The DM queries an SRP initiator makes, in order: ClassPortInfo (is there
 * a DM agent?), IOUnitInfo (which slots hold an IOC), IOControllerProfile
 * per occupied slot (is it SRP, how large may a SEND be) and ServiceEntries
 * four at a time (the "SRP.T10:<id_ext>" services and their ids).
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/umad_types.h>

#include "discover.h"

struct walk {
	struct dm_client *dm;
	const struct srp_path *path;
	FILE	*verbose;
	char	*err;
	size_t	errlen;
	int	srp_ports;
	int	non_srp_iocs;
};

static enum srp_result query_failed(struct walk *w, int ret, const char *what)
{
	char gid[INET6_ADDRSTRLEN];

	if (ret == -ETIMEDOUT) {
		inet_ntop(AF_INET6, w->path->dgid, gid, sizeof(gid));
		snprintf(w->err, w->errlen,
			 "no answer to %s from GID %s via %s port %d (timed out after %d ms x %d tries)",
			 what, gid, w->path->ibdev, w->path->port,
			 w->dm->timeout_ms, w->dm->retries + 1);
		return SRP_ERR_TIMEOUT;
	}
	if (ret == -EPROTO) {
		snprintf(w->err, w->errlen, "%s: peer answered status 0x%04x: %s",
			 what, w->dm->status, dm_status_str(w->dm->status));
		return SRP_ERR_NOT_SRP;
	}
	snprintf(w->err, w->errlen, "%s: %s", what, strerror(-ret));
	return SRP_ERR_LOCAL;
}

static void fill_target(struct srp_target_port *t, const struct srp_path *path,
			const struct dm_ioc_profile *ioc,
			const struct dm_service_entry *svc)
{
	memset(t, 0, sizeof(*t));
	srp_parse_service_name(svc->name, sizeof(svc->name), t->id_ext);
	t->ioc_guid = be64toh(ioc->guid);
	t->service_id = be64toh(svc->id);
	t->io_class = be16toh(ioc->io_class);
	t->send_size = be32toh(ioc->send_size);
	t->pkey = path->pkey;
	memcpy(t->dgid, path->dgid, sizeof(t->dgid));
	snprintf(t->ibdev, sizeof(t->ibdev), "%s", path->ibdev);
	t->port = path->port;
	t->rdma_cm = path->roce;
	snprintf(t->dest, sizeof(t->dest), "%s", path->dest);
}

static enum srp_result walk_services(struct walk *w, unsigned int slot,
				     const struct dm_ioc_profile *ioc,
				     srp_found_fn found, void *arg)
{
	struct dm_service_entries se;
	struct srp_target_port t;
	char id_ext[17];
	unsigned int first, last, i;
	int ret;

	for (first = 0; first < ioc->service_entries;
	     first += DM_SERVICE_ENTRIES_PER_MAD) {
		last = first + DM_SERVICE_ENTRIES_PER_MAD - 1;
		if (last >= ioc->service_entries)
			last = ioc->service_entries - 1;
		ret = dm_get(w->dm, &w->path->dm, DM_ATTR_SERVICE_ENTRIES,
			     slot << 16 | last << 8 | first, &se, sizeof(se));
		if (ret)
			return query_failed(w, ret, "ServiceEntries");
		for (i = 0; i <= last - first; i++) {
			const struct dm_service_entry *e = &se.entry[i];

			if (w->verbose)
				fprintf(w->verbose, "        service[%3u]: %016" PRIx64 " / %.40s\n",
					first + i, (uint64_t)be64toh(e->id), e->name);
			if (!srp_parse_service_name(e->name, sizeof(e->name), id_ext))
				continue;
			fill_target(&t, w->path, ioc, e);
			w->srp_ports++;
			if (found(&t, arg))
				return SRP_OK;
		}
	}
	return SRP_OK;
}

static enum srp_result walk_slot(struct walk *w, unsigned int slot,
				 srp_found_fn found, void *arg)
{
	struct dm_ioc_profile ioc;
	uint16_t io_class;
	int ret;

	ret = dm_get(w->dm, &w->path->dm, DM_ATTR_IOC_PROFILE, slot, &ioc,
		     sizeof(ioc));
	if (ret)
		return query_failed(w, ret, "IOControllerProfile");
	io_class = be16toh(ioc.io_class);
	if (w->verbose)
		fprintf(w->verbose,
			"    controller[%3u]\n        GUID:      %016" PRIx64 "\n"
			"        vendor ID: %06x\n        device ID: %06x\n"
			"        IO class : %04x\n"
			"        Maximum size of Send Messages in bytes: %u\n"
			"        ID:        %.64s\n        service entries: %u\n",
			slot, (uint64_t)be64toh(ioc.guid),
			be32toh(ioc.vendor_id) >> 8, be32toh(ioc.device_id),
			io_class, be32toh(ioc.send_size), ioc.id,
			ioc.service_entries);
	if (io_class != SRP_IO_CLASS_R16A && io_class != SRP_IO_CLASS_R10) {
		w->non_srp_iocs++;
		return SRP_OK;
	}
	return walk_services(w, slot, &ioc, found, arg);
}

enum srp_result srp_discover(struct dm_client *dm, const struct srp_path *path,
			     FILE *verbose, srp_found_fn found, void *arg,
			     char *err, size_t errlen)
{
	struct walk w = {
		.dm = dm, .path = path, .verbose = verbose,
		.err = err, .errlen = errlen,
	};
	struct umad_class_port_info cpi;
	struct dm_iou_info iou;
	enum srp_result res;
	char gid[33];
	unsigned int slot;
	int ret, present = 0;

	ret = dm_get(dm, &path->dm, DM_ATTR_CLASS_PORT_INFO, 0, &cpi,
		     sizeof(cpi));
	if (ret)
		return query_failed(&w, ret, "ClassPortInfo");
	ret = dm_get(dm, &path->dm, DM_ATTR_IO_UNIT_INFO, 0, &iou, sizeof(iou));
	if (ret)
		return query_failed(&w, ret, "IOUnitInfo");

	if (verbose) {
		srp_gid_hex(path->dgid, gid);
		fprintf(verbose, "IO Unit Info:\n    port LID:        %04x\n"
			"    port GID:        %s\n    change ID:       %04x\n"
			"    max controllers: 0x%02x\n",
			path->dm.lid, gid, be16toh(iou.change_id),
			iou.max_controllers);
	}
	for (slot = 1; slot <= iou.max_controllers; slot++) {
		if (dm_slot_state(&iou, slot) != DM_SLOT_IOC_PRESENT)
			continue;
		present++;
		res = walk_slot(&w, slot, found, arg);
		if (res != SRP_OK)
			return res;
	}
	if (w.srp_ports)
		return SRP_OK;
	if (!present)
		snprintf(err, errlen, "the peer has no I/O controller");
	else if (w.non_srp_iocs)
		snprintf(err, errlen, "the peer's %d I/O controller(s) are not SRP (io_class is not 0x0100 or 0xff00)",
			 w.non_srp_iocs);
	else
		snprintf(err, errlen, "the peer's I/O controllers offer no SRP.T10 service");
	return SRP_ERR_NOT_SRP;
}
