# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
iser_pdu_SRCS := drivers/infiniband/ulp/iser/pdu.c
