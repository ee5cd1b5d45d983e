// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Daemon mode: scan every peer, log in to what is allowed and not yet
 * logged in, then sleep until the rescan interval ends or a port becomes
 * active or changes (see portwatch.h). A failed scan or login is retried sooner than the full interval.
 * Errors are logged when they change, not on every rescan.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "portwatch.h"
#include "srp_discover.h"

#define RETRY_S		5	/* rescan delay after a failure */
#define POLL_MS		2000	/* how often the port states are compared */
#define SETTLE_MS	1000	/* let a port event settle before rescanning */

static volatile sig_atomic_t stop_requested, reload_requested;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		reload_requested = 1;
	else
		stop_requested = 1;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * Sleep up to @secs, looking at the ports every POLL_MS; returns early on a
 * port that became active or changed, or on a signal.
 */
static void wait_for_rescan(struct port_watch *pw, int secs)
{
	struct timespec now, end;
	char why[256];
	long left_ms;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += secs;
	while (!stop_requested && !reload_requested) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		left_ms = (end.tv_sec - now.tv_sec) * 1000 +
			  (end.tv_nsec - now.tv_nsec) / 1000000;
		if (left_ms <= 0)
			return;
		poll(NULL, 0, left_ms < POLL_MS ? left_ms : POLL_MS);
		if (portwatch_changed(pw, why, sizeof(why))) {
			fprintf(stderr, "%s, rescanning\n", why);
			poll(NULL, 0, SETTLE_MS);
			return;
		}
	}
}

struct peer_state {
	char	last_err[512];
};

/* One pass over all peers; returns true if something should be retried. */
static bool scan_all(const struct srp_opts *o, const struct srp_peer *peers,
		     struct peer_state *state, int npeers)
{
	struct srp_scan_stats st;
	enum srp_result res;
	bool retry = false;
	char err[512];
	int i;

	for (i = 0; i < npeers + o->sa; i++) {
		err[0] = '\0';
		if (i < npeers)
			res = srp_scan_peer(o, &peers[i], NULL, &st, err,
					    sizeof(err));
		else
			res = srp_scan_fabric(o, NULL, &st, err, sizeof(err));
		if (res != SRP_OK)
			retry = true;
		if (strcmp(err, state[i].last_err)) {
			if (err[0])
				fprintf(stderr, "%s\n", err);
			else if (state[i].last_err[0])
				fprintf(stderr, "%s: ok again\n",
					i < npeers ? peers[i].spec : "fabric scan");
			snprintf(state[i].last_err, sizeof(state[i].last_err),
				 "%s", err);
		}
	}
	return retry;
}

struct peers {
	struct srp_peer	*peer;
	struct peer_state *state;	/* one more than peers: the fabric */
	int		n;
};

static int peers_collect(struct peers *p, const struct srp_opts *o,
			 char **args, int nargs)
{
	p->peer = srp_collect_peers(o, args, nargs, &p->n);
	if (!p->peer)
		return -EINVAL;
	p->state = calloc(p->n + 1, sizeof(*p->state));
	if (!p->state) {
		free(p->peer);
		return -ENOMEM;
	}
	return 0;
}

static void peers_free(struct peers *p)
{
	free(p->peer);
	free(p->state);
}

/* SIGHUP: take the new file only if it and its peers are valid. */
static void reload(struct srp_opts *o, char **args, int nargs,
		   struct peers *cur)
{
	struct srp_config old = o->cfg, cfg = { 0 };
	struct peers next;
	char err[512];

	if (srp_config_load(&cfg, o->config_path, o->config_given, err,
			    sizeof(err))) {
		fprintf(stderr, "%s; keeping the old configuration\n", err);
		srp_config_free(&cfg);
		return;
	}
	o->cfg = cfg;
	if (peers_collect(&next, o, args, nargs)) {
		fprintf(stderr, "keeping the old configuration\n");
		srp_config_free(&o->cfg);
		o->cfg = old;
		return;
	}
	srp_config_free(&old);
	peers_free(cur);
	*cur = next;
	fprintf(stderr, "configuration reloaded from %s: %d target port(s)\n",
		o->config_path, cur->n);
}

int srp_daemon_run(struct srp_opts *o, char **args, int nargs)
{
	struct port_watch pw;
	struct peers p;
	bool retry;

	if (peers_collect(&p, o, args, nargs))
		return SRP_ERR_USAGE;
	install_signals();
	setvbuf(stderr, NULL, _IOLBF, 0);
	portwatch_init(&pw);
	fprintf(stderr, "srp-discover: watching %d target port(s)%s, rescan every %d s\n",
		p.n, o->sa ? " and the fabric" : "", o->rescan_s);
	while (!stop_requested) {
		retry = scan_all(o, p.peer, p.state, p.n);
		wait_for_rescan(&pw, retry && o->rescan_s > RETRY_S ?
				RETRY_S : o->rescan_s);
		if (reload_requested) {
			reload_requested = 0;
			reload(o, args, nargs, &p);
		}
	}
	peers_free(&p);
	return SRP_OK;
}
