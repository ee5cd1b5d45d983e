/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: per-channel statistics in debugfs (stats.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_STATS_H
#define IB_SRP_STATS_H

#include "srp.h"

void srp_debugfs_add(struct srp_target *target);
void srp_debugfs_remove(struct srp_target *target);
void srp_debugfs_init(void);
void srp_debugfs_exit(void);

#endif /* IB_SRP_STATS_H */
