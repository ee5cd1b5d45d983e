/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * iSER wire formats (RFC 7145): the iSER header that precedes every iSCSI
 * PDU sent as an RDMA SEND, and the iSER CM private data exchanged in the
 * RDMA/CM connect request and reply.
 *
 * Everything here is pure byte-layout logic: it compiles in the kernel and
 * on the host against tests/unit/shim, and tests/unit/test_iser_pdu.c checks
 * it against the RFC layouts.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef ISER_PDU_H
#define ISER_PDU_H

#include <linux/build_bug.h>
#include <linux/types.h>

/* iSER header flags byte: opcode in the high nibble, then WSV and RSV. */
#define ISER_OPCODE_MASK	0xf0
#define ISER_OPCODE_CTRL	0x10	/* iSCSI control-type PDU follows */
#define ISER_OPCODE_HELLO	0x20
#define ISER_OPCODE_HELLO_REPLY	0x30
#define ISER_FLAG_WSV		0x08	/* write STag and VA are valid */
#define ISER_FLAG_RSV		0x04	/* read STag and VA are valid */

/**
 * struct iser_wire_hdr - iSER header of an iSCSI control-type PDU
 * @flags:      ISER_OPCODE_CTRL | ISER_FLAG_WSV | ISER_FLAG_RSV
 * @rsvd:       zero
 * @write_stag: STag of the buffer the target RDMA READs write data from
 * @write_va:   tagged offset of the first byte of solicited write data
 * @read_stag:  STag of the buffer the target RDMA WRITEs read data into
 * @read_va:    tagged offset of the first byte of read data
 */
struct iser_wire_hdr {
	u8	flags;
	u8	rsvd[3];
	__be32	write_stag;
	__be64	write_va;
	__be32	read_stag;
	__be64	read_va;
} __packed;
static_assert(sizeof(struct iser_wire_hdr) == 28);

/* The iSCSI basic header segment that follows the iSER header. */
#define ISER_BHS_LEN		48
#define ISER_HDRS_LEN		(sizeof(struct iser_wire_hdr) + ISER_BHS_LEN)

/* iSER CM private data flags (RFC 7145 section 6.1 and 6.2). */
#define ISER_CM_ZBVA_NOT_SUPPORTED	0x80
#define ISER_CM_SEND_INV_NOT_SUPPORTED	0x40

/**
 * struct iser_cm_priv - iSER CM REQ / REP private data
 * @flags: ISER_CM_ZBVA_NOT_SUPPORTED, ISER_CM_SEND_INV_NOT_SUPPORTED
 * @rsvd:  zero
 */
struct iser_cm_priv {
	u8	flags;
	u8	rsvd[3];
} __packed;
static_assert(sizeof(struct iser_cm_priv) == 4);

/**
 * struct iser_hdr_args - what an outgoing iSER header advertises
 * @write_stag: rkey of the write buffer, valid when @write_len is non-zero
 * @write_va:   address of the first solicited write byte
 * @write_len:  solicited write bytes (0: no write buffer)
 * @read_stag:  rkey of the read buffer, valid when @read_len is non-zero
 * @read_va:    address of the read buffer
 * @read_len:   expected read bytes (0: no read buffer)
 */
struct iser_hdr_args {
	u32	write_stag;
	u64	write_va;
	u32	write_len;
	u32	read_stag;
	u64	read_va;
	u32	read_len;
};

/**
 * struct iser_rx_pdu - a received PDU, located inside its receive buffer
 * @iser_flags: flags byte of the iSER header
 * @opcode:     iSCSI opcode (without the immediate bit)
 * @ahs_len:    additional header segment bytes (hlength * 4)
 * @data_len:   data segment length announced by the BHS
 */
struct iser_rx_pdu {
	u8	iser_flags;
	u8	opcode;
	u32	ahs_len;
	u32	data_len;
};

/*
 * A receive buffer (rx.c) holds the headers and up to ISER_RX_INLINE bytes
 * of AHS and data segment, enough for any sense data SPC allows (252 bytes
 * and its 2-byte length) and a Reject's 48-byte header; the rest of a
 * longer PDU continues in the connection's one large buffer, past its
 * first ISER_RX_INLINE bytes. A multiple of 128 bytes, the largest DMA
 * alignment of a supported architecture: a long PDU's inline bytes are
 * copied in front of the rest without sharing a cache line with it.
 */
#define ISER_RX_INLINE		384
#define ISER_RX_HEAD		(ISER_HDRS_LEN + ISER_RX_INLINE)

/**
 * iser_rx_spills() - does a PDU go on past its receive buffer's inline part?
 * @pdu: a PDU iser_rx_parse() accepted
 *
 * Return: true when its AHS and data segment take more than ISER_RX_INLINE
 * bytes.
 */
static inline bool iser_rx_spills(const struct iser_rx_pdu *pdu)
{
	return pdu->ahs_len + pdu->data_len > ISER_RX_INLINE;
}

/**
 * iser_rx_inline_dlen() - data segment bytes the inline part holds
 * @pdu: a PDU iser_rx_parse() accepted
 *
 * Return: how many bytes of the data segment follow the AHS inside the
 * first ISER_RX_INLINE bytes: all of it unless the PDU spills.
 */
static inline u32 iser_rx_inline_dlen(const struct iser_rx_pdu *pdu)
{
	u32 room;

	if (pdu->ahs_len >= ISER_RX_INLINE)
		return 0;
	room = ISER_RX_INLINE - pdu->ahs_len;
	return pdu->data_len < room ? pdu->data_len : room;
}

void iser_hdr_encode(struct iser_wire_hdr *hdr, const struct iser_hdr_args *a);
int iser_rx_parse(const void *hdrs, u32 byte_len, struct iser_rx_pdu *pdu);
void iser_cm_req_encode(struct iser_cm_priv *priv, bool send_inv);
bool iser_cm_rep_send_inv(const void *priv, u8 len);
int iser_text_cap_key(char *text, u32 *len, const char *key, u32 cap);
int iser_login_text_cap(char *text, u32 *seg_len, u32 cap);

/* Bytes a data segment of @seg_len bytes takes on the wire, with its pad. */
static inline u32 iser_text_wire_len(u32 seg_len)
{
	return (seg_len + 3) & ~3U;
}

#endif /* ISER_PDU_H */
