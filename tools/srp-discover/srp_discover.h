/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Options of srp-discover and the per-peer scan shared by both modes. */
#ifndef SRP_DISCOVER_H
#define SRP_DISCOVER_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>

#include "config.h"
#include "discover.h"
#include "peer.h"

#define SRP_DEFAULT_CONFIG	"/etc/rdi/srp-discover.conf"

struct srp_opts {
	const char *ibdev;		/* --device, or NULL */
	int	port;			/* 0: any */
	struct sockaddr_storage src;	/* --source */
	bool	has_src;
	char	src_str[64];
	uint16_t cm_port;
	int	timeout_ms;
	int	retries;
	bool	initiator_ext;
	bool	all;
	bool	execute;
	bool	verbose;
	int	tl_retry_count;
	const char *config_path;
	bool	config_given;
	int	rescan_s;
	bool	daemon;
	bool	sa;			/* --sa: IB fabric scan */
	struct srp_config cfg;
};

/**
 * struct srp_scan_stats - what one scan of a peer did
 * @found: SRP target ports the peer offers
 * @printed: add_target lines printed
 * @logged_in: successful logins
 * @failed: failed logins
 */
struct srp_scan_stats {
	int	found;
	int	printed;
	int	logged_in;
	int	failed;
};

/**
 * srp_scan_peer - resolve @p, query it and print and/or log in
 * @o: options
 * @p: the target port
 * @out: where add_target lines go, or NULL to print nothing
 * @st: what the scan did
 * @err: explanation of the first failure
 * @errlen: size of @err
 *
 * Return: SRP_OK or the class of the first failure.
 */
enum srp_result srp_scan_peer(const struct srp_opts *o,
			      const struct srp_peer *p, FILE *out,
			      struct srp_scan_stats *st, char *err,
			      size_t errlen);

/**
 * srp_scan_path - query the target port at @path, print and/or log in
 * @o: options
 * @path: where the target port is
 * @label: how to name the target port in messages
 * @out: where add_target lines go, or NULL to print nothing
 * @st: what the scan did
 * @err: explanation of the first failure
 * @errlen: size of @err
 *
 * Return: SRP_OK or the class of the first failure.
 */
enum srp_result srp_scan_path(const struct srp_opts *o,
			      const struct srp_path *path, const char *label,
			      FILE *out, struct srp_scan_stats *st, char *err,
			      size_t errlen);

/*
 * srp_scan_fabric - scan every DM-capable port the subnet administrator of
 * the --device port knows (InfiniBand). Ports that offer no SRP are skipped;
 * SRP_ERR_NOT_SRP only if none does.
 */
enum srp_result srp_scan_fabric(const struct srp_opts *o, FILE *out,
				struct srp_scan_stats *st, char *err,
				size_t errlen);

/*
 * The peers named by @args followed by the config file's "peer" lines, in
 * a calloc()ed array; NULL (after saying why on stderr) if one is invalid.
 */
struct srp_peer *srp_collect_peers(const struct srp_opts *o, char **args,
				   int nargs, int *npeers);

/*
 * Daemon mode: scan @args and the config's peers, log in, rescan, until
 * SIGTERM/SIGINT; SIGHUP reloads the config file.
 */
int srp_daemon_run(struct srp_opts *o, char **args, int nargs);

#endif /* SRP_DISCOVER_H */
