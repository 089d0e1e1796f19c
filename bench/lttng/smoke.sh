#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/lttng/smoke.sh [SCOPE...]: LTTng works in the guest. Runs INSIDE
# the qemu guest, from the repository's top directory:
#
#   make -C bench && bench/lttng/build.sh &&
#   scripts/vm/run --kver 6.1.0-56-amd64 --mem 2048 -- bench/lttng/smoke.sh
#
# Loads the modules of build/lttng/$(uname -r) and starts lttng-sessiond
# (bench/lttng/lttng.sh), then for each SCOPE (default: sched all) records
# the kernel events of that scope while bench/pingpong does 2000 round trips
# on CPU 0, and prints what was recorded. Fails when a session recorded no
# events, or (scope sched) fewer sched_switch events than the 4000 switches
# the ping-pong makes at least.
set -euo pipefail

[ "${FXT_IN_VM:-}" = 1 ] || { echo "lttng/smoke: run me in the guest (scripts/vm/run)" >&2; exit 1; }
[ $# -gt 0 ] || set -- sched all
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
pp=build/bench/bin/pingpong
[ -x $pp ] || { echo "lttng/smoke: no $pp (make -C bench)" >&2; exit 1; }
# shellcheck source=bench/lttng/lttng.sh
. "$here/lttng.sh"

lttng_setup "build/lttng/$(uname -r)"
echo "lttng/smoke: modules loaded:" $(lsmod | awk '/^lttng/ {print $1}' | sort)
lttng list -k >/tmp/lttng-list.txt
echo "lttng/smoke: kernel events available: $(grep -c '(type: tracepoint)' /tmp/lttng-list.txt || true)"
# the events of scope all that this kernel and these probes do not have
# (enable-event accepts unknown names: they just never match)
missing=
for e in $LTTNG_ALL; do
	grep -q "^ *$e (" /tmp/lttng-list.txt || missing="$missing $e"
done
echo "lttng/smoke: events of scope all not in this kernel:${missing:- none}"
rc=0
for scope in "$@"; do
	lttng_start "$scope"
	$pp 2000 0
	if ! lttng_stop; then
		echo "lttng/smoke: $scope: lttng stop/destroy or babeltrace2 failed:" >&2
		cat /tmp/lttng-stop.out >&2
		rc=1
		continue
	fi
	echo "lttng/smoke: $scope: events=$lt_events lost=$lt_lost bytes=$lt_bytes collector_cpu_user_s=$lt_cpu_user collector_cpu_sys_s=$lt_cpu_sys daemons_rss_kb=$lt_rss_kb"
	if [ "${lt_events:-0}" -eq 0 ] || { [ "$scope" = sched ] && [ "$lt_events" -lt 4000 ]; }; then
		echo "lttng/smoke: $scope: too few events" >&2
		rc=1
	fi
done
# one trace kept for a look at its events, by name
lttng_start all
$pp 200 0
lttng -q stop "$LTTNG_SESSION"
echo "lttng/smoke: events by name in a 200 round-trip trace (scope all):"
babeltrace2 "$LTTNG_OUT" 2>/dev/null | sed -n 's/^[^)]*) [^ ]* \([a-z0-9_]*\): .*/\1/p' | sort | uniq -c | sort -rn
lttng -q destroy "$LTTNG_SESSION"
lttng_teardown
exit $rc
