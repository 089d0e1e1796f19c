// SPDX-License-Identifier: MIT
/*
 * mkarchive - write one of the test archives of archives.c to a file.
 *
 *   mkarchive --list          name, kind (golden/check/report), whether the
 *                             tools read it as the unit tests do ("cli"),
 *                             "golden-check" when its --check output is
 *                             compared with tests/golden/NAME.check (else
 *                             "-"), and for a check archive "error" when
 *                             --check must fail on it, "warning" when it
 *                             must pass with warnings only (else "-"),
 *                             and "perfetto" when selftests/perfetto-check
 *                             must pass on it (else "-")
 *   mkarchive NAME FILE       write archive NAME to FILE
 *   mkarchive --large MIB FILE
 *                             a sparse archive of MIB MiB: a magic number,
 *                             provider "cpu0" and one large blob over the
 *                             rest (the reader skips it with a TOO_LARGE
 *                             warning): big enough for the progress
 *                             indicator, cheap to write and to read
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archives.h"

static int write_large(unsigned long long mib, const char *path)
{
	uint64_t size = (uint64_t)mib << 20, head, words;
	struct fxt_writer w;
	int fd, err;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || mib < 1 || mib > 16384 || fxt_writer_init(&w, fd)) {
		fprintf(stderr, "mkarchive: %s: cannot write %llu MiB\n", path, mib);
		return 1;
	}
	fxt_write_magic(&w);
	fxt_write_provider_info(&w, 0, "cpu0");
	fxt_write_init(&w, 1000000000);
	head = fxt_writer_bytes(&w);
	words = (size - head) / 8;
	fxt_write_raw(&w, (const uint64_t[]){
		fxt_large_blob_header((uint32_t)words, FXT_LARGE_BLOB_NO_METADATA),
		fxt_large_blob_format_word(0, 0, 0, 0), (words - 3) * 8 }, 24);
	err = fxt_writer_flush(&w);
	fxt_writer_destroy(&w);
	if (err || ftruncate(fd, (off_t)(head + words * 8)) || close(fd)) {
		fprintf(stderr, "mkarchive: %s: write error\n", path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct tcase *t;
	unsigned int i;
	int fd, err;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ntcases; i++) {
			const char *sev = "-";
			unsigned int k;

			t = &tcases[i];
			if (t->kind == T_CHECK) {
				sev = "warning";
				for (k = 0; k < t->nexpect; k++)
					if (fxt_diag_severity(t->expect[k]) == FXT_SEV_ERROR)
						sev = "error";
			}
			printf("%s %s %s %s %s %s\n", t->name,
			       t->kind == T_GOLDEN ? "golden" :
			       t->kind == T_CHECK ? "check" : "report",
			       t->bufsize || t->memlimit ? "unit" : "cli",
			       t->golden_check ? "golden-check" : "-", sev,
			       t->perfetto ? "perfetto" : "-");
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--large"))
		return write_large(strtoull(argv[2], NULL, 10), argv[3]);
	if (argc != 3) {
		fprintf(stderr, "usage: mkarchive --list | mkarchive NAME FILE\n");
		return 2;
	}
	t = tcase_find(argv[1]);
	if (!t) {
		fprintf(stderr, "mkarchive: no archive %s\n", argv[1]);
		return 2;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "mkarchive: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	err = tcase_write(t, fd);
	if (close(fd) || err) {
		fprintf(stderr, "mkarchive: %s: %s\n", argv[2], strerror(err ? -err : errno));
		return 1;
	}
	return 0;
}
