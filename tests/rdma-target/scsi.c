// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * The lab targets' LUN 0: a tiny in-memory SCSI disk, shared by
 * srp-fake-target and rogue-iser.
 *
 * LUN 0 is LUN_BLOCKS blocks of LUN_BLOCK bytes; each block starts with its
 * LBA (big-endian, 8 bytes) so a reader can tell blocks apart. It answers
 * what the Linux LUN scan and sd probe send (INQUIRY with a few VPD pages,
 * REPORT LUNS, READ CAPACITY 10/16, MODE SENSE 6/10, TEST UNIT READY,
 * SYNCHRONIZE CACHE), reads, and on a writable disk (scsi_disk.writable)
 * WRITE (10/16); read-only, MODE SENSE sets the write-protect bit and
 * writes end in DATA PROTECT. Anything else ends in CHECK CONDITION.
 * Vendor-specific opcodes (0xc0 and up), which the lab sends with sg_raw
 * to trigger a lie, succeed: without data, with data-out (not fetched), or
 * with data-in from the LUN's start.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#include <string.h>

#include "scsi.h"
#include "bytes.h"

uint8_t lun_data[LUN_BYTES];

struct scsi_disk scsi_disk = {
	.vendor = "FAKESRP",
	.product = "HOSTILE TARGET",
	.serial = "fake0001",
};

enum {
	KEY_ILLEGAL_REQUEST	= 0x05,
	KEY_DATA_PROTECT	= 0x07,
};

void scsi_sense(struct scsi_result *r, uint8_t key, uint8_t asc,
		uint8_t ascq)
{
	r->status = SAM_CHECK_CONDITION;
	memset(r->sense, 0, sizeof(r->sense));
	r->sense[0] = 0x70;			/* current, fixed format */
	r->sense[2] = key;
	r->sense[7] = SENSE_LEN - 8;		/* additional length */
	r->sense[12] = asc;
	r->sense[13] = ascq;
}

static void reply(struct scsi_result *r, uint32_t len, uint32_t alloc)
{
	r->data = r->small;
	r->data_len = len < alloc ? len : alloc;
}

static void pad(uint8_t *dst, const char *s, size_t n)
{
	size_t l = strlen(s);

	memset(dst, ' ', n);
	memcpy(dst, s, l < n ? l : n);
}

static void inquiry(const uint8_t *cdb, struct scsi_result *r)
{
	uint32_t alloc = get_be16(cdb + 3);
	uint8_t *d = r->small;

	if (!(cdb[1] & 1)) {
		if (cdb[2]) {
			scsi_sense(r, KEY_ILLEGAL_REQUEST, 0x24, 0);
			return;
		}
		d[2] = 0x06;			/* SPC-4 */
		d[3] = 0x02;			/* response data format */
		d[4] = 36 - 5;
		d[7] = 0x02;			/* CmdQue */
		pad(d + 8, scsi_disk.vendor, 8);
		pad(d + 16, scsi_disk.product, 16);
		pad(d + 32, "0001", 4);
		reply(r, 36, alloc);
		return;
	}
	d[1] = cdb[2];
	switch (cdb[2]) {
	case 0x00:				/* supported pages */
		d[3] = 2;
		d[4] = 0x00;
		d[5] = 0x80;
		reply(r, 6, alloc);
		return;
	case 0x80:				/* unit serial number */
		d[3] = 8;
		pad(d + 4, scsi_disk.serial, 8);
		reply(r, 12, alloc);
		return;
	}
	scsi_sense(r, KEY_ILLEGAL_REQUEST, 0x24, 0);
}

/* Every block starts with its LBA. */
void scsi_fill(void)
{
	uint32_t i;

	for (i = 0; i < LUN_BLOCKS; i++)
		put_be64(lun_data + (size_t)i * LUN_BLOCK, i);
}

static int lba_ok(uint64_t lba, uint32_t n, struct scsi_result *r)
{
	if (lba > LUN_BLOCKS || n > LUN_BLOCKS - lba) {
		scsi_sense(r, KEY_ILLEGAL_REQUEST, 0x21, 0);	/* LBA range */
		return 0;
	}
	return 1;
}

static void read_blocks(uint64_t lba, uint32_t n, struct scsi_result *r)
{
	if (!lba_ok(lba, n, r))
		return;
	r->data = lun_data + lba * LUN_BLOCK;
	r->data_len = n * LUN_BLOCK;
}

/* The data is the caller's to fetch and store (@write_lba, @write_blocks). */
static void write_blocks(uint64_t lba, uint32_t n, struct scsi_result *r)
{
	if (!scsi_disk.writable)
		scsi_sense(r, KEY_DATA_PROTECT, 0x27, 0);	/* protected */
	else if (lba_ok(lba, n, r)) {
		r->write_lba = lba;
		r->write_blocks = n;
	}
}

/**
 * scsi_exec() - execute one command against LUN 0
 * @lun:      the 8 SAM LUN bytes
 * @cdb:      CDB (16 bytes readable)
 * @data_out: the command carries data to the target
 * @r:        result, zeroed by the caller
 */
void scsi_exec(const uint8_t *lun, const uint8_t *cdb, int data_out,
	       struct scsi_result *r)
{
	static const uint8_t lun0[8];
	uint8_t *d = r->small;

	r->status = SAM_GOOD;
	if (memcmp(lun, lun0, 8)) {
		if (cdb[0] == 0x12 && !(cdb[1] & 1)) {
			d[0] = 0x7f;		/* no device at this LUN */
			reply(r, 36, get_be16(cdb + 3));
			return;
		}
		scsi_sense(r, KEY_ILLEGAL_REQUEST, 0x25, 0);
		return;
	}
	if (cdb[0] >= 0xc0) {
		/*
		 * Vendor specific (the lab's trigger): succeeds; data-out is
		 * not fetched, data-in is the LUN's start, as much as the
		 * descriptors ask for (@fit).
		 */
		r->data = lun_data;
		r->data_len = data_out ? 0 : LUN_BYTES;
		r->fit = 1;
		return;
	}
	if (data_out && !scsi_disk.writable) {
		scsi_sense(r, KEY_DATA_PROTECT, 0x27, 0);	/* protected */
		return;
	}
	switch (cdb[0]) {
	case 0x00:				/* TEST UNIT READY */
	case 0x35:				/* SYNCHRONIZE CACHE (10) */
	case 0x91:				/* SYNCHRONIZE CACHE (16) */
		return;
	case 0x2a:				/* WRITE (10) */
		write_blocks(get_be32(cdb + 2), get_be16(cdb + 7), r);
		return;
	case 0x8a:				/* WRITE (16) */
		write_blocks(get_be64(cdb + 2), get_be32(cdb + 10), r);
		return;
	case 0x12:
		inquiry(cdb, r);
		return;
	case 0xa0:				/* REPORT LUNS: LUN 0 */
		put_be32(d, 8);
		reply(r, 16, get_be32(cdb + 6));
		return;
	case 0x25:				/* READ CAPACITY (10) */
		put_be32(d, LUN_BLOCKS - 1);
		put_be32(d + 4, LUN_BLOCK);
		reply(r, 8, 8);
		return;
	case 0x9e:				/* READ CAPACITY (16) */
		if ((cdb[1] & 0x1f) != 0x10)
			break;
		put_be64(d, LUN_BLOCKS - 1);
		put_be32(d + 8, LUN_BLOCK);
		reply(r, 32, get_be32(cdb + 10));
		return;
	case 0x1a:				/* MODE SENSE (6): header */
		d[0] = 3;
		d[2] = scsi_disk.writable ? 0 : 0x80;	/* write protected */
		reply(r, 4, cdb[4]);
		return;
	case 0x5a:				/* MODE SENSE (10): header */
		d[1] = 6;
		d[3] = scsi_disk.writable ? 0 : 0x80;
		reply(r, 8, get_be16(cdb + 7));
		return;
	case 0x08:				/* READ (6) */
		read_blocks((cdb[1] & 0x1f) << 16 | get_be16(cdb + 2),
			    cdb[4] ? cdb[4] : 256, r);
		return;
	case 0x28:				/* READ (10) */
		read_blocks(get_be32(cdb + 2), get_be16(cdb + 7), r);
		return;
	case 0x88:				/* READ (16) */
		read_blocks(get_be64(cdb + 2), get_be32(cdb + 10), r);
		return;
	default:
		break;
	}
	scsi_sense(r, KEY_ILLEGAL_REQUEST, 0x20, 0);	/* invalid opcode */
}
