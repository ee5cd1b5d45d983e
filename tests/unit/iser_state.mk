# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
iser_state_SRCS := drivers/infiniband/ulp/iser/state.c
