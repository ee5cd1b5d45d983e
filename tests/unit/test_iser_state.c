// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The state of an iSER connection and the invalidation hold (iser/state.c):
 * which state changes iser_set_state() lets through, and when a received
 * PDU may reach libiscsi, given the rkey of the command it answers.
 */
#include <linux/kernel.h>

#include "rdi_test.h"
#include "../../drivers/infiniband/ulp/iser/state.h"

#define NSTATES	(ISER_CONN_DOWN + 1)

/* Every change a caller makes, and who makes it. */
static const struct {
	enum iser_conn_state old, new;
	const char *who;
} legal[] = {
	{ ISER_CONN_CONNECTING, ISER_CONN_UP, "iser_established" },
	{ ISER_CONN_CONNECTING, ISER_CONN_FAILED, "iser_cm_fail" },
	{ ISER_CONN_FAILED, ISER_CONN_FAILED, "iser_conn_terminate" },
	{ ISER_CONN_UP, ISER_CONN_TERMINATING, "iser_cm_handler" },
	{ ISER_CONN_FAILED, ISER_CONN_DOWN, "iser_conn_terminate" },
	{ ISER_CONN_UP, ISER_CONN_DOWN, "iser_conn_terminate" },
	{ ISER_CONN_TERMINATING, ISER_CONN_DOWN, "iser_conn_terminate" },
};

static int is_legal(enum iser_conn_state old, enum iser_conn_state new)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(legal); i++)
		if (legal[i].old == old && legal[i].new == new)
			return 1;
	return 0;
}

RDI_TEST(conn_state_callers_changes_are_legal)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(legal); i++)
		if (!iser_conn_state_change_ok(legal[i].old, legal[i].new)) {
			fprintf(stderr, "  %s: %s -> %s refused\n", legal[i].who,
				iser_conn_state_name(legal[i].old),
				iser_conn_state_name(legal[i].new));
			*failed = 1;
		}
}

/* All 25 pairs: exactly the 7 above pass. */
RDI_TEST(conn_state_every_other_change_is_refused)
{
	int old, new, n = 0;

	for (old = 0; old < NSTATES; old++)
		for (new = 0; new < NSTATES; new++) {
			int ok = iser_conn_state_change_ok(old, new);

			n += ok;
			if (ok != is_legal(old, new)) {
				fprintf(stderr, "  %s -> %s: %s, want %s\n",
					iser_conn_state_name(old),
					iser_conn_state_name(new),
					ok ? "legal" : "refused",
					ok ? "refused" : "legal");
				*failed = 1;
			}
		}
	EXPECT_EQ(n, ARRAY_SIZE(legal));
}

/* DOWN is final, nothing goes back to CONNECTING, no value outside the enum. */
RDI_TEST(conn_state_down_is_final)
{
	int s;

	for (s = 0; s < NSTATES; s++) {
		EXPECT(!iser_conn_state_change_ok(ISER_CONN_DOWN, s));
		EXPECT(!iser_conn_state_change_ok(s, ISER_CONN_CONNECTING));
		EXPECT(!iser_conn_state_change_ok(s, NSTATES));
		EXPECT(!iser_conn_state_change_ok(NSTATES, s));
	}
	/* an attempt is failed first, never dropped to DOWN directly */
	EXPECT(!iser_conn_state_change_ok(ISER_CONN_CONNECTING,
					  ISER_CONN_DOWN));
	/* a connection that was up never "fails to connect" */
	EXPECT(!iser_conn_state_change_ok(ISER_CONN_UP, ISER_CONN_FAILED));
	EXPECT(!iser_conn_state_change_ok(ISER_CONN_TERMINATING,
					  ISER_CONN_UP));
}

/*
 * The lives a connection has, step by step as ep.c and conn.c take them;
 * iser_conn_terminate() is the FAILED, DOWN pair after a failed attempt.
 */
RDI_TEST(conn_state_lives)
{
	static const struct {
		unsigned int n;
		enum iser_conn_state s[4];
	} lives[] = {
		/* connected, CM reports it gone, iscsid disconnects */
		{ 4, { ISER_CONN_CONNECTING, ISER_CONN_UP,
		       ISER_CONN_TERMINATING, ISER_CONN_DOWN } },
		/* connected, stopped by iscsid */
		{ 3, { ISER_CONN_CONNECTING, ISER_CONN_UP, ISER_CONN_DOWN } },
		/* rejected, then ep_disconnect */
		{ 4, { ISER_CONN_CONNECTING, ISER_CONN_FAILED,
		       ISER_CONN_FAILED, ISER_CONN_DOWN } },
		/* ep_disconnect during resolution */
		{ 3, { ISER_CONN_CONNECTING, ISER_CONN_FAILED,
		       ISER_CONN_DOWN } },
	};
	unsigned int l, i;

	for (l = 0; l < ARRAY_SIZE(lives); l++)
		for (i = 1; i < lives[l].n; i++)
			if (!iser_conn_state_change_ok(lives[l].s[i - 1],
						       lives[l].s[i])) {
				fprintf(stderr, "  life %u: step %u refused\n",
					l, i);
				*failed = 1;
			}
}

RDI_TEST(conn_state_names)
{
	EXPECT(!strcmp(iser_conn_state_name(ISER_CONN_CONNECTING),
		       "CONNECTING"));
	EXPECT(!strcmp(iser_conn_state_name(ISER_CONN_UP), "UP"));
	EXPECT(!strcmp(iser_conn_state_name(ISER_CONN_FAILED), "FAILED"));
	EXPECT(!strcmp(iser_conn_state_name(ISER_CONN_TERMINATING),
		       "TERMINATING"));
	EXPECT(!strcmp(iser_conn_state_name(ISER_CONN_DOWN), "DOWN"));
	EXPECT(!strcmp(iser_conn_state_name(NSTATES), "?"));
}

/* A SCSI Response for a sent command whose rkey the target still holds. */
static const struct iser_inv_facts rsp = {
	.completes = true,
	.negotiated = true,
	.task = true,
	.registered = true,
	.sent = true,
	.inv = ISER_INV_NONE,
};

/* The hold: without Send with Invalidate the PDU waits for our LOCAL_INV. */
RDI_TEST(inv_completion_waits_for_local_inv)
{
	struct iser_inv_facts f = rsp;

	EXPECT_EQ(iser_inv_check(&f), ISER_INV_HOLD);
	f.negotiated = false;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_HOLD);
	/* once the LOCAL_INV completed (iser_rx_inv_done()) it goes */
	f.inv = ISER_INV_DONE;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_DELIVER);
}

RDI_TEST(inv_remote_invalidation_of_its_rkey)
{
	struct iser_inv_facts f = rsp;

	f.remote = true;
	f.rkey_match = true;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_REMOTE_DONE);
	f.negotiated = false;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_NOT_NEGOTIATED);
}

/* A target that lies about what it invalidated fails the connection. */
RDI_TEST(inv_remote_invalidation_of_anything_else)
{
	struct iser_inv_facts f = rsp;

	f.remote = true;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_WRONG_RKEY);	/* other rkey */
	f.rkey_match = true;
	f.completes = false;	/* a Data-In without status */
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_WRONG_RKEY);
	f.completes = true;
	f.task = false;		/* an ITT of no command */
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_WRONG_RKEY);
	f.task = true;
	f.registered = false;	/* a command that handed out no rkey */
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_WRONG_RKEY);
	f.registered = true;
	f.sent = false;		/* one whose rkey the target was never sent */
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_WRONG_RKEY);
}

/* issue 32 item 1: a second completion while the first is held. */
RDI_TEST(inv_second_completion_while_held)
{
	struct iser_inv_facts f = rsp;

	f.inv = ISER_INV_POSTED;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_TWICE);
	f.remote = true;
	f.rkey_match = true;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_TWICE);
	/* a Data-In without status in the meantime completes nothing */
	f.remote = false;
	f.completes = false;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_DELIVER);
}

RDI_TEST(inv_answer_after_tmf_ended_it)
{
	struct iser_inv_facts f = rsp;

	f.tmf_ended = true;
	f.inv = ISER_INV_DONE;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_AFTER_TMF);
	f.completes = false;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_AFTER_TMF);
}

/* Nothing of the target's to take away: delivered at once. */
RDI_TEST(inv_nothing_to_invalidate)
{
	struct iser_inv_facts f = rsp;

	f.registered = false;	/* immediate data only, or no data */
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_DELIVER);
	f.registered = true;
	f.sent = false;
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_DELIVER);
	f.sent = true;
	f.task = false;		/* libiscsi judges an unknown ITT */
	EXPECT_EQ(iser_inv_check(&f), ISER_INV_DELIVER);
}

/*
 * Every combination of the facts: a PDU that completes a command whose
 * rkey the target may still use is never delivered, unless the target
 * invalidated that very rkey by agreement; and a hold is only ever taken
 * for such a PDU, once.
 */
RDI_TEST(inv_never_delivers_with_a_live_rkey)
{
	unsigned int bits, inv, n = 0;

	for (bits = 0; bits < 1u << 8; bits++)
		for (inv = ISER_INV_NONE; inv <= ISER_INV_DONE; inv++) {
			struct iser_inv_facts f = {
				.completes = bits & 1,
				.remote = bits & 2,
				.negotiated = bits & 4,
				.task = bits & 8,
				.registered = bits & 16,
				.sent = bits & 32,
				.tmf_ended = bits & 64,
				.rkey_match = bits & 128,
				.inv = inv,
			};
			enum iser_inv_step s = iser_inv_check(&f);
			int live = f.completes && f.task && f.registered &&
				   f.sent && inv != ISER_INV_DONE;
			int remote_ok = f.remote && f.negotiated &&
					f.rkey_match;

			n++;
			if (live && s == ISER_INV_DELIVER)
				goto bad;
			if (s == ISER_INV_REMOTE_DONE &&
			    (!live || !remote_ok || inv != ISER_INV_NONE))
				goto bad;
			if (s == ISER_INV_HOLD &&
			    (!live || f.remote || inv != ISER_INV_NONE))
				goto bad;
			continue;
bad:
			fprintf(stderr, "  facts %#x inv %u: step %d\n",
				bits, inv, s);
			*failed = 1;
		}
	EXPECT_EQ(n, 768);
}

RDI_TEST_MAIN();
