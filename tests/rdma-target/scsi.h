/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The lab targets' LUN 0: a tiny in-memory SCSI disk (scsi.c).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef FAKE_SCSI_H
#define FAKE_SCSI_H

#include <stdint.h>
#include <stddef.h>

#define LUN_BLOCK	512
#define LUN_BLOCKS	16384
#define LUN_BYTES	(LUN_BLOCK * LUN_BLOCKS)
#define SENSE_LEN	18
#define SMALL_DATA_MAX	512

/**
 * struct scsi_disk - what tells one target's disk from another's
 * @vendor:   INQUIRY vendor (8 characters at most)
 * @product:  INQUIRY product (16)
 * @serial:   unit serial number, VPD page 0x80 (8)
 * @writable: WRITE (10/16) is taken (else DATA PROTECT, and MODE SENSE
 *            says write-protected)
 */
struct scsi_disk {
	const char	*vendor;
	const char	*product;
	const char	*serial;
	int		writable;
};

extern struct scsi_disk scsi_disk;

/**
 * struct scsi_result - what a command returns
 * @status:   SCSI status
 * @sense:    fixed-format sense data when @status is CHECK CONDITION
 * @data:     data-in bytes (points into the LUN or into @small)
 * @data_len: how many (with @fit: at most)
 * @fit:      return only as many bytes of @data as the command asks for
 * @small:    room for short replies (INQUIRY, READ CAPACITY, ...)
 * @write_lba, @write_blocks: the blocks a WRITE on a writable disk
 *            stores, once the caller has its data (lun_data + LBA *
 *            LUN_BLOCK); @write_blocks is 0 for anything else
 */
struct scsi_result {
	uint8_t		status;
	uint8_t		sense[SENSE_LEN];
	const uint8_t	*data;
	uint32_t	data_len;
	int		fit;
	uint8_t		small[SMALL_DATA_MAX];
	uint64_t	write_lba;
	uint32_t	write_blocks;
};

#define SAM_GOOD		0x00
#define SAM_CHECK_CONDITION	0x02

extern uint8_t lun_data[LUN_BYTES];

void scsi_fill(void);
void scsi_exec(const uint8_t *lun, const uint8_t *cdb, int data_out,
	       struct scsi_result *r);
void scsi_sense(struct scsi_result *r, uint8_t key, uint8_t asc,
		uint8_t ascq);

#endif /* FAKE_SCSI_H */
