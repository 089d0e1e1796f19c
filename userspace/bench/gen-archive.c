// SPDX-License-Identifier: MIT
/*
 * gen-archive - write a large synthetic fxt archive for the reader benchmark.
 *
 *   gen-archive FILE MB [CPUS]
 *
 * The archive looks like fxt-collect's (Documentation/records.rst): one
 * provider per CPU, chunks of each CPU's data in turn behind provider
 * section records, string and thread tables per CPU, kernel object records
 * for every task up front and renames later. Records are mostly 16-byte
 * context switches between indexed threads, then wakeups (48 bytes),
 * interrupt and softirq begin/end pairs, a few inline switches, new thread
 * indices, kernel objects and strings, and a drop counter per chunk.
 * Prints "records BYTES" on stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libfxt.h"

#define IRQ_PID		FXT_KOID_IRQ_PROCESS
#define IRQ_TID(c)	FXT_KOID_IRQ_THREAD(c)
#define NTASKS		2000
#define NPROCS		300
#define CHUNK_RECORDS	20000		/* records per chunk of one CPU */

enum {
	S_IRQ = 1, S_SOFTIRQ, S_WEIGHT, S_WAKER, S_VECTOR, S_HANDLED, S_IRQARG,
	S_FXT, S_DROPPED, S_RECORDS,
	S_HANDLERS,		/* first handler name */
};

static const char *const handlers[] = {
	"eth0", "nvme0q1", "nvme0q2", "ahci", "i915", "xhci_hcd",
	"local_timer", "reschedule", "call_function",
};
static const char *const softirqs[] = { "TIMER", "NET_RX", "NET_TX", "BLOCK", "SCHED", "RCU" };
#define NHANDLERS	(sizeof(handlers) / sizeof(handlers[0]))
#define NSOFTIRQS	(sizeof(softirqs) / sizeof(softirqs[0]))

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static inline uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

struct cpu {
	uint64_t ts;
	uint8_t cur;			/* index of the running thread, 0: inline */
	unsigned int cur_task;		/* inline: its task, or NTASKS for idle */
	uint64_t tid_of[256];		/* thread index -> tid */
	unsigned int nidx;		/* indices used */
	uint16_t next_string;
	uint64_t dropped;
	uint8_t rq[64];			/* woken indexed threads, FIFO */
	unsigned int rq_head, rq_len;
};

static uint64_t records;

static void die(const char *what, int err)
{
	fprintf(stderr, "gen-archive: %s: %s\n", what, strerror(-err));
	exit(1);
}

#define W(call)	do { int _e = (call); if (_e) die(#call, _e); records++; } while (0)

static uint64_t tid_of_task(unsigned int t)
{
	return 1000 + t;
}

static uint64_t pid_of_task(unsigned int t)
{
	return 1000 + t % NPROCS;
}

static void durable(struct fxt_writer *w, struct cpu *c, unsigned int cpu)
{
	unsigned int i;

	W(fxt_write_string(w, S_IRQ, "irq", 3));
	W(fxt_write_string(w, S_SOFTIRQ, "softirq", 7));
	W(fxt_write_string(w, S_WEIGHT, "weight", 6));
	W(fxt_write_string(w, S_WAKER, "waker", 5));
	W(fxt_write_string(w, S_VECTOR, "vector", 6));
	W(fxt_write_string(w, S_HANDLED, "handled", 7));
	W(fxt_write_string(w, S_IRQARG, "irq", 3));
	W(fxt_write_string(w, S_FXT, "fxt", 3));
	W(fxt_write_string(w, S_DROPPED, "dropped", 7));
	W(fxt_write_string(w, S_RECORDS, "records", 7));
	for (i = 0; i < NHANDLERS; i++)
		W(fxt_write_string(w, (uint16_t)(S_HANDLERS + i), handlers[i],
				   strlen(handlers[i])));
	for (i = 0; i < NSOFTIRQS; i++)
		W(fxt_write_string(w, (uint16_t)(S_HANDLERS + NHANDLERS + i), softirqs[i],
				   strlen(softirqs[i])));
	c->next_string = (uint16_t)(S_HANDLERS + NHANDLERS + NSOFTIRQS);
	W(fxt_write_thread(w, 1, IRQ_PID, IRQ_TID(cpu)));
	c->tid_of[1] = IRQ_TID(cpu);
	c->nidx = 2;
}

/* The outgoing thread: the running one, by index, inline or idle. */
static struct fxt_thread current(const struct cpu *c)
{
	if (c->cur)
		return fxt_thread_index(c->cur);
	if (c->cur_task < NTASKS)
		return fxt_thread_inline(pid_of_task(c->cur_task), tid_of_task(c->cur_task));
	return fxt_thread_inline(0, 0);
}

static unsigned int current_prio(const struct cpu *c)
{
	return c->cur || c->cur_task < NTASKS ? 20 : 0;
}

/* A thread index for task t on this CPU, indexing it when there is room. */
static struct fxt_thread thread_for(struct fxt_writer *w, struct cpu *c, unsigned int t,
				    uint8_t *index)
{
	uint64_t tid = tid_of_task(t);

	/* Tasks 0..199 of each CPU's share get indices; the rest stay inline. */
	if (c->nidx < 256 && (rnd() & 3) == 0) {
		uint8_t i = (uint8_t)c->nidx++;

		W(fxt_write_thread(w, i, pid_of_task(t), tid));
		c->tid_of[i] = tid;
		*index = i;
		return fxt_thread_index(i);
	}
	*index = 0;
	return fxt_thread_inline(pid_of_task(t), tid);
}

static void chunk(struct fxt_writer *w, struct cpu *c, unsigned int cpu)
{
	unsigned int n;

	W(fxt_write_provider_section(w, cpu));
	for (n = 0; n < CHUNK_RECORDS; n++) {
		uint64_t r = rnd();
		unsigned int pick = (unsigned int)(r % 1000);

		c->ts += 200 + (r >> 40) % 3000;
		if (pick < 620 && c->nidx > 4) {
			/* Indexed switch, 16 bytes. */
			/* Run the longest-woken thread, else a random one (or idle). */
			uint8_t in;

			if (c->rq_len) {
				in = c->rq[c->rq_head];
				c->rq_head = (c->rq_head + 1) % 64;
				c->rq_len--;
			} else {
				in = (uint8_t)(2 + (r >> 20) % (c->nidx - 2));
			}
			if (in == c->cur)
				in = 0;
			W(fxt_write_switch(w, cpu, c->ts, (r >> 10) & 1 ? FXT_THREAD_BLOCKED :
					   FXT_THREAD_NEW, current(c), current_prio(c),
					   in ? fxt_thread_index(in) : fxt_thread_inline(0, 0),
					   in ? 20 : 0));
			c->cur = in;
			c->cur_task = NTASKS;
		} else if (pick < 680) {
			/* Switch to a thread not indexed yet (inline, or indexed now). */
			unsigned int t = (unsigned int)((r >> 16) % NTASKS);
			uint8_t idx;
			struct fxt_thread in = thread_for(w, c, t, &idx);

			W(fxt_write_switch(w, cpu, c->ts, FXT_THREAD_BLOCKED, current(c),
					   current_prio(c), in, 20));
			c->cur = idx;
			c->cur_task = t;
		} else if (pick < 830) {
			/* Wakeup, 48 bytes: weight int32 and waker koid, names indexed. */
			struct fxt_arg a[2];
			uint64_t woken = tid_of_task((unsigned int)((r >> 16) % NTASKS));

			/* Mostly a thread of this CPU, which then runs soon. */
			if ((r & 7) && c->nidx > 4 && c->rq_len < 64) {
				uint8_t i = (uint8_t)(2 + (r >> 20) % (c->nidx - 2));

				woken = c->tid_of[i];
				c->rq[(c->rq_head + c->rq_len++) % 64] = i;
			}

			a[0] = fxt_arg_i32(fxt_str_index(S_WEIGHT), 20);
			a[1] = fxt_arg_koid(fxt_str_index(S_WAKER), c->cur ? c->tid_of[c->cur] :
					    c->cur_task < NTASKS ? tid_of_task(c->cur_task) :
					    IRQ_TID(cpu));
			W(fxt_write_wakeup_args(w, cpu, c->ts, woken, a, 2));
		} else if (pick < 930) {
			/* Hard interrupt: begin (irq int32), end (handled: no arg). */
			unsigned int h = (unsigned int)((r >> 16) % NHANDLERS);
			struct fxt_arg a = fxt_arg_i32(fxt_str_index(S_IRQARG), (int32_t)(h + 16));

			W(fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, c->ts, fxt_thread_index(1),
					  fxt_str_index(S_IRQ), fxt_str_index((uint16_t)(S_HANDLERS + h)),
					  &a, 1, 0));
			c->ts += 500 + (r >> 50) % 5000;
			W(fxt_write_event(w, FXT_EVENT_DURATION_END, c->ts, fxt_thread_index(1),
					  fxt_str_index(S_IRQ), fxt_str_index((uint16_t)(S_HANDLERS + h)),
					  NULL, 0, 0));
			n++;
		} else if (pick < 995) {
			/* Softirq: begin, end; the name says the vector. */
			unsigned int v = (unsigned int)((r >> 16) % NSOFTIRQS);
			uint16_t name = (uint16_t)(S_HANDLERS + NHANDLERS + v);

			W(fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, c->ts, fxt_thread_index(1),
					  fxt_str_index(S_SOFTIRQ), fxt_str_index(name), NULL, 0, 0));
			c->ts += 1000 + (r >> 50) % 20000;
			W(fxt_write_event(w, FXT_EVENT_DURATION_END, c->ts, fxt_thread_index(1),
					  fxt_str_index(S_SOFTIRQ), fxt_str_index(name), NULL, 0, 0));
			n++;
		} else if (pick < 998) {
			/* A rename (exec): kernel object records. */
			unsigned int t = (unsigned int)((r >> 16) % NTASKS);
			char name[16];

			snprintf(name, sizeof(name), "exec-%u", (unsigned int)(r >> 48) % 1000);
			W(fxt_write_thread_kobj(w, tid_of_task(t), name, pid_of_task(t)));
		} else if (c->next_string < FXT_STRING_INDEX_MAX) {
			/* A new interrupt handler name. */
			char name[24];
			int len = snprintf(name, sizeof(name), "handler-%u", c->next_string);

			W(fxt_write_string(w, c->next_string++, name, (size_t)len));
		}
	}
	if ((rnd() & 7) == 0) {
		c->dropped += rnd() % 1000;
		W(fxt_write_provider_event(w, cpu, FXT_PROVIDER_EVENT_BUFFER_FULL));
		W(fxt_write_counter_u64(w, c->ts, IRQ_PID, IRQ_TID(cpu), "fxt", "dropped",
					cpu, "records", c->dropped));
	}
}

int main(int argc, char **argv)
{
	struct fxt_writer w;
	struct cpu *cpus;
	uint64_t target;
	unsigned int ncpus = 4, i, t;
	int fd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: gen-archive FILE MB [CPUS]\n");
		return 2;
	}
	target = strtoull(argv[2], NULL, 10) << 20;
	if (argc == 4)
		ncpus = (unsigned int)strtoul(argv[3], NULL, 10);
	if (!ncpus || ncpus > 256) {
		fprintf(stderr, "gen-archive: CPUS must be 1..256\n");
		return 2;
	}
	cpus = calloc(ncpus, sizeof(*cpus));
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!cpus || fd < 0 || fxt_writer_init(&w, fd)) {
		fprintf(stderr, "gen-archive: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	W(fxt_write_magic(&w));
	for (i = 0; i < ncpus; i++) {
		char name[16];

		snprintf(name, sizeof(name), FXT_CPU_PROVIDER_NAME_FORMAT, i);
		W(fxt_write_provider_info(&w, i, name));
		W(fxt_write_init(&w, FXT_TICKS_PER_SECOND));
		cpus[i].ts = 1000000000;
		cpus[i].cur_task = NTASKS;
	}
	for (i = 0; i < ncpus; i++) {
		W(fxt_write_provider_section(&w, i));
		durable(&w, &cpus[i], i);
		if (i == 0) {
			W(fxt_write_process(&w, IRQ_PID, "irq"));
			for (t = 0; t < ncpus; t++) {
				char name[16];

				snprintf(name, sizeof(name), "irq/cpu%u", t);
				W(fxt_write_thread_kobj(&w, IRQ_TID(t), name, IRQ_PID));
			}
			for (t = 0; t < NPROCS; t++) {
				char name[16];

				snprintf(name, sizeof(name), "proc-%u", t);
				W(fxt_write_process(&w, pid_of_task(t), name));
			}
			for (t = 0; t < NTASKS; t++) {
				char name[16];

				snprintf(name, sizeof(name), "task-%u", t);
				W(fxt_write_thread_kobj(&w, tid_of_task(t), name, pid_of_task(t)));
			}
		}
	}
	while (fxt_writer_bytes(&w) < target)
		for (i = 0; i < ncpus && fxt_writer_bytes(&w) < target; i++)
			chunk(&w, &cpus[i], i);
	if (fxt_writer_flush(&w))
		die("flush", fxt_writer_error(&w));
	printf("%llu %llu\n", (unsigned long long)records,
	       (unsigned long long)fxt_writer_bytes(&w));
	fxt_writer_destroy(&w);
	close(fd);
	free(cpus);
	return 0;
}
