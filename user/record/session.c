// SPDX-License-Identifier: GPL-2.0
/*
 * One recording, as named phases (record_run() at the end reads as the
 * script): check the caller, start the command held, read what needs
 * privileges, drop them, attach, release the command, loop until it ends,
 * collect the maps, write the record.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "facts/attach.h"
#include "facts/kfeat.h"
#include "facts/syscalls.h"
#include "lib/msg.h"
#include "lib/util.h"
#include "tracer/ksyms_iter.h"
#include "tracer/privs.h"
#include "record/procinfo.h"
#include "tracer/proofranges.h"
#include "record/service.h"
#include "lib/cgroup.h"
#include "lib/ksyms.h"
#include "lib/outfile.h"
#include "lib/proctree.h"
#include "recfile/recfile.h"
#include "record/collect.h"
#include "record/launch.h"
#include "record/proctable.h"
#include "record/record.h"
#include "lib/phase.h"
#include "record/scope.h"
#include "record/command.h"
#include "record/symbols.h"
#include "tracer/probe.h"
#include "tracer/ptrace_hooks.h"
#include "tracer/tracer.h"

/* One recording: its own state here, and what its parts keep (the process
 * table, the kernel's symbols), each in the part's own struct. Only this
 * file sees it; the monitor goes through record.h. */
struct session {
	struct rec_opts *o;
	struct tracer tr;
	struct record rec;
	int64_t real0;            /* when recording began (attached), epoch ns */
	int child_status;         /* -- COMMAND (pt.child): its wait status, */
	bool child_done;          /* once reaped */
	bool tree_announced;     /* said that the command's tree runs on */
	/* --cgroup, --container, --unit: what is recorded */
	struct scope scope;
	/* every process's cgroup path, container and unit (attribute.c) */
	struct cgroup_names cgn;
	struct proctable pt;      /* the process images and who is followed */
	struct rec_symbols sym;   /* the kernel's symbols */
	/* the phases' own: the command's pipes, perf events opened before the
	 * drop (kprobe mode), the output file, the exit status so far */
	int go_fd, exec_err_fd;
	struct kprobe_events kpe;
	struct ptrace_hooks pth;  /* the ptrace-access hooks' events (not in monitor) */
	struct outfile outf;
	int rc;
	bool monitor;             /* capaudit monitor's (session_monitor()) */
};

/* Why the recording ended (the record header's "stop"). */
enum stop_reason { STOP_EXITED, STOP_DURATION, STOP_SIGNAL };
static const char *const stop_names[] = { "exited", "duration", "signal" };

#define GRACE_NS (5LL * 1000000000LL)  /* after a signal, wait this for the command */

/* The state of one recording. */
static volatile sig_atomic_t stop_signal;

/* Written by the handlers, read by the loop's poll (tracer_wake_fd()): a
 * signal that comes just before the poll starts waiting still ends the
 * wait, where an interrupted wait alone would sleep its whole timeout
 * (the hooks' events no longer wake the poll one by one). */
static int wake_pipe[2] = { -1, -1 };

static void poke(void)
{
	int e = errno;

	if (wake_pipe[1] >= 0 && write(wake_pipe[1], "", 1) < 0) {
		/* full: the loop has a wake-up to read already */
	}
	errno = e;
}

static void on_signal(int sig) { stop_signal = sig; poke(); }
static void on_sigchld(int sig) { (void)sig; poke(); }

/* ---- the output file ---------------------------------------------------- */

/*
 * The files a session writes (-o, and a monitor's events and metrics) get
 * the output keeper while the caller's rights still apply (privs.h,
 * lib/outfile.h): after the drop to CAP_BPF and CAP_PERFMON, root still
 * creates and replaces them where only its CAP_DAC_OVERRIDE allows (a
 * user's checkout), and a new one belongs to the user who ran sudo.
 */
int session_keep_outputs(struct session *s, const char *const *more, size_t nmore)
{
	const char *paths[8] = { s->o->out };
	char err[1024];
	size_t n = 1, i;

	for (i = 0; i < nmore && n < ARRAY_SIZE(paths); i++)
		paths[n++] = more[i];
	if (privs_keep_outputs(paths, n, err, sizeof(err))) {
		p_err("%s", err);
		return -1;
	}
	return 0;
}

/* Opened before the command runs, so that a bad path fails first
 * (outfile.h: complete or absent, never replacing what it should not);
 * when it cannot be, the message says what to do. */
static int open_out(const char *out, struct outfile *o, unsigned int flags)
{
	char err[1024], advice[600];

	if (!outfile_open(o, out, flags, err, sizeof(err)))
		return 0;
	outfile_advice(out, errno, "-o", advice, sizeof(advice));
	p_err("%s%s", err, advice);
	return -1;
}

/* Write r, then put it in place. */
static int finish_out(struct outfile *o, const struct record *r)
{
	char msg[1200];

	if (outfile_finish(o, recfile_write(o->f, r), msg, sizeof(msg))) {
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

	s->pt.uid = getuid();
	if (!s->pt.uid)
		return;
	member = !stat("/proc/self/exe", &st) && st.st_gid && in_group(st.st_gid);
	s->pt.only_uid = !((s->o->all || s->o->scope_kind) && member);
	if ((s->o->all || s->o->scope_kind) && !member) {
		struct group *g = stat("/proc/self/exe", &st) ? NULL : getgrgid(st.st_gid);

		fprintf(stderr, "capaudit: note: %s records only uid %u's processes: %s needs root "
			"or membership of the group %s\n",
			s->o->all ? "-a" : scope_option(s->scope.kind), (unsigned)s->pt.uid,
			s->o->all ? "the whole system" : "every user's",
			g ? g->gr_name : "capaudit's executable belongs to");
	}
}

/* ---- the recording loop ------------------------------------------------- */

static void status_line(struct session *s, bool final)
{
	struct rec_lost lost;

	collect_lost(&s->tr, &lost);
	fprintf(stderr, "\rcapaudit: recording (%s): %llu %s, %zu %s, %llu lost\033[K%s",
		attach_mode_name(s->tr.mode), (unsigned long long)tracer_checks(&s->tr),
		plural(tracer_checks(&s->tr), "check", "checks"), s->rec.nprocs,
		plural(s->rec.nprocs, "process", "processes"),
		(unsigned long long)rec_lost_total(&lost), final ? "\n" : "");
}

/* For announce_tree(): the first few of the processes still followed. */
struct tree_note {
	struct session *s;
	size_t n;
	char names[200], pids[100];
};

static void note_one(void *ctx, uint32_t tgid, uint64_t start)
{
	struct tree_note *n = ctx;
	struct procinfo pi;
	size_t len;

	(void)start;
	if (n->n++ >= 3)
		return;
	len = strlen(n->names);
	snprintf(n->names + len, sizeof(n->names) - len, "%spid %u %.16s", n->n > 1 ? ", " : "",
		 tgid, procinfo_read((pid_t)tgid, &pi) ? "?" : pi.comm);
	len = strlen(n->pids);
	snprintf(n->pids + len, sizeof(n->pids) - len, "%s%u", n->n > 1 ? " " : "", tgid);
}

/* Say once that the command exited while processes it started run on,
 * which, and how to end the recording. */
static void announce_tree(struct session *s)
{
	struct tree_note n = { .s = s };

	s->tree_announced = true;
	if (s->o->quiet)
		return;
	procset_foreach(&s->pt.live, note_one, &n);
	fprintf(stderr, "capaudit: %s exited; %zu process%s it started still run%s (%s%s): "
		"recording goes on until %s, -d ends, or a signal comes (kill %s stops %s)\n",
		s->o->cmd[0], s->pt.live.n, s->pt.live.n == 1 ? "" : "es", s->pt.live.n == 1 ? "s" : "",
		n.names, s->pt.live.n > 3 ? ", ..." : "", s->pt.live.n == 1 ? "it exits" : "they exit",
		n.pids, s->pt.live.n == 1 ? "it" : "them");
}

/* record --container NAME --wait: say what is awaited, and that every
 * process is followed until then. */
static void announce_wait(struct session *s)
{
	const char *n = s->o->scope_arg;

	if (s->o->quiet)
		return;
	if (s->scope.was_running)
		fprintf(stderr, "capaudit: container %s is running now; that run is not recorded: "
			"waiting for its next start (for example: podman restart %s)\n", n, n);
	else
		fprintf(stderr, "capaudit: waiting for container %s to start; until then every "
			"process on the host is followed\n", n);
}

/* It has started: only it is followed from now on; what the rest did
 * meanwhile is dropped when the record is made (keep_container()). */
static void container_started(struct session *s)
{
	if (s->scope.fd >= 0 && tracer_set_scope(&s->tr, s->scope.fd))
		fprintf(stderr, "capaudit: warning: cannot narrow the recording to the container's "
			"cgroup (%s): every process is followed until the end\n", strerror(errno));
	if (!s->o->quiet)
		fprintf(stderr, "capaudit: container %s (%.12s) started; recording it until it "
			"exits\n", s->scope.ct.name[0] ? s->scope.ct.name : s->o->scope_arg,
			s->scope.ct.id);
}

/* The command, once it has ended; with stop_started, the orphans of its
 * processes (ours: we are their subreaper) as they end too. */
static void reap_command(struct session *s)
{
	if (s->o->stop_started)
		reap_children(s->pt.child, outfile_keeper_pid(), &s->child_done, &s->child_status);
	else
		reap_child(s->pt.child, &s->child_done, &s->child_status);
}

/* run: the recording has ended (only a signal ends it while they run);
 * what the command started that still runs is stopped, wherever it went
 * (another cgroup, a session of its own: still below us, its subreaper) */
static void stop_started(struct session *s)
{
	pid_t keeper = outfile_keeper_pid();
	struct proctree_proc p[9];
	char names[400];
	size_t n = 0;
	int rc = proctree_kill(&keeper, keeper > 0, p, 9, &n), err = errno;

	reap_command(s);
	if (!n)
		return;
	proctree_names(p, n < 9 ? n : 9, names, sizeof(names));
	if (!rc)
		fprintf(stderr, "capaudit: stopped %zu process%s the command started that still "
			"ran: %s\n", n, n == 1 ? "" : "es", names);
	else
		fprintf(stderr, "capaudit: cannot stop every process the command started that still "
			"runs (%s): %s\n", strerror(err), names);
}

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

	if (s->scope.waiting)
		announce_wait(s);
	for (;;) {
		int64_t now;

		tracer_poll(&s->tr, 100);
		if (wake_pipe[0] >= 0) {
			char buf[64];

			while (read(wake_pipe[0], buf, sizeof(buf)) > 0)
				;
		}
		now = now_monotonic_ns();
		reap_command(s);
		/* a busy host fills the aggregation map in seconds: move it to
		 * our table while recording (cheap to ask, 20 times a second);
		 * before the exit checks, so that a map that filled while this
		 * loop waited for a turn is drained, and grown, all the same
		 * (one that filled is drained at once) */
		if (now - last_drain > 50000000LL || s->tr.spilled_since_swap) {
			last_drain = now;
			if (tracer_drain_if_full(&s->tr) < 0)
				fprintf(stderr, "capaudit: warning: draining the aggregation map: %s\n",
					strerror(errno));
		}
		/* the command has exited: the processes it started may run on
		 * (a daemon forks into the background), and are recorded until
		 * the last one exits */
		if (s->pt.child > 0 && s->child_done && now - last_scan > 100000000LL) {
			last_scan = now;
			if (!proctable_any_followed(&s->pt))
				break;
			if (!s->tree_announced)
				announce_tree(s);
		}
		if (end && now >= end) {
			why = STOP_DURATION;
			break;
		}
		if (stop_signal) {
			why = STOP_SIGNAL;
			if (s->pt.child <= 0 || s->child_done)
				break;
			/* pass it on and give the command time to end */
			if (!sig_at) {
				sig_at = now;
				kill(s->pt.child, stop_signal);
			} else if (now - sig_at > GRACE_NS) {
				break;
			}
		}
		if (o->npids && now - last_scan > 250000000LL) {
			last_scan = now;
			if (!proctable_any_followed(&s->pt))
				break;  /* every followed process has exited */
		}
		if (s->scope.waiting && now - last_scan > 100000000LL) {
			last_scan = now;
			if (scope_wait_poll(&s->scope, o->scope_arg))
				container_started(s);
		} else if (s->scope.kind && now - last_scan > 250000000LL) {
			last_scan = now;
			/* its last process has exited, or its cgroup is gone (a
			 * container awaited may have run its course between two
			 * looks: its runtime removes the cgroup then) */
			int p = scope_populated(&s->scope);

			if ((p == 0 && s->scope.seen_populated) || p < 0)
				break;
		}
		if (tty && now - last_status > 500000000LL) {
			last_status = now;
			status_line(s, false);
		}
	}
	if (tty)
		status_line(s, true);
	reap_command(s);   /* a command that ended on the forwarded signal */
	if (s->pt.child > 0 && s->child_done)
		why = why == STOP_SIGNAL ? STOP_SIGNAL : STOP_EXITED;
	return why;
}

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
static uint32_t agg_size(const struct session *s)
{
	uint32_t n = CA_AGG_KEYS;

	if (s->o->max_keys)
		return s->o->max_keys;
	if (!s->o->all)
		return CA_AGG_KEYS_TREE;
	while (n < (1U << 20) && n < s->pt.before.n * 16)
		n *= 2;
	return n;
}

/* ---- the phases ------------------------------------------------------ */

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The ids of the scope's subtree now. */
static int note_scope_id(void *ctx, const char *path, uint64_t id)
{
	struct session *s = ctx;

	(void)path;
	if (!(s->pt.nscope_ids & (s->pt.nscope_ids + 1)) || !s->pt.nscope_ids)
		s->pt.scope_ids = xrealloc(s->pt.scope_ids, (s->pt.nscope_ids * 2 + 2) * sizeof(uint64_t));
	s->pt.scope_ids[s->pt.nscope_ids++] = id;
	return 0;
}

/* --cgroup, --container, --unit: found and opened before anything runs. A
 * scope without a process is an error unless -d says how long to wait for
 * one. */
static int find_scope(struct session *s)
{
	char err[1400];

	cgroup_names_init(&s->cgn);
	if (!s->o->scope_kind)
		return 0;
	if (s->o->scope_wait) {
		/* nothing of it runs yet: no snapshot of its processes */
		if (scope_wait_begin(&s->scope, s->o->scope_arg, err, sizeof(err))) {
			p_err("%s", err);
			return -1;
		}
		return 0;
	}
	if (scope_resolve(&s->scope, (enum scope_kind)s->o->scope_kind, s->o->scope_arg, err,
			  sizeof(err))) {
		p_err("%s", err);
		return -1;
	}
	if (scope_populated(&s->scope) != 1 && s->o->duration <= 0) {
		p_err("%s %s: no process in %s%s now (give -d SECONDS to wait for some)",
		      scope_option(s->scope.kind), s->o->scope_arg, s->scope.root, s->scope.path);
		return -1;
	}
	cgroup_walk(s->scope.root, s->scope.path, 100000, note_scope_id, s);
	if (s->pt.nscope_ids)
		qsort(s->pt.scope_ids, s->pt.nscope_ids, sizeof(uint64_t), cmp_id);
	return 0;
}

/* May the caller record what it asked for? Signals noted from here on. */
static int check_caller(struct session *s, const char *argv0)
{
	struct sigaction sa = { 0 };
	char err[1024];

	phase_mark("check caller");
	if (privs_check(argv0, err, sizeof(err))) {
		p_err("%s", err);
		return -1;
	}
	if (check_pinned(s->o) || find_scope(s))
		return -1;
	caller_policy(s);
	if (wake_pipe[0] < 0 && pipe2(wake_pipe, O_NONBLOCK | O_CLOEXEC) < 0)
		wake_pipe[0] = wake_pipe[1] = -1;   /* the poll's timeout still ends a wait */
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_sigchld;   /* interrupts poll when the command ends */
	sigaction(SIGCHLD, &sa, NULL);
	return 0;
}

/* -- COMMAND: forked now, with the caller's privileges, and held until
 * the hooks follow it. */
static int start_command(struct session *s)
{
	const struct rec_opts *o = s->o;
	struct child_report cr = { 0 };

	if (!o->cmd)
		return 0;
	phase_mark("command fork");
	if (o->stop_started && proctree_subreaper())
		fprintf(stderr, "capaudit: warning: cannot be the command's subreaper (%s): what it "
			"starts in a session of its own may outlive it\n", strerror(errno));
	s->pt.child = spawn_stopped(o->cmd, o->launch, !strcmp(o->out, "-") || o->cmd_stdout_to_stderr,
				 &s->go_fd, &s->exec_err_fd);
	if (s->pt.child < 0) {
		p_err("cannot start %s: %s", o->cmd[0], strerror(errno));
		return -1;
	}
	if (read_report(s->exec_err_fd, &cr) != sizeof(cr) || cr.msg != CHILD_READY) {
		if (cr.msg == CHILD_LAUNCH_FAILED)
			p_err("cannot start %s: %s: %s", o->cmd[0], cr.stage, strerror(cr.err));
		else
			p_err("cannot start %s", o->cmd[0]);
		/* closed first: a child waiting for "go" then exits */
		close(s->go_fd);
		s->go_fd = -1;
		waitpid(s->pt.child, NULL, 0);
		s->child_done = true;
		return -1;
	}
	return 0;
}

/* What needs more than CAP_BPF + CAP_PERFMON happens before the drop:
 * RLIMIT_MEMLOCK raised (kernels before 5.11 charge BPF maps to it; the
 * command, forked already, keeps its own), /proc of the followed
 * processes, /proc/kallsyms when there is no iter/ksym to read symbols
 * with later (and the call-site proofs' text ranges from it), the kprobe
 * perf events; the iter/ksym program is loaded now too (the kernel's BTF
 * parsed while the loader is small). */
static int read_before_drop(struct session *s)
{
	phase_mark("iterators' object load");
	if (privs_raise_memlock() && s->o->verbose)
		fprintf(stderr, "capaudit: cannot raise RLIMIT_MEMLOCK: %s\n", strerror(errno));
	/* the iterators' object (iter/task, iter/ksym) loaded once, now,
	 * while the loader is small, and kept for the symbols: tracer/iters.h */
	ksyms_iter_prepare();
	phase_mark("processes named");
	if (proctable_name_processes(&s->pt))
		return -1;
	phase_mark("kallsyms, kprobe events");
	if (!ksym_iter_supported())
		s->sym.ksyms = ksyms_load(s->sym.ksyms_err, sizeof(s->sym.ksyms_err));
	if (attach_list_has(&s->o->modes, ATTACH_KPROBE))
		kprobe_events_open(&s->kpe);
	/* ptrace access the kernel allows without a check: what a record's
	 * suggestion needs (tracer/ptrace_hooks.h); by default for a command
	 * capaudit starts, not for processes it joins (the hooks slow every
	 * syscall of the host while attached), nor in monitor */
	phase_mark("ptrace hooks' events");
	if (s->o->ptrace_access == PTRACE_ACCESS_ON ||
	    (s->o->ptrace_access == PTRACE_ACCESS_DEFAULT && s->o->cmd && !s->monitor))
		ptrace_hooks_open(&s->pth);
	/* without iter/ksym, from the symbols just read (/proc/kallsyms
	 * once, not twice); with it, on start_symbols()'s thread, which also
	 * reads the table the end needs (one reading, not two: 55-65 ms of
	 * CPU each, here), while the command runs */
	phase_mark("kallsyms before drop");
	if (s->sym.ksyms)
		s->sym.ranges_read = !proof_ranges_from_ksyms(s->sym.ksyms, &s->sym.ranges);
	/* where /proc/kallsyms showed root the ranges before the command
	 * ran, iter/ksym does now (attached, before the command is let go:
	 * record_run()): a short command's hits are proven from the first */
	else
		s->sym.before_command = ksyms_addresses_shown();
	return 0;
}

/* Keep CAP_BPF and CAP_PERFMON only; then the output file is created
 * (by the keeper, with the caller's rights, where it runs: the one that
 * will put it in place), so that a directory it cannot write fails now,
 * not after the recording. */
static int drop_privileges(struct session *s)
{
	char err[1024];

	phase_mark("drop privileges");
	if (privs_drop(err, sizeof(err))) {
		p_err("%s", err);
		return -1;
	}
	start_symbols_early(&s->sym);   /* read while the object loads */
	/* a monitor's checkpoint is written again and again: a regular file
	 * only (lib/outfile.h OUTFILE_REGULAR) */
	return open_out(s->o->out, &s->outf, s->monitor ? OUTFILE_REGULAR : 0);
}

/* Load and attach the first attach mode that works, then follow what was
 * named and what it forked meanwhile. */
static int attach(struct session *s)
{
	const struct rec_opts *o = s->o;
	struct tracer_cfg cfg = { 0 };
	char err[1024];
	int rc;

	cfg.modes = o->modes;
	/* a scope: every process, as -a, but only those under its cgroup */
	cfg.all = o->all || s->scope.kind != SCOPE_NONE;
	cfg.cgroup = s->scope.kind != SCOPE_NONE;
	cfg.cgroup_fd = s->scope.fd;
	cfg.self_tgid = (uint32_t)getpid();
	cfg.keeper_tgid = (uint32_t)outfile_keeper_pid();
	cfg.only_uid = s->pt.only_uid;
	cfg.uid = (uint32_t)s->pt.uid;
	cfg.verbose = o->verbose;
	cfg.syscall_results = o->syscall_results;
	cfg.exact_stacks = o->exact_stacks;
	/* paths where process starts are what costs: the whole host or a
	 * cgroup, for as long as it runs; a command or -p pays start-up
	 * instead (docs/performance.md "Paths") */
	cfg.paths = o->all || s->scope.kind || s->monitor;
	cfg.user_stacks = o->user_stacks;
	cfg.new_keys = s->monitor && s->pt.on_newkey;
	if (o->user_stacks)
		s->pt.us = ustacks_new();
	/* the monitor runs for months: a table of every key's objects would
	 * pile up; it keeps them on its rows, bounded (on_object,
	 * monitor/monobjs.c). A recording's end frees them */
	if (!s->monitor)
		s->pt.objs = objtab_new();
	cfg.max_keys = agg_size(s);
	cfg.fixed_keys = o->max_keys != 0;
	/* -a: every fork, exec and exit of the host goes through it; a loader
	 * kept from the CPU for a few seconds must not lose them */
	cfg.ringbuf_bytes = (o->ringbuf_kb ? o->ringbuf_kb : o->all ? 4096 : 0) * 1024U;
	cfg.kprobe_events = &s->kpe;
	cfg.ptrace_hooks = &s->pth;
	rc = tracer_start(&s->tr, &cfg, proctable_on_event, &s->pt, err, sizeof(err));
	/* the opening thread (root's privileges) is gone: tracer_start()
	 * waited for it before attaching, or here where it failed sooner */
	ptrace_hooks_ready(&s->pth);
	kprobe_events_close(&s->kpe);   /* attached ones live on in their links */
	/* the attached ones' events stay open until their links are gone
	 * (tracer_stop(): the links then detach quickly, in parallel); none
	 * attached: closed now, they would slow every syscall for nothing */
	if (rc || s->tr.ptrace_hooks <= 0)
		ptrace_hooks_close(&s->pth);
	s->rec.hdr.ptrace_watched = s->tr.ptrace_hooks > 0;
	s->rec.hdr.has_ptrace_watched = true;
	if (rc) {
		p_err("%s", err);
		return -1;
	}
	if (wake_pipe[0] >= 0)
		tracer_wake_fd(&s->tr, wake_pipe[0]);
	if (!o->quiet) {   /* what this kernel's BPF cannot give (facts/kfeat.h) */
		char lines[KF_NR][KF_LINE];
		size_t i, n = kfeat_degraded(KF_ALL & ~s->tr.kfeat, o->user_stacks,
					     s->tr.mode == ATTACH_KPROBE, lines, KF_NR);

		for (i = 0; i < n; i++)
			fprintf(stderr, "capaudit: note: %s\n", lines[i]);
	}
	s->real0 = now_realtime_ns();
	procset_foreach(&s->pt.live, proctable_follow_named, &s->pt);
	if (o->npids)
		proctable_refresh_followed(&s->pt);
	s->sym.ranges_set = s->sym.ranges_read && !tracer_set_ranges(&s->tr, &s->sym.ranges);
	return 0;
}

/* The symbols read now, before the command runs, where they were so
 * (read_before_drop()): the thread of start_symbols() is joined at once. */
static int symbols_before_command(struct session *s)
{
	if (!s->sym.before_command)
		return 0;
	phase_mark("symbols before the command");
	start_symbols(&s->sym);
	join_symbols(&s->sym);
	return 0;
}

/* Let the command run: unless a signal came during the start-up (then it
 * never runs), or its exec failed (a message on the pipe; EOF: it ran). */
static int release_command(struct session *s, struct rec_opts *op)
{
	const struct rec_opts *o = s->o;
	struct child_report cr = { 0 };
	sigset_t old;
	bool stopped;

	phase_mark("release command");
	if (s->pt.child <= 0)
		return 0;
	block_stop_signals(&old);
	stopped = stop_signal != 0;
	if (!stopped && write(s->go_fd, "g", 1) != 1) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		p_err("cannot start %s: %s", o->cmd[0], strerror(errno));
		return -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (stopped) {
		p_err("%s before %s started: it did not run, no record was written",
		      strsignal(stop_signal), o->cmd[0]);
		s->rc = 128 + stop_signal;
		return -1;
	}
	close(s->go_fd);
	s->go_fd = -1;
	if (read_report(s->exec_err_fd, &cr) == sizeof(cr)) {
		waitpid(s->pt.child, NULL, 0);
		s->child_done = true;
		p_err("cannot run %s: %s", o->cmd[0], strerror(cr.err));
		op->exec_errno = cr.err;
		s->rc = 127;
		return -1;
	}
	return 0;
}

/* Detach, and say in the header how the recording ended and of what. */
static void end_recording(struct session *s, enum stop_reason why, int all_argc, char **all_argv)
{
	const struct rec_opts *o = s->o;
	struct rec_header *h = &s->rec.hdr;

	phase_mark("detach");
	tracer_stop(&s->tr);
	ptrace_hooks_close_start(&s->pth);   /* (not waited for: ptrace_hooks.h) */
	tracer_poll(&s->tr, 0);   /* events that raced with the end */
	if (s->pt.child > 0 && !s->child_done) {
		/* still running (-d ended the recording, or it outlived the
		 * forwarded signal): leave it, but say so, in the record and in
		 * the exit status */
		fprintf(stderr, "capaudit: %s (pid %d) still runs; recording stopped (%s): the "
			"record holds only what it did so far\n", o->cmd[0], (int)s->pt.child,
			why == STOP_DURATION ? "-d" : "signal");
		h->command_running = true;
	} else if (s->pt.child > 0 && why != STOP_EXITED && proctable_any_followed(&s->pt)) {
		/* the command exited, processes it started did not */
		fprintf(stderr, "capaudit: %zu process%s %s started still run%s; recording stopped "
			"(%s): the record holds only what they did so far\n", s->pt.live.n,
			s->pt.live.n == 1 ? "" : "es", o->cmd[0], s->pt.live.n == 1 ? "s" : "",
			why == STOP_DURATION ? "-d" : "signal");
		h->command_running = true;
	}
	session_header(s, h, stop_names[why], all_argc, all_argv);
	if (s->pt.child > 0 && s->child_done) {
		h->has_exit_status = true;
		h->exit_status = status_to_exit(s->child_status);
	}
}

/* The BPF features the kernel lacked, and what the record lacks for it. */
static void kernel_bpf_header(struct rec_header *h, uint32_t kfeat, bool user_stacks, bool kprobe)
{
	char lines[KF_NR][KF_LINE];
	size_t i, n;

	/* what a stack walk past a kretprobe takes matters in kprobe mode only */
	h->kernel_missing = KF_ALL & ~kfeat & (kprobe ? KF_ALL : ~KF_KRETPROBE_STACK);
	n = kfeat_degraded(h->kernel_missing, user_stacks, kprobe, lines, KF_NR);
	h->degraded = xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n; i++)
		h->degraded[i] = xstrdup(lines[i]);
	h->ndegraded = n;
}

/* What every record of a session says of itself: the machine, the attach
 * mode, the scope and its target, the command line, the time span. */
void session_header(struct session *s, struct rec_header *h, const char *stop, int all_argc,
		    char **all_argv)
{
	const struct rec_opts *o = s->o;
	struct utsname uts;
	int i;

	h->stop = stop ? xstrdup(stop) : NULL;
	uname(&uts);
	h->version = REC_VERSION;
	h->capaudit_version = xstrdup(CAPAUDIT_VERSION);
	h->kernel = xstrdup(uts.release);
	h->machine = xstrdup(uts.machine);
	h->host = xstrdup(uts.nodename);
	h->arch = xstrdup(syscall_arch_native());
	h->attach = xstrdup(attach_mode_name(s->tr.mode));
	kernel_bpf_header(h, s->tr.kfeat, o->user_stacks, s->tr.mode == ATTACH_KPROBE);
	h->scope = xstrdup(s->monitor ? "monitor" : o->all ? "all" : s->scope.kind ? scope_name(s->scope.kind) :
			   o->cmd ? "command" : "pid");
	if (s->scope.kind) {
		h->target_cgroup = xstrdup(s->scope.path);
		if (s->scope.kind == SCOPE_CONTAINER) {
			h->target_container = xstrdup(s->scope.ct.id);
			if (s->scope.ct.name[0])
				h->target_name = xstrdup(s->scope.ct.name);
		}
		if (s->scope.kind == SCOPE_UNIT)
			h->target_unit = xstrdup(s->scope.unit);
	}
	if (o->service)
		service_header(o->service, h);   /* scope "service", the unit's sets */
	h->argv = xcalloc((size_t)all_argc + 1, sizeof(char *));
	for (i = 0; i < all_argc; i++)
		h->argv[h->argc++] = xstrdup(all_argv[i]);
	h->start_ns = s->real0;
	h->end_ns = now_realtime_ns();
}

/* --wait: every process was followed until the container started; the
 * record is the container's processes only (runc's stages inside its
 * cgroup are among them, marked as the runtime's setup). */
static void keep_container(struct session *s)
{
	struct record *r = &s->rec;
	bool *keep;

	if (!s->o->scope_wait)
		return;
	keep = xcalloc(r->nprocs + 1, sizeof(*keep));
	for (size_t i = 0; i < r->nprocs; i++)
		keep[i] = r->procs[i].container_id &&
			  !strcmp(r->procs[i].container_id, s->scope.ct.id);
	record_keep_processes(r, keep);
	free(keep);
}

/* The maps into the record: symbols first, then no capability at all for
 * reading what the traced programs left (their ELF files, --user-stacks). */
static int collect_record(struct session *s)
{
	struct rec_header *h = &s->rec.hdr;
	char kerr[256] = "", err[1024];
	struct ksyms *ks;
	struct rusage ru;

	phase_mark("symbols at end");
	ks = end_symbols(&s->sym, kerr, sizeof(kerr));
	phase_mark("collect");
	if (privs_drop_all(err, sizeof(err))) {
		p_err("%s", err);
		ksyms_free(ks);
		return -1;
	}
	collect_checks(&s->pt, ks, kerr);
	attribute_processes(&s->pt);
	keep_container(s);
	getrusage(RUSAGE_SELF, &ru);
	h->loader_cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			  ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	h->loader_rss_kb = ru.ru_maxrss;
	h->symbols = xstrdup(s->sym.ksyms_source ? s->sym.ksyms_source : "unavailable");
	h->pids_reused = record_count_reused_pids(&s->rec);
	return 0;
}

/* Write the file (nothing may interrupt that: it is complete or absent),
 * say what it lacks, and decide the exit status. */
static void write_record(struct session *s, enum stop_reason why, struct rec_opts *op)
{
	const struct rec_opts *o = s->o;
	sigset_t old;

	phase_mark("write");
	block_stop_signals(&old);
	s->rc = finish_out(&s->outf, &s->rec) ? 1 : 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (s->rc)
		return;
	/* the last line says what the record lacks, as the report will */
	if (!o->quiet) {
		char lost[600];

		rec_lost_describe(&s->rec.hdr.lost, lost, sizeof(lost));
		fprintf(stderr, "capaudit: wrote %s (%zu %s, %zu aggregated %s; %s%s)\n",
			strcmp(o->out, "-") ? o->out : "the record to standard output",
			s->rec.nprocs, plural(s->rec.nprocs, "process", "processes"),
			s->rec.nchecks, plural(s->rec.nchecks, "check", "checks"), lost,
			s->rec.hdr.command_running ? "; the command was still running" : "");
		if (o->service)
			service_summary(o->service, &s->rec);
	}
	op->recorded = true;
	op->cmd_status = s->rec.hdr.exit_status;
	if (s->rec.hdr.has_exit_status)
		s->rc = s->rec.hdr.exit_status;
	/* a command cut short is not a command that succeeded: 124 as
	 * timeout(1) says for -d, 128 + the signal otherwise */
	if (!s->rc && s->rec.hdr.command_running)
		s->rc = why == STOP_DURATION ? 124 : 128 + (stop_signal ? stop_signal : SIGTERM);
}

static void session_cleanup(struct session *s)
{
	size_t k;

	phase_mark("cleanup");
	if (s->outf.f)
		outfile_discard(&s->outf);
	kprobe_events_close(&s->kpe);
	ptrace_hooks_close(&s->pth);
	if (s->go_fd >= 0) {
		close(s->go_fd);  /* never released: the command exits without running */
		if (s->pt.child > 0 && !s->child_done)
			waitpid(s->pt.child, NULL, 0);
	}
	if (s->exec_err_fd >= 0)
		close(s->exec_err_fd);
	join_symbols(&s->sym);   /* before the maps it writes go */
	tracer_close(&s->tr);
	ksyms_iter_release();
	ksyms_free(s->sym.ksyms);
	ksyms_free(s->sym.ksyms_start);
	free(s->sym.modules_start);
	record_free(&s->rec);
	proctable_free(&s->pt);
	scope_close(&s->scope);
	cgroup_names_free(&s->cgn);
	container_names_free();
	for (k = 0; k < s->o->npids; k++)
		if (s->o->pidfds[k] >= 0)
			close(s->o->pidfds[k]);
	/* last: a command never released holds the keeper's socket until it
	 * exits (it was forked after the keeper, and exits instead of exec) */
	outfile_keeper_stop();
}

/* The signal that came last (SIGINT, SIGTERM, SIGHUP), cleared: 0 if none. */
int session_take_signal(void)
{
	int sig = stop_signal;

	stop_signal = 0;
	return sig;
}

/* the process table's word that the container record --container --wait
 * awaits has started (attribute.c) */
static void pt_container_started(void *ctx)
{
	container_started(ctx);
}

static void session_init(struct session *s, struct rec_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->go_fd = s->exec_err_fd = -1;
	s->rc = 1;
	s->kpe.entry = s->kpe.ret = -1;
	ptrace_hooks_init(&s->pth);
	s->outf.fd = -1;
	s->pt.o = o;
	s->pt.rec = &s->rec;
	s->pt.tr = &s->tr;
	s->pt.scope = &s->scope;
	s->pt.cgn = &s->cgn;
	s->pt.container_started = pt_container_started;
	s->pt.started_ctx = s;
	s->pt.epoch_off = now_realtime_ns() - now_monotonic_ns();
	s->sym.tr = &s->tr;
	s->sym.verbose = o->verbose;
}

struct session *session_new(struct rec_opts *o)
{
	struct session *s = xcalloc(1, sizeof(*s));

	session_init(s, o);
	return s;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	session_cleanup(s);
	free(s);
}

void session_monitor(struct session *s, void (*on_newkey)(void *ctx, const struct ca_event *e),
		     void *ctx)
{
	s->monitor = true;
	s->pt.on_newkey = on_newkey;
	s->pt.newkey_ctx = ctx;
}

void session_monitor_objects(struct session *s,
			     void (*on_object)(void *ctx, const struct ca_obj_event *e), void *ctx)
{
	s->pt.on_object = on_object;
	s->pt.newkey_ctx = ctx;
}

struct tracer *session_tracer(struct session *s)
{
	return &s->tr;
}

struct record *session_record(struct session *s)
{
	return &s->rec;
}

struct outfile *session_outfile(struct session *s)
{
	return &s->outf;
}

int64_t session_to_epoch(const struct session *s, uint64_t mono)
{
	return proctable_to_epoch(&s->pt, mono);
}

int64_t session_real0(const struct session *s)
{
	return s->real0;
}

const struct ksyms *session_ksyms(struct session *s)
{
	return symbols_now(&s->sym);
}

const char *session_ksyms_source(const struct session *s)
{
	return s->sym.ksyms_source;
}

void session_lost_so_far(struct session *s, struct rec_lost *l)
{
	collect_lost(&s->tr, l);
}

const char *session_cgroup_path(struct session *s, uint64_t cgroup_id)
{
	return cgroup_names_get(&s->cgn, cgroup_id, 0);
}

void session_attribute(struct session *s, struct rec_process *p, uint64_t cgroup_id)
{
	if (!p->cgroup_id)
		attribute_note(&s->pt, p, cgroup_id);
	if (!p->cgroup && p->cgroup_id)
		attribute(&s->pt, p);
}

struct rec_process *session_image_of_check(struct session *s, uint32_t tgid, uint64_t pstart,
					   uint32_t exec_id, const struct ca_meta *meta)
{
	struct rec_process *p = record_find_process(&s->rec, tgid, session_to_epoch(s, pstart),
						    exec_id);
	char comm[CA_COMM_LEN + 1];

	if (!p) {
		memcpy(comm, meta->comm, CA_COMM_LEN);
		comm[CA_COMM_LEN] = '\0';
		p = proctable_image(&s->pt, tgid, pstart, exec_id, comm, 0);
		p->uid = meta->uid;
	}
	proctable_image_exe(&s->pt, p, &meta->exe);
	return p;
}

/* The phases up to attached, for a session without a command (monitor):
 * the caller checked, what needs privileges read, privileges dropped to
 * CAP_BPF + CAP_PERFMON, the output opened, the hooks attached, the
 * kernel's symbols read. */
int session_start(struct session *s, const char *argv0)
{
	if (check_caller(s, argv0) || read_before_drop(s) || drop_privileges(s) || attach(s))
		return -1;
	phase_mark("symbols at start");
	start_symbols(&s->sym);
	join_symbols(&s->sym);
	phase_mark("ready");
	return 0;
}

int record_run(struct rec_opts *op, int all_argc, char **all_argv)
{
	struct rec_opts o = *op;
	struct session s;
	enum stop_reason why;

	session_init(&s, &o);
	phase_mark("session");
	if (!check_caller(&s, all_argv[0]) && !session_keep_outputs(&s, NULL, 0) &&
	    !start_command(&s) && !read_before_drop(&s) &&
	    !drop_privileges(&s) && !attach(&s) && !symbols_before_command(&s) &&
	    !release_command(&s, op)) {
		phase_mark("running");
		start_symbols(&s.sym);   /* (if not read yet) the command runs: it never waits */
		why = run_loop(&s);
		end_recording(&s, why, all_argc, all_argv);
		if (o.stop_started)
			stop_started(&s);
		if (s.scope.waiting)
			p_err("--container %s --wait: no container of that name or id started before "
			      "%s; nothing recorded", o.scope_arg,
			      why == STOP_DURATION ? "-d ended the wait" : "the signal");
		else if (!collect_record(&s))
			write_record(&s, why, op);
		if (why == STOP_SIGNAL)
			op->stop_signal = stop_signal ? stop_signal : SIGTERM;
	} else if (stop_signal) {
		op->stop_signal = stop_signal;
	}
	session_cleanup(&s);
	return s.rc;
}
