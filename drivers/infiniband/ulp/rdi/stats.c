// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core: per-CPU I/O counters of one SRP channel or iSER connection.
 *
 * Writers use rdi_stat_add() (include/rdi/core.h) on their own CPU without
 * locks; readers sum over all possible CPUs. A sum is not a snapshot and a
 * reset racing with updates may keep a few of them: counters are for
 * observation, never for protocol decisions.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <rdi/core.h>

#include "rdi.h"

/*
 * Sets of counters allocated and freed since the module loaded, shown in
 * debugfs (rdi_core/percpu_stats) so that the lab's login cycles can prove
 * that every channel and connection freed its counters: the only per-CPU
 * allocation of the initiators, too small to move any memory total.
 */
static atomic_long_t rdi_stats_allocated = ATOMIC_LONG_INIT(0);
static atomic_long_t rdi_stats_freed = ATOMIC_LONG_INIT(0);
static struct dentry *rdi_debugfs_root;

/* Names as the debugfs file and the owners' own views print them. */
static const char * const rdi_stat_names[RDI_STAT_NR] = {
	[RDI_STAT_CMDS]		 = "cmds",
	[RDI_STAT_CMDS_DONE]	 = "cmds_done",
	[RDI_STAT_READ_BYTES]	 = "read_bytes",
	[RDI_STAT_WRITE_BYTES]	 = "write_bytes",
	[RDI_STAT_REGS]		 = "regs",
	[RDI_STAT_INVS]		 = "invs",
	[RDI_STAT_REMOTE_INVS]	 = "remote_invs",
	[RDI_STAT_IMM]		 = "imm",
	[RDI_STAT_CREDIT_STALLS] = "credit_stalls",
	[RDI_STAT_ERRORS]	 = "errors",
	[RDI_STAT_KEEPALIVES]	 = "keepalive_probes",
};

/**
 * rdi_stat_name() - the name a counter is shown under
 * @which: the counter
 *
 * For owners that export counters through another interface (e.g. the
 * custom statistics of an iSCSI connection) under the same names.
 *
 * Return: a static string, "?" for an invalid @which.
 */
const char *rdi_stat_name(enum rdi_stat which)
{
	return (unsigned int)which < RDI_STAT_NR ? rdi_stat_names[which] : "?";
}
EXPORT_SYMBOL_GPL(rdi_stat_name);

/**
 * rdi_stats_init() - allocate zeroed counters
 * @stats: counters to set up
 *
 * May sleep.
 *
 * Return: 0 or -ENOMEM.
 */
int rdi_stats_init(struct rdi_stats *stats)
{
	stats->show_more = NULL;
	stats->pcpu = __alloc_percpu(sizeof(u64) * RDI_STAT_NR,
				     __alignof__(u64));
	if (!stats->pcpu)
		return -ENOMEM;
	atomic_long_inc(&rdi_stats_allocated);
	return 0;
}
EXPORT_SYMBOL_GPL(rdi_stats_init);

/**
 * rdi_stats_free() - free counters set up by rdi_stats_init()
 * @stats: counters; nothing may update or read them any more
 *
 * Safe on counters whose initialisation failed or that were freed already.
 */
void rdi_stats_free(struct rdi_stats *stats)
{
	if (!stats->pcpu)
		return;
	free_percpu(stats->pcpu);
	stats->pcpu = NULL;
	atomic_long_inc(&rdi_stats_freed);
}
EXPORT_SYMBOL_GPL(rdi_stats_free);

/**
 * rdi_stats_reset() - set every counter to zero
 * @stats: counters
 *
 * Updates running concurrently on other CPUs may survive the reset.
 */
void rdi_stats_reset(struct rdi_stats *stats)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(stats->pcpu, cpu), 0,
		       sizeof(u64) * RDI_STAT_NR);
}
EXPORT_SYMBOL_GPL(rdi_stats_reset);

/**
 * rdi_stats_read() - current value of one counter
 * @stats: counters
 * @which: the counter
 *
 * Return: the sum over all CPUs.
 */
u64 rdi_stats_read(const struct rdi_stats *stats, enum rdi_stat which)
{
	u64 sum = 0;
	int cpu;

	if (WARN_ON_ONCE(which >= RDI_STAT_NR))
		return 0;
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(stats->pcpu, cpu)[which]);
	return sum;
}
EXPORT_SYMBOL_GPL(rdi_stats_read);

static int rdi_stats_show(struct seq_file *m, void *unused)
{
	struct rdi_stats *stats = m->private;
	int i;

	for (i = 0; i < RDI_STAT_NR; i++)
		seq_printf(m, "%s %llu\n", rdi_stat_names[i],
			   rdi_stats_read(stats, i));
	if (stats->show_more)
		stats->show_more(m, stats);
	return 0;
}

static int rdi_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, rdi_stats_show, inode->i_private);
}

static ssize_t rdi_stats_write(struct file *file, const char __user *buf,
			       size_t count, loff_t *ppos)
{
	rdi_stats_reset(file_inode(file)->i_private);
	return count;
}

static const struct file_operations rdi_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= rdi_stats_open,
	.read		= seq_read,
	.write		= rdi_stats_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/**
 * rdi_stats_debugfs_create() - a debugfs file of one set of counters
 * @name:      file name
 * @parent:    directory
 * @stats:     counters; they must outlive the file
 * @show_more: NULL, or prints the owner's own lines after the counters;
 *             it finds its object with container_of() on @stats
 *
 * Reading the file gives one "name value" line per counter, then the lines
 * of @show_more; writing anything to it resets the counters. debugfs
 * failures are not errors: the file is for observation only.
 *
 * Return: the file's dentry (removed with its directory), or an ERR_PTR()
 * that debugfs_remove() accepts.
 */
struct dentry *rdi_stats_debugfs_create(const char *name,
					struct dentry *parent,
					struct rdi_stats *stats,
					void (*show_more)(struct seq_file *m,
							  struct rdi_stats *stats))
{
	stats->show_more = show_more;
	return debugfs_create_file(name, 0600, parent, stats, &rdi_stats_fops);
}
EXPORT_SYMBOL_GPL(rdi_stats_debugfs_create);

static int rdi_percpu_stats_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "allocated %ld\nfreed %ld\n",
		   atomic_long_read(&rdi_stats_allocated),
		   atomic_long_read(&rdi_stats_freed));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rdi_percpu_stats);

/** rdi_stats_debugfs_init() - create /sys/kernel/debug/rdi_core */
void rdi_stats_debugfs_init(void)
{
	rdi_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("percpu_stats", 0400, rdi_debugfs_root, NULL,
			    &rdi_percpu_stats_fops);
}

/** rdi_stats_debugfs_exit() - remove /sys/kernel/debug/rdi_core */
void rdi_stats_debugfs_exit(void)
{
	debugfs_remove_recursive(rdi_debugfs_root);
}
