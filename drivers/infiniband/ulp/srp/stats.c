// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: per-channel statistics in debugfs.
 *
 * /sys/kernel/debug/ib_srp/host<N>/ch<M> shows one channel's counters
 * (rdi_core's "name value" lines) followed by its credit state; writing
 * anything to the file resets the counters. The host attribute "stats"
 * (sysfs.c) shows the same counters summed over the channels.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "stats.h"

static struct dentry *srp_debugfs_root;

/* What the file shows after rdi_core's counters: the channel's state. */
static void srp_ch_stats_show(struct seq_file *m, struct rdi_stats *stats)
{
	struct srp_channel *ch = container_of(stats, struct srp_channel, stats);

	seq_printf(m, "req_lim %d\n", READ_ONCE(ch->req_lim));
	seq_printf(m, "zero_req_lim %d\n", atomic_read(&ch->zero_req_lim));
	seq_printf(m, "connected %d\n", READ_ONCE(ch->connected));
	seq_printf(m, "polled %d\n", ch->polled);
	seq_printf(m, "comp_vector %d\n", ch->comp_vector);
	seq_printf(m, "imm_data %d\n", ch->use_imm_data);
	seq_printf(m, "max_imm_data %u\n", ch->max_imm_data);
	seq_printf(m, "max_it_iu_len %u\n", ch->max_it_iu_len);
	seq_printf(m, "max_ti_iu_len %u\n", ch->max_ti_iu_len);
}

/**
 * srp_debugfs_add() - create the debugfs files of a logged-in target
 * @target: target whose channels are set up
 *
 * debugfs failures are not errors: the files are only for observation.
 */
void srp_debugfs_add(struct srp_target *target)
{
	char name[24];
	unsigned int i;

	snprintf(name, sizeof(name), "host%u", target->shost->host_no);
	target->debugfs = debugfs_create_dir(name, srp_debugfs_root);
	for (i = 0; i < target->ch_count; i++) {
		snprintf(name, sizeof(name), "ch%u", i);
		rdi_stats_debugfs_create(name, target->debugfs,
					 &target->ch[i].stats, srp_ch_stats_show);
	}
}

/**
 * srp_debugfs_remove() - remove what srp_debugfs_add() created
 * @target: target, before its channels are freed
 */
void srp_debugfs_remove(struct srp_target *target)
{
	debugfs_remove_recursive(target->debugfs);
	target->debugfs = NULL;
}

/** srp_debugfs_init() - create /sys/kernel/debug/ib_srp */
void srp_debugfs_init(void)
{
	srp_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
}

/** srp_debugfs_exit() - remove /sys/kernel/debug/ib_srp */
void srp_debugfs_exit(void)
{
	debugfs_remove_recursive(srp_debugfs_root);
}
