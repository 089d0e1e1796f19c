#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/lttng/build.sh [KVER...]: build Debian 12's LTTng kernel modules
# (lttng-modules 2.13.9) for the benchmark guest, without installing them.
#
# Fetches the Debian package lttng-modules-dkms with `apt-get download` into
# build/lttng/ (never `dpkg -i`: the package's dkms build fails on Debian's
# kernels and leaves the package half-configured), unpacks it with
# `dpkg-deb -x`, copies the source to build/lttng/KVER/, applies the patches
# of bench/lttng/*.patch there and builds the modules against
# /lib/modules/KVER/build. Nothing outside build/ is written; nothing is
# loaded. KVER defaults to the benchmark's kernel, 6.1.0-56-amd64.
#
# The modules end up in build/lttng/KVER/src/**.ko, and build/lttng/KVER/
# .fxt-built says the whole build succeeded; bench/lttng/lttng.sh loads them
# in the guest. Re-running is cheap: an up-to-date tree is only re-made.
# JOBS (default 2) is make's -j. Exit status 1 when a kernel failed.
#
# Only lttng-modules 2.13.9's kernels build: 6.1 (with the patch) does;
# 6.12 does not (367 errors with make -k: uuid_le and strlcpy() gone,
# uprobe_register()'s new arguments, tracepoints with new prototypes, ...:
# 2.13.9 predates 6.12; see Documentation/performance.rst).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/build/lttng
ver=2.13.9
pkg=lttng-modules-dkms
jobs=${JOBS:-2}
[ $# -gt 0 ] || set -- 6.1.0-56-amd64

die() { echo "lttng/build: $*" >&2; exit 1; }

mkdir -p "$out"
deb=$(ls "$out"/${pkg}_${ver}-*_all.deb 2>/dev/null | tail -1 || true)
if [ -z "$deb" ]; then
	# (as root, apt warns that it downloads unsandboxed: its _apt user
	# cannot write the checkout; the package is checked all the same)
	(cd "$out" && apt-get download -q "$pkg=$ver-*" >&2) ||
		die "apt-get download $pkg=$ver-* failed (apt-get update first? Debian serves another version?)"
	deb=$(ls "$out"/${pkg}_${ver}-*_all.deb 2>/dev/null | tail -1 || true)
	[ -n "$deb" ] || die "no ${pkg}_${ver} package in $out (Debian serves another version?)"
fi
if [ ! -d "$out/pkg/usr/src/lttng-modules-$ver" ]; then
	rm -rf "$out/pkg"
	dpkg-deb -x "$deb" "$out/pkg" || die "dpkg-deb -x $deb failed"
fi

# the tree is made anew when the patches change
sum=$(cat "$here"/*.patch | sha256sum)
rc=0
for kver in "$@"; do
	kdir=/lib/modules/$kver/build
	[ -d "$kdir" ] || { echo "lttng/build: $kver: no $kdir (linux-headers-$kver)" >&2; rc=1; continue; }
	src=$out/$kver
	if [ "$(cat "$src/.fxt-patched" 2>/dev/null)" != "$sum" ]; then
		rm -rf "$src"
		cp -a "$out/pkg/usr/src/lttng-modules-$ver" "$src"
		for p in "$here"/*.patch; do
			patch -d "$src" -p1 --forward --quiet <"$p" ||
				die "$kver: $(basename "$p") does not apply to lttng-modules $ver"
		done
		echo "$sum" >"$src/.fxt-patched"
	fi
	echo "lttng/build: building lttng-modules $ver for $kver in ${src#"$root"/} (log: ${src#"$root"/}.log)" >&2
	# CONFIG_LTTNG=m as in the package's dkms.conf
	rm -f "$src/.fxt-built"
	if make -C "$kdir" M="$src" -j"$jobs" CONFIG_LTTNG=m modules >"$src.log" 2>&1; then
		touch "$src/.fxt-built"
		n=$(find "$src" -name '*.ko' | wc -l)
		echo "lttng/build: $kver: $n modules" >&2
	else
		echo "lttng/build: $kver: the build failed; the first errors:" >&2
		grep -m5 -E 'error:|Error [0-9]' "$src.log" | sed 's/^/    /' >&2
		rc=1
	fi
done
exit $rc
