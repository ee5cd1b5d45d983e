/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: enum dma_data_direction, the kernel's values. */
#ifndef SHIM_LINUX_DMA_DIRECTION_H
#define SHIM_LINUX_DMA_DIRECTION_H

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

#endif
