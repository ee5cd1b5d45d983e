// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * An SRP channel's credits (srp/proto.c): what srp_get_tx_iu() takes for
 * each kind of send, what srp_put_tx_iu() gives back, and what the
 * REQUEST LIMIT DELTA of a response, SRP_CRED_REQ or SRP_AER_REQ does to
 * the count (srp_add_credits()), a target that lies included.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <linux/kernel.h>

#include "rdi_test.h"
#include "../../drivers/infiniband/ulp/srp/proto.h"

RDI_TEST(credit_command_leaves_the_tmf_credit)
{
	s32 v = -1;

	EXPECT_EQ(srp_credit_take(64, SRP_TX_CMD, &v), 0);
	EXPECT_EQ(v, 63);
	EXPECT_EQ(srp_credit_take(2, SRP_TX_CMD, &v), 0);
	EXPECT_EQ(v, 1);
	EXPECT_EQ(srp_credit_take(1, SRP_TX_CMD, &v), -EAGAIN);
	EXPECT_EQ(v, 1);
	EXPECT_EQ(srp_credit_take(0, SRP_TX_CMD, &v), -EAGAIN);
	EXPECT_EQ(v, 0);
}

RDI_TEST(credit_tmf_takes_the_last_one)
{
	s32 v = -1;

	EXPECT_EQ(srp_credit_take(1, SRP_TX_TMF, &v), 0);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(srp_credit_take(0, SRP_TX_TMF, &v), -EAGAIN);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(srp_credit_take(INT_MAX, SRP_TX_TMF, &v), 0);
	EXPECT_EQ(v, INT_MAX - 1);
}

/* SRP_CRED_RSP, SRP_AER_RSP, SRP_I_LOGOUT: sent at zero credits too. */
RDI_TEST(credit_answers_take_none)
{
	s32 v = -1;

	EXPECT_EQ(srp_credit_take(0, SRP_TX_RSP, &v), 0);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(srp_credit_take(5, SRP_TX_RSP, &v), 0);
	EXPECT_EQ(v, 5);
	EXPECT_EQ(srp_credit_refund(5, SRP_TX_RSP), 5);
}

RDI_TEST(credit_refund_gives_back_what_was_taken)
{
	s32 v, use;

	for (use = SRP_TX_CMD; use <= SRP_TX_RSP; use++) {
		EXPECT_EQ(srp_credit_take(7, use, &v), 0);
		EXPECT_EQ(srp_credit_refund(v, use), 7);
	}
	/* a grant filled the count while the IU was out: no wrap */
	EXPECT_EQ(srp_credit_refund(INT_MAX, SRP_TX_CMD), INT_MAX);
	EXPECT_EQ(srp_credit_refund(INT_MAX, SRP_TX_TMF), INT_MAX);
	EXPECT_EQ(srp_credit_refund(INT_MAX - 1, SRP_TX_CMD), INT_MAX);
}

/*
 * A channel logged in with 64 credits and a queue of 64 commands: 63 go,
 * the 64th waits, a TMF still goes; each SRP_RSP grants one back.
 */
RDI_TEST(credit_channel_at_full_queue)
{
	s32 lim = 64, v;
	int sent = 0, i;

	while (!srp_credit_take(lim, SRP_TX_CMD, &v)) {
		lim = v;
		sent++;
	}
	EXPECT_EQ(sent, 63);
	EXPECT_EQ(lim, 1);
	EXPECT_EQ(srp_credit_take(lim, SRP_TX_TMF, &v), 0);
	lim = v;
	EXPECT_EQ(lim, 0);
	for (i = 0; i < sent + 1; i++) {
		EXPECT_EQ(srp_credit_update(lim, 1, &v), 0);
		lim = v;
	}
	EXPECT_EQ(lim, 64);
}

/*
 * A target that lies: a grant of 2^31 - 1 saturates and the channel goes
 * on; one that takes back more than it gave is refused (the driver
 * reconnects), and no sequence of sends, refunds and grants ever leaves
 * 0..INT_MAX or lets a command take the TMF credit.
 */
RDI_TEST(credit_lying_target_never_wraps_the_count)
{
	static const s32 deltas[] = { 0x7fffffff, 1, INT_MIN, -1, -64,
				      0x40000000, -0x40000000, 0, 31 };
	unsigned int seed = 1, i;
	s32 lim = 31, v;
	int ret;

	EXPECT_EQ(srp_credit_update(lim, 0x7fffffff, &v), -EOVERFLOW);
	lim = v;
	EXPECT_EQ(srp_credit_take(lim, SRP_TX_CMD, &v), 0);
	EXPECT_EQ(srp_credit_update(v, 0x7fffffff, &v), -EOVERFLOW);
	EXPECT_EQ(srp_credit_refund(v, SRP_TX_CMD), INT_MAX);
	EXPECT_EQ(srp_credit_update(31, -32, &v), -ERANGE);
	EXPECT_EQ(v, 0);

	for (i = 0; i < 100000; i++) {
		seed = seed * 1103515245 + 12345;
		switch ((seed >> 16) % 4) {
		case 0:
			ret = srp_credit_take(lim, (seed >> 8) % 3, &v);
			if (!ret && (seed >> 8) % 3 == SRP_TX_CMD &&
			    v < SRP_TSK_MGMT_SQ_SIZE)
				goto bad;
			break;
		case 1:
			v = srp_credit_refund(lim, (seed >> 8) % 3);
			break;
		default:
			ret = srp_credit_update(lim,
						deltas[(seed >> 20) %
						       ARRAY_SIZE(deltas)], &v);
			if (ret == -ERANGE)
				v = 31;	/* the driver logs in again */
			break;
		}
		lim = v;
		if (lim < 0)
			goto bad;
	}
	return;
bad:
	fprintf(stderr, "  step %u: count %d\n", i, v);
	*failed = 1;
}

RDI_TEST_MAIN();
