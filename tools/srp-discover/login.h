/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Logging in through ib_srp's add_target and finding existing logins. */
#ifndef SRP_DISCOVER_LOGIN_H
#define SRP_DISCOVER_LOGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

/*
 * Whether an SRP SCSI host for @t exists on @t's local port. Compares the
 * attributes srp_daemon compares (id_ext, ioc_guid, local_ib_device,
 * local_ib_port and, for IB CM logins, service_id and orig_dgid/dgid); a
 * host whose remote port is already "lost" does not count.
 */
bool srp_target_connected(const struct srp_target_port *t);

/*
 * Write @line to /sys/class/infiniband_srp/srp-<ibdev>-<port>/add_target.
 * Returns 0 or the negative errno of the write (-EEXIST: already logged in).
 */
int srp_login(const struct srp_target_port *t, const char *line);

/*
 * max_it_iu_size to request so that immediate data fits the target's
 * largest SEND, as srp_daemon does: @send_size when the loaded ib_srp uses
 * immediate data and its max_imm_data exceeds @send_size, else 0 (none).
 */
uint32_t srp_max_it_iu_size(uint32_t send_size);

#endif /* SRP_DISCOVER_LOGIN_H */
