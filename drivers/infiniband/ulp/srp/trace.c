// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: tracepoint definitions (see trace.h).
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define CREATE_TRACE_POINTS
#include "trace.h"
