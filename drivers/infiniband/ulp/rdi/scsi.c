// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core: the limits fast registration puts on a SCSI host.
 *
 * The API is include/rdi/scsi.h.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/module.h>
#include <scsi/scsi_host.h>
#include <rdi/scsi.h>

/**
 * rdi_scsi_host_reg_limits() - limit a host to requests its MRs can map
 * @shost: host, not yet added
 * @dev:   the RDMA device its I/O is registered on
 *
 * Without SG_GAPS MRs, a virt boundary of the registration page size keeps
 * every request free of holes, so it maps into whole MRs. Next to a virt
 * boundary the segment size is set as well, to what the device maps: 6.1
 * lifted the SCSI default of 64 KiB for a virt boundary by itself, 6.12 no
 * longer does, and 64 KiB segments would split large requests for nothing.
 */
void rdi_scsi_host_reg_limits(struct Scsi_Host *shost,
			      const struct rdi_device *dev)
{
	if (!dev->sg_gaps)
		shost->virt_boundary_mask = dev->mr_page_size - 1;
	shost->max_segment_size = ib_dma_max_seg_size(dev->ib_dev);
}
EXPORT_SYMBOL_GPL(rdi_scsi_host_reg_limits);

/**
 * rdi_reg_max_sectors() - sectors a request mapped into some pages covers
 * @dev:   the RDMA device (its registration page size)
 * @pages: registration pages the request may use, at least 2
 *
 * A request may start anywhere in its first page, so only @pages - 1 whole
 * pages are sure to be covered.
 *
 * Return: the largest max_sectors for which every request fits.
 */
unsigned int rdi_reg_max_sectors(const struct rdi_device *dev,
				 unsigned int pages)
{
	return min_t(u64, ((u64)(pages - 1) * dev->mr_page_size) >> SECTOR_SHIFT,
		     UINT_MAX);
}
EXPORT_SYMBOL_GPL(rdi_reg_max_sectors);
