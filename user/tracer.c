// SPDX-License-Identifier: GPL-2.0
#include "tracer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capaudit.skel.h"
#include "privs.h"

/* libbpf's log: kept quiet unless verbose, but its last line explains
 * failures, so remember it. */
static bool libbpf_verbose;
static char libbpf_last[160];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024];
	size_t n;

	vsnprintf(line, sizeof(line), fmt, ap);
	if (libbpf_verbose)
		fputs(line, stderr);
	if (level == LIBBPF_WARN) {
		n = strcspn(line, "\n");
		snprintf(libbpf_last, sizeof(libbpf_last), "%.*s", (int)n, line);
	}
	return 0;
}

static void choose_programs(struct capaudit_bpf *s, enum attach_mode m, bool results)
{
	/* sys_exit slows every syscall on the system: only when asked for */
	bpf_program__set_autoload(s->progs.sys_exit, results);
	bpf_program__set_autoload(s->progs.tp_btf_cap_capable, m == ATTACH_TP_BTF);
	bpf_program__set_autoload(s->progs.tp_cap_capable, m == ATTACH_TRACEPOINT);
	bpf_program__set_autoload(s->progs.fexit_cap_capable, m == ATTACH_FEXIT);
	bpf_program__set_autoload(s->progs.kprobe_cap_capable, m == ATTACH_KPROBE);
	bpf_program__set_autoload(s->progs.kretprobe_cap_capable, m == ATTACH_KPROBE);
}

/* A short reason for a load/attach failure, in the user's terms. */
static void explain(char *why, size_t n, const char *stage, int err, enum attach_mode m)
{
	struct privs p;
	bool have = !privs_read(&p) && (p.eff & PRIVS_NEEDED) == PRIVS_NEEDED;

	err = err < 0 ? -err : err;
	if ((err == EACCES || err == EPERM) && m == ATTACH_KPROBE && perf_event_paranoid() > 2)
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
	else
		snprintf(why, n, "%s failed: %s%s%s", stage, strerror(err),
			 libbpf_last[0] ? "; libbpf: " : "", libbpf_last);
}

/* The kprobe programs onto the pre-opened perf events. The links take
 * copies of the fds (a link closes its fd when destroyed; the originals
 * stay for another try). */
static int attach_kprobe_events(struct capaudit_bpf *s, const struct kprobe_events *k)
{
	int fd;

	fd = fcntl(k->entry, F_DUPFD_CLOEXEC, 0);
	s->links.kprobe_cap_capable = fd < 0 ? NULL :
		bpf_program__attach_perf_event(s->progs.kprobe_cap_capable, fd);
	if (!s->links.kprobe_cap_capable) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	fd = fcntl(k->ret, F_DUPFD_CLOEXEC, 0);
	s->links.kretprobe_cap_capable = fd < 0 ? NULL :
		bpf_program__attach_perf_event(s->progs.kretprobe_cap_capable, fd);
	if (!s->links.kretprobe_cap_capable) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	return 0;
}

static int try_mode(struct tracer *t, const struct tracer_cfg *cfg, enum attach_mode m)
{
	char *why = t->why[m];

	struct capaudit_bpf *s;
	bool pre;
	int err;

	if (attach_precheck(m, why, sizeof(t->why[m])))
		return -1;
	libbpf_last[0] = '\0';
	s = capaudit_bpf__open();
	if (!s) {
		explain(why, sizeof(t->why[m]), "open", errno, m);
		return -1;
	}
	s->rodata->cfg_all = cfg->all;
	s->rodata->self_tgid = cfg->self_tgid;
	s->rodata->track_results = cfg->syscall_results;
	s->rodata->verify_mask = cfg->exact_stacks ? 0 : 255;
	s->rodata->cfg_user_stacks = cfg->user_stacks;
	choose_programs(s, m, cfg->syscall_results);
	/* kprobe mode with perf events opened before the privilege drop:
	 * attached to those below, not by the skeleton (which would open new
	 * ones, refused at perf_event_paranoid=3) */
	pre = m == ATTACH_KPROBE && cfg->kprobe_events && cfg->kprobe_events->entry >= 0;
	bpf_program__set_autoattach(s->progs.kprobe_cap_capable, !pre);
	bpf_program__set_autoattach(s->progs.kretprobe_cap_capable, !pre);
	/* the user stack map (build ids: 32 bytes a frame) only when used */
	if ((!cfg->user_stacks && (err = bpf_map__set_max_entries(s->maps.ustacks, 1))) ||
	    (cfg->max_keys && (err = bpf_map__set_max_entries(s->maps.agg, cfg->max_keys))) ||
	    (cfg->ringbuf_bytes &&
	     (err = bpf_map__set_max_entries(s->maps.events, cfg->ringbuf_bytes)))) {
		explain(why, sizeof(t->why[m]), "map sizes", err, m);
		capaudit_bpf__destroy(s);
		return -1;
	}
	err = capaudit_bpf__load(s);
	if (err) {
		explain(why, sizeof(t->why[m]), "load", err, m);
		capaudit_bpf__destroy(s);
		return -1;
	}
	err = capaudit_bpf__attach(s);
	if (!err && pre)
		err = attach_kprobe_events(s, cfg->kprobe_events);
	if (err) {
		explain(why, sizeof(t->why[m]), "attach", err, m);
		capaudit_bpf__destroy(s);
		return -1;
	}
	t->skel = s;
	t->mode = m;
	why[0] = '\0';
	return 0;
}

static int rb_cb(void *ctx, void *data, size_t len)
{
	struct tracer *t = ctx;

	if (len < sizeof(struct ca_event))
		return 0;
	return t->on_event ? t->on_event(t->ctx, data) : 0;
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

	order = attach_list_resolve(&cfg->modes);
	if (order.n == 1) {
		if (try_mode(t, cfg, order.m[0])) {
			snprintf(err, errlen, "attach mode %s: %s", attach_mode_name(order.m[0]),
				 t->why[order.m[0]]);
			return -1;
		}
	} else {
		for (i = 0; i < order.n && !t->skel; i++)
			try_mode(t, cfg, order.m[i]);
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
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.events), rb_cb, t, NULL);
	if (!t->rb) {
		snprintf(err, errlen, "ring buffer: %s", strerror(errno));
		tracer_close(t);
		return -1;
	}
	return 0;
}

int tracer_follow(struct tracer *t, uint32_t tgid)
{
	__u8 one = 1;

	return bpf_map__update_elem(t->skel->maps.procs, &tgid, sizeof(tgid), &one, sizeof(one),
				    BPF_ANY);
}

size_t tracer_followed(struct tracer *t)
{
	__u32 key, next, gone[64];
	size_t n = 0, ngone = 0, i;
	int fd = bpf_map__fd(t->skel->maps.procs);

	if (bpf_map_get_next_key(fd, NULL, &next))
		return 0;
	do {
		key = next;
		/* a process that exited before the exit hook was attached (or
		 * while its fork was being followed from /proc) has no exit event
		 * to remove it: it would be waited for forever */
		if (kill((pid_t)key, 0) && errno == ESRCH && ngone < 64)
			gone[ngone++] = key;
		else
			n++;
	} while (!bpf_map_get_next_key(fd, &key, &next));
	for (i = 0; i < ngone; i++)
		bpf_map_delete_elem(fd, &gone[i]);
	return n;
}

int tracer_poll(struct tracer *t, int timeout_ms)
{
	int n = ring_buffer__poll(t->rb, timeout_ms);

	return n == -EINTR ? 0 : n;
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
	percpu_sum(t->skel->maps.stats, CA_STAT_NR, out);
	out[CA_STAT_MAP_FULL] += t->extra_map_full;
}

void tracer_overflow(struct tracer *t, uint64_t out[CA_OVERFLOW_SLOTS])
{
	size_t i;

	percpu_sum(t->skel->maps.overflow, CA_OVERFLOW_SLOTS, out);
	for (i = 0; i < CA_OVERFLOW_SLOTS; i++)
		out[i] += t->extra_overflow[i];
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

uint64_t tracer_pending(struct tracer *t)
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

/* Add every CPU's pending counts to agg (hooks detached: nothing races). */
static void fold_pending(struct tracer *t)
{
	int fd = bpf_map__fd(t->skel->maps.agg), ncpu, cpu, i;
	struct ca_cache *c = read_caches(t, &ncpu);
	struct ca_val v;

	for (cpu = 0; c && cpu < ncpu; cpu++) {
		for (i = 0; i < CA_CACHE_SLOTS; i++) {
			struct ca_slot *s = &c[cpu].slots[i];

			if (!s->tag || !s->count)
				continue;
			if (s->in_agg && !bpf_map_lookup_elem(fd, &s->key, &v)) {
				v.count += s->count;
				if (s->last_ns > v.last_ns)
					v.last_ns = s->last_ns;
				if (!bpf_map_update_elem(fd, &s->key, &v, BPF_EXIST))
					continue;
			}
			/* no agg entry (map full): counted per capability */
			t->extra_overflow[(s->key.cap & CA_MAX_CAP) * 2 + (s->key.ret ? 1 : 0)] +=
				s->count;
			t->extra_map_full += s->count;
		}
	}
	free(c);
}

/* Checks the kernel ran no program for: a run that would have nested on
 * its CPU is skipped and counted in the program's recursion_misses. */
static uint64_t hook_skipped(struct tracer *t)
{
	struct bpf_program *progs[] = { t->skel->progs.tp_btf_cap_capable,
		t->skel->progs.tp_cap_capable, t->skel->progs.fexit_cap_capable,
		t->skel->progs.kretprobe_cap_capable };
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

void tracer_stop(struct tracer *t)
{
	struct timespec settle = { 0, 20 * 1000 * 1000 };

	if (!t->skel || t->stopped)
		return;
	capaudit_bpf__detach(t->skel);
	/* programs already running on another CPU finish within microseconds */
	nanosleep(&settle, NULL);
	fold_pending(t);
	t->skipped = hook_skipped(t);
	t->stopped = true;
}

int tracer_foreach_check(struct tracer *t,
			 int (*fn)(void *ctx, const struct ca_key *k, const struct ca_val *v),
			 void *ctx)
{
	int fd = bpf_map__fd(t->skel->maps.agg), rc;
	struct ca_key key, next;
	struct ca_val val;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		rc = fn(ctx, &key, &val);
		if (rc)
			return rc;
	}
	return 0;
}

int tracer_stack(struct tracer *t, int32_t id, uint64_t ips[CA_STACK_DEPTH])
{
	__u32 key = (__u32)id;
	int n;

	if (id < 0)
		return -1;
	memset(ips, 0, CA_STACK_DEPTH * sizeof(*ips));
	if (bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.stacks), &key, ips))
		return -1;
	for (n = 0; n < CA_STACK_DEPTH && ips[n]; n++)
		;
	return n;
}

int tracer_ustack(struct tracer *t, int32_t id, struct bpf_stack_build_id *out)
{
	__u32 key = (__u32)id;
	int n;

	if (id < 0)
		return -1;
	memset(out, 0, CA_USTACK_DEPTH * sizeof(*out));
	if (bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.ustacks), &key, out))
		return -1;
	for (n = 0; n < CA_USTACK_DEPTH && out[n].status != BPF_STACK_BUILD_ID_EMPTY; n++)
		;
	return n;
}

void tracer_close(struct tracer *t)
{
	ring_buffer__free(t->rb);
	t->rb = NULL;
	if (t->skel)
		capaudit_bpf__destroy(t->skel);
	t->skel = NULL;
}
