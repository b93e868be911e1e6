// SPDX-License-Identifier: GPL-2.0
/* This process's descendants, found and stopped (proctree.h). */
#include "lib/proctree.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/util.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

int proctree_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/* One process as /proc/PID/stat shows it. */
struct ent {
	pid_t pid, ppid;
	char state;
	bool seen;
	uint64_t start;
	char comm[17];
};

/* pid comm state ppid ... starttime (field 22); comm may hold spaces and
 * parentheses: it ends at the last ')'. 0, or -1 when it is gone. */
static int read_stat(pid_t pid, struct ent *e)
{
	char path[64], buf[1024], *l, *r, *tok, *save = NULL;
	int fd, field;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	l = strchr(buf, '(');
	r = strrchr(buf, ')');
	if (!l || !r || r < l || !r[1])
		return -1;
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	snprintf(e->comm, sizeof(e->comm), "%.*s", (int)(r - l - 1 < 16 ? r - l - 1 : 16), l + 1);
	for (field = 3, tok = strtok_r(r + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save),
	     field++) {
		if (field == 3)
			e->state = tok[0];
		else if (field == 4)
			e->ppid = (pid_t)strtol(tok, NULL, 10);
		else if (field == 22) {
			e->start = strtoull(tok, NULL, 10);
			return 0;
		}
	}
	return -1;
}

static int cmp_ppid(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->ppid < y->ppid ? -1 : x->ppid > y->ppid;
}

/* Every process /proc shows: their number, the array in *out. */
static size_t scan(struct ent **out)
{
	struct ent *e = NULL;
	size_t n = 0, cap = 0;
	struct dirent *d;
	DIR *dir = opendir("/proc");

	*out = NULL;
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		grow_array((void **)&e, &cap, n + 1, sizeof(*e));
		if (!read_stat((pid_t)strtol(d->d_name, NULL, 10), &e[n]))
			n++;
	}
	closedir(dir);
	*out = e;
	return n;
}

static bool in(const pid_t *set, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == pid)
			return true;
	return false;
}

/* Whether pid runs the same executable as this process. */
static bool same_exe(pid_t pid)
{
	static struct stat self;
	static int have = -1;
	char path[64];
	struct stat st;

	if (have < 0)
		have = !stat("/proc/self/exe", &self);
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	return have && !stat(path, &st) && st.st_dev == self.st_dev && st.st_ino == self.st_ino;
}

size_t proctree_list(const pid_t *skip, size_t nskip, struct proctree_proc **out)
{
	struct ent *e, key;
	size_t n = scan(&e), nq = 0, head = 0, nout = 0, cap = 0;
	pid_t *queue;

	*out = NULL;
	if (!n) {
		free(e);
		return 0;
	}
	qsort(e, n, sizeof(*e), cmp_ppid);
	queue = xcalloc(n + 1, sizeof(*queue));
	queue[nq++] = getpid();
	/* breadth first from this process; a process is taken once (a pid
	 * reused while /proc was read could make a loop) */
	while (head < nq) {
		size_t lo = 0, hi = n;

		key.ppid = queue[head++];
		while (lo < hi) {   /* the first with this parent */
			size_t mid = (lo + hi) / 2;

			if (cmp_ppid(&e[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < n && e[lo].ppid == key.ppid; lo++) {
			struct proctree_proc *p;

			if (e[lo].seen || in(skip, nskip, e[lo].pid))
				continue;
			e[lo].seen = true;
			queue[nq++] = e[lo].pid;
			if (e[lo].state == 'Z' || e[lo].state == 'X')
				continue;   /* exited: nothing to stop */
			grow_array((void **)out, &cap, nout + 1, sizeof(**out));
			p = &(*out)[nout++];
			p->pid = e[lo].pid;
			p->ppid = e[lo].ppid;
			p->start_ticks = e[lo].start;
			p->own_exe = same_exe(p->pid);
			memcpy(p->comm, e[lo].comm, sizeof(p->comm));
		}
	}
	free(queue);
	free(e);
	return nout;
}

/* SIGKILL p if it still is the process found: 0 sent (or gone), -1 with
 * errno when the kernel refused. */
static int kill_found(const struct proctree_proc *p)
{
	int fd = (int)syscall(SYS_pidfd_open, p->pid, 0), rc = 0;
	struct ent now;

	if (fd < 0 && errno != ENOSYS)
		return 0;   /* gone */
	/* the pidfd holds the process now: is it the one found? (it may
	 * have been reparented to us meanwhile) */
	if (read_stat(p->pid, &now) || now.start != p->start_ticks ||
	    (now.ppid != p->ppid && now.ppid != getpid())) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (fd >= 0) {
		rc = (int)syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
		close(fd);
	} else {
		rc = kill(p->pid, SIGKILL);   /* before Linux 5.3: no pidfd */
	}
	return rc && errno != ESRCH ? -1 : 0;
}

int proctree_kill(const pid_t *skip, size_t nskip, struct proctree_proc *found, size_t max,
		  size_t *nfound)
{
	int64_t deadline = now_monotonic_ns() + 5000000000LL;
	struct proctree_proc *all = NULL;
	size_t nall = 0, cap = 0;
	int rc = 0, err = 0;

	for (;;) {
		struct proctree_proc *p;
		size_t n = proctree_list(skip, nskip, &p), i, j, sent = 0;

		for (i = 0; i < n; i++) {
			for (j = 0; j < nall; j++)
				if (all[j].pid == p[i].pid && all[j].start_ticks == p[i].start_ticks)
					break;
			if (j == nall) {   /* found now: one more */
				grow_array((void **)&all, &cap, nall + 1, sizeof(*all));
				all[nall++] = p[i];
			}
			if (kill_found(&p[i]))
				err = errno;
			else
				sent++;
		}
		free(p);
		if (!n)
			break;
		if (!sent || now_monotonic_ns() > deadline) {
			rc = -1;
			err = !sent && err ? err : ETIMEDOUT;
			break;
		}
		pause_ms(10);   /* a killed process is gone once it has exited */
	}
	if (found && nall)
		memcpy(found, all, (nall < max ? nall : max) * sizeof(*all));
	if (nfound)
		*nfound = nall;
	free(all);
	if (rc)
		errno = err;
	return rc;
}

void proctree_names(const struct proctree_proc *p, size_t n, char *buf, size_t len)
{
	size_t i, at = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < n && at < len; i++) {
		if (i == 8) {
			snprintf(buf + at, len - at, ", ...");
			break;
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%d (%s)", i ? ", " : "",
				       (int)p[i].pid, p[i].comm);
	}
}
