/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: keep-alive of a channel (keepalive.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_KEEPALIVE_H
#define IB_SRP_KEEPALIVE_H

#include "srp.h"

void srp_ka_init(struct srp_channel *ch);
int srp_ka_login_probe(struct srp_channel *ch);
void srp_ka_start(struct srp_channel *ch);
void srp_ka_stop(struct srp_channel *ch);

#endif /* IB_SRP_KEEPALIVE_H */
