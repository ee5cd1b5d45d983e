// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * iSER header and CM private-data encoding (RFC 7145), and the login keys
 * the transport has to adjust.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
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
 *
 * Return: true when the reply header is there and does not say
 * ISER_CM_SEND_INV_NOT_SUPPORTED.
 */
bool iser_cm_rep_send_inv(const void *priv, u8 len)
{
	const struct iser_cm_priv *rep = priv;

	if (!rep || len < sizeof(*rep))
		return false;
	return !(rep->flags & ISER_CM_SEND_INV_NOT_SUPPORTED);
}

/* Parse a decimal value of at most 10 digits; false if not one. */
static bool iser_text_dec(const char *s, u32 n, u64 *val)
{
	u32 i;

	if (!n || n > 10)
		return false;
	*val = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*val = *val * 10 + (s[i] - '0');
	}
	return true;
}

/**
 * iser_text_cap_key() - lower a numeric key of a login/text data segment
 * @text: "key=value" pairs, each ended by a NUL (RFC 7143 section 6.1)
 * @len:  in: the DataSegmentLength of the PDU, never its padding (see
 *        iser_login_text_cap()); out: the length after the change
 * @key:  key name, e.g. "InitiatorRecvDataSegmentLength"
 * @cap:  largest value to declare
 *
 * Every pair @key=N with a decimal N above @cap becomes @key=@cap. The
 * text only shrinks (a larger number has at least as many digits), so it
 * is rewritten in place. Values that are not plain decimal (hex, ranges)
 * are left alone, as is a pair cut off by the end of @text (a key split
 * over two PDUs).
 *
 * Return: number of pairs lowered.
 */
int iser_text_cap_key(char *text, u32 *len, const char *key, u32 cap)
{
	u32 klen = strlen(key), pos = 0, end, vlen, nlen;
	char num[11];	/* a u32 in decimal and its NUL */
	int changed = 0;
	u64 val;

	while (pos < *len) {
		char *pair = text + pos;

		for (end = pos; end < *len && text[end]; end++)
			;
		if (end == *len)	/* no NUL: incomplete pair */
			break;
		if (end - pos > klen && !memcmp(pair, key, klen) &&
		    pair[klen] == '=') {
			vlen = end - pos - klen - 1;
			if (iser_text_dec(pair + klen + 1, vlen, &val) &&
			    val > cap) {
				nlen = snprintf(num, sizeof(num), "%u", cap);
				memcpy(pair + klen + 1, num, nlen);
				memmove(pair + klen + 1 + nlen, text + end,
					*len - end);
				*len -= vlen - nlen;
				end -= vlen - nlen;
				changed++;
			}
		}
		pos = end + 1;
	}
	return changed;
}

/**
 * iser_login_text_cap() - declare at most @cap receive bytes in a login
 * @text:    data segment of a login request, in a buffer of at least
 *           iser_text_wire_len(@seg_len) bytes
 * @seg_len: in: DataSegmentLength of the request header; out: the new one,
 *           which the header must then carry
 * @cap:     largest receive size to declare
 *
 * Lowers InitiatorRecvDataSegmentLength (iSER normal session) and
 * MaxRecvDataSegmentLength (discovery session) to @cap.
 *
 * Only the @seg_len bytes of the data segment are text. What libiscsi
 * hands the transport is longer: iscsid passes send_pdu the data segment
 * and its pad to a 4-byte boundary, so task->data_count is @seg_len plus
 * up to three NUL bytes. Rewriting over those and declaring the result
 * as DataSegmentLength puts the pad NULs inside the text, where a target
 * reads them as an empty key (LIO: "Unable to locate "=" separator").
 * So the rewrite works on @seg_len bytes, and once it changed anything the
 * bytes behind the new end, up to the next 4-byte boundary, are zeroed:
 * the caller sends iser_text_wire_len(@seg_len) bytes, a correctly padded
 * data segment. Unchanged text is left as it was, pad included.
 *
 * Return: number of values lowered.
 */
int iser_login_text_cap(char *text, u32 *seg_len, u32 cap)
{
	u32 len = *seg_len;
	int n;

	n = iser_text_cap_key(text, &len, "InitiatorRecvDataSegmentLength",
			      cap);
	n += iser_text_cap_key(text, &len, "MaxRecvDataSegmentLength", cap);
	if (n) {
		memset(text + len, 0, iser_text_wire_len(len) - len);
		*seg_len = len;
	}
	return n;
}
