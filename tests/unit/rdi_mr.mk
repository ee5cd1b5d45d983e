# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
rdi_mr_SRCS := drivers/infiniband/ulp/rdi/mr.c drivers/infiniband/ulp/rdi/scsi.c
