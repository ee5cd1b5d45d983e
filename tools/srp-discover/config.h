/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Configuration file: srp_daemon.conf rules ("a"/"d" lines) that decide
 * which targets to log in to and with which options, plus "peer" lines that
 * name the target ports to query (RoCE has no subnet administrator to ask).
 */
#ifndef SRP_DISCOVER_CONFIG_H
#define SRP_DISCOVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "target.h"

#define SRP_RULE_OPTIONS_MAX	128
#define SRP_PEER_SPEC_MAX	128

/**
 * struct srp_rule - one a/d line; an empty field matches anything
 * @allow: an 'a' line
 * @id_ext: hex digits the target's id_ext must equal
 * @ioc_guid: hex digits the IOC GUID must equal
 * @dgid: 32 hex digits the target port GID must equal
 * @service_id: hex digits the service id must equal
 * @pkey: hex digits the partition key must equal
 * @options: ",key=value" list appended to the add_target line (allow rules)
 */
struct srp_rule {
	bool	allow;
	char	id_ext[17];
	char	ioc_guid[17];
	char	dgid[33];
	char	service_id[17];
	char	pkey[5];
	char	options[SRP_RULE_OPTIONS_MAX];
};

struct srp_config {
	struct srp_rule	*rules;
	int		nrules;
	char		(*peers)[SRP_PEER_SPEC_MAX];
	int		npeers;
};

/**
 * srp_config_parse_line - add one line of a configuration file to @cfg
 * @cfg: configuration to extend
 * @line: the line, with or without its newline
 * @err: where to say what is wrong with it
 * @errlen: size of @err
 *
 * Comments ('#') and blank lines are ignored.
 * Return: 0, -EINVAL with a reason in @err, or -ENOMEM.
 */
int srp_config_parse_line(struct srp_config *cfg, const char *line,
			  char *err, size_t errlen);

/*
 * Load @path; a missing file is an empty configuration unless @must_exist.
 * On a syntax error, @err says which line and why.
 */
int srp_config_load(struct srp_config *cfg, const char *path, bool must_exist,
		    char *err, size_t errlen);

void srp_config_free(struct srp_config *cfg);

/*
 * The first rule matching @t, or NULL if none does (then the target is
 * allowed without extra options, as srp_daemon does).
 */
const struct srp_rule *srp_config_match(const struct srp_config *cfg,
					const struct srp_target_port *t);

#endif /* SRP_DISCOVER_CONFIG_H */
