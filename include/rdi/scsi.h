/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * rdi_core: the SCSI-midlayer side both initiators share.
 *
 * An initiator that maps every request into fast-registration MRs owes the
 * block layer the same limits, whatever its protocol: no gap inside a
 * request its MRs cannot span, segments as long as the device maps, and no
 * more sectors than its MRs hold. These helpers set them on a Scsi_Host
 * before scsi_add_host(); everything else about the host (queue depths,
 * descriptors per command, transport template) stays the initiator's.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef RDI_SCSI_H
#define RDI_SCSI_H

#include <rdi/core.h>

struct Scsi_Host;

void rdi_scsi_host_reg_limits(struct Scsi_Host *shost,
			      const struct rdi_device *dev);
unsigned int rdi_reg_max_sectors(const struct rdi_device *dev,
				 unsigned int pages);

#endif /* RDI_SCSI_H */
