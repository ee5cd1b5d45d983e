/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: the IB client and the infiniband_srp class (client.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_CLIENT_H
#define IB_SRP_CLIENT_H

#include "srp.h"

int srp_client_register(void);
void srp_client_unregister(void);

#endif /* IB_SRP_CLIENT_H */
