/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the SRP data path writes, stated independently of proto.c, and what
 * an accepted SRP_LOGIN_RSP must therefore guarantee. The fuzzers check
 * srp_check_login_rsp() against it: a login it accepts must carry every
 * command the host was sized for (issue 16, finding 4).
 */
#ifndef FUZZ_SRP_MODEL_H
#define FUZZ_SRP_MODEL_H

#include <linux/kernel.h>

#include "fuzz.h"
#include "../../drivers/infiniband/ulp/srp/proto.h"

/*
 * The largest SRP_CMD srp_map_data() (srp/data.c) writes into a send IU
 * for a host with @cmd_sg_cnt descriptors in the IU and at most @max_desc
 * (>= 1) per command, to a target that took the formats @fmt: the 48-byte
 * header (the host's max_cmd_len is 16: no additional CDB), then one
 * direct descriptor if no command needs more and the target takes direct
 * ones, else an indirect header and the descriptors, at most @cmd_sg_cnt
 * of them in the IU (any more go to an external table). Immediate data
 * is left out: srp_can_imm() checks its room per command.
 */
static inline size_t srp_model_cmd_len(unsigned int cmd_sg_cnt,
				       unsigned int max_desc, u16 fmt)
{
	size_t len = sizeof(struct srp_iu_cmd) + sizeof(struct srp_direct_desc);
	unsigned int in_iu = min(max_desc, cmd_sg_cnt);

	if (max_desc > 1 || !(fmt & SRP_BUF_FMT_DIRECT))
		len = sizeof(struct srp_iu_cmd) +
		      sizeof(struct srp_indirect_desc) +
		      in_iu * sizeof(struct srp_direct_desc);
	return len;
}

/*
 * srp_check_login_rsp(@res, @cmd_sg_cnt, @max_desc, @it_iu_len) accepted
 * @res: the target must take every descriptor format the data path uses,
 * every SRP_CMD must fit in the send IU (allocated with @it_iu_len bytes)
 * and in what the target accepts, and each receive IU must stay small.
 */
static inline void srp_model_check_accepted(const struct srp_login_result *res,
					    unsigned int cmd_sg_cnt,
					    unsigned int max_desc,
					    u32 it_iu_len)
{
	u16 fmt = res->buf_fmt & (SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT);
	size_t cmd_len = srp_model_cmd_len(cmd_sg_cnt, max_desc, fmt);

	FUZZ_CHECK(fmt);
	if (max_desc > 1 || !(fmt & SRP_BUF_FMT_DIRECT))
		FUZZ_CHECK(fmt & SRP_BUF_FMT_INDIRECT);
	FUZZ_CHECK(cmd_len <= it_iu_len);
	FUZZ_CHECK(cmd_len <= res->max_it_iu_len);
	FUZZ_CHECK(res->max_ti_iu_len >= sizeof(struct srp_iu_rsp));
	FUZZ_CHECK(res->max_ti_iu_len <= SRP_MAX_TI_IU_LEN ||
		   res->max_ti_iu_len <= it_iu_len);
}

#endif /* FUZZ_SRP_MODEL_H */
