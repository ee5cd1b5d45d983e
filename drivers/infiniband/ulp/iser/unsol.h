/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * How many commands a connection's send queue carries, and how many
 * unsolicited Data-Out PDUs a write command sends: pure logic,
 * compiled in the kernel and, against tests/unit/shim, by
 * tests/unit/test_iser_unsol.c.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef ISER_UNSOL_H
#define ISER_UNSOL_H

#include <linux/types.h>

unsigned int iser_sq_cmds(int max_qp_wr, unsigned int reserved,
			  unsigned int per_cmd, unsigned int max);
unsigned int iser_unsol_plan(u32 unsol_len, u32 seg_len, unsigned int nr_dout,
			     unsigned int in_flight, unsigned int room);

#endif /* ISER_UNSOL_H */
