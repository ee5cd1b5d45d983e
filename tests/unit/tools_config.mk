# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# User-space code: plain system headers, not the kernel shims.
tools_config_SRCS := tools/srp-discover/config.c tools/srp-discover/target.c
$(BUILD)/test_tools_config: CFLAGS := -O1 -g -Wall -Wextra -Wno-unused-parameter \
	$(SANITIZE) -D_GNU_SOURCE -I$(ROOT)/tools
