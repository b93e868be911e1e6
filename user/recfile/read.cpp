// SPDX-License-Identifier: GPL-2.0
/*
 * The record-file reader (strict, or lenient with --lenient), on simdjson's
 * On-Demand API: a record of a million aggregated checks must be read in
 * well under a second, which a DOM-building parser cannot do. C interface
 * in recfile.h; every message is "FILE:LINE: what is wrong", terminal-safe.
 *
 * What each line holds is the tables of fields.c, read by one loop
 * (read_fields.cpp, values in read_values.h). Here, from the bottom up:
 *  - process_object(): a line's type, in the right order;
 *  - fast paths: a chunk of lines through one document stream, and check
 *    lines on two threads;
 *  - Reader: the file in buffer-sized chunks, the slow path for the line a
 *    fast path stops at, and what is checked once the last line is read.
 */
#include <algorithm>
#include <cerrno>
#include <iterator>
#include <thread>

#include "recfile/read_fields.h"

extern "C" {
#include "lib/infile.h"
}

using namespace recread;

namespace {

/* ---- lines by type ---------------------------------------------------- */

/* What the whole read has seen so far. */
struct State {
	record *r;
	rec_read *rd;             /* options and results; never NULL here */
	bool have_header = false;
	bool have_end = false;
	size_t holes = 0;         /* empty stacks standing for lost stack lines */
	rec_end_line end{};       /* the end line's counts of the lines before it */
};

/* One object of a known type, in the right order. */
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
		if (!read_header(obj, st.r, l))
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
		return read_stack_line(obj, st.r, st.rd->lenient ? &st.holes : nullptr, false, l);
	if (type == "ustack")
		return read_stack_line(obj, st.r, st.rd->lenient ? &st.holes : nullptr, true, l);
	if (type == "check")
		return read_check(obj, st.r, st.r, l);
	if (type == "end")
		return (st.have_end = read_end(obj, st.r, &st.end, l));
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
	const rec_end_line &e = st.end;
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
	const rec_end_line &e = st.end;

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

static int recfile_load_opts(const char *path, struct record *r, struct rec_read *rd,
			     char *err, size_t errlen)
{
	FILE *f = infile_open(path, err, errlen);
	int rc;

	if (!f)
		return -1;
	rc = recfile_read_opts(f, infile_name(path), r, rd, err, errlen);
	infile_close(f);
	return rc;
}

extern "C" int recfile_load(const char *path, struct record *r, char *err, size_t errlen)
{
	return recfile_load_opts(path, r, nullptr, err, errlen);
}
