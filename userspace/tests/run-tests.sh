#!/bin/sh
# SPDX-License-Identifier: MIT
#
# run-tests.sh BUILD_DIR [--regenerate] [--fuzz FUZZER SECONDS | --no-fuzzer CLANG]
#
# The host test suite, run by `make test` on binaries built with ASan and
# UBSan in BUILD_DIR:
#   1. unit-tests (library: writer, reader, round trips, every diagnostic,
#      truncation, formatting, histograms);
#   2. golden archives: fxt-dump, --check, --json, --perfetto (decoded by
#      perfetto-decode.py), fxt-report and --csv output compared with
#      tests/golden/, JSON validated by check-json.py;
#      those mkarchive lists as "perfetto": selftests/perfetto-check passes
#      (its Perfetto side only with a trace processor, else one skip);
#      tests/spec-decode.py, a decoder written from the specification
#      alone, reads every record and field as fxt-dump prints them;
#   2c. report archives (mkarchive kind "report"): fxt-report and --csv
#      output compared with tests/golden/, the same with --threads 2, and
#      fxt-dump's text and --perfetto (decoded) likewise; the
#      power archive's Power figures against ones worked out by hand, and
#      no Power section without power events; the gaps archives' threads,
#      CPUs, interrupts and Losses likewise (nothing drawn across a CPU's
#      gap), and no Losses section without gaps;
#   3. defective archives: fxt-dump --check fails with "offset 0x..." lines
#      (warnings only: passes, every line a warning; the golden-check ones:
#      exactly tests/golden/NAME.check; every reserved() of lib/reader_decode.c
#      in reserved-bits), and no tool crashes on them;
#   4. committed inputs (tests/inputs/, fuzzer finds): no tool crashes;
#   5. a truncated archive: one warning, everything before it kept;
#      --json from a pipe warns; the progress indicator only on a
#      terminal's standard error;
#   6. --help and usage errors;
#   6b. fxt-collect against tests/fake-fxt.c (an LD_PRELOAD stand-in for
#      /dev/fxt): latency trigger windows and their archives, a run that
#      ends with no firing, the statistics' missed column, usage errors;
#   7. with --fuzz, the libFuzzer target for SECONDS (one test: no crash;
#      a crash is saved in tests/inputs/ and becomes a regression input).
#      --no-fuzzer (CLANG cannot link libFuzzer): skipped with a note, or,
#      when CI=true, one failed test: CI must not pass without the fuzz run.
# Prints "N passed, M failed, K skipped" last (K: the fuzz run when
# libFuzzer is missing and CI is not true, the Perfetto side without a
# trace processor); exits 1 if anything failed.
# --regenerate rewrites tests/golden/ from the current binaries instead.
set -u
B=$1
shift
REGEN=
FUZZER=
NOFUZZ=
FUZZ_SECONDS=20
while [ $# -gt 0 ]; do
	case $1 in
	--regenerate) REGEN=$1; shift ;;
	--fuzz) FUZZER=$2; FUZZ_SECONDS=$3; shift 3 ;;
	--no-fuzzer) NOFUZZ=$2; shift 2 ;;
	*) echo "run-tests.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
T=$(cd "$(dirname "$0")" && pwd)
G=$T/golden
PY=${PYTHON:-python3}
# Leak checking costs ~0.3 s per process here: on for the unit tests and
# the golden runs, off for the many robustness runs.
LEAKS=exitcode=86:detect_leaks=1
NOLEAKS=exitcode=86:detect_leaks=0
export ASAN_OPTIONS=$LEAKS
export UBSAN_OPTIONS=halt_on_error=1:exitcode=86:print_stacktrace=1
pass=0
fail=0
skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
B=$(cd "$B" && pwd)
[ -n "$FUZZER" ] && FUZZER=$(cd "$(dirname "$FUZZER")" && pwd)/$(basename "$FUZZER")
have_report=0
[ -x "$B/fxt-report" ] && have_report=1

# A tool run that must not crash: exit 0, 1 or (usage) 2, never a sanitizer
# report (86) or a signal.
sane() {
	rc=$1; shift
	if [ "$rc" -gt 2 ]; then bad "$* exited $rc"; else ok; fi
}

# 1. Unit tests.
"$B/unit-tests" >"$tmp/unit.out" 2>"$tmp/unit.err"
rc=$?
cat "$tmp/unit.err" >&2
line=$(tail -n 1 "$tmp/unit.out")
up=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
uf=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
if [ -z "$up" ] || [ "$rc" -gt 1 ]; then
	bad "unit-tests crashed (exit $rc)"
else
	pass=$((pass + up))
	fail=$((fail + uf))
fi

# 2. Golden archives.
compare() {	# name ext file
	if [ "$REGEN" = --regenerate ]; then
		cp "$3" "$G/$1.$2"
		ok
	elif cmp -s "$3" "$G/$1.$2"; then
		ok
	else
		bad "golden $1.$2 differs:"
		diff -u "$G/$1.$2" "$3" | head -n 40 >&2
	fi
}
# fxt-dump --perfetto of NAME.fxt, decoded as text, against its golden
perfetto_golden() {
	"$B/fxt-dump" --perfetto "$1.fxt" >"$1.pftrace" 2>"$1.err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$1.err" ] &&
	   "$PY" "$T/perfetto-decode.py" "$1.pftrace" >"$1.perfetto"; then
		compare "$1" perfetto "$1.perfetto"
	else
		bad "fxt-dump --perfetto $1: $rc $(cat "$1.err")"
	fi
}
"$B/mkarchive" --list >"$tmp/list"
cd "$tmp" || exit 1
for name in $(awk '$2 == "golden" { print $1 }' "$tmp/list"); do
	"$B/mkarchive" "$name" "$name.fxt" || { bad "mkarchive $name"; continue; }
	"$B/fxt-dump" "$name.fxt" >"$name.dump" 2>"$name.err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$name.err" ]; then compare "$name" dump "$name.dump"; else bad "fxt-dump $name: $rc $(cat "$name.err")"; fi
	"$B/fxt-dump" --check "$name.fxt" >"$name.check" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then compare "$name" check "$name.check"; else bad "fxt-dump --check $name: $rc"; cat "$name.check" >&2; fi
	"$B/fxt-dump" --json "$name.fxt" >"$name.json" 2>"$name.err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$name.err" ]; then compare "$name" json "$name.json"; else bad "fxt-dump --json $name: $rc"; fi
	if "$PY" "$T/check-json.py" "$name.json" >&2; then ok; else bad "check-json $name"; fi
	# --perfetto: decoded by a protobuf decoder of its own, as text
	perfetto_golden "$name"
	if [ $have_report = 1 ]; then
		"$B/fxt-report" "$name.fxt" >"$name.report" 2>"$name.err"
		rc=$?
		if [ $rc -eq 0 ] && [ ! -s "$name.err" ]; then compare "$name" report "$name.report"; else bad "fxt-report $name: $rc $(cat "$name.err")"; fi
		"$B/fxt-report" --csv "$name.fxt" >"$name.csv" 2>"$name.err"
		rc=$?
		if [ $rc -eq 0 ]; then compare "$name" csv "$name.csv"; else bad "fxt-report --csv $name: $rc"; fi
		"$B/fxt-report" --threads 2 "$name.fxt" >"$name.report2" 2>&1
		if cmp -s "$name.report" "$name.report2"; then ok; else bad "fxt-report --threads 2 $name differs"; fi
	fi
	# The goldens are regenerated by the code they test and the archives
	# written by the module's own encoders: only a decoder that shares
	# nothing with them can catch an encoding mistake.
	if "$PY" "$T/spec-decode.py" --compare "$B/fxt-dump" "$name.fxt" >"$name.spec" 2>&1; then
		ok
	else
		bad "spec-decode.py $name: the specification and fxt-dump disagree:"
		grep -v ': [0-9]* records: \|: arguments: ' "$name.spec" >&2
	fi
done

# 2b. The golden archives written as fxt-collect writes: Perfetto's trace
# processor must show in them what fxt-dump and fxt-report read
# (selftests/perfetto-check; without a trace processor only the fxt side
# runs, and the Perfetto side counts as one skip).
PC=$T/../../selftests/perfetto-check
tp=${PERFETTO_TP:-$(command -v trace_processor_shell)}
if [ "$REGEN" != --regenerate ]; then
	for name in $(awk '$2 == "golden" && $6 == "perfetto" { print $1 }' "$tmp/list"); do
		if FXT_DUMP=$B/fxt-dump FXT_REPORT=$B/fxt-report "$PY" "$PC" \
			"$name.fxt" >"$name.pc" 2>&1; then
			ok
		else
			bad "perfetto-check $name:"
			grep -v '^ok ' "$name.pc" >&2
		fi
	done
	if [ -z "$tp" ] || [ ! -x "$tp" ]; then
		echo "perfetto-check: no trace processor (trace_processor_shell, PERFETTO_TP): the Perfetto side of the golden archives skipped"
		skip=$((skip + 1))
	fi
fi

# 2c. Report archives: a section of fxt-report's of their own, its output
# alone compared (fxt-dump's is the golden archives'), with --threads 2
# the same.
if [ $have_report = 1 ]; then
	for name in $(awk '$2 == "report" { print $1 }' "$tmp/list"); do
		"$B/mkarchive" "$name" "$name.fxt" || { bad "mkarchive $name"; continue; }
		for fmt in report csv; do
			opt=; [ $fmt = csv ] && opt=--csv
			"$B/fxt-report" $opt "$name.fxt" >"$name.$fmt" 2>"$name.err"
			rc=$?
			if [ $rc -eq 0 ] && [ ! -s "$name.err" ]; then
				compare "$name" $fmt "$name.$fmt"
			else
				bad "fxt-report $opt $name: $rc $(cat "$name.err")"
			fi
			"$B/fxt-report" $opt --threads 2 "$name.fxt" >"$name.$fmt.2" 2>&1
			if cmp -s "$name.$fmt" "$name.$fmt.2"; then ok; else bad "fxt-report $opt --threads 2 $name differs"; fi
		done
		# fxt-dump's text and --perfetto (decoded) of them too: the
		# power events on their blob's line, and as the ftrace events
		"$B/fxt-dump" "$name.fxt" >"$name.dump" 2>"$name.err"
		rc=$?
		if [ $rc -eq 0 ] && [ ! -s "$name.err" ]; then compare "$name" dump "$name.dump"; else bad "fxt-dump $name: $rc $(cat "$name.err")"; fi
		perfetto_golden "$name"
	done
fi
# The power archive's Power section (tests/archives.c, build_power), by
# hand rather than from a golden the code wrote: CPU 0 idle 8 ms from its
# first cpu_idle at 3 ms, active 4, state 1 3 (2 entries), state 2 1; its
# mean (4 ms x 1 GHz + 5 ms x 2 GHz) / 9 ms = 1555555.6 kHz, one change;
# CPU 1 idle 7 ms, 6 in state 0; CPU 2 800 MHz for 6 ms, no cpu_idle.
if [ $have_report = 1 ] && [ "$REGEN" != --regenerate ]; then
	cat >power.want <<-'EOF'
	table,cpu,state,time_ns,entries,idle_time_ns,freq_time_ns,freq_avg_khz,freq_min_khz,freq_max_khz,freq_changes
	power,0,active,4000000,,8000000,9000000,1555556,1000000,2000000,1
	power,0,1,3000000,2,8000000,9000000,1555556,1000000,2000000,1
	power,0,2,1000000,1,8000000,9000000,1555556,1000000,2000000,1
	power,1,active,1000000,,7000000,,,,,
	power,1,0,6000000,1,7000000,,,,,
	power,2,,,,,6000000,800000,800000,800000,0
	EOF
	sed -n '/^table,cpu,state,/,/^$/p' power.csv >power.got
	if cmp -s power.want power.got; then
		ok
	else
		bad "fxt-report --csv power: the Power block is not the figures worked out by hand:"
		diff -u power.want power.got >&2
	fi
	cat >power.want <<-'EOF'
	   0 all            8.000  100.0        3
	   0 active         4.000   50.0        -
	   0 1              3.000   37.5        2
	   0 2              1.000   12.5        1
	   1 all            7.000  100.0        1
	   1 active         1.000   14.3        -
	   1 0              6.000   85.7        1
	   2 -                  -      -        -
	   0       9.000    1555556    1000000    2000000        1
	   1           -          -          -          -        -
	   2       6.000     800000     800000     800000        0
	EOF
	sed -n '/^Power: /,/^$/{/^ *[0-9]/p}' power.report >power.got
	if cmp -s power.want power.got; then
		ok
	else
		bad "fxt-report power: the Power section is not the figures worked out by hand:"
		diff -u power.want power.got >&2
	fi
	# Without power events, no Power section.
	for name in basic sleep-states; do
		if ! grep -q '^Power' "$name.report" && ! grep -q '^power,\|^table,cpu,state,' "$name.csv"; then
			ok
		else
			bad "fxt-report $name: a Power section without power events"
		fi
	done
fi
# The gaps archives (tests/archives.c, build_gaps_of: CPU 1 lost 42 records
# from 4 to 7 ms), by hand. runner runs 1..4 (its run ends at the gap) and
# 9..10 ms, preempted 7..9; waiter runs 1..2 and 8..9, S 2..3 and 9..10,
# and its wakeup at 3 ms gives no delay (it may have run in the gap);
# steady runs 2..5, 6..8 and 9..10, waits 8..9 (5..6 is in the gap); brief
# runs 5..6 and blocks in the gap: no S. CPU 0 busy 1..10; CPU 1 busy 1..4
# and 9..10, idle 7..9, the 42 dropped; its interrupt open at 4 ms ends
# there. Losses: CPU 1, one gap, 42 records, 3 ms. Were the gap ignored:
# runner 7 ms, a 5 ms delay of waiter, steady 2 ms runnable, brief 4 ms in
# S, CPU 1 busy 7 ms and a 4 ms interrupt.
if [ $have_report = 1 ] && [ "$REGEN" != --regenerate ]; then
	cat >gaps.want <<-'EOF'
	threads,300,300,steady,6000000,3,2,1000000,1000000,0,0,0,0,0,0,0,0,0,0
	threads,100,100,runner,4000000,2,1,2000000,2000000,0,0,0,0,0,0,0,0,0,0
	threads,200,200,waiter,2000000,2,0,0,0,1,0,0,0,0,0,0,2000000,0,0
	threads,400,400,brief,1000000,1,0,0,0,0,0,0,0,0,0,0,0,0,0
	cpus,0,9000000,9000000,0,0,0,7,0
	cpus,1,6000000,4000000,2000000,0,0,4,42
	irqs,irq,timer,1,0,0,0
	losses,1,1,42,3000000,3000000
	EOF
	# gaps-mixed: its loss record in CPU 0's provider (CPU 1's figures
	# replayed in time order), without the interrupts: the same figures.
	grep -v '^irqs,' gaps.want >gaps-mixed.want
	for name in gaps gaps-mixed; do
		grep '^threads,\|^cpus,\|^irqs,\|^losses,' "$name.csv" >"$name.got"
		if cmp -s "$name.want" "$name.got"; then
			ok
		else
			bad "fxt-report --csv $name: not the figures worked out by hand:"
			diff -u "$name.want" "$name.got" >&2
		fi
	done
	echo '   1      1           42       3.000       3.000' >gaps.want
	sed -n '/^Losses /,/^$/{/^ *[0-9]/p}' gaps.report >gaps.got
	if cmp -s gaps.want gaps.got; then
		ok
	else
		bad "fxt-report gaps: the Losses section is not the figures worked out by hand:"
		diff -u gaps.want gaps.got >&2
	fi
	# Without loss records, no Losses section (power's loss report blob is
	# Perfetto's, not one).
	for name in basic sleep-states power; do
		if ! grep -q '^Losses' "$name.report" && ! grep -q '^losses,\|^table,cpu,gaps,' "$name.csv"; then
			ok
		else
			bad "fxt-report $name: a Losses section without loss records"
		fi
	done
fi

# 2d. make bench's counter (bench/fxtcount.c) on every golden and report
# archive: its kinds are apart, their bytes add up to the archive's, and
# the power archive's power events are counted as such.
if [ -x "$B/fxtcount" ]; then
	for name in $(awk '$2 == "golden" || $2 == "report" { print $1 }' "$tmp/list"); do
		[ -f "$name.fxt" ] || continue
		l=$("$B/fxtcount" "$name.fxt" 2>&1)
		sum=0
		for k in sw_bytes wk_bytes ev_bytes power_bytes other_bytes; do
			v=$(printf '%s\n' "$l" | sed -n "s/.* $k=\([0-9]*\).*/\1/p")
			sum=$((sum + ${v:-0}))
		done
		total=$(printf '%s\n' "$l" | sed -n 's/^bytes=\([0-9]*\) .*/\1/p')
		if [ -n "$total" ] && [ "$sum" -eq "$total" ]; then
			ok
		else
			bad "fxtcount $name: kinds add up to $sum bytes, the archive is ${total:-?}: $l"
		fi
	done
	case $("$B/fxtcount" power.fxt 2>&1) in
	*" power=11 "*) ok ;;
	*) bad "fxtcount power: not 11 power events: $("$B/fxtcount" power.fxt 2>&1)" ;;
	esac
fi

# 3. Defective archives; some with their --check text in tests/golden/.
# Those with errors fail --check; those with only warnings pass it, and
# every line they print is a warning.
export ASAN_OPTIONS=$NOLEAKS
awk '$2 == "check" && $3 == "cli" { print $1, $4, $5 }' "$tmp/list" >check.list
while read -r name golden sev; do
	"$B/mkarchive" "$name" "$name.fxt" || { bad "mkarchive $name"; continue; }
	"$B/fxt-dump" --check "$name.fxt" >"$name.check" 2>&1
	rc=$?
	if [ "$sev" = error ] && [ $rc -eq 1 ] && grep -q '^offset 0x[0-9a-f]*: ' "$name.check" &&
	   tail -n 1 "$name.check" | grep -q 'FAILED$'; then
		ok
	elif [ "$sev" = warning ] && [ $rc -eq 0 ] &&
	     grep -q '^offset 0x[0-9a-f]*: warning: ' "$name.check" &&
	     ! sed '$d' "$name.check" | grep -vq '^offset 0x[0-9a-f]*: warning: ' &&
	     tail -n 1 "$name.check" | grep -q ' 0 errors, .*: OK$'; then
		ok
	else
		bad "fxt-dump --check $name ($sev): exit $rc"
		cat "$name.check" >&2
	fi
	if [ "$golden" = golden-check ]; then
		compare "$name" check "$name.check"
	fi
	"$B/fxt-dump" "$name.fxt" >/dev/null 2>&1; sane $? "fxt-dump $name"
	"$B/fxt-dump" --json "$name.fxt" >"$name.json" 2>/dev/null; sane $? "fxt-dump --json $name"
	if "$PY" "$T/check-json.py" "$name.json" >&2; then ok; else bad "check-json $name"; fi
	"$B/fxt-dump" --perfetto "$name.fxt" >"$name.pftrace" 2>/dev/null
	sane $? "fxt-dump --perfetto $name"
	if "$PY" "$T/perfetto-decode.py" "$name.pftrace" >/dev/null; then ok; else bad "perfetto-decode $name"; fi
	if [ $have_report = 1 ]; then
		"$B/fxt-report" "$name.fxt" >/dev/null 2>&1; sane $? "fxt-report $name"
	fi
done <check.list

# Every reserved-field check of the reader ("what [lo..hi]") is triggered
# by the reserved-bits archive: a new check needs a new record there. The
# checks name *_RESERVED_FIELDs; include/fxt/format.h gives their FXT_FIELD(lo, hi).
sed -n 's/.*reserved(&\{0,1\}c, [a-z]*, \(FXT_[A-Z0-9_]*_FIELD\), "\([^"]*\)");.*/\1 \2/p' \
	"$T/../lib/reader_decode.c" >reserved.fields
: >reserved.list
while read -r field what; do
	range=$(sed -n "s/^#define $field[[:space:]]*FXT_FIELD(\([0-9]*\), \([0-9]*\))\$/\1..\2/p" \
		"$T/../../include/fxt/format.h")
	[ -n "$range" ] || bad "$field (lib/reader_decode.c) is not a field of include/fxt/format.h"
	echo "$what [$range]" >>reserved.list
done <reserved.fields
[ -s reserved.list ] || bad "no reserved() checks found in lib/reader_decode.c"
[ "$(grep -c 'reserved(&\{0,1\}c, ' "$T/../lib/reader_decode.c")" = "$(wc -l <reserved.list)" ] ||
	bad "a reserved() check of lib/reader_decode.c names no *_FIELD of include/fxt/format.h"
while read -r what; do
	if grep -qF "reserved bits set: $what" reserved-bits.check; then
		ok
	else
		bad "reserved-bits archive does not trigger \"$what\" (lib/reader_decode.c)"
	fi
done <reserved.list

# 4. Committed inputs: whatever they hold, nothing crashes.
for f in "$T"/inputs/*; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	"$B/fxt-dump" "$f" >/dev/null 2>&1; sane $? "fxt-dump $n"
	"$B/fxt-dump" --check "$f" >/dev/null 2>&1; sane $? "fxt-dump --check $n"
	"$B/fxt-dump" --json "$f" >"$tmp/in.json" 2>/dev/null; sane $? "fxt-dump --json $n"
	if "$PY" "$T/check-json.py" "$tmp/in.json" >&2; then ok; else bad "check-json $n"; fi
	"$B/fxt-dump" --perfetto "$f" >"$tmp/in.pftrace" 2>/dev/null; sane $? "fxt-dump --perfetto $n"
	if "$PY" "$T/perfetto-decode.py" "$tmp/in.pftrace" >/dev/null; then ok; else bad "perfetto-decode $n"; fi
	if [ $have_report = 1 ]; then
		"$B/fxt-report" "$f" >/dev/null 2>&1; sane $? "fxt-report $n"
	fi
done

# 5. A truncated archive: one clear warning, every whole record kept.
"$B/mkarchive" basic full.fxt
size=$(wc -c <full.fxt)
head -c $((size - 3)) full.fxt >cut.fxt
"$B/fxt-dump" cut.fxt >cut.dump 2>cut.err
rc=$?
n=$(grep -c 'truncated record at offset 0x[0-9a-f]*: ' cut.err)
"$B/fxt-dump" full.fxt | sed '$d' >full-but-last.dump
if [ $rc -eq 0 ] && [ "$n" = 1 ] && [ "$(wc -l <cut.err)" = 1 ] && cmp -s cut.dump full-but-last.dump; then
	ok
else
	bad "truncated archive: exit $rc, $n warnings"
	cat cut.err >&2
fi
for tool in "fxt-dump --json" "fxt-dump --check" fxt-report; do
	[ "$tool" = fxt-report ] && [ $have_report = 0 ] && continue
	# shellcheck disable=SC2086
	"$B"/$tool cut.fxt >/dev/null 2>cut.err
	if [ "$(grep -c 'truncated record at offset' cut.err)" -le 1 ]; then ok; else bad "$tool: truncation warning"; fi
done

# 5a. --json from a pipe converts in file order: it must say so (stderr
# only, exit 0); standard input redirected from a file is in time order.
"$B/mkarchive" cross-cpu cross.fxt
cat cross.fxt | "$B/fxt-dump" --json - >pipe.json 2>pipe.err
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l <pipe.err)" = 1 ] &&
   grep -q '^fxt-dump: warning: -: converted in file order' pipe.err &&
   ! grep -q 'file order' pipe.json; then
	ok
else
	bad "fxt-dump --json from a pipe: exit $rc, no single warning"
	cat pipe.err >&2
fi
"$B/fxt-dump" --json - <cross.fxt >stdin.json 2>stdin.err
if [ $? -eq 0 ] && [ ! -s stdin.err ] && cmp -s stdin.json "$G/cross-cpu.json"; then
	ok
else
	bad "fxt-dump --json - <file: not the time-ordered conversion"
fi

# 5b. The progress indicator (lib/progress.c): on standard error only, only
# when it is a terminal (script(1) gives the tool one) and the archive is
# over 64 MiB (a sparse 65 MiB archive: one large blob, read in no time);
# never on standard output; fxt-dump has none while its output streams to
# the same terminal.
"$B/mkarchive" --large 65 big.fxt || bad "mkarchive --large"
for tool in "fxt-dump" "fxt-dump --check" "fxt-dump --json" fxt-report; do
	[ "$tool" = fxt-report ] && [ $have_report = 0 ] && continue
	name=${tool%% *}
	# shellcheck disable=SC2086
	"$B"/$tool big.fxt >big.out 2>big.err
	if grep -q '% (' big.err big.out; then bad "$tool: progress without a terminal"; else ok; fi
	if command -v script >/dev/null; then
		script -qec "'$B'/$tool big.fxt >big.out" /dev/null </dev/null >big.tty 2>&1
		if grep -q "$name:   0% (0 of 65 MiB)" big.tty && ! grep -q '% (' big.out; then
			ok
		else
			bad "$tool: no progress on a terminal, or progress on standard output"
			od -c big.tty | head -n 5 >&2
		fi
	else
		bad "script(1) (bsdutils) is missing: cannot test the progress indicator"
	fi
done
if command -v script >/dev/null; then
	script -qec "'$B'/fxt-dump big.fxt" /dev/null </dev/null >big.tty 2>&1
	if grep -q '% (' big.tty; then bad "fxt-dump: progress mixed into its output on a terminal"; else ok; fi
fi

# 6. --help tells how to use the tool; bad usage exits 2.
for tool in fxt-dump fxt-report; do
	[ -x "$B/$tool" ] || continue
	if "$B/$tool" --help | head -n 1 | grep -q "^Usage: $tool"; then ok; else bad "$tool --help"; fi
	"$B/$tool" --no-such-option >/dev/null 2>&1
	if [ $? -eq 2 ]; then ok; else bad "$tool: bad option does not exit 2"; fi
	"$B/$tool" >/dev/null 2>&1
	if [ $? -eq 2 ]; then ok; else bad "$tool: no FILE does not exit 2"; fi
	"$B/$tool" /nonexistent/file >/dev/null 2>&1
	if [ $? -eq 1 ]; then ok; else bad "$tool: missing file does not exit 1"; fi
done

# 6b. fxt-collect's trigger windows, against the fake device.
collect() {	# stderr-file [NAME=VALUE]... -- fxt-collect options
	err=$1; shift
	vars=
	while [ "$1" != -- ]; do vars="$vars $1"; shift; done
	shift
	# shellcheck disable=SC2086
	env ASAN_OPTIONS=$NOLEAKS:verify_asan_link_order=0 LD_PRELOAD="$B/fake-fxt.so" \
		$vars "$B/fxt-collect" -d /fake/fxt "$@" >"$err" 2>&1
}
if [ -x "$B/fxt-collect" ] && [ -f "$B/fake-fxt.so" ]; then
	rm -f w.fxt w-2.fxt w-3.fxt w-4.fxt
	collect w.err FAKE_FXT_FIRE=3 -- -o w.fxt --trigger wakeup-latency=10ms \
		--trigger off-cpu=1s,comm=myserver --post 20ms --windows 3
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c '^fxt-collect: trigger 0 wakeup-latency=10ms fired on CPU 1: tid [0-9]* .*waited 23.457 ms' w.err)" = 3 ] &&
	   grep -q '^fxt-collect: window 2: tracing into w-2.fxt$' w.err &&
	   grep -q '^fxt-collect: window 3 saved to w-3.fxt ([0-9]* bytes)$' w.err &&
	   grep -q '^ *1 .* 3 *$' w.err && grep -q ' missed ' w.err &&
	   grep -q 'warning: 9 latencies were not measured' w.err && [ ! -e w-4.fxt ]; then
		ok
	else
		bad "fxt-collect --windows 3: exit $rc"
		cat w.err >&2
	fi
	for f in w.fxt w-2.fxt w-3.fxt; do
		# Every window begins afresh: each holds both CPUs' durable data.
		if "$B/fxt-dump" --check "$f" >/dev/null 2>&1 &&
		   [ "$("$B/fxt-dump" "$f" | grep -c ' string index=1 "irq"$')" = 2 ]; then
			ok
		else
			bad "fxt-collect window $f: not a complete archive"
		fi
	done
	# Streaming: a CPU that fills and drops again before the collector
	# reads the drop count after its acknowledgement (a collector
	# preempted that long). Each loss record spans the records between
	# which its records were lost, with their count (the kernel's note,
	# rolling_lost_before[]), not one span with all of them.
	rm -f s.fxt
	collect s.err FAKE_FXT_STREAM=1 -- -o s.fxt -m streaming -t 0.3
	rc=$?
	got=$("$B/fxt-dump" s.fxt 2>&1 | sed -n 's/.* complete ts=\([0-9]*\) .*name="lost" end_ts=\([0-9]*\) .*"records": uint64 \([0-9]*\)}$/\1-\2:\3/p' | tr '\n' ' ')
	if [ $rc -eq 0 ] && [ "$got" = "1300-1500:2 1600-1800:3 " ] &&
	   [ "$("$B/fxt-dump" s.fxt | grep -c ' event instant ts=')" = 7 ]; then
		ok
	else
		bad "fxt-collect, streaming drops after an acknowledgement: loss records '$got', not '1300-1500:2 1600-1800:3 '"
		cat s.err >&2
	fi
	collect n.err -- -o n.fxt --trigger off-cpu=1ms -t 0.3
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^fxt-collect: window 1 saved to n.fxt ([0-9]* bytes): no trigger fired in this window$' n.err &&
	   ! grep -q 'fired on' n.err; then
		ok
	else
		bad "fxt-collect -t with a trigger that never fires: exit $rc"
		cat n.err >&2
	fi
	# With a command: its status, as a shell gives it, once the archive
	# is written; 125 for fxt-collect's own failures.
	cmd_status() {	# WANT COMMAND...: fxt-collect -- COMMAND exits WANT
		want=$1; shift
		rm -f x.fxt
		collect x.err -- -o x.fxt -t 5 -- "$@"
		rc=$?
		if [ "$rc" = "$want" ] && "$B/fxt-dump" --check x.fxt >/dev/null 2>&1; then
			ok
		else
			bad "fxt-collect -- $*: exit $rc, not $want (or no valid archive)"
			cat x.err >&2
		fi
	}
	cmd_status 0 true
	cmd_status 1 false
	cmd_status 7 sh -c 'exit 7'
	# shellcheck disable=SC2016 # the command's own $$
	cmd_status 143 sh -c 'kill -TERM $$'
	cmd_status 127 /no/such/command
	cmd_status 126 /etc/passwd
	collect x.err -- -o /no/such/dir/x.fxt -- true
	rc=$?
	if [ $rc -eq 125 ]; then ok; else bad "fxt-collect, archive not writable: exit $rc, not 125"; fi
	collect x.err -- -o x.fxt -t 0.2 -- sleep 5
	rc=$?
	if [ $rc -eq 143 ] && grep -q 'command killed by signal 15' x.err; then
		ok
	else
		bad "fxt-collect -t ended before the command: exit $rc, not 143"
	fi
	"$B/fxt-collect" --no-such-option >/dev/null 2>&1
	rc=$?
	if [ $rc -eq 125 ]; then ok; else bad "fxt-collect: bad option: exit $rc, not 125"; fi
	collect p.err -- -o p.fxt -m circular -t 0.2
	rc=$?
	if [ $rc -eq 0 ] && grep -q ' bytes flags$' p.err && ! grep -q 'missed\|window' p.err; then
		ok
	else
		bad "fxt-collect without triggers: exit $rc, or trigger output"
		cat p.err >&2
	fi
	# A circular window starts where every CPU's does (buffers.rst,
	# "Window edges"): CPU 0 wrapped, its older buffer from 1000 ns, so
	# CPU 1's event at 500 ns is left out, and nothing else.
	collect c.err FAKE_FXT_WRAP=1 -- -o c.fxt -m circular -t 0.2
	rc=$?
	got=$("$B/fxt-dump" c.fxt 2>/dev/null | sed -n 's/.* event instant ts=\([0-9]*\) .*/\1/p' | sort -n | tr '\n' ' ')
	if [ $rc -eq 0 ] && [ "$got" = "1000 1050 1100 1200 1250 1300 " ] && "$B/fxt-dump" --check c.fxt >/dev/null 2>&1 &&
	   grep -q '^fxt-collect: 1 timed records from before the window.s common start left out: every CPU.s records begin at 1000 ns' c.err; then
		ok
	else
		bad "fxt-collect circular window edge: exit $rc, events at [$got]"
		cat c.err >&2
	fi
	# --window-start per-cpu keeps every CPU's whole window and marks
	# where the wrapped CPU 0's begins; only in circular mode.
	collect c.err FAKE_FXT_WRAP=1 -- -o c.fxt -m circular -t 0.2 --window-start per-cpu
	rc=$?
	got=$("$B/fxt-dump" c.fxt 2>/dev/null | sed -n 's/.* event instant ts=\([0-9]*\) .*"irq"#1$/\1/p' | sort -n | tr '\n' ' ')
	mark=$("$B/fxt-dump" c.fxt 2>/dev/null | grep -c ' event instant ts=1000 thread={tid=1073741825 pid=1073741824} category="fxt" name="window_start"$')
	if [ $rc -eq 0 ] && [ "$got" = "500 1000 1050 1100 1200 1250 1300 " ] && [ "$mark" = 1 ] &&
	   "$B/fxt-dump" --check c.fxt >/dev/null 2>&1 && ! grep -q 'left out' c.err; then
		ok
	else
		bad "fxt-collect --window-start per-cpu: exit $rc, events at [$got]"
		cat c.err >&2
	fi
	collect c.err -- -o c.fxt -m streaming -t 0.2 --window-start per-cpu
	rc=$?
	if [ $rc -eq 125 ] && grep -q 'window-start per-cpu needs circular mode' c.err; then
		ok
	else
		bad "fxt-collect -m streaming --window-start per-cpu: exit $rc, not 125"
	fi
	# --stats-json: the table's figures, as JSON a program reads; written
	# whole (no .tmp left), and a file it cannot write fails the run.
	collect j.err -- -o j.fxt -m circular -t 0.2 --stats-json j.json
	rc=$?
	if [ $rc -eq 0 ] && [ ! -e j.json.tmp ] && "$PY" - j.err j.json <<-'PYEOF'
	import json, sys
	rows = {}
	for line in open(sys.argv[1]):
	    f = line.split()
	    if len(f) >= 7 and f[0].isdigit():
	        rows[int(f[0])] = [int(x) for x in f[1:7]]
	cpus = json.load(open(sys.argv[2]))["cpus"]
	keys = ("records", "dropped", "durable", "durable_dropped", "wraps", "bytes")
	got = {c["cpu"]: [c[k] for k in keys] for c in cpus}
	sys.exit(0 if rows and got == rows and
	         all(type(c["durable_full"]) is bool for c in cpus) else 1)
	PYEOF
	then
		ok
	else
		bad "fxt-collect --stats-json: exit $rc, or its figures are not the table's"
		cat j.err j.json >&2
	fi
	collect j.err -- -o j.fxt -m circular -t 0.2 --stats-json /no/such/dir/j.json
	rc=$?
	if [ $rc -eq 125 ] && grep -q 'stats-json /no/such/dir/j.json.tmp: No such file' j.err; then
		ok
	else
		bad "fxt-collect --stats-json into a missing directory: exit $rc, not 125"
		cat j.err >&2
	fi
	while IFS='|' read -r want args; do
		# shellcheck disable=SC2086
		collect u.err -- -o u.fxt $args
		rc=$?
		if [ $rc -eq 125 ] && grep -qF -- "$want" u.err; then
			ok
		else
			bad "fxt-collect $args: exit $rc, not '$want'"
			cat u.err >&2
		fi
	done <<-'EOF'
	wakeup-latency needs the sched and wakeup categories (-c)|-c sched --trigger wakeup-latency=1ms
	--trigger needs circular mode|-m streaming --trigger off-cpu=1ms
	bad threshold '1' (a number and a unit|--trigger off-cpu=1
	only the cpu= filter applies|--trigger irq-duration=1ms,pid=3
	--post and --windows need --trigger|--windows 2
	is longer than 15 bytes|--trigger off-cpu=1ms,comm=abcdefghijklmnopq
	-o and --output-dir: one or the other|--output-dir rec --trigger off-cpu=1ms
	--keep-windows and --keep-bytes need --output-dir|--keep-windows 3
	--keep-windows x: not a count|--output-dir rec --keep-windows x
	EOF
	# The flight recorder (--output-dir): every window under its own
	# saved name, complete; the oldest go past the limits; a window a
	# killed run was writing is no archive, and the next run removes it.
	valid_windows() {	# DIR N: exactly N saved windows, each a valid archive
		local n=0 f
		for f in "$1"/fxt-*.fxt; do
			[ -e "$f" ] || continue
			"$B/fxt-dump" --check "$f" >/dev/null 2>&1 || { echo "$f: not valid"; return 1; }
			n=$((n + 1))
		done
		[ "$n" = "$2" ] || { echo "$1: $n windows, want $2"; return 1; }
	}
	rm -rf rec && mkdir rec
	collect r.err FAKE_FXT_FIRE=4 -- --output-dir rec --trigger wakeup-latency=10ms \
		--post 20ms --keep-windows 2 -t 1.5
	rc=$?
	if [ $rc -eq 0 ] && valid_windows rec 2 >&2 && [ ! -e rec/.fxt-window.tmp ] &&
	   [ "$(grep -c '^fxt-collect: window [0-9]* saved to rec/fxt-[0-9]\{8\}T[0-9]\{6\}\.[0-9]\{3\}Z\.fxt ([0-9]* bytes)' r.err)" = 5 ] &&
	   [ "$(grep -c '^fxt-collect: removed rec/fxt-.*over --keep-windows 2' r.err)" = 3 ] &&
	   ! grep -q 'tracing into' r.err; then
		ok
	else
		bad "fxt-collect --output-dir --keep-windows 2: exit $rc"
		cat r.err >&2; ls -la rec >&2
	fi
	# The newest two windows are the ones kept (names sort by time).
	if [ "$(ls rec)" = "$(sed -n 's/^fxt-collect: window [0-9]* saved to rec\/\([^ ]*\) .*/\1/p' r.err | tail -n 2)" ]; then
		ok
	else
		bad "fxt-collect --keep-windows: not the newest windows kept"
		ls rec >&2
	fi
	rm -rf rec && mkdir rec
	collect r.err FAKE_FXT_FIRE=4 -- --output-dir rec --trigger wakeup-latency=10ms \
		--post 20ms --keep-bytes 300 -t 1.5
	rc=$?
	size=$(cat rec/fxt-*.fxt 2>/dev/null | wc -c)
	if [ $rc -eq 0 ] && [ "$size" -le 300 ] && [ "$size" -gt 0 ] &&
	   grep -q '^fxt-collect: removed rec/fxt-.*or --keep-bytes 300$' r.err; then
		ok
	else
		bad "fxt-collect --keep-bytes 300: exit $rc, $size bytes kept"
		cat r.err >&2
	fi
	# SIGKILL while the third window is recorded: two complete archives and
	# the temporary window; the next run removes it and says so.
	rm -rf rec && mkdir rec
	env ASAN_OPTIONS=$NOLEAKS:verify_asan_link_order=0 LD_PRELOAD="$B/fake-fxt.so" \
		FAKE_FXT_FIRE=2 "$B/fxt-collect" -d /fake/fxt --output-dir rec \
		--trigger wakeup-latency=10ms --post 20ms >k.err 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		[ "$(grep -c 'saved to rec/' k.err)" = 2 ] && break
		sleep 0.05
	done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	if valid_windows rec 2 >&2 && [ -e rec/.fxt-window.tmp ] &&
	   [ "$(find rec -type f | wc -l)" = 3 ]; then
		ok
	else
		bad "fxt-collect --output-dir killed by SIGKILL: not 2 complete windows and the temporary one"
		cat k.err >&2; ls -la rec >&2
	fi
	collect k.err -- --output-dir rec --trigger wakeup-latency=10ms -t 0.2
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^fxt-collect: removed rec/.fxt-window.tmp, a window an earlier run did not finish$' k.err &&
	   valid_windows rec 3 >&2 && [ ! -e rec/.fxt-window.tmp ]; then
		ok
	else
		bad "fxt-collect --output-dir after a SIGKILL: exit $rc"
		cat k.err >&2
	fi
	# SIGTERM (systemd's stop) saves the window in progress.
	env ASAN_OPTIONS=$NOLEAKS:verify_asan_link_order=0 LD_PRELOAD="$B/fake-fxt.so" \
		"$B/fxt-collect" -d /fake/fxt --output-dir rec --trigger off-cpu=1s >t.err 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -q 'tracing started' t.err && break
		sleep 0.05
	done
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	if [ $rc -eq 0 ] && valid_windows rec 4 >&2 &&
	   grep -q 'window 1 saved to rec/fxt-.*: no trigger fired in this window$' t.err; then
		ok
	else
		bad "fxt-collect --output-dir stopped by SIGTERM: exit $rc, window not saved"
		cat t.err >&2
	fi
	# --config: the same settings as the options; any bad line refuses the
	# whole run with its line and reason, before the device is opened.
	rm -rf rec && mkdir rec
	cat >rec.conf <<-'EOF'
	# a recorder
	output-dir = rec
	trigger = wakeup-latency=10ms

	post = 20ms
	keep-windows = 1
	EOF
	collect c.err FAKE_FXT_FIRE=2 -- --config rec.conf -t 0.6
	rc=$?
	if [ $rc -eq 0 ] && valid_windows rec 1 >&2 && grep -q 'removed rec/fxt-' c.err; then
		ok
	else
		bad "fxt-collect --config: exit $rc"
		cat c.err >&2
	fi
	while IFS='|' read -r want conf; do
		printf '%b' "$conf" >bad.conf
		collect c.err -- --config bad.conf -d /no/such/device
		rc=$?
		if [ $rc -eq 125 ] && grep -qF -- "$want" c.err && ! grep -q 'no/such/device' c.err; then
			ok
		else
			bad "fxt-collect --config '$conf': exit $rc, not '$want'"
			cat c.err >&2
		fi
	done <<-'EOF'
	bad.conf:2: --trigger off-cpu=1: off-cpu: bad threshold|output-dir = rec\ntrigger = off-cpu=1\n
	bad.conf:1: not "key = value": output-dir rec|output-dir rec\n
	bad.conf:2: nosuch: not a setting|# x\nnosuch = 1\n
	bad.conf:1: quiet: not a setting|quiet = yes\n
	bad.conf:1: config: not a setting|config = other.conf\n
	bad.conf:1: no value|post =\n
	bad.conf:3: --keep-bytes lots: not a size|output-dir = rec\ntrigger = off-cpu=1ms\nkeep-bytes = lots\n
	bad.conf:1: a NUL byte|post = 1ms\0x\n
	EOF
	collect c.err -- --config /no/such.conf
	rc=$?
	if [ $rc -eq 125 ] && grep -q '^fxt-collect: /no/such.conf: No such file or directory$' c.err; then
		ok
	else
		bad "fxt-collect --config of a missing file: exit $rc"
	fi
	collect u.err -- -t 1
	rc=$?
	if [ $rc -eq 125 ] && grep -qF -- '-o FILE (or --output-dir DIR) is required' u.err; then
		ok
	else
		bad "fxt-collect without -o or --output-dir: exit $rc"
	fi
	if "$B/fxt-collect" --help | grep -q -- '--trigger SPEC'; then ok; else bad "fxt-collect --help: no --trigger"; fi
fi

# Every diagnostic is documented in Documentation/tools.rst.
doc=$T/../../Documentation/tools.rst
for id in $(sed -n 's/^[[:space:]]*X(\([A-Z_0-9]*\),.*/\1/p' "$T/../lib/libfxt_diag.h"); do
	if grep -q "^$id " "$doc"; then ok; else bad "diagnostic $id is not in Documentation/tools.rst"; fi
done

# 7. A short fuzzing run.
if [ -n "$FUZZER" ]; then
	F=$FUZZER
	mkdir -p "$T/../build-fuzz/corpus"
	(cd "$T/.." && ASAN_OPTIONS=quarantine_size_mb=8 "$F" -max_total_time="$FUZZ_SECONDS" \
		-max_len=65536 -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
		-artifact_prefix=tests/inputs/ -print_final_stats=1 \
		build-fuzz/corpus fuzz/corpus) >"$tmp/fuzz.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
	if [ $rc -eq 0 ]; then
		ok
		echo "fuzz: ${runs:-?} inputs in ${FUZZ_SECONDS} s, no crash"
	else
		bad "fuzzer found a crash (saved in tests/inputs/):"
		grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$tmp/fuzz.log" >&2
	fi
fi

if [ -n "$NOFUZZ" ]; then
	if [ "${CI:-}" = true ]; then
		bad "fuzz: $NOFUZZ cannot link -fsanitize=fuzzer (no libFuzzer): CI=true requires the fuzz run"
	else
		echo "fuzz: $NOFUZZ cannot link -fsanitize=fuzzer (no libFuzzer): skipped (a failure when CI=true)"
		skip=$((skip + 1))
	fi
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
