// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace -o FILE [-a]: attach rbtrace.bpf.c (sched_switch; with -a also
 * wakeups, IRQs, softirqs and x86 interrupt vectors), drain the ring buffer into FILE until
 * SIGINT/SIGTERM. Prints "rbtrace: tracing started" on stderr once attached,
 * and at the end "rbtrace: events=N lost=L bytes=B".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "rbtrace.h"
#include "rbtrace.skel.h"

static volatile sig_atomic_t stop;
static FILE *out;
static unsigned long long bytes;

static void on_sig(int s)
{
	(void)s;
	stop = 1;
}

static int on_event(void *ctx, void *data, size_t len)
{
	(void)ctx;
	if (fwrite(data, len, 1, out) != 1)
		return -EIO;
	bytes += len;
	return 0;
}

static unsigned long long sum(int fd, __u32 key)
{
	int n = libbpf_num_possible_cpus();
	unsigned long long v[n > 0 ? n : 1], s = 0;

	if (n <= 0 || bpf_map_lookup_elem(fd, &key, v))
		return 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	struct rbtrace_bpf *skel;
	struct ring_buffer *rb;
	int all = 0, c, err;

	while ((c = getopt(argc, argv, "o:a")) != -1) {
		if (c == 'o')
			path = optarg;
		else if (c == 'a')
			all = 1;
		else
			return 2;
	}
	if (!path) {
		fprintf(stderr, "usage: rbtrace -o FILE [-a]\n");
		return 2;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return 1;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 20);
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	skel = rbtrace_bpf__open();
	if (!skel)
		return 1;
	if (!all) {
		struct bpf_program *p;

		bpf_object__for_each_program(p, skel->obj)
			if (p != skel->progs.rb_switch)
				bpf_program__set_autoload(p, false);
	}
	err = rbtrace_bpf__load(skel);
	if (!err)
		err = rbtrace_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "rbtrace: load/attach failed: %d\n", err);
		return 1;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.rb), on_event, NULL, NULL);
	if (!rb)
		return 1;
	fprintf(stderr, "rbtrace: tracing started\n");
	while (!stop) {
		err = ring_buffer__poll(rb, 20);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "rbtrace: poll: %d\n", err);
			break;
		}
	}
	rbtrace_bpf__detach(skel);
	while (ring_buffer__consume(rb) > 0)
		;
	fflush(out);
	fprintf(stderr, "rbtrace: events=%llu lost=%llu bytes=%llu\n",
		sum(bpf_map__fd(skel->maps.counts), 0),
		sum(bpf_map__fd(skel->maps.counts), 1), bytes);
	fclose(out);
	ring_buffer__free(rb);
	rbtrace_bpf__destroy(skel);
	return 0;
}
