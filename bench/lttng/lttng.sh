# SPDX-License-Identifier: GPL-2.0
#
# bench/lttng/lttng.sh: LTTng in the benchmark guest, as bash functions.
# Sourced (not run) by bench/run-guest.sh and bench/lttng/smoke.sh, INSIDE
# the qemu guest only: it loads kernel modules.
#
#   lttng_setup MODDIR   insmod the modules bench/lttng/build.sh built
#                        (the .ko files anywhere under MODDIR, e.g.
#                        build/lttng/KVER) and start lttng-sessiond
#   lttng_start SCOPE    create a session recording SCOPE (sched: the kernel
#                        event sched_switch; all: LTTNG_ALL, fxt's
#                        categories) into /tmp/lttng-out, and start it
#   lttng_stop           stop and destroy it; sets lt_events, lt_lost,
#                        lt_bytes, lt_cpu_user, lt_cpu_sys, lt_rss_kb
#   lttng_teardown       stop lttng-sessiond (the modules stay loaded)
#
# The modules are not in /lib/modules/KVER (the host's, read-only here), so
# lttng-sessiond cannot modprobe them: they are loaded beforehand with
# insmod, in dependency order, and lttng-sessiond's own modprobe (libkmod)
# finds them already loaded, which it accepts. --kmod-probes limits the
# probes it wants to the three loaded here.
#
# The collector: lttng-sessiond and the kernel lttng-consumerd it spawns
# (which splices the per-CPU ring buffers to files). They live across runs,
# so lt_cpu_user/_sys are the growth of their utime/stime over one run,
# and lt_rss_kb the sum of their VmRSS at the stop (not a peak: they are
# not our children, getrusage() cannot see them).

LTTNG_OUT=/tmp/lttng-out
LTTNG_SESSION=fxtbench
# 8 MiB per CPU, like ftrace's buffer_size_kb and fxt-collect's -b 8M
LTTNG_SUBBUF=1M
LTTNG_NSUBBUF=8
# the probe modules: sched (sched_*), irq (irq_handler_*, irq_softirq_*),
# x86-irq-vectors (x86_irq_vectors_*)
LTTNG_PROBES="sched irq x86-irq-vectors"
LTTNG_SCHED="sched_switch"
# fxt's categories (module/fxt_probes.c): sched, wakeup, irq, softirq, and
# the names (fork, exec). LTTng has no probe for task_rename: it records
# prev_comm/next_comm in every sched_switch instead.
LTTNG_ALL="sched_switch sched_waking sched_wakeup_new sched_process_fork sched_process_exec irq_handler_entry irq_handler_exit irq_softirq_entry irq_softirq_exit"
# (LTTng names the kernel's x86_platform_ipi vector x86_irq_vectors_ipi)
for _v in local_timer reschedule call_function call_function_single irq_work \
	  ipi spurious_apic error_apic thermal_apic threshold_apic \
	  deferred_error_apic; do
	LTTNG_ALL="$LTTNG_ALL x86_irq_vectors_${_v}_entry x86_irq_vectors_${_v}_exit"
done
unset _v

lt_err() { echo "lttng: $*" >&2; }

# _lt_insmod NAME: insmod build/lttng/KVER's NAME.ko after its dependencies
_lt_insmod() {
	local m=$1 f d
	[ -d /sys/module/${m//-/_} ] && return 0
	f=${_lt_ko[$m]:-}
	[ -n "$f" ] || { lt_err "no module $m.ko in $_lt_dir"; return 1; }
	for d in $(modinfo -F depends "$f" | tr , ' '); do
		if [ -n "${_lt_ko[$d]:-}" ]; then
			_lt_insmod "$d" || return 1
		else	# a module of the kernel's own
			modprobe "$d" || { lt_err "modprobe $d (needed by $m) failed"; return 1; }
		fi
	done
	insmod "$f" || { lt_err "insmod $f failed"; return 1; }
}

lttng_setup() {
	local f m n
	_lt_dir=${1:?lttng_setup MODDIR}
	declare -gA _lt_ko=()
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		n=${f##*/}
		_lt_ko[${n%.ko}]=$f
	done <<<"$(find "$_lt_dir" -name '*.ko')"
	[ ${#_lt_ko[@]} -gt 0 ] || { lt_err "no modules in $_lt_dir (run bench/lttng/build.sh)"; return 1; }
	# the tracer, its ring buffer clients and counters (every module that
	# is not a probe: lttng-sessiond asks for most of them), then the probes
	for m in "${!_lt_ko[@]}"; do
		case $m in
		lttng-probe-*|lttng-test|lttng-clock-plugin-test) ;;
		*) _lt_insmod "$m" || return 1 ;;
		esac
	done
	for m in $LTTNG_PROBES; do
		_lt_insmod "lttng-probe-$m" || return 1
	done
	export LTTNG_HOME=/tmp/lttng-home
	mkdir -p "$LTTNG_HOME" "$LTTNG_OUT"
	lttng-sessiond --daemonize --kmod-probes="${LTTNG_PROBES// /,}" \
		>/tmp/lttng-sessiond.log 2>&1 ||
		{ lt_err "lttng-sessiond failed:"; cat /tmp/lttng-sessiond.log >&2; return 1; }
	_lt_sessiond=$(_lt_pid lttng-sessiond)
	_lt_hz=$(getconf CLK_TCK)
}

# _lt_pid COMM: the pids of the processes named COMM
_lt_pid() {
	local p c r=
	for p in /proc/[0-9]*; do
		read -r c <"$p/comm" 2>/dev/null || continue
		[ "$c" = "$1" ] && r="$r ${p#/proc/}"
	done
	echo $r
}

# _lt_ticks PID...: their utime and stime, in clock ticks, as "U S"
_lt_ticks() {
	local p s u=0 k=0 a
	for p in "$@"; do
		read -r s <"/proc/$p/stat" 2>/dev/null || continue
		s=${s##*) }		# past "pid (comm) "
		read -ra a <<<"$s"	# a[0] is field 3 (state)
		u=$((u + a[11])) k=$((k + a[12]))
	done
	echo $u $k
}

# _lt_secs TICKS: seconds, 2 decimals
_lt_secs() { printf '%d.%02d' $(($1 / _lt_hz)) $((($1 % _lt_hz) * 100 / _lt_hz)); }

lttng_start() {
	local evs=$LTTNG_SCHED
	[ "${1:?lttng_start sched|all}" = all ] && evs=$LTTNG_ALL
	rm -rf "$LTTNG_OUT"
	lttng -q create "$LTTNG_SESSION" --output="$LTTNG_OUT" >/dev/null &&
	lttng -q enable-channel -k --subbuf-size=$LTTNG_SUBBUF \
		--num-subbuf=$LTTNG_NSUBBUF chan >/dev/null &&
	lttng -q enable-event -k -c chan "${evs// /,}" >/dev/null || {
		# a half-made session would make every later create fail
		lttng -q destroy "$LTTNG_SESSION" >/dev/null 2>&1
		return 1
	}
	# the kernel consumer starts with the first kernel channel
	_lt_pids="$_lt_sessiond $(_lt_pid lttng-consumerd)"
	read -r _lt_u0 _lt_s0 <<<"$(_lt_ticks $_lt_pids)"
	lttng -q start >/dev/null
}

lttng_stop() {
	local l s r=0 u k
	lt_events= lt_lost= lt_bytes= lt_cpu_user= lt_cpu_sys= lt_rss_kb=
	# "Warning: N events were discarded, ..." when the buffers were full
	lttng stop "$LTTNG_SESSION" >/tmp/lttng-stop.out 2>&1 || r=1
	lt_lost=0
	while IFS= read -r l; do
		[[ $l =~ ([0-9]+)\ events?\ (were|was)\ discarded ]] && lt_lost=${BASH_REMATCH[1]}
	done </tmp/lttng-stop.out
	read -r u k <<<"$(_lt_ticks $_lt_pids)"
	lt_cpu_user=$(_lt_secs $((u - _lt_u0)))
	lt_cpu_sys=$(_lt_secs $((k - _lt_s0)))
	for s in $_lt_pids; do
		while IFS= read -r l; do
			[[ $l =~ ^VmRSS:[[:space:]]*([0-9]+) ]] && lt_rss_kb=$((${lt_rss_kb:-0} + BASH_REMATCH[1]))
		done <"/proc/$s/status"
	done
	lttng -q destroy "$LTTNG_SESSION" >/dev/null || r=1
	# the trace: per-CPU stream files and the metadata
	lt_bytes=0
	while IFS= read -r s; do
		lt_bytes=$((lt_bytes + s))
	done <<<"$(find "$LTTNG_OUT" -type f -printf '%s\n')"
	# "N Event messages" from babeltrace2's counter sink
	while IFS= read -r l; do
		[[ $l =~ ^[[:space:]]*([0-9]+)\ Event\ messages ]] && lt_events=${BASH_REMATCH[1]}
	done <<<"$(babeltrace2 "$LTTNG_OUT" -c sink.utils.counter 2>/dev/null)"
	[ -n "$lt_events" ] || r=1
	rm -rf "$LTTNG_OUT"
	return $r
}

lttng_teardown() {
	local p m
	for p in $(_lt_pid lttng-sessiond); do kill "$p"; done
	for ((m = 0; m < 100; m++)); do
		[ -z "$(_lt_pid lttng-sessiond)$(_lt_pid lttng-consumerd)" ] && break
		sleep 0.1
	done
}
