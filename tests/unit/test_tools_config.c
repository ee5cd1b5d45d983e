// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* srp-discover's configuration file: srp_daemon.conf rules plus peers. */
#include <errno.h>
#include <unistd.h>

#include "rdi_test.h"
#include "srp-discover/config.h"

static struct srp_target_port lab_target(void)
{
	struct srp_target_port t = {
		.id_ext = "744c8efffe4a7b42",
		.ioc_guid = 0x744c8efffe4a7b42ull,
		.service_id = 0x744c8efffe4a7b42ull,
		.pkey = 0xffff,
		.dgid = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
			  0x74, 0x4c, 0x8e, 0xff, 0xfe, 0x4a, 0x7b, 0x42 },
	};
	return t;
}

static int parse(struct srp_config *cfg, const char *line)
{
	char err[160];

	return srp_config_parse_line(cfg, line, err, sizeof(err));
}

RDI_TEST(config_comments_and_blank_lines_are_ignored)
{
	struct srp_config cfg = { 0 };

	EXPECT_EQ(parse(&cfg, "# a comment\n"), 0);
	EXPECT_EQ(parse(&cfg, "   \t\n"), 0);
	EXPECT_EQ(parse(&cfg, "\n"), 0);
	EXPECT_EQ(cfg.nrules, 0);
	EXPECT_EQ(cfg.npeers, 0);
	srp_config_free(&cfg);
}

RDI_TEST(config_srp_daemon_examples_parse)
{
	struct srp_config cfg = { 0 };

	EXPECT_EQ(parse(&cfg, "d       dgid=fe800000000000000002c90200402bd5\n"), 0);
	EXPECT_EQ(parse(&cfg, "a       ioc_guid=00a0b80200402bd7\n"), 0);
	EXPECT_EQ(parse(&cfg, "a       pkey=ffff\n"), 0);
	EXPECT_EQ(parse(&cfg, "a       id_ext=200500A0B81146A1,ioc_guid=00a0b80200402bef\n"), 0);
	EXPECT_EQ(parse(&cfg, "a  id_ext=200500A0B81146A1,ioc_guid=00a0b80200402bef,max_cmd_per_lun=31\n"), 0);
	EXPECT_EQ(parse(&cfg, " a      queue_size=128,max_cmd_per_lun=128\n") , -EINVAL);
	EXPECT_EQ(parse(&cfg, "a      queue_size=128,max_cmd_per_lun=128\n"), 0);
	EXPECT_EQ(parse(&cfg, "d\n"), 0);
	EXPECT_EQ(cfg.nrules, 7);
	EXPECT(!cfg.rules[0].allow);
	EXPECT(cfg.rules[1].allow);
	EXPECT(!strcmp(cfg.rules[4].options, ",max_cmd_per_lun=31"));
	EXPECT(!strcmp(cfg.rules[5].options, ",queue_size=128,max_cmd_per_lun=128"));
	srp_config_free(&cfg);
}

RDI_TEST(config_rejects_what_srp_daemon_rejects)
{
	struct srp_config cfg = { 0 };
	char err[160] = "";

	EXPECT_EQ(srp_config_parse_line(&cfg, "x id_ext=1\n", err, sizeof(err)), -EINVAL);
	EXPECT(strstr(err, "start with"));
	EXPECT_EQ(srp_config_parse_line(&cfg, "a bogus=1\n", err, sizeof(err)), -EINVAL);
	EXPECT(strstr(err, "bogus"));
	EXPECT_EQ(srp_config_parse_line(&cfg, "a id_ext=xyz\n", err, sizeof(err)), -EINVAL);
	EXPECT_EQ(srp_config_parse_line(&cfg, "a queue_size=0x10\n", err, sizeof(err)), -EINVAL);
	EXPECT_EQ(srp_config_parse_line(&cfg, "d queue_size=16\n", err, sizeof(err)), -EINVAL);
	EXPECT(strstr(err, "allow rule"));
	EXPECT_EQ(srp_config_parse_line(&cfg, "a id_ext=11112222333344445\n", err, sizeof(err)), -EINVAL);
	EXPECT_EQ(cfg.nrules, 0);
	srp_config_free(&cfg);
}

RDI_TEST(config_peers)
{
	struct srp_config cfg = { 0 };

	EXPECT_EQ(parse(&cfg, "peer 192.0.2.1\n"), 0);
	EXPECT_EQ(parse(&cfg, "peer\t198.51.100.1:5555   # second path\n"), 0);
	EXPECT_EQ(parse(&cfg, "peer a b\n"), -EINVAL);
	EXPECT_EQ(parse(&cfg, "peer\n"), -EINVAL);
	EXPECT_EQ(cfg.npeers, 2);
	EXPECT(!strcmp(cfg.peers[0], "192.0.2.1"));
	EXPECT(!strcmp(cfg.peers[1], "198.51.100.1:5555"));
	srp_config_free(&cfg);
}

RDI_TEST(config_first_matching_rule_decides)
{
	struct srp_config cfg = { 0 };
	struct srp_target_port t = lab_target();
	const struct srp_rule *r;

	EXPECT(srp_config_match(&cfg, &t) == NULL);	/* no rules: allowed */
	parse(&cfg, "d ioc_guid=1111\n");
	parse(&cfg, "a id_ext=744C8EFFFE4A7B42 pkey=ffff queue_size=64\n");
	parse(&cfg, "d\n");
	r = srp_config_match(&cfg, &t);
	EXPECT(r == &cfg.rules[1]);
	EXPECT(r && r->allow);
	EXPECT(r && !strcmp(r->options, ",queue_size=64"));

	t.pkey = 0x8001;
	r = srp_config_match(&cfg, &t);
	EXPECT(r == &cfg.rules[2]);
	EXPECT(r && !r->allow);
	srp_config_free(&cfg);
}

RDI_TEST(config_dgid_rule_matches_the_whole_gid)
{
	struct srp_config cfg = { 0 };
	struct srp_target_port t = lab_target();

	parse(&cfg, "d dgid=fe80000000000000744c8efffe4a7b42\n");
	EXPECT(srp_config_match(&cfg, &t) == &cfg.rules[0]);
	t.dgid[15] ^= 1;
	EXPECT(srp_config_match(&cfg, &t) == NULL);
	srp_config_free(&cfg);
}

RDI_TEST(config_load_reports_file_and_line)
{
	char path[] = "/tmp/rdi-test-conf-XXXXXX";
	struct srp_config cfg = { 0 };
	char err[256] = "";
	FILE *f;
	int fd;

	fd = mkstemp(path);
	EXPECT(fd >= 0);
	f = fdopen(fd, "w");
	fputs("# rules\npeer 192.0.2.1\na queue_size=64\nbad line\n", f);
	fclose(f);
	EXPECT_EQ(srp_config_load(&cfg, path, true, err, sizeof(err)), -EINVAL);
	EXPECT(strstr(err, ":4: "));
	srp_config_free(&cfg);
	unlink(path);

	EXPECT_EQ(srp_config_load(&cfg, path, false, err, sizeof(err)), 0);
	EXPECT_EQ(srp_config_load(&cfg, path, true, err, sizeof(err)), -ENOENT);
	srp_config_free(&cfg);
}

RDI_TEST_MAIN()
