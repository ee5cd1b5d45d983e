/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Small helpers to read and write sysfs attributes. Every reader returns 0
 * on success and a negative errno otherwise, so callers can tell an absent
 * attribute (-ENOENT, e.g. dgid on an RDMA/CM login) from a parse error.
 */
#ifndef RDI_TOOLS_SYSFS_H
#define RDI_TOOLS_SYSFS_H

#include <stddef.h>
#include <stdint.h>

/* Root of sysfs; "/sys" unless the SYSFS_PATH environment variable is set. */
const char *sysfs_root(void);

int sysfs_read_str(const char *dir, const char *attr, char *buf, size_t len);
int sysfs_read_u64(const char *dir, const char *attr, uint64_t *val);
int sysfs_read_int(const char *dir, const char *attr, long long *val);
int sysfs_write_str(const char *dir, const char *attr, const char *val);

/* Name of the file a symlink dir/attr points to (its last path element). */
int sysfs_link_name(const char *dir, const char *attr, char *buf, size_t len);

/**
 * sysfs_for_each - call @fn for each entry of @dir whose name starts with @prefix
 * @dir: directory to list; a missing one has no entries
 * @prefix: name prefix to select, "" for all (names starting with '.' never)
 * @fn: called with the entry's path and name; 0 continues, anything else
 *	stops the walk and is returned
 * @arg: passed to @fn
 *
 * Entries are visited in natural order (host2 before host10).
 */
int sysfs_for_each(const char *dir, const char *prefix,
		   int (*fn)(const char *path, const char *name, void *arg),
		   void *arg);

#endif /* RDI_TOOLS_SYSFS_H */
