// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * srp_daemon.conf syntax: a line starts with 'a' (allow) or 'd' (disallow),
 * followed by key=value items separated by commas or blanks. id_ext,
 * ioc_guid, dgid, service_id and pkey (hex) select targets; allow rules may
 * also carry the login options ib_srp accepts per target (decimal).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config.h"

struct match_key {
	const char *name;
	size_t	offset;
	size_t	size;
};

#define MATCH_KEY(f) { #f, offsetof(struct srp_rule, f), \
		       sizeof(((struct srp_rule *)NULL)->f) }

static const struct match_key match_keys[] = {
	MATCH_KEY(id_ext),
	MATCH_KEY(ioc_guid),
	MATCH_KEY(dgid),
	MATCH_KEY(service_id),
	MATCH_KEY(pkey),
};

static const char *const option_keys[] = {
	"allow_ext_sg", "ch_count", "cmd_sg_entries", "comp_vector",
	"max_cmd_per_lun", "max_sect", "queue_size", "sg_tablesize",
	"tl_retry_count",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t';
}

/* Copy the value starting at @s into @dst if it is all digits of @base. */
static const char *take_value(const char *s, char *dst, size_t size, int base)
{
	size_t n = 0;

	while (*s && !is_sep(*s)) {
		if (!(base == 16 ? isxdigit((unsigned char)*s) :
				   isdigit((unsigned char)*s)) ||
		    n + 1 >= size)
			return NULL;
		dst[n++] = *s++;
	}
	dst[n] = '\0';
	return n ? s : NULL;
}

static const char *parse_item(struct srp_rule *r, const char *s,
			      char *err, size_t errlen)
{
	char value[20];
	size_t i, n, used;
	const char *end;

	for (i = 0; i < ARRAY_SIZE(match_keys); i++) {
		n = strlen(match_keys[i].name);
		if (strncmp(s, match_keys[i].name, n) || s[n] != '=')
			continue;
		end = take_value(s + n + 1, (char *)r + match_keys[i].offset,
				 match_keys[i].size, 16);
		if (!end)
			snprintf(err, errlen, "%s needs up to %zu hex digits",
				 match_keys[i].name, match_keys[i].size - 1);
		return end;
	}
	for (i = 0; i < ARRAY_SIZE(option_keys); i++) {
		n = strlen(option_keys[i]);
		if (strncmp(s, option_keys[i], n) || s[n] != '=')
			continue;
		if (!r->allow) {
			snprintf(err, errlen, "%s only makes sense in an allow rule",
				 option_keys[i]);
			return NULL;
		}
		end = take_value(s + n + 1, value, sizeof(value), 10);
		if (!end) {
			snprintf(err, errlen, "%s needs a decimal value",
				 option_keys[i]);
			return NULL;
		}
		used = strlen(r->options);
		if ((size_t)snprintf(r->options + used, sizeof(r->options) - used,
				     ",%s=%s", option_keys[i], value) >=
		    sizeof(r->options) - used) {
			snprintf(err, errlen, "too many options in one rule");
			return NULL;
		}
		return end;
	}
	snprintf(err, errlen, "unknown item \"%.*s\"", (int)strcspn(s, ", \t"), s);
	return NULL;
}

static int add_rule(struct srp_config *cfg, const char *s,
		    char *err, size_t errlen)
{
	struct srp_rule rule = { .allow = (*s == 'a' || *s == 'A') };
	struct srp_rule *rules;

	for (s++; *s; ) {
		if (is_sep(*s)) {
			s++;
			continue;
		}
		s = parse_item(&rule, s, err, errlen);
		if (!s)
			return -EINVAL;
	}
	rules = realloc(cfg->rules, (cfg->nrules + 1) * sizeof(*rules));
	if (!rules)
		return -ENOMEM;
	rules[cfg->nrules++] = rule;
	cfg->rules = rules;
	return 0;
}

static int add_peer(struct srp_config *cfg, const char *s,
		    char *err, size_t errlen)
{
	char (*peers)[SRP_PEER_SPEC_MAX];
	size_t n;

	s += strspn(s, " \t");
	n = strcspn(s, " \t");
	if (!n || s[n + strspn(s + n, " \t")]) {
		snprintf(err, errlen, "peer needs exactly one address or gid:GID");
		return -EINVAL;
	}
	if (n >= SRP_PEER_SPEC_MAX) {
		snprintf(err, errlen, "peer address too long");
		return -EINVAL;
	}
	peers = realloc(cfg->peers, (cfg->npeers + 1) * sizeof(*peers));
	if (!peers)
		return -ENOMEM;
	memcpy(peers[cfg->npeers], s, n);
	peers[cfg->npeers++][n] = '\0';
	cfg->peers = peers;
	return 0;
}

int srp_config_parse_line(struct srp_config *cfg, const char *line,
			  char *err, size_t errlen)
{
	char buf[512];
	size_t n;

	n = strcspn(line, "#\r\n");
	if (n >= sizeof(buf)) {
		snprintf(err, errlen, "line too long");
		return -EINVAL;
	}
	memcpy(buf, line, n);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = '\0';
	if (!buf[strspn(buf, " \t")])
		return 0;

	if (!strncmp(buf, "peer", 4) && (buf[4] == ' ' || buf[4] == '\t'))
		return add_peer(cfg, buf + 4, err, errlen);
	if (strchr("aAdD", buf[0]) && (!buf[1] || is_sep(buf[1])))
		return add_rule(cfg, buf, err, errlen);
	snprintf(err, errlen, "a line must start with 'a', 'd' or 'peer'");
	return -EINVAL;
}

int srp_config_load(struct srp_config *cfg, const char *path, bool must_exist,
		    char *err, size_t errlen)
{
	char line[512], why[160];
	int lineno = 0, ret = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT && !must_exist)
			return 0;
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		ret = srp_config_parse_line(cfg, line, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
			break;
		}
	}
	fclose(f);
	return ret;
}

void srp_config_free(struct srp_config *cfg)
{
	free(cfg->rules);
	free(cfg->peers);
	memset(cfg, 0, sizeof(*cfg));
}

static uint64_t hex64(const char *s)
{
	return strtoull(s, NULL, 16);
}

static bool dgid_matches(const char *rule, const uint8_t gid[16])
{
	char hex[33];

	srp_gid_hex(gid, hex);
	return strlen(rule) == 32 && !strncasecmp(rule, hex, 32);
}

const struct srp_rule *srp_config_match(const struct srp_config *cfg,
					const struct srp_target_port *t)
{
	const struct srp_rule *r;
	int i;

	for (i = 0; i < cfg->nrules; i++) {
		r = &cfg->rules[i];
		if (r->id_ext[0] && hex64(r->id_ext) != hex64(t->id_ext))
			continue;
		if (r->ioc_guid[0] && hex64(r->ioc_guid) != t->ioc_guid)
			continue;
		if (r->dgid[0] && !dgid_matches(r->dgid, t->dgid))
			continue;
		if (r->service_id[0] && hex64(r->service_id) != t->service_id)
			continue;
		if (r->pkey[0] && (uint16_t)hex64(r->pkey) != t->pkey)
			continue;
		return r;
	}
	return NULL;
}
