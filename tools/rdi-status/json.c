// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* JSON writer for rdi-status --json. */
#include "json.h"

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void put_string(struct json *j, const char *s)
{
	const unsigned char *p;

	fputc('"', j->f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(j->f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", j->f);
		else if (*p == '\t')
			fputs("\\t", j->f);
		else if (*p < 0x20)
			fprintf(j->f, "\\u%04x", *p);
		else
			fputc(*p, j->f);
	}
	fputc('"', j->f);
}

/* Separator, newline and indentation before a member, then its key. */
static void member(struct json *j, const char *key)
{
	int i;

	if (j->depth) {
		fputs(j->first[j->depth] ? "\n" : ",\n", j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->first[j->depth] = false;
	if (key) {
		put_string(j, key);
		fputs(": ", j->f);
	}
}

static void open_container(struct json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < RDI_JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_container(struct json *j, char c)
{
	bool empty = j->first[j->depth];
	int i;

	if (j->depth)
		j->depth--;
	if (!empty) {
		fputc('\n', j->f);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void json_begin_object(struct json *j, const char *key)
{
	open_container(j, key, '{');
}

void json_end_object(struct json *j)
{
	close_container(j, '}');
}

void json_begin_array(struct json *j, const char *key)
{
	open_container(j, key, '[');
}

void json_end_array(struct json *j)
{
	close_container(j, ']');
}

void json_string(struct json *j, const char *key, const char *val)
{
	member(j, key);
	if (val)
		put_string(j, val);
	else
		fputs("null", j->f);
}

void json_int(struct json *j, const char *key, long long val)
{
	member(j, key);
	if (val == RDI_JSON_NONE)
		fputs("null", j->f);
	else
		fprintf(j->f, "%lld", val);
}

void json_bool(struct json *j, const char *key, bool val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->f);
}
