// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * What an iSER target sends: a PDU into a receive buffer, checked by
 * iser_rx_parse() (iser/pdu.c) before iser_rx_done() (iser/rx.c) hands it
 * to libiscsi, and the private data of its RDMA/CM accept, read by
 * iser_cm_rep_send_inv() (iser/ep.c). The input is the bytes of one SEND.
 *
 * A receive buffer is two SGEs (iser/rx.c): its own ISER_RX_HEAD bytes,
 * the headers and the inline part, then the connection's shared large
 * buffer past its first ISER_RX_INLINE bytes. Each is a separate
 * allocation here holding exactly the bytes received into it, so the
 * parser cannot read beyond what arrived unnoticed. A PDU it accepts is
 * read as libiscsi reads what iser_rx_data() gives it: the AHS and the
 * data segment in the inline part; or, for a longer one, made contiguous
 * in the large buffer (the inline part copied in front of the rest), and
 * as a PDU held back for an invalidation gets it, what the inline part
 * holds of the data segment.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "../../drivers/infiniband/ulp/iser/pdu.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	size_t head_len = size < ISER_RX_HEAD ? size : ISER_RX_HEAD;
	u32 byte_len = size > UINT32_MAX ? UINT32_MAX : size;
	struct iser_rx_pdu pdu;
	u8 *head, *spill;
	u32 off, n;
	bool send_inv;
	int ret;

	send_inv = iser_cm_rep_send_inv(data, size > UINT8_MAX ? UINT8_MAX :
							       size);
	FUZZ_CHECK(send_inv == (size >= sizeof(struct iser_cm_priv) &&
				!(data[0] & ISER_CM_SEND_INV_NOT_SUPPORTED)));

	head = malloc(head_len);
	spill = malloc(ISER_RX_INLINE + size - head_len);
	FUZZ_CHECK(head && spill);
	memcpy(head, data, head_len);
	memcpy(spill + ISER_RX_INLINE, data + head_len, size - head_len);

	ret = iser_rx_parse(head, byte_len, &pdu);
	if (!ret) {
		FUZZ_CHECK(size >= ISER_HDRS_LEN);
		FUZZ_CHECK((pdu.iser_flags & ISER_OPCODE_MASK) ==
			   ISER_OPCODE_CTRL);
		FUZZ_CHECK((u64)pdu.ahs_len + pdu.data_len <=
			   size - ISER_HDRS_LEN);
		if (!iser_rx_spills(&pdu)) {
			fuzz_read(head + ISER_HDRS_LEN, pdu.ahs_len);
			fuzz_read(head + ISER_HDRS_LEN + pdu.ahs_len,
				  pdu.data_len);
		} else {
			memcpy(spill, head + ISER_HDRS_LEN, ISER_RX_INLINE);
			fuzz_read(spill, pdu.ahs_len);
			fuzz_read(spill + pdu.ahs_len, pdu.data_len);
			off = pdu.ahs_len < ISER_RX_INLINE ? pdu.ahs_len :
							     ISER_RX_INLINE;
			n = iser_rx_inline_dlen(&pdu);
			FUZZ_CHECK(n <= pdu.data_len &&
				   off + n <= ISER_RX_INLINE);
			fuzz_read(head + ISER_HDRS_LEN + off, n);
		}
	} else {
		FUZZ_CHECK(ret == -EPROTO);
	}
	free(head);
	free(spill);
	return 0;
}
