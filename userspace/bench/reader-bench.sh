#!/bin/sh
# SPDX-License-Identifier: MIT
#
# reader-bench.sh - measure the FXT reader through the three tools.
#
#   BENCH_MB=1024 bench/reader-bench.sh      (make bench-reader runs it)
#
# Generates (once, kept in BENCH_DIR) a synthetic archive of BENCH_MB MiB
# with bench/gen-archive (fxt-collect's layout: 4 per-CPU providers, mostly
# 16-byte indexed context switches, wakeups, irq/softirq begin/end, some
# kernel object and string records), reads it once to have it in the page
# cache, then times fxt-dump --check, fxt-dump --json >/dev/null and
# fxt-report, and prints a Markdown table: wall and CPU time, records/s,
# MiB/s, JSON events/s and peak RSS (getrusage via /usr/bin/time).
set -eu
cd "$(dirname "$0")/.."
MB=${BENCH_MB:-1024}
DIR=${BENCH_DIR:-/tmp}
CPUS=${BENCH_CPUS:-4}
F=$DIR/fxt-bench-${MB}MB-${CPUS}cpu.fxt

[ -x bench/gen-archive ] && [ -x fxt-dump ] && [ -x fxt-report ] || {
	echo "reader-bench: build first (make -C userspace bench-reader)" >&2
	exit 1
}
[ -x /usr/bin/time ] || {
	echo "reader-bench: needs GNU time (/usr/bin/time, Debian package time)" >&2
	exit 1
}
if [ ! -s "$F" ] || [ bench/gen-archive -nt "$F" ]; then
	echo "generating $F ($MB MiB)..." >&2
	start=$(date +%s.%N)
	bench/gen-archive "$F.tmp" "$MB" "$CPUS" >"$F.count"
	mv "$F.tmp" "$F"
	end=$(date +%s.%N)
	echo "generated in $(echo "$end - $start" | bc) s" >&2
fi
records=$(cut -d' ' -f1 "$F.count")
bytes=$(wc -c <"$F")
cat "$F" >/dev/null		# into the page cache

# run NAME CMD...: wall and CPU (user + system) seconds and peak RSS (KiB)
# of the fastest of REPS runs of CMD, output discarded. The fastest run is
# the one least disturbed by whatever else the machine was doing.
REPS=${BENCH_REPS:-3}
run() {
	name=$1
	shift
	best=
	i=0
	while [ $i -lt "$REPS" ]; do
		i=$((i + 1))
		/usr/bin/time -f '%e %U %S %M' -o "$DIR/fxt-bench.time" "$@" >/dev/null 2>"$DIR/fxt-bench.err" || true
		t=$(tail -n 1 "$DIR/fxt-bench.time")
		w=${t%% *}
		if [ -z "$best" ] || [ "$(echo "$w < ${best%% *}" | bc)" = 1 ]; then
			best=$t
		fi
	done
	set -- $best
	eval "secs_$name=$1 cpu_$name=$(echo "$2 + $3" | bc) rss_$name=$4"
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
run check ./fxt-dump --check "$F"
run json ./fxt-dump --json "$F"
run report ./fxt-report "$F"
run report2 ./fxt-report --threads 2 "$F"
# JSON events: one per line between the first and the last line.
events=$(./fxt-dump --json "$F" | wc -l)
events=$((events - 2))

rate() { echo "scale=1; $1 / $2 / 1000000" | bc; }
mbs() { echo "scale=0; $bytes / 1048576 / $1" | bc; }

echo
echo "Archive: $F, $((bytes / 1048576)) MiB, $records records ($(echo "scale=1; $bytes / $records" | bc) bytes/record), $CPUS CPUs; JSON: $events events"
echo "Machine: $(nproc) CPUs, $(uname -r), load average before the runs $load; archive in the page cache"
echo "Best of $REPS runs each. Rates are per wall-clock second; in brackets per CPU second (user + system, all threads)."
echo
echo "| tool | wall s | CPU s | M records/s | MiB/s | M JSON events/s | peak RSS MiB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
echo "| fxt-dump --check | $secs_check | $cpu_check | $(rate "$records" "$secs_check") ($(rate "$records" "$cpu_check")) | $(mbs "$secs_check") | | $((rss_check / 1024)) |"
echo "| fxt-dump --json >/dev/null | $secs_json | $cpu_json | $(rate "$records" "$secs_json") ($(rate "$records" "$cpu_json")) | $(mbs "$secs_json") | $(rate "$events" "$secs_json") ($(rate "$events" "$cpu_json")) | $((rss_json / 1024)) |"
echo "| fxt-report | $secs_report | $cpu_report | $(rate "$records" "$secs_report") ($(rate "$records" "$cpu_report")) | $(mbs "$secs_report") | | $((rss_report / 1024)) |"
echo "| fxt-report --threads 2 | $secs_report2 | $cpu_report2 | $(rate "$records" "$secs_report2") ($(rate "$records" "$cpu_report2")) | $(mbs "$secs_report2") | | $((rss_report2 / 1024)) |"
