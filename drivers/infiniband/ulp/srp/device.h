/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: an RDMA device and its ports as SRP uses them, created by
 * the IB client (client.c).
 *
 *  srp_device   one per RDMA device (IB client data); holds the rdi_core
 *               device (PD, FR capabilities) and the list of its ports.
 *  srp_host     one per device port: the class device srp-<dev>-<port>
 *               whose add_target file creates targets.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef IB_SRP_DEVICE_H
#define IB_SRP_DEVICE_H

#include <linux/completion.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <rdi/core.h>

/**
 * struct srp_device - per RDMA device state (IB client data)
 * @rdi:         rdi_core device: shared PD and memory-registration limits
 * @ib_dev:      the RDMA device
 * @pd:          only when never_register=Y or register_always=N asked for
 *               unregistered commands: a PD with an unsafe global rkey,
 *               shared by every SRP QP on this device (rdi_core's PD,
 *               iSER's too, never gets such a key); NULL otherwise, and
 *               each channel has a PD of its own (&srp_channel.pd)
 * @hosts:       srp_host of every port; written only by the IB client
 *               add/remove callbacks, which the IB core serialises
 * @use_fr:      commands register their data with fast registration
 * @register_always: register_always at load: false lets commands of one
 *               DMA segment use @global_rkey
 * @global_rkey: rkey covering all memory, 0 when @pd has none
 * @max_pages_per_mr: pages one FR MR maps for this driver
 *
 * All fields are constant between srp_add_one() and srp_remove_one().
 */
struct srp_device {
	struct rdi_device	*rdi;
	struct ib_device	*ib_dev;
	struct ib_pd		*pd;
	struct list_head	hosts;
	bool			use_fr;
	bool			register_always;
	u32			global_rkey;
	u32			max_pages_per_mr;
};

/**
 * struct srp_host - one port of an RDMA device
 * @sdev:        device this port belongs to
 * @port:        port number (1-based)
 * @dev:         class device srp-<ibdev>-<port>
 * @entry:       link in @sdev->hosts
 * @add_mutex:   serialises add_target writes on this port
 * @lock:        protects @targets, @removing and @adding_ch
 * @targets:     srp_target logged in through this port
 * @removing:    the port is being removed: no login starts on it any more
 *               (srp_ch_login_start()); set once, never cleared
 * @adding_ch:   the channel an add_target write is logging in, if any
 *               (srp_target_stop_adding() breaks that login off)
 * @released:    completed by the class device's release callback
 */
struct srp_host {
	struct srp_device	*sdev;
	u32			port;
	struct device		dev;
	struct list_head	entry;
	struct mutex		add_mutex;	/* one add_target at a time */
	spinlock_t		lock;
	struct list_head	targets;
	bool			removing;
	struct srp_channel	*adding_ch;
	struct completion	released;
};

#endif /* IB_SRP_DEVICE_H */
