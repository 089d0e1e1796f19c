// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_hotplug.c - the context switch a CPU going offline does not trace.
 *
 * Tracepoints do not fire on a CPU marked offline, so a dying CPU's last
 * switch (its stopper thread handing over to the idle task, which then
 * dies) is never seen. In the trace, the thread switched in last would go
 * on running on a CPU that is off: Perfetto draws it there until the end
 * of the trace, over that CPU's slices once it is back. A CPU-hotplug
 * callback, run on another CPU once the CPU is dead, writes that switch
 * into the dead CPU's buffer, with the time the death was noticed: at most
 * the hotplug machinery's latency after the real one.
 *
 * Safety: a dead CPU writes nothing, so the buffer keeps a single writer.
 * The callback writes only while the sched_switch probe is live, inside an
 * RCU read-side section; a stop clears fxt_hotplug_live before
 * fxt_probes_unregister(), whose tracepoint_synchronize_unregister() waits
 * for the callback as for any probe.
 */
#include <linux/cpuhotplug.h>
#include <linux/rcupdate.h>
#include "fxt.h"

static int fxt_hotplug_state;
static struct fxt_session __rcu *fxt_hotplug_live;

static int fxt_cpu_dead(unsigned int cpu)
{
	struct fxt_session *s;

	rcu_read_lock();
	s = rcu_dereference(fxt_hotplug_live);
	if (s && s->cpus[cpu])		/* a CPU traced since INITIALIZE */
		fxt_emit_switch_to_idle(s->cpus[cpu]);
	rcu_read_unlock();
	return 0;
}

/**
 * fxt_hotplug_init() - register the CPU-dead callback (at module load)
 *
 * Return: 0, or the error of cpuhp_setup_state_nocalls().
 */
int fxt_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "fxt:dead",
					NULL, fxt_cpu_dead);
	if (ret < 0)
		return ret;
	fxt_hotplug_state = ret;
	return 0;
}

/**
 * fxt_hotplug_exit() - remove the CPU-dead callback (at module unload)
 */
void fxt_hotplug_exit(void)
{
	cpuhp_remove_state_nocalls(fxt_hotplug_state);
}

/**
 * fxt_hotplug_start() - write dying CPUs' last switches from now on
 * @s: the session, its probes just hooked
 * @sched: whether context switches are recorded
 */
void fxt_hotplug_start(struct fxt_session *s, bool sched)
{
	if (sched)
		rcu_assign_pointer(fxt_hotplug_live, s);
}

/**
 * fxt_hotplug_stop() - no more writes once the probes are unhooked
 *
 * The caller's fxt_probes_unregister() then waits for a callback that is
 * still writing.
 */
void fxt_hotplug_stop(void)
{
	RCU_INIT_POINTER(fxt_hotplug_live, NULL);
}
