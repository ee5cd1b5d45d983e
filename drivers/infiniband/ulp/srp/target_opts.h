/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: the add_target grammar.
 *
 * DOC: how the driver uses this file
 *
 * The store method of /sys/class/infiniband_srp/srp-<dev>-<port>/add_target
 * hands the written bytes to srp_parse_target_opts() together with the
 * network namespace of the writer (for IPv6 scope names). On success it gets
 * a fully validated &struct srp_target_opts: every number range-checked,
 * @mask telling which keys were present, dest/src already turned into socket
 * addresses. It then applies its own defaults (module parameters) for the
 * keys whose bit is clear in @mask and picks the connection manager with
 * srp_target_opts_rdma_cm(). On failure the write fails with the returned
 * errno and the driver logs the reason text, which names the key and what
 * was wrong with its value.
 *
 * Grammar (docs: abi.md): "key=value" tokens separated by ',' or '\n';
 * empty tokens are skipped; a repeated key takes the later value; an
 * unknown key or a key without '=value' is -EINVAL. Required: id_ext,
 * ioc_guid and either all of {dgid, pkey, service_id} (IB CM) or dest
 * (RDMA/CM). Trailing NUL bytes are tolerated (the in-tree driver stopped at
 * the first NUL); a NUL followed by anything else is rejected.
 *
 * This file is pure logic: it compiles in the kernel and, against the shims
 * in tests/unit/shim/, in host unit tests.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef SRP_TARGET_OPTS_H
#define SRP_TARGET_OPTS_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/socket.h>

#include "proto.h"

struct net;

/**
 * enum srp_opt - one add_target key; BIT(key) is its bit in srp_target_opts.mask
 * @SRP_OPT_ID_EXT:		target port identifier extension (hex u64)
 * @SRP_OPT_IOC_GUID:		I/O controller GUID (hex u64)
 * @SRP_OPT_DGID:		destination GID, exactly 32 hex digits
 * @SRP_OPT_PKEY:		partition key (hex, <= 0xffff)
 * @SRP_OPT_SERVICE_ID:		IB CM service ID (hex u64)
 * @SRP_OPT_MAX_SECT:		max sectors per command (1..INT_MAX)
 * @SRP_OPT_MAX_CMD_PER_LUN:	cmd_per_lun (1..INT_MAX)
 * @SRP_OPT_IO_CLASS:		0x0100 (SRP r16a) or 0xff00 (SRP r10)
 * @SRP_OPT_INITIATOR_EXT:	initiator port identifier extension (hex u64)
 * @SRP_OPT_CMD_SG_ENTRIES:	descriptors inside SRP_CMD (1..255)
 * @SRP_OPT_ALLOW_EXT_SG:	external indirect tables (0 or 1)
 * @SRP_OPT_SG_TABLESIZE:	SCSI sg_tablesize (1..2048)
 * @SRP_OPT_COMP_VECTOR:	first completion vector (0..INT_MAX)
 * @SRP_OPT_TL_RETRY_COUNT:	RC transport retry count (2..7)
 * @SRP_OPT_QUEUE_SIZE:		can_queue (1..INT_MAX)
 * @SRP_OPT_DEST:		RDMA/CM destination address with port
 * @SRP_OPT_SRC:		RDMA/CM source address, port optional
 * @SRP_OPT_TARGET_CAN_QUEUE:	per-target queue limit (1..INT_MAX)
 * @SRP_OPT_MAX_IT_IU_SIZE:	cap on the requested IT IU length (0..INT_MAX)
 * @SRP_OPT_CH_COUNT:		RDMA channels for this login (1..INT_MAX)
 * @SRP_OPT_KEEPALIVE:		keep-alive period in seconds, 0 = off (0..3600)
 * @SRP_OPT_POLL_QUEUES:	polled hardware queues, each on a channel of its
 *				own (0..SRP_MAX_POLL_QUEUES)
 * @SRP_OPT_NR:			number of keys
 */
enum srp_opt {
	SRP_OPT_ID_EXT,
	SRP_OPT_IOC_GUID,
	SRP_OPT_DGID,
	SRP_OPT_PKEY,
	SRP_OPT_SERVICE_ID,
	SRP_OPT_MAX_SECT,
	SRP_OPT_MAX_CMD_PER_LUN,
	SRP_OPT_IO_CLASS,
	SRP_OPT_INITIATOR_EXT,
	SRP_OPT_CMD_SG_ENTRIES,
	SRP_OPT_ALLOW_EXT_SG,
	SRP_OPT_SG_TABLESIZE,
	SRP_OPT_COMP_VECTOR,
	SRP_OPT_TL_RETRY_COUNT,
	SRP_OPT_QUEUE_SIZE,
	SRP_OPT_DEST,
	SRP_OPT_SRC,
	SRP_OPT_TARGET_CAN_QUEUE,
	SRP_OPT_MAX_IT_IU_SIZE,
	SRP_OPT_CH_COUNT,
	SRP_OPT_KEEPALIVE,
	SRP_OPT_POLL_QUEUES,
	SRP_OPT_NR
};

/* Keys every login needs, and the two ways of naming the target port. */
#define SRP_OPTS_REQUIRED	(BIT(SRP_OPT_ID_EXT) | BIT(SRP_OPT_IOC_GUID))
#define SRP_OPTS_IB_CM		(BIT(SRP_OPT_DGID) | BIT(SRP_OPT_PKEY) | \
				 BIT(SRP_OPT_SERVICE_ID))
#define SRP_OPTS_RDMA_CM	BIT(SRP_OPT_DEST)

/* Longest input the parser looks at; sysfs never passes more than a page. */
#define SRP_OPTS_MAX_LEN	4096

/* Longest keep-alive period accepted, in seconds. */
#define SRP_MAX_KEEPALIVE	3600

/*
 * Most poll queues a login may ask for: a bound on the input only, as the
 * driver also caps them at the online CPUs (one poll queue each is all
 * blk-mq can use).
 */
#define SRP_MAX_POLL_QUEUES	1024

/* Size of the reason buffer callers should pass to srp_parse_target_opts(). */
#define SRP_OPTS_WHY_LEN	128

/**
 * struct srp_target_opts - a parsed add_target string
 * @mask:		BIT(enum srp_opt) for every key that was given; fields
 *			of absent keys are zero
 * @id_ext:		see enum srp_opt; all numbers are in CPU byte order
 * @ioc_guid:		see enum srp_opt
 * @service_id:		see enum srp_opt
 * @initiator_ext:	see enum srp_opt
 * @dgid:		GID bytes in wire (network) order
 * @pkey:		see enum srp_opt
 * @io_class:		see enum srp_opt
 * @allow_ext_sg:	see enum srp_opt
 * @max_sect:		see enum srp_opt
 * @max_cmd_per_lun:	see enum srp_opt
 * @cmd_sg_entries:	see enum srp_opt
 * @sg_tablesize:	see enum srp_opt
 * @comp_vector:	see enum srp_opt
 * @tl_retry_count:	see enum srp_opt
 * @queue_size:		see enum srp_opt
 * @target_can_queue:	see enum srp_opt
 * @max_it_iu_size:	see enum srp_opt
 * @ch_count:		see enum srp_opt
 * @keepalive:		see enum srp_opt
 * @poll_queues:	see enum srp_opt
 * @dest:		AF_INET or AF_INET6 address with a non-zero port
 * @src:		AF_INET or AF_INET6 address, port zero when not given
 */
struct srp_target_opts {
	u32			mask;
	u64			id_ext;
	u64			ioc_guid;
	u64			service_id;
	u64			initiator_ext;
	u8			dgid[16];
	u16			pkey;
	u16			io_class;
	bool			allow_ext_sg;
	u32			max_sect;
	u32			max_cmd_per_lun;
	u32			cmd_sg_entries;
	u32			sg_tablesize;
	u32			comp_vector;
	u32			tl_retry_count;
	u32			queue_size;
	u32			target_can_queue;
	u32			max_it_iu_size;
	u32			ch_count;
	u32			keepalive;
	u32			poll_queues;
	struct sockaddr_storage	dest;
	struct sockaddr_storage	src;
};

int srp_parse_target_opts(struct net *net, const char *buf, size_t count,
			  struct srp_target_opts *opts,
			  char *why, size_t why_len);

const char *srp_opt_name(enum srp_opt opt);

/**
 * srp_target_opts_has() - whether a key was given
 * @opts: parsed options
 * @opt:  the key
 *
 * Return: true when the login string set @opt.
 */
static inline bool srp_target_opts_has(const struct srp_target_opts *opts,
				       enum srp_opt opt)
{
	return opts->mask & BIT(opt);
}

/**
 * srp_target_opts_rdma_cm() - whether the login goes through RDMA/CM
 * @opts: options accepted by srp_parse_target_opts()
 *
 * A string naming "dest" logs in over RDMA/CM, even if it also carries the
 * IB CM keys; otherwise it logs in over IB CM.
 *
 * Return: true for an RDMA/CM login, false for an IB CM one.
 */
static inline bool srp_target_opts_rdma_cm(const struct srp_target_opts *opts)
{
	return srp_target_opts_has(opts, SRP_OPT_DEST);
}

#endif /* SRP_TARGET_OPTS_H */
