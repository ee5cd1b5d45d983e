// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The login response check of srp_cm_login_reply() (srp/login.c): an
 * SRP_LOGIN_RSP decoded by srp_parse_login_rsp() and judged by
 * srp_check_login_rsp() for a host. A response it accepts must let the
 * host send every command it was sized for (srp_model.h).
 *
 * Input: the host, then the CM private data of the accept:
 *   byte 0     cmd_sg_cnt, descriptors in an SRP_CMD (1..255)
 *   bytes 1-2  max_desc, descriptors a command may need (>= 1), big-endian
 *   bytes 3-6  IT IU length requested and allocated, big-endian
 *   bytes 7-   the private data (at most 255 bytes reach the driver)
 * Hosts the driver cannot have (a zero count) are skipped. The private
 * data is copied to a buffer of its own: aligned as the CM's, and ending
 * where it ends.
 */
#include <string.h>

#include "srp_model.h"

#define HOST_LEN	7

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct srp_login_result res;
	unsigned int cmd_sg_cnt, max_desc;
	enum srp_login_fault fault;
	u32 it_iu_len;
	void *priv;
	int ret;
	u8 len;

	if (size < HOST_LEN || !data[0] || !(data[1] | data[2]))
		return 0;
	cmd_sg_cnt = data[0];
	max_desc = data[1] << 8 | data[2];
	it_iu_len = (u32)data[3] << 24 | data[4] << 16 | data[5] << 8 | data[6];
	len = size - HOST_LEN > UINT8_MAX ? UINT8_MAX : size - HOST_LEN;

	priv = malloc(len);
	FUZZ_CHECK(priv);
	memcpy(priv, data + HOST_LEN, len);
	ret = srp_parse_login_rsp(priv, len, &res);
	free(priv);
	if (ret)
		return 0;
	fault = srp_check_login_rsp(&res, cmd_sg_cnt, max_desc, it_iu_len);
	FUZZ_CHECK(fault <= SRP_LOGIN_IT_TOO_SMALL);
	if (fault == SRP_LOGIN_OK)
		srp_model_check_accepted(&res, cmd_sg_cnt, max_desc, it_iu_len);
	return 0;
}
