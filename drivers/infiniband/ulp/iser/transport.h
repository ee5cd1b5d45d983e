/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_iser: registration of the "iser" iscsi_transport.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef ISER_TRANSPORT_H
#define ISER_TRANSPORT_H

int iser_transport_register(void);
void iser_transport_unregister(void);

#endif /* ISER_TRANSPORT_H */
