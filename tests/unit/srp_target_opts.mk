# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
srp_target_opts_SRCS := drivers/infiniband/ulp/srp/target_opts.c
