/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: struct sockaddr_in6 from libc. */
#ifndef SHIM_LINUX_IN6_H
#define SHIM_LINUX_IN6_H

#include <netinet/in.h>

#endif
