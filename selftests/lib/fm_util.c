// SPDX-License-Identifier: GPL-2.0
/*
 * fm_util.c - helpers of fxt_modes (fm_util.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collector.h"
#include "fm_util.h"
#include "libfxt.h"

#define FM_STACK_MAX		16

pid_t fm_collect_start(const char *archive, const char *mode,
		       const char *const *extra, const char *log,
		       char *why, size_t why_size)
{
	const char *args[32];
	int n = 0, status, err;
	pid_t pid;

	unlink(archive);
	args[n++] = "-m";
	args[n++] = mode;
	for (int i = 0; extra && extra[i] && n < 28; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	pid = col_collect_spawn(archive, log, args);
	if (pid < 0) {
		snprintf(why, why_size, "fork: %s", strerror(-pid));
		return pid;
	}
	err = col_wait_line(pid, log, COL_STARTED_LINE,
			    col_env_ulong("FXT_COLLECT_TIMEOUT", 120), &status);
	if (err == -ECHILD) {
		snprintf(why, why_size,
			 "fxt-collect exited (status 0x%x) before \"%s\"",
			 status, COL_STARTED_LINE);
		return -ECHILD;
	}
	if (err) {
		col_kill_reap(pid, &status);
		snprintf(why, why_size, "no \"%s\"", COL_STARTED_LINE);
		return -ETIMEDOUT;
	}
	return pid;
}

int fm_parse_stats(const char *log, struct fm_stats_row rows[FM_MAX_CPUS])
{
	char line[512];
	bool in_table = false;
	int found = 0;
	FILE *f = fopen(log, "r");

	memset(rows, 0, FM_MAX_CPUS * sizeof(*rows));
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned int cpu;
		struct fm_stats_row r = { .present = true };
		int n;

		if (strstr(line, "cpu") && strstr(line, "records") &&
		    strstr(line, "d.dropped") && strstr(line, "wraps")) {
			in_table = true;	/* the last table wins */
			memset(rows, 0, FM_MAX_CPUS * sizeof(*rows));
			found = 0;
			continue;
		}
		if (!in_table)
			continue;
		n = sscanf(line, "%u %lu %lu %lu %lu %lu %lu %63[^\n]", &cpu,
			   &r.records, &r.dropped, &r.durable, &r.d_dropped,
			   &r.wraps, &r.bytes, r.flags);
		if (n < 7) {
			in_table = false;
			continue;
		}
		if (cpu < FM_MAX_CPUS) {
			rows[cpu] = r;
			found++;
		}
	}
	fclose(f);
	return found;
}

/* ---- archive scan ---- */

const char *fm_kobj_prefix;

struct fm_frame {
	char cat[16];
	char name[48];
};

struct fm_walk {
	uint64_t thread_koid[FM_MAX_CPUS][256];
	bool thread_set[FM_MAX_CPUS][256];
	uint64_t str_hash[FM_MAX_CPUS][0x8000];
	struct fm_frame stack[FM_MAX_CPUS][FM_STACK_MAX];
	int depth[FM_MAX_CPUS];
	bool any_begin[FM_MAX_CPUS];
};

static void str_copy(char *dst, size_t size, const struct fxt_str *s)
{
	size_t n = s->data ? s->len : 0;

	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(dst, s->data, n);
	dst[n] = '\0';
}

static bool str_is(const struct fxt_str *s, const char *lit)
{
	size_t n = strlen(lit);

	return s->data && s->len == n && !memcmp(s->data, lit, n);
}

static int scan_diag(void *ctx, uint64_t offset, enum fxt_diag_id id,
		     const char *message)
{
	struct fm_scan *s = ctx;

	if (id == FXT_D_STRING_UNDEFINED)
		s->string_undefined++;
	if (id == FXT_D_THREAD_UNDEFINED)
		s->thread_undefined++;
	if (s->diags++ < 5)
		printf("# libfxt: offset %llu: %s: %s\n",
		       (unsigned long long)offset, fxt_diag_name(id), message);
	return 0;
}

static bool watched(const uint64_t *tids, int ntids, uint64_t tid)
{
	for (int i = 0; i < ntids; i++)
		if (tids[i] == tid)
			return true;
	return false;
}

static void scan_irq(struct fm_walk *w, struct fm_prov *p, unsigned int cpu,
		     const struct fxt_record *rec)
{
	struct fm_frame f;

	if (!rec->u.event.thread.defined ||
	    rec->u.event.thread.tid != FXT_KOID_IRQ_THREAD(cpu)) {
		p->other_thread_irq++;
		return;
	}
	str_copy(f.cat, sizeof(f.cat), &rec->u.event.category);
	str_copy(f.name, sizeof(f.name), &rec->u.event.name);
	if (rec->subtype == FXT_EVENT_DURATION_BEGIN) {
		p->irq_begin++;
		w->any_begin[cpu] = true;
		if (w->depth[cpu] < FM_STACK_MAX)
			w->stack[cpu][w->depth[cpu]] = f;
		w->depth[cpu]++;
		return;
	}
	p->irq_end++;
	if (w->depth[cpu] == 0) {
		if (w->any_begin[cpu])
			p->orphan_late++;
		else
			p->orphan_start++;
		return;
	}
	w->depth[cpu]--;
	if (w->depth[cpu] < FM_STACK_MAX) {
		const struct fm_frame *top = &w->stack[cpu][w->depth[cpu]];

		if (strcmp(top->cat, f.cat) || strcmp(top->name, f.name)) {
			p->nest_mismatch++;
			if (p->mismatch_shown++ < 3)
				printf("# cpu%u: end %s/%s at ts %llu, innermost begin %s/%s (depth %d)\n",
				       cpu, f.cat, f.name,
				       (unsigned long long)rec->ts, top->cat,
				       top->name, w->depth[cpu] + 1);
		}
	}
}

int fm_scan(const char *path, const uint64_t *tids, int ntids,
	    struct fm_scan *s)
{
	struct fxt_reader *r;
	struct fxt_record rec;
	struct fm_walk *w;
	int ret;

	memset(s, 0, sizeof(*s));
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	r = fxt_reader_open(path);
	if (!r) {
		free(w);
		return -errno;
	}
	fxt_reader_set_diag(r, scan_diag, s);
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		struct fm_prov *p;
		unsigned int cpu = rec.provider;

		if (rec.flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN))
			continue;
		if (rec.type == FXT_REC_METADATA &&
		    rec.subtype == FXT_META_PROVIDER_EVENT) {
			if (rec.u.meta.provider_id < FM_MAX_CPUS &&
			    rec.u.meta.event == FXT_PROVIDER_EVENT_BUFFER_FULL)
				s->prov[rec.u.meta.provider_id].buffer_full++;
			continue;
		}
		if (cpu >= FM_MAX_CPUS)
			continue;
		p = &s->prov[cpu];
		p->seen = true;
		if (rec.type == FXT_REC_THREAD) {
			uint8_t ix = rec.u.thread.index;

			if (w->thread_set[cpu][ix] &&
			    w->thread_koid[cpu][ix] != rec.u.thread.tid) {
				if (p->thread_reassigned++ < 3)
					printf("# cpu%u: thread index %u: koid %llu, then %llu\n",
					       cpu, ix,
					       (unsigned long long)w->thread_koid[cpu][ix],
					       (unsigned long long)rec.u.thread.tid);
			}
			w->thread_set[cpu][ix] = true;
			w->thread_koid[cpu][ix] = rec.u.thread.tid;
			continue;
		}
		if (rec.type == FXT_REC_KERNEL_OBJ && fm_kobj_prefix &&
		    rec.u.kobj.name.data &&
		    rec.u.kobj.name.len >= strlen(fm_kobj_prefix) &&
		    !memcmp(rec.u.kobj.name.data, fm_kobj_prefix,
			    strlen(fm_kobj_prefix)))
			s->kobj_prefixed++;
		if (rec.type == FXT_REC_KERNEL_OBJ &&
		    watched(tids, ntids, rec.u.kobj.koid))
			s->kobj_watched++;
		if (rec.type == FXT_REC_STRING && rec.u.string.index < 0x8000) {
			uint16_t ix = rec.u.string.index;
			uint64_t h = 1469598103934665603ull;

			for (unsigned int k = 0; rec.u.string.str.data &&
			     k < rec.u.string.str.len; k++)
				h = (h ^ (uint8_t)rec.u.string.str.data[k]) *
				    1099511628211ull;
			h |= 1;	/* 0 = unset */
			if (w->str_hash[cpu][ix] && w->str_hash[cpu][ix] != h)
				p->string_reassigned++;
			w->str_hash[cpu][ix] = h;
			continue;
		}
		if (rec.type == FXT_REC_SCHED &&
		    rec.subtype == FXT_SCHED_CONTEXT_SWITCH) {
			const struct fxt_thread *o = &rec.u.sw.out, *i = &rec.u.sw.in;
			struct fm_sw sw = { rec.ts, o->tid, i->tid };

			p->undefined_refs += !o->defined + !i->defined;
			if (!p->switches)
				p->first = sw;
			p->last = sw;
			p->switches++;
			if ((o->defined && watched(tids, ntids, o->tid)) ||
			    (i->defined && watched(tids, ntids, i->tid)))
				p->tid_switches++;
		} else if (rec.type == FXT_REC_EVENT) {
			if (!rec.u.event.thread.defined)
				p->undefined_refs++;
			if (!rec.u.event.category.data || !rec.u.event.name.data)
				s->undefined_strs++;
			if (rec.subtype == FXT_EVENT_COUNTER &&
			    str_is(&rec.u.event.category, "fxt") &&
			    str_is(&rec.u.event.name, "dropped")) {
				for (int a = 0; a < rec.nargs; a++)
					if (str_is(&rec.args[a].name, "records")) {
						p->have_dropped = true;
						p->dropped_last = rec.args[a].v.u64;
					}
			} else if (rec.subtype == FXT_EVENT_DURATION_BEGIN ||
				   rec.subtype == FXT_EVENT_DURATION_END) {
				scan_irq(w, p, cpu, &rec);
			}
		}
	}
	s->records = fxt_reader_records(r);
	s->read_error = ret < 0;
	for (int c = 0; c < FM_MAX_CPUS; c++)
		for (int ix = 0; ix < 256; ix++)
			s->prov[c].thread_indices += w->thread_set[c][ix];
	fxt_reader_close(r);
	free(w);
	return 0;
}

/* ---- workloads ---- */

int fm_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

struct pp_thr {
	pthread_t th;
	bool leader;
	volatile bool *stop;
	int rfd, wfd, cpu;
	unsigned long rounds;
	pid_t tid;
	int err;
};

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *pp_main(void *arg)
{
	struct pp_thr *t = arg;
	char b = 0;

	t->tid = gettid();
	pin(t->cpu);
	for (unsigned long i = 0; i < t->rounds && !t->err; i++) {
		if (t->stop && __atomic_load_n(t->stop, __ATOMIC_RELAXED))
			break;
		for (int step = 0; step < 2; step++) {
			bool wr = (step == 0) == t->leader;
			ssize_t n = wr ? write(t->wfd, &b, 1) : read(t->rfd, &b, 1);

			if (n != 1) {
				t->err = n < 0 ? errno : EPIPE;
				break;
			}
		}
	}
	close(t->wfd);		/* unblocks the peer if we stopped early */
	return NULL;
}

struct fm_bg {
	volatile bool stop;
	struct pp_thr t[2];
	int p1[2], p2[2];
	int started;
};

struct fm_bg *fm_pingpong_bg(unsigned long rounds, int cpu_a, int cpu_b)
{
	struct fm_bg *bg = calloc(1, sizeof(*bg));

	if (!bg)
		return NULL;
	if (pipe2(bg->p1, O_CLOEXEC) || pipe2(bg->p2, O_CLOEXEC)) {
		free(bg);
		return NULL;
	}
	bg->t[0] = (struct pp_thr){ .leader = true, .wfd = bg->p1[1],
				    .rfd = bg->p2[0], .cpu = cpu_a,
				    .rounds = rounds, .stop = &bg->stop };
	bg->t[1] = (struct pp_thr){ .leader = false, .wfd = bg->p2[1],
				    .rfd = bg->p1[0], .cpu = cpu_b,
				    .rounds = rounds, .stop = &bg->stop };
	for (int i = 0; i < 2; i++) {
		if (pthread_create(&bg->t[i].th, NULL, pp_main, &bg->t[i]))
			break;
		bg->started++;
	}
	if (bg->started == 1)
		close(bg->p2[1]);	/* the leader's read sees EOF */
	return bg;
}

void fm_bg_stop(struct fm_bg *bg)
{
	if (bg)
		__atomic_store_n(&bg->stop, true, __ATOMIC_RELAXED);
}

int fm_bg_join(struct fm_bg *bg, pid_t tids[2])
{
	int err = 0;

	if (!bg)
		return -ENOMEM;
	for (int i = 0; i < bg->started; i++)
		pthread_join(bg->t[i].th, NULL);
	for (int i = 0; i < 2; i++) {
		if (tids)
			tids[i] = bg->t[i].tid;
		if (bg->t[i].err && !err &&
		    !(bg->stop && bg->t[i].err == EPIPE))
			err = -bg->t[i].err;
	}
	if (bg->started < 2)
		err = -EAGAIN;
	close(bg->p1[0]);
	close(bg->p2[0]);
	free(bg);
	return err;
}

int fm_pingpong(unsigned long rounds, int cpu_a, int cpu_b, pid_t tids[2])
{
	return fm_bg_join(fm_pingpong_bg(rounds, cpu_a, cpu_b), tids);
}

struct sl_thr {
	pthread_t th;
	unsigned long iters;
	long ns;
	int cpu;
};

static void *sl_main(void *arg)
{
	struct sl_thr *t = arg;
	struct timespec d = { 0, t->ns };

	pin(t->cpu);
	for (unsigned long i = 0; i < t->iters; i++)
		nanosleep(&d, NULL);
	return NULL;
}

int fm_sleepers(int n, unsigned long iters, long ns, const int *cpus, int ncpus)
{
	struct sl_thr *t = calloc(n, sizeof(*t));
	int started = 0;

	if (!t)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		t[i] = (struct sl_thr){ .iters = iters, .ns = ns,
					.cpu = ncpus ? cpus[i % ncpus] : -1 };
		if (pthread_create(&t[i].th, NULL, sl_main, &t[i]))
			break;
		started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(t[i].th, NULL);
	free(t);
	return started == n ? 0 : -EAGAIN;
}
