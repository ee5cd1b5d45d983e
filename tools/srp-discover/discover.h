/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The DM walk over one target port: IOUnitInfo, IOC profiles, services. */
#ifndef SRP_DISCOVER_DISCOVER_H
#define SRP_DISCOVER_DISCOVER_H

#include <stdio.h>

#include "dm.h"
#include "peer.h"
#include "target.h"

/* Outcome classes, also the exit codes of srp-discover. */
enum srp_result {
	SRP_OK			= 0,
	SRP_ERR_USAGE		= 1,
	SRP_ERR_RESOLVE		= 2,	/* no route or address to the peer */
	SRP_ERR_TIMEOUT		= 3,	/* the peer did not answer */
	SRP_ERR_NOT_SRP		= 4,	/* it answered, but offers no SRP */
	SRP_ERR_LOGIN		= 5,	/* add_target failed */
	SRP_ERR_LOCAL		= 6,	/* local port or library failure */
};

typedef int (*srp_found_fn)(const struct srp_target_port *t, void *arg);

/**
 * srp_discover - query the DM agent at @path and report its SRP services
 * @dm: open DM client on the local port of @path
 * @path: where the target port is
 * @verbose: when non-NULL, an ibsrpdm-like description goes there
 * @found: called for each SRP target port (a non-zero return stops the walk)
 * @arg: passed to @found
 * @err: explanation of a failure
 * @errlen: size of @err
 *
 * Return: SRP_OK if at least one SRP target port was found, else the class
 * of the failure.
 */
enum srp_result srp_discover(struct dm_client *dm, const struct srp_path *path,
			     FILE *verbose, srp_found_fn found, void *arg,
			     char *err, size_t errlen);

#endif /* SRP_DISCOVER_DISCOVER_H */
