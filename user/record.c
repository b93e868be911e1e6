// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit record: follow a process tree (or the system), count its
 * capability checks in the kernel, and write a record file atomically.
 */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "callsite.h"
#include "cli.h"
#include "ksyms.h"
#include "ksyms_iter.h"
#include "launch.h"
#include "outfile.h"
#include "privs.h"
#include "procinfo.h"
#include "procset.h"
#include "proofranges.h"
#include "recfile.h"
#include "tasks_iter.h"
#include "tracer.h"
#include "ustacks.h"
#include "util.h"

#define GRACE_NS (5LL * 1000000000LL)  /* after a signal, wait this for the command */

/* The state of one recording. */
struct session {
	struct rec_opts *o;
	struct tracer tr;
	struct record rec;
	int64_t epoch_off;        /* CLOCK_REALTIME - CLOCK_MONOTONIC, at the start */
	int64_t real0;            /* when recording began (attached), epoch ns */
	pid_t child;
	uint64_t child_start;     /* its process start time (struct ca_key) */
	int child_status;
	bool child_done;
	/* -p: the processes still followed, and whether an exit event may
	 * have been lost (then they are checked against a snapshot) */
	struct procset live;
	uint64_t ringbuf_lost_seen;
	/* -a: the processes that ran before recording, with the executables
	 * /proc showed while we could read it (before the privilege drop) */
	struct task_snap before;
	char **before_exe;        /* [i]: of before.t[i], or NULL */
	/* who may see what (caller_policy()) */
	uid_t uid;
	bool only_uid;            /* follow only processes acting as uid */
	struct ksyms *ksyms;      /* read before dropping privileges, if needed */
	struct ksyms *ksyms_start; /* read once attached (call-site proofs; the end) */
	const char *ksyms_start_source;
	char ksyms_start_err[256];
	pthread_t symbols_tid;    /* reading them */
	bool symbols_thread_started;
	char *modules_start;      /* /proc/modules' names and sizes then */
	struct ca_ranges ranges;  /* the call-site proofs' text ranges ... */
	bool ranges_read, ranges_set; /* ... read as root at the start, and set */
	const char *ksyms_source;
	char ksyms_err[512];
	/* see alias_exec() */
	bool launcher_known, cmd_known;
	uint32_t launcher_exec_id, cmd_exec_id;
	struct ustacks *us;       /* --user-stacks: which files the build ids name */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig) { stop_signal = sig; }
static void on_sigchld(int sig) { (void)sig; }

/* ---- process table ---------------------------------------------------- */

/* A kernel CLOCK_MONOTONIC time as ns since the epoch (one offset for the
 * whole recording, so that equal kernel times stay equal). */
static int64_t to_epoch(const struct session *s, uint64_t mono)
{
	return (int64_t)mono + s->epoch_off;
}

static void set_str(char **dst, const char *src)
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
		set_str(&p->comm, comm);
	if (procinfo_read_exact((pid_t)p->pid, boot_ns, NULL, &pi))
		return;
	p->ppid = pi.ppid;
	p->uid = pi.uid;
	if (comm && strcmp(comm, pi.comm))
		return;
	set_str(&p->comm, pi.comm);
	set_str(&p->exe, pi.exe[0] ? pi.exe : NULL);
}

/* The line of the image (pid, pstart, exec_id), added (empty) if new. */
static struct rec_process *line(struct session *s, uint32_t pid, uint64_t pstart,
				uint32_t exec_id, bool *added)
{
	int64_t start = to_epoch(s, pstart);
	struct rec_process *p = record_find_process(&s->rec, pid, start, exec_id);

	*added = !p;
	return p ? p : record_add_process(&s->rec, pid, start, exec_id);
}

/* The image, with what /proc says when it is new (boot_ns: see above;
 * 0: unknown, /proc is not read), or said before recording began. */
static struct rec_process *image(struct session *s, uint32_t pid, uint64_t pstart,
				 uint32_t exec_id, const char *comm, uint64_t boot_ns)
{
	const struct ca_task *t = tasks_find(&s->before, pid);
	bool added;
	struct rec_process *p = line(s, pid, pstart, exec_id, &added);

	if (added && t && t->pstart == pstart && t->exec_id == exec_id &&
	    s->before_exe[t - s->before.t]) {
		set_str(&p->comm, comm);
		set_str(&p->exe, s->before_exe[t - s->before.t]);
		p->ppid = t->ppid;
		p->uid = t->uid;
	} else if (added && boot_ns) {
		fill_from_proc(p, comm, boot_ns);
	} else if (added && comm) {
		set_str(&p->comm, comm);
	}
	return p;
}

/* The command capaudit started (-- COMMAND): its pid alone is enough, as
 * it is not reaped before the end. */
static bool is_child(const struct session *s, uint32_t pid, uint64_t pstart)
{
	return s->child > 0 && pid == (uint32_t)s->child && pstart == s->child_start;
}

/*
 * The command's checks between fork and exec (the exec itself: opening the
 * binary, setting up its memory) are made by capaudit's child before the
 * command's image exists; count them as the command's.
 */
static uint32_t alias_exec(struct session *s, uint32_t pid, uint64_t pstart, uint32_t exec_id)
{
	if (is_child(s, pid, pstart) && s->launcher_known && s->cmd_known &&
	    exec_id == s->launcher_exec_id)
		return s->cmd_exec_id;
	return exec_id;
}

static int status_to_exit(int st);

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * The kernel gives the path as passed to execve(): possibly relative, or a
 * name for a file descriptor (/proc/self/exe, /dev/fd/N: fexecve). By the
 * time we read the event the process may have exec'd again, so take
 * /proc/PID/exe only when it is the same process and program (the file
 * name, or for fd names the task name the exec gave it).
 */
static const char *resolve_exe(uint32_t pid, const char *filename, const char *comm,
			       uint64_t boot_ns, struct procinfo *pi)
{
	bool fd_name = !strncmp(filename, "/proc/", 6) || !strncmp(filename, "/dev/fd/", 8);

	if (filename[0] == '/' && !fd_name)
		return filename;
	if (procinfo_read_exact((pid_t)pid, boot_ns, NULL, pi) || !pi->exe[0])
		return filename;
	if (fd_name ? !strcmp(pi->comm, comm) : !strcmp(base_name(pi->exe), base_name(filename)))
		return pi->exe;
	return filename;
}

static int on_event(void *ctx, const struct ca_event *e)
{
	struct session *s = ctx;
	struct rec_process *p, *parent;
	char comm[CA_COMM_LEN + 1], exe[CA_PATH_LEN + 1];
	struct procinfo pi;
	bool child = is_child(s, e->tgid, e->pstart), added;

	memcpy(comm, e->comm, CA_COMM_LEN);
	comm[CA_COMM_LEN] = '\0';
	switch (e->type) {
	case CA_EV_FORK:
		/* a copy of its parent's image: same exec_id, same program */
		p = line(s, e->tgid, e->pstart, e->exec_id, &added);
		p->ppid = e->ppid;
		p->uid = e->uid;
		set_str(&p->comm, comm);
		parent = record_find_process(&s->rec, e->ppid, to_epoch(s, e->parent_start),
					     e->exec_id);
		if (parent && parent->exe)
			set_str(&p->exe, parent->exe);
		if (s->o->npids)
			procset_add(&s->live, e->tgid, e->pstart);
		break;
	case CA_EV_EXEC:
		if (child && !s->cmd_known) {
			s->cmd_known = true;
			s->cmd_exec_id = e->exec_id;
		}
		p = line(s, e->tgid, e->pstart, e->exec_id, &added);
		p->ppid = e->ppid;
		p->uid = e->uid;
		set_str(&p->comm, comm);
		memcpy(exe, e->filename, CA_PATH_LEN);
		exe[CA_PATH_LEN] = '\0';
		set_str(&p->exe, resolve_exe(e->tgid, exe, comm, e->boot_start, &pi));
		/* gone already: /proc/self/exe named the image it replaced */
		parent = !strcmp(p->exe, "/proc/self/exe") && e->exec_id ?
			record_find_process(&s->rec, e->tgid, p->start_ns, e->exec_id - 1) : NULL;
		if (parent && parent->exe)
			set_str(&p->exe, parent->exe);
		break;
	case CA_EV_EXIT:
		p = image(s, e->tgid, e->pstart, alias_exec(s, e->tgid, e->pstart, e->exec_id), comm,
			  e->boot_start);
		p->exited = true;
		p->exit_code = status_to_exit(e->exit_code);
		procset_del(&s->live, e->tgid, e->pstart);
		break;
	case CA_EV_FIRST:
		if (child && !s->cmd_known) {
			if (!s->launcher_known) {   /* our own child, before exec */
				s->launcher_known = true;
				s->launcher_exec_id = e->exec_id;
				break;
			}
			if (e->exec_id == s->launcher_exec_id)
				break;
			/* the command's image checks before its exec event */
			s->cmd_known = true;
			s->cmd_exec_id = e->exec_id;
		}
		p = image(s, e->tgid, e->pstart, alias_exec(s, e->tgid, e->pstart, e->exec_id), comm,
			  e->boot_start);
		if (!p->ppid)
			p->ppid = e->ppid;
		/* its libraries are mapped by now; it may be gone at the end
		 * (once per program name: under -a thousands of short-lived
		 * copies of one program map the same files) */
		ustacks_scan_new(s->us, (pid_t)e->tgid, comm);
		break;
	case CA_EV_CAPSET:
		/* the sets it asked for: what a recommended set must let it keep */
		p = image(s, e->tgid, e->pstart, alias_exec(s, e->tgid, e->pstart, e->exec_id), comm,
			  0);
		p->has_capset = true;
		p->capset_eff |= e->set_effective;
		p->capset_prm |= e->set_permitted;
		p->capset_inh |= e->set_inheritable;
		break;
	}
	return 0;
}

/* ---- collecting the aggregated checks ---------------------------------- */

/* A kernel stack (struct ca_key.kstack) and 1 + its record stack index. */
struct stack_ref {
	uint64_t kstack;
	int idx;             /* 0: empty slot */
};

struct collect_ctx {
	struct session *s;
	struct ksyms *ks;
	const char *ksyms_err;
	struct stack_ref *stack_index;   /* open addressing, at most half full */
	size_t stack_cap;
	uint64_t orphan_results;  /* syscall results of checks without a key */
};

/* The slot of kstack in cc->stack_index: its record stack, or empty
 * (the BPF side keeps at most CA_STACK_ENTRIES stacks). */
static struct stack_ref *stack_slot(struct collect_ctx *cc, uint64_t kstack)
{
	size_t i = (size_t)(kstack * 0x9e3779b97f4a7c15ULL >> 20) & (cc->stack_cap - 1);

	while (cc->stack_index[i].idx && cc->stack_index[i].kstack != kstack)
		i = (i + 1) & (cc->stack_cap - 1);
	return &cc->stack_index[i];
}

static int collect_one(void *ctx, const struct ca_key *k, const struct ca_val *v)
{
	struct collect_ctx *cc = ctx;
	struct session *s = cc->s;
	struct rec_check *c;

	/* only a syscall result, for checks counted while the map was full */
	if (!v->count) {
		cc->orphan_results += v->sys_failed + v->sys_other + v->sys_restart;
		return 0;
	}
	c = record_add_check(&s->rec);
	uint64_t ips[CA_STACK_DEPTH];
	char comm[CA_COMM_LEN + 1], frame[256];
	struct stack_ref *si;
	int n = 0, i;

	memcpy(comm, v->meta.comm, CA_COMM_LEN);
	comm[CA_COMM_LEN] = '\0';
	c->stack = -1;
	c->ustack = -1;
	c->pid = k->tgid;
	c->start_ns = to_epoch(s, k->pstart);
	c->exec_id = alias_exec(s, k->tgid, k->pstart, k->exec_id);
	c->tid = v->meta.tid;
	c->uid = v->meta.uid;
	c->comm = record_intern(&s->rec, comm, strlen(comm));
	c->cgroup = v->meta.cgroup_id;
	c->cap = k->cap;
	c->ret = k->ret;
	c->count = v->count;
	c->syscall = k->syscall;
	c->init_ns = k->flags & CA_F_INIT_NS;
	c->userns = k->flags & CA_F_CRED_USERNS ? RU_INSIDE :
		    k->flags & CA_F_NS_OWNER ? RU_OWNER : RU_HOST;
	c->no_effect = k->flags & CA_F_NO_EFFECT;
	c->opts_known = k->flags & CA_F_OPTS_KNOWN;
	c->opt_noaudit = k->flags & CA_F_NOAUDIT;
	c->opt_insetid = k->flags & CA_F_INSETID;
	c->first_ns = to_epoch(s, v->meta.first_ns ? v->meta.first_ns : v->last_ns);
	c->last_ns = to_epoch(s, v->last_ns);
	c->sys_failed = v->sys_failed;
	c->sys_other = v->sys_other;
	c->sys_errno = (int)v->sys_errno;
	c->sys_restart = v->sys_restart;
	c->ustack = ustacks_resolve(s->us, &s->tr, &s->rec, k);
	s->rec.hdr.checks += v->count;
	if (!k->kstack) {
		snprintf(frame, sizeof(frame), "stack not captured: %s",
			 strerror(k->stack_err < 0 ? -k->stack_err : ENOENT));
		c->stack_error = xstrdup(frame);
	} else if (!(si = stack_slot(cc, k->kstack))->idx &&
		   (n = tracer_stack(&s->tr, k->kstack, ips)) < 0) {
		c->stack_error = xstrdup("stack not found in the stack map");
	} else {
		if (!cc->ks)
			c->stack_error = xstrdup(cc->ksyms_err);
		if (!si->idx) {   /* symbolize each stack once */
			char **frames = xcalloc((size_t)n + 1, sizeof(char *));
			size_t nf = 0;

			for (i = 0; i < n; i++) {
				ksyms_format(cc->ks, ips[i], frame, sizeof(frame));
				/* the stack starts at the hook: drop the tracer's own frames */
				if (!nf && cc->ks && frame_is_plumbing(frame))
					continue;
				frames[nf++] = xstrdup(frame);
			}
			si->kstack = k->kstack;
			si->idx = record_add_stack(&s->rec, frames, nf) + 1;
		}
		c->stack = si->idx - 1;
	}
	/* an image that made checks but whose events were lost: named by its
	 * first check (/proc cannot be tied to it without its boot time) */
	if (!check_process(&s->rec, c)) {
		struct rec_process *p = image(s, c->pid, k->pstart, c->exec_id, comm, 0);

		p->uid = v->meta.uid;
	}
	return 0;
}

/* Kernel symbols once the recording is over (BPF programs loaded during
 * it are included): iter/ksym needs CAP_BPF, so before the last drop. */
/* /proc/modules (readable by anyone), to tell whether kernel symbols
 * changed while recording; NULL if it cannot be read. */
static char *read_modules(void)
{
	FILE *f = fopen("/proc/modules", "re"), *m;
	char *line = NULL, *buf = NULL, name[128];
	size_t cap = 0, len = 0;
	unsigned long size;

	if (!f)   /* a kernel without modules: nothing to change */
		return errno == ENOENT ? xstrdup("") : NULL;
	m = open_memstream(&buf, &len);
	if (!m) {
		fclose(f);
		return NULL;
	}
	/* name and size: use counts change by themselves */
	while (getline(&line, &cap, f) > 0)
		if (sscanf(line, "%127s %lu", name, &size) == 2)
			fprintf(m, "%s %lu\n", name, size);
	free(line);
	fclose(f);
	fclose(m);
	return buf;
}

/*
 * Once attached: the kernel's symbols, for the call-site cache's proofs
 * (the capability API's text ranges; until they are set every cached hit
 * walks the stack) and, when no module came or went meanwhile, for the
 * stacks at the end. Read on a thread of its own while the main one
 * handles the events (a quarter of a second here: events wait for no
 * one, and /proc of short-lived processes is read while they are there).
 * Root read them from /proc/kallsyms before dropping its privileges.
 */
static void *symbols_thread(void *arg)
{
	struct session *s = arg;
	struct ca_ranges r;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);   /* signals are the main thread's */
	s->ksyms_start = ksyms_best(&s->ksyms_start_source, s->ksyms_start_err,
				    sizeof(s->ksyms_start_err));
	if (!proof_ranges_from_ksyms(s->ksyms_start, &r) && !tracer_set_ranges(&s->tr, &r))
		s->ranges_set = true;
	return NULL;
}

static void start_symbols(struct session *s)
{
	if (s->ranges_set)
		return;   /* from /proc/kallsyms, before the privilege drop */
	s->modules_start = read_modules();
	if (s->ksyms) {   /* read before the drop: no iter/ksym here */
		struct ca_ranges r;

		s->ranges_set = !proof_ranges_from_ksyms(s->ksyms, &r) &&
				!tracer_set_ranges(&s->tr, &r);
		return;
	}
	s->symbols_thread_started = !pthread_create(&s->symbols_tid, NULL, symbols_thread, s);
	if (!s->symbols_thread_started)
		symbols_thread(s);
}

/* The thread of start_symbols() is done (its table and ranges set). */
static void join_symbols(struct session *s)
{
	if (!s->symbols_thread_started)
		return;
	pthread_join(s->symbols_tid, NULL);
	s->symbols_thread_started = false;
	if (!s->ranges_set && s->o->verbose)
		fprintf(stderr, "capaudit: no call-site proofs (every cached check walked the "
			"stack): %s\n", s->ksyms_start_err[0] ? s->ksyms_start_err :
			"the capability API's symbols are missing");
}

static struct ksyms *end_symbols(struct session *s, char *kerr, size_t n)
{
	struct ksyms *ks;
	char *modules = read_modules();

	join_symbols(s);
	bool same = s->ksyms_start && modules && s->modules_start &&
		    !strcmp(modules, s->modules_start);

	free(modules);
	if (!same) {   /* not needed any more: never two tables at once */
		ksyms_free(s->ksyms_start);
		s->ksyms_start = NULL;
	}
	if (same) {   /* the symbols read at the start still hold */
		ks = s->ksyms_start;
		s->ksyms_start = NULL;
		s->ksyms_source = s->ksyms_start_source;
		return ks;
	}
	ks = ksyms_best(&s->ksyms_source, kerr, n);

	if (!ks && s->ksyms) {
		ks = s->ksyms;   /* read at the start, while we could */
		s->ksyms = NULL;
		s->ksyms_source = "/proc/kallsyms (at start)";
	}
	if (!ks)
		fprintf(stderr, "capaudit: warning: stacks left unsymbolized: %s\n", kerr);
	return ks;
}

/* Into s->rec: the maps are read through their descriptors, and the
 * executables symbolized (libdwfl), with no capability left. */
static void collect(struct session *s, struct ksyms *ks, const char *kerr)
{
	struct collect_ctx cc = { .s = s, .ks = ks, .ksyms_err = kerr };
	uint64_t st[CA_STAT_NR], ov[CA_OVERFLOW_SLOTS];
	size_t i;

	cc.stack_cap = 2 * CA_STACK_ENTRIES;   /* at most half full */
	cc.stack_index = xcalloc(cc.stack_cap, sizeof(*cc.stack_index));
	if (s->us) {
		/* what names the user stacks' files: executables, live
		 * processes' mappings, ours (the same libc, most often) */
		for (i = 0; i < s->rec.nprocs; i++) {
			ustacks_add_file(s->us, s->rec.procs[i].exe);
			if (!kill((pid_t)s->rec.procs[i].pid, 0))
				ustacks_scan_pid(s->us, (pid_t)s->rec.procs[i].pid);
		}
		ustacks_scan_pid(s->us, 0);
	}
	tracer_foreach_check(&s->tr, collect_one, &cc);
	aggtab_free(&s->tr.tab);   /* all in s->rec now: not held while it is written */
	free(cc.stack_index);
	/* the child's checks before its exec are aliased to the command's
	 * image (alias_exec): the same key can now appear twice */
	{
		size_t merged, unused_dup, unused_orig;

		record_dedup_checks(&s->rec, DEDUP_MERGE, &merged, &unused_dup, &unused_orig);
	}
	ksyms_free(cc.ks);

	tracer_stats(&s->tr, st);
	s->rec.hdr.lost.map_full = st[CA_STAT_MAP_FULL];
	s->rec.hdr.lost.ringbuf_full = st[CA_STAT_RINGBUF_FULL];
	s->rec.hdr.lost.stack_errors = st[CA_STAT_STACK_ERR];
	s->rec.hdr.lost.proc_full = st[CA_STAT_PROC_FULL];
	s->rec.hdr.lost.result_lost = st[CA_STAT_RESULT_LOST] + cc.orphan_results;
	s->rec.hdr.lost.hook_skipped = s->tr.skipped;
	s->rec.hdr.has_cache = true;
	s->rec.hdr.cache_misses = st[CA_STAT_CACHE_MISS];
	s->rec.hdr.cache_hit_walks = st[CA_STAT_CACHE_VERIFY];
	s->rec.hdr.cache_splits = st[CA_STAT_CACHE_MISMATCH];
	s->rec.hdr.cache_unproven = st[CA_STAT_UNPROVEN];
	s->rec.hdr.agg_drains = s->tr.drains;
	s->rec.hdr.agg_keys = s->tr.agg_max_used;
	s->rec.hdr.syscall_results = s->o->syscall_results;
	tracer_overflow(&s->tr, ov);
	for (i = 0; i < CA_OVERFLOW_SLOTS; i++) {
		struct rec_overflow *o;

		if (!ov[i])
			continue;
		s->rec.hdr.overflow = xrealloc(s->rec.hdr.overflow,
					       (s->rec.hdr.noverflow + 1) * sizeof(*o));
		o = &s->rec.hdr.overflow[s->rec.hdr.noverflow++];
		o->cap = (int)(i / 2);
		o->denied = i % 2;
		o->count = ov[i];
		s->rec.hdr.checks += ov[i];
	}
}

/* ---- the command under audit ------------------------------------------ */

/* What the child tells the recorder through its close-on-exec pipe. */
enum child_msg { CHILD_READY = 1, CHILD_LAUNCH_FAILED, CHILD_EXEC_FAILED };

struct child_report {
	int msg;                  /* enum child_msg */
	int err;                  /* errno */
	char stage[64];           /* launch step that failed */
};

/*
 * Fork the command so that it waits on a pipe until the tracer follows it:
 * nothing it does after exec is missed. With a launch (run --caps) the
 * child first takes its user and capability sets, then says it is ready:
 * those steps are capaudit's doing, not the command's, and are never
 * traced. An exec failure comes back as a message; success closes the pipe.
 */
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

static pid_t spawn_stopped(char **cmd, const struct launch *l, bool stdout_taken, int *go_fd,
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
		if (path)
			execv(path, cmd);
		execvp(cmd[0], cmd);
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
static ssize_t read_report(int fd, struct child_report *r)
{
	ssize_t n;

	do
		n = read(fd, r, sizeof(*r));
	while (n < 0 && errno == EINTR);
	return n;
}

static void reap_child(struct session *s)
{
	int st;

	if (s->child > 0 && !s->child_done && waitpid(s->child, &st, WNOHANG) == s->child) {
		s->child_done = true;
		s->child_status = st;
	}
}

static int status_to_exit(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

/* ---- options ------------------------------------------------------------ */

static const char record_usage[] =
	"usage: capaudit record [-p PID[,PID...] | -a | -- COMMAND [ARGS...]]\n"
	"                       [-o FILE] [-d SECONDS] [--attach MODE] [--syscall-results]\n"
	"                       [--exact-stacks] [--user-stacks] [--max-keys N] [--ringbuf-kb N]\n"
	"                       [-q] [-v]\n"
	"  -p PID[,PID...]  follow these processes and every descendant\n"
	"  -a               record every process on the system\n"
	"  -- COMMAND       run COMMAND, record its process tree until it exits\n"
	"  -o FILE          record file (default " DEFAULT_RECORD ")\n"
	"  -d SECONDS       stop after SECONDS\n"
	"  --attach MODE[,MODE...]  auto (tp_btf, tracepoint, fexit, kprobe: the first\n"
	"                   that works), or the modes to try, in order\n"
	"  --syscall-results  learn whether syscalls with a denied check then failed\n"
	"                   (blocking) or went on (advisory); slows every syscall on\n"
	"                   the system while recording\n"
	"  --user-stacks    also capture the user stack where the kernel one is walked,\n"
	"                   symbolized now (function, file:line where debug info exists)\n"
	"  --exact-stacks   walk the kernel stack on every check instead of trusting\n"
	"                   the call-site cache between re-checks (about 10x the cost)\n"
	"  --max-keys N     entries of the kernel's aggregation map, fixed (default: sized\n"
	"                   from the host, grown when it fills fast); it is drained while\n"
	"                   recording, and what finds it full is counted per capability\n"
	"  --ringbuf-kb N   process event buffer, a power of two >= 4 (default 1024,\n"
	"                   4096 with -a)\n"
	"  -q               no live status line\n"
	"  -v               show libbpf's log\n";

static int parse_pids(struct rec_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t pid;

		if (parse_u32(tok, &pid) || pid == 0 || pid > 4194304) {
			p_err("invalid PID '%s' in -p %s", tok, arg);
			rc = -1;
			break;
		}
		if (o->npids == MAX_PIDS) {
			p_err("-p: more than %d PIDs", MAX_PIDS);
			rc = -1;
			break;
		}
		/* pinned now: if it exits before recording begins, a process
		 * given its pid is not taken for it */
		o->pidfds[o->npids] = pidfd_of((pid_t)pid);
		if (o->pidfds[o->npids] < 0)
			o->pidfds[o->npids] = -errno;
		o->pids[o->npids++] = (pid_t)pid;
	}
	if (!rc && !o->npids) {
		p_err("-p needs at least one PID");
		rc = -1;
	}
	free(copy);
	return rc;
}

static int parse_opts(int argc, char **argv, struct rec_opts *o)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "all", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "attach", required_argument, NULL, 'A' },
		{ "syscall-results", no_argument, NULL, 'R' },
		{ "exact-stacks", no_argument, NULL, 'X' },
		{ "user-stacks", no_argument, NULL, 'U' },
		{ "max-keys", required_argument, NULL, 'K' },
		{ "ringbuf-kb", required_argument, NULL, 'B' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, scopes;
	char bad_mode[256];

	memset(o, 0, sizeof(*o));
	o->out = DEFAULT_RECORD;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+p:ao:d:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_pids(o, optarg))
				return -1;
			break;
		case 'a':
			o->all = true;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'd':
			if (parse_seconds(optarg, &o->duration)) {
				p_err("invalid duration '%s': seconds > 0 expected", optarg);
				return -1;
			}
			break;
		case 'A':
			if (attach_list_parse(optarg, &o->modes, bad_mode, sizeof(bad_mode))) {
				p_err("%s", bad_mode);
				return -1;
			}
			break;
		case 'R':
			o->syscall_results = true;
			break;
		case 'U':
			o->user_stacks = true;
			break;
		case 'X':
			o->exact_stacks = true;
			break;
		case 'K':
			if (parse_u32(optarg, &o->max_keys) || o->max_keys < 1 ||
			    o->max_keys > (1U << 24)) {
				p_err("invalid --max-keys '%s': 1..16777216 expected", optarg);
				return -1;
			}
			break;
		case 'B':
			if (parse_u32(optarg, &o->ringbuf_kb) || o->ringbuf_kb < 4 ||
			    o->ringbuf_kb > (1U << 20) || (o->ringbuf_kb & (o->ringbuf_kb - 1))) {
				p_err("invalid --ringbuf-kb '%s': a power of two from 4 to 1048576 "
				      "expected", optarg);
				return -1;
			}
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(record_usage, stdout);
			exit(0);
		default:
			fputs(record_usage, stderr);
			return -1;
		}
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	scopes = (o->npids > 0) + o->all + (o->cmd != NULL);
	if (scopes != 1) {
		p_err(scopes ? "give only one of -p, -a and -- COMMAND" :
		      "what to record? give -p PID, -a or -- COMMAND");
		return -1;
	}
	if (!o->out[0]) {
		p_err("-o: empty file name");
		return -1;
	}
	return 0;
}

/* ---- the output file ---------------------------------------------------- */

/* Opened before anything runs, so that a bad path fails first (outfile.h:
 * complete or absent, never replacing what it should not). */
static int open_out(const char *out, struct outfile *o)
{
	char err[1024];

	if (!outfile_open(o, out, 0, err, sizeof(err)))
		return 0;
	p_err("%s%s", err, errno == EACCES && !geteuid() ? " (while recording capaudit keeps only "
	      "CAP_BPF and CAP_PERFMON: root cannot write where CAP_DAC_OVERRIDE was needed)" : "");
	return -1;
}

/* Write r, then put it in place. */
static int finish_out(struct outfile *o, const struct record *r)
{
	char msg[1200];

	if (recfile_write(o->f, r)) {
		snprintf(msg, sizeof(msg), "cannot write %s: %s", o->path, strerror(errno));
		outfile_discard(o);
		p_err("%s", msg);
		return -1;
	}
	if (outfile_commit(o, msg, sizeof(msg))) {
		p_err("%s", msg);
		return -1;
	}
	return 0;
}

/* ---- who may see what ----------------------------------------------------- */

/* The caller is in group gid (primary or supplementary). */
static bool in_group(gid_t gid)
{
	gid_t groups[256];
	int n = getgroups(256, groups), i;

	if (getegid() == gid)
		return true;
	for (i = 0; i < n; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/*
 * Root sees every process. Anyone else follows only processes acting as
 * their own user (-p targets, a command's tree: a process that becomes
 * another user, a setuid program, is no longer followed), and -a of the
 * whole system needs membership of the group capaudit's executable
 * belongs to (make install: root:capaudit, mode 0750): CAP_PERFMON and
 * CAP_BPF would otherwise let any local user watch everyone's processes.
 */
static void caller_policy(struct session *s)
{
	struct stat st;
	bool member;

	s->uid = getuid();
	if (!s->uid)
		return;
	member = !stat("/proc/self/exe", &st) && st.st_gid && in_group(st.st_gid);
	s->only_uid = !(s->o->all && member);
	if (s->o->all && !member) {
		struct group *g = stat("/proc/self/exe", &st) ? NULL : getgrgid(st.st_gid);

		fprintf(stderr, "capaudit: note: -a records only uid %u's processes: the whole "
			"system needs root or membership of the group %s\n", (unsigned)s->uid,
			g ? g->gr_name : "capaudit's executable belongs to");
	}
}

/* ---- the processes to follow --------------------------------------------- */

/* A process of the snapshot gets its line (what /proc says, if it can be
 * tied to it) and is followed from now on. */
static void take_process(struct session *s, const struct ca_task *t, const struct ca_task *parent)
{
	char comm[CA_COMM_LEN + 1];
	struct rec_process *p;

	if (s->only_uid && t->euid != s->uid)
		return;   /* another user's: not followed, not named (caller_policy) */
	memcpy(comm, t->comm, CA_COMM_LEN);
	comm[CA_COMM_LEN] = '\0';
	p = image(s, t->tgid, t->pstart, t->exec_id, comm, t->boot_start);
	p->ppid = t->ppid;
	p->uid = t->uid;
	/* /proc/PID/exe may be unreadable (after the privilege drop, another
	 * user's process): a child that has not exec'd runs its parent's */
	if (!p->exe && parent && parent->exec_id == t->exec_id) {
		const struct rec_process *pp = record_find_process(&s->rec, parent->tgid,
								   to_epoch(s, parent->pstart),
								   parent->exec_id);

		if (pp && pp->exe)
			set_str(&p->exe, pp->exe);
	}
	procset_add(&s->live, t->tgid, t->pstart);
	if (s->tr.skel)
		tracer_follow(&s->tr, t->tgid, t->pstart);
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
static int take_targets(struct session *s, const struct task_snap *snap)
{
	const struct ca_task **roots = xcalloc(s->o->npids + 1, sizeof(*roots)), **desc = NULL;
	size_t nroots = 0, nd, k;
	int rc = -1;

	for (k = 0; k < s->o->npids; k++) {
		const struct ca_task *t = tasks_find(snap, (uint32_t)s->o->pids[k]);

		/* alive now, after the snapshot: the snapshot's process with that
		 * pid is the one the pidfd was opened for (a pid is not given out
		 * again while its process exists) */
		if (!t || (t->flags & CA_TASK_EXITING) || pidfd_alive(s->o->pidfds[k]) != 1) {
			/* alive but not in the snapshot: the kernel's task iterator
			 * does not show it (seen: a sandbox's own PID 1) */
			fprintf(stderr, "capaudit: -p %d: %s\n", (int)s->o->pids[k],
				!t && pidfd_alive(s->o->pidfds[k]) == 1 ?
				"the kernel's task iterator (iter/task) does not show this process: it "
				"cannot be followed" : "the process exited before recording began");
			continue;
		}
		if (s->only_uid && t->euid != s->uid) {
			p_err("-p %d: a process of uid %u: only root may follow another user's "
			      "processes", (int)s->o->pids[k], (unsigned)t->euid);
			goto out;
		}
		roots[nroots++] = t;
	}
	if (!nroots) {
		p_err("-p: no process left to record");
		goto out;
	}
	for (k = 0; k < nroots; k++)
		take_process(s, roots[k], parent_of(snap, roots[k]));
	nd = tasks_descendants(snap, roots, nroots, &desc);
	for (k = 0; k < nd; k++)
		if (!(desc[k]->flags & CA_TASK_EXITING) &&
		    !procset_has(&s->live, desc[k]->tgid, desc[k]->pstart))
			take_process(s, desc[k], parent_of(snap, desc[k]));
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
static int refresh_followed(struct session *s)
{
	struct task_snap snap;
	struct snap_ctx sc = { .snap = &snap };
	const struct ca_task **roots, **desc = NULL;
	size_t nroots = 0, nd, k;
	char err[256];

	if (tasks_snapshot(&snap, err, sizeof(err))) {
		fprintf(stderr, "capaudit: warning: %s\n", err);
		return -1;
	}
	procset_filter(&s->live, in_snapshot, &sc);
	roots = xcalloc(s->live.n + 1, sizeof(*roots));
	sc.roots = roots;
	procset_foreach(&s->live, add_root, &sc);
	nroots = sc.nroots;
	nd = tasks_descendants(&snap, roots, nroots, &desc);
	for (k = 0; k < nd; k++)
		if (!(desc[k]->flags & CA_TASK_EXITING) &&
		    !procset_has(&s->live, desc[k]->tgid, desc[k]->pstart))
			take_process(s, desc[k], parent_of(&snap, desc[k]));
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

/* -p: are any followed processes left? Exit events remove them; a pid no
 * process has means one exited unseen; when exit events were lost (ringbuf
 * full), a snapshot says which are still there. */
static bool any_followed(struct session *s)
{
	uint64_t st[CA_STAT_NR];

	procset_filter(&s->live, pid_exists, NULL);
	tracer_stats(&s->tr, st);
	if (s->live.n && st[CA_STAT_RINGBUF_FULL] != s->ringbuf_lost_seen &&
	    !refresh_followed(s))
		s->ringbuf_lost_seen = st[CA_STAT_RINGBUF_FULL];
	return s->live.n > 0;
}

/* ---- the recording loop ------------------------------------------------- */

static void status_line(struct session *s, bool final)
{
	uint64_t st[CA_STAT_NR];

	tracer_stats(&s->tr, st);
	fprintf(stderr, "\rcapaudit: recording (%s): %llu checks, %zu processes, %llu lost\033[K%s",
		attach_mode_name(s->tr.mode), (unsigned long long)tracer_checks(&s->tr),
		s->rec.nprocs,
		(unsigned long long)(st[CA_STAT_MAP_FULL] + st[CA_STAT_RINGBUF_FULL] +
				     st[CA_STAT_PROC_FULL]),
		final ? "\n" : "");
}

/* Why the recording ended (the record header's "stop"). */
enum stop_reason { STOP_EXITED, STOP_DURATION, STOP_SIGNAL };

static const char *const stop_names[] = { "exited", "duration", "signal" };

static enum stop_reason run_loop(struct session *s)
{
	struct rec_opts *o = s->o;
	/* a status line only where it cannot mix with the command's own
	 * output and input: never over a command capaudit runs (it owns the
	 * terminal), only for -p and -a, and only on a terminal */
	bool tty = !o->quiet && !o->cmd && isatty(STDERR_FILENO);
	int64_t start = now_monotonic_ns(), last_status = 0, last_scan = 0, sig_at = 0;
	int64_t last_drain = 0;
	int64_t end = o->duration > 0 ? start + (int64_t)(o->duration * 1e9) : 0;
	enum stop_reason why = STOP_EXITED;

	for (;;) {
		int64_t now;

		tracer_poll(&s->tr, 100);
		now = now_monotonic_ns();
		reap_child(s);
		if (s->child > 0 && s->child_done)
			break;
		if (end && now >= end) {
			why = STOP_DURATION;
			break;
		}
		if (stop_signal) {
			why = STOP_SIGNAL;
			if (s->child <= 0 || s->child_done)
				break;
			/* pass it on and give the command time to end */
			if (!sig_at) {
				sig_at = now;
				kill(s->child, stop_signal);
			} else if (now - sig_at > GRACE_NS) {
				break;
			}
		}
		/* a busy host fills the aggregation map in seconds: move it to
		 * our table while recording (cheap to ask, 20 times a second) */
		if (now - last_drain > 50000000LL) {
			last_drain = now;
			if (tracer_drain_if_full(&s->tr) < 0)
				fprintf(stderr, "capaudit: warning: draining the aggregation map: %s\n",
					strerror(errno));
		}
		if (o->npids && now - last_scan > 250000000LL) {
			last_scan = now;
			if (!any_followed(s))
				break;  /* every followed process has exited */
		}
		if (tty && now - last_status > 500000000LL) {
			last_status = now;
			status_line(s, false);
		}
	}
	if (tty)
		status_line(s, true);
	reap_child(s);   /* a command that ended on the forwarded signal */
	if (s->child > 0 && s->child_done)
		why = why == STOP_SIGNAL ? STOP_SIGNAL : STOP_EXITED;
	return why;
}

int do_record(int argc, char **argv, int all_argc, char **all_argv)
{
	struct rec_opts o;

	if (parse_opts(argc, argv, &o))
		return 2;
	return record_run(&o, all_argc, all_argv);
}

/* -p: the PIDs that could not be pinned when named; 0 if none. */
static int check_pinned(const struct rec_opts *o)
{
	size_t k;

	for (k = 0; k < o->npids; k++) {
		if (o->pidfds[k] >= 0)
			continue;
		/* pidfd_open() of a thread: EINVAL before Linux 6.9, ENOENT since */
		if ((o->pidfds[k] == -EINVAL || o->pidfds[k] == -ENOENT) && proc_is_thread(o->pids[k]))
			p_err("-p %d: a thread, not a process (give its process id)", (int)o->pids[k]);
		else if (o->pidfds[k] == -ESRCH)
			p_err("-p %d: no such process", (int)o->pids[k]);
		else
			p_err("-p %d: %s", (int)o->pids[k], strerror(-o->pidfds[k]));
		return -1;
	}
	return 0;
}

/*
 * Before the privilege drop: name every process to follow by its identity
 * (a snapshot of the live processes), and read what /proc says of them.
 */
static int name_processes(struct session *s)
{
	struct task_snap snap;
	const struct ca_task *t;
	char err[256];
	int rc = 0;

	if (s->o->all) {
		/* every process, as it comes; after the privilege drop /proc
		 * no longer shows another user's executable: read them now */
		if (tasks_snapshot(&s->before, err, sizeof(err)))
			fprintf(stderr, "capaudit: warning: %s\n", err);
		s->before_exe = xcalloc(s->before.n + 1, sizeof(char *));
		for (size_t i = 0; i < s->before.n; i++) {
			struct procinfo pi;

			t = &s->before.t[i];
			if (!procinfo_read_exact((pid_t)t->tgid, t->boot_start, NULL, &pi) && pi.exe[0])
				s->before_exe[i] = xstrdup(pi.exe);
		}
		return 0;
	}
	if (tasks_snapshot(&snap, err, sizeof(err))) {
		p_err("cannot list the processes to follow: %s", err);
		return -1;
	}
	if (s->o->npids)
		rc = take_targets(s, &snap);
	if (s->child > 0) {
		/* our child: not reaped, so its pid is its own */
		t = tasks_find(&snap, (uint32_t)s->child);
		if (!t) {
			p_err("cannot find the command's process %d", (int)s->child);
			rc = -1;
		} else {
			s->child_start = t->pstart;
			procset_add(&s->live, t->tgid, t->pstart);
		}
	}
	tasks_free(&snap);
	return rc;
}

/* Once attached: follow what was named, then what was forked meanwhile. */
static void follow_named(void *ctx, uint32_t tgid, uint64_t start)
{
	tracer_follow(&((struct session *)ctx)->tr, tgid, start);
}

/* The first size of each aggregation map: --max-keys (fixed), or under -a
 * room for every live process's active keys between two drains; a command
 * or -p tree starts small (the map grows when drains come fast). */
static uint32_t agg_size(const struct session *s)
{
	uint32_t n = CA_AGG_KEYS;

	if (s->o->max_keys)
		return s->o->max_keys;
	if (!s->o->all)
		return CA_AGG_KEYS_TREE;
	while (n < (1U << 20) && n < s->before.n * 16)
		n *= 2;
	return n;
}

int record_run(struct rec_opts *op, int all_argc, char **all_argv)
{
	struct rec_opts o = *op;
	struct session s = { 0 };
	enum stop_reason why = STOP_EXITED;
	struct child_report cr = { 0 };
	struct tracer_cfg cfg = { 0 };
	struct sigaction sa = { 0 };
	struct utsname uts;
	char err[1024];
	int go_fd = -1, exec_err_fd = -1, rc = 1, rc_start, i;
	struct kprobe_events kpe = { .entry = -1, .ret = -1 };
	size_t k;
	struct outfile outf = { .fd = -1 };

	s.o = &o;
	s.epoch_off = now_realtime_ns() - now_monotonic_ns();
	if (privs_check(all_argv[0], err, sizeof(err))) {
		p_err("%s", err);
		goto out;
	}
	if (check_pinned(&o))
		goto out;
	caller_policy(&s);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_sigchld;   /* interrupts poll when the command ends */
	sigaction(SIGCHLD, &sa, NULL);

	if (o.cmd) {
		s.child = spawn_stopped(o.cmd, o.launch, !strcmp(o.out, "-") || o.cmd_stdout_to_stderr,
					&go_fd, &exec_err_fd);
		if (s.child < 0) {
			p_err("cannot start %s: %s", o.cmd[0], strerror(errno));
			goto out;
		}
		if (read_report(exec_err_fd, &cr) != sizeof(cr) || cr.msg != CHILD_READY) {
			if (cr.msg == CHILD_LAUNCH_FAILED)
				p_err("cannot start %s: %s: %s", o.cmd[0], cr.stage, strerror(cr.err));
			else
				p_err("cannot start %s", o.cmd[0]);
			/* closed first: a child waiting for "go" then exits */
			close(go_fd);
			go_fd = -1;
			waitpid(s.child, NULL, 0);
			s.child_done = true;
			goto out;
		}
	}

	/* what needs more than CAP_BPF + CAP_PERFMON happens before the drop:
	 * the command was forked above with the caller's privileges, /proc of
	 * the followed processes is read now, and /proc/kallsyms when there is
	 * no iter/ksym to read symbols with later */
	if (name_processes(&s))
		goto out;
	if (!ksym_iter_supported())
		s.ksyms = ksyms_load(s.ksyms_err, sizeof(s.ksyms_err));
	if (attach_list_has(&o.modes, ATTACH_KPROBE))
		kprobe_events_open(&kpe);
	/* the call-site proofs' text ranges, if /proc/kallsyms shows them to
	 * us now (root): ready before the command runs */
	s.ranges_read = !proof_ranges_from_kallsyms(&s.ranges);
	if (privs_drop(err, sizeof(err))) {
		p_err("%s", err);
		goto out;
	}
	/* created with the privileges the final rename will have: an output
	 * directory we cannot write fails now, not after the recording */
	if (open_out(o.out, &outf))
		goto out;

	cfg.modes = o.modes;
	cfg.all = o.all;
	cfg.self_tgid = (uint32_t)getpid();
	cfg.only_uid = s.only_uid;
	cfg.uid = (uint32_t)s.uid;
	cfg.verbose = o.verbose;
	cfg.syscall_results = o.syscall_results;
	cfg.exact_stacks = o.exact_stacks;
	cfg.user_stacks = o.user_stacks;
	if (o.user_stacks)
		s.us = ustacks_new();
	cfg.max_keys = agg_size(&s);
	cfg.fixed_keys = o.max_keys != 0;
	/* -a: every fork, exec and exit of the host goes through it; a loader
	 * kept from the CPU for a few seconds must not lose them */
	cfg.ringbuf_bytes = (o.ringbuf_kb ? o.ringbuf_kb : o.all ? 4096 : 0) * 1024U;
	cfg.kprobe_events = &kpe;
	rc_start = tracer_start(&s.tr, &cfg, on_event, &s, err, sizeof(err));
	kprobe_events_close(&kpe);   /* attached ones live on in their links */
	if (rc_start) {
		p_err("%s", err);
		goto out;
	}
	s.real0 = now_realtime_ns();
	procset_foreach(&s.live, follow_named, &s);
	if (o.npids)
		refresh_followed(&s);
	s.ranges_set = s.ranges_read && !tracer_set_ranges(&s.tr, &s.ranges);
	if (s.child > 0) {
		sigset_t block, old;
		bool stopped;

		/* a signal that came during the start-up: the command never runs */
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGHUP);
		sigprocmask(SIG_BLOCK, &block, &old);
		stopped = stop_signal != 0;
		if (!stopped && write(go_fd, "g", 1) != 1) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			p_err("cannot start %s: %s", o.cmd[0], strerror(errno));
			goto out;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (stopped) {
			p_err("%s before %s started: it did not run, no record was written",
			      strsignal(stop_signal), o.cmd[0]);
			rc = 128 + stop_signal;
			goto out;
		}
		close(go_fd);
		go_fd = -1;
		/* EOF: exec succeeded; a message: it failed */
		if (read_report(exec_err_fd, &cr) == sizeof(cr)) {
			waitpid(s.child, NULL, 0);
			s.child_done = true;
			p_err("cannot run %s: %s", o.cmd[0], strerror(cr.err));
			op->exec_errno = cr.err;
			rc = 127;
			goto out;
		}
	}

	/* after the command was released: it never waits for this */
	start_symbols(&s);
	why = run_loop(&s);

	tracer_stop(&s.tr);
	tracer_poll(&s.tr, 0);   /* events that raced with the end */
	if (s.child > 0 && !s.child_done) {
		/* still running (-d ended the recording, or it outlived the
		 * forwarded signal): leave it, but say so, in the record and in
		 * the exit status */
		fprintf(stderr, "capaudit: %s (pid %d) still runs; recording stopped (%s): the "
			"record holds only what it did so far\n", o.cmd[0], (int)s.child,
			why == STOP_DURATION ? "-d" : "signal");
		s.rec.hdr.command_running = true;
	}
	s.rec.hdr.stop = xstrdup(stop_names[why]);

	uname(&uts);
	s.rec.hdr.version = REC_VERSION;
	s.rec.hdr.capaudit_version = xstrdup(CAPAUDIT_VERSION);
	s.rec.hdr.kernel = xstrdup(uts.release);
	s.rec.hdr.machine = xstrdup(uts.machine);
	s.rec.hdr.attach = xstrdup(attach_mode_name(s.tr.mode));
	s.rec.hdr.scope = xstrdup(o.all ? "all" : o.cmd ? "command" : "pid");
	s.rec.hdr.argv = xcalloc((size_t)all_argc + 1, sizeof(char *));
	for (i = 0; i < all_argc; i++)
		s.rec.hdr.argv[s.rec.hdr.argc++] = xstrdup(all_argv[i]);
	s.rec.hdr.start_ns = s.real0;
	s.rec.hdr.end_ns = now_realtime_ns();
	if (s.child > 0 && s.child_done) {
		s.rec.hdr.has_exit_status = true;
		s.rec.hdr.exit_status = status_to_exit(s.child_status);
	}
	{
		/* the recording is over: symbols, then no capability at all for
		 * reading what the traced programs left (their ELF files, for
		 * --user-stacks) */
		char kerr[256] = "";
		struct ksyms *ks = end_symbols(&s, kerr, sizeof(kerr));

		if (privs_drop_all(err, sizeof(err))) {
			p_err("%s", err);
			ksyms_free(ks);
			goto out;
		}
		collect(&s, ks, kerr);
	}
	{
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		s.rec.hdr.loader_cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
					 ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		s.rec.hdr.loader_rss_kb = ru.ru_maxrss;
	}
	s.rec.hdr.symbols = xstrdup(s.ksyms_source ? s.ksyms_source : "unavailable");
	s.rec.hdr.pids_reused = record_count_reused_pids(&s.rec);

	/* nothing may interrupt the write: the file is complete or absent */
	{
		sigset_t block, old;

		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		sigaddset(&block, SIGHUP);
		sigprocmask(SIG_BLOCK, &block, &old);
		rc = finish_out(&outf, &s.rec) ? 1 : 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	/* the last line says what the record lacks, as the report will */
	if (!rc && !o.quiet) {
		char lost[600];

		rec_lost_describe(&s.rec.hdr.lost, lost, sizeof(lost));
		fprintf(stderr, "capaudit: wrote %s (%zu processes, %zu aggregated checks; %s%s)\n",
			strcmp(o.out, "-") ? o.out : "the record to standard output",
			s.rec.nprocs, s.rec.nchecks, lost,
			s.rec.hdr.command_running ? "; the command was still running" : "");
	}
	if (!rc) {
		op->recorded = true;
		op->cmd_status = s.rec.hdr.exit_status;
	}
	if (!rc && s.rec.hdr.has_exit_status)
		rc = s.rec.hdr.exit_status;
	/* a command cut short is not a command that succeeded: 124 as
	 * timeout(1) says for -d, 128 + the signal otherwise */
	if (!rc && s.rec.hdr.command_running)
		rc = why == STOP_DURATION ? 124 : 128 + (stop_signal ? stop_signal : SIGTERM);
out:
	if (outf.f)
		outfile_discard(&outf);
	kprobe_events_close(&kpe);
	ustacks_free(s.us);
	if (go_fd >= 0) {
		close(go_fd);  /* never released: the command exits without running */
		if (s.child > 0 && !s.child_done)
			waitpid(s.child, NULL, 0);
	}
	if (exec_err_fd >= 0)
		close(exec_err_fd);
	join_symbols(&s);   /* before the maps it writes go */
	tracer_close(&s.tr);
	ksyms_free(s.ksyms);
	ksyms_free(s.ksyms_start);
	free(s.modules_start);
	record_free(&s.rec);
	procset_free(&s.live);
	for (k = 0; k < s.before.n; k++)
		free(s.before_exe[k]);
	free(s.before_exe);
	tasks_free(&s.before);
	for (k = 0; k < o.npids; k++)
		if (o.pidfds[k] >= 0)
			close(o.pidfds[k]);
	return rc;
}
