// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi-status against a fake sysfs tree (SYSFS_PATH): an RDMA/CM SRP login
 * with one LUN under a multipath map, an iSER session, and a host of
 * another driver that must be left out. Also the JSON writer's escaping, and
 * the table's DESTINATION column with an IPv6 link-local destination.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdi_test.h"
#include "rdi-status/status.h"

/* longer than the 24 columns DESTINATION has at least */
#define DEST_LL "[fe80::5054:ff:fe12:3401%2]:5555"

static char root[64];

static void put(const char *rel, const char *val)
{
	char path[512], dir[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = dir + strlen(root) + 1; (slash = strchr(slash, '/'));
	     slash++) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	fputs(val, f);
	fclose(f);
}

static void link_to(const char *rel, const char *target)
{
	char path[512], abs[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(abs, sizeof(abs), "%s/%s", root, target);
	symlink(abs, path);
}

static void build_tree(void)
{
	strcpy(root, "/tmp/rdi-sysfs-XXXXXX");
	mkdtemp(root);
	setenv("SYSFS_PATH", root, 1);

	/* SRP login, host3, RDMA/CM: no dgid/orig_dgid/service_id/pkey */
	put("devices/host3/scsi_host/host3/proc_name", "ib_srp\n");
	put("devices/host3/scsi_host/host3/id_ext", "0x744c8efffe4a7b42\n");
	put("devices/host3/scsi_host/host3/ioc_guid", "0x744c8efffe4a7b42\n");
	put("devices/host3/scsi_host/host3/local_ib_device", "rxe0\n");
	put("devices/host3/scsi_host/host3/local_ib_port", "1\n");
	put("devices/host3/scsi_host/host3/req_lim", "62\n");
	put("devices/host3/scsi_host/host3/zero_req_lim", "0\n");
	put("devices/host3/scsi_host/host3/ch_count", "2\n");
	put("devices/host3/scsi_host/host3/poll_queues", "3\n");
	put("devices/host3/scsi_host/host3/allow_ext_sg", "false\n");
	put("devices/host3/scsi_host/host3/can_queue", "64\n");
	put("devices/host3/scsi_host/host3/host_busy", "0\n");
	put("devices/host3/scsi_host/host3/stats", "cmds 31\nerrors 0\n");
	put("devices/host3/scsi_host/host3/keepalive", "5\n");
	put("devices/host3/scsi_host/host3/keepalive_state", "on\n");
	put("devices/host3/scsi_host/host3/dest", DEST_LL "\n");
	/* empty directories for the links below */
	put("class/scsi_host/.keep", "");
	put("block/.keep", "");
	link_to("class/scsi_host/host3", "devices/host3/scsi_host/host3");
	link_to("devices/host3/scsi_host/host3/device", "devices/host3");
	put("devices/host3/target3:0:0/3:0:0:0/vendor", "LIO-ORG \n");
	put("devices/host3/target3:0:0/3:0:0:0/state", "running\n");
	put("devices/host3/target3:0:0/3:0:0:0/iorequest_cnt", "0x1f\n");
	put("devices/host3/target3:0:0/3:0:0:0/iodone_cnt", "0x1f\n");
	put("devices/host3/target3:0:0/3:0:0:0/ioerr_cnt", "0x0\n");
	put("devices/host3/target3:0:0/3:0:0:0/block/sdb/size", "524288\n");
	put("devices/dm-0/dm/name", "mpatha\n");
	put("devices/dm-0/dm/uuid", "mpath-36001405aaaa\n");
	put("devices/dm-0/slaves/.keep", "");
	link_to("devices/dm-0/slaves/sdb", "devices/host3/target3:0:0/3:0:0:0/block/sdb");
	link_to("block/sdb", "devices/host3/target3:0:0/3:0:0:0/block/sdb");
	link_to("block/dm-0", "devices/dm-0");
	put("devices/host3/target3:0:0/3:0:0:0/block/sdb/holders/.keep", "");
	link_to("devices/host3/target3:0:0/3:0:0:0/block/sdb/holders/dm-0", "devices/dm-0");
	put("class/srp_remote_ports/port-3:1/state", "running\n");
	put("class/srp_remote_ports/port-3:1/failed_reconnects", "0\n");
	put("class/srp_remote_ports/port-3:1/dev_loss_tmo", "600\n");

	/* a host of another driver */
	put("devices/host0/scsi_host/host0/proc_name", "ata_piix\n");
	link_to("class/scsi_host/host0", "devices/host0/scsi_host/host0");

	/* iSER session 1 on host4, connection 1:0 */
	put("devices/host4/scsi_host/host4/proc_name", "iscsi_iser\n");
	put("devices/host4/scsi_host/host4/stats/reconnects", "3\n");
	link_to("class/scsi_host/host4", "devices/host4/scsi_host/host4");
	link_to("devices/host4/scsi_host/host4/device", "devices/host4");
	put("devices/host4/session1/iscsi_session/session1/targetname", "iqn.2026-11.org.example:lab\n");
	put("devices/host4/session1/iscsi_session/session1/state", "LOGGED_IN\n");
	put("devices/host4/session1/iscsi_session/session1/tpgt", "1\n");
	put("class/iscsi_session/.keep", "");
	link_to("class/iscsi_session/session1", "devices/host4/session1/iscsi_session/session1");
	link_to("devices/host4/session1/iscsi_session/session1/device", "devices/host4/session1");
	put("class/iscsi_connection/connection1:0/address", "192.0.2.1\n");
	put("class/iscsi_connection/connection1:0/port", "3260\n");
	put("class/iscsi_connection/connection1:0/state", "up\n");
	put("class/iscsi_connection/connection10:0/address", "203.0.113.9\n");
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
}

RDI_TEST(status_srp_login_from_sysfs)
{
	struct status *st = calloc(1, sizeof(*st));
	const struct srp_host *s = &st->srp[0];

	build_tree();
	EXPECT_EQ(collect_srp(st), 0);
	EXPECT_EQ(st->nsrp, 1);
	EXPECT_EQ(s->h.host, 3);
	EXPECT(!strcmp(s->id_ext, "0x744c8efffe4a7b42"));
	EXPECT(!strcmp(s->ibdev, "rxe0"));
	EXPECT_EQ(s->port, 1);
	EXPECT_EQ(s->ch_count, 2);
	EXPECT_EQ(s->poll_queues, 3);
	EXPECT_EQ(s->req_lim, 62);
	EXPECT_EQ(s->comp_vector, RDI_JSON_NONE);
	EXPECT_EQ(s->dgid[0], '\0');
	EXPECT(!strcmp(s->rport, "port-3:1"));
	EXPECT(!strcmp(s->rport_state, "running"));
	EXPECT_EQ(s->keepalive, 5);
	EXPECT(!strcmp(s->keepalive_state, "on"));
	EXPECT(!strcmp(s->dest, DEST_LL));
	EXPECT_EQ(s->h.can_queue, 64);
	EXPECT_EQ(s->h.nstats, 2);	/* "stats" attribute: name value lines */
	EXPECT(!strcmp(s->h.stats[0].name, "cmds"));
	EXPECT_EQ(s->h.stats[0].value, 31);
	EXPECT(!strcmp(s->h.stats[1].name, "errors"));
	EXPECT_EQ(s->h.nluns, 1);
	EXPECT(!strcmp(s->h.luns[0].hctl, "3:0:0:0"));
	EXPECT(!strcmp(s->h.luns[0].vendor, "LIO-ORG"));
	EXPECT(!strcmp(s->h.luns[0].block, "sdb"));
	EXPECT_EQ(s->h.luns[0].size_bytes, 524288LL * 512);
	EXPECT_EQ(s->h.luns[0].iorequest_cnt, 31);
	EXPECT(!strcmp(s->h.luns[0].multipath, "mpatha"));

	EXPECT_EQ(collect_multipath(st), 0);
	EXPECT_EQ(st->nmpath, 1);
	EXPECT(!strcmp(st->mpath[0].name, "mpatha"));
	EXPECT_EQ(st->mpath[0].npaths, 1);
	EXPECT(!strcmp(st->mpath[0].paths[0], "sdb"));
	remove_tree();
	free(st);
}

RDI_TEST(status_iser_session_from_sysfs)
{
	struct status *st = calloc(1, sizeof(*st));
	const struct iser_session *s = &st->iser[0];

	build_tree();
	EXPECT_EQ(collect_iser(st), 0);
	EXPECT_EQ(st->niser, 1);
	EXPECT(!strcmp(s->name, "session1"));
	EXPECT_EQ(s->h.host, 4);
	EXPECT(!strcmp(s->targetname, "iqn.2026-11.org.example:lab"));
	EXPECT(!strcmp(s->state, "LOGGED_IN"));
	EXPECT_EQ(s->tpgt, 1);
	EXPECT_EQ(s->h.nstats, 1);	/* "stats" directory: file per counter */
	EXPECT(!strcmp(s->h.stats[0].name, "reconnects"));
	EXPECT_EQ(s->h.stats[0].value, 3);
	EXPECT_EQ(s->nconns, 1);	/* connection10:0 is another session's */
	EXPECT(!strcmp(s->conns[0].address, "192.0.2.1"));
	EXPECT_EQ(s->conns[0].port, 3260);
	remove_tree();
	free(st);
}

/* column of WORD in the line of TEXT that starts with START, or -1 */
static int column_of(const char *text, const char *start, const char *word)
{
	const char *l = text, *w, *end;

	while (l && *l) {
		end = strchr(l, '\n');
		if (!strncmp(l, start, strlen(start))) {
			w = strstr(l, word);
			return w && (!end || w < end) ? (int)(w - l) : -1;
		}
		l = end ? end + 1 : NULL;
	}
	return -1;
}

RDI_TEST(status_table_destination_column)
{
	struct status *st = calloc(1, sizeof(*st));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	build_tree();
	EXPECT_EQ(collect_srp(st), 0);
	print_table(st, f, false);
	fclose(f);
	/* the whole destination in its column, the next column after it */
	EXPECT_EQ(column_of(buf, "HOST ", "DESTINATION"),
		  column_of(buf, "host3 ", DEST_LL));
	EXPECT(column_of(buf, "HOST ", "STATE") > 0);
	EXPECT_EQ(column_of(buf, "HOST ", "STATE"),
		  column_of(buf, "host3 ", "running"));
	/* POLL between CH and REQ_LIM, right-aligned like them */
	EXPECT(column_of(buf, "HOST ", "POLL") > 0);
	EXPECT_EQ(column_of(buf, "HOST ", "POLL"),
		  column_of(buf, "host3 ", "   3      62"));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	print_json(st, f);
	fclose(f);
	EXPECT(strstr(buf, "\"dest\": \"" DEST_LL "\""));
	EXPECT(strstr(buf, "\"poll_queues\": 3"));
	remove_tree();
	free(buf);
	free(st);
}

RDI_TEST(status_json_nulls_and_escaping)
{
	struct status *st = calloc(1, sizeof(*st));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	st->nsrp = 1;
	st->srp[0].h.host = 7;
	st->srp[0].req_lim = RDI_JSON_NONE;
	st->srp[0].keepalive = RDI_JSON_NONE;	/* in-tree ib_srp */
	st->srp[0].poll_queues = RDI_JSON_NONE;
	strcpy(st->srp[0].id_ext, "a\"b\\c\n");
	print_json(st, f);
	fclose(f);
	EXPECT(strstr(buf, "\"version\": 1"));
	EXPECT(strstr(buf, "\"host\": 7"));
	EXPECT(strstr(buf, "\"req_lim\": null"));
	EXPECT(strstr(buf, "\"dgid\": null"));
	EXPECT(strstr(buf, "\"dest\": null"));
	EXPECT(strstr(buf, "\"keepalive\": null"));
	EXPECT(strstr(buf, "\"keepalive_state\": null"));
	EXPECT(strstr(buf, "\"poll_queues\": null"));
	EXPECT(strstr(buf, "\"id_ext\": \"a\\\"b\\\\c\\n\""));
	EXPECT(strstr(buf, "\"luns\": []"));
	EXPECT(strstr(buf, "\"rport\": null"));
	EXPECT(strstr(buf, "\"iser\": []"));
	free(buf);
	free(st);
}

RDI_TEST_MAIN()
