// SPDX-License-Identifier: GPL-2.0
/*
 * fxt_security - who may open /dev/fxt, and what the records reveal.
 *
 * (a) A process that dropped every capability and runs as nobody (65534)
 *     cannot open the node: EACCES with the node's mode 0600, and EPERM
 *     (the capability check) with the node made 0666 for the test (the
 *     mode is restored). With CAP_PERFMON alone it can (0666 node).
 * (b) No kernel address ever reaches an archive: a trace with every
 *     category under a mixed workload (fork/exec, pipes, timers, sleeps)
 *     is walked with libfxt, and no 64-bit word of any record, nor any
 *     decoded argument value, lies in the x86_64 kernel half
 *     (>= 0xffff800000000000). No fxt record has a field whose high bits
 *     may legitimately be set (koids are < 2^32, timestamps are boot-time
 *     ns, refs and sizes are small), and no pointer-typed argument.
 * (c) A fork() does not hand the mapped buffers to the child (VM_DONTCOPY;
 *     fxt-collect forks the traced command after mapping): the child's read
 *     at the address the parent mapped them at dies of SIGSEGV, while the
 *     parent still reads them.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/fxt.h>
#include <fxt/format.h>
#include <fxt/perfetto_blob.h>

#include "collector.h"
#include "dump.h"
#include "kfile.h"
#include "libfxt.h"
#include "kselftest_harness.h"

#define NOBODY		65534
#define KERNEL_HALF	0xffff800000000000ull

/*
 * In a child: become nobody with no capability at all, or with only
 * CAP_PERFMON (effective + permitted). Return: 0 or -errno.
 */
static int become_nobody(bool keep_perfmon)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (keep_perfmon && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -errno;
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return -errno;
	if (keep_perfmon) {
		d[CAP_PERFMON / 32].effective = 1u << (CAP_PERFMON % 32);
		d[CAP_PERFMON / 32].permitted = 1u << (CAP_PERFMON % 32);
	}
	if (syscall(SYS_capset, &h, d))
		return -errno;
	return 0;
}

/* open /dev/fxt as nobody in a child. Return: 0 (opened) or errno. */
static int open_as_nobody(bool keep_perfmon)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int err = become_nobody(keep_perfmon);
		int fd;

		if (err)
			_exit(200);
		if (getuid() != NOBODY || geteuid() != NOBODY)
			_exit(201);
		fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			_exit(0);
		}
		_exit(errno & 0x7f);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(unprivileged_open)
{
	struct stat st;
	int ret;

	ASSERT_EQ(0, stat(FXT_DEVICE_PATH, &st));
	EXPECT_EQ(0600, st.st_mode & 07777) TH_LOG("node mode %o", st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);

	ret = open_as_nobody(false);
	ASSERT_GT(200, ret) TH_LOG("could not become nobody (%d)", ret);
	EXPECT_EQ(EACCES, ret) TH_LOG("mode 0600, nobody: %s", strerror(ret));

	ASSERT_EQ(0, chmod(FXT_DEVICE_PATH, 0666));
	ret = open_as_nobody(false);
	EXPECT_EQ(EPERM, ret) TH_LOG("mode 0666, nobody without caps: %s",
				     ret ? strerror(ret) : "opened");
	ret = open_as_nobody(true);
	EXPECT_EQ(0, ret) TH_LOG("mode 0666, nobody with CAP_PERFMON: %s",
				 strerror(ret));
	ASSERT_EQ(0, chmod(FXT_DEVICE_PATH, st.st_mode & 07777));
	ASSERT_EQ(0, stat(FXT_DEVICE_PATH, &st));
	EXPECT_EQ(0600, st.st_mode & 07777);
}

/* A mixed workload: fork/exec, pipe ping-pong, timers, renames. */
static void workload(double seconds)
{
	double end = env_now() + seconds;
	int n = 0;

	while (env_now() < end) {
		pid_t pid = fork();

		if (pid == 0) {
			if (n % 2) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			prctl(PR_SET_NAME, "fxt-sec-child", 0, 0, 0);
			for (int i = 0; i < 50; i++) {
				struct timespec ts = { 0, 100000 };

				nanosleep(&ts, NULL);
			}
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		{
			int p[2];
			char b = 0;

			if (!pipe(p)) {
				for (int i = 0; i < 100; i++)
					if (write(p[1], &b, 1) != 1 || read(p[0], &b, 1) != 1)
						break;
				close(p[0]);
				close(p[1]);
			}
		}
		n++;
	}
}

struct scan {
	uint64_t records, words, args, bad_words, bad_args, ptr_args, diags;
	uint64_t power;		/* power blobs checked by their fields */
	uint64_t first_bad_off, first_bad_val;
	int first_bad_type;
};

static bool kernel_addr(uint64_t v)
{
	return v >= KERNEL_HALF && v != ~0ull;
}

/*
 * A power event's blob (records.rst "Power") whose payload is exactly the
 * packet fxt_pb_power_packet() makes of the event libfxt decodes from it:
 * its time, pid, CPU and a 32-bit state, nothing else. Its varints are no
 * words (cpu_idle's exit state, 4294967295, is ff ff ff ff 0f), so such
 * a payload is checked by its fields, the rest of a record by its words.
 */
static bool power_blob(const struct fxt_record *rec, struct scan *s)
{
	struct fxt_power_event e;
	uint8_t pkt[FXT_PB_POWER_PACKET_MAX];
	unsigned int n;

	if (rec->type != FXT_REC_BLOB || !rec->u.blob.payload ||
	    rec->u.blob.blob_type != FXT_BLOB_TYPE_PERFETTO ||
	    fxt_perfetto_power_events(rec->u.blob.payload, rec->u.blob.size, &e, 1) != 1)
		return false;
	n = fxt_pb_power_packet(pkt, e.event, e.cpu, e.ts, e.pid, e.state);
	if (n != rec->u.blob.size || memcmp(pkt, rec->u.blob.payload, n) || e.cpu != e.cpu_id)
		return false;
	s->words++;		/* the header */
	if (kernel_addr(rec->words[0]) || kernel_addr(e.ts)) {
		if (!s->bad_words++) {
			s->first_bad_off = rec->offset;
			s->first_bad_val = kernel_addr(e.ts) ? e.ts : rec->words[0];
			s->first_bad_type = rec->type;
		}
	}
	s->power++;
	return true;
}

static void scan_archive(const char *path, struct scan *s)
{
	struct fxt_reader *r = fxt_reader_open(path);
	struct fxt_record *rec = calloc(1, sizeof(*rec));

	memset(s, 0, sizeof(*s));
	if (!r || !rec) {
		s->diags = ~0ull;
		free(rec);
		return;
	}
	while (fxt_reader_next(r, rec) == 1) {
		s->records++;
		if (rec->words && !power_blob(rec, s)) {
			for (uint64_t i = 0; i < rec->nwords; i++) {
				s->words++;
				if (!kernel_addr(rec->words[i]))
					continue;
				if (!s->bad_words++) {
					s->first_bad_off = rec->offset + 8 * i;
					s->first_bad_val = rec->words[i];
					s->first_bad_type = rec->type;
				}
			}
		}
		for (unsigned int a = 0; a < rec->nargs; a++) {
			const struct fxt_arg *arg = &rec->args[a];

			s->args++;
			if (arg->type == FXT_ARG_POINTER)
				s->ptr_args++;
			if ((arg->type == FXT_ARG_UINT64 || arg->type == FXT_ARG_INT64 ||
			     arg->type == FXT_ARG_POINTER || arg->type == FXT_ARG_KOID) &&
			    kernel_addr(arg->v.u64))
				s->bad_args++;
		}
	}
	s->diags = fxt_reader_diag_count(r);
	fxt_reader_close(r);
	free(rec);
}

TEST(no_kernel_addresses_in_records)
{
	static const char *const extra[] = { "-c", "all", "-b", "1M", NULL };
	char archive[PATH_MAX], clog[PATH_MAX], dlog[PATH_MAX], why[256];
	struct scan s;
	pid_t pid;
	int status;

	snprintf(archive, sizeof(archive), "%s/security.fxt", env_tmpdir());
	snprintf(clog, sizeof(clog), "%s/security-collect.log", env_tmpdir());
	snprintf(dlog, sizeof(dlog), "%s/security-dump.log", env_tmpdir());
	pid = collector_start(archive, "streaming", extra, clog, why, sizeof(why));
	ASSERT_LT(0, pid) TH_LOG("%s", why);
	workload(env_ulong("FXT_SECURITY_SECONDS", 3));
	kill(pid, SIGINT);
	ASSERT_TRUE(child_wait(pid, 120, &status));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		child_log_print("collector", clog, 20);
	status = dump_check(archive, dlog, 120);
	EXPECT_EQ(0, status) child_log_print("fxt-dump --check", dlog, 10);

	scan_archive(archive, &s);
	fflush(stdout);
	printf("# %llu records, %llu words, %llu arguments scanned, %llu power blobs by their fields; %llu reader diagnostics\n",
	       (unsigned long long)s.records, (unsigned long long)s.words,
	       (unsigned long long)s.args, (unsigned long long)s.power,
	       (unsigned long long)s.diags);
	fflush(stdout);
	EXPECT_LT(1000, s.records) TH_LOG("too few records to mean anything");
	EXPECT_EQ(0, s.diags);
	EXPECT_EQ(0, s.bad_words)
		TH_LOG("first kernel-looking word %#llx at offset %#llx (record type %d)",
		       (unsigned long long)s.first_bad_val,
		       (unsigned long long)s.first_bad_off, s.first_bad_type);
	EXPECT_EQ(0, s.bad_args);
	EXPECT_EQ(0, s.ptr_args) TH_LOG("pointer-typed arguments in the archive");
}

/* The mapped buffers themselves, read raw while tracing: no kernel address. */
TEST(no_kernel_addresses_in_mapping)
{
	struct fxt_config c = { .buffer_size = 256u << 10, .mode = FXT_MODE_ONESHOT };
	struct fxt_start_options o = { .disposition = FXT_START_CLEAR_ENTIRE };
	struct fxt_stop_options so = { 0 };
	struct fxt_layout l;
	uint64_t bad = 0, first = 0, first_off = 0, words = 0;
	const uint64_t *m;
	int fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_INITIALIZE, &c));
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_LAYOUT, &l));
	m = mmap(NULL, l.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_START, &o));
	workload(0.5);
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_STOP, &so));
	for (uint64_t i = 0; i < l.map_size / 8; i++) {
		words++;
		if (kernel_addr(m[i]) && !bad++) {
			first = m[i];
			first_off = i * 8;
		}
	}
	printf("# %llu words of the mapping scanned\n", (unsigned long long)words);
	fflush(stdout);
	EXPECT_EQ(0, bad) TH_LOG("first %#llx at mapping offset %#llx",
				 (unsigned long long)first,
				 (unsigned long long)first_off);
	munmap((void *)m, l.map_size);
	close(fd);
}

/* (c) The mapping is not inherited: the child faults where the parent reads. */
TEST(mapping_not_inherited_by_fork)
{
	struct fxt_config c = { .buffer_size = 256u << 10, .mode = FXT_MODE_ONESHOT };
	struct fxt_layout l;
	const volatile uint32_t *m;
	int fd = open(FXT_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	int status;
	pid_t pid;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_INITIALIZE, &c));
	ASSERT_EQ(0, ioctl(fd, FXT_IOC_GET_LAYOUT, &l));
	m = mmap(NULL, l.map_size, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	ASSERT_EQ(FXT_BUFFER_MAGIC, m[0]);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		/* 0: the header read through an inherited mapping. */
		_exit(m[0] == FXT_BUFFER_MAGIC ? 0 : 1);
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		TH_LOG("child: %s %d; want killed by SIGSEGV",
		       WIFEXITED(status) ? "exited with" : "killed by signal",
		       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	/* The parent's mapping is untouched by the fork. */
	EXPECT_EQ(FXT_BUFFER_MAGIC, m[0]);
	munmap((void *)m, l.map_size);
	/* The child held no mapping: nothing keeps the buffers in use. */
	EXPECT_EQ(0, ioctl(fd, FXT_IOC_TERMINATE));
	close(fd);
}

TEST_HARNESS_MAIN
