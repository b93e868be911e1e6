// SPDX-License-Identifier: GPL-2.0
/* A cgroup of its own for each verify run (runbox.h). */
#include "engines/runbox.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/cgroup.h"
#include "lib/proctree.h"
#include "lib/util.h"
#include "record/procinfo.h"

int runbox_open(struct runbox *b, const char *tag, int n)
{
	char root[256], mine[4096];
	int len;

	memset(b, 0, sizeof(*b));
	if (cgroup_v2_root(root, sizeof(root))) {
		snprintf(b->why_none, sizeof(b->why_none), "no cgroup v2 hierarchy is mounted");
		return -1;
	}
	if (cgroup_of_pid(getpid(), mine, sizeof(mine))) {
		snprintf(b->why_none, sizeof(b->why_none), "this process's cgroup is not known");
		return -1;
	}
	len = snprintf(b->dir, sizeof(b->dir), "%s%s/%s.%d.%d", root,
		       strcmp(mine, "/") ? mine : "", tag, (int)getpid(), n);
	if (len < 0 || (size_t)len >= sizeof(b->dir) || mkdir(b->dir, 0755)) {
		snprintf(b->why_none, sizeof(b->why_none), "cannot make a cgroup in %.80s%.60s: %s",
			 root, mine, len < 0 || (size_t)len >= sizeof(b->dir) ? "path too long" :
			 strerror(errno));
		b->dir[0] = '\0';
		return -1;
	}
	return 0;
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[600];
	int fd, rc = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) == (ssize_t)strlen(text))
		rc = 0;
	close(fd);
	return rc;
}

void runbox_enter(const struct runbox *b)
{
	/* (async-signal-safe: only open, write, close, setpgid) */
	if (!b->dir[0] || write_file(b->dir, "cgroup.procs", "0"))
		setpgid(0, 0);
}

/* The processes still in the box (pid and comm): at most max, their
 * count. */
struct runbox_proc {
	pid_t pid;
	char comm[17];
};

static size_t runbox_list(const struct runbox *b, struct runbox_proc *p, size_t max)
{
	char path[600], line[64];
	size_t n = 0;
	FILE *f;

	if (!b->dir[0])
		return 0;
	snprintf(path, sizeof(path), "%s/cgroup.procs", b->dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		long pid;

		line[strcspn(line, "\n")] = '\0';
		if (parse_int_range(line, 1, 1L << 22, &pid))
			continue;
		if (n < max) {
			struct procinfo pi;

			p[n].pid = (pid_t)pid;
			snprintf(p[n].comm, sizeof(p[n].comm), "%.16s",
				 procinfo_read((pid_t)pid, &pi) ? "?" : pi.comm);
		}
		n++;
	}
	fclose(f);
	return n;
}

int runbox_kill(const struct runbox *b, pid_t pgid)
{
	struct runbox_proc p[256];
	int i, rc = -1;

	if (!b->dir[0] && pgid > 0)
		kill(-pgid, SIGKILL);
	/* cgroup.kill (Linux 5.14) reaches processes forked meanwhile too;
	 * before it, SIGKILL each until none is left */
	for (i = 0; b->dir[0] && i < 500; i++) {
		size_t n = runbox_list(b, p, sizeof(p) / sizeof(p[0])), k;

		if (!n) {
			rc = 0;
			break;
		}
		if (write_file(b->dir, "cgroup.kill", "1"))
			for (k = 0; k < n && k < sizeof(p) / sizeof(p[0]); k++)
				kill(p[k].pid, SIGKILL);
		pause_ms(10);   /* killed processes leave the cgroup as they are reaped */
	}
	/* and whatever left the box, the process group or the session: still
	 * below us */
	if (proctree_kill(NULL, 0, NULL, 0, NULL))
		return -1;
	return b->dir[0] ? rc : 0;
}

pid_t runbox_reap(pid_t run, int *st)
{
	pid_t got = 0;

	for (;;) {
		int s;
		pid_t w = waitpid(-1, &s, WNOHANG);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return got ? got : -1;
		if (w == 0)
			return got;
		if (w == run) {
			*st = s;
			got = run;
		}
	}
}

void runbox_close(struct runbox *b)
{
	if (b->dir[0])
		rmdir(b->dir);
	b->dir[0] = '\0';
}

size_t runbox_left(const struct runbox *b, pid_t run, char *buf, size_t len)
{
	struct runbox_proc boxed[64];
	struct proctree_proc *t, *keep;
	size_t nt = proctree_list(NULL, 0, &t), nb = runbox_list(b, boxed, 64), n = 0, i, j;

	keep = xcalloc(nt + nb + 1, sizeof(*keep));
	for (i = 0; i < nt; i++) {
		/* capaudit run, and its output keeper (of run's, or ours once run
		 * has exited: we are its subreaper) */
		if (t[i].pid == run || (t[i].own_exe && (t[i].ppid == run || t[i].ppid == getpid())))
			continue;
		keep[n++] = t[i];
	}
	for (i = 0; i < nb && i < 64; i++) {
		for (j = 0; j < nt && t[j].pid != boxed[i].pid; j++)
			;
		if (j < nt || boxed[i].pid == run)
			continue;   /* below us: above, kept or not */
		keep[n].pid = boxed[i].pid;
		snprintf(keep[n++].comm, sizeof(keep->comm), "%s", boxed[i].comm);
	}
	proctree_names(keep, n, buf, len);
	free(keep);
	free(t);
	return n;
}
