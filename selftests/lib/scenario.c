// SPDX-License-Identifier: GPL-2.0
/*
 * scenario.c - scenarios run once in main() and checked by the cases
 * (scenario.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fxt.h>

#include "child.h"
#include "collector.h"
#include "dump.h"
#include "env.h"
#include "oracle.h"
#include "scenario.h"
#include "swlog.h"

int CPUS[MAX_CPUS], NCPUS;
char NOT_RUN_WHY[128];

bool scenario_setup(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	NCPUS = cpu_list(CPUS, MAX_CPUS);
	if (NCPUS == 0)
		CPUS[NCPUS++] = 0;
	if (geteuid() != 0 || access(FXT_DEVICE_PATH, F_OK)) {
		snprintf(NOT_RUN_WHY, sizeof(NOT_RUN_WHY),
			 "needs root and %s (fxt.ko loaded)", FXT_DEVICE_PATH);
		printf("# %s\n", NOT_RUN_WHY);
		return false;
	}
	return true;
}

const char *why_not(const char *why)
{
	if (why[0])
		return why;
	return NOT_RUN_WHY[0] ? NOT_RUN_WHY : "no reason recorded";
}

void crun_paths(struct crun *r, const char *name)
{
	snprintf(r->archive, sizeof(r->archive), "%s/%s.fxt", env_tmpdir(), name);
	snprintf(r->log, sizeof(r->log), "%s/%s-collect.log", env_tmpdir(), name);
	snprintf(r->dump_log, sizeof(r->dump_log), "%s/%s-dump.log", env_tmpdir(),
		 name);
}

pid_t crun_start(struct crun *r, const char *name, const char *mode,
		 const char *const *extra)
{
	crun_paths(r, name);
	return collector_start(r->archive, mode, extra, r->log, r->why,
			       sizeof(r->why));
}

void crun_stop(struct crun *r, pid_t pid)
{
	if (!child_stop(pid, 120, &r->status)) {
		snprintf(r->why, sizeof(r->why), "fxt-collect hung after SIGINT");
		r->failed = true;
		return;
	}
	r->ran = true;
}

void crun_check(struct crun *r, const uint64_t *tids, int ntids)
{
	if (!r->ran)
		return;
	r->nrows = stats_table_parse(r->log, r->rows);
	r->dump_status = dump_check(r->archive, r->dump_log, 120);
	r->scanned = !scan_archive(r->archive, tids, ntids, &r->scan);
	if (!WIFEXITED(r->status) || WEXITSTATUS(r->status))
		child_log_print("fxt-collect output", r->log, 20);
}

void crun_finish(struct crun *r, pid_t pid, const uint64_t *tids, int ntids)
{
	crun_stop(r, pid);
	crun_check(r, tids, ntids);
}

void crun_print(const char *name, const struct crun *r)
{
	printf("# %s: %s%s status 0x%x, dump 0x%x, %" PRIu64 " records\n", name,
	       r->ran ? "ran" : "did not run: ", r->ran ? "," : r->why,
	       r->status, r->dump_status, r->scan.records);
	for (int c = 0; c < MAX_CPUS; c++) {
		const struct stats_row *s = &r->rows[c];
		const struct scan_prov *p = &r->scan.prov[c];

		if (!s->present && !p->seen)
			continue;
		printf("#   cpu%d: records %" PRIu64 " dropped %" PRIu64
		       " durable %" PRIu64 " d.dropped %" PRIu64
		       " wraps %" PRIu64 " %s| archive: switches %" PRIu64
		       ", watched %" PRIu64 ", undefined refs %" PRIu64
		       ", buffer full %" PRIu64 ", dropped counter %s%" PRIu64
		       ", irq begin %" PRIu64 " end %" PRIu64
		       " mismatch %" PRIu64 " orphans %" PRIu64 "+%" PRIu64 "\n",
		       c, s->records, s->dropped, s->durable, s->d_dropped,
		       s->wraps, s->flags, p->switches, p->tid_switches,
		       p->undefined_refs, p->buffer_full,
		       p->have_dropped ? "" : "none ", p->dropped_last,
		       p->irq_begin, p->irq_end, p->nest_mismatch,
		       p->orphan_start, p->orphan_late);
	}
}

struct oracle *exits_oracle(void)
{
	struct oracle *o = oracle_open(getpid(), gettid());

	if (o && oracle_start(o)) {
		oracle_close(o);
		return NULL;
	}
	return o;
}

void wait_final_switches(struct oracle *o, uint64_t n, const char *what)
{
	uint64_t seen = oracle_wait_exits(o, n, 10);

	if (seen < n)
		printf("# %s: %llu of %llu final switches seen in 10 s\n",
		       what, (unsigned long long)seen, (unsigned long long)n);
}

uint64_t log_count(const struct swlog *l, const pid_t tids[2])
{
	uint64_t n = 0;

	for (int c = 0; c < swlog_nr_cpus(l); c++) {
		const struct swlog_entry *e;
		size_t k;

		e = swlog_cpu(l, c, &k);
		for (size_t i = 0; i < k; i++)
			if (e[i].prev == (uint32_t)tids[0] ||
			    e[i].prev == (uint32_t)tids[1] ||
			    e[i].next == (uint32_t)tids[0] ||
			    e[i].next == (uint32_t)tids[1])
				n++;
	}
	return n;
}
