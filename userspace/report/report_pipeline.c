// SPDX-License-Identifier: MIT
/*
 * report_pipeline.c - fxt-report --threads 2: reading and decoding run on
 * the calling thread, the analysis (report_apply_block()) on a second
 * one; blocks of BLOCK_EVENTS events travel through a ring of NBLOCKS.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "report_stats.h"

#define NBLOCKS		4

/* Shared lines first, then the reading side's own: no false sharing. */
struct pipeline {
	_Alignas(64) pthread_mutex_t mu;
	pthread_cond_t cv;
	struct ev *blocks[NBLOCKS];
	unsigned int count[NBLOCKS];
	unsigned int head, filled;	/* consumer's next block, blocks ready */
	bool done;
	struct report *rp;
	_Alignas(64) unsigned int tail;	/* reading side: the block it fills */
	pthread_t thread;
};

static void *analysis(void *arg)
{
	struct pipeline *p = arg;
	struct report *rp = p->rp;
	struct ev *blk;
	unsigned int n;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		while (!p->filled && !p->done)
			pthread_cond_wait(&p->cv, &p->mu);
		if (!p->filled) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		blk = p->blocks[p->head];
		n = p->count[p->head];
		pthread_mutex_unlock(&p->mu);

		/* Only locals and the block here: the other thread's lines stay put. */
		report_apply_block(rp, blk, n);

		pthread_mutex_lock(&p->mu);
		p->head = (p->head + 1) % NBLOCKS;
		p->filled--;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

static void pipeline_free(struct pipeline *p)
{
	unsigned int k;

	for (k = 0; k < NBLOCKS; k++)
		free(p->blocks[k]);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	free(p);
}

struct pipeline *pipeline_start(struct report *rp)
{
	struct pipeline *p = aligned_alloc(64, sizeof(*p));
	unsigned int k;

	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->rp = rp;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	for (k = 0; k < NBLOCKS; k++) {
		p->blocks[k] = malloc(BLOCK_EVENTS * sizeof(struct ev));
		if (!p->blocks[k])
			goto fail;
	}
	if (pthread_create(&p->thread, NULL, analysis, p))
		goto fail;
	return p;
fail:
	pipeline_free(p);
	return NULL;
}

struct ev *pipeline_block(struct pipeline *p)
{
	return p->blocks[p->tail];
}

void pipeline_submit(struct pipeline *p, unsigned int n)
{
	pthread_mutex_lock(&p->mu);
	p->count[p->tail] = n;
	p->filled++;
	pthread_cond_broadcast(&p->cv);
	while (p->filled == NBLOCKS)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	p->tail = (p->tail + 1) % NBLOCKS;
}

void pipeline_stop(struct pipeline *p)
{
	pthread_mutex_lock(&p->mu);
	p->done = true;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	pipeline_free(p);
}
