// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * RDMA device removal. ib_iser is an ib_client so that an ib_device going
 * away (rdma link delete, driver unbind) takes our connections on it down
 * before the device, its PD and its CQ pool disappear, with or without
 * iscsid running:
 *   1. report a connection failure: scsi_transport_iscsi's cleanup work
 *      then unbinds the connection, disconnects the endpoint and stops the
 *      connection on its own, which frees every task's registration;
 *   2. wait (bounded) for that unbind;
 *   3. terminate and free the connection's device resources and its
 *      cm_id; a connection still bound then has its tasks give back
 *      their MRs and mappings first (iser_conn_drop_tasks()); the
 *      connection object lives on until its endpoint is disconnected;
 *   4. wait for the releases already queued of connections on any device
 *      (iser_conn_flush_releases()): they still hold theirs.
 * Sessions then recover through another device or fail after their
 * replacement timeout, as for any other connection loss.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "iser.h"

#define ISER_REMOVE_UNBIND_TIMEOUT	(30 * HZ)

static void iser_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct iser_conn *ic;

	while ((ic = iser_conn_next_on_device(ibdev))) {
		dev_info(&ibdev->dev, "device removal: closing connection\n");
		iser_conn_error(ic);
		if (!iser_conn_wait_unbound(ic, ISER_REMOVE_UNBIND_TIMEOUT))
			dev_warn(&ibdev->dev,
				 "connection still bound after 30 s, freeing anyway\n");
		mutex_lock(&ic->state_mutex);
		iser_conn_terminate(ic);
		iser_conn_drop_tasks(ic);
		mutex_unlock(&ic->state_mutex);
		iser_conn_free_hw(ic);
		/* the device goes: no DREQ of it will be answered */
		iser_conn_destroy_id(ic);
		iser_conn_put(ic);
	}
	iser_conn_flush_releases();
}

static struct ib_client iser_client = {
	.name	= "ib_iser",
	.remove	= iser_remove_one,
};

/**
 * iser_client_register() - watch RDMA devices for removal
 *
 * Return: 0 or a negative errno.
 */
int iser_client_register(void)
{
	return ib_register_client(&iser_client);
}

/**
 * iser_client_unregister() - undo iser_client_register()
 */
void iser_client_unregister(void)
{
	ib_unregister_client(&iser_client);
}
