/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: the decisions of a channel's state, its keep-alive watch and the
 * rport's timeout watch: pure logic, compiled in the kernel and, against
 * tests/unit/shim, by tests/unit/test_srp_state.c.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_STATE_H
#define IB_SRP_STATE_H

#include <linux/types.h>

/**
 * enum srp_ch_login - a channel's login, between request and connected
 * @SRP_CH_LOGIN_NONE:    no login under way
 * @SRP_CH_LOGIN_RUNNING: the login request went out; the channel is not
 *                        connected yet, but its QP may be live
 * @SRP_CH_LOGIN_BROKEN:  the channel failed while logging in (the target
 *                        disconnected or logged out, a completion failed,
 *                        a credit grant was wrong): that login must fail,
 *                        since nobody else will act on the failure
 *
 * The reporters of a failure act only on a connected channel
 * (srp_ch_mark_down()); one that fails before it is connected is the
 * login's to handle.
 */
enum srp_ch_login {
	SRP_CH_LOGIN_NONE,
	SRP_CH_LOGIN_RUNNING,
	SRP_CH_LOGIN_BROKEN,
};

/**
 * enum srp_ka_step - what a channel's keep-alive watch does now
 * @SRP_KA_WAIT:   the path showed life recently enough: look again later
 * @SRP_KA_PROBE:  nothing completed for half a keep-alive period: post a
 *                 probe
 * @SRP_KA_EXPIRE: neither the probe nor anything else completed for half a
 *                 period after it was posted: fail the channel
 */
enum srp_ka_step {
	SRP_KA_WAIT,
	SRP_KA_PROBE,
	SRP_KA_EXPIRE,
};

bool srp_ch_login_break(enum srp_ch_login *login);
bool srp_ch_state_down(bool *connected, enum srp_ch_login *login);
bool srp_ch_state_up(bool *connected, enum srp_ch_login *login);
bool srp_ch_recover_alone(bool live_target, int live_irq);
enum srp_ka_step srp_ka_check(unsigned long now, unsigned long seen,
			      unsigned long sent, bool probing,
			      unsigned long half, unsigned long *delay);
unsigned long srp_tmo_left(unsigned long since, int tmo, unsigned long now);
bool srp_tmo_reaim(unsigned long since, int tmo, unsigned long now);
unsigned long srp_tmo_login_timeout(unsigned long full, unsigned long since,
				    int fast_io_fail_tmo, int dev_loss_tmo,
				    unsigned long now);

#endif /* IB_SRP_STATE_H */
