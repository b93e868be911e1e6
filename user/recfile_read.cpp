// SPDX-License-Identifier: GPL-2.0
/*
 * The strict record-file reader, on simdjson (On-Demand API): a record of a
 * million aggregated checks must be read in well under a second, which a
 * DOM-building parser cannot do. C interface in recfile.h; every message is
 * "FILE:LINE: what is wrong", terminal-safe.
 */
#include <simdjson.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

extern "C" {
#include "recfile.h"
#include "util.h"
}

using namespace simdjson;

namespace {

struct Line {
	char *why;
	size_t wlen;
	bool fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
	{
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(why, wlen, fmt, ap);
		va_end(ap);
		return false;
	}
};

/* A JSON error in the user's terms. */
const char *json_error_text(error_code e)
{
	switch (e) {
	case UTF8_ERROR: return "invalid UTF-8";
	case UNCLOSED_STRING: return "unclosed string";
	case TAPE_ERROR: case INCORRECT_TYPE: return "unexpected token";
	case NUMBER_ERROR: return "bad number";
	case STRING_ERROR: return "bad string escape";
	case T_ATOM_ERROR: case F_ATOM_ERROR: case N_ATOM_ERROR: return "bad literal";
	case EMPTY: return "empty line";
	case TRAILING_CONTENT: return "trailing characters after the object";
	default: return error_message(e);
	}
}

bool get_i64(ondemand::value v, const char *key, int64_t lo, int64_t hi, int64_t *out, Line &l)
{
	ondemand::json_type t;
	int64_t x;
	error_code e;

	if (v.type().get(t) || t != ondemand::json_type::number)
		return l.fail("field '%s' must be an integer", key);
	e = v.get_int64().get(x);
	if (e) {
		std::string_view tok = v.raw_json_token();

		/* an integer too big for 64 bits, or not an integer at all */
		if (tok.find_first_of(".eE") == std::string_view::npos)
			return l.fail("field '%s' is out of range %lld..%lld", key, (long long)lo,
				      (long long)hi);
		return l.fail("field '%s' must be an integer", key);
	}
	if (x < lo || x > hi)
		return l.fail("field '%s' is %lld, outside %lld..%lld", key, (long long)x,
			      (long long)lo, (long long)hi);
	*out = x;
	return true;
}

bool get_double(ondemand::value v, const char *key, double *out, Line &l)
{
	double x;

	if (v.get_double().get(x) || !(x >= 0) || x > 1e12)
		return l.fail("field '%s' must be a non-negative number", key);
	*out = x;
	return true;
}

bool get_str(ondemand::value v, const char *key, std::string_view *out, Line &l)
{
	if (v.get_string().get(*out))
		return l.fail("field '%s' must be a string", key);
	if (out->find('\0') != std::string_view::npos)
		return l.fail("field '%s' contains a NUL character", key);
	return true;
}

bool get_bool(ondemand::value v, const char *key, bool *out, Line &l)
{
	if (v.get_bool().get(*out))
		return l.fail("field '%s' must be true or false", key);
	return true;
}

char *dup(std::string_view s)
{
	char *p = static_cast<char *>(xcalloc(s.size() + 1, 1));

	memcpy(p, s.data(), s.size());
	return p;
}

bool get_strv(ondemand::value v, const char *key, char ***out, size_t *n, Line &l)
{
	ondemand::array a;
	size_t cap = 0, i = 0;

	if (v.get_array().get(a))
		return l.fail("field '%s' must be an array of strings", key);
	*out = nullptr;
	*n = 0;
	for (auto item : a) {
		std::string_view s;
		ondemand::value iv;

		if (item.get(iv) || iv.get_string().get(s) || s.find('\0') != std::string_view::npos)
			return l.fail("field '%s' item %zu must be a string", key, i);
		grow_array(reinterpret_cast<void **>(out), &cap, *n + 2, sizeof(char *));
		(*out)[(*n)++] = dup(s);
		i++;
	}
	return true;
}

void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Known fields of one line type: a bit each, to reject duplicates and to
 * find missing required ones. */
struct Fields {
	const char *const *names;
	uint64_t seen = 0;
	size_t len[24] = { 0 };   /* name lengths: compare lengths before bytes */

	explicit Fields(const char *const *n) : names(n)
	{
		for (int i = 0; names[i] && i < 24; i++)
			len[i] = strlen(names[i]);
	}

	int index(std::string_view k) const
	{
		for (int i = 0; names[i]; i++)
			if (k.size() == len[i] && !memcmp(k.data(), names[i], len[i]))
				return i;
		return -1;
	}
};

/* Each reader walks the object's fields once, in file order. */
#define FOR_FIELDS(obj, F, l)                                                      \
	for (auto field : obj)                                                     \
		if (std::string_view key; field.unescaped_key().get(key))          \
			return l.fail("bad field name");                           \
		else if (int fi = F.index(key); fi < 0)                            \
			continue; /* unknown fields: later versions may add some */ \
		else if (F.seen & (1ULL << fi))                                    \
			return l.fail("duplicate field '%s'", F.names[fi]);        \
		else if ((F.seen |= 1ULL << fi), false) {                          \
		} else

bool require(const Fields &F, const char *const *req, Line &l)
{
	for (; *req; req++)
		if (!(F.seen & (1ULL << F.index(*req))))
			return l.fail("missing field '%s'", *req);
	return true;
}

bool read_header(ondemand::object obj, rec_header *h, Line &l)
{
	static const char *const names[] = { "type", "format", "version", "capaudit", "kernel",
		"machine", "attach", "scope", "symbols", "argv", "start_ns", "end_ns", "checks",
		"lost", "overflow", "exit_status", "syscall_results", "loader", nullptr };
	static const char *const req[] = { "format", "version", "kernel", "attach", "start_ns",
		"end_ns", nullptr };
	Fields F{ names };
	std::string_view s;
	int64_t x;

	FOR_FIELDS(obj, F, l) {
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		switch (fi) {
		case 0:
			break;
		case 1:
			if (!get_str(v, "format", &s, l))
				return false;
			if (s != REC_FORMAT)
				return l.fail("format is '%.40s', not a capaudit record ('%s')",
					      std::string(s).c_str(), REC_FORMAT);
			break;
		case 2:
			if (!get_i64(v, "version", 1, INT32_MAX, &x, l))
				return false;
			if (x > REC_VERSION)
				return l.fail("record version %lld is newer than this capaudit reads (%d)",
					      (long long)x, REC_VERSION);
			h->version = (int)x;
			break;
		case 3: case 4: case 5: case 6: case 7: case 8: {
			char **dst[] = { &h->capaudit_version, &h->kernel, &h->machine, &h->attach,
					 &h->scope, &h->symbols };

			if (!get_str(v, F.names[fi], &s, l))
				return false;
			*dst[fi - 3] = dup(s);
			break;
		}
		case 9:
			if (!get_strv(v, "argv", &h->argv, &h->argc, l))
				return false;
			break;
		case 10:
			if (!get_i64(v, "start_ns", 0, INT64_MAX, &h->start_ns, l))
				return false;
			break;
		case 11:
			if (!get_i64(v, "end_ns", 0, INT64_MAX, &h->end_ns, l))
				return false;
			break;
		case 12:
			if (!get_i64(v, "checks", 0, INT64_MAX, &x, l))
				return false;
			h->checks = (uint64_t)x;
			break;
		case 13: {
			static const char *const lnames[] = { "map_full", "ringbuf_full",
				"stack_errors", "proc_full", "result_lost", "hook_skipped", nullptr };
			uint64_t *dst[] = { &h->lost.map_full, &h->lost.ringbuf_full,
					    &h->lost.stack_errors, &h->lost.proc_full,
					    &h->lost.result_lost, &h->lost.hook_skipped };
			Fields LF{ lnames };
			ondemand::object lo;

			if (v.get_object().get(lo))
				return l.fail("field 'lost' must be an object");
			FOR_FIELDS(lo, LF, l) {
				ondemand::value lv;

				if (field.value().get(lv) ||
				    !get_i64(lv, LF.names[fi], 0, INT64_MAX, &x, l))
					return false;
				*dst[fi] = (uint64_t)x;
			}
			break;
		}
		case 14: {
			ondemand::array a;
			size_t cap = 0, i = 0;

			if (v.get_array().get(a))
				return l.fail("field 'overflow' must be an array");
			for (auto item : a) {
				static const char *const onames[] = { "cap", "denied", "count",
								      nullptr };
				static const char *const oreq[] = { "cap", "denied", "count", nullptr };
				Fields OF{ onames };
				ondemand::object o;
				rec_overflow ov{};

				if (item.get_object().get(o))
					return l.fail("overflow item %zu must be an object", i);
				FOR_FIELDS(o, OF, l) {
					ondemand::value ovv;
					bool b;

					if (field.value().get(ovv))
						return l.fail("bad overflow item %zu", i);
					if (fi == 1) {
						if (!get_bool(ovv, "denied", &b, l))
							return false;
						ov.denied = b;
					} else {
						if (!get_i64(ovv, OF.names[fi], 0,
							     fi == 0 ? REC_MAX_CAP : INT64_MAX, &x, l))
							return false;
						if (fi == 0)
							ov.cap = (int)x;
						else
							ov.count = (uint64_t)x;
					}
				}
				if (!require(OF, oreq, l))
					return false;
				grow_array(reinterpret_cast<void **>(&h->overflow), &cap,
					   h->noverflow + 1, sizeof(*h->overflow));
				h->overflow[h->noverflow++] = ov;
				i++;
			}
			break;
		}
		case 15:
			if (!get_i64(v, "exit_status", 0, 255 + 128, &x, l))
				return false;
			h->has_exit_status = true;
			h->exit_status = (int)x;
			break;
		case 16:
			if (!get_bool(v, "syscall_results", &h->syscall_results, l))
				return false;
			break;
		case 17: {
			static const char *const lnames[] = { "cpu_s", "max_rss_kb", nullptr };
			Fields LF{ lnames };
			ondemand::object lo;

			if (v.get_object().get(lo))
				return l.fail("field 'loader' must be an object");
			FOR_FIELDS(lo, LF, l) {
				ondemand::value lv;

				if (field.value().get(lv))
					return l.fail("bad field 'loader'");
				if (fi == 0 && !get_double(lv, "cpu_s", &h->loader_cpu_s, l))
					return false;
				if (fi == 1) {
					if (!get_i64(lv, "max_rss_kb", 0, INT64_MAX, &x, l))
						return false;
					h->loader_rss_kb = (long)x;
				}
			}
			break;
		}
		}
	}
	return require(F, req, l);
}

bool read_process(ondemand::object obj, record *r, Line &l)
{
	static const char *const names[] = { "type", "pid", "exec_id", "ppid", "uid", "comm",
		"exe", "exit_code", nullptr };
	static const char *const req[] = { "pid", nullptr };
	Fields F{ names };
	int64_t v64[5] = { 0, 0, 0, 0, 0 };   /* pid, exec_id, ppid, uid, exit_code */
	std::string_view comm = "", exe;
	bool has_exe = false;

	FOR_FIELDS(obj, F, l) {
		static const int64_t lo[] = { 1, 0, 0, 0 }, hi[] = { INT32_MAX, UINT32_MAX,
			INT32_MAX, UINT32_MAX };
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		if (fi >= 1 && fi <= 4) {
			if (!get_i64(v, F.names[fi], lo[fi - 1], hi[fi - 1], &v64[fi - 1], l))
				return false;
		} else if (fi == 5) {
			if (!get_str(v, "comm", &comm, l))
				return false;
		} else if (fi == 6) {
			if (!get_str(v, "exe", &exe, l))
				return false;
			has_exe = true;
		} else if (fi == 7) {
			if (!get_i64(v, "exit_code", 0, 255, &v64[4], l))
				return false;
		}
	}
	if (!require(F, req, l))
		return false;
	if (record_find_process(r, (uint32_t)v64[0], (uint32_t)v64[1]))
		return l.fail("process %lld (exec_id %lld) appears twice", (long long)v64[0],
			      (long long)v64[1]);
	rec_process *p = record_add_process(r, (uint32_t)v64[0], (uint32_t)v64[1]);
	p->ppid = (uint32_t)v64[2];
	p->uid = (uint32_t)v64[3];
	p->comm = dup(comm);
	p->exe = has_exe ? dup(exe) : nullptr;
	p->exited = F.seen & (1ULL << 7);
	p->exit_code = (int)v64[4];
	return true;
}

bool read_stack(ondemand::object obj, record *r, Line &l)
{
	static const char *const names[] = { "type", "id", "frames", nullptr };
	static const char *const req[] = { "id", "frames", nullptr };
	Fields F{ names };
	int64_t id = 0;
	char **frames = nullptr;
	size_t n = 0;

	FOR_FIELDS(obj, F, l) {
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		if (fi == 1 && !get_i64(v, "id", 0, INT32_MAX, &id, l))
			goto bad;
		if (fi == 2 && !get_strv(v, "frames", &frames, &n, l))
			goto bad;
	}
	if (!require(F, req, l))
		goto bad;
	if ((size_t)id != r->nstacks) {
		l.fail("stack id %lld out of order (expected %zu)", (long long)id, r->nstacks);
		goto bad;
	}
	record_add_stack(r, frames, n);
	return true;
bad:
	free_strv(frames, n);
	return false;
}

bool read_check(ondemand::object obj, record *r, Line &l)
{
	static const char *const names[] = { "type", "pid", "exec_id", "tid", "uid", "cgroup",
		"cap", "ret", "count", "syscall", "first_ns", "last_ns", "syscall_failed",
		"stack", "comm", "init_ns", "opts", "stack_error", nullptr };
	static const char *const req[] = { "pid", "cap", "ret", "count", nullptr };
	static const int64_t lo[] = { 0, 1, 0, 0, 0, 0, 0, -4095, 1, -1, 0, 0, 0 };
	static const int64_t hi[] = { 0, INT32_MAX, UINT32_MAX, INT32_MAX, UINT32_MAX, INT64_MAX,
		REC_MAX_CAP, 0, INT64_MAX, 4095, INT64_MAX, INT64_MAX, INT64_MAX };
	int64_t x[13] = { 0 };
	Fields F{ names };
	std::string_view comm = "", serr;
	rec_check c{};

	x[9] = -1;   /* syscall: none */
	c.stack = -1;
	FOR_FIELDS(obj, F, l) {
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		if (fi >= 1 && fi <= 12) {
			if (!get_i64(v, F.names[fi], lo[fi], hi[fi], &x[fi], l))
				return false;
		} else if (fi == 13) {
			bool null;
			int64_t sid;

			if (!v.is_null().get(null) && null)
				continue;
			if (!get_i64(v, "stack", 0, INT32_MAX, &sid, l))
				return false;
			if ((size_t)sid >= r->nstacks)
				return l.fail("stack %lld is not defined before this line", (long long)sid);
			c.stack = (int)sid;
		} else if (fi == 14) {
			if (!get_str(v, "comm", &comm, l))
				return false;
		} else if (fi == 15) {
			if (!get_bool(v, "init_ns", &c.init_ns, l))
				return false;
		} else if (fi == 16) {
			static const char *const onames[] = { "noaudit", "insetid", nullptr };
			Fields OF{ onames };
			ondemand::object o;

			if (v.get_object().get(o))
				return l.fail("field 'opts' must be an object");
			FOR_FIELDS(o, OF, l) {
				ondemand::value ov;

				if (field.value().get(ov) ||
				    !get_bool(ov, OF.names[fi], fi ? &c.opt_insetid : &c.opt_noaudit, l))
					return false;
			}
			if (!require(OF, onames, l))
				return false;
			c.opts_known = true;
		} else if (fi == 17) {
			if (!get_str(v, "stack_error", &serr, l))
				return false;
		}
	}
	if (!require(F, req, l))
		return false;
	if (x[12] > x[8])
		return l.fail("field 'syscall_failed' (%lld) exceeds 'count' (%lld)",
			      (long long)x[12], (long long)x[8]);
	if (!record_find_process(r, (uint32_t)x[1], (uint32_t)x[2]))
		return l.fail("check for pid %lld (exec_id %lld) comes before (or without) its "
			      "process line", (long long)x[1], (long long)x[2]);
	c.pid = (uint32_t)x[1];
	c.exec_id = (uint32_t)x[2];
	c.tid = (uint32_t)x[3];
	c.uid = (uint32_t)x[4];
	c.cgroup = (uint64_t)x[5];
	c.cap = (int)x[6];
	c.ret = (int)x[7];
	c.count = (uint64_t)x[8];
	c.syscall = (int)x[9];
	c.first_ns = x[10];
	c.last_ns = x[11];
	c.sys_failed = (uint64_t)x[12];
	c.comm = dup(comm);
	c.stack_error = F.seen & (1ULL << 17) ? dup(serr) : nullptr;
	*record_add_check(r) = c;
	return true;
}

/* One line: a JSON object with a known type, in the right order. */
bool read_line(ondemand::parser &parser, const char *p, size_t len, size_t cap, record *r,
	       bool *have_header, Line &l)
{
	ondemand::document doc;
	ondemand::object obj;
	ondemand::value tv;
	std::string_view type;
	error_code e;
	bool ok;

	e = parser.iterate(p, len, cap).get(doc);
	if (!e)
		e = doc.get_object().get(obj);
	if (e == INCORRECT_TYPE) {
		ondemand::json_type t;

		/* valid JSON of another kind, or not JSON at all */
		if (!doc.type().get(t) && t != ondemand::json_type::object)
			return l.fail("a line must be a JSON object");
		return l.fail("invalid JSON: %s", json_error_text(TAPE_ERROR));
	}
	if (e)
		return l.fail("invalid JSON: %s", json_error_text(e));
	e = obj.find_field("type").get(tv);
	if (e == NO_SUCH_FIELD)
		return l.fail("missing field 'type'");
	if (e)
		return l.fail("invalid JSON: %s", json_error_text(e));
	if (!get_str(tv, "type", &type, l))
		return false;
	std::string t(type.substr(0, 40));
	bool nonempty;

	if (obj.reset().get(nonempty))
		return l.fail("invalid JSON");
	if (!*have_header) {
		if (type != "header")
			return l.fail("first line must be the header, found type '%s'", t.c_str());
		*have_header = true;
		ok = read_header(obj, &r->hdr, l);
	} else if (type == "header") {
		return l.fail("a second header");
	} else if (type == "process") {
		ok = read_process(obj, r, l);
	} else if (type == "stack") {
		ok = read_stack(obj, r, l);
	} else if (type == "check") {
		ok = read_check(obj, r, l);
	} else {
		return l.fail("unknown line type '%s'", t.c_str());
	}
	if (!ok)
		return false;
	/* anything after the object (a second value, junk) is an error */
	{
		const char *rest;

		if (!doc.current_location().get(rest))
			return l.fail("invalid JSON: %s", json_error_text(TRAILING_CONTENT));
	}
	return true;
}

} // namespace

extern "C" int recfile_read(FILE *f, const char *name, struct record *r, char *err, size_t errlen)
{
	char *buf = nullptr, why[512], safe[600];
	size_t len = 0, cap = 0, lineno = 0, off = 0, n;
	bool have_header = false;
	ondemand::parser parser;
	Line l{ why, sizeof(why) };
	int rc = 0;

	memset(r, 0, sizeof(*r));
	/* the whole file, with the padding simdjson reads past the end */
	do {
		grow_array(reinterpret_cast<void **>(&buf), &cap, len + (1 << 20) + SIMDJSON_PADDING,
			   1);
		n = fread(buf + len, 1, cap - len - SIMDJSON_PADDING, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
		free(buf);
		return -1;
	}
	memset(buf + len, 0, cap - len);
	while (off < len) {
		const char *p = buf + off, *nl = static_cast<const char *>(memchr(p, '\n', len - off));
		size_t ll = nl ? (size_t)(nl - p) : len - off;

		lineno++;
		why[0] = '\0';
		if (ll > REC_MAX_LINE) {
			snprintf(err, errlen, "%s:%zu: line is %zu bytes, longer than %d", name, lineno,
				 ll, REC_MAX_LINE);
			rc = -1;
			break;
		}
		if (memchr(p, '\0', ll)) {
			snprintf(err, errlen, "%s:%zu: NUL byte: not a text record file", name, lineno);
			rc = -1;
			break;
		}
		/* the bytes after the line are readable: they are its padding */
		if (!read_line(parser, p, ll, cap - off, r, &have_header, l)) {
			snprintf(err, errlen, "%s:%zu: %s", name, lineno, text_escape(why, safe, sizeof(safe)));
			rc = -1;
			break;
		}
		off += ll + 1;
	}
	free(buf);
	if (!rc && !have_header) {
		snprintf(err, errlen, "%s:%zu: empty file: no record header", name, lineno + 1);
		rc = -1;
	}
	if (rc)
		record_free(r);
	return rc;
}

extern "C" int recfile_load(const char *path, struct record *r, char *err, size_t errlen)
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
