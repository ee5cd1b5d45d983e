/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: the connection managers: RDMA/CM (cm_rdma.c) and IB CM
 * (cm_ib.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_CM_H
#define IB_SRP_CM_H

#include "channel.h"

extern const struct srp_cm_ops srp_rdma_cm_ops;
extern const struct srp_cm_ops srp_ib_cm_ops;
void srp_ib_cm_register(void);
void srp_ib_cm_unregister(void);

#endif /* IB_SRP_CM_H */
