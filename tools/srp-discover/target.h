/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * An SRP target port as discovered through DM, and the add_target line that
 * logs in to it.
 */
#ifndef SRP_DISCOVER_TARGET_H
#define SRP_DISCOVER_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ib_srp reads at most this many characters from one add_target write. */
#define SRP_LINE_MAX	255

/**
 * struct srp_target_port - one SRP service found behind a target port
 * @id_ext: the 16 hex digits of the service name "SRP.T10:<id_ext>"
 * @ioc_guid: GUID of the I/O controller
 * @service_id: service id of the entry (the IB CM service id)
 * @io_class: io_class of the IOC (0x0100 = SRP r16a, 0xff00 = r10)
 * @send_size: largest SEND the target accepts, from the IOC profile
 * @pkey: partition key used to reach it (0xffff on RoCE)
 * @dgid: GID of the target port (link-local on RoCE), network byte order
 * @ibdev: local RDMA device the target is reached through
 * @port: local port number
 * @rdma_cm: log in through RDMA/CM (RoCE) instead of IB CM
 * @dest: RDMA/CM destination, "a.b.c.d:port" or "[v6%scope]:port"
 * @src: RDMA/CM source address, empty if the kernel may choose
 */
struct srp_target_port {
	char	 id_ext[17];
	uint64_t ioc_guid;
	uint64_t service_id;
	uint16_t io_class;
	uint32_t send_size;
	uint16_t pkey;
	uint8_t	 dgid[16];
	char	 ibdev[64];
	int	 port;
	bool	 rdma_cm;
	char	 dest[80];
	char	 src[64];
};

/**
 * struct srp_line_opts - what to add to the bare identification
 * @initiator_ext: append initiator_ext=<target port GUID> (srp_daemon -n)
 * @tl_retry_count: append tl_retry_count=N when non-zero
 * @options: ",key=value..." from a matching allow rule, or NULL
 * @max_it_iu_size: append max_it_iu_size=N when non-zero (always last)
 */
struct srp_line_opts {
	bool	 initiator_ext;
	int	 tl_retry_count;
	const char *options;
	uint32_t max_it_iu_size;
};

/**
 * srp_format_line - build the add_target line for @t, without newline
 * @t: the target port
 * @o: what to add to the identification
 * @buf: result
 * @len: size of @buf
 *
 * Return: the length, or -ENOSPC when it would exceed SRP_LINE_MAX or @len.
 */
int srp_format_line(const struct srp_target_port *t,
		    const struct srp_line_opts *o, char *buf, size_t len);

/* Parse "SRP.T10:<16 hex digits>" into @id_ext; false if not an SRP service. */
bool srp_parse_service_name(const char *name, size_t len, char id_ext[17]);

/* Write @gid as 32 hex digits (the dgid= form) into @buf[33]. */
void srp_gid_hex(const uint8_t gid[16], char buf[33]);

#endif /* SRP_DISCOVER_TARGET_H */
