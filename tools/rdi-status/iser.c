// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * iSER logins: every iscsi_session whose SCSI host belongs to the iser
 * transport (proc_name iscsi_iser), with its connections.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sysfs.h"
#include "status.h"

static int session_host(const char *path)
{
	char real[PATH_MAX], *p;

	if (!realpath(path, real))
		return -1;
	p = strstr(real, "/host");
	while (p && strstr(p + 1, "/host"))
		p = strstr(p + 1, "/host");
	return p ? atoi(p + strlen("/host")) : -1;
}

static int add_conn(const char *path, const char *name, void *arg)
{
	struct iser_session *s = arg;
	struct iser_conn *c;
	size_t n = strlen(s->name) - strlen("session");

	/* connection<sid>:<cid> belongs to session<sid> */
	if (strncmp(name + strlen("connection"), s->name + strlen("session"), n) ||
	    name[strlen("connection") + n] != ':' || s->nconns >= MAX_CONNS)
		return 0;
	c = &s->conns[s->nconns++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	read_str_attr(path, "address", c->address, sizeof(c->address));
	read_num_attr(path, "port", &c->port);
	read_str_attr(path, "persistent_address", c->persistent_address,
		      sizeof(c->persistent_address));
	read_num_attr(path, "persistent_port", &c->persistent_port);
	read_str_attr(path, "state", c->state, sizeof(c->state));
	read_num_attr(path, "max_recv_dlength", &c->max_recv_dlength);
	read_num_attr(path, "max_xmit_dlength", &c->max_xmit_dlength);
	read_num_attr(path, "ping_tmo", &c->ping_tmo);
	read_num_attr(path, "recv_tmo", &c->recv_tmo);
	return 0;
}

static int add_session(const char *path, const char *name, void *arg)
{
	struct status *st = arg;
	struct iser_session *s;
	char dir[PATH_MAX], proc[32];
	int host;

	snprintf(dir, sizeof(dir), "%s/device", path);
	host = session_host(dir);
	snprintf(dir, sizeof(dir), "%s/class/scsi_host/host%d", sysfs_root(), host);
	if (host < 0 || sysfs_read_str(dir, "proc_name", proc, sizeof(proc)) ||
	    strcmp(proc, "iscsi_iser"))
		return 0;
	if (st->niser >= MAX_ITEMS)
		return 1;
	s = &st->iser[st->niser++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	collect_host(&s->h, host);
	read_str_attr(path, "targetname", s->targetname, sizeof(s->targetname));
	read_num_attr(path, "tpgt", &s->tpgt);
	read_str_attr(path, "state", s->state, sizeof(s->state));
	read_str_attr(path, "target_state", s->target_state, sizeof(s->target_state));
	read_num_attr(path, "recovery_tmo", &s->recovery_tmo);
	read_str_attr(path, "ifacename", s->ifacename, sizeof(s->ifacename));
	snprintf(dir, sizeof(dir), "%s/class/iscsi_connection", sysfs_root());
	sysfs_for_each(dir, "connection", add_conn, s);
	return 0;
}

int collect_iser(struct status *st)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/class/iscsi_session", sysfs_root());
	return sysfs_for_each(dir, "session", add_session, st);
}
