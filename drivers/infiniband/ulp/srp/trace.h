/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp tracepoints: login, command submit/complete, TMFs and errors.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ib_srp

#if !defined(IB_SRP_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define IB_SRP_TRACE_H

#include <linux/tracepoint.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

#include "srp.h"

TRACE_EVENT(srp_login,
	    TP_PROTO(struct srp_channel *ch, s32 req_lim, u32 it_iu_len,
		     u32 ti_iu_len, bool imm),
	    TP_ARGS(ch, req_lim, it_iu_len, ti_iu_len, imm),
	    TP_STRUCT__entry(__field(unsigned int, host_no)
			     __field(unsigned int, ch)
			     __field(s32, req_lim)
			     __field(u32, it_iu_len)
			     __field(u32, ti_iu_len)
			     __field(bool, imm)),
	    TP_fast_assign(__entry->host_no = ch->target->shost->host_no;
			   __entry->ch = ch->idx;
			   __entry->req_lim = req_lim;
			   __entry->it_iu_len = it_iu_len;
			   __entry->ti_iu_len = ti_iu_len;
			   __entry->imm = imm;),
	    TP_printk("host%u ch%u req_lim=%d it_iu_len=%u ti_iu_len=%u imm=%d",
		      __entry->host_no, __entry->ch, __entry->req_lim,
		      __entry->it_iu_len, __entry->ti_iu_len, __entry->imm)
);

TRACE_EVENT(srp_cmd_submit,
	    TP_PROTO(struct srp_channel *ch, struct scsi_cmnd *scmnd, u32 tag),
	    TP_ARGS(ch, scmnd, tag),
	    TP_STRUCT__entry(__field(unsigned int, host_no)
			     __field(unsigned int, ch)
			     __field(u32, tag)
			     __field(u8, opcode)
			     __field(u32, len)),
	    TP_fast_assign(__entry->host_no = ch->target->shost->host_no;
			   __entry->ch = ch->idx;
			   __entry->tag = tag;
			   __entry->opcode = scmnd->cmnd[0];
			   __entry->len = scsi_bufflen(scmnd);),
	    TP_printk("host%u ch%u tag=%#x op=%#x len=%u",
		      __entry->host_no, __entry->ch, __entry->tag,
		      __entry->opcode, __entry->len)
);

TRACE_EVENT(srp_cmd_done,
	    TP_PROTO(struct srp_channel *ch, struct scsi_cmnd *scmnd, int result),
	    TP_ARGS(ch, scmnd, result),
	    TP_STRUCT__entry(__field(unsigned int, host_no)
			     __field(unsigned int, ch)
			     __field(u8, opcode)
			     __field(int, result)),
	    TP_fast_assign(__entry->host_no = ch->target->shost->host_no;
			   __entry->ch = ch->idx;
			   __entry->opcode = scmnd->cmnd[0];
			   __entry->result = result;),
	    TP_printk("host%u ch%u op=%#x result=%#x",
		      __entry->host_no, __entry->ch, __entry->opcode,
		      __entry->result)
);

TRACE_EVENT(srp_tmf,
	    TP_PROTO(struct srp_channel *ch, u8 func, u64 task_tag, int ret),
	    TP_ARGS(ch, func, task_tag, ret),
	    TP_STRUCT__entry(__field(unsigned int, host_no)
			     __field(unsigned int, ch)
			     __field(u8, func)
			     __field(u64, task_tag)
			     __field(int, ret)),
	    TP_fast_assign(__entry->host_no = ch->target->shost->host_no;
			   __entry->ch = ch->idx;
			   __entry->func = func;
			   __entry->task_tag = task_tag;
			   __entry->ret = ret;),
	    TP_printk("host%u ch%u func=%#x task_tag=%#llx ret=%d",
		      __entry->host_no, __entry->ch, __entry->func,
		      __entry->task_tag, __entry->ret)
);

TRACE_EVENT(srp_error,
	    TP_PROTO(struct srp_channel *ch, int status),
	    TP_ARGS(ch, status),
	    TP_STRUCT__entry(__field(unsigned int, host_no)
			     __field(unsigned int, ch)
			     __field(int, status)),
	    TP_fast_assign(__entry->host_no = ch->target->shost->host_no;
			   __entry->ch = ch->idx;
			   __entry->status = status;),
	    TP_printk("host%u ch%u status=%d",
		      __entry->host_no, __entry->ch, __entry->status)
);
#endif /* IB_SRP_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
