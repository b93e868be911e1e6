// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a record file (docs/record-format.md): JSON Lines, one jansson
 * object per line, in the order the reader expects (header, processes,
 * stacks, user stacks, checks) and ending with the counts of the end line.
 * rec_uframe_json() and rec_lost_json() are also how report --format json
 * shows a user frame and what was lost.
 */
#include "recfile/recfile.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "facts/capjson.h"
#include "facts/capnames.h"
#include "facts/kfeat.h"
#include "facts/syscalls.h"
#include "lib/jsonutil.h"
#include "lib/util.h"

json_t *rec_lost_json(const struct rec_lost *l)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < rec_lost_nkinds; i++)
		json_set(o, rec_lost_kinds[i].key, json_uint(rec_lost_count(l, &rec_lost_kinds[i])));
	return o;
}

json_t *rec_kernel_bpf_json(const struct rec_header *h)
{
	json_t *o, *missing, *degraded;
	size_t i;

	if (!h->kernel_missing && !h->ndegraded)
		return NULL;
	o = json_object();
	missing = json_array();
	degraded = json_array();
	for (i = 0; i < KF_NR; i++)
		if (h->kernel_missing & kfeat_table[i].bit)
			json_array_append_new(missing, json_string(kfeat_table[i].name));
	for (i = 0; i < h->ndegraded; i++)
		json_array_append_new(degraded, json_bytes(h->degraded[i]));
	json_set(o, "missing", missing);
	json_set(o, "degraded", degraded);
	return o;
}

static json_t *header_json(const struct rec_header *h)
{
	json_t *o = json_object(), *argv = json_array();
	json_t *ov = json_array();
	char ts[40], name[CAP_NAME_LEN];
	size_t i;

	json_set(o, "type", json_string("header"));
	json_set(o, "format", json_string(REC_FORMAT));
	json_set(o, "version", json_integer(REC_VERSION));
	json_set_bytes(o, "capaudit", h->capaudit_version);
	json_set_bytes(o, "kernel", h->kernel);
	json_set_bytes(o, "machine", h->machine);
	json_set_bytes(o, "arch", h->arch);
	json_set_bytes(o, "attach", h->attach);
	json_set_bytes(o, "scope", h->scope);
	json_set(o, "target", rec_target_json(h));   /* NULL: no key */
	json_set_bytes(o, "symbols", h->symbols);
	json_set(o, "kernel_bpf", rec_kernel_bpf_json(h));   /* NULL: no key */
	for (i = 0; i < h->argc; i++)
		json_array_append_new(argv, json_bytes(h->argv[i]));
	json_set(o, "argv", argv);
	format_iso8601(h->start_ns, ts, sizeof(ts));
	json_set(o, "start", json_string(ts));
	format_iso8601(h->end_ns, ts, sizeof(ts));
	json_set(o, "end", json_string(ts));
	json_set(o, "start_ns", json_integer(h->start_ns));
	json_set(o, "end_ns", json_integer(h->end_ns));
	json_set(o, "checks", json_uint(h->checks));
	json_set(o, "lost", rec_lost_json(&h->lost));
	json_set(o, "syscall_results", json_boolean(h->syscall_results));
	if (h->has_ptrace_watched)
		json_set(o, "ptrace_watched", json_boolean(h->ptrace_watched));
	for (i = 0; i < h->noverflow; i++) {
		json_t *e = json_object();

		json_set(e, "cap", json_integer(h->overflow[i].cap));
		json_set(e, "cap_name", json_string(cap_name(h->overflow[i].cap, name)));
		json_set(e, "denied", json_boolean(h->overflow[i].denied));
		json_set(e, "count", json_uint(h->overflow[i].count));
		json_array_append_new(ov, e);
	}
	json_set(o, "overflow", ov);
	if (h->has_exit_status)
		json_set(o, "exit_status", json_integer(h->exit_status));
	json_set_bytes(o, "stop", h->stop);
	if (h->command_running)
		json_set(o, "command_running", json_true());
	if (h->loader_rss_kb) {
		json_t *l = json_object();

		json_set(l, "cpu_s", json_real(h->loader_cpu_s));
		json_set(l, "max_rss_kb", json_integer(h->loader_rss_kb));
		json_set(o, "loader", l);
	}
	if (h->pids_reused)
		json_set(o, "pids_reused", json_uint(h->pids_reused));
	if (h->agg_keys) {
		json_t *a = json_object();

		json_set(a, "drains", json_uint(h->agg_drains));
		json_set(a, "max_keys", json_uint(h->agg_keys));
		json_set(o, "aggregation", a);
	}
	if (h->has_monitor) {
		json_t *m = json_object();

		json_set(m, "interval", json_real(h->monitor_interval));
		json_set(m, "checkpoint", json_uint(h->monitor_checkpoint));
		json_set(m, "since_ns", json_integer(h->monitor_since_ns));
		json_set(o, "monitor", m);
	}
	if (h->has_cache) {
		json_t *c = json_object();

		json_set(c, "misses", json_uint(h->cache_misses));
		json_set(c, "hit_walks", json_uint(h->cache_hit_walks));
		json_set(c, "splits", json_uint(h->cache_splits));
		json_set(c, "unproven", json_uint(h->cache_unproven));
		json_set(o, "cache", c);
	}
	return o;
}

static json_t *stack_json(const struct rec_stack *st, size_t id)
{
	json_t *o = json_object(), *fr = json_array();
	size_t i;

	json_set(o, "type", json_string("stack"));
	json_set(o, "id", json_uint(id));
	for (i = 0; i < st->n; i++)
		json_array_append_new(fr, json_bytes(st->frames[i]));
	json_set(o, "frames", fr);
	return o;
}

json_t *rec_uframe_json(const struct rec_uframe *f)
{
	json_t *o = json_object();

	json_set_bytes(o, "build_id", f->build_id);
	json_set(o, "offset", json_uint(f->offset));
	json_set_bytes(o, "object", f->object);
	json_set_bytes(o, "function", f->function);
	if (f->function)
		json_set(o, "func_off", json_uint(f->func_off));
	json_set_bytes(o, "source", f->source);
	if (f->line > 0)
		json_set(o, "line", json_integer(f->line));
	if (f->leaf)
		json_set(o, "leaf", json_true());
	if (f->address)
		json_set(o, "address", json_true());
	return o;
}

static json_t *ustack_json(const struct rec_ustack *us, size_t id)
{
	json_t *o = json_object(), *fr = json_array();
	size_t i;

	json_set(o, "type", json_string("ustack"));
	json_set(o, "id", json_uint(id));
	for (i = 0; i < us->n; i++)
		json_array_append_new(fr, rec_uframe_json(&us->frames[i]));
	json_set(o, "frames", fr);
	return o;
}

static json_t *process_json(const struct rec_process *p)
{
	json_t *o = json_object();

	json_set(o, "type", json_string("process"));
	json_set(o, "pid", json_integer(p->pid));
	json_set(o, "start_ns", json_integer(p->start_ns));
	json_set(o, "exec_id", json_integer(p->exec_id));
	json_set(o, "ppid", json_integer(p->ppid));
	json_set(o, "uid", json_integer(p->uid));
	json_set_bytes(o, "comm", p->comm ? p->comm : "");
	json_set_bytes(o, "exe", p->exe);
	if (p->exited)
		json_set(o, "exit_code", json_integer(p->exit_code));
	if (p->has_capset) {
		json_t *cs = json_object();

		json_set(cs, "effective", json_capset(p->capset_eff));
		json_set(cs, "permitted", json_capset(p->capset_prm));
		json_set(cs, "inheritable", json_capset(p->capset_inh));
		json_set(o, "capset", cs);
	}
	if (p->ptrace_targets || p->ptrace_unknown) {
		json_t *pt = json_object();

		json_set(pt, "targets", json_integer(p->ptrace_targets));
		json_set(pt, "unknown", json_integer(p->ptrace_unknown));
		json_set(pt, "permitted", json_capset(p->ptrace_prm));
		if (p->ptrace_ex_comm) {
			json_t *ex = json_object();

			json_set(ex, "pid", json_integer(p->ptrace_ex_pid));
			json_set_bytes(ex, "comm", p->ptrace_ex_comm);
			json_set_bytes(ex, "via", p->ptrace_ex_via ? p->ptrace_ex_via : "");
			json_set(pt, "example", ex);
		}
		json_set(o, "ptrace_access", pt);
	}
	if (p->build_id)
		json_set(o, "build_id", json_string(p->build_id));
	if (p->cgroup)
		json_set_bytes(o, "cgroup", p->cgroup);
	if (p->container_id) {
		json_t *ct = json_object();

		json_set_bytes(ct, "id", p->container_id);
		if (p->container_name)
			json_set_bytes(ct, "name", p->container_name);
		if (p->container_runtime)
			json_set_bytes(ct, "runtime", p->container_runtime);
		json_set(o, "container", ct);
	}
	if (p->unit)
		json_set_bytes(o, "unit", p->unit);
	if (p->secure_exec)
		json_set(o, "secure_exec", json_true());
	if (p->runtime_setup)
		json_set(o, "runtime_setup", json_true());
	if (p->pids)
		json_set(o, "pids", json_uint(p->pids));
	return o;
}

static json_t *check_json(const struct record *r, const struct rec_check *c)
{
	json_t *o = json_object();
	char name[CAP_NAME_LEN];
	const char *sys = c->sysname ? c->sysname : syscall_name_arch(r->hdr.arch, c->syscall);

	json_set(o, "type", json_string("check"));
	json_set(o, "pid", json_integer(c->pid));
	json_set(o, "start_ns", json_integer(c->start_ns));
	json_set(o, "exec_id", json_integer(c->exec_id));
	json_set(o, "tid", json_integer(c->tid));
	json_set(o, "uid", json_integer(c->uid));
	json_set_bytes(o, "comm", c->comm ? c->comm : "");
	json_set(o, "cgroup", json_uint(c->cgroup));
	json_set(o, "cap", json_integer(c->cap));
	json_set(o, "cap_name", json_string(cap_name(c->cap, name)));
	json_set(o, "ret", json_integer(c->ret));
	json_set(o, "count", json_uint(c->count));
	json_set(o, "syscall", json_integer(c->syscall));
	if (sys)
		json_set(o, "syscall_name", json_string(sys));
	json_set(o, "init_ns", json_boolean(c->init_ns));
	if (c->userns == RU_INSIDE || c->userns == RU_OWNER)
		json_set(o, "userns", json_string(c->userns == RU_INSIDE ? "inside" : "owner"));
	if (c->no_effect)
		json_set(o, "no_effect", json_true());
	if (c->args_checked)
		json_set(o, "args_checked", json_true());
	if (c->foreign_cred)
		json_set(o, "foreign_cred", json_true());
	if (c->opts_known) {
		json_t *opts = json_object();

		json_set(opts, "noaudit", json_boolean(c->opt_noaudit));
		json_set(opts, "insetid", json_boolean(c->opt_insetid));
		json_set(o, "opts", opts);
	}
	json_set(o, "first_ns", json_integer(c->first_ns));
	json_set(o, "last_ns", json_integer(c->last_ns));
	if (c->ret)
		json_set(o, "syscall_failed", json_uint(c->sys_failed));
	if (c->ret && c->sys_other) {
		const char *en = c->sys_errno > 0 ? strerrorname_np(c->sys_errno) : NULL;
		char num[16];

		snprintf(num, sizeof(num), "%d", c->sys_errno);
		json_set(o, "syscall_other", json_uint(c->sys_other));
		json_set(o, "syscall_errno", json_string(en ? en : num));
	}
	if (c->ret && c->sys_restart)
		json_set(o, "syscall_restart", json_uint(c->sys_restart));
	json_set(o, "stack", c->stack >= 0 ? json_integer(c->stack) : json_null());
	json_set_bytes(o, "stack_error", c->stack_error);
	if (check_ustack(r, c))
		json_set(o, "ustack", json_integer(c->ustack));
	return o;
}

static int put(FILE *f, json_t *o)
{
	int rc = json_write_line(f, o);

	json_decref(o);
	return rc;
}

int recfile_write(FILE *f, const struct record *r)
{
	size_t i;

	if (put(f, header_json(&r->hdr)))
		return -1;
	for (i = 0; i < r->nprocs; i++)
		if (put(f, process_json(&r->procs[i])))
			return -1;
	for (i = 0; i < r->nstacks; i++)
		if (put(f, stack_json(&r->stacks[i], i)))
			return -1;
	for (i = 0; i < r->nustacks; i++)
		if (put(f, ustack_json(&r->ustacks[i], i)))
			return -1;
	for (i = 0; i < r->nchecks; i++)
		if (put(f, check_json(r, &r->checks[i])))
			return -1;
	/* the last line: a reader knows the file is whole */
	{
		json_t *o = json_object();

		json_set(o, "type", json_string("end"));
		json_set(o, "processes", json_uint(r->nprocs));
		json_set(o, "stacks", json_uint(r->nstacks));
		json_set(o, "checks", json_uint(r->nchecks));
		if (r->nustacks)
			json_set(o, "ustacks", json_uint(r->nustacks));
		if (put(f, o))
			return -1;
	}
	if (fflush(f) == EOF || ferror(f))
		return -1;
	return 0;
}

