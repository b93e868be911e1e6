// SPDX-License-Identifier: GPL-2.0
/*
 * Reading an object by its table of fields (fields.h): each_field() walks
 * the object's fields once, in file order, rejecting duplicates and
 * passing over unknown ones (a later version may add some); read_value()
 * reads one by its row; read_fields() then names the first missing
 * required field and fills in what was absent. The line readers at the
 * end add what a line means as a whole.
 */
#include "recfile/read_fields.h"

#include <mutex>

extern "C" {
#include "facts/kfeat.h"
#include "facts/syscalls.h"
}

namespace recread {
namespace {

/* ---- matching keys ---------------------------------------------------- */

/* The fields of one table: lengths, and the names as two masked 8-byte
 * words, so that matching a key is two loads and compares (a memcmp call
 * per key cost a sixth of reading a big record). */
constexpr int FIELDS_MAX = 48;   /* per table; Fields::seen has 64 bits */

constexpr uint64_t bit(int field)
{
	return 1ULL << field;
}

struct FieldSet {
	const rec_table *t = nullptr;
	int n = 0;
	size_t len[FIELDS_MAX] = { 0 };
	uint64_t w[FIELDS_MAX][2] = {}, m[FIELDS_MAX][2] = {};
	/* the rows required in a record of each version */
	uint64_t required[REC_VERSION + 1] = {};
	/* rows with something to do when absent (a default) or present (a has flag) */
	uint64_t after = 0;

	void init(const rec_table *table)
	{
		t = table;
		n = (int)t->nrows;
		if (n > FIELDS_MAX)
			abort();   /* a programming error: raise FIELDS_MAX */
		for (int i = 0; i < n; i++) {
			const rec_field &f = t->rows[i];

			len[i] = strlen(f.name);
			for (size_t b = 0; b < 16 && b < len[i]; b++) {
				w[i][b / 8] |= (uint64_t)(unsigned char)f.name[b] << (8 * (b % 8));
				m[i][b / 8] |= 0xffULL << (8 * (b % 8));
			}
			for (int v = 1; v <= REC_VERSION; v++)
				if (f.required && f.required <= v)
					required[v] |= bit(i);
			if (f.def || f.empty_if_null || f.when == RW_HAS)
				after |= bit(i);
		}
		required[0] = required[1];
	}

	/* a row by name: the line readers' own checks */
	int index(const char *name) const
	{
		for (int i = 0; i < n; i++)
			if (!strcmp(t->rows[i].name, name))
				return i;
		abort();   /* a programming error: no such row */
	}
};

/* Each table's, made once (the reader runs on two threads). */
const FieldSet &field_set(const rec_table *t)
{
	static FieldSet sets[RT_NR];
	static std::once_flag once[RT_NR];

	std::call_once(once[t->id], [t] { sets[t->id].init(t); });
	return sets[t->id];
}

/* The fields met so far in one object: a bit each, to reject duplicates
 * and to find missing required ones. */
struct Fields {
	const FieldSet &fs;
	uint64_t seen = 0;
	int next = 0;             /* files we write keep one order: try it first */

	explicit Fields(const FieldSet &f) : fs(f) {}

	bool has(int field) const { return seen & bit(field); }
	const char *name(int field) const { return fs.t->rows[field].name; }

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
		if (fs.len[i] > 16 && memcmp(k + 16, name(i) + 16, fs.len[i] - 16))
			return false;
		return k[fs.len[i]] == '"';
	}

	/* The field named k, or -1. */
	int index(const char *k)
	{
		if (next < fs.n && is(k, next))
			return next++;
		for (int i = 0; i < fs.n; i++) {
			if (is(k, i)) {
				next = i + 1 < fs.n ? i + 1 : 0;
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
			return l.fail("duplicate field '%s'", F.name(f));
		F.seen |= bit(f);
		if (kv.value().get(v))   /* cannot fail once key() has succeeded */
			return l.fail("bad value for '%s'", F.name(f));
		if (!field(f, v))
			return false;
	}
	return true;
}

/* The fields of `required` (bits) were all met; else the first missing
 * one, in the order of the rows, is named. */
bool require(const Fields &F, uint64_t required, Line &l)
{
	uint64_t missing = required & ~F.seen;

	if (!missing)
		return true;
	return l.fail("missing field '%s'", F.name(__builtin_ctzll(missing)));
}

/* ---- values by their row ---------------------------------------------- */

/* What reading one line needs beyond the object. */
struct Ctx {
	const record *r;          /* the header read so far, stacks for references */
	record *sink;             /* where interned strings go */
	std::string_view sysname; /* a check's syscall_name, if it has one */
	bool has_sysname = false;

	Ctx(const record *read, record *to) : r(read), sink(to) {}
};

/* A string's shape (fields.h), or a message. */
bool shape_ok(const rec_field &f, std::string_view s, Line &l)
{
	switch (f.shape) {
	case RS_ANY:
		return true;
	case RS_ARCH:
		return is_ident(s, 32) ||
		       l.fail("field '%s' must be an architecture name (letters, digits, '_')", f.name);
	case RS_SYSCALL:
		return is_ident(s, 64) ||
		       l.fail("field '%s' must be a syscall name (letters, digits, '_')", f.name);
	case RS_HEX:
		return (!s.empty() && s.size() <= 64 &&
			s.find_first_not_of("0123456789abcdef") == std::string_view::npos) ||
		       l.fail("field '%s' must be lowercase hex (at most 64 digits)", f.name);
	case RS_PATH:
		return s.substr(0, 1) == "/" ||
		       l.fail("field '%s' must be a path starting with '/'", f.name);
	case RS_NONEMPTY:
		return !s.empty() || l.fail("field '%s' is empty", f.name);
	}
	return true;
}

/* An integer into the member: its size is the row's type's. */
bool read_int(const rec_field &f, ondemand::value v, char *m, Line &l)
{
	int64_t x;

	if (!get_i64(v, f.name, f.lo, f.hi, &x, l))
		return false;
	if (f.type == RF_I32 || f.type == RF_U32) {
		int32_t y = (int32_t)x;

		memcpy(m, &y, sizeof(y));
	} else {
		memcpy(m, &x, sizeof(x));
	}
	return true;
}

bool read_enum(const rec_field &f, ondemand::value v, int *out, Line &l)
{
	std::string_view s;
	std::string known;

	if (!get_str(v, f.name, &s, l))
		return false;
	for (size_t i = 0; i < f.max; i++) {
		if (!f.names[i])
			continue;
		if (s == f.names[i]) {
			*out = i;
			return true;
		}
		known += std::string(known.empty() ? "" : " or ") + f.names[i];
	}
	return l.fail("field '%s' is '%.20s', not %s", f.name, std::string(s).c_str(),
		      known.c_str());
}

bool read_kfeat(const rec_field &f, ondemand::value v, uint32_t *out, Line &l)
{
	char **feat = nullptr;
	size_t n = 0, i;
	bool ok = get_strv(v, f.name, &feat, &n, l);

	for (i = 0; ok && i < n; i++) {
		uint32_t b = kfeat_parse(feat[i]);

		if (!b)
			ok = l.fail("field 'kernel_bpf': unknown feature '%s' in '%s'", feat[i], f.name);
		*out |= b;
	}
	strv_free(feat, n);
	return ok;
}

bool read_errno(const rec_field &f, ondemand::value v, int *out, Line &l)
{
	std::string_view e;

	if (!get_str(v, f.name, &e, l))
		return false;
	*out = errno_number(e);
	if (*out <= 0)
		return l.fail("field '%s' is '%.20s', not an errno name", f.name,
			      std::string(e).c_str());
	return true;
}

/* A check's "stack" or "ustack": the id of such a line before it (n so far). */
bool read_ref(const rec_field &f, ondemand::value v, size_t n, int *out, Line &l)
{
	if (!get_int(v, f.name, 0, INT32_MAX, out, l))
		return false;
	if ((size_t)*out >= n)
		return l.fail("%s %lld is not defined before this line", f.name, (long long)*out);
	return true;
}

bool read_fields(ondemand::object obj, const rec_table *t, char *base, Ctx &cx, Line &l,
		 uint64_t *seen);

bool read_array(const rec_field &f, ondemand::value v, char *base, Ctx &cx, Line &l)
{
	char **elems = reinterpret_cast<char **>(base + f.off);
	size_t *n = reinterpret_cast<size_t *>(base + f.off2), cap = 0, i = 0;
	ondemand::array a;

	if (v.get_array().get(a))
		return l.fail("field '%s' must be an array", f.name);
	for (auto item : a) {
		ondemand::value iv;
		ondemand::object o;
		uint64_t seen;

		if (item.get(iv))
			return l.fail("bad value in '%s'", f.name);
		if (f.max && *n >= f.max)   /* only user frames have a limit */
			return l.fail("more than %zu user frames", f.max);
		grow_array(reinterpret_cast<void **>(elems), &cap, *n + 1, f.elem);
		/* counted before it is read: a half-read one is freed too */
		char *e = *elems + (*n)++ * f.elem;

		memset(e, 0, f.elem);
		if (iv.get_object().get(o))
			return l.fail(f.item_error, i);
		if (!read_fields(o, f.sub, e, cx, l, &seen))
			return false;
		i++;
	}
	return true;
}

/* What a nested object's fields must say together. */
bool object_agrees(const rec_table *t, uint64_t seen, const char *base, Line &l)
{
	if (t->id == RT_CONTAINER) {
		const rec_process *p = reinterpret_cast<const rec_process *>(base);

		if (!*p->container_id)
			return l.fail("field 'id' of 'container' is empty");
	}
	if (t->id == RT_TARGET) {
		const FieldSet &fs = field_set(t);
		/* a service's sets come whole, with the unit they are of: its
		 * removal candidates are computed from the three together */
		static const uint64_t sets = bit(fs.index("uid")) | bit(fs.index("bounding")) |
					     bit(fs.index("ambient"));
		static const uint64_t service = bit(fs.index("service"));

		if ((seen & sets) && ((seen & sets) != sets || !(seen & service)))
			return l.fail("field 'target': 'uid', 'bounding' and 'ambient' go together, "
				      "with 'service'");
	}
	return true;
}

bool read_value(const rec_field &f, ondemand::value v, char *base, Ctx &cx, Line &l)
{
	char *m = base + f.off;
	std::string_view s;

	switch (f.type) {
	case RF_TYPE: case RF_DERIVED:
		return true;   /* the type is the caller's; derived values are not read */
	case RF_I32: case RF_U32: case RF_I64: case RF_U64:
		return read_int(f, v, m, l);
	case RF_BOOL:
		return get_bool(v, f.name, reinterpret_cast<bool *>(m), l);
	case RF_DOUBLE:
		return get_double(v, f.name, reinterpret_cast<double *>(m), l);
	case RF_STR:
		if (!get_str(v, f.name, &s, l) || !shape_ok(f, s, l))
			return false;
		*reinterpret_cast<char **>(m) = dup(s);
		return true;
	case RF_ISTR:
		if (!get_str(v, f.name, &s, l) || !shape_ok(f, s, l))
			return false;
		*reinterpret_cast<const char **>(m) = record_intern(cx.sink, s.data(), s.size());
		return true;
	case RF_STRV:
		return get_strv(v, f.name, reinterpret_cast<char ***>(m),
				reinterpret_cast<size_t *>(base + f.off2), l);
	case RF_CAPSET:
		return get_capset(v, f.name, reinterpret_cast<uint64_t *>(m), l);
	case RF_ENUM:
		return read_enum(f, v, reinterpret_cast<int *>(m), l);
	case RF_OBJECT: {
		ondemand::object o;
		uint64_t seen;

		return get_object(v, f.name, &o, l) && read_fields(o, f.sub, m, cx, l, &seen) &&
		       object_agrees(f.sub, seen, m, l);
	}
	case RF_ARRAY:
		return read_array(f, v, base, cx, l);
	case RF_FORMAT:
		if (!get_str(v, f.name, &s, l))
			return false;
		return s == REC_FORMAT || l.fail("format is '%.40s', not a capaudit record ('%s')",
						 std::string(s).c_str(), REC_FORMAT);
	case RF_VERSION: {
		int64_t x;

		if (!get_i64(v, f.name, 1, INT32_MAX, &x, l))
			return false;
		if (x > REC_VERSION)
			return l.fail("record version %lld is newer than this capaudit reads (%d)",
				      (long long)x, REC_VERSION);
		*reinterpret_cast<int *>(m) = (int)x;
		return true;
	}
	case RF_KFEAT:
		return read_kfeat(f, v, reinterpret_cast<uint32_t *>(m), l);
	case RF_ERRNO:
		return read_errno(f, v, reinterpret_cast<int *>(m), l);
	case RF_STACK_REF:   /* null: no stack, as when absent */
		if (is_null(v)) {
			*reinterpret_cast<int *>(m) = (int)f.def;
			return true;
		}
		return read_ref(f, v, cx.r->nstacks, reinterpret_cast<int *>(m), l);
	case RF_USTACK_REF:
		return read_ref(f, v, cx.r->nustacks, reinterpret_cast<int *>(m), l);
	case RF_SYSCALL_NAME:   /* kept (read_check): the recording machine named it */
		cx.has_sysname = true;
		return get_str(v, f.name, &cx.sysname, l) && shape_ok(f, cx.sysname, l);
	}
	return true;
}

/* After the fields: the absent ones' defaults, the present ones' has flags. */
void fill_in(const FieldSet &fs, uint64_t seen, char *base, Ctx &cx)
{
	for (uint64_t todo = fs.after; todo; todo &= todo - 1) {
		int i = __builtin_ctzll(todo);
		const rec_field &f = fs.t->rows[i];
		char *m = base + f.off;

		if (seen & bit(i)) {
			if (f.when == RW_HAS)
				*reinterpret_cast<bool *>(base + f.has_off) = true;
		} else if (f.type == RF_STR && f.empty_if_null) {
			*reinterpret_cast<char **>(m) = dup("");
		} else if (f.type == RF_ISTR && f.empty_if_null) {
			*reinterpret_cast<const char **>(m) = record_intern(cx.sink, "", 0);
		} else if (f.def && (f.type == RF_I64 || f.type == RF_U64)) {
			int64_t d = f.def;

			memcpy(m, &d, sizeof(d));
		} else if (f.def) {
			int32_t d = (int32_t)f.def;   /* the other defaults are of int members */

			memcpy(m, &d, sizeof(d));
		}
	}
}

/* obj's fields by t's rows into base; *seen: which were there. */
bool read_fields(ondemand::object obj, const rec_table *t, char *base, Ctx &cx, Line &l,
		 uint64_t *seen)
{
	const FieldSet &fs = field_set(t);
	int version = cx.r->hdr.version;
	Fields F(fs);

	bool ok = each_field(obj, F, l, [&](int i, ondemand::value v) {
		return read_value(fs.t->rows[i], v, base, cx, l);
	});
	if (!ok || !require(F, fs.required[version < REC_VERSION ? version : REC_VERSION], l))
		return false;
	fill_in(fs, F.seen, base, cx);
	*seen = F.seen;
	return true;
}

/* A stack's or ustack's id, in order: the next one, or (lenient, holes
 * non-NULL) one after the ids of lost lines. Ids are below the line
 * number, which bounds the placeholders for those. */
bool id_in_order(const char *what, int64_t id, size_t next, const size_t *holes, Line &l)
{
	if ((size_t)id < next || (!holes && (size_t)id != next) || (uint64_t)id >= l.lineno)
		return l.fail("%s id %lld out of order (expected %zu)", what, (long long)id, next);
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

} // namespace

/* ---- lines ------------------------------------------------------------ */

bool read_header(ondemand::object obj, record *r, Line &l)
{
	rec_header tmp{};
	Ctx cx{ r, r };
	uint64_t seen;

	if (!read_fields(obj, &rec_header_table, reinterpret_cast<char *>(&tmp), cx, l, &seen)) {
		record_clear_header(&tmp);
		return false;
	}
	record_clear_header(&r->hdr);
	r->hdr = tmp;
	return true;
}

bool read_process(ondemand::object obj, record *r, Line &l)
{
	rec_process p{};
	Ctx cx{ r, r };
	uint64_t seen;

	if (!read_fields(obj, &rec_process_table, reinterpret_cast<char *>(&p), cx, l, &seen))
		goto fail;
	if (record_find_process(r, p.pid, p.start_ns, p.exec_id)) {
		l.fail("process %lld (start_ns %lld, exec_id %lld) appears twice", (long long)p.pid,
		       (long long)p.start_ns, (long long)p.exec_id);
		goto fail;
	}
	*record_add_process(r, p.pid, p.start_ns, p.exec_id) = p;
	return true;
fail:
	rec_fields_free(&rec_process_table, &p);
	return false;
}

/* A stack or ustack line, its frames freed on every way out unless taken. */
struct StackLine : rec_stack_line {
	const rec_table *t;

	explicit StackLine(const rec_table *table) : rec_stack_line{}, t(table) {}
	~StackLine() { rec_fields_free(t, static_cast<rec_stack_line *>(this)); }
};

/* A stack or (ustack) a user stack line: ids in order. */
bool read_stack_line(ondemand::object obj, record *r, size_t *holes, bool ustack, Line &l)
{
	StackLine s(ustack ? &rec_ustack_table : &rec_stack_table);
	size_t &n = ustack ? r->nustacks : r->nstacks;
	Ctx cx{ r, r };
	uint64_t seen;

	if (!read_fields(obj, s.t, reinterpret_cast<char *>(static_cast<rec_stack_line *>(&s)), cx,
			 l, &seen) ||
	    !id_in_order(s.t->type, s.id, n, holes, l))
		return false;
	/* lenient: stacks on skipped lines stay as empty ones, so that the
	 * checks naming them keep their counts (call site unknown) */
	for (; n < (size_t)s.id; (*holes)++) {
		if (ustack)
			record_add_ustack(r, nullptr, 0);
		else
			record_add_stack(r, static_cast<char **>(xcalloc(1, sizeof(char *))), 0);
	}
	if (ustack)
		record_add_ustack(r, s.uframes, s.nuframes);
	else
		record_add_stack(r, s.frames ? s.frames :
				 static_cast<char **>(xcalloc(1, sizeof(char *))), s.nframes);
	s.frames = nullptr;
	s.nframes = 0;
	s.uframes = nullptr;
	s.nuframes = 0;
	return true;
}

bool read_check(ondemand::object obj, const record *r, record *sink, Line &l)
{
	static const int init_ns = field_set(&rec_check_table).index("init_ns");
	rec_check c{};
	Ctx cx{ r, sink };
	uint64_t seen;

	if (!read_fields(obj, &rec_check_table, reinterpret_cast<char *>(&c), cx, l, &seen) ||
	    !check_agrees(c, r, l)) {
		free(c.stack_error);
		return false;
	}
	if (cx.has_sysname && c.syscall < 0) {
		free(c.stack_error);
		return l.fail("field 'syscall_name' without a syscall ('syscall' is -1 or absent)");
	}
	c.sysname = syscall_name_arch(r->hdr.arch, c.syscall);
	if (cx.has_sysname && (!c.sysname || cx.sysname != c.sysname))
		c.sysname = record_intern(sink, cx.sysname.data(), cx.sysname.size());
	/* before version 3 a check against a child namespace did not say
	 * whether the credentials were inside one or owned it */
	if (r->hdr.version < 3 && (seen & bit(init_ns)) && !c.init_ns && c.userns == RU_HOST)
		c.userns = RU_CHILD;
	c.line = l.lineno;
	*record_add_check(sink) = c;
	return true;
}

bool read_end(ondemand::object obj, const record *r, rec_end_line *end, Line &l)
{
	Ctx cx{ r, nullptr };
	uint64_t seen;

	return read_fields(obj, &rec_end_table, reinterpret_cast<char *>(end), cx, l, &seen);
}

} // namespace recread
