// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * SCSI side of a host: can_queue/host_busy, the transport driver's counters
 * (its "stats" attribute or directory), the LUNs with their
 * block devices and I/O counters, and the dm-multipath maps on top.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/sysfs.h"
#include "status.h"

void read_num_attr(const char *dir, const char *attr, long long *v)
{
	uint64_t u;

	if (sysfs_read_int(dir, attr, v)) {
		/* counters such as iorequest_cnt are printed in hex */
		*v = sysfs_read_u64(dir, attr, &u) ? RDI_JSON_NONE : (long long)u;
	}
}

void read_str_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	if (sysfs_read_str(dir, attr, buf, len))
		buf[0] = '\0';
}

static void push_stat(struct host_info *h, const char *name, long long v)
{
	struct stat_value *s;

	if (h->nstats >= MAX_STATS)
		return;
	s = &h->stats[h->nstats++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->value = v;
}

static int add_stat_file(const char *path, const char *name, void *arg)
{
	struct host_info *h = arg;
	char dir[PATH_MAX];
	long long v;

	snprintf(dir, sizeof(dir), "%.*s",
		 (int)(strlen(path) - strlen(name) - 1), path);
	if (!sysfs_read_int(dir, name, &v))
		push_stat(h, name, v);
	return 0;
}

/*
 * Driver counters: a "stats" attribute of "<name> <value>" lines (ours), or
 * a "stats" directory with one file per counter.
 */
static void collect_stats(struct host_info *h, const char *hostdir)
{
	char buf[4096], name[48], dir[PATH_MAX + 8], *line, *save;
	long long v;

	if (!sysfs_read_str(hostdir, "stats", buf, sizeof(buf))) {
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (sscanf(line, "%47s %lld", name, &v) == 2)
				push_stat(h, name, v);
		return;
	}
	snprintf(dir, sizeof(dir), "%s/stats", hostdir);
	sysfs_for_each(dir, "", add_stat_file, h);
}

struct holder {
	char	*name;
	size_t	len;
};

static int holder_name(const char *path, const char *name, void *arg)
{
	struct holder *h = arg;
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/dm", path);
	return !sysfs_read_str(dir, "name", h->name, h->len);
}

/* Name of the dm map (if any) holding block device @blk. */
static void find_holder(const char *blk, char *name, size_t len)
{
	struct holder h = { .name = name, .len = len };
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/block/%s/holders", sysfs_root(), blk);
	if (sysfs_for_each(dir, "dm-", holder_name, &h) <= 0)
		name[0] = '\0';
}

static int first_block(const char *path, const char *name, void *arg)
{
	struct lun *l = arg;

	snprintf(l->block, sizeof(l->block), "%s", name);
	return 1;
}

static int add_lun(const char *path, const char *name, void *arg)
{
	struct host_info *h = arg;
	char dir[PATH_MAX];
	long long sectors;
	struct lun *l;

	if (!strchr(name, ':') || h->nluns >= MAX_LUNS)
		return 0;
	l = &h->luns[h->nluns++];
	snprintf(l->hctl, sizeof(l->hctl), "%s", name);
	read_str_attr(path, "vendor", l->vendor, sizeof(l->vendor));
	read_str_attr(path, "model", l->model, sizeof(l->model));
	read_str_attr(path, "state", l->state, sizeof(l->state));
	read_num_attr(path, "iorequest_cnt", &l->iorequest_cnt);
	read_num_attr(path, "iodone_cnt", &l->iodone_cnt);
	read_num_attr(path, "ioerr_cnt", &l->ioerr_cnt);
	l->size_bytes = RDI_JSON_NONE;
	snprintf(dir, sizeof(dir), "%s/block", path);
	if (sysfs_for_each(dir, "", first_block, l) > 0) {
		snprintf(dir, sizeof(dir), "%s/block/%s", path, l->block);
		if (!sysfs_read_int(dir, "size", &sectors))
			l->size_bytes = sectors * 512;
		find_holder(l->block, l->multipath, sizeof(l->multipath));
	}
	return 0;
}

static int add_target_luns(const char *path, const char *name, void *arg)
{
	return sysfs_for_each(path, "", add_lun, arg);
}

static int add_session_targets(const char *path, const char *name, void *arg)
{
	return sysfs_for_each(path, "target", add_target_luns, arg);
}

void collect_host(struct host_info *h, int host)
{
	char dir[PATH_MAX];

	h->host = host;
	snprintf(dir, sizeof(dir), "%s/class/scsi_host/host%d", sysfs_root(), host);
	read_num_attr(dir, "can_queue", &h->can_queue);
	read_num_attr(dir, "host_busy", &h->host_busy);
	collect_stats(h, dir);
	snprintf(dir, sizeof(dir), "%s/class/scsi_host/host%d/device",
		 sysfs_root(), host);
	sysfs_for_each(dir, "target", add_target_luns, h);
	sysfs_for_each(dir, "session", add_session_targets, h);
}

static int add_path(const char *path, const char *name, void *arg)
{
	struct mpath_map *m = arg;

	if (m->npaths < MAX_PATHS)
		snprintf(m->paths[m->npaths++], sizeof(m->paths[0]), "%s", name);
	return 0;
}

static int add_map(const char *path, const char *name, void *arg)
{
	struct status *st = arg;
	struct mpath_map *m;
	char dir[PATH_MAX];

	if (st->nmpath >= MAX_ITEMS)
		return 1;
	m = &st->mpath[st->nmpath];
	memset(m, 0, sizeof(*m));
	snprintf(dir, sizeof(dir), "%s/dm", path);
	if (sysfs_read_str(dir, "uuid", m->uuid, sizeof(m->uuid)) ||
	    strncmp(m->uuid, "mpath-", 6))
		return 0;
	read_str_attr(dir, "name", m->name, sizeof(m->name));
	snprintf(m->dm, sizeof(m->dm), "%s", name);
	snprintf(dir, sizeof(dir), "%s/slaves", path);
	sysfs_for_each(dir, "", add_path, m);
	st->nmpath++;
	return 0;
}

int collect_multipath(struct status *st)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/block", sysfs_root());
	return sysfs_for_each(dir, "dm-", add_map, st);
}
