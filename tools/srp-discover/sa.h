/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * InfiniBand only: ask the subnet administrator which ports have a device
 * manager (PortInfo.CapabilityMask.IsDM), as srp_daemon does.
 */
#ifndef SRP_DISCOVER_SA_H
#define SRP_DISCOVER_SA_H

#include <stddef.h>

#include "peer.h"

/**
 * srp_sa_dm_ports - the DM-capable ports of the fabric seen from @ibdev:@port
 * @ibdev: local InfiniBand device
 * @port: its port number
 * @timeout_ms: time to wait for each SA answer
 * @retries: resends of an unanswered SA request
 * @paths: set to a malloc()ed array of paths (addressed by LID, no GRH)
 * @npaths: its length
 * @err: why it failed
 * @errlen: size of @err
 *
 * Return: 0, -EOPNOTSUPP on a RoCE port, -ETIMEDOUT when the SA did not
 * answer, -ENOENT when it knows no DM-capable port, or another negative errno.
 */
int srp_sa_dm_ports(const char *ibdev, int port, int timeout_ms, int retries,
		    struct srp_path **paths, int *npaths,
		    char *err, size_t errlen);

#endif /* SRP_DISCOVER_SA_H */
