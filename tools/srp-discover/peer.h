/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A peer is a target port to query, named by an IP address (reached through
 * RDMA/CM address resolution) or by a GID on a given local port. Resolving
 * it yields the local port, the DM destination and the RDMA/CM destination
 * to log in to.
 */
#ifndef SRP_DISCOVER_PEER_H
#define SRP_DISCOVER_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "dm.h"

#define SRP_DEFAULT_CM_PORT	5555

enum srp_peer_kind {
	SRP_PEER_ADDR,
	SRP_PEER_GID,
};

/**
 * struct srp_peer - a target port as the user named it
 * @spec: the text it was parsed from
 * @kind: named by address or by GID
 * @addr: IP address with the RDMA/CM port (SRP_PEER_ADDR)
 * @gid: GID in network byte order (SRP_PEER_GID)
 * @cm_port: RDMA/CM port to log in to
 */
struct srp_peer {
	char	spec[128];
	enum srp_peer_kind kind;
	struct sockaddr_storage addr;
	uint8_t	gid[16];
	uint16_t cm_port;
};

/**
 * struct srp_path - how to reach a peer from this host
 * @ibdev: local RDMA device
 * @port: local port number
 * @roce: the port's link layer is Ethernet
 * @dm: where to send DM requests
 * @pkey: partition key of the path (0xffff on RoCE)
 * @dgid: the peer's port GID (link-local on RoCE), network byte order
 * @dest: RDMA/CM destination for add_target, empty if there is none
 */
struct srp_path {
	char	ibdev[64];
	int	port;
	bool	roce;
	struct dm_dest dm;
	uint16_t pkey;
	uint8_t	dgid[16];
	char	dest[80];
};

/**
 * srp_peer_parse - parse a target port's name
 * @p: result
 * @spec: "IPv4[:port]", "[IPv6[%scope]]:port", "IPv6" or "gid:GID"
 * @cm_port: RDMA/CM port when @spec has none
 *
 * Return: 0 or -EINVAL.
 */
int srp_peer_parse(struct srp_peer *p, const char *spec, uint16_t cm_port);

/* Format @sa as an add_target dest= value ("a.b.c.d:p" or "[v6%s]:p"). */
int srp_format_dest(const struct sockaddr *sa, char *buf, size_t len);

/* The link-local GID (fe80::/64 + modified EUI-64) of an Ethernet MAC. */
void srp_mac_to_ll_gid(const uint8_t mac[6], uint8_t gid[16]);

/**
 * srp_peer_resolve - find the local port and the addresses to reach @p
 * @p: the peer
 * @ibdev: local device to use (NULL: any); required for a GID peer, checked
 *	against the result of address resolution for an IP peer
 * @port: local port number to use (0: any)
 * @src: source address for address resolution, or NULL
 * @timeout_ms: how long address and route resolution may take
 * @path: result
 * @err: human explanation of a failure
 * @errlen: size of @err
 *
 * Return: 0 or a negative errno.
 */
int srp_peer_resolve(const struct srp_peer *p, const char *ibdev, int port,
		     const struct sockaddr *src, int timeout_ms,
		     struct srp_path *path, char *err, size_t errlen);

#endif /* SRP_DISCOVER_PEER_H */
