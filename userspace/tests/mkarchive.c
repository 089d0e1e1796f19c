// SPDX-License-Identifier: MIT
/*
 * mkarchive - write one of the test archives of archives.c to a file.
 *
 *   mkarchive --list          name, kind (golden/check) and whether the
 *                             tools read it as the unit tests do ("cli")
 *   mkarchive NAME FILE       write archive NAME to FILE
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "archives.h"

int main(int argc, char **argv)
{
	const struct tcase *t;
	unsigned int i;
	int fd, err;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < ntcases; i++) {
			t = &tcases[i];
			printf("%s %s %s\n", t->name, t->kind == T_GOLDEN ? "golden" : "check",
			       t->bufsize || t->memlimit ? "unit" : "cli");
		}
		return 0;
	}
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
