// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* Parsing and printing of peer addresses; no RDMA library calls here. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer.h"

static int parse_port(const char *s, uint16_t *port)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || !v || v > 65535)
		return -EINVAL;
	*port = v;
	return 0;
}

static int parse_host(const char *host, uint16_t port,
		      struct sockaddr_storage *ss)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST,
		.ai_family = AF_UNSPEC,
	};
	struct addrinfo *ai;

	if (getaddrinfo(host, NULL, &hints, &ai))
		return -EINVAL;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	return 0;
}

int srp_peer_parse(struct srp_peer *p, const char *spec, uint16_t cm_port)
{
	char host[128];
	const char *colon, *close;
	size_t n;

	memset(p, 0, sizeof(*p));
	if (strlen(spec) >= sizeof(p->spec))
		return -EINVAL;
	strcpy(p->spec, spec);

	p->cm_port = cm_port;
	if (!strncmp(spec, "gid:", 4)) {
		p->kind = SRP_PEER_GID;
		return inet_pton(AF_INET6, spec + 4, p->gid) == 1 ? 0 : -EINVAL;
	}

	p->kind = SRP_PEER_ADDR;
	if (spec[0] == '[') {
		close = strchr(spec, ']');
		if (!close || (close[1] && close[1] != ':'))
			return -EINVAL;
		if (close[1] == ':' && parse_port(close + 2, &cm_port))
			return -EINVAL;
		n = close - spec - 1;
		if (n >= sizeof(host))
			return -EINVAL;
		memcpy(host, spec + 1, n);
		host[n] = '\0';
		return parse_host(host, cm_port, &p->addr);
	}

	colon = strchr(spec, ':');
	if (colon && !strchr(colon + 1, ':')) {
		/* exactly one colon: IPv4 with a port */
		n = colon - spec;
		if (n >= sizeof(host) || parse_port(colon + 1, &cm_port))
			return -EINVAL;
		memcpy(host, spec, n);
		host[n] = '\0';
		return parse_host(host, cm_port, &p->addr);
	}
	return parse_host(spec, cm_port, &p->addr);
}

int srp_format_dest(const struct sockaddr *sa, char *buf, size_t len)
{
	const struct sockaddr_in6 *s6 = (const void *)sa;
	const struct sockaddr_in *s4 = (const void *)sa;
	char ip[INET6_ADDRSTRLEN];
	int n;

	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &s4->sin_addr, ip, sizeof(ip));
		n = snprintf(buf, len, "%s:%u", ip, ntohs(s4->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &s6->sin6_addr, ip, sizeof(ip));
		if (s6->sin6_scope_id)
			n = snprintf(buf, len, "[%s%%%u]:%u", ip,
				     s6->sin6_scope_id, ntohs(s6->sin6_port));
		else
			n = snprintf(buf, len, "[%s]:%u", ip,
				     ntohs(s6->sin6_port));
	} else {
		return -EAFNOSUPPORT;
	}
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

void srp_mac_to_ll_gid(const uint8_t mac[6], uint8_t gid[16])
{
	memset(gid, 0, 16);
	gid[0] = 0xfe;
	gid[1] = 0x80;
	gid[8] = mac[0] ^ 0x02;
	gid[9] = mac[1];
	gid[10] = mac[2];
	gid[11] = 0xff;
	gid[12] = 0xfe;
	gid[13] = mac[3];
	gid[14] = mac[4];
	gid[15] = mac[5];
}
