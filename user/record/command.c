// SPDX-License-Identifier: GPL-2.0
/* The command under audit: started stopped, released once the hooks follow it. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/command.h"
#include "lib/util.h"
#include "record/launch.h"
#include "record/service.h"

/* ---- the command under audit ------------------------------------------ */

/* Where execvp() would find name: the first PATH entry holding an
 * executable file of that name (as the user the child now is), or NULL
 * (a name with a slash, or none found: execvp() then says why). */
static const char *search_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *e;
	struct stat st;

	if (!name[0] || strchr(name, '/'))
		return NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = e + 1) {
		e = strchrnul(p, ':');
		if ((size_t)snprintf(buf, len, "%.*s%s%s", (int)(e - p), p, e > p ? "/" : "", name) <
		    len && !stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
			return buf;
		if (!*e)
			return NULL;
	}
}

/*
 * Fork the command so that it waits on a pipe until the tracer follows it:
 * nothing it does after exec is missed. With a launch (run --caps) the
 * child first takes its user and capability sets, then says it is ready:
 * those steps are capaudit's doing, not the command's, and are never
 * traced. An exec failure comes back as a message; success closes the pipe.
 */
pid_t spawn_stopped(char **cmd, const struct launch *l, bool stdout_taken, int *go_fd,
			   int *msg_fd)
{
	struct child_report r = { 0 };
	int go[2], ep[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		const char *stage = "", *path;
		char c, pathbuf[4096];

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		close(go[1]);
		close(ep[0]);
		/* -o -: the record owns standard output; the command's goes to
		 * standard error */
		if (stdout_taken && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		r.msg = CHILD_READY;
		if (l && launch_apply(l, &stage)) {
			r.msg = CHILD_LAUNCH_FAILED;
			r.err = errno;
			snprintf(r.stage, sizeof(r.stage), "%s", stage);
		}
		/* the PATH search now, before the hooks are attached: with
		 * --user it may meet directories that user cannot search, and
		 * those checks are capaudit's, not the command's */
		path = r.msg == CHILD_READY ? search_path(cmd[0], pathbuf, sizeof(pathbuf)) : NULL;
		if (write(ep[1], &r, sizeof(r)) != sizeof(r) || r.msg != CHILD_READY)
			_exit(127);
		if (read(go[0], &c, 1) != 1)
			_exit(127);  /* the recorder gave up */
		if (l && l->service) {
			service_exec(l->service, ep[1]);   /* record --service */
		} else {
			if (l)
				launch_user_env(l);
			if (path)
				execv(path, cmd);
			execvp(cmd[0], cmd);
		}
		r.msg = CHILD_EXEC_FAILED;
		r.err = errno;
		if (write(ep[1], &r, sizeof(r)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	*go_fd = go[1];
	*msg_fd = ep[0];
	return pid;
}

/* The child's report; a signal (SIGINT...) arriving meanwhile does not cut
 * the wait short: the handler only notes it, the loop acts on it later. */
ssize_t read_report(int fd, struct child_report *r)
{
	ssize_t n;

	do
		n = read(fd, r, sizeof(*r));
	while (n < 0 && errno == EINTR);
	return n;
}

void reap_child(pid_t child, bool *done, int *status)
{
	int st;

	if (child > 0 && !*done && waitpid(child, &st, WNOHANG) == child) {
		*done = true;
		*status = st;
	}
}

void reap_children(pid_t child, pid_t keep, bool *done, int *status)
{
	for (;;) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		/* who has exited, without reaping it yet */
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) || !si.si_pid)
			return;
		if (si.si_pid == child) {
			reap_child(child, done, status);
			if (!*done)
				return;
		} else if (si.si_pid == keep || waitpid(si.si_pid, NULL, WNOHANG) <= 0) {
			return;
		}
	}
}

int status_to_exit(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

