// SPDX-License-Identifier: GPL-2.0
/* Telling an input's kind from its first bytes (kind.h). */
#include "recfile/kind.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "lib/infile.h"
#include "lib/util.h"
#include "recfile/recfile.h"

/* The baseline's "format" (analyze/baseline.h: BASELINE_FORMAT; this
 * layer is below it) */
#define BASELINE_WORD "capaudit-baseline"

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/* Whether [p, end) has the member "key" whose value is a string (val: the
 * string, or NULL: any string, or any value at all when any is set). A
 * look at the words: "key" inside another string may be taken too, which
 * is why each kind is asked for two of its marks. */
static bool has_member(const char *p, const char *end, const char *key, const char *val,
		       bool any)
{
	size_t kl = strlen(key);

	while (p < end) {
		const char *q = memchr(p, '"', (size_t)(end - p));

		if (!q || (size_t)(end - q) < kl + 2)
			return false;
		p = q + 1;
		if (memcmp(p, key, kl) || p[kl] != '"')
			continue;
		q = skip_ws(p + kl + 1, end);
		if (q >= end || *q != ':')
			continue;
		q = skip_ws(q + 1, end);
		if (any)
			return q < end;
		if (q >= end || *q != '"')
			continue;
		if (!val)
			return true;
		if ((size_t)(end - q) > strlen(val) + 1 && !memcmp(q + 1, val, strlen(val)) &&
		    q[1 + strlen(val)] == '"')
			return true;
	}
	return false;
}

enum input_kind input_kind_of(const char *head, size_t len)
{
	const char *end = head + len, *p = skip_ws(head, end), *nl;

	if (len >= 2 && (unsigned char)head[0] == 0x1f && (unsigned char)head[1] == 0x8b)
		return INPUT_GZIP;
	if (p >= end || *p != '{')
		return INPUT_UNKNOWN;
	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		nl = end;
	/* line 1 alone: a record's later lines hold any text */
	if (has_member(p, nl, "type", "header", false))
		return has_member(p, nl, "scope", "monitor", false) ? INPUT_CHECKPOINT :
		       INPUT_RECORD;
	if (has_member(p, nl, "ts", NULL, true) && has_member(p, nl, "kind", NULL, false))
		return INPUT_EVENTS;
	if (has_member(p, end, "format", BASELINE_WORD, false))
		return INPUT_BASELINE;
	return INPUT_UNKNOWN;
}

/* "gunzip -k F.gz" or "zcat F > F.jsonl": a command that works as printed */
static void unpack_hint(const char *name, bool is_stdin, char *buf, size_t len)
{
	char w[1200], out[1200];
	size_t n = strlen(name);

	if (is_stdin) {
		snprintf(buf, len, "pipe it through zcat first");
	} else if (n > 3 && !strcmp(name + n - 3, ".gz")) {
		snprintf(buf, len, "unpack it first: gunzip -k %s", shell_word(name, w, sizeof(w)));
	} else {
		snprintf(out, sizeof(out), "%s.jsonl", name);
		snprintf(buf, len, "unpack it first: zcat %s > %s", shell_word(name, w, sizeof(w)),
			 shell_word(out, w + 600, sizeof(w) - 600));
	}
}

/* The line for a file of kind got where a want was given. */
static void wrong_kind(const char *name, enum input_kind got, enum input_kind want, char *err,
		       size_t errlen)
{
	bool is_stdin = !strcmp(name, "standard input");
	char w[1200], hint[1400];

	shell_word(name, w, sizeof(w));
	switch (got) {
	case INPUT_GZIP:
		unpack_hint(name, is_stdin, hint, sizeof(hint));
		snprintf(err, errlen, "%s: gzip-compressed, not a %s: %s", name,
			 want == INPUT_BASELINE ? "baseline" : "record", hint);
		return;
	case INPUT_BASELINE:
		if (is_stdin)
			snprintf(err, errlen, "%s: a baseline (check --baseline FILE), not a record",
				 name);
		else
			snprintf(err, errlen, "%s: a baseline, not a record: give it to check: "
				 "capaudit check --baseline %s " DEFAULT_RECORD, name, w);
		return;
	case INPUT_EVENTS:
		snprintf(err, errlen, "%s: monitor --events lines, not a %s: the monitor's record "
			 "is its checkpoint (monitor -o FILE)", name,
			 want == INPUT_BASELINE ? "baseline" : "record");
		return;
	case INPUT_RECORD:
	case INPUT_CHECKPOINT:
		if (is_stdin)
			snprintf(err, errlen, "%s: a %s, not a baseline", name,
				 got == INPUT_RECORD ? "record" : "monitor checkpoint (a record)");
		else
			snprintf(err, errlen, "%s: a %s, not a baseline: a baseline is made from it "
				 "with capaudit check --baseline capaudit-baseline.json --update %s", name,
				 got == INPUT_RECORD ? "record" : "monitor checkpoint (a record)", w);
		return;
	default:
		snprintf(err, errlen, "%s: not a %s", name,
			 want == INPUT_BASELINE ? "baseline" : "record");
	}
}

FILE *input_expect(FILE *f, const char *name, enum input_kind want, char *err, size_t errlen)
{
	char head[INPUT_HEAD];
	enum input_kind got;
	size_t len;
	FILE *s = infile_peek(f, head, sizeof(head), &len);

	if (!s) {
		snprintf(err, errlen, "%s: cannot read: %s", name, strerror(errno));
		return NULL;
	}
	got = input_kind_of(head, len);
	if (got == INPUT_UNKNOWN || got == want ||
	    (want == INPUT_RECORD && got == INPUT_CHECKPOINT))
		return s;
	fclose(s);
	wrong_kind(name, got, want, err, errlen);
	return NULL;
}
