/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: the Scsi_Host limits rdi_core sets, with the kernel's types. */
#ifndef SHIM_SCSI_SCSI_HOST_H
#define SHIM_SCSI_SCSI_HOST_H

#include <linux/blk_types.h>

struct Scsi_Host {
	unsigned int	max_segment_size;
	unsigned long	virt_boundary_mask;
};

#endif
