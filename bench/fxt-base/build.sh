#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/fxt-base/build.sh KVER [COMMIT]: fxt.ko as it was at COMMIT (default
# BENCH_BASE, else 671ba67: the last module before sleep events, parents
# and command lines), for the micro phase's fxt-base row: a plain switch
# (prev_state=0) timed like fxt-sched, in the same guest boot, so that
# "a plain switch costs what it cost before" is a measured ratio. The
# sources come out of git (git archive) into build/bench/fxt-base/KVER/;
# module/ is left alone. The ABI (include/uapi/linux/fxt.h) must be the
# same as today's, since today's fxt-collect drives it: checked here. Only
# category bits (lines naming FXT_CAT_*) and comments may differ: the row
# records -c sched, a category every version knows.
# Prints the .ko path.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
kver=${1:?usage: build.sh KVER [COMMIT]}
base=${2:-${BENCH_BASE:-671ba67}}
kdir=${KDIR:-/lib/modules/$kver/build}
d=$root/build/bench/fxt-base/$kver
if ! git -C "$root" rev-parse -q --verify "$base^{commit}" >/dev/null; then
	echo "fxt-base: no commit $base in $root (a checkout without history?)" >&2
	exit 1
fi
if git -C "$root" diff -U0 "$base" -- include/uapi/linux/fxt.h |
	grep -E '^[-+]' | grep -Ev '^(\+\+\+|---) ' |
	grep -Ev 'FXT_CAT_|^[-+][[:space:]]*(/\*.*\*/)?[[:space:]]*$' | grep -q .; then
	echo "fxt-base: $base has another ABI (include/uapi/linux/fxt.h): today's fxt-collect cannot drive it" >&2
	exit 1
fi
rm -rf "$d"
mkdir -p "$d"
git -C "$root" archive "$base" Kbuild module include | tar -x -C "$d"
make -s -C "$kdir" M="$d" modules >&2
echo "$d/module/fxt.ko"
