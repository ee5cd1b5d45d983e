// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Which state changes of a connection are legal, and what a received PDU
 * does about the rkey of the command it answers.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/kernel.h>

#include "state.h"

/**
 * iser_conn_state_change_ok() - is a connection state change legal
 * @old: the state the connection is in
 * @new: the state asked for
 *
 * An attempt ends UP or FAILED (ep.c: the CM handler); an established
 * connection the CM reports gone is TERMINATING until torn down;
 * iser_conn_terminate() fails an attempt (again, if it already failed) and
 * ends every connection that is not DOWN yet, an attempt by way of FAILED.
 * DOWN is final.
 *
 * Return: true when the connection may move from @old to @new.
 */
bool iser_conn_state_change_ok(enum iser_conn_state old,
			       enum iser_conn_state new)
{
	switch (new) {
	case ISER_CONN_CONNECTING:
		return false;
	case ISER_CONN_UP:
		return old == ISER_CONN_CONNECTING;
	case ISER_CONN_FAILED:
		return old == ISER_CONN_CONNECTING || old == ISER_CONN_FAILED;
	case ISER_CONN_TERMINATING:
		return old == ISER_CONN_UP;
	case ISER_CONN_DOWN:
		return old == ISER_CONN_FAILED || old == ISER_CONN_UP ||
		       old == ISER_CONN_TERMINATING;
	}
	return false;
}

/**
 * iser_conn_state_name() - a connection state, for the log
 * @state: the state
 *
 * Return: its name, "?" for a value that is none.
 */
const char *iser_conn_state_name(enum iser_conn_state state)
{
	switch (state) {
	case ISER_CONN_CONNECTING:
		return "CONNECTING";
	case ISER_CONN_UP:
		return "UP";
	case ISER_CONN_FAILED:
		return "FAILED";
	case ISER_CONN_TERMINATING:
		return "TERMINATING";
	case ISER_CONN_DOWN:
		return "DOWN";
	}
	return "?";
}

/**
 * iser_inv_check() - may a received PDU be delivered, given its command's
 *	rkey
 * @f: what is known of the PDU and the command its ITT names
 *
 * A PDU that completes a command reaches libiscsi, which completes the
 * command to SCSI, only once the target can no longer reach the command's
 * memory: the target invalidated the rkey itself (Send with Invalidate,
 * when agreed, of that rkey), or our LOCAL_INV of it completed
 * (ISER_INV_HOLD until then). A remote invalidation of anything else, an
 * answer to a command a task management function ended, and a second
 * completion while the first is held are protocol errors.
 *
 * Return: the step to take, see &enum iser_inv_step.
 */
enum iser_inv_step iser_inv_check(const struct iser_inv_facts *f)
{
	if (f->task && f->tmf_ended)
		return ISER_INV_AFTER_TMF;
	if (f->task && f->inv == ISER_INV_POSTED && f->completes)
		return ISER_INV_TWICE;
	if (f->remote && !f->negotiated)
		return ISER_INV_NOT_NEGOTIATED;
	if (f->remote && (!f->completes || !f->task || !f->registered ||
			  !f->sent || !f->rkey_match))
		return ISER_INV_WRONG_RKEY;
	if (!f->completes || !f->task || !f->registered || !f->sent ||
	    f->inv != ISER_INV_NONE)
		return ISER_INV_DELIVER;
	return f->remote ? ISER_INV_REMOTE_DONE : ISER_INV_HOLD;
}
