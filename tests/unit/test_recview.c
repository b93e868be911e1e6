// SPDX-License-Identifier: GPL-2.0
/* Filters as views (analyze/recview.c, attrib.c): the suggestion and the
 * --cap report of one record come out the same whichever is built first,
 * and the record is the same after filtering as before, byte for byte as
 * written; on tests/fixtures/workloads-v4.jsonl (test_attrib.c says what
 * it holds). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/attrib.h"
#include "analyze/recview.h"
#include "analyze/report.h"
#include "analyze/suggest.h"
#include "facts/capnames.h"
#include "output/output.h"
#include "test.h"

static void load(struct record *r)
{
	char err[512];

	memset(r, 0, sizeof(*r));
	if (recfile_load(fixture("workloads-v4.jsonl"), r, err, sizeof(err)))
		FAIL_AT("%s", err);
}

/* r as its file would hold it: what "unchanged" is compared by. */
static char *written(const struct record *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m || recfile_write(m, r) || fclose(m))
		FAIL_AT("cannot write the record");
	return buf;
}

/* What report --cap caps [--suggest] prints of r, text and json, each
 * output appended in turn: the report's and the suggestion's. */
struct printed {
	char *report, *suggestion;
};

static char *print_report(const struct report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	output_text.report(m, rep, "r");
	output_json.report(m, rep, "r");
	fclose(m);
	return buf;
}

static char *print_suggestion(const struct suggestion *sg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	output_text.suggest(m, sg, "r");
	output_json.suggest(m, sg, "r");
	fclose(m);
	return buf;
}

/* The report of the --cap view of r: the view freed after printing,
 * as the report borrows it. */
static char *cap_report(const struct record *r, uint64_t caps)
{
	struct report_opts ro = { .only = caps };
	struct rec_view only_caps;
	struct report rep;
	char *out;

	record_view_caps(&only_caps, r, caps);
	report_build(rec_view_record(&only_caps), &ro, &rep);
	out = print_report(&rep);
	report_free(&rep);
	rec_view_free(&only_caps);
	return out;
}

/* The suggestion of every check of r, then what is about caps. */
static char *cap_suggestion(const struct record *r, uint64_t caps)
{
	struct suggest_opts so = { 0 };
	struct suggestion sg;
	char *out;

	suggest_build(r, &so, &sg);
	suggest_keep_caps(&sg, caps);
	out = print_suggestion(&sg);
	suggest_free(&sg);
	return out;
}

static struct printed report_then_suggestion(const struct record *r, uint64_t caps)
{
	struct printed p;

	p.report = cap_report(r, caps);
	p.suggestion = cap_suggestion(r, caps);
	return p;
}

static struct printed suggestion_then_report(const struct record *r, uint64_t caps)
{
	struct printed p;

	p.suggestion = cap_suggestion(r, caps);
	p.report = cap_report(r, caps);
	return p;
}

static void printed_free(struct printed *p)
{
	free(p->report);
	free(p->suggestion);
}

/* Both orders on the view of wf (none: the whole record) give the same
 * outputs, and r is written the same after as before. */
static void same_in_either_order(const struct workload_filter *wf, uint64_t caps)
{
	struct printed first, second;
	struct rec_view workload;
	struct record r;
	char *before, *after, err[512];

	load(&r);
	before = written(&r);
	if (record_view_workload(&workload, &r, wf, err, sizeof(err)))
		FAIL_AT("%s", err);
	first = report_then_suggestion(rec_view_record(&workload), caps);
	second = suggestion_then_report(rec_view_record(&workload), caps);
	ASSERT_STR(first.report, second.report);
	ASSERT_STR(first.suggestion, second.suggestion);
	/* the --cap report is about caps only; the suggestion, made of every
	 * check, still proves CAP_SETUID's use (not an empty one) */
	ASSERT_HAS(first.report, "CAP_SETUID");
	ASSERT_HAS(first.suggestion, "CAP_SETUID");
	rec_view_free(&workload);
	after = written(&r);
	ASSERT_STR(after, before);
	printed_free(&first);
	printed_free(&second);
	free(before);
	free(after);
	record_free(&r);
}

TEST(recview_cap_report_and_suggestion_in_either_order)
{
	struct workload_filter all = { 0 };

	same_in_either_order(&all, 1ULL << CAP_SETUID);
}

TEST(recview_workload_cap_report_and_suggestion_in_either_order)
{
	struct workload_filter web = { .container = "web" };

	same_in_either_order(&web, 1ULL << CAP_SETUID | 1ULL << CAP_NET_BIND_SERVICE);
}

/* report --format html --cap: one page of the --cap report and the
 * suggestion, both alive at once, built in the order given. The
 * suggestion's programs are the record's processes: a filter that
 * edited the record under it printed them as pid 0 with no name. */
static char *cap_page(const struct record *r, uint64_t caps, bool suggestion_first)
{
	struct report_opts ro = { .only = caps };
	struct suggest_opts so = { 0 };
	struct rec_view only_caps;
	struct suggestion sg;
	struct report rep;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (suggestion_first)
		suggest_build(r, &so, &sg);
	record_view_caps(&only_caps, r, caps);
	report_build(rec_view_record(&only_caps), &ro, &rep);
	if (!suggestion_first)
		suggest_build(r, &so, &sg);
	suggest_keep_caps(&sg, caps);
	m = open_memstream(&buf, &len);
	output_html.page(m, &rep, &sg, "r");
	fclose(m);
	suggest_free(&sg);
	report_free(&rep);
	rec_view_free(&only_caps);
	return buf;
}

TEST(recview_html_page_the_same_in_either_order)
{
	struct record r;
	char *first, *second;

	load(&r);
	first = cap_page(&r, 1ULL << CAP_SETUID, true);
	second = cap_page(&r, 1ULL << CAP_SETUID, false);
	ASSERT_STR(first, second);
	ASSERT_HAS(first, "<b>postgres</b>");   /* no CAP_SETUID, still a program */
	ASSERT_TRUE(!strstr(first, "<b></b>"));
	free(first);
	free(second);
	record_free(&r);
}

/* The record is never what a filter edits: after every filter, and a
 * view of a view, it writes out byte for byte as loaded, and a report of
 * it counts every check. */
TEST(recview_filters_leave_the_record_as_loaded)
{
	const uint32_t pid[] = { 301 };
	struct workload_filter cron = { .unit = "cron" }, by_pid = { .pids = pid, .npids = 1 };
	struct rec_view unit, one_pid, program, caps_of_unit;
	struct report_opts ro = { .noaudit = true };
	struct report whole, again;
	struct record r;
	char *before, *after, err[512];

	load(&r);
	before = written(&r);
	report_build(&r, &ro, &whole);
	ASSERT_EQ(record_view_workload(&unit, &r, &cron, err, sizeof(err)), 0);
	ASSERT_EQ(record_view_workload(&one_pid, &r, &by_pid, err, sizeof(err)), 0);
	ASSERT_EQ(record_view_program(&program, &r, "nginx"), 2);
	record_view_caps(&caps_of_unit, rec_view_record(&unit), 1ULL << CAP_SETUID);
	ASSERT_EQ(rec_view_record(&unit)->nprocs, 2);
	ASSERT_EQ(rec_view_record(&one_pid)->nprocs, 1);
	ASSERT_TRUE(rec_view_record(&caps_of_unit)->nchecks > 0);
	after = written(&r);
	ASSERT_STR(after, before);
	report_build(&r, &ro, &again);
	ASSERT_U64(again.total_checks, whole.total_checks);
	report_free(&again);
	report_free(&whole);
	rec_view_free(&caps_of_unit);
	rec_view_free(&program);
	rec_view_free(&one_pid);
	rec_view_free(&unit);
	free(before);
	free(after);
	record_free(&r);
}
