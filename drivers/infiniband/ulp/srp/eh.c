// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: SCSI error handling - ABORT TASK, LUN RESET and host reset.
 *
 * Task management functions (tmf.c) go out on the channel of the command
 * (or of the LUN's last command). Their response code is checked: only a
 * completed function counts as success. Host reset is a reconnect through
 * the transport class.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <scsi/scsi.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_transport_srp.h>

#include "channel.h"
#include "tmf.h"
#include "cmd.h"
#include "eh.h"
#include "rport.h"

/*
 * SUCCESS for a command the driver no longer owns: claimed, and completed
 * once its MRs are invalid (srp_wait_completing()).
 */
static int srp_eh_claimed(struct srp_target *target, struct srp_request *req)
{
	return srp_wait_completing(target, NULL, req) ? SUCCESS : FAILED;
}

/*
 * FAST_IO_FAIL for a command of a lost rport: the midlayer may fail it at
 * once and reuse its pages. dev_loss_tmo marks an rport lost without
 * failing its I/O (only fast_io_fail_tmo does, through
 * srp_rport_terminate_io()), and a channel given up on an unanswered task
 * management function keeps its QP up until the removal tears it down,
 * after the SCSI devices: with fast_io_fail_tmo off the target could
 * still write into the pages. So the channels are fenced first, which
 * completes the command with their others, and only then is it handed
 * back.
 */
static int srp_eh_abort_lost(struct srp_target *target,
			     struct srp_request *req)
{
	srp_rport_fence(target, "abort on a lost rport");
	return srp_eh_claimed(target, req) == SUCCESS ? FAST_IO_FAIL : FAILED;
}

/**
 * srp_eh_abort() - ABORT TASK for one command, on its own channel
 * @scmnd: the command
 *
 * Return: SUCCESS when the command is no longer outstanding, FAST_IO_FAIL
 * when the rport is gone (srp_eh_abort_lost()), FAILED otherwise.
 */
int srp_eh_abort(struct scsi_cmnd *scmnd)
{
	struct srp_target *target = host_to_target(scmnd->device->host);
	struct srp_request *req = scsi_cmd_priv(scmnd);
	struct srp_channel *ch = req->ch;
	u32 tag = blk_mq_unique_tag(scsi_cmd_to_rq(scmnd));
	int ret;

	if (!ch || READ_ONCE(req->scmnd) != scmnd)
		return srp_eh_claimed(target, req);
	/* A polled channel may hold its response, unreaped: no abort then. */
	if (srp_ch_poll(ch) && READ_ONCE(req->scmnd) != scmnd)
		return srp_eh_claimed(target, req);

	shost_printk(KERN_WARNING, target->shost,
		     "aborting tag %#x on channel %u\n", tag, ch->idx);
	ret = srp_send_tmf(ch, tag, scmnd->device->lun, SRP_TMF_ABORT_TASK);
	if (ret == SRP_TMF_RSP_COMPLETE) {
		if (srp_claim_req(ch, req)) {
			set_host_byte(scmnd, DID_ABORT);
			srp_complete_cmd(ch, scmnd);
		}
		return srp_eh_claimed(target, req);
	}
	if (READ_ONCE(req->scmnd) != scmnd)
		return srp_eh_claimed(target, req);
	if (READ_ONCE(target->rport->state) == SRP_RPORT_LOST)
		return srp_eh_abort_lost(target, req);
	return FAILED;
}

/**
 * srp_eh_device_reset() - LUN RESET on the channel of the failing command
 * @scmnd: a command of the LUN
 *
 * Return: SUCCESS or FAILED.
 */
int srp_eh_device_reset(struct scsi_cmnd *scmnd)
{
	struct scsi_device *sdev = scmnd->device;
	struct srp_target *target = host_to_target(sdev->host);
	struct srp_request *req = scsi_cmd_priv(scmnd);
	struct srp_channel *ch = req->ch ? req->ch : &target->ch[0];

	shost_printk(KERN_WARNING, target->shost,
		     "LUN reset for LUN %llu on channel %u\n", sdev->lun,
		     ch->idx);
	if (srp_send_tmf(ch, 0, sdev->lun, SRP_TMF_LUN_RESET) !=
	    SRP_TMF_RSP_COMPLETE)
		return FAILED;
	srp_fail_outstanding(target, sdev, DID_RESET);
	return srp_wait_completing(target, sdev, NULL) ? SUCCESS : FAILED;
}

/**
 * srp_eh_host_reset() - reconnect every channel
 * @scmnd: a command of the host
 *
 * A reconnect drains every old channel before it completes what they
 * carried. One that fails may have done neither (a target being removed,
 * an rport lost), and the error handler completes its commands whatever
 * we return: the channels are fenced first (srp_rport_fence()). Unless the
 * transport's reconnect work brought them back meanwhile: the reset has
 * then happened, and FAILED would have the error handler take the disks
 * offline on a path that works.
 *
 * Return: SUCCESS or FAILED.
 */
int srp_eh_host_reset(struct scsi_cmnd *scmnd)
{
	struct srp_target *target = host_to_target(scmnd->device->host);

	shost_printk(KERN_WARNING, target->shost,
		     "host reset: reconnecting\n");
	if (!srp_reconnect_rport(target->rport))
		return SUCCESS;
	return srp_rport_fence(target, "host reset failed") ? FAILED : SUCCESS;
}
