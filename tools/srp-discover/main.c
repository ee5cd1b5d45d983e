// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * srp-discover: find SRP targets through InfiniBand Device Management MADs,
 * on RoCE as well as on InfiniBand, print ready add_target lines, log in,
 * or keep logging in as a daemon.
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srp_discover.h"

static const char usage[] =
"NAME\n"
"    srp-discover - find SRP targets over RoCE or InfiniBand and log in to them\n"
"\n"
"SYNOPSIS\n"
"    srp-discover [OPTIONS] TARGET...\n"
"    srp-discover --execute [OPTIONS] TARGET...\n"
"    srp-discover --daemon [OPTIONS] [TARGET...]\n"
"    srp-discover --sa --device DEV[:PORT] [OPTIONS]\n"
"\n"
"DESCRIPTION\n"
"    Queries the Device Management agent of each TARGET port (ClassPortInfo,\n"
"    IOUnitInfo, IOControllerProfile per I/O controller slot, ServiceEntries)\n"
"    and prints one add_target line per SRP target port it offers, ready to be\n"
"    written to /sys/class/infiniband_srp/srp-DEV-PORT/add_target, in\n"
"    srp_daemon's format. On RoCE the line uses RDMA/CM (dest=IP:PORT); on\n"
"    InfiniBand it uses IB CM (dgid, pkey, service_id).\n"
"\n"
"    Requests go to the target's QP 1 with Q_Key 0x80010000. On RoCE they\n"
"    carry a GRH from the local port's link-local GID to the target port's\n"
"    link-local GID, which address resolution derives from the target's MAC\n"
"    address. Targets already logged in on the same local port are skipped\n"
"    unless --all is given.\n"
"\n"
"TARGETS\n"
"    A.B.C.D[:PORT]     IPv4 address of the target port; PORT is the target's\n"
"                       RDMA/CM port for the login (default 5555, see --cm-port)\n"
"    IPv6, [IPv6%%SCOPE]:PORT\n"
"                       IPv6 address, same meaning\n"
"    gid:GID            the target port's GID; needs --device. On RoCE the\n"
"                       login goes to the link-local address [GID%%ifindex]\n"
"    The local port is the one address resolution picks for the address.\n"
"    On InfiniBand, --sa finds the targets itself, as srp_daemon does.\n"
"\n"
"OPTIONS\n"
"    -d, --device DEV[:PORT]  use this local RDMA device and port (default\n"
"                       port 1); an IP target reached elsewhere is an error\n"
"    -s, --source ADDR  source address for address resolution; also written\n"
"                       as src= into RDMA/CM lines\n"
"    -P, --cm-port PORT RDMA/CM port of targets given without one (5555)\n"
"    -t, --timeout MS   wait this long for each answer (default 1000)\n"
"    -r, --retries N    resend an unanswered request N times (default 2)\n"
"    -n, --initiator-ext  add initiator_ext=<target port GUID> to each line\n"
"                       (srp_daemon -n)\n"
"    -l, --tl-retry-count N  add tl_retry_count=N (2..7) to each line\n"
"    -a, --all          also print targets that are already logged in\n"
"    -e, --execute      log in: write each line to add_target\n"
"    -f, --config FILE  rules and peers (default " SRP_DEFAULT_CONFIG ")\n"
"    -D, --daemon       log in to every allowed target of every TARGET and\n"
"                       'peer' of the config file, again after each rescan:\n"
"                       every --rescan seconds, 5 s after a failure, and soon\n"
"                       after a port becomes active or changes its GID 0,\n"
"                       LID or SM LID. Like srp_daemon -e -c -n.\n"
"                       SIGHUP reloads the config file.\n"
"    -R, --rescan SECS  daemon rescan interval (default 60)\n"
"    -S, --sa           InfiniBand: query every port the subnet administrator\n"
"                       lists with a device manager (IsDM), through --device\n"
"    -v, --verbose      describe the I/O unit, controllers and services on\n"
"                       stderr, as ibsrpdm does\n"
"    -h, --help         this text\n"
"\n"
"CONFIG FILE\n"
"    srp_daemon.conf rules, one per line, the first matching rule decides;\n"
"    a target no rule matches is allowed:\n"
"      a|d [id_ext=HEX] [ioc_guid=HEX] [dgid=32HEX] [service_id=HEX] [pkey=HEX]\n"
"          [OPTION=N]...   (OPTION, allow rules only: allow_ext_sg, ch_count,\n"
"          cmd_sg_entries, comp_vector, max_cmd_per_lun, max_sect,\n"
"          queue_size, sg_tablesize, tl_retry_count)\n"
"    and target ports to query, in the TARGET syntax above:\n"
"      peer TARGET\n"
"\n"
"EXIT STATUS\n"
"    0  every TARGET offered at least one SRP target port (and logins worked)\n"
"    1  usage error\n"
"    2  a TARGET could not be resolved to a local RDMA port and address\n"
"    3  a TARGET did not answer within the timeout\n"
"    4  a TARGET answered but offers no SRP (no DM agent, no I/O controller,\n"
"       or only non-SRP controllers)\n"
"    5  a login failed\n"
"    6  local failure (no MAD access, no link-local GID)\n"
"    With several TARGETs the status of the first failing one is returned.\n"
"\n"
"EXAMPLES\n"
"    srp-discover 192.0.2.1 198.51.100.1\n"
"    srp-discover -e 192.0.2.1:5555\n"
"    srp-discover -d rxe0:1 gid:fe80::5054:ff:fe12:3456\n"
"    srp-discover --daemon -R 30 192.0.2.1 198.51.100.1\n"
"\n"
"SEE ALSO\n"
"    srp_daemon(8), ibsrpdm(8), rdi-status(8)\n";

static const struct option long_opts[] = {
	{ "device",		required_argument, NULL, 'd' },
	{ "source",		required_argument, NULL, 's' },
	{ "cm-port",		required_argument, NULL, 'P' },
	{ "timeout",		required_argument, NULL, 't' },
	{ "retries",		required_argument, NULL, 'r' },
	{ "initiator-ext",	no_argument,	   NULL, 'n' },
	{ "tl-retry-count",	required_argument, NULL, 'l' },
	{ "all",		no_argument,	   NULL, 'a' },
	{ "execute",		no_argument,	   NULL, 'e' },
	{ "config",		required_argument, NULL, 'f' },
	{ "daemon",		no_argument,	   NULL, 'D' },
	{ "rescan",		required_argument, NULL, 'R' },
	{ "sa",			no_argument,	   NULL, 'S' },
	{ "verbose",		no_argument,	   NULL, 'v' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ }
};

static int parse_num(const char *s, const char *what, long min, long max,
		     long *val)
{
	char *end;

	errno = 0;
	*val = strtol(s, &end, 10);
	if (errno || end == s || *end || *val < min || *val > max) {
		fprintf(stderr, "srp-discover: %s must be a number from %ld to %ld\n",
			what, min, max);
		return -EINVAL;
	}
	return 0;
}

static int parse_device(struct srp_opts *o, char *arg)
{
	char *colon = strchr(arg, ':');
	long port = 1;

	if (colon) {
		*colon = '\0';
		if (parse_num(colon + 1, "the port number", 1, 255, &port))
			return -EINVAL;
	}
	o->ibdev = arg;
	o->port = port;
	return 0;
}

static int parse_source(struct srp_opts *o, const char *arg)
{
	struct srp_peer tmp;

	if (srp_peer_parse(&tmp, arg, 1) || tmp.kind != SRP_PEER_ADDR) {
		fprintf(stderr, "srp-discover: bad source address %s\n", arg);
		return -EINVAL;
	}
	o->src = tmp.addr;
	if (o->src.ss_family == AF_INET)
		((struct sockaddr_in *)&o->src)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&o->src)->sin6_port = 0;
	o->has_src = true;
	snprintf(o->src_str, sizeof(o->src_str), "%s", arg);
	return 0;
}

static int parse_opts(struct srp_opts *o, int argc, char **argv)
{
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "d:s:P:t:r:nl:aef:DR:Svh", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			if (parse_device(o, optarg))
				return -EINVAL;
			break;
		case 's':
			if (parse_source(o, optarg))
				return -EINVAL;
			break;
		case 'P':
			if (parse_num(optarg, "--cm-port", 1, 65535, &v))
				return -EINVAL;
			o->cm_port = v;
			break;
		case 't':
			if (parse_num(optarg, "--timeout", 1, 600000, &v))
				return -EINVAL;
			o->timeout_ms = v;
			break;
		case 'r':
			if (parse_num(optarg, "--retries", 0, 20, &v))
				return -EINVAL;
			o->retries = v;
			break;
		case 'l':
			if (parse_num(optarg, "--tl-retry-count", 2, 7, &v))
				return -EINVAL;
			o->tl_retry_count = v;
			break;
		case 'R':
			if (parse_num(optarg, "--rescan", 1, 86400, &v))
				return -EINVAL;
			o->rescan_s = v;
			break;
		case 'n':
			o->initiator_ext = true;
			break;
		case 'a':
			o->all = true;
			break;
		case 'e':
			o->execute = true;
			break;
		case 'f':
			o->config_path = optarg;
			o->config_given = true;
			break;
		case 'D':
			o->daemon = true;
			break;
		case 'S':
			o->sa = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			fprintf(stderr, "Try 'srp-discover --help'.\n");
			return -EINVAL;
		}
	}
	return 0;
}

static int run_once(const struct srp_opts *o, const struct srp_peer *peers,
		    int npeers)
{
	enum srp_result res, worst = SRP_OK;
	struct srp_scan_stats st;
	char err[512];
	int i;

	for (i = 0; i < npeers + o->sa; i++) {
		if (i < npeers)
			res = srp_scan_peer(o, &peers[i], stdout, &st, err,
					    sizeof(err));
		else
			res = srp_scan_fabric(o, stdout, &st, err, sizeof(err));
		if (res != SRP_OK)
			fprintf(stderr, "srp-discover: %s\n", err);
		if (worst == SRP_OK)
			worst = res;
	}
	return worst;
}

int main(int argc, char **argv)
{
	struct srp_opts o = {
		.cm_port = SRP_DEFAULT_CM_PORT,
		.timeout_ms = 1000,
		.retries = 2,
		.config_path = SRP_DEFAULT_CONFIG,
		.rescan_s = 60,
	};
	struct srp_peer *peers;
	char err[512];
	int npeers, ret;

	if (parse_opts(&o, argc, argv))
		return SRP_ERR_USAGE;
	if (srp_config_load(&o.cfg, o.config_path, o.config_given, err,
			    sizeof(err))) {
		fprintf(stderr, "srp-discover: %s\n", err);
		return SRP_ERR_USAGE;
	}
	peers = srp_collect_peers(&o, argv + optind, argc - optind, &npeers);
	if (!peers) {
		ret = SRP_ERR_USAGE;
		goto out_free_config;
	}
	if (!npeers && !o.sa) {
		fprintf(stderr, "srp-discover: no target given (see --help)\n");
		ret = SRP_ERR_USAGE;
	} else if (o.sa && !o.ibdev) {
		fprintf(stderr, "srp-discover: --sa needs --device DEV[:PORT]\n");
		ret = SRP_ERR_USAGE;
	} else if (o.daemon) {
		o.execute = true;
		ret = srp_daemon_run(&o, argv + optind, argc - optind);
	} else {
		ret = run_once(&o, peers, npeers);
	}
	free(peers);
out_free_config:
	srp_config_free(&o.cfg);
	return ret;
}
