// SPDX-License-Identifier: GPL-2.0
/*
 * The strict record-file reader, on simdjson (On-Demand API): a record of a
 * million aggregated checks must be read in well under a second, which a
 * DOM-building parser cannot do. C interface in recfile.h; every message is
 * "FILE:LINE: what is wrong", terminal-safe.
 */
#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

extern "C" {
#include "facts/capnames.h"
#include "lib/infile.h"
#include "recfile/recfile.h"
#include "lib/util.h"
}

using namespace simdjson;

namespace {

struct Line {
	char *why;
	size_t wlen;
	uint32_t lineno = 0;      /* the line being read */
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
	case INCOMPLETE_ARRAY_OR_OBJECT: return "unclosed object or array";
	case TRAILING_CONTENT: return "trailing characters after the object (one JSON object per line)";
	default: return error_message(e);
	}
}

bool get_i64(ondemand::value v, const char *key, int64_t lo, int64_t hi, int64_t *out, Line &l)
{
	int64_t x;
	error_code e;

	e = v.get_int64().get(x);
	if (e) {
		ondemand::json_type t;

		if (v.type().get(t) || t != ondemand::json_type::number)
			return l.fail("field '%s' must be an integer", key);
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
	ondemand::json_type t;

	if (v.type().get(t) || t != ondemand::json_type::string)
		return l.fail("field '%s' must be a string", key);
	if (v.get_string().get(*out))   /* e.g. "\ud800": a lone surrogate */
		return l.fail("field '%s' has a bad escape sequence", key);
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

/* "ENODEV" -> 19 (glibc's names), or -1; a number is taken as it is.
 * The table is made once (thread-safe static), not searched per line. */
static int errno_number(std::string_view name)
{
	static const std::unordered_map<std::string, int> names = [] {
		std::unordered_map<std::string, int> m;

		for (int e = 1; e < 4096; e++)
			if (const char *en = strerrorname_np(e))
				m.emplace(en, e);
		return m;
	}();
	std::string n(name);
	auto it = names.find(n);
	char *end;
	long v;

	if (it != names.end())
		return it->second;
	v = strtol(n.c_str(), &end, 10);
	return !n.empty() && !*end && v > 0 && v < 4096 ? (int)v : -1;
}

/* An array of capability names ("CAP_CHOWN", ...) as a mask. */
static bool get_capset(ondemand::value v, const char *key, uint64_t *out, Line &l)
{
	ondemand::array a;
	size_t i = 0;

	*out = 0;
	if (v.get_array().get(a))
		return l.fail("field '%s' must be an array of capability names", key);
	for (auto item : a) {
		std::string_view s;
		ondemand::value iv;
		char name[64];
		int c;

		if (item.get(iv) || iv.get_string().get(s) || s.size() >= sizeof(name))
			return l.fail("field '%s' item %zu must be a capability name", key, i);
		memcpy(name, s.data(), s.size());
		name[s.size()] = '\0';
		c = cap_number(name);
		if (c < 0 || c > REC_MAX_CAP)
			return l.fail("field '%s' item %zu: unknown capability '%.40s'", key, i, name);
		*out |= 1ULL << c;
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

/* The known fields of one line type: lengths, and the names as two
 * masked 8-byte words, so that matching a key is two loads and compares
 * (a memcmp call per key cost a sixth of reading a big record). */
constexpr int FIELDS_MAX = 32;   /* per line type; Fields::seen has 64 bits */

struct FieldSet {
	const char *const *names;
	size_t len[FIELDS_MAX] = { 0 };
	uint64_t w[FIELDS_MAX][2] = {}, m[FIELDS_MAX][2] = {};

	const char *const *req;   /* required fields (NULL-terminated) and their bits */
	uint64_t req_mask = 0;

	explicit FieldSet(const char *const *n, const char *const *r = nullptr) : names(n), req(r)
	{
		for (const char *const *q = req; q && *q; q++)
			for (int i = 0; names[i]; i++)
				if (!strcmp(names[i], *q))
					req_mask |= 1ULL << i;
		for (int i = 0; names[i]; i++) {
			if (i >= FIELDS_MAX)
				abort();   /* a programming error: raise FIELDS_MAX */
			len[i] = strlen(names[i]);
			for (size_t b = 0; b < 16 && b < len[i]; b++) {
				w[i][b / 8] |= (uint64_t)(unsigned char)names[i][b] << (8 * (b % 8));
				m[i][b / 8] |= 0xffULL << (8 * (b % 8));
			}
		}
	}
};

/* The fields met so far in one object: a bit each, to reject duplicates
 * and to find missing required ones. */
struct Fields {
	const FieldSet &fs;
	const char *const *names;
	uint64_t seen = 0;
	int next = 0;             /* files we write keep one order: try it first */

	explicit Fields(const FieldSet &f) : fs(f), names(f.names) {}

	/* k: the raw key as written, up to its closing quote. Our names need
	 * no escapes, so a key with escapes matches none (and is ignored). */
	/* k is inside a padded buffer: reading 16 bytes from it is safe */
	bool is(const char *k, int i) const
	{
		uint64_t a, b;

		memcpy(&a, k, 8);
		memcpy(&b, k + 8, 8);
		if ((a & fs.m[i][0]) != fs.w[i][0] || (b & fs.m[i][1]) != fs.w[i][1])
			return false;
		if (fs.len[i] > 16 && memcmp(k + 16, names[i] + 16, fs.len[i] - 16))
			return false;
		return k[fs.len[i]] == '"';
	}

	int index(const char *k)
	{
		if (names[next] && is(k, next))
			return next++;
		for (int i = 0; names[i]; i++) {
			if (is(k, i)) {
				next = names[i + 1] ? i + 1 : 0;
				return i;
			}
		}
		return -1;
	}
};

/* Each reader walks the object's fields once, in file order. */
#define FOR_FIELDS(obj, F, l)                                                      \
	for (auto field : obj)                                                     \
		if (ondemand::raw_json_string key; field.key().get(key))           \
			return l.fail("bad field name");                           \
		else if (int fi = F.index(key.raw()); fi < 0)                      \
			continue; /* unknown fields: later versions may add some */ \
		else if (F.seen & (1ULL << fi))                                    \
			return l.fail("duplicate field '%s'", F.names[fi]);        \
		else if ((F.seen |= 1ULL << fi), false) {                          \
		} else

bool require(Fields &F, const char *const *req, Line &l)
{
	/* the usual case first: all required fields were seen */
	if (req == F.fs.req && (F.seen & F.fs.req_mask) == F.fs.req_mask)
		return true;
	for (; *req; req++) {
		int i;

		for (i = 0; F.names[i] && strcmp(F.names[i], *req); i++)
			;
		if (!(F.seen & (1ULL << i)))
			return l.fail("missing field '%s'", *req);
	}
	return true;
}

bool read_header_fields(ondemand::object obj, rec_header *h, Line &l)
{
	static const char *const names[] = { "type", "format", "version", "capaudit", "kernel",
		"machine", "attach", "scope", "symbols", "argv", "start_ns", "end_ns", "checks",
		"lost", "overflow", "exit_status", "syscall_results", "loader", "pids_reused",
		"aggregation", "stop", "command_running", "cache", nullptr };
	static const char *const req[] = { "format", "version", "kernel", "attach", "start_ns",
		"end_ns", nullptr };
	static const FieldSet F_set(names);
	Fields F(F_set);
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
			static const FieldSet LF_set(lnames);
			Fields LF(LF_set);
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
				static const FieldSet OF_set(onames);
				Fields OF(OF_set);
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
			static const FieldSet LF_set(lnames);
			Fields LF(LF_set);
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
		case 18:
			if (!get_i64(v, "pids_reused", 0, INT64_MAX, &x, l))
				return false;
			h->pids_reused = (uint64_t)x;
			break;
		case 19: {
			static const char *const anames[] = { "drains", "max_keys", nullptr };
			static const FieldSet AF_set(anames);
			Fields AF(AF_set);
			ondemand::object ao;

			if (v.get_object().get(ao))
				return l.fail("field 'aggregation' must be an object");
			FOR_FIELDS(ao, AF, l) {
				ondemand::value av;

				if (field.value().get(av) ||
				    !get_i64(av, AF.names[fi], 0, fi ? UINT32_MAX : INT64_MAX, &x, l))
					return false;
				if (fi)
					h->agg_keys = (uint32_t)x;
				else
					h->agg_drains = (uint64_t)x;
			}
			break;
		}
		case 20:
			if (!get_str(v, "stop", &s, l))
				return false;
			h->stop = dup(s);
			break;
		case 21:
			if (!get_bool(v, "command_running", &h->command_running, l))
				return false;
			break;
		case 22: {
			static const char *const cnames[] = { "misses", "hit_walks", "splits",
							      "unproven", nullptr };
			static const FieldSet CF_set(cnames);
			uint64_t *dst[] = { &h->cache_misses, &h->cache_hit_walks, &h->cache_splits,
					    &h->cache_unproven };
			Fields CF(CF_set);
			ondemand::object co;

			if (v.get_object().get(co))
				return l.fail("field 'cache' must be an object");
			FOR_FIELDS(co, CF, l) {
				ondemand::value cv;

				if (field.value().get(cv) ||
				    !get_i64(cv, CF.names[fi], 0, INT64_MAX, &x, l))
					return false;
				*dst[fi] = (uint64_t)x;
			}
			h->has_cache = true;
			break;
		}
		}
	}
	return require(F, req, l);
}

bool read_process(ondemand::object obj, record *r, Line &l)
{
	enum { TYPE, PID, START_NS, EXEC_ID, PPID, UID, COMM, EXE, EXIT_CODE, CAPSET };
	static const char *const names[] = { "type", "pid", "start_ns", "exec_id", "ppid", "uid",
		"comm", "exe", "exit_code", "capset", nullptr };
	static const char *const req_v1[] = { "pid", nullptr };
	static const char *const req_v2[] = { "pid", "start_ns", nullptr };
	static const FieldSet F_set(names);
	static const int64_t lo[] = { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const int64_t hi[] = { 0, INT32_MAX, INT64_MAX, UINT32_MAX, INT32_MAX, UINT32_MAX,
				      0, 0, 255, 0 };
	Fields F(F_set);
	int64_t x[CAPSET + 1] = { 0 };
	std::string_view comm = "", exe;
	bool has_exe = false;
	uint64_t sets[3] = { 0 };

	FOR_FIELDS(obj, F, l) {
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		if (fi == COMM) {
			if (!get_str(v, "comm", &comm, l))
				return false;
		} else if (fi == EXE) {
			if (!get_str(v, "exe", &exe, l))
				return false;
			has_exe = true;
		} else if (fi == CAPSET) {
			static const char *const snames[] = { "effective", "permitted",
							      "inheritable", nullptr };
			static const FieldSet SF_set(snames);
			Fields SF(SF_set);
			ondemand::object so;

			if (v.get_object().get(so))
				return l.fail("field 'capset' must be an object");
			FOR_FIELDS(so, SF, l) {
				ondemand::value sv;

				if (field.value().get(sv) ||
				    !get_capset(sv, SF.names[fi], &sets[fi], l))
					return false;
			}
		} else if (fi != TYPE) {
			if (!get_i64(v, F.names[fi], lo[fi], hi[fi], &x[fi], l))
				return false;
		}
	}
	/* version 1 named a process by pid alone (exec_id for its images) */
	if (!require(F, r->hdr.version >= 2 ? req_v2 : req_v1, l))
		return false;
	if (record_find_process(r, (uint32_t)x[PID], x[START_NS], (uint32_t)x[EXEC_ID]))
		return l.fail("process %lld (start_ns %lld, exec_id %lld) appears twice",
			      (long long)x[PID], (long long)x[START_NS], (long long)x[EXEC_ID]);
	rec_process *p = record_add_process(r, (uint32_t)x[PID], x[START_NS], (uint32_t)x[EXEC_ID]);
	p->ppid = (uint32_t)x[PPID];
	p->uid = (uint32_t)x[UID];
	p->comm = dup(comm);
	p->exe = has_exe ? dup(exe) : nullptr;
	p->exited = F.seen & (1ULL << EXIT_CODE);
	p->exit_code = (int)x[EXIT_CODE];
	p->has_capset = F.seen & (1ULL << CAPSET);
	p->capset_eff = sets[0];
	p->capset_prm = sets[1];
	p->capset_inh = sets[2];
	return true;
}

/* holes: non-NULL when lenient, ids may then skip the stacks of lost
 * lines, counted there */
bool read_stack(ondemand::object obj, record *r, size_t *holes, Line &l)
{
	static const char *const names[] = { "type", "id", "frames", nullptr };
	static const char *const req[] = { "id", "frames", nullptr };
	static const FieldSet F_set(names);
	Fields F(F_set);
	int64_t id = 0;
	/* freed on every way out (FOR_FIELDS returns too) unless taken */
	struct Frames {
		char **v = nullptr;
		size_t n = 0;
		~Frames() { free_strv(v, n); }
	} fr;

	FOR_FIELDS(obj, F, l) {
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		if (fi == 1 && !get_i64(v, "id", 0, INT32_MAX, &id, l))
			return false;
		if (fi == 2 && !get_strv(v, "frames", &fr.v, &fr.n, l))
			return false;
	}
	if (!require(F, req, l))
		return false;
	/* ids are below the line number, which bounds the placeholders */
	if ((size_t)id < r->nstacks || (!holes && (size_t)id != r->nstacks) ||
	    (uint64_t)id >= l.lineno)
		return l.fail("stack id %lld out of order (expected %zu)", (long long)id,
			      r->nstacks);
	/* lenient: stacks on skipped lines stay as empty ones, so that the
	 * checks naming them keep their counts (call site unknown) */
	while (r->nstacks < (size_t)id) {
		record_add_stack(r, static_cast<char **>(xcalloc(1, sizeof(char *))), 0);
		(*holes)++;
	}
	record_add_stack(r, fr.v ? fr.v : static_cast<char **>(xcalloc(1, sizeof(char *))),
			 fr.n);
	fr.v = nullptr;
	fr.n = 0;
	return true;
}

/* One user frame object of a ustack line. */
bool read_uframe(ondemand::value fv, rec_uframe *f, Line &l)
{
	static const char *const names[] = { "build_id", "offset", "object", "function",
		"func_off", "source", "line", "leaf", "address", nullptr };
	static const char *const req[] = { "offset", nullptr };
	static const FieldSet F_set(names, req);
	Fields F(F_set);
	ondemand::object o;
	std::string_view s;
	int64_t x;

	if (fv.get_object().get(o))
		return l.fail("a user frame must be an object");
	FOR_FIELDS(o, F, l) {
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		switch (fi) {
		case 0:
			if (!get_str(v, "build_id", &s, l))
				return false;
			if (s.empty() || s.size() > 64 ||
			    s.find_first_not_of("0123456789abcdef") != std::string_view::npos)
				return l.fail("field 'build_id' must be lowercase hex (at most 64 digits)");
			f->build_id = dup(s);
			break;
		case 1: case 4:
			if (!get_i64(v, F.names[fi], 0, INT64_MAX, &x, l))
				return false;
			*(fi == 1 ? &f->offset : &f->func_off) = (uint64_t)x;
			break;
		case 2: case 3: case 5: {
			char **dst = fi == 2 ? &f->object : fi == 3 ? &f->function : &f->source;

			if (!get_str(v, F.names[fi], &s, l))
				return false;
			*dst = dup(s);
			break;
		}
		case 6:
			if (!get_i64(v, "line", 1, INT32_MAX, &x, l))
				return false;
			f->line = (int)x;
			break;
		case 7: case 8:
			if (!get_bool(v, F.names[fi], fi == 7 ? &f->leaf : &f->address, l))
				return false;
			break;
		}
	}
	return require(F, req, l);
}

/* A user stack (record --user-stacks): ids in order, like stacks. */
bool read_ustack(ondemand::object obj, record *r, size_t *holes, Line &l)
{
	static const char *const names[] = { "type", "id", "frames", nullptr };
	static const char *const req[] = { "id", "frames", nullptr };
	static const FieldSet F_set(names, req);
	Fields F(F_set);
	int64_t id = 0;
	struct Frames {
		rec_uframe *v = nullptr;
		size_t n = 0;
		~Frames()
		{
			for (size_t i = 0; i < n; i++)
				rec_uframe_free(&v[i]);
			free(v);
		}
	} fr;

	FOR_FIELDS(obj, F, l) {
		ondemand::value v;
		ondemand::array a;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		if (fi == 1 && !get_i64(v, "id", 0, INT32_MAX, &id, l))
			return false;
		if (fi == 2) {
			if (v.get_array().get(a))
				return l.fail("field 'frames' must be an array");
			for (auto e : a) {
				ondemand::value fv;

				if (e.get(fv))
					return l.fail("bad value in 'frames'");
				if (fr.n >= REC_MAX_UFRAMES)
					return l.fail("more than %d user frames", REC_MAX_UFRAMES);
				fr.v = static_cast<rec_uframe *>(xrealloc(fr.v, (fr.n + 1) * sizeof(*fr.v)));
				fr.v[fr.n] = rec_uframe{};
				fr.n++;
				if (!read_uframe(fv, &fr.v[fr.n - 1], l))
					return false;
			}
		}
	}
	if (!require(F, req, l))
		return false;
	if ((size_t)id < r->nustacks || (!holes && (size_t)id != r->nustacks) ||
	    (uint64_t)id >= l.lineno)
		return l.fail("ustack id %lld out of order (expected %zu)", (long long)id,
			      r->nustacks);
	while (r->nustacks < (size_t)id) {
		record_add_ustack(r, nullptr, 0);
		(*holes)++;
	}
	record_add_ustack(r, fr.v, fr.n);
	fr.v = nullptr;
	fr.n = 0;
	return true;
}

/* r: where processes and stacks are looked up; sink: where the check and
 * its interned strings go (r itself, or a worker's private record). */
bool read_check(ondemand::object obj, const record *r, record *sink, Line &l)
{
	/* in the order capaudit writes them (Fields tries that order first);
	 * cap_name and syscall_name are derived, read and ignored */
	enum { TYPE, PID, START_NS, EXEC_ID, TID, UID, COMM, CGROUP, CAP, CAP_NAME, RET, COUNT,
	       SYSCALL, SYSCALL_NAME, INIT_NS, USERNS, NO_EFFECT, OPTS, FIRST_NS, LAST_NS,
	       SYSCALL_FAILED, SYSCALL_OTHER, SYSCALL_ERRNO, SYSCALL_RESTART, STACK, STACK_ERROR,
	       USTACK, NFIELDS };
	static const char *const names[] = { "type", "pid", "start_ns", "exec_id", "tid", "uid",
		"comm", "cgroup", "cap", "cap_name", "ret", "count", "syscall", "syscall_name",
		"init_ns", "userns", "no_effect", "opts", "first_ns", "last_ns", "syscall_failed",
		"syscall_other", "syscall_errno", "syscall_restart", "stack", "stack_error", "ustack",
		nullptr };
	static const char *const req[] = { "pid", "cap", "ret", "count", nullptr };
	static const char *const req_v2[] = { "pid", "start_ns", "cap", "ret", "count", nullptr };
	/* bounds of the integer fields, in field order */
	static const int64_t lo[NFIELDS] = { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, -4095, 1, -1, 0, 0, 0,
					     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const int64_t hi[NFIELDS] = { 0, INT32_MAX, INT64_MAX, UINT32_MAX, INT32_MAX,
		UINT32_MAX, 0, INT64_MAX, REC_MAX_CAP, 0, 0, INT64_MAX, 4095, 0, 0, 0, 0, 0,
		INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, 0, INT64_MAX, INT32_MAX, 0, INT32_MAX };
	static const FieldSet F_set(names, req);
	static const FieldSet F2_set(names, req_v2);
	bool v2 = r->hdr.version >= 2;
	int64_t x[NFIELDS] = { 0 };
	Fields F(v2 ? F2_set : F_set);
	std::string_view comm = "", serr;
	rec_check c{};

	x[SYSCALL] = -1;   /* none */
	c.stack = -1;
	c.ustack = -1;
	FOR_FIELDS(obj, F, l) {
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		switch (fi) {
		case PID: case START_NS: case EXEC_ID: case TID: case UID: case CGROUP: case CAP:
		case RET:
		case COUNT: case SYSCALL: case FIRST_NS: case LAST_NS: case SYSCALL_FAILED:
		case SYSCALL_OTHER: case SYSCALL_RESTART:
			if (!get_i64(v, F.names[fi], lo[fi], hi[fi], &x[fi], l))
				return false;
			break;
		case STACK: {
			bool null;

			if (!v.is_null().get(null) && null)
				break;
			if (!get_i64(v, "stack", 0, INT32_MAX, &x[STACK], l))
				return false;
			if ((size_t)x[STACK] >= r->nstacks)
				return l.fail("stack %lld is not defined before this line",
					      (long long)x[STACK]);
			c.stack = (int)x[STACK];
			break;
		}
		case USTACK:
			if (!get_i64(v, "ustack", 0, INT32_MAX, &x[USTACK], l))
				return false;
			if ((size_t)x[USTACK] >= r->nustacks)
				return l.fail("ustack %lld is not defined before this line",
					      (long long)x[USTACK]);
			c.ustack = (int)x[USTACK];
			break;
		case COMM:
			if (!get_str(v, "comm", &comm, l))
				return false;
			break;
		case INIT_NS:
			if (!get_bool(v, "init_ns", &c.init_ns, l))
				return false;
			break;
		case USERNS: {
			std::string_view u;

			if (!get_str(v, "userns", &u, l))
				return false;
			if (u == "inside")
				c.userns = RU_INSIDE;
			else if (u == "owner")
				c.userns = RU_OWNER;
			else
				return l.fail("field 'userns' is '%.20s', not inside or owner",
					      std::string(u).c_str());
			break;
		}
		case SYSCALL_ERRNO: {
			std::string_view e;

			if (!get_str(v, "syscall_errno", &e, l))
				return false;
			c.sys_errno = errno_number(e);
			if (c.sys_errno <= 0)
				return l.fail("field 'syscall_errno' is '%.20s', not an errno name",
					      std::string(e).c_str());
			break;
		}
		case NO_EFFECT:
			if (!get_bool(v, "no_effect", &c.no_effect, l))
				return false;
			break;
		case OPTS: {
			static const char *const onames[] = { "noaudit", "insetid", nullptr };
			static const FieldSet OF_set(onames);
			Fields OF(OF_set);
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
			break;
		}
		case STACK_ERROR:
			if (!get_str(v, "stack_error", &serr, l))
				return false;
			break;
		default:
			break;   /* type, cap_name, syscall_name */
		}
	}
	if (!require(F, v2 ? req_v2 : req, l))
		return false;
	if (x[SYSCALL_FAILED] > x[COUNT] || x[SYSCALL_OTHER] > x[COUNT] || x[SYSCALL_RESTART] > x[COUNT])
		return l.fail("a syscall result count exceeds 'count' (%lld)", (long long)x[COUNT]);
	if (!x[SYSCALL_OTHER] != !c.sys_errno)
		return l.fail("fields 'syscall_other' and 'syscall_errno' come together");
	if (x[SYSCALL_FAILED] > x[COUNT])
		return l.fail("field 'syscall_failed' (%lld) exceeds 'count' (%lld)",
			      (long long)x[SYSCALL_FAILED], (long long)x[COUNT]);
	if (!record_find_process(r, (uint32_t)x[PID], x[START_NS], (uint32_t)x[EXEC_ID]))
		return l.fail("check for pid %lld (start_ns %lld, exec_id %lld) comes before (or "
			      "without) its process line", (long long)x[PID], (long long)x[START_NS],
			      (long long)x[EXEC_ID]);
	/* before version 3 a check against a child namespace did not say
	 * whether the credentials were inside one or owned it */
	if (r->hdr.version < 3 && (F.seen & (1ULL << INIT_NS)) && !c.init_ns && c.userns == RU_HOST)
		c.userns = RU_CHILD;
	c.pid = (uint32_t)x[PID];
	c.start_ns = x[START_NS];
	c.exec_id = (uint32_t)x[EXEC_ID];
	c.tid = (uint32_t)x[TID];
	c.uid = (uint32_t)x[UID];
	c.cgroup = (uint64_t)x[CGROUP];
	c.cap = (int)x[CAP];
	c.ret = (int)x[RET];
	c.count = (uint64_t)x[COUNT];
	c.syscall = (int)x[SYSCALL];
	c.first_ns = x[FIRST_NS];
	c.last_ns = x[LAST_NS];
	c.sys_failed = (uint64_t)x[SYSCALL_FAILED];
	c.sys_other = (uint64_t)x[SYSCALL_OTHER];
	c.sys_restart = (uint64_t)x[SYSCALL_RESTART];
	c.comm = record_intern(sink, comm.data(), comm.size());
	c.stack_error = F.seen & (1ULL << STACK_ERROR) ? dup(serr) : nullptr;
	c.line = l.lineno;
	*record_add_check(sink) = c;
	return true;
}

/* What the whole read has seen so far. */
struct State {
	record *r;
	rec_read *rd;             /* options and results; never NULL here */
	bool have_header = false;
	bool have_end = false;
	size_t holes = 0;         /* empty stacks standing for lost stack lines */
	int64_t end_counts[4] = { 0, 0, 0, 0 };   /* processes, stacks, checks, ustacks */
};

bool read_end(ondemand::object obj, State &st, Line &l)
{
	static const char *const names[] = { "type", "processes", "stacks", "checks", "ustacks",
		nullptr };
	static const char *const req[] = { "processes", "stacks", "checks", nullptr };
	static const FieldSet F_set(names, req);
	Fields F(F_set);

	FOR_FIELDS(obj, F, l) {
		ondemand::value v;

		if (field.value().get(v))
			return l.fail("bad value for '%s'", F.names[fi]);
		if (fi > 0 && !get_i64(v, F.names[fi], 0, INT64_MAX, &st.end_counts[fi - 1], l))
			return false;
	}
	if (!require(F, req, l))
		return false;
	st.have_end = true;
	return true;
}

/* All or nothing: a header that fails half-way (and is then read again by
 * the slow path) leaves nothing behind. */
bool read_header(ondemand::object obj, rec_header *h, Line &l)
{
	rec_header tmp{};

	if (!read_header_fields(obj, &tmp, l)) {
		record_clear_header(&tmp);
		return false;
	}
	record_clear_header(h);
	*h = tmp;
	return true;
}

/* One object of a known type, in the right order. */
bool process_object(ondemand::object obj, State &st, Line &l)
{
	ondemand::value tv;
	std::string_view type;
	error_code e;
	bool nonempty;

	e = obj.find_field("type").get(tv);
	if (e == NO_SUCH_FIELD)
		return l.fail("missing field 'type'");
	if (e)
		return l.fail("invalid JSON: %s", json_error_text(e));
	if (!get_str(tv, "type", &type, l))
		return false;
	std::string t(type.substr(0, 40));

	if (obj.reset().get(nonempty))
		return l.fail("invalid JSON");
	if (!st.have_header) {
		if (type != "header")
			return l.fail("first line must be the header, found type '%s'", t.c_str());
		if (!read_header(obj, &st.r->hdr, l))
			return false;
		st.have_header = true;
		return true;
	}
	if (st.have_end)
		return l.fail("a line after the end line");
	if (type == "header")
		return l.fail("a second header");
	if (type == "process")
		return read_process(obj, st.r, l);
	if (type == "stack")
		return read_stack(obj, st.r, st.rd->lenient ? &st.holes : nullptr, l);
	if (type == "ustack")
		return read_ustack(obj, st.r, st.rd->lenient ? &st.holes : nullptr, l);
	if (type == "check")
		return read_check(obj, st.r, st.r, l);
	if (type == "end")
		return read_end(obj, st, l);
	return l.fail("unknown line type '%s'", t.c_str());
}

/* One line on its own: the slow path, which names precisely what is wrong. */
bool read_line(ondemand::parser &parser, const char *p, size_t len, size_t cap, State &st, Line &l)
{
	ondemand::document doc;
	ondemand::object obj;
	error_code e;

	std::string_view raw;

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
	/* anything after the object (a second value, junk) is an error */
	if (obj.raw_json().get(raw))
		return l.fail("invalid JSON: %s", json_error_text(TAPE_ERROR));
	for (const char *c = raw.data() + raw.size(); c < p + len; c++)
		if (*c != ' ' && *c != '\t' && *c != '\r')
			return l.fail("invalid JSON: %s", json_error_text(TRAILING_CONTENT));
	doc.rewind();
	if (doc.get_object().get(obj))
		return l.fail("invalid JSON");
	return process_object(obj, st, l);
}

/* The document at `at` of a stream over [p, p + len) alone on its line?
 * *nl is set to the end of that line. */
bool one_per_line(const char *p, size_t len, size_t at, std::string_view src, const char **nl)
{
	while (!src.empty() && (src.back() == ' ' || src.back() == '\t' || src.back() == '\n' ||
				src.back() == '\r' || src.back() == '\0'))
		src.remove_suffix(1);
	*nl = static_cast<const char *>(memchr(p + at, '\n', len - at));
	if (!*nl || p + at + src.size() > *nl)
		return false;   /* the document spans lines */
	for (const char *c = p + at + src.size(); c < *nl; c++)
		if (*c != ' ' && *c != '\t' && *c != '\r')
			return false;   /* something else on its line */
	return true;
}

/*
 * The fast path: every document of a chunk of complete lines through one
 * document stream (stage 1 once per chunk, not once per line). Returns the
 * offset up to which lines were taken; a line the stream cannot take
 * (invalid JSON, a blank line, not one object per line, or rejected) stops
 * it there, and the caller reads that line on the slow path.
 */
size_t read_chunk_fast(ondemand::parser &parser, const char *p, size_t len, State &st,
		       size_t first_line, Line &l, bool *fatal)
{
	ondemand::document_stream stream;
	size_t done = 0, line = first_line;

	*fatal = false;
	if (parser.iterate_many(p, len, len + 1).get(stream))
		return 0;
	for (auto it = stream.begin(); it != stream.end(); ++it) {
		size_t at = it.current_index();

		/* a value starting inside the line just taken: that line held
		 * more than one (its first is already read, so this is final) */
		if (at < done) {
			l.lineno = (uint32_t)(line - 1);
			*fatal = true;
			l.fail("invalid JSON: %s", json_error_text(TRAILING_CONTENT));
			return done;
		}
		if (it.error())
			return done;
		/* source() before the document is touched: after, it may span
		 * the rest of the batch */
		std::string_view src = it.source();
		ondemand::document_reference doc;
		ondemand::object obj;
		const char *nl;

		if (at != done || !one_per_line(p, len, at, src, &nl) || (*it).get(doc) ||
		    doc.get_object().get(obj))
			return done;
		bool had_header = st.have_header;

		l.lineno = (uint32_t)line;
		if (!process_object(obj, st, l)) {
			/* read again on the slow path, for the message: undo */
			if (!had_header && st.have_header) {
				record_clear_header(&st.r->hdr);
				st.have_header = false;
			}
			return done;
		}
		done = (size_t)(nl - p) + 1;
		line++;
	}
	return done;
}

/*
 * Check lines in parallel: once the header, processes and stacks are read
 * (the writer puts them first), the rest of a big chunk is split in two
 * at a line boundary and each half parsed on its own core into a private
 * record, then appended in order. Anything unusual (another line type, a
 * blank line, an error) makes the caller read the chunk again on one core,
 * which finds and names the problem.
 */
struct Half {
	const char *p;
	size_t len, cap, first_line;
	const record *r;
	record local;
	bool ok;
	size_t lines;             /* lines taken */
};

void parse_half(ondemand::parser *parser, Half *h)
{
	ondemand::document_stream stream;
	char why[256];
	Line l{ why, sizeof(why) };
	size_t done = 0, line = h->first_line;

	memset(&h->local, 0, sizeof(h->local));
	h->ok = false;
	if (parser->iterate_many(h->p, h->len, h->len + 1).get(stream))
		return;
	for (auto it = stream.begin(); it != stream.end(); ++it) {
		size_t at = it.current_index();

		if (it.error() || at != done)
			return;   /* the sequential path names the problem */
		std::string_view src = it.source();   /* before the document is touched */
		ondemand::document_reference doc;
		ondemand::object obj;
		ondemand::value tv;
		std::string_view type;
		bool nonempty;
		const char *nl;

		if (!one_per_line(h->p, h->len, at, src, &nl) || (*it).get(doc) ||
		    doc.get_object().get(obj))
			return;
		l.lineno = (uint32_t)line++;
		if (obj.find_field("type").get(tv) || tv.get_string().get(type) || type != "check" ||
		    obj.reset().get(nonempty) || !read_check(obj, h->r, &h->local, l))
			return;
		done = (size_t)(nl - h->p) + 1;
	}
	h->ok = done == h->len;
	h->lines = line - h->first_line;
}

/* Returns true when [p, p + len) (all complete lines, the first of them
 * line first_line) was taken in parallel. */
bool read_checks_parallel(ondemand::parser &p0, ondemand::parser &p1, const char *p, size_t len,
			  size_t cap, size_t first_line, record *r)
{
	const char *mid = static_cast<const char *>(memchr(p + len / 2, '\n', len - len / 2));
	Half a, b;

	if (!mid || mid + 1 >= p + len)
		return false;
	/* b numbers its lines from 0; once a has counted its own (every line
	 * of a taken half is one object), b's checks move up by that */
	a = { p, (size_t)(mid + 1 - p), cap, first_line, r, {}, false, 0 };
	b = { mid + 1, (size_t)(p + len - (mid + 1)), cap - (size_t)(mid + 1 - p), 0, r, {}, false,
	      0 };
	std::thread t(parse_half, &p1, &b);
	parse_half(&p0, &a);
	t.join();
	if (a.ok && b.ok) {
		for (size_t i = 0; i < b.local.nchecks; i++)
			b.local.checks[i].line += (uint32_t)(first_line + a.lines);
		record_take_checks(r, &a.local);
		record_take_checks(r, &b.local);
	}
	record_free(&a.local);
	record_free(&b.local);
	return a.ok && b.ok;
}

/* Lines (newlines) in n bytes from p. */
size_t count_lines(const char *p, size_t n)
{
	const char *end = p + n;
	size_t k = 0;

	while (p < end && (p = static_cast<const char *>(memchr(p, '\n', (size_t)(end - p))))) {
		k++;
		p++;
	}
	return k;
}

} // namespace

extern "C" int recfile_read_opts(FILE *f, const char *name, struct record *r, struct rec_read *rdp,
				 char *err, size_t errlen)
{
	/* streamed in chunks: a 300 MB record is not held in memory at once */
	const size_t chunk = 8 << 20, bufcap = chunk + REC_MAX_LINE + 2 + SIMDJSON_PADDING;
	char *buf = static_cast<char *>(xcalloc(bufcap, 1)), why[512], safe[600];
	size_t len = 0, lineno = 0, off = 0, n, scan_q = 0, scan_whole = 0, fast_win = bufcap;
	size_t scan_from = 0, scan_lines = 0;
	bool eof = false, scan_ok = false, parallel_failed = false;   /* see below */
	ondemand::parser parser(bufcap), parser2(bufcap);
	Line l{ why, sizeof(why) };
	rec_read local_rd{};
	rec_read &rd = rdp ? *rdp : local_rd;
	State st{ r, &rd };
	int rc = 0;

	memset(r, 0, sizeof(*r));
	rd.lines = rd.skipped = 0;
	rd.truncated = false;
	rd.missing = 0;
	rd.first_problem[0] = '\0';
	for (;;) {
		const char *p = buf + off, *last_nl, *q, *nl;
		size_t whole, ll;

		/* a last line without its newline moved off one past len */
		if (off > len)
			off = len;
		p = buf + off;
		/* complete lines in [off, whole) */
		last_nl = static_cast<const char *>(memrchr(p, '\n', len - off));
		whole = last_nl ? (size_t)(last_nl - buf) + 1 : off;
		if (eof)
			whole = len;
		if (whole == off && !eof && len - off <= REC_MAX_LINE) {
			/* keep the partial line, read more after it */
			memmove(buf, buf + off, len - off);
			len -= off;
			off = 0;
			scan_ok = false;   /* the buffer moved */
			parallel_failed = false;
			n = fread(buf + len, 1, bufcap - SIMDJSON_PADDING - len, f);
			if (n == 0) {
				if (ferror(f)) {
					snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
					rc = -1;
					break;
				}
				eof = true;
			}
			len += n;
			memset(buf + len, 0, SIMDJSON_PADDING);   /* what simdjson reads past the end */
			continue;
		}
		if (off >= len)
			break;
		if (!eof && whole == off) {
			/* a partial line longer than allowed (binary data, often) */
			snprintf(err, errlen, memchr(p, '\0', len - off) ?
				 "%s:%zu: NUL byte: not a text record file" :
				 "%s:%zu: line is longer than %d bytes", name, lineno + 1, REC_MAX_LINE);
			rc = -1;
			break;
		}
		/* line lengths and NUL bytes: the stream cannot tell us; the lines
		 * before the first long or NUL one are fine. Scanned once per
		 * buffer fill, not once per line the slow path takes (a file of
		 * blank or bad lines would be read in quadratic time) */
		if (!scan_ok || off > scan_q || scan_whole != whole) {
			const char *nul = static_cast<const char *>(memchr(p, '\0', whole - off));
			const char *stop = nul ? nul : buf + whole;

			scan_lines = 0;
			for (q = p; q < stop; q = nl + 1) {
				nl = static_cast<const char *>(memchr(q, '\n', (size_t)(buf + whole - q)));
				ll = nl ? (size_t)(nl - q) : (size_t)(buf + whole - q);
				if (ll > REC_MAX_LINE || !nl || nl >= stop)
					break;
				scan_lines++;
			}
			scan_from = off;
			scan_q = (size_t)(q - buf);
			scan_whole = whole;
			scan_ok = true;
		}
		/* fast paths up to the first bad, blank or rejected line */
		{
			size_t limit = scan_q, done = 0, win = limit - off;

			/* once per buffer fill: a failed try means a line the
			 * single-core path must see, and trying again after each
			 * such line would read the rest again each time */
			if (r->nchecks && !st.have_end && limit - off > (1 << 20) && !parallel_failed) {
				if (read_checks_parallel(parser, parser2, p, limit - off, bufcap - off,
							 lineno + 1, r)) {
					lineno += off == scan_from ? scan_lines : count_lines(p, limit - off);
					off = limit;
					continue;
				}
				parallel_failed = true;
			}
			bool fatal = false;

			/* the document stream indexes all it is given before the
			 * first line: give it a window that grows while whole
			 * windows are read and shrinks to what was read when it
			 * stops early (at a blank or bad line), so that many such
			 * lines cost what they hold, not the rest of the buffer */
			if (fast_win < win) {
				const char *e = static_cast<const char *>(memchr(p + fast_win, '\n',
										 win - fast_win));

				win = e ? (size_t)(e - p) + 1 : win;
			}
			if (win)
				done = read_chunk_fast(parser, p, win, st, lineno + 1, l, &fatal);
			fast_win = done == win ? std::min(2 * win + 256, bufcap) :
				   std::max<size_t>(256, 2 * done);
			if (fatal) {
				snprintf(err, errlen, "%s:%u: %s", name, l.lineno,
					 text_escape(why, safe, sizeof(safe)));
				rc = -1;
				break;
			}
			/* what it took: the scan counted the usual case */
			lineno += off == scan_from && done == limit - off ? scan_lines : count_lines(p, done);
			off += done;
			if (off >= whole)
				continue;
		}
		/* slow path: one line, with a precise message */
		p = buf + off;
		nl = static_cast<const char *>(memchr(p, '\n', whole - off));
		ll = nl ? (size_t)(nl - p) : whole - off;
		lineno++;
		why[0] = '\0';
		l.lineno = (uint32_t)lineno;
		if (ll > REC_MAX_LINE) {
			snprintf(why, sizeof(why), "line is longer than %d bytes", REC_MAX_LINE);
		} else if (memchr(p, '\0', ll)) {
			snprintf(why, sizeof(why), "NUL byte: not a text record file");
		} else if (strspn(p, " \t\r") >= ll) {
			off += ll + 1;   /* a blank line */
			continue;
		} else if (read_line(parser, p, ll, bufcap - off, st, l)) {
			off += ll + 1;
			continue;
		}
		/* the line is bad: an error, or (lenient) skipped and counted; a
		 * file without a valid header is never read */
		if (!rd.lenient || !st.have_header) {
			snprintf(err, errlen, "%s:%zu: %s", name, lineno,
				 text_escape(why, safe, sizeof(safe)));
			rc = -1;
			break;
		}
		if (!rd.skipped++)
			snprintf(rd.first_problem, sizeof(rd.first_problem), "%s:%zu: %s", name, lineno,
				 text_escape(why, safe, sizeof(safe)));
		if (ll > REC_MAX_LINE && !nl) {   /* skip the rest of an endless line */
			rc = 0;
			off = whole;
		} else {
			off += ll + 1;
		}
	}
	free(buf);
	rd.lines = lineno;
	if (!rc && !st.have_header) {
		snprintf(err, errlen, "%s:%zu: empty file: no record header", name, lineno + 1);
		rc = -1;
	}
	if (!rc && !st.have_end) {
		if (!rd.lenient) {
			snprintf(err, errlen, "%s:%zu: truncated: the file ends without its end line "
				 "(recording cut short, or the file was cut)", name, lineno);
			rc = -1;
		} else {
			rd.truncated = true;
		}
	}
	if (!rc && st.have_end && rd.lenient) {
		/* lines the recorder wrote that are neither here nor skipped */
		/* each count is at most INT64_MAX: summed unsigned, saturating */
		uint64_t want = sat_add(sat_add((uint64_t)st.end_counts[0], (uint64_t)st.end_counts[1]),
					sat_add((uint64_t)st.end_counts[2], (uint64_t)st.end_counts[3]));
		uint64_t got = (uint64_t)(r->nprocs + r->nstacks + r->nustacks - st.holes + r->nchecks +
					  rd.skipped);

		rd.missing = want > got ? (size_t)(want - got) : 0;
	}
	if (!rc) {
		size_t removed = 0, dup = 0, orig = 0;

		if (record_dedup_checks(r, rd.lenient ? DEDUP_DROP : DEDUP_FAIL, &removed, &dup,
					&orig)) {
			snprintf(err, errlen, "%s:%u: the same check as line %u (pid, image, capability, "
				 "verdict, stack and syscall): it would be counted twice", name,
				 r->checks[dup].line, r->checks[orig].line);
			rc = -1;
		} else if (removed) {
			rd.skipped += removed;
			if (!rd.first_problem[0])
				snprintf(rd.first_problem, sizeof(rd.first_problem),
					 "%s: duplicate check lines", name);
		}
	}
	if (!rc && st.have_end && !rd.lenient &&
	    (st.end_counts[0] != (int64_t)r->nprocs || st.end_counts[1] != (int64_t)r->nstacks ||
	     st.end_counts[2] != (int64_t)r->nchecks || st.end_counts[3] != (int64_t)r->nustacks)) {
		if (st.end_counts[3] || r->nustacks)
			snprintf(err, errlen, "%s:%zu: the end line counts %lld processes, %lld stacks, "
				 "%lld checks, %lld user stacks; the file holds %zu, %zu, %zu, %zu",
				 name, lineno, (long long)st.end_counts[0], (long long)st.end_counts[1],
				 (long long)st.end_counts[2], (long long)st.end_counts[3], r->nprocs,
				 r->nstacks, r->nchecks, r->nustacks);
		else
			snprintf(err, errlen, "%s:%zu: the end line counts %lld processes, %lld stacks, "
				 "%lld checks; the file holds %zu, %zu, %zu", name, lineno,
				 (long long)st.end_counts[0], (long long)st.end_counts[1],
				 (long long)st.end_counts[2], r->nprocs, r->nstacks, r->nchecks);
		rc = -1;
	}
	if (rc) {
		record_free(r);
	} else if (rd.lenient) {
		r->input.lenient = true;
		r->input.truncated = rd.truncated;
		r->input.lines = rd.lines;
		r->input.skipped = rd.skipped;
		r->input.missing = rd.missing;
	}
	return rc;
}

extern "C" int recfile_read(FILE *f, const char *name, struct record *r, char *err, size_t errlen)
{
	return recfile_read_opts(f, name, r, nullptr, err, errlen);
}

extern "C" int recfile_load_opts(const char *path, struct record *r, struct rec_read *rd,
				 char *err, size_t errlen)
{
	FILE *f = infile_open(path, err, errlen);
	int rc;

	if (!f)
		return -1;
	rc = recfile_read_opts(f, strcmp(path, "-") ? path : "standard input", r, rd, err, errlen);
	infile_close(f);
	return rc;
}

extern "C" int recfile_load(const char *path, struct record *r, char *err, size_t errlen)
{
	return recfile_load_opts(path, r, nullptr, err, errlen);
}
