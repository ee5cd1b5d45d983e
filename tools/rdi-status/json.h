/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Minimal streaming JSON writer: two-space indented, one member per line,
 * strings escaped per RFC 8259. A NULL string or RDI_JSON_NONE number is
 * written as null. @key is NULL for array elements.
 */
#ifndef RDI_STATUS_JSON_H
#define RDI_STATUS_JSON_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#define RDI_JSON_NONE		LLONG_MIN
#define RDI_JSON_MAX_DEPTH	16

struct json {
	FILE	*f;
	int	depth;
	bool	first[RDI_JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);
void json_string(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, long long val);
void json_bool(struct json *j, const char *key, bool val);

#endif /* RDI_STATUS_JSON_H */
