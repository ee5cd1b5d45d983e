// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: encoding and decoding of SRP information units (see proto.h).
 *
 * Encoders fill whole IUs, reserved bytes included, so nothing from a
 * previous use of a ring buffer leaks onto the wire. Decoders trust nothing
 * in a received IU: the received length bounds every read, length fields are
 * added in 64 bits before they are compared with it, and any inconsistency
 * is -EPROTO.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "proto.h"

static void srp_put_be64(u8 *p, u64 v)
{
	__be64 b = cpu_to_be64(v);

	memcpy(p, &b, sizeof(b));
}

/**
 * srp_fill_port_ids() - build the initiator and target port identifiers
 * @p:              login parameters to fill
 * @io_class:       SRP_IO_CLASS_R16A, or SRP_IO_CLASS_R10 for targets
 *                  that want the halves swapped
 * @initiator_ext:  initiator port identifier extension
 * @initiator_guid: interface ID of the local port's GID (CPU order)
 * @id_ext:         target port identifier extension
 * @ioc_guid:       I/O controller GUID
 *
 * SRP r16a: initiator = initiator_ext || GUID, target = id_ext || ioc_guid,
 * each half big-endian. r10 targets expect the two halves of each
 * identifier in the opposite order.
 */
void srp_fill_port_ids(struct srp_login_params *p, u16 io_class,
		       u64 initiator_ext, u64 initiator_guid,
		       u64 id_ext, u64 ioc_guid)
{
	bool r10 = io_class == SRP_IO_CLASS_R10;

	srp_put_be64(p->initiator_port_id + (r10 ? 8 : 0), initiator_ext);
	srp_put_be64(p->initiator_port_id + (r10 ? 0 : 8), initiator_guid);
	srp_put_be64(p->target_port_id + (r10 ? 8 : 0), id_ext);
	srp_put_be64(p->target_port_id + (r10 ? 0 : 8), ioc_guid);
}

/**
 * srp_it_iu_len() - IT IU length to request at login
 * @cmd_sg_cnt:     data descriptors the driver puts inside SRP_CMD
 * @imm_data:       immediate data will be requested
 * @max_imm_data:   bytes of immediate data per command
 * @max_it_iu_size: cap from add_target's max_it_iu_size, 0 for none
 *
 * Room for SRP_CMD, an indirect descriptor header and @cmd_sg_cnt direct
 * descriptors, or for SRP_IMM_DATA_OFFSET plus @max_imm_data when that is
 * larger. A @max_it_iu_size cap is applied last: the driver must then fit
 * its IUs into the length the login response grants.
 *
 * Return: the length in bytes.
 */
u32 srp_it_iu_len(unsigned int cmd_sg_cnt, bool imm_data, u32 max_imm_data,
		  u32 max_it_iu_size)
{
	u64 len = srp_it_iu_len_fallback(cmd_sg_cnt);

	if (imm_data && SRP_IMM_DATA_OFFSET + (u64)max_imm_data > len)
		len = SRP_IMM_DATA_OFFSET + (u64)max_imm_data;
	if (max_it_iu_size && len > max_it_iu_size)
		len = max_it_iu_size;
	return len > U32_MAX ? U32_MAX : len;
}

/**
 * srp_it_iu_len_fallback() - IT IU length without immediate data
 * @cmd_sg_cnt: data descriptors the driver puts inside SRP_CMD
 *
 * SRP_LOGIN_REJ "IT IU length too large" does not say what the target
 * accepts. The driver retries once with this length, the smallest one that
 * still carries its descriptors, if it is smaller than the rejected one.
 *
 * Return: the length in bytes.
 */
u32 srp_it_iu_len_fallback(unsigned int cmd_sg_cnt)
{
	return SRP_CMD_MIN_IU_LEN +
	       min(cmd_sg_cnt, 255U) * sizeof(struct srp_direct_desc);
}

static u8 srp_login_flags(const struct srp_login_params *p)
{
	return (p->multichan ? SRP_LOGIN_MULTICHAN_MULTI :
			       SRP_LOGIN_MULTICHAN_SINGLE) |
	       (p->imm_data ? SRP_LOGIN_IMMED_REQUESTED : 0);
}

/**
 * srp_build_login_req() - encode SRP_LOGIN_REQ for IB CM private data
 * @req: the 64-byte IU
 * @p:   what to request
 */
void srp_build_login_req(struct srp_iu_login_req *req,
			 const struct srp_login_params *p)
{
	memset(req, 0, sizeof(*req));
	req->opcode = SRP_IU_LOGIN_REQ;
	req->tag = cpu_to_be64(p->tag);
	req->req_it_iu_len = cpu_to_be32(p->it_iu_len);
	req->req_buf_fmt = cpu_to_be16(p->buf_fmt);
	req->req_flags = srp_login_flags(p);
	if (p->imm_data)
		req->imm_data_offset = cpu_to_be16(SRP_IMM_DATA_OFFSET);
	memcpy(req->initiator_port_id, p->initiator_port_id, SRP_PORT_ID_LEN);
	memcpy(req->target_port_id, p->target_port_id, SRP_PORT_ID_LEN);
}

/**
 * srp_build_login_req_rdma() - encode SRP_LOGIN_REQ for RDMA/CM private data
 * @req: the 56-byte request
 * @p:   what to request
 */
void srp_build_login_req_rdma(struct srp_iu_login_req_rdma *req,
			      const struct srp_login_params *p)
{
	memset(req, 0, sizeof(*req));
	req->opcode = SRP_IU_LOGIN_REQ;
	req->tag = cpu_to_be64(p->tag);
	req->req_it_iu_len = cpu_to_be32(p->it_iu_len);
	req->req_buf_fmt = cpu_to_be16(p->buf_fmt);
	req->req_flags = srp_login_flags(p);
	if (p->imm_data)
		req->imm_data_offset = cpu_to_be16(SRP_IMM_DATA_OFFSET);
	memcpy(req->initiator_port_id, p->initiator_port_id, SRP_PORT_ID_LEN);
	memcpy(req->target_port_id, p->target_port_id, SRP_PORT_ID_LEN);
}

/**
 * srp_parse_login_rsp() - validate and decode SRP_LOGIN_RSP
 * @buf: CM reply private data
 * @len: its length
 * @res: decoded response
 *
 * Return: 0, or -EPROTO if the IU is short, of another type, grants no
 * credit, or announces IU lengths too small to carry SRP_CMD or SRP_RSP.
 */
int srp_parse_login_rsp(const void *buf, size_t len,
			struct srp_login_result *res)
{
	const struct srp_iu_login_rsp *rsp = buf;

	if (len < sizeof(*rsp) || rsp->opcode != SRP_IU_LOGIN_RSP)
		return -EPROTO;

	res->tag = be64_to_cpu(rsp->tag);
	res->req_lim = be32_to_cpu(rsp->req_lim_delta);
	res->max_it_iu_len = be32_to_cpu(rsp->max_it_iu_len);
	res->max_ti_iu_len = be32_to_cpu(rsp->max_ti_iu_len);
	res->buf_fmt = be16_to_cpu(rsp->buf_fmt);
	res->multichan = rsp->rsp_flags & SRP_LOGIN_RSP_MULTICHAN_MASK;
	res->imm_data = rsp->rsp_flags & SRP_LOGIN_RSP_IMMED_SUPPORTED;

	if (!res->req_lim || res->req_lim > INT_MAX ||
	    res->max_it_iu_len < sizeof(struct srp_iu_cmd) ||
	    res->max_ti_iu_len < sizeof(struct srp_iu_rsp))
		return -EPROTO;
	return 0;
}

/**
 * srp_cmd_iu_len() - size of the largest SRP_CMD a host sends
 * @cmd_sg_cnt: data descriptors the host may put in one SRP_CMD
 * @max_desc:   data descriptors one command may need in all; above
 *              @cmd_sg_cnt the rest travel in an external table
 * @buf_fmt:    SRP_BUF_FMT_* the target supports
 *
 * A command with a 16-byte CDB and one descriptor, direct when the target
 * takes direct descriptors and no command needs more; otherwise - several
 * descriptors in the IU, an external table, or a target that takes only
 * indirect ones - an indirect descriptor header followed by @cmd_sg_cnt
 * direct descriptors. Longer CDBs are refused per command.
 *
 * Return: the length in bytes.
 */
u32 srp_cmd_iu_len(unsigned int cmd_sg_cnt, unsigned int max_desc,
		   u16 buf_fmt)
{
	if (cmd_sg_cnt <= 1 && max_desc <= 1 && buf_fmt & SRP_BUF_FMT_DIRECT)
		return sizeof(struct srp_iu_cmd) +
		       sizeof(struct srp_direct_desc);
	return srp_it_iu_len_fallback(max(cmd_sg_cnt, 1U));
}

/**
 * srp_cmd_send_wrs() - send work requests one command may post
 * @mr_per_cmd: fast registrations one command may need
 *
 * Its SEND; with registrations, a REG_MR and a LOCAL_INV per MR and the
 * LOCAL_INV of the first MR's previous key in front of them
 * (rdi_reg_inv_prev_wr()).
 *
 * Return: the count, never wrapped.
 */
u64 srp_cmd_send_wrs(u32 mr_per_cmd)
{
	return mr_per_cmd ? 2 + 2 * (u64)mr_per_cmd : 1;
}

/**
 * srp_send_wrs() - send work requests one channel's QP must hold
 * @queue_size: send IUs of the channel (can_queue + RSP + TMF slots)
 * @mr_per_cmd: fast registrations one command may need
 *
 * Those of a command per IU (srp_cmd_send_wrs()), the keep-alive probe and
 * the work request ib_drain_qp() posts. The send CQ holds the completions
 * of them all, so it is as large.
 *
 * Return: the count; it does not wrap for any @mr_per_cmd a device allows.
 */
u64 srp_send_wrs(u32 queue_size, u32 mr_per_cmd)
{
	return (u64)queue_size * srp_cmd_send_wrs(mr_per_cmd) + 1 +
	       SRP_DRAIN_WRS;
}

/**
 * srp_recv_wrs() - receive work requests one channel's QP must hold
 * @queue_size: receive IUs of the channel
 *
 * A receive per IU and the work request ib_drain_qp() posts. The receive
 * CQ holds the completions of them all, so it is as large.
 *
 * Return: the count, never wrapped.
 */
u64 srp_recv_wrs(u32 queue_size)
{
	return (u64)queue_size + SRP_DRAIN_WRS;
}

/**
 * srp_rc_give_up_ms() - how long an RC QP may retransmit before it fails
 * @ack_timeout: the QP's local ACK timeout exponent (IB_QP_TIMEOUT)
 * @retry_cnt:   the QP's transport retry count (IB_QP_RETRY_CNT)
 *
 * The local ACK timeout is 4.096 us * 2^@ack_timeout, and a device may
 * wait up to four times that before it retransmits (IBTA C9-140..142);
 * a send goes out once and then @retry_cnt times more before its work
 * request completes in error.
 *
 * Return: that time in milliseconds, rounded up; 0 for an @ack_timeout of
 * 0, which the IBTA defines as no timeout at all.
 */
u32 srp_rc_give_up_ms(u8 ack_timeout, u8 retry_cnt)
{
	u64 ns;

	if (!ack_timeout)
		return 0;
	ns = (4096ULL << min_t(u8, ack_timeout, 31)) * 4 * ((u64)retry_cnt + 1);
	return DIV_ROUND_UP_ULL(ns, NSEC_PER_MSEC);
}

/**
 * srp_check_queue() - does a channel of this size fit the device?
 * @queue_size: send IUs of the channel (can_queue + RSP + TMF slots)
 * @mr_per_cmd: fast registrations one command may need
 * @max_qp_wr:  the device's work requests per queue
 * @max_cqe:    the device's entries per CQ
 *
 * Return: 0, or -EINVAL when a queue or a CQ would exceed the device.
 */
int srp_check_queue(u32 queue_size, u32 mr_per_cmd, u32 max_qp_wr,
		    u32 max_cqe)
{
	u64 nsend = srp_send_wrs(queue_size, mr_per_cmd);
	u64 nrecv = srp_recv_wrs(queue_size);

	if (nsend > max_qp_wr || nrecv > max_qp_wr)
		return -EINVAL;
	if (nsend > max_cqe || nrecv > max_cqe)
		return -EINVAL;
	return 0;
}

/**
 * srp_check_login_rsp() - can a channel work with this SRP_LOGIN_RSP?
 * @res:        response decoded by srp_parse_login_rsp()
 * @cmd_sg_cnt: data descriptors the host was sized to put in one SRP_CMD
 * @max_desc:   data descriptors one command may need in all; above
 *              @cmd_sg_cnt the rest travel in an external table
 * @it_iu_len:  IT IU length requested in SRP_LOGIN_REQ
 *
 * The host's limits (max_sectors, sg_tablesize) were fixed before login,
 * so every command must fit the descriptor formats the target grants and
 * the smaller of the IT IU lengths requested (a max_it_iu_size cap may
 * have lowered it) and granted; a receive IU is allocated per credit, so
 * max_ti_iu_len must be sane. Anything else would mean IUs the target drops, descriptor
 * formats it refuses, or gigabytes of receive buffers.
 *
 * Return: SRP_LOGIN_OK or the first reason the channel is unusable.
 */
enum srp_login_fault srp_check_login_rsp(const struct srp_login_result *res,
					 unsigned int cmd_sg_cnt,
					 unsigned int max_desc,
					 u32 it_iu_len)
{
	u16 fmt = res->buf_fmt & (SRP_BUF_FMT_DIRECT | SRP_BUF_FMT_INDIRECT);

	if (res->max_ti_iu_len > max(SRP_MAX_TI_IU_LEN, it_iu_len))
		return SRP_LOGIN_TI_TOO_LARGE;
	if (!fmt)
		return SRP_LOGIN_NO_DESC_FMT;
	if (fmt == SRP_BUF_FMT_DIRECT && max_desc > 1)
		return SRP_LOGIN_DIRECT_ONLY;
	if (min(res->max_it_iu_len, it_iu_len) <
	    srp_cmd_iu_len(cmd_sg_cnt, max_desc, fmt))
		return SRP_LOGIN_IT_TOO_SMALL;
	return SRP_LOGIN_OK;
}

/**
 * srp_build_indirect() - lay out an indirect data buffer descriptor
 * @d:         the descriptor in the SRP_CMD
 * @table:     all @ndesc direct descriptors, in wire format; may be
 *             @d->list itself when they all fit in the IU
 * @ndesc:     descriptors describing the data
 * @max_in_iu: descriptors the IU has room for after @d
 * @table_va:  address of @table as the target sees it
 * @table_key: R_Key under which the target may read @table
 * @total_len: bytes described by all descriptors
 *
 * SRP r16a 5.5.2: the table descriptor names the whole table, whose length
 * is @ndesc descriptors, and the first of them are copied into the IU. When
 * @ndesc exceeds @max_in_iu the IU holds only a partial table and the
 * target fetches the full one with RDMA READ (an external table); the
 * DATA-IN / DATA-OUT DESCRIPTOR COUNT of the SRP_CMD is then the number
 * copied, smaller than the table.
 *
 * Return: the number of descriptors in the IU, for the descriptor count.
 */
u32 srp_build_indirect(struct srp_indirect_desc *d,
		       const struct srp_direct_desc *table, u32 ndesc,
		       u32 max_in_iu, u64 table_va, u32 table_key,
		       u32 total_len)
{
	u32 in_iu = min(ndesc, max_in_iu);

	if (table != d->list)
		memcpy(d->list, table, in_iu * sizeof(*table));
	srp_set_indirect(d, table_va, table_key, ndesc, total_len);
	return in_iu;
}

/**
 * srp_login_rej_text() - an SRP_LOGIN_REJ reason in words
 * @reason: the reason code
 *
 * Return: a static string, never NULL.
 */
const char *srp_login_rej_text(u32 reason)
{
	switch (reason) {
	case SRP_REJ_UNABLE_ESTABLISH:
		return "unable to establish RDMA channel, no reason given";
	case SRP_REJ_INSUFFICIENT_RESOURCES:
		return "insufficient RDMA channel resources";
	case SRP_REJ_IT_IU_LEN_TOO_LARGE:
		return "requested maximum initiator to target IU length too large";
	case SRP_REJ_UNABLE_ASSOCIATE:
		return "unable to associate RDMA channel with I_T nexus";
	case SRP_REJ_UNSUPPORTED_DESC_FMT:
		return "requested data buffer descriptor format not supported";
	case SRP_REJ_MULTICHAN_UNSUPPORTED:
		return "multiple RDMA channels not supported";
	case SRP_REJ_CHANNEL_LIMIT:
		return "maximum number of RDMA channels reached for this initiator";
	default:
		return "unknown reason";
	}
}

/**
 * srp_parse_login_rej() - decode SRP_LOGIN_REJ
 * @buf:  private data of a consumer-defined CM reject
 * @len:  its length
 * @info: decoded reject
 *
 * Only opcode and reason (8 bytes) are required; the supported formats
 * are reported when the IU is long enough to carry them, else as 0.
 *
 * Return: 0, or -EPROTO if the private data is not an SRP_LOGIN_REJ.
 */
int srp_parse_login_rej(const void *buf, size_t len,
			struct srp_login_rej_info *info)
{
	const struct srp_iu_login_rej *rej = buf;

	if (len < offsetof(struct srp_iu_login_rej, tag) ||
	    rej->opcode != SRP_IU_LOGIN_REJ)
		return -EPROTO;

	memset(info, 0, sizeof(*info));
	info->reason = be32_to_cpu(rej->reason);
	info->text = srp_login_rej_text(info->reason);
	info->it_iu_too_large = info->reason == SRP_REJ_IT_IU_LEN_TOO_LARGE;
	if (len >= offsetof(struct srp_iu_login_rej, rsvd2))
		info->tag = be64_to_cpu(rej->tag);
	if (len >= offsetof(struct srp_iu_login_rej, rsvd3))
		info->buf_fmt = be16_to_cpu(rej->buf_fmt);
	return 0;
}

/**
 * srp_build_cmd() - encode the SRP_CMD header and additional CDB
 * @iu:     start of the send buffer
 * @iu_len: its size
 * @p:      the command
 *
 * Clears and fills the 48-byte header and, for CDBs longer than 16 bytes,
 * the additional CDB bytes zero-padded to a multiple of 4. The descriptors
 * are the caller's to write, at the returned offset: data-out ones first.
 *
 * Return: offset of the first data descriptor, or -EINVAL for a CDB length,
 * format or task attribute SRP cannot encode, or a header larger than
 * @iu_len.
 */
int srp_build_cmd(void *iu, size_t iu_len, const struct srp_cmd_params *p)
{
	struct srp_iu_cmd *cmd = iu;
	unsigned int add_len;

	if (!p->cdb_len || p->cdb_len > sizeof(cmd->cdb) + SRP_MAX_ADD_CDB_LEN ||
	    p->data_out_fmt > SRP_DESC_IMM || p->data_in_fmt > SRP_DESC_IMM ||
	    p->task_attr > 7)
		return -EINVAL;

	add_len = p->cdb_len > sizeof(cmd->cdb) ?
		  (p->cdb_len - sizeof(cmd->cdb) + 3) & ~3U : 0;
	if (sizeof(*cmd) + add_len > iu_len)
		return -EINVAL;

	memset(cmd, 0, sizeof(*cmd) + add_len);
	cmd->opcode = SRP_IU_CMD;
	cmd->buf_fmt = p->data_out_fmt << 4 | p->data_in_fmt;
	cmd->data_out_desc_cnt = p->data_out_desc_cnt;
	cmd->data_in_desc_cnt = p->data_in_desc_cnt;
	cmd->tag = cpu_to_be64(p->tag);
	memcpy(cmd->lun, p->lun, sizeof(cmd->lun));
	cmd->task_attr = p->task_attr;
	cmd->add_cdb_len = add_len;	/* dwords in bits 7:2 == bytes */
	if (add_len) {
		memcpy(cmd->cdb, p->cdb, sizeof(cmd->cdb));
		memcpy(cmd->add_data, p->cdb + sizeof(cmd->cdb),
		       p->cdb_len - sizeof(cmd->cdb));
	} else {
		memcpy(cmd->cdb, p->cdb, p->cdb_len);
	}
	return sizeof(*cmd) + add_len;
}

/**
 * srp_parse_rsp() - validate and decode SRP_RSP
 * @buf:  received IU
 * @len:  bytes received
 * @info: decoded response; its pointers point into @buf
 *
 * Return: 0, or -EPROTO if the IU is short or of another type, if its
 * response and sense data lengths exceed the received bytes, or if it
 * claims both an overflow and an underflow in one direction.
 */
int srp_parse_rsp(const void *buf, size_t len, struct srp_rsp_info *info)
{
	const struct srp_iu_rsp *rsp = buf;
	u32 resp_len = 0, sense_len = 0;
	u8 flags;

	if (len < sizeof(*rsp) || rsp->opcode != SRP_IU_RSP)
		return -EPROTO;

	flags = rsp->flags;
	if ((flags & SRP_RSP_DOOVER && flags & SRP_RSP_DOUNDER) ||
	    (flags & SRP_RSP_DIOVER && flags & SRP_RSP_DIUNDER))
		return -EPROTO;
	if (flags & SRP_RSP_RSPVALID)
		resp_len = be32_to_cpu(rsp->resp_data_len);
	if (flags & SRP_RSP_SNSVALID)
		sense_len = be32_to_cpu(rsp->sense_data_len);
	if (sizeof(*rsp) + (u64)resp_len + sense_len > len)
		return -EPROTO;

	memset(info, 0, sizeof(*info));
	info->tag = be64_to_cpu(rsp->tag);
	info->req_lim_delta = (s32)be32_to_cpu(rsp->req_lim_delta);
	info->status = rsp->status;
	info->flags = flags;
	if (flags & SRP_RSP_DOUNDER)
		info->data_out_resid = be32_to_cpu(rsp->data_out_res_cnt);
	else if (flags & SRP_RSP_DOOVER)
		info->data_out_resid = -(s64)be32_to_cpu(rsp->data_out_res_cnt);
	if (flags & SRP_RSP_DIUNDER)
		info->data_in_resid = be32_to_cpu(rsp->data_in_res_cnt);
	else if (flags & SRP_RSP_DIOVER)
		info->data_in_resid = -(s64)be32_to_cpu(rsp->data_in_res_cnt);
	if (flags & SRP_RSP_RSPVALID) {
		info->resp_data = rsp->data;
		info->resp_data_len = resp_len;
	}
	if (flags & SRP_RSP_SNSVALID) {
		info->sense = rsp->data + resp_len;
		info->sense_len = sense_len;
	}
	return 0;
}

/**
 * srp_rsp_tmf_code() - task management result of an SRP_RSP
 * @info: response to an SRP_TSK_MGMT, from srp_parse_rsp()
 *
 * Return: the response code (SRP_TMF_RSP_*), or -EPROTO if the response
 * carries no 4-byte response data.
 */
int srp_rsp_tmf_code(const struct srp_rsp_info *info)
{
	if (!info->resp_data || info->resp_data_len < 4)
		return -EPROTO;
	return info->resp_data[3];
}

/**
 * srp_build_tsk_mgmt() - encode SRP_TSK_MGMT
 * @iu:       the 48-byte IU
 * @tag:      tag of this request
 * @lun:      SAM LUN bytes
 * @function: enum srp_tmf
 * @task_tag: tag of the command to abort, for SRP_TMF_ABORT_TASK
 */
void srp_build_tsk_mgmt(struct srp_iu_tsk_mgmt *iu, u64 tag, const u8 lun[8],
			u8 function, u64 task_tag)
{
	memset(iu, 0, sizeof(*iu));
	iu->opcode = SRP_IU_TSK_MGMT;
	iu->tag = cpu_to_be64(tag);
	memcpy(iu->lun, lun, sizeof(iu->lun));
	iu->function = function;
	iu->task_tag = cpu_to_be64(task_tag);
}

/**
 * srp_build_i_logout() - encode SRP_I_LOGOUT
 * @iu:  the 16-byte IU
 * @tag: tag of this request
 */
void srp_build_i_logout(struct srp_iu_i_logout *iu, u64 tag)
{
	memset(iu, 0, sizeof(*iu));
	iu->opcode = SRP_IU_I_LOGOUT;
	iu->tag = cpu_to_be64(tag);
}

/**
 * srp_parse_cred_req() - decode SRP_CRED_REQ
 * @buf:           received IU
 * @len:           bytes received
 * @tag:           tag to echo in SRP_CRED_RSP
 * @req_lim_delta: credits granted
 *
 * Return: 0, or -EPROTO if the IU is short or of another type.
 */
int srp_parse_cred_req(const void *buf, size_t len, u64 *tag,
		       s32 *req_lim_delta)
{
	const struct srp_iu_cred_req *req = buf;

	if (len < sizeof(*req) || req->opcode != SRP_IU_CRED_REQ)
		return -EPROTO;
	*tag = be64_to_cpu(req->tag);
	*req_lim_delta = (s32)be32_to_cpu(req->req_lim_delta);
	return 0;
}

/**
 * srp_credit_update() - apply a REQUEST LIMIT DELTA to a credit count
 * @req_lim: credits the initiator holds, >= 0
 * @delta:   REQUEST LIMIT DELTA of a received IU (signed)
 * @res:     the new count, always in 0..INT_MAX
 *
 * A target may lower its request limit with a negative delta, but not by
 * more than the credits it granted and the initiator still holds: a count
 * below zero means the two sides no longer agree on any credit, and a
 * channel left at zero with nothing outstanding would never see another
 * response. A count beyond INT_MAX is a target granting more than it
 * could ever hold; it saturates instead of wrapping negative.
 *
 * Return: 0; -ERANGE if the count would fall below zero (@res is 0);
 * -EOVERFLOW if it would exceed INT_MAX (@res is INT_MAX).
 */
int srp_credit_update(s32 req_lim, s32 delta, s32 *res)
{
	s64 v = (s64)req_lim + delta;

	if (v < 0) {
		*res = 0;
		return -ERANGE;
	}
	if (v > INT_MAX) {
		*res = INT_MAX;
		return -EOVERFLOW;
	}
	*res = v;
	return 0;
}

/**
 * srp_credit_take() - take the credit a send needs
 * @req_lim: credits the initiator holds
 * @use:     what the send is
 * @res:     the count once it is sent
 *
 * An SRP_CMD needs a credit beyond the SRP_TSK_MGMT_SQ_SIZE kept for task
 * management, so that error handling never waits for commands to finish;
 * a task management function may take any credit, the kept ones too.
 * Answers to target requests and SRP_I_LOGOUT are not requests and take
 * none.
 *
 * Return: 0; -EAGAIN when @req_lim has no credit for @use (@res is
 * @req_lim).
 */
int srp_credit_take(s32 req_lim, enum srp_tx_use use, s32 *res)
{
	s32 kept = use == SRP_TX_CMD ? SRP_TSK_MGMT_SQ_SIZE : 0;

	*res = req_lim;
	if (use == SRP_TX_RSP)
		return 0;
	if (req_lim <= kept)
		return -EAGAIN;
	*res = req_lim - 1;
	return 0;
}

/**
 * srp_credit_refund() - give back the credit of a send that never went
 * @req_lim: credits the initiator holds
 * @use:     what the send was
 *
 * Return: the count with the credit srp_credit_take() took for @use back,
 * at most INT_MAX: a target's grant may have filled the count meanwhile.
 */
s32 srp_credit_refund(s32 req_lim, enum srp_tx_use use)
{
	if (use == SRP_TX_RSP || req_lim == INT_MAX)
		return req_lim;
	return req_lim + 1;
}

/**
 * srp_build_cred_rsp() - encode SRP_CRED_RSP
 * @iu:  the 16-byte IU
 * @tag: tag of the SRP_CRED_REQ answered
 */
void srp_build_cred_rsp(struct srp_iu_cred_rsp *iu, u64 tag)
{
	memset(iu, 0, sizeof(*iu));
	iu->opcode = SRP_IU_CRED_RSP;
	iu->tag = cpu_to_be64(tag);
}

/**
 * srp_parse_aer_req() - validate and decode SRP_AER_REQ
 * @buf:  received IU
 * @len:  bytes received
 * @info: decoded request; @info->sense points into @buf
 *
 * SRP r16a requires an SRP_AER_RSP for every SRP_AER_REQ, so an IU whose
 * tag can be read is decoded even when the rest is inconsistent: the
 * caller answers it and ignores the event.
 *
 * Return: 0; -EBADMSG if the IU is shorter than its fixed part or its
 * sense data length exceeds the received bytes (@info has the tag, the
 * credit delta, the LUN if received, and no sense data); -EPROTO if even
 * the tag is missing or the IU is of another type (@info is not written).
 */
int srp_parse_aer_req(const void *buf, size_t len, struct srp_aer_info *info)
{
	const struct srp_iu_aer_req *req = buf;
	size_t hdr = offsetof(struct srp_iu_aer_req, rsvd2);

	if (len < hdr || req->opcode != SRP_IU_AER_REQ)
		return -EPROTO;

	memset(info, 0, sizeof(*info));
	info->tag = be64_to_cpu(req->tag);
	info->req_lim_delta = (s32)be32_to_cpu(req->req_lim_delta);
	if (len < sizeof(*req)) {
		if (len >= offsetof(struct srp_iu_aer_req, sense_data_len))
			memcpy(info->lun, req->lun, sizeof(info->lun));
		return -EBADMSG;
	}
	memcpy(info->lun, req->lun, sizeof(info->lun));
	info->sense_len_field = be32_to_cpu(req->sense_data_len);
	if (info->sense_len_field > len - sizeof(*req))
		return -EBADMSG;
	info->sense = req->sense_data;
	info->sense_len = info->sense_len_field;
	return 0;
}

/**
 * srp_build_aer_rsp() - encode SRP_AER_RSP
 * @iu:  the 16-byte IU
 * @tag: tag of the SRP_AER_REQ answered
 */
void srp_build_aer_rsp(struct srp_iu_cred_rsp *iu, u64 tag)
{
	memset(iu, 0, sizeof(*iu));
	iu->opcode = SRP_IU_AER_RSP;
	iu->tag = cpu_to_be64(tag);
}

/**
 * srp_parse_t_logout() - decode SRP_T_LOGOUT
 * @buf:    received IU
 * @len:    bytes received
 * @tag:    its tag
 * @reason: enum srp_t_logout_reason (or an unknown code)
 *
 * Return: 0, or -EPROTO if the IU is short or of another type.
 */
int srp_parse_t_logout(const void *buf, size_t len, u64 *tag, u32 *reason)
{
	const struct srp_iu_t_logout *lo = buf;

	if (len < sizeof(*lo) || lo->opcode != SRP_IU_T_LOGOUT)
		return -EPROTO;
	*tag = be64_to_cpu(lo->tag);
	*reason = be32_to_cpu(lo->reason);
	return 0;
}

/**
 * srp_t_logout_text() - an SRP_T_LOGOUT reason in words
 * @reason: the reason code
 *
 * Return: a static string, never NULL.
 */
const char *srp_t_logout_text(u32 reason)
{
	switch (reason) {
	case SRP_TLO_NONE:
		return "no reason given";
	case SRP_TLO_INACTIVE_CHANNEL:
		return "inactive RDMA channel";
	case SRP_TLO_INVALID_IU_TYPE:
		return "invalid IU type received by the target";
	case SRP_TLO_UNEXPECTED_RSP:
		return "response from the initiator to no request";
	case SRP_TLO_MULTICHAN_ACTION:
		return "channel closed by the multichannel action of a new login";
	case SRP_TLO_UNSUPPORTED_DOUT_FMT:
		return "unsupported data-out descriptor format";
	case SRP_TLO_UNSUPPORTED_DIN_FMT:
		return "unsupported data-in descriptor format";
	case SRP_TLO_INVALID_DOUT_CNT:
		return "invalid data-out descriptor count";
	case SRP_TLO_INVALID_DIN_CNT:
		return "invalid data-in descriptor count";
	default:
		return "unknown reason";
	}
}
