/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Port events for the daemon, seen by comparing snapshots of the RDMA
 * ports' sysfs state (state, GID 0, LID, SM LID). Unlike verbs async events
 * this keeps no device open, so removing a device whose driver cannot
 * disassociate user contexts (rxe, siw) is never blocked by the daemon.
 */
#ifndef SRP_DISCOVER_PORTWATCH_H
#define SRP_DISCOVER_PORTWATCH_H

#include <stddef.h>

#define PORTWATCH_MAX	64

struct port_state {
	char	name[80];	/* "<device> port <n>" */
	char	state[160];	/* state, GID 0, LID, SM LID */
	int	active;
};

struct port_watch {
	struct port_state port[PORTWATCH_MAX];
	int	n;
};

/* Take the current snapshot into @w. */
void portwatch_init(struct port_watch *w);

/*
 * Take a new snapshot; if a port is active now and was absent, inactive or
 * different before, describe it in @why and return 1, else 0.
 */
int portwatch_changed(struct port_watch *w, char *why, size_t len);

#endif /* SRP_DISCOVER_PORTWATCH_H */
