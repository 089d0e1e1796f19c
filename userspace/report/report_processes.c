// SPDX-License-Identifier: MIT
/*
 * report_processes.c - fxt-report's Processes section: per process (pid),
 * its parent (the "parent" argument of its kernel object records,
 * records.rst "Names"), its name, how many threads of it the archive saw,
 * and their run, S and D time summed. A pid reused after its process
 * exited is one row: its threads are still apart in the Threads table.
 */
#include <stdlib.h>

#include "report.h"

struct prow {
	uint64_t pid, run_ns, s_ns, d_ns;
	unsigned int threads;
};

static int cmp_pid(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int cmp_run(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;

	if (x->run_ns != y->run_ns)
		return x->run_ns < y->run_ns ? 1 : -1;
	return cmp_pid(a, b);
}

/* One row per pid of the threads shown; *n rows. NULL without memory. */
static struct prow *process_rows(const struct report *rp, size_t *n)
{
	struct prow *rows = malloc((rp->nthreads ? rp->nthreads : 1) * sizeof(*rows));
	size_t i, k = 0;

	if (!rows)
		return NULL;
	for (i = 0; i < rp->nthreads; i++) {
		const struct tstat *t = &rp->threads[i];

		if (!t->switches && !t->wakeups && !t->run_ns)
			continue;
		rows[k++] = (struct prow){
			.pid = t->pid, .run_ns = t->run_ns, .threads = 1,
			.s_ns = rp->sleeps[i].s_ns, .d_ns = rp->sleeps[i].d_ns,
		};
	}
	qsort(rows, k, sizeof(*rows), cmp_pid);
	*n = 0;
	for (i = 0; i < k; i++) {
		struct prow *last = *n ? &rows[*n - 1] : NULL;

		if (last && last->pid == rows[i].pid) {
			last->run_ns += rows[i].run_ns;
			last->s_ns += rows[i].s_ns;
			last->d_ns += rows[i].d_ns;
			last->threads++;
		} else {
			rows[(*n)++] = rows[i];
		}
	}
	qsort(rows, *n, sizeof(*rows), cmp_run);
	return rows;
}

static void put_ms(struct outbuf *o, uint64_t ns)
{
	fxt_ob_printf(o, " %7llu.%03llu", (unsigned long long)(ns / 1000000),
		      (unsigned long long)(ns / 1000 % 1000));
}

void report_print_processes(struct report *rp, struct outbuf *o, long top, bool csv)
{
	size_t n = 0, i, shown;
	struct prow *rows = process_rows(rp, &n);

	if (!rows)
		return;
	shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	if (csv)
		OB_LIT(o, "\ntable,pid,ppid,comm,threads,run_ns,s_ns,d_ns\n");
	else
		fxt_ob_printf(o, "\nProcesses (%zu of %zu, by run time)\n"
			      "%8s %8s %-16s %7s %11s %11s %11s\n", shown, n,
			      "PID", "PPID", "COMM", "THREADS", "RUN ms", "S ms", "D ms");
	for (i = 0; i < shown; i++) {
		const struct prow *p = &rows[i];
		const struct fxt_kobj_info *k = fxt_merge_kobj(rp->m, FXT_OBJ_PROCESS, p->pid);
		const char *comm = k && k->name_len ? k->name : "";
		char ppid[24] = "-", name[17];
		size_t c;

		if (k && k->has_parent)
			snprintf(ppid, sizeof(ppid), "%llu", (unsigned long long)k->parent);
		if (csv) {
			fxt_ob_printf(o, "processes,%llu,%s,", (unsigned long long)p->pid,
				      k && k->has_parent ? ppid : "");
			fxt_ob_csv_str(o, comm);
			fxt_ob_printf(o, ",%u,%llu,%llu,%llu\n", p->threads,
				      (unsigned long long)p->run_ns,
				      (unsigned long long)p->s_ns, (unsigned long long)p->d_ns);
			continue;
		}
		for (c = 0; comm[c] && c < sizeof(name) - 1; c++)
			name[c] = (unsigned char)comm[c] < 0x20 || comm[c] == 0x7f ? '?' : comm[c];
		name[c] = 0;
		fxt_ob_printf(o, "%8llu %8s %-16s %7u", (unsigned long long)p->pid, ppid, name,
			      p->threads);
		put_ms(o, p->run_ns);
		put_ms(o, p->s_ns);
		put_ms(o, p->d_ns);
		fxt_ob_putc(o, '\n');
	}
	free(rows);
}
