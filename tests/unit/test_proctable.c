// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's process table (record/proctable.c) and its end
 * (record/collect.c), fed a synthetic event stream and a fake kernel
 * (fake_tracer.h): what tests/e2e/identity.bats and faults.bats check as
 * root over minutes (pid reuse, exec images and the command's alias, lost
 * events, processes seen only by their checks, -p's followed set), checked
 * here on the record that results.
 *
 * The pids are above PID_MAX_LIMIT (4194304), so that no live process has
 * one and every /proc lookup the table makes for them misses; the tests
 * that want /proc to answer use this process itself.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_tracer.h"
#include "lib/ksyms.h"
#include "lib/util.h"
#include "record/collect.h"
#include "record/procinfo.h"
#include "record/proctable.h"
#include "test.h"

#define PID(n)  (5000000u + (n))
#define EPOCH   1700000000000000000LL   /* CLOCK_REALTIME - CLOCK_MONOTONIC */
#define SYSLOG  34

struct fx {
	struct rec_opts o;
	struct record rec;
	struct tracer tr;
	struct scope scope;
	struct cgroup_names cgn;
	struct proctable pt;
};

static struct fx *fx_new(void)
{
	struct fx *f = xcalloc(1, sizeof(*f));

	fake_tracer_reset(&f->tr);
	f->pt.o = &f->o;
	f->pt.rec = &f->rec;
	f->pt.tr = &f->tr;
	f->pt.scope = &f->scope;
	f->pt.cgn = &f->cgn;
	f->pt.epoch_off = EPOCH;
	return f;
}

static void fx_free(struct fx *f)
{
	proctable_free(&f->pt);
	record_free(&f->rec);
	free(f);
}

/* -- COMMAND: capaudit's child, (pid, pstart) */
static void fx_command(struct fx *f, uint32_t pid, uint64_t pstart)
{
	f->pt.child = (pid_t)pid;
	f->pt.child_start = pstart;
}

/* a kernel string field: NUL-padded, not always NUL-terminated */
static void put(char *dst, size_t n, const char *src)
{
	memset(dst, 0, n);
	memcpy(dst, src, strnlen(src, n));
}

static struct ca_event ev(uint32_t type, uint32_t pid, uint64_t pstart, uint32_t exec_id,
			  const char *comm)
{
	struct ca_event e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.tgid = e.tid = pid;
	e.pstart = pstart;
	e.exec_id = exec_id;
	e.uid = 1000;
	e.ts_ns = pstart;
	put(e.comm, CA_COMM_LEN, comm);
	return e;
}

static void send(struct fx *f, const struct ca_event *e)
{
	ASSERT_EQ(proctable_on_event(&f->pt, e), 0);
}

static void fork_ev(struct fx *f, uint32_t pid, uint64_t pstart, uint32_t ppid,
		    uint64_t parent_start, uint32_t exec_id, const char *comm)
{
	struct ca_event e = ev(CA_EV_FORK, pid, pstart, exec_id, comm);

	e.ppid = ppid;
	e.parent_start = parent_start;
	send(f, &e);
}

static struct ca_event exec_event(uint32_t pid, uint64_t pstart, uint32_t ppid, uint32_t exec_id,
				  const char *comm, const char *filename)
{
	struct ca_event e = ev(CA_EV_EXEC, pid, pstart, exec_id, comm);

	e.ppid = ppid;
	put(e.filename, CA_PATH_LEN, filename);
	return e;
}

static void exec_ev(struct fx *f, uint32_t pid, uint64_t pstart, uint32_t ppid, uint32_t exec_id,
		    const char *comm, const char *filename)
{
	struct ca_event e = exec_event(pid, pstart, ppid, exec_id, comm, filename);

	send(f, &e);
}

static void exit_ev(struct fx *f, uint32_t pid, uint64_t pstart, uint32_t exec_id,
		    const char *comm, int status)
{
	struct ca_event e = ev(CA_EV_EXIT, pid, pstart, exec_id, comm);

	e.exit_code = status;
	send(f, &e);
}

static void first_ev(struct fx *f, uint32_t pid, uint64_t pstart, uint32_t ppid,
		     uint32_t exec_id, const char *comm)
{
	struct ca_event e = ev(CA_EV_FIRST, pid, pstart, exec_id, comm);

	e.ppid = ppid;
	send(f, &e);
}

/* the record's line of image (pid, pstart, exec_id), pstart the kernel's */
static struct rec_process *img(struct fx *f, uint32_t pid, uint64_t pstart, uint32_t exec_id)
{
	return record_find_process(&f->rec, pid, EPOCH + (int64_t)pstart, exec_id);
}

/* its exe and comm ("(no line)" without one; NULL: none) */
static const char *exe_of(struct fx *f, uint32_t pid, uint64_t pstart, uint32_t exec_id)
{
	const struct rec_process *p = img(f, pid, pstart, exec_id);

	return p ? p->exe : "(no line)";
}

static const char *comm_of(struct fx *f, uint32_t pid, uint64_t pstart, uint32_t exec_id)
{
	const struct rec_process *p = img(f, pid, pstart, exec_id);

	return p ? p->comm : "(no line)";
}

static uint64_t checks_of(struct fx *f, const struct rec_process *p, int cap)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < f->rec.nchecks; i++)
		if (f->rec.checks[i].cap == cap && check_process(&f->rec, &f->rec.checks[i]) == p)
			n += f->rec.checks[i].count;
	return n;
}

/*
 * identity.bats "a pid reused by a process that exec'd": the command's
 * child execs churn, makes 7 checks, exits; /usr/bin/true then gets its
 * pid at the same exec depth. Two processes, each with its own lines;
 * none of churn's checks on true.
 */
TEST(proctable_pid_reused_at_the_same_exec_depth)
{
	struct fx *f = fx_new();
	struct rec_process *p;

	fx_command(f, PID(1), 100);
	exec_ev(f, PID(1), 100, 1, 2, "churn", "/usr/bin/churn");
	fork_ev(f, PID(2), 200, PID(1), 100, 2, "churn");
	exec_ev(f, PID(2), 200, PID(1), 3, "churn", "/usr/bin/churn");
	exit_ev(f, PID(2), 200, 3, "churn", 0);
	fork_ev(f, PID(2), 300, PID(1), 100, 2, "churn");
	exec_ev(f, PID(2), 300, PID(1), 3, "true", "/usr/bin/true");
	exit_ev(f, PID(2), 300, 3, "true", 0);
	exit_ev(f, PID(1), 100, 2, "churn", 0);

	/* churn; each child's fork copy and exec'd image */
	ASSERT_EQ(f->rec.nprocs, 5);
	ASSERT_U64(record_count_reused_pids(&f->rec), 1);
	p = img(f, PID(2), 200, 2);   /* the fork: a copy of its parent's image */
	ASSERT_STR(exe_of(f, PID(2), 200, 2), "/usr/bin/churn");
	ASSERT_TRUE(p && p->ppid == PID(1) && !p->exited);
	p = img(f, PID(2), 200, 3);
	ASSERT_TRUE(p != NULL);
	if (p) {
		ASSERT_STR(p->exe, "/usr/bin/churn");
		ASSERT_STR(p->comm, "churn");
		ASSERT_EQ(p->ppid, PID(1));
		ASSERT_EQ(p->uid, 1000);
		ASSERT_TRUE(p->exited);
	}
	p = img(f, PID(2), 300, 3);
	ASSERT_TRUE(p != NULL);
	if (p) {
		ASSERT_STR(p->exe, "/usr/bin/true");
		ASSERT_STR(p->comm, "true");
		ASSERT_TRUE(p->exited);
	}
	/* the command's tree: forks followed, exits let go (by identity) */
	ASSERT_EQ(f->pt.live.n, 0);

	/* the 7 checks of the first process's churn image */
	fake_check(PID(2), 200, 3, SYSLOG, 0, 0, 7, "churn");
	collect_checks(&f->pt, NULL, "no kernel symbols");
	ASSERT_EQ(f->rec.nchecks, 1);
	ASSERT_EQ(f->rec.nprocs, 5);   /* no line made for the checks */
	ASSERT_U64(checks_of(f, img(f, PID(2), 200, 3), SYSLOG), 7);
	ASSERT_U64(checks_of(f, img(f, PID(2), 300, 3), SYSLOG), 0);
	ASSERT_U64(f->rec.hdr.checks, 7);
	ASSERT_EQ(f->rec.checks[0].stack, -1);
	ASSERT_HAS(f->rec.checks[0].stack_error, "stack not captured");
	fx_free(f);
}

/*
 * The command's checks between fork and exec are made by capaudit's child
 * (the launcher image): they count as the command's image, and merge with
 * its own checks of the same key.
 */
TEST(proctable_command_launcher_checks_alias_to_its_image)
{
	struct fx *f = fx_new();
	struct rec_process *p;

	fx_command(f, PID(1), 100);
	first_ev(f, PID(1), 100, 1, 1, "capaudit");   /* our child, before exec */
	ASSERT_EQ(f->rec.nprocs, 0);                  /* no line of its own */
	exec_ev(f, PID(1), 100, 1, 2, "churn", "/usr/bin/churn");
	ASSERT_EQ(f->rec.nprocs, 1);
	ASSERT_EQ(proctable_alias_exec(&f->pt, PID(1), 100, 1), 2);
	ASSERT_EQ(proctable_alias_exec(&f->pt, PID(1), 100, 3), 3);
	/* another process (the same pid, another start) is not the command */
	ASSERT_EQ(proctable_alias_exec(&f->pt, PID(1), 101, 1), 1);
	/* its exit event names the launcher's exec id: the command's line */
	exit_ev(f, PID(1), 100, 1, "churn", 7 << 8);
	ASSERT_EQ(f->rec.nprocs, 1);
	p = img(f, PID(1), 100, 2);
	ASSERT_TRUE(p && p->exited && p->exit_code == 7);

	fake_check(PID(1), 100, 1, SYSLOG, 0, 0, 3, "capaudit");
	fake_check(PID(1), 100, 2, SYSLOG, 0, 0, 4, "churn");
	collect_checks(&f->pt, NULL, "no kernel symbols");
	ASSERT_EQ(f->rec.nchecks, 1);
	ASSERT_EQ(f->rec.checks[0].exec_id, 2);
	ASSERT_U64(f->rec.checks[0].count, 7);
	ASSERT_EQ(f->rec.nprocs, 1);
	fx_free(f);
}

/* The command's image checks before its exec event is read: known by its
 * first check (the launcher's exec id is not its). */
TEST(proctable_command_image_known_by_its_first_check)
{
	struct fx *f = fx_new();
	struct rec_process *p;

	fx_command(f, PID(1), 100);
	first_ev(f, PID(1), 100, 1, 1, "capaudit");
	first_ev(f, PID(1), 100, 1, 1, "capaudit");   /* the launcher again: nothing */
	ASSERT_EQ(f->rec.nprocs, 0);
	first_ev(f, PID(1), 100, 1, 2, "churn");
	exec_ev(f, PID(1), 100, 1, 2, "churn", "/usr/bin/churn");
	ASSERT_EQ(f->rec.nprocs, 1);
	p = img(f, PID(1), 100, 2);
	ASSERT_STR(exe_of(f, PID(1), 100, 2), "/usr/bin/churn");
	ASSERT_TRUE(p && p->ppid == 1);
	ASSERT_EQ(proctable_alias_exec(&f->pt, PID(1), 100, 1), 2);
	fx_free(f);
}

/*
 * faults.bats "execve four times in one pid": four images of one process,
 * each named by its own exec; and the names the kernel gives that are no
 * path (/proc/self/exe, a memfd) or a relative one.
 */
TEST(proctable_exec_images_of_one_process)
{
	struct fx *f = fx_new();
	struct ca_event e;
	struct rec_process *p;
	size_t i;

	fx_command(f, PID(1), 100);
	exec_ev(f, PID(1), 100, 1, 2, "a", "/bin/a");
	exec_ev(f, PID(1), 100, 1, 3, "b", "/bin/b");
	exec_ev(f, PID(1), 100, 1, 4, "c", "/bin/c");
	e = exec_event(PID(1), 100, 1, 5, "d", "/bin/d");
	e.flags = CA_EVF_SECURE_EXEC;
	send(f, &e);
	/* gone already: /proc/self/exe is the image it replaced */
	exec_ev(f, PID(1), 100, 1, 6, "d", "/proc/self/exe");
	/* a relative name that is no file here stays as given */
	exec_ev(f, PID(1), 100, 1, 7, "x", "./no-such-program");
	/* fexecve of a memfd: named as /proc would have */
	e = exec_event(PID(1), 100, 1, 8, "3", "/dev/fd/3");
	e.flags = CA_EVF_EXE_UNLINKED;
	put(e.exe_name, CA_DNAME_LEN, "memfd:payload");
	send(f, &e);

	ASSERT_EQ(f->rec.nprocs, 7);
	for (i = 0; i < f->rec.nprocs; i++) {
		ASSERT_EQ(f->rec.procs[i].pid, PID(1));
		ASSERT_U64(f->rec.procs[i].start_ns, EPOCH + 100);
	}
	ASSERT_STR(exe_of(f, PID(1), 100, 2), "/bin/a");
	ASSERT_STR(comm_of(f, PID(1), 100, 4), "c");
	p = img(f, PID(1), 100, 5);
	ASSERT_STR(exe_of(f, PID(1), 100, 5), "/bin/d");
	ASSERT_TRUE(p && p->secure_exec);
	ASSERT_TRUE(img(f, PID(1), 100, 4) && !img(f, PID(1), 100, 4)->secure_exec);
	ASSERT_STR(exe_of(f, PID(1), 100, 6), "/bin/d");
	ASSERT_STR(exe_of(f, PID(1), 100, 7), "./no-such-program");
	ASSERT_STR(exe_of(f, PID(1), 100, 8), "/memfd:payload (deleted)");

	/* 5 checks in each of the first four images, on their own lines */
	for (i = 2; i <= 5; i++)
		fake_check(PID(1), 100, (uint32_t)i, SYSLOG, 0, 0, 5, "x");
	collect_checks(&f->pt, NULL, "no kernel symbols");
	ASSERT_EQ(f->rec.nchecks, 4);
	for (i = 2; i <= 5; i++)
		ASSERT_U64(checks_of(f, img(f, PID(1), 100, (uint32_t)i), SYSLOG), 5);
	ASSERT_EQ(f->rec.nprocs, 7);
	fx_free(f);
}

/* Exit statuses, shell-style; an exit whose fork and exec were lost still
 * makes the image's line, named by the event. */
TEST(proctable_exit_status_and_lost_fork)
{
	struct fx *f = fx_new();
	struct rec_process *p;

	fork_ev(f, PID(1), 100, 1, 5, 1, "sh");
	exit_ev(f, PID(1), 100, 1, "sh", 9);          /* SIGKILL */
	exit_ev(f, PID(2), 200, 3, "lost", 3 << 8);   /* no fork, no exec seen */
	ASSERT_EQ(f->rec.nprocs, 2);
	p = img(f, PID(1), 100, 1);
	ASSERT_TRUE(p && p->exited && p->exit_code == 137 && p->ppid == 1);
	p = img(f, PID(2), 200, 3);
	ASSERT_TRUE(p != NULL);
	if (p) {
		ASSERT_STR(p->comm, "lost");
		ASSERT_TRUE(p->exe == NULL);
		ASSERT_TRUE(p->exited);
		ASSERT_EQ(p->exit_code, 3);
	}
	/* no -p, no command: nothing followed */
	ASSERT_EQ(f->pt.live.n, 0);
	fx_free(f);
}

/*
 * Events lost (ringbuf full): an image that made checks but whose events
 * never came is named by its first check; the kernel's counters, the
 * overflow of a full map and syscall results without a check reach the
 * header.
 */
TEST(collect_images_seen_only_by_their_checks_and_what_was_lost)
{
	struct fx *f = fx_new();
	struct rec_process *p;
	struct ca_val *v;

	fx_command(f, PID(1), 100);
	exec_ev(f, PID(1), 100, 1, 2, "churn", "/usr/bin/churn");
	v = fake_check(PID(5), 500, 3, SYSLOG, -1, 0, 2, "ghost");
	v->meta.uid = 4242;
	v = fake_check(PID(6), 600, 1, SYSLOG, 0, 0, 0, "orphan");   /* a result only */
	v->sys_failed = 2;
	v->sys_other = 1;
	fake_kernel.stats[CA_STAT_RINGBUF_FULL] = 3;
	fake_kernel.stats[CA_STAT_MAP_FULL] = 5;
	fake_kernel.stats[CA_STAT_RESULT_LOST] = 1;
	fake_kernel.overflow[SYSLOG * 2 + 1] = 5;     /* denied, map full */
	fake_kernel.skipped = 4;
	collect_checks(&f->pt, NULL, "no kernel symbols");

	ASSERT_EQ(f->rec.nprocs, 2);
	p = img(f, PID(5), 500, 3);
	ASSERT_TRUE(p != NULL);
	if (p) {
		ASSERT_STR(p->comm, "ghost");
		ASSERT_EQ(p->uid, 4242);
		ASSERT_TRUE(p->exe == NULL);
		ASSERT_FALSE(p->exited);
	}
	ASSERT_TRUE(img(f, PID(6), 600, 1) == NULL);   /* no check, no line */
	ASSERT_EQ(f->rec.nchecks, 1);
	ASSERT_EQ(f->rec.checks[0].ret, -1);
	ASSERT_U64(checks_of(f, p, SYSLOG), 2);
	ASSERT_U64(f->rec.hdr.lost.ringbuf_full, 3);
	ASSERT_U64(f->rec.hdr.lost.map_full, 5);
	ASSERT_U64(f->rec.hdr.lost.result_lost, 1 + 3);
	ASSERT_U64(f->rec.hdr.lost.hook_skipped, 4);
	ASSERT_EQ(f->rec.hdr.noverflow, 1);
	if (f->rec.hdr.noverflow) {
		ASSERT_EQ(f->rec.hdr.overflow[0].cap, SYSLOG);
		ASSERT_TRUE(f->rec.hdr.overflow[0].denied);
		ASSERT_U64(f->rec.hdr.overflow[0].count, 5);
	}
	ASSERT_U64(f->rec.hdr.checks, 2 + 5);
	fx_free(f);
}

/* Images whose exec and fork events were lost (ringbuf full) are named by
 * the file their check's process ran (ca_meta.exe): the name an exec event
 * of the same inode had, else what the exec hook kept in "exe_names" (an
 * absolute path as given, a memfd by its own name); never a guess. */
TEST(collect_images_whose_events_were_lost_named_by_their_checks_file)
{
	struct fx *f = fx_new();
	struct ca_event e;
	struct rec_process *p;
	struct ca_val *v;

	/* a parent's exec seen: its inode (8:1, 77, gen 3) named */
	e = exec_event(PID(1), 100, 1, 2, "churn", "/usr/bin/churn");
	e.exe_dev = 8 << 20 | 1;
	e.exe_ino = 77;
	e.exe_gen = 3;
	send(f, &e);
	/* a child whose fork event was lost: same file */
	v = fake_check(PID(2), 200, 2, SYSLOG, 0, 0, 2, "churn");
	v->meta.exe = (struct ca_exe_id){ .ino = 77, .gen = 3, .dev = 8 << 20 | 1 };
	/* a process whose exec event was lost: the hook's map names it */
	fake_exe_name(8 << 20 | 1, 78, 1, "/usr/sbin/other", "other", 0);
	v = fake_check(PID(3), 300, 4, SYSLOG, 0, 0, 1, "other");
	v->meta.exe = (struct ca_exe_id){ .ino = 78, .gen = 1, .dev = 8 << 20 | 1 };
	/* a memfd's exec lost: named as /proc would have named it */
	fake_exe_name(1, 5, 0, "/dev/fd/3", "memfd:job", CA_EVF_EXE_UNLINKED);
	v = fake_check(PID(4), 400, 1, SYSLOG, 0, 0, 1, "3");
	v->meta.exe = (struct ca_exe_id){ .ino = 5, .gen = 0, .dev = 1 };
	/* the same inode number on another device, never exec'd while
	 * recording: no name (not the churn's) */
	v = fake_check(PID(5), 500, 1, SYSLOG, 0, 0, 1, "x");
	v->meta.exe = (struct ca_exe_id){ .ino = 77, .gen = 3, .dev = 9 << 20 };
	/* another generation of the hook's inode: a different file */
	v = fake_check(PID(6), 600, 1, SYSLOG, 0, 0, 1, "y");
	v->meta.exe = (struct ca_exe_id){ .ino = 78, .gen = 2, .dev = 8 << 20 | 1 };
	collect_checks(&f->pt, NULL, "no kernel symbols");

	p = img(f, PID(2), 200, 2);
	ASSERT_TRUE(p && p->exe);
	if (p && p->exe)
		ASSERT_STR(p->exe, "/usr/bin/churn");
	p = img(f, PID(3), 300, 4);
	ASSERT_TRUE(p && p->exe);
	if (p && p->exe)
		ASSERT_STR(p->exe, "/usr/sbin/other");
	p = img(f, PID(4), 400, 1);
	ASSERT_TRUE(p && p->exe);
	if (p && p->exe)
		ASSERT_STR(p->exe, "/memfd:job (deleted)");
	p = img(f, PID(5), 500, 1);
	ASSERT_TRUE(p && !p->exe);
	p = img(f, PID(6), 600, 1);
	ASSERT_TRUE(p && !p->exe);
	fx_free(f);
}

/* Two kernel stacks with the same frames (another BPF program attached
 * meanwhile) are one record stack, and their checks one line. */
TEST(collect_stacks_with_the_same_frames_are_one)
{
	static const char syms[] =
		"ffffffff81000000 T do_syslog\n"
		"ffffffff81000200 T __x64_sys_syslog\n";
	const uint64_t ips[] = { 0xffffffff81000010ULL, 0xffffffff81000210ULL };
	struct fx *f = fx_new();
	char err[256] = "";
	struct ksyms *ks = ksyms_parse(syms, strlen(syms), err, sizeof(err));

	ASSERT_TRUE(ks != NULL);
	fx_command(f, PID(1), 100);
	exec_ev(f, PID(1), 100, 1, 2, "churn", "/usr/bin/churn");
	fake_stack(0x1111, ips, 2);
	fake_stack(0x2222, ips, 2);
	fake_check(PID(1), 100, 2, SYSLOG, 0, 0x1111, 3, "churn");
	fake_check(PID(1), 100, 2, SYSLOG, 0, 0x2222, 4, "churn");
	fake_check(PID(1), 100, 2, SYSLOG, 0, 0x3333, 1, "churn");   /* not in the map */
	collect_checks(&f->pt, ks, NULL);   /* takes ks */
	ASSERT_EQ(f->rec.nstacks, 1);
	if (f->rec.nstacks) {
		ASSERT_EQ(f->rec.stacks[0].n, 2);
		ASSERT_HAS(f->rec.stacks[0].frames[0], "do_syslog");
		ASSERT_HAS(f->rec.stacks[0].frames[1], "__x64_sys_syslog");
	}
	ASSERT_EQ(f->rec.nchecks, 2);
	if (f->rec.nchecks == 2) {
		struct rec_check *a = &f->rec.checks[0], *b = &f->rec.checks[1];

		if (a->stack < 0) {
			struct rec_check *t = a;

			a = b;
			b = t;
		}
		ASSERT_EQ(a->stack, 0);
		ASSERT_U64(a->count, 7);
		ASSERT_TRUE(a->stack_error == NULL);
		ASSERT_EQ(b->stack, -1);
		ASSERT_STR(b->stack_error, "stack not found in the stack map");
	}
	fx_free(f);
}

/*
 * -a: the processes that ran before recording keep what the snapshot and
 * /proc said of them then (the exe, read before the privilege drop), if
 * the event's process is that one; a child forked by one of them that has
 * no line of its own runs its program.
 */
TEST(proctable_all_processes_from_before_recording)
{
	struct fx *f = fx_new();
	struct ca_task *t;
	struct rec_process *p;

	f->o.all = true;
	f->pt.before.n = 2;
	f->pt.before.t = xcalloc(3, sizeof(struct ca_task));
	t = &f->pt.before.t[0];
	*t = (struct ca_task){ .tgid = PID(10), .ppid = 1, .exec_id = 1, .uid = 0, .pstart = 50 };
	strcpy(t->comm, "daemon");
	t = &f->pt.before.t[1];
	*t = (struct ca_task){ .tgid = PID(12), .ppid = 1, .exec_id = 4, .uid = 7, .pstart = 55 };
	strcpy(t->comm, "sleeper");
	tasks_sort(&f->pt.before);
	f->pt.before_exe = xcalloc(3, sizeof(char *));
	f->pt.before_exe[0] = xstrdup("/usr/sbin/daemon");
	f->pt.before_exe[1] = xstrdup("/usr/bin/sleeper");

	first_ev(f, PID(10), 50, 99, 1, "daemon");
	p = img(f, PID(10), 50, 1);
	ASSERT_TRUE(p != NULL);
	if (p) {
		ASSERT_STR(p->exe, "/usr/sbin/daemon");
		ASSERT_EQ(p->ppid, 1);   /* the snapshot's, not the event's */
		ASSERT_EQ(p->uid, 0);
	}
	/* the pid given to another process since the snapshot: not its exe */
	first_ev(f, PID(10), 70, 99, 1, "daemon");
	p = img(f, PID(10), 70, 1);
	ASSERT_TRUE(p && !p->exe && p->ppid == 99);
	ASSERT_STR(comm_of(f, PID(10), 70, 1), "daemon");
	/* children: of a parent with a line, of one with none yet */
	fork_ev(f, PID(11), 60, PID(10), 50, 1, "daemon");
	ASSERT_STR(exe_of(f, PID(11), 60, 1), "/usr/sbin/daemon");
	fork_ev(f, PID(13), 65, PID(12), 55, 4, "sleeper");
	ASSERT_STR(exe_of(f, PID(13), 65, 4), "/usr/bin/sleeper");
	/* a parent exec'd since (another exec id): its program is not known */
	fork_ev(f, PID(14), 66, PID(12), 55, 5, "sleeper");
	ASSERT_TRUE(img(f, PID(14), 66, 5) && !img(f, PID(14), 66, 5)->exe);
	ASSERT_EQ(f->rec.nprocs, 5);
	/* -a follows no set of processes: no end to wait for */
	ASSERT_EQ(f->pt.live.n, 0);
	fx_free(f);
}

/*
 * -p and the command's tree: forks are followed, exits let go of exactly
 * that process (a pid given out again is another); a followed pid that no
 * process has is gone; when exit events were lost a snapshot says which
 * are left, and children forked unseen are taken (and followed in the
 * kernel). This process stands for a live one.
 */
TEST(proctable_followed_set_after_lost_events)
{
	struct fx *f = fx_new();
	uint32_t self = (uint32_t)getpid();
	struct ca_task *t;

	f->o.npids = 1;
	fork_ev(f, PID(1), 100, 1, 5, 1, "a");
	fork_ev(f, self, 700, 1, 5, 1, "self");
	ASSERT_EQ(f->pt.live.n, 2);
	exit_ev(f, PID(1), 101, 1, "a", 0);   /* another process of that pid */
	ASSERT_EQ(f->pt.live.n, 2);
	ASSERT_TRUE(procset_has(&f->pt.live, PID(1), 100));
	exit_ev(f, PID(1), 100, 1, "a", 0);
	ASSERT_FALSE(procset_has(&f->pt.live, PID(1), 100));
	procset_add(&f->pt.live, PID(2), 200);   /* exited unseen */
	ASSERT_TRUE(proctable_any_followed(&f->pt));
	ASSERT_EQ(f->pt.live.n, 1);
	ASSERT_EQ(fake_kernel.snapshots, 0);   /* nothing lost: no snapshot */

	/* exit events lost: the snapshot has this process and a child of it
	 * forked unseen, and a process of another pid (not ours) */
	fake_kernel.stats[CA_STAT_RINGBUF_FULL] = 2;
	fake_kernel.ntasks = 3;
	t = fake_kernel.tasks;
	t[0] = (struct ca_task){ .tgid = self, .ppid = 1, .exec_id = 1, .pstart = 700 };
	t[1] = (struct ca_task){ .tgid = PID(8), .ppid = self, .parent_start = 700, .exec_id = 1,
				 .pstart = 800, .uid = 1000, .euid = 1000 };
	strcpy(t[1].comm, "kid");
	t[2] = (struct ca_task){ .tgid = PID(9), .ppid = 1, .exec_id = 1, .pstart = 900 };
	ASSERT_TRUE(proctable_any_followed(&f->pt));
	ASSERT_EQ(fake_kernel.snapshots, 1);
	ASSERT_U64(f->pt.ringbuf_lost_seen, 2);
	ASSERT_EQ(f->pt.live.n, 2);
	ASSERT_TRUE(procset_has(&f->pt.live, PID(8), 800));
	ASSERT_EQ(fake_kernel.nfollowed, 1);
	ASSERT_EQ(fake_kernel.followed[0].tgid, PID(8));
	ASSERT_U64(fake_kernel.followed[0].pstart, 800);
	ASSERT_STR(comm_of(f, PID(8), 800, 1), "kid");
	ASSERT_TRUE(img(f, PID(8), 800, 1) && img(f, PID(8), 800, 1)->ppid == self);
	ASSERT_TRUE(img(f, PID(9), 900, 1) == NULL);

	/* the same count again: no snapshot; PID(8) has no process now */
	ASSERT_TRUE(proctable_any_followed(&f->pt));
	ASSERT_EQ(fake_kernel.snapshots, 1);
	ASSERT_EQ(f->pt.live.n, 1);

	/* more lost, and our pid now another process's (another start) */
	fake_kernel.stats[CA_STAT_RINGBUF_FULL] = 3;
	t[0].pstart = 701;
	t[1].parent_start = 701;
	ASSERT_FALSE(proctable_any_followed(&f->pt));
	ASSERT_EQ(fake_kernel.snapshots, 2);
	ASSERT_EQ(f->pt.live.n, 0);
	fx_free(f);
}

/* capset(2)'s sets, unioned per image; a new key goes to the monitor and
 * makes no line. */
static int newkeys;
static uint16_t newkey_cap;

static void on_newkey(void *ctx, const struct ca_event *e)
{
	newkeys++;
	newkey_cap = e->cap;
}

TEST(proctable_capset_and_newkey_events)
{
	struct fx *f = fx_new();
	struct ca_event e = ev(CA_EV_CAPSET, PID(1), 100, 2, "svc");
	struct rec_process *p;

	e.set_effective = 1u << 10;
	e.set_permitted = 1u << 10;
	send(f, &e);
	e.set_effective = 1u << 12;
	e.set_permitted = (1u << 12) | (1u << 10);
	e.set_inheritable = 1u << 1;
	send(f, &e);
	p = img(f, PID(1), 100, 2);
	ASSERT_TRUE(p && p->has_capset);
	if (p) {
		ASSERT_U64(p->capset_eff, (1u << 10) | (1u << 12));
		ASSERT_U64(p->capset_prm, (1u << 10) | (1u << 12));
		ASSERT_U64(p->capset_inh, 1u << 1);
		ASSERT_STR(p->comm, "svc");
	}
	e = ev(CA_EV_NEWKEY, PID(3), 300, 1, "x");
	e.cap = SYSLOG;
	send(f, &e);                    /* no monitor: nothing */
	f->pt.on_newkey = on_newkey;
	newkeys = 0;
	send(f, &e);
	ASSERT_EQ(newkeys, 1);
	ASSERT_EQ(newkey_cap, SYSLOG);
	ASSERT_EQ(f->rec.nprocs, 1);
	fx_free(f);
}

/* This process's start, as the kernel's start_boottime (ns): what /proc
 * shows in clock ticks, back in ns. */
static uint64_t self_boot_ns(void)
{
	char buf[4096], *s;
	unsigned long long ticks = 0;
	FILE *fp = fopen("/proc/self/stat", "r");
	size_t n = fp ? fread(buf, 1, sizeof(buf) - 1, fp) : 0;
	int i;

	if (fp)
		fclose(fp);
	buf[n] = '\0';
	s = strrchr(buf, ')');
	for (i = 0; s && i < 20; i++)   /* field 22: 20 fields after ")" and state */
		s = strchr(s + 1, ' ');
	if (s)
		ticks = strtoull(s + 1, NULL, 10);
	return ticks * (1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK));
}

/* An image first seen at an exit (or check) with its boot time: /proc
 * names it while it lives, if its name is the one the kernel gave. */
TEST(proctable_image_named_by_proc_when_it_is_the_same_process)
{
	struct fx *f = fx_new();
	uint32_t self = (uint32_t)getpid();
	struct procinfo pi;
	struct ca_event e;
	struct rec_process *p;

	if (procinfo_read((pid_t)self, &pi) || !pi.exe[0]) {
		SKIP("/proc/self cannot be read here");
		fx_free(f);
		return;
	}
	e = ev(CA_EV_FIRST, self, 100, 1, pi.comm);
	e.boot_start = self_boot_ns();
	send(f, &e);
	p = img(f, self, 100, 1);
	ASSERT_TRUE(p != NULL);
	if (p) {
		ASSERT_STR(p->exe, pi.exe);
		ASSERT_EQ(p->ppid, getppid());
		ASSERT_EQ(p->uid, getuid());
	}
	/* the kernel's name is not /proc's: it exec'd since, exe unknown */
	e = ev(CA_EV_FIRST, self, 100, 2, "before-exec");
	e.boot_start = self_boot_ns();
	send(f, &e);
	p = img(f, self, 100, 2);
	ASSERT_STR(comm_of(f, self, 100, 2), "before-exec");
	ASSERT_TRUE(p && !p->exe && p->ppid == (uint32_t)getppid());
	/* another boot time: another process, /proc not taken */
	e = ev(CA_EV_FIRST, self, 100, 3, pi.comm);
	e.boot_start = self_boot_ns() + 3600ULL * 1000000000ULL;
	e.ppid = 4;
	send(f, &e);
	p = img(f, self, 100, 3);
	ASSERT_TRUE(p && !p->exe && p->ppid == 4);
	fx_free(f);
}
