/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Big-endian byte helpers for the lab's user-space targets: wire formats are
 * read and written byte by byte, never through a C struct, so that they are
 * written from the standards independently of the driver's headers.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */
#ifndef RT_BYTES_H
#define RT_BYTES_H

#include <stdint.h>

static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static inline void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void put_be24(uint8_t *p, uint32_t v)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

#endif /* RT_BYTES_H */
