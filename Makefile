# SPDX-License-Identifier: GPL-2.0
#
# fxt: `make` builds module/fxt.ko and the user-space tools.
# `make check` is the test command (host unit tests, then the VM selftests).
# See README.md for the rest.

# The kernel to build for: KVER=... picks an installed kernel; by default the
# running kernel when its build dir exists, else Debian's linux-image-amd64.
KVER ?= $(shell scripts/kver)
KDIR ?= /lib/modules/$(KVER)/build
export KVER KDIR

.PHONY: all module userspace selftests check unit-test vmtest demo bench \
	fuzz checkpatch sparse install clean deps

all: module userspace

deps:
	@scripts/install-deps

module:
	@test -d "$(KDIR)" || { echo "fxt: no kernel build dir $(KDIR) (run scripts/install-deps, or set KDIR/KVER)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

selftests: userspace
	$(MAKE) -C selftests

unit-test:
	$(MAKE) -C userspace test

vmtest: module selftests
	scripts/vm-run --kver $(KVER) --timeout 900 -- selftests/run-all

check: deps
	$(MAKE) all
	$(MAKE) unit-test
	$(MAKE) vmtest

demo: deps
	$(MAKE) all
	scripts/demo

bench: deps
	$(MAKE) all selftests
	scripts/bench

fuzz:
	$(MAKE) -C userspace fuzz FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60)

checkpatch:
	scripts/checkpatch

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	$(MAKE) -C userspace clean
	-$(MAKE) -C selftests clean
	rm -rf build
