# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# rdma-initiators: out-of-tree ib_srp and ib_iser.
#
#   make                 build the modules against KDIR
#   make install         install into /lib/modules/<kver>/updates and depmod
#   make lint            W=1 + sparse build, checkpatch --strict, kernel-doc
#   make unit            host-side unit tests
#   make fuzz            the parsers of untrusted input under libFuzzer,
#                        FUZZ_SECS (10) s each (tests/fuzz)
#   make lab-shell       boot the lab guest and open a shell in it
#   make test            everything CI runs (tests/run-all, what .ci/run calls)
#   make test-quick      build, lint, unit tests and a module smoke boot
#   make demo            build, boot the lab, log in over SRP and iSER, show it
#   make bench           ours vs in-tree vs NVMe-oF, one boot (tests/bench/run)
#   make deb             Debian packages into out/deb/ (tools/make-deb;
#                        DEB_FLAGS=--chroot builds in a clean bookworm chroot)

LAB_KVER ?= $(shell tests/lab/kver 2>/dev/null)
ifneq ($(wildcard /lib/modules/$(shell uname -r)/build),)
KDIR ?= /lib/modules/$(shell uname -r)/build
else
KDIR ?= /usr/src/linux-headers-$(LAB_KVER)
endif
KREL ?= $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
INSTALL_MOD_PATH ?=

RDI_VERSION ?= $(shell git -C $(CURDIR) describe --always --dirty --tags 2>/dev/null || cat $(CURDIR)/VERSION)
export RDI_VERSION

PWD := $(CURDIR)

.PHONY: all modules install clean lint unit fuzz lab-shell test test-quick demo bench deps deb

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(PWD) INSTALL_MOD_DIR=updates \
		INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KREL)

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C tests/unit clean
	$(MAKE) -C tests/fuzz clean

lint:
	KDIR=$(KDIR) tools/lint

unit:
	$(MAKE) -C tests/unit run

fuzz:
	$(MAKE) -C tests/fuzz run

lab-shell: modules
	tests/lab/shell

test:
	tests/run-all

test-quick:
	tests/run-all --quick

demo:
	tests/demo

bench: modules
	tests/bench/run

deps:
	tools/setup-deps

deb:
	tools/make-deb $(DEB_FLAGS)
