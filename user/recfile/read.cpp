// SPDX-License-Identifier: GPL-2.0
/*
 * The record-file reader (strict, or lenient with --lenient), on simdjson's
 * On-Demand API: a record of a million aggregated checks must be read in
 * well under a second, which a DOM-building parser cannot do. C interface
 * in recfile.h; every message is "FILE:LINE: what is wrong", terminal-safe.
 *
 * From the bottom up:
 *  - values: one JSON value as a field of the record (range, type, escapes);
 *  - fields: each_field() walks one object's known fields once, in file
 *    order, rejecting duplicates and passing over unknown ones;
 *  - line readers, one per line type (header, process, stack, ustack,
 *    check, end) and per nested object (lost, overflow, loader,
 *    aggregation, cache, capset, opts, user frames): each switches on an
 *    enum of its fields, in the order of its names array;
 *  - process_object(): a line's type, in the right order;
 *  - fast paths: a chunk of lines through one document stream, and check
 *    lines on two threads;
 *  - Reader: the file in buffer-sized chunks, the slow path for the line a
 *    fast path stops at, and what is checked once the last line is read.
 */
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

extern "C" {
#include "facts/capnames.h"
#include "facts/kfeat.h"
#include "facts/syscalls.h"
#include "lib/infile.h"
#include "recfile/recfile.h"
#include "lib/util.h"
}

using namespace simdjson;

namespace {

/* The line being read, and where its message goes. */
struct Line {
	char *why;
	size_t wlen;
	uint32_t lineno = 0;
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

/* ---- values ---------------------------------------------------------- */

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

/* An integer into the field's own type: lo..hi fit it. */
template <typename T>
bool get_int(ondemand::value v, const char *key, int64_t lo, int64_t hi, T *out, Line &l)
{
	int64_t x;

	if (!get_i64(v, key, lo, hi, &x, l))
		return false;
	*out = static_cast<T>(x);
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

/* *out points into the parser's buffer: valid until the next line. */
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

bool is_null(ondemand::value v)
{
	bool null;

	return !v.is_null().get(null) && null;
}

bool get_object(ondemand::value v, const char *key, ondemand::object *out, Line &l)
{
	if (v.get_object().get(*out))
		return l.fail("field '%s' must be an object", key);
	return true;
}

char *dup(std::string_view s)
{
	char *p = static_cast<char *>(xcalloc(s.size() + 1, 1));

	memcpy(p, s.data(), s.size());
	return p;
}

/* A string the record keeps: a copy in *out. */
bool get_new_str(ondemand::value v, const char *key, char **out, Line &l)
{
	std::string_view s;

	if (!get_str(v, key, &s, l))
		return false;
	*out = dup(s);
	return true;
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

/* "ENODEV" -> 19 (glibc's names), or -1; a number is taken as it is.
 * The table is made once (thread-safe static), not searched per line. */
int errno_number(std::string_view name)
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
bool get_capset(ondemand::value v, const char *key, uint64_t *out, Line &l)
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

/* ---- fields ---------------------------------------------------------- */

/* The known fields of one object type: lengths, and the names as two
 * masked 8-byte words, so that matching a key is two loads and compares
 * (a memcmp call per key cost a sixth of reading a big record). */
constexpr int FIELDS_MAX = 32;   /* per object type; Fields::seen has 64 bits */

constexpr uint64_t bit(int field)
{
	return 1ULL << field;
}

struct FieldSet {
	const char *const *names;   /* NULL-terminated */
	size_t len[FIELDS_MAX] = { 0 };
	uint64_t w[FIELDS_MAX][2] = {}, m[FIELDS_MAX][2] = {};

	explicit FieldSet(const char *const *n) : names(n)
	{
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

	bool has(int field) const { return seen & bit(field); }

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

	/* The field named k, or -1. */
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

/*
 * Walks obj's fields once, in file order, calling field(index, value) for
 * each known one: unknown fields are passed over (later versions may add
 * some), a field met twice is an error. Stops at the first false.
 */
template <typename Fn>
bool each_field(ondemand::object obj, Fields &F, Line &l, Fn &&field)
{
	for (auto kv : obj) {
		ondemand::raw_json_string key;
		ondemand::value v;

		if (kv.key().get(key))
			return l.fail("bad field name");
		int f = F.index(key.raw());

		if (f < 0)
			continue;
		if (F.has(f))
			return l.fail("duplicate field '%s'", F.names[f]);
		F.seen |= bit(f);
		if (kv.value().get(v))   /* cannot fail once key() has succeeded */
			return l.fail("bad value for '%s'", F.names[f]);
		if (!field(f, v))
			return false;
	}
	return true;
}

/* The fields of `required` (bits) were all met; else the first missing
 * one, in the order of the names, is named. */
bool require(const Fields &F, uint64_t required, Line &l)
{
	uint64_t missing = required & ~F.seen;

	if (!missing)
		return true;
	return l.fail("missing field '%s'", F.names[__builtin_ctzll(missing)]);
}

/* ---- the header line ------------------------------------------------- */

/* A name the kernel could give a syscall or an architecture: letters,
 * digits and '_', 1..max bytes. */
bool is_ident(std::string_view s, size_t max)
{
	if (s.empty() || s.size() > max)
		return false;
	for (char ch : s)
		if (!isalnum((unsigned char)ch) && ch != '_')
			return false;
	return true;
}

/* "arch": any name (a later capaudit may record elsewhere: its checks
 * then keep only the names the record gives). */
bool get_arch(ondemand::value v, char **out, Line &l)
{
	std::string_view s;

	if (!get_str(v, "arch", &s, l))
		return false;
	if (!is_ident(s, 32))
		return l.fail("field 'arch' must be an architecture name (letters, digits, '_')");
	*out = dup(s);
	return true;
}

bool get_syscall_name(ondemand::value v, std::string_view *out, Line &l)
{
	if (!get_str(v, "syscall_name", out, l))
		return false;
	if (!is_ident(*out, 64))
		return l.fail("field 'syscall_name' must be a syscall name (letters, digits, '_')");
	return true;
}

bool get_format(ondemand::value v, Line &l)
{
	std::string_view s;

	if (!get_str(v, "format", &s, l))
		return false;
	if (s != REC_FORMAT)
		return l.fail("format is '%.40s', not a capaudit record ('%s')",
			      std::string(s).c_str(), REC_FORMAT);
	return true;
}

bool get_version(ondemand::value v, int *out, Line &l)
{
	int64_t x;

	if (!get_i64(v, "version", 1, INT32_MAX, &x, l))
		return false;
	if (x > REC_VERSION)
		return l.fail("record version %lld is newer than this capaudit reads (%d)",
			      (long long)x, REC_VERSION);
	*out = (int)x;
	return true;
}

/* The names of "lost", from the one list of loss kinds (rec_lost_kinds,
 * model.c), so a kind added there is read here too. */
const char *const *lost_names()
{
	static const char *names[FIELDS_MAX + 1];

	if (rec_lost_nkinds > FIELDS_MAX)
		abort();   /* a programming error: raise FIELDS_MAX */
	for (size_t i = 0; i < rec_lost_nkinds; i++)
		names[i] = rec_lost_kinds[i].key;
	return names;
}

/* "lost": what the kernel side could not store. */
bool read_lost(ondemand::value v, rec_lost *lost, Line &l)
{
	static const FieldSet fs(lost_names());
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "lost", &o, l))
		return false;
	return each_field(o, F, l, [&](int f, ondemand::value fv) {
		const rec_lost_kind &k = rec_lost_kinds[f];

		return get_int(fv, k.key, 0, INT64_MAX, (uint64_t *)(void *)((char *)lost + k.off), l);
	});
}

/* One item of "overflow": checks counted while the aggregation map was full. */
bool read_overflow_item(ondemand::object o, rec_overflow *ov, Line &l)
{
	enum { CAP, DENIED, COUNT, NFIELDS };
	static const char *const names[] = { "cap", "denied", "count", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);

	bool ok = each_field(o, F, l, [&](int f, ondemand::value v) {
		switch (f) {
		case CAP:
			return get_int(v, "cap", 0, REC_MAX_CAP, &ov->cap, l);
		case DENIED:
			return get_bool(v, "denied", &ov->denied, l);
		case COUNT:
			return get_int(v, "count", 0, INT64_MAX, &ov->count, l);
		}
		return true;
	});
	return ok && require(F, bit(CAP) | bit(DENIED) | bit(COUNT), l);
}

bool read_overflow(ondemand::value v, rec_header *h, Line &l)
{
	ondemand::array a;
	size_t cap = 0, i = 0;

	if (v.get_array().get(a))
		return l.fail("field 'overflow' must be an array");
	for (auto item : a) {
		ondemand::object o;
		rec_overflow ov{};

		if (item.get_object().get(o))
			return l.fail("overflow item %zu must be an object", i);
		if (!read_overflow_item(o, &ov, l))
			return false;
		grow_array(reinterpret_cast<void **>(&h->overflow), &cap, h->noverflow + 1,
			   sizeof(*h->overflow));
		h->overflow[h->noverflow++] = ov;
		i++;
	}
	return true;
}

/* "loader": the recorder's own cost. */
bool read_loader(ondemand::value v, rec_header *h, Line &l)
{
	enum { CPU_S, MAX_RSS_KB, NFIELDS };
	static const char *const names[] = { "cpu_s", "max_rss_kb", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "loader", &o, l))
		return false;
	return each_field(o, F, l, [&](int f, ondemand::value fv) {
		switch (f) {
		case CPU_S:
			return get_double(fv, "cpu_s", &h->loader_cpu_s, l);
		case MAX_RSS_KB:
			return get_int(fv, "max_rss_kb", 0, INT64_MAX, &h->loader_rss_kb, l);
		}
		return true;
	});
}

/* "aggregation": the recorder's aggregation maps. */
bool read_aggregation(ondemand::value v, rec_header *h, Line &l)
{
	enum { DRAINS, MAX_KEYS, NFIELDS };
	static const char *const names[] = { "drains", "max_keys", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "aggregation", &o, l))
		return false;
	return each_field(o, F, l, [&](int f, ondemand::value fv) {
		switch (f) {
		case DRAINS:
			return get_int(fv, "drains", 0, INT64_MAX, &h->agg_drains, l);
		case MAX_KEYS:
			return get_int(fv, "max_keys", 0, UINT32_MAX, &h->agg_keys, l);
		}
		return true;
	});
}

/* "cache": the call-site cache's work (version 3). */
bool read_cache(ondemand::value v, rec_header *h, Line &l)
{
	enum { MISSES, HIT_WALKS, SPLITS, UNPROVEN, NFIELDS };
	static const char *const names[] = { "misses", "hit_walks", "splits", "unproven",
		nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "cache", &o, l))
		return false;
	return each_field(o, F, l, [&](int f, ondemand::value fv) {
		switch (f) {
		case MISSES:
			return get_int(fv, "misses", 0, INT64_MAX, &h->cache_misses, l);
		case HIT_WALKS:
			return get_int(fv, "hit_walks", 0, INT64_MAX, &h->cache_hit_walks, l);
		case SPLITS:
			return get_int(fv, "splits", 0, INT64_MAX, &h->cache_splits, l);
		case UNPROVEN:
			return get_int(fv, "unproven", 0, INT64_MAX, &h->cache_unproven, l);
		}
		return true;
	});
}

/* "kernel_bpf": the BPF features the recording kernel lacked (their names,
 * facts/kfeat.h) and what the record lacks for it. */
bool read_kernel_bpf(ondemand::value v, rec_header *h, Line &l)
{
	enum { MISSING, DEGRADED, NFIELDS };
	static const char *const names[] = { "missing", "degraded", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "kernel_bpf", &o, l))
		return false;
	return each_field(o, F, l, [&](int f, ondemand::value fv) {
		switch (f) {
		case MISSING: {
			char **feat = nullptr;
			size_t n = 0, i;
			bool ok = get_strv(fv, "missing", &feat, &n, l);

			for (i = 0; ok && i < n; i++) {
				uint32_t bit = kfeat_parse(feat[i]);

				if (!bit)
					ok = l.fail("field 'kernel_bpf': unknown feature '%s' in 'missing'",
						    feat[i]);
				h->kernel_missing |= bit;
			}
			free_strv(feat, n);
			return ok;
		}
		case DEGRADED:
			return get_strv(fv, "degraded", &h->degraded, &h->ndegraded, l);
		}
		return true;
	});
}

/* "monitor": a capaudit monitor checkpoint (version 4). */
bool read_monitor(ondemand::value v, rec_header *h, Line &l)
{
	enum { INTERVAL, CHECKPOINT, SINCE_NS, NFIELDS };
	static const char *const names[] = { "interval", "checkpoint", "since_ns", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "monitor", &o, l))
		return false;
	h->has_monitor = true;
	return each_field(o, F, l, [&](int f, ondemand::value fv) {
		switch (f) {
		case INTERVAL:
			return get_double(fv, "interval", &h->monitor_interval, l);
		case CHECKPOINT:
			return get_int(fv, "checkpoint", 0, INT64_MAX, &h->monitor_checkpoint, l);
		case SINCE_NS:
			return get_int(fv, "since_ns", 0, INT64_MAX, &h->monitor_since_ns, l);
		}
		return true;
	});
}

/* "target": what a scoped recording recorded (version 4). */
bool read_target(ondemand::value v, rec_header *h, Line &l)
{
	enum { CGROUP, CONTAINER, NAME, UNIT, SERVICE, UID, BOUNDING, AMBIENT, NFIELDS };
	static const char *const names[] = { "cgroup", "container", "name", "unit", "service",
		"uid", "bounding", "ambient", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "target", &o, l))
		return false;
	bool ok = each_field(o, F, l, [&](int f, ondemand::value sv) {
		switch (f) {
		case CGROUP:
			return get_new_str(sv, "cgroup", &h->target_cgroup, l);
		case CONTAINER:
			return get_new_str(sv, "container", &h->target_container, l);
		case NAME:
			return get_new_str(sv, "name", &h->target_name, l);
		case UNIT:
			return get_new_str(sv, "unit", &h->target_unit, l);
		case SERVICE:
			return get_new_str(sv, "service", &h->target_service, l);
		case UID:
			return get_int(sv, "uid", 0, UINT32_MAX, &h->service_uid, l);
		case BOUNDING:
			return get_capset(sv, "bounding", &h->service_bounding, l);
		case AMBIENT:
			return get_capset(sv, "ambient", &h->service_ambient, l);
		}
		return true;
	});
	if (!ok)
		return false;
	/* a service's sets come whole, with the unit they are of: its
	 * removal candidates are computed from the three together */
	int n = F.has(UID) + F.has(BOUNDING) + F.has(AMBIENT);

	if (!n)
		return true;
	if (n != 3 || !F.has(SERVICE))
		return l.fail("field 'target': 'uid', 'bounding' and 'ambient' go together, "
			      "with 'service'");
	h->has_service_caps = true;
	return true;
}

bool read_header_fields(ondemand::object obj, rec_header *h, Line &l)
{
	enum { TYPE, FORMAT, VERSION, CAPAUDIT, KERNEL, MACHINE, ARCH, ATTACH, SCOPE, SYMBOLS, ARGV,
	       START_NS, END_NS, CHECKS, LOST, OVERFLOW, EXIT_STATUS, SYSCALL_RESULTS, LOADER,
	       PIDS_REUSED, AGGREGATION, STOP, COMMAND_RUNNING, CACHE, TARGET, MONITOR, KERNEL_BPF,
	       PTRACE_WATCHED, NFIELDS };
	static const char *const names[] = { "type", "format", "version", "capaudit", "kernel",
		"machine", "arch", "attach", "scope", "symbols", "argv", "start_ns", "end_ns", "checks",
		"lost", "overflow", "exit_status", "syscall_results", "loader", "pids_reused",
		"aggregation", "stop", "command_running", "cache", "target", "monitor", "kernel_bpf",
		"ptrace_watched", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);

	bool ok = each_field(obj, F, l, [&](int f, ondemand::value v) {
		switch (f) {
		case TYPE:
			return true;
		case FORMAT:
			return get_format(v, l);
		case VERSION:
			return get_version(v, &h->version, l);
		case CAPAUDIT:
			return get_new_str(v, "capaudit", &h->capaudit_version, l);
		case KERNEL:
			return get_new_str(v, "kernel", &h->kernel, l);
		case MACHINE:
			return get_new_str(v, "machine", &h->machine, l);
		case ARCH:
			return get_arch(v, &h->arch, l);
		case ATTACH:
			return get_new_str(v, "attach", &h->attach, l);
		case SCOPE:
			return get_new_str(v, "scope", &h->scope, l);
		case SYMBOLS:
			return get_new_str(v, "symbols", &h->symbols, l);
		case ARGV:
			return get_strv(v, "argv", &h->argv, &h->argc, l);
		case START_NS:
			return get_int(v, "start_ns", 0, INT64_MAX, &h->start_ns, l);
		case END_NS:
			return get_int(v, "end_ns", 0, INT64_MAX, &h->end_ns, l);
		case CHECKS:
			return get_int(v, "checks", 0, INT64_MAX, &h->checks, l);
		case LOST:
			return read_lost(v, &h->lost, l);
		case OVERFLOW:
			return read_overflow(v, h, l);
		case EXIT_STATUS:
			return get_int(v, "exit_status", 0, 255 + 128, &h->exit_status, l);
		case SYSCALL_RESULTS:
			return get_bool(v, "syscall_results", &h->syscall_results, l);
		case LOADER:
			return read_loader(v, h, l);
		case PIDS_REUSED:
			return get_int(v, "pids_reused", 0, INT64_MAX, &h->pids_reused, l);
		case AGGREGATION:
			return read_aggregation(v, h, l);
		case STOP:
			return get_new_str(v, "stop", &h->stop, l);
		case COMMAND_RUNNING:
			return get_bool(v, "command_running", &h->command_running, l);
		case CACHE:
			return read_cache(v, h, l);
		case TARGET:
			return read_target(v, h, l);
		case MONITOR:
			return read_monitor(v, h, l);
		case KERNEL_BPF:
			return read_kernel_bpf(v, h, l);
		case PTRACE_WATCHED:
			return get_bool(v, "ptrace_watched", &h->ptrace_watched, l);
		}
		return true;
	});
	if (!ok || !require(F, bit(FORMAT) | bit(VERSION) | bit(KERNEL) | bit(ATTACH) |
			    bit(START_NS) | bit(END_NS), l))
		return false;
	h->has_exit_status = F.has(EXIT_STATUS);
	h->has_ptrace_watched = F.has(PTRACE_WATCHED);
	h->has_cache = F.has(CACHE);
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

/* ---- process lines --------------------------------------------------- */

/* "capset": the union of the sets the image asked capset() for. */
bool read_capset(ondemand::value v, rec_process *p, Line &l)
{
	enum { EFFECTIVE, PERMITTED, INHERITABLE, NFIELDS };
	static const char *const names[] = { "effective", "permitted", "inheritable", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "capset", &o, l))
		return false;
	return each_field(o, F, l, [&](int f, ondemand::value sv) {
		switch (f) {
		case EFFECTIVE:
			return get_capset(sv, "effective", &p->capset_eff, l);
		case PERMITTED:
			return get_capset(sv, "permitted", &p->capset_prm, l);
		case INHERITABLE:
			return get_capset(sv, "inheritable", &p->capset_inh, l);
		}
		return true;
	});
}

/* "ptrace_access": processes reached without a CAP_SYS_PTRACE check. */
struct PtraceView {
	std::string_view comm, via;
	bool has_example = false;
};

bool read_ptrace_example(ondemand::value v, rec_process *p, PtraceView *pv, Line &l)
{
	enum { PID, COMM, VIA, NFIELDS };
	static const char *const names[] = { "pid", "comm", "via", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "example", &o, l))
		return false;
	bool ok = each_field(o, F, l, [&](int f, ondemand::value sv) {
		switch (f) {
		case PID:
			return get_int(sv, "pid", 1, INT32_MAX, &p->ptrace_ex_pid, l);
		case COMM:
			return get_str(sv, "comm", &pv->comm, l);
		case VIA:
			return get_str(sv, "via", &pv->via, l);
		}
		return true;
	});
	if (!ok || !require(F, bit(PID) | bit(COMM) | bit(VIA), l))
		return false;
	pv->has_example = true;
	return true;
}

bool read_ptrace_access(ondemand::value v, rec_process *p, PtraceView *pv, Line &l)
{
	enum { TARGETS, UNKNOWN, PERMITTED, EXAMPLE, NFIELDS };
	static const char *const names[] = { "targets", "unknown", "permitted", "example", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "ptrace_access", &o, l))
		return false;
	bool ok = each_field(o, F, l, [&](int f, ondemand::value sv) {
		switch (f) {
		case TARGETS:
			return get_int(sv, "targets", 0, UINT32_MAX, &p->ptrace_targets, l);
		case UNKNOWN:
			return get_int(sv, "unknown", 0, UINT32_MAX, &p->ptrace_unknown, l);
		case PERMITTED:
			return get_capset(sv, "permitted", &p->ptrace_prm, l);
		case EXAMPLE:
			return read_ptrace_example(sv, p, pv, l);
		}
		return true;
	});
	return ok && require(F, bit(TARGETS) | bit(UNKNOWN) | bit(PERMITTED), l);
}

/* "container": the container a process ran in (version 4). */
struct ContainerView {
	std::string_view id, name, runtime;
	bool has_name = false, has_runtime = false;
};

bool read_container(ondemand::value v, ContainerView *c, Line &l)
{
	enum { ID, NAME, RUNTIME, NFIELDS };
	static const char *const names[] = { "id", "name", "runtime", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "container", &o, l))
		return false;
	bool ok = each_field(o, F, l, [&](int f, ondemand::value sv) {
		switch (f) {
		case ID:
			return get_str(sv, "id", &c->id, l);
		case NAME:
			return get_str(sv, "name", &c->name, l);
		case RUNTIME:
			return get_str(sv, "runtime", &c->runtime, l);
		}
		return true;
	});
	if (!ok || !require(F, bit(ID), l))
		return false;
	if (c->id.empty())
		return l.fail("field 'id' of 'container' is empty");
	c->has_name = F.has(NAME);
	c->has_runtime = F.has(RUNTIME);
	return true;
}

/* A build id: lowercase hex, at most 64 digits (process and ustack lines). */
bool get_build_id_view(ondemand::value v, std::string_view *out, Line &l)
{
	if (!get_str(v, "build_id", out, l))
		return false;
	if (out->empty() || out->size() > 64 ||
	    out->find_first_not_of("0123456789abcdef") != std::string_view::npos)
		return l.fail("field 'build_id' must be lowercase hex (at most 64 digits)");
	return true;
}

bool read_process(ondemand::object obj, record *r, Line &l)
{
	enum { TYPE, PID, START_NS, EXEC_ID, PPID, UID, COMM, EXE, EXIT_CODE, CAPSET, CGROUP,
	       CONTAINER, UNIT, SECURE_EXEC, RUNTIME_SETUP, PIDS, BUILD_ID, PTRACE_ACCESS, NFIELDS };
	static const char *const names[] = { "type", "pid", "start_ns", "exec_id", "ppid", "uid",
		"comm", "exe", "exit_code", "capset", "cgroup", "container", "unit", "secure_exec",
		"runtime_setup", "pids", "build_id", "ptrace_access", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	std::string_view comm = "", exe, cgroup, unit;
	ContainerView ct;
	PtraceView pv;
	rec_process p{};
	std::string_view build_id;

	bool ok = each_field(obj, F, l, [&](int f, ondemand::value v) {
		switch (f) {
		case TYPE:
			return true;
		case PID:
			return get_int(v, "pid", 1, INT32_MAX, &p.pid, l);
		case START_NS:
			return get_int(v, "start_ns", 0, INT64_MAX, &p.start_ns, l);
		case EXEC_ID:
			return get_int(v, "exec_id", 0, UINT32_MAX, &p.exec_id, l);
		case PPID:
			return get_int(v, "ppid", 0, INT32_MAX, &p.ppid, l);
		case UID:
			return get_int(v, "uid", 0, UINT32_MAX, &p.uid, l);
		case COMM:
			return get_str(v, "comm", &comm, l);
		case EXE:
			return get_str(v, "exe", &exe, l);
		case EXIT_CODE:
			return get_int(v, "exit_code", 0, 255, &p.exit_code, l);
		case CAPSET:
			return read_capset(v, &p, l);
		case CGROUP:
			if (!get_str(v, "cgroup", &cgroup, l))
				return false;
			return cgroup.substr(0, 1) == "/" ||
			       l.fail("field 'cgroup' must be a path starting with '/'");
		case CONTAINER:
			return read_container(v, &ct, l);
		case UNIT:
			if (!get_str(v, "unit", &unit, l))
				return false;
			return !unit.empty() || l.fail("field 'unit' is empty");
		case SECURE_EXEC:
			return get_bool(v, "secure_exec", &p.secure_exec, l);
		case RUNTIME_SETUP:
			return get_bool(v, "runtime_setup", &p.runtime_setup, l);
		case PIDS:
			return get_int(v, "pids", 1, INT64_MAX, &p.pids, l);
		case BUILD_ID:
			return get_build_id_view(v, &build_id, l);
		case PTRACE_ACCESS:
			return read_ptrace_access(v, &p, &pv, l);
		}
		return true;
	});
	/* version 1 named a process by pid alone (exec_id for its images) */
	if (!ok || !require(F, r->hdr.version >= 2 ? bit(PID) | bit(START_NS) : bit(PID), l))
		return false;
	if (record_find_process(r, p.pid, p.start_ns, p.exec_id))
		return l.fail("process %lld (start_ns %lld, exec_id %lld) appears twice",
			      (long long)p.pid, (long long)p.start_ns, (long long)p.exec_id);
	p.comm = dup(comm);
	p.exe = F.has(EXE) ? dup(exe) : nullptr;
	p.exited = F.has(EXIT_CODE);
	p.has_capset = F.has(CAPSET);
	p.cgroup = F.has(CGROUP) ? dup(cgroup) : nullptr;
	p.unit = F.has(UNIT) ? dup(unit) : nullptr;
	p.build_id = F.has(BUILD_ID) ? dup(build_id) : nullptr;
	if (pv.has_example) {
		p.ptrace_ex_comm = dup(pv.comm);
		p.ptrace_ex_via = dup(pv.via);
	}
	if (F.has(CONTAINER)) {
		p.container_id = dup(ct.id);
		p.container_name = ct.has_name ? dup(ct.name) : nullptr;
		p.container_runtime = ct.has_runtime ? dup(ct.runtime) : nullptr;
	}
	*record_add_process(r, p.pid, p.start_ns, p.exec_id) = p;
	return true;
}

/* ---- stack and ustack lines ------------------------------------------ */

/* A stack's or ustack's id, in order: the next one, or (lenient, holes
 * non-NULL) one after the ids of lost lines. Ids are below the line
 * number, which bounds the placeholders for those. */
bool id_in_order(const char *what, int64_t id, size_t next, const size_t *holes, Line &l)
{
	if ((size_t)id < next || (!holes && (size_t)id != next) || (uint64_t)id >= l.lineno)
		return l.fail("%s id %lld out of order (expected %zu)", what, (long long)id, next);
	return true;
}

/* A stack line's frames, freed on every way out unless taken. */
struct Frames {
	char **v = nullptr;
	size_t n = 0;
	~Frames() { free_strv(v, n); }
};

/* holes: non-NULL when lenient, ids may then skip the stacks of lost
 * lines, counted there */
bool read_stack(ondemand::object obj, record *r, size_t *holes, Line &l)
{
	enum { TYPE, ID, FRAMES, NFIELDS };
	static const char *const names[] = { "type", "id", "frames", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	int64_t id = 0;
	Frames fr;

	bool ok = each_field(obj, F, l, [&](int f, ondemand::value v) {
		switch (f) {
		case TYPE:
			return true;
		case ID:
			return get_i64(v, "id", 0, INT32_MAX, &id, l);
		case FRAMES:
			return get_strv(v, "frames", &fr.v, &fr.n, l);
		}
		return true;
	});
	if (!ok || !require(F, bit(ID) | bit(FRAMES), l) ||
	    !id_in_order("stack", id, r->nstacks, holes, l))
		return false;
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

bool get_build_id(ondemand::value v, char **out, Line &l)
{
	std::string_view s;

	if (!get_build_id_view(v, &s, l))
		return false;
	*out = dup(s);
	return true;
}

/* One user frame object of a ustack line. */
bool read_uframe(ondemand::value fv, rec_uframe *uf, Line &l)
{
	enum { BUILD_ID, OFFSET, OBJECT, FUNCTION, FUNC_OFF, SOURCE, LINE, LEAF, ADDRESS,
	       NFIELDS };
	static const char *const names[] = { "build_id", "offset", "object", "function",
		"func_off", "source", "line", "leaf", "address", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (fv.get_object().get(o))
		return l.fail("a user frame must be an object");
	bool ok = each_field(o, F, l, [&](int f, ondemand::value v) {
		switch (f) {
		case BUILD_ID:
			return get_build_id(v, &uf->build_id, l);
		case OFFSET:
			return get_int(v, "offset", 0, INT64_MAX, &uf->offset, l);
		case OBJECT:
			return get_new_str(v, "object", &uf->object, l);
		case FUNCTION:
			return get_new_str(v, "function", &uf->function, l);
		case FUNC_OFF:
			return get_int(v, "func_off", 0, INT64_MAX, &uf->func_off, l);
		case SOURCE:
			return get_new_str(v, "source", &uf->source, l);
		case LINE:
			return get_int(v, "line", 1, INT32_MAX, &uf->line, l);
		case LEAF:
			return get_bool(v, "leaf", &uf->leaf, l);
		case ADDRESS:
			return get_bool(v, "address", &uf->address, l);
		}
		return true;
	});
	return ok && require(F, bit(OFFSET), l);
}

/* A ustack line's frames, freed on every way out unless taken. */
struct UFrames {
	rec_uframe *v = nullptr;
	size_t n = 0;
	~UFrames()
	{
		for (size_t i = 0; i < n; i++)
			rec_uframe_free(&v[i]);
		free(v);
	}
};

bool read_uframes(ondemand::value v, UFrames *fr, Line &l)
{
	ondemand::array a;

	if (v.get_array().get(a))
		return l.fail("field 'frames' must be an array");
	for (auto e : a) {
		ondemand::value fv;

		if (e.get(fv))
			return l.fail("bad value in 'frames'");
		if (fr->n >= REC_MAX_UFRAMES)
			return l.fail("more than %d user frames", REC_MAX_UFRAMES);
		fr->v = static_cast<rec_uframe *>(xrealloc(fr->v, (fr->n + 1) * sizeof(*fr->v)));
		fr->v[fr->n] = rec_uframe{};
		fr->n++;
		if (!read_uframe(fv, &fr->v[fr->n - 1], l))
			return false;
	}
	return true;
}

/* A user stack (record --user-stacks): ids in order, like stacks. */
bool read_ustack(ondemand::object obj, record *r, size_t *holes, Line &l)
{
	enum { TYPE, ID, FRAMES, NFIELDS };
	static const char *const names[] = { "type", "id", "frames", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	int64_t id = 0;
	UFrames fr;

	bool ok = each_field(obj, F, l, [&](int f, ondemand::value v) {
		switch (f) {
		case TYPE:
			return true;
		case ID:
			return get_i64(v, "id", 0, INT32_MAX, &id, l);
		case FRAMES:
			return read_uframes(v, &fr, l);
		}
		return true;
	});
	if (!ok || !require(F, bit(ID) | bit(FRAMES), l) ||
	    !id_in_order("ustack", id, r->nustacks, holes, l))
		return false;
	while (r->nustacks < (size_t)id) {
		record_add_ustack(r, nullptr, 0);
		(*holes)++;
	}
	record_add_ustack(r, fr.v, fr.n);
	fr.v = nullptr;
	fr.n = 0;
	return true;
}

/* ---- check lines ----------------------------------------------------- */

/* A check's "stack" or "ustack": the id of such a line before it (n so far). */
bool get_ref(ondemand::value v, const char *key, size_t n, int *out, Line &l)
{
	if (!get_int(v, key, 0, INT32_MAX, out, l))
		return false;
	if ((size_t)*out >= n)
		return l.fail("%s %lld is not defined before this line", key, (long long)*out);
	return true;
}

bool get_userns(ondemand::value v, rec_userns *out, Line &l)
{
	std::string_view u;

	if (!get_str(v, "userns", &u, l))
		return false;
	if (u == "inside")
		*out = RU_INSIDE;
	else if (u == "owner")
		*out = RU_OWNER;
	else
		return l.fail("field 'userns' is '%.20s', not inside or owner",
			      std::string(u).c_str());
	return true;
}

bool get_errno(ondemand::value v, int *out, Line &l)
{
	std::string_view e;

	if (!get_str(v, "syscall_errno", &e, l))
		return false;
	*out = errno_number(e);
	if (*out <= 0)
		return l.fail("field 'syscall_errno' is '%.20s', not an errno name",
			      std::string(e).c_str());
	return true;
}

/* "opts": cap_capable()'s, in the attach modes that see them. */
bool read_opts(ondemand::value v, rec_check *c, Line &l)
{
	enum { NOAUDIT, INSETID, NFIELDS };
	static const char *const names[] = { "noaudit", "insetid", nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	ondemand::object o;

	if (!get_object(v, "opts", &o, l))
		return false;
	bool ok = each_field(o, F, l, [&](int f, ondemand::value ov) {
		switch (f) {
		case NOAUDIT:
			return get_bool(ov, "noaudit", &c->opt_noaudit, l);
		case INSETID:
			return get_bool(ov, "insetid", &c->opt_insetid, l);
		}
		return true;
	});
	if (!ok || !require(F, bit(NOAUDIT) | bit(INSETID), l))
		return false;
	c->opts_known = true;
	return true;
}

/* What a check's fields must say together, and its process line before it. */
bool check_agrees(const rec_check &c, const record *r, Line &l)
{
	if (c.sys_failed > c.count || c.sys_other > c.count || c.sys_restart > c.count)
		return l.fail("a syscall result count exceeds 'count' (%lld)", (long long)c.count);
	if (!c.sys_other != !c.sys_errno)
		return l.fail("fields 'syscall_other' and 'syscall_errno' come together");
	if (!record_find_process(r, c.pid, c.start_ns, c.exec_id))
		return l.fail("check for pid %lld (start_ns %lld, exec_id %lld) comes before (or "
			      "without) its process line", (long long)c.pid, (long long)c.start_ns,
			      (long long)c.exec_id);
	return true;
}

/* r: where processes and stacks are looked up; sink: where the check and
 * its interned strings go (r itself, or a worker's private record). */
bool read_check(ondemand::object obj, const record *r, record *sink, Line &l)
{
	/* in the order capaudit writes them (Fields tries that order first) */
	enum { TYPE, PID, START_NS, EXEC_ID, TID, UID, COMM, CGROUP, CAP, CAP_NAME, RET, COUNT,
	       SYSCALL, SYSCALL_NAME, INIT_NS, USERNS, NO_EFFECT, ARGS_CHECKED, FOREIGN_CRED, OPTS, FIRST_NS, LAST_NS,
	       SYSCALL_FAILED, SYSCALL_OTHER, SYSCALL_ERRNO, SYSCALL_RESTART, STACK, STACK_ERROR,
	       USTACK, NFIELDS };
	static const char *const names[] = { "type", "pid", "start_ns", "exec_id", "tid", "uid",
		"comm", "cgroup", "cap", "cap_name", "ret", "count", "syscall", "syscall_name",
		"init_ns", "userns", "no_effect", "args_checked", "foreign_cred", "opts", "first_ns", "last_ns", "syscall_failed",
		"syscall_other", "syscall_errno", "syscall_restart", "stack", "stack_error", "ustack",
		nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	const uint64_t required = bit(PID) | bit(CAP) | bit(RET) | bit(COUNT) |
				  (r->hdr.version >= 2 ? bit(START_NS) : 0);
	Fields F(fs);
	std::string_view comm = "", stack_error, sysname;
	rec_check c{};

	c.syscall = -1;   /* none */
	c.stack = -1;
	c.ustack = -1;
	bool ok = each_field(obj, F, l, [&](int f, ondemand::value v) {
		switch (f) {
		case TYPE: case CAP_NAME:
			return true;   /* cap_name is derived: ignored */
		case SYSCALL_NAME:   /* kept: the recording machine named it */
			return get_syscall_name(v, &sysname, l);
		case PID:
			return get_int(v, "pid", 1, INT32_MAX, &c.pid, l);
		case START_NS:
			return get_int(v, "start_ns", 0, INT64_MAX, &c.start_ns, l);
		case EXEC_ID:
			return get_int(v, "exec_id", 0, UINT32_MAX, &c.exec_id, l);
		case TID:
			return get_int(v, "tid", 0, INT32_MAX, &c.tid, l);
		case UID:
			return get_int(v, "uid", 0, UINT32_MAX, &c.uid, l);
		case COMM:
			return get_str(v, "comm", &comm, l);
		case CGROUP:
			return get_int(v, "cgroup", 0, INT64_MAX, &c.cgroup, l);
		case CAP:
			return get_int(v, "cap", 0, REC_MAX_CAP, &c.cap, l);
		case RET:
			return get_int(v, "ret", -4095, 0, &c.ret, l);
		case COUNT:
			return get_int(v, "count", 1, INT64_MAX, &c.count, l);
		case SYSCALL:
			return get_int(v, "syscall", -1, 4095, &c.syscall, l);
		case INIT_NS:
			return get_bool(v, "init_ns", &c.init_ns, l);
		case USERNS:
			return get_userns(v, &c.userns, l);
		case NO_EFFECT:
			return get_bool(v, "no_effect", &c.no_effect, l);
		case ARGS_CHECKED:
			return get_bool(v, "args_checked", &c.args_checked, l);
		case FOREIGN_CRED:
			return get_bool(v, "foreign_cred", &c.foreign_cred, l);
		case OPTS:
			return read_opts(v, &c, l);
		case FIRST_NS:
			return get_int(v, "first_ns", 0, INT64_MAX, &c.first_ns, l);
		case LAST_NS:
			return get_int(v, "last_ns", 0, INT64_MAX, &c.last_ns, l);
		case SYSCALL_FAILED:
			return get_int(v, "syscall_failed", 0, INT64_MAX, &c.sys_failed, l);
		case SYSCALL_OTHER:
			return get_int(v, "syscall_other", 0, INT64_MAX, &c.sys_other, l);
		case SYSCALL_ERRNO:
			return get_errno(v, &c.sys_errno, l);
		case SYSCALL_RESTART:
			return get_int(v, "syscall_restart", 0, INT64_MAX, &c.sys_restart, l);
		case STACK:   /* null: no stack */
			return is_null(v) || get_ref(v, "stack", r->nstacks, &c.stack, l);
		case STACK_ERROR:
			return get_str(v, "stack_error", &stack_error, l);
		case USTACK:
			return get_ref(v, "ustack", r->nustacks, &c.ustack, l);
		}
		return true;
	});
	if (!ok || !require(F, required, l) || !check_agrees(c, r, l))
		return false;
	if (F.has(SYSCALL_NAME) && c.syscall < 0)
		return l.fail("field 'syscall_name' without a syscall ('syscall' is -1 or absent)");
	c.sysname = syscall_name_arch(r->hdr.arch, c.syscall);
	if (F.has(SYSCALL_NAME) && (!c.sysname || sysname != c.sysname))
		c.sysname = record_intern(sink, sysname.data(), sysname.size());
	/* before version 3 a check against a child namespace did not say
	 * whether the credentials were inside one or owned it */
	if (r->hdr.version < 3 && F.has(INIT_NS) && !c.init_ns && c.userns == RU_HOST)
		c.userns = RU_CHILD;
	c.comm = record_intern(sink, comm.data(), comm.size());
	c.stack_error = F.has(STACK_ERROR) ? dup(stack_error) : nullptr;
	c.line = l.lineno;
	*record_add_check(sink) = c;
	return true;
}

/* ---- the end line, and lines by type --------------------------------- */

/* The end line's counts of the lines before it. */
struct EndCounts {
	int64_t processes = 0, stacks = 0, checks = 0, ustacks = 0;
};

/* What the whole read has seen so far. */
struct State {
	record *r;
	rec_read *rd;             /* options and results; never NULL here */
	bool have_header = false;
	bool have_end = false;
	size_t holes = 0;         /* empty stacks standing for lost stack lines */
	EndCounts end{};
};

bool read_end(ondemand::object obj, State &st, Line &l)
{
	enum { TYPE, PROCESSES, STACKS, CHECKS, USTACKS, NFIELDS };
	static const char *const names[] = { "type", "processes", "stacks", "checks", "ustacks",
		nullptr };
	static_assert(std::size(names) == NFIELDS + 1, "a name per field");
	static const FieldSet fs(names);
	Fields F(fs);
	EndCounts &e = st.end;

	bool ok = each_field(obj, F, l, [&](int f, ondemand::value v) {
		switch (f) {
		case TYPE:
			return true;
		case PROCESSES:
			return get_i64(v, "processes", 0, INT64_MAX, &e.processes, l);
		case STACKS:
			return get_i64(v, "stacks", 0, INT64_MAX, &e.stacks, l);
		case CHECKS:
			return get_i64(v, "checks", 0, INT64_MAX, &e.checks, l);
		case USTACKS:
			return get_i64(v, "ustacks", 0, INT64_MAX, &e.ustacks, l);
		}
		return true;
	});
	if (!ok || !require(F, bit(PROCESSES) | bit(STACKS) | bit(CHECKS), l))
		return false;
	st.have_end = true;
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
	std::string_view raw;
	error_code e;

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

/* ---- fast paths ------------------------------------------------------ */

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

/* The document at `it` of a stream over [p, p + len), when it is an
 * object alone on the line that starts at `done`; *nl: that line's end. */
bool line_object(ondemand::document_stream::iterator &it, const char *p, size_t len,
		 size_t done, ondemand::object *obj, const char **nl)
{
	ondemand::document_reference doc;

	if (it.error() || it.current_index() != done)
		return false;
	/* source() before the document is touched: after, it may span the
	 * rest of the batch */
	std::string_view src = it.source();

	return one_per_line(p, len, done, src, nl) && !(*it).get(doc) &&
	       !doc.get_object().get(*obj);
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
		ondemand::object obj;
		const char *nl;

		/* a value starting inside the line just taken: that line held
		 * more than one (its first is already read, so this is final) */
		if (it.current_index() < done) {
			l.lineno = (uint32_t)(line - 1);
			*fatal = true;
			l.fail("invalid JSON: %s", json_error_text(TRAILING_CONTENT));
			return done;
		}
		if (!line_object(it, p, len, done, &obj, &nl))
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

bool is_check_line(ondemand::object &obj)
{
	ondemand::value tv;
	std::string_view type;
	bool nonempty;

	return !obj.find_field("type").get(tv) && !tv.get_string().get(type) &&
	       type == "check" && !obj.reset().get(nonempty);
}

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
		ondemand::object obj;
		const char *nl;

		/* anything unusual: the sequential path names the problem */
		if (!line_object(it, h->p, h->len, done, &obj, &nl))
			return;
		l.lineno = (uint32_t)line++;
		if (!is_check_line(obj) || !read_check(obj, h->r, &h->local, l))
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

/* ---- the whole file -------------------------------------------------- */

/*
 * The file streamed through a buffer (a 300 MB record is not held in
 * memory at once): the complete lines in it are taken by the fast paths
 * while they can, the line they stop at by the slow path, and when the
 * buffer holds no complete line any more, the partial one left is moved
 * to its start and more is read after it.
 */
class Reader {
public:
	Reader(FILE *f, const char *name, record *r, rec_read &rd, char *err, size_t errlen);
	~Reader() { free(buf); }
	/* Every line, then what the file says as a whole. On false, err says why. */
	bool read();

private:
	static constexpr size_t CHUNK = 8 << 20;
	static constexpr size_t BUFCAP = CHUNK + REC_MAX_LINE + 2 + SIMDJSON_PADDING;

	FILE *f;
	const char *name;
	record *r;
	rec_read &rd;
	char *err;
	size_t errlen;
	/* [0, len) read into buf; from off on not taken yet; lineno lines taken */
	char *buf;
	size_t len = 0, off = 0, lineno = 0;
	bool eof = false;
	ondemand::parser parser{ BUFCAP }, parser2{ BUFCAP };
	char why[512];
	Line l{ why, sizeof(why) };
	State st;
	/* where the lines of the buffer stop being fine (see scan()) */
	bool scan_ok = false;
	size_t scan_from = 0, scan_q = 0, scan_whole = 0, scan_lines = 0;
	size_t fast_win = BUFCAP;          /* the document stream's window */
	bool parallel_failed = false;      /* for this buffer fill */

	bool read_lines();
	size_t whole_lines_end() const;
	bool fill();
	bool fail_partial_line();
	void scan(size_t whole);
	enum class Next { TOP, SLOW_LINE, STOP };
	Next read_fast(size_t whole);
	bool read_parallel(size_t limit);
	size_t window(size_t win) const;
	bool read_slow(size_t whole);
	bool skip_bad_line(size_t ll, bool has_nl, size_t whole);
	bool whole_file();
	size_t missing_lines() const;
	bool no_duplicates();
	bool end_counts_agree();
};

Reader::Reader(FILE *f_, const char *name_, record *r_, rec_read &rd_, char *err_, size_t errlen_)
	: f(f_), name(name_), r(r_), rd(rd_), err(err_), errlen(errlen_),
	  buf(static_cast<char *>(xcalloc(BUFCAP, 1))), st{ r_, &rd_ }
{
	memset(r, 0, sizeof(*r));
	rd.lines = rd.skipped = 0;
	rd.truncated = false;
	rd.missing = 0;
	rd.first_problem[0] = '\0';
}

bool Reader::read()
{
	bool ok = read_lines();

	free(buf);
	buf = nullptr;
	rd.lines = lineno;
	return ok && whole_file();
}

bool Reader::read_lines()
{
	for (;;) {
		/* a last line without its newline moved off one past len */
		if (off > len)
			off = len;
		size_t whole = whole_lines_end();

		if (whole == off && !eof && len - off <= REC_MAX_LINE) {
			if (!fill())
				return false;
			continue;
		}
		if (off >= len)
			return true;
		if (!eof && whole == off)
			return fail_partial_line();
		scan(whole);
		switch (read_fast(whole)) {
		case Next::STOP:
			return false;
		case Next::TOP:
			continue;
		case Next::SLOW_LINE:
			break;
		}
		if (!read_slow(whole))
			return false;
	}
}

/* The end of the complete lines from off (all of the rest at the end of
 * the file). */
size_t Reader::whole_lines_end() const
{
	const char *last_nl = static_cast<const char *>(memrchr(buf + off, '\n', len - off));

	if (eof)
		return len;
	return last_nl ? (size_t)(last_nl - buf) + 1 : off;
}

/* Keep the partial line, read more after it. */
bool Reader::fill()
{
	size_t n;

	memmove(buf, buf + off, len - off);
	len -= off;
	off = 0;
	scan_ok = false;   /* the buffer moved */
	parallel_failed = false;
	n = fread(buf + len, 1, BUFCAP - SIMDJSON_PADDING - len, f);
	if (n == 0) {
		if (ferror(f)) {
			snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
			return false;
		}
		eof = true;
	}
	len += n;
	memset(buf + len, 0, SIMDJSON_PADDING);   /* what simdjson reads past the end */
	return true;
}

/* A partial line longer than allowed (binary data, often). */
bool Reader::fail_partial_line()
{
	if (memchr(buf + off, '\0', len - off))
		snprintf(err, errlen, "%s:%zu: NUL byte: not a text record file", name, lineno + 1);
	else
		snprintf(err, errlen, "%s:%zu: line is longer than %d bytes", name, lineno + 1,
			 REC_MAX_LINE);
	return false;
}

/*
 * Line lengths and NUL bytes: the stream cannot tell us; the lines before
 * the first long or NUL one (scan_q) are fine, and there are scan_lines of
 * them from scan_from. Scanned once per buffer fill, not once per line the
 * slow path takes (a file of blank or bad lines would be read in quadratic
 * time).
 */
void Reader::scan(size_t whole)
{
	if (scan_ok && off <= scan_q && scan_whole == whole)
		return;
	const char *p = buf + off, *q, *nl;
	const char *nul = static_cast<const char *>(memchr(p, '\0', whole - off));
	const char *stop = nul ? nul : buf + whole;

	scan_lines = 0;
	for (q = p; q < stop; q = nl + 1) {
		nl = static_cast<const char *>(memchr(q, '\n', (size_t)(buf + whole - q)));
		size_t ll = nl ? (size_t)(nl - q) : (size_t)(buf + whole - q);

		if (ll > REC_MAX_LINE || !nl || nl >= stop)
			break;
		scan_lines++;
	}
	scan_from = off;
	scan_q = (size_t)(q - buf);
	scan_whole = whole;
	scan_ok = true;
}

/* The fast paths, up to the first bad, blank or rejected line. */
Reader::Next Reader::read_fast(size_t whole)
{
	const char *p = buf + off;
	size_t limit = scan_q, done = 0, win;
	bool fatal = false;

	if (read_parallel(limit))
		return Next::TOP;
	win = window(limit - off);
	if (win)
		done = read_chunk_fast(parser, p, win, st, lineno + 1, l, &fatal);
	fast_win = done == win ? std::min(2 * win + 256, BUFCAP) : std::max<size_t>(256, 2 * done);
	if (fatal) {
		char safe[600];

		snprintf(err, errlen, "%s:%u: %s", name, l.lineno,
			 text_escape(why, safe, sizeof(safe)));
		return Next::STOP;
	}
	/* what it took: the scan counted the usual case */
	lineno += off == scan_from && done == limit - off ? scan_lines : count_lines(p, done);
	off += done;
	return off >= whole ? Next::TOP : Next::SLOW_LINE;
}

/* Check lines on two cores, up to limit. Tried once per buffer fill: a
 * failed try means a line the single-core path must see, and trying again
 * after each such line would read the rest again each time. */
bool Reader::read_parallel(size_t limit)
{
	const char *p = buf + off;

	if (!r->nchecks || st.have_end || limit - off <= (1 << 20) || parallel_failed)
		return false;
	if (!read_checks_parallel(parser, parser2, p, limit - off, BUFCAP - off, lineno + 1, r)) {
		parallel_failed = true;
		return false;
	}
	lineno += off == scan_from ? scan_lines : count_lines(p, limit - off);
	off = limit;
	return true;
}

/* The document stream indexes all it is given before the first line: it
 * is given a window that grows while whole windows are read and shrinks to
 * what was read when it stops early (at a blank or bad line), so that many
 * such lines cost what they hold, not the rest of the buffer. */
size_t Reader::window(size_t win) const
{
	const char *p = buf + off;

	if (fast_win >= win)
		return win;
	const char *e = static_cast<const char *>(memchr(p + fast_win, '\n', win - fast_win));

	return e ? (size_t)(e - p) + 1 : win;
}

/* One line, with a precise message: blank, too long, with a NUL byte, or
 * one the fast paths stopped at. */
bool Reader::read_slow(size_t whole)
{
	const char *p = buf + off;
	const char *nl = static_cast<const char *>(memchr(p, '\n', whole - off));
	size_t ll = nl ? (size_t)(nl - p) : whole - off;

	lineno++;
	why[0] = '\0';
	l.lineno = (uint32_t)lineno;
	if (ll > REC_MAX_LINE) {
		snprintf(why, sizeof(why), "line is longer than %d bytes", REC_MAX_LINE);
	} else if (memchr(p, '\0', ll)) {
		snprintf(why, sizeof(why), "NUL byte: not a text record file");
	} else if (strspn(p, " \t\r") >= ll || read_line(parser, p, ll, BUFCAP - off, st, l)) {
		off += ll + 1;   /* a blank line, or one read */
		return true;
	}
	return skip_bad_line(ll, nl, whole);
}

/* The line is bad: an error, or (lenient) skipped and counted; a file
 * without a valid header is never read. */
bool Reader::skip_bad_line(size_t ll, bool has_nl, size_t whole)
{
	char safe[600];

	if (!rd.lenient || !st.have_header) {
		snprintf(err, errlen, "%s:%zu: %s", name, lineno,
			 text_escape(why, safe, sizeof(safe)));
		return false;
	}
	if (!rd.skipped++)
		snprintf(rd.first_problem, sizeof(rd.first_problem), "%s:%zu: %s", name, lineno,
			 text_escape(why, safe, sizeof(safe)));
	if (ll > REC_MAX_LINE && !has_nl)   /* skip the rest of an endless line */
		off = whole;
	else
		off += ll + 1;
	return true;
}

/* What is checked once every line is read: a header, the end line (a
 * lenient read notes its absence), no check twice, and the end line's
 * counts (a lenient read counts the lines missing instead). */
bool Reader::whole_file()
{
	if (!st.have_header) {
		snprintf(err, errlen, "%s:%zu: empty file: no record header", name, lineno + 1);
		return false;
	}
	if (!st.have_end) {
		if (!rd.lenient) {
			snprintf(err, errlen, "%s:%zu: truncated: the file ends without its end "
				 "line (recording cut short, or the file was cut)", name, lineno);
			return false;
		}
		rd.truncated = true;
	}
	if (st.have_end && rd.lenient)
		rd.missing = missing_lines();
	if (!no_duplicates())
		return false;
	return !st.have_end || rd.lenient || end_counts_agree();
}

/* Lines the recorder wrote (the end line says) that are neither here nor
 * skipped. */
size_t Reader::missing_lines() const
{
	const EndCounts &e = st.end;
	/* each count is at most INT64_MAX: summed unsigned, saturating */
	uint64_t want = sat_add(sat_add((uint64_t)e.processes, (uint64_t)e.stacks),
				sat_add((uint64_t)e.checks, (uint64_t)e.ustacks));
	uint64_t got = (uint64_t)(r->nprocs + r->nstacks + r->nustacks - st.holes + r->nchecks +
				  rd.skipped);

	return want > got ? (size_t)(want - got) : 0;
}

/* The same check twice: an error, or (lenient) dropped and counted. */
bool Reader::no_duplicates()
{
	size_t removed = 0, dup = 0, orig = 0;

	if (record_dedup_checks(r, rd.lenient ? DEDUP_DROP : DEDUP_FAIL, &removed, &dup, &orig)) {
		snprintf(err, errlen, "%s:%u: the same check as line %u (pid, image, capability, "
			 "verdict, stack and syscall): it would be counted twice", name,
			 r->checks[dup].line, r->checks[orig].line);
		return false;
	}
	if (removed) {
		rd.skipped += removed;
		if (!rd.first_problem[0])
			snprintf(rd.first_problem, sizeof(rd.first_problem),
				 "%s: duplicate check lines", name);
	}
	return true;
}

bool Reader::end_counts_agree()
{
	const EndCounts &e = st.end;

	if (e.processes == (int64_t)r->nprocs && e.stacks == (int64_t)r->nstacks &&
	    e.checks == (int64_t)r->nchecks && e.ustacks == (int64_t)r->nustacks)
		return true;
	/* "1 process", not "1 processes" */
	if (e.ustacks || r->nustacks)
		snprintf(err, errlen, "%s:%zu: the end line counts %lld %s, %lld %s, %lld %s, "
			 "%lld user %s; the file holds %zu, %zu, %zu, %zu", name, lineno,
			 (long long)e.processes, plural((uint64_t)e.processes, "process", "processes"),
			 (long long)e.stacks, plural((uint64_t)e.stacks, "stack", "stacks"),
			 (long long)e.checks, plural((uint64_t)e.checks, "check", "checks"),
			 (long long)e.ustacks, plural((uint64_t)e.ustacks, "stack", "stacks"),
			 r->nprocs, r->nstacks, r->nchecks, r->nustacks);
	else
		snprintf(err, errlen, "%s:%zu: the end line counts %lld %s, %lld %s, %lld %s; the "
			 "file holds %zu, %zu, %zu", name, lineno,
			 (long long)e.processes, plural((uint64_t)e.processes, "process", "processes"),
			 (long long)e.stacks, plural((uint64_t)e.stacks, "stack", "stacks"),
			 (long long)e.checks, plural((uint64_t)e.checks, "check", "checks"),
			 r->nprocs, r->nstacks, r->nchecks);
	return false;
}

} // namespace

extern "C" int recfile_read_opts(FILE *f, const char *name, struct record *r, struct rec_read *rdp,
				 char *err, size_t errlen)
{
	rec_read local_rd{};
	rec_read &rd = rdp ? *rdp : local_rd;

	if (!Reader(f, name, r, rd, err, errlen).read()) {
		record_free(r);
		return -1;
	}
	r->name = xstrdup(name);   /* a merge names its inputs by it */
	if (rd.lenient) {
		r->input.lenient = true;
		r->input.truncated = rd.truncated;
		r->input.lines = rd.lines;
		r->input.skipped = rd.skipped;
		r->input.missing = rd.missing;
	}
	return 0;
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
