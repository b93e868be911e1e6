// SPDX-License-Identifier: GPL-2.0
/*
 * Process churn with a known number of capability checks, for the
 * robustness tests and the load test. Every "call" is
 * klogctl(SYSLOG_ACTION_SIZE_BUFFER), which with kernel.dmesg_restrict=1
 * makes exactly one capable(CAP_SYSLOG) check when it is granted (the
 * caller sets dmesg_restrict). Each mode prints what it did, so a test
 * compares capaudit's counts with the workload's own:
 *
 *   churn forks N K [JOBS]   N short-lived children (over JOBS forkers),
 *                            K calls each     -> "processes=N calls=N*K"
 *   churn exec N K           K calls, then execve itself with N-1: one pid,
 *                            N program images (prints nothing)
 *   churn setuid K           K calls as root, setresuid(65534), K calls
 *                            that are denied  -> "granted=K denied=K"
 *   churn at-pid PID K       a child with exactly pid PID (clone3 set_tid),
 *                            K calls          -> "pid=PID calls=K"
 *   churn load SECONDS JOBS [PER_SEC [PROCS]]
 *                            JOBS forkers making children for SECONDS, child
 *                            i making 1 + i % 50 calls, each forker at most
 *                            PER_SEC children a second (0: no limit); with
 *                            PROCS, each stops after PROCS/JOBS children (a
 *                            soak sized by processes, not by this host's
 *                            fork rate)      -> "processes= calls="
 *   churn calls K            K calls (what reuse-exec execs)
 *   churn reuse-exec K       a child execs "churn calls K" and exits; then
 *                            /usr/bin/true runs with its pid (set_tid):
 *                            the same exec depth, so (pid, exec count) is
 *                            the same; true makes no CAP_SYSLOG check
 *                                             -> "pid=PID calls=K"
 *   churn tid-reuse K        on CPU 0: a thread makes K calls and exits, then
 *                            a forked child gets its tid as pid and makes K
 *                            calls from the same code -> "tid=TID calls=K"
 *   churn thread SECONDS     a second thread that sleeps for SECONDS
 *                                             -> "pid=PID tid=TID"
 *   churn programs DIR P N JOBS
 *                            P copies of churn in DIR (DIR/p0 ...), then N
 *                            children over JOBS forkers, child i execs
 *                            DIR/p<i % P> "calls 1": P distinct programs
 *                            coming and going
 *                                             -> "processes=N calls=N programs=P"
 *   churn sites N            N children, each making one call from each of
 *                            SITES places in churn: with --user-stacks,
 *                            SITES keys per process, however slow the host
 *                                             -> "processes=N calls=N*16"
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <linux/sched.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIZE_BUFFER 10

/* Strict: a whole non-negative number, or exit 2. */
static long num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0) {
		fprintf(stderr, "churn: '%s' is not a number\n", s);
		exit(2);
	}
	return v;
}

/* Calls that succeeded (granted) */
static long calls(long k)
{
	long ok = 0;

	while (k-- > 0)
		if (klogctl(SIZE_BUFFER, NULL, 0) >= 0)
			ok++;
	return ok;
}

/* SITES places that call klogctl(): different code (no identical-code
 * folding) and no tail call, so each returns to its own offset. */
#define SITES 16
#define SITE(n) \
	static __attribute__((noinline)) long site##n(void) \
	{ return klogctl(SIZE_BUFFER, NULL, 0) >= 0 ? n + 1 : 0; }
SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7)
SITE(8) SITE(9) SITE(10) SITE(11) SITE(12) SITE(13) SITE(14) SITE(15)

static long (*const site_fns[SITES])(void) = {
	site0, site1, site2, site3, site4, site5, site6, site7,
	site8, site9, site10, site11, site12, site13, site14, site15,
};

static int sites(long n)
{
	long i, j;

	for (i = 0; i < n; i++) {
		pid_t c = fork();
		int st;

		if (c < 0)
			return 1;
		if (c == 0) {
			for (j = 0; j < SITES; j++)
				if (site_fns[j]() != j + 1)
					_exit(1);
			_exit(0);
		}
		if (waitpid(c, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	}
	printf("processes=%ld calls=%ld\n", n, n * SITES);
	return 0;
}

static void wait_all(void)
{
	int st;

	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "churn: a child failed\n");
			exit(1);
		}
}

static int forks(long n, long k, long jobs)
{
	long j, i;

	for (j = 0; j < jobs; j++) {
		if (fork() == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);   /* as in load() */
			for (i = j; i < n; i += jobs) {
				pid_t c = fork();

				if (c < 0)
					_exit(1);
				if (c == 0)
					_exit(calls(k) == k ? 0 : 1);
				if (waitpid(c, NULL, 0) < 0)
					_exit(1);
			}
			_exit(0);
		}
	}
	wait_all();
	printf("processes=%ld calls=%ld\n", n, n * k);
	return 0;
}

/* DIR/p0 ... DIR/p<p-1>: copies of this program (distinct paths, so
 * distinct program identities), made once. */
static int copy_self(const char *dir, long p)
{
	static char buf[1 << 16];
	char path[4096];
	long i;

	for (i = 0; i < p; i++) {
		int in, out;
		ssize_t n = 0;

		snprintf(path, sizeof(path), "%s/p%ld", dir, i);
		if (!access(path, X_OK))
			continue;
		in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
		out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n) {
				n = -1;
				break;
			}
		if (in >= 0)
			close(in);
		if (out < 0 || close(out) || n < 0) {
			fprintf(stderr, "churn: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	return 0;
}

static int programs(const char *dir, long p, long n, long jobs)
{
	char path[4096];
	long j, i;

	if (p < 1 || copy_self(dir, p))
		return 1;
	for (j = 0; j < jobs; j++) {
		if (fork() == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);   /* as in load() */
			for (i = j; i < n; i += jobs) {
				pid_t c = fork();
				int st;

				if (c < 0)
					_exit(1);
				if (c == 0) {
					snprintf(path, sizeof(path), "%s/p%ld", dir, i % p);
					execl(path, path, "calls", "1", (char *)NULL);
					_exit(127);
				}
				if (waitpid(c, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
					_exit(1);
			}
			_exit(0);
		}
	}
	wait_all();
	printf("processes=%ld calls=%ld programs=%ld\n", n, n, p);
	return 0;
}

static int exec_chain(long n, long k, const char *self)
{
	char nb[32], kb[32];

	if (calls(k) != k)
		return 1;
	if (n <= 1)
		return 0;
	snprintf(nb, sizeof(nb), "%ld", n - 1);
	snprintf(kb, sizeof(kb), "%ld", k);
	execl(self, "churn", "exec", nb, kb, (char *)NULL);
	perror("churn: execl");
	return 1;
}

static int setuid_mode(long k)
{
	long granted = calls(k), denied;

	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)) {
		perror("churn: setresuid");
		return 1;
	}
	denied = k - calls(k);
	printf("granted=%ld denied=%ld\n", granted, denied);
	return 0;
}

/*
 * Fork a child whose pid is exactly pid, as CRIU restores one: clone3()
 * with set_tid. It makes k calls, or execs argv when argv is given. 0 when
 * done, 1 on failure.
 *
 * Not ns_last_pid then fork(): on a host where other processes fork, one
 * of them can take the pid between the write and the fork, and the fork
 * then makes a process at another pid, one the recording follows; two such
 * tries in a row can even get the same pid, a reuse the test did not make.
 * clone3() gives the pid or makes no process at all (EEXIST: someone holds
 * it now; wait for them to let it go).
 */
static int fork_at(long pid, long k, char **argv)
{
	pid_t want = (pid_t)pid;
	struct clone_args args;
	int tries;

	for (tries = 0; tries < 5000; tries++) {
		pid_t c;
		int st;

		memset(&args, 0, sizeof(args));
		args.exit_signal = SIGCHLD;
		args.set_tid = (__u64)(uintptr_t)&want;
		args.set_tid_size = 1;
		c = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
		if (c < 0 && errno == EEXIST) {
			usleep(1000);   /* about 5 s in all */
			continue;
		}
		if (c < 0) {
			perror("churn: clone3");
			return 1;
		}
		if (c == 0) {
			if (argv) {
				execv(argv[0], argv);
				_exit(2);
			}
			_exit(calls(k) == k ? 0 : 2);
		}
		if (waitpid(c, &st, 0) < 0)
			return 1;
		return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
	}
	fprintf(stderr, "churn: could not get pid %ld\n", pid);
	return 1;
}

static int at_pid(long pid, long k)
{
	if (fork_at(pid, k, NULL))
		return 1;
	printf("pid=%ld calls=%ld\n", pid, k);
	return 0;
}

/* A child at exec depth +1 makes k calls; /usr/bin/true, at the same depth,
 * then gets its pid. */
static int reuse_exec(long k, const char *self)
{
	char kb[32], *first[] = { (char *)self, "calls", kb, NULL };
	char *second[] = { "/usr/bin/true", NULL };
	pid_t c;
	int st;

	snprintf(kb, sizeof(kb), "%ld", k);
	c = fork();
	if (c == 0) {
		execv(first[0], first);
		_exit(2);
	}
	if (c < 0 || waitpid(c, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1;
	if (fork_at(c, 0, second))
		return 1;
	printf("pid=%d calls=%ld\n", (int)c, k);
	return 0;
}

struct thread_arg {
	long k, ok;
	pid_t tid;
};

static void *thread_calls(void *p)
{
	struct thread_arg *a = p;

	a->tid = (pid_t)syscall(SYS_gettid);
	a->ok = calls(a->k);
	return NULL;
}

static void *thread_sleep(void *p)
{
	long *secs = p;

	printf("pid=%d tid=%d\n", (int)getpid(), (int)syscall(SYS_gettid));
	sleep((unsigned int)*secs);
	return NULL;
}

static int thread_mode(long secs)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_sleep, &secs))
		return 1;
	pthread_join(t, NULL);
	return 0;
}

/* A thread's tid, given to a forked child on the same CPU: both make their
 * calls from the same code (the same call-site cache tag). */
static int tid_reuse(long k)
{
	struct thread_arg a = { .k = k };
	cpu_set_t cpus;
	pthread_t t;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus) ||
	    pthread_create(&t, NULL, thread_calls, &a) || pthread_join(t, NULL) || a.ok != k)
		return 1;
	if (fork_at(a.tid, k, NULL))
		return 1;
	printf("tid=%d calls=%ld\n", (int)a.tid, k);
	return 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int load(long seconds, long jobs, long per_sec, long max_procs)
{
	/* per forker: processes, calls (shared with the parent) */
	long *tot = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long j, procs = 0, ncalls = 0;
	double end = now() + (double)seconds;

	if (tot == MAP_FAILED || jobs > 64)
		return 2;
	for (j = 0; j < jobs; j++) {
		if (fork() == 0) {
			long i;

			/* a load that outlives its parent (signalled by a
			 * test) would go on making checks in later tests */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1)
				_exit(1);
			for (i = 0; now() < end && (!max_procs || i < max_procs / jobs); i++) {
				long k = 1 + i % 50;
				pid_t c;
				int st;

				/* at most per_sec a second: sleep until child i is due */
				while (per_sec && now() < end - seconds + (double)i / per_sec)
					usleep(1000);
				c = fork();
				if (c < 0)
					_exit(1);
				if (c == 0)
					_exit(calls(k) == k ? 0 : 1);
				if (waitpid(c, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
					_exit(1);
				tot[2 * j]++;
				tot[2 * j + 1] += k;
			}
			_exit(0);
		}
	}
	wait_all();
	for (j = 0; j < jobs; j++) {
		procs += tot[2 * j];
		ncalls += tot[2 * j + 1];
	}
	printf("processes=%ld calls=%ld\n", procs, ncalls);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "forks"))
		return forks(num(argv[2]), num(argv[3]), 1);
	if (argc == 5 && !strcmp(argv[1], "forks") && num(argv[4]) >= 1)
		return forks(num(argv[2]), num(argv[3]), num(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "exec"))
		return exec_chain(num(argv[2]), num(argv[3]), "/proc/self/exe");
	if (argc == 3 && !strcmp(argv[1], "setuid"))
		return setuid_mode(num(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "at-pid"))
		return at_pid(num(argv[2]), num(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "load") && num(argv[3]) >= 1)
		return load(num(argv[2]), num(argv[3]), 0, 0);
	if (argc == 5 && !strcmp(argv[1], "load") && num(argv[3]) >= 1)
		return load(num(argv[2]), num(argv[3]), num(argv[4]), 0);
	if (argc == 6 && !strcmp(argv[1], "load") && num(argv[3]) >= 1 && num(argv[5]) >= 1)
		return load(num(argv[2]), num(argv[3]), num(argv[4]), num(argv[5]));
	if (argc == 3 && !strcmp(argv[1], "calls"))
		return calls(num(argv[2])) == num(argv[2]) ? 0 : 1;
	if (argc == 3 && !strcmp(argv[1], "reuse-exec"))
		return reuse_exec(num(argv[2]), "/proc/self/exe");
	if (argc == 6 && !strcmp(argv[1], "programs") && num(argv[5]) >= 1)
		return programs(argv[2], num(argv[3]), num(argv[4]), num(argv[5]));
	if (argc == 3 && !strcmp(argv[1], "sites"))
		return sites(num(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "tid-reuse"))
		return tid_reuse(num(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "thread"))
		return thread_mode(num(argv[2]));
	fprintf(stderr, "usage: churn forks N K [JOBS] | exec N K | setuid K | at-pid PID K |"
		" load SECONDS JOBS [PER_SEC [PROCS]] | programs DIR P N JOBS | calls K | reuse-exec K |"
		" tid-reuse K |"
		" thread SECONDS\n");
	return 2;
}
