// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi-status's human view: one row per SRP login, per iSER session and per
 * multipath map; with --verbose, one line per LUN and the driver counters
 * under each row.
 */
#include <string.h>

#include "status.h"

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static void print_num(FILE *f, int width, long long v)
{
	if (v == RDI_JSON_NONE)
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*lld", width, v);
}

static void print_luns_short(FILE *f, const struct host_info *h)
{
	int i;

	for (i = 0; i < h->nluns; i++) {
		fprintf(f, " %s", or_dash(h->luns[i].block));
		if (h->luns[i].multipath[0])
			fprintf(f, "(%s)", h->luns[i].multipath);
	}
	if (!h->nluns)
		fputs(" -", f);
	fputc('\n', f);
}

static void print_host_detail(FILE *f, const struct host_info *h)
{
	const struct lun *l;
	int i;

	fprintf(f, "    queue: can_queue %lld, busy %lld\n", h->can_queue,
		h->host_busy);
	if (h->nstats) {
		fputs("    stats:", f);
		for (i = 0; i < h->nstats; i++)
			fprintf(f, " %s=%lld", h->stats[i].name, h->stats[i].value);
		fputc('\n', f);
	}
	for (i = 0; i < h->nluns; i++) {
		l = &h->luns[i];
		fprintf(f, "    lun %-10s %-6s %-8s %-8.8s %-16.16s", l->hctl,
			or_dash(l->block), or_dash(l->state), or_dash(l->vendor),
			or_dash(l->model));
		if (l->size_bytes != RDI_JSON_NONE)
			fprintf(f, " %6lld MiB", l->size_bytes >> 20);
		fprintf(f, " req %lld done %lld err %lld", l->iorequest_cnt,
			l->iodone_cnt, l->ioerr_cnt);
		if (l->multipath[0])
			fprintf(f, " -> %s", l->multipath);
		fputc('\n', f);
	}
}

/*
 * Where a login goes: the address and port of an RDMA/CM login as its
 * add_target string gave them (the driver's dest attribute), or the GID of
 * an IB CM one; "(RDMA/CM)" with a driver that does not tell (the in-tree
 * ib_srp).
 */
static const char *srp_destination(const struct srp_host *s)
{
	if (s->dest[0])
		return s->dest;
	if (s->orig_dgid[0])
		return s->orig_dgid;
	if (s->dgid[0])
		return s->dgid;
	return "(RDMA/CM)";
}

/* The DESTINATION column is as wide as its widest entry, 24 at least. */
static int srp_destination_width(const struct status *st)
{
	int i, w = 24;

	for (i = 0; i < st->nsrp; i++)
		if ((int)strlen(srp_destination(&st->srp[i])) > w)
			w = strlen(srp_destination(&st->srp[i]));
	return w;
}

/*
 * Keep-alive column: "on/5s", "refused/5s", "off"; "-" where the driver has
 * no keep-alive (the in-tree ib_srp).
 */
static void srp_keepalive(const struct srp_host *s, char *buf, size_t len)
{
	if (!strcmp(s->keepalive_state, "off"))
		snprintf(buf, len, "off");
	else if (s->keepalive == RDI_JSON_NONE)
		snprintf(buf, len, "%s", or_dash(s->keepalive_state));
	else if (s->keepalive_state[0])
		snprintf(buf, len, "%s/%llds", s->keepalive_state, s->keepalive);
	else
		snprintf(buf, len, "%llds", s->keepalive);
}

static void print_srp(FILE *f, const struct status *st, bool verbose)
{
	const struct srp_host *s;
	char local[48], ka[40];
	int i, dw;

	fprintf(f, "SRP targets: %d\n", st->nsrp);
	if (!st->nsrp)
		return;
	dw = srp_destination_width(st);
	fprintf(f, "%-7s %-10s %-18s %-18s %-*s %-10s %3s %4s %7s %-10s %s\n",
		"HOST", "LOCAL", "ID_EXT", "IOC_GUID", dw, "DESTINATION", "STATE",
		"CH", "POLL", "REQ_LIM", "KEEPALIVE", "LUNS");
	for (i = 0; i < st->nsrp; i++) {
		s = &st->srp[i];
		snprintf(local, sizeof(local), "%s:%lld", or_dash(s->ibdev),
			 s->port == RDI_JSON_NONE ? 0 : s->port);
		fprintf(f, "host%-3d %-10s %-18s %-18s %-*s %-10s", s->h.host,
			local, or_dash(s->id_ext), or_dash(s->ioc_guid), dw,
			srp_destination(s), or_dash(s->rport_state));
		print_num(f, 3, s->ch_count);
		print_num(f, 4, s->poll_queues);
		print_num(f, 7, s->req_lim);
		srp_keepalive(s, ka, sizeof(ka));
		fprintf(f, " %-10s", ka);
		print_luns_short(f, &s->h);
		if (verbose) {
			fprintf(f, "    rport %s: failed_reconnects %lld, reconnect_delay %s, fast_io_fail_tmo %s, dev_loss_tmo %s\n",
				or_dash(s->rport), s->failed_reconnects,
				or_dash(s->reconnect_delay),
				or_dash(s->fast_io_fail_tmo),
				or_dash(s->dev_loss_tmo));
			fprintf(f, "    credits: zero_req_lim %lld; comp_vector %lld, tl_retry_count %lld, cmd_sg_entries %lld\n",
				s->zero_req_lim, s->comp_vector,
				s->tl_retry_count, s->cmd_sg_entries);
			print_host_detail(f, &s->h);
		}
	}
}

static void print_iser(FILE *f, const struct status *st, bool verbose)
{
	const struct iser_session *s;
	const struct iser_conn *c;
	char addr[96];
	int i, k;

	fprintf(f, "iSER sessions: %d\n", st->niser);
	if (!st->niser)
		return;
	fprintf(f, "%-10s %-7s %-40s %-22s %-10s %-10s %s\n", "SESSION", "HOST",
		"TARGET", "ADDRESS", "STATE", "CONN", "LUNS");
	for (i = 0; i < st->niser; i++) {
		s = &st->iser[i];
		c = s->nconns ? &s->conns[0] : NULL;
		if (c && c->address[0])
			snprintf(addr, sizeof(addr), "%s:%lld", c->address,
				 c->port);
		else
			snprintf(addr, sizeof(addr), "-");
		fprintf(f, "%-10s host%-3d %-40s %-22s %-10s %-10s", s->name,
			s->h.host, or_dash(s->targetname), addr,
			or_dash(s->state), c ? or_dash(c->state) : "-");
		print_luns_short(f, &s->h);
		if (!verbose)
			continue;
		fprintf(f, "    tpgt %lld, recovery_tmo %lld, iface %s\n", s->tpgt,
			s->recovery_tmo, or_dash(s->ifacename));
		for (k = 0; k < s->nconns; k++) {
			c = &s->conns[k];
			fprintf(f, "    %s: %s, ping_tmo %lld, recv_tmo %lld, max_recv_dlength %lld, max_xmit_dlength %lld\n",
				c->name, or_dash(c->state), c->ping_tmo,
				c->recv_tmo, c->max_recv_dlength,
				c->max_xmit_dlength);
		}
		print_host_detail(f, &s->h);
	}
}

static void print_mpath(FILE *f, const struct status *st)
{
	const struct mpath_map *m;
	int i, k;

	fprintf(f, "Multipath maps: %d\n", st->nmpath);
	if (!st->nmpath)
		return;
	fprintf(f, "%-16s %-8s %-5s %s\n", "NAME", "DM", "PATHS", "DEVICES");
	for (i = 0; i < st->nmpath; i++) {
		m = &st->mpath[i];
		fprintf(f, "%-16s %-8s %5d", m->name, m->dm, m->npaths);
		for (k = 0; k < m->npaths; k++)
			fprintf(f, " %s", m->paths[k]);
		fputc('\n', f);
	}
}

void print_table(const struct status *st, FILE *f, bool verbose)
{
	print_srp(f, st, verbose);
	fputc('\n', f);
	print_iser(f, st, verbose);
	fputc('\n', f);
	print_mpath(f, st);
}
