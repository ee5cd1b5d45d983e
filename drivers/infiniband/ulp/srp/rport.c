// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: glue to scsi_transport_srp - rports, reconnect, fail-fast, delete.
 *
 * The transport class owns the rport state machine and its timers
 * (reconnect_delay, fast_io_fail_tmo, dev_loss_tmo) and calls back here:
 * ->reconnect with the rport mutex held, ->terminate_rport_io when I/O must
 * fail fast, ->rport_delete when "delete" is written or dev_loss_tmo fires.
 * What it does not do, applying a new timeout to a timer already running,
 * is done here by a watch that runs while the rport is in trouble.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <scsi/scsi_host.h>
#include <scsi/scsi_transport_srp.h>

#include "channel.h"
#include "login.h"
#include "cmd.h"
#include "rport.h"

/*
 * Timeouts changed while a recovery runs.
 *
 * scsi_transport_srp arms fast_io_fail_work and dev_loss_work once, when
 * the rport is blocked, with the values of that moment; a later write to
 * fast_io_fail_tmo or dev_loss_tmo only changes the value used at the next
 * failure. Its reconnect_delay store starts and stops reconnect_work (off
 * <-> on) but leaves a pending attempt at its old period. While the rport
 * is blocked or failing fast, the watch compares the attributes every
 * second with the values the timers run with and moves the timers to the
 * new expiry: fast_io_fail_tmo and dev_loss_tmo count from when the rport
 * was blocked, reconnect_delay from the last attempt; an expiry already in
 * the past fires at once, "off" cancels.
 *
 * The timers are delayed works, which the timer wheel lets fire late by up
 * to an eighth of their delay: a dev_loss_tmo of 17 to 131 s at HZ=250
 * by up to 2 s (the wheel's 512-jiffy level). Within two seconds of its
 * expiry the watch queues fast_io_fail_work and dev_loss_work again for
 * that expiry, which so short a delay keeps to 8 jiffies (srp_tmo_aim()).
 *
 * Everything happens under the rport mutex, which the transport's timer
 * handlers and srp_reconnect_rport() take too, and a timer is only moved
 * when cancel_delayed_work() took it off the queue: one that already
 * started is left alone, so none runs twice.
 */

static bool srp_rport_in_trouble(struct srp_rport *rport)
{
	return rport->state == SRP_RPORT_BLOCKED ||
	       rport->state == SRP_RPORT_FAIL_FAST;
}

static void srp_tmo_queue(struct delayed_work *dw, unsigned long since,
			  int tmo)
{
	queue_delayed_work(system_long_wq, dw, srp_tmo_left(since, tmo, jiffies));
}

/* Queue @dw again for its exact expiry once that is within two seconds. */
static void srp_tmo_aim(struct delayed_work *dw, unsigned long since, int tmo)
{
	if (!srp_tmo_reaim(since, tmo, jiffies))
		return;
	if (cancel_delayed_work(dw))
		srp_tmo_queue(dw, since, tmo);
}

/* Called with the rport mutex held. */
static void __srp_tmo_watch_start(struct srp_target *target)
{
	struct srp_rport *rport = target->rport;
	struct srp_tmo_watch *w = &target->tmo;

	lockdep_assert_held(&rport->mutex);
	if (!srp_rport_in_trouble(rport))
		return;
	if (!w->active) {
		w->active = true;
		w->since = jiffies;
		w->last_attempt = w->since;
		w->reconnect_delay = rport->reconnect_delay;
		w->fast_io_fail_tmo = rport->fast_io_fail_tmo;
		w->dev_loss_tmo = rport->dev_loss_tmo;
	}
	queue_delayed_work(system_long_wq, &w->work, HZ);
}

/* Watch the timeouts of a recovery just started; takes the rport mutex. */
static void srp_tmo_watch_start(struct srp_target *target)
{
	struct srp_rport *rport = target->rport;

	mutex_lock(&rport->mutex);
	__srp_tmo_watch_start(target);
	mutex_unlock(&rport->mutex);
}

static void srp_tmo_apply(struct srp_target *target)
{
	struct srp_rport *rport = target->rport;
	struct srp_tmo_watch *w = &target->tmo;
	int v;

	v = rport->reconnect_delay;
	if (v != w->reconnect_delay) {
		/* Off <-> on is the transport's own store's business. */
		if (v > 0 && w->reconnect_delay > 0 &&
		    cancel_delayed_work(&rport->reconnect_work))
			srp_tmo_queue(&rport->reconnect_work, w->last_attempt, v);
		w->reconnect_delay = v;
	}

	v = rport->fast_io_fail_tmo;
	if (v != w->fast_io_fail_tmo && rport->state == SRP_RPORT_BLOCKED) {
		/* Its handler does nothing unless the rport is still blocked. */
		if (w->fast_io_fail_tmo >= 0)
			cancel_delayed_work(&rport->fast_io_fail_work);
		if (v >= 0)
			srp_tmo_queue(&rport->fast_io_fail_work, w->since, v);
		w->fast_io_fail_tmo = v;
	}

	v = rport->dev_loss_tmo;
	if (v != w->dev_loss_tmo) {
		/* Its handler must run at most once: it deletes the rport. */
		if ((w->dev_loss_tmo < 0 ||
		     cancel_delayed_work(&rport->dev_loss_work)) && v >= 0)
			srp_tmo_queue(&rport->dev_loss_work, w->since, v);
		w->dev_loss_tmo = v;
	}

	if (rport->state == SRP_RPORT_BLOCKED)
		srp_tmo_aim(&rport->fast_io_fail_work, w->since,
			    w->fast_io_fail_tmo);
	srp_tmo_aim(&rport->dev_loss_work, w->since, w->dev_loss_tmo);
}

/*
 * Apply timeout changes to the running timers; requeues itself every
 * second until the rport is running again or lost.
 */
static void srp_tmo_watch_work(struct work_struct *work)
{
	struct srp_target *target = container_of(to_delayed_work(work),
						 struct srp_target, tmo.work);
	struct srp_rport *rport = target->rport;
	struct srp_tmo_watch *w = &target->tmo;

	mutex_lock(&rport->mutex);
	if (w->active && srp_rport_in_trouble(rport)) {
		srp_tmo_apply(target);
		queue_delayed_work(system_long_wq, &w->work, HZ);
	} else {
		w->active = false;
	}
	mutex_unlock(&rport->mutex);
}

/*
 * Transport recovery of the whole rport: block it and start its timers
 * (fast_io_fail_tmo, dev_loss_tmo, reconnect_delay), then watch them.
 */
static void srp_tl_err_work(struct work_struct *work)
{
	struct srp_target *target = container_of(work, struct srp_target,
						 tl_err_work);

	/* Before the rport exists a failure just fails the login. */
	if (READ_ONCE(target->rport)) {
		srp_start_tl_fail_timers(target->rport);
		srp_tmo_watch_start(target);
	}
}

/**
 * srp_removal_fail() - fail what a target being removed still waits for
 * @target: the target; &srp_target.state is %SRP_TARGET_REMOVED
 * @lost:   the path was found dead (&srp_ch_ops.lost): every channel goes
 *
 * The removal removes the SCSI devices first (srp_remove_work()), and
 * that waits for every command outstanding. A target being removed is not
 * recovered, so a command on a channel that went down, whose answer can
 * never come, would otherwise hold the removal until its SCSI timeout
 * and the error handler's failed host reset (30.5 s in the lab). The
 * removal's fail work (srp_removal_fail_work()) ends those commands
 * instead, as soon as the channel is known to be down: when the removal
 * starts (srp_target_queue_remove()) and at each channel failure during
 * it.
 *
 * Context: any.
 */
void srp_removal_fail(struct srp_target *target, bool lost)
{
	if (!READ_ONCE(target->rport))
		return;
	if (lost)
		WRITE_ONCE(target->removal_lost, true);
	queue_work(system_long_wq, &target->removal_fail_work);
}

/*
 * The removal's fail work (srp_removal_fail()). Under the rport mutex, so
 * that it never overlaps a reconnect or the error handler's fence, and
 * only until the removal is past its SCSI devices: srp_stop_rport_timers()
 * marks the rport lost under that mutex before any channel logs out, so a
 * channel down from then on is one the removal's own logout took down.
 * A lost rport otherwise is one dev_loss_tmo removes: the transport failed
 * its commands already if fast_io_fail_tmo is set, else they wait for
 * their SCSI timeout, and the abort on the lost rport fences the channels
 * before it hands them back (srp_eh_abort_lost()).
 *
 * Every channel that is down and still has its QP is drained and its
 * commands completed: with DID_NO_CONNECT when the path is lost (every
 * channel is marked down first), else with DID_RESET, for the midlayer
 * to retry them on a channel still up; without one they end with
 * DID_NO_CONNECT in srp_queuecommand(). As in srp_ch_teardown(), a grace
 * period between marking down and draining lets no submitter still post
 * on a channel once it is drained. The channels keep their resources:
 * the removal releases them.
 */
static void srp_removal_fail_work(struct work_struct *work)
{
	struct srp_target *target = container_of(work, struct srp_target,
						 removal_fail_work);
	struct srp_rport *rport = target->rport;
	bool lost = READ_ONCE(target->removal_lost);
	unsigned int i, n = 0;

	mutex_lock(&rport->mutex);
	if (rport->state == SRP_RPORT_LOST)
		goto out;
	for (i = 0; i < target->ch_count; i++) {
		struct srp_channel *ch = &target->ch[i];

		if (!ch->queue.qp)
			continue;
		if (lost)
			srp_ch_mark_down(ch);
		if (!READ_ONCE(ch->connected))
			n++;
	}
	if (!n)
		goto out;
	synchronize_rcu();
	for (i = 0; i < target->ch_count; i++) {
		struct srp_channel *ch = &target->ch[i];

		if (!ch->queue.qp || READ_ONCE(ch->connected))
			continue;
		rdi_queue_drain(&ch->queue);
		srp_fail_channel(ch, lost ? DID_NO_CONNECT : DID_RESET);
	}
	shost_printk(KERN_WARNING, target->shost,
		     "being removed: %u channel(s) down%s; their QPs drained and their commands failed\n",
		     n, lost ? ", the path is lost" : "");
out:
	mutex_unlock(&rport->mutex);
}

/*
 * Start transport recovery from any context: the timers start in a work,
 * which takes the rport mutex. A channel logging in again in the
 * background (srp_ch_retry_work()) holds that mutex while it waits for the
 * target's answer, and it has nothing left to join now: its wait ends. A
 * target being removed is not recovered: the commands of its channels that
 * went down are failed instead (srp_removal_fail()).
 */
static void srp_rport_recover(struct srp_target *target, bool lost)
{
	unsigned int i;

	if (READ_ONCE(target->state) == SRP_TARGET_REMOVED) {
		srp_removal_fail(target, lost);
		return;
	}
	for (i = 0; i < target->ch_count; i++)
		srp_ch_login_abandon(&target->ch[i],
				     "no other channel of the target is up");
	queue_work(system_long_wq, &target->tl_err_work);
}

/* Retry the channels that are down after reconnect_delay (at least 1 s). */
static void srp_schedule_ch_retry(struct srp_target *target)
{
	int delay = READ_ONCE(target->rport->reconnect_delay);

	queue_delayed_work(system_long_wq, &target->ch_retry_work,
			   max(delay, 1) * HZ);
}

/*
 * How long a reconnect attempt waits for each login answer. The transport's
 * fast_io_fail and dev_loss timers need the rport mutex that the attempt
 * holds, so a login waiting SRP_LOGIN_TIMEOUT_MS on a silent path would hold
 * failing fast, or removing the port, back by as much. While the rport is in
 * trouble, an attempt therefore gives up by the time the next of those
 * timers is due, after a second at least.
 */
static unsigned long srp_reconnect_login_timeout(struct srp_target *target)
{
	unsigned long full = msecs_to_jiffies(SRP_LOGIN_TIMEOUT_MS);
	struct srp_rport *rport = target->rport;
	struct srp_tmo_watch *w = &target->tmo;

	lockdep_assert_held(&rport->mutex);
	if (!w->active || !srp_rport_in_trouble(rport))
		return full;
	return srp_tmo_login_timeout(full, w->since,
				     rport->state == SRP_RPORT_BLOCKED ?
				     w->fast_io_fail_tmo : -1,
				     w->dev_loss_tmo, jiffies);
}

/*
 * Is this reconnect one the transport's reconnect_work started after another
 * one brought every channel back? The work can have begun, and be waiting
 * for the rport mutex, while a host reset reconnected: cancelling it then
 * (srp_rport_reconnect()) is too late, and tearing the new channels down
 * again would only log them out for nothing. Every recovery that arms the
 * work starts with a channel marked down, so one still down means a
 * recovery is still due.
 */
static bool srp_reconnect_needless(struct srp_target *target)
{
	struct srp_rport *rport = target->rport;
	unsigned int i;

	lockdep_assert_held(&rport->mutex);
	if (current_work() != &rport->reconnect_work.work ||
	    rport->state != SRP_RPORT_RUNNING)
		return false;
	for (i = 0; i < target->ch_count; i++)
		if (!READ_ONCE(target->ch[i].connected))
			return false;
	return true;
}

/**
 * srp_rport_reconnect() - tear every channel down and log in again
 * @rport: the rport; its target is &srp_rport.lld_data
 *
 * The transport class's ->reconnect. Commands still outstanding on the old
 * channels are completed with DID_RESET once their QPs are drained and
 * before their MRs go away, so the midlayer retries them. One channel back
 * is enough to resume I/O: the others are retried in the background
 * (srp_ch_retry_work()) while their hardware queues borrow a live channel.
 * The interrupt-driven channels come first, so a reconnect that brings
 * none of them back gives up before it tries the polled ones.
 *
 * A reconnect that succeeds cancels the transport's reconnect_work, which
 * the failure that led to it may have armed: scsi_transport_srp cancels the
 * fast_io_fail and dev_loss timers on success, not that one, so a host
 * reset would otherwise be followed, reconnect_delay after the failure, by
 * a second reconnect that logs the new channels out again.
 *
 * Context: process context, the rport mutex held.
 * Return: 0 when at least one channel is back, else a negative errno.
 */
int srp_rport_reconnect(struct srp_rport *rport)
{
	struct srp_target *target = rport->lld_data;
	unsigned long timeout;
	unsigned int i, up = 0;
	int ret = 0, err;

	lockdep_assert_held(&rport->mutex);
	if (READ_ONCE(target->state) == SRP_TARGET_REMOVED)
		return -ENODEV;
	if (srp_reconnect_needless(target)) {
		shost_printk(KERN_INFO, target->shost,
			     "every channel is up again: no reconnect needed\n");
		return 0;
	}

	/* A host reset logs out; recovery from a failure does not wait. */
	srp_target_disconnect(target, rport->state == SRP_RPORT_RUNNING);
	target->tmo.last_attempt = jiffies;
	for (i = 0; i < target->ch_count; i++)
		rdi_queue_drain(&target->ch[i].queue);
	srp_fail_outstanding(target, NULL, DID_RESET);
	/*
	 * An error handler's task management function may still hold a
	 * channel's send IU; marked down, the channel ended its wait.
	 */
	for (i = 0; i < target->ch_count; i++) {
		mutex_lock(&target->ch[i].tmf_mutex);
		srp_ch_release(&target->ch[i]);
		mutex_unlock(&target->ch[i].tmf_mutex);
	}

	/* Not _sync: the retry work may be waiting for the rport mutex. */
	cancel_delayed_work(&target->ch_retry_work);
	timeout = srp_reconnect_login_timeout(target);
	for (i = 0; i < target->ch_count; i++) {
		err = srp_ch_login(&target->ch[i], up > 0, timeout);
		if (!err) {
			up++;
			continue;
		}
		ret = err;
		/*
		 * Not even the first channel is back: the target does not
		 * answer, and every further login would hold the rport mutex,
		 * and with it the fast_io_fail and dev_loss timers, for
		 * another login timeout. The next attempt tries them all.
		 */
		if (!up)
			break;
	}

	target->tmo.last_attempt = jiffies;
	if (!up) {
		shost_printk(KERN_WARNING, target->shost,
			     "reconnect failed (%d)\n", ret);
		__srp_tmo_watch_start(target);
		return ret;
	}
	/*
	 * Running again once we return: a new failure starts a new watch and
	 * arms a new attempt. Not _sync: the work takes the rport mutex.
	 */
	target->tmo.active = false;
	cancel_delayed_work(&rport->reconnect_work);
	if (up < target->ch_count) {
		shost_printk(KERN_WARNING, target->shost,
			     "reconnected %u of %u channels (%d); retrying the others\n",
			     up, target->ch_count, ret);
		srp_schedule_ch_retry(target);
	} else {
		shost_printk(KERN_INFO, target->shost, "reconnected\n");
	}
	return 0;
}

/**
 * srp_ch_failed() - a channel went down: recover it alone, or the rport
 * @ch: the channel; the caller's srp_ch_mark_down() just returned true
 *
 * The channels' &srp_ch_ops.failed.
 * While another interrupt-driven channel of a live, running target still
 * carries I/O, only @ch is torn down and logged in again, in the
 * background (srp_ch_retry_work()); its hardware queue borrows a live
 * channel and its commands are retried there. The rport is not blocked, so
 * no timer runs and nothing fails fast. When no interrupt-driven channel is
 * left (polled ones cannot take what the others carry), or the target is
 * not live, transport recovery of the whole rport starts; of a target
 * being removed, the commands of @ch are failed instead (srp_removal_fail()).
 *
 * Context: any (completion handlers, CM handlers, QP events).
 */
void srp_ch_failed(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;
	struct srp_rport *rport = READ_ONCE(target->rport);
	bool running;
	int live;

	/*
	 * Pairs with the barrier of a failure of another channel at the same
	 * time: at least one of the two sees both down and recovers the rport.
	 */
	smp_mb();
	running = rport && READ_ONCE(target->state) == SRP_TARGET_LIVE &&
		  READ_ONCE(rport->state) == SRP_RPORT_RUNNING;
	live = running ? srp_ch_live_irq(target) : -ENOTCONN;
	if (srp_ch_recover_alone(running, live)) {
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u down; channel %d and the others carry on while it logs in again\n",
			     ch->idx, live);
		mod_delayed_work(system_long_wq, &target->ch_retry_work, 0);
		return;
	}
	srp_rport_recover(target, false);
}

/**
 * srp_ch_lost() - a channel went down and took the path with it
 * @ch: the channel; the caller's srp_ch_mark_down() just returned true
 *
 * The channels' &srp_ch_ops.lost: the target is unreachable (transport
 * retries exhausted, keep-alive or task management function unanswered),
 * so the other channels are as good as lost and the whole rport is
 * recovered at once; of a target being removed, the commands of every
 * channel are failed (srp_removal_fail()).
 *
 * Context: any.
 */
void srp_ch_lost(struct srp_channel *ch)
{
	srp_rport_recover(ch->target, true);
}

/*
 * Tear down one failed channel while the others carry on. Submitters pick
 * a channel and post on it inside blk-mq's RCU read-side section, so after
 * a grace period none still posts on @ch; the drained QP completes nothing
 * any more, and the commands it carried are completed with DID_RESET for
 * the midlayer to retry on a live channel. The TMF mutex keeps an error
 * handler from taking an IU of the rings being freed.
 */
static void srp_ch_teardown(struct srp_channel *ch)
{
	struct srp_target *target = ch->target;

	target->cm->disconnect(ch);
	synchronize_rcu();
	rdi_queue_drain(&ch->queue);
	srp_fail_channel(ch, DID_RESET);
	mutex_lock(&ch->tmf_mutex);
	srp_ch_release(ch);
	mutex_unlock(&ch->tmf_mutex);
}

/*
 * Recover the channels that are down (&srp_target.ch_retry_work). Tears
 * down the channels that failed on their own (srp_ch_failed()), then logs
 * in every channel that is down, with MULTICHAN_MULTI so the live ones
 * stay; those that cannot log in are retried after reconnect_delay. If no
 * interrupt-driven channel is left, the whole rport is recovered instead. Runs under the
 * rport mutex so that it never overlaps a reconnect.
 */
static void srp_ch_retry_work(struct work_struct *work)
{
	struct srp_target *target = container_of(to_delayed_work(work),
						 struct srp_target,
						 ch_retry_work);
	struct srp_rport *rport = target->rport;
	unsigned int i;
	bool again = false;

	mutex_lock(&rport->mutex);
	if (READ_ONCE(target->state) != SRP_TARGET_LIVE ||
	    rport->state != SRP_RPORT_RUNNING)
		goto out;
	for (i = 0; i < target->ch_count; i++) {
		struct srp_channel *ch = &target->ch[i];

		if (!READ_ONCE(ch->connected) && ch->queue.qp)
			srp_ch_teardown(ch);
	}
	if (!srp_ch_recover_alone(true, srp_ch_live_irq(target))) {
		srp_rport_recover(target, false);
		goto out;
	}
	for (i = 0; i < target->ch_count; i++) {
		struct srp_channel *ch = &target->ch[i];

		if (READ_ONCE(ch->connected) || ch->queue.qp)
			continue;
		if (srp_ch_login(ch, true,
				 msecs_to_jiffies(SRP_LOGIN_TIMEOUT_MS)))
			again = true;
		else
			shost_printk(KERN_INFO, target->shost,
				     "channel %u back\n", i);
	}
	if (again)
		srp_schedule_ch_retry(target);
out:
	mutex_unlock(&rport->mutex);
}

/**
 * srp_rport_terminate_io() - fail every outstanding command fast
 * @rport: the rport; its target is &srp_rport.lld_data
 *
 * The transport class's ->terminate_rport_io.
 */
void srp_rport_terminate_io(struct srp_rport *rport)
{
	struct srp_target *target = rport->lld_data;

	srp_fail_outstanding(target, NULL, DID_TRANSPORT_FAILFAST);
}

/**
 * srp_rport_fence() - end the target's access to every command's data
 * @target: the target; its host reset just failed, or an abort is about
 *          to hand a command of a lost rport back (srp_eh_abort())
 * @why:    what hands commands back, for the log
 *
 * A host reset that fails hands every command of the error handler back
 * to the SCSI midlayer, which completes them, and their pages are reused;
 * so does FAST_IO_FAIL from an abort.
 * Commands the driver claimed before (srp_rport_terminate_io() when the
 * reset cannot reconnect, a response, an abort) may still wait for the
 * LOCAL_INV of their MRs, and it waits behind whatever stalls the send
 * queue: a target that withholds its receive buffers stalls it for good,
 * with keep-alive off nothing notices, and a target being removed is not
 * reconnected. So every channel that still has a QP is marked down and
 * drained here: its QP in the error state answers no RDMA request, its
 * PD is its own, and once the drain returns every LOCAL_INV posted on it
 * has completed (flushed) through srp_inv_done(), so no claimed command
 * is still completing when error handling gives its commands back. Then
 * the commands still outstanding on it are completed (DID_NO_CONNECT):
 * of an rport lost with fast_io_fail_tmo off nothing else ends them (the
 * transport terminates the I/O of an rport failing fast, never of one
 * already lost), and once the midlayer has them back the driver must
 * hold neither their MRs nor their mappings (boot 20261207-162932: the
 * removal then destroyed a QP whose MR a handed-back read still held).
 * The channels keep their resources: a reconnect or the removal releases
 * them, both under the rport mutex or after error handling ended.
 *
 * The transport's reconnect work can have taken the rport mutex between
 * the failed reset and this, and brought the channels back: it drained
 * the old ones, so there is nothing to fence, and fencing the new ones
 * would fail the path that just came back (boot 20261206-215005: the
 * reset's login timed out 0.3 s after a 60 s cut ended, the reconnect work
 * logged in 0.2 s later, and the fence that followed took both new
 * channels down). A failed reconnect leaves the rport blocked, failing
 * fast or lost, so running means that one succeeded.
 *
 * Context: process context (the SCSI error handler); takes the rport
 * mutex.
 * Return: true when the channels were fenced, false when the rport is
 * running again.
 */
bool srp_rport_fence(struct srp_target *target, const char *why)
{
	struct srp_rport *rport = target->rport;
	unsigned int i, n = 0;

	mutex_lock(&rport->mutex);
	if (rport->state == SRP_RPORT_RUNNING) {
		mutex_unlock(&rport->mutex);
		shost_printk(KERN_INFO, target->shost,
			     "%s: reconnected meanwhile by the transport; nothing to fence\n",
			     why);
		return false;
	}
	for (i = 0; i < target->ch_count; i++) {
		struct srp_channel *ch = &target->ch[i];

		if (!ch->queue.qp)
			continue;
		srp_ch_mark_down(ch);
		rdi_queue_drain(&ch->queue);
		srp_fail_channel(ch, DID_NO_CONNECT);
		n++;
	}
	mutex_unlock(&rport->mutex);
	if (n)
		shost_printk(KERN_WARNING, target->shost,
			     "%s: %u channel QPs moved to the error state and drained; no command's data is reachable any more\n",
			     why, n);
	return true;
}

/**
 * srp_rport_attach() - create the rport port-<host>:1 of a target
 * @target: target whose SCSI host was added
 *
 * Return: 0 or a negative errno.
 */
int srp_rport_attach(struct srp_target *target)
{
	struct srp_rport_identifiers ids = { .roles = SRP_RPORT_ROLE_TARGET };
	__be64 id_ext = cpu_to_be64(target->opts.id_ext);
	__be64 ioc_guid = cpu_to_be64(target->opts.ioc_guid);
	struct srp_rport *rport;

	memcpy(ids.port_id, &id_ext, 8);
	memcpy(ids.port_id + 8, &ioc_guid, 8);
	rport = srp_rport_add(target->shost, &ids);
	if (IS_ERR(rport))
		return PTR_ERR(rport);
	rport->lld_data = target;
	target->rport = rport;
	return 0;
}

/**
 * srp_rport_init_target() - set up the recovery of a new target
 * @target: the target being allocated
 */
void srp_rport_init_target(struct srp_target *target)
{
	INIT_WORK(&target->tl_err_work, srp_tl_err_work);
	INIT_WORK(&target->removal_fail_work, srp_removal_fail_work);
	INIT_DELAYED_WORK(&target->ch_retry_work, srp_ch_retry_work);
	INIT_DELAYED_WORK(&target->tmo.work, srp_tmo_watch_work);
}
