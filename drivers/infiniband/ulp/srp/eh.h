/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: SCSI error handlers (eh.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_EH_H
#define IB_SRP_EH_H

#include "srp.h"

int srp_eh_abort(struct scsi_cmnd *scmnd);
int srp_eh_device_reset(struct scsi_cmnd *scmnd);
int srp_eh_host_reset(struct scsi_cmnd *scmnd);

#endif /* IB_SRP_EH_H */
