// SPDX-License-Identifier: GPL-2.0
/*
 * check verdicts for CI systems: JUnit XML, SARIF 2.1.0, GitHub Actions
 * workflow commands. Every string from a record or a baseline is made
 * terminal-safe first, then escaped for its format.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "facts/capnames.h"
#include "analyze/check.h"
#include "lib/jsonutil.h"
#include "output/output.h"
#include "analyze/usite.h"
#include "lib/util.h"
#include "analyze/objtext.h"

#define MSG_LEN CHECK_MSG_LEN

/* ---- JUnit ------------------------------------------------------------------ */

static void xml(FILE *f, const char *s)
{
	markup_escape(f, s);
}

static int junit_check(FILE *f, const struct check_view *v)
{
	const struct check_result *r = v->r;
	char msg[MSG_LEN], about[2048], name[CAP_NAME_LEN];
	size_t i, skipped = 0;

	for (i = 0; i < r->n; i++)
		skipped += !r->f[i].fails && r->f[i].kind != FK_ALLOWED;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"capaudit\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\">\n", r->n, r->nfail, skipped);
	fprintf(f, "  <testsuite name=\"capaudit check ");
	xml(f, check_baseline_shown(v));
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", r->n,
		r->nfail, skipped);
	for (i = 0; i < r->n; i++) {
		const struct finding *x = &r->f[i];

		fprintf(f, "    <testcase classname=\"capaudit.%s\" name=\"",
			cap_name(x->cap, name));
		if (x->syscall) {
			fputs("syscall ", f);
			xml(f, x->syscall);
		} else {
			xml(f, x->func ? x->func : "(capability)");
		}
		fputs("\"", f);
		if (x->usrc) {
			/* the line that asked (--user-stacks): GitLab, Jenkins and
			 * others read file and line on a test case */
			fputs(" file=\"", f);
			xml(f, usite_relative(x->usrc, v->source_root));
			fprintf(f, "\" line=\"%d\"", x->uline);
		}
		check_message(x, v, objects_raw(&x->objects, OBJ_SHOW, about, sizeof(about)), msg,
			      sizeof(msg));
		if (x->fails) {
			fprintf(f, ">\n      <failure type=\"%s\" message=\"", finding_kind_name(x->kind));
			xml(f, msg);
			fputs("\">", f);
			xml(f, msg);
			fputs("</failure>\n    </testcase>\n", f);
		} else if (x->kind != FK_ALLOWED) {
			fputs(">\n      <skipped message=\"", f);
			xml(f, msg);
			fputs("\"/>\n    </testcase>\n", f);
		} else {
			fputs("/>\n", f);
		}
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -1 : 0;
}

const struct formatter output_junit = { .name = "junit", .check = junit_check };

/* ---- SARIF 2.1.0 ---------------------------------------------------------------- */

static const struct {
	enum finding_kind kind;
	const char *id, *name, *text;
} rules[] = {
	{ FK_NEW_CAP, "capaudit/new-capability", "NewCapability",
	  "The workload uses a capability the baseline does not allow." },
	{ FK_NEW_SYSCALL, "capaudit/new-syscall", "NewSyscall",
	  "An allowed capability is asked for in a syscall the baseline does not list." },
	{ FK_NEW_SITE, "capaudit/new-callsite", "NewCallSite",
	  "An allowed capability is asked for at a kernel call site the baseline does not list." },
	{ FK_NEW_DENIAL, "capaudit/new-denial", "NewDenial",
	  "A capability check was denied that the baseline does not expect." },
	{ FK_UNUSED_CAP, "capaudit/unused-capability", "UnusedCapability",
	  "The baseline allows a capability no record used: it may be dropped." },
	{ FK_UNUSED_SYSCALL, "capaudit/unused-syscall", "UnusedSyscall",
	  "The baseline lists a syscall for a capability that no record made." },
	{ FK_UNUSED_SITE, "capaudit/unused-callsite", "UnusedCallSite",
	  "The baseline lists a call site no record reached." },
	{ FK_UNUSED_DENIAL, "capaudit/unused-denial", "UnusedDenial",
	  "An expected denial was not seen." },
};

static int rule_index(enum finding_kind k)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].kind == k)
			return (int)i;
	return -1;
}

static int sarif_check(FILE *f, const struct check_view *v)
{
	const struct check_result *r = v->r;
	json_t *root = json_object(), *run = json_object(), *driver = json_object();
	json_t *ra = json_array(), *results = json_array(), *tool = json_object(), *runs;
	char msg[MSG_LEN], about[2048];
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		json_t *rule = json_object(), *sd = json_object(), *cfg = json_object();

		json_set(rule, "id", json_string(rules[i].id));
		json_set(rule, "name", json_string(rules[i].name));
		json_set(sd, "text", json_string(rules[i].text));
		json_set(rule, "shortDescription", sd);
		json_set(cfg, "level", json_string(rules[i].kind <= FK_NEW_DENIAL ? "error" : "note"));
		json_set(rule, "defaultConfiguration", cfg);
		json_array_append_new(ra, rule);
	}
	json_set(driver, "name", json_string("capaudit"));
	json_set(driver, "version", json_string(CAPAUDIT_VERSION));
	json_set(driver, "rules", ra);
	json_set(tool, "driver", driver);
	json_set(run, "tool", tool);
	for (i = 0; i < r->n; i++) {
		const struct finding *x = &r->f[i];
		json_t *res, *m, *locs, *loc, *phys, *art, *region, *logical, *ll;
		char name[CAP_NAME_LEN], fq[300];
		int ri = rule_index(x->kind);

		if (ri < 0)
			continue;   /* allowed: not a result */
		res = json_object();
		m = json_object();
		check_message(x, v, objects_raw(&x->objects, OBJ_SHOW, about, sizeof(about)), msg,
			      sizeof(msg));
		json_set(res, "ruleId", json_string(rules[ri].id));
		json_set(res, "ruleIndex", json_integer(ri));
		json_set(res, "level", json_string(x->fails ? "error" : "note"));
		json_set_bytes(m, "text", msg);
		json_set(res, "message", m);
		/* the line of the program that asked (--user-stacks), else the
		 * baseline: the file a reviewer changes to accept it */
		locs = json_array();
		loc = json_object();
		phys = json_object();
		art = json_object();
		region = json_object();
		json_set_bytes(art, "uri", x->usrc ? usite_relative(x->usrc, v->source_root)
					       : check_baseline_shown(v));
		json_set(phys, "artifactLocation", art);
		json_set(region, "startLine", json_integer(x->usrc ? x->uline : 1));
		json_set(phys, "region", region);
		json_set(loc, "physicalLocation", phys);
		logical = json_array();
		ll = json_object();
		if (x->syscall) {
			snprintf(fq, sizeof(fq), "syscall!%s", x->syscall);
			json_set_bytes(ll, "name", x->syscall);
		} else {
			snprintf(fq, sizeof(fq), "kernel!%s", x->func ? x->func :
				 cap_name(x->cap, name));
			json_set_bytes(ll, "name", x->func ? x->func : cap_name(x->cap, name));
		}
		json_set_bytes(ll, "fullyQualifiedName", fq);
		json_set(ll, "kind", json_string(x->func || x->syscall ? "function" : "member"));
		json_array_append_new(logical, ll);
		if (x->ufunc) {
			ll = json_object();
			json_set_bytes(ll, "name", x->ufunc);
			json_set(ll, "kind", json_string("function"));
			json_array_append_new(logical, ll);
		}
		json_set(loc, "logicalLocations", logical);
		json_array_append_new(locs, loc);
		json_set(res, "locations", locs);
		if (x->usrc) {
			json_t *rel = json_array(), *rl = json_object(), *rp = json_object(),
			       *ra = json_object(), *rr = json_object();

			json_set(rl, "id", json_integer(1));
			json_set_bytes(ra, "uri", check_baseline_shown(v));
			json_set(rp, "artifactLocation", ra);
			json_set(rr, "startLine", json_integer(1));
			json_set(rp, "region", rr);
			json_set(rl, "physicalLocation", rp);
			json_array_append_new(rel, rl);
			json_set(res, "relatedLocations", rel);
		}
		{
			json_t *props = json_object();

			json_set(props, "capability", json_string(cap_name(x->cap, name)));
			if (x->syscalls)
				json_set_bytes(props, "syscalls", x->syscalls);
			if (x->syscall)
				json_set_bytes(props, "syscall", x->syscall);
			json_set(res, "properties", props);
		}
		json_array_append_new(results, res);
	}
	json_set(run, "results", results);
	json_set(root, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
	json_set(root, "version", json_string("2.1.0"));
	runs = json_array();
	json_array_append_new(runs, run);
	json_set(root, "runs", runs);
	return json_write_pretty_free(f, root);
}

const struct formatter output_sarif = { .name = "sarif", .check = sarif_check };

/* "new capability", ...: a finding's kind in words, for a title */
static const char *finding_words(enum finding_kind k)
{
	switch (k) {
	case FK_NEW_CAP: return "new capability";
	case FK_NEW_SYSCALL: return "new syscall for";
	case FK_NEW_SITE: return "new call site for";
	case FK_NEW_DENIAL: return "new denial of";
	case FK_UNUSED_CAP: return "unused capability";
	case FK_UNUSED_SYSCALL: return "unused syscall for";
	case FK_UNUSED_SITE: return "unused call site for";
	case FK_UNUSED_DENIAL: return "expected denial not seen:";
	default: return "allowed";
	}
}

/* ---- GitHub Actions workflow commands ----------------------------------------- */

/* Escape for a workflow command: data escapes %, CR, LF; properties also : and , */
static void gh(FILE *f, const char *s, bool property)
{
	char safe[4 * MSG_LEN + 1];
	const char *p;

	for (p = text_escape(s ? s : "", safe, sizeof(safe)); *p; p++) {
		if (*p == '%')
			fputs("%25", f);
		else if (property && *p == ':')
			fputs("%3A", f);
		else if (property && *p == ',')
			fputs("%2C", f);
		else
			fputc(*p, f);
	}
}

static int github_check(FILE *f, const struct check_view *v)
{
	const struct check_result *r = v->r;
	char msg[MSG_LEN], about[2048], title[128], name[CAP_NAME_LEN];
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct finding *x = &r->f[i];

		if (x->kind == FK_ALLOWED)
			continue;
		check_message(x, v, objects_raw(&x->objects, OBJ_SHOW, about, sizeof(about)), msg,
			      sizeof(msg));
		snprintf(title, sizeof(title), "capaudit: %s %s", finding_words(x->kind),
			 cap_name(x->cap, name));
		fprintf(f, "::%s file=", x->fails ? "error" : "notice");
		if (x->usrc) {
			/* on the line of the pull request that added the call */
			gh(f, usite_relative(x->usrc, v->source_root), true);
			fprintf(f, ",line=%d", x->uline);
		} else {
			gh(f, check_baseline_shown(v), true);
		}
		fputs(",title=", f);
		gh(f, title, true);
		fputs("::", f);
		gh(f, msg, false);
		fputc('\n', f);
	}
	fprintf(f, "capaudit check: %s: %zu failure%s, %zu hint%s, %zu allowed call site%s seen\n",
		r->nfail ? "FAIL" : "OK", r->nfail, r->nfail == 1 ? "" : "s", r->nhint,
		r->nhint == 1 ? "" : "s", r->nallowed, r->nallowed == 1 ? "" : "s");
	return ferror(f) ? -1 : 0;
}

const struct formatter output_github = { .name = "github", .check = github_check };
