/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * srp-fake-target: SRP information unit offsets (SRP r16a). Written from
 * the standard, independently of the driver's proto.h, so that a layout
 * mistake there shows up as a test failure.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef FAKE_WIRE_H
#define FAKE_WIRE_H

#include <stdint.h>

#include "bytes.h"

/* IU type codes (byte 0). */
enum {
	IU_LOGIN_REQ	= 0x00,
	IU_TSK_MGMT	= 0x01,
	IU_CMD		= 0x02,
	IU_I_LOGOUT	= 0x03,
	IU_CRED_RSP	= 0x41,
	IU_AER_RSP	= 0x42,
	IU_T_LOGOUT	= 0x80,
	IU_CRED_REQ	= 0x81,
	IU_AER_REQ	= 0x82,
	IU_LOGIN_RSP	= 0xc0,
	IU_RSP		= 0xc1,
	IU_LOGIN_REJ	= 0xc2,
};

/* SRP_LOGIN_REQ as RDMA/CM private data (the 56-byte ib_srpt layout). */
enum {
	LREQ_TAG	= 0,
	LREQ_BUF_FMT	= 8,
	LREQ_FLAGS	= 10,
	LREQ_OPCODE	= 11,
	LREQ_IT_IU_LEN	= 12,
	LREQ_IPORT	= 16,
	LREQ_TPORT	= 32,
	LREQ_IMM_OFF	= 48,
	LREQ_LEN	= 56,
};

/* SRP_LOGIN_RSP (52 bytes). */
enum {
	LRSP_REQ_LIM	= 4,
	LRSP_TAG	= 8,
	LRSP_MAX_IT	= 16,
	LRSP_MAX_TI	= 20,
	LRSP_BUF_FMT	= 24,
	LRSP_FLAGS	= 26,
	LRSP_LEN	= 52,
};

/* SRP_LOGIN_REJ (32 bytes). */
enum {
	LREJ_REASON	= 4,
	LREJ_TAG	= 8,
	LREJ_BUF_FMT	= 24,
	LREJ_LEN	= 32,
};

/* SRP_CMD (48 bytes + additional CDB + descriptors). */
enum {
	CMD_BUF_FMT	= 5,
	CMD_DOUT_CNT	= 6,
	CMD_DIN_CNT	= 7,
	CMD_TAG		= 8,
	CMD_LUN		= 20,
	CMD_ADD_CDB	= 31,
	CMD_CDB		= 32,
	CMD_LEN		= 48,
};

/* SRP_TSK_MGMT (48 bytes). */
enum {
	TMF_TAG		= 8,
	TMF_FUNC	= 30,
	TMF_TASK_TAG	= 32,
	TMF_LEN		= 48,
};

/* SRP_RSP (36 bytes + response data + sense data). */
enum {
	RSP_REQ_LIM	= 4,
	RSP_TAG		= 8,
	RSP_FLAGS	= 18,
	RSP_STATUS	= 19,
	RSP_DOUT_RES	= 20,
	RSP_DIN_RES	= 24,
	RSP_SENSE_LEN	= 28,
	RSP_RESP_LEN	= 32,
	RSP_LEN		= 36,
};

#define RSP_F_RSPVALID	0x01
#define RSP_F_SNSVALID	0x02
#define RSP_F_DIOVER	0x10
#define RSP_F_DIUNDER	0x20

/* SRP_T_LOGOUT (16), SRP_CRED_REQ (16), SRP_AER_REQ (36 + sense). */
enum {
	TLO_REASON	= 4,
	TLO_TAG		= 8,
	TLO_LEN		= 16,
	CRQ_REQ_LIM	= 4,
	CRQ_TAG		= 8,
	CRQ_LEN		= 16,
	AER_REQ_LIM	= 4,
	AER_TAG		= 8,
	AER_LUN		= 20,
	AER_SENSE_LEN	= 28,
	AER_LEN		= 36,
	CRSP_TAG	= 8,	/* SRP_CRED_RSP and SRP_AER_RSP */
};

/* Data descriptor formats (SRP_CMD byte 5, a nibble per direction). */
enum { DESC_NONE = 0, DESC_DIRECT = 1, DESC_INDIRECT = 2, DESC_IMM = 3 };

#define DESC_LEN	16	/* va (8), key (4), len (4) */
#define IDESC_HDR_LEN	20	/* table descriptor (16), total len (4) */

/* Tags are opaque: echo the 8 bytes exactly as received. */
static inline void copy_tag(uint8_t *dst, const uint8_t *src)
{
	for (int i = 0; i < 8; i++)
		dst[i] = src[i];
}

#endif /* FAKE_WIRE_H */
