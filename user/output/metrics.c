// SPDX-License-Identifier: GPL-2.0
/* capaudit monitor's metrics, Prometheus text format 0.0.4 (metrics.h). */
#include "output/metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/outfile.h"
#include "lib/util.h"
#include "analyze/objtext.h"

/* Append s to f as a label value: UTF-8 (other bytes as \xNN), then
 * backslash, double quote and newline escaped as the format says. */
static void put_label_value(FILE *f, const char *s)
{
	char *u = utf8_sanitize(s ? s : "", s ? strlen(s) : 0);
	const char *p;

	for (p = u; *p; p++) {
		switch (*p) {
		case '\\': fputs("\\\\", f); break;
		case '"': fputs("\\\"", f); break;
		case '\n': fputs("\\n", f); break;
		default: fputc(*p, f);
		}
	}
	free(u);
}

struct series {
	char *labels;     /* exe="...",...,verdict="..." */
	uint64_t count;
};

static int series_cmp(const void *a, const void *b)
{
	return strcmp(((const struct series *)a)->labels, ((const struct series *)b)->labels);
}

/* The label set of a row, as it is written between the braces. */
static char *row_labels(const struct metrics_check_row *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		fprintf(stderr, "capaudit: out of memory\n");
		exit(70);
	}
	fputs("exe=\"", f);
	put_label_value(f, r->exe);
	fputs("\",comm=\"", f);
	put_label_value(f, r->comm);
	fputs("\",container=\"", f);
	put_label_value(f, r->container);
	fputs("\",container_name=\"", f);
	put_label_value(f, r->container_name);
	fputs("\",unit=\"", f);
	put_label_value(f, r->unit);
	fputs("\",cap=\"", f);
	put_label_value(f, r->cap);
	fprintf(f, "\",verdict=\"%s\"", r->denied ? "denied" : "granted");
	if (r->noaudit)   /* kept (monitor --noaudit): the kernel probing */
		fputs(",noaudit=\"true\"", f);
	if (fclose(f)) {
		fprintf(stderr, "capaudit: out of memory\n");
		exit(70);
	}
	return buf;
}

static void header(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A double as Prometheus reads it, without exponent noise for the
 * values written here (seconds). */
static void put_double(FILE *f, double v)
{
	if (v == (double)(int64_t)v && v < 9e15 && v > -9e15)
		fprintf(f, "%" PRId64, (int64_t)v);
	else
		fprintf(f, "%.6f", v);
}

static const enum finding_kind written_findings[] = { FK_NEW_CAP, FK_NEW_SYSCALL, FK_NEW_SITE,
						       FK_NEW_DENIAL };

/* metrics_snapshot.write_failures, in order */
static const char *const write_outputs[] = { "checkpoint", "metrics", "events" };

/* The exposition text of m to f. 0, or -1 (errno) when writing failed. */
static int metrics_write(FILE *f, const struct metrics_snapshot *m)
{
	struct series *s = xcalloc(m->nchecks, sizeof(*s));
	size_t i, n = 0;

	for (i = 0; i < m->nchecks; i++) {
		s[i].labels = row_labels(&m->checks[i]);
		s[i].count = m->checks[i].count;
	}
	sort_array(s, m->nchecks, sizeof(*s), series_cmp);
	/* rows with the same labels are one series */
	for (i = 0; i < m->nchecks; i++) {
		if (n && !strcmp(s[n - 1].labels, s[i].labels)) {
			s[n - 1].count = sat_add(s[n - 1].count, s[i].count);
			free(s[i].labels);
			continue;
		}
		s[n++] = s[i];
	}

	header(f, "capaudit_checks_total", "counter",
	       "Capability checks seen since the monitor started, by program, container, unit, capability and verdict.");
	for (i = 0; i < n; i++)
		fprintf(f, "capaudit_checks_total{%s} %" PRIu64 "\n", s[i].labels, s[i].count);
	for (i = 0; i < n; i++)
		free(s[i].labels);
	free(s);

	if (m->has_baseline) {
		header(f, "capaudit_findings_total", "counter",
		       "Uses the baseline does not allow, by kind (as capaudit check names them).");
		for (i = 0; i < ARRAY_SIZE(written_findings); i++) {
			enum finding_kind k = written_findings[i];

			fprintf(f, "capaudit_findings_total{kind=\"%s\"} %" PRIu64 "\n",
				finding_kind_name(k), m->findings[k]);
		}
	}

	if (m->has_objects) {
		header(f, "capaudit_check_objects_total", "counter",
		       "Checks seen with what they were about, by the kind of object (file, "
		       "process, sockopt, ...; unlisted: about objects a check could not list).");
		for (i = 1; i < OBJ_KIND_NR; i++)
			fprintf(f, "capaudit_check_objects_total{kind=\"%s\"} %" PRIu64 "\n",
				object_kind_name((int)i), m->objects[i]);
		fprintf(f, "capaudit_check_objects_total{kind=\"unlisted\"} %" PRIu64 "\n",
			m->objects_unlisted);
	}

	header(f, "capaudit_label_overflow_total", "counter",
	       "Checks counted under exe=\"" METRICS_EXE_OTHER "\": their program came after "
	       "the first 1000 distinct exe values.");
	fprintf(f, "capaudit_label_overflow_total{label=\"exe\"} %" PRIu64 "\n", m->exe_overflow);
	header(f, "capaudit_noaudit_checks_left_out_total", "counter",
	       "noaudit checks (the kernel probing, not a use) not in capaudit_checks_total; "
	       "monitor --noaudit counts them there.");
	fprintf(f, "capaudit_noaudit_checks_left_out_total %" PRIu64 "\n", m->noaudit_left_out);

	header(f, "capaudit_lost_total", "counter",
	       "What the kernel side could not store, by kind (the record's lost object).");
	for (i = 0; i < rec_lost_nkinds; i++)
		fprintf(f, "capaudit_lost_total{kind=\"%s\"} %" PRIu64 "\n", rec_lost_kinds[i].key,
			rec_lost_count(&m->lost, &rec_lost_kinds[i]));

	header(f, "capaudit_write_failures_total", "counter",
	       "Writes of the monitor's files that failed (it goes on and tries again), by output.");
	for (i = 0; i < ARRAY_SIZE(write_outputs); i++)
		fprintf(f, "capaudit_write_failures_total{output=\"%s\"} %" PRIu64 "\n",
			write_outputs[i], m->write_failures[i]);

	header(f, "capaudit_monitor_resident_bytes", "gauge",
	       "Resident memory of the capaudit monitor process.");
	fprintf(f, "capaudit_monitor_resident_bytes %" PRIu64 "\n", m->rss_bytes);
	header(f, "capaudit_monitor_cpu_seconds_total", "counter",
	       "User and system CPU time of the capaudit monitor process.");
	fputs("capaudit_monitor_cpu_seconds_total ", f);
	put_double(f, m->cpu_seconds);
	fputc('\n', f);
	if (m->checkpoint_time > 0) {
		header(f, "capaudit_last_checkpoint_timestamp_seconds", "gauge",
		       "Unix time at which the monitor last wrote its record.");
		fputs("capaudit_last_checkpoint_timestamp_seconds ", f);
		put_double(f, m->checkpoint_time);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

char *metrics_text(const struct metrics_snapshot *m, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int rc;

	if (!f)
		return NULL;
	rc = metrics_write(f, m);
	if (fclose(f) || rc) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

int metrics_write_file(const char *path, const struct metrics_snapshot *m, char *err,
		       size_t errlen)
{
	struct outfile o;

	/* rewritten at every checkpoint: the name is the monitor's */
	if (outfile_open(&o, path, OUTFILE_REWRITTEN, err, errlen))
		return -1;
	return outfile_finish(&o, metrics_write(o.f, m), err, errlen);
}
