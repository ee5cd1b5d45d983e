// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * SRP information units (drivers/infiniband/ulp/srp/proto.c) against byte
 * layouts written down from SRP r16a (T10/1415-D rev. 16a) section 6 and
 * the SRP-2 immediate-data additions. Every expected array is annotated with
 * the byte offsets of the spec's tables. Parsers are also fed every length
 * of a heap buffer sized exactly to the bytes "received", so AddressSanitizer
 * catches any read past what a lying target sent.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>

#include "rdi_test.h"
#include "../../drivers/infiniband/ulp/srp/proto.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const u8 lun5[8] = { 0x00, 0x05, 0, 0, 0, 0, 0, 0 };

static void fill_login_params(struct srp_login_params *p, u16 io_class)
{
	memset(p, 0, sizeof(*p));
	p->tag = 0x0102030405060708ULL;
	p->it_iu_len = 8260;
	p->buf_fmt = SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT;
	p->imm_data = true;
	srp_fill_port_ids(p, io_class, 0x1122334455667788ULL,
			  0x99aabbccddeeff00ULL, 0xa1a2a3a4a5a6a7a8ULL,
			  0xb1b2b3b4b5b6b7b8ULL);
}

RDI_TEST(layout_offsets)
{
	EXPECT_EQ(offsetof(struct srp_iu_login_req, req_it_iu_len), 16);
	EXPECT_EQ(offsetof(struct srp_iu_login_req, req_buf_fmt), 24);
	EXPECT_EQ(offsetof(struct srp_iu_login_req, req_flags), 26);
	EXPECT_EQ(offsetof(struct srp_iu_login_req, imm_data_offset), 28);
	EXPECT_EQ(offsetof(struct srp_iu_login_req, target_port_id), 48);
	EXPECT_EQ(offsetof(struct srp_iu_login_rsp, max_ti_iu_len), 20);
	EXPECT_EQ(offsetof(struct srp_iu_login_rsp, rsp_flags), 26);
	EXPECT_EQ(offsetof(struct srp_iu_login_rej, buf_fmt), 24);
	EXPECT_EQ(offsetof(struct srp_iu_tsk_mgmt, lun), 20);
	EXPECT_EQ(offsetof(struct srp_iu_tsk_mgmt, function), 30);
	EXPECT_EQ(offsetof(struct srp_iu_tsk_mgmt, task_tag), 32);
	EXPECT_EQ(offsetof(struct srp_iu_cmd, buf_fmt), 5);
	EXPECT_EQ(offsetof(struct srp_iu_cmd, lun), 20);
	EXPECT_EQ(offsetof(struct srp_iu_cmd, task_attr), 29);
	EXPECT_EQ(offsetof(struct srp_iu_cmd, add_cdb_len), 31);
	EXPECT_EQ(offsetof(struct srp_iu_cmd, cdb), 32);
	EXPECT_EQ(offsetof(struct srp_iu_rsp, flags), 18);
	EXPECT_EQ(offsetof(struct srp_iu_rsp, status), 19);
	EXPECT_EQ(offsetof(struct srp_iu_rsp, sense_data_len), 28);
	EXPECT_EQ(offsetof(struct srp_iu_rsp, data), 36);
	EXPECT_EQ(offsetof(struct srp_iu_aer_req, lun), 20);
	EXPECT_EQ(offsetof(struct srp_iu_aer_req, sense_data_len), 28);
	EXPECT_EQ(offsetof(struct srp_iu_aer_req, sense_data), 36);
	EXPECT_EQ(offsetof(struct srp_indirect_desc, list), 20);
	EXPECT_EQ(SRP_IMM_DATA_OFFSET, 68);
}

RDI_TEST(login_req_r16a)
{
	static const u8 want[64] = {
		0x00, 0, 0, 0, 0, 0, 0, 0,		/*  0 type, rsvd */
		1, 2, 3, 4, 5, 6, 7, 8,			/*  8 tag */
		0x00, 0x00, 0x20, 0x44,			/* 16 req IT IU len */
		0, 0, 0, 0,				/* 20 rsvd */
		0x00, 0x06,				/* 24 buf fmt: dir|ind */
		0x80,					/* 26 IMMED | SINGLE */
		0,					/* 27 rsvd */
		0x00, 68,				/* 28 imm data offset */
		0, 0,					/* 30 rsvd */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, /* 32 ext */
		0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, /* 40 GUID */
		0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, /* 48 id_ext */
		0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, /* 56 IOC */
	};
	struct srp_login_params p;
	struct srp_iu_login_req req;

	fill_login_params(&p, SRP_IO_CLASS_R16A);
	memset(&req, 0xa5, sizeof(req));
	srp_build_login_req(&req, &p);
	EXPECT_EQ(sizeof(req), sizeof(want));
	EXPECT_MEM(&req, want, sizeof(want));
}

RDI_TEST(login_req_r10_multichan_no_imm)
{
	static const u8 want_ids[32] = {
		0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, /* 32 GUID */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, /* 40 ext */
		0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, /* 48 IOC */
		0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, /* 56 id_ext */
	};
	struct srp_login_params p;
	struct srp_iu_login_req req;
	const u8 *b = (const u8 *)&req;

	fill_login_params(&p, SRP_IO_CLASS_R10);
	p.multichan = true;
	p.imm_data = false;
	srp_build_login_req(&req, &p);
	EXPECT_EQ(b[26], 0x01);			/* MULTI, no IMMED */
	EXPECT_EQ(b[28], 0);			/* no imm data offset */
	EXPECT_EQ(b[29], 0);
	EXPECT_MEM(b + 32, want_ids, sizeof(want_ids));
}

RDI_TEST(login_req_rdma_cm_layout)
{
	static const u8 want[56] = {
		1, 2, 3, 4, 5, 6, 7, 8,			/*  0 tag */
		0x00, 0x06,				/*  8 buf fmt */
		0x81,					/* 10 IMMED | MULTI */
		0x00,					/* 11 type LOGIN_REQ */
		0x00, 0x00, 0x20, 0x44,			/* 12 req IT IU len */
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, /* 16 */
		0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00,
		0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, /* 32 */
		0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8,
		0x00, 68,				/* 48 imm data offset */
		0, 0, 0, 0, 0, 0,			/* 50 rsvd */
	};
	struct srp_login_params p;
	struct srp_iu_login_req_rdma req;

	fill_login_params(&p, SRP_IO_CLASS_R16A);
	p.multichan = true;
	memset(&req, 0xa5, sizeof(req));
	srp_build_login_req_rdma(&req, &p);
	EXPECT_EQ(sizeof(req), sizeof(want));
	EXPECT_MEM(&req, want, sizeof(want));
}

RDI_TEST(it_iu_len)
{
	EXPECT_EQ(srp_it_iu_len(12, false, 8192, 0), 48 + 20 + 12 * 16);
	EXPECT_EQ(srp_it_iu_len(12, true, 8192, 0), 68 + 8192);
	EXPECT_EQ(srp_it_iu_len(255, true, 1024, 0), 48 + 20 + 255 * 16);
	EXPECT_EQ(srp_it_iu_len(12, true, 8192, 4096), 4096);
	EXPECT_EQ(srp_it_iu_len(1, true, UINT32_MAX, 0), UINT32_MAX);
	EXPECT_EQ(srp_it_iu_len_fallback(12), 260);
	EXPECT_EQ(srp_it_iu_len_fallback(255), 4148);
	EXPECT_EQ(srp_it_iu_len_fallback(100000), 4148);
}

/* SRP_LOGIN_RSP: 64 credits, IT 8260, TI 4096, dir|ind, IMMED|MAINTAINED */
static const u8 login_rsp[52] = {
	0xc0, 0, 0, 0,				/*  0 type, rsvd */
	0x00, 0x00, 0x00, 0x40,			/*  4 req lim delta */
	8, 7, 6, 5, 4, 3, 2, 1,			/*  8 tag */
	0x00, 0x00, 0x20, 0x44,			/* 16 max IT IU len */
	0x00, 0x00, 0x10, 0x00,			/* 20 max TI IU len */
	0x00, 0x06,				/* 24 supported buf fmt */
	0x82,					/* 26 flags */
};

RDI_TEST(login_rsp_parse)
{
	struct srp_login_result r;
	u8 b[52];

	EXPECT_EQ(srp_parse_login_rsp(login_rsp, sizeof(login_rsp), &r), 0);
	EXPECT_EQ(r.tag, 0x0807060504030201ULL);
	EXPECT_EQ(r.req_lim, 64);
	EXPECT_EQ(r.max_it_iu_len, 8260);
	EXPECT_EQ(r.max_ti_iu_len, 4096);
	EXPECT_EQ(r.buf_fmt, SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT);
	EXPECT_EQ(r.multichan, SRP_LOGIN_RSP_MULTICHAN_MAINTAINED);
	EXPECT(r.imm_data);

	EXPECT_EQ(srp_parse_login_rsp(login_rsp, 51, &r), -EPROTO);
	memcpy(b, login_rsp, sizeof(b));
	b[0] = 0xc2;
	EXPECT_EQ(srp_parse_login_rsp(b, sizeof(b), &r), -EPROTO);
	memcpy(b, login_rsp, sizeof(b));
	b[7] = 0;				/* no credits */
	EXPECT_EQ(srp_parse_login_rsp(b, sizeof(b), &r), -EPROTO);
	b[4] = 0x80;				/* 2^31 credits */
	EXPECT_EQ(srp_parse_login_rsp(b, sizeof(b), &r), -EPROTO);
	memcpy(b, login_rsp, sizeof(b));
	b[22] = 0;
	b[23] = 35;				/* TI IU < SRP_RSP */
	EXPECT_EQ(srp_parse_login_rsp(b, sizeof(b), &r), -EPROTO);
	memcpy(b, login_rsp, sizeof(b));
	b[18] = 0;
	b[19] = 47;				/* IT IU < SRP_CMD */
	EXPECT_EQ(srp_parse_login_rsp(b, sizeof(b), &r), -EPROTO);
	memcpy(b, login_rsp, sizeof(b));
	b[26] = 0x00;
	EXPECT_EQ(srp_parse_login_rsp(b, sizeof(b), &r), 0);
	EXPECT(!r.imm_data);
	EXPECT_EQ(r.multichan, SRP_LOGIN_RSP_MULTICHAN_NONE);
}

static void login_result(struct srp_login_result *r, u32 it, u32 ti, u16 fmt)
{
	memset(r, 0, sizeof(*r));
	r->req_lim = 32;
	r->max_it_iu_len = it;
	r->max_ti_iu_len = ti;
	r->buf_fmt = fmt;
}

RDI_TEST(cmd_iu_len)
{
	/* one direct descriptor: 48 + 16 */
	EXPECT_EQ(srp_cmd_iu_len(1, 1, SRP_BUF_FMT_DIRECT), 64);
	EXPECT_EQ(srp_cmd_iu_len(1, 1, SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT),
		  64);
	/* indirect only: 48 + 20 + 16 even for one descriptor */
	EXPECT_EQ(srp_cmd_iu_len(1, 1, SRP_BUF_FMT_INDIRECT), 84);
	EXPECT_EQ(srp_cmd_iu_len(12, 12, SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT),
		  260);
	EXPECT_EQ(srp_cmd_iu_len(255, 255, SRP_BUF_FMT_INDIRECT), 4148);
	/* one in the IU, the rest in an external table: indirect */
	EXPECT_EQ(srp_cmd_iu_len(1, 2, SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT),
		  84);
}

RDI_TEST(login_rsp_check)
{
	const u16 both = SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT;
	struct srp_login_result r;

	login_result(&r, 8260, 4096, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_OK);

	/* rsp-ti-huge: nothing is allocated from 0x7fffffff */
	login_result(&r, 8260, 0x7fffffff, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_TI_TOO_LARGE);
	login_result(&r, 8260, SRP_MAX_TI_IU_LEN, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_OK);
	login_result(&r, 8260, SRP_MAX_TI_IU_LEN + 1, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_TI_TOO_LARGE);
	/* a target mirroring a large requested IT IU length is fine */
	login_result(&r, 200000, 200000, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 200000), SRP_LOGIN_OK);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 100000), SRP_LOGIN_TI_TOO_LARGE);

	/* rsp-buffmt0, and reserved bits alone count as nothing */
	login_result(&r, 8260, 4096, 0);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_NO_DESC_FMT);
	login_result(&r, 8260, 4096, 0xfff9);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_NO_DESC_FMT);

	/* direct only: usable when every command has one descriptor */
	login_result(&r, 8260, 4096, SRP_BUF_FMT_DIRECT);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_DIRECT_ONLY);
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 1, 8260), SRP_LOGIN_OK);
	/* one descriptor in the IU, but an external table behind it */
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 64, 8260), SRP_LOGIN_DIRECT_ONLY);
	/* room for 12 in the IU, but every command maps into one MR */
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 1, 8260), SRP_LOGIN_OK);
	/* indirect only: always usable if the table fits */
	login_result(&r, 8260, 4096, SRP_BUF_FMT_INDIRECT);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_OK);
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 1, 8260), SRP_LOGIN_OK);

	/* rsp-it-small: an SRP_CMD fits, its descriptor does not */
	login_result(&r, 52, 256, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 1, 8260), SRP_LOGIN_IT_TOO_SMALL);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_IT_TOO_SMALL);
	login_result(&r, 64, 256, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 1, 8260), SRP_LOGIN_OK);
	EXPECT_EQ(srp_check_login_rsp(&r, 2, 2, 8260), SRP_LOGIN_IT_TOO_SMALL);
	login_result(&r, 83, 256, SRP_BUF_FMT_INDIRECT);
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 1, 8260), SRP_LOGIN_IT_TOO_SMALL);
	login_result(&r, 259, 256, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_IT_TOO_SMALL);
	login_result(&r, 260, 256, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 8260), SRP_LOGIN_OK);
	/* our own request (max_it_iu_size=200) is too small for 12 */
	login_result(&r, 8260, 256, both);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 200), SRP_LOGIN_IT_TOO_SMALL);
	EXPECT_EQ(srp_check_login_rsp(&r, 12, 12, 260), SRP_LOGIN_OK);
	/*
	 * cmd_sg_entries=1 with an external table (issue 16, finding 4): a
	 * command of several descriptors is indirect, 48 + 20 + 16 bytes,
	 * so max_it_iu_size=64..83 must not pass for one direct descriptor.
	 */
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 4, 64), SRP_LOGIN_IT_TOO_SMALL);
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 4, 83), SRP_LOGIN_IT_TOO_SMALL);
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 4, 84), SRP_LOGIN_OK);
	EXPECT_EQ(srp_check_login_rsp(&r, 1, 1, 64), SRP_LOGIN_OK);
}

/*
 * Issue 16, finding 5: sizes beyond the device are refused, never wrap.
 * Issue 19: each queue of the QP, and its CQ, has room for the work
 * request ib_drain_qp() posts.
 */
RDI_TEST(rc_give_up_time)
{
	/* 0: no timeout (IBTA), nothing to bound */
	EXPECT_EQ(srp_rc_give_up_ms(0, 7), 0);
	/* 4.096 us * 2^14 = 67.1 ms, * 4, * 8 sends: 2147.5 ms, rounded up */
	EXPECT_EQ(srp_rc_give_up_ms(14, 7), 2148);
	/* one send, no retry: 4 * 4.096 us * 2 = 32.8 us, rounded up */
	EXPECT_EQ(srp_rc_give_up_ms(1, 0), 1);
	/* 2^19: 2.15 s per wait, 8.6 s per send, 8 sends: 68.7 s */
	EXPECT_EQ(srp_rc_give_up_ms(19, 7), 68720);
	/* the largest exponent the 5-bit field holds, and past it: no wrap */
	EXPECT_EQ(srp_rc_give_up_ms(31, 7), 281474977);
	EXPECT_EQ(srp_rc_give_up_ms(255, 7), 281474977);
}

RDI_TEST(queue_fits_device)
{
	/*
	 * 64 SENDs; with an MR per command 64 LOCAL_INV of the previous key,
	 * 64 REG_MR, 64 LOCAL_INV; the keep-alive probe, drain
	 */
	EXPECT_EQ(srp_cmd_send_wrs(0), 1);
	EXPECT_EQ(srp_cmd_send_wrs(1), 4);
	EXPECT_EQ(srp_cmd_send_wrs(0xffffffffU), 0x200000000ULL);
	EXPECT_EQ(srp_send_wrs(64, 1), 258);
	EXPECT_EQ(srp_send_wrs(64, 0), 66);
	EXPECT_EQ(srp_send_wrs(0xffffffffU, 4), 0xffffffffULL * 10 + 2);
	/* 64 receives, drain */
	EXPECT_EQ(srp_recv_wrs(64), 65);
	EXPECT_EQ(srp_recv_wrs(0xffffffffU), 0x100000000ULL);
	/* rxe: 16384 work requests per queue, 32767 CQ entries */
	EXPECT_EQ(srp_check_queue(64, 1, 16384, 32767), 0);
	EXPECT_EQ(srp_check_queue(40002, 1, 16384, 32767), -EINVAL);
	EXPECT_EQ(srp_check_queue(0x80000001U, 4, 16384, 32767), -EINVAL);
	/* 4095 * 4 + 1 + 1 = 16382: the last size whose send queue fits */
	EXPECT_EQ(srp_check_queue(4095, 1, 16384, 32767), 0);
	EXPECT_EQ(srp_check_queue(4096, 1, 16384, 32767), -EINVAL);
	/* the CQ can be the tighter limit */
	EXPECT_EQ(srp_check_queue(64, 1, 16384, 257), -EINVAL);
	EXPECT_EQ(srp_check_queue(64, 1, 16384, 258), 0);
	/* no registration: 16382 + 1 + 1 sends, 16382 + 1 receives */
	EXPECT_EQ(srp_check_queue(16382, 0, 16384, 32767), 0);
	EXPECT_EQ(srp_check_queue(16383, 0, 16384, 32767), -EINVAL);
}

RDI_TEST(credit_update)
{
	s32 v = -1;

	EXPECT_EQ(srp_credit_update(31, 1, &v), 0);
	EXPECT_EQ(v, 32);
	EXPECT_EQ(srp_credit_update(31, -31, &v), 0);	/* legal decrease */
	EXPECT_EQ(v, 0);
	EXPECT_EQ(srp_credit_update(0, 0, &v), 0);
	EXPECT_EQ(v, 0);
	/* credit-neg: -1000 on 31 credits */
	EXPECT_EQ(srp_credit_update(31, -1000, &v), -ERANGE);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(srp_credit_update(0, INT_MIN, &v), -ERANGE);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(srp_credit_update(INT_MAX, INT_MIN, &v), -ERANGE);
	EXPECT_EQ(v, 0);
	/* credit-huge: 0x7fffffff on 31 credits saturates, never wraps */
	EXPECT_EQ(srp_credit_update(31, 0x7fffffff, &v), -EOVERFLOW);
	EXPECT_EQ(v, INT_MAX);
	EXPECT_EQ(srp_credit_update(INT_MAX, 1, &v), -EOVERFLOW);
	EXPECT_EQ(v, INT_MAX);
	EXPECT_EQ(srp_credit_update(INT_MAX - 1, 1, &v), 0);
	EXPECT_EQ(v, INT_MAX);
	EXPECT_EQ(srp_credit_update(0, 0x7fffffff, &v), 0);
	EXPECT_EQ(v, INT_MAX);
}

/* never_register / register_always: registration or the global rkey */
RDI_TEST(map_via)
{
	/* defaults: FR, no global rkey, everything registered */
	EXPECT(!srp_wants_global_rkey(false, true));
	EXPECT_EQ(srp_map_via(true, true, false, 1), SRP_MAP_VIA_FR);
	EXPECT_EQ(srp_map_via(true, true, false, 200), SRP_MAP_VIA_FR);
	/* register_always=N: one segment under the global rkey, more registered */
	EXPECT(srp_wants_global_rkey(false, false));
	EXPECT_EQ(srp_map_via(true, false, true, 1), SRP_MAP_VIA_GLOBAL_RKEY);
	EXPECT_EQ(srp_map_via(true, false, true, 2), SRP_MAP_VIA_FR);
	EXPECT_EQ(srp_map_via(true, false, true, 255), SRP_MAP_VIA_FR);
	/* never_register=Y wins over register_always: never FR */
	EXPECT(srp_wants_global_rkey(true, true));
	EXPECT(srp_wants_global_rkey(true, false));
	EXPECT_EQ(srp_map_via(false, true, true, 1), SRP_MAP_VIA_GLOBAL_RKEY);
	EXPECT_EQ(srp_map_via(false, true, true, 12), SRP_MAP_VIA_GLOBAL_RKEY);
	EXPECT_EQ(srp_map_via(false, false, true, 12), SRP_MAP_VIA_GLOBAL_RKEY);
	/* register_always=N without a global rkey still registers */
	EXPECT_EQ(srp_map_via(true, false, false, 1), SRP_MAP_VIA_FR);
	/* neither: refused */
	EXPECT_EQ(srp_map_via(false, true, false, 1), SRP_MAP_VIA_NONE);
	EXPECT_EQ(srp_map_via(false, false, false, 3), SRP_MAP_VIA_NONE);
}

RDI_TEST(login_rej_parse)
{
	static const u8 rej[32] = {
		0xc2, 0, 0, 0,			/*  0 type, rsvd */
		0x00, 0x01, 0x00, 0x02,		/*  4 reason: IT IU too large */
		1, 1, 2, 2, 3, 3, 4, 4,		/*  8 tag */
		0, 0, 0, 0, 0, 0, 0, 0,		/* 16 rsvd */
		0x00, 0x02,			/* 24 buf fmt: direct */
		0, 0, 0, 0, 0, 0,		/* 26 rsvd */
	};
	struct srp_login_rej_info i;
	u8 b[32];

	EXPECT_EQ(srp_parse_login_rej(rej, sizeof(rej), &i), 0);
	EXPECT_EQ(i.reason, SRP_REJ_IT_IU_LEN_TOO_LARGE);
	EXPECT(i.it_iu_too_large);
	EXPECT(strstr(i.text, "IU length too large"));
	EXPECT_EQ(i.tag, 0x0101020203030404ULL);
	EXPECT_EQ(i.buf_fmt, SRP_BUF_FMT_DIRECT);

	/* a truncated reject still yields its reason */
	EXPECT_EQ(srp_parse_login_rej(rej, 8, &i), 0);
	EXPECT_EQ(i.reason, SRP_REJ_IT_IU_LEN_TOO_LARGE);
	EXPECT_EQ(i.tag, 0);
	EXPECT_EQ(i.buf_fmt, 0);
	EXPECT_EQ(srp_parse_login_rej(rej, 7, &i), -EPROTO);
	memcpy(b, rej, sizeof(b));
	b[0] = 0xc0;
	EXPECT_EQ(srp_parse_login_rej(b, sizeof(b), &i), -EPROTO);

	memcpy(b, rej, sizeof(b));
	b[7] = 0x01;
	EXPECT_EQ(srp_parse_login_rej(b, sizeof(b), &i), 0);
	EXPECT(!i.it_iu_too_large);
	EXPECT(strstr(i.text, "resources"));
	b[7] = 0x06;
	EXPECT_EQ(srp_parse_login_rej(b, sizeof(b), &i), 0);
	EXPECT(strstr(i.text, "channels"));
	EXPECT(!strcmp(srp_login_rej_text(0x12345678), "unknown reason"));
}

RDI_TEST(cmd_16_byte_cdb)
{
	static const u8 cdb[16] = { 0x88, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34,
				    0, 0, 0, 8, 0, 0 };
	static const u8 want[48] = {
		0x02, 0, 0, 0, 0,		/*  0 type, sol_not, rsvd */
		0x02,				/*  5 out: none, in: indirect */
		0,				/*  6 data-out desc count */
		3,				/*  7 data-in desc count */
		0, 0, 0, 0, 0, 0, 0x01, 0x2a,	/*  8 tag */
		0, 0, 0, 0,			/* 16 rsvd */
		0x00, 0x05, 0, 0, 0, 0, 0, 0,	/* 20 LUN */
		0,				/* 28 rsvd */
		2,				/* 29 task attr ORDERED */
		0,				/* 30 rsvd */
		0,				/* 31 add CDB len */
		0x88, 0, 0, 0, 0, 0, 0, 0, 0x12, 0x34, 0, 0, 0, 8, 0, 0,
	};
	struct srp_cmd_params p = {
		.tag = 0x12a, .cdb = cdb, .cdb_len = 16,
		.task_attr = SRP_TASK_ORDERED,
		.data_in_fmt = SRP_DESC_INDIRECT, .data_in_desc_cnt = 3,
	};
	u8 iu[64];

	memcpy(p.lun, lun5, 8);
	memset(iu, 0xa5, sizeof(iu));
	EXPECT_EQ(srp_build_cmd(iu, sizeof(iu), &p), 48);
	EXPECT_MEM(iu, want, sizeof(want));
	EXPECT_EQ(iu[48], 0xa5);		/* descriptors untouched */
}

RDI_TEST(cmd_short_and_long_cdb)
{
	static const u8 cdb6[6] = { 0x12, 0, 0, 0, 36, 0 };
	u8 cdb32[32], iu[128];
	struct srp_cmd_params p = { .tag = 1, .cdb = cdb6, .cdb_len = 6,
				    .data_out_fmt = SRP_DESC_IMM,
				    .data_out_desc_cnt = 1 };
	int i;

	memset(iu, 0xa5, sizeof(iu));
	EXPECT_EQ(srp_build_cmd(iu, 48, &p), 48);
	EXPECT_EQ(iu[5], 0x30);			/* out: immediate */
	EXPECT_EQ(iu[6], 1);
	EXPECT_MEM(iu + 32, cdb6, 6);
	for (i = 38; i < 48; i++)
		EXPECT_EQ(iu[i], 0);		/* CDB padded with zeros */

	for (i = 0; i < 32; i++)
		cdb32[i] = i + 1;
	p.cdb = cdb32;
	p.cdb_len = 32;
	memset(iu, 0xa5, sizeof(iu));
	EXPECT_EQ(srp_build_cmd(iu, sizeof(iu), &p), 64);
	EXPECT_EQ(iu[31], 16);			/* 4 dwords in bits 7:2 */
	EXPECT_MEM(iu + 32, cdb32, 32);

	p.cdb_len = 17;				/* padded to one dword */
	memset(iu, 0xa5, sizeof(iu));
	EXPECT_EQ(srp_build_cmd(iu, sizeof(iu), &p), 52);
	EXPECT_EQ(iu[31], 4);
	EXPECT_EQ(iu[48], 17);
	EXPECT_EQ(iu[49], 0);
	EXPECT_EQ(iu[51], 0);
	EXPECT_EQ(iu[52], 0xa5);

	EXPECT_EQ(srp_build_cmd(iu, 51, &p), -EINVAL);	/* no room */
	p.cdb_len = 0;
	EXPECT_EQ(srp_build_cmd(iu, sizeof(iu), &p), -EINVAL);
	p.cdb_len = 16 + 253;
	EXPECT_EQ(srp_build_cmd(iu, sizeof(iu), &p), -EINVAL);
	p.cdb_len = 16;
	p.data_in_fmt = 4;
	EXPECT_EQ(srp_build_cmd(iu, sizeof(iu), &p), -EINVAL);
	p.data_in_fmt = 0;
	p.task_attr = 8;
	EXPECT_EQ(srp_build_cmd(iu, sizeof(iu), &p), -EINVAL);
}

RDI_TEST(descriptors)
{
	static const u8 want_dir[16] = {
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* 0 VA */
		0xde, 0xad, 0xbe, 0xef,				/* 8 key */
		0x00, 0x01, 0x00, 0x00,				/* 12 len */
	};
	static const u8 want_ind[20] = {
		0, 0, 0, 0, 0x10, 0, 0, 0,	/*  0 table VA */
		0, 0, 0x12, 0x34,		/*  8 table key */
		0, 0, 0, 0x30,			/* 12 table len: 3 * 16 */
		0, 0x03, 0, 0,			/* 16 total data len */
	};
	static const u8 want_imm[4] = { 0, 0, 0x20, 0 };
	struct srp_direct_desc d;
	union {
		struct srp_indirect_desc ind;
		u8 b[20];
	} u;
	struct srp_imm_desc imm;

	srp_set_direct(&d, 0x1122334455667788ULL, 0xdeadbeef, 65536);
	EXPECT_MEM(&d, want_dir, 16);
	srp_set_indirect(&u.ind, 0x10000000, 0x1234, 3, 0x30000);
	EXPECT_MEM(u.b, want_ind, 20);
	srp_set_imm(&imm, 8192);
	EXPECT_MEM(&imm, want_imm, 4);
}

/*
 * SRP r16a 5.5.2 and 6.8: an SRP_CMD whose data-in buffer needs 5 direct
 * descriptors with room for 2 in the IU. The indirect descriptor at byte 48
 * names the whole 80-byte table in initiator memory, the IU carries its
 * first 2 entries (a partial table) and DATA-IN DESCRIPTOR COUNT (byte 7)
 * says 2.
 */
RDI_TEST(indirect_external_table)
{
	static const u8 want[48 + 20 + 2 * 16] = {
		[0] = 0x02,				/*  0 SRP_CMD */
		[5] = 0x02,				/*  5 data-in fmt indirect */
		[6] = 0x00, [7] = 0x02,			/*  6 out cnt, 7 in cnt */
		[48] = 0, 0, 0, 0, 0xaa, 0xbb, 0xc0, 0x00,	/* 48 table VA */
		[56] = 0, 0, 0x43, 0x21,		/* 56 table R_Key */
		[60] = 0, 0, 0, 0x50,			/* 60 table len: 5 * 16 */
		[64] = 0, 0, 0x50, 0,			/* 64 total: 5 * 4096 */
		[68] = 0, 0, 0, 0, 0, 0x10, 0, 0,	/* 68 desc 0 VA */
		[76] = 0, 0, 0, 0x07,			/* 76 desc 0 key */
		[80] = 0, 0, 0x10, 0,			/* 80 desc 0 len */
		[84] = 0, 0, 0, 0, 0, 0x11, 0, 0,	/* 84 desc 1 VA */
		[92] = 0, 0, 0, 0x07,			/* 92 desc 1 key */
		[96] = 0, 0, 0x10, 0,			/* 96 desc 1 len */
	};
	struct srp_direct_desc table[5];
	u8 iu[sizeof(want) + 16];
	struct srp_iu_cmd *cmd = (struct srp_iu_cmd *)iu;
	struct srp_indirect_desc *ind = (void *)(iu + 48);
	unsigned int i;

	memset(iu, 0xee, sizeof(iu));
	memset(iu, 0, 48);
	cmd->opcode = SRP_IU_CMD;
	cmd->buf_fmt = SRP_DESC_INDIRECT;
	for (i = 0; i < 5; i++)
		srp_set_direct(&table[i], 0x100000 + i * 0x10000, 7, 4096);
	cmd->data_in_desc_cnt = srp_build_indirect(ind, table, 5, 2,
						   0xaabbc000, 0x4321, 5 * 4096);
	EXPECT_EQ(cmd->data_in_desc_cnt, 2);
	EXPECT_MEM(iu, want, sizeof(want));
	/* nothing written past the partial table */
	for (i = sizeof(want); i < sizeof(iu); i++)
		EXPECT_EQ(iu[i], 0xee);
}

/* All descriptors in the IU: the table descriptor points at the IU's copy. */
RDI_TEST(indirect_table_in_iu)
{
	static const u8 want[20 + 2 * 16] = {
		0, 0, 0, 0, 0x12, 0x34, 0x50, 0x14,	/*  0 table VA: IU + 20 */
		0, 0, 0, 0,				/*  8 no key needed */
		0, 0, 0, 0x20,				/* 12 table len: 2 * 16 */
		0, 0, 0x30, 0,				/* 16 total */
		0, 0, 0, 0, 0, 0, 0x20, 0,		/* 20 desc 0 */
		0, 0, 0, 0x09, 0, 0, 0x20, 0,
		0, 0, 0, 0, 0, 0, 0x40, 0,		/* 36 desc 1 */
		0, 0, 0, 0x09, 0, 0, 0x10, 0,
	};
	struct srp_direct_desc table[2];
	union {
		struct srp_indirect_desc ind;
		u8 b[sizeof(want)];
	} u;

	memset(&u, 0xee, sizeof(u));
	srp_set_direct(&table[0], 0x2000, 9, 0x2000);
	srp_set_direct(&table[1], 0x4000, 9, 0x1000);
	EXPECT_EQ(srp_build_indirect(&u.ind, table, 2, 12, 0x12345014, 0,
				     0x3000), 2);
	EXPECT_MEM(u.b, want, sizeof(want));
}

/* SRP_RSP with 4 bytes response data and 18 bytes sense */
static const u8 rsp_good[36 + 4 + 18] = {
	0xc1, 0, 0, 0,				/*  0 type, sol_not, rsvd */
	0x00, 0x00, 0x00, 0x02,			/*  4 req lim delta */
	0, 0, 0, 0, 0, 0, 0x01, 0x2a,		/*  8 tag */
	0, 0,					/* 16 rsvd */
	0x23,					/* 18 DIUNDER|SNS|RSP */
	0x02,					/* 19 CHECK CONDITION */
	0, 0, 0, 0,				/* 20 data-out residual */
	0, 0, 0x02, 0x00,			/* 24 data-in residual */
	0, 0, 0, 18,				/* 28 sense len */
	0, 0, 0, 4,				/* 32 response len */
	0, 0, 0, 0x05,				/* 36 response data */
	0x70, 0, 0x06, 0, 0, 0, 0, 10,		/* 40 sense */
	0, 0, 0, 0, 0x29, 0, 0, 0, 0, 0,
};

RDI_TEST(rsp_parse)
{
	struct srp_rsp_info i;

	EXPECT_EQ(srp_parse_rsp(rsp_good, sizeof(rsp_good), &i), 0);
	EXPECT_EQ(i.tag, 0x12a);
	EXPECT_EQ(i.req_lim_delta, 2);
	EXPECT_EQ(i.status, 0x02);
	EXPECT_EQ(i.data_in_resid, 512);
	EXPECT_EQ(i.data_out_resid, 0);
	EXPECT(i.resp_data == rsp_good + 36);
	EXPECT_EQ(i.resp_data_len, 4);
	EXPECT(i.sense == rsp_good + 40);
	EXPECT_EQ(i.sense_len, 18);
	EXPECT_EQ(i.sense[12], 0x29);
	EXPECT_EQ(srp_rsp_tmf_code(&i), SRP_TMF_RSP_FAILED);
}

RDI_TEST(rsp_flags_and_residuals)
{
	struct srp_rsp_info i;
	u8 b[36];

	memcpy(b, rsp_good, 36);
	b[18] = SRP_RSP_DOOVER | SRP_RSP_DIOVER;
	b[23] = 0x10;
	memset(b + 4, 0xff, 4);
	EXPECT_EQ(srp_parse_rsp(b, 36, &i), 0);
	EXPECT_EQ(i.data_out_resid, -16);
	EXPECT_EQ(i.data_in_resid, -512);
	EXPECT_EQ(i.req_lim_delta, -1);
	/* lengths of data that is not flagged valid are ignored */
	EXPECT(!i.sense);
	EXPECT(!i.resp_data);
	EXPECT_EQ(srp_rsp_tmf_code(&i), -EPROTO);

	b[18] = SRP_RSP_DOOVER | SRP_RSP_DOUNDER;
	EXPECT_EQ(srp_parse_rsp(b, 36, &i), -EPROTO);
	b[18] = SRP_RSP_DIOVER | SRP_RSP_DIUNDER;
	EXPECT_EQ(srp_parse_rsp(b, 36, &i), -EPROTO);
}

RDI_TEST(rsp_lying_lengths)
{
	struct srp_rsp_info i;
	u8 b[sizeof(rsp_good)];

	/* sense one byte longer than received */
	memcpy(b, rsp_good, sizeof(b));
	b[31] = 19;
	EXPECT_EQ(srp_parse_rsp(b, sizeof(b), &i), -EPROTO);
	/* 2^31 + 2^31 must not wrap to 0 */
	memcpy(b, rsp_good, sizeof(b));
	b[28] = 0x80;
	b[31] = 0;
	b[32] = 0x80;
	b[35] = 0;
	EXPECT_EQ(srp_parse_rsp(b, sizeof(b), &i), -EPROTO);
	memcpy(b, rsp_good, sizeof(b));
	memset(b + 28, 0xff, 4);
	EXPECT_EQ(srp_parse_rsp(b, sizeof(b), &i), -EPROTO);
	memcpy(b, rsp_good, sizeof(b));
	memset(b + 32, 0xff, 4);
	EXPECT_EQ(srp_parse_rsp(b, sizeof(b), &i), -EPROTO);
	/* short IU, wrong type */
	EXPECT_EQ(srp_parse_rsp(rsp_good, 35, &i), -EPROTO);
	memcpy(b, rsp_good, sizeof(b));
	b[0] = SRP_IU_CRED_REQ;
	EXPECT_EQ(srp_parse_rsp(b, sizeof(b), &i), -EPROTO);
}

RDI_TEST(tsk_mgmt_and_logout_build)
{
	static const u8 want_tmf[48] = {
		0x01, 0, 0, 0, 0, 0, 0, 0,	/*  0 type, sol_not, rsvd */
		0, 0, 0, 0, 0, 0, 0x10, 0x01,	/*  8 tag */
		0, 0, 0, 0,			/* 16 rsvd */
		0x00, 0x05, 0, 0, 0, 0, 0, 0,	/* 20 LUN */
		0, 0,				/* 28 rsvd */
		0x01,				/* 30 ABORT TASK */
		0,				/* 31 rsvd */
		0, 0, 0, 0, 0, 0, 0x01, 0x2a,	/* 32 task tag */
		0, 0, 0, 0, 0, 0, 0, 0,		/* 40 rsvd */
	};
	static const u8 want_lo[16] = {
		0x03, 0, 0, 0, 0, 0, 0, 0,	/*  0 type, rsvd */
		0, 0, 0, 0, 0, 0, 0, 9,		/*  8 tag */
	};
	struct srp_iu_tsk_mgmt tmf;
	struct srp_iu_i_logout lo;

	memset(&tmf, 0xa5, sizeof(tmf));
	srp_build_tsk_mgmt(&tmf, 0x1001, lun5, SRP_TMF_ABORT_TASK, 0x12a);
	EXPECT_MEM(&tmf, want_tmf, 48);
	memset(&lo, 0xa5, sizeof(lo));
	srp_build_i_logout(&lo, 9);
	EXPECT_MEM(&lo, want_lo, 16);
}

RDI_TEST(cred_req_and_rsp)
{
	static const u8 req[16] = {
		0x81, 0, 0, 0,			/*  0 type, sol_not, rsvd */
		0, 0, 0, 5,			/*  4 req lim delta */
		0xf0, 0xe0, 0xd0, 0xc0, 0xb0, 0xa0, 0x90, 0x80, /* 8 tag */
	};
	static const u8 want[16] = {
		0x41, 0, 0, 0, 0, 0, 0, 0,	/*  0 type, rsvd */
		0xf0, 0xe0, 0xd0, 0xc0, 0xb0, 0xa0, 0x90, 0x80, /* 8 tag */
	};
	struct srp_iu_cred_rsp rsp;
	u64 tag;
	s32 delta;

	EXPECT_EQ(srp_parse_cred_req(req, sizeof(req), &tag, &delta), 0);
	EXPECT_EQ(delta, 5);
	memset(&rsp, 0xa5, sizeof(rsp));
	srp_build_cred_rsp(&rsp, tag);		/* tag echoed byte for byte */
	EXPECT_MEM(&rsp, want, 16);
	EXPECT_EQ(srp_parse_cred_req(req, 15, &tag, &delta), -EPROTO);
	EXPECT_EQ(srp_parse_cred_req(want, 16, &tag, &delta), -EPROTO);
}

RDI_TEST(aer_req_and_rsp)
{
	static const u8 req[36 + 18] = {
		0x82, 0, 0, 0,			/*  0 type, sol_not, rsvd */
		0, 0, 0, 1,			/*  4 req lim delta */
		0, 0, 0, 0, 0, 0, 0xaa, 0xbb,	/*  8 tag */
		0, 0, 0, 0,			/* 16 rsvd */
		0x00, 0x05, 0, 0, 0, 0, 0, 0,	/* 20 LUN */
		0, 0, 0, 18,			/* 28 sense len */
		0, 0, 0, 0,			/* 32 rsvd */
		0x70, 0, 0x06, 0, 0, 0, 0, 10,	/* 36 sense: UNIT ATTENTION */
		0, 0, 0, 0, 0x3f, 0x0e, 0, 0, 0, 0,
	};
	static const u8 want[16] = {
		0x42, 0, 0, 0, 0, 0, 0, 0,	/*  0 type, rsvd */
		0, 0, 0, 0, 0, 0, 0xaa, 0xbb,	/*  8 tag */
	};
	struct srp_aer_info i;
	struct srp_iu_cred_rsp rsp;
	u8 b[sizeof(req)];

	EXPECT_EQ(srp_parse_aer_req(req, sizeof(req), &i), 0);
	EXPECT_EQ(i.req_lim_delta, 1);
	EXPECT_MEM(i.lun, lun5, 8);
	EXPECT(i.sense == req + 36);
	EXPECT_EQ(i.sense_len, 18);
	EXPECT_EQ(i.sense[2], 0x06);
	memset(&rsp, 0xa5, sizeof(rsp));
	srp_build_aer_rsp(&rsp, i.tag);
	EXPECT_MEM(&rsp, want, 16);

	/* malformed but answerable: tag and credits decoded, no event */
	EXPECT_EQ(srp_parse_aer_req(req, sizeof(req) - 1, &i), -EBADMSG);
	EXPECT_EQ(i.tag, 0xaabb);
	EXPECT_EQ(i.req_lim_delta, 1);
	EXPECT_MEM(i.lun, lun5, 8);
	EXPECT(!i.sense);
	EXPECT_EQ(i.sense_len, 0);
	EXPECT_EQ(i.sense_len_field, 18);
	EXPECT_EQ(srp_parse_aer_req(req, 35, &i), -EBADMSG);
	EXPECT_EQ(i.tag, 0xaabb);
	EXPECT_MEM(i.lun, lun5, 8);
	EXPECT(!i.sense);
	EXPECT_EQ(srp_parse_aer_req(req, 20, &i), -EBADMSG);
	EXPECT_EQ(i.tag, 0xaabb);
	EXPECT_MEM(i.lun, "\0\0\0\0\0\0\0\0", 8);	/* LUN not received */
	memcpy(b, req, sizeof(b));
	memset(b + 28, 0xff, 4);		/* the fake target's aer-bad */
	EXPECT_EQ(srp_parse_aer_req(b, sizeof(b), &i), -EBADMSG);
	EXPECT_EQ(i.tag, 0xaabb);
	EXPECT(!i.sense);
	EXPECT_EQ(i.sense_len_field, 0xffffffff);
	/* no tag: nothing to answer */
	EXPECT_EQ(srp_parse_aer_req(req, 15, &i), -EPROTO);
	EXPECT_EQ(srp_parse_aer_req(want, 16, &i), -EPROTO);
	memcpy(b, req, sizeof(b));
	b[31] = 0;				/* no sense is fine */
	EXPECT_EQ(srp_parse_aer_req(b, 36, &i), 0);
	EXPECT_EQ(i.sense_len, 0);
}

RDI_TEST(t_logout_parse)
{
	static const u8 lo[16] = {
		0x80, 0, 0, 0,			/*  0 type, sol_not, rsvd */
		0, 0, 0, 0x04,			/*  4 reason */
		0, 0, 0, 0, 0, 0, 0, 7,		/*  8 tag */
	};
	u64 tag;
	u32 reason;

	EXPECT_EQ(srp_parse_t_logout(lo, sizeof(lo), &tag, &reason), 0);
	EXPECT_EQ(tag, 7);
	EXPECT_EQ(reason, SRP_TLO_MULTICHAN_ACTION);
	EXPECT(strstr(srp_t_logout_text(reason), "multichannel"));
	EXPECT(!strcmp(srp_t_logout_text(5), "unknown reason"));
	EXPECT(strstr(srp_t_logout_text(SRP_TLO_INVALID_DIN_CNT), "data-in"));
	EXPECT_EQ(srp_parse_t_logout(lo, 15, &tag, &reason), -EPROTO);
	EXPECT_EQ(srp_iu_opcode(lo, 0), -EPROTO);
	EXPECT_EQ(srp_iu_opcode(lo, 1), SRP_IU_T_LOGOUT);
}

/* xorshift32: reproducible garbage */
static u32 rnd(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

RDI_TEST(parsers_never_read_past_received_bytes)
{
	static const u8 types[] = { SRP_IU_LOGIN_RSP, SRP_IU_LOGIN_REJ,
				    SRP_IU_RSP, SRP_IU_CRED_REQ,
				    SRP_IU_AER_REQ, SRP_IU_T_LOGOUT };
	u32 seed = 0x5eed;
	size_t len, t;
	int round;

	for (round = 0; round < 200; round++) {
		for (t = 0; t < ARRAY_SIZE(types); t++) {
			for (len = 0; len <= 96; len++) {
				u8 *b = malloc(len ? len : 1);
				struct srp_login_result lr;
				struct srp_login_rej_info lj;
				struct srp_rsp_info ri;
				struct srp_aer_info ai;
				size_t k;
				u64 tag;
				u32 reason;
				s32 delta;

				for (k = 0; k < len; k++)
					b[k] = rnd(&seed) % 4 ? rnd(&seed) : 0;
				if (len)
					b[0] = types[t];
				/* plausible lengths: near the received size */
				if (len > 35 && round % 2) {
					memset(b + 28, 0, 8);
					b[31] = len - 36 + round % 3;
					b[35] = round % 5;
				}
				srp_parse_login_rsp(b, len, &lr);
				srp_parse_login_rej(b, len, &lj);
				if (!srp_parse_rsp(b, len, &ri)) {
					if (ri.sense)
						EXPECT(ri.sense + ri.sense_len <= b + len);
					if (ri.resp_data)
						EXPECT(ri.resp_data + ri.resp_data_len <= b + len);
				}
				switch (srp_parse_aer_req(b, len, &ai)) {
				case 0:
					EXPECT(ai.sense + ai.sense_len <= b + len);
					break;
				case -EBADMSG:
					EXPECT(!ai.sense && !ai.sense_len);
					break;
				default:
					break;
				}
				srp_parse_cred_req(b, len, &tag, &delta);
				srp_parse_t_logout(b, len, &tag, &reason);
				free(b);
			}
		}
	}
}

RDI_TEST_MAIN()
