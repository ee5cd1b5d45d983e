// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The in-place rewrite of a login request's text, iser_login_text_cap()
 * (iser/pdu.c), which iser_login_cap_rx() (iser/tx.c) applies to the data
 * segment iscsid sends: InitiatorRecvDataSegmentLength and
 * MaxRecvDataSegmentLength lowered to the receive buffers' size.
 *
 * Input: the cap (4 bytes, big-endian), then the data segment. It sits in
 * a buffer of exactly its padded length, the pad NUL as iscsid sends it.
 * The rewrite must stay inside the text, keep every pair (only values
 * shrink), zero the pad behind a shortened text, change nothing when it
 * reports nothing lowered, and leave nothing to lower a second time.
 */
#include <string.h>

#include "fuzz.h"
#include "../../drivers/infiniband/ulp/iser/pdu.h"

#define CAP_LEN	4

/* Pairs of @text: each ends with a NUL. */
static u32 pairs(const char *text, u32 len)
{
	u32 i, n = 0;

	for (i = 0; i < len; i++)
		n += !text[i];
	return n;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u32 cap, seg_len, len, again, i;
	char *text, *orig;
	size_t wire;
	int n;

	if (size < CAP_LEN)
		return 0;
	cap = (u32)data[0] << 24 | data[1] << 16 | data[2] << 8 | data[3];
	seg_len = size - CAP_LEN;
	wire = iser_text_wire_len(seg_len);
	text = calloc(1, wire);
	orig = calloc(1, wire);
	FUZZ_CHECK(text && orig);
	memcpy(text, data + CAP_LEN, seg_len);
	memcpy(orig, text, wire);

	len = seg_len;
	n = iser_login_text_cap(text, &len, cap);
	FUZZ_CHECK(n >= 0 && len <= seg_len);
	if (!n) {
		FUZZ_CHECK(len == seg_len && !memcmp(text, orig, wire));
	} else {
		FUZZ_CHECK(pairs(text, len) == pairs(orig, seg_len));
		FUZZ_CHECK(iser_text_wire_len(len) <= wire);
		for (i = len; i < iser_text_wire_len(len); i++)
			FUZZ_CHECK(!text[i]);
	}
	again = len;
	FUZZ_CHECK(!iser_login_text_cap(text, &again, cap) && again == len);
	free(text);
	free(orig);
	return 0;
}
