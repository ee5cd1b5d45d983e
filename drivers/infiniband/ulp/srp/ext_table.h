/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: external descriptor tables (ext_table.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_EXT_TABLE_H
#define IB_SRP_EXT_TABLE_H

#include "srp.h"

int srp_ext_table_alloc(struct srp_target *target, struct srp_request *req);
void srp_ext_table_free(struct srp_target *target, struct srp_request *req);
int srp_ext_table_fill(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		       struct srp_request *req, struct srp_indirect_desc *ind,
		       int count, struct ib_send_wr **reg_wrs);

#endif /* IB_SRP_EXT_TABLE_H */
