# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
srp_proto_SRCS := drivers/infiniband/ulp/srp/proto.c
