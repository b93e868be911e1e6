// SPDX-License-Identifier: GPL-2.0
/* Loading a record for a subcommand: the reader's error, or its lenient
 * summary, as the one line the user sees (load.h). */
#include "recfile/load.h"

#include <stdio.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/util.h"
#include "recfile/kind.h"

int load_record_file(FILE *f, const char *path, bool lenient, struct record *r)
{
	struct rec_read rd = { .lenient = lenient };
	char err[1024], msg[1200], safe[2400];
	int n;

	/* a baseline, events or a gzip file named as such, not as bad JSON */
	FILE *in = input_expect(f, path, INPUT_RECORD, err, sizeof(err));

	if (!in) {
		memset(r, 0, sizeof(*r));
		p_err("%s", err);
		return -1;
	}
	n = recfile_read_opts(in, path, r, &rd, err, sizeof(err));
	fclose(in);
	if (n) {
		p_err("%s", err);
		return -1;
	}
	if (!rd.skipped && !rd.truncated && !rd.missing)
		return 0;
	/* stderr only: stdout keeps the report, which carries the same facts */
	n = snprintf(msg, sizeof(msg), "%s: --lenient: skipped %zu of %zu lines", path,
		     rd.skipped, rd.lines);
	if (rd.skipped && n > 0 && (size_t)n < sizeof(msg))
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, " (first: %s)", rd.first_problem);
	if (rd.missing && n > 0 && (size_t)n < sizeof(msg))
		n += snprintf(msg + n, sizeof(msg) - (size_t)n,
			      "; %zu %s the recorder wrote %s missing", rd.missing,
			      plural(rd.missing, "line", "lines"), plural(rd.missing, "is", "are"));
	if (rd.truncated && n > 0 && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - (size_t)n,
			 "; no end line: the file was cut, counts may be short");
	fprintf(stderr, "capaudit: warning: %s\n", text_sanitize(msg, safe, sizeof(safe)));
	return 0;
}

void warn_lost(const char *name, const struct record *r)
{
	char lost[600], msg[1200], safe[2400];

	if (!rec_lost_describe(&r->hdr.lost, lost, sizeof(lost)))
		return;
	snprintf(msg, sizeof(msg), "%s: lost while recording: %s; the verdict covers what was "
		 "recorded", name, lost);
	fprintf(stderr, "capaudit: warning: %s\n", text_sanitize(msg, safe, sizeof(safe)));
}
