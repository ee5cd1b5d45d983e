# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# User-space code: plain system headers, not the kernel shims.
tools_status_SRCS := tools/rdi-status/json.c tools/rdi-status/report_json.c \
	tools/rdi-status/report_table.c \
	tools/rdi-status/srp.c tools/rdi-status/iser.c tools/rdi-status/scsi.c \
	tools/common/sysfs.c
$(BUILD)/test_tools_status: CFLAGS := -O1 -g -Wall -Wextra -Wno-unused-parameter \
	$(SANITIZE) -D_GNU_SOURCE -I$(ROOT)/tools
