// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The send queue of a connection: how many commands it carries next to the
 * room set aside for unsolicited Data-Out PDUs, and how a command's burst
 * shares that room with the others'.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/kernel.h>

#include "unsol.h"

/**
 * iser_sq_cmds() - how many commands a connection's send queue carries
 * @max_qp_wr: the device's limit of work requests per queue
 * @reserved:  entries kept for other work requests (unsolicited Data-Out,
 *	       the drain)
 * @per_cmd:   send work requests one command may have posted at once
 * @max:       the most commands a connection may carry
 *
 * Return: the commands whose work requests fit beside @reserved, at most
 * @max; 0 when @max_qp_wr leaves no room beyond @reserved.
 */
unsigned int iser_sq_cmds(int max_qp_wr, unsigned int reserved,
			  unsigned int per_cmd, unsigned int max)
{
	if (max_qp_wr <= 0 || (unsigned int)max_qp_wr <= reserved)
		return 0;
	return min(max, ((unsigned int)max_qp_wr - reserved) / per_cmd);
}

/**
 * iser_unsol_plan() - the unsolicited Data-Out PDUs a write command sends
 * @unsol_len: bytes libiscsi would send as unsolicited Data-Out PDUs, after
 *	       the immediate data
 * @seg_len:   MaxXmitDataSegmentLength: bytes one Data-Out PDU carries
 * @nr_dout:   Data-Out descriptors of the task
 * @in_flight: Data-Out SENDs posted on the connection and not completed
 * @room:      send queue entries set aside for Data-Out SENDs
 *
 * All of them or none. The send queue has @room entries for the Data-Out
 * PDUs of all commands together, and a burst cut short by a full queue
 * could not be finished: libiscsi hands a task to the transport once, and
 * takes an error as "not sent" although the command already went out.
 * So a burst goes out only if all of it fits behind @in_flight; otherwise
 * the command announces no Data-Out (F bit set) and the target reads that
 * data by RDMA READ, as it does with InitialR2T=Yes.
 *
 * Return: the number of Data-Out PDUs to post, to be added to @in_flight;
 * 0 when the command sends none.
 */
unsigned int iser_unsol_plan(u32 unsol_len, u32 seg_len, unsigned int nr_dout,
			     unsigned int in_flight, unsigned int room)
{
	unsigned int n;

	if (!unsol_len || !seg_len)
		return 0;
	n = unsol_len / seg_len + !!(unsol_len % seg_len);
	if (n > nr_dout || n > room || in_flight > room - n)
		return 0;
	return n;
}
