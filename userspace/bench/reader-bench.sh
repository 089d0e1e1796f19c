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
#
# Then, when Perfetto's trace_processor_shell is on the PATH, fxt-report
# against Perfetto's importer on one archive (BENCH_PERFETTO_FXT, else a
# synthetic one of BENCH_PERFETTO_MB MiB, default 64: the importer keeps
# everything in memory): the time each takes to give the run time of
# every thread (fxt-report --csv; a query of Perfetto's sched table), and
# how many threads' run times agree. The synthetic archive has drop
# counters and lost switches, where the two may account the time around
# a loss differently; on the archives `make check` writes,
# selftests/perfetto-check requires every thread to agree.
set -eu
cd "$(dirname "$0")/.."
MB=${BENCH_MB:-1024}
DIR=${BENCH_DIR:-/tmp}
CPUS=${BENCH_CPUS:-4}
F=$DIR/fxt-bench-${MB}MB-${CPUS}cpu.fxt
# Scratch files of this run only (two runs at once must not share them).
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fxt-reader-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

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
	bench/gen-archive "$F.tmp.$$" "$MB" "$CPUS" >"$F.count.$$"
	mv "$F.count.$$" "$F.count" && mv "$F.tmp.$$" "$F"
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
		/usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" || true
		t=$(tail -n 1 "$TMP/time")
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

# fxt-report against Perfetto's importer: per-thread run times.
TP=$(command -v trace_processor_shell || true)
if [ -z "$TP" ]; then
	echo
	echo "Perfetto: trace_processor_shell is not on the PATH: no comparison with Perfetto's importer."
	exit 0
fi
P=${BENCH_PERFETTO_FXT:-}
if [ -z "$P" ]; then
	PMB=${BENCH_PERFETTO_MB:-64}
	P=$DIR/fxt-bench-${PMB}MB-${CPUS}cpu.fxt
	if [ ! -s "$P" ] || [ bench/gen-archive -nt "$P" ]; then
		bench/gen-archive "$P.tmp.$$" "$PMB" "$CPUS" >/dev/null
		mv "$P.tmp.$$" "$P"
	fi
fi
cat "$P" >/dev/null
# A thread's last slice may be open (dur -1): it runs to the trace's end.
cat >"$TMP/run.sql" <<'SQL'
select thread.tid as tid,
       sum(case when dur >= 0 then dur
                when ts = last then (select end_ts from trace_bounds) - ts
                else 0 end) as run_ns
  from (select *, max(ts) over (partition by utid) as last from sched)
  join thread using (utid) where thread.tid != 0 group by thread.tid;
SQL
run tp "$TP" -q "$TMP/run.sql" "$P"
run csv ./fxt-report --csv "$P"
"$TP" -q "$TMP/run.sql" "$P" >"$TMP/tp.csv" 2>/dev/null
./fxt-report --csv "$P" >"$TMP/fxt.csv"
# threads,TID,PID,COMM,RUN_NS,... (a reused tid: one row per life, summed)
agree=$(awk -F, '
	FNR == 1 { file++ }
	file == 1 && $1 == "threads" && $2 ~ /^[0-9]+$/ { fx[$2] += $5 }
	file == 2 && FNR > 1 { gsub(/"/, ""); pf[$1] = $2 }
	END {
		n = 0; same = 0
		for (t in fx) { n++; if ((t in pf) && pf[t] == fx[t]) same++ }
		for (t in pf) if (!(t in fx)) n++
		print same, n
	}' "$TMP/fxt.csv" "$TMP/tp.csv")
echo
echo "Perfetto: $(basename "$P"), $(($(wc -c <"$P") / 1048576)) MiB. Run time of every thread, best of $REPS runs each:"
echo
echo "| reader | wall s | CPU s | peak RSS MiB |"
echo "| --- | ---: | ---: | ---: |"
echo "| fxt-report --csv | $secs_csv | $cpu_csv | $((rss_csv / 1024)) |"
echo "| trace_processor_shell (import + query) | $secs_tp | $cpu_tp | $((rss_tp / 1024)) |"
echo
echo "fxt-report is $(echo "scale=1; $secs_tp / $secs_csv" | bc)x faster (wall); run times agree for ${agree% *} of ${agree#* } threads."
