// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core: kernel buffers DMA-mapped on one RDMA device.
 *
 * Both initiators send and receive their protocol units from buffers they
 * map once per connection and reuse for every work request: SRP's send and
 * receive IUs, iSER's receive headers and data segments and its login
 * buffer. A &struct rdi_buf is one of them; its owner keeps it in its own
 * ring or descriptor and syncs it around each use.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <rdi/core.h>

/**
 * rdi_buf_alloc() - allocate a zeroed buffer and map it for DMA
 * @dev:  the device the buffer is used on
 * @buf:  the buffer; @buf->addr must be NULL
 * @size: bytes, more than 0
 * @dir:  DMA_TO_DEVICE (sends) or DMA_FROM_DEVICE (receives)
 *
 * May sleep.
 *
 * Return: 0 or -ENOMEM; on error @buf is left empty.
 */
int rdi_buf_alloc(struct ib_device *dev, struct rdi_buf *buf, u32 size,
		  enum dma_data_direction dir)
{
	if (WARN_ON_ONCE(buf->addr || !size))
		return -EINVAL;

	buf->addr = kzalloc(size, GFP_KERNEL);
	if (!buf->addr)
		return -ENOMEM;
	buf->dma = ib_dma_map_single(dev, buf->addr, size, dir);
	if (ib_dma_mapping_error(dev, buf->dma)) {
		kfree(buf->addr);
		buf->addr = NULL;
		return -ENOMEM;
	}
	buf->size = size;
	buf->dir = dir;
	return 0;
}
EXPORT_SYMBOL_GPL(rdi_buf_alloc);

/**
 * rdi_buf_free() - unmap and free a buffer from rdi_buf_alloc()
 * @dev: the device it was mapped on
 * @buf: the buffer, no longer posted; an empty one is ignored
 *
 * Leaves @buf empty, so a second call does nothing.
 */
void rdi_buf_free(struct ib_device *dev, struct rdi_buf *buf)
{
	if (!buf->addr)
		return;
	ib_dma_unmap_single(dev, buf->dma, buf->size, buf->dir);
	kfree(buf->addr);
	buf->addr = NULL;
}
EXPORT_SYMBOL_GPL(rdi_buf_free);
