// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Port state snapshots from /sys/class/infiniband, compared over time. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../common/sysfs.h"
#include "portwatch.h"

struct walk {
	struct port_watch *w;
	const char *dev;
};

static int add_port(const char *path, const char *name, void *arg)
{
	struct walk *wk = arg;
	struct port_state *p;
	char state[32], gid[48], lid[16], sm_lid[16];

	if (wk->w->n >= PORTWATCH_MAX)
		return 1;
	if (sysfs_read_str(path, "state", state, sizeof(state)))
		return 0;
	if (sysfs_read_str(path, "gids/0", gid, sizeof(gid)))
		gid[0] = '\0';
	if (sysfs_read_str(path, "lid", lid, sizeof(lid)))
		lid[0] = '\0';
	if (sysfs_read_str(path, "sm_lid", sm_lid, sizeof(sm_lid)))
		sm_lid[0] = '\0';
	p = &wk->w->port[wk->w->n++];
	snprintf(p->name, sizeof(p->name), "%s port %s", wk->dev, name);
	snprintf(p->state, sizeof(p->state), "%s gid %s lid %s sm %s", state,
		 gid, lid, sm_lid);
	p->active = strstr(state, "ACTIVE") != NULL;
	return 0;
}

static int add_device(const char *path, const char *name, void *arg)
{
	struct walk wk = { .w = arg, .dev = name };
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/ports", path);
	return sysfs_for_each(dir, "", add_port, &wk);
}

static void snapshot(struct port_watch *w)
{
	char dir[PATH_MAX];

	w->n = 0;
	snprintf(dir, sizeof(dir), "%s/class/infiniband", sysfs_root());
	sysfs_for_each(dir, "", add_device, w);
}

void portwatch_init(struct port_watch *w)
{
	snapshot(w);
}

static const struct port_state *find(const struct port_watch *w,
				     const char *name)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->port[i].name, name))
			return &w->port[i];
	return NULL;
}

int portwatch_changed(struct port_watch *w, char *why, size_t len)
{
	struct port_watch old = *w;
	const struct port_state *was;
	int i;

	snapshot(w);
	for (i = 0; i < w->n; i++) {
		if (!w->port[i].active)
			continue;
		was = find(&old, w->port[i].name);
		if (!was) {
			snprintf(why, len, "%s appeared", w->port[i].name);
			return 1;
		}
		if (strcmp(was->state, w->port[i].state)) {
			snprintf(why, len, "%s changed (%s)", w->port[i].name,
				 w->port[i].state);
			return 1;
		}
	}
	return 0;
}
