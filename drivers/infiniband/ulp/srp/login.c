// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: channel login and logout, common to RDMA/CM and IB CM.
 *
 * A login attempt per channel: the connection manager (->init) resolves the
 * route and creates the channel's verbs resources, the SRP_LOGIN_REQ goes
 * out as CM private data (->connect), and the CM handler reports the
 * SRP_LOGIN_RSP or the reject through srp_cm_login_reply() and
 * srp_cm_login_reject(), then completes @ch->login_done. Everything after
 * that - receive ring, credits, immediate data - is done here, once, for
 * both connection managers.
 *
 * Channel 0 logs in with MULTICHAN_SINGLE (the target drops older channels
 * of the same I_T nexus), the others with MULTICHAN_MULTI.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <scsi/scsi_host.h>

#include "device.h"
#include "channel.h"
#include "keepalive.h"
#include "login.h"
#include "trace.h"

enum {
	SRP_LOGIN_ATTEMPTS	= 3,
	SRP_LOGOUT_TIMEOUT_MS	= 1000,
};

/* Destroys the CM ids channels have let go of (struct srp_cm_id). */
static struct workqueue_struct *srp_cm_wq;

/*
 * How long an id the channel has let go of is kept for the CM to finish a
 * disconnect we started (struct srp_cm_id). The CM bounds that itself: on
 * RoCE, Debian 12's RDMA/CM resends a DREQ 15 times about 6.1 s apart and
 * reports the end after about 98 s. This is a backstop above that, for a
 * CM that reports nothing.
 */
#define SRP_CM_LINGER_SECS	120

/*
 * The ids let go of and not destroyed yet, for unload and device removal.
 * The lock also orders an id's being put away against the end of its
 * disconnect (SRP_CM_ID_PUT_AWAY, SRP_CM_ID_CLOSED), and is the last thing
 * of an id that srp_cm_id_put_away() touches before the destroy work,
 * which takes it first, may free the id.
 */
static LIST_HEAD(srp_cm_ids);
static DEFINE_SPINLOCK(srp_cm_ids_lock);

/*
 * Read at every login, reconnects included, as the in-tree driver does: a
 * new value applies from the next login of each channel.
 */
static bool srp_use_imm_data = true;
module_param_named(use_imm_data, srp_use_imm_data, bool, 0644);
MODULE_PARM_DESC(use_imm_data,
		 "Request immediate data at login (default true)");

static unsigned int srp_max_imm_data = 8 * 1024;
module_param_named(max_imm_data, srp_max_imm_data, uint, 0644);
MODULE_PARM_DESC(max_imm_data, "Largest write sent as immediate data");

/* OUIs of Topspin/Cisco targets that want a node-GUID initiator port id. */
static const u32 srp_topspin_ouis[] = { 0x0005ad, 0x001b0d };

static bool srp_target_is_topspin(const struct srp_target *target)
{
	u32 oui = target->opts.ioc_guid >> 40;
	unsigned int i;

	if (!target->topspin_workarounds)
		return false;
	for (i = 0; i < ARRAY_SIZE(srp_topspin_ouis); i++)
		if (oui == srp_topspin_ouis[i])
			return true;
	return false;
}

static void srp_fill_login_params(struct srp_channel *ch,
				  struct srp_login_params *p, bool multich,
				  u32 it_iu_len, bool imm)
{
	struct srp_target *target = ch->target;
	struct srp_target_opts *o = &target->opts;

	memset(p, 0, sizeof(*p));
	p->it_iu_len = it_iu_len;
	p->buf_fmt = SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT;
	p->multichan = multich;
	p->imm_data = imm;
	srp_fill_port_ids(p, o->io_class, o->initiator_ext,
			  be64_to_cpu(target->sgid.global.interface_id),
			  o->id_ext, o->ioc_guid);

	if (srp_target_is_topspin(target)) {
		__be64 guid = target->host->sdev->ib_dev->node_guid;

		memset(p->initiator_port_id, 0, 8);
		memcpy(p->initiator_port_id + 8, &guid, 8);
	}
}

/*
 * Descriptors one command may need, as the login response is checked
 * against: while the host may still be sized down, a target that takes
 * only direct descriptors gets one per command (srp_target_size_direct()).
 */
static unsigned int srp_login_max_desc(const struct srp_target *target,
				       const struct srp_login_result *rsp)
{
	if (target->sizing && !(rsp->buf_fmt & SRP_BUF_FMT_INDIRECT))
		return 1;
	return target->max_desc;
}

/*
 * Log why a well-formed login response leaves the channel unusable, naming
 * the field and its value so an administrator can fix the target or the
 * add_target options.
 */
static void srp_log_login_fault(struct srp_channel *ch,
				const struct srp_login_result *rsp,
				enum srp_login_fault fault)
{
	struct srp_target *target = ch->target;
	struct Scsi_Host *shost = target->shost;

	switch (fault) {
	case SRP_LOGIN_TI_TOO_LARGE:
		shost_printk(KERN_ERR, shost,
			     "channel %u: SRP_LOGIN_RSP max_ti_iu_len %u exceeds the %u bytes accepted for a receive buffer\n",
			     ch->idx, rsp->max_ti_iu_len,
			     max(SRP_MAX_TI_IU_LEN, ch->max_it_iu_len));
		break;
	case SRP_LOGIN_NO_DESC_FMT:
		shost_printk(KERN_ERR, shost,
			     "channel %u: SRP_LOGIN_RSP supports neither direct nor indirect data descriptors (buf_fmt %#06x)\n",
			     ch->idx, rsp->buf_fmt);
		break;
	case SRP_LOGIN_DIRECT_ONLY:
		shost_printk(KERN_ERR, shost,
			     "channel %u: SRP_LOGIN_RSP supports only direct data descriptors (buf_fmt %#06x) but the host was sized at login for commands of up to %u descriptors\n",
			     ch->idx, rsp->buf_fmt, target->max_desc);
		break;
	case SRP_LOGIN_IT_TOO_SMALL:
		shost_printk(KERN_ERR, shost,
			     "channel %u: SRP_LOGIN_RSP max_it_iu_len %u (%u requested) is below the %u bytes of an SRP_CMD with %u data descriptors\n",
			     ch->idx, rsp->max_it_iu_len, ch->max_it_iu_len,
			     srp_cmd_iu_len(target->cmd_sg_cnt,
					    srp_login_max_desc(target, rsp),
					    rsp->buf_fmt),
			     target->cmd_sg_cnt);
		break;
	case SRP_LOGIN_OK:
		break;
	}
}

/**
 * srp_cm_login_reply() - the CM delivered the target's accept
 * @ch:   channel; @ch->max_it_iu_len holds the IT IU length requested
 * @data: CM private data
 * @len:  its length
 *
 * Validates the SRP_LOGIN_RSP and checks that the channel can carry every
 * command the SCSI host was sized for; on failure the login fails
 * (-EPROTO) without anything being allocated from the response. A
 * response after @ch->login_deadline fails the login with -ETIMEDOUT: the
 * login timed out then, whether or not its waiter has woken.
 *
 * The result is the caller's to publish in @ch->status, with
 * smp_store_release() once everything the login needs is done (for the IB
 * CM, the QP in RTS and the RTU sent): a waiter whose wait timed out
 * reads @ch->status without the completion's ordering, and adopts a
 * success it sees (srp_ch_login_once()).
 *
 * Context: CM handler; the caller completes @ch->login_done.
 * Return: 0, -EPROTO or -ETIMEDOUT.
 */
int srp_cm_login_reply(struct srp_channel *ch, const void *data, u8 len)
{
	struct srp_login_result *rsp = &ch->login_rsp;
	struct srp_target *target = ch->target;
	enum srp_login_fault fault;
	s64 late_ms;

	/*
	 * The login has timed out even if its waiter has not run yet (a busy
	 * CPU): what the target sends now is refused, whatever the timing.
	 */
	late_ms = ktime_ms_delta(ktime_get(), ch->login_deadline);
	if (late_ms > 0) {
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: login response %lld ms after the login timed out: refused\n",
			     ch->idx, late_ms);
		return -ETIMEDOUT;
	}

	if (srp_parse_login_rsp(data, len, rsp)) {
		shost_printk(KERN_ERR, ch->target->shost,
			     "channel %u: malformed SRP_LOGIN_RSP (%u bytes)\n",
			     ch->idx, len);
		return -EPROTO;
	}
	/* While sizing, a direct-only target resizes the host instead. */
	fault = srp_check_login_rsp(rsp, target->cmd_sg_cnt,
				    srp_login_max_desc(target, rsp),
				    ch->max_it_iu_len);
	if (fault) {
		srp_log_login_fault(ch, rsp, fault);
		return -EPROTO;
	}
	return 0;
}

/**
 * srp_cm_login_reject() - the target rejected the login with SRP_LOGIN_REJ
 * @ch:   channel
 * @data: consumer-defined CM private data
 * @len:  its length
 *
 * Context: CM handler; the caller completes @ch->login_done.
 */
void srp_cm_login_reject(struct srp_channel *ch, const void *data, u8 len)
{
	struct srp_login_rej_info rej;

	if (!data || srp_parse_login_rej(data, len, &rej)) {
		shost_printk(KERN_WARNING, ch->target->shost,
			     "channel %u: login rejected by the target without a valid SRP_LOGIN_REJ\n",
			     ch->idx);
		ch->status = -ECONNREFUSED;
		return;
	}
	shost_printk(KERN_WARNING, ch->target->shost,
		     "channel %u: SRP_LOGIN_REJ: %s (reason %#010x)\n",
		     ch->idx, rej.text, rej.reason);
	ch->status = rej.it_iu_too_large ? SRP_CM_RETRY_IU_LEN :
					   -ECONNREFUSED;
}

/**
 * srp_cm_disconnected() - the target (or the fabric) closed the channel
 * @ch: channel
 *
 * A connected channel is recovered; one still logging in fails that login
 * (srp_ch_mark_down()), and this says why.
 *
 * Context: CM handler, receive completion (SRP_T_LOGOUT).
 */
void srp_cm_disconnected(struct srp_channel *ch)
{
	if (srp_ch_mark_down(ch)) {
		shost_printk(KERN_WARNING, ch->target->shost,
			     "channel %u: disconnected by the target\n",
			     ch->idx);
		ch->target->ch_ops->failed(ch);
	} else if (srp_ch_login_broken(ch)) {
		shost_printk(KERN_WARNING, ch->target->shost,
			     "channel %u: disconnected by the target during login\n",
			     ch->idx);
	}
}

/**
 * srp_cm_id_new() - the context of a new CM id for a login of @ch
 * @ch:      the channel
 * @destroy: the connection manager's work function that destroys the id
 *           and frees the context (struct srp_cm_id)
 *
 * The connection manager creates its id with the result as context, sets
 * &srp_cm_id.rdma or .ib and then @ch->cm_id; should creating the id fail,
 * it frees the context with kfree().
 *
 * Return: the context, or NULL without memory.
 */
struct srp_cm_id *srp_cm_id_new(struct srp_channel *ch, work_func_t destroy)
{
	struct srp_cm_id *cid;

	cid = kzalloc(sizeof(*cid), GFP_KERNEL);
	if (!cid)
		return NULL;
	mutex_init(&cid->lock);
	cid->ch = ch;
	INIT_LIST_HEAD(&cid->entry);
	INIT_DELAYED_WORK(&cid->destroy, destroy);
	return cid;
}

/**
 * srp_cm_id_closed() - the CM has finished with an id
 * @cid: the id's context; its handler reported the end of the disconnect
 *       (or of the device)
 *
 * An id the channel has let go of is destroyed now; one still in use will
 * not linger when it is let go of.
 *
 * Context: the id's CM handler (the id is not destroyed before it returns).
 */
void srp_cm_id_closed(struct srp_cm_id *cid)
{
	spin_lock(&srp_cm_ids_lock);
	set_bit(SRP_CM_ID_CLOSED, &cid->flags);
	if (test_bit(SRP_CM_ID_PUT_AWAY, &cid->flags))
		mod_delayed_work(srp_cm_wq, &cid->destroy, 0);
	spin_unlock(&srp_cm_ids_lock);
}

/**
 * srp_cm_id_unlist() - the destruction of an id begins
 * @cid: the id's context, from its destroy work
 *
 * After this neither unload nor device removal reaches @cid.
 */
void srp_cm_id_unlist(struct srp_cm_id *cid)
{
	spin_lock(&srp_cm_ids_lock);
	list_del_init(&cid->entry);
	spin_unlock(&srp_cm_ids_lock);
}

/**
 * srp_cm_id_free() - free an id's context once the id is destroyed
 * @cid: the id's context, from its destroy work
 *
 * The id's handler can have requeued the work (srp_cm_id_closed()) until
 * the id was destroyed; that second run is dropped here.
 */
void srp_cm_id_free(struct srp_cm_id *cid)
{
	cancel_delayed_work(&cid->destroy);
	kfree(cid);
}

/**
 * srp_cm_ids_end() - destroy every id let go of now, lingering or not
 *
 * Context: device removal and module unload, once the targets are gone.
 */
void srp_cm_ids_end(void)
{
	struct srp_cm_id *cid;

	spin_lock(&srp_cm_ids_lock);
	list_for_each_entry(cid, &srp_cm_ids, entry)
		mod_delayed_work(srp_cm_wq, &cid->destroy, 0);
	spin_unlock(&srp_cm_ids_lock);
}

/*
 * Let go of the channel's CM id: once this returns, no handler of the id
 * reaches the channel. Waits for a handler that runs, nothing longer.
 */
static void srp_cm_id_detach(struct srp_channel *ch)
{
	struct srp_cm_id *cid = ch->cm_id;

	if (!cid)
		return;
	mutex_lock(&cid->lock);
	cid->ch = NULL;
	mutex_unlock(&cid->lock);
}

/*
 * Destroy the detached id in the background: that can wait on the fabric.
 * An id whose DREQ is unanswered lingers until the CM has finished the
 * disconnect (srp_cm_id_closed()), at most SRP_CM_LINGER_SECS. Under
 * srp_cm_ids_lock: an event that ends the disconnect comes either before,
 * and is seen here, or after, and finds the id put away.
 */
static void srp_cm_id_put_away(struct srp_channel *ch)
{
	struct srp_cm_id *cid = ch->cm_id;
	unsigned long delay = 0;

	if (!cid)
		return;
	ch->cm_id = NULL;
	spin_lock(&srp_cm_ids_lock);
	if (test_bit(SRP_CM_ID_DISCONNECTING, &cid->flags) &&
	    !test_bit(SRP_CM_ID_CLOSED, &cid->flags))
		delay = SRP_CM_LINGER_SECS * HZ;
	set_bit(SRP_CM_ID_PUT_AWAY, &cid->flags);
	list_add_tail(&cid->entry, &srp_cm_ids);
	queue_delayed_work(srp_cm_wq, &cid->destroy, delay);
	spin_unlock(&srp_cm_ids_lock);
}

/**
 * srp_ch_release() - undo a (partial) login: CM id and verbs resources
 * @ch: channel, disconnected
 *
 * The CM id lets go of the channel first: a login response can come long
 * after the login gave up (over the IB CM the REQ is retried for about a
 * minute, longer after an MRA), and its handler moves the QP to RTR and
 * RTS (IB CM: srp_ib_cm_rep(); RDMA/CM does it itself), so no handler may
 * reach a QP, MR pool or CQ being destroyed. The QP goes while the id
 * still exists (RDMA/CM forgets it then), and the id is destroyed in the
 * background (struct srp_cm_id): nothing here waits for the fabric, since
 * the QP is drained in the error state.
 *
 * Context: process context; returns without waiting for the target.
 */
void srp_ch_release(struct srp_channel *ch)
{
	srp_ka_stop(ch);
	flush_work(&ch->fence_work);
	srp_cm_id_detach(ch);
	srp_ch_destroy_ib(ch);
	srp_cm_id_put_away(ch);
}

/**
 * srp_login_init() - set up what logins need at module load
 *
 * Return: 0 or -ENOMEM.
 */
int srp_login_init(void)
{
	/* Unbound: one id waiting for the fabric holds back no other. */
	srp_cm_wq = alloc_workqueue("srp_cm", WQ_UNBOUND, 0);
	return srp_cm_wq ? 0 : -ENOMEM;
}

/**
 * srp_login_exit() - wait for every CM id's destruction, at module unload
 *
 * Lingering ids are destroyed at once.
 *
 * Context: every target is gone; waits as long as the fabric holds a MAD
 * of an id being destroyed.
 */
void srp_login_exit(void)
{
	srp_cm_ids_end();
	destroy_workqueue(srp_cm_wq);
}

static int srp_ch_login_once(struct srp_channel *ch, bool multich,
			     u32 it_iu_len, bool imm, u32 max_imm,
			     unsigned long timeout)
{
	struct srp_target *target = ch->target;
	struct srp_login_params p;
	unsigned long left;
	int ret;

	/*
	 * The whole attempt - route, login answer, keep-alive probe - ends
	 * by the deadline, and srp_ch_login_abandon() can break it off from
	 * the start: a reconnect holds the rport mutex meanwhile.
	 */
	ch->login_deadline = ktime_add_ms(ktime_get(), jiffies_to_msecs(timeout));
	srp_ch_login_start(ch);
	ch->max_it_iu_len = it_iu_len;
	ret = target->cm->init(ch);
	if (ret)
		goto err_release;

	srp_fill_login_params(ch, &p, multich, it_iu_len, imm);
	reinit_completion(&ch->login_done);
	ch->status = -ETIMEDOUT;
	/* Abandoned while the route resolved: that woke nobody. */
	if (srp_ch_login_broken(ch)) {
		ret = -ECONNABORTED;
		goto err_release;
	}
	/*
	 * A channel that joins needs one to join. Checked once the login runs,
	 * so that a failure of the last live channel either shows here or
	 * abandons this login (srp_ch_login_abandon()).
	 */
	if (multich && srp_ch_live_irq(target) < 0) {
		shost_printk(KERN_WARNING, target->shost,
			     "channel %u: not logging in: no other channel of the target is up\n",
			     ch->idx);
		ret = -ENOTCONN;
		goto err_release;
	}
	ret = target->cm->connect(ch, &p);
	if (ret) {
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: sending the login request failed: %d\n",
			     ch->idx, ret);
		goto err_release;
	}

	left = wait_for_completion_timeout(&ch->login_done,
					   srp_ch_login_left(ch));
	if (!left)
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: no answer to the login request within %u ms\n",
			     ch->idx, jiffies_to_msecs(timeout));
	/* pairs with the CM handler's smp_store_release() of a success */
	ret = smp_load_acquire(&ch->status);
	if (ret)
		goto err_release;

	ch->max_ti_iu_len = ch->login_rsp.max_ti_iu_len;
	ch->max_it_iu_len = min(it_iu_len, ch->login_rsp.max_it_iu_len);
	ch->use_imm_data = imm && ch->login_rsp.imm_data;
	ch->max_imm_data = max_imm;
	ch->buf_fmt = ch->login_rsp.buf_fmt &
		      (SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT);
	ch->req_lim = ch->login_rsp.req_lim;

	ret = srp_ch_start_recv(ch);
	if (ret) {
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: cannot post %u receive IUs of %u bytes: %d\n",
			     ch->idx, target->queue_size, ch->max_ti_iu_len, ret);
		goto err_disconnect;
	}

	ret = srp_ka_login_probe(ch);
	if (ret)
		goto err_disconnect;

	/* Nobody else acts on a failure before this: see srp_ch_mark_down(). */
	if (!srp_ch_mark_up(ch)) {
		shost_printk(KERN_ERR, target->shost,
			     "channel %u: the channel failed before its login completed\n",
			     ch->idx);
		ret = -ECONNRESET;
		goto err_disconnect;
	}
	srp_ka_start(ch);
	trace_srp_login(ch, ch->req_lim, ch->max_it_iu_len, ch->max_ti_iu_len,
			ch->use_imm_data);
	return 0;

err_disconnect:
	target->cm->disconnect(ch);
err_release:
	srp_ch_login_end(ch);
	srp_ch_release(ch);
	return ret;
}

/**
 * srp_ch_login() - connect and log in one channel
 * @ch:      channel with its CM-independent fields initialised
 * @multich: not the first channel of the target (MULTICHAN_MULTI)
 * @timeout: jiffies to wait for the target's answer to each login request
 *
 * Reads use_imm_data and max_imm_data, and sizes the IT IU from them,
 * at every login, reconnects included. Retries once with a smaller IT IU
 * when the target says the requested one is too large (and keeps that
 * length for the target's later logins), and once without keep-alive when
 * the target refuses its probe.
 *
 * Context: process context, may sleep for the login timeout.
 * Return: 0 or a negative errno; on error nothing of the channel remains.
 */
int srp_ch_login(struct srp_channel *ch, bool multich, unsigned long timeout)
{
	struct srp_target *target = ch->target;
	bool imm = READ_ONCE(srp_use_imm_data);
	u32 max_imm = READ_ONCE(srp_max_imm_data);
	u32 fallback = srp_it_iu_len_fallback(target->cmd_sg_cnt);
	unsigned int attempt, attempts = SRP_LOGIN_ATTEMPTS;
	u32 it_iu_len;
	int ret;

	it_iu_len = target->it_iu_shrunk ? fallback :
		    srp_it_iu_len(target->cmd_sg_cnt, imm, max_imm,
				  target->opts.max_it_iu_size);
	for (attempt = 0; attempt < attempts; attempt++) {
		ret = srp_ch_login_once(ch, multich, it_iu_len, imm, max_imm,
					timeout);
		if (ret <= 0)
			return ret;
		/* Not an attempt of its own: a refusal happens once per target. */
		if (ret == SRP_CM_RETRY_NO_KA) {
			attempts++;
			continue;
		}
		if (ret != SRP_CM_RETRY_IU_LEN)
			continue;	/* redirect or stale connection */
		if (target->it_iu_shrunk || fallback >= it_iu_len)
			return -ECONNREFUSED;
		shost_printk(KERN_INFO, target->shost,
			     "channel %u: retrying login with IT IU length %u instead of %u, without immediate data\n",
			     ch->idx, fallback, it_iu_len);
		target->it_iu_shrunk = true;
		it_iu_len = fallback;
		imm = false;
	}
	return -ECONNREFUSED;
}

static void srp_logout_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srp_iu *iu = container_of(wc->wr_cqe, struct srp_iu, cqe);
	struct srp_channel *ch = wc->qp->qp_context;

	srp_tx_iu_sent(ch, iu, wc->status == IB_WC_SUCCESS);
	complete(&ch->logout_done);
}

/*
 * Mark a channel down and, with @logout and if it was connected, post
 * SRP_I_LOGOUT on it; @ch->logout_done completes when that send does, at
 * once when none was posted.
 */
static void srp_ch_send_logout(struct srp_channel *ch, bool logout)
{
	struct srp_iu *iu;

	reinit_completion(&ch->logout_done);
	if (!srp_ch_mark_down(ch) || !logout)
		goto none;
	iu = srp_get_tx_iu(ch, SRP_TX_RSP);
	if (!iu)
		goto none;
	srp_build_i_logout(iu->buf.addr, SRP_TAG_TSK_MGMT);
	iu->cqe.done = srp_logout_done;
	if (!srp_post_send(ch, iu, sizeof(struct srp_iu_i_logout), NULL))
		return;
	srp_put_tx_iu(ch, iu);
none:
	complete(&ch->logout_done);
}

/**
 * srp_target_disconnect() - log out and disconnect every channel
 * @target: the target
 * @logout: send SRP_I_LOGOUT on the channels still connected first
 *
 * The logouts go out on every channel at once and are waited for together,
 * at most SRP_LOGOUT_TIMEOUT_MS in all, so that the disconnects that
 * follow do not flush them: one round trip on a live path. Recovery from a
 * failure passes !@logout: the path is likely dead, and the rport mutex it
 * holds is what the transport's timers need. Idempotent; channels keep
 * their resources (see srp_target_free_channels()).
 *
 * Context: process context.
 */
void srp_target_disconnect(struct srp_target *target, bool logout)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(SRP_LOGOUT_TIMEOUT_MS);
	unsigned long now;
	unsigned int i;

	for (i = 0; i < target->ch_count; i++)
		srp_ch_send_logout(&target->ch[i], logout);
	for (i = 0; i < target->ch_count; i++) {
		now = jiffies;
		if (!srp_ch_wait(&target->ch[i], &target->ch[i].logout_done,
				 time_after(deadline, now) ? deadline - now : 0))
			shost_printk(KERN_WARNING, target->shost,
				     "channel %u: logout not sent within %u ms; disconnecting\n",
				     i, SRP_LOGOUT_TIMEOUT_MS);
	}
	for (i = 0; i < target->ch_count; i++)
		target->cm->disconnect(&target->ch[i]);
}

/**
 * srp_ch_init() - initialise a channel before its first login
 * @target: the target; @target->ch holds at least @idx + 1 zeroed channels
 * @idx:    index of the channel, equal to its blk-mq hardware queue
 * @polled: the channel serves a polled hardware queue (&srp_channel.polled)
 *
 * Return: 0, or -ENOMEM when its counters cannot be allocated; the caller
 * frees them (&srp_channel.stats) with the channel.
 */
int srp_ch_init(struct srp_target *target, unsigned int idx, bool polled)
{
	struct srp_channel *ch = &target->ch[idx];
	int nvec = target->host->sdev->ib_dev->num_comp_vectors;

	ch->target = target;
	ch->idx = idx;
	ch->polled = polled;
	spin_lock_init(&ch->poll_lock);
	ch->comp_vector = (target->opts.comp_vector + idx) % nvec;
	spin_lock_init(&ch->lock);
	INIT_LIST_HEAD(&ch->free_tx);
	INIT_LIST_HEAD(&ch->held_rx);
	init_completion(&ch->login_done);
	init_completion(&ch->path_done);
	init_completion(&ch->tmf_done);
	init_completion(&ch->logout_done);
	mutex_init(&ch->tmf_mutex);
	srp_ka_init(ch);
	return rdi_stats_init(&ch->stats);
}
