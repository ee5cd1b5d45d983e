/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: task management functions (tmf.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_TMF_H
#define IB_SRP_TMF_H

#include "srp.h"

int srp_send_tmf(struct srp_channel *ch, u64 task_tag, u64 lun, u8 func);
void srp_tmf_response(struct srp_channel *ch, const struct srp_rsp_info *rsp);

#endif /* IB_SRP_TMF_H */
