// SPDX-License-Identifier: MIT
/*
 * drain.c - the drain of /dev/fxt: saving the regions that lib/device.c
 * mapped into an archive, the hand-shake with the kernel, the trailer.
 *
 * Writers reserve, fill and commit; a closed buffer is complete when its
 * commit count reaches its data end. So this side:
 *
 *  - on SAVE_BUFFER (streaming), saves the durable delta first (a context
 *    switch's thread record is committed before the switch is reserved),
 *    then the full rolling buffer once complete, makes its loss visible,
 *    flushes, and only then answers BUFFER_SAVED: the kernel may
 *    overwrite the buffer after the answer;
 *  - after the stop, saves per CPU the durable data, the older rolling
 *    buffer (circular, wrapped), then the current one: oldest first;
 *  - last, the trailer that makes each koid's newest name its last
 *    (lib/name_trailer.c).
 *
 * Each CPU is provider <cpu> named cpu<cpu>; a chunk is checked for whole
 * records and cut at the last good one rather than saved as garbage.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "device_cpu.h"
#include "record_frame.h"

int fxt_device_begin_archive(struct fxt_device *d, struct fxt_writer *w,
			     const char *output, struct fxt_newest *names)
{
	uint32_t cpu;
	int err;

	d->w = w;
	d->output = output;
	d->names = names;
	err = fxt_device_check_write(d, fxt_write_magic(w));
	for (cpu = 0; !err && cpu < d->layout.nr_cpus; cpu++) {
		struct fxt_device_cpu *s = &d->cpus[cpu];
		char name[32];

		if (!fxt_device_cpu_possible(d, cpu))
			continue;
		s->base = d->map + (uint64_t)cpu * d->layout.cpu_stride;
		s->hdr = (const volatile struct fxt_buffer_header *)s->base;
		if (s->hdr->magic != FXT_BUFFER_MAGIC || s->hdr->cpu != cpu)
			return fail(d, -EPROTO,
				    "cpu %u: buffer header is not fxt's (ABI mismatch?)", cpu);
		s->present = true;
		snprintf(name, sizeof(name), FXT_CPU_PROVIDER_NAME_FORMAT, cpu);
		err = fxt_device_check_write(d, fxt_write_provider_info(w, cpu, name));
		if (!err)
			err = fxt_device_check_write(d, fxt_write_init(w, FXT_TICKS_PER_SECOND));
		d->current_provider = cpu;
		d->have_provider = true;
	}
	return err ? err : fxt_device_check_write(d, fxt_writer_flush(w));
}

static int select_provider(struct fxt_device *d, uint32_t cpu)
{
	if (d->have_provider && d->current_provider == cpu)
		return 0;
	d->current_provider = cpu;
	d->have_provider = true;
	return fxt_device_check_write(d, fxt_write_provider_section(d->w, cpu));
}

/* Write [from, to) of data as it is, for CPU cpu's provider. */
static int write_run(struct fxt_device *d, uint32_t cpu, const uint8_t *data,
		     uint64_t from, uint64_t to, bool names)
{
	int err;

	if (from == to)
		return 0;
	err = select_provider(d, cpu);
	if (!err)
		err = fxt_device_check_write(d, fxt_write_raw(d->w, data + from, to - from));
	if (!err && names && d->names)
		fxt_newest_feed(d->names, cpu, data + from, to - from);
	return err;
}

/*
 * The CPU's pending gap, if any, ends at @to: the time of its first kept
 * record after the loss, or the stop (records.rst, "Loss").
 */
static int close_gap(struct fxt_device *d, uint32_t cpu, uint64_t to)
{
	struct fxt_device_cpu *s = &d->cpus[cpu];
	int err;

	if (!s->gap_records)
		return 0;
	err = select_provider(d, cpu);
	if (!err)
		err = fxt_device_check_write(d, fxt_write_lost(d->w, cpu, s->gap_from,
							       to, s->gap_records));
	s->gap_records = 0;
	return err;
}

/*
 * Copy [from, to) of a buffer whose records the kernel wrote, after checking
 * the framing: whole records, none of size 0. A broken chunk is cut at its
 * last good record rather than written as garbage. Data with names (the
 * durable buffer, and rolling data that holds durable records: a CPU whose
 * durable buffer filled in streaming or oneshot mode spills them there) is
 * also shown to the newest-name tracker, in archive order. Records with a
 * time before d->clip_ns are left out (a circular window's common start,
 * fxt_device_save_final()); records without one are all kept. A gap
 * pending (rolling records lost before this chunk) is written before the
 * chunk's first timed rolling record, which ends it.
 */
static int write_chunk(struct fxt_device *d, uint32_t cpu, const uint8_t *data,
		       uint64_t from, uint64_t to, const char *what)
{
	bool names = !strcmp(what, "durable");
	bool rolling = !names;
	uint64_t off = from, run = from;
	int err = 0;

	while (off < to) {
		uint64_t hdr, words, ts;
		unsigned int type;

		words = fxt_frame(data, (size_t)to, (size_t)off, true, &hdr);
		if (!words) {
			warn(d, "cpu %u: %s buffer: bad record framing at offset %" PRIu64
			     "; %" PRIu64 " bytes not saved", cpu, what, off, to - off);
			d->truncated_chunk = true;
			break;
		}
		type = fxt_record_type(hdr);
		names |= type == FXT_REC_KERNEL_OBJ || type == FXT_REC_STRING;
		if (fxt_frame_time(data, (size_t)off, hdr, (size_t)words, &ts)) {
			if (ts < d->clip_ns) {
				/* Before the window's common start: the run so far, then skip it. */
				err = write_run(d, cpu, data, run, off, names);
				if (err)
					return err;
				d->clipped++;
				run = off + words * 8;
			} else {
				if (rolling && d->cpus[cpu].gap_records) {
					err = write_run(d, cpu, data, run, off, names);
					if (!err)
						err = close_gap(d, cpu, ts);
					if (err)
						return err;
					run = off;
				}
				if (ts > d->cpus[cpu].last_ts)
					d->cpus[cpu].last_ts = ts;
			}
		}
		off += words * 8;
	}
	return write_run(d, cpu, data, run, off, names);
}

/* Wait until every reserved byte below end is committed; false on timeout. */
static bool wait_committed(const volatile __u64 *committed, uint64_t end)
{
	uint64_t deadline = fxt_monotonic_ns() + FXT_DEVICE_COMMIT_WAIT_NS;

	while (__atomic_load_n(committed, __ATOMIC_ACQUIRE) != end) {
		struct timespec pause = { 0, 50000 };

		if (fxt_monotonic_ns() > deadline)
			return false;
		nanosleep(&pause, NULL);
	}
	return true;
}

/*
 * Durable data not yet in the archive. A writer may be inside a durable
 * record right now, so take the end at a moment when everything reserved
 * is committed (reserved, committed, reserved all equal). min_end is what
 * a SAVE_BUFFER request says must be saved first (0 if nothing): records
 * reserved before the request was posted are complete by now, since a
 * writer never sleeps, so if no quiet moment comes, save up to min_end.
 */
static int save_durable(struct fxt_device *d, uint32_t cpu, uint64_t min_end)
{
	struct fxt_device_cpu *s = &d->cpus[cpu];
	const volatile struct fxt_buffer_header *h = s->hdr;
	uint64_t deadline = fxt_monotonic_ns() + FXT_DEVICE_COMMIT_WAIT_NS;
	uint64_t r1, cm, r2;
	int err;

	for (;;) {
		r1 = __atomic_load_n(&h->durable_reserved, __ATOMIC_ACQUIRE);
		cm = __atomic_load_n(&h->durable_committed, __ATOMIC_ACQUIRE);
		r2 = __atomic_load_n(&h->durable_reserved, __ATOMIC_ACQUIRE);
		if (r1 == cm && cm == r2)
			break;
		if (fxt_monotonic_ns() > deadline) {
			warn(d, "cpu %u: durable buffer never quiet; saving the %" PRIu64
			     " bytes the request names, the rest later", cpu, min_end);
			r1 = min_end;
			break;
		}
		sched_yield();
	}
	if (r1 > h->durable_size)
		r1 = h->durable_size;
	if (r1 <= s->durable_saved)
		return 0;
	err = write_chunk(d, cpu, s->base + h->durable_offset, s->durable_saved,
			  r1, "durable");
	s->durable_saved = r1;
	return err;
}

/*
 * Rolling records lost up to @lost (the CPU's count), after its last record
 * saved: a gap from that record's time (or the start), written when the
 * next one is saved (close_gap()).
 */
static void note_lost(struct fxt_device *d, uint32_t cpu, uint64_t lost)
{
	struct fxt_device_cpu *s = &d->cpus[cpu];

	if (lost <= s->lost_reported)
		return;
	if (!s->gap_records) {
		s->gap_from = s->last_ts ? s->last_ts : d->start_ns;
		if (s->gap_from < d->clip_ns)
			s->gap_from = d->clip_ns;
	}
	s->gap_records += lost - s->lost_reported;
	s->lost_reported = lost;
}

/*
 * Save [0, end) of rolling buffer b. The kernel noted the CPU's drop count
 * when it rolled into b (rolling_lost_before[b]): the records lost since
 * the last one saved were lost before b's first record, which ends their
 * gap. @before_window: b is a circular window's older buffer, and what was
 * lost before it was lost before the window (the archive holds nothing of
 * that time): counted (the fxt/dropped counter), in no gap.
 */
static int save_rolling(struct fxt_device *d, uint32_t cpu, unsigned int b,
			uint64_t end, bool before_window)
{
	struct fxt_device_cpu *s = &d->cpus[cpu];
	const volatile struct fxt_buffer_header *h = s->hdr;
	uint64_t lost = __atomic_load_n(&h->rolling_lost_before[b], __ATOMIC_ACQUIRE);

	if (before_window) {
		if (lost > s->lost_reported)
			s->lost_reported = lost;
	} else {
		note_lost(d, cpu, lost);
	}
	if (!end)
		return 0;
	if (end > h->rolling_size) {
		warn(d, "cpu %u: rolling buffer %u end %" PRIu64 " beyond its size",
		     cpu, b, end);
		return 0;
	}
	if (!wait_committed(&h->rolling_committed[b], end))
		warn(d, "cpu %u: rolling buffer %u: a writer did not finish; its record is cut",
		     cpu, b);
	return write_chunk(d, cpu, s->base + h->rolling_offset[b], 0, end, "rolling");
}

/* The CPU's records dropped so far, rolling and durable. */
static uint64_t dropped_now(const struct fxt_device_cpu *s)
{
	return __atomic_load_n(&s->hdr->records_dropped, __ATOMIC_ACQUIRE) +
	       __atomic_load_n(&s->hdr->durable_dropped, __ATOMIC_ACQUIRE);
}

/* The CPU's rolling records dropped so far: those a gap stands for. */
static uint64_t lost_now(const struct fxt_device_cpu *s)
{
	return __atomic_load_n(&s->hdr->records_dropped, __ATOMIC_ACQUIRE);
}

/*
 * Loss shows where it happened: buffer-full metadata, a counter of
 * dropped records and a Perfetto blob that says the CPU lost events (for
 * Perfetto's stats, lib/perfetto_blob.c), the counter stamped with the
 * last time saved for the CPU (not "now": the next chunk holds records
 * from before now, and a CPU's records must stay in time order). Which
 * span the rolling records were lost in is note_lost()'s.
 */
static int report_drops(struct fxt_device *d, uint32_t cpu, uint64_t dropped)
{
	struct fxt_device_cpu *s = &d->cpus[cpu];
	int err;

	if (dropped == s->dropped_reported)
		return 0;
	err = select_provider(d, cpu);
	if (!err)
		err = fxt_device_check_write(d, fxt_write_provider_event(d->w, cpu,
							      FXT_PROVIDER_EVENT_BUFFER_FULL));
	if (!err)
		err = fxt_device_check_write(d, fxt_write_counter_u64(d->w, s->last_ts > d->clip_ns ? s->last_ts : d->clip_ns,
							   FXT_KOID_IRQ_PROCESS,
							   FXT_KOID_IRQ_THREAD(cpu),
							   FXT_DROPPED_CATEGORY,
							   FXT_DROPPED_NAME, cpu,
							   FXT_DROPPED_ARG_NAME, dropped));
	/* For Perfetto's stats: this CPU's data has a loss. */
	if (!err)
		err = fxt_device_check_write(d, fxt_write_perfetto_lost_events(d->w, cpu));
	s->dropped_reported = dropped;
	return err;
}

/*
 * SAVE_BUFFER: durable delta first, then the full rolling buffer.
 *
 * Streaming drops a CPU's records only while both rolling buffers are
 * waiting: the one being saved here and the other, already full. So what
 * was dropped up to this save's acknowledgement was dropped after the other
 * buffer's last record; its counter is written after that buffer, at the
 * next save (or at the end). The gap is placed by the kernel's own note
 * (save_rolling()): once acknowledged, this buffer can fill and drop again
 * before the count is read here (a collector preempted for as long), and
 * that loss is after this buffer's records, not the other's.
 */
static int handle_save(struct fxt_device *d, const struct fxt_packet *p)
{
	struct fxt_packet ack = *p;
	unsigned int b = p->data32 & 1;
	struct fxt_device_cpu *s;
	int err;

	if (p->cpu >= d->layout.nr_cpus || !d->cpus[p->cpu].present)
		return fail(d, -EPROTO, "SAVE_BUFFER for unknown cpu %u", p->cpu);
	s = &d->cpus[p->cpu];
	err = save_durable(d, p->cpu, p->data64);
	if (!err)
		err = save_rolling(d, p->cpu, b,
				   __atomic_load_n(&s->hdr->rolling_data_end[b],
						   __ATOMIC_ACQUIRE), false);
	if (!err)
		err = report_drops(d, p->cpu, s->dropped_at_ack);
	/* Saved means on disk: the kernel may overwrite it after the ack. */
	if (!err)
		err = fxt_device_check_write(d, fxt_writer_flush(d->w));
	if (err)
		return err;
	ack.request = FXT_PKT_BUFFER_SAVED;
	if (write(d->fd, &ack, sizeof(ack)) != sizeof(ack))
		return fail(d, -errno, "acknowledging a saved buffer: %s", strerror(errno));
	s->dropped_at_ack = dropped_now(s);
	d->saves++;
	return 0;
}

int fxt_device_handle_packets(struct fxt_device *d)
{
	struct fxt_packet pkts[64];
	ssize_t n, i;
	int stopped = 0, err = 0;

	n = read(d->fd, pkts, sizeof(pkts));
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		return fail(d, -errno, "reading packets: %s", strerror(errno));
	}
	for (i = 0; !err && i < n / (ssize_t)sizeof(pkts[0]); i++) {
		switch (pkts[i].request) {
		case FXT_PKT_STARTED:
			if (pkts[i].data32 != FXT_FIFO_PROTOCOL_VERSION)
				err = fail(d, -EPROTO, "module speaks packet protocol %u, not %u",
					   pkts[i].data32, FXT_FIFO_PROTOCOL_VERSION);
			break;
		case FXT_PKT_SAVE_BUFFER:
			err = handle_save(d, &pkts[i]);
			break;
		case FXT_PKT_STOPPED:
			d->ended_ns = pkts[i].data64;
			stopped = 1;
			break;
		case FXT_PKT_TRIGGERED:
			/* One per START; the first one counts. */
			if (d->triggered.fired)
				break;
			d->triggered = (struct fxt_device_trigger){
				.fired = true,
				.cpu = pkts[i].cpu,
				.index = FXT_PKT_TRIGGER_INDEX(pkts[i].data32),
				.tid = FXT_PKT_TRIGGER_TID(pkts[i].data32),
				.latency_ns = pkts[i].data64,
				.read_ns = fxt_monotonic_ns(),
			};
			break;
		default:
			warn(d, "unknown packet %#x ignored", pkts[i].request);
		}
	}
	return err ? err : stopped;
}

/* Every SAVE_BUFFER posted before the stop comes before STOPPED. */
int fxt_device_drain(struct fxt_device *d)
{
	int ret = 0;

	while (!ret) {
		struct pollfd pfd = { .fd = d->fd, .events = POLLIN };

		if (poll(&pfd, 1, 5000) <= 0)
			return fail(d, -ETIMEDOUT, "no STOPPED packet from the module");
		ret = fxt_device_handle_packets(d);
	}
	return ret < 0 ? ret : 0;
}

/*
 * The first time in a CPU's older rolling buffer: the earliest the kept
 * window knows that CPU from, when it wrapped (what came before was
 * overwritten). 0 if it holds no timed record.
 */
static uint64_t window_start(const struct fxt_device_cpu *s, unsigned int b)
{
	const volatile struct fxt_buffer_header *h = s->hdr;
	uint64_t end = h->rolling_data_end[b], off = 0, hdr, ts, words;
	const uint8_t *data = s->base + h->rolling_offset[b];

	if (end > h->rolling_size)
		return 0;
	while ((words = fxt_frame(data, (size_t)end, (size_t)off, true, &hdr))) {
		if (fxt_frame_time(data, (size_t)off, hdr, (size_t)words, &ts))
			return ts;
		off += words * 8;
	}
	return 0;
}

/*
 * Circular mode keeps each CPU's own last window, and a busy CPU's starts
 * later than an idle one's. Before the latest start, a thread may have run
 * on a CPU whose records were overwritten: a reader would draw a wait, a
 * run or a state there that nothing recorded (Documentation/buffers.rst,
 * "Window edges"). So the archive starts where every CPU's knowledge
 * does: the latest first time of a wrapped CPU's older buffer. A CPU that
 * never wrapped knows everything since the start.
 */
static uint64_t common_window_start(const struct fxt_device *d)
{
	uint64_t start = 0;
	uint32_t cpu;

	if (d->layout.mode != FXT_MODE_CIRCULAR || d->per_cpu_window_start)
		return 0;
	for (cpu = 0; cpu < d->layout.nr_cpus; cpu++) {
		const struct fxt_device_cpu *s = &d->cpus[cpu];
		uint64_t cur, t;

		if (!s->present)
			continue;
		cur = __atomic_load_n(&s->hdr->rolling_current, __ATOMIC_ACQUIRE);
		if (!(cur >> FXT_ROLLING_OFFSET_BITS))
			continue;
		t = window_start(s, ((cur >> FXT_ROLLING_OFFSET_BITS) & 1) ^ 1);
		if (t > start)
			start = t;
	}
	return start;
}

/*
 * With the window kept whole (--window-start per-cpu), where a wrapped
 * CPU's records begin is marked instead: an instant fxt/window_start at
 * the first time of its older buffer, before that buffer's records.
 */
static int mark_window_start(struct fxt_device *d, uint32_t cpu, unsigned int b)
{
	uint64_t t = window_start(&d->cpus[cpu], b);
	int err;

	if (!t)
		return 0;
	err = select_provider(d, cpu);
	if (!err)
		err = fxt_device_check_write(d, fxt_write_event(d->w, FXT_EVENT_INSTANT, t,
			fxt_thread_inline(FXT_KOID_IRQ_PROCESS, FXT_KOID_IRQ_THREAD(cpu)),
			fxt_str(FXT_DROPPED_CATEGORY), fxt_str(FXT_WINDOW_START_NAME),
			NULL, 0, 0));
	return err;
}

int fxt_device_save_final(struct fxt_device *d)
{
	/* The module's end of the recording, else the stop's return. */
	uint64_t end = d->ended_ns ? d->ended_ns : d->stop_ns;
	uint32_t cpu;
	int err = 0;

	d->clip_ns = common_window_start(d);
	d->clipped = 0;
	for (cpu = 0; !err && cpu < d->layout.nr_cpus; cpu++) {
		struct fxt_device_cpu *s = &d->cpus[cpu];
		const volatile struct fxt_buffer_header *h = s->hdr;
		uint64_t cur, off;
		uint32_t wrapped;
		unsigned int b;

		if (!s->present)
			continue;
		cur = __atomic_load_n(&h->rolling_current, __ATOMIC_ACQUIRE);
		wrapped = cur >> FXT_ROLLING_OFFSET_BITS;
		off = cur & FXT_ROLLING_OFFSET_MASK;
		b = wrapped & 1;
		err = save_durable(d, cpu, 0);
		if (!err && d->layout.mode == FXT_MODE_CIRCULAR && wrapped &&
		    d->per_cpu_window_start)
			err = mark_window_start(d, cpu, b ^ 1);
		if (!err && d->layout.mode == FXT_MODE_CIRCULAR && wrapped)
			err = save_rolling(d, cpu, b ^ 1, h->rolling_data_end[b ^ 1],
					   true);
		if (off > h->rolling_size)
			off = h->rolling_size;
		if (!err)
			err = save_rolling(d, cpu, b, off, false);
		note_lost(d, cpu, lost_now(s));
		if (!err)
			err = report_drops(d, cpu, dropped_now(s));
		/* Lost after the last record kept: up to the recording's end. */
		if (!err)
			err = close_gap(d, cpu, end > s->last_ts ? end : s->last_ts);
	}
	return err;
}

/*
 * The trailer (Documentation/records.rst, "Archive layout"): after every
 * CPU's data, its own provider with one kernel object record per koid
 * whose last record in the archive is not its newest name, so that a
 * reader applying the last record it reads (Perfetto) gets the newest,
 * and per process with no command line in the archive that still runs
 * under that name and parent, its command line from /proc.
 * Everything before it is a complete archive already.
 */
int fxt_device_write_trailer(struct fxt_device *d)
{
	int n;

	if (!d->names)
		return 0;
	fxt_newest_lookup_cmdlines(d->names, fxt_proc_cmdline, NULL);
	n = fxt_newest_write_trailer(d->names, d->w);
	if (n < 0)
		return fxt_device_check_write(d, n);
	if (n > 0)
		d->have_provider = false;
	return n;
}

int fxt_device_save_file(struct fxt_device *d, const char *path)
{
	struct fxt_newest *names;
	struct fxt_writer w;
	int fd, err;

	err = d->map ? 0 : fxt_device_map(d);
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(d, -errno, "%s: %s", path, strerror(errno));
	names = fxt_newest_new(SAVE_FILE_MAX_KOIDS);	/* NULL: no trailer */
	err = fxt_device_check_write(d, fxt_writer_init(&w, fd));
	if (!err) {
		err = fxt_device_begin_archive(d, &w, path, names);
		if (!err)
			err = fxt_device_save_final(d);
		if (!err)
			err = fxt_device_write_trailer(d);
		if (err >= 0)
			err = fxt_device_check_write(d, fxt_writer_flush(&w));
		fxt_writer_destroy(&w);
	}
	fxt_newest_free(names);
	d->names = NULL;
	d->w = NULL;
	close(fd);
	return err;
}
