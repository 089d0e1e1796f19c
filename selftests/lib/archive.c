// SPDX-License-Identifier: GPL-2.0
/*
 * archive.c - the selftests' own FXT record walker (see archive.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive.h"
#include "oracle.bpf.h"	/* ORACLE_DIGEST: the oracle's switch digest */

/* Bits [lo..hi] of a word, as the specification writes fields. */
#define BITS(w, lo, hi)	(((w) >> (lo)) & (~0ull >> (63 - ((hi) - (lo)))))

#define MAGIC_RECORD	0x0016547846040010ull	/* 10 00 04 46 78 54 16 00 */

enum {
	REC_METADATA = 0, REC_THREAD = 3, REC_EVENT = 4, REC_SCHED = 8,
	REC_LARGE = 15,
};
enum { META_PROVIDER_INFO = 1, META_PROVIDER_SECTION = 2, META_PROVIDER_EVENT = 3 };
enum { EVENT_COUNTER = 1 };
enum { SCHED_SWITCH = 0, SCHED_WAKEUP = 2 };

struct thread_slot {
	uint64_t koid;
	bool valid;
};

struct walker {
	struct archive_counts *c;
	const uint64_t *tids;
	int ntids;
	int cur;				/* current provider, -1: none */
	struct thread_slot (*threads)[256];	/* per provider */
};

static bool is_tid(const struct walker *w, uint64_t koid)
{
	for (int i = 0; i < w->ntids; i++)
		if (w->tids[i] == koid)
			return true;
	return false;
}

static void set_error(struct archive_counts *c, uint64_t off, const char *what)
{
	if (!c->error[0])
		snprintf(c->error, sizeof(c->error), "offset %llu: %s",
			 (unsigned long long)off, what);
}

/* A timestamped record of the current provider; false if outside one. */
static struct archive_provider *stamp(struct walker *w, uint64_t ts)
{
	struct archive_provider *p;

	if (w->cur < 0) {
		w->c->outside_provider++;
		return NULL;
	}
	p = &w->c->prov[w->cur];
	if (ts < p->last_ts)
		p->backwards++;
	else
		p->last_ts = ts;
	return p;
}

/*
 * Resolve a thread ref: 0 means an inline (process, thread) koid pair in the
 * two words after rec[*pos] (the last word consumed), else an index into the
 * provider's thread table. Return: whether the thread is one of ours.
 */
static bool thread_ref(struct walker *w, struct archive_provider *p,
		       const uint64_t *rec, unsigned int words,
		       unsigned int *pos, unsigned int ref, uint64_t off,
		       uint64_t *koid)
{
	*koid = ~0ull;
	if (ref == 0) {
		p->inline_refs++;
		if (*pos + 2 >= words) {
			set_error(w->c, off, "context switch too short for its inline threads");
			return false;
		}
		*pos += 2;
		*koid = rec[*pos];
		return is_tid(w, rec[*pos]);
	}
	p->indexed_refs++;
	if (!w->threads[w->cur][ref].valid) {
		p->unresolved++;
		return false;
	}
	*koid = w->threads[w->cur][ref].koid;
	return is_tid(w, *koid);
}

/*
 * A deferred wakeup's "waking_cpu" (records.rst, "Thread wakeup"): of the
 * arguments fxt writes on a wakeup ("weight" int32, "waker" koid), it is
 * the only uint32 (argument type 2, value in bits 32..63), so this reader
 * needs no string table to find it.
 */
static bool waking_cpu(struct walker *w, const uint64_t *rec,
		       unsigned int words, uint64_t off, unsigned int *cpu)
{
	unsigned int nargs = BITS(rec[0], 16, 19), pos = 3;

	while (nargs--) {
		unsigned int size;

		if (pos >= words)
			break;
		size = BITS(rec[pos], 4, 15);
		if (!size || pos + size > words) {
			set_error(w->c, off, "wakeup argument overruns its record");
			return false;
		}
		if (BITS(rec[pos], 0, 3) == 2) {
			*cpu = (unsigned int)(rec[pos] >> 32);
			return true;
		}
		pos += size;
	}
	return false;
}

static void walk_sched(struct walker *w, const uint64_t *rec,
		       unsigned int words, uint64_t off)
{
	uint64_t h = rec[0];
	unsigned int sub = BITS(h, 60, 63);
	struct archive_provider *p;

	if (sub != SCHED_SWITCH && sub != SCHED_WAKEUP) {
		w->c->other_sched++;
		return;
	}
	/* Both threads indexed: header and timestamp only (16 bytes). */
	if (words < (sub == SCHED_SWITCH ? 2 : 3)) {
		set_error(w->c, off, "scheduling record too short");
		return;
	}
	p = stamp(w, rec[1]);
	if (!p)
		return;
	if (sub == SCHED_SWITCH) {
		unsigned int pos = 1;
		uint64_t out_koid, in_koid;
		bool out, in;

		if (BITS(h, 16, 23) != (unsigned int)w->cur)
			p->cpu_mismatch++;
		p->all_switches++;
		/* Outgoing inline pair first, then incoming (both evaluated). */
		out = thread_ref(w, p, rec, words, &pos, BITS(h, 28, 35), off, &out_koid);
		in = thread_ref(w, p, rec, words, &pos, BITS(h, 36, 43), off, &in_koid);
		if (out || in) {
			p->switches++;
			p->switch_digest = ORACLE_DIGEST(p->switch_digest, out_koid, in_koid);
		}
	} else {
		unsigned int waking = (unsigned int)w->cur;

		if (BITS(h, 20, 35) != (unsigned int)w->cur)
			p->cpu_mismatch++;
		if (waking_cpu(w, rec, words, off, &waking))
			p->deferred_wakeups++;
		if (is_tid(w, rec[2]) && waking < ARCHIVE_MAX_PROVIDERS)
			w->c->prov[waking].wakeups++;
	}
}

static void walk_metadata(struct walker *w, uint64_t h, uint64_t off)
{
	unsigned int type = BITS(h, 16, 19);
	uint64_t id = BITS(h, 20, 51);

	if (type != META_PROVIDER_INFO && type != META_PROVIDER_SECTION &&
	    type != META_PROVIDER_EVENT)
		return;
	if (id == ARCHIVE_NAMES_PROVIDER && type == META_PROVIDER_INFO) {
		w->cur = -1;	/* fxt-collect's trailer: names only, no CPU */
		return;
	}
	if (id >= ARCHIVE_MAX_PROVIDERS) {
		set_error(w->c, off, "provider id above 255 (fxt uses provider = CPU)");
		return;
	}
	if (type == META_PROVIDER_EVENT) {
		if (BITS(h, 52, 55) == 0)
			w->c->prov[id].buffer_full++;
		return;
	}
	w->cur = (int)id;
	w->c->prov[id].seen = true;
	if ((int)id > w->c->max_provider)
		w->c->max_provider = (int)id;
}

static void walk(struct walker *w, const uint64_t *data, size_t nwords)
{
	size_t i = 0;

	w->c->magic_ok = nwords > 0 && data[0] == MAGIC_RECORD;
	while (i < nwords) {
		uint64_t h = data[i], off = i * 8;
		unsigned int type = BITS(h, 0, 3);
		uint64_t words = type == REC_LARGE ? BITS(h, 4, 35) : BITS(h, 4, 15);

		if (words == 0) {
			set_error(w->c, off, "record of size 0");
			return;
		}
		if (words > nwords - i) {
			set_error(w->c, off, "record runs past the end of the archive");
			return;
		}
		w->c->records++;
		switch (type) {
		case REC_METADATA:
			walk_metadata(w, h, off);
			break;
		case REC_THREAD:
			if (words < 3) {
				set_error(w->c, off, "thread record shorter than 3 words");
				break;
			}
			if (w->cur < 0) {
				w->c->outside_provider++;
				break;
			}
			w->threads[w->cur][BITS(h, 16, 23)].koid = data[i + 2];
			w->threads[w->cur][BITS(h, 16, 23)].valid = true;
			break;
		case REC_EVENT:
			/* The collector's drop counters carry its own clock. */
			if (words >= 2 && BITS(h, 16, 19) != EVENT_COUNTER)
				stamp(w, data[i + 1]);
			break;
		case REC_SCHED:
			walk_sched(w, &data[i], (unsigned int)words, off);
			break;
		}
		i += words;
	}
}

int archive_count(const char *path, const uint64_t *tids, int ntids,
	      struct archive_counts *c)
{
	struct walker w = { .c = c, .tids = tids, .ntids = ntids, .cur = -1 };
	struct stat st;
	void *map = NULL;
	int fd, err = 0;

	memset(c, 0, sizeof(*c));
	c->max_provider = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out;
	}
	c->bytes = st.st_size;
	if (st.st_size % 8)
		set_error(c, st.st_size & ~7ull, "archive size not a multiple of 8");
	if (st.st_size < 8) {
		set_error(c, 0, "archive shorter than one record");
		goto out;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		map = NULL;
		err = -errno;
		goto out;
	}
	w.threads = calloc(ARCHIVE_MAX_PROVIDERS, sizeof(*w.threads));
	if (!w.threads) {
		err = -ENOMEM;
		goto out;
	}
	walk(&w, map, st.st_size / 8);
out:
	free(w.threads);
	if (map)
		munmap(map, st.st_size);
	close(fd);
	return err;
}
