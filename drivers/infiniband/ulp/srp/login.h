/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: logging one channel in and out (login.c), and the reports of
 * the connection managers.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_LOGIN_H
#define IB_SRP_LOGIN_H

#include "srp.h"

int srp_ch_init(struct srp_target *target, unsigned int idx, bool polled);
int srp_ch_login(struct srp_channel *ch, bool multich, unsigned long timeout);
void srp_ch_release(struct srp_channel *ch);
void srp_target_disconnect(struct srp_target *target, bool logout);
struct srp_cm_id *srp_cm_id_new(struct srp_channel *ch, work_func_t destroy);
void srp_cm_id_closed(struct srp_cm_id *cid);
void srp_cm_id_unlist(struct srp_cm_id *cid);
void srp_cm_id_free(struct srp_cm_id *cid);
void srp_cm_ids_end(void);
int srp_login_init(void);
void srp_login_exit(void);
int srp_cm_login_reply(struct srp_channel *ch, const void *data, u8 len);
void srp_cm_login_reject(struct srp_channel *ch, const void *data, u8 len);
void srp_cm_disconnected(struct srp_channel *ch);

#endif /* IB_SRP_LOGIN_H */
