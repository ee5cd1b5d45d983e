// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* ib_srp's user-space interface: add_target and the SCSI host attributes. */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sysfs.h"
#include "login.h"

static bool attr_u64_is(const char *dir, const char *attr, uint64_t want)
{
	uint64_t v;

	return !sysfs_read_u64(dir, attr, &v) && v == want;
}

/* orig_dgid (or dgid on old kernels) against @gid; absent on RDMA/CM. */
static bool dgid_matches(const char *dir, const uint8_t gid[16])
{
	char buf[64];
	uint8_t raw[16];

	if (sysfs_read_str(dir, "orig_dgid", buf, sizeof(buf)) &&
	    sysfs_read_str(dir, "dgid", buf, sizeof(buf)))
		return false;
	return inet_pton(AF_INET6, buf, raw) == 1 && !memcmp(raw, gid, 16);
}

static bool rport_lost(const char *host)
{
	char dir[PATH_MAX], state[32];

	snprintf(dir, sizeof(dir), "%s/class/srp_remote_ports/port-%s:1",
		 sysfs_root(), host + strlen("host"));
	return !sysfs_read_str(dir, "state", state, sizeof(state)) &&
	       !strcmp(state, "lost");
}

static int host_matches(const char *dir, const char *name, void *arg)
{
	const struct srp_target_port *t = arg;
	char buf[64];
	long long port;

	if (!attr_u64_is(dir, "id_ext", strtoull(t->id_ext, NULL, 16)) ||
	    !attr_u64_is(dir, "ioc_guid", t->ioc_guid))
		return 0;
	/* Missing on old kernels: then the host is taken to match. */
	if (!sysfs_read_str(dir, "local_ib_device", buf, sizeof(buf)) &&
	    strcmp(buf, t->ibdev))
		return 0;
	if (!sysfs_read_int(dir, "local_ib_port", &port) && port != t->port)
		return 0;
	if (!t->rdma_cm && (!attr_u64_is(dir, "service_id", t->service_id) ||
			    !dgid_matches(dir, t->dgid)))
		return 0;
	return !rport_lost(name);
}

bool srp_target_connected(const struct srp_target_port *t)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/class/scsi_host", sysfs_root());
	return sysfs_for_each(dir, "host", host_matches, (void *)t) > 0;
}

int srp_login(const struct srp_target_port *t, const char *line)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/class/infiniband_srp/srp-%s-%d",
		 sysfs_root(), t->ibdev, t->port);
	return sysfs_write_str(dir, "add_target", line);
}

uint32_t srp_max_it_iu_size(uint32_t send_size)
{
	char dir[PATH_MAX], flag[8];
	long long max_imm;

	snprintf(dir, sizeof(dir), "%s/module/ib_srp/parameters", sysfs_root());
	if (sysfs_read_str(dir, "use_imm_data", flag, sizeof(flag)) ||
	    flag[0] != 'Y' || sysfs_read_int(dir, "max_imm_data", &max_imm))
		return 0;
	return max_imm > send_size ? send_size : 0;
}
