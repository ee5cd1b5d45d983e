// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * iSER wire formats against the byte layouts of RFC 7145: the iSER header
 * (section 9.2), the CM REQ/REP private data (sections 6.1, 6.2), and the
 * receive-side header check.
 */
#include <errno.h>

#include "rdi_test.h"
#include "../../drivers/infiniband/ulp/iser/pdu.h"

RDI_TEST(hdr_read_command)
{
	struct iser_hdr_args a = {
		.read_stag = 0x11223344, .read_va = 0x0102030405060708ULL,
		.read_len = 4096,
	};
	static const u8 want[28] = {
		0x14, 0, 0, 0,			/* ver 1 ctrl, RSV */
		0, 0, 0, 0,			/* write STag */
		0, 0, 0, 0, 0, 0, 0, 0,		/* write VA */
		0x11, 0x22, 0x33, 0x44,		/* read STag */
		1, 2, 3, 4, 5, 6, 7, 8,		/* read VA */
	};
	struct iser_wire_hdr h;

	memset(&h, 0xa5, sizeof(h));
	iser_hdr_encode(&h, &a);
	EXPECT_MEM(&h, want, sizeof(want));
}

RDI_TEST(hdr_write_command)
{
	struct iser_hdr_args a = {
		.write_stag = 0xdeadbeef, .write_va = 0xffff888012345000ULL,
		.write_len = 8192,
	};
	static const u8 want[28] = {
		0x18, 0, 0, 0,			/* ver 1 ctrl, WSV */
		0xde, 0xad, 0xbe, 0xef,
		0xff, 0xff, 0x88, 0x80, 0x12, 0x34, 0x50, 0x00,
		0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct iser_wire_hdr h;

	iser_hdr_encode(&h, &a);
	EXPECT_MEM(&h, want, sizeof(want));
}

RDI_TEST(hdr_bidi_and_none)
{
	struct iser_hdr_args a = {
		.write_stag = 1, .write_va = 2, .write_len = 1,
		.read_stag = 3, .read_va = 4, .read_len = 1,
	};
	struct iser_wire_hdr h;
	const u8 *b = (const u8 *)&h;

	iser_hdr_encode(&h, &a);
	EXPECT_EQ(b[0], 0x1c);
	EXPECT_EQ(b[7], 1);
	EXPECT_EQ(b[15], 2);
	EXPECT_EQ(b[19], 3);
	EXPECT_EQ(b[27], 4);

	/* a zero length leaves its STag and VA zero even if given */
	a.write_len = 0;
	a.read_len = 0;
	iser_hdr_encode(&h, &a);
	EXPECT_EQ(b[0], 0x10);
	EXPECT_EQ(b[7], 0);
	EXPECT_EQ(b[19], 0);

	iser_hdr_encode(&h, NULL);
	EXPECT_EQ(b[0], 0x10);
}

RDI_TEST(cm_req_flags)
{
	struct iser_cm_priv p;
	static const u8 inv[4] = { 0x80, 0, 0, 0 };
	static const u8 noinv[4] = { 0xc0, 0, 0, 0 };

	memset(&p, 0xff, sizeof(p));
	iser_cm_req_encode(&p, true);
	EXPECT_MEM(&p, inv, 4);
	iser_cm_req_encode(&p, false);
	EXPECT_MEM(&p, noinv, 4);
}

RDI_TEST(cm_rep_parse)
{
	static const u8 lio_inv[4] = { 0x80, 0, 0, 0 };
	static const u8 lio_noinv[4] = { 0xc0, 0, 0, 0 };

	EXPECT(iser_cm_rep_send_inv(lio_inv, 4));
	EXPECT(!iser_cm_rep_send_inv(lio_noinv, 4));
	EXPECT(!iser_cm_rep_send_inv(lio_inv, 3));
	EXPECT(!iser_cm_rep_send_inv(NULL, 0));
}

static void make_pdu(u8 *buf, u8 iser_flags, u8 opcode, u8 ahs_words,
		     u32 dlen)
{
	memset(buf, 0, ISER_HDRS_LEN);
	buf[0] = iser_flags;
	buf[28] = opcode;
	buf[28 + 4] = ahs_words;
	buf[28 + 5] = dlen >> 16;
	buf[28 + 6] = dlen >> 8;
	buf[28 + 7] = dlen;
}

RDI_TEST(rx_parse_ok)
{
	u8 buf[ISER_HDRS_LEN];
	struct iser_rx_pdu pdu;

	/* SCSI response (0x21) with 18 bytes of sense */
	make_pdu(buf, 0x10, 0x21, 0, 18);
	EXPECT_EQ(iser_rx_parse(buf, 76 + 18, &pdu), 0);
	EXPECT_EQ(pdu.opcode, 0x21);
	EXPECT_EQ(pdu.data_len, 18);
	EXPECT_EQ(pdu.ahs_len, 0);

	/* text response (0x24) of 70000 bytes, one AHS word; 0xc0 bits set */
	make_pdu(buf, 0x10, 0xe4, 1, 70000);
	EXPECT_EQ(iser_rx_parse(buf, 76 + 4 + 70000, &pdu), 0);
	EXPECT_EQ(pdu.opcode, 0x24);
	EXPECT_EQ(pdu.ahs_len, 4);
	EXPECT_EQ(pdu.data_len, 70000);
}

RDI_TEST(rx_parse_bad)
{
	u8 buf[ISER_HDRS_LEN];
	struct iser_rx_pdu pdu;

	make_pdu(buf, 0x10, 0x21, 0, 18);
	EXPECT_EQ(iser_rx_parse(buf, 75, &pdu), -EPROTO);
	EXPECT_EQ(iser_rx_parse(buf, 76 + 17, &pdu), -EPROTO);
	make_pdu(buf, 0x20, 0x21, 0, 0);	/* iSER Hello */
	EXPECT_EQ(iser_rx_parse(buf, 76, &pdu), -EPROTO);
	make_pdu(buf, 0x00, 0x21, 0, 0);
	EXPECT_EQ(iser_rx_parse(buf, 76, &pdu), -EPROTO);
}

/*
 * What fits a receive buffer's inline part: any sense data SPC allows, and
 * a Reject; what spills is cut, for a PDU held back, at the inline part.
 */
RDI_TEST(rx_inline_part)
{
	struct iser_rx_pdu pdu = {};

	EXPECT(ISER_RX_INLINE >= 2 + 252);
	EXPECT(ISER_RX_INLINE % 128 == 0);
	EXPECT(ISER_RX_HEAD <= 512);

	pdu.data_len = 2 + 252;			/* SPC's largest sense data */
	EXPECT(!iser_rx_spills(&pdu));
	EXPECT_EQ(iser_rx_inline_dlen(&pdu), 2 + 252);

	pdu.data_len = ISER_RX_INLINE;
	EXPECT(!iser_rx_spills(&pdu));
	EXPECT_EQ(iser_rx_inline_dlen(&pdu), ISER_RX_INLINE);

	pdu.data_len = ISER_RX_INLINE + 1;
	EXPECT(iser_rx_spills(&pdu));
	EXPECT_EQ(iser_rx_inline_dlen(&pdu), ISER_RX_INLINE);

	pdu.ahs_len = 8;			/* AHS first, then the data */
	pdu.data_len = ISER_RX_INLINE - 8;
	EXPECT(!iser_rx_spills(&pdu));
	pdu.data_len = 8192;
	EXPECT(iser_rx_spills(&pdu));
	EXPECT_EQ(iser_rx_inline_dlen(&pdu), ISER_RX_INLINE - 8);

	pdu.ahs_len = 255 * 4;			/* the AHS alone is longer */
	pdu.data_len = 18;
	EXPECT(iser_rx_spills(&pdu));
	EXPECT_EQ(iser_rx_inline_dlen(&pdu), 0);
	pdu.ahs_len = ISER_RX_INLINE;
	EXPECT_EQ(iser_rx_inline_dlen(&pdu), 0);
}

/* Login text as iscsid sends it for an iSER normal session. */
static const char login_text[] =
	"HeaderDigest=None\0InitiatorRecvDataSegmentLength=262144\0"
	"TargetRecvDataSegmentLength=262144\0RDMAExtensions=Yes\0";

RDI_TEST(text_cap_lowers)
{
	static const char want[] =
		"HeaderDigest=None\0InitiatorRecvDataSegmentLength=65536\0"
		"TargetRecvDataSegmentLength=262144\0RDMAExtensions=Yes\0";
	char buf[sizeof(login_text)];
	u32 len = sizeof(login_text) - 1;

	memcpy(buf, login_text, sizeof(login_text));
	EXPECT_EQ(iser_text_cap_key(buf, &len, "InitiatorRecvDataSegmentLength",
				    65536), 1);
	EXPECT_EQ(len, sizeof(want) - 1);
	EXPECT_MEM(buf, want, len);
}

RDI_TEST(text_cap_keeps_small_and_other_keys)
{
	char buf[sizeof(login_text)];
	u32 len = sizeof(login_text) - 1;

	memcpy(buf, login_text, sizeof(login_text));
	/* equal to the cap: unchanged */
	EXPECT_EQ(iser_text_cap_key(buf, &len, "InitiatorRecvDataSegmentLength",
				    262144), 0);
	/* a key that only starts like another one is a different key */
	EXPECT_EQ(iser_text_cap_key(buf, &len, "InitiatorRecvData", 512), 0);
	/* absent */
	EXPECT_EQ(iser_text_cap_key(buf, &len, "MaxRecvDataSegmentLength", 512),
		  0);
	EXPECT_EQ(len, sizeof(login_text) - 1);
	EXPECT_MEM(buf, login_text, len);
}

RDI_TEST(text_cap_discovery_and_edges)
{
	/* same digit count, several pairs, last pair without its NUL */
	char buf[] = "MaxRecvDataSegmentLength=32768\0SessionType=Discovery\0"
		     "MaxRecvDataSegmentLength=0x8000\0MaxRecvDataSegmentLength=9";
	static const char want[] =
		"MaxRecvDataSegmentLength=16384\0SessionType=Discovery\0"
		"MaxRecvDataSegmentLength=0x8000\0MaxRecvDataSegmentLength=9";
	u32 len = sizeof(buf) - 1;

	EXPECT_EQ(iser_text_cap_key(buf, &len, "MaxRecvDataSegmentLength",
				    16384), 1);
	EXPECT_EQ(len, sizeof(want) - 1);
	EXPECT_MEM(buf, want, len);

	/* shrinking by several digits keeps what follows intact */
	char big[] = "MaxRecvDataSegmentLength=16777215\0X=1\0";
	static const char small[] = "MaxRecvDataSegmentLength=512\0X=1\0";

	len = sizeof(big) - 1;
	EXPECT_EQ(iser_text_cap_key(big, &len, "MaxRecvDataSegmentLength",
				    512), 1);
	EXPECT_EQ(len, sizeof(small) - 1);
	EXPECT_MEM(big, small, len);

	/* empty text, empty value, value too long to be a number */
	char odd[] = "MaxRecvDataSegmentLength=\0MaxRecvDataSegmentLength=99999999999\0";

	len = 0;
	EXPECT_EQ(iser_text_cap_key(odd, &len, "MaxRecvDataSegmentLength", 1), 0);
	len = sizeof(odd) - 1;
	EXPECT_EQ(iser_text_cap_key(odd, &len, "MaxRecvDataSegmentLength", 1), 0);
	EXPECT_EQ(len, sizeof(odd) - 1);
}

/*
 * The login PDU path as iscsid and libiscsi drive it (open-iscsi
 * usr/login.c and usr/io.c iscsi_io_send_pdu(); Linux libiscsi.c
 * iscsi_alloc_mgmt_task()): iscsid appends "key=value\0" pairs and counts
 * them in the header's DataSegmentLength, then hands send_pdu the data
 * segment *with its pad* to a 4-byte boundary (the BHS is 48 bytes), so
 * task->data_count = DataSegmentLength + pad, the pad being NULs.
 */
struct login_pdu {
	char data[8192];
	u32 dlength;		/* header DataSegmentLength */
	u32 data_count;		/* what libiscsi's task->data holds */
};

static void login_add(struct login_pdu *p, const char *key, const char *val)
{
	p->dlength += sprintf(p->data + p->dlength, "%s=%s", key, val) + 1;
}

static void login_pad(struct login_pdu *p)
{
	u32 pad = (4 - (48 + p->dlength) % 4) % 4;

	memset(p->data + p->dlength, 0, pad);
	p->data_count = p->dlength + pad;
}

/* The first login request of an iSER normal session without CHAP. */
static void login_normal(struct login_pdu *p, const char *target)
{
	memset(p, 0, sizeof(*p));
	login_add(p, "InitiatorName", "iqn.2026-11.org.example:lab-initiator");
	login_add(p, "InitiatorAlias", "lab");
	login_add(p, "TargetName", target);
	login_add(p, "SessionType", "Normal");
	login_add(p, "DefaultTime2Wait", "2");
	login_add(p, "DefaultTime2Retain", "0");
	login_add(p, "IFMarker", "No");
	login_add(p, "OFMarker", "No");
	login_add(p, "ErrorRecoveryLevel", "0");
	login_add(p, "InitialR2T", "No");
	login_add(p, "ImmediateData", "Yes");
	login_add(p, "MaxBurstLength", "16776192");
	login_add(p, "FirstBurstLength", "262144");
	login_add(p, "MaxOutstandingR2T", "1");
	login_add(p, "MaxConnections", "1");
	login_add(p, "DataPDUInOrder", "Yes");
	login_add(p, "DataSequenceInOrder", "Yes");
	login_add(p, "InitiatorRecvDataSegmentLength", "262144");
	login_add(p, "TargetRecvDataSegmentLength", "8192");
	login_add(p, "RDMAExtensions", "Yes");
	login_pad(p);
}

/*
 * The target's side: LIO's iscsi_decode_text_input() and
 * iscsi_target_locate_portal() walk exactly DataSegmentLength bytes and
 * fail on a "pair" without '=' ("Unable to locate "=" separator for key").
 */
static bool lio_parses(const char *text, u32 len)
{
	char buf[8193];
	char *start = buf, *end = buf + len;

	memcpy(buf, text, len);
	buf[len] = '\0';
	while (start < end) {
		char *eq = strchr(start, '=');

		if (!eq)
			return false;
		start += strlen(start) + 1;
	}
	return true;
}

/* What c4d972e did: rewrite over task->data_count and declare the result. */
static bool old_glue_parses(struct login_pdu *p)
{
	u32 len = p->data_count;

	iser_text_cap_key(p->data, &len, "InitiatorRecvDataSegmentLength",
			  8192);
	iser_text_cap_key(p->data, &len, "MaxRecvDataSegmentLength", 8192);
	return lio_parses(p->data, len);	/* len went into hdr->dlength */
}

/* Lab target names: ISER_IQN, ISER_IQN2 (= -b), ISER_EMPTY (= -empty). */
#define LAB_IQN "iqn.2026-11.org.example.rdma-initiators:lab"

RDI_TEST(login_cap_pad_was_declared)
{
	/*
	 * The second-login failure: rewriting over the padded buffer moved
	 * the pad NULs inside the declared length whenever there was a pad.
	 * Target names 0..3 bytes longer give every pad; only pad 0 parsed.
	 */
	static const char *names[] = {
		LAB_IQN, LAB_IQN "x", LAB_IQN "-b", LAB_IQN "-bx",
	};
	struct login_pdu p;
	unsigned int i, pads = 0;

	for (i = 0; i < 4; i++) {
		login_normal(&p, names[i]);
		EXPECT(lio_parses(p.data, p.dlength));	/* as iscsid sent it */
		pads |= 1U << (p.data_count - p.dlength);
		EXPECT_EQ(old_glue_parses(&p), p.data_count == p.dlength);
	}
	EXPECT_EQ(pads, 0xf);

	/*
	 * Target names 2 bytes apart (lab, lab-b; lab-empty is 6) have pads
	 * 2 apart modulo 4: with the old glue one of the two always failed,
	 * whichever initiator name and alias the lab has.
	 */
	login_normal(&p, LAB_IQN);
	i = old_glue_parses(&p);
	login_normal(&p, LAB_IQN "-b");
	EXPECT(!(i && old_glue_parses(&p)));
}

RDI_TEST(login_cap_keeps_dlength_and_pad_apart)
{
	static const char *names[] = {
		LAB_IQN, LAB_IQN "x", LAB_IQN "-b", LAB_IQN "-bx",
		LAB_IQN "-empty",
	};
	static const char tail[] = "InitiatorRecvDataSegmentLength=8192\0"
		"TargetRecvDataSegmentLength=8192\0RDMAExtensions=Yes";
	struct login_pdu p;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		u32 seg_len, was;

		login_normal(&p, names[i]);
		was = p.dlength;
		seg_len = p.dlength;
		EXPECT_EQ(iser_login_text_cap(p.data, &seg_len, 8192), 1);
		/* "262144" became "8192": two bytes fewer, no pad declared */
		EXPECT_EQ(seg_len, was - 2);
		EXPECT(lio_parses(p.data, seg_len));
		EXPECT_MEM(p.data + seg_len - sizeof(tail), tail, sizeof(tail));
		/* what is sent: the segment and zeroed pad, within the buffer */
		EXPECT_EQ(iser_text_wire_len(seg_len) % 4, 0);
		EXPECT((48 + iser_text_wire_len(seg_len)) % 4 == 0);
		EXPECT(iser_text_wire_len(seg_len) <= p.data_count);
		EXPECT_MEM(p.data + seg_len, "\0\0\0",
			   iser_text_wire_len(seg_len) - seg_len);
		/* sent again, the task is already consistent: no change */
		was = seg_len;
		EXPECT_EQ(iser_login_text_cap(p.data, &seg_len, 8192), 0);
		EXPECT_EQ(seg_len, was);
	}
}

RDI_TEST(login_cap_discovery_and_unchanged)
{
	struct login_pdu p = {};
	u32 seg_len;

	static const char disc_tail[] = "MaxRecvDataSegmentLength=4096";

	/* a discovery login: MaxRecvDataSegmentLength=32768, one byte less */
	login_add(&p, "InitiatorName", "iqn.2026-11.org.example:lab-initiator");
	login_add(&p, "SessionType", "Discovery");
	login_add(&p, "MaxRecvDataSegmentLength", "32768");
	login_pad(&p);
	seg_len = p.dlength;
	EXPECT_EQ(iser_login_text_cap(p.data, &seg_len, 4096), 1);
	EXPECT_EQ(seg_len, p.dlength - 1);
	EXPECT(lio_parses(p.data, seg_len));
	EXPECT_MEM(p.data + seg_len - sizeof(disc_tail), disc_tail,
		   sizeof(disc_tail));

	/* nothing above the cap: same length, same bytes, same wire length */
	login_normal(&p, LAB_IQN "-b");
	seg_len = p.dlength;
	EXPECT_EQ(iser_login_text_cap(p.data, &seg_len, 262144), 0);
	EXPECT_EQ(seg_len, p.dlength);
	EXPECT_EQ(iser_text_wire_len(seg_len), p.data_count);
	EXPECT(lio_parses(p.data, seg_len));
}

RDI_TEST(login_cap_zeroes_a_dirty_pad)
{
	/* a sender whose pad is not NULs: nothing of it is sent as text */
	char buf[] = "A=1\0MaxRecvDataSegmentLength=65536\0XXXX";
	u32 seg_len = sizeof("A=1\0MaxRecvDataSegmentLength=65536");

	EXPECT_EQ(iser_login_text_cap(buf, &seg_len, 512), 1);
	EXPECT_EQ(seg_len, sizeof("A=1\0MaxRecvDataSegmentLength=512"));
	EXPECT(lio_parses(buf, seg_len));
	EXPECT_MEM(buf + seg_len, "\0\0\0", iser_text_wire_len(seg_len) - seg_len);
}

RDI_TEST_MAIN()
