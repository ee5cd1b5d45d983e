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
#include <linux/seq_file.h>

#include "iser.h"

static struct dentry *iser_debugfs_root;

static int iser_stats_show(struct seq_file *m, void *unused)
{
	struct iser_conn *ic = m->private;

	return rdi_stats_show(m, &ic->stats);
}

static int iser_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, iser_stats_show, inode->i_private);
}

static ssize_t iser_stats_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	struct iser_conn *ic = file_inode(file)->i_private;

	rdi_stats_reset(&ic->stats);
	return count;
}

static const struct file_operations iser_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= iser_stats_open,
	.read		= seq_read,
	.write		= iser_stats_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

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
	debugfs_create_file("stats", 0600, ic->debugfs, ic, &iser_stats_fops);
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
