// SPDX-License-Identifier: GPL-2.0
/*
 * The record reader's values (C++, simdjson On-Demand): one JSON value as
 * a field of the record, range, type and escapes checked, and the line's
 * message ("field 'pid' is 0, outside 1..2147483647") when it is not.
 * Inline: the reader calls them once per field of a million lines.
 */
#ifndef CA_RECFILE_READ_VALUES_H
#define CA_RECFILE_READ_VALUES_H

#include <simdjson.h>

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

extern "C" {
#include "facts/capnames.h"
#include "lib/util.h"
#include "recfile/recfile.h"
}

namespace recread {

using namespace simdjson;


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
inline const char *json_error_text(error_code e)
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

inline bool get_i64(ondemand::value v, const char *key, int64_t lo, int64_t hi, int64_t *out, Line &l)
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
inline bool get_int(ondemand::value v, const char *key, int64_t lo, int64_t hi, T *out, Line &l)
{
	int64_t x;

	if (!get_i64(v, key, lo, hi, &x, l))
		return false;
	*out = static_cast<T>(x);
	return true;
}

inline bool get_double(ondemand::value v, const char *key, double *out, Line &l)
{
	double x;

	if (v.get_double().get(x) || !(x >= 0) || x > 1e12)
		return l.fail("field '%s' must be a non-negative number", key);
	*out = x;
	return true;
}

/* *out points into the parser's buffer: valid until the next line. */
inline bool get_str(ondemand::value v, const char *key, std::string_view *out, Line &l)
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

inline bool get_bool(ondemand::value v, const char *key, bool *out, Line &l)
{
	if (v.get_bool().get(*out))
		return l.fail("field '%s' must be true or false", key);
	return true;
}

inline bool is_null(ondemand::value v)
{
	bool null;

	return !v.is_null().get(null) && null;
}

inline bool get_object(ondemand::value v, const char *key, ondemand::object *out, Line &l)
{
	if (v.get_object().get(*out))
		return l.fail("field '%s' must be an object", key);
	return true;
}

inline char *dup(std::string_view s)
{
	char *p = static_cast<char *>(xcalloc(s.size() + 1, 1));

	memcpy(p, s.data(), s.size());
	return p;
}

/* A string the record keeps: a copy in *out. */
inline bool get_new_str(ondemand::value v, const char *key, char **out, Line &l)
{
	std::string_view s;

	if (!get_str(v, key, &s, l))
		return false;
	*out = dup(s);
	return true;
}

inline bool get_strv(ondemand::value v, const char *key, char ***out, size_t *n, Line &l)
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
inline int errno_number(std::string_view name)
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
inline bool get_capset(ondemand::value v, const char *key, uint64_t *out, Line &l)
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


/* A name the kernel could give a syscall or an architecture: letters,
 * digits and '_', 1..max bytes. */
inline bool is_ident(std::string_view s, size_t max)
{
	if (s.empty() || s.size() > max)
		return false;
	for (char ch : s)
		if (!isalnum((unsigned char)ch) && ch != '_')
			return false;
	return true;
}

} // namespace recread

#endif
