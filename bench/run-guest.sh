#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/run-guest.sh OUTDIR: the measuring half of `make bench`. Runs INSIDE
# the qemu guest (scripts/bench starts it with scripts/vm-run); never on the
# build machine: it loads kernel modules and BPF programs.
#
# For every repetition, for every workload, every tracer configuration runs
# once (tracer order shuffled per repetition), so slow drifts of the TCG
# guest spread evenly over the tracers. One line per run goes to
# OUTDIR/raw.csv; the tracers' own outputs go to the guest's /tmp (tmpfs).
#
# Knobs (environment): BENCH_REPS (default 10), BENCH_PP (ping-pong round
# trips), BENCH_MSG ("-g G -l L" of perf bench sched messaging), BENCH_FORK
# (fork+exec count), BENCH_TIMER ("THREADS N US" of timerload),
# BENCH_WORKLOADS, BENCH_TRACERS (space-separated subsets).
set -u

out=${1:?usage: run-guest.sh OUTDIR}
B=build/bench/bin
T=/sys/kernel/tracing
reps=${BENCH_REPS:-5}
pp_n=${BENCH_PP:-5000}
msg_args=${BENCH_MSG:--g 1 -l 20}
fork_n=${BENCH_FORK:-100}
timer_args=${BENCH_TIMER:-4 500 50}
# perf sched record costs ~8 s of start-up and tear-down per run in TCG:
# only on the workloads of the chart
perf_workloads=${BENCH_PERF_WORKLOADS:-pingpong messaging}
workloads=${BENCH_WORKLOADS:-pingpong messaging fork timer}
tracers=${BENCH_TRACERS:-none null-sched null-all fxt-sched fxt-all ftrace-sched ftrace-all trace-cmd bpf-sched bpf-all perf-sched}
FTRACE_KB=8192			# per CPU, like fxt-collect's default -b 8M

raw=$out/raw.csv
log=$out/guest.log
mkdir -p "$out"
echo "workload,tracer,rep,wall_ns,ops,ok,events,lost,out_bytes,switches,np_count,np_switches,cpu_user_s,cpu_sys_s,maxrss_kb,status" >"$raw"
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
# perf bench sched messaging and trace-cmd must work here; fail early if not
perf bench sched messaging -g 1 -l 1 >/dev/null 2>&1 || say "perf bench sched messaging does not run"

# wait_for FILE REGEX [SECONDS]: poll FILE until REGEX appears
wait_for() {
	local i
	for i in $(seq $((${3:-30} * 20))); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

run_workload() {
	case $1 in
	pingpong)	$B/pingpong "$pp_n" 0 ;;
	messaging)	# "Total time: 1.150 [sec]" -> ns=..., ops = groups*40*loops*... (reported: loops)
			perf bench sched messaging $msg_args 2>&1 |
			awk '/Total time/ { printf "ns=%d ops=1\n", $3 * 1e9 }' ;;
	fork)		$B/forkstorm "$fork_n" /tmp/nop ;;
	timer)		$B/timerload $timer_args ;;
	esac
}

# per-run results, reset by each run
reset_vals() {
	ok=1 events= lost= obytes= switches= npc= nps= cu= cs= rss= pid= status=
}

# stop_pid: SIGINT the tracer (through bench/rusage), wait at most 60 s,
# then SIGKILL it and its child; 1 when it had to be killed
stop_pid() {
	local i
	kill -INT $pid 2>/dev/null
	for i in $(seq 1200); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 $pid 2>/dev/null; then
		say "tracer $pid ignored SIGINT for 60 s; killing it"
		kill -KILL $(cat /proc/$pid/task/*/children 2>/dev/null) $pid 2>/dev/null
		wait $pid
		return 1
	fi
	wait $pid
}

read_rusage() {
	[ -s /tmp/ru ] && read -r cu cs rss status </tmp/ru
	rm -f /tmp/ru
}

FTRACE_SCHED="sched/sched_switch"
FTRACE_ALL="sched/sched_switch sched/sched_waking sched/sched_wakeup_new irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit"

start_tracer() {
	case $1 in
	none) ;;
	null-sched|null-all)
		local a=1
		[ "$1" = null-sched ] && a=0
		insmod /tmp/bench/mod/nullprobe.ko all=$a || ok=0 ;;
	fxt-sched|fxt-all)
		local c=sched,wakeup,irq,softirq
		[ "$1" = fxt-sched ] && c=sched
		rm -f /tmp/t.fxt /tmp/tr.err
		$B/rusage /tmp/ru -- $B/fxt-collect -m streaming -c $c \
			-o /tmp/t.fxt 2>/tmp/tr.err &
		pid=$!
		wait_for /tmp/tr.err "tracing started" || ok=0 ;;
	ftrace-sched|ftrace-all)
		local e evs=$FTRACE_SCHED
		[ "$1" = ftrace-all ] && evs=$FTRACE_ALL
		echo 0 >$T/tracing_on
		echo $FTRACE_KB >$T/buffer_size_kb
		echo >$T/trace
		for e in $evs; do echo 1 >$T/events/$e/enable || ok=0; done
		echo 1 >$T/tracing_on ;;
	trace-cmd)
		rm -f /tmp/tc.dat /tmp/tr.err
		$B/rusage /tmp/ru -- stdbuf -oL -eL trace-cmd record -b $FTRACE_KB \
			-e sched:sched_switch -o /tmp/tc.dat >/tmp/tr.err 2>&1 &
		pid=$!
		wait_for /tmp/tr.err "Hit Ctrl" 60 || ok=0 ;;
	bpf-sched|bpf-all)
		local a=
		[ "$1" = bpf-all ] && a=-a
		rm -f /tmp/rb.bin /tmp/tr.err
		$B/rusage /tmp/ru -- $B/rbtrace -o /tmp/rb.bin $a 2>/tmp/tr.err &
		pid=$!
		wait_for /tmp/tr.err "tracing started" || ok=0 ;;
	perf-sched)
		rm -f /tmp/perf.data /tmp/pctl /tmp/pack /tmp/tr.err
		mkfifo /tmp/pctl /tmp/pack
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
	case $1 in
	none) ;;
	null-sched|null-all)
		npc=$(cat /sys/module/nullprobe/parameters/count)
		nps=$(cat /sys/module/nullprobe/parameters/switches)
		events=$npc
		switches=$nps
		rmmod nullprobe ;;
	fxt-sched|fxt-all)
		stop_pid || ok=0
		read_rusage
		# fxt-collect: FILE: N bytes, N records (N events, N durable), N dropped, ...
		local s
		s=$(grep 'fxt-collect: /tmp/t.fxt:' /tmp/tr.err)
		events=$(echo "$s" | sed -n 's/.*(\([0-9]*\) events.*/\1/p')
		lost=$(echo "$s" | sed -n 's/.* \([0-9]*\) dropped.*/\1/p')
		obytes=$(stat -c %s /tmp/t.fxt 2>/dev/null)
		switches=$($B/fxtcount /tmp/t.fxt | sed -n 's/.*switches=\([0-9]*\).*/\1/p')
		grep -v "tracing started" /tmp/tr.err | grep -iv "^ *cpu \|^ *[0-9]" |
			grep -v "fxt-collect: /tmp/t.fxt:" | sed 's/^/  fxt-collect: /' >>"$log"
		cp /tmp/tr.err /tmp/last-fxt.err
		rm -f /tmp/t.fxt ;;
	ftrace-sched|ftrace-all)
		echo 0 >$T/tracing_on
		local evs=$FTRACE_SCHED e
		[ "$1" = ftrace-all ] && evs=$FTRACE_ALL
		for e in $evs; do echo 0 >$T/events/$e/enable; done
		events=$(cat $T/per_cpu/cpu*/stats | awk '/^entries:/ { s += $2 } END { print s + 0 }')
		lost=$(cat $T/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }')
		obytes=$(cat $T/per_cpu/cpu*/stats | awk '/^bytes:/ { s += $2 } END { print s + 0 }')
		[ "$1" = ftrace-sched ] && switches=$events
		echo >$T/trace ;;
	trace-cmd)
		stop_pid || ok=0
		read_rusage
		obytes=$(stat -c %s /tmp/tc.dat 2>/dev/null)
		rm -f /tmp/tc.dat ;;
	bpf-sched|bpf-all)
		stop_pid || ok=0
		read_rusage
		events=$(sed -n 's/.*events=\([0-9]*\).*/\1/p' /tmp/tr.err)
		lost=$(sed -n 's/.*lost=\([0-9]*\).*/\1/p' /tmp/tr.err)
		obytes=$(stat -c %s /tmp/rb.bin 2>/dev/null)
		[ "$1" = bpf-sched ] && switches=$events
		rm -f /tmp/rb.bin ;;
	perf-sched)
		stop_pid
		exec 8>&- 9>&-
		read_rusage
		# [ perf record: Captured and wrote 0.020 MB /tmp/perf.data (20 samples) ]
		events=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' /tmp/tr.err)
		lost=$(sed -n 's/.*lost \([0-9]*\) chunks.*/\1/p' /tmp/tr.err | head -1)
		obytes=$(stat -c %s /tmp/perf.data 2>/dev/null)
		rm -f /tmp/perf.data /tmp/pctl /tmp/pack ;;
	esac
}

t_start=$(date +%s)
for rep in $(seq "$reps"); do
	for w in $workloads; do
		for t in $(printf '%s\n' $tracers | shuf); do
			[ $t = perf-sched ] && ! [[ " $perf_workloads " == *" $w "* ]] && continue
			reset_vals
			start_tracer "$t"
			res=$(run_workload "$w")
			stop_tracer "$t"
			ns=$(echo "$res" | sed -n 's/.*ns=\([0-9]*\).*/\1/p')
			ops=$(echo "$res" | sed -n 's/.*ops=\([0-9]*\).*/\1/p')
			[ -n "$ns" ] || ok=0
			if [ $ok != 1 ]; then
				say "rep $rep $w $t failed (tracer exit status ${status:-?}); its stderr and the kernel log tail:"
				sed 's/^/    /' /tmp/tr.err >>"$log" 2>/dev/null
				dmesg | tail -5 | sed 's/^/    dmesg: /' >>"$log"
			fi
			echo "$w,$t,$rep,$ns,$ops,$ok,$events,$lost,$obytes,$switches,$npc,$nps,$cu,$cs,$rss,$status" >>"$raw"
		done
	done
	say "rep $rep/$reps done after $(($(date +%s) - t_start)) s"
done

# Noise-free view: bench/probebench times the probes attached to
# sched_switch directly, while each tracer records (5 rounds, shuffled).
micro=$out/micro.csv
echo "tracer,round,median_ns,min_ns,probes,ok" >"$micro"
for round in $(seq "${BENCH_MICRO_ROUNDS:-5}"); do
	for t in $(printf '%s\n' none null-sched fxt-sched ftrace-sched trace-cmd bpf-sched perf-sched | shuf); do
		reset_vals
		start_tracer "$t"
		r="- - -"
		if insmod /tmp/bench/mod/probebench.ko; then
			r=$(cat /sys/module/probebench/parameters/result)
			rmmod probebench
		else
			ok=0
		fi
		stop_tracer "$t"
		echo "$t,$round,${r// /,},$ok" >>"$micro"
	done
	say "micro round $round done after $(($(date +%s) - t_start)) s"
done

# The highest switch rate we can reach: cross-CPU ping-pong and messaging
# under fxt with every category, default buffer, streaming (loss check).
for w in pingpong-x messaging-big; do
	reset_vals
	start_tracer fxt-all
	case $w in
	pingpong-x)	res=$($B/pingpong $((pp_n * 4)) x) ;;
	messaging-big)	res=$(perf bench sched messaging -g 4 -l 20 2>&1 |
			      awk '/Total time/ { printf "ns=%d ops=1\n", $3 * 1e9 }') ;;
	esac
	stop_tracer fxt-all
	ns=$(echo "$res" | sed -n 's/.*ns=\([0-9]*\).*/\1/p')
	ops=$(echo "$res" | sed -n 's/.*ops=\([0-9]*\).*/\1/p')
	echo "$w,fxt-all,1,$ns,$ops,$ok,$events,$lost,$obytes,$switches,$npc,$nps,$cu,$cs,$rss,$status" >>"$raw"
	say "stress $w: $(grep 'fxt-collect: /tmp' /tmp/last-fxt.err)"
done
rmmod fxt
say "guest part done after $(($(date +%s) - t_start)) s"
