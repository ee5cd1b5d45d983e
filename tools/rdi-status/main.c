// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi-status: what SRP and iSER targets this host is logged in to, over
 * which paths, in which state, and which disks and multipath maps sit on
 * top. Reads sysfs only; works with our drivers and the in-tree ones.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

static const char usage[] =
"NAME\n"
"    rdi-status - show the SRP and iSER targets this host is logged in to\n"
"\n"
"SYNOPSIS\n"
"    rdi-status [--json] [--verbose]\n"
"\n"
"DESCRIPTION\n"
"    Lists, from sysfs:\n"
"    - every SRP login (SCSI host of ib_srp): local RDMA device and port,\n"
"      id_ext, ioc_guid, destination GID or address, state of the remote port\n"
"      (running, blocked, fail-fast, lost), channel count, credits (req_lim,\n"
"      zero_req_lim), keep-alive (seconds and on/off/refused; \"-\" or null\n"
"      with a driver that has none, such as the in-tree ib_srp), reconnect\n"
"      settings and failed reconnects;\n"
"    - every iSER session (iscsi_session on an iscsi_iser host): target name,\n"
"      portal, session and connection state, timeouts;\n"
"    - for both, the LUNs with block device, size, state, I/O counters\n"
"      (iorequest_cnt, iodone_cnt, ioerr_cnt) and the driver's counters\n"
"      (the SCSI host's \"stats\" attribute, where the driver has one);\n"
"    - the dm-multipath maps and the disks under them.\n"
"\n"
"OPTIONS\n"
"    -j, --json     print JSON instead of tables: an object with \"version\"\n"
"                   (1), \"srp\", \"iser\" and \"multipath\" arrays. Field names are\n"
"                   the sysfs attribute names; an attribute the driver does not\n"
"                   have (dgid on an RDMA/CM login, for example) is null.\n"
"    -v, --verbose  tables with one line per LUN, rport and queue details\n"
"    -h, --help     this text\n"
"\n"
"ENVIRONMENT\n"
"    SYSFS_PATH     read this directory instead of /sys\n"
"\n"
"EXIT STATUS\n"
"    0 on success (also when nothing is logged in), 1 on a usage error,\n"
"    2 when sysfs could not be read.\n"
"\n"
"SEE ALSO\n"
"    srp-discover(8), iscsiadm(8), multipath(8)\n";

static const struct option long_opts[] = {
	{ "json",	no_argument, NULL, 'j' },
	{ "verbose",	no_argument, NULL, 'v' },
	{ "help",	no_argument, NULL, 'h' },
	{ }
};

int main(int argc, char **argv)
{
	bool json = false, verbose = false;
	struct status *st;
	int c, err;

	while ((c = getopt_long(argc, argv, "jvh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fprintf(stderr, "Try 'rdi-status --help'.\n");
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rdi-status: unexpected argument %s\n", argv[optind]);
		return 1;
	}

	st = calloc(1, sizeof(*st));
	if (!st) {
		perror("rdi-status");
		return 2;
	}
	err = collect_srp(st);
	if (!err)
		err = collect_iser(st);
	if (!err)
		err = collect_multipath(st);
	if (err < 0) {
		fprintf(stderr, "rdi-status: cannot read sysfs: %s\n", strerror(-err));
		free(st);
		return 2;
	}
	if (json)
		print_json(st, stdout);
	else
		print_table(st, stdout, verbose);
	free(st);
	return 0;
}
