/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The states of an iSER connection and of a task's rkey, and which changes
 * of them are legal: pure logic, compiled in the kernel and, against
 * tests/unit/shim, by tests/unit/test_iser_state.c.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef ISER_STATE_H
#define ISER_STATE_H

#include <linux/types.h>

/**
 * enum iser_conn_state - life of an RDMA connection
 * @ISER_CONN_CONNECTING:  address/route resolution or CM connect running
 * @ISER_CONN_UP:          established; PDUs may be posted
 * @ISER_CONN_FAILED:      connection attempt failed (ep_poll returns < 0)
 * @ISER_CONN_TERMINATING: disconnect requested or error seen, QP not
 *                         yet drained
 * @ISER_CONN_DOWN:        QP drained: no completion will run any more
 *
 * Changed under &iser_conn.state_mutex by iser_set_state() only, along the
 * transitions iser_conn_state_change_ok() allows.
 */
enum iser_conn_state {
	ISER_CONN_CONNECTING,
	ISER_CONN_UP,
	ISER_CONN_FAILED,
	ISER_CONN_TERMINATING,
	ISER_CONN_DOWN,
};

/**
 * enum iser_inv - where the invalidation of a task's rkey stands
 * @ISER_INV_NONE:   the rkey is valid (or the task registered nothing)
 * @ISER_INV_POSTED: the LOCAL_INV a completing PDU waits for is posted and
 *                   has not completed: the rkey may still be valid
 * @ISER_INV_DONE:   the rkey is invalid: that LOCAL_INV completed, or the
 *                   target invalidated it with Send with Invalidate, or it
 *                   is in the chain whose completion delivers the task
 *                   management response that ends the command
 *
 * Changed under the session's back_lock.
 */
enum iser_inv {
	ISER_INV_NONE,
	ISER_INV_POSTED,
	ISER_INV_DONE,
};

/**
 * struct iser_inv_facts - what iser_inv_check() decides on
 * @completes:  the PDU completes its command (SCSI Response, or Data-In
 *              with status)
 * @remote:     it arrived with Send with Invalidate
 * @negotiated: Send with Invalidate was agreed when connecting
 * @task:       its ITT names a SCSI command
 * @registered: that command registered memory (has an rkey)
 * @sent:       that command's SEND was posted: the target knows the rkey
 * @tmf_ended:  a completed task management function ended that command
 * @inv:        where the invalidation of its rkey stands
 * @rkey_match: with @remote: the rkey invalidated is that command's
 */
struct iser_inv_facts {
	bool completes;
	bool remote;
	bool negotiated;
	bool task;
	bool registered;
	bool sent;
	bool tmf_ended;
	enum iser_inv inv;
	bool rkey_match;
};

/**
 * enum iser_inv_step - what a received PDU does about its command's rkey
 * @ISER_INV_DELIVER:        deliver now: no rkey of the command is left
 *                           for the target to reach
 * @ISER_INV_REMOTE_DONE:    the target invalidated the rkey: mark it so,
 *                           deliver now
 * @ISER_INV_HOLD:           post a LOCAL_INV of the rkey; its completion
 *                           delivers the PDU
 * @ISER_INV_NOT_NEGOTIATED: Send with Invalidate that was not agreed
 * @ISER_INV_WRONG_RKEY:     Send with Invalidate of another rkey than the
 *                           answered command's, or on a PDU that completes
 *                           nothing
 * @ISER_INV_AFTER_TMF:      an answer to a command a completed task
 *                           management function ended
 * @ISER_INV_TWICE:          a second completion of a command whose first
 *                           one is held
 *
 * The last four are protocol errors that fail the connection.
 */
enum iser_inv_step {
	ISER_INV_DELIVER,
	ISER_INV_REMOTE_DONE,
	ISER_INV_HOLD,
	ISER_INV_NOT_NEGOTIATED,
	ISER_INV_WRONG_RKEY,
	ISER_INV_AFTER_TMF,
	ISER_INV_TWICE,
};

bool iser_conn_state_change_ok(enum iser_conn_state old,
			       enum iser_conn_state new);
const char *iser_conn_state_name(enum iser_conn_state state);
enum iser_inv_step iser_inv_check(const struct iser_inv_facts *f);

#endif /* ISER_STATE_H */
