// SPDX-License-Identifier: MIT
/*
 * fuzz-reader - libFuzzer target for everything that reads an archive.
 *
 * For each input:
 *  1. the reader (64 KiB buffer and a 1 MiB memory limit, so the oversized
 *     record and memory limit paths run too) decodes every record; every
 *     record decoded without a diagnostic must re-encode to exactly its
 *     own bytes (fxt_write_record), and the re-encoded stream must read
 *     back without a malformed record;
 *  2. the JSON and Perfetto conversions run over the input (time-ordered
 *     merge);
 *  3. fxt-dump (dump, --check, --json, --perfetto) and fxt-report (text, CSV, two
 *     threads) run on
 *     it, their main()s linked in as fxt_dump_main / fxt_report_main.
 * Run with -close_fd_mask=3: the tools' output is not wanted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "json.h"
#include "perfetto.h"
#include "libfxt.h"
#include "outbuf.h"

int fxt_dump_main(int argc, char **argv);
int fxt_report_main(int argc, char **argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int in_fd = -1, out_fd = -1;
static char in_path[64];
static struct fxt_record rec, rec2;
static struct outbuf ob;
static char fxt_ob_mem[4096 + OUTBUF_SLACK];

static uint64_t diag_count;

static int count_diag(void *ctx, uint64_t offset, enum fxt_diag_id id, const char *msg)
{
	(void)ctx;
	(void)offset;
	(void)id;
	(void)msg;
	diag_count++;
	return 0;
}

static void roundtrip(const uint8_t *data, size_t size)
{
	struct fxt_reader *r = fxt_reader_open_mem(data, size);
	struct fxt_writer w;
	unsigned char *out;
	off_t len;

	if (!r)
		return;
	fxt_reader_set_buffer_size(r, 64 << 10);
	fxt_reader_set_mem_limit(r, 1 << 20);
	fxt_reader_set_diag(r, count_diag, NULL);
	if (ftruncate(out_fd, 0) || lseek(out_fd, 0, SEEK_SET) || fxt_writer_init(&w, out_fd))
		abort();
	for (;;) {
		uint64_t before = diag_count;
		uint64_t start = fxt_writer_bytes(&w);

		if (fxt_reader_next(r, &rec) <= 0)
			break;
		if (rec.flags || diag_count != before)
			continue;
		/* A well-formed blob's payload is input to the power decoder. */
		if (rec.type == FXT_REC_BLOB) {
			struct fxt_power_event pe[4];

			(void)fxt_perfetto_power_events(rec.u.blob.payload,
							rec.u.blob.size, pe, 4);
		}
		if (fxt_write_record(&w, &rec))
			abort();	/* a clean record must re-encode */
		if (fxt_writer_bytes(&w) - start != rec.nwords * 8 ||
		    memcmp(w.buf + w.len - rec.nwords * 8, rec.words, rec.nwords * 8))
			abort();	/* ...to exactly its own bytes */
	}
	fxt_reader_close(r);
	if (fxt_writer_flush(&w))
		abort();
	fxt_writer_destroy(&w);

	len = lseek(out_fd, 0, SEEK_END);
	if (len <= 0)
		return;
	out = malloc((size_t)len);
	if (!out || pread(out_fd, out, (size_t)len, 0) != len)
		abort();
	r = fxt_reader_open_mem(out, (size_t)len);
	while (r && fxt_reader_next(r, &rec2) > 0)
		if (rec2.flags & FXT_RF_MALFORMED)
			abort();
	fxt_reader_close(r);
	free(out);
}

static void tool(int (*fn)(int, char **), const char *a0, const char *a1)
{
	char *argv[4];
	int argc = 0;

	argv[argc++] = (char *)a0;
	if (a1)
		argv[argc++] = (char *)a1;
	argv[argc++] = in_path;
	argv[argc] = NULL;
	optind = 0;		/* reinitialise getopt */
	fn(argc, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fxt_merge *m;

	if (in_fd < 0) {
		in_fd = memfd_create("fuzz-in", 0);
		out_fd = memfd_create("fuzz-out", 0);
		if (in_fd < 0 || out_fd < 0)
			abort();
		snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in_fd);
	}
	roundtrip(data, size);

	if (ftruncate(in_fd, 0) || pwrite(in_fd, data, size, 0) != (ssize_t)size)
		abort();
	m = fxt_merge_open(in_path);
	if (m) {
		fxt_ob_init(&ob, -1, fxt_ob_mem, 4096);	/* discard: writes fail with EBADF */
		fxt_json_convert(m, &ob, NULL);
		fxt_merge_close(m);
	}
	m = fxt_merge_open(in_path);
	if (m) {
		fxt_ob_init(&ob, -1, fxt_ob_mem, 4096);
		fxt_perfetto_convert(m, &ob, NULL);
		fxt_merge_close(m);
	}

	tool(fxt_dump_main, "fxt-dump", NULL);
	tool(fxt_dump_main, "fxt-dump", "--check");
	tool(fxt_dump_main, "fxt-dump", "--json");
	tool(fxt_dump_main, "fxt-dump", "--perfetto");
	tool(fxt_report_main, "fxt-report", NULL);
	tool(fxt_report_main, "fxt-report", "--csv");
	tool(fxt_report_main, "fxt-report", "--threads=2");
	return 0;
}
