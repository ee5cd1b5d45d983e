// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * What an iSER target sends: a PDU into a receive buffer, checked by
 * iser_rx_parse() (iser/pdu.c) before iser_rx_done() (iser/rx.c) hands it
 * to libiscsi, and the private data of its RDMA/CM accept, read by
 * iser_cm_rep_send_inv() (iser/ep.c). The input is the bytes of one SEND.
 *
 * A receive buffer is two SGEs: ISER_HDRS_LEN bytes of headers, then the
 * data buffer. Each is a separate allocation here holding exactly the
 * bytes received into it, so the parser cannot read beyond what arrived
 * unnoticed. A PDU it accepts is read as libiscsi reads it: the AHS and
 * the data segment, in the data buffer.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "../../drivers/infiniband/ulp/iser/pdu.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	size_t hdrs_len = size < ISER_HDRS_LEN ? size : ISER_HDRS_LEN;
	u32 byte_len = size > UINT32_MAX ? UINT32_MAX : size;
	struct iser_rx_pdu pdu;
	u8 *hdrs, *seg;
	bool send_inv;
	int ret;

	send_inv = iser_cm_rep_send_inv(data, size > UINT8_MAX ? UINT8_MAX :
							       size);
	FUZZ_CHECK(send_inv == (size >= sizeof(struct iser_cm_priv) &&
				!(data[0] & ISER_CM_SEND_INV_NOT_SUPPORTED)));

	hdrs = malloc(hdrs_len);
	seg = malloc(size - hdrs_len);
	FUZZ_CHECK(hdrs && seg);
	memcpy(hdrs, data, hdrs_len);
	memcpy(seg, data + hdrs_len, size - hdrs_len);

	ret = iser_rx_parse(hdrs, byte_len, &pdu);
	if (!ret) {
		FUZZ_CHECK(size >= ISER_HDRS_LEN);
		FUZZ_CHECK((pdu.iser_flags & ISER_OPCODE_MASK) ==
			   ISER_OPCODE_CTRL);
		FUZZ_CHECK((u64)pdu.ahs_len + pdu.data_len <=
			   size - ISER_HDRS_LEN);
		fuzz_read(seg, pdu.ahs_len);
		fuzz_read(seg + pdu.ahs_len, pdu.data_len);
	} else {
		FUZZ_CHECK(ret == -EPROTO);
	}
	free(hdrs);
	free(seg);
	return 0;
}
