// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* sysfs attribute access shared by srp-discover and rdi-status. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* versionsort() */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfs.h"

const char *sysfs_root(void)
{
	const char *env = getenv("SYSFS_PATH");

	return env && *env ? env : "/sys";
}

int sysfs_read_str(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, err;

	if (!len)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int sysfs_read_u64(const char *dir, const char *attr, uint64_t *val)
{
	char buf[64], *end;
	int err;

	err = sysfs_read_str(dir, attr, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

int sysfs_read_int(const char *dir, const char *attr, long long *val)
{
	char buf[64], *end;
	int err;

	err = sysfs_read_str(dir, attr, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	*val = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

int sysfs_write_str(const char *dir, const char *attr, const char *val)
{
	char path[PATH_MAX];
	size_t len = strlen(val);
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	err = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int sysfs_link_name(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, base);
	return 0;
}

int sysfs_for_each(const char *dir, const char *prefix,
		   int (*fn)(const char *path, const char *name, void *arg),
		   void *arg)
{
	struct dirent **names;
	size_t plen = strlen(prefix);
	char path[PATH_MAX];
	int i, n, ret = 0;

	n = scandir(dir, &names, NULL, versionsort);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno;
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (!ret && name[0] != '.' && !strncmp(name, prefix, plen)) {
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			ret = fn(path, name, arg);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}
