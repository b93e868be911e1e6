// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit monitor --events: one JSON line per first use of (program
 * identity, capability, call site, verdict), one per loss, and with
 * --baseline one per use the baseline does not allow (docs/monitor.md).
 * The kernel sends a small event when a check adds a key to its
 * aggregation map (CA_EV_NEWKEY); the same use comes again after every
 * drain, so lines are deduplicated here, in a table as large as the
 * monitor's rows. Each line is flushed: a log pipeline sees it at once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze/baseline.h"
#include "analyze/check.h"
#include "analyze/objset.h"
#include "analyze/objtext.h"
#include "facts/capnames.h"
#include "facts/syscalls.h"
#include "lib/jsonutil.h"
#include "lib/msg.h"
#include "lib/outfile.h"
#include "lib/util.h"
#include "monitor/monstate.h"
#include "record/record.h"

static int open_path(struct mon_events *ev)
{
	if (!ev->path) {
		ev->f = stdout;
		return 0;
	}
	char err[1200];
	int fd = outfile_open_append(ev->path, err, sizeof(err));   /* as -o: lib/outfile.h */

	ev->f = fd >= 0 ? fdopen(fd, "a") : NULL;
	if (!ev->f) {
		if (fd >= 0) {
			snprintf(err, sizeof(err), "%s: %s", ev->path, strerror(errno));
			close(fd);
		}
		p_err("--events %s", err);
		return -1;
	}
	return 0;
}

struct mon_events *mon_events_open(struct monitor *m, const char *path)
{
	struct mon_events *ev = xcalloc(1, sizeof(*ev));

	ev->m = m;
	ev->trouble.what = "events file";
	ev->path = strcmp(path, "-") ? xstrdup(path) : NULL;
	if (open_path(ev)) {
		mon_events_close(ev);
		return NULL;
	}
	return ev;
}

/* SIGHUP (logrotate moved the file): the path opened anew. When it cannot
 * be (its directory moved too), the lines go on to the file already open
 * and the path is tried again at each checkpoint: never a reason to stop. */
int mon_events_reopen(struct mon_events *ev)
{
	char err[1200];
	FILE *f;
	int fd;

	if (!ev->path)
		return 0;
	fd = outfile_open_append(ev->path, err, sizeof(err));   /* as -o: lib/outfile.h */
	f = fd >= 0 ? fdopen(fd, "a") : NULL;
	if (!f) {
		if (fd >= 0) {
			snprintf(err, sizeof(err), "%s: %s", ev->path, strerror(errno));
			close(fd);
		}
		ev->reopen = true;
		trouble_failed(&ev->trouble, "--events: cannot open it again: %s; its lines go on "
			       "to the file open before", err);
		return 0;
	}
	fclose(ev->f);
	ev->f = f;
	ev->reopen = false;
	trouble_ok(&ev->trouble);
	return 0;
}

void mon_events_retry(struct mon_events *ev)
{
	if (ev->reopen)
		mon_events_reopen(ev);
}

void mon_events_close(struct mon_events *ev)
{
	if (!ev)
		return;
	if (ev->f && ev->f != stdout)
		fclose(ev->f);
	else if (ev->f)
		fflush(ev->f);
	hindex_free(&ev->seen);
	free(ev->deferred);
	free(ev->held);
	free(ev->keys);
	free(ev->path);
	free(ev);
}

/* One line, written whole and flushed. */
static void emit(struct mon_events *ev, json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);

	json_decref(o);
	if (!s)
		return;
	fprintf(ev->f, "%s\n", s);
	if (fflush(ev->f) || ferror(ev->f)) {
		/* a full disk: this line is lost, counted, said; the next may go */
		trouble_failed(&ev->trouble, "--events: cannot write %s: %s",
			       ev->path ? ev->path : "standard output", strerror(errno));
		clearerr(ev->f);
	} else {
		trouble_ok(&ev->trouble);
		ev->lines++;
	}
	free(s);
}

static json_t *line(const char *kind, int64_t ts_ns)
{
	json_t *o = json_object();

	json_set(o, "ts", json_real((double)ts_ns / 1e9));
	json_set(o, "kind", json_string(kind));
	return o;
}

/* What names the program: its identity's fields. */
static void program_fields(json_t *o, const struct mon_ident *id)
{
	json_t *p = json_object();

	json_set_bytes(p, "exe", id->exe);
	json_set_bytes(p, "comm", id->comm);
	json_set(o, "program", p);
	if (id->container_id) {
		json_t *c = json_object();

		json_set_bytes(c, "id", id->container_id);
		json_set_bytes(c, "name", id->container_name);
		json_set(o, "container", c);
	}
	json_set_bytes(o, "unit", id->unit);
	json_set_bytes(o, "cgroup", id->cgroup);
	json_set(o, "uid", json_uint(id->uid));
}

static json_t *use_line(struct mon_events *ev, const char *kind, const struct ca_event *e,
			uint32_t ident, const char *site)
{
	json_t *o = line(kind, session_to_epoch(ev->m->sess, e->ts_ns));
	char cbuf[CAP_NAME_LEN];
	const char *sc = e->syscall >= 0 ? syscall_name(e->syscall) : NULL;

	program_fields(o, &ev->m->f.ids[ident]);
	json_set(o, "pid", json_uint(e->tgid));
	json_set(o, "cap", json_string(cap_name(e->cap, cbuf)));
	json_set(o, "verdict", json_string(e->ret ? "denied" : "granted"));
	json_set_bytes(o, "callsite", site);
	if (sc)
		json_set(o, "syscall", json_string(sc));
	else if (e->syscall >= 0)
		json_set(o, "syscall", json_integer(e->syscall));
	json_set(o, "count", json_uint(1));
	return o;
}

/* Would `check --baseline` count this use, and is it allowed? The kind of
 * finding, or NULL. Probes and answers that cannot matter never count. */
static const char *finding(struct mon_events *ev, const struct ca_event *e, int stack,
			   const char *site)
{
	struct baseline *b = ev->m->o->baseline;
	enum check_match match = ev->m->o->match;
	struct bl_entry *be;
	char num[32];
	const char *sc = check_syscall_label(e->syscall, syscall_name(e->syscall), num, sizeof(num));
	bool sys_new;

	if (!b || (e->kflags & (CA_F_NOAUDIT | CA_F_NO_EFFECT | CA_F_FOREIGN_CRED | CA_F_NS_OWNER)))
		return NULL;
	if (stack >= 0 && ev->m->f.stacks[stack].noaudit)
		return NULL;
	/* capabilities, then syscalls (where the baseline lists them), call
	 * sites only at --match callsite: as check compares */
	be = bl_find(e->ret ? b->denied : b->caps, e->ret ? b->ndenied : b->ncaps, e->cap);
	if (!be)
		return finding_kind_name(e->ret ? FK_NEW_DENIAL : FK_NEW_CAP);
	sys_new = match >= MATCH_SYSCALL && be->has_sys && !bl_find_sys(be, sc);
	if (sys_new)
		return finding_kind_name(e->ret ? FK_NEW_DENIAL : FK_NEW_SYSCALL);
	if (match == MATCH_CALLSITE && !bl_find_site(be, site))
		return finding_kind_name(e->ret ? FK_NEW_DENIAL : FK_NEW_SITE);
	return NULL;
}

struct seen_probe {
	const struct mon_events *ev;
	struct mon_seen k;
};

static bool seen_eq(const void *ctx, size_t pos)
{
	const struct seen_probe *q = ctx;
	const struct mon_seen *s = &q->ev->keys[pos];

	return s->ident == q->k.ident && s->cap == q->k.cap && s->ret == q->k.ret &&
	       s->site == q->k.site;
}

/* Not written before: remembered now. */
static bool first_time(struct mon_events *ev, const struct mon_seen *k)
{
	struct seen_probe q = { ev, *k };
	uint64_t h = hash_str(hash_u64(hash_u64(0x5e, k->ident),
				       (uint64_t)k->cap << 32 | (uint32_t)k->ret), k->site);

	if (hindex_find(&ev->seen, h, seen_eq, &q) >= 0)
		return false;
	grow_array((void **)&ev->keys, &ev->cap_keys, ev->nkeys + 1, sizeof(*ev->keys));
	ev->keys[ev->nkeys] = *k;
	hindex_add(&ev->seen, h, ev->nkeys++);
	return true;
}

/* A check made during an exec, before its exec event: its image is named
 * once that event is in (mon_events_flush()). */
static bool defer(struct mon_events *ev, const struct ca_event *e)
{
	struct session *s = ev->m->sess;

	const struct rec_process *p = record_find_process(ev->m->live, e->tgid,
							  session_to_epoch(s, e->pstart), e->exec_id);

	/* an image announced by its first check has no executable until its
	 * exec event comes */
	if ((p && p->exe) || ev->ndefer == MON_DEFER_MAX)
		return false;
	grow_array((void **)&ev->deferred, &ev->cap_defer, ev->ndefer + 1, sizeof(*e));
	memcpy(&ev->deferred[ev->ndefer++], e, CA_EVENT_SMALL);
	return true;
}

static void newkey(struct mon_events *ev, const struct ca_event *e);

/* Events deferred for MON_DEFER_NS: the exec that made them has ended by
 * then (a check in execve() comes before its exec event, which the exec
 * sends once it has succeeded). */
void mon_events_flush(struct mon_events *ev, bool all)
{
	int64_t now = now_monotonic_ns();
	size_t i, keep = 0;

	ev->flushing = true;
	for (i = 0; i < ev->nheld; i++)
		newkey(ev, &ev->held[i]);
	ev->nheld = 0;
	for (i = 0; i < ev->ndefer; i++) {
		if (!all && (int64_t)ev->deferred[i].ts_ns > now - MON_DEFER_NS)
			ev->deferred[keep++] = ev->deferred[i];
		else
			newkey(ev, &ev->deferred[i]);
	}
	ev->ndefer = keep;
	ev->flushing = false;
}

/* The hook sends a new key's object event right after its new-key event:
 * the line waits for the end of the poll (mon_events_flush()), and so
 * names the object when both came in the same poll. */
static bool hold(struct mon_events *ev, const struct ca_event *e)
{
	if (ev->nheld == MON_DEFER_MAX)
		return false;
	grow_array((void **)&ev->held, &ev->cap_held, ev->nheld + 1, sizeof(*e));
	memcpy(&ev->held[ev->nheld++], e, CA_EVENT_SMALL);
	return true;
}

void mon_events_newkey(struct mon_events *ev, const struct ca_event *e)
{
	if (ev->flushing || (!defer(ev, e) && !hold(ev, e)))
		newkey(ev, e);
}

/* The objects the row of the new key holds by now ("objects", as a
 * record's check line has them, each with its text) */
static void objects_fields(json_t *o, struct mon_events *ev, const struct ca_event *e,
			   uint32_t ident, int stack)
{
	struct ca_key k = { .tgid = e->tgid, .exec_id = e->exec_id, .pstart = e->pstart,
			    .kstack = e->kstack, .syscall = e->syscall, .ret = e->ret,
			    .cap = e->cap, .flags = e->kflags, .op = e->key_op };
	const struct mon_row *r = fold_find_row(&ev->m->f, ident, &k, stack);
	struct obj_set set = { 0 };
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nobjs; i++)
		obj_set_add(&set, &r->objs[i].o, 1);
	objects_json_set(o, &set);
}

static void newkey(struct mon_events *ev, const struct ca_event *e)
{
	struct ca_meta meta = { .first_ns = e->ts_ns, .cgroup_id = e->key_cgroup, .uid = e->uid,
				.tid = e->tid };
	struct mon_seen k;
	int stack;
	const char *kind;
	bool noaudit;

	memcpy(meta.comm, e->comm, CA_COMM_LEN);
	k.ident = mon_identity(ev->m, e->tgid, e->pstart, e->exec_id, &meta, false);
	stack = mon_stack(ev->m, e->kstack);
	noaudit = (e->kflags & CA_F_NOAUDIT) || (stack >= 0 && ev->m->f.stacks[stack].noaudit);
	/* the kernel probing (the mmap accounting check, ...) is no
	 * program's use of a capability: left out unless --noaudit */
	if (noaudit && !ev->m->o->keep_noaudit)
		return;
	k.site = fold_site(&ev->m->f, stack);
	k.cap = e->cap;
	k.ret = e->ret;
	if (!first_time(ev, &k))
		return;
	{
		json_t *o = use_line(ev, "first_use", e, k.ident, k.site);

		json_set(o, "noaudit", json_boolean(noaudit));
		objects_fields(o, ev, e, k.ident, stack);
		emit(ev, o);
	}
	kind = finding(ev, e, stack, k.site);
	if (kind) {
		json_t *o = use_line(ev, "finding", e, k.ident, k.site);

		json_set(o, "finding", json_string(kind));
		objects_fields(o, ev, e, k.ident, stack);
		emit(ev, o);
		ev->findings++;
	}
}

void mon_events_losses(struct mon_events *ev)
{
	struct rec_lost now;
	size_t i;

	session_lost_so_far(ev->m->sess, &now);
	for (i = 0; i < rec_lost_nkinds; i++) {
		uint64_t was = rec_lost_count(&ev->lost, &rec_lost_kinds[i]);
		uint64_t is = rec_lost_count(&now, &rec_lost_kinds[i]);
		json_t *o;

		if (is <= was)
			continue;
		o = line("loss", now_realtime_ns());
		json_set(o, "loss", json_string(rec_lost_kinds[i].key));
		json_set(o, "what", json_string(rec_lost_kinds[i].what));
		json_set(o, "count", json_uint(is - was));
		json_set(o, "total", json_uint(is));
		emit(ev, o);
	}
	ev->lost = now;
}
