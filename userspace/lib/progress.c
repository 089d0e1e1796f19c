// SPDX-License-Identifier: MIT
/*
 * progress.c - the tools' progress indicator (progress.h).
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define REDRAW_SECONDS	0.25

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void put(const struct progress *p, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(p->fd, s, n);

		if (w <= 0)
			return;		/* a progress line is not worth an error */
		s += w;
		n -= (size_t)w;
	}
}

void fxt_progress_init(struct progress *p, const char *prog, int fd, uint64_t total,
		   uint64_t min_bytes, bool allowed)
{
	p->on = allowed && total > min_bytes && isatty(fd);
	p->shown = false;
	p->fd = fd;
	p->prog = prog;
	p->total = total;
	p->next = 0;
	p->next_tick = 0;
	if (p->on)
		fxt_progress_show(p, 0);
}

void fxt_progress_show(struct progress *p, uint64_t done)
{
	char line[128];
	double t;
	int n;

	if (!p->on)
		return;
	p->next = done + PROGRESS_STEP;
	t = now();
	if (t < p->next_tick)
		return;
	p->next_tick = t + REDRAW_SECONDS;
	if (done > p->total)
		done = p->total;
	n = snprintf(line, sizeof(line), "\r%s: %3u%% (%llu of %llu MiB)", p->prog,
		     (unsigned int)(p->total ? done * 100 / p->total : 100),
		     (unsigned long long)(done >> 20), (unsigned long long)(p->total >> 20));
	if (n > 0)
		put(p, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	p->shown = true;
}

void fxt_progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	put(p, "\r\033[K", 4);
	p->shown = false;
	p->next_tick = 0;	/* draw again at the next update */
}

void fxt_progress_end(struct progress *p)
{
	fxt_progress_clear(p);
	p->on = false;
}
