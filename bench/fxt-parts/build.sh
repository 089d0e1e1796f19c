#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/fxt-parts/build.sh KVER: fxt.ko built to stop its sched_switch probe
# after piece N (FXT_PROBE_PART, module/fxt.h), for probebench to time the
# pieces of the real probe one by one: part 1 returns after the probe's
# entry and its CPU state, part 2 after the two thread lookups, the
# outgoing state and the priorities; in circular mode part 3 after the
# room made for names and part 4 after the name cache's lookups of both
# threads. The whole probe is fxt.ko itself.
# Each build is a copy of the module's sources under
# build/bench/fxt-parts/partN/ (Kbuild has no separate object directory
# for an external module on these kernels); module/ is left alone.
# Prints the .ko paths, one per line.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
kver=${1:?usage: build.sh KVER}
kdir=${KDIR:-/lib/modules/$kver/build}
out=$root/build/bench/fxt-parts/$kver
for n in 1 2 3 4; do
	d=$out/part$n
	mkdir -p "$d/module"
	cp "$root/Kbuild" "$d/"
	cp "$root/module/Kbuild" "$d/module/"
	for f in "$root"/module/*.[chS]; do
		case $f in *.mod.c) ;; *) cp "$f" "$d/module/" ;; esac
	done
	rm -rf "$d/include"
	cp -r "$root/include" "$d/"
	make -s -C "$kdir" M="$d" KCFLAGS="-DFXT_PROBE_PART=$n" modules >&2
	echo "$d/module/fxt.ko"
done
