// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz targets: the record reader and the baseline reader, the two parsers
 * of files other people hand capaudit. Each target also runs what follows
 * a successful read (report, suggest, check, every output format) and
 * checks properties that must hold for any input:
 *  - a rejected input gets one non-empty error line, with no control byte;
 *  - an accepted input writes back to a file that reads again, to the same
 *    numbers (the writer and the reader agree);
 *  - a lenient read never fails where the strict read succeeded.
 * A violated property aborts, which libFuzzer and the replay both report.
 */
#include "targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/attrib.h"
#include "analyze/baseline.h"
#include "analyze/check.h"
#include "analyze/diff.h"
#include "analyze/recview.h"
#include "output/output.h"
#include "recfile/recfile.h"
#include "analyze/report.h"
#include "analyze/suggest.h"
#include "lib/util.h"

#define FAIL(...) do { fprintf(stderr, "fuzz: " __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

static FILE *null_out(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		FAIL("cannot open /dev/null");
	return f;
}

/* fmemopen() refuses size 0: an empty input is /dev/null */
static FILE *open_input(const uint8_t *data, size_t size)
{
	return size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
}

static void check_error_line(const char *what, const char *err)
{
	const unsigned char *p;

	if (!err[0])
		FAIL("%s: rejected without a message", what);
	for (p = (const unsigned char *)err; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			FAIL("%s: control byte 0x%02x in the error: %s", what, *p, err);
}

static uint64_t total_count(const struct record *r)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->nchecks; i++)
		n += r->checks[i].count;
	return n;
}

/* Everything that follows a read, into /dev/null. */
static void analyse(const struct record *r)
{
	const struct formatter *fmts[] = { &output_text, &output_json };
	struct report_opts ro = { .noaudit = true, .by_user_site = true };
	static const enum report_by modes[] = { BY_PROCESS, BY_PROGRAM, BY_CONTAINER, BY_UNIT, BY_CGROUP };
	struct suggest_opts so = { 0 };
	struct report rep;
	struct suggestion sg;
	struct observation obs = { 0 };
	struct baseline empty = { 0 }, upd;
	struct check_result res;
	size_t i, k;

	for (k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		ro.by = modes[k];
		report_build(r, &ro, &rep);
		for (i = 0; i < 2; i++)
			fmts[i]->report(null_out(), &rep, "fuzz");
		report_free(&rep);
	}
	suggest_build(r, &so, &sg);
	for (i = 0; i < 2; i++)
		fmts[i]->suggest(null_out(), &sg, "fuzz");
	for (k = 0; emit_kinds[k]; k++)
		emit_snippet(null_out(), emit_kinds[k], &sg);
	observation_add(&obs, &sg);
	observation_add_user_sites(&obs, r);
	suggest_free(&sg);
	check_compare(&obs, &empty, true, MATCH_SYSCALL, &res);
	{
		/* the CI formats with user places */
		const struct formatter *ci[] = { &output_text, &output_sarif, &output_github };
		struct check_view view = { .r = &res, .baseline = "fuzz", .source_root = "/src" };

		for (i = 0; i < 3; i++)
			ci[i]->check(null_out(), &view);
	}
	check_result_free(&res);
	check_updated_baseline(&obs, NULL, &upd);
	baseline_free(&upd);
	observation_free(&obs);
}

/* --container and --unit on the first process's workload (an id prefix of
 * 3 digits, which may be ambiguous), then what the view has analysed: only
 * processes of that workload, every check with its process; r untouched. */
static void filter_first(const struct record *r)
{
	struct workload_filter wf = { 0 };
	char prefix[4] = "", err[1024];
	size_t i, nprocs = r->nprocs, nchecks = r->nchecks;
	const struct record *v;
	struct rec_view view;

	for (i = 0; i < r->nprocs && !wf.container && !wf.unit; i++) {
		if (r->procs[i].container_id) {
			snprintf(prefix, sizeof(prefix), "%s", r->procs[i].container_id);
			wf.container = prefix;
		}
		wf.unit = r->procs[i].unit;
	}
	if (record_view_workload(&view, r, &wf, err, sizeof(err))) {
		if (!err[0])
			FAIL("record: a workload filter failed without a message");
		if (rec_view_record(&view)->nprocs || rec_view_record(&view)->nchecks)
			FAIL("record: a workload filter that failed views something");
		rec_view_free(&view);
		return;
	}
	v = rec_view_record(&view);
	for (i = 0; i < v->nprocs; i++)
		if (wf.unit && (!v->procs[i].unit || strncmp(v->procs[i].unit, wf.unit,
							     strlen(wf.unit))))
			FAIL("record: --unit %s kept a process of unit %s", wf.unit,
			     v->procs[i].unit ? v->procs[i].unit : "(none)");
	for (i = 0; i < v->nchecks; i++)
		if (!check_process(v, &v->checks[i]))
			FAIL("record: a workload filter left a check without its process");
	analyse(v);
	rec_view_free(&view);
	if (r->nprocs != nprocs || r->nchecks != nchecks)
		FAIL("record: a workload filter changed the record it viewed");
}

/* A record and its rewritten copy (written, read back): diff finds
 * nothing, noaudit checks included; both formats print it. */
static void diff_rewritten(const struct record *r, const struct record *r2)
{
	const struct formatter *fmts[] = { &output_text, &output_json };
	struct diff_opts o = { .noaudit = true };
	struct diff_view v = { .old_name = "a", .new_name = "b", .old = r, .new = r2,
			       .noaudit = true };
	struct diff d;
	size_t i;

	diff_build(r, r2, &o, &d);
	if (d.nitems || d.nadded || d.nremoved || d.old_required != d.new_required)
		FAIL("record: diff of a record and its rewritten copy lists %zu changes", d.nitems);
	v.d = &d;
	for (i = 0; i < 2; i++)
		fmts[i]->diff(null_out(), &v);
	diff_free(&d);
}

/* --pid of the first process and --cap of the first check, then what is
 * left analysed: only that process's images, only that capability; r
 * untouched (the views have arrays of their own). */
static void filter_pid_cap(const struct record *r)
{
	struct workload_filter wf = { 0 };
	struct rec_view by_pid, by_cap;
	const struct record *v;
	char err[1024];
	uint32_t pid;
	size_t i, nprocs = r->nprocs, nchecks = r->nchecks;
	int cap;

	if (!r->nprocs || r->procs[0].pids)
		return;
	pid = rec_process_file_pid(r, &r->procs[0]);
	wf.pids = &pid;
	wf.npids = 1;
	if (record_view_workload(&by_pid, r, &wf, err, sizeof(err)))
		FAIL("record: --pid %u of its own first process failed: %s", pid, err);
	v = rec_view_record(&by_pid);
	for (i = 0; i < v->nprocs; i++)
		if (rec_process_file_pid(v, &v->procs[i]) != pid)
			FAIL("record: --pid %u kept pid %u", pid, rec_process_file_pid(v, &v->procs[i]));
	if (v->nchecks) {
		cap = v->checks[0].cap;
		record_view_caps(&by_cap, v, 1ULL << cap);
		v = rec_view_record(&by_cap);
		for (i = 0; i < v->nchecks; i++)
			if (v->checks[i].cap != cap || !check_process(v, &v->checks[i]))
				FAIL("record: --cap %d kept a check of %d, or one without its process",
				     cap, v->checks[i].cap);
		analyse(v);
		rec_view_free(&by_cap);
	}
	rec_view_free(&by_pid);
	if (r->nprocs != nprocs || r->nchecks != nchecks)
		FAIL("record: --pid or --cap changed the record they viewed");
}

/* An accepted record merged with itself (report FILE FILE): it merges,
 * every check keeps its process, every count is there twice, and what
 * follows a read holds for the merge too. */
static void self_merge(const uint8_t *data, size_t size)
{
	struct record a, b;
	char err[1024] = "";
	FILE *f = open_input(data, size), *g = open_input(data, size);
	size_t i, n;
	uint64_t total;

	if (!f || !g || recfile_read(f, "a", &a, err, sizeof(err)) ||
	    recfile_read(g, "b", &b, err, sizeof(err)))
		FAIL("record: an accepted record does not read again: %s", err);
	fclose(f);
	fclose(g);
	n = a.nchecks;
	total = total_count(&a);
	if (record_merge(&a, &b, err, sizeof(err)))
		FAIL("record: a record does not merge with itself: %s", err);
	if (a.nchecks != 2 * n || total_count(&a) != 2 * total || a.ninputs != 2)
		FAIL("record: merged with itself, %zu checks (%zu each)", a.nchecks, n);
	for (i = 0; i < a.nchecks; i++)
		if (!check_process(&a, &a.checks[i]))
			FAIL("record: a merged check lost its process");
	analyse(&a);
	record_free(&b);
	record_free(&a);
}

int fuzz_record(const uint8_t *data, size_t size)
{
	struct record r, r2;
	struct rec_read rd = { .lenient = true };
	char err[1024] = "", *buf = NULL;
	size_t len = 0;
	FILE *f = open_input(data, size), *m;
	int strict_rc;

	if (!f)
		return 0;
	strict_rc = recfile_read(f, "fuzz", &r, err, sizeof(err));
	if (strict_rc) {
		check_error_line("record", err);
	} else {
		analyse(&r);
		self_merge(data, size);
		m = open_memstream(&buf, &len);
		if (!m || recfile_write(m, &r) || fclose(m))
			FAIL("record: cannot write back an accepted record");
		fclose(f);
		f = fmemopen(buf, len, "r");
		if (!f || recfile_read(f, "rewritten", &r2, err, sizeof(err)))
			FAIL("record: the rewritten record does not read: %s", err);
		if (r2.nprocs != r.nprocs || r2.nstacks != r.nstacks || r2.nchecks != r.nchecks ||
		    total_count(&r2) != total_count(&r))
			FAIL("record: the rewritten record differs (%zu/%zu/%zu vs %zu/%zu/%zu)",
			     r2.nprocs, r2.nstacks, r2.nchecks, r.nprocs, r.nstacks, r.nchecks);
		diff_rewritten(&r, &r2);
		filter_pid_cap(&r2);
		record_free(&r2);
		record_free(&r);
		free(buf);
	}
	fclose(f);

	f = open_input(data, size);
	if (!f)
		return 0;
	if (recfile_read_opts(f, "fuzz", &r, &rd, err, sizeof(err))) {
		if (!strict_rc)
			FAIL("record: the lenient read failed where the strict one did not: %s", err);
		check_error_line("record (lenient)", err);
	} else {
		analyse(&r);
		filter_first(&r);
		record_free(&r);
	}
	fclose(f);
	return 0;
}

/* check --update on an accepted baseline's own text (baseline_edit): every
 * other entry kept, less its first syscall and call site, plus one of
 * each; a capability it lacks added. The text it gives must read back as
 * exactly that. */
static void fuzz_edit(const uint8_t *data, size_t size, const struct baseline *b)
{
	struct baseline want = { 0 }, back;
	struct bl_change *ch;
	char err[1024], *ed;
	size_t i, j, elen = 0;
	int c;
	FILE *m;

	want.note = b->note ? xstrdup(b->note) : NULL;
	for (i = 0; i < b->ncaps; i += 2) {
		const struct bl_entry *o = &b->caps[i];
		struct bl_entry *e = bl_add(&want.caps, &want.ncaps, &want.capcaps, o->cap);

		e->note = o->note ? xstrdup(o->note) : NULL;
		for (j = 1; j < o->nsys; j++)
			if (o->sys[j].note)
				bl_add_sys(e, o->sys[j].func)->note = xstrdup(o->sys[j].note);
			else
				bl_add_sys(e, o->sys[j].func);
		bl_add_sys(e, "fuzz_sys");
		for (j = 1; j < o->nsites; j++)
			if (o->sites[j].note)
				bl_add_site(e, o->sites[j].func)->note = xstrdup(o->sites[j].note);
			else
				bl_add_site(e, o->sites[j].func);
		bl_add_site(e, "fuzz_site");
	}
	for (c = 0; c <= 40 && bl_find(b->caps, b->ncaps, c); c++)
		;
	if (c <= 40 && !bl_find(want.caps, want.ncaps, c)) {
		struct bl_entry *e = bl_add(&want.caps, &want.ncaps, &want.capcaps, c);

		bl_add_sys(e, "socket");
		bl_add_site(e, "inet_create");
	}
	ed = baseline_edit((const char *)data, size, &want, &elen);
	if (ed) {
		m = fmemopen(ed, elen ? elen : 1, "r");
		if (!m || baseline_read(m, "edited", &back, err, sizeof(err)))
			FAIL("baseline: the edited text does not read: %s", err);
		if (!baseline_same(&back, &want))
			FAIL("baseline: the edited text is not the baseline it must be");
		baseline_free(&back);
		fclose(m);
		free(ed);
	}
	check_update_changes(b, &want, &ch);
	free(ch);
	baseline_free(&want);
}

int fuzz_baseline(const uint8_t *data, size_t size)
{
	struct baseline b, b2;
	char err[1024] = "", *buf = NULL;
	size_t len = 0;
	FILE *f = open_input(data, size), *m;

	if (!f)
		return 0;
	if (baseline_read(f, "fuzz", &b, err, sizeof(err))) {
		check_error_line("baseline", err);
		fclose(f);
		return 0;
	}
	fclose(f);
	fuzz_edit(data, size, &b);
	m = open_memstream(&buf, &len);
	if (!m || baseline_write(m, &b) || fclose(m))
		FAIL("baseline: cannot write back an accepted baseline");
	f = fmemopen(buf, len, "r");
	if (!f || baseline_read(f, "rewritten", &b2, err, sizeof(err)))
		FAIL("baseline: the rewritten baseline does not read: %s", err);
	if (b2.ncaps != b.ncaps || b2.ndenied != b.ndenied)
		FAIL("baseline: the rewritten baseline differs");
	{
		/* compared with an empty observation: every entry is unused */
		struct observation obs = { 0 };
		struct check_result res;
		struct check_view view = { .r = &res, .baseline = "fuzz", .source_root = "/src" };
		const struct formatter *fmts[] = { &output_text, &output_json, &output_junit,
						   &output_sarif, &output_github };
		size_t i;
		int m;

		/* every level of --match */
		for (m = MATCH_CAPABILITY; m <= MATCH_CALLSITE; m++) {
			check_compare(&obs, &b, true, (enum check_match)m, &res);
			for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
				fmts[i]->check(null_out(), &view);
			check_result_free(&res);
		}
	}
	fclose(f);
	free(buf);
	baseline_free(&b2);
	baseline_free(&b);
	return 0;
}
