/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: SCSI host attributes (sysfs.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_SYSFS_H
#define IB_SRP_SYSFS_H

#include "srp.h"

extern const struct attribute_group *srp_host_groups[];

#endif /* IB_SRP_SYSFS_H */
