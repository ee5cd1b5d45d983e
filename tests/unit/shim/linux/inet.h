/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host shim: inet_pton_with_scope() over libc. Same contract as the
 * kernel's: AF_INET, AF_INET6 or AF_UNSPEC; port parsed base 0 as u16;
 * an IPv6 "%scope" (interface name or number) is honoured only for
 * link-local addresses; -EINVAL for anything unparsable. @net is unused:
 * interface names resolve in the test's own namespace.
 */
#ifndef SHIM_LINUX_INET_H
#define SHIM_LINUX_INET_H

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <linux/kstrtox.h>
#include <linux/socket.h>
#include <linux/in.h>
#include <linux/in6.h>

struct net;

static inline int shim_inet6_pton(const char *src, u16 port,
				  struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	const char *pct = strchr(src, '%');
	char addr[64];
	size_t len = pct ? (size_t)(pct - src) : strlen(src);

	if (strlen(src) > 46 || len >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, src, len);
	addr[len] = '\0';
	memset(sin6, 0, sizeof(*sin6));
	if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) != 1)
		return -EINVAL;
	if (pct && pct[1] && IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr)) {
		unsigned int idx = if_nametoindex(pct + 1);

		if (!idx && kstrtouint(pct + 1, 0, &idx))
			return -EINVAL;
		sin6->sin6_scope_id = idx;
	}
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	return 0;
}

static inline int inet_pton_with_scope(struct net *net, unsigned short af,
				       const char *src, const char *port,
				       struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	unsigned int port_num = 0;

	if (port && (kstrtouint(port, 0, &port_num) || port_num > 65535))
		return -EINVAL;

	if (af == AF_INET || af == AF_UNSPEC) {
		memset(sin, 0, sizeof(*sin));
		if (inet_pton(AF_INET, src, &sin->sin_addr) == 1) {
			sin->sin_family = AF_INET;
			sin->sin_port = htons(port_num);
			return 0;
		}
		if (af == AF_INET)
			return -EINVAL;
	}
	if (af == AF_INET6 || af == AF_UNSPEC)
		return shim_inet6_pton(src, port_num, ss);
	return -EINVAL;
}

#endif
