// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_session.c - the session state machine, after the trace controller.
 *
 *   READY --initialize--> INITIALIZED --start--> STARTING --> STARTED
 *   STARTED --stop--> STOPPING --> STOPPED --start--> STARTED ...
 *   any but READY --terminate--> TERMINATING --> READY
 *
 * Every operation, GET_STATE included, holds s->lock, so STARTING, STOPPING
 * and TERMINATING are never observable: no operation finds the session in
 * one of them. The errnos each operation returns in each state are listed
 * in Documentation/abi.rst.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/cpumask.h>
#include <linux/nospec.h>
#include <linux/timekeeping.h>
#include <fxt/format.h>
#include "fxt.h"
#include "fxt_buffer.h"
#include "fxt_tables.h"
#include "fxt_names.h"
#include "fxt_def_records.h"
#include "fxt_triggers.h"

static const struct fxt_category fxt_known_categories[] = {
	{ FXT_CAT_SCHED, FXT_CAT_NAME_SCHED },
	{ FXT_CAT_WAKEUP, FXT_CAT_NAME_WAKEUP },
	{ FXT_CAT_IRQ, FXT_CAT_NAME_IRQ },
	{ FXT_CAT_SOFTIRQ, FXT_CAT_NAME_SOFTIRQ },
	{ FXT_CAT_POWER, FXT_CAT_NAME_POWER },
};

static bool fxt_reserved_zero(const u64 *r, unsigned int n)
{
	while (n--)
		if (*r++)
			return false;
	return true;
}

/*
 * What the buffers no longer hold, the definitions layer forgets: every
 * CPU's names in the rolling data, and the tables of each CPU whose
 * durable buffer was emptied (it is to get its preamble).
 */
static void fxt_forget_definitions(struct fxt_session *s)
{
	unsigned int cpu;

	for_each_cpu(cpu, s->traced) {
		struct fxt_cpu *c = s->cpus[cpu];

		fxt_names_reset(c);	/* generations start again */
		if (c->need_preamble)
			fxt_tables_reset(c);
	}
}

static int fxt_initialize(struct fxt_session *s, const struct fxt_config *cfg)
{
	u32 cats = cfg->categories ? cfg->categories : FXT_CAT_DEFAULT;
	int ret;

	if (s->state != FXT_STATE_READY)
		return -EBUSY;
	if (!fxt_reserved_zero(cfg->reserved, ARRAY_SIZE(cfg->reserved)) ||
	    cats & ~FXT_CAT_ALL)
		return -EINVAL;
	if (cfg->mode != FXT_MODE_ONESHOT && cfg->mode != FXT_MODE_CIRCULAR &&
	    cfg->mode != FXT_MODE_STREAMING)
		return -EINVAL;
	s->mode = cfg->mode;
	ret = fxt_buffers_alloc(s, cfg->buffer_size, cfg->durable_size);
	if (ret)
		return ret;
	fxt_forget_definitions(s);
	ret = fxt_wakeups_alloc(s);
	if (ret) {
		fxt_buffers_free(s);
		return ret;
	}
	s->categories = cats;
	s->active_categories = cats;
	s->aborted = false;
	s->results_written = false;
	fxt_packets_reset(s);
	s->state = FXT_STATE_INITIALIZED;
	return 0;
}

/* Every CPU whose durable buffer was emptied starts it with its preamble. */
static void fxt_emit_preambles(struct fxt_session *s)
{
	unsigned int cpu;

	for_each_cpu(cpu, s->traced) {
		struct fxt_cpu *c = s->cpus[cpu];

		if (!c->need_preamble)
			continue;
		preempt_disable();
		fxt_emit_cpu_preamble(c);
		preempt_enable();
		c->need_preamble = false;
	}
}

static int fxt_start(struct fxt_session *s, const struct fxt_start_options *o)
{
	u32 disposition = o->disposition;
	u32 prev_state = s->state;
	unsigned int cpu;
	int ret;

	/*
	 * INITIALIZED or STOPPED may start. The transient states are never
	 * seen here (s->lock), so the controller's STOPPING and TERMINATING
	 * errors cannot happen.
	 */
	switch (s->state) {
	case FXT_STATE_READY:
		return -EBADFD;		/* NOT_INITIALIZED */
	case FXT_STATE_STARTED:
		return -EALREADY;	/* ALREADY_STARTED */
	}
	if (!fxt_reserved_zero(o->reserved, ARRAY_SIZE(o->reserved)) ||
	    o->additional_categories & ~FXT_CAT_ALL ||
	    disposition < FXT_START_CLEAR_ENTIRE ||
	    disposition > FXT_START_RETAIN)
		return -EINVAL;
	/* Saved data must not be saved twice (controller semantics). */
	if (s->results_written)
		disposition = FXT_START_CLEAR_ENTIRE;

	s->state = FXT_STATE_STARTING;
	if (disposition != FXT_START_RETAIN) {
		/* CLEAR_NONDURABLE: on a CPU that spilled, the durable too. */
		fxt_buffers_clear(s, disposition == FXT_START_CLEAR_ENTIRE);
		fxt_forget_definitions(s);
		fxt_packets_reset(s);
	}
	fxt_emit_preambles(s);
	/*
	 * A window an earlier run's trigger closed is open again before
	 * anything is written: the switches below would be refused, uncounted,
	 * and the last thread would seem to run through the stopped interval.
	 */
	fxt_triggers_arm(s);
	for_each_cpu(cpu, s->traced) {
		struct fxt_cpu *c = s->cpus[cpu];

		/* Interrupts in flight at the last stop will not end now. */
		c->irq_depth = 0;
		/* Names may have changed while stopped: name tasks anew. */
		fxt_names_reset(c);
		/*
		 * RETAIN: the thread the last run left on the CPU has run or
		 * not since; its slice ends here (no probe writes yet).
		 */
		fxt_emit_switch_to_idle(c);
	}
	s->active_categories = s->categories | o->additional_categories;
	s->results_written = false;
	s->aborted = false;
	/*
	 * Earlier runs' STARTED / STOPPED nobody read: the FIFO stays small.
	 * Before any probe is hooked: a trigger may fire, and post this run's
	 * TRIGGERED, while the later tracepoints are still being hooked.
	 */
	fxt_packets_drop_control(s);
	fxt_wakeups_clear(s);
	/* Names of an earlier run are kept: the snapshot's must be newer. */
	ret = fxt_probes_register(s->active_categories,
				  prev_state == FXT_STATE_STOPPED &&
				  disposition != FXT_START_CLEAR_ENTIRE);
	if (ret) {
		/*
		 * The probes that were hooked may have queued a save irq_work
		 * (a streaming CPU that rolled): fxt_probes_register() waited
		 * for the probes, not for it. It must be done before a
		 * terminate or a release can free the CPUs it reads.
		 */
		fxt_buffers_sync_notifications(s);
		fxt_triggers_sync(s);
		s->aborted = true;
		s->state = prev_state;
		return ret;
	}
	fxt_hotplug_start(s, s->active_categories & FXT_CAT_SCHED);
	s->state = FXT_STATE_STARTED;
	fxt_packet_post(s, FXT_PKT_STARTED, 0, FXT_FIFO_PROTOCOL_VERSION, 0);
	return 0;
}

/*
 * The recording ends now, on every CPU and in every category at once: the
 * rolling buffers refuse the records written from now on, uncounted, as
 * they do once a trigger's window closed (fxt_buffer.c). Unhooking the
 * probes, one tracepoint after another, takes hundreds of ms on a debug
 * kernel: records written meanwhile would come from the categories still
 * hooked only (a CPU's switches without its idle states), or roll a
 * small buffer past what the user stopped for. A trigger's window that
 * closes later closes now. Returns the instant the recording ended (boot
 * clock ns), which STOPPED reports.
 */
static u64 fxt_end_recording(struct fxt_session *s)
{
	u64 now = max(ktime_get_boot_fast_ns(), 1ull), at;

	fxt_triggers_disarm(s);
	/* A trigger that fired before the disarm may set it meanwhile. */
	do {
		at = READ_ONCE(s->freeze_at);
		if (at && at <= now)
			return at;
	} while (cmpxchg64(&s->freeze_at, at, now) != at);
	return now;
}

/* End, unhook, wait for every writer and notification, tell the collector. */
static void fxt_do_stop(struct fxt_session *s, bool write_results)
{
	u64 end;

	s->state = FXT_STATE_STOPPING;
	end = fxt_end_recording(s);
	fxt_hotplug_stop();
	fxt_probes_unregister();
	fxt_buffers_sync_notifications(s);
	fxt_triggers_sync(s);
	s->results_written = write_results;
	s->state = FXT_STATE_STOPPED;
	fxt_packet_post(s, FXT_PKT_STOPPED, 0, write_results, end);
}

static int fxt_stop(struct fxt_session *s, const struct fxt_stop_options *o)
{
	switch (s->state) {
	case FXT_STATE_READY:
		return -EBADFD;		/* NOT_INITIALIZED */
	case FXT_STATE_STARTED:
		break;
	default:
		return s->aborted ? -ECANCELED : -EALREADY; /* NOT_STARTED */
	}
	if (o->reserved || o->flags & ~FXT_STOP_WRITE_RESULTS)
		return -EINVAL;
	fxt_do_stop(s, o->flags & FXT_STOP_WRITE_RESULTS);
	return 0;
}

static int fxt_terminate(struct fxt_session *s)
{
	if (s->state == FXT_STATE_READY)
		return -EBADFD;
	/* Pages still mapped stay valid, but the data would be stale. */
	if (atomic_read(&s->map_count))
		return -EBUSY;
	if (s->state == FXT_STATE_STARTED)
		fxt_do_stop(s, false);
	s->state = FXT_STATE_TERMINATING;
	fxt_triggers_free(s);
	fxt_wakeups_free(s);
	fxt_buffers_free(s);
	fxt_packets_reset(s);
	s->state = FXT_STATE_READY;
	return 0;
}

static int fxt_layout(struct fxt_session *s, struct fxt_layout *l)
{
	unsigned int cpu;

	if (s->state == FXT_STATE_READY)
		return -EBADFD;
	memset(l, 0, sizeof(*l));
	l->abi_version = FXT_ABI_VERSION;
	l->nr_cpus = nr_cpu_ids;
	l->cpu_stride = s->cpu_stride;
	l->map_size = s->map_size;
	l->mode = s->mode;
	l->categories = s->active_categories;
	for_each_cpu(cpu, s->traced)
		if (cpu < 64 * ARRAY_SIZE(l->possible_cpus))
			l->possible_cpus[cpu / 64] |= 1ull << (cpu % 64);
	return 0;
}

/* Words of the GET_CPUS bitmap: nr_cpu_ids bits, 64 to a word. */
static unsigned int fxt_cpu_words(void)
{
	return DIV_ROUND_UP(nr_cpu_ids, 64);
}

/*
 * The set of CPUs with a region, into @bits (fxt_cpu_words() words), which
 * the caller copies to user space once s->lock is dropped: a fault under
 * s->lock takes mmap_lock, and fxt_mmap() takes s->lock under mmap_lock.
 */
static int fxt_cpus(struct fxt_session *s, const struct fxt_cpu_set *set,
		    u64 *bits)
{
	unsigned int cpu;

	if (s->state == FXT_STATE_READY)
		return -EBADFD;
	if (set->reserved || set->nr_bits < nr_cpu_ids)
		return -EINVAL;
	for_each_cpu(cpu, s->traced)
		bits[cpu / 64] |= 1ull << (cpu % 64);
	return 0;
}

static int fxt_stats(struct fxt_session *s, struct fxt_cpu_stats *st)
{
	if (s->state == FXT_STATE_READY)
		return -EBADFD;
	if (st->cpu >= nr_cpu_ids)
		return -EINVAL;
	/* User space picks the index: no speculation past the bound. */
	st->cpu = array_index_nospec(st->cpu, nr_cpu_ids);
	if (!cpu_possible(st->cpu))
		return -EINVAL;
	fxt_cpu_stats(s, st);
	return 0;
}

static void fxt_categories(struct fxt_categories *cats)
{
	unsigned int i;

	memset(cats, 0, sizeof(*cats));
	cats->count = ARRAY_SIZE(fxt_known_categories);
	for (i = 0; i < cats->count; i++)
		cats->cat[i] = fxt_known_categories[i];
}

/**
 * fxt_session_ioctl() - one control operation
 * @s: the session
 * @cmd: FXT_IOC_*
 * @arg: user pointer to the command's struct
 *
 * Return: 0 or a negative errno; Documentation/abi.rst lists them.
 */
long fxt_session_ioctl(struct fxt_session *s, unsigned int cmd,
		       unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	union {
		struct fxt_config cfg;
		struct fxt_start_options start;
		struct fxt_stop_options stop;
		struct fxt_layout layout;
		struct fxt_cpu_stats stats;
		struct fxt_categories cats;
		struct fxt_cpu_set cpus;
		struct fxt_trigger_set trig;
		u32 state;
	} u;
	unsigned int size = _IOC_SIZE(cmd);
	u64 *cpu_bits = NULL;
	long ret;

	switch (cmd) {
	case FXT_IOC_INITIALIZE:
	case FXT_IOC_START:
	case FXT_IOC_STOP:
	case FXT_IOC_GET_STATS:
	case FXT_IOC_GET_CPUS:
	case FXT_IOC_SET_TRIGGERS:
		if (copy_from_user(&u, uarg, size))
			return -EFAULT;
		break;
	case FXT_IOC_TERMINATE:
	case FXT_IOC_GET_STATE:
	case FXT_IOC_GET_LAYOUT:
	case FXT_IOC_GET_CATEGORIES:
		break;
	default:
		return -ENOTTY;
	}
	if (cmd == FXT_IOC_GET_CPUS) {
		cpu_bits = kcalloc(fxt_cpu_words(), sizeof(u64), GFP_KERNEL);
		if (!cpu_bits)
			return -ENOMEM;
	}

	/* No user access from here to the unlock: see fxt_cpus(). */
	mutex_lock(&s->lock);
	switch (cmd) {
	case FXT_IOC_INITIALIZE:
		ret = fxt_initialize(s, &u.cfg);
		break;
	case FXT_IOC_START:
		ret = fxt_start(s, &u.start);
		break;
	case FXT_IOC_STOP:
		ret = fxt_stop(s, &u.stop);
		break;
	case FXT_IOC_TERMINATE:
		ret = fxt_terminate(s);
		break;
	case FXT_IOC_GET_STATE:
		u.state = s->state;
		ret = 0;
		break;
	case FXT_IOC_GET_LAYOUT:
		ret = fxt_layout(s, &u.layout);
		break;
	case FXT_IOC_GET_STATS:
		ret = fxt_stats(s, &u.stats);
		break;
	case FXT_IOC_GET_CPUS:
		ret = fxt_cpus(s, &u.cpus, cpu_bits);
		break;
	case FXT_IOC_SET_TRIGGERS:
		ret = fxt_triggers_set(s, &u.trig);
		break;
	default:
		fxt_categories(&u.cats);
		ret = 0;
		break;
	}
	mutex_unlock(&s->lock);

	if (!ret && cpu_bits &&
	    copy_to_user(u64_to_user_ptr(u.cpus.bits), cpu_bits,
			 fxt_cpu_words() * sizeof(u64)))
		ret = -EFAULT;
	kfree(cpu_bits);
	if (!ret && _IOC_DIR(cmd) & _IOC_READ && copy_to_user(uarg, &u, size))
		ret = -EFAULT;
	return ret;
}

/**
 * fxt_session_release() - the opener closed the device: end the session
 * whatever its state
 * @s: the session
 */
void fxt_session_release(struct fxt_session *s)
{
	mutex_lock(&s->lock);
	if (s->state == FXT_STATE_STARTED)
		fxt_do_stop(s, false);
	if (s->state != FXT_STATE_READY) {
		/* No mapping outlives the file, so nothing can still read. */
		WARN_ON_ONCE(atomic_read(&s->map_count));
		fxt_triggers_free(s);
		fxt_wakeups_free(s);
		fxt_buffers_free(s);
		s->state = FXT_STATE_READY;
	}
	fxt_packets_reset(s);
	mutex_unlock(&s->lock);
}

/**
 * fxt_session_init() - set up the one session at module load
 * @s: the session
 *
 * Return: 0 or -ENOMEM.
 */
int fxt_session_init(struct fxt_session *s)
{
	mutex_init(&s->lock);
	raw_spin_lock_init(&s->pkt_lock);
	mutex_init(&s->pkt_read_lock);
	init_waitqueue_head(&s->pkt_wait);
	atomic_set(&s->map_count, 0);
	fxt_triggers_init(s);
	s->state = FXT_STATE_READY;
	return fxt_packets_init(s);
}

/**
 * fxt_session_exit() - free what fxt_session_init() allocated (unload)
 * @s: the session, READY: no opener is left
 */
void fxt_session_exit(struct fxt_session *s)
{
	fxt_packets_free(s);
}
