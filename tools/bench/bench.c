// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: the cost of capaudit per capability check, measured in one
 * run against the same workload bare, under an empty BPF program on the
 * same hook (the floor for any tracer there), under capaudit in each attach
 * mode that works here, and under bpftrace when it is installed. Rounds are
 * interleaved and medians taken: the machine is shared and noisy, so only
 * ratios measured together mean anything.
 *
 * Also: checks seen versus made (at one and at two cores' rate), the
 * loader's CPU and peak RSS, `report --suggest` on 1M aggregated checks from
 * 10k processes, and a load test: capaudit record -a while build/churn
 * makes checks from many short-lived processes on both cores for 60 s,
 * its own count compared with the record's; and capaudit monitor -a under
 * churn: checks exact, VmRSS flat, CPU per 1k processes, event latency
 * (bench --monitor SECONDS runs that alone). The last line is machine
 * readable:
 *   bench: added_ns=N empty_added_ns=N ratio=R lost=N load_lost=N load_misattributed=N
 *          user_stacks_added_ns=N ... monitor_rss_growth_kb=N ptrace_hooks_added_ns=N
 *          prog_ns=N empty_prog_ns=N prog_ratio=R outside_pid_ratio=R
 *          outside_cgroup_ratio=R prog_spread_pct=N settled=0|1 bare_ns=N
 *          mitigations=TOKEN [realwork.sh's pairs]
 *   (ptrace_hooks_added_ns: what the ptrace-access hooks add to a syscall,
 *   record -- COMMAND's default, over the check hook alone; prog_*: the
 *   kernel's accounting of the programs' run time, progstats.c; the
 *   machine: machine.c)
 * BENCH_QUICK=1 makes it short (about 3 minutes, realwork.sh's 2 more).
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_empty.skel.h"
#include "machine.h"
#include "progstats.h"
#include "facts/capnames.h"
#include "lib/cgroup.h"
#include "recfile/recfile.h"

#define MAX_ROUNDS 20

/*
 * The settle rule. Each round runs every variant once, interleaved, and
 * reads the kernel's accounting of each check program (progstats.h): the
 * round's program-time ratio is capaudit's ns per run over the empty
 * program's in that round. The spread of the last SETTLE_K rounds is half
 * the range of their ratios over their median,
 *     spread = (max - min) / 2 / median,
 * and the rounds stop once it is within SETTLE_PCT percent for the
 * recorded workload and for both outside-scope rows, after at least the
 * usual number of rounds (9, quick: 5), at most 20 (quick: 12) and no new
 * round after SETTLE_SECONDS (quick: a fifth of it) of rounds.
 */
#define SETTLE_K   5
#define SETTLE_PCT 10.0
#define SETTLE_SECONDS 900

/* the round being run (run_once() keeps program times per round); -1:
 * a run outside the rounds */
static int cur_round = -1;
static bool have_stats;   /* bpf_stats could be turned on */
/*
 * A paired run: the empty program attached beside capaudit's on the same
 * hook, so that both run on every check, one after the other, under the
 * same conditions at the same moment (the state of the caches, the clock,
 * a hypervisor's steal); their ratio is the program-time ratio of the
 * round. Its wall clock is not kept (it carries both programs): each
 * round runs those variants once plain (the wall clock) and once paired.
 */
static bool pairing;

/* The empty program beside a paired run, and its readings. */
struct companion {
	struct bench_empty_bpf *skel;
	struct progset ps;
	struct progtime before, after;
};

static void companion_start(struct companion *c)
{
	memset(c, 0, sizeof(*c));
	if (!pairing || cur_round < 0)
		return;
	c->skel = bench_empty_bpf__open_and_load();
	if (!c->skel || bench_empty_bpf__attach(c->skel) ||
	    progset_add_fd(&c->ps, bpf_program__fd(c->skel->progs.empty))) {
		bench_empty_bpf__destroy(c->skel);
		c->skel = NULL;
	}
}

static void companion_read(struct companion *c, struct progtime *t)
{
	if (c->ps.n && progset_read(&c->ps, t))
		*t = (struct progtime){ 0 };
}

static void companion_stop(struct companion *c)
{
	progset_close(&c->ps);
	bench_empty_bpf__destroy(c->skel);
	c->skel = NULL;
}

static const char *capaudit = "build/capaudit";
static const char *workload = "build/bench-workload";
static const char *churn = "build/churn";
static char tmpdir[64];

/* OUTSIDE_*: a recorder of an idle scope, the workload outside it: what
 * an unrelated process pays for a -p recording (a hash lookup) and for a
 * --cgroup one (an ancestry test in the kernel) */
enum kind { BARE, EMPTY, CAPAUDIT, BPFTRACE, BPFTRACE_STACK, OUTSIDE_PID, OUTSIDE_CGROUP };

/* The idle scope: a sleep in a cgroup of its own. */
static pid_t idle_pid = -1;
static char idle_cgroup[512], idle_cgroup_dir[768];

struct variant {
	const char *name;
	enum kind kind;
	const char *mode;        /* capaudit --attach */
	const char *extra;       /* one more capaudit record option, or NULL */
	bool ptrace_access;      /* with the ptrace-access hooks, as record -- COMMAND
				  * runs by default (else --ptrace-access=off: the
				  * check hook alone) */
	bool available;
	char why[200];
	double ns[MAX_ROUNDS];
	int n;
	/* per round: ns per run of its check program(s), the kernel's
	 * accounting (-1: not read), and how many runs */
	double prog[MAX_ROUNDS];
	uint64_t runs[MAX_ROUNDS];
	/* paired runs (pairing, above): the empty program's ns per run beside
	 * it, the same round (-1: not paired) */
	double eprog[MAX_ROUNDS];
	bool pair;   /* this variant is also run paired in each round */
	/* capaudit only: from the last round's record */
	uint64_t seen, made;
	uint64_t walks;   /* stacks walked: cache misses and re-checked hits */
	double loader_cpu_s, wall_s;
	long loader_rss_kb;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double tmp[MAX_ROUNDS];

	if (n <= 0)
		return 0;
	memcpy(tmp, v, (size_t)n * sizeof(*v));
	qsort(tmp, (size_t)n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* A program running with its stdout in a pipe. */
struct job {
	pid_t pid;
	int fd;
};

static int job_start(struct job *j, char *const argv[])
{
	int p[2];

	if (pipe(p))
		return -1;
	j->pid = fork();
	if (j->pid < 0)
		return -1;
	if (j->pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(p[1], 1);
		dup2(null, 2);
		close(p[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	j->fd = p[0];
	return 0;
}

/* Its stdout into buf, then its exit status. */
static int job_finish(struct job *j, char *buf, size_t len, struct rusage *ru)
{
	size_t o = 0;
	ssize_t n;
	int st = -1;

	while (o + 1 < len && (n = read(j->fd, buf + o, len - o - 1)) > 0)
		o += (size_t)n;
	buf[o] = '\0';
	while ((n = read(j->fd, (char[256]){ 0 }, 256)) > 0)
		;
	close(j->fd);
	if (wait4(j->pid, &st, 0, ru) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Run argv, capture stdout into buf; returns exit status (-1: not run). */
static int run_capture(char *const argv[], char *buf, size_t len, struct rusage *ru)
{
	struct job j;

	if (job_start(&j, argv))
		return -1;
	return job_finish(&j, buf, len, ru);
}

/* "calls=N ns=X rate=R" from the workload's output. */
static int parse_workload(const char *out, double *ns, double *rate)
{
	const char *p = strstr(out, "calls=");

	return p && sscanf(p, "calls=%*d ns=%lf rate=%lf", ns, rate) == 2 ? 0 : -1;
}

/* CAP_SYSLOG checks the record counted for the workload processes. */
static uint64_t last_walks;   /* count_seen(): the record's stack walks */

static int count_seen(const char *path, uint64_t *seen, double *cpu, long *rss)
{
	struct record r;
	char err[512];
	size_t i;

	if (recfile_load(path, &r, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return -1;
	}
	*seen = 0;
	for (i = 0; i < r.nchecks; i++) {
		const struct rec_process *p = check_process(&r, &r.checks[i]);

		if (r.checks[i].cap == CAP_SYSLOG && p && p->comm && !strcmp(p->comm, "bench-workload"))
			*seen += r.checks[i].count;
	}
	*seen += 0;
	for (i = 0; i < r.hdr.noverflow; i++)
		if (r.hdr.overflow[i].cap == CAP_SYSLOG)
			*seen += r.hdr.overflow[i].count;
	*cpu = r.hdr.loader_cpu_s;
	*rss = r.hdr.loader_rss_kb;
	last_walks = r.hdr.cache_misses + r.hdr.cache_hit_walks - r.hdr.cache_path_proofs;
	record_free(&r);
	return 0;
}

static int links_of(pid_t pid);

/* This round's program time of v, from two readings, and of the empty
 * program beside it in a paired run (c). */
static void keep_prog(struct variant *v, const struct progtime *before,
		      const struct progtime *after, const struct companion *c)
{
	if (cur_round < 0 || cur_round >= MAX_ROUNDS)
		return;
	v->prog[cur_round] = progtime_per_run(before, after);
	v->runs[cur_round] = after->cnt - before->cnt;
	if (c && c->ps.n)
		v->eprog[cur_round] = progtime_per_run(&c->before, &c->after);
}

/* Has pid ended (a zombie, or gone)? */
static bool ended(pid_t pid)
{
	char path[64], stat[256];
	const char *p;
	FILE *f;
	bool gone = true;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (f && fgets(stat, sizeof(stat), f) && (p = strrchr(stat, ')')))
		gone = p[1] && p[2] == 'Z';
	if (f)
		fclose(f);
	return gone;
}

/* The check programs of a recorder starting up, caught once it has
 * attached them (before its command runs) and before it ends. */
static void catch_progs(struct progset *ps, pid_t pid)
{
	double t0 = now_s();

	while (!progset_of_pid(ps, pid) && !ended(pid) && now_s() - t0 < 60)
		usleep(1000);
}

static int run_once(struct variant *v, long calls, int jobs, double *rate)
{
	char out[8192], rec[128], ncalls[32], njobs[8], prog[512];
	struct rusage ru;
	double ns = 0, t0;
	int rc = -1;

	snprintf(ncalls, sizeof(ncalls), "%ld", calls);
	snprintf(njobs, sizeof(njobs), "%d", jobs);
	snprintf(rec, sizeof(rec), "%s/rec.jsonl", tmpdir);
	t0 = now_s();
	switch (v->kind) {
	case BARE: {
		char *argv[] = { (char *)workload, ncalls, njobs, NULL };

		rc = run_capture(argv, out, sizeof(out), &ru);
		break;
	}
	case EMPTY: {
		struct bench_empty_bpf *s = bench_empty_bpf__open_and_load();
		char *argv[] = { (char *)workload, ncalls, njobs, NULL };

		struct progset ps = { .n = 0 };
		struct progtime before = { 0 }, after;

		if (!s || bench_empty_bpf__attach(s)) {
			bench_empty_bpf__destroy(s);
			return -1;
		}
		if (have_stats && !progset_add_fd(&ps, bpf_program__fd(s->progs.empty)))
			progset_read(&ps, &before);
		rc = run_capture(argv, out, sizeof(out), &ru);
		if (ps.n && !progset_read(&ps, &after))
			keep_prog(v, &before, &after, NULL);
		progset_close(&ps);
		bench_empty_bpf__destroy(s);
		break;
	}
	case CAPAUDIT: {
		char *argv[] = { (char *)capaudit, "record", "-q", "--attach", (char *)v->mode,
				 (char *)(v->extra ? v->extra : "-q"),
				 v->ptrace_access ? "--ptrace-access=on" : "--ptrace-access=off",
				 "-o", rec, "--", (char *)workload, ncalls, njobs, NULL };
		struct progset ps = { .n = 0 };
		struct progtime zero = { 0 }, after;
		struct companion comp;
		struct job j;

		companion_start(&comp);
		if (job_start(&j, argv)) {
			companion_stop(&comp);
			return -1;
		}
		/* its check program, held open to be read after the recorder
		 * has ended: loaded by this recorder, its totals are this run's
		 * (the companion's count from the same moment) */
		if (have_stats && cur_round >= 0)
			catch_progs(&ps, j.pid);
		companion_read(&comp, &comp.before);
		rc = job_finish(&j, out, sizeof(out), &ru);
		companion_read(&comp, &comp.after);
		if (ps.n && !progset_read(&ps, &after))
			keep_prog(v, &zero, &after, &comp);
		progset_close(&ps);
		companion_stop(&comp);
		v->wall_s = now_s() - t0;
		v->made = (uint64_t)calls * (uint64_t)jobs;
		if (!rc && count_seen(rec, &v->seen, &v->loader_cpu_s, &v->loader_rss_kb))
			rc = -1;
		v->walks = last_walks;
		break;
	}
	case OUTSIDE_PID:
	case OUTSIDE_CGROUP: {
		char target[600], *rargv[] = { (char *)capaudit, "record", "-q", "-o", "/dev/null",
					       v->kind == OUTSIDE_PID ? "-p" : "--cgroup", target, NULL };
		char *argv[] = { (char *)workload, ncalls, njobs, NULL };
		char ignored[256];
		struct progset ps = { .n = 0 };
		struct progtime before = { 0 }, after;
		struct companion comp;
		struct job rj;
		int waited;

		if (idle_pid <= 0 || (v->kind == OUTSIDE_CGROUP && !idle_cgroup[0]))
			return -1;
		if (v->kind == OUTSIDE_PID)
			snprintf(target, sizeof(target), "%d", (int)idle_pid);
		else
			snprintf(target, sizeof(target), "%s", idle_cgroup);
		if (job_start(&rj, rargv))
			return -1;
		/* attached: the check hook and fork, exec, exit */
		for (waited = 0; links_of(rj.pid) < 4 && waited < 1000; waited++)
			usleep(10000);
		companion_start(&comp);
		if (have_stats && waited < 1000 && progset_of_pid(&ps, rj.pid))
			progset_read(&ps, &before);
		companion_read(&comp, &comp.before);
		rc = waited < 1000 ? run_capture(argv, out, sizeof(out), &ru) : -1;
		companion_read(&comp, &comp.after);
		if (ps.n && !progset_read(&ps, &after))
			keep_prog(v, &before, &after, &comp);
		progset_close(&ps);
		companion_stop(&comp);
		kill(rj.pid, SIGINT);
		job_finish(&rj, ignored, sizeof(ignored), NULL);
		break;
	}
	case BPFTRACE:
	case BPFTRACE_STACK: {
		char cmd[256];
		char *argv[] = { "bpftrace", "-q", "-e", prog, "-c", cmd, NULL };

		snprintf(cmd, sizeof(cmd), "%s %s %s", workload, ncalls, njobs);
		snprintf(prog, sizeof(prog),
			 "tracepoint:capability:cap_capable /pid == cpid/ "
			 "{ @[pid, args->cap, args->ret%s] = count(); }",
			 v->kind == BPFTRACE_STACK ? ", kstack" : "");
		rc = run_capture(argv, out, sizeof(out), &ru);
		break;
	}
	}
	if (rc || parse_workload(out, &ns, rate))
		return -1;
	if (v->n < MAX_ROUNDS && !pairing)
		v->ns[v->n++] = ns;
	return 0;
}

/* The BPF links process pid holds (a recorder holds four once attached:
 * the check hook and fork, exec, exit). */
static int links_of(pid_t pid)
{
	char dir[64], path[320], target[64];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		ssize_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = '\0';
			n += !strcmp(target, "anon_inode:bpf_link");
		}
	}
	if (d)
		closedir(d);
	return n;
}

/* What the load test found. */
struct load_result {
	int64_t lost;            /* checks on no line of their program (-1: no test) */
	int64_t misattributed;   /* checks on a line of another program */
};

/* CAP_SYSLOG checks on the lines of each program of the load test. */
struct load_count {
	uint64_t churn, other, noise, unrelated, no_site;
};

static bool same_path(const char *exe, const char *path)
{
	return exe && !strcmp(exe, path);
}

static void load_count(const struct record *r, const char *churn_exe, const char *other_exe,
		       struct load_count *n)
{
	size_t i;

	memset(n, 0, sizeof(*n));
	for (i = 0; i < r->nchecks; i++) {
		const struct rec_check *c = &r->checks[i];
		const struct rec_process *p = check_process(r, c);
		const char *exe = p ? p->exe : NULL, *comm = p && p->comm ? p->comm : "";

		if (c->cap != CAP_SYSLOG)
			continue;
		if (same_path(exe, churn_exe) || same_path(exe, other_exe)) {
			*(same_path(exe, churn_exe) ? &n->churn : &n->other) += c->count;
			if (c->stack < 0)   /* its call site was not kept */
				n->no_site += c->count;
		} else if (!strcmp(comm, "true") || !strcmp(comm, "noise.sh") ||
			   (exe && strstr(exe, "/true"))) {
			n->noise += c->count;   /* the shell loop makes none */
		} else {
			n->unrelated += c->count;  /* another program on the host */
		}
	}
}

/* CAP_SYSLOG checks of programs under dir (churn programs), and the
 * process lines (a monitor's: program identities) that made them. */
static void programs_count(const struct record *r, const char *dir, uint64_t *checks,
			   size_t *lines)
{
	size_t i, len = strlen(dir);

	*checks = 0;
	*lines = 0;
	for (i = 0; i < r->nchecks; i++) {
		const struct rec_process *p = check_process(r, &r->checks[i]);

		if (r->checks[i].cap == CAP_SYSLOG && p && p->exe && !strncmp(p->exe, dir, len))
			*checks += r->checks[i].count;
	}
	for (i = 0; i < r->nprocs; i++)
		if (r->procs[i].exe && !strncmp(r->procs[i].exe, dir, len))
			(*lines)++;
}

/* What the monitor row found. */
struct mon_result {
	long rss_growth_kb;      /* VmRSS at the end minus after warm-up (-1: no test) */
	uint64_t made, seen;     /* churn's CAP_SYSLOG checks, and the checkpoint's */
};

#define MON_PROGRAMS 500      /* distinct programs that come and go */

/* VmRSS of pid in KiB, and its CPU seconds (user + system). */
static long proc_rss_cpu(pid_t pid, double *cpu)
{
	char path[64], line[256], stat[1024];
	unsigned long ut = 0, st = 0;
	long rss = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			rss = atol(line + 6);
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (f && fgets(stat, sizeof(stat), f)) {
		const char *p = strrchr(stat, ')');

		/* fields 14 and 15, after the comm: utime, stime in ticks */
		if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
				&ut, &st) == 2)
			*cpu = (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
	}
	if (f)
		fclose(f);
	return rss;
}

/* Seconds from now until the event file holds a first use of CAP_CHOWN
 * by pid, at most 10 s; -1 if it never came. */
static double event_latency(const char *events, pid_t pid, double t0)
{
	char needle[64], line[4096];

	snprintf(needle, sizeof(needle), "\"pid\":%d,\"cap\":\"CAP_CHOWN\"", (int)pid);
	while (now_s() - t0 < 10) {
		FILE *f = fopen(events, "re");

		while (f && fgets(line, sizeof(line), f))
			if (strstr(line, needle)) {
				fclose(f);
				return now_s() - t0;
			}
		if (f)
			fclose(f);
		usleep(10000);
	}
	return -1;
}

/* chown of a file of tmpdir by a child; its pid */
static pid_t chown_child(void)
{
	char file[128];
	pid_t pid;

	snprintf(file, sizeof(file), "%s/chown-me", tmpdir);
	close(open(file, O_WRONLY | O_CREAT, 0644));
	pid = fork();
	if (pid == 0) {
		execlp("chown", "chown", "nobody", file, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Run argv (a churn mode printing "processes=N calls=N"); its counts,
 * or -1. */
static long churn_run(char **argv, long *procs)
{
	char out[512];
	struct rusage ru;
	long calls;

	if (run_capture(argv, out, sizeof(out), &ru) ||
	    sscanf(out, "processes=%ld calls=%ld", procs, &calls) != 2) {
		fprintf(stderr, "bench: %s %s failed\n", argv[0], argv[1]);
		return -1;
	}
	return calls;
}

/*
 * capaudit monitor -a --interval 1 while churn makes short-lived processes
 * for seconds and MON_PROGRAMS distinct programs (copies of churn) start
 * and exit over and over: its VmRSS after a warm-up that ran each program
 * once and at the end (flat: it folds per program identity and forgets
 * exited processes), what each identity cost, its CPU per 1k processes, the
 * latency of a first-use event line, and the checks of the last checkpoint
 * against churn's own counts.
 */
static struct mon_result monitor_test(int seconds)
{
	struct mon_result res = { -1, 0, 0 };
	char rec[128], events[128], secs[16], churn_exe[4096], err[512], dir[128], np[16];
	char runs[16], runs2[16];
	char *argv[] = { (char *)capaudit, "monitor", "-q", "-a", "--interval", "1", "-o", rec,
			 "--events", events, NULL };
	char *warm[] = { churn_exe, "forks", "2000", "1", "4", NULL };
	char *pwarm[] = { churn_exe, "programs", dir, np, runs, "2", NULL };
	char *cargv[] = { churn_exe, "load", secs, "2", NULL };
	char *pargv[] = { churn_exe, "programs", dir, np, runs2, "2", NULL };
	long rss_pre, rss0, rss1, procs = 0, pprocs = 0, c;
	double cpu0 = 0, cpu1 = 0, lat, t0;
	uint64_t pmade = 0, pseen;
	size_t plines;
	struct load_count n;
	struct record r;
	pid_t pid, ch;
	int k, st;

	snprintf(rec, sizeof(rec), "%s/monitor.jsonl", tmpdir);
	snprintf(events, sizeof(events), "%s/events.jsonl", tmpdir);
	snprintf(dir, sizeof(dir), "%s/programs", tmpdir);
	snprintf(secs, sizeof(secs), "%d", seconds);
	snprintf(np, sizeof(np), "%d", MON_PROGRAMS);
	snprintf(runs, sizeof(runs), "%d", MON_PROGRAMS);
	snprintf(runs2, sizeof(runs2), "%d", MON_PROGRAMS * (seconds > 10 ? 6 : 3));
	if (!realpath(churn, churn_exe) || (mkdir(dir, 0755) && errno != EEXIST))
		return res;
	pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	for (k = 0; k < 400 && links_of(pid) < 4; k++)
		usleep(50000);
	sleep(2);
	rss_pre = proc_rss_cpu(pid, &cpu0);
	/* warm-up: every table at its working size, every program seen */
	res.made = (uint64_t)churn_run(warm, &procs);
	pmade = (uint64_t)churn_run(pwarm, &pprocs);
	sleep(2);
	rss0 = proc_rss_cpu(pid, &cpu0);
	t0 = now_s();
	ch = chown_child();
	lat = event_latency(events, ch, t0);
	waitpid(ch, NULL, 0);
	c = churn_run(cargv, &procs);
	res.made += (uint64_t)c;
	c = churn_run(pargv, &pprocs);
	pmade += (uint64_t)c;
	sleep(2);
	rss1 = proc_rss_cpu(pid, &cpu1);
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	if (recfile_load(rec, &r, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return res;
	}
	load_count(&r, churn_exe, "", &n);
	programs_count(&r, dir, &pseen, &plines);
	record_free(&r);
	res.seen = n.churn + pseen;
	res.made += pmade;
	res.rss_growth_kb = rss1 - rss0;
	procs += pprocs;
	printf("\nMonitor (capaudit monitor -a --interval 1, churn for %d s and %d programs "
	       "started %ld times, %ld processes after the warm-up): checks %" PRIu64 " of %"
	       PRIu64 " made (%s), %zu program lines for the %d programs, VmRSS %ld KiB before "
	       "the warm-up (%+.1f KiB per program it added), %ld KiB after it, %ld KiB at the end "
	       "(%+ld KiB), CPU %.3f s per 1k processes, first-use event after %.0f ms\n",
	       seconds, MON_PROGRAMS, pprocs, procs, res.seen, res.made,
	       res.seen == res.made ? "exact" : "MISMATCH", plines, MON_PROGRAMS, rss_pre,
	       (double)(rss0 - rss_pre) / MON_PROGRAMS, rss0, rss1, rss1 - rss0,
	       procs ? (cpu1 - cpu0) * 1000 / (double)procs : 0, lat * 1000);
	return res;
}

/* A shell loop of /bin/true in a process group of its own, or -1. */
static pid_t start_noise(void)
{
	char path[128];
	FILE *f;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/noise.sh", tmpdir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("#!/bin/sh\nwhile :; do /bin/true; done\n", f);
	fclose(f);
	chmod(path, 0755);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		execl(path, "noise.sh", (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Copy build/churn as another program (its own path and name). */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n = 0;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return in < 0 || out < 0 || n < 0 ? -1 : 0;
}

/*
 * The load test: capaudit record -a while churn forks short-lived children
 * on both cores for `seconds`, each making 1..50 checks, beside a shell
 * loop of /bin/true (short-lived processes that make none: their pids are
 * the same pool) and a second program making the same checks (a copy of
 * churn under another name). Every check each program made must be on a
 * line of that program, with its call site: the rest is lost (including
 * checks counted only per capability), and checks on a line of another
 * program are misattributed.
 */
static struct load_result load_test(int seconds)
{
	struct load_result res = { -1, -1 };
	char rec[128], secs[16], out[512], out2[512], err[512], other[160], churn_exe[4096];
	char *argv[] = { (char *)capaudit, "record", "-q", "-a", "-o", rec, NULL };
	/* by absolute paths: the exec event's file name becomes the exe */
	char *cargv[] = { churn_exe, "load", secs, "2", NULL };
	char *oargv[] = { other, "load", secs, "1", NULL };
	long procs = 0, made = 0, oprocs = 0, omade = 0, seen_procs = 0;
	struct load_count n;
	struct record r;
	struct rusage ru;
	struct stat sb;
	struct job oj;
	double t0;
	size_t i;
	int k, st, crc, orc;
	pid_t pid, noise;

	snprintf(rec, sizeof(rec), "%s/load.jsonl", tmpdir);
	snprintf(other, sizeof(other), "%s/syslogger", tmpdir);   /* tmpdir is absolute */
	snprintf(secs, sizeof(secs), "%d", seconds);
	if (!realpath(churn, churn_exe) || copy_file(churn, other)) {
		printf("\nLoad test: could not run (no %s)\n", churn);
		return res;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	/* until it has attached (loaded is not enough: a program exec'd in
	 * between would have no exec event) */
	for (k = 0; k < 400 && links_of(pid) < 4; k++)
		usleep(50000);
	t0 = now_s();
	noise = k < 400 ? start_noise() : -1;
	orc = noise > 0 ? job_start(&oj, oargv) : -1;
	crc = orc == 0 ? run_capture(cargv, out, sizeof(out), &ru) : -1;
	if (orc == 0)
		orc = job_finish(&oj, out2, sizeof(out2), &ru);
	if (noise > 0) {
		kill(-noise, SIGKILL);
		waitpid(noise, NULL, 0);
	}
	if (k == 400 || crc || orc || sscanf(out, "processes=%ld calls=%ld", &procs, &made) != 2 ||
	    sscanf(out2, "processes=%ld calls=%ld", &oprocs, &omade) != 2) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		printf("\nLoad test: could not run (%s)\n", k == 400 ? "capaudit did not attach" :
		       "churn failed");
		return res;
	}
	kill(pid, SIGINT);
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) ||
	    recfile_load(rec, &r, err, sizeof(err))) {
		printf("\nLoad test: capaudit failed (%s)\n", err);
		return res;
	}
	for (i = 0; i < r.nprocs; i++)
		if (same_path(r.procs[i].exe, churn_exe))
			seen_procs++;
	load_count(&r, churn_exe, other, &n);
	/* a check on the wrong line shows as a surplus there; what is short
	 * beyond that was lost (or kept without its process or call site) */
	res.misattributed = (int64_t)n.noise + (n.churn > (uint64_t)made ? (int64_t)n.churn - made : 0) +
			    (n.other > (uint64_t)omade ? (int64_t)n.other - omade : 0);
	res.lost = (made > (int64_t)n.churn ? made - (int64_t)n.churn : 0) +
		   (omade > (int64_t)n.other ? omade - (int64_t)n.other : 0) - res.misattributed +
		   (int64_t)n.no_site;
	if (res.lost < 0)
		res.lost = 0;
	stat(rec, &sb);
	printf("\nLoad test (capaudit record -a for %d s: churn on 2 cores, a copy of it as "
	       "'syslogger' making the same checks, and a shell loop of /bin/true): churn's %ld "
	       "processes made %ld checks, the record has %" PRIu64 " on churn's lines; syslogger's "
	       "%ld made %ld, %" PRIu64 " on its lines; %" PRIu64 " on the loop's lines, %" PRIu64
	       " without call site, %" PRIu64 " by unrelated programs (%s); %ld churn process lines "
	       "(%" PRIu64 " pids reused), %" PRIu64 " drains of the aggregation map (%u keys), "
	       "loss counters %" PRIu64 "; loader CPU %.2f s (%.1f%% of one core), peak RSS %ld MiB, "
	       "record %.0f MB\n",
	       seconds, procs, made, n.churn, oprocs, omade, n.other, n.noise, n.no_site, n.unrelated,
	       res.lost || res.misattributed ? "LOST OR MISATTRIBUTED" : "none lost or misattributed",
	       seen_procs, r.hdr.pids_reused, r.hdr.agg_drains, r.hdr.agg_keys,
	       rec_lost_total(&r.hdr.lost), r.hdr.loader_cpu_s,
	       100 * r.hdr.loader_cpu_s / (now_s() - t0), r.hdr.loader_rss_kb / 1024,
	       sb.st_size / 1e6);
	record_free(&r);
	if (!getenv("BENCH_KEEP"))
		unlink(rec);
	return res;
}

/*
 * Inputs that used to take a reader quadratic time (issue 14): each shape
 * is written here and read once, its time and peak memory printed beside
 * the file's size. A linear reader keeps them all around a second.
 */
struct shape {
	const char *name;
	const char *file;        /* in tmpdir */
	const char *args[8];     /* capaudit ARGS, FILE and BASE substituted */
};

static int write_blank_lines(const char *path, long n, bool bad)
{
	FILE *f = fopen(path, "w");
	long i;

	if (!f)
		return -1;
	fprintf(f, "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":2,"
		"\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"start_ns\":1,\"end_ns\":2}\n");
	for (i = 0; i < n; i++)
		fputs(bad ? "{\"type\":\"bogus\"}\n" : "\n", f);
	fprintf(f, "{\"type\":\"end\",\"processes\":0,\"stacks\":0,\"checks\":0}\n");
	return fclose(f);
}

static int write_many_sites(const char *path, long n)
{
	FILE *f = fopen(path, "w");
	long i;

	if (!f)
		return -1;
	fprintf(f, "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":2,"
		"\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"start_ns\":1,\"end_ns\":2}\n"
		"{\"type\":\"process\",\"pid\":10,\"start_ns\":5,\"exec_id\":1,\"ppid\":1,"
		"\"comm\":\"x\"}\n");
	for (i = 0; i < n; i++)
		fprintf(f, "{\"type\":\"stack\",\"id\":%ld,\"frames\":[\"cap_capable+0x1\","
			"\"security_capable+0x2\",\"capable+0x3\",\"site_%ld+0x10\"]}\n", i, i);
	for (i = 0; i < n; i++)
		fprintf(f, "{\"type\":\"check\",\"pid\":10,\"start_ns\":5,\"exec_id\":1,\"cap\":%ld,"
			"\"ret\":%d,\"count\":1,\"syscall\":92,\"stack\":%ld,\"init_ns\":true}\n",
			i % 3 ? 0L : 21L, i % 5 ? 0 : -1, i);
	fprintf(f, "{\"type\":\"end\",\"processes\":1,\"stacks\":%ld,\"checks\":%ld}\n", n, n);
	return fclose(f);
}

static int write_big_baseline(const char *path, long n)
{
	FILE *f = fopen(path, "w");
	long i;

	if (!f)
		return -1;
	fprintf(f, "{\"format\":\"capaudit-baseline\",\"version\":1,\"capabilities\":"
		"[{\"cap\":\"CAP_CHOWN\",\"callsites\":[");
	for (i = 0; i < n; i++)
		fprintf(f, "%s\"site_%ld\"", i ? "," : "", i);
	fprintf(f, "]}],\"denied\":[]}\n");
	return fclose(f);
}

static void hostile_inputs(const char *synth)
{
	char blank[128], bad[128], sites[128], base[128], out[4096];
	struct shape shapes[] = {
		{ "1,000,000 blank lines", blank, { "report", "-i", "FILE" } },
		{ "100,000 bad lines, --lenient", bad, { "report", "--lenient", "-i", "FILE" } },
		{ "100,000 distinct call sites: report", sites, { "report", "-i", "FILE" } },
		{ "100,000 distinct call sites: --suggest", sites, { "report", "--suggest", "-i", "FILE" } },
		{ "100,000 distinct call sites: check", sites, { "check", "--baseline", "BASE", "FILE" } },
		{ "1,000,000 aggregated checks: report --format json", synth,
		  { "report", "--format", "json", "-i", "FILE" } },
	};
	size_t i;

	snprintf(blank, sizeof(blank), "%s/blank.jsonl", tmpdir);
	snprintf(bad, sizeof(bad), "%s/bad.jsonl", tmpdir);
	snprintf(sites, sizeof(sites), "%s/sites.jsonl", tmpdir);
	snprintf(base, sizeof(base), "%s/base.json", tmpdir);
	if (write_blank_lines(blank, 1000000, false) || write_blank_lines(bad, 100000, true) ||
	    write_many_sites(sites, 100000) || write_big_baseline(base, 1000000)) {
		printf("\nHostile inputs: could not write them\n");
		return;
	}
	printf("\nInputs that were read in quadratic time before (median of 3):\n\n"
	       "| input | file MB | seconds | peak RSS MiB | RSS / file |\n|---|---|---|---|---|\n");
	for (i = 0; i <= sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *sh = i < sizeof(shapes) / sizeof(shapes[0]) ? &shapes[i] : NULL;
		char *argv[12] = { (char *)capaudit };
		double secs[3];
		long rss = 0;
		struct rusage ru;
		struct stat sb;
		int k, a, rc = 0;

		/* last: the million-site baseline, against the small record */
		if (!sh) {
			static struct shape last = { "baseline of 1,000,000 call sites: check", NULL,
						     { "check", "--baseline", "BASE", "FILE" } };

			last.file = blank;
			sh = &last;
		}
		for (a = 0; sh->args[a]; a++)
			argv[a + 1] = !strcmp(sh->args[a], "FILE") ? (char *)sh->file :
				      !strcmp(sh->args[a], "BASE") ? (i < 5 ? "examples/ci/capaudit-baseline.json"
									 : base) :
				      (char *)sh->args[a];
		argv[a + 1] = NULL;
		for (k = 0; k < 3; k++) {
			double t = now_s();

			rc |= run_capture(argv, out, sizeof(out), &ru) > 1;
			secs[k] = now_s() - t;
			if (ru.ru_maxrss > rss)
				rss = ru.ru_maxrss;
		}
		stat(i == 6 ? base : sh->file, &sb);
		printf("| %s | %.1f | %.2f | %ld | %.1f |%s\n", sh->name, sb.st_size / 1e6,
		       median(secs, 3), rss / 1024, rss * 1024.0 / (double)sb.st_size,
		       rc ? " FAILED" : "");
	}
	unlink(blank);
	unlink(bad);
	unlink(sites);
	unlink(base);
}

/* Does this variant work here? One small run says. */
static void probe(struct variant *v)
{
	double rate;
	char out[4096];

	v->available = run_once(v, 1000, 1, &rate) == 0;
	v->n = 0;
	if (v->available)
		return;
	if (v->kind == CAPAUDIT) {
		char *argv[] = { (char *)capaudit, "record", "-q", "--attach", (char *)v->mode,
				 "-o", "/dev/null", "--", "true", NULL };
		int p[2];
		pid_t pid;
		ssize_t n;

		/* capaudit's own one-line reason */
		if (!pipe(p) && (pid = fork()) == 0) {
			dup2(p[1], 2);
			dup2(open("/dev/null", O_WRONLY), 1);
			execvp(argv[0], argv);
			_exit(127);
		}
		close(p[1]);
		n = read(p[0], out, sizeof(out) - 1);
		close(p[0]);
		wait(NULL);
		out[n > 0 ? n : 0] = '\0';
		out[strcspn(out, "\n")] = '\0';
		snprintf(v->why, sizeof(v->why), "%s", out[0] ? out + (strncmp(out, "capaudit: ", 10) ? 0 : 10) : "failed");
	} else if (v->kind == BPFTRACE || v->kind == BPFTRACE_STACK) {
		snprintf(v->why, sizeof(v->why), access("/usr/bin/bpftrace", X_OK) ?
			 "bpftrace is not installed" : "bpftrace failed to attach");
	} else {
		snprintf(v->why, sizeof(v->why), "failed to load or attach");
	}
}

/*
 * The loader's CPU while a workload makes checks, without its fixed start
 * and end costs (BTF, load, symbols): a long run minus a run of `true`,
 * per second of recording.
 */
static void loader_steady(const struct variant *tmpl, long calls)
{
	struct variant big = *tmpl, idle = *tmpl;
	char *argv[] = { (char *)capaudit, "record", "-q", "--attach", (char *)tmpl->mode, "-o",
			 NULL, "--", "true", NULL };
	char rec[128], out[256];
	struct rusage ru;
	double rate, t0;
	uint64_t seen;
	long rss;

	big.n = 0;
	if (run_once(&big, calls, 1, &rate))
		return;
	snprintf(rec, sizeof(rec), "%s/idle.jsonl", tmpdir);
	argv[6] = rec;
	t0 = now_s();
	if (run_capture(argv, out, sizeof(out), &ru) ||
	    count_seen(rec, &seen, &idle.loader_cpu_s, &rss))
		return;
	idle.wall_s = now_s() - t0;
	{
		double pct = 100 * (big.loader_cpu_s - idle.loader_cpu_s) / (big.wall_s - idle.wall_s);
		char p[64];

		/* the loader only waits while the kernel counts: its share is at
		 * the level of this measurement's noise */
		if (pct < 1)
			snprintf(p, sizeof(p), "under 1%% of one core");
		else
			snprintf(p, sizeof(p), "%.1f%% of one core", pct);
		printf("Loader while recording %.1fM checks/s: %s (%.3f s CPU in a %.2f s run, "
		       "%.3f s in a run of `true`); peak RSS %ld KiB\n", big.made / big.wall_s / 1e6, p,
		       big.loader_cpu_s, big.wall_s, idle.loader_cpu_s, big.loader_rss_kb);
	}
}

/* A record of `checks` aggregated checks from `procs` processes. */
static int write_synthetic(const char *path, long procs, long checks)
{
	static const char *const funcs[] = { "alloc_pid", "map_create", "bpf_prog_load",
		"setattr_prepare", "__inet_bind", "inet_create", "path_mount", "do_syslog",
		"unshare_nsproxy_namespaces", "pid_ns_ctl_handler" };
	static const int caps[] = { CAP_CHECKPOINT_RESTORE, CAP_BPF, CAP_PERFMON, CAP_CHOWN,
		CAP_NET_BIND_SERVICE, CAP_NET_RAW, CAP_SYS_ADMIN, CAP_SYSLOG, CAP_SYS_ADMIN,
		CAP_CHECKPOINT_RESTORE };
	FILE *f = fopen(path, "w");
	long p, k, per = checks / procs, nstacks = 1000;

	if (!f)
		return -1;
	fprintf(f, "{\"type\":\"header\",\"format\":\"capaudit-record\",\"version\":1,"
		"\"kernel\":\"6.18.0\",\"attach\":\"tp_btf\",\"scope\":\"all\",\"start_ns\":1,"
		"\"end_ns\":2,\"syscall_results\":true}\n");
	for (p = 0; p < procs; p++)
		fprintf(f, "{\"type\":\"process\",\"pid\":%ld,\"exec_id\":1,\"ppid\":1,\"uid\":0,"
			"\"comm\":\"worker%ld\",\"exe\":\"/usr/bin/worker\"}\n", 1000 + p, p);
	for (k = 0; k < nstacks; k++)
		fprintf(f, "{\"type\":\"stack\",\"id\":%ld,\"frames\":[\"cap_capable+0x83\","
			"\"security_capable+0x3b\",\"ns_capable+0x2d\",\"%s+0x%lx\","
			"\"caller_%ld+0x10\",\"do_syscall_64+0x71\","
			"\"entry_SYSCALL_64_after_hwframe+0x76\"]}\n", k, funcs[k % 10], k, k % 7);
	for (p = 0; p < procs; p++)
		for (k = 0; k < per; k++)
			/* the fields capaudit record writes, in its order */
			fprintf(f, "{\"type\":\"check\",\"pid\":%ld,\"exec_id\":1,\"tid\":%ld,"
				"\"uid\":0,\"comm\":\"worker\",\"cgroup\":4242,\"cap\":%d,"
				"\"cap_name\":\"CAP_%s\",\"ret\":%d,\"count\":%ld,\"syscall\":%ld,"
				"\"syscall_name\":\"bpf\",\"init_ns\":true,"
				"\"first_ns\":1796271159330211980,\"last_ns\":1796271159330212980,"
				"%s\"stack\":%ld}\n", 1000 + p, 1000 + p, caps[k % 10], funcs[k % 10],
				k % 3 ? 0 : -1, k + 1, k % 300, k % 3 ? "" : "\"syscall_failed\":0,",
				(p * per + k) % nstacks);
	/* a complete file ends with its counts (docs/record-format.md) */
	fprintf(f, "{\"type\":\"end\",\"processes\":%ld,\"stacks\":%ld,\"checks\":%ld}\n",
		procs, nstacks, procs * per);
	return fclose(f);
}

static int set_dmesg_restrict(const char *v, char *old, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/dmesg_restrict", "r+");

	if (!f)
		return -1;
	if (old && !fgets(old, (int)len, f))
		old[0] = '\0';
	rewind(f);
	fputs(v, f);
	return fclose(f);
}

/* A sleep in a cgroup v2 of its own, for the OUTSIDE_* rows. */
static void idle_scope_start(void)
{
	char root[256], procs[900];
	int fd;

	if (cgroup_v2_root(root, sizeof(root)))
		return;
	snprintf(idle_cgroup, sizeof(idle_cgroup), "/capaudit-bench-%d", (int)getpid());
	snprintf(idle_cgroup_dir, sizeof(idle_cgroup_dir), "%s%s", root, idle_cgroup);
	if (mkdir(idle_cgroup_dir, 0755)) {
		idle_cgroup[0] = '\0';
		return;
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", idle_cgroup_dir);
	idle_pid = fork();
	if (idle_pid == 0) {
		fd = open(procs, O_WRONLY);
		if (fd < 0 || write(fd, "0", 1) != 1)
			_exit(1);
		close(fd);
		execlp("sleep", "sleep", "100000", (char *)NULL);
		_exit(127);
	}
	usleep(100000);
}

static void idle_scope_stop(void)
{
	if (idle_pid > 0) {
		kill(idle_pid, SIGKILL);
		waitpid(idle_pid, NULL, 0);
	}
	if (idle_cgroup[0])
		rmdir(idle_cgroup_dir);
}

/*
 * The program-time ratio of v to the empty program e over the last
 * SETTLE_K rounds before round `end` in which both were read: the median
 * of the rounds' ratios, its spread in percent (the settle rule, above)
 * and the medians of each program's ns per run over the same rounds;
 * -1 with fewer rounds.
 */
struct progfig {
	double ratio, spread_pct, ns, empty_ns;
	int rounds;   /* rounds behind the figures */
};

static struct progfig prog_figure(const struct variant *v, const struct variant *e, int end)
{
	struct progfig f = { -1, -1, -1, -1, 0 };
	double ratio[SETTLE_K], ns[SETTLE_K], ens[SETTLE_K], lo, hi;
	int n = 0, i;

	for (i = end - 1; i >= 0 && n < SETTLE_K; i--)
		if (v->prog[i] > 0 && (v->eprog[i] > 0 || e->prog[i] > 0)) {
			/* paired: against the empty program beside it */
			double floor = v->eprog[i] > 0 ? v->eprog[i] : e->prog[i];

			ratio[n] = v->prog[i] / floor;
			ns[n] = v->prog[i];
			ens[n++] = floor;
		}
	if (n < SETTLE_K)
		return f;
	lo = hi = ratio[0];
	for (i = 1; i < n; i++) {
		lo = ratio[i] < lo ? ratio[i] : lo;
		hi = ratio[i] > hi ? ratio[i] : hi;
	}
	f.ratio = median(ratio, n);
	f.spread_pct = 100 * (hi - lo) / 2 / f.ratio;
	f.ns = median(ns, n);
	f.empty_ns = median(ens, n);
	f.rounds = n;
	return f;
}

/*
 * tools/bench/realwork.sh, the real-workload bench, when it is there and
 * BENCH_NO_REAL is not set: its output shown as it comes, the key=value
 * pairs of its last line ("realwork: k=v ...") into kv for the bench:
 * line, with realwork=failed if it failed. kv is "" when it is not run.
 */
static void realwork_script(const char *sh, const char *env, const char *tag, const char *what,
			   char *kv, size_t len);

static void realwork(char *kv, size_t len)
{
	realwork_script("tools/bench/realwork.sh", "BENCH_NO_REAL", "realwork", "Real workloads", kv,
			len);
}

/* tools/bench/costs.py: start-up by phase, BPF time a process start, the
 * monitor's share of a core at fixed rates, memory (issue 45) */
static void costs(char *kv, size_t len)
{
	realwork_script("tools/bench/costs.py", "BENCH_NO_COSTS", "costs",
			"The costs a user meets (start-up, process starts, the monitor, memory)", kv, len);
}

/* A script whose last line "TAG: k=v ..." goes onto bench's last line;
 * its other lines are printed as they come. */
static void realwork_script(const char *sh, const char *env, const char *tag, const char *what,
			   char *kv, size_t len)
{
	size_t tl = strlen(tag);
	char line[2048], last[2048] = "";
	FILE *p;
	int st;

	kv[0] = '\0';
	if (getenv(env) || access(sh, X_OK))
		return;
	printf("\n%s (%s; %s=1 skips them):\n", what, sh, env);
	fflush(stdout);
	p = popen(sh, "r");   /* its stderr is ours */
	while (p && fgets(line, sizeof(line), p)) {
		fputs(line, stdout);
		fflush(stdout);
		if (!strncmp(line, tag, tl) && line[tl] == ':')
			snprintf(last, sizeof(last), "%s", line + tl + 1);
	}
	st = p ? pclose(p) : -1;
	last[strcspn(last, "\n")] = '\0';
	if (st == 0 && last[0]) {
		snprintf(kv, len, "%s%s", last[0] == ' ' ? "" : " ", last);
		return;
	}
	if (st == -1)
		fprintf(stderr, "bench: %s could not be run: %s\n", sh, strerror(errno));
	else if (st != 0)
		fprintf(stderr, "bench: %s failed (%s %d)\n", sh,
			WIFEXITED(st) ? "exit status" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	else
		fprintf(stderr, "bench: %s printed no %s: line\n", sh, tag);
	snprintf(kv, len, "%s%s %s=failed", last[0] && last[0] != ' ' ? " " : "", last, tag);
}

int main(int argc, char **argv)
{
	bool quick = getenv("BENCH_QUICK") && strcmp(getenv("BENCH_QUICK"), "0");
	long calls = quick ? 200000 : 2000000;
	/* at least the usual rounds, then until settled, at most twice as
	 * many (the settle rule, above) */
	int min_rounds = quick ? 5 : 9, max_rounds = quick ? 12 : MAX_ROUNDS, rounds = 0, r, i;
	bool hooks_only = argc == 2 && !strcmp(argv[1], "--hooks"), settled = false;
	struct progfig pf = { -1, -1, -1, -1, 0 }, pf_pid = pf, pf_cg = pf;
	char cpu[256], kernel[512], mitig[128], stats_how[256], real_kv[4096] = "", costs_kv[2048] = "";
	struct variant vs[] = {
		{ .name = "bare (nothing attached)", .kind = BARE },
		{ .name = "empty tp_btf program", .kind = EMPTY },
		{ .name = "capaudit --attach tp_btf", .kind = CAPAUDIT, .mode = "tp_btf",
		  .pair = true },
		{ .name = "capaudit --attach tp_btf --user-stacks", .kind = CAPAUDIT, .mode = "tp_btf",
		  .extra = "--user-stacks" },
		/* where the time goes: every check walks the stack (the cache's
		 * hits are re-checked, none counted on its proof alone) */
		{ .name = "capaudit --attach tp_btf --exact-stacks", .kind = CAPAUDIT,
		  .mode = "tp_btf", .extra = "--exact-stacks" },
		{ .name = "capaudit --attach tracepoint", .kind = CAPAUDIT, .mode = "tracepoint" },
		{ .name = "capaudit --attach fexit", .kind = CAPAUDIT, .mode = "fexit" },
		{ .name = "capaudit --attach kprobe", .kind = CAPAUDIT, .mode = "kprobe" },
		{ .name = "capaudit -p (idle), the workload outside it", .kind = OUTSIDE_PID,
		  .pair = true },
		{ .name = "capaudit --cgroup (idle), the workload outside it",
		  .kind = OUTSIDE_CGROUP, .pair = true },
		{ .name = "bpftrace count (pid,cap,ret)", .kind = BPFTRACE },
		{ .name = "bpftrace count + kstack", .kind = BPFTRACE_STACK },
		/* what record -- COMMAND costs by default: the ptrace-access
		 * hooks' syscall tracepoints slow every syscall on the host
		 * (the tracepoint's slow path), this loop's one included */
		{ .name = "capaudit --attach tp_btf, with the ptrace-access hooks (record -- "
			  "COMMAND's default)", .kind = CAPAUDIT, .mode = "tp_btf",
		  .ptrace_access = true },
	};
	int nv = (int)(sizeof(vs) / sizeof(vs[0]));
	double bare, empty, rate, t0 = now_s(), med[16], pre[3], t_rounds;
	struct variant *best = NULL;
	struct variant two = { .name = "capaudit tp_btf, 2 jobs", .kind = CAPAUDIT, .mode = "tp_btf" };
	char old_restrict[16] = "", synth[128];
	struct load_result load;
	struct mon_result mon;
	struct rusage ru;
	char out[4096];
	time_t tnow = time(NULL);
	char date[64];

	/* for profiling the analysis alone: bench --synthetic FILE */
	if (argc == 3 && !strcmp(argv[1], "--synthetic"))
		return write_synthetic(argv[2], 10000, 1000000) ? 1 : 0;
	if (geteuid()) {
		fprintf(stderr, "bench: run as root (it loads BPF programs)\n");
		return 1;
	}
	libbpf_set_print(NULL);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/capaudit-bench.XXXXXX");
	if (!mkdtemp(tmpdir) || set_dmesg_restrict("1\n", old_restrict, sizeof(old_restrict))) {
		fprintf(stderr, "bench: setup failed: %s\n", strerror(errno));
		return 1;
	}
	if (access("/sys/kernel/tracing/events", F_OK))
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);

	/* the hostile inputs alone: bench --inputs */
	if (argc == 2 && !strcmp(argv[1], "--inputs")) {
		snprintf(synth, sizeof(synth), "%s/synthetic.jsonl", tmpdir);
		if (!write_synthetic(synth, 10000, 1000000))
			hostile_inputs(synth);
		snprintf(out, sizeof(out), "rm -rf %s", tmpdir);
		system(out);
		set_dmesg_restrict(old_restrict[0] ? old_restrict : "1\n", NULL, 0);
		return 0;
	}
	/* the load test alone: bench --load SECONDS */
	if (argc == 3 && !strcmp(argv[1], "--load")) {
		int secs = atoi(argv[2]);

		load = secs > 0 ? load_test(secs) : (struct load_result){ -1, -1 };
		set_dmesg_restrict(old_restrict[0] ? old_restrict : "1\n", NULL, 0);
		snprintf(out, sizeof(out), "rm -rf %s", tmpdir);
		if (!getenv("BENCH_KEEP"))
			system(out);
		printf("bench: load_lost=%" PRId64 " load_misattributed=%" PRId64 "\n", load.lost,
		       load.misattributed);
		return load.lost || load.misattributed ? 1 : 0;
	}
	/* the monitor row alone: bench --monitor SECONDS */
	if (argc == 3 && !strcmp(argv[1], "--monitor")) {
		struct mon_result m = monitor_test(atoi(argv[2]) > 0 ? atoi(argv[2]) : 10);

		set_dmesg_restrict(old_restrict[0] ? old_restrict : "1\n", NULL, 0);
		snprintf(out, sizeof(out), "rm -rf %s", tmpdir);
		system(out);
		printf("bench: monitor_rss_growth_kb=%ld\n", m.rss_growth_kb);
		return m.seen == m.made ? 0 : 1;
	}
	/* the header: which machine, before any figure */
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&tnow));
	for (i = 0; i < 3; i++)
		if (run_once(&vs[0], calls, 1, &rate))
			fprintf(stderr, "bench: the bare workload failed\n");
	for (i = 0; i < vs[0].n; i++)
		pre[i] = vs[0].ns[i];
	vs[0].n = 0;
	machine_cpu(cpu, sizeof(cpu));
	machine_kernel(kernel, sizeof(kernel));
	machine_mitigations_token(mitig, sizeof(mitig));
	printf("capaudit bench, %s\n\nBare syscall (klogctl: one CAP_SYSLOG check, nothing "
	       "attached): %.0f ns (median of 3 runs of %ld calls)\nCPU: %s\nKernel: %s\n"
	       "Mitigations (/sys/devices/system/cpu/vulnerabilities; mitigations=%s):\n", date,
	       median(pre, 3), calls, cpu, kernel, mitig);
	machine_print_mitigations();
	have_stats = !progstats_on(stats_how, sizeof(stats_how));
	printf("Program time: %s%s\n", have_stats ? "the kernel's accounting, on through " :
	       "unavailable: ", stats_how);
	fflush(stdout);

	idle_scope_start();
	for (i = 0; i < nv; i++)
		probe(&vs[i]);
	for (i = 0; i < nv; i++)
		for (r = 0; r < MAX_ROUNDS; r++)
			vs[i].prog[r] = vs[i].eprog[r] = -1;
	t_rounds = now_s();
	for (r = 0; r < max_rounds; r++) {
		cur_round = r;
		for (i = 0; i < nv; i++) {
			if (vs[i].available && run_once(&vs[i], calls, 1, &rate))
				fprintf(stderr, "bench: %s: a round failed\n", vs[i].name);
			/* the headline rows again, the empty program beside them */
			pairing = have_stats && vs[i].pair;
			if (pairing && vs[i].available && run_once(&vs[i], calls, 1, &rate))
				fprintf(stderr, "bench: %s: a paired round failed\n", vs[i].name);
			pairing = false;
		}
		rounds = r + 1;
		/* vs[2]: the recorded workload; vs[8], vs[9]: outside a scope */
		pf = prog_figure(&vs[2], &vs[1], rounds);
		pf_pid = prog_figure(&vs[8], &vs[1], rounds);
		pf_cg = prog_figure(&vs[9], &vs[1], rounds);
		settled = pf.rounds && pf.spread_pct <= SETTLE_PCT &&
			  (!vs[8].available || (pf_pid.rounds && pf_pid.spread_pct <= SETTLE_PCT)) &&
			  (!vs[9].available || (pf_cg.rounds && pf_cg.spread_pct <= SETTLE_PCT));
		if (rounds >= min_rounds && (!have_stats || settled ||
					     now_s() - t_rounds > (quick ? SETTLE_SECONDS / 5 : SETTLE_SECONDS)))
			break;
	}
	cur_round = -1;
	/* the accounting costs every BPF program on the host two clock reads
	 * a run: off for the rest */
	progstats_off();

	idle_scope_stop();
	bare = median(vs[0].ns, vs[0].n);
	empty = median(vs[1].ns, vs[1].n);
	printf("\n%ld calls x %d rounds, interleaved. Wall clock: medians of all rounds; program "
	       "time (the kernel's accounting of the check program alone): medians of the last "
	       "%d rounds\n", calls, rounds, SETTLE_K);
	printf("\n| variant | ns/check | added ns | x empty's added | program ns/run | "
	       "x empty's program | seen/made |\n");
	printf("|---|---|---|---|---|---|---|\n");
	for (i = 0; i < nv; i++) {
		struct variant *v = &vs[i];
		struct progfig f = prog_figure(v, &vs[1], rounds);

		med[i] = median(v->ns, v->n);
		if (!v->available) {
			printf("| %s | - | - | - | - | - | unavailable: %s |\n", v->name, v->why);
			continue;
		}
		printf("| %s | %.0f | %.0f | %s", v->name, med[i], med[i] - bare,
		       i == 0 ? "-" : "");
		if (i > 0)
			printf("%.2f", (med[i] - bare) / (empty - bare));
		if (i == 1 && f.rounds)
			printf(" | %.1f | 1 (itself)", f.empty_ns);
		else if (f.rounds)
			printf(" | %.1f | %.2f (±%.0f%%%s)", f.ns, f.ratio, f.spread_pct,
			       v->pair ? ", paired" : "");
		else
			printf(" | - | -");
		if (v->kind == CAPAUDIT)
			printf(" | %" PRIu64 "/%" PRIu64 " |\n", v->seen, v->made);
		else
			printf(" | - |\n");
		if (v->kind == CAPAUDIT && !best)
			best = v;
	}
	if (!have_stats)
		printf("\nProgram time: not measured (%s)\n", stats_how);
	else if (settled)
		printf("\nSettled: program-time ratio %.2fx (%.1f ns per run against the empty "
		       "program's %.1f), spread ±%.0f%% over the last %d rounds; outside a -p scope "
		       "%.2fx (±%.0f%%), outside a --cgroup scope %.2fx (±%.0f%%)\n", pf.ratio, pf.ns,
		       pf.empty_ns, pf.spread_pct, pf.rounds, pf_pid.ratio, pf_pid.spread_pct,
		       pf_cg.ratio, pf_cg.spread_pct);
	else
		printf("\nCould not settle: program-time ratio %.2fx, spread ±%.0f%% over the last %d "
		       "of %d rounds (outside -p %.2fx ±%.0f%%, outside --cgroup %.2fx ±%.0f%%; the "
		       "rule: within ±%.0f%%)\n", pf.ratio, pf.spread_pct, pf.rounds, rounds,
		       pf_pid.ratio, pf_pid.spread_pct, pf_cg.ratio, pf_cg.spread_pct, SETTLE_PCT);
	if (have_stats && vs[2].available && vs[2].runs[rounds - 1])
		printf("Runs of capaudit's check program in the last round: %" PRIu64 " for %ld "
		       "calls (the rest: other processes' checks while it was attached)\n",
		       vs[2].runs[rounds - 1], calls);
	if (pf.rounds && vs[2].made) {
		/* vs[4] walks the stack on every check: the walk's share */
		struct progfig ex = prog_figure(&vs[4], &vs[1], rounds);
		double walked = (double)vs[2].walks / (double)vs[2].made;
		double walk = ex.rounds && walked < 1 ? (ex.ns - pf.ns) / (1 - walked) : -1;

		printf("Where the time goes (ns per run, the kernel's accounting): the empty program "
		       "%.1f (the accounting's own clock reads; any program pays them); capaudit %.1f, "
		       "of which stack walks (cache misses and re-checks, %.2f%% of checks here: %"
		       PRIu64 " of %" PRIu64 ") take %.1f at %.0f a walk (--exact-stacks walks every "
		       "check: %.1f), the hit path %.1f over the empty program; outside a -p scope %+.1f, "
		       "outside a --cgroup scope %+.1f\n", pf.empty_ns, pf.ns,
		       100 * walked, vs[2].walks, vs[2].made, walk > 0 ? walked * walk : -1, walk,
		       ex.ns, walk > 0 ? pf.ns - pf.empty_ns - walked * walk : -1,
		       pf_pid.rounds ? pf_pid.ns - pf_pid.empty_ns : -1,
		       pf_cg.rounds ? pf_cg.ns - pf_cg.empty_ns : -1);
	}
	if (pf.rounds)
		printf("Targets: the recorded workload within 1.5x the empty program's time "
		       "(%s), outside a scope within 1.2x (-p %s, --cgroup %s)\n",
		       pf.ratio <= 1.5 ? "met" : "NOT MET",
		       pf_pid.rounds ? pf_pid.ratio <= 1.2 ? "met" : "NOT MET" : "not measured",
		       pf_cg.rounds ? pf_cg.ratio <= 1.2 ? "met" : "NOT MET" : "not measured");

	/* bench --hooks: the hook's cost alone */
	if (hooks_only) {
		load = (struct load_result){ -1, -1 };
		mon = (struct mon_result){ -1, 0, 0 };
		goto last_line;
	}
	/* the highest rate two cores make: one loop per core */
	if (best) {
		double ns2 = 0;

		run_once(&two, calls, 2, &rate);
		ns2 = median(two.ns, two.n);
		printf("\nTwo cores (2 loops, capaudit tp_btf): %.0f checks/s, %.0f ns/check per loop, "
		       "seen %" PRIu64 " of %" PRIu64 " made (%s)\n", rate, ns2, two.seen, two.made,
		       two.seen == two.made ? "none lost" : "LOST");
		printf("Loader, whole run (%" PRIu64 " checks in %.2f s): CPU %.3f s, peak RSS %ld KiB\n",
		       best->made, best->wall_s, best->loader_cpu_s, best->loader_rss_kb);
		loader_steady(best, calls * 5);
	}

	/* report --suggest on 1M aggregated checks from 10k processes */
	snprintf(synth, sizeof(synth), "%s/synthetic.jsonl", tmpdir);
	if (!write_synthetic(synth, 10000, 1000000)) {
		char *argv[] = { (char *)capaudit, "report", "--suggest", "-i", synth, NULL };
		double secs[3];
		long rss = 0;
		int rc = 0, k;
		struct stat sb;

		for (k = 0; k < 3; k++) {   /* median of three: the machine is noisy */
			double t = now_s();

			rc |= run_capture(argv, out, sizeof(out), &ru);
			secs[k] = now_s() - t;
			if (ru.ru_maxrss > rss)
				rss = ru.ru_maxrss;
		}
		stat(synth, &sb);
		printf("report --suggest, 1,000,000 aggregated checks from 10,000 processes "
		       "(%.0f MB record): %.2f s (median of 3), peak RSS %ld MiB%s\n",
		       sb.st_size / 1e6, median(secs, 3), rss / 1024, rc ? " (FAILED)" : "");
	}
	hostile_inputs(synth);
	unlink(synth);

	load = load_test(quick ? 10 : 60);
	mon = monitor_test(quick ? 10 : 30);
	realwork(real_kv, sizeof(real_kv));
	costs(costs_kv, sizeof(costs_kv));
	strncat(real_kv, costs_kv, sizeof(real_kv) - strlen(real_kv) - 1);

last_line:
	set_dmesg_restrict(old_restrict[0] ? old_restrict : "1\n", NULL, 0);
	snprintf(out, sizeof(out), "rm -rf %s", tmpdir);
	system(out);
	fprintf(stderr, "bench: %.0f s\n", now_s() - t0);
	if (!best) {
		printf("bench: added_ns=0 empty_added_ns=%.0f ratio=0 lost=-1 load_lost=%" PRId64
		       " load_misattributed=%" PRId64 " monitor_rss_growth_kb=%ld settled=0 bare_ns=%.0f"
		       " mitigations=%s%s\n", empty - bare, load.lost, load.misattributed,
		       mon.rss_growth_kb, bare, mitig, real_kv);
		return 1;
	}
	{
		double added = median(best->ns, best->n) - bare;
		/* --user-stacks: the same hot path; only cache misses and
		 * re-checks walk the user stack too */
		double uadded = vs[3].available ? median(vs[3].ns, vs[3].n) - bare : -1;
		/* an unrelated process under a --cgroup recording, and under a -p
		 * one (vs[8], vs[9] above) */
		double cg_out = vs[9].available ? median(vs[9].ns, vs[9].n) - bare : -1;
		double pid_out = vs[8].available ? median(vs[8].ns, vs[8].n) - bare : -1;
		/* the ptrace-access hooks' own share, per syscall (vs[12] less
		 * the hook alone) */
		double pt_added = vs[12].available && best == &vs[2] ?
				  median(vs[12].ns, vs[12].n) - median(vs[2].ns, vs[2].n) : -1;

		printf("bench: added_ns=%.0f empty_added_ns=%.0f ratio=%.2f lost=%" PRId64
		       " load_lost=%" PRId64 " load_misattributed=%" PRId64
		       " user_stacks_added_ns=%.0f outside_pid_added_ns=%.0f"
		       " outside_cgroup_added_ns=%.0f monitor_rss_growth_kb=%ld"
		       " ptrace_hooks_added_ns=%.0f prog_ns=%.1f empty_prog_ns=%.1f prog_ratio=%.2f"
		       " outside_pid_ratio=%.2f outside_cgroup_ratio=%.2f prog_spread_pct=%.0f"
		       " settled=%d bare_ns=%.0f mitigations=%s%s\n", added, empty - bare,
		       added / (empty - bare),
		       (int64_t)(best->made - best->seen) + (int64_t)(two.made - two.seen), load.lost,
		       load.misattributed, uadded, pid_out, cg_out, mon.rss_growth_kb, pt_added,
		       pf.ns, pf.empty_ns, pf.ratio, pf_pid.ratio, pf_cg.ratio, pf.spread_pct,
		       settled, bare, mitig, real_kv);
	}
	return 0;
}
