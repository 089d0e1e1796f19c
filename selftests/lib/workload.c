// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - threads that switch on purpose (workload.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"
#include "workload.h"

struct pair_thr {
	pthread_t th;
	bool leader;
	volatile bool *stop;
	int rfd, wfd, cpu;
	unsigned long rounds;
	unsigned long done;	/* rounds completed, atomic */
	pid_t tid;
	int err;
};

static void *pair_main(void *arg)
{
	struct pair_thr *t = arg;
	char b = 0;

	t->tid = gettid();
	cpu_pin(0, t->cpu);
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
		__atomic_store_n(&t->done, i + 1, __ATOMIC_RELAXED);
	}
	close(t->wfd);		/* unblocks the peer if we stopped early */
	return NULL;
}

struct workload_bg {
	volatile bool stop;
	struct pair_thr t[2];
	int p1[2], p2[2];
	int started;
};

unsigned long workload_bg_rounds(struct workload_bg *bg)
{
	return __atomic_load_n(&bg->t[0].done, __ATOMIC_RELAXED);
}

struct workload_bg *workload_pingpong_bg(unsigned long rounds, int cpu_a, int cpu_b)
{
	struct workload_bg *bg = calloc(1, sizeof(*bg));

	if (!bg)
		return NULL;
	if (pipe2(bg->p1, O_CLOEXEC) || pipe2(bg->p2, O_CLOEXEC)) {
		free(bg);
		return NULL;
	}
	bg->t[0] = (struct pair_thr){ .leader = true, .wfd = bg->p1[1],
				    .rfd = bg->p2[0], .cpu = cpu_a,
				    .rounds = rounds, .stop = &bg->stop };
	bg->t[1] = (struct pair_thr){ .leader = false, .wfd = bg->p2[1],
				    .rfd = bg->p1[0], .cpu = cpu_b,
				    .rounds = rounds, .stop = &bg->stop };
	for (int i = 0; i < 2; i++) {
		if (pthread_create(&bg->t[i].th, NULL, pair_main, &bg->t[i]))
			break;
		bg->started++;
	}
	if (bg->started == 1)
		close(bg->p2[1]);	/* the leader's read sees EOF */
	return bg;
}

void workload_bg_stop(struct workload_bg *bg)
{
	if (bg)
		__atomic_store_n(&bg->stop, true, __ATOMIC_RELAXED);
}

int workload_bg_join(struct workload_bg *bg, pid_t tids[2])
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

int workload_pingpong(unsigned long rounds, int cpu_a, int cpu_b, pid_t tids[2])
{
	return workload_bg_join(workload_pingpong_bg(rounds, cpu_a, cpu_b), tids);
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

	cpu_pin(0, t->cpu);
	for (unsigned long i = 0; i < t->iters; i++)
		nanosleep(&d, NULL);
	return NULL;
}

int workload_sleepers(int n, unsigned long iters, long ns, const int *cpus, int ncpus)
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
