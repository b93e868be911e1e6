// SPDX-License-Identifier: GPL-2.0
/* Record file writer and strict reader (JSON Lines, docs/record-format.md). */
#include "recfile.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "capnames.h"
#include "jsonutil.h"
#include "syscalls.h"
#include "util.h"

static size_t pid_slot(const struct record *r, uint32_t pid, uint32_t exec_id)
{
	uint64_t h = ((uint64_t)pid << 32 | exec_id) * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> 20) & (r->pidcap - 1);

	while (r->pidtab[i]) {
		const struct rec_process *p = &r->procs[r->pidtab[i] - 1];

		if (p->pid == pid && p->exec_id == exec_id)
			break;
		i = (i + 1) & (r->pidcap - 1);
	}
	return i;
}

static void rehash(struct record *r, size_t cap)
{
	size_t k;

	free(r->pidtab);
	r->pidcap = cap;
	r->pidtab = xcalloc(r->pidcap, sizeof(*r->pidtab));
	for (k = 0; k < r->nprocs; k++)
		r->pidtab[pid_slot(r, r->procs[k].pid, r->procs[k].exec_id)] = (uint32_t)k + 1;
}

struct rec_process *record_add_process(struct record *r, uint32_t pid, uint32_t exec_id)
{
	struct rec_process *p;

	if ((r->nprocs + 1) * 2 > r->pidcap)  /* keep the table under half full */
		rehash(r, r->pidcap ? r->pidcap * 2 : 64);
	grow_array((void **)&r->procs, &r->cap_procs, r->nprocs + 1, sizeof(*r->procs));
	p = &r->procs[r->nprocs++];
	p->pid = pid;
	p->exec_id = exec_id;
	r->pidtab[pid_slot(r, pid, exec_id)] = (uint32_t)r->nprocs;
	return p;
}

void record_set_exec_id(struct record *r, struct rec_process *p, uint32_t exec_id)
{
	p->exec_id = exec_id;
	rehash(r, r->pidcap);  /* rare: only when an image is first identified */
}

struct rec_check *record_add_check(struct record *r)
{
	grow_array((void **)&r->checks, &r->cap_checks, r->nchecks + 1, sizeof(*r->checks));
	return &r->checks[r->nchecks++];
}

struct rec_process *record_find_process(const struct record *r, uint32_t pid, uint32_t exec_id)
{
	size_t i;

	if (!r->pidcap)
		return NULL;
	i = pid_slot(r, pid, exec_id);
	return r->pidtab[i] ? &r->procs[r->pidtab[i] - 1] : NULL;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void record_free(struct record *r)
{
	struct rec_header *h = &r->hdr;
	size_t i;

	free(h->capaudit_version);
	free(h->kernel);
	free(h->machine);
	free(h->attach);
	free(h->scope);
	free(h->symbols);
	free_strv(h->argv, h->argc);
	free(h->overflow);
	for (i = 0; i < r->nprocs; i++) {
		free(r->procs[i].comm);
		free(r->procs[i].exe);
	}
	free(r->procs);
	for (i = 0; i < r->nchecks; i++) {
		free(r->checks[i].comm);
		free_strv(r->checks[i].stack, r->checks[i].nstack);
		free(r->checks[i].stack_error);
	}
	free(r->checks);
	free(r->pidtab);
	memset(r, 0, sizeof(*r));
}

/* ---- writer ---------------------------------------------------------- */

static json_t *header_json(const struct rec_header *h)
{
	json_t *o = json_object(), *argv = json_array(), *lost = json_object();
	json_t *ov = json_array();
	char ts[40], name[CAP_NAME_LEN];
	size_t i;

	json_set(o, "type", json_string("header"));
	json_set(o, "format", json_string(REC_FORMAT));
	json_set(o, "version", json_integer(REC_VERSION));
	json_set_bytes(o, "capaudit", h->capaudit_version);
	json_set_bytes(o, "kernel", h->kernel);
	json_set_bytes(o, "machine", h->machine);
	json_set_bytes(o, "attach", h->attach);
	json_set_bytes(o, "scope", h->scope);
	json_set_bytes(o, "symbols", h->symbols);
	for (i = 0; i < h->argc; i++)
		json_array_append_new(argv, json_bytes(h->argv[i]));
	json_set(o, "argv", argv);
	format_iso8601(h->start_ns, ts, sizeof(ts));
	json_set(o, "start", json_string(ts));
	format_iso8601(h->end_ns, ts, sizeof(ts));
	json_set(o, "end", json_string(ts));
	json_set(o, "start_ns", json_integer(h->start_ns));
	json_set(o, "end_ns", json_integer(h->end_ns));
	json_set(o, "checks", json_integer((json_int_t)h->checks));
	json_set(lost, "map_full", json_integer((json_int_t)h->lost.map_full));
	json_set(lost, "ringbuf_full", json_integer((json_int_t)h->lost.ringbuf_full));
	json_set(lost, "stack_errors", json_integer((json_int_t)h->lost.stack_errors));
	json_set(lost, "proc_full", json_integer((json_int_t)h->lost.proc_full));
	json_set(lost, "result_lost", json_integer((json_int_t)h->lost.result_lost));
	json_set(o, "lost", lost);
	json_set(o, "syscall_results", json_boolean(h->syscall_results));
	for (i = 0; i < h->noverflow; i++) {
		json_t *e = json_object();

		json_set(e, "cap", json_integer(h->overflow[i].cap));
		json_set(e, "cap_name", json_string(cap_name(h->overflow[i].cap, name)));
		json_set(e, "denied", json_boolean(h->overflow[i].denied));
		json_set(e, "count", json_integer((json_int_t)h->overflow[i].count));
		json_array_append_new(ov, e);
	}
	json_set(o, "overflow", ov);
	if (h->has_exit_status)
		json_set(o, "exit_status", json_integer(h->exit_status));
	return o;
}

static json_t *process_json(const struct rec_process *p)
{
	json_t *o = json_object();

	json_set(o, "type", json_string("process"));
	json_set(o, "pid", json_integer(p->pid));
	json_set(o, "exec_id", json_integer(p->exec_id));
	json_set(o, "ppid", json_integer(p->ppid));
	json_set(o, "uid", json_integer(p->uid));
	json_set_bytes(o, "comm", p->comm ? p->comm : "");
	json_set_bytes(o, "exe", p->exe);
	if (p->exited)
		json_set(o, "exit_code", json_integer(p->exit_code));
	return o;
}

static json_t *check_json(const struct rec_check *c)
{
	json_t *o = json_object(), *st = json_array();
	char name[CAP_NAME_LEN];
	const char *sys = syscall_name(c->syscall);
	size_t i;

	json_set(o, "type", json_string("check"));
	json_set(o, "pid", json_integer(c->pid));
	json_set(o, "exec_id", json_integer(c->exec_id));
	json_set(o, "tid", json_integer(c->tid));
	json_set(o, "uid", json_integer(c->uid));
	json_set_bytes(o, "comm", c->comm ? c->comm : "");
	json_set(o, "cgroup", json_integer((json_int_t)c->cgroup));
	json_set(o, "cap", json_integer(c->cap));
	json_set(o, "cap_name", json_string(cap_name(c->cap, name)));
	json_set(o, "ret", json_integer(c->ret));
	json_set(o, "verdict", json_string(c->ret == 0 ? "granted" : "denied"));
	json_set(o, "count", json_integer((json_int_t)c->count));
	json_set(o, "syscall", json_integer(c->syscall));
	if (sys)
		json_set(o, "syscall_name", json_string(sys));
	json_set(o, "init_ns", json_boolean(c->init_ns));
	if (c->opts_known) {
		json_t *opts = json_object();

		json_set(opts, "noaudit", json_boolean(c->opt_noaudit));
		json_set(opts, "insetid", json_boolean(c->opt_insetid));
		json_set(o, "opts", opts);
	}
	json_set(o, "first_ns", json_integer(c->first_ns));
	json_set(o, "last_ns", json_integer(c->last_ns));
	if (c->ret)
		json_set(o, "syscall_failed", json_integer((json_int_t)c->sys_failed));
	for (i = 0; i < c->nstack; i++)
		json_array_append_new(st, json_bytes(c->stack[i]));
	json_set(o, "stack", st);
	json_set_bytes(o, "stack_error", c->stack_error);
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
	for (i = 0; i < r->nchecks; i++)
		if (put(f, check_json(&r->checks[i])))
			return -1;
	if (fflush(f) == EOF || ferror(f))
		return -1;
	return 0;
}

/* ---- reader ---------------------------------------------------------- */

/* Every reader below has `char *why` and `size_t wlen` for its message. */
#define GET_STR(o, k, req, out) json_get_str(o, k, req, out, why, wlen)
#define GET_INT(o, k, req, lo, hi, out) json_get_i64(o, k, req, lo, hi, out, why, wlen)
#define GET_BOOL(o, k, req, out) json_get_bool(o, k, req, out, why, wlen)

static int read_strv(json_t *o, const char *key, bool required, char ***out, size_t *n,
		     char *why, size_t wlen)
{
	json_t *a = json_object_get(o, key), *v;
	size_t i;

	if (!a) {
		if (required)
			snprintf(why, wlen, "missing field '%s'", key);
		return required ? -1 : 0;
	}
	if (!json_is_array(a)) {
		snprintf(why, wlen, "field '%s' must be an array of strings", key);
		return -1;
	}
	*out = xcalloc(json_array_size(a) + 1, sizeof(char *));
	*n = 0;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			snprintf(why, wlen, "field '%s' item %zu must be a string", key, i);
			return -1;
		}
		(*out)[(*n)++] = xstrdup(json_string_value(v));
	}
	return 0;
}

static char *dup_opt(const char *s) { return s ? xstrdup(s) : NULL; }

static int read_header(json_t *o, struct rec_header *h, char *why, size_t wlen)
{
	const char *format = NULL, *s;
	int64_t v = 0;
	json_t *lost, *ov, *e;
	size_t i;

	if (GET_STR(o, "format", true, &format))
		return -1;
	if (strcmp(format, REC_FORMAT)) {
		snprintf(why, wlen, "format is '%.40s', not a capaudit record ('%s')", format,
			 REC_FORMAT);
		return -1;
	}
	if (GET_INT(o, "version", true, 1, INT32_MAX, &v))
		return -1;
	if (v > REC_VERSION) {
		snprintf(why, wlen, "record version %lld is newer than this capaudit reads (%d)",
			 (long long)v, REC_VERSION);
		return -1;
	}
	h->version = (int)v;
#define STRF(key, field, req) \
	do { s = NULL; if (GET_STR(o, key, req, &s)) return -1; h->field = dup_opt(s); } while (0)
	STRF("capaudit", capaudit_version, false);
	STRF("kernel", kernel, true);
	STRF("machine", machine, false);
	STRF("attach", attach, true);
	STRF("scope", scope, false);
	STRF("symbols", symbols, false);
#undef STRF
	if (read_strv(o, "argv", false, &h->argv, &h->argc, why, wlen))
		return -1;
	if (GET_INT(o, "start_ns", true, 0, INT64_MAX, &h->start_ns) ||
	    GET_INT(o, "end_ns", true, 0, INT64_MAX, &h->end_ns))
		return -1;
	v = 0;
	if (GET_INT(o, "checks", false, 0, INT64_MAX, &v))
		return -1;
	h->checks = (uint64_t)v;
	lost = json_object_get(o, "lost");
	if (lost) {
		int64_t a = 0, b = 0, c = 0, d = 0, e = 0;

		if (!json_is_object(lost)) {
			snprintf(why, wlen, "field 'lost' must be an object");
			return -1;
		}
		if (GET_INT(lost, "map_full", false, 0, INT64_MAX, &a) ||
		    GET_INT(lost, "ringbuf_full", false, 0, INT64_MAX, &b) ||
		    GET_INT(lost, "stack_errors", false, 0, INT64_MAX, &c) ||
		    GET_INT(lost, "proc_full", false, 0, INT64_MAX, &d) ||
		    GET_INT(lost, "result_lost", false, 0, INT64_MAX, &e))
			return -1;
		h->lost = (struct rec_lost){ (uint64_t)a, (uint64_t)b, (uint64_t)c, (uint64_t)d,
					     (uint64_t)e };
	}
	if (GET_BOOL(o, "syscall_results", false, &h->syscall_results))
		return -1;
	ov = json_object_get(o, "overflow");
	if (ov) {
		if (!json_is_array(ov)) {
			snprintf(why, wlen, "field 'overflow' must be an array");
			return -1;
		}
		h->overflow = xcalloc(json_array_size(ov) + 1, sizeof(*h->overflow));
		json_array_foreach(ov, i, e) {
			int64_t cap = 0, count = 0;
			bool denied = false;

			if (!json_is_object(e)) {
				snprintf(why, wlen, "overflow item %zu must be an object", i);
				return -1;
			}
			if (GET_INT(e, "cap", true, 0, REC_MAX_CAP, &cap) ||
			    GET_BOOL(e, "denied", true, &denied) ||
			    GET_INT(e, "count", true, 0, INT64_MAX, &count))
				return -1;
			h->overflow[h->noverflow++] =
				(struct rec_overflow){ (int)cap, denied, (uint64_t)count };
		}
	}
	if (json_object_get(o, "exit_status")) {
		if (GET_INT(o, "exit_status", true, 0, 255 + 128, &v))
			return -1;
		h->has_exit_status = true;
		h->exit_status = (int)v;
	}
	return 0;
}

static int read_process(json_t *o, struct record *r, char *why, size_t wlen)
{
	int64_t pid, exec_id = 0, ppid = 0, uid = 0, code = 0;
	const char *comm = "", *exe = NULL;
	struct rec_process *p;

	if (GET_INT(o, "pid", true, 1, INT32_MAX, &pid) ||
	    GET_INT(o, "exec_id", false, 0, UINT32_MAX, &exec_id) ||
	    GET_INT(o, "ppid", false, 0, INT32_MAX, &ppid) ||
	    GET_INT(o, "uid", false, 0, UINT32_MAX, &uid) ||
	    GET_STR(o, "comm", false, &comm) || GET_STR(o, "exe", false, &exe))
		return -1;
	if (json_object_get(o, "exit_code") &&
	    GET_INT(o, "exit_code", true, 0, 255, &code))
		return -1;
	if (record_find_process(r, (uint32_t)pid, (uint32_t)exec_id)) {
		snprintf(why, wlen, "process %lld (exec_id %lld) appears twice", (long long)pid,
			 (long long)exec_id);
		return -1;
	}
	p = record_add_process(r, (uint32_t)pid, (uint32_t)exec_id);
	p->ppid = (uint32_t)ppid;
	p->uid = (uint32_t)uid;
	p->comm = xstrdup(comm);
	p->exe = dup_opt(exe);
	p->exited = json_object_get(o, "exit_code") != NULL;
	p->exit_code = (int)code;
	return 0;
}

static int read_check(json_t *o, struct record *r, char *why, size_t wlen)
{
	int64_t pid, exec_id = 0, tid = 0, uid = 0, cgroup = 0, cap, ret, count, sys = -1;
	int64_t first = 0, last = 0, failed = 0;
	const char *comm = "", *serr = NULL;
	bool init_ns = false;
	json_t *opts;
	struct rec_check c = { 0 };

	if (GET_INT(o, "pid", true, 1, INT32_MAX, &pid) ||
	    GET_INT(o, "exec_id", false, 0, UINT32_MAX, &exec_id) ||
	    GET_INT(o, "tid", false, 0, INT32_MAX, &tid) ||
	    GET_INT(o, "uid", false, 0, UINT32_MAX, &uid) ||
	    GET_STR(o, "comm", false, &comm) ||
	    GET_INT(o, "cgroup", false, 0, INT64_MAX, &cgroup) ||
	    GET_INT(o, "cap", true, 0, REC_MAX_CAP, &cap) ||
	    GET_INT(o, "ret", true, -4095, 0, &ret) ||
	    GET_INT(o, "count", true, 1, INT64_MAX, &count) ||
	    GET_INT(o, "syscall", false, -1, 4095, &sys) ||
	    GET_BOOL(o, "init_ns", false, &init_ns) ||
	    GET_INT(o, "first_ns", false, 0, INT64_MAX, &first) ||
	    GET_INT(o, "last_ns", false, 0, INT64_MAX, &last) ||
	    GET_INT(o, "syscall_failed", false, 0, INT64_MAX, &failed) ||
	    GET_STR(o, "stack_error", false, &serr))
		return -1;
	if (failed > count) {
		snprintf(why, wlen, "field 'syscall_failed' (%lld) exceeds 'count' (%lld)",
			 (long long)failed, (long long)count);
		return -1;
	}
	if (!record_find_process(r, (uint32_t)pid, (uint32_t)exec_id)) {
		snprintf(why, wlen, "check for pid %lld (exec_id %lld) comes before (or without) "
			 "its process line", (long long)pid, (long long)exec_id);
		return -1;
	}
	opts = json_object_get(o, "opts");
	if (opts) {
		if (!json_is_object(opts)) {
			snprintf(why, wlen, "field 'opts' must be an object");
			return -1;
		}
		if (GET_BOOL(opts, "noaudit", true, &c.opt_noaudit) ||
		    GET_BOOL(opts, "insetid", true, &c.opt_insetid))
			return -1;
		c.opts_known = true;
	}
	if (read_strv(o, "stack", false, &c.stack, &c.nstack, why, wlen)) {
		free_strv(c.stack, c.nstack);
		return -1;
	}
	c.pid = (uint32_t)pid;
	c.exec_id = (uint32_t)exec_id;
	c.tid = (uint32_t)tid;
	c.uid = (uint32_t)uid;
	c.comm = xstrdup(comm);
	c.cgroup = (uint64_t)cgroup;
	c.cap = (int)cap;
	c.ret = (int)ret;
	c.count = (uint64_t)count;
	c.syscall = (int)sys;
	c.init_ns = init_ns;
	c.first_ns = first;
	c.last_ns = last;
	c.sys_failed = (uint64_t)failed;
	c.stack_error = dup_opt(serr);
	*record_add_check(r) = c;
	return 0;
}

int recfile_read(FILE *f, const char *name, struct record *r, char *err, size_t errlen)
{
	char *line = NULL, why[256];
	const size_t wlen = sizeof(why);
	size_t cap = 0, lineno = 0;
	bool have_header = false;
	ssize_t n;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	while ((n = getline(&line, &cap, f)) >= 0) {
		json_error_t jerr;
		const char *type = NULL;
		json_t *o;

		lineno++;
		why[0] = '\0';
		if (n > REC_MAX_LINE) {
			snprintf(err, errlen, "%s:%zu: line is %zd bytes, longer than %d", name,
				 lineno, n, REC_MAX_LINE);
			rc = -1;
			break;
		}
		if ((size_t)n != strlen(line)) {
			snprintf(err, errlen, "%s:%zu: NUL byte: not a text record file", name, lineno);
			rc = -1;
			break;
		}
		o = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
		if (!o) {
			snprintf(err, errlen, "%s:%zu: invalid JSON: %s", name, lineno, jerr.text);
			rc = -1;
			break;
		}
		if (!json_is_object(o)) {
			snprintf(why, wlen, "a line must be a JSON object");
			rc = -1;
		} else if (GET_STR(o, "type", true, &type)) {
			rc = -1;
		} else if (!have_header) {
			if (strcmp(type, "header")) {
				snprintf(why, wlen,
					 "first line must be the header, found type '%.40s'", type);
				rc = -1;
			} else {
				rc = read_header(o, &r->hdr, why, wlen);
				have_header = true;
			}
		} else if (!strcmp(type, "header")) {
			snprintf(why, wlen, "a second header");
			rc = -1;
		} else if (!strcmp(type, "process")) {
			rc = read_process(o, r, why, wlen);
		} else if (!strcmp(type, "check")) {
			rc = read_check(o, r, why, wlen);
		} else {
			snprintf(why, wlen, "unknown line type '%.40s'", type);
			rc = -1;
		}
		json_decref(o);
		if (rc) {
			char safe[300];

			snprintf(err, errlen, "%s:%zu: %s", name, lineno,
				 text_escape(why, safe, sizeof(safe)));
			break;
		}
	}
	free(line);
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
		rc = -1;
	}
	if (!rc && !have_header) {
		snprintf(err, errlen, "%s:%zu: empty file: no record header", name, lineno + 1);
		rc = -1;
	}
	if (rc)
		record_free(r);
	return rc;
}

int recfile_load(const char *path, struct record *r, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	rc = recfile_read(f, path, r, err, errlen);
	fclose(f);
	return rc;
}
