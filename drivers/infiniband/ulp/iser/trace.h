/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_iser tracepoints: connection state changes, command submission with
 * the registration advertised, received PDUs, failed completions, and
 * the destruction of a released connection's cm_id: how long after the
 * release, and whether the CM had finished the disconnect.
 *
 *   echo 1 > /sys/kernel/tracing/events/ib_iser/enable
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ib_iser

#if !defined(ISER_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define ISER_TRACE_H

#include <linux/tracepoint.h>
#include <rdma/ib_verbs.h>

TRACE_EVENT(iser_conn_state,
	    TP_PROTO(const void *conn, int old, int new),
	    TP_ARGS(conn, old, new),
	    TP_STRUCT__entry(__field(const void *, conn)
			     __field(int, old)
			     __field(int, new)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->old = old;
			   __entry->new = new;),
	    TP_printk("conn=%p state %d -> %d", __entry->conn, __entry->old,
		      __entry->new)
);

TRACE_EVENT(iser_cmd_send,
	    TP_PROTO(const void *conn, u32 itt, u32 len, u32 imm, u8 flags,
		     u32 rkey),
	    TP_ARGS(conn, itt, len, imm, flags, rkey),
	    TP_STRUCT__entry(__field(const void *, conn)
			     __field(u32, itt)
			     __field(u32, len)
			     __field(u32, imm)
			     __field(u8, flags)
			     __field(u32, rkey)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->itt = itt;
			   __entry->len = len;
			   __entry->imm = imm;
			   __entry->flags = flags;
			   __entry->rkey = rkey;),
	    TP_printk("conn=%p itt=0x%x len=%u imm=%u iser_flags=0x%02x rkey=0x%x",
		      __entry->conn, __entry->itt, __entry->len, __entry->imm,
		      __entry->flags, __entry->rkey)
);

TRACE_EVENT(iser_rx_pdu,
	    TP_PROTO(const void *conn, u8 opcode, u32 itt, u32 dlen, bool inv),
	    TP_ARGS(conn, opcode, itt, dlen, inv),
	    TP_STRUCT__entry(__field(const void *, conn)
			     __field(u8, opcode)
			     __field(u32, itt)
			     __field(u32, dlen)
			     __field(bool, inv)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->opcode = opcode;
			   __entry->itt = itt;
			   __entry->dlen = dlen;
			   __entry->inv = inv;),
	    TP_printk("conn=%p opcode=0x%02x itt=0x%x dlen=%u remote_inv=%d",
		      __entry->conn, __entry->opcode, __entry->itt,
		      __entry->dlen, __entry->inv)
);

TRACE_EVENT(iser_wc_error,
	    TP_PROTO(const void *conn, const struct ib_wc *wc),
	    TP_ARGS(conn, wc),
	    TP_STRUCT__entry(__field(const void *, conn)
			     __field(int, status)
			     __field(int, opcode)
			     __field(u32, vendor_err)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->status = wc->status;
			   __entry->opcode = wc->opcode;
			   __entry->vendor_err = wc->vendor_err;),
	    TP_printk("conn=%p status=%d opcode=%d vendor_err=0x%x",
		      __entry->conn, __entry->status, __entry->opcode,
		      __entry->vendor_err)
);

TRACE_EVENT(iser_cm_id_destroy,
	    TP_PROTO(const void *conn, unsigned int lingered_ms, bool closed),
	    TP_ARGS(conn, lingered_ms, closed),
	    TP_STRUCT__entry(__field(const void *, conn)
			     __field(unsigned int, lingered_ms)
			     __field(bool, closed)),
	    TP_fast_assign(__entry->conn = conn;
			   __entry->lingered_ms = lingered_ms;
			   __entry->closed = closed;),
	    TP_printk("conn=%p lingered_ms=%u cm_closed=%d", __entry->conn,
		      __entry->lingered_ms, __entry->closed)
);

#endif /* ISER_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
