// SPDX-License-Identifier: GPL-2.0
/*
 * The objects the hook sent (CA_EV_OBJECT, bpf/objects.bpf.h), by check
 * key, made into the record's objects (recfile.h struct rec_object).
 * What the hook could not read is read here, when the event arrives, and
 * marked late: a file's owner and mode by stat() of its path (the hook
 * has the inode only for an fd), a process's name and real uid from
 * /proc/PID/status. A process in a child pid namespace named a pid of its
 * own namespace, one in another mount namespace (a container) a path of
 * its own: those are not looked up.
 */
#include "record/objects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "facts/objnames.h"
#include "facts/sysops.h"
#include "lib/util.h"
#include "record/procinfo.h"

struct obj_slot {
	uint64_t fp;
	struct rec_object o;
};

/* a key's objects, grown one at a time: most keys have one or none (-a
 * records tens of thousands of keys) */
struct obj_key {
	struct ca_key key;
	size_t n;
	struct obj_slot *s;
};

struct objtab {
	struct obj_key *e;
	size_t n, cap;
	uint32_t *idx;    /* open addressing: 1 + index into e; 0 empty */
	size_t idxcap;    /* power of two, at most half full */
};

struct objtab *objtab_new(void)
{
	return xcalloc(1, sizeof(struct objtab));
}

void objtab_free(struct objtab *t)
{
	size_t i, k;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		for (k = 0; k < t->e[i].n; k++)
			rec_object_clear(&t->e[i].s[k].o);
		free(t->e[i].s);
	}
	free(t->e);
	free(t->idx);
	free(t);
}

static uint64_t key_hash(const struct ca_key *k)
{
	const unsigned char *p = (const unsigned char *)k;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < sizeof(*k); i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static size_t slot_of(const struct objtab *t, const struct ca_key *k)
{
	size_t mask = t->idxcap - 1, i = (size_t)key_hash(k) & mask;

	while (t->idx[i] && memcmp(&t->e[t->idx[i] - 1].key, k, sizeof(*k)))
		i = (i + 1) & mask;
	return i;
}

static struct obj_key *find(const struct objtab *t, const struct ca_key *k)
{
	size_t i;

	if (!t || !t->idxcap)
		return NULL;
	i = slot_of(t, k);
	return t->idx[i] ? &t->e[t->idx[i] - 1] : NULL;
}

static struct obj_key *find_or_add(struct objtab *t, const struct ca_key *k)
{
	struct obj_key *e = find(t, k);
	size_t i;

	if (e)
		return e;
	if ((t->n + 1) * 2 > t->idxcap) {
		free(t->idx);
		t->idxcap = t->idxcap ? t->idxcap * 2 : 256;
		t->idx = xcalloc(t->idxcap, sizeof(*t->idx));
		for (i = 0; i < t->n; i++)
			t->idx[slot_of(t, &t->e[i].key)] = (uint32_t)i + 1;
	}
	grow_array((void **)&t->e, &t->cap, t->n + 1, sizeof(*t->e));
	e = &t->e[t->n];
	memset(e, 0, sizeof(*e));
	e->key = *k;
	t->idx[slot_of(t, k)] = (uint32_t)++t->n;
	return e;
}

/* A string of the event (bounded, maybe without its NUL), valid UTF-8 for
 * JSON; NULL when empty. */
static char *event_str(const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	return n ? utf8_sanitize(s, n) : NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The file's path: a relative one joined to the directory the hook
 * resolved; "..." before a path whose beginning the walk could not reach
 * (docs/kernel-facts.md "Objects"). */
static char *file_path(const struct ca_obj_event *e)
{
	char path[CA_PATH_LEN + 1], base[CA_PATH_LEN + 1], *out;
	const char *rel = path;
	size_t n;

	memcpy(path, e->path, CA_PATH_LEN);
	path[CA_PATH_LEN] = '\0';
	memcpy(base, e->base, CA_PATH_LEN);
	base[CA_PATH_LEN] = '\0';
	if (!(e->oflags & CA_OBJF_REL) || (e->oflags & CA_OBJF_NOBASE) || !base[0]) {
		if (!path[0])
			return NULL;
		if (!(e->oflags & CA_OBJF_BASE_CUT))
			return event_str(path, sizeof(path));
		n = strlen(path) + 4;
		out = xcalloc(1, n);
		snprintf(out, n, "...%s", path);
	} else {
		while (rel[0] == '.' && rel[1] == '/')
			rel += 2;
		n = strlen(base) + strlen(rel) + 6;
		out = xcalloc(1, n);
		snprintf(out, n, "%s%s%s%s", e->oflags & CA_OBJF_BASE_CUT ? "..." : "", base,
			 base[strlen(base) - 1] == '/' || !rel[0] ? "" : "/",
			 strcmp(rel, ".") ? rel : "");
	}
	{
		char *s = utf8_sanitize(out, strlen(out));

		free(out);
		return s;
	}
}

/* /proc/sys/a/b/c: the sysctl a.b.c */
static char *sysctl_name(const char *path)
{
	char *s;
	size_t i;

	if (!path || strncmp(path, "/proc/sys/", 10) || !path[10])
		return NULL;
	s = xstrdup(path + 10);
	for (i = 0; s[i]; i++)
		if (s[i] == '/')
			s[i] = '.';
	return s;
}

static void file_late(struct rec_object *o)
{
	struct stat st;

	if (!o->path || o->path[0] != '/' || (stat(o->path, &st) && lstat(o->path, &st)))
		return;
	o->uid = st.st_uid;
	o->gid = st.st_gid;
	o->mode = st.st_mode;
	o->late = true;
}

static void process_late(struct rec_object *o, const struct ca_obj_event *e)
{
	struct procinfo pi;

	if ((e->oflags & CA_OBJF_PIDNS) || procinfo_read((pid_t)e->pid, &pi))
		return;
	o->name = pi.comm[0] ? utf8_sanitize(pi.comm, strlen(pi.comm)) : NULL;
	o->uid = pi.uid;
	o->late = true;
}

static const char *flags_of(long d)
{
	return d == CA_FLAGS_CLONE ? "clone" : d == CA_FLAGS_CLONE3 ? "clone3" :
	       d == CA_FLAGS_UNSHARE ? "unshare" : d == CA_FLAGS_PRCTL ? "prctl" : NULL;
}

void objtab_object_of(const struct ca_obj_event *e, struct rec_object *o)
{
	char buf[256];
	const char *s;

	memset(o, 0, sizeof(*o));
	o->kind = e->kind < OBJ_KIND_NR ? e->kind : OBJ_NONE;
	o->pid = o->uid = o->gid = o->mode = o->num = -1;
	o->count = 1;
	if (e->oflags & CA_OBJF_INODE) {
		o->uid = e->uid;
		o->gid = e->gid;
		o->mode = e->mode;
	}
	switch (e->kind) {
	case CA_OBJ_FILE:
		o->path = file_path(e);
		if ((o->name = sysctl_name(o->path)))
			o->kind = OBJ_SYSCTL;
		if (!(e->oflags & (CA_OBJF_INODE | CA_OBJF_MNTNS)))
			file_late(o);
		break;
	case CA_OBJ_PROCESS:
		o->pid = e->pid;
		process_late(o, e);
		break;
	case CA_OBJ_SOCKOPT:
		o->detail = dup_or_null(sysop_level_name((long)e->detail));
		if (!o->detail) {
			snprintf(buf, sizeof(buf), "level %lld", (long long)e->detail);
			o->detail = xstrdup(buf);
		}
		o->name = dup_or_null(sysop_label("setsockopt", e->detail << 16 | (e->num & 0xffff)));
		o->num = e->num;
		break;
	case CA_OBJ_SOCKET:
		o->detail = dup_or_null(objname_family((long)e->detail));
		o->name = dup_or_null(objname_socktype((long)e->sub));
		o->num = e->num;
		break;
	case CA_OBJ_BIND:
		o->detail = dup_or_null(objname_family((long)e->detail));
		o->num = e->num;
		break;
	case CA_OBJ_NETLINK:
		o->detail = dup_or_null(objname_netlink_proto((long)e->detail));
		if (!o->detail && e->detail >= 0) {
			snprintf(buf, sizeof(buf), "netlink protocol %lld", (long long)e->detail);
			o->detail = xstrdup(buf);
		}
		o->name = dup_or_null(objname_netlink_msg((long)e->detail, (long)e->num, buf,
							  sizeof(buf)));
		o->num = e->num;
		break;
	case CA_OBJ_IOCTL:
		o->path = file_path(e);
		o->num = e->num;
		break;
	case CA_OBJ_BPF:
		o->name = dup_or_null(sysop_label("bpf", e->num));
		o->num = e->num;
		if (e->detail >= 0)
			o->detail = dup_or_null(e->num == 5 ? objname_bpf_prog_type((long)e->detail) :
						objname_bpf_map_type((long)e->detail));
		break;
	case CA_OBJ_MOUNT:
		o->path = file_path(e);
		o->detail = event_str(e->name, sizeof(e->name));
		break;
	case CA_OBJ_FLAGS:
		o->detail = dup_or_null(flags_of((long)e->detail));
		o->num = e->num;
		if (e->detail == CA_FLAGS_PRCTL)
			s = sysop_label("prctl", e->num);
		else
			s = objname_clone_flags((uint64_t)e->num, e->detail == CA_FLAGS_CLONE, buf,
						sizeof(buf));
		o->name = s && s[0] ? xstrdup(s) : NULL;
		break;
	default:
		o->kind = OBJ_NONE;
	}
}

void objtab_on_event(struct objtab *t, const struct ca_obj_event *e)
{
	struct obj_key *k = find_or_add(t, &e->key);
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->s[i].fp == e->fp)
			return;   /* sent again: a drain gave the key a new entry */
	if (k->n >= REC_MAX_OBJECTS)
		return;   /* its checks are counted in objects_more */
	k->s = xrealloc(k->s, (k->n + 1) * sizeof(*k->s));
	objtab_object_of(e, &k->s[k->n].o);
	if (k->s[k->n].o.kind == OBJ_NONE) {
		rec_object_clear(&k->s[k->n].o);
		return;
	}
	k->s[k->n++].fp = e->fp;
}

void objtab_attach(const struct objtab *t, const struct ca_key *k, const struct agg_objs *o,
		   struct rec_check *c)
{
	const struct obj_key *e = find(t, k);
	size_t i, j;

	if (!o)
		return;
	c->objects_more = sat_add(c->objects_more, o->more);
	for (i = 0; i < o->n; i++) {
		struct rec_object x;

		for (j = 0; e && j < e->n && e->s[j].fp != o->fp[i]; j++)
			;
		if (!e || j == e->n) {
			/* its event was lost (ringbuf full): counted, not named */
			c->objects_more = sat_add(c->objects_more, o->count[i]);
			continue;
		}
		x = e->s[j].o;
		x.path = dup_or_null(x.path);
		x.name = dup_or_null(x.name);
		x.detail = dup_or_null(x.detail);
		x.count = o->count[i] ? o->count[i] : 1;
		rec_check_objects_add(c, &x);
	}
}
