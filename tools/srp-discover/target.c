// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * add_target line formatting, in the order srp_daemon writes its keys:
 * identification, io_class, initiator_ext, tl_retry_count, rule options and
 * max_it_iu_size last (an older initiator stops at the first key it does not
 * know, so the newest key goes at the end).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dm.h"
#include "target.h"

#define SRP_SERVICE_PREFIX	"SRP.T10:"

struct line_buf {
	char	*buf;
	size_t	size;
	size_t	len;
	bool	overflow;
};

static void line_add(struct line_buf *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line_add(struct line_buf *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, l->size - l->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= l->size - l->len)
		l->overflow = true;
	else
		l->len += n;
}

void srp_gid_hex(const uint8_t gid[16], char buf[33])
{
	int i;

	for (i = 0; i < 16; i++)
		sprintf(buf + 2 * i, "%02x", gid[i]);
}

static uint64_t gid_interface_id(const uint8_t gid[16])
{
	uint64_t v = 0;
	int i;

	for (i = 8; i < 16; i++)
		v = v << 8 | gid[i];
	return v;
}

int srp_format_line(const struct srp_target_port *t,
		    const struct srp_line_opts *o, char *buf, size_t len)
{
	struct line_buf l = {
		.buf = buf,
		.size = len < SRP_LINE_MAX + 1 ? len : SRP_LINE_MAX + 1,
	};
	char dgid[33];

	if (!l.size)
		return -ENOSPC;
	buf[0] = '\0';
	line_add(&l, "id_ext=%s,ioc_guid=%016" PRIx64, t->id_ext, t->ioc_guid);
	if (t->rdma_cm) {
		if (t->src[0])
			line_add(&l, ",src=%s", t->src);
		line_add(&l, ",dest=%s", t->dest);
	} else {
		srp_gid_hex(t->dgid, dgid);
		line_add(&l, ",dgid=%s,pkey=%04x,service_id=%016" PRIx64,
			 dgid, t->pkey, t->service_id);
	}
	if (t->io_class != SRP_IO_CLASS_R16A)
		line_add(&l, ",io_class=%04x", t->io_class);
	if (o->initiator_ext)
		line_add(&l, ",initiator_ext=%016" PRIx64,
			 gid_interface_id(t->dgid));
	if (o->tl_retry_count)
		line_add(&l, ",tl_retry_count=%d", o->tl_retry_count);
	if (o->options && o->options[0])
		line_add(&l, "%s", o->options);
	if (o->max_it_iu_size)
		line_add(&l, ",max_it_iu_size=%u", o->max_it_iu_size);
	if (l.overflow) {
		buf[0] = '\0';
		return -ENOSPC;
	}
	return l.len;
}

bool srp_parse_service_name(const char *name, size_t len, char id_ext[17])
{
	size_t plen = strlen(SRP_SERVICE_PREFIX);
	size_t i;

	if (len < plen + 16 || strncmp(name, SRP_SERVICE_PREFIX, plen))
		return false;
	for (i = 0; i < 16; i++) {
		if (!isxdigit((unsigned char)name[plen + i]))
			return false;
		id_ext[i] = name[plen + i];
	}
	if (plen + 16 < len && name[plen + 16] != '\0')
		return false;
	id_ext[16] = '\0';
	return true;
}
