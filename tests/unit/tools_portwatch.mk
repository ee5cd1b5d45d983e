# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# User-space code: plain system headers, not the kernel shims.
tools_portwatch_SRCS := tools/srp-discover/portwatch.c tools/common/sysfs.c
$(BUILD)/test_tools_portwatch: CFLAGS := -O1 -g -Wall -Wextra -Wno-unused-parameter \
	$(SANITIZE) -D_GNU_SOURCE -I$(ROOT)/tools
