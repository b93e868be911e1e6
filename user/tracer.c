// SPDX-License-Identifier: GPL-2.0
#include "tracer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
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

static void choose_programs(struct capaudit_bpf *s, enum attach_mode m)
{
	bpf_program__set_autoload(s->progs.tp_btf_cap_capable, m == ATTACH_TP_BTF);
	bpf_program__set_autoload(s->progs.tp_cap_capable, m == ATTACH_TRACEPOINT);
	bpf_program__set_autoload(s->progs.fexit_cap_capable, m == ATTACH_FEXIT);
	bpf_program__set_autoload(s->progs.kprobe_cap_capable, m == ATTACH_KPROBE);
	bpf_program__set_autoload(s->progs.kretprobe_cap_capable, m == ATTACH_KPROBE);
	/* attached by hand (bpf_program__attach_iter), not by the skeleton */
	bpf_program__set_autoattach(s->progs.flush_tasks, false);
	if (getenv("CA_NO_SYSEXIT")) bpf_program__set_autoload(s->progs.sys_exit, false);
}

/* A short reason for a load/attach failure, in the user's terms. */
static void explain(char *why, size_t n, const char *stage, int err, enum attach_mode m)
{
	struct privs p;
	bool have = !privs_read(&p) && (p.eff & PRIVS_NEEDED) == PRIVS_NEEDED;

	err = err < 0 ? -err : err;
	if (err == EPERM && m == ATTACH_FEXIT && have)
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

static int try_mode(struct tracer *t, const struct tracer_cfg *cfg, enum attach_mode m)
{
	char *why = t->why[m];

	struct capaudit_bpf *s;
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
	choose_programs(s, m);
	err = capaudit_bpf__load(s);
	if (err) {
		explain(why, sizeof(t->why[m]), "load", err, m);
		capaudit_bpf__destroy(s);
		return -1;
	}
	err = capaudit_bpf__attach(s);
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
	size_t i, o = 0;

	memset(t, 0, sizeof(*t));
	t->on_event = fn;
	t->ctx = ctx;
	libbpf_verbose = cfg->verbose;
	libbpf_set_print(libbpf_print);

	if (cfg->mode != ATTACH_AUTO) {
		if (try_mode(t, cfg, cfg->mode)) {
			snprintf(err, errlen, "attach mode %s: %s", attach_mode_name(cfg->mode),
				 t->why[cfg->mode]);
			return -1;
		}
	} else {
		for (i = 0; i < ATTACH_NR - 1 && !t->skel; i++)
			try_mode(t, cfg, attach_auto_order[i]);
		if (!t->skel) {
			o = (size_t)snprintf(err, errlen, "no attach mode works here:");
			for (i = 0; i < ATTACH_NR - 1 && o < errlen; i++) {
				enum attach_mode m = attach_auto_order[i];

				o += (size_t)snprintf(err + o, errlen - o, " %s: %s;",
						      attach_mode_name(m), t->why[m]);
			}
			if (o && o < errlen)
				err[o - 1] = '\0';
			return -1;
		}
	}
	t->iter = bpf_program__attach_iter(t->skel->progs.flush_tasks, NULL);
	if (!t->iter) {
		snprintf(err, errlen, "iter/task: %s", strerror(errno));
		tracer_close(t);
		return -1;
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
	__u32 key, next;
	size_t n = 0;
	int fd = bpf_map__fd(t->skel->maps.procs);

	if (bpf_map_get_next_key(fd, NULL, &next))
		return 0;
	do {
		key = next;
		n++;
	} while (!bpf_map_get_next_key(fd, &key, &next));
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
}

void tracer_overflow(struct tracer *t, uint64_t out[CA_OVERFLOW_SLOTS])
{
	percpu_sum(t->skel->maps.overflow, CA_OVERFLOW_SLOTS, out);
}

/* Run the task iterator once, flushing or only adding up pending counts. */
static int run_iter(struct tracer *t, int flush)
{
	char buf[64];
	ssize_t n;
	int fd;

	if (!t->iter)
		return -1;
	t->skel->bss->iter_flush = flush;
	t->skel->bss->iter_pending = 0;
	fd = bpf_iter_create(bpf_link__fd(t->iter));
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		;
	close(fd);
	return n < 0 ? -1 : 0;
}

uint64_t tracer_pending(struct tracer *t)
{
	return run_iter(t, 0) ? 0 : t->skel->bss->iter_pending;
}

static void drop_link(struct bpf_link **l)
{
	bpf_link__destroy(*l);
	*l = NULL;
}

void tracer_stop(struct tracer *t)
{
	struct capaudit_bpf *s = t->skel;
	struct timespec settle = { 0, 20 * 1000 * 1000 };

	if (!s)
		return;
	drop_link(&s->links.tp_btf_cap_capable);
	drop_link(&s->links.tp_cap_capable);
	drop_link(&s->links.fexit_cap_capable);
	drop_link(&s->links.kprobe_cap_capable);
	drop_link(&s->links.kretprobe_cap_capable);
	drop_link(&s->links.sys_exit);
	drop_link(&s->links.sched_process_fork);
	drop_link(&s->links.sched_process_exec);
	/* programs already running on another CPU finish within microseconds;
	 * the exit hook stays, so threads exiting now still flush themselves */
	nanosleep(&settle, NULL);
	run_iter(t, 1);
	capaudit_bpf__detach(s);
	drop_link(&t->iter);
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

void tracer_close(struct tracer *t)
{
	drop_link(&t->iter);
	ring_buffer__free(t->rb);
	t->rb = NULL;
	if (t->skel)
		capaudit_bpf__destroy(t->skel);
	t->skel = NULL;
}
