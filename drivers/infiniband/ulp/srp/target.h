/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: target lifetime (target.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_TARGET_H
#define IB_SRP_TARGET_H

#include "srp.h"

int srp_target_init(struct scsi_transport_template *transport);
void srp_target_exit(void);
int srp_target_add(struct srp_host *host, struct srp_target_opts *opts);
void srp_target_queue_remove(struct srp_target *target);
void srp_target_stop_adding(struct srp_host *host);
void srp_target_remove_all(struct srp_host *host);

#endif /* IB_SRP_TARGET_H */
