/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: a struct device to embed and point at; tests only compare it. */
#ifndef SHIM_LINUX_DEVICE_H
#define SHIM_LINUX_DEVICE_H

struct device {
	const char *init_name;
};

#endif
