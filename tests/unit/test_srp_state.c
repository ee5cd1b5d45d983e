// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The decisions of an SRP channel's state, its keep-alive watch and the
 * rport's timeout watch (srp/state.c): when a failure counts and breaks a
 * login, when a channel is recovered alone, when the keep-alive watch
 * probes or fails a channel, and when the transport's timers are due.
 * Times are in jiffies, many of them across the wrap of the counter.
 */
#include <errno.h>
#include <limits.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>

#include "rdi_test.h"
#include "../../drivers/infiniband/ulp/srp/state.h"

/* A jiffies value that wraps within a minute. */
#define WRAP	(ULONG_MAX - 30 * HZ)

/* ---- channel state (channel.c) ---- */

/* Of several reporters of one failure, only the first acts. */
RDI_TEST(ch_down_first_reporter_only)
{
	enum srp_ch_login login = SRP_CH_LOGIN_NONE;
	bool connected = true;

	EXPECT(srp_ch_state_down(&connected, &login));
	EXPECT(!connected);
	EXPECT_EQ(login, SRP_CH_LOGIN_NONE);
	EXPECT(!srp_ch_state_down(&connected, &login));
	EXPECT(!connected);
	EXPECT_EQ(login, SRP_CH_LOGIN_NONE);
}

/*
 * A failure during a login breaks it: nobody acts on it (the channel was
 * not connected), and the login's srp_ch_mark_up() must refuse.
 */
RDI_TEST(ch_down_during_login_breaks_it)
{
	enum srp_ch_login login = SRP_CH_LOGIN_RUNNING;
	bool connected = false;

	EXPECT(!srp_ch_state_down(&connected, &login));
	EXPECT_EQ(login, SRP_CH_LOGIN_BROKEN);
	EXPECT(!srp_ch_state_up(&connected, &login));
	EXPECT(!connected);
	EXPECT_EQ(login, SRP_CH_LOGIN_NONE);
	/* The login ended: a later failure of the down channel breaks nothing. */
	EXPECT(!srp_ch_state_down(&connected, &login));
	EXPECT_EQ(login, SRP_CH_LOGIN_NONE);
}

RDI_TEST(ch_up_ends_a_running_login)
{
	enum srp_ch_login login = SRP_CH_LOGIN_RUNNING;
	bool connected = false;

	EXPECT(srp_ch_state_up(&connected, &login));
	EXPECT(connected);
	EXPECT_EQ(login, SRP_CH_LOGIN_NONE);
	/* Now connected, its next failure is acted on. */
	EXPECT(srp_ch_state_down(&connected, &login));
}

/* srp_ch_mark_up() without a login under way does not connect. */
RDI_TEST(ch_up_without_login_refused)
{
	enum srp_ch_login login = SRP_CH_LOGIN_NONE;
	bool connected = true;

	EXPECT(!srp_ch_state_up(&connected, &login));
	EXPECT(!connected);
}

/* srp_ch_login_abandon(): only a running login is broken (and woken). */
RDI_TEST(ch_login_break_only_running)
{
	enum srp_ch_login login;

	login = SRP_CH_LOGIN_RUNNING;
	EXPECT(srp_ch_login_break(&login));
	EXPECT_EQ(login, SRP_CH_LOGIN_BROKEN);
	EXPECT(!srp_ch_login_break(&login));
	EXPECT_EQ(login, SRP_CH_LOGIN_BROKEN);
	login = SRP_CH_LOGIN_NONE;
	EXPECT(!srp_ch_login_break(&login));
	EXPECT_EQ(login, SRP_CH_LOGIN_NONE);
}

/* srp_ch_failed(), srp_ch_retry_work(): one channel alone, or the rport. */
RDI_TEST(ch_recover_alone_only_with_a_live_irq_channel)
{
	EXPECT(srp_ch_recover_alone(true, 0));
	EXPECT(srp_ch_recover_alone(true, 3));
	/* No interrupt-driven channel up (polled ones do not count). */
	EXPECT(!srp_ch_recover_alone(true, -ENOTCONN));
	/* Target not live, or rport not running: the rport, channel or not. */
	EXPECT(!srp_ch_recover_alone(false, 0));
	EXPECT(!srp_ch_recover_alone(false, -ENOTCONN));
}

/* ---- keep-alive watch (keepalive.c), half = 5 s ---- */

#define HALF	(5 * HZ)

static enum srp_ka_step ka(unsigned long now, unsigned long seen,
			   unsigned long sent, bool probing,
			   unsigned long *delay)
{
	*delay = 12345;
	return srp_ka_check(now, seen, sent, probing, HALF, delay);
}

/* Idle for less than half a period: wait out the rest of it. */
RDI_TEST(ka_waits_until_half_idle)
{
	static const unsigned long base[] = { 1000, WRAP, ULONG_MAX - 1 };
	unsigned long delay, b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(base); i++) {
		b = base[i];
		EXPECT_EQ(ka(b, b, 0, false, &delay), SRP_KA_WAIT);
		EXPECT_EQ(delay, HALF);
		EXPECT_EQ(ka(b + HALF - 1, b, 0, false, &delay), SRP_KA_WAIT);
		EXPECT_EQ(delay, 1);
		EXPECT_EQ(ka(b + HALF, b, 0, false, &delay), SRP_KA_PROBE);
		EXPECT_EQ(delay, HALF);
	}
}

/*
 * A watch that runs late (the work queue was busy, the guest stalled)
 * posts the probe at once and gives it a full half period, not what was
 * left of the period since the last completion.
 */
RDI_TEST(ka_late_watch_probes_with_a_full_half)
{
	unsigned long delay;

	EXPECT_EQ(ka(1000 + 7 * HALF, 1000, 0, false, &delay), SRP_KA_PROBE);
	EXPECT_EQ(delay, HALF);
	EXPECT_EQ(ka(WRAP + 3 * HALF, WRAP, 0, false, &delay), SRP_KA_PROBE);
	EXPECT_EQ(delay, HALF);
}

/* The probe's answer is due half a period after it was posted. */
RDI_TEST(ka_probe_unanswered_expires)
{
	unsigned long delay, sent = WRAP + 10 * HZ, seen = WRAP;

	EXPECT_EQ(ka(sent + 1, seen, sent, true, &delay), SRP_KA_WAIT);
	EXPECT_EQ(delay, HALF - 1);
	EXPECT_EQ(ka(sent + HALF - 1, seen, sent, true, &delay), SRP_KA_WAIT);
	EXPECT_EQ(delay, 1);
	EXPECT_EQ(ka(sent + HALF, seen, sent, true, &delay), SRP_KA_EXPIRE);
	/* A late watch expires it too. */
	EXPECT_EQ(ka(sent + 9 * HALF, seen, sent, true, &delay),
		  SRP_KA_EXPIRE);
}

/* Anything that completed after the probe left shows a live path. */
RDI_TEST(ka_completion_after_probe_extends)
{
	unsigned long delay, sent = ULONG_MAX - HZ, seen = sent + 2 * HZ;

	EXPECT_EQ(ka(sent + HALF, seen, sent, true, &delay), SRP_KA_WAIT);
	EXPECT_EQ(delay, 2 * HZ);
	EXPECT_EQ(ka(seen + HALF, seen, sent, true, &delay), SRP_KA_EXPIRE);
}

/*
 * A completion before the probe left proves nothing about the path after
 * the post: the deadline counts from the post, not from @seen.
 */
RDI_TEST(ka_completion_before_probe_does_not_count)
{
	unsigned long delay, seen = WRAP, sent = WRAP + HALF + HZ;

	EXPECT_EQ(ka(sent + HALF - 1, seen, sent, true, &delay), SRP_KA_WAIT);
	EXPECT_EQ(delay, 1);
	EXPECT_EQ(ka(sent + HALF, seen, sent, true, &delay), SRP_KA_EXPIRE);
}

/* A probe in flight is never posted again, however long it has been. */
RDI_TEST(ka_no_second_probe_while_probing)
{
	unsigned long delay, t;

	for (t = 0; t < 4 * HALF; t += HZ / 2)
		EXPECT(ka(WRAP + t, WRAP, WRAP, true, &delay) != SRP_KA_PROBE);
}

/*
 * When the watch decides to wait, it waits at least a jiffy and no more
 * than half a period after the last sign of life (a silent path is noticed
 * within one period), across the wrap.
 */
RDI_TEST(ka_delay_bounded)
{
	unsigned long now, delay, seen = ULONG_MAX - HALF / 2;
	long d;
	int probing;

	for (probing = 0; probing < 2; probing++)
		for (d = 0; d <= 2 * HALF; d += HZ / 10) {
			now = seen + d;
			if (ka(now, seen, seen, probing, &delay) ==
			    SRP_KA_EXPIRE)
				continue;
			EXPECT(delay >= 1 && delay <= HALF);
		}
}

/* ---- timeout watch (rport.c) ---- */

RDI_TEST(tmo_left_counts_from_since)
{
	EXPECT_EQ(srp_tmo_left(1000, 10, 1000), 10 * HZ);
	EXPECT_EQ(srp_tmo_left(1000, 10, 1000 + 10 * HZ - 1), 1);
	EXPECT_EQ(srp_tmo_left(1000, 10, 1000 + 10 * HZ), 0);
	EXPECT_EQ(srp_tmo_left(1000, 10, 1000 + 600 * HZ), 0);
	/* A timeout of 0 is due at once. */
	EXPECT_EQ(srp_tmo_left(1000, 0, 1000), 0);
	/* Across the wrap of jiffies. */
	EXPECT_EQ(srp_tmo_left(WRAP, 60, WRAP + 45 * HZ), 15 * HZ);
	EXPECT_EQ(srp_tmo_left(WRAP, 60, WRAP + 61 * HZ), 0);
	/* Seconds are not truncated to an int's worth of jiffies. */
	EXPECT_EQ(srp_tmo_left(WRAP, 600, WRAP), 600UL * HZ);
}

/*
 * The timer wheel fires a 17..131 s delayed work up to 2 s late: the watch
 * queues fast_io_fail_work and dev_loss_work again once within 2 s of their
 * expiry, and not before: queued earlier it could be late again.
 */
RDI_TEST(tmo_reaim_within_two_seconds)
{
	static const unsigned long base[] = { 1000, WRAP };
	unsigned long b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(base); i++) {
		b = base[i];
		EXPECT(!srp_tmo_reaim(b, 60, b));
		EXPECT(!srp_tmo_reaim(b, 60, b + 58 * HZ - 1));
		EXPECT(srp_tmo_reaim(b, 60, b + 58 * HZ));
		EXPECT(srp_tmo_reaim(b, 60, b + 60 * HZ - 1));
		/* Past, and running late: at once. */
		EXPECT(srp_tmo_reaim(b, 60, b + 62 * HZ));
		/* Short timeouts are within 2 s from the start. */
		EXPECT(srp_tmo_reaim(b, 2, b));
		EXPECT(!srp_tmo_reaim(b, 3, b));
		EXPECT(srp_tmo_reaim(b, 0, b));
	}
}

/* "off" is never aimed, however long the rport is blocked. */
RDI_TEST(tmo_reaim_off)
{
	unsigned long t;

	for (t = 0; t < 200 * HZ; t += HZ / 2) {
		EXPECT(!srp_tmo_reaim(1000, -1, 1000 + t));
		EXPECT(!srp_tmo_reaim(WRAP, -1, WRAP + t));
	}
}

#define FULL	(20 * HZ)

/* A reconnect's logins give up when the next of the timers is due. */
RDI_TEST(tmo_login_timeout_next_timer)
{
	/* Both off: the login's own timeout. */
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, -1, -1, WRAP + 5 * HZ),
		  FULL);
	/* Far away: the login's own timeout. */
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, 60, 600, WRAP), FULL);
	/* fast_io_fail_tmo is next. */
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, 15, 600, WRAP + 5 * HZ),
		  10 * HZ);
	/* dev_loss_tmo is next (fast_io_fail off, or ran: -1). */
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, -1, 40, WRAP + 30 * HZ),
		  10 * HZ);
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, 35, 40, WRAP + 30 * HZ),
		  5 * HZ);
}

/* ... but wait a second at least: a timer already due, or 0, gets 1 s. */
RDI_TEST(tmo_login_timeout_at_least_a_second)
{
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, 5, 600, WRAP + 5 * HZ - 1),
		  HZ);
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, 5, 600, WRAP + 9 * HZ),
		  HZ);
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, 0, 0, WRAP), HZ);
	EXPECT_EQ(srp_tmo_login_timeout(FULL, WRAP, -1, 30, WRAP + 40 * HZ),
		  HZ);
}

RDI_TEST_MAIN();
