// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * One scan of one peer: resolve it, walk its DM attributes, and for each SRP
 * target port apply the rules, skip what is already logged in, print the
 * add_target line and, with --execute, write it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "login.h"
#include "sa.h"
#include "srp_discover.h"

struct scan_ctx {
	const struct srp_opts *o;
	FILE	*out;
	struct srp_scan_stats *st;
	enum srp_result res;
	char	*err;
	size_t	errlen;
};

static int on_target(const struct srp_target_port *found, void *arg)
{
	struct scan_ctx *c = arg;
	const struct srp_opts *o = c->o;
	struct srp_target_port t = *found;
	struct srp_line_opts lo = {
		.initiator_ext = o->initiator_ext,
		.tl_retry_count = o->tl_retry_count,
	};
	const struct srp_rule *rule;
	char line[SRP_LINE_MAX + 1];
	bool connected;
	int ret;

	c->st->found++;
	if (t.rdma_cm && o->has_src)
		snprintf(t.src, sizeof(t.src), "%s", o->src_str);
	rule = srp_config_match(&o->cfg, &t);
	if (rule && !rule->allow) {
		if (o->verbose)
			fprintf(stderr, "id_ext %s: disallowed by the rules\n",
				t.id_ext);
		return 0;
	}
	connected = srp_target_connected(&t);
	if (connected && !o->all) {
		if (o->verbose)
			fprintf(stderr, "id_ext %s on %s port %d: already logged in\n",
				t.id_ext, t.ibdev, t.port);
		return 0;
	}
	lo.options = rule ? rule->options : NULL;
	lo.max_it_iu_size = srp_max_it_iu_size(t.send_size);
	if (srp_format_line(&t, &lo, line, sizeof(line)) < 0) {
		fprintf(stderr, "id_ext %s: add_target line longer than %d characters, skipped\n",
			t.id_ext, SRP_LINE_MAX);
		return 0;
	}
	if (c->out) {
		fprintf(c->out, "%s\n", line);
		fflush(c->out);
		c->st->printed++;
	}
	if (!o->execute || connected)
		return 0;

	ret = srp_login(&t, line);
	if (!ret || ret == -EEXIST) {
		c->st->logged_in += !ret;
		fprintf(stderr, "%s on %s port %d: %s\n", line, t.ibdev, t.port,
			ret ? "already logged in" : "logged in");
		return 0;
	}
	c->st->failed++;
	if (!o->daemon)	/* the daemon reports it once, not on every retry */
		fprintf(stderr, "%s on %s port %d: login failed: %s\n", line,
			t.ibdev, t.port, strerror(-ret));
	if (c->res == SRP_OK) {
		c->res = SRP_ERR_LOGIN;
		snprintf(c->err, c->errlen, "%s on %s port %d: login failed: %s",
			 line, t.ibdev, t.port, strerror(-ret));
	}
	return 0;
}

enum srp_result srp_scan_path(const struct srp_opts *o,
			      const struct srp_path *path, const char *label,
			      FILE *out, struct srp_scan_stats *st, char *err,
			      size_t errlen)
{
	struct scan_ctx c = {
		.o = o, .out = out, .st = st, .err = err, .errlen = errlen,
	};
	struct dm_client dm;
	enum srp_result res;
	char why[256];
	int ret;

	memset(st, 0, sizeof(*st));
	if (o->verbose)
		fprintf(stderr, "%s: via %s port %d, %s\n", label, path->ibdev,
			path->port, path->roce ? "RoCE" : "InfiniBand");
	ret = dm_open(&dm, path->ibdev, path->port, o->timeout_ms, o->retries);
	if (ret) {
		snprintf(err, errlen, "%s port %d: cannot open its MAD interface: %s",
			 path->ibdev, path->port, ret == -EOPNOTSUPP ?
			 "no user MAD support in the kernel (modprobe ib_umad)" :
			 strerror(-ret));
		return SRP_ERR_LOCAL;
	}
	res = srp_discover(&dm, path, o->verbose ? stderr : NULL, on_target,
			   &c, why, sizeof(why));
	dm_close(&dm);
	if (res != SRP_OK) {
		snprintf(err, errlen, "%s: %s", label, why);
		return res;
	}
	return c.res;
}

enum srp_result srp_scan_peer(const struct srp_opts *o,
			      const struct srp_peer *p, FILE *out,
			      struct srp_scan_stats *st, char *err,
			      size_t errlen)
{
	struct srp_path path;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = srp_peer_resolve(p, o->ibdev, o->port,
			       o->has_src ? (const struct sockaddr *)&o->src : NULL,
			       o->timeout_ms, &path, err, errlen);
	if (ret)
		return ret == -EXDEV || ret == -EINVAL ? SRP_ERR_USAGE :
		       ret == -ENODEV || ret == -EADDRNOTAVAIL ? SRP_ERR_LOCAL :
		       SRP_ERR_RESOLVE;
	return srp_scan_path(o, &path, p->spec, out, st, err, errlen);
}

enum srp_result srp_scan_fabric(const struct srp_opts *o, FILE *out,
				struct srp_scan_stats *st, char *err,
				size_t errlen)
{
	enum srp_result res, worst = SRP_OK;
	struct srp_scan_stats one;
	struct srp_path *paths;
	char label[64], why[512];
	int i, n, ret, found = 0;

	memset(st, 0, sizeof(*st));
	ret = srp_sa_dm_ports(o->ibdev, o->port, o->timeout_ms, o->retries,
			      &paths, &n, err, errlen);
	if (ret)
		return ret == -EOPNOTSUPP ? SRP_ERR_USAGE :
		       ret == -ETIMEDOUT ? SRP_ERR_TIMEOUT :
		       ret == -ENOENT ? SRP_ERR_NOT_SRP : SRP_ERR_LOCAL;
	for (i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "LID 0x%04x", paths[i].dm.lid);
		res = srp_scan_path(o, &paths[i], label, out, &one, why,
				    sizeof(why));
		found += one.found;
		st->printed += one.printed;
		st->logged_in += one.logged_in;
		st->failed += one.failed;
		if (res == SRP_OK || res == SRP_ERR_NOT_SRP)
			continue;	/* not every DM agent fronts SRP */
		if (worst == SRP_OK) {
			worst = res;
			snprintf(err, errlen, "%s", why);
		}
	}
	free(paths);
	st->found = found;
	if (worst == SRP_OK && !found) {
		snprintf(err, errlen, "none of the %d ports with a device manager offers SRP",
			 n);
		worst = SRP_ERR_NOT_SRP;
	}
	return worst;
}

struct srp_peer *srp_collect_peers(const struct srp_opts *o, char **args,
				   int nargs, int *npeers)
{
	int i, n = nargs + o->cfg.npeers;
	struct srp_peer *peers = calloc(n ? n : 1, sizeof(*peers));
	const char *spec;

	if (!peers)
		return NULL;
	for (i = 0; i < n; i++) {
		spec = i < nargs ? args[i] : o->cfg.peers[i - nargs];
		if (srp_peer_parse(&peers[i], spec, o->cm_port)) {
			fprintf(stderr, "srp-discover: %s is not an IP address or gid:GID\n",
				spec);
			free(peers);
			return NULL;
		}
	}
	*npeers = n;
	return peers;
}
