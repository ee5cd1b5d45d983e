// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * SRP logins: every SCSI host whose proc_name is ib_srp, with the target
 * identification, credit and keep-alive attributes ib_srp exports and the
 * state of its scsi_transport_srp remote port.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sysfs.h"
#include "status.h"

static void read_rport(struct srp_host *s)
{
	char dir[PATH_MAX];

	snprintf(s->rport, sizeof(s->rport), "port-%d:1", s->h.host);
	snprintf(dir, sizeof(dir), "%s/class/srp_remote_ports/%s", sysfs_root(),
		 s->rport);
	read_str_attr(dir, "state", s->rport_state, sizeof(s->rport_state));
	read_str_attr(dir, "port_id", s->port_id, sizeof(s->port_id));
	read_num_attr(dir, "failed_reconnects", &s->failed_reconnects);
	read_str_attr(dir, "reconnect_delay", s->reconnect_delay,
		      sizeof(s->reconnect_delay));
	read_str_attr(dir, "fast_io_fail_tmo", s->fast_io_fail_tmo,
		      sizeof(s->fast_io_fail_tmo));
	read_str_attr(dir, "dev_loss_tmo", s->dev_loss_tmo, sizeof(s->dev_loss_tmo));
	if (!s->rport_state[0])
		s->rport[0] = '\0';
}

static int add_host(const char *path, const char *name, void *arg)
{
	struct status *st = arg;
	struct srp_host *s;
	char proc[32];

	if (sysfs_read_str(path, "proc_name", proc, sizeof(proc)) ||
	    strcmp(proc, "ib_srp"))
		return 0;
	if (st->nsrp >= MAX_ITEMS)
		return 1;
	s = &st->srp[st->nsrp++];
	collect_host(&s->h, atoi(name + strlen("host")));
	read_str_attr(path, "id_ext", s->id_ext, sizeof(s->id_ext));
	read_str_attr(path, "ioc_guid", s->ioc_guid, sizeof(s->ioc_guid));
	read_str_attr(path, "service_id", s->service_id, sizeof(s->service_id));
	read_str_attr(path, "pkey", s->pkey, sizeof(s->pkey));
	read_str_attr(path, "sgid", s->sgid, sizeof(s->sgid));
	read_str_attr(path, "dgid", s->dgid, sizeof(s->dgid));
	read_str_attr(path, "orig_dgid", s->orig_dgid, sizeof(s->orig_dgid));
	read_str_attr(path, "dest", s->dest, sizeof(s->dest));
	read_str_attr(path, "local_ib_device", s->ibdev, sizeof(s->ibdev));
	read_num_attr(path, "local_ib_port", &s->port);
	read_num_attr(path, "req_lim", &s->req_lim);
	read_num_attr(path, "zero_req_lim", &s->zero_req_lim);
	read_num_attr(path, "ch_count", &s->ch_count);
	read_num_attr(path, "comp_vector", &s->comp_vector);
	read_num_attr(path, "tl_retry_count", &s->tl_retry_count);
	read_num_attr(path, "cmd_sg_entries", &s->cmd_sg_entries);
	read_str_attr(path, "allow_ext_sg", s->allow_ext_sg, sizeof(s->allow_ext_sg));
	/* ours only: the in-tree ib_srp has no keep-alive */
	read_num_attr(path, "keepalive", &s->keepalive);
	read_str_attr(path, "keepalive_state", s->keepalive_state,
		      sizeof(s->keepalive_state));
	/* ours only: the in-tree ib_srp has no poll queues */
	read_num_attr(path, "poll_queues", &s->poll_queues);
	read_rport(s);
	return 0;
}

int collect_srp(struct status *st)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/class/scsi_host", sysfs_root());
	return sysfs_for_each(dir, "host", add_host, st);
}
