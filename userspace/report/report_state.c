// SPDX-License-Identifier: MIT
/*
 * report_state.c - where fxt-report keeps what report_stats.c sums: the
 * thread table (a direct index for tids below DIRECT_TIDS, a hash map
 * above), the CPUs and the interrupt handlers by name, grown as they are
 * first seen; and the whole state's start and end.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report_stats.h"

/* A new state for tid; NO_THREAD without memory. */
uint32_t report_thread_new(struct report *rp, uint64_t tid)
{
	struct tstat *t;
	if (rp->nthreads == rp->tcap) {
		size_t n = rp->tcap ? rp->tcap * 2 : 64;
		struct tstat *nt = aligned_alloc(64, n * sizeof(*nt));
		uint64_t *tids = realloc(rp->tids, n * sizeof(*tids));
		struct tsleep *sl = realloc(rp->sleeps, n * sizeof(*sl));

		if (tids)
			rp->tids = tids;
		if (sl)
			rp->sleeps = sl;
		if (!nt || !tids || !sl) {
			free(nt);
			return NO_THREAD;
		}
		if (rp->nthreads)
			memcpy(nt, rp->threads, rp->nthreads * sizeof(*nt));
		free(rp->threads);
		rp->threads = nt;
		rp->tcap = n;
	}
	if (tid < DIRECT_TIDS) {
		uint32_t **c = &rp->direct[tid / DIRECT_CHUNK];

		if (!*c)
			*c = calloc(DIRECT_CHUNK, sizeof(**c));
		if (!*c)
			return NO_THREAD;
		(*c)[tid % DIRECT_CHUNK] = (uint32_t)rp->nthreads + 1;
	} else if (fxt_u64map_put(&rp->tmap, tid, (uint32_t)rp->nthreads)) {
		return NO_THREAD;
	}
	t = &rp->threads[rp->nthreads];
	memset(t, 0, sizeof(*t));
	t->pid = tid;
	rp->tids[rp->nthreads] = tid;
	memset(&rp->sleeps[rp->nthreads], 0, sizeof(rp->sleeps[0]));
	return (uint32_t)rp->nthreads++;
}

struct cstat *report_cpu_grow(struct report *rp, unsigned int cpu)
{
	struct cstat *nc;

	if (cpu >= MAX_CPUS)
		return NULL;
	nc = grow_zeroed(rp->cpus, &rp->ncpus, cpu, 8, sizeof(*nc));
	if (!nc)
		return NULL;
	rp->cpus = nc;
	return &rp->cpus[cpu];
}

/*
 * The handler named name: its id, by which rp->hnames interns "s" or "h"
 * (soft or hard) and the name; -1 without memory.
 */
int report_handler_get(struct report *rp, bool soft, struct fxt_str name)
{
	char key[sizeof(rp->handlers->name)];
	size_t n = name.data ? name.len : 0;
	struct handler *h;
	uint32_t id;

	if (rp->nhandlers == rp->hcap) {	/* room for a new one first */
		size_t c = rp->hcap ? rp->hcap * 2 : 64;
		struct handler *nh = realloc(rp->handlers, c * sizeof(*nh));

		if (!nh)
			return -1;
		rp->handlers = nh;
		rp->hcap = c;
	}
	if (n > sizeof(key) - 1)
		n = sizeof(key) - 1;
	key[0] = soft ? 's' : 'h';
	if (n)
		memcpy(key + 1, name.data, n);
	id = fxt_name_intern(&rp->hnames, key, n + 1, sizeof(key));
	if (id == NAME_INTERN_NONE)
		return -1;
	if (id < rp->nhandlers)
		return (int)id;
	h = &rp->handlers[rp->nhandlers];
	memset(h, 0, sizeof(*h));
	memcpy(h->name, key + 1, n);
	h->len = (uint8_t)n;
	h->soft = soft;
	return (int)rp->nhandlers++;
}

void report_init(struct report *rp, struct fxt_merge *m)
{
	memset(rp, 0, sizeof(*rp));
	rp->first_ns = UINT64_MAX;
	rp->gap_end = rp->gap_gate = UINT64_MAX;
	rp->m = m;
}

void report_free(struct report *rp)
{
	size_t k;

	for (k = 0; k < rp->nthreads; k++)
		free(rp->threads[k].delays);
	free(rp->tids);
	free(rp->sleeps);
	report_blocked_free(rp);
	report_power_free(rp);
	report_losses_free(rp);
	free(rp->threads);
	free(rp->cpus);
	free(rp->handlers);
	free(rp->triggers);
	fxt_name_intern_free(&rp->hnames);
	free(rp->hstats);
	fxt_u64map_free(&rp->tmap);
	for (k = 0; k < DIRECT_TIDS / DIRECT_CHUNK; k++)
		free(rp->direct[k]);
}
