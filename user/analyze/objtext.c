// SPDX-License-Identifier: GPL-2.0
#include "analyze/objtext.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/jsonutil.h"
#include "lib/util.h"

/* enum rec_obj_kind's names, as the record file writes them */
static const char *const kind_names[] = {
	"object", "file", "process", "sockopt", "socket", "bind", "netlink", "ioctl", "bpf",
	"mount", "sysctl", "flags",
};
_Static_assert(ARRAY_SIZE(kind_names) == OBJ_KIND_NR, "a name for each object kind");

const char *object_kind_name(int kind)
{
	return kind > 0 && kind < OBJ_KIND_NR ? kind_names[kind] : kind_names[0];
}

/* A growing string in a fixed buffer: what does not fit is cut. */
struct sbuf {
	char *p;
	size_t len, at;
};

__attribute__((format(printf, 2, 3)))
static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->at + 1 >= b->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->at, b->len - b->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->at = b->at + (size_t)n < b->len ? b->at + (size_t)n : b->len - 1;
}

/* " (a, b, c)" of the parts that are there; late: the recorder read them
 * after the check, which the reader should know (a file chowned since) */
static void put_attrs(struct sbuf *b, const char *const *parts, size_t n, bool late)
{
	size_t i, shown = 0;

	for (i = 0; i < n; i++) {
		if (!parts[i])
			continue;
		put(b, "%s%s", shown++ ? ", " : " (", parts[i]);
	}
	if (shown && late)
		put(b, ", read after the check");
	if (shown)
		put(b, ")");
}

static void file_text(struct sbuf *b, const struct rec_object *o)
{
	char owner[48] = "", mode[24] = "";
	const char *parts[3] = { NULL, NULL, NULL };

	put(b, "%s", o->path ? o->path : "a file");
	if (o->mode >= 0 && S_ISDIR((mode_t)o->mode))
		parts[0] = "directory";
	if (o->uid >= 0 && o->gid >= 0)
		snprintf(owner, sizeof(owner), "owner %" PRId64 ":%" PRId64, o->uid, o->gid);
	else if (o->uid >= 0)
		snprintf(owner, sizeof(owner), "owner %" PRId64, o->uid);
	else if (o->gid >= 0)
		snprintf(owner, sizeof(owner), "group %" PRId64, o->gid);
	if (*owner)
		parts[1] = owner;
	if (o->mode >= 0) {
		snprintf(mode, sizeof(mode), "mode %04o", (unsigned)(o->mode & 07777));
		parts[2] = mode;
	}
	put_attrs(b, parts, 3, o->late);
}

static void process_text(struct sbuf *b, const struct rec_object *o)
{
	char uid[32] = "";
	const char *parts[2] = { o->name, NULL };

	if (o->pid >= 0)
		put(b, "process %" PRId64, o->pid);
	else
		put(b, "a process");
	if (o->uid >= 0) {
		snprintf(uid, sizeof(uid), "uid %" PRId64, o->uid);
		parts[1] = uid;
	}
	put_attrs(b, parts, 2, o->late);
}

/* "NAME", else "WHAT NUM", else "WHAT" */
static void name_or_num(struct sbuf *b, const char *sep, const struct rec_object *o,
			const char *what, bool hex)
{
	if (o->name)
		put(b, "%s%s", sep, o->name);
	else if (o->num >= 0)
		put(b, hex ? "%s%s 0x%" PRIx64 : "%s%s %" PRId64, sep, what, o->num);
}

char *object_raw(const struct rec_object *o, char *buf, size_t len)
{
	struct sbuf b = { buf, len, 0 };

	if (!len)
		return buf;
	buf[0] = '\0';
	switch (o->kind) {
	case OBJ_FILE:
		file_text(&b, o);
		break;
	case OBJ_PROCESS:
		process_text(&b, o);
		break;
	case OBJ_SOCKOPT:   /* SOL_SOCKET SO_RCVBUFFORCE */
		put(&b, "%s", o->detail ? o->detail : "socket option");
		name_or_num(&b, " ", o, "option", false);
		break;
	case OBJ_SOCKET:    /* socket AF_INET SOCK_RAW */
		put(&b, "socket");
		if (o->detail)
			put(&b, " %s", o->detail);
		if (o->name)
			put(&b, " %s", o->name);
		if (o->num > 0)
			put(&b, " protocol %" PRId64, o->num);
		break;
	case OBJ_BIND:      /* bind AF_INET port 80 */
		put(&b, "bind");
		if (o->detail)
			put(&b, " %s", o->detail);
		if (o->num >= 0)
			put(&b, " port %" PRId64, o->num);
		break;
	case OBJ_NETLINK:   /* netlink NETLINK_ROUTE RTM_NEWLINK */
		put(&b, "netlink");
		if (o->detail)
			put(&b, " %s", o->detail);
		name_or_num(&b, " ", o, "message", false);
		break;
	case OBJ_IOCTL:     /* ioctl SIOCSIFFLAGS on /dev/net/tun */
		put(&b, "ioctl");
		name_or_num(&b, " ", o, "request", true);
		if (o->path)
			put(&b, " on %s", o->path);
		break;
	case OBJ_BPF:       /* BPF_PROG_LOAD (BPF_PROG_TYPE_XDP) */
		if (o->name)
			put(&b, "%s", o->name);
		else if (o->num >= 0)
			put(&b, "bpf command %" PRId64, o->num);
		else
			put(&b, "bpf");
		if (o->detail)
			put(&b, " (%s)", o->detail);
		break;
	case OBJ_MOUNT:     /* mount tmpfs on /mnt */
		put(&b, "%s", o->name ? o->name : "mount");
		if (o->detail)
			put(&b, " %s", o->detail);
		if (o->path)
			put(&b, " on %s", o->path);
		break;
	case OBJ_SYSCTL:    /* sysctl net.ipv4.ip_forward */
		put(&b, "sysctl %s", o->name ? o->name : o->path ? o->path : "(unknown)");
		break;
	case OBJ_FLAGS:     /* clone CLONE_NEWNET|CLONE_NEWNS */
		put(&b, "%s", o->detail ? o->detail : "flags");
		if (o->name)
			put(&b, " %s", o->name);
		else if (o->num >= 0)
			put(&b, " 0x%" PRIx64, o->num);
		break;
	default:
		put(&b, "%s", object_kind_name(o->kind));
		if (o->name)
			put(&b, " %s", o->name);
		if (o->path)
			put(&b, " %s", o->path);
	}
	return buf;
}

char *object_text(const struct rec_object *o, char *buf, size_t len)
{
	char raw[1200];

	return text_escape(object_raw(o, raw, sizeof(raw)), buf, len);
}

char *objects_raw(const struct obj_set *s, size_t show, char *buf, size_t len)
{
	struct sbuf b = { buf, len, 0 };
	char one[1200];
	size_t i, n = s->n < show ? s->n : show, hidden = s->n - n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		put(&b, "%s%s", !i ? "" : i + 1 < n || hidden || s->more ? ", " : " and ",
		    object_raw(s->e[i].o, one, sizeof(one)));
	if (hidden && s->more)
		put(&b, ", %zu more and others in %" PRIu64 " %s", hidden, s->more,
		    plural(s->more, "check", "checks"));
	else if (hidden)
		put(&b, " and %zu more", hidden);
	else if (s->more)
		put(&b, "%sothers in %" PRIu64 " %s", n ? " and " : "", s->more,
		    plural(s->more, "check", "checks"));
	return buf;
}

char *objects_text(const struct obj_set *s, size_t show, char *buf, size_t len)
{
	char raw[4096];

	return text_escape(objects_raw(s, show, raw, sizeof(raw)), buf, len);
}

void objects_line(FILE *f, const char *indent, const struct obj_set *s)
{
	char buf[8192];

	if (obj_set_any(s))
		fprintf(f, "%sabout %s\n", indent, objects_text(s, OBJ_SHOW, buf, sizeof(buf)));
}

void objects_html(FILE *f, const struct obj_set *s, size_t show)
{
	char raw[4096];

	markup_escape(f, objects_raw(s, show, raw, sizeof(raw)));
}

static void set_num(json_t *o, const char *key, int64_t v)
{
	if (v >= 0)
		json_set(o, key, json_integer(v));
}

static json_t *object_json(const struct rec_object *ob, uint64_t count)
{
	json_t *o = json_object();
	char raw[1200];

	json_set(o, "kind", json_string(object_kind_name(ob->kind)));
	json_set_bytes(o, "path", ob->path);
	json_set_bytes(o, "name", ob->name);
	json_set_bytes(o, "detail", ob->detail);
	set_num(o, "pid", ob->pid);
	set_num(o, "uid", ob->uid);
	set_num(o, "gid", ob->gid);
	set_num(o, "mode", ob->mode);
	if (ob->mode >= 0) {
		char m[8];

		snprintf(m, sizeof(m), "%04o", (unsigned)(ob->mode & 07777));
		json_set(o, "mode_octal", json_string(m));
	}
	set_num(o, "num", ob->num);
	json_set(o, "count", json_uint(count));
	if (ob->late)
		json_set(o, "late", json_true());
	json_set_bytes(o, "text", object_raw(ob, raw, sizeof(raw)));
	return o;
}

void objects_json_set(json_t *obj, const struct obj_set *s)
{
	json_t *a;
	size_t i;

	if (!obj_set_any(s))
		return;
	a = json_array();
	for (i = 0; i < s->n; i++)
		json_array_append_new(a, object_json(s->e[i].o, s->e[i].count));
	json_set(obj, "objects", a);
	if (s->more)
		json_set(obj, "objects_more", json_uint(s->more));
}
