// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The decoders of everything an SRP target sends, all on the same input:
 * those of the receive path (srp_recv_done() in srp/cmd.c: SRP_RSP,
 * SRP_CRED_REQ, SRP_AER_REQ, SRP_T_LOGOUT) and those of the CM private data
 * of a login accept or reject (srp/login.c). The input is the received
 * bytes and nothing else. What a decoder accepts must be consistent, and
 * every byte it hands back must lie inside the input: it is read here as
 * the driver reads it, under AddressSanitizer. Credit grants go through
 * srp_credit_update() as srp_add_credits() applies them.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <linux/kernel.h>

#include "fuzz.h"
#include "../../drivers/infiniband/ulp/srp/proto.h"

static bool inside(const u8 *p, u32 n, const u8 *buf, size_t len)
{
	return p >= buf && n <= len && (size_t)(p - buf) <= len - n;
}

/* A grant on a channel that holds no, one, or the most credits. */
static void check_credits(s32 delta)
{
	static const s32 held[] = { 0, 1, INT_MAX };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(held); i++) {
		s64 want = (s64)held[i] + delta;
		s32 res = -1;
		int ret = srp_credit_update(held[i], delta, &res);

		if (want < 0)
			FUZZ_CHECK(ret == -ERANGE && res == 0);
		else if (want > INT_MAX)
			FUZZ_CHECK(ret == -EOVERFLOW && res == INT_MAX);
		else
			FUZZ_CHECK(!ret && res == want);
	}
}

static void check_rsp(const u8 *buf, size_t len)
{
	struct srp_rsp_info rsp;
	int code;

	if (srp_parse_rsp(buf, len, &rsp))
		return;
	FUZZ_CHECK(len >= sizeof(struct srp_iu_rsp) && buf[0] == SRP_IU_RSP);
	FUZZ_CHECK(!(rsp.flags & SRP_RSP_DOOVER && rsp.flags & SRP_RSP_DOUNDER));
	FUZZ_CHECK(!(rsp.flags & SRP_RSP_DIOVER && rsp.flags & SRP_RSP_DIUNDER));
	FUZZ_CHECK(!rsp.resp_data == !(rsp.flags & SRP_RSP_RSPVALID));
	FUZZ_CHECK(!rsp.sense == !(rsp.flags & SRP_RSP_SNSVALID));
	if (rsp.resp_data) {
		FUZZ_CHECK(inside(rsp.resp_data, rsp.resp_data_len, buf, len));
		fuzz_read(rsp.resp_data, rsp.resp_data_len);
	}
	if (rsp.sense) {
		FUZZ_CHECK(inside(rsp.sense, rsp.sense_len, buf, len));
		fuzz_read(rsp.sense, rsp.sense_len);
	}
	code = srp_rsp_tmf_code(&rsp);
	FUZZ_CHECK(code == -EPROTO ||
		   (rsp.resp_data_len >= 4 && code == rsp.resp_data[3]));
	check_credits(rsp.req_lim_delta);
}

static void check_aer(const u8 *buf, size_t len)
{
	struct srp_aer_info aer;
	int ret = srp_parse_aer_req(buf, len, &aer);

	if (ret == -EPROTO)
		return;
	FUZZ_CHECK(buf[0] == SRP_IU_AER_REQ);
	if (ret) {
		FUZZ_CHECK(ret == -EBADMSG);
		FUZZ_CHECK(!aer.sense && !aer.sense_len);
	} else {
		FUZZ_CHECK(aer.sense && aer.sense_len == aer.sense_len_field);
		FUZZ_CHECK(inside(aer.sense, aer.sense_len, buf, len));
		fuzz_read(aer.sense, aer.sense_len);
	}
	check_credits(aer.req_lim_delta);
}

static void check_target_requests(const u8 *buf, size_t len)
{
	u32 reason;
	s32 delta;
	u64 tag;

	if (!srp_parse_cred_req(buf, len, &tag, &delta)) {
		FUZZ_CHECK(len >= sizeof(struct srp_iu_cred_req));
		check_credits(delta);
	}
	if (!srp_parse_t_logout(buf, len, &tag, &reason)) {
		FUZZ_CHECK(len >= sizeof(struct srp_iu_t_logout));
		fuzz_read(srp_t_logout_text(reason),
			  strlen(srp_t_logout_text(reason)));
	}
}

/* CM private data: the driver gets its length as a u8. */
static void check_login(const u8 *buf, u8 len)
{
	struct srp_login_rej_info rej;
	struct srp_login_result res;

	if (!srp_parse_login_rsp(buf, len, &res)) {
		FUZZ_CHECK(len >= sizeof(struct srp_iu_login_rsp));
		FUZZ_CHECK(res.req_lim >= 1 && res.req_lim <= INT_MAX);
		FUZZ_CHECK(res.max_it_iu_len >= sizeof(struct srp_iu_cmd));
		FUZZ_CHECK(res.max_ti_iu_len >= sizeof(struct srp_iu_rsp));
	}
	if (!srp_parse_login_rej(buf, len, &rej)) {
		FUZZ_CHECK(rej.text);
		fuzz_read(rej.text, strlen(rej.text));
		FUZZ_CHECK(rej.it_iu_too_large ==
			   (rej.reason == SRP_REJ_IT_IU_LEN_TOO_LARGE));
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	FUZZ_CHECK(srp_iu_opcode(data, size) == (size ? data[0] : -EPROTO));
	check_rsp(data, size);
	check_aer(data, size);
	check_target_requests(data, size);
	check_login(data, size > UINT8_MAX ? UINT8_MAX : size);
	return 0;
}
