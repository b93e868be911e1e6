// SPDX-License-Identifier: GPL-2.0
/*
 * The process images of a recording: one line per (pid, start, exec), from
 * the kernel's fork/exec/exit events and /proc, and which processes are
 * followed (-p targets and their descendants, the command's tree).
 */
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

#include "record/ptrace_targets.h"
#include "record/proctable.h"
#include "record/command.h"
#include "facts/callsite.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "record/procinfo.h"
#include "record/ustacks.h"

/* ---- process table ---------------------------------------------------- */

/* A kernel CLOCK_MONOTONIC time as ns since the epoch (one offset for the
 * whole recording, so that equal kernel times stay equal). */
int64_t proctable_to_epoch(const struct proctable *pt, uint64_t mono)
{
	return (int64_t)mono + pt->epoch_off;
}

void proctable_set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? xstrdup(src) : NULL;
}

/*
 * What /proc says of the process that started at boot_ns (start_boottime)
 * with pid p->pid: nothing when another process has the pid by now. Its
 * name and executable are taken only when /proc shows the name the kernel
 * reported (comm NULL: trust /proc): it may have exec'd since.
 */
static void fill_from_proc(struct rec_process *p, const char *comm, uint64_t boot_ns)
{
	struct procinfo pi;

	if (comm)
		proctable_set_str(&p->comm, comm);
	if (procinfo_read_exact((pid_t)p->pid, boot_ns, NULL, &pi))
		return;
	p->ppid = pi.ppid;
	p->uid = pi.uid;
	if (comm && strcmp(comm, pi.comm))
		return;
	proctable_set_str(&p->comm, pi.comm);
	proctable_set_str(&p->exe, pi.exe[0] ? pi.exe : NULL);
}

/* The line of the image (pid, pstart, exec_id), added (empty) if new. */
static struct rec_process *line(struct proctable *pt, uint32_t pid, uint64_t pstart,
				uint32_t exec_id, bool *added)
{
	int64_t start = proctable_to_epoch(pt, pstart);
	struct rec_process *p = record_find_process(pt->rec, pid, start, exec_id);

	*added = !p;
	return p ? p : record_add_process(pt->rec, pid, start, exec_id);
}

/* The image, with what /proc says when it is new (boot_ns: see above;
 * 0: unknown, /proc is not read), or said before recording began. */
struct rec_process *proctable_image(struct proctable *pt, uint32_t pid, uint64_t pstart,
				 uint32_t exec_id, const char *comm, uint64_t boot_ns)
{
	const struct ca_task *t = tasks_find(&pt->before, pid);
	bool added;
	struct rec_process *p = line(pt, pid, pstart, exec_id, &added);

	if (added && t && t->pstart == pstart && t->exec_id == exec_id &&
	    pt->before_exe[t - pt->before.t]) {
		proctable_set_str(&p->comm, comm);
		proctable_set_str(&p->exe, pt->before_exe[t - pt->before.t]);
		p->ppid = t->ppid;
		p->uid = t->uid;
		attribute_note(pt, p, t->cgroup_id);
	} else if (added && boot_ns) {
		fill_from_proc(p, comm, boot_ns);
	} else if (added && comm) {
		proctable_set_str(&p->comm, comm);
	}
	return p;
}

/* The command capaudit started (-- COMMAND): its pid alone is enough, as
 * it is not reaped before the end. */
static bool proctable_is_child(const struct proctable *pt, uint32_t pid, uint64_t pstart)
{
	return pt->child > 0 && pid == (uint32_t)pt->child && pstart == pt->child_start;
}

/*
 * The command's checks between fork and exec (the exec itself: opening the
 * binary, setting up its memory) are made by capaudit's child before the
 * command's image exists; count them as the command's.
 */
uint32_t proctable_alias_exec(struct proctable *pt, uint32_t pid, uint64_t pstart, uint32_t exec_id)
{
	if (proctable_is_child(pt, pid, pstart) && pt->launcher_known && pt->cmd_known &&
	    exec_id == pt->launcher_exec_id)
		return pt->cmd_exec_id;
	return exec_id;
}


static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* A relative exec name made absolute against the recorder's own working
 * directory (the one a command it starts inherits), if that path is the
 * very file the kernel ran: its inode. */
static bool absolute_exe(uint32_t dev, uint64_t ino, const char *filename, char *out, size_t n)
{
	char cwd[4096];

	while (!strncmp(filename, "./", 2))
		filename += 2;
	if (!getcwd(cwd, sizeof(cwd)) ||
	    (size_t)snprintf(out, n, "%s/%s", strcmp(cwd, "/") ? cwd : "", filename) >= n)
		return false;
	return exe_path_is(out, dev, ino);
}

/*
 * The name of an exec without /proc: an absolute path as given, a relative
 * one made absolute against the recorder's directory when that is the
 * very file (dev, ino), a memfd by its own name (its dentry's, exe_name:
 * CA_DNAME_LEN bytes, maybe unterminated) as /proc would have named it.
 * NULL when none of these; out holds what is returned.
 */
static const char *exe_without_proc(uint32_t dev, uint64_t ino, const char *filename,
				    const char *exe_name, uint32_t flags, char *out, size_t n)
{
	char name[CA_DNAME_LEN + 1];

	if (filename[0] == '/' && !exec_name_is_fd(filename)) {
		snprintf(out, n, "%s", filename);
		return out;
	}
	if (filename[0] && !exec_name_is_fd(filename))
		return absolute_exe(dev, ino, filename, out, n) ? out : NULL;
	memcpy(name, exe_name, CA_DNAME_LEN);
	name[CA_DNAME_LEN] = '\0';
	if ((flags & CA_EVF_EXE_UNLINKED) && !strncmp(name, "memfd:", 6)) {
		snprintf(out, n, "/%s (deleted)", name);
		return out;
	}
	return NULL;
}

/*
 * The kernel gives the path as passed to execve(): possibly relative, or a
 * name for a file descriptor (/proc/self/exe, /dev/fd/N: fexecve). By the
 * time we read the event the process may have exec'd again, so take
 * /proc/PID/exe only when it is the same process and program (the file
 * name, or for fd names the task name the exec gave it). That is often
 * unreadable (gone; or, after the privilege drop, a process holding
 * capabilities the recorder lacks): a relative name is then made absolute
 * against the recorder's directory when that names the very file, and a
 * memfd is named as /proc would have named it: "/memfd:NAME (deleted)"
 * (the kernel's d_path() of its pseudo dentry, fs/d_path.c), from the
 * file's own name the exec event carries.
 */
static const char *resolve_exe(const struct ca_event *e, const char *filename, const char *comm,
			       struct procinfo *pi)
{
	bool fd_name = exec_name_is_fd(filename);
	const char *named;

	if (filename[0] == '/' && !fd_name)
		return filename;
	if (!procinfo_read_exact((pid_t)e->tgid, e->boot_start, NULL, pi) && pi->exe[0] &&
	    (fd_name ? !strcmp(pi->comm, comm) : !strcmp(base_name(pi->exe), base_name(filename))))
		return pi->exe;
	named = exe_without_proc(e->exe_dev, e->exe_ino, filename, e->exe_name, e->flags, pi->exe,
				 sizeof(pi->exe));
	return named ? named : filename;
}

void proctable_image_exe(struct proctable *pt, struct rec_process *p, const struct ca_exe_id *id)
{
	char buf[CA_PATH_LEN + CA_DNAME_LEN + 16];
	struct ca_exe_name kept;
	const char *exe;

	if (p->exe || !id->ino)
		return;
	exe = exe_name_known(&pt->exes, id->dev, id->ino, id->gen);
	/* else what the exec hook kept of it ("exe_names"), named as
	 * resolve_exe() names an exec whose process is gone */
	if (!exe && !tracer_exe_name(pt->tr, id, &kept)) {
		kept.filename[CA_PATH_LEN - 1] = '\0';
		exe = exe_without_proc(id->dev, id->ino, kept.filename, kept.exe_name, kept.flags,
				       buf, sizeof(buf));
		if (exe)
			exe_name_note(&pt->exes, exe, id->dev, id->ino, id->gen);
	}
	if (!exe)
		return;
	proctable_set_str(&p->exe, exe);
	proctable_set_str(&p->build_id, exe_build_id(&pt->exes, p->exe, p->pid, id->dev, id->ino,
						     id->gen));
}

/* The executable /proc showed before recording began for the image
 * (pid, pstart, exec_id), or NULL: a parent with no line of its own yet
 * (-a: it has made no check) forks a child that runs the same program. */
static const char *exe_before(const struct proctable *pt, uint32_t pid, uint64_t pstart,
			      uint32_t exec_id)
{
	const struct ca_task *t = tasks_find(&pt->before, pid);

	if (!t || t->pstart != pstart || t->exec_id != exec_id)
		return NULL;
	return pt->before_exe[t - pt->before.t];
}

/* pid is the caller or the command recorded (-- COMMAND). */
static bool workload_root(const struct proctable *pt, uint32_t pid, uint32_t caller)
{
	return pid == caller || (pt->child > 0 && pid == (uint32_t)pt->child);
}

/*
 * The process target descends from caller, or from the command recorded:
 * a live one by its /proc parent links, one gone already by its record
 * line's parent (the newest line of the pid: one scan, for what is rare).
 */
static bool made_by_workload(void *ctx, uint32_t target, uint32_t caller)
{
	const struct proctable *pt = ctx;
	const struct rec_process *best = NULL;
	struct procinfo pi;
	uint32_t pid = target;
	size_t i;
	int depth;

	for (depth = 0; depth < 64 && pid > 1 && !procinfo_read((pid_t)pid, &pi); depth++) {
		if (workload_root(pt, pi.ppid, caller))
			return true;
		pid = pi.ppid;
	}
	if (depth)
		return false;   /* alive, and not the workload's */
	for (i = 0; i < pt->rec->nprocs; i++) {
		const struct rec_process *p = &pt->rec->procs[i];

		if (p->pid == target && (!best || p->start_ns > best->start_ns))
			best = p;
	}
	return best && workload_root(pt, best->ppid, caller);
}

int proctable_on_event(void *ctx, const struct ca_event *e)
{
	struct proctable *pt = ctx;
	struct rec_process *p, *parent;
	char comm[CA_COMM_LEN + 1], exe[CA_PATH_LEN + 1];
	struct procinfo pi;
	bool child, added;

	/* an object event has a layout of its own (struct ca_obj_event) */
	if (e->type == CA_EV_OBJECT) {
		if (pt->objs)
			objtab_on_event(pt->objs, (const struct ca_obj_event *)(const void *)e);
		else if (pt->on_object)   /* the monitor's: kept on its rows */
			pt->on_object(pt->newkey_ctx, (const struct ca_obj_event *)(const void *)e);
		return 0;
	}
	child = proctable_is_child(pt, e->tgid, e->pstart);

	memcpy(comm, e->comm, CA_COMM_LEN);
	comm[CA_COMM_LEN] = '\0';
	switch (e->type) {
	case CA_EV_FORK:
		/* a copy of its parent's image: same exec_id, same program */
		p = line(pt, e->tgid, e->pstart, e->exec_id, &added);
		p->ppid = e->ppid;
		p->uid = e->uid;
		proctable_set_str(&p->comm, comm);
		parent = record_find_process(pt->rec, e->ppid, proctable_to_epoch(pt, e->parent_start),
					     e->exec_id);
		if (parent && parent->exe) {
			proctable_set_str(&p->exe, parent->exe);
			proctable_set_str(&p->build_id, parent->build_id);
		} else if (!p->exe) {
			proctable_set_str(&p->exe, exe_before(pt, e->ppid, e->parent_start, e->exec_id));
		}
		attribute_note(pt, p, e->cgroup_id);
		/* -p's targets and -- COMMAND's tree: recorded until the last
		 * exits (a daemon outlives its launcher) */
		if (pt->o->npids || pt->child > 0)
			procset_add(&pt->live, e->tgid, e->pstart);
		break;
	case CA_EV_EXEC:
		if (child && !pt->cmd_known) {
			pt->cmd_known = true;
			pt->cmd_exec_id = e->exec_id;
		}
		p = line(pt, e->tgid, e->pstart, e->exec_id, &added);
		p->ppid = e->ppid;
		p->uid = e->uid;
		proctable_set_str(&p->comm, comm);
		memcpy(exe, e->filename, CA_PATH_LEN);
		exe[CA_PATH_LEN] = '\0';
		proctable_set_str(&p->exe, resolve_exe(e, exe, comm, &pi));
		/* gone already: /proc/self/exe named the image it replaced */
		parent = !strcmp(p->exe, "/proc/self/exe") && e->exec_id ?
			record_find_process(pt->rec, e->tgid, p->start_ns, e->exec_id - 1) : NULL;
		if (parent && parent->exe)
			proctable_set_str(&p->exe, parent->exe);
		proctable_set_str(&p->build_id, exe_build_id(&pt->exes, p->exe, e->tgid, e->exe_dev,
						   e->exe_ino, e->exe_gen));
		if (p->exe[0] == '/' && !exec_name_is_fd(p->exe))
			exe_name_note(&pt->exes, p->exe, e->exe_dev, e->exe_ino, e->exe_gen);
		p->secure_exec = e->flags & CA_EVF_SECURE_EXEC;
		attribute_note(pt, p, e->cgroup_id);
		/* --user-stacks: the executable named now, while its path is
		 * there (a binary deleted after its exec is then "(deleted)") */
		ustacks_add_file(pt->us, p->exe);
		break;
	case CA_EV_EXIT:
		p = proctable_image(pt, e->tgid, e->pstart, proctable_alias_exec(pt, e->tgid, e->pstart, e->exec_id), comm,
			  e->boot_start);
		p->exited = true;
		p->exit_code = status_to_exit(e->exit_code);
		attribute_note(pt, p, e->cgroup_id);
		procset_del(&pt->live, e->tgid, e->pstart);
		break;
	case CA_EV_FIRST:
		if (child && !pt->cmd_known) {
			if (!pt->launcher_known) {   /* our own child, before exec */
				pt->launcher_known = true;
				pt->launcher_exec_id = e->exec_id;
				break;
			}
			if (e->exec_id == pt->launcher_exec_id)
				break;
			/* the command's image checks before its exec event */
			pt->cmd_known = true;
			pt->cmd_exec_id = e->exec_id;
		}
		p = proctable_image(pt, e->tgid, e->pstart, proctable_alias_exec(pt, e->tgid, e->pstart, e->exec_id), comm,
			  e->boot_start);
		if (!p->ppid)
			p->ppid = e->ppid;
		attribute_note(pt, p, e->cgroup_id);
		/* its libraries are mapped by now; it may be gone at the end
		 * (once per program name: under -a thousands of short-lived
		 * copies of one program map the same files) */
		ustacks_scan_new(pt->us, (pid_t)e->tgid, comm);
		break;
	case CA_EV_NEWKEY:
		if (pt->on_newkey)
			pt->on_newkey(pt->newkey_ctx, e);
		break;
	case CA_EV_PTRACE:
		/* (the event's pt_* fields share the place of boot_start) */
		p = proctable_image(pt, e->tgid, e->pstart, proctable_alias_exec(pt, e->tgid, e->pstart, e->exec_id), comm,
			  0);
		ptrace_target_note(p, e, made_by_workload, pt);
		break;
	case CA_EV_CAPSET:
		/* the sets it asked for: what a recommended set must let it keep */
		p = proctable_image(pt, e->tgid, e->pstart, proctable_alias_exec(pt, e->tgid, e->pstart, e->exec_id), comm,
			  0);
		p->has_capset = true;
		p->capset_eff |= e->set_effective;
		p->capset_prm |= e->set_permitted;
		p->capset_inh |= e->set_inheritable;
		break;
	}
	return 0;
}

/* ---- the processes to follow --------------------------------------------- */

/* A process of the snapshot gets its line (what /proc says, if it can be
 * tied to it) and is followed from now on. */
static void take_process(struct proctable *pt, const struct ca_task *t, const struct ca_task *parent)
{
	char comm[CA_COMM_LEN + 1];
	struct rec_process *p;

	if (pt->only_uid && t->euid != pt->uid)
		return;   /* another user's: not followed, not named (caller_policy) */
	memcpy(comm, t->comm, CA_COMM_LEN);
	comm[CA_COMM_LEN] = '\0';
	p = proctable_image(pt, t->tgid, t->pstart, t->exec_id, comm, t->boot_start);
	p->ppid = t->ppid;
	p->uid = t->uid;
	/* /proc/PID/exe may be unreadable (after the privilege drop, another
	 * user's process): a child that has not exec'd runs its parent's */
	if (!p->exe && parent && parent->exec_id == t->exec_id) {
		const struct rec_process *pp = record_find_process(pt->rec, parent->tgid,
								   proctable_to_epoch(pt, parent->pstart),
								   parent->exec_id);

		if (pp && pp->exe)
			proctable_set_str(&p->exe, pp->exe);
	}
	procset_add(&pt->live, t->tgid, t->pstart);
	if (pt->tr->skel)
		tracer_follow(pt->tr, t->tgid, t->pstart);
}

/* The snapshot's parent of t, or NULL. */
static const struct ca_task *parent_of(const struct task_snap *snap, const struct ca_task *t)
{
	const struct ca_task *p = tasks_find(snap, t->ppid);

	return p && p->pstart == t->parent_start ? p : NULL;
}

/*
 * -p: tie each PID to the process that had it when it was named (the
 * pidfd opened then), and take it and its descendants. A target that has
 * exited since is left out with a warning; none left is an error.
 */
static int take_targets(struct proctable *pt, const struct task_snap *snap)
{
	const struct ca_task **roots = xcalloc(pt->o->npids + 1, sizeof(*roots)), **desc = NULL;
	size_t nroots = 0, nd, k;
	int rc = -1;

	for (k = 0; k < pt->o->npids; k++) {
		const struct ca_task *t = tasks_find(snap, (uint32_t)pt->o->pids[k]);

		/* alive now, after the snapshot: the snapshot's process with that
		 * pid is the one the pidfd was opened for (a pid is not given out
		 * again while its process exists) */
		if (!t || (t->flags & CA_TASK_EXITING) || pidfd_alive(pt->o->pidfds[k]) != 1) {
			/* alive but not in the snapshot: the kernel's task iterator
			 * does not show it (seen: a sandbox's own PID 1) */
			fprintf(stderr, "capaudit: -p %d: %s\n", (int)pt->o->pids[k],
				!t && pidfd_alive(pt->o->pidfds[k]) == 1 ?
				"the kernel's task iterator (iter/task) does not show this process: it "
				"cannot be followed" : "the process exited before recording began");
			continue;
		}
		if (pt->only_uid && t->euid != pt->uid) {
			p_err("-p %d: a process of uid %u: only root may follow another user's "
			      "processes", (int)pt->o->pids[k], (unsigned)t->euid);
			goto out;
		}
		roots[nroots++] = t;
	}
	if (!nroots) {
		p_err("-p: no process left to record");
		goto out;
	}
	for (k = 0; k < nroots; k++)
		take_process(pt, roots[k], parent_of(snap, roots[k]));
	nd = tasks_descendants(snap, roots, nroots, &desc);
	for (k = 0; k < nd; k++)
		if (!(desc[k]->flags & CA_TASK_EXITING) &&
		    !procset_has(&pt->live, desc[k]->tgid, desc[k]->pstart))
			take_process(pt, desc[k], parent_of(snap, desc[k]));
	rc = 0;
out:
	free(roots);
	free(desc);
	return rc;
}

struct snap_ctx {
	const struct task_snap *snap;
	const struct ca_task **roots;
	size_t nroots;
};

static void add_root(void *ctx, uint32_t tgid, uint64_t start)
{
	struct snap_ctx *sc = ctx;
	const struct ca_task *t = tasks_find(sc->snap, tgid);

	if (t && t->pstart == start)
		sc->roots[sc->nroots++] = t;
}

/* Still in the snapshot, and not exiting. */
static bool in_snapshot(void *ctx, uint32_t tgid, uint64_t start)
{
	const struct ca_task *t = tasks_find(((struct snap_ctx *)ctx)->snap, tgid);

	return t && t->pstart == start && !(t->flags & CA_TASK_EXITING);
}

/*
 * Once attached: the followed processes against a fresh snapshot. Children
 * forked before the fork hook was attached are taken now (the hook covers
 * those after); followed processes that exited before the exit hook was
 * attached, whose exit event never comes, are no longer waited for.
 */
int proctable_refresh_followed(struct proctable *pt)
{
	struct task_snap snap;
	struct snap_ctx sc = { .snap = &snap };
	const struct ca_task **roots, **desc = NULL;
	size_t nroots = 0, nd, k;
	char err[512];

	if (tasks_snapshot(&snap, err, sizeof(err))) {
		fprintf(stderr, "capaudit: warning: %s\n", err);
		return -1;
	}
	procset_filter(&pt->live, in_snapshot, &sc);
	roots = xcalloc(pt->live.n + 1, sizeof(*roots));
	sc.roots = roots;
	procset_foreach(&pt->live, add_root, &sc);
	nroots = sc.nroots;
	nd = tasks_descendants(&snap, roots, nroots, &desc);
	for (k = 0; k < nd; k++)
		if (!(desc[k]->flags & CA_TASK_EXITING) &&
		    !procset_has(&pt->live, desc[k]->tgid, desc[k]->pstart))
			take_process(pt, desc[k], parent_of(&snap, desc[k]));
	free(roots);
	free(desc);
	tasks_free(&snap);
	return 0;
}

/* A followed process whose pid no process has is gone. */
static bool pid_exists(void *ctx, uint32_t tgid, uint64_t start)
{
	return !(kill((pid_t)tgid, 0) && errno == ESRCH);
}

/* -p, or -- COMMAND's tree: are any followed processes left? Exit events remove them; a pid no
 * process has means one exited unseen; when exit events were lost (ringbuf
 * full), a snapshot says which are still there. */
bool proctable_any_followed(struct proctable *pt)
{
	uint64_t st[CA_STAT_NR];

	procset_filter(&pt->live, pid_exists, NULL);
	tracer_stats(pt->tr, st);
	if (pt->live.n && st[CA_STAT_RINGBUF_FULL] != pt->ringbuf_lost_seen &&
	    !proctable_refresh_followed(pt))
		pt->ringbuf_lost_seen = st[CA_STAT_RINGBUF_FULL];
	return pt->live.n > 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The scope's ids are sorted (find_scope()). */
static bool in_scope_ids(const struct proctable *pt, uint64_t id)
{
	return pt->nscope_ids && bsearch(&id, pt->scope_ids, pt->nscope_ids, sizeof(id), cmp_u64);
}

int proctable_name_processes(struct proctable *pt)
{
	struct task_snap snap;
	const struct ca_task *t;
	char err[512];
	int rc = 0;

	if (pt->o->all || pt->scope->kind) {
		/* every process, as it comes; after the privilege drop /proc
		 * no longer shows another user's executable: read them now
		 * (of a scope, its processes only) */
		if (tasks_snapshot(&pt->before, err, sizeof(err)))
			fprintf(stderr, "capaudit: warning: %s\n", err);
		pt->before_exe = xcalloc(pt->before.n + 1, sizeof(char *));
		for (size_t i = 0; i < pt->before.n; i++) {
			struct procinfo pi;

			t = &pt->before.t[i];
			if (pt->scope->kind && !in_scope_ids(pt, t->cgroup_id))
				continue;
			if (!procinfo_read_exact((pid_t)t->tgid, t->boot_start, NULL, &pi) && pi.exe[0])
				pt->before_exe[i] = xstrdup(pi.exe);
		}
		return 0;
	}
	if (tasks_snapshot(&snap, err, sizeof(err))) {
		p_err("cannot list the processes to follow: %s", err);
		return -1;
	}
	if (pt->o->npids)
		rc = take_targets(pt, &snap);
	if (pt->child > 0) {
		/* our child: not reaped, so its pid is its own */
		t = tasks_find(&snap, (uint32_t)pt->child);
		if (!t) {
			p_err("cannot find the command's process %d", (int)pt->child);
			rc = -1;
		} else {
			pt->child_start = t->pstart;
			procset_add(&pt->live, t->tgid, t->pstart);
		}
	}
	tasks_free(&snap);
	return rc;
}

/* Once attached: follow what was named, then what was forked meanwhile. */
void proctable_follow_named(void *ctx, uint32_t tgid, uint64_t start)
{
	tracer_follow(((struct proctable *)ctx)->tr, tgid, start);
}

/* The first size of each aggregation map: --max-keys (fixed), or under -a
 * room for every live process's active keys between two drains; a command
 * or -p tree starts small (the map grows when drains come fast). */

void proctable_free(struct proctable *pt)
{
	size_t k;

	ustacks_free(pt->us);
	objtab_free(pt->objs);
	procset_free(&pt->live);
	free(pt->scope_ids);
	exe_ids_free(&pt->exes);
	for (k = 0; k < pt->before.n; k++)
		free(pt->before_exe[k]);
	free(pt->before_exe);
	tasks_free(&pt->before);
}
