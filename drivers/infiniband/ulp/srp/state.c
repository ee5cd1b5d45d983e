// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: when a channel counts as connected and its login as broken,
 * whether a failed channel is recovered alone, when the keep-alive watch
 * probes or fails a channel, and when the rport's timeout watch moves the
 * transport's timers.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/jiffies.h>
#include <linux/kernel.h>

#include "state.h"

/**
 * srp_ch_login_break() - a failure of a channel that is logging in
 * @login: where the channel's login stands; updated
 *
 * A login under way becomes %SRP_CH_LOGIN_BROKEN, so that it fails; any
 * other state is left as it is.
 *
 * Return: true when a login was under way (its waiter must be woken).
 */
bool srp_ch_login_break(enum srp_ch_login *login)
{
	if (*login != SRP_CH_LOGIN_RUNNING)
		return false;
	*login = SRP_CH_LOGIN_BROKEN;
	return true;
}

/**
 * srp_ch_state_down() - a failure was reported on a channel
 * @connected: whether the channel is connected; cleared
 * @login:     where its login stands; a login under way is broken
 *
 * Of several reporters of one failure, only the first sees the channel
 * connected and acts on it; a failure during a login breaks the login
 * instead, which srp_ch_state_up() then refuses.
 *
 * Return: whether the channel was connected.
 */
bool srp_ch_state_down(bool *connected, enum srp_ch_login *login)
{
	bool was_connected = *connected;

	*connected = false;
	srp_ch_login_break(login);
	return was_connected;
}

/**
 * srp_ch_state_up() - a login succeeded: the channel is connected, unless
 *	it failed meanwhile
 * @connected: set to whether the channel is connected now
 * @login:     where its login stands; the login ends (%SRP_CH_LOGIN_NONE)
 *
 * Return: true when the login was still running, false when a failure
 * broke it (or none was under way): the channel stays disconnected.
 */
bool srp_ch_state_up(bool *connected, enum srp_ch_login *login)
{
	bool up = *login == SRP_CH_LOGIN_RUNNING;

	*login = SRP_CH_LOGIN_NONE;
	*connected = up;
	return up;
}

/**
 * srp_ch_recover_alone() - is a failed channel recovered on its own
 * @live_target: the target is live and its rport running
 * @live_irq:    index of a connected interrupt-driven channel of the
 *               target, negative when there is none
 *
 * A channel is torn down and logged in again on its own, while the others
 * carry its I/O, only when the target is live, its rport running and an
 * interrupt-driven channel still up (polled channels cannot take what the
 * others carry); otherwise the whole rport is recovered.
 *
 * Return: true to recover the channel alone, false to recover the rport.
 */
bool srp_ch_recover_alone(bool live_target, int live_irq)
{
	return live_target && live_irq >= 0;
}

/**
 * srp_ka_check() - what the keep-alive watch of a connected channel does
 * @now:     jiffies now
 * @seen:    jiffies of the channel's last successful completion
 * @sent:    with @probing: jiffies when the probe in flight was posted
 * @probing: a probe is in flight
 * @half:    half the keep-alive period, in jiffies; not 0
 * @delay:   set to the jiffies until the watch looks again: with
 *           %SRP_KA_WAIT until the deadline it waits for, with
 *           %SRP_KA_PROBE a full @half for the probe's answer
 *
 * Without a probe in flight, one is due once nothing has completed for
 * @half. With one, the channel has failed once neither the probe nor
 * anything else completed for @half after the later of the post and the
 * last completion: the path was known to work only up to the post. A watch
 * that runs late acts at once and gives a probe it posts a full @half.
 *
 * Return: the step to take, see &enum srp_ka_step.
 */
enum srp_ka_step srp_ka_check(unsigned long now, unsigned long seen,
			      unsigned long sent, bool probing,
			      unsigned long half, unsigned long *delay)
{
	unsigned long next;

	if (probing) {
		next = (time_after(seen, sent) ? seen : sent) + half;
		if (!time_before(now, next))
			return SRP_KA_EXPIRE;
	} else {
		next = seen + half;
		if (!time_before(now, next)) {
			*delay = half;
			return SRP_KA_PROBE;
		}
	}
	*delay = next - now;
	return SRP_KA_WAIT;
}

/**
 * srp_tmo_left() - time left until a timeout of the rport expires
 * @since: jiffies when the timeout started (the rport was blocked, or the
 *         last reconnect attempt)
 * @tmo:   the timeout in seconds, not negative
 * @now:   jiffies now
 *
 * Return: the jiffies from @now until @tmo seconds after @since, 0 once
 * that is past.
 */
unsigned long srp_tmo_left(unsigned long since, int tmo, unsigned long now)
{
	unsigned long expiry = since + (unsigned long)tmo * HZ;

	return time_after(expiry, now) ? expiry - now : 0;
}

/**
 * srp_tmo_reaim() - is a transport timer due to be queued again for its
 *	exact expiry
 * @since: jiffies when the timeout started
 * @tmo:   the timeout in seconds, negative when off
 * @now:   jiffies now
 *
 * The timer wheel lets a delayed work fire late by up to an eighth of its
 * delay: a dev_loss_tmo of 17 to 131 s at HZ=250 by up to 2 s. Queued
 * again within two seconds of its expiry, the work is late by 8 jiffies at
 * most.
 *
 * Return: true when the timeout is on and expires within two seconds (or
 * already expired).
 */
bool srp_tmo_reaim(unsigned long since, int tmo, unsigned long now)
{
	return tmo >= 0 && srp_tmo_left(since, tmo, now) <= 2 * HZ;
}

/**
 * srp_tmo_login_timeout() - how long a reconnect's login waits, while the
 *	rport is in trouble
 * @full:             the login's own timeout, in jiffies
 * @since:            jiffies when the rport was blocked
 * @fast_io_fail_tmo: fast_io_fail_tmo in seconds, negative when off or when
 *                    the rport is no longer blocked (its timer ran)
 * @dev_loss_tmo:     dev_loss_tmo in seconds, negative when off
 * @now:              jiffies now
 *
 * The transport's fast_io_fail and dev_loss timers need the rport mutex a
 * reconnect attempt holds, so its logins give up by the time the next of
 * them is due, after a second at least.
 *
 * Return: the timeout in jiffies.
 */
unsigned long srp_tmo_login_timeout(unsigned long full, unsigned long since,
				    int fast_io_fail_tmo, int dev_loss_tmo,
				    unsigned long now)
{
	unsigned long left = full;

	if (fast_io_fail_tmo >= 0)
		left = min(left, srp_tmo_left(since, fast_io_fail_tmo, now));
	if (dev_loss_tmo >= 0)
		left = min(left, srp_tmo_left(since, dev_loss_tmo, now));
	return max_t(unsigned long, left, HZ);
}
