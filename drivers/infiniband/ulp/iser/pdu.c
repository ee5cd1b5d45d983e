// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * iSER header and CM private-data encoding (RFC 7145).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/errno.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "pdu.h"

/* Offsets inside the 48-byte BHS (RFC 7143 section 11.2). */
#define BHS_OPCODE		0
#define BHS_TOTAL_AHS_LEN	4
#define BHS_DATA_SEG_LEN	5
#define BHS_OPCODE_MASK		0x3f

/**
 * iser_hdr_encode() - fill the iSER header of an outgoing control PDU
 * @hdr: header to fill; all of it is written
 * @a:   buffers to advertise; a zero length leaves that half invalid
 *
 * STags and VAs of an invalid half are zero, as RFC 7145 section 7.1
 * requires of a sender.
 */
void iser_hdr_encode(struct iser_wire_hdr *hdr, const struct iser_hdr_args *a)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->flags = ISER_OPCODE_CTRL;
	if (a && a->write_len) {
		hdr->flags |= ISER_FLAG_WSV;
		hdr->write_stag = cpu_to_be32(a->write_stag);
		hdr->write_va = cpu_to_be64(a->write_va);
	}
	if (a && a->read_len) {
		hdr->flags |= ISER_FLAG_RSV;
		hdr->read_stag = cpu_to_be32(a->read_stag);
		hdr->read_va = cpu_to_be64(a->read_va);
	}
}

/**
 * iser_rx_parse() - validate a received iSER + iSCSI header pair
 * @hdrs:     the ISER_HDRS_LEN bytes at the start of the receive buffer
 * @byte_len: bytes the SEND carried (ib_wc.byte_len)
 * @pdu:      filled with what the headers announce
 *
 * Return: 0 when the PDU is an iSCSI control PDU whose announced length
 * (headers + AHS + data segment, without padding: iSER sends none) fits in
 * @byte_len; -EPROTO otherwise.
 */
int iser_rx_parse(const void *hdrs, u32 byte_len, struct iser_rx_pdu *pdu)
{
	const struct iser_wire_hdr *ihdr = hdrs;
	const u8 *bhs = (const u8 *)hdrs + sizeof(*ihdr);

	if (byte_len < ISER_HDRS_LEN)
		return -EPROTO;
	pdu->iser_flags = ihdr->flags;
	if ((ihdr->flags & ISER_OPCODE_MASK) != ISER_OPCODE_CTRL)
		return -EPROTO;
	pdu->opcode = bhs[BHS_OPCODE] & BHS_OPCODE_MASK;
	pdu->ahs_len = bhs[BHS_TOTAL_AHS_LEN] * 4;
	pdu->data_len = (bhs[BHS_DATA_SEG_LEN] << 16) |
			(bhs[BHS_DATA_SEG_LEN + 1] << 8) |
			bhs[BHS_DATA_SEG_LEN + 2];
	if (pdu->ahs_len + pdu->data_len > byte_len - ISER_HDRS_LEN)
		return -EPROTO;
	return 0;
}

/**
 * iser_cm_req_encode() - build the private data of our RDMA/CM connect
 * @priv:     private data to fill
 * @send_inv: we accept Send with Invalidate from the target
 *
 * We always advertise real (not zero-based) virtual addresses.
 */
void iser_cm_req_encode(struct iser_cm_priv *priv, bool send_inv)
{
	memset(priv, 0, sizeof(*priv));
	priv->flags = ISER_CM_ZBVA_NOT_SUPPORTED;
	if (!send_inv)
		priv->flags |= ISER_CM_SEND_INV_NOT_SUPPORTED;
}

/**
 * iser_cm_rep_send_inv() - does the target's CM reply promise remote
 * invalidation?
 * @priv: private data of the RDMA_CM_EVENT_ESTABLISHED event, may be NULL
 * @len:  its length
 *
 * A target that sends no iSER CM reply header does not invalidate for us.
 */
bool iser_cm_rep_send_inv(const void *priv, u8 len)
{
	const struct iser_cm_priv *rep = priv;

	if (!rep || len < sizeof(*rep))
		return false;
	return !(rep->flags & ISER_CM_SEND_INV_NOT_SUPPORTED);
}
