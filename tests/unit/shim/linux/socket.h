/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: struct sockaddr_storage and AF_* from libc. */
#ifndef SHIM_LINUX_SOCKET_H
#define SHIM_LINUX_SOCKET_H

#include <sys/socket.h>

#endif
