// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core: the report of a failed work completion.
 *
 * A failed completion puts the QP in the error state and flushes the rest
 * of its work requests. What happens next is the owner's business (SRP
 * recovers a channel or the rport, iSER fails the iSCSI connection), but
 * the administrator reads the same line from every initiator: who owned
 * the QP, which work request failed and how.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/module.h>
#include <rdi/core.h>

/**
 * rdi_wc_log() - log a failed work completion
 * @dev:  device to log under: the owner's (a SCSI host) or the RDMA device
 * @who:  the QP's owner as the log names it, e.g. "channel 1" or the
 *        target's address
 * @what: the kind of work request, e.g. "RECV"
 * @wc:   the completion, with a status other than IB_WC_SUCCESS
 *
 * Logs "<who>: <what> failed: <status text> (<status>), vendor error <x>",
 * rate-limited. Callers decide which failures are worth a line: flushes
 * after a disconnect usually are not.
 *
 * Context: any.
 */
void rdi_wc_log(struct device *dev, const char *who, const char *what,
		const struct ib_wc *wc)
{
	dev_err_ratelimited(dev, "%s: %s failed: %s (%d), vendor error %#x\n",
			    who, what, ib_wc_status_msg(wc->status),
			    wc->status, wc->vendor_err);
}
EXPORT_SYMBOL_GPL(rdi_wc_log);
