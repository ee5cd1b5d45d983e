/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * InfiniBand Device Management (DM) class: the attributes an SRP initiator
 * reads from a target port (IBA vol. 1, chapter 16.3) and a small client
 * that sends Get() requests through libibumad.
 */
#ifndef SRP_DISCOVER_DM_H
#define SRP_DISCOVER_DM_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#define DM_QKEY			0x80010000u	/* well-known GSI Q_Key */
#define DM_QPN			1		/* GSI QP */
#define DM_HOP_LIMIT		64
#define DM_CLASS_VERSION	1

enum dm_attr {
	DM_ATTR_CLASS_PORT_INFO		= 0x0001,
	DM_ATTR_IO_UNIT_INFO		= 0x0010,
	DM_ATTR_IOC_PROFILE		= 0x0011,
	DM_ATTR_SERVICE_ENTRIES		= 0x0012,
};

/* Slot states in IOUnitInfo.controller_list, one nibble per slot. */
enum dm_slot {
	DM_SLOT_EMPTY		= 0x0,
	DM_SLOT_IOC_PRESENT	= 0x1,
	DM_SLOT_NONE		= 0xf,
};

/* io_class values an SRP target reports (SRP r16a and the older r10). */
#define SRP_IO_CLASS_R16A	0x0100
#define SRP_IO_CLASS_R10	0xff00

#define DM_SERVICE_ENTRIES_PER_MAD	4
#define DM_SERVICE_NAME_LEN		40

struct dm_iou_info {
	__be16	change_id;
	uint8_t	max_controllers;
	uint8_t	diag_rom;
	uint8_t	controller_list[128];
};

static_assert(sizeof(struct dm_iou_info) == 132, "IOUnitInfo layout");

struct dm_ioc_profile {
	__be64	guid;
	__be32	vendor_id;
	__be32	device_id;
	__be16	device_version;
	__be16	reserved1;
	__be32	subsys_vendor_id;
	__be32	subsys_device_id;
	__be16	io_class;
	__be16	io_subclass;
	__be16	protocol;
	__be16	protocol_version;
	__be32	reserved2;
	__be16	send_queue_depth;
	uint8_t	reserved3;
	uint8_t	rdma_read_depth;
	__be32	send_size;
	__be32	rdma_size;
	uint8_t	op_cap_mask;
	uint8_t	reserved4;
	uint8_t	service_entries;
	uint8_t	reserved5[9];
	char	id[64];
};

static_assert(sizeof(struct dm_ioc_profile) == 128, "IOControllerProfile layout");

struct dm_service_entry {
	char	name[DM_SERVICE_NAME_LEN];
	__be64	id;
};

struct dm_service_entries {
	struct dm_service_entry entry[DM_SERVICE_ENTRIES_PER_MAD];
};

static_assert(sizeof(struct dm_service_entries) == 192, "ServiceEntries layout");

/**
 * struct dm_dest - where DM requests go
 * @lid: destination LID (InfiniBand); 0 on RoCE
 * @grh: send with a GRH (always on RoCE)
 * @sgid_index: local GID table index used as GRH source
 * @dgid: destination GID, network byte order
 * @pkey_index: local P_Key table index
 */
struct dm_dest {
	uint16_t lid;
	bool	grh;
	uint8_t	sgid_index;
	uint8_t	dgid[16];
	uint16_t pkey_index;
};

/**
 * struct dm_client - an open umad port registered for the DM class
 * @fd: libibumad port id
 * @agent: registered agent id
 * @timeout_ms: time to wait for each answer
 * @retries: resends done by the kernel before giving up
 * @status: MAD status of the last answer that carried an error status
 */
struct dm_client {
	int	fd;
	int	agent;
	int	timeout_ms;
	int	retries;
	uint16_t status;
};

int dm_open(struct dm_client *dm, const char *ibdev, int port,
	    int timeout_ms, int retries);
void dm_close(struct dm_client *dm);

/**
 * dm_get - send Get(@attr_id, @attr_mod) to @dest and copy the answer's data
 * @dm: open client
 * @dest: target port
 * @attr_id: DM attribute (enum dm_attr)
 * @attr_mod: attribute modifier
 * @data: where the attribute's data goes
 * @len: its size (at most the 192 data bytes of a DM MAD)
 *
 * Return: 0, -ETIMEDOUT when nothing answered within timeout x (retries + 1),
 * -EPROTO when the answer had a non-zero status (left in @dm->status), or
 * another negative errno from libibumad.
 */
int dm_get(struct dm_client *dm, const struct dm_dest *dest, uint16_t attr_id,
	   uint32_t attr_mod, void *data, size_t len);

/* State of @slot (1-based) in @iou. */
static inline enum dm_slot dm_slot_state(const struct dm_iou_info *iou,
					 unsigned int slot)
{
	uint8_t byte = iou->controller_list[(slot - 1) / 2];

	return (slot & 1) ? byte >> 4 : byte & 0xf;
}

/* Human text for a MAD status word. */
const char *dm_status_str(uint16_t status);

#endif /* SRP_DISCOVER_DM_H */
