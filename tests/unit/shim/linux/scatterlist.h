/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: a DMA-mapped scatterlist element, as far as tests look. */
#ifndef SHIM_LINUX_SCATTERLIST_H
#define SHIM_LINUX_SCATTERLIST_H

#include <linux/types.h>

struct scatterlist {
	unsigned int	offset;
	unsigned int	length;
	u64		dma_address;
	unsigned int	dma_length;
};

#endif
