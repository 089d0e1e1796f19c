// SPDX-License-Identifier: MIT
/*
 * unit-tests - host unit tests of libfxt (run under ASan and UBSan).
 *
 * Each TEST() is one test; it passes when none of its EXPECT()s failed.
 * The last line is "N passed, M failed" (tests/run-tests.sh adds it up).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fxt/perfetto_blob.h>

#include "archives.h"
#include "command.h"
#include "device.h"
#include "hist.h"
#include "irq_levels.h"
#include "libfxt.h"
#include "name_history.h"
#include "name_intern.h"
#include "options.h"
#include "outbuf.h"
#include "progress.h"
#include "report.h"

static unsigned int passed, failed, expect_failures;
static const char *current;

#define EXPECT(cond)							\
	do {								\
		if (!(cond)) {						\
			expect_failures++;				\
			fprintf(stderr, "FAIL %s: %s:%d: %s\n", current,	\
				__FILE__, __LINE__, #cond);		\
		}							\
	} while (0)

#define EXPECT_EQ_U(a, b)						\
	do {								\
		unsigned long long _a = (a), _b = (b);			\
		if (_a != _b) {						\
			expect_failures++;				\
			fprintf(stderr, "FAIL %s: %s:%d: %s == %llu, expected %llu\n", \
				current, __FILE__, __LINE__, #a, _a, _b);	\
		}							\
	} while (0)

static void run(const char *name, void (*fn)(void))
{
	unsigned int before = expect_failures;

	current = name;
	fn();
	if (expect_failures == before) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "FAILED: %s\n", name);
	}
}

/* ------------------------------------------------------------------ */
/* Helpers.                                                             */

struct blob {
	unsigned char *data;
	size_t len;
};

/* Run build into a memory file and return its bytes. */
static struct blob build(void (*fn)(struct fxt_writer *w))
{
	struct blob b = { NULL, 0 };
	struct fxt_writer w;
	int fd = memfd_create("fxt-test", 0);
	struct stat st;

	if (fd < 0 || fxt_writer_init(&w, fd))
		return b;
	fn(&w);
	EXPECT(fxt_writer_flush(&w) == 0);
	fxt_writer_destroy(&w);
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		b.len = (size_t)st.st_size;
		b.data = malloc(b.len);
		if (b.data && pread(fd, b.data, b.len, 0) != (ssize_t)b.len) {
			free(b.data);
			b.data = NULL;
			b.len = 0;
		}
	}
	close(fd);
	return b;
}

static struct blob build_case(const struct tcase *t)
{
	return build(t->build);
}

struct diags {
	uint64_t count[FXT_D_COUNT];
	uint64_t total;
	uint64_t last_offset;
	char last[512];
	char log[16384];	/* every message, one per line (as much as fits) */
	size_t loglen;
};

static uint64_t seen_ids[FXT_D_COUNT];	/* every id reported in any test */

static int collect(void *ctx, uint64_t offset, enum fxt_diag_id id, const char *msg)
{
	struct diags *d = ctx;

	d->count[id]++;
	d->total++;
	d->last_offset = offset;
	snprintf(d->last, sizeof(d->last), "%s", msg);
	if (d->loglen < sizeof(d->log) - 1) {
		int n = snprintf(d->log + d->loglen, sizeof(d->log) - d->loglen, "%s\n", msg);

		if (n > 0)
			d->loglen += (size_t)n;
		if (d->loglen > sizeof(d->log) - 1)
			d->loglen = sizeof(d->log) - 1;
	}
	seen_ids[id]++;
	return 0;
}

static struct fxt_reader *open_blob(struct blob b, struct diags *d)
{
	struct fxt_reader *r = fxt_reader_open_mem(b.data, b.len);

	if (r && d) {
		memset(d, 0, sizeof(*d));
		fxt_reader_set_diag(r, collect, d);
	}
	return r;
}

/* Read everything; returns records read and the last return value. */
static uint64_t read_all(struct fxt_reader *r, int *last)
{
	struct fxt_record *rec = malloc(sizeof(*rec));
	uint64_t n = 0;
	int rc;

	while ((rc = fxt_reader_next(r, rec)) > 0)
		n++;
	*last = rc;
	free(rec);
	return n;
}

/* ------------------------------------------------------------------ */
/* Writer.                                                              */

static void magic_bytes(struct fxt_writer *w)
{
	fxt_write_magic(w);
}

static void test_writer_magic(void)
{
	static const unsigned char want[8] = { 0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00 };
	struct blob b = build(magic_bytes);

	EXPECT(b.len == 8 && !memcmp(b.data, want, 8));
	free(b.data);
}

static void test_writer_invalid_args(void)
{
	struct fxt_writer w;
	char big[FXT_STRING_MAX_LEN + 2];
	int fd = memfd_create("fxt-test", 0);
	uint64_t word = 0;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	EXPECT(fxt_writer_init(&w, fd) == 0);
	EXPECT(fxt_write_string(&w, 0, "a", 1) == -EINVAL);
	EXPECT(fxt_write_string(&w, 1, big, sizeof(big) - 1) == -EINVAL);
	EXPECT(fxt_write_thread(&w, 0, 1, 2) == -EINVAL);
	EXPECT(fxt_write_raw(&w, &word, 5) == -EINVAL);
	EXPECT(fxt_write_switch(&w, 256, 0, 0, fxt_thread_index(1), 0,
				fxt_thread_index(2), 0) == -EINVAL);
	EXPECT(fxt_write_event(&w, 11, 0, fxt_thread_index(1), fxt_str(""), fxt_str(""),
			       NULL, 0, 0) == -EINVAL);
	EXPECT(fxt_write_provider_event(&w, 1, 16) == -EINVAL);
	/* Not sticky, nothing written. */
	EXPECT(fxt_writer_error(&w) == 0);
	EXPECT_EQ_U(fxt_writer_bytes(&w), 0);
	EXPECT(fxt_write_magic(&w) == 0);
	EXPECT_EQ_U(fxt_writer_bytes(&w), 8);
	/* A record over 4095 words. */
	{
		struct fxt_arg a[FXT_MAX_ARGS];
		unsigned int i;

		for (i = 0; i < FXT_MAX_ARGS; i++)
			a[i] = fxt_arg_string(fxt_str(big + 1), fxt_str(big + 1));
		EXPECT(fxt_write_event(&w, 0, 0, fxt_thread_index(1), fxt_str(""),
				       fxt_str(""), a, FXT_MAX_ARGS, 0) == -E2BIG);
	}
	EXPECT_EQ_U(fxt_writer_bytes(&w), 8);
	fxt_writer_destroy(&w);
	close(fd);
}

static void test_writer_sticky_error(void)
{
	struct fxt_writer w;
	int fd = open("/dev/full", O_WRONLY);
	unsigned int i;
	int err = 0;

	if (fd < 0)
		return;
	EXPECT(fxt_writer_init(&w, fd) == 0);
	for (i = 0; i < 200000 && !err; i++)
		err = fxt_write_init(&w, i);
	if (!err)
		err = fxt_writer_flush(&w);
	EXPECT(err == -ENOSPC);
	EXPECT(fxt_writer_error(&w) == -ENOSPC);
	EXPECT(fxt_write_magic(&w) == -ENOSPC);
	EXPECT(fxt_writer_flush(&w) == -ENOSPC);
	fxt_writer_destroy(&w);
	close(fd);
}

/*
 * A failed write leaves the file ending on a whole record: in a child with
 * a 100-byte file size limit, a flush of 320 bytes after 8 already written
 * is cut short (EFBIG) and the file is cut back to 8 bytes, whether the file
 * is written at its offset or with O_APPEND.
 */
static int truncate_child(void)
{
	char path[] = "/tmp/fxt-unit-XXXXXX";
	struct rlimit lim = { 100, 100 };
	struct fxt_writer w;
	struct stat st;
	unsigned int i;
	int fd = mkstemp(path), err;

	if (fd < 0)
		return 10;
	unlink(path);
	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &lim) || fxt_writer_init(&w, fd))
		return 13;
	fxt_write_magic(&w);
	if (fxt_writer_flush(&w))
		return 14;
	for (i = 1; i <= 20; i++)
		fxt_write_string(&w, (uint16_t)i, "abcdefgh", 8);
	err = fxt_writer_flush(&w);
	if (err != -EFBIG)
		return 15;
	if (fstat(fd, &st) || st.st_size != 8)
		return 16;
	fxt_writer_destroy(&w);
	return 0;
}

static int truncate_child_append(void)
{
	char path[] = "/tmp/fxt-unit-XXXXXX";
	struct rlimit lim = { 100, 100 };
	uint64_t magic = FXT_MAGIC_RECORD;
	struct fxt_writer w;
	struct stat st;
	unsigned int i;
	int fd = mkstemp(path), afd;

	if (fd < 0 || write(fd, &magic, 8) != 8)
		return 20;
	afd = open(path, O_WRONLY | O_APPEND);	/* offset 0, end of file 8 */
	unlink(path);
	if (afd < 0)
		return 21;
	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &lim) || fxt_writer_init(&w, afd))
		return 22;
	for (i = 1; i <= 20; i++)
		fxt_write_string(&w, (uint16_t)i, "abcdefgh", 8);
	if (fxt_writer_flush(&w) != -EFBIG)
		return 23;
	if (fstat(fd, &st) || st.st_size != 8)
		return 24;	/* not 0: the earlier content survives */
	fxt_writer_destroy(&w);
	return 0;
}

static void test_writer_truncates_on_error(void)
{
	int (*const children[])(void) = { truncate_child, truncate_child_append };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		int status = 0;
		pid_t pid = fork();

		if (pid == 0)
			_exit(children[i]());
		EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			fprintf(stderr, "  child %u: status 0x%x\n", i, status);
		EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

static void big_raw(struct fxt_writer *w)
{
	size_t n = (FXT_WRITER_BUFSIZE / 8) + 3, i;
	uint64_t *v = calloc(n, 8);

	fxt_write_magic(w);
	for (i = 0; v && i < n; i++)
		v[i] = fxt_init_header() | 0;	/* pairs of init records... */
	/* ...well-formed: init header then ticks */
	for (i = 0; v && i + 1 < n; i += 2)
		v[i + 1] = 1000;
	if (v)
		fxt_write_raw(w, v, (n & ~(size_t)1) * 8);
	fxt_write_provider_info(w, 0, "after");
	free(v);
}

static void test_writer_raw_large(void)
{
	struct blob b = build(big_raw);
	size_t n = ((FXT_WRITER_BUFSIZE / 8) + 3) & ~(size_t)1;

	EXPECT_EQ_U(b.len, 8 + n * 8 + 16);
	EXPECT(b.len > 16 && !memcmp(b.data + b.len - 8, "after\0\0\0", 8));
	free(b.data);
}

/* ------------------------------------------------------------------ */
/* Reader: round trip, golden archives, defects.                        */

/* Every record of the archive re-encoded by the writer is the same bytes. */
static void roundtrip(const char *name)
{
	const struct tcase *t = tcase_find(name);
	struct blob b = build_case(t);
	struct fxt_reader *r = open_blob(b, NULL);
	struct fxt_record *rec = malloc(sizeof(*rec));
	struct fxt_writer w;
	int fd = memfd_create("fxt-rt", 0);
	unsigned char *out;
	struct stat st;
	int rc;

	EXPECT(fxt_writer_init(&w, fd) == 0);
	while ((rc = fxt_reader_next(r, rec)) > 0) {
		int err = fxt_write_record(&w, rec);

		if (err)
			fprintf(stderr, "  %s: record at 0x%llx: %d\n", name,
				(unsigned long long)rec->offset, err);
		EXPECT(err == 0);
	}
	EXPECT(rc == 0);
	EXPECT(fxt_writer_flush(&w) == 0);
	fxt_writer_destroy(&w);
	EXPECT(fstat(fd, &st) == 0);
	EXPECT_EQ_U((uint64_t)st.st_size, b.len);
	out = malloc(b.len);
	EXPECT(out && pread(fd, out, b.len, 0) == (ssize_t)b.len);
	EXPECT(out && !memcmp(out, b.data, b.len));
	free(out);
	close(fd);
	free(rec);
	fxt_reader_close(r);
	free(b.data);
}

static void test_roundtrip_all_types(void)
{
	roundtrip("all-types");
}

static void test_roundtrip_basic(void)
{
	roundtrip("basic");
}

/* Decoded values of every argument type, as written. */
static void test_decode_values(void)
{
	struct blob b = build_case(tcase_find("all-types"));
	struct fxt_reader *r = open_blob(b, NULL);
	struct fxt_record *rec = malloc(sizeof(*rec));
	bool found = false, sw = false, lb = false;

	while (fxt_reader_next(r, rec) > 0) {
		if (rec->type == FXT_REC_EVENT && rec->subtype == FXT_EVENT_INSTANT &&
		    rec->nargs == FXT_MAX_ARGS) {
			const struct fxt_arg *a = rec->args;

			found = true;
			EXPECT(rec->ts == 1000);
			EXPECT(rec->u.event.thread.ref == 1 && rec->u.event.thread.tid == 11 &&
			       rec->u.event.thread.pid == 10);
			EXPECT(rec->u.event.category.len == 3 &&
			       !memcmp(rec->u.event.category.data, "cat", 3));
			EXPECT(a[0].type == FXT_ARG_NULL);
			EXPECT(a[1].type == FXT_ARG_INT32 && a[1].v.i32 == -5);
			EXPECT(a[2].type == FXT_ARG_UINT32 && a[2].v.u32 == 0xfffffffeu);
			EXPECT(a[3].type == FXT_ARG_INT64 && a[3].v.i64 == INT64_MIN);
			EXPECT(a[4].type == FXT_ARG_UINT64 && a[4].v.u64 == UINT64_MAX);
			EXPECT(a[5].type == FXT_ARG_DOUBLE && a[5].v.f64 == 3.25);
			EXPECT(a[6].type == FXT_ARG_STRING && a[6].v.str.len == 15 &&
			       !memcmp(a[6].v.str.data, "inline \"value\"\n", 15));
			EXPECT(a[7].name.ref == 3 && a[7].v.str.ref == 2 &&
			       !memcmp(a[7].v.str.data, "name", 4));
			EXPECT(a[8].type == FXT_ARG_POINTER && a[8].v.ptr == 0xdeadbeef);
			EXPECT(a[9].type == FXT_ARG_KOID && a[9].v.koid == 11);
			EXPECT(a[10].type == FXT_ARG_BOOL && a[10].v.b);
			EXPECT(a[11].type == FXT_ARG_BOOL && !a[11].v.b);
			EXPECT(a[12].type == FXT_ARG_STRING && a[12].v.str.len == 0 &&
			       a[12].v.str.ref == 0);
			EXPECT(a[13].name.ref == 0x7fff && a[13].name.len == 10);
			EXPECT(a[14].v.f64 == 1e-300);
		}
		if (rec->type == FXT_REC_SCHED && rec->subtype == FXT_SCHED_CONTEXT_SWITCH &&
		    rec->ts == 3100) {
			sw = true;
			EXPECT(rec->u.sw.cpu == 3 && rec->u.sw.out_state == FXT_THREAD_SUSPENDED);
			EXPECT(rec->u.sw.out.ref == 0 && rec->u.sw.out.tid == 12);
			EXPECT(rec->u.sw.in.ref == 255 && rec->u.sw.in.tid == 12);
			EXPECT(rec->u.sw.out_prio == 30 && rec->u.sw.in_prio == 1);
		}
		if (rec->type == FXT_REC_LARGE && rec->u.lblob.format == 0) {
			lb = true;
			EXPECT(rec->u.lblob.size == 13 &&
			       !memcmp(rec->u.lblob.payload, "blob payload", 13));
			EXPECT(rec->ts == 3700 && rec->u.lblob.thread.tid == 12);
		}
	}
	EXPECT(found && sw && lb);
	{
		const struct fxt_kobj_info *k = fxt_reader_kobj(r, FXT_OBJ_THREAD, 12);

		EXPECT(k && !strcmp(k->name, "helper") && k->process == 10 &&
		       k->obj_type == FXT_OBJ_THREAD);
		EXPECT(fxt_reader_kobj(r, FXT_OBJ_THREAD, 12345) == NULL);
	}
	EXPECT(fxt_reader_diag_count(r) == 0);
	free(rec);
	fxt_reader_close(r);
	free(b.data);
}

/* Golden archives read without a single diagnostic, from memory and fd alike. */
static void test_golden_clean(void)
{
	unsigned int i;

	for (i = 0; i < ntcases; i++) {
		const struct tcase *t = &tcases[i];
		struct blob b;
		struct diags d;
		struct fxt_reader *r;
		uint64_t n1, n2;
		int rc, fd;

		if (t->kind != T_GOLDEN)
			continue;
		b = build_case(t);
		r = open_blob(b, &d);
		n1 = read_all(r, &rc);
		EXPECT(rc == 0);
		if (d.total)
			fprintf(stderr, "  %s: %s\n", t->name, d.last);
		EXPECT_EQ_U(d.total, 0);
		fxt_reader_close(r);

		fd = memfd_create("fxt", 0);
		EXPECT(write(fd, b.data, b.len) == (ssize_t)b.len);
		lseek(fd, 0, SEEK_SET);
		r = fxt_reader_open_fd(fd);
		n2 = read_all(r, &rc);
		EXPECT(rc == 0 && n1 == n2);
		EXPECT_EQ_U(fxt_reader_size(r), b.len);
		EXPECT_EQ_U(fxt_reader_offset(r), b.len);
		fxt_reader_close(r);
		close(fd);
		free(b.data);
	}
}

/*
 * Duration nesting is checked only when asked (fxt-dump --check): then the
 * golden archives warn once, for basic's interrupt end on CPU 1 whose
 * begin was closed before. Its memory counts against the reader's limit.
 */
static void many_threads(struct fxt_writer *w)
{
	uint64_t tid;

	fxt_write_magic(w);
	fxt_write_provider_info(w, 0, "app");
	for (tid = 1; tid <= 300; tid++)
		fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, tid, fxt_thread_inline(1, tid),
				fxt_str("c"), fxt_str("n"), NULL, 0, 0);
}

static void test_duration_nesting(void)
{
	unsigned int i;
	struct fxt_reader *r;
	struct diags d;
	struct blob b;
	int rc;

	for (i = 0; i < ntcases; i++) {
		const struct tcase *t = &tcases[i];
		bool basic = !strcmp(t->name, "basic");

		if (t->kind != T_GOLDEN)
			continue;
		b = build_case(t);
		r = open_blob(b, &d);
		fxt_reader_check_durations(r, true);
		read_all(r, &rc);
		EXPECT(rc == 0);
		EXPECT_EQ_U(d.count[FXT_D_DURATION_UNMATCHED], basic);
		EXPECT_EQ_U(d.total, basic);
		if (basic)
			EXPECT(strstr(d.last, "\"irq\" \"local_timer\" on thread 1073741826"));
		fxt_reader_close(r);
		free(b.data);
	}
	b = build(many_threads);
	r = open_blob(b, &d);
	fxt_reader_check_durations(r, true);
	fxt_reader_set_mem_limit(r, 64 << 10);
	read_all(r, &rc);
	EXPECT(rc == 0);
	EXPECT_EQ_U(d.count[FXT_D_MEMORY_LIMIT], 1);
	EXPECT(strstr(d.last, "duration levels no longer recorded"));
	fxt_reader_close(r);
	free(b.data);
}

/* Each defective archive reports exactly the diagnostics it lists. */
static void test_check_cases(void)
{
	unsigned int i, k;

	for (i = 0; i < ntcases; i++) {
		const struct tcase *t = &tcases[i];
		bool want[FXT_D_COUNT] = { false };
		struct blob b;
		struct diags d;
		struct fxt_reader *r;
		int rc;

		if (t->kind != T_CHECK)
			continue;
		b = build_case(t);
		r = open_blob(b, &d);
		fxt_reader_check_durations(r, true);	/* as fxt-dump --check */
		fxt_reader_check_sleeps(r, true);
		if (t->bufsize)
			EXPECT(fxt_reader_set_buffer_size(r, t->bufsize) == 0);
		if (t->memlimit)
			fxt_reader_set_mem_limit(r, t->memlimit);
		read_all(r, &rc);
		for (k = 0; k < t->nexpect; k++)
			want[t->expect[k]] = true;
		for (k = 0; k < FXT_D_COUNT; k++) {
			if (want[k] != (d.count[k] > 0)) {
				fprintf(stderr, "  %s: %s %s (count %llu)\n", t->name,
					fxt_diag_name(k), want[k] ? "missing" : "unexpected",
					(unsigned long long)d.count[k]);
				EXPECT(want[k] == (d.count[k] > 0));
			}
		}
		/* Each variant the case lists is reported: the message says which. */
		for (k = 0; k < TCASE_MAX_MSGS && t->msgs[k]; k++) {
			if (!strstr(d.log, t->msgs[k])) {
				fprintf(stderr, "  %s: no diagnostic says \"%s\"\n", t->name,
					t->msgs[k]);
				EXPECT(strstr(d.log, t->msgs[k]));
			}
		}
		if (t->count)
			EXPECT_EQ_U(d.total, t->count);
		fxt_reader_close(r);
		free(b.data);
	}
}

/* Reading a directory fails with a read error, not a crash. */
static void test_io_error(void)
{
	struct fxt_reader *r = fxt_reader_open("/");
	struct diags d;
	int rc;

	memset(&d, 0, sizeof(d));
	EXPECT(r != NULL);
	if (!r)
		return;
	fxt_reader_set_diag(r, collect, &d);
	read_all(r, &rc);
	EXPECT(rc == -1);
	EXPECT(d.count[FXT_D_IO_ERROR] == 1);
	fxt_reader_close(r);
}

/* Cut the basic archive at every length: what precedes the cut is intact. */
static void test_truncation(void)
{
	struct blob b = build_case(tcase_find("basic"));
	struct fxt_record *rec = malloc(sizeof(*rec));
	uint64_t offsets[256], ends[256];
	unsigned int n = 0, i;
	struct fxt_reader *r = open_blob(b, NULL);
	size_t cut;

	while (n < 256 && fxt_reader_next(r, rec) > 0) {
		offsets[n] = rec->offset;
		ends[n++] = rec->offset + rec->nwords * 8;
	}
	fxt_reader_close(r);
	for (cut = 0; cut < b.len; cut++) {
		struct diags d;
		unsigned int got = 0;
		bool boundary = false;
		int rc;

		r = fxt_reader_open_mem(b.data, cut);
		memset(&d, 0, sizeof(d));
		fxt_reader_set_diag(r, collect, &d);
		while ((rc = fxt_reader_next(r, rec)) > 0) {
			EXPECT(got < n && rec->offset == offsets[got]);
			got++;
		}
		EXPECT(rc == 0);
		for (i = 0; i < n; i++)
			if (ends[i] == cut || cut == 0)
				boundary = true;
		/* All records ending before the cut were read... */
		for (i = 0; i < n && ends[i] <= cut; i++)
			;
		EXPECT_EQ_U(got, i);
		/*
		 * ...and one warning when the cut is inside a record; nothing
		 * at all is not an archive: no magic number record.
		 */
		EXPECT_EQ_U(d.count[FXT_D_TRUNCATED], boundary ? 0 : 1);
		EXPECT_EQ_U(d.count[FXT_D_NO_MAGIC], cut == 0);
		EXPECT_EQ_U(d.total, d.count[FXT_D_TRUNCATED] + d.count[FXT_D_NO_MAGIC]);
		if (!boundary)
			EXPECT(strstr(d.last, "truncated record at offset 0x") == d.last);
		fxt_reader_close(r);
	}
	free(rec);
	free(b.data);
}

/* Provider state is per provider: re-announcing an id starts it over. */
static void providers(struct fxt_writer *w)
{
	fxt_write_magic(w);
	fxt_write_provider_info(w, 1, "one");
	fxt_write_init(w, 1000);
	fxt_write_string(w, 1, "one-string", 10);
	fxt_write_thread(w, 1, 5, 6);
	fxt_write_provider_info(w, 2, "two");
	fxt_write_string(w, 1, "two-string", 10);
	fxt_write_provider_section(w, 1);
	fxt_write_event(w, 0, 5, fxt_thread_index(1), fxt_str_index(1), fxt_str(""), NULL, 0, 0);
	fxt_write_provider_section(w, 2);
	fxt_write_event(w, 0, 5, fxt_thread_inline(1, 2), fxt_str_index(1), fxt_str(""),
			NULL, 0, 0);
	fxt_write_provider_info(w, 1, "one again");
	fxt_write_event(w, 0, 5, fxt_thread_index(1), fxt_str_index(1), fxt_str(""), NULL, 0, 0);
}

static void test_providers(void)
{
	struct blob b = build(providers);
	struct diags d;
	struct fxt_reader *r = open_blob(b, &d);
	struct fxt_record *rec = malloc(sizeof(*rec));
	int events = 0;

	while (fxt_reader_next(r, rec) > 0) {
		if (rec->type != FXT_REC_EVENT)
			continue;
		events++;
		if (events == 1) {
			EXPECT(rec->provider == 1);
			EXPECT(rec->u.event.category.data &&
			       !memcmp(rec->u.event.category.data, "one-string", 10));
			EXPECT(rec->u.event.thread.tid == 6);
			EXPECT_EQ_U(fxt_reader_ticks_to_ns(r, 5), 5000000);
		} else if (events == 2) {
			EXPECT(rec->provider == 2);
			EXPECT(rec->u.event.category.data &&
			       !memcmp(rec->u.event.category.data, "two-string", 10));
			EXPECT_EQ_U(fxt_reader_ticks_to_ns(r, 5), 5);
		} else {
			/* fresh state: index 1 and thread 1 gone, 1 tick = 1 ns */
			EXPECT(rec->u.event.category.data == NULL);
			EXPECT(!rec->u.event.thread.defined);
			EXPECT_EQ_U(fxt_reader_ticks_to_ns(r, 5), 5);
			EXPECT(!strcmp(fxt_reader_provider_name(r, 1), "one again"));
		}
	}
	EXPECT(events == 3);
	EXPECT_EQ_U(d.count[FXT_D_STRING_UNDEFINED], 1);
	EXPECT_EQ_U(d.count[FXT_D_THREAD_UNDEFINED], 1);
	EXPECT_EQ_U(d.total, 2);
	free(rec);
	fxt_reader_close(r);
	free(b.data);
}

/* Write a test archive to a file; its path goes to path (PATH_MAX). */
static int archive_file(const char *name, char *path)
{
	int fd;

	strcpy(path, "/tmp/fxt-unit-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (tcase_write(tcase_find(name), fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The merge hands out every record once, each provider's in its own order,
 * timestamped ones never going back, whatever the file order.
 */
static void test_merge(void)
{
	static const char *const names[] = { "cross-cpu", "basic", "all-types", "provider-unknown" };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct fxt_record *rec = malloc(sizeof(*rec));
		struct fxt_reader *r, *from;
		const struct fxt_record *mrec;
		uint64_t offsets[512], n = 0, k, last_ts = 0, seen = 0;
		char path[64];
		struct fxt_merge *m;
		struct diags d1, d2;
		int fd = archive_file(names[i], path), rc;

		EXPECT(fd >= 0);
		/* File order, for reference. */
		r = fxt_reader_open(path);
		memset(&d1, 0, sizeof(d1));
		fxt_reader_set_diag(r, collect, &d1);
		while (n < 512 && (rc = fxt_reader_next(r, rec)) > 0)
			offsets[n++] = rec->offset;
		fxt_reader_close(r);

		m = fxt_merge_open(path);
		EXPECT(m && fxt_merge_ordered(m));
		memset(&d2, 0, sizeof(d2));
		fxt_merge_set_diag(m, collect, &d2);
		while ((mrec = fxt_merge_next(m, &from))) {
			bool ts = !(mrec->flags & (FXT_RF_MALFORMED | FXT_RF_UNKNOWN)) &&
				  (mrec->type == FXT_REC_SCHED || mrec->type == FXT_REC_EVENT);

			for (k = 0; k < n && offsets[k] != mrec->offset; k++)
				;
			EXPECT(k < n);		/* a record of the file... */
			if (k < n)
				offsets[k] = UINT64_MAX;	/* ...handed out once */
			if (ts) {
				uint64_t t = fxt_reader_ticks_to_ns(from, mrec->ts);

				EXPECT(t >= last_ts);
				last_ts = t;
			}
			seen++;
		}
		EXPECT_EQ_U(seen, n);
		EXPECT_EQ_U(fxt_merge_records(m), n);
		EXPECT(fxt_merge_status(m) == 0);
		/* The same defects, whichever the order. */
		EXPECT(!memcmp(d1.count, d2.count, sizeof(d1.count)));
		if (!strcmp(names[i], "cross-cpu")) {
			const struct fxt_kobj_info *k8 = fxt_merge_kobj(m, FXT_OBJ_THREAD, 8);

			EXPECT(k8 && !strcmp(k8->name, "app-helper"));
		}
		fxt_merge_close(m);
		close(fd);
		unlink(path);
		free(rec);
	}
}

/* Bytes this process has read with read()/pread() (/proc/self/io rchar). */
static uint64_t rchar(void)
{
	unsigned long long v = 0;
	FILE *f = fopen("/proc/self/io", "r");

	if (f) {
		if (fscanf(f, "rchar: %llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/*
 * What the man pages and tools.rst say is read: the reader reads the file
 * once; the merge twice (a first pass over the whole file for the headers,
 * then every record once), plus the 8-byte look at the magic number.
 */
static void test_bytes_read(void)
{
	struct fxt_record *rec = malloc(sizeof(*rec));
	const struct fxt_record *mrec;
	struct fxt_reader *r, *from;
	struct fxt_merge *m;
	char path[64];
	struct stat st;
	uint64_t before, size, merged = 0, got, self;
	int fd = archive_file("basic", path);

	EXPECT(fd >= 0 && fstat(fd, &st) == 0);
	size = (uint64_t)st.st_size;
	before = rchar();
	self = rchar() - before;	/* what reading /proc/self/io reads */
	before = rchar();
	r = fxt_reader_open(path);
	while (fxt_reader_next(r, rec) > 0)
		;
	fxt_reader_close(r);
	got = rchar() - before - self;
	EXPECT(got + 16 >= size && got < size + 16);

	before = rchar();
	m = fxt_merge_open(path);
	EXPECT(m && fxt_merge_ordered(m) && fxt_merge_cursors(m) == 2);
	while ((mrec = fxt_merge_next(m, &from)))
		merged += mrec->nwords * 8;
	fxt_merge_close(m);
	got = rchar() - before - self;
	EXPECT_EQ_U(merged, size);
	if (got + 16 < 2 * size + 8 || got >= 2 * size + 8 + 16)
		fprintf(stderr, "  merge read %llu bytes of a %llu-byte archive\n",
			(unsigned long long)got, (unsigned long long)size);
	EXPECT(got + 16 >= 2 * size + 8 && got < 2 * size + 8 + 16);
	close(fd);
	unlink(path);
	free(rec);
}

/* Skipped arguments: no values, no value checks, sizes still checked. */
static void test_skip_args(void)
{
	static const char *const names[] = { "sched-args", "arg-overflow", "basic" };
	static const uint64_t want_overflow[] = { 0, 2, 0 };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct blob b = build_case(tcase_find(names[i]));
		struct fxt_record *rec = malloc(sizeof(*rec));
		struct diags d;
		struct fxt_reader *r = open_blob(b, &d);

		fxt_reader_skip_args(r, FXT_SKIP_SCHED_ARGS | FXT_SKIP_SPAN_ARGS);
		while (fxt_reader_next(r, rec) > 0) {
			if (rec->type == FXT_REC_SCHED && rec->subtype != FXT_SCHED_CONTEXT_SWITCH)
				EXPECT(rec->nargs == 0);
			if (rec->type == FXT_REC_EVENT && rec->subtype == FXT_EVENT_COUNTER)
				EXPECT(rec->nargs == 1);	/* not a span: decoded */
		}
		EXPECT_EQ_U(d.count[FXT_D_SCHED_ARGS], 0);
		EXPECT_EQ_U(d.count[FXT_D_ARG_OVERFLOW], want_overflow[i]);
		EXPECT_EQ_U(d.total, want_overflow[i]);
		free(rec);
		fxt_reader_close(r);
		free(b.data);
	}
}

/* ------------------------------------------------------------------ */
/* fxt-report's gaps: the loss record (report_gap_event()).             */

/* A loss record fxt/lost with the arguments given; strings inline. */
static void lost_event(struct fxt_writer *w, uint32_t provider_cpu, uint64_t from,
		       uint64_t to, const struct fxt_arg *a, unsigned int n)
{
	fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, from,
			fxt_thread_inline(FXT_KOID_IRQ_PROCESS, FXT_KOID_IRQ_THREAD(provider_cpu)),
			fxt_str(FXT_DROPPED_CATEGORY), fxt_str("lost"), a, n, to);
}

/* One event per row of gap_want, in order. */
static void gap_events(struct fxt_writer *w)
{
	struct fxt_str cpu = fxt_str("cpu"), recs = fxt_str(FXT_DROPPED_ARG_NAME);
	struct fxt_arg a[3];

	fxt_write_magic(w);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_init(w, 1000000000);
	fxt_write_string(w, 1, FXT_DROPPED_CATEGORY, strlen(FXT_DROPPED_CATEGORY));
	fxt_write_string(w, 2, "lost", 4);
	fxt_write_string(w, 3, "cpu", 3);
	fxt_write_string(w, 4, FXT_DROPPED_ARG_NAME, strlen(FXT_DROPPED_ARG_NAME));
	fxt_write_thread(w, 1, FXT_KOID_IRQ_PROCESS, FXT_KOID_IRQ_THREAD(2));
	/* as fxt-collect writes it */
	a[0] = fxt_arg_u32(cpu, 1);
	a[1] = fxt_arg_u64(recs, 42);
	lost_event(w, 1, 100, 400, a, 2);
	/* another argument first, then the two the other way round */
	a[0] = fxt_arg_string(fxt_str("why"), fxt_str("buffer full"));
	a[1] = fxt_arg_u64(recs, 7);
	a[2] = fxt_arg_u32(cpu, 3);
	lost_event(w, 3, 500, 600, a, 3);
	/* no "cpu"; no "records"; "cpu" of another type; an end before the start */
	a[0] = fxt_arg_u64(recs, 1);
	lost_event(w, 0, 700, 800, a, 1);
	a[0] = fxt_arg_u32(cpu, 0);
	lost_event(w, 0, 700, 800, a, 1);
	a[0] = fxt_arg_u64(cpu, 0);
	a[1] = fxt_arg_u64(recs, 1);
	lost_event(w, 0, 700, 800, a, 2);
	a[0] = fxt_arg_u32(cpu, 0);
	lost_event(w, 0, 900, 850, a, 2);
	/* a CPU fxt-report has no room for */
	a[0] = fxt_arg_u32(cpu, MAX_CPUS);
	lost_event(w, 0, 900, 950, a, 2);
	/* not the loss record: another name, another event type */
	a[0] = fxt_arg_u32(cpu, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, 1000,
			fxt_thread_inline(FXT_KOID_IRQ_PROCESS, FXT_KOID_IRQ_THREAD(0)),
			fxt_str(FXT_DROPPED_CATEGORY), fxt_str(FXT_DROPPED_NAME), a, 2, 1100);
	fxt_write_event(w, FXT_EVENT_INSTANT, 1000,
			fxt_thread_inline(FXT_KOID_IRQ_PROCESS, FXT_KOID_IRQ_THREAD(0)),
			fxt_str(FXT_DROPPED_CATEGORY), fxt_str("lost"), a, 2, 0);
	/* thread, category and name indexed, arguments inline; no time lost */
	a[0] = fxt_arg_u32(cpu, 2);
	a[1] = fxt_arg_u64(recs, 5);
	fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, 1200, fxt_thread_index(1),
			fxt_str_index(1), fxt_str_index(2), a, 2, 1200);
	/* argument names indexed (complete events' arguments are never skipped) */
	a[0] = fxt_arg_u32(fxt_str_index(3), 2);
	a[1] = fxt_arg_u64(fxt_str_index(4), 6);
	lost_event(w, 2, 1300, 1400, a, 2);
	/* a provider counting microseconds: the end in ns too */
	fxt_write_provider_info(w, 1, "cpu1");
	fxt_write_init(w, 1000000);
	a[0] = fxt_arg_u32(cpu, 1);
	a[1] = fxt_arg_u64(recs, 9);
	lost_event(w, 1, 2, 5, a, 2);
}

static const struct {
	bool gap, gap_skipped;	/* read with its arguments, with them skipped */
	uint16_t cpu;
	uint64_t from, to, records;	/* ns */
} gap_want[] = {
	{ true, true, 1, 100, 400, 42 },
	{ true, true, 3, 500, 600, 7 },
	{ false, false, 0, 0, 0, 0 }, { false, false, 0, 0, 0, 0 },
	{ false, false, 0, 0, 0, 0 }, { false, false, 0, 0, 0, 0 },
	{ false, false, 0, 0, 0, 0 },
	{ false, false, 0, 0, 0, 0 }, { false, false, 0, 0, 0, 0 },
	{ true, true, 2, 1200, 1200, 5 },
	{ true, true, 2, 1300, 1400, 6 },
	{ true, true, 1, 2000, 5000, 9 },
};

static void test_report_gap_event(void)
{
	struct blob b = build(gap_events);
	struct fxt_record *rec = malloc(sizeof(*rec));
	unsigned int pass, nwant = sizeof(gap_want) / sizeof(gap_want[0]);

	for (pass = 0; pass < 2; pass++) {
		struct diags d;		/* the end before the start: DURATION_END */
		struct fxt_reader *r = open_blob(b, &d);
		unsigned int n = 0;

		if (pass)
			fxt_reader_skip_args(r, FXT_SKIP_SCHED_ARGS | FXT_SKIP_SPAN_ARGS);
		while (fxt_reader_next(r, rec) > 0) {
			struct ev e;
			bool gap, want;

			memset(&e, 0, sizeof(e));
			gap = report_gap_event(r, rec, &e);
			if (rec->type != FXT_REC_EVENT) {
				EXPECT(!gap);
				continue;
			}
			EXPECT(n < nwant);
			if (n >= nwant)
				break;
			want = pass ? gap_want[n].gap_skipped : gap_want[n].gap;
			if (gap != want)
				fprintf(stderr, "  event %u (pass %u): gap %d\n", n, pass, gap);
			EXPECT(gap == want);
			if (gap && want) {
				EXPECT_EQ_U(e.kind, EV_GAP);
				EXPECT_EQ_U(e.cpu, gap_want[n].cpu);
				EXPECT_EQ_U(e.ts, gap_want[n].from);
				EXPECT_EQ_U(e.in_tid, gap_want[n].to);
				EXPECT_EQ_U(e.out_tid, gap_want[n].records);
			}
			n++;
		}
		EXPECT_EQ_U(n, nwant);
		fxt_reader_close(r);
	}
	free(rec);
	free(b.data);
}

/* ------------------------------------------------------------------ */
/* The sleep event (fxt_sleep_event()).                                 */

/* One event per row of sleep_want, in order. */
static void sleep_events(struct fxt_writer *w)
{
	struct fxt_thread th = fxt_thread_inline(5, 5);
	struct fxt_str sched = fxt_str(FXT_CAT_NAME_SCHED), bi = fxt_str(FXT_ARG_NAME_BLOCKED_IN);
	struct fxt_str nul = { 0, 1, "\0" };
	struct fxt_arg a[2];

	fxt_write_magic(w);
	fxt_write_provider_info(w, 0, "cpu0");
	fxt_write_string(w, 1, "sched", 5);
	fxt_write_string(w, 2, "p9_client_rpc", 13);
	fxt_write_string(w, 3, "blocked_in", 10);
	a[0] = fxt_arg_string(bi, fxt_str("msleep"));
	fxt_write_event(w, FXT_EVENT_INSTANT, 1, th, sched, fxt_str("D"), a, 1, 0);
	a[0] = fxt_arg_string(fxt_str_index(3), fxt_str_index(2));
	fxt_write_event(w, FXT_EVENT_INSTANT, 2, th, fxt_str_index(1), fxt_str("D"), a, 1, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 3, th, sched, fxt_str("D"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 4, th, sched, fxt_str("I"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 5, th, sched, fxt_str("P"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 6, th, sched, fxt_str("t"), NULL, 0, 0);
	/* not sleep events */
	fxt_write_event(w, FXT_EVENT_INSTANT, 7, th, fxt_str("irq"), fxt_str("D"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 8, th, fxt_str("sched2"), fxt_str("D"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 9, th, sched, fxt_str("DD"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 10, th, sched, fxt_str("S"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 11, th, sched, fxt_str("T"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 12, th, sched, fxt_str(""), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 13, th, sched, nul, NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, 14, th, sched, fxt_str("D"), NULL, 0, 0);
	fxt_write_event(w, FXT_EVENT_INSTANT, 15, th, fxt_str(""), fxt_str("D"), NULL, 0, 0);
	/* sleep events whose blocked_in is not a function's name */
	a[0] = fxt_arg_i32(bi, 7);
	fxt_write_event(w, FXT_EVENT_INSTANT, 16, th, sched, fxt_str("D"), a, 1, 0);
	a[0] = fxt_arg_string(bi, fxt_str(""));
	fxt_write_event(w, FXT_EVENT_INSTANT, 17, th, sched, fxt_str("D"), a, 1, 0);
	a[0] = fxt_arg_string(bi, fxt_str_index(99));	/* undefined */
	fxt_write_event(w, FXT_EVENT_INSTANT, 18, th, sched, fxt_str("D"), a, 1, 0);
	a[0] = fxt_arg_string(fxt_str("blocked"), fxt_str("x"));
	fxt_write_event(w, FXT_EVENT_INSTANT, 19, th, sched, fxt_str("D"), a, 1, 0);
	/* the blocked_in string found among other arguments */
	a[0] = fxt_arg_string(bi, fxt_str_index(99));
	a[1] = fxt_arg_string(bi, fxt_str("io_schedule"));
	fxt_write_event(w, FXT_EVENT_INSTANT, 20, th, sched, fxt_str("D"), a, 2, 0);
	fxt_write_switch(w, 0, 21, FXT_THREAD_BLOCKED, th, 20, fxt_thread_inline(0, 0), 0);
}

static const struct {
	char letter;
	const char *blocked_in;
} sleep_want[] = {
	{ 'D', "msleep" }, { 'D', "p9_client_rpc" }, { 'D', "" }, { 'I', "" }, { 'P', "" },
	{ 't', "" },
	{ 0, "" }, { 0, "" }, { 0, "" }, { 0, "" }, { 0, "" }, { 0, "" }, { 0, "" }, { 0, "" },
	{ 0, "" },
	{ 'D', "" }, { 'D', "" }, { 'D', "" }, { 'D', "" }, { 'D', "io_schedule" },
	{ 0, "" },	/* the context switch */
};

static void test_sleep_event(void)
{
	struct blob b = build(sleep_events);
	struct fxt_record *rec = malloc(sizeof(*rec));
	struct diags d;
	struct fxt_reader *r = open_blob(b, &d);
	unsigned int n = 0, nwant = sizeof(sleep_want) / sizeof(sleep_want[0]);

	while (fxt_reader_next(r, rec) > 0) {
		struct fxt_str fn = { 1, 1, "?" };
		char letter;

		if (rec->type != FXT_REC_EVENT && rec->type != FXT_REC_SCHED) {
			EXPECT(fxt_sleep_event(rec, &fn) == 0);
			EXPECT(fn.len == 0 && fn.data && !fn.ref);
			continue;
		}
		letter = fxt_sleep_event(rec, &fn);
		if (n >= nwant) {
			EXPECT(n < nwant);
			break;
		}
		if (letter != sleep_want[n].letter || !fn.data ||
		    fn.len != strlen(sleep_want[n].blocked_in) ||
		    memcmp(fn.data, sleep_want[n].blocked_in, fn.len)) {
			fprintf(stderr, "  record %u (ts %llu): '%c' \"%.*s\", expected '%c' \"%s\"\n",
				n, (unsigned long long)rec->ts, letter ? letter : '0', (int)fn.len,
				fn.data ? fn.data : "(null)",
				sleep_want[n].letter ? sleep_want[n].letter : '0',
				sleep_want[n].blocked_in);
			EXPECT(0);
		}
		EXPECT(fxt_sleep_event(rec, NULL) == letter);
		if (letter) {	/* a malformed record is none */
			rec->flags |= FXT_RF_MALFORMED;
			EXPECT(fxt_sleep_event(rec, &fn) == 0 && fn.len == 0);
		}
		n++;
	}
	EXPECT_EQ_U(n, nwant);
	EXPECT_EQ_U(d.count[FXT_D_STRING_UNDEFINED], 2);
	fxt_reader_close(r);
	free(rec);
	free(b.data);
}

/* fxt_reader_check_sleeps(): the golden archive's one unpaired event, only when asked. */
static void test_sleep_pairing(void)
{
	struct blob b = build_case(tcase_find("sleep-states"));
	struct diags d;
	struct fxt_reader *r = open_blob(b, &d);
	int rc;

	read_all(r, &rc);
	EXPECT_EQ_U(d.total, 0);
	fxt_reader_close(r);
	r = open_blob(b, &d);
	fxt_reader_check_sleeps(r, true);
	read_all(r, &rc);
	EXPECT(rc == 0);
	EXPECT_EQ_U(d.count[FXT_D_SLEEP_UNPAIRED], 1);
	EXPECT_EQ_U(d.total, 1);
	EXPECT(strstr(d.last, "\"D\" on thread 105, but the next switch"));
	fxt_reader_close(r);
	free(b.data);
}

/* Every diagnostic is produced by at least one test input. */
static void test_all_diags_covered(void)
{
	unsigned int i, k;
	bool listed[FXT_D_COUNT] = { false };

	for (i = 0; i < ntcases; i++)
		for (k = 0; k < tcases[i].nexpect; k++)
			listed[tcases[i].expect[k]] = true;
	listed[FXT_D_IO_ERROR] = true;		/* test_io_error */
	for (i = 0; i < FXT_D_COUNT; i++) {
		if (!listed[i] || !seen_ids[i])
			fprintf(stderr, "  diagnostic %s (\"%s\") is not tested\n",
				fxt_diag_name(i), fxt_diag_template(i));
		EXPECT(listed[i] && seen_ids[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Output formatting and histograms.                                    */

static struct outbuf *fxt_ob_mem(void)
{
	static char mem[4096 + OUTBUF_SLACK];
	static struct outbuf o;

	fxt_ob_init(&o, -1, mem, 4096);
	return &o;
}

static bool fxt_ob_is(struct outbuf *o, const char *s)
{
	bool eq = o->len == strlen(s) && !memcmp(o->buf, s, o->len);

	if (!eq)
		fprintf(stderr, "  got \"%.*s\", expected \"%s\"\n", (int)o->len, o->buf, s);
	o->len = 0;
	return eq;
}

static void test_outbuf(void)
{
	struct outbuf *o = fxt_ob_mem();

	fxt_ob_u64(o, 0);
	EXPECT(fxt_ob_is(o, "0"));
	fxt_ob_u64(o, UINT64_MAX);
	EXPECT(fxt_ob_is(o, "18446744073709551615"));
	fxt_ob_i64(o, INT64_MIN);
	EXPECT(fxt_ob_is(o, "-9223372036854775808"));
	fxt_ob_us(o, 0);
	EXPECT(fxt_ob_is(o, "0.000"));
	fxt_ob_us(o, 1234567);
	EXPECT(fxt_ob_is(o, "1234.567"));
	fxt_ob_us(o, 1000);
	EXPECT(fxt_ob_is(o, "1.000"));
	fxt_ob_us(o, 7);
	EXPECT(fxt_ob_is(o, "0.007"));
	fxt_ob_us(o, UINT64_MAX);
	EXPECT(fxt_ob_is(o, "18446744073709551.615"));
	fxt_ob_hex(o, 0xdeadbeef);
	EXPECT(fxt_ob_is(o, "0xdeadbeef"));
	fxt_ob_json_str(o, "a\"b\\c\n\x01", 7);
	EXPECT(fxt_ob_is(o, "\"a\\\"b\\\\c\\n\\u0001\""));
	fxt_ob_json_str(o, "\xff\xc3\xa9\xe2\x82", 5);	/* bad, é, cut */
	EXPECT(fxt_ob_is(o, "\"\\ufffd\xc3\xa9\\ufffd\\ufffd\""));
	fxt_ob_json_str(o, "\xed\xa0\x80", 3);		/* surrogate */
	EXPECT(fxt_ob_is(o, "\"\\ufffd\\ufffd\\ufffd\""));
	fxt_ob_json_double(o, 0.1);
	EXPECT(fxt_ob_is(o, "0.1"));
	fxt_ob_json_double(o, NAN);
	EXPECT(fxt_ob_is(o, "\"NaN\""));
	fxt_ob_quoted(o, "x\"\x7f", 3);
	EXPECT(fxt_ob_is(o, "\"x\\\"\\x7f\""));
}

static void test_options(void)
{
	uint64_t v = 0;

	EXPECT(!fxt_parse_size("8M", &v) && v == 8ull << 20);
	EXPECT(!fxt_parse_size("64k", &v) && v == 64ull << 10);
	EXPECT(!fxt_parse_size("1.5GiB", &v) && v == 3ull << 29);
	EXPECT(!fxt_parse_size("2MB", &v) && v == 2ull << 20);
	EXPECT(!fxt_parse_size("65536", &v) && v == 65536);
	EXPECT_EQ_U(fxt_parse_size("12Q", &v), (uint64_t)-EINVAL);
	EXPECT_EQ_U(fxt_parse_size("0", &v), (uint64_t)-EINVAL);
	EXPECT_EQ_U(fxt_parse_size("", &v), (uint64_t)-EINVAL);
	EXPECT_EQ_U(fxt_parse_mode("oneshot"), FXT_MODE_ONESHOT);
	EXPECT_EQ_U(fxt_parse_mode("circular"), FXT_MODE_CIRCULAR);
	EXPECT_EQ_U(fxt_parse_mode("streaming"), FXT_MODE_STREAMING);
	EXPECT(fxt_parse_mode("Streaming") == -EINVAL);
}

static void test_durations(void)
{
	uint64_t v = 0;

	EXPECT(!fxt_parse_duration("1500ns", &v) && v == 1500);
	EXPECT(!fxt_parse_duration("500us", &v) && v == 500000);
	EXPECT(!fxt_parse_duration("10ms", &v) && v == 10000000);
	EXPECT(!fxt_parse_duration("1.5ms", &v) && v == 1500000);
	EXPECT(!fxt_parse_duration("2s", &v) && v == 2000000000);
	EXPECT(!fxt_parse_duration("0ms", &v) && v == 0);
	EXPECT(fxt_parse_duration("10", &v) == -EINVAL);	/* no unit */
	EXPECT(fxt_parse_duration("10m", &v) == -EINVAL);
	EXPECT(fxt_parse_duration("10 ms", &v) == -EINVAL);
	EXPECT(fxt_parse_duration("-1ms", &v) == -EINVAL);
	EXPECT(fxt_parse_duration(" 1ms", &v) == -EINVAL);
	EXPECT(fxt_parse_duration("infs", &v) == -EINVAL);
	EXPECT(fxt_parse_duration("0x10ms", &v) == -EINVAL);
	EXPECT(fxt_parse_duration("99999999999s", &v) == -EINVAL);
	EXPECT(fxt_parse_duration("", &v) == -EINVAL);
	EXPECT(fxt_parse_duration("ms", &v) == -EINVAL);
}

/* A spec the parser must refuse, with a message holding what. */
static void bad_trigger(const char *spec, const char *what)
{
	struct fxt_trigger t;
	char err[256] = "";

	EXPECT(fxt_parse_trigger(spec, &t, err, sizeof(err)) == -EINVAL);
	if (!strstr(err, what)) {
		fprintf(stderr, "  %s: '%s' lacks '%s'\n", spec, err, what);
		EXPECT(0);
	}
}

static void test_triggers(void)
{
	struct fxt_trigger t;
	char err[256] = "";

	EXPECT(!fxt_parse_trigger("wakeup-latency=10ms", &t, err, sizeof(err)));
	EXPECT(t.kind == FXT_TRIGGER_WAKEUP_LATENCY && t.threshold_ns == 10000000 &&
	       !t.match && !t.uid && !t.comm[0]);
	EXPECT(!fxt_parse_trigger("wakeup-latency=2ms,comm=myserver", &t, err, sizeof(err)));
	EXPECT(t.match == FXT_TRIGGER_MATCH_COMM && !strcmp(t.comm, "myserver"));
	EXPECT(!fxt_parse_trigger("off-cpu=500ms,pid=1234", &t, err, sizeof(err)));
	EXPECT(t.kind == FXT_TRIGGER_OFF_CPU && t.threshold_ns == 500000000 &&
	       t.match == FXT_TRIGGER_MATCH_PID && t.pid == 1234);
	EXPECT(!fxt_parse_trigger("off-cpu=1s,tgid=77,cpu=3,comm=123456789012345", &t, err,
				  sizeof(err)));
	EXPECT(t.match == (FXT_TRIGGER_MATCH_TGID | FXT_TRIGGER_MATCH_CPU | FXT_TRIGGER_MATCH_COMM) &&
	       t.tgid == 77 && t.cpu == 3 && !strcmp(t.comm, "123456789012345"));
	EXPECT(!fxt_parse_trigger("irq-duration=1ms", &t, err, sizeof(err)));
	EXPECT(t.kind == FXT_TRIGGER_IRQ_DURATION && t.threshold_ns == 1000000);
	EXPECT(!fxt_parse_trigger("irq-duration=50us,cpu=0", &t, err, sizeof(err)));
	EXPECT(t.match == FXT_TRIGGER_MATCH_CPU && t.cpu == 0);

	bad_trigger("wakeup=10ms", "unknown trigger kind 'wakeup'");
	bad_trigger("", "unknown trigger kind");
	bad_trigger("wakeup-latency", "a threshold is needed");
	bad_trigger("wakeup-latency=", "a threshold is needed");
	bad_trigger("wakeup-latency=10", "bad threshold '10'");
	bad_trigger("wakeup-latency=10xs", "bad threshold");
	bad_trigger("wakeup-latency=0ms", "more than 0");
	bad_trigger("off-cpu=1ms,comm=1234567890123456", "longer than 15 bytes");
	bad_trigger("off-cpu=1ms,pid=1,pid=2", "'pid' given twice");
	bad_trigger("off-cpu=1ms,comm=a,comm=b", "'comm' given twice");
	bad_trigger("off-cpu=1ms,pid=x", "pid=x: not a thread");
	bad_trigger("off-cpu=1ms,pid=0", "pid=0: not a thread");
	bad_trigger("off-cpu=1ms,cpu=-1", "not a CPU");
	bad_trigger("off-cpu=1ms,pid", "needs a value");
	EXPECT(!fxt_parse_trigger("off-cpu=1ms,uid=1000", &t, err, sizeof(err)));
	EXPECT(t.match == FXT_TRIGGER_MATCH_UID && t.uid == 1000);
	EXPECT(!fxt_parse_trigger("wakeup-latency=1ms,uid=root,comm=x", &t, err, sizeof(err)));
	EXPECT(t.match == (FXT_TRIGGER_MATCH_UID | FXT_TRIGGER_MATCH_COMM) && t.uid == 0);
	bad_trigger("off-cpu=1ms,uid=no-such-user-fxt", "uid=no-such-user-fxt: no such user");
	bad_trigger("off-cpu=1ms,uid=4294967295", "no such user, and not a uid");
	bad_trigger("off-cpu=1ms,uid=1,uid=2", "'uid' given twice");
	bad_trigger("off-cpu=1ms,gid=3", "unknown filter 'gid'");
	bad_trigger("irq-duration=1ms,uid=0", "only the cpu= filter");
	bad_trigger("irq-duration=1ms,pid=3", "only the cpu= filter");
	bad_trigger("irq-duration=1ms,comm=x", "only the cpu= filter");
	bad_trigger("irq-duration=1ms,tgid=3", "only the cpu= filter");

	EXPECT(!strcmp(fxt_trigger_kind_name(FXT_TRIGGER_WAKEUP_LATENCY), "wakeup-latency"));
	EXPECT(!strcmp(fxt_trigger_kind_name(FXT_TRIGGER_OFF_CPU), "off-cpu"));
	EXPECT(!strcmp(fxt_trigger_kind_name(FXT_TRIGGER_IRQ_DURATION), "irq-duration"));
	EXPECT(!fxt_trigger_kind_name(0) && !fxt_trigger_kind_name(4));

	EXPECT(fxt_categories_named(NULL) == FXT_CAT_DEFAULT);
	EXPECT(fxt_categories_named("all") == FXT_CAT_ALL);
	EXPECT(fxt_categories_named("sched,irq") == (FXT_CAT_SCHED | FXT_CAT_IRQ));
	EXPECT(fxt_categories_named("schedx,wakeup") == FXT_CAT_WAKEUP);
	fxt_parse_trigger("wakeup-latency=1ms", &t, err, sizeof(err));
	EXPECT(!fxt_trigger_check_categories(&t, FXT_CAT_SCHED | FXT_CAT_WAKEUP, err, sizeof(err)));
	EXPECT(fxt_trigger_check_categories(&t, FXT_CAT_SCHED, err, sizeof(err)) == -EINVAL);
	EXPECT(!strcmp(err, "wakeup-latency needs the sched and wakeup categories (-c)"));
	fxt_parse_trigger("off-cpu=1ms", &t, err, sizeof(err));
	EXPECT(!fxt_trigger_check_categories(&t, FXT_CAT_SCHED, err, sizeof(err)));
	EXPECT(fxt_trigger_check_categories(&t, FXT_CAT_IRQ, err, sizeof(err)) == -EINVAL);
	EXPECT(!strcmp(err, "off-cpu needs the sched category (-c)"));
	fxt_parse_trigger("irq-duration=1ms", &t, err, sizeof(err));
	EXPECT(!fxt_trigger_check_categories(&t, FXT_CAT_SOFTIRQ, err, sizeof(err)));
	EXPECT(fxt_trigger_check_categories(&t, FXT_CAT_SCHED, err, sizeof(err)) == -EINVAL);
	EXPECT(!strcmp(err, "irq-duration needs the irq or softirq category (-c)"));
}

static void expect_window(const char *output, unsigned int k, const char *want)
{
	char *p = fxt_window_path(output, k);

	EXPECT(p && !strcmp(p, want));
	if (p && strcmp(p, want))
		fprintf(stderr, "  window %u of %s: %s, not %s\n", k, output, p, want);
	free(p);
}

static void test_window_paths(void)
{
	expect_window("stall.fxt", 1, "stall.fxt");
	expect_window("stall.fxt", 2, "stall-2.fxt");
	expect_window("stall.fxt", 12, "stall-12.fxt");
	expect_window("stall", 3, "stall-3");
	expect_window("out.d/stall", 2, "out.d/stall-2");
	expect_window("out.d/stall.tar.fxt", 2, "out.d/stall.tar-2.fxt");
	expect_window(".fxt", 2, ".fxt-2");
	expect_window("/tmp/.trace.fxt", 2, "/tmp/.trace-2.fxt");
}

/* FXT_PKT_TRIGGERED, read from a pipe as from the device. */
static void test_triggered_packet(void)
{
	struct fxt_packet p = {
		.request = FXT_PKT_TRIGGERED, .cpu = 3,
		.data32 = 1234u << 8 | 2, .data64 = 23456789,
	};
	struct fxt_trigger_set set = { .count = 1 };
	struct fxt_device d;
	int fds[2];

	EXPECT(!fxt_device_open(&d, "/dev/null", "t"));
	EXPECT(fxt_device_set_triggers(&d, &set) == -ENOTTY);
	EXPECT(!strncmp(d.err, "setting 1 latency triggers: ", 28));
	close(d.fd);
	EXPECT(!pipe(fds));
	d.fd = fds[0];
	EXPECT(write(fds[1], &p, sizeof(p)) == sizeof(p));
	p.data32 = 7u << 8 | 1;	/* a second one changes nothing */
	EXPECT(write(fds[1], &p, sizeof(p)) == sizeof(p));
	EXPECT(fxt_device_handle_packets(&d) == 0);
	EXPECT(d.triggered.fired && d.triggered.cpu == 3 && d.triggered.index == 2 &&
	       d.triggered.tid == 1234 && d.triggered.latency_ns == 23456789 &&
	       d.triggered.read_ns > 0);
	close(fds[0]);
	close(fds[1]);
}

/* Without the module: the errors the collector prints, not exits. */
static void test_device_errors(void)
{
	struct fxt_config cfg = { .buffer_size = 1 << 20 };
	struct fxt_device d;

	EXPECT(fxt_device_open(&d, "/nonexistent/fxt", "t") == -ENOENT);
	EXPECT(!strcmp(d.err, "/nonexistent/fxt: no such device; is the module loaded? (sudo insmod module/fxt.ko)"));
	EXPECT(!fxt_device_open(&d, "/dev/null", "t"));
	EXPECT(fxt_device_init(&d, &cfg) == -ENOTTY);
	EXPECT(!strncmp(d.err, "initialize (buffer 1048576 bytes per CPU): ", 43));
	EXPECT(strstr(d.err, "different ABI versions") != NULL);
	EXPECT(fxt_device_close(&d) == -ENOTTY);
	EXPECT(fxt_device_close(&d) == -EBADF);
}

/* The command waits for its release, and its exit status is kept. */
static void test_command(void)
{
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	struct fxt_command c = { 0 };
	const char *failed;
	int i;

	EXPECT(!fxt_command_spawn(&c, argv, "t", &failed));
	usleep(10000);
	fxt_command_reap(&c);
	EXPECT(!c.done);
	EXPECT(!fxt_command_release(&c));
	for (i = 0; i < 500 && !c.done; i++) {
		usleep(10000);
		fxt_command_reap(&c);
	}
	EXPECT(c.done && WIFEXITED(c.status) && WEXITSTATUS(c.status) == 3);
	fxt_command_end(&c);
}

static void test_hist(void)
{
	struct hist h;
	uint64_t i;

	hist_init(&h);
	EXPECT_EQ_U(hist_percentile(&h, 50), 0);
	for (i = 1; i <= 1000000; i++)
		hist_add(&h, i);
	EXPECT_EQ_U(h.count, 1000000);
	EXPECT_EQ_U(h.max, 1000000);
	EXPECT_EQ_U(h.min, 1);
	/* Relative error of the log-linear buckets is below 1/32. */
	EXPECT(fabs((double)hist_percentile(&h, 50) - 500000) / 500000 < 1.0 / 32);
	EXPECT(fabs((double)hist_percentile(&h, 99) - 990000) / 990000 < 1.0 / 32);
	EXPECT_EQ_U(hist_percentile(&h, 100), 1000000);
	hist_init(&h);
	for (i = 0; i < 64; i++)
		hist_add(&h, i);	/* small values are exact */
	EXPECT_EQ_U(hist_percentile(&h, 50), 31);
	hist_add(&h, UINT64_MAX);
	EXPECT_EQ_U(hist_percentile(&h, 100), UINT64_MAX);
}

/* The progress indicator: only on a terminal, only for large archives. */
static void test_progress(void)
{
	static const char want[] = "\rt:   0% (0 of 100 MiB)\r\033[K";
	struct progress p;
	char buf[256];
	size_t got;
	ssize_t n;
	int fds[2], master, slave = -1;

	/* A pipe is not a terminal: nothing is written. */
	EXPECT(pipe(fds) == 0);
	fxt_progress_init(&p, "t", fds[1], 100ull << 20, PROGRESS_MIN_BYTES, true);
	EXPECT(!p.on);
	fxt_progress_update(&p, 50ull << 20);
	fxt_progress_show(&p, 60ull << 20);
	fxt_progress_end(&p);
	close(fds[1]);
	EXPECT(read(fds[0], buf, sizeof(buf)) == 0);
	close(fds[0]);

	master = posix_openpt(O_RDWR | O_NOCTTY);
	EXPECT(master >= 0);
	if (master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0)
		slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	EXPECT(slave >= 0);
	if (slave < 0) {
		close(master);
		return;
	}
	/* A terminal, but a small archive or not allowed: off. */
	fxt_progress_init(&p, "t", slave, PROGRESS_MIN_BYTES, PROGRESS_MIN_BYTES, true);
	EXPECT(!p.on);
	fxt_progress_init(&p, "t", slave, 100ull << 20, PROGRESS_MIN_BYTES, false);
	EXPECT(!p.on);
	/* On: the 0% line at once, erased at the end. */
	fxt_progress_init(&p, "t", slave, 100ull << 20, PROGRESS_MIN_BYTES, true);
	EXPECT(p.on);
	fxt_progress_end(&p);
	EXPECT(!p.on);
	fxt_progress_update(&p, 100ull << 20);	/* off after the end */
	/* The two writes may come out of the pty apart: read up to the end. */
	got = 0;
	while (got < strlen(want)) {
		struct pollfd pfd = { master, POLLIN, 0 };

		if (poll(&pfd, 1, 2000) != 1)
			break;
		n = read(master, buf + got, sizeof(buf) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = 0;
	EXPECT(!strcmp(buf, want));
	close(slave);
	close(master);
}

/* ------------------------------------------------------------------ */
/* Thread names over time (reused tids).                                */

static void nh_add(struct name_history *h, uint64_t koid, const char *name,
		     uint64_t process, uint64_t named_at)
{
	struct fxt_kobj_info k = {
		.koid = koid, .process = process, .named_at = named_at,
		.obj_type = FXT_OBJ_THREAD, .valid = true,
		.name_len = (uint8_t)strlen(name),
	};

	memcpy(k.name, name, k.name_len);
	EXPECT(fxt_name_history_add(h, &k) == 0);
}

static bool nh_is(const struct name_history *h, uint64_t koid, uint64_t ns,
		    const char *name)
{
	const struct fxt_kobj_info *k = fxt_name_history_at(h, koid, ns);

	return k && !strcmp(k->name, name);
}

static void test_name_history(void)
{
	struct name_history h;
	size_t bytes;
	int64_t i;

	memset(&h, 0, sizeof(h));
	nh_add(&h, 5, "a", 5, 0);
	nh_add(&h, 5, "b", 5, 3000);
	nh_add(&h, 5, "a", 5, 1000);		/* restates run "a" */
	nh_add(&h, 5, "b", 5, 2000);		/* run "b" began earlier */
	nh_add(&h, 5, "c", 6, 5000);		/* a later thread, other process */
	nh_add(&h, 5, "c", 6, 6000);
	EXPECT(nh_is(&h, 5, 0, "a") && nh_is(&h, 5, 1999, "a"));
	EXPECT(nh_is(&h, 5, 2000, "b") && nh_is(&h, 5, 4999, "b"));
	EXPECT(nh_is(&h, 5, 5000, "c") && nh_is(&h, 5, UINT64_MAX, "c"));
	EXPECT(fxt_name_history_at(&h, 5, 5000)->process == 6);
	i = fxt_u64map_get(&h.map, 5);
	EXPECT(i >= 0 && h.runs[i].n == 3);
	/* the same time: the last record read wins */
	nh_add(&h, 7, "x", 7, 100);
	nh_add(&h, 7, "y", 7, 100);
	EXPECT(nh_is(&h, 7, 100, "y") && nh_is(&h, 7, 0, "y"));
	/* read newest first: before every run, the earliest */
	nh_add(&h, 8, "late", 8, 500);
	nh_add(&h, 8, "early", 8, 200);
	EXPECT(nh_is(&h, 8, 100, "early") && nh_is(&h, 8, 300, "early"));
	EXPECT(nh_is(&h, 8, 600, "late"));
	/* the same name and a different process is another thread */
	nh_add(&h, 8, "late", 9, 900);
	EXPECT(fxt_name_history_at(&h, 8, 700)->process == 8);
	EXPECT(fxt_name_history_at(&h, 8, 900)->process == 9);
	EXPECT(fxt_name_history_at(&h, 99, 0) == NULL);
	/* restatements (circular mode names a task once a generation) cost nothing */
	bytes = h.bytes;
	for (uint64_t t = 1000; t < 100000; t += 10)
		nh_add(&h, 8, "late", 9, t);
	EXPECT_EQ_U(h.bytes, bytes);
	fxt_name_history_free(&h);
}

/* Interned names: one id per distinct string, also when hashes collide. */
static void test_name_intern(void)
{
	/* Pairs with equal 32-bit FNV-1a hashes. */
	static const char *const pairs[][2] = {
		{ "costarring", "liquid" }, { "declinate", "macallums" },
		{ "altarage", "zinke" }, { "altarages", "zinkes" },
	};
	struct fxt_name_intern t;
	char name[32];
	size_t len, i;
	uint32_t id;
	int ok;

	memset(&t, 0, sizeof(t));
	EXPECT(fxt_name_intern_text(&t, 0, NULL) == NULL);
	for (i = 0; i < 4; i++) {
		const char *a = pairs[i][0], *b = pairs[i][1];

		EXPECT_EQ_U(fxt_name_intern_hash(a, strlen(a)), fxt_name_intern_hash(b, strlen(b)));
		EXPECT_EQ_U(fxt_name_intern(&t, a, strlen(a), 255), 2 * i);
		EXPECT_EQ_U(fxt_name_intern(&t, b, strlen(b), 255), 2 * i + 1);
	}
	for (i = 0; i < 4; i++) {
		EXPECT_EQ_U(fxt_name_intern(&t, pairs[i][1], strlen(pairs[i][1]), 255), 2 * i + 1);
		EXPECT_EQ_U(fxt_name_intern(&t, pairs[i][0], strlen(pairs[i][0]), 255), 2 * i);
		EXPECT(!strcmp(fxt_name_intern_text(&t, (uint32_t)(2 * i), &len), pairs[i][0]));
		EXPECT_EQ_U(len, strlen(pairs[i][0]));
	}
	/* cut at the maximum: a longer name is its prefix */
	EXPECT_EQ_U(fxt_name_intern(&t, "liquidity", 9, 6), 1);
	/* the empty string, also without data, is one name */
	id = fxt_name_intern(&t, NULL, 0, 255);
	EXPECT_EQ_U(id, 8);
	EXPECT_EQ_U(fxt_name_intern(&t, "", 0, 255), id);
	EXPECT(!strcmp(fxt_name_intern_text(&t, id, &len), "") && len == 0);
	/* bytes after a NUL count; growth keeps every id */
	EXPECT(fxt_name_intern(&t, "a\0b", 3, 255) != fxt_name_intern(&t, "a\0c", 3, 255));
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "fn_%zu", i);
		EXPECT_EQ_U(fxt_name_intern(&t, name, strlen(name), 255), 11 + i);
	}
	ok = 1;
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "fn_%zu", i);
		ok &= fxt_name_intern(&t, name, strlen(name), 255) == 11 + i &&
		      !strcmp(fxt_name_intern_text(&t, (uint32_t)(11 + i), NULL), name);
	}
	EXPECT(ok);
	EXPECT_EQ_U(fxt_name_intern(&t, "costarring", 10, 255), 0);
	EXPECT(fxt_name_intern_text(&t, (uint32_t)t.count, NULL) == NULL);
	fxt_name_intern_free(&t);
	EXPECT_EQ_U(t.count, 0);
}

/* The readers name each thread of a reused tid by its own name. */
static void test_pid_reuse(void)
{
	struct blob b = build_case(tcase_find("pid-reuse"));
	struct fxt_reader *r = fxt_reader_open_mem(b.data, b.len);
	struct fxt_record *rec = malloc(sizeof(*rec));
	const struct fxt_kobj_info *k;

	EXPECT(r && rec);
	while (r && rec && fxt_reader_next(r, rec) > 0)
		;
	k = fxt_reader_thread_at(r, 7, 2000);
	EXPECT(k && !strcmp(k->name, "first"));
	k = fxt_reader_thread_at(r, 9, 2999);
	EXPECT(k && !strcmp(k->name, "worker") && k->process == 7);
	k = fxt_reader_thread_at(r, 7, 6000);
	EXPECT(k && !strcmp(k->name, "second"));
	k = fxt_reader_thread_at(r, 9, 7000);
	EXPECT(k && !strcmp(k->name, "other") && k->process == 9);
	k = fxt_reader_kobj(r, FXT_OBJ_THREAD, 9);		/* the table: the newest */
	EXPECT(k && !strcmp(k->name, "other"));
	free(rec);
	fxt_reader_close(r);
	free(b.data);
}

/* ------------------------------------------------------------------ */
/* Newest names (fxt-collect's trailer).                                */

/* A kernel object the way fxt.ko writes it: indexed arg names 1 and 2. */
static void kobj_at(struct fxt_writer *w, unsigned int type, uint64_t koid,
		    const char *name, uint64_t process, uint64_t named_at)
{
	struct fxt_arg a[2];
	unsigned int n = 0;

	if (type == FXT_OBJ_THREAD)
		a[n++] = fxt_arg_koid(fxt_str_index(1), process);
	if (named_at)
		a[n++] = fxt_arg_u64(fxt_str_index(2), named_at);
	EXPECT(fxt_write_kobj(w, type, koid, fxt_str(name), a, n) == 0);
}

static void arg_strings(struct fxt_writer *w)
{
	fxt_write_string(w, 1, "process", 7);
	fxt_write_string(w, 2, "named_at", 8);
}

/* CPU 0's durable data, saved first. */
static void newest_cpu0(struct fxt_writer *w)
{
	struct fxt_arg a[2] = {
		fxt_arg_koid(fxt_str("process"), 13),
		fxt_arg_u64(fxt_str("named_at"), 900),
	};

	/* fxt.ko's process records name their parent, by an indexed string */
	struct fxt_arg pa[2] = {
		fxt_arg_u64(fxt_str_index(2), 600),
		fxt_arg_koid(fxt_str_index(3), 4),
	};

	arg_strings(w);
	fxt_write_string(w, 3, "parent", 6);
	kobj_at(w, FXT_OBJ_THREAD, 8, "app-renamed", 7, 3000);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 9, fxt_str("p-new"), pa, 2);
	kobj_at(w, FXT_OBJ_THREAD, 10, "x", 10, 100);
	kobj_at(w, FXT_OBJ_THREAD, 11, "same", 11, 300);
	kobj_at(w, FXT_OBJ_THREAD, 12, "newname", 12, 400);
	fxt_write_kobj(w, FXT_OBJ_THREAD, 13, fxt_str("inl-new"), a, 2);
	fxt_write_switch(w, 0, 5000, FXT_THREAD_NEW, fxt_thread_inline(0, 0), 0,
			 fxt_thread_inline(7, 8), 20);
}

/* CPU 1's, saved after: older names for 8, 9, 12 and 13. */
static void newest_cpu1(struct fxt_writer *w)
{
	struct fxt_arg a[2] = {
		fxt_arg_koid(fxt_str("process"), 13),
		fxt_arg_u64(fxt_str("named_at"), 800),
	};

	fxt_write_string(w, 2, "named_at", 8);
	fxt_write_string(w, 1, "process", 7);
	kobj_at(w, FXT_OBJ_THREAD, 8, "app", 7, 1000);
	kobj_at(w, FXT_OBJ_PROCESS, 9, "p-old", 0, 500);
	kobj_at(w, FXT_OBJ_THREAD, 10, "y", 10, 200);	/* newer: fine */
	kobj_at(w, FXT_OBJ_THREAD, 11, "same", 11, 100);	/* older, same name */
	kobj_at(w, FXT_OBJ_THREAD, 12, "oldname", 12, 0);	/* snapshot */
	fxt_write_kobj(w, FXT_OBJ_THREAD, 13, fxt_str("inl-old"), a, 2);
}

/* A magic record and the trailer of trailer_tracker (trailer_result). */
static struct fxt_newest *trailer_tracker;
static int trailer_result;

static void trailer_build(struct fxt_writer *w)
{
	fxt_write_magic(w);
	trailer_result = fxt_newest_write_trailer(trailer_tracker, w);
}

static void test_newest_trailer(void)
{
	struct blob c0 = build(newest_cpu0), c1 = build(newest_cpu1), t, t2;
	struct fxt_newest *n = fxt_newest_new(100);
	struct fxt_record *rec = malloc(sizeof(*rec));
	struct fxt_reader *r;
	struct diags d;
	unsigned int seen = 0;

	memset(&d, 0, sizeof(d));
	EXPECT(n && rec && c0.data && c1.data);
	if (!n || !rec || !c0.data || !c1.data)
		goto out;
	fxt_newest_feed(n, 0, c0.data, c0.len);
	fxt_newest_feed(n, 1, c1.data, c1.len);
	EXPECT_EQ_U(fxt_newest_koids(n), 6);
	EXPECT_EQ_U(fxt_newest_stale(n), 4);
	EXPECT_EQ_U(fxt_newest_untracked(n), 0);
	trailer_tracker = n;
	t = build(trailer_build);
	EXPECT_EQ_U(trailer_result, 4);
	EXPECT(t.data != NULL);
	EXPECT_EQ_U(fxt_newest_stale(n), 0);
	r = t.data ? fxt_reader_open_mem(t.data, t.len) : NULL;
	EXPECT(r != NULL);
	if (r) {
		fxt_reader_set_diag(r, collect, &d);
		while (fxt_reader_next(r, rec) == 1) {
			const char *want = NULL;
			uint64_t at = 0, proc = 0;

			if (rec->type != FXT_REC_KERNEL_OBJ)
				continue;
			EXPECT_EQ_U(rec->provider, FXT_NAMES_PROVIDER_ID);
			switch (rec->u.kobj.koid) {
			case 8: want = "app-renamed"; at = 3000; proc = 7; break;
			case 9: want = "p-new"; at = 600; break;
			case 12: want = "newname"; at = 400; proc = 12; break;
			case 13: want = "inl-new"; at = 900; proc = 13; break;
			}
			EXPECT(want != NULL);
			if (!want)
				continue;
			seen++;
			EXPECT(rec->u.kobj.name.len == strlen(want) &&
			       !memcmp(rec->u.kobj.name.data, want, strlen(want)));
			EXPECT_EQ_U(rec->u.kobj.named_at, at);
			EXPECT_EQ_U(rec->u.kobj.obj_type,
				    proc ? FXT_OBJ_THREAD : FXT_OBJ_PROCESS);
			if (proc)
				EXPECT_EQ_U(fxt_reader_kobj(r, FXT_OBJ_THREAD, rec->u.kobj.koid)->process,
					    proc);
			else	/* the trailer restates the parent with the name */
				EXPECT_EQ_U(rec->u.kobj.parent, 4);
		}
		EXPECT_EQ_U(d.total, 0);
		fxt_reader_close(r);
	}
	EXPECT_EQ_U(seen, 4);
	/* Nothing left to restate: a second trailer writes nothing at all. */
	t2 = build(trailer_build);
	EXPECT_EQ_U(trailer_result, 0);
	EXPECT_EQ_U(t2.len, 8);
	free(t.data);
	free(t2.data);
out:
	fxt_newest_free(n);
	free(rec);
	free(c0.data);
	free(c1.data);
}

/* A fake procfs entry: ROOT/PID/stat and, when cmdline, ROOT/PID/cmdline. */
static void fake_proc(const char *root, unsigned int pid, const char *comm,
		      unsigned int ppid, const char *cmdline, size_t cmdline_len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u", root, pid);
	EXPECT(mkdir(path, 0755) == 0);
	snprintf(path, sizeof(path), "%s/%u/stat", root, pid);
	f = fopen(path, "w");
	EXPECT(f != NULL);
	if (f) {
		fprintf(f, "%u (%s) S %u %u 0 0 -1 4194560 0\n", pid, comm, ppid, pid);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/%u/cmdline", root, pid);
	f = fopen(path, "w");
	EXPECT(f != NULL);
	if (f) {
		fwrite(cmdline, 1, cmdline_len, f);
		fclose(f);
	}
}

/* Processes as fxt.ko names them: parent, and an exec's cmdline. */
static void cmdline_cpu0(struct fxt_writer *w)
{
	struct fxt_arg with[2] = {
		fxt_arg_koid(fxt_str("parent"), 77),
		fxt_arg_string(fxt_str("cmdline"), fxt_str("exec'd -v")),
	};
	struct fxt_arg parent77 = fxt_arg_koid(fxt_str("parent"), 77);

	fxt_write_kobj(w, FXT_OBJ_PROCESS, 4242, fxt_str("worker"), &parent77, 1);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 4243, fxt_str("execd"), with, 2);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 4244, fxt_str("gone"), &parent77, 1);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 4245, fxt_str("reused"), &parent77, 1);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 4246, fxt_str("kthread"), NULL, 0);
	fxt_write_kobj(w, FXT_OBJ_PROCESS, 4247, fxt_str("renamed"), &parent77, 1);
	fxt_write_kobj(w, FXT_OBJ_THREAD, 4248, fxt_str("a-thread"), NULL, 0);
}

/*
 * The trailer gives a process without a command line the one procfs
 * shows, only while procfs still shows the archive's name and parent.
 */
static void test_trailer_proc_cmdlines(void)
{
	static const char line[] = "worker\0--fast\0a b\0";
	char root[] = "/tmp/fxt-unit-procXXXXXX";
	struct blob c0 = build(cmdline_cpu0), t = { NULL, 0 };
	struct fxt_newest *n = fxt_newest_new(100);
	struct fxt_record *rec = malloc(sizeof(*rec));
	struct fxt_reader *r = NULL;
	unsigned int seen = 0, i;
	char longline[400];

	EXPECT(mkdtemp(root) != NULL);
	EXPECT(n && rec && c0.data);
	if (!n || !rec || !c0.data)
		goto out;
	memset(longline, 'x', sizeof(longline));
	fake_proc(root, 4242, "worker", 77, line, sizeof(line) - 1);
	fake_proc(root, 4243, "execd", 77, "other", 5);	/* has its own */
	fake_proc(root, 4245, "reused", 1, "wrong", 5);	/* another parent */
	fake_proc(root, 4246, "kthread", 2, "", 0);	/* no command line */
	fake_proc(root, 4247, "newname", 77, "wrong", 5);	/* another name */
	fake_proc(root, 4248, "a-thread", 77, "wrong", 5);
	fxt_newest_feed(n, 0, c0.data, c0.len);
	EXPECT_EQ_U(fxt_newest_stale(n), 0);
	fxt_newest_lookup_cmdlines(n, fxt_proc_cmdline, root);
	trailer_tracker = n;
	t = build(trailer_build);
	EXPECT_EQ_U(trailer_result, 1);
	EXPECT_EQ_U(fxt_newest_cmdlines(n), 1);
	r = t.data ? fxt_reader_open_mem(t.data, t.len) : NULL;
	EXPECT(r != NULL);
	while (r && fxt_reader_next(r, rec) == 1) {
		static const char want[] = "worker --fast a b";

		if (rec->type != FXT_REC_KERNEL_OBJ)
			continue;
		seen++;
		EXPECT_EQ_U(rec->u.kobj.koid, 4242);
		EXPECT_EQ_U(rec->u.kobj.parent, 77);
		for (i = 0; i < rec->nargs; i++) {
			const struct fxt_arg *a = &rec->args[i];

			if (a->name.len != 7 || memcmp(a->name.data, "cmdline", 7))
				continue;
			EXPECT(a->type == FXT_ARG_STRING &&
			       a->v.str.len == sizeof(want) - 1 &&
			       !memcmp(a->v.str.data, want, sizeof(want) - 1));
			seen += 10;
		}
	}
	EXPECT_EQ_U(seen, 11);
	if (r)
		fxt_reader_close(r);
	/* The cut: at most FXT_TRAILER_CMDLINE_MAX bytes. */
	{
		char buf[FXT_TRAILER_CMDLINE_MAX];
		struct fxt_str nm = fxt_str("long");

		fake_proc(root, 4249, "long", 77, longline, sizeof(longline));
		EXPECT_EQ_U(fxt_proc_cmdline(root, 4249, nm, 77, buf, sizeof(buf)),
			    FXT_TRAILER_CMDLINE_MAX);
		EXPECT_EQ_U(fxt_proc_cmdline(root, 4249, nm, FXT_KOID_NONE, buf,
					     sizeof(buf)), FXT_TRAILER_CMDLINE_MAX);
		EXPECT_EQ_U(fxt_proc_cmdline(root, 4249, nm, 78, buf, sizeof(buf)), 0);
	}
out:
	/* Each fake_proc() made PID/stat and PID/cmdline. */
	for (unsigned int pid = 4242; pid <= 4249; pid++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%u/stat", root, pid);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%u/cmdline", root, pid);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%u", root, pid);
		rmdir(path);
	}
	EXPECT(rmdir(root) == 0);
	fxt_newest_free(n);
	free(rec);
	free(c0.data);
	free(t.data);
}

/* An interrupt event on CPU cpu's pseudo-thread, for irq_levels. */
static void irq_rec(struct fxt_record *rec, unsigned int cpu, bool begin,
		    const char *cat, const char *name, const char *arg,
		    uint8_t type, int32_t v)
{
	memset(rec, 0, sizeof(*rec));
	rec->type = FXT_REC_EVENT;
	rec->subtype = begin ? FXT_EVENT_DURATION_BEGIN : FXT_EVENT_DURATION_END;
	rec->provider = 99;	/* the thread says the CPU */
	rec->u.event.thread.defined = true;
	rec->u.event.thread.tid = FXT_KOID_IRQ_THREAD(cpu);
	rec->u.event.category = fxt_str(cat);
	rec->u.event.name = fxt_str(name);
	if (arg) {
		rec->nargs = 1;
		rec->args[0].name = fxt_str(arg);
		rec->args[0].type = type;
		if (type == FXT_ARG_BOOL)
			rec->args[0].v.b = v;
		else
			rec->args[0].v.i32 = v;
	}
}

/*
 * fxt-dump --perfetto's interrupts: each end written with its begin's
 * kind and number, an end without its begin (or of the other kind) not
 * at all, levels past 16 only counted.
 */
static void test_irq_levels(void)
{
	struct irq_levels l = { 0 };
	struct fxt_record *rec = malloc(sizeof(*rec));
	struct irq_event ev;
	unsigned int w;
	bool failed;
	int i;

	EXPECT(rec != NULL);
	if (!rec)
		return;
	/* An end from before the archive: nothing. */
	irq_rec(rec, 1, false, "irq", "eth0", NULL, 0, 0);
	EXPECT(!irq_levels_event(&l, rec, &ev, &failed) && !failed);
	EXPECT_EQ_U(l.unmatched, 1);
	/* softirq NET_RX, a handler inside it, its end unhandled. */
	irq_rec(rec, 1, true, "softirq", "NET_RX", NULL, 0, 0);
	EXPECT(irq_levels_event(&l, rec, &ev, &failed));
	EXPECT(ev.kind == IRQ_SOFTIRQ && ev.entry && ev.num == 3 && ev.cpu == 1);
	irq_rec(rec, 1, true, "irq", "eth0", "irq", FXT_ARG_INT32, 24);
	EXPECT(irq_levels_event(&l, rec, &ev, &failed));
	EXPECT(ev.kind == IRQ_HANDLER && ev.entry && ev.num == 24 &&
	       ev.name.len == 4);
	irq_rec(rec, 1, false, "irq", "eth0", "handled", FXT_ARG_BOOL, 0);
	EXPECT(irq_levels_event(&l, rec, &ev, &failed));
	EXPECT(ev.kind == IRQ_HANDLER && !ev.entry && ev.num == 24 && !ev.handled);
	/* A hard end while a softirq is innermost: another's, not written. */
	irq_rec(rec, 1, false, "irq", "eth0", NULL, 0, 0);
	EXPECT(!irq_levels_event(&l, rec, &ev, &failed));
	EXPECT_EQ_U(l.unmatched, 2);
	irq_rec(rec, 1, false, "softirq", "NET_RX", NULL, 0, 0);
	EXPECT(irq_levels_event(&l, rec, &ev, &failed));
	EXPECT(ev.kind == IRQ_SOFTIRQ && !ev.entry && ev.num == 3);
	/* The timer vector and another vector. */
	irq_rec(rec, 0, true, "irq", "local_timer", "vector", FXT_ARG_INT32, 236);
	EXPECT(irq_levels_event(&l, rec, &ev, &failed) && ev.kind == IRQ_LOCAL_TIMER);
	irq_rec(rec, 0, true, "irq", "reschedule", "vector", FXT_ARG_INT32, 253);
	EXPECT(irq_levels_event(&l, rec, &ev, &failed) &&
	       ev.kind == IRQ_VECTOR && ev.num == 253);
	irq_rec(rec, 0, false, "irq", "reschedule", NULL, 0, 0);
	EXPECT(irq_levels_event(&l, rec, &ev, &failed) &&
	       ev.kind == IRQ_VECTOR && ev.num == 253 && ev.handled);
	irq_rec(rec, 0, false, "irq", "local_timer", NULL, 0, 0);
	EXPECT(irq_levels_event(&l, rec, &ev, &failed) && ev.kind == IRQ_LOCAL_TIMER);
	/* A softirq vector with no name: neither its begin nor its end. */
	irq_rec(rec, 0, true, "softirq", "", "vector", FXT_ARG_UINT32, 12);
	EXPECT(!irq_levels_event(&l, rec, &ev, &failed));
	irq_rec(rec, 0, false, "softirq", "", NULL, 0, 0);
	EXPECT(!irq_levels_event(&l, rec, &ev, &failed));
	EXPECT_EQ_U(l.unmatched, 2);
	/* 20 levels: 16 written each way, the 4 innermost counted only. */
	for (i = 0, w = 0; i < 20; i++) {
		irq_rec(rec, 2, true, "irq", "x", "irq", FXT_ARG_INT32, i);
		w += irq_levels_event(&l, rec, &ev, &failed);
	}
	EXPECT_EQ_U(w, 16);
	for (i = 19, w = 0; i >= 0; i--) {
		irq_rec(rec, 2, false, "irq", "x", NULL, 0, 0);
		if (irq_levels_event(&l, rec, &ev, &failed)) {
			w++;
			EXPECT_EQ_U(ev.num, i);
		}
	}
	EXPECT_EQ_U(w, 16);
	EXPECT_EQ_U(l.unmatched, 2);
	irq_levels_free(&l);
	free(rec);
}

/*
 * The Perfetto blob that says a CPU lost events: Trace { packet {
 * ftrace_events { cpu lost_events: true } trusted_packet_sequence_id 1 } },
 * byte for byte as protoc would encode it, in a blob record of type 3.
 */
static void lost_events_blob(struct fxt_writer *w)
{
	fxt_write_magic(w);
	EXPECT(fxt_write_perfetto_lost_events(w, 300) == 0);
}

static void test_perfetto_lost_events(void)
{
	static const uint8_t cpu1[] = { 0x0a, 0x08, 0x0a, 0x04, 0x08, 0x01, 0x18, 0x01,
					0x50, 0x01 };
	static const uint8_t cpu300[] = { 0x0a, 0x09, 0x0a, 0x05, 0x08, 0xac, 0x02,
					  0x18, 0x01, 0x50, 0x01 };
	uint8_t buf[FXT_PERFETTO_LOST_EVENTS_MAX];
	struct blob b = build(lost_events_blob);
	struct fxt_record *rec = malloc(sizeof(*rec));
	struct fxt_reader *r;
	unsigned int blobs = 0;

	EXPECT_EQ_U(fxt_perfetto_lost_events(1, buf, sizeof(buf)), sizeof(cpu1));
	EXPECT(!memcmp(buf, cpu1, sizeof(cpu1)));
	EXPECT_EQ_U(fxt_perfetto_lost_events(300, buf, sizeof(buf)), sizeof(cpu300));
	EXPECT(!memcmp(buf, cpu300, sizeof(cpu300)));
	EXPECT_EQ_U(fxt_perfetto_lost_events(1, buf, 8), 0);
	r = b.data && rec ? fxt_reader_open_mem(b.data, b.len) : NULL;
	EXPECT(r != NULL);
	while (r && fxt_reader_next(r, rec) == 1) {
		if (rec->type != FXT_REC_BLOB)
			continue;
		blobs++;
		EXPECT_EQ_U(rec->u.blob.blob_type, FXT_BLOB_TYPE_PERFETTO);
		EXPECT_EQ_U(rec->u.blob.size, sizeof(cpu300));
		EXPECT(rec->u.blob.payload && !memcmp(rec->u.blob.payload, cpu300, sizeof(cpu300)));
	}
	EXPECT_EQ_U(blobs, 1);
	if (r)
		fxt_reader_close(r);
	free(rec);
	free(b.data);
}

/*
 * The power packets fxt.ko writes (include/fxt/perfetto_blob.h), decoded back
 * by fxt_perfetto_power_events(); a cpu_idle packet byte for byte as
 * protoc would encode it; every truncation decodes to an error or to
 * nothing, never past the payload (ASan); a lost-events packet has none.
 */
static void test_perfetto_power(void)
{
	/* packet { ftrace_events { cpu: 1 event { timestamp: 1000 pid: 0
	 * cpu_idle { state: 2 cpu_id: 1 } } } trusted_packet_sequence_id: 1 } */
	static const uint8_t idle1[] = { 0x0a, 0x13, 0x0a, 0x0f, 0x08, 0x01, 0x12, 0x0b,
					 0x08, 0xe8, 0x07, 0x10, 0x00, 0x6a, 0x04, 0x08,
					 0x02, 0x10, 0x01, 0x50, 0x01 };
	static const struct {
		unsigned int event;
		uint32_t cpu, pid, state;
		uint64_t ts;
	} cases[] = {
		{ FXT_PB_EVENT_CPU_IDLE, 0, 0, 1, 1000000 },
		{ FXT_PB_EVENT_CPU_IDLE, 4095, 0, FXT_PB_IDLE_EXIT, UINT64_MAX },
		{ FXT_PB_EVENT_CPU_FREQUENCY, 300, 4194303, 3400000, 123456789012345ull },
		{ FXT_PB_EVENT_CPU_FREQUENCY, UINT32_MAX, UINT32_MAX, UINT32_MAX, 0 },
	};
	uint8_t buf[FXT_PB_POWER_PACKET_MAX], lost[FXT_PERFETTO_LOST_EVENTS_MAX];
	struct fxt_power_event e[2];
	unsigned int n;

	n = fxt_pb_power_packet(buf, FXT_PB_EVENT_CPU_IDLE, 1, 1000, 0, 2);
	EXPECT_EQ_U(n, sizeof(idle1));
	EXPECT(!memcmp(buf, idle1, sizeof(idle1)));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = fxt_pb_power_packet(buf, cases[i].event, cases[i].cpu, cases[i].ts,
					cases[i].pid, cases[i].state);
		EXPECT(n <= FXT_PB_POWER_PACKET_MAX);
		memset(e, 0, sizeof(e));
		EXPECT_EQ_U(fxt_perfetto_power_events(buf, n, e, 2), 1);
		EXPECT_EQ_U(e[0].event, cases[i].event);
		EXPECT_EQ_U(e[0].cpu, cases[i].cpu);
		EXPECT_EQ_U(e[0].cpu_id, cases[i].cpu);
		EXPECT_EQ_U(e[0].pid, cases[i].pid);
		EXPECT_EQ_U(e[0].state, cases[i].state);
		EXPECT_EQ_U(e[0].ts, cases[i].ts);
		for (unsigned int cut = 0; cut < n; cut++) {
			uint8_t *t = malloc(cut ? cut : 1);

			memcpy(t, buf, cut);
			EXPECT(fxt_perfetto_power_events(t, cut, e, 2) <= 0);
			free(t);
		}
	}
	n = (unsigned int)fxt_perfetto_lost_events(7, lost, sizeof(lost));
	EXPECT_EQ_U(fxt_perfetto_power_events(lost, n, e, 2), 0);
	EXPECT_EQ_U(fxt_perfetto_power_events(NULL, 0, e, 2), 0);
}

/* At most max_objects koids; the rest are counted, never misnamed. */
static void test_newest_limit(void)
{
	struct blob c0 = build(newest_cpu0);
	struct fxt_newest *n = fxt_newest_new(2);

	EXPECT(n && c0.data);
	if (n && c0.data) {
		fxt_newest_feed(n, 0, c0.data, c0.len);
		EXPECT_EQ_U(fxt_newest_koids(n), 2);
		EXPECT_EQ_U(fxt_newest_untracked(n), 4);
		EXPECT_EQ_U(fxt_newest_stale(n), 0);
	}
	fxt_newest_free(n);
	free(c0.data);
}

/*
 * The golden archive "names" ends with the trailer fxt-collect writes:
 * feeding its CPUs' records to a tracker gives exactly those bytes.
 */
static void test_newest_golden(void)
{
	struct blob g = build_case(tcase_find("names")), t = { NULL, 0 };
	struct fxt_newest *n = fxt_newest_new(100);
	size_t off = 8, trailer = 0;
	uint32_t provider = 0;

	EXPECT(g.data && n);
	if (!g.data || !n)
		goto out;
	while (off + 8 <= g.len) {
		uint64_t h;
		size_t words;

		memcpy(&h, g.data + off, 8);
		words = fxt_record_words(h);
		if (!words)
			break;
		if (fxt_record_type(h) == FXT_REC_METADATA &&
		    (FXT_G(h, FXT_META_TYPE_FIELD) == FXT_META_PROVIDER_INFO ||
		     FXT_G(h, FXT_META_TYPE_FIELD) == FXT_META_PROVIDER_SECTION)) {
			provider = (uint32_t)FXT_G(h, FXT_META_PROVIDER_FIELD);
			if (provider == FXT_NAMES_PROVIDER_ID) {
				trailer = off;
				break;
			}
		} else {
			fxt_newest_feed(n, provider, g.data + off, words * 8);
		}
		off += words * 8;
	}
	EXPECT(trailer != 0);
	EXPECT_EQ_U(fxt_newest_stale(n), 1);
	trailer_tracker = n;
	t = build(trailer_build);
	EXPECT_EQ_U(trailer_result, 1);
	EXPECT(t.data && t.len == 8 + g.len - trailer &&
	       !memcmp(t.data + 8, g.data + trailer, g.len - trailer));
out:
	fxt_newest_free(n);
	free(g.data);
	free(t.data);
}

/*
 * format.h's field table: the fields of each header word, reserved ranges
 * included, are within the word, do not overlap and cover all 64 bits.
 */
struct layout {
	const char *what;
	unsigned int fields[10];	/* 0 ends: FXT_FIELD(0, 0) is no field here */
};

#define HDR	FXT_RECORD_TYPE_FIELD, FXT_RECORD_WORDS_FIELD
#define META	HDR, FXT_META_TYPE_FIELD
#define ARG	FXT_ARG_TYPE_FIELD, FXT_ARG_WORDS_FIELD, FXT_ARG_NAME_FIELD

static const struct layout layouts[] = {
	{ "provider info", { META, FXT_META_PROVIDER_FIELD, FXT_PROVIDER_INFO_NAME_LEN_FIELD,
			     FXT_PROVIDER_INFO_RESERVED_FIELD } },
	{ "provider section", { META, FXT_META_PROVIDER_FIELD,
				FXT_PROVIDER_SECTION_RESERVED_FIELD } },
	{ "provider event", { META, FXT_META_PROVIDER_FIELD, FXT_PROVIDER_EVENT_FIELD,
			      FXT_PROVIDER_EVENT_RESERVED_FIELD } },
	{ "trace info", { META, FXT_TRACE_INFO_TYPE_FIELD, FXT_TRACE_INFO_MAGIC_FIELD,
			  FXT_TRACE_INFO_RESERVED_FIELD } },
	{ "initialization", { HDR, FXT_INIT_RESERVED_FIELD } },
	{ "string", { HDR, FXT_STRING_INDEX_FIELD, FXT_STRING_RESERVED1_FIELD,
		      FXT_STRING_LEN_FIELD, FXT_STRING_RESERVED2_FIELD } },
	{ "thread", { HDR, FXT_THREAD_INDEX_FIELD, FXT_THREAD_RESERVED_FIELD } },
	{ "event", { HDR, FXT_EVENT_TYPE_FIELD, FXT_EVENT_NARGS_FIELD, FXT_EVENT_THREAD_FIELD,
		     FXT_EVENT_CATEGORY_FIELD, FXT_EVENT_NAME_FIELD } },
	{ "blob", { HDR, FXT_BLOB_NAME_FIELD, FXT_BLOB_SIZE_FIELD, FXT_BLOB_RESERVED1_FIELD,
		    FXT_BLOB_TYPE_FIELD, FXT_BLOB_RESERVED2_FIELD } },
	{ "userspace object", { HDR, FXT_UOBJ_PROCESS_FIELD, FXT_UOBJ_NAME_FIELD,
				FXT_UOBJ_NARGS_FIELD, FXT_UOBJ_RESERVED_FIELD } },
	{ "kernel object", { HDR, FXT_KOBJ_TYPE_FIELD, FXT_KOBJ_NAME_FIELD,
			     FXT_KOBJ_NARGS_FIELD, FXT_KOBJ_RESERVED_FIELD } },
	{ "context switch", { HDR, FXT_SWITCH_CPU_FIELD, FXT_SWITCH_OUT_STATE_FIELD,
			      FXT_SWITCH_OUT_THREAD_FIELD, FXT_SWITCH_IN_THREAD_FIELD,
			      FXT_SWITCH_OUT_PRIO_FIELD, FXT_SWITCH_IN_PRIO_FIELD,
			      FXT_SCHED_TYPE_FIELD } },
	{ "context switch v2", { HDR, FXT_SWITCH_V2_NARGS_FIELD, FXT_SWITCH_V2_CPU_FIELD,
				 FXT_SWITCH_V2_OUT_STATE_FIELD, FXT_SWITCH_V2_RESERVED_FIELD,
				 FXT_SCHED_TYPE_FIELD } },
	{ "thread wakeup", { HDR, FXT_WAKEUP_NARGS_FIELD, FXT_WAKEUP_CPU_FIELD,
			     FXT_WAKEUP_RESERVED_FIELD, FXT_SCHED_TYPE_FIELD } },
	{ "log", { HDR, FXT_LOG_LEN_FIELD, FXT_LOG_RESERVED1_FIELD, FXT_LOG_THREAD_FIELD,
		   FXT_LOG_RESERVED2_FIELD } },
	{ "large blob", { FXT_RECORD_TYPE_FIELD, FXT_LARGE_WORDS_FIELD, FXT_LARGE_TYPE_FIELD,
			  FXT_LBLOB_FORMAT_FIELD, FXT_LBLOB_RESERVED_FIELD } },
	{ "large blob format, metadata", { FXT_LBLOB_CATEGORY_FIELD, FXT_LBLOB_NAME_FIELD,
					   FXT_LBLOB_NARGS_FIELD, FXT_LBLOB_THREAD_FIELD,
					   FXT_LBLOB_META_RESERVED_FIELD } },
	{ "large blob format, no metadata", { FXT_LBLOB_CATEGORY_FIELD, FXT_LBLOB_NAME_FIELD,
					      FXT_LBLOB_NO_META_RESERVED_FIELD } },
	{ "argument", { ARG, FXT_ARG_VALUE32_FIELD } },
	{ "bool argument", { ARG, FXT_ARG_BOOL_FIELD, FXT_ARG_BOOL_RESERVED_FIELD } },
	{ "string argument", { ARG, FXT_ARG_STRING_FIELD, FXT_ARG_STRING_RESERVED_FIELD } },
};

static void test_field_table(void)
{
	size_t i, k;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		uint64_t seen = 0;

		for (k = 0; k < 10 && layouts[i].fields[k]; k++) {
			unsigned int f = layouts[i].fields[k];
			unsigned int lo = FXT_FIELD_LO(f), hi = FXT_FIELD_HI(f);
			uint64_t bits = FXT_F(~0ull, f);

			EXPECT(lo <= hi && hi <= 63);
			EXPECT_EQ_U(bits, (~0ull >> (63 - hi)) & (~0ull << lo));
			EXPECT_EQ_U(FXT_G(bits, f), FXT_MASK(f));
			if (seen & bits)
				fprintf(stderr, "%s: field [%u..%u] overlaps another\n",
					layouts[i].what, lo, hi);
			EXPECT(!(seen & bits));
			seen |= bits;
		}
		if (seen != ~0ull)
			fprintf(stderr, "%s: bits 0x%016llx are in no field\n", layouts[i].what,
				(unsigned long long)~seen);
		EXPECT_EQ_U(seen, ~0ull);
	}
	/* The encoders put each value where the decoders' field finds it. */
	EXPECT_EQ_U(FXT_G(fxt_switch_header(5, 3, FXT_THREAD_BLOCKED, 7, 9, 120, 130),
			  FXT_SWITCH_IN_PRIO_FIELD), 130);
	EXPECT_EQ_U(FXT_G(fxt_switch_header(5, 3, FXT_THREAD_BLOCKED, 7, 9, 120, 130),
			  FXT_SWITCH_OUT_THREAD_FIELD), 7);
	EXPECT_EQ_U(FXT_G(fxt_wakeup_header(4, 2, 0xffff), FXT_WAKEUP_CPU_FIELD), 0xffff);
	EXPECT_EQ_U(FXT_G(fxt_kobj_header(3, FXT_OBJ_THREAD, 0x8005, 2), FXT_KOBJ_NAME_FIELD),
		    0x8005);
	EXPECT_EQ_U(FXT_G(fxt_event_header(2, FXT_EVENT_COUNTER, 1, 4, 0x1234, 0xfedc),
			  FXT_EVENT_NAME_FIELD), 0xfedc);
	EXPECT_EQ_U(FXT_G(fxt_large_blob_header(0x12345678, FXT_LARGE_BLOB_NO_METADATA),
			  FXT_LARGE_WORDS_FIELD), 0x12345678);
	EXPECT_EQ_U(FXT_G(FXT_MAGIC_RECORD, FXT_TRACE_INFO_MAGIC_FIELD), FXT_MAGIC_NUMBER);
}

int main(void)
{
	run("format.h: fields cover each header word once", test_field_table);
	run("writer: magic bytes", test_writer_magic);
	run("writer: invalid arguments", test_writer_invalid_args);
	run("writer: sticky error", test_writer_sticky_error);
	run("writer: no torn record on error", test_writer_truncates_on_error);
	run("writer: raw data larger than the buffer", test_writer_raw_large);
	run("reader: round trip all-types", test_roundtrip_all_types);
	run("reader: round trip basic", test_roundtrip_basic);
	run("reader: decoded values", test_decode_values);
	run("reader: golden archives are clean", test_golden_clean);
	run("reader: check archives", test_check_cases);
	run("reader: duration nesting, only when asked", test_duration_nesting);
	run("reader: read error", test_io_error);
	run("reader: truncation at every offset", test_truncation);
	run("reader: per-provider state", test_providers);
	run("reader: skipped arguments", test_skip_args);
	run("merge: time order across providers", test_merge);
	run("merge: reads the file twice, the reader once", test_bytes_read);
	run("sleep event: recognized, and only it", test_sleep_event);
	run("fxt-report: loss records as gaps, malformed ones not", test_report_gap_event);
	run("sleep event: paired with its switch, only when asked", test_sleep_pairing);
	run("reader: every diagnostic is tested", test_all_diags_covered);
	run("outbuf: formatting", test_outbuf);
	run("hist: percentiles", test_hist);
	run("options: sizes and modes", test_options);
	run("options: durations", test_durations);
	run("options: trigger specs and their categories", test_triggers);
	run("options: the archive of each window", test_window_paths);
	run("device: the TRIGGERED packet", test_triggered_packet);
	run("device: errors as messages, without the module", test_device_errors);
	run("command: released once tracing started", test_command);
	run("progress: only on a terminal", test_progress);
	run("thread names over time: runs, restatements, order", test_name_history);
	run("name intern: one id per name, hash collisions kept apart", test_name_intern);
	run("reused tids: each thread keeps its own name", test_pid_reuse);
	run("newest names: the trailer restates stale koids", test_newest_trailer);
	run("fxt-dump --perfetto: interrupt ends paired with their begins",
	    test_irq_levels);
	run("perfetto blob: a CPU's lost events, as protoc encodes them",
	    test_perfetto_lost_events);
	run("perfetto blobs: power packets encode as protoc would and decode back",
	    test_perfetto_power);
	run("newest names: bounded by max_objects", test_newest_limit);
	run("trailer: command lines from procfs, for the same process only",
	    test_trailer_proc_cmdlines);
	run("newest names: the golden archive's trailer", test_newest_golden);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
