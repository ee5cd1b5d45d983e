// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: target lifetime and the SCSI host.
 *
 * srp_target_add() runs in the add_target write: it sizes the SCSI host from
 * the options, logs every channel in, adds the host and the rport, scans the
 * LUNs and only then returns. Any failure unwinds everything it did.
 *
 * Removal (rport "delete", device removal, dev_loss_tmo, module unload) always
 * goes through srp_target_queue_remove(), which moves the target to
 * SRP_TARGET_REMOVED exactly once and queues srp_remove_work(). A target in
 * that state no longer counts for duplicate detection, so the same login may
 * be written again right away.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/cpumask.h>
#include <linux/blk-mq.h>
#include <rdma/ib_cache.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_transport_srp.h>
#include <rdi/scsi.h>

#include "device.h"
#include "channel.h"
#include "login.h"
#include "cm.h"
#include "cmd.h"
#include "eh.h"
#include "rport.h"
#include "target.h"
#include "stats.h"
#include "sysfs.h"
#include "trace.h"

/* Channels of a login without ch_count, at most (a #define: stringified). */
#define SRP_DEFAULT_CH_CAP	4

enum {
	SRP_DEFAULT_QUEUE_SIZE	= 64,
	SRP_DEFAULT_MAX_SECT	= 1024,
	SRP_DEFAULT_RETRY_COUNT	= 7,
	SRP_MAX_SECT_LIMIT	= 131072,
};

#define SRP_DEF_CMD_SG_ENTRIES	12

/*
 * The module parameters a login starts from. Each is read here only: the
 * add_target options take their defaults from them, and what else a login
 * needs is copied into its target (srp_target_alloc_host()), so a write at
 * run time applies to later logins.
 */
static unsigned int srp_sg_tablesize;
module_param(srp_sg_tablesize, uint, 0444);
MODULE_PARM_DESC(srp_sg_tablesize, "Deprecated name for cmd_sg_entries");

static unsigned int srp_cmd_sg_entries;
module_param_named(cmd_sg_entries, srp_cmd_sg_entries, uint, 0444);
MODULE_PARM_DESC(cmd_sg_entries,
		 "Descriptors inside an SRP_CMD (default 12, max 255)");

static unsigned int srp_indirect_sg_entries;
module_param_named(indirect_sg_entries, srp_indirect_sg_entries, uint, 0444);
MODULE_PARM_DESC(indirect_sg_entries,
		 "Default SCSI sg_tablesize (default cmd_sg_entries, max "
		 __stringify(SG_MAX_SEGMENTS) ")");

static bool srp_allow_ext_sg;
module_param_named(allow_ext_sg, srp_allow_ext_sg, bool, 0444);
MODULE_PARM_DESC(allow_ext_sg,
		 "Let the target fetch descriptors that do not fit in the SRP_CMD (default false)");

static int topspin_workarounds = 1;
module_param(topspin_workarounds, int, 0444);
MODULE_PARM_DESC(topspin_workarounds,
		 "Enable workarounds for Topspin/Cisco SRP targets if != 0");

static unsigned int srp_ch_count;
module_param_named(ch_count, srp_ch_count, uint, 0444);
MODULE_PARM_DESC(ch_count,
		 "RDMA channels per target (default: online CPUs, at most "
		 __stringify(SRP_DEFAULT_CH_CAP)
		 ", at most the device's completion vectors)");

static unsigned int srp_keepalive = 5;
module_param_named(keepalive, srp_keepalive, uint, 0644);
MODULE_PARM_DESC(keepalive,
		 "Keep-alive period in seconds: a silent path fails after it; 0 for none (default 5, up to "
		 __stringify(SRP_MAX_KEEPALIVE) ")");

static struct workqueue_struct *srp_remove_wq;
static struct scsi_transport_template *srp_transport;

static const char *srp_target_info(struct Scsi_Host *shost)
{
	return "SRP initiator";
}

static int srp_target_alloc(struct scsi_target *starget)
{
	struct Scsi_Host *shost = dev_to_shost(starget->dev.parent);
	struct srp_target *target = host_to_target(shost);

	if (target->opts.target_can_queue)
		starget->can_queue = target->opts.target_can_queue;
	return 0;
}

/*
 * The hardware queues: the interrupt-driven channels serve the default map
 * and, as there are no read queues of their own, reads; the polled channels
 * the poll map, after them.
 */
static void srp_map_queues(struct Scsi_Host *shost)
{
	struct srp_target *target = host_to_target(shost);
	struct blk_mq_queue_map *map = shost->tag_set.map;

	if (shost->tag_set.nr_maps == 1) {
		blk_mq_map_queues(&map[HCTX_TYPE_DEFAULT]);
		return;
	}
	map[HCTX_TYPE_DEFAULT].nr_queues = srp_irq_ch_count(target);
	map[HCTX_TYPE_DEFAULT].queue_offset = 0;
	blk_mq_map_queues(&map[HCTX_TYPE_DEFAULT]);
	map[HCTX_TYPE_READ].nr_queues = 0;
	map[HCTX_TYPE_POLL].nr_queues = target->poll_count;
	map[HCTX_TYPE_POLL].queue_offset = srp_irq_ch_count(target);
	blk_mq_map_queues(&map[HCTX_TYPE_POLL]);
}

static int srp_change_queue_depth(struct scsi_device *sdev, int depth)
{
	if (!sdev->tagged_supported)
		depth = 1;
	return scsi_change_queue_depth(sdev, depth);
}

/*
 * Without keep-alive, a dead path shows only when the RC transport gives up
 * on a send: a disk's SCSI timeout shorter than that starts the error
 * handler while the transport still retries. An IB CM login knows the
 * retry time (srp_ib_cm_rep()); the disk then gets it plus a second, at
 * least sd's default of 30 s.
 */
static int srp_slave_configure(struct scsi_device *sdev)
{
	struct srp_target *target = host_to_target(sdev->host);
	u32 ms = READ_ONCE(target->rc_give_up_ms);

	if (sdev->type == TYPE_DISK && ms)
		blk_queue_rq_timeout(sdev->request_queue,
				     max_t(unsigned long, 30 * HZ,
					   msecs_to_jiffies(ms + MSEC_PER_SEC)));
	return 0;
}

static struct scsi_host_template srp_template = {
	.module			= THIS_MODULE,
	.name			= "InfiniBand SRP initiator",
	.proc_name		= "ib_srp",
	.info			= srp_target_info,
	.target_alloc		= srp_target_alloc,
	.init_cmd_priv		= srp_init_cmd_priv,
	.exit_cmd_priv		= srp_exit_cmd_priv,
	.queuecommand		= srp_queuecommand,
	.map_queues		= srp_map_queues,
	.mq_poll		= srp_mq_poll,
	.change_queue_depth	= srp_change_queue_depth,
	.slave_configure	= srp_slave_configure,
	.eh_timed_out		= srp_timed_out,
	.eh_abort_handler	= srp_eh_abort,
	.eh_device_reset_handler = srp_eh_device_reset,
	.eh_host_reset_handler	= srp_eh_host_reset,
	.skip_settle_delay	= true,
	.sg_tablesize		= 12,
	.can_queue		= SRP_DEFAULT_QUEUE_SIZE - 2,
	.this_id		= -1,
	.cmd_per_lun		= SRP_DEFAULT_QUEUE_SIZE - 2,
	.shost_groups		= srp_host_groups,
	.track_queue_depth	= 1,
	.cmd_size		= sizeof(struct srp_request),
};

/* How the channels of every target reach the layers above them. */
static const struct srp_ch_ops srp_target_ch_ops = {
	.recv	= srp_cmd_recv,
	.failed	= srp_ch_failed,
	.lost	= srp_ch_lost,
};

/* Fill in module-parameter defaults for every key the user left out. */
static void srp_opts_defaults(struct srp_target_opts *o)
{
	if (!srp_target_opts_has(o, SRP_OPT_QUEUE_SIZE))
		o->queue_size = SRP_DEFAULT_QUEUE_SIZE - 2;
	if (!srp_target_opts_has(o, SRP_OPT_MAX_CMD_PER_LUN))
		o->max_cmd_per_lun = SRP_DEFAULT_QUEUE_SIZE - 2;
	if (!srp_target_opts_has(o, SRP_OPT_MAX_SECT))
		o->max_sect = SRP_DEFAULT_MAX_SECT;
	if (!srp_target_opts_has(o, SRP_OPT_CMD_SG_ENTRIES))
		o->cmd_sg_entries = srp_cmd_sg_entries;
	if (!srp_target_opts_has(o, SRP_OPT_ALLOW_EXT_SG))
		o->allow_ext_sg = srp_allow_ext_sg;
	if (!srp_target_opts_has(o, SRP_OPT_TL_RETRY_COUNT))
		o->tl_retry_count = SRP_DEFAULT_RETRY_COUNT;
	if (!srp_target_opts_has(o, SRP_OPT_IO_CLASS))
		o->io_class = SRP_IO_CLASS_R16A;
	if (!srp_target_opts_has(o, SRP_OPT_KEEPALIVE))
		o->keepalive = min_t(unsigned int, READ_ONCE(srp_keepalive),
				     SRP_MAX_KEEPALIVE);
	o->max_sect = min_t(u32, o->max_sect, SRP_MAX_SECT_LIMIT);
}

/*
 * Channels for a login: the ch_count key, else the module parameter, else
 * one per online CPU up to SRP_DEFAULT_CH_CAP and the device's completion
 * vectors, so that a default login never exhausts a target. Never more
 * channels than online CPUs: blk-mq would leave the extra ones idle.
 */
static unsigned int srp_pick_ch_count(struct srp_device *sdev,
				      const struct srp_target_opts *o)
{
	unsigned int n = srp_target_opts_has(o, SRP_OPT_CH_COUNT) ?
			 o->ch_count : srp_ch_count;

	if (!n)
		n = min3(num_online_cpus(), (unsigned int)SRP_DEFAULT_CH_CAP,
			 (unsigned int)sdev->ib_dev->num_comp_vectors);
	return clamp(n, 1U, num_online_cpus());
}

/*
 * Polled channels for a login: the poll_queues key, at most one per online
 * CPU (blk-mq would leave the others unused). Each has one CQ for its sends
 * and receives, which must fit the device.
 */
static int srp_pick_poll_count(struct srp_target *target)
{
	struct srp_host *host = target->host;
	struct ib_device *dev = host->sdev->ib_dev;
	unsigned int n = target->opts.poll_queues;
	u64 cqe;

	if (!n)
		return 0;
	cqe = srp_send_wrs(target->queue_size, target->mr_per_cmd) +
	      srp_recv_wrs(target->queue_size);
	if (cqe > dev->attrs.max_cqe) {
		dev_warn(&host->dev,
			 "poll_queues=%u: a polled channel's CQ needs %llu entries at queue_size=%u; %s allows %d per CQ\n",
			 n, cqe, target->opts.queue_size, dev_name(&dev->dev),
			 dev->attrs.max_cqe);
		return -EINVAL;
	}
	if (n > num_online_cpus()) {
		dev_info(&host->dev,
			 "poll_queues=%u: using %u, one per online CPU\n", n,
			 num_online_cpus());
		n = num_online_cpus();
	}
	return n;
}

/*
 * Size the SCSI host for the mapping ladder of data.c. With fast
 * registration and no SG_GAPS MRs, a virt boundary keeps every request free
 * of holes, so a request of P pages needs ceil(P / max_pages_per_mr) MRs.
 * Without allow_ext_sg max_sectors (FR) or sg_tablesize (no registration)
 * is capped so that every request fits in the @cmd_sg_cnt descriptors of
 * an SRP_CMD; with it, a request may need up to sg_tablesize (the key, else
 * indirect_sg_entries) descriptors, the rest in an external table, whose
 * own MR counts in @mr_per_cmd when there is no global rkey.
 */
static void srp_target_size(struct srp_target *target)
{
	struct srp_target_opts *o = &target->opts;
	struct srp_device *sdev = target->host->sdev;
	struct Scsi_Host *shost = target->shost;
	unsigned int page = sdev->rdi->mr_page_size;
	unsigned int secs_per_page = page >> SECTOR_SHIFT;
	unsigned int max_sect = o->max_sect, pages, sg_tablesize;
	unsigned int ind = srp_target_opts_has(o, SRP_OPT_SG_TABLESIZE) ?
			   o->sg_tablesize : srp_indirect_sg_entries;

	target->cmd_sg_cnt = o->cmd_sg_entries;
	target->queue_size = o->queue_size + SRP_RSP_SQ_SIZE +
			     SRP_TSK_MGMT_SQ_SIZE;
	target->sizing = true;

	if (sdev->use_fr) {
		unsigned int descs = o->allow_ext_sg ?
				     max(target->cmd_sg_cnt, ind) :
				     target->cmd_sg_cnt;
		unsigned int max_pages = descs * sdev->max_pages_per_mr;

		rdi_scsi_host_reg_limits(shost, sdev->rdi);
		max_sect = min(max_sect,
			       rdi_reg_max_sectors(sdev->rdi, max_pages));
		pages = DIV_ROUND_UP(max_sect, secs_per_page) + 1;
		target->mr_per_cmd = DIV_ROUND_UP(pages,
						  sdev->max_pages_per_mr);
		target->max_desc = target->mr_per_cmd;
		if (target->max_desc > target->cmd_sg_cnt && !sdev->global_rkey)
			target->mr_per_cmd++;
		sg_tablesize = srp_target_opts_has(o, SRP_OPT_SG_TABLESIZE) ?
			       o->sg_tablesize :
			       max(srp_indirect_sg_entries,
				   min_t(unsigned int, pages,
					 SG_MAX_SEGMENTS));
	} else {
		sg_tablesize = o->allow_ext_sg ? ind :
			       min(target->cmd_sg_cnt, ind);
		target->max_desc = sg_tablesize;
		target->mr_per_cmd = 0;
	}

	shost->max_id = 1;
	shost->max_lun = -1LL;
	shost->max_channel = 0;
	shost->max_cmd_len = 16;
	shost->can_queue = o->queue_size;
	shost->cmd_per_lun = min(o->max_cmd_per_lun, o->queue_size);
	shost->max_sectors = max_sect;
	shost->sg_tablesize = sg_tablesize;
	shost->transportt = srp_transport;
	shost->unique_id = shost->host_no;
}

/* One hardware queue per channel; the polled ones in a map of their own. */
static void srp_target_size_queues(struct srp_target *target)
{
	target->shost->nr_hw_queues = target->ch_count;
	target->shost->nr_maps = target->poll_count ? HCTX_MAX_TYPES : 1;
}

/*
 * Size the host for one descriptor per command: channel 0 of @target found
 * a target that accepts only direct data descriptors, before its SCSI host
 * is added. Every request must then map into one MR (fast registration: at most
 * max_pages_per_mr pages), or be one DMA segment under the global rkey
 * (never_register=Y). Larger I/O is split by the block layer. Channel 0
 * keeps its larger MR pool and send queue; later channels and reconnects
 * are sized from the new values.
 */
static void srp_target_size_direct(struct srp_target *target)
{
	struct srp_device *sdev = target->host->sdev;
	struct Scsi_Host *shost = target->shost;

	target->max_desc = 1;
	if (sdev->use_fr) {
		shost->max_sectors = min(shost->max_sectors,
					 rdi_reg_max_sectors(sdev->rdi,
							     sdev->max_pages_per_mr));
		if (sdev->rdi->sg_gaps)
			shost->sg_tablesize = min(shost->sg_tablesize,
						  (unsigned short)sdev->max_pages_per_mr);
		target->mr_per_cmd = 1;
	} else {
		shost->sg_tablesize = 1;
	}
	shost_printk(KERN_INFO, shost,
		     "target accepts direct data descriptors only: one descriptor per command, max_sectors %u, sg_tablesize %u\n",
		     shost->max_sectors, shost->sg_tablesize);
}

/* Release every channel of a disconnected target, and the array. */
static void srp_target_free_channels(struct srp_target *target)
{
	unsigned int i;

	if (!target->ch)
		return;
	for (i = 0; i < target->ch_count; i++) {
		srp_ch_release(&target->ch[i]);
		rdi_stats_free(&target->ch[i].stats);
	}
	kfree(target->ch);
	target->ch = NULL;
}

/*
 * Initialise and log in channel @idx of a target being added. The port's
 * removal breaks the login off (srp_target_stop_adding()): the removal
 * deletes the port's class device, which waits for the add_target write,
 * and that would otherwise wait for the target's answer until the login
 * timeout.
 */
static int srp_target_add_ch(struct srp_target *target, unsigned int idx,
			     bool polled)
{
	struct srp_host *host = target->host;
	struct srp_channel *ch = &target->ch[idx];
	int ret;

	ret = srp_ch_init(target, idx, polled);
	if (ret)
		return ret;
	srp_cmd_ch_init(ch);
	spin_lock(&host->lock);
	host->adding_ch = ch;
	spin_unlock(&host->lock);
	ret = srp_ch_login(ch, idx > 0,
			   msecs_to_jiffies(SRP_LOGIN_TIMEOUT_MS));
	spin_lock(&host->lock);
	host->adding_ch = NULL;
	spin_unlock(&host->lock);
	return ret;
}

/*
 * Log in the @target->poll_count polled channels after the @nirq
 * interrupt-driven ones that are logged in. Each one was asked for, so
 * unlike those, every one must log in: a target that takes fewer channels
 * fails the login, with what to ask for instead.
 */
static int srp_target_connect_polled(struct srp_target *target,
				     unsigned int nirq)
{
	unsigned int i, idx;
	int ret;

	for (i = 0; i < target->poll_count; i++) {
		idx = nirq + i;
		ret = srp_target_add_ch(target, idx, true);
		if (!ret)
			continue;
		rdi_stats_free(&target->ch[idx].stats);
		shost_printk(KERN_ERR, target->shost,
			     "poll_queues=%u: polled channel %u did not log in (%d) with %u channels of this login up; if the target takes no more, ask for fewer poll_queues or a lower ch_count\n",
			     target->poll_count, idx, ret, idx);
		target->ch_count = idx;
		srp_target_disconnect(target, true);
		srp_target_free_channels(target);
		target->ch_count = 0;
		return ret;
	}
	return 0;
}

/**
 * srp_target_connect() - create and log in the channels of a new target
 * @target: target sized by srp_target_size()
 *
 * Channel 0 must log in; if a later interrupt-driven one fails the target
 * keeps the channels before it and @target->ch_count shrinks accordingly;
 * the polled channels follow them and must all log in
 * (srp_target_connect_polled()). A target that accepts only direct
 * descriptors gets a host sized for one descriptor per command
 * (srp_target_size_direct()), decided on channel 0's login response; every
 * later login is checked against that size.
 * Return: 0 or a negative errno; on error no channel remains.
 */
static int srp_target_connect(struct srp_target *target)
{
	unsigned int i, want = srp_irq_ch_count(target);
	int ret;

	target->ch = kcalloc(target->ch_count, sizeof(*target->ch),
			     GFP_KERNEL);
	if (!target->ch)
		return -ENOMEM;

	for (i = 0; i < want; i++) {
		ret = srp_target_add_ch(target, i, false);
		if (!ret && !i && target->max_desc > 1 &&
		    !(target->ch[0].buf_fmt & SRP_BUF_FMT_INDIRECT))
			srp_target_size_direct(target);
		target->sizing = false;
		if (!ret)
			continue;
		rdi_stats_free(&target->ch[i].stats);
		if (!i)
			goto err_free;
		shost_printk(KERN_WARNING, target->shost,
			     "only %u of %u channels logged in (channel %u: %d); continuing with %u\n",
			     i, want, i, ret, i);
		break;
	}
	target->ch_count = i + target->poll_count;
	ret = srp_target_connect_polled(target, i);
	if (ret)
		return ret;
	target->shost->nr_hw_queues = target->ch_count;
	return 0;

err_free:
	kfree(target->ch);
	target->ch = NULL;
	target->ch_count = 0;
	return ret;
}

/*
 * Whether a target being removed has the identity of @new: its logout may
 * still be in flight.
 */
static bool srp_target_leaving(struct srp_host *host, struct srp_target *new)
{
	struct srp_target *t;
	bool found = false;

	spin_lock(&host->lock);
	list_for_each_entry(t, &host->targets, entry) {
		if (READ_ONCE(t->state) == SRP_TARGET_REMOVED &&
		    t->opts.id_ext == new->opts.id_ext &&
		    t->opts.ioc_guid == new->opts.ioc_guid &&
		    t->opts.initiator_ext == new->opts.initiator_ext)
			found = true;
	}
	spin_unlock(&host->lock);
	return found;
}

/*
 * A login is a duplicate when a live target on the same port has the same
 * target port (id_ext, ioc_guid) and the same initiator extension.
 */
static bool srp_target_is_dup(struct srp_host *host, struct srp_target *new)
{
	struct srp_target *t;

	lockdep_assert_held(&host->lock);
	list_for_each_entry(t, &host->targets, entry) {
		if (t == new || READ_ONCE(t->state) == SRP_TARGET_REMOVED)
			continue;
		if (t->opts.id_ext == new->opts.id_ext &&
		    t->opts.ioc_guid == new->opts.ioc_guid &&
		    t->opts.initiator_ext == new->opts.initiator_ext)
			return true;
	}
	return false;
}

static void srp_remove_work(struct work_struct *work);

static struct srp_target *srp_target_alloc_host(struct srp_host *host,
						struct srp_target_opts *opts)
{
	struct Scsi_Host *shost;
	struct srp_target *target;

	shost = scsi_host_alloc(&srp_template, sizeof(*target));
	if (!shost)
		return NULL;

	target = host_to_target(shost);
	target->shost = shost;
	target->host = host;
	target->opts = *opts;
	target->cm = srp_target_opts_rdma_cm(opts) ? &srp_rdma_cm_ops :
						     &srp_ib_cm_ops;
	target->ch_ops = &srp_target_ch_ops;
	target->topspin_workarounds = topspin_workarounds != 0;
	spin_lock_init(&target->lock);
	mutex_init(&target->tmf_mutex);
	init_waitqueue_head(&target->inv_wait);
	target->state = SRP_TARGET_SCANNING;
	INIT_LIST_HEAD(&target->entry);
	INIT_WORK(&target->remove_work, srp_remove_work);
	srp_rport_init_target(target);
	memcpy(target->orig_dgid.raw, opts->dgid, sizeof(target->orig_dgid));
	target->dgid = target->orig_dgid;
	return target;
}

static int srp_target_register(struct srp_target *target)
{
	struct srp_host *host = target->host;
	struct Scsi_Host *shost = target->shost;
	int ret;

	ret = scsi_add_host(shost, host->sdev->ib_dev->dev.parent);
	if (ret) {
		shost_printk(KERN_ERR, shost, "cannot add SCSI host: %d\n",
			     ret);
		return ret;
	}

	ret = srp_rport_attach(target);
	if (ret) {
		shost_printk(KERN_ERR, shost, "cannot add rport: %d\n", ret);
		scsi_remove_host(shost);
	}
	return ret;
}

static unsigned int srp_count_luns(struct Scsi_Host *shost)
{
	struct scsi_device *sdev;
	unsigned int n = 0;

	shost_for_each_device(sdev, shost)
		n++;
	return n;
}

/**
 * srp_target_add() - log in to a target and create its SCSI host
 * @host: port the add_target file belongs to
 * @opts: parsed options; copied
 *
 * Context: process context, from the add_target write. Returns once the
 * LUN scan is done.
 * Return: 0 or a negative errno; on error nothing is left behind.
 */
int srp_target_add(struct srp_host *host, struct srp_target_opts *opts)
{
	struct srp_device *sdev = host->sdev;
	struct srp_target *target;
	bool dup;
	int ret;

	srp_opts_defaults(opts);

	if (!srp_target_opts_rdma_cm(opts) &&
	    !rdma_cap_ib_cm(sdev->ib_dev, host->port)) {
		dev_warn(&host->dev,
			 "IB CM login (dgid/pkey/service_id) is not possible on %s port %u: its link layer is not InfiniBand; use dest=<ip>:<port> (RDMA/CM)\n",
			 dev_name(&sdev->ib_dev->dev), host->port);
		return -EPROTONOSUPPORT;
	}
	if (srp_target_opts_has(opts, SRP_OPT_COMP_VECTOR) &&
	    opts->comp_vector >= sdev->ib_dev->num_comp_vectors) {
		dev_warn(&host->dev,
			 "comp_vector=%u out of range: %s has %d completion vectors\n",
			 opts->comp_vector, dev_name(&sdev->ib_dev->dev),
			 sdev->ib_dev->num_comp_vectors);
		return -EINVAL;
	}

	if (mutex_lock_interruptible(&host->add_mutex))
		return -ERESTARTSYS;

	target = srp_target_alloc_host(host, opts);
	if (!target) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	/*
	 * The initiator port identifier is made of the port's GID at index 0,
	 * for every form of login, as the in-tree driver does: ACLs keyed by
	 * it, and the I_T nexus of persistent reservations, must not depend
	 * on the IP address a RoCE login goes through.
	 */
	ret = rdma_query_gid(sdev->ib_dev, host->port, 0, &target->sgid);
	if (ret) {
		dev_warn(&host->dev, "cannot read GID 0 of %s port %u: %d\n",
			 dev_name(&sdev->ib_dev->dev), host->port, ret);
		goto err_put_host;
	}
	target->ch_count = srp_pick_ch_count(sdev, opts);
	srp_target_size(target);
	ret = srp_pick_poll_count(target);
	if (ret < 0)
		goto err_put_host;
	target->poll_count = ret;
	target->ch_count += target->poll_count;
	srp_target_size_queues(target);
	if (srp_check_queue(target->queue_size, target->mr_per_cmd,
			    sdev->ib_dev->attrs.max_qp_wr,
			    sdev->ib_dev->attrs.max_cqe)) {
		dev_warn(&host->dev,
			 "queue_size=%u needs %llu send work requests per channel (%llu per command); %s allows %d per queue and %d per CQ\n",
			 opts->queue_size,
			 srp_send_wrs(target->queue_size, target->mr_per_cmd),
			 srp_cmd_send_wrs(target->mr_per_cmd),
			 dev_name(&sdev->ib_dev->dev),
			 sdev->ib_dev->attrs.max_qp_wr,
			 sdev->ib_dev->attrs.max_cqe);
		ret = -EINVAL;
		goto err_put_host;
	}

	/* Let a logout of the same I_T nexus finish before logging in again. */
	if (srp_target_leaving(host, target))
		flush_workqueue(srp_remove_wq);

	spin_lock(&host->lock);
	dup = srp_target_is_dup(host, target);
	if (!dup)
		list_add_tail(&target->entry, &host->targets);
	spin_unlock(&host->lock);
	if (dup) {
		dev_warn(&host->dev,
			 "already logged in to id_ext=%016llx ioc_guid=%016llx initiator_ext=%016llx\n",
			 opts->id_ext, opts->ioc_guid, opts->initiator_ext);
		ret = -EEXIST;
		goto err_put_host;
	}

	ret = srp_target_connect(target);
	if (ret)
		goto err_unlist;
	srp_debugfs_add(target);

	ret = srp_target_register(target);
	if (ret)
		goto err_disconnect;

	scsi_scan_target(&target->shost->shost_gendev, 0, 0, SCAN_WILD_CARD,
			 SCSI_SCAN_INITIAL);

	spin_lock_irq(&target->lock);
	if (target->state == SRP_TARGET_SCANNING)
		target->state = SRP_TARGET_LIVE;
	else
		ret = -ENODEV;
	spin_unlock_irq(&target->lock);
	if (ret) {
		shost_printk(KERN_WARNING, target->shost,
			     "target removed during the LUN scan\n");
		goto out_unlock;
	}

	shost_printk(KERN_INFO, target->shost,
		     "logged in to id_ext=%016llx ioc_guid=%016llx via %s port %u: %u channels (%u polled), %u LUNs\n",
		     opts->id_ext, opts->ioc_guid, dev_name(&sdev->ib_dev->dev),
		     host->port, target->ch_count, target->poll_count,
		     srp_count_luns(target->shost));
	mutex_unlock(&host->add_mutex);
	return 0;

err_disconnect:
	srp_debugfs_remove(target);
	srp_target_disconnect(target, true);
	cancel_work_sync(&target->tl_err_work);
	cancel_work_sync(&target->removal_fail_work);
	cancel_delayed_work_sync(&target->tmo.work);
	srp_target_free_channels(target);
err_unlist:
	spin_lock(&host->lock);
	list_del(&target->entry);
	spin_unlock(&host->lock);
err_put_host:
	scsi_host_put(target->shost);
out_unlock:
	mutex_unlock(&host->add_mutex);
	return ret;
}

/**
 * srp_target_queue_remove() - schedule removal of a target, once
 * @target: the target
 *
 * Context: any context that may take a spinlock with interrupts disabled.
 */
void srp_target_queue_remove(struct srp_target *target)
{
	unsigned long flags;
	bool queue = false;

	spin_lock_irqsave(&target->lock, flags);
	if (target->state != SRP_TARGET_REMOVED) {
		target->state = SRP_TARGET_REMOVED;
		queue = true;
	}
	spin_unlock_irqrestore(&target->lock, flags);

	if (!queue)
		return;
	queue_work(srp_remove_wq, &target->remove_work);
	/* Channels already down hold no command back from the removal. */
	srp_removal_fail(target, false);
}

/*
 * The one teardown of a logged-in target: SCSI devices first (their final
 * SYNCHRONIZE CACHE still travels over live channels; the commands of a
 * channel that is or goes down meanwhile are failed, srp_removal_fail()),
 * then the rport timers, then SRP_I_LOGOUT + disconnect on every channel,
 * then memory.
 */
static void srp_remove_work(struct work_struct *work)
{
	struct srp_target *target = container_of(work, struct srp_target,
						 remove_work);
	struct Scsi_Host *shost = target->shost;
	struct srp_host *host = target->host;
	struct srp_rport *rport = target->rport;

	srp_rport_get(rport);
	srp_remove_host(shost);
	scsi_remove_host(shost);
	srp_stop_rport_timers(rport);
	cancel_delayed_work_sync(&target->ch_retry_work);
	srp_debugfs_remove(target);
	srp_target_disconnect(target, true);
	cancel_work_sync(&target->tl_err_work);
	cancel_work_sync(&target->removal_fail_work);
	/* A channel failure seen just before the removal may have queued it. */
	cancel_delayed_work_sync(&target->ch_retry_work);
	/* The rport is lost now: the watch does not queue itself again. */
	cancel_delayed_work_sync(&target->tmo.work);
	srp_target_free_channels(target);
	srp_rport_put(rport);

	spin_lock(&host->lock);
	list_del(&target->entry);
	spin_unlock(&host->lock);

	shost_printk(KERN_INFO, shost, "logged out and removed\n");
	scsi_host_put(shost);
}

/**
 * srp_target_stop_adding() - break off the login of an add_target on @host
 * @host: the port, about to be removed
 *
 * From now on no login starts on the port (srp_ch_login_start()), and the
 * one an add_target write is waiting for fails at once, so that the write
 * ends and the removal of the port's class device does not wait for it.
 *
 * Context: process context.
 */
void srp_target_stop_adding(struct srp_host *host)
{
	spin_lock(&host->lock);
	WRITE_ONCE(host->removing, true);
	if (host->adding_ch)
		srp_ch_login_abandon(host->adding_ch, "the port is being removed");
	spin_unlock(&host->lock);
}

/**
 * srp_target_remove_all() - remove every target of a port and wait
 * @host: the port
 *
 * Context: process context; the port's class device is already deleted,
 * so no new target can appear.
 */
void srp_target_remove_all(struct srp_host *host)
{
	struct srp_target *target;

	spin_lock(&host->lock);
	list_for_each_entry(target, &host->targets, entry)
		srp_target_queue_remove(target);
	spin_unlock(&host->lock);

	flush_workqueue(srp_remove_wq);
}

/* Bring the login parameters into range, once at load. */
static void srp_fixup_params(void)
{
	if (srp_sg_tablesize) {
		pr_warn("srp_sg_tablesize is deprecated, use cmd_sg_entries\n");
		if (!srp_cmd_sg_entries)
			srp_cmd_sg_entries = srp_sg_tablesize;
	}
	if (!srp_cmd_sg_entries)
		srp_cmd_sg_entries = SRP_DEF_CMD_SG_ENTRIES;
	if (srp_cmd_sg_entries > 255) {
		pr_warn("clamping cmd_sg_entries to 255\n");
		srp_cmd_sg_entries = 255;
	}
	if (!srp_indirect_sg_entries) {
		srp_indirect_sg_entries = srp_cmd_sg_entries;
	} else if (srp_indirect_sg_entries < srp_cmd_sg_entries) {
		pr_warn("raising indirect_sg_entries to cmd_sg_entries (%u)\n",
			srp_cmd_sg_entries);
		srp_indirect_sg_entries = srp_cmd_sg_entries;
	}
	if (srp_indirect_sg_entries > SG_MAX_SEGMENTS) {
		pr_warn("clamping indirect_sg_entries to %u\n",
			SG_MAX_SEGMENTS);
		srp_indirect_sg_entries = SG_MAX_SEGMENTS;
	}
}

/**
 * srp_target_init() - set up what every target shares
 * @transport: the SRP transport template the SCSI hosts are added with
 *
 * Return: 0 or -ENOMEM.
 */
int srp_target_init(struct scsi_transport_template *transport)
{
	srp_fixup_params();
	/*
	 * Not WQ_MEM_RECLAIM: removing a SCSI host flushes runtime-PM work of
	 * its devices, which runs on a workqueue without a rescuer.
	 */
	srp_remove_wq = alloc_workqueue("srp_remove", 0, 0);
	if (!srp_remove_wq)
		return -ENOMEM;
	srp_transport = transport;
	return 0;
}

/**
 * srp_target_exit() - undo srp_target_init()
 *
 * Context: every target is removed (srp_target_remove_all() of each port).
 */
void srp_target_exit(void)
{
	destroy_workqueue(srp_remove_wq);
}
