// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi-status --json. Field names are the sysfs attribute names; a value
 * sysfs does not have (dgid on an RDMA/CM login, say) is null.
 */
#include "status.h"

static void str_or_null(struct json *j, const char *key, const char *val)
{
	json_string(j, key, val[0] ? val : NULL);
}

static void host_json(struct json *j, const struct host_info *h)
{
	const struct lun *l;
	int i;

	json_int(j, "host", h->host);
	json_int(j, "can_queue", h->can_queue);
	json_int(j, "host_busy", h->host_busy);
	json_begin_object(j, "stats");
	for (i = 0; i < h->nstats; i++)
		json_int(j, h->stats[i].name, h->stats[i].value);
	json_end_object(j);
	json_begin_array(j, "luns");
	for (i = 0; i < h->nluns; i++) {
		l = &h->luns[i];
		json_begin_object(j, NULL);
		json_string(j, "hctl", l->hctl);
		str_or_null(j, "vendor", l->vendor);
		str_or_null(j, "model", l->model);
		str_or_null(j, "state", l->state);
		str_or_null(j, "block", l->block);
		json_int(j, "size_bytes", l->size_bytes);
		json_int(j, "iorequest_cnt", l->iorequest_cnt);
		json_int(j, "iodone_cnt", l->iodone_cnt);
		json_int(j, "ioerr_cnt", l->ioerr_cnt);
		str_or_null(j, "multipath", l->multipath);
		json_end_object(j);
	}
	json_end_array(j);
}

static void srp_json(struct json *j, const struct srp_host *s)
{
	json_begin_object(j, NULL);
	host_json(j, &s->h);
	str_or_null(j, "id_ext", s->id_ext);
	str_or_null(j, "ioc_guid", s->ioc_guid);
	str_or_null(j, "service_id", s->service_id);
	str_or_null(j, "pkey", s->pkey);
	str_or_null(j, "sgid", s->sgid);
	str_or_null(j, "dgid", s->dgid);
	str_or_null(j, "orig_dgid", s->orig_dgid);
	str_or_null(j, "dest", s->dest);
	str_or_null(j, "local_ib_device", s->ibdev);
	json_int(j, "local_ib_port", s->port);
	json_int(j, "ch_count", s->ch_count);
	json_int(j, "poll_queues", s->poll_queues);
	json_int(j, "comp_vector", s->comp_vector);
	json_int(j, "req_lim", s->req_lim);
	json_int(j, "zero_req_lim", s->zero_req_lim);
	json_int(j, "tl_retry_count", s->tl_retry_count);
	json_int(j, "cmd_sg_entries", s->cmd_sg_entries);
	str_or_null(j, "allow_ext_sg", s->allow_ext_sg);
	json_int(j, "keepalive", s->keepalive);
	str_or_null(j, "keepalive_state", s->keepalive_state);
	if (s->rport[0]) {
		json_begin_object(j, "rport");
		json_string(j, "name", s->rport);
		str_or_null(j, "state", s->rport_state);
		str_or_null(j, "port_id", s->port_id);
		json_int(j, "failed_reconnects", s->failed_reconnects);
		str_or_null(j, "reconnect_delay", s->reconnect_delay);
		str_or_null(j, "fast_io_fail_tmo", s->fast_io_fail_tmo);
		str_or_null(j, "dev_loss_tmo", s->dev_loss_tmo);
		json_end_object(j);
	} else {
		json_string(j, "rport", NULL);
	}
	json_end_object(j);
}

static void conn_json(struct json *j, const struct iser_conn *c)
{
	json_begin_object(j, NULL);
	json_string(j, "name", c->name);
	str_or_null(j, "state", c->state);
	str_or_null(j, "address", c->address);
	json_int(j, "port", c->port);
	str_or_null(j, "persistent_address", c->persistent_address);
	json_int(j, "persistent_port", c->persistent_port);
	json_int(j, "max_recv_dlength", c->max_recv_dlength);
	json_int(j, "max_xmit_dlength", c->max_xmit_dlength);
	json_int(j, "ping_tmo", c->ping_tmo);
	json_int(j, "recv_tmo", c->recv_tmo);
	json_end_object(j);
}

static void iser_json(struct json *j, const struct iser_session *s)
{
	int i;

	json_begin_object(j, NULL);
	json_string(j, "session", s->name);
	host_json(j, &s->h);
	str_or_null(j, "targetname", s->targetname);
	json_int(j, "tpgt", s->tpgt);
	str_or_null(j, "state", s->state);
	str_or_null(j, "target_state", s->target_state);
	json_int(j, "recovery_tmo", s->recovery_tmo);
	str_or_null(j, "ifacename", s->ifacename);
	json_begin_array(j, "connections");
	for (i = 0; i < s->nconns; i++)
		conn_json(j, &s->conns[i]);
	json_end_array(j);
	json_end_object(j);
}

static void mpath_json(struct json *j, const struct mpath_map *m)
{
	int i;

	json_begin_object(j, NULL);
	json_string(j, "name", m->name);
	json_string(j, "dm", m->dm);
	json_string(j, "uuid", m->uuid);
	json_begin_array(j, "paths");
	for (i = 0; i < m->npaths; i++)
		json_string(j, NULL, m->paths[i]);
	json_end_array(j);
	json_end_object(j);
}

void print_json(const struct status *st, FILE *f)
{
	struct json j;
	int i;

	json_init(&j, f);
	json_begin_object(&j, NULL);
	json_int(&j, "version", 1);
	json_begin_array(&j, "srp");
	for (i = 0; i < st->nsrp; i++)
		srp_json(&j, &st->srp[i]);
	json_end_array(&j);
	json_begin_array(&j, "iser");
	for (i = 0; i < st->niser; i++)
		iser_json(&j, &st->iser[i]);
	json_end_array(&j);
	json_begin_array(&j, "multipath");
	for (i = 0; i < st->nmpath; i++)
		mpath_json(&j, &st->mpath[i]);
	json_end_array(&j);
	json_end_object(&j);
}
