#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/run-guest.sh OUTDIR: the measuring half of `make bench`. Runs INSIDE
# the qemu guest (scripts/bench starts it with scripts/vm/run); never on the
# build machine: it loads kernel modules and BPF programs.
#
# For every repetition, for every workload, every tracer configuration runs
# once (tracer order shuffled per repetition), so slow drifts of the TCG
# guest spread evenly over the tracers. One line per run goes to
# OUTDIR/raw.csv; the tracers' own outputs go to the guest's /tmp (tmpfs).
# Then the probe micro-benchmark (OUTDIR/micro.csv) and the streaming
# keep-up run (OUTDIR/keepup.csv; its archive OUTDIR/keepup.fxt when
# nothing was dropped).
#
# Every fork+exec costs ~85 ms in the TCG guest, so the bookkeeping between
# runs uses bash builtins only (read, [[ =~ ]], read -t as sleep): with
# sed/grep/cat it took more time than the workloads themselves.
#
# Knobs (environment): BENCH_REPS (default 10), BENCH_PP (ping-pong round
# trips), BENCH_MSG ("-g G -l L" of perf bench sched messaging), BENCH_FORK
# (fork+exec count), BENCH_TIMER ("THREADS N US" of timerload),
# BENCH_WORKLOADS, BENCH_TRACERS (space-separated subsets), BENCH_PERF_REPS
# (in how many of the repetitions perf-sched runs), BENCH_PERF_WORKLOADS,
# BENCH_MICRO_ROUNDS, BENCH_KEEPUP (round trips of the keep-up phase),
# BENCH_PHASES (any of: runs micro keepup).
set -u

out=${1:?usage: run-guest.sh OUTDIR}
B=build/bench/bin
T=/sys/kernel/tracing
reps=${BENCH_REPS:-10}
pp_n=${BENCH_PP:-20000}
msg_args=${BENCH_MSG:--t -g 1 -l 100}
fork_n=${BENCH_FORK:-100}
timer_args=${BENCH_TIMER:-4 1000 50}
# perf sched record costs ~8 s of start-up per run in TCG: only on the
# workloads of the chart, and only in BENCH_PERF_REPS of the repetitions
# (spread evenly over them)
perf_workloads=${BENCH_PERF_WORKLOADS:-pingpong messaging}
perf_reps=${BENCH_PERF_REPS:-5}
# the flight recorder's collector (fxt-circ, fxt-armed): its CPU time per
# record against streaming's with the same categories (fxt-wake), on these
# workloads only
circ_workloads=${BENCH_CIRC_WORKLOADS:-messaging}
micro_rounds=${BENCH_MICRO_ROUNDS:-5}
phases=${BENCH_PHASES:-runs micro keepup}
keepup_n=${BENCH_KEEPUP:-150000}
workloads=${BENCH_WORKLOADS:-pingpong messaging fork timer}
tracers=${BENCH_TRACERS:-none null-sched null-all fxt-sched fxt-all fxt-power fxt-wake fxt-circ fxt-armed ftrace-sched ftrace-all trace-cmd bpf-sched bpf-all perf-sched lttng-sched lttng-all}
FTRACE_KB=8192			# per CPU, like fxt-collect's default -b 8M

raw=$out/raw.csv
log=$out/guest.log
mkdir -p "$out"
echo "workload,tracer,rep,wall_ns,ops,ok,events,lost,out_bytes,switches,np_count,np_switches,cpu_user_s,cpu_sys_s,maxrss_kb,status,start_ms,stop_ms,np_vectors,np_names,saves,sw_bytes,other_bytes,wakeups,wk_bytes,ev_records,ev_bytes,sleeps,sleep_bytes,power,power_bytes" >"$raw"
: >"$log"

say() { echo "bench: $*" | tee -a "$log" >&2; }

# Work from copies in the guest's tmpfs: the repository is shared with the
# host, where a concurrent `make clean` (Kbuild's clean recurses into bench/)
# deleted the modules in the middle of a run once.
mkdir -p /tmp/bench/bin /tmp/bench/mod
cp $B/* /tmp/bench/bin/ && cp userspace/fxt-collect /tmp/bench/bin/ &&
	cp module/fxt.ko bench/nullprobe/nullprobe.ko bench/probebench/probebench.ko /tmp/bench/mod/ ||
	{ say "cannot copy the binaries"; exit 1; }
B=/tmp/bench/bin
cp $B/nop /tmp/nop
insmod /tmp/bench/mod/fxt.ko || { say "cannot load fxt.ko"; exit 1; }
# perf bench sched messaging must work here; fail early if not
perf bench sched messaging -g 1 -l 1 >/dev/null 2>&1 || say "perf bench sched messaging does not run"

# LTTng (bench/lttng/): the modules bench/lttng/build.sh built for this
# kernel, loaded once, and one lttng-sessiond for the whole run. When that
# fails, the lttng-* configurations are dropped and OUTDIR/lttng.txt says
# why (analyze.py prints it).
micro_lttng=lttng-sched
lttng_ok=0
lttng_off() {
	say "LTTng unavailable: $*"
	echo "unavailable: $*" >"$out/lttng.txt"
	tracers=$(printf '%s\n' $tracers | grep -v '^lttng-' | tr '\n' ' ')
	micro_lttng=
}
if [[ " $tracers $phases " == *" lttng-"* || " $phases " == *" micro "* ]]; then
	lmods=build/lttng/$(uname -r)
	if ! command -v lttng-sessiond >/dev/null; then
		lttng_off "lttng-tools is not installed (scripts/install-deps --bench)"
	elif [ ! -e $lmods/.fxt-built ]; then
		lttng_off "no modules built for $(uname -r) in $lmods (bench/lttng/build.sh $(uname -r))"
	else
		mkdir -p /tmp/bench/lttng
		find $lmods/src -name '*.ko' -exec cp -t /tmp/bench/lttng {} +
		. bench/lttng/lttng.sh
		if lttng_setup /tmp/bench/lttng 2>>"$log"; then
			lttng_ok=1
			echo "ok: lttng-modules 2.13.9 (bench/lttng/build.sh), $(lttng --version | head -1)" >"$out/lttng.txt"
		else
			lttng_off "loading the modules or starting lttng-sessiond failed (see guest.log)"
		fi
	fi
fi

# fxt.ko built to stop its sched_switch probe after piece N
# (bench/fxt-parts/build.sh): fxt-partN rows of the micro phase, each
# loaded in place of fxt.ko for its run.
micro_parts=
for n in 1 2; do
	f=build/bench/fxt-parts/$(uname -r)/part$n/module/fxt.ko
	[ -e "$f" ] && cp "$f" /tmp/bench/mod/fxt-part$n.ko &&
		micro_parts+=" fxt-part$n"
done
# the same pieces in circular mode, and the two of its own (3: the room
# made for names, 4: the name cache): fxt-cpartN rows, timed like fxt-circ
for n in 2 3 4; do
	f=build/bench/fxt-parts/$(uname -r)/part$n/module/fxt.ko
	[ -e "$f" ] && cp "$f" /tmp/bench/mod/fxt-cpart$n.ko &&
		micro_parts+=" fxt-cpart$n"
done
[ -n "$micro_parts" ] || say "no bench/fxt-parts modules for $(uname -r): no fxt-part rows"
# fxt.ko as it was before sleep events (bench/fxt-base/build.sh): the
# fxt-base row, a plain switch timed like fxt-sched, loaded in its place.
f=build/bench/fxt-base/$(uname -r)/module/fxt.ko
[ -e "$f" ] && cp "$f" /tmp/bench/mod/fxt-base.ko && micro_parts+=" fxt-base"
[ -e "$f" ] || say "no bench/fxt-base module for $(uname -r): no fxt-base row"
# Loads $1 as fxt whether or not an fxt is loaded, so that a part that
# failed to load does not leave the rest of the bench without fxt.ko.
swap_fxt() { rmmod fxt 2>/dev/null; insmod "$1"; }

# nap SECONDS: sleep without a fork (read -t on a fifo nobody writes)
mkfifo /tmp/nap.fifo
exec 7<>/tmp/nap.fifo
nap() { read -r -t "$1" -u 7 _; }
# now_ms VAR: milliseconds into VAR, without a fork
now_ms() { local t=${EPOCHREALTIME/./}; printf -v "$1" %s $((t / 1000)); }

# file_has FILE STRING: whether a line of FILE contains STRING
file_has() {
	local l
	[ -r "$1" ] || return 1
	while IFS= read -r l; do
		[[ $l == *"$2"* ]] && return 0
	done <"$1"
	return 1
}

# wait_for FILE STRING [SECONDS]: poll FILE until STRING appears
wait_for() {
	local i
	for ((i = 0; i < ${3:-30} * 50; i++)); do
		file_has "$1" "$2" && return 0
		nap 0.02
	done
	return 1
}

# ns=, ops= out of a workload's output
parse_res() {
	ns= ops=
	[[ $1 =~ ns=([0-9]+) ]] && ns=${BASH_REMATCH[1]}
	[[ $1 =~ ops=([0-9]+) ]] && ops=${BASH_REMATCH[1]}
}

run_workload() {
	local r
	case $1 in
	pingpong)	$B/pingpong "$pp_n" 0 ;;
	messaging)	# "Total time: 1.150 [sec]"
			r=$(perf bench sched messaging $msg_args 2>&1)
			[[ $r =~ Total\ time:\ *([0-9]+)\.([0-9]+) ]] &&
				echo "ns=$((10#${BASH_REMATCH[1]}${BASH_REMATCH[2]}000000)) ops=1" ;;
	fork)		$B/forkstorm "$fork_n" /tmp/nop ;;
	timer)		$B/timerload $timer_args ;;
	esac
}

# per-run results, reset by each run
reset_vals() {
	ok=1 events= lost= obytes= switches= npc= nps= npv= npn= cu= cs= rss= pid= status=
	saves= wraps= records= swb= otb= wkn= wkb= evn= evb= sln= slb= pwn= pwb=
}

# stop_pid: SIGINT the tracer (through bench/rusage), wait at most 60 s,
# then SIGKILL it and its child; 1 when it had to be killed
stop_pid() {
	local i
	kill -INT $pid 2>/dev/null
	for ((i = 0; i < 3000; i++)); do
		kill -0 $pid 2>/dev/null || break
		nap 0.02
	done
	if kill -0 $pid 2>/dev/null; then
		say "tracer $pid ignored SIGINT for 60 s; killing it"
		kill -KILL $(</proc/$pid/task/$pid/children) $pid 2>/dev/null
		wait $pid
		return 1
	fi
	wait $pid
}

read_rusage() {
	[ -s /tmp/ru ] && read -r cu cs rss status </tmp/ru
	: >/tmp/ru
}

# the size of FILE, into obytes (one fork; only for tracers that do not
# report it themselves)
file_size() { obytes=$(stat -c %s "$1" 2>/dev/null); }

FTRACE_SCHED="sched/sched_switch"
# the power category's tracepoints (ftrace-power: ftrace-all's and these)
FTRACE_POWER="power/cpu_idle power/cpu_frequency"
FTRACE_ALL="sched/sched_switch sched/sched_waking sched/sched_wakeup_new irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit"
# and the x86 interrupt vectors fxt's irq category hooks (module/fxt_probes.c)
for v in local_timer reschedule call_function call_function_single irq_work \
	 x86_platform_ipi spurious_apic error_apic thermal_apic threshold_apic \
	 deferred_error_apic; do
	for e in ${v}_entry ${v}_exit; do
		[ -d $T/events/irq_vectors/$e ] && FTRACE_ALL="$FTRACE_ALL irq_vectors/$e"
	done
done

# fxt-collect's summary line, and its per-CPU table (cpu records dropped
# durable d.dropped wraps bytes flags)
FXT_SUM='^fxt-collect: [^:]*: ([0-9]+) bytes, ([0-9]+) records \(([0-9]+) events, ([0-9]+) durable\), ([0-9]+) dropped, ([0-9]+) buffers saved'
FXT_CPU='^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +([0-9]+) +[0-9]+'
parse_fxt() {
	local l
	while IFS= read -r l; do
		if [[ $l =~ $FXT_SUM ]]; then
			records=${BASH_REMATCH[2]} events=${BASH_REMATCH[3]}
			lost=${BASH_REMATCH[5]} saves=${BASH_REMATCH[6]}
		elif [[ $l =~ $FXT_CPU ]]; then
			wraps="${wraps:+$wraps }${BASH_REMATCH[1]}"
		elif [[ $l != *"tracing started"* && $l != *"records dropped"* &&
			$l != *" cpu "*records* ]]; then
			echo "  fxt-collect: $l" >>"$log"
		fi
	done </tmp/tr.err
}

start_tracer() {
	case $1 in
	none) ;;
	null-sched|null-all)
		local a=1
		[ "$1" = null-sched ] && a=0
		insmod /tmp/bench/mod/nullprobe.ko all=$a || ok=0 ;;
	fxt-sched|fxt-all|fxt-wake|fxt-power|fxt-part[12]|fxt-base)
		local c=sched,wakeup,irq,softirq
		[ "$1" = fxt-wake ] && c=sched,wakeup
		[ "$1" = fxt-power ] && c=all	# fxt-all's and power
		[ "$1" = fxt-all ] || [ "$1" = fxt-wake ] || [ "$1" = fxt-power ] || c=sched
		: >/tmp/tr.err
		$B/rusage /tmp/ru -- $B/fxt-collect -m streaming -c $c \
			-o /tmp/t.fxt 2>/tmp/tr.err &
		pid=$!
		wait_for /tmp/tr.err "tracing started" || ok=0 ;;
	fxt-circ|fxt-armed|fxt-cpart[234])	# circular, triggers armed or not (micro only)
		local trig=()
		[ "$1" = fxt-armed ] && trig=(--trigger wakeup-latency=10s --trigger off-cpu=100s)
		: >/tmp/tr.err
		$B/rusage /tmp/ru -- $B/fxt-collect -m circular -c sched,wakeup \
			"${trig[@]}" -o /tmp/t.fxt 2>/tmp/tr.err &
		pid=$!
		wait_for /tmp/tr.err "tracing started" || ok=0 ;;
	ftrace-sched|ftrace-all|ftrace-power)
		local e evs=$FTRACE_SCHED
		[ "$1" = ftrace-all ] && evs=$FTRACE_ALL
		[ "$1" = ftrace-power ] && evs="$FTRACE_ALL $FTRACE_POWER"
		echo 0 >$T/tracing_on
		echo $FTRACE_KB >$T/buffer_size_kb
		echo >$T/trace
		for e in $evs; do echo 1 >$T/events/$e/enable || ok=0; done
		echo 1 >$T/tracing_on ;;
	trace-cmd)
		: >/tmp/tr.err
		$B/rusage /tmp/ru -- stdbuf -oL -eL trace-cmd record -b $FTRACE_KB \
			-e sched:sched_switch -o /tmp/tc.dat >/tmp/tr.err 2>&1 &
		pid=$!
		wait_for /tmp/tr.err "Hit Ctrl" 60 || ok=0 ;;
	bpf-sched|bpf-all)
		local a=
		[ "$1" = bpf-all ] && a=-a
		: >/tmp/tr.err
		$B/rusage /tmp/ru -- $B/rbtrace -o /tmp/rb.bin $a 2>/tmp/tr.err &
		pid=$!
		wait_for /tmp/tr.err "tracing started" || ok=0 ;;
	lttng-sched|lttng-all)
		: >/tmp/tr.err
		lttng_start ${1#lttng-} 2>/tmp/tr.err || ok=0 ;;
	perf-sched)
		: >/tmp/tr.err
		exec 8<>/tmp/pctl 9<>/tmp/pack
		$B/rusage /tmp/ru -- perf sched record --no-buildid -D -1 \
			--control fifo:/tmp/pctl,/tmp/pack -o /tmp/perf.data \
			>/tmp/tr.err 2>&1 &
		pid=$!
		echo enable >&8
		local ack=
		read -r -t 60 ack <&9 || ok=0
		[ "$ack" = ack ] || ok=0 ;;
	esac
}

stop_tracer() {
	local l k v f
	case $1 in
	none) ;;
	null-sched|null-all)
		f=/sys/module/nullprobe/parameters
		read -r npc <$f/count
		read -r nps <$f/switches
		read -r npv <$f/vectors
		read -r npn <$f/names
		events=$npc
		switches=$nps
		rmmod nullprobe ;;
	fxt-circ|fxt-armed|fxt-wake)
		stop_pid || ok=0
		read_rusage
		parse_fxt ;;
	fxt-part[12]|fxt-cpart[234]|fxt-base)
		stop_pid || ok=0
		read_rusage ;;
	fxt-sched|fxt-all|fxt-power)
		stop_pid || ok=0
		read_rusage
		parse_fxt
		# bytes=B records=R switches=S ...
		l=$($B/fxtcount /tmp/t.fxt)
		[[ $l =~ bytes=([0-9]+) ]] && obytes=${BASH_REMATCH[1]}
		[[ $l =~ switches=([0-9]+) ]] && switches=${BASH_REMATCH[1]}
		[[ $l =~ sw_bytes=([0-9]+) ]] && swb=${BASH_REMATCH[1]}
		[[ $l =~ other_bytes=([0-9]+) ]] && otb=${BASH_REMATCH[1]}
		[[ $l =~ wakeups=([0-9]+) ]] && wkn=${BASH_REMATCH[1]}
		[[ $l =~ wk_bytes=([0-9]+) ]] && wkb=${BASH_REMATCH[1]}
		[[ $l =~ \ events=([0-9]+) ]] && evn=${BASH_REMATCH[1]}
		[[ $l =~ ev_bytes=([0-9]+) ]] && evb=${BASH_REMATCH[1]}
		[[ $l =~ \ sleeps=([0-9]+) ]] && sln=${BASH_REMATCH[1]}
		[[ $l =~ sleep_bytes=([0-9]+) ]] && slb=${BASH_REMATCH[1]}
		[[ $l =~ \ power=([0-9]+) ]] && pwn=${BASH_REMATCH[1]}
		[[ $l =~ power_bytes=([0-9]+) ]] && pwb=${BASH_REMATCH[1]} ;;
	ftrace-sched|ftrace-all|ftrace-power)
		echo 0 >$T/tracing_on
		local evs=$FTRACE_SCHED e
		[ "$1" = ftrace-all ] && evs=$FTRACE_ALL
		[ "$1" = ftrace-power ] && evs="$FTRACE_ALL $FTRACE_POWER"
		for e in $evs; do echo 0 >$T/events/$e/enable; done
		events=0 lost=0 obytes=0
		for f in $T/per_cpu/cpu*/stats; do
			while read -r k v; do
				case $k in
				entries:) events=$((events + v)) ;;
				overrun:) lost=$((lost + v)) ;;
				bytes:)   obytes=$((obytes + v)) ;;
				esac
			done <"$f"
		done
		[ "$1" = ftrace-sched ] && switches=$events
		echo >$T/trace ;;
	trace-cmd)
		stop_pid || ok=0
		read_rusage
		file_size /tmp/tc.dat ;;
	bpf-sched|bpf-all)
		stop_pid || ok=0
		read_rusage
		# rbtrace: events=N lost=L bytes=B
		while IFS= read -r l; do
			[[ $l =~ events=([0-9]+)\ lost=([0-9]+)\ bytes=([0-9]+) ]] &&
				events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]} obytes=${BASH_REMATCH[3]}
		done </tmp/tr.err
		[ "$1" = bpf-sched ] && switches=$events ;;
	perf-sched)
		stop_pid
		exec 8>&- 9>&-
		read_rusage
		# [ perf record: Captured and wrote 0.020 MB /tmp/perf.data (20 samples) ]
		while IFS= read -r l; do
			[[ $l =~ \(([0-9]+)\ samples\) ]] && events=${BASH_REMATCH[1]}
			[[ $l =~ lost\ ([0-9]+)\ chunks ]] && [ -z "$lost" ] && lost=${BASH_REMATCH[1]}
		done </tmp/tr.err
		file_size /tmp/perf.data ;;
	lttng-sched|lttng-all)
		lttng_stop 2>>/tmp/tr.err || ok=0
		events=$lt_events lost=$lt_lost obytes=$lt_bytes
		cu=$lt_cpu_user cs=$lt_cpu_sys rss=$lt_rss_kb
		[ "$1" = lttng-sched ] && switches=$events ;;
	esac
}
rm -f /tmp/pctl /tmp/pack
mkfifo /tmp/pctl /tmp/pack

# run_one WORKLOAD TRACER REP: one measured run, one line of raw.csv
run_one() {
	local w=$1 t=$2 rep=$3 t0 t1 t2 t3 res
	reset_vals
	now_ms t0
	start_tracer "$t"
	now_ms t1
	res=$(run_workload "$w")
	now_ms t2
	stop_tracer "$t"
	now_ms t3
	parse_res "$res"
	[ -n "$ns" ] || ok=0
	if [ $ok != 1 ]; then
		say "rep $rep $w $t failed (tracer exit status ${status:-?}); its stderr and the kernel log tail:"
		sed 's/^/    /' /tmp/tr.err >>"$log" 2>/dev/null
		dmesg | tail -5 | sed 's/^/    dmesg: /' >>"$log"
	fi
	echo "$w,$t,$rep,$ns,$ops,$ok,$events,$lost,$obytes,$switches,$npc,$nps,$cu,$cs,$rss,$status,$((t1 - t0)),$((t3 - t2)),$npv,$npn,$saves,$swb,$otb,$wkn,$wkb,$evn,$evb,$sln,$slb,$pwn,$pwb" >>"$raw"
}

# perf_in_rep REP: whether perf-sched runs in repetition REP (perf_reps of
# the reps, spread evenly: with 10 and 5, reps 2 4 6 8 10)
perf_in_rep() {
	[ $(($1 * perf_reps / reps)) -ne $((($1 - 1) * perf_reps / reps)) ]
}

now_ms t_start
secs() { local n; now_ms n; echo $(((n - $1 + 500) / 1000)); }
phase_t=$t_start
if [[ " $phases " == *" runs "* ]]; then
	for rep in $(seq "$reps"); do
		for w in $workloads; do
			for t in $(printf '%s\n' $tracers | shuf); do
				if [ $t = perf-sched ]; then
					[[ " $perf_workloads " == *" $w "* ]] || continue
					perf_in_rep $rep || continue
				fi
				if [ $t = fxt-circ ] || [ $t = fxt-armed ] || [ $t = fxt-wake ]; then
					[[ " $circ_workloads " == *" $w "* ]] || continue
				fi
				run_one "$w" "$t" "$rep"
			done
		done
		say "rep $rep/$reps done after $(secs $t_start) s"
	done
	say "phase runs: $(secs $phase_t) s"
fi

# Noise-free view: bench/probebench times the probes attached to
# sched_switch directly, while each tracer records (rounds shuffled).
micro=$out/micro.csv
echo "tracer,round,median_ns,min_ns,probes,ok" >"$micro"
now_ms phase_t
if [[ " $phases " == *" micro "* ]]; then
	for round in $(seq "$micro_rounds"); do
		for t in $(printf '%s\n' none null-sched fxt-sched fxt-circ fxt-armed \
				none-real-s none-real-d fxt-sched-real-s fxt-sched-real-d \
				fxt-circ-block fxt-armed-block fxt-wake-waking fxt-circ-waking \
				none-idle fxt-power-idle ftrace-power-idle \
				ftrace-sched trace-cmd \
				bpf-sched perf-sched $micro_lttng $micro_parts | shuf); do
			reset_vals
			case $t in fxt-part* | fxt-cpart* | fxt-base) swap_fxt /tmp/bench/mod/$t.ko || ok=0 ;; esac
			tr=${t%-block}
			tr=${tr%-waking}
			tr=${tr%-idle}
			tr=${tr%-real-?}
			start_tracer "$tr"
			r="- - -"
			# -block: every call blocks and switches in the same
			# thread (armed: an off-cpu note, and its taking);
			# -real-s, -real-d: real switches of a sleeping thread,
			# into S or D (the sleep event, and the walk from
			# __schedule() for the function: records.rst, "Sleep
			# states"), bracketed by probebench's own probes
			args="prev_state=0"
			[[ $t == *-block ]] && args="prev_state=1"
			# -waking: the probes on sched_waking (a wakeup of a
			# running task, written at once), in streaming
			# (fxt-wake: the categories fxt-circ records) or circular
			[[ $t == *-waking ]] && args="tp=sched_waking"
			# -idle: the probes on cpu_idle, as the idle loop calls
			# them on entry (fxt-power: every category, power too;
			# ftrace-power: ftrace-all's events and power's)
			[[ $t == *-idle ]] && args="tp=cpu_idle"
			[[ $t == *-real-s ]] && args="real=1 prev_state=1 batches=1000"
			[[ $t == *-real-d ]] && args="real=1 prev_state=2 batches=1000"
			# shellcheck disable=SC2086 # args: several parameters
			if insmod /tmp/bench/mod/probebench.ko $args; then
				read -r r </sys/module/probebench/parameters/result
				rmmod probebench
			else
				ok=0
			fi
			stop_tracer "$tr"
			case $t in fxt-part* | fxt-cpart* | fxt-base) swap_fxt /tmp/bench/mod/fxt.ko || ok=0 ;; esac
			echo "$t,$round,${r// /,},$ok" >>"$micro"
		done
		# the pieces of fxt's write path, alone (no tracer)
		for part in 1:inc 2:clock 3:cmpxchg 4:record; do
			ok=1 r="- - -"
			if insmod /tmp/bench/mod/probebench.ko part=${part%%:*}; then
				read -r r </sys/module/probebench/parameters/result
				rmmod probebench
			else
				ok=0
			fi
			echo "part-${part#*:},$round,${r// /,},$ok" >>"$micro"
		done
		say "micro round $round done after $(secs $t_start) s"
	done
	say "phase micro: $(secs $phase_t) s"
fi

# Keep-up: does streaming keep up, at the default buffer size and with every
# category, with the highest switch rate this guest reaches? First find the
# fastest switching load (each candidate briefly, untraced), then run it
# under fxt-collect -m streaming long enough that every CPU's rolling
# buffers fill and are saved several times (8 MiB per CPU: 1 MiB durable,
# two rolling buffers of about 3.5 MiB each).
ctxt() {
	local k v
	while read -r k v; do
		[ "$k" = ctxt ] && { echo "$v"; return; }
	done </proc/stat
}
# keepup_load NAME N: N round trips of a ping-pong variant
keepup_load() {
	local a b
	case $1 in
	pp-cross)	$B/pingpong "$2" x ;;	# threads on CPUs 0 and 1
	pp-pinned)	# one pair pinned on each CPU
			$B/pingpong "$2" 0 & a=$!
			$B/pingpong "$2" 1 & b=$!
			wait $a $b ;;
	pp-free)	# two pairs, left to the scheduler
			$B/pingpong "$2" -1 & a=$!
			$B/pingpong "$2" -1 & b=$!
			wait $a $b ;;
	esac
}
kcsv=$out/keepup.csv
echo "phase,load,round_trips,wall_ms,ctxt,records,events,dropped,saves,wraps,out_bytes,switches" >"$kcsv"
rm -f "$out/keepup.fxt"
now_ms phase_t
if [[ " $phases " == *" keepup "* ]]; then
	best= best_rate=0
	for l in pp-cross pp-pinned pp-free; do
		c0=$(ctxt); now_ms t0
		keepup_load $l 20000 >/dev/null
		now_ms t1; c1=$(ctxt)
		rate=$(((c1 - c0) * 1000 / (t1 - t0 > 0 ? t1 - t0 : 1)))
		echo "calibrate,$l,20000,$((t1 - t0)),$((c1 - c0)),,,,,,," >>"$kcsv"
		say "keep-up: $l switches $rate/s untraced"
		[ $rate -gt $best_rate ] && best=$l best_rate=$rate
	done
	reset_vals
	: >/tmp/tr.err
	# fxt-collect's defaults: -b 8M, every category
	$B/rusage /tmp/ru -- $B/fxt-collect -m streaming -o /tmp/t.fxt 2>/tmp/tr.err &
	pid=$!
	wait_for /tmp/tr.err "tracing started" || ok=0
	c0=$(ctxt); now_ms t0
	keepup_load $best "$keepup_n" >/dev/null
	now_ms t1; c1=$(ctxt)
	stop_tracer fxt-all
	echo "keepup,$best,$keepup_n,$((t1 - t0)),$((c1 - c0)),$records,$events,$lost,$saves,$wraps,$obytes,$switches" >>"$kcsv"
	say "keep-up: $best, $keepup_n round trips in $((t1 - t0)) ms, $((c1 - c0)) switches: $records records, $lost dropped, $saves buffers saved, per-CPU wraps $wraps"
	[ $ok = 1 ] || { say "keep-up run failed:"; sed 's/^/    /' /tmp/tr.err >>"$log"; }
	# Kept for the reader benchmark's comparison with Perfetto (scripts/bench):
	# a real archive, every category, nothing dropped.
	[ $ok = 1 ] && [ "$lost" = 0 ] && mv /tmp/t.fxt "$out/keepup.fxt"
	rm -f /tmp/t.fxt
	say "phase keepup: $(secs $phase_t) s"
fi
rmmod fxt
[ $lttng_ok = 1 ] && lttng_teardown
say "guest part done after $(secs $t_start) s"
