/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: the block layer's sector. */
#ifndef SHIM_LINUX_BLK_TYPES_H
#define SHIM_LINUX_BLK_TYPES_H

#define SECTOR_SHIFT	9

#endif
