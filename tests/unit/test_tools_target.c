// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* srp-discover: add_target lines, service names, peer addresses. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>

#include "rdi_test.h"
#include "srp-discover/dm.h"
#include "srp-discover/peer.h"
#include "srp-discover/target.h"

static struct srp_target_port roce_target(void)
{
	struct srp_target_port t = {
		.id_ext = "744c8efffe4a7b42",
		.ioc_guid = 0x744c8efffe4a7b42ull,
		.service_id = 0x744c8efffe4a7b42ull,
		.io_class = SRP_IO_CLASS_R16A,
		.pkey = 0xffff,
		.dgid = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
			  0x74, 0x4c, 0x8e, 0xff, 0xfe, 0x4a, 0x7b, 0x42 },
		.rdma_cm = true,
		.dest = "192.0.2.1:5555",
	};
	return t;
}

RDI_TEST(line_rdma_cm_form)
{
	struct srp_target_port t = roce_target();
	struct srp_line_opts o = { 0 };
	char line[SRP_LINE_MAX + 1];
	const char *want = "id_ext=744c8efffe4a7b42,ioc_guid=744c8efffe4a7b42,dest=192.0.2.1:5555";

	EXPECT_EQ(srp_format_line(&t, &o, line, sizeof(line)), strlen(want));
	EXPECT(!strcmp(line, want));

	strcpy(t.src, "192.0.2.1");
	srp_format_line(&t, &o, line, sizeof(line));
	EXPECT(!strcmp(line, "id_ext=744c8efffe4a7b42,ioc_guid=744c8efffe4a7b42,src=192.0.2.1,dest=192.0.2.1:5555"));
}

RDI_TEST(line_ib_cm_form_and_key_order_of_srp_daemon)
{
	struct srp_target_port t = roce_target();
	struct srp_line_opts o = {
		.initiator_ext = true,
		.tl_retry_count = 7,
		.options = ",queue_size=64",
		.max_it_iu_size = 8276,
	};
	char line[SRP_LINE_MAX + 1];

	t.rdma_cm = false;
	t.io_class = SRP_IO_CLASS_R10;
	t.pkey = 0x8001;
	t.service_id = 0x0002c90200402bd5ull;
	EXPECT(srp_format_line(&t, &o, line, sizeof(line)) > 0);
	EXPECT(!strcmp(line, "id_ext=744c8efffe4a7b42,ioc_guid=744c8efffe4a7b42,"
		       "dgid=fe80000000000000744c8efffe4a7b42,pkey=8001,"
		       "service_id=0002c90200402bd5,io_class=ff00,"
		       "initiator_ext=744c8efffe4a7b42,tl_retry_count=7,"
		       "queue_size=64,max_it_iu_size=8276"));
}

RDI_TEST(line_longer_than_ib_srp_reads_is_refused)
{
	struct srp_target_port t = roce_target();
	char opts[300];
	struct srp_line_opts o = { .options = opts };
	char line[512];

	memset(opts, 'x', sizeof(opts) - 1);
	opts[0] = ',';
	opts[sizeof(opts) - 1] = '\0';
	EXPECT_EQ(srp_format_line(&t, &o, line, sizeof(line)), -ENOSPC);
	EXPECT_EQ(line[0], '\0');
	EXPECT_EQ(srp_format_line(&t, &(struct srp_line_opts){ 0 }, line, 20), -ENOSPC);
}

RDI_TEST(service_names)
{
	char id[17];

	EXPECT(srp_parse_service_name("SRP.T10:744c8efffe4a7b42", 40, id));
	EXPECT(!strcmp(id, "744c8efffe4a7b42"));
	EXPECT(!srp_parse_service_name("SRP.T10:744c8efffe4a7b4", 40, id));
	EXPECT(!srp_parse_service_name("SRP.T10:744c8efffe4a7b4g", 40, id));
	EXPECT(!srp_parse_service_name("SRP.T10:744c8efffe4a7b42x", 40, id));
	EXPECT(!srp_parse_service_name("iSER:744c8efffe4a7b42", 40, id));
	/* a full 40-byte name without terminating NUL */
	EXPECT(!srp_parse_service_name("SRP.T10:744c8efffe4a7b42XXXXXXXXXXXXXXXX", 40, id));
}

RDI_TEST(slot_nibbles)
{
	struct dm_iou_info iou = { .max_controllers = 16 };

	iou.controller_list[0] = 0x10;	/* slot 1 present, slot 2 empty */
	iou.controller_list[1] = 0xf1;	/* slot 3 none, slot 4 present */
	EXPECT_EQ(dm_slot_state(&iou, 1), DM_SLOT_IOC_PRESENT);
	EXPECT_EQ(dm_slot_state(&iou, 2), DM_SLOT_EMPTY);
	EXPECT_EQ(dm_slot_state(&iou, 3), DM_SLOT_NONE);
	EXPECT_EQ(dm_slot_state(&iou, 4), DM_SLOT_IOC_PRESENT);
}

RDI_TEST(peer_addresses)
{
	struct srp_peer p;
	char dest[80];

	EXPECT_EQ(srp_peer_parse(&p, "192.0.2.1", 5555), 0);
	EXPECT_EQ(p.kind, SRP_PEER_ADDR);
	EXPECT_EQ(srp_format_dest((struct sockaddr *)&p.addr, dest, sizeof(dest)), 0);
	EXPECT(!strcmp(dest, "192.0.2.1:5555"));

	EXPECT_EQ(srp_peer_parse(&p, "198.51.100.1:6000", 5555), 0);
	srp_format_dest((struct sockaddr *)&p.addr, dest, sizeof(dest));
	EXPECT(!strcmp(dest, "198.51.100.1:6000"));

	EXPECT_EQ(srp_peer_parse(&p, "[fe80::1%1]:5555", 7), 0);
	srp_format_dest((struct sockaddr *)&p.addr, dest, sizeof(dest));
	EXPECT(!strcmp(dest, "[fe80::1%1]:5555"));

	EXPECT_EQ(srp_peer_parse(&p, "2001:db8::5", 5555), 0);
	srp_format_dest((struct sockaddr *)&p.addr, dest, sizeof(dest));
	EXPECT(!strcmp(dest, "[2001:db8::5]:5555"));

	EXPECT_EQ(srp_peer_parse(&p, "192.0.2.1:0", 5555), -EINVAL);
	EXPECT_EQ(srp_peer_parse(&p, "192.0.2.1:70000", 5555), -EINVAL);
	EXPECT_EQ(srp_peer_parse(&p, "target.example", 5555), -EINVAL);
	EXPECT_EQ(srp_peer_parse(&p, "[fe80::1", 5555), -EINVAL);
}

RDI_TEST(peer_gids)
{
	static const uint8_t want[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
					  0x02, 0x00, 0x5e, 0xff, 0xfe, 0, 0x53, 0x01 };
	struct srp_peer p;

	EXPECT_EQ(srp_peer_parse(&p, "gid:fe80::200:5eff:fe00:5301", 5556), 0);
	EXPECT_EQ(p.kind, SRP_PEER_GID);
	EXPECT_EQ(p.cm_port, 5556);
	EXPECT_MEM(p.gid, want, 16);
	EXPECT_EQ(srp_peer_parse(&p, "gid:192.0.2.1", 5555), -EINVAL);
}

RDI_TEST(link_local_gid_of_a_mac)
{
	static const uint8_t mac[6] = { 0x76, 0x4c, 0x8e, 0x4a, 0x7b, 0x42 };
	static const uint8_t want[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
					  0x74, 0x4c, 0x8e, 0xff, 0xfe, 0x4a, 0x7b, 0x42 };
	uint8_t gid[16];

	srp_mac_to_ll_gid(mac, gid);
	EXPECT_MEM(gid, want, 16);
}

RDI_TEST_MAIN()
