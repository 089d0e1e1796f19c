// SPDX-License-Identifier: MIT
/*
 * command.c - the command fxt-collect traces: forked before tracing
 * starts, so that its first instruction is traced, and held on a pipe
 * until tracing has started.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"

int fxt_command_spawn(struct fxt_command *c, char **argv, const char *prog,
		      const char **failed)
{
	int pfd[2];

	c->go_fd = -1;
	*failed = "pipe";
	if (pipe(pfd))
		return -errno;
	*failed = "fork";
	c->pid = fork();
	if (c->pid < 0) {
		int err = -errno;

		close(pfd[0]);
		close(pfd[1]);
		return err;
	}
	if (!c->pid) {
		char go;
		int err;

		close(pfd[1]);
		/* Start only once tracing has started. */
		if (read(pfd[0], &go, 1) != 1)
			_exit(127);
		close(pfd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		err = errno;
		fprintf(stderr, "%s: %s: %s\n", prog, argv[0], strerror(err));
		/* As shells say it: not found, or found but not runnable. */
		_exit(err == ENOENT ? 127 : 126);
	}
	close(pfd[0]);
	c->go_fd = pfd[1];
	return 0;
}

int fxt_command_release(struct fxt_command *c)
{
	int err = 0;

	if (c->go_fd < 0)
		return 0;
	if (write(c->go_fd, "g", 1) != 1)
		err = -errno;
	close(c->go_fd);
	c->go_fd = -1;
	return err;
}

void fxt_command_reap(struct fxt_command *c)
{
	int status;

	if (c->pid <= 0 || c->done)
		return;
	if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
		c->status = status;
		c->done = true;
	}
}

void fxt_command_end(struct fxt_command *c)
{
	if (c->pid <= 0 || c->done)
		return;
	kill(c->pid, SIGTERM);
	if (waitpid(c->pid, &c->status, 0) == c->pid)
		c->done = true;
}
