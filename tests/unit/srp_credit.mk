# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
srp_credit_SRCS := drivers/infiniband/ulp/srp/proto.c
