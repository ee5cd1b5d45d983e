// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: parser of the add_target string (grammar in target_opts.h).
 *
 * The input is untrusted and not NUL-terminated by contract: it is walked
 * with explicit lengths, each token is copied into a bounded buffer before
 * any string function sees it, every number goes through kstrto*() (which
 * reports overflow) and then a per-key range check. Error texts quote user
 * input only when it is short and printable.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/stdarg.h>
#include <linux/string.h>

#include "target_opts.h"

/* Longest "key=value" token; an IPv6 dest with scope needs about 70. */
#define SRP_OPT_TOKEN_MAX	128

/* User input quoted in error texts is cut at this many characters. */
#define SRP_OPT_QUOTE_MAX	40

enum srp_opt_type {
	SRP_T_HEX64,	/* u64, hex with optional 0x */
	SRP_T_HEX16,	/* hex with optional 0x, within [min, max] */
	SRP_T_INT,	/* kstrtouint base 0, within [min, max] */
	SRP_T_GID,	/* exactly 32 hex digits */
	SRP_T_IO_CLASS,	/* SRP_IO_CLASS_R16A or SRP_IO_CLASS_R10 */
	SRP_T_ADDR,	/* IPv4 or [IPv6%scope], port required if min */
};

struct srp_opt_desc {
	const char		*name;
	enum srp_opt_type	type;
	u32			min;
	u32			max;
};

static const struct srp_opt_desc srp_opt_descs[SRP_OPT_NR] = {
	[SRP_OPT_ID_EXT]	   = { "id_ext", SRP_T_HEX64 },
	[SRP_OPT_IOC_GUID]	   = { "ioc_guid", SRP_T_HEX64 },
	[SRP_OPT_DGID]		   = { "dgid", SRP_T_GID },
	[SRP_OPT_PKEY]		   = { "pkey", SRP_T_HEX16, 0, U16_MAX },
	[SRP_OPT_SERVICE_ID]	   = { "service_id", SRP_T_HEX64 },
	[SRP_OPT_MAX_SECT]	   = { "max_sect", SRP_T_INT, 1, INT_MAX },
	[SRP_OPT_MAX_CMD_PER_LUN]  = { "max_cmd_per_lun", SRP_T_INT, 1, INT_MAX },
	[SRP_OPT_IO_CLASS]	   = { "io_class", SRP_T_IO_CLASS },
	[SRP_OPT_INITIATOR_EXT]	   = { "initiator_ext", SRP_T_HEX64 },
	[SRP_OPT_CMD_SG_ENTRIES]   = { "cmd_sg_entries", SRP_T_INT, 1, 255 },
	[SRP_OPT_ALLOW_EXT_SG]	   = { "allow_ext_sg", SRP_T_INT, 0, 1 },
	[SRP_OPT_SG_TABLESIZE]	   = { "sg_tablesize", SRP_T_INT, 1, 2048 },
	[SRP_OPT_COMP_VECTOR]	   = { "comp_vector", SRP_T_INT, 0, INT_MAX },
	[SRP_OPT_TL_RETRY_COUNT]   = { "tl_retry_count", SRP_T_INT, 2, 7 },
	[SRP_OPT_QUEUE_SIZE]	   = { "queue_size", SRP_T_INT, 1, INT_MAX },
	[SRP_OPT_DEST]		   = { "dest", SRP_T_ADDR, 1 },
	[SRP_OPT_SRC]		   = { "src", SRP_T_ADDR, 0 },
	[SRP_OPT_TARGET_CAN_QUEUE] = { "target_can_queue", SRP_T_INT, 1, INT_MAX },
	[SRP_OPT_MAX_IT_IU_SIZE]   = { "max_it_iu_size", SRP_T_INT, 0, INT_MAX },
	[SRP_OPT_CH_COUNT]	   = { "ch_count", SRP_T_INT, 1, INT_MAX },
	[SRP_OPT_KEEPALIVE]	   = { "keepalive", SRP_T_INT, 0, SRP_MAX_KEEPALIVE },
	[SRP_OPT_POLL_QUEUES]	   = { "poll_queues", SRP_T_INT, 0,
				       SRP_MAX_POLL_QUEUES },
};

/* State of one parse: where the reason for a failure goes. */
struct srp_opt_ctx {
	struct net	*net;
	char		*why;
	size_t		why_len;
};

/* Record why parsing failed; returns @err for "return srp_opt_fail()". */
static __printf(3, 4) int srp_opt_fail(struct srp_opt_ctx *ctx, int err,
				       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->why, ctx->why_len, fmt, ap);
	va_end(ap);
	return err;
}

/**
 * srp_opt_name() - the add_target key of an option
 * @opt: the option
 *
 * Return: its name as written in add_target, or "?" for an invalid value.
 */
const char *srp_opt_name(enum srp_opt opt)
{
	return (unsigned int)opt < SRP_OPT_NR ? srp_opt_descs[opt].name : "?";
}

/*
 * @s if it is printable ASCII (callers cut it to SRP_OPT_QUOTE_MAX), else a
 * placeholder: the kernel's isprint() would pass Latin-1 bytes to the log.
 */
static const char *srp_opt_quote(const char *s)
{
	const char *p;

	for (p = s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return "<unprintable>";
	return s;
}

static int srp_opt_parse_gid(struct srp_opt_ctx *ctx, const char *v,
			     u8 gid[16])
{
	size_t len = strlen(v);

	if (len != 32)
		return srp_opt_fail(ctx, -EINVAL,
				    "dgid: expected 32 hex digits, got %zu",
				    len);
	if (hex2bin(gid, v, 16))
		return srp_opt_fail(ctx, -EINVAL,
				    "dgid: '%.*s' is not hexadecimal",
				    SRP_OPT_QUOTE_MAX, srp_opt_quote(v));
	return 0;
}

/*
 * A port is 1 to 5 decimal digits with a value that fits (0 allowed only
 * for the source). Checked here rather than left to inet_pton_with_scope(),
 * which would read "010" as octal and accept "0x50".
 */
static int srp_opt_parse_port(struct srp_opt_ctx *ctx, const char *name,
			      const char *p, bool need_port, unsigned int *port)
{
	unsigned int v = 0;
	const char *c;

	if (!*p || strlen(p) > 5)
		goto bad;
	for (c = p; *c; c++) {
		if (!isdigit((unsigned char)*c))
			goto bad;
		v = v * 10 + (*c - '0');
	}
	if (v > U16_MAX || (need_port && !v))
		goto bad;
	*port = v;
	return 0;

bad:
	return srp_opt_fail(ctx, -EINVAL, "%s: port '%.*s' is not in %u..65535",
			    name, SRP_OPT_QUOTE_MAX, srp_opt_quote(p),
			    need_port ? 1 : 0);
}

/*
 * "a.b.c.d[:port]" or "[ipv6[%scope]][:port]". Bare IPv6 is refused: its
 * last group could not be told apart from a port.
 */
static int srp_opt_parse_addr(struct srp_opt_ctx *ctx, const char *name,
			      const char *v, bool need_port,
			      struct sockaddr_storage *ss)
{
	char addr[SRP_OPT_TOKEN_MAX], port_str[8];
	const char *port = NULL, *end;
	unsigned short af;
	unsigned int port_num = 0;
	size_t len;
	int ret;

	if (v[0] == '[') {
		af = AF_INET6;
		end = strchr(v, ']');
		if (!end)
			return srp_opt_fail(ctx, -EINVAL,
					    "%s: missing ']' after IPv6 address",
					    name);
		if (end[1] == ':')
			port = end + 2;
		else if (end[1])
			return srp_opt_fail(ctx, -EINVAL,
					    "%s: expected ':port' after ']'",
					    name);
		v++;
	} else {
		af = AF_INET;
		end = strchr(v, ':');
		if (end && strchr(end + 1, ':'))
			return srp_opt_fail(ctx, -EINVAL,
					    "%s: IPv6 addresses must be written as [addr]:port",
					    name);
		if (end)
			port = end + 1;
		else
			end = v + strlen(v);
	}

	len = end - v;
	memcpy(addr, v, len);
	addr[len] = '\0';

	if (port) {
		ret = srp_opt_parse_port(ctx, name, port, need_port, &port_num);
		if (ret)
			return ret;
	} else if (need_port) {
		return srp_opt_fail(ctx, -EINVAL, "%s: port missing", name);
	}
	snprintf(port_str, sizeof(port_str), "%u", port_num);

	memset(ss, 0, sizeof(*ss));
	ret = inet_pton_with_scope(ctx->net, af, addr, port_str, ss);
	if (ret)
		return srp_opt_fail(ctx, -EINVAL,
				    "%s: '%.*s' is not a valid %s address",
				    name, SRP_OPT_QUOTE_MAX,
				    srp_opt_quote(addr),
				    af == AF_INET ? "IPv4" : "IPv6[%scope]");
	return 0;
}

static int srp_opt_parse_num(struct srp_opt_ctx *ctx,
			     const struct srp_opt_desc *d, const char *v,
			     u64 *val)
{
	unsigned int base = d->type == SRP_T_INT ? 0 : 16;
	int ret;

	ret = kstrtou64(v, base, val);
	if (ret == -ERANGE && d->type == SRP_T_HEX64)
		return srp_opt_fail(ctx, -EINVAL,
				    "%s: '%.*s' does not fit in 64 bits",
				    d->name, SRP_OPT_QUOTE_MAX,
				    srp_opt_quote(v));
	if (ret == -ERANGE || (!ret && d->type != SRP_T_HEX64 &&
			       (*val < d->min || *val > d->max)))
		return srp_opt_fail(ctx, -EINVAL,
				    "%s: '%.*s' out of range %u..%u",
				    d->name, SRP_OPT_QUOTE_MAX,
				    srp_opt_quote(v), d->min, d->max);
	if (ret)
		return srp_opt_fail(ctx, -EINVAL, "%s: '%.*s' is not a %s number",
				    d->name, SRP_OPT_QUOTE_MAX,
				    srp_opt_quote(v),
				    base == 16 ? "hexadecimal" : "decimal");
	return 0;
}

static void srp_opt_store(struct srp_target_opts *o, enum srp_opt opt, u64 v)
{
	switch (opt) {
	case SRP_OPT_ID_EXT:
		o->id_ext = v;
		break;
	case SRP_OPT_IOC_GUID:
		o->ioc_guid = v;
		break;
	case SRP_OPT_SERVICE_ID:
		o->service_id = v;
		break;
	case SRP_OPT_INITIATOR_EXT:
		o->initiator_ext = v;
		break;
	case SRP_OPT_PKEY:
		o->pkey = v;
		break;
	case SRP_OPT_IO_CLASS:
		o->io_class = v;
		break;
	case SRP_OPT_ALLOW_EXT_SG:
		o->allow_ext_sg = v;
		break;
	case SRP_OPT_MAX_SECT:
		o->max_sect = v;
		break;
	case SRP_OPT_MAX_CMD_PER_LUN:
		o->max_cmd_per_lun = v;
		break;
	case SRP_OPT_CMD_SG_ENTRIES:
		o->cmd_sg_entries = v;
		break;
	case SRP_OPT_SG_TABLESIZE:
		o->sg_tablesize = v;
		break;
	case SRP_OPT_COMP_VECTOR:
		o->comp_vector = v;
		break;
	case SRP_OPT_TL_RETRY_COUNT:
		o->tl_retry_count = v;
		break;
	case SRP_OPT_QUEUE_SIZE:
		o->queue_size = v;
		break;
	case SRP_OPT_TARGET_CAN_QUEUE:
		o->target_can_queue = v;
		break;
	case SRP_OPT_MAX_IT_IU_SIZE:
		o->max_it_iu_size = v;
		break;
	case SRP_OPT_CH_COUNT:
		o->ch_count = v;
		break;
	case SRP_OPT_KEEPALIVE:
		o->keepalive = v;
		break;
	case SRP_OPT_POLL_QUEUES:
		o->poll_queues = v;
		break;
	default:
		break;
	}
}

static int srp_opt_parse_value(struct srp_opt_ctx *ctx,
			       struct srp_target_opts *o, enum srp_opt opt,
			       const char *v)
{
	const struct srp_opt_desc *d = &srp_opt_descs[opt];
	u64 val;
	int ret;

	switch (d->type) {
	case SRP_T_GID:
		return srp_opt_parse_gid(ctx, v, o->dgid);
	case SRP_T_ADDR:
		return srp_opt_parse_addr(ctx, d->name, v, d->min,
					  opt == SRP_OPT_DEST ? &o->dest :
								&o->src);
	case SRP_T_IO_CLASS:
		ret = kstrtou64(v, 16, &val);
		if (ret || (val != SRP_IO_CLASS_R16A && val != SRP_IO_CLASS_R10))
			return srp_opt_fail(ctx, -EINVAL,
					    "io_class: '%.*s' is neither 0x%x (SRP r16a) nor 0x%x (SRP r10)",
					    SRP_OPT_QUOTE_MAX, srp_opt_quote(v),
					    SRP_IO_CLASS_R16A, SRP_IO_CLASS_R10);
		break;
	default:
		ret = srp_opt_parse_num(ctx, d, v, &val);
		if (ret)
			return ret;
		break;
	}
	srp_opt_store(o, opt, val);
	return 0;
}

static int srp_opt_parse_token(struct srp_opt_ctx *ctx,
			       struct srp_target_opts *o,
			       const char *buf, size_t len)
{
	char tok[SRP_OPT_TOKEN_MAX + 1];
	const char *key, *val;
	char *eq;
	int opt, ret;

	if (len > SRP_OPT_TOKEN_MAX) {
		memcpy(tok, buf, SRP_OPT_QUOTE_MAX);
		tok[SRP_OPT_QUOTE_MAX] = '\0';
		return srp_opt_fail(ctx, -EINVAL,
				    "'%s...': longer than %d characters",
				    srp_opt_quote(tok), SRP_OPT_TOKEN_MAX);
	}
	memcpy(tok, buf, len);
	tok[len] = '\0';

	key = tok;
	eq = strchr(tok, '=');
	if (!eq || !eq[1]) {
		if (eq)
			*eq = '\0';
		return srp_opt_fail(ctx, -EINVAL, "'%.*s' has no value",
				    SRP_OPT_QUOTE_MAX, srp_opt_quote(key));
	}
	*eq = '\0';
	val = eq + 1;

	for (opt = 0; opt < SRP_OPT_NR; opt++)
		if (!strcmp(key, srp_opt_descs[opt].name))
			break;
	if (opt == SRP_OPT_NR)
		return srp_opt_fail(ctx, -EINVAL, "unknown key '%.*s'",
				    SRP_OPT_QUOTE_MAX, srp_opt_quote(key));

	ret = srp_opt_parse_value(ctx, o, opt, val);
	if (ret)
		return ret;
	o->mask |= BIT(opt);
	return 0;
}

static int srp_opt_check_required(struct srp_opt_ctx *ctx,
				  const struct srp_target_opts *o)
{
	const struct sockaddr *dst = (const struct sockaddr *)&o->dest;
	const struct sockaddr *src = (const struct sockaddr *)&o->src;
	int opt;

	for (opt = 0; opt < SRP_OPT_NR; opt++)
		if ((SRP_OPTS_REQUIRED & BIT(opt)) && !(o->mask & BIT(opt)))
			return srp_opt_fail(ctx, -EINVAL,
					    "missing required key %s",
					    srp_opt_name(opt));

	if (o->mask & SRP_OPTS_RDMA_CM) {
		if ((o->mask & BIT(SRP_OPT_SRC)) &&
		    src->sa_family != dst->sa_family)
			return srp_opt_fail(ctx, -EINVAL,
					    "src and dest are of different address families");
		return 0;
	}
	if (!(o->mask & SRP_OPTS_IB_CM))
		return srp_opt_fail(ctx, -EINVAL,
				    "missing dest (RDMA/CM) or dgid, pkey and service_id (IB CM)");
	for (opt = 0; opt < SRP_OPT_NR; opt++)
		if ((SRP_OPTS_IB_CM & BIT(opt)) && !(o->mask & BIT(opt)))
			return srp_opt_fail(ctx, -EINVAL,
					    "missing %s (IB CM login needs dgid, pkey and service_id; RDMA/CM needs dest)",
					    srp_opt_name(opt));
	return 0;
}

/**
 * srp_parse_target_opts() - parse and validate an add_target string
 * @net:     network namespace resolving IPv6 scope names (the writer's)
 * @buf:     the bytes written; need not be NUL-terminated
 * @count:   how many
 * @opts:    result; zeroed first, valid only on success
 * @why:     buffer for a one-line reason on failure (may be NULL)
 * @why_len: its size, SRP_OPTS_WHY_LEN is enough
 *
 * Return: 0, or -EINVAL with @why naming the offending key and value.
 */
int srp_parse_target_opts(struct net *net, const char *buf, size_t count,
			  struct srp_target_opts *opts,
			  char *why, size_t why_len)
{
	struct srp_opt_ctx ctx = { .net = net, .why = why, .why_len = why_len };
	size_t pos, end;
	int ret;

	memset(opts, 0, sizeof(*opts));
	if (why && why_len)
		why[0] = '\0';

	if (count > SRP_OPTS_MAX_LEN)
		return srp_opt_fail(&ctx, -EINVAL,
				    "longer than %d bytes", SRP_OPTS_MAX_LEN);
	while (count && !buf[count - 1])
		count--;
	if (memchr(buf, '\0', count))
		return srp_opt_fail(&ctx, -EINVAL, "embedded NUL byte");

	for (pos = 0; pos < count; pos = end + 1) {
		for (end = pos; end < count; end++)
			if (buf[end] == ',' || buf[end] == '\n')
				break;
		if (end == pos)
			continue;
		ret = srp_opt_parse_token(&ctx, opts, buf + pos, end - pos);
		if (ret)
			return ret;
	}

	return srp_opt_check_required(&ctx, opts);
}
