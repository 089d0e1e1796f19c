/* SPDX-License-Identifier: MIT */
/*
 * command.h - a command traced from its first instruction (collect/command.c):
 * forked before tracing starts, it waits on a pipe and execs only once
 * released.
 */
#ifndef LIBFXT_COMMAND_H
#define LIBFXT_COMMAND_H

#include <stdbool.h>
#include <sys/types.h>

struct fxt_command {
	pid_t pid;		/* 0: no command */
	int go_fd;		/* write end of the pipe it waits on, or -1 */
	int status;		/* wait status, once done */
	bool done;
};

/*
 * Fork argv, which waits to be released. 0, or -errno with *failed naming
 * the call that failed ("pipe" or "fork"). prog prefixes exec's error.
 */
int fxt_command_spawn(struct fxt_command *c, char **argv, const char *prog,
		      const char **failed);
int fxt_command_release(struct fxt_command *c);	/* 0 or -errno */
void fxt_command_reap(struct fxt_command *c);	/* sets done if it exited */
/* SIGTERM to a command still running, and wait for it. */
void fxt_command_end(struct fxt_command *c);

#endif /* LIBFXT_COMMAND_H */
