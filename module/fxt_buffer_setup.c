// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_buffer_setup.c - each CPU's region: its allocation and layout
 * (header page, durable buffer, two rolling buffers), emptying it between
 * runs, and the counters GET_STATS reads from its header. The writers'
 * side, reserve, commit and roll, is fxt_buffer.c; Documentation/
 * buffers.rst has the diagrams.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <asm/local.h>
#include "fxt.h"
#include "fxt_buffer.h"

/*
 * Smallest rolling buffer. Nested writers can fill two of them while an
 * interrupted one holds a reservation: circular and streaming modes then
 * drop rather than reuse a buffer with a record in flight
 * (fxt_rolling_switch()).
 */
#define FXT_MIN_ROLLING		(4u << 10)
/* Default durable share of a CPU's buffer: 1/8, within these bounds. */
#define FXT_MIN_DURABLE		(16u << 10)
#define FXT_MAX_DURABLE		(4u << 20)

/*
 * The smallest region: FXT_BUFFER_SIZE_MIN, and never less than four pages
 * (the header page, and three for a durable and two rolling buffers of at
 * least FXT_MIN_ROLLING each), so that a kernel with 64 KiB pages lays out
 * no buffer past its region.
 */
static u64 fxt_buffer_size_min(void)
{
	return max_t(u64, FXT_BUFFER_SIZE_MIN, 4 * PAGE_SIZE);
}

/* Per CPU: events its probes lost because it has no buffers. */
DEFINE_PER_CPU(u64, fxt_untraced);

/* Lay out @c's region (base: its kernel address) and fill in its header. */
static void fxt_cpu_layout(struct fxt_session *s, struct fxt_cpu *c, u8 *base,
			   u64 size, u64 rolling)
{
	struct fxt_buffer_header *h = (void *)base;
	u64 durable_size = s->durable_size;

	c->hdr = h;
	c->durable = base + PAGE_SIZE;
	c->durable_size = durable_size;
	c->rolling[0] = c->durable + durable_size;
	if (s->mode == FXT_MODE_ONESHOT) {
		c->rolling[1] = NULL;
		c->rolling_size = 2 * rolling;
	} else {
		c->rolling[1] = c->rolling[0] + rolling;
		c->rolling_size = rolling;
	}
	/*
	 * Hard even on PREEMPT_RT, where a plain irq_work runs from a per-CPU
	 * thread: a CPU going offline runs its hard irq_work before it dies,
	 * but leaves the thread's queued, and a stop would wait in
	 * irq_work_sync() until the CPU came back.
	 */
	c->save_work = IRQ_WORK_INIT_HARD(fxt_save_work_fn);

	h->magic = FXT_BUFFER_MAGIC;
	h->version = FXT_ABI_VERSION;
	h->cpu = c->cpu;
	h->mode = s->mode;
	h->region_size = size;
	h->durable_offset = PAGE_SIZE;
	h->durable_size = durable_size;
	h->rolling_offset[0] = PAGE_SIZE + durable_size;
	h->rolling_offset[1] = c->rolling[1] ?
		PAGE_SIZE + durable_size + rolling : 0;
	h->rolling_size = c->rolling_size;
}

/**
 * fxt_buffers_alloc() - allocate and lay out the region of every present CPU
 * @s: the session
 * @size: bytes per CPU, header page included
 * @durable_size: bytes of durable buffer per CPU, 0 for the default
 *
 * The CPUs present now (online, or offline but there to be brought
 * online: not the possible ones a machine could add) each get a region,
 * on their NUMA node, and are traced. A CPU added later (physical
 * hotplug) has none, and its probes count what they lose (fxt_untraced,
 * GET_STATS). CPU hotplug is held off only while they are counted.
 *
 * Return: 0, -EINVAL for a size that cannot be laid out, -ENOMEM.
 */
int fxt_buffers_alloc(struct fxt_session *s, u64 size, u64 durable_size)
{
	u64 avail, rolling, total;
	unsigned int cpu;
	int ret = -ENOMEM;

	BUILD_BUG_ON(sizeof(local_t) != sizeof(__u64));
	BUILD_BUG_ON(sizeof(struct fxt_buffer_header) > PAGE_SIZE);

	if (size < fxt_buffer_size_min() || size > FXT_BUFFER_SIZE_MAX ||
	    !PAGE_ALIGNED(size))
		return -EINVAL;
	/*
	 * No subtraction below can wrap, whatever the page size: size is at
	 * least four pages (avail: three), durable_size is checked against
	 * avail before it is subtracted from it, and each term is bounded
	 * (FXT_BUFFER_SIZE_MAX) so that no addition can overflow either.
	 */
	avail = size - PAGE_SIZE;
	if (!durable_size)
		durable_size = clamp_t(u64, avail / 8, FXT_MIN_DURABLE,
				       FXT_MAX_DURABLE) & ~15ull;
	if (durable_size & 7 || durable_size < FXT_MIN_ROLLING ||
	    durable_size > avail ||
	    avail - durable_size < 2 * FXT_MIN_ROLLING)
		return -EINVAL;
	rolling = ((avail - durable_size) / 2) & ~7ull;
	if (check_mul_overflow(size, (u64)nr_cpu_ids, &total))
		return -EINVAL;

	s->cpu_stride = size;
	s->map_size = total;
	s->durable_size = durable_size;
	if (!zalloc_cpumask_var(&s->traced, GFP_KERNEL))
		return -ENOMEM;
	s->cpus = fxt_kvcalloc(nr_cpu_ids, sizeof(*s->cpus));
	if (!s->cpus)
		goto out_mask;
	/*
	 * The CPUs present now get buffers. Hotplug is held off only while
	 * they are counted, not while their pages are allocated (seconds for
	 * gigabytes): a CPU that goes offline meanwhile keeps its buffers, one
	 * added meanwhile has none, as one added after INITIALIZE.
	 */
	cpus_read_lock();
	cpumask_copy(s->traced, cpu_present_mask);
	cpus_read_unlock();
	if (!fxt_mem_affordable(size * cpumask_weight(s->traced)))
		goto out;
	for_each_cpu(cpu, s->traced) {
		struct fxt_cpu *c;
		u8 *base;

		c = fxt_cpu_alloc(cpu);
		if (!c)
			goto out;
		c->cpu = cpu;
		s->cpus[cpu] = c;
		base = fxt_region_alloc(cpu, size, &c->pages);
		if (!base)
			goto out;
		fxt_cpu_layout(s, c, base, size, rolling);
	}
	for_each_possible_cpu(cpu)
		per_cpu(fxt_untraced, cpu) = 0;
	ret = 0;
out:
	/* A fatal signal cut the allocation short: say so, not ENOMEM. */
	if (ret && fatal_signal_pending(current))
		ret = -EINTR;
	if (ret) {
		fxt_buffers_free(s);
		return ret;
	}
	fxt_buffers_clear(s, true);
	return 0;
out_mask:
	free_cpumask_var(s->traced);
	return ret;
}

/**
 * fxt_buffers_free() - free the regions and the per-CPU state
 * @s: the session; no probe registered, no notification pending
 *	(fxt_buffers_sync_notifications()), no mapping left
 */
void fxt_buffers_free(struct fxt_session *s)
{
	unsigned int cpu;

	for_each_cpu(cpu, s->traced) {
		struct fxt_cpu *c = s->cpus[cpu];

		if (!c)
			continue;	/* an allocation failed before it */
		/* A stop, or a start that failed, synced them: say so if not. */
		WARN_ON_ONCE(c->hdr && irq_work_is_busy(&c->save_work));
		fxt_region_free(c->hdr, c->pages, s->cpu_stride);
		fxt_cpu_free(c);
	}
	fxt_kvfree(s->cpus, nr_cpu_ids * sizeof(*s->cpus));
	s->cpus = NULL;
	free_cpumask_var(s->traced);
}

/**
 * fxt_buffers_clear() - empty the rolling buffers, and the durable ones too
 * @s: the session; no probe may be registered
 * @durable_too: also empty every durable buffer
 *
 * A CPU whose durable buffer filled up in oneshot or streaming mode wrote
 * durable records (strings, threads, names) into its rolling buffers, and
 * its tables still hand out the indices those records defined: emptying
 * the rolling buffers alone would leave later records referring to
 * nothing. Such a CPU's durable buffer is emptied as well. A CPU whose
 * durable buffer was emptied is marked to get its preamble at the next
 * start; the session then empties its tables (fxt_forget_definitions()).
 */
void fxt_buffers_clear(struct fxt_session *s, bool durable_too)
{
	unsigned int cpu;

	for_each_cpu(cpu, s->traced) {
		struct fxt_cpu *c = s->cpus[cpu];
		struct fxt_buffer_header *h = c->hdr;
		bool spilled = s->mode != FXT_MODE_CIRCULAR &&
			       READ_ONCE(h->flags) & FXT_CPU_DURABLE_FULL;

		WRITE_ONCE(h->rolling_current, 0);
		WRITE_ONCE(h->rolling_committed[0], 0);
		WRITE_ONCE(h->rolling_committed[1], 0);
		WRITE_ONCE(h->rolling_data_end[0], 0);
		WRITE_ONCE(h->rolling_data_end[1], 0);
		WRITE_ONCE(h->records_written, 0);
		WRITE_ONCE(h->records_dropped, 0);
		WRITE_ONCE(h->rolling_lost_before[0], 0);
		WRITE_ONCE(h->rolling_lost_before[1], 0);
		WRITE_ONCE(h->flags, h->flags & ~(u64)FXT_CPU_ROLLING_FULL);
		/* Buffer 0 is being written; buffer 1 may be rolled into. */
		c->ready = BIT(1);
		c->last_tid = 0;	/* no switch record is left */
		WRITE_ONCE(c->save_pending, false);
		if (durable_too || spilled) {
			WRITE_ONCE(h->durable_reserved, 0);
			WRITE_ONCE(h->durable_committed, 0);
			WRITE_ONCE(h->durable_records, 0);
			WRITE_ONCE(h->durable_dropped, 0);
			WRITE_ONCE(h->flags, 0);
			c->need_preamble = true;
		}
	}
	/* Publish the cleared headers before any probe is registered. */
	smp_wmb();
}

/**
 * fxt_cpu_stats() - fill in a CPU's counters from its buffer header
 * @s: the session
 * @st: in: @st->cpu, a possible CPU, bounds-checked and sanitised by the
 *	caller; out: the rest. A CPU without buffers (not present at INITIALIZE)
 *	says FXT_CPU_NOT_TRACED, with the events it lost as records_dropped.
 */
void fxt_cpu_stats(struct fxt_session *s, struct fxt_cpu_stats *st)
{
	struct fxt_buffer_header *h;
	u64 cur;

	if (!s->cpus[st->cpu]) {
		u32 cpu = st->cpu;

		memset(st, 0, sizeof(*st));
		st->cpu = cpu;
		st->flags = FXT_CPU_NOT_TRACED;
		st->records_dropped = per_cpu(fxt_untraced, cpu);
		return;
	}
	h = s->cpus[st->cpu]->hdr;
	cur = READ_ONCE(h->rolling_current);

	st->flags = READ_ONCE(h->flags);
	st->records_written = READ_ONCE(h->records_written);
	st->records_dropped = READ_ONCE(h->records_dropped);
	st->wrapped_count = cur >> FXT_ROLLING_OFFSET_BITS;
	st->durable_bytes = READ_ONCE(h->durable_reserved);
	st->rolling_bytes = cur & FXT_ROLLING_OFFSET_MASK;
	st->durable_records = READ_ONCE(h->durable_records);
	st->durable_dropped = READ_ONCE(h->durable_dropped);
	st->trigger_missed = local_read(&s->cpus[st->cpu]->trig_missed);
}
