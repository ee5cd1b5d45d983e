# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# rdma-initiators: out-of-tree ib_srp and ib_iser.
#
#   make                 build the modules against KDIR
#   make install         install into /lib/modules/<kver>/updates and depmod
#   make lint            W=1 + sparse build, checkpatch --strict, kernel-doc
#   make unit            host-side unit tests
#   make lab-test        end-to-end tests in the QEMU soft-RoCE lab
#   make test            everything CI runs (what .ci/run calls)
#   make demo            build, boot the lab, log in over SRP and iSER, show it

LAB_KVER ?= $(shell tests/lab/kver 2>/dev/null)
ifneq ($(wildcard /lib/modules/$(shell uname -r)/build),)
KDIR ?= /lib/modules/$(shell uname -r)/build
else
KDIR ?= /usr/src/linux-headers-$(LAB_KVER)
endif
KVER ?= $(shell $(MAKE) -s -C $(KDIR) kernelversion 2>/dev/null | tail -1)
KREL ?= $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)

RDI_VERSION ?= $(shell git -C $(CURDIR) describe --always --dirty --tags 2>/dev/null || cat $(CURDIR)/VERSION)
export RDI_VERSION

PWD := $(CURDIR)

.PHONY: all modules install clean lint unit lab-test lab-shell test demo bench deps

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(PWD) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(KREL)

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C tests/unit clean

lint:
	KDIR=$(KDIR) tools/lint

unit:
	$(MAKE) -C tests/unit run

lab-test: modules
	tests/lab/run-all

lab-shell: modules
	tests/lab/shell

test:
	tests/run-all

demo:
	tests/demo

deps:
	tools/setup-deps
