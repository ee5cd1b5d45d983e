/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * ib_srp: SRP information units (SRP r16a, T10/1415-D, and the SRP-2
 * immediate-data additions) and pure encode/decode helpers.
 *
 * DOC: how the driver uses this file
 *
 * Login: the driver fills a &struct srp_login_params (srp_fill_port_ids()
 * builds the two 16-byte port identifiers in the byte order the I/O class
 * asks for, srp_it_iu_len() the requested IT IU length) and encodes it with
 * srp_build_login_req() (IB CM private data) or srp_build_login_req_rdma()
 * (RDMA/CM private data, the 56-byte layout ib_srpt expects). The private
 * data of the CM reply goes through srp_parse_login_rsp(); a consumer-defined
 * CM reject's private data through srp_parse_login_rej(), whose
 * @it_iu_too_large tells the driver to retry once with the smaller length
 * from srp_it_iu_len_fallback(). CM-level reject reasons are turned into
 * text by the kernel's ibcm_reject_msg() and rdma_reject_msg().
 *
 * Data path: srp_build_cmd() writes the SRP_CMD header (and the additional
 * CDB bytes of long CDBs) and returns where the data descriptors start; the
 * driver then writes the descriptors with srp_set_direct(),
 * srp_set_indirect() and srp_set_imm(). Every received IU is classified with
 * srp_iu_opcode() and decoded by srp_parse_rsp(), srp_parse_cred_req(),
 * srp_parse_aer_req() or srp_parse_t_logout(); the answers are built by
 * srp_build_cred_rsp() and srp_build_aer_rsp(), task management by
 * srp_build_tsk_mgmt(), logout by srp_build_i_logout().
 *
 * Every parser takes the received length and returns -EPROTO when the IU is
 * shorter than its fixed part or when a length field inside it points
 * outside the received bytes, so a lying target never causes an
 * out-of-bounds read. Pointers handed back by parsers point into the
 * caller's buffer and are valid as long as it is.
 *
 * Tags are opaque to the peer; they travel big-endian here and are returned
 * to the caller in CPU order, so echoing a target's tag is byte-exact.
 *
 * Pure logic: compiles in the kernel and in host unit tests.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef SRP_PROTO_H
#define SRP_PROTO_H

#include <linux/types.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <asm/byteorder.h>

/* IU type codes (SRP r16a table 9; byte 0 of every IU). */
enum srp_iu_type {
	SRP_IU_LOGIN_REQ	= 0x00,
	SRP_IU_TSK_MGMT		= 0x01,
	SRP_IU_CMD		= 0x02,
	SRP_IU_I_LOGOUT		= 0x03,
	SRP_IU_CRED_RSP		= 0x41,
	SRP_IU_AER_RSP		= 0x42,
	SRP_IU_T_LOGOUT		= 0x80,
	SRP_IU_CRED_REQ		= 0x81,
	SRP_IU_AER_REQ		= 0x82,
	SRP_IU_LOGIN_RSP	= 0xc0,
	SRP_IU_RSP		= 0xc1,
	SRP_IU_LOGIN_REJ	= 0xc2,
};

/* Supported/requested buffer descriptor formats (bit mask, LOGIN_*). */
#define SRP_BUF_FMT_DIRECT	0x0002
#define SRP_BUF_FMT_INDIRECT	0x0004

/* Data descriptor format codes (SRP_CMD byte 5, one nibble per direction). */
enum srp_desc_fmt {
	SRP_DESC_NONE		= 0,
	SRP_DESC_DIRECT		= 1,
	SRP_DESC_INDIRECT	= 2,
	SRP_DESC_IMM		= 3,	/* SRP-2 */
};

/* LOGIN_REQ byte 26: multichannel action in bits 1:0, SRP-2 IMMED bit 7. */
#define SRP_LOGIN_MULTICHAN_SINGLE	0x00
#define SRP_LOGIN_MULTICHAN_MULTI	0x01
#define SRP_LOGIN_IMMED_REQUESTED	0x80

/* LOGIN_RSP byte 26: multichannel result in bits 1:0, SRP-2 IMMED bit 7. */
#define SRP_LOGIN_RSP_MULTICHAN_MASK		0x03
#define SRP_LOGIN_RSP_MULTICHAN_NONE		0x00
#define SRP_LOGIN_RSP_MULTICHAN_TERMINATED	0x01
#define SRP_LOGIN_RSP_MULTICHAN_MAINTAINED	0x02
#define SRP_LOGIN_RSP_IMMED_SUPPORTED		0x80

/* LOGIN_REJ reason codes (SRP r16a table 14). */
enum srp_login_rej_reason {
	SRP_REJ_UNABLE_ESTABLISH	= 0x00010000,
	SRP_REJ_INSUFFICIENT_RESOURCES	= 0x00010001,
	SRP_REJ_IT_IU_LEN_TOO_LARGE	= 0x00010002,
	SRP_REJ_UNABLE_ASSOCIATE	= 0x00010003,
	SRP_REJ_UNSUPPORTED_DESC_FMT	= 0x00010004,
	SRP_REJ_MULTICHAN_UNSUPPORTED	= 0x00010005,
	SRP_REJ_CHANNEL_LIMIT		= 0x00010006,
};

/* T_LOGOUT reason codes (SRP r16a table 21). */
enum srp_t_logout_reason {
	SRP_TLO_NONE			= 0x00,
	SRP_TLO_INACTIVE_CHANNEL	= 0x01,
	SRP_TLO_INVALID_IU_TYPE		= 0x02,
	SRP_TLO_UNEXPECTED_RSP		= 0x03,
	SRP_TLO_MULTICHAN_ACTION	= 0x04,
	SRP_TLO_UNSUPPORTED_DOUT_FMT	= 0x06,
	SRP_TLO_UNSUPPORTED_DIN_FMT	= 0x07,
	SRP_TLO_INVALID_DOUT_CNT	= 0x08,
	SRP_TLO_INVALID_DIN_CNT		= 0x09,
};

/* TSK_MGMT function codes (byte 30). */
enum srp_tmf {
	SRP_TMF_ABORT_TASK	= 0x01,
	SRP_TMF_ABORT_TASK_SET	= 0x02,
	SRP_TMF_CLEAR_TASK_SET	= 0x04,
	SRP_TMF_LUN_RESET	= 0x08,
	SRP_TMF_CLEAR_ACA	= 0x40,
};

/* SRP_CMD task attribute (byte 29, bits 2:0). */
enum srp_task_attr {
	SRP_TASK_SIMPLE		= 0,
	SRP_TASK_HEAD_OF_QUEUE	= 1,
	SRP_TASK_ORDERED	= 2,
	SRP_TASK_ACA		= 4,
};

/* SRP_RSP flags (byte 18). */
#define SRP_RSP_RSPVALID	0x01
#define SRP_RSP_SNSVALID	0x02
#define SRP_RSP_DOOVER		0x04
#define SRP_RSP_DOUNDER		0x08
#define SRP_RSP_DIOVER		0x10
#define SRP_RSP_DIUNDER		0x20

/* TMF response codes (byte 3 of the SRP_RSP response data). */
#define SRP_TMF_RSP_COMPLETE		0x00
#define SRP_TMF_RSP_INVALID_IU		0x02
#define SRP_TMF_RSP_NOT_SUPPORTED	0x04
#define SRP_TMF_RSP_FAILED		0x05

/* I/O class values of SRP r16a and of the older r10 (port id byte order). */
#define SRP_IO_CLASS_R16A	0x0100
#define SRP_IO_CLASS_R10	0xff00

/* Port identifier: 16 bytes, two 8-byte halves. */
#define SRP_PORT_ID_LEN		16

/**
 * struct srp_direct_desc - memory descriptor (16 bytes)
 * @va:  0: virtual address
 * @key: 8: R_Key
 * @len: 12: length in bytes
 */
struct srp_direct_desc {
	__be64	va;
	__be32	key;
	__be32	len;
};

static_assert(sizeof(struct srp_direct_desc) == 16);

/**
 * struct srp_indirect_desc - indirect descriptor header (20 bytes + list)
 * @table: 0: where the full descriptor table lives in initiator memory
 * @len:   16: total length of all data described
 * @list:  20: the first descriptors, copied into the IU
 *
 * Packed to 4 bytes: the list starts at byte 20 of the descriptor.
 */
struct srp_indirect_desc {
	struct srp_direct_desc	table;
	__be32			len;
	struct srp_direct_desc	list[];
} __packed __aligned(4);

static_assert(sizeof(struct srp_indirect_desc) == 20);

/**
 * struct srp_imm_desc - immediate data descriptor (SRP-2, 4 bytes)
 * @len: 0: bytes of immediate data; the data itself starts at the
 *       imm_data_offset negotiated at login
 */
struct srp_imm_desc {
	__be32	len;
};

static_assert(sizeof(struct srp_imm_desc) == 4);

/**
 * struct srp_iu_login_req - SRP_LOGIN_REQ (64 bytes)
 * @opcode:           0: SRP_IU_LOGIN_REQ
 * @rsvd1:            1..7
 * @tag:              8
 * @req_it_iu_len:    16: largest IU the initiator will send
 * @rsvd2:            20..23
 * @req_buf_fmt:      24: SRP_BUF_FMT_* the initiator will use
 * @req_flags:        26: SRP_LOGIN_MULTICHAN_* | SRP_LOGIN_IMMED_REQUESTED
 * @rsvd3:            27
 * @imm_data_offset:  28: SRP-2, offset of immediate data in SRP_CMD
 * @rsvd4:            30..31
 * @initiator_port_id: 32..47
 * @target_port_id:   48..63
 */
struct srp_iu_login_req {
	u8	opcode;
	u8	rsvd1[7];
	__be64	tag;
	__be32	req_it_iu_len;
	u8	rsvd2[4];
	__be16	req_buf_fmt;
	u8	req_flags;
	u8	rsvd3;
	__be16	imm_data_offset;
	u8	rsvd4[2];
	u8	initiator_port_id[SRP_PORT_ID_LEN];
	u8	target_port_id[SRP_PORT_ID_LEN];
};

static_assert(sizeof(struct srp_iu_login_req) == 64);
static_assert(offsetof(struct srp_iu_login_req, initiator_port_id) == 32);

/**
 * struct srp_iu_login_req_rdma - SRP_LOGIN_REQ as RDMA/CM private data
 * @tag:               0
 * @req_buf_fmt:       8
 * @req_flags:         10
 * @opcode:            11: SRP_IU_LOGIN_REQ
 * @req_it_iu_len:     12
 * @initiator_port_id: 16..31
 * @target_port_id:    32..47
 * @imm_data_offset:   48
 * @rsvd:              50..55
 *
 * RDMA/CM over InfiniBand leaves only 56 bytes of REQ private data, so
 * ib_srpt accepts the fields of the 64-byte request rearranged without the
 * reserved bytes. This is the layout it parses (not part of SRP r16a).
 */
struct srp_iu_login_req_rdma {
	__be64	tag;
	__be16	req_buf_fmt;
	u8	req_flags;
	u8	opcode;
	__be32	req_it_iu_len;
	u8	initiator_port_id[SRP_PORT_ID_LEN];
	u8	target_port_id[SRP_PORT_ID_LEN];
	__be16	imm_data_offset;
	u8	rsvd[6];
};

static_assert(sizeof(struct srp_iu_login_req_rdma) == 56);
static_assert(offsetof(struct srp_iu_login_req_rdma, imm_data_offset) == 48);

/**
 * struct srp_iu_login_rsp - SRP_LOGIN_RSP (52 bytes)
 * @opcode:         0: SRP_IU_LOGIN_RSP
 * @rsvd1:          1..3
 * @req_lim_delta:  4: initial credits
 * @tag:            8
 * @max_it_iu_len:  16: largest IU the target accepts
 * @max_ti_iu_len:  20: largest IU the target will send
 * @buf_fmt:        24: SRP_BUF_FMT_* supported by the target
 * @rsp_flags:      26: SRP_LOGIN_RSP_*
 * @rsvd2:          27..51
 */
struct srp_iu_login_rsp {
	u8	opcode;
	u8	rsvd1[3];
	__be32	req_lim_delta;
	__be64	tag;
	__be32	max_it_iu_len;
	__be32	max_ti_iu_len;
	__be16	buf_fmt;
	u8	rsp_flags;
	u8	rsvd2[25];
} __packed __aligned(4);

static_assert(sizeof(struct srp_iu_login_rsp) == 52);

/**
 * struct srp_iu_login_rej - SRP_LOGIN_REJ (32 bytes)
 * @opcode:  0: SRP_IU_LOGIN_REJ
 * @rsvd1:   1..3
 * @reason:  4: enum srp_login_rej_reason
 * @tag:     8
 * @rsvd2:   16..23
 * @buf_fmt: 24: SRP_BUF_FMT_* supported by the target
 * @rsvd3:   26..31
 */
struct srp_iu_login_rej {
	u8	opcode;
	u8	rsvd1[3];
	__be32	reason;
	__be64	tag;
	u8	rsvd2[8];
	__be16	buf_fmt;
	u8	rsvd3[6];
};

static_assert(sizeof(struct srp_iu_login_rej) == 32);

/**
 * struct srp_iu_i_logout - SRP_I_LOGOUT (16 bytes)
 * @opcode: 0: SRP_IU_I_LOGOUT
 * @rsvd:   1..7
 * @tag:    8
 */
struct srp_iu_i_logout {
	u8	opcode;
	u8	rsvd[7];
	__be64	tag;
};

static_assert(sizeof(struct srp_iu_i_logout) == 16);

/**
 * struct srp_iu_t_logout - SRP_T_LOGOUT (16 bytes)
 * @opcode:  0: SRP_IU_T_LOGOUT
 * @sol_not: 1: solicited notification bits
 * @rsvd:    2..3
 * @reason:  4: enum srp_t_logout_reason
 * @tag:     8
 */
struct srp_iu_t_logout {
	u8	opcode;
	u8	sol_not;
	u8	rsvd[2];
	__be32	reason;
	__be64	tag;
};

static_assert(sizeof(struct srp_iu_t_logout) == 16);

/**
 * struct srp_iu_tsk_mgmt - SRP_TSK_MGMT (48 bytes)
 * @opcode:   0: SRP_IU_TSK_MGMT
 * @sol_not:  1
 * @rsvd1:    2..7
 * @tag:      8
 * @rsvd2:    16..19
 * @lun:      20..27: SAM LUN
 * @rsvd3:    28..29
 * @function: 30: enum srp_tmf
 * @rsvd4:    31
 * @task_tag: 32: tag of the command to abort (ABORT TASK)
 * @rsvd5:    40..47
 */
struct srp_iu_tsk_mgmt {
	u8	opcode;
	u8	sol_not;
	u8	rsvd1[6];
	__be64	tag;
	u8	rsvd2[4];
	u8	lun[8];
	u8	rsvd3[2];
	u8	function;
	u8	rsvd4;
	__be64	task_tag;
	u8	rsvd5[8];
};

static_assert(sizeof(struct srp_iu_tsk_mgmt) == 48);

/**
 * struct srp_iu_cmd - SRP_CMD (48 bytes + additional CDB + descriptors)
 * @opcode:            0: SRP_IU_CMD
 * @sol_not:           1
 * @rsvd1:             2..4
 * @buf_fmt:           5: data-out format in bits 7:4, data-in in bits 3:0
 * @data_out_desc_cnt: 6
 * @data_in_desc_cnt:  7
 * @tag:               8
 * @rsvd2:             16..19
 * @lun:               20..27: SAM LUN
 * @rsvd3:             28
 * @task_attr:         29: enum srp_task_attr in bits 2:0
 * @rsvd4:             30
 * @add_cdb_len:       31: additional CDB length in dwords, in bits 7:2
 * @cdb:               32..47
 * @add_data:          48: additional CDB bytes, then data-out, then
 *                     data-in descriptors
 */
struct srp_iu_cmd {
	u8	opcode;
	u8	sol_not;
	u8	rsvd1[3];
	u8	buf_fmt;
	u8	data_out_desc_cnt;
	u8	data_in_desc_cnt;
	__be64	tag;
	u8	rsvd2[4];
	u8	lun[8];
	u8	rsvd3;
	u8	task_attr;
	u8	rsvd4;
	u8	add_cdb_len;
	u8	cdb[16];
	u8	add_data[];
};

static_assert(sizeof(struct srp_iu_cmd) == 48);

/**
 * struct srp_iu_rsp - SRP_RSP (36 bytes + response data + sense data)
 * @opcode:           0: SRP_IU_RSP
 * @sol_not:          1
 * @rsvd1:            2..3
 * @req_lim_delta:    4: credits granted with this response
 * @tag:              8
 * @rsvd2:            16..17
 * @flags:            18: SRP_RSP_*
 * @status:           19: SCSI status
 * @data_out_res_cnt: 20: data-out residual
 * @data_in_res_cnt:  24: data-in residual
 * @sense_data_len:   28
 * @resp_data_len:    32
 * @data:             36: response data, then sense data
 */
struct srp_iu_rsp {
	u8	opcode;
	u8	sol_not;
	u8	rsvd1[2];
	__be32	req_lim_delta;
	__be64	tag;
	u8	rsvd2[2];
	u8	flags;
	u8	status;
	__be32	data_out_res_cnt;
	__be32	data_in_res_cnt;
	__be32	sense_data_len;
	__be32	resp_data_len;
	u8	data[];
} __packed __aligned(4);

static_assert(sizeof(struct srp_iu_rsp) == 36);

/**
 * struct srp_iu_cred_req - SRP_CRED_REQ (16 bytes)
 * @opcode:        0: SRP_IU_CRED_REQ
 * @sol_not:       1
 * @rsvd:          2..3
 * @req_lim_delta: 4
 * @tag:           8
 */
struct srp_iu_cred_req {
	u8	opcode;
	u8	sol_not;
	u8	rsvd[2];
	__be32	req_lim_delta;
	__be64	tag;
};

static_assert(sizeof(struct srp_iu_cred_req) == 16);

/**
 * struct srp_iu_cred_rsp - SRP_CRED_RSP and SRP_AER_RSP (16 bytes)
 * @opcode: 0: SRP_IU_CRED_RSP or SRP_IU_AER_RSP
 * @rsvd:   1..7
 * @tag:    8: the tag of the request answered
 */
struct srp_iu_cred_rsp {
	u8	opcode;
	u8	rsvd[7];
	__be64	tag;
};

static_assert(sizeof(struct srp_iu_cred_rsp) == 16);

/**
 * struct srp_iu_aer_req - SRP_AER_REQ (36 bytes + sense data)
 * @opcode:         0: SRP_IU_AER_REQ
 * @sol_not:        1
 * @rsvd1:          2..3
 * @req_lim_delta:  4
 * @tag:            8
 * @rsvd2:          16..19
 * @lun:            20..27
 * @sense_data_len: 28
 * @rsvd3:          32..35
 * @sense_data:     36
 */
struct srp_iu_aer_req {
	u8	opcode;
	u8	sol_not;
	u8	rsvd1[2];
	__be32	req_lim_delta;
	__be64	tag;
	u8	rsvd2[4];
	u8	lun[8];
	__be32	sense_data_len;
	u8	rsvd3[4];
	u8	sense_data[];
} __packed __aligned(4);

static_assert(sizeof(struct srp_iu_aer_req) == 36);

/* Fixed header of SRP_CMD plus the largest descriptor header. */
#define SRP_CMD_MIN_IU_LEN	(sizeof(struct srp_iu_cmd) + \
				 sizeof(struct srp_indirect_desc))

/*
 * Where immediate data starts in an SRP_CMD: after the command and room for
 * an indirect descriptor header, so one offset suits every descriptor kind.
 */
#define SRP_IMM_DATA_OFFSET	SRP_CMD_MIN_IU_LEN

/* Largest additional CDB: the 6-bit dword count of byte 31. */
#define SRP_MAX_ADD_CDB_LEN	(63 * 4)

/* ---- login ---- */

/**
 * struct srp_login_params - what srp_build_login_req*() encode
 * @tag:               request tag
 * @it_iu_len:         requested maximum IT IU length
 * @buf_fmt:           SRP_BUF_FMT_* the initiator uses
 * @multichan:         true for every channel but the first of a login
 *                     (MULTICHAN_MULTI), false for the first (SINGLE)
 * @imm_data:          request SRP-2 immediate data at SRP_IMM_DATA_OFFSET
 * @initiator_port_id: from srp_fill_port_ids()
 * @target_port_id:    from srp_fill_port_ids()
 */
struct srp_login_params {
	u64	tag;
	u32	it_iu_len;
	u16	buf_fmt;
	bool	multichan;
	bool	imm_data;
	u8	initiator_port_id[SRP_PORT_ID_LEN];
	u8	target_port_id[SRP_PORT_ID_LEN];
};

void srp_fill_port_ids(struct srp_login_params *p, u16 io_class,
		       u64 initiator_ext, u64 initiator_guid,
		       u64 id_ext, u64 ioc_guid);
u32 srp_it_iu_len(unsigned int cmd_sg_cnt, bool imm_data, u32 max_imm_data,
		  u32 max_it_iu_size);
u32 srp_it_iu_len_fallback(unsigned int cmd_sg_cnt);
void srp_build_login_req(struct srp_iu_login_req *req,
			 const struct srp_login_params *p);
void srp_build_login_req_rdma(struct srp_iu_login_req_rdma *req,
			      const struct srp_login_params *p);

/**
 * struct srp_login_result - a validated SRP_LOGIN_RSP
 * @tag:           tag of the response
 * @req_lim:       initial credits, >= 1
 * @max_it_iu_len: largest IU the target accepts
 * @max_ti_iu_len: largest IU the target sends, >= sizeof(struct srp_iu_rsp)
 * @buf_fmt:       SRP_BUF_FMT_* the target supports
 * @multichan:     SRP_LOGIN_RSP_MULTICHAN_* result
 * @imm_data:      target accepts immediate data
 */
struct srp_login_result {
	u64	tag;
	u32	req_lim;
	u32	max_it_iu_len;
	u32	max_ti_iu_len;
	u16	buf_fmt;
	u8	multichan;
	bool	imm_data;
};

int srp_parse_login_rsp(const void *buf, size_t len,
			struct srp_login_result *res);

/*
 * Largest max_ti_iu_len accepted in SRP_LOGIN_RSP unless the initiator asked
 * for a larger IT IU itself. Every IU a target sends fits in a few hundred
 * bytes (SRP_RSP or SRP_AER_REQ with at most 252 bytes of sense data), and
 * targets that mirror the requested IT IU length (ib_srpt) stay below it
 * with the default max_imm_data; each receive IU is a buffer of this size.
 */
#define SRP_MAX_TI_IU_LEN	(64U * 1024)

/* Work requests ib_drain_qp() posts on each queue of a QP to drain it. */
#define SRP_DRAIN_WRS		1

/**
 * enum srp_login_fault - why a well-formed SRP_LOGIN_RSP cannot be used
 * @SRP_LOGIN_OK:          the channel can carry every command of the host
 * @SRP_LOGIN_TI_TOO_LARGE: max_ti_iu_len above SRP_MAX_TI_IU_LEN and the
 *                         requested IT IU length
 * @SRP_LOGIN_NO_DESC_FMT: neither direct nor indirect descriptors supported
 * @SRP_LOGIN_DIRECT_ONLY: only direct descriptors supported, but a command
 *                         may need several descriptors (cmd_sg_entries > 1)
 * @SRP_LOGIN_IT_TOO_SMALL: max_it_iu_len, or the IT IU length requested,
 *                         below the SRP_CMD the host was sized for
 *                         (srp_cmd_iu_len())
 */
enum srp_login_fault {
	SRP_LOGIN_OK,
	SRP_LOGIN_TI_TOO_LARGE,
	SRP_LOGIN_NO_DESC_FMT,
	SRP_LOGIN_DIRECT_ONLY,
	SRP_LOGIN_IT_TOO_SMALL,
};

u32 srp_cmd_iu_len(unsigned int cmd_sg_cnt, unsigned int max_desc,
		   u16 buf_fmt);
u64 srp_cmd_send_wrs(u32 mr_per_cmd);
u64 srp_send_wrs(u32 queue_size, u32 mr_per_cmd);
u64 srp_recv_wrs(u32 queue_size);
u32 srp_rc_give_up_ms(u8 ack_timeout, u8 retry_cnt);
int srp_check_queue(u32 queue_size, u32 mr_per_cmd, u32 max_qp_wr,
		    u32 max_cqe);
enum srp_login_fault srp_check_login_rsp(const struct srp_login_result *res,
					 unsigned int cmd_sg_cnt,
					 unsigned int max_desc,
					 u32 it_iu_len);

/**
 * struct srp_login_rej_info - a decoded SRP_LOGIN_REJ
 * @tag:             tag of the reject
 * @reason:          enum srp_login_rej_reason (or an unknown code)
 * @buf_fmt:         SRP_BUF_FMT_* the target supports
 * @text:            @reason in words, never NULL
 * @it_iu_too_large: the requested IT IU length was too large; SRP_LOGIN_REJ
 *                   carries no maximum, so retry once with
 *                   srp_it_iu_len_fallback()
 */
struct srp_login_rej_info {
	u64		tag;
	u32		reason;
	u16		buf_fmt;
	const char	*text;
	bool		it_iu_too_large;
};

int srp_parse_login_rej(const void *buf, size_t len,
			struct srp_login_rej_info *info);
const char *srp_login_rej_text(u32 reason);

/* ---- commands and responses ---- */

/**
 * struct srp_cmd_params - what srp_build_cmd() encodes
 * @tag:            blk-mq unique tag of the request
 * @lun:            SAM LUN bytes (int_to_scsilun())
 * @cdb:            the CDB
 * @cdb_len:        its length, 1..16 + SRP_MAX_ADD_CDB_LEN
 * @task_attr:      enum srp_task_attr
 * @data_out_fmt:   enum srp_desc_fmt for the data-out buffer
 * @data_in_fmt:    enum srp_desc_fmt for the data-in buffer
 * @data_out_desc_cnt: descriptors in the IU for data-out
 * @data_in_desc_cnt:  descriptors in the IU for data-in
 */
struct srp_cmd_params {
	u64		tag;
	u8		lun[8];
	const u8	*cdb;
	unsigned int	cdb_len;
	u8		task_attr;
	u8		data_out_fmt;
	u8		data_in_fmt;
	u8		data_out_desc_cnt;
	u8		data_in_desc_cnt;
};

int srp_build_cmd(void *iu, size_t iu_len, const struct srp_cmd_params *p);

/**
 * struct srp_rsp_info - a validated SRP_RSP
 * @tag:           tag of the command answered
 * @req_lim_delta: credits granted (signed, as the field is)
 * @status:        SCSI status
 * @flags:         SRP_RSP_* as received
 * @data_out_resid: data-out residual, 0 unless DOOVER or DOUNDER
 * @data_in_resid:  data-in residual, 0 unless DIOVER or DIUNDER
 * @resp_data:     response data (TMF response), NULL unless RSPVALID
 * @resp_data_len: its length
 * @sense:         sense data, NULL unless SNSVALID
 * @sense_len:     its length
 *
 * Residuals follow SCSI: positive for underflow, negative for overflow.
 */
struct srp_rsp_info {
	u64		tag;
	s32		req_lim_delta;
	u8		status;
	u8		flags;
	s64		data_out_resid;
	s64		data_in_resid;
	const u8	*resp_data;
	u32		resp_data_len;
	const u8	*sense;
	u32		sense_len;
};

int srp_parse_rsp(const void *buf, size_t len, struct srp_rsp_info *info);
int srp_rsp_tmf_code(const struct srp_rsp_info *info);

/**
 * srp_iu_opcode() - IU type of a received IU
 * @buf: received bytes
 * @len: how many
 *
 * Return: the type code (byte 0), or -EPROTO for an empty IU.
 */
static inline int srp_iu_opcode(const void *buf, size_t len)
{
	return len ? *(const u8 *)buf : -EPROTO;
}

/**
 * enum srp_map_via - how the data of one command is made reachable
 * @SRP_MAP_VIA_FR:          fast registration, one or more MRs
 * @SRP_MAP_VIA_GLOBAL_RKEY: DMA addresses under the PD's global rkey
 * @SRP_MAP_VIA_NONE:        no way: neither registration nor a global rkey
 */
enum srp_map_via {
	SRP_MAP_VIA_FR,
	SRP_MAP_VIA_GLOBAL_RKEY,
	SRP_MAP_VIA_NONE,
};

/**
 * srp_map_via() - pick registration or the global rkey for a command
 * @use_fr:          the device registers with FR (never_register=N)
 * @register_always: the register_always module parameter
 * @global_rkey:     the PD has an unsafe global rkey
 * @sg_count:        DMA segments of the command's data
 *
 * With register_always=N a command of one segment goes out under the global
 * rkey and longer ones are registered; without FR (never_register=Y) every
 * command uses the global rkey. The global rkey only exists when one of the
 * two parameters asked for it (srp_wants_global_rkey()).
 *
 * Return: the way to describe the data.
 */
static inline enum srp_map_via srp_map_via(bool use_fr, bool register_always,
					   bool global_rkey,
					   unsigned int sg_count)
{
	if (use_fr && (register_always || !global_rkey || sg_count > 1))
		return SRP_MAP_VIA_FR;
	return global_rkey ? SRP_MAP_VIA_GLOBAL_RKEY : SRP_MAP_VIA_NONE;
}

/**
 * srp_wants_global_rkey() - do the module parameters ask for a global rkey?
 * @never_register:  the never_register module parameter
 * @register_always: the register_always module parameter
 *
 * A global rkey lets the target read and write all of the initiator's
 * memory, so it exists only when the administrator asked for commands that
 * are not registered.
 *
 * Return: true when SRP needs a PD with an unsafe global rkey.
 */
static inline bool srp_wants_global_rkey(bool never_register,
					 bool register_always)
{
	return never_register || !register_always;
}

/**
 * srp_set_direct() - fill a direct data descriptor
 * @d:   descriptor
 * @va:  address
 * @key: R_Key
 * @len: length in bytes
 */
static inline void srp_set_direct(struct srp_direct_desc *d, u64 va, u32 key,
				  u32 len)
{
	d->va = cpu_to_be64(va);
	d->key = cpu_to_be32(key);
	d->len = cpu_to_be32(len);
}

/**
 * srp_set_indirect() - fill the header of an indirect data descriptor
 * @d:         descriptor
 * @table_va:  address of the full descriptor table
 * @table_key: R_Key of the table
 * @nents:     descriptors in the table
 * @total_len: bytes described by all of them
 *
 * The descriptors copied into the IU follow at @d->list.
 */
static inline void srp_set_indirect(struct srp_indirect_desc *d, u64 table_va,
				    u32 table_key, u32 nents, u32 total_len)
{
	d->table.va = cpu_to_be64(table_va);
	d->table.key = cpu_to_be32(table_key);
	d->table.len = cpu_to_be32(nents * sizeof(struct srp_direct_desc));
	d->len = cpu_to_be32(total_len);
}

/**
 * srp_set_imm() - fill an immediate-data descriptor
 * @d:   descriptor
 * @len: bytes of data at SRP_IMM_DATA_OFFSET
 */
static inline void srp_set_imm(struct srp_imm_desc *d, u32 len)
{
	d->len = cpu_to_be32(len);
}

u32 srp_build_indirect(struct srp_indirect_desc *d,
		       const struct srp_direct_desc *table, u32 ndesc,
		       u32 max_in_iu, u64 table_va, u32 table_key,
		       u32 total_len);

void srp_build_tsk_mgmt(struct srp_iu_tsk_mgmt *iu, u64 tag, const u8 lun[8],
			u8 function, u64 task_tag);
void srp_build_i_logout(struct srp_iu_i_logout *iu, u64 tag);

/* ---- target-initiated IUs ---- */

int srp_parse_cred_req(const void *buf, size_t len, u64 *tag,
		       s32 *req_lim_delta);
int srp_credit_update(s32 req_lim, s32 delta, s32 *res);

/* Send IUs, and credits, kept for task management. */
enum { SRP_TSK_MGMT_SQ_SIZE = 1 };

/* What a send IU is taken for; decides the credits it needs. */
enum srp_tx_use {
	SRP_TX_CMD,	/* SRP_CMD: one credit, never the TMF one */
	SRP_TX_TMF,	/* SRP_TSK_MGMT: any credit, the kept one too */
	SRP_TX_RSP,	/* CRED/AER responses, SRP_I_LOGOUT: no credit */
};

int srp_credit_take(s32 req_lim, enum srp_tx_use use, s32 *res);
s32 srp_credit_refund(s32 req_lim, enum srp_tx_use use);
void srp_build_cred_rsp(struct srp_iu_cred_rsp *iu, u64 tag);

/**
 * struct srp_aer_info - a decoded SRP_AER_REQ
 * @tag:           tag to echo in SRP_AER_RSP
 * @req_lim_delta: credits granted
 * @lun:           SAM LUN the event is about
 * @sense:         sense data (points into the IU), NULL when the IU is
 *                 malformed
 * @sense_len:     its length, may be 0
 * @sense_len_field: the SENSE DATA LIST LENGTH field as received, for
 *                 the log of a malformed IU
 */
struct srp_aer_info {
	u64		tag;
	s32		req_lim_delta;
	u8		lun[8];
	const u8	*sense;
	u32		sense_len;
	u32		sense_len_field;
};

int srp_parse_aer_req(const void *buf, size_t len, struct srp_aer_info *info);
void srp_build_aer_rsp(struct srp_iu_cred_rsp *iu, u64 tag);

int srp_parse_t_logout(const void *buf, size_t len, u64 *tag, u32 *reason);
const char *srp_t_logout_text(u32 reason);

#endif /* SRP_PROTO_H */
