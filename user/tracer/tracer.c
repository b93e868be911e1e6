// SPDX-License-Identifier: GPL-2.0
#include "tracer/tracer.h"
#include "lib/phase.h"
#include "tracer/objhow.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/epoll.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "capaudit.skel.h"
#include "facts/kfeat.h"
#include "tracer/privs.h"
#include "tracer/ptrace_hooks.h"
#include "lib/util.h"

/* The kernel's ENOTSUPP (include/linux/errno.h): what a map type without
 * batch operations answers. */
#define KERNEL_ENOTSUPP 524

/* procbytes' size in 8-byte words: one byte for each pid below
 * kernel.pid_max (PID_MAX_LIMIT, 4194304, include/linux/threads.h, if
 * unreadable); a pid past it, were pid_max raised later, is looked up in
 * procs instead. */
static uint32_t procbytes_words(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "re");
	long max = 0;

	if (!f || fscanf(f, "%ld", &max) != 1 || max <= 0 || max > 4194304)
		max = 4194304;
	if (f)
		fclose(f);
	return (uint32_t)((max + 7) / 8);
}

/* libbpf's log: kept quiet unless verbose, but its last line explains
 * failures, so remember it. */
static bool libbpf_verbose;
static char libbpf_last[160];
/* libbpf named a ptrace-access hook's program (bpf/ptrace_access.bpf.h,
 * SEC names pt_*) in a warning: the load refused it */
static bool libbpf_hook_refused;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024];
	size_t n;
	va_list copy;

	va_copy(copy, ap);
	if (libbpf_verbose)   /* whole: a verifier log is one string */
		vfprintf(stderr, fmt, copy);
	va_end(copy);
	vsnprintf(line, sizeof(line), fmt, ap);
	if (level == LIBBPF_WARN) {
		n = strcspn(line, "\n");
		snprintf(libbpf_last, sizeof(libbpf_last), "%.*s", (int)n, line);
		libbpf_hook_refused |= strstr(line, "prog 'pt_") != NULL;
	}
	return 0;
}

_Static_assert(CA_KF_TASK_BTF == KF_TASK_BTF && CA_KF_TASK_PT_REGS == KF_TASK_PT_REGS &&
	       CA_KF_FIND_VMA == KF_FIND_VMA && CA_KF_TASK_STORAGE == KF_TASK_STORAGE &&
	       CA_KF_KRETPROBE_STACK == KF_KRETPROBE_STACK &&
	       CA_KF_ALL == KF_ALL, "capaudit.h and facts/kfeat.h name the same bits");

/* kprobe mode's entry (ret: return) program: the _noleaf copy on kernels
 * without bpf_find_vma() (it cannot even be loaded there: capaudit.bpf.c) */
static struct bpf_program *kprobe_prog(struct capaudit_bpf *s, uint32_t kfeat, bool ret)
{
	if (ret)
		return kfeat & KF_FIND_VMA ? s->progs.kretprobe_cap_capable :
		       s->progs.kretprobe_cap_capable_noleaf;
	return kfeat & KF_FIND_VMA ? s->progs.kprobe_cap_capable :
	       s->progs.kprobe_cap_capable_noleaf;
}

static void choose_programs(struct capaudit_bpf *s, enum attach_mode m, bool results,
			    uint32_t kfeat)
{
	bool vma = kfeat & KF_FIND_VMA;

	/* sys_exit slows every syscall on the system: only when asked for */
	bpf_program__set_autoload(s->progs.sys_exit, results);
	bpf_program__set_autoload(s->progs.tp_btf_cap_capable, m == ATTACH_TP_BTF);
	bpf_program__set_autoload(s->progs.tp_cap_capable, m == ATTACH_TRACEPOINT);
	bpf_program__set_autoload(s->progs.fexit_cap_capable, m == ATTACH_FEXIT && vma);
	bpf_program__set_autoload(s->progs.fexit_cap_capable_noleaf, m == ATTACH_FEXIT && !vma);
	bpf_program__set_autoload(s->progs.kprobe_cap_capable, m == ATTACH_KPROBE && vma);
	bpf_program__set_autoload(s->progs.kprobe_cap_capable_noleaf, m == ATTACH_KPROBE && !vma);
	bpf_program__set_autoload(s->progs.kretprobe_cap_capable, m == ATTACH_KPROBE && vma);
	bpf_program__set_autoload(s->progs.kretprobe_cap_capable_noleaf, m == ATTACH_KPROBE && !vma);
}

/* The ptrace-access hooks (bpf/ptrace_access.bpf.h): loaded where their
 * tracepoint's perf event was opened before the privilege drop, attached
 * to it below, never by the skeleton (it would open new ones, refused at
 * perf_event_paranoid=3). */
static bool is_ptrace_hook(const struct bpf_program *p)
{
	return !strncmp(bpf_program__section_name(p), "tracepoint/syscalls/", 20);
}

static void choose_ptrace_hooks(struct capaudit_bpf *s, const struct ptrace_hooks *h)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, s->obj) {
		if (!is_ptrace_hook(p))
			continue;
		bpf_program__set_autoload(p, ptrace_hook_wanted(h, bpf_program__section_name(p)));
		bpf_program__set_autoattach(p, false);
	}
}

/* Each loaded one onto a copy of its event, its link kept in the
 * skeleton (detached and destroyed with the rest). A hook that does not
 * attach is left out: the number attached is returned, and the record
 * says whether ptrace access was watched (rec_header.ptrace_watched). */
static int attach_ptrace_hooks(struct capaudit_bpf *s, const struct ptrace_hooks *h)
{
	const struct bpf_object_skeleton *sk = s->skeleton;
	int i, n = 0;

	for (i = 0; i < sk->prog_cnt; i++) {
		struct bpf_program *p = *sk->progs[i].prog;
		int fd, pre;

		if (!is_ptrace_hook(p) || !bpf_program__autoload(p))
			continue;
		pre = ptrace_hook_fd(h, bpf_program__section_name(p));
		fd = pre < 0 ? -1 : fcntl(pre, F_DUPFD_CLOEXEC, 0);
		*sk->progs[i].link = fd < 0 ? NULL : bpf_program__attach_perf_event(p, fd);
		if (*sk->progs[i].link)
			n++;
		else if (fd >= 0)
			close(fd);
	}
	return n;
}

/* Without task storage for tracing programs (before 5.12) the
 * --syscall-results state is a hash map by thread id (capaudit.bpf.c),
 * of one entry when unused. */
static int size_task_state(struct capaudit_bpf *s, uint32_t kfeat, bool results)
{
	int err;

	if (kfeat & KF_TASK_STORAGE)
		return 0;
	err = bpf_map__set_type(s->maps.tstate, BPF_MAP_TYPE_HASH);
	return err ? err : bpf_map__set_max_entries(s->maps.tstate, results ? CA_TSTATE_TIDS : 1);
}

/* A short reason for a load/attach failure, in the user's terms. */
static void explain(char *why, size_t n, const char *stage, int err, enum attach_mode m)
{
	struct privs p;
	bool have = !privs_read(&p) && (p.eff & PRIVS_NEEDED) == PRIVS_NEEDED;
	char hint[300];

	err = err < 0 ? -err : err;
	if (bpf_memlock_hint(err, hint, sizeof(hint))[0])
		snprintf(why, n, "%s refused (EPERM): %s", stage, hint);
	else if ((err == EACCES || err == EPERM) && m == ATTACH_KPROBE && perf_event_paranoid() > 2)
		snprintf(why, n, "%s refused by the kernel (%s): kernel.perf_event_paranoid=%d "
			 "(a Debian/Ubuntu level) lets only CAP_SYS_ADMIN open perf events; run "
			 "capaudit as root (it opens them before dropping to CAP_BPF and CAP_PERFMON) "
			 "or set kernel.perf_event_paranoid=2", stage, strerror(err),
			 perf_event_paranoid());
	else if (err == EPERM && m == ATTACH_FEXIT && have)
		snprintf(why, n, "%s refused by the kernel (EPERM): BPF trampolines are not "
			 "permitted here", stage);
	else if ((err == EPERM || err == EACCES) && have)
		snprintf(why, n, "%s refused by the kernel (%s) although CAP_BPF and CAP_PERFMON "
			 "are held", stage, strerror(err));
	else if (err == EPERM || err == EACCES)
		snprintf(why, n, "%s: permission denied (needs CAP_BPF and CAP_PERFMON)", stage);
	else if (err == ENOENT || err == ESRCH)
		snprintf(why, n, "%s: cap_capable hook not found in this kernel", stage);
	else if (err == KERNEL_ENOTSUPP && m == ATTACH_FEXIT)
		snprintf(why, n, "%s failed (ENOTSUPP): this kernel cannot attach BPF trampolines "
			 "to kernel functions (no ftrace direct calls: "
			 "CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS, on arm64 since Linux 6.4)", stage);
	else
		snprintf(why, n, "%s failed: %s%s%s", stage, strerror(err),
			 libbpf_last[0] ? "; libbpf: " : "", libbpf_last);
}

/* One kprobe program onto a pre-opened perf event (the link takes a copy
 * of the fd: it closes its own, and the original stays for another try),
 * or onto a kprobe of its own. */
static struct bpf_link *attach_kprobe(struct bpf_program *p, int pre_fd, bool ret)
{
	int fd;
	struct bpf_link *l;

	if (pre_fd < 0)
		return bpf_program__attach_kprobe(p, ret, "cap_capable");
	fd = fcntl(pre_fd, F_DUPFD_CLOEXEC, 0);
	l = fd < 0 ? NULL : bpf_program__attach_perf_event(p, fd);
	if (!l && fd >= 0)
		close(fd);
	return l;
}

/*
 * kprobe mode's programs, the return probe's first. Probes at one address
 * run in the reverse order of their registration (kernel/kprobes.c
 * add_new_kprobe() puts a new one at the head), and the entry probe has to
 * run before the return probe's entry handler replaces cap_capable's
 * return address with kretprobe_trampoline: before 5.15 a stack walk ends
 * there, so the stack is walked at the entry (capaudit.bpf.c). The
 * pre-opened events (k) were opened in that order already.
 */
static int attach_kprobes(struct capaudit_bpf *s, const struct kprobe_events *k, uint32_t kfeat)
{
	bool vma = kfeat & KF_FIND_VMA;
	struct bpf_link **ret_link = vma ? &s->links.kretprobe_cap_capable :
				     &s->links.kretprobe_cap_capable_noleaf;
	struct bpf_link **entry_link = vma ? &s->links.kprobe_cap_capable :
				       &s->links.kprobe_cap_capable_noleaf;
	bool pre = k && k->entry >= 0;

	*ret_link = attach_kprobe(kprobe_prog(s, kfeat, true), pre ? k->ret : -1, true);
	if (!*ret_link)
		return -errno;
	*entry_link = attach_kprobe(kprobe_prog(s, kfeat, false), pre ? k->entry : -1, false);
	return *entry_link ? 0 : -errno;
}

static int try_mode(struct tracer *t, const struct tracer_cfg *cfg, enum attach_mode m)
{
	char *why = t->why[m];

	struct capaudit_bpf *s;
	uint32_t kfeat;
	int err;

	phase_mark("feature probes");
	if (attach_precheck(m, why, sizeof(t->why[m])))
		return -1;
	if (kfeat_use(&kfeat, m == ATTACH_KPROBE, why, sizeof(t->why[m])) < 0)
		return -1;   /* (not probed: the load that follows says why) */
	libbpf_last[0] = '\0';
	phase_mark("open object");
	s = capaudit_bpf__open();
	if (!s) {
		explain(why, sizeof(t->why[m]), "open", errno, m);
		return -1;
	}
	s->rodata->cfg_all = cfg->all;
	s->rodata->self_tgid = cfg->self_tgid;
	s->rodata->keeper_tgid = cfg->keeper_tgid;
	s->rodata->track_results = cfg->syscall_results;
	s->rodata->verify_mask = cfg->exact_stacks ? 0 : 255;
	s->rodata->cfg_paths = cfg->paths && !cfg->exact_stacks;
	s->rodata->cfg_user_stacks = cfg->user_stacks;
	s->rodata->cfg_new_keys = cfg->new_keys;
	s->rodata->cfg_only_uid = cfg->only_uid;
	s->rodata->cfg_uid = cfg->uid;
	s->rodata->cfg_cgroup = cfg->cgroup;
	s->rodata->nr_capset = SYS_capset;
	s->rodata->nr_setuid = SYS_setuid;
	s->rodata->nr_setgid = SYS_setgid;
	s->rodata->nr_setreuid = SYS_setreuid;
	s->rodata->nr_setregid = SYS_setregid;
	s->rodata->nr_setresuid = SYS_setresuid;
	s->rodata->nr_setresgid = SYS_setresgid;
#ifdef SYS_chmod
	s->rodata->nr_chmod = SYS_chmod;
#endif
	s->rodata->nr_fchmod = SYS_fchmod;
	s->rodata->nr_fchmodat = SYS_fchmodat;
	s->rodata->nr_fchmodat2 = 452;   /* fchmodat2(2), Linux 6.6; the same on every architecture */
	s->rodata->nr_setsockopt = SYS_setsockopt;
	s->rodata->nr_getsockopt = SYS_getsockopt;
	s->rodata->nr_socket = SYS_socket;
	s->rodata->nr_bpf = SYS_bpf;
	s->rodata->nr_prctl = SYS_prctl;
	s->rodata->nr_ioctl = SYS_ioctl;
	s->rodata->nr_fcntl = SYS_fcntl;
	s->rodata->nr_ptrace = SYS_ptrace;
	s->rodata->nr_keyctl = SYS_keyctl;
	s->rodata->nr_fsetxattr = SYS_fsetxattr;
	{
		const int op_sys[] = { SYS_setsockopt, SYS_getsockopt, SYS_socket, SYS_bpf,
				       SYS_prctl, SYS_ioctl, SYS_fcntl, SYS_ptrace, SYS_keyctl,
#ifdef SYS_chmod
				       SYS_chmod,
#endif
				       SYS_fchmod, SYS_fchmodat, 452 /* fchmodat2 */ };
		size_t i;

		for (i = 0; i < sizeof(op_sys) / sizeof(op_sys[0]); i++)
			if (op_sys[i] >= 0 && op_sys[i] < 512)
				s->rodata->op_sys_mask[op_sys[i] / 64] |= 1ULL << (op_sys[i] % 64);
	}
	objhow_fill((uint8_t *)s->rodata->obj_how, sizeof(s->rodata->obj_how));
	{
		struct stat mst;

		if (!stat("/proc/self/ns/mnt", &mst))
			s->rodata->self_mntns = (__u32)mst.st_ino;
	}
	s->rodata->kfeat = kfeat;
	choose_programs(s, m, cfg->syscall_results, kfeat);
	choose_ptrace_hooks(s, cfg->ptrace_hooks);
	t->agg_max[0] = t->agg_max[1] = cfg->max_keys ? cfg->max_keys : CA_AGG_KEYS;
	/* kprobe mode: attached below, in order, onto the perf events opened
	 * before the privilege drop (the skeleton would open new ones,
	 * refused at perf_event_paranoid=3), or onto new ones without */
	bpf_program__set_autoattach(kprobe_prog(s, kfeat, false), false);
	bpf_program__set_autoattach(kprobe_prog(s, kfeat, true), false);
	/* the user stack map (build ids: 32 bytes a frame) only when used */
	if ((err = size_task_state(s, kfeat, cfg->syscall_results)) ||
	    (!cfg->user_stacks && (err = bpf_map__set_max_entries(s->maps.ustacks, 1))) ||
	    (!cfg->all &&
	     (err = bpf_map__set_max_entries(s->maps.procbytes, procbytes_words()))) ||
	    (err = bpf_map__set_max_entries(s->maps.agg0, t->agg_max[0])) ||
	    (err = bpf_map__set_max_entries(s->maps.agg1, t->agg_max[1])) ||
	    (cfg->ringbuf_bytes &&
	     (err = bpf_map__set_max_entries(s->maps.events, cfg->ringbuf_bytes)))) {
		explain(why, sizeof(t->why[m]), "map sizes", err, m);
		capaudit_bpf__destroy(s);
		return -1;
	}
	phase_mark("load: BTF, maps, verifier");
	err = capaudit_bpf__load(s);
	if (err) {
		explain(why, sizeof(t->why[m]), "load", err, m);
		capaudit_bpf__destroy(s);
		return -1;
	}
	if (cfg->cgroup) {
		__u32 zero = 0, fd = (__u32)cfg->cgroup_fd;

		/* before the hooks run: an empty slot would follow no one */
		if (bpf_map_update_elem(bpf_map__fd(s->maps.scope_cgroup), &zero, &fd, BPF_ANY)) {
			err = -errno;
			explain(why, sizeof(t->why[m]), "the cgroup scope", err, m);
			capaudit_bpf__destroy(s);
			return -1;
		}
	}
	phase_mark("attach");
	/* the check hook first: a process that sees the recorder's links
	 * (tools/vm/matrix-workloads.sh counts them) sees it attached */
	err = m == ATTACH_KPROBE ? attach_kprobes(s, cfg->kprobe_events, kfeat) : 0;
	if (!err)
		err = capaudit_bpf__attach(s);
	if (err) {
		explain(why, sizeof(t->why[m]), "attach", err, m);
		capaudit_bpf__destroy(s);
		return -1;
	}
	/* their events were opened while the object loaded (ptrace_hooks_open()) */
	if (cfg->ptrace_hooks)
		ptrace_hooks_ready(cfg->ptrace_hooks);
	t->ptrace_hooks = attach_ptrace_hooks(s, cfg->ptrace_hooks);
	t->pth = cfg->ptrace_hooks;
	t->skel = s;
	t->mode = m;
	t->kfeat = kfeat;
	t->agg_fd[0] = bpf_map__fd(s->maps.agg0);   /* aggs[0] at load */
	t->agg_fd[1] = bpf_map__fd(s->maps.agg1);
	t->agg_max_used = t->agg_max[0];
	t->fixed_keys = cfg->fixed_keys;
	t->last_swap_ns = now_monotonic_ns();
	why[0] = '\0';
	return 0;
}

static int rb_cb(void *ctx, void *data, size_t len)
{
	struct tracer *t = ctx;
	const struct ca_event *e = data;

	/* a check the full map had no room for: kept as a drained entry is */
	if (len >= sizeof(struct ca_spill_event) && e->type == CA_EV_SPILL) {
		const struct ca_spill_event *sp = data;

		aggtab_add(&t->tab, &sp->key, &sp->val);
		t->spilled_since_swap++;
		return 0;
	}
	/* an object event has its own layout (struct ca_obj_event) */
	if (len >= sizeof(__u32) && e->type == CA_EV_OBJECT)
		return len >= sizeof(struct ca_obj_event) && t->on_event ?
		       t->on_event(t->ctx, data) : 0;
	if (len < CA_EVENT_SMALL || (e->type == CA_EV_EXEC && len < sizeof(*e)))
		return 0;
	return t->on_event ? t->on_event(t->ctx, data) : 0;
}

/* A mode, and the same without the ptrace-access hooks when the load
 * refused one of them: a kernel whose verifier refuses them still records;
 * the record then says ptrace access was not watched
 * (rec_header.ptrace_watched). A mode that fails for another reason is
 * not loaded twice. */
static int try_mode_hooks(struct tracer *t, const struct tracer_cfg *cfg, enum attach_mode m)
{
	struct tracer_cfg without = *cfg;
	char first[sizeof(t->why[m])];

	libbpf_hook_refused = false;
	if (!try_mode(t, cfg, m))
		return 0;
	if (cfg->ptrace_hooks)
		ptrace_hooks_ready(cfg->ptrace_hooks);   /* (a load that failed came first) */
	if (!libbpf_hook_refused || !ptrace_hooks_any(cfg->ptrace_hooks))
		return -1;
	snprintf(first, sizeof(first), "%s", t->why[m]);
	without.ptrace_hooks = NULL;
	if (try_mode(t, &without, m))
		return -1;
	if (cfg->verbose)
		fprintf(stderr, "capaudit: %s mode without the ptrace-access hooks: %s\n",
			attach_mode_name(m), first);
	return 0;
}

int tracer_start(struct tracer *t, const struct tracer_cfg *cfg, tracer_event_fn fn, void *ctx,
		 char *err, size_t errlen)
{
	struct attach_list order;
	size_t i, o = 0;

	memset(t, 0, sizeof(*t));
	t->on_event = fn;
	t->ctx = ctx;
	libbpf_verbose = cfg->verbose;
	libbpf_set_print(libbpf_print);

	phase_mark("feature probes");
	if (kfeat_use(&t->kfeat, false, err, errlen) < 0)
		return -1;   /* a bad $CAPAUDIT_WITHOUT: once, not per mode */
	order = attach_list_resolve(&cfg->modes);
	if (order.n == 1) {
		if (try_mode_hooks(t, cfg, order.m[0])) {
			snprintf(err, errlen, "attach mode %s: %s", attach_mode_name(order.m[0]),
				 t->why[order.m[0]]);
			return -1;
		}
	} else {
		for (i = 0; i < order.n && !t->skel; i++)
			try_mode_hooks(t, cfg, order.m[i]);
		if (!t->skel) {
			o = (size_t)snprintf(err, errlen, "no attach mode works here:");
			for (i = 0; i < order.n && o < errlen; i++) {
				enum attach_mode m = order.m[i];

				o += (size_t)snprintf(err + o, errlen - o, " %s: %s;",
						      attach_mode_name(m), t->why[m]);
			}
			if (o && o < errlen)
				err[o - 1] = '\0';
			return -1;
		}
	}
	phase_mark("ring buffer");
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.events), rb_cb, t, NULL);
	if (!t->rb) {
		snprintf(err, errlen, "ring buffer: %s", strerror(errno));
		tracer_close(t);
		return -1;
	}
	return 0;
}

int tracer_follow(struct tracer *t, uint32_t tgid, uint64_t pstart)
{
	__u64 start = pstart;
	int err;

	if (!t->procbytes) {
		size_t len = (size_t)bpf_map__max_entries(t->skel->maps.procbytes) * 8;
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       bpf_map__fd(t->skel->maps.procbytes), 0);

		if (m == MAP_FAILED)
			return -errno;
		t->procbytes = m;
		t->procbytes_len = len;
	}
	err = bpf_map__update_elem(t->skel->maps.procs, &tgid, sizeof(tgid), &start,
				   sizeof(start), BPF_ANY);
	/* the check programs look here first (a pid past the map: in procs) */
	if (!err && tgid < t->procbytes_len)
		t->procbytes[tgid] = 1;
	return err;
}

int tracer_set_scope(struct tracer *t, int cgroup_fd)
{
	__u32 zero = 0, fd = (__u32)cgroup_fd;

	return bpf_map__update_elem(t->skel->maps.scope_cgroup, &zero, sizeof(zero), &fd,
				    sizeof(fd), BPF_ANY);
}

bool tracer_loaded(const struct tracer *t)
{
	return t->skel != NULL;
}

int tracer_set_ranges(struct tracer *t, const struct ca_ranges *r)
{
	__u32 zero = 0;

	return bpf_map__update_elem(t->skel->maps.ranges, &zero, sizeof(zero), r, sizeof(*r),
				    BPF_ANY);
}

/* Events wake the poll only once the ring buffer is a quarter full (the
 * hooks' rb_wake()): the rest are read here when the wait times out,
 * which ring_buffer__poll() alone does not do. */
int tracer_poll(struct tracer *t, int timeout_ms)
{
	int n = 0, m;

	if (t->has_poll_fd) {
		struct epoll_event ev[2];

		if (epoll_wait(t->poll_fd, ev, 2, timeout_ms) < 0 && errno != EINTR)
			return -errno;
	} else {
		n = ring_buffer__poll(t->rb, timeout_ms);
		if (n == -EINTR)
			n = 0;
		if (n < 0)
			return n;
	}
	m = ring_buffer__consume(t->rb);
	return m < 0 ? (m == -EINTR ? n : m) : n + m;
}

int tracer_wake_fd(struct tracer *t, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int efd;

	if (t->has_poll_fd || !t->rb)
		return -1;
	efd = epoll_create1(EPOLL_CLOEXEC);
	if (efd < 0)
		return -1;
	ev.data.fd = ring_buffer__epoll_fd(t->rb);
	if (epoll_ctl(efd, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0)
		goto fail;
	ev.data.fd = fd;
	if (epoll_ctl(efd, EPOLL_CTL_ADD, fd, &ev) < 0)
		goto fail;
	t->poll_fd = efd;
	t->has_poll_fd = true;
	return 0;
fail:
	close(efd);
	return -1;
}

static void percpu_sum(struct bpf_map *map, __u32 nkeys, uint64_t *out)
{
	int ncpu = libbpf_num_possible_cpus(), c;
	__u64 *vals;
	__u32 k;

	memset(out, 0, nkeys * sizeof(*out));
	if (ncpu <= 0)
		return;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return;
	for (k = 0; k < nkeys; k++) {
		if (bpf_map_lookup_elem(bpf_map__fd(map), &k, vals))
			continue;
		for (c = 0; c < ncpu; c++)
			out[k] += vals[c];
	}
	free(vals);
}

void tracer_stats(struct tracer *t, uint64_t out[CA_STAT_NR])
{
	if (t->stopped)
		memcpy(out, t->stats, sizeof(t->stats));
	else
		percpu_sum(t->skel->maps.stats, CA_STAT_NR, out);
}

void tracer_overflow(struct tracer *t, uint64_t out[CA_OVERFLOW_SLOTS])
{
	if (t->stopped)
		memcpy(out, t->overflow, sizeof(t->overflow));
	else
		percpu_sum(t->skel->maps.overflow, CA_OVERFLOW_SLOTS, out);
}

/* ---- the maps copied out at the end ------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every entry of a hash map with 64-bit keys into c, keys sorted. */
static void map_copy_read(struct bpf_map *map, struct map_copy *c)
{
	int fd = bpf_map__fd(map);
	size_t cap = 0, i, j;
	__u64 key, next;
	void *prev = NULL;
	uint64_t *keys = NULL;

	memset(c, 0, sizeof(*c));
	c->vsize = bpf_map__value_size(map);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		if (c->n == cap) {
			cap = cap ? cap * 2 : 64;
			keys = xrealloc(keys, cap * sizeof(*keys));
		}
		keys[c->n++] = next;
		key = next;
		prev = &key;
	}
	if (c->n)
		qsort(keys, c->n, sizeof(*keys), cmp_u64);
	c->keys = xcalloc(c->n + 1, sizeof(*keys));
	c->vals = xcalloc(c->n + 1, c->vsize);
	for (i = j = 0; i < c->n; i++) {
		key = keys[i];
		/* (gone meanwhile: no program runs any more, so never) */
		if (!bpf_map_lookup_elem(fd, &key, c->vals + j * c->vsize))
			c->keys[j++] = keys[i];
	}
	c->n = j;
	free(keys);
}

/* The copied value of key, or NULL. */
static const void *map_copy_find(const struct map_copy *c, uint64_t key)
{
	const uint64_t *k = c->n ? bsearch(&key, c->keys, c->n, sizeof(key), cmp_u64) : NULL;

	return k ? c->vals + (size_t)(k - c->keys) * c->vsize : NULL;
}

static void map_copy_free(struct map_copy *c)
{
	free(c->keys);
	free(c->vals);
	memset(c, 0, sizeof(*c));
}

static int cmp_exe_id(const void *a, const void *b)
{
	const struct ca_exe_id *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->gen < y->gen ? -1 : x->gen > y->gen;
}

/* "exe_names" into t->exe_names: the programs exec'd while recording (at
 * most CA_EXE_NAMES), for checks named after the stop, when bpf() may be
 * refused (see map_copy_read's callers). */
static void exe_names_read(struct tracer *t)
{
	int fd = bpf_map__fd(t->skel->maps.exe_names);
	struct ca_exe_id key, next;
	void *prev = NULL;
	size_t cap = 0;

	while (!bpf_map_get_next_key(fd, prev, &next) && t->nexe_names < CA_EXE_NAMES) {
		key = next;
		prev = &key;
		grow_array((void **)&t->exe_names, &cap, t->nexe_names + 1, sizeof(*t->exe_names));
		t->exe_names[t->nexe_names].id = key;
		if (!bpf_map_lookup_elem(fd, &key, &t->exe_names[t->nexe_names].name))
			t->nexe_names++;
	}
	if (t->nexe_names)
		qsort(t->exe_names, t->nexe_names, sizeof(*t->exe_names), cmp_exe_id);
}

int tracer_exe_name(struct tracer *t, const struct ca_exe_id *id, struct ca_exe_name *out)
{
	const struct exe_name_copy *c;

	if (!id->ino)
		return -1;
	if (!t->stopped)
		return bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.exe_names), id, out) ? -1 : 0;
	/* (the id is the element's first member) */
	c = t->nexe_names ? bsearch(id, t->exe_names, t->nexe_names, sizeof(*c), cmp_exe_id) : NULL;
	if (!c)
		return -1;
	*out = c->name;
	return 0;
}

/* One per-CPU counter, summed. */
static uint64_t stat_one(struct tracer *t, enum ca_stat idx)
{
	int ncpu = libbpf_num_possible_cpus(), c;
	__u32 k = idx;
	__u64 *vals;
	uint64_t n = 0;

	if (ncpu <= 0 || !(vals = calloc((size_t)ncpu, sizeof(*vals))))
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.stats), &k, vals))
		for (c = 0; c < ncpu; c++)
			n += vals[c];
	free(vals);
	return n;
}

/* ---- draining the aggregation maps -------------------------------------- */

#define AGG_KEYS_MAX (1U << 20)     /* growth stops here */
#define GROW_WITHIN_NS (2000000000LL)  /* drains closer than this: grow */

/* Move every entry of the map fd (no program writes it any more) into tab. */
static int drain_map(struct tracer *t, int fd)
{
	size_t n = 1024, i;
	struct ca_key *keys = xcalloc(n, sizeof(*keys)), key, next;
	struct ca_val *vals = xcalloc(n, sizeof(*vals)), val;
	__u64 batch = 0;
	void *in = NULL;
	int err;

	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	for (;;) {
		__u32 count = (__u32)n;

		err = bpf_map_lookup_and_delete_batch(fd, in, &batch, keys, vals, &count, &opts);
		if (err && errno == ENOSPC && n < (1U << 20)) {
			/* one hash bucket holds more than n entries */
			n *= 2;
			keys = xrealloc(keys, n * sizeof(*keys));
			vals = xrealloc(vals, n * sizeof(*vals));
			continue;
		}
		for (i = 0; i < count && (!err || errno == ENOENT); i++)
			aggtab_add(&t->tab, &keys[i], &vals[i]);
		if (err)
			break;
		in = &batch;
	}
	free(keys);
	free(vals);
	if (errno == ENOENT)
		return 0;   /* the end of the map */
	if (errno != EINVAL && errno != KERNEL_ENOTSUPP && errno != EOPNOTSUPP)
		return -1;
	/* no batch operations (before Linux 5.6): one key at a time */
	while (!bpf_map_get_next_key(fd, NULL, &next)) {
		key = next;
		if (!bpf_map_lookup_elem(fd, &key, &val))
			aggtab_add(&t->tab, &key, &val);
		if (bpf_map_delete_elem(fd, &key))
			return -1;
	}
	return 0;
}

/* A new, empty aggregation map of max entries, or -1. */
static int new_agg_map(uint32_t max)
{
	return bpf_map_create(BPF_MAP_TYPE_HASH, "agg", sizeof(struct ca_key),
			      sizeof(struct ca_val), max, NULL);
}

/*
 * Swap the spare map into aggs[0], then drain the old one. The update of a
 * map-in-map returns only once every program that could still be using the
 * old inner map has finished (kernel/bpf/syscall.c maybe_wait_bpf_programs,
 * commit 1ae80cf31938): no count is ever added to a map being drained.
 */
static int tracer_drain(struct tracer *t)
{
	return tracer_drain_grow(t, true);
}

int tracer_drain_grow(struct tracer *t, bool may_grow)
{
	int spare = !t->cur, aggs = bpf_map__fd(t->skel->maps.aggs), old = t->cur, fd;
	int64_t now = now_monotonic_ns();
	uint32_t want = t->agg_max[old];
	__u32 zero = 0;

	/* draining as often as this, or the map filled before a drain came
	 * (the kernel sent checks through the ring buffer instead): the host
	 * makes keys faster than the map holds them comfortably; the spare
	 * grows (and never shrinks back) */
	if (may_grow && !t->stopped && !t->fixed_keys &&
	    (now - t->last_swap_ns < GROW_WITHIN_NS || t->spilled_since_swap) &&
	    want < AGG_KEYS_MAX)
		want *= 2;
	if (!t->stopped && t->agg_max[spare] < want && (fd = new_agg_map(want)) >= 0) {
		if (t->agg_owned[spare])
			close(t->agg_fd[spare]);
		t->agg_fd[spare] = fd;
		t->agg_owned[spare] = true;
		t->agg_max[spare] = want;
	}
	if (bpf_map_update_elem(aggs, &zero, &t->agg_fd[spare], BPF_ANY))
		return -1;
	t->cur = spare;
	t->keys_at_swap = stat_one(t, CA_STAT_KEYS);
	t->spilled_since_swap = 0;
	t->last_swap_ns = now;
	if (t->agg_max[spare] > t->agg_max_used)
		t->agg_max_used = t->agg_max[spare];
	if (!t->stopped)
		t->drains++;
	return drain_map(t, t->agg_fd[old]);
}

int tracer_drain_if_full(struct tracer *t)
{
	uint64_t added = stat_one(t, CA_STAT_KEYS) - t->keys_at_swap;

	if (added * 2 < t->agg_max[t->cur] && !t->spilled_since_swap)
		return 0;
	return tracer_drain(t) ? -1 : 1;
}

static int add_count(void *ctx, const struct ca_key *k, const struct ca_val *v)
{
	*(uint64_t *)ctx += v->count;
	return 0;
}

/* Every CPU's copy of the call-site cache; caller frees. */
static struct ca_cache *read_caches(struct tracer *t, int *ncpu)
{
	struct ca_cache *c;
	__u32 zero = 0;

	*ncpu = libbpf_num_possible_cpus();
	if (*ncpu <= 0)
		return NULL;
	c = calloc((size_t)*ncpu, sizeof(*c));
	if (c && bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.cache), &zero, c)) {
		free(c);
		return NULL;
	}
	return c;
}

/* Checks counted in the per-task caches, not yet in the agg map. */
static uint64_t tracer_pending(struct tracer *t)
{
	struct ca_cache *c;
	uint64_t n = 0;
	int ncpu, cpu, i;

	c = read_caches(t, &ncpu);
	for (cpu = 0; c && cpu < ncpu; cpu++)
		for (i = 0; i < CA_CACHE_SLOTS; i++)
			if (c[cpu].slots[i].tag)
				n += c[cpu].slots[i].count;
	free(c);
	return n;
}

void tracer_peek_pending(struct tracer *t,
			 void (*fn)(void *ctx, const struct ca_key *k, const struct ca_val *v),
			 void *ctx)
{
	struct ca_cache *c;
	int ncpu, cpu, i;

	c = read_caches(t, &ncpu);
	for (cpu = 0; c && cpu < ncpu; cpu++) {
		for (i = 0; i < CA_CACHE_SLOTS; i++) {
			struct ca_slot *s = &c[cpu].slots[i];
			struct ca_val v = { 0 };

			if (!s->tag || !s->count)
				continue;
			v.count = s->count;
			v.last_ns = s->last_ns;
			v.meta = s->meta;
			fn(ctx, &s->key, &v);
		}
	}
	free(c);
}

static void add_pending(void *ctx, const struct ca_key *k, const struct ca_val *v)
{
	aggtab_add(ctx, k, v);
}

/* Add every CPU's pending counts to tab (hooks detached: nothing races).
 * Each slot knows its key and first check, so even a slot whose map entry
 * could not be made keeps its attribution. */
static void fold_pending(struct tracer *t)
{
	tracer_peek_pending(t, add_pending, &t->tab);
}

uint64_t tracer_checks(struct tracer *t)
{
	uint64_t n = t->tab.total, ov[CA_OVERFLOW_SLOTS];
	struct ca_key key, next;
	struct ca_val val;
	void *prev = NULL;
	int fd = t->agg_fd[t->cur];
	size_t i;

	while (!t->stopped && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, &val))
			add_count(&n, &key, &val);
	}
	tracer_overflow(t, ov);
	for (i = 0; i < CA_OVERFLOW_SLOTS; i++)
		n += ov[i];
	return n + (t->stopped ? 0 : tracer_pending(t));
}

/* Checks the kernel ran no program for: a run that would have nested on
 * its CPU is skipped and counted in the program's recursion_misses. */
static uint64_t hook_skipped(struct tracer *t)
{
	struct bpf_program *progs[] = { t->skel->progs.tp_btf_cap_capable,
		t->skel->progs.tp_cap_capable, t->skel->progs.fexit_cap_capable,
		t->skel->progs.fexit_cap_capable_noleaf, t->skel->progs.kretprobe_cap_capable,
		t->skel->progs.kretprobe_cap_capable_noleaf };
	struct bpf_prog_info info;
	__u32 len;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		int fd = bpf_program__fd(progs[i]);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

uint64_t tracer_skipped(struct tracer *t)
{
	return t->stopped ? t->skipped : hook_skipped(t);
}

/*
 * The ptrace-access hooks' links are not released here: the programs are
 * told to send nothing more (hooks_stopped), and a copy of each link goes
 * to the session's ptrace_hooks, whose closer releases them after
 * capaudit is done (ptrace_hooks_close_start()). A syscall tracepoint's
 * link waits for
 * grace periods when released (perf_event_detach_bpf_prog(): the
 * syscall tracepoints may fault, tasks trace RCU), 55-65 ms at the end of
 * every `record -- true` here, however many threads release them.
 * libbpf's own descriptors are closed here (and the event disabled): not
 * the last references. Without room there, they are released here.
 */
static void hand_over_ptrace_links(struct tracer *t)
{
	const struct bpf_object_skeleton *sk = t->skel->skeleton;
	int i, fd;

	if (!t->pth || !t->skel->bss || t->ptrace_hooks <= 0)
		return;
	t->skel->bss->hooks_stopped = true;
	for (i = 0; i < sk->prog_cnt; i++) {
		struct bpf_link **link = sk->progs[i].link;

		if (!*link || !is_ptrace_hook(*sk->progs[i].prog))
			continue;
		fd = fcntl(bpf_link__fd(*link), F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			continue;   /* detached with the rest */
		if (!ptrace_hooks_hold(t->pth, fd)) {
			close(fd);
			continue;
		}
		bpf_link__destroy(*link);   /* not the last reference: at once */
		*link = NULL;
	}
}

static void *destroy_link(void *link)
{
	bpf_link__destroy(link);
	return NULL;
}

/* Every link of the skeleton destroyed, each on a thread of its own, all
 * joined before this returns (as capaudit_bpf__detach(), in parallel),
 * but the ptrace-access hooks' (hand_over_ptrace_links()). */
static void detach_parallel(struct tracer *t)
{
	const struct bpf_object_skeleton *sk = t->skel->skeleton;
	pthread_t tid[64];
	sigset_t all, old;
	int i, n = 0;

	hand_over_ptrace_links(t);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);   /* signals stay the main thread's */
	for (i = 0; i < sk->prog_cnt; i++) {
		struct bpf_link **link = sk->progs[i].link;

		if (!*link)
			continue;
		if (n >= (int)(sizeof(tid) / sizeof(tid[0])) ||
		    pthread_create(&tid[n], NULL, destroy_link, *link))
			bpf_link__destroy(*link);
		else
			n++;
		*link = NULL;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
}

void tracer_stop(struct tracer *t)
{
	struct timespec settle = { 0, 20 * 1000 * 1000 };

	if (!t->skel || t->stopped)
		return;
	detach_parallel(t);
	phase_mark("drain");
	t->stopped = true;
	/* the swap waits for programs still running on another CPU; should it
	 * fail, they finish within microseconds */
	if (tracer_drain(t)) {
		nanosleep(&settle, NULL);
		drain_map(t, t->agg_fd[!t->cur]);
		drain_map(t, t->agg_fd[t->cur]);
	}
	fold_pending(t);
	t->skipped = hook_skipped(t);
	percpu_sum(t->skel->maps.stats, CA_STAT_NR, t->stats);
	percpu_sum(t->skel->maps.overflow, CA_OVERFLOW_SLOTS, t->overflow);
	map_copy_read(t->skel->maps.kstacks, &t->kstacks);
	map_copy_read(t->skel->maps.ustacks, &t->ustacks);
	exe_names_read(t);
}

int tracer_foreach_check(struct tracer *t,
			 int (*fn)(void *ctx, const struct ca_key *k, const struct ca_val *v),
			 void *ctx)
{
	size_t i;
	int rc;

	for (i = 0; i < t->tab.n; i++) {
		rc = fn(ctx, &t->tab.e[i].key, &t->tab.e[i].val);
		if (rc)
			return rc;
	}
	return 0;
}

/* One stack map's entry key into out (size bytes, zeroed first): from the
 * copy taken at stop once the tracer is stopped, else from the map itself.
 * False when key is 0 or there is no such entry. */
static bool stack_lookup(const struct tracer *t, struct bpf_map *map, const struct map_copy *c,
			 uint64_t key, void *out, size_t size)
{
	__u64 k = key;
	const void *copy;

	if (!key)
		return false;
	memset(out, 0, size);
	if (t->stopped) {
		if (!(copy = map_copy_find(c, k)))
			return false;
		memcpy(out, copy, size);
		return true;
	}
	return !bpf_map_lookup_elem(bpf_map__fd(map), &k, out);
}

int tracer_stack(struct tracer *t, uint64_t kstack, uint64_t ips[CA_STACK_DEPTH])
{
	int n;

	if (!stack_lookup(t, t->skel->maps.kstacks, &t->kstacks, kstack, ips,
			  sizeof(struct ca_kstack)))
		return -1;
	for (n = 0; n < CA_STACK_DEPTH && ips[n]; n++)
		;
	return n;
}

void tracer_forget_stack(struct tracer *t, uint64_t kstack)
{
	__u64 key = kstack;

	if (kstack)
		bpf_map_delete_elem(bpf_map__fd(t->skel->maps.kstacks), &key);
}

int tracer_ustack(struct tracer *t, uint64_t ustack, struct bpf_stack_build_id *out)
{
	int n;

	if (!stack_lookup(t, t->skel->maps.ustacks, &t->ustacks, ustack, out,
			  sizeof(struct ca_ustack)))
		return -1;
	for (n = 0; n < CA_USTACK_DEPTH && out[n].status != BPF_STACK_BUILD_ID_EMPTY; n++)
		;
	return n;
}

void tracer_close(struct tracer *t)
{
	int i;

	if (t->procbytes)
		munmap(t->procbytes, t->procbytes_len);
	t->procbytes = NULL;

	for (i = 0; i < 2; i++)
		if (t->agg_owned[i])
			close(t->agg_fd[i]);
	t->agg_owned[0] = t->agg_owned[1] = false;
	aggtab_free(&t->tab);
	map_copy_free(&t->kstacks);
	map_copy_free(&t->ustacks);
	free(t->exe_names);
	t->exe_names = NULL;
	t->nexe_names = 0;
	if (t->has_poll_fd)
		close(t->poll_fd);
	t->has_poll_fd = false;
	ring_buffer__free(t->rb);
	t->rb = NULL;
	if (t->skel)
		capaudit_bpf__destroy(t->skel);
	t->skel = NULL;
}
