/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdi_core internals shared between its own files (not part of the API in
 * include/rdi/core.h).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef RDI_INTERNAL_H
#define RDI_INTERNAL_H

void rdi_device_cache_exit(void);
void rdi_stats_debugfs_init(void);
void rdi_stats_debugfs_exit(void);

#endif /* RDI_INTERNAL_H */
