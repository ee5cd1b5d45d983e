/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: mapping a command's data (data.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_DATA_H
#define IB_SRP_DATA_H

#include "srp.h"

int srp_map_data(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		 struct srp_request *req, struct srp_iu_cmd *cmd,
		 unsigned int desc_off, struct ib_send_wr **reg_wrs);
int srp_inv_data(struct srp_channel *ch, struct srp_request *req);
void srp_cancel_data(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		     struct srp_request *req);
void srp_unmap_data(struct srp_channel *ch, struct scsi_cmnd *scmnd,
		    struct srp_request *req);

#endif /* IB_SRP_DATA_H */
