// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Per-connection counters in debugfs, besides the iSCSI custom statistics
 * iscsiadm -m session -s shows:
 *
 *   /sys/kernel/debug/ib_iser/ep<N>/stats    one "name value" per line;
 *                                            any write resets them
 *
 * N is the endpoint handle iscsid uses (also in iscsid's log).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>

#include "iser.h"

static struct dentry *iser_debugfs_root;

/**
 * iser_stats_add() - publish a connection's counters
 * @ic: connection, with its endpoint
 *
 * debugfs failures are not errors: the counters stay in iscsiadm's view.
 */
void iser_stats_add(struct iser_conn *ic)
{
	char name[32];

	snprintf(name, sizeof(name), "ep%d", ic->ep->id);
	ic->debugfs = debugfs_create_dir(name, iser_debugfs_root);
	rdi_stats_debugfs_create("stats", ic->debugfs, &ic->stats, NULL);
}

/**
 * iser_stats_remove() - undo iser_stats_add(); waits for open readers
 * @ic: connection
 */
void iser_stats_remove(struct iser_conn *ic)
{
	debugfs_remove(ic->debugfs);
	ic->debugfs = NULL;
}

/**
 * iser_stats_init() - create the driver's debugfs directory
 */
void iser_stats_init(void)
{
	iser_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
}

/**
 * iser_stats_exit() - remove the driver's debugfs directory
 */
void iser_stats_exit(void)
{
	debugfs_remove(iser_debugfs_root);
}
