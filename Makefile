# SPDX-License-Identifier: GPL-2.0
#
# fxt: `make` builds module/fxt.ko and the user-space tools.
# `make check` is the test command (host unit tests, then the VM selftests).
# See README.md for the rest.

# The kernel to build for: KVER=... picks an installed kernel; by default the
# running kernel when its build dir exists, else Debian's linux-image-amd64.
KVER ?= $(shell scripts/kver 2>/dev/null)
KDIR ?= /lib/modules/$(KVER)/build
export KVER KDIR

.PHONY: all module userspace selftests check check-debug unit-test vmtest \
	demo soak bench docs-check \
	fuzz checkpatch sparse install module-install dkms-source dkms-install deb \
	package-test \
	clean distclean deps

all: module userspace

deps:
	@scripts/install-deps

module:
	@test -d "$(KDIR)" || { echo "fxt: no kernel build dir $(KDIR) (run scripts/install-deps, or set KDIR/KVER)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/selftests/kmod modules

userspace:
	$(MAKE) -C userspace

selftests: userspace
	$(MAKE) -C selftests

unit-test:
	$(MAKE) -C userspace test

# The whole suite on 2 vCPUs with 3 GiB (fxt_flight's 30,000 threads need
# about 1 GiB of kernel memory), then the ABI and CPU hotplug again on 4
# (CPUs 1-3 toggle) with possible CPUs that are never present (buffers for
# the present ones only): 8 (qemu's maxcpus), and on 6.1, whose x86 code
# still reads possible_cpus=, 300: CPU numbers above 255 (FXT_IOC_GET_CPUS).
# The archives the selftests wrote are kept in build/archives/KVER[-smp4],
# and Perfetto's trace processor (when at hand) must show in each what fxt's
# readers say it holds (selftests/perfetto-check).
ARCHIVES = $(CURDIR)/build/archives/$(KVER)
VM_TIMEOUT ?= 1800
VM_TIMEOUT4 ?= 600
vmtest: module selftests
	rm -rf $(ARCHIVES) $(ARCHIVES)-smp4
	FXT_SELFTEST_KEEP=$(ARCHIVES) \
		scripts/vm/run --kver $(KVER) --mem 3072 --timeout $(VM_TIMEOUT) -- selftests/run-all
	FXT_SELFTEST_KEEP=$(ARCHIVES)-smp4 FXT_VM_APPEND=possible_cpus=300 \
		scripts/vm/run --kver $(KVER) --smp 4 --maxcpus 8 --timeout $(VM_TIMEOUT4) -- \
		selftests/run-all fxt_smoke fxt_hotplug
	selftests/perfetto-check $(ARCHIVES)/*.fxt $(ARCHIVES)-smp4/*.fxt

# The kernels `make check` runs the VM selftests on (scripts/kver NAME...).
KVERS ?= default 6.12-rt

check: deps
	$(MAKE) all
	$(MAKE) unit-test
	scripts/docs-check
	$(MAKE) package-test
	scripts/vm/matrix $(KVERS)

# The same suite on a KASAN + lockdep build of Debian's 6.1 source, built
# once into build/kdebug (scripts/check-debug): too long for check's budget.
check-debug: userspace
	scripts/check-debug

demo: deps
	$(MAKE) all
	scripts/demo

# An hour (FXT_SOAK_SECONDS) of streaming, circular, trigger, hotplug and
# stress selftests in one guest boot, memory checked after every pass
# (selftests/soak). Not part of check.
soak: deps
	$(MAKE) all selftests
	scripts/soak

bench:
	scripts/install-deps --bench
	$(MAKE) all selftests
	scripts/bench

fuzz:
	$(MAKE) -C userspace fuzz FUZZ_SECONDS=$(or $(FUZZ_SECONDS),60)

docs-check:
	scripts/docs-check

checkpatch:
	scripts/kselftest-headers
	scripts/checkpatch
	scripts/kernel-doc-check

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 modules

# Installation on a real machine (Documentation/usage.rst).
PREFIX ?= /usr/local
UDEVDIR ?= /etc/udev/rules.d
# fxt-recorder.service (disabled until enabled) and its config; a config
# already there is kept.
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
CONFDIR ?= /etc/fxt
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
# What dkms needs to build the module: the Kbuild files and the sources.
DKMS_SOURCES = Kbuild dkms.conf module/Kbuild \
	       $(filter-out %.mod.c,$(wildcard module/*.[ch] module/*.S)) \
	       $(wildcard include/fxt/*.h include/uapi/linux/*.h)

install: userspace
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(UDEVDIR)
	install -m 0755 userspace/fxt-collect userspace/fxt-dump \
		userspace/fxt-report $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 userspace/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 packaging/60-fxt.rules $(DESTDIR)$(UDEVDIR)/
	install -d $(DESTDIR)$(SYSTEMDDIR) $(DESTDIR)$(CONFDIR)
	sed 's|@BINDIR@|$(PREFIX)/bin|g' packaging/fxt-recorder.service.in \
		>$(DESTDIR)$(SYSTEMDDIR)/fxt-recorder.service
	chmod 0644 $(DESTDIR)$(SYSTEMDDIR)/fxt-recorder.service
	test -e $(DESTDIR)$(CONFDIR)/recorder.conf || \
		install -m 0644 packaging/recorder.conf $(DESTDIR)$(CONFDIR)/

module-install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

# Copy the module sources to /usr/src/fxt-VERSION and let dkms build and
# install fxt.ko for every installed kernel that has headers (dkms install
# takes no --all). DKMS_KERNELS picks kernels; DKMS_FLAGS adds dkms options
# (make package-test points the trees at a staging dir with them).
DKMS_KERNELS ?= $(notdir $(patsubst %/build,%,$(wildcard /lib/modules/*/build)))
DKMS_FLAGS ?=
# The module's sources where dkms looks for them (also the fxt-dkms package).
dkms-source:
	install -d $(DESTDIR)/usr/src/fxt-$(VERSION)
	cp --parents $(DKMS_SOURCES) $(DESTDIR)/usr/src/fxt-$(VERSION)/

dkms-install: dkms-source
	@test -n "$(DKMS_KERNELS)" || { echo "dkms-install: no kernel headers under /lib/modules" >&2; exit 1; }
	for k in $(DKMS_KERNELS); do \
		dkms install -m fxt -v $(VERSION) -k $$k $(DKMS_FLAGS) || exit 1; \
	done

# Debian packages fxt-dkms and fxt-tools, lintian-checked (build/deb/).
deb:
	scripts/deb

# make install and make dkms-install (so dkms.conf) into a staging dir:
# nothing is installed here.
package-test: userspace
	scripts/package-test $(KVER)

# clean keeps the kernel trees that take long to build: the debug kernel
# (build/kdebug*, ~24 min) and LTTng's modules (build/lttng); distclean
# removes them too. Kbuild's own clean would sweep them (scripts/module-clean).
clean:
	scripts/module-clean
	$(MAKE) -C userspace clean
	-$(MAKE) -C selftests clean
	find build -mindepth 1 -maxdepth 1 ! -name 'kdebug*' ! -name lttng \
		-exec rm -rf {} + 2>/dev/null || true

distclean: clean
	rm -rf build
