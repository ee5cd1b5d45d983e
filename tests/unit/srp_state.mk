# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
srp_state_SRCS := drivers/infiniband/ulp/srp/state.c
