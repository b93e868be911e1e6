// SPDX-License-Identifier: GPL-2.0
/* What the recorder lost: one definition (rec_lost_kinds), read the same
 * way by rec_lost_total(), the text report and the JSON report. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/report.h"
#include "output/output.h"
#include "recfile/recfile.h"
#include "test.h"
#include "lib/util.h"

static void lost_record(struct record *r)
{
	memset(r, 0, sizeof(*r));
	r->hdr.kernel = xstrdup("6.18");
	r->hdr.attach = xstrdup("tp_btf");
	record_add_process(r, 10, 0, 0)->comm = xstrdup("a");
}

/* The report of r in format fmt, as a string the caller frees. */
static char *report_of(const struct record *r, const struct formatter *fmt)
{
	struct report_opts o = { 0 };
	struct report rep;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_EQ(report_build(r, &o, &rep), 0);
	ASSERT_EQ(fmt->report(f, &rep, "t.jsonl"), 0);
	fclose(f);
	report_free(&rep);
	return buf;
}

/* The sum of report --format json's record.lost members, -1 if absent. */
static long long json_lost_sum(const char *text, const char *key, long long *one)
{
	json_error_t e;
	json_t *root = json_loads(text, 0, &e), *lost, *v;
	const char *k;
	long long sum = 0;

	lost = json_object_get(json_object_get(root, "record"), "lost");
	if (!json_is_object(lost)) {
		json_decref(root);
		return -1;
	}
	json_object_foreach(lost, k, v)
		sum += json_integer_value(v);
	*one = json_integer_value(json_object_get(lost, key));
	json_decref(root);
	return sum;
}

TEST(lost_only_result_lost_is_not_nothing_lost)
{
	struct record r;
	char buf[600], *text, *json;
	long long one = 0;

	lost_record(&r);
	r.hdr.lost.result_lost = 5;
	ASSERT_U64(rec_lost_total(&r.hdr.lost), 5);
	ASSERT_U64(rec_lost_describe(&r.hdr.lost, buf, sizeof(buf)), 5);
	ASSERT_STR(buf, "5 syscall results not kept");
	text = report_of(&r, &output_text);
	ASSERT_HAS(text, "\nLost: 5 syscall results not kept\n");
	ASSERT_TRUE(!strstr(text, "Lost: none"));
	json = report_of(&r, &output_json);
	ASSERT_EQ(json_lost_sum(json, "result_lost", &one), 5);
	ASSERT_EQ(one, 5);
	free(text);
	free(json);
	record_free(&r);
}

TEST(lost_every_kind_counts_in_total_text_and_json)
{
	size_t i;

	ASSERT_EQ(rec_lost_nkinds, sizeof(struct rec_lost) / sizeof(uint64_t));
	for (i = 0; i < rec_lost_nkinds; i++) {
		const struct rec_lost_kind *k = &rec_lost_kinds[i];
		struct record r;
		char want[200], *text, *json;
		long long one = 0;

		lost_record(&r);
		*(uint64_t *)(void *)((char *)&r.hdr.lost + k->off) = 7;
		ASSERT_U64(rec_lost_total(&r.hdr.lost), 7);
		text = report_of(&r, &output_text);
		snprintf(want, sizeof(want), "\nLost: 7 %s\n", k->what);
		ASSERT_HAS(text, want);
		json = report_of(&r, &output_json);
		ASSERT_EQ(json_lost_sum(json, k->key, &one), 7);
		ASSERT_EQ(one, 7);
		free(text);
		free(json);
		record_free(&r);
	}
}

TEST(lost_nothing_and_saturating_total)
{
	struct rec_lost l = { 0 };
	char buf[600];

	ASSERT_U64(rec_lost_describe(&l, buf, sizeof(buf)), 0);
	ASSERT_STR(buf, "nothing lost");
	l.map_full = UINT64_MAX;
	l.hook_skipped = 2;
	ASSERT_U64(rec_lost_total(&l), UINT64_MAX);
	ASSERT_U64(rec_lost_describe(&l, buf, sizeof(buf)), UINT64_MAX);
}
