/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: the command path (cmd.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_CMD_H
#define IB_SRP_CMD_H

#include "srp.h"

int srp_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *scmnd);
bool srp_cmd_recv(struct srp_channel *ch, struct srp_iu *rx, u32 len);
int srp_mq_poll(struct Scsi_Host *shost, unsigned int queue_num);
int srp_init_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *scmnd);
int srp_exit_cmd_priv(struct Scsi_Host *shost, struct scsi_cmnd *scmnd);
void srp_fail_outstanding(struct srp_target *target, struct scsi_device *sdev,
			  u8 host_byte);
void srp_fail_channel(struct srp_channel *ch, u8 host_byte);
struct scsi_cmnd *srp_claim_req(struct srp_channel *ch,
				struct srp_request *req);
void srp_complete_cmd(struct srp_channel *ch, struct scsi_cmnd *scmnd);
void srp_cmd_ch_init(struct srp_channel *ch);
bool srp_wait_completing(struct srp_target *target, struct scsi_device *sdev,
			 struct srp_request *req);

#endif /* IB_SRP_CMD_H */
