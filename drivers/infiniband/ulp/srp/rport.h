/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: the rport: transport callbacks and channel recovery (rport.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_RPORT_H
#define IB_SRP_RPORT_H

#include "srp.h"

void srp_rport_init_target(struct srp_target *target);
int srp_rport_attach(struct srp_target *target);
int srp_rport_reconnect(struct srp_rport *rport);
void srp_rport_terminate_io(struct srp_rport *rport);
bool srp_rport_fence(struct srp_target *target, const char *why);
void srp_removal_fail(struct srp_target *target, bool lost);
void srp_ch_failed(struct srp_channel *ch);
void srp_ch_lost(struct srp_channel *ch);

#endif /* IB_SRP_RPORT_H */
