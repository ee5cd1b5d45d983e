// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The add_target parser (drivers/infiniband/ulp/srp/target_opts.c) against
 * the grammar of docs abi.md: the strings srp_daemon and test suites write,
 * then invalid and hostile input, each of which must fail with -EINVAL and
 * a reason.
 */
#include <arpa/inet.h>
#include <errno.h>
#include "rdi_test.h"
#include "../../drivers/infiniband/ulp/srp/target_opts.h"

static char why[SRP_OPTS_WHY_LEN];

static int parse(const char *s, struct srp_target_opts *o)
{
	return srp_parse_target_opts(NULL, s, strlen(s), o, why, sizeof(why));
}

/* Expect -EINVAL and a reason; show the reason to whoever reads the log. */
#define EXPECT_REJECT(s)						\
	do {								\
		const char *_s = (s);					\
		struct srp_target_opts _o;				\
		int _r = parse(_s, &_o);				\
		EXPECT_EQ(_r, -EINVAL);					\
		EXPECT(why[0] != '\0');					\
		if (_r != -EINVAL)					\
			fprintf(stderr, "  accepted: %s\n", _s);	\
	} while (0)

#define EXPECT_WHY(s, text)						\
	do {								\
		const char *_t = (text);				\
		EXPECT_REJECT(s);					\
		EXPECT(strstr(why, _t));				\
		if (!strstr(why, _t))					\
			fprintf(stderr, "  why: %s\n", why);		\
	} while (0)

#define MIN_RDMA "id_ext=1,ioc_guid=2,dest=192.0.2.1:5555"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* IB CM keys but dgid, which each case appends. */
#define IB_NO_DGID "id_ext=1,ioc_guid=2,pkey=ffff,service_id=1"

/* Long add_target strings are written as lists of tokens. */
static const char *const srp_daemon_ib[] = {
	"id_ext=0002c90300a0b0c0", "ioc_guid=0002c90300a0b0c0",
	"dgid=fe800000000000000002c90300a0b0c1", "pkey=ffff",
	"service_id=0002c90300a0b0c0", "io_class=ff00",
	"initiator_ext=0002c90300a0b0c1", "tl_retry_count=7",
	"max_it_iu_size=8260", NULL };

static const char *const test_suite_v4[] = {
	"id_ext=0x0002c90300a0b0c0", "initiator_ext=fe80000000000000",
	"ioc_guid=0x0002c90300a0b0c0", "src=192.0.2.1",
	"dest=198.51.100.1:5555", NULL };

static const char *const repeated[] = {
	"id_ext=1", "ioc_guid=2", "dest=192.0.2.1:1", "queue_size=10",
	"id_ext=3", "queue_size=20", "dest=[fe80::1%1]:2", NULL };

static const char *const every_key_max[] = {
	"id_ext=ffffffffffffffff", "ioc_guid=0",
	"dgid=FE800000000000000000000000000001", "pkey=0xFFFF",
	"service_id=0x0", "max_sect=131072", "max_cmd_per_lun=1",
	"io_class=0x0100", "initiator_ext=0X1", "cmd_sg_entries=255",
	"allow_ext_sg=1", "sg_tablesize=2048", "comp_vector=0",
	"tl_retry_count=2", "queue_size=2147483647", "target_can_queue=1",
	"max_it_iu_size=0", "ch_count=1", "keepalive=3600", "poll_queues=1024",
	NULL };

static const char *const every_key_min[] = {
	MIN_RDMA, "cmd_sg_entries=1", "sg_tablesize=1", "tl_retry_count=7",
	"allow_ext_sg=0", "comp_vector=0x10", "keepalive=0", "poll_queues=0",
	NULL };

/* The tokens joined by commas, in a buffer valid until the next call. */
static const char *join(const char *const *tokens)
{
	static char buf[1024];
	size_t i;

	buf[0] = '\0';
	for (i = 0; tokens[i]; i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, tokens[i]);
	}
	return buf;
}

static const struct sockaddr_in *sin4(const struct sockaddr_storage *ss)
{
	return (const struct sockaddr_in *)ss;
}

static const struct sockaddr_in6 *sin6(const struct sockaddr_storage *ss)
{
	return (const struct sockaddr_in6 *)ss;
}

RDI_TEST(srp_daemon_ib_cm_string)
{
	static const unsigned char gid[16] = {
		0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x00, 0x02, 0xc9, 0x03, 0x00, 0xa0, 0xb0, 0xc1 };
	struct srp_target_opts o;

	EXPECT_EQ(parse(join(srp_daemon_ib), &o), 0);
	EXPECT_EQ(o.id_ext, 0x0002c90300a0b0c0ULL);
	EXPECT_EQ(o.ioc_guid, 0x0002c90300a0b0c0ULL);
	EXPECT_MEM(o.dgid, gid, 16);
	EXPECT_EQ(o.pkey, 0xffff);
	EXPECT_EQ(o.service_id, 0x0002c90300a0b0c0ULL);
	EXPECT_EQ(o.io_class, SRP_IO_CLASS_R10);
	EXPECT_EQ(o.initiator_ext, 0x0002c90300a0b0c1ULL);
	EXPECT_EQ(o.tl_retry_count, 7);
	EXPECT_EQ(o.max_it_iu_size, 8260);
	EXPECT(!srp_target_opts_rdma_cm(&o));
	EXPECT(!srp_target_opts_has(&o, SRP_OPT_QUEUE_SIZE));
	EXPECT_EQ(o.mask, BIT(SRP_OPT_ID_EXT) | BIT(SRP_OPT_IOC_GUID) |
		  BIT(SRP_OPT_DGID) | BIT(SRP_OPT_PKEY) |
		  BIT(SRP_OPT_SERVICE_ID) | BIT(SRP_OPT_IO_CLASS) |
		  BIT(SRP_OPT_INITIATOR_EXT) | BIT(SRP_OPT_TL_RETRY_COUNT) |
		  BIT(SRP_OPT_MAX_IT_IU_SIZE));
}

RDI_TEST(rdma_cm_ipv4_string)
{
	struct srp_target_opts o;

	EXPECT_EQ(parse(join(test_suite_v4), &o), 0);
	EXPECT(srp_target_opts_rdma_cm(&o));
	EXPECT_EQ(o.initiator_ext, 0xfe80000000000000ULL);
	EXPECT_EQ(sin4(&o.dest)->sin_family, AF_INET);
	EXPECT_EQ(ntohs(sin4(&o.dest)->sin_port), 5555);
	EXPECT_EQ(ntohl(sin4(&o.dest)->sin_addr.s_addr), 0xc6336401);
	EXPECT_EQ(sin4(&o.src)->sin_family, AF_INET);
	EXPECT_EQ(sin4(&o.src)->sin_port, 0);
	EXPECT_EQ(ntohl(sin4(&o.src)->sin_addr.s_addr), 0xc0000201);
}

RDI_TEST(rdma_cm_ipv6_scope)
{
	static const unsigned char fe80_1[16] = { 0xfe, 0x80, [15] = 1 };
	struct srp_target_opts o;

	EXPECT_EQ(parse("id_ext=1,ioc_guid=2,src=[fe80::2%2],dest=[fe80::1%2]:5555", &o), 0);
	EXPECT_EQ(sin6(&o.dest)->sin6_family, AF_INET6);
	EXPECT_EQ(ntohs(sin6(&o.dest)->sin6_port), 5555);
	EXPECT_EQ(sin6(&o.dest)->sin6_scope_id, 2);
	EXPECT_MEM(&sin6(&o.dest)->sin6_addr, fe80_1, 16);
	EXPECT_EQ(sin6(&o.src)->sin6_family, AF_INET6);
	EXPECT_EQ(sin6(&o.src)->sin6_scope_id, 2);
	EXPECT_EQ(sin6(&o.src)->sin6_port, 0);

	/* scope by interface name; "lo" exists in every namespace */
	EXPECT_EQ(parse("id_ext=1,ioc_guid=2,dest=[fe80::1%lo]:5555", &o), 0);
	EXPECT(sin6(&o.dest)->sin6_scope_id != 0);
	/* global address, no scope; src with a port */
	EXPECT_EQ(parse("id_ext=1,ioc_guid=2,dest=[2001:db8::1]:1,src=[2001:db8::2]:65535", &o), 0);
	EXPECT_EQ(ntohs(sin6(&o.src)->sin6_port), 65535);
}

RDI_TEST(repeated_keys_later_wins)
{
	struct srp_target_opts o;

	EXPECT_EQ(parse(join(repeated), &o), 0);
	EXPECT_EQ(o.id_ext, 3);
	EXPECT_EQ(o.queue_size, 20);
	EXPECT_EQ(o.dest.ss_family, AF_INET6);
	EXPECT_EQ(ntohs(sin6(&o.dest)->sin6_port), 2);
}

RDI_TEST(empty_tokens_and_newlines)
{
	struct srp_target_opts o;

	EXPECT_EQ(parse(",,id_ext=1,,\n,ioc_guid=2,\n\ndest=192.0.2.1:5,", &o),
		  0);
	EXPECT_EQ(o.id_ext, 1);
	EXPECT_EQ(parse("id_ext=1\nioc_guid=2\ndest=192.0.2.1:5\n", &o), 0);
	EXPECT_EQ(o.ioc_guid, 2);
	EXPECT_EQ(ntohs(sin4(&o.dest)->sin_port), 5);
}

RDI_TEST(trailing_nul_tolerated)
{
	static const char s[] = MIN_RDMA "\n\0\0";
	struct srp_target_opts o;

	EXPECT_EQ(srp_parse_target_opts(NULL, s, sizeof(s), &o, why,
					sizeof(why)), 0);
}

RDI_TEST(not_nul_terminated)
{
	/* only the first count bytes may be read: the rest is garbage */
	static const char s[] = MIN_RDMA "7,bogus";
	struct srp_target_opts o;

	EXPECT_EQ(srp_parse_target_opts(NULL, s, strlen(MIN_RDMA), &o, why,
					sizeof(why)), 0);
	EXPECT_EQ(ntohs(sin4(&o.dest)->sin_port), 5555);
}

RDI_TEST(every_key_at_its_limits)
{
	struct srp_target_opts o;

	EXPECT_EQ(parse(join(every_key_max), &o),
		  0);
	EXPECT_EQ(o.id_ext, ~0ULL);
	EXPECT_EQ(o.dgid[0], 0xfe);
	EXPECT_EQ(o.dgid[15], 1);
	EXPECT_EQ(o.pkey, 0xffff);
	EXPECT_EQ(o.max_sect, 131072);
	EXPECT_EQ(o.io_class, SRP_IO_CLASS_R16A);
	EXPECT_EQ(o.initiator_ext, 1);
	EXPECT_EQ(o.cmd_sg_entries, 255);
	EXPECT(o.allow_ext_sg);
	EXPECT_EQ(o.sg_tablesize, 2048);
	EXPECT_EQ(o.tl_retry_count, 2);
	EXPECT_EQ(o.queue_size, 2147483647);
	EXPECT_EQ(o.keepalive, 3600);
	EXPECT_EQ(o.poll_queues, 1024);
	EXPECT_EQ(o.mask, ((1U << SRP_OPT_NR) - 1) &
		  ~(BIT(SRP_OPT_DEST) | BIT(SRP_OPT_SRC)));
	EXPECT_EQ(parse(join(every_key_min), &o),
		  0);
	EXPECT_EQ(o.comp_vector, 16);
	EXPECT(!o.allow_ext_sg);
	EXPECT_EQ(o.keepalive, 0);
	EXPECT(srp_target_opts_has(&o, SRP_OPT_KEEPALIVE));
	EXPECT_EQ(o.poll_queues, 0);
	EXPECT(srp_target_opts_has(&o, SRP_OPT_POLL_QUEUES));
}

/* Without the key a login has no poll queues: the in-tree behaviour. */
RDI_TEST(poll_queues_default_and_repeat)
{
	struct srp_target_opts o;

	EXPECT_EQ(parse(MIN_RDMA, &o), 0);
	EXPECT(!srp_target_opts_has(&o, SRP_OPT_POLL_QUEUES));
	EXPECT_EQ(o.poll_queues, 0);
	EXPECT_EQ(parse(MIN_RDMA ",poll_queues=2", &o), 0);
	EXPECT_EQ(o.poll_queues, 2);
	EXPECT_EQ(parse(MIN_RDMA ",poll_queues=2,poll_queues=0x3", &o), 0);
	EXPECT_EQ(o.poll_queues, 3);
	EXPECT_WHY(MIN_RDMA ",poll_queues", "'poll_queues' has no value");
}

RDI_TEST(bad_hex)
{
	EXPECT_WHY("id_ext=xyz,ioc_guid=2,dest=192.0.2.1:1", "id_ext");
	EXPECT_REJECT("id_ext=0x,ioc_guid=2,dest=192.0.2.1:1");
	EXPECT_REJECT("id_ext=12 34,ioc_guid=2,dest=192.0.2.1:1");
	EXPECT_REJECT("id_ext=-1,ioc_guid=2,dest=192.0.2.1:1");
	EXPECT_REJECT("id_ext=1,ioc_guid=2g,dest=192.0.2.1:1");
	EXPECT_WHY(MIN_RDMA ",initiator_ext=10000000000000000", "64 bits");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,service_id=0x1ffffffffffffffff,dest=192.0.2.1:1");
}

RDI_TEST(dgid_length_and_digits)
{
	EXPECT_WHY(IB_NO_DGID ",dgid=fe80000000000000000000000000001",
		   "dgid: expected 32 hex digits, got 31");
	EXPECT_WHY(IB_NO_DGID ",dgid=fe8000000000000000000000000000011",
		   "got 33");
	EXPECT_REJECT(IB_NO_DGID ",dgid=0xfe800000000000000000000000000001");
	EXPECT_WHY(IB_NO_DGID ",dgid=fe80000000000000000000000000000g", "not hex");
}

RDI_TEST(missing_keys)
{
	EXPECT_WHY("ioc_guid=2,dest=192.0.2.1:1", "id_ext");
	EXPECT_WHY("id_ext=1,dest=192.0.2.1:1", "ioc_guid");
	EXPECT_WHY("id_ext=1,ioc_guid=2", "dest");
	EXPECT_WHY("id_ext=1,ioc_guid=2,service_id=1,dgid=fe800000000000000000000000000001",
		   "missing pkey");
	EXPECT_WHY("id_ext=1,ioc_guid=2,pkey=1,service_id=1", "missing dgid");
	EXPECT_REJECT("");
	EXPECT_REJECT(",,\n\n");
	/* src without dest is not an RDMA/CM login */
	EXPECT_REJECT("id_ext=1,ioc_guid=2,src=192.0.2.1");
}

RDI_TEST(numbers_out_of_range)
{
	static const struct {
		const char *key;
		const char *bad[6];
	} cases[] = {
		{ "max_sect", { "0", "2147483648", "4294967296", "-1",
				"99999999999999999999999" } },
		{ "max_cmd_per_lun", { "0", "2147483648", "4294967296" } },
		{ "queue_size", { "0", "2147483648", "18446744073709551616" } },
		{ "target_can_queue", { "0", "2147483648" } },
		{ "cmd_sg_entries", { "0", "256", "4294967297" } },
		{ "allow_ext_sg", { "2", "-1", "4294967296" } },
		{ "sg_tablesize", { "0", "2049" } },
		{ "comp_vector", { "-1", "2147483648" } },
		{ "tl_retry_count", { "1", "8", "0" } },
		{ "max_it_iu_size", { "-1", "2147483648" } },
		{ "ch_count", { "0", "2147483648", "1x" } },
		{ "keepalive", { "-1", "3601", "4294967296", "5s" } },
		{ "poll_queues", { "-1", "1025", "4294967296", "2q", "" } },
		{ "pkey", { "10000", "0x1ffff", "ffffffffffffffffff" } },
		{ "io_class", { "0x0200", "0", "1ff00", "zz" } },
	};
	char s[256];
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		for (j = 0; j < 6 && cases[i].bad[j];
		     j++) {
			snprintf(s, sizeof(s), MIN_RDMA ",%s=%s", cases[i].key,
				 cases[i].bad[j]);
			EXPECT_WHY(s, cases[i].key);
		}
	}
}

RDI_TEST(unknown_key_and_missing_value)
{
	EXPECT_WHY(MIN_RDMA ",foo=1", "unknown key 'foo'");
	EXPECT_WHY(MIN_RDMA ",ID_EXT=1", "unknown key");
	EXPECT_WHY(MIN_RDMA ",queue_size", "'queue_size' has no value");
	EXPECT_WHY(MIN_RDMA ",queue_size=", "has no value");
	EXPECT_REJECT(MIN_RDMA ",=5");
	EXPECT_REJECT(MIN_RDMA ", queue_size=5");
	EXPECT_REJECT(MIN_RDMA ",queue_size =5");
	EXPECT_REJECT(MIN_RDMA ",queue_size= 5");
}

RDI_TEST(addresses_and_ports)
{
	EXPECT_WHY("id_ext=1,ioc_guid=2,dest=192.0.2.1", "port missing");
	EXPECT_WHY("id_ext=1,ioc_guid=2,dest=192.0.2.1:0", "port");
	EXPECT_WHY("id_ext=1,ioc_guid=2,dest=192.0.2.1:65536", "port");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=192.0.2.1:-1");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=192.0.2.1:0x50");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=192.0.2.1:");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=192.0.2.1:123456");
	EXPECT_REJECT(MIN_RDMA ",src=192.0.2.2:65536");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=192.0.2:5555");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=256.0.2.1:5555");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=:5555");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=host.example:5555");
	EXPECT_WHY("id_ext=1,ioc_guid=2,dest=fe80::1:5555", "[addr]");
	EXPECT_WHY("id_ext=1,ioc_guid=2,dest=[fe80::1:5555", "']'");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=[fe80::1]x5555");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=[fe80::1]");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=[192.0.2.1]:5555");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=[fe80::1%nosuchif0]:5555");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=[fe80::1%]:5555x");
	EXPECT_REJECT("id_ext=1,ioc_guid=2,dest=[]:5555");
	EXPECT_WHY(MIN_RDMA ",src=[fe80::1%1]", "different address families");
}

RDI_TEST(hostile_input)
{
	static const char nul[] = "id_ext=1\0,ioc_guid=2,dest=192.0.2.1:1";
	static const char bin[] = MIN_RDMA ",queue_size=\xff\x01\x7f";
	struct srp_target_opts o;
	char *big;
	size_t n;

	EXPECT_EQ(srp_parse_target_opts(NULL, nul, sizeof(nul) - 1, &o, why,
					sizeof(why)), -EINVAL);
	EXPECT(strstr(why, "NUL"));
	EXPECT_WHY(bin, "<unprintable>");
	EXPECT_WHY(MIN_RDMA ",queue_size=\xe9t\xe9", "<unprintable>");
	EXPECT_WHY(MIN_RDMA ",\x1b[31m=1", "<unprintable>");

	/* longer than a sysfs page */
	n = SRP_OPTS_MAX_LEN + 1;
	big = malloc(n + 1);
	memset(big, ',', n);
	memcpy(big, MIN_RDMA, strlen(MIN_RDMA));
	big[n] = '\0';
	EXPECT_WHY(big, "longer than");
	/* exactly at the limit, padded with empty tokens: fine */
	EXPECT_EQ(srp_parse_target_opts(NULL, big, n - 1, &o, why,
					sizeof(why)), 0);

	/* one enormous token: no overflow, quoted only in part */
	memset(big, '1', n);
	memcpy(big, "id_ext=", 7);
	big[SRP_OPTS_MAX_LEN - 1] = '\0';
	EXPECT_WHY(big, "longer than");
	EXPECT(strlen(why) < sizeof(why) - 1);
	free(big);

	/* a reason that does not fit is cut, never overflows */
	EXPECT_EQ(srp_parse_target_opts(NULL, "bogus=1", 7, &o, why, 8),
		  -EINVAL);
	EXPECT_EQ(strlen(why), 7);
	EXPECT_EQ(srp_parse_target_opts(NULL, "bogus=1", 7, &o, NULL, 0),
		  -EINVAL);
	/* leading zeros do not overflow a hex key */
	EXPECT_EQ(parse("id_ext=000000000000000000000000001,ioc_guid=2,dest=192.0.2.1:1", &o), 0);
	EXPECT_EQ(o.id_ext, 1);
}

RDI_TEST(key_names)
{
	EXPECT(!strcmp(srp_opt_name(SRP_OPT_MAX_IT_IU_SIZE), "max_it_iu_size"));
	EXPECT(!strcmp(srp_opt_name(SRP_OPT_NR), "?"));
}

RDI_TEST_MAIN()
