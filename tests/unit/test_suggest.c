// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include <string.h>

#include "facts/capnames.h"
#include "facts/capsites.h"
#include "output/output.h"
#include "analyze/suggest.h"
#include "test.h"
#include "lib/util.h"

/* Frames shared by the clone3() path on 6.18.44 (above alloc_pid). */
#define CLONE_TAIL "copy_process+0x1234", "kernel_clone+0x99", "__do_sys_clone3+0x1f0", \
	"do_syscall_64+0x71"
#define NS_HEAD "cap_capable+0x83", "security_capable+0x3b", "ns_capable+0x2d"

static const char *const cr_at_alloc_pid[] = { NS_HEAD, "alloc_pid+0xcd", CLONE_TAIL };
static const char *const sa_at_alloc_pid[] = { NS_HEAD, "alloc_pid+0x1bc", CLONE_TAIL };
/* same function names, but another call of alloc_pid (different caller offset) */
static const char *const sa_other_call[] = { NS_HEAD, "alloc_pid+0x1bc", "copy_process+0x9999",
	"kernel_clone+0x99", "__do_sys_clone3+0x1f0", "do_syscall_64+0x71" };
static const char *const unshare_stack[] = { NS_HEAD, "unshare_nsproxy_namespaces+0x4c",
	"ksys_unshare+0x1a2", "do_syscall_64+0x71" };
static const char *const next_id[] = { "cap_capable+0x83", "security_capable+0x3b",
	"capable+0x29", "bpf_obj_get_next_id+0x2a", "__sys_bpf+0x700" };
#define BPF_TOKEN "cap_capable+0x83", "security_capable+0x3b", "ns_capable+0x2d", \
	"bpf_token_capable+0x22"
static const char *const prog_load_bpf[] = { BPF_TOKEN, "bpf_prog_load+0x15e", "__sys_bpf+0x1c0" };
static const char *const prog_load_bpf_sa[] = { "cap_capable+0x83", "security_capable+0x3b",
	"ns_capable+0x2d", "bpf_token_capable+0x4e", "bpf_prog_load+0x15e", "__sys_bpf+0x1c0" };
static const char *const prog_load_pm[] = { BPF_TOKEN, "bpf_prog_load+0x294", "__sys_bpf+0x1c0" };
static const char *const prog_load_pm_sa[] = { "cap_capable+0x83", "security_capable+0x3b",
	"ns_capable+0x2d", "bpf_token_capable+0x4e", "bpf_prog_load+0x294", "__sys_bpf+0x1c0" };
static const char *const inline_x[] = { "cap_capable+0x83", "security_capable+0x3b",
	"capable+0x29", "perf_trace_event_init+0xb5", "perf_init_event+0x10", "do_syscall_64+0x71" };
static const char *const inline_sa[] = { "cap_capable+0x83", "security_capable+0x3b",
	"capable+0x29", "perf_trace_event_init+0x1c4", "perf_init_event+0x10", "do_syscall_64+0x71" };
static const char *const array_pm[] = { BPF_TOKEN, "array_map_alloc+0x134", "map_create+0x300" };
static const char *const syslog_stack[] = { "cap_capable+0x83", "security_capable+0x3b",
	"capable+0x29", "do_syslog+0xa9", "__x64_sys_syslog+0x1a" };
static const char *const vm_stack[] = { "cap_capable+0x83", "security_vm_enough_memory_mm+0x36",
	"do_mmap+0x494" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct record rec;

static void new_record(const char *kernel)
{
	record_free(&rec);
	rec.hdr.kernel = xstrdup(kernel);
	rec.hdr.attach = xstrdup("tp_btf");
	rec.hdr.syscall_results = true;
	record_add_process(&rec, 100, 0, 1)->comm = xstrdup("app");
}

static struct rec_check *check(int cap, int ret, uint64_t count, int sys,
			       const char *const *frames, size_t n)
{
	struct rec_check *c = record_add_check(&rec);

	c->pid = 100;
	c->exec_id = 1;
	c->cap = cap;
	c->ret = ret;
	c->count = count;
	c->syscall = sys;
	c->init_ns = true;
	c->first_ns = 1000 + (int64_t)rec.nchecks;
	c->last_ns = c->first_ns;
	c->comm = record_intern(&rec, "app", 3);
	c->stack = test_stack(&rec, frames, n);
	return c;
}

static void build(struct suggestion *s, const char *program)
{
	struct suggest_opts o = { .program = program };

	ASSERT_EQ(suggest_build(&rec, &o, s), 0);
}

TEST(suggest_observed_fallback_replaces_sys_admin)
{
	struct suggestion s;

	new_record("6.18.44-fc");
	check(40, -1, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	check(21, 0, 1, 435, sa_at_alloc_pid, N(sa_at_alloc_pid));
	build(&s, NULL);
	ASSERT_U64(s.required, 1ULL << 40);
	ASSERT_U64(s.observed, 1ULL << 21);
	ASSERT_U64(s.denied, 0);
	ASSERT_EQ(s.nrepl, 1);
	ASSERT_EQ(s.repl[0].with, 40);
	ASSERT_EQ(s.repl[0].evidence, EV_OBSERVED);
	ASSERT_STR(s.repl[0].since, "5.9");
	ASSERT_FALSE(s.repl[0].kernel_too_old);
	ASSERT_EQ(s.repl[0].nsites, 1);
	ASSERT_STR(s.repl[0].sites[0].func, "alloc_pid");
	ASSERT_STR(s.repl[0].sites[0].fact->operation, "clone3() with set_tid");
	ASSERT_EQ(s.nkeep, 0);
	ASSERT_EQ(s.ndeny, 0);
	ASSERT_STR(cap_alias(40), "CAP_RESTORE");
	suggest_free(&s);
}

TEST(suggest_plain_root_requires_the_narrow_capability)
{
	struct suggestion s;

	new_record("6.18.44");
	check(40, 0, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	build(&s, NULL);
	ASSERT_U64(s.required, 1ULL << 40);
	ASSERT_EQ(s.nrepl, 0);
	ASSERT_EQ(s.nkeep, 1);
	ASSERT_EQ(s.keep[0].cap, 40);
	ASSERT_STR(s.keep[0].sites[0].func, "alloc_pid");
	suggest_free(&s);
}

TEST(suggest_old_kernel_record_uses_the_kernel_fact_table)
{
	struct suggestion s;

	/* Linux 5.4: alloc_pid asked for CAP_SYS_ADMIN only */
	new_record("5.4.0-150-generic");
	check(21, 0, 2, 435, sa_at_alloc_pid, N(sa_at_alloc_pid));
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 1);
	ASSERT_EQ(s.repl[0].with, 40);
	ASSERT_EQ(s.repl[0].evidence, EV_FACT);
	ASSERT_STR(s.repl[0].since, "5.9");
	ASSERT_TRUE(s.repl[0].kernel_too_old);
	ASSERT_U64(s.repl[0].sites[0].count, 2);
	ASSERT_U64(s.required, 1ULL << 40);
	ASSERT_EQ(s.nkeep, 0);
	suggest_free(&s);
}

TEST(suggest_unpaired_sys_admin_at_a_site_the_source_says_takes_the_narrow_one)
{
	struct suggestion s;

	/* no observed fallback, but alloc_pid() asks checkpoint_restore_ns_capable()
	 * at its only check in the source (kernel/pid.c): CAP_CHECKPOINT_RESTORE */
	new_record("6.18.44");
	check(21, 0, 1, 435, sa_at_alloc_pid, N(sa_at_alloc_pid));
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 1);
	ASSERT_EQ(s.repl[0].replace, 21);
	ASSERT_EQ(s.repl[0].with, 40);
	ASSERT_EQ(s.repl[0].evidence, EV_SOURCE);
	ASSERT_STR(s.repl[0].sites[0].ksite->file, "kernel/pid.c");
	ASSERT_EQ(s.nkeep, 0);
	ASSERT_U64(s.required, 1ULL << 40);
	/* the nearest older table for 6.18: 6.12's */
	ASSERT_STR(s.ktab->kernel, "6.12");
	ASSERT_FALSE(s.ktab_exact);
	suggest_free(&s);
}

TEST(suggest_real_sys_admin_is_kept_with_reason)
{
	struct suggestion s;

	new_record("6.18.44");
	check(21, 0, 1, 272, unshare_stack, N(unshare_stack));
	check(21, 0, 3, 321, next_id, N(next_id));
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 0);
	ASSERT_EQ(s.nkeep, 1);
	ASSERT_EQ(s.keep[0].cap, 21);
	ASSERT_EQ(s.keep[0].nsites, 2);
	ASSERT_STR(s.keep[0].sites[0].func, "bpf_obj_get_next_id");
	ASSERT_STR(s.keep[0].sites[1].func, "unshare_nsproxy_namespaces");
	ASSERT_TRUE(s.keep[0].why != NULL);
	ASSERT_HAS(s.keep[0].why->source, "kernel/bpf/syscall.c bpf_obj_get_next_id(): capable(CAP_SYS_ADMIN)");
	suggest_free(&s);
}

TEST(suggest_does_not_pair_across_different_calls)
{
	struct suggestion s;

	new_record("6.18.44");
	check(40, -1, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	check(21, 0, 1, 435, sa_other_call, N(sa_other_call));
	build(&s, NULL);
	/* not paired: replaced by what the source says, not by observation */
	ASSERT_EQ(s.nrepl, 1);
	ASSERT_EQ(s.repl[0].evidence, EV_SOURCE);
	ASSERT_EQ(s.ndeny, 1);          /* and the narrow denial had no granted partner */
	ASSERT_EQ(s.deny[0].cap, 40);
	ASSERT_EQ(s.deny[0].alt, -1);
	suggest_free(&s);
}

TEST(suggest_does_not_pair_across_syscalls)
{
	struct suggestion s;

	new_record("6.18.44");
	check(40, -1, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	check(21, 0, 1, 56, sa_at_alloc_pid, N(sa_at_alloc_pid));
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 1);
	ASSERT_EQ(s.repl[0].evidence, EV_SOURCE);
	ASSERT_EQ(s.ndeny, 1);
	suggest_free(&s);
}

/* A pid given out again is another process: the second process's
 * CAP_SYS_ADMIN is no fallback of the first one's denial. */
TEST(suggest_does_not_pair_across_processes_sharing_a_pid)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.18.44");
	record_add_process(&rec, 100, 5000, 1)->comm = xstrdup("other");
	check(40, -1, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	c = check(21, 0, 1, 435, sa_at_alloc_pid, N(sa_at_alloc_pid));
	c->start_ns = 5000;
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 1);
	ASSERT_EQ(s.repl[0].evidence, EV_SOURCE);
	ASSERT_EQ(s.ndeny, 1);
	ASSERT_EQ(s.deny[0].cap, 40);
	ASSERT_EQ(s.deny[0].alt, -1);
	suggest_free(&s);
	/* the same two checks in one process: the observed fallback */
	c->start_ns = 0;
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 1);
	suggest_free(&s);
}

TEST(suggest_pairs_each_narrow_check_with_its_own_fallback)
{
	struct suggestion s;

	/* bpf_prog_load asks CAP_BPF and CAP_PERFMON through bpf_token_capable() */
	new_record("6.18.44");
	check(39, -1, 1, 321, prog_load_bpf, N(prog_load_bpf));
	check(21, 0, 1, 321, prog_load_bpf_sa, N(prog_load_bpf_sa));
	check(38, -1, 1, 321, prog_load_pm, N(prog_load_pm));
	check(21, 0, 1, 321, prog_load_pm_sa, N(prog_load_pm_sa));
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 2);
	ASSERT_EQ(s.repl[0].with, 38);
	ASSERT_EQ(s.repl[1].with, 39);
	ASSERT_STR(s.repl[0].sites[0].func, "bpf_prog_load");
	ASSERT_STR(s.repl[1].sites[0].func, "bpf_prog_load");
	ASSERT_U64(s.required, (1ULL << 38) | (1ULL << 39));
	ASSERT_EQ(s.nkeep, 0);
	suggest_free(&s);
}

TEST(suggest_pairs_inline_fallback_at_a_later_offset)
{
	struct suggestion s;

	new_record("6.18.44");
	check(38, -1, 1, 298, inline_x, N(inline_x));
	check(21, 0, 1, 298, inline_sa, N(inline_sa));
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 1);
	ASSERT_EQ(s.repl[0].with, 38);
	ASSERT_STR(s.repl[0].sites[0].func, "perf_trace_event_init");
	suggest_free(&s);
}

TEST(suggest_fallback_must_follow_the_narrow_check)
{
	struct suggestion s;

	/* the only SYS_ADMIN check on that path happened before the narrow one */
	new_record("6.18.44");
	check(21, 0, 1, 298, inline_sa, N(inline_sa));
	check(38, -1, 1, 298, inline_x, N(inline_x));
	rec.checks[0].first_ns = rec.checks[0].last_ns = 10;
	rec.checks[1].first_ns = rec.checks[1].last_ns = 20;
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 0);
	suggest_free(&s);
}

TEST(suggest_denials_blocking_advisory_and_both_denied)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.18.44");
	/* no capabilities: narrow and SYS_ADMIN both denied, clone3 failed */
	c = check(40, -1, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	c->sys_failed = 1;
	c = check(21, -1, 1, 435, sa_at_alloc_pid, N(sa_at_alloc_pid));
	c->sys_failed = 1;
	/* CAP_BPF only: array map spectre check denied, the map was created */
	check(38, -1, 2, 321, array_pm, N(array_pm));
	build(&s, NULL);
	ASSERT_EQ(s.ndeny, 2);
	ASSERT_EQ(s.deny[0].kind, DENY_BLOCKING);
	ASSERT_EQ(s.deny[0].cap, 40);
	ASSERT_EQ(s.deny[0].alt, 21);
	ASSERT_STR(s.deny[0].func, "alloc_pid");
	ASSERT_U64(s.deny[0].sys_failed, 1);
	ASSERT_EQ(s.deny[1].kind, DENY_ADVISORY);
	ASSERT_EQ(s.deny[1].cap, 38);
	ASSERT_STR(s.deny[1].func, "array_map_alloc");
	ASSERT_U64(s.denied, (1ULL << 40) | (1ULL << 38));
	ASSERT_U64(s.required, 0);
	suggest_free(&s);
}

TEST(suggest_without_syscall_results_uses_advisory_facts)
{
	struct suggestion s;

	new_record("6.18.44");
	rec.hdr.syscall_results = false;
	check(38, -1, 2, 321, array_pm, N(array_pm));
	check(40, -1, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	build(&s, NULL);
	ASSERT_EQ(s.ndeny, 2);
	ASSERT_EQ(s.deny[0].kind, DENY_ADVISORY);
	ASSERT_EQ(s.deny[1].kind, DENY_UNKNOWN);
	suggest_free(&s);
}

TEST(suggest_explains_capabilities_without_sys_admin_fallback)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.18.44");
	c = check(34, -1, 1, 103, syslog_stack, N(syslog_stack));
	c->sys_failed = 1;
	build(&s, NULL);
	ASSERT_EQ(s.ndeny, 1);
	ASSERT_EQ(s.deny[0].kind, DENY_BLOCKING);
	ASSERT_TRUE(s.deny[0].fact && s.deny[0].fact->kind == KF_ONLY);
	ASSERT_STR(s.deny[0].fact->sysadmin_until, "6.8");
	suggest_free(&s);
}

TEST(suggest_noaudit_checks_never_count)
{
	struct suggestion s;

	new_record("6.18.44");
	check(21, 0, 30, 9, vm_stack, N(vm_stack));
	check(21, -1, 3, 9, vm_stack, N(vm_stack));
	build(&s, NULL);
	ASSERT_U64(s.required, 0);
	ASSERT_U64(s.observed, 0);
	ASSERT_U64(s.denied, 0);
	ASSERT_EQ(s.nkeep + s.nrepl + s.ndeny, 0);
	suggest_free(&s);
}

TEST(suggest_program_filter_and_per_program_sets)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.18.44");
	record_add_process(&rec, 100, 0, 0)->comm = xstrdup("setpriv");
	rec.procs[1].exe = xstrdup("/usr/bin/setpriv");
	c = check(8, 0, 1, 126, unshare_stack, N(unshare_stack));
	c->exec_id = 0;
	check(40, 0, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	build(&s, NULL);
	ASSERT_U64(s.required, (1ULL << 8) | (1ULL << 40));
	ASSERT_U64(s.progs[0].required, 1ULL << 40);  /* app */
	ASSERT_U64(s.progs[1].required, 1ULL << 8);   /* setpriv */
	suggest_free(&s);
	build(&s, "app");
	ASSERT_U64(s.required, 1ULL << 40);
	ASSERT_EQ(s.images_matched, 1);
	suggest_free(&s);
	build(&s, "setpriv");   /* by exe basename or comm */
	ASSERT_U64(s.required, 1ULL << 8);
	suggest_free(&s);
	build(&s, "nope");
	ASSERT_EQ(s.images_matched, 0);
	ASSERT_U64(s.required, 0);
	suggest_free(&s);
}

static char *emit(const char *kind, struct suggestion *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_EQ(emit_snippet(f, kind, s), 0);
	fclose(f);
	return buf;
}

TEST(suggest_emit_snippets)
{
	struct suggestion s;
	char *out;

	new_record("6.18.44");
	rec.hdr.version = REC_VERSION;   /* it would say if an exec gained privilege */
	rec.procs[0].exe = xstrdup("/opt/app/bin/app");
	rec.hdr.argv = xcalloc(5, sizeof(char *));
	rec.hdr.argv[rec.hdr.argc++] = xstrdup("capaudit");
	rec.hdr.argv[rec.hdr.argc++] = xstrdup("record");
	rec.hdr.argv[rec.hdr.argc++] = xstrdup("--");
	rec.hdr.argv[rec.hdr.argc++] = xstrdup("app");
	rec.hdr.argv[rec.hdr.argc++] = xstrdup("it's");
	check(40, -1, 1, 435, cr_at_alloc_pid, N(cr_at_alloc_pid));
	check(21, 0, 1, 435, sa_at_alloc_pid, N(sa_at_alloc_pid));
	check(39, 0, 1, 321, prog_load_bpf, N(prog_load_bpf));
	build(&s, NULL);
	out = emit("setcap", &s);
	ASSERT_STR(out, "setcap cap_bpf,cap_checkpoint_restore+ep /opt/app/bin/app\n");
	free(out);
	/* root (uid 0): no ambient set, no user; nothing gained at exec */
	out = emit("systemd", &s);
	ASSERT_STR(out, "# /etc/systemd/system/NAME.service.d/capaudit.conf\n"
		   "# then: systemctl daemon-reload && systemctl restart NAME.service\n"
		   "[Service]\n"
		   "# each empty assignment resets what the unit itself set\n"
		   "CapabilityBoundingSet=\n"
		   "CapabilityBoundingSet=CAP_BPF CAP_CHECKPOINT_RESTORE\n"
		   "AmbientCapabilities=\n"
		   "NoNewPrivileges=yes\n");
	free(out);
	out = emit("docker", &s);
	ASSERT_STR(out, "--cap-drop ALL --cap-add BPF --cap-add CHECKPOINT_RESTORE "
		   "--security-opt no-new-privileges\n");
	free(out);
	out = emit("compose", &s);
	ASSERT_STR(out, "# compose.yaml: under services: NAME:\n"
		   "cap_drop: [\"ALL\"]\n"
		   "cap_add: [\"BPF\", \"CHECKPOINT_RESTORE\"]\n"
		   "security_opt: [\"no-new-privileges:true\"]\n");
	free(out);
	out = emit("kubernetes", &s);
	ASSERT_STR(out, "securityContext:\n  capabilities:\n    drop: [\"ALL\"]\n"
		   "    add: [\"BPF\", \"CHECKPOINT_RESTORE\"]\n"
		   "  allowPrivilegeEscalation: false\n");
	free(out);
	out = emit("capsh", &s);
	ASSERT_HAS(out, " --inh=cap_bpf,cap_checkpoint_restore --addamb=cap_bpf,cap_checkpoint_restore");
	ASSERT_HAS(out, "cap_sys_admin,");
	ASSERT_HAS(out, "-- -c 'app '\\''it'\\''\\'\\'''\\''s'\\'''\n");
	free(out);
	ASSERT_EQ(emit_snippet(stdout, "bogus", &s), -1);
	suggest_free(&s);
	record_free(&rec);
}

static const char *const netlink_stack[] = { "cap_capable+0x83", "security_capable+0x3b",
	"file_ns_capable+0x2a", "netlink_ns_capable+0x41", "rtnetlink_rcv_msg+0x11c",
	"netlink_rcv_skb+0x58", "netlink_unicast+0x19f", "netlink_sendmsg+0x222" };
static const char *const capset_stack[] = { "cap_capable+0x83", "cap_capset+0x3e",
	"security_capset+0x4d", "__do_sys_capset+0x154" };
static const char *const bpf_check_pm[] = { BPF_TOKEN, "bpf_check+0x124", "bpf_prog_load+0x6b0",
	"__sys_bpf+0x1c0" };

/* Checks the host's capability sets did not decide make no requirement:
 * inside a user namespace, granted by owning one, or before format 3 a
 * child namespace. Each is set aside with its reason. */
TEST(suggest_user_namespace_checks_are_set_aside)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.18.44");
	c = check(12, 0, 3, 44, netlink_stack, N(netlink_stack));
	c->init_ns = false;
	c->userns = RU_INSIDE;
	c = check(21, 0, 1, 272, unshare_stack, N(unshare_stack));
	c->init_ns = false;
	c->userns = RU_OWNER;
	c = check(21, -1, 1, 272, unshare_stack, N(unshare_stack));
	c->init_ns = true;
	c->userns = RU_INSIDE;   /* inside one, asking about the host: never the host's to give */
	c = check(34, 0, 2, 103, syslog_stack, N(syslog_stack));   /* a host check */
	build(&s, NULL);
	ASSERT_U64(s.required, 1ULL << 34);
	ASSERT_U64(s.denied, 0);
	ASSERT_EQ(s.ndeny, 0);
	ASSERT_EQ(s.naside, 3);
	ASSERT_EQ(s.aside[0].why, ASIDE_INSIDE);
	ASSERT_EQ(s.aside[0].cap, 12);
	ASSERT_STR(s.aside[0].func, "rtnetlink_rcv_msg");
	ASSERT_U64(s.aside[0].granted, 3);
	ASSERT_EQ(s.aside[1].why, ASIDE_INSIDE);
	ASSERT_EQ(s.aside[1].cap, 21);
	ASSERT_U64(s.aside[1].denied, 1);
	ASSERT_EQ(s.aside[2].why, ASIDE_OWNER);
	ASSERT_EQ(s.aside[2].cap, 21);
	suggest_free(&s);
}

/* capset()'s CAP_SETPCAP check marked no_effect and a granted CAP_PERFMON
 * at bpf_check (the kernel facts call it advisory) are not required; the
 * sets asked for with capset() and never used are listed, not required. */
/* A capset() that could not matter is set aside; the BPF verifier's
 * CAP_PERFMON is not set aside but left to verify (only loading the
 * program without it shows whether the stricter rules accept it); an
 * array map's hardening is set aside. */
TEST(suggest_no_effect_and_verifier_grants_are_not_required)
{
	static const char *const array_pm[] = { "cap_capable+0x83", "security_capable+0x3b",
		"bpf_token_capable+0x1c", "array_map_alloc+0x3a", "map_create+0x1e0",
		"__sys_bpf+0x5d1" };
	struct suggestion s;
	struct rec_check *c;

	new_record("6.18.44");
	rec.procs[0].has_capset = true;
	rec.procs[0].capset_prm = 1ULL << 12 | 1ULL << 13;   /* NET_ADMIN, NET_RAW */
	c = check(8, 0, 1, 126, capset_stack, N(capset_stack));
	c->no_effect = true;
	check(38, 0, 4, 321, bpf_check_pm, N(bpf_check_pm));
	check(38, 0, 2, 321, array_pm, N(array_pm));
	check(39, 0, 1, 321, prog_load_bpf, N(prog_load_bpf));
	build(&s, NULL);
	ASSERT_U64(s.required, 1ULL << 39);
	ASSERT_U64(s.undecided_caps, 1ULL << 38);
	ASSERT_EQ(s.nundecided, 1);
	ASSERT_EQ(s.undecided[0].why, UD_VERIFIER);
	ASSERT_STR(s.undecided[0].func, "bpf_check");
	ASSERT_U64(s.undecided[0].count, 4);
	ASSERT_TRUE(s.undecided[0].fact != NULL && s.undecided[0].fact->kind == KF_VERIFIER);
	ASSERT_EQ(s.naside, 2);
	ASSERT_EQ(s.aside[0].why, ASIDE_NO_EFFECT);
	ASSERT_EQ(s.aside[0].cap, 8);
	ASSERT_EQ(s.aside[1].why, ASIDE_ADVISORY);
	ASSERT_EQ(s.aside[1].cap, 38);
	ASSERT_STR(s.aside[1].func, "array_map_alloc");
	ASSERT_U64(s.aside[1].granted, 2);
	ASSERT_U64(s.asked, 1ULL << 12 | 1ULL << 13);
	suggest_free(&s);
}

/* overlayfs acting as its mounter: checks against credentials that were not
 * the program's own are set aside, the program's own check of the same
 * capability is still required. */
static const char *const ovl_xattr[] = { "cap_capable+0x83", "security_capable+0x3b",
	"xattr_permission+0x9a", "vfs_getxattr+0x2f", "ovl_copy_up_one+0x1f0",
	"ovl_copy_up_flags+0x9b", "ovl_open+0x4f", "do_dentry_open+0x1e2" };
static const char *const chown_stack[] = { "cap_capable+0x83", "capable_wrt_inode_uidgid+0x3f",
	"setattr_prepare+0x1c1", "notify_change+0x20b", "chown_common+0x2a4" };

TEST(suggest_foreign_credentials_are_not_required)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.18.44");
	c = check(21, 0, 3, 257, ovl_xattr, N(ovl_xattr));
	c->foreign_cred = true;
	c = check(0, 0, 1, 92, chown_stack, N(chown_stack));
	c->foreign_cred = true;     /* the copy-up's chown, as the mounter */
	check(0, 0, 1, 92, chown_stack, N(chown_stack));   /* the program's own */
	build(&s, NULL);
	ASSERT_U64(s.required, 1ULL << 0);
	ASSERT_EQ(s.naside, 2);
	ASSERT_EQ(s.aside[0].why, ASIDE_FOREIGN);
	ASSERT_EQ(s.aside[1].why, ASIDE_FOREIGN);
	ASSERT_TRUE((s.aside[0].cap == 21 && s.aside[1].cap == 0) ||
		    (s.aside[0].cap == 0 && s.aside[1].cap == 21));
	suggest_free(&s);
}

/* A denial in a netlink request is blocking though sendmsg() succeeded;
 * other errors and interruptions have kinds of their own. */
TEST(suggest_denial_kinds_netlink_other_error_interrupted)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.18.44");
	check(12, -1, 1, 46, netlink_stack, N(netlink_stack));   /* sys_failed 0 */
	c = check(34, -1, 2, 103, syslog_stack, N(syslog_stack));
	c->sys_other = 2;
	c->sys_errno = 19;   /* ENODEV */
	c = check(19, -1, 1, 101, inline_x, N(inline_x));
	c->sys_restart = 1;
	build(&s, NULL);
	ASSERT_EQ(s.ndeny, 3);
	ASSERT_EQ(s.deny[0].kind, DENY_BLOCKING);
	ASSERT_EQ(s.deny[0].cap, 12);
	ASSERT_TRUE(s.deny[0].in_ack);
	ASSERT_EQ(s.deny[1].kind, DENY_OTHER_ERROR);
	ASSERT_EQ(s.deny[1].sys_errno, 19);
	ASSERT_U64(s.deny[1].sys_other, 2);
	ASSERT_EQ(s.deny[2].kind, DENY_INCONCLUSIVE);
	ASSERT_STR(denial_kind_name(DENY_OTHER_ERROR), "other-error");
	ASSERT_TRUE(denial_kind_rank(DENY_BLOCKING) > denial_kind_rank(DENY_OTHER_ERROR));
	ASSERT_TRUE(denial_kind_rank(DENY_INCONCLUSIVE) > denial_kind_rank(DENY_ADVISORY));
	suggest_free(&s);
}

/* Two images of one executable, the first needing nothing: the setcap
 * line still names what the second needed. */
TEST(suggest_emit_setcap_takes_every_image_of_a_program)
{
	struct suggestion s;
	struct rec_check *c;
	char *out;

	new_record("6.18.44");
	rec.procs[0].exe = xstrdup("/usr/bin/socat");
	record_add_process(&rec, 101, 0, 1)->comm = xstrdup("socat");
	rec.procs[1].exe = xstrdup("/usr/bin/socat");
	c = check(10, 0, 1, 49, syslog_stack, N(syslog_stack));
	c->pid = 101;
	build(&s, NULL);
	out = emit("setcap", &s);
	ASSERT_STR(out, "setcap cap_net_bind_service+ep /usr/bin/socat\n");
	free(out);
	suggest_free(&s);
	record_free(&rec);
}

TEST(kver_cmp_orders_releases)
{
	ASSERT_EQ(kver_cmp("5.4.0-150-generic", "5.9"), -1);
	ASSERT_EQ(kver_cmp("6.18.44-fc-v1098", "5.9"), 1);
	ASSERT_EQ(kver_cmp("5.9", "5.9.0"), 0);
	ASSERT_EQ(kver_cmp("5.10", "5.9"), 1);
	ASSERT_EQ(kver_cmp("garbage", "5.9"), -2);
	ASSERT_STR(cap_since(40), "5.9");
	ASSERT_STR(cap_since(39), "5.8");
	ASSERT_TRUE(cap_since(21) == NULL);
}

/* report --suggest --cap: built from every check, then what is about the
 * capabilities asked for (a replacement with either of its two). */
static void suggest_fixture(const char *name, uint64_t caps, struct record *r,
			    struct suggestion *s)
{
	struct suggest_opts o = { 0 };
	char err[512];

	memset(r, 0, sizeof(*r));
	if (recfile_load(fixture(name), r, err, sizeof(err)))
		FAIL_AT("%s", err);
	suggest_build(r, &o, s);
	if (caps)
		suggest_keep_caps(s, caps);
}

TEST(suggest_keep_caps_keeps_a_replacement_with_either_of_its_two)
{
	const uint64_t sa = CAP_BIT(CAP_SYS_ADMIN), cr = CAP_BIT(CAP_CHECKPOINT_RESTORE);
	uint64_t asks[] = { sa, cr };
	struct suggestion s;
	struct record r;
	size_t i;

	for (i = 0; i < 2; i++) {
		suggest_fixture("kernels/6.18-nocr.jsonl", asks[i], &r, &s);
		ASSERT_EQ(s.nrepl, 1);
		ASSERT_EQ(s.repl[0].with, CAP_CHECKPOINT_RESTORE);
		ASSERT_EQ(s.repl[0].evidence, EV_OBSERVED);   /* the fallback was seen */
		ASSERT_U64(s.required, cr);
		ASSERT_U64(s.observed, sa);
		ASSERT_U64(s.only, sa | cr);
		suggest_free(&s);
		record_free(&r);
	}
	suggest_fixture("kernels/6.18-nocr.jsonl", CAP_BIT(CAP_CHOWN), &r, &s);
	ASSERT_EQ(s.nrepl + s.nkeep + s.ndeny + s.naside, 0);
	ASSERT_U64(s.required | s.observed | s.denied, 0);
	ASSERT_U64(s.only, CAP_BIT(CAP_CHOWN));
	suggest_free(&s);
	record_free(&r);
}

TEST(suggest_keep_caps_keeps_kept_capabilities_and_denials_of_those)
{
	struct suggestion s;
	struct record r;
	size_t i;

	/* workloads-v4: postgres chowns (granted) and is denied CAP_FOWNER */
	suggest_fixture("workloads-v4.jsonl", CAP_BIT(CAP_FOWNER), &r, &s);
	ASSERT_EQ(s.nkeep, 0);
	ASSERT_EQ(s.ndeny, 1);
	ASSERT_EQ(s.deny[0].cap, CAP_FOWNER);
	ASSERT_STR(s.deny[0].func, "chmod_common");
	ASSERT_U64(s.required, 0);
	ASSERT_U64(s.denied, CAP_BIT(CAP_FOWNER));
	for (i = 0; i < s.nprogs; i++)
		ASSERT_U64(s.progs[i].required, 0);
	suggest_free(&s);
	record_free(&r);
	suggest_fixture("workloads-v4.jsonl", CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_SETUID), &r, &s);
	/* setuid(2) asks CAP_SETUID before the rule that lets a process set an
	 * id it has (kernel/sys.c __sys_setuid()): verify decides it */
	ASSERT_EQ(s.nkeep, 1);
	ASSERT_EQ(s.ndeny, 0);
	ASSERT_U64(s.required, CAP_BIT(CAP_CHOWN));
	ASSERT_U64(s.undecided_caps, CAP_BIT(CAP_SETUID));
	ASSERT_STR(s.undecided[0].func, "__sys_setuid");
	ASSERT_U64(s.denied, 0);
	suggest_free(&s);
	record_free(&r);
}

/* ---- the kernel's capability logic as data (facts/capsites.h) ---------- */

#define CAPW "cap_capable+0x83", "security_capable+0x3b"
static const char *const ioprio_sa[] = { CAPW, "capable+0x29", "ioprio_check_cap+0x40",
	"__x64_sys_ioprio_set+0x50", "do_syscall_64+0x71" };
static const char *const gp_read[] = { CAPW, "capable_wrt_inode_uidgid+0x2a",
	"generic_permission+0x120", "inode_permission+0x50", "path_openat+0x600" };
static const char *const gp_write[] = { CAPW, "capable_wrt_inode_uidgid+0x2a",
	"generic_permission+0x180", "inode_permission+0x50", "path_openat+0x600" };
static const char *const seccomp_na[] = { CAPW, "ns_capable_noaudit+0x29",
	"seccomp_prepare_filter+0x40", "seccomp_set_mode_filter+0x30" };
static const char *const sysctl_na[] = { CAPW, "ns_capable_noaudit+0x29",
	"net_ctl_permissions+0x20", "sysctl_perm+0x30", "proc_sys_permission+0x44" };
static const char *const fork_res[] = { CAPW, "capable+0x29", "copy_process+0x5d0",
	"kernel_clone+0x99", "__do_sys_clone+0x60", "do_syscall_64+0x71" };

TEST(capsites_tables_by_kernel)
{
	bool exact;
	size_t n;
	const struct ktable *all = ktable_all(&n);

	ASSERT_EQ(n, 4);
	ASSERT_STR(ktable_for("6.1.0-57-cloud-amd64", &exact)->kernel, "6.1");
	ASSERT_TRUE(exact);
	ASSERT_STR(ktable_for("6.12.118", &exact)->kernel, "6.12");
	ASSERT_TRUE(exact);
	/* no source of its own: the newest older, else the oldest */
	ASSERT_STR(ktable_for("6.18.44-fc", &exact)->kernel, "6.12");
	ASSERT_FALSE(exact);
	ASSERT_STR(ktable_for("5.4.0", &exact)->kernel, "5.10");
	ASSERT_STR(ktable_for("8.0", &exact)->kernel, "7.2");
	ASSERT_TRUE(ktable_for("x.y", &exact) == NULL);
	ASSERT_TRUE(ktable_for("6", &exact) == NULL);
	ASSERT_TRUE(all[0].n > 1000);
}

/* Class 1 without CAP_SYS_ADMIN: generic_permission() asks
 * CAP_DAC_READ_SEARCH first for a read and takes CAP_DAC_OVERRIDE instead;
 * for a write only CAP_DAC_OVERRIDE. */
TEST(capsites_generic_permission_pairs_by_access)
{
	struct ks_answer a;
	bool exact;
	const struct ktable *t;
	const char *k[] = { "5.10", "6.1", "6.12", "7.2" };
	size_t i;

	for (i = 0; i < N(k); i++) {
		t = ktable_for(k[i], &exact);
		ksite_lookup(t, "generic_permission", CAP_DAC_READ_SEARCH, &a);
		ASSERT_TRUE(a.nsites >= 2);
		ASSERT_U64(a.alts, CAP_BIT(CAP_DAC_OVERRIDE));
		ASSERT_TRUE(a.asked_first);
		ASSERT_STR(a.effect, "EACCES");
		ksite_lookup(t, "generic_permission", CAP_DAC_OVERRIDE, &a);
		ASSERT_U64(a.alts, 0);     /* a write takes nothing else */
	}
	ASSERT_EQ(cap_power_cmp(CAP_DAC_READ_SEARCH, CAP_DAC_OVERRIDE), -1);
	ASSERT_EQ(cap_power_cmp(CAP_BPF, CAP_SYS_ADMIN), -1);
	ASSERT_EQ(cap_power_cmp(CAP_NET_RAW, CAP_NET_ADMIN), 0);
}

/* Class 1: the broad capability asked first. ioprio_set(IOPRIO_CLASS_RT)
 * asks capable(CAP_SYS_ADMIN) before capable(CAP_SYS_NICE) (block/ioprio.c
 * ioprio_check_cap()): a recording with both never sees CAP_SYS_NICE. */
TEST(suggest_broad_asked_first_is_replaced_from_the_source)
{
	struct suggestion s;

	new_record("6.12.118");
	check(CAP_SYS_ADMIN, 0, 1, 251, ioprio_sa, N(ioprio_sa));
	build(&s, NULL);
	ASSERT_EQ(s.nrepl, 1);
	ASSERT_EQ(s.repl[0].replace, CAP_SYS_ADMIN);
	ASSERT_EQ(s.repl[0].with, CAP_SYS_NICE);
	ASSERT_EQ(s.repl[0].evidence, EV_SOURCE);
	ASSERT_STR(s.repl[0].sites[0].ksite->file, "block/ioprio.c");
	ASSERT_U64(s.required, CAP_BIT(CAP_SYS_NICE));
	ASSERT_U64(s.progs[0].required, CAP_BIT(CAP_SYS_NICE));
	suggest_free(&s);
}

/* Class 2: a member every use of which another member covers is dropped;
 * a member some check needs alone stays. */
TEST(suggest_minimises_with_the_alternatives)
{
	struct suggestion s;

	new_record("6.1.192");
	check(CAP_DAC_READ_SEARCH, 0, 3, 257, gp_read, N(gp_read));
	check(CAP_DAC_OVERRIDE, 0, 1, 257, gp_write, N(gp_write));
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_DAC_OVERRIDE));
	ASSERT_EQ(s.nkeep, 1);
	ASSERT_EQ(s.keep[0].cap, CAP_DAC_OVERRIDE);
	ASSERT_EQ(s.ncover, 1);
	ASSERT_EQ(s.cover[0].cap, CAP_DAC_READ_SEARCH);
	ASSERT_U64(s.cover[0].covered_by, CAP_BIT(CAP_DAC_OVERRIDE));
	ASSERT_U64(s.progs[0].required, CAP_BIT(CAP_DAC_OVERRIDE));
	suggest_free(&s);
	/* reads alone: the narrow one, nothing covered */
	new_record("6.1.192");
	check(CAP_DAC_READ_SEARCH, 0, 3, 257, gp_read, N(gp_read));
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_DAC_READ_SEARCH));
	ASSERT_EQ(s.ncover, 0);
	suggest_free(&s);
}

/* Class 4: a noaudit check whose denial fails the call is a requirement
 * (kernel/seccomp.c seccomp_prepare_filter(): -EACCES without
 * no_new_privs); one that only tunes (cap_vm_enough_memory) is not. */
TEST(suggest_decisive_noaudit_is_required)
{
	struct suggestion s;

	new_record("6.12.118");
	check(CAP_SYS_ADMIN, 0, 1, 317, seccomp_na, N(seccomp_na));
	check(CAP_SYS_ADMIN, 0, 9, 9, vm_stack, N(vm_stack));
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_EQ(s.nkeep, 1);
	ASSERT_EQ(s.keep[0].nsites, 1);
	ASSERT_STR(s.keep[0].sites[0].func, "seccomp_prepare_filter");
	ASSERT_TRUE(s.keep[0].sites[0].noaudit_decides);
	suggest_free(&s);
}

/* Class 3 for a sysctl: the permission handler's noaudit answer sets the
 * file's mode; root gets the owner's bits anyway, so for root verify
 * decides; for another user it is required. */
TEST(suggest_sysctl_permission_handler)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.12.118");
	check(CAP_NET_ADMIN, 0, 1, 1, sysctl_na, N(sysctl_na));
	build(&s, NULL);
	ASSERT_U64(s.required, 0);
	ASSERT_U64(s.undecided_caps, CAP_BIT(CAP_NET_ADMIN));
	ASSERT_STR(s.undecided[0].ksite->effect, "mode");
	suggest_free(&s);
	new_record("6.12.118");
	c = check(CAP_NET_ADMIN, 0, 1, 1, sysctl_na, N(sysctl_na));
	c->uid = 1000;
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_NET_ADMIN));
	ASSERT_U64(s.undecided_caps, 0);
	suggest_free(&s);
}

/* Class 5: a denial that surfaces as another error: fork() past
 * RLIMIT_NPROC without CAP_SYS_RESOURCE or CAP_SYS_ADMIN fails EAGAIN
 * (kernel/fork.c copy_process()): blocking, with the kernel's effect. */
TEST(suggest_denial_effect_from_the_source)
{
	struct suggestion s;
	struct rec_check *c;

	new_record("6.12.118");
	c = check(CAP_SYS_RESOURCE, -1, 1, 56, fork_res, N(fork_res));
	c->sys_other = 1;
	c->sys_errno = 11;   /* EAGAIN */
	build(&s, NULL);
	ASSERT_EQ(s.ndeny, 1);
	ASSERT_STR(s.deny[0].func, "copy_process");
	ASSERT_STR(s.deny[0].effect, "EAGAIN");
	ASSERT_EQ(s.deny[0].kind, DENY_BLOCKING);
	suggest_free(&s);
	/* another error than the site's: may or may not be the denial */
	new_record("6.12.118");
	c = check(CAP_SYS_RESOURCE, -1, 1, 56, fork_res, N(fork_res));
	c->sys_other = 1;
	c->sys_errno = 22;   /* EINVAL */
	build(&s, NULL);
	ASSERT_EQ(s.deny[0].kind, DENY_OTHER_ERROR);
	suggest_free(&s);
}

/* A narrow member CAP_SYS_ADMIN alone covers is verify's to decide: in a
 * set that holds CAP_SYS_ADMIN (sethostname()), CAP_CHECKPOINT_RESTORE
 * at proc_map_files_get_link is not dropped for it, and verify tries
 * dropping CAP_SYS_ADMIN first. */
static const char *const mapfiles_cr[] = { NS_HEAD, "proc_map_files_get_link+0x30",
	"pick_link+0x100", "path_openat+0x600" };
static const char *const fsopen_sa[] = { CAPW, "ns_capable+0x2d", "__x64_sys_fsopen+0x40",
	"do_syscall_64+0x71" };
static const char *const fsopen_arm64[] = { CAPW, "ns_capable+0x2d", "__arm64_sys_fsopen+0x40",
	"invoke_syscall+0x50" };
static const char *const hostname_sa[] = { CAPW, "ns_capable+0x2d",
	"__x64_sys_sethostname+0x40", "do_syscall_64+0x71" };
static const char *const may_mount_sa[] = { CAPW, "ns_capable+0x2d", "may_mount+0x1a",
	"path_mount+0x80" };

TEST(suggest_sys_admin_covers_by_verify_only)
{
	struct suggestion s;

	new_record("6.12.118");
	check(CAP_CHECKPOINT_RESTORE, 0, 2, 257, mapfiles_cr, N(mapfiles_cr));
	check(CAP_SYS_ADMIN, 0, 1, 170, hostname_sa, N(hostname_sa));
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_U64(s.undecided_caps, CAP_BIT(CAP_CHECKPOINT_RESTORE));
	ASSERT_EQ(s.nundecided, 1);
	ASSERT_EQ(s.undecided[0].why, UD_SYSADMIN_COVERS);
	ASSERT_STR(s.undecided[0].func, "proc_map_files_get_link");
	ASSERT_EQ(s.ncover, 0);
	ASSERT_U64(s.progs[0].undecided, CAP_BIT(CAP_CHECKPOINT_RESTORE));
	suggest_free(&s);
}

/* Class 7: a capability granted only at feature probes (kernel facts
 * KF_PROBE: fsopen() of the new mount API, pagemap's frame numbers, ...)
 * is verify's to decide, with the feature; one check that was no probe
 * makes it required. */
TEST(suggest_probes_are_verify_s_to_decide)
{
	struct suggestion s;
	struct rec_check *c;

	/* CRIU's fsopen() probe: CAP_SYS_ADMIN leaves the set, and with it
	 * nothing covers CAP_CHECKPOINT_RESTORE, which is required */
	new_record("6.12.118");
	check(CAP_CHECKPOINT_RESTORE, 0, 2, 257, mapfiles_cr, N(mapfiles_cr));
	check(CAP_SYS_ADMIN, 0, 1, 430, fsopen_sa, N(fsopen_sa));
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_CHECKPOINT_RESTORE));
	ASSERT_U64(s.undecided_caps, CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_EQ(s.nundecided, 1);
	ASSERT_EQ(s.undecided[0].why, UD_PROBE);
	ASSERT_STR(s.undecided[0].func, "__x64_sys_fsopen");
	ASSERT_STR(s.undecided[0].fact->operation, "fsopen(): the new mount API (5.2)");
	ASSERT_U64(s.progs[0].required, CAP_BIT(CAP_CHECKPOINT_RESTORE));
	ASSERT_U64(s.progs[0].undecided, CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_EQ(s.nkeep, 1);
	suggest_free(&s);
	/* the same syscall under arm64's entry name */
	new_record("6.12.118");
	check(CAP_SYS_ADMIN, 0, 1, 430, fsopen_arm64, N(fsopen_arm64));
	build(&s, NULL);
	ASSERT_U64(s.required, 0);
	ASSERT_U64(s.undecided_caps, CAP_BIT(CAP_SYS_ADMIN));
	suggest_free(&s);
	/* a probe and a check that was none: required, by both programs'
	 * accounts; CAP_CHECKPOINT_RESTORE is CAP_SYS_ADMIN's to cover again */
	new_record("6.12.118");
	check(CAP_CHECKPOINT_RESTORE, 0, 2, 257, mapfiles_cr, N(mapfiles_cr));
	check(CAP_SYS_ADMIN, 0, 1, 430, fsopen_sa, N(fsopen_sa));
	check(CAP_SYS_ADMIN, 0, 1, 170, hostname_sa, N(hostname_sa));
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_U64(s.progs[0].required, CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_U64(s.undecided_caps, CAP_BIT(CAP_CHECKPOINT_RESTORE));
	ASSERT_EQ(s.undecided[0].why, UD_SYSADMIN_COVERS);
	suggest_free(&s);
	/* may_mount() is a probe only during fsopen()/fspick(), not mount(2) */
	new_record("6.12.118");
	c = check(CAP_SYS_ADMIN, 0, 1, 430, may_mount_sa, N(may_mount_sa));
	c->sysname = "fsopen";
	build(&s, NULL);
	ASSERT_U64(s.required, 0);
	ASSERT_U64(s.undecided_caps, CAP_BIT(CAP_SYS_ADMIN));
	suggest_free(&s);
	new_record("6.12.118");
	c = check(CAP_SYS_ADMIN, 0, 1, 165, may_mount_sa, N(may_mount_sa));
	c->sysname = "mount";
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_SYS_ADMIN));
	ASSERT_U64(s.undecided_caps, 0);
	suggest_free(&s);
}

/* Class 6: ptrace access the kernel let through without a check, because
 * the recording's set covered the target's (security/commoncap.c
 * cap_ptrace_access_check()): CAP_SYS_PTRACE is required unless the set
 * covers every target's permitted set. */
static struct rec_process *ptrace_reached(uint64_t prm, uint32_t known, uint32_t unknown)
{
	struct rec_process *p = &rec.procs[0];

	p->ptrace_targets = known;
	p->ptrace_unknown = unknown;
	p->ptrace_prm = prm;
	if (known) {
		p->ptrace_ex_pid = 7;
		p->ptrace_ex_comm = xstrdup("victim");
		p->ptrace_ex_via = xstrdup("ptrace");
	}
	return p;
}

TEST(suggest_ptrace_access_the_kernel_did_not_check)
{
	struct suggestion s;

	/* a root target: no set short of all of it covers it */
	new_record("6.12.118");
	ptrace_reached(CAP_BIT(CAP_SYS_ADMIN) | CAP_BIT(CAP_SYSLOG) | CAP_BIT(CAP_SYS_PTRACE), 2, 0);
	check(CAP_SYSLOG, 0, 1, 103, syslog_stack, N(syslog_stack));
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_SYSLOG) | CAP_BIT(CAP_SYS_PTRACE));
	ASSERT_TRUE(s.ptrace.needs);
	ASSERT_EQ(s.ptrace.targets, 2);
	ASSERT_STR(s.ptrace.example->ptrace_ex_comm, "victim");
	ASSERT_U64(s.progs[0].required, CAP_BIT(CAP_SYSLOG) | CAP_BIT(CAP_SYS_PTRACE));
	ASSERT_EQ(s.nkeep, 2);
	ASSERT_EQ(s.keep[0].cap, CAP_SYS_PTRACE);   /* by number */
	ASSERT_STR(s.keep[0].sites[0].func, "cap_ptrace_access_check");
	ASSERT_EQ(s.keep[1].cap, CAP_SYSLOG);
	suggest_free(&s);
	/* a target holding only what the set holds anyway: covered */
	new_record("6.12.118");
	ptrace_reached(CAP_BIT(CAP_SYSLOG), 1, 0);
	check(CAP_SYSLOG, 0, 1, 103, syslog_stack, N(syslog_stack));
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_SYSLOG));
	ASSERT_FALSE(s.ptrace.needs);
	ASSERT_EQ(s.nkeep, 1);
	suggest_free(&s);
	/* a target holding CAP_SYS_PTRACE alone: only CAP_SYS_PTRACE covers it */
	new_record("6.12.118");
	ptrace_reached(CAP_BIT(CAP_SYS_PTRACE), 1, 0);
	build(&s, NULL);
	ASSERT_U64(s.required, CAP_BIT(CAP_SYS_PTRACE));
	ASSERT_TRUE(s.ptrace.needs);
	suggest_free(&s);
	/* targets whose sets were not read: verify decides */
	new_record("6.12.118");
	ptrace_reached(0, 0, 3);
	build(&s, NULL);
	ASSERT_U64(s.required, 0);
	ASSERT_U64(s.undecided_caps, CAP_BIT(CAP_SYS_PTRACE));
	ASSERT_EQ(s.undecided[0].why, UD_PTRACE_UNKNOWN);
	ASSERT_EQ(s.undecided[0].count, 3);
	ASSERT_U64(s.progs[0].undecided, CAP_BIT(CAP_SYS_PTRACE));
	suggest_free(&s);
}

/* The capsites lookup by name (a sorted index of every table) answers as
 * the scan of the table does (a copy of it, which has no index): for every
 * row, by its function and each caller it may be inlined into, for every
 * capability it asks, and for a name no row has. */
static void same_answer(const struct ktable *t, const struct ktable *copy, const char *fn,
			int cap)
{
	struct ks_answer a, b;

	ksite_lookup(t, fn, cap, &a);
	ksite_lookup(copy, fn, cap, &b);
	ASSERT_EQ(a.nsites, b.nsites);
	ASSERT_TRUE(a.first == b.first);
	ASSERT_U64(a.alts, b.alts);
	ASSERT_EQ(a.asked_first, b.asked_first);
	ASSERT_EQ(a.noaudit_all, b.noaudit_all);
	ASSERT_TRUE(a.effect == b.effect);
	ASSERT_TRUE(a.allowed_without == b.allowed_without);
	ASSERT_EQ(a.all_needed, b.all_needed);
}

TEST(capsites_index_answers_as_the_scan)
{
	size_t nt, t, i, looked = 0;
	const struct ktable *all = ktable_all(&nt);

	for (t = 0; t < nt; t++) {
		struct ktable copy = all[t];

		for (i = 0; i < all[t].n; i++) {
			const struct ksite *k = &all[t].sites[i];
			char name[256];
			const char *p;
			int j;

			for (j = 0; j < KS_MAXCAPS && k->caps[j] != -1; j++) {
				if (k->caps[j] < 0)
					continue;
				same_answer(&all[t], &copy, k->func, k->caps[j]);
				looked++;
				for (p = k->inlined_into; p && *p;) {
					const char *end = strchr(p, ',');
					size_t n = end ? (size_t)(end - p) : strlen(p);

					snprintf(name, sizeof(name), "%.*s", (int)n, p);
					same_answer(&all[t], &copy, name, k->caps[j]);
					p = end ? end + 1 : NULL;
				}
			}
		}
		same_answer(&all[t], &copy, "no_such_function_anywhere", CAP_CHOWN);
		same_answer(&all[t], &copy, "", CAP_CHOWN);
	}
	ASSERT_TRUE(looked > 4000);
}
